//! The cluster around the group coordinator: brokers, a controller that places and elects
//! partition leaders, and replication of the group's `__consumer_offsets` partition.
//!
//! # Model
//!
//! * **Brokers** have ids `0..brokers`. A broker is alive or crashed; a crashed broker answers
//!   nothing, its in-memory state is gone, but its log (disk) survives a restart.
//! * **Placement** (the controller, at topic creation): Kafka's rack-unaware
//!   `assignReplicasToBrokers` with its two random numbers fixed at zero, so that placement is
//!   deterministic. Partition `p`'s first replica (its preferred leader) is broker
//!   `(p + 0) % n`; its `j`-th further replica is broker
//!   `(first + 1 + (shift + j) % (n - 1)) % n`, where `shift` starts at 0 and grows by one every
//!   `n` partitions. With 3 brokers: partition 0 → `[0, 1, 2]`, 1 → `[1, 2, 0]`, 2 → `[2, 0, 1]`,
//!   3 → `[0, 2, 1]`, ...
//! * **Replication** of the group's partition (the only one with traffic): every replica has a log
//!   and a log end offset (LEO, the offset of its *next* record). Followers fetch from the leader.
//!   A fetch carries the follower's LEO; the leader records it, answers with the records the
//!   follower lacks, and moves its high watermark (HW) to the smallest LEO it knows of over the ISR
//!   (never backwards, and not at all while the ISR is smaller than `min.insync.replicas`: Kafka's
//!   `isUnderMinIsr` check). So a record is replicated by one fetch and acknowledged by the next.
//!   With `replica_fetch_interval_ms` = 0 (the default) a fetch is Kafka's long poll: it is
//!   answered as soon as the leader has data, and in-cluster round trips take no simulated time.
//!   With a positive interval, or for a slowed broker, each follower fetches on that interval.
//! * **ISR**: Kafka's `isr-expiration` task runs every `replica.lag.time.max.ms / 2` and removes a
//!   follower that has not been caught up (its LEO at the leader's LEO) for more than
//!   `replica.lag.time.max.ms` (`lastCaughtUpTimeMs`, with Kafka's previous-fetch rule). A follower
//!   rejoins when a fetch shows its LEO at or past the leader's HW and the leader epoch's start.
//! * **acks=all**: every coordinator append waits until the HW passes it, or fails after
//!   `offsets.commit.timeout.ms` with `REQUEST_TIMED_OUT`; an append while the ISR is smaller than
//!   `min.insync.replicas` is refused with `NOT_ENOUGH_REPLICAS` ([`Cluster::append_error`]), and
//!   one made before the ISR shrank below it waits with the HW held and times out. The coordinator
//!   maps both errors to `COORDINATOR_NOT_AVAILABLE` (reference §3.0).
//! * **Failures** (the controller): a crashed broker leaves every ISR it was in (unless it was the
//!   last member: Kafka keeps the last one so that no out-of-sync replica can take over). A
//!   partition whose leader died gets the first replica, in assignment order, that is alive and in
//!   the ISR, with a new leader epoch; if there is none it stays offline
//!   (`unclean.leader.election.enable=false`) until an ISR member comes back. A new leader keeps its
//!   whole log (its LEO); followers truncate to where their log stops matching the leader's (Kafka's
//!   leader-epoch truncation), so records above the old HW that the new leader lacks are lost.
//!   Automatic preferred-leader rebalancing is not modelled: leadership does not move back on
//!   restart.
//!
//! The cluster is driven like the coordinator: inputs with the current time, [`Cluster::poll_event`]
//! for what happened, [`Cluster::poll_timeout`] for when to call [`Cluster::handle_timeout`].

use crate::collections::Map;
use std::collections::VecDeque;
use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::coordinator::index::{KeyIds, LatestIndex};
use crate::coordinator::records::Record;
use crate::protocol::{ErrorCode, NodeId};
use crate::sort::sort_by_key;
use crate::time::{SimDuration, SimTime};

/// The cluster's configuration, with Kafka's defaults where Kafka has one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClusterConfig {
    /// How many brokers (3). Their ids are `0..brokers`.
    pub brokers: u32,
    /// `offsets.topic.replication.factor` (3).
    pub replication_factor: u32,
    /// `min.insync.replicas` of `__consumer_offsets` (Kafka's broker default, 1).
    pub min_insync_replicas: u32,
    /// `replica.lag.time.max.ms` (30000).
    pub replica_lag_time_max_ms: u64,
    /// How often a follower fetches; 0 (the default) is Kafka's long poll, answered as soon as the
    /// leader has new data.
    pub replica_fetch_interval_ms: u64,
    /// `offsets.commit.timeout.ms` (5000): how long an append waits for the HW.
    pub offsets_commit_timeout_ms: u64,
}

impl Default for ClusterConfig {
    fn default() -> Self {
        Self {
            brokers: 3,
            replication_factor: 3,
            min_insync_replicas: 1,
            replica_lag_time_max_ms: 30_000,
            replica_fetch_interval_ms: 0,
            offsets_commit_timeout_ms: 5_000,
        }
    }
}

/// Kafka's rack-unaware replica placement with a start index and first shift of 0: the replicas
/// of each of `partitions` partitions over brokers `0..brokers`, preferred leader first.
///
/// # Panics
///
/// If `replication_factor` is 0 or larger than `brokers`.
pub fn place_replicas(brokers: u32, partitions: i32, replication_factor: u32) -> Vec<Vec<NodeId>> {
    assert!(
        replication_factor >= 1 && replication_factor <= brokers,
        "replication factor {replication_factor} needs 1..={brokers} brokers"
    );
    let n = brokers as i64;
    let mut shift: i64 = 0;
    (0..partitions as i64)
        .map(|p| {
            if p > 0 && p % n == 0 {
                shift += 1;
            }
            let first = p % n;
            let mut replicas = vec![NodeId(first as i32)];
            for j in 0..replication_factor as i64 - 1 {
                let s = 1 + (shift + j) % (n - 1);
                replicas.push(NodeId(((first + s) % n) as i32));
            }
            replicas
        })
        .collect()
}

