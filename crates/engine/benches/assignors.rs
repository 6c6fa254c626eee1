//! Assignor timings at 1,000 members × 10,000 partitions.
//!
//! `cargo bench -p rebalance-engine --bench assignors`. Targets (issue 4): under 50 ms for range
//! and roundrobin, under 500 ms for sticky and cooperative-sticky. Each row is the median of
//! several runs after a warm-up; a row over its target is flagged.

// A bench times the engine with the wall clock, which clippy.toml bans in the engine itself.
#![allow(clippy::disallowed_types, clippy::disallowed_methods)]

use rebalance_engine::collections::Map;
use std::hint::black_box;
use std::time::{Duration, Instant};

use rebalance_engine::assignor::{assign, Assignment, MemberSubscription, Strategy};

const MEMBERS: usize = 1_000;
const RUNS: usize = 7;

/// 10 topics × 1,000 partitions, everyone subscribed to everything.
fn identical() -> (Map<String, i32>, Vec<MemberSubscription>) {
    let partitions: Map<String, i32> = (0..10).map(|t| (format!("topic-{t}"), 1_000)).collect();
    let topics: Vec<String> = partitions.keys().cloned().collect();
    let members = (0..MEMBERS)
        .map(|i| MemberSubscription::new(format!("consumer-{i}"), topics.clone()))
        .collect();
    (partitions, members)
}

/// 20 topics × 500 partitions; each member subscribes to three topics out of four, in four
/// different patterns, and every tenth member to two topics only.
fn mixed() -> (Map<String, i32>, Vec<MemberSubscription>) {
    let partitions: Map<String, i32> = (0..20).map(|t| (format!("topic-{t}"), 500)).collect();
    let members = (0..MEMBERS)
        .map(|i| {
            let topics: Vec<String> = if i % 10 == 9 {
                vec![format!("topic-{}", i % 20), format!("topic-{}", (i + 7) % 20)]
            } else {
                (0..20)
                    .filter(|t| (i / 10 + t) % 4 != 0)
                    .map(|t| format!("topic-{t}"))
                    .collect()
            };
            MemberSubscription::new(format!("consumer-{i}"), topics)
        })
        .collect();
    (partitions, members)
}

/// The group after its first member leaves, the others owning what `previous` gave them.
fn after_first_leaves(members: &[MemberSubscription], previous: &Assignment) -> Vec<MemberSubscription> {
    members[1..]
        .iter()
        .map(|m| {
            let mut next = m.clone().in_generation(1);
            next.owned_partitions = previous[&m.member_id].clone();
            next
        })
        .collect()
}

fn median(strategy: Strategy, partitions: &Map<String, i32>, members: &[MemberSubscription]) -> Duration {
    black_box(assign(strategy, partitions, members));
    let mut times: Vec<Duration> = (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            black_box(assign(strategy, black_box(partitions), black_box(members)));
            start.elapsed()
        })
        .collect();
    times.sort();
    times[RUNS / 2]
}

fn main() {
    println!("assignors, {MEMBERS} members × 10,000 partitions, median of {RUNS} runs\n");
    println!(
        "| {:<18} | {:<36} | {:>10} | {:>8} |",
        "strategy", "case", "median", "target"
    );
    println!("|{:-<20}|{:-<38}|{:->12}|{:->10}|", "", "", "", "");
    let mut missed = 0;
    for (subscriptions, (partitions, members)) in [("identical", identical()), ("mixed", mixed())] {
        for strategy in Strategy::ALL {
            let target = if matches!(strategy, Strategy::Range | Strategy::RoundRobin) {
                50
            } else {
                500
            };
            let mut cases = vec![(format!("{subscriptions}, fresh"), members.clone())];
            if !matches!(strategy, Strategy::Range | Strategy::RoundRobin) {
                let previous = assign(Strategy::Sticky, &partitions, &members);
                cases.push((
                    format!("{subscriptions}, after one member left"),
                    after_first_leaves(&members, &previous),
                ));
            }
            for (case, members) in cases {
                let time = median(strategy, &partitions, &members);
                let ms = time.as_secs_f64() * 1e3;
                let flag = if ms > f64::from(target) { " MISSED" } else { "" };
                missed += usize::from(!flag.is_empty());
                println!(
                    "| {:<18} | {:<36} | {:>7.2} ms | {:>5} ms |{flag}",
                    strategy.name(),
                    case,
                    ms,
                    target
                );
            }
        }
    }
    if missed > 0 {
        println!("\n{missed} row(s) over target");
    }
}
