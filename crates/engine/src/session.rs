//! A recorded session: a base [`Scenario`], the actions a user applied on top of it, and the
//! simulation at the shown time, with snapshots for time travel.
//!
//! A session is the one way the engine is driven interactively. The playground's timeline, share
//! links, lessons and the tests all go through it, and it schedules every action through the
//! simulation's own scheduler ([`Simulation`]'s order within an instant: scheduled actions first,
//! in the order they were scheduled, then reloads, arrivals and timers). An action applied live
//! therefore lands in exactly the place a replay of [`Session::to_scenario`] gives it, and a seek
//! rebuilds the same story the narration tells.
//!
//! # Where an action goes
//!
//! An action applied now runs at the start of an instant that has not run yet
//! ([`Simulation::next_open_instant`]): the shown time if nothing has happened at it, else the next
//! millisecond. Replaying puts it in the same place: the simulation runs up to just before the
//! action's time, the action is scheduled, and the instant runs with the action first.
//!
//! # Time travel
//!
//! The session keeps a snapshot of the simulation every [`SNAPSHOT_EVERY_MS`] of virtual time
//! (the simulation is deterministic and `Clone`; a snapshot leaves the log out). [`Session::seek`]
//! restores the nearest snapshot at or before the target and runs forward, applying the recorded
//! actions on the way. Looking keeps the recorded future: playing on or seeking forward returns to
//! it. Applying an action in the past forks: the user's recorded actions after the shown time are
//! dropped (the base scenario's own actions stay, they are part of the story), and the new future
//! is recorded as the old one was. [`Session::fork`] makes such a copy without applying anything.
//!
//! The log of the whole recorded session is kept once, in the session; [`Session::log`] is the
//! part up to the shown time. While the simulation runs over recorded time (a seek, or playing on
//! after one) its log is off: the events it would emit are the recorded ones, so none is built,
//! and the count of emitted events is then set to the recording's (the sequence numbers of what
//! follows are the same). Where the oldest lines were dropped and the count is not known, the
//! replay builds its events and drops them.

use crate::coordinator::consumer::{ConsumerGroupState, MemberState};
use crate::coordinator::{partition_for, PartitionStatus};
use crate::protocol::{GroupState, NodeId, TopicPartition};
use crate::scenario::{ActionSpec, Scenario, ScenarioError};
use crate::sim::{
    Action, ActionError, ConsumerView, LogLevel, SimEvent, SimEventKind, Simulation, WorldEvent,
};
use crate::time::{SimDuration, SimTime};
use crate::EventKind;

/// Virtual time between two snapshots at first. A 30-minute session of 20 consumers keeps 121 of
/// them; restoring one and running forward at most this long takes a few milliseconds. (With 30 s,
/// the worst of 100 seeks in that session was painted 39 to 60 ms after the input on a 2-core
/// machine, over the budget of 50 ms in 4 runs of 9; with 15 s, 36 to 54 ms, over it in 2 of 7.
/// [`MAX_SNAPSHOTS`] bounds the memory either way.)
pub const SNAPSHOT_EVERY_MS: u64 = 15_000;

/// The most snapshots a session keeps: past this, every other one is dropped and the interval
/// doubles (a 4-hour session keeps one every 2 minutes).
pub const MAX_SNAPSHOTS: usize = 128;

/// The most log entries a session keeps by default. Past this the oldest quarter is dropped (the
/// state of every moment stays reachable through the snapshots; only the oldest lines go), and
/// [`Session::log_dropped_before`] says from when the log is complete. A 30-minute session of 20
/// consumers logs about 300,000 entries.
pub const MAX_LOG_EVENTS: usize = 400_000;

/// The simulation at one moment of the recorded session, without its log.
#[derive(Clone, Debug)]
struct Snapshot {
    sim: Simulation,
    /// How many of the user's actions were scheduled.
    applied: usize,
}

impl Snapshot {
    fn at(&self) -> SimTime {
        self.sim.now()
    }
}

/// The last state change and generation change the log shows, followed as it grows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Marks {
    /// How far the log was read.
    read: usize,
    last_transition: Option<(GroupState, GroupState, u64)>,
    generation_seq: u64,
    /// The last derived state change of a consumer-protocol group: from, to, sequence number.
    consumer_transition: Option<(ConsumerGroupState, ConsumerGroupState, u64)>,
    /// The log sequence number of the last group epoch bump of a consumer-protocol group.
    epoch_seq: u64,
    /// The log sequence numbers of the last two target assignments of a consumer-protocol group
    /// (0: none), newest first.
    targets: [u64; 2],
}

