//! An admin console on the simulated cluster: Kafka's command-line tools, answered from the world
//! of a [`Session`] at its shown time, in the tools' own output formats.
//!
//! * [`consumer_groups`]: `kafka-consumer-groups.sh` (`--list`, `--describe` with `--offsets`,
//!   `--members [--verbose]` and `--state`, `--delete`, `--reset-offsets`);
//! * [`topics`]: `kafka-topics.sh` (`--list`, `--describe [--topic T]`).
//!
//! Everything here is pure (no I/O): [`run`] takes the command line as words and returns what the
//! tool would print on stdout and stderr, and its exit code. Reads ask the coordinators of the
//! world the requests the admin client sends (DescribeGroups, OffsetFetch, ListGroups) without
//! changing anything. Writes (`--delete`, `--reset-offsets --execute`) are
//! [`Action::AdminRequest`]s the session applies: the request travels over the simulated network
//! to the group's coordinator, shows in the trace, and the console prints what the tool prints for
//! its response.
//!
//! The formats follow `kafka-log-lines.md` §6 (describe views, per Kafka version) and, for the
//! commands §6 does not cover, the tools' source (`ConsumerGroupCommand`, `GroupOffsetsResetter`,
//! `TopicCommand`, `CommandLineUtils` of 4.x). Usage errors print the tools' first line (the
//! joptsimple exception, or `CommandLineUtils.printUsageAndExit`'s message; the option table that
//! follows it in Kafka is left out) and exit 1.
//!
//! The simulated cluster serves one group's `__consumer_offsets` partition (the scenario's); a
//! group on any other partition is answered as Kafka answers a group nobody created.

pub mod consumer_groups;
pub mod topics;

use std::fmt;

use crate::network::{Endpoint, Payload};
use crate::protocol::{ConnectionId, ErrorCode, NodeId, Request, Response};
use crate::session::Session;
use crate::sim::{Action, NetworkEvent, SimEventKind, ADMIN_CLIENT};
use crate::time::{SimDuration, SimTime};

/// Which Kafka's tools to imitate: the output formats changed at 2.3 (a GROUP column), 3.8 (the
/// tool moved to Java) and 4.0 (KIP-848 columns).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum KafkaVersion {
    /// 2.3 – 3.7: the Scala `ConsumerGroupCommand`.
    Scala,
    /// 3.8 – 3.9: the Java tool, before KIP-848's columns.
    Java3,
    /// 4.0 and later.
    Kafka4,
}

impl KafkaVersion {
    /// The newest format the reference documents (4.1).
    pub const NEWEST: Self = Self::Kafka4;

    /// `"3.6"`, `"3.9.1"`, `"4.1"`, ... Versions before 2.3 (no GROUP column) are not imitated.
    pub fn parse(s: &str) -> Result<Self, String> {
        let mut parts = s.trim().split('.');
        let num = |p: Option<&str>| p.and_then(|p| p.parse::<u32>().ok());
        let (Some(major), minor) = (num(parts.next()), parts.next()) else {
            return Err(format!("`{s}` is not a Kafka version (e.g. 3.6, 3.9, 4.1)"));
        };
        let minor = match minor {
            None => 0,
            Some(m) => m
                .parse::<u32>()
                .map_err(|_| format!("`{s}` is not a Kafka version (e.g. 3.6, 3.9, 4.1)"))?,
        };
        match (major, minor) {
            (2, 3..) | (3, 0..=7) => Ok(Self::Scala),
            (3, _) => Ok(Self::Java3),
            (4.., _) => Ok(Self::Kafka4),
            _ => Err(format!(
                "Kafka {s} is not imitated: the console speaks the formats of 2.3 and later"
            )),
        }
    }
}

/// The console's format for a coordinator's Kafka line (every 4.x line prints the 4.x format), so
/// that a scenario's `coordinator.kafka_version` can choose the console's format too.
impl From<crate::coordinator::KafkaRelease> for KafkaVersion {
    fn from(_: crate::coordinator::KafkaRelease) -> Self {
        Self::Kafka4
    }
}

