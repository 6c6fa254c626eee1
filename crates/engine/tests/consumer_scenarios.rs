//! Scenario files of the coordinator's KIP-848 remainders (preloaded groups, Kafka lines, the
//! scripted assignor, mixed groups), each run to its end: the readable trace must equal the golden
//! in `tests/golden_scenarios/` (regenerate with `UPDATE_GOLDEN=1` and review), and the key facts
//! are asserted directly. Then the validation of `preloaded_groups` and of the new `coordinator`
//! settings: every bad value is refused with a message naming its path, value and limit.

mod common;

use common::sim::{coordinator_events, run_to_end, scenario_file, tps};
use rebalance_engine::coordinator::consumer::ConsumerGroupState;
use rebalance_engine::{EventKind, GroupState, Scenario, Simulation};

fn run(name: &str) -> Simulation {
    let sim = run_to_end(&scenario_file(&format!("scenarios/{name}.json")));
    common::golden::check_golden("golden_scenarios", name, &sim.trace_text(false));
    sim
}

fn lines(sim: &Simulation) -> Vec<String> {
    sim.trace_text(false).lines().map(str::to_owned).collect()
}

fn has(sim: &Simulation, needle: &str) -> bool {
    lines(sim).iter().any(|l| l.contains(needle))
}

#[test]
fn a_preloaded_consumer_group_is_loaded_at_zero_and_its_silent_member_expires() {
    let sim = run("preloaded-consumer-group");
    // Loaded through the failover path: the partition's records, then the group.
    assert!(has(&sim, "t=0.000s [broker 0] group test_group_1: loaded consumer group with 2 member(s), group epoch 5, assignment epoch 5"));
    // m1's heartbeat at its epoch bumps nothing: the preloaded metadata hash is the real one.
    assert!(has(
        &sim,
        "t=2.005s [broker 0] group test_group_1: bumped group epoch to 6"
    ));
    assert!(!lines(&sim)
        .iter()
        .any(|l| l.starts_with("t=1.005s") && l.contains("bumped")));
    // m2's session timer started at load: 45 s (group.consumer.session.timeout.ms).
    assert!(has(&sim, "t=45.000s [broker 0] group test_group_1: member m2 fenced from the group because the member session expired"));
    let fenced = coordinator_events(&sim)
        .filter(|(_, e)| matches!(e, EventKind::ConsumerMemberFenced { .. }))
        .count();
    assert_eq!(fenced, 1);
    assert!(has(&sim, "member m3 STABLE at epoch 7, assigned [t-2, t-3]"));
    // The committed offsets were preloaded too.
    assert!(
        has(&sim, "t-0=42") && has(&sim, "t-2=17"),
        "OffsetFetch shows them"
    );
    let last = coordinator_events(&sim)
        .filter_map(|(_, e)| match e {
            EventKind::ConsumerGroupStateChanged { to, .. } => Some(*to),
            _ => None,
        })
        .last();
    assert_eq!(last, Some(ConsumerGroupState::Stable));
}

#[test]
fn a_preloaded_classic_group_over_group_max_size_rebalances_on_load() {
    let sim = run("preloaded-classic-group-over-max-size");
    assert!(has(
        &sim,
        "t=0.000s [broker 0] group test_group_1: loaded as Stable, generation 3, 3 member(s), 3 offset(s)"
    ));
    assert!(has(
        &sim,
        "Stable -> PreparingRebalance (loaded group has 3 members, over group.max.size 2)"
    ));
    // The old members' 10 s sessions started at load.
    assert!(has(
        &sim,
        "t=10.000s [broker 0] group test_group_1: member old-3 removed (session expired)"
    ));
    assert!(has(&sim, "generation 3 -> 4"));
    assert_eq!(sim.owners()["A"], tps("t", &[0, 1, 2]));
    assert_eq!(sim.group().group_state, GroupState::Stable);
    assert!(has(
        &sim,
        "starting positions: t-0=100 (committed), t-1=150 (committed), t-2=120 (committed)"
    ));
}

#[test]
fn kafka_4_3_batches_target_computations() {
    let sim = run("consumer-assignment-batching");
    assert!(has(
        &sim,
        "t=1.005s [broker 0] group test_group_1: bumped group epoch to 2"
    ));
    assert!(has(
        &sim,
        "t=1.505s [broker 0] group test_group_1: member b STABLE at epoch 2, assigned []"
    ));
    assert!(has(
        &sim,
        "t=1.505s [broker 0] group test_group_1: consumer group Stable -> Assigning"
    ));
    assert!(has(
        &sim,
        "t=2.205s [broker 0] group test_group_1: target assignment for epoch 3 (uniform)"
    ));
    assert!(has(&sim, "Stable epoch=3 assignment_epoch=3"));
}

