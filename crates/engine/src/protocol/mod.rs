//! The classic group protocol's requests, responses and error codes, as plain data.
//!
//! These mirror Kafka's wire messages field by field (`JoinGroupRequestData`, `SyncGroupResponseData`,
//! ...), with two simplifications that a teaching simulator can afford:
//!
//! * the consumer protocol's opaque metadata and assignment bytes are structured values
//!   ([`ConsumerSubscription`], [`ConsumerAssignment`]) instead of bytes;
//! * the client id and host, which Kafka takes from the request header and the connection, are fields
//!   of [`JoinGroupRequest`].
//!
//! Kafka's error codes are data ([`ErrorCode`]) inside responses, never Rust errors.
//!
//! The new consumer protocol's messages (KIP-848: `ConsumerGroupHeartbeat`, `ConsumerGroupDescribe`)
//! are in [`consumer`], re-exported here.

use std::fmt;

use serde::{Deserialize, Serialize};

pub mod consumer;

pub use consumer::*;

/// An opaque id for whoever sent a request (a connection, a simulated client...). Responses are
/// addressed to it, together with the caller's correlation id.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ConnectionId(pub u64);

impl fmt::Display for ConnectionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "conn#{}", self.0)
    }
}

/// A broker id (`node.id` / `broker.id`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct NodeId(pub i32);

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "broker {}", self.0)
    }
}

/// The generation id a request carries when the sender has none (`UNKNOWN_GENERATION_ID`).
pub const NO_GENERATION: i32 = -1;

/// The member id a new member sends (`UNKNOWN_MEMBER_ID`, the empty string).
pub const UNKNOWN_MEMBER_ID: &str = "";

/// The protocol type of Kafka's consumers, the only one whose metadata the coordinator parses.
pub const CONSUMER_PROTOCOL_TYPE: &str = "consumer";

/// The newest JoinGroup version modelled. v4 introduced `MEMBER_ID_REQUIRED` (KIP-394), v9
/// `skipAssignment` for static leaders (KIP-814).
pub const JOIN_GROUP_LATEST_VERSION: i16 = 9;

/// The newest OffsetCommit version modelled. From v9 an unknown group answers `GROUP_ID_NOT_FOUND`.
pub const OFFSET_COMMIT_LATEST_VERSION: i16 = 9;

// ------------------------------------------------------------------------------------------------
// Error codes
// ------------------------------------------------------------------------------------------------

/// Kafka's error codes that the group protocols use (classic, then the consumer protocol's own at
/// the end), with Kafka's numbers and names (`org.apache.kafka.common.protocol.Errors`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum ErrorCode {
    /// 0: success.
    None,
    /// -1: an unexpected server-side failure.
    UnknownServerError,
    /// 3: the partition does not exist (an append failure, mapped to `COORDINATOR_NOT_AVAILABLE`).
    UnknownTopicOrPartition,
    /// 4: an append failure, mapped to `UNKNOWN_SERVER_ERROR`.
    InvalidFetchSize,
    /// 6: this broker does not lead the partition (append failure, mapped to `NOT_COORDINATOR`).
    NotLeaderOrFollower,
    /// 7: the request timed out (append failure, mapped to `COORDINATOR_NOT_AVAILABLE`).
    RequestTimedOut,
    /// 10: an append failure, mapped to `UNKNOWN_SERVER_ERROR`.
    MessageTooLarge,
    /// 12: the committed metadata string exceeds `offset.metadata.max.bytes`.
    OffsetMetadataTooLarge,
    /// 14: the group's `__consumer_offsets` partition is still being loaded.
    CoordinatorLoadInProgress,
    /// 15: the coordinator is not active, or the group is Dead.
    CoordinatorNotAvailable,
    /// 16: this broker does not lead the group's `__consumer_offsets` partition.
    NotCoordinator,
    /// 18: an append failure, mapped to `UNKNOWN_SERVER_ERROR`.
    RecordListTooLarge,
    /// 19: too few in-sync replicas (append failure, mapped to `COORDINATOR_NOT_AVAILABLE`).
    NotEnoughReplicas,
    /// 22: the generation id is not the group's.
    IllegalGeneration,
    /// 23: the member's protocol type or protocols are incompatible with the group's.
    InconsistentGroupProtocol,
    /// 24: the group id is empty (or null).
    InvalidGroupId,
    /// 25: the member id is not a member of the group.
    UnknownMemberId,
    /// 26: the session timeout is outside the broker's allowed range.
    InvalidSessionTimeout,
    /// 27: the group is rebalancing; the member must rejoin.
    RebalanceInProgress,
    /// 30: the caller may not describe the group.
    GroupAuthorizationFailed,
    /// 56: a disk failure (append failure, mapped to `NOT_COORDINATOR`).
    KafkaStorageError,
    /// 68: DeleteGroups on a group that still has members.
    NonEmptyGroup,
    /// 69: the group does not exist (OffsetCommit v9+, DeleteGroups).
    GroupIdNotFound,
    /// 79: the coordinator assigned a member id; rejoin with it (KIP-394).
    MemberIdRequired,
    /// 81: the group has reached `group.max.size`.
    GroupMaxSizeReached,
    /// 82: another member now owns this `group.instance.id` (KIP-345).
    FencedInstanceId,
    /// 88: a transactional offset commit is pending for the partition.
    UnstableOffsetCommit,
    // ---- The consumer protocol's own codes (KIP-848); serialized by variant name, as when they
    // ---- were `ConsumerErrorCode`'s.
    /// 29: a subscribed topic may not be described by the caller.
    TopicAuthorizationFailed,
    /// 35: the API is not enabled (`group.coordinator.rebalance.protocols` lacks `consumer`), or an
    /// OffsetCommit below v9 from a consumer-protocol member.
    UnsupportedVersion,
    /// 42: the request failed validation (`"MemberId can't be empty."`, ...).
    InvalidRequest,
    /// 110: the member epoch is not the member's (or the member's state is unknown): abandon all
    /// partitions and rejoin.
    FencedMemberEpoch,
    /// 111: a static member joins while the old member with its instance id has not left with epoch -2.
    UnreleasedInstanceId,
    /// 112: the `ServerAssignor` is not one of `group.consumer.assignors`.
    UnsupportedAssignor,
    /// 113: an offset commit carries an epoch other than the member's.
    StaleMemberEpoch,
    /// 128: `SubscribedTopicRegex` does not compile (v1+).
    InvalidRegularExpression,
}

