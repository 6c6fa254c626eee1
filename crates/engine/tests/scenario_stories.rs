//! The articles' stories (scenarios/*.json), each run to its end: the readable trace must equal the
//! committed golden file (regenerate with `UPDATE_GOLDEN=1`; a missing golden fails), and the key
//! facts are asserted directly.

mod common;

use rebalance_engine::collections::Map;

use common::sim::{client_events, repo_root, revocations, run_to_end, scenario_file, tps};
use rebalance_engine::sim::{SimEventKind, WorldEvent};
use rebalance_engine::{ClientEvent, Lifecycle, Simulation};

fn run(name: &str) -> Simulation {
    run_to_end(&scenario_file(&format!("scenarios/{name}.json")))
}

fn check_golden(name: &str, sim: &Simulation) {
    common::golden::check_golden("golden_scenarios", name, &sim.trace_text(false));
}

#[test]
fn a_alone_then_b_joins() {
    let sim = run("a-then-b-joins");
    check_golden("a-then-b-joins", &sim);
    // RangeAssignor (§9.1): 3 partitions over [A-1, B-2] → A gets 0 and 1, B gets 2.
    let owners = sim.owners();
    assert_eq!(owners["A"], tps("round_topic", &[0, 1]));
    assert_eq!(owners["B"], tps("round_topic", &[2]));
    // Who waits for whom: B joins at 30 s, but the join phase only completes when A, busy with a
    // 10 s batch, polls again and rejoins (the rebalance happens inside poll()).
    let b_joined = client_events(&sim, "B")
        .find(|(_, e)| matches!(e, ClientEvent::JoinedGroup { .. }))
        .map(|(e, _)| e.at)
        .unwrap();
    let a_rejoined = client_events(&sim, "A")
        .filter(|(_, e)| matches!(e, ClientEvent::JoinedGroup { generation_id: 2, .. }))
        .map(|(e, _)| e.at)
        .next()
        .unwrap();
    assert!(
        b_joined.as_millis() > 33_000,
        "B waited for A's batch: {b_joined}"
    );
    assert_eq!(b_joined, a_rejoined);
    assert_eq!(sim.duplicates().values().sum::<u64>(), 0);
}

#[test]
fn duplicates_only_without_commit_in_revoke() {
    // Eager revocation (§8.2): without a commit in onPartitionsRevoked, the next owners restart
    // from the last committed offset and process the same records again.
    let without = run("rebalance-without-commit-in-revoke");
    check_golden("rebalance-without-commit-in-revoke", &without);
    let with = run("rebalance-with-commit-in-revoke");
    check_golden("rebalance-with-commit-in-revoke", &with);
    let dup_without = without.duplicates();
    assert!(dup_without["A"] > 0 && dup_without["B"] > 0, "{dup_without:?}");
    assert_eq!(with.duplicates().values().sum::<u64>(), 0);
    // Same owners either way.
    assert_eq!(without.owners(), with.owners());
}

#[test]
fn crash_detected_after_session_timeout() {
    let sim = run("crash-detected-after-session-timeout");
    check_golden("crash-detected-after-session-timeout", &sim);
    // §5.1: a killed member sends nothing; it is removed when its session (10 s) expires.
    let removed = sim
        .log()
        .iter()
        .find(|e| e.line().contains("removed (session expired)"))
        .expect("B's session expired");
    let since_kill = removed.at.as_millis() - 60_000;
    assert!(
        (7_000..=10_000).contains(&since_kill),
        "removed {since_kill} ms after the kill"
    );
    assert_eq!(sim.owners()["A"], tps("round_topic", &[0, 1, 2]));
    assert_eq!(*sim.consumer("B").unwrap().lifecycle(), Lifecycle::Killed);
}

#[test]
fn graceful_close_rebalances_at_once() {
    let sim = run("graceful-close-immediate-rebalance");
    check_golden("graceful-close-immediate-rebalance", &sim);
    // §3.5: LeaveGroup removes the member and starts a rebalance at once (no session wait).
    let left = sim
        .log()
        .iter()
        .find(|e| e.line().contains("removed (left the group)"))
        .expect("B left");
    assert!(left.at.as_millis() - 60_000 < 100);
    assert!(sim
        .log()
        .iter()
        .any(|e| e.at == left.at && e.line().contains("Stable -> PreparingRebalance")));
    assert_eq!(sim.owners()["A"], tps("round_topic", &[0, 1, 2]));
    assert_eq!(*sim.consumer("B").unwrap().lifecycle(), Lifecycle::Closed);
    assert_eq!(sim.duplicates().values().sum::<u64>(), 0);
}

#[test]
fn cooperative_two_rebalances() {
    let sim = run("cooperative-two-rebalances");
    check_golden("cooperative-two-rebalances", &sim);
    // §8.3: rebalance 1 withholds t-3..5 (C1 revokes them), rebalance 2 gives them to C2.
    let owners = sim.owners();
    assert_eq!(owners["C1"], tps("t", &[0, 1, 2]));
    assert_eq!(owners["C2"], tps("t", &[3, 4, 5]));
    assert_eq!(sim.group_snapshot().unwrap().generation_id, 3);
    // C1 never revoked 0..2: it consumed them throughout.
    assert_eq!(revocations(&sim, "C1"), vec![tps("t", &[3, 4, 5])]);
}

#[test]
fn every_scenario_file_is_valid_and_deterministic() {
    let dir = repo_root().join("scenarios");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let p = e.ok()?.path();
            if p.extension()? != "json" {
                return None;
            }
            Some(p.file_stem()?.to_string_lossy().into_owned())
        })
        .collect();
    names.sort();
    assert!(names.len() >= 5);
    let mut ends = Map::new();
    for n in names {
        let a = run(&n);
        let b = run(&n);
        assert_eq!(a.trace_jsonl(), b.trace_jsonl(), "{n} is not deterministic");
        ends.insert(
            n,
            a.log().iter().any(|e| {
                matches!(
                    e.kind,
                    SimEventKind::World {
                        event: WorldEvent::End
                    }
                )
            }),
        );
    }
    assert!(ends.values().all(|e| *e));
}
