//! What the coordinator persists in its `__consumer_offsets` partitions, and reads back on load.
//!
//! Kafka writes two kinds of record there: group metadata (after a rebalance, when the group empties,
//! when a static member is replaced) and committed offsets; a record with no value (a tombstone)
//! deletes. The caller can read a partition's log ([`crate::Coordinator::log`]), replicate it, and feed
//! it to another coordinator's [`crate::Coordinator::load`].

use crate::collections::Map;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::consumer::{MemberState, Partitions};
use crate::protocol::{ConsumerAssignment, ConsumerSubscription, JoinGroupProtocol, TopicPartition};
use crate::time::SimTime;

/// One record in a `__consumer_offsets` partition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// Its offset in the partition.
    pub offset: u64,
    /// When it was appended.
    pub appended_at: SimTime,
    /// What it says.
    pub body: RecordBody,
}

/// The payload of a [`Record`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RecordBody {
    /// The group's metadata (Kafka: `GroupMetadataKey`/`GroupMetadataValue`).
    GroupMetadata(GroupMetadataRecord),
    /// The group was deleted.
    GroupTombstone {
        /// The group id.
        group_id: String,
    },
    /// A committed offset (Kafka: `OffsetCommitKey`/`OffsetCommitValue`).
    OffsetCommit(OffsetCommitRecord),
    /// The offset was deleted (expired).
    OffsetTombstone {
        /// The group id.
        group_id: String,
        /// The partition whose offset is gone.
        topic_partition: TopicPartition,
    },
    // ---- Consumer groups (KIP-848). Each is one of Kafka's keys with its value, `None` being the
    // ---- tombstone.
    /// A consumer group's epoch (Kafka: `ConsumerGroupMetadataKey`/`Value`); `None` deletes the
    /// consumer group.
    ConsumerGroupMetadata {
        /// The group id.
        group_id: String,
        /// The value, or `None` (tombstone).
        value: Option<ConsumerGroupMetadataValue>,
    },
    /// A member's subscription and settings (`ConsumerGroupMemberMetadataKey`/`Value`).
    ConsumerGroupMemberMetadata {
        /// The group id.
        group_id: String,
        /// The member id.
        member_id: String,
        /// The value, or `None` (the member is gone).
        value: Option<ConsumerMemberMetadataValue>,
    },
    /// The epoch of the group's target assignment (`ConsumerGroupTargetAssignmentMetadataKey`/`Value`).
    ConsumerGroupTargetAssignmentMetadata {
        /// The group id.
        group_id: String,
        /// The target assignment epoch, or `None` (tombstone).
        assignment_epoch: Option<i32>,
        /// When the target was computed, in ms (Kafka 4.3+'s `AssignmentTimestamp`, which
        /// assignment batching reads; absent before 4.3).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        assignment_timestamp_ms: Option<u64>,
    },
    /// One member's target assignment (`ConsumerGroupTargetAssignmentMemberKey`/`Value`).
    ConsumerGroupTargetAssignmentMember {
        /// The group id.
        group_id: String,
        /// The member id.
        member_id: String,
        /// The target partitions (topic names: the playground's topic ids are their names), or
        /// `None` (the member is gone).
        partitions: Option<Partitions>,
    },
    /// One member's current assignment and reconciliation state
    /// (`ConsumerGroupCurrentMemberAssignmentKey`/`Value`).
    ConsumerGroupCurrentMemberAssignment {
        /// The group id.
        group_id: String,
        /// The member id.
        member_id: String,
        /// The value, or `None` (the member is gone).
        value: Option<ConsumerCurrentAssignmentValue>,
    },
}

/// The value of [`RecordBody::ConsumerGroupMetadata`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConsumerGroupMetadataValue {
    /// The group epoch.
    pub epoch: i32,
    /// The hash of the subscribed topics' metadata (Kafka 4.1: `MetadataHash`; here a 64-bit FNV-1a
    /// of each subscribed topic's name and partition count, in name order).
    pub metadata_hash: u64,
    /// The next member-id sequence number for ids the coordinator generates (v0 joins). Not in Kafka,
    /// whose generated ids are UUIDs.
    pub next_member_seq: u64,
}

