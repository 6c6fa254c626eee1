//! The new consumer group protocol's messages (KIP-848), as plain data: `ConsumerGroupHeartbeat` (API
//! key 68, versions 0–1) and `ConsumerGroupDescribe` (API key 69, versions 0–1), field by field as in
//! Kafka 4.1's `ConsumerGroupHeartbeat{Request,Response}.json` and
//! `ConsumerGroupDescribe{Request,Response}.json`. Serde names are Kafka's field names in snake case.
//!
//! Differences from the wire, as for the classic messages:
//!
//! * the client id and host, which Kafka takes from the request header and the connection, are fields
//!   of [`ConsumerGroupHeartbeatRequest`], and the API version is a field too;
//! * `ThrottleTimeMs` is left out (the simulation has no quotas);
//! * a topic id is a [`TopicId`] string rather than a 16-byte UUID (the playground's topics have
//!   names; the coordinator gives each a stable id).
//!
//! Nullable fields are `Option`s exactly where Kafka's schema says `nullableVersions`; "unchanged"
//! integers keep Kafka's sentinel (`RebalanceTimeoutMs = -1`).
//!
//! The error codes these APIs add are variants of [`ErrorCode`] ([`CONSUMER_ONLY_ERROR_CODES`]).

use std::fmt;

use serde::{Deserialize, Serialize};

use super::ErrorCode;

/// `ConsumerGroupHeartbeat`'s API key.
pub const CONSUMER_GROUP_HEARTBEAT_API_KEY: i16 = 68;

/// The newest `ConsumerGroupHeartbeat` version (v1: `SubscribedTopicRegex`, client-generated member
/// ids, KIP-1082).
pub const CONSUMER_GROUP_HEARTBEAT_LATEST_VERSION: i16 = 1;

/// `ConsumerGroupDescribe`'s API key.
pub const CONSUMER_GROUP_DESCRIBE_API_KEY: i16 = 69;

/// The newest `ConsumerGroupDescribe` version (v1: `MemberType`, KIP-1099).
pub const CONSUMER_GROUP_DESCRIBE_LATEST_VERSION: i16 = 1;

/// The member epoch that joins or rejoins (`ConsumerGroupHeartbeatRequest.JOIN_GROUP_MEMBER_EPOCH`).
pub const JOIN_GROUP_MEMBER_EPOCH: i32 = 0;

/// The member epoch that leaves the group (`LEAVE_GROUP_MEMBER_EPOCH`).
pub const LEAVE_GROUP_MEMBER_EPOCH: i32 = -1;

/// The member epoch with which a static member leaves and promises to come back
/// (`LEAVE_GROUP_STATIC_MEMBER_EPOCH`).
pub const LEAVE_GROUP_STATIC_MEMBER_EPOCH: i32 = -2;

/// `ConsumerGroupDescribe`'s `AuthorizedOperations` when they were not asked for (`Integer.MIN_VALUE`).
pub const AUTHORIZED_OPERATIONS_OMITTED: i32 = i32::MIN;

// ------------------------------------------------------------------------------------------------
// Error codes
// ------------------------------------------------------------------------------------------------

/// The codes only the consumer protocol's APIs use, in numeric order. They are variants of
/// [`ErrorCode`] (phase 1 kept them apart in a `ConsumerErrorCode` wrapper; the serialized names,
/// the variant names, are the same).
pub const CONSUMER_ONLY_ERROR_CODES: [ErrorCode; 8] = [
    ErrorCode::TopicAuthorizationFailed,
    ErrorCode::UnsupportedVersion,
    ErrorCode::InvalidRequest,
    ErrorCode::FencedMemberEpoch,
    ErrorCode::UnreleasedInstanceId,
    ErrorCode::UnsupportedAssignor,
    ErrorCode::StaleMemberEpoch,
    ErrorCode::InvalidRegularExpression,
];

// ------------------------------------------------------------------------------------------------
// Shared pieces
// ------------------------------------------------------------------------------------------------

/// A topic id. Kafka's is a UUID (`Uuid`, printed as 22 characters of URL-safe base64); the
/// playground's topics are known by name, so the coordinator gives each one a stable string id.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TopicId(pub String);

