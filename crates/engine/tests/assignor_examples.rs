//! The worked assignor examples of the reference (§8.3, §9), each mirroring a Kafka test or Javadoc.

use rebalance_engine::collections::Map;

use rebalance_engine::assignor::{assign, Assignment, MemberSubscription, Strategy};

fn topics(list: &[(&str, i32)]) -> Map<String, i32> {
    list.iter().map(|&(t, n)| (t.to_string(), n)).collect()
}

/// One member's expected partitions: `[(topic, partitions)]`.
type Owned<'a> = &'a [(&'a str, &'a [i32])];

/// `member → [(topic, partitions)]`, with every listed member present.
fn expected(list: &[(&str, Owned<'_>)]) -> Assignment {
    list.iter()
        .map(|&(member, parts)| {
            let topics = parts
                .iter()
                .map(|&(t, ps)| (t.to_string(), ps.to_vec()))
                .collect();
            (member.to_string(), topics)
        })
        .collect()
}

fn member(id: &str, subscribed: &[&str]) -> MemberSubscription {
    MemberSubscription::new(id, subscribed.iter().copied())
}

/// Turns an assignment into the owned partitions of the next rebalance, all in `generation`.
fn owning(members: &[MemberSubscription], previous: &Assignment, generation: i32) -> Vec<MemberSubscription> {
    members
        .iter()
        .map(|m| {
            let mut next = m.clone().in_generation(generation);
            next.owned_partitions = previous[&m.member_id].clone();
            next
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// RangeAssignor

#[test]
fn r1_range_javadoc_two_members_two_topics() {
    // RangeAssignor Javadoc; RangeAssignorTest.testTwoConsumersTwoTopicsSixPartitions.
    let members = [member("C0", &["t0", "t1"]), member("C1", &["t0", "t1"])];
    let got = assign(Strategy::Range, &topics(&[("t0", 3), ("t1", 3)]), &members);
    assert_eq!(
        got,
        expected(&[
            ("C0", &[("t0", &[0, 1]), ("t1", &[0, 1])]),
            ("C1", &[("t0", &[2]), ("t1", &[2])])
        ])
    );
}

#[test]
fn r2_range_seven_partitions_three_members() {
    // RangeAssignorTest.testOnlyAssignsPartitionsFromSubscribedTopics / testMultipleConsumersMixedTopics
    // pattern: the first P mod C members get one extra.
    let members = [
        member("c-1", &["orders"]),
        member("c-2", &["orders"]),
        member("c-3", &["orders"]),
    ];
    let got = assign(Strategy::Range, &topics(&[("orders", 7)]), &members);
    assert_eq!(
        got,
        expected(&[
            ("c-1", &[("orders", &[0, 1, 2])]),
            ("c-2", &[("orders", &[3, 4])]),
            ("c-3", &[("orders", &[5, 6])])
        ])
    );
}

#[test]
fn r3_range_unequal_subscriptions() {
    // RangeAssignorTest.testTwoConsumersOneTopicOnePartition's mixed-subscription sibling,
    // testMultipleConsumersMixedTopics.
    let members = [member("c1", &["t0", "t1"]), member("c2", &["t1"])];
    let got = assign(Strategy::Range, &topics(&[("t0", 2), ("t1", 3)]), &members);
    assert_eq!(
        got,
        expected(&[
            ("c1", &[("t0", &[0, 1]), ("t1", &[0, 1])]),
            ("c2", &[("t1", &[2])])
        ])
    );
}

#[test]
fn r4_range_is_unbalanced_across_single_partition_topics() {
    // The imbalance the RangeAssignor Javadoc warns about.
    let all = ["a", "b", "c", "d"];
    let members = [member("m1", &all), member("m2", &all)];
    let got = assign(
        Strategy::Range,
        &topics(&[("a", 1), ("b", 1), ("c", 1), ("d", 1)]),
        &members,
    );
    assert_eq!(
        got,
        expected(&[
            ("m1", &[("a", &[0]), ("b", &[0]), ("c", &[0]), ("d", &[0])]),
            ("m2", &[])
        ])
    );
}

#[test]
fn r5_range_sorts_member_ids_as_java_strings() {
    // MemberInfo.compareTo uses String.compareTo: "consumer-10-x" < "consumer-2-y".
    let members = [
        member("consumer-2-y", &["t"]),
        member("consumer-3-z", &["t"]),
        member("consumer-10-x", &["t"]),
    ];
    let got = assign(Strategy::Range, &topics(&[("t", 5)]), &members);
    assert_eq!(
        got,
        expected(&[
            ("consumer-10-x", &[("t", &[0, 1])]),
            ("consumer-2-y", &[("t", &[2, 3])]),
            ("consumer-3-z", &[("t", &[4])]),
        ])
    );
}

#[test]
fn r6_range_static_members_first() {
    // RangeAssignorTest.testStaticMemberRangeAssignmentPersistent: static members sort before
    // dynamic ones, by group.instance.id.
    let members = [
        member("aaa", &["t"]),
        member("zzz", &["t"]).with_instance_id("inst-1"),
    ];
    let got = assign(Strategy::Range, &topics(&[("t", 3)]), &members);
    assert_eq!(
        got,
        expected(&[("zzz", &[("t", &[0, 1])]), ("aaa", &[("t", &[2])])])
    );
}

// ---------------------------------------------------------------------------------------------
// RoundRobinAssignor

#[test]
fn rr1_roundrobin_javadoc_two_members_two_topics() {
    // RoundRobinAssignor Javadoc; RoundRobinAssignorTest.testTwoConsumersTwoTopicsSixPartitions.
    let members = [member("C0", &["t0", "t1"]), member("C1", &["t0", "t1"])];
    let got = assign(Strategy::RoundRobin, &topics(&[("t0", 3), ("t1", 3)]), &members);
    assert_eq!(
        got,
        expected(&[
            ("C0", &[("t0", &[0, 2]), ("t1", &[1])]),
            ("C1", &[("t0", &[1]), ("t1", &[0, 2])])
        ])
    );
}

#[test]
fn rr2_roundrobin_javadoc_unequal_subscriptions() {
    // RoundRobinAssignor Javadoc, second example; RoundRobinAssignorTest.testMultipleConsumersMixedTopics.
    let members = [
        member("C0", &["t0"]),
        member("C1", &["t0", "t1"]),
        member("C2", &["t0", "t1", "t2"]),
    ];
    let got = assign(
        Strategy::RoundRobin,
        &topics(&[("t0", 1), ("t1", 2), ("t2", 3)]),
        &members,
    );
    assert_eq!(
        got,
        expected(&[
            ("C0", &[("t0", &[0])]),
            ("C1", &[("t1", &[0])]),
            ("C2", &[("t1", &[1]), ("t2", &[0, 1, 2])])
        ])
    );
}

#[test]
fn rr3_roundrobin_position_carries_across_topics() {
    // RoundRobinAssignorTest.testTwoConsumersTwoTopicsSixPartitions pattern with three members.
    let both = ["t0", "t1"];
    let members = [member("c0", &both), member("c1", &both), member("c2", &both)];
    let got = assign(Strategy::RoundRobin, &topics(&[("t0", 4), ("t1", 2)]), &members);
    assert_eq!(
        got,
        expected(&[
            ("c0", &[("t0", &[0, 3])]),
            ("c1", &[("t0", &[1]), ("t1", &[0])]),
            ("c2", &[("t0", &[2]), ("t1", &[1])]),
        ])
    );
}

#[test]
fn rr4_roundrobin_balances_single_partition_topics() {
    // The contrast with R4 that the RoundRobinAssignor Javadoc draws.
    let all = ["a", "b", "c", "d"];
    let members = [member("m1", &all), member("m2", &all)];
    let got = assign(
        Strategy::RoundRobin,
        &topics(&[("a", 1), ("b", 1), ("c", 1), ("d", 1)]),
        &members,
    );
    assert_eq!(
        got,
        expected(&[
            ("m1", &[("a", &[0]), ("c", &[0])]),
            ("m2", &[("b", &[0]), ("d", &[0])])
        ])
    );
}

#[test]
fn rr5_roundrobin_topics_in_lexicographic_order() {
    // AbstractPartitionAssignor sorts topics in a TreeSet: "t10" < "t2".
    let members = [member("c0", &["t10", "t2"]), member("c1", &["t10", "t2"])];
    let got = assign(Strategy::RoundRobin, &topics(&[("t10", 1), ("t2", 2)]), &members);
    assert_eq!(
        got,
        expected(&[("c0", &[("t10", &[0]), ("t2", &[1])]), ("c1", &[("t2", &[0])])])
    );
}

#[test]
fn roundrobin_static_members_first() {
    // RoundRobinAssignorTest.testStaticMemberRoundRobinAssignmentPersistent: order by instance id.
    let members = [
        member("a", &["t"]),
        member("b", &["t"]).with_instance_id("i-2"),
        member("c", &["t"]).with_instance_id("i-1"),
    ];
    let got = assign(Strategy::RoundRobin, &topics(&[("t", 4)]), &members);
    assert_eq!(
        got,
        expected(&[
            ("c", &[("t", &[0, 3])]),
            ("b", &[("t", &[1])]),
            ("a", &[("t", &[2])])
        ])
    );
}

// ---------------------------------------------------------------------------------------------
// StickyAssignor

const STICKY_TOPICS: [(&str, i32); 4] = [("t0", 2), ("t1", 2), ("t2", 2), ("t3", 2)];
const ALL_FOUR: [&str; 4] = ["t0", "t1", "t2", "t3"];

#[test]
fn sticky_javadoc_initial_assignment_matches_roundrobin() {
    // StickyAssignor Javadoc: C0, C1, C2 on t0..t3 with 2 partitions each; both assignors give
    // C0 [t0p0, t1p1, t3p0], C1 [t0p1, t2p0, t3p1], C2 [t1p0, t2p1].
    let members = [
        member("C0", &ALL_FOUR),
        member("C1", &ALL_FOUR),
        member("C2", &ALL_FOUR),
    ];
    let want = expected(&[
        ("C0", &[("t0", &[0]), ("t1", &[1]), ("t3", &[0])]),
        ("C1", &[("t0", &[1]), ("t2", &[0]), ("t3", &[1])]),
        ("C2", &[("t1", &[0]), ("t2", &[1])]),
    ]);
    for strategy in [
        Strategy::Sticky,
        Strategy::CooperativeSticky,
        Strategy::RoundRobin,
    ] {
        assert_eq!(
            assign(strategy, &topics(&STICKY_TOPICS), &members),
            want,
            "{strategy}"
        );
    }
}

#[test]
fn sticky_javadoc_after_c1_leaves_keeps_every_owned_partition() {
    // StickyAssignor Javadoc, after C1 leaves: round robin reshuffles to C0 [t0p0, t1p0, t2p0, t3p0],
    // C2 [t0p1, t1p1, t2p1, t3p1], while sticky keeps all five owned partitions and hands out C1's
    // three. The Javadoc's exact split (C0 gets t2p0) came from the original general algorithm;
    // the same-subscription builder Kafka uses since KAFKA-9987 deals the three in (topic, partition)
    // order to C0, C2, C2, as computed here.
    let members = [
        member("C0", &ALL_FOUR),
        member("C1", &ALL_FOUR),
        member("C2", &ALL_FOUR),
    ];
    let first = assign(Strategy::Sticky, &topics(&STICKY_TOPICS), &members);
    let remaining = owning(&[members[0].clone(), members[2].clone()], &first, 1);

    let sticky = assign(Strategy::Sticky, &topics(&STICKY_TOPICS), &remaining);
    assert_eq!(
        sticky,
        expected(&[
            ("C0", &[("t0", &[0, 1]), ("t1", &[1]), ("t3", &[0])]),
            ("C2", &[("t1", &[0]), ("t2", &[0, 1]), ("t3", &[1])]),
        ])
    );

    let round_robin = assign(Strategy::RoundRobin, &topics(&STICKY_TOPICS), &remaining);
    assert_eq!(
        round_robin,
        expected(&[
            ("C0", &[("t0", &[0]), ("t1", &[0]), ("t2", &[0]), ("t3", &[0])]),
            ("C2", &[("t0", &[1]), ("t1", &[1]), ("t2", &[1]), ("t3", &[1])]),
        ])
    );
}

#[test]
fn sticky_unequal_subscriptions_keep_owned_and_balance() {
    // StickyAssignorTest.testAddRemoveTopicTwoConsumers pattern (general builder): c1 owns all of t0
    // and t1; c2 joins subscribed to t1 only. Balance is 3 / 3, which c2 can only reach with t1.
    let members = [
        member("c1", &["t0", "t1"])
            .owning("t0", [0, 1, 2])
            .owning("t1", [0, 1, 2, 3])
            .in_generation(1),
        member("c2", &["t1"]),
    ];
    let got = assign(Strategy::Sticky, &topics(&[("t0", 3), ("t1", 4)]), &members);
    assert_eq!(got["c1"]["t0"], [0, 1, 2], "c1 keeps all of t0");
    assert_eq!(got["c1"]["t1"].len(), 1);
    assert_eq!(got["c2"].keys().collect::<Vec<_>>(), ["t1"]);
    assert_eq!(got["c2"]["t1"].len(), 3);
}

#[test]
fn sticky_higher_generation_claim_wins() {
    // AbstractStickyAssignorTest.testAllConsumersHaveOwnedPartitionInvalidatedWhenClaimedByMultipleConsumersInSameGenerationWithEqualPartitionsPerConsumer
    // and ...DifferentGeneration: c1 (generation 2) and c2 (generation 1) both claim t-0; c1's
    // claim is newer and wins.
    let members = [
        member("c1", &["t"]).owning("t", [0]).in_generation(2),
        member("c2", &["t"]).owning("t", [0, 1]).in_generation(1),
    ];
    let got = assign(Strategy::Sticky, &topics(&[("t", 2)]), &members);
    assert_eq!(got, expected(&[("c1", &[("t", &[0])]), ("c2", &[("t", &[1])])]));
}

#[test]
fn sticky_same_generation_conflict_makes_the_partition_unowned() {
    // AbstractStickyAssignorTest.testOwnedPartitionsAreInvalidatedForConsumerWithMultipleGeneration
    // pattern: c1 and c2 both claim t-1 in generation 3, so neither owns it; c3 owns t-0..t-3 and
    // must give two up. Under cooperative-sticky the contested partition is withheld this round.
    let members = [
        member("c1", &["t"]).owning("t", [1]).in_generation(3),
        member("c2", &["t"]).owning("t", [1]).in_generation(3),
        member("c3", &["t"]).owning("t", [0, 2, 3]).in_generation(3),
    ];
    let partitions = topics(&[("t", 3 + 3)]);
    let sticky = assign(Strategy::Sticky, &partitions, &members);
    // Quotas 2 each: c3 keeps t-0 and t-2 (lowest partition numbers), t-3 moves.
    assert_eq!(sticky["c3"]["t"], [0, 2]);
    let counts: Vec<usize> = sticky.values().map(|t| t.values().map(Vec::len).sum()).collect();
    assert_eq!(counts, [2, 2, 2]);

    let cooperative = assign(Strategy::CooperativeSticky, &partitions, &members);
    for (id, topics) in &cooperative {
        let got = topics.get("t").cloned().unwrap_or_default();
        assert!(!got.contains(&1), "{id} got the contested t-1 in the same round");
        assert!(
            !got.contains(&3) || id == "c3",
            "{id} got t-3 while it is revoked from c3"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// CooperativeStickyAssignor

#[test]
fn cooperative_two_rebalances_when_c2_joins() {
    // Reference §8.3, checked against AbstractStickyAssignor.assignOwnedPartitions;
    // CooperativeStickyAssignorTest.testCooperativeStickyAssignorRevokesOwnedPartitions-style flow.
    let partitions = topics(&[("t", 6)]);
    let c1 = member("C1", &["t"]).owning("t", 0..6).in_generation(5);
    let c2 = member("C2", &["t"]);

    // Rebalance 1: C1 keeps its first minQuota = 3, partitions 3..5 are withheld.
    let first = assign(
        Strategy::CooperativeSticky,
        &partitions,
        &[c1.clone(), c2.clone()],
    );
    assert_eq!(first, expected(&[("C1", &[("t", &[0, 1, 2])]), ("C2", &[])]));
    // The eager sticky assignor would hand them over at once.
    let eager = assign(Strategy::Sticky, &partitions, &[c1.clone(), c2.clone()]);
    assert_eq!(
        eager,
        expected(&[("C1", &[("t", &[0, 1, 2])]), ("C2", &[("t", &[3, 4, 5])])])
    );

    // Rebalance 2: C1 revoked 3..5, so they are unowned and go to C2.
    let second_members = owning(&[c1, c2], &first, 6);
    let second = assign(Strategy::CooperativeSticky, &partitions, &second_members);
    assert_eq!(
        second,
        expected(&[("C1", &[("t", &[0, 1, 2])]), ("C2", &[("t", &[3, 4, 5])])])
    );
}

#[test]
fn cooperative_general_builder_withholds_moving_partitions() {
    // CooperativeStickyAssignor.computePartitionsTransferringOwnership (unequal subscriptions):
    // c1 owns everything; c2 joins for t1 only. Whatever moves to c2 is withheld this round.
    let members = [
        member("c1", &["t0", "t1"])
            .owning("t0", [0, 1])
            .owning("t1", [0, 1, 2, 3])
            .in_generation(1),
        member("c2", &["t1"]).in_generation(1),
    ];
    let partitions = topics(&[("t0", 2), ("t1", 4)]);
    let eager = assign(Strategy::Sticky, &partitions, &members);
    assert_eq!(eager["c2"]["t1"].len(), 3, "balance 3 / 3");
    let cooperative = assign(Strategy::CooperativeSticky, &partitions, &members);
    assert!(cooperative["c2"].is_empty());
    assert_eq!(cooperative["c1"], eager["c1"]);
}

#[test]
fn sticky_keeps_topics_spread_when_members_join() {
    // AbstractStickyAssignorTest.testTopicBalanceAfterReassignment (KAFKA-16277): owned partitions
    // are kept in (partition, topic) order, so each member keeps a share of both topics.
    let partitions = topics(&[("topic1", 12), ("topic2", 12)]);
    let both = ["topic1", "topic2"];
    let per_topic = |assignment: &Assignment, want: usize| {
        for (member, topics) in assignment {
            for topic in both {
                assert_eq!(
                    topics.get(topic).map_or(0, Vec::len),
                    want,
                    "{member} {topic}: {assignment:?}"
                );
            }
        }
    };
    let one = [member("consumer1", &both)];
    let first = assign(Strategy::Sticky, &partitions, &one);
    per_topic(&first, 12);

    let two = owning(
        &[one[0].clone(), member("consumer2", &both)],
        &with_empty(&first, "consumer2"),
        1,
    );
    let second = assign(Strategy::Sticky, &partitions, &two);
    per_topic(&second, 6);

    let mut four_members: Vec<MemberSubscription> = two.clone();
    four_members.push(member("consumer3", &both));
    four_members.push(member("consumer4", &both));
    let previous = with_empty(&with_empty(&second, "consumer3"), "consumer4");
    let four = owning(&four_members, &previous, 2);
    let third = assign(Strategy::Sticky, &partitions, &four);
    per_topic(&third, 3);
}

fn with_empty(assignment: &Assignment, member: &str) -> Assignment {
    let mut assignment = assignment.clone();
    assignment.entry(member.to_string()).or_default();
    assignment
}

/// Kafka's `AbstractStickyAssignor.assignPartitions` resolves owned partitions once, in
/// `allSubscriptionsEqual`, and hands the result to the general builder too: a claim from an older
/// generation that no other member contests stays owned (KAFKA-14639). The project's reference
/// says the general builder drops such claims; Kafka's source wins.
#[test]
fn sticky_general_path_keeps_an_uncontested_claim_from_an_older_generation() {
    let partitions = topics(&[("t0", 2), ("t1", 1)]);
    let members = vec![
        member("c1", &["t0", "t1"]).owning("t1", [0]).in_generation(5),
        member("c2", &["t0"]).owning("t0", [0, 1]).in_generation(4),
    ];
    for strategy in [Strategy::Sticky, Strategy::CooperativeSticky] {
        assert_eq!(
            assign(strategy, &partitions, &members),
            expected(&[("c1", &[("t1", &[0])]), ("c2", &[("t0", &[0, 1])])]),
            "{strategy}"
        );
    }
}
