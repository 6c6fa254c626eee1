//! Every size and duration of a scenario is bounded: an over-limit value is rejected at validation
//! with a message naming the field path, the value and the limit; sums of inputs cannot wrap.

use rebalance_engine::scenario::{
    MAX_ACTIONS, MAX_BROKERS, MAX_CONSUMERS, MAX_END_MS, MAX_INITIAL_RECORDS, MAX_JSON_DEPTH, MAX_NETWORK_MS,
    MAX_OFFSETS_PARTITIONS, MAX_PARTITIONS, MAX_POLL_RECORDS, MAX_RECORDS_PER_SEC, MAX_SETTING_MS,
    MAX_TOPIC_NAME_CHARS,
};
use rebalance_engine::{Scenario, Simulation};

/// A valid scenario with `extra` spliced in at the top level (later keys are not allowed twice, so
/// `extra` holds fields the base lacks).
fn with(extra: &str) -> String {
    format!(
        r#"{{"version": 1, "end_ms": 60000,
            "topics": [{{"name": "t", "partitions": 3}}],
            "client_defaults": {{"subscription": {{"topics": ["t"]}}}}{extra}}}"#
    )
}

fn rejected(text: &str) -> rebalance_engine::ScenarioError {
    match Scenario::from_json(text) {
        Ok(_) => panic!("accepted: {text}"),
        Err(e) => e,
    }
}

/// The error names `path`, the value and the limit.
fn names(text: &str, path: &str, value: &str, limit: impl ToString) {
    let e = rejected(text);
    assert_eq!(e.path, path, "{e}");
    assert!(e.message.contains(value), "{e}");
    assert!(e.message.contains(&limit.to_string()), "{e}");
    assert!(e.line.is_some(), "{e}");
}

