//! The classic group coordinator's lines (reference §2, B1–B9): the Scala `GroupCoordinator` (≤ 4.0)
//! and the Java `GroupMetadataManager` (3.7+, 4.x), which print the same events in slightly different
//! words (the Java ones end with `.` and have no `(__consumer_offsets-N)`).

use regex_lite::Regex;

use super::story::Fact;

/// The compiled patterns.
pub(crate) struct BrokerClassic {
    preparing: Regex,
    stabilized: Regex,
    empty: Regex,
    failed: Regex,
    unknown_joins: Regex,
    static_replaced: Regex,
    static_replaced_old: Regex,
    static_new: Regex,
    assignment: Regex,
    left_scala: Regex,
    left_java: Regex,
    dead: Regex,
    no_rejoin: Regex,
}

impl BrokerClassic {
    pub(crate) fn new() -> Self {
        let re = |p: &str| Regex::new(p).expect("a constant pattern");
        Self {
            preparing: re(
                r"Preparing to rebalance group (\S+)(?: in state (\w+))? with old generation (-?\d+)(?: \(__consumer_offsets-\d+\))?(?: \(reason: (.*)\))?\.?$",
            ),
            stabilized: re(
                r"Stabilized group (\S+) generation (-?\d+)(?: \(__consumer_offsets-\d+\))?(?: with (\d+) members)?",
            ),
            empty: re(r"Group (\S+) with generation (-?\d+) is now empty"),
            failed: re(r"Member (\S+) in group (\S+) has failed, removing it from the group"),
            unknown_joins: re(
                r"(?:Dynamic|Static) [Mm]ember with unknown member id joins group (\S+) in (?:state )?\w+(?: state)?\. Created a new member id (\S+?)(?: and | for )",
            ),
            static_replaced: re(
                r"Static member with groupInstanceId=(\S+) and unknown member id joins group (\S+) in \w+ state\. Replacing previously mapped member (\S+) with this groupInstanceId",
            ),
            static_replaced_old: re(
                r"Static member Some\((\S+)\)(?: of group (\S+))? with unknown member id rejoins, assigning new member id (\S+), while old member(?: id)? (\S+) will be removed",
            ),
            static_new: re(
                r"Static member with groupInstanceId=(\S+) and unknown member id joins group (\S+) in \w+ state\. Created a new member id (\S+?) (?:for this member and add|and added)",
            ),
            assignment: re(
                r"Assignment received from leader (?:(\S+) )?for group (\S+) for generation (-?\d+)",
            ),
            left_scala: re(
                r"Member MemberMetadata\(memberId=([^,]+), groupInstanceId=([^,]+), clientId=([^,]+), clientHost=[^,]*, sessionTimeoutMs=(\d+), rebalanceTimeoutMs=(\d+), supportedProtocols=List\(([^)]*)\)\) has left group (\S+) through explicit `LeaveGroup`(?: request)?(?:; client reason: (.*))?$",
            ),
            left_java: re(
                r"\[Group(?:Id)? (\S+)\] (?:Dynamic )?[Mm]ember (\S+) has left group through explicit `LeaveGroup` request(?:; client reason: (.*))?$",
            ),
            dead: re(r"Group (\S+) transitioned to Dead in generation (-?\d+)"),
            no_rejoin: re(r"Group (\S+) could not complete rebalance because no members rejoined"),
        }
    }

