//! The playground's world: the engine's [`Simulation`] with the settings the UI starts from, and
//! [`View`], the read-only picture of it that the panels render.
//!
//! No protocol rule lives here: every decision is the engine's. This module only chooses the
//! starting scenario (one topic, an empty group), converts user commands into engine actions and
//! copies the engine's state into plain values for rendering.

use rebalance_engine::assignor::Strategy;
use rebalance_engine::sim::{Action, ConsumerView, SimEvent, SimEventKind, TopicView};
use rebalance_engine::{
    ConsumerConfig, CoordinatorConfig, EventKind, GroupState, Message, NetworkConfig, NodeId,
    PartitionStatus, SimTime, Simulation, Subscription,
};

/// The group every playground session studies: the group id of the articles the project started
/// from, so that its `__consumer_offsets` partition (30) can be compared with theirs.
pub const GROUP_ID: &str = "test_group_1";

/// The topic that exists at the start.
pub const TOPIC: &str = "test_topic";

/// Partitions of [`TOPIC`] at the start.
pub const TOPIC_PARTITIONS: i32 = 6;

/// One-way network latency. Kafka on a LAN takes a few milliseconds; the playground slows the
/// network down so that a message is visible on its way at 1× (200 ms) and at 0.1× (2 s).
pub const LATENCY_MS: u64 = 200;

/// Jitter added to each message, so that tokens do not move in lockstep.
pub const JITTER_MS: u64 = 40;

/// A user's command on the world.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Start a consumer with these settings.
    AddConsumer(Box<ConsumerConfig>),
    /// Kill a consumer (no LeaveGroup, no commit).
    Kill(String),
    /// Close a consumer gracefully (commit, revoke, LeaveGroup).
    Close(String),
    /// Stop a consumer's heartbeats and polls (a long GC pause).
    Pause(String),
    /// End a pause.
    Resume(String),
    /// Start a stopped consumer again.
    Restart(String),
    /// Add one partition to a topic.
    AddPartition(String),
    /// Create a topic.
    CreateTopic {
        /// Its name.
        name: String,
        /// Its partitions.
        partitions: i32,
    },
    /// The coordinator broker loses the group's `__consumer_offsets` partition for a while.
    CoordinatorFailover,
    /// A broker crashes (it answers nothing; its disk survives).
    CrashBroker(NodeId),
    /// A crashed broker starts again.
    RestartBroker(NodeId),
}

/// How long a coordinator failover lasts.
pub const FAILOVER_MS: u64 = 5_000;

/// The simulation and what the UI remembers about it between frames.
pub struct World {
    /// The seed the simulation was built with.
    pub seed: u64,
    sim: Simulation,
    /// Fractional milliseconds not yet applied to the virtual clock.
    carry: f64,
    /// How far [`World::transitions`] has read the log.
    scanned: usize,
    /// The last state change of the group: from, to, and the event's sequence number.
    last_transition: Option<(GroupState, GroupState, u64)>,
    /// The sequence numbers of generation changes seen (for the counter's tick animation).
    last_generation_seq: u64,
    /// The number of consumers ever added (for default names).
    added: usize,
    /// Every action the user applied, with its virtual time (the share link and autosave replay them).
    history: Vec<(SimTime, Action)>,
    /// The scenario this world was loaded from (`None`: the playground's own starting world).
    base: Option<Box<rebalance_engine::Scenario>>,
}

impl World {
    /// A new world: broker 0 coordinating [`GROUP_ID`], topic [`TOPIC`], no consumer.
    pub fn new(seed: u64) -> Self {
        let network = NetworkConfig {
            latency_ms: LATENCY_MS,
            jitter_ms: JITTER_MS,
            ..NetworkConfig::default()
        };
        let mut sim = Simulation::empty(GROUP_ID, CoordinatorConfig::default(), network, seed, None);
        // A fresh world has no topic yet, so creating one cannot fail.
        let _ = sim.apply(
            SimTime::ZERO,
            Action::CreateTopic {
                topic: TOPIC.into(),
                partitions: TOPIC_PARTITIONS,
                records_per_sec: 12,
                initial_records: 0,
            },
        );
        Self {
            seed,
            sim,
            carry: 0.0,
            scanned: 0,
            last_transition: None,
            last_generation_seq: 0,
            added: 0,
            history: Vec::new(),
            base: None,
        }
    }