/// Something the cluster did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClusterEvent {
    /// A broker stopped. A crash loses its memory and its connections at once; a graceful
    /// (controlled) shutdown first hands its leaderships over.
    BrokerCrashed {
        /// The broker.
        broker: NodeId,
        /// Whether it was a controlled shutdown.
        graceful: bool,
    },
    /// A broker started again, with its log as it was on disk.
    BrokerRestarted {
        /// The broker.
        broker: NodeId,
    },
    /// A broker's followers fetch only on this interval (a slow disk, a long GC, a saturated link).
    BrokerSlowed {
        /// The broker.
        broker: NodeId,
        /// Its fetch interval now.
        fetch_interval_ms: u64,
        /// Until when (`None`: until restarted).
        until: Option<SimTime>,
    },
    /// A slowed broker fetches normally again.
    BrokerSpeedRestored {
        /// The broker.
        broker: NodeId,
    },
    /// The controller gave the group's `__consumer_offsets` partition a leader.
    LeaderElected {
        /// The partition.
        partition: i32,
        /// The new leader.
        leader: NodeId,
        /// The new leader epoch.
        leader_epoch: i32,
        /// The ISR.
        isr: Vec<NodeId>,
        /// The new leader's LEO (its log is kept whole).
        log_end_offset: u64,
        /// The new leader's HW.
        high_watermark: u64,
    },
    /// The group's partition has no leader: no ISR replica is alive, and unclean leader election
    /// is disabled, so no out-of-sync replica may take over.
    PartitionOffline {
        /// The partition.
        partition: i32,
        /// The ISR, every member of which is down.
        isr: Vec<NodeId>,
    },
    /// Leadership of other `__consumer_offsets` partitions moved (one line per controller decision).
    LeadersMoved {
        /// `(partition, new leader or None if offline)`.
        changes: Vec<(i32, Option<NodeId>)>,
    },
    /// A follower fetched records from the leader.
    ReplicaFetched {
        /// The partition.
        partition: i32,
        /// The follower.
        follower: NodeId,
        /// The offset it fetched from (its LEO before).
        fetch_offset: u64,
        /// How many records it received.
        records: u64,
        /// Its LEO now.
        log_end_offset: u64,
    },
    /// The leader's high watermark moved up.
    HighWatermarkAdvanced {
        /// The partition.
        partition: i32,
        /// The leader.
        leader: NodeId,
        /// The HW before.
        from: u64,
        /// The HW now.
        to: u64,
    },
    /// A follower left the ISR.
    IsrShrunk {
        /// The partition.
        partition: i32,
        /// The follower.
        removed: NodeId,
        /// The ISR now.
        isr: Vec<NodeId>,
        /// Why.
        reason: IsrShrinkReason,
    },
    /// A follower caught up and rejoined the ISR.
    IsrExpanded {
        /// The partition.
        partition: i32,
        /// The follower.
        added: NodeId,
        /// The ISR now.
        isr: Vec<NodeId>,
    },
    /// A replica cut records off the end of its log to match the new leader's.
    LogTruncated {
        /// The partition.
        partition: i32,
        /// The replica.
        broker: NodeId,
        /// Its LEO before.
        from: u64,
        /// Its LEO now.
        to: u64,
    },
    /// An append waited `offsets.commit.timeout.ms` without the HW reaching it.
    AppendTimedOut {
        /// The partition.
        partition: i32,
        /// The record's offset.
        offset: u64,
    },
}

/// Why a follower left the ISR.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IsrShrinkReason {
    /// Its broker went down.
    BrokerDown,
    /// It was not caught up for longer than `replica.lag.time.max.ms`.
    Lagging {
        /// How long since it was last caught up.
        lag_ms: u64,
    },
}

fn list(nodes: &[NodeId]) -> String {
    let v: Vec<String> = nodes.iter().map(|n| n.0.to_string()).collect();
    format!("[{}]", v.join(", "))
}

impl fmt::Display for ClusterEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::BrokerCrashed { broker, graceful: false } => {
                write!(f, "broker {} crashed: it answers nothing and its connections drop", broker.0)
            }
            Self::BrokerCrashed { broker, graceful: true } => {
                write!(f, "broker {} shut down (controlled: leaderships handed over first)", broker.0)
            }
            Self::BrokerRestarted { broker } => {
                write!(f, "broker {} restarted with its log from disk", broker.0)
            }
            Self::BrokerSlowed {
                broker,
                fetch_interval_ms,
                until,
            } => {
                write!(f, "broker {} slowed: its followers fetch every {fetch_interval_ms} ms", broker.0)?;
                match until {
                    Some(t) => write!(f, " until {t}"),
                    None => Ok(()),
                }
            }
            Self::BrokerSpeedRestored { broker } => write!(f, "broker {} fetches normally again", broker.0),
            Self::LeaderElected {
                partition,
                leader,
                leader_epoch,
                isr,
                log_end_offset,
                high_watermark,
            } => write!(
                f,
                "controller: broker {} leads __consumer_offsets-{partition} (epoch {leader_epoch}, ISR {}, LEO {log_end_offset}, HW {high_watermark})",
                leader.0,
                list(isr)
            ),
            Self::PartitionOffline { partition, isr } => write!(
                f,
                "controller: __consumer_offsets-{partition} is OFFLINE: every ISR replica {} is down and unclean leader election is disabled",
                list(isr)
            ),
            Self::LeadersMoved { changes } => {
                let v: Vec<String> = changes
                    .iter()
                    .map(|(p, l)| match l {
                        Some(n) => format!("{p}->{}", n.0),
                        None => format!("{p}->offline"),
                    })
                    .collect();
                write!(f, "controller: other __consumer_offsets leaders moved: {}", v.join(" "))
            }
            Self::ReplicaFetched {
                partition,
                follower,
                fetch_offset,
                records,
                log_end_offset,
            } => write!(
                f,
                "broker {} fetched {records} record(s) of __consumer_offsets-{partition} from offset {fetch_offset}; its LEO is {log_end_offset}",
                follower.0
            ),
            Self::HighWatermarkAdvanced {
                partition,
                leader,
                from,
                to,
            } => write!(f, "__consumer_offsets-{partition} HW {from} -> {to} on leader {}", leader.0),
            Self::IsrShrunk {
                partition,
                removed,
                isr,
                reason,
            } => {
                write!(f, "broker {} leaves the ISR of __consumer_offsets-{partition} (", removed.0)?;
                match reason {
                    IsrShrinkReason::BrokerDown => f.write_str("broker down")?,
                    IsrShrinkReason::Lagging { lag_ms } => {
                        write!(f, "not caught up for {lag_ms} ms")?
                    }
                }
                write!(f, "); ISR {}", list(isr))
            }
            Self::IsrExpanded { partition, added, isr } => write!(
                f,
                "broker {} caught up and rejoins the ISR of __consumer_offsets-{partition}; ISR {}",
                added.0,
                list(isr)
            ),
            Self::LogTruncated {
                partition,
                broker,
                from,
                to,
            } => write!(
                f,
                "broker {} truncates __consumer_offsets-{partition} from LEO {from} to {to} to match the leader",
                broker.0
            ),
            Self::AppendTimedOut { partition, offset } => write!(
                f,
                "the append at offset {offset} of __consumer_offsets-{partition} timed out waiting for the HW (REQUEST_TIMED_OUT)"
            ),
        }
    }
}

