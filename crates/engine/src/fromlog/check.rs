//! The replay checked against its log: the scenario runs through a [`Session`] (the one scheduler)
//! and each milestone of the log (a state change, a generation, a group epoch) is set beside the
//! simulation's, in order, with where and why they differ.

use crate::coordinator::event::EventKind;
use crate::session::Session;
use crate::sim::SimEventKind;
use crate::time::SimTime;

use super::story::Milestone;
use super::{LineRef, Replay};

/// How far apart two matched milestones may be and still read as the same moment (ms).
pub const TOLERANCE_MS: u64 = 500;

/// One row of the comparison.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The log's milestone: when (ms), which line.
    pub log: Option<(u64, LineRef)>,
    /// The simulation's: when (ms).
    pub sim: Option<u64>,
    /// What.
    pub what: Milestone,
    /// How they differ (empty: the same within [`TOLERANCE_MS`]).
    pub note: String,
}

/// The comparison.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    /// Every milestone, in the log's order, the simulation's extra ones at their place.
    pub rows: Vec<Row>,
    /// Rows that differ (the coordinator included).
    pub differences: usize,
    /// The group's coordinator in the log and in the replay, when the log shows it.
    pub coordinator: Option<CoordinatorRow>,
}

/// The group's coordinator, as the log shows it and as the replay places it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoordinatorRow {
    /// The log's coordinator and the first line that shows it.
    pub log: (i32, LineRef),
    /// The replay's (the leader of the group's `__consumer_offsets` partition).
    pub sim: i32,
    /// The replay's partition of the group.
    pub partition: i32,
}

impl CoordinatorRow {
    /// Whether the replay's coordinator is the log's.
    pub fn same(&self) -> bool {
        self.log.0 == self.sim
    }
}

/// Runs the replay's scenario and compares. `Err` when the scenario cannot run (the message says
/// why, e.g. a consumer-protocol group before that client exists).
pub fn check(replay: &Replay) -> Result<Check, String> {
    let mut session =
        Session::new(replay.scenario.clone()).map_err(|e| format!("the replay cannot run: {e}"))?;
    session.run_to(SimTime(replay.scenario.end_ms));
    let view = session.group_view();
    let coordinator = replay.coordinator.map(|log| CoordinatorRow {
        log,
        sim: view.coordinator.0,
        partition: view.partition,
    });
    let group = replay.scenario.group_id.as_str();
    let mut sim: Vec<(u64, Milestone)> = Vec::new();
    for e in session.log() {
        if let SimEventKind::Coordinator { event, .. } = &e.kind {
            match event {
                EventKind::StateChanged { group_id, to, .. } if group_id == group => {
                    sim.push((e.at.0, Milestone::State(format!("{to:?}"))));
                }
                EventKind::GenerationChanged { group_id, to, .. } if group_id == group => {
                    sim.push((e.at.0, Milestone::Generation(i64::from(*to))));
                }
                EventKind::ConsumerGroupEpochBumped { group_id, epoch } if group_id == group => {
                    sim.push((e.at.0, Milestone::Epoch(i64::from(*epoch))));
                }
                _ => {}
            }
        }
    }
    // The log's classic group lines never say Stable and CompletingRebalance apart from the
    // generation line, so the simulation's CompletingRebalance is kept only if the log has it.
    let log_kinds = |m: &Milestone| {
        replay.milestones.iter().any(|(_, _, x)| {
            std::mem::discriminant(x) == std::mem::discriminant(m)
                && (!matches!(m, Milestone::State(_)) || x == m)
        })
    };
    sim.retain(|(_, m)| log_kinds(m));
    let mut rows = Vec::new();
    let mut next = 0usize;
    let mut differences = 0;
    // Before the log's first line, a replay with a lead-in forms the group the log begins with: what
    // the log does not show of that is no difference.
    let unshown = |t: u64, m: &Milestone, here: &str| {
        if t <= replay.lead_in_ms && replay.lead_in_ms > 0 {
            (
                false,
                format!("before the log begins: the replay forms the group ({m})"),
            )
        } else {
            (true, format!("the log does not show {m}{here}"))
        }
    };
    // (A milestone of the log, at the lead-in or later, is never one of the forming group's.)
    for (t, m) in sim.iter().take_while(|(t, _)| *t < replay.lead_in_ms) {
        rows.push(Row {
            log: None,
            sim: Some(*t),
            what: m.clone(),
            note: unshown(*t, m, "").1,
        });
        next += 1;
    }
    for (at, line, what) in &replay.milestones {
        let found = sim[next..].iter().position(|(_, m)| m == what).map(|j| next + j);
        match found {
            Some(j) => {
                for (t, m) in &sim[next..j] {
                    let (counts, note) = unshown(*t, m, " here");
                    differences += usize::from(counts);
                    rows.push(Row {
                        log: None,
                        sim: Some(*t),
                        what: m.clone(),
                        note,
                    });
                }
                let t = sim[j].0;
                let note = explain(what, *at, t);
                if !note.is_empty() {
                    differences += 1;
                }
                rows.push(Row {
                    log: Some((*at, *line)),
                    sim: Some(t),
                    what: what.clone(),
                    note,
                });
                next = j + 1;
            }
            None => {
                differences += 1;
                rows.push(Row {
                    log: Some((*at, *line)),
                    sim: None,
                    what: what.clone(),
                    note: format!("the replay never reaches {what} after this point"),
                });
            }
        }
    }
    for (t, m) in &sim[next..] {
        let (counts, note) = unshown(*t, m, " (it may end before it)");
        differences += usize::from(counts);
        rows.push(Row {
            log: None,
            sim: Some(*t),
            what: m.clone(),
            note,
        });
    }
    if coordinator.as_ref().is_some_and(|c| !c.same()) {
        differences += 1;
    }
    Ok(Check {
        rows,
        differences,
        coordinator,
    })
}

