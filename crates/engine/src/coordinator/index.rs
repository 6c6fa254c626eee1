//! The latest record of every key of a `__consumer_offsets` log, kept up to date as the log grows
//! (appends, follower fetches) and shrinks (leader-epoch truncation), so that a broker taking over
//! the partition loads its groups from those records alone instead of replaying the whole history.
//!
//! Kafka's partition is compacted: old records of a key are eventually deleted and a load reads
//! what is left. The playground does not compact by default (the UI shows every record), so without
//! this index every coordinator failover would replay everything ever committed; when the
//! simulation compacts ([`crate::Simulation::set_log_compaction`]) the index drops its per-offset
//! entries below the compacted point and keeps the latest offsets. The index gives a load exactly
//! what replaying the whole log would conclude: for each key (a group's metadata, or one group's
//! offset of one topic-partition) its last record, tombstones included.

use crate::collections::Map;

use super::records::RecordBody;

/// "No record" in offset vectors.
const NONE: u64 = u64::MAX;

/// Numbers every record key, in order of first appearance, so that an index compares integers
/// rather than group and topic names. Shared by every replica of a partition: a key has the same
/// number in each replica's index.
#[derive(Clone, Debug, Default)]
pub(crate) struct KeyIds {
    groups: Map<String, GroupKeys>,
    next: u32,
}

#[derive(Clone, Debug, Default)]
struct GroupKeys {
    metadata: Option<u32>,
    /// Topic → partition → key.
    offsets: Map<String, Map<i32, u32>>,
    /// A consumer group's metadata and target-assignment metadata keys.
    consumer_metadata: Option<u32>,
    target_metadata: Option<u32>,
    /// Member → its subscription, target and current-assignment keys.
    consumer_members: Map<String, [Option<u32>; 3]>,
}

impl KeyIds {
    /// The number of `body`'s key (Kafka: `GroupMetadataKey` for group metadata and its tombstone,
    /// `OffsetCommitKey` for an offset and its tombstone), numbering it if it is new.
    pub(crate) fn id(&mut self, body: &RecordBody) -> u32 {
        let next = &mut self.next;
        let fresh = || {
            let id = *next;
            *next += 1;
            id
        };
        let group = body.group_id();
        let keys = match self.groups.get_mut(group) {
            Some(k) => k,
            None => self.groups.entry(group.to_owned()).or_default(),
        };
        match body {
            RecordBody::GroupMetadata(_) | RecordBody::GroupTombstone { .. } => {
                *keys.metadata.get_or_insert_with(fresh)
            }
            RecordBody::OffsetCommit(r) => {
                offset_key(keys, &r.topic_partition.topic, r.topic_partition.partition, fresh)
            }
            RecordBody::OffsetTombstone { topic_partition, .. } => {
                offset_key(keys, &topic_partition.topic, topic_partition.partition, fresh)
            }
            RecordBody::ConsumerGroupMetadata { .. } => *keys.consumer_metadata.get_or_insert_with(fresh),
            RecordBody::ConsumerGroupTargetAssignmentMetadata { .. } => {
                *keys.target_metadata.get_or_insert_with(fresh)
            }
            RecordBody::ConsumerGroupMemberMetadata { member_id, .. } => {
                member_key(keys, member_id, 0, fresh)
            }
            RecordBody::ConsumerGroupTargetAssignmentMember { member_id, .. } => {
                member_key(keys, member_id, 1, fresh)
            }
            RecordBody::ConsumerGroupCurrentMemberAssignment { member_id, .. } => {
                member_key(keys, member_id, 2, fresh)
            }
        }
    }
}

fn member_key(keys: &mut GroupKeys, member_id: &str, which: usize, fresh: impl FnOnce() -> u32) -> u32 {
    let slots = match keys.consumer_members.get_mut(member_id) {
        Some(s) => s,
        None => keys.consumer_members.entry(member_id.to_owned()).or_default(),
    };
    *slots[which].get_or_insert_with(fresh)
}

fn offset_key(keys: &mut GroupKeys, topic: &str, partition: i32, fresh: impl FnOnce() -> u32) -> u32 {
    let by_partition = match keys.offsets.get_mut(topic) {
        Some(m) => m,
        None => keys.offsets.entry(topic.to_owned()).or_default(),
    };
    *by_partition.entry(partition).or_insert_with(fresh)
}

/// For one log: each record's key, the offset of the previous record of the same key (to undo a
/// truncation), and the offset of each key's latest record. With a compacted log
/// ([`LatestIndex::drop_prefix`]) the first two are kept from the log's `base` on only (the log
/// keeps each key's latest record before `base` apart, and never truncates below `base`).
#[derive(Clone, Debug, Default)]
pub(crate) struct LatestIndex {
    /// The offset of `keys[0]` and `prev[0]`.
    base: u64,
    /// The key of the record at each offset from `base` on.
    keys: Vec<u32>,
    /// The offset of the previous record of the same key, for each offset from `base` on (`NONE`
    /// if first; it may be below `base`).
    prev: Vec<u64>,
    /// The offset of each key's latest record, by key number (`NONE` if none in this log).
    latest: Vec<u64>,
}

