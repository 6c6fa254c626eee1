//! The server-side assignors (reference §7.3) on Kafka's own test scenarios
//! (`group-coordinator/.../assignor/{OptimizedUniformAssignmentBuilderTest,
//! UniformHeterogeneousAssignmentBuilderTest, RangeAssignorTest}.java`), rewritten here. Where Kafka's
//! expectation depends on the `HashSet<Uuid>` order of its test topic ids, the comment says so and the
//! expectation follows this engine's documented order (topics by name).

use rebalance_engine::collections::Map;

use rebalance_engine::assignor::server::{assign, GroupAssignment, MemberSpec, Partitions, ServerAssignor};

fn topics(list: &[(&str, i32)]) -> Map<String, i32> {
    list.iter().map(|(t, n)| (t.to_string(), *n)).collect()
}

fn p(list: &[(&str, &[i32])]) -> Partitions {
    list.iter()
        .map(|(t, ps)| (t.to_string(), ps.iter().copied().collect()))
        .collect()
}

fn expect(list: &[(&str, Partitions)]) -> GroupAssignment {
    list.iter().map(|(m, a)| (m.to_string(), a.clone())).collect()
}

use ServerAssignor::{Range, Uniform};

// =====================================================================================================
// uniform, homogeneous (OptimizedUniformAssignmentBuilderTest)
// =====================================================================================================

#[test]
fn uniform_gives_nothing_to_a_member_without_subscriptions() {
    let md = topics(&[("topic1", 3)]);
    let a = assign(Uniform, &md, &[MemberSpec::new("A", Vec::<String>::new())]);
    assert_eq!(a, expect(&[("A", p(&[]))]));
}

#[test]
fn a_topic_without_metadata_is_skipped() {
    // Kafka's test hands the assignor an unknown topic id and expects PartitionAssignorException; the
    // coordinator itself never does, because it resolves names against the metadata image first.
    let md = topics(&[("topic1", 3)]);
    for assignor in ServerAssignor::ALL {
        let a = assign(assignor, &md, &[MemberSpec::new("A", ["topic2"])]);
        assert_eq!(a, expect(&[("A", p(&[]))]), "{assignor}");
    }
}

#[test]
fn uniform_first_assignment_balances_partitions_across_topics() {
    // testFirstAssignmentTwoMembersTwoTopicsNoMemberRacks: 5 partitions, A gets 2, B gets 3 (the
    // member that gives its extra slot back is the first). Kafka's test topic ids put topic3 first,
    // so there A gets topic3; in name order A gets the first two partitions of topic1.
    let md = topics(&[("topic1", 3), ("topic3", 2)]);
    let members = [
        MemberSpec::new("A", ["topic1", "topic3"]),
        MemberSpec::new("B", ["topic1", "topic3"]),
    ];
    assert_eq!(
        assign(Uniform, &md, &members),
        expect(&[
            ("A", p(&[("topic1", &[0, 1])])),
            ("B", p(&[("topic1", &[2]), ("topic3", &[0, 1])])),
        ])
    );
}

#[test]
fn uniform_with_more_members_than_partitions_gives_the_extras_to_the_last_members() {
    // testFirstAssignmentNumMembersGreaterThanTotalNumPartitions: one member stays empty.
    let md = topics(&[("topic1", 2)]);
    let members = [
        MemberSpec::new("A", ["topic1"]),
        MemberSpec::new("B", ["topic1"]),
        MemberSpec::new("C", ["topic1"]),
    ];
    assert_eq!(
        assign(Uniform, &md, &members),
        expect(&[
            ("A", p(&[])),
            ("B", p(&[("topic1", &[0])])),
            ("C", p(&[("topic1", &[1])])),
        ])
    );
}

