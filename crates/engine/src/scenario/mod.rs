//! Scenario files: a versioned JSON description of a whole simulation (see `docs/scenario-format.md`).
//!
//! [`Scenario::from_json`] parses and validates; every error names the field (as a path such as
//! `consumers[1].heartbeat_interval_ms`) and its line and column. Nothing here panics on bad input.

mod kip848;
mod locate;
pub mod preload;
mod record;

pub use kip848::{ScriptedAssignmentSpec, MAX_ASSIGNMENT_INTERVAL_MS};
pub use preload::PreloadedGroup;

use crate::collections::Map;
use crate::collections::Set;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::assignor::Strategy;
use crate::client::{CommitMode, ConsumerConfig, GroupProtocol};
use crate::cluster::ClusterConfig;
use crate::coordinator::CoordinatorConfig;
use crate::network::NetworkConfig;
use crate::protocol::{NodeId, Request};
use crate::sim::action::Action;
use crate::sort::sort_by_key;
use crate::time::SimTime;
use crate::topic::{Pattern, Subscription};

use locate::{locate, Seg};

/// The only format version so far.
pub const SCENARIO_VERSION: u32 = 1;

// ------------------------------------------------------------------------------------------------
// Limits (listed in docs/scenario-format.md, "Limits"). Every size and duration a scenario can
// give is bounded, so that no input allocates, loops or overflows without a bound. The playground
// UI has stricter ones of its own (`src/sharing.rs`); these are at least as large.
// ------------------------------------------------------------------------------------------------

/// The largest scenario document, in bytes (16 MiB).
pub const MAX_SCENARIO_BYTES: usize = 16 << 20;
/// The latest `end_ms`: 30 simulated days (a lesson runs past the default 7-day
/// `offsets.retention.minutes`). What a run may do in that time is bounded separately (the CLI's
/// event budget).
pub const MAX_END_MS: u64 = 30 * 24 * 3_600_000;
/// The most partitions a topic may have (`topics[].partitions`, `create_topic`, `add_partitions`).
pub const MAX_PARTITIONS: i32 = 10_000;
/// The most topics a scenario may create (`topics` plus every `create_topic`).
pub const MAX_TOPICS: usize = 1_000;
/// The most consumers (`consumers` plus every `add_consumer`).
pub const MAX_CONSUMERS: usize = 1_000;
/// The most timed actions.
pub const MAX_ACTIONS: usize = 10_000;
/// The most brokers (`cluster.brokers`).
pub const MAX_BROKERS: u32 = 100;
/// The most `__consumer_offsets` partitions (`offsets_topic_num_partitions`, `offsets_partitions`).
pub const MAX_OFFSETS_PARTITIONS: i32 = 1_000;
/// The fastest producer, in records per second.
pub const MAX_RECORDS_PER_SEC: u64 = 1_000_000;
/// The most records a partition may hold at creation (`initial_records`): with the fastest producer
/// for [`MAX_END_MS`], offsets stay far below `i64::MAX`.
pub const MAX_INITIAL_RECORDS: i64 = 1_000_000_000_000_000;
/// The longest setting in ms (timeouts, intervals, delays): Kafka's settings are Java `int`s.
pub const MAX_SETTING_MS: u64 = i32::MAX as u64;

/// The longest `offsets_retention_minutes` (a year).
pub const MAX_RETENTION_MINUTES: u64 = 365 * 24 * 60;
/// The longest one-way latency, jitter or fault delay of the network, in ms (one hour).
pub const MAX_NETWORK_MS: u64 = 3_600_000;
/// The largest `max_poll_records` (a Java `int`).
pub const MAX_POLL_RECORDS: u32 = i32::MAX as u32;
/// The longest topic name, in characters (Kafka's limit).
pub const MAX_TOPIC_NAME_CHARS: usize = 249;
/// The longest other name (group, consumer, client id, instance id, script), in characters.
pub const MAX_NAME_CHARS: usize = 1_000;
/// The longest `name` or `description` of the scenario, in characters.
pub const MAX_TEXT_CHARS: usize = 100_000;
/// The most entries in a list inside a consumer (`assignors`, `subscription.topics`).
pub const MAX_LIST_ENTRIES: usize = 1_000;
/// The deepest nesting of JSON arrays and objects in a scenario document (serde_json's own limit
/// is 128; the scenario format needs 8).
pub const MAX_JSON_DEPTH: usize = 64;

/// A whole simulation: the world at time 0 and what happens afterwards.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Must be 1.
    pub version: u32,
    /// A title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// What the scenario shows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Seeds every random choice (network jitter and faults).
    #[serde(default)]
    pub seed: u64,
    /// The consumer group.
    #[serde(default = "default_group_id")]
    pub group_id: String,
    /// When the simulation stops, in ms.
    pub end_ms: u64,
    /// Broker-side group settings.
    #[serde(default)]
    pub coordinator: CoordinatorSettings,
    /// The brokers and the replication of `__consumer_offsets` (3 brokers, replication factor 3
    /// when absent).
    #[serde(default, skip_serializing_if = "ClusterSettings::is_empty")]
    pub cluster: ClusterSettings,
    /// Settings every consumer starts from (each consumer may override them).
    #[serde(default)]
    pub client_defaults: ConsumerSpec,
    /// Latency and faults.
    #[serde(default)]
    pub network: NetworkConfig,
    /// Topics that exist at time 0.
    #[serde(default)]
    pub topics: Vec<TopicSpec>,
    /// Consumers (each starts at its `start_ms`, default 0).
    #[serde(default)]
    pub consumers: Vec<ConsumerSpec>,
    /// Timed actions.
    #[serde(default)]
    pub actions: Vec<ActionSpec>,
    /// Groups already in `__consumer_offsets` at time 0 (see `docs/scenario-format.md`,
    /// "Preloaded groups"): the group's coordinator loads them as after a failover.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub preloaded_groups: Vec<PreloadedGroup>,
    /// How the playground opens this file: `"session"` (the default) or `"compare"` (the story
    /// under every protocol side by side, [`crate::compare`]), as the playground's export writes
    /// it. The simulation does not read it: `rebalance-sim run` runs the story as one session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<crate::share::LinkMode>,
}

fn default_group_id() -> String {
    "test_group_1".into()
}

/// The cluster (see [`ClusterConfig`] for the defaults).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClusterSettings {
    /// How many brokers, with ids `0..brokers` (3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub brokers: Option<u32>,
    /// `offsets.topic.replication.factor` (3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replication_factor: Option<u32>,
    /// `offsets.topic.num.partitions` (50); the same setting as
    /// `coordinator.offsets_topic_num_partitions` (give one of them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offsets_partitions: Option<i32>,
    /// `min.insync.replicas` (1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_insync_replicas: Option<u32>,
    /// `replica.lag.time.max.ms` (30000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replica_lag_time_max_ms: Option<u64>,
    /// How often followers fetch; 0 is a long poll answered at once (0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replica_fetch_interval_ms: Option<u64>,
    /// `offsets.commit.timeout.ms` (5000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offsets_commit_timeout_ms: Option<u64>,
}

