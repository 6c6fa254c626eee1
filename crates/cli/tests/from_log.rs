//! `rebalance-sim from-log`: logs written from the reference's formats (`kafka-log-lines.md`) for
//! Kafka 2.4 (broker only), 3.6 (client only, two files, cooperative-sticky), 3.9 (broker and
//! clients interleaved: the lesson's rebalance storm), 4.0 (the Java coordinator, static members,
//! broker only), 4.1 (the consumer protocol, interleaved) and a 3.9 log whose coordinator is broker 5, each with other loggers' lines mixed
//! in. The scenario, the assumptions and the `--check` table are compared with golden files in
//! `tests/golden_from_log/` (`UPDATE_GOLDEN=1` rewrites them; review the diff). Hostile inputs get
//! messages, never a panic.

mod common;

use common::{outcome, run_command, sim};

const LOGS: &str = "crates/cli/tests/logs";

fn golden(name: &str, got: &str) {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden_from_log")
        .join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("missing golden {}; run with UPDATE_GOLDEN=1", path.display()));
    assert_eq!(got, want, "{name} differs from {}", path.display());
}

/// Runs `from-log FILES` (the scenario on stdout) and `from-log FILES --check`, and compares both
/// (stdout, stderr, exit code) with the goldens `NAME.json`, `NAME.stderr.txt`, `NAME.check.txt`.
fn replay(name: &str, files: &[&str]) -> serde_json::Value {
    let (code, out, err) = run_command("from-log", files);
    assert_eq!(code, 0, "{name}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    golden(&format!("{name}.json"), &out);
    golden(&format!("{name}.stderr.txt"), &err);
    let mut args = files.to_vec();
    args.push("--check");
    let (code, out, err) = run_command("from-log", &args);
    let check_err: Vec<&str> = err.lines().filter(|l| l.contains("--check")).collect();
    golden(
        &format!("{name}.check.txt"),
        &format!(
            "--- stdout\n{out}--- stderr (--check)\n{}\n--- exit {code}\n",
            check_err.join("\n")
        ),
    );
    serde_json::from_str(&read(&format!("{name}.json"))).unwrap()
}

fn read(golden_name: &str) -> String {
    std::fs::read_to_string(
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/golden_from_log")
            .join(golden_name),
    )
    .unwrap()
}

fn consumer<'a>(s: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    s["consumers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no consumer {name} in {s}"))
}

