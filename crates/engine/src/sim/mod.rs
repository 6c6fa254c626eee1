//! The simulation world: brokers (group coordinators), consumers, topics, a seeded network and a
//! virtual clock, driven one instant at a time.
//!
//! # Run loop
//!
//! [`Simulation::new`] builds a world from a [`Scenario`]: its topics,
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
//!
//! # Layout
//!
//! One `impl Simulation` block per concern, as `coordinator/` has one per Kafka API: this file
//! holds the struct, its construction and the driving (`step`, `run_until`, `apply`, the
//! schedule); `action.rs` the [`Action`]s and how one is checked and applied; `wiring.rs` the
//! brokers, the cluster and the delivery of messages; `view.rs` the read-only views; `trace.rs`
//! the text and JSON traces (whole, or written piece by piece); `processed.rs` the ledger of processed offsets (duplicates).

pub(crate) mod action;
mod log;
mod processed;
mod trace;
mod view;
mod wiring;

use crate::collections::Map;

use serde::{Deserialize, Serialize};

pub use action::{Action, ActionError, ADMIN_CLIENT};
pub use log::{NetworkEvent, SimEvent, SimEventKind, WorldEvent};
pub use trace::{write_jsonl, write_text};
pub use view::{ConsumerPartitionView, ConsumerProtocolView, ConsumerView, PartitionView, TopicView};

use crate::client::Consumer;
use crate::cluster::{Cluster, ClusterConfig};
use crate::coordinator::records::Record;
use crate::coordinator::{partition_for, Coordinator, CoordinatorConfig};
use crate::network::{Endpoint, Network, NetworkConfig};
use crate::protocol::{ConnectionId, NodeId};
use crate::scenario::{Scenario, ScenarioError};
use crate::time::{SimDuration, SimTime};
use crate::topic::Topics;
use processed::RangeSet;
use wiring::fresh_coordinator;

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
    scripts: Map<String, ScriptSlot>,
    connections: Map<ConnectionId, Endpoint>,
    next_connection: u64,
    topics: Topics,
    network: Network,
    /// What is due later, by time, then the order in which it was scheduled, with [`RELOAD`] set
    /// on reloads: every action runs before any reload of the same instant, however either was
    /// scheduled (one `u64` rather than a third key field). A B-tree, not a
    /// [`crate::collections::Map`]: entries come and go at every step, anywhere in time order.
    scheduled: std::collections::BTreeMap<(SimTime, u64), Scheduled>,
    next_scheduled: u64,
    log: Vec<SimEvent>,
    next_seq: u64,
    /// The offsets processed so far, by topic then partition (two levels, so a lookup compares
    /// the topic name once per level rather than at every node of a map keyed by topic-partition).
    processed: Map<String, Map<i32, RangeSet>>,
    ended: bool,
    /// Each consumer's next timer, indexed by time (so an instant only visits due consumers).
    consumer_deadlines: std::collections::BTreeSet<(SimTime, usize)>,
    consumer_deadline: Vec<Option<SimTime>>,
    /// Which consumer listens on each connection (the current one of each consumer only).
    connection_owner: Map<ConnectionId, usize>,
    /// The brokers, the controller and the replication of the group's partition.
    cluster: Cluster,
    /// The coordinator settings every broker starts with (its `node_id` aside).
    coordinator_config: CoordinatorConfig,
    /// When each broker last crashed: what it sent before is lost with its connections.
    crashed_at: Map<NodeId, SimTime>,
    /// The broker that led the group's partition last (the coordinator the views show).
    last_coordinator: NodeId,
    /// Whether, and by how many records at least, the group's `__consumer_offsets` partition is
    /// compacted (see [`Simulation::set_log_compaction`]).
    compaction: Option<u64>,
}

/// The bit set on a scheduled reload's order, so that it sorts after every action of its instant.
pub(super) const RELOAD: u64 = 1 << 63;

/// The most passes over one instant before the simulation moves on (a guard against a livelock
/// bug; never reached in correct runs).
const MAX_PASSES_PER_INSTANT: usize = 10_000;

impl Simulation {
    /// Builds the world of a scenario (validating it first).
    pub fn new(scenario: &Scenario) -> Result<Self, ScenarioError> {
        scenario.validate()?;
        Ok(Self::from_checked(scenario))
    }

    /// [`Simulation::new`] for a scenario the caller knows to be valid (see
    /// [`crate::Session::of_valid`]); debug builds assert it.
    pub fn of_valid(scenario: &Scenario) -> Self {
        debug_assert!(
            scenario.validate().is_ok(),
            "Simulation::of_valid on an invalid scenario: {:?}",
            scenario.validate()
        );
        Self::from_checked(scenario)
    }

