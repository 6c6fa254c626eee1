//! A consumer group's in-memory state (Kafka: `modern.consumer.ConsumerGroup`,
//! `ConsumerGroupMember`), as the coordinator keeps it next to its classic groups.

use crate::collections::Map;
use crate::collections::Set;

use crate::assignor::server::ServerAssignor;
use crate::coordinator::records::{
    ClassicMemberMetadata, ConsumerCurrentAssignmentValue, ConsumerMemberMetadataValue,
};
use crate::coordinator::version::KafkaRelease;
use crate::protocol::TopicPartition;
use crate::topic::Pattern;

use super::{ConsumerGroupState, CurrentAssignment, MemberState, PartitionEpochs, Partitions};

/// One consumer-protocol member.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ConsumerMember {
    pub(crate) id: String,
    pub(crate) instance_id: Option<String>,
    pub(crate) rack_id: Option<String>,
    pub(crate) client_id: String,
    pub(crate) client_host: String,
    pub(crate) rebalance_timeout_ms: i32,
    pub(crate) subscribed_topic_names: Vec<String>,
    pub(crate) subscribed_topic_regex: Option<String>,
    pub(crate) server_assignor: Option<String>,
    /// Epochs, state and owned partitions (the current-assignment record).
    pub(crate) current: CurrentAssignment,
    /// Its target assignment.
    pub(crate) target: Partitions,
    /// Set for a member that uses the classic protocol (a mixed group, reference §10).
    pub(crate) classic: Option<ClassicMemberMetadata>,
    /// Kafka 4.3+ (KIP-1251): the epoch at which it received each partition it owns, topic →
    /// partition → epoch (empty before 4.3; a partition missing here counts at the member epoch).
    pub(crate) assignment_epochs: Map<String, Map<i32, i32>>,
}

impl ConsumerMember {
    /// `ConsumerGroupMember.Builder(memberId)`'s defaults.
    pub(crate) fn new(id: String) -> Self {
        Self {
            id,
            instance_id: None,
            rack_id: None,
            client_id: String::new(),
            client_host: String::new(),
            rebalance_timeout_ms: -1,
            subscribed_topic_names: Vec::new(),
            subscribed_topic_regex: None,
            server_assignor: None,
            current: CurrentAssignment::default(),
            target: Partitions::new(),
            classic: None,
            assignment_epochs: Map::new(),
        }
    }

    pub(crate) fn metadata_value(&self) -> ConsumerMemberMetadataValue {
        ConsumerMemberMetadataValue {
            instance_id: self.instance_id.clone(),
            rack_id: self.rack_id.clone(),
            client_id: self.client_id.clone(),
            client_host: self.client_host.clone(),
            subscribed_topic_names: self.subscribed_topic_names.clone(),
            subscribed_topic_regex: self.subscribed_topic_regex.clone(),
            server_assignor: self.server_assignor.clone(),
            rebalance_timeout_ms: self.rebalance_timeout_ms,
            classic_member_metadata: self.classic.clone(),
        }
    }

    pub(crate) fn apply_metadata(&mut self, v: ConsumerMemberMetadataValue) {
        self.instance_id = v.instance_id;
        self.rack_id = v.rack_id;
        self.client_id = v.client_id;
        self.client_host = v.client_host;
        self.subscribed_topic_names = v.subscribed_topic_names;
        self.subscribed_topic_regex = v.subscribed_topic_regex;
        self.server_assignor = v.server_assignor;
        self.rebalance_timeout_ms = v.rebalance_timeout_ms;
        self.classic = v.classic_member_metadata;
    }

    pub(crate) fn current_value(&self) -> ConsumerCurrentAssignmentValue {
        ConsumerCurrentAssignmentValue {
            member_epoch: self.current.member_epoch,
            previous_member_epoch: self.current.previous_member_epoch,
            state: self.current.state.value(),
            assigned_partitions: self.current.assigned_partitions.clone(),
            partitions_pending_revocation: self.current.partitions_pending_revocation.clone(),
            assignment_epochs: self.assignment_epochs.clone(),
        }
    }

    pub(crate) fn apply_current(&mut self, v: ConsumerCurrentAssignmentValue) {
        self.current = CurrentAssignment {
            state: MemberState::from_value(v.state),
            member_epoch: v.member_epoch,
            previous_member_epoch: v.previous_member_epoch,
            assigned_partitions: v.assigned_partitions,
            partitions_pending_revocation: v.partitions_pending_revocation,
        };
        self.assignment_epochs = v.assignment_epochs;
    }

