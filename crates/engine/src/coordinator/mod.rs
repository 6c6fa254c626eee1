//! Kafka's classic group coordinator as a deterministic, sans-IO state machine.
//!
//! One [`Coordinator`] is one broker's group coordinator: it leads some partitions of
//! `__consumer_offsets` and manages every group that maps to them.
//!
//! # Run loop
//!
//! The coordinator never reads a clock and never does I/O. The caller drives it:
//!
//! 1. Inputs, each with the current simulated time (which must never go backwards):
//!    [`Coordinator::handle_request`] for a request from a connection, [`Coordinator::handle_timeout`]
//!    when [`Coordinator::poll_timeout`]'s deadline is reached, and [`Coordinator::load`] /
//!    [`Coordinator::unload`] when leadership of a `__consumer_offsets` partition moves.
//! 2. Outputs, drained after every input: [`Coordinator::poll_output`] yields responses addressed
//!    to `(connection, correlation id)`. JoinGroup and SyncGroup are long polls, so their responses
//!    may come out after a *later* input (another member's request, or a timer).
//!    [`Coordinator::poll_event`] yields the event log.
//! 3. [`Coordinator::poll_timeout`] tells when to call [`Coordinator::handle_timeout`] next.
//!
//! Kafka's error codes are data inside the responses; a Rust panic means the caller misused the API
//! (time going backwards) or the coordinator has a bug (an illegal state transition).
//!
//! Persistence: the coordinator appends records (group metadata, offset commits, tombstones) to the
//! log of each partition it leads ([`Coordinator::log`]). Appends complete at once by default; with
//! [`Coordinator::set_await_replication`] what depends on an append (the leader's SyncGroup, an
//! OffsetCommit, a static member's replacement) waits until the caller reports the high watermark
//! ([`Coordinator::handle_high_watermark`]) or an append error
//! ([`Coordinator::handle_append_error`]); see the `append` module.

use crate::collections::Map;
use std::collections::VecDeque;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::java::{kafka_abs, string_hash_code};
use crate::protocol::{ConnectionId, ErrorCode, NodeId, Outgoing, Request, Response, TopicPartition};
use crate::time::{SimDuration, SimTime};

pub mod consumer;
pub mod event;
pub mod records;
pub mod timers;

mod append;
mod consumer_classic;
mod consumer_heartbeat;
mod consumer_migration;
mod delete;
mod describe;
mod find;
mod group;
mod hash;
mod heartbeat;
pub(crate) mod index;
mod join;
mod leave;
mod list;
mod load;
mod offsets;
mod state;
mod sync;
pub mod version;

use append::Waiter;
pub use describe::{GroupSnapshot, MemberSnapshot};
use event::{Event, EventKind};
pub use group::CommittedOffset;
use group::{Group, Parked};
use records::{Record, RecordBody};
use timers::{Timer, TimerKey, TimerKind, TimerTable};
pub use version::{KafkaRelease, MigrationPolicy, UnknownKafkaRelease};

/// One scripted server-side assignment: member id → its target partitions (topic → partitions).
/// See [`CoordinatorConfig::scripted_assignments`].
pub type ScriptedAssignment = Map<String, consumer::Partitions>;

/// Kafka: `GroupCoordinatorService.partitionFor` —
/// `Utils.abs(groupId.hashCode()) % offsets.topic.num.partitions`.
///
/// # Panics
///
/// If `num_partitions` is not positive.
pub fn partition_for(group_id: &str, num_partitions: i32) -> i32 {
    assert!(
        num_partitions > 0,
        "offsets.topic.num.partitions must be positive"
    );
    kafka_abs(string_hash_code(group_id)) % num_partitions
}