fn secs(ms: u64) -> String {
    format!("{:.3} s", ms as f64 / 1000.0)
}

/// Why the log's moment and the simulation's differ.
fn explain(what: &Milestone, log: u64, sim: u64) -> String {
    if log.abs_diff(sim) <= TOLERANCE_MS {
        return String::new();
    }
    let later = log > sim;
    let by = secs(log.abs_diff(sim));
    match what {
        Milestone::Generation(g) if later => format!(
            "the log shows generation {g} stabilising {by} later: the members rejoined later than the replay's (their processing time is longer than assumed, or the initial rebalance delay is longer than 3 s)"
        ),
        Milestone::Generation(g) => format!(
            "the log shows generation {g} stabilising {by} earlier: the replay waits longer for its members (its assumed processing time is longer than the real one)"
        ),
        Milestone::Epoch(e) if later => format!("the log bumps the group epoch to {e} {by} later"),
        Milestone::Epoch(e) => format!("the log bumps the group epoch to {e} {by} earlier"),
        Milestone::State(s) if s == "PreparingRebalance" && later => format!(
            "the log's rebalance starts {by} later: its trigger (a join, a leave, a timeout) came later than the replay places it"
        ),
        Milestone::State(s) if s == "PreparingRebalance" => format!(
            "the log's rebalance starts {by} earlier: its trigger came earlier than the replay places it (a timeout shorter than assumed?)"
        ),
        Milestone::State(s) if later => format!("the log enters {s} {by} later (the leader's assignment took longer than assumed)"),
        Milestone::State(s) => format!("the log enters {s} {by} earlier"),
    }
}

/// The comparison as text, one row per line: the log's side, the simulation's, the difference.
pub fn render(replay: &Replay, check: &Check) -> String {
    let cells: Vec<[String; 3]> = check
        .rows
        .iter()
        .map(|r| {
            let left = match r.log {
                Some((t, l)) => format!("{:>9}  {:<9} {}", secs(t), replay.where_is(l), r.what),
                None => format!("{:>9}", "-"),
            };
            let right = match r.sim {
                Some(t) => format!("{:>9}  {}", secs(t), r.what),
                None => format!("{:>9}", "-"),
            };
            let note = if r.note.is_empty() {
                "same".to_owned()
            } else {
                r.note.clone()
            };
            [left, right, note]
        })
        .collect();
    let w0 = cells
        .iter()
        .map(|c| c[0].chars().count())
        .max()
        .unwrap_or(0)
        .max(3);
    let w1 = cells
        .iter()
        .map(|c| c[1].chars().count())
        .max()
        .unwrap_or(0)
        .max(10);
    let mut out = format!("{:<w0$} | {:<w1$} | difference\n", "log", "simulation");
    for [l, r, n] in &cells {
        out.push_str(&format!("{l:<w0$} | {r:<w1$} | {n}\n"));
    }
    if let Some(c) = &check.coordinator {
        let (b, l) = c.log;
        out.push_str(&format!(
            "coordinator: the log's is broker {b} ({}), the replay's is broker {} (leader of __consumer_offsets-{}): {}\n",
            replay.where_is(l),
            c.sim,
            c.partition,
            if c.same() {
                "same".to_owned()
            } else {
                format!("differs (the replay could not place the group on broker {b}; see the assumptions)")
            }
        ));
    }
    out.push_str(&format!(
        "{} milestone(s) from the log, {} difference(s) (tolerance {TOLERANCE_MS} ms)\n",
        check.rows.iter().filter(|r| r.log.is_some()).count(),
        check.differences
    ));
    out
}
