//! A consumer's settings, with the Java client's defaults.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::assignor::{RebalanceProtocol, Strategy};
use crate::coordinator::CoordinatorConfig;
use crate::topic::Subscription;

/// How a consumer commits offsets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "mode", rename_all = "snake_case", deny_unknown_fields)]
pub enum CommitMode {
    /// `enable.auto.commit=true`: an asynchronous commit inside `poll()` once `interval_ms`
    /// (`auto.commit.interval.ms`, default 5000) has passed since the last one, a synchronous one
    /// before an eager rebalance revokes partitions (`onJoinPrepare`), and one on close.
    Auto {
        /// `auto.commit.interval.ms`.
        interval_ms: u64,
    },
    /// `enable.auto.commit=false` and the application calls `commitAsync()` after every
    /// `every_batches`-th batch it processed (1 = after each batch).
    Manual {
        /// Commit after this many batches.
        every_batches: u32,
    },
    /// `enable.auto.commit=false` and the application never commits in its loop (only on close and,
    /// if the switch is on, in `onPartitionsRevoked`).
    Never,
}

impl fmt::Display for CommitMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Auto { interval_ms } => write!(f, "auto-commit every {interval_ms} ms"),
            Self::Manual { every_batches: 1 } => f.write_str("manual commit after each batch"),
            Self::Manual { every_batches } => write!(f, "manual commit every {every_batches} batches"),
            Self::Never => f.write_str("no commits in the poll loop"),
        }
    }
}

/// `group.protocol`: which group protocol a consumer speaks (KIP-848). Kafka 4's default is still
/// `classic`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GroupProtocol {
    /// JoinGroup / SyncGroup / Heartbeat, with a client-side assignor chosen by the group leader.
    #[default]
    Classic,
    /// ConsumerGroupHeartbeat: the coordinator computes the assignment and each member reconciles
    /// on its own.
    Consumer,
}

impl GroupProtocol {
    /// The value of `group.protocol`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Classic => "classic",
            Self::Consumer => "consumer",
        }
    }
}

/// Everything that defines one simulated consumer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConsumerConfig {
    /// The name shown in the UI and the trace (unique in a simulation).
    pub name: String,
    /// `client.id`; dynamic member ids start with it.
    pub client_id: String,
    /// `group.id`.
    pub group_id: String,
    /// `group.instance.id`: set for a static member (KIP-345).
    pub group_instance_id: Option<String>,
    /// `group.protocol` (`classic`).
    pub group_protocol: GroupProtocol,
    /// `group.remote.assignor` (consumer protocol only): the server-side assignor this member asks
    /// for (`uniform` or `range`); unset, the coordinator uses its default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_assignor: Option<String>,
    /// `client.rack` (consumer protocol only): sent as `RackId` when the member joins.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_rack: Option<String>,
    /// `partition.assignment.strategy`, in order of preference. The rebalance protocol follows
    /// from it (see [`ConsumerConfig::protocol`]).
    pub assignors: Vec<Strategy>,
    /// What the consumer subscribes to.
    pub subscription: Subscription,
    /// `session.timeout.ms` (45000).
    pub session_timeout_ms: u64,
    /// `heartbeat.interval.ms` (3000).
    pub heartbeat_interval_ms: u64,
    /// `max.poll.interval.ms` (300000); also the JoinGroup rebalance timeout.
    pub max_poll_interval_ms: u64,
    /// How long the application takes to process one batch returned by `poll()` (the articles'
    /// `time.sleep`): consumer A takes 10 s, B 20 s. Applies to every loop iteration, even when the
    /// batch is empty.
    pub processing_ms: u64,
    /// `max.poll.records` (500).
    pub max_poll_records: u32,
    /// How offsets are committed.
    pub commit: CommitMode,
    /// Whether the rebalance listener commits the processed offsets in `onPartitionsRevoked` (the
    /// articles' `ConsumerRebalanceListener`).
    pub commit_in_revoke: bool,
    /// `metadata.max.age.ms` (300000): how often metadata is refreshed even without a reason.
    pub metadata_max_age_ms: u64,
    /// `retry.backoff.ms` (100).
    pub retry_backoff_ms: u64,
    /// `request.timeout.ms` (30000). A JoinGroup waits `max.poll.interval.ms + 5000` instead.
    pub request_timeout_ms: u64,
}

