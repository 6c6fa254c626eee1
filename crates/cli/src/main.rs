//! `rebalance-sim`: the engine on the command line.
//!
//! Each subcommand lives in its own module; `main` only dispatches and maps outcomes to exit codes
//! (0 success, 1 runtime failure, 2 bad usage or bad input).

use std::process::ExitCode;

mod assign;
mod partition_for;
mod run;

const USAGE: &str = "\
usage: rebalance-sim <command> [options]

commands:
  partition-for GROUP_ID [--partitions N]   the group's __consumer_offsets partition
  run SCENARIO.json [--format jsonl|text] [--detail]
                                            run a scenario file and print its trace
  assign --strategy NAME                    run an assignor on JSON lines from stdin
                                            (range | roundrobin | sticky | cooperative-sticky)
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((command, rest)) = args.split_first() else {
        eprint!("{USAGE}");
        return ExitCode::from(2);
    };
    match command.as_str() {
        "partition-for" => partition_for::run(rest),
        "assign" => assign::run(rest),
        "run" => run::run(rest),
        "-h" | "--help" | "help" => {
            print!("{USAGE}");
            ExitCode::SUCCESS
        }
        other => {
            eprintln!("rebalance-sim: unknown command `{other}`\n\n{USAGE}");
            ExitCode::from(2)
        }
    }
}
