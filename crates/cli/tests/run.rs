//! `rebalance-sim run`: traces for the scenario files, byte for byte deterministic; bad scenarios
//! exit 2 with the field and position.

mod common;

use common::run_command;

fn run(args: &[&str]) -> (i32, String, String) {
    run_command("run", args)
}

#[test]
fn text_trace_of_the_article_story() {
    let (code, out, err) = run(&["scenarios/a-then-b-joins.json", "--format", "text"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("[A] as leader ran range for generation 2: A-1 -> [round_topic-0, round_topic-1]; B-2 -> [round_topic-2]"));
    assert!(out.lines().last().unwrap().starts_with("# "));
}

#[test]
fn jsonl_is_one_event_per_line_and_deterministic() {
    let (code, a, _) = run(&["scenarios/graceful-close-immediate-rebalance.json"]);
    assert_eq!(code, 0);
    let (_, b, _) = run(&[
        "scenarios/graceful-close-immediate-rebalance.json",
        "--format",
        "jsonl",
    ]);
    assert_eq!(a, b);
    for (i, line) in a.lines().enumerate() {
        assert!(
            line.starts_with(&format!("{{\"seq\":{},\"at\":", i + 1)),
            "{line}"
        );
        assert!(line.contains("\"source\":"), "{line}");
    }
}

#[test]
fn invalid_scenarios_exit_2_naming_the_field() {
    let dir = std::env::temp_dir().join(format!("rebalance-sim-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.json");
    std::fs::write(
        &bad,
        "{\n  \"version\": 1,\n  \"end_ms\": 1000,\n  \"topics\": [{\"name\": \"t\", \"partitions\": 0}]\n}\n",
    )
    .unwrap();
    let (code, out, err) = run(&[bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("topics[0].partitions (line 4, column"), "{err}");
    let (code, _, err) = run(&["scenarios/a-then-b-joins.json", "--format", "xml"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown format"), "{err}");
    let (code, _, _) = run(&["does-not-exist.json"]);
    assert_eq!(code, 2);
}

#[test]
fn cluster_scenarios_trace_the_brokers() {
    let (code, out, err) = run(&["scenarios/coordinator-broker-crash.json", "--format", "text"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("t=20.000s [world] broker 0 crashed: it answers nothing and its connections drop"));
    assert!(out.contains("[world] controller: broker 1 leads __consumer_offsets-30 (epoch 1"));
    assert!(out.contains("[broker 1] group test_group_1: loaded as Stable, generation 1, 2 member(s)"));
    assert!(out.contains("# __consumer_offsets-30: leader broker 1, epoch 1, ISR [0, 1, 2]"));
    let (code, out, _) = run(&["scenarios/all-isr-replicas-down.json"]);
    assert_eq!(code, 0);
    assert!(out.contains("\"partition_offline\":{\"partition\":30,\"isr\":[2]}"));
}
