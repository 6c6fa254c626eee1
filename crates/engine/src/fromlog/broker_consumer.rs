//! The KIP-848 coordinator's lines (reference §3): `[GroupId G] ...` from the Java
//! `GroupMetadataManager`, 3.8+ (preview) and 4.x.

use regex_lite::Regex;

use super::story::Fact;

/// The compiled patterns.
pub(crate) struct BrokerConsumer {
    group: Regex,
    joins: Regex,
    static_joins: Regex,
    static_rejoins: Regex,
    bumped: Regex,
    target: Regex,
    left: Regex,
    session: Regex,
    revocation: Regex,
}

impl BrokerConsumer {
    pub(crate) fn new() -> Self {
        let re = |p: &str| Regex::new(p).expect("a constant pattern");
        Self {
            group: re(r"^\[GroupId (\S+)\] (.*)$"),
            joins: re(r"^Member (\S+) joins the consumer group using the (\w+) protocol"),
            static_joins: re(
                r"^Static member (\S+) with instance id (\S+) joins the consumer group using the (\w+) protocol",
            ),
            static_rejoins: re(
                r"^Static member with instance id (\S+) re-joins the consumer group using the (\w+) protocol\. Created a new member (\S+) to replace the existing member (\S+?)\.?$",
            ),
            bumped: re(r"^Bumped group epoch to (-?\d+)"),
            target: re(r"^Computed a new target assignment for epoch (-?\d+) with '([^']*)' assignor"),
            left: re(
                r"^(?:Static [Mm]ember (\S+) with instance id (\S+)|Member (\S+)) (temporarily )?left the consumer group",
            ),
            session: re(
                r"^Member (\S+) fenced from the group because (?:the member session expired|its session expired)",
            ),
            revocation: re(
                r"^Member (\S+) fenced from the group because it failed to (?:transition from epoch -?\d+|revoke partitions) within (\d+)ms",
            ),
        }
    }

    /// The fact a `[GroupId G]` line states, with its group.
    pub(crate) fn recognise(&self, body: &str) -> Option<(String, Fact)> {
        let g = self.group.captures(body)?;
        let group = g[1].to_owned();
        let rest = g.get(2).map_or("", |m| m.as_str());
        let n = |c: &regex_lite::Captures<'_>, i: usize| {
            c.get(i).and_then(|m| m.as_str().parse::<i64>().ok()).unwrap_or(0)
        };
        let fact = if let Some(c) = self.static_rejoins.captures(rest) {
            Fact::EpochJoin {
                member: c[3].to_owned(),
                instance: Some(c[1].to_owned()),
                protocol: c[2].to_owned(),
                replaces: Some(c[4].to_owned()),
            }
        } else if let Some(c) = self.static_joins.captures(rest) {
            Fact::EpochJoin {
                member: c[1].to_owned(),
                instance: Some(c[2].to_owned()),
                protocol: c[3].to_owned(),
                replaces: None,
            }
        } else if let Some(c) = self.joins.captures(rest) {
            Fact::EpochJoin {
                member: c[1].to_owned(),
                instance: None,
                protocol: c[2].to_owned(),
                replaces: None,
            }
        } else if let Some(c) = self.bumped.captures(rest) {
            Fact::EpochBumped { epoch: n(&c, 1) }
        } else if let Some(c) = self.target.captures(rest) {
            Fact::TargetComputed {
                epoch: n(&c, 1),
                assignor: c[2].to_owned(),
            }
        } else if let Some(c) = self.left.captures(rest) {
            Fact::EpochLeft {
                member: c
                    .get(1)
                    .or(c.get(3))
                    .map_or_else(String::new, |m| m.as_str().to_owned()),
                temporarily: c.get(4).is_some(),
            }
        } else if let Some(c) = self.session.captures(rest) {
            Fact::SessionExpired {
                member: c[1].to_owned(),
            }
        } else if let Some(c) = self.revocation.captures(rest) {
            Fact::RevocationTimeout {
                member: c[1].to_owned(),
                within_ms: n(&c, 2) as u64,
            }
        } else if rest.starts_with("Converted the ") {
            Fact::Converted {
                text: rest.trim_end_matches('.').to_owned(),
            }
        } else {
            return None;
        };
        Some((group, fact))
    }
}
