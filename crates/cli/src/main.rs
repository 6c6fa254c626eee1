//! `rebalance-sim`: the engine on the command line.

use std::process::ExitCode;

fn main() -> ExitCode {
    eprintln!("usage: rebalance-sim <command> ...");
    ExitCode::from(2)
}
