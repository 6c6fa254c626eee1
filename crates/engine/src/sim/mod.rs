//! The simulation world: brokers (group coordinators), consumers, topics, a seeded network and a
//! virtual clock, driven one instant at a time.
//!
//! # Run loop
//!
//! [`Simulation::new`] builds a world from a [`Scenario`](crate::scenario::Scenario): its topics,
//! its consumers (each started at its `start_ms`) and its timed actions. Then:
//!
//! * [`Simulation::step`] advances the clock to the next instant at which something happens (an
//!   action, a message arrival, a coordinator timer, a consumer timer) and runs everything due then;
//! * [`Simulation::run_until`] steps until a given time; [`Simulation::run_to_end`] until the
//!   scenario's end;
//! * [`Simulation::apply`] applies a user action now or schedules it;
//! * the getters ([`Simulation::consumers`], [`Simulation::topics`], [`Simulation::messages_in_flight`],
//!   [`Simulation::group`], [`Simulation::log`], ...) are read-only views for the UI.
//!
//! Within one instant the order is fixed: scheduled actions, then message arrivals (by send
//! order), then coordinator timers, then consumer timers (by consumer order), repeated until
//! nothing is left at that instant. The same scenario therefore always gives the same log, byte
//! for byte. `Simulation` is `Clone`: the UI snapshots it for time travel.
//!
//! # The cluster
//!
//! The world has a [`Cluster`] of brokers (3 by default, ids `0..n`), each with its own
//! [`Coordinator`]. The group's coordinator is the broker that leads the group's
//! `__consumer_offsets` partition; the partition is replicated to followers, and every record the
//! coordinator appends is copied into the leader's replica and fetched by the followers (see
//! [`crate::cluster`]). Brokers can crash ([`Action::CrashBroker`]: the broker answers nothing, its
//! connections drop, and the clients that were talking to it see a disconnect and rediscover the
//! coordinator), shut down gracefully, restart ([`Action::RestartBroker`]) and be slowed
//! ([`Action::SlowBroker`]). When the group's partition gets a new leader, the new leader's
//! coordinator loads the group from its own replica of the log (§5.7). A request to a broker that
//! is down is refused (the client sees a disconnect); a response sent by a broker before it crashed
//! is lost with the connection. Cluster events are logged as [`WorldEvent::Cluster`]. Within an
//! instant, cluster timers (interval fetches, ISR expiration, append timeouts) run after the
//! coordinator timers.

mod log;
mod view;

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

pub use log::{NetworkEvent, SimEvent, SimEventKind, WorldEvent};
pub use view::{ConsumerPartitionView, ConsumerView, PartitionView, TopicView};

use crate::client::{ClientEvent, ClientOutput, Consumer, ConsumerConfig, Destination};
use crate::cluster::{BrokerView, Cluster, ClusterConfig, ClusterEvent, OffsetsPartitionView};
use crate::coordinator::{partition_for, Coordinator, CoordinatorConfig, GroupSnapshot};
use crate::network::{Endpoint, Message, Network, NetworkConfig, Payload};
use crate::protocol::{ConnectionId, DescribedGroup, ErrorCode, NodeId, Request, TopicPartition};
use crate::scenario::{Scenario, ScenarioError};
use crate::sort::{btree_map, btree_set, sort};
use crate::time::{SimDuration, SimTime};
use crate::topic::{Subscription, Topics};

/// How much of the event log a simulation keeps in memory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LogLevel {
    /// Every event.
    #[default]
    All,
    /// Only the events of the readable trace (no heartbeats, timers, arrivals; see
    /// [`SimEvent::is_detail`]).
    Info,
    /// Nothing (benchmarks).
    Off,
}

/// Something a user (or a scenario) does to the world.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    /// Start a new consumer.
    AddConsumer {
        /// Its settings.
        config: Box<ConsumerConfig>,
    },
    /// Kill a consumer: it stops at once, sends nothing.
    Kill {
        /// The consumer.
        consumer: String,
    },
    /// Close a consumer: commit, revoke, LeaveGroup (dynamic members only).
    Close {
        /// The consumer.
        consumer: String,
    },
    /// Start a stopped consumer again with the same settings, as a new process (it has lost its
    /// member id; a static member rejoins with its `group.instance.id`).
    Restart {
        /// The consumer.
        consumer: String,
    },
    /// Pause a consumer's heartbeats and/or polls (a GC pause stops both; a slow batch only polls).
    Pause {
        /// The consumer.
        consumer: String,
        /// How long; `None` until [`Action::Resume`].
        duration_ms: Option<u64>,
        /// Whether the heartbeat thread stops.
        heartbeats: bool,
        /// Whether the application stops polling.
        polls: bool,
    },
    /// End a pause.
    Resume {
        /// The consumer.
        consumer: String,
    },
    /// `subscribe()` with a new subscription.
    Subscribe {
        /// The consumer.
        consumer: String,
        /// The subscription.
        subscription: Subscription,
    },
    /// Create a topic.
    CreateTopic {
        /// Its name.
        topic: String,
        /// Its partitions (at least 1).
        partitions: i32,
        /// Records per second.
        records_per_sec: u64,
        /// Records already in each partition.
        initial_records: i64,
    },
    /// Grow a topic (Kafka can only add partitions).
    AddPartitions {
        /// The topic.
        topic: String,
        /// The new partition count.
        partitions: i32,
    },
    /// Delete a topic.
    DeleteTopic {
        /// The topic.
        topic: String,
    },
    /// Change a producer's rate.
    SetProduceRate {
        /// The topic.
        topic: String,
        /// Records per second.
        records_per_sec: u64,
    },
    /// Change the network's latency and faults.
    SetNetwork {
        /// The new configuration.
        network: NetworkConfig,
    },
    /// The group's `__consumer_offsets` partition loses its leader for a while, then the same broker
    /// loads it again (a coordinator failover; clients see NOT_COORDINATOR, and FindCoordinator
    /// answers COORDINATOR_NOT_AVAILABLE until the reload).
    CoordinatorFailover {
        /// How long the group has no coordinator.
        duration_ms: u64,
    },
    /// A broker stops. A crash (`graceful: false`) loses its memory at once: it answers nothing,
    /// parked requests are never answered, in-flight responses are lost, and clients connected to it
    /// see a disconnect. A controlled shutdown (`graceful: true`) first unloads its coordinator
    /// (parked JoinGroup/SyncGroup get NOT_COORDINATOR) and hands its leaderships over.
    CrashBroker {
        /// The broker.
        broker: NodeId,
        /// Controlled shutdown rather than a crash.
        #[serde(default)]
        graceful: bool,
    },
    /// A stopped broker starts again, with its log as it was.
    RestartBroker {
        /// The broker.
        broker: NodeId,
    },
    /// A broker's followers fetch only every `fetch_interval_ms` (a slow follower).
    SlowBroker {
        /// The broker.
        broker: NodeId,
        /// Its fetch interval.
        fetch_interval_ms: u64,
        /// For how long (`None`: until it restarts).
        duration_ms: Option<u64>,
    },
    /// A scripted member sends a raw protocol request (with every field exactly as given).
    SendRequest {
        /// The script's name (one connection per script).
        script: String,
        /// The request.
        request: Request,
    },
}

/// Why an action could not be applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionError(pub String);

impl std::fmt::Display for ActionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ActionError {}

// Few entries are scheduled at a time, so their size does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
enum Scheduled {
    Action(Action),
    Reload { node: NodeId, partition: i32 },
}

#[derive(Clone)]
struct Broker {
    coordinator: Coordinator,
}

