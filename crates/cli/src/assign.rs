//! `rebalance-sim assign` (not written yet).

use std::process::ExitCode;

pub(crate) fn run(_args: &[String]) -> ExitCode {
    eprintln!("rebalance-sim: `assign` is not implemented yet");
    ExitCode::from(2)
}