impl ClusterSettings {
    /// Whether nothing is set.
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// Broker-side settings (Kafka's defaults when absent).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CoordinatorSettings {
    /// `group.initial.rebalance.delay.ms` (3000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_initial_rebalance_delay_ms: Option<u64>,
    /// `group.min.session.timeout.ms` (6000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_min_session_timeout_ms: Option<i32>,
    /// `group.max.session.timeout.ms` (1800000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_max_session_timeout_ms: Option<i32>,
    /// `group.max.size` (unbounded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_max_size: Option<usize>,
    /// `group.consumer.session.timeout.ms` (45000): consumer-protocol groups (KIP-848).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_consumer_session_timeout_ms: Option<u64>,
    /// `group.consumer.heartbeat.interval.ms` (5000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_consumer_heartbeat_interval_ms: Option<i32>,
    /// `group.consumer.max.size` (unbounded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_consumer_max_size: Option<usize>,
    /// `offsets.topic.num.partitions` (50).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offsets_topic_num_partitions: Option<i32>,
    /// `offsets.retention.minutes` (10080, 7 days).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offsets_retention_minutes: Option<u64>,
    /// `offsets.retention.check.interval.ms` (600000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offsets_retention_check_interval_ms: Option<u64>,
    /// The Kafka line whose consumer-group rules apply: `"4.0"` ... `"4.4"` (default the newest,
    /// 4.4; see `docs/consumer-protocol.md`, "Kafka versions").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kafka_version: Option<String>,
    /// `group.consumer.assignment.interval.ms` (1000, at most 15000; read from 4.3 on).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_consumer_assignment_interval_ms: Option<u64>,
    /// `group.consumer.migration.policy`: `disabled`, `upgrade`, `downgrade` or `bidirectional`
    /// (default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_consumer_migration_policy: Option<String>,
    /// A scripted server assignor: each entry (member id → topic → partitions) is the result of
    /// the next target computation of a consumer group; then the preferred assignor runs again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scripted_assignments: Option<Vec<ScriptedAssignmentSpec>>,
}

/// A topic at time 0.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TopicSpec {
    /// Its name.
    pub name: String,
    /// Its partitions (at least 1).
    pub partitions: i32,
    /// Records per second written by its producer, round-robin over partitions.
    #[serde(default)]
    pub records_per_sec: u64,
    /// Records already in each partition at time 0.
    #[serde(default)]
    pub initial_records: i64,
}

/// One consumer's settings; every field but `name` is optional and falls back to
/// `client_defaults`, then to the Java client's defaults.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConsumerSpec {
    /// The name (required for a consumer, absent in `client_defaults`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// When it starts, in ms (only in `consumers`; default 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_ms: Option<u64>,
    /// `client.id` (default: the name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_id: Option<String>,
    /// `group.instance.id` for a static member.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_instance_id: Option<String>,
    /// `group.protocol`: `"classic"` (default) or `"consumer"` (KIP-848).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_protocol: Option<GroupProtocol>,
    /// `group.remote.assignor` (consumer protocol only): `"uniform"` or `"range"`; unset, the
    /// coordinator's default (the first of `group.consumer.assignors`, `uniform`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_assignor: Option<String>,
    /// `client.rack` (consumer protocol only): the rack the member reports in its joining
    /// `ConsumerGroupHeartbeat` (`RackId`); the coordinator stores it and ConsumerGroupDescribe
    /// shows it. Kafka 4.x's server assignors do not use it (see docs/scenario-format.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rack_id: Option<String>,
    /// `partition.assignment.strategy`, preferred first (default `["range", "cooperative-sticky"]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assignors: Option<Vec<Strategy>>,
    /// `{"topics": [...]}` or `{"pattern": "..."}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subscription: Option<Subscription>,
    /// `session.timeout.ms` (45000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_timeout_ms: Option<u64>,
    /// `heartbeat.interval.ms` (3000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heartbeat_interval_ms: Option<u64>,
    /// `max.poll.interval.ms` (300000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_poll_interval_ms: Option<u64>,
    /// Processing time per batch (1000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub processing_ms: Option<u64>,
    /// `max.poll.records` (500).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_poll_records: Option<u32>,
    /// `{"mode": "auto", "interval_ms": 5000}` (default), `{"mode": "manual", "every_batches": 1}` or
    /// `{"mode": "never"}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<CommitMode>,
    /// Commit in `onPartitionsRevoked` (false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit_in_revoke: Option<bool>,
    /// `metadata.max.age.ms` (300000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata_max_age_ms: Option<u64>,
    /// `retry.backoff.ms` (100).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_backoff_ms: Option<u64>,
    /// `request.timeout.ms` (30000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_timeout_ms: Option<u64>,
}

fn yes() -> bool {
    true
}

/// A timed action. `type` selects it; `at_ms` says when.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ActionSpec {
    /// Start a consumer.
    AddConsumer {
        /// When.
        at_ms: u64,
        /// Its settings (`name` required, no `start_ms`).
        consumer: ConsumerSpec,
    },
    /// Kill a consumer (no LeaveGroup).
    Kill {
        /// When.
        at_ms: u64,
        /// Which.
        consumer: String,
    },
    /// Close a consumer gracefully.
    Close {
        /// When.
        at_ms: u64,
        /// Which.
        consumer: String,
    },
    /// Start a stopped consumer again as a new process.
    Restart {
        /// When.
        at_ms: u64,
        /// Which.
        consumer: String,
    },
    /// Pause heartbeats and/or polls.
    Pause {
        /// When.
        at_ms: u64,
        /// Which.
        consumer: String,
        /// For how long (absent: until `resume`).
        #[serde(default)]
        duration_ms: Option<u64>,
        /// Stop heartbeats (default true).
        #[serde(default = "yes")]
        heartbeats: bool,
        /// Stop polls (default true).
        #[serde(default = "yes")]
        polls: bool,
    },
    /// End a pause.
    Resume {
        /// When.
        at_ms: u64,
        /// Which.
        consumer: String,
    },
    /// Change a consumer's subscription.
    Subscribe {
        /// When.
        at_ms: u64,
        /// Which.
        consumer: String,
        /// The new subscription.
        subscription: Subscription,
    },
    /// Create a topic.
    CreateTopic {
        /// When.
        at_ms: u64,
        /// The topic.
        topic: String,
        /// Partitions.
        partitions: i32,
        /// Records per second.
        #[serde(default)]
        records_per_sec: u64,
        /// Records already in each partition.
        #[serde(default)]
        initial_records: i64,
    },
    /// Grow a topic.
    AddPartitions {
        /// When.
        at_ms: u64,
        /// The topic.
        topic: String,
        /// The new partition count.
        partitions: i32,
    },
    /// Delete a topic.
    DeleteTopic {
        /// When.
        at_ms: u64,
        /// The topic.
        topic: String,
    },
    /// Change a producer's rate.
    SetProduceRate {
        /// When.
        at_ms: u64,
        /// The topic.
        topic: String,
        /// Records per second.
        records_per_sec: u64,
    },
    /// Change the network.
    SetNetwork {
        /// When.
        at_ms: u64,
        /// The new configuration.
        network: NetworkConfig,
    },
    /// The group's coordinator goes away for a while, then comes back.
    CoordinatorFailover {
        /// When.
        at_ms: u64,
        /// For how long.
        duration_ms: u64,
    },
    /// A broker crashes (or, with `graceful`, shuts down in a controlled way).
    CrashBroker {
        /// When.
        at_ms: u64,
        /// Which broker (`0..cluster.brokers`).
        broker: i32,
        /// A controlled shutdown rather than a crash (default false).
        #[serde(default)]
        graceful: bool,
    },
    /// A stopped broker starts again.
    RestartBroker {
        /// When.
        at_ms: u64,
        /// Which broker.
        broker: i32,
    },
    /// A broker's followers fetch only every `fetch_interval_ms`.
    SlowBroker {
        /// When.
        at_ms: u64,
        /// Which broker.
        broker: i32,
        /// Its fetch interval (positive).
        fetch_interval_ms: u64,
        /// For how long (absent: until it restarts).
        #[serde(default)]
        duration_ms: Option<u64>,
    },
    /// A scripted member sends a raw request, e.g. `{"JoinGroup": {...every field...}}`.
    Request {
        /// When.
        at_ms: u64,
        /// The script's name (its own connection).
        script: String,
        /// The request.
        request: Request,
    },
    /// The admin client (`kafka-consumer-groups.sh`) sends a request to the group's coordinator:
    /// `DeleteGroups`, or an `OffsetCommit` with generation -1 and no member id (an offset reset).
    AdminRequest {
        /// When.
        at_ms: u64,
        /// The request.
        request: Request,
    },
}

