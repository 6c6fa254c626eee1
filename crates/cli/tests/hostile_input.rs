//! Hostile command lines and files: every one gets a message and a non-zero exit, never a panic.

use std::io::Read;
mod common;

use std::process::Stdio;

use common::{outcome, sim};

fn file(name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("rebalance-sim-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn run_file(name: &str, bytes: &[u8]) -> (i32, String, String) {
    let path = file(name, bytes);
    outcome(sim().arg("run").arg(&path).output().unwrap())
}

#[cfg(unix)]
#[test]
fn a_non_utf8_argument_is_reported() {
    use std::os::unix::ffi::OsStrExt;
    let out = sim()
        .arg("run")
        .arg(std::ffi::OsStr::from_bytes(b"bad\xff.json"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("argument 2 is not valid UTF-8"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn a_document_that_is_not_an_object_is_named() {
    for text in ["[1, 2]", "42", "\"version\""] {
        let (code, out, err) = run_file("array.json", text.as_bytes());
        assert_eq!(code, 2);
        assert!(out.is_empty());
        assert!(err.contains("the scenario must be a JSON object"), "{err}");
    }
}

#[test]
fn a_non_utf8_file_gets_its_byte_offset() {
    let (code, _, err) = run_file("latin1.json", b"{\n  \"version\": 1,\n  \"name\": \"caf\xe9\"\n}");
    assert_eq!(code, 2);
    assert!(err.contains("byte offset 32 (line 3, column 15)"), "{err}");
}

#[test]
fn a_type_error_names_the_field() {
    let (code, _, err) = run_file(
        "type.json",
        b"{\n  \"version\": 1,\n  \"end_ms\": 1000,\n  \"topics\": [{\"name\": \"t\", \"partitions\": \"3\"}]\n}",
    );
    assert_eq!(code, 2);
    assert!(err.contains("topics[0].partitions (line 4, column"), "{err}");
}

#[test]
fn sizes_over_the_limits_exit_2() {
    let (code, _, err) = run_file(
        "brokers.json",
        br#"{"version": 1, "end_ms": 1000, "cluster": {"brokers": 4000000000}}"#,
    );
    assert_eq!(code, 2);
    assert!(err.contains("cluster.brokers (line 1, column"), "{err}");
    assert!(
        err.contains("4000000000 brokers is more than the limit (100)"),
        "{err}"
    );
}

#[test]
fn a_run_that_does_too_much_is_stopped_with_the_limit() {
    let (code, out, err) = run_file(
        "busy.json",
        br#"{"version": 1, "end_ms": 2592000000, "network": {"latency_ms": 0},
             "topics": [{"name": "t", "partitions": 3, "records_per_sec": 1000}],
             "client_defaults": {"subscription": {"topics": ["t"]}, "heartbeat_interval_ms": 1,
                                 "processing_ms": 1, "commit": {"mode": "auto", "interval_ms": 1}},
             "consumers": [{"name": "A"}, {"name": "B"}]}"#,
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("the run went past 1000000 events (the limit of one run)")
            && err.contains("the trace above is incomplete"),
        "{err}"
    );
    // The trace streamed up to the limit (the instant that crossed it included), in whole lines.
    let lines = out.lines().count();
    assert!((1_000_000..1_010_000).contains(&lines), "{lines} lines");
    assert!(out.ends_with('\n'));
}

#[cfg(target_os = "linux")]
#[test]
fn a_failed_write_is_reported() {
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let out = sim()
        .args(["run", "scenarios/a-then-b-joins.json"])
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot write the trace:"), "{err}");
}

#[cfg(unix)]
#[test]
fn a_broken_pipe_exits_3_quietly() {
    // The trace is far larger than a pipe's buffer, so the write fails however fast we close.
    let mut child = sim()
        .args(["run", "scenarios/all-isr-replicas-down.json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(3), "{err}");
    assert!(err.is_empty(), "{err}");
}