#[test]
fn uniform_rebalances_an_unbalanced_previous_target_moving_one_partition() {
    // testReassignmentForTwoMembersTwoTopicsGivenUnbalancedPrevAssignment (same result as Kafka's).
    let md = topics(&[("topic1", 3), ("topic2", 3)]);
    let members = [
        MemberSpec::new("A", ["topic1", "topic2"])
            .with_target("topic1", [0, 1])
            .with_target("topic2", [0, 1]),
        MemberSpec::new("B", ["topic1", "topic2"])
            .with_target("topic1", [2])
            .with_target("topic2", [2]),
    ];
    assert_eq!(
        assign(Uniform, &md, &members),
        expect(&[
            ("A", p(&[("topic1", &[0, 1]), ("topic2", &[0])])),
            ("B", p(&[("topic1", &[2]), ("topic2", &[1, 2])])),
        ])
    );
}

#[test]
fn uniform_gives_a_new_member_only_the_excess_of_the_others() {
    // testReassignmentWhenOneMemberAddedAfterInitialAssignmentWithTwoMembersTwoTopics (same result).
    let md = topics(&[("topic1", 3), ("topic2", 3)]);
    let members = [
        MemberSpec::new("A", ["topic1", "topic2"])
            .with_target("topic1", [0, 2])
            .with_target("topic2", [0]),
        MemberSpec::new("B", ["topic1", "topic2"])
            .with_target("topic1", [1])
            .with_target("topic2", [1, 2]),
        MemberSpec::new("C", ["topic1", "topic2"]),
    ];
    assert_eq!(
        assign(Uniform, &md, &members),
        expect(&[
            ("A", p(&[("topic1", &[0, 2])])),
            ("B", p(&[("topic1", &[1]), ("topic2", &[1])])),
            ("C", p(&[("topic2", &[0, 2])])),
        ])
    );
}

#[test]
fn uniform_hands_a_removed_members_partitions_to_the_survivors() {
    // testReassignmentWhenOneMemberRemovedAfterInitialAssignmentWithThreeMembersTwoTopics: C left;
    // A and B keep theirs and share C's.
    let md = topics(&[("topic1", 3), ("topic2", 3)]);
    let members = [
        MemberSpec::new("A", ["topic1", "topic2"])
            .with_target("topic1", [0])
            .with_target("topic2", [0]),
        MemberSpec::new("B", ["topic1", "topic2"])
            .with_target("topic1", [1])
            .with_target("topic2", [1]),
    ];
    assert_eq!(
        assign(Uniform, &md, &members),
        expect(&[
            ("A", p(&[("topic1", &[0, 2]), ("topic2", &[0])])),
            ("B", p(&[("topic1", &[1]), ("topic2", &[1, 2])])),
        ])
    );
}

#[test]
fn uniform_drops_a_topic_the_group_no_longer_subscribes_to() {
    // testReassignmentWhenOneSubscriptionRemovedAfterInitialAssignmentWithTwoMembersTwoTopics.
    let md = topics(&[("topic1", 2), ("topic2", 2)]);
    let members = [
        MemberSpec::new("A", ["topic2"])
            .with_target("topic1", [0])
            .with_target("topic2", [0]),
        MemberSpec::new("B", ["topic2"])
            .with_target("topic1", [1])
            .with_target("topic2", [1]),
    ];
    assert_eq!(
        assign(Uniform, &md, &members),
        expect(&[("A", p(&[("topic2", &[0])])), ("B", p(&[("topic2", &[1])]))])
    );
}

#[test]
fn uniform_keeps_a_balanced_target_as_it_is() {
    // testReassignmentStickinessWhenAlreadyBalanced.
    let md = topics(&[("topic1", 5)]);
    let members = [
        MemberSpec::new("A", ["topic1"]).with_target("topic1", [0, 3, 4]),
        MemberSpec::new("B", ["topic1"]).with_target("topic1", [1, 2]),
    ];
    assert_eq!(
        assign(Uniform, &md, &members),
        expect(&[
            ("A", p(&[("topic1", &[0, 3, 4])])),
            ("B", p(&[("topic1", &[1, 2])]))
        ])
    );
}

