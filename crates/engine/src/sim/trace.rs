//! The simulation's log rendered as traces: the readable text ([`Simulation::trace_text`], with
//! its [`Simulation::summary`]) and JSON lines ([`Simulation::trace_jsonl`]). The golden files
//! are these strings.

use super::Simulation;

impl Simulation {
    /// The readable trace: one line per event (detail events only if `detail`), then the summary
    /// lines prefixed with `# `.
    pub fn trace_text(&self, detail: bool) -> String {
        let mut out = String::new();
        for e in &self.log {
            if detail || !e.is_detail() {
                out.push_str(&e.to_string());
                out.push('\n');
            }
        }
        for line in self.summary() {
            out.push_str("# ");
            out.push_str(&line);
            out.push('\n');
        }
        out
    }

    /// The machine-readable trace: one JSON object per event and line.
    pub fn trace_jsonl(&self) -> String {
        let mut out = String::new();
        for e in &self.log {
            // Serialising plain data into a String cannot fail.
            out.push_str(&serde_json::to_string(e).unwrap_or_default());
            out.push('\n');
        }
        out
    }

    /// A short summary of the final state, one line per fact (for the text trace).
    pub fn summary(&self) -> Vec<String> {
        let mut out = Vec::new();
        let g = self.group();
        out.push(format!(
            "group {}: {} generation {} protocol {:?}",
            self.group_id,
            g.group_state,
            self.group_snapshot().map_or(-1, |s| s.generation_id),
            g.protocol_data
        ));
        for c in self.consumers() {
            let parts: Vec<String> = c.partitions.iter().map(|p| p.partition.to_string()).collect();
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
