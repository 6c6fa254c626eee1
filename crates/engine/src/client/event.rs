//! What a consumer reports: its side of the event log.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::assignor::{RebalanceProtocol, Strategy};
use crate::event::Partitions;
use crate::protocol::{Api, ErrorCode, NodeId, TopicPartition, ALL_ERROR_CODES};
use crate::time::SimTime;
use crate::topic::Subscription;

use super::consumer::ConsumerProtocolEvent;

/// The client's view of its membership (Kafka: `AbstractCoordinator.MemberState`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum MemberState {
    /// Not in the group (`UNJOINED`): a JoinGroup must be sent.
    Unjoined,
    /// JoinGroup sent, waiting for the response (`PREPARING_REBALANCE`).
    PreparingRebalance,
    /// JoinGroup answered, SyncGroup sent (`COMPLETING_REBALANCE`).
    CompletingRebalance,
    /// In the group with an assignment (`STABLE`).
    Stable,
}

impl MemberState {
    /// Kafka's name, e.g. `PREPARING_REBALANCE`.
    pub const fn kafka_name(self) -> &'static str {
        match self {
            Self::Unjoined => "UNJOINED",
            Self::PreparingRebalance => "PREPARING_REBALANCE",
            Self::CompletingRebalance => "COMPLETING_REBALANCE",
            Self::Stable => "STABLE",
        }
    }
}

impl fmt::Display for MemberState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kafka_name())
    }
}

/// The client state a user sees: Kafka's [`MemberState`], plus **revoking** while the application
/// thread is busy giving partitions up.
///
/// Revoking is not one of Kafka's member states: it overlays them. It lasts from the moment
/// partitions are marked for revocation until they are dropped:
///
/// * eager, with auto-commit: `onJoinPrepare` first marks every owned partition *pending
///   revocation* and waits for its auto-commit (Kafka's `maybeMarkPartitionsPendingRevocation`;
///   the JoinGroup is not sent before the commit completes);
/// * then `onPartitionsRevoked` runs (eager: everything, before the JoinGroup; cooperative: what the
///   new assignment moved away, after SyncGroup). A listener that commits in it (`commitSync`)
///   blocks the application thread until the OffsetCommit response arrives.
///
/// Without a commit to wait for, the revocation starts and ends in the same instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClientState {
    /// Not in the group ([`MemberState::Unjoined`]).
    Unjoined,
    /// JoinGroup sent ([`MemberState::PreparingRebalance`]).
    Joining,
    /// JoinGroup answered, SyncGroup sent ([`MemberState::CompletingRebalance`]).
    AwaitingSync,
    /// In the group with an assignment ([`MemberState::Stable`]).
    Stable,
    /// Giving partitions up: pending revocation, or inside `onPartitionsRevoked`.
    Revoking,
}

impl ClientState {
    /// The client state for a member state when nothing is being revoked.
    pub const fn of(state: MemberState) -> Self {
        match state {
            MemberState::Unjoined => Self::Unjoined,
            MemberState::PreparingRebalance => Self::Joining,
            MemberState::CompletingRebalance => Self::AwaitingSync,
            MemberState::Stable => Self::Stable,
        }
    }
}

impl fmt::Display for ClientState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Unjoined => "unjoined",
            Self::Joining => "joining",
            Self::AwaitingSync => "awaiting sync",
            Self::Stable => "stable",
            Self::Revoking => "revoking",
        })
    }
}

/// Whether the consumer is still running.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Lifecycle {
    /// Running (possibly paused).
    Running,
    /// Closed gracefully.
    Closed,
    /// Killed: stopped at once, nothing sent.
    Killed,
    /// Stopped by a fatal error.
    Failed {
        /// Why, in English (names the Kafka error).
        reason: String,
    },
}

impl Lifecycle {
    /// Whether the consumer still runs.
    pub fn is_running(&self) -> bool {
        matches!(self, Self::Running)
    }
}

/// Why offsets are committed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CommitReason {
    /// Auto-commit's interval passed (inside `poll()`).
    AutoCommit,
    /// Auto-commit before an eager rebalance revokes partitions (`onJoinPrepare`).
    AutoCommitBeforeRebalance,
    /// The application's commit after a batch.
    AfterBatch,
    /// The rebalance listener's commit in `onPartitionsRevoked`.
    InRevoke,
    /// The commit on close.
    OnClose,
}

