//! The classic Java client's lines (reference §4, C1–C21): `AbstractCoordinator` and
//! `ConsumerCoordinator` (both logged as `ConsumerCoordinator`), `ConsumerRebalanceListenerInvoker`
//! (3.7+) and `KafkaConsumer` / `LegacyKafkaConsumer` / `ClassicKafkaConsumer` (C1). The texts changed
//! across 2.x–4.x; each pattern accepts every variant the reference lists.

use regex_lite::Regex;

use super::story::Fact;

/// The compiled patterns.
pub(crate) struct ClientClassic {
    subscribed: Regex,
    discovered: Regex,
    joining: Regex,
    rejoin: Regex,
    joined: Regex,
    synced: Regex,
    finished: Regex,
    assignment_entry: Regex,
    added: Regex,
    revoked: Regex,
    leave: Regex,
    kicked: Regex,
    kicked_old: Regex,
    fenced: Regex,
}

impl ClientClassic {
    pub(crate) fn new() -> Self {
        let re = |p: &str| Regex::new(p).expect("a constant pattern");
        Self {
            subscribed: re(r"^Subscribed to topic\(s\): (.*)$"),
            discovered: re(r"^Discovered group coordinator (\S+) \(id: (-?\d+)"),
            joining: re(r"^\(Re-\)joining group"),
            rejoin: re(r"^Request joining group due to: (.*)$"),
            joined: re(
                r"^Successfully joined group with generation (?:Generation\{generationId=(-?\d+), memberId='([^']*)', protocol='([^']*)'\}|(-?\d+))",
            ),
            synced: re(
                r"^Successfully synced group in generation (?:Generation\{generationId=(-?\d+)|(-?\d+))",
            ),
            finished: re(r"^Finished assignment for group(?: at generation (-?\d+))?: \{(.*)\}"),
            assignment_entry: re(r"(\S+?)=Assignment\(partitions=\[([^\]]*)\]"),
            added: re(r"^(?:Adding|Setting) newly assigned partitions:? \[?([^\]]*)\]?$"),
            revoked: re(r"^(?:Revoke|Revoking) previously assigned partitions:? \[?([^\]]*)\]?$"),
            leave: re(r"^Member (\S+) sending LeaveGroup request to coordinator .*?(?: due to (.*))?$"),
            kicked: re(r"^Attempt to heartbeat with .* failed due to (\w+), resetting generation"),
            kicked_old: re(r"^Attempt to heartbeat failed for since member id (\S+) is not valid"),
            fenced: re(r"^JoinGroup failed: The group instance id (\S+) has been fenced"),
        }
    }

    /// The fact a client line states (the group is the prefix's).
    pub(crate) fn recognise(&self, body: &str) -> Option<Fact> {
        let n = |m: Option<regex_lite::Match<'_>>| m.and_then(|m| m.as_str().parse::<i64>().ok());
        if let Some(c) = self.subscribed.captures(body) {
            return Some(Fact::Subscribed {
                topics: c[1]
                    .split(", ")
                    .map(|t| t.trim().to_owned())
                    .filter(|t| !t.is_empty())
                    .collect(),
            });
        }
        if let Some(c) = self.discovered.captures(body) {
            // The client's coordinator id is Integer.MAX_VALUE - brokerId (reference §1).
            let id = n(c.get(2)).unwrap_or(0);
            return Some(Fact::CoordinatorFound {
                broker: (i64::from(i32::MAX) - id) as i32,
            });
        }
        if self.joining.is_match(body) {
            return Some(Fact::Joining);
        }
        if let Some(c) = self.rejoin.captures(body) {
            return Some(Fact::RejoinRequested {
                reason: c[1].to_owned(),
            });
        }
        if let Some(c) = self.joined.captures(body) {
            return Some(Fact::Joined {
                generation: n(c.get(1)).or(n(c.get(4))).unwrap_or(0),
                member: c.get(2).map(|m| m.as_str().to_owned()),
                protocol: c.get(3).map(|m| m.as_str().to_owned()),
            });
        }
        if let Some(c) = self.synced.captures(body) {
            return Some(Fact::Synced {
                generation: n(c.get(1)).or(n(c.get(2))).unwrap_or(0),
            });
        }
        if let Some(c) = self.finished.captures(body) {
            let assignment = self
                .assignment_entry
                .captures_iter(&c[2])
                .map(|e| (e[1].trim_start_matches([',', ' ']).to_owned(), partitions(&e[2])))
                .collect();
            return Some(Fact::LeaderAssigned {
                generation: n(c.get(1)),
                assignment,
            });
        }
        if let Some(c) = self.added.captures(body) {
            return Some(Fact::Assigned {
                partitions: partitions(&c[1]),
            });
        }
        if let Some(c) = self.revoked.captures(body) {
            return Some(Fact::Revoked {
                partitions: partitions(&c[1]),
            });
        }
        if body.starts_with("Lost previously assigned partitions") {
            return Some(Fact::Lost);
        }
        if let Some(c) = self.leave.captures(body) {
            return Some(Fact::LeaveSent {
                member: c[1].to_owned(),
                reason: c.get(2).map(|m| m.as_str().trim_end_matches('.').to_owned()),
            });
        }
        // C18 (3.0+ WARN; 2.1–2.3 "This member will leave the group because ..."), and the 4.x
        // consumer's capitalised variant.
        if body.contains("onsumer poll timeout has expired") {
            return Some(Fact::PollTimeout);
        }
        if let Some(c) = self.kicked.captures(body) {
            return Some(Fact::Kicked {
                error: c[1].to_owned(),
            });
        }
        if self.kicked_old.is_match(body) {
            return Some(Fact::Kicked {
                error: "UNKNOWN_MEMBER_ID".into(),
            });
        }
        if let Some(c) = self.fenced.captures(body) {
            return Some(Fact::InstanceFenced {
                instance: c[1].to_owned(),
            });
        }
        if body.starts_with("OffsetCommit failed with ")
            || body.starts_with("Commit cannot be completed since the group has already rebalanced")
        {
            return Some(Fact::CommitFailed);
        }
        None
    }
}

/// `orders-0, orders-1` → the partitions (at most 10 000 kept).
pub(crate) fn partitions(list: &str) -> Vec<String> {
    list.split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .take(10_000)
        .map(str::to_owned)
        .collect()
}