impl std::fmt::Debug for Broker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Broker")
            .field("node", &self.coordinator.node_id())
            .finish_non_exhaustive()
    }
}

#[derive(Clone, Debug)]
struct ConsumerSlot {
    consumer: Consumer,
    connection: ConnectionId,
    duplicates: u64,
}

#[derive(Clone, Debug)]
struct ScriptSlot {
    connection: ConnectionId,
    next_correlation: i32,
}

/// Sorted, disjoint `[from, to)` ranges of processed offsets of one partition.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct RangeSet(Vec<(i64, i64)>);

impl RangeSet {
    /// Adds `[from, to)`; returns how many of its offsets were already present.
    fn insert(&mut self, from: i64, to: i64) -> u64 {
        if to <= from {
            return 0;
        }
        // The usual case, records after everything processed so far: no overlap, no new vector.
        match self.0.last_mut() {
            None => {
                self.0.push((from, to));
                return 0;
            }
            Some(last) if last.1 < from => {
                self.0.push((from, to));
                return 0;
            }
            Some(last) if last.1 == from => {
                last.1 = to;
                return 0;
            }
            _ => {}
        }
        let mut overlap = 0;
        let (mut lo, mut hi) = (from, to);
        let mut out = Vec::with_capacity(self.0.len() + 1);
        for &(a, b) in &self.0 {
            if b < lo || a > hi {
                out.push((a, b));
            } else {
                overlap += (b.min(to) - a.max(from)).max(0) as u64;
                lo = lo.min(a);
                hi = hi.max(b);
            }
        }
        out.push((lo, hi));
        sort(&mut out);
        self.0 = out;
        overlap
    }

    /// Whether every offset in `[0, upto)` is present.
    fn covers(&self, upto: i64) -> bool {
        upto <= 0 || self.0.first().is_some_and(|&(a, b)| a <= 0 && b >= upto)
    }
}

/// The whole simulated world. See the [module docs](self).
#[derive(Clone, Debug)]
pub struct Simulation {
    group_id: String,
    end: Option<SimTime>,
    log_level: LogLevel,
    now: SimTime,
    /// Whether everything due at `now` has run.
    settled: bool,
    brokers: Vec<Broker>,
    consumers: Vec<ConsumerSlot>,
    scripts: BTreeMap<String, ScriptSlot>,
    connections: BTreeMap<ConnectionId, Endpoint>,
    next_connection: u64,
    topics: Topics,
    network: Network,
    /// What is due later, by time, then class (every action before any reload of the same
    /// instant, however either was scheduled), then the order in which it was scheduled.
    scheduled: BTreeMap<(SimTime, u8, u64), Scheduled>,
    next_scheduled: u64,
    log: Vec<SimEvent>,
    next_seq: u64,
    /// The offsets processed so far, by topic then partition (two levels, so a lookup compares
    /// the topic name once per level rather than at every node of a map keyed by topic-partition).
    processed: BTreeMap<String, BTreeMap<i32, RangeSet>>,
    ended: bool,
    /// Each consumer's next timer, indexed by time (so an instant only visits due consumers).
    consumer_deadlines: BTreeSet<(SimTime, usize)>,
    consumer_deadline: Vec<Option<SimTime>>,
    /// Which consumer listens on each connection (the current one of each consumer only).
    connection_owner: BTreeMap<ConnectionId, usize>,
    /// The brokers, the controller and the replication of the group's partition.
    cluster: Cluster,
    /// The coordinator settings every broker starts with (its `node_id` aside).
    coordinator_config: CoordinatorConfig,
    /// When each broker last crashed: what it sent before is lost with its connections.
    crashed_at: BTreeMap<NodeId, SimTime>,
    /// The broker that led the group's partition last (the coordinator the views show).
    last_coordinator: NodeId,
}

/// The most passes over one instant before the simulation moves on (a guard against a livelock
/// bug; never reached in correct runs).
const MAX_PASSES_PER_INSTANT: usize = 10_000;

impl Simulation {
    /// Builds the world of a scenario (validating it first).
    pub fn new(scenario: &Scenario) -> Result<Self, ScenarioError> {
        scenario.validate()?;
        let mut sim = Self::with_cluster(
            scenario.group_id.clone(),
            scenario.coordinator_config(),
            scenario.cluster_config(),
            scenario.network.clone(),
            scenario.seed,
            Some(SimTime(scenario.end_ms)),
        );
        for t in &scenario.topics {
            sim.create_topic_now(t.name.clone(), t.partitions, t.records_per_sec, t.initial_records);
        }
        for (at, action) in scenario.timed_actions() {
            sim.schedule(at, action);
        }
        Ok(sim)
    }

    /// An empty world with the default cluster (3 brokers, replication factor 3), no topics, no
    /// consumers. `end` is where [`Simulation::run_to_end`] stops.
    pub fn empty(
        group_id: impl Into<String>,
        coordinator: CoordinatorConfig,
        network: NetworkConfig,
        seed: u64,
        end: Option<SimTime>,
    ) -> Self {
        Self::with_cluster(
            group_id,
            coordinator,
            ClusterConfig::default(),
            network,
            seed,
            end,
        )
    }

    /// An empty world on a cluster: brokers `0..n`, each with a coordinator configured as
    /// `coordinator` (with its own `node_id`), every `__consumer_offsets` partition led by its
    /// preferred replica, the group's partition loaded by its leader.
    ///
    /// # Panics
    ///
    /// If the cluster configuration is invalid (scenarios validate it first).
    pub fn with_cluster(
        group_id: impl Into<String>,
        coordinator: CoordinatorConfig,
        cluster: ClusterConfig,
        network: NetworkConfig,
        seed: u64,
        end: Option<SimTime>,
    ) -> Self {
        let group_id = group_id.into();
        let p = partition_for(&group_id, coordinator.offsets_topic_num_partitions);
        let cluster = Cluster::new(cluster, coordinator.offsets_topic_num_partitions, p);
        let leader = cluster
            .group_leader()
            .expect("every partition starts with a leader");
        let brokers = cluster
            .broker_ids()
            .into_iter()
            .map(|id| Broker {
                coordinator: fresh_coordinator(&coordinator, id, &cluster),
            })
            .collect();
        let mut sim = Self {
            group_id,
            end,
            log_level: LogLevel::All,
            now: SimTime::ZERO,
            settled: false,
            brokers,
            consumers: Vec::new(),
            scripts: BTreeMap::new(),
            connections: BTreeMap::new(),
            next_connection: 1,
            topics: Topics::new(),
            network: Network::new(network, seed),
            scheduled: BTreeMap::new(),
            next_scheduled: 0,
            log: Vec::new(),
            next_seq: 1,
            processed: BTreeMap::new(),
            ended: false,
            consumer_deadlines: BTreeSet::new(),
            consumer_deadline: Vec::new(),
            connection_owner: BTreeMap::new(),
            cluster,
            coordinator_config: coordinator,
            crashed_at: BTreeMap::new(),
            last_coordinator: leader,
        };
        let i = sim.broker_index(leader).expect("a broker");
        sim.brokers[i].coordinator.load(SimTime::ZERO, p, Vec::new());
        sim.pump_broker(i);
        sim
    }

    /// Sets how much of the log is kept (default: everything).
    pub fn set_log_level(&mut self, level: LogLevel) {
        // Events a quiet consumer skipped are counted before the switch.
        for slot in &mut self.consumers {
            self.next_seq += slot.consumer.take_quiet_events();
            slot.consumer.set_quiet(level == LogLevel::Off);
        }
        // The coordinators' events are not counted: with the log off they are not built at all.
        for b in &mut self.brokers {
            b.coordinator.set_quiet(level == LogLevel::Off);
        }
        self.log_level = level;
    }

