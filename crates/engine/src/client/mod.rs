//! A Kafka consumer (classic protocol) as a deterministic, sans-IO state machine.
//!
//! One [`Consumer`] models a Java `KafkaConsumer` plus the application loop around it
//! (`while (true) { records = poll(); process(records); commit?; }`), with its two threads:
//!
//! * the **application thread** calls `poll()`; `poll()` finds the coordinator, (re)joins the group
//!   when needed (JoinGroup, SyncGroup, rebalance callbacks), fetches the starting positions of new
//!   partitions (OffsetFetch), auto-commits, and returns a batch; the application then processes the
//!   batch for [`ConsumerConfig::processing_ms`] before polling again;
//! * the **heartbeat thread** sends a Heartbeat every `heartbeat.interval.ms` while the member is in
//!   `COMPLETING_REBALANCE` or `STABLE`, watches `session.timeout.ms` (no heartbeat answer) and
//!   `max.poll.interval.ms` (no `poll()`), and leaves the group on a poll timeout.
//!
//! # Run loop
//!
//! Like the coordinator, the consumer never reads a clock and does no I/O:
//!
//! 1. Inputs, each with the current time: [`Consumer::start`], [`Consumer::handle_response`] for a
//!    response to one of its requests, [`Consumer::handle_timeout`] when
//!    [`Consumer::poll_timeout`] is reached, and the commands [`Consumer::close`],
//!    [`Consumer::kill`], [`Consumer::pause`], [`Consumer::resume`], [`Consumer::subscribe`]. Every
//!    input also takes the cluster's [`Topics`]: fetches and metadata requests are answered from it
//!    at once (brokers other than the coordinator are not modelled yet).
//! 2. Outputs: [`Consumer::poll_output`] yields requests to send ([`ClientOutput::Send`]);
//!    [`Consumer::poll_event`] yields [`ClientEvent`]s. A finished batch is the event
//!    [`ClientEvent::BatchProcessed`], whose `duplicates` the environment fills in (only it knows
//!    what other consumers processed).
//!
//! Error reactions follow the Java client exactly (reference §8.1); the eager and cooperative
//! protocols follow §8.2 and §8.3, and `onPartitionsLost` §8.4.
//!
//! Simplification: during an eager rebalance the consumer owns nothing, so its loop spins on
//! `poll()` until the rebalance completes; the model treats that as one blocking `poll()`. A
//! cooperative consumer that owns partitions keeps processing them while it rejoins, and installs
//! the new assignment at its next `poll()`, as Kafka's `onJoinComplete` does.
//!
//! # Files
//!
//! One type, split by concern like the coordinator (`impl Consumer` blocks per file): this file
//! holds the struct, the inputs, the outputs, the getters and the drive (the two threads and one
//! pass of `poll()`); `join` the join flow (`onJoinPrepare`, JoinGroup, the assignor, SyncGroup,
//! `onJoinComplete`, revocation, leaving and generation resets); `heartbeat` the heartbeat
//! thread and `max.poll.interval.ms`; `commit` OffsetCommit; `fetch` metadata, OffsetFetch and
//! fetches.

mod commit;
mod config;
pub mod consumer;
mod event;
mod fetch;
mod heartbeat;
mod join;
mod timers;

use crate::collections::Map;
use crate::collections::Set;
use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

pub use config::{
    check_name, is_topic_name, CommitMode, ConfigField, ConfigIssue, ConsumerConfig, GroupProtocol,
    NameIssue, Severity, MAX_NAME_CHARS,
};
pub use consumer::{ConsumerMemberState, ConsumerProtocolEvent};
pub use event::{
    ClientEvent, ClientState, CommitReason, CommitSkip, IgnoreReason, Lifecycle, MemberState, PositionSource,
    Reaction, RecordRange, RequestFailure, ResetReason,
};
pub use timers::ClientTimer;

use join::{JoinPrepare, PendingAssignment, Revocation};

use crate::assignor::RebalanceProtocol;
use crate::protocol::{
    Api, ErrorCode, FindCoordinatorRequest, NodeId, Request, Response, TopicPartition, NO_GENERATION,
};
use crate::time::{SimDuration, SimTime};
use crate::topic::{Subscription, Topics};

/// Kafka's `JOIN_GROUP_TIMEOUT_LAPSE`: a JoinGroup may wait the rebalance timeout plus this.
const JOIN_GROUP_TIMEOUT_LAPSE_MS: u64 = 5_000;

/// Where a request goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Destination {
    /// Any broker (FindCoordinator goes to a bootstrap broker).
    AnyBroker,
    /// The group coordinator.
    Coordinator(NodeId),
}

