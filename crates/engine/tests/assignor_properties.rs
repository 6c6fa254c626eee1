//! Property tests for the four assignors on random groups (native only: proptest).
//!
//! Range and roundrobin are compared with deliberately naive re-implementations written here from
//! the reference (§9.1, §9.2); sticky and cooperative-sticky are checked against the guarantees
//! Kafka documents for `AbstractStickyAssignor` (§9.3) and KIP-429 (§8.3).
#![cfg(not(target_arch = "wasm32"))]

use rebalance_engine::collections::Map;
use rebalance_engine::collections::Set;
use std::cmp::Ordering;

use proptest::prelude::*;
use rebalance_engine::assignor::{assign, Assignment, MemberSubscription, Strategy as Assignor};

type Partitions = Map<String, i32>;
type Tp = (String, i32);

// ---------------------------------------------------------------------------------------------
// Generators

/// Topic names chosen so that Java and Rust string order disagree ("t10" < "t2" in both, but
/// U+FF21 sorts after U+1F600 only in Java's UTF-16 order).
const TOPIC_NAMES: [&str; 6] = ["t2", "t10", "orders", "\u{FF21}", "\u{1F600}", "zz"];
const MEMBER_NAMES: [&str; 8] = [
    "consumer-10",
    "consumer-2",
    "c-1",
    "c-3",
    "\u{FF21}m",
    "\u{1F600}m",
    "aaa",
    "zzz",
];

fn partitions_strategy() -> impl Strategy<Value = Partitions> {
    prop::collection::btree_map(prop::sample::select(&TOPIC_NAMES[..]), 0..7i32, 1..5)
        .prop_map(|m| m.into_iter().map(|(t, n)| (t.to_string(), n)).collect())
}

/// Members with unique ids and unique instance ids; topics may include one without metadata.
fn members_strategy(
    partitions: &Partitions,
    equal_subscriptions: bool,
) -> impl Strategy<Value = Vec<MemberSubscription>> {
    let mut pool: Vec<String> = partitions.keys().cloned().collect();
    pool.push("no-metadata".to_string());
    let pool_for_claims = pool.clone();
    let subscription = prop::sample::subsequence(pool.clone(), 0..=pool.len());
    (
        prop::sample::subsequence(MEMBER_NAMES.to_vec(), 1..=MEMBER_NAMES.len()).prop_shuffle(),
        prop::collection::vec(
            (
                prop::option::weighted(0.3, 0..3u8),
                subscription,
                prop::collection::vec((prop::sample::select(pool_for_claims), 0..7i32), 0..8),
                prop::option::weighted(0.8, 0..4i32),
            ),
            MEMBER_NAMES.len(),
        ),
        prop::sample::subsequence(pool, 0..=2),
    )
        .prop_map(move |(ids, details, shared)| {
            let mut used_instances = Set::new();
            ids.iter()
                .zip(details)
                .map(|(id, (instance, topics, claims, generation))| {
                    let topics = if equal_subscriptions {
                        shared.clone()
                    } else {
                        topics
                    };
                    let mut member = MemberSubscription::new(*id, topics);
                    if let Some(i) = instance.filter(|i| used_instances.insert(*i)) {
                        member = member.with_instance_id(format!("inst-{i}"));
                    }
                    for (topic, p) in claims {
                        member = member.owning(topic, [p]);
                    }
                    member.generation = generation;
                    member
                })
                .collect()
        })
}

fn group(equal_subscriptions: bool) -> impl Strategy<Value = (Partitions, Vec<MemberSubscription>)> {
    partitions_strategy().prop_flat_map(move |p| {
        let members = members_strategy(&p, equal_subscriptions);
        (Just(p), members)
    })
}

fn any_group() -> impl Strategy<Value = (Partitions, Vec<MemberSubscription>)> {
    prop::bool::ANY.prop_flat_map(group)
}