    /// The epoch at which it received `topic`-`partition`, if it owns it (assigned or pending
    /// revocation): its recorded assignment epoch, else its member epoch.
    pub(crate) fn assignment_epoch(&self, topic: &str, partition: i32) -> Option<i32> {
        let owns = |p: &Partitions| p.get(topic).is_some_and(|s| s.contains(&partition));
        if !owns(&self.current.assigned_partitions) && !owns(&self.current.partitions_pending_revocation) {
            return None;
        }
        Some(
            self.assignment_epochs
                .get(topic)
                .and_then(|e| e.get(&partition))
                .copied()
                .unwrap_or(self.current.member_epoch),
        )
    }

    /// Kafka 4.3's bookkeeping after the member moved from `old` to its current assignment: a
    /// partition it keeps (or that moves to pending revocation) keeps its epoch, a partition newly
    /// granted gets `target_epoch`, a partition it gave up is forgotten.
    pub(crate) fn update_assignment_epochs(&mut self, old: &CurrentAssignment, target_epoch: i32) {
        let had = |p: &Partitions, t: &str, n: i32| p.get(t).is_some_and(|s| s.contains(&n));
        let old_epoch = |t: &str, n: i32| {
            self.assignment_epochs
                .get(t)
                .and_then(|e| e.get(&n))
                .copied()
                .unwrap_or(old.member_epoch)
        };
        let mut next: Map<String, Map<i32, i32>> = Map::new();
        for (t, ps) in &self.current.assigned_partitions {
            for &n in ps {
                let e = if had(&old.assigned_partitions, t, n) {
                    old_epoch(t, n)
                } else {
                    target_epoch
                };
                next.entry(t.clone()).or_default().insert(n, e);
            }
        }
        for (t, ps) in &self.current.partitions_pending_revocation {
            for &n in ps {
                next.entry(t.clone()).or_default().insert(n, old_epoch(t, n));
            }
        }
        self.assignment_epochs = next;
    }

    /// The topics it subscribes to: its names, plus the topics of `metadata` its regex matches
    /// (resolved at once here; Kafka resolves regexes asynchronously, reference §5 step 6).
    pub(crate) fn subscribed_topics(&self, metadata: &Map<String, i32>) -> Vec<String> {
        let mut topics: Set<String> = self.subscribed_topic_names.iter().cloned().collect();
        if let Some(p) = self
            .subscribed_topic_regex
            .as_deref()
            .and_then(|r| Pattern::new(r).ok())
        {
            topics.extend(metadata.keys().filter(|t| p.matches(t)).cloned());
        }
        topics.into_iter().collect()
    }
}

/// A consumer group (KIP-848).
#[derive(Clone, Debug, Default)]
pub(crate) struct ConsumerGroup {
    pub(crate) group_epoch: i32,
    pub(crate) assignment_epoch: i32,
    /// When the current target was computed, in ms (`None`: never; Kafka 4.3+'s
    /// `assignmentTimestamp`, whose 0 means the same).
    pub(crate) assignment_timestamp_ms: Option<u64>,
    pub(crate) metadata_hash: u64,
    /// Set on load: the first heartbeat recomputes the metadata hash (Kafka resets the refresh
    /// deadline on load, §8.7).
    pub(crate) metadata_expired: bool,
    pub(crate) members: Map<String, ConsumerMember>,
    /// `group.instance.id` → member id.
    pub(crate) static_members: Map<String, String>,
    pub(crate) partition_epochs: PartitionEpochs,
    /// Members not reconciled to the target (kept up to date so that deriving the state is O(1)).
    pub(crate) unreconciled: usize,
    pub(crate) next_member_seq: u64,
}

impl ConsumerGroup {
    pub(crate) fn new() -> Self {
        Self {
            next_member_seq: 1,
            ..Self::default()
        }
    }

    /// A group a heartbeat creates: epoch 0 and target epoch 0 up to 4.2, both 1 from 4.3
    /// (reference §12 V8).
    pub(crate) fn created(version: KafkaRelease) -> Self {
        let e = version.initial_group_epoch();
        Self {
            group_epoch: e,
            assignment_epoch: e,
            ..Self::new()
        }
    }

    /// The derived state (reference §2).
    pub(crate) fn state(&self) -> ConsumerGroupState {
        if self.members.is_empty() {
            ConsumerGroupState::Empty
        } else if self.group_epoch > self.assignment_epoch {
            ConsumerGroupState::Assigning
        } else if self.unreconciled > 0 {
            ConsumerGroupState::Reconciling
        } else {
            ConsumerGroupState::Stable
        }
    }

