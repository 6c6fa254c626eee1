//! The playground's world: the engine's recorded [`Session`] with the settings the UI starts
//! from, and [`View`], the read-only picture of it that the panels render.
//!
//! No protocol rule and no scheduling lives here: the session records, replays, seeks and forks,
//! and the engine builds the group's view. This module only chooses the starting scenario (one
//! topic, an empty group), turns user commands into engine actions, carries fractions of a
//! millisecond between frames, and copies the engine's views into one value for rendering.

use rebalance_engine::assignor::Strategy;
use rebalance_engine::compare::CompareSession;
use rebalance_engine::console::{KafkaVersion, Output as ConsoleOutput};
use rebalance_engine::scenario::{CoordinatorSettings, TopicSpec, SCENARIO_VERSION};
use rebalance_engine::sim::{Action, ConsumerView, SimEvent, TopicView};
use rebalance_engine::{
    ConsumerConfig, CoordinatorConfig, GroupView, Message, NetworkConfig, NodeId, PartitionStatus, Scenario,
    Session, SimTime, Simulation, Subscription,
};

/// The group every playground session studies: the group id of the articles the project started
/// from, so that its `__consumer_offsets` partition (30) can be compared with theirs.
pub const GROUP_ID: &str = "test_group_1";

/// The topic that exists at the start.
pub const TOPIC: &str = "test_topic";

/// Partitions of [`TOPIC`] at the start.
pub const TOPIC_PARTITIONS: i32 = 6;

/// Records per second that [`TOPIC`]'s producer writes, round-robin over its partitions.
pub const RECORDS_PER_SEC: u64 = 12;

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
    /// A broker's followers fetch only every [`SLOW_FETCH_MS`], for [`SLOW_FOR_MS`] (a slow
    /// follower: it falls out of the ISR after `replica.lag.time.max.ms`).
    SlowBroker(NodeId),
}

/// The session's start settings a teacher may change: the coordinator's settings and the
/// network. They hold from time 0, so they belong to the base scenario, not to an action.
#[derive(Clone, Debug, PartialEq)]
pub struct StartSettings {
    /// The scenario's `coordinator` section.
    pub coordinator: CoordinatorSettings,
    /// The scenario's `network` section.
    pub network: NetworkConfig,
}

/// How long a coordinator failover lasts.
pub const FAILOVER_MS: u64 = 5_000;

/// A slowed broker's fetch interval: longer than `replica.lag.time.max.ms` (30 s).
pub const SLOW_FETCH_MS: u64 = 40_000;

/// How long a broker stays slow.
pub const SLOW_FOR_MS: u64 = 60_000;

/// The playground's own starting scenario: [`GROUP_ID`], topic [`TOPIC`], no consumer, no action.
pub fn default_base(seed: u64) -> Scenario {
    Scenario {
        version: SCENARIO_VERSION,
        name: Some("Playground session".into()),
        description: None,
        seed,
        group_id: GROUP_ID.into(),
        end_ms: 1,
        coordinator: Default::default(),
        cluster: Default::default(),
        client_defaults: Default::default(),
        network: NetworkConfig {
            latency_ms: LATENCY_MS,
            jitter_ms: JITTER_MS,
            ..NetworkConfig::default()
        },
        topics: vec![TopicSpec {
            name: TOPIC.into(),
            partitions: TOPIC_PARTITIONS,
            records_per_sec: RECORDS_PER_SEC,
            initial_records: 0,
        }],
        consumers: Vec::new(),
        actions: Vec::new(),
        preloaded_groups: Vec::new(),
        mode: None,
    }
}

/// The recorded session and what the UI remembers about it between frames.
pub struct World {
    /// The seed the simulation was built with.
    pub seed: u64,
    session: Session,
    /// Fractional milliseconds not yet applied to the virtual clock.
    carry: f64,
    /// The number of consumers ever added (for default names).
    added: usize,
    /// Compare mode: the same story under every protocol, driven instead of `session` (which is
    /// kept as it was, to return to).
    compare: Option<Box<CompareSession>>,
}

impl World {
    /// A new world: [`default_base`], broker 0 coordinating [`GROUP_ID`], no consumer.
    pub fn new(seed: u64) -> Self {
        // The playground's own scenario is valid (tested below): the first module need not carry
        // the scenario checks (src/lazy.rs).
        let session = Session::of_valid(default_base(seed));
        Self::around(session)
    }