impl ActionSpec {
    /// When the action runs.
    pub fn at_ms(&self) -> u64 {
        match self {
            Self::AddConsumer { at_ms, .. }
            | Self::Kill { at_ms, .. }
            | Self::Close { at_ms, .. }
            | Self::Restart { at_ms, .. }
            | Self::Pause { at_ms, .. }
            | Self::Resume { at_ms, .. }
            | Self::Subscribe { at_ms, .. }
            | Self::CreateTopic { at_ms, .. }
            | Self::AddPartitions { at_ms, .. }
            | Self::DeleteTopic { at_ms, .. }
            | Self::SetProduceRate { at_ms, .. }
            | Self::SetNetwork { at_ms, .. }
            | Self::CoordinatorFailover { at_ms, .. }
            | Self::CrashBroker { at_ms, .. }
            | Self::RestartBroker { at_ms, .. }
            | Self::SlowBroker { at_ms, .. }
            | Self::Request { at_ms, .. }
            | Self::AdminRequest { at_ms, .. } => *at_ms,
        }
    }
}

/// What is wrong with a scenario, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    /// The field, as a path (`consumers[1].session_timeout_ms`), or `""` for the whole document.
    pub path: String,
    /// 1-based line, if known.
    pub line: Option<usize>,
    /// 1-based column, if known.
    pub column: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.path.is_empty() {
            write!(f, "{}", self.path)?;
        } else {
            f.write_str("scenario")?;
        }
        if let (Some(l), Some(c)) = (self.line, self.column) {
            write!(f, " (line {l}, column {c})")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for ScenarioError {}

fn path_string(path: &[Seg]) -> String {
    let mut s = String::new();
    for seg in path {
        match seg {
            Seg::Key(k) => {
                if !s.is_empty() {
                    s.push('.');
                }
                s.push_str(k);
            }
            Seg::Index(i) => s.push_str(&format!("[{i}]")),
        }
    }
    s
}

fn key(k: &str) -> Seg {
    Seg::Key(k.into())
}

struct Problem {
    path: Vec<Seg>,
    message: String,
}

fn problem(path: Vec<Seg>, message: impl Into<String>) -> Problem {
    Problem {
        path,
        message: message.into(),
    }
}

impl Scenario {
    /// Parses and validates a scenario.
    pub fn from_json(text: &str) -> Result<Self, ScenarioError> {
        if text.len() > MAX_SCENARIO_BYTES {
            return Err(ScenarioError {
                path: String::new(),
                line: None,
                column: None,
                message: format!(
                    "the document is {} bytes long (at most {MAX_SCENARIO_BYTES})",
                    text.len()
                ),
            });
        }
        if let Some((offset, depth)) = too_deep(text) {
            let (l, c) = locate::line_col_at(text, offset);
            return Err(ScenarioError {
                path: String::new(),
                line: Some(l),
                column: Some(c),
                message: format!("arrays and objects nest {depth} deep here (at most {MAX_JSON_DEPTH})"),
            });
        }
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| serde_error(&e, text))?;
        if !value.is_object() {
            return Err(ScenarioError {
                path: String::new(),
                line: Some(1),
                column: Some(1),
                message: format!("the scenario must be a JSON object, not {}", json_kind(&value)),
            });
        }
        // The version first, so that a future format gets a clear message rather than a field error.
        match value.get("version") {
            None => {
                return Err(ScenarioError {
                    path: "version".into(),
                    line: Some(1),
                    column: Some(1),
                    message: format!("missing; this program reads version {SCENARIO_VERSION}"),
                })
            }
            Some(v) if v.as_u64() != Some(u64::from(SCENARIO_VERSION)) => {
                let (l, c) = locate(text, &[key("version")]);
                return Err(ScenarioError {
                    path: "version".into(),
                    line: Some(l),
                    column: Some(c),
                    message: format!(
                        "unsupported version {v}; this program reads version {SCENARIO_VERSION}"
                    ),
                });
            }
            _ => {}
        }
        let scenario: Scenario = serde_json::from_str(text).map_err(|e| serde_error(&e, text))?;
        // Raw requests: Kafka's message types accept unknown fields silently; a scenario must not.
        if let Some(actions) = value.get("actions").and_then(|a| a.as_array()) {
            for (i, (raw, spec)) in actions.iter().zip(&scenario.actions).enumerate() {
                let request = match spec {
                    ActionSpec::Request { request, .. } | ActionSpec::AdminRequest { request, .. } => {
                        Some(request)
                    }
                    _ => None,
                };
                if let (Some(raw_req), Some(request)) = (raw.get("request"), request) {
                    let back = serde_json::to_value(request).unwrap_or(serde_json::Value::Null);
                    let mut path = vec![key("actions"), Seg::Index(i), key("request")];
                    if let Some(p) = unknown_field(raw_req, &back, &mut path) {
                        let (l, c) = locate(text, &path);
                        return Err(ScenarioError {
                            path: path_string(&path),
                            line: Some(l),
                            column: Some(c),
                            message: format!("unknown field `{p}` in a raw request"),
                        });
                    }
                }
            }
        }
        scenario.validate_with(Some(text))?;
        Ok(scenario)
    }

    /// Checks the values (the parser has checked the shape). Errors carry the path but no position.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        self.validate_with(None)
    }

    fn validate_with(&self, text: Option<&str>) -> Result<(), ScenarioError> {
        match self.problems().into_iter().next() {
            None => Ok(()),
            Some(p) => {
                let (line, column) = match text {
                    Some(t) => {
                        let (l, c) = locate(t, &p.path);
                        (Some(l), Some(c))
                    }
                    None => (None, None),
                };
                Err(ScenarioError {
                    path: path_string(&p.path),
                    line,
                    column,
                    message: p.message,
                })
            }
        }
    }

    /// The coordinator configuration the scenario asks for.
    pub fn coordinator_config(&self) -> CoordinatorConfig {
        let d = CoordinatorConfig::default();
        let s = &self.coordinator;
        let mut c = CoordinatorConfig {
            group_initial_rebalance_delay_ms: s
                .group_initial_rebalance_delay_ms
                .unwrap_or(d.group_initial_rebalance_delay_ms),
            group_min_session_timeout_ms: s
                .group_min_session_timeout_ms
                .unwrap_or(d.group_min_session_timeout_ms),
            group_max_session_timeout_ms: s
                .group_max_session_timeout_ms
                .unwrap_or(d.group_max_session_timeout_ms),
            group_max_size: s.group_max_size.unwrap_or(d.group_max_size),
            group_consumer_session_timeout_ms: s
                .group_consumer_session_timeout_ms
                .unwrap_or(d.group_consumer_session_timeout_ms),
            group_consumer_heartbeat_interval_ms: s
                .group_consumer_heartbeat_interval_ms
                .unwrap_or(d.group_consumer_heartbeat_interval_ms),
            group_consumer_max_size: s.group_consumer_max_size.unwrap_or(d.group_consumer_max_size),
            offsets_topic_num_partitions: s
                .offsets_topic_num_partitions
                .or(self.cluster.offsets_partitions)
                .unwrap_or(d.offsets_topic_num_partitions),
            offsets_retention_ms: s
                .offsets_retention_minutes
                .map_or(d.offsets_retention_ms, |m| m.saturating_mul(60_000)),
            offsets_retention_check_interval_ms: s
                .offsets_retention_check_interval_ms
                .unwrap_or(d.offsets_retention_check_interval_ms),
            ..d
        };
        kip848::apply(s, &mut c);
        c
    }

    /// The cluster configuration the scenario asks for.
    pub fn cluster_config(&self) -> ClusterConfig {
        let d = ClusterConfig::default();
        let s = &self.cluster;
        let brokers = s.brokers.unwrap_or(d.brokers);
        ClusterConfig {
            brokers,
            // With fewer brokers than Kafka's default factor and no explicit factor, every broker
            // holds a replica (Kafka would refuse to create the topic).
            replication_factor: s.replication_factor.unwrap_or(d.replication_factor.min(brokers)),
            min_insync_replicas: s.min_insync_replicas.unwrap_or(d.min_insync_replicas),
            replica_lag_time_max_ms: s.replica_lag_time_max_ms.unwrap_or(d.replica_lag_time_max_ms),
            replica_fetch_interval_ms: s.replica_fetch_interval_ms.unwrap_or(d.replica_fetch_interval_ms),
            offsets_commit_timeout_ms: s.offsets_commit_timeout_ms.unwrap_or(d.offsets_commit_timeout_ms),
        }
    }

    /// A consumer's full configuration: its spec over `client_defaults` over Kafka's defaults.
    pub fn consumer_config(&self, spec: &ConsumerSpec) -> ConsumerConfig {
        let d = &self.client_defaults;
        let name = spec.name.clone().unwrap_or_default();
        let sub = spec
            .subscription
            .clone()
            .or_else(|| d.subscription.clone())
            .unwrap_or_else(|| Subscription::Topics(Vec::new()));
        let mut c = ConsumerConfig::new(name.clone(), self.group_id.clone(), sub);
        macro_rules! pick {
            ($field:ident) => {
                if let Some(v) = spec.$field.clone().or_else(|| d.$field.clone()) {
                    c.$field = v;
                }
            };
        }
        pick!(group_protocol);
        if let Some(a) = spec.server_assignor.clone().or_else(|| d.server_assignor.clone()) {
            c.server_assignor = Some(a);
        }
        if let Some(r) = spec.rack_id.clone().or_else(|| d.rack_id.clone()) {
            c.client_rack = Some(r);
        }
        pick!(assignors);
        pick!(session_timeout_ms);
        pick!(heartbeat_interval_ms);
        pick!(max_poll_interval_ms);
        pick!(processing_ms);
        pick!(max_poll_records);
        pick!(commit);
        pick!(commit_in_revoke);
        pick!(metadata_max_age_ms);
        pick!(retry_backoff_ms);
        pick!(request_timeout_ms);
        c.client_id = spec.client_id.clone().unwrap_or(name);
        c.group_instance_id = spec.group_instance_id.clone();
        c
    }

    /// Every timed action as a simulation [`Action`], in file order (consumers first).
    pub fn timed_actions(&self) -> Vec<(SimTime, Action)> {
        let mut out = Vec::new();
        for spec in &self.consumers {
            out.push((
                SimTime(spec.start_ms.unwrap_or(0)),
                Action::AddConsumer {
                    config: Box::new(self.consumer_config(spec)),
                },
            ));
        }
        for a in &self.actions {
            let at = SimTime(a.at_ms());
            let action = match a.clone() {
                ActionSpec::AddConsumer { consumer, .. } => Action::AddConsumer {
                    config: Box::new(self.consumer_config(&consumer)),
                },
                ActionSpec::Kill { consumer, .. } => Action::Kill { consumer },
                ActionSpec::Close { consumer, .. } => Action::Close { consumer },
                ActionSpec::Restart { consumer, .. } => Action::Restart { consumer },
                ActionSpec::Pause {
                    consumer,
                    duration_ms,
                    heartbeats,
                    polls,
                    ..
                } => Action::Pause {
                    consumer,
                    duration_ms,
                    heartbeats,
                    polls,
                },
                ActionSpec::Resume { consumer, .. } => Action::Resume { consumer },
                ActionSpec::Subscribe {
                    consumer,
                    subscription,
                    ..
                } => Action::Subscribe {
                    consumer,
                    subscription,
                },
                ActionSpec::CreateTopic {
                    topic,
                    partitions,
                    records_per_sec,
                    initial_records,
                    ..
                } => Action::CreateTopic {
                    topic,
                    partitions,
                    records_per_sec,
                    initial_records,
                },
                ActionSpec::AddPartitions {
                    topic, partitions, ..
                } => Action::AddPartitions { topic, partitions },
                ActionSpec::DeleteTopic { topic, .. } => Action::DeleteTopic { topic },
                ActionSpec::SetProduceRate {
                    topic,
                    records_per_sec,
                    ..
                } => Action::SetProduceRate {
                    topic,
                    records_per_sec,
                },
                ActionSpec::SetNetwork { network, .. } => Action::SetNetwork { network },
                ActionSpec::CoordinatorFailover { duration_ms, .. } => {
                    Action::CoordinatorFailover { duration_ms }
                }
                ActionSpec::CrashBroker { broker, graceful, .. } => Action::CrashBroker {
                    broker: NodeId(broker),
                    graceful,
                },
                ActionSpec::RestartBroker { broker, .. } => Action::RestartBroker {
                    broker: NodeId(broker),
                },
                ActionSpec::SlowBroker {
                    broker,
                    fetch_interval_ms,
                    duration_ms,
                    ..
                } => Action::SlowBroker {
                    broker: NodeId(broker),
                    fetch_interval_ms,
                    duration_ms,
                },
                ActionSpec::Request { script, request, .. } => Action::SendRequest { script, request },
                ActionSpec::AdminRequest { request, .. } => Action::AdminRequest { request },
            };
            out.push((at, action));
        }
        out
    }

    fn problems(&self) -> Vec<Problem> {
        let mut ps = Vec::new();
        if self.version != SCENARIO_VERSION {
            ps.push(problem(
                vec![key("version")],
                format!("unsupported version {}", self.version),
            ));
        }
        if self.group_id.is_empty() {
            ps.push(problem(vec![key("group_id")], "must not be empty"));
        }
        if self.end_ms == 0 {
            ps.push(problem(vec![key("end_ms")], "must be positive"));
        }
        self.limit_problems(&mut ps);
        kip848::problems(&self.coordinator, &mut ps);
        preload::problems(self, &mut ps);
        let cc = self.coordinator_config();
        if cc.offsets_topic_num_partitions < 1 {
            ps.push(problem(
                vec![key("coordinator"), key("offsets_topic_num_partitions")],
                "must be at least 1",
            ));
        }
        if let (Some(a), Some(b)) = (
            self.coordinator.offsets_topic_num_partitions,
            self.cluster.offsets_partitions,
        ) {
            if a != b {
                ps.push(problem(
                    vec![key("cluster"), key("offsets_partitions")],
                    format!("{b} contradicts coordinator.offsets_topic_num_partitions {a}; give one of them"),
                ));
            }
        }
        let cl = self.cluster_config();
        let cfield = |f: &str| vec![key("cluster"), key(f)];
        if cl.brokers < 1 {
            ps.push(problem(cfield("brokers"), "a cluster needs at least 1 broker"));
        }
        if cl.replication_factor < 1 {
            ps.push(problem(cfield("replication_factor"), "must be at least 1"));
        } else if cl.brokers >= 1 && cl.replication_factor > cl.brokers {
            ps.push(problem(
                cfield("replication_factor"),
                format!(
                    "replication factor {} is larger than the {} broker(s) available",
                    cl.replication_factor, cl.brokers
                ),
            ));
        }
        if cl.min_insync_replicas < 1 {
            ps.push(problem(cfield("min_insync_replicas"), "must be at least 1"));
        } else if cl.replication_factor >= 1 && cl.min_insync_replicas > cl.replication_factor {
            ps.push(problem(
                cfield("min_insync_replicas"),
                format!(
                    "{} is above the replication factor {}: no append could ever succeed",
                    cl.min_insync_replicas, cl.replication_factor
                ),
            ));
        }
        if cl.replica_lag_time_max_ms == 0 {
            ps.push(problem(cfield("replica_lag_time_max_ms"), "must be positive"));
        }
        if cl.offsets_commit_timeout_ms == 0 {
            ps.push(problem(cfield("offsets_commit_timeout_ms"), "must be positive"));
        }
        if cc.group_min_session_timeout_ms > cc.group_max_session_timeout_ms {
            ps.push(problem(
                vec![key("coordinator"), key("group_min_session_timeout_ms")],
                "is above group_max_session_timeout_ms",
            ));
        }
        for (name, p) in [
            ("drop_probability", self.network.drop_probability),
            ("delay_probability", self.network.delay_probability),
        ] {
            if !(0.0..=1.0).contains(&p) {
                ps.push(problem(
                    vec![key("network"), key(name)],
                    format!("{p} is not a probability between 0 and 1"),
                ));
            }
        }
        for forbidden in ["name", "start_ms", "client_id", "group_instance_id"] {
            let set = match forbidden {
                "name" => self.client_defaults.name.is_some(),
                "start_ms" => self.client_defaults.start_ms.is_some(),
                "client_id" => self.client_defaults.client_id.is_some(),
                _ => self.client_defaults.group_instance_id.is_some(),
            };
            if set {
                ps.push(problem(
                    vec![key("client_defaults"), key(forbidden)],
                    "belongs to a single consumer, not to client_defaults",
                ));
            }
        }

        // Topics, in time order, to check actions that refer to them.
        let mut topic_names: Set<String> = Set::new();
        let mut ever_topics: Set<String> = Set::new();
        for (i, t) in self.topics.iter().enumerate() {
            let at = vec![key("topics"), Seg::Index(i)];
            if t.name.is_empty() {
                ps.push(problem(
                    [at.clone(), vec![key("name")]].concat(),
                    "must not be empty",
                ));
            }
            if t.partitions < 1 {
                ps.push(problem(
                    [at.clone(), vec![key("partitions")]].concat(),
                    format!(
                        "topic `{}` needs at least 1 partition, not {}",
                        t.name, t.partitions
                    ),
                ));
            }
            if !topic_names.insert(t.name.clone()) {
                ps.push(problem(
                    [at, vec![key("name")]].concat(),
                    format!("duplicate topic `{}`", t.name),
                ));
            }
            ever_topics.insert(t.name.clone());
        }
        for a in &self.actions {
            if let ActionSpec::CreateTopic { topic, .. } = a {
                ever_topics.insert(topic.clone());
            }
        }

        // Consumers.
        let mut names: Set<String> = Set::new();
        for (i, c) in self.consumers.iter().enumerate() {
            let at = vec![key("consumers"), Seg::Index(i)];
            self.check_consumer(c, &at, &ever_topics, &mut names, &mut ps);
            if let Some(s) = c.start_ms {
                if s > self.end_ms {
                    ps.push(problem(
                        [at, vec![key("start_ms")]].concat(),
                        format!("{s} ms is after end_ms {} ms", self.end_ms),
                    ));
                }
            }
        }

        // Actions, in time order (stable for equal times, as the simulation runs them).
        let mut order: Vec<usize> = (0..self.actions.len()).collect();
        sort_by_key(&mut order, |&i| self.actions[i].at_ms());
        let mut partitions: Map<String, i32> =
            Map::from_iter(self.topics.iter().map(|t| (t.name.clone(), t.partitions)));
        let mut known: Set<String> = names.clone();
        // Consumers added by actions count as known for every action (the check below is in time order).
        for i in order {
            let a = &self.actions[i];
            let at = vec![key("actions"), Seg::Index(i)];
            if a.at_ms() > self.end_ms {
                ps.push(problem(
                    [at.clone(), vec![key("at_ms")]].concat(),
                    format!("{} ms is after end_ms {} ms", a.at_ms(), self.end_ms),
                ));
            }
            let need_consumer = |name: &str, ps: &mut Vec<Problem>| {
                if !known.contains(name) {
                    ps.push(problem(
                        [at.clone(), vec![key("consumer")]].concat(),
                        format!("no consumer named `{name}` exists at this time"),
                    ));
                }
            };
            match a {
                ActionSpec::AddConsumer { consumer, .. } => {
                    let cat = [at.clone(), vec![key("consumer")]].concat();
                    if consumer.start_ms.is_some() {
                        ps.push(problem(
                            [cat.clone(), vec![key("start_ms")]].concat(),
                            "an added consumer starts at the action's at_ms",
                        ));
                    }
                    self.check_consumer(consumer, &cat, &ever_topics, &mut names, &mut ps);
                    if let Some(n) = &consumer.name {
                        known.insert(n.clone());
                    }
                }
                ActionSpec::Kill { consumer, .. }
                | ActionSpec::Close { consumer, .. }
                | ActionSpec::Restart { consumer, .. }
                | ActionSpec::Pause { consumer, .. }
                | ActionSpec::Resume { consumer, .. } => need_consumer(consumer, &mut ps),
                ActionSpec::Subscribe { consumer, subscription, .. } => {
                    need_consumer(consumer, &mut ps);
                    check_subscription(
                        subscription,
                        &[at.clone(), vec![key("subscription")]].concat(),
                        &ever_topics,
                        &mut ps,
                    );
                }
                ActionSpec::CreateTopic { topic, partitions: n, .. } => {
                    if *n < 1 {
                        ps.push(problem(
                            [at.clone(), vec![key("partitions")]].concat(),
                            format!("topic `{topic}` needs at least 1 partition, not {n}"),
                        ));
                    }
                    if partitions.contains_key(topic) {
                        ps.push(problem(
                            [at.clone(), vec![key("topic")]].concat(),
                            format!("topic `{topic}` already exists at this time"),
                        ));
                    }
                    partitions.insert(topic.clone(), *n);
                }
                ActionSpec::AddPartitions { topic, partitions: n, .. } => match partitions.get(topic).copied() {
                    None => ps.push(problem(
                        [at.clone(), vec![key("topic")]].concat(),
                        format!("no topic named `{topic}` exists at this time"),
                    )),
                    Some(cur) if *n <= cur => ps.push(problem(
                        [at.clone(), vec![key("partitions")]].concat(),
                        format!("topic `{topic}` has {cur} partitions; Kafka can only add partitions, so {n} is impossible"),
                    )),
                    Some(_) => {
                        partitions.insert(topic.clone(), *n);
                    }
                },
                ActionSpec::DeleteTopic { topic, .. } => {
                    if partitions.remove(topic).is_none() {
                        ps.push(problem(
                            [at.clone(), vec![key("topic")]].concat(),
                            format!("no topic named `{topic}` exists at this time"),
                        ));
                    }
                }
                ActionSpec::SetProduceRate { topic, .. } => {
                    if !partitions.contains_key(topic) {
                        ps.push(problem(
                            [at.clone(), vec![key("topic")]].concat(),
                            format!("no topic named `{topic}` exists at this time"),
                        ));
                    }
                }
                ActionSpec::SetNetwork { network, .. } => {
                    for (name, p) in [
                        ("drop_probability", network.drop_probability),
                        ("delay_probability", network.delay_probability),
                    ] {
                        if !(0.0..=1.0).contains(&p) {
                            ps.push(problem(
                                [at.clone(), vec![key("network"), key(name)]].concat(),
                                format!("{p} is not a probability between 0 and 1"),
                            ));
                        }
                    }
                }
                ActionSpec::CoordinatorFailover { duration_ms, .. } => {
                    if *duration_ms == 0 {
                        ps.push(problem([at.clone(), vec![key("duration_ms")]].concat(), "must be positive"));
                    }
                }
                ActionSpec::CrashBroker { broker, .. } | ActionSpec::RestartBroker { broker, .. } => {
                    if *broker < 0 || *broker as i64 >= cl.brokers as i64 {
                        ps.push(problem(
                            [at.clone(), vec![key("broker")]].concat(),
                            format!("no broker {broker}: brokers are 0..{}", cl.brokers),
                        ));
                    }
                }
                ActionSpec::SlowBroker {
                    broker,
                    fetch_interval_ms,
                    duration_ms,
                    ..
                } => {
                    if *broker < 0 || *broker as i64 >= cl.brokers as i64 {
                        ps.push(problem(
                            [at.clone(), vec![key("broker")]].concat(),
                            format!("no broker {broker}: brokers are 0..{}", cl.brokers),
                        ));
                    }
                    if *fetch_interval_ms == 0 {
                        ps.push(problem(
                            [at.clone(), vec![key("fetch_interval_ms")]].concat(),
                            "must be positive",
                        ));
                    }
                    if *duration_ms == Some(0) {
                        ps.push(problem([at.clone(), vec![key("duration_ms")]].concat(), "must be positive"));
                    }
                }
                ActionSpec::Request { script, .. } => {
                    if script.is_empty() {
                        ps.push(problem([at.clone(), vec![key("script")]].concat(), "must not be empty"));
                    }
                }
                ActionSpec::AdminRequest { request, .. } => {
                    if let Err(e) = crate::sim::action::check_admin_request(request) {
                        ps.push(problem([at.clone(), vec![key("request")]].concat(), e.0));
                    }
                }
            }
        }
        ps
    }

    fn check_consumer(
        &self,
        c: &ConsumerSpec,
        at: &[Seg],
        topics: &Set<String>,
        names: &mut Set<String>,
        ps: &mut Vec<Problem>,
    ) {
        let field = |f: &str| [at.to_vec(), vec![key(f)]].concat();
        self.consumer_limit_problems(c, at, ps);
        let Some(name) = &c.name else {
            ps.push(problem(at.to_vec(), "a consumer needs a `name`"));
            return;
        };
        if name.is_empty() {
            ps.push(problem(field("name"), "must not be empty"));
        }
        if !names.insert(name.clone()) {
            ps.push(problem(
                field("name"),
                format!("duplicate consumer name `{name}`"),
            ));
        }
        let cfg = self.consumer_config(c);
        let cc = self.coordinator_config();
        // The field to blame: the consumer's own if it set one, else client_defaults'.
        let blame = |f: &str, own: bool| {
            if own {
                field(f)
            } else {
                vec![key("client_defaults"), key(f)]
            }
        };
        let d = &self.client_defaults;
        if cfg.group_protocol == GroupProtocol::Consumer {
            // Kafka's client throws ConfigException for these under group.protocol=consumer
            // (`CONSUMER_PROTOCOL_UNSUPPORTED_CONFIGS`): the coordinator assigns, and the session
            // timeout and heartbeat interval are the broker's `group.consumer.*` settings.
            let unsupported = [
                (
                    "assignors",
                    "partition.assignment.strategy",
                    c.assignors.is_some(),
                    d.assignors.is_some(),
                ),
                (
                    "session_timeout_ms",
                    "session.timeout.ms",
                    c.session_timeout_ms.is_some(),
                    d.session_timeout_ms.is_some(),
                ),
                (
                    "heartbeat_interval_ms",
                    "heartbeat.interval.ms",
                    c.heartbeat_interval_ms.is_some(),
                    d.heartbeat_interval_ms.is_some(),
                ),
            ];
            for (f, kafka, own, default) in unsupported {
                if own || default {
                    ps.push(problem(
                        blame(f, own),
                        format!(
                            "{kafka} cannot be set when group.protocol=CONSUMER (Kafka's client rejects it: {})",
                            match f {
                                "assignors" => "the coordinator computes the assignment; use server_assignor",
                                "session_timeout_ms" => "the session timeout is the coordinator's group_consumer_session_timeout_ms",
                                _ => "the interval is the coordinator's group_consumer_heartbeat_interval_ms",
                            }
                        ),
                    ));
                }
            }
            if let Some(r) = &cfg.client_rack {
                if r.is_empty() {
                    // Kafka refuses `RackId: ""` (INVALID_REQUEST "RackId can't be empty.").
                    ps.push(problem(
                        blame("rack_id", c.rack_id.is_some()),
                        "rack_id \"\" is empty: a rack id must have at least 1 character (omit it for no rack; \
                         Kafka refuses an empty RackId with INVALID_REQUEST)",
                    ));
                }
            }
            if let Some(a) = &cfg.server_assignor {
                if let Err(issue) = crate::client::check_name(a) {
                    ps.push(problem(
                        blame("server_assignor", c.server_assignor.is_some()),
                        format!("{issue}"),
                    ));
                }
            }
        } else {
            if cfg.client_rack.is_some() {
                ps.push(problem(
                    blame("rack_id", c.rack_id.is_some()),
                    "rack_id is modelled for group_protocol \"consumer\" only (the classic client's rack, in its \
                     JoinGroup subscription, is not simulated); set group_protocol to \"consumer\" or omit rack_id",
                ));
            }
            if cfg.server_assignor.is_some() {
                ps.push(problem(
                    blame("server_assignor", c.server_assignor.is_some()),
                    "group.remote.assignor cannot be set when group.protocol=CLASSIC (Kafka's client rejects it); \
                     set group_protocol to \"consumer\", or use assignors",
                ));
            }
            if cfg.heartbeat_interval_ms >= cfg.session_timeout_ms {
                ps.push(problem(
                    blame("heartbeat_interval_ms", c.heartbeat_interval_ms.is_some()),
                    format!(
                        "heartbeat.interval.ms {} must be below session.timeout.ms {} (Kafka rejects it)",
                        cfg.heartbeat_interval_ms, cfg.session_timeout_ms
                    ),
                ));
            }
            if cfg.heartbeat_interval_ms == 0 {
                ps.push(problem(
                    blame("heartbeat_interval_ms", c.heartbeat_interval_ms.is_some()),
                    "must be positive",
                ));
            }
            let st = cfg.session_timeout_ms;
            if st < cc.group_min_session_timeout_ms.max(0) as u64
                || st > cc.group_max_session_timeout_ms.max(0) as u64
            {
                ps.push(problem(
                    blame("session_timeout_ms", c.session_timeout_ms.is_some()),
                    format!(
                        "session.timeout.ms {st} is outside the coordinator's [group.min.session.timeout.ms {}, \
                         group.max.session.timeout.ms {}] (JoinGroup would fail with INVALID_SESSION_TIMEOUT)",
                        cc.group_min_session_timeout_ms, cc.group_max_session_timeout_ms
                    ),
                ));
            }
        }
        if cfg.processing_ms == 0 {
            ps.push(problem(
                blame("processing_ms", c.processing_ms.is_some()),
                "must be positive",
            ));
        }
        if cfg.max_poll_interval_ms == 0 {
            ps.push(problem(
                blame("max_poll_interval_ms", c.max_poll_interval_ms.is_some()),
                "must be positive",
            ));
        }
        if cfg.request_timeout_ms == 0 {
            // Kafka's definition accepts 0 (`atLeast(0)`), but then every request times out as it
            // is sent and is retried forever: nothing a scenario can mean.
            ps.push(problem(
                blame("request_timeout_ms", c.request_timeout_ms.is_some()),
                "must be positive (with 0 every request times out as soon as it is sent)",
            ));
        }
        if cfg.max_poll_records == 0 {
            ps.push(problem(
                blame("max_poll_records", c.max_poll_records.is_some()),
                "must be positive",
            ));
        }
        if cfg.assignors.is_empty() {
            ps.push(problem(
                blame("assignors", c.assignors.is_some()),
                "needs at least one assignor",
            ));
        }
        match cfg.commit {
            CommitMode::Auto { interval_ms: 0 } => ps.push(problem(
                blame("commit", c.commit.is_some()),
                "interval_ms must be positive",
            )),
            CommitMode::Manual { every_batches: 0 } => ps.push(problem(
                blame("commit", c.commit.is_some()),
                "every_batches must be at least 1",
            )),
            _ => {}
        }
        if c.subscription.is_none() && self.client_defaults.subscription.is_none() {
            ps.push(problem(
                field("subscription"),
                "a consumer must subscribe to something",
            ));
        } else {
            let sub_path = if c.subscription.is_some() {
                field("subscription")
            } else {
                vec![key("client_defaults"), key("subscription")]
            };
            check_subscription(&cfg.subscription, &sub_path, topics, ps);
        }
        if let Some(i) = &c.group_instance_id {
            if i.is_empty() {
                ps.push(problem(
                    field("group_instance_id"),
                    "must not be empty (omit it for a dynamic member)",
                ));
            }
        }
    }
}

