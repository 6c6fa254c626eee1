//! OffsetCommit, OffsetFetch and offset expiry (Kafka: `OffsetMetadataManager.commitOffset`,
//! `validateOffsetCommit`, `fetchOffsets`, `cleanupExpiredOffsets`; `ClassicGroup.validateOffsetCommit`,
//! `offsetExpirationCondition`).

use crate::protocol::{
    ErrorCode, GroupState, OffsetCommitPartitionResponse, OffsetCommitRequest, OffsetCommitResponse,
    OffsetFetchPartition, OffsetFetchRequest, OffsetFetchResponse, Response, TopicPartition,
    CONSUMER_PROTOCOL_TYPE,
};
use crate::time::SimTime;

use super::event::{EventKind, Reason};
use super::group::{CommittedOffset, Group, Parked};
use super::records::{OffsetCommitRecord, RecordBody};
use super::timers::{TimerKey, TimerKind};
use super::{heartbeat, Coordinator, Io, Waiter};

impl Coordinator {
    /// Kafka: `GroupCoordinatorService.commitOffsets`, then `OffsetMetadataManager.commitOffset`.
    /// The empty group id is accepted for backward compatibility.
    pub(crate) fn offset_commit(&mut self, reply: Parked, req: &OffsetCommitRequest) {
        let all = |e: ErrorCode| OffsetCommitResponse {
            partitions: req
                .partitions
                .iter()
                .map(|p| OffsetCommitPartitionResponse {
                    topic: p.topic.clone(),
                    partition: p.partition,
                    error_code: e,
                })
                .collect(),
        };
        if let Some(e) = self.partition_error(&req.group_id) {
            self.io.respond(reply, Response::OffsetCommit(all(e)));
            return;
        }
        if !self.groups.contains_key(&req.group_id) {
            if req.generation_id < 0 {
                // A "simple" group: offsets stored by a consumer that does not use group management.
                let partition = self.partition_for(&req.group_id);
                self.groups.insert(
                    req.group_id.clone(),
                    Group::new(req.group_id.clone(), partition, self.io.now),
                );
                self.io.emit(EventKind::GroupCreated {
                    group_id: req.group_id.clone(),
                });
            } else {
                let e = if req.api_version >= 9 {
                    ErrorCode::GroupIdNotFound
                } else {
                    ErrorCode::IllegalGeneration
                };
                self.io.respond(reply, Response::OffsetCommit(all(e)));
                return;
            }
        }
        let g = self.groups.get_mut(&req.group_id).expect("exists");
        if let Some(e) = validate_offset_commit(g, req, self.io.config.kafka_version) {
            self.io.respond(reply, Response::OffsetCommit(all(e)));
            return;
        }
        // In the classic protocol a commit keeps the session alive in Stable and PreparingRebalance.
        if g.is(GroupState::Stable) || g.is(GroupState::PreparingRebalance) {
            heartbeat::reschedule(g, &mut self.io, &req.member_id);
        }
        let now = self.io.now;
        let max = self.io.config.offset_metadata_max_bytes;
        let mut results = Vec::with_capacity(req.partitions.len());
        let mut accepted = Vec::with_capacity(req.partitions.len());
        let mut last_offset = None;
        for p in &req.partitions {
            let code = if p.committed_metadata.len() > max {
                ErrorCode::OffsetMetadataTooLarge
            } else {
                let tp = TopicPartition::new(p.topic.clone(), p.partition);
                let expire = req
                    .retention_time_ms
                    .filter(|ms| *ms >= 0)
                    .map(|ms| now + crate::time::SimDuration::from_millis(ms as u64));
                let offset = CommittedOffset {
                    offset: p.committed_offset,
                    leader_epoch: p.committed_leader_epoch,
                    metadata: p.committed_metadata.clone(),
                    commit_timestamp: now,
                    expire_timestamp: expire,
                };
                let record = OffsetCommitRecord {
                    group_id: g.id.clone(),
                    topic_partition: tp.clone(),
                    committed_offset: offset.offset,
                    committed_leader_epoch: offset.leader_epoch,
                    metadata: offset.metadata.clone(),
                    commit_timestamp: now,
                    expire_timestamp: expire,
                };
                match self.io.append(g.partition, RecordBody::OffsetCommit(record)) {
                    Ok(o) => {
                        // Visible (and answered) once the append completes.
                        accepted.push((results.len(), tp, offset));
                        last_offset = Some(o);
                        ErrorCode::None
                    }
                    Err(e) => e.append_error_to_response_error(),
                }
            };
            results.push(OffsetCommitPartitionResponse {
                topic: p.topic.clone(),
                partition: p.partition,
                error_code: code,
            });
        }
        let partition = g.partition;
        let waiter = Waiter::OffsetCommit {
            reply,
            group_id: g.id.clone(),
            results,
            accepted,
        };
        // The records of one commit are contiguous: the last one's completion covers them all.
        match last_offset {
            Some(o) => self.after_append(partition, Ok(o), waiter),
            None => self.complete(waiter, Ok(())),
        }
    }