impl Marks {
    /// The marks of `log`, read backwards from its end.
    fn of(log: &[SimEvent]) -> Self {
        let mut m = Self {
            read: log.len(),
            ..Self::default()
        };
        for ev in log.iter().rev() {
            if let SimEventKind::Coordinator { event, .. } = &ev.kind {
                match event {
                    EventKind::StateChanged { from, to, .. } if m.last_transition.is_none() => {
                        m.last_transition = Some((*from, *to, ev.seq));
                    }
                    EventKind::GenerationChanged { .. } if m.generation_seq == 0 => m.generation_seq = ev.seq,
                    EventKind::ConsumerGroupStateChanged { from, to, .. }
                        if m.consumer_transition.is_none() =>
                    {
                        m.consumer_transition = Some((*from, *to, ev.seq));
                    }
                    EventKind::ConsumerGroupEpochBumped { .. } if m.epoch_seq == 0 => m.epoch_seq = ev.seq,
                    EventKind::ConsumerTargetAssignmentComputed { .. } if m.targets[1] == 0 => {
                        if m.targets[0] == 0 {
                            m.targets[0] = ev.seq;
                        } else {
                            m.targets[1] = ev.seq;
                        }
                    }
                    _ => {}
                }
            }
            // A group is classic or consumer: the marks of either kind are enough.
            let classic = m.last_transition.is_some() && m.generation_seq != 0;
            let consumer = m.consumer_transition.is_some() && m.epoch_seq != 0 && m.targets[1] != 0;
            if classic || consumer {
                break;
            }
        }
        m
    }

    /// Reads what `log` holds past what was read.
    fn follow(&mut self, log: &[SimEvent]) {
        if self.read > log.len() {
            *self = Self::of(log);
            return;
        }
        for ev in &log[self.read..] {
            if let SimEventKind::Coordinator { event, .. } = &ev.kind {
                match event {
                    EventKind::StateChanged { from, to, .. } => {
                        self.last_transition = Some((*from, *to, ev.seq));
                    }
                    EventKind::GenerationChanged { .. } => self.generation_seq = ev.seq,
                    EventKind::ConsumerGroupStateChanged { from, to, .. } => {
                        self.consumer_transition = Some((*from, *to, ev.seq));
                    }
                    EventKind::ConsumerGroupEpochBumped { .. } => self.epoch_seq = ev.seq,
                    EventKind::ConsumerTargetAssignmentComputed { .. } => {
                        self.targets = [ev.seq, self.targets[0]];
                    }
                    _ => {}
                }
            }
        }
        self.read = log.len();
    }
}

/// A recorded, replayable run of the engine. See the [module docs](self).
#[derive(Clone, Debug)]
pub struct Session {
    base: Scenario,
    /// The user's actions with the time each ran at, in the order applied; the first `applied`
    /// are scheduled in `sim` (at or before the shown time).
    history: Vec<(SimTime, Action)>,
    applied: usize,
    /// The simulation at the shown time. Its own log is always empty: what it emits moves to `log`.
    sim: Simulation,
    /// The log of the whole recorded session (past the shown time after a seek back).
    log: Vec<SimEvent>,
    snapshots: Vec<Snapshot>,
    snapshot_every: u64,
    /// The furthest time the recorded session reached.
    horizon: SimTime,
    marks: Marks,
    /// The most entries `log` keeps.
    log_limit: usize,
    /// The time of the newest entry dropped from `log`, if any was.
    dropped_until: Option<SimTime>,
}

impl Session {
    /// A session at time 0 of `base` (validated first): its topics exist, its consumers and
    /// actions are scheduled.
    pub fn new(base: Scenario) -> Result<Self, ScenarioError> {
        base.validate()?;
        Ok(Self::from_checked(base))
    }

    /// [`Session::new`] for a scenario the caller knows to be valid, without checking it again:
    /// one built by the caller's own code, which a test of the caller's validates (the playground's
    /// starting world). The check's code then need not ship with a caller that never reads a
    /// scenario from outside (the playground's first module). An invalid `base` is a bug of the
    /// caller's; debug builds assert it.
    pub fn of_valid(base: Scenario) -> Self {
        debug_assert!(
            base.validate().is_ok(),
            "Session::of_valid on an invalid scenario: {:?}",
            base.validate()
        );
        Self::from_checked(base)
    }

    /// A session of a scenario already checked: by [`Session::new`], or by the caller of
    /// [`Session::of_valid`] (so that neither checks it twice).
    fn from_checked(base: Scenario) -> Self {
        let sim = Simulation::from_checked(&base);
        let mut session = Self {
            base,
            history: Vec::new(),
            applied: 0,
            sim,
            log: Vec::new(),
            snapshots: Vec::new(),
            snapshot_every: SNAPSHOT_EVERY_MS,
            horizon: SimTime::ZERO,
            marks: Marks::default(),
            log_limit: MAX_LOG_EVENTS,
            dropped_until: None,
        };
        session.collect();
        session
    }

    /// Keeps at most `limit` log entries (at least 1,000), dropping the oldest quarter when the log
    /// grows past it.
    pub fn with_log_limit(mut self, limit: usize) -> Self {
        self.log_limit = limit.max(1_000);
        self.trim_log();
        self
    }

