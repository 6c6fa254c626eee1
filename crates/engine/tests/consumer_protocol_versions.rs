//! The seven consumer-protocol scenario files (pinned to Kafka 4.1's coordinator rules) run again
//! under 4.2, 4.3 and 4.4 (`coordinator.kafka_version` overridden), reference §12:
//!
//! * no panic, and one owner per partition at every step: on the coordinator (assigned and
//!   pending-revocation partitions of its members are disjoint) and on the clients (a partition
//!   two consumers hold is held by at most one member the coordinator still has: the other is a
//!   fenced zombie that has not noticed yet);
//! * at the end every running member is reconciled: the client STABLE, the coordinator's member
//!   STABLE at the target assignment epoch, the group Stable;
//! * the version deltas the traces must show: groups start at epoch 1 from 4.3 (V8, so the first
//!   member's first epoch is 2 instead of 1); the target-assignment metadata record carries a
//!   timestamp from 4.3 (V9, assignment batching) and none before.
//!
//! Two of them have goldens under 4.4 (`scenarios/consumer-protocol-*-4.4.json`).

mod common;

use rebalance_engine::collections::Map;
use rebalance_engine::collections::Set;

use common::sim::{client_events, scenario_file};
use rebalance_engine::client::{ConsumerMemberState, ConsumerProtocolEvent};
use rebalance_engine::coordinator::consumer::{ConsumerGroupState, MemberState};
use rebalance_engine::protocol::TopicPartition;
use rebalance_engine::{ClientEvent, RecordBody, Scenario, Simulation};

const SCENARIOS: [&str; 7] = [
    "consumer-protocol-three-members-join",
    "consumer-protocol-join-stable-group",
    "consumer-protocol-crash-session-timeout",
    "consumer-protocol-slow-revoke-fenced",
    "consumer-protocol-static-member-restart",
    "consumer-protocol-regex-topics-appear",
    "consumer-protocol-coordinator-failover-during-reconciliation",
];

const VERSIONS: [&str; 3] = ["4.2", "4.3", "4.4"];