    // ============================================================================== driving

    /// The current simulated time.
    pub fn now(&self) -> SimTime {
        self.now
    }

    /// The first instant at which an action applied now can still run first: `now` while nothing
    /// has run at `now`, else the next millisecond (an instant that has run is not run again).
    pub fn next_open_instant(&self) -> SimTime {
        if self.settled {
            self.now + SimDuration::from_millis(1)
        } else {
            self.now
        }
    }

    /// The scenario's end time.
    pub fn end(&self) -> Option<SimTime> {
        self.end
    }

    /// When the next thing happens, if anything is scheduled.
    pub fn next_event_time(&self) -> Option<SimTime> {
        let mut t: Option<SimTime> = None;
        let floor = if self.settled {
            self.now + SimDuration::from_millis(1)
        } else {
            self.now
        };
        let mut consider = |x: SimTime| {
            let x = x.max(floor);
            t = Some(t.map_or(x, |y| y.min(x)));
        };
        if let Some(((at, _, _), _)) = self.scheduled.first_key_value() {
            consider(*at);
        }
        if let Some(d) = self.network.next_delivery() {
            consider(d);
        }
        for b in &self.brokers {
            if let Some(d) = b.coordinator.poll_timeout() {
                consider(d);
            }
        }
        if let Some(d) = self.cluster.poll_timeout() {
            consider(d);
        }
        if let Some((d, _)) = self.consumer_deadlines.first() {
            consider(*d);
        }
        t
    }

    /// Advances to the next instant at which something happens and runs everything due then.
    /// Returns that instant, or `None` if nothing will ever happen again.
    pub fn step(&mut self) -> Option<SimTime> {
        let t = self.next_event_time()?;
        self.run_instant(t);
        Some(t)
    }

    /// Runs every instant up to and including `until`, then sets the clock to `until`.
    pub fn run_until(&mut self, until: SimTime) {
        while let Some(t) = self.next_event_time() {
            if t > until {
                break;
            }
            self.run_instant(t);
        }
        if until > self.now {
            self.now = until;
            self.settled = false;
        }
    }

    /// Runs to the scenario's end (if it has one) and logs the end.
    pub fn run_to_end(&mut self) {
        if let Some(end) = self.end {
            self.run_until(end);
            if !self.ended {
                self.ended = true;
                self.emit(log::SimEventKind::World {
                    event: WorldEvent::End,
                });
            }
        }
    }

    /// Applies `action` at `at`: at once if `at` is not in the future, else when the clock gets
    /// there. An immediate action for an unknown consumer or topic is an error; a scheduled one is
    /// checked when it runs (and logged as rejected if invalid).
    pub fn apply(&mut self, at: SimTime, action: Action) -> Result<(), ActionError> {
        if at > self.now {
            self.schedule(at, action);
            return Ok(());
        }
        self.check(&action)?;
        self.apply_now(action);
        // Whatever the action caused at this instant runs now.
        self.settled = false;
        self.run_instant(self.now);
        Ok(())
    }

    /// Creates a topic now, as [`Action::CreateTopic`] through [`Simulation::apply`] does, but
    /// leaves the instant's consequences to the next [`Simulation::run_until`] or step (they are
    /// the same, only later). The playground builds its starting world with it: the first
    /// render then does not wait for the code of a whole instant to load.
    pub fn create_topic(
        &mut self,
        topic: String,
        partitions: i32,
        records_per_sec: u64,
        initial_records: i64,
    ) -> Result<(), ActionError> {
        self.check(&Action::CreateTopic {
            topic: topic.clone(),
            partitions,
            records_per_sec,
            initial_records,
        })?;
        self.create_topic_now(topic, partitions, records_per_sec, initial_records);
        self.settled = false;
        Ok(())
    }

    fn create_topic_now(
        &mut self,
        topic: String,
        partitions: i32,
        records_per_sec: u64,
        initial_records: i64,
    ) {
        let now = self.now;
        if self
            .topics
            .create(&topic, partitions, records_per_sec, initial_records, now)
        {
            self.emit(SimEventKind::World {
                event: WorldEvent::TopicCreated {
                    topic,
                    partitions,
                    records_per_sec,
                },
            });
        }
    }

    /// Schedules `action` at `at`. Within an instant the scheduled actions run first, in the order
    /// they were scheduled, then the coordinator reloads, then message arrivals and timers: the one
    /// placement of an action inside its instant, for a scenario's actions and a user's alike.
    pub(crate) fn schedule(&mut self, at: SimTime, action: Action) {
        self.scheduled
            .insert((at, 0, self.next_scheduled), Scheduled::Action(action));
        self.next_scheduled += 1;
    }

    fn run_instant(&mut self, t: SimTime) {
        let t = t.max(self.now);
        self.now = t;
        for _ in 0..MAX_PASSES_PER_INSTANT {
            let mut progressed = false;
            while let Some(entry) = self.scheduled.first_entry() {
                if entry.key().0 > t {
                    break;
                }
                let s = entry.remove();
                progressed = true;
                match s {
                    Scheduled::Action(a) => match self.check(&a) {
                        Ok(()) => self.apply_now(a),
                        Err(e) => self.emit(SimEventKind::World {
                            event: WorldEvent::ActionRejected { reason: e.0 },
                        }),
                    },
                    Scheduled::Reload { node, partition } => {
                        // Only if the broker still leads the partition (it may have crashed
                        // meanwhile); it loads its replica of the log.
                        let leads = self.cluster.group_leader() == Some(node) && self.cluster.is_alive(node);
                        if let (Some(i), true) = (self.broker_index(node), leads) {
                            // A leader always holds a replica of the log.
                            let leo = self.cluster.log_end_offset(node).unwrap_or(0);
                            let latest = self.cluster.replica_latest(node).unwrap_or_default();
                            self.brokers[i]
                                .coordinator
                                .load_latest(t, partition, leo, &latest);
                            self.tell_leader(partition, Some(node));
                            self.emit(SimEventKind::World {
                                event: WorldEvent::CoordinatorLoaded { node, partition },
                            });
                            self.pump_broker(i);
                        }
                    }
                }
            }
            while let Some(msg) = self.network.pop_due(t) {
                progressed = true;
                self.deliver(msg);
            }
            for i in 0..self.brokers.len() {
                if self.brokers[i].coordinator.poll_timeout().is_some_and(|d| d <= t) {
                    progressed = true;
                    self.brokers[i].coordinator.handle_timeout(t);
                    self.pump_broker(i);
                }
            }
            if self.cluster.poll_timeout().is_some_and(|d| d <= t) {
                progressed = true;
                let timed_out = self.cluster.handle_timeout(t);
                self.pump_cluster();
                self.appends_timed_out(&timed_out);
            }
            let due: Vec<usize> = self
                .consumer_deadlines
                .range(..=(t, usize::MAX))
                .map(|(_, i)| *i)
                .collect();
            for i in due {
                let before = self.consumer_deadline[i];
                self.consumers[i].consumer.handle_timeout(t, &self.topics);
                self.pump_consumer(i);
                // A timer that stays due after firing is spurious; do not spin on it.
                if self.consumer_deadline[i] != before {
                    progressed = true;
                }
            }
            if !progressed {
                break;
            }
        }
        self.settled = true;
    }

    // ============================================================================== actions

    fn consumer_index(&self, name: &str) -> Option<usize> {
        self.consumers.iter().position(|c| c.consumer.name() == name)
    }

    fn broker_index(&self, node: NodeId) -> Option<usize> {
        usize::try_from(node.0).ok().filter(|i| *i < self.brokers.len())
    }