// =====================================================================================================
// uniform, heterogeneous (UniformHeterogeneousAssignmentBuilderTest)
// =====================================================================================================

#[test]
fn uniform_fills_the_topic_with_most_partitions_per_subscriber_first() {
    // t2 (3 partitions, 1 subscriber) goes before t1 (3 partitions, 2 subscribers): B gets t2, and A,
    // now the least loaded subscriber of t1, gets all of t1.
    let md = topics(&[("t1", 3), ("t2", 3)]);
    let members = [MemberSpec::new("A", ["t1"]), MemberSpec::new("B", ["t1", "t2"])];
    assert_eq!(
        assign(Uniform, &md, &members),
        expect(&[("A", p(&[("t1", &[0, 1, 2])])), ("B", p(&[("t2", &[0, 1, 2])]))])
    );
}

#[test]
fn uniform_moves_partitions_from_the_most_to_the_least_loaded_subscriber_topic_by_topic() {
    // A holds all six partitions of t1, which B also subscribes to; B and C share t2. Balancing t1
    // moves A's highest partitions to B, then t2 moves one of B's to C, then t1 once more.
    let md = topics(&[("t1", 6), ("t2", 2)]);
    let members = [
        MemberSpec::new("A", ["t1"]).with_target("t1", 0..6),
        MemberSpec::new("B", ["t1", "t2"]),
        MemberSpec::new("C", ["t2"]),
    ];
    assert_eq!(
        assign(Uniform, &md, &members),
        expect(&[
            ("A", p(&[("t1", &[0, 1, 2])])),
            ("B", p(&[("t1", &[3, 4, 5])])),
            ("C", p(&[("t2", &[0, 1])])),
        ])
    );
}

#[test]
fn uniform_heterogeneous_gives_nothing_to_a_member_without_subscriptions() {
    // testFirstAssignmentWithTwoMembersIncludingOneWithoutSubscriptions.
    let md = topics(&[("topic1", 3)]);
    let members = [
        MemberSpec::new("A", ["topic1"]),
        MemberSpec::new("B", Vec::<String>::new()),
    ];
    assert_eq!(
        assign(Uniform, &md, &members),
        expect(&[("A", p(&[("topic1", &[0, 1, 2])])), ("B", p(&[]))])
    );
}

#[test]
fn uniform_heterogeneous_revokes_partitions_of_unsubscribed_topics() {
    // testReassignmentWhenOneSubscriptionRemovedAfterInitialAssignmentWithTwoMembersTwoTopics
    // (heterogeneous version): B drops topic1, whose partition goes to A (the only subscriber); then
    // balancing topic2 moves A's topic2-0 to B, 2 partitions each.
    let md = topics(&[("topic1", 2), ("topic2", 2)]);
    let members = [
        MemberSpec::new("A", ["topic1", "topic2"])
            .with_target("topic1", [0])
            .with_target("topic2", [0]),
        MemberSpec::new("B", ["topic2"])
            .with_target("topic1", [1])
            .with_target("topic2", [1]),
    ];
    assert_eq!(
        assign(Uniform, &md, &members),
        expect(&[("A", p(&[("topic1", &[0, 1])])), ("B", p(&[("topic2", &[0, 1])]))])
    );
}

// =====================================================================================================
// range (RangeAssignorTest)
// =====================================================================================================

#[test]
fn range_co_partitions_members_with_the_same_subscriptions() {
    // testFirstAssignmentTwoMembersTwoTopicsSameSubscriptions (the RangeAssignor Javadoc example).
    let md = topics(&[("topic1", 3), ("topic3", 2)]);
    let members = [
        MemberSpec::new("A", ["topic1", "topic3"]),
        MemberSpec::new("B", ["topic1", "topic3"]),
    ];
    assert_eq!(
        assign(Range, &md, &members),
        expect(&[
            ("A", p(&[("topic1", &[0, 1]), ("topic3", &[0])])),
            ("B", p(&[("topic1", &[2]), ("topic3", &[1])])),
        ])
    );
}