impl ConsumerConfig {
    /// A consumer named `name` in `group_id` with the Java client's defaults: `range` then
    /// `cooperative-sticky` (so eager), auto-commit every 5 s, 45 s session, 3 s heartbeats, 5 min
    /// poll interval; it processes each batch in 1 s.
    pub fn new(name: impl Into<String>, group_id: impl Into<String>, subscription: Subscription) -> Self {
        let name = name.into();
        Self {
            client_id: name.clone(),
            name,
            group_id: group_id.into(),
            group_instance_id: None,
            group_protocol: GroupProtocol::Classic,
            server_assignor: None,
            client_rack: None,
            assignors: vec![Strategy::Range, Strategy::CooperativeSticky],
            subscription,
            session_timeout_ms: 45_000,
            heartbeat_interval_ms: 3_000,
            max_poll_interval_ms: 300_000,
            processing_ms: 1_000,
            max_poll_records: 500,
            commit: CommitMode::Auto { interval_ms: 5_000 },
            commit_in_revoke: false,
            metadata_max_age_ms: 300_000,
            retry_backoff_ms: 100,
            request_timeout_ms: 30_000,
        }
    }

    /// The rebalance protocol, as Kafka derives it: the highest protocol that *every* configured
    /// assignor supports (reference §8.3). Only a consumer configured with nothing but
    /// `cooperative-sticky` is cooperative.
    pub fn protocol(&self) -> RebalanceProtocol {
        if !self.assignors.is_empty() && self.assignors.iter().all(|a| a.supports_cooperative()) {
            RebalanceProtocol::Cooperative
        } else {
            RebalanceProtocol::Eager
        }
    }

    /// Whether this is a static member.
    pub fn is_static(&self) -> bool {
        self.group_instance_id.is_some()
    }

    /// What is wrong or surprising about these settings for a group on a coordinator configured
    /// as `coordinator`: errors (Kafka refuses the settings, or nothing can run) and warnings (it
    /// runs, and the warning says what Kafka will do). In field order; empty when all is well.
    pub fn check(&self, coordinator: &CoordinatorConfig) -> Vec<ConfigIssue> {
        let mut out = Vec::new();
        if let Err(issue) = check_name(&self.name) {
            out.push(ConfigIssue::Name(issue));
        }
        let consumer_protocol = self.group_protocol == GroupProtocol::Consumer;
        // `partition.assignment.strategy` does not apply to the consumer protocol (the coordinator
        // assigns); `group.remote.assignor` does not apply to the classic one.
        if self.assignors.is_empty() && !consumer_protocol {
            out.push(ConfigIssue::NoAssignor);
        }
        match (&self.server_assignor, consumer_protocol) {
            (Some(_), false) => out.push(ConfigIssue::ProtocolMismatch {
                field: ConfigField::ServerAssignor,
                protocol: self.group_protocol,
            }),
            (Some(a), true) => {
                if let Err(issue) = check_name(a) {
                    out.push(ConfigIssue::ServerAssignorName(issue));
                }
            }
            (None, _) => {}
        }
        if let Subscription::Topics(topics) = &self.subscription {
            if topics.is_empty() {
                out.push(ConfigIssue::NoTopic);
            }
            if let Some(topic) = topics.iter().find(|t| !is_topic_name(t)) {
                out.push(ConfigIssue::BadTopicName { topic: topic.clone() });
            }
        }
        // Under the consumer protocol `session.timeout.ms` and `heartbeat.interval.ms` are the
        // coordinator's (`group.consumer.*`): the client's values are not used, so not checked.
        let mut positive = Vec::new();
        if !consumer_protocol {
            positive.push((ConfigField::SessionTimeout, self.session_timeout_ms));
            positive.push((ConfigField::HeartbeatInterval, self.heartbeat_interval_ms));
        }
        positive.extend([
            (ConfigField::MaxPollInterval, self.max_poll_interval_ms),
            (ConfigField::Processing, self.processing_ms),
            (ConfigField::MaxPollRecords, u64::from(self.max_poll_records)),
        ]);
        for &(field, value) in &positive {
            if value == 0 {
                out.push(ConfigIssue::NotPositive { field });
            }
        }
        if let CommitMode::Auto { interval_ms: 0 } = self.commit {
            out.push(ConfigIssue::NotPositive {
                field: ConfigField::AutoCommitInterval,
            });
        }
        // The scenario format's limits (a Java `int`, as Kafka's), so that what the playground
        // accepts a share link can carry.
        let max_ms = crate::scenario::MAX_SETTING_MS;
        let mut limits: Vec<(ConfigField, u64, u64)> = positive
            .iter()
            .map(|&(field, value)| {
                let max = match field {
                    ConfigField::MaxPollRecords => u64::from(crate::scenario::MAX_POLL_RECORDS),
                    _ => max_ms,
                };
                (field, value, max)
            })
            .collect();
        if let CommitMode::Auto { interval_ms } = self.commit {
            limits.push((ConfigField::AutoCommitInterval, interval_ms, max_ms));
        }
        for (field, value, max) in limits {
            if value > max {
                out.push(ConfigIssue::AboveLimit { field, value, max });
            }
        }
        if consumer_protocol {
            if self.processing_ms >= self.max_poll_interval_ms {
                out.push(ConfigIssue::ProcessingNotBelowMaxPoll {
                    processing_ms: self.processing_ms,
                    max_poll_interval_ms: self.max_poll_interval_ms,
                });
            }
            return out;
        }
        let (session_ms, heartbeat_ms) = (self.session_timeout_ms, self.heartbeat_interval_ms);
        if heartbeat_ms >= session_ms {
            // Kafka's client refuses it: the session would expire between two heartbeats.
            out.push(ConfigIssue::HeartbeatNotBelowSession {
                heartbeat_ms,
                session_ms,
            });
        } else if heartbeat_ms.saturating_mul(3) > session_ms {
            out.push(ConfigIssue::HeartbeatAboveThirdOfSession {
                heartbeat_ms,
                session_ms,
            });
        }
        let (min_ms, max_ms) = (
            coordinator.group_min_session_timeout_ms.max(0) as u64,
            coordinator.group_max_session_timeout_ms.max(0) as u64,
        );
        if !(min_ms..=max_ms).contains(&session_ms) {
            out.push(ConfigIssue::SessionOutsideGroupBounds {
                session_ms,
                min_ms,
                max_ms,
            });
        }
        if self.processing_ms >= self.max_poll_interval_ms {
            out.push(ConfigIssue::ProcessingNotBelowMaxPoll {
                processing_ms: self.processing_ms,
                max_poll_interval_ms: self.max_poll_interval_ms,
            });
        }
        out
    }
}

