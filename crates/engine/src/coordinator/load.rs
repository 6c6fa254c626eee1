//! Coordinator failover: loading a `__consumer_offsets` partition's groups from its records when
//! this broker becomes its leader, and unloading them when it stops (Kafka:
//! `GroupMetadataManager.onLoaded` / `onUnloaded`, the `replay` methods).

use crate::collections::Map;
use std::sync::Arc;

use crate::protocol::{
    ConsumerAssignment, ErrorCode, GroupState, JoinGroupProtocol, JoinGroupResponse, Response,
    SyncGroupResponse, TopicPartition,
};
use crate::sort::sort;
use crate::time::SimTime;

use super::event::{EventKind, Reason};
use super::group::{CommittedOffset, Group, Member};
use super::index::{KeyIds, LatestIndex};
use super::records::{GroupMetadataRecord, MemberMetadataRecord, Record, RecordBody};
use super::timers::{TimerKey, TimerKind};
use super::{heartbeat, join, Coordinator, Io, PartitionLog, PartitionStatus};

/// How far a loaded group's member-id counter jumps ahead of the persisted one. Ids handed out
/// after the last group record (pending MEMBER_ID_REQUIRED ids, members added mid-rebalance) were
/// never persisted; skipping to the next multiple of this keeps new ids distinct from them unless a
/// group handed out that many ids since its last record. Kafka needs none of this: its ids end in a
/// UUID.
const MEMBER_SEQ_BLOCK: u64 = 1000;

/// The group-metadata record for `g` (Kafka: `GroupCoordinatorRecordHelpers.newGroupMetadataRecord`),
/// with `assignment` if given, else each member's stored assignment.
pub(crate) fn group_metadata_record(
    g: &Group,
    assignment: Option<&Map<String, ConsumerAssignment>>,
) -> GroupMetadataRecord {
    let protocol = g.protocol_name.clone().unwrap_or_default();
    GroupMetadataRecord {
        group_id: g.id.clone(),
        protocol_type: g.protocol_type.clone(),
        generation_id: g.generation,
        protocol_name: g.protocol_name.clone(),
        leader: g.leader.clone(),
        current_state_timestamp: g.state_timestamp,
        members: g
            .members_in_join_order()
            .into_iter()
            .map(|m| MemberMetadataRecord {
                member_id: m.id.clone(),
                group_instance_id: m.instance_id.clone(),
                client_id: m.client_id.clone(),
                client_host: m.client_host.clone(),
                rebalance_timeout_ms: m.rebalance_timeout_ms,
                session_timeout_ms: m.session_timeout_ms,
                subscription: m.metadata_for(&protocol),
                assignment: assignment
                    .and_then(|a| a.get(&m.id).cloned())
                    .unwrap_or_else(|| m.assignment.clone()),
            })
            .collect(),
        next_member_seq: g.next_member_seq,
    }
}

impl Coordinator {
    /// This broker became leader of `partition` but has not replayed it yet: requests for its
    /// groups get `COORDINATOR_LOAD_IN_PROGRESS` (heartbeats get `NONE`) until [`Coordinator::load`].
    pub fn start_loading(&mut self, now: SimTime, partition: i32) {
        self.advance(now);
        self.io.logs.entry(partition).or_insert(PartitionLog {
            status: PartitionStatus::Loading,
            start: 0,
            records: Vec::new(),
        });
    }

    /// This broker leads `partition` from now on: replays `records` (the partition's log, e.g. from
    /// the previous leader's [`Coordinator::unload`]) and brings each group back Stable with its last
    /// generation, leader and assignments, or Empty without members. Every member's session timer
    /// starts; a group over `group.max.size` starts a rebalance. Any rebalance that was in progress
    /// is lost, as in Kafka.
    pub fn load(&mut self, now: SimTime, partition: i32, records: Vec<Record>) {
        self.load_shared(now, partition, records.into_iter().map(Arc::new).collect());
    }

    /// [`Coordinator::load`] from shared records (a replica's log, without copying it).
    pub fn load_shared(&mut self, now: SimTime, partition: i32, records: Vec<Arc<Record>>) {
        // The last record of each key decides (a tombstone deletes).
        let mut ids = KeyIds::default();
        let mut index = LatestIndex::default();
        for r in &records {
            index.push(ids.id(&r.body));
        }
        let latest: Vec<Arc<Record>> = index.latest_offsets().map(|o| records[o].clone()).collect();
        self.replay(now, partition, records.len(), &latest);
        self.install_log(partition, 0, records);
    }

