//! Property tests on random simulations (native only: proptest needs an OS random source):
//! no panic; no partition owned by two consumers in the same generation; committed offsets never
//! go backwards; every committed record was processed at least once.
#![cfg(not(target_arch = "wasm32"))]

use rebalance_engine::collections::Map;

use proptest::prelude::*;
use rebalance_engine::assignor::Strategy as Assignor;
use rebalance_engine::coordinator::CoordinatorConfig;
use rebalance_engine::protocol::TopicPartition;
use rebalance_engine::sim::{Action, LogLevel, Simulation};
use rebalance_engine::{CommitMode, ConsumerConfig, NetworkConfig, SimTime, Subscription};

#[derive(Clone, Debug)]
struct ConsumerGen {
    assignor: usize,
    processing_s: u64,
    session_s: u64,
    commit: u8,
    commit_in_revoke: bool,
    static_member: bool,
}

#[derive(Clone, Debug)]
enum Op {
    Kill(usize),
    Close(usize),
    Restart(usize),
    Pause(usize, u64, bool),
    Add,
    AddPartition,
}

fn consumer_gen() -> impl Strategy<Value = ConsumerGen> {
    (0usize..5, 1u64..8, 6u64..20, 0u8..3, any::<bool>(), any::<bool>()).prop_map(
        |(assignor, processing_s, session_s, commit, commit_in_revoke, static_member)| ConsumerGen {
            assignor,
            processing_s,
            session_s,
            commit,
            commit_in_revoke,
            static_member,
        },
    )
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (0usize..6).prop_map(Op::Kill),
        (0usize..6).prop_map(Op::Close),
        (0usize..6).prop_map(Op::Restart),
        (0usize..6, 1u64..30, any::<bool>()).prop_map(|(c, s, hb)| Op::Pause(c, s, hb)),
        Just(Op::Add),
        Just(Op::AddPartition),
    ]
}

fn config(i: usize, g: &ConsumerGen, cooperative_group: bool) -> ConsumerConfig {
    let mut c = ConsumerConfig::new(format!("c{i}"), "g", Subscription::Pattern("t.*".into()));
    // One group uses either eager assignors or only cooperative-sticky (mixing them is legal in
    // Kafka but makes the group fall back to eager, which the eager arm already covers).
    c.assignors = if cooperative_group {
        vec![Assignor::CooperativeSticky]
    } else {
        vec![
            [
                Assignor::Range,
                Assignor::RoundRobin,
                Assignor::Sticky,
                Assignor::Range,
                Assignor::Sticky,
            ][g.assignor],
        ]
    };
    c.processing_ms = g.processing_s * 1000;
    c.session_timeout_ms = g.session_s * 1000;
    c.heartbeat_interval_ms = 2000;
    c.max_poll_interval_ms = 15_000;
    c.commit = match g.commit {
        0 => CommitMode::Auto { interval_ms: 3000 },
        1 => CommitMode::Manual { every_batches: 1 },
        _ => CommitMode::Manual { every_batches: 3 },
    };
    c.commit_in_revoke = g.commit_in_revoke;
    if g.static_member {
        c.group_instance_id = Some(format!("inst-{i}"));
    }
    c
}