impl ErrorCode {
    /// Kafka's numeric code.
    pub const fn code(self) -> i16 {
        match self {
            Self::None => 0,
            Self::UnknownServerError => -1,
            Self::UnknownTopicOrPartition => 3,
            Self::InvalidFetchSize => 4,
            Self::NotLeaderOrFollower => 6,
            Self::RequestTimedOut => 7,
            Self::MessageTooLarge => 10,
            Self::OffsetMetadataTooLarge => 12,
            Self::CoordinatorLoadInProgress => 14,
            Self::CoordinatorNotAvailable => 15,
            Self::NotCoordinator => 16,
            Self::RecordListTooLarge => 18,
            Self::NotEnoughReplicas => 19,
            Self::IllegalGeneration => 22,
            Self::InconsistentGroupProtocol => 23,
            Self::InvalidGroupId => 24,
            Self::UnknownMemberId => 25,
            Self::InvalidSessionTimeout => 26,
            Self::RebalanceInProgress => 27,
            Self::GroupAuthorizationFailed => 30,
            Self::KafkaStorageError => 56,
            Self::NonEmptyGroup => 68,
            Self::GroupIdNotFound => 69,
            Self::MemberIdRequired => 79,
            Self::GroupMaxSizeReached => 81,
            Self::FencedInstanceId => 82,
            Self::UnstableOffsetCommit => 88,
            Self::TopicAuthorizationFailed => 29,
            Self::UnsupportedVersion => 35,
            Self::InvalidRequest => 42,
            Self::FencedMemberEpoch => 110,
            Self::UnreleasedInstanceId => 111,
            Self::UnsupportedAssignor => 112,
            Self::StaleMemberEpoch => 113,
            Self::InvalidRegularExpression => 128,
        }
    }

    /// Kafka's name, e.g. `UNKNOWN_MEMBER_ID`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::None => "NONE",
            Self::UnknownServerError => "UNKNOWN_SERVER_ERROR",
            Self::UnknownTopicOrPartition => "UNKNOWN_TOPIC_OR_PARTITION",
            Self::InvalidFetchSize => "INVALID_FETCH_SIZE",
            Self::NotLeaderOrFollower => "NOT_LEADER_OR_FOLLOWER",
            Self::RequestTimedOut => "REQUEST_TIMED_OUT",
            Self::MessageTooLarge => "MESSAGE_TOO_LARGE",
            Self::OffsetMetadataTooLarge => "OFFSET_METADATA_TOO_LARGE",
            Self::CoordinatorLoadInProgress => "COORDINATOR_LOAD_IN_PROGRESS",
            Self::CoordinatorNotAvailable => "COORDINATOR_NOT_AVAILABLE",
            Self::NotCoordinator => "NOT_COORDINATOR",
            Self::RecordListTooLarge => "RECORD_LIST_TOO_LARGE",
            Self::NotEnoughReplicas => "NOT_ENOUGH_REPLICAS",
            Self::IllegalGeneration => "ILLEGAL_GENERATION",
            Self::InconsistentGroupProtocol => "INCONSISTENT_GROUP_PROTOCOL",
            Self::InvalidGroupId => "INVALID_GROUP_ID",
            Self::UnknownMemberId => "UNKNOWN_MEMBER_ID",
            Self::InvalidSessionTimeout => "INVALID_SESSION_TIMEOUT",
            Self::RebalanceInProgress => "REBALANCE_IN_PROGRESS",
            Self::GroupAuthorizationFailed => "GROUP_AUTHORIZATION_FAILED",
            Self::KafkaStorageError => "KAFKA_STORAGE_ERROR",
            Self::NonEmptyGroup => "NON_EMPTY_GROUP",
            Self::GroupIdNotFound => "GROUP_ID_NOT_FOUND",
            Self::MemberIdRequired => "MEMBER_ID_REQUIRED",
            Self::GroupMaxSizeReached => "GROUP_MAX_SIZE_REACHED",
            Self::FencedInstanceId => "FENCED_INSTANCE_ID",
            Self::UnstableOffsetCommit => "UNSTABLE_OFFSET_COMMIT",
            Self::TopicAuthorizationFailed => "TOPIC_AUTHORIZATION_FAILED",
            Self::UnsupportedVersion => "UNSUPPORTED_VERSION",
            Self::InvalidRequest => "INVALID_REQUEST",
            Self::FencedMemberEpoch => "FENCED_MEMBER_EPOCH",
            Self::UnreleasedInstanceId => "UNRELEASED_INSTANCE_ID",
            Self::UnsupportedAssignor => "UNSUPPORTED_ASSIGNOR",
            Self::StaleMemberEpoch => "STALE_MEMBER_EPOCH",
            Self::InvalidRegularExpression => "INVALID_REGULAR_EXPRESSION",
        }
    }

    /// The error code with Kafka's numeric `code`, if it is one of those modelled.
    pub fn from_code(code: i16) -> Option<Self> {
        ALL_ERROR_CODES.iter().copied().find(|e| e.code() == code)
    }

    /// Whether this is `NONE`.
    pub const fn is_none(self) -> bool {
        matches!(self, Self::None)
    }

    /// How the coordinator reports a failed append of group metadata to the client
    /// (Kafka: `GroupMetadataManager.appendGroupMetadataErrorToResponseError`).
    pub const fn append_error_to_response_error(self) -> Self {
        match self {
            Self::UnknownTopicOrPartition | Self::NotEnoughReplicas | Self::RequestTimedOut => {
                Self::CoordinatorNotAvailable
            }
            Self::NotLeaderOrFollower | Self::KafkaStorageError => Self::NotCoordinator,
            Self::MessageTooLarge | Self::RecordListTooLarge | Self::InvalidFetchSize => {
                Self::UnknownServerError
            }
            other => other,
        }
    }
}

