//! Compare-session seek benchmark: the playground's story (one topic of 30 partitions, 12 records/s,
//! 200 ms latency) under every protocol with 30 consumers, 30 simulated minutes, a consumer killed
//! every 5 minutes and a new one added 20 s later. Then 100 seeks of the shared timeline to
//! seeded times, each followed by the views the compare mode draws (summaries and lanes).
//! Target: median and worst seek at most 50 ms. Each seek's wall time and the CPU time of this
//! thread (Linux's `/proc/thread-self/schedstat`, in ns: what the seek cost the machine's shared
//! cores, less what other processes took) are printed, with the load average. Run with
//! `cargo bench -p rebalance-engine --bench compare`.

// A benchmark measures wall time; the engine it measures never reads a clock.
#![allow(clippy::disallowed_types, clippy::disallowed_methods)]

use std::time::Instant;

use rebalance_engine::compare::CompareSession;
use rebalance_engine::network::SplitMix64;
use rebalance_engine::sim::Action;
use rebalance_engine::{ConsumerConfig, Scenario, SimTime, Subscription};

const MINUTES: u64 = 30;

/// The CPU time this thread has run, in ms (Linux), if known.
fn thread_cpu_ms() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 / 1e6)
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

fn median_worst(mut xs: Vec<f64>) -> (f64, f64) {
    xs.sort_by(f64::total_cmp);
    (xs[xs.len() / 2], xs[xs.len() - 1])
}

fn consumer(name: &str) -> Action {
    let mut c = ConsumerConfig::new(
        name,
        "test_group_1",
        Subscription::Topics(vec!["test_topic".into()]),
    );
    c.session_timeout_ms = 10_000;
    c.heartbeat_interval_ms = 3_000;
    c.processing_ms = 1_000;
    Action::AddConsumer { config: Box::new(c) }
}

fn main() {
    let base = Scenario::from_json(
        r#"{"version": 1, "seed": 9, "group_id": "test_group_1", "end_ms": 1,
            "network": {"latency_ms": 200, "jitter_ms": 40},
            "topics": [{"name": "test_topic", "partitions": 30, "records_per_sec": 12}]}"#,
    )
    .unwrap();
    let built = Instant::now();
    let mut s = CompareSession::new(base).unwrap();
    for i in 0..30 {
        s.run_to(SimTime(i * 200));
        s.apply(consumer(&format!("C{}", i + 1))).unwrap();
    }
    let mut added = 30;
    for m in (5..MINUTES).step_by(5) {
        s.run_to(SimTime(m * 60_000));
        s.apply(Action::Kill {
            consumer: format!("C{}", m / 5),
        })
        .unwrap();
        s.run_to(SimTime(m * 60_000 + 20_000));
        added += 1;
        s.apply(consumer(&format!("C{added}"))).unwrap();
    }
    let end = SimTime(MINUTES * 60_000);
    s.run_to(end);
    let record_s = built.elapsed().as_secs_f64();
    let lanes: usize = s
        .views(SimTime::ZERO)
        .iter()
        .filter_map(|v| v.ownership.as_ref())
        .map(|o| o.lanes.iter().map(|l| l.segments.len()).sum::<usize>())
        .sum();

    let mut rng = SplitMix64::new(17);
    let (mut times, mut cpu, mut seek_only) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..100 {
        let to = SimTime(rng.next_u64() % (end.as_millis() + 1));
        let c0 = thread_cpu_ms();
        let t = Instant::now();
        s.seek(to);
        let sought = t.elapsed().as_secs_f64() * 1_000.0;
        let views = s.views(SimTime(to.as_millis().saturating_sub(120_000)));
        let ms = t.elapsed().as_secs_f64() * 1_000.0;
        if let (Some(a), Some(b)) = (c0, thread_cpu_ms()) {
            cpu.push(b - a);
        }
        assert_eq!(s.now(), to);
        assert!(views.iter().any(|v| v.summary.is_some()));
        times.push(ms);
        seek_only.push(sought);
    }
    let running = s.variants().iter().filter(|v| v.session().is_some()).count();
    let (median, worst) = median_worst(times);
    let (seek_median, seek_worst) = median_worst(seek_only);
    println!(
        "compare seek: 30 consumers x {running} running protocols, {MINUTES} simulated minutes (recorded in {record_s:.2} s, \
         {lanes} lane segments): 100 seeks + views, wall median {median:.2} ms, worst {worst:.2} ms (target 50 ms); \
         the seek alone median {seek_median:.2} ms, worst {seek_worst:.2} ms"
    );
    if cpu.len() == 100 {
        let (m, w) = median_worst(cpu);
        println!("  CPU time of the seeking thread per seek + views: median {m:.2} ms, worst {w:.2} ms");
    }
    println!("  load average: {}", load_average());
}