    /// The world of a scenario already checked: by [`Simulation::new`], or by the caller of
    /// [`Simulation::of_valid`] (so that neither checks it twice).
    pub(crate) fn from_checked(scenario: &Scenario) -> Self {
        // Preloaded groups: the records their coordinator would have written, loaded at time 0.
        let topics: Map<String, i32> = scenario
            .topics
            .iter()
            .map(|t| (t.name.clone(), t.partitions))
            .collect();
        let records = scenario
            .preloaded_groups
            .iter()
            .flat_map(|g| g.records(scenario, &topics))
            .enumerate()
            .map(|(i, body)| Record {
                offset: i as u64,
                appended_at: SimTime::ZERO,
                body,
            })
            .collect();
        let mut sim = Self::build(
            scenario.group_id.clone(),
            scenario.coordinator_config(),
            scenario.cluster_config(),
            scenario.network.clone(),
            scenario.seed,
            Some(SimTime(scenario.end_ms)),
            records,
        );
        for t in &scenario.topics {
            sim.create_topic_now(t.name.clone(), t.partitions, t.records_per_sec, t.initial_records);
        }
        for (at, action) in scenario.timed_actions() {
            sim.schedule(at, action);
        }
        sim
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
        Self::build(group_id, coordinator, cluster, network, seed, end, Vec::new())
    }

    /// [`Simulation::with_cluster`], the group's partition loaded from `records` (preloaded groups).
    fn build(
        group_id: impl Into<String>,
        coordinator: CoordinatorConfig,
        cluster: ClusterConfig,
        network: NetworkConfig,
        seed: u64,
        end: Option<SimTime>,
        records: Vec<Record>,
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
            scripts: Map::new(),
            connections: Map::new(),
            next_connection: 1,
            topics: Topics::new(),
            network: Network::new(network, seed),
            scheduled: std::collections::BTreeMap::new(),
            next_scheduled: 0,
            log: Vec::new(),
            next_seq: 1,
            processed: Map::new(),
            ended: false,
            consumer_deadlines: std::collections::BTreeSet::new(),
            consumer_deadline: Vec::new(),
            connection_owner: Map::new(),
            cluster,
            coordinator_config: coordinator,
            crashed_at: Map::new(),
            last_coordinator: leader,
            compaction: None,
        };
        let i = sim.broker_index(leader).expect("a broker");
        sim.brokers[i].coordinator.load(SimTime::ZERO, p, records);
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

    /// Bounds the memory of the group's `__consumer_offsets` partition, which otherwise grows with
    /// every commit (default `None`: off, the playground shows every record). With `Some(batch)`,
    /// the coordinator drops
    /// its copy of each record once the leader's replica holds it ([`Coordinator::discard_log_before`]),
    /// and the replicas are compacted as Kafka's log cleaner does: before the smallest high
    /// watermark of the replicas, only each key's latest record is kept ([`Cluster::compact`], once
    /// at least `batch` records can go; [`crate::cluster::COMPACTION_BATCH`] is a good batch).
    /// Nothing read later is dropped, so the traces, the coordinator's state and what a new leader
    /// loads are the same either way; only [`Coordinator::log`] and [`Cluster::replica_log`] start
    /// later (at [`Coordinator::log_start`], [`Cluster::replica_log_start`]).
    pub fn set_log_compaction(&mut self, batch: Option<u64>) {
        self.compaction = batch;
    }

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
        if let Some(((at, _), _)) = self.scheduled.first_key_value() {
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

    /// Schedules `action` at `at`. Within an instant the scheduled actions run first, in the order
    /// they were scheduled, then the coordinator reloads, then message arrivals and timers: the one
    /// placement of an action inside its instant, for a scenario's actions and a user's alike.
    pub(crate) fn schedule(&mut self, at: SimTime, action: Action) {
        self.scheduled
            .insert((at, self.next_scheduled), Scheduled::Action(action));
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
        if let Some(batch) = self.compaction {
            self.cluster.compact(batch);
        }
        self.settled = true;
    }

    fn consumer_index(&self, name: &str) -> Option<usize> {
        self.consumers.iter().position(|c| c.consumer.name() == name)
    }

    fn broker_index(&self, node: NodeId) -> Option<usize> {
        usize::try_from(node.0).ok().filter(|i| *i < self.brokers.len())
    }
}