    /// The fact a broker line states, with its group.
    pub(crate) fn recognise(&self, body: &str) -> Option<(String, Fact)> {
        let s = |c: &regex_lite::Captures<'_>, i: usize| c.get(i).map(|m| m.as_str().to_owned());
        let n = |c: &regex_lite::Captures<'_>, i: usize| {
            c.get(i).and_then(|m| m.as_str().parse::<i64>().ok()).unwrap_or(0)
        };
        if let Some(c) = self.preparing.captures(body) {
            return Some((
                c[1].to_owned(),
                Fact::Preparing {
                    old_generation: n(&c, 3),
                    reason: s(&c, 4),
                },
            ));
        }
        if let Some(c) = self.stabilized.captures(body) {
            return Some((
                c[1].to_owned(),
                Fact::Stabilized {
                    generation: n(&c, 2),
                    members: c.get(3).map(|_| n(&c, 3)),
                },
            ));
        }
        if let Some(c) = self.empty.captures(body) {
            return Some((c[1].to_owned(), Fact::Empty { generation: n(&c, 2) }));
        }
        if let Some(c) = self.failed.captures(body) {
            return Some((
                c[2].to_owned(),
                Fact::SessionExpired {
                    member: c[1].to_owned(),
                },
            ));
        }
        if let Some(c) = self.static_replaced.captures(body) {
            return Some((
                c[2].to_owned(),
                Fact::StaticReplaced {
                    instance: c[1].to_owned(),
                    old_member: c[3].to_owned(),
                    new_member: None,
                },
            ));
        }
        if let Some(c) = self.static_replaced_old.captures(body) {
            return Some((
                s(&c, 2).unwrap_or_default(),
                Fact::StaticReplaced {
                    instance: c[1].to_owned(),
                    old_member: c[4].to_owned(),
                    new_member: s(&c, 3),
                },
            ));
        }
        if let Some(c) = self.static_new.captures(body) {
            return Some((
                c[2].to_owned(),
                Fact::MemberIdGiven {
                    member: c[3].to_owned(),
                    instance: Some(c[1].to_owned()),
                },
            ));
        }
        if let Some(c) = self.unknown_joins.captures(body) {
            return Some((
                c[1].to_owned(),
                Fact::MemberIdGiven {
                    member: c[2].trim_end_matches('.').to_owned(),
                    instance: None,
                },
            ));
        }
        if let Some(c) = self.assignment.captures(body) {
            return Some((
                c[2].to_owned(),
                Fact::AssignmentReceived {
                    leader: s(&c, 1),
                    generation: n(&c, 3),
                },
            ));
        }
        if let Some(c) = self.left_scala.captures(body) {
            let instance = option_value(&c[2]);
            return Some((
                c[7].to_owned(),
                Fact::Left {
                    member: c[1].to_owned(),
                    client_id: Some(c[3].to_owned()),
                    instance,
                    session_timeout_ms: Some(n(&c, 4) as u64),
                    rebalance_timeout_ms: Some(n(&c, 5) as u64),
                    protocols: c[6]
                        .split(", ")
                        .filter(|p| !p.is_empty())
                        .map(str::to_owned)
                        .collect(),
                    reason: s(&c, 8),
                },
            ));
        }
        if let Some(c) = self.left_java.captures(body) {
            return Some((
                c[1].to_owned(),
                Fact::Left {
                    member: c[2].to_owned(),
                    client_id: None,
                    instance: None,
                    session_timeout_ms: None,
                    rebalance_timeout_ms: None,
                    protocols: Vec::new(),
                    reason: s(&c, 3),
                },
            ));
        }
        if let Some(c) = self.dead.captures(body) {
            return Some((c[1].to_owned(), Fact::Dead { generation: n(&c, 2) }));
        }
        if let Some(c) = self.no_rejoin.captures(body) {
            return Some((c[1].to_owned(), Fact::NoRejoin));
        }
        None
    }
}

/// `None`, `Some(app-1)`, `Optional.empty`, `Optional[app-1]`, `null` or a bare id → the id.
pub(crate) fn option_value(v: &str) -> Option<String> {
    let v = v.trim();
    let inner = v
        .strip_prefix("Some(")
        .and_then(|r| r.strip_suffix(')'))
        .or_else(|| v.strip_prefix("Optional[").and_then(|r| r.strip_suffix(']')))
        .unwrap_or(v);
    match inner {
        "" | "None" | "null" | "Optional.empty" => None,
        id => Some(id.to_owned()),
    }
}