impl fmt::Display for TopicId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// One topic's partitions in a heartbeat, request or response (Kafka's `TopicPartitions` struct of
/// `ConsumerGroupHeartbeat{Request,Response}Data`).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ConsumerGroupHeartbeatTopicPartitions {
    /// The topic id.
    pub topic_id: TopicId,
    /// The partitions.
    pub partitions: Vec<i32>,
}

// ------------------------------------------------------------------------------------------------
// ConsumerGroupHeartbeat
// ------------------------------------------------------------------------------------------------

/// ConsumerGroupHeartbeat (Kafka `ConsumerGroupHeartbeatRequestData`, plus the API version and the
/// client id and host from the request header and the connection).
///
/// Apart from the group, the member and its epoch, every field may be left at "unchanged" (`None`,
/// or -1 for the rebalance timeout) after the first heartbeat; the Java client sends only what
/// changed (reference §11), and everything when joining.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConsumerGroupHeartbeatRequest {
    /// The request's API version: v0 lets the coordinator generate the member id on join; v1 adds
    /// `subscribed_topic_regex` and requires a client-generated member id (KIP-1082).
    pub api_version: i16,
    /// The group id.
    pub group_id: String,
    /// The member id: generated by the consumer (v1+; the Java client uses a random UUID) and kept for
    /// the process's lifetime. v0 may send `""` to join.
    pub member_id: String,
    /// The current member epoch; [`JOIN_GROUP_MEMBER_EPOCH`] (0) to join,
    /// [`LEAVE_GROUP_MEMBER_EPOCH`] (-1) to leave, [`LEAVE_GROUP_STATIC_MEMBER_EPOCH`] (-2) for a
    /// static member that will rejoin.
    pub member_epoch: i32,
    /// `group.instance.id`: `None` if not static or unchanged since the last heartbeat.
    pub instance_id: Option<String>,
    /// `client.rack`: `None` if not provided or unchanged.
    pub rack_id: Option<String>,
    /// How long the coordinator waits for the member to revoke partitions (the Java client sends
    /// `max.poll.interval.ms`); -1 if unchanged. Required on join.
    pub rebalance_timeout_ms: i32,
    /// The subscribed topic names; `None` if unchanged.
    pub subscribed_topic_names: Option<Vec<String>>,
    /// v1+: the subscribed topic regex (RE2J syntax); `None` if unchanged, `""` to remove it.
    pub subscribed_topic_regex: Option<String>,
    /// The server-side assignor to use (`uniform`, `range`); `None` if not used or unchanged.
    pub server_assignor: Option<String>,
    /// The partitions the member owns; `None` if unchanged. Must be `Some(vec![])` on join.
    pub topic_partitions: Option<Vec<ConsumerGroupHeartbeatTopicPartitions>>,
    /// The client's `client.id` (from the request header).
    pub client_id: String,
    /// The client's host (from the connection; Kafka stores `InetAddress.toString()`, `/10.1.2.3`).
    pub client_host: String,
}

impl Default for ConsumerGroupHeartbeatRequest {
    fn default() -> Self {
        Self {
            api_version: CONSUMER_GROUP_HEARTBEAT_LATEST_VERSION,
            group_id: String::new(),
            member_id: String::new(),
            member_epoch: JOIN_GROUP_MEMBER_EPOCH,
            instance_id: None,
            rack_id: None,
            rebalance_timeout_ms: -1,
            subscribed_topic_names: None,
            subscribed_topic_regex: None,
            server_assignor: None,
            topic_partitions: None,
            client_id: String::new(),
            client_host: String::new(),
        }
    }
}

impl ConsumerGroupHeartbeatRequest {
    /// Whether the request is "full" (GMM `consumerGroupHeartbeat`, reference §4.2): it carries the
    /// rebalance timeout, a subscription (names or regex) and the owned partitions. A full request is
    /// always answered with the member's whole assignment.
    pub fn is_full(&self) -> bool {
        self.rebalance_timeout_ms != -1
            && (self.subscribed_topic_names.is_some() || self.subscribed_topic_regex.is_some())
            && self.topic_partitions.is_some()
    }

    /// Whether the member leaves (epoch -1 or -2).
    pub fn is_leave(&self) -> bool {
        matches!(
            self.member_epoch,
            LEAVE_GROUP_MEMBER_EPOCH | LEAVE_GROUP_STATIC_MEMBER_EPOCH
        )
    }
}

