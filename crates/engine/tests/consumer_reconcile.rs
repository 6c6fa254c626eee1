//! The consumer protocol's reconciliation engine (reference §3, Kafka 4.1's `CurrentAssignmentBuilder`),
//! the partition-epoch map it consults, and the derived group state (§2). One test per rule; the Kafka
//! test that shows the same rule is named in the comment.

use rebalance_engine::coordinator::consumer::*;
use rebalance_engine::coordinator::KafkaRelease;
use rebalance_engine::protocol::ErrorCode;

/// Partitions from `(topic, [partitions])` pairs.
fn p(topics: &[(&str, &[i32])]) -> Partitions {
    topics
        .iter()
        .filter(|(_, ps)| !ps.is_empty())
        .map(|(t, ps)| (t.to_string(), ps.iter().copied().collect()))
        .collect()
}

fn member(
    state: MemberState,
    epoch: i32,
    previous: i32,
    assigned: Partitions,
    pending: Partitions,
) -> CurrentAssignment {
    CurrentAssignment {
        state,
        member_epoch: epoch,
        previous_member_epoch: previous,
        assigned_partitions: assigned,
        partitions_pending_revocation: pending,
    }
}

/// One reconciliation step with every partition at epoch `all_epochs`.
fn step(
    m: &CurrentAssignment,
    target_epoch: i32,
    target: &Partitions,
    all_epochs: i32,
    owned: Option<&Partitions>,
) -> CurrentAssignment {
    CurrentAssignmentBuilder {
        member: m,
        target_epoch,
        target,
        partition_epoch: &|_, _| all_epochs,
        owned,
        version: KafkaRelease::V4_1,
        subscribed_topics: None,
    }
    .build()
    .expect("a known state")
}

const FREE: i32 = -1;

// =====================================================================================================
// STABLE
// =====================================================================================================

#[test]
fn a_stable_member_at_the_target_epoch_is_left_unchanged() {
    let m = member(MemberState::Stable, 10, 9, p(&[("foo", &[1, 2])]), p(&[]));
    // Even with a different target: the epochs say there is nothing newer (build() returns the member).
    let next = step(&m, 10, &p(&[("foo", &[1, 2, 3])]), FREE, None);
    assert_eq!(next, m);
}

#[test]
fn a_stable_member_moves_to_a_newer_epoch_when_its_partitions_do_not_change() {
    // testStableToStable: the partitions are owned (by the member itself, epoch 10): nothing to grant.
    let m = member(
        MemberState::Stable,
        10,
        10,
        p(&[("foo", &[1, 2, 3]), ("bar", &[4, 5, 6])]),
        p(&[]),
    );
    let next = step(&m, 11, &m.assigned_partitions.clone(), 10, None);
    assert_eq!(
        next,
        member(MemberState::Stable, 11, 10, m.assigned_partitions.clone(), p(&[]))
    );
}

#[test]
fn a_stable_member_gets_free_partitions_together_with_the_new_epoch() {
    // testStableToStableWithNewPartitions.
    let m = member(
        MemberState::Stable,
        10,
        10,
        p(&[("foo", &[1, 2, 3]), ("bar", &[4, 5, 6])]),
        p(&[]),
    );
    let target = p(&[("foo", &[1, 2, 3, 4]), ("bar", &[4, 5, 6, 7])]);
    let next = step(&m, 11, &target, FREE, None);
    assert_eq!(next, member(MemberState::Stable, 11, 10, target, p(&[])));
}

#[test]
fn a_member_that_must_revoke_keeps_its_epoch_and_is_granted_nothing_yet() {
    // testStableToUnrevokedPartitions: revoke before reassign. foo-4 and bar-7 are free but are not
    // granted until foo-1 and bar-4 are revoked.
    let m = member(
        MemberState::Stable,
        10,
        10,
        p(&[("foo", &[1, 2, 3]), ("bar", &[4, 5, 6])]),
        p(&[]),
    );
    let target = p(&[("foo", &[2, 3, 4]), ("bar", &[5, 6, 7])]);
    let next = step(&m, 11, &target, FREE, None);
    assert_eq!(
        next,
        member(
            MemberState::UnrevokedPartitions,
            10,
            10,
            p(&[("foo", &[2, 3]), ("bar", &[5, 6])]),
            p(&[("foo", &[1]), ("bar", &[4])]),
        )
    );
}

