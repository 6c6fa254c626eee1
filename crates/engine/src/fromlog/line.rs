//! Line anatomy (reference `kafka-log-lines.md` §1): the log4j prefix `[%d] %p %m (%c)`, or any of
//! the usual other layouts (`%d %p [%t] %c - %m`, Logback's `HH:mm:ss.SSS [thread] LEVEL logger - `,
//! Spring Boot's `... --- [thread] logger : `), then the source's own prefix: the Scala coordinator's
//! `[GroupCoordinator 2]: `, the Java coordinator shard's `[GroupCoordinator id=2 topic=... partition=5] `,
//! or the client's `[Consumer instanceId=..., clientId=..., groupId=...] `.
//!
//! Every field is optional: a deployment may override the pattern, so the recognisers key on the
//! message text, not on positions.

use regex_lite::Regex;

/// Where a line comes from, as its prefix says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Origin {
    /// A broker's group coordinator (`broker` from its prefix).
    Broker {
        /// The broker id.
        broker: Option<i32>,
    },
    /// A consumer client.
    Client {
        /// `client.id`.
        client_id: String,
        /// `group.id`.
        group_id: Option<String>,
        /// `group.instance.id`, for a static member.
        instance_id: Option<String>,
    },
    /// No recognised prefix (the client's `ConsumerUtils` lines, or another logger).
    Unknown,
}

/// One line, taken apart.
#[derive(Clone, Debug)]
pub(crate) struct Anatomy<'a> {
    /// Milliseconds since 1970-01-01 (UTC as printed; the zone is not in the default pattern), or
    /// since midnight when the layout prints only a time.
    pub at_ms: Option<i64>,
    /// Whether the time had no date.
    pub time_only: bool,
    /// The message after every prefix, without the trailing ` (logger)`.
    pub body: &'a str,
    /// The source.
    pub origin: Origin,
    /// The `__consumer_offsets` partition the line names: the Java coordinator's
    /// `partition=N` prefix or the Scala lines' `(__consumer_offsets-N)` (broker lines only).
    pub offsets_partition: Option<i32>,
}

/// The compiled patterns of the line anatomy.
pub(crate) struct Prefixes {
    date_time: Regex,
    time_only: Regex,
    scala_broker: Regex,
    java_broker: Regex,
    client: Regex,
    logger_suffix: Regex,
    scala_gmm: Regex,
    offsets_partition: Regex,
}

impl Prefixes {
    pub(crate) fn new() -> Self {
        // The patterns are constants; compiling them cannot fail.
        let re = |p: &str| Regex::new(p).expect("a constant pattern");
        Self {
            date_time: re(r"(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:[,.](\d{1,9}))?"),
            time_only: re(r"^\[?(\d{2}):(\d{2}):(\d{2})[,.](\d{1,9})"),
            scala_broker: re(r"\[GroupCoordinator (\d+)\]: "),
            java_broker: re(r"\[GroupCoordinator id=(\d+)(?: topic=\S+ partition=(\d+))?\] "),
            client: re(r"\[Consumer (?:instanceId=([^,\]]*), )?clientId=([^,\]]*), groupId=([^\]]*)\] "),
            logger_suffix: re(r" \((?:kafka|org\.apache\.kafka)[\w.$]*\)\s*$"),
            scala_gmm: re(r"\[GroupMetadataManager brokerId=(\d+)\] "),
            offsets_partition: re(r"\(__consumer_offsets-(\d+)\)"),
        }
    }

