//! Scenario files: every invalid input gets an error naming the field and its position, never a panic.

use rebalance_engine::Scenario;

fn err(text: &str) -> String {
    Scenario::from_json(text)
        .expect_err("should be rejected")
        .to_string()
}

const OK: &str = r#"{
  "version": 1,
  "end_ms": 60000,
  "topics": [{"name": "round_topic", "partitions": 3, "records_per_sec": 3}],
  "client_defaults": {"subscription": {"topics": ["round_topic"]}},
  "consumers": [{"name": "A", "processing_ms": 10000}],
  "actions": [{"type": "kill", "at_ms": 30000, "consumer": "A"}]
}"#;

#[test]
fn a_valid_scenario_parses() {
    let s = Scenario::from_json(OK).unwrap();
    assert_eq!(s.consumers.len(), 1);
    assert_eq!(s.group_id, "test_group_1");
}

#[test]
fn bad_json_names_line_and_column() {
    let e = err("{\n  \"version\": 1,\n  \"end_ms\": 5,,\n}");
    assert!(e.contains("line 3"), "{e}");
    assert!(e.contains("invalid JSON"), "{e}");
}

#[test]
fn unknown_fields_are_rejected() {
    let e = err(&OK.replace(
        "\"processing_ms\": 10000",
        "\"processing_ms\": 10000, \"procesing\": 1",
    ));
    assert!(e.contains("unknown field `procesing`"), "{e}");
    assert!(e.contains("line 6"), "{e}");
}

#[test]
fn wrong_or_missing_version() {
    let e = err(&OK.replace("\"version\": 1", "\"version\": 2"));
    assert!(e.starts_with("version (line 2, column 14)"), "{e}");
    let e = err("{\"end_ms\": 5}");
    assert!(e.starts_with("version"), "{e}");
}

#[test]
fn heartbeat_must_be_below_session_timeout() {
    // Kafka: heartbeat.interval.ms must be lower than session.timeout.ms.
    let e = err(&OK.replace(
        "\"processing_ms\": 10000",
        "\"processing_ms\": 10000, \"session_timeout_ms\": 10000, \"heartbeat_interval_ms\": 10000",
    ));
    assert!(e.starts_with("consumers[0].heartbeat_interval_ms (line 6"), "{e}");
}

#[test]
fn session_timeout_must_fit_the_group_bounds() {
    // §3.0: outside [group.min.session.timeout.ms, group.max.session.timeout.ms] → INVALID_SESSION_TIMEOUT.
    let e = err(&OK.replace(
        "\"processing_ms\": 10000",
        "\"processing_ms\": 10000, \"session_timeout_ms\": 5000, \"heartbeat_interval_ms\": 1000",
    ));
    assert!(e.starts_with("consumers[0].session_timeout_ms"), "{e}");
    assert!(e.contains("6000"), "{e}");
}

#[test]
fn impossible_values() {
    let e = err(&OK.replace("\"partitions\": 3", "\"partitions\": 0"));
    assert!(e.starts_with("topics[0].partitions (line 4"), "{e}");
    let e = err(&OK.replace("[\"round_topic\"]}}", "[\"missing\"]}}"));
    assert!(e.starts_with("client_defaults.subscription.topics[0]"), "{e}");
    assert!(e.contains("`missing` does not exist"), "{e}");
    let e = err(&OK.replace(
        "[{\"name\": \"A\", \"processing_ms\": 10000}]",
        "[{\"name\": \"A\"}, {\"name\": \"A\"}]",
    ));
    assert!(e.starts_with("consumers[1].name"), "{e}");
    assert!(e.contains("duplicate consumer name"), "{e}");
    let e = err(&OK.replace("\"consumer\": \"A\"", "\"consumer\": \"Z\""));
    assert!(e.starts_with("actions[0].consumer (line 7"), "{e}");
    let e = err(&OK.replace("\"at_ms\": 30000", "\"at_ms\": 90000"));
    assert!(e.starts_with("actions[0].at_ms"), "{e}");
    assert!(e.contains("after end_ms"), "{e}");
    let e = err(&OK.replace(
        "\"records_per_sec\": 3}",
        "\"records_per_sec\": 3, \"extra\": true}",
    ));
    assert!(e.contains("unknown field `extra`"), "{e}");
    let e = err(&OK.replace(
        "\"end_ms\": 60000",
        "\"end_ms\": 60000, \"network\": {\"drop_probability\": 2.0}",
    ));
    assert!(e.starts_with("network.drop_probability"), "{e}");
    let e = err(&OK.replace("{\"topics\": [\"round_topic\"]}", "{\"pattern\": \"(round\"}"));
    assert!(e.contains("bad pattern"), "{e}");
}

#[test]
fn raw_requests_are_checked_field_by_field() {
    let req = r#"{"type": "request", "at_ms": 1000, "script": "s", "request": {"Heartbeat": {"group_id": "g", "generation_id": 1, "member_id": "m", "group_instance_id": null, "bogus": 1}}}"#;
    let text = OK.replace(r#"{"type": "kill", "at_ms": 30000, "consumer": "A"}"#, req);
    let e = err(&text);
    assert!(e.starts_with("actions[0].request.Heartbeat.bogus"), "{e}");
    let good = text.replace(", \"bogus\": 1", "");
    Scenario::from_json(&good).unwrap();
}

#[test]
fn garbage_never_panics() {
    for text in [
        "",
        "null",
        "[]",
        "{",
        "{\"version\": \"1\"}",
        "{\"version\": 1}",
        "{\"version\": 1, \"end_ms\": -1}",
    ] {
        assert!(Scenario::from_json(text).is_err(), "{text}");
    }
}