/// The value of [`RecordBody::ConsumerGroupMemberMetadata`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConsumerMemberMetadataValue {
    /// `group.instance.id`, if static.
    pub instance_id: Option<String>,
    /// `client.rack`, if given.
    pub rack_id: Option<String>,
    /// The client id.
    pub client_id: String,
    /// The client host.
    pub client_host: String,
    /// The subscribed topic names.
    pub subscribed_topic_names: Vec<String>,
    /// The subscribed regex, if any.
    pub subscribed_topic_regex: Option<String>,
    /// The preferred server assignor, if any.
    pub server_assignor: Option<String>,
    /// The rebalance timeout.
    pub rebalance_timeout_ms: i32,
    /// For a member that uses the classic protocol in a mixed group (Kafka's
    /// `ClassicMemberMetadata`): its session timeout and JoinGroup protocols.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub classic_member_metadata: Option<ClassicMemberMetadata>,
}

/// A classic-protocol member of a consumer group (mixed group, reference §10).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassicMemberMetadata {
    /// `session.timeout.ms` from its JoinGroup.
    pub session_timeout_ms: i32,
    /// Its JoinGroup protocols, in its order of preference.
    pub supported_protocols: Vec<JoinGroupProtocol>,
}

/// The value of [`RecordBody::ConsumerGroupCurrentMemberAssignment`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConsumerCurrentAssignmentValue {
    /// The member epoch.
    pub member_epoch: i32,
    /// The previous member epoch.
    pub previous_member_epoch: i32,
    /// `MemberState::value()` (0, 1, 2; an unknown value reads back as `UNKNOWN`).
    pub state: i8,
    /// The assigned partitions.
    pub assigned_partitions: Partitions,
    /// The partitions pending revocation.
    pub partitions_pending_revocation: Partitions,
    /// Kafka 4.3+ (KIP-1251): the epoch at which the member received each partition it owns
    /// (assigned or pending revocation), topic → partition → epoch; empty before 4.3.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub assignment_epochs: Map<String, Map<i32, i32>>,
}

impl RecordBody {
    /// The group the record belongs to.
    pub fn group_id(&self) -> &str {
        match self {
            Self::GroupMetadata(r) => &r.group_id,
            Self::GroupTombstone { group_id } | Self::OffsetTombstone { group_id, .. } => group_id,
            Self::OffsetCommit(r) => &r.group_id,
            Self::ConsumerGroupMetadata { group_id, .. }
            | Self::ConsumerGroupMemberMetadata { group_id, .. }
            | Self::ConsumerGroupTargetAssignmentMetadata { group_id, .. }
            | Self::ConsumerGroupTargetAssignmentMember { group_id, .. }
            | Self::ConsumerGroupCurrentMemberAssignment { group_id, .. } => group_id,
        }
    }
}

/// `t-0, t-1` style for a consumer assignment.
struct Parts<'a>(&'a Partitions);

impl fmt::Display for Parts<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        let mut first = true;
        for (t, ps) in self.0 {
            for p in ps {
                if !first {
                    f.write_str(", ")?;
                }
                first = false;
                write!(f, "{t}-{p}")?;
            }
        }
        f.write_str("]")
    }
}

/// A group's persisted metadata: enough to bring it back Stable (or Empty) on another coordinator.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupMetadataRecord {
    /// The group id.
    pub group_id: String,
    /// The protocol type, if any member ever joined.
    pub protocol_type: Option<String>,
    /// The generation.
    pub generation_id: i32,
    /// The selected protocol (absent when Empty).
    pub protocol_name: Option<String>,
    /// The leader (absent when Empty).
    pub leader: Option<String>,
    /// When the group entered its current state (Kafka: `currentStateTimestamp`); offset expiry of an
    /// Empty group counts from it.
    pub current_state_timestamp: SimTime,
    /// The members with their assignments.
    pub members: Vec<MemberMetadataRecord>,
    /// The next member-id sequence number, so that ids stay unique after a coordinator move. Not in
    /// Kafka, whose ids end in a UUID.
    pub next_member_seq: u64,
}

/// One member in a [`GroupMetadataRecord`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberMetadataRecord {
    /// The member id.
    pub member_id: String,
    /// Its `group.instance.id`, if static.
    pub group_instance_id: Option<String>,
    /// Its client id.
    pub client_id: String,
    /// Its host.
    pub client_host: String,
    /// Its rebalance timeout.
    pub rebalance_timeout_ms: i32,
    /// Its session timeout.
    pub session_timeout_ms: i32,
    /// Its metadata for the selected protocol.
    pub subscription: ConsumerSubscription,
    /// Its assignment.
    pub assignment: ConsumerAssignment,
}

/// A committed offset.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OffsetCommitRecord {
    /// The group id.
    pub group_id: String,
    /// The partition.
    pub topic_partition: TopicPartition,
    /// The offset.
    pub committed_offset: i64,
    /// The leader epoch, or -1.
    pub committed_leader_epoch: i32,
    /// The metadata string.
    pub metadata: String,
    /// When it was committed.
    pub commit_timestamp: SimTime,
    /// An explicit expiry (OffsetCommit v2–v4 `retentionTimeMs`).
    pub expire_timestamp: Option<SimTime>,
}