    /// The world of a scenario (validated here), played up to its `end_ms`: the timeline can
    /// seek anywhere in it at once.
    pub fn from_scenario(scenario: &Scenario) -> Result<Self, String> {
        let mut session = Session::new(scenario.clone()).map_err(|e| e.to_string())?;
        session.run_to(SimTime(scenario.end_ms));
        Ok(Self::around(session))
    }

    /// The world of a valid scenario (a lesson's, checked when it was read) at the end of the
    /// instant of its event `seq` (a lesson's step). Playing a lesson does not check its scenario
    /// again, so the first module need not carry the checks (src/lazy.rs).
    pub fn at_event(scenario: &Scenario, seq: u64) -> Self {
        let mut session = Session::of_valid(scenario.clone());
        session.run_to_event(seq);
        Self::around(session)
    }

    fn around(session: Session) -> Self {
        Self {
            seed: session.base().seed,
            added: session.sim().consumer_names().len(),
            session,
            carry: 0.0,
            compare: None,
        }
    }

    /// Opens compare mode on the story shown now (see [`rebalance_engine::compare`]): the normal
    /// session is kept as it is. An `Err` is the engine's reason (English).
    pub fn enter_compare(&mut self) -> Result<(), String> {
        let source = self.session.to_scenario();
        let compare = CompareSession::new(source).map_err(|e| e.to_string())?;
        self.open_compare(compare);
        Ok(())
    }

    /// Shows `compare` (run to its scenario's end) instead of the normal session.
    pub fn open_compare(&mut self, mut compare: CompareSession) {
        compare.run_to(SimTime(compare.source().end_ms));
        self.carry = 0.0;
        self.compare = Some(Box::new(compare));
        self.added = self.sim().consumer_names().len();
    }

    /// Leaves compare mode: the normal session is shown again, as it was left.
    pub fn leave_compare(&mut self) {
        self.compare = None;
        self.carry = 0.0;
        self.added = self.sim().consumer_names().len();
    }

    /// The compare session, while compare mode is on.
    pub fn compare(&self) -> Option<&CompareSession> {
        self.compare.as_deref()
    }

    /// The session the panels show: the normal one, or in compare mode the first variant that
    /// runs (the shared actions and the timeline's keys work on its consumers and log).
    fn shown(&self) -> &Session {
        self.compare
            .as_ref()
            .and_then(|c| c.variants().iter().find_map(|v| v.session()))
            .unwrap_or(&self.session)
    }

    /// The recorded session.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The group coordinator's settings in this session (the bounds a consumer's settings are
    /// checked against).
    pub fn coordinator_config(&self) -> CoordinatorConfig {
        self.session.base().coordinator_config()
    }

    /// The actions the user applied up to the shown time, with their virtual times.
    pub fn history(&self) -> &[(SimTime, Action)] {
        self.shown().history()
    }

    /// The engine's simulation at the shown time, read-only (its log is [`World::log`]).
    pub fn sim(&self) -> &Simulation {
        self.shown().sim()
    }

    /// The current virtual time.
    pub fn now(&self) -> SimTime {
        match &self.compare {
            Some(c) => c.now(),
            None => self.session.now(),
        }
    }

    /// The log's length up to the shown time (the UI re-renders its panels when it changes).
    pub fn log_len(&self) -> usize {
        match &self.compare {
            Some(c) => c
                .variants()
                .iter()
                .filter_map(|v| v.session())
                .map(|s| s.log().len())
                .sum(),
            None => self.log().len(),
        }
    }

    /// The recorded log after the shown time (empty unless the learner sought back).
    pub fn log_ahead(&self) -> &[SimEvent] {
        self.shown().log_ahead()
    }

    /// The logs up to the shown time: the session's, or in compare mode every running protocol's.
    pub fn logs(&self) -> Vec<&[SimEvent]> {
        match &self.compare {
            Some(c) => c
                .variants()
                .iter()
                .filter_map(|v| v.session())
                .map(|s| s.log())
                .collect(),
            None => vec![self.session.log()],
        }
    }