/// `scenarios/<name>.json` with `coordinator.kafka_version` set to `version`.
fn under(name: &str, version: &str) -> Scenario {
    let path = common::sim::repo_root().join(format!("scenarios/{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["coordinator"]["kafka_version"] = serde_json::Value::String(version.into());
    Scenario::from_json(&v.to_string()).unwrap_or_else(|e| panic!("{name} under {version}: {e}"))
}

/// The one-owner invariant now, on both sides.
fn check_owners(sim: &Simulation, what: &str) {
    let Some(g) = sim.consumer_group() else { return };
    let mut held: Map<TopicPartition, &str> = Map::new();
    for m in &g.members {
        for tp in m.assigned.iter().chain(&m.pending_revocation) {
            if let Some(other) = held.insert(tp.clone(), &m.member_id) {
                panic!(
                    "{what}: {tp} is held by {other} and {} on the coordinator",
                    m.member_id
                );
            }
        }
    }
    let mut by_client: Map<TopicPartition, Vec<String>> = Map::new();
    for (name, parts) in sim.owners() {
        for tp in parts {
            by_client.entry(tp).or_default().push(name.clone());
        }
    }
    for (tp, names) in by_client.into_iter().filter(|(_, n)| n.len() > 1) {
        let members: Vec<&String> = names
            .iter()
            .filter(|n| {
                let id = sim
                    .consumer(n)
                    .map(|c| c.member_id().to_owned())
                    .unwrap_or_default();
                held.get(&tp).is_some_and(|holder| *holder == id)
            })
            .collect();
        assert!(
            members.len() <= 1,
            "{what}: {tp} is consumed by {names:?}, {members:?} of them members holding it"
        );
    }
}

/// Runs `scenario` step by step, checking the invariant after every step.
fn run_checked(scenario: &Scenario, what: &str) -> Simulation {
    let mut sim = Simulation::new(scenario).expect("valid scenario");
    let end = sim.end().expect("the scenarios have an end");
    let mut steps = 0u64;
    while sim.next_event_time().is_some_and(|t| t <= end) {
        sim.step();
        steps += 1;
        assert!(
            steps < 200_000 && sim.log().len() < 200_000,
            "{what}: the simulation does not end ({steps} steps, {} log entries, at {})",
            sim.log().len(),
            sim.now()
        );
        check_owners(&sim, what);
    }
    sim.run_to_end();
    sim
}

/// Every running consumer-protocol member ends reconciled, on both sides.
fn check_reconciled(sim: &Simulation, what: &str) {
    let g = sim
        .consumer_group()
        .unwrap_or_else(|| panic!("{what}: no consumer group at the end"));
    for c in sim.consumers() {
        if !c.lifecycle.is_running() {
            continue;
        }
        let p = c.consumer_protocol.as_ref().expect("consumer protocol");
        assert_eq!(
            p.state,
            ConsumerMemberState::Stable,
            "{what}: {} ends {:?}",
            c.name,
            p.state
        );
        let m = g
            .members
            .iter()
            .find(|m| m.member_id == c.member_id)
            .unwrap_or_else(|| panic!("{what}: {} is not a member at the end", c.name));
        assert_eq!(
            (m.state, m.member_epoch),
            (MemberState::Stable, g.assignment_epoch),
            "{what}: {} on the coordinator",
            c.name
        );
        let target: Set<&TopicPartition> = m.target.iter().collect();
        let owned: Set<&TopicPartition> = c.partitions.iter().map(|p| &p.partition).collect();
        assert_eq!(owned, target, "{what}: {} owns its target", c.name);
    }
    assert_eq!(
        g.state,
        ConsumerGroupState::Stable,
        "{what}: the group ends Stable"
    );
    assert_eq!(g.assignment_epoch, g.group_epoch, "{what}");
}

/// The first epoch above 0 the first consumer's member state changes report.
fn first_epoch(sim: &Simulation) -> i32 {
    let first = sim.consumers()[0].name.clone();
    let epoch =
        client_events(sim, &first).find_map(|(_, e)| match e {
            ClientEvent::ConsumerProtocol(ConsumerProtocolEvent::AssignmentReceived {
                member_epoch, ..
            }) if *member_epoch > 0 => Some(*member_epoch),
            _ => None,
        });
    epoch.expect("an assignment")
}

/// Whether every target-assignment metadata record written has a timestamp (true) or none has
/// (false); panics on a mix.
fn assignment_timestamps(sim: &Simulation) -> bool {
    let mut seen = Set::new();
    let cluster = sim.cluster();
    if let Some(leader) = cluster.group_leader() {
        {
            for r in cluster.replica_log(leader).into_iter().flatten() {
                if let RecordBody::ConsumerGroupTargetAssignmentMetadata {
                    assignment_epoch: Some(_),
                    assignment_timestamp_ms,
                    ..
                } = &r.body
                {
                    seen.insert(assignment_timestamp_ms.is_some());
                }
            }
        }
    }
    assert_eq!(seen.len(), 1, "records: {seen:?}");
    seen.into_iter().next().unwrap()
}

#[test]
fn every_consumer_protocol_scenario_runs_under_4_2_4_3_and_4_4() {
    for name in SCENARIOS {
        let baseline = run_checked(&scenario_file(&format!("scenarios/{name}.json")), name);
        check_reconciled(&baseline, &format!("{name} (4.1)"));
        assert_eq!(
            first_epoch(&baseline),
            1,
            "{name} (4.1): a new group's first epoch"
        );
        for version in VERSIONS {
            let what = format!("{name} under {version}");
            let sim = run_checked(&under(name, version), &what);
            check_reconciled(&sim, &what);
            // §12 V8: from 4.3 a new group starts at epoch 1, so its first target is epoch 2.
            let want = if version == "4.2" { 1 } else { 2 };
            assert_eq!(first_epoch(&sim), want, "{what}: the first member epoch");
            // §12 V9: from 4.3 the target-assignment metadata record carries its timestamp.
            assert_eq!(assignment_timestamps(&sim), version != "4.2", "{what}");
            // The stories' events happen under every version.
            assert!(sim.trace_text(false).len() > 1_000, "{what}: a trace");
        }
    }
}

/// Two of the stories pinned to Kafka 4.4, against their goldens (`UPDATE_GOLDEN=1` regenerates).
#[test]
fn the_4_4_stories_match_their_goldens() {
    for name in [
        "consumer-protocol-three-members-join-4.4",
        "consumer-protocol-join-stable-group-4.4",
    ] {
        let scenario = scenario_file(&format!("scenarios/{name}.json"));
        let sim = run_checked(&scenario, name);
        check_reconciled(&sim, name);
        assert_eq!(first_epoch(&sim), 2, "{name}: §12 V8");
        assert!(assignment_timestamps(&sim), "{name}: §12 V9");
        common::golden::check_golden("golden_scenarios", name, &sim.trace_text(false));
    }
}