#[test]
fn partitions_another_member_still_owns_are_withheld_but_the_epoch_moves_on() {
    // testStableToUnreleasedPartitions.
    let m = member(
        MemberState::Stable,
        10,
        10,
        p(&[("foo", &[1, 2, 3]), ("bar", &[4, 5, 6])]),
        p(&[]),
    );
    let target = p(&[("foo", &[1, 2, 3, 4]), ("bar", &[4, 5, 6, 7])]);
    let next = step(&m, 11, &target, 10, None);
    assert_eq!(
        next,
        member(
            MemberState::UnreleasedPartitions,
            11,
            10,
            m.assigned_partitions.clone(),
            p(&[])
        )
    );
}

#[test]
fn a_member_that_already_dropped_what_it_must_revoke_skips_the_revocation_step() {
    // testStableToUnreleasedPartitionsWithOwnedPartitionsNotHavingRevokedPartitions (reference C05):
    // the heartbeat reports owning nothing, so bar-6 needs no acknowledgement; bar-7 is still owned
    // elsewhere.
    let m = member(
        MemberState::Stable,
        10,
        10,
        p(&[("foo", &[1, 2, 3]), ("bar", &[4, 5, 6])]),
        p(&[]),
    );
    let target = p(&[("foo", &[1, 2, 3]), ("bar", &[4, 5, 7])]);
    let owned = p(&[]);
    let next = CurrentAssignmentBuilder {
        member: &m,
        target_epoch: 11,
        target: &target,
        partition_epoch: &|topic, _| if topic == "bar" { 10 } else { FREE },
        owned: Some(&owned),
        version: KafkaRelease::V4_1,
        subscribed_topics: None,
    }
    .build()
    .unwrap();
    assert_eq!(
        next,
        member(
            MemberState::UnreleasedPartitions,
            11,
            10,
            p(&[("foo", &[1, 2, 3]), ("bar", &[4, 5])]),
            p(&[]),
        )
    );
}

// =====================================================================================================
// UNREVOKED_PARTITIONS
// =====================================================================================================

fn unrevoked() -> CurrentAssignment {
    member(
        MemberState::UnrevokedPartitions,
        10,
        10,
        p(&[("foo", &[2, 3]), ("bar", &[5, 6])]),
        p(&[("foo", &[1]), ("bar", &[4])]),
    )
}

#[test]
fn an_acknowledged_revocation_moves_the_member_to_the_target_epoch() {
    // testUnrevokedPartitionsToStable: the heartbeat no longer lists foo-1 and bar-4.
    let m = unrevoked();
    let owned = p(&[("foo", &[2, 3]), ("bar", &[5, 6])]);
    let next = step(&m, 11, &owned.clone(), FREE, Some(&owned));
    assert_eq!(next, member(MemberState::Stable, 11, 10, owned, p(&[])));
}

#[test]
fn a_member_stays_unrevoked_while_it_reports_a_pending_partition_or_reports_nothing() {
    // testRemainsInUnrevokedPartitions: no TopicPartitions at all, then foo-1 still listed, then bar-4.
    let m = unrevoked();
    let target = p(&[("foo", &[3]), ("bar", &[6])]);
    assert_eq!(step(&m, 12, &target, FREE, None), m);
    let still_foo_1 = p(&[("foo", &[1, 2, 3]), ("bar", &[5, 6])]);
    assert_eq!(step(&m, 12, &target, FREE, Some(&still_foo_1)), m);
    let still_bar_4 = p(&[("foo", &[2, 3]), ("bar", &[4, 5, 6])]);
    assert_eq!(step(&m, 12, &target, FREE, Some(&still_bar_4)), m);
}

