//! The simulation's log rendered as traces: the readable text ([`Simulation::trace_text`], with
//! its [`Simulation::summary`]) and JSON lines ([`Simulation::trace_jsonl`]). The golden files
//! are these strings; [`write_text`] and [`write_jsonl`] write the same lines piece by piece (the
//! CLI streams them as the simulation runs).

use std::io::{self, Write};

use super::{LogLevel, SimEvent, Simulation};

/// Writes `events` as lines of the readable trace ([`Simulation::trace_text`] without the summary):
/// detail events only if `detail`. A trace streamed in pieces ([`Simulation::take_log`] after
/// every step) is the same bytes as the whole trace at the end.
pub fn write_text(events: &[SimEvent], detail: bool, out: &mut impl Write) -> io::Result<()> {
    for e in events {
        if detail || !e.is_detail() {
            writeln!(out, "{e}")?;
        }
    }
    Ok(())
}

/// Writes `events` as JSON lines ([`Simulation::trace_jsonl`]): one object per event and line.
pub fn write_jsonl(events: &[SimEvent], out: &mut impl Write) -> io::Result<()> {
    for e in events {
        serde_json::to_writer(&mut *out, e)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

impl Simulation {
    /// How much of the log is kept ([`Simulation::set_log_level`]).
    pub fn log_level(&self) -> LogLevel {
        self.log_level
    }

    /// Sets how many events count as emitted: a [`crate::Session`] that replayed recorded time
    /// with the log off (building no event) puts back the count the recording had there.
    pub(crate) fn set_events_emitted(&mut self, n: u64) {
        self.next_seq = n + 1;
    }

    /// The readable trace: one line per event (detail events only if `detail`), then the summary
    /// lines prefixed with `# `.
    pub fn trace_text(&self, detail: bool) -> String {
        let mut out = Vec::new();
        // Writing into a Vec cannot fail.
        let _ = write_text(&self.log, detail, &mut out).and_then(|()| self.write_summary(&mut out));
        // Every line is UTF-8 text.
        String::from_utf8(out).unwrap_or_default()
    }

    /// The machine-readable trace: one JSON object per event and line.
    pub fn trace_jsonl(&self) -> String {
        let mut out = Vec::new();
        let _ = write_jsonl(&self.log, &mut out);
        String::from_utf8(out).unwrap_or_default()
    }

    /// Writes the [`Simulation::summary`] lines, each prefixed with `# ` (the end of the text trace).
    pub fn write_summary(&self, out: &mut impl Write) -> io::Result<()> {
        for line in self.summary() {
            out.write_all(b"# ")?;
            out.write_all(line.as_bytes())?;
            out.write_all(b"\n")?;
        }
        Ok(())
    }

    /// A short summary of the final state, one line per fact (for the text trace).
    pub fn summary(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(cg) = self.consumer_group() {
            out.push(format!(
                "consumer group {}: {} group epoch {} assignment epoch {} assignor {}",
                self.group_id,
                cg.state.name(),
                cg.group_epoch,
                cg.assignment_epoch,
                cg.assignor
            ));
        } else {
            let g = self.group();
            out.push(format!(
                "group {}: {} generation {} protocol {:?}",
                self.group_id,
                g.group_state,
                self.group_snapshot().map_or(-1, |s| s.generation_id),
                g.protocol_data
            ));
        }
        for c in self.consumers() {
            let parts: Vec<String> = c.partitions.iter().map(|p| p.partition.to_string()).collect();
            if let Some(cp) = &c.consumer_protocol {
                out.push(format!(
                    "consumer {}: {:?} {} epoch {} owns [{}], processed {}, duplicates {}",
                    c.name,
                    c.lifecycle,
                    cp.state,
                    cp.member_epoch,
                    parts.join(", "),
                    c.records_processed,
                    c.duplicates
                ));
                continue;
            }
            out.push(format!(
                "consumer {}: {:?} {} gen {} owns [{}], processed {}, duplicates {}",
                c.name,
                c.lifecycle,
                c.member_state,
                c.generation,
                parts.join(", "),
                c.records_processed,
                c.duplicates
            ));
        }
        for (tp, o) in self.committed_offsets() {
            out.push(format!("committed {tp} = {o}"));
        }
        // The cluster, once something happened to it.
        let p = self.offsets_partition();
        let eventful = p.leader_epoch > 0
            || p.isr.len() != p.replicas.len()
            || self.brokers().iter().any(|b| !b.alive || b.slowed.is_some());
        if eventful {
            let leos: Vec<String> = p
                .replicas
                .iter()
                .map(|r| {
                    format!(
                        "{}{}: {}",
                        r.broker.0,
                        if r.alive { "" } else { " (down)" },
                        r.log_end_offset
                    )
                })
                .collect();
            out.push(format!(
                "__consumer_offsets-{}: leader {}, epoch {}, ISR {:?}, HW {}, LEO [{}]",
                p.partition,
                p.leader.map_or("none".to_owned(), |l| format!("broker {}", l.0)),
                p.leader_epoch,
                p.isr.iter().map(|b| b.0).collect::<Vec<_>>(),
                p.high_watermark,
                leos.join(", ")
            ));
        }
        out
    }
}
