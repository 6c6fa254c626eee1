//! The workload the simulation and cluster benchmarks share: one topic of 1,000 partitions and 100
//! consumers that each take 5 s per batch and time out after 10 s.

// A bench times the engine with the wall clock, which clippy.toml bans in the engine itself.
#![allow(clippy::disallowed_types, clippy::disallowed_methods)]

use rebalance_engine::sim::{Action, LogLevel, Simulation};
use rebalance_engine::{ConsumerConfig, SimTime, Subscription};

pub const GROUP: &str = "bench-group";

/// A consumer of the `events` topic.
pub fn consumer(name: String) -> ConsumerConfig {
    let mut c = ConsumerConfig::new(name, GROUP, Subscription::Topics(vec!["events".into()]));
    c.session_timeout_ms = 10_000;
    c.processing_ms = 5_000;
    c
}

/// Sets the log level, creates the topic and starts the 100 consumers at time zero.
pub fn populate(sim: &mut Simulation, log: LogLevel) {
    sim.set_log_level(log);
    let t0 = SimTime::ZERO;
    sim.apply(
        t0,
        Action::CreateTopic {
            topic: "events".into(),
            partitions: 1_000,
            records_per_sec: 10_000,
            initial_records: 0,
        },
    )
    .unwrap();
    for i in 0..100 {
        sim.apply(
            t0,
            Action::AddConsumer {
                config: Box::new(consumer(format!("c{i:03}"))),
            },
        )
        .unwrap();
    }
}

/// One timed variant of a benchmark.
pub struct Measured {
    /// Which log level it ran with.
    pub label: &'static str,
    /// The fastest run, in seconds.
    pub best: f64,
    /// The least CPU time of a run, in seconds, where the OS tells it (Linux): unlike the wall
    /// time, it does not grow when other programs share the machine's cores.
    pub cpu: Option<f64>,
    /// How many runs the best was taken from.
    pub runs: u32,
    /// Events the simulation emitted (logged or only counted).
    pub events: u64,
    /// Events kept in the log.
    pub kept: usize,
}

/// Runs each log-level variant (three times, once with the full log), timing only `run`, checking
/// the end state with `check` and handing the figures to `report`. Cargo passes `--bench`; any
/// other argument keeps only the variants whose label contains it.
pub fn measure_variants(
    build: impl Fn(LogLevel) -> Simulation,
    mut run: impl FnMut(&mut Simulation),
    check: impl Fn(&Simulation),
    mut report: impl FnMut(Measured),
) {
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    for (label, level) in [
        ("log off", LogLevel::Off),
        ("info log", LogLevel::Info),
        ("full log", LogLevel::All),
    ] {
        if !filters.is_empty() && !filters.iter().any(|f| label.contains(f.as_str())) {
            continue;
        }
        let runs = if level == LogLevel::All { 1 } else { 3 };
        let mut measured = Measured {
            label,
            best: f64::MAX,
            cpu: None,
            runs,
            events: 0,
            kept: 0,
        };
        for _ in 0..runs {
            let mut sim = build(level);
            let cpu_start = thread_cpu_seconds();
            let start = std::time::Instant::now();
            run(&mut sim);
            measured.best = measured.best.min(start.elapsed().as_secs_f64());
            if let (Some(a), Some(b)) = (cpu_start, thread_cpu_seconds()) {
                measured.cpu = Some(measured.cpu.map_or(b - a, |c: f64| c.min(b - a)));
            }
            measured.events = sim.events_emitted();
            measured.kept = sim.log().len();
            check(&sim);
        }
        report(measured);
    }
}

/// The CPU time this thread has run, in seconds (Linux's `/proc/thread-self/schedstat`, first
/// field, in ns); `None` elsewhere.
fn thread_cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 / 1e9)
}

impl Measured {
    /// `", cpu 0.812 s"`, or nothing where the CPU time is unknown.
    pub fn cpu_text(&self) -> String {
        self.cpu.map_or(String::new(), |c| format!(", cpu {c:.3} s"))
    }
}
