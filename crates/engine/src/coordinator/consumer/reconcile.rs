//! The reconciliation engine: one member's step towards its target assignment (Kafka:
//! `modern.consumer.CurrentAssignmentBuilder`, 4.1 behaviour; reference §3.2).

use crate::collections::Set;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::coordinator::version::KafkaRelease;
use crate::protocol::ErrorCode;

use super::{normalized, MemberState, Partitions};

/// The part of a member that reconciliation reads and writes: what Kafka persists in the
/// `ConsumerGroupCurrentMemberAssignment` record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CurrentAssignment {
    /// The member's reconciliation state.
    pub state: MemberState,
    /// The member epoch: the epoch of the target the member has converged to (or may claim).
    pub member_epoch: i32,
    /// The epoch before the last update, even if it was equal (used only to accept the retry of a
    /// heartbeat whose response was lost, reference §4.4).
    pub previous_member_epoch: i32,
    /// The partitions the member may use, including those just granted. This is what heartbeat
    /// responses carry.
    pub assigned_partitions: Partitions,
    /// The partitions the member must give up before it may move on.
    pub partitions_pending_revocation: Partitions,
}

impl Default for CurrentAssignment {
    /// A new member (`ConsumerGroupMember.Builder` defaults): `STABLE` at epoch 0, previous epoch -1,
    /// owning nothing.
    fn default() -> Self {
        Self {
            state: MemberState::Stable,
            member_epoch: 0,
            previous_member_epoch: -1,
            assigned_partitions: Partitions::new(),
            partitions_pending_revocation: Partitions::new(),
        }
    }
}

impl CurrentAssignment {
    /// Whether the member has converged to the target of `target_epoch` (Kafka:
    /// `ModernGroupMember.isReconciledTo`): `STABLE` at exactly that epoch.
    pub fn is_reconciled_to(&self, target_epoch: i32) -> bool {
        self.state == MemberState::Stable && self.member_epoch == target_epoch
    }

    /// Kafka's `Builder.updateMemberEpoch`: the previous epoch takes the current one, even when the
    /// new epoch is the same.
    fn update_member_epoch(&mut self, epoch: i32) {
        self.previous_member_epoch = self.member_epoch;
        self.member_epoch = epoch;
    }
}

/// The member's stored state is [`MemberState::Unknown`] and its heartbeat still reports partitions
/// (or reports nothing). The coordinator answers `FENCED_MEMBER_EPOCH`; the member must abandon all
/// its partitions and rejoin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownMemberState;

impl UnknownMemberState {
    /// The error the heartbeat answers with.
    pub const fn error_code(self) -> ErrorCode {
        ErrorCode::FencedMemberEpoch
    }
}

impl fmt::Display for UnknownMemberState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Kafka's FencedMemberEpochException message, verbatim.
        f.write_str(
            "The consumer group member is in a unknown state. The member must abandon all its partitions and rejoin.",
        )
    }
}

impl std::error::Error for UnknownMemberState {}