    /// [`Coordinator::load_shared`] from the partition's log end offset and the latest record of
    /// each of its keys (`latest`, in any order, tombstones included; a replica's index,
    /// [`crate::Cluster::replica_latest`]): only those are replayed, and the history stays with
    /// the replica (this coordinator's [`Coordinator::log`] then starts at `log_end_offset`).
    pub fn load_latest(&mut self, now: SimTime, partition: i32, log_end_offset: u64, latest: &[Arc<Record>]) {
        self.replay(now, partition, log_end_offset as usize, latest);
        self.install_log(partition, log_end_offset, Vec::new());
    }

    /// The partition's log from now on: `records`, starting at offset `start`.
    fn install_log(&mut self, partition: i32, start: u64, records: Vec<Arc<Record>>) {
        let log = self.io.logs.get_mut(&partition).expect("replay installed it");
        log.start = start;
        log.records = records;
    }

    /// Loads the partition's groups from the latest record of each key of its `count` records,
    /// leaving its log empty for the caller to install.
    fn replay(&mut self, now: SimTime, partition: i32, count: usize, latest: &[Arc<Record>]) {
        self.advance(now);
        // Unload first if already led, so that loading twice is a reload.
        if self
            .io
            .logs
            .get(&partition)
            .is_some_and(|l| l.status == PartitionStatus::Active)
        {
            self.unload(now, partition);
        }
        // Nothing from an earlier tenure waits any more.
        self.io.waiting.retain(|(p, _), _| *p != partition);
        let mut metadata: Map<String, Option<GroupMetadataRecord>> = Map::new();
        // The offset of each group's classic metadata record, to tell which type is the newer.
        let mut classic_at: Map<String, u64> = Map::new();
        let mut consumer = consumer_load::Replay::default();
        let mut offsets: Map<String, Map<TopicPartition, CommittedOffset>> = Map::new();
        for r in latest {
            match &r.body {
                RecordBody::GroupMetadata(m) => {
                    metadata.insert(m.group_id.clone(), Some(m.clone()));
                    classic_at.insert(m.group_id.clone(), r.offset);
                }
                RecordBody::GroupTombstone { group_id } => {
                    metadata.insert(group_id.clone(), None);
                    classic_at.insert(group_id.clone(), r.offset);
                }
                RecordBody::OffsetCommit(o) => {
                    let group = match offsets.get_mut(o.group_id.as_str()) {
                        Some(g) => g,
                        None => offsets.entry(o.group_id.clone()).or_default(),
                    };
                    group.insert(
                        o.topic_partition.clone(),
                        CommittedOffset {
                            offset: o.committed_offset,
                            leader_epoch: o.committed_leader_epoch,
                            metadata: o.metadata.clone(),
                            commit_timestamp: o.commit_timestamp,
                            expire_timestamp: o.expire_timestamp,
                        },
                    );
                }
                RecordBody::OffsetTombstone { .. } => {}
                RecordBody::ConsumerGroupMetadata { .. }
                | RecordBody::ConsumerGroupMemberMetadata { .. }
                | RecordBody::ConsumerGroupTargetAssignmentMetadata { .. }
                | RecordBody::ConsumerGroupTargetAssignmentMember { .. }
                | RecordBody::ConsumerGroupCurrentMemberAssignment { .. } => {
                    consumer.replay(r);
                }
            }
        }
        self.io.logs.insert(
            partition,
            PartitionLog {
                status: PartitionStatus::Active,
                start: 0,
                records: Vec::new(),
            },
        );
        self.io.emit(EventKind::PartitionLoaded {
            partition,
            records: count,
        });

        let mut ids: Vec<String> = metadata
            .iter()
            .filter(|(_, m)| m.is_some())
            .map(|(id, _)| id.clone())
            .collect();
        ids.extend(
            offsets
                .iter()
                .filter(|(_, o)| !o.is_empty())
                .map(|(id, _)| id.clone()),
        );
        ids.extend(consumer.live_groups());
        sort(&mut ids);
        ids.dedup();
        for id in ids {
            let mut g = Group::new(id.clone(), partition, now);
            // A group id is one type or the other: the type whose metadata was written last wins.
            let consumer_at = consumer.metadata_offset(&id);
            if consumer_at.is_some_and(|c| classic_at.get(&id).is_none_or(|k| c > *k)) {
                metadata.remove(&id);
                let cg = consumer.restore(&id);
                self.io.emit(EventKind::ConsumerGroupLoaded {
                    group_id: id.clone(),
                    group_epoch: cg.group_epoch,
                    assignment_epoch: cg.assignment_epoch,
                    members: cg.members.len(),
                });
                // §8.7: fresh session timers, and revocation deadlines for members still revoking.
                for m in cg.members.values() {
                    super::consumer_heartbeat::schedule_member_session(&mut self.io, &id, m);
                    if m.current.state == super::consumer::MemberState::UnrevokedPartitions
                        && m.classic.is_none()
                    {
                        super::consumer_heartbeat::schedule_rebalance(&mut self.io, &id, m);
                    }
                }
                g.consumer = Some(Box::new(cg));
            }
            if let Some(Some(m)) = metadata.remove(&id) {
                restore(&mut g, m);
            }
            g.offsets = offsets.remove(&id).unwrap_or_default();
            self.io.emit(EventKind::GroupLoaded {
                group_id: id.clone(),
                state: g.state,
                generation_id: g.generation,
                members: g.members.len(),
                offsets: g.offsets.len(),
            });
            for member_id in g.member_ids_in_join_order() {
                heartbeat::reschedule(&g, &mut self.io, &member_id);
            }
            let max = self.io.config.group_max_size;
            if g.members.len() > max {
                let size = g.members.len();
                join::prepare_rebalance(&mut g, &mut self.io, Reason::OverCapacityOnLoad { size, max });
            }
            self.groups.insert(id, g);
        }
        let interval = self.io.config.offsets_retention_check_interval_ms;
        self.io.schedule(
            TimerKey::OffsetExpiration { partition },
            interval,
            TimerKind::OffsetExpirationCheck,
        );
    }