/// `value` must be at most `limit`.
fn at_most<T: PartialOrd + fmt::Display>(
    ps: &mut Vec<Problem>,
    path: Vec<Seg>,
    value: T,
    limit: T,
    what: &str,
) {
    if value > limit {
        ps.push(problem(
            path,
            format!("{value} {what} is more than the limit ({limit})"),
        ));
    }
}

/// A name's length must be at most `limit` characters.
fn name_at_most(ps: &mut Vec<Problem>, path: Vec<Seg>, name: &str, limit: usize) {
    let n = name.chars().count();
    if n > limit {
        ps.push(problem(
            path,
            format!("the name is {n} characters long (at most {limit})"),
        ));
    }
}

/// A setting in ms must be at most [`MAX_SETTING_MS`].
fn ms_at_most(ps: &mut Vec<Problem>, path: Vec<Seg>, value: u64) {
    at_most(ps, path, value, MAX_SETTING_MS, "ms");
}

fn check_network(n: &NetworkConfig, at: &[Seg], ps: &mut Vec<Problem>) {
    for (name, v) in [
        ("latency_ms", n.latency_ms),
        ("jitter_ms", n.jitter_ms),
        ("delay_ms", n.delay_ms),
    ] {
        at_most(
            ps,
            [at.to_vec(), vec![key(name)]].concat(),
            v,
            MAX_NETWORK_MS,
            "ms",
        );
    }
}

