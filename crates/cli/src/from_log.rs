//! `rebalance-sim from-log FILE... [--out SCENARIO.json] [--check]`: reads Kafka broker and client
//! logs (one file or several; `-` is stdin), writes the scenario that replays the busiest group
//! (to `--out`, else stdout), and prints what it assumed on stderr, with the lines it relied on.
//! `--check` then runs the scenario (the engine's `Session`) and prints, side by side, each state
//! change and generation of the log next to the simulation's, and where and why they differ.
//!
//! The files are streamed: each line is read into a buffer of at most
//! [`fromlog::MAX_LINE_BYTES`] (a longer line is skipped to its end and counted), so memory does
//! not grow with the file; the engine keeps at most [`fromlog::MAX_ENTRIES`] group lines.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::ExitCode;

use rebalance_engine::fromlog::{check, Importer, MAX_FILES, MAX_LINE_BYTES};

const USAGE: &str = "usage: rebalance-sim from-log FILE... [--out SCENARIO.json] [--check]";

pub(crate) fn run(args: &[String]) -> ExitCode {
    let mut files = Vec::new();
    let mut out = None;
    let mut do_check = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--out" => match it.next() {
                Some(p) => out = Some(p.clone()),
                None => return usage("--out needs a file name"),
            },
            "--check" => do_check = true,
            "-" => files.push(a.clone()),
            s if s.starts_with("--") => return usage(&format!("unknown option `{s}`")),
            s => files.push(s.to_owned()),
        }
    }
    if files.is_empty() {
        return usage("missing FILE (a broker or client log; several may be given)");
    }
    if files.len() > MAX_FILES {
        return usage(&format!(
            "{} files is more than the limit ({MAX_FILES})",
            files.len()
        ));
    }
    let mut importer = Importer::new();
    for f in &files {
        importer.begin_file(f);
        let read = if f == "-" {
            read_lines(std::io::stdin().lock(), &mut importer)
        } else {
            std::fs::File::open(f).and_then(|file| read_lines(file, &mut importer))
        };
        if let Err(e) = read {
            eprintln!("rebalance-sim from-log: {f}: cannot read it: {e}");
            return ExitCode::from(2);
        }
    }
    let replay = match importer.finish() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("rebalance-sim from-log: {}: {e}", files.join(", "));
            return ExitCode::from(2);
        }
    };
    let mut err = std::io::stderr().lock();
    let s = &replay.stats;
    let _ = writeln!(
        err,
        "rebalance-sim from-log: group `{}`: {} line(s) read, {} recognised, {} skipped (not recognised), {} too long (over {MAX_LINE_BYTES} bytes){}",
        replay.scenario.group_id,
        s.lines,
        s.recognised,
        s.skipped,
        s.too_long,
        if s.not_utf8 > 0 { format!(", {} not UTF-8", s.not_utf8) } else { String::new() }
    );
    let _ = writeln!(err, "assumed:");
    for a in &replay.assumptions {
        let lines: Vec<String> = a.lines.iter().map(|l| replay.where_is(*l)).collect();
        let at = if lines.is_empty() {
            String::new()
        } else {
            format!(" ({})", lines.join(", "))
        };
        let _ = writeln!(err, "  - {}{at}", a.text);
    }
    let json = replay.scenario_json();
    let written = match &out {
        Some(path) => std::fs::write(path, &json).map_err(|e| format!("{path}: cannot write it: {e}")),
        None if do_check => Ok(()),
        None => {
            let mut o = std::io::stdout().lock();
            o.write_all(json.as_bytes())
                .and_then(|()| o.flush())
                .map_err(|e| format!("cannot write the scenario: {e}"))
        }
    };
    if let Err(msg) = written {
        eprintln!("rebalance-sim from-log: {msg}");
        return ExitCode::from(1);
    }
    if do_check {
        match check::check(&replay) {
            Ok(c) => {
                let text = check::render(&replay, &c);
                let mut o = std::io::stdout().lock();
                if o.write_all(text.as_bytes()).and_then(|()| o.flush()).is_err() {
                    return ExitCode::from(3);
                }
            }
            Err(msg) => {
                eprintln!("rebalance-sim from-log: --check: {msg}");
                return ExitCode::from(2);
            }
        }
    }
    ExitCode::SUCCESS
}

fn usage(msg: &str) -> ExitCode {
    eprintln!("rebalance-sim from-log: {msg}\n{USAGE}");
    ExitCode::from(2)
}

/// Streams the lines of `input` into the importer, keeping at most [`MAX_LINE_BYTES`] of a line.
fn read_lines(input: impl Read, importer: &mut Importer) -> std::io::Result<()> {
    let mut reader = BufReader::with_capacity(1 << 16, input);
    let mut line: Vec<u8> = Vec::with_capacity(1024);
    let mut too_long = false;
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        let (chunk, ended) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        if !too_long {
            if line.len() + chunk.len() > MAX_LINE_BYTES {
                too_long = true;
                line.clear();
            } else {
                line.extend_from_slice(chunk);
            }
        }
        let used = ended.unwrap_or(buf.len());
        reader.consume(used);
        if ended.is_some() {
            finish_line(importer, &mut line, &mut too_long);
        }
    }
    if too_long || !line.is_empty() {
        finish_line(importer, &mut line, &mut too_long);
    }
    Ok(())
}

fn finish_line(importer: &mut Importer, line: &mut Vec<u8>, too_long: &mut bool) {
    if *too_long {
        importer.push_too_long();
    } else {
        match std::str::from_utf8(line) {
            Ok(s) => importer.push_line(s),
            Err(_) => {
                importer.note_not_utf8();
                importer.push_line(&String::from_utf8_lossy(line));
            }
        }
    }
    line.clear();
    *too_long = false;
}