    /// This broker no longer leads `partition`. Its groups go Dead: parked JoinGroups (in
    /// PreparingRebalance) and parked SyncGroups (in CompletingRebalance or Stable) are answered
    /// `NOT_COORDINATOR`, so the clients rediscover the coordinator; the groups are dropped and later
    /// requests get `NOT_COORDINATOR`. Returns the partition's log for the next leader's
    /// [`Coordinator::load`] (empty if this broker did not lead it): what [`Coordinator::log`]
    /// held, so the whole log unless the partition was loaded with [`Coordinator::load_latest`].
    pub fn unload(&mut self, now: SimTime, partition: i32) -> Vec<Record> {
        self.unload_shared(now, partition)
            .into_iter()
            .map(Arc::unwrap_or_clone)
            .collect()
    }

    /// [`Coordinator::unload`], returning the log's shared records.
    pub fn unload_shared(&mut self, now: SimTime, partition: i32) -> Vec<Arc<Record>> {
        self.advance(now);
        if !self.io.logs.contains_key(&partition) {
            return Vec::new();
        }
        self.fail_waiting(partition);
        let Some(log) = self.io.logs.remove(&partition) else {
            return Vec::new();
        };
        let ids: Vec<String> = self
            .groups
            .iter()
            .filter(|(_, g)| g.partition == partition)
            .map(|(id, _)| id.clone())
            .collect();
        for id in ids {
            let g = self.groups.get_mut(&id).expect("listed");
            kill(
                g,
                &mut self.io,
                Reason::PartitionUnloaded,
                ErrorCode::NotCoordinator,
            );
            self.remove_group(&id);
        }
        self.io.cancel(TimerKey::OffsetExpiration { partition });
        self.io.emit(EventKind::PartitionUnloaded { partition });
        log.records
    }