impl Scenario {
    /// The limits on sizes and durations (see the constants at the top of this module).
    fn limit_problems(&self, ps: &mut Vec<Problem>) {
        at_most(ps, vec![key("end_ms")], self.end_ms, MAX_END_MS, "ms");
        name_at_most(ps, vec![key("group_id")], &self.group_id, MAX_NAME_CHARS);
        if let Some(n) = &self.name {
            name_at_most(ps, vec![key("name")], n, MAX_TEXT_CHARS);
        }
        if let Some(d) = &self.description {
            name_at_most(ps, vec![key("description")], d, MAX_TEXT_CHARS);
        }
        let co = |f: &str| vec![key("coordinator"), key(f)];
        let c = &self.coordinator;
        if let Some(v) = c.group_initial_rebalance_delay_ms {
            ms_at_most(ps, co("group_initial_rebalance_delay_ms"), v);
        }
        if let Some(v) = c.group_min_session_timeout_ms {
            if v < 0 {
                ps.push(problem(
                    co("group_min_session_timeout_ms"),
                    format!("{v} is negative"),
                ));
            }
        }
        if let Some(v) = c.offsets_retention_minutes {
            // Kafka: `offsets.retention.minutes` is at least 1.
            if v == 0 {
                ps.push(problem(co("offsets_retention_minutes"), "must be at least 1"));
            }
            at_most(
                ps,
                co("offsets_retention_minutes"),
                v,
                MAX_RETENTION_MINUTES,
                "minutes",
            );
        }
        if let Some(v) = c.offsets_retention_check_interval_ms {
            // Kafka: `offsets.retention.check.interval.ms` is at least 1.
            if v == 0 {
                ps.push(problem(
                    co("offsets_retention_check_interval_ms"),
                    "must be positive",
                ));
            }
            ms_at_most(ps, co("offsets_retention_check_interval_ms"), v);
        }
        if let Some(v) = c.group_consumer_session_timeout_ms {
            ms_at_most(ps, co("group_consumer_session_timeout_ms"), v);
        }
        if let Some(v) = c.group_consumer_heartbeat_interval_ms {
            if v <= 0 {
                ps.push(problem(
                    co("group_consumer_heartbeat_interval_ms"),
                    "must be positive",
                ));
            }
        }
        if let Some(v) = c.offsets_topic_num_partitions {
            at_most(
                ps,
                co("offsets_topic_num_partitions"),
                v,
                MAX_OFFSETS_PARTITIONS,
                "partitions",
            );
        }
        let cl = |f: &str| vec![key("cluster"), key(f)];
        let k = &self.cluster;
        if let Some(v) = k.brokers {
            at_most(ps, cl("brokers"), v, MAX_BROKERS, "brokers");
        }
        if let Some(v) = k.offsets_partitions {
            at_most(
                ps,
                cl("offsets_partitions"),
                v,
                MAX_OFFSETS_PARTITIONS,
                "partitions",
            );
        }
        for (f, v) in [
            ("replica_lag_time_max_ms", k.replica_lag_time_max_ms),
            ("replica_fetch_interval_ms", k.replica_fetch_interval_ms),
            ("offsets_commit_timeout_ms", k.offsets_commit_timeout_ms),
        ] {
            if let Some(v) = v {
                ms_at_most(ps, cl(f), v);
            }
        }
        check_network(&self.network, &[key("network")], ps);
        self.consumer_limit_problems(&self.client_defaults, &[key("client_defaults")], ps);
        let created = self
            .actions
            .iter()
            .filter(|a| matches!(a, ActionSpec::CreateTopic { .. }))
            .count();
        at_most(
            ps,
            vec![key("topics")],
            self.topics.len() + created,
            MAX_TOPICS,
            "topics (with create_topic actions)",
        );
        for (i, t) in self.topics.iter().enumerate() {
            let at = |f: &str| vec![key("topics"), Seg::Index(i), key(f)];
            name_at_most(ps, at("name"), &t.name, MAX_TOPIC_NAME_CHARS);
            at_most(ps, at("partitions"), t.partitions, MAX_PARTITIONS, "partitions");
            at_most(
                ps,
                at("records_per_sec"),
                t.records_per_sec,
                MAX_RECORDS_PER_SEC,
                "records per second",
            );
            check_initial_records(ps, at("initial_records"), t.initial_records);
        }
        let added = self
            .actions
            .iter()
            .filter(|a| matches!(a, ActionSpec::AddConsumer { .. }))
            .count();
        at_most(
            ps,
            vec![key("consumers")],
            self.consumers.len() + added,
            MAX_CONSUMERS,
            "consumers (with add_consumer actions)",
        );
        at_most(
            ps,
            vec![key("actions")],
            self.actions.len(),
            MAX_ACTIONS,
            "actions",
        );
        for (i, a) in self.actions.iter().enumerate() {
            let at = |f: &str| vec![key("actions"), Seg::Index(i), key(f)];
            match a {
                ActionSpec::Pause {
                    duration_ms: Some(d), ..
                }
                | ActionSpec::SlowBroker {
                    duration_ms: Some(d), ..
                } => {
                    at_most(ps, at("duration_ms"), *d, MAX_END_MS, "ms");
                }
                ActionSpec::CoordinatorFailover { duration_ms, .. } => {
                    at_most(ps, at("duration_ms"), *duration_ms, MAX_END_MS, "ms");
                }
                _ => {}
            }
            match a {
                ActionSpec::CreateTopic {
                    topic,
                    partitions,
                    records_per_sec,
                    initial_records,
                    ..
                } => {
                    name_at_most(ps, at("topic"), topic, MAX_TOPIC_NAME_CHARS);
                    at_most(ps, at("partitions"), *partitions, MAX_PARTITIONS, "partitions");
                    at_most(
                        ps,
                        at("records_per_sec"),
                        *records_per_sec,
                        MAX_RECORDS_PER_SEC,
                        "records per second",
                    );
                    check_initial_records(ps, at("initial_records"), *initial_records);
                }
                ActionSpec::AddPartitions { partitions, .. } => {
                    at_most(ps, at("partitions"), *partitions, MAX_PARTITIONS, "partitions");
                }
                ActionSpec::SetProduceRate { records_per_sec, .. } => {
                    at_most(
                        ps,
                        at("records_per_sec"),
                        *records_per_sec,
                        MAX_RECORDS_PER_SEC,
                        "records per second",
                    );
                }
                ActionSpec::SetNetwork { network, .. } => {
                    check_network(network, &[key("actions"), Seg::Index(i), key("network")], ps);
                }
                ActionSpec::SlowBroker {
                    fetch_interval_ms, ..
                } => {
                    ms_at_most(ps, at("fetch_interval_ms"), *fetch_interval_ms);
                }
                ActionSpec::Request { script, .. } => {
                    name_at_most(ps, at("script"), script, MAX_NAME_CHARS);
                }
                ActionSpec::Subscribe { subscription, .. } => {
                    check_subscription_size(ps, at("subscription"), subscription);
                }
                _ => {}
            }
        }
    }

