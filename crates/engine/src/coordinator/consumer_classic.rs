//! The classic APIs (JoinGroup, SyncGroup, Heartbeat, LeaveGroup) served to a consumer group: the
//! classic-protocol members of a mixed group during an online migration (reference §10; Kafka 4.1
//! GMM `classicGroupJoinToConsumerGroup`, `classicGroupSyncToConsumerGroup`,
//! `classicGroupHeartbeatToConsumerGroup`, `classicGroupLeaveToConsumerGroup`).
//!
//! A classic member is a consumer-group member whose [`ClassicMemberMetadata`] is set. Its
//! generation is its member epoch. Its JoinGroup updates its subscription, bumps the group epoch if
//! that changed, computes the target when due and reconciles it against the partitions its
//! JoinGroup metadata says it owns; the response makes it a follower (no leader, no members), and
//! its SyncGroup returns its assigned partitions. A Heartbeat answers `REBALANCE_IN_PROGRESS` when
//! it must rejoin: its epoch is behind the group epoch, it must revoke, or partitions it waits for
//! are free.

use crate::protocol::{
    ConsumerAssignment, ErrorCode, HeartbeatRequest, JoinGroupRequest, JoinGroupResponse,
    LeaveGroupMemberResponse, LeaveGroupRequest, LeaveGroupResponse, Response, SyncGroupRequest,
    SyncGroupResponse,
};

use super::consumer::group::{flatten, ConsumerGroup, ConsumerMember};
use super::consumer::{MemberState, Partitions};
use super::consumer_heartbeat::{
    append_epoch, cancel_member_timers, classic_join_key, classic_sync_key, compute_target,
    may_compute_target, reconcile, schedule_member_session, state_event,
};
use super::event::{ConsumerFenceReason, EventKind};
use super::group::Parked;
use super::records::{ClassicMemberMetadata, RecordBody};
use super::timers::TimerKind;
use super::{Coordinator, Io};

/// Kafka: `validateConsumerGroupMember` then `throwIfMemberDoesNotUseClassicProtocol`.
fn classic_member<'a>(
    cg: &'a ConsumerGroup,
    member_id: &str,
    instance_id: Option<&str>,
) -> Result<&'a ConsumerMember, ErrorCode> {
    let m = match instance_id {
        None => cg.members.get(member_id).ok_or(ErrorCode::UnknownMemberId)?,
        Some(i) => {
            let id = cg.static_members.get(i).ok_or(ErrorCode::UnknownMemberId)?;
            if id != member_id {
                return Err(ErrorCode::FencedInstanceId);
            }
            &cg.members[id]
        }
    };
    if m.classic.is_none() {
        return Err(ErrorCode::UnknownMemberId);
    }
    Ok(m)
}

/// Kafka: `ConsumerGroup.supportsClassicProtocols` for the embedded consumer protocol: an empty
/// group takes any non-empty protocol list; otherwise one of the request's protocol names must be
/// supported by every classic-protocol member (trivially true when there is none).
fn supports_classic_protocols(cg: &ConsumerGroup, req: &JoinGroupRequest) -> bool {
    if req.protocols.is_empty() {
        return false;
    }
    if cg.members.is_empty() {
        return true;
    }
    req.protocols.iter().any(|p| {
        cg.members
            .values()
            .filter_map(|m| m.classic.as_ref())
            .all(|c| c.supported_protocols.iter().any(|q| q.name == p.name))
    })
}

/// A classic JoinGroup's `owned_partitions` (its first protocol's metadata; they all carry the
/// same subscription).
fn owned_from(req: &JoinGroupRequest) -> Partitions {
    let mut owned = Partitions::new();
    if let Some(p) = req.protocols.first() {
        for tp in &p.metadata.owned_partitions {
            owned.entry(tp.topic.clone()).or_default().insert(tp.partition);
        }
    }
    owned
}

/// Kafka: `scheduleConsumerGroupJoinTimeoutIfAbsent` — a classic member told to rejoin must do so
/// within its rebalance timeout, else it is fenced.
fn schedule_join_timeout_if_absent(io: &mut Io, group_id: &str, m: &ConsumerMember) {
    let key = classic_join_key(group_id, &m.id);
    if io.timers.get(&key).is_none() {
        io.schedule(
            key,
            m.rebalance_timeout_ms.max(0) as u64,
            TimerKind::ConsumerClassicJoinTimeout,
        );
    }
}

impl Coordinator {
    /// Whether `group_id` is a consumer group (its classic requests are served here).
    pub(crate) fn is_consumer_group(&self, group_id: &str) -> bool {
        self.groups.get(group_id).is_some_and(|g| g.consumer.is_some())
    }