    /// The log up to the shown time.
    pub fn log(&self) -> &[SimEvent] {
        self.shown().log()
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
            let until = SimTime(self.now().as_millis().saturating_add(whole as u64));
            match &mut self.compare {
                Some(c) => c.run_to(until),
                None => self.session.run_to(until),
            }
        }
    }

    /// Runs the next instant at which something happens. Returns whether there was one.
    pub fn step(&mut self) -> bool {
        self.carry = 0.0;
        match &mut self.compare {
            Some(c) => c.step(),
            None => self.session.step(),
        }
    }

    /// The furthest time the recorded session reached (the timeline's end).
    pub fn horizon(&self) -> SimTime {
        match &self.compare {
            Some(c) => c.horizon(),
            None => self.session.horizon(),
        }
    }

    /// The time before which the log no longer holds every entry (see
    /// [`Session::log_dropped_before`]).
    pub fn log_dropped_before(&self) -> Option<SimTime> {
        self.shown().log_dropped_before()
    }

    /// How many snapshots the session keeps, and the virtual time between them.
    pub fn snapshots(&self) -> (usize, u64) {
        self.shown().snapshots()
    }

    /// Shows the session as it was at `to` (see [`Session::seek`]).
    pub fn seek(&mut self, to: SimTime) {
        self.carry = 0.0;
        match &mut self.compare {
            Some(c) => c.seek(to),
            None => self.session.seek(to),
        }
        self.added = self.sim().consumer_names().len();
    }

    /// The name the next consumer gets by default: `C1`, `C2`, ...
    pub fn next_consumer_name(&self) -> String {
        let names = self.sim().consumer_names();
        (self.added + 1..)
            .map(|n| format!("C{n}"))
            .find(|n| !names.contains(n))
            .unwrap_or_else(|| "C".into())
    }

    /// Whether a consumer with this name exists (running or stopped).
    pub fn has_consumer(&self, name: &str) -> bool {
        self.sim().consumer(name).is_some()
    }

    /// The start settings of the session's base scenario.
    pub fn start_settings(&self) -> StartSettings {
        let base = self.session.base();
        StartSettings {
            coordinator: base.coordinator.clone(),
            network: base.network.clone(),
        }
    }

    /// The scenario that replays what is on screen ([`Session::to_scenario`]: the user's actions at
    /// their times, up to the shown time) with other start settings. The engine validates it
    /// ([`Scenario::validate`]) before [`World::restarted`] replays it.
    pub fn with_start(&self, start: &StartSettings) -> Scenario {
        let mut s = self.session.to_scenario();
        s.coordinator = start.coordinator.clone();
        s.network = start.network.clone();
        s
    }

    /// This world with other start settings: a new base scenario ([`World::with_start`]),
    /// replayed from 0 to the shown time through a new session, so that share links and replays
    /// of it are exact, as for any scenario. An `Err` carries the engine's reason (English).
    pub fn restarted(&self, start: &StartSettings) -> Result<World, String> {
        let mut session = Session::new(self.with_start(start)).map_err(|e| e.to_string())?;
        session.run_to(self.now());
        let mut world = Self::around(session);
        world.added = world.added.max(self.added);
        Ok(world)
    }

    /// Applies a user command now. An `Err` carries the engine's reason (English).
    pub fn apply(&mut self, command: Command) -> Result<(), String> {
        let action = match command {
            Command::AddConsumer(mut config) => {
                self.added += 1;
                // The playground's consumers join the session's group (an imported scenario's own).
                config.group_id = self.sim().group_id().to_owned();
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
                    .sim()
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
                records_per_sec: RECORDS_PER_SEC,
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
            Command::SlowBroker(broker) => Action::SlowBroker {
                broker,
                fetch_interval_ms: SLOW_FETCH_MS,
                duration_ms: Some(SLOW_FOR_MS),
            },
        };
        match &mut self.compare {
            Some(c) => c.apply(action).map(|_| ()).map_err(|e| e.0),
            None => self.session.apply(action).map(|_| ()).map_err(|e| e.0),
        }
    }

    /// Runs an admin command line (`kafka-consumer-groups.sh ...`, `kafka-topics.sh ...`) on the
    /// world at the shown time (see [`rebalance_engine::console`]). A command that changes the world
    /// (`--delete`, `--reset-offsets --execute`) is recorded like any action.
    pub fn console(&mut self, words: &[String], version: KafkaVersion) -> ConsoleOutput {
        rebalance_engine::console::run(&mut self.session, words, version)
    }

    /// Every message in flight, with where it is on its way (0 at the sender, 1 at the receiver).
    pub fn messages_in_flight(&self) -> Vec<Message> {
        self.sim().messages_in_flight()
    }

    /// The picture of the world the panels render.
    pub fn view(&mut self) -> View {
        let sim = self.sim();
        let group = self.shown().group_view();
        let consumers = sim.consumers();
        let brokers = sim
            .brokers()
            .into_iter()
            .map(|b| BrokerView {
                node: b.id,
                alive: b.alive,
                coordinates_group: b.is_group_coordinator,
                loaded: if b.is_group_coordinator {
                    group.loaded
                } else {
                    None
                },
                holds_group_partition: b.replicas.contains(&group.partition),
            })
            .collect();
        View {
            now: self.now(),
            log_len: self.log_len(),
            seed: self.seed,
            group,
            consumers,
            topics: sim.topics(),
            brokers,
        }
    }

    /// The log entry with this sequence number, if it is shown.
    pub fn event(&self, seq: u64) -> Option<&SimEvent> {
        self.shown().event(seq)
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

/// Everything the panels render, copied from the simulation when its log grows.
#[derive(Clone, Debug, PartialEq)]
pub struct View {
    /// The virtual time of the copy.
    pub now: SimTime,
    /// The log's length at the copy.
    pub log_len: usize,
    /// The simulation's seed.
    pub seed: u64,
    /// The group, as the engine says to show it.
    pub group: GroupView,
    /// The consumers, in the order they were added.
    pub consumers: Vec<ConsumerView>,
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
impl World {
    /// A test world (seed 3) where `n` consumers were added at the start, 10 s later.
    pub fn with_consumers_joined(n: usize) -> World {
        let mut w = World::new(3);
        for _ in 0..n {
            let name = w.next_consumer_name();
            w.apply(Command::AddConsumer(Box::new(default_consumer(&name))))
                .unwrap();
        }
        for _ in 0..100 {
            w.advance(100.0);
        }
        w
    }
}

#[cfg(test)]
mod tests {
    use rebalance_engine::session::{MAX_SNAPSHOTS, SNAPSHOT_EVERY_MS};
    use rebalance_engine::GroupState;

    use super::*;

    #[test]
    fn the_starting_scenario_is_valid_whatever_the_seed() {
        // World::new builds it without checking it again (Session::of_valid).
        for seed in [0, 1, 2, 42, u64::MAX] {
            assert_eq!(default_base(seed).validate(), Ok(()), "seed {seed}");
        }
    }

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

    /// A session with snapshots: three consumers join at different times, one is killed, one
    /// partition is added; 150 s of virtual time.
    fn played() -> World {
        let mut w = World::new(11);
        for i in 0..3 {
            let name = w.next_consumer_name();
            w.apply(Command::AddConsumer(Box::new(default_consumer(&name))))
                .unwrap();
            w.advance(7_000.0 + 1_300.0 * f64::from(i));
        }
        w.advance(40_000.0);
        w.apply(Command::Kill("C2".into())).unwrap();
        w.advance(25_000.5);
        w.apply(Command::AddPartition(TOPIC.into())).unwrap();
        while w.now() < SimTime(150_000) {
            w.advance(250.0);
        }
        w
    }

    /// The session replayed from time 0 to `t`, without any snapshot: the scenario of what it
    /// shows, cut at `t`.
    fn replayed_at(w: &World, t: u64) -> World {
        let mut s = w.session().to_scenario();
        let t = t.max(1);
        s.consumers.retain(|c| c.start_ms.unwrap_or(0) <= t);
        s.actions.retain(|a| a.at_ms() <= t);
        s.end_ms = t;
        crate::sharing::replay(&s).unwrap()
    }

    #[test]
    fn a_seek_shows_the_state_the_session_had_then() {
        let mut w = played();
        let end = w.now().as_millis();
        assert!(w.snapshots().0 >= 5, "a snapshot every 15 s: {:?}", w.snapshots());
        // Back and forth, across snapshots, onto a snapshot's time, and to the end.
        for t in [
            1_000, 95_500, 20_000, 60_000, 149_999, 30_000, 7_001, 118_250, end, 45_000, end,
        ] {
            w.seek(SimTime(t));
            assert_eq!(w.now(), SimTime(t));
            let mut fresh = replayed_at(&w, t);
            assert_eq!(w.log(), fresh.log(), "the log at {t} ms");
            assert_eq!(w.view(), fresh.view(), "the view at {t} ms");
            assert_eq!(w.horizon(), SimTime(end), "looking keeps the recorded future");
            assert!(t > end - 5_000 || !w.log_ahead().is_empty());
        }
    }

    #[test]
    fn playing_on_after_a_seek_replays_the_recorded_future() {
        let mut original = played();
        let end = original.now();
        let mut w = played();
        w.seek(SimTime(12_345));
        while w.now() < end {
            w.advance(170.0);
        }
        w.seek(end);
        assert_eq!(w.history().len(), original.history().len());
        assert_eq!(w.log(), original.log());
        assert_eq!(w.session().trace_jsonl(), original.session().trace_jsonl());
        assert_eq!(w.view(), original.view());
        // On past the recorded end: a live session again, with snapshots as before.
        let (n, _) = w.snapshots();
        for _ in 0..400 {
            w.advance(100.0);
        }
        assert_eq!(w.horizon(), w.now());
        assert!(w.snapshots().0 > n);
    }

    #[test]
    fn acting_in_the_past_forks_a_new_future() {
        let mut w = played();
        w.seek(SimTime(50_000));
        assert_eq!(w.history().len(), 3, "the kill and the new partition come later");
        assert!(w.apply(Command::Kill("nobody".into())).is_err());
        assert_eq!(w.horizon(), SimTime(150_150), "a refused action forks nothing");
        w.apply(Command::Close("C1".into())).unwrap();
        assert_eq!(w.horizon(), SimTime(50_000));
        assert_eq!(w.history().len(), 4);
        assert!(w.session().snapshot_times().all(|at| at <= SimTime(50_000)));
        for _ in 0..300 {
            w.advance(100.0);
        }
        // The new future is recorded like the old one was: seeking in it is exact.
        let end = w.now().as_millis();
        for t in [52_000, 79_000, 40_000] {
            w.seek(SimTime(t));
            let mut fresh = replayed_at(&w, t);
            let (a, b) = (w.log(), fresh.log());
            if let Some(i) = (0..a.len().min(b.len())).find(|&i| a[i] != b[i]) {
                panic!("at {t} ms, entry {i}:\n{:?}\n{:?}\n{:?}", a[i], b[i], w.history());
            }
            assert_eq!(w.log(), fresh.log(), "the log at {t} ms");
            assert_eq!(w.view(), fresh.view());
        }
        w.seek(SimTime(end));
        assert!(!w.has_consumer("C1") || w.view().consumer("C1").is_some_and(|c| !c.lifecycle.is_running()));
    }

    #[test]
    fn a_loaded_session_seeks_and_shares_what_is_shown() {
        let w = played();
        let link = crate::sharing::session_link(&w);
        let mut loaded = crate::sharing::open_link(&link).unwrap();
        assert_eq!(loaded.horizon(), w.now());
        loaded.seek(SimTime(30_000));
        let mut fresh = replayed_at(&w, 30_000);
        assert_eq!(loaded.view(), fresh.view());
        // The link made now is the session up to the shown time.
        assert_eq!(
            crate::sharing::session_scenario(&loaded).actions,
            crate::sharing::session_scenario(&fresh).actions
        );
        assert_eq!(
            crate::sharing::session_link(&loaded),
            crate::sharing::session_link(&fresh)
        );
    }

    #[test]
    fn a_lesson_seeks_before_its_step_by_replaying_its_scenario_once() {
        let loaded = crate::lessons::load(5).unwrap();
        let seq = loaded.steps.last().map_or(1, |s| s.seq);
        let mut w = crate::lessons::world_at(&loaded, seq);
        let end = w.now().as_millis();
        assert!(end > 10_000, "{end}");
        w.seek(SimTime(end / 2));
        assert_eq!(w.now(), SimTime(end / 2));
        let mut fresh = replayed_at(&w, end / 2);
        assert_eq!(w.log(), fresh.log());
        assert_eq!(w.view(), fresh.view());
        assert_eq!(w.horizon(), SimTime(end));
        assert!(w.snapshots().0 >= 2);
    }

    #[test]
    fn snapshots_stay_bounded() {
        let mut w = World::new(1);
        for _ in 0..(5 * 3_600) {
            w.advance(1_000.0);
        }
        let (n, every) = w.snapshots();
        assert!(n <= MAX_SNAPSHOTS, "{n}");
        assert!(every > SNAPSHOT_EVERY_MS);
        w.seek(SimTime(1_234_567));
        assert_eq!(w.now(), SimTime(1_234_567));
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