    /// Takes a snapshot every `ms` of virtual time (at least 1,000) at first, instead of
    /// [`SNAPSHOT_EVERY_MS`]: seeks replay less, snapshots take more memory (still at most
    /// [`MAX_SNAPSHOTS`]). Call it before the session moves.
    pub fn with_snapshot_every(mut self, ms: u64) -> Self {
        self.snapshot_every = ms.max(1_000);
        self
    }

    /// The time before which the log no longer holds every entry (the oldest were dropped to keep
    /// memory bounded), if any were dropped. The state at those times can still be shown.
    pub fn log_dropped_before(&self) -> Option<SimTime> {
        self.dropped_until
    }

    /// The scenario the session started from.
    pub fn base(&self) -> &Scenario {
        &self.base
    }

    /// The simulation at the shown time, read-only (its log is in [`Session::log`]).
    pub fn sim(&self) -> &Simulation {
        &self.sim
    }

    /// The shown time.
    pub fn now(&self) -> SimTime {
        self.sim.now()
    }

    /// The furthest time the recorded session reached (the timeline's end).
    pub fn horizon(&self) -> SimTime {
        self.horizon
    }

    /// How many snapshots the session keeps, and the virtual time between them.
    pub fn snapshots(&self) -> (usize, u64) {
        // The first one is taken when the session first moves; until then it is the session itself.
        (self.snapshots.len().max(1), self.snapshot_every)
    }

