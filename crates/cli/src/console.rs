//! `rebalance-sim console SCENARIO.json [--at MS] [--kafka-version V] -- <tool> <options>`: runs
//! the scenario to `MS` (default: its `end_ms`) and answers one Kafka command line there, as the
//! tool prints it for that Kafka version (default: the newest the reference documents, 4.x):
//! `kafka-consumer-groups.sh` (`--list`, `--describe`, `--delete`, `--reset-offsets`) and
//! `kafka-topics.sh` (`--list`, `--describe`). The work is the engine's `console` module; this is
//! its wrapper. The tool's stdout and stderr are printed as they are, and its exit code (0, or 1
//! for the tool's own usage errors) is returned; a bad scenario or a command the console cannot
//! run exits 2.
//!
//! Several command lines, separated by a `;` word, run one after the other on the same world (a
//! `--delete` then a `--describe` shows the group gone). `--trace` prints, on stderr after the
//! tools' output, the readable trace lines of what the commands did to the world (the admin
//! client's requests, the coordinator's answers and records).

use std::io::Write;
use std::process::ExitCode;

use rebalance_engine::console::{self, KafkaVersion};
use rebalance_engine::scenario::MAX_END_MS;
use rebalance_engine::{Scenario, Session, SimTime};

use crate::run::read_scenario;

const USAGE: &str = "usage: rebalance-sim console SCENARIO.json [--at MS] [--kafka-version V] [--trace] -- \
                     kafka-consumer-groups.sh|kafka-topics.sh OPTIONS... [';' COMMAND...]";

struct Args {
    path: String,
    at: Option<u64>,
    version: KafkaVersion,
    trace: bool,
    commands: Vec<Vec<String>>,
}

pub(crate) fn run(args: &[String]) -> ExitCode {
    let a = match parse(args) {
        Ok(a) => a,
        Err(msg) => {
            eprintln!("rebalance-sim console: {msg}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let scenario =
        match read_scenario(&a.path).and_then(|t| Scenario::from_json(&t).map_err(|e| e.to_string())) {
            Ok(s) => s,
            Err(msg) => {
                eprintln!("rebalance-sim console: {}: {msg}", a.path);
                return ExitCode::from(2);
            }
        };
    let at = a.at.unwrap_or(scenario.end_ms);
    let mut session = match Session::new(scenario) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("rebalance-sim console: {}: {e}", a.path);
            return ExitCode::from(2);
        }
    };
    session.run_to(SimTime(at));
    let before = session.log().len();
    let mut stdout = std::io::stdout().lock();
    let mut stderr = std::io::stderr().lock();
    let mut code = 0;
    let mut written = Ok(());
    for command in &a.commands {
        let out = console::run(&mut session, command, a.version);
        let _ = stderr.write_all(out.stderr.as_bytes());
        written = written.and_then(|()| stdout.write_all(out.stdout.as_bytes()));
        code = code.max(out.exit_code);
    }
    if a.trace {
        for e in session.log()[before..].iter().filter(|e| !e.is_detail()) {
            let _ = writeln!(stderr, "{e}");
        }
    }
    match written.and_then(|()| stdout.flush()) {
        Ok(()) => ExitCode::from(code.clamp(0, 255) as u8),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::from(3),
        Err(e) => {
            eprintln!("rebalance-sim console: cannot write the output: {e}");
            ExitCode::from(1)
        }
    }
}

fn parse(args: &[String]) -> Result<Args, String> {
    let mut path = None;
    let mut at = None;
    let mut version = KafkaVersion::NEWEST;
    let mut trace = false;
    let mut it = args.iter();
    let mut command = Vec::new();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--" => {
                command = it.by_ref().cloned().collect();
                break;
            }
            "--at" => {
                let v = it.next().ok_or("--at needs a time in ms")?;
                let ms: u64 = v.parse().map_err(|_| format!("--at `{v}` is not a time in ms"))?;
                if ms > MAX_END_MS {
                    return Err(format!(
                        "--at {ms} ms is past the longest scenario ({MAX_END_MS} ms)"
                    ));
                }
                at = Some(ms);
            }
            "--trace" => trace = true,
            "--kafka-version" => {
                let v = it
                    .next()
                    .ok_or("--kafka-version needs a version (e.g. 3.6, 3.9, 4.1)")?;
                version = KafkaVersion::parse(v)?;
            }
            s if s.starts_with("--") => {
                return Err(format!("unknown option `{s}` (the tool's options go after `--`)"))
            }
            s => {
                if path.replace(s.to_owned()).is_some() {
                    return Err(format!(
                        "unexpected extra argument `{s}` (the tool's command line goes after `--`)"
                    ));
                }
            }
        }
    }
    let path = path.ok_or("missing SCENARIO.json")?;
    let commands: Vec<Vec<String>> = command.split(|w| w == ";").map(<[String]>::to_vec).collect();
    if commands.iter().any(Vec::is_empty) {
        return Err("missing a command line after `--` (or around a `;`)".into());
    }
    Ok(Args {
        path,
        at,
        version,
        trace,
        commands,
    })
}