    /// Where a request for "any broker" goes: the first live broker (broker 0 if all are down:
    /// the connection is then refused).
    fn bootstrap_broker(&self) -> NodeId {
        self.cluster
            .broker_ids()
            .into_iter()
            .find(|b| self.cluster.is_alive(*b))
            .unwrap_or(NodeId(0))
    }

    /// The broker whose coordinator the views show: the group partition's leader, or the last one
    /// while the partition is offline.
    fn coordinator_index(&self) -> usize {
        let node = self.cluster.group_leader().unwrap_or(self.last_coordinator);
        self.broker_index(node).unwrap_or(0)
    }

    pub(crate) fn check(&self, action: &Action) -> Result<(), ActionError> {
        let known = |name: &str| {
            self.consumer_index(name)
                .map(|_| ())
                .ok_or_else(|| ActionError(format!("no consumer named `{name}`")))
        };
        let topic = |name: &str| {
            if self.topics.contains(name) {
                Ok(())
            } else {
                Err(ActionError(format!("no topic named `{name}`")))
            }
        };
        match action {
            Action::AddConsumer { config } => {
                if self.consumer_index(&config.name).is_some() {
                    return Err(ActionError(format!(
                        "a consumer named `{}` already exists",
                        config.name
                    )));
                }
                Ok(())
            }
            Action::Kill { consumer }
            | Action::Close { consumer }
            | Action::Pause { consumer, .. }
            | Action::Resume { consumer }
            | Action::Subscribe { consumer, .. } => known(consumer),
            Action::Restart { consumer } => {
                known(consumer)?;
                let i = self.consumer_index(consumer).unwrap_or_default();
                if self.consumers[i].consumer.lifecycle().is_running() {
                    return Err(ActionError(format!("consumer `{consumer}` is still running")));
                }
                Ok(())
            }
            Action::CreateTopic {
                topic: name,
                partitions,
                ..
            } => {
                if self.topics.contains(name) {
                    Err(ActionError(format!("topic `{name}` already exists")))
                } else if *partitions < 1 {
                    Err(ActionError(format!(
                        "topic `{name}` needs at least one partition"
                    )))
                } else {
                    Ok(())
                }
            }
            Action::AddPartitions {
                topic: name,
                partitions,
            } => {
                topic(name)?;
                let now = self.topics.get(name).map_or(0, |t| t.partitions());
                if *partitions <= now {
                    return Err(ActionError(format!(
                        "topic `{name}` has {now} partitions; Kafka can only add partitions (asked for {partitions})"
                    )));
                }
                Ok(())
            }
            Action::DeleteTopic { topic: name } | Action::SetProduceRate { topic: name, .. } => topic(name),
            Action::SetNetwork { .. } | Action::CoordinatorFailover { .. } | Action::SendRequest { .. } => {
                Ok(())
            }
            Action::CrashBroker { broker, .. } => {
                if self.broker_index(*broker).is_none() {
                    Err(ActionError(format!("no broker {}", broker.0)))
                } else if !self.cluster.is_alive(*broker) {
                    Err(ActionError(format!("broker {} is already down", broker.0)))
                } else {
                    Ok(())
                }
            }
            Action::RestartBroker { broker } => {
                if self.broker_index(*broker).is_none() {
                    Err(ActionError(format!("no broker {}", broker.0)))
                } else if self.cluster.is_alive(*broker) {
                    Err(ActionError(format!("broker {} is running", broker.0)))
                } else {
                    Ok(())
                }
            }
            Action::SlowBroker {
                broker,
                fetch_interval_ms,
                ..
            } => {
                if self.broker_index(*broker).is_none() {
                    Err(ActionError(format!("no broker {}", broker.0)))
                } else if !self.cluster.is_alive(*broker) {
                    Err(ActionError(format!("broker {} is down", broker.0)))
                } else if *fetch_interval_ms == 0 {
                    Err(ActionError(
                        "a slow broker's fetch interval must be positive".into(),
                    ))
                } else {
                    Ok(())
                }
            }
        }
    }

    fn new_connection(&mut self, endpoint: Endpoint) -> ConnectionId {
        let c = ConnectionId(self.next_connection);
        self.next_connection += 1;
        self.connections.insert(c, endpoint);
        c
    }