    /// A world around a simulation already built (and replayed) from a scenario; `history` is what
    /// the user applied on top of `base` (see `crate::sharing`).
    pub fn from_sim(
        sim: Simulation,
        base: Option<rebalance_engine::Scenario>,
        history: Vec<(SimTime, Action)>,
    ) -> Self {
        let added = sim.consumer_names().len();
        Self {
            seed: base.as_ref().map_or(0, |b| b.seed),
            sim,
            carry: 0.0,
            scanned: 0,
            last_transition: None,
            last_generation_seq: 0,
            added,
            history,
            base: base.map(Box::new),
        }
    }

    /// The actions the user applied, with their virtual times.
    pub fn history(&self) -> &[(SimTime, Action)] {
        &self.history
    }

    /// The scenario this world was loaded from (`None`: the playground's starting world).
    pub fn base(&self) -> Option<&rebalance_engine::Scenario> {
        self.base.as_deref()
    }

    /// The engine's simulation, read-only.
    pub fn sim(&self) -> &Simulation {
        &self.sim
    }

    /// The current virtual time.
    pub fn now(&self) -> SimTime {
        self.sim.now()
    }

    /// The log's length (the UI re-renders its panels when it grows).
    pub fn log_len(&self) -> usize {
        self.sim.log().len()
    }

    /// Moves the virtual clock forward by `ms` (fractions carry over to the next call).
    pub fn advance(&mut self, ms: f64) {
        if !ms.is_finite() || ms <= 0.0 {
            return;
        }
        let total = self.carry + ms;
        let whole = total.floor();
        self.carry = total - whole;
        if whole >= 1.0 {
            let until = SimTime(self.sim.now().as_millis() + whole as u64);
            self.sim.run_until(until);
        }
    }

    /// Runs the next instant at which something happens. Returns whether there was one.
    pub fn step(&mut self) -> bool {
        self.carry = 0.0;
        self.sim.step().is_some()
    }

    /// The name the next consumer gets by default: `C1`, `C2`, ...
    pub fn next_consumer_name(&self) -> String {
        let names = self.sim.consumer_names();
        (self.added + 1..)
            .map(|n| format!("C{n}"))
            .find(|n| !names.contains(n))
            .unwrap_or_else(|| "C".into())
    }

    /// Whether a consumer with this name exists (running or stopped).
    pub fn has_consumer(&self, name: &str) -> bool {
        self.sim.consumer(name).is_some()
    }

    /// Applies a user command now. An `Err` carries the engine's reason (English).
    pub fn apply(&mut self, command: Command) -> Result<(), String> {
        let action = match command {
            Command::AddConsumer(config) => {
                self.added += 1;
                Action::AddConsumer { config }
            }
            Command::Kill(consumer) => Action::Kill { consumer },
            Command::Close(consumer) => Action::Close { consumer },
            Command::Pause(consumer) => Action::Pause {
                consumer,
                duration_ms: None,
                heartbeats: true,
                polls: true,
            },
            Command::Resume(consumer) => Action::Resume { consumer },
            Command::Restart(consumer) => Action::Restart { consumer },
            Command::AddPartition(topic) => {
                let now = self
                    .sim
                    .topic_registry()
                    .get(&topic)
                    .map_or(0, |t| t.partitions());
                Action::AddPartitions {
                    topic,
                    partitions: now + 1,
                }
            }
            Command::CreateTopic { name, partitions } => Action::CreateTopic {
                topic: name,
                partitions,
                records_per_sec: 12,
                initial_records: 0,
            },
            Command::CoordinatorFailover => Action::CoordinatorFailover {
                duration_ms: FAILOVER_MS,
            },
            Command::CrashBroker(broker) => Action::CrashBroker {
                broker,
                graceful: false,
            },
            Command::RestartBroker(broker) => Action::RestartBroker { broker },
        };
        let now = self.sim.now();
        self.sim.apply(now, action.clone()).map_err(|e| e.0)?;
        self.history.push((now, action));
        Ok(())
    }

