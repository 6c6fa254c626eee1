//! Property tests for the server-side assignors on random groups (native only: proptest). The
//! guarantees are those Kafka documents for `UniformAssignor` (balance, then stickiness) and
//! `RangeAssignor` (contiguous ranges per topic), reference §7.3.
#![cfg(not(target_arch = "wasm32"))]

use rebalance_engine::collections::Map;
use rebalance_engine::collections::Set;

use proptest::prelude::*;
use rebalance_engine::assignor::server::{
    assign, subscription_type, GroupAssignment, MemberSpec, Partitions, ServerAssignor, SubscriptionType,
};

type Metadata = Map<String, i32>;

const TOPICS: [&str; 4] = ["t2", "t10", "orders", "zz"];
const MEMBERS: [&str; 6] = ["consumer-10", "consumer-2", "c-1", "aaa", "zzz", "\u{FF21}m"];

/// A group: metadata, members (unique ids) with subscriptions (maybe a topic without metadata) and
/// disjoint previous targets (each partition owned by at most one member).
fn group(homogeneous: bool) -> impl Strategy<Value = (Metadata, Vec<MemberSpec>)> {
    prop::collection::btree_map(prop::sample::select(&TOPICS[..]), 0..9i32, 1..=4)
        .prop_map(|m| {
            m.into_iter()
                .map(|(t, n)| (t.to_string(), n))
                .collect::<Metadata>()
        })
        .prop_flat_map(move |md| {
            let mut pool: Vec<String> = md.keys().cloned().collect();
            pool.push("no-metadata".to_string());
            let total: usize = md.values().map(|&n| n as usize).sum();
            (
                Just(md),
                prop::sample::subsequence(MEMBERS.to_vec(), 1..=MEMBERS.len()).prop_shuffle(),
                prop::collection::vec(
                    prop::sample::subsequence(pool.clone(), 0..=pool.len()),
                    MEMBERS.len(),
                ),
                prop::collection::vec(0..=MEMBERS.len(), total),
                prop::collection::vec(prop::option::weighted(0.3, 0..3u8), MEMBERS.len()),
            )
        })
        .prop_map(move |(md, ids, subs, owners, instances)| {
            let mut members: Vec<MemberSpec> = ids
                .iter()
                .enumerate()
                .map(|(i, id)| {
                    let topics = if homogeneous {
                        subs[0].clone()
                    } else {
                        subs[i].clone()
                    };
                    let mut m = MemberSpec::new(*id, topics);
                    // Distinct instance ids (the coordinator guarantees it).
                    m.instance_id = instances[i].map(|k| format!("inst-{k}-{i}"));
                    m
                })
                .collect();
            let mut k = 0;
            for (topic, &n) in &md {
                for partition in 0..n {
                    if let Some(m) = members.get_mut(owners[k]) {
                        m.target.entry(topic.clone()).or_default().insert(partition);
                    }
                    k += 1;
                }
            }
            (md, members)
        })
}

fn count(a: &Partitions) -> usize {
    a.values().map(Set::len).sum()
}

/// Every partition of a topic with metadata that some member subscribes to is assigned exactly once,
/// to a subscriber; nothing else is assigned; every member is present.
fn check_valid(md: &Metadata, members: &[MemberSpec], a: &GroupAssignment) -> Result<(), TestCaseError> {
    prop_assert_eq!(a.len(), members.len());
    let mut owner: Map<(String, i32), &str> = Map::new();
    for (member, partitions) in a {
        let spec = members
            .iter()
            .find(|m| &m.member_id == member)
            .expect("known member");
        for (topic, set) in partitions {
            prop_assert!(
                spec.subscribed_topics.contains(topic),
                "{member} got unsubscribed {topic}"
            );
            prop_assert!(!set.is_empty(), "normal form");
            for &p in set {
                prop_assert!(p >= 0 && p < md[topic]);
                prop_assert!(
                    owner.insert((topic.clone(), p), member).is_none(),
                    "{topic}-{p} twice"
                );
            }
        }
    }
    for (topic, &n) in md {
        if members.iter().any(|m| m.subscribed_topics.contains(topic)) {
            for p in 0..n {
                prop_assert!(owner.contains_key(&(topic.clone(), p)), "{topic}-{p} unassigned");
            }
        }
    }
    Ok(())
}