/// The coordinator's configuration, with Kafka's defaults (`GroupCoordinatorConfig`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoordinatorConfig {
    /// This broker's id.
    pub node_id: NodeId,
    /// `offsets.topic.num.partitions` (50).
    pub offsets_topic_num_partitions: i32,
    /// `group.min.session.timeout.ms` (6000).
    pub group_min_session_timeout_ms: i32,
    /// `group.max.session.timeout.ms` (1800000).
    pub group_max_session_timeout_ms: i32,
    /// `group.initial.rebalance.delay.ms` (3000).
    pub group_initial_rebalance_delay_ms: u64,
    /// `group.max.size` (`Integer.MAX_VALUE`).
    pub group_max_size: usize,
    /// The join timeout of a new member (`CLASSIC_GROUP_NEW_MEMBER_JOIN_TIMEOUT_MS`, 300000).
    pub new_member_join_timeout_ms: u64,
    /// `offsets.retention.minutes` in ms (7 days).
    pub offsets_retention_ms: u64,
    /// `offsets.retention.check.interval.ms` (600000).
    pub offsets_retention_check_interval_ms: u64,
    /// `offset.metadata.max.bytes` (4096).
    pub offset_metadata_max_bytes: usize,
    /// `group.consumer.session.timeout.ms` (45000).
    pub group_consumer_session_timeout_ms: u64,
    /// `group.consumer.heartbeat.interval.ms` (5000).
    pub group_consumer_heartbeat_interval_ms: i32,
    /// `group.consumer.max.size` (`Integer.MAX_VALUE`).
    pub group_consumer_max_size: usize,
    /// The Kafka line whose consumer-group behaviour to imitate (reference §12; the newest, 4.4,
    /// by default).
    #[serde(default)]
    pub kafka_version: KafkaRelease,
    /// `group.consumer.assignment.interval.ms` (1000): the least time between two target
    /// computations of a consumer group, 4.3+ only (reference §7.4).
    #[serde(default = "default_assignment_interval_ms")]
    pub group_consumer_assignment_interval_ms: u64,
    /// `group.consumer.migration.policy` (`bidirectional`, reference §10).
    #[serde(default)]
    pub group_consumer_migration_policy: MigrationPolicy,
    /// A scripted server assignor (Kafka's tests' `MockPartitionAssignor`): each entry is the
    /// result of the next target computation of a consumer group, in order, instead of the
    /// preferred assignor's; once they are used up, the preferred assignor runs again. Members the
    /// entry does not name get an empty target; names that are not members are ignored. Each
    /// coordinator (broker) works through its own copy.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scripted_assignments: Vec<ScriptedAssignment>,
}

fn default_assignment_interval_ms() -> u64 {
    1_000
}

impl Default for CoordinatorConfig {
    fn default() -> Self {
        Self {
            node_id: NodeId(0),
            offsets_topic_num_partitions: 50,
            group_min_session_timeout_ms: 6_000,
            group_max_session_timeout_ms: 1_800_000,
            group_initial_rebalance_delay_ms: 3_000,
            group_max_size: i32::MAX as usize,
            new_member_join_timeout_ms: 300_000,
            offsets_retention_ms: 7 * 24 * 60 * 60 * 1000,
            offsets_retention_check_interval_ms: 600_000,
            offset_metadata_max_bytes: 4096,
            group_consumer_session_timeout_ms: 45_000,
            group_consumer_heartbeat_interval_ms: 5_000,
            group_consumer_max_size: i32::MAX as usize,
            kafka_version: KafkaRelease::default(),
            group_consumer_assignment_interval_ms: default_assignment_interval_ms(),
            group_consumer_migration_policy: MigrationPolicy::default(),
            scripted_assignments: Vec::new(),
        }
    }
}

/// The status of a `__consumer_offsets` partition this coordinator leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PartitionStatus {
    /// Leadership acquired, records being replayed: requests get `COORDINATOR_LOAD_IN_PROGRESS`.
    Loading,
    /// Loaded and serving.
    Active,
}

#[derive(Clone, Debug)]
pub(crate) struct PartitionLog {
    pub(crate) status: PartitionStatus,
    /// The offset of `records[0]`: 0, or the log end offset the partition had when it was loaded
    /// from a replica's index ([`Coordinator::load_latest`]); the history before it stays in the
    /// replica, where Kafka's coordinator leaves it too (it keeps state in memory, not the log).
    pub(crate) start: u64,
    /// Shared, so that replicas and the next leader can hold the same records without copies.
    pub(crate) records: Vec<Arc<Record>>,
}

impl PartitionLog {
    /// The offset of the next record.
    pub(crate) fn end(&self) -> u64 {
        self.start + self.records.len() as u64
    }
}

