//! Replaying a real Kafka log: `rebalance-sim from-log` and the playground's "Import a log".
//!
//! An [`Importer`] takes log lines one at a time (from one file or several, interleaved or not),
//! recognises the group lines of the broker (classic Scala `GroupCoordinator`, the Java
//! `GroupMetadataManager` of 3.7+/4.x, the KIP-848 consumer-group lines) and of the Java client
//! (`AbstractCoordinator` / `ConsumerCoordinator`, the 4.x consumer), and skips and counts every
//! other line. [`Importer::finish`] rebuilds the story (who joined, left, timed out, was removed or
//! fenced, the generations or epochs, the assignor, static members) and writes a normal
//! [`Scenario`] that replays it, with every assumption it had to make (a setting the log never
//! prints, an unknown processing time) listed, with the lines it relied on, in the scenario's
//! `description` and in [`Replay::assumptions`]. [`check::check`] runs that scenario through a
//! [`crate::Session`] and sets the log's milestones beside the simulation's.
//!
//! The formats are those of the reference `kafka-log-lines.md` (from Kafka's source, 2.0–4.1). One
//! file per concern: [`line`] (prefixes), `broker_classic`, `broker_consumer`, `client_classic`,
//! `client_consumer` (the recognisers), `story` (the reconstruction), `write` (the scenario),
//! [`check`].
//!
//! Memory is bounded whatever the input: a line longer than [`MAX_LINE_BYTES`] is skipped (and
//! counted), at most [`MAX_ENTRIES`] group lines are kept (the rest are counted and the replay says
//! where it stopped), at most [`MAX_GROUPS`] group names are counted and [`crate::scenario::MAX_CONSUMERS`]
//! consumers written.

mod broker_classic;
mod broker_consumer;
pub mod check;
mod client_classic;
mod client_consumer;
mod cluster;
pub(crate) mod line;
mod story;
mod write;

use crate::collections::Map;
use std::fmt;

use crate::scenario::Scenario;

pub use story::Milestone;

/// The longest line read, in bytes (64 KiB); longer lines are skipped and counted.
pub const MAX_LINE_BYTES: usize = 64 * 1024;
/// The most group lines kept (later ones are counted, not replayed).
pub const MAX_ENTRIES: usize = 20_000;
/// The most distinct group names counted.
pub const MAX_GROUPS: usize = 1_000;
/// The most log files one import reads.
pub const MAX_FILES: usize = 64;
/// The most topics a replay creates.
pub const MAX_TOPICS: usize = 100;
/// The longest text kept of a line (for the marks), in characters.
pub const MAX_MARK_CHARS: usize = 300;

/// A line of the input: which file (index into [`Replay::files`]) and its 1-based number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct LineRef {
    /// The file's index.
    pub file: usize,
    /// The line's number, from 1.
    pub line: u64,
}

/// Something the replay had to assume, and the lines it relied on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assumption {
    /// What was assumed (English; the CLI prints it, the playground shows it as the description).
    pub text: String,
    /// The lines it is based on (none: nothing in the log says it).
    pub lines: Vec<LineRef>,
}

/// A recognised line, placed on the replay's timeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogMark {
    /// When, in the replay's time (ms from the first group line, plus the lead-in).
    pub at_ms: u64,
    /// Which line.
    pub line: LineRef,
    /// The line (at most [`MAX_MARK_CHARS`] characters).
    pub text: String,
}

/// Counts of what was read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Lines read.
    pub lines: u64,
    /// Lines recognised as group lines (of any group).
    pub recognised: u64,
    /// Lines not recognised (other loggers, other messages): skipped.
    pub skipped: u64,
    /// Lines longer than [`MAX_LINE_BYTES`]: skipped.
    pub too_long: u64,
    /// Lines without a time of their own (they took the previous line's).
    pub without_time: u64,
    /// Group lines past [`MAX_ENTRIES`]: counted, not replayed.
    pub over_limit: u64,
    /// Lines with bytes that are not UTF-8 (read with replacement characters).
    pub not_utf8: u64,
}