impl fmt::Display for KafkaVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Scala => "2.3-3.7",
            Self::Java3 => "3.8-3.9",
            Self::Kafka4 => "4.x",
        })
    }
}

/// What a tool printed, and how it exited.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Output {
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
    /// The exit code: 0, 1 for the tool's own usage errors, 2 for a command line the console
    /// cannot run (an unknown tool, an option it does not simulate).
    pub exit_code: i32,
}

impl Output {
    fn out(&mut self, s: &str) {
        self.stdout.push_str(s);
    }

    fn err(&mut self, s: &str) {
        self.stderr.push_str(s);
    }

    /// `CommandLineUtils.printUsageAndExit`: the message on stderr, exit 1.
    fn usage(message: &str) -> Self {
        Self {
            stdout: String::new(),
            stderr: format!("{message}\n"),
            exit_code: 1,
        }
    }

    /// A command line the console does not run (exit 2).
    fn unsupported(message: &str) -> Self {
        Self {
            stdout: String::new(),
            stderr: format!("rebalance-sim console: {message}\n"),
            exit_code: 2,
        }
    }
}

/// Runs one command line (`args[0]` the tool: `kafka-consumer-groups.sh`, `kafka-topics.sh`, with or
/// without a directory or the `.sh`) on the session's world at its shown time.
pub fn run(session: &mut Session, args: &[String], version: KafkaVersion) -> Output {
    let Some((tool, rest)) = args.split_first() else {
        return Output::unsupported(
            "no command: give kafka-consumer-groups.sh or kafka-topics.sh and its options",
        );
    };
    let name = tool.rsplit('/').next().unwrap_or(tool);
    match name.strip_suffix(".sh").unwrap_or(name) {
        "kafka-consumer-groups" => consumer_groups::run(session, rest, version),
        "kafka-topics" => topics::run(session, rest, version),
        _ => Output::unsupported(&format!(
            "unknown tool `{tool}` (the console runs kafka-consumer-groups.sh and kafka-topics.sh)"
        )),
    }
}

/// The longest command line [`split_words`] reads, in characters.
pub const MAX_LINE_CHARS: usize = 4_000;

/// Why a typed command line could not be split into words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    /// Longer than [`MAX_LINE_CHARS`].
    TooLong {
        /// Its length in characters.
        chars: usize,
    },
    /// A quote opened at this character (0-based) is never closed.
    UnclosedQuote {
        /// Where the quote opened.
        at: usize,
    },
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooLong { chars } => write!(
                f,
                "the line is {chars} characters long (at most {MAX_LINE_CHARS})"
            ),
            Self::UnclosedQuote { at } => write!(f, "the quote at character {} is never closed", at + 1),
        }
    }
}