/// Everything a handler needs besides the group it works on: configuration, the clock reading,
/// timers, the outbox, the event log and the partition logs. Kept apart from the groups so that a
/// handler can hold `&mut Group` and `&mut Io` at once.
#[derive(Clone)]
pub(crate) struct Io {
    pub(crate) config: CoordinatorConfig,
    pub(crate) now: SimTime,
    pub(crate) timers: TimerTable,
    pub(crate) outbox: VecDeque<Outgoing>,
    pub(crate) events: VecDeque<Event>,
    pub(crate) logs: Map<i32, PartitionLog>,
    /// Whether appends wait for the high watermark (acks=all on a replicated partition).
    pub(crate) await_replication: bool,
    /// Errors appends get before writing anything, by partition (e.g. `NOT_ENOUGH_REPLICAS`).
    pub(crate) append_errors: Map<i32, ErrorCode>,
    /// What waits for an append, by `(partition, offset)`.
    pub(crate) waiting: std::collections::BTreeMap<(i32, u64), Waiter>,
    /// How many of [`CoordinatorConfig::scripted_assignments`] were used.
    pub(crate) scripted_used: usize,
    /// Crate-private: no event log at all (a simulation whose log is off drops the coordinators'
    /// events unread, so building them, and the copies of responses and records they carry, is
    /// waste). Responses, records and state are the same either way.
    pub(crate) quiet: bool,
}

impl Io {
    // Inlined so that the event is built in place rather than built, then copied (events are
    // large and every request emits several).
    #[inline(always)]
    pub(crate) fn emit(&mut self, kind: EventKind) {
        if self.quiet {
            return;
        }
        self.events.push_back(Event {
            at: self.now,
            coordinator: self.config.node_id,
            kind,
        });
    }

    /// Sends a response to a parked or current request.
    pub(crate) fn respond(&mut self, to: Parked, response: Response) {
        if !self.quiet {
            self.emit(EventKind::ResponseSent {
                to: to.to,
                correlation_id: to.correlation_id,
                response: response.clone(),
            });
        }
        self.outbox.push_back(Outgoing {
            to: to.to,
            correlation_id: to.correlation_id,
            response,
        });
    }

    pub(crate) fn schedule(&mut self, key: TimerKey, after_ms: u64, kind: TimerKind) {
        let deadline = self.now + SimDuration::from_millis(after_ms);
        let replaced = self.timers.schedule(&key, deadline, kind);
        self.emit(EventKind::TimerSet {
            key,
            kind,
            deadline,
            replaced,
        });
    }

    pub(crate) fn cancel(&mut self, key: TimerKey) {
        if let Some(kind) = self.timers.cancel(&key) {
            self.emit(EventKind::TimerCancelled { key, kind });
        }
    }

    /// Appends a record to a led partition's log and returns its offset.
    ///
    /// This is the persistence seam. Without replication the append is complete when this returns.
    /// With [`Coordinator::set_await_replication`], it is complete only when the high watermark
    /// passes the offset: callers that depend on it hand a [`Waiter`] to
    /// [`Io::wait_or_return`]. An `Err` carries the append error (nothing was written), which
    /// callers map with [`ErrorCode::append_error_to_response_error`].
    pub(crate) fn append(&mut self, partition: i32, body: RecordBody) -> Result<u64, ErrorCode> {
        if let Some(e) = self.append_errors.get(&partition) {
            return Err(*e);
        }
        let Some(log) = self.logs.get_mut(&partition) else {
            return Err(ErrorCode::NotLeaderOrFollower);
        };
        let record = Record {
            offset: log.end(),
            appended_at: self.now,
            body,
        };
        let offset = record.offset;
        let record = Arc::new(record);
        log.records.push(Arc::clone(&record));
        if !self.quiet {
            // The log's line shares the record (no copy).
            self.emit(EventKind::RecordAppended { partition, record });
        }
        Ok(offset)
    }

    /// After an append: registers `w` to wait for the high watermark if the append succeeded and
    /// appends await replication (returns `None`), else hands `w` back to run now with the result.
    pub(crate) fn wait_or_return(
        &mut self,
        partition: i32,
        result: &Result<u64, ErrorCode>,
        w: Waiter,
    ) -> Option<Waiter> {
        match result {
            Ok(offset) if self.await_replication => {
                self.waiting.insert((partition, *offset), w);
                None
            }
            _ => Some(w),
        }
    }
}