#[test]
fn sizes_that_would_allocate_are_rejected_with_field_value_and_limit() {
    let p = i32::MAX.to_string();
    names(
        &format!(r#"{{"version": 1, "end_ms": 1000, "topics": [{{"name": "t", "partitions": {p}}}]}}"#),
        "topics[0].partitions",
        &p,
        MAX_PARTITIONS,
    );
    names(
        &with(
            r#", "actions": [{"type": "create_topic", "at_ms": 5, "topic": "u", "partitions": 2147483647}]"#,
        ),
        "actions[0].partitions",
        &p,
        MAX_PARTITIONS,
    );
    names(
        &with(
            r#", "actions": [{"type": "add_partitions", "at_ms": 5, "topic": "t", "partitions": 2147483647}]"#,
        ),
        "actions[0].partitions",
        &p,
        MAX_PARTITIONS,
    );
    names(
        &with(r#", "cluster": {"brokers": 4000000000}"#),
        "cluster.brokers",
        "4000000000",
        MAX_BROKERS,
    );
    names(
        &with(r#", "cluster": {"brokers": 1000000, "replication_factor": 1}"#),
        "cluster.brokers",
        "1000000",
        MAX_BROKERS,
    );
    names(
        &with(r#", "coordinator": {"offsets_topic_num_partitions": 2147483647}"#),
        "coordinator.offsets_topic_num_partitions",
        &p,
        MAX_OFFSETS_PARTITIONS,
    );
    names(
        &with(r#", "cluster": {"offsets_partitions": 2147483647}"#),
        "cluster.offsets_partitions",
        &p,
        MAX_OFFSETS_PARTITIONS,
    );
    names(
        &with(r#", "consumers": [{"name": "A", "max_poll_records": 4294967295}]"#),
        "consumers[0].max_poll_records",
        "4294967295",
        MAX_POLL_RECORDS,
    );
    let long = "x".repeat(MAX_TOPIC_NAME_CHARS + 1);
    names(
        &format!(r#"{{"version": 1, "end_ms": 1000, "topics": [{{"name": "{long}", "partitions": 1}}]}}"#),
        "topics[0].name",
        &(MAX_TOPIC_NAME_CHARS + 1).to_string(),
        MAX_TOPIC_NAME_CHARS,
    );
}

#[test]
fn counts_of_consumers_and_actions_are_bounded() {
    let consumers: Vec<String> = (0..=MAX_CONSUMERS)
        .map(|i| format!(r#"{{"name": "c{i}"}}"#))
        .collect();
    names(
        &with(&format!(r#", "consumers": [{}]"#, consumers.join(","))),
        "consumers",
        &(MAX_CONSUMERS + 1).to_string(),
        MAX_CONSUMERS,
    );
    let actions: Vec<String> = (0..=MAX_ACTIONS)
        .map(|i| {
            format!(r#"{{"type": "set_produce_rate", "at_ms": {i}, "topic": "t", "records_per_sec": 1}}"#)
        })
        .collect();
    let text = with(&format!(r#", "actions": [{}]"#, actions.join(",")))
        .replace("\"end_ms\": 60000", "\"end_ms\": 600000");
    names(&text, "actions", &(MAX_ACTIONS + 1).to_string(), MAX_ACTIONS);
}

#[test]
fn ranges_whose_sums_would_wrap_are_rejected() {
    let max = u64::MAX.to_string();
    names(
        &with(r#", "network": {"latency_ms": 18446744073709551615, "jitter_ms": 10}"#),
        "network.latency_ms",
        &max,
        MAX_NETWORK_MS,
    );
    names(
        &with(r#", "network": {"delay_probability": 1.0, "delay_ms": 18446744073709551615}"#),
        "network.delay_ms",
        &max,
        MAX_NETWORK_MS,
    );
    names(
        &with(
            r#", "actions": [{"type": "set_network", "at_ms": 5, "network": {"jitter_ms": 18446744073709551615}}]"#,
        ),
        "actions[0].network.jitter_ms",
        &max,
        MAX_NETWORK_MS,
    );
    names(
        &format!(
            r#"{{"version": 1, "end_ms": 1000, "topics": [{{"name": "t", "partitions": 1, "initial_records": {}}}]}}"#,
            i64::MAX - 1
        ),
        "topics[0].initial_records",
        &(i64::MAX - 1).to_string(),
        MAX_INITIAL_RECORDS,
    );
    let e = rejected(
        r#"{"version": 1, "end_ms": 1000, "topics": [{"name": "t", "partitions": 1, "initial_records": -5}]}"#,
    );
    assert_eq!(e.path, "topics[0].initial_records");
    names(
        &with(r#", "topics_": 0"#).replace(
            r#", "topics_": 0"#,
            r#", "consumers": [{"name": "A", "max_poll_interval_ms": 18446744073709551615}]"#,
        ),
        "consumers[0].max_poll_interval_ms",
        &max,
        MAX_SETTING_MS,
    );
    names(
        &with(
            r#", "actions": [{"type": "coordinator_failover", "at_ms": 5, "duration_ms": 18446744073709551615}]"#,
        ),
        "actions[0].duration_ms",
        &max,
        MAX_END_MS,
    );
    names(
        &with(r#", "topics_": 0"#)
            .replace(r#", "topics_": 0"#, "")
            .replace("60000", &max),
        "end_ms",
        &max,
        MAX_END_MS,
    );
    names(
        &format!(
            r#"{{"version": 1, "end_ms": 1000, "topics": [{{"name": "t", "partitions": 1, "records_per_sec": {max}}}]}}"#
        ),
        "topics[0].records_per_sec",
        &max,
        MAX_RECORDS_PER_SEC,
    );
}

#[test]
fn settings_at_their_limits_run_without_overflow() {
    // Every range at its limit at once: sums (latency + jitter + delay, timeouts + 5 s, offsets
    // + production) stay in range; with overflow checks on (tests), a wrap would panic.
    let text = format!(
        r#"{{"version": 1, "end_ms": 20000,
            "network": {{"latency_ms": {n}, "jitter_ms": {n}, "delay_ms": {n}, "delay_probability": 0.5}},
            "topics": [{{"name": "t", "partitions": 2, "records_per_sec": {r}, "initial_records": {i}}}],
            "client_defaults": {{"subscription": {{"topics": ["t"]}}, "max_poll_interval_ms": {m},
                                 "request_timeout_ms": {m}, "metadata_max_age_ms": {m}, "retry_backoff_ms": {m},
                                 "max_poll_records": {p}}},
            "consumers": [{{"name": "A"}}],
            "actions": [{{"type": "pause", "at_ms": 10, "consumer": "A", "duration_ms": {e}}}]}}"#,
        n = MAX_NETWORK_MS,
        r = MAX_RECORDS_PER_SEC,
        i = MAX_INITIAL_RECORDS,
        m = MAX_SETTING_MS,
        p = MAX_POLL_RECORDS,
        e = MAX_END_MS,
    );
    let s = Scenario::from_json(&text).unwrap();
    let mut sim = Simulation::new(&s).unwrap();
    sim.run_to_end();
    assert!(!sim.trace_jsonl().is_empty());
}

#[test]
fn impossible_client_settings_are_rejected() {
    let e = rejected(&with(
        r#", "consumers": [{"name": "A", "request_timeout_ms": 0}]"#,
    ));
    assert_eq!(e.path, "consumers[0].request_timeout_ms");
    assert!(e.message.contains("positive"), "{e}");
    let e = rejected(&with(r#", "consumers": [{"name": "A"}]"#).replace(
        r#""subscription": {"topics": ["t"]}"#,
        r#""subscription": {"topics": ["t"]}, "request_timeout_ms": 0"#,
    ));
    assert_eq!(e.path, "client_defaults.request_timeout_ms");
}

#[test]
fn documents_that_are_not_objects_or_nest_too_deeply_are_rejected() {
    for text in ["[]", "1", "\"x\"", "null"] {
        let e = rejected(text);
        assert!(e.message.contains("must be a JSON object"), "{e}");
    }
    let deep = format!(
        r#"{{"version": 1, "end_ms": 1, "name": {}1{}}}"#,
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let e = rejected(&deep);
    assert!(e.message.contains(&format!("at most {MAX_JSON_DEPTH}")), "{e}");
}

#[test]
fn type_errors_name_the_field() {
    let e = rejected(
        "{\n  \"version\": 1,\n  \"end_ms\": 1000,\n  \"topics\": [{\"name\": \"t\", \"partitions\": \"three\"}]\n}",
    );
    assert_eq!(e.path, "topics[0].partitions", "{e}");
    assert_eq!(e.line, Some(4));
    let e = rejected(r#"{"version": 1, "end_ms": 1000, "consumers": [{"name": "A", "procesing_ms": 5}]}"#);
    assert_eq!(e.path, "consumers[0].procesing_ms", "{e}");
    let e = rejected(r#"{"version": 1, "end_ms": -1}"#);
    assert_eq!(e.path, "end_ms", "{e}");
}