/// Something the consumer wants its environment to do.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClientOutput {
    /// Send a request; the response must come back through [`Consumer::handle_response`] with the
    /// same correlation id.
    Send {
        /// Where to.
        to: Destination,
        /// The correlation id.
        correlation_id: i32,
        /// The request.
        request: Request,
    },
}

/// A batch being processed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Processing {
    /// When `poll()` returned it.
    pub since: SimTime,
    /// When processing ends (later if polls are paused).
    pub until: SimTime,
    /// The records.
    pub records: Vec<RecordRange>,
}

/// What the application thread is doing.
#[derive(Clone, Debug, PartialEq, Eq)]
enum App {
    /// Inside `poll()`.
    InPoll,
    /// Processing a batch.
    Processing(Processing),
    /// Not running.
    Stopped,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Pause {
    until: Option<SimTime>,
    heartbeats: bool,
    polls: bool,
}

#[derive(Clone, Debug)]
struct InFlight {
    api: Api,
    correlation_id: i32,
    deadline: SimTime,
    /// The generation and member id when the request was sent ("generation unchanged" checks).
    generation: i32,
    member_id: String,
    commit: Option<(CommitReason, Vec<(TopicPartition, i64)>)>,
}

/// One simulated consumer. See the [module docs](self).
#[derive(Clone, Debug)]
pub struct Consumer {
    cfg: ConsumerConfig,
    protocol: RebalanceProtocol,
    lifecycle: Lifecycle,
    app: App,
    pause: Option<Pause>,
    /// Responses held while the whole process is frozen (a GC pause).
    frozen_inbox: Vec<(i32, Response)>,
    /// A connection dropped while the process was frozen; handled when it resumes.
    disconnect_pending: bool,

    // ----------------------------------------------------------------- coordinator and membership
    coordinator: Option<NodeId>,
    backoff_until: SimTime,
    member_id: String,
    generation: i32,
    protocol_name: Option<String>,
    state: MemberState,
    rejoin_needed: bool,
    join_prepare: JoinPrepare,
    /// `onJoinPrepare`'s auto-commit: the JoinGroup waits for its response (Kafka: `onJoinPrepare`
    /// returns `false` until `autoCommitOffsetRequestFuture` is done).
    join_commit: Option<i32>,
    /// The listener's `commitSync` in `onPartitionsRevoked`: the application thread is blocked
    /// until this OffsetCommit is answered.
    blocking_commit: Option<i32>,
    /// Partitions being revoked (the client state "revoking").
    revoking: Option<Revocation>,
    is_leader: bool,
    /// The leader's view of the group's topics when it assigned (`assignmentSnapshot`).
    assignment_snapshot: Option<Map<String, i32>>,
    /// The topics sent in the last JoinGroup (`joinedSubscription`).
    joined_subscription: Vec<String>,
    pending_assignment: Option<PendingAssignment>,

    // ------------------------------------------------------------------------------- partitions
    owned: Set<TopicPartition>,
    /// The generation whose assignment `owned` comes from (-1 before the first).
    assignment_generation: i32,
    /// Fetch positions of owned partitions; a partition without one needs OffsetFetch.
    positions: Map<TopicPartition, i64>,
    /// The offset after the last *processed* record, per owned partition: what commits send.
    processed: Map<TopicPartition, i64>,
    /// Offsets sent in a commit (and not failed), to avoid committing the same thing twice.
    last_commit_sent: Map<TopicPartition, i64>,
    fetch_cursor: usize,

    // ---------------------------------------------------------------------------------- threads
    last_poll: SimTime,
    next_heartbeat: SimTime,
    last_heartbeat_ack: SimTime,
    next_auto_commit: SimTime,
    batches_since_commit: u32,

    // ---------------------------------------------------------------------------------- metadata
    metadata: Map<String, i32>,
    next_metadata_refresh: SimTime,
    metadata_needed: bool,
    subscribed: Vec<String>,

    /// Crate-private: when set (the simulation's log is off), the events that only copy data for
    /// the log (`BatchFetched`, `CommitSent`) are counted in `quiet_events` instead of built.
    quiet: bool,
    quiet_events: u64,

    // ---------------------------------------------------------------------------------- io
    next_correlation: i32,
    in_flight: Map<i32, InFlight>,
    outbox: VecDeque<ClientOutput>,
    events: VecDeque<ClientEvent>,

    // ---------------------------------------------------------------------------------- stats
    records_processed: u64,
    started_at: SimTime,