    /// Takes the line apart. The time is searched for in the first 64 bytes only.
    pub(crate) fn anatomy<'a>(&self, line: &'a str) -> Anatomy<'a> {
        let head = prefix_of(line, 64);
        let (mut at_ms, mut time_only) = (None, false);
        if let Some(c) = self.date_time.captures(head) {
            let n = |i: usize| c.get(i).map_or(0, |m| m.as_str().parse::<i64>().unwrap_or(0));
            let frac = c.get(7).map_or(0, |m| millis_of(m.as_str()));
            if (1..=12).contains(&n(2)) && (1..=31).contains(&n(3)) && n(4) < 24 && n(5) < 60 && n(6) < 61 {
                let days = days_from_civil(n(1), n(2), n(3));
                at_ms = Some(((days * 24 + n(4)) * 60 + n(5)) * 60_000 + n(6) * 1000 + frac);
            }
        } else if let Some(c) = self.time_only.captures(head) {
            let n = |i: usize| c.get(i).map_or(0, |m| m.as_str().parse::<i64>().unwrap_or(0));
            if n(1) < 24 && n(2) < 60 && n(3) < 61 {
                at_ms = Some((n(1) * 60 + n(2)) * 60_000 + n(3) * 1000 + millis_of(&c[4]));
                time_only = true;
            }
        }
        let mut body = line.trim_end();
        if let Some(m) = self.logger_suffix.find(body) {
            body = &body[..m.start()];
        }
        let mut origin = Origin::Unknown;
        let mut offsets_partition = None;
        // An id or partition too large for an i32 is not one (`None`).
        let number = |m: Option<regex_lite::Match<'_>>| m.and_then(|m| m.as_str().parse::<i32>().ok());
        if let Some(c) = self.client.captures(body) {
            let whole = c.get(0).map_or(0..0, |m| m.range());
            let opt = |s: Option<regex_lite::Match<'_>>| {
                s.map(|m| m.as_str().to_owned())
                    .filter(|s| !s.is_empty() && s != "null")
            };
            origin = Origin::Client {
                client_id: c.get(2).map_or_else(String::new, |m| m.as_str().to_owned()),
                group_id: opt(c.get(3)),
                instance_id: opt(c.get(1)),
            };
            body = &body[whole.end..];
        } else if let Some(c) = self
            .java_broker
            .captures(body)
            .or_else(|| self.scala_broker.captures(body))
        {
            let whole = c.get(0).map_or(0..0, |m| m.range());
            origin = Origin::Broker {
                broker: number(c.get(1)),
            };
            offsets_partition = number(c.get(2));
            body = &body[whole.end..];
        } else if let Some(c) = self.scala_gmm.captures(body) {
            let whole = c.get(0).map_or(0..0, |m| m.range());
            origin = Origin::Broker {
                broker: number(c.get(1)),
            };
            body = &body[whole.end..];
        } else if body.contains("[GroupMetadataManager brokerId=") {
            if let Some(i) = body.find("] ") {
                origin = Origin::Broker { broker: None };
                body = &body[i + 2..];
            }
        }
        if matches!(origin, Origin::Broker { .. }) && offsets_partition.is_none() {
            offsets_partition = number(self.offsets_partition.captures(body).and_then(|c| c.get(1)));
        }
        Anatomy {
            at_ms,
            time_only,
            body,
            origin,
            offsets_partition,
        }
    }
}

/// The first `n` bytes of `s`, cut at a character boundary.
pub(crate) fn prefix_of(s: &str, n: usize) -> &str {
    if s.len() <= n {
        return s;
    }
    let mut end = n;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// `123` → 123 ms, `1` → 100 ms, `123456789` → 123 ms.
fn millis_of(digits: &str) -> i64 {
    let mut ms = 0;
    for (i, d) in digits.bytes().take(3).enumerate() {
        ms += i64::from(d - b'0') * [100, 10, 1][i];
    }
    ms
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log4j_default_pattern() {
        let p = Prefixes::new();
        let a = p.anatomy("[2024-05-01 10:05:15,409] INFO [GroupCoordinator 2]: Stabilized group orders-app generation 2 (__consumer_offsets-5) with 2 members (kafka.coordinator.group.GroupCoordinator)");
        assert_eq!(
            a.body,
            "Stabilized group orders-app generation 2 (__consumer_offsets-5) with 2 members"
        );
        assert_eq!(a.origin, Origin::Broker { broker: Some(2) });
        // 2024-05-01 is day 19844 since the epoch.
        assert_eq!(a.at_ms, Some(19_844 * 86_400_000 + 36_315_409));
    }

    #[test]
    fn client_prefix_with_instance_id() {
        let p = Prefixes::new();
        let a = p.anatomy("10:00:01.5 [main] INFO o.a.k.c.c.i.ConsumerCoordinator - [Consumer instanceId=app-1, clientId=c-1, groupId=g] (Re-)joining group");
        assert_eq!(a.body, "(Re-)joining group");
        assert!(a.time_only);
        assert_eq!(a.at_ms, Some(36_001_500));
        assert_eq!(
            a.origin,
            Origin::Client {
                client_id: "c-1".into(),
                group_id: Some("g".into()),
                instance_id: Some("app-1".into())
            }
        );
    }
}