impl fmt::Display for CommitReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::AutoCommit => "auto-commit",
            Self::AutoCommitBeforeRebalance => "auto-commit before the rebalance",
            Self::AfterBatch => "commit after batch",
            Self::InRevoke => "commit in onPartitionsRevoked",
            Self::OnClose => "commit on close",
        })
    }
}

/// Where a partition's starting position came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PositionSource {
    /// The group's committed offset (OffsetFetch).
    Committed,
    /// No committed offset: the earliest offset (`auto.offset.reset=earliest`).
    Earliest,
}

/// A range of records `[from, to)` of one partition.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct RecordRange {
    /// The partition.
    pub partition: TopicPartition,
    /// The first offset.
    pub from: i64,
    /// One past the last offset.
    pub to: i64,
}

impl RecordRange {
    /// The number of records.
    pub fn len(&self) -> u64 {
        (self.to - self.from).max(0) as u64
    }

    /// Whether it has no records.
    pub fn is_empty(&self) -> bool {
        self.to <= self.from
    }
}

impl fmt::Display for RecordRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.to - self.from == 1 {
            write!(f, "{} @{}", self.partition, self.from)
        } else {
            write!(f, "{} @{}..{}", self.partition, self.from, self.to - 1)
        }
    }
}

/// Why a request failed without a response.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RequestFailure {
    /// No response within `request.timeout.ms`.
    TimedOut,
    /// The connection to the broker dropped.
    Disconnected,
    /// The coordinator was marked unknown while the request was in flight (Kafka fails the
    /// coordinator's requests as disconnected).
    CoordinatorLost,
}

impl RequestFailure {
    /// Every failure.
    pub const ALL: [Self; 3] = [Self::TimedOut, Self::Disconnected, Self::CoordinatorLost];
}

impl fmt::Display for RequestFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::TimedOut => "request timed out",
            Self::Disconnected => "disconnected",
            Self::CoordinatorLost => "disconnected from the coordinator",
        })
    }
}

/// Why a commit was not sent ([`ClientEvent::CommitSkipped`]), or was lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CommitSkip {
    /// Kafka commits only in a stable generation (`generationIfStable`): a rebalance is in progress
    /// or the generation was reset.
    NotStable,
    /// No coordinator to send it to.
    CoordinatorUnknown,
    /// It was sent, but failed without a response: the offsets are not committed.
    Lost {
        /// How the request failed.
        cause: RequestFailure,
    },
}

impl CommitSkip {
    /// Every reason.
    pub fn all() -> impl Iterator<Item = Self> {
        [Self::NotStable, Self::CoordinatorUnknown]
            .into_iter()
            .chain(RequestFailure::ALL.map(|cause| Self::Lost { cause }))
    }
}

impl fmt::Display for CommitSkip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotStable => {
                f.write_str("the consumer is not in a stable generation (a rebalance is in progress)")
            }
            Self::CoordinatorUnknown => f.write_str("the coordinator is unknown"),
            Self::Lost { cause } => write!(f, "{cause}; the commit is lost"),
        }
    }
}