    fn apply_now(&mut self, action: Action) {
        let now = self.now;
        match action {
            Action::AddConsumer { config } => {
                let config = *config;
                let name = config.name.clone();
                self.emit(SimEventKind::World {
                    event: WorldEvent::ConsumerStarted {
                        name: name.clone(),
                        settings: settings_summary(&config),
                    },
                });
                let connection = self.new_connection(Endpoint::Consumer(name));
                let mut consumer = Consumer::new(config);
                consumer.set_quiet(self.log_level == LogLevel::Off);
                consumer.start(now, &self.topics);
                self.consumers.push(ConsumerSlot {
                    consumer,
                    connection,
                    duplicates: 0,
                });
                self.connection_owner.insert(connection, self.consumers.len() - 1);
                self.pump_consumer(self.consumers.len() - 1);
            }
            Action::Kill { consumer } => self.with_consumer(&consumer, |c, _| c.kill()),
            Action::Close { consumer } => self.with_consumer(&consumer, |c, _| c.close(now)),
            Action::Restart { consumer } => {
                let Some(i) = self.consumer_index(&consumer) else {
                    return;
                };
                let config = self.consumers[i].consumer.config().clone();
                self.emit(SimEventKind::World {
                    event: WorldEvent::ConsumerStarted {
                        name: consumer.clone(),
                        settings: format!("restarted; {}", settings_summary(&config)),
                    },
                });
                let connection = self.new_connection(Endpoint::Consumer(consumer));
                let mut c = Consumer::new(config);
                c.set_quiet(self.log_level == LogLevel::Off);
                c.start(now, &self.topics);
                self.next_seq += self.consumers[i].consumer.take_quiet_events();
                self.consumers[i].consumer = c;
                self.connection_owner.remove(&self.consumers[i].connection);
                self.consumers[i].connection = connection;
                self.connection_owner.insert(connection, i);
                self.pump_consumer(i);
            }
            Action::Pause {
                consumer,
                duration_ms,
                heartbeats,
                polls,
            } => {
                let until = duration_ms.map(|d| now + SimDuration::from_millis(d));
                self.with_consumer(&consumer, |c, _| c.pause(now, until, heartbeats, polls));
            }
            Action::Resume { consumer } => self.with_consumer(&consumer, |c, t| c.resume(now, t)),
            Action::Subscribe {
                consumer,
                subscription,
            } => {
                self.emit(SimEventKind::World {
                    event: WorldEvent::SubscriptionSet {
                        consumer: consumer.clone(),
                        subscription: subscription.clone(),
                    },
                });
                self.with_consumer(&consumer, |c, t| c.subscribe(now, subscription, t));
            }
            Action::CreateTopic {
                topic,
                partitions,
                records_per_sec,
                initial_records,
            } => self.create_topic_now(topic, partitions, records_per_sec, initial_records),
            Action::AddPartitions { topic, partitions } => {
                let from = self.topics.get(&topic).map_or(0, |t| t.partitions());
                if self.topics.add_partitions(&topic, partitions, now) {
                    self.emit(SimEventKind::World {
                        event: WorldEvent::PartitionsAdded {
                            topic,
                            from,
                            to: partitions,
                        },
                    });
                }
            }
            Action::DeleteTopic { topic } => {
                if self.topics.delete(&topic) {
                    self.emit(SimEventKind::World {
                        event: WorldEvent::TopicDeleted { topic },
                    });
                }
            }
            Action::SetProduceRate {
                topic,
                records_per_sec,
            } => {
                if self.topics.set_rate(&topic, records_per_sec, now) {
                    self.emit(SimEventKind::World {
                        event: WorldEvent::ProduceRateChanged {
                            topic,
                            records_per_sec,
                        },
                    });
                }
            }
            Action::SetNetwork { network } => {
                self.network.set_config(network.clone());
                self.emit(SimEventKind::World {
                    event: WorldEvent::NetworkChanged { network },
                });
            }
            Action::CoordinatorFailover { duration_ms } => {
                let Some(leader) = self.cluster.group_leader() else {
                    self.emit(SimEventKind::World {
                        event: WorldEvent::ActionRejected {
                            reason: "the group's partition has no leader".into(),
                        },
                    });
                    return;
                };
                let ci = self.broker_index(leader).unwrap_or(0);
                let coord = &mut self.brokers[ci].coordinator;
                let node = coord.node_id();
                let partition = coord.partition_for(&self.group_id);
                if !coord.led_partitions().iter().any(|(p, _)| *p == partition) {
                    self.emit(SimEventKind::World {
                        event: WorldEvent::ActionRejected {
                            reason: "the group's coordinator is already unloaded".into(),
                        },
                    });
                    return;
                }
                self.emit(SimEventKind::World {
                    event: WorldEvent::CoordinatorUnloaded { node, partition },
                });
                // Its log stays in its replica, from which the reload reads.
                let _ = self.brokers[ci].coordinator.unload_shared(now, partition);
                // Until then the partition has no leader to name (COORDINATOR_NOT_AVAILABLE).
                self.tell_leader(partition, None);
                self.pump_broker(ci);
                self.scheduled.insert(
                    (
                        now + SimDuration::from_millis(duration_ms),
                        1,
                        self.next_scheduled,
                    ),
                    Scheduled::Reload { node, partition },
                );
                self.next_scheduled += 1;
            }
            Action::CrashBroker { broker, graceful } => self.crash_broker(broker, graceful),
            Action::RestartBroker { broker } => {
                let Some(i) = self.broker_index(broker) else {
                    return;
                };
                self.brokers[i].coordinator = self.fresh_broker_coordinator(broker);
                self.cluster.restart(now, broker);
                self.pump_cluster();
            }
            Action::SlowBroker {
                broker,
                fetch_interval_ms,
                duration_ms,
            } => {
                let until = duration_ms.map(|d| now + SimDuration::from_millis(d));
                self.cluster.slow(now, broker, fetch_interval_ms, until);
                self.pump_cluster();
            }
            Action::SendRequest { script, request } => {
                if !self.scripts.contains_key(&script) {
                    let connection = self.new_connection(Endpoint::Script(script.clone()));
                    self.scripts.insert(
                        script.clone(),
                        ScriptSlot {
                            connection,
                            next_correlation: 0,
                        },
                    );
                }
                self.emit(SimEventKind::World {
                    event: WorldEvent::ScriptedRequest {
                        script: script.clone(),
                        request: request.clone(),
                    },
                });
                let slot = self.scripts.get_mut(&script).expect("script slot just ensured");
                slot.next_correlation += 1;
                let (connection, corr) = (slot.connection, slot.next_correlation);
                let to = Endpoint::Broker(
                    self.cluster
                        .group_leader()
                        .unwrap_or_else(|| self.bootstrap_broker()),
                );
                self.send(
                    Endpoint::Script(script),
                    to,
                    connection,
                    corr,
                    Payload::Request(request),
                );
            }
        }
    }

    /// A broker stops (see [`Action::CrashBroker`]).
    fn crash_broker(&mut self, broker: NodeId, graceful: bool) {
        let now = self.now;
        let Some(i) = self.broker_index(broker) else {
            return;
        };
        let p = self.cluster.group_partition();
        if graceful && self.cluster.group_leader() == Some(broker) {
            // Controlled shutdown: the coordinator resigns first, answering what it parked.
            let _ = self.brokers[i].coordinator.unload(now, p);
            self.pump_broker(i);
        }
        // Whatever it had in memory is gone.
        self.brokers[i].coordinator = self.fresh_broker_coordinator(broker);
        if !graceful {
            self.crashed_at.insert(broker, now);
        }
        self.cluster.crash(now, broker, graceful);
        self.pump_cluster();
        if !graceful {
            // Its connections drop: every consumer talking to it sees a disconnect.
            let mut talking: BTreeSet<ConnectionId> = btree_set(
                self.network
                    .in_flight()
                    .filter(|m| m.to == Endpoint::Broker(broker) || m.from == Endpoint::Broker(broker))
                    .map(|m| m.connection),
            );
            for (j, slot) in self.consumers.iter().enumerate() {
                if slot.consumer.coordinator() == Some(broker) && slot.consumer.lifecycle().is_running() {
                    talking.insert(self.consumers[j].connection);
                }
            }
            for c in talking {
                if let Some(&j) = self.connection_owner.get(&c) {
                    self.consumers[j].consumer.handle_disconnect(now, &self.topics);
                    self.pump_consumer(j);
                }
            }
        }
    }

    /// Reacts to what the cluster did: leadership for FindCoordinator, loading the group on a new
    /// leader, completing appends the HW now covers. Logs every cluster event.
    fn pump_cluster(&mut self) {
        while let Some(ev) = self.cluster.poll_event() {
            let reaction = ev.clone();
            self.emit(SimEventKind::World {
                event: WorldEvent::Cluster { event: ev },
            });
            self.refresh_append_gate();
            match reaction {
                ClusterEvent::LeaderElected {
                    partition, leader, ..
                } => {
                    self.tell_leader(partition, Some(leader));
                    self.last_coordinator = leader;
                    if let Some(i) = self.broker_index(leader) {
                        // From its own replica of the log: each key's latest record, from the
                        // replica's index (no rescan, and no copy, of the history).
                        let leo = self.cluster.log_end_offset(leader).unwrap_or(0);
                        let latest = self.cluster.replica_latest(leader).unwrap_or_default();
                        self.brokers[i]
                            .coordinator
                            .load_latest(self.now, partition, leo, &latest);
                        self.pump_broker(i);
                    }
                }
                ClusterEvent::PartitionOffline { partition, .. } => self.tell_leader(partition, None),
                ClusterEvent::LeadersMoved { changes } => {
                    for (p, l) in changes {
                        self.tell_leader(p, l);
                    }
                }
                ClusterEvent::HighWatermarkAdvanced {
                    partition,
                    leader,
                    to,
                    ..
                } => {
                    self.high_watermark_advanced(leader, partition, to);
                }
                _ => {}
            }
        }
    }

    /// A broker's coordinator as it (re)starts: no group loaded, the partition leaders as the
    /// brokers' metadata has them.
    fn fresh_broker_coordinator(&self, broker: NodeId) -> Coordinator {
        let mut c = fresh_coordinator(&self.coordinator_config, broker, &self.cluster);
        c.set_quiet(self.log_level == LogLevel::Off);
        let p = self.cluster.group_partition();
        c.set_partition_leader(p, self.advertised_group_leader());
        c
    }

    /// The group partition's leader as FindCoordinator may name it: the cluster's leader, but none
    /// while that broker's coordinator has resigned the partition (a `coordinator_failover` until
    /// its reload): Kafka answers COORDINATOR_NOT_AVAILABLE while a partition has no live leader,
    /// rather than naming a broker that would answer NOT_COORDINATOR.
    fn advertised_group_leader(&self) -> Option<NodeId> {
        let p = self.cluster.group_partition();
        self.cluster.group_leader().filter(|l| {
            self.broker_index(*l).is_some_and(|i| {
                self.brokers[i]
                    .coordinator
                    .led_partitions()
                    .iter()
                    .any(|(q, _)| *q == p)
            })
        })
    }