fn check(sim: &Simulation, last_committed: &mut Map<TopicPartition, i64>) -> Result<(), TestCaseError> {
    // No partition owned by two consumers through the assignment of the same generation (the
    // leader's assignor never gives a partition twice; eager members revoke everything before
    // rejoining; cooperative ones hand over only in the next generation, §8.3).
    let mut owner: Map<(i32, TopicPartition), String> = Map::new();
    for name in sim.consumer_names() {
        let c = sim.consumer(&name).unwrap();
        if !c.lifecycle().is_running() || c.assignment_generation() < 0 {
            continue;
        }
        let g = c.assignment_generation();
        for tp in c.owned() {
            if let Some(other) = owner.insert((g, tp.clone()), name.clone()) {
                prop_assert!(
                    false,
                    "{tp} owned by {other} and {name} from generation {g}'s assignment at {}",
                    sim.now()
                );
            }
        }
    }
    // Committed offsets never go backwards, and everything below them was processed.
    for (tp, o) in sim.committed_offsets() {
        if let Some(prev) = last_committed.insert(tp.clone(), o) {
            prop_assert!(o >= prev, "{tp} committed {o} after {prev} at {}", sim.now());
        }
        prop_assert!(
            sim.processed_through(&tp, o),
            "{tp} committed {o} but not every record below was processed"
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_simulations_keep_kafkas_guarantees(
        seed in any::<u64>(),
        cooperative in any::<bool>(),
        partitions in 1i32..6,
        consumers in proptest::collection::vec(consumer_gen(), 1..4),
        ops in proptest::collection::vec((1u64..100, op()), 0..6),
        jitter in 0u64..30,
        drops in any::<bool>(),
    ) {
        let network = NetworkConfig {
            latency_ms: 2,
            jitter_ms: jitter,
            drop_probability: if drops { 0.01 } else { 0.0 },
            ..NetworkConfig::default()
        };
        let mut sim = Simulation::empty("g", CoordinatorConfig::default(), network, seed, Some(SimTime(120_000)));
        sim.set_log_level(LogLevel::Off);
        sim.apply(SimTime::ZERO, Action::CreateTopic { topic: "t1".into(), partitions, records_per_sec: 5, initial_records: 3 }).unwrap();
        let mut all = consumers.clone();
        for (i, g) in consumers.iter().enumerate() {
            sim.apply(SimTime::ZERO, Action::AddConsumer { config: Box::new(config(i, g, cooperative)) }).unwrap();
        }
        let stops = ops.iter().any(|(_, o)| matches!(o, Op::Kill(_) | Op::Close(_)));
        let mut scheduled: Vec<(u64, Action)> = Vec::new();
        let mut parts = partitions;
        for (at_s, o) in ops {
            let name = |i: usize| format!("c{}", i % all.len());
            let a = match o {
                Op::Kill(i) => Action::Kill { consumer: name(i) },
                Op::Close(i) => Action::Close { consumer: name(i) },
                Op::Restart(i) => Action::Restart { consumer: name(i) },
                Op::Pause(i, s, hb) => Action::Pause { consumer: name(i), duration_ms: Some(s * 1000), heartbeats: hb, polls: true },
                Op::Add => {
                    let g = all[0].clone();
                    all.push(g.clone());
                    Action::AddConsumer { config: Box::new(config(all.len() - 1, &g, cooperative)) }
                }
                Op::AddPartition => {
                    parts += 1;
                    Action::AddPartitions { topic: "t1".into(), partitions: parts }
                }
            };
            scheduled.push((at_s * 1000, a));
        }
        for (at, a) in scheduled {
            sim.apply(SimTime(at), a).unwrap();
        }
        let mut committed = Map::new();
        let mut steps = 0;
        while let Some(t) = sim.step() {
            steps += 1;
            check(&sim, &mut committed)?;
            if t >= SimTime(120_000) {
                break;
            }
        }
        // The world did run: heartbeats alone take hundreds of instants in two minutes.
        if !stops {
            prop_assert!(steps > 100, "only {steps} steps");
        }
    }
}

/// `create_topic` is `apply(CreateTopic)` with the instant run later: once the clock runs, the
/// two worlds log the same events; and it refuses what the action refuses.
#[test]
fn create_topic_builds_the_same_world_as_the_action() {
    let world = |direct: bool| {
        let mut sim = Simulation::empty(
            "g",
            CoordinatorConfig::default(),
            NetworkConfig::default(),
            7,
            None,
        );
        if direct {
            sim.create_topic("t1".into(), 3, 5, 2).unwrap();
        } else {
            let action = Action::CreateTopic {
                topic: "t1".into(),
                partitions: 3,
                records_per_sec: 5,
                initial_records: 2,
            };
            sim.apply(SimTime::ZERO, action).unwrap();
        }
        let config = ConsumerConfig::new("c0", "g", Subscription::Topics(vec!["t1".into()]));
        sim.apply(
            SimTime(100),
            Action::AddConsumer {
                config: Box::new(config),
            },
        )
        .unwrap();
        sim.run_until(SimTime(30_000));
        sim
    };
    let (direct, action) = (world(true), world(false));
    let text = |sim: &Simulation| sim.log().iter().map(|e| format!("{e:?}")).collect::<Vec<_>>();
    assert_eq!(text(&direct), text(&action));
    assert!(text(&direct).iter().any(|e| e.contains("TopicCreated")));
    assert!(
        text(&direct).iter().any(|e| e.contains("Stable")),
        "the consumer joined"
    );

    let mut sim = world(true);
    assert!(sim.create_topic("t1".into(), 3, 5, 0).is_err(), "it exists");
    assert!(sim.create_topic("t2".into(), 0, 5, 0).is_err(), "no partition");
}
