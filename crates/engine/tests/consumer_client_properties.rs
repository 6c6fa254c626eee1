//! Property tests on random simulations of consumer-protocol (KIP-848) members (native only:
//! proptest needs an OS random source): no panic (an invalid member state transition panics in
//! debug builds); the coordinator never lets two members hold a partition (assigned or pending
//! revocation); two members in the group (RECONCILING, ACKNOWLEDGING or STABLE, not frozen by a
//! pause) never own the same partition; committed offsets never go backwards.
#![cfg(not(target_arch = "wasm32"))]

use rebalance_engine::collections::Map;

use proptest::prelude::*;
use rebalance_engine::client::{ConsumerMemberState, GroupProtocol};
use rebalance_engine::coordinator::CoordinatorConfig;
use rebalance_engine::protocol::TopicPartition;
use rebalance_engine::sim::{Action, LogLevel, Simulation};
use rebalance_engine::{CommitMode, ConsumerConfig, NetworkConfig, SimTime, Subscription};

#[derive(Clone, Debug)]
struct ConsumerGen {
    processing_s: u64,
    commit: u8,
    commit_in_revoke: bool,
    static_member: bool,
    assignor: u8,
}

#[derive(Clone, Debug)]
enum Op {
    Kill(usize),
    Close(usize),
    Restart(usize),
    Pause(usize, u64, bool),
    Add,
    AddPartition,
    NewTopic,
}

fn consumer_gen() -> impl Strategy<Value = ConsumerGen> {
    (1u64..7, 0u8..3, any::<bool>(), any::<bool>(), 0u8..3).prop_map(
        |(processing_s, commit, commit_in_revoke, static_member, assignor)| ConsumerGen {
            processing_s,
            commit,
            commit_in_revoke,
            static_member,
            assignor,
        },
    )
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (0usize..6).prop_map(Op::Kill),
        (0usize..6).prop_map(Op::Close),
        (0usize..6).prop_map(Op::Restart),
        (0usize..6, 1u64..40, any::<bool>()).prop_map(|(c, s, hb)| Op::Pause(c, s, hb)),
        Just(Op::Add),
        Just(Op::AddPartition),
        Just(Op::NewTopic),
    ]
}

fn config(i: usize, g: &ConsumerGen, regex: bool) -> ConsumerConfig {
    let sub = if regex {
        Subscription::Pattern("t.*".into())
    } else {
        Subscription::Topics(vec!["t1".into(), "t2".into()])
    };
    let mut c = ConsumerConfig::new(format!("c{i}"), "g", sub);
    c.group_protocol = GroupProtocol::Consumer;
    c.server_assignor =
        [None, Some("uniform".to_string()), Some("range".to_string())][usize::from(g.assignor)].clone();
    c.processing_ms = g.processing_s * 1000;
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
    // The coordinator: assigned ∪ pending revocation are disjoint across members (§1, the
    // partition epochs).
    if let Some(g) = sim.consumer_group() {
        let mut holder: Map<TopicPartition, String> = Map::new();
        for m in &g.members {
            for tp in m.assigned.iter().chain(&m.pending_revocation) {
                if let Some(other) = holder.insert(tp.clone(), m.member_id.clone()) {
                    prop_assert!(false, "{tp} held by {other} and {} at {}", m.member_id, sim.now());
                }
            }
        }
    }
    // The clients: members in the group own disjoint partitions.
    let mut owner: Map<TopicPartition, String> = Map::new();
    for name in sim.consumer_names() {
        let c = sim.consumer(&name).unwrap();
        let in_group = matches!(
            c.consumer_member_state(),
            Some(
                ConsumerMemberState::Reconciling
                    | ConsumerMemberState::Acknowledging
                    | ConsumerMemberState::Stable
            )
        );
        let frozen = c.paused().is_some_and(|(_, hb, polls)| hb && polls);
        if !c.lifecycle().is_running() || !in_group || frozen {
            continue;
        }
        for tp in c.owned() {
            if let Some(other) = owner.insert(tp.clone(), name.clone()) {
                prop_assert!(false, "{tp} owned by {other} and {name} at {}", sim.now());
            }
        }
    }
    for (tp, o) in sim.committed_offsets() {
        if let Some(prev) = last_committed.insert(tp.clone(), o) {
            prop_assert!(o >= prev, "{tp} committed {o} after {prev} at {}", sim.now());
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_consumer_protocol_groups_keep_one_owner_per_partition(
        seed in any::<u64>(),
        regex in any::<bool>(),
        partitions in 1i32..6,
        consumers in proptest::collection::vec(consumer_gen(), 1..5),
        ops in proptest::collection::vec((1u64..100, op()), 0..8),
        jitter in 0u64..20,
    ) {
        let network = NetworkConfig { latency_ms: 2, jitter_ms: jitter, ..NetworkConfig::default() };
        let mut sim = Simulation::empty("g", CoordinatorConfig::default(), network, seed, Some(SimTime(120_000)));
        sim.set_log_level(LogLevel::Off);
        sim.apply(SimTime::ZERO, Action::CreateTopic { topic: "t1".into(), partitions, records_per_sec: 5, initial_records: 3 }).unwrap();
        let mut all = consumers.clone();
        for (i, g) in consumers.iter().enumerate() {
            sim.apply(SimTime::ZERO, Action::AddConsumer { config: Box::new(config(i, g, regex)) }).unwrap();
        }
        let stops = ops.iter().any(|(_, o)| matches!(o, Op::Kill(_) | Op::Close(_)));
        let mut parts = partitions;
        let mut t2 = false;
        let mut scheduled: Vec<(u64, Action)> = Vec::new();
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
                    Action::AddConsumer { config: Box::new(config(all.len() - 1, &g, regex)) }
                }
                Op::AddPartition => {
                    parts += 1;
                    Action::AddPartitions { topic: "t1".into(), partitions: parts }
                }
                Op::NewTopic if !t2 => {
                    t2 = true;
                    Action::CreateTopic { topic: "t2".into(), partitions: 2, records_per_sec: 2, initial_records: 0 }
                }
                Op::NewTopic => continue,
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
        // The world did run (unless consumers were stopped): at the coordinator's 5 s heartbeat
        // interval one member's heartbeats alone take a send and a response instant every 5 s,
        // 48 in two minutes (one slow member paused past max.poll.interval.ms, the smallest
        // world here, ran 80), and the members formed a consumer group.
        if !stops {
            prop_assert!(steps > 40, "only {steps} steps");
            prop_assert!(sim.consumer_group().is_some(), "no consumer group was ever created");
        }
    }
}