/// One broker, as the UI draws it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BrokerView {
    /// Its id.
    pub id: NodeId,
    /// Whether it is running.
    pub alive: bool,
    /// Its slowed fetch interval and until when, if slowed.
    pub slowed: Option<(u64, Option<SimTime>)>,
    /// The `__consumer_offsets` partitions it leads.
    pub leads: Vec<i32>,
    /// The `__consumer_offsets` partitions it holds a replica of.
    pub replicas: Vec<i32>,
    /// Whether it is the group's coordinator (leads the group's partition).
    pub is_group_coordinator: bool,
}

/// One replica of the group's partition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplicaView {
    /// Its broker.
    pub broker: NodeId,
    /// Whether its broker is alive.
    pub alive: bool,
    /// Whether it is the leader.
    pub is_leader: bool,
    /// Whether it is in the ISR.
    pub in_sync: bool,
    /// Its log end offset (the offset of its next record).
    pub log_end_offset: u64,
    /// Its high watermark (a follower's is the leader's as of its last fetch).
    pub high_watermark: u64,
    /// The LEO the leader last saw from it (followers only).
    pub leader_view_of_leo: Option<u64>,
    /// When it was last caught up (followers only).
    pub last_caught_up: Option<SimTime>,
}

/// The group's `__consumer_offsets` partition: leader, replicas with their LEO, ISR and HW.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OffsetsPartitionView {
    /// The partition.
    pub partition: i32,
    /// Its leader (the group's coordinator), if any.
    pub leader: Option<NodeId>,
    /// The leader epoch.
    pub leader_epoch: i32,
    /// The replicas, in assignment order.
    pub replicas: Vec<ReplicaView>,
    /// The ISR, in assignment order.
    pub isr: Vec<NodeId>,
    /// The leader's high watermark (the last leader's while offline).
    pub high_watermark: u64,
    /// `min.insync.replicas`.
    pub min_insync_replicas: u32,
    /// Offsets of appends waiting for the HW, with their deadlines.
    pub pending_appends: Vec<(u64, SimTime)>,
}

/// The fewest records [`Cluster::compact`] removes at once in the CLI (a batch that makes the cost
/// of moving the records after the compacted point negligible).
pub const COMPACTION_BATCH: u64 = 4096;

#[derive(Clone, Debug, Default)]
struct ReplicaLog {
    /// The offset of `records[0]`: 0, unless the log was compacted ([`Cluster::compact`]).
    base: u64,
    /// The records from `base` on; shared between replicas (a fetch copies pointers, not records).
    records: Vec<Arc<Record>>,
    /// The leader epoch of each record from `base` on.
    epochs: Vec<i32>,
    /// Each key's latest record, kept as the log grows and is truncated.
    index: LatestIndex,
    /// What compaction kept of the records before `base`: each key's latest one, by key number.
    compacted: Vec<Option<Arc<Record>>>,
    hw: u64,
}

impl ReplicaLog {
    fn leo(&self) -> u64 {
        self.base + self.records.len() as u64
    }

    fn push(&mut self, record: Arc<Record>, epoch: i32, key: u32) {
        self.records.push(record);
        self.epochs.push(epoch);
        self.index.push(key);
    }

    /// Drops every record from offset `keep` (never below `base`) on.
    fn truncate(&mut self, keep: usize) {
        let tail = keep.saturating_sub(self.base as usize);
        self.records.truncate(tail);
        self.epochs.truncate(tail);
        self.index.truncate(keep.max(self.base as usize));
    }

    /// The latest record of each key, tombstones included, by key number.
    fn latest(&self) -> Vec<Arc<Record>> {
        self.index
            .latest_by_key()
            .map(|(k, o)| match o.checked_sub(self.base) {
                Some(i) => self.records[i as usize].clone(),
                // Below the base, a key's latest record is the one compaction kept.
                None => self.compacted[k as usize]
                    .clone()
                    .expect("compaction keeps each key's latest"),
            })
            .collect()
    }

    /// Log compaction up to `to` (Kafka's log cleaner): of the records before `to`, only each key's
    /// latest is kept (tombstones included). The offsets stay: the log end offset, the high
    /// watermark and the latest record of each key are unchanged.
    fn compact_to(&mut self, to: u64) {
        let Some(n) = to.checked_sub(self.base).filter(|n| *n > 0) else {
            return;
        };
        let n = n as usize;
        for (i, r) in self.records.drain(..n).enumerate() {
            let k = self.index.key(self.base as usize + i) as usize;
            if self.compacted.len() <= k {
                self.compacted.resize(k + 1, None);
            }
            self.compacted[k] = Some(r);
        }
        self.epochs.drain(..n);
        self.index.drop_prefix(n);
        self.base = to;
    }
}

#[derive(Clone, Debug)]
struct Follower {
    /// The follower's LEO as the leader last saw it in a fetch.
    seen_leo: u64,
    last_caught_up: SimTime,
    last_fetch_time: SimTime,
    last_fetch_leader_leo: u64,
    /// The next fetch, for interval fetching.
    next_fetch: Option<SimTime>,
}

impl Follower {
    /// A follower the leader has heard nothing from yet, counted as caught up at `since`.
    fn new(since: SimTime) -> Self {
        Self {
            seen_leo: 0,
            last_caught_up: since,
            last_fetch_time: since,
            last_fetch_leader_leo: 0,
            next_fetch: None,
        }
    }
}

#[derive(Clone, Debug)]
struct BrokerState {
    alive: bool,
    slowed: Option<(u64, Option<SimTime>)>,
}