/// The target as every member's next previous target.
fn with_targets(members: &[MemberSpec], a: &GroupAssignment) -> Vec<MemberSpec> {
    members
        .iter()
        .map(|m| MemberSpec {
            target: a[&m.member_id].clone(),
            ..m.clone()
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn every_subscribed_partition_is_assigned_exactly_once((md, members) in group(false)) {
        for assignor in ServerAssignor::ALL {
            let a = assign(assignor, &md, &members);
            check_valid(&md, &members, &a)?;
        }
    }

    #[test]
    fn uniform_homogeneous_counts_differ_by_at_most_one((md, members) in group(true)) {
        prop_assert_eq!(subscription_type(&members), SubscriptionType::Homogeneous);
        let a = assign(ServerAssignor::Uniform, &md, &members);
        check_valid(&md, &members, &a)?;
        let counts: Vec<usize> = a.values().map(count).collect();
        let (min, max) = (counts.iter().min().unwrap(), counts.iter().max().unwrap());
        prop_assert!(max - min <= 1, "{:?}", counts);
    }

    #[test]
    fn uniform_homogeneous_keeps_as_much_of_each_previous_target_as_its_new_size_allows(
        (md, members) in group(true)
    ) {
        // Stickiness: a member keeps min(|previous|, |new|) of its (subscribed, existing) previous
        // partitions; nothing moves that balance does not require.
        let a = assign(ServerAssignor::Uniform, &md, &members);
        for m in &members {
            let previous: Set<(String, i32)> = m.target.iter()
                .filter(|(t, _)| m.subscribed_topics.contains(t) && md.contains_key(*t))
                .flat_map(|(t, ps)| ps.iter().map(move |&p| (t.clone(), p)))
                .collect();
            let new: Set<(String, i32)> = a[&m.member_id].iter()
                .flat_map(|(t, ps)| ps.iter().map(move |&p| (t.clone(), p)))
                .collect();
            let kept = previous.intersection(&new).count();
            prop_assert_eq!(kept, previous.len().min(new.len()), "{}", m.member_id);
        }
    }

    #[test]
    fn a_target_assigned_again_stays_the_same((md, members) in group(false)) {
        // Nothing changed, nothing moves: the target is a fixed point of the assignor.
        for assignor in ServerAssignor::ALL {
            let a = assign(assignor, &md, &members);
            let again = assign(assignor, &md, &with_targets(&members, &a));
            prop_assert_eq!(&again, &a, "{}", assignor);
        }
    }

    #[test]
    fn adding_a_member_to_a_balanced_group_moves_only_what_balance_requires((md, members) in group(true)) {
        prop_assume!(members.len() >= 2);
        let (old, newcomer) = members.split_at(members.len() - 1);
        let before = assign(ServerAssignor::Uniform, &md, old);
        let mut grown = with_targets(old, &before);
        grown.push(MemberSpec { target: Partitions::new(), ..newcomer[0].clone() });
        let after = assign(ServerAssignor::Uniform, &md, &grown);
        check_valid(&md, &grown, &after)?;
        let mut moved = 0;
        for m in old {
            let (b, a) = (&before[&m.member_id], &after[&m.member_id]);
            // An old member only loses partitions, and loses only down to its new size.
            let lost: usize = b.iter()
                .map(|(t, ps)| ps.iter().filter(|p| !a.get(t).is_some_and(|s| s.contains(p))).count())
                .sum();
            prop_assert_eq!(lost, count(b).saturating_sub(count(a)), "{}", m.member_id);
            moved += lost;
        }
        prop_assert_eq!(moved, count(&after[&newcomer[0].member_id]));
    }

    #[test]
    fn uniform_heterogeneous_leaves_no_improving_move_within_a_topic((md, members) in group(false)) {
        // Kafka balances per topic: no member holds a partition of a topic that a subscriber with
        // at least two fewer partitions in total could take.
        let a = assign(ServerAssignor::Uniform, &md, &members);
        let total: Map<&str, usize> = a.iter().map(|(m, p)| (m.as_str(), count(p))).collect();
        for (holder, partitions) in &a {
            for topic in partitions.keys() {
                for other in members.iter().filter(|m| m.subscribed_topics.contains(topic)) {
                    prop_assert!(
                        total[holder.as_str()] <= total[other.member_id.as_str()] + 1,
                        "{} ({}) holds {} that {} ({}) could take",
                        holder, total[holder.as_str()], topic, other.member_id, total[other.member_id.as_str()]
                    );
                }
            }
        }
    }

    #[test]
    fn range_gives_each_subscriber_a_contiguous_block_larger_ones_first((md, members) in group(false)) {
        let a = assign(ServerAssignor::Range, &md, &members);
        check_valid(&md, &members, &a)?;
        for (topic, &n) in &md {
            let holders: Vec<(i32, i32, usize)> = {
                let mut v: Vec<(i32, i32, usize)> = a.values()
                    .filter_map(|p| p.get(topic))
                    .map(|s| (*s.first().unwrap(), *s.last().unwrap(), s.len()))
                    .collect();
                v.sort();
                v
            };
            let subscribers = members.iter().filter(|m| m.subscribed_topics.contains(topic)).count();
            if subscribers == 0 || n == 0 {
                continue;
            }
            for &(first, last, len) in &holders {
                prop_assert_eq!((last - first + 1) as usize, len, "contiguous");
            }
            let q = n as usize / subscribers;
            let sizes: Vec<usize> = holders.iter().map(|h| h.2).collect();
            prop_assert!(sizes.iter().all(|&s| s == q || s == q + 1));
            prop_assert!(sizes.windows(2).all(|w| w[0] >= w[1]), "{:?}", sizes);
        }
    }
}