    /// Puts a group in Dead while its partition stays here, and keeps it in memory until the next
    /// offset-expiration check drops it. Scala's coordinator has this window after a deletion or
    /// during an unload; the playground and the tests use it to show the Dead column of the
    /// reference's §3.9 matrix (every group request answers `COORDINATOR_NOT_AVAILABLE`). Parked
    /// requests are answered `COORDINATOR_NOT_AVAILABLE`.
    pub fn mark_group_dead(&mut self, now: SimTime, group_id: &str) {
        self.advance(now);
        if let Some(g) = self.groups.get_mut(group_id) {
            kill(
                g,
                &mut self.io,
                Reason::Forced,
                ErrorCode::CoordinatorNotAvailable,
            );
        }
    }

    /// Drops a group from memory, cancelling its timers.
    pub(crate) fn remove_group(&mut self, group_id: &str) {
        let Some(g) = self.groups.remove(group_id) else {
            return;
        };
        cancel_group_timers(&g, &mut self.io);
        self.io.emit(EventKind::GroupRemoved {
            group_id: group_id.to_owned(),
        });
    }
}

/// Kafka: `onUnloaded` for one group.
fn kill(g: &mut Group, io: &mut Io, reason: Reason, error: ErrorCode) {
    let prev = g.state;
    g.transition(io, GroupState::Dead, reason);
    for member_id in g.member_ids_in_join_order() {
        match prev {
            GroupState::PreparingRebalance => {
                if let Some(p) = g.take_join(&member_id) {
                    io.respond(
                        p,
                        Response::JoinGroup(JoinGroupResponse::error(error, member_id.clone())),
                    );
                }
            }
            GroupState::CompletingRebalance | GroupState::Stable => {
                if let Some(p) = g.members.get_mut(&member_id).and_then(|m| m.awaiting_sync.take()) {
                    io.respond(p, Response::SyncGroup(SyncGroupResponse::error(error)));
                }
            }
            GroupState::Empty | GroupState::Dead => {}
        }
    }
    cancel_group_timers(g, io);
}

fn cancel_group_timers(g: &Group, io: &mut Io) {
    io.cancel(TimerKey::Join {
        group_id: g.id.clone(),
    });
    io.cancel(TimerKey::Sync {
        group_id: g.id.clone(),
    });
    for member_id in g.members.keys().chain(g.pending_join.iter()) {
        io.cancel(TimerKey::Heartbeat {
            group_id: g.id.clone(),
            member_id: member_id.clone(),
        });
    }
    if let Some(cg) = &g.consumer {
        for member_id in cg.members.keys() {
            io.cancel(super::consumer_heartbeat::session_key(&g.id, member_id));
            io.cancel(super::consumer_heartbeat::rebalance_key(&g.id, member_id));
        }
    }
}

/// Replaying a consumer group's records (Kafka: the `replay` methods of `GroupMetadataManager` for
/// the `ConsumerGroup*` records).
mod consumer_load {
    use crate::collections::Map;

    use super::super::consumer::group::{ConsumerGroup, ConsumerMember};
    use super::super::consumer::Partitions;
    use super::super::records::{
        ConsumerCurrentAssignmentValue, ConsumerGroupMetadataValue, ConsumerMemberMetadataValue, Record,
        RecordBody,
    };

    #[derive(Default)]
    struct Member {
        metadata: Option<ConsumerMemberMetadataValue>,
        target: Option<Partitions>,
        current: Option<ConsumerCurrentAssignmentValue>,
    }

    #[derive(Default)]
    struct Group {
        /// The latest metadata record's offset and value.
        metadata: Option<(u64, Option<ConsumerGroupMetadataValue>)>,
        assignment_epoch: Option<i32>,
        assignment_timestamp_ms: Option<u64>,
        members: Map<String, Member>,
    }

    #[derive(Default)]
    pub(super) struct Replay {
        groups: Map<String, Group>,
    }