/// The brokers, the controller and the replication of the group's partition. See the
/// [module docs](self).
#[derive(Clone, Debug)]
pub struct Cluster {
    config: ClusterConfig,
    brokers: Vec<BrokerState>,
    placement: Vec<Vec<NodeId>>,
    /// The leader of every `__consumer_offsets` partition.
    leaders: Vec<Option<NodeId>>,
    group_partition: i32,
    leader_epoch: i32,
    /// The group partition's ISR, in assignment order.
    isr: Vec<NodeId>,
    /// The offset where the current leader epoch starts.
    epoch_start_offset: u64,
    logs: Map<NodeId, ReplicaLog>,
    /// The numbers of the record keys, shared by the replicas' indexes.
    key_ids: KeyIds,
    followers: Map<NodeId, Follower>,
    /// Appends waiting for the HW: offset → deadline.
    pending: Map<u64, SimTime>,
    /// When the `isr-expiration` task last ran (it runs at every multiple of its period, but only
    /// matters, and is only scheduled, while some ISR follower is behind).
    last_isr_check: SimTime,
    now: SimTime,
    events: VecDeque<ClusterEvent>,
}

impl Cluster {
    /// A cluster with every broker up, each partition led by its preferred leader, the ISR of the
    /// group's partition complete and its log empty.
    ///
    /// # Panics
    ///
    /// If the configuration is invalid (see [`ClusterConfig`]; scenarios validate it first), or
    /// `group_partition` is not in `0..offsets_partitions`.
    pub fn new(config: ClusterConfig, offsets_partitions: i32, group_partition: i32) -> Self {
        assert!(config.brokers >= 1, "a cluster needs a broker");
        assert!(
            (0..offsets_partitions).contains(&group_partition),
            "the group's partition must exist"
        );
        let placement = place_replicas(config.brokers, offsets_partitions, config.replication_factor);
        let leaders = placement.iter().map(|r| r.first().copied()).collect();
        let replicas = placement[group_partition as usize].clone();
        let logs = Map::from_iter(replicas.iter().map(|b| (*b, ReplicaLog::default())));
        let followers = Map::from_iter(replicas[1..].iter().map(|b| (*b, Follower::new(SimTime::ZERO))));
        let mut c = Self {
            brokers: (0..config.brokers)
                .map(|_| BrokerState {
                    alive: true,
                    slowed: None,
                })
                .collect(),
            config,
            placement,
            leaders,
            group_partition,
            leader_epoch: 0,
            isr: replicas,
            epoch_start_offset: 0,
            logs,
            key_ids: KeyIds::default(),
            followers,
            pending: Map::new(),
            last_isr_check: SimTime::ZERO,
            now: SimTime::ZERO,
            events: VecDeque::new(),
        };
        c.reschedule_fetches();
        c
    }

    // ============================================================================== getters

    /// The configuration.
    pub fn config(&self) -> &ClusterConfig {
        &self.config
    }

    /// Every broker id.
    pub fn broker_ids(&self) -> Vec<NodeId> {
        (0..self.brokers.len() as i32).map(NodeId).collect()
    }

    /// Whether `broker` exists and is running.
    pub fn is_alive(&self, broker: NodeId) -> bool {
        self.state(broker).is_some_and(|b| b.alive)
    }

    fn state(&self, broker: NodeId) -> Option<&BrokerState> {
        usize::try_from(broker.0).ok().and_then(|i| self.brokers.get(i))
    }

    /// The number of `__consumer_offsets` partitions.
    pub fn offsets_partitions(&self) -> i32 {
        self.placement.len() as i32
    }

    /// A partition's replicas, preferred leader first.
    pub fn replicas(&self, partition: i32) -> &[NodeId] {
        usize::try_from(partition)
            .ok()
            .and_then(|p| self.placement.get(p))
            .map_or(&[], |r| r.as_slice())
    }

    /// A partition's current leader.
    pub fn leader(&self, partition: i32) -> Option<NodeId> {
        usize::try_from(partition)
            .ok()
            .and_then(|p| self.leaders.get(p))
            .copied()
            .flatten()
    }

    /// The group's partition.
    pub fn group_partition(&self) -> i32 {
        self.group_partition
    }

    /// The group partition's leader (the group's coordinator), if it has one.
    pub fn group_leader(&self) -> Option<NodeId> {
        self.leader(self.group_partition)
    }

    /// The group partition's leader epoch.
    pub fn leader_epoch(&self) -> i32 {
        self.leader_epoch
    }

    /// The group partition's ISR, in assignment order.
    pub fn isr(&self) -> &[NodeId] {
        &self.isr
    }

    /// The group partition's log as `broker`'s replica holds it (records shared between replicas;
    /// read them through `Deref`).
    /// With compaction ([`Cluster::compact`]), the records from [`Cluster::replica_log_start`] on.
    pub fn replica_log(&self, broker: NodeId) -> Option<&[Arc<Record>]> {
        self.logs.get(&broker).map(|l| l.records.as_slice())
    }

    /// The offset of the first record of [`Cluster::replica_log`]: 0, unless the log was compacted.
    pub fn replica_log_start(&self, broker: NodeId) -> Option<u64> {
        self.logs.get(&broker).map(|l| l.base)
    }

    /// The latest record of each key (a group's metadata, a group's offset of one partition) in
    /// `broker`'s replica of the group's partition, tombstones included: what replaying the whole
    /// log would conclude, and what a compacted log would keep. Kept up to date as the replica
    /// appends, fetches and truncates, so a new leader's coordinator loads from it
    /// ([`crate::Coordinator::load_latest`]) without rescanning the history.
    pub fn replica_latest(&self, broker: NodeId) -> Option<Vec<Arc<Record>>> {
        self.logs.get(&broker).map(ReplicaLog::latest)
    }

    /// A replica's log end offset.
    pub fn log_end_offset(&self, broker: NodeId) -> Option<u64> {
        self.logs.get(&broker).map(ReplicaLog::leo)
    }

    /// The leader's high watermark (the last leader's while the partition is offline).
    pub fn high_watermark(&self) -> u64 {
        match self.group_leader() {
            Some(l) => self.logs[&l].hw,
            None => self.logs.values().map(|l| l.hw).max().unwrap_or(0),
        }
    }