/// Equal subscriptions and a *valid* previous assignment: each partition owned by at most one
/// member, all in one generation (previous members may have left, so some are unowned).
fn group_with_valid_previous() -> impl Strategy<Value = (Partitions, Vec<MemberSubscription>)> {
    group(true).prop_flat_map(|(partitions, members)| {
        let all = all_partitions(&partitions, &members);
        let owners = prop::collection::vec(0..members.len() + 2, all.len());
        (Just(partitions), Just(members), Just(all), owners).prop_map(|(p, members, all, owners)| {
            let mut members: Vec<MemberSubscription> = members
                .into_iter()
                .map(|mut m| {
                    m.owned_partitions.clear();
                    m.generation = Some(7);
                    m
                })
                .collect();
            for ((topic, partition), owner) in all.into_iter().zip(owners) {
                if let Some(m) = members.get_mut(owner) {
                    m.owned_partitions.entry(topic).or_default().push(partition);
                }
            }
            (p, members)
        })
    })
}

// ---------------------------------------------------------------------------------------------
// Helpers

fn java_cmp(a: &str, b: &str) -> Ordering {
    a.encode_utf16()
        .collect::<Vec<u16>>()
        .cmp(&b.encode_utf16().collect::<Vec<u16>>())
}

fn subscribes(m: &MemberSubscription, topic: &str) -> bool {
    m.topics.iter().any(|t| t == topic)
}

/// Every partition some member subscribes to, that exists.
fn all_partitions(partitions: &Partitions, members: &[MemberSubscription]) -> Vec<Tp> {
    partitions
        .iter()
        .filter(|(t, _)| members.iter().any(|m| subscribes(m, t)))
        .flat_map(|(t, &n)| (0..n).map(move |p| (t.clone(), p)))
        .collect()
}

fn owners(assignment: &Assignment) -> Map<Tp, Vec<String>> {
    let mut owners: Map<Tp, Vec<String>> = Map::new();
    for (member, topics) in assignment {
        for (topic, ps) in topics {
            for &p in ps {
                owners.entry((topic.clone(), p)).or_default().push(member.clone());
            }
        }
    }
    owners
}

fn count(assignment: &Assignment, member: &str) -> usize {
    assignment[member].values().map(Vec::len).sum()
}

/// The claims each member makes on partitions that exist.
fn claims(partitions: &Partitions, m: &MemberSubscription) -> Set<Tp> {
    m.owned_partitions
        .iter()
        .flat_map(|(t, ps)| ps.iter().map(move |&p| (t.clone(), p)))
        .filter(|(t, p)| partitions.get(t).is_some_and(|&n| *p >= 0 && *p < n))
        .collect()
}

/// Shape checks shared by all assignors: every member present, partitions ascending and unique
/// per topic, no empty topic lists, only subscribed partitions that exist.
fn check_shape(
    partitions: &Partitions,
    members: &[MemberSubscription],
    got: &Assignment,
) -> Result<(), TestCaseError> {
    let ids: Set<&str> = members.iter().map(|m| m.member_id.as_str()).collect();
    prop_assert_eq!(got.keys().map(String::as_str).collect::<Set<_>>(), ids);
    for m in members {
        for (topic, ps) in &got[&m.member_id] {
            prop_assert!(!ps.is_empty(), "empty list for {}", topic);
            prop_assert!(ps.windows(2).all(|w| w[0] < w[1]), "not ascending: {:?}", ps);
            prop_assert!(
                subscribes(m, topic),
                "{} got {} without subscribing",
                m.member_id,
                topic
            );
            let n = partitions[topic];
            prop_assert!(ps.iter().all(|&p| p >= 0 && p < n));
        }
    }
    Ok(())
}

/// Each subscribed partition assigned exactly once.
fn check_complete(
    partitions: &Partitions,
    members: &[MemberSubscription],
    got: &Assignment,
) -> Result<(), TestCaseError> {
    check_shape(partitions, members, got)?;
    let owners = owners(got);
    let all = all_partitions(partitions, members);
    prop_assert_eq!(owners.len(), all.len());
    for tp in all {
        prop_assert_eq!(owners.get(&tp).map(Vec::len), Some(1), "{:?}", tp);
    }
    Ok(())
}

/// Kafka's balance: no member with two fewer partitions than another could take one of them.
fn check_balanced(members: &[MemberSubscription], got: &Assignment) -> Result<(), TestCaseError> {
    for small in members {
        for big in members {
            if count(got, &small.member_id) + 2 <= count(got, &big.member_id) {
                for topic in got[&big.member_id].keys() {
                    prop_assert!(
                        !subscribes(small, topic),
                        "{} could take a partition of {} from {}",
                        small.member_id,
                        topic,
                        big.member_id
                    );
                }
            }
        }
    }
    Ok(())
}