/// The replay of a log.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The scenario (the normal format; `description` lists the assumptions).
    pub scenario: Scenario,
    /// What was assumed.
    pub assumptions: Vec<Assumption>,
    /// The group's lines, in time order.
    pub marks: Vec<LogMark>,
    /// The group's milestones from the log: when, which line, what.
    pub milestones: Vec<(u64, LineRef, Milestone)>,
    /// How far into the replay the log's first line is: 0, or, for a group formed before the log
    /// begins, the time the replay takes to form it first (its milestones until then are not the
    /// log's).
    pub lead_in_ms: u64,
    /// Whether the group uses the consumer protocol (KIP-848).
    pub consumer_protocol: bool,
    /// The group's coordinator as the log shows it (a broker line's prefix, or a client's
    /// `Discovered group coordinator`): the broker id and the first line that shows it.
    pub coordinator: Option<(i32, LineRef)>,
    /// The files read, in order.
    pub files: Vec<String>,
    /// What was read.
    pub stats: Stats,
    /// Other groups seen (name, lines), which the replay leaves out.
    pub other_groups: Vec<(String, u64)>,
}

impl Replay {
    /// `line 12`, or `b.log:12` when several files were read.
    pub fn where_is(&self, at: LineRef) -> String {
        where_is(&self.files, at)
    }

    /// The scenario as the usual pretty JSON.
    pub fn scenario_json(&self) -> String {
        crate::share::scenario_to_pretty_json(&self.scenario)
    }
}

pub(crate) fn where_is(files: &[String], at: LineRef) -> String {
    if files.len() > 1 {
        format!("{}:{}", files.get(at.file).map_or("?", String::as_str), at.line)
    } else {
        format!("line {}", at.line)
    }
}

/// Why a log gives no replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FromLogError {
    /// Not one line is a consumer-group line.
    NoGroupLines {
        /// What was read.
        stats: Stats,
    },
    /// Too many files.
    TooManyFiles {
        /// How many were given.
        given: usize,
    },
}

impl fmt::Display for FromLogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoGroupLines { stats } => {
                write!(
                    f,
                    "no consumer-group lines in {} line(s) ({} skipped",
                    stats.lines, stats.skipped
                )?;
                if stats.too_long > 0 {
                    write!(f, ", {} longer than {MAX_LINE_BYTES} bytes", stats.too_long)?;
                }
                f.write_str(
                    "): expected broker lines such as `Preparing to rebalance group G ...` or \
                     `Stabilized group G generation N` (GroupCoordinator / GroupMetadataManager) or \
                     client lines with a `[Consumer clientId=..., groupId=...]` prefix \
                     (ConsumerCoordinator)",
                )
            }
            Self::TooManyFiles { given } => {
                write!(f, "{given} files is more than the limit ({MAX_FILES})")
            }
        }
    }
}

impl std::error::Error for FromLogError {}

/// Reads log lines, one at a time, in bounded memory.
pub struct Importer {
    prefixes: line::Prefixes,
    broker_classic: broker_classic::BrokerClassic,
    broker_consumer: broker_consumer::BrokerConsumer,
    client_classic: client_classic::ClientClassic,
    client_consumer: client_consumer::ClientConsumer,
    files: Vec<String>,
    line_no: u64,
    last_time: Option<i64>,
    time_only_lines: Vec<LineRef>,
    entries: Vec<story::Entry>,
    groups: Map<String, u64>,
    stats: Stats,
    first_over_limit: Option<LineRef>,
    /// The highest broker id a line's prefix shows (any line, of any logger), and the first line
    /// that shows it.
    highest_broker: Option<(i32, LineRef)>,
}

impl Default for Importer {
    fn default() -> Self {
        Self::new()
    }
}

impl Importer {
    /// A new import (reading a first, unnamed file until [`Importer::begin_file`]).
    pub fn new() -> Self {
        Self {
            prefixes: line::Prefixes::new(),
            broker_classic: broker_classic::BrokerClassic::new(),
            broker_consumer: broker_consumer::BrokerConsumer::new(),
            client_classic: client_classic::ClientClassic::new(),
            client_consumer: client_consumer::ClientConsumer::new(),
            files: Vec::new(),
            line_no: 0,
            last_time: None,
            time_only_lines: Vec::new(),
            entries: Vec::new(),
            groups: Map::new(),
            stats: Stats::default(),
            first_over_limit: None,
            highest_broker: None,
        }
    }

    /// Starts the next file (its lines are numbered from 1). Past [`MAX_FILES`] files the import
    /// fails in [`Importer::finish`].
    pub fn begin_file(&mut self, name: &str) {
        self.files.push(line::prefix_of(name, 1_000).to_owned());
        self.line_no = 0;
        self.last_time = None;
    }

    fn file(&mut self) -> usize {
        if self.files.is_empty() {
            self.files.push("log".into());
        }
        self.files.len() - 1
    }

