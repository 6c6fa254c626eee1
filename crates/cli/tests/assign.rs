//! `rebalance-sim assign`: JSON lines in, JSON lines out, precise errors.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rebalance-sim"))
        .arg("assign")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start rebalance-sim");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

/// Runs one bad line (after a good one) and returns stderr, checking exit code 2 and no panic.
fn rejects(args: &[&str], bad_line: &str) -> String {
    let good = r#"{"partitions": {"t": 1}, "members": [{"member_id": "a", "topics": ["t"]}]}"#;
    let output = run(args, &format!("{good}\n{bad_line}\n"));
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "stderr: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(
        stdout(&output).lines().count(),
        1,
        "the good line is still answered"
    );
    err
}

#[test]
fn the_issue_example() {
    let line = r#"{"partitions": {"topic": 3}, "members": [{"member_id": "c-1", "group_instance_id": null, "topics": ["topic"], "owned_partitions": {"topic": [0]}, "generation": 1}]}"#;
    for strategy in ["range", "roundrobin", "sticky", "cooperative-sticky"] {
        let output = run(&["--strategy", strategy], &format!("{line}\n"));
        assert!(output.status.success(), "{strategy}: {}", stderr(&output));
        assert_eq!(
            stdout(&output),
            "{\"assignment\":{\"c-1\":{\"topic\":[0,1,2]}}}\n",
            "{strategy}"
        );
    }
}

#[test]
fn one_answer_per_line_and_blank_lines_skipped() {
    // R1 (RangeAssignor Javadoc), then R4 with a member that gets nothing, then RR1.
    let r1 = r#"{"partitions": {"t0": 3, "t1": 3}, "members": [{"member_id": "C0", "topics": ["t0", "t1"]}, {"member_id": "C1", "topics": ["t0", "t1"]}]}"#;
    let r4 = r#"{"partitions": {"a": 1, "b": 1}, "members": [{"member_id": "m1", "topics": ["a", "b"]}, {"member_id": "m2", "topics": ["a", "b"]}]}"#;
    let output = run(&["--strategy=range"], &format!("{r1}\n\n   \n{r4}\n"));
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        concat!(
            "{\"assignment\":{\"C0\":{\"t0\":[0,1],\"t1\":[0,1]},\"C1\":{\"t0\":[2],\"t1\":[2]}}}\n",
            "{\"assignment\":{\"m1\":{\"a\":[0],\"b\":[0]},\"m2\":{}}}\n",
        )
    );
    let output = run(&["--strategy", "roundrobin"], &format!("{r1}\n"));
    assert_eq!(
        stdout(&output),
        "{\"assignment\":{\"C0\":{\"t0\":[0,2],\"t1\":[1]},\"C1\":{\"t0\":[1],\"t1\":[0,2]}}}\n"
    );
}

#[test]
fn cooperative_withholds_what_moves() {
    // Reference §8.3: C1 owns t-0..t-5, C2 joins.
    let line = r#"{"partitions": {"t": 6}, "members": [{"member_id": "C1", "topics": ["t"], "owned_partitions": {"t": [0, 1, 2, 3, 4, 5]}, "generation": 3}, {"member_id": "C2", "topics": ["t"]}]}"#;
    let output = run(&["--strategy", "cooperative-sticky"], &format!("{line}\n"));
    assert_eq!(
        stdout(&output),
        "{\"assignment\":{\"C1\":{\"t\":[0,1,2]},\"C2\":{}}}\n"
    );
    let output = run(&["--strategy", "sticky"], &format!("{line}\n"));
    assert_eq!(
        stdout(&output),
        "{\"assignment\":{\"C1\":{\"t\":[0,1,2]},\"C2\":{\"t\":[3,4,5]}}}\n"
    );
}

#[test]
fn empty_input_gives_empty_output() {
    let output = run(&["--strategy", "sticky"], "");
    assert!(output.status.success());
    assert_eq!(stdout(&output), "");
}

