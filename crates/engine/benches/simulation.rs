//! Whole-simulation benchmark: 100 consumers on one topic of 1,000 partitions for one simulated
//! hour, with a consumer killed every simulated minute and a replacement joining 5 s later.
//! Target: under 1 s natively. Run with `cargo bench -p rebalance-engine --bench simulation`;
//! `-- off` (or `info`, `full`) runs only the variants whose label contains that word.

use std::time::Instant;

mod common;

use rebalance_engine::coordinator::CoordinatorConfig;
use rebalance_engine::sim::{Action, LogLevel, Simulation};
use rebalance_engine::{NetworkConfig, SimTime};

fn build(log: LogLevel) -> Simulation {
    let mut sim = Simulation::empty(
        common::GROUP,
        CoordinatorConfig::default(),
        NetworkConfig::default(),
        42,
        Some(SimTime(3_600_000)),
    );
    common::populate(&mut sim, log);
    // Every minute, kill the oldest surviving consumer; its replacement joins 5 s later.
    for m in 1..60u64 {
        sim.apply(
            SimTime(m * 60_000),
            Action::Kill {
                consumer: format!("c{:03}", m - 1),
            },
        )
        .unwrap();
        sim.apply(
            SimTime(m * 60_000 + 5_000),
            Action::AddConsumer {
                config: Box::new(common::consumer(format!("r{m:03}"))),
            },
        )
        .unwrap();
    }
    sim
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
        let runs = if level == LogLevel::All { 1 } else { 3 };
        for _ in 0..runs {
            let mut sim = build(level);
            let start = Instant::now();
            sim.run_to_end();
            let secs = start.elapsed().as_secs_f64();
            best = best.min(secs);
            events = sim.events_emitted();
            kept = sim.log().len();
            let g = sim.group_snapshot().unwrap();
            assert_eq!(g.members.len(), 100, "100 members at the end");
        }
        println!(
            "simulation: 100 consumers x 1000 partitions, 1 simulated hour, 59 crashes + replacements ({label}): \
             {:.3} s (best of {runs}), {events} events emitted, {kept} kept",
            best
        );
    }
}