/// One broker's classic group coordinator. See the [module docs](self) for the run loop.
///
/// `Clone` so that a simulation can be snapshotted (time travel in the UI).
#[derive(Clone)]
pub struct Coordinator {
    groups: Map<String, Group>,
    io: Io,
    active: bool,
    /// Leaders of `__consumer_offsets` partitions that this broker knows about (for FindCoordinator).
    partition_leaders: Map<i32, NodeId>,
    /// The metadata image consumer groups are assigned from: topic → partition count
    /// ([`Coordinator::set_topic_metadata`]). A topic's id is its name.
    topics: Map<String, i32>,
}

impl Coordinator {
    /// A coordinator that leads no partition yet; give it some with [`Coordinator::load`].
    pub fn new(config: CoordinatorConfig) -> Self {
        Self {
            groups: Map::new(),
            io: Io {
                config,
                now: SimTime::ZERO,
                timers: TimerTable::default(),
                outbox: VecDeque::new(),
                events: VecDeque::new(),
                logs: Map::new(),
                await_replication: false,
                append_errors: Map::new(),
                waiting: std::collections::BTreeMap::new(),
                scripted_used: 0,
                quiet: false,
            },
            active: true,
            partition_leaders: Map::new(),
            topics: Map::new(),
        }
    }

    /// The broker's metadata image for consumer groups (KIP-848): topic → partition count. The
    /// classic protocol never reads it. A change to a subscribed topic bumps the group epoch on the
    /// group's next heartbeat (reference §8.5).
    pub fn set_topic_metadata(&mut self, topics: Map<String, i32>) {
        if topics != self.topics {
            // Kafka's `onNewMetadataImage` expires the metadata of the groups subscribed to a
            // changed topic (`requestMetadataRefresh`); the next heartbeat re-hashes it. Expiring
            // every consumer group is the same: an unaffected group's hash does not change.
            for g in self.groups.values_mut() {
                if let Some(cg) = g.consumer.as_deref_mut() {
                    cg.metadata_expired = true;
                }
            }
        }
        self.topics = topics;
    }

    /// The metadata image ([`Coordinator::set_topic_metadata`]).
    pub fn topic_metadata(&self) -> &Map<String, i32> {
        &self.topics
    }

    /// The configuration.
    pub fn config(&self) -> &CoordinatorConfig {
        &self.io.config
    }

    /// This broker's id.
    pub fn node_id(&self) -> NodeId {
        self.io.config.node_id
    }

    /// The group's `__consumer_offsets` partition under this coordinator's configuration.
    pub fn partition_for(&self, group_id: &str) -> i32 {
        partition_for(group_id, self.io.config.offsets_topic_num_partitions)
    }

    fn advance(&mut self, now: SimTime) {
        assert!(now >= self.io.now, "time went backwards: {now} < {}", self.io.now);
        self.io.now = now;
    }

    // ------------------------------------------------------------------------------ inputs

    /// Handles one request from `from`. Its response, now or later, is addressed to
    /// `(from, correlation_id)` and comes out of [`Coordinator::poll_output`].
    ///
    /// # Panics
    ///
    /// If `now` is earlier than the time of a previous input.
    pub fn handle_request(
        &mut self,
        now: SimTime,
        from: ConnectionId,
        correlation_id: i32,
        request: Request,
    ) {
        self.advance(now);
        // The handlers borrow the request; it then moves into the log, ahead of what it caused: a
        // placeholder (which allocates nothing) holds its place, so no later event has to shift.
        let pos = self.io.events.len();
        let logged = !self.io.quiet;
        self.io.emit(EventKind::PartitionUnloaded { partition: 0 });
        let reply = Parked {
            to: from,
            correlation_id,
        };
        match &request {
            Request::FindCoordinator(r) => {
                let resp = self.find_coordinator(r);
                self.io.respond(reply, Response::FindCoordinator(resp));
            }
            Request::JoinGroup(r) => self.join_group(reply, r),
            Request::SyncGroup(r) => self.sync_group(reply, r),
            Request::Heartbeat(r) => self.heartbeat(reply, r),
            Request::LeaveGroup(r) => self.leave_group(reply, r),
            Request::OffsetCommit(r) => self.offset_commit(reply, r),
            Request::OffsetFetch(r) => self.offset_fetch(reply, r),
            Request::DescribeGroups(r) => {
                let resp = self.describe_groups_response(r);
                self.io.respond(reply, Response::DescribeGroups(resp));
            }
            Request::ListGroups(r) => {
                let resp = self.list_groups(r);
                self.io.respond(reply, Response::ListGroups(resp));
            }
            Request::DeleteGroups(r) => {
                let resp = self.delete_groups(r);
                self.io.respond(reply, Response::DeleteGroups(resp));
            }
            Request::ConsumerGroupHeartbeat(r) => self.consumer_group_heartbeat(reply, r),
            Request::ConsumerGroupDescribe(r) => {
                let resp = self.consumer_group_describe_response(r);
                self.io.respond(reply, Response::ConsumerGroupDescribe(resp));
            }
        }
        if logged {
            self.io.events[pos].kind = EventKind::RequestReceived {
                from,
                correlation_id,
                request,
            };
        }
    }