/// The inputs of one reconciliation step; [`CurrentAssignmentBuilder::build`] is the step.
///
/// ```
/// use rebalance_engine::coordinator::consumer::{CurrentAssignment, CurrentAssignmentBuilder, MemberState, Partitions};
/// use rebalance_engine::coordinator::KafkaRelease;
///
/// let p = |ps: &[i32]| Partitions::from([("orders".to_string(), ps.iter().copied().collect())]);
/// // A STABLE member at epoch 10 owning 0, 1 and 2; the target at epoch 11 moves 0 away.
/// let member = CurrentAssignment {
///     member_epoch: 10,
///     previous_member_epoch: 10,
///     assigned_partitions: p(&[0, 1, 2]),
///     ..CurrentAssignment::default()
/// };
/// let next = CurrentAssignmentBuilder {
///     member: &member,
///     target_epoch: 11,
///     target: &p(&[1, 2]),
///     partition_epoch: &|_, _| 10,
///     owned: None,
///     version: KafkaRelease::V4_1,
///     subscribed_topics: None,
/// }
/// .build()?;
/// // Revoke before reassign: the member keeps epoch 10 until it acknowledges.
/// assert_eq!(next.state, MemberState::UnrevokedPartitions);
/// assert_eq!((next.member_epoch, next.assigned_partitions), (10, p(&[1, 2])));
/// assert_eq!(next.partitions_pending_revocation, p(&[0]));
/// # Ok::<(), rebalance_engine::coordinator::consumer::UnknownMemberState>(())
/// ```
pub struct CurrentAssignmentBuilder<'a> {
    /// The member as stored.
    pub member: &'a CurrentAssignment,
    /// The target assignment epoch.
    pub target_epoch: i32,
    /// This member's target assignment.
    pub target: &'a Partitions,
    /// The epoch of a partition's current owner (assigned *or* pending revocation), or -1 if nobody
    /// owns it (Kafka: `ConsumerGroup.currentPartitionEpoch`, e.g. [`super::PartitionEpochs::epoch`]).
    pub partition_epoch: &'a dyn Fn(&str, i32) -> i32,
    /// The partitions the member reported in this heartbeat (`TopicPartitions`), or `None` if the
    /// heartbeat did not report them, in which case the member is assumed to still own everything.
    /// Converted from the wire keeping every listed topic, even with no partitions: Kafka's `UNKNOWN`
    /// rule asks for an empty *list*.
    pub owned: Option<&'a Partitions>,
    /// The Kafka line whose rules apply (reference §12 V6, V7).
    pub version: KafkaRelease,
    /// The topics the member subscribes to (names and resolved regex), sorted, or `None` if not
    /// known (an unresolved regex). Read from 4.2 on: partitions of other topics are revoked at
    /// once and never granted (KAFKA-19431, §12 V6).
    pub subscribed_topics: Option<&'a [String]>,
}