    /// Kafka: `classicGroupJoinToConsumerGroup` (a non-empty consumer group).
    pub(crate) fn classic_join_to_consumer_group(&mut self, reply: Parked, req: &JoinGroupRequest) {
        let resp = self.classic_join_response(req);
        self.io.respond(reply, Response::JoinGroup(resp));
    }

    fn classic_join_response(&mut self, req: &JoinGroupRequest) -> JoinGroupResponse {
        let gid = req.group_id.clone();
        let partition = self.partition_for(&gid);
        let cfg = self.io.config.clone();
        let err = |e: ErrorCode| JoinGroupResponse::error(e, req.member_id.clone());
        // throwIfClassicMemberCannotJoinConsumerGroup.
        if cfg.group_consumer_migration_policy == super::MigrationPolicy::Disabled {
            return err(ErrorCode::InconsistentGroupProtocol);
        }
        let Some(cg) = self.groups.get_mut(&gid).and_then(|g| g.consumer.as_deref_mut()) else {
            return err(ErrorCode::UnknownMemberId);
        };
        let mut member_id = req.member_id.clone();
        let unknown = member_id.is_empty();
        if unknown {
            // Kafka: a UUID; here `<client id>-<n>`, as for the coordinator's other generated ids.
            let n = cg.next_member_seq;
            cg.next_member_seq += 1;
            let prefix = if req.client_id.is_empty() {
                "consumer"
            } else {
                &req.client_id
            };
            member_id = format!("{prefix}-{n}");
        }
        // throwIfConsumerGroupIsFull.
        if cg.members.len() >= cfg.group_consumer_max_size && !cg.members.contains_key(&member_id) {
            return err(ErrorCode::GroupMaxSizeReached);
        }
        // throwIfClassicProtocolIsNotSupported (`ConsumerGroup.supportsClassicProtocols`): the
        // embedded consumer protocol, and one protocol (assignor) name every classic member
        // supports. The name is only checked: the server assignor assigns, a custom assignor's
        // user data is dropped (SyncGroup returns none).
        if req.protocol_type != "consumer" || !supports_classic_protocols(cg, req) {
            return err(ErrorCode::InconsistentGroupProtocol);
        }
        if unknown && req.group_instance_id.is_none() && req.api_version >= 4 {
            return JoinGroupResponse::error(ErrorCode::MemberIdRequired, member_id);
        }
        // The member: existing (same id, or the static member of its instance id) or new.
        let mut downgrade = false;
        let existing = match &req.group_instance_id {
            None => cg.members.get(&member_id).cloned(),
            Some(i) => match cg.static_members.get(i).cloned() {
                Some(old) if old != member_id && !unknown => {
                    return err(ErrorCode::FencedInstanceId);
                }
                Some(old) => {
                    // A new instance of a static member (unknown id): it takes the old member's place,
                    // whatever protocol the old one used and whatever its epoch (Kafka:
                    // `getOrMaybeSubscribeStaticConsumerGroupMember`; the -2 rule binds only two
                    // consumer-protocol members). If the old one was the group's last
                    // consumer-protocol member, the group downgrades below
                    // (`validateOnlineDowngradeWithReplacedMember`, reference §10).
                    let m = cg.members[&old].clone();
                    if old != member_id {
                        downgrade = m.classic.is_none()
                            && cg.all_classic_except(&[old.as_str()])
                            && cfg.group_consumer_migration_policy.allows_downgrade()
                            && cg.members.len() <= cfg.group_max_size;
                        let _ = cg.take(&old);
                        super::consumer_heartbeat::tombstones(&mut self.io, &gid, partition, &old);
                        cancel_member_timers(&mut self.io, &gid, &old);
                        self.io.emit(EventKind::ConsumerStaticMemberReplaced {
                            group_id: gid.clone(),
                            instance_id: i.clone(),
                            old_member_id: old.clone(),
                            new_member_id: member_id.clone(),
                        });
                        let mut m = m;
                        m.id = member_id.clone();
                        m.current.member_epoch = 0;
                        m.current.previous_member_epoch = 0;
                        cg.partition_epochs
                            .update_member(None, &m.current)
                            .expect("the old member's partitions were just freed");
                        // Kafka's `replaceMember`: the new id's target and current records.
                        let _ = self.io.append(
                            partition,
                            RecordBody::ConsumerGroupTargetAssignmentMember {
                                group_id: gid.clone(),
                                member_id: m.id.clone(),
                                partitions: Some(m.target.clone()),
                            },
                        );
                        let _ = self.io.append(
                            partition,
                            RecordBody::ConsumerGroupCurrentMemberAssignment {
                                group_id: gid.clone(),
                                member_id: m.id.clone(),
                                value: Some(m.current_value()),
                            },
                        );
                        Some(m)
                    } else {
                        Some(m)
                    }
                }
                None => None,
            },
        };
        let is_new = existing.is_none();
        let mut member = existing.unwrap_or_else(|| ConsumerMember::new(member_id.clone()));
        if is_new {
            self.io.emit(EventKind::ConsumerMemberJoined {
                group_id: gid.clone(),
                member_id: member_id.clone(),
                instance_id: req.group_instance_id.clone(),
            });
        }
        let topics = &self.topics;
        let before = cg.state();
        let old_metadata = (!is_new).then(|| member.metadata_value());
        let old_topics = member.subscribed_topics(topics);
        let sub = req.protocols[0].metadata.topics.clone();
        let subscription_changed = {
            let mut before: Vec<&String> = member.subscribed_topic_names.iter().collect();
            let mut after: Vec<&String> = sub.iter().collect();
            before.sort();
            before.dedup();
            after.sort();
            after.dedup();
            before != after
        };
        member.instance_id = req.group_instance_id.clone();
        member.rebalance_timeout_ms = req.rebalance_timeout_ms;
        member.server_assignor = None;
        member.subscribed_topic_names = sub;
        member.subscribed_topic_regex = None; // no regex for classic members
        member.client_id = req.client_id.clone();
        member.client_host = req.client_host.clone();
        member.classic = Some(ClassicMemberMetadata {
            session_timeout_ms: req.session_timeout_ms,
            supported_protocols: req.protocols.clone(),
        });
        let metadata = member.metadata_value();
        let changed = old_metadata.as_ref() != Some(&metadata);
        if changed {
            let _ = self.io.append(
                partition,
                RecordBody::ConsumerGroupMemberMetadata {
                    group_id: gid.clone(),
                    member_id: member_id.clone(),
                    value: Some(metadata),
                },
            );
        }
        let mut bump = changed && member.subscribed_topics(topics) != old_topics;
        let assignor_before = cg.preferred_assignor();
        cg.put(member.clone());
        if cfg.kafka_version.assignor_change_bumps() && cg.preferred_assignor() != assignor_before {
            bump = true;
        }
        if bump || cg.metadata_expired {
            let hash = cg.compute_metadata_hash(topics);
            bump |= hash != cg.metadata_hash;
            cg.metadata_hash = hash;
            cg.metadata_expired = false;
        }
        if bump {
            cg.group_epoch += 1;
            append_epoch(cg, &mut self.io, &gid, partition);
        }
        if cg.group_epoch > cg.assignment_epoch && may_compute_target(cg, &self.io) {
            compute_target(cg, &mut self.io, topics, &gid, partition);
        }
        let owned = owned_from(req);
        reconcile(
            cg,
            &mut self.io,
            topics,
            &gid,
            partition,
            &member_id,
            Some(&owned),
        );
        let m = &cg.members[&member_id];
        // The join is answered: its join timeout goes, its session and sync timeouts start (unless
        // the group downgrades: the classic group's heartbeats take over).
        self.io.cancel(classic_join_key(&gid, &member_id));
        if !downgrade {
            schedule_member_session(&mut self.io, &gid, m);
            self.io.schedule(
                classic_sync_key(&gid, &member_id),
                req.rebalance_timeout_ms.max(0) as u64,
                TimerKind::ConsumerClassicSyncTimeout,
            );
        }
        let resp = JoinGroupResponse {
            error_code: ErrorCode::None,
            generation_id: m.current.member_epoch,
            protocol_type: Some("consumer".into()),
            protocol_name: Some(req.protocols[0].name.clone()),
            leader: String::new(),
            skip_assignment: false,
            member_id: member_id.clone(),
            members: Vec::new(),
        };
        state_event(cg, &mut self.io, &gid, before);
        if downgrade {
            // Kafka 4.x (`convertToClassicGroup` with a joining member): Stable at generation = the
            // group epoch, each member with its target; a rebalance only if the newcomer's
            // subscription differs from the member it replaced.
            let rebalance = subscription_changed.then(|| member_id.clone());
            self.convert_to_classic_group(&gid, &[], None, rebalance);
        }
        resp
    }