/// Every modelled error code, in numeric order.
pub const ALL_ERROR_CODES: [ErrorCode; 35] = [
    ErrorCode::UnknownServerError,
    ErrorCode::None,
    ErrorCode::UnknownTopicOrPartition,
    ErrorCode::InvalidFetchSize,
    ErrorCode::NotLeaderOrFollower,
    ErrorCode::RequestTimedOut,
    ErrorCode::MessageTooLarge,
    ErrorCode::OffsetMetadataTooLarge,
    ErrorCode::CoordinatorLoadInProgress,
    ErrorCode::CoordinatorNotAvailable,
    ErrorCode::NotCoordinator,
    ErrorCode::RecordListTooLarge,
    ErrorCode::NotEnoughReplicas,
    ErrorCode::IllegalGeneration,
    ErrorCode::InconsistentGroupProtocol,
    ErrorCode::InvalidGroupId,
    ErrorCode::UnknownMemberId,
    ErrorCode::InvalidSessionTimeout,
    ErrorCode::RebalanceInProgress,
    ErrorCode::TopicAuthorizationFailed,
    ErrorCode::GroupAuthorizationFailed,
    ErrorCode::UnsupportedVersion,
    ErrorCode::InvalidRequest,
    ErrorCode::KafkaStorageError,
    ErrorCode::NonEmptyGroup,
    ErrorCode::GroupIdNotFound,
    ErrorCode::MemberIdRequired,
    ErrorCode::GroupMaxSizeReached,
    ErrorCode::FencedInstanceId,
    ErrorCode::UnstableOffsetCommit,
    ErrorCode::FencedMemberEpoch,
    ErrorCode::UnreleasedInstanceId,
    ErrorCode::UnsupportedAssignor,
    ErrorCode::StaleMemberEpoch,
    ErrorCode::InvalidRegularExpression,
];

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

// ------------------------------------------------------------------------------------------------
// Group state (the wire names used by DescribeGroups)
// ------------------------------------------------------------------------------------------------

/// The five states of a classic group (Kafka: `ClassicGroupState`). The legal transitions are in
/// [`GroupState::valid_previous_states`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum GroupState {
    /// No members (offsets may still be stored); also the state a new group starts in.
    Empty,
    /// A join phase is open: members must (re)send JoinGroup.
    PreparingRebalance,
    /// The join phase completed; the coordinator waits for the leader's SyncGroup.
    CompletingRebalance,
    /// Every member has (or can fetch) its assignment for the current generation.
    Stable,
    /// The group is gone from this coordinator (unloaded or deleted). Nothing leaves Dead.
    Dead,
}

impl GroupState {
    /// Kafka's string name, exactly as DescribeGroups reports it.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Empty => "Empty",
            Self::PreparingRebalance => "PreparingRebalance",
            Self::CompletingRebalance => "CompletingRebalance",
            Self::Stable => "Stable",
            Self::Dead => "Dead",
        }
    }

    /// The states from which `self` may be entered (Kafka: the static block of
    /// `ClassicGroupState`, Scala `GroupMetadata.validPreviousStates`).
    pub const fn valid_previous_states(self) -> &'static [GroupState] {
        use GroupState::*;
        match self {
            Empty => &[PreparingRebalance],
            PreparingRebalance => &[Stable, CompletingRebalance, Empty],
            CompletingRebalance => &[PreparingRebalance],
            Stable => &[CompletingRebalance],
            Dead => &[Stable, PreparingRebalance, CompletingRebalance, Empty, Dead],
        }
    }

    /// Whether `self → to` is one of Kafka's legal transitions.
    pub fn can_transition_to(self, to: GroupState) -> bool {
        to.valid_previous_states().contains(&self)
    }

    /// The five states, in the order of the rebalance cycle, then Dead.
    pub const ALL: [GroupState; 5] = [
        GroupState::Empty,
        GroupState::PreparingRebalance,
        GroupState::CompletingRebalance,
        GroupState::Stable,
        GroupState::Dead,
    ];

    /// Every legal transition `(from, to)`, by target state (Kafka's table, as
    /// [`GroupState::valid_previous_states`] gives it).
    pub fn transitions() -> impl Iterator<Item = (GroupState, GroupState)> {
        Self::ALL
            .into_iter()
            .flat_map(|to| to.valid_previous_states().iter().map(move |from| (*from, to)))
    }
}