    /// The error an append to the group's partition gets now, before it is written: `None` if it
    /// may go ahead, `NOT_LEADER_OR_FOLLOWER` without a leader, `NOT_ENOUGH_REPLICAS` when the ISR is
    /// smaller than `min.insync.replicas` (acks=all).
    pub fn append_error(&self) -> Option<ErrorCode> {
        if self.group_leader().is_none() {
            Some(ErrorCode::NotLeaderOrFollower)
        } else if self.is_under_min_isr() {
            Some(ErrorCode::NotEnoughReplicas)
        } else {
            None
        }
    }

    /// Whether the group partition's ISR is smaller than `min.insync.replicas` (Kafka:
    /// `Partition.isUnderMinIsr`, with the effective minimum capped at the replica count). The
    /// leader then refuses acks=all appends and does not move its high watermark.
    pub fn is_under_min_isr(&self) -> bool {
        let replicas = self.replicas(self.group_partition).len() as u32;
        (self.isr.len() as u32) < self.config.min_insync_replicas.min(replicas)
    }

    /// Every broker, as the UI draws it.
    pub fn brokers(&self) -> Vec<BrokerView> {
        self.broker_ids()
            .into_iter()
            .map(|id| {
                let s = &self.brokers[id.0 as usize];
                BrokerView {
                    id,
                    alive: s.alive,
                    slowed: s.slowed,
                    leads: (0..self.offsets_partitions())
                        .filter(|p| self.leader(*p) == Some(id))
                        .collect(),
                    replicas: (0..self.offsets_partitions())
                        .filter(|p| self.replicas(*p).contains(&id))
                        .collect(),
                    is_group_coordinator: self.group_leader() == Some(id),
                }
            })
            .collect()
    }

    /// The group's partition: leader, replicas with their LEO, ISR and HW.
    pub fn offsets_partition(&self) -> OffsetsPartitionView {
        let leader = self.group_leader();
        OffsetsPartitionView {
            partition: self.group_partition,
            leader,
            leader_epoch: self.leader_epoch,
            replicas: self
                .replicas(self.group_partition)
                .iter()
                .map(|b| {
                    let log = &self.logs[b];
                    let f = self.followers.get(b);
                    ReplicaView {
                        broker: *b,
                        alive: self.is_alive(*b),
                        is_leader: leader == Some(*b),
                        in_sync: self.isr.contains(b),
                        log_end_offset: log.leo(),
                        high_watermark: log.hw,
                        leader_view_of_leo: f.map(|f| f.seen_leo),
                        last_caught_up: f.map(|f| f.last_caught_up),
                    }
                })
                .collect(),
            isr: self.isr.clone(),
            high_watermark: self.high_watermark(),
            min_insync_replicas: self.config.min_insync_replicas,
            pending_appends: self.pending.iter().map(|(o, d)| (*o, *d)).collect(),
        }
    }

    // ============================================================================== outputs

    /// The next event.
    pub fn poll_event(&mut self) -> Option<ClusterEvent> {
        self.events.pop_front()
    }

    /// When [`Cluster::handle_timeout`] should run next.
    pub fn poll_timeout(&self) -> Option<SimTime> {
        let mut t = self.next_isr_check();
        let mut consider = |x: SimTime| t = Some(t.map_or(x, |y: SimTime| y.min(x)));
        for f in self.followers.values() {
            if let Some(n) = f.next_fetch {
                consider(n);
            }
        }
        if let Some(d) = self.pending.values().min() {
            consider(*d);
        }
        for s in &self.brokers {
            if let Some((_, Some(u))) = s.slowed {
                consider(u);
            }
        }
        t
    }

    /// The period of Kafka's `isr-expiration` task.
    fn isr_check_period(&self) -> u64 {
        (self.config.replica_lag_time_max_ms / 2).max(1)
    }

    /// The next run of the `isr-expiration` task, if some ISR follower is behind the leader (when
    /// none is, the task would find nothing to do).
    fn next_isr_check(&self) -> Option<SimTime> {
        let leader = self.group_leader()?;
        let leader_leo = self.logs[&leader].leo();
        let behind = self
            .isr
            .iter()
            .any(|b| *b != leader && self.followers[b].seen_leo != leader_leo);
        if !behind {
            return None;
        }
        let period = self.isr_check_period();
        let after_last = (self.last_isr_check.as_millis() / period + 1) * period;
        let from_now = self.now.as_millis().div_ceil(period) * period;
        Some(SimTime(after_last.max(from_now)))
    }

    // ============================================================================== inputs

    fn advance(&mut self, now: SimTime) {
        assert!(now >= self.now, "time went backwards: {now} < {}", self.now);
        self.now = now;
    }

    fn fetch_interval(&self, broker: NodeId) -> u64 {
        match self.state(broker).and_then(|s| s.slowed) {
            Some((ms, _)) => ms,
            None => self.config.replica_fetch_interval_ms,
        }
    }

    /// Sets or clears each follower's interval fetch timer.
    fn reschedule_fetches(&mut self) {
        let leader = self.group_leader();
        let ids: Vec<NodeId> = self.followers.keys().copied().collect();
        for b in ids {
            let interval = self.fetch_interval(b);
            let active = leader.is_some() && leader != Some(b) && self.is_alive(b);
            let now = self.now;
            let f = self.followers.get_mut(&b).expect("listed");
            if !active || interval == 0 {
                f.next_fetch = None;
            } else if f.next_fetch.is_none() {
                f.next_fetch = Some(now + SimDuration::from_millis(interval));
            }
        }
    }

    /// The group partition's leader appended `records` (the coordinator's new log entries, in
    /// order, with offsets continuing the leader's log). Each waits for the HW until
    /// `offsets.commit.timeout.ms`. Long-poll followers fetch them at once.
    ///
    /// # Panics
    ///
    /// If there is no leader, or the offsets do not continue the leader's log.
    pub fn leader_appended(&mut self, now: SimTime, records: &[Arc<Record>]) {
        self.advance(now);
        let leader = self.group_leader().expect("only a leader appends");
        let epoch = self.leader_epoch;
        let deadline = now + SimDuration::from_millis(self.config.offsets_commit_timeout_ms);
        let log = self.logs.get_mut(&leader).expect("the leader is a replica");
        for r in records {
            assert_eq!(r.offset, log.leo(), "appends continue the leader's log");
            let key = self.key_ids.id(&r.body);
            log.push(r.clone(), epoch, key);
            self.pending.insert(r.offset, deadline);
        }
        self.maybe_advance_hw();
        self.replicate(now);
    }