/// The owned partitions after settling conflicts (reference §9.3): the highest generation claim
/// wins; a tie at the top leaves the partition unowned. (This is the same-subscription rule; the
/// general builder additionally ignores every generation but the highest.)
fn settled_ownership(partitions: &Partitions, members: &[MemberSubscription]) -> Map<String, Set<Tp>> {
    // Claims on topics nobody subscribes to do not count: Kafka's assignor never sees those topics.
    let relevant: Set<Tp> = all_partitions(partitions, members).into_iter().collect();
    let mut best: Map<Tp, (i32, Vec<String>)> = Map::new();
    for m in members {
        let generation = m.generation.unwrap_or(-1);
        for tp in claims(partitions, m).intersection(&relevant).cloned() {
            let entry = best.entry(tp).or_insert((generation, Vec::new()));
            if generation > entry.0 {
                *entry = (generation, Vec::new());
            }
            if generation == entry.0 {
                entry.1.push(m.member_id.clone());
            }
        }
    }
    let mut owned: Map<String, Set<Tp>> = members
        .iter()
        .map(|m| (m.member_id.clone(), Set::new()))
        .collect();
    for (tp, (_, claimers)) in best {
        if let [only] = claimers.as_slice() {
            owned.get_mut(only).unwrap().insert(tp);
        }
    }
    owned
}

fn kept(got: &Assignment, owned: &Map<String, Set<Tp>>) -> usize {
    owners(got)
        .into_iter()
        .filter(|(tp, who)| owned[&who[0]].contains(tp))
        .count()
}

/// With equal subscriptions, the most owned partitions a balanced assignment can keep:
/// everyone keeps up to `minQuota`, and `P mod C` members that own `maxQuota` keep one more.
fn max_keepable(total: usize, owned: &Map<String, Set<Tp>>) -> usize {
    let n = owned.len();
    let (min_quota, extra) = (total / n, total % n);
    let base: usize = owned.values().map(|o| o.len().min(min_quota)).sum();
    let can_take_extra = owned.values().filter(|o| o.len() > min_quota).count();
    base + if extra > 0 { extra.min(can_take_extra) } else { 0 }
}