#[test]
fn range_splits_each_topic_among_its_own_subscribers() {
    // testFirstAssignmentThreeMembersThreeTopicsDifferentSubscriptions.
    let md = topics(&[("topic1", 3), ("topic2", 3), ("topic3", 2)]);
    let members = [
        MemberSpec::new("A", ["topic1", "topic2"]),
        MemberSpec::new("B", ["topic3"]),
        MemberSpec::new("C", ["topic2", "topic3"]),
    ];
    assert_eq!(
        assign(Range, &md, &members),
        expect(&[
            ("A", p(&[("topic1", &[0, 1, 2]), ("topic2", &[0, 1])])),
            ("B", p(&[("topic3", &[0])])),
            ("C", p(&[("topic2", &[2]), ("topic3", &[1])])),
        ])
    );
}

#[test]
fn range_with_more_members_than_partitions_leaves_the_last_members_empty() {
    // testFirstAssignmentNumMembersGreaterThanNumPartitions.
    let md = topics(&[("topic1", 2)]);
    let members = [
        MemberSpec::new("A", ["topic1"]),
        MemberSpec::new("B", ["topic1"]),
        MemberSpec::new("C", ["topic1"]),
    ];
    assert_eq!(
        assign(Range, &md, &members),
        expect(&[
            ("A", p(&[("topic1", &[0])])),
            ("B", p(&[("topic1", &[1])])),
            ("C", p(&[])),
        ])
    );
}

#[test]
fn range_orders_static_members_first_by_instance_id() {
    // testStaticMembership / testMixedStaticMembership: a restarted static member (new member id,
    // same instance id) gets the same range; dynamic members follow by member id.
    let md = topics(&[("topic1", 4)]);
    let before = [
        MemberSpec::new("m-9", ["topic1"]).with_instance_id("i-1"),
        MemberSpec::new("m-1", ["topic1"]).with_instance_id("i-2"),
        MemberSpec::new("d-0", ["topic1"]),
    ];
    let after = [
        MemberSpec::new("m-0", ["topic1"]).with_instance_id("i-1"),
        before[1].clone(),
        before[2].clone(),
    ];
    assert_eq!(
        assign(Range, &md, &before),
        expect(&[
            ("d-0", p(&[("topic1", &[3])])),
            ("m-1", p(&[("topic1", &[2])])),
            ("m-9", p(&[("topic1", &[0, 1])])),
        ])
    );
    assert_eq!(assign(Range, &md, &after)["m-0"], p(&[("topic1", &[0, 1])]));
}

#[test]
fn range_ignores_the_previous_target() {
    // 4.1's RangeAssignor never reads the member assignments (3.8's was sticky; KAFKA-16944).
    let md = topics(&[("topic1", 4)]);
    let members = [
        MemberSpec::new("A", ["topic1"]).with_target("topic1", [2, 3]),
        MemberSpec::new("B", ["topic1"]).with_target("topic1", [0, 1]),
    ];
    assert_eq!(
        assign(Range, &md, &members),
        expect(&[("A", p(&[("topic1", &[0, 1])])), ("B", p(&[("topic1", &[2, 3])]))])
    );
}

#[test]
fn conflicting_or_impossible_previous_claims_are_normalised() {
    // Input Kafka's coordinator never produces: two claims on topic1-0, a partition out of range, a
    // topic without metadata. The first member in id order keeps a doubly claimed partition.
    let md = topics(&[("topic1", 2)]);
    let members = [
        MemberSpec::new("B", ["topic1"]).with_target("topic1", [0]),
        MemberSpec::new("A", ["topic1"])
            .with_target("topic1", [0, 7])
            .with_target("gone", [0]),
    ];
    assert_eq!(
        assign(Uniform, &md, &members),
        expect(&[("A", p(&[("topic1", &[0])])), ("B", p(&[("topic1", &[1])]))])
    );
}
