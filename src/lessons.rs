//! The lesson presets (lessons/*.json and *.lesson.json, embedded) and the simulation at a step.

use rebalance_engine::lesson::{simulation_at, Lesson, ResolvedStep};
use rebalance_engine::Scenario;

use crate::world::World;

/// Each preset: its id, its scenario file, its lesson file.
pub const PRESETS: [(&str, &str, &str); 15] = [
    (
        "01-first-consumer",
        include_str!("../lessons/01-first-consumer.json"),
        include_str!("../lessons/01-first-consumer.lesson.json"),
    ),
    (
        "02-join-stable-group",
        include_str!("../lessons/02-join-stable-group.json"),
        include_str!("../lessons/02-join-stable-group.lesson.json"),
    ),
    (
        "03-graceful-leave",
        include_str!("../lessons/03-graceful-leave.json"),
        include_str!("../lessons/03-graceful-leave.lesson.json"),
    ),
    (
        "04-crash",
        include_str!("../lessons/04-crash.json"),
        include_str!("../lessons/04-crash.lesson.json"),
    ),
    (
        "05-slow-consumer",
        include_str!("../lessons/05-slow-consumer.json"),
        include_str!("../lessons/05-slow-consumer.lesson.json"),
    ),
    (
        "06-a-b-story",
        include_str!("../lessons/06-a-b-story.json"),
        include_str!("../lessons/06-a-b-story.lesson.json"),
    ),
    (
        "07-commit-in-revoke",
        include_str!("../lessons/07-commit-in-revoke.json"),
        include_str!("../lessons/07-commit-in-revoke.lesson.json"),
    ),
    (
        "08-zombie-commit",
        include_str!("../lessons/08-zombie-commit.json"),
        include_str!("../lessons/08-zombie-commit.lesson.json"),
    ),
    (
        "09-leader-leaves-completing",
        include_str!("../lessons/09-leader-leaves-completing.json"),
        include_str!("../lessons/09-leader-leaves-completing.lesson.json"),
    ),
    (
        "10-assignor-vote",
        include_str!("../lessons/10-assignor-vote.json"),
        include_str!("../lessons/10-assignor-vote.lesson.json"),
    ),
    (
        "11-partitions-added",
        include_str!("../lessons/11-partitions-added.json"),
        include_str!("../lessons/11-partitions-added.lesson.json"),
    ),
    (
        "12-static-membership",
        include_str!("../lessons/12-static-membership.json"),
        include_str!("../lessons/12-static-membership.lesson.json"),
    ),
    (
        "13-eager-vs-cooperative",
        include_str!("../lessons/13-eager-vs-cooperative.json"),
        include_str!("../lessons/13-eager-vs-cooperative.lesson.json"),
    ),
    (
        "14-offsets-expire",
        include_str!("../lessons/14-offsets-expire.json"),
        include_str!("../lessons/14-offsets-expire.lesson.json"),
    ),
    (
        "15-coordinator-failover",
        include_str!("../lessons/15-coordinator-failover.json"),
        include_str!("../lessons/15-coordinator-failover.lesson.json"),
    ),
];

/// A lesson ready to step through: its narration, its scenario and its steps on the trace.
#[derive(Clone, Debug, PartialEq)]
pub struct Loaded {
    /// The narration.
    pub lesson: Lesson,
    /// The scenario it narrates.
    pub scenario: Scenario,
    /// Its steps, anchored to the trace.
    pub steps: Vec<ResolvedStep>,
}

/// Parses and resolves preset `i`.
pub fn load(i: usize) -> Result<Loaded, String> {
    let (_, scenario, lesson) = PRESETS.get(i).ok_or_else(|| format!("no lesson {i}"))?;
    let scenario = Scenario::from_json(scenario).map_err(|e| e.to_string())?;
    let lesson = Lesson::from_json(lesson).map_err(|e| e.to_string())?;
    let steps = lesson.resolve(&scenario).map_err(|e| e.to_string())?;
    Ok(Loaded {
        lesson,
        scenario,
        steps,
    })
}

/// The lesson's world at the end of the instant of event `seq` (`0`: the start).
pub fn world_at(loaded: &Loaded, seq: u64) -> Result<World, String> {
    let sim = simulation_at(&loaded.scenario, seq).map_err(|e| e.to_string())?;
    Ok(World::from_sim(sim, Some(loaded.scenario.clone()), Vec::new()))
}
