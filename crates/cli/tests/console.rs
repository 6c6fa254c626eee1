//! `rebalance-sim console`: every console command's output on a known world
//! (`scenarios/admin-console.json`), compared with golden files in `tests/golden_console/` (set
//! `UPDATE_GOLDEN` to rewrite them, then review the diff); and bad command lines, which get the
//! tool's own kind of message with exit 1, or ours with exit 2.
//!
//! The world: group `orders-app` (partition 5, broker 2) on topic `orders`; A and B Stable from 6 s,
//! the static member C joins at 40 s (rebalancing at 41 s, Stable with three members at 60 s), all
//! close at 70 s, Empty from 115 s, offsets expired and the group deleted at 420 s.

mod common;

use common::run_command;

const SCENARIO: &str = "scenarios/admin-console.json";
const GROUPS: &str = "kafka-consumer-groups.sh --bootstrap-server localhost:9092";
const TOPICS: &str = "kafka-topics.sh --bootstrap-server localhost:9092";

fn console(args: &[&str]) -> (i32, String, String) {
    run_command("console", args)
}

/// Runs `command` (words; `;` separates command lines) at `at` ms with `--kafka-version version`
/// (`""`: the default) and compares stdout, stderr and the exit code with the golden `name`.
fn golden(name: &str, at: &str, version: &str, command: &str) {
    let mut args = vec![SCENARIO, "--at", at];
    if !version.is_empty() {
        args.extend(["--kafka-version", version]);
    }
    args.push("--");
    args.extend(command.split_whitespace());
    let (code, out, err) = console(&args);
    let got = format!("$ {command}\n--- stdout\n{out}--- stderr\n{err}--- exit {code}\n");
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden_console")
        .join(format!("{name}.txt"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("missing golden {}; run with UPDATE_GOLDEN=1", path.display()));
    assert_eq!(got, want, "{name} differs from {}", path.display());
}

fn g(rest: &str) -> String {
    format!("{GROUPS} {rest}")
}

fn t(rest: &str) -> String {
    format!("{TOPICS} {rest}")
}

// ============================================================================ kafka-consumer-groups

#[test]
fn list() {
    golden("list", "60000", "", &g("--list"));
    golden("list_state", "60000", "", &g("--list --state"));
    golden("list_state_filter", "150000", "", &g("--list --state stable"));
    golden("list_after_expiry", "500000", "", &g("--list"));
}

#[test]
fn describe_offsets() {
    golden("offsets_stable", "30000", "", &g("--describe --group orders-app"));
    golden(
        "offsets_rebalancing",
        "41000",
        "",
        &g("--describe --group orders-app --offsets"),
    );
    golden(
        "offsets_three_members",
        "60000",
        "",
        &g("--describe --group orders-app"),
    );
    golden(
        "offsets_verbose_4",
        "60000",
        "4.1",
        &g("--describe --group orders-app --verbose"),
    );
    golden(
        "offsets_verbose_3_6",
        "60000",
        "3.6",
        &g("--describe --group orders-app --verbose"),
    );
    golden("offsets_empty", "150000", "", &g("--describe --group orders-app"));
    golden(
        "offsets_after_expiry",
        "500000",
        "",
        &g("--describe --group orders-app"),
    );
    golden(
        "offsets_unknown_group",
        "60000",
        "",
        &g("--describe --group nobody"),
    );
}

#[test]
fn describe_members() {
    golden(
        "members",
        "60000",
        "",
        &g("--describe --group orders-app --members"),
    );
    golden(
        "members_two_dynamic",
        "30000",
        "",
        &g("--describe --group orders-app --members"),
    );
    for (v, name) in [("3.6", "3_6"), ("3.9", "3_9"), ("4.1", "4_1")] {
        golden(
            &format!("members_verbose_{name}"),
            "60000",
            v,
            &g("--describe --group orders-app --members --verbose"),
        );
    }
    golden(
        "members_empty_4",
        "150000",
        "4.1",
        &g("--describe --group orders-app --members"),
    );
    golden(
        "members_empty_3_6",
        "150000",
        "3.6",
        &g("--describe --group orders-app --members"),
    );
}

#[test]
fn describe_state() {
    for (v, name) in [("3.6", "3_6"), ("3.9", "3_9"), ("4.1", "4_1")] {
        golden(
            &format!("state_{name}"),
            "60000",
            v,
            &g("--describe --group orders-app --state"),
        );
    }
    golden(
        "state_verbose_4",
        "60000",
        "4.1",
        &g("--describe --group orders-app --state --verbose"),
    );
    golden(
        "state_rebalancing",
        "41000",
        "",
        &g("--describe --group orders-app --state"),
    );
    golden(
        "state_empty",
        "150000",
        "",
        &g("--describe --group orders-app --state"),
    );
}

#[test]
fn delete() {
    golden("delete_non_empty", "60000", "", &g("--delete --group orders-app"));
    golden(
        "delete_empty_then_describe_and_list",
        "150000",
        "",
        &format!(
            "{} ; {} ; {}",
            g("--delete --group orders-app"),
            g("--describe --group orders-app"),
            g("--list")
        ),
    );
    golden("delete_unknown_group", "60000", "", &g("--delete --group nobody"));
}

#[test]
fn reset_offsets() {
    golden(
        "reset_refused_on_stable",
        "60000",
        "",
        &g("--reset-offsets --group orders-app --topic orders --to-earliest --execute"),
    );
    golden(
        "reset_dry_run_to_latest",
        "150000",
        "",
        &g("--reset-offsets --group orders-app --topic orders --to-latest --dry-run"),
    );
    golden(
        "reset_without_mode_warns",
        "150000",
        "",
        &g("--reset-offsets --group orders-app --all-topics --shift-by -36"),
    );
    golden(
        "reset_execute_to_offset_then_describe",
        "150000",
        "",
        &format!(
            "{} ; {}",
            g("--reset-offsets --group orders-app --topic orders:0,2 --to-offset 1100 --execute"),
            g("--describe --group orders-app")
        ),
    );
    golden(
        "reset_to_offset_past_the_end_is_clamped",
        "150000",
        "",
        &g("--reset-offsets --group orders-app --topic orders:1 --to-offset 999999 --dry-run"),
    );
}

// ================================================================================== kafka-topics

#[test]
fn topics() {
    golden("topics_list", "60000", "", &t("--list"));
    golden(
        "topics_describe_offsets_topic",
        "60000",
        "",
        &t("--describe --topic __consumer_offsets"),
    );
    golden(
        "topics_describe_offsets_topic_3_6",
        "60000",
        "3.6",
        &t("--describe --topic __consumer_offsets"),
    );
    golden(
        "topics_describe_orders",
        "60000",
        "",
        &t("--describe --topic orders"),
    );
    golden(
        "topics_describe_all_user_topics",
        "60000",
        "",
        &t("--describe --exclude-internal"),
    );
}

// ============================================================================== bad command lines

#[test]
fn bad_command_lines_get_the_tools_messages_and_exit_1() {
    let cases = [
        ("bad_unknown_option", g("--describe --group orders-app --memebrs")),
        ("bad_describe_without_group", g("--describe")),
        (
            "bad_missing_bootstrap",
            "kafka-consumer-groups.sh --list".to_owned(),
        ),
        ("bad_no_action", g("--group orders-app")),
        ("bad_two_actions", g("--list --describe --group orders-app")),
        (
            "bad_members_and_state",
            g("--describe --group orders-app --members --state"),
        ),
        (
            "bad_state_with_value",
            g("--describe --group orders-app --state stable"),
        ),
        ("bad_delete_without_group", g("--delete")),
        (
            "bad_delete_with_topic",
            g("--delete --group orders-app --topic orders"),
        ),
        (
            "bad_reset_both_modes",
            g("--reset-offsets --group orders-app --topic orders --to-earliest --dry-run --execute"),
        ),
        (
            "bad_reset_two_scenarios",
            g("--reset-offsets --group orders-app --topic orders --to-earliest --to-latest"),
        ),
        ("bad_group_with_list", g("--list --group orders-app")),
        ("bad_missing_argument", g("--describe --group")),
        (
            "bad_offset_not_a_number",
            g("--reset-offsets --group orders-app --topic orders --to-offset ten"),
        ),
        ("bad_members_without_describe", g("--list --members")),
        ("bad_topics_unknown_option", t("--describe --foo")),
        ("bad_topics_no_such_topic", t("--describe --topic nope")),
        ("bad_topics_no_action", t("--topic orders")),
    ];
    for (name, command) in cases {
        golden(name, "60000", "", &command);
    }
}

/// The reset's own checks come once the group is known to be inactive (at 150 s it is Empty).
#[test]
fn reset_checks_on_an_inactive_group() {
    golden(
        "bad_reset_no_scenario",
        "150000",
        "",
        &g("--reset-offsets --group orders-app --topic orders --dry-run"),
    );
    golden(
        "bad_reset_no_scope",
        "150000",
        "",
        &g("--reset-offsets --group orders-app --to-earliest --dry-run"),
    );
}

#[test]
fn a_reset_of_an_unknown_topic_is_the_admin_clients_error() {
    golden(
        "bad_reset_unknown_topic",
        "150000",
        "",
        &g("--reset-offsets --group orders-app --topic nope --to-earliest --dry-run"),
    );
}

#[test]
fn our_own_bad_input_exits_2() {
    // An unknown tool.
    let (code, out, err) = console(&[SCENARIO, "--", "kafka-acls.sh", "--list"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("unknown tool `kafka-acls.sh`"), "{err}");
    // A Kafka version the console does not imitate.
    let (code, _, err) = console(&[
        SCENARIO,
        "--kafka-version",
        "1.1",
        "--",
        "kafka-topics.sh",
        "--list",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("not imitated"), "{err}");
    // No command line.
    let (code, _, err) = console(&[SCENARIO, "--at", "1000"]);
    assert_eq!(code, 2);
    assert!(err.contains("missing a command line"), "{err}");
    // A tool option the console does not simulate.
    let (code, _, err) = console(&[
        SCENARIO,
        "--",
        "kafka-consumer-groups.sh",
        "--bootstrap-server",
        "x",
        "--reset-offsets",
        "--group",
        "g",
        "--all-topics",
        "--to-datetime",
        "2024-01-01T00:00:00.000",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--to-datetime is not simulated"), "{err}");
    // A bad scenario.
    let dir = std::env::temp_dir().join(format!("rebalance-sim-console-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.json");
    std::fs::write(
        &bad,
        "{\"version\": 1, \"end_ms\": 1000, \"coordinator\": {\"offsets_retention_check_interval_ms\": 0}}",
    )
    .unwrap();
    let (code, out, err) = console(&[bad.to_str().unwrap(), "--", "kafka-topics.sh", "--list"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.contains("coordinator.offsets_retention_check_interval_ms"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn trace_shows_the_admin_clients_requests() {
    let (code, _, err) = console(&[
        SCENARIO,
        "--at",
        "150000",
        "--trace",
        "--",
        "kafka-consumer-groups.sh",
        "--bootstrap-server",
        "x",
        "--delete",
        "--group",
        "orders-app",
    ]);
    assert_eq!(code, 0);
    assert!(
        err.contains("script kafka-consumer-groups -> broker 2 #1 DeleteGroups(groups=[\"orders-app\"])"),
        "{err}"
    );
    assert!(err.contains("Empty -> Dead (deleted with DeleteGroups)"), "{err}");
}