#[test]
fn after_an_acknowledgement_a_further_revocation_waits_at_the_member_epoch_plus_one() {
    // testUnrevokedPartitionsToUnrevokedPartitions (reference C08, V7): Kafka 4.1 reconciles with
    // `memberEpoch + 1` (11), even though the target is at 12; 4.2 would stay at 10.
    let m = unrevoked();
    let owned = p(&[("foo", &[2, 3]), ("bar", &[5, 6])]);
    let next = step(&m, 12, &p(&[("foo", &[3]), ("bar", &[6])]), FREE, Some(&owned));
    assert_eq!(
        next,
        member(
            MemberState::UnrevokedPartitions,
            11,
            10,
            p(&[("foo", &[3]), ("bar", &[6])]),
            p(&[("foo", &[2]), ("bar", &[5])]),
        )
    );
}

#[test]
fn after_an_acknowledgement_partitions_still_owned_elsewhere_leave_the_member_unreleased() {
    // testUnrevokedPartitionsToUnreleasedPartitions.
    let m = member(
        MemberState::UnrevokedPartitions,
        11,
        10,
        p(&[("foo", &[2, 3]), ("bar", &[5, 6])]),
        p(&[]),
    );
    let owned = p(&[("foo", &[2, 3]), ("bar", &[5, 6])]);
    let target = p(&[("foo", &[2, 3, 4]), ("bar", &[5, 6, 7])]);
    let next = step(&m, 11, &target, 10, Some(&owned));
    assert_eq!(
        next,
        member(MemberState::UnreleasedPartitions, 11, 11, owned, p(&[]))
    );
}

#[test]
fn a_members_own_pending_revocation_is_not_unreleased_for_it() {
    // testUnrevokedPartitionsToStableWithReturnedPartitionsPendingRevocation (KAFKA-19449, reference
    // V5/C10): foo-4 was pending revocation by this very member and is back in the target; its epoch
    // is this member's, so it is granted at once. 3.9 would have left the member UNRELEASED.
    let m = member(
        MemberState::UnrevokedPartitions,
        10,
        10,
        p(&[("foo", &[2, 3]), ("bar", &[5, 6])]),
        p(&[("foo", &[4])]),
    );
    let owned = p(&[("foo", &[2, 3]), ("bar", &[5, 6])]);
    let target = p(&[("foo", &[2, 3, 4]), ("bar", &[5, 6, 7])]);
    let next = CurrentAssignmentBuilder {
        member: &m,
        target_epoch: 12,
        target: &target,
        partition_epoch: &|topic, partition| match (topic, partition) {
            ("foo", 2..=4) | ("bar", 5 | 6) => 10,
            _ => FREE,
        },
        owned: Some(&owned),
        version: KafkaRelease::V4_1,
        subscribed_topics: None,
    }
    .build()
    .unwrap();
    assert_eq!(next, member(MemberState::Stable, 12, 10, target, p(&[])));
}

// =====================================================================================================
// UNRELEASED_PARTITIONS
// =====================================================================================================

fn unreleased() -> CurrentAssignment {
    member(
        MemberState::UnreleasedPartitions,
        11,
        11,
        p(&[("foo", &[2, 3]), ("bar", &[5, 6])]),
        p(&[]),
    )
}

#[test]
fn an_unreleased_member_whose_new_target_it_already_has_becomes_stable() {
    // testUnreleasedPartitionsToStable.
    let m = unreleased();
    let next = step(&m, 12, &m.assigned_partitions.clone(), 10, None);
    assert_eq!(
        next,
        member(MemberState::Stable, 12, 11, m.assigned_partitions.clone(), p(&[]))
    );
}

