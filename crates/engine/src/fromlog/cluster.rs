//! The cluster a log shows: how many brokers at least (the highest broker id in any line's prefix,
//! the coordinator a client discovered), which broker coordinates the group, and the group's
//! `__consumer_offsets` partition. The replay's coordinator is the preferred leader of the group's
//! partition, broker `partition % brokers` (`docs/scenario-format.md`, the cluster), so the
//! replay picks the smallest cluster, and if it must the partition count, that puts the group on
//! the log's coordinator, within the scenario format's limits ([`MAX_BROKERS`],
//! [`MAX_OFFSETS_PARTITIONS`]). What it cannot match is said, never refused.

use crate::coordinator::partition_for;
use crate::scenario::{MAX_BROKERS, MAX_OFFSETS_PARTITIONS};

use super::{Assumption, LineRef};

/// Kafka's default `offsets.topic.num.partitions`.
const DEFAULT_OFFSETS_PARTITIONS: i32 = 50;
/// The scenario format's default cluster size.
const DEFAULT_BROKERS: u32 = 3;

/// What the log shows of the cluster.
pub(crate) struct Seen<'a> {
    pub group: &'a str,
    /// The group's coordinator and the first line that shows it.
    pub coordinator: Option<(i32, LineRef)>,
    /// The highest broker id any line shows, and where.
    pub highest_broker: Option<(i32, LineRef)>,
    /// The group's partition as its broker lines name it.
    pub offsets_partition: Option<(i32, LineRef)>,
}

/// The cluster the replay runs on: `brokers` and `offsets_partitions` when they differ from the
/// defaults (3, 50), and what was assumed.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Inferred {
    pub brokers: Option<u32>,
    pub offsets_partitions: Option<i32>,
    pub assumptions: Vec<Assumption>,
}

/// The preferred leader of partition `p` on `brokers` brokers (placement with start index 0).
fn leader_of(p: i32, brokers: u32) -> i32 {
    (i64::from(p) % i64::from(brokers)) as i32
}

