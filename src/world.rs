//! The playground's world: the engine's [`Simulation`] with the settings the UI starts from, and
//! [`View`], the read-only picture of it that the panels render.
//!
//! No protocol rule lives here: every decision is the engine's. This module only chooses the
//! starting scenario (one topic, an empty group), converts user commands into engine actions and
//! copies the engine's state into plain values for rendering.
//!
//! # Time travel
//!
//! A world records its session as it runs: the actions applied and their times, the log, and a
//! snapshot of the simulation every [`SNAPSHOT_EVERY_MS`] of virtual time (the simulation is
//! deterministic and `Clone`; a snapshot leaves the log out, so it costs the state alone).
//! [`World::seek`] restores the nearest snapshot at or before the target time and runs forward to
//! it, applying the recorded actions on the way: the state shown is the state the session had at
//! that time. The recorded future is kept while the learner only looks (playing on replays it);
//! acting in the past forks a new future from there ([`World::apply`]).
//!
//! The simulation's log holds the whole recorded session, also after a seek back: the shown part
//! is [`World::log`], the events up to the shown time (what the simulation emits while it runs
//! over recorded time again is the same, and is dropped). A seek therefore never copies the log.

use rebalance_engine::assignor::Strategy;
use rebalance_engine::sim::{Action, ConsumerView, SimEvent, SimEventKind, TopicView};
use rebalance_engine::{
    ConsumerConfig, CoordinatorConfig, EventKind, GroupState, Message, NetworkConfig, NodeId,
    PartitionStatus, Scenario, SimTime, Simulation, Subscription,
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

/// How long a coordinator failover lasts.
pub const FAILOVER_MS: u64 = 5_000;

/// A slowed broker's fetch interval: longer than `replica.lag.time.max.ms` (30 s).
pub const SLOW_FETCH_MS: u64 = 40_000;

/// How long a broker stays slow.
pub const SLOW_FOR_MS: u64 = 60_000;

/// Virtual time between two snapshots of a session at first. A 30-minute session of 20 consumers
/// keeps 61 of them, about 10 MB (the log of the same session is about 60 MB); restoring one and
/// running forward at most this long takes a few milliseconds (see `tests/e2e/bench-seek.mjs`).
pub const SNAPSHOT_EVERY_MS: u64 = 30_000;

/// The most snapshots a world keeps: past this, every other one is dropped and the interval
/// doubles (a 4-hour session keeps one every 2 minutes).
pub const MAX_SNAPSHOTS: usize = 128;

/// The simulation at one moment of the recorded session, without its log.
#[derive(Clone)]
struct Snapshot {
    /// The simulation, its log taken out (its clock is the snapshot's time).
    sim: Simulation,
    /// How many of the scenario's timed actions had been applied.
    script_applied: usize,
    /// How many of the user's actions had been applied.
    user_applied: usize,
}

impl Snapshot {
    fn at(&self) -> SimTime {
        self.sim.now()
    }
}

/// The simulation and what the UI remembers about it between frames.
pub struct World {
    /// The seed the simulation was built with.
    pub seed: u64,
    /// The simulation at the shown time; its log holds the whole recorded session (see the
    /// module docs), of which [`World::log`] is shown.
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
    /// Every action the user applied in the recorded session, with its virtual time (the share
    /// link and autosave replay them); the first `user_applied` are at or before the shown time.
    history: Vec<(SimTime, Action)>,
    user_applied: usize,
    /// The base scenario's timed actions (its consumers' starts included) in replay order, which
    /// the world applies as the clock passes them; the first `script_applied` are applied. Empty
    /// for a world built around a simulation that schedules them itself ([`World::from_sim`]).
    script: Vec<(SimTime, Action)>,
    script_applied: usize,
    /// The scenario this world was loaded from (`None`: the playground's own starting world).
    base: Option<Box<rebalance_engine::Scenario>>,
    /// `base` cut at the shown time, while some of its timed actions lie after it.
    shown_base: Option<Box<rebalance_engine::Scenario>>,
    /// The furthest time the recorded session reached.
    horizon: SimTime,
    /// Snapshots of the recorded session, in time order.
    snapshots: Vec<Snapshot>,
    /// Virtual time between snapshots.
    snapshot_every: u64,
    /// Whether the snapshots start at time 0. A world built around a simulation already run
    /// ([`World::from_sim`]) has none before it; seeking earlier replays its scenario once.
    complete: bool,
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
        let _ = sim.create_topic(TOPIC.into(), TOPIC_PARTITIONS, RECORDS_PER_SEC, 0);
        Self::around(sim, seed, None, Vec::new(), Vec::new(), true)
    }

    /// A world around a simulation already built (and replayed) from a scenario; `history` is what
    /// the user applied on top of `base` (see `crate::sharing`). The simulation schedules the
    /// scenario's actions itself; the timeline replays `base` once if the learner seeks before
    /// the simulation's time.
    pub fn from_sim(
        sim: Simulation,
        base: Option<rebalance_engine::Scenario>,
        history: Vec<(SimTime, Action)>,
    ) -> Self {
        let seed = base.as_ref().map_or(0, |b| b.seed);
        Self::around(sim, seed, base.map(Box::new), history, Vec::new(), false)
    }

    /// The world of a scenario (validated by the caller), replayed the way the playground plays
    /// up to its `end_ms`: each timed action applied when the clock gets there (see
    /// `crate::sharing`). The timeline can seek anywhere in it at once.
    pub fn from_scenario(scenario: &Scenario) -> Result<Self, String> {
        let mut world = Self::start(scenario)?;
        world.run_to(SimTime(scenario.end_ms));
        world.after_jump();
        Ok(world)
    }

    /// The world of a scenario at time 0, its timed actions still to apply.
    fn start(scenario: &Scenario) -> Result<Self, String> {
        let mut sim = Simulation::with_cluster(
            scenario.group_id.clone(),
            scenario.coordinator_config(),
            scenario.cluster_config(),
            scenario.network.clone(),
            scenario.seed,
            None,
        );
        for t in &scenario.topics {
            sim.create_topic(t.name.clone(), t.partitions, t.records_per_sec, t.initial_records)
                .map_err(|e| format!("topics: {}", e.0))?;
        }
        let mut script = scenario.timed_actions();
        // Stable: at one time, consumers' starts, then actions, in file order.
        rebalance_engine::sort::sort_by_key(&mut script, |(at, _)| *at);
        Ok(Self::around(
            sim,
            scenario.seed,
            Some(Box::new(scenario.clone())),
            Vec::new(),
            script,
            true,
        ))
    }

    fn around(
        sim: Simulation,
        seed: u64,
        base: Option<Box<rebalance_engine::Scenario>>,
        history: Vec<(SimTime, Action)>,
        script: Vec<(SimTime, Action)>,
        complete: bool,
    ) -> Self {
        let added = sim.consumer_names().len();
        let horizon = sim.now();
        let user_applied = history.len();
        Self {
            seed,
            sim,
            carry: 0.0,
            scanned: 0,
            last_transition: None,
            last_generation_seq: 0,
            added,
            history,
            user_applied,
            script,
            script_applied: 0,
            base,
            shown_base: None,
            horizon,
            snapshots: Vec::new(),
            snapshot_every: SNAPSHOT_EVERY_MS,
            complete,
        }
    }

    /// The actions the user applied up to the shown time, with their virtual times.
    pub fn history(&self) -> &[(SimTime, Action)] {
        &self.history[..self.user_applied]
    }

    /// The scenario this world was loaded from (`None`: the playground's starting world), without
    /// its timed actions after the shown time.
    pub fn base(&self) -> Option<&rebalance_engine::Scenario> {
        self.shown_base.as_deref().or(self.base.as_deref())
    }

    /// The engine's simulation, read-only.
    pub fn sim(&self) -> &Simulation {
        &self.sim
    }

    /// The current virtual time.
    pub fn now(&self) -> SimTime {
        self.sim.now()
    }

    /// The log's length up to the shown time (the UI re-renders its panels when it changes).
    pub fn log_len(&self) -> usize {
        self.log().len()
    }

    /// The recorded log after the shown time (empty unless the learner sought back).
    pub fn log_ahead(&self) -> &[SimEvent] {
        &self.sim.log()[self.log_len()..]
    }

    /// The log up to the shown time.
    pub fn log(&self) -> &[SimEvent] {
        let log = self.sim.log();
        let emitted = self.sim.events_emitted();
        // Sequence numbers count from 1 without gaps: the shown part ends at `emitted`.
        match usize::try_from(emitted) {
            Ok(n) if log.get(n.wrapping_sub(1)).is_some_and(|e| e.seq == emitted) => &log[..n],
            _ => &log[..log.partition_point(|e| e.seq <= emitted)],
        }
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
            self.run_to(until);
        }
    }

    /// Runs the next instant at which something happens. Returns whether there was one.
    pub fn step(&mut self) -> bool {
        self.carry = 0.0;
        let next = [self.sim.next_event_time(), self.next_action().map(|(at, _)| at)]
            .into_iter()
            .flatten()
            .min();
        match next {
            Some(t) => {
                self.run_to(t);
                true
            }
            None => false,
        }
    }

    // ========================================================================== time travel

    /// The furthest time the recorded session reached (the timeline's end).
    pub fn horizon(&self) -> SimTime {
        self.horizon
    }

    /// How many snapshots the world keeps, and the virtual time between them.
    pub fn snapshots(&self) -> (usize, u64) {
        // The first one is taken when the world first changes; until then it is the world itself.
        (self.snapshots.len().max(1), self.snapshot_every)
    }

    /// Shows the session as it was at `to` (at most [`World::horizon`]): restores the nearest
    /// snapshot at or before it and runs forward, applying the recorded actions on the way. The
    /// recorded future stays: seeking forward again, or playing on, returns to it.
    pub fn seek(&mut self, to: SimTime) {
        self.first_snapshot();
        let to = to.min(self.horizon);
        if !self.complete && self.snapshots.first().is_none_or(|s| s.at() > to) {
            self.rebuild();
        }
        let now = self.sim.now();
        let i = self.snapshots.partition_point(|s| s.at() <= to);
        let snapshot = i.checked_sub(1).map(|i| &self.snapshots[i]);
        // Running on from the shown state is as good as a snapshot that is not later.
        let restore = match snapshot {
            Some(s) => to < now || s.at() > now,
            None => to < now,
        };
        if restore {
            let Some(snapshot) = snapshot else {
                // Not reachable: a complete world has a snapshot at time 0.
                return;
            };
            let mut sim = snapshot.sim.clone();
            self.script_applied = snapshot.script_applied;
            self.user_applied = snapshot.user_applied;
            // The recorded log moves over whole (a snapshot has none).
            sim.put_log(self.sim.take_log());
            self.sim = sim;
        }
        self.carry = 0.0;
        self.run_to(to);
        self.after_jump();
    }

    /// Rebuilds the recording of a world built around a simulation already run: replays its
    /// scenario and the user's actions from time 0 to the horizon, keeping snapshots.
    fn rebuild(&mut self) {
        let base = self
            .base
            .as_deref()
            .cloned()
            .unwrap_or_else(|| crate::sharing::default_base(self.seed));
        let Ok(mut world) = Self::start(&base) else {
            return;
        };
        world.base = self.base.take();
        world.history = std::mem::take(&mut self.history);
        world.run_to(self.horizon);
        world.added = world.added.max(self.added);
        world.after_jump();
        *self = world;
    }

    /// The next recorded action not applied yet: the scenario's first at equal times (the order
    /// in which a share link replays them).
    fn next_action(&self) -> Option<(SimTime, bool)> {
        let script = self.script.get(self.script_applied).map(|(at, _)| (*at, false));
        let user = self.history.get(self.user_applied).map(|(at, _)| (*at, true));
        match (script, user) {
            (Some(a), Some(b)) => Some(if b.0 < a.0 { b } else { a }),
            (a, b) => a.or(b),
        }
    }

    /// Runs the simulation to `until`: applies the recorded actions when the clock gets to them
    /// and keeps a snapshot every `snapshot_every`. Over recorded time the events the simulation
    /// emits are those recorded: they are dropped, and only those past the recording are kept.
    fn run_to(&mut self, until: SimTime) {
        self.first_snapshot();
        let applied_before = self.script_applied;
        let recorded_upto = self.sim.log().last().map_or(0, |e| e.seq);
        let recorded = (recorded_upto > self.sim.events_emitted()).then(|| self.sim.take_log());
        loop {
            let action = self.next_action().filter(|(at, _)| *at <= until);
            let snapshot = self
                .snapshots
                .last()
                .map(|s| s.at() + rebalance_engine::SimDuration::from_millis(self.snapshot_every))
                .filter(|at| *at <= until);
            let next = match (action, snapshot) {
                (Some((a, user)), Some(t)) if a <= t => Some((a, Some(user))),
                (_, Some(t)) => Some((t, None)),
                (Some((a, user)), None) => Some((a, Some(user))),
                (None, None) => None,
            };
            let Some((at, what)) = next else { break };
            self.sim.run_until(at);
            match what {
                // A recorded action the engine refuses at its time was refused live too.
                Some(true) => {
                    let action = self.history[self.user_applied].1.clone();
                    self.user_applied += 1;
                    let _ = self.sim.apply(at, action);
                }
                Some(false) => {
                    let action = self.script[self.script_applied].1.clone();
                    self.script_applied += 1;
                    let _ = self.sim.apply(at, action);
                }
                None => self.take_snapshot(),
            }
        }
        self.sim.run_until(until);
        self.horizon = self.horizon.max(self.sim.now());
        if let Some(mut log) = recorded {
            let again = self.sim.take_log();
            let new = again.partition_point(|e| e.seq <= recorded_upto);
            log.extend(again.into_iter().skip(new));
            self.sim.put_log(log);
        }
        if self.script_applied != applied_before {
            self.cut_base();
        }
    }

    /// The snapshot of the world as built, taken as it first changes (or seeks) rather than as it
    /// is built: the page's first render then does not wait for the code that clones a
    /// simulation to load.
    fn first_snapshot(&mut self) {
        if self.snapshots.is_empty() {
            self.take_snapshot();
        }
    }

    /// Keeps a snapshot of the simulation as it is now (without its log).
    fn take_snapshot(&mut self) {
        let log = self.sim.take_log();
        self.snapshots.push(Snapshot {
            sim: self.sim.clone(),
            script_applied: self.script_applied,
            user_applied: self.user_applied,
        });
        self.sim.put_log(log);
        if self.snapshots.len() > MAX_SNAPSHOTS {
            // Keep the first and every other one after it; twice as far apart from now on.
            let mut i = 0;
            self.snapshots.retain(|_| {
                i += 1;
                i % 2 == 1
            });
            self.snapshot_every *= 2;
        }
    }

    /// After the shown time jumped: the UI's trackers follow the log as it is now.
    fn after_jump(&mut self) {
        let log = self.log();
        let mut last_transition = None;
        let mut last_generation_seq = 0;
        for ev in log.iter().rev() {
            if let SimEventKind::Coordinator { event, .. } = &ev.kind {
                match event {
                    EventKind::StateChanged { from, to, .. } if last_transition.is_none() => {
                        last_transition = Some((*from, *to, ev.seq));
                    }
                    EventKind::GenerationChanged { .. } if last_generation_seq == 0 => {
                        last_generation_seq = ev.seq;
                    }
                    _ => {}
                }
            }
            if last_transition.is_some() && last_generation_seq != 0 {
                break;
            }
        }
        self.scanned = log.len();
        self.last_transition = last_transition;
        self.last_generation_seq = last_generation_seq;
        self.added = self.sim.consumer_names().len();
        self.cut_base();
    }

    /// `base` as the share link sees it: without the timed actions not applied yet.
    fn cut_base(&mut self) {
        self.shown_base = match &self.base {
            Some(base) if self.script_applied < self.script.len() => {
                Some(Box::new(crate::sharing::cut_at(base, self.sim.now().as_millis())))
            }
            _ => None,
        };
    }

    /// Acting in the past: the recorded future after the shown time is dropped (the log's by
    /// the caller).
    fn fork(&mut self) {
        let now = self.sim.now();
        self.history.truncate(self.user_applied);
        if self.script_applied < self.script.len() {
            self.script.truncate(self.script_applied);
            self.base = self.shown_base.take();
        }
        self.snapshots.retain(|s| s.at() <= now);
        self.horizon = now;
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
            Command::SlowBroker(broker) => Action::SlowBroker {
                broker,
                fetch_interval_ms: SLOW_FETCH_MS,
                duration_ms: Some(SLOW_FOR_MS),
            },
        };
        self.first_snapshot();
        let now = self.sim.now();
        // The recorded log aside: the action's events follow the shown time's.
        let shown = self.log_len();
        let mut log = self.sim.take_log();
        let result = self.sim.apply(now, action.clone());
        let new = self.sim.take_log();
        if let Err(e) = result {
            // A refused action changes nothing (the engine checks it first), not even the future.
            self.sim.put_log(log);
            return Err(e.0);
        }
        if now < self.horizon {
            log.truncate(shown);
            self.fork();
        }
        log.extend(new);
        self.sim.put_log(log);
        self.history.push((now, action));
        self.user_applied = self.history.len();
        Ok(())
    }

    /// Every message in flight, with where it is on its way (0 at the sender, 1 at the receiver).
    pub fn messages_in_flight(&self) -> Vec<Message> {
        self.sim.messages_in_flight()
    }

    /// Reads the log entries added since the last call and updates what the UI tracks from them.
    fn scan(&mut self) {
        let log = self.log();
        let mut last_transition = self.last_transition;
        let mut last_generation_seq = self.last_generation_seq;
        for ev in &log[self.scanned.min(log.len())..] {
            if let SimEventKind::Coordinator { event, .. } = &ev.kind {
                match event {
                    EventKind::StateChanged { from, to, .. } => {
                        last_transition = Some((*from, *to, ev.seq));
                    }
                    EventKind::GenerationChanged { .. } => last_generation_seq = ev.seq,
                    _ => {}
                }
            }
        }
        self.scanned = log.len();
        self.last_transition = last_transition;
        self.last_generation_seq = last_generation_seq;
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
            log_len: self.log_len(),
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
        let log = self.log();
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

    /// The session replayed from time 0 to `t`, without any snapshot.
    fn replayed_at(w: &World, t: u64) -> World {
        let full = crate::sharing::session_scenario(w);
        crate::sharing::replay(&crate::sharing::cut_at(&full, t)).unwrap()
    }

    #[test]
    fn a_seek_shows_the_state_the_session_had_then() {
        let mut w = played();
        let end = w.now().as_millis();
        assert!(w.snapshots().0 >= 5, "a snapshot every 30 s: {:?}", w.snapshots());
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
            assert!(t > end - 5_000 || w.sim().log().len() > w.log().len());
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
        assert_eq!(w.sim().trace_jsonl(), original.sim().trace_jsonl());
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
        assert!(w.snapshots.iter().all(|s| s.at() <= SimTime(50_000)));
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
        let mut w = crate::lessons::world_at(&loaded, seq).unwrap();
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