    /// The consumer-protocol membership (`group.protocol=consumer`), `None` for a classic consumer.
    kip848: Option<Box<consumer::Membership>>,
}

impl Consumer {
    /// A consumer that has not started yet; call [`Consumer::start`].
    pub fn new(cfg: ConsumerConfig) -> Self {
        let cfg_protocol = cfg.group_protocol;
        Self {
            protocol: cfg.protocol(),
            cfg,
            lifecycle: Lifecycle::Running,
            app: App::Stopped,
            pause: None,
            frozen_inbox: Vec::new(),
            disconnect_pending: false,
            coordinator: None,
            backoff_until: SimTime::ZERO,
            member_id: String::new(),
            generation: NO_GENERATION,
            protocol_name: None,
            state: MemberState::Unjoined,
            rejoin_needed: true,
            join_prepare: JoinPrepare::Start,
            join_commit: None,
            blocking_commit: None,
            revoking: None,
            is_leader: false,
            assignment_snapshot: None,
            joined_subscription: Vec::new(),
            pending_assignment: None,
            owned: Set::new(),
            assignment_generation: NO_GENERATION,
            positions: Map::new(),
            processed: Map::new(),
            last_commit_sent: Map::new(),
            fetch_cursor: 0,
            last_poll: SimTime::ZERO,
            next_heartbeat: SimTime::ZERO,
            last_heartbeat_ack: SimTime::ZERO,
            next_auto_commit: SimTime::ZERO,
            batches_since_commit: 0,
            metadata: Map::new(),
            next_metadata_refresh: SimTime::ZERO,
            metadata_needed: true,
            subscribed: Vec::new(),
            quiet: false,
            quiet_events: 0,
            next_correlation: 0,
            in_flight: Map::new(),
            outbox: VecDeque::new(),
            events: VecDeque::new(),
            records_processed: 0,
            started_at: SimTime::ZERO,
            kip848: (cfg_protocol == GroupProtocol::Consumer).then(|| Box::new(consumer::Membership::new())),
        }
    }

    // =============================================================================== inputs

    /// Starts the application loop: subscribes and calls `poll()` for the first time.
    pub fn start(&mut self, now: SimTime, topics: &Topics) {
        self.started_at = now;
        if self.kip848.is_some() {
            self.start_consumer_protocol(now, topics);
            self.drive(now, topics);
            return;
        }
        self.events.push_back(ClientEvent::Started {
            subscription: self.cfg.subscription.clone(),
            assignors: self.cfg.assignors.clone(),
            protocol: self.protocol,
            group_instance_id: self.cfg.group_instance_id.clone(),
        });
        if let CommitMode::Auto { interval_ms } = self.cfg.commit {
            self.next_auto_commit = now + SimDuration::from_millis(interval_ms);
        }
        self.enter_poll(now);
        self.drive(now, topics);
    }

    /// Handles the response to the request with `correlation_id`.
    pub fn handle_response(
        &mut self,
        now: SimTime,
        correlation_id: i32,
        response: Response,
        topics: &Topics,
    ) {
        if !self.lifecycle.is_running() {
            return;
        }
        if self.is_frozen() {
            self.frozen_inbox.push((correlation_id, response));
            return;
        }
        self.dispatch_response(now, correlation_id, response);
        self.drive(now, topics);
    }

    /// Runs whatever is due at `now` (batch end, heartbeat, timeouts, pause end). Calling it early
    /// is harmless.
    pub fn handle_timeout(&mut self, now: SimTime, topics: &Topics) {
        if !self.lifecycle.is_running() {
            return;
        }
        if let Some(p) = &self.pause {
            if p.until.is_some_and(|u| u <= now) {
                self.resume(now, topics);
                return;
            }
        }
        // Request timeouts (Kafka disconnects and marks the coordinator unknown).
        let expired: Vec<i32> = self
            .in_flight
            .iter()
            .filter(|(_, f)| f.deadline <= now)
            .map(|(c, _)| *c)
            .collect();
        if !self.is_frozen() {
            for corr in expired {
                if let Some(f) = self.in_flight.remove(&corr) {
                    self.events.push_back(ClientEvent::RequestTimedOut {
                        api: f.api,
                        correlation_id: corr,
                    });
                    self.on_request_failed(now, f, RequestFailure::TimedOut);
                }
            }
        }
        self.drive(now, topics);
    }

