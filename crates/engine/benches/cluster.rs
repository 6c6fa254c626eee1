//! Cluster benchmark: 3 brokers (replication factor 3), 100 consumers on one topic of 1,000
//! partitions for one simulated hour; every 5 simulated minutes the group coordinator's broker
//! crashes (the controller elects a new leader of `__consumer_offsets`, which loads the group, and
//! the consumers rediscover it), and it restarts a minute later. Target: under 1 s natively. Run
//! with `cargo bench -p rebalance-engine --bench cluster`; `-- off` (or `info`,
//! `full`) runs only the variants whose label contains that word.

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
    let crashes = std::cell::Cell::new(0);
    common::measure_variants(
        build,
        |sim| crashes.set(run(sim)),
        |sim| {
            let g = sim.group_snapshot().unwrap();
            assert_eq!(g.members.len(), 100, "100 members at the end");
            assert_eq!(g.state, GroupState::Stable);
            assert_eq!(
                sim.offsets_partition().isr.len(),
                3,
                "every replica back in the ISR"
            );
        },
        |m| {
            println!(
                "cluster: 3 brokers, 100 consumers x 1000 partitions, 1 simulated hour, {} coordinator crashes + restarts ({}): \
                 {:.3} s (best of {}{}), {} events emitted ({:.0} events/s), {} kept",
                crashes.get(),
                m.label,
                m.best,
                m.runs,
                m.cpu_text(),
                m.events,
                m.events as f64 / m.best,
                m.kept
            )
        },
    );
}