    /// Every message in flight, with where it is on its way (0 at the sender, 1 at the receiver).
    pub fn messages_in_flight(&self) -> Vec<Message> {
        self.sim.messages_in_flight()
    }

    /// Reads the log entries added since the last call and updates what the UI tracks from them.
    fn scan(&mut self) {
        let log = self.sim.log();
        for ev in &log[self.scanned.min(log.len())..] {
            if let SimEventKind::Coordinator { event, .. } = &ev.kind {
                match event {
                    EventKind::StateChanged { from, to, .. } => {
                        self.last_transition = Some((*from, *to, ev.seq));
                    }
                    EventKind::GenerationChanged { .. } => self.last_generation_seq = ev.seq,
                    _ => {}
                }
            }
        }
        self.scanned = log.len();
    }

    /// The picture of the world the panels render.
    pub fn view(&mut self) -> View {
        self.scan();
        let sim = &self.sim;
        let coordinator = sim.coordinator();
        let partition = coordinator.partition_for(GROUP_ID);
        let loaded = coordinator
            .led_partitions()
            .iter()
            .find(|(p, _)| *p == partition)
            .map(|(_, s)| *s);
        let snapshot = sim.group_snapshot();
        let consumers = sim.consumers();
        let (state, generation, leader_member, protocol) = match &snapshot {
            Some(s) => (
                s.state,
                s.generation_id,
                s.leader.clone(),
                s.protocol_name.clone(),
            ),
            // No group yet on a serving coordinator: a new group is Empty at generation 0.
            None if loaded == Some(PartitionStatus::Active) => (GroupState::Empty, 0, None, None),
            None => (GroupState::Dead, 0, None, None),
        };
        let leader = leader_member.as_ref().and_then(|m| {
            consumers
                .iter()
                .find(|c| &c.member_id == m)
                .map(|c| c.name.clone())
        });
        let settings = consumers
            .iter()
            .map(|c| {
                sim.consumer(&c.name)
                    .map(|x| x.config().clone())
                    .unwrap_or_else(|| default_consumer(&c.name))
            })
            .collect();
        let brokers = sim
            .brokers()
            .into_iter()
            .map(|b| BrokerView {
                node: b.id,
                alive: b.alive,
                coordinates_group: b.is_group_coordinator,
                loaded: if b.is_group_coordinator { loaded } else { None },
                holds_group_partition: b.replicas.contains(&partition),
            })
            .collect();
        View {
            now: sim.now(),
            log_len: sim.log().len(),
            seed: self.seed,
            group: GroupView {
                state,
                generation,
                leader,
                leader_member,
                protocol,
                partition,
                coordinator: coordinator.node_id(),
                members: snapshot.as_ref().map_or(0, |s| s.members.len()),
                last_transition: self.last_transition,
                generation_seq: self.last_generation_seq,
            },
            consumers,
            settings,
            topics: sim.topics(),
            brokers,
        }
    }

    /// The log entry with this sequence number, if it is kept.
    pub fn event(&self, seq: u64) -> Option<&SimEvent> {
        let log = self.sim.log();
        let i = log.partition_point(|e| e.seq < seq);
        log.get(i).filter(|e| e.seq == seq)
    }
}

/// A consumer's settings as the playground's form starts them: the Java client's defaults, except a
/// 10 s session timeout (the articles' value, and Kafka's default before 3.0) so that a killed
/// consumer is noticed quickly.
pub fn default_consumer(name: &str) -> ConsumerConfig {
    let mut c = ConsumerConfig::new(name, GROUP_ID, Subscription::Topics(vec![TOPIC.into()]));
    c.session_timeout_ms = 10_000;
    c.heartbeat_interval_ms = 3_000;
    c.max_poll_interval_ms = 300_000;
    c.processing_ms = 1_000;
    c.assignors = vec![Strategy::Range, Strategy::CooperativeSticky];
    c
}