    /// Every live coordinator learns a partition's leader (for FindCoordinator).
    fn tell_leader(&mut self, partition: i32, leader: Option<NodeId>) {
        for b in &mut self.brokers {
            b.coordinator.set_partition_leader(partition, leader);
        }
    }

    /// The group partition's HW reached `hw` on `leader`: what waited on the appends below it
    /// completes.
    fn high_watermark_advanced(&mut self, leader: NodeId, partition: i32, hw: u64) {
        if let Some(i) = self.broker_index(leader) {
            self.brokers[i]
                .coordinator
                .handle_high_watermark(self.now, partition, hw);
            self.pump_broker(i);
        }
    }

    /// Appends that waited `offsets.commit.timeout.ms` for the HW fail with `REQUEST_TIMED_OUT`.
    fn appends_timed_out(&mut self, offsets: &[u64]) {
        let Some(leader) = self.cluster.group_leader() else {
            return;
        };
        let Some(i) = self.broker_index(leader) else {
            return;
        };
        let p = self.cluster.group_partition();
        for o in offsets {
            self.brokers[i]
                .coordinator
                .handle_append_error(self.now, p, *o, ErrorCode::RequestTimedOut);
        }
        self.pump_broker(i);
    }

    /// The group's coordinator refuses appends while the ISR is below `min.insync.replicas`
    /// (`NOT_ENOUGH_REPLICAS`, acks=all).
    fn refresh_append_gate(&mut self) {
        let Some(leader) = self.cluster.group_leader() else {
            return;
        };
        let p = self.cluster.group_partition();
        let gate = self.cluster.append_error();
        if let Some(i) = self.broker_index(leader) {
            self.brokers[i].coordinator.set_append_error(p, gate);
        }
    }

    /// Copies the coordinator's new records into the leader's replica, which replicates them.
    fn sync_replica(&mut self, i: usize) {
        let node = NodeId(i as i32);
        if self.cluster.group_leader() != Some(node) {
            return;
        }
        let p = self.cluster.group_partition();
        let leo = self.cluster.log_end_offset(node).unwrap_or(0);
        let coordinator = &self.brokers[i].coordinator;
        let new = match (coordinator.log(p), coordinator.log_start(p)) {
            (Some(log), Some(start)) if start <= leo && start + log.len() as u64 > leo => {
                log[(leo - start) as usize..].to_vec()
            }
            _ => return,
        };
        self.cluster.leader_appended(self.now, &new);
        self.pump_cluster();
    }

    fn with_consumer(&mut self, name: &str, f: impl FnOnce(&mut Consumer, &Topics)) {
        if let Some(i) = self.consumer_index(name) {
            f(&mut self.consumers[i].consumer, &self.topics);
            self.pump_consumer(i);
        }
    }

    // ============================================================================== plumbing

    fn emit(&mut self, kind: SimEventKind) {
        let ev = SimEvent {
            seq: self.next_seq,
            at: self.now,
            kind,
        };
        self.next_seq += 1;
        let keep = match self.log_level {
            LogLevel::All => true,
            LogLevel::Info => !ev.is_detail(),
            LogLevel::Off => false,
        };
        if keep {
            self.log.push(ev);
        }
    }

    fn send(&mut self, from: Endpoint, to: Endpoint, connection: ConnectionId, corr: i32, payload: Payload) {
        // The copy for the log is made only when something is logged.
        let msg = self
            .network
            .enqueue(self.now, from, to, connection, corr, payload);
        if self.log_level != LogLevel::Off {
            let message = Box::new(msg.clone());
            self.emit(SimEventKind::Network {
                event: NetworkEvent::Sent { message },
            });
        }
    }

    fn pump_broker(&mut self, i: usize) {
        self.pump_broker_outputs(i);
        self.sync_replica(i);
    }

    fn pump_broker_outputs(&mut self, i: usize) {
        let node = self.brokers[i].coordinator.node_id();
        while let Some(ev) = self.brokers[i].coordinator.poll_event() {
            if self.log_level != LogLevel::Off {
                self.emit(SimEventKind::Coordinator { node, event: ev.kind });
            }
        }
        while let Some(out) = self.brokers[i].coordinator.poll_output() {
            let Some(to) = self.connections.get(&out.to).cloned() else {
                continue;
            };
            self.send(
                Endpoint::Broker(node),
                to,
                out.to,
                out.correlation_id,
                Payload::Response(out.response),
            );
        }
    }

    fn refresh_deadline(&mut self, i: usize) {
        if self.consumer_deadline.len() <= i {
            self.consumer_deadline.resize(i + 1, None);
        }
        let new = self.consumers[i].consumer.poll_timeout();
        let old = self.consumer_deadline[i];
        if old != new {
            if let Some(o) = old {
                self.consumer_deadlines.remove(&(o, i));
            }
            if let Some(n) = new {
                self.consumer_deadlines.insert((n, i));
            }
            self.consumer_deadline[i] = new;
        }
    }

    fn pump_consumer(&mut self, i: usize) {
        // Events a quiet consumer skipped (log off) still count as emitted.
        self.next_seq += self.consumers[i].consumer.take_quiet_events();
        while let Some(mut ev) = self.consumers[i].consumer.poll_event() {
            if let ClientEvent::BatchProcessed { records, duplicates } = &mut ev {
                for r in records.iter() {
                    let tp = &r.partition;
                    let by_partition = match self.processed.get_mut(tp.topic.as_str()) {
                        Some(m) => m,
                        None => self.processed.entry(tp.topic.clone()).or_default(),
                    };
                    *duplicates += by_partition.entry(tp.partition).or_default().insert(r.from, r.to);
                }
                self.consumers[i].duplicates += *duplicates;
            }
            if self.log_level == LogLevel::Off {
                self.next_seq += 1;
                continue;
            }
            self.emit(SimEventKind::Client {
                consumer: self.consumers[i].consumer.name().to_owned(),
                event: ev,
            });
        }
        while let Some(out) = self.consumers[i].consumer.poll_output() {
            let ClientOutput::Send {
                to,
                correlation_id,
                request,
            } = out;
            let node = match to {
                Destination::AnyBroker => self.bootstrap_broker(),
                Destination::Coordinator(n) => n,
            };
            let connection = self.consumers[i].connection;
            self.send(
                Endpoint::Consumer(self.consumers[i].consumer.name().to_owned()),
                Endpoint::Broker(node),
                connection,
                correlation_id,
                Payload::Request(request),
            );
        }
        self.refresh_deadline(i);
    }