    /// Counts a line that was longer than [`MAX_LINE_BYTES`] (the reader did not keep it).
    pub fn push_too_long(&mut self) {
        self.file();
        self.line_no += 1;
        self.stats.lines += 1;
        self.stats.too_long += 1;
    }

    /// Counts a line that had bytes which are not UTF-8 (call before its [`Importer::push_line`]).
    pub fn note_not_utf8(&mut self) {
        self.stats.not_utf8 += 1;
    }

    /// Reads every line of `text` (the playground's paste).
    pub fn push_text(&mut self, text: &str) {
        for l in text.split('\n') {
            if l.len() > MAX_LINE_BYTES {
                self.push_too_long();
            } else {
                self.push_line(l);
            }
        }
    }

    /// Reads one line (without its newline; a trailing `\r` is ignored).
    pub fn push_line(&mut self, text: &str) {
        let file = self.file();
        self.line_no += 1;
        self.stats.lines += 1;
        if text.len() > MAX_LINE_BYTES {
            self.stats.too_long += 1;
            return;
        }
        let text = text.trim_end_matches('\r');
        let here = LineRef {
            file,
            line: self.line_no,
        };
        // Multi-line messages (C9, the 4.x reconciliation) continue on tab-indented lines.
        if text.starts_with('\t') || text.trim().is_empty() {
            self.stats.skipped += 1;
            return;
        }
        let a = self.prefixes.anatomy(text);
        if let line::Origin::Broker { broker: Some(b) } = a.origin {
            if self.highest_broker.is_none_or(|(h, _)| b > h) {
                self.highest_broker = Some((b, here));
            }
        }
        let recognised = match &a.origin {
            line::Origin::Client { group_id, .. } => self
                .client_classic
                .recognise(a.body)
                .or_else(|| self.client_consumer.recognise(a.body))
                .map(|f| (group_id.clone(), f)),
            _ => self
                .broker_classic
                .recognise(a.body)
                .or_else(|| self.broker_consumer.recognise(a.body))
                .map(|(g, f)| (Some(g), f)),
        };
        let Some((group, fact)) = recognised else {
            self.stats.skipped += 1;
            return;
        };
        self.stats.recognised += 1;
        let at = match a.at_ms {
            Some(t) => {
                self.last_time = Some(t);
                if a.time_only && self.time_only_lines.len() < 3 {
                    self.time_only_lines.push(here);
                }
                t
            }
            None => {
                self.stats.without_time += 1;
                self.last_time.unwrap_or(0)
            }
        };
        if let Some(g) = group.as_ref().filter(|g| !g.is_empty()) {
            if let Some(n) = self.groups.get_mut(g) {
                *n += 1;
            } else if self.groups.len() < MAX_GROUPS {
                self.groups.insert(g.clone(), 1);
            }
        }
        if self.entries.len() >= MAX_ENTRIES {
            self.stats.over_limit += 1;
            self.first_over_limit.get_or_insert(here);
            return;
        }
        let mut excerpt: String = text.chars().take(MAX_MARK_CHARS).collect();
        if excerpt.len() < text.len() {
            excerpt.push('…');
        }
        self.entries.push(story::Entry {
            at,
            at_line: here,
            group,
            origin: a.origin,
            offsets_partition: a.offsets_partition,
            fact,
            text: excerpt,
        });
    }

    /// How many group lines are kept so far (at most [`MAX_ENTRIES`]): what the import holds in
    /// memory grows with this, not with the input.
    pub fn kept(&self) -> usize {
        self.entries.len()
    }