    /// The times of the snapshots kept.
    pub fn snapshot_times(&self) -> impl Iterator<Item = SimTime> + '_ {
        self.snapshots.iter().map(Snapshot::at)
    }

    /// The user's actions up to the shown time, with the time each ran at.
    pub fn history(&self) -> &[(SimTime, Action)] {
        &self.history[..self.applied]
    }

    /// The log up to the shown time.
    pub fn log(&self) -> &[SimEvent] {
        &self.log[..self.shown_len()]
    }

    /// The recorded log after the shown time (empty unless the session was sought back).
    pub fn log_ahead(&self) -> &[SimEvent] {
        &self.log[self.shown_len()..]
    }

    /// The shown log's entry with this sequence number.
    pub fn event(&self, seq: u64) -> Option<&SimEvent> {
        let log = self.log();
        let i = log.partition_point(|e| e.seq < seq);
        log.get(i).filter(|e| e.seq == seq)
    }

    fn shown_len(&self) -> usize {
        // Sequence numbers count up without gaps from the first entry kept.
        let emitted = self.sim.events_emitted();
        let first = self.log.first().map_or(1, |e| e.seq);
        let n = emitted
            .checked_sub(first)
            .and_then(|d| usize::try_from(d + 1).ok());
        match n {
            Some(n) if self.log.get(n.wrapping_sub(1)).is_some_and(|e| e.seq == emitted) => n,
            _ => self.log.partition_point(|e| e.seq <= emitted),
        }
    }

    /// Drops the oldest quarter of the log while it is over its limit.
    fn trim_log(&mut self) {
        if self.log.len() <= self.log_limit {
            return;
        }
        let drop = self.log.len() - self.log_limit * 3 / 4;
        self.dropped_until = self.log.get(drop - 1).map(|e| e.at).or(self.dropped_until);
        self.log.drain(..drop);
        self.marks.read = self.marks.read.saturating_sub(drop);
    }

    // ==================================================================================== driving

    /// Runs the recorded session forward to `until`: the simulation runs, the recorded actions
    /// are scheduled when the clock gets to them, snapshots are kept on the way.
    pub fn run_to(&mut self, until: SimTime) {
        self.first_snapshot();
        self.replay_quietly(until.min(self.horizon));
        self.run_recording(until);
    }

    /// Runs recorded time up to `until` (at most the horizon) with the simulation's log off: its
    /// events were recorded, and would be dropped, so none is built. The count of emitted events
    /// is then put back to what the recording had at `until` (the last recorded sequence number
    /// there, less the scenario's `End` line, which only [`Session::run_to_end`] emits), so the
    /// sequence numbers, and every byte of the log, are the same as after a replay with the log
    /// on. Where the log no longer says that number (its oldest entries dropped), the replay
    /// builds its events as before.
    fn replay_quietly(&mut self, until: SimTime) {
        if self.sim.now() >= until || self.sim.log_level() != LogLevel::All {
            return;
        }
        // A snapshot is of a simulation with its log on (none falls due in recorded time).
        let snapshot_due = self
            .snapshots
            .last()
            .is_some_and(|s| s.at() + SimDuration::from_millis(self.snapshot_every) <= until);
        if snapshot_due {
            return;
        }
        let Some(emitted) = self.recorded_emitted(until) else {
            return;
        };
        self.sim.set_log_level(LogLevel::Off);
        self.run_recording(until);
        self.sim.set_log_level(LogLevel::All);
        self.sim.set_events_emitted(emitted);
    }

    /// How many events a replay with the log on has emitted once it has run every instant up to
    /// `t` (recorded time), if the log still says.
    fn recorded_emitted(&self, t: SimTime) -> Option<u64> {
        let log = &self.log;
        let i = log.partition_point(|e| e.at <= t);
        let last = match (i.checked_sub(1).map(|j| &log[j]), log.first(), self.dropped_until) {
            (Some(e), _, _) => e.seq,
            // Nothing recorded up to `t`, and nothing dropped there.
            (None, Some(first), None) => first.seq - 1,
            (None, Some(first), Some(d)) if d <= t => first.seq - 1,
            (None, None, None) => 0,
            _ => return None,
        };
        // `End` is logged at the scenario's end, after everything else of that instant.
        let end = SimTime(self.base.end_ms);
        let ended = end <= t && {
            let at_end = log[..i].partition_point(|e| e.at < end);
            log[at_end..i].iter().take_while(|e| e.at == end).any(|e| {
                matches!(
                    e.kind,
                    SimEventKind::World {
                        event: WorldEvent::End
                    }
                )
            })
        };
        Some(last - u64::from(ended))
    }

    /// [`Session::run_to`]'s loop: actions scheduled and snapshots taken on the way.
    fn run_recording(&mut self, until: SimTime) {
        loop {
            let action = self
                .history
                .get(self.applied)
                .map(|(at, _)| *at)
                .filter(|at| *at <= until);
            let snapshot = self
                .snapshots
                .last()
                .map(|s| s.at() + SimDuration::from_millis(self.snapshot_every))
                .filter(|at| *at <= until);
            match (action, snapshot) {
                (Some(at), s) if s.is_none_or(|s| at <= s) => {
                    // Up to just before the action's instant, so that the action runs first in it.
                    if at > SimTime::ZERO {
                        self.sim.run_until(SimTime(at.as_millis() - 1));
                    }
                    let action = self.history[self.applied].1.clone();
                    self.applied += 1;
                    self.sim.schedule(at, action);
                }
                (_, Some(s)) => {
                    self.sim.run_until(s);
                    self.take_snapshot();
                }
                (None, None) => break,
                // `(Some, None)` is the first arm.
                (Some(_), None) => unreachable!(),
            }
        }
        self.sim.run_until(until);
        self.collect();
        self.horizon = self.horizon.max(self.sim.now());
    }

    /// Runs the next instant at which something happens (a recorded action included). Returns
    /// whether there was one.
    pub fn step(&mut self) -> bool {
        match self.next_time() {
            Some(t) => {
                self.run_to(t);
                true
            }
            None => false,
        }
    }

    /// When the next thing happens: a simulation event or a recorded action.
    pub fn next_time(&self) -> Option<SimTime> {
        let action = self.history.get(self.applied).map(|(at, _)| *at);
        [self.sim.next_event_time(), action].into_iter().flatten().min()
    }

    /// Runs to the end of the instant of event `seq` (a lesson's step), or as far as anything
    /// happens before the base scenario's end.
    pub fn run_to_event(&mut self, seq: u64) {
        let end = SimTime(self.base.end_ms);
        while self.sim.events_emitted() < seq {
            match self.next_time() {
                Some(t) if t <= end => self.run_to(t),
                _ => {
                    self.run_to_end();
                    break;
                }
            }
        }
    }

    /// Runs to the base scenario's `end_ms` and logs the end, as `rebalance-sim run` does.
    pub fn run_to_end(&mut self) {
        self.run_to(SimTime(self.base.end_ms));
        if self.sim.now() == SimTime(self.base.end_ms) {
            self.sim.run_to_end();
            self.collect();
        }
    }

    /// Applies `action` now, at the start of the next instant that has not run
    /// ([`Simulation::next_open_instant`]), and runs that instant. Returns the time it ran at. An
    /// action the engine refuses changes nothing, not even the recorded future; one applied in the
    /// past forks (see the [module docs](self)).
    pub fn apply(&mut self, action: Action) -> Result<SimTime, ActionError> {
        self.apply_at(SimTime::ZERO, action)
    }

    /// Like [`Session::apply`], but at `not_before` if that is later than the next open instant
    /// (the time runs there first). A [`crate::compare::CompareSession`] applies one action to
    /// sessions that ran different instants at the same time this way.
    pub fn apply_at(&mut self, not_before: SimTime, action: Action) -> Result<SimTime, ActionError> {
        self.sim.check(&action)?;
        self.first_snapshot();
        let at = self.sim.next_open_instant().max(not_before);
        if self.sim.now() < self.horizon || self.applied < self.history.len() {
            self.drop_future();
        }
        self.history.push((at, action));
        self.run_to(at);
        Ok(at)
    }

    /// Shows the session as it was at `to` (at most [`Session::horizon`]).
    pub fn seek(&mut self, to: SimTime) {
        self.first_snapshot();
        let to = to.min(self.horizon);
        let now = self.sim.now();
        let i = self.snapshots.partition_point(|s| s.at() <= to);
        let snapshot = i.checked_sub(1).map(|i| &self.snapshots[i]);
        // Running on from the shown state is as good as a snapshot that is not later.
        let restore = match snapshot {
            Some(s) => to < now || s.at() > now,
            None => false,
        };
        if let (true, Some(s)) = (restore, snapshot) {
            self.sim = s.sim.clone();
            self.applied = s.applied;
        }
        self.run_to(to);
        self.marks = Marks::of(self.log());
    }

    /// A copy of the session at the shown time that has forgotten its recorded future: playing
    /// it on without applying anything gives the same run as the original.
    pub fn fork(&self) -> Self {
        let mut f = self.clone();
        f.drop_future();
        f
    }

    /// The session as a scenario that replays exactly what is on screen: the base without its
    /// actions after the shown time, the user's actions up to it, `end_ms` the shown time.
    pub fn to_scenario(&self) -> Scenario {
        let now = self.sim.now().as_millis();
        let mut s = self.base.clone();
        s.consumers.retain(|c| c.start_ms.unwrap_or(0) <= now);
        s.actions.retain(|a| a.at_ms() <= now);
        s.actions.extend(
            self.history()
                .iter()
                .map(|(at, a)| ActionSpec::from_action(*at, a)),
        );
        let last = s.actions.iter().map(ActionSpec::at_ms).max().unwrap_or(0);
        // `end_ms` must be positive: a session still at 0 ms is written at 1 ms.
        s.end_ms = now.max(last).max(1);
        s
    }

    /// Forgets what was recorded after the shown time.
    fn drop_future(&mut self) {
        let now = self.sim.now();
        self.history.truncate(self.applied);
        let shown = self.shown_len();
        self.log.truncate(shown);
        self.snapshots.retain(|s| s.at() <= now);
        self.horizon = now;
    }

    /// Moves what the simulation emitted into the session's log (dropping what was recorded).
    fn collect(&mut self) {
        let recorded = self.log.last().map_or(0, |e| e.seq);
        let new = self.sim.take_log();
        let fresh = new.partition_point(|e| e.seq <= recorded);
        self.log.extend(new.into_iter().skip(fresh));
        self.trim_log();
        let shown = self.shown_len();
        self.marks.follow(&self.log[..shown]);
    }

    /// The snapshot of the session as built, taken as it first moves rather than as it is built.
    fn first_snapshot(&mut self) {
        if self.snapshots.is_empty() {
            self.take_snapshot();
        }
    }

    fn take_snapshot(&mut self) {
        let log = self.sim.take_log();
        self.snapshots.push(Snapshot {
            sim: self.sim.clone(),
            applied: self.applied,
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

    // ====================================================================================== views

    /// The group as the UI shows it, at the shown time.
    pub fn group_view(&self) -> GroupView {
        let sim = &self.sim;
        let group_id = sim.group_id().to_owned();
        let config = self.base.coordinator_config();
        let partitions = config.offsets_topic_num_partitions;
        let partition = partition_for(&group_id, partitions);
        let coordinator = sim.coordinator();
        let loaded = coordinator
            .led_partitions()
            .iter()
            .find(|(p, _)| *p == partition)
            .map(|(_, s)| *s);
        let described = sim.group();
        let snapshot = sim.group_snapshot();
        let (state, generation, leader_member, protocol, members) = match &snapshot {
            Some(s) => (
                s.state,
                s.generation_id,
                s.leader.clone(),
                s.protocol_name.clone(),
                s.members.len(),
            ),
            // No group yet on a serving coordinator: a new group is Empty at generation 0.
            None if loaded == Some(PartitionStatus::Active) => (GroupState::Empty, 0, None, None, 0),
            None => (GroupState::Dead, 0, None, None, 0),
        };
        let leader = leader_member
            .as_deref()
            .and_then(|m| sim.consumer_named_by_member(m));
        let consumer = self.consumer_group_facts(snapshot.is_none(), loaded);
        let members = consumer.as_ref().map_or(members, |c| c.members.len());
        GroupView {
            group_id,
            exists: snapshot.is_some() || consumer.as_ref().is_some_and(|c| c.exists),
            state,
            described_state: described.group_state,
            described_error: described.error_code,
            generation,
            leader,
            leader_member,
            protocol,
            partition,
            offsets_partitions: partitions,
            initial_rebalance_delay_ms: config.group_initial_rebalance_delay_ms,
            coordinator: coordinator.node_id(),
            loaded,
            members,
            last_transition: self.marks.last_transition,
            generation_seq: self.marks.generation_seq,
            consumer,
        }
    }

    /// The consumer-protocol part of [`Session::group_view`]: the coordinator's consumer group if
    /// it holds one; else, when no classic group exists either and some consumer speaks the
    /// consumer protocol, the group such a consumer will create (Empty at epoch 0 on a serving
    /// coordinator, Dead while the coordinator does not serve the group's partition).
    fn consumer_group_facts(
        &self,
        no_classic: bool,
        loaded: Option<PartitionStatus>,
    ) -> Option<ConsumerGroupFacts> {
        let sim = &self.sim;
        let marks = (self.marks.consumer_transition, self.marks.epoch_seq);
        if let Some(g) = sim.consumer_group() {
            let members = g
                .members
                .into_iter()
                .map(|m| {
                    let awaiting = m
                        .target
                        .iter()
                        .filter(|tp| !m.assigned.contains(tp))
                        .cloned()
                        .collect();
                    let keeping = m
                        .assigned
                        .iter()
                        .filter(|tp| m.target.contains(tp))
                        .cloned()
                        .collect();
                    // Pending revocation, and owned partitions the target takes away that the
                    // member has not been told about yet (it learns at its next heartbeat).
                    let mut giving_up: Vec<TopicPartition> = m.pending_revocation.clone();
                    giving_up.extend(m.assigned.iter().filter(|tp| !m.target.contains(tp)).cloned());
                    crate::sort::sort_by_key(&mut giving_up, |tp| tp.clone());
                    ConsumerMemberFacts {
                        consumer: sim.consumer_named_by_member(&m.member_id),
                        member_id: m.member_id,
                        instance_id: m.instance_id,
                        member_epoch: m.member_epoch,
                        previous_member_epoch: m.previous_member_epoch,
                        state: m.state,
                        assigned: m.assigned,
                        pending_revocation: m.pending_revocation,
                        target: m.target,
                        awaiting,
                        keeping,
                        giving_up,
                    }
                })
                .collect();
            let served = loaded == Some(PartitionStatus::Active);
            let last_target_change = self.last_target_change();
            return Some(ConsumerGroupFacts {
                exists: true,
                state: if served { g.state } else { ConsumerGroupState::Dead },
                group_epoch: g.group_epoch,
                assignment_epoch: g.assignment_epoch,
                assignor: Some(g.assignor),
                members,
                last_transition: marks.0,
                epoch_seq: marks.1,
                last_target_change,
            });
        }
        if !no_classic || !self.speaks_consumer_protocol() {
            return None;
        }
        Some(ConsumerGroupFacts {
            exists: false,
            state: if loaded == Some(PartitionStatus::Active) {
                ConsumerGroupState::Empty
            } else {
                ConsumerGroupState::Dead
            },
            group_epoch: 0,
            assignment_epoch: 0,
            assignor: None,
            members: Vec::new(),
            last_transition: marks.0,
            epoch_seq: marks.1,
            last_target_change: None,
        })
    }

    /// What the last target assignment of the consumer-protocol group changed against the one
    /// before it (the first one, against nothing): who kept what, and which partitions moved.
    /// `None` before any target, or when the log no longer holds it.
    fn last_target_change(&self) -> Option<TargetChange> {
        let targets = |seq: u64| match self.event(seq).map(|e| &e.kind) {
            Some(SimEventKind::Coordinator {
                event:
                    EventKind::ConsumerTargetAssignmentComputed {
                        assignment_epoch,
                        targets,
                        ..
                    },
                ..
            }) => Some((*assignment_epoch, targets)),
            _ => None,
        };
        let [last, previous] = self.marks.targets;
        let (epoch, new) = targets(last)?;
        let old: &[(String, Vec<TopicPartition>)] = match previous {
            0 => &[],
            seq => targets(seq)?.1,
        };
        let name = |id: &str| {
            self.sim
                .consumer_named_by_member(id)
                .unwrap_or_else(|| id.to_owned())
        };
        let (before, after) = (owners(old), owners(new));
        let mut partitions: Vec<&TopicPartition> =
            before.iter().chain(after.iter()).map(|(tp, _)| *tp).collect();
        partitions.sort();
        partitions.dedup();
        let moved = partitions
            .into_iter()
            .filter_map(|tp| {
                let (from, to) = (owner(&before, tp), owner(&after, tp));
                (from != to).then(|| PartitionMove {
                    partition: tp.clone(),
                    from: from.map(name),
                    to: to.map(name),
                })
            })
            .collect();
        let kept = new
            .iter()
            .map(|(id, parts)| {
                let parts = parts
                    .iter()
                    .filter(|tp| owner(&before, tp) == Some(id.as_str()))
                    .cloned();
                (name(id), parts.collect::<Vec<_>>())
            })
            .filter(|(_, parts)| !parts.is_empty())
            .collect();
        Some(TargetChange {
            epoch,
            moves: TargetMoves { kept, moved },
        })
    }
}

/// Each partition's owner in a target assignment, sorted by partition (a sorted list rather than
/// another map type: one fewer map's code in the bundle).
fn owners(of: &[(String, Vec<TopicPartition>)]) -> Vec<(&TopicPartition, &str)> {
    let mut list: Vec<(&TopicPartition, &str)> = of
        .iter()
        .flat_map(|(id, parts)| parts.iter().map(move |tp| (tp, id.as_str())))
        .collect();
    list.sort();
    list
}

/// The owner of `tp` in a list made by [`owners`].
fn owner<'a>(list: &[(&TopicPartition, &'a str)], tp: &TopicPartition) -> Option<&'a str> {
    list.binary_search_by(|(p, _)| (*p).cmp(tp))
        .ok()
        .map(|i| list[i].1)
}