    impl Replay {
        /// One latest record of a consumer-group key.
        pub(super) fn replay(&mut self, r: &Record) {
            let g = self.groups.entry(r.body.group_id().to_owned()).or_default();
            match &r.body {
                RecordBody::ConsumerGroupMetadata { value, .. } => {
                    g.metadata = Some((r.offset, value.clone()))
                }
                RecordBody::ConsumerGroupTargetAssignmentMetadata {
                    assignment_epoch,
                    assignment_timestamp_ms,
                    ..
                } => {
                    g.assignment_epoch = *assignment_epoch;
                    g.assignment_timestamp_ms = *assignment_timestamp_ms;
                }
                RecordBody::ConsumerGroupMemberMetadata { member_id, value, .. } => {
                    g.members.entry(member_id.clone()).or_default().metadata = value.clone();
                }
                RecordBody::ConsumerGroupTargetAssignmentMember {
                    member_id,
                    partitions,
                    ..
                } => g.members.entry(member_id.clone()).or_default().target = partitions.clone(),
                RecordBody::ConsumerGroupCurrentMemberAssignment { member_id, value, .. } => {
                    g.members.entry(member_id.clone()).or_default().current = value.clone();
                }
                _ => {}
            }
        }

        /// The groups whose consumer metadata is live.
        pub(super) fn live_groups(&self) -> Vec<String> {
            self.groups
                .iter()
                .filter(|(_, g)| matches!(g.metadata, Some((_, Some(_)))))
                .map(|(id, _)| id.clone())
                .collect()
        }

        /// The offset of the group's live consumer metadata record.
        pub(super) fn metadata_offset(&self, group_id: &str) -> Option<u64> {
            match self.groups.get(group_id)?.metadata {
                Some((o, Some(_))) => Some(o),
                _ => None,
            }
        }

        /// The group as its records leave it: members with a live subscription record, their
        /// targets and current assignments, the partition epochs rebuilt from those.
        pub(super) fn restore(&mut self, group_id: &str) -> ConsumerGroup {
            let g = self.groups.remove(group_id).unwrap_or_default();
            let mut cg = ConsumerGroup::new();
            if let Some((_, Some(v))) = g.metadata {
                cg.group_epoch = v.epoch;
                cg.metadata_hash = v.metadata_hash;
                cg.next_member_seq = v.next_member_seq;
            }
            cg.assignment_epoch = g.assignment_epoch.unwrap_or(0);
            cg.assignment_timestamp_ms = g.assignment_timestamp_ms;
            cg.metadata_expired = true;
            for (id, r) in g.members {
                let Some(metadata) = r.metadata else { continue };
                let mut m = ConsumerMember::new(id);
                m.apply_metadata(metadata);
                m.target = r.target.unwrap_or_default();
                if let Some(c) = r.current {
                    m.apply_current(c);
                }
                // Records written by this coordinator never conflict; a conflicting one keeps the
                // owner already loaded (member id order).
                let _ = cg.partition_epochs.update_member(None, &m.current);
                cg.put(m);
            }
            cg.recount();
            cg
        }
    }
}

/// Rebuilds a group from its last metadata record (Kafka: `ClassicGroup.fromRecord`): Stable with
/// members, else Empty. Loaded members know only the selected protocol.
fn restore(g: &mut Group, m: GroupMetadataRecord) {
    g.generation = m.generation_id;
    g.protocol_type = m.protocol_type.clone();
    g.protocol_name = m.protocol_name.clone();
    g.state_timestamp = m.current_state_timestamp;
    g.next_member_seq = (m.next_member_seq / MEMBER_SEQ_BLOCK + 1) * MEMBER_SEQ_BLOCK;
    let protocol = m.protocol_name.clone().unwrap_or_default();
    for r in m.members {
        g.add_member(Member {
            id: r.member_id,
            instance_id: r.group_instance_id,
            client_id: r.client_id,
            client_host: r.client_host,
            rebalance_timeout_ms: r.rebalance_timeout_ms,
            session_timeout_ms: r.session_timeout_ms,
            protocol_type: m.protocol_type.clone().unwrap_or_default(),
            protocols: vec![JoinGroupProtocol {
                name: protocol.clone(),
                metadata: r.subscription,
            }],
            assignment: r.assignment,
            awaiting_join: None,
            awaiting_sync: None,
            is_new: false,
            join_seq: 0,
        });
    }
    g.protocol_type = m.protocol_type;
    g.leader = m
        .leader
        .filter(|l| g.members.contains_key(l))
        .or_else(|| g.earliest_member(|_| true));
    if !g.members.is_empty() {
        g.state = GroupState::Stable;
        g.previous_state = GroupState::Stable;
    }
    g.subscribed_topics = g.compute_subscribed_topics();
}