/// A broker as the stage draws it.
#[derive(Clone, Debug, PartialEq)]
pub struct BrokerView {
    /// Its id.
    pub node: NodeId,
    /// Whether it runs.
    pub alive: bool,
    /// Whether it is the group's coordinator.
    pub coordinates_group: bool,
    /// Whether it holds a replica of the group's `__consumer_offsets` partition.
    pub holds_group_partition: bool,
    /// The status of the group's `__consumer_offsets` partition on it (`None`: not led).
    pub loaded: Option<PartitionStatus>,
}

/// The group as the group panel shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupView {
    /// Its state.
    pub state: GroupState,
    /// Its generation.
    pub generation: i32,
    /// The leader's consumer name.
    pub leader: Option<String>,
    /// The leader's member id.
    pub leader_member: Option<String>,
    /// The selected assignor.
    pub protocol: Option<String>,
    /// Its `__consumer_offsets` partition.
    pub partition: i32,
    /// Its coordinator broker.
    pub coordinator: NodeId,
    /// How many members it has.
    pub members: usize,
    /// The last state change: from, to, log sequence number.
    pub last_transition: Option<(GroupState, GroupState, u64)>,
    /// The log sequence number of the last generation change.
    pub generation_seq: u64,
}

/// Everything the panels render, copied from the simulation when its log grows.
#[derive(Clone, Debug, PartialEq)]
pub struct View {
    /// The virtual time of the copy.
    pub now: SimTime,
    /// The log's length at the copy.
    pub log_len: usize,
    /// The simulation's seed.
    pub seed: u64,
    /// The group.
    pub group: GroupView,
    /// The consumers, in the order they were added.
    pub consumers: Vec<ConsumerView>,
    /// Each consumer's settings (same order as `consumers`).
    pub settings: Vec<ConsumerConfig>,
    /// The topics.
    pub topics: Vec<TopicView>,
    /// The brokers.
    pub brokers: Vec<BrokerView>,
}

impl View {
    /// The consumer with this name.
    pub fn consumer(&self, name: &str) -> Option<&ConsumerView> {
        self.consumers.iter().find(|c| c.name == name)
    }

    /// The consumer's position in the add order (its colour).
    pub fn consumer_index(&self, name: &str) -> Option<usize> {
        self.consumers.iter().position(|c| c.name == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_world_is_an_empty_group_at_generation_zero() {
        let mut w = World::new(1);
        let v = w.view();
        assert_eq!(v.group.state, GroupState::Empty);
        assert_eq!(v.group.generation, 0);
        assert_eq!(
            v.group.partition, 30,
            "Kafka puts test_group_1 on __consumer_offsets-30"
        );
        assert_eq!(v.topics.len(), 1);
    }

    #[test]
    fn three_consumers_reach_stable_with_one_leader() {
        let mut w = World::new(7);
        for _ in 0..3 {
            let name = w.next_consumer_name();
            w.apply(Command::AddConsumer(Box::new(default_consumer(&name))))
                .unwrap();
        }
        for _ in 0..200 {
            w.advance(100.0);
        }
        let v = w.view();
        assert_eq!(v.group.state, GroupState::Stable);
        assert!(v.group.generation >= 1);
        assert!(v.group.leader.is_some());
        assert_eq!(v.consumers.iter().filter(|c| c.is_leader).count(), 1);
        assert_eq!(
            v.group.last_transition.map(|(f, t, _)| (f, t)),
            Some((GroupState::CompletingRebalance, GroupState::Stable))
        );
    }

    #[test]
    fn fractions_of_a_millisecond_carry_over() {
        let mut w = World::new(1);
        for _ in 0..10 {
            w.advance(0.25);
        }
        assert_eq!(w.now(), SimTime(2));
    }
}
