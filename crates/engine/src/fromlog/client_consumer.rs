//! The 4.x consumer's lines (reference §5): `ConsumerMembershipManager` /
//! `AbstractMembershipManager` state transitions and `ConsumerHeartbeatRequestManager` errors. The
//! shared lines (poll timeout, revocations) are the classic recogniser's.

use regex_lite::Regex;

use super::story::Fact;

/// The compiled patterns.
pub(crate) struct ClientConsumer {
    transition: Regex,
    fenced: Regex,
    unknown: Regex,
}

impl ClientConsumer {
    pub(crate) fn new() -> Self {
        let re = |p: &str| Regex::new(p).expect("a constant pattern");
        Self {
            transition: re(r"^Member (\S+) with epoch (-?\d+) transitioned from (\w+) to (\w+)\.?"),
            fenced: re(
                r"ConsumerGroupHeartbeatRequest failed for member (\S+) because epoch (-?\d+) is fenced",
            ),
            unknown: re(r"ConsumerGroupHeartbeatRequest failed because member (\S+) is unknown"),
        }
    }

    /// The fact a 4.x consumer line states (the group is the prefix's).
    pub(crate) fn recognise(&self, body: &str) -> Option<Fact> {
        if let Some(c) = self.transition.captures(body) {
            return Some(Fact::Transition {
                member: c[1].to_owned(),
                epoch: c[2].parse().unwrap_or(0),
                from: c[3].to_owned(),
                to: c[4].to_owned(),
            });
        }
        if let Some(c) = self.fenced.captures(body) {
            return Some(Fact::Kicked {
                error: format!("FENCED_MEMBER_EPOCH (member {}, epoch {})", &c[1], &c[2]),
            });
        }
        if let Some(c) = self.unknown.captures(body) {
            return Some(Fact::Kicked {
                error: format!("UNKNOWN_MEMBER_ID (member {})", &c[1]),
            });
        }
        None
    }
}
