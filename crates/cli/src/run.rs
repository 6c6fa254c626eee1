//! `rebalance-sim run SCENARIO.json [--format jsonl|text] [--detail] [--no-limit]`: runs a scenario
//! file to its end and prints the trace: one JSON event per line (`jsonl`, the default; every
//! event), or one readable English line per event (`text`; routine detail such as heartbeats only
//! with `--detail`), followed by `# ` summary lines. The same file always gives the same bytes.
//!
//! The trace is streamed: the events of a few steps at a time (a batch of about
//! [`BATCH_EVENTS`]) are handed to a writer thread, which formats them in order (through a 64 KiB
//! buffer) and sends the batch back to be emptied and reused, so memory does not grow with
//! simulated time. A run is bounded
//! ([`MAX_RUN_EVENTS`], [`MAX_RUN_INSTANTS`]) unless `--no-limit` is given; a run the limits stop
//! has streamed the trace up to that point, says on stderr where and why it stopped, and exits 2
//! (the trace is then incomplete and has no summary).

use std::io::{Read, Write};
use std::process::ExitCode;
use std::sync::mpsc;

use rebalance_engine::cluster::COMPACTION_BATCH;
use rebalance_engine::scenario::MAX_SCENARIO_BYTES;
use rebalance_engine::sim::{write_jsonl, write_text};
use rebalance_engine::{Scenario, SimEvent, Simulation};

/// The most events one run may emit before it is stopped (a scenario that does this much is
/// rejected as too busy, rather than left to run for hours), unless `--no-limit` is given.
pub(crate) const MAX_RUN_EVENTS: u64 = 1_000_000;

/// The most instants (distinct times at which something happens) one run may go through.
pub(crate) const MAX_RUN_INSTANTS: u64 = 10_000_000;

const USAGE: &str = "usage: rebalance-sim run SCENARIO.json [--format jsonl|text] [--detail] [--no-limit]";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Jsonl,
    Text,
}