    /// Log compaction of the group's partition, as Kafka's log cleaner keeps only the latest record
    /// of each key (tombstones included): every replica drops the older records before the
    /// smallest high watermark of the replicas (a dead broker's included: its log persists, and a
    /// restarted broker truncates and fetches from it). Nothing after that point is touched, and
    /// nothing before it is read again but each key's latest record: a follower fetches from its
    /// own log end offset, a truncation never goes below a replica's high watermark (unclean leader
    /// election is off, so every leader holds everything any high watermark ever covered), and a
    /// new leader loads the latest record of each key ([`Cluster::replica_latest`], the same
    /// records with or without compaction). Offsets, log end offsets, high watermarks and events
    /// are unchanged; [`Cluster::replica_log`] then starts at [`Cluster::replica_log_start`].
    /// Runs only once at least `batch` records (at least 1) can go, so that its cost (moving the
    /// records after the point) is spread over many appends ([`COMPACTION_BATCH`]).
    pub fn compact(&mut self, batch: u64) {
        let to = self.logs.values().map(|l| l.hw).min().unwrap_or(0);
        let base = self.logs.values().map(|l| l.base).min().unwrap_or(0);
        if to >= base + batch.max(1) {
            for l in self.logs.values_mut() {
                l.compact_to(to);
            }
        }
    }

    /// Runs long-poll fetches (interval 0) until every such follower is caught up and the leader
    /// has seen it.
    pub fn replicate(&mut self, now: SimTime) {
        self.advance(now);
        let Some(leader) = self.group_leader() else {
            return;
        };
        loop {
            let mut progressed = false;
            let ids: Vec<NodeId> = self.followers.keys().copied().collect();
            for b in ids {
                if b == leader || !self.is_alive(b) || self.fetch_interval(b) != 0 {
                    continue;
                }
                let leo = self.logs[&b].leo();
                let leader_leo = self.logs[&leader].leo();
                if leo < leader_leo || self.followers[&b].seen_leo != leo {
                    self.fetch(b);
                    progressed = true;
                }
            }
            if !progressed {
                break;
            }
        }
    }

    /// One fetch by follower `b` (Kafka: `updateFollowerFetchState`, `maybeExpandIsr`,
    /// `maybeIncrementLeaderHW`, then the follower's append).
    fn fetch(&mut self, b: NodeId) {
        let now = self.now;
        let Some(leader) = self.group_leader() else {
            return;
        };
        let leader_leo = self.logs[&leader].leo();
        let fetch_offset = self.logs[&b].leo();
        {
            let f = self.followers.get_mut(&b).expect("a follower");
            if fetch_offset >= leader_leo {
                f.last_caught_up = now;
            } else if fetch_offset >= f.last_fetch_leader_leo {
                f.last_caught_up = f.last_caught_up.max(f.last_fetch_time);
            }
            f.last_fetch_leader_leo = leader_leo;
            f.last_fetch_time = now;
            f.seen_leo = fetch_offset;
        }
        let hw = self.logs[&leader].hw;
        if !self.isr.contains(&b) && fetch_offset >= hw && fetch_offset >= self.epoch_start_offset {
            self.isr.push(b);
            self.sort_isr();
            self.events.push_back(ClusterEvent::IsrExpanded {
                partition: self.group_partition,
                added: b,
                isr: self.isr.clone(),
            });
        }
        self.maybe_advance_hw();
        // The response: the records the follower lacks, and the leader's HW.
        let (new_records, leader_hw) = {
            let l = &self.logs[&leader];
            // Every replica keeps what follows its own high watermark, which compaction never reaches.
            let from = (fetch_offset - l.base) as usize;
            let new: Vec<(Arc<Record>, i32, u32)> = (from..l.records.len())
                .map(|i| {
                    (
                        l.records[i].clone(),
                        l.epochs[i],
                        l.index.key(l.base as usize + i),
                    )
                })
                .collect();
            (new, l.hw)
        };
        let n = new_records.len() as u64;
        let log = self.logs.get_mut(&b).expect("a replica");
        for (record, epoch, key) in new_records {
            log.push(record, epoch, key);
        }
        log.hw = leader_hw.min(log.leo());
        let leo = log.leo();
        if n > 0 {
            self.events.push_back(ClusterEvent::ReplicaFetched {
                partition: self.group_partition,
                follower: b,
                fetch_offset,
                records: n,
                log_end_offset: leo,
            });
        }
    }

    fn sort_isr(&mut self) {
        let order = self.placement[self.group_partition as usize].clone();
        sort_by_key(&mut self.isr, |b| order.iter().position(|x| x == b));
    }

    /// Kafka: `maybeIncrementLeaderHW` — the smallest LEO over the ISR, never backwards, and not at
    /// all while the ISR is under `min.insync.replicas` (`isUnderMinIsr`). Appends the HW now
    /// covers are no longer pending.
    fn maybe_advance_hw(&mut self) {
        let Some(leader) = self.group_leader() else {
            return;
        };
        if self.is_under_min_isr() {
            return;
        }
        let mut hw = self.logs[&leader].leo();
        for b in &self.isr {
            if *b != leader {
                hw = hw.min(self.followers[b].seen_leo);
            }
        }
        let old = self.logs[&leader].hw;
        if hw > old {
            self.logs.get_mut(&leader).expect("leader").hw = hw;
            self.events.push_back(ClusterEvent::HighWatermarkAdvanced {
                partition: self.group_partition,
                leader,
                from: old,
                to: hw,
            });
            self.pending.retain(|o, _| *o >= hw);
        }
    }