    /// Fires every timer due at or before `now`, in deadline order. Calling it early is harmless.
    ///
    /// # Panics
    ///
    /// If `now` is earlier than the time of a previous input.
    pub fn handle_timeout(&mut self, now: SimTime) {
        self.advance(now);
        while let Some(timer) = self.io.timers.pop_due(now) {
            self.io.emit(EventKind::TimerFired {
                key: timer.key.clone(),
                kind: timer.kind,
            });
            self.fire(timer);
        }
    }

    fn fire(&mut self, timer: Timer) {
        match timer.key {
            TimerKey::Heartbeat { group_id, member_id } => self.expire_heartbeat(&group_id, &member_id),
            TimerKey::Join { group_id } => match timer.kind {
                TimerKind::InitialRebalanceDelay {
                    delay_ms,
                    remaining_ms,
                } => self.with_group(&group_id, |g, io| {
                    join::initial_delay_tick(g, io, delay_ms, remaining_ms)
                }),
                _ => self.with_group(&group_id, join::complete_join),
            },
            TimerKey::Sync { group_id } => {
                if let TimerKind::PendingSync { generation_id } = timer.kind {
                    self.with_group(&group_id, |g, io| sync::expire_pending_sync(g, io, generation_id));
                }
            }
            TimerKey::OffsetExpiration { partition } => self.expire_offsets(partition),
            TimerKey::ConsumerSession { group_id, member_id } => {
                self.expire_consumer_session(&group_id, &member_id)
            }
            TimerKey::ConsumerClassicJoin { group_id, member_id } => self.fence_or_downgrade(
                &group_id,
                &[member_id],
                event::ConsumerFenceReason::ClassicJoinTimeout,
            ),
            TimerKey::ConsumerClassicSync { group_id, member_id } => self.fence_or_downgrade(
                &group_id,
                &[member_id],
                event::ConsumerFenceReason::ClassicSyncTimeout,
            ),
            TimerKey::ConsumerRebalance { group_id, member_id } => {
                if let TimerKind::ConsumerRebalanceTimeout { member_epoch } = timer.kind {
                    self.expire_consumer_rebalance(&group_id, &member_id, member_epoch);
                }
            }
        }
    }

    /// Runs `f` on a group, if it exists.
    fn with_group(&mut self, group_id: &str, f: impl FnOnce(&mut Group, &mut Io)) {
        if let Some(g) = self.groups.get_mut(group_id) {
            f(g, &mut self.io);
        }
    }

    /// Crate-private "quiet" switch: see [`Io::quiet`].
    pub(crate) fn set_quiet(&mut self, quiet: bool) {
        self.io.quiet = quiet;
    }

    /// Marks the coordinator active or not (a broker shutting down). While inactive every group
    /// request gets `COORDINATOR_NOT_AVAILABLE`.
    pub fn set_active(&mut self, active: bool) {
        self.active = active;
    }