impl Session {
    /// Whether the group is to be a consumer-protocol group: some consumer runs with
    /// `group.protocol=consumer`, or the scenario's defaults or consumers say so.
    fn speaks_consumer_protocol(&self) -> bool {
        use crate::client::GroupProtocol;
        let d = self.base.client_defaults.group_protocol;
        self.sim.has_consumer_protocol_consumer()
            || d == Some(GroupProtocol::Consumer)
            || self
                .base
                .consumers
                .iter()
                .any(|c| c.group_protocol.or(d) == Some(GroupProtocol::Consumer))
    }

    /// Every consumer, as the UI draws it.
    pub fn consumers(&self) -> Vec<ConsumerView> {
        self.sim.consumers()
    }

    /// The readable trace of the shown part, as `rebalance-sim run --format text` prints it.
    pub fn trace_text(&self, detail: bool) -> String {
        self.with_shown_log().trace_text(detail)
    }

    /// The machine-readable trace of the shown part, as `rebalance-sim run` prints it.
    pub fn trace_jsonl(&self) -> String {
        self.with_shown_log().trace_jsonl()
    }

    /// The simulation with the shown log put back (the traces are written by the simulation).
    fn with_shown_log(&self) -> Simulation {
        let mut sim = self.sim.clone();
        sim.put_log(self.log().to_vec());
        sim
    }
}