#[test]
fn a_scripted_assignor_is_used_then_runs_out() {
    let sim = run("scripted-server-assignor");
    assert!(has(
        &sim,
        "target assignment for epoch 1 (scripted assignment 1 of 2): a -> [t-3]"
    ));
    assert!(has(
        &sim,
        "target assignment for epoch 2 (scripted assignment 2 of 2): a -> [t-0, t-1]; b -> [t-2, t-3]"
    ));
    assert!(has(
        &sim,
        "target assignment for epoch 3 (uniform; the assignment script ran out after 2)"
    ));
}

#[test]
fn a_classic_group_is_upgraded_online_then_downgraded() {
    let sim = run("mixed-group-online-migration");
    assert!(has(&sim, "t=20.005s [broker 0] group test_group_1: converted the classic group to a consumer group; its 2 member(s) keep the classic protocol"));
    // The classic members learn it from their heartbeats and rejoin as followers of no leader.
    assert!(has(
        &sim,
        "[A] Heartbeat failed with REBALANCE_IN_PROGRESS: request a rejoin"
    ));
    assert!(has(&sim, "JoinGroup(NONE, generation=2, protocol_type=\"consumer\", protocol=\"range\", leader=\"\", member=\"A-1\""));
    assert!(has(&sim, "member n1 STABLE at epoch 2, assigned [t-3]"));
    assert!(has(&sim, "t=40.005s [broker 0] group test_group_1: converted the consumer group to a classic group with 2 member(s)"));
    assert!(has(
        &sim,
        "Stable -> PreparingRebalance (downgraded from consumer to classic for member leaving)"
    ));
    assert!(has(&sim, "generation 2 -> 3"));
    let owners = sim.owners();
    assert_eq!(owners["A"].len() + owners["B"].len(), 4);
    assert_eq!(sim.group().group_state, GroupState::Stable);
}

// ---------------------------------------------------------------------------------- validation

const BASE: &str = r#"{"version": 1, "end_ms": 1000, "topics": [{"name": "t", "partitions": 2}]"#;

fn refused(extra: &str) -> String {
    let text = format!("{BASE}, {extra}}}");
    match Scenario::from_json(&text) {
        Ok(_) => panic!("accepted: {text}"),
        Err(e) => e.to_string(),
    }
}