    /// Records which broker leads a `__consumer_offsets` partition, for FindCoordinator answers
    /// (`None` forgets it). Partitions this coordinator leads are always answered with itself.
    pub fn set_partition_leader(&mut self, partition: i32, leader: Option<NodeId>) {
        match leader {
            Some(n) => self.partition_leaders.insert(partition, n),
            None => self.partition_leaders.remove(&partition),
        };
    }

    // ----------------------------------------------------------------------------- outputs

    /// The next response to deliver.
    pub fn poll_output(&mut self) -> Option<Outgoing> {
        self.io.outbox.pop_front()
    }

    /// The next event of the log.
    pub fn poll_event(&mut self) -> Option<Event> {
        self.io.events.pop_front()
    }

    /// Every pending event, oldest first.
    pub fn drain_events(&mut self) -> Vec<Event> {
        self.io.events.drain(..).collect()
    }

    /// When [`Coordinator::handle_timeout`] should be called next.
    pub fn poll_timeout(&self) -> Option<SimTime> {
        self.io.timers.next_deadline()
    }

    // ----------------------------------------------------------------------------- getters

    /// The time of the latest input.
    pub fn now(&self) -> SimTime {
        self.io.now
    }

    /// The partitions this coordinator leads, with their status.
    pub fn led_partitions(&self) -> Vec<(i32, PartitionStatus)> {
        self.io.logs.iter().map(|(p, l)| (*p, l.status)).collect()
    }

    /// A led partition's log from [`Coordinator::log_start`] on (each record shared; read it
    /// through `Deref`): the whole log, unless the partition was loaded with
    /// [`Coordinator::load_latest`], after which it holds the records appended since.
    pub fn log(&self, partition: i32) -> Option<&[Arc<Record>]> {
        self.io.logs.get(&partition).map(|l| l.records.as_slice())
    }

    /// Forgets the records of a led partition's log before `offset` (at most its end): a
    /// simulation that keeps the history in the partition's replicas, not twice, drops the
    /// coordinator's copy once the leader's replica holds it ([`crate::Simulation::set_log_compaction`]).
    /// The coordinator itself never reads its log back (its state is in memory, as Kafka's); its
    /// [`Coordinator::log`] then starts at `offset`, its end stays.
    pub fn discard_log_before(&mut self, partition: i32, offset: u64) {
        if let Some(log) = self.io.logs.get_mut(&partition) {
            let n = offset.saturating_sub(log.start).min(log.records.len() as u64);
            log.records.drain(..n as usize);
            log.start += n;
        }
    }

    /// The offset of the first record of [`Coordinator::log`] (0 unless the partition was loaded
    /// with [`Coordinator::load_latest`] or its start discarded).
    pub fn log_start(&self, partition: i32) -> Option<u64> {
        self.io.logs.get(&partition).map(|l| l.start)
    }

    /// A led partition's log end offset (the offset its next record gets).
    pub fn log_end_offset(&self, partition: i32) -> Option<u64> {
        self.io.logs.get(&partition).map(PartitionLog::end)
    }

    /// The ids of the groups in memory.
    pub fn group_ids(&self) -> Vec<String> {
        self.groups.keys().cloned().collect()
    }

    /// Every scheduled timer, by deadline.
    pub fn timers(&self) -> Vec<Timer> {
        self.io.timers.iter().collect()
    }

    /// The timer under `key`, if scheduled.
    pub fn timer(&self, key: &TimerKey) -> Option<(SimTime, TimerKind)> {
        self.io.timers.get(key)
    }

    /// A group's committed offsets.
    pub fn committed_offsets(&self, group_id: &str) -> Map<TopicPartition, CommittedOffset> {
        self.groups
            .get(group_id)
            .map(|g| g.offsets.clone())
            .unwrap_or_default()
    }
}

/// Checks shared by the group APIs (Kafka: `GroupCoordinatorService`): coordinator active, then the
/// partition led and loaded.
impl Coordinator {
    pub(crate) fn partition_error(&self, group_id: &str) -> Option<ErrorCode> {
        if !self.active {
            return Some(ErrorCode::CoordinatorNotAvailable);
        }
        match self.io.logs.get(&self.partition_for(group_id)) {
            None => Some(ErrorCode::NotCoordinator),
            Some(l) if l.status == PartitionStatus::Loading => Some(ErrorCode::CoordinatorLoadInProgress),
            Some(_) => None,
        }
    }
}