    /// Closes the consumer gracefully: the batch in progress is abandoned, processed offsets are
    /// committed, owned partitions revoked (`onPartitionsRevoked`), and a dynamic member sends
    /// LeaveGroup (a static member sends nothing, KIP-345). Either way it then forgets its
    /// generation and member id and is UNJOINED, as Kafka's `resetGenerationOnLeaveGroup` does.
    pub fn close(&mut self, now: SimTime) {
        if !self.lifecycle.is_running() {
            return;
        }
        if self.kip848.is_some() {
            self.close_consumer_protocol(now);
            self.stop(Lifecycle::Closed);
            self.events.push_back(ClientEvent::Closed);
            return;
        }
        self.abandon_batch();
        // A revocation under way is overtaken: close revokes (or loses) everything still owned.
        self.revoking = None;
        self.blocking_commit = None;
        self.join_commit = None;
        self.commit(now, CommitReason::OnClose);
        // Kafka: `onLeavePrepare` reports the partitions lost, not revoked, when the generation was
        // reset or a rebalance is in progress (they may already be someone else's).
        if !self.owned.is_empty() {
            let parts: Vec<TopicPartition> = self.owned.iter().cloned().collect();
            let rebalancing = matches!(
                self.state,
                MemberState::PreparingRebalance | MemberState::CompletingRebalance
            );
            if self.generation_valid() && !rebalancing {
                self.events
                    .push_back(ClientEvent::PartitionsRevoked { partitions: parts });
            } else {
                self.events
                    .push_back(ClientEvent::PartitionsLost { partitions: parts });
            }
            self.drop_partitions_all();
        }
        self.maybe_leave_group(now, "the consumer is being closed", ResetReason::Closed);
        self.stop(Lifecycle::Closed);
        self.events.push_back(ClientEvent::Closed);
    }

    /// Kills the consumer: it stops at once and sends nothing (the coordinator finds out through
    /// the session timeout).
    pub fn kill(&mut self) {
        if !self.lifecycle.is_running() {
            return;
        }
        self.abandon_batch();
        self.stop(Lifecycle::Killed);
        self.events.push_back(ClientEvent::Killed);
    }

    /// The connection to a broker dropped (the broker crashed, or refused a connection because it
    /// is down). Kafka's `NetworkClient` fails every request in flight on the connection as
    /// disconnected; the coordinator is marked unknown, so the consumer runs FindCoordinator again
    /// (§8.1). A frozen process (GC pause) notices when it resumes.
    pub fn handle_disconnect(&mut self, now: SimTime, topics: &Topics) {
        if !self.lifecycle.is_running() {
            return;
        }
        if self.is_frozen() {
            self.disconnect_pending = true;
            return;
        }
        self.disconnect(now);
        self.drive(now, topics);
    }

    fn disconnect(&mut self, now: SimTime) {
        self.mark_coordinator_unknown(now, "the connection to the broker dropped");
        // Requests that were not to the coordinator (FindCoordinator to a bootstrap broker).
        let failed: Vec<InFlight> = std::mem::take(&mut self.in_flight).into_values().collect();
        let lookup_failed = failed.iter().any(|f| f.api == Api::FindCoordinator);
        for f in failed {
            self.on_request_failed(now, f, RequestFailure::Disconnected);
        }
        if lookup_failed {
            // Kafka: a failed coordinator lookup is retried after `retry.backoff.ms`.
            self.backoff(now);
        }
    }

    /// Pauses the heartbeat thread, the application's polls, or both (a GC pause freezes the whole
    /// process: even responses wait). `until = None` pauses until [`Consumer::resume`].
    pub fn pause(&mut self, _now: SimTime, until: Option<SimTime>, heartbeats: bool, polls: bool) {
        if !self.lifecycle.is_running() {
            return;
        }
        self.pause = Some(Pause {
            until,
            heartbeats,
            polls,
        });
        self.events.push_back(ClientEvent::Paused {
            until,
            heartbeats,
            polls,
        });
    }

    /// Ends a pause.
    pub fn resume(&mut self, now: SimTime, topics: &Topics) {
        if self.pause.take().is_none() || !self.lifecycle.is_running() {
            return;
        }
        self.events.push_back(ClientEvent::Resumed);
        if std::mem::take(&mut self.disconnect_pending) {
            self.disconnect(now);
        }
        // A frozen heartbeat thread catches up at once, as a thread waking from a GC pause does.
        for (corr, resp) in std::mem::take(&mut self.frozen_inbox) {
            self.dispatch_response(now, corr, resp);
        }
        self.drive(now, topics);
    }

    /// `subscribe()` with a new subscription; the consumer rejoins at its next `poll()` if the
    /// subscribed topics change.
    pub fn subscribe(&mut self, now: SimTime, subscription: Subscription, topics: &Topics) {
        if !self.lifecycle.is_running() {
            return;
        }
        self.cfg.subscription = subscription;
        self.metadata_needed = true;
        self.drive(now, topics);
    }

    // ============================================================================== outputs

    /// The next output.
    pub fn poll_output(&mut self) -> Option<ClientOutput> {
        self.outbox.pop_front()
    }

    /// The next event.
    pub fn poll_event(&mut self) -> Option<ClientEvent> {
        self.events.pop_front()
    }

    /// Crate-private "quiet" switch: see the `quiet` field.
    pub(crate) fn set_quiet(&mut self, quiet: bool) {
        self.quiet = quiet;
    }