/// The assignment in a heartbeat response (Kafka `ConsumerGroupHeartbeatResponseData.Assignment`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConsumerGroupHeartbeatAssignment {
    /// The partitions assigned to the member that it can use immediately. Partitions it must revoke
    /// are simply absent: the client learns what to drop by set difference.
    pub topic_partitions: Vec<ConsumerGroupHeartbeatTopicPartitions>,
}

/// The answer to [`ConsumerGroupHeartbeatRequest`] (Kafka `ConsumerGroupHeartbeatResponseData`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConsumerGroupHeartbeatResponse {
    /// The error, or `NONE`. On error only the error fields are meaningful.
    pub error_code: ErrorCode,
    /// The error message, or `None`.
    pub error_message: Option<String>,
    /// The member id (v0: the one the coordinator generated on join); `None` on error.
    pub member_id: Option<String>,
    /// The member epoch after this heartbeat; a leave echoes -1 or -2.
    pub member_epoch: i32,
    /// `consumer.heartbeat.interval.ms` of the group, else the broker's
    /// `group.consumer.heartbeat.interval.ms` (5000); 0 in leave and error responses.
    pub heartbeat_interval_ms: i32,
    /// `None`, or the member's assignment: sent on join, on a full request, and whenever the
    /// member's assigned partitions changed in this heartbeat. `Some` with no partitions is not the
    /// same as `None`.
    pub assignment: Option<ConsumerGroupHeartbeatAssignment>,
}

impl ConsumerGroupHeartbeatResponse {
    /// An error response: no member id, epoch 0, interval 0, no assignment (what Kafka's
    /// `ConsumerGroupHeartbeatResponseData` holds when only the error fields are set).
    pub fn error(error_code: ErrorCode, error_message: impl Into<String>) -> Self {
        Self {
            error_code,
            error_message: Some(error_message.into()),
            member_id: None,
            member_epoch: 0,
            heartbeat_interval_ms: 0,
            assignment: None,
        }
    }
}

// ------------------------------------------------------------------------------------------------
// ConsumerGroupDescribe
// ------------------------------------------------------------------------------------------------

/// ConsumerGroupDescribe (Kafka `ConsumerGroupDescribeRequestData`). v1 is the same as v0 (it only
/// adds `MemberType` to the response).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConsumerGroupDescribeRequest {
    /// The groups to describe.
    pub group_ids: Vec<String>,
    /// Whether to include the authorized operations.
    pub include_authorized_operations: bool,
}

/// One topic's partitions in a described assignment (Kafka
/// `ConsumerGroupDescribeResponseData.TopicPartitions`).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ConsumerGroupDescribeTopicPartitions {
    /// The topic id.
    pub topic_id: TopicId,
    /// The topic name.
    pub topic_name: String,
    /// The partitions.
    pub partitions: Vec<i32>,
}

/// A described assignment (Kafka `ConsumerGroupDescribeResponseData.Assignment`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConsumerGroupDescribeAssignment {
    /// The assigned topic partitions.
    pub topic_partitions: Vec<ConsumerGroupDescribeTopicPartitions>,
}

/// `MemberType` when the member's protocol is unknown (v0 responses, or a member type Kafka does not
/// know).
pub const MEMBER_TYPE_UNKNOWN: i8 = -1;

/// `MemberType` of a member using the classic protocol inside a consumer group (a mixed group).
pub const MEMBER_TYPE_CLASSIC: i8 = 0;

/// `MemberType` of a member using the consumer protocol.
pub const MEMBER_TYPE_CONSUMER: i8 = 1;

/// One member in a ConsumerGroupDescribe answer (Kafka `ConsumerGroupDescribeResponseData.Member`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConsumerGroupDescribedMember {
    /// The member id.
    pub member_id: String,
    /// Its `group.instance.id`, if static.
    pub instance_id: Option<String>,
    /// Its rack, if it sent one.
    pub rack_id: Option<String>,
    /// Its current member epoch.
    pub member_epoch: i32,
    /// Its client id.
    pub client_id: String,
    /// Its host.
    pub client_host: String,
    /// The subscribed topic names.
    pub subscribed_topic_names: Vec<String>,
    /// The subscribed topic regex, or `None`.
    pub subscribed_topic_regex: Option<String>,
    /// The current assignment (its assigned partitions, without those pending revocation).
    pub assignment: ConsumerGroupDescribeAssignment,
    /// The member's target assignment.
    pub target_assignment: ConsumerGroupDescribeAssignment,
    /// v1+: [`MEMBER_TYPE_UNKNOWN`], [`MEMBER_TYPE_CLASSIC`] or [`MEMBER_TYPE_CONSUMER`].
    pub member_type: i8,
}