    fn deliver(&mut self, msg: Message) {
        if let Endpoint::Broker(b) = &msg.from {
            if self.crashed_at.get(b).is_some_and(|t| msg.sent_at <= *t) {
                self.emit(SimEventKind::Network {
                    event: NetworkEvent::Undeliverable {
                        id: msg.id,
                        to: msg.to.clone(),
                        api: msg.payload.api().into(),
                        reason: format!("broker {} crashed after sending it; the connection is gone", b.0),
                    },
                });
                return;
            }
        }
        if let Endpoint::Broker(b) = &msg.to {
            if !self.cluster.is_alive(*b) && self.broker_index(*b).is_some() {
                self.emit(SimEventKind::Network {
                    event: NetworkEvent::Undeliverable {
                        id: msg.id,
                        to: msg.to.clone(),
                        api: msg.payload.api().into(),
                        reason: format!("broker {} is down: connection refused", b.0),
                    },
                });
                if let Some(&j) = self.connection_owner.get(&msg.connection) {
                    self.consumers[j]
                        .consumer
                        .handle_disconnect(self.now, &self.topics);
                    self.pump_consumer(j);
                }
                return;
            }
        }
        if msg.fault == Some(crate::network::Fault::Dropped) {
            self.emit(SimEventKind::Network {
                event: NetworkEvent::Lost {
                    id: msg.id,
                    from: msg.from,
                    to: msg.to,
                    api: msg.payload.api().into(),
                    correlation_id: msg.correlation_id,
                },
            });
            return;
        }
        if self.log_level == LogLevel::All {
            self.emit(SimEventKind::Network {
                event: NetworkEvent::Delivered {
                    id: msg.id,
                    from: msg.from.clone(),
                    to: msg.to.clone(),
                    api: msg.payload.api().into(),
                    request: msg.payload.is_request(),
                    correlation_id: msg.correlation_id,
                },
            });
        }
        match (&msg.to, msg.payload) {
            (Endpoint::Broker(node), Payload::Request(req)) => {
                let node = *node;
                // A broker that does not exist (yet) never answers; the client times out.
                let Some(i) = self.broker_index(node) else { return };
                self.brokers[i]
                    .coordinator
                    .handle_request(self.now, msg.connection, msg.correlation_id, req);
                self.pump_broker(i);
            }
            (Endpoint::Consumer(_), Payload::Response(resp)) => {
                let Some(&i) = self.connection_owner.get(&msg.connection) else {
                    self.emit(SimEventKind::Network {
                        event: NetworkEvent::Undeliverable {
                            id: msg.id,
                            to: msg.to.clone(),
                            api: resp.api_name().into(),
                            reason: "the consumer restarted; that connection is closed".into(),
                        },
                    });
                    return;
                };
                if !self.consumers[i].consumer.lifecycle().is_running() {
                    self.emit(SimEventKind::Network {
                        event: NetworkEvent::Undeliverable {
                            id: msg.id,
                            to: msg.to.clone(),
                            api: resp.api_name().into(),
                            reason: "the consumer is no longer running".into(),
                        },
                    });
                    return;
                }
                self.consumers[i]
                    .consumer
                    .handle_response(self.now, msg.correlation_id, resp, &self.topics);
                self.pump_consumer(i);
            }
            // Responses to scripts are in the log already (the network's Sent line).
            _ => {}
        }
    }

    // ============================================================================== views

    /// The group id.
    pub fn group_id(&self) -> &str {
        &self.group_id
    }

    /// The event log so far (as kept by the [`LogLevel`]).
    pub fn log(&self) -> &[SimEvent] {
        &self.log
    }

    /// Takes the kept log out of the simulation, leaving it empty; sequence numbers go on from
    /// where they were. The simulation never reads its own log, so a copy made meanwhile (a
    /// snapshot for the playground's timeline) costs the state alone, not the history.
    pub fn take_log(&mut self) -> Vec<SimEvent> {
        std::mem::take(&mut self.log)
    }

    /// Puts a log back: the one [`Simulation::take_log`] took, or the part of it up to the
    /// simulation's time (a restored snapshot). The caller keeps it consistent with
    /// [`Simulation::events_emitted`]; new events are appended after it.
    pub fn put_log(&mut self, log: Vec<SimEvent>) {
        self.log = log;
    }

    /// The number of events emitted so far (including those the log level did not keep).
    pub fn events_emitted(&self) -> u64 {
        self.next_seq - 1
    }

    /// The group's coordinator: the coordinator of the broker leading the group's partition (of
    /// the last leader while the partition is offline; a crashed broker's coordinator is empty).
    pub fn coordinator(&self) -> &Coordinator {
        &self.brokers[self.coordinator_index()].coordinator
    }

    /// A broker's coordinator.
    pub fn broker_coordinator(&self, broker: NodeId) -> Option<&Coordinator> {
        self.broker_index(broker).map(|i| &self.brokers[i].coordinator)
    }

    /// The cluster: brokers, placement, the group partition's replicas.
    pub fn cluster(&self) -> &Cluster {
        &self.cluster
    }

    /// Every broker, as the UI draws it (alive, slowed, the partitions it leads and holds).
    pub fn brokers(&self) -> Vec<BrokerView> {
        self.cluster.brokers()
    }

    /// The group's `__consumer_offsets` partition: leader, replicas with their LEO, ISR and HW
    /// (drawn next to [`Simulation::group`]).
    pub fn offsets_partition(&self) -> OffsetsPartitionView {
        self.cluster.offsets_partition()
    }

    /// What DescribeGroups says about the group.
    pub fn group(&self) -> DescribedGroup {
        self.coordinator().describe_group(&self.group_id)
    }

    /// Everything the coordinator knows about the group (timers, pending members, offsets, ...).
    pub fn group_snapshot(&self) -> Option<GroupSnapshot> {
        self.coordinator().group_snapshot(&self.group_id)
    }

    /// The group's committed offsets.
    pub fn committed_offsets(&self) -> BTreeMap<TopicPartition, i64> {
        btree_map(
            self.coordinator()
                .committed_offsets(&self.group_id)
                .into_iter()
                .map(|(tp, c)| (tp, c.offset)),
        )
    }

    /// Every message in flight, by arrival time.
    pub fn messages_in_flight(&self) -> Vec<Message> {
        self.network.in_flight().cloned().collect()
    }

    /// The cluster's topics.
    pub fn topic_registry(&self) -> &Topics {
        &self.topics
    }

    /// The names of the consumers, in the order they were added.
    pub fn consumer_names(&self) -> Vec<String> {
        self.consumers
            .iter()
            .map(|c| c.consumer.name().to_owned())
            .collect()
    }

    /// The name of the consumer whose current member id is `member_id`.
    pub fn consumer_named_by_member(&self, member_id: &str) -> Option<String> {
        self.consumers
            .iter()
            .find(|c| c.consumer.member_id() == member_id)
            .map(|c| c.consumer.name().to_owned())
    }

    /// A consumer's state machine (read-only).
    pub fn consumer(&self, name: &str) -> Option<&Consumer> {
        self.consumer_index(name).map(|i| &self.consumers[i].consumer)
    }

    /// Every consumer, as the UI draws it.
    pub fn consumers(&self) -> Vec<ConsumerView> {
        let snapshot = self.group_snapshot();
        let committed = self.committed_offsets();
        self.consumers
            .iter()
            .map(|slot| {
                let c = &slot.consumer;
                let session_deadline = snapshot.as_ref().and_then(|s| {
                    s.members
                        .iter()
                        .find(|m| m.member_id == c.member_id() && !c.member_id().is_empty())
                        .and_then(|m| m.session_deadline.map(|(t, _)| t))
                });
                let running = c.lifecycle().is_running();
                ConsumerView {
                    name: c.name().to_owned(),
                    client_id: c.config().client_id.clone(),
                    group_instance_id: c.config().group_instance_id.clone(),
                    member_id: c.member_id().to_owned(),
                    generation: c.generation(),
                    member_state: c.member_state(),
                    client_state: c.client_state(),
                    revoking: c.revoking().to_vec(),
                    lifecycle: c.lifecycle().clone(),
                    protocol: c.protocol(),
                    assignors: c.config().assignors.clone(),
                    subscription: c.config().subscription.clone(),
                    subscribed_topics: c.subscribed_topics().to_vec(),
                    is_leader: c.is_leader(),
                    rejoin_needed: c.rejoin_needed(),
                    coordinator: c.coordinator(),
                    in_poll: c.in_poll(),
                    processing: c.processing().cloned(),
                    paused: c.paused(),
                    partitions: c
                        .owned()
                        .iter()
                        .map(|tp| {
                            let position = c.positions().get(tp).copied();
                            let leo = self.topics.log_end_offset(tp, self.now);
                            ConsumerPartitionView {
                                partition: tp.clone(),
                                position,
                                processed: c.processed_offsets().get(tp).copied(),
                                committed: committed.get(tp).copied(),
                                log_end_offset: leo,
                                lag: leo.zip(position).map(|(l, p)| (l - p).max(0)),
                            }
                        })
                        .collect(),
                    session_deadline,
                    client_session_deadline: if running {
                        c.client_session_deadline()
                    } else {
                        None
                    },
                    next_heartbeat: if running { c.next_heartbeat() } else { None },
                    poll_deadline: if running { c.poll_deadline() } else { None },
                    records_processed: c.records_processed(),
                    duplicates: slot.duplicates,
                }
            })
            .collect()
    }