fn actions_of(s: &serde_json::Value, name: &str) -> Vec<String> {
    s["actions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["consumer"] == name)
        .map(|a| a["type"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn kafka_2_4_broker_only() {
    let s = replay("kafka-2.4-broker", &[&format!("{LOGS}/kafka-2.4-broker.log")]);
    assert_eq!(s["group_id"], "billing", "the busiest group, not `audit`");
    // consumer-billing-2 was removed on heartbeat expiration (B3) and joined again as a new member:
    // a pause of heartbeats and polls; consumer-billing-1 left (`removing member ... on LeaveGroup`).
    assert_eq!(actions_of(&s, "consumer-billing-2"), ["pause"]);
    assert_eq!(actions_of(&s, "consumer-billing-1"), ["close"]);
}

#[test]
fn kafka_3_6_client_only_two_files() {
    let s = replay(
        "kafka-3.6-clients",
        &[
            &format!("{LOGS}/kafka-3.6-client-a.log"),
            &format!("{LOGS}/kafka-3.6-client-b.log"),
        ],
    );
    assert_eq!(s["group_id"], "search");
    assert_eq!(s["client_defaults"]["assignors"][0], "cooperative-sticky");
    assert_eq!(s["topics"][0]["partitions"], 4);
    // B's first group line is at 14:00:19.100, 19 s after A's (14:00:00.100).
    assert_eq!(consumer(&s, "consumer-search-2")["start_ms"], 19_000);
    assert_eq!(actions_of(&s, "consumer-search-2"), ["close"]);
}

#[test]
fn kafka_3_9_interleaved_storm() {
    let s = replay("kafka-3.9-storm", &["lessons/16-rebalance-storm.log"]);
    let b = consumer(&s, "consumer-orders-app-2");
    // rebalanceTimeoutMs=30000 in the broker's MemberMetadata is max.poll.interval.ms (§2, B7);
    // two poll timeouts: each batch takes longer than that.
    assert_eq!(b["max_poll_interval_ms"], 30_000);
    assert!(b["processing_ms"].as_u64().unwrap() > 30_000);
    let (_, out, _) = run_command("from-log", &["lessons/16-rebalance-storm.log", "--check"]);
    assert!(
        out.contains(" 0 difference(s)"),
        "the storm replays as logged:\n{out}"
    );
}

#[test]
fn kafka_4_0_java_coordinator_static_members() {
    let s = replay(
        "kafka-4.0-classic-static",
        &[&format!("{LOGS}/kafka-4.0-classic-static.log")],
    );
    assert_eq!(consumer(&s, "pay-1")["group_instance_id"], "pay-1");
    assert_eq!(consumer(&s, "pay-2")["group_instance_id"], "pay-2");
    assert_eq!(actions_of(&s, "pay-1"), ["kill", "restart"]);
    assert_eq!(actions_of(&s, "consumer-payments-3"), ["close"]);
}

#[test]
fn kafka_4_1_consumer_protocol() {
    let s = replay(
        "kafka-4.1-consumer-protocol",
        &[&format!("{LOGS}/kafka-4.1-consumer-protocol.log")],
    );
    for c in s["consumers"].as_array().unwrap() {
        assert_eq!(c["group_protocol"], "consumer", "{c}");
    }
    // Fenced after its session expired (§3) and never seen again: it died 45 s before.
    assert_eq!(actions_of(&s, "consumer-orders-app-2"), ["kill"]);
    assert!(s["description"].as_str().unwrap().contains("`uniform` assignor"));
}

/// A group whose coordinator is broker 5 (the broker's prefix, and the client's `Discovered group
/// coordinator ... (id: 2147483642 ...)`, `Integer.MAX_VALUE - 5`), on `__consumer_offsets-5`:
/// the replay has the smallest cluster in which broker 5 leads partition 5 (6 brokers), and
/// `--check` says the coordinators are the same.
#[test]
fn kafka_3_9_coordinator_on_broker_5() {
    let s = replay(
        "kafka-3.9-coordinator-5",
        &[&format!("{LOGS}/kafka-3.9-coordinator-5.log")],
    );
    assert_eq!(s["group_id"], "orders-app");
    assert_eq!(s["cluster"]["brokers"], 6);
    // orders-app is on partition 5 of Kafka's default 50: the count is not written.
    assert!(
        s["cluster"].get("offsets_partitions").is_none(),
        "{}",
        s["cluster"]
    );
    let description = s["description"].as_str().unwrap();
    assert!(
        description.contains("the log's coordinator is broker 5") && description.contains("(line 3)"),
        "{description}"
    );
    let (code, out, err) = run_command(
        "from-log",
        &[&format!("{LOGS}/kafka-3.9-coordinator-5.log"), "--check"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("the replay's is broker 5 (leader of __consumer_offsets-5): same"),
        "{out}"
    );
}

/// The same log with the coordinator's id out of the scenario format's range (broker 1000, over
/// the 100-broker limit): an assumption, not a failure, and `--check` says the coordinators differ.
#[test]
fn a_coordinator_over_the_broker_limit_is_an_assumption() {
    let log = std::fs::read_to_string(format!(
        "{}/tests/logs/kafka-3.9-coordinator-5.log",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
    .replace("[GroupCoordinator 5]", "[GroupCoordinator 1000]")
    .replace("(id: 2147483642 ", "(id: 2147482647 ");
    let path = temp("coordinator-1000.log", log.as_bytes());
    let (code, out, err) = run_command("from-log", &[path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("the log's coordinator is broker 1000, which a scenario cannot have"),
        "{err}"
    );
    let s: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(s["cluster"].get("brokers").is_none(), "{}", s["cluster"]);
    let (code, out, _) = run_command("from-log", &[path.to_str().unwrap(), "--check"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("the log's is broker 1000 (line 3)") && out.contains(": differs"),
        "{out}"
    );
}

#[test]
fn the_lesson_scenario_is_the_replay_of_its_log() {
    let (code, out, err) = run_command("from-log", &["lessons/16-rebalance-storm.log"]);
    assert_eq!(code, 0, "{err}");
    let shipped = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../lessons/16-rebalance-storm.json"
    ))
    .unwrap();
    let got: serde_json::Value = serde_json::from_str(&out).unwrap();
    let mut want: serde_json::Value = serde_json::from_str(&shipped).unwrap();
    // The lesson has its own title and description; everything else is the replay's.
    want["name"] = got["name"].clone();
    want["description"] = got["description"].clone();
    assert_eq!(
        got, want,
        "lessons/16-rebalance-storm.json is not `from-log lessons/16-rebalance-storm.log`"
    );
}

// ============================================================================ hostile inputs

fn temp(name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("rebalance-sim-from-log-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn from_log(path: &std::path::Path) -> (i32, String, String) {
    outcome(sim().arg("from-log").arg(path).output().unwrap())
}

#[test]
fn a_log_without_group_lines_says_so() {
    let p = temp(
        "none.log",
        b"[2024-05-01 10:00:00,000] INFO [KafkaServer id=1] started (kafka.server.KafkaServer)\nhello\n",
    );
    let (code, out, err) = from_log(&p);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(
        err.contains("no consumer-group lines in 2 line(s) (2 skipped"),
        "{err}"
    );
    assert!(
        err.contains("Preparing to rebalance group"),
        "it says what it looks for: {err}"
    );
}

#[test]
fn binary_junk_is_skipped_and_counted() {
    let mut bytes: Vec<u8> = (0..=255u8).cycle().take(100_000).collect();
    bytes.extend_from_slice(b"\n[2024-05-01 10:00:00,000] INFO [GroupCoordinator 1]: Stabilized group g generation 1 (__consumer_offsets-3) with 1 members (kafka.coordinator.group.GroupCoordinator)\n\xff\xfe\x00junk\n");
    let (code, out, err) = from_log(&temp("binary.log", &bytes));
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("panicked"));
    assert!(err.contains("not UTF-8"), "{err}");
    assert!(out.contains("\"group_id\": \"g\""), "{out}");
}

#[test]
fn a_ten_megabyte_line_is_skipped_with_the_limit() {
    let mut bytes = vec![b'x'; 10 << 20];
    bytes.extend_from_slice(b"\n");
    let (code, _, err) = from_log(&temp("long.log", &bytes));
    assert_eq!(code, 2);
    assert!(err.contains("1 longer than 65536 bytes"), "{err}");
}

#[test]
fn contradictory_lines_are_replayed_and_named() {
    let text = "\
[2024-05-01 10:00:00,000] INFO [GroupCoordinator 1]: Stabilized group g generation 5 (__consumer_offsets-3) with 1 members (kafka.coordinator.group.GroupCoordinator)
[2024-05-01 10:00:01,000] INFO [GroupCoordinator 1]: Stabilized group g generation 3 (__consumer_offsets-3) with 1 members (kafka.coordinator.group.GroupCoordinator)
[2024-05-01 10:00:02,000] INFO [GroupCoordinator 1]: Member nobody-00000000-0000-4000-8000-000000000000 in group g has failed, removing it from the group (kafka.coordinator.group.GroupCoordinator)
[2024-05-01 10:00:02,000] INFO [GroupCoordinator 1]: Member nobody-00000000-0000-4000-8000-000000000000 in group g has failed, removing it from the group (kafka.coordinator.group.GroupCoordinator)
";
    let (code, out, err) = from_log(&temp("contradictory.log", text.as_bytes()));
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("the log contradicts itself: generation 3 stabilises after generation 5; the replay follows the lines in time order (line 1, line 2)"), "{err}");
    assert!(
        out.contains("\"type\": \"kill\""),
        "the member that failed died: {out}"
    );
}

#[test]
fn bad_command_lines() {
    let (code, _, err) = run_command("from-log", &[]);
    assert_eq!(code, 2);
    assert!(err.contains("missing FILE"), "{err}");
    let (code, _, err) = run_command("from-log", &["x.log", "--bogus"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown option `--bogus`"), "{err}");
    let (code, _, err) = run_command("from-log", &["/no/such/file.log"]);
    assert_eq!(code, 2);
    assert!(err.contains("/no/such/file.log: cannot read it"), "{err}");
}