impl CurrentAssignmentBuilder<'_> {
    /// The member's next state. It equals `*self.member` when the member cannot move (Kafka's
    /// coordinator writes a record only if it differs).
    ///
    /// * `STABLE`: if a target newer than the member epoch exists, reconcile towards it from the
    ///   member epoch; otherwise stay.
    /// * `UNREVOKED_PARTITIONS`: stay while the member still owns (or does not report) a partition
    ///   pending revocation; once it acknowledged, reconcile with epoch `member_epoch + 1` (4.1 and
    ///   earlier; 4.2 drops the `+ 1`, KAFKA-19974).
    /// * 4.2+ (KAFKA-19431): where the member stays (`STABLE` at the target epoch, or
    ///   `UNREVOKED_PARTITIONS` still owning), assigned partitions of topics it no longer
    ///   subscribes to move to pending revocation (`UNREVOKED_PARTITIONS`, same epoch); and
    ///   reconciling treats the target of such a topic as empty.
    /// * `UNRELEASED_PARTITIONS`: reconcile again, picking up partitions released since.
    /// * `UNKNOWN`: [`UnknownMemberState`] unless the heartbeat reports owning nothing; then
    ///   reconcile from scratch to the target epoch.
    ///
    /// Reconciling (`computeNextAssignment`), per topic: `kept = assigned ∩ target`, `revoke =
    /// assigned − kept`, and `grant = target − kept` minus the *unreleased* partitions, those another
    /// member owns (a partition epoch other than -1 that is not this member's own pending revocation,
    /// KAFKA-19449). Then, in this order:
    ///
    /// 1. something to revoke that the member still owns → `UNREVOKED_PARTITIONS` at the given epoch,
    ///    assigned = kept, pending revocation = revoke;
    /// 2. something to grant → `STABLE` (or `UNRELEASED_PARTITIONS` if some were unreleased) at the
    ///    target epoch, assigned = kept ∪ grant;
    /// 3. only unreleased partitions → `UNRELEASED_PARTITIONS` at the target epoch, assigned = kept;
    /// 4. nothing → `STABLE` at the target epoch, assigned = kept.
    ///
    /// # Errors
    ///
    /// [`UnknownMemberState`], for a member in state `UNKNOWN` whose heartbeat does not report an
    /// empty ownership.
    pub fn build(&self) -> Result<CurrentAssignment, UnknownMemberState> {
        let member = self.member;
        Ok(match member.state {
            MemberState::Stable if member.member_epoch != self.target_epoch => {
                self.compute_next(member.member_epoch)
            }
            MemberState::Stable => self.compute_current(),
            MemberState::UnrevokedPartitions => {
                if self.owns_any(&member.partitions_pending_revocation) {
                    self.compute_current()
                } else if self.version.unrevoked_plus_one() {
                    self.compute_next(member.member_epoch + 1)
                } else {
                    self.compute_next(member.member_epoch)
                }
            }
            MemberState::UnreleasedPartitions => self.compute_next(member.member_epoch),
            MemberState::Unknown => match self.owned {
                Some(owned) if owned.is_empty() => self.compute_next(self.target_epoch),
                _ => return Err(UnknownMemberState),
            },
        })
    }

    /// Whether the member still owns a partition of `partitions` (Kafka: `ownsRevokedPartitions`). A
    /// heartbeat that does not report ownership owns everything.
    fn owns_any(&self, partitions: &Partitions) -> bool {
        let Some(owned) = self.owned else {
            return true;
        };
        owned
            .iter()
            .any(|(topic, owned)| partitions.get(topic).is_some_and(|set| !set.is_disjoint(owned)))
    }

    /// The subscribed topics when the 4.2+ rule reads them.
    fn subscription(&self) -> Option<&[String]> {
        self.subscribed_topics
            .filter(|_| self.version.revokes_unsubscribed_at_once())
    }

    /// Kafka 4.2+'s `computeCurrentAssignment`: the member stays at its epoch, but assigned
    /// partitions of topics it no longer subscribes to join its pending revocations. Before 4.2,
    /// and when nothing is unsubscribed, the member as it is.
    fn compute_current(&self) -> CurrentAssignment {
        let member = self.member;
        let Some(subscribed) = self.subscription() else {
            return member.clone();
        };
        let gone: Vec<&String> = member
            .assigned_partitions
            .keys()
            .filter(|t| subscribed.binary_search(t).is_err())
            .collect();
        if gone.is_empty() {
            return member.clone();
        }
        let mut next = member.clone();
        for t in gone {
            if let Some(ps) = next.assigned_partitions.remove(t) {
                next.partitions_pending_revocation
                    .entry(t.clone())
                    .or_default()
                    .extend(ps);
            }
        }
        next.state = MemberState::UnrevokedPartitions;
        next
    }

    /// Kafka's `computeNextAssignment(memberEpoch, member.assignedPartitions())`.
    fn compute_next(&self, epoch: i32) -> CurrentAssignment {
        let member = self.member;
        let empty = Set::new();
        let mut kept_all = Partitions::new();
        let mut revoke_all = Partitions::new();
        let mut grant_all = Partitions::new();
        let mut has_unreleased = false;

        let topics = Set::from_iter(self.target.keys().chain(member.assigned_partitions.keys()));
        for topic in topics {
            let unsubscribed = self
                .subscription()
                .is_some_and(|s| s.binary_search(topic).is_err());
            let target = match self.target.get(topic) {
                Some(t) if !unsubscribed => t,
                _ => &empty,
            };
            let current = member.assigned_partitions.get(topic).unwrap_or(&empty);
            let own_pending = member.partitions_pending_revocation.get(topic).unwrap_or(&empty);

            let kept = Set::from_iter(current.intersection(target).copied());
            let revoke = Set::from_iter(current.difference(&kept).copied());
            let mut grant = Set::from_iter(target.difference(&kept).copied());
            let before = grant.len();
            grant.retain(|&p| (self.partition_epoch)(topic, p) == -1 || own_pending.contains(&p));
            has_unreleased |= grant.len() < before;

            kept_all.insert(topic.clone(), kept);
            revoke_all.insert(topic.clone(), revoke);
            grant_all.insert(topic.clone(), grant);
        }
        let kept = normalized(kept_all);
        let revoke = normalized(revoke_all);
        let grant = normalized(grant_all);

        let mut next = member.clone();
        if !revoke.is_empty() && self.owns_any(&revoke) {
            next.state = MemberState::UnrevokedPartitions;
            next.update_member_epoch(epoch);
            next.assigned_partitions = kept;
            next.partitions_pending_revocation = revoke;
        } else {
            next.state = if has_unreleased {
                MemberState::UnreleasedPartitions
            } else {
                MemberState::Stable
            };
            next.update_member_epoch(self.target_epoch);
            let mut assigned = kept;
            for (topic, partitions) in grant {
                assigned.entry(topic).or_default().extend(partitions);
            }
            next.assigned_partitions = assigned;
            next.partitions_pending_revocation = Partitions::new();
        }
        next
    }
}
