//! `rebalance-sim`: the engine on the command line.
//!
//! Each subcommand lives in its own module; `main` only dispatches and maps outcomes to exit codes
//! (0 success, 1 runtime failure such as an unwritable output, 2 bad usage or bad input, 3 the
//! reader of the output went away: a broken pipe, reported by no message).

use std::process::ExitCode;

mod assign;
mod console;
mod from_log;
mod partition_for;
mod run;

/// mimalloc instead of the system allocator: a streamed trace allocates and frees every event it
/// logs, and glibc's allocator was a third of a long run's time (`cargo bench --bench scale`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const USAGE: &str = "\
usage: rebalance-sim <command> [options]

commands:
  partition-for GROUP_ID [--partitions N]   the group's __consumer_offsets partition
  run SCENARIO.json [--format jsonl|text] [--detail] [--no-limit]
                                            run a scenario file and print its trace
  assign --strategy NAME                    run an assignor on JSON lines from stdin
                                            (range | roundrobin | sticky | cooperative-sticky,
                                            or the consumer protocol's uniform | server-range)
  console SCENARIO.json [--at MS] [--kafka-version V] -- TOOL OPTIONS...
                                            answer kafka-consumer-groups.sh / kafka-topics.sh
                                            on the scenario's world at MS
  from-log FILE... [--out SCENARIO.json] [--check]
                                            replay a Kafka broker/client log as a scenario;
                                            --check compares the replay with the log
";

fn main() -> ExitCode {
    // `std::env::args` panics on an argument that is not UTF-8; every argument here is text.
    let mut args: Vec<String> = Vec::new();
    for (i, a) in std::env::args_os().enumerate().skip(1) {
        match a.into_string() {
            Ok(s) => args.push(s),
            Err(raw) => {
                eprintln!(
                    "rebalance-sim: argument {i} is not valid UTF-8 ({:?}); arguments must be text",
                    raw.to_string_lossy()
                );
                return ExitCode::from(2);
            }
        }
    }
    let Some((command, rest)) = args.split_first() else {
        eprint!("{USAGE}");
        return ExitCode::from(2);
    };
    match command.as_str() {
        "partition-for" => partition_for::run(rest),
        "assign" => assign::run(rest),
        "run" => run::run(rest),
        "console" => console::run(rest),
        "from-log" => from_log::run(rest),
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
