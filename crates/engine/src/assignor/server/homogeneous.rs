//! `uniform` when every member subscribes to the same topics (Kafka 4.1:
//! `UniformHomogeneousAssignmentBuilder`).
//!
//! With `P` partitions and `M` members, every member gets `P / M` partitions and `P % M` of them one
//! more. In member order, each member:
//!
//! 1. gets a quota of `P / M`, plus one while members with an extra partition are still to be picked;
//! 2. keeps partitions of its previous target up to the quota (per topic in name order, partitions
//!    ascending) and returns the rest to the free list;
//! 3. if it is under its quota and took an extra slot, gives that slot back, unless it is among the
//!    last members that must take one (so that members already at `P / M + 1` keep their extra);
//! 4. is remembered with what is left of its quota.
//!
//! Then the members under quota, in that order, take partitions from the free list: first the
//! partitions no previous target had (topics in name order, partitions ascending), then the ones
//! returned in step 2, in the order returned. Kafka's free list starts in `HashSet<Uuid>` order of
//! the topics; name order replaces it here (see the module docs of [`super`]).

use super::{Owners, Spec};

pub(super) fn assign(spec: &Spec<'_>) -> Owners {
    let mut owners = spec.no_owners();
    let n = spec.members.len();
    // Homogeneous: every member has the same subscription.
    let subscribed = &spec.subscriptions[0];
    if subscribed.is_empty() {
        return owners;
    }

    // The inverted previous target: which partitions some member's previous target holds.
    let mut previously_owned: Vec<Vec<bool>> = spec
        .topics
        .iter()
        .map(|&(_, c)| vec![false; c as usize])
        .collect();
    for (t, partitions) in spec.previous.iter().flatten() {
        for &p in partitions {
            previously_owned[*t as usize][p as usize] = true;
        }
    }
    let mut free: Vec<(u32, u32)> = Vec::new();
    let mut total = 0usize;
    for &t in subscribed {
        let count = spec.topics[t as usize].1;
        total += count as usize;
        free.extend(
            (0..count)
                .filter(|&p| !previously_owned[t as usize][p as usize])
                .map(|p| (t, p)),
        );
    }

    let min_quota = total / n;
    let mut extra_left = total % n;
    let mut unfilled: Vec<(usize, usize)> = Vec::new();
    for (m, previous) in spec.previous.iter().enumerate() {
        let mut quota = min_quota;
        let mut has_extra = false;
        if extra_left > 0 {
            quota += 1;
            has_extra = true;
        }
        for (t, partitions) in previous {
            if subscribed.binary_search(t).is_err() {
                // A topic the group no longer subscribes to: dropped, not freed.
                continue;
            }
            for &p in partitions {
                if quota > 0 {
                    quota -= 1;
                    owners[*t as usize][p as usize] = m as i64;
                } else {
                    free.push((*t, p));
                }
            }
        }
        if quota > 0 && has_extra && n - m > extra_left {
            quota -= 1;
            has_extra = false;
        }
        if quota > 0 {
            unfilled.push((m, quota));
        }
        if has_extra {
            extra_left -= 1;
        }
    }

    let mut free = free.into_iter();
    for (m, quota) in unfilled {
        for (t, p) in free.by_ref().take(quota) {
            owners[t as usize][p as usize] = m as i64;
        }
    }
    // Kafka throws "Partitions were left unassigned" here; the quotas add up to the partition count.
    debug_assert!(free.next().is_none(), "partitions were left unassigned");
    owners
}
