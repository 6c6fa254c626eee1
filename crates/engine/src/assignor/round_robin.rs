//! `RoundRobinAssignor` (`"roundrobin"`).
//!
//! Kafka lists every partition of every subscribed topic (topics in Java `String` order, then
//! partitions ascending) and deals them out around a circle of members sorted by
//! [`compare_members`](super::compare_members). A member not subscribed to the partition's topic
//! is skipped. The position carries over from one topic to the next; it is never reset.

use super::{compare_members, Group};
use crate::sort::sort_by;

pub(super) fn assign(group: &Group<'_>) -> Vec<Vec<u32>> {
    let mut result = vec![Vec::new(); group.members.len()];
    let mut circle: Vec<u32> = (0..group.members.len() as u32).collect();
    sort_by(&mut circle, |&a, &b| {
        compare_members(group.members[a as usize], group.members[b as usize])
    });
    let mut position = 0;
    // Flat partition indices are already in (topic, partition) order.
    for (partition, &topic) in group.partition_topic.iter().enumerate() {
        // Every listed topic has a subscriber, so this loop ends within one turn of the circle.
        while !group.is_subscribed(circle[position], topic) {
            position = (position + 1) % circle.len();
        }
        result[circle[position] as usize].push(partition as u32);
        position = (position + 1) % circle.len();
    }
    result
}