impl fmt::Display for GroupState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

// ------------------------------------------------------------------------------------------------
// Consumer protocol payloads
// ------------------------------------------------------------------------------------------------

/// A topic partition.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct TopicPartition {
    /// The topic name.
    pub topic: String,
    /// The partition number.
    pub partition: i32,
}

impl TopicPartition {
    /// `topic-partition`.
    pub fn new(topic: impl Into<String>, partition: i32) -> Self {
        Self {
            topic: topic.into(),
            partition,
        }
    }
}

impl fmt::Display for TopicPartition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.topic, self.partition)
    }
}

/// The metadata a member sends with each protocol in JoinGroup. For the `consumer` protocol type
/// this is Kafka's `ConsumerProtocolSubscription` (v1+ owned partitions, v2+ generation); other
/// protocol types may use `user_data` only.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ConsumerSubscription {
    /// Subscribed topics, in the member's order.
    pub topics: Vec<String>,
    /// The partitions the member owns now (cooperative protocols rely on this).
    pub owned_partitions: Vec<TopicPartition>,
    /// The generation in which the member got `owned_partitions`, or -1.
    pub generation_id: i32,
    /// Opaque assignor data (sticky assignors put their state here in old versions).
    pub user_data: Vec<u8>,
}

impl ConsumerSubscription {
    /// A subscription to `topics` owning nothing, with no generation.
    pub fn to_topics<I, S>(topics: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Self {
            topics: topics.into_iter().map(Into::into).collect(),
            owned_partitions: Vec::new(),
            generation_id: NO_GENERATION,
            user_data: Vec::new(),
        }
    }
}

/// The assignment the leader computes for one member (Kafka's `ConsumerProtocolAssignment`). The
/// coordinator stores and forwards it without reading it; empty means "no assignment".
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ConsumerAssignment {
    /// The assigned partitions.
    pub partitions: Vec<TopicPartition>,
    /// Opaque assignor data.
    pub user_data: Vec<u8>,
}

impl ConsumerAssignment {
    /// Whether this is the empty assignment Kafka uses for "none yet".
    pub fn is_empty(&self) -> bool {
        self.partitions.is_empty() && self.user_data.is_empty()
    }
}

/// One protocol (assignor) a member supports, with its metadata. A member lists them in order of
/// preference.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct JoinGroupProtocol {
    /// The protocol (assignor) name, e.g. `range`.
    pub name: String,
    /// The member's metadata for this protocol.
    pub metadata: ConsumerSubscription,
}

// ------------------------------------------------------------------------------------------------
// FindCoordinator
// ------------------------------------------------------------------------------------------------

/// FindCoordinator for a group (key type GROUP).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FindCoordinatorRequest {
    /// The group id.
    pub key: String,
}

/// The answer to [`FindCoordinatorRequest`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FindCoordinatorResponse {
    /// `NONE` or `COORDINATOR_NOT_AVAILABLE`.
    pub error_code: ErrorCode,
    /// The coordinator's broker, or -1 on error.
    pub node_id: NodeId,
    /// The group's `__consumer_offsets` partition. Not in Kafka's response; the playground shows it.
    pub partition: i32,
}

// ------------------------------------------------------------------------------------------------
// JoinGroup
// ------------------------------------------------------------------------------------------------

/// JoinGroup (Kafka `JoinGroupRequestData`, plus the client id and host from the request header).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JoinGroupRequest {
    /// The request's API version. Below 4 there is no `MEMBER_ID_REQUIRED` step; below 9 a replaced
    /// static leader is told the old leader id.
    pub api_version: i16,
    /// The group id.
    pub group_id: String,
    /// The member id, or `""` for a new member.
    pub member_id: String,
    /// `group.instance.id` for a static member (KIP-345).
    pub group_instance_id: Option<String>,
    /// The client's `client.id` (from the request header). Dynamic member ids start with it.
    pub client_id: String,
    /// The client's host (from the connection).
    pub client_host: String,
    /// The protocol type, e.g. `consumer`.
    pub protocol_type: String,
    /// The supported protocols, in order of preference.
    pub protocols: Vec<JoinGroupProtocol>,
    /// `session.timeout.ms`.
    pub session_timeout_ms: i32,
    /// The rebalance timeout; Java clients send `max.poll.interval.ms`.
    pub rebalance_timeout_ms: i32,
    /// Why the client is joining (free text, v8+).
    pub reason: Option<String>,
}

impl Default for JoinGroupRequest {
    fn default() -> Self {
        Self {
            api_version: JOIN_GROUP_LATEST_VERSION,
            group_id: String::new(),
            member_id: String::new(),
            group_instance_id: None,
            client_id: String::new(),
            client_host: String::new(),
            protocol_type: CONSUMER_PROTOCOL_TYPE.to_owned(),
            protocols: Vec::new(),
            session_timeout_ms: 45_000,
            rebalance_timeout_ms: 300_000,
            reason: None,
        }
    }
}