    /// How many events were skipped while quiet since the last call (they still count as emitted).
    pub(crate) fn take_quiet_events(&mut self) -> u64 {
        std::mem::take(&mut self.quiet_events)
    }

    /// When [`Consumer::handle_timeout`] should be called next: the earliest of [`Consumer::timers`].
    pub fn poll_timeout(&self) -> Option<SimTime> {
        let mut next: Option<SimTime> = None;
        self.each_timer(|_, at| next = Some(next.map_or(at, |n| n.min(at))));
        next
    }

    // ============================================================================== getters

    /// The configuration.
    pub fn config(&self) -> &ConsumerConfig {
        &self.cfg
    }

    /// The name.
    pub fn name(&self) -> &str {
        &self.cfg.name
    }

    /// The rebalance protocol it follows.
    pub fn protocol(&self) -> RebalanceProtocol {
        self.protocol
    }

    /// Running, closed, killed or failed.
    pub fn lifecycle(&self) -> &Lifecycle {
        &self.lifecycle
    }

    /// The member id (`""` if none).
    pub fn member_id(&self) -> &str {
        &self.member_id
    }

    /// The generation it believes in (-1 if none).
    pub fn generation(&self) -> i32 {
        self.generation
    }

    /// The client's member state.
    pub fn member_state(&self) -> MemberState {
        self.kip848_classic_state().unwrap_or(self.state)
    }

    /// The client state a user sees: the member state, or [`ClientState::Revoking`] while
    /// partitions are being given up (see [`ClientState`]).
    pub fn client_state(&self) -> ClientState {
        if self.revoking.is_some() || !self.kip848_revoking().is_empty() {
            ClientState::Revoking
        } else {
            ClientState::of(self.member_state())
        }
    }

    /// The partitions being revoked (empty unless the client state is revoking).
    pub fn revoking(&self) -> &[TopicPartition] {
        if self.kip848.is_some() {
            return self.kip848_revoking();
        }
        self.revoking.as_ref().map_or(&[], |r| r.partitions.as_slice())
    }

    /// Whether it will rejoin at the next `poll()`.
    pub fn rejoin_needed(&self) -> bool {
        match self.consumer_member_state() {
            // The consumer protocol rejoins when fenced or stale (FENCED, STALE: JOINING next).
            Some(state) => matches!(state, ConsumerMemberState::Fenced | ConsumerMemberState::Stale),
            None => self.rejoin_needed,
        }
    }

    /// Whether it led the group in its last JoinGroup.
    pub fn is_leader(&self) -> bool {
        self.is_leader
    }

    /// The coordinator it knows.
    pub fn coordinator(&self) -> Option<NodeId> {
        self.coordinator
    }

    /// The selected protocol of its generation.
    pub fn protocol_name(&self) -> Option<&str> {
        self.protocol_name.as_deref()
    }

    /// The partitions it owns.
    pub fn owned(&self) -> &Set<TopicPartition> {
        &self.owned
    }

    /// The generation whose assignment the owned partitions come from (-1 before the first). It
    /// lags [`Consumer::generation`] between a JoinGroup response and the next `poll()`, during
    /// which a cooperative member keeps consuming what it owned.
    pub fn assignment_generation(&self) -> i32 {
        self.assignment_generation
    }

    /// Its fetch position per owned partition (missing until OffsetFetch answered).
    pub fn positions(&self) -> &Map<TopicPartition, i64> {
        &self.positions
    }

    /// The offset after the last processed record per owned partition.
    pub fn processed_offsets(&self) -> &Map<TopicPartition, i64> {
        &self.processed
    }

    /// The batch in progress.
    pub fn processing(&self) -> Option<&Processing> {
        match &self.app {
            App::Processing(p) => Some(p),
            _ => None,
        }
    }

    /// Whether the application is inside `poll()` (e.g. blocked in a rebalance).
    pub fn in_poll(&self) -> bool {
        self.app == App::InPoll
    }

    /// Whether a pause is in effect, and until when.
    pub fn paused(&self) -> Option<(Option<SimTime>, bool, bool)> {
        self.pause.as_ref().map(|p| (p.until, p.heartbeats, p.polls))
    }

    /// When the heartbeat thread sends its next heartbeat, if it is active.
    pub fn next_heartbeat(&self) -> Option<SimTime> {
        if self.kip848.is_some() {
            return self.consumer_heartbeat_deadline();
        }
        self.heartbeat_enabled().then_some(self.next_heartbeat)
    }