#[test]
fn bad_arguments_exit_2() {
    for args in [
        &[][..],
        &["--strategy"],
        &["--strategy", "Range"],
        &["--strategy", "range", "--strategy", "sticky"],
        &["--fast"],
    ] {
        let output = run(args, "");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&output).contains("--strategy") || stderr(&output).contains("--fast"),
            "{args:?}"
        );
    }
    let output = run(&["--strategy", "rack-aware"], "");
    assert!(
        stderr(&output).contains("unknown assignor `rack-aware`"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn invalid_json_names_the_line() {
    let err = rejects(&["--strategy", "range"], "{\"partitions\": ");
    assert!(err.contains("line 2: invalid JSON"), "{err}");
}

#[test]
fn wrong_types_name_the_field() {
    let cases = [
        (r#"[]"#, "the line: expected an object"),
        (
            r#"{"partitions": [], "members": []}"#,
            "partitions: expected an object",
        ),
        (
            r#"{"partitions": {"t": "3"}, "members": []}"#,
            "partitions.t: expected a 32-bit integer",
        ),
        (
            r#"{"partitions": {"t": 1.5}, "members": []}"#,
            "partitions.t: expected a 32-bit integer",
        ),
        (
            r#"{"partitions": {"t": 3000000000}, "members": []}"#,
            "partitions.t: expected a 32-bit integer",
        ),
        (
            r#"{"partitions": {}, "members": {}}"#,
            "members: expected an array",
        ),
        (
            r#"{"partitions": {}, "members": [{"member_id": 7, "topics": []}]}"#,
            "members[0].member_id: expected a string",
        ),
        (
            r#"{"partitions": {}, "members": [{"member_id": "a", "topics": "t"}]}"#,
            "members[0].topics: expected an array",
        ),
        (
            r#"{"partitions": {}, "members": [{"member_id": "a", "topics": [1]}]}"#,
            "members[0].topics[0]: expected a string",
        ),
        (
            r#"{"partitions": {}, "members": [{"member_id": "a", "topics": [], "group_instance_id": 1}]}"#,
            "members[0].group_instance_id: expected a string",
        ),
        (
            r#"{"partitions": {}, "members": [{"member_id": "a", "topics": [], "owned_partitions": {"t": ["0"]}}]}"#,
            "members[0].owned_partitions.t[0]: expected a 32-bit integer",
        ),
        (
            r#"{"partitions": {}, "members": [{"member_id": "a", "topics": [], "owned_partitions": {"t": [-1]}}]}"#,
            "members[0].owned_partitions.t[0]: partition numbers are never negative",
        ),
        (
            r#"{"partitions": {}, "members": [{"member_id": "a", "topics": [], "generation": "1"}]}"#,
            "members[0].generation: expected a 32-bit integer",
        ),
    ];
    for (line, want) in cases {
        let err = rejects(&["--strategy", "sticky"], line);
        assert!(err.contains(&format!("line 2: {want}")), "{line}\n{err}");
    }
}

#[test]
fn missing_and_unknown_fields_are_errors() {
    let cases = [
        (r#"{"members": []}"#, "partitions: missing field"),
        (r#"{"partitions": {}}"#, "members: missing field"),
        (
            r#"{"partitions": {}, "members": [{"topics": []}]}"#,
            "members[0].member_id: missing field",
        ),
        (
            r#"{"partitions": {}, "members": [{"member_id": "a"}]}"#,
            "members[0].topics: missing field",
        ),
        (
            r#"{"partitions": {}, "members": [], "seed": 1}"#,
            "the line: unknown field `seed`",
        ),
        (
            r#"{"partitions": {}, "members": [{"member_id": "a", "topics": [], "rack": "r1"}]}"#,
            "members[0]: unknown field `rack`",
        ),
    ];
    for (line, want) in cases {
        let err = rejects(&["--strategy", "roundrobin"], line);
        assert!(err.contains(&format!("line 2: {want}")), "{line}\n{err}");
    }
}

#[test]
fn impossible_values_are_errors() {
    let err = rejects(
        &["--strategy", "range"],
        r#"{"partitions": {"t": -1}, "members": []}"#,
    );
    assert!(
        err.contains("line 2: partitions.t: partition count must not be negative"),
        "{err}"
    );

    let dup = r#"{"partitions": {"t": 1}, "members": [{"member_id": "a", "topics": ["t"]}, {"member_id": "a", "topics": []}]}"#;
    let err = rejects(&["--strategy", "range"], dup);
    assert!(
        err.contains("line 2: members[1].member_id: duplicate member id `a`"),
        "{err}"
    );

    let huge = r#"{"partitions": {"a": 2000000000}, "members": []}"#;
    let err = rejects(&["--strategy", "range"], huge);
    assert!(
        err.contains("line 2: partitions.a: more than 1000000 partitions"),
        "{err}"
    );
}

#[test]
fn optional_fields_may_be_null_or_absent() {
    let line = r#"{"partitions": {"t": 2}, "members": [{"member_id": "b", "topics": ["t"], "group_instance_id": "i-1", "owned_partitions": null, "generation": null}, {"member_id": "a", "topics": ["t"]}]}"#;
    let output = run(&["--strategy", "range"], &format!("{line}\n"));
    assert!(output.status.success(), "{}", stderr(&output));
    // The static member sorts first (RangeAssignorTest.testStaticMemberRangeAssignmentPersistent).
    assert_eq!(
        stdout(&output),
        "{\"assignment\":{\"a\":{\"t\":[1]},\"b\":{\"t\":[0]}}}\n"
    );
}

// ---------------------------------------------------------------------------------------------------
// The consumer protocol's server-side assignors (KIP-848)

#[test]
fn the_issue_example_with_the_server_side_assignors() {
    let line = r#"{"partitions": {"topic": 3}, "members": [{"member_id": "c-1", "group_instance_id": null, "topics": ["topic"], "owned_partitions": {"topic": [0]}, "generation": 1}]}"#;
    for strategy in ["uniform", "server-range"] {
        let output = run(&["--strategy", strategy], &format!("{line}\n"));
        assert!(output.status.success(), "{strategy}: {}", stderr(&output));
        assert_eq!(
            stdout(&output),
            "{\"assignment\":{\"c-1\":{\"topic\":[0,1,2]}}}\n",
            "{strategy}"
        );
    }
}

#[test]
fn uniform_treats_owned_partitions_as_the_previous_target() {
    // A member joins a group whose only member had all six partitions: uniform moves only the
    // three that balance requires (the highest ones C1 holds beyond its quota); server-range ignores
    // the previous target and cuts ranges in member order.
    let line = r#"{"partitions": {"t": 6}, "members": [{"member_id": "C1", "topics": ["t"], "owned_partitions": {"t": [0, 1, 2, 3, 4, 5]}}, {"member_id": "C2", "topics": ["t"]}]}"#;
    let output = run(&["--strategy", "uniform"], &format!("{line}\n"));
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "{\"assignment\":{\"C1\":{\"t\":[0,1,2]},\"C2\":{\"t\":[3,4,5]}}}\n"
    );
    let moved = r#"{"partitions": {"t": 4}, "members": [{"member_id": "a", "topics": ["t"], "owned_partitions": {"t": [2, 3]}}, {"member_id": "b", "topics": ["t"], "owned_partitions": {"t": [0, 1]}}]}"#;
    let output = run(&["--strategy=uniform"], &format!("{moved}\n"));
    assert_eq!(
        stdout(&output),
        "{\"assignment\":{\"a\":{\"t\":[2,3]},\"b\":{\"t\":[0,1]}}}\n",
        "sticky"
    );
    let output = run(&["--strategy=server-range"], &format!("{moved}\n"));
    assert_eq!(
        stdout(&output),
        "{\"assignment\":{\"a\":{\"t\":[0,1]},\"b\":{\"t\":[2,3]}}}\n",
        "not sticky"
    );
}

#[test]
fn uniform_balances_heterogeneous_subscriptions_and_lists_every_member() {
    let line = r#"{"partitions": {"t1": 3, "t2": 3}, "members": [{"member_id": "A", "topics": ["t1"]}, {"member_id": "B", "topics": ["t1", "t2"]}, {"member_id": "C", "topics": ["missing"]}]}"#;
    let output = run(&["--strategy", "uniform"], &format!("{line}\n"));
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "{\"assignment\":{\"A\":{\"t1\":[0,1,2]},\"B\":{\"t2\":[0,1,2]},\"C\":{}}}\n"
    );
}

#[test]
fn server_range_orders_static_members_first() {
    // The static member sorts first (RangeAssignorTest.testStaticMembership), as on the client side.
    let line = r#"{"partitions": {"t": 3}, "members": [{"member_id": "a", "topics": ["t"]}, {"member_id": "b", "topics": ["t"], "group_instance_id": "i-1"}]}"#;
    let output = run(&["--strategy", "server-range"], &format!("{line}\n"));
    assert_eq!(
        stdout(&output),
        "{\"assignment\":{\"a\":{\"t\":[2]},\"b\":{\"t\":[0,1]}}}\n"
    );
}

#[test]
fn server_side_assignors_reject_bad_lines_like_the_others() {
    let err = rejects(
        &["--strategy", "uniform"],
        r#"{"partitions": {"t": 1}, "members": [{"member_id": "a", "topics": ["t"], "owned_partitions": {"t": [-1]}}]}"#,
    );
    assert!(
        err.contains("line 2: members[0].owned_partitions.t[0]: partition numbers are never negative"),
        "{err}"
    );
    let err = rejects(&["--strategy", "server-range"], r#"{"partitions": {}}"#);
    assert!(err.contains("line 2: members: missing field"), "{err}");
    let output = run(&["--strategy", "range-server"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("unknown assignor `range-server` (expected range, roundrobin, sticky, cooperative-sticky, uniform or server-range)"),
        "{}",
        stderr(&output)
    );
}
