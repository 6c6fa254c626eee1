//! Topics, partitions and producers: just enough of a cluster for consumption to be real.
//!
//! Records are numbered per partition (offsets 0, 1, 2, ...). A topic's producer writes
//! `records_per_sec` records per second, spread round-robin over the partitions. The log end offset
//! of a partition is computed from the clock on demand, so producing costs nothing per record: no
//! event, no timer.
//!
//! Subscriptions are a list of topics or a pattern ([`Pattern`], a small regular-expression subset
//! matched against the whole topic name, as Java's `Pattern.matcher(topic).matches()`).

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::protocol::TopicPartition;
use crate::sort::{btree_map, sort};
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
        ((ms as u128 * self.records_per_sec as u128) / 1000) as u64
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
        Some(self.base[p] + count as i64)
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
    topics: BTreeMap<String, Topic>,
}

impl Topics {
    /// No topics.
    pub fn new() -> Self {
        Self::default()
    }

    /// Creates a topic. Returns `false` (and changes nothing) if it exists or `partitions < 1`.
    pub fn create(
        &mut self,
        name: &str,
        partitions: i32,
        records_per_sec: u64,
        initial_records: i64,
        now: SimTime,
    ) -> bool {
        if partitions < 1 || self.topics.contains_key(name) {
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
    /// the topic is missing or `partitions` is not larger.
    pub fn add_partitions(&mut self, name: &str, partitions: i32, now: SimTime) -> bool {
        let Some(t) = self.topics.get_mut(name) else {
            return false;
        };
        if partitions <= t.partitions() {
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
    pub fn metadata(&self) -> BTreeMap<String, i32> {
        btree_map(self.topics.iter().map(|(n, t)| (n.clone(), t.partitions())))
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
// A small regular-expression subset
// ------------------------------------------------------------------------------------------------

/// A regular expression from a small subset of Java's syntax, matched against a whole string:
/// literals, `.`, classes `[a-z0-9_]` and `[^...]`, the escapes `\d`, `\w`, `\.` (any escaped
/// character is literal), groups `( )`, alternation `|`, and the quantifiers `*`, `+`, `?`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    alternatives: Vec<Vec<Node>>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Node {
    Char(char),
    Any,
    Class {
        ranges: Vec<(char, char)>,
        negated: bool,
    },
    Group(Vec<Vec<Node>>),
    Repeat {
        node: Box<Node>,
        min: u32,
        max: Option<u32>,
    },
}

/// Why a pattern could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternError {
    /// The character position (0-based) where parsing failed.
    pub position: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at character {}", self.message, self.position)
    }
}

impl std::error::Error for PatternError {}

impl Pattern {
    /// Parses `source`.
    pub fn new(source: &str) -> Result<Self, PatternError> {
        let chars: Vec<char> = source.chars().collect();
        let mut pos = 0;
        let alternatives = parse_alternatives(&chars, &mut pos)?;
        if pos != chars.len() {
            return Err(PatternError {
                position: pos,
                message: "unbalanced `)`".into(),
            });
        }
        Ok(Self { alternatives })
    }

    /// Whether the whole of `s` matches.
    pub fn matches(&self, s: &str) -> bool {
        let chars: Vec<char> = s.chars().collect();
        match_alternatives(&self.alternatives, &chars, 0, &mut |j| j == chars.len())
    }
}

fn err(position: usize, message: &str) -> PatternError {
    PatternError {
        position,
        message: message.into(),
    }
}

fn parse_alternatives(c: &[char], pos: &mut usize) -> Result<Vec<Vec<Node>>, PatternError> {
    let mut alts = vec![parse_sequence(c, pos)?];
    while *pos < c.len() && c[*pos] == '|' {
        *pos += 1;
        alts.push(parse_sequence(c, pos)?);
    }
    Ok(alts)
}

fn parse_sequence(c: &[char], pos: &mut usize) -> Result<Vec<Node>, PatternError> {
    let mut seq = Vec::new();
    while *pos < c.len() && c[*pos] != '|' && c[*pos] != ')' {
        let start = *pos;
        let atom = match c[*pos] {
            '(' => {
                *pos += 1;
                let inner = parse_alternatives(c, pos)?;
                if *pos >= c.len() || c[*pos] != ')' {
                    return Err(err(start, "unclosed `(`"));
                }
                *pos += 1;
                Node::Group(inner)
            }
            '[' => parse_class(c, pos)?,
            '.' => {
                *pos += 1;
                Node::Any
            }
            '\\' => {
                *pos += 1;
                let Some(&e) = c.get(*pos) else {
                    return Err(err(start, "trailing `\\`"));
                };
                *pos += 1;
                escape(e)
            }
            '*' | '+' | '?' => return Err(err(start, "quantifier without anything to repeat")),
            '{' | '}' | '^' | '$' => return Err(err(start, "unsupported character (escape it with `\\`)")),
            ch => {
                *pos += 1;
                Node::Char(ch)
            }
        };
        let mut node = atom;
        while *pos < c.len() && matches!(c[*pos], '*' | '+' | '?') {
            let (min, max) = match c[*pos] {
                '*' => (0, None),
                '+' => (1, None),
                _ => (0, Some(1)),
            };
            *pos += 1;
            node = Node::Repeat {
                node: Box::new(node),
                min,
                max,
            };
        }
        seq.push(node);
    }
    Ok(seq)
}

fn escape(e: char) -> Node {
    match e {
        'd' => Node::Class {
            ranges: vec![('0', '9')],
            negated: false,
        },
        'w' => Node::Class {
            ranges: vec![('a', 'z'), ('A', 'Z'), ('0', '9'), ('_', '_')],
            negated: false,
        },
        other => Node::Char(other),
    }
}

fn parse_class(c: &[char], pos: &mut usize) -> Result<Node, PatternError> {
    let start = *pos;
    *pos += 1; // '['
    let negated = c.get(*pos) == Some(&'^');
    if negated {
        *pos += 1;
    }
    let mut ranges = Vec::new();
    let mut first = true;
    loop {
        let Some(&ch) = c.get(*pos) else {
            return Err(err(start, "unclosed `[`"));
        };
        if ch == ']' && !first {
            *pos += 1;
            break;
        }
        first = false;
        let lo = if ch == '\\' {
            *pos += 1;
            let Some(&e) = c.get(*pos) else {
                return Err(err(start, "unclosed `[`"));
            };
            if let Node::Class { ranges: r, .. } = escape(e) {
                ranges.extend(r);
                *pos += 1;
                continue;
            }
            e
        } else {
            ch
        };
        *pos += 1;
        if c.get(*pos) == Some(&'-') && c.get(*pos + 1).is_some_and(|&n| n != ']') {
            let hi = c[*pos + 1];
            if hi < lo {
                return Err(err(*pos, "range out of order"));
            }
            ranges.push((lo, hi));
            *pos += 2;
        } else {
            ranges.push((lo, lo));
        }
    }
    Ok(Node::Class { ranges, negated })
}

/// Backtracking matcher in continuation-passing style: `k` is called with every position where the
/// nodes can end; the match succeeds if `k` accepts one.
fn match_alternatives(alts: &[Vec<Node>], s: &[char], i: usize, k: &mut dyn FnMut(usize) -> bool) -> bool {
    alts.iter().any(|seq| match_seq(seq, s, i, k))
}

fn match_seq(seq: &[Node], s: &[char], i: usize, k: &mut dyn FnMut(usize) -> bool) -> bool {
    let Some((first, rest)) = seq.split_first() else {
        return k(i);
    };
    match_node(first, s, i, &mut |j| match_seq(rest, s, j, k))
}

fn match_node(node: &Node, s: &[char], i: usize, k: &mut dyn FnMut(usize) -> bool) -> bool {
    match node {
        Node::Char(c) => s.get(i) == Some(c) && k(i + 1),
        Node::Any => i < s.len() && k(i + 1),
        Node::Class { ranges, negated } => match s.get(i) {
            Some(&c) => (ranges.iter().any(|&(lo, hi)| lo <= c && c <= hi) != *negated) && k(i + 1),
            None => false,
        },
        Node::Group(alts) => match_alternatives(alts, s, i, k),
        Node::Repeat { node, min, max } => match_repeat(node, *min, *max, 0, s, i, k),
    }
}

fn match_repeat(
    node: &Node,
    min: u32,
    max: Option<u32>,
    done: u32,
    s: &[char],
    i: usize,
    k: &mut dyn FnMut(usize) -> bool,
) -> bool {
    // Greedy: try one more repetition first (only if it consumes input, so `()*` terminates).
    if max.is_none_or(|m| done < m)
        && match_node(node, s, i, &mut |j| {
            j > i && match_repeat(node, min, max, done + 1, s, j, k)
        })
    {
        return true;
    }
    done >= min && k(i)
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
}