/// The group at one moment, as the engine tells the UI to show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupView {
    /// The group id.
    pub group_id: String,
    /// Whether the coordinator holds the group (it is created by the first JoinGroup).
    pub exists: bool,
    /// Its state: `Empty` for a group nobody joined yet on a serving coordinator, `Dead` while
    /// the coordinator does not serve the group's partition.
    pub state: GroupState,
    /// What DescribeGroups answers for it now: `Dead` (with error `NONE`) before the group exists.
    pub described_state: GroupState,
    /// DescribeGroups' error code now (`NOT_COORDINATOR`, `COORDINATOR_LOAD_IN_PROGRESS`, ...).
    pub described_error: crate::protocol::ErrorCode,
    /// Its generation.
    pub generation: i32,
    /// The leader's consumer name.
    pub leader: Option<String>,
    /// The leader's member id.
    pub leader_member: Option<String>,
    /// The selected assignor.
    pub protocol: Option<String>,
    /// Its `__consumer_offsets` partition: `abs(groupId.hashCode()) % offsets_partitions`.
    pub partition: i32,
    /// `offsets.topic.num.partitions` of the scenario.
    pub offsets_partitions: i32,
    /// `group.initial.rebalance.delay.ms` of the scenario's coordinator.
    pub initial_rebalance_delay_ms: u64,
    /// Its coordinator broker (the leader of that partition, or the last one while it has none).
    pub coordinator: NodeId,
    /// The status of the group's partition on the coordinator (`None`: not led by it).
    pub loaded: Option<PartitionStatus>,
    /// How many members it has.
    pub members: usize,
    /// The last state change: from, to, log sequence number.
    pub last_transition: Option<(GroupState, GroupState, u64)>,
    /// The log sequence number of the last generation change.
    pub generation_seq: u64,
    /// For a consumer-protocol (KIP-848) group, what its coordinator holds: state, epochs and
    /// members (the classic fields above then say nothing: no generation, no leader; `members`
    /// counts its members). `None` for a classic group.
    pub consumer: Option<ConsumerGroupFacts>,
}