impl fmt::Display for RecordBody {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::GroupMetadata(r) => {
                write!(
                    f,
                    "group metadata for {}: generation {}, protocol {}, leader {}, {} member(s)",
                    r.group_id,
                    r.generation_id,
                    r.protocol_name.as_deref().unwrap_or("-"),
                    r.leader.as_deref().unwrap_or("-"),
                    r.members.len()
                )?;
                if !r.members.is_empty() {
                    f.write_str(" [")?;
                    for (i, m) in r.members.iter().enumerate() {
                        if i > 0 {
                            f.write_str("; ")?;
                        }
                        write!(
                            f,
                            "{} -> {}",
                            m.member_id,
                            super::event::Partitions(&m.assignment.partitions)
                        )?;
                    }
                    f.write_str("]")?;
                }
                Ok(())
            }
            Self::GroupTombstone { group_id } => write!(f, "group tombstone for {group_id}"),
            Self::OffsetCommit(r) => write!(
                f,
                "offset commit for {}: {} = {} (leader epoch {}, metadata {:?}{})",
                r.group_id,
                r.topic_partition,
                r.committed_offset,
                r.committed_leader_epoch,
                r.metadata,
                match r.expire_timestamp {
                    Some(t) => format!(", expires at {t}"),
                    None => String::new(),
                }
            ),
            Self::OffsetTombstone {
                group_id,
                topic_partition,
            } => {
                write!(f, "offset tombstone for {group_id}: {topic_partition}")
            }
            Self::ConsumerGroupMetadata { group_id, value } => match value {
                Some(v) => write!(f, "consumer group metadata for {group_id}: epoch {}", v.epoch),
                None => write!(f, "consumer group metadata tombstone for {group_id}"),
            },
            Self::ConsumerGroupMemberMetadata {
                group_id,
                member_id,
                value,
            } => match value {
                Some(v) => {
                    write!(
                        f,
                        "member metadata for {group_id}/{member_id}: topics [{}]",
                        v.subscribed_topic_names.join(", ")
                    )?;
                    if let Some(r) = &v.subscribed_topic_regex {
                        write!(f, ", regex {r:?}")?;
                    }
                    if let Some(i) = &v.instance_id {
                        write!(f, ", instance {i:?}")?;
                    }
                    if let Some(a) = &v.server_assignor {
                        write!(f, ", assignor {a}")?;
                    }
                    write!(f, ", rebalance timeout {}ms", v.rebalance_timeout_ms)?;
                    match &v.classic_member_metadata {
                        Some(c) => write!(
                            f,
                            ", classic protocol (session timeout {}ms)",
                            c.session_timeout_ms
                        ),
                        None => Ok(()),
                    }
                }
                None => write!(f, "member metadata tombstone for {group_id}/{member_id}"),
            },
            Self::ConsumerGroupTargetAssignmentMetadata {
                group_id,
                assignment_epoch,
                assignment_timestamp_ms,
            } => match assignment_epoch {
                Some(e) => {
                    write!(f, "target assignment metadata for {group_id}: epoch {e}")?;
                    match assignment_timestamp_ms {
                        Some(t) => write!(f, ", computed at {t}ms"),
                        None => Ok(()),
                    }
                }
                None => write!(f, "target assignment metadata tombstone for {group_id}"),
            },
            Self::ConsumerGroupTargetAssignmentMember {
                group_id,
                member_id,
                partitions,
            } => match partitions {
                Some(p) => write!(f, "target assignment for {group_id}/{member_id}: {}", Parts(p)),
                None => write!(f, "target assignment tombstone for {group_id}/{member_id}"),
            },
            Self::ConsumerGroupCurrentMemberAssignment {
                group_id,
                member_id,
                value,
            } => match value {
                Some(v) => {
                    write!(
                        f,
                        "current assignment for {group_id}/{member_id}: epoch {} (previous {}), {}, assigned {}",
                        v.member_epoch,
                        v.previous_member_epoch,
                        MemberState::from_value(v.state),
                        Parts(&v.assigned_partitions)
                    )?;
                    if !v.partitions_pending_revocation.is_empty() {
                        write!(
                            f,
                            ", pending revocation {}",
                            Parts(&v.partitions_pending_revocation)
                        )?;
                    }
                    Ok(())
                }
                None => write!(f, "current assignment tombstone for {group_id}/{member_id}"),
            },
        }
    }
}
