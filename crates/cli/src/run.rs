//! `rebalance-sim run SCENARIO.json [--format jsonl|text] [--detail]`: runs a scenario file to its
//! end and prints the trace: one JSON event per line (`jsonl`, the default; every event), or one
//! readable English line per event (`text`; routine detail such as heartbeats only with
//! `--detail`), followed by `# ` summary lines. The same file always gives the same bytes.

use std::io::Write;
use std::process::ExitCode;

use rebalance_engine::{Scenario, Simulation};

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
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("rebalance-sim run: cannot read {path}: {e}");
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
    sim.run_to_end();
    let out = match format {
        Format::Jsonl => sim.trace_jsonl(),
        Format::Text => sim.trace_text(detail),
    };
    let mut stdout = std::io::stdout().lock();
    if stdout
        .write_all(out.as_bytes())
        .and_then(|()| stdout.flush())
        .is_err()
    {
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
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