/// One member in the leader's JoinGroup response.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JoinGroupResponseMember {
    /// The member id.
    pub member_id: String,
    /// Its `group.instance.id`, if static.
    pub group_instance_id: Option<String>,
    /// Its metadata for the selected protocol.
    pub metadata: ConsumerSubscription,
}

/// The answer to [`JoinGroupRequest`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JoinGroupResponse {
    /// The error, or `NONE`.
    pub error_code: ErrorCode,
    /// The generation the member joined, or -1 on error.
    pub generation_id: i32,
    /// The group's protocol type (absent on error).
    pub protocol_type: Option<String>,
    /// The selected protocol (absent on error).
    pub protocol_name: Option<String>,
    /// The leader's member id (`""` on error).
    pub leader: String,
    /// v9+: the (static) leader must not recompute the assignment.
    pub skip_assignment: bool,
    /// The member's id (the new id with `MEMBER_ID_REQUIRED`).
    pub member_id: String,
    /// Every member with its metadata, for the leader only; empty for followers.
    pub members: Vec<JoinGroupResponseMember>,
}

impl JoinGroupResponse {
    /// An error response: generation -1, no leader, no protocol, no members.
    pub fn error(error_code: ErrorCode, member_id: impl Into<String>) -> Self {
        Self {
            error_code,
            generation_id: NO_GENERATION,
            protocol_type: None,
            protocol_name: None,
            leader: String::new(),
            skip_assignment: false,
            member_id: member_id.into(),
            members: Vec::new(),
        }
    }
}

// ------------------------------------------------------------------------------------------------
// SyncGroup
// ------------------------------------------------------------------------------------------------

/// One member's assignment in the leader's SyncGroup.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SyncGroupAssignment {
    /// The member id.
    pub member_id: String,
    /// Its assignment.
    pub assignment: ConsumerAssignment,
}

/// SyncGroup (Kafka `SyncGroupRequestData`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SyncGroupRequest {
    /// The group id.
    pub group_id: String,
    /// The generation from the JoinGroup response.
    pub generation_id: i32,
    /// The member id.
    pub member_id: String,
    /// `group.instance.id`, if static.
    pub group_instance_id: Option<String>,
    /// v5+: the protocol type the member expects; checked if present.
    pub protocol_type: Option<String>,
    /// v5+: the protocol the member expects; checked if present.
    pub protocol_name: Option<String>,
    /// The leader's assignment for every member; empty for followers.
    pub assignments: Vec<SyncGroupAssignment>,
}

/// The answer to [`SyncGroupRequest`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SyncGroupResponse {
    /// The error, or `NONE`.
    pub error_code: ErrorCode,
    /// The group's protocol type (absent on error).
    pub protocol_type: Option<String>,
    /// The selected protocol (absent on error).
    pub protocol_name: Option<String>,
    /// The member's assignment (empty on error).
    pub assignment: ConsumerAssignment,
}

impl SyncGroupResponse {
    /// An error response with an empty assignment.
    pub fn error(error_code: ErrorCode) -> Self {
        Self {
            error_code,
            protocol_type: None,
            protocol_name: None,
            assignment: ConsumerAssignment::default(),
        }
    }
}

// ------------------------------------------------------------------------------------------------
// Heartbeat
// ------------------------------------------------------------------------------------------------

/// Heartbeat (Kafka `HeartbeatRequestData`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeartbeatRequest {
    /// The group id.
    pub group_id: String,
    /// The member's generation.
    pub generation_id: i32,
    /// The member id.
    pub member_id: String,
    /// `group.instance.id`, if static.
    pub group_instance_id: Option<String>,
}

/// The answer to [`HeartbeatRequest`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeartbeatResponse {
    /// The error, or `NONE`.
    pub error_code: ErrorCode,
}

// ------------------------------------------------------------------------------------------------
// LeaveGroup
// ------------------------------------------------------------------------------------------------

/// One identity in a LeaveGroup batch (v3+).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberIdentity {
    /// The member id, or `""` to remove a static member by instance id (admin removal).
    pub member_id: String,
    /// `group.instance.id`, if static.
    pub group_instance_id: Option<String>,
    /// Why the member leaves (free text, v5+).
    pub reason: Option<String>,
}

/// LeaveGroup (Kafka `LeaveGroupRequestData`; a single member is a batch of one).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeaveGroupRequest {
    /// The group id.
    pub group_id: String,
    /// The members leaving.
    pub members: Vec<MemberIdentity>,
}

/// One member's result in a LeaveGroup response.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeaveGroupMemberResponse {
    /// The member id from the request.
    pub member_id: String,
    /// The instance id from the request.
    pub group_instance_id: Option<String>,
    /// The error for this member, or `NONE`.
    pub error_code: ErrorCode,
}

/// The answer to [`LeaveGroupRequest`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeaveGroupResponse {
    /// The top-level error, or `NONE`.
    pub error_code: ErrorCode,
    /// Per-member results (empty when the top-level error is set).
    pub members: Vec<LeaveGroupMemberResponse>,
}

// ------------------------------------------------------------------------------------------------
// OffsetCommit / OffsetFetch
// ------------------------------------------------------------------------------------------------

/// One partition's offset in an OffsetCommit.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OffsetCommitPartition {
    /// The topic.
    pub topic: String,
    /// The partition.
    pub partition: i32,
    /// The offset of the next record to consume.
    pub committed_offset: i64,
    /// The leader epoch of the last consumed record, or -1.
    pub committed_leader_epoch: i32,
    /// Free-text metadata; at most `offset.metadata.max.bytes`.
    pub committed_metadata: String,
}

