//! `uniform` when members subscribe to different topics (Kafka 4.1:
//! `UniformHeterogeneousAssignmentBuilder`).
//!
//! 1. **Keep**: every member keeps the partitions of its previous target that it still subscribes
//!    to; the rest is dropped.
//! 2. **Fill**: the free partitions are handed out topic by topic, each partition to the topic's
//!    least loaded subscriber (by total partitions, then member order). Topics go in order of
//!    partitions per subscriber (descending), then subscriber count (ascending), then name (Kafka:
//!    topic id).
//! 3. **Balance**: for each topic with at least two subscribers, in the same order, partitions move
//!    from its most loaded subscribers (their highest-numbered partition of the topic first) to its
//!    least loaded ones until their totals differ by at most one. Rounds over all topics repeat until
//!    a whole round moves nothing, at most 16 times (`MAX_ITERATION_COUNT`).
//!
//! Balance is per topic: with overlapping subscriptions the group can end up slightly unbalanced
//! overall (Kafka's Javadoc gives 9/10/11), but no single move within a topic's subscribers would
//! improve it.

use std::cmp::Ordering;

use crate::sort::sort_by;

use super::{Owners, Spec};

/// Kafka: `MAX_ITERATION_COUNT`.
const MAX_ROUNDS: usize = 16;

struct Builder<'s, 'a> {
    spec: &'s Spec<'a>,
    owners: Owners,
    /// Per member: its partition count in the assignment being built.
    sizes: Vec<i64>,
}

pub(super) fn assign(spec: &Spec<'_>) -> Owners {
    let mut b = Builder {
        spec,
        owners: spec.no_owners(),
        sizes: vec![0; spec.members.len()],
    };
    b.keep_subscribed();
    b.fill();
    b.balance();
    b.owners
}

impl Builder<'_, '_> {
    fn keep_subscribed(&mut self) {
        for (m, previous) in self.spec.previous.iter().enumerate() {
            for (t, partitions) in previous {
                if self.spec.subscriptions[m].binary_search(t).is_ok() {
                    self.sizes[m] += partitions.len() as i64;
                    for &p in partitions {
                        self.owners[*t as usize][p as usize] = m as i64;
                    }
                }
            }
        }
    }

    /// Kafka's topic order: partitions per subscriber descending (as a `double`, as Kafka compares),
    /// subscriber count ascending, then name.
    fn compare_topics(&self, a: u32, b: u32) -> Ordering {
        let per_subscriber = |t: u32| {
            f64::from(self.spec.topics[t as usize].1) / self.spec.subscribers[t as usize].len() as f64
        };
        let subscribers = |t: u32| self.spec.subscribers[t as usize].len();
        per_subscriber(b)
            .total_cmp(&per_subscriber(a))
            .then_with(|| subscribers(a).cmp(&subscribers(b)))
            .then_with(|| a.cmp(&b))
    }

    fn sorted_topics(&self, mut topics: Vec<u32>) -> Vec<u32> {
        sort_by(&mut topics, |&a, &b| self.compare_topics(a, b));
        topics
    }

    fn fill(&mut self) {
        let with_free: Vec<u32> = (0..self.spec.topics.len() as u32)
            .filter(|&t| self.owners[t as usize].contains(&-1))
            .collect();
        let mut balancer = Balancer::default();
        for t in self.sorted_topics(with_free) {
            balancer.initialize(&self.spec.subscribers[t as usize], &self.sizes);
            let free: Vec<usize> = (0..self.owners[t as usize].len())
                .filter(|&p| self.owners[t as usize][p] == -1)
                .collect();
            for p in free {
                let m = balancer.next_least_loaded(&self.sizes);
                self.move_partition(t, p, m);
            }
        }
    }

    fn balance(&mut self) {
        let movable: Vec<u32> = (0..self.spec.topics.len() as u32)
            .filter(|&t| self.spec.subscribers[t as usize].len() >= 2)
            .collect();
        let topics = self.sorted_topics(movable);
        let mut balancer = Balancer::default();
        // The last topic whose pass moved something (or the first topic): a full round back to it
        // without a move means nothing more can move.
        let mut last_moved: Option<usize> = None;
        for _ in 0..MAX_ROUNDS {
            for (i, &t) in topics.iter().enumerate() {
                if last_moved == Some(i) {
                    return;
                }
                let moved = self.balance_topic(t, &mut balancer);
                if moved > 0 || last_moved.is_none() {
                    last_moved = Some(i);
                }
            }
        }
    }

