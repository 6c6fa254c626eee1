//! Scale benchmark: peak memory and wall time of long and large runs.
//!
//! * `large`: 1,000 consumers on one topic of 10,000 partitions for one simulated hour;
//! * `week`: one consumer on 10 partitions for one simulated week.
//!
//! Each workload runs (a) `rebalance-sim run SCENARIO --no-limit` with its JSON-lines trace
//! streamed to /dev/null, under `/usr/bin/time` for its peak RSS, and (b) the same simulation
//! with the log off (`LogLevel::Off`, nothing printed), in a child process of this benchmark that
//! reads its own peak RSS (`VmHWM` in `/proc/self/status`). Targets: peak RSS at most 1 GiB, and (a)
//! within 2x of (b). Run with `cargo bench -p rebalance-sim --bench scale` (Linux); `-- week` or
//! `-- large` runs one workload.

// A bench times the runs with the wall clock.
#![allow(clippy::disallowed_types, clippy::disallowed_methods)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use rebalance_engine::cluster::COMPACTION_BATCH;
use rebalance_engine::{LogLevel, Scenario, Simulation};

/// The CLI's allocator here too, so that (b) differs from (a) by the log alone.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The child-process mode of this benchmark: `--off SCENARIO` runs (b) and prints its figures.
const OFF: &str = "--off";

fn workloads() -> Vec<(&'static str, String, serde_json::Value)> {
    let large = serde_json::json!({
        "version": 1, "seed": 1, "end_ms": 3_600_000,
        "topics": [{ "name": "events", "partitions": 10_000, "records_per_sec": 10_000 }],
        "client_defaults": { "subscription": { "topics": ["events"] } },
        "consumers": (0..1000).map(|i| serde_json::json!({ "name": format!("c{i:04}") })).collect::<Vec<_>>(),
    });
    let week = serde_json::json!({
        "version": 1, "seed": 1, "end_ms": 7 * 24 * 3_600_000u64,
        "topics": [{ "name": "events", "partitions": 10, "records_per_sec": 100 }],
        "client_defaults": { "subscription": { "topics": ["events"] } },
        "consumers": [{ "name": "A" }],
    });
    vec![
        (
            "large",
            "1,000 consumers x 10,000 partitions, 1 simulated hour".to_owned(),
            large,
        ),
        (
            "week",
            "1 consumer x 10 partitions, 1 simulated week".to_owned(),
            week,
        ),
    ]
}

/// Peak RSS of this process in KiB (Linux).
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// (b), in this (child) process: prints `<seconds> <peak KiB> <events>`.
fn run_off(path: &Path) {
    let scenario = Scenario::from_json(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut sim = Simulation::new(&scenario).unwrap();
    sim.set_log_level(LogLevel::Off);
    sim.set_log_compaction(Some(COMPACTION_BATCH));
    let t = Instant::now();
    sim.run_to_end();
    let secs = t.elapsed().as_secs_f64();
    println!("{secs} {} {}", peak_rss_kib().unwrap_or(0), sim.events_emitted());
}

fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, path, ..] = args.as_slice() {
        if flag == OFF {
            run_off(Path::new(path));
            return;
        }
    }
    let filters: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let dir = std::env::temp_dir().join(format!("rebalance-sim-scale-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (label, title, scenario) in workloads() {
        if !filters.is_empty() && !filters.iter().any(|f| label.contains(f.as_str())) {
            continue;
        }
        let path: PathBuf = dir.join(format!("{label}.json"));
        std::fs::write(&path, scenario.to_string()).unwrap();

        // (a) The CLI, streaming its trace to /dev/null, under /usr/bin/time for its peak RSS.
        let cli = env!("CARGO_BIN_EXE_rebalance-sim");
        let timed = Path::new("/usr/bin/time").exists();
        let mut cmd = if timed {
            let mut c = Command::new("/usr/bin/time");
            c.args(["-f", "%M"]).arg(cli);
            c
        } else {
            Command::new(cli)
        };
        let t = Instant::now();
        let out = cmd
            .args(["run", path.to_str().unwrap(), "--no-limit"])
            .stdout(Stdio::from(std::fs::File::create("/dev/null").unwrap()))
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let cli_secs = t.elapsed().as_secs_f64();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "rebalance-sim run failed: {stderr}");
        let cli_kib: Option<u64> = stderr.lines().last().and_then(|l| l.trim().parse().ok());

        // (b) The same simulation with the log off, in a child process (its own peak RSS).
        let out = Command::new(std::env::current_exe().unwrap())
            .args([OFF, path.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8_lossy(&out.stdout);
        let fields: Vec<&str> = text.split_whitespace().collect();
        let off_secs: f64 = fields[0].parse().unwrap();
        let off_kib: u64 = fields[1].parse().unwrap();
        let events: u64 = fields[2].parse().unwrap();

        println!("scale: {title} ({events} events with the log off)");
        println!(
            "  (a) rebalance-sim run --no-limit > /dev/null: {cli_secs:.2} s, peak RSS {}",
            cli_kib.map_or("unknown (no /usr/bin/time)".to_owned(), |k| format!(
                "{:.1} MiB",
                mib(k)
            ))
        );
        println!(
            "  (b) log off, nothing printed:                 {off_secs:.2} s, peak RSS {:.1} MiB",
            mib(off_kib)
        );
        println!(
            "  (a)/(b) wall time: {:.2}x (target <= 2x; RSS target <= 1024 MiB)",
            cli_secs / off_secs
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