fn accepted(extra: &str) -> Scenario {
    let text = format!("{BASE}, {extra}}}");
    Scenario::from_json(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

fn consumer(members: &str, more: &str) -> String {
    format!(
        r#""preloaded_groups": [{{"protocol": "consumer", "group_epoch": 3{more}, "members": [{members}]}}]"#
    )
}

#[test]
fn kafka_version_policy_and_interval_are_checked() {
    let e = refused(r#""coordinator": {"kafka_version": "3.9"}"#);
    assert!(e.starts_with("coordinator.kafka_version"), "{e}");
    assert!(
        e.contains("`3.9`") && e.contains("4.0, 4.1, 4.2, 4.3, 4.4"),
        "{e}"
    );
    let e = refused(r#""coordinator": {"group_consumer_migration_policy": "both"}"#);
    assert!(
        e.starts_with("coordinator.group_consumer_migration_policy"),
        "{e}"
    );
    assert!(
        e.contains("`both`") && e.contains("disabled, upgrade, downgrade, bidirectional"),
        "{e}"
    );
    let e = refused(r#""coordinator": {"group_consumer_assignment_interval_ms": 15001}"#);
    assert!(
        e.starts_with("coordinator.group_consumer_assignment_interval_ms") && e.contains("15000"),
        "{e}"
    );
    let s = accepted(
        r#""coordinator": {"kafka_version": "4.2.1", "group_consumer_migration_policy": "upgrade"}"#,
    );
    let c = s.coordinator_config();
    assert_eq!(c.kafka_version, rebalance_engine::KafkaRelease::V4_2);
    assert_eq!(
        c.group_consumer_migration_policy,
        rebalance_engine::MigrationPolicy::Upgrade
    );
    assert_eq!(
        accepted("\"seed\": 1").coordinator_config().kafka_version,
        rebalance_engine::KafkaRelease::NEWEST
    );
}

#[test]
fn scripted_assignments_are_checked() {
    let e = refused(r#""coordinator": {"scripted_assignments": [{"a": {"t": [0, 0]}}]}"#);
    assert!(
        e.starts_with("coordinator.scripted_assignments[0].a.t[1]") && e.contains("twice"),
        "{e}"
    );
    let e = refused(r#""coordinator": {"scripted_assignments": [{"a": {"t": [0]}, "b": {"t": [0]}}]}"#);
    assert!(
        e.starts_with("coordinator.scripted_assignments[0].b.t[0]") && e.contains("one owner"),
        "{e}"
    );
    let e = refused(r#""coordinator": {"scripted_assignments": [{"a": {"t": [-1]}}]}"#);
    assert!(e.contains("partition -1 is out of range"), "{e}");
}

#[test]
fn preloaded_consumer_groups_are_checked_field_by_field() {
    let m = |extra: &str| format!(r#"{{"member_id": "m1", "subscribed_topic_names": ["t"]{extra}}}"#);
    let cases: &[(String, &str, &str)] = &[
        (
            consumer(&m(r#", "assigned": {"t": [2]}"#), ""),
            "preloaded_groups[0].members[0].assigned.t[0]",
            "partition t-2 is out of range: t has 2 partition(s) at time 0",
        ),
        (
            consumer(&m(r#", "assigned": {"x": [0]}"#), ""),
            "preloaded_groups[0].members[0].assigned.x",
            "topic \"x\" does not exist at time 0",
        ),
        (
            consumer(
                &format!(
                    "{}, {}",
                    m(r#", "assigned": {"t": [0]}"#),
                    r#"{"member_id": "m2", "assigned": {"t": [0]}}"#
                ),
                "",
            ),
            "preloaded_groups[0].members[1].assigned.t[0]",
            "partition t-0 is already owned by m1; a partition has one owner",
        ),
        (
            consumer(&format!("{}, {}", m(""), m("")), ""),
            "preloaded_groups[0].members[1].member_id",
            "a member id \"m1\" is given twice",
        ),
        (
            consumer(&m(""), r#", "target_assignment": {"ghost": {"t": [0]}}"#),
            "preloaded_groups[0].target_assignment.ghost",
            "\"ghost\" is not one of the group's members",
        ),
        (
            consumer(&m(""), r#", "assignment_epoch": 4"#),
            "preloaded_groups[0].assignment_epoch",
            "assignment epoch 4 is out of range: 0 to the group epoch 3",
        ),
        (
            consumer(&m(r#", "member_epoch": 4"#), ""),
            "preloaded_groups[0].members[0].member_epoch",
            "member epoch 4 is out of range: 0 to the assignment epoch 3, or -2",
        ),
        (
            consumer(&m(r#", "member_epoch": -2"#), ""),
            "preloaded_groups[0].members[0].member_epoch",
            "give an instance_id",
        ),
        (
            consumer(&m(r#", "state": "UNREVOKED_PARTITIONS""#), ""),
            "preloaded_groups[0].members[0].pending_revocation",
            "a member in UNREVOKED_PARTITIONS has partitions pending revocation",
        ),
        (
            consumer(&m(r#", "pending_revocation": {"t": [1]}"#), ""),
            "preloaded_groups[0].members[0].pending_revocation",
            "not one in STABLE",
        ),
        (
            consumer(
                &m(
                    r#", "state": "UNREVOKED_PARTITIONS", "assigned": {"t": [1]}, "pending_revocation": {"t": [1]}"#,
                ),
                "",
            ),
            "preloaded_groups[0].members[0].pending_revocation.t",
            "partition t-1 is both assigned and pending revocation",
        ),
        (
            consumer(&m(r#", "server_assignor": "sticky""#), ""),
            "preloaded_groups[0].members[0].server_assignor",
            "ServerAssignor sticky is not supported. Supported assignors: uniform, range.",
        ),
        (
            consumer(&m(r#", "subscribed_topic_regex": "[""#), ""),
            "preloaded_groups[0].members[0].subscribed_topic_regex",
            "is not a valid regular expression",
        ),
        (
            consumer(&m(""), r#", "group_id": "another-group""#),
            "preloaded_groups[0].group_id",
            "only the partition of the scenario's group",
        ),
        (
            consumer(
                &m(""),
                r#", "offsets": [{"topic": "t", "partition": 0, "offset": -5}]"#,
            ),
            "preloaded_groups[0].offsets[0].offset",
            "offset -5 is out of range",
        ),
        (
            consumer(
                &m(""),
                r#", "offsets": [{"topic": "t", "partition": 0, "offset": 1}, {"topic": "t", "partition": 0, "offset": 2}]"#,
            ),
            "preloaded_groups[0].offsets[1]",
            "t-0 has two committed offsets",
        ),
    ];
    for (extra, path, message) in cases {
        let e = refused(extra);
        assert!(e.starts_with(path), "expected the path {path}: {e}");
        assert!(e.contains(message), "expected {message:?}: {e}");
    }
    // A misspelt field is refused by the parser, with its path.
    let e = refused(&consumer(&m(r#", "assignd": {"t": [0]}"#), ""));
    assert!(e.contains("unknown field `assignd`"), "{e}");
}

#[test]
fn preloaded_classic_groups_are_checked_field_by_field() {
    let g = |members: &str, more: &str| {
        format!(r#""preloaded_groups": [{{"protocol": "classic"{more}, "members": [{members}]}}]"#)
    };
    let m = r#"{"member_id": "a", "subscription": ["t"], "assignment": {"t": [0]}}"#;
    let cases: &[(String, &str, &str)] = &[
        (
            g(m, r#", "leader": "b""#),
            "preloaded_groups[0].leader",
            "leader \"b\" is not one of the group's members",
        ),
        (
            g(m, r#", "generation": 0"#),
            "preloaded_groups[0].generation",
            "a group with members has a generation of at least 1",
        ),
        (
            g(&format!("{m}, {}", m.replace("\"a\"", "\"b\"")), ""),
            "preloaded_groups[0].members[1].assignment.t[0]",
            "partition t-0 is already assigned to a",
        ),
        (
            g(r#"{"member_id": "a", "session_timeout_ms": 1000}"#, ""),
            "preloaded_groups[0].members[0].session_timeout_ms",
            "session.timeout.ms 1000 is outside the coordinator's [group.min.session.timeout.ms 6000",
        ),
        (
            g("", r#", "assignor": "range""#),
            "preloaded_groups[0].assignor",
            "an empty group has no selected protocol",
        ),
        (
            g(r#"{"member_id": ""}"#, ""),
            "preloaded_groups[0].members[0].member_id",
            "a member id must not be empty",
        ),
    ];
    for (extra, path, message) in cases {
        let e = refused(extra);
        assert!(e.starts_with(path), "expected the path {path}: {e}");
        assert!(e.contains(message), "expected {message:?}: {e}");
    }
    let e = refused(r#""preloaded_groups": [{"protocol": "kraft"}]"#);
    assert!(
        e.starts_with("preloaded_groups[0]") && e.contains("unknown variant `kraft`"),
        "{e}"
    );
    // An empty classic group with offsets is fine.
    accepted(
        r#""preloaded_groups": [{"protocol": "classic", "offsets": [{"topic": "t", "partition": 1, "offset": 7}]}]"#,
    );
}

#[test]
fn the_documented_preload_example_loads_with_kafkas_load_rules() {
    // The example of docs/scenario-format.md, "preloaded_groups", in a scenario of its own.
    let text = r#"{"version": 1, "end_ms": 60000, "topics": [{"name": "t", "partitions": 4}],
        "preloaded_groups": [
          {
            "protocol": "consumer",
            "group_epoch": 5,
            "members": [
              { "member_id": "m1", "subscribed_topic_names": ["t"], "assigned": { "t": [0, 1] } },
              { "member_id": "m2", "subscribed_topic_names": ["t"], "member_epoch": 4,
                "state": "UNREVOKED_PARTITIONS", "assigned": { "t": [2] }, "pending_revocation": { "t": [3] } }
            ],
            "target_assignment": { "m1": { "t": [0, 1, 3] }, "m2": { "t": [2] } },
            "offsets": [{ "topic": "t", "partition": 0, "offset": 42 }]
          }
        ]}"#;
    let scenario = Scenario::from_json(text).unwrap_or_else(|e| panic!("{e}"));
    let mut sim = Simulation::new(&scenario).expect("a simulation");
    sim.run_to_end();
    let timers: Vec<(rebalance_engine::TimerKey, u64)> = coordinator_events(&sim)
        .filter_map(|(e, k)| match k {
            EventKind::TimerSet { key, .. } => Some((key.clone(), e.at.as_millis())),
            _ => None,
        })
        .collect();
    // §8.7 on load: both members' sessions, and m2's revocation deadline (it is revoking).
    for (key, what) in [
        (
            rebalance_engine::TimerKey::ConsumerSession {
                group_id: "test_group_1".into(),
                member_id: "m1".into(),
            },
            "m1's session",
        ),
        (
            rebalance_engine::TimerKey::ConsumerRebalance {
                group_id: "test_group_1".into(),
                member_id: "m2".into(),
            },
            "m2's revocation deadline",
        ),
    ] {
        assert!(timers.contains(&(key, 0)), "{what} at load: {timers:?}");
    }
    // Nobody heartbeats: both sessions expire at 45 s, each fence bumping the epoch.
    assert!(has(&sim, "t=45.000s [broker 0] group test_group_1: member m1 fenced from the group because the member session expired"));
    assert!(has(&sim, "bumped group epoch to 7"));
    assert_eq!(
        sim.committed_offsets()[&rebalance_engine::protocol::TopicPartition::new("t", 0)],
        42
    );
}