    /// Kafka: `OffsetMetadataManager.fetchOffsets` / `fetchAllOffsets`. Offsets come back whatever
    /// the group's state; unknown partitions, unknown groups and Dead groups read as -1.
    pub(crate) fn offset_fetch(&mut self, reply: Parked, req: &OffsetFetchRequest) {
        let resp = match self.partition_error(&req.group_id) {
            Some(e) => OffsetFetchResponse {
                error_code: e,
                partitions: Vec::new(),
            },
            None => {
                let g = self.groups.get(&req.group_id).filter(|g| !g.is(GroupState::Dead));
                let one = |tp: &TopicPartition| {
                    let stored = g.and_then(|g| g.offsets.get(tp));
                    OffsetFetchPartition {
                        topic: tp.topic.clone(),
                        partition: tp.partition,
                        committed_offset: stored.map_or(-1, |o| o.offset),
                        committed_leader_epoch: stored.map_or(-1, |o| o.leader_epoch),
                        metadata: stored.map(|o| o.metadata.clone()).unwrap_or_default(),
                        error_code: ErrorCode::None,
                    }
                };
                let partitions = match &req.partitions {
                    Some(tps) => tps.iter().map(one).collect(),
                    None => g.map(|g| g.offsets.keys().map(one).collect()).unwrap_or_default(),
                };
                OffsetFetchResponse {
                    error_code: ErrorCode::None,
                    partitions,
                }
            }
        };
        self.io.respond(reply, Response::OffsetFetch(resp));
    }

    /// The periodic offset-expiration task of one partition (Kafka: `cleanupGroupMetadata`).
    pub(crate) fn expire_offsets(&mut self, partition: i32) {
        if !self.io.logs.contains_key(&partition) {
            return;
        }
        let interval = self.io.config.offsets_retention_check_interval_ms;
        self.io.schedule(
            TimerKey::OffsetExpiration { partition },
            interval,
            TimerKind::OffsetExpirationCheck,
        );
        let ids: Vec<String> = self
            .groups
            .iter()
            .filter(|(_, g)| g.partition == partition)
            .map(|(id, _)| id.clone())
            .collect();
        for id in ids {
            let g = self.groups.get_mut(&id).expect("listed");
            if g.is(GroupState::Dead) {
                // A group forced Dead is dropped from memory here, as Scala does after deletion.
                self.remove_group(&id);
                continue;
            }
            if let Some(cg) = &g.consumer {
                // A consumer group's offsets expire only once it is empty (Kafka also expires
                // those of topics no member subscribes to: not modelled).
                if !cg.members.is_empty() {
                    continue;
                }
                if cleanup_expired_offsets(g, &mut self.io) {
                    for body in [
                        RecordBody::ConsumerGroupTargetAssignmentMetadata {
                            group_id: id.clone(),
                            assignment_epoch: None,
                            assignment_timestamp_ms: None,
                        },
                        RecordBody::ConsumerGroupMetadata {
                            group_id: id.clone(),
                            value: None,
                        },
                    ] {
                        let _ = self.io.append(partition, body);
                    }
                    self.remove_group(&id);
                }
                continue;
            }
            let all_expired = cleanup_expired_offsets(g, &mut self.io);
            if all_expired && g.is(GroupState::Empty) {
                // No offsets and no members left: the group is deleted.
                g.transition(&mut self.io, GroupState::Dead, Reason::OffsetsExpired);
                let _ = self
                    .io
                    .append(partition, RecordBody::GroupTombstone { group_id: id.clone() });
                self.remove_group(&id);
            }
        }
    }
}