/// A consumer-protocol (KIP-848) group at one moment, as the engine tells the UI to show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConsumerGroupFacts {
    /// Whether the coordinator holds the group (created by the first ConsumerGroupHeartbeat).
    pub exists: bool,
    /// Its derived state (Empty, Assigning, Reconciling, Stable), or `Dead` while the coordinator
    /// does not serve its partition (as the classic DescribeGroups reports it).
    pub state: ConsumerGroupState,
    /// The group epoch.
    pub group_epoch: i32,
    /// The target assignment epoch (at most the group epoch).
    pub assignment_epoch: i32,
    /// The server assignor in use.
    pub assignor: Option<String>,
    /// Its members, by member id.
    pub members: Vec<ConsumerMemberFacts>,
    /// The last state change: from, to, log sequence number.
    pub last_transition: Option<(ConsumerGroupState, ConsumerGroupState, u64)>,
    /// The log sequence number of the last group epoch bump.
    pub epoch_seq: u64,
    /// What the last target assignment changed, kept once the members have reconciled (the
    /// explanation of a Stable group still says what the last rebalance moved).
    pub last_target_change: Option<TargetChange>,
}

impl ConsumerGroupFacts {
    /// The member the consumer named `name` is, if it is one.
    pub fn member_of(&self, name: &str) -> Option<&ConsumerMemberFacts> {
        self.members.iter().find(|m| m.consumer.as_deref() == Some(name))
    }