/// The longest name (of a consumer, a group, a topic in a link) the playground accepts, in
/// characters.
pub const MAX_NAME_CHARS: usize = 200;

/// Checks a name shown in the UI and the trace (a consumer's; the share format checks its other
/// names with it too): not empty, no markup (`<`, `>`) or control characters, at most
/// [`MAX_NAME_CHARS`] characters. The UI renders names as text anyway; a name that carries markup
/// is refused so that nobody is misled by it.
pub fn check_name(name: &str) -> Result<(), NameIssue> {
    if name.is_empty() {
        return Err(NameIssue::Empty);
    }
    if let Some(c) = name.chars().find(|c| matches!(c, '<' | '>') || c.is_control()) {
        return Err(NameIssue::Forbidden { c });
    }
    let chars = name.chars().count();
    if chars > MAX_NAME_CHARS {
        return Err(NameIssue::TooLong {
            chars,
            max: MAX_NAME_CHARS,
        });
    }
    Ok(())
}

/// Whether `topic` is a legal Kafka topic name's characters: ASCII letters, digits, `.`, `_`, `-`
/// (Kafka: `Topic.validate`), and not empty.
pub fn is_topic_name(topic: &str) -> bool {
    !topic.is_empty()
        && topic
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
}

/// What is wrong with a name ([`check_name`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameIssue {
    /// The name is empty.
    Empty,
    /// The name holds markup or a control character.
    Forbidden {
        /// The first such character.
        c: char,
    },
    /// The name is too long.
    TooLong {
        /// Its length in characters.
        chars: usize,
        /// The longest allowed.
        max: usize,
    },
}

impl fmt::Display for NameIssue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => f.write_str("the name is empty"),
            Self::Forbidden { c } => write!(
                f,
                "the name contains {c:?}; names may not contain markup or control characters"
            ),
            Self::TooLong { chars, max } => write!(f, "the name is {chars} characters long (at most {max})"),
        }
    }
}

