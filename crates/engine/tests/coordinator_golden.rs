//! Golden traces: the event log's Display lines for a few scenarios, compared exactly with
//! `tests/golden/<name>.txt`. Regenerate with `UPDATE_GOLDEN=1 cargo test --test coordinator_golden`
//! and review the diff against the reference before committing: a missing file fails otherwise.

mod common;

use common::*;
use rebalance_engine::protocol::*;
use rebalance_engine::{Coordinator, CoordinatorConfig, SimDuration};

/// Compares the event lines with `tests/golden/<name>.txt`.
fn check(name: &str, lines: &[String]) {
    common::golden::check_golden("golden", name, &(lines.join("\n") + "\n"));
}

// Two consumers form a group: KIP-394 two-step join, initial delay extended once by the second
// member (§5.4), generation 1, range selected, leader = first joiner, leader's SyncGroup → Stable.
#[test]
fn golden_two_members_join_and_sync() {
    let mut h = Harness::new();
    h.stable_group(2);
    let lines = h.event_lines();
    // Spot checks computed from the rules, independent of the file.
    assert!(lines
        .iter()
        .any(|l| l.contains("Empty -> PreparingRebalance (new member c1-1 added)")));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("t=6.000s") && l.contains("PreparingRebalance -> CompletingRebalance")));
    assert!(lines
        .iter()
        .any(|l| l.contains("CompletingRebalance -> Stable (leader's assignment persisted)")));
    check("two_members_join_and_sync", &lines);
}

// A static member bounces without a rebalance, then a dynamic member stops heartbeating and its
// session expires, which rebalances the group.
#[test]
fn golden_static_bounce_and_session_expiry() {
    let mut h = Harness::new();
    let ta = h.join(1, join_req("").client("c1").instance("i1"));
    let (b, tb) = h.join_dynamic(2, "c2");
    h.run_join_phase();
    let a = h.join_resp(ta).member_id;
    h.join_resp(tb);
    h.sync(2, &b, 1, vec![]);
    h.sync(1, &a, 1, assign_one_each(&[a.clone(), b.clone()]));
    h.advance(1_000);
    let t = h.join(3, join_req("").client("c1").instance("i1"));
    let a2 = h.join_resp(t).member_id;
    let s = h.sync(3, &a2, 1, vec![]);
    h.sync_resp(s);
    for _ in 0..4 {
        h.advance(3_000);
        h.heartbeat_static(3, &a2, Some("i1"), 1);
    }
    let lines = h.event_lines();
    assert!(lines
        .iter()
        .any(|l| l.contains(&format!("static instance i1 now {a2}; {a} is fenced"))));
    assert!(lines
        .iter()
        .any(|l| l.contains(&format!("member {b} removed (session expired)"))));
    check("static_bounce_and_session_expiry", &lines);
}

// The group's partition moves from broker 1 to broker 2 during a rebalance.
#[test]
fn golden_coordinator_move() {
    let mut h = Harness::new();
    let ids = h.stable_group(2);
    h.commit(1, &ids[0], 1, 42);
    h.join(1, join_req(&ids[0]).client("c1"));
    let p = h.partition();
    let records = h.coord.unload(h.now, p);
    h.pump();
    let mut next = Coordinator::new(CoordinatorConfig {
        node_id: NodeId(2),
        ..config()
    });
    h.now += SimDuration::from_millis(500);
    next.load(h.now, p, records);
    h.coord = next;
    h.pump();
    h.heartbeat(2, &ids[1], 1);
    let lines = h.event_lines();
    assert!(lines
        .iter()
        .any(|l| l.contains("PreparingRebalance -> Dead (partition unloaded")));
    assert!(lines.iter().any(|l| l.contains("[broker 2]")
        && l.contains("loaded as Stable, generation 1, 2 member(s), 1 offset(s)")));
    check("coordinator_move", &lines);
}