    /// Interval fetches, ISR expiration, append timeouts and the end of slowdowns due at `now`.
    /// Returns the offsets whose appends timed out (`REQUEST_TIMED_OUT`).
    pub fn handle_timeout(&mut self, now: SimTime) -> Vec<u64> {
        self.advance(now);
        // Slowdowns that end.
        for i in 0..self.brokers.len() {
            if let Some((_, Some(u))) = self.brokers[i].slowed {
                if u <= now {
                    self.brokers[i].slowed = None;
                    self.events.push_back(ClusterEvent::BrokerSpeedRestored {
                        broker: NodeId(i as i32),
                    });
                    if let Some(f) = self.followers.get_mut(&NodeId(i as i32)) {
                        f.next_fetch = None;
                    }
                }
            }
        }
        self.reschedule_fetches();
        // Interval fetches.
        let due: Vec<NodeId> = self
            .followers
            .iter()
            .filter(|(_, f)| f.next_fetch.is_some_and(|t| t <= now))
            .map(|(b, _)| *b)
            .collect();
        for b in due {
            self.fetch(b);
            let interval = self.fetch_interval(b);
            if let Some(f) = self.followers.get_mut(&b) {
                f.next_fetch = (interval > 0).then(|| now + SimDuration::from_millis(interval));
            }
        }
        self.replicate(now);
        // ISR expiration (Kafka: the `isr-expiration` task, every replica.lag.time.max.ms / 2).
        if self.next_isr_check().is_some_and(|t| t <= now) {
            self.last_isr_check = now;
            self.expire_isr();
        }
        // Appends that waited too long.
        let timed_out: Vec<u64> = self
            .pending
            .iter()
            .filter(|(_, d)| **d <= now)
            .map(|(o, _)| *o)
            .collect();
        for o in &timed_out {
            self.pending.remove(o);
            self.events.push_back(ClusterEvent::AppendTimedOut {
                partition: self.group_partition,
                offset: *o,
            });
        }
        timed_out
    }

    /// Kafka: `Partition.maybeShrinkIsr` with `getOutOfSyncReplicas`.
    fn expire_isr(&mut self) {
        let Some(leader) = self.group_leader() else {
            return;
        };
        let leader_leo = self.logs[&leader].leo();
        let lag_max = self.config.replica_lag_time_max_ms;
        let now = self.now;
        let out: Vec<(NodeId, u64)> = self
            .isr
            .iter()
            .filter(|b| **b != leader)
            .filter_map(|b| {
                let f = &self.followers[b];
                let lag = (now - f.last_caught_up).as_millis();
                (f.seen_leo != leader_leo && lag > lag_max).then_some((*b, lag))
            })
            .collect();
        for (b, lag_ms) in out {
            self.isr.retain(|x| *x != b);
            self.events.push_back(ClusterEvent::IsrShrunk {
                partition: self.group_partition,
                removed: b,
                isr: self.isr.clone(),
                reason: IsrShrinkReason::Lagging { lag_ms },
            });
        }
        // A smaller ISR may let the HW move.
        self.maybe_advance_hw();
    }

    /// Slows `broker`'s followers: they fetch every `fetch_interval_ms` until `until` (or until the
    /// broker restarts).
    pub fn slow(&mut self, now: SimTime, broker: NodeId, fetch_interval_ms: u64, until: Option<SimTime>) {
        self.advance(now);
        let Some(i) = usize::try_from(broker.0).ok().filter(|i| *i < self.brokers.len()) else {
            return;
        };
        self.brokers[i].slowed = Some((fetch_interval_ms, until));
        if let Some(f) = self.followers.get_mut(&broker) {
            f.next_fetch = None;
        }
        self.events.push_back(ClusterEvent::BrokerSlowed {
            broker,
            fetch_interval_ms,
            until,
        });
        self.reschedule_fetches();
    }

    /// `broker` stops (a crash, or a controlled shutdown if `graceful`; the difference is for the
    /// caller, which unloads the coordinator first in a controlled shutdown). It leaves every ISR
    /// it is in but the last member's place; partitions it led get a new leader from the ISR, or go
    /// offline. Returns whether the group partition's leader changed.
    pub fn crash(&mut self, now: SimTime, broker: NodeId, graceful: bool) -> bool {
        self.advance(now);
        let Some(i) = usize::try_from(broker.0).ok().filter(|i| *i < self.brokers.len()) else {
            return false;
        };
        if !self.brokers[i].alive {
            return false;
        }
        self.brokers[i].alive = false;
        self.brokers[i].slowed = None;
        self.events
            .push_back(ClusterEvent::BrokerCrashed { broker, graceful });
        // The group's partition.
        let was_leader = self.group_leader() == Some(broker);
        if self.isr.contains(&broker) && self.isr.len() > 1 {
            self.isr.retain(|b| *b != broker);
            self.events.push_back(ClusterEvent::IsrShrunk {
                partition: self.group_partition,
                removed: broker,
                isr: self.isr.clone(),
                reason: IsrShrinkReason::BrokerDown,
            });
        }
        if was_leader {
            self.pending.clear();
            self.elect_group_leader();
        } else {
            self.maybe_advance_hw();
        }
        self.move_other_leaders();
        self.reschedule_fetches();
        // Followers start fetching from the (new) leader at once.
        self.replicate(now);
        was_leader
    }

    /// `broker` starts again with its log. It becomes a follower (truncating to the leader's log),
    /// or the leader of an offline partition whose ISR it is in. Returns whether the group
    /// partition got a leader.
    pub fn restart(&mut self, now: SimTime, broker: NodeId) -> bool {
        self.advance(now);
        let Some(i) = usize::try_from(broker.0).ok().filter(|i| *i < self.brokers.len()) else {
            return false;
        };
        if self.brokers[i].alive {
            return false;
        }
        self.brokers[i].alive = true;
        self.brokers[i].slowed = None;
        self.events.push_back(ClusterEvent::BrokerRestarted { broker });
        let mut elected = false;
        if self.logs.contains_key(&broker) {
            match self.group_leader() {
                None => {
                    elected = self.elect_group_leader();
                }
                Some(leader) => {
                    self.truncate_to_leader(broker, leader);
                    if let Some(f) = self.followers.get_mut(&broker) {
                        f.seen_leo = 0;
                        f.next_fetch = None;
                        f.last_fetch_leader_leo = 0;
                    }
                }
            }
        }
        self.move_other_leaders();
        self.reschedule_fetches();
        self.replicate(now);
        elected
    }

