//! What the coordinator persists in its `__consumer_offsets` partitions, and reads back on load.
//!
//! Kafka writes two kinds of record there: group metadata (after a rebalance, when the group empties,
//! when a static member is replaced) and committed offsets; a record with no value (a tombstone)
//! deletes. The caller can read a partition's log ([`crate::Coordinator::log`]), replicate it, and feed
//! it to another coordinator's [`crate::Coordinator::load`].

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::protocol::{ConsumerAssignment, ConsumerSubscription, TopicPartition};
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
}

impl RecordBody {
    /// The group the record belongs to.
    pub fn group_id(&self) -> &str {
        match self {
            Self::GroupMetadata(r) => &r.group_id,
            Self::GroupTombstone { group_id } | Self::OffsetTombstone { group_id, .. } => group_id,
            Self::OffsetCommit(r) => &r.group_id,
        }
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
        }
    }
}