    /// Every topic with its partitions and their owners.
    pub fn topics(&self) -> Vec<TopicView> {
        let committed = self.committed_offsets();
        self.topics
            .iter()
            .map(|t| TopicView {
                name: t.name.clone(),
                records_per_sec: t.records_per_sec,
                partitions: (0..t.partitions())
                    .map(|p| {
                        let tp = TopicPartition::new(t.name.clone(), p);
                        let owners: Vec<&Consumer> = self
                            .consumers
                            .iter()
                            .map(|s| &s.consumer)
                            .filter(|c| c.lifecycle().is_running() && c.owned().contains(&tp))
                            .collect();
                        let leo = t.log_end_offset(p, self.now).unwrap_or(0);
                        let c = committed.get(&tp).copied();
                        PartitionView {
                            partition: p,
                            log_end_offset: leo,
                            committed: c,
                            owners: owners.iter().map(|c| c.name().to_owned()).collect(),
                            position: owners.first().and_then(|c| c.positions().get(&tp).copied()),
                            lag: (leo - c.unwrap_or(0)).max(0),
                        }
                    })
                    .collect(),
            })
            .collect()
    }

    /// The partitions each running consumer owns, by consumer name.
    pub fn owners(&self) -> BTreeMap<String, Vec<TopicPartition>> {
        self.consumers
            .iter()
            .filter(|s| s.consumer.lifecycle().is_running())
            .map(|s| {
                (
                    s.consumer.name().to_owned(),
                    s.consumer.owned().iter().cloned().collect(),
                )
            })
            .collect()
    }

    /// Duplicates processed by each consumer.
    pub fn duplicates(&self) -> BTreeMap<String, u64> {
        btree_map(
            self.consumers
                .iter()
                .map(|s| (s.consumer.name().to_owned(), s.duplicates)),
        )
    }

    /// Whether every offset below `upto` of `partition` has been processed at least once.
    pub fn processed_through(&self, partition: &TopicPartition, upto: i64) -> bool {
        self.processed
            .get(partition.topic.as_str())
            .and_then(|m| m.get(&partition.partition))
            .is_some_and(|r| r.covers(upto))
            || upto <= 0
    }

    /// The readable trace: one line per event (detail events only if `detail`), then the summary
    /// lines prefixed with `# `.
    pub fn trace_text(&self, detail: bool) -> String {
        let mut out = String::new();
        for e in &self.log {
            if detail || !e.is_detail() {
                out.push_str(&e.to_string());
                out.push('\n');
            }
        }
        for line in self.summary() {
            out.push_str("# ");
            out.push_str(&line);
            out.push('\n');
        }
        out
    }

    /// The machine-readable trace: one JSON object per event and line.
    pub fn trace_jsonl(&self) -> String {
        let mut out = String::new();
        for e in &self.log {
            // Serialising plain data into a String cannot fail.
            out.push_str(&serde_json::to_string(e).unwrap_or_default());
            out.push('\n');
        }
        out
    }

    /// A short summary of the final state, one line per fact (for the text trace).
    pub fn summary(&self) -> Vec<String> {
        let mut out = Vec::new();
        let g = self.group();
        out.push(format!(
            "group {}: {} generation {} protocol {:?}",
            self.group_id,
            g.group_state,
            self.group_snapshot().map_or(-1, |s| s.generation_id),
            g.protocol_data
        ));
        for c in self.consumers() {
            let parts: Vec<String> = c.partitions.iter().map(|p| p.partition.to_string()).collect();
            out.push(format!(
                "consumer {}: {:?} {} gen {} owns [{}], processed {}, duplicates {}",
                c.name,
                c.lifecycle,
                c.member_state,
                c.generation,
                parts.join(", "),
                c.records_processed,
                c.duplicates
            ));
        }
        for (tp, o) in self.committed_offsets() {
            out.push(format!("committed {tp} = {o}"));
        }
        // The cluster, once something happened to it.
        let p = self.offsets_partition();
        let eventful = p.leader_epoch > 0
            || p.isr.len() != p.replicas.len()
            || self.brokers().iter().any(|b| !b.alive || b.slowed.is_some());
        if eventful {
            let leos: Vec<String> = p
                .replicas
                .iter()
                .map(|r| {
                    format!(
                        "{}{}: {}",
                        r.broker.0,
                        if r.alive { "" } else { " (down)" },
                        r.log_end_offset
                    )
                })
                .collect();
            out.push(format!(
                "__consumer_offsets-{}: leader {}, epoch {}, ISR {:?}, HW {}, LEO [{}]",
                p.partition,
                p.leader.map_or("none".to_owned(), |l| format!("broker {}", l.0)),
                p.leader_epoch,
                p.isr.iter().map(|b| b.0).collect::<Vec<_>>(),
                p.high_watermark,
                leos.join(", ")
            ));
        }
        out
    }
}

/// A broker's coordinator as it starts: no partition loaded, every partition's leader known.
fn fresh_coordinator(config: &CoordinatorConfig, id: NodeId, cluster: &Cluster) -> Coordinator {
    let mut c = Coordinator::new(CoordinatorConfig {
        node_id: id,
        ..config.clone()
    });
    for p in 0..cluster.offsets_partitions() {
        c.set_partition_leader(p, cluster.leader(p));
    }
    // acks=all: what depends on an append waits for the high watermark.
    c.set_await_replication(true);
    c
}

fn settings_summary(c: &ConsumerConfig) -> String {
    let assignors: Vec<&str> = c.assignors.iter().map(|a| a.name()).collect();
    let mut s = format!(
        "client.id {}, subscribes to {}, assignors [{}], session {} ms, heartbeat {} ms, max.poll.interval {} ms, \
         {} ms per batch, {}",
        c.client_id,
        c.subscription,
        assignors.join(", "),
        c.session_timeout_ms,
        c.heartbeat_interval_ms,
        c.max_poll_interval_ms,
        c.processing_ms,
        c.commit
    );
    if c.commit_in_revoke {
        s.push_str(", commits in onPartitionsRevoked");
    }
    if let Some(i) = &c.group_instance_id {
        s.push_str(&format!(", static member {i}"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::RangeSet;

    #[test]
    fn range_set_counts_overlaps() {
        let mut r = RangeSet::default();
        assert_eq!(r.insert(0, 10), 0);
        assert_eq!(r.insert(20, 30), 0);
        assert_eq!(r.insert(5, 25), 10);
        assert_eq!(r.0, vec![(0, 30)]);
        assert!(r.covers(30));
        assert!(!r.covers(31));
        assert_eq!(r.insert(30, 31), 0);
        assert_eq!(r.0, vec![(0, 31)]);
    }
}
