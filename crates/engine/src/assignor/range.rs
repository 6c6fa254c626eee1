//! `RangeAssignor` (`"range"`), without rack awareness.
//!
//! Kafka handles each topic on its own: the topic's subscribers, sorted by
//! [`compare_members`](super::compare_members), get contiguous ranges in ascending partition order,
//! `⌊P/C⌋` each, and the first `P mod C` of them one more. Because every topic favours the same
//! first members, range can be very unbalanced across topics; that is Kafka's behaviour, kept here.

use super::{compare_members, Group};
use crate::sort::sort_by;

pub(super) fn assign(group: &Group<'_>) -> Vec<Vec<u32>> {
    let mut result = vec![Vec::new(); group.members.len()];
    for topic in &group.topics {
        let mut consumers = topic.subscribers.clone();
        sort_by(&mut consumers, |&a, &b| {
            compare_members(group.members[a as usize], group.members[b as usize])
        });
        let count = consumers.len() as u32;
        let (per_member, extra) = (topic.partitions / count, topic.partitions % count);
        let mut next = topic.first;
        for (position, &member) in consumers.iter().enumerate() {
            let take = per_member + u32::from((position as u32) < extra);
            result[member as usize].extend(next..next + take);
            next += take;
        }
    }
    result
}
