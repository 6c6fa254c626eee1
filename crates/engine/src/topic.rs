//! Topics, partitions and producers: just enough of a cluster for consumption to be real.
//!
//! Records are numbered per partition (offsets 0, 1, 2, ...). A topic's producer writes
//! `records_per_sec` records per second, spread round-robin over the partitions. The log end offset
//! of a partition is computed from the clock on demand, so producing costs nothing per record: no
//! event, no timer.
//!
//! Subscriptions are a list of topics or a pattern ([`Pattern`]: the part of Java's regular
//! expressions that RE2/J and regex-lite share, matched in linear time against the whole topic name,
//! as Java's `Pattern.matcher(topic).matches()`).

use crate::collections::Map;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::protocol::TopicPartition;
use crate::scenario::MAX_PARTITIONS;
use crate::sort::sort;
use crate::time::SimTime;

// ------------------------------------------------------------------------------------------------
// Topics
// ------------------------------------------------------------------------------------------------

/// One topic and its producer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Topic {
    /// The topic name.
    pub name: String,
    /// Records per second written by the producer (round-robin over partitions).
    pub records_per_sec: u64,
    /// Log end offsets at `epoch`.
    base: Vec<i64>,
    /// When `base` was taken.
    epoch: SimTime,
    /// The partition that receives the next record after `epoch`.
    cursor: usize,
}

impl Topic {
    /// A topic created at `now` with `partitions` partitions, each already holding
    /// `initial_records` records.
    pub fn new(
        name: impl Into<String>,
        partitions: i32,
        records_per_sec: u64,
        initial_records: i64,
        now: SimTime,
    ) -> Self {
        Self {
            name: name.into(),
            records_per_sec,
            base: vec![initial_records.max(0); partitions.max(0) as usize],
            epoch: now,
            cursor: 0,
        }
    }

    /// The number of partitions.
    pub fn partitions(&self) -> i32 {
        self.base.len() as i32
    }

    fn produced_since_epoch(&self, now: SimTime) -> u64 {
        let ms = now.saturating_since(self.epoch).as_millis();
        // u128 so that an hour at a million records per second cannot overflow.
        u64::try_from(ms as u128 * self.records_per_sec as u128 / 1000).unwrap_or(u64::MAX)
    }

    /// The log end offset (the offset of the next record to be written) of `partition` at `now`.
    pub fn log_end_offset(&self, partition: i32, now: SimTime) -> Option<i64> {
        let n = self.base.len();
        if partition < 0 || partition as usize >= n {
            return None;
        }
        let p = partition as usize;
        let total = self.produced_since_epoch(now);
        // Record k (k = 0, 1, ...) after the epoch goes to partition (cursor + k) mod n.
        let d = ((p + n - self.cursor % n) % n) as u64;
        let count = if total > d {
            (total - d - 1) / n as u64 + 1
        } else {
            0
        };
        Some(self.base[p].saturating_add(i64::try_from(count).unwrap_or(i64::MAX)))
    }

    /// Freezes the current log end offsets into the base (before the partition count or rate
    /// changes).
    fn rebase(&mut self, now: SimTime) {
        let n = self.base.len();
        if n == 0 {
            self.epoch = now;
            return;
        }
        let total = self.produced_since_epoch(now);
        let leos: Vec<i64> = (0..n as i32)
            .map(|p| self.log_end_offset(p, now).unwrap_or(0))
            .collect();
        self.base = leos;
        self.cursor = ((self.cursor as u64 + total) % n as u64) as usize;
        self.epoch = now;
    }
}

/// Every topic of the cluster, by name.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Topics {
    topics: Map<String, Topic>,
}

impl Topics {
    /// No topics.
    pub fn new() -> Self {
        Self::default()
    }

    /// Creates a topic. Returns `false` (and changes nothing) if it exists or `partitions` is not in
    /// `1..=MAX_PARTITIONS` ([`crate::scenario::MAX_PARTITIONS`]).
    pub fn create(
        &mut self,
        name: &str,
        partitions: i32,
        records_per_sec: u64,
        initial_records: i64,
        now: SimTime,
    ) -> bool {
        if !(1..=MAX_PARTITIONS).contains(&partitions) || self.topics.contains_key(name) {
            return false;
        }
        self.topics.insert(
            name.to_owned(),
            Topic::new(name, partitions, records_per_sec, initial_records, now),
        );
        true
    }

    /// Deletes a topic. Returns whether it existed.
    pub fn delete(&mut self, name: &str) -> bool {
        self.topics.remove(name).is_some()
    }