#[test]
fn an_unreleased_member_collects_released_partitions_at_the_same_epoch() {
    // testUnreleasedPartitionsToStableWithNewPartitions: the epoch stays 11 (11 -> 11 sets previous
    // to 11 too).
    let m = unreleased();
    let target = p(&[("foo", &[2, 3, 4]), ("bar", &[5, 6, 7])]);
    let next = step(&m, 11, &target, FREE, None);
    assert_eq!(next, member(MemberState::Stable, 11, 11, target, p(&[])));
}

#[test]
fn an_unreleased_member_still_waiting_is_left_unchanged() {
    // testUnreleasedPartitionsToUnreleasedPartitions: the record would be rewritten identically.
    let m = unreleased();
    let next = step(&m, 11, &p(&[("foo", &[2, 3, 4]), ("bar", &[5, 6, 7])]), 10, None);
    assert_eq!(next, m);
}

#[test]
fn an_unreleased_member_must_revoke_when_a_newer_target_takes_partitions_away() {
    // testUnreleasedPartitionsToUnrevokedPartitions.
    let m = unreleased();
    let next = step(&m, 12, &p(&[("foo", &[3]), ("bar", &[6])]), 10, None);
    assert_eq!(
        next,
        member(
            MemberState::UnrevokedPartitions,
            11,
            11,
            p(&[("foo", &[3]), ("bar", &[6])]),
            p(&[("foo", &[2]), ("bar", &[5])]),
        )
    );
}

// =====================================================================================================
// UNKNOWN
// =====================================================================================================

#[test]
fn a_member_in_an_unknown_state_is_fenced_until_it_reports_owning_nothing() {
    // testUnknownState: FENCED_MEMBER_EPOCH while it reports partitions (or nothing); then, rejoined
    // with an empty list, it reconciles from scratch straight to the target epoch.
    let m = member(
        MemberState::Unknown,
        11,
        11,
        p(&[("foo", &[3]), ("bar", &[6])]),
        p(&[("foo", &[2]), ("bar", &[5])]),
    );
    let target = p(&[("foo", &[3]), ("bar", &[6])]);
    let owns_some = p(&[("foo", &[3])]);
    for owned in [None, Some(&owns_some)] {
        let err = CurrentAssignmentBuilder {
            member: &m,
            target_epoch: 12,
            target: &target,
            partition_epoch: &|_, _| 10,
            owned,
            version: KafkaRelease::V4_1,
            subscribed_topics: None,
        }
        .build()
        .unwrap_err();
        assert_eq!(err.error_code(), ErrorCode::FencedMemberEpoch);
        assert!(err
            .to_string()
            .contains("must abandon all its partitions and rejoin"));
    }
    let nothing = p(&[]);
    let next = step(&m, 12, &target, 11, Some(&nothing));
    assert_eq!(next, member(MemberState::Stable, 12, 11, target, p(&[])));
}

// =====================================================================================================
// Revoke before reassign, end to end with the partition-epoch map
// =====================================================================================================

/// One heartbeat of a member: reconcile against `epochs`, then record the new state in `epochs`.
fn heartbeat(
    epochs: &mut PartitionEpochs,
    m: &CurrentAssignment,
    target_epoch: i32,
    target: &Partitions,
    owned: Option<&Partitions>,
) -> CurrentAssignment {
    let view = epochs.clone();
    let next = CurrentAssignmentBuilder {
        member: m,
        target_epoch,
        target,
        partition_epoch: &|t, p| view.epoch(t, p),
        owned,
        version: KafkaRelease::V4_1,
        subscribed_topics: None,
    }
    .build()
    .unwrap();
    epochs.update_member(Some(m), &next).expect("single owner");
    next
}