    /// When the client gives up on its coordinator for lack of heartbeat answers, if active.
    pub fn client_session_deadline(&self) -> Option<SimTime> {
        // The consumer-protocol client has no session timer of its own (the coordinator's
        // `group.consumer.session.timeout.ms` is the only one).
        (self.kip848.is_none() && self.heartbeat_enabled())
            .then(|| self.last_heartbeat_ack + SimDuration::from_millis(self.cfg.session_timeout_ms))
    }

    /// When `max.poll.interval.ms` expires if the application does not poll (only while it is
    /// processing; inside `poll()` the timer is being reset).
    pub fn poll_deadline(&self) -> Option<SimTime> {
        matches!(self.app, App::Processing(_)).then(|| self.poll_deadline_raw())
    }

    /// Records processed so far (duplicates included).
    pub fn records_processed(&self) -> u64 {
        self.records_processed
    }

    /// The topics the subscription covers now.
    pub fn subscribed_topics(&self) -> &[String] {
        &self.subscribed
    }

    // ============================================================================ internals

    fn is_frozen(&self) -> bool {
        self.pause.as_ref().is_some_and(|p| p.heartbeats && p.polls)
    }

    fn has_in_flight(&self, api: Api) -> bool {
        self.in_flight.values().any(|f| f.api == api)
    }

    fn generation_valid(&self) -> bool {
        self.generation != NO_GENERATION && !self.member_id.is_empty()
    }

    fn stop(&mut self, lifecycle: Lifecycle) {
        self.lifecycle = lifecycle;
        self.app = App::Stopped;
        self.in_flight.clear();
        self.join_commit = None;
        self.blocking_commit = None;
        self.revoking = None;
        self.pause = None;
        self.frozen_inbox.clear();
    }

    fn fatal(&mut self, reason: String) {
        self.abandon_batch();
        self.events.push_back(ClientEvent::Fatal {
            reason: reason.clone(),
        });
        self.stop(Lifecycle::Failed { reason });
    }

    fn abandon_batch(&mut self) {
        if let App::Processing(p) = &self.app {
            if p.records.iter().any(|r| !r.is_empty()) {
                let records = p.records.clone();
                self.events.push_back(ClientEvent::BatchAbandoned { records });
            }
        }
    }

    fn set_state(&mut self, to: MemberState) {
        if self.state != to {
            self.events
                .push_back(ClientEvent::MemberStateChanged { from: self.state, to });
            self.state = to;
        }
    }

    fn request_rejoin(&mut self, reason: impl Into<String>) {
        if !self.rejoin_needed {
            self.rejoin_needed = true;
            self.events.push_back(ClientEvent::RejoinRequested {
                reason: reason.into(),
            });
        }
    }

    fn enter_poll(&mut self, now: SimTime) {
        self.app = App::InPoll;
        self.last_poll = now;
    }

    // ------------------------------------------------------------------------------ the drive

    /// Runs both threads as far as they can go at `now`.
    fn drive(&mut self, now: SimTime, topics: &Topics) {
        if self.backoff_until <= now {
            self.backoff_until = SimTime::ZERO;
        }
        // Each pass may unblock the other thread; a few passes always reach a fixed point.
        for _ in 0..4 {
            if !self.lifecycle.is_running() || self.is_frozen() {
                return;
            }
            let before = (self.outbox.len(), self.events.len(), self.app_key(), self.state);
            if self.kip848.is_some() {
                self.background_thread(now);
            } else {
                self.heartbeat_thread(now);
            }
            self.application_thread(now, topics);
            if before == (self.outbox.len(), self.events.len(), self.app_key(), self.state) {
                return;
            }
        }
    }

    /// A cheap fingerprint of the application thread's state (for the fixed-point check).
    fn app_key(&self) -> (u8, SimTime) {
        match &self.app {
            App::InPoll => (0, SimTime::ZERO),
            App::Processing(p) => (1, p.until),
            App::Stopped => (2, SimTime::ZERO),
        }
    }

    fn application_thread(&mut self, now: SimTime, topics: &Topics) {
        if self.pause.as_ref().is_some_and(|p| p.polls) {
            return;
        }
        if let App::Processing(p) = &self.app {
            if now < p.until {
                return;
            }
            let App::Processing(p) = std::mem::replace(&mut self.app, App::InPoll) else {
                return;
            };
            self.finish_batch(now, p.records);
            self.enter_poll(now);
        }
        if self.app == App::InPoll {
            if self.kip848.is_some() {
                self.consumer_poll_step(now, topics);
            } else {
                self.poll_step(now, topics);
            }
        }
    }