    /// Grows a topic to `partitions` partitions (Kafka can only add partitions). Returns `false` if
    /// the topic is missing or `partitions` is not larger (or above
    /// [`crate::scenario::MAX_PARTITIONS`]).
    pub fn add_partitions(&mut self, name: &str, partitions: i32, now: SimTime) -> bool {
        let Some(t) = self.topics.get_mut(name) else {
            return false;
        };
        if partitions <= t.partitions() || partitions > MAX_PARTITIONS {
            return false;
        }
        t.rebase(now);
        t.base.resize(partitions as usize, 0);
        true
    }

    /// Changes a topic's produce rate. Returns `false` if the topic is missing.
    pub fn set_rate(&mut self, name: &str, records_per_sec: u64, now: SimTime) -> bool {
        let Some(t) = self.topics.get_mut(name) else {
            return false;
        };
        t.rebase(now);
        t.records_per_sec = records_per_sec;
        true
    }

    /// A topic.
    pub fn get(&self, name: &str) -> Option<&Topic> {
        self.topics.get(name)
    }

    /// Whether a topic exists.
    pub fn contains(&self, name: &str) -> bool {
        self.topics.contains_key(name)
    }

    /// Every topic, by name.
    pub fn iter(&self) -> impl Iterator<Item = &Topic> {
        self.topics.values()
    }

    /// Topic name → partition count: what a metadata response tells a client.
    pub fn metadata(&self) -> Map<String, i32> {
        Map::from_iter(self.topics.iter().map(|(n, t)| (n.clone(), t.partitions())))
    }

    /// The log end offset of a partition at `now`, if it exists.
    pub fn log_end_offset(&self, tp: &TopicPartition, now: SimTime) -> Option<i64> {
        self.topics.get(&tp.topic)?.log_end_offset(tp.partition, now)
    }
}

// ------------------------------------------------------------------------------------------------
// Subscriptions
// ------------------------------------------------------------------------------------------------

/// What a consumer subscribes to (`subscribe(Collection)` or `subscribe(Pattern)`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Subscription {
    /// A fixed list of topics; missing ones are simply not assigned until they are created.
    Topics(Vec<String>),
    /// Every topic whose whole name matches the pattern (see [`Pattern`]).
    Pattern(String),
}

impl Subscription {
    /// The subscribed topics given the cluster's topic names, sorted. A list subscription keeps its
    /// topics even when they do not exist (Kafka sends them in JoinGroup anyway).
    pub fn resolve<'a>(&self, existing: impl Iterator<Item = &'a String>) -> Vec<String> {
        match self {
            Self::Topics(ts) => {
                let mut v = ts.clone();
                sort(&mut v);
                v.dedup();
                v
            }
            Self::Pattern(p) => match Pattern::new(p) {
                Ok(pat) => existing.filter(|t| pat.matches(t)).cloned().collect(),
                Err(_) => Vec::new(),
            },
        }
    }
}

impl fmt::Display for Subscription {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Topics(ts) => write!(f, "[{}]", ts.join(", ")),
            Self::Pattern(p) => write!(f, "pattern /{p}/"),
        }
    }
}

// ------------------------------------------------------------------------------------------------
// Topic patterns
// ------------------------------------------------------------------------------------------------

/// The longest pattern accepted, in characters.
pub const MAX_PATTERN_CHARS: usize = 1_000;

/// The deepest nesting of groups `( )` and classes `[ ]` accepted.
pub const MAX_PATTERN_NESTING: usize = 32;

/// The most memory the compiled pattern may take (regex-lite's `size_limit`, in bytes): it bounds
/// counted repetitions such as `a{1000}{1000}` and the work of each match.
pub const MAX_PATTERN_COMPILED_BYTES: usize = 64 * 1024;

