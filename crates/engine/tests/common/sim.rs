//! Helpers for tests that run whole simulations: loading scenario files, running them, and reading
//! the simulation's log by source.

use std::path::PathBuf;

use rebalance_engine::cluster::ClusterEvent;
use rebalance_engine::protocol::TopicPartition;
use rebalance_engine::sim::{SimEventKind, WorldEvent};
use rebalance_engine::{ClientEvent, EventKind, Scenario, SimEvent, SimTime, Simulation};

/// The repository's root (where `scenarios/` and `lessons/` are).
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The scenario file at `path`, relative to the repository's root.
pub fn scenario_file(path: &str) -> Scenario {
    let path = repo_root().join(path);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Scenario::from_json(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A simulation of `scenario`, run to its end.
pub fn run_to_end(scenario: &Scenario) -> Simulation {
    let mut sim = Simulation::new(scenario).expect("valid scenario");
    sim.run_to_end();
    sim
}

/// Partitions `ps` of `topic`.
pub fn tps(topic: &str, ps: &[i32]) -> Vec<TopicPartition> {
    ps.iter().map(|p| TopicPartition::new(topic, *p)).collect()
}

/// The events of consumer `who`, with their log entries.
pub fn client_events<'a>(
    sim: &'a Simulation,
    who: &'a str,
) -> impl Iterator<Item = (&'a SimEvent, &'a ClientEvent)> {
    sim.log().iter().filter_map(move |e| match &e.kind {
        SimEventKind::Client { consumer, event } if consumer == who => Some((e, event)),
        _ => None,
    })
}

/// The events of every coordinator, with their log entries.
pub fn coordinator_events(sim: &Simulation) -> impl Iterator<Item = (&SimEvent, &EventKind)> {
    sim.log().iter().filter_map(|e| match &e.kind {
        SimEventKind::Coordinator { event, .. } => Some((e, event)),
        _ => None,
    })
}

/// The partitions consumer `who` revoked, one list per onPartitionsRevoked call.
pub fn revocations(sim: &Simulation, who: &str) -> Vec<Vec<TopicPartition>> {
    client_events(sim, who)
        .filter_map(|(_, e)| match e {
            ClientEvent::PartitionsRevoked { partitions } => Some(partitions.clone()),
            _ => None,
        })
        .collect()
}

/// The cluster's events, with when they happened.
pub fn cluster_events(sim: &Simulation) -> Vec<(SimTime, ClusterEvent)> {
    sim.log()
        .iter()
        .filter_map(|e| match &e.kind {
            SimEventKind::World {
                event: WorldEvent::Cluster { event },
            } => Some((e.at, event.clone())),
            _ => None,
        })
        .collect()
}