/// What the client does about an error in a response ([`ClientEvent::ErrorReceived`], reference
/// §8.1). The variants name Kafka's reactions; several APIs share some of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reaction {
    /// Reset the generation and the member id, then rejoin (`UNKNOWN_MEMBER_ID`).
    ResetAndRejoin,
    /// Reset the generation, keep the member id, then rejoin (`ILLEGAL_GENERATION`).
    ResetKeepMemberIdAndRejoin,
    /// JoinGroup: send the JoinGroup again.
    RetryJoin,
    /// SyncGroup: rejoin, keeping the generation (`REBALANCE_IN_PROGRESS`).
    RejoinKeepGeneration,
    /// Heartbeat: the group is rebalancing; rejoin at the next `poll()`.
    RequestRejoin,
    /// Mark the coordinator unknown, rediscover it, and retry the request.
    RediscoverAndRetry,
    /// SyncGroup: mark the coordinator unknown, rediscover it, and rejoin.
    RediscoverAndRejoin,
    /// Heartbeat: mark the coordinator unknown and rediscover it.
    Rediscover,
    /// Wait `retry.backoff.ms`, then retry.
    BackOffAndRetry,
    /// Heartbeat: send the next heartbeat after `retry.backoff.ms`.
    RetryHeartbeatAfterBackoff,
    /// JoinGroup / SyncGroup `FENCED_INSTANCE_ID`: the consumer stops.
    FatalFenced,
    /// JoinGroup / SyncGroup: an error the client does not handle is thrown to the application.
    FatalThrown,
    /// Heartbeat: the heartbeat thread fails, and with it the consumer.
    FatalHeartbeatThread,
    /// OffsetCommit during a rebalance with a newer generation (`RebalanceInProgressException`).
    CommitFailedRebalanceGoesOn,
    /// OffsetCommit `UNKNOWN_MEMBER_ID` in a stable generation (`CommitFailedException`).
    CommitFailedResetAndRejoin,
    /// OffsetCommit `ILLEGAL_GENERATION` in a stable generation (`CommitFailedException`).
    CommitFailedResetKeepMemberIdAndRejoin,
    /// OffsetCommit `REBALANCE_IN_PROGRESS`: request a rejoin, keep the generation.
    CommitFailedRequestRejoin,
    /// OffsetCommit `FENCED_INSTANCE_ID` for the current generation: the consumer stops.
    CommitFatal,
    /// OffsetCommit `FENCED_INSTANCE_ID` for a generation already left: only the commit failed.
    CommitFailedGenerationChanged,
    /// OffsetCommit to a broker that is not (or no longer) the coordinator: retriable.
    CommitRediscover,
    /// OffsetCommit: any other error; the commit failed.
    CommitFailed,
    /// ConsumerGroupHeartbeat `UNKNOWN_MEMBER_ID` / `FENCED_MEMBER_EPOCH`: FENCED,
    /// `onPartitionsLost`, then rejoin with epoch 0.
    TransitionToFenced,
    /// ConsumerGroupHeartbeat: an error the consumer protocol's client treats as fatal (FATAL: no
    /// more heartbeats; the error is thrown to the application).
    FatalMemberState,
}

impl Reaction {
    /// Every reaction.
    pub const ALL: [Self; 23] = [
        Self::ResetAndRejoin,
        Self::ResetKeepMemberIdAndRejoin,
        Self::RetryJoin,
        Self::RejoinKeepGeneration,
        Self::RequestRejoin,
        Self::RediscoverAndRetry,
        Self::RediscoverAndRejoin,
        Self::Rediscover,
        Self::BackOffAndRetry,
        Self::RetryHeartbeatAfterBackoff,
        Self::FatalFenced,
        Self::FatalThrown,
        Self::FatalHeartbeatThread,
        Self::CommitFailedRebalanceGoesOn,
        Self::CommitFailedResetAndRejoin,
        Self::CommitFailedResetKeepMemberIdAndRejoin,
        Self::CommitFailedRequestRejoin,
        Self::CommitFatal,
        Self::CommitFailedGenerationChanged,
        Self::CommitRediscover,
        Self::CommitFailed,
        Self::TransitionToFenced,
        Self::FatalMemberState,
    ];

    /// The reaction in English, as the trace prints it.
    pub const fn text(self) -> &'static str {
        match self {
            Self::ResetAndRejoin => "reset generation and member id, rejoin",
            Self::ResetKeepMemberIdAndRejoin => "reset generation, keep member id, rejoin",
            Self::RetryJoin => "retry the JoinGroup",
            Self::RejoinKeepGeneration => "rejoin, keep the generation",
            Self::RequestRejoin => "request a rejoin",
            Self::RediscoverAndRetry => "mark the coordinator unknown, rediscover, retry",
            Self::RediscoverAndRejoin => "mark the coordinator unknown, rediscover, rejoin",
            Self::Rediscover => "mark the coordinator unknown, rediscover",
            Self::BackOffAndRetry => "back off and retry",
            Self::RetryHeartbeatAfterBackoff => "retry after backoff",
            Self::FatalFenced => "fatal: another instance took this group.instance.id",
            Self::FatalThrown => "fatal: thrown to the application",
            Self::FatalHeartbeatThread => "fatal: the heartbeat thread fails",
            Self::CommitFailedRebalanceGoesOn => {
                "RebalanceInProgressException: the commit failed; the rebalance goes on"
            }
            Self::CommitFailedResetAndRejoin => {
                "CommitFailedException; reset generation and member id, rejoin"
            }
            Self::CommitFailedResetKeepMemberIdAndRejoin => {
                "CommitFailedException; reset generation, keep member id, rejoin"
            }
            Self::CommitFailedRequestRejoin => {
                "RebalanceInProgressException; request a rejoin, keep the generation"
            }
            Self::CommitFatal => "fatal",
            Self::CommitFailedGenerationChanged => "the generation changed: the commit failed",
            Self::CommitRediscover => "mark the coordinator unknown; retriable after rediscovery",
            Self::CommitFailed => "the commit failed",
            Self::TransitionToFenced => "fenced: onPartitionsLost, then rejoin with epoch 0",
            Self::FatalMemberState => "fatal: the member stops heartbeating (FATAL)",
        }
    }
}