    /// What was read so far.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// Rebuilds the story of the busiest group and writes its scenario.
    pub fn finish(mut self) -> Result<Replay, FromLogError> {
        if self.files.len() > MAX_FILES {
            return Err(FromLogError::TooManyFiles {
                given: self.files.len(),
            });
        }
        // The busiest group (ties: the first by name).
        let Some(group) = self
            .groups
            .iter()
            .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
            .map(|(g, _)| g.clone())
        else {
            return Err(FromLogError::NoGroupLines { stats: self.stats });
        };
        let other_groups: Vec<(String, u64)> = self
            .groups
            .iter()
            .filter(|(g, _)| **g != group)
            .map(|(g, n)| (g.clone(), *n))
            .collect();
        // A client line whose prefix has no groupId belongs to the group when it is the only one.
        let only = other_groups.is_empty();
        let mut entries: Vec<story::Entry> = std::mem::take(&mut self.entries)
            .into_iter()
            .filter(|e| e.group.as_deref() == Some(group.as_str()) || (only && e.group.is_none()))
            .collect();
        crate::sort::sort_by_key(&mut entries, |e| (e.at, e.at_line));
        let story = story::build(&group, &entries);
        let ctx = write::Context {
            files: &self.files,
            stats: &self.stats,
            other_groups: &other_groups,
            time_only_lines: &self.time_only_lines,
            first_over_limit: self.first_over_limit,
            highest_broker: self.highest_broker,
        };
        let (scenario, assumptions, lead_in_ms) = write::scenario(&story, &ctx);
        // The replay's time of a moment of the log.
        let rel = |at: i64| ((at - story.t0).max(0) as u64).saturating_add(lead_in_ms);
        let marks = entries
            .iter()
            .map(|e| LogMark {
                at_ms: rel(e.at),
                line: e.at_line,
                text: e.text.clone(),
            })
            .collect();
        let milestones = story
            .milestones
            .iter()
            .map(|(at, l, m)| (rel(*at), *l, m.clone()))
            .collect();
        Ok(Replay {
            scenario,
            assumptions,
            marks,
            milestones,
            lead_in_ms,
            consumer_protocol: story.consumer_protocol,
            coordinator: story.coordinator,
            files: self.files,
            stats: self.stats,
            other_groups,
        })
    }
}

/// Reads a whole text (the playground's paste or file) and replays it.
pub fn from_text(text: &str) -> Result<Replay, FromLogError> {
    let mut i = Importer::new();
    i.push_text(text);
    i.finish()
}

/// Whether a text looks like a Kafka log (a few of its first lines are group lines): what the
/// scenario importer asks before it says "this is a log: use Import a log".
pub fn looks_like_kafka_log(text: &str) -> bool {
    let mut i = Importer::new();
    for l in text.split('\n').take(200) {
        i.push_line(line::prefix_of(l, MAX_LINE_BYTES));
        if i.stats.recognised > 0 {
            return true;
        }
    }
    false
}

/// What a pasted or imported text is, so that an importer can say what to do with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextKind {
    /// JSON (perhaps a scenario; the scenario parser says whether it is one).
    Json,
    /// A share link (`rb1.`, or an address with `#s=rb1.`).
    ShareLink,
    /// A Kafka broker or client log: replay it with [`from_text`].
    KafkaLog,
    /// The output of `kafka-consumer-groups.sh --describe` (offsets, `--members` or `--state`).
    ConsumerGroupsDescribe,
    /// The output of `kafka-topics.sh --describe`.
    TopicsDescribe,
    /// A Java properties file (`consumer.properties`: `key=value` lines).
    Properties,
    /// None of these.
    Other,
}

/// Looks at the first lines of a text and says what it is (reference §6 for the describe
/// headers, §1 for log lines).
pub fn classify(text: &str) -> TextKind {
    let head = line::prefix_of(text.trim_start_matches('\u{feff}').trim_start(), 1 << 16);
    // A share link, with or without the compare mode's mark (share-format.md).
    let link = head.strip_prefix("compare&").unwrap_or(head);
    if link.starts_with("rb1.") || head.contains("#s=rb1.") || head.contains("#s=compare&rb1.") {
        return TextKind::ShareLink;
    }
    // (Before JSON: a log4j line starts with `[` too.)
    if looks_like_kafka_log(head) {
        return TextKind::KafkaLog;
    }
    if head.starts_with('{') || head.starts_with('[') {
        return TextKind::Json;
    }
    let lines: Vec<&str> = head
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .take(50)
        .collect();
    let header = |words: &[&str]| lines.iter().any(|l| words.iter().all(|w| l.contains(w)));
    if header(&["GROUP", "CONSUMER-ID"])
        || header(&["COORDINATOR (ID)", "STATE"])
        || header(&["TOPIC", "PARTITION", "CURRENT-OFFSET"])
    {
        return TextKind::ConsumerGroupsDescribe;
    }
    if lines
        .iter()
        .any(|l| l.starts_with("Topic:") && l.contains("PartitionCount"))
    {
        return TextKind::TopicsDescribe;
    }
    let props = lines
        .iter()
        .filter(|l| !l.starts_with('#') && !l.starts_with('!'))
        .collect::<Vec<_>>();
    if !props.is_empty()
        && props.iter().all(|l| {
            l.split_once('=')
                .or_else(|| l.split_once(':'))
                .is_some_and(|(k, _)| !k.trim().is_empty() && !k.trim().contains(' '))
        })
    {
        return TextKind::Properties;
    }
    TextKind::Other
}
