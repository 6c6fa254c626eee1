//! Whole-simulation benchmark: 100 consumers on one topic of 1,000 partitions for one simulated
//! hour, with a consumer killed every simulated minute and a replacement joining 5 s later.
//! Target: under 1 s natively. Run with `cargo bench -p rebalance-engine --bench simulation`;
//! `-- off` (or `info`, `full`) runs only the variants whose label contains that word.

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
    common::measure_variants(
        build,
        |sim| sim.run_to_end(),
        |sim| {
            let g = sim.group_snapshot().unwrap();
            assert_eq!(g.members.len(), 100, "100 members at the end");
        },
        |m| {
            println!(
                "simulation: 100 consumers x 1000 partitions, 1 simulated hour, 59 crashes + replacements ({}): \
                 {:.3} s (best of {}{}), {} events emitted, {} kept",
                m.label, m.best, m.runs, m.cpu_text(), m.events, m.kept
            )
        },
    );
}