/// OffsetCommit (Kafka `OffsetCommitRequestData`, flattened to a list of partitions).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OffsetCommitRequest {
    /// The request's API version (v9+ answers `GROUP_ID_NOT_FOUND` for an unknown group).
    pub api_version: i16,
    /// The group id (`""` is accepted for backward compatibility).
    pub group_id: String,
    /// The member's generation, or -1 for a commit outside group management.
    pub generation_id: i32,
    /// The member id, or `""`.
    pub member_id: String,
    /// `group.instance.id`, if static.
    pub group_instance_id: Option<String>,
    /// v2–v4 explicit retention in ms; `None` means the broker's `offsets.retention.minutes`.
    pub retention_time_ms: Option<i64>,
    /// The offsets.
    pub partitions: Vec<OffsetCommitPartition>,
}

impl Default for OffsetCommitRequest {
    fn default() -> Self {
        Self {
            api_version: OFFSET_COMMIT_LATEST_VERSION,
            group_id: String::new(),
            generation_id: NO_GENERATION,
            member_id: String::new(),
            group_instance_id: None,
            retention_time_ms: None,
            partitions: Vec::new(),
        }
    }
}

/// One partition's result in an OffsetCommit response.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OffsetCommitPartitionResponse {
    /// The topic.
    pub topic: String,
    /// The partition.
    pub partition: i32,
    /// The error for this partition, or `NONE`.
    pub error_code: ErrorCode,
}

/// The answer to [`OffsetCommitRequest`]. Kafka has no top-level error here: a group-level error is
/// repeated for every partition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OffsetCommitResponse {
    /// Per-partition results, in request order.
    pub partitions: Vec<OffsetCommitPartitionResponse>,
}

/// OffsetFetch (Kafka `OffsetFetchRequestData`, one group).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OffsetFetchRequest {
    /// The group id (`""` is accepted).
    pub group_id: String,
    /// The partitions to fetch, or `None` for all the group's committed offsets.
    pub partitions: Option<Vec<TopicPartition>>,
    /// Ask for `UNSTABLE_OFFSET_COMMIT` on partitions with pending transactional offsets.
    pub require_stable: bool,
}

/// One partition in an OffsetFetch response.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OffsetFetchPartition {
    /// The topic.
    pub topic: String,
    /// The partition.
    pub partition: i32,
    /// The committed offset, or -1 if none.
    pub committed_offset: i64,
    /// The committed leader epoch, or -1.
    pub committed_leader_epoch: i32,
    /// The committed metadata, or `""`.
    pub metadata: String,
    /// The error for this partition, or `NONE`.
    pub error_code: ErrorCode,
}

/// The answer to [`OffsetFetchRequest`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OffsetFetchResponse {
    /// A coordinator-level error, or `NONE`.
    pub error_code: ErrorCode,
    /// The offsets, sorted by topic and partition when all were requested, else in request order.
    pub partitions: Vec<OffsetFetchPartition>,
}

// ------------------------------------------------------------------------------------------------
// DescribeGroups
// ------------------------------------------------------------------------------------------------

/// DescribeGroups (Kafka `DescribeGroupsRequestData`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DescribeGroupsRequest {
    /// The groups to describe.
    pub group_ids: Vec<String>,
}

/// One member in a DescribeGroups answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DescribedMember {
    /// The member id.
    pub member_id: String,
    /// Its `group.instance.id`, if static.
    pub group_instance_id: Option<String>,
    /// Its client id.
    pub client_id: String,
    /// Its host.
    pub client_host: String,
    /// Its metadata for the selected protocol: only in Stable (Kafka sends empty bytes otherwise).
    pub metadata: Option<ConsumerSubscription>,
    /// Its stored assignment (may be empty or stale outside Stable).
    pub assignment: ConsumerAssignment,
}

/// One group in a DescribeGroups answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DescribedGroup {
    /// The error, or `NONE` (an unknown group is `NONE` with state Dead).
    pub error_code: ErrorCode,
    /// The group id.
    pub group_id: String,
    /// The state.
    pub group_state: GroupState,
    /// The protocol type, or `""`.
    pub protocol_type: String,
    /// The selected protocol in Stable, else `""`.
    pub protocol_data: String,
    /// The members, in join order.
    pub members: Vec<DescribedMember>,
}

/// The answer to [`DescribeGroupsRequest`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DescribeGroupsResponse {
    /// One entry per requested group, in request order.
    pub groups: Vec<DescribedGroup>,
}

// ------------------------------------------------------------------------------------------------
// ListGroups / DeleteGroups (the admin client's group APIs)
// ------------------------------------------------------------------------------------------------

/// ListGroups (Kafka `ListGroupsRequestData`, v4+ with a states filter). The admin client sends it
/// to every broker; each coordinator lists the groups of the partitions it leads.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListGroupsRequest {
    /// Only groups in these states (Kafka's names, compared case-insensitively); empty: all.
    #[serde(default)]
    pub states_filter: Vec<String>,
}

/// One group in a ListGroups answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListedGroup {
    /// The group id.
    pub group_id: String,
    /// Its protocol type (`"consumer"`, or `""` for a group that only commits offsets).
    pub protocol_type: String,
    /// Its state (v4+).
    pub group_state: GroupState,
}