pub(crate) fn infer(seen: &Seen<'_>) -> Inferred {
    let mut out = Inferred::default();
    let mut say = |text: String, lines: Vec<LineRef>| out.assumptions.push(Assumption { text, lines });
    let limit = MAX_BROKERS as i32;

    // Broker ids the replay can have: 0..MAX_BROKERS.
    let usable = |b: i32| (0..limit).contains(&b);
    let coordinator = match seen.coordinator {
        Some((b, l)) if !usable(b) => {
            say(
                format!(
                    "the log's coordinator is broker {b}, which a scenario cannot have (broker ids are 0..{}, the limit of cluster.brokers is {MAX_BROKERS}): the replay's coordinator differs",
                    limit - 1
                ),
                vec![l],
            );
            None
        }
        c => c,
    };
    let highest = [seen.highest_broker, coordinator]
        .into_iter()
        .flatten()
        .filter(|(b, _)| usable(*b))
        .max_by_key(|(b, _)| *b);
    if let Some((b, l)) = seen.highest_broker.filter(|(b, _)| !usable(*b)) {
        say(
            format!(
                "the log shows broker {b}, more than a scenario's brokers can be (ids 0..{}, the limit of cluster.brokers is {MAX_BROKERS}): left out",
                limit - 1
            ),
            vec![l],
        );
    }
    let at_least = highest.map_or(DEFAULT_BROKERS, |(b, _)| (b as u32 + 1).max(DEFAULT_BROKERS));

    // The group's partition: the log's, with the default count if that gives it, else the
    // smallest count that does.
    let default_partition = partition_for(seen.group, DEFAULT_OFFSETS_PARTITIONS);
    let mut partitions = DEFAULT_OFFSETS_PARTITIONS;
    let mut partition_from_log = false;
    if let Some((p, l)) = seen.offsets_partition {
        if p == default_partition {
            partition_from_log = true;
        } else if let Some(n) =
            (p.saturating_add(1).max(1)..=MAX_OFFSETS_PARTITIONS).find(|n| partition_for(seen.group, *n) == p)
        {
            partitions = n;
            partition_from_log = true;
            say(
                format!(
                    "the log puts group `{}` on __consumer_offsets-{p}, not on {default_partition} as Kafka's default 50 partitions would: offsets.topic.num.partitions is assumed to be {n}, the smallest count that puts it there",
                    seen.group
                ),
                vec![l],
            );
        } else {
            say(
                format!(
                    "the log puts group `{}` on __consumer_offsets-{p}, which no offsets.topic.num.partitions up to {MAX_OFFSETS_PARTITIONS} (the limit) gives: the replay's partition is {default_partition} (50 partitions)",
                    seen.group
                ),
                vec![l],
            );
        }
    }
    let mut partition = partition_for(seen.group, partitions);

    let Some((b, line)) = coordinator else {
        if let Some((h, l)) = highest.filter(|_| at_least != DEFAULT_BROKERS) {
            out.brokers = Some(at_least);
            say(
                format!("the log shows broker {h}: the replay's cluster has {at_least} brokers (ids 0..{h})"),
                vec![l],
            );
        }
        if partitions != DEFAULT_OFFSETS_PARTITIONS {
            out.offsets_partitions = Some(partitions);
        }
        return out;
    };

    // The smallest cluster, from `at_least` brokers, that makes `b` the partition's leader.
    let mut brokers = (at_least..=MAX_BROKERS).find(|n| leader_of(partition, *n) == b);
    if brokers.is_none() {
        // No cluster size does it for this partition: move the group's partition instead (the
        // coordinator matters more than the partition's number), on the smallest cluster.
        if let Some(n) =
            (1..=MAX_OFFSETS_PARTITIONS).find(|n| leader_of(partition_for(seen.group, *n), at_least) == b)
        {
            let moved = partition_for(seen.group, n);
            say(
                format!(
                    "no cluster of at most {MAX_BROKERS} brokers (the limit) makes broker {b} the leader of __consumer_offsets-{partition}: offsets.topic.num.partitions is assumed to be {n}, which puts group `{}` on partition {moved}, led by broker {b}{}",
                    seen.group,
                    if partition_from_log { " (the log's partition differs)" } else { "" }
                ),
                vec![line],
            );
            partitions = n;
            partition = moved;
            brokers = Some(at_least);
        }
    }
    match brokers {
        Some(n) => {
            let how = if n == DEFAULT_BROKERS {
                format!("the replay's {n}-broker cluster (the default) has it lead")
            } else {
                out.brokers = Some(n);
                format!(
                    "the replay has {n} brokers (ids 0..{}), the smallest cluster that has it lead",
                    n - 1
                )
            };
            let mut lines = vec![line];
            if let Some((_, l)) = highest.filter(|(h, _)| *h != b) {
                lines.push(l);
            }
            say(
                format!(
                    "the log's coordinator is broker {b}, the leader of __consumer_offsets-{partition} (partition {partition} % brokers); {how}"
                ),
                lines,
            );
        }
        None => {
            if at_least != DEFAULT_BROKERS {
                out.brokers = Some(at_least);
            }
            say(
                format!(
                    "the log's coordinator is broker {b}; no cluster and partition count within the limits ({MAX_BROKERS} brokers, {MAX_OFFSETS_PARTITIONS} partitions) makes it lead the group's partition: the replay's coordinator is broker {}",
                    leader_of(partition, at_least)
                ),
                vec![line],
            );
        }
    }
    if partitions != DEFAULT_OFFSETS_PARTITIONS {
        out.offsets_partitions = Some(partitions);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen(group: &str, coordinator: Option<i32>, partition: Option<i32>) -> Seen<'_> {
        let l = LineRef { file: 0, line: 1 };
        Seen {
            group,
            coordinator: coordinator.map(|b| (b, l)),
            highest_broker: coordinator.map(|b| (b, l)),
            offsets_partition: partition.map(|p| (p, l)),
        }
    }

    /// The replay's coordinator for what was inferred.
    fn replay_coordinator(group: &str, i: &Inferred) -> i32 {
        let n = i.offsets_partitions.unwrap_or(DEFAULT_OFFSETS_PARTITIONS);
        leader_of(partition_for(group, n), i.brokers.unwrap_or(DEFAULT_BROKERS))
    }

    #[test]
    fn the_coordinator_is_matched_or_the_difference_said() {
        for group in ["orders-app", "billing", "search", "payments", "g"] {
            for b in 0..MAX_BROKERS as i32 {
                let i = infer(&seen(group, Some(b), None));
                let got = replay_coordinator(group, &i);
                assert!(i.brokers.unwrap_or(DEFAULT_BROKERS) <= MAX_BROKERS);
                assert!(i.offsets_partitions.unwrap_or(1) <= MAX_OFFSETS_PARTITIONS);
                if got != b {
                    let said = format!("the replay's coordinator is broker {got}");
                    assert!(
                        i.assumptions.iter().any(|a| a.text.contains(&said)),
                        "{group} on broker {b}: {i:?}"
                    );
                }
                // The usual cluster sizes are always matched.
                if b < 10 {
                    assert_eq!(got, b, "{group} on broker {b}: {i:?}");
                }
            }
        }
    }

    #[test]
    fn the_logs_partition_is_kept_when_a_cluster_size_allows_it() {
        // orders-app is on partition 5 of 50: broker 5 leads it on 6 brokers.
        let i = infer(&seen("orders-app", Some(5), Some(5)));
        assert_eq!(i.brokers, Some(6));
        assert_eq!(i.offsets_partitions, None);
        // ... and broker 2 on the default 3.
        let i = infer(&seen("orders-app", Some(2), Some(5)));
        assert_eq!((i.brokers, i.offsets_partitions), (None, None));
    }

    #[test]
    fn out_of_range_ids_are_assumptions_not_failures() {
        for b in [-1, MAX_BROKERS as i32, i32::MAX] {
            let i = infer(&seen("g", Some(b), Some(i32::MAX)));
            assert!(i.brokers.is_none_or(|n| n <= MAX_BROKERS));
            assert!(!i.assumptions.is_empty());
        }
    }
}