    fn finish_batch(&mut self, now: SimTime, records: Vec<RecordRange>) {
        let mut done = Vec::new();
        for r in records {
            if r.is_empty() || !self.owned.contains(&r.partition) {
                continue;
            }
            match self.processed.get_mut(&r.partition) {
                Some(e) => *e = (*e).max(r.to),
                None => {
                    self.processed.insert(r.partition.clone(), r.from.max(r.to));
                }
            }
            self.records_processed += r.len();
            done.push(r);
        }
        self.events.push_back(ClientEvent::BatchProcessed {
            records: done,
            duplicates: 0,
        });
        if let CommitMode::Manual { every_batches } = self.cfg.commit {
            self.batches_since_commit += 1;
            if self.batches_since_commit >= every_batches.max(1) {
                self.batches_since_commit = 0;
                self.commit(now, CommitReason::AfterBatch);
            }
        }
    }

    /// One pass of `poll()`: returns when it must wait for a response, or when it hands a batch to
    /// the application.
    fn poll_step(&mut self, now: SimTime, topics: &Topics) {
        if self.backoff_until <= now {
            self.backoff_until = SimTime::ZERO;
        }
        self.maybe_refresh_metadata(now, topics);
        // Inside `onPartitionsRevoked`, the listener's `commitSync` blocks the application thread.
        if self.blocking_commit.is_some() {
            return;
        }
        self.finish_revocation();
        if self.coordinator.is_none() {
            self.find_coordinator(now);
            return;
        }
        // Install an assignment received while the application was busy (`onJoinComplete`).
        if let Some(p) = self.pending_assignment.take() {
            if p.generation == self.generation && self.state == MemberState::Stable {
                self.on_join_complete(now, p.partitions);
                if self.blocking_commit.is_some() {
                    return;
                }
            }
        }
        if self.subscribed != self.joined_subscription && self.state == MemberState::Stable {
            self.request_rejoin("the subscribed topics changed");
        }
        let rebalancing = matches!(
            self.state,
            MemberState::PreparingRebalance | MemberState::CompletingRebalance
        );
        if !rebalancing && (self.state == MemberState::Unjoined || self.rejoin_needed) {
            if now < self.backoff_until {
                return;
            }
            self.backoff_until = SimTime::ZERO;
            if self.on_join_prepare(now) {
                self.send_join_group(now);
            } else if self.blocking_commit.is_some() || self.revoking.is_some() {
                // Blocked in the listener, or (eager) every owned partition is pending revocation:
                // nothing to fetch until the commit is answered.
                return;
            }
            // Otherwise (cooperative) the JoinGroup waits for onJoinPrepare's auto-commit while
            // poll() keeps fetching the partitions it owns, as Kafka's poll does.
        }
        let rebalancing = matches!(
            self.state,
            MemberState::PreparingRebalance | MemberState::CompletingRebalance
        );
        if rebalancing && (self.protocol == RebalanceProtocol::Eager || self.owned.is_empty()) {
            return; // poll() blocks until the rebalance completes
        }
        if self.positions_missing(now) {
            return;
        }
        self.maybe_auto_commit(now);
        self.fetch(now, topics);
    }

    // -------------------------------------------------------------------- requests and responses

    fn send(&mut self, now: SimTime, api: Api, request: Request) -> i32 {
        self.next_correlation += 1;
        let corr = self.next_correlation;
        let timeout = match api {
            Api::JoinGroup => self.cfg.max_poll_interval_ms + JOIN_GROUP_TIMEOUT_LAPSE_MS,
            _ => self.cfg.request_timeout_ms,
        };
        let to = match (api, self.coordinator) {
            (Api::FindCoordinator, _) | (_, None) => Destination::AnyBroker,
            (_, Some(n)) => Destination::Coordinator(n),
        };
        self.in_flight.insert(
            corr,
            InFlight {
                api,
                correlation_id: corr,
                deadline: now + SimDuration::from_millis(timeout),
                generation: self.generation,
                member_id: self.member_id.clone(),
                commit: None,
            },
        );
        self.outbox.push_back(ClientOutput::Send {
            to,
            correlation_id: corr,
            request,
        });
        corr
    }