impl fmt::Display for Reaction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

/// Why the client reset its generation ([`ClientEvent::GenerationReset`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResetReason {
    /// A response carried this error (Kafka: `resetGenerationOnResponseError`).
    Error {
        /// The API.
        api: Api,
        /// The error.
        error: ErrorCode,
    },
    /// It left the group because it is being closed (`resetGenerationOnLeaveGroup`).
    Closed,
    /// It left the group after `max.poll.interval.ms` passed without a `poll()`.
    PollTimeout,
}

impl ResetReason {
    /// Every reason.
    pub fn all() -> impl Iterator<Item = Self> {
        [Self::Closed, Self::PollTimeout].into_iter().chain(
            Api::ALL
                .into_iter()
                .flat_map(|api| ALL_ERROR_CODES.map(|error| Self::Error { api, error })),
        )
    }
}

impl fmt::Display for ResetReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Error { api, error } => write!(f, "{api}: {error}"),
            Self::Closed => f.write_str("left the group: the consumer is being closed"),
            Self::PollTimeout => f.write_str("left the group after the poll timeout"),
        }
    }
}

/// Why a response was ignored ([`ClientEvent::ResponseIgnored`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IgnoreReason {
    /// A JoinGroup response when the consumer is no longer joining.
    NoLongerJoining,
    /// A SyncGroup response for a generation the consumer has left.
    GenerationLeft,
    /// A Heartbeat error about a generation the consumer has already left.
    StaleError {
        /// The error.
        error: ErrorCode,
    },
    /// The request had already timed out or failed.
    GivenUp,
    /// A consumer-protocol (KIP-848) response, which the classic consumer never asks for.
    NotClassicProtocol,
    /// A ConsumerGroupHeartbeat answer for a member that is no longer in the group (the echo of
    /// its leave, or the answer to a heartbeat sent before it left).
    NotInGroup,
}

impl IgnoreReason {
    /// Every reason.
    pub fn all() -> impl Iterator<Item = Self> {
        [
            Self::NoLongerJoining,
            Self::GenerationLeft,
            Self::GivenUp,
            Self::NotClassicProtocol,
            Self::NotInGroup,
        ]
        .into_iter()
        .chain(ALL_ERROR_CODES.map(|error| Self::StaleError { error }))
    }
}

impl fmt::Display for IgnoreReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoLongerJoining => f.write_str("no longer joining"),
            Self::GenerationLeft => f.write_str("for a generation the consumer has left"),
            Self::StaleError { error } => write!(f, "{error} concerns a generation already left"),
            Self::GivenUp => f.write_str("the request was already given up on"),
            Self::NotClassicProtocol => {
                f.write_str("a consumer-protocol response the classic consumer never asked for")
            }
            Self::NotInGroup => f.write_str("the member is not in the group any more"),
        }
    }
}

/// The four reasons above serialise as their English sentence, as the trace's JSON did when they
/// were strings, and read back from it.
macro_rules! serde_as_text {
    ($($t:ty => $all:expr),* $(,)?) => {$(
        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }

        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let text = String::deserialize(d)?;
                $all.into_iter()
                    .find(|r: &$t| r.to_string() == text)
                    .ok_or_else(|| serde::de::Error::custom(format!("unknown reason `{text}`")))
            }
        }
    )*};
}

serde_as_text! {
    CommitSkip => CommitSkip::all(),
    Reaction => Reaction::ALL,
    ResetReason => ResetReason::all(),
    IgnoreReason => IgnoreReason::all(),
}

