//! Cluster benchmark: 3 brokers (replication factor 3), 100 consumers on one topic of 1,000
//! partitions for one simulated hour; every 5 simulated minutes the group coordinator's broker
//! crashes (the controller elects a new leader of `__consumer_offsets`, which loads the group, and
//! the consumers rediscover it), and it restarts a minute later. Target: under 1 s natively. Run
//! with `cargo bench -p rebalance-engine --bench cluster`; `-- off` (or `info`,
//! `full`) runs only the variants whose label contains that word.

use std::time::Instant;

mod common;

use rebalance_engine::cluster::ClusterConfig;
use rebalance_engine::coordinator::CoordinatorConfig;
use rebalance_engine::protocol::GroupState;
use rebalance_engine::sim::{Action, LogLevel, Simulation};
use rebalance_engine::{NetworkConfig, SimTime};

fn build(log: LogLevel) -> Simulation {
    let mut sim = Simulation::with_cluster(
        common::GROUP,
        CoordinatorConfig::default(),
        ClusterConfig::default(),
        NetworkConfig::default(),
        42,
        Some(SimTime(3_600_000)),
    );
    common::populate(&mut sim, log);
    sim
}

/// Runs the hour: the coordinator's broker crashes at every 5-minute mark and restarts 60 s later.
fn run(sim: &mut Simulation) -> u32 {
    let mut crashes = 0;
    for k in 1..12u64 {
        sim.run_until(SimTime(k * 300_000));
        let leader = sim
            .offsets_partition()
            .leader
            .expect("the group has a coordinator");
        sim.apply(
            sim.now(),
            Action::CrashBroker {
                broker: leader,
                graceful: false,
            },
        )
        .unwrap();
        crashes += 1;
        sim.run_until(SimTime(k * 300_000 + 60_000));
        sim.apply(sim.now(), Action::RestartBroker { broker: leader })
            .unwrap();
    }
    sim.run_to_end();
    crashes
}

fn main() {
    // Cargo passes `--bench`; any other argument filters the variants by label.
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    for (label, level) in [
        ("log off", LogLevel::Off),
        ("info log", LogLevel::Info),
        ("full log", LogLevel::All),
    ] {
        if !filters.is_empty() && !filters.iter().any(|f| label.contains(f.as_str())) {
            continue;
        }
        let mut best = f64::MAX;
        let mut events = 0;
        let mut kept = 0;
        let mut crashes = 0;
        let runs = if level == LogLevel::All { 1 } else { 3 };
        for _ in 0..runs {
            let mut sim = build(level);
            let start = Instant::now();
            crashes = run(&mut sim);
            let secs = start.elapsed().as_secs_f64();
            best = best.min(secs);
            events = sim.events_emitted();
            kept = sim.log().len();
            let g = sim.group_snapshot().unwrap();
            assert_eq!(g.members.len(), 100, "100 members at the end");
            assert_eq!(g.state, GroupState::Stable);
            assert_eq!(
                sim.offsets_partition().isr.len(),
                3,
                "every replica back in the ISR"
            );
        }
        println!(
            "cluster: 3 brokers, 100 consumers x 1000 partitions, 1 simulated hour, {crashes} coordinator crashes + restarts ({label}): \
             {best:.3} s (best of {runs}), {events} events emitted ({:.0} events/s), {kept} kept",
            events as f64 / best
        );
    }
}