/// The answer to [`ListGroupsRequest`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListGroupsResponse {
    /// `NONE`, `COORDINATOR_NOT_AVAILABLE`, or `COORDINATOR_LOAD_IN_PROGRESS` while a partition loads.
    pub error_code: ErrorCode,
    /// The groups, by group id.
    pub groups: Vec<ListedGroup>,
}

/// DeleteGroups (Kafka `DeleteGroupsRequestData`), sent to each group's coordinator.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeleteGroupsRequest {
    /// The groups to delete.
    pub group_ids: Vec<String>,
}

/// One group's result in a DeleteGroups answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeletableGroupResult {
    /// The group id.
    pub group_id: String,
    /// `NONE`, `NON_EMPTY_GROUP`, `GROUP_ID_NOT_FOUND`, or a coordinator error.
    pub error_code: ErrorCode,
}

/// The answer to [`DeleteGroupsRequest`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeleteGroupsResponse {
    /// One result per requested group, in request order.
    pub results: Vec<DeletableGroupResult>,
}

// ------------------------------------------------------------------------------------------------
// Envelopes
// ------------------------------------------------------------------------------------------------

/// A Kafka API the simulation speaks, by its `ApiKeys` name. Serialised and displayed as that name
/// (`"JoinGroup"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Api {
    /// FindCoordinator: which broker coordinates a group.
    FindCoordinator,
    /// JoinGroup (a long poll).
    JoinGroup,
    /// SyncGroup (a long poll).
    SyncGroup,
    /// Heartbeat.
    Heartbeat,
    /// LeaveGroup.
    LeaveGroup,
    /// OffsetCommit.
    OffsetCommit,
    /// OffsetFetch.
    OffsetFetch,
    /// DescribeGroups.
    DescribeGroups,
    /// ListGroups (admin).
    ListGroups,
    /// DeleteGroups (admin).
    DeleteGroups,
    /// ConsumerGroupHeartbeat (API 68, KIP-848): join, heartbeat, reconcile and leave in one API.
    ConsumerGroupHeartbeat,
    /// ConsumerGroupDescribe (API 69, KIP-848).
    ConsumerGroupDescribe,
}

impl Api {
    /// Every API, in the order above.
    pub const ALL: [Self; 12] = [
        Self::FindCoordinator,
        Self::JoinGroup,
        Self::SyncGroup,
        Self::Heartbeat,
        Self::LeaveGroup,
        Self::OffsetCommit,
        Self::OffsetFetch,
        Self::DescribeGroups,
        Self::ListGroups,
        Self::DeleteGroups,
        Self::ConsumerGroupHeartbeat,
        Self::ConsumerGroupDescribe,
    ];

    /// Kafka's name, e.g. `JoinGroup`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::FindCoordinator => "FindCoordinator",
            Self::JoinGroup => "JoinGroup",
            Self::SyncGroup => "SyncGroup",
            Self::Heartbeat => "Heartbeat",
            Self::LeaveGroup => "LeaveGroup",
            Self::OffsetCommit => "OffsetCommit",
            Self::OffsetFetch => "OffsetFetch",
            Self::DescribeGroups => "DescribeGroups",
            Self::ListGroups => "ListGroups",
            Self::DeleteGroups => "DeleteGroups",
            Self::ConsumerGroupHeartbeat => "ConsumerGroupHeartbeat",
            Self::ConsumerGroupDescribe => "ConsumerGroupDescribe",
        }
    }
}

impl fmt::Display for Api {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Any request the coordinator handles.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Request {
    /// FindCoordinator.
    FindCoordinator(FindCoordinatorRequest),
    /// JoinGroup (a long poll).
    JoinGroup(JoinGroupRequest),
    /// SyncGroup (a long poll).
    SyncGroup(SyncGroupRequest),
    /// Heartbeat.
    Heartbeat(HeartbeatRequest),
    /// LeaveGroup.
    LeaveGroup(LeaveGroupRequest),
    /// OffsetCommit.
    OffsetCommit(OffsetCommitRequest),
    /// OffsetFetch.
    OffsetFetch(OffsetFetchRequest),
    /// DescribeGroups.
    DescribeGroups(DescribeGroupsRequest),
    /// ListGroups.
    ListGroups(ListGroupsRequest),
    /// DeleteGroups.
    DeleteGroups(DeleteGroupsRequest),
    /// ConsumerGroupHeartbeat (KIP-848); boxed, being the largest request (serialized the same).
    ConsumerGroupHeartbeat(Box<ConsumerGroupHeartbeatRequest>),
    /// ConsumerGroupDescribe (KIP-848).
    ConsumerGroupDescribe(ConsumerGroupDescribeRequest),
}

impl Request {
    /// The API.
    pub const fn api(&self) -> Api {
        match self {
            Self::FindCoordinator(_) => Api::FindCoordinator,
            Self::JoinGroup(_) => Api::JoinGroup,
            Self::SyncGroup(_) => Api::SyncGroup,
            Self::Heartbeat(_) => Api::Heartbeat,
            Self::LeaveGroup(_) => Api::LeaveGroup,
            Self::OffsetCommit(_) => Api::OffsetCommit,
            Self::OffsetFetch(_) => Api::OffsetFetch,
            Self::DescribeGroups(_) => Api::DescribeGroups,
            Self::ListGroups(_) => Api::ListGroups,
            Self::DeleteGroups(_) => Api::DeleteGroups,
            Self::ConsumerGroupHeartbeat(_) => Api::ConsumerGroupHeartbeat,
            Self::ConsumerGroupDescribe(_) => Api::ConsumerGroupDescribe,
        }
    }