/// A topic pattern, matched against the whole topic name like Java's
/// `Pattern.compile(p).matcher(topic).matches()`, in time linear in the name (regex-lite's
/// automaton: no backtracking, no recursion while matching).
///
/// The syntax is the part of Java's `java.util.regex.Pattern` that RE2/J (which the broker uses for
/// KIP-848's `SubscribedTopicRegex`) and regex-lite read the same way:
///
/// * literals; `.`; classes `[a-z0-9_]`, `[^...]`, nested `[a[bc]]`; `\d \D \s \S \w \W` (ASCII, as
///   Java's defaults); the escapes `\t \n \r \f \a \xhh \x{h...}`; a backslash before any other
///   non-alphabetic character makes it literal (`\.`, `\-`, `\_`, `\<`), as in Java; `\Q...\E`
///   quotes;
/// * groups `( )`, `(?: )`, `(?<name> )`; alternation `|`; quantifiers `* + ? {n} {n,} {n,m}` and
///   their lazy forms (`*?`, ...); anchors `^ $ \A \z \b \B`; the flags `(?i)`, `(?s)`, `(?m)`.
///
/// Rejected with a message, rather than read differently from Java: possessive quantifiers
/// (`a*+`) and stacked ones, back-references (`\1`), look-around, atomic groups, `\p{...}`,
/// class intersection `&&`, POSIX classes `[[:alpha:]]` (a plain set of characters in Java),
/// `(?x)`, and every other alphabetic escape (`\h`, `\v`, `\R`, `\Z`, `\u0041`, ...).
///
/// Limits: [`MAX_PATTERN_CHARS`], [`MAX_PATTERN_NESTING`], [`MAX_PATTERN_COMPILED_BYTES`].
#[derive(Clone, Debug)]
pub struct Pattern {
    source: String,
    regex: regex_lite::Regex,
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

impl Eq for Pattern {}

/// Why a pattern could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternError {
    /// The character position (0-based) where parsing failed, when known.
    pub position: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position {
            Some(p) => write!(f, "{} at character {p}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for PatternError {}

impl Pattern {
    /// Parses `source`.
    pub fn new(source: &str) -> Result<Self, PatternError> {
        let n = source.chars().count();
        if n > MAX_PATTERN_CHARS {
            return Err(PatternError {
                position: None,
                message: format!("the pattern is {n} characters long (at most {MAX_PATTERN_CHARS})"),
            });
        }
        let translated = translate(source)?;
        let build = |p: &str| {
            regex_lite::RegexBuilder::new(p)
                .size_limit(MAX_PATTERN_COMPILED_BYTES)
                // Backstop only: `translate` has bounded groups and classes; each level may add a
                // repetition and a capture to the parser's count.
                .nest_limit((3 * MAX_PATTERN_NESTING + 8) as u32)
                .build()
        };
        let lite_error = |e: regex_lite::Error| {
            let m = e.to_string();
            PatternError {
                position: None,
                message: if m.contains("size limit") {
                    format!(
                        "the pattern compiles to more than {MAX_PATTERN_COMPILED_BYTES} bytes (repetition counts \
                         multiply; use fewer or smaller ones)"
                    )
                } else if m.contains("nesting") {
                    format!("the pattern nests too deeply (at most {MAX_PATTERN_NESTING} levels)")
                } else {
                    m
                },
            }
        };
        // The pattern alone first: `\A(?:` + `a)|(b` + `)\z` would otherwise balance.
        build(&translated).map_err(lite_error)?;
        let regex = build(&format!(r"\A(?:{translated})\z")).map_err(lite_error)?;
        Ok(Self {
            source: source.to_owned(),
            regex,
        })
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// Whether the whole of `s` matches.
    pub fn matches(&self, s: &str) -> bool {
        self.regex.is_match(s)
    }
}

fn err(position: usize, message: impl Into<String>) -> PatternError {
    PatternError {
        position: Some(position),
        message: message.into(),
    }
}

/// Java's escapes that regex-lite reads the same way.
const SAME_ESCAPES: &str = "tnrfadDsSwWbBAzx";

/// Checks the pattern against the supported subset (see [`Pattern`]) and rewrites it for
/// regex-lite: literal escapes become `\x{..}`, `\Q...\E` becomes a run of them. Bounded: one pass,
/// no recursion.
fn translate(source: &str) -> Result<String, PatternError> {
    let c: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len() + 16);
    let hex = |out: &mut String, ch: char| out.push_str(&format!("\\x{{{:X}}}", ch as u32));
    // Open groups and classes, innermost last: `(` or `[`.
    let mut open: Vec<(char, usize)> = Vec::new();
    // 0: nothing to quantify; 1: an atom; 2: a quantifier; 3: a lazy quantifier.
    let mut state = 0u8;
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        let in_class = open.last().is_some_and(|&(k, _)| k == '[');
        if ch == '\\' {
            let Some(&e) = c.get(i + 1) else {
                return Err(err(i, "trailing `\\`"));
            };
            if e == 'Q' {
                let mut j = i + 2;
                while j < c.len() && !(c[j] == '\\' && c.get(j + 1) == Some(&'E')) {
                    hex(&mut out, c[j]);
                    j += 1;
                }
                if !in_class && j > i + 2 {
                    state = 1;
                }
                i = if j < c.len() { j + 2 } else { j };
                continue;
            }
            if e.is_ascii_digit() {
                return Err(err(
                    i,
                    format!("`\\{e}` (a back-reference or octal escape) is not supported"),
                ));
            }
            if !e.is_alphabetic() {
                hex(&mut out, e);
            } else if SAME_ESCAPES.contains(e) {
                out.push('\\');
                out.push(e);
            } else {
                return Err(err(i, format!("the escape `\\{e}` is not supported")));
            }
            i += 2;
            if !in_class {
                state = 1;
            }
            continue;
        }
        if in_class {
            match ch {
                '[' => {
                    if c.get(i + 1) == Some(&':') {
                        return Err(err(
                            i,
                            "POSIX classes `[[:name:]]` are not supported (Java reads them as a set of characters)",
                        ));
                    }
                    open.push(('[', i));
                    if open.len() > MAX_PATTERN_NESTING {
                        return Err(err(
                            i,
                            format!(
                                "groups and classes nest too deeply (at most {MAX_PATTERN_NESTING} levels)"
                            ),
                        ));
                    }
                    out.push('[');
                    i += 1;
                    i = class_start(&c, i, &mut out);
                    continue;
                }
                ']' => {
                    open.pop();
                    state = 1;
                }
                '&' if c.get(i + 1) == Some(&'&') => {
                    return Err(err(i, "class intersection `&&` is not supported"));
                }
                _ => {}
            }
            out.push(ch);
            i += 1;
            continue;
        }
        match ch {
            '(' | '[' => {
                open.push((ch, i));
                if open.len() > MAX_PATTERN_NESTING {
                    return Err(err(
                        i,
                        format!("groups and classes nest too deeply (at most {MAX_PATTERN_NESTING} levels)"),
                    ));
                }
                out.push(ch);
                i += 1;
                if ch == '[' {
                    i = class_start(&c, i, &mut out);
                } else {
                    state = 0;
                    if c.get(i) == Some(&'?') {
                        // `(?flags)`, `(?flags:`, `(?<name>`, `(?P<name>`; anything else (look-around,
                        // atomic groups) is left to regex-lite, which refuses it.
                        out.push('?');
                        i += 1;
                        if c.get(i) == Some(&'P') && c.get(i + 1) == Some(&'<') {
                            out.push('P');
                            i += 1;
                        }
                        if c.get(i) == Some(&'<') && !matches!(c.get(i + 1), Some('=' | '!')) {
                            while i < c.len() && c[i] != '>' {
                                out.push(c[i]);
                                i += 1;
                            }
                        } else {
                            while i < c.len() && (c[i].is_ascii_alphabetic() || c[i] == '-') {
                                // Refuse `x`, whose comments this check cannot follow.
                                if c[i] == 'x' {
                                    return Err(err(i, "the flag `x` (comments mode) is not supported"));
                                }
                                out.push(c[i]);
                                i += 1;
                            }
                            if c.get(i) == Some(&')') {
                                // `(?i)` sets flags; it opens no group.
                                open.pop();
                                out.push(')');
                                i += 1;
                            }
                        }
                        if matches!(c.get(i), Some(':' | '>')) {
                            out.push(c[i]);
                            i += 1;
                        }
                    }
                }
                continue;
            }
            ')' => {
                match open.pop() {
                    Some(('(', _)) => {}
                    _ => return Err(err(i, "unbalanced `)`")),
                }
                state = 1;
            }
            '|' => state = 0,
            '*' | '+' | '?' => match (state, ch) {
                (0, _) => return Err(err(i, "quantifier without anything to repeat")),
                (1, _) => state = 2,
                (2, '?') => state = 3,
                (2, '+') => {
                    return Err(err(
                        i,
                        "possessive quantifiers (`*+`, `++`, `?+`) are not supported",
                    ))
                }
                _ => return Err(err(i, "a quantifier cannot follow another quantifier")),
            },
            '{' => {
                // A counted repetition `{n}`, `{n,}` or `{n,m}`; anything else is left to regex-lite.
                let mut j = i + 1;
                while j < c.len() && (c[j].is_ascii_digit() || c[j] == ',') {
                    j += 1;
                }
                if j > i + 1 && c.get(j) == Some(&'}') {
                    match state {
                        0 => return Err(err(i, "quantifier without anything to repeat")),
                        1 => state = 2,
                        _ => return Err(err(i, "a quantifier cannot follow another quantifier")),
                    }
                    out.extend(&c[i..=j]);
                    i = j + 1;
                    continue;
                }
                state = 1;
            }
            '^' | '$' => state = 0,
            _ => state = 1,
        }
        out.push(ch);
        i += 1;
    }
    if let Some(&(k, at)) = open.last() {
        return Err(err(at, if k == '(' { "unclosed `(`" } else { "unclosed `[`" }));
    }
    Ok(out)
}

/// After a class's `[`: copies an optional `^` and a leading `]` (a literal there), returns the
/// position after them.
fn class_start(c: &[char], mut i: usize, out: &mut String) -> usize {
    if c.get(i) == Some(&'^') {
        out.push('^');
        i += 1;
    }
    if c.get(i) == Some(&']') {
        out.push_str(r"\x{5D}");
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_end_offsets_grow_round_robin() {
        let t = Topic::new("t", 3, 2, 0, SimTime::ZERO);
        // 2 records/s: after 3 s, 6 records, 2 per partition.
        assert_eq!(t.log_end_offset(0, SimTime(3000)), Some(2));
        assert_eq!(t.log_end_offset(2, SimTime(3000)), Some(2));
        // After 2.5 s, 5 records: partitions 0 and 1 got 2, partition 2 got 1.
        assert_eq!(t.log_end_offset(0, SimTime(2500)), Some(2));
        assert_eq!(t.log_end_offset(1, SimTime(2500)), Some(2));
        assert_eq!(t.log_end_offset(2, SimTime(2500)), Some(1));
        assert_eq!(t.log_end_offset(3, SimTime(2500)), None);
    }

    #[test]
    fn adding_partitions_keeps_offsets_and_spreads_new_records() {
        let mut ts = Topics::new();
        ts.create("t", 2, 1, 5, SimTime::ZERO);
        assert!(ts.add_partitions("t", 3, SimTime(3000)));
        let leo = |p, at| {
            ts.log_end_offset(&TopicPartition::new("t", p), SimTime(at))
                .unwrap()
        };
        assert_eq!((leo(0, 3000), leo(1, 3000), leo(2, 3000)), (7, 6, 0));
        // Three records before the change went to partitions 0, 1, 0; the next goes to partition 1.
        assert_eq!((leo(0, 6000), leo(1, 6000), leo(2, 6000)), (8, 7, 1));
        assert!(!ts.add_partitions("t", 3, SimTime(6000)));
    }

    #[test]
    fn patterns_match_whole_names() {
        let p = Pattern::new("orders-.*").unwrap();
        assert!(p.matches("orders-eu"));
        assert!(p.matches("orders-"));
        assert!(!p.matches("my-orders-eu"));
        let p = Pattern::new("(a|b)+[0-9]?").unwrap();
        assert!(p.matches("abba7"));
        assert!(!p.matches("abc"));
        let p = Pattern::new(r"round\.topic|t\d+").unwrap();
        assert!(p.matches("round.topic"));
        assert!(!p.matches("roundXtopic"));
        assert!(p.matches("t42"));
        let p = Pattern::new("[^x]*").unwrap();
        assert!(p.matches("abc"));
        assert!(!p.matches("axc"));
        assert!(Pattern::new("(ab").is_err());
        assert!(Pattern::new("*a").is_err());
        assert!(Pattern::new("[a-").is_err());
    }

    #[test]
    fn java_syntax_is_kept_or_refused_never_read_differently() {
        let m = |p: &str, s: &str| Pattern::new(p).unwrap().matches(s);
        assert!(m(r"a\_b\-c", "a_b-c"));
        assert!(m(r"\Qa.b\E+", "a.bbb"));
        assert!(!m(r"\Qa.b\E", "axb"));
        assert!(m(r"t\<1\>", "t<1>"));
        assert!(m("(?i)orders-[a-z]{2}", "ORDERS-eu"));
        assert!(m("a|ab", "ab"), "a full match, not the leftmost-first one");
        assert!(m("[]a]+", "]a]"));
        for bad in [
            "a)|(b",
            "a*+",
            "a++b",
            "a**",
            r"(a)\1",
            r"\h",
            r"\Z",
            "(?=a)",
            "[[:alpha:]]",
            "[a&&b]",
            "(?x)a # c",
            r"\p{L}",
            "a{2}{3}",
        ] {
            let e = Pattern::new(bad).expect_err(bad);
            assert!(!e.message.is_empty(), "{bad}");
        }
    }
}