    /// The limits on one consumer's own fields (`at` is the consumer's path).
    fn consumer_limit_problems(&self, c: &ConsumerSpec, at: &[Seg], ps: &mut Vec<Problem>) {
        let field = |f: &str| [at.to_vec(), vec![key(f)]].concat();
        for (f, v) in [
            ("name", &c.name),
            ("client_id", &c.client_id),
            ("group_instance_id", &c.group_instance_id),
            ("server_assignor", &c.server_assignor),
            ("rack_id", &c.rack_id),
        ] {
            if let Some(v) = v {
                name_at_most(ps, field(f), v, MAX_NAME_CHARS);
            }
        }
        for (f, v) in [
            ("session_timeout_ms", c.session_timeout_ms),
            ("heartbeat_interval_ms", c.heartbeat_interval_ms),
            ("max_poll_interval_ms", c.max_poll_interval_ms),
            ("processing_ms", c.processing_ms),
            ("metadata_max_age_ms", c.metadata_max_age_ms),
            ("retry_backoff_ms", c.retry_backoff_ms),
            ("request_timeout_ms", c.request_timeout_ms),
        ] {
            if let Some(v) = v {
                ms_at_most(ps, field(f), v);
            }
        }
        if let Some(v) = c.max_poll_records {
            at_most(ps, field("max_poll_records"), v, MAX_POLL_RECORDS, "records");
        }
        if let Some(CommitMode::Auto { interval_ms }) = c.commit {
            ms_at_most(
                ps,
                [field("commit"), vec![key("interval_ms")]].concat(),
                interval_ms,
            );
        }
        if let Some(a) = &c.assignors {
            at_most(ps, field("assignors"), a.len(), MAX_LIST_ENTRIES, "assignors");
        }
        if let Some(s) = &c.subscription {
            check_subscription_size(ps, field("subscription"), s);
        }
    }
}

