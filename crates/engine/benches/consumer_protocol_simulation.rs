//! The whole-simulation benchmark of `simulation.rs` with consumer-protocol (KIP-848) members: 100
//! consumers with `group.protocol=consumer` on one topic of 1,000 partitions for one simulated
//! hour, with a consumer killed every simulated minute (fenced after the coordinator's 45 s
//! session timeout) and a replacement joining 5 s later. Run with
//! `cargo bench -p rebalance-engine --bench consumer_protocol_simulation`; `-- off` (or `info`,
//! `full`) runs only the variants whose label contains that word.

// Only part of the shared workload is used here (not `populate`, which starts classic consumers).
#[allow(dead_code)]
mod common;

use rebalance_engine::coordinator::CoordinatorConfig;
use rebalance_engine::sim::{Action, LogLevel, Simulation};
use rebalance_engine::{GroupProtocol, NetworkConfig, SimTime};

fn consumer(name: String) -> Box<rebalance_engine::ConsumerConfig> {
    let mut c = common::consumer(name);
    c.group_protocol = GroupProtocol::Consumer;
    Box::new(c)
}

fn build(log: LogLevel) -> Simulation {
    let mut sim = Simulation::empty(
        common::GROUP,
        CoordinatorConfig::default(),
        NetworkConfig::default(),
        42,
        Some(SimTime(3_600_000)),
    );
    sim.set_log_level(log);
    sim.apply(
        SimTime::ZERO,
        Action::CreateTopic {
            topic: "events".into(),
            partitions: 1_000,
            records_per_sec: 10_000,
            initial_records: 0,
        },
    )
    .unwrap();
    for i in 0..100 {
        sim.apply(
            SimTime::ZERO,
            Action::AddConsumer {
                config: consumer(format!("c{i:03}")),
            },
        )
        .unwrap();
    }
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
                config: consumer(format!("r{m:03}")),
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
            let g = sim.consumer_group().expect("a consumer group");
            // The last killed member may still be waiting for its session to expire.
            assert!(
                (100..=101).contains(&g.members.len()),
                "{} members",
                g.members.len()
            );
        },
        |m| {
            println!(
                "consumer-protocol simulation: 100 consumers x 1000 partitions, 1 simulated hour, 59 crashes + \
                 replacements ({}): {:.3} s (best of {}{}), {} events emitted, {} kept",
                m.label, m.best, m.runs, m.cpu_text(), m.events, m.kept
            )
        },
    );
}
