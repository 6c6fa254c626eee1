//! The consumer group's state (derived) and a member's reconciliation state.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The state of a consumer group (Kafka: `ConsumerGroup.ConsumerGroupState`, 3.8+ names).
///
/// It is never stored: Kafka recomputes it after every change of a member, the group epoch or the
/// target assignment epoch (`maybeUpdateGroupState`), by the rule in [`ConsumerGroupState::derive`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum ConsumerGroupState {
    /// No members.
    Empty,
    /// The group epoch is ahead of the target assignment epoch: a new target is due. Up to 4.2 the
    /// target is computed in the same write that bumps the epoch on a join or a subscription change,
    /// so this state is committed only after a leave or a fence, until the next heartbeat.
    Assigning,
    /// The target is computed, but some member has not converged to it.
    Reconciling,
    /// Every member is `STABLE` at the target assignment epoch.
    Stable,
    /// Kafka has the name, but in 4.1 no code path sets it on a consumer group: deleted groups
    /// simply disappear, and only the classic `DescribeGroups` reports `Dead` for a consumer group.
    /// [`ConsumerGroupState::derive`] never returns it.
    Dead,
}

impl ConsumerGroupState {
    /// The five states, in Kafka's declaration order.
    pub const ALL: [ConsumerGroupState; 5] = [
        Self::Empty,
        Self::Assigning,
        Self::Reconciling,
        Self::Stable,
        Self::Dead,
    ];

    /// Kafka's name, as `ConsumerGroupDescribe` reports it (`Empty`, `Assigning`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Self::Empty => "Empty",
            Self::Assigning => "Assigning",
            Self::Reconciling => "Reconciling",
            Self::Stable => "Stable",
            Self::Dead => "Dead",
        }
    }

    /// The state of a group with these epochs and members, each given as its `(state, member epoch)`
    /// (Kafka: `ConsumerGroup.maybeUpdateGroupState`, reference §2):
    ///
    /// 1. no members → `Empty`, whatever the epochs;
    /// 2. `group_epoch > target_assignment_epoch` → `Assigning`;
    /// 3. some member is not reconciled to the target (not `STABLE` at exactly
    ///    `target_assignment_epoch`, `ModernGroupMember.isReconciledTo`) → `Reconciling`;
    /// 4. otherwise `Stable`.
    pub fn derive<I>(group_epoch: i32, target_assignment_epoch: i32, members: I) -> Self
    where
        I: IntoIterator<Item = (MemberState, i32)>,
    {
        let mut members = members.into_iter().peekable();
        if members.peek().is_none() {
            Self::Empty
        } else if group_epoch > target_assignment_epoch {
            Self::Assigning
        } else if members
            .any(|(state, epoch)| !(state == MemberState::Stable && epoch == target_assignment_epoch))
        {
            Self::Reconciling
        } else {
            Self::Stable
        }
    }
}

impl fmt::Display for ConsumerGroupState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where a member is in converging to its target assignment (Kafka: `modern.MemberState`, 3.8+).
/// Serialized with Kafka's names (`"UNREVOKED_PARTITIONS"`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum MemberState {
    /// Converged to the target, or no newer target exists.
    #[default]
    Stable,
    /// Must revoke its partitions pending revocation before it may move to the next epoch; it stays
    /// at its current epoch until its heartbeat no longer reports them.
    UnrevokedPartitions,
    /// At the target epoch, but some target partitions are still owned by other members.
    UnreleasedPartitions,
    /// A state written by a newer coordinator (after a downgrade): the member is fenced and must
    /// rejoin with no partitions.
    Unknown,
}

impl MemberState {
    /// The four states, in Kafka's declaration order.
    pub const ALL: [MemberState; 4] = [
        Self::Stable,
        Self::UnrevokedPartitions,
        Self::UnreleasedPartitions,
        Self::Unknown,
    ];

    /// The value stored in the `ConsumerGroupCurrentMemberAssignment` record.
    pub const fn value(self) -> i8 {
        match self {
            Self::Stable => 0,
            Self::UnrevokedPartitions => 1,
            Self::UnreleasedPartitions => 2,
            Self::Unknown => 127,
        }
    }

    /// The state a stored value means; a value this version does not know is `Unknown` (Kafka:
    /// `MemberState.fromValue`).
    pub fn from_value(value: i8) -> Self {
        Self::ALL
            .into_iter()
            .find(|s| s.value() == value)
            .unwrap_or(Self::Unknown)
    }

    /// Kafka's name, e.g. `UNREVOKED_PARTITIONS`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Stable => "STABLE",
            Self::UnrevokedPartitions => "UNREVOKED_PARTITIONS",
            Self::UnreleasedPartitions => "UNRELEASED_PARTITIONS",
            Self::Unknown => "UNKNOWN",
        }
    }
}

impl fmt::Display for MemberState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