fn check_initial_records(ps: &mut Vec<Problem>, path: Vec<Seg>, n: i64) {
    if n < 0 {
        ps.push(problem(path, format!("{n} is negative")));
    } else {
        at_most(ps, path, n, MAX_INITIAL_RECORDS, "records");
    }
}

fn check_subscription_size(ps: &mut Vec<Problem>, path: Vec<Seg>, s: &Subscription) {
    if let Subscription::Topics(ts) = s {
        let topics = [path.clone(), vec![key("topics")]].concat();
        at_most(ps, topics.clone(), ts.len(), MAX_LIST_ENTRIES, "topics");
        for (i, t) in ts.iter().enumerate() {
            name_at_most(
                ps,
                [topics.clone(), vec![Seg::Index(i)]].concat(),
                t,
                MAX_TOPIC_NAME_CHARS,
            );
        }
    }
}

fn check_subscription(s: &Subscription, at: &[Seg], topics: &Set<String>, ps: &mut Vec<Problem>) {
    match s {
        Subscription::Topics(ts) => {
            if ts.is_empty() {
                ps.push(problem(at.to_vec(), "subscribes to no topic"));
            }
            for (i, t) in ts.iter().enumerate() {
                if !topics.contains(t) {
                    ps.push(problem(
                        [at.to_vec(), vec![key("topics"), Seg::Index(i)]].concat(),
                        format!("topic `{t}` does not exist and no create_topic action creates it"),
                    ));
                }
            }
        }
        Subscription::Pattern(p) => {
            if let Err(e) = Pattern::new(p) {
                ps.push(problem(
                    [at.to_vec(), vec![key("pattern")]].concat(),
                    format!("bad pattern: {e}"),
                ));
            }
        }
    }
}