fn with_previous(
    members: &[MemberSubscription],
    previous: &Assignment,
    generation: i32,
) -> Vec<MemberSubscription> {
    members
        .iter()
        .map(|m| MemberSubscription {
            owned_partitions: previous[&m.member_id].clone(),
            generation: Some(generation),
            ..m.clone()
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Naive references for range and roundrobin, from the reference's prose.

fn member_sort_key(a: &MemberSubscription, b: &MemberSubscription) -> Ordering {
    // Static members first, by instance id; then member id; Java (UTF-16) order.
    match (&a.group_instance_id, &b.group_instance_id) {
        (Some(x), Some(y)) => java_cmp(x, y),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => java_cmp(&a.member_id, &b.member_id),
    }
}

fn empty_assignment(members: &[MemberSubscription]) -> Assignment {
    members
        .iter()
        .map(|m| (m.member_id.clone(), Map::new()))
        .collect()
}

fn give(result: &mut Assignment, member: &str, topic: &str, p: i32) {
    result
        .get_mut(member)
        .unwrap()
        .entry(topic.to_string())
        .or_default()
        .push(p);
}

fn naive_range(partitions: &Partitions, members: &[MemberSubscription]) -> Assignment {
    let mut result = empty_assignment(members);
    for (topic, &n) in partitions {
        let mut subscribers: Vec<&MemberSubscription> =
            members.iter().filter(|m| subscribes(m, topic)).collect();
        if subscribers.is_empty() || n <= 0 {
            continue;
        }
        subscribers.sort_by(|a, b| member_sort_key(a, b));
        let c = subscribers.len() as i32;
        for (i, m) in subscribers.iter().enumerate() {
            let i = i as i32;
            let start = i * (n / c) + i.min(n % c);
            let len = n / c + i32::from(i < n % c);
            for p in start..start + len {
                give(&mut result, &m.member_id, topic, p);
            }
        }
    }
    result
}

fn naive_round_robin(partitions: &Partitions, members: &[MemberSubscription]) -> Assignment {
    let mut result = empty_assignment(members);
    let mut sorted: Vec<&MemberSubscription> = members.iter().collect();
    sorted.sort_by(|a, b| member_sort_key(a, b));
    let mut topics: Vec<&String> = partitions
        .keys()
        .filter(|t| partitions[*t] > 0 && members.iter().any(|m| subscribes(m, t)))
        .collect();
    topics.sort_by(|a, b| java_cmp(a, b));
    let mut at = 0;
    for topic in topics {
        for p in 0..partitions[topic] {
            while !subscribes(sorted[at], topic) {
                at = (at + 1) % sorted.len();
            }
            give(&mut result, &sorted[at].member_id, topic, p);
            at = (at + 1) % sorted.len();
        }
    }
    result
}

// ---------------------------------------------------------------------------------------------
// Properties

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn range_equals_naive_reference((partitions, members) in any_group()) {
        let got = assign(Assignor::Range, &partitions, &members);
        check_complete(&partitions, &members, &got)?;
        prop_assert_eq!(got, naive_range(&partitions, &members));
    }

    #[test]
    fn roundrobin_equals_naive_reference((partitions, members) in any_group()) {
        let got = assign(Assignor::RoundRobin, &partitions, &members);
        check_complete(&partitions, &members, &got)?;
        prop_assert_eq!(got, naive_round_robin(&partitions, &members));
    }

    #[test]
    fn sticky_is_complete_and_balanced((partitions, members) in any_group()) {
        let got = assign(Assignor::Sticky, &partitions, &members);
        check_complete(&partitions, &members, &got)?;
        check_balanced(&members, &got)?;
    }

    #[test]
    fn sticky_with_equal_subscriptions_differs_by_at_most_one((partitions, members) in group(true)) {
        let got = assign(Assignor::Sticky, &partitions, &members);
        let counts: Vec<usize> = members.iter().map(|m| count(&got, &m.member_id)).collect();
        let (lo, hi) = (counts.iter().min().unwrap(), counts.iter().max().unwrap());
        prop_assert!(hi - lo <= 1, "counts {:?}", counts);
    }

    #[test]
    fn sticky_keeps_the_most_owned_partitions_balance_allows((partitions, members) in group_with_valid_previous()) {
        let got = assign(Assignor::Sticky, &partitions, &members);
        check_complete(&partitions, &members, &got)?;
        let owned = settled_ownership(&partitions, &members);
        let total = all_partitions(&partitions, &members).len();
        prop_assert_eq!(kept(&got, &owned), max_keepable(total, &owned));
    }

    #[test]
    fn sticky_settles_conflicting_claims_by_generation((partitions, members) in group(true)) {
        // Random overlapping claims in random generations: the settled ownership (higher
        // generation wins, ties cancel) is kept as far as balance allows, and nothing else is.
        let got = assign(Assignor::Sticky, &partitions, &members);
        let owned = settled_ownership(&partitions, &members);
        let total = all_partitions(&partitions, &members).len();
        prop_assert_eq!(kept(&got, &owned), max_keepable(total, &owned));
    }

    #[test]
    fn sticky_keeps_a_balanced_assignment_unchanged((partitions, members) in any_group()) {
        let first = assign(Assignor::Sticky, &partitions, &members);
        let again = assign(Assignor::Sticky, &partitions, &with_previous(&members, &first, 3));
        prop_assert_eq!(again, first);
    }

    #[test]
    fn sticky_keeps_everything_of_a_member_that_stays_when_one_leaves((partitions, members) in group(true)) {
        if members.len() < 2 {
            return Ok(());
        }
        let first = assign(Assignor::Sticky, &partitions, &members);
        let remaining = with_previous(&members[1..], &first, 4);
        let second = assign(Assignor::Sticky, &partitions, &remaining);
        check_complete(&partitions, &remaining, &second)?;
        // Nobody is above the new quota, so nobody loses anything.
        for m in &remaining {
            for (topic, ps) in &first[&m.member_id] {
                let now = second[&m.member_id].get(topic).cloned().unwrap_or_default();
                prop_assert!(ps.iter().all(|p| now.contains(p)), "{} lost part of {}", m.member_id, topic);
            }
        }
    }

    #[test]
    fn cooperative_never_hands_over_a_partition_it_revokes((partitions, members) in any_group()) {
        let got = assign(Assignor::CooperativeSticky, &partitions, &members);
        check_shape(&partitions, &members, &got)?;
        let eager = assign(Assignor::Sticky, &partitions, &members);
        let owners = owners(&got);
        let all_claims: Map<&str, Set<Tp>> =
            members.iter().map(|m| (m.member_id.as_str(), claims(&partitions, m))).collect();
        let claimed_by_anyone = |tp: &Tp| all_claims.values().any(|c| c.contains(tp));
        for tp in all_partitions(&partitions, &members) {
            match owners.get(&tp).map(Vec::as_slice) {
                // Assigned at most once, and to a member that either claimed it or that takes it
                // from nobody.
                Some([member]) => prop_assert!(
                    all_claims[member.as_str()].contains(&tp) || !claimed_by_anyone(&tp),
                    "{:?} handed to {} while another member still owns it", tp, member
                ),
                Some(several) => prop_assert!(false, "{:?} assigned to {:?}", tp, several),
                // Unassigned only while it is being revoked from a previous owner.
                None => prop_assert!(claimed_by_anyone(&tp), "{:?} left unassigned but nobody owns it", tp),
            }
        }
        // Otherwise it is the sticky assignment.
        for (member, topics) in &got {
            for (topic, ps) in topics {
                let eager_ps = &eager[member][topic];
                prop_assert!(ps.iter().all(|p| eager_ps.contains(p)));
            }
        }
    }

    #[test]
    fn cooperative_completes_in_the_follow_up_rebalance((partitions, members) in any_group()) {
        let first = assign(Assignor::CooperativeSticky, &partitions, &members);
        let second = assign(Assignor::CooperativeSticky, &partitions, &with_previous(&members, &first, 10));
        let third = assign(Assignor::CooperativeSticky, &partitions, &with_previous(&members, &second, 11));
        // Equal subscriptions finish in the second rebalance, as in the reference's example; the
        // general builder may move a partition once more.
        let equal = members.iter().all(|m| m.topics.iter().collect::<Set<_>>() == members[0].topics.iter().collect());
        let done = if equal { &second } else { &third };
        check_complete(&partitions, &members, done)?;
        check_balanced(&members, done)?;
    }
}

/// Bigger groups with many overlapping subscriptions and stale claims, to drive the general
/// builder through long sequences of moves.
fn large_group() -> impl Strategy<Value = (Partitions, Vec<MemberSubscription>)> {
    (
        prop::collection::vec(0..40i32, 1..8),
        prop::collection::vec(
            (prop::collection::vec(prop::bool::weighted(0.4), 8), 0..4i32),
            2..40,
        ),
        prop::collection::vec((0..48usize, 0..8usize, 0..40i32), 0..200),
    )
        .prop_map(|(counts, specs, claims)| {
            let partitions: Partitions = counts
                .iter()
                .enumerate()
                .map(|(t, &n)| (format!("topic-{t}"), n))
                .collect();
            let mut members: Vec<MemberSubscription> = specs
                .iter()
                .enumerate()
                .map(|(i, (subscribed, generation))| {
                    let topics = (0..counts.len())
                        .filter(|&t| subscribed[t])
                        .map(|t| format!("topic-{t}"));
                    MemberSubscription::new(format!("member-{i}"), topics).in_generation(*generation)
                })
                .collect();
            for (member, topic, p) in claims {
                if let Some(m) = members.get_mut(member) {
                    m.owned_partitions
                        .entry(format!("topic-{topic}"))
                        .or_default()
                        .push(p);
                }
            }
            (partitions, members)
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 60, ..ProptestConfig::default() })]

    #[test]
    fn large_groups_stay_complete_balanced_and_safe((partitions, members) in large_group()) {
        let sticky = assign(Assignor::Sticky, &partitions, &members);
        check_complete(&partitions, &members, &sticky)?;
        check_balanced(&members, &sticky)?;
        let again = assign(Assignor::Sticky, &partitions, &with_previous(&members, &sticky, 9));
        prop_assert_eq!(&again, &sticky);

        let cooperative = assign(Assignor::CooperativeSticky, &partitions, &members);
        check_shape(&partitions, &members, &cooperative)?;
        for (member, topics) in &cooperative {
            for (topic, ps) in topics {
                prop_assert!(ps.iter().all(|p| sticky[member][topic].contains(p)));
            }
        }
    }
}