#[test]
fn a_moving_partition_reaches_its_new_owner_only_after_the_old_owner_acknowledged() {
    // Reference §3.2 and §8.1: A owns t-0..t-3 at epoch 1; B joins and the target at epoch 2 gives
    // B t-2 and t-3.
    let mut epochs = PartitionEpochs::new();
    let a1 = member(MemberState::Stable, 1, 0, p(&[("t", &[0, 1, 2, 3])]), p(&[]));
    epochs.update_member(None, &a1).unwrap();
    let (a_target, b_target) = (p(&[("t", &[0, 1])]), p(&[("t", &[2, 3])]));

    // B's joining heartbeat: the epoch moves to 2 but t-2 and t-3 are A's.
    let b0 = CurrentAssignment::default();
    let b1 = heartbeat(&mut epochs, &b0, 2, &b_target, Some(&p(&[])));
    assert_eq!(
        (b1.state, b1.member_epoch),
        (MemberState::UnreleasedPartitions, 2)
    );
    assert!(b1.assigned_partitions.is_empty());

    // A's heartbeat sees the target: it must revoke and stays at epoch 1.
    let a2 = heartbeat(&mut epochs, &a1, 2, &a_target, None);
    assert_eq!((a2.state, a2.member_epoch), (MemberState::UnrevokedPartitions, 1));
    assert_eq!(epochs.epoch("t", 2), 1, "still A's while pending revocation");

    // B heartbeats again: nothing released yet. (Its previous epoch becomes 2: 2 -> 2 still counts
    // as an update, so Kafka rewrites the record.)
    let b1 = heartbeat(&mut epochs, &b1, 2, &b_target, None);
    assert_eq!(
        b1,
        member(MemberState::UnreleasedPartitions, 2, 2, p(&[]), p(&[]))
    );

    // A acknowledges (its heartbeat lists t-0 and t-1 only): epoch 2, t-2 and t-3 freed.
    let a3 = heartbeat(&mut epochs, &a2, 2, &a_target, Some(&a_target));
    assert_eq!(a3, member(MemberState::Stable, 2, 1, a_target.clone(), p(&[])));
    assert_eq!(epochs.epoch("t", 2), FREE);

    // B's next heartbeat collects them; every member is reconciled.
    let b2 = heartbeat(&mut epochs, &b1, 2, &b_target, None);
    assert_eq!(b2, member(MemberState::Stable, 2, 2, b_target, p(&[])));
    assert_eq!(epochs.epoch("t", 3), 2);
    let members = [(a3.state, a3.member_epoch), (b2.state, b2.member_epoch)];
    assert_eq!(
        ConsumerGroupState::derive(2, 2, members),
        ConsumerGroupState::Stable
    );
}

// =====================================================================================================
// PartitionEpochs
// =====================================================================================================

#[test]
fn a_partition_cannot_be_added_while_owned_at_the_same_or_a_newer_epoch() {
    // ConsumerGroup.addPartitionEpochs throws IllegalStateException: the single-owner invariant.
    let mut epochs = PartitionEpochs::new();
    epochs.add(&p(&[("t", &[0])]), 5).unwrap();
    let err = epochs.add(&p(&[("t", &[0])]), 5).unwrap_err();
    assert_eq!((err.partition, err.epoch, err.owned_at), (0, 5, 5));
    assert_eq!(
        err.to_string(),
        "Cannot set the epoch of t-0 to 5 because the partition is still owned at epoch 5"
    );
    assert!(epochs.add(&p(&[("t", &[0])]), 4).is_err());
    // A newer epoch takes the partition over, as in Kafka.
    epochs.add(&p(&[("t", &[0])]), 6).unwrap();
    assert_eq!(epochs.epoch("t", 0), 6);
}

#[test]
fn a_partition_is_freed_only_at_the_epoch_it_is_owned_at() {
    // ConsumerGroup.removePartitionEpochs only logs a mismatch.
    let mut epochs = PartitionEpochs::new();
    epochs.add(&p(&[("t", &[0, 1])]), 3).unwrap();
    epochs.remove(&p(&[("t", &[0, 1])]), 2);
    assert_eq!((epochs.epoch("t", 0), epochs.epoch("t", 1)), (3, 3));
    epochs.remove(&p(&[("t", &[0])]), 3);
    assert_eq!((epochs.epoch("t", 0), epochs.epoch("t", 1)), (FREE, 3));
    epochs.remove(&p(&[("t", &[1])]), 3);
    assert_eq!(epochs, PartitionEpochs::new());
}