    /// Elects the group partition's leader: the first replica in assignment order that is alive
    /// and in the ISR. Returns whether one was found.
    fn elect_group_leader(&mut self) -> bool {
        let p = self.group_partition;
        let candidate = self.placement[p as usize]
            .iter()
            .copied()
            .find(|b| self.is_alive(*b) && self.isr.contains(b));
        match candidate {
            None => {
                self.leaders[p as usize] = None;
                self.events.push_back(ClusterEvent::PartitionOffline {
                    partition: p,
                    isr: self.isr.clone(),
                });
                false
            }
            Some(leader) => {
                self.leaders[p as usize] = Some(leader);
                self.leader_epoch += 1;
                let leo = self.logs[&leader].leo();
                self.epoch_start_offset = leo;
                // Followers are everyone else; the new leader starts with its own HW and knows
                // nothing of the followers' LEOs yet.
                let replicas = self.placement[p as usize].clone();
                let now = self.now;
                self.followers = Map::from_iter(
                    replicas
                        .iter()
                        .filter(|b| **b != leader)
                        .map(|b| (*b, Follower::new(now))),
                );
                self.events.push_back(ClusterEvent::LeaderElected {
                    partition: p,
                    leader,
                    leader_epoch: self.leader_epoch,
                    isr: self.isr.clone(),
                    log_end_offset: leo,
                    high_watermark: self.logs[&leader].hw,
                });
                for b in replicas {
                    if b != leader && self.is_alive(b) {
                        self.truncate_to_leader(b, leader);
                    }
                }
                true
            }
        }
    }

    /// Kafka's leader-epoch truncation: the follower keeps the longest prefix of its log that
    /// matches the leader's (same offsets, same epochs).
    fn truncate_to_leader(&mut self, b: NodeId, leader: NodeId) {
        let keep = {
            let f = &self.logs[&b];
            let l = &self.logs[&leader];
            // Compaction moves every replica's base together, and only below every replica's high
            // watermark, which no truncation goes below: the logs match up to the base.
            debug_assert_eq!(f.base, l.base, "replicas are compacted together");
            f.base as usize
                + f.epochs
                    .iter()
                    .zip(l.epochs.iter())
                    .take_while(|(a, b)| a == b)
                    .count()
        };
        let log = self.logs.get_mut(&b).expect("a replica");
        let from = log.leo();
        if (keep as u64) < from {
            log.truncate(keep);
            log.hw = log.hw.min(keep as u64);
            self.events.push_back(ClusterEvent::LogTruncated {
                partition: self.group_partition,
                broker: b,
                from,
                to: keep as u64,
            });
        }
    }

    /// Leaders of the partitions without traffic: a dead leader is replaced by the first live
    /// replica (their ISR is every live replica: there is nothing to catch up on), and an offline
    /// partition gets a leader when a replica comes back.
    fn move_other_leaders(&mut self) {
        let mut changes = Vec::new();
        for p in 0..self.placement.len() {
            if p as i32 == self.group_partition {
                continue;
            }
            let current = self.leaders[p];
            if current.is_some_and(|l| self.is_alive(l)) {
                continue;
            }
            let next = self.placement[p].iter().copied().find(|b| self.is_alive(*b));
            if next != current {
                self.leaders[p] = next;
                changes.push((p as i32, next));
            }
        }
        if !changes.is_empty() {
            self.events.push_back(ClusterEvent::LeadersMoved { changes });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placement_follows_kafkas_rack_unaware_rule() {
        let p = place_replicas(3, 7, 3);
        let ids = |v: &[NodeId]| v.iter().map(|n| n.0).collect::<Vec<_>>();
        assert_eq!(ids(&p[0]), vec![0, 1, 2]);
        assert_eq!(ids(&p[1]), vec![1, 2, 0]);
        assert_eq!(ids(&p[2]), vec![2, 0, 1]);
        assert_eq!(ids(&p[3]), vec![0, 2, 1]);
        assert_eq!(ids(&p[4]), vec![1, 0, 2]);
        assert_eq!(ids(&p[6]), vec![0, 1, 2]);
        let one = place_replicas(5, 10, 1);
        assert!(one.iter().all(|r| r.len() == 1));
    }

    fn rec(offset: u64) -> Arc<Record> {
        Arc::new(Record {
            offset,
            appended_at: SimTime::ZERO,
            body: crate::coordinator::records::RecordBody::GroupTombstone { group_id: "g".into() },
        })
    }

    #[test]
    fn long_poll_followers_replicate_and_the_hw_follows() {
        let mut c = Cluster::new(ClusterConfig::default(), 50, 30);
        assert_eq!(c.group_leader(), Some(NodeId(0)));
        c.leader_appended(SimTime(5), &[rec(0), rec(1)]);
        assert_eq!(c.high_watermark(), 2);
        assert_eq!(c.log_end_offset(NodeId(1)), Some(2));
        assert!(c.offsets_partition().pending_appends.is_empty());
    }

    #[test]
    fn a_slow_follower_leaves_and_rejoins_the_isr() {
        let mut c = Cluster::new(ClusterConfig::default(), 50, 30);
        c.slow(SimTime(0), NodeId(1), 40_000, Some(SimTime(100_000)));
        c.leader_appended(SimTime(1_000), &[rec(0)]);
        assert_eq!(c.high_watermark(), 0);
        let mut t = SimTime(1_000);
        while t < SimTime(120_000) {
            t = c.poll_timeout().unwrap().max(t);
            c.handle_timeout(t);
            if c.isr().len() == 2 {
                break;
            }
        }
        assert_eq!(c.isr(), &[NodeId(0), NodeId(2)]);
        assert_eq!(c.high_watermark(), 1);
        while t < SimTime(200_000) {
            t = c.poll_timeout().unwrap().max(t);
            c.handle_timeout(t);
            if c.isr().len() == 3 {
                break;
            }
        }
        assert_eq!(c.isr().len(), 3);
    }

    #[test]
    fn no_unclean_election() {
        let mut c = Cluster::new(
            ClusterConfig {
                brokers: 3,
                replication_factor: 2,
                ..ClusterConfig::default()
            },
            50,
            30,
        );
        assert_eq!(c.replicas(30), &[NodeId(0), NodeId(1)]);
        c.crash(SimTime(1), NodeId(1), false);
        assert_eq!(c.isr(), &[NodeId(0)]);
        c.crash(SimTime(2), NodeId(0), false);
        assert_eq!(c.group_leader(), None);
        assert_eq!(c.isr(), &[NodeId(0)]);
        c.restart(SimTime(3), NodeId(1));
        assert_eq!(c.group_leader(), None, "1 is not in the ISR");
        c.restart(SimTime(4), NodeId(0));
        assert_eq!(c.group_leader(), Some(NodeId(0)));
    }
}