/// Something a consumer did or noticed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClientEvent {
    /// The consumer started and subscribed.
    Started {
        /// The subscription.
        subscription: Subscription,
        /// Its assignors, in preference order.
        assignors: Vec<Strategy>,
        /// The protocol derived from them.
        protocol: RebalanceProtocol,
        /// Its `group.instance.id`, if static.
        group_instance_id: Option<String>,
    },
    /// FindCoordinator answered.
    CoordinatorDiscovered {
        /// The coordinator.
        node: NodeId,
    },
    /// The coordinator was marked unknown; it will be rediscovered.
    CoordinatorLost {
        /// Why.
        reason: String,
    },
    /// The client's member state changed.
    MemberStateChanged {
        /// Before.
        from: MemberState,
        /// After.
        to: MemberState,
    },
    /// The consumer must rejoin at its next `poll()`.
    RejoinRequested {
        /// Why.
        reason: String,
    },
    /// The coordinator handed out a member id (`MEMBER_ID_REQUIRED`); the consumer rejoins with it.
    MemberIdAssigned {
        /// The id.
        member_id: String,
    },
    /// JoinGroup succeeded.
    JoinedGroup {
        /// The generation.
        generation_id: i32,
        /// This member's id.
        member_id: String,
        /// The leader's id.
        leader: String,
        /// The selected protocol.
        protocol: String,
        /// Whether this member leads.
        is_leader: bool,
    },
    /// As leader, the consumer ran the assignor.
    AssignmentComputed {
        /// The assignor.
        strategy: Strategy,
        /// The generation.
        generation_id: i32,
        /// Member → partitions.
        assignment: Vec<(String, Vec<TopicPartition>)>,
    },
    /// SyncGroup succeeded.
    AssignmentReceived {
        /// The generation.
        generation_id: i32,
        /// The assigned partitions.
        partitions: Vec<TopicPartition>,
    },
    /// `onPartitionsRevoked`.
    PartitionsRevoked {
        /// The partitions.
        partitions: Vec<TopicPartition>,
    },
    /// `onPartitionsAssigned` (called even with an empty set).
    PartitionsAssigned {
        /// The partitions.
        partitions: Vec<TopicPartition>,
    },
    /// `onPartitionsLost`: the member was no longer in the group; nothing may be committed.
    PartitionsLost {
        /// The partitions.
        partitions: Vec<TopicPartition>,
    },
    /// The client reset its generation (and possibly its member id).
    GenerationReset {
        /// Whether the member id was kept.
        member_id_kept: bool,
        /// Why.
        reason: ResetReason,
    },
    /// A response carried an error; what the client does about it (reference §8.1).
    ErrorReceived {
        /// The API.
        api: Api,
        /// The error.
        error: ErrorCode,
        /// The reaction.
        reaction: Reaction,
    },
    /// The consumer stopped with a fatal error.
    Fatal {
        /// Why.
        reason: String,
    },
    /// `max.poll.interval.ms` passed without a `poll()`: the consumer leaves the group on its own.
    PollTimeout {
        /// `max.poll.interval.ms`.
        max_poll_interval_ms: u64,
        /// Whether a LeaveGroup is sent (dynamic members only).
        sends_leave_group: bool,
    },
    /// `poll()` returned records.
    BatchFetched {
        /// The records.
        records: Vec<RecordRange>,
        /// When processing ends.
        until: SimTime,
    },
    /// The application finished processing a batch.
    BatchProcessed {
        /// The records.
        records: Vec<RecordRange>,
        /// How many of them had already been processed (by anyone) before.
        duplicates: u64,
    },
    /// A batch in progress was abandoned (the consumer was closed or killed).
    BatchAbandoned {
        /// The records that were not processed.
        records: Vec<RecordRange>,
    },
    /// OffsetCommit sent.
    CommitSent {
        /// Why.
        reason: CommitReason,
        /// The offsets (next record to consume).
        offsets: Vec<(TopicPartition, i64)>,
    },
    /// OffsetCommit answered.
    CommitCompleted {
        /// Why it was sent.
        reason: CommitReason,
        /// The offsets.
        offsets: Vec<(TopicPartition, i64)>,
        /// `NONE` or the error.
        error: ErrorCode,
    },
    /// A commit was not sent.
    CommitSkipped {
        /// Why it would have been sent.
        reason: CommitReason,
        /// Why it was not.
        why: CommitSkip,
    },
    /// Starting positions of newly assigned partitions.
    PositionsInitialized {
        /// Partition, offset, and where it came from.
        positions: Vec<(TopicPartition, i64, PositionSource)>,
    },
    /// A metadata refresh saw different topics or partition counts.
    MetadataChanged {
        /// Topic → partitions now.
        topics: Vec<(String, i32)>,
    },
    /// The set of subscribed topics changed (a pattern matched new topics, or `subscribe()`).
    SubscriptionChanged {
        /// The subscription.
        subscription: Subscription,
        /// The topics it resolves to now.
        topics: Vec<String>,
    },
    /// The consumer was paused.
    Paused {
        /// Until when, if known.
        until: Option<SimTime>,
        /// Whether heartbeats stop.
        heartbeats: bool,
        /// Whether polls stop.
        polls: bool,
    },
    /// The consumer resumed.
    Resumed,
    /// The consumer was closed.
    Closed,
    /// The consumer was killed.
    Killed,
    /// A response was ignored (stale, or for a request already given up on).
    ResponseIgnored {
        /// The API.
        api: Api,
        /// The correlation id.
        correlation_id: i32,
        /// Why.
        why: IgnoreReason,
    },
    /// A request got no response within its timeout.
    RequestTimedOut {
        /// The API.
        api: Api,
        /// The correlation id.
        correlation_id: i32,
    },
    /// Something only a consumer-protocol (KIP-848) member does: member state changes,
    /// reconciliation steps, the poll timer.
    ConsumerProtocol(ConsumerProtocolEvent),
}