    /// Kafka: `classicGroupSyncToConsumerGroup`.
    pub(crate) fn classic_sync_to_consumer_group(&mut self, reply: Parked, req: &SyncGroupRequest) {
        let resp = self.classic_sync_response(req);
        self.io.respond(reply, Response::SyncGroup(resp));
    }

    fn classic_sync_response(&mut self, req: &SyncGroupRequest) -> SyncGroupResponse {
        let gid = &req.group_id;
        let Some(cg) = self.groups.get(gid).and_then(|g| g.consumer.as_deref()) else {
            return SyncGroupResponse::error(ErrorCode::UnknownMemberId);
        };
        let m = match classic_member(cg, &req.member_id, req.group_instance_id.as_deref()) {
            Ok(m) => m,
            Err(e) => return SyncGroupResponse::error(e),
        };
        if req.generation_id != m.current.member_epoch {
            return SyncGroupResponse::error(ErrorCode::IllegalGeneration);
        }
        // throwIfClassicProtocolUnmatched.
        let protocols = &m.classic.as_ref().expect("a classic member").supported_protocols;
        if req.protocol_type.as_deref().is_some_and(|t| t != "consumer")
            || req
                .protocol_name
                .as_deref()
                .is_some_and(|n| protocols.first().is_none_or(|p| p.name != n))
        {
            return SyncGroupResponse::error(ErrorCode::InconsistentGroupProtocol);
        }
        // throwIfRebalanceInProgress.
        if cg.group_epoch > m.current.member_epoch && m.current.state != MemberState::UnrevokedPartitions {
            let m = m.clone();
            schedule_join_timeout_if_absent(&mut self.io, gid, &m);
            return SyncGroupResponse::error(ErrorCode::RebalanceInProgress);
        }
        let m = m.clone();
        self.io.cancel(classic_sync_key(gid, &m.id));
        schedule_member_session(&mut self.io, gid, &m);
        SyncGroupResponse {
            error_code: ErrorCode::None,
            protocol_type: req.protocol_type.clone(),
            protocol_name: req.protocol_name.clone(),
            assignment: ConsumerAssignment {
                partitions: flatten(&m.current.assigned_partitions),
                user_data: Vec::new(),
            },
        }
    }