/// Kafka: `ClassicGroup.validateOffsetCommit` (non-transactional).
fn validate_offset_commit(
    g: &Group,
    req: &OffsetCommitRequest,
    version: super::KafkaRelease,
) -> Option<ErrorCode> {
    if let Some(cg) = &g.consumer {
        // Kafka: `ConsumerGroup.validateOffsetCommit` (reference §9), non-transactional.
        if req.generation_id < 0 && cg.members.is_empty() {
            return None;
        }
        let Some(m) = cg.members.get(&req.member_id) else {
            return Some(ErrorCode::UnknownMemberId);
        };
        if req.api_version < 9 && m.classic.is_none() {
            return Some(ErrorCode::UnsupportedVersion);
        }
        // A classic member of a mixed group gets the classic error (reference §9).
        let stale = if m.classic.is_some() {
            ErrorCode::IllegalGeneration
        } else {
            ErrorCode::StaleMemberEpoch
        };
        if req.generation_id > m.current.member_epoch
            || (req.generation_id < m.current.member_epoch && !version.per_partition_assignment_epochs())
        {
            return Some(stale);
        }
        if req.generation_id < m.current.member_epoch {
            // 4.3+ (KIP-1251, `createAssignmentEpochValidator`): an older epoch is accepted for a
            // partition the member has owned since that epoch; one partition failing fails all.
            let ok = req.partitions.iter().all(|p| {
                m.assignment_epoch(&p.topic, p.partition)
                    .is_some_and(|e| req.generation_id >= e)
            });
            if !ok {
                return Some(stale);
            }
        }
        return None;
    }
    if g.is(GroupState::Dead) {
        return Some(ErrorCode::CoordinatorNotAvailable);
    }
    if req.generation_id < 0 && g.is(GroupState::Empty) {
        // Admin tools and manual-assignment consumers commit without a generation.
        return None;
    }
    if req.generation_id >= 0 || !req.member_id.is_empty() || req.group_instance_id.is_some() {
        if let Some(e) = g.validate_member(&req.member_id, req.group_instance_id.as_deref()) {
            return Some(e);
        }
        if req.generation_id != g.generation {
            return Some(ErrorCode::IllegalGeneration);
        }
    } else if !g.is(GroupState::Empty) {
        return Some(ErrorCode::UnknownMemberId);
    }
    if g.is(GroupState::CompletingRebalance) {
        // The member has the new generation but no assignment yet: let it retry after SyncGroup.
        return Some(ErrorCode::RebalanceInProgress);
    }
    None
}

/// Kafka: `ClassicGroup.offsetExpirationCondition` — the timestamp retention counts from, per
/// offset, or `None` when nothing may expire in this state.
fn expiration_base(g: &Group) -> Option<fn(&Group, &CommittedOffset) -> SimTime> {
    match &g.protocol_type {
        Some(t) => {
            if g.is(GroupState::Empty) {
                // All offsets expire together, counted from when the group became Empty.
                Some(|g, _| g.state_timestamp)
            } else if t == CONSUMER_PROTOCOL_TYPE && g.subscribed_topics.is_some() && g.is(GroupState::Stable)
            {
                // Offsets of topics nobody subscribes to any more expire from their commit time.
                Some(|_, o| o.commit_timestamp)
            } else {
                None
            }
        }
        // A simple group: each offset expires from its own commit time.
        None => Some(|_, o| o.commit_timestamp),
    }
}

/// Kafka: `OffsetMetadataManager.cleanupExpiredOffsets`. Returns whether the group has no offsets
/// left.
fn cleanup_expired_offsets(g: &mut Group, io: &mut Io) -> bool {
    if g.offsets.is_empty() {
        return true;
    }
    let Some(base) = expiration_base(g) else {
        return false;
    };
    let now = io.now;
    let retention = io.config.offsets_retention_ms;
    let mut expired = Vec::new();
    let mut all = true;
    for (tp, o) in &g.offsets {
        let subscribed = g
            .subscribed_topics
            .as_ref()
            .is_some_and(|t| t.contains(&tp.topic));
        let is_expired = match o.expire_timestamp {
            Some(at) => now >= at,
            None => (now - base(g, o)).as_millis() >= retention,
        };
        if !subscribed && is_expired {
            expired.push(tp.clone());
        } else {
            all = false;
        }
    }
    for tp in &expired {
        g.offsets.remove(tp);
        let _ = io.append(
            g.partition,
            RecordBody::OffsetTombstone {
                group_id: g.id.clone(),
                topic_partition: tp.clone(),
            },
        );
    }
    if !expired.is_empty() {
        io.emit(EventKind::OffsetsExpired {
            group_id: g.id.clone(),
            partitions: expired,
        });
    }
    all
}
