//! `rebalance-sim partition-for` (not written yet).

use std::process::ExitCode;

pub(crate) fn run(_args: &[String]) -> ExitCode {
    eprintln!("rebalance-sim: `partition-for` is not implemented yet");
    ExitCode::from(2)
}
