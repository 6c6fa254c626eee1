//! Compaction of the group's `__consumer_offsets` partition ([`Simulation::set_log_compaction`])
//! changes nothing a run shows: on every scenario file and on random broker fault schedules
//! (crashes, restarts, slow followers, failovers), a compacted run emits the same events, step by
//! step, as the same run without compaction, ends in the same coordinator state, and each replica
//! holds the same log end offset, high watermark, latest record of each key, and the same records
//! from the point it was compacted to. Compaction runs at every chance (batch 1), so that it
//! meets truncations and loads as often as possible.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use rebalance_engine::cluster::ClusterConfig;
use rebalance_engine::coordinator::CoordinatorConfig;
use rebalance_engine::protocol::NodeId;
use rebalance_engine::sim::{Action, Simulation};
use rebalance_engine::{CommitMode, ConsumerConfig, NetworkConfig, Scenario, SimTime, Subscription};

/// Compares the replicas, the coordinator and the events of `plain` and `compacted` (the same
/// simulation, the second compacted); returns how many records compaction removed.
fn same_state(plain: &Simulation, compacted: &Simulation) -> u64 {
    assert_eq!(
        plain.events_emitted(),
        compacted.events_emitted(),
        "events at {}",
        plain.now()
    );
    assert_eq!(plain.offsets_partition(), compacted.offsets_partition());
    let mut removed = 0;
    for b in plain.cluster().broker_ids() {
        let (Some(full), Some(tail)) = (plain.cluster().replica_log(b), compacted.cluster().replica_log(b))
        else {
            assert!(compacted.cluster().replica_log(b).is_none());
            continue;
        };
        let start = compacted.cluster().replica_log_start(b).unwrap();
        assert_eq!(
            &full[start as usize..],
            tail,
            "replica {b:?} after offset {start}"
        );
        removed = removed.max(start);
        let latest = |s: &Simulation| {
            let mut v: Vec<_> = s
                .cluster()
                .replica_latest(b)
                .unwrap()
                .iter()
                .map(|r| (**r).clone())
                .collect();
            v.sort_by_key(|r| r.offset);
            v
        };
        assert_eq!(
            latest(plain),
            latest(compacted),
            "latest records of replica {b:?}"
        );
    }
    assert_eq!(plain.group_snapshot(), compacted.group_snapshot());
    assert_eq!(plain.committed_offsets(), compacted.committed_offsets());
    removed
}

/// Runs both to the end, comparing them after every step and the whole traces at the end.
fn run_both(mut plain: Simulation) -> u64 {
    let mut compacted = plain.clone();
    compacted.set_log_compaction(Some(1));
    let mut removed = 0;
    while let Some(t) = plain.step() {
        assert_eq!(compacted.step(), Some(t));
        removed = removed.max(same_state(&plain, &compacted));
        if plain.end().is_some_and(|end| t >= end) {
            break;
        }
    }
    plain.run_to_end();
    compacted.run_to_end();
    same_state(&plain, &compacted);
    assert_eq!(plain.trace_jsonl(), compacted.trace_jsonl());
    assert_eq!(plain.trace_text(true), compacted.trace_text(true));
    removed
}

#[test]
fn every_scenario_file_runs_the_same_compacted() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let mut files: Vec<_> = std::fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut compacted_some = 0;
    for path in files {
        let scenario = Scenario::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let removed = run_both(Simulation::new(&scenario).unwrap());
        if removed > 0 {
            compacted_some += 1;
        }
    }
    assert!(
        compacted_some >= 5,
        "only {compacted_some} scenarios compacted anything"
    );
}

#[derive(Clone, Debug)]
enum Fault {
    Crash(i32, bool),
    Restart(i32),
    Slow(i32, u64, u64),
    Failover(u64),
}

fn fault() -> impl Strategy<Value = Fault> {
    prop_oneof![
        3 => (0i32..4, any::<bool>()).prop_map(|(b, g)| Fault::Crash(b, g)),
        3 => (0i32..4).prop_map(Fault::Restart),
        2 => (0i32..4, 1u64..50, 1u64..60).prop_map(|(b, i, d)| Fault::Slow(b, i * 1000, d * 1000)),
        1 => (1u64..20).prop_map(|s| Fault::Failover(s * 1000)),
    ]
}

fn build(brokers: u32, rf: u32, min_isr: u32, fetch_ms: u64, faults: &[(u64, Fault)]) -> Simulation {
    let rf = rf.min(brokers);
    let cluster = ClusterConfig {
        brokers,
        replication_factor: rf,
        min_insync_replicas: min_isr.min(rf),
        replica_fetch_interval_ms: fetch_ms,
        replica_lag_time_max_ms: 10_000,
        ..ClusterConfig::default()
    };
    let mut sim = Simulation::with_cluster(
        "g",
        CoordinatorConfig::default(),
        cluster,
        NetworkConfig::default(),
        7,
        Some(SimTime(120_000)),
    );
    sim.apply(
        SimTime::ZERO,
        Action::CreateTopic {
            topic: "t".into(),
            partitions: 3,
            records_per_sec: 20,
            initial_records: 0,
        },
    )
    .unwrap();
    for i in 0..2 {
        let mut c = ConsumerConfig::new(format!("c{i}"), "g", Subscription::Topics(vec!["t".into()]));
        c.processing_ms = 700 + 300 * i as u64;
        c.session_timeout_ms = 10_000;
        c.commit = CommitMode::Manual { every_batches: 1 };
        sim.apply(SimTime::ZERO, Action::AddConsumer { config: Box::new(c) })
            .unwrap();
    }
    for (at, f) in faults {
        let b = |x: i32| NodeId(x % brokers as i32);
        let a = match f {
            Fault::Crash(x, graceful) => Action::CrashBroker {
                broker: b(*x),
                graceful: *graceful,
            },
            Fault::Restart(x) => Action::RestartBroker { broker: b(*x) },
            Fault::Slow(x, interval, d) => Action::SlowBroker {
                broker: b(*x),
                fetch_interval_ms: *interval,
                duration_ms: Some(*d),
            },
            Fault::Failover(d) => Action::CoordinatorFailover { duration_ms: *d },
        };
        sim.apply(SimTime(*at), a).unwrap();
    }
    sim
}

#[test]
fn repeated_crashes_and_restarts_run_the_same_compacted() {
    let faults: Vec<(u64, Fault)> = (0..8u64)
        .flat_map(|i| {
            let b = (i % 3) as i32;
            [
                (10_000 + i * 12_000, Fault::Crash(b, i % 2 == 0)),
                (16_000 + i * 12_000, Fault::Restart(b)),
            ]
        })
        .collect();
    assert!(run_both(build(3, 3, 1, 500, &faults)) > 0, "nothing compacted");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn random_fault_schedules_run_the_same_compacted(
        brokers in 2u32..5,
        rf in 1u32..4,
        min_isr in 1u32..3,
        fetch_ms in prop_oneof![Just(0u64), Just(500), Just(3000)],
        faults in proptest::collection::vec((1u64..110, fault()), 0..12),
    ) {
        let faults: Vec<(u64, Fault)> = faults.into_iter().map(|(s, f)| (s * 1000, f)).collect();
        run_both(build(brokers, rf, min_isr, fetch_ms, &faults));
    }
}
