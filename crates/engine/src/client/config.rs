//! A consumer's settings, with the Java client's defaults.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::assignor::{RebalanceProtocol, Strategy};
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
}