/// The first byte offset where arrays and objects nest deeper than [`MAX_JSON_DEPTH`], and how
/// deep. One pass, strings skipped.
fn too_deep(text: &str) -> Option<(usize, usize)> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for (i, b) in text.bytes().enumerate() {
        if in_string {
            match (escaped, b) {
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => escaped = false,
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' | b'[' => {
                depth += 1;
                if depth > MAX_JSON_DEPTH {
                    return Some((i, depth));
                }
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

fn json_kind(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

fn serde_error(e: &serde_json::Error, text: &str) -> ScenarioError {
    // A type error (wrong type, unknown field, missing field) is blamed on the value at its
    // position; a syntax error has no field.
    let path = match e.classify() {
        serde_json::error::Category::Data => path_string(&locate::path_at(
            text,
            locate::offset_of(text, e.line(), e.column()),
        )),
        _ => String::new(),
    };
    ScenarioError {
        path,
        line: Some(e.line()),
        column: Some(e.column()),
        message: match e.classify() {
            serde_json::error::Category::Syntax | serde_json::error::Category::Eof => {
                format!("invalid JSON: {e}")
            }
            _ => strip_position(&e.to_string()),
        },
    }
}

/// serde_json appends " at line L column C"; the error prints its own position.
fn strip_position(s: &str) -> String {
    match s.rfind(" at line ") {
        Some(i) => s[..i].to_owned(),
        None => s.to_owned(),
    }
}

/// The first key of `raw` (recursively) that does not survive a round trip through the typed
/// value `back`; `path` is extended to point at it.
fn unknown_field(raw: &serde_json::Value, back: &serde_json::Value, path: &mut Vec<Seg>) -> Option<String> {
    use serde_json::Value;
    match (raw, back) {
        (Value::Object(r), Value::Object(b)) => {
            for (k, v) in r {
                match b.get(k) {
                    None => {
                        path.push(Seg::Key(k.clone()));
                        return Some(k.clone());
                    }
                    Some(bv) => {
                        path.push(Seg::Key(k.clone()));
                        if let Some(u) = unknown_field(v, bv, path) {
                            return Some(u);
                        }
                        path.pop();
                    }
                }
            }
            None
        }
        (Value::Array(r), Value::Array(b)) => {
            for (i, (rv, bv)) in r.iter().zip(b).enumerate() {
                path.push(Seg::Index(i));
                if let Some(u) = unknown_field(rv, bv, path) {
                    return Some(u);
                }
                path.pop();
            }
            None
        }
        _ => None,
    }
}