    /// The Kafka API name, e.g. `JoinGroup`.
    pub const fn api_name(&self) -> &'static str {
        self.api().name()
    }
}

/// Any response the coordinator sends.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Response {
    /// FindCoordinator.
    FindCoordinator(FindCoordinatorResponse),
    /// JoinGroup.
    JoinGroup(JoinGroupResponse),
    /// SyncGroup.
    SyncGroup(SyncGroupResponse),
    /// Heartbeat.
    Heartbeat(HeartbeatResponse),
    /// LeaveGroup.
    LeaveGroup(LeaveGroupResponse),
    /// OffsetCommit.
    OffsetCommit(OffsetCommitResponse),
    /// OffsetFetch.
    OffsetFetch(OffsetFetchResponse),
    /// DescribeGroups.
    DescribeGroups(DescribeGroupsResponse),
    /// ListGroups.
    ListGroups(ListGroupsResponse),
    /// DeleteGroups.
    DeleteGroups(DeleteGroupsResponse),
    /// ConsumerGroupHeartbeat (KIP-848).
    ConsumerGroupHeartbeat(ConsumerGroupHeartbeatResponse),
    /// ConsumerGroupDescribe (KIP-848).
    ConsumerGroupDescribe(ConsumerGroupDescribeResponse),
}

impl Response {
    /// The API.
    pub const fn api(&self) -> Api {
        match self {
            Self::FindCoordinator(_) => Api::FindCoordinator,
            Self::JoinGroup(_) => Api::JoinGroup,
            Self::SyncGroup(_) => Api::SyncGroup,
            Self::Heartbeat(_) => Api::Heartbeat,
            Self::LeaveGroup(_) => Api::LeaveGroup,
            Self::OffsetCommit(_) => Api::OffsetCommit,
            Self::OffsetFetch(_) => Api::OffsetFetch,
            Self::DescribeGroups(_) => Api::DescribeGroups,
            Self::ListGroups(_) => Api::ListGroups,
            Self::DeleteGroups(_) => Api::DeleteGroups,
            Self::ConsumerGroupHeartbeat(_) => Api::ConsumerGroupHeartbeat,
            Self::ConsumerGroupDescribe(_) => Api::ConsumerGroupDescribe,
        }
    }

    /// The Kafka API name, e.g. `JoinGroup`.
    pub const fn api_name(&self) -> &'static str {
        self.api().name()
    }

    /// The response's main error code: the top-level one, or for OffsetCommit, DescribeGroups and
    /// ConsumerGroupDescribe the first entry's (`NONE` if there is none).
    pub fn error_code(&self) -> ErrorCode {
        match self {
            Self::FindCoordinator(r) => r.error_code,
            Self::JoinGroup(r) => r.error_code,
            Self::SyncGroup(r) => r.error_code,
            Self::Heartbeat(r) => r.error_code,
            Self::LeaveGroup(r) => r.error_code,
            Self::OffsetCommit(r) => r.partitions.first().map_or(ErrorCode::None, |p| p.error_code),
            Self::OffsetFetch(r) => r.error_code,
            Self::DescribeGroups(r) => r.groups.first().map_or(ErrorCode::None, |g| g.error_code),
            Self::ListGroups(r) => r.error_code,
            Self::DeleteGroups(r) => r.results.first().map_or(ErrorCode::None, |g| g.error_code),
            Self::ConsumerGroupHeartbeat(r) => r.error_code,
            Self::ConsumerGroupDescribe(r) => r.groups.first().map_or(ErrorCode::None, |g| g.error_code),
        }
    }
}

/// A response addressed to the connection and correlation id of the request it answers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outgoing {
    /// The requester.
    pub to: ConnectionId,
    /// The correlation id the requester supplied.
    pub correlation_id: i32,
    /// The response.
    pub response: Response,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_codes_have_kafkas_numbers_and_names() {
        // Kafka: org.apache.kafka.common.protocol.Errors
        assert_eq!(ErrorCode::UnknownMemberId.code(), 25);
        assert_eq!(ErrorCode::MemberIdRequired.code(), 79);
        assert_eq!(ErrorCode::FencedInstanceId.code(), 82);
        assert_eq!(ErrorCode::RebalanceInProgress.name(), "REBALANCE_IN_PROGRESS");
        for e in ALL_ERROR_CODES {
            assert_eq!(ErrorCode::from_code(e.code()), Some(e));
        }
        assert!(ALL_ERROR_CODES.windows(2).all(|w| w[0].code() < w[1].code()));
    }

    #[test]
    fn transition_table_is_kafkas() {
        use GroupState::*;
        // ClassicGroupTest.test*IllegalTransition
        assert!(!Empty.can_transition_to(Stable));
        assert!(!Empty.can_transition_to(CompletingRebalance));
        assert!(!PreparingRebalance.can_transition_to(Stable));
        assert!(!Stable.can_transition_to(Stable));
        assert!(!PreparingRebalance.can_transition_to(PreparingRebalance));
        assert!(Dead.can_transition_to(Dead));
        assert!(!Dead.can_transition_to(Empty));
        assert!(PreparingRebalance.can_transition_to(Empty));
    }
}