/// A setting of [`ConsumerConfig`] that a [`ConfigIssue`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ConfigField {
    /// [`ConsumerConfig::name`].
    Name,
    /// `partition.assignment.strategy`.
    Assignors,
    /// The subscription.
    Subscription,
    /// `session.timeout.ms`.
    SessionTimeout,
    /// `heartbeat.interval.ms`.
    HeartbeatInterval,
    /// `max.poll.interval.ms`.
    MaxPollInterval,
    /// [`ConsumerConfig::processing_ms`].
    Processing,
    /// `max.poll.records`.
    MaxPollRecords,
    /// `group.remote.assignor`.
    ServerAssignor,
    /// `auto.commit.interval.ms`.
    AutoCommitInterval,
    /// `group.protocol`.
    GroupProtocol,
}

impl fmt::Display for ConfigField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Name => "name",
            Self::Assignors => "partition.assignment.strategy",
            Self::Subscription => "subscription",
            Self::SessionTimeout => "session.timeout.ms",
            Self::HeartbeatInterval => "heartbeat.interval.ms",
            Self::MaxPollInterval => "max.poll.interval.ms",
            Self::Processing => "processing_ms",
            Self::MaxPollRecords => "max.poll.records",
            Self::ServerAssignor => "group.remote.assignor",
            Self::AutoCommitInterval => "auto.commit.interval.ms",
            Self::GroupProtocol => "group.protocol",
        })
    }
}

/// How bad a [`ConfigIssue`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The consumer cannot run like this (or Kafka's client refuses the setting).
    Error,
    /// It runs, but Kafka will do something the user may not expect.
    Warning,
}

/// One finding of [`ConsumerConfig::check`], with the numbers involved. [`fmt::Display`] says it
/// in English (for the CLI and tests); the UI words it from the fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigIssue {
    /// Error: the name breaks [`check_name`].
    Name(NameIssue),
    /// Error: no assignor, so no protocol to join with.
    NoAssignor,
    /// Error: the subscription lists no topic.
    NoTopic,
    /// Error: a subscribed topic's name has characters Kafka does not allow.
    BadTopicName {
        /// The first such topic.
        topic: String,
    },
    /// Error: a setting that must be positive is 0.
    NotPositive {
        /// Which.
        field: ConfigField,
    },
    /// Error: a setting is above the scenario format's limit for it (so that a share link can
    /// carry it): a Java `int` for times and `max.poll.records`, as Kafka's.
    AboveLimit {
        /// Which.
        field: ConfigField,
        /// Its value.
        value: u64,
        /// The largest allowed.
        max: u64,
    },
    /// Error: `heartbeat.interval.ms` is not below `session.timeout.ms` (the Java client refuses
    /// it; the session would expire between two heartbeats).
    HeartbeatNotBelowSession {
        /// `heartbeat.interval.ms`.
        heartbeat_ms: u64,
        /// `session.timeout.ms`.
        session_ms: u64,
    },
    /// Warning: `heartbeat.interval.ms` is more than a third of `session.timeout.ms` (Kafka
    /// recommends at most a third, so that two heartbeats may be lost).
    HeartbeatAboveThirdOfSession {
        /// `heartbeat.interval.ms`.
        heartbeat_ms: u64,
        /// `session.timeout.ms`.
        session_ms: u64,
    },
    /// Warning: `session.timeout.ms` is outside the coordinator's
    /// `group.min.session.timeout.ms..=group.max.session.timeout.ms`: the JoinGroup fails with
    /// `INVALID_SESSION_TIMEOUT`.
    SessionOutsideGroupBounds {
        /// `session.timeout.ms`.
        session_ms: u64,
        /// `group.min.session.timeout.ms`.
        min_ms: u64,
        /// `group.max.session.timeout.ms`.
        max_ms: u64,
    },
    /// Error: a setting of the other group protocol (Kafka's client throws `ConfigException`:
    /// "`<field>` cannot be set when group.protocol=`<protocol>`").
    ProtocolMismatch {
        /// The setting.
        field: ConfigField,
        /// The consumer's `group.protocol`.
        protocol: GroupProtocol,
    },
    /// Error: `group.remote.assignor` is not a usable name.
    ServerAssignorName(NameIssue),
    /// Warning: a batch takes at least `max.poll.interval.ms`, so the consumer leaves the group
    /// while it processes.
    ProcessingNotBelowMaxPoll {
        /// [`ConsumerConfig::processing_ms`].
        processing_ms: u64,
        /// `max.poll.interval.ms`.
        max_poll_interval_ms: u64,
    },
}

