//! Who owns each partition, at which epoch (Kafka: `ConsumerGroup.currentPartitionEpoch`).

use crate::collections::Map;
use std::fmt;

use super::{CurrentAssignment, Partitions};

/// The epoch of every partition that some member owns, assigned or pending revocation. A partition
/// has at most one owner; one that is absent is free (epoch -1).
///
/// Kafka keeps this map up to date on every member update (`maybeUpdatePartitionEpoch`): the old
/// record's partitions are removed at the old member epoch, then the new record's assigned and
/// pending-revocation partitions are added at the new member epoch. [`PartitionEpochs::update_member`]
/// is that step.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PartitionEpochs {
    epochs: Map<String, Map<i32, i32>>,
}

/// Adding a partition at an epoch not newer than its current owner's (Kafka throws
/// `IllegalStateException`: the single-owner invariant would break, so it is a coordinator bug).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartitionEpochConflict {
    /// The topic.
    pub topic: String,
    /// The partition.
    pub partition: i32,
    /// The epoch that was to be set.
    pub epoch: i32,
    /// The epoch the partition is still owned at.
    pub owned_at: i32,
}

impl fmt::Display for PartitionEpochConflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Kafka's message, with the topic name where Kafka prints the topic id.
        write!(
            f,
            "Cannot set the epoch of {}-{} to {} because the partition is still owned at epoch {}",
            self.topic, self.partition, self.epoch, self.owned_at
        )
    }
}

impl std::error::Error for PartitionEpochConflict {}

impl PartitionEpochs {
    /// No partition owned.
    pub fn new() -> Self {
        Self::default()
    }

    /// The epoch of the partition's owner, or -1 if it is free.
    pub fn epoch(&self, topic: &str, partition: i32) -> i32 {
        self.epochs
            .get(topic)
            .and_then(|p| p.get(&partition))
            .copied()
            .unwrap_or(-1)
    }

    /// Records `partitions` as owned at `epoch` (Kafka: `addPartitionEpochs`). A partition already
    /// owned at an older epoch is taken over, as in Kafka.
    ///
    /// # Errors
    ///
    /// The first partition already owned at `epoch` or newer; partitions before it (in topic and
    /// partition order) have been updated.
    pub fn add(&mut self, partitions: &Partitions, epoch: i32) -> Result<(), PartitionEpochConflict> {
        for (topic, set) in partitions {
            for &partition in set {
                let owners = self.epochs.get(topic.as_str());
                // A static member that left temporarily owns its partitions at epoch -2: "free" is
                // absence, not the -1 that `epoch` answers.
                if let Some(&owned_at) = owners.and_then(|o| o.get(&partition)).filter(|&&e| e >= epoch) {
                    return Err(PartitionEpochConflict {
                        topic: topic.clone(),
                        partition,
                        epoch,
                        owned_at,
                    });
                }
                self.epochs
                    .entry(topic.clone())
                    .or_default()
                    .insert(partition, epoch);
            }
        }
        Ok(())
    }

    /// Frees `partitions` where they are owned at `expected_epoch`; others are left alone (Kafka:
    /// `removePartitionEpochs`, which only logs a mismatch at debug level).
    pub fn remove(&mut self, partitions: &Partitions, expected_epoch: i32) {
        for (topic, set) in partitions {
            if let Some(owners) = self.epochs.get_mut(topic) {
                owners.retain(|p, epoch| !(set.contains(p) && *epoch == expected_epoch));
            }
        }
        self.epochs.retain(|_, owners| !owners.is_empty());
    }

    /// The update for a member's new record: `old`'s partitions (assigned and pending revocation)
    /// are freed at its epoch, then `new`'s are added at its epoch. `old` is `None` for a new member;
    /// a removed member is `remove`d with its epoch.
    ///
    /// # Errors
    ///
    /// [`PartitionEpochConflict`] if `new` claims a partition that another member owns at its epoch
    /// or a newer one.
    pub fn update_member(
        &mut self,
        old: Option<&CurrentAssignment>,
        new: &CurrentAssignment,
    ) -> Result<(), PartitionEpochConflict> {
        if let Some(old) = old {
            self.remove_member(old);
        }
        self.add(&new.assigned_partitions, new.member_epoch)?;
        self.add(&new.partitions_pending_revocation, new.member_epoch)
    }

    /// Frees a removed member's partitions (Kafka: `maybeRemovePartitionEpoch`).
    pub fn remove_member(&mut self, member: &CurrentAssignment) {
        self.remove(&member.assigned_partitions, member.member_epoch);
        self.remove(&member.partitions_pending_revocation, member.member_epoch);
    }
}