#[test]
fn a_static_member_away_with_epoch_minus_two_still_owns_its_partitions() {
    // Reference §5.1: the partitions stay owned at epoch -2, so they are unreleased for others.
    let mut epochs = PartitionEpochs::new();
    let away = member(MemberState::Stable, -2, 5, p(&[("t", &[0])]), p(&[]));
    epochs.update_member(None, &away).unwrap();
    assert_eq!(epochs.epoch("t", 0), -2);
    let other = member(MemberState::Stable, 5, 5, p(&[]), p(&[]));
    let view = epochs.clone();
    let next = CurrentAssignmentBuilder {
        member: &other,
        target_epoch: 6,
        target: &p(&[("t", &[0])]),
        partition_epoch: &|t, p| view.epoch(t, p),
        owned: None,
        version: KafkaRelease::V4_1,
        subscribed_topics: None,
    }
    .build()
    .unwrap();
    assert_eq!(
        (next.state, next.member_epoch),
        (MemberState::UnreleasedPartitions, 6)
    );
}

// =====================================================================================================
// Group and member states
// =====================================================================================================

#[test]
fn a_group_without_members_is_empty_whatever_its_epochs() {
    assert_eq!(ConsumerGroupState::derive(7, 3, []), ConsumerGroupState::Empty);
}

#[test]
fn a_group_epoch_ahead_of_the_target_epoch_is_assigning() {
    // E.g. after a leave: the epoch is bumped, the target is computed on the next heartbeat.
    let members = [(MemberState::Stable, 3)];
    assert_eq!(
        ConsumerGroupState::derive(4, 3, members),
        ConsumerGroupState::Assigning
    );
}

#[test]
fn a_group_with_a_member_not_stable_at_the_target_epoch_is_reconciling() {
    for lagging in [
        (MemberState::Stable, 3),
        (MemberState::UnrevokedPartitions, 4),
        (MemberState::UnreleasedPartitions, 4),
        (MemberState::Unknown, 4),
    ] {
        let members = [(MemberState::Stable, 4), lagging];
        assert_eq!(
            ConsumerGroupState::derive(4, 4, members),
            ConsumerGroupState::Reconciling,
            "{lagging:?}"
        );
    }
}

#[test]
fn a_group_whose_members_are_all_stable_at_the_target_epoch_is_stable() {
    let members = [(MemberState::Stable, 4), (MemberState::Stable, 4)];
    assert_eq!(
        ConsumerGroupState::derive(4, 4, members),
        ConsumerGroupState::Stable
    );
    assert!(CurrentAssignment {
        member_epoch: 4,
        ..Default::default()
    }
    .is_reconciled_to(4));
}

#[test]
fn states_have_kafkas_names_and_values() {
    let names: Vec<&str> = ConsumerGroupState::ALL.iter().map(|s| s.name()).collect();
    assert_eq!(names, ["Empty", "Assigning", "Reconciling", "Stable", "Dead"]);
    let values: Vec<i8> = MemberState::ALL.iter().map(|s| s.value()).collect();
    assert_eq!(values, [0, 1, 2, 127]);
    assert_eq!(MemberState::from_value(2), MemberState::UnreleasedPartitions);
    assert_eq!(
        MemberState::from_value(3),
        MemberState::Unknown,
        "a newer coordinator's state"
    );
    assert_eq!(
        serde_json::to_string(&MemberState::UnrevokedPartitions).unwrap(),
        "\"UNREVOKED_PARTITIONS\""
    );
    assert_eq!(
        serde_json::to_string(&ConsumerGroupState::Reconciling).unwrap(),
        "\"Reconciling\""
    );
    // A new member: STABLE at epoch 0, previous epoch -1 (ConsumerGroupMember.Builder defaults).
    let new = CurrentAssignment::default();
    assert_eq!(
        (new.state, new.member_epoch, new.previous_member_epoch),
        (MemberState::Stable, 0, -1)
    );
}