/// One group in a ConsumerGroupDescribe answer (Kafka
/// `ConsumerGroupDescribeResponseData.DescribedGroup`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConsumerGroupDescribedGroup {
    /// The error, or `NONE` (`GROUP_ID_NOT_FOUND` for an unknown group or one that is not a consumer
    /// group).
    pub error_code: ErrorCode,
    /// The error message, or `None`.
    pub error_message: Option<String>,
    /// The group id.
    pub group_id: String,
    /// The state's name (`Empty`, `Assigning`, `Reconciling`, `Stable`, `Dead`), or `""` on error.
    pub group_state: String,
    /// The group epoch.
    pub group_epoch: i32,
    /// The target assignment epoch.
    pub assignment_epoch: i32,
    /// The selected server-side assignor.
    pub assignor_name: String,
    /// The members.
    pub members: Vec<ConsumerGroupDescribedMember>,
    /// The authorized operations as a bit field, or [`AUTHORIZED_OPERATIONS_OMITTED`].
    pub authorized_operations: i32,
}

impl ConsumerGroupDescribedGroup {
    /// An error entry: the group id and the error, every other field at Kafka's default.
    pub fn error(
        group_id: impl Into<String>,
        error_code: ErrorCode,
        error_message: impl Into<String>,
    ) -> Self {
        Self {
            error_code,
            error_message: Some(error_message.into()),
            group_id: group_id.into(),
            group_state: String::new(),
            group_epoch: 0,
            assignment_epoch: 0,
            assignor_name: String::new(),
            members: Vec::new(),
            authorized_operations: AUTHORIZED_OPERATIONS_OMITTED,
        }
    }
}

/// The answer to [`ConsumerGroupDescribeRequest`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConsumerGroupDescribeResponse {
    /// One entry per requested group, in request order.
    pub groups: Vec<ConsumerGroupDescribedGroup>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consumer_error_codes_have_kafkas_numbers_and_names() {
        assert_eq!(ErrorCode::FencedMemberEpoch.code(), 110);
        assert_eq!(ErrorCode::UnreleasedInstanceId.code(), 111);
        assert_eq!(ErrorCode::UnsupportedAssignor.code(), 112);
        assert_eq!(ErrorCode::StaleMemberEpoch.code(), 113);
        assert_eq!(ErrorCode::InvalidRequest.code(), 42);
        assert_eq!(
            ErrorCode::InvalidRegularExpression.name(),
            "INVALID_REGULAR_EXPRESSION"
        );
        for e in CONSUMER_ONLY_ERROR_CODES {
            assert_eq!(ErrorCode::from_code(e.code()), Some(e));
        }
        assert!(CONSUMER_ONLY_ERROR_CODES
            .windows(2)
            .all(|w| w[0].code() < w[1].code()));
    }

    #[test]
    fn a_full_request_carries_timeout_subscription_and_owned_partitions() {
        let join = ConsumerGroupHeartbeatRequest {
            rebalance_timeout_ms: 300_000,
            subscribed_topic_names: Some(vec![]),
            topic_partitions: Some(vec![]),
            ..Default::default()
        };
        assert!(join.is_full());
        for partial in [
            ConsumerGroupHeartbeatRequest {
                rebalance_timeout_ms: -1,
                ..join.clone()
            },
            ConsumerGroupHeartbeatRequest {
                subscribed_topic_names: None,
                ..join.clone()
            },
            ConsumerGroupHeartbeatRequest {
                topic_partitions: None,
                ..join.clone()
            },
        ] {
            assert!(!partial.is_full(), "{partial:?}");
        }
        let regex = ConsumerGroupHeartbeatRequest {
            subscribed_topic_names: None,
            subscribed_topic_regex: Some(String::new()),
            ..join
        };
        assert!(regex.is_full());
    }
}
