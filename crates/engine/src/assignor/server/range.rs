//! The server-side `range` assignor (Kafka 4.1: `group-coordinator`'s `RangeAssignor`, as rewritten
//! for 3.9 by KAFKA-16944).
//!
//! Members are sorted static first (by instance id), then dynamic (by member id), in Java string
//! order. Each topic's partitions are cut into one contiguous range per subscriber, in that order:
//! `P / M` partitions each, and one more for the first `P % M` (`M` = the topic's subscribers).
//! When every member subscribes to the same topics with equal partition counts, each member gets
//! the same partition numbers of every topic (co-partitioning).
//!
//! The previous target is not read: the result depends only on the members, their subscriptions
//! and the partition counts. Stickiness comes from static members, whose instance ids keep their
//! place in the order across restarts. (The 3.8 server-side range assignor was sticky; 3.9 dropped
//! that, and 4.1 keeps it dropped.)

use std::cmp::Ordering;

use crate::java::string_compare;
use crate::sort::sort_by;

use super::{MemberSpec, Owners, Spec};

/// Static members first by instance id, then dynamic members by member id. Two static members with
/// one instance id (which the coordinator never allows) are ordered by member id.
fn compare(a: &MemberSpec, b: &MemberSpec) -> Ordering {
    match (&a.instance_id, &b.instance_id) {
        (Some(x), Some(y)) => string_compare(x, y).then_with(|| string_compare(&a.member_id, &b.member_id)),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => string_compare(&a.member_id, &b.member_id),
    }
}

pub(super) fn assign(spec: &Spec<'_>) -> Owners {
    let mut owners = spec.no_owners();
    let mut order: Vec<usize> = (0..spec.members.len()).collect();
    sort_by(&mut order, |&a, &b| compare(spec.members[a], spec.members[b]));

    // Per topic: the next partition to hand out and the extra partitions left.
    let mut next = vec![0u32; spec.topics.len()];
    let mut extra: Vec<u32> = spec
        .topics
        .iter()
        .zip(&spec.subscribers)
        .map(|(&(_, n), subs)| n % (subs.len().max(1) as u32))
        .collect();
    for m in order {
        for &t in &spec.subscriptions[m] {
            let t = t as usize;
            let count = spec.topics[t].1;
            let mut quota = count / spec.subscribers[t].len() as u32;
            if extra[t] > 0 {
                quota += 1;
                extra[t] -= 1;
            }
            let start = next[t];
            let end = (start + quota).min(count);
            for p in start..end {
                owners[t][p as usize] = m as i64;
            }
            next[t] = end;
        }
    }
    owners
}