/// Splits a typed command line into words as a POSIX shell does for plain words: blanks separate,
/// `'...'` and `"..."` quote (a backslash escapes the next character outside single quotes).
/// Variables, globs and redirections mean nothing here and stay as typed.
pub fn split_words(line: &str) -> Result<Vec<String>, LineError> {
    let chars = line.chars().count();
    if chars > MAX_LINE_CHARS {
        return Err(LineError::TooLong { chars });
    }
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut it = line.chars().enumerate();
    while let Some((i, c)) = it.next() {
        match c {
            c if c.is_whitespace() => {
                if let Some(w) = word.take() {
                    words.push(w);
                }
            }
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match it.next() {
                        Some((_, '\'')) => break,
                        Some((_, c)) => w.push(c),
                        None => return Err(LineError::UnclosedQuote { at: i }),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match it.next() {
                        Some((_, '"')) => break,
                        Some((_, '\\')) => match it.next() {
                            Some((_, c)) => w.push(c),
                            None => return Err(LineError::UnclosedQuote { at: i }),
                        },
                        Some((_, c)) => w.push(c),
                        None => return Err(LineError::UnclosedQuote { at: i }),
                    }
                }
            }
            '\\' => {
                let w = word.get_or_insert_with(String::new);
                if let Some((_, c)) = it.next() {
                    w.push(c);
                }
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Ok(words)
}

// ============================================================================== the cluster's names

/// A broker's advertised `host:port` in the simulated cluster.
pub fn broker_address(node: NodeId) -> String {
    format!("broker-{}.kafka:9092", node.0)
}

/// Kafka's exception for an error code, as the admin client throws it (`Errors.exception()`):
/// `org.apache.kafka.common.errors.<Class>: <message>`.
pub fn exception(e: ErrorCode) -> String {
    let (class, message) = match e {
        ErrorCode::NonEmptyGroup => ("GroupNotEmptyException", "The group is not empty."),
        ErrorCode::GroupIdNotFound => ("GroupIdNotFoundException", "The group id does not exist."),
        ErrorCode::CoordinatorNotAvailable => (
            "CoordinatorNotAvailableException",
            "The coordinator is not available.",
        ),
        ErrorCode::NotCoordinator => ("NotCoordinatorException", "This is not the correct coordinator."),
        ErrorCode::CoordinatorLoadInProgress => (
            "CoordinatorLoadInProgressException",
            "The coordinator is loading and hence can't process requests.",
        ),
        ErrorCode::UnknownMemberId => (
            "UnknownMemberIdException",
            "The coordinator is not aware of this member.",
        ),
        ErrorCode::IllegalGeneration => (
            "IllegalGenerationException",
            "Specified group generation id is not valid.",
        ),
        ErrorCode::RebalanceInProgress => (
            "RebalanceInProgressException",
            "The group is rebalancing, so a rejoin is needed.",
        ),
        ErrorCode::InvalidGroupId => ("InvalidGroupIdException", "The configured groupId is invalid."),
        ErrorCode::GroupAuthorizationFailed => ("GroupAuthorizationException", "Group authorization failed."),
        ErrorCode::UnknownTopicOrPartition => (
            "UnknownTopicOrPartitionException",
            "This server does not host this topic-partition.",
        ),
        ErrorCode::OffsetMetadataTooLarge => (
            "OffsetMetadataTooLarge",
            "The metadata field of the offset request was too large.",
        ),
        _ => (
            "UnknownServerException",
            "The server experienced an unexpected error when processing the request.",
        ),
    };
    format!("org.apache.kafka.common.errors.{class}: {message}")
}

// ================================================================================ the admin client

/// How long the admin client waits for an answer (`request.timeout.ms`, 30 s).
const ADMIN_TIMEOUT_MS: u64 = 30_000;

/// The connection the console's reads pretend to come from (they are asked of a copy of the
/// coordinator and leave no trace).
const READ_CONNECTION: ConnectionId = ConnectionId(u64::MAX);

/// A read the admin client sends, answered by a copy of `node`'s coordinator now: the world does
/// not change. `None` if the broker is down.
fn ask(session: &Session, node: NodeId, request: Request) -> Option<Response> {
    let sim = session.sim();
    if !sim.cluster().is_alive(node) {
        return None;
    }
    let mut c = sim.broker_coordinator(node)?.clone();
    let now = sim.now().max(c.now());
    c.handle_request(now, READ_CONNECTION, 0, request);
    c.poll_output().map(|o| o.response)
}

/// The coordinator of `group_id` (the leader of its `__consumer_offsets` partition), if it has one.
fn coordinator_of(session: &Session, group_id: &str) -> Option<NodeId> {
    let sim = session.sim();
    let partitions = sim.cluster().offsets_partitions();
    sim.cluster()
        .leader(crate::coordinator::partition_for(group_id, partitions))
        .filter(|n| sim.cluster().is_alive(*n))
}

/// A write: the admin client's request travels to the group's coordinator as an
/// [`Action::AdminRequest`], and the session runs until its response arrives (or
/// [`ADMIN_TIMEOUT_MS`] passes: `None`).
fn call(session: &mut Session, request: Request) -> Option<Response> {
    let start = session.log().len();
    session.apply(Action::AdminRequest { request }).ok()?;
    let deadline = session.now() + SimDuration::from_millis(ADMIN_TIMEOUT_MS);
    let admin = Endpoint::Script(ADMIN_CLIENT.to_owned());
    let mut scanned = start;
    let mut answer: Option<(u64, Response)> = None;
    loop {
        for ev in &session.log()[scanned..] {
            if let SimEventKind::Network { event } = &ev.kind {
                match event {
                    NetworkEvent::Sent { message } if message.to == admin && answer.is_none() => {
                        if let Payload::Response(r) = &message.payload {
                            answer = Some((message.id, r.clone()));
                        }
                    }
                    NetworkEvent::Delivered { id, .. } if answer.as_ref().is_some_and(|(a, _)| a == id) => {
                        return answer.map(|(_, r)| r);
                    }
                    NetworkEvent::Lost { id, .. } if answer.as_ref().is_some_and(|(a, _)| a == id) => {
                        return None;
                    }
                    _ => {}
                }
            }
        }
        scanned = session.log().len();
        match session.next_time() {
            Some(t) if t <= deadline => session.run_to(t),
            _ => {
                session.run_to(deadline.max(session.now()));
                return None;
            }
        }
    }
}

/// The time the tools' outputs are computed at.
fn now(session: &Session) -> SimTime {
    session.now()
}

// ==================================================================================== option parsing

/// Whether an option takes an argument (joptsimple's `withRequiredArg` / `withOptionalArg`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Arg {
    None,
    Required,
    Optional,
}

/// The options given, in order, each with its argument.
#[derive(Clone, Debug, Default)]
pub(crate) struct Options {
    given: Vec<(&'static str, Option<String>)>,
}

impl Options {
    pub(crate) fn has(&self, name: &str) -> bool {
        self.given.iter().any(|(n, _)| *n == name)
    }

    /// The first value of `name`.
    pub(crate) fn value(&self, name: &str) -> Option<&str> {
        self.given
            .iter()
            .find(|(n, _)| *n == name)
            .and_then(|(_, v)| v.as_deref())
    }

    /// Every value of `name`, in order.
    pub(crate) fn values(&self, name: &str) -> Vec<String> {
        self.given
            .iter()
            .filter(|(n, _)| *n == name)
            .filter_map(|(_, v)| v.clone())
            .collect()
    }
}

/// joptsimple's parse: `--name`, `--name=value`, `--name value`; a unique prefix of a long name is
/// that option (joptsimple's abbreviations); words that are not options are ignored, as the tools
/// ignore joptsimple's non-option arguments. `Err` is the exception's message.
pub(crate) fn parse_options(specs: &[(&'static str, Arg)], args: &[String]) -> Result<Options, String> {
    let mut out = Options::default();
    let mut i = 0;
    while i < args.len() {
        let word = &args[i];
        i += 1;
        let Some(body) = word.strip_prefix("--").or_else(|| word.strip_prefix('-')) else {
            continue;
        };
        if body.is_empty() {
            // `--` ends the options.
            break;
        }
        let (name, inline) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v.to_owned())),
            None => (body, None),
        };
        let spec = specs.iter().find(|(n, _)| *n == name).or_else(|| {
            let mut matches = specs.iter().filter(|(n, _)| n.starts_with(name));
            match (matches.next(), matches.next()) {
                (Some(s), None) => Some(s),
                _ => None,
            }
        });
        let Some(&(name, arg)) = spec else {
            return Err(format!(
                "joptsimple.UnrecognizedOptionException: {name} is not a recognized option"
            ));
        };
        let value = match (arg, inline) {
            (Arg::None, Some(_)) => {
                return Err(format!(
                    "joptsimple.UnconfiguredOptionException: Option {name} does not take an argument"
                ))
            }
            (Arg::None, None) => None,
            (_, Some(v)) => Some(v),
            (Arg::Required, None) => match args.get(i) {
                Some(v) if !v.starts_with("--") => {
                    i += 1;
                    Some(v.clone())
                }
                _ => {
                    return Err(format!(
                    "joptsimple.OptionMissingRequiredArgumentException: Option {name} requires an argument"
                ))
                }
            },
            (Arg::Optional, None) => match args.get(i) {
                Some(v) if !v.starts_with('-') => {
                    i += 1;
                    Some(v.clone())
                }
                _ => None,
            },
        };
        out.given.push((name, value));
    }
    Ok(out)
}

/// Left-justified in `width` (Java's `%-Ns`).
fn pad(s: &str, width: usize) -> String {
    format!("{s:<width$}")
}

/// A Kafka `Uuid` for a topic, stable for its name: 16 bytes from the name's hash, written as Kafka
/// writes one (URL-safe base64 without padding, 22 characters).
pub fn topic_id(topic: &str) -> String {
    let mut bytes = [0u8; 16];
    for (half, seed) in [(0usize, 0xcbf2_9ce4_8422_2325u64), (8, 0x8422_2325_cbf2_9ce4)] {
        let mut h = seed;
        for b in topic.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        bytes[half..half + 8].copy_from_slice(&h.to_be_bytes());
    }
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut s = String::with_capacity(22);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for k in 0..=chunk.len() {
            s.push(ALPHABET[(n >> (18 - 6 * k) & 63) as usize] as char);
        }
    }
    s
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_typed_line_splits_into_words_as_a_shell_splits_them() {
        let words =
            split_words(r#"kafka-consumer-groups.sh  --describe --group "my group" --topic 'a b'\ c"#)
                .unwrap();
        assert_eq!(
            words,
            [
                "kafka-consumer-groups.sh",
                "--describe",
                "--group",
                "my group",
                "--topic",
                "a b c"
            ]
        );
        assert_eq!(split_words("   ").unwrap(), Vec::<String>::new());
        assert_eq!(
            split_words("a \"b").unwrap_err(),
            LineError::UnclosedQuote { at: 2 }
        );
        assert_eq!(
            split_words("x 'y").unwrap_err().to_string(),
            "the quote at character 3 is never closed"
        );
        let long = "a".repeat(MAX_LINE_CHARS + 1);
        assert!(matches!(split_words(&long), Err(LineError::TooLong { .. })));
    }

    use super::*;

    #[test]
    fn versions_map_to_the_format_eras() {
        assert_eq!(KafkaVersion::parse("3.6"), Ok(KafkaVersion::Scala));
        assert_eq!(KafkaVersion::parse("2.3.1"), Ok(KafkaVersion::Scala));
        assert_eq!(KafkaVersion::parse("3.8"), Ok(KafkaVersion::Java3));
        assert_eq!(KafkaVersion::parse("4.1"), Ok(KafkaVersion::Kafka4));
        assert_eq!(KafkaVersion::parse("4"), Ok(KafkaVersion::Kafka4));
        assert!(KafkaVersion::parse("2.2").is_err());
        assert!(KafkaVersion::parse("x").is_err());
    }

    #[test]
    fn topic_ids_look_like_kafkas() {
        let id = topic_id("orders");
        assert_eq!(id.len(), 22);
        assert_eq!(id, topic_id("orders"));
        assert_ne!(id, topic_id("payments"));
    }

    #[test]
    fn options_parse_like_joptsimple() {
        let specs = [
            ("group", Arg::Required),
            ("describe", Arg::None),
            ("state", Arg::Optional),
        ];
        let args: Vec<String> = ["--desc", "--group=g", "--state"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let o = parse_options(&specs, &args).unwrap();
        assert!(o.has("describe") && o.has("state"));
        assert_eq!(o.value("group"), Some("g"));
        let bad: Vec<String> = vec!["--grop".into()];
        assert_eq!(
            parse_options(&specs, &bad).unwrap_err(),
            "joptsimple.UnrecognizedOptionException: grop is not a recognized option"
        );
        let missing: Vec<String> = vec!["--group".into()];
        assert!(parse_options(&specs, &missing)
            .unwrap_err()
            .ends_with("Option group requires an argument"));
    }
}