pub(crate) fn run(args: &[String]) -> ExitCode {
    let Options {
        path,
        format,
        detail,
        limited,
    } = match parse(args) {
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
    // The group's `__consumer_offsets` partition is compacted as it grows (the trace is the same).
    sim.set_log_compaction(Some(COMPACTION_BATCH));
    // The trace streams: batches of events go to a writer thread, which serialises them in order
    // and drops them, so memory stays flat however long the run, and the simulation does not wait
    // for the formatting (the text summary at the end reads the final state, not the log).
    let (send, writer) = Writer::start(format, detail);
    let mut streamed = run_bounded(&mut sim, limited, |sim, flush| {
        if !flush && sim.log().len() < BATCH_EVENTS {
            return Ok(());
        }
        let log = sim.take_log();
        // A written batch comes back to be emptied here, where its events were made (freeing
        // them on the writer's thread costs more), and its buffer is the next batch's log.
        sim.put_log(send.recycled());
        send.events(log)
    });
    if streamed.is_ok() && format == Format::Text {
        let mut tail = Vec::new();
        streamed = sim
            .write_summary(&mut tail)
            .map_err(Stop::Write)
            .and_then(|()| send.bytes(tail).map_err(Stop::Write));
    }
    drop(send);
    // What was streamed so far goes out in every case; a write error wins over a limit.
    let streamed = match (writer.finish(), streamed) {
        (Err(e), _) => Err(Stop::Write(e)),
        (Ok(()), s) => s,
    };
    match streamed {
        Ok(()) => ExitCode::SUCCESS,
        Err(Stop::Limit(msg)) => {
            // What was streamed so far went out; the message says it is incomplete.
            eprintln!("rebalance-sim run: {path}: {msg}; the trace above is incomplete");
            ExitCode::from(2)
        }
        // The reader went away (`... | head`): nothing to tell it.
        Err(Stop::Write(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::from(3),
        Err(Stop::Write(e)) => {
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

/// How much of the trace is gathered before it is written.
const OUTPUT_BUFFER: usize = 1 << 16;

/// How many events the simulation gathers (over as many steps as it takes) before it hands them
/// to the writer thread. A batch's buffer is reused once written, so the log rarely grows by
/// reallocation: a log grown from nothing at every step, by reallocations that touch fresh pages,
/// was the simulation thread's largest cost with the trace on (measured with `perf`).
const BATCH_EVENTS: usize = 4096;

/// How many batches may wait for the writer thread: the bound on the memory a run holds when the
/// simulation is faster than the formatting.
const QUEUED_BATCHES: usize = 64;

/// What the simulation sends the writer thread.
enum Chunk {
    /// A batch of events (of one or more steps), to be formatted.
    Events(Vec<SimEvent>),
    /// Bytes already formatted (the summary).
    Bytes(Vec<u8>),
}

/// How many emptied batches wait to be reused (each of about [`BATCH_EVENTS`] entries).
const POOLED_BATCHES: usize = 16;

/// The sending side of the trace's writer thread, and the batches it has written.
struct Sender {
    to: mpsc::SyncSender<Chunk>,
    written: mpsc::Receiver<Vec<SimEvent>>,
    /// Written batches, emptied, for the next ones (at most [`POOLED_BATCHES`]).
    pool: std::cell::RefCell<Vec<Vec<SimEvent>>>,
}

impl Sender {
    /// An empty log for the next batch: a written batch's buffer (its events dropped here, where
    /// they were made), else a new one with room for a batch (one allocation, not a log regrown
    /// step by step).
    fn recycled(&self) -> Vec<SimEvent> {
        let mut pool = self.pool.borrow_mut();
        while let Ok(mut batch) = self.written.try_recv() {
            batch.clear();
            if pool.len() < POOLED_BATCHES {
                pool.push(batch);
            }
        }
        pool.pop()
            .unwrap_or_else(|| Vec::with_capacity(BATCH_EVENTS + BATCH_EVENTS / 4))
    }

    fn events(&self, events: Vec<SimEvent>) -> std::io::Result<()> {
        if events.is_empty() {
            return Ok(());
        }
        self.send(Chunk::Events(events))
    }

    fn bytes(&self, bytes: Vec<u8>) -> std::io::Result<()> {
        self.send(Chunk::Bytes(bytes))
    }

    /// A send fails only when the writer has stopped on a write error, which
    /// [`Writer::finish`] then reports.
    fn send(&self, chunk: Chunk) -> std::io::Result<()> {
        self.to
            .send(chunk)
            .map_err(|_| std::io::Error::other("the trace writer stopped"))
    }
}

/// The thread that formats the trace and writes it to stdout, in the order it receives it. The
/// lines are serialised into a `Vec` (the fastest target for serde_json's many small writes),
/// which goes to stdout whenever it holds [`OUTPUT_BUFFER`] bytes.
struct Writer(std::thread::JoinHandle<std::io::Result<()>>);

impl Writer {
    fn start(format: Format, detail: bool) -> (Sender, Self) {
        let (send, receive) = mpsc::sync_channel::<Chunk>(QUEUED_BATCHES);
        let (done, written) = mpsc::sync_channel::<Vec<SimEvent>>(QUEUED_BATCHES);
        let thread = std::thread::spawn(move || {
            let mut buf = Vec::with_capacity(2 * OUTPUT_BUFFER);
            let mut to = std::io::stdout().lock();
            for chunk in receive {
                match chunk {
                    Chunk::Events(events) => {
                        match format {
                            Format::Jsonl => write_jsonl(&events, &mut buf)?,
                            Format::Text => write_text(&events, detail, &mut buf)?,
                        }
                        // Back to the simulation's thread; if its queue is full, dropped here.
                        let _ = done.try_send(events);
                    }
                    Chunk::Bytes(bytes) => buf.extend_from_slice(&bytes),
                }
                if buf.len() >= OUTPUT_BUFFER {
                    to.write_all(&buf)?;
                    buf.clear();
                }
            }
            to.write_all(&buf)?;
            to.flush()
        });
        let pool = std::cell::RefCell::new(Vec::new());
        (
            Sender {
                to: send,
                written,
                pool,
            },
            Self(thread),
        )
    }

    /// Waits for everything sent to be written (the sender must be dropped first).
    fn finish(self) -> std::io::Result<()> {
        self.0
            .join()
            .unwrap_or_else(|_| Err(std::io::Error::other("the trace writer panicked")))
    }
}

/// Why a run stopped before its end.
enum Stop {
    /// It went past a limit (the message says which, and when).
    Limit(String),
    /// Its trace could not be written.
    Write(std::io::Error),
}

/// Runs the simulation to its end, unless (if `limited`) it does more than [`MAX_RUN_EVENTS`]
/// events or [`MAX_RUN_INSTANTS`] instants first; `drain` is called after each step, and with
/// `true` (take everything) before the run returns.
fn run_bounded(
    sim: &mut Simulation,
    limited: bool,
    mut drain: impl FnMut(&mut Simulation, bool) -> std::io::Result<()>,
) -> Result<(), Stop> {
    let Some(end) = sim.end() else {
        sim.run_to_end();
        return drain(sim, true).map_err(Stop::Write);
    };
    let mut instants = 0u64;
    while let Some(t) = sim.next_event_time() {
        if t > end {
            break;
        }
        let over = if !limited {
            None
        } else if sim.events_emitted() > MAX_RUN_EVENTS {
            Some(format!("{MAX_RUN_EVENTS} events"))
        } else if instants >= MAX_RUN_INSTANTS {
            Some(format!("{MAX_RUN_INSTANTS} instants"))
        } else {
            None
        };
        if let Some(limit) = over {
            // What ran so far is streamed before the run stops.
            drain(sim, true).map_err(Stop::Write)?;
            return Err(Stop::Limit(format!(
                "stopped at {t} of {end}: the run went past {limit} (the limit of one run); shorten \
                 end_ms or make the scenario less busy (longer intervals, some latency), or lift the \
                 limits with --no-limit"
            )));
        }
        sim.step();
        instants += 1;
        drain(sim, false).map_err(Stop::Write)?;
    }
    sim.run_to_end();
    drain(sim, true).map_err(Stop::Write)
}

struct Options {
    path: String,
    format: Format,
    detail: bool,
    /// Whether the run's work is bounded (not with `--no-limit`).
    limited: bool,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut path = None;
    let mut format = Format::Jsonl;
    let mut detail = false;
    let mut limited = true;
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
            "--no-limit" => limited = false,
            s if s.starts_with("--") => return Err(format!("unknown option `{s}`")),
            s => {
                if path.replace(s.to_owned()).is_some() {
                    return Err(format!("unexpected extra argument `{s}`"));
                }
            }
        }
    }
    let path = path.ok_or("missing SCENARIO.json")?;
    Ok(Options {
        path,
        format,
        detail,
        limited,
    })
}