impl LatestIndex {
    /// Records the next record of the log (at offset `self.len()`), of key `key`.
    pub(crate) fn push(&mut self, key: u32) {
        let offset = self.base + self.keys.len() as u64;
        let k = key as usize;
        if self.latest.len() <= k {
            self.latest.resize(k + 1, NONE);
        }
        self.prev.push(self.latest[k]);
        self.latest[k] = offset;
        self.keys.push(key);
    }

    /// The key of the record at `offset` (at least the base).
    pub(crate) fn key(&self, offset: usize) -> u32 {
        self.keys[offset - self.base as usize]
    }

    /// The log lost every record from offset `keep` (at least the base) on: each key's latest
    /// record goes back to the one before the removed ones.
    pub(crate) fn truncate(&mut self, keep: usize) {
        debug_assert!(keep as u64 >= self.base, "truncation below the compacted prefix");
        while self.base as usize + self.keys.len() > keep {
            let k = self.keys.pop().expect("longer than keep") as usize;
            let prev = self.prev.pop().expect("one per record");
            self.latest[k] = prev;
        }
    }

    /// Forgets the keys and back links of the first `n` offsets from the base (the log compacted
    /// them): the base moves up by `n`. The latest offsets stay.
    pub(crate) fn drop_prefix(&mut self, n: usize) {
        self.keys.drain(..n);
        self.prev.drain(..n);
        self.base += n as u64;
    }

    /// Each key with a record in this log and the offset of its latest record, by key number.
    pub(crate) fn latest_by_key(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        self.latest
            .iter()
            .enumerate()
            .filter(|(_, o)| **o != NONE)
            .map(|(k, o)| (k as u32, *o))
    }

    /// The offset of each key's latest record, by key number.
    pub(crate) fn latest_offsets(&self) -> impl Iterator<Item = usize> + '_ {
        self.latest.iter().filter(|o| **o != NONE).map(|o| *o as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coordinator::records::OffsetCommitRecord;
    use crate::protocol::TopicPartition;
    use crate::time::SimTime;

    fn commit(group: &str, topic: &str, partition: i32) -> RecordBody {
        RecordBody::OffsetCommit(OffsetCommitRecord {
            group_id: group.into(),
            topic_partition: TopicPartition {
                topic: topic.into(),
                partition,
            },
            committed_offset: 0,
            committed_leader_epoch: -1,
            metadata: String::new(),
            commit_timestamp: SimTime::ZERO,
            expire_timestamp: None,
        })
    }

    #[test]
    fn keys_are_numbered_once_and_tombstones_share_their_key() {
        let mut ids = KeyIds::default();
        let a = ids.id(&commit("g", "t", 0));
        let b = ids.id(&commit("g", "t", 1));
        let c = ids.id(&commit("h", "t", 0));
        let d = ids.id(&RecordBody::GroupTombstone { group_id: "g".into() });
        assert_eq!((a, b, c, d), (0, 1, 2, 3));
        assert_eq!(ids.id(&commit("g", "t", 1)), b);
        assert_eq!(
            ids.id(&RecordBody::OffsetTombstone {
                group_id: "h".into(),
                topic_partition: TopicPartition {
                    topic: "t".into(),
                    partition: 0
                }
            }),
            c
        );
    }

    #[test]
    fn truncation_restores_the_earlier_latest_records() {
        let mut ix = LatestIndex::default();
        for k in [0, 1, 0, 2, 0, 1] {
            ix.push(k);
        }
        assert_eq!(ix.latest_offsets().collect::<Vec<_>>(), vec![4, 5, 3]);
        ix.truncate(4);
        assert_eq!(ix.latest_offsets().collect::<Vec<_>>(), vec![2, 1, 3]);
        ix.truncate(1);
        assert_eq!(ix.latest_offsets().collect::<Vec<_>>(), vec![0]);
        ix.push(2);
        assert_eq!(ix.latest_offsets().collect::<Vec<_>>(), vec![0, 1]);
    }

    #[test]
    fn a_dropped_prefix_keeps_the_latest_offsets_and_truncation_above_it() {
        let mut ix = LatestIndex::default();
        for k in [0, 1, 0, 2, 0, 1] {
            ix.push(k);
        }
        ix.drop_prefix(3);
        assert_eq!(ix.key(3), 2);
        assert_eq!(ix.latest_offsets().collect::<Vec<_>>(), vec![4, 5, 3]);
        // Back to before the prefix's end: key 0's latest is offset 2, below the base.
        ix.truncate(3);
        assert_eq!(ix.latest_offsets().collect::<Vec<_>>(), vec![2, 1]);
        ix.push(1);
        assert_eq!(ix.latest_by_key().collect::<Vec<_>>(), vec![(0, 2), (1, 3)]);
    }
}