    /// Kafka: `classicGroupHeartbeatToConsumerGroup`.
    pub(crate) fn classic_heartbeat_to_consumer_group(&mut self, req: &HeartbeatRequest) -> ErrorCode {
        let gid = &req.group_id;
        let Some(cg) = self.groups.get(gid).and_then(|g| g.consumer.as_deref()) else {
            return ErrorCode::UnknownMemberId;
        };
        let m = match classic_member(cg, &req.member_id, req.group_instance_id.as_deref()) {
            Ok(m) => m,
            Err(e) => return e,
        };
        if req.generation_id != m.current.member_epoch {
            return ErrorCode::IllegalGeneration;
        }
        let rejoin = m.current.member_epoch < cg.group_epoch
            || m.current.state == MemberState::UnrevokedPartitions
            || (m.current.state == MemberState::UnreleasedPartitions && !cg.waiting_on_unreleased(m));
        let m = m.clone();
        schedule_member_session(&mut self.io, gid, &m);
        if rejoin {
            schedule_join_timeout_if_absent(&mut self.io, gid, &m);
            ErrorCode::RebalanceInProgress
        } else {
            ErrorCode::None
        }
    }

    /// Kafka: `classicGroupLeaveToConsumerGroup`: every valid member is fenced (or the group
    /// downgraded, if only classic members would remain).
    pub(crate) fn classic_leave_to_consumer_group(&mut self, req: &LeaveGroupRequest) -> LeaveGroupResponse {
        let gid = &req.group_id;
        let Some(cg) = self.groups.get(gid).and_then(|g| g.consumer.as_deref()) else {
            return LeaveGroupResponse {
                error_code: ErrorCode::UnknownMemberId,
                members: Vec::new(),
            };
        };
        let mut members = Vec::new();
        let mut leaving = Vec::new();
        for identity in &req.members {
            let found = match &identity.group_instance_id {
                None => cg.members.get(&identity.member_id).map(|m| Ok(m.id.clone())),
                Some(i) => cg.static_members.get(i).map(|id| {
                    if identity.member_id.is_empty() || *id == identity.member_id {
                        Ok(id.clone())
                    } else {
                        Err(ErrorCode::FencedInstanceId)
                    }
                }),
            };
            let code = match found {
                Some(Ok(id)) => {
                    if !leaving.contains(&id) {
                        leaving.push(id);
                    }
                    ErrorCode::None
                }
                Some(Err(e)) => e,
                None => ErrorCode::UnknownMemberId,
            };
            members.push(LeaveGroupMemberResponse {
                member_id: identity.member_id.clone(),
                group_instance_id: identity.group_instance_id.clone(),
                error_code: code,
            });
        }
        self.fence_or_downgrade(gid, &leaving, ConsumerFenceReason::Left);
        LeaveGroupResponse {
            error_code: ErrorCode::None,
            members,
        }
    }
}
