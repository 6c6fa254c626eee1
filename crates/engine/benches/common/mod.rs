//! The workload the simulation and cluster benchmarks share: one topic of 1,000 partitions and 100
//! consumers that each take 5 s per batch and time out after 10 s.

use rebalance_engine::sim::{Action, LogLevel, Simulation};
use rebalance_engine::{ConsumerConfig, SimTime, Subscription};

pub const GROUP: &str = "bench-group";

/// A consumer of the `events` topic.
pub fn consumer(name: String) -> ConsumerConfig {
    let mut c = ConsumerConfig::new(name, GROUP, Subscription::Topics(vec!["events".into()]));
    c.session_timeout_ms = 10_000;
    c.processing_ms = 5_000;
    c
}

/// Sets the log level, creates the topic and starts the 100 consumers at time zero.
pub fn populate(sim: &mut Simulation, log: LogLevel) {
    sim.set_log_level(log);
    let t0 = SimTime::ZERO;
    sim.apply(
        t0,
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
            t0,
            Action::AddConsumer {
                config: Box::new(consumer(format!("c{i:03}"))),
            },
        )
        .unwrap();
    }
}
