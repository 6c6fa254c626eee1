//! Running the `rebalance-sim` binary from the repository's root, as the tests of each command do.

#![allow(dead_code)] // each test file uses what it needs

use std::process::{Command, Output};

/// The binary, to run from the repository's root (where `scenarios/` is).
pub fn sim() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_rebalance-sim"));
    c.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    c
}

/// Exit code (`-1` if killed), stdout and stderr of a finished run (both must be UTF-8).
pub fn outcome(out: Output) -> (i32, String, String) {
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    )
}

/// `rebalance-sim COMMAND ARGS...`: exit code, stdout, stderr.
pub fn run_command(command: &str, args: &[&str]) -> (i32, String, String) {
    outcome(sim().arg(command).args(args).output().unwrap())
}