    fn dispatch_response(&mut self, now: SimTime, correlation_id: i32, response: Response) {
        if self.kip848.is_none()
            && matches!(
                response,
                Response::ConsumerGroupHeartbeat(_) | Response::ConsumerGroupDescribe(_)
            )
        {
            // The classic consumer never sends these APIs: whatever in-flight request shares the
            // correlation id is not what this answers.
            self.events.push_back(ClientEvent::ResponseIgnored {
                api: response.api(),
                correlation_id,
                why: IgnoreReason::NotClassicProtocol,
            });
            return;
        }
        let Some(mut f) = self.in_flight.remove(&correlation_id) else {
            self.events.push_back(ClientEvent::ResponseIgnored {
                api: response.api(),
                correlation_id,
                why: IgnoreReason::GivenUp,
            });
            return;
        };
        self.commit_resolved(correlation_id);
        match response {
            Response::FindCoordinator(r) => {
                if r.error_code.is_none() {
                    if self.coordinator.is_none() {
                        self.coordinator = Some(r.node_id);
                        // Kafka: FindCoordinatorResponseHandler resets the session timer.
                        self.last_heartbeat_ack = now;
                        self.events
                            .push_back(ClientEvent::CoordinatorDiscovered { node: r.node_id });
                    }
                } else {
                    self.react(r.error_code, Api::FindCoordinator, Reaction::BackOffAndRetry);
                    self.backoff(now);
                }
            }
            Response::JoinGroup(r) => self.on_join_response(now, &f, r),
            Response::SyncGroup(r) => self.on_sync_response(now, &f, r),
            Response::Heartbeat(r) => self.on_heartbeat_response(now, &f, r.error_code),
            Response::OffsetCommit(r) => {
                let e = r
                    .partitions
                    .iter()
                    .map(|p| p.error_code)
                    .find(|e| !e.is_none())
                    .unwrap_or(ErrorCode::None);
                self.on_commit_response(now, &mut f, e);
            }
            Response::OffsetFetch(r) => self.on_fetch_response(now, r),
            Response::LeaveGroup(_)
            | Response::DescribeGroups(_)
            | Response::ListGroups(_)
            | Response::DeleteGroups(_) => {}
            Response::ConsumerGroupHeartbeat(r) => self.on_consumer_heartbeat_response(now, &f, r),
            // A classic consumer ignored both above, before the in-flight lookup.
            Response::ConsumerGroupDescribe(_) => {}
        }
    }

    fn react(&mut self, error: ErrorCode, api: Api, reaction: Reaction) {
        self.events
            .push_back(ClientEvent::ErrorReceived { api, error, reaction });
    }

    /// A request failed without a response (timeout or disconnect).
    fn on_request_failed(&mut self, now: SimTime, f: InFlight, why: RequestFailure) {
        self.commit_resolved(f.correlation_id);
        match f.api {
            Api::JoinGroup | Api::SyncGroup => {
                if matches!(
                    self.state,
                    MemberState::PreparingRebalance | MemberState::CompletingRebalance
                ) {
                    self.set_state(MemberState::Unjoined);
                }
                self.mark_coordinator_unknown(now, &why.to_string());
            }
            // The consumer sends no DescribeGroups; it would be failed like any coordinator request.
            Api::Heartbeat
            | Api::OffsetFetch
            | Api::LeaveGroup
            | Api::FindCoordinator
            | Api::DescribeGroups
            | Api::ListGroups
            | Api::DeleteGroups
            | Api::ConsumerGroupDescribe => {
                self.mark_coordinator_unknown(now, &why.to_string());
            }
            Api::ConsumerGroupHeartbeat => {
                self.consumer_heartbeat_failed();
                self.mark_coordinator_unknown(now, &why.to_string());
            }
            Api::OffsetCommit => {
                if let Some((reason, offsets)) = f.commit {
                    self.forget_commit(&offsets);
                    self.events.push_back(ClientEvent::CommitSkipped {
                        reason,
                        why: CommitSkip::Lost { cause: why },
                    });
                }
                self.mark_coordinator_unknown(now, &why.to_string());
            }
        }
    }

    fn backoff(&mut self, now: SimTime) {
        self.backoff_until = now + SimDuration::from_millis(self.cfg.retry_backoff_ms.max(1));
    }

    // --------------------------------------------------------------------- coordinator discovery

    fn find_coordinator(&mut self, now: SimTime) {
        if self.has_in_flight(Api::FindCoordinator) || now < self.backoff_until {
            return;
        }
        self.backoff_until = SimTime::ZERO;
        let req = Request::FindCoordinator(FindCoordinatorRequest {
            key: self.cfg.group_id.clone(),
        });
        self.send(now, Api::FindCoordinator, req);
    }

    /// Marks the coordinator unknown (Kafka: `markCoordinatorUnknown`): in-flight group requests
    /// are failed as by a disconnect, and a rebalance in progress restarts after rediscovery.
    fn mark_coordinator_unknown(&mut self, now: SimTime, reason: &str) {
        if self.coordinator.is_none() {
            return;
        }
        self.coordinator = None;
        self.events.push_back(ClientEvent::CoordinatorLost {
            reason: reason.into(),
        });
        let failed: Vec<(i32, InFlight)> = std::mem::take(&mut self.in_flight).into_iter().collect();
        for (_, f) in failed {
            self.on_request_failed(now, f, RequestFailure::CoordinatorLost);
        }
    }
}

fn clamp_i32(v: u64) -> i32 {
    i32::try_from(v).unwrap_or(i32::MAX)
}