    /// While members reconcile to a new target: who keeps consuming what, and which partitions
    /// move from whom to whom (the difference to a classic rebalance, where every member stops).
    /// `None` while nothing moves.
    pub fn moves(&self) -> Option<TargetMoves> {
        let mut moved = Vec::new();
        for m in &self.members {
            for tp in &m.awaiting {
                let from = self
                    .members
                    .iter()
                    .find(|o| {
                        o.member_id != m.member_id
                            && (o.pending_revocation.contains(tp) || o.assigned.contains(tp))
                    })
                    .map(ConsumerMemberFacts::name);
                moved.push(PartitionMove {
                    partition: tp.clone(),
                    from,
                    to: Some(m.name()),
                });
            }
        }
        for m in &self.members {
            for tp in &m.pending_revocation {
                if !moved.iter().any(|mv| &mv.partition == tp) {
                    moved.push(PartitionMove {
                        partition: tp.clone(),
                        from: Some(m.name()),
                        to: None,
                    });
                }
            }
        }
        if moved.is_empty() {
            return None;
        }
        crate::sort::sort_by_key(&mut moved, |mv| mv.partition.clone());
        let kept = self
            .members
            .iter()
            .map(|m| {
                let parts: Vec<TopicPartition> = m
                    .assigned
                    .iter()
                    .filter(|tp| m.target.contains(tp))
                    .cloned()
                    .collect();
                (m.name(), parts)
            })
            .filter(|(_, parts)| !parts.is_empty())
            .collect();
        Some(TargetMoves { kept, moved })
    }
}

/// What a new target of a consumer-protocol group changes while its members reconcile
/// ([`ConsumerGroupFacts::moves`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetMoves {
    /// Each member that keeps partitions (by consumer name, else member id), and those partitions:
    /// it goes on consuming them throughout.
    pub kept: Vec<(String, Vec<TopicPartition>)>,
    /// The partitions that move, in partition order.
    pub moved: Vec<PartitionMove>,
}

/// What one target assignment changed against the one before it
/// ([`ConsumerGroupFacts::last_target_change`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetChange {
    /// The target's assignment epoch.
    pub epoch: i32,
    /// Who kept which partitions, and which moved (from the previous target's owner to the new one).
    pub moves: TargetMoves,
}

/// One partition moving between members.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartitionMove {
    /// The partition.
    pub partition: TopicPartition,
    /// Who gives it up (`None`: nobody owned it).
    pub from: Option<String>,
    /// Who gets it (`None`: nobody, it leaves the assignment).
    pub to: Option<String>,
}

/// One member of a consumer-protocol group, as the coordinator holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConsumerMemberFacts {
    /// The member id.
    pub member_id: String,
    /// The name of the simulated consumer holding that member id, if one does.
    pub consumer: Option<String>,
    /// Its `group.instance.id`, if static.
    pub instance_id: Option<String>,
    /// Its member epoch.
    pub member_epoch: i32,
    /// Its previous member epoch.
    pub previous_member_epoch: i32,
    /// Its reconciliation state (STABLE, UNREVOKED_PARTITIONS, UNRELEASED_PARTITIONS, UNKNOWN).
    pub state: MemberState,
    /// Its current assignment: the partitions it may use.
    pub assigned: Vec<TopicPartition>,
    /// Partitions it still has to revoke.
    pub pending_revocation: Vec<TopicPartition>,
    /// Its target assignment.
    pub target: Vec<TopicPartition>,
    /// Target partitions it does not have yet (it waits for them: after its own revocation, or
    /// until their previous owners release them).
    pub awaiting: Vec<TopicPartition>,
    /// Partitions it owns and its target keeps: it consumes them throughout.
    pub keeping: Vec<TopicPartition>,
    /// Partitions it owns that its target takes away: pending revocation, or not yet told (until
    /// its next heartbeat brings the new target).
    pub giving_up: Vec<TopicPartition>,
}

impl ConsumerMemberFacts {
    /// Its consumer's name, else its member id.
    pub fn name(&self) -> String {
        self.consumer.clone().unwrap_or_else(|| self.member_id.clone())
    }
}
