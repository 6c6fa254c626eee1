//! The `coordinator` settings of the consumer protocol's later Kafka lines and of its tests
//! (`kafka_version`, `group_consumer_assignment_interval_ms`, `group_consumer_migration_policy`,
//! `scripted_assignments`): how they become a [`CoordinatorConfig`], and their validation. Kept
//! apart from the other coordinator settings so that the format's additions stay in one place.

use crate::collections::Map;

use crate::coordinator::consumer::Partitions;
use crate::coordinator::{CoordinatorConfig, KafkaRelease, MigrationPolicy, ScriptedAssignment};

use super::locate::Seg;
use super::{at_most, key, name_at_most, problem, CoordinatorSettings, Problem};
use super::{MAX_CONSUMERS, MAX_LIST_ENTRIES, MAX_NAME_CHARS, MAX_PARTITIONS, MAX_TOPIC_NAME_CHARS};

/// Kafka's upper bound of `group.consumer.assignment.interval.ms` (`GroupCoordinatorConfig`, 4.3).
pub const MAX_ASSIGNMENT_INTERVAL_MS: u64 = 15_000;

/// A scripted assignment as a scenario writes it: member id → topic → partitions.
pub type ScriptedAssignmentSpec = Map<String, Map<String, Vec<i32>>>;

/// Sets the configuration's fields from the settings (invalid values keep the default; the
/// validation reports them).
pub(super) fn apply(s: &CoordinatorSettings, c: &mut CoordinatorConfig) {
    if let Some(v) = s
        .kafka_version
        .as_deref()
        .and_then(|v| v.parse::<KafkaRelease>().ok())
    {
        c.kafka_version = v;
    }
    if let Some(v) = s.group_consumer_assignment_interval_ms {
        c.group_consumer_assignment_interval_ms = v;
    }
    if let Some(p) = s
        .group_consumer_migration_policy
        .as_deref()
        .and_then(|p| p.parse::<MigrationPolicy>().ok())
    {
        c.group_consumer_migration_policy = p;
    }
    if let Some(script) = &s.scripted_assignments {
        c.scripted_assignments = script.iter().map(to_assignment).collect();
    }
}

/// Topic → partitions from the scenario's lists.
pub(super) fn to_partitions(spec: &Map<String, Vec<i32>>) -> Partitions {
    spec.iter()
        .filter(|(_, ps)| !ps.is_empty())
        .map(|(t, ps)| (t.clone(), ps.iter().copied().collect()))
        .collect()
}

fn to_assignment(spec: &ScriptedAssignmentSpec) -> ScriptedAssignment {
    spec.iter()
        .map(|(m, ps)| (m.clone(), to_partitions(ps)))
        .collect()
}

/// Checks a `topic → partitions` map at `at`: names, partition numbers, duplicates; adds each
/// partition to `owners` (partition → owner) and reports one already there.
pub(super) fn check_partitions(
    ps: &mut Vec<Problem>,
    at: &[Seg],
    spec: &Map<String, Vec<i32>>,
    owner: &str,
    owners: &mut Map<(String, i32), String>,
    what: &str,
) {
    at_most(ps, at.to_vec(), spec.len(), MAX_LIST_ENTRIES, "topics");
    for (topic, parts) in spec {
        let here = [at.to_vec(), vec![key(topic)]].concat();
        if topic.is_empty() {
            ps.push(problem(here.clone(), "a topic name must not be empty"));
        }
        name_at_most(ps, here.clone(), topic, MAX_TOPIC_NAME_CHARS);
        at_most(
            ps,
            here.clone(),
            parts.len(),
            MAX_PARTITIONS as usize,
            "partitions",
        );
        for (i, p) in parts.iter().enumerate() {
            let at_p = [here.clone(), vec![Seg::Index(i)]].concat();
            if !(0..MAX_PARTITIONS).contains(p) {
                ps.push(problem(
                    at_p,
                    format!("partition {p} is out of range (0 to {})", MAX_PARTITIONS - 1),
                ));
                continue;
            }
            if parts[..i].contains(p) {
                ps.push(problem(at_p, format!("partition {topic}-{p} is listed twice")));
                continue;
            }
            if let Some(prev) = owners.insert((topic.clone(), *p), owner.to_owned()) {
                if prev != owner {
                    ps.push(problem(
                        at_p,
                        format!("partition {topic}-{p} is already {what} {prev}; a partition has one owner"),
                    ));
                }
            }
        }
    }
}

/// The problems of the settings this module adds.
pub(super) fn problems(s: &CoordinatorSettings, ps: &mut Vec<Problem>) {
    let co = |f: &str| vec![key("coordinator"), key(f)];
    if let Some(v) = &s.kafka_version {
        if let Err(e) = v.parse::<KafkaRelease>() {
            ps.push(problem(co("kafka_version"), e.to_string()));
        }
    }
    if let Some(v) = s.group_consumer_assignment_interval_ms {
        if v > MAX_ASSIGNMENT_INTERVAL_MS {
            ps.push(problem(
                co("group_consumer_assignment_interval_ms"),
                format!(
                    "{v} ms is above Kafka's maximum of group.consumer.assignment.interval.ms \
                     ({MAX_ASSIGNMENT_INTERVAL_MS} ms)"
                ),
            ));
        }
    }
    if let Some(p) = &s.group_consumer_migration_policy {
        if let Err(e) = p.parse::<MigrationPolicy>() {
            ps.push(problem(co("group_consumer_migration_policy"), e));
        }
    }
    if let Some(script) = &s.scripted_assignments {
        let at = co("scripted_assignments");
        at_most(
            ps,
            at.clone(),
            script.len(),
            MAX_LIST_ENTRIES,
            "scripted assignments",
        );
        for (i, entry) in script.iter().enumerate() {
            let at_i = [at.clone(), vec![Seg::Index(i)]].concat();
            at_most(ps, at_i.clone(), entry.len(), MAX_CONSUMERS, "members");
            let mut owners = Map::new();
            for (member, parts) in entry {
                let at_m = [at_i.clone(), vec![key(member)]].concat();
                if member.is_empty() {
                    ps.push(problem(at_m.clone(), "a member id must not be empty"));
                }
                name_at_most(ps, at_m.clone(), member, MAX_NAME_CHARS);
                check_partitions(ps, &at_m, parts, member, &mut owners, "in the target of");
            }
        }
    }
}