    /// Recounts the unreconciled members (after the target epoch moved, or a load).
    pub(crate) fn recount(&mut self) {
        let e = self.assignment_epoch;
        self.unreconciled = self
            .members
            .values()
            .filter(|m| !m.current.is_reconciled_to(e))
            .count();
    }

    /// Inserts or replaces a member, keeping the counters and the static index.
    pub(crate) fn put(&mut self, m: ConsumerMember) {
        let e = self.assignment_epoch;
        if let Some(old) = self.members.get(&m.id) {
            if !old.current.is_reconciled_to(e) {
                self.unreconciled -= 1;
            }
        }
        if !m.current.is_reconciled_to(e) {
            self.unreconciled += 1;
        }
        if let Some(i) = &m.instance_id {
            self.static_members.insert(i.clone(), m.id.clone());
        }
        self.members.insert(m.id.clone(), m);
    }

    /// Removes a member (its partitions freed, its instance id released).
    pub(crate) fn take(&mut self, member_id: &str) -> Option<ConsumerMember> {
        let m = self.members.remove(member_id)?;
        if !m.current.is_reconciled_to(self.assignment_epoch) {
            self.unreconciled -= 1;
        }
        if let Some(i) = &m.instance_id {
            if self.static_members.get(i).is_some_and(|id| *id == m.id) {
                self.static_members.remove(i);
            }
        }
        self.partition_epochs.remove_member(&m.current);
        Some(m)
    }

    /// Whether every member but `except` uses the classic protocol (Kafka:
    /// `allMembersUseClassicProtocolExcept`).
    pub(crate) fn all_classic_except(&self, except: &[&str]) -> bool {
        self.members
            .values()
            .filter(|m| !except.contains(&m.id.as_str()))
            .all(|m| m.classic.is_some())
    }

    /// Kafka: `waitingOnUnreleasedPartition` — some partition of the member's target that it
    /// does not have yet is still owned by another member.
    pub(crate) fn waiting_on_unreleased(&self, m: &ConsumerMember) -> bool {
        m.target.iter().any(|(t, ps)| {
            ps.iter().any(|p| {
                !m.current
                    .assigned_partitions
                    .get(t)
                    .is_some_and(|a| a.contains(p))
                    && self.partition_epochs.epoch(t, *p) != -1
            })
        })
    }

    /// The assignor the target is computed with (Kafka: `computePreferredServerAssignor`): the
    /// `ServerAssignor` most members name, else the default (the first of
    /// `group.consumer.assignors`, `uniform`). Ties, which Kafka breaks by `HashMap` order, go to
    /// the assignor first in `group.consumer.assignors` order (`uniform`, `range`).
    pub(crate) fn preferred_assignor(&self) -> ServerAssignor {
        let mut counts = [0usize; ServerAssignor::ALL.len()];
        for m in self.members.values() {
            if let Some(a) = m
                .server_assignor
                .as_deref()
                .and_then(|a| a.parse::<ServerAssignor>().ok())
            {
                let i = ServerAssignor::ALL.iter().position(|x| *x == a).unwrap_or(0);
                counts[i] += 1;
            }
        }
        let best = counts.iter().copied().max().unwrap_or(0);
        if best == 0 {
            return ServerAssignor::ALL[0];
        }
        let i = counts.iter().position(|c| *c == best).unwrap_or(0);
        ServerAssignor::ALL[i]
    }

    /// The metadata hash of the topics the members subscribe to (Kafka 4.1 hashes each subscribed
    /// topic's id, name, partition count and racks; here name and partition count, FNV-1a 64, topics
    /// in name order; unknown topics do not count).
    pub(crate) fn compute_metadata_hash(&self, metadata: &Map<String, i32>) -> u64 {
        let mut topics = Set::new();
        for m in self.members.values() {
            topics.extend(m.subscribed_topics(metadata));
        }
        metadata_hash(
            topics
                .iter()
                .filter_map(|t| metadata.get(t).map(|n| (t.as_str(), *n))),
        )
    }
}

/// FNV-1a 64 of `(name, partitions)` pairs.
pub(crate) fn metadata_hash<'a>(topics: impl Iterator<Item = (&'a str, i32)>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |b: u8| {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    };
    for (name, n) in topics {
        for b in name.bytes() {
            eat(b);
        }
        eat(0);
        for b in n.to_be_bytes() {
            eat(b);
        }
    }
    h
}

/// `partitions` flattened to topic partitions, in topic then partition order.
pub(crate) fn flatten(partitions: &Partitions) -> Vec<TopicPartition> {
    partitions
        .iter()
        .flat_map(|(t, ps)| ps.iter().map(move |p| TopicPartition::new(t.clone(), *p)))
        .collect()
}