impl ConfigIssue {
    /// Error or warning.
    pub fn severity(&self) -> Severity {
        match self {
            Self::Name(_)
            | Self::NoAssignor
            | Self::NoTopic
            | Self::BadTopicName { .. }
            | Self::NotPositive { .. }
            | Self::HeartbeatNotBelowSession { .. }
            | Self::ProtocolMismatch { .. }
            | Self::ServerAssignorName(_)
            | Self::AboveLimit { .. } => Severity::Error,
            Self::HeartbeatAboveThirdOfSession { .. }
            | Self::SessionOutsideGroupBounds { .. }
            | Self::ProcessingNotBelowMaxPoll { .. } => Severity::Warning,
        }
    }

    /// The field to point at.
    pub fn field(&self) -> ConfigField {
        self.fields()[0]
    }

    /// Every field whose value the finding depends on, the one to point at first.
    pub fn fields(&self) -> &'static [ConfigField] {
        use ConfigField as F;
        match self {
            Self::Name(_) => &[F::Name],
            Self::NoAssignor => &[F::Assignors],
            Self::NoTopic | Self::BadTopicName { .. } => &[F::Subscription],
            Self::NotPositive { field } => match field {
                F::Name => &[F::Name],
                F::Assignors => &[F::Assignors],
                F::Subscription => &[F::Subscription],
                F::SessionTimeout => &[F::SessionTimeout],
                F::HeartbeatInterval => &[F::HeartbeatInterval],
                F::MaxPollInterval => &[F::MaxPollInterval],
                F::Processing => &[F::Processing],
                F::MaxPollRecords => &[F::MaxPollRecords],
                F::ServerAssignor => &[F::ServerAssignor],
                F::AutoCommitInterval => &[F::AutoCommitInterval],
                F::GroupProtocol => &[F::GroupProtocol],
            },
            Self::ProtocolMismatch { field, .. } => match field {
                F::Assignors => &[F::Assignors],
                F::SessionTimeout => &[F::SessionTimeout],
                F::HeartbeatInterval => &[F::HeartbeatInterval],
                _ => &[F::ServerAssignor],
            },
            Self::ServerAssignorName(_) => &[F::ServerAssignor],
            Self::AboveLimit { field, .. } => match field {
                F::SessionTimeout => &[F::SessionTimeout],
                F::HeartbeatInterval => &[F::HeartbeatInterval],
                F::MaxPollInterval => &[F::MaxPollInterval],
                F::Processing => &[F::Processing],
                F::MaxPollRecords => &[F::MaxPollRecords],
                F::AutoCommitInterval => &[F::AutoCommitInterval],
                F::Name => &[F::Name],
                F::Assignors => &[F::Assignors],
                F::Subscription => &[F::Subscription],
                F::GroupProtocol => &[F::GroupProtocol],
                F::ServerAssignor => &[F::ServerAssignor],
            },
            Self::HeartbeatNotBelowSession { .. } | Self::HeartbeatAboveThirdOfSession { .. } => {
                &[F::HeartbeatInterval, F::SessionTimeout]
            }
            Self::SessionOutsideGroupBounds { .. } => &[F::SessionTimeout],
            Self::ProcessingNotBelowMaxPoll { .. } => &[F::Processing, F::MaxPollInterval],
        }
    }
}

