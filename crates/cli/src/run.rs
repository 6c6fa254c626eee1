//! `rebalance-sim run SCENARIO.json [--format jsonl|text] [--detail]`: runs a scenario file to its
//! end and prints the trace: one JSON event per line (`jsonl`, the default; every event), or one
//! readable English line per event (`text`; routine detail such as heartbeats only with
//! `--detail`), followed by `# ` summary lines. The same file always gives the same bytes.

use std::io::{Read, Write};
use std::process::ExitCode;

use rebalance_engine::scenario::MAX_SCENARIO_BYTES;
use rebalance_engine::{Scenario, Simulation};

/// The most events one run may emit before it is stopped (a scenario that does this much is
/// rejected as too busy, rather than left to run for hours and fill memory).
pub(crate) const MAX_RUN_EVENTS: u64 = 1_000_000;

/// The most instants (distinct times at which something happens) one run may go through.
pub(crate) const MAX_RUN_INSTANTS: u64 = 10_000_000;

const USAGE: &str = "usage: rebalance-sim run SCENARIO.json [--format jsonl|text] [--detail]";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Jsonl,
    Text,
}

pub(crate) fn run(args: &[String]) -> ExitCode {
    let (path, format, detail) = match parse(args) {
        Ok(x) => x,
        Err(msg) => {
            eprintln!("rebalance-sim run: {msg}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let text = match read_scenario(&path) {
        Ok(t) => t,
        Err(msg) => {
            eprintln!("rebalance-sim run: {path}: {msg}");
            return ExitCode::from(2);
        }
    };
    let scenario = match Scenario::from_json(&text) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("rebalance-sim run: {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let mut sim = match Simulation::new(&scenario) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("rebalance-sim run: {path}: {e}");
            return ExitCode::from(2);
        }
    };
    if let Err(msg) = run_bounded(&mut sim) {
        eprintln!("rebalance-sim run: {path}: {msg}");
        return ExitCode::from(2);
    }
    let out = match format {
        Format::Jsonl => sim.trace_jsonl(),
        Format::Text => sim.trace_text(detail),
    };
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(out.as_bytes()).and_then(|()| stdout.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        // The reader went away (`... | head`): nothing to tell it.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::from(3),
        Err(e) => {
            eprintln!("rebalance-sim run: cannot write the trace: {e}");
            ExitCode::from(1)
        }
    }
}

/// Reads the file as UTF-8 text of at most [`MAX_SCENARIO_BYTES`]; the error says where it is not
/// text.
pub(crate) fn read_scenario(path: &str) -> Result<String, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read it: {e}"))?;
    let mut bytes = Vec::new();
    file.take(MAX_SCENARIO_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read it: {e}"))?;
    if bytes.len() > MAX_SCENARIO_BYTES {
        return Err(format!(
            "the file is larger than {MAX_SCENARIO_BYTES} bytes (the limit)"
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let before = &e.as_bytes()[..at];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        // Columns count characters, as the scenario errors do; the prefix is valid UTF-8.
        let column = String::from_utf8_lossy(&before[line_start..]).chars().count() + 1;
        format!(
            "not UTF-8 text: invalid byte 0x{:02X} at byte offset {at} (line {line}, column {column})",
            e.as_bytes()[at]
        )
    })
}

/// Runs the simulation to its end, unless it does more than [`MAX_RUN_EVENTS`] events or
/// [`MAX_RUN_INSTANTS`] instants first.
fn run_bounded(sim: &mut Simulation) -> Result<(), String> {
    let Some(end) = sim.end() else {
        sim.run_to_end();
        return Ok(());
    };
    let mut instants = 0u64;
    while let Some(t) = sim.next_event_time() {
        if t > end {
            break;
        }
        let over = if sim.events_emitted() > MAX_RUN_EVENTS {
            Some(format!("{MAX_RUN_EVENTS} events"))
        } else if instants >= MAX_RUN_INSTANTS {
            Some(format!("{MAX_RUN_INSTANTS} instants"))
        } else {
            None
        };
        if let Some(limit) = over {
            return Err(format!(
                "stopped at {t} of {end}: the run went past {limit} (the limit of one run); shorten \
                 end_ms or make the scenario less busy (longer intervals, some latency)"
            ));
        }
        sim.step();
        instants += 1;
    }
    sim.run_to_end();
    Ok(())
}

fn parse(args: &[String]) -> Result<(String, Format, bool), String> {
    let mut path = None;
    let mut format = Format::Jsonl;
    let mut detail = false;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--format" => {
                format = match it.next().map(String::as_str) {
                    Some("jsonl") => Format::Jsonl,
                    Some("text") => Format::Text,
                    Some(other) => return Err(format!("unknown format `{other}` (jsonl or text)")),
                    None => return Err("--format needs a value".into()),
                }
            }
            "--detail" => detail = true,
            s if s.starts_with("--") => return Err(format!("unknown option `{s}`")),
            s => {
                if path.replace(s.to_owned()).is_some() {
                    return Err(format!("unexpected extra argument `{s}`"));
                }
            }
        }
    }
    let path = path.ok_or("missing SCENARIO.json")?;
    Ok((path, format, detail))
}