    /// Moves partitions of topic `t` from its most to its least loaded subscribers; returns how many.
    fn balance_topic(&mut self, t: u32, balancer: &mut Balancer) -> usize {
        let imbalance = balancer.initialize(&self.spec.subscribers[t as usize], &self.sizes);
        if imbalance <= 1 {
            return 0;
        }
        // The topic's partitions grouped by owner, then ascending; each member's slice of them.
        let owners = &self.owners[t as usize];
        let mut partitions: Vec<usize> = (0..owners.len()).collect();
        sort_by(&mut partitions, |&a, &b| {
            owners[a].cmp(&owners[b]).then(a.cmp(&b))
        });
        let mut slices: Vec<(usize, usize)> = vec![(0, 0); self.spec.members.len()];
        for (i, &p) in partitions.iter().enumerate() {
            if let Ok(m) = usize::try_from(owners[p]) {
                if slices[m] == (0, 0) {
                    slices[m].0 = i;
                }
                slices[m].1 = i + 1;
            }
        }

        let mut moved = 0;
        while !balancer.is_balanced() {
            // The next most loaded subscriber that still has a partition of this topic to give.
            let from = loop {
                match balancer.next_most_loaded(&self.sizes) {
                    None => break None,
                    Some(m) if slices[m].1 <= slices[m].0 => balancer.exclude_most_loaded(),
                    Some(m) => break Some(m),
                }
            };
            let Some(from) = from else { break };
            slices[from].1 -= 1;
            let p = partitions[slices[from].1];
            let to = balancer.next_least_loaded(&self.sizes);
            if balancer.is_balanced() {
                break;
            }
            self.move_partition(t, p, to);
            moved += 1;
        }
        moved
    }

    fn move_partition(&mut self, t: u32, p: usize, to: usize) {
        let owner = &mut self.owners[t as usize][p];
        if let Ok(from) = usize::try_from(*owner) {
            self.sizes[from] -= 1;
        }
        *owner = to as i64;
        self.sizes[to] += 1;
    }
}

/// Kafka's `MemberAssignmentBalancer`: a topic's subscribers sorted by load, with a "least loaded"
/// range growing from the left and a "most loaded" range growing from the right. Within each range,
/// members started at the same count; the next member is taken round-robin inside the range, and
/// the range widens when the next level is reached.
///
/// The caller changes the sizes (the balancer assumes each member it returns gains, or loses, one
/// partition).
#[derive(Default)]
struct Balancer {
    /// Member indices sorted by size, then index.
    sorted: Vec<usize>,
    /// `[0, least_end)`: the least loaded range.
    least_end: usize,
    /// The size of the least loaded range's members before they got their next partition.
    least_count: i64,
    /// The position in `sorted` of the next least loaded member.
    next_least: usize,
    /// `[most_start, most_end)`: the most loaded range (members with nothing to give are excluded by
    /// swapping them past `most_end`).
    most_start: usize,
    most_end: usize,
    /// The size of the most loaded range's members before they gave a partition.
    most_count: i64,
    /// The position in `sorted` of the next most loaded member; -1 when none is left.
    next_most: isize,
}

impl Balancer {
    /// Starts over with `members` (not empty); returns the spread of their sizes.
    fn initialize(&mut self, members: &[u32], sizes: &[i64]) -> i64 {
        assert!(!members.is_empty(), "cannot balance an empty subscriber list");
        self.sorted.clear();
        self.sorted.extend(members.iter().map(|&m| m as usize));
        sort_by(&mut self.sorted, |&a, &b| sizes[a].cmp(&sizes[b]).then(a.cmp(&b)));
        let n = self.sorted.len();
        let (min, max) = (sizes[self.sorted[0]], sizes[self.sorted[n - 1]]);
        self.least_end = 0;
        self.least_count = min - 1;
        self.next_least = 0;
        self.most_start = n;
        self.most_end = n;
        self.most_count = max + 1;
        self.next_most = n as isize - 1;
        max - min
    }

    /// The member to give the next partition to.
    fn next_least_loaded(&mut self, sizes: &[i64]) -> usize {
        if self.next_least >= self.least_end {
            // Everyone in the range got one: the range is one level up; take in who is at that level.
            self.least_count += 1;
            while self.least_end < self.sorted.len() && sizes[self.sorted[self.least_end]] == self.least_count
            {
                self.least_end += 1;
            }
            self.next_least = 0;
        }
        let m = self.sorted[self.next_least];
        self.next_least += 1;
        m
    }

    /// The member to take the next partition from, or `None` if no member has one to give.
    fn next_most_loaded(&mut self, sizes: &[i64]) -> Option<usize> {
        if self.next_most < self.most_start as isize {
            if self.most_end <= self.most_start && self.most_start > 0 {
                // Exclusions emptied the range: restart it at the level of the next member left of it,
                // so that it always widens.
                self.most_count = sizes[self.sorted[self.most_start - 1]];
            } else {
                self.most_count -= 1;
            }
            while self.most_start > 0 && sizes[self.sorted[self.most_start - 1]] == self.most_count {
                self.most_start -= 1;
            }
            self.next_most = self.most_end as isize - 1;
        }
        let position = usize::try_from(self.next_most).ok()?;
        self.next_most -= 1;
        Some(self.sorted[position])
    }

    /// Drops the member [`Balancer::next_most_loaded`] just returned from the most loaded range: it
    /// has nothing to give.
    fn exclude_most_loaded(&mut self) {
        let position = (self.next_most + 1) as usize;
        self.sorted.swap(position, self.most_end - 1);
        self.most_end -= 1;
    }

    /// Whether the least and most loaded levels differ by at most one.
    fn is_balanced(&self) -> bool {
        self.most_count - self.least_count <= 1
    }
}