impl ClientEvent {
    /// Whether the event is routine detail that a readable trace leaves out (empty polls,
    /// ignored responses).
    pub fn is_detail(&self) -> bool {
        match self {
            Self::BatchFetched { records, .. } | Self::BatchProcessed { records, .. } => records.is_empty(),
            Self::ResponseIgnored { .. } => true,
            _ => false,
        }
    }
}

struct Ranges<'a>(&'a [RecordRange]);

impl fmt::Display for Ranges<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("no records");
        }
        let n: u64 = self.0.iter().map(RecordRange::len).sum();
        write!(f, "{n} record{} (", if n == 1 { "" } else { "s" })?;
        for (i, r) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{r}")?;
        }
        f.write_str(")")
    }
}

struct Offsets<'a>(&'a [(TopicPartition, i64)]);

impl fmt::Display for Offsets<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (i, (tp, o)) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{tp}={o}")?;
        }
        f.write_str("]")
    }
}

impl fmt::Display for ClientEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Started {
                subscription,
                assignors,
                protocol,
                group_instance_id,
            } => {
                let names: Vec<&str> = assignors.iter().map(|a| a.name()).collect();
                write!(
                    f,
                    "starts: subscribes to {subscription}, assignors [{}] ({} protocol)",
                    names.join(", "),
                    match protocol {
                        RebalanceProtocol::Eager => "eager",
                        RebalanceProtocol::Cooperative => "cooperative",
                    }
                )?;
                if let Some(i) = group_instance_id {
                    write!(f, ", static member {i}")?;
                }
                Ok(())
            }
            Self::CoordinatorDiscovered { node } => write!(f, "found the group coordinator: {node}"),
            Self::CoordinatorLost { reason } => {
                write!(f, "coordinator marked unknown ({reason}); will rediscover")
            }
            Self::MemberStateChanged { from, to } => write!(f, "member state {from} -> {to}"),
            Self::RejoinRequested { reason } => write!(f, "will rejoin at the next poll() ({reason})"),
            Self::MemberIdAssigned { member_id } => {
                write!(
                    f,
                    "got member id {member_id} (MEMBER_ID_REQUIRED); rejoins with it"
                )
            }
            Self::JoinedGroup {
                generation_id,
                member_id,
                leader,
                protocol,
                is_leader,
            } => {
                write!(
                    f,
                    "joined generation {generation_id} as {member_id} (protocol {protocol}, "
                )?;
                if *is_leader {
                    f.write_str("leader: must compute the assignment)")
                } else {
                    write!(f, "follower; leader is {leader})")
                }
            }
            Self::AssignmentComputed {
                strategy,
                generation_id,
                assignment,
            } => {
                write!(f, "as leader ran {strategy} for generation {generation_id}: ")?;
                for (i, (m, ps)) in assignment.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(f, "{m} -> {}", Partitions(ps))?;
                }
                Ok(())
            }
            Self::AssignmentReceived {
                generation_id,
                partitions,
            } => {
                write!(
                    f,
                    "SyncGroup done: generation {generation_id} assignment {}",
                    Partitions(partitions)
                )
            }
            Self::PartitionsRevoked { partitions } => {
                write!(f, "onPartitionsRevoked({})", Partitions(partitions))
            }
            Self::PartitionsAssigned { partitions } => {
                write!(f, "onPartitionsAssigned({})", Partitions(partitions))
            }
            Self::PartitionsLost { partitions } => {
                write!(
                    f,
                    "onPartitionsLost({}): no longer in the group, nothing committed",
                    Partitions(partitions)
                )
            }
            Self::GenerationReset {
                member_id_kept,
                reason,
            } => write!(
                f,
                "resets its generation{} ({reason})",
                if *member_id_kept {
                    ", keeps its member id"
                } else {
                    " and member id"
                }
            ),
            Self::ErrorReceived { api, error, reaction } => {
                write!(f, "{api} failed with {error}: {reaction}")
            }
            Self::Fatal { reason } => write!(f, "STOPPED: {reason}"),
            Self::PollTimeout {
                max_poll_interval_ms,
                sends_leave_group,
            } => write!(
                f,
                "no poll() for max.poll.interval.ms={max_poll_interval_ms}: leaves the group{}",
                if *sends_leave_group {
                    " (sends LeaveGroup)"
                } else {
                    " (static: sends nothing, resets locally)"
                }
            ),
            Self::BatchFetched { records, until } => {
                write!(f, "poll() returned {}; processing until {until}", Ranges(records))
            }
            Self::BatchProcessed { records, duplicates } => {
                write!(f, "processed {}", Ranges(records))?;
                if *duplicates > 0 {
                    write!(
                        f,
                        " -- {duplicates} DUPLICATE{}",
                        if *duplicates == 1 { "" } else { "S" }
                    )?;
                }
                Ok(())
            }
            Self::BatchAbandoned { records } => {
                write!(f, "abandoned its batch: {} not processed", Ranges(records))
            }
            Self::CommitSent { reason, offsets } => write!(f, "{reason}: OffsetCommit {}", Offsets(offsets)),
            Self::CommitCompleted {
                reason,
                offsets,
                error,
            } => {
                if error.is_none() {
                    write!(f, "{reason} succeeded: {}", Offsets(offsets))
                } else {
                    write!(f, "{reason} failed with {error}: {}", Offsets(offsets))
                }
            }
            Self::CommitSkipped { reason, why } => write!(f, "{reason} not sent: {why}"),
            Self::PositionsInitialized { positions } => {
                f.write_str("starting positions: ")?;
                for (i, (tp, o, src)) in positions.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(
                        f,
                        "{tp}={o} ({})",
                        match src {
                            PositionSource::Committed => "committed",
                            PositionSource::Earliest => "no commit: earliest",
                        }
                    )?;
                }
                Ok(())
            }
            Self::MetadataChanged { topics } => {
                f.write_str("metadata refresh: topics now [")?;
                for (i, (t, n)) in topics.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{t}:{n}")?;
                }
                f.write_str("]")
            }
            Self::SubscriptionChanged { subscription, topics } => {
                write!(
                    f,
                    "subscription {subscription} now covers [{}]",
                    topics.join(", ")
                )
            }
            Self::Paused {
                until,
                heartbeats,
                polls,
            } => {
                let what = match (heartbeats, polls) {
                    (true, true) => "everything (a GC pause)",
                    (true, false) => "heartbeats",
                    (false, true) => "polls (a slow batch)",
                    (false, false) => "nothing",
                };
                write!(f, "paused: {what}")?;
                if let Some(u) = until {
                    write!(f, " until {u}")?;
                }
                Ok(())
            }
            Self::Resumed => f.write_str("resumed"),
            Self::Closed => f.write_str("closed"),
            Self::Killed => f.write_str("KILLED: stops at once, sends nothing"),
            Self::ResponseIgnored {
                api,
                correlation_id,
                why,
            } => {
                write!(f, "ignored {api} response #{correlation_id} ({why})")
            }
            Self::RequestTimedOut { api, correlation_id } => {
                write!(f, "{api} #{correlation_id} timed out without a response")
            }
            Self::ConsumerProtocol(e) => e.fmt(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sentences the trace printed when these reasons were strings: the golden traces (text
    /// and JSON) depend on them, and each must read back to its reason.
    #[test]
    fn reasons_print_and_serialise_as_the_traces_english() {
        let cases: Vec<(String, String)> = vec![
            (
                CommitSkip::NotStable.to_string(),
                "the consumer is not in a stable generation (a rebalance is in progress)".into(),
            ),
            (
                CommitSkip::CoordinatorUnknown.to_string(),
                "the coordinator is unknown".into(),
            ),
            (
                CommitSkip::Lost {
                    cause: RequestFailure::TimedOut,
                }
                .to_string(),
                "request timed out; the commit is lost".into(),
            ),
            (
                CommitSkip::Lost {
                    cause: RequestFailure::Disconnected,
                }
                .to_string(),
                "disconnected; the commit is lost".into(),
            ),
            (
                CommitSkip::Lost {
                    cause: RequestFailure::CoordinatorLost,
                }
                .to_string(),
                "disconnected from the coordinator; the commit is lost".into(),
            ),
            (
                ResetReason::Error {
                    api: Api::OffsetCommit,
                    error: ErrorCode::IllegalGeneration,
                }
                .to_string(),
                "OffsetCommit: ILLEGAL_GENERATION".into(),
            ),
            (
                ResetReason::Closed.to_string(),
                "left the group: the consumer is being closed".into(),
            ),
            (
                ResetReason::PollTimeout.to_string(),
                "left the group after the poll timeout".into(),
            ),
            (
                IgnoreReason::StaleError {
                    error: ErrorCode::UnknownMemberId,
                }
                .to_string(),
                "UNKNOWN_MEMBER_ID concerns a generation already left".into(),
            ),
            (
                IgnoreReason::NoLongerJoining.to_string(),
                "no longer joining".into(),
            ),
            (
                IgnoreReason::GenerationLeft.to_string(),
                "for a generation the consumer has left".into(),
            ),
            (
                IgnoreReason::GivenUp.to_string(),
                "the request was already given up on".into(),
            ),
            (
                Reaction::RetryHeartbeatAfterBackoff.to_string(),
                "retry after backoff".into(),
            ),
            (Reaction::CommitFatal.to_string(), "fatal".into()),
        ];
        for (got, want) in cases {
            assert_eq!(got, want);
        }
        let event = ClientEvent::CommitSkipped {
            reason: CommitReason::AutoCommit,
            why: CommitSkip::CoordinatorUnknown,
        };
        let json = serde_json::to_string(&event).unwrap();
        assert_eq!(
            json,
            r#"{"commit_skipped":{"reason":"auto_commit","why":"the coordinator is unknown"}}"#
        );
        assert_eq!(serde_json::from_str::<ClientEvent>(&json).unwrap(), event);
    }

    #[test]
    fn every_reason_reads_back_from_its_sentence() {
        fn round_trip<T: Serialize + for<'de> Deserialize<'de> + PartialEq + fmt::Debug + fmt::Display>(
            all: impl IntoIterator<Item = T>,
        ) -> usize {
            let mut n = 0;
            for r in all {
                let json = serde_json::to_string(&r).unwrap();
                assert_eq!(json, format!("\"{r}\""));
                assert_eq!(serde_json::from_str::<T>(&json).unwrap(), r, "{json}");
                n += 1;
            }
            n
        }
        assert_eq!(round_trip(CommitSkip::all()), 5);
        assert_eq!(round_trip(Reaction::ALL), 23);
        assert_eq!(
            round_trip(ResetReason::all()),
            2 + crate::protocol::Api::ALL.len() * ALL_ERROR_CODES.len()
        );
        assert_eq!(round_trip(IgnoreReason::all()), 5 + ALL_ERROR_CODES.len());
        // The 23 reactions are 23 different sentences.
        let texts: crate::collections::Set<&str> = Reaction::ALL.iter().map(|r| r.text()).collect();
        assert_eq!(texts.len(), Reaction::ALL.len());
        assert!(serde_json::from_str::<Reaction>("\"shrug\"").is_err());
    }
}