impl fmt::Display for ConfigIssue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Name(issue) => write!(f, "name: {issue}"),
            Self::NoAssignor => f.write_str("partition.assignment.strategy: needs at least one assignor"),
            Self::NoTopic => f.write_str("subscription: subscribes to no topic"),
            Self::BadTopicName { topic } => write!(
                f,
                "subscription: topic {topic:?} may only hold ASCII letters, digits, '.', '_' and '-'"
            ),
            Self::NotPositive { field } => write!(f, "{field}: must be positive"),
            Self::ProtocolMismatch { field, protocol } => write!(
                f,
                "{field} cannot be set when group.protocol={} (Kafka's client rejects it)",
                protocol.as_str().to_uppercase()
            ),
            Self::ServerAssignorName(issue) => write!(f, "group.remote.assignor: {issue}"),
            Self::AboveLimit { field, value, max } => {
                write!(f, "{field}: {value} is more than the limit ({max})")
            }
            Self::HeartbeatNotBelowSession {
                heartbeat_ms,
                session_ms,
            } => write!(
                f,
                "heartbeat.interval.ms {heartbeat_ms} must be below session.timeout.ms {session_ms}"
            ),
            Self::HeartbeatAboveThirdOfSession {
                heartbeat_ms,
                session_ms,
            } => write!(
                f,
                "heartbeat.interval.ms {heartbeat_ms} is more than a third of session.timeout.ms {session_ms}"
            ),
            Self::SessionOutsideGroupBounds {
                session_ms,
                min_ms,
                max_ms,
            } => write!(
                f,
                "session.timeout.ms {session_ms} is outside [group.min.session.timeout.ms {min_ms}, \
                 group.max.session.timeout.ms {max_ms}]: JoinGroup fails with INVALID_SESSION_TIMEOUT"
            ),
            Self::ProcessingNotBelowMaxPoll {
                processing_ms,
                max_poll_interval_ms,
            } => write!(
                f,
                "processing_ms {processing_ms} is not below max.poll.interval.ms {max_poll_interval_ms}: \
                 the consumer leaves the group while it processes"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn consumer() -> ConsumerConfig {
        ConsumerConfig::new("C", "g", Subscription::Topics(vec!["round_topic".into()]))
    }

    fn issues(c: &ConsumerConfig) -> Vec<ConfigIssue> {
        c.check(&CoordinatorConfig::default())
    }

    #[test]
    fn the_defaults_raise_nothing() {
        assert_eq!(issues(&consumer()), vec![]);
    }

    #[test]
    fn a_heartbeat_at_or_above_the_session_is_an_error() {
        let mut c = consumer();
        c.session_timeout_ms = 10_000;
        c.heartbeat_interval_ms = 10_000;
        let found = issues(&c);
        assert_eq!(
            found,
            vec![ConfigIssue::HeartbeatNotBelowSession {
                heartbeat_ms: 10_000,
                session_ms: 10_000
            }]
        );
        assert_eq!(found[0].severity(), Severity::Error);
        assert_eq!(found[0].field(), ConfigField::HeartbeatInterval);
        assert_eq!(
            found[0].to_string(),
            "heartbeat.interval.ms 10000 must be below session.timeout.ms 10000"
        );
    }

    #[test]
    fn a_heartbeat_above_a_third_of_the_session_is_a_warning() {
        let mut c = consumer();
        c.session_timeout_ms = 9_000;
        c.heartbeat_interval_ms = 3_001;
        assert_eq!(
            issues(&c),
            vec![ConfigIssue::HeartbeatAboveThirdOfSession {
                heartbeat_ms: 3_001,
                session_ms: 9_000
            }]
        );
        assert_eq!(issues(&c)[0].severity(), Severity::Warning);
        // Exactly a third is what Kafka recommends.
        c.heartbeat_interval_ms = 3_000;
        assert_eq!(issues(&c), vec![]);
    }

    #[test]
    fn a_session_outside_the_coordinators_bounds_is_a_warning_with_its_bounds() {
        let mut c = consumer();
        c.session_timeout_ms = 5_999;
        c.heartbeat_interval_ms = 1_000;
        let found = issues(&c);
        assert_eq!(
            found,
            vec![ConfigIssue::SessionOutsideGroupBounds {
                session_ms: 5_999,
                min_ms: 6_000,
                max_ms: 1_800_000
            }]
        );
        assert_eq!(found[0].severity(), Severity::Warning);
        c.session_timeout_ms = 1_800_001;
        assert_eq!(issues(&c).len(), 1);
        c.session_timeout_ms = 1_800_000;
        assert_eq!(issues(&c), vec![]);
    }

    #[test]
    fn the_bounds_come_from_the_given_coordinator_config() {
        // group.min.session.timeout.ms 10000: a 6000 ms session, fine by default, is warned.
        let mut c = consumer();
        c.session_timeout_ms = 6_000;
        c.heartbeat_interval_ms = 2_000;
        assert_eq!(issues(&c), vec![]);
        let strict = CoordinatorConfig {
            group_min_session_timeout_ms: 10_000,
            ..CoordinatorConfig::default()
        };
        let found = c.check(&strict);
        assert_eq!(
            found,
            vec![ConfigIssue::SessionOutsideGroupBounds {
                session_ms: 6_000,
                min_ms: 10_000,
                max_ms: 1_800_000
            }]
        );
        assert_eq!(found[0].severity(), Severity::Warning);
        assert_eq!(found[0].field(), ConfigField::SessionTimeout);
    }

    #[test]
    fn processing_at_or_above_max_poll_interval_is_a_warning() {
        let mut c = consumer();
        c.processing_ms = 300_000;
        let found = issues(&c);
        assert_eq!(
            found,
            vec![ConfigIssue::ProcessingNotBelowMaxPoll {
                processing_ms: 300_000,
                max_poll_interval_ms: 300_000
            }]
        );
        assert_eq!(found[0].severity(), Severity::Warning);
        assert_eq!(
            found[0].fields(),
            &[ConfigField::Processing, ConfigField::MaxPollInterval]
        );
    }

    #[test]
    fn limits_and_auto_commit_are_checked() {
        // The limits are the scenario format's (docs/scenario-format.md, "Limits").
        let mut c = consumer();
        c.max_poll_records = crate::scenario::MAX_POLL_RECORDS + 1;
        c.commit = CommitMode::Auto { interval_ms: 0 };
        // The new protocol is simulated: choosing it is no issue in itself.
        c.group_protocol = GroupProtocol::Consumer;
        let found = issues(&c);
        assert_eq!(
            found,
            vec![
                ConfigIssue::NotPositive {
                    field: ConfigField::AutoCommitInterval
                },
                ConfigIssue::AboveLimit {
                    field: ConfigField::MaxPollRecords,
                    value: 2_147_483_648,
                    max: 2_147_483_647
                },
            ]
        );
        assert!(found.iter().all(|i| i.severity() == Severity::Error));
        assert_eq!(
            found[1].to_string(),
            "max.poll.records: 2147483648 is more than the limit (2147483647)"
        );
        c = consumer();
        c.commit = CommitMode::Auto {
            interval_ms: crate::scenario::MAX_SETTING_MS + 1,
        };
        assert_eq!(issues(&c)[0].field(), ConfigField::AutoCommitInterval);
    }

    #[test]
    fn zeros_assignors_and_topics_are_errors() {
        let mut c = consumer();
        c.assignors.clear();
        c.subscription = Subscription::Topics(vec!["ok".into(), "a/b".into()]);
        c.max_poll_records = 0;
        assert_eq!(
            issues(&c),
            vec![
                ConfigIssue::NoAssignor,
                ConfigIssue::BadTopicName { topic: "a/b".into() },
                ConfigIssue::NotPositive {
                    field: ConfigField::MaxPollRecords
                },
            ]
        );
        c.subscription = Subscription::Topics(vec![]);
        assert!(issues(&c).contains(&ConfigIssue::NoTopic));
        assert!(issues(&c).iter().all(|i| i.severity() == Severity::Error));
    }

    #[test]
    fn names_hold_no_markup_and_are_not_too_long() {
        assert_eq!(check_name("C1"), Ok(()));
        assert_eq!(check_name("消费者 A"), Ok(()));
        assert_eq!(check_name(""), Err(NameIssue::Empty));
        assert_eq!(check_name("a<b>"), Err(NameIssue::Forbidden { c: '<' }));
        assert_eq!(check_name("a\nb"), Err(NameIssue::Forbidden { c: '\n' }));
        assert_eq!(check_name(&"x".repeat(200)), Ok(()));
        assert_eq!(
            check_name(&"x".repeat(201)),
            Err(NameIssue::TooLong { chars: 201, max: 200 })
        );
        let mut c = consumer();
        c.name = "<b>".into();
        assert_eq!(
            issues(&c),
            vec![ConfigIssue::Name(NameIssue::Forbidden { c: '<' })]
        );
        assert_eq!(
            issues(&c)[0].to_string(),
            "name: the name contains '<'; names may not contain markup or control characters"
        );
    }

    #[test]
    fn topic_names_are_kafkas_characters() {
        assert!(is_topic_name("round_topic.v2-a"));
        assert!(!is_topic_name(""));
        assert!(!is_topic_name("a b"));
        assert!(!is_topic_name("主题"));
    }
}
