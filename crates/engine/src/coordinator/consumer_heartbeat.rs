//! ConsumerGroupHeartbeat (API 68, KIP-848): join, heartbeat, reconcile and leave in one API, and
//! the consumer-group timers (Kafka 4.1: `GroupMetadataManager.consumerGroupHeartbeat`,
//! `consumerGroupLeave`, `consumerGroupFenceMembers`, `scheduleConsumerGroupSessionTimeout`,
//! `scheduleConsumerGroupRebalanceTimeout`; reference §4–§6).
//!
//! One heartbeat is one atomic write in Kafka: every check that can fail runs before anything is
//! changed or appended, so an error response leaves the group as it was.

use crate::collections::Map;

use crate::assignor::server::{self, MemberSpec, ServerAssignor};
use crate::protocol::{
    ConsumerGroupHeartbeatAssignment, ConsumerGroupHeartbeatRequest, ConsumerGroupHeartbeatResponse,
    ConsumerGroupHeartbeatTopicPartitions, ErrorCode, GroupState, Response, TopicId, JOIN_GROUP_MEMBER_EPOCH,
    LEAVE_GROUP_STATIC_MEMBER_EPOCH,
};
use crate::topic::Pattern;

use super::consumer::group::{flatten, ConsumerGroup, ConsumerMember};
use super::consumer::{CurrentAssignmentBuilder, MemberState, Partitions};
use super::event::{ConsumerFenceReason, EventKind, ScriptUse};
use super::group::{Group, Parked};
use super::records::{ConsumerGroupMetadataValue, RecordBody};
use super::timers::{TimerKey, TimerKind};
use super::{Coordinator, Io};

type Refusal = (ErrorCode, String);

/// `GroupCoordinatorService.throwIfConsumerGroupHeartbeatRequestIsInvalid` (reference §4.3), plus
/// the regex check GMM makes (`INVALID_REGULAR_EXPRESSION`).
pub(crate) fn validate(req: &ConsumerGroupHeartbeatRequest) -> Result<(), Refusal> {
    let invalid = |m: &str| Err((ErrorCode::InvalidRequest, m.to_string()));
    let epoch = req.member_epoch;
    if req.member_id.is_empty() && (req.api_version >= 1 || epoch > 0 || epoch == -1) {
        return invalid("MemberId can't be empty.");
    }
    if req.group_id.is_empty() {
        return invalid("GroupId can't be empty.");
    }
    if req.instance_id.as_deref() == Some("") {
        return invalid("InstanceId can't be empty.");
    }
    if req.rack_id.as_deref() == Some("") {
        return invalid("RackId can't be empty.");
    }
    if epoch == JOIN_GROUP_MEMBER_EPOCH {
        if req.rebalance_timeout_ms == -1 {
            return invalid("RebalanceTimeoutMs must be provided in first request.");
        }
        if req.topic_partitions.as_ref().is_none_or(|t| !t.is_empty()) {
            return invalid("TopicPartitions must be empty when (re-)joining.");
        }
        if req.subscribed_topic_names.is_none() && req.subscribed_topic_regex.is_none() {
            return invalid(
                "Either SubscribedTopicNames or SubscribedTopicRegex must be non-null when (re-)joining.",
            );
        }
    } else if epoch == LEAVE_GROUP_STATIC_MEMBER_EPOCH && req.instance_id.is_none() {
        return invalid("InstanceId can't be null.");
    } else if epoch < LEAVE_GROUP_STATIC_MEMBER_EPOCH {
        return invalid("MemberEpoch is invalid.");
    }
    if let Some(a) = &req.server_assignor {
        if let Err(e) = a.parse::<ServerAssignor>() {
            return Err((ErrorCode::UnsupportedAssignor, e.to_string()));
        }
    }
    if let Some(r) = req.subscribed_topic_regex.as_deref().filter(|r| !r.is_empty()) {
        if let Err(e) = Pattern::new(r) {
            return Err((
                ErrorCode::InvalidRegularExpression,
                format!("SubscribedTopicRegex `{r}` is not a valid regular expression: {e}."),
            ));
        }
    }
    Ok(())
}

/// The heartbeat's `TopicPartitions` by topic name (the playground's topic ids are the names).
/// Every listed topic is kept, even with no partitions: the UNKNOWN rule asks for an empty *list*.
pub(crate) fn owned_partitions(req: &ConsumerGroupHeartbeatRequest) -> Option<Partitions> {
    req.topic_partitions.as_ref().map(|ts| {
        let mut owned = Partitions::new();
        for t in ts {
            owned
                .entry(t.topic_id.0.clone())
                .or_default()
                .extend(t.partitions.iter().copied());
        }
        owned
    })
}

/// Partitions in the heartbeat response's shape.
pub(crate) fn wire_partitions(p: &Partitions) -> Vec<ConsumerGroupHeartbeatTopicPartitions> {
    p.iter()
        .filter(|(_, ps)| !ps.is_empty())
        .map(|(t, ps)| ConsumerGroupHeartbeatTopicPartitions {
            topic_id: TopicId(t.clone()),
            partitions: ps.iter().copied().collect(),
        })
        .collect()
}

fn is_subset(owned: &Partitions, assigned: &Partitions) -> bool {
    owned
        .iter()
        .all(|(t, ps)| ps.is_empty() || assigned.get(t).is_some_and(|a| ps.is_subset(a)))
}

/// `throwIfConsumerGroupMemberEpochIsInvalid` (reference §4.4). With `rejoin_ok` (4.3+,
/// KAFKA-19233) a rejoin with epoch 0 passes whatever the known epoch.
fn check_epoch(
    m: &ConsumerMember,
    received: i32,
    owned: Option<&Partitions>,
    rejoin_ok: bool,
) -> Result<(), Refusal> {
    if rejoin_ok && received == JOIN_GROUP_MEMBER_EPOCH {
        return Ok(());
    }
    let known = m.current.member_epoch;
    if received > known {
        return Err((
            ErrorCode::FencedMemberEpoch,
            format!(
                "The consumer group member has a greater member epoch ({received}) than the one known by the \
                 group coordinator ({known}). The member must abandon all its partitions and rejoin."
            ),
        ));
    }
    if received < known {
        let retry = received == m.current.previous_member_epoch
            && owned.is_some_and(|o| is_subset(o, &m.current.assigned_partitions));
        if !retry {
            return Err((
                ErrorCode::FencedMemberEpoch,
                format!(
                    "The consumer group member has a smaller member epoch ({received}) than the one known by \
                     the group coordinator ({known}). The member must abandon all its partitions and rejoin."
                ),
            ));
        }
    }
    Ok(())
}

/// What the heartbeat works on once every check passed.
enum Who {
    /// A member not in the group yet.
    New(String),
    /// An existing member.
    Existing(String),
    /// A static member's new id replacing the old id (which left with -2, or is a classic member).
    Replace { old: String, new: String },
}

impl Coordinator {
    /// Kafka: `GroupCoordinatorService.consumerGroupHeartbeat`, then GMM `consumerGroupHeartbeat`.
    pub(crate) fn consumer_group_heartbeat(&mut self, reply: Parked, req: &ConsumerGroupHeartbeatRequest) {
        let resp = self.consumer_group_heartbeat_response(req);
        self.io.respond(reply, Response::ConsumerGroupHeartbeat(resp));
    }

    fn consumer_group_heartbeat_response(
        &mut self,
        req: &ConsumerGroupHeartbeatRequest,
    ) -> ConsumerGroupHeartbeatResponse {
        let err = |(code, msg): Refusal| ConsumerGroupHeartbeatResponse::error(code, msg);
        if !self.active {
            return err((
                ErrorCode::CoordinatorNotAvailable,
                "The coordinator is not available.".into(),
            ));
        }
        if let Err(r) = validate(req) {
            return err(r);
        }
        if let Some(e) = self.partition_error(&req.group_id) {
            return ConsumerGroupHeartbeatResponse::error(e, e.name());
        }
        let join = req.member_epoch == JOIN_GROUP_MEMBER_EPOCH;
        // 1. The group.
        let gid = &req.group_id;
        match self.groups.get(gid) {
            None if !req.is_leave() && join => {}
            None => {
                return err((
                    ErrorCode::GroupIdNotFound,
                    format!("Consumer group {gid} not found."),
                ))
            }
            Some(g) if g.consumer.is_some() => {}
            Some(g) if g.is(GroupState::Dead) => {
                return err((
                    ErrorCode::CoordinatorNotAvailable,
                    "The coordinator is not available.".into(),
                ))
            }
            Some(_) if !join || req.is_leave() => {
                return err((
                    ErrorCode::GroupIdNotFound,
                    format!("Group {gid} is not a consumer group."),
                ))
            }
            Some(g) if g.is(GroupState::Empty) && g.members.is_empty() && g.pending_join.is_empty() => {}
            Some(g) => {
                // The online upgrade (reference §10): refused, or the group converted first.
                if let Some(msg) = self.upgrade_refusal(g) {
                    return err((ErrorCode::GroupIdNotFound, msg));
                }
                // A group of exactly `group.consumer.max.size` passes `validateOnlineUpgrade`;
                // Kafka converts it (answering the parked JoinGroups and SyncGroups), then finds
                // the converted group full for the new member and rolls the conversion back.
                let max = self.io.config.group_consumer_max_size;
                if g.members.len() >= max && !g.members.contains_key(&req.member_id) {
                    self.answer_parked_rebalance_in_progress(gid);
                    return err((
                        ErrorCode::GroupMaxSizeReached,
                        format!("The consumer group has reached its maximum capacity of {max} members."),
                    ));
                }
                if let Err(r) = validate(req) {
                    return err(r);
                }
                // `ConsumerGroup.fromClassicGroup` throws when an assignment carries user data (a
                // custom assignor's, which the server assignors would lose); `convertToConsumerGroup`
                // has already answered the parked JoinGroups and SyncGroups by then.
                if let Some(msg) = self.custom_assignor_refusal(gid) {
                    self.answer_parked_rebalance_in_progress(gid);
                    return err((ErrorCode::GroupIdNotFound, msg));
                }
                self.convert_to_consumer_group(gid);
            }
        }
        let default_group;
        let cg: &ConsumerGroup = match self.groups.get(gid).and_then(|g| g.consumer.as_deref()) {
            Some(cg) => cg,
            None => {
                default_group = ConsumerGroup::created(self.io.config.kafka_version);
                &default_group
            }
        };
        if req.is_leave() {
            return self.consumer_group_leave(req);
        }
        let owned = owned_partitions(req);
        // 2. The maximum size.
        let max = self.io.config.group_consumer_max_size;
        // 4.3+ (§12 V11): an instance id already in the group is not a new member.
        let known_instance = self.io.config.kafka_version.static_member_skips_max_size()
            && req
                .instance_id
                .as_ref()
                .is_some_and(|i| cg.static_members.contains_key(i));
        if cg.members.len() >= max
            && !known_instance
            && (req.member_id.is_empty() || !cg.members.contains_key(&req.member_id))
        {
            return err((
                ErrorCode::GroupMaxSizeReached,
                format!("The consumer group has reached its maximum capacity of {max} members."),
            ));
        }
        // 3.-4. The member.
        let rejoin_ok = self.io.config.kafka_version.accepts_rejoin_at_epoch_zero();
        let member_id = req.member_id.clone();
        let who = match &req.instance_id {
            None => match cg.members.get(&member_id) {
                None if !join || member_id.is_empty() => {
                    if member_id.is_empty() {
                        Who::New(String::new())
                    } else {
                        return err((
                            ErrorCode::UnknownMemberId,
                            format!("Member {member_id} is not a member of group {gid}."),
                        ));
                    }
                }
                None => Who::New(member_id.clone()),
                Some(m) => {
                    if let Err(r) = check_epoch(m, req.member_epoch, owned.as_ref(), rejoin_ok) {
                        return err(r);
                    }
                    Who::Existing(member_id.clone())
                }
            },
            Some(instance) => match cg.static_members.get(instance) {
                None if join => Who::New(member_id.clone()),
                None => {
                    return err((
                        ErrorCode::UnknownMemberId,
                        format!("Instance id {instance} is unknown."),
                    ))
                }
                Some(old) if join => {
                    let m = &cg.members[old];
                    if *old == member_id {
                        // The same id rejoining: an ordinary epoch check.
                        if let Err(r) = check_epoch(m, req.member_epoch, owned.as_ref(), rejoin_ok) {
                            return err(r);
                        }
                        Who::Existing(member_id.clone())
                    } else if m.current.member_epoch != LEAVE_GROUP_STATIC_MEMBER_EPOCH && m.classic.is_none()
                    {
                        // Only two consumer-protocol members are bound by the -2 rule: a classic
                        // member is replaced whatever its epoch (reference §8.6, GMM L3031).
                        return err((
                            ErrorCode::UnreleasedInstanceId,
                            format!(
                                "Static member {member_id} with instance id {instance} cannot join the group because \
                                 the instance id is owned by {old} member."
                            ),
                        ));
                    } else {
                        Who::Replace {
                            old: old.clone(),
                            new: member_id.clone(),
                        }
                    }
                }
                Some(old) if *old != member_id => {
                    return err((
                        ErrorCode::FencedInstanceId,
                        format!(
                        "Static member {member_id} with instance id {instance} was fenced by member {old}."
                    ),
                    ))
                }
                Some(old) => {
                    if let Err(r) = check_epoch(&cg.members[old], req.member_epoch, owned.as_ref(), false) {
                        return err(r);
                    }
                    Who::Existing(member_id.clone())
                }
            },
        };
        // The UNKNOWN rule is the builder's only error: check it before anything changes.
        let reconciled_from = match &who {
            Who::Existing(id) => Some(&cg.members[id]),
            Who::Replace { old, .. } => Some(&cg.members[old]),
            Who::New(_) => None,
        };
        if reconciled_from.is_some_and(|m| m.current.state == MemberState::Unknown)
            && !owned.as_ref().is_some_and(Partitions::is_empty)
        {
            let e = super::consumer::UnknownMemberState;
            return err((e.error_code(), e.to_string()));
        }

        // Every check passed: from here on the heartbeat writes.
        let partition = self.partition_for(gid);
        let now = self.io.now;
        let g = match self.groups.get_mut(gid) {
            Some(g) => g,
            None => {
                self.io.emit(EventKind::GroupCreated {
                    group_id: gid.clone(),
                });
                self.groups
                    .entry(gid.clone())
                    .or_insert_with(|| Group::new(gid.clone(), partition, now))
            }
        };
        if g.consumer.is_none() {
            if g.generation > 0 || g.protocol_type.is_some() {
                // An empty classic group: tombstoned and replaced.
                let _ = self.io.append(
                    partition,
                    RecordBody::GroupTombstone {
                        group_id: gid.clone(),
                    },
                );
                self.io.emit(EventKind::GroupTypeConverted {
                    group_id: gid.clone(),
                    to_consumer: true,
                    members: 0,
                });
                let offsets = std::mem::take(&mut g.offsets);
                *g = Group::new(gid.clone(), partition, now);
                g.offsets = offsets;
            }
            g.consumer = Some(Box::new(ConsumerGroup::created(self.io.config.kafka_version)));
        }
        let cg = g.consumer.as_deref_mut().expect("a consumer group");
        heartbeat(cg, &mut self.io, &self.topics, gid, partition, req, owned, who)
    }

    /// Kafka: `consumerGroupLeave` (reference §5.1).
    fn consumer_group_leave(
        &mut self,
        req: &ConsumerGroupHeartbeatRequest,
    ) -> ConsumerGroupHeartbeatResponse {
        let err = |(code, msg): Refusal| ConsumerGroupHeartbeatResponse::error(code, msg);
        let gid = &req.group_id;
        let partition = self.partition_for(gid);
        let Some(cg) = self.groups.get_mut(gid).and_then(|g| g.consumer.as_deref_mut()) else {
            return err((
                ErrorCode::GroupIdNotFound,
                format!("Consumer group {gid} not found."),
            ));
        };
        let member_id = match &req.instance_id {
            None => {
                if !cg.members.contains_key(&req.member_id) {
                    return err((
                        ErrorCode::UnknownMemberId,
                        format!("Member {} is not a member of group {gid}.", req.member_id),
                    ));
                }
                req.member_id.clone()
            }
            Some(instance) => match cg.static_members.get(instance) {
                None => {
                    return err((
                        ErrorCode::UnknownMemberId,
                        format!("Instance id {instance} is unknown."),
                    ))
                }
                Some(id) if *id != req.member_id => {
                    return err((
                        ErrorCode::FencedInstanceId,
                        format!(
                            "Static member {} with instance id {instance} was fenced by member {id}.",
                            req.member_id
                        ),
                    ))
                }
                Some(id) => id.clone(),
            },
        };
        let before = cg.state();
        if req.member_epoch == LEAVE_GROUP_STATIC_MEMBER_EPOCH {
            let mut m = cg.members[&member_id].clone();
            let old = m.current.clone();
            m.current.member_epoch = LEAVE_GROUP_STATIC_MEMBER_EPOCH;
            m.current.partitions_pending_revocation = Partitions::new();
            if !m.assignment_epochs.is_empty() {
                m.update_assignment_epochs(&old, old.member_epoch);
            }
            cg.partition_epochs
                .update_member(Some(&old), &m.current)
                .expect("a static leave frees partitions only");
            let _ = self.io.append(
                partition,
                RecordBody::ConsumerGroupCurrentMemberAssignment {
                    group_id: gid.clone(),
                    member_id: member_id.clone(),
                    value: Some(m.current_value()),
                },
            );
            self.io.emit(EventKind::ConsumerStaticMemberLeft {
                group_id: gid.clone(),
                member_id: member_id.clone(),
                instance_id: m.instance_id.clone().unwrap_or_default(),
            });
            cg.put(m);
            state_event(cg, &mut self.io, gid, before);
        } else {
            self.fence_or_downgrade(gid, std::slice::from_ref(&member_id), ConsumerFenceReason::Left);
        }
        ConsumerGroupHeartbeatResponse {
            error_code: ErrorCode::None,
            error_message: None,
            member_id: Some(req.member_id.clone()),
            member_epoch: req.member_epoch,
            heartbeat_interval_ms: 0,
            assignment: None,
        }
    }

    /// A consumer member's session timer fired.
    pub(crate) fn expire_consumer_session(&mut self, group_id: &str, member_id: &str) {
        let Some(cg) = self
            .groups
            .get_mut(group_id)
            .and_then(|g| g.consumer.as_deref_mut())
        else {
            return;
        };
        if cg.members.contains_key(member_id) {
            self.fence_or_downgrade(
                group_id,
                &[member_id.to_owned()],
                ConsumerFenceReason::SessionExpired,
            );
        }
    }

    /// A consumer member's rebalance (revocation) timer fired: it is fenced if still at the epoch it
    /// had when the timer was set.
    pub(crate) fn expire_consumer_rebalance(&mut self, group_id: &str, member_id: &str, member_epoch: i32) {
        let Some(cg) = self
            .groups
            .get_mut(group_id)
            .and_then(|g| g.consumer.as_deref_mut())
        else {
            return;
        };
        let Some(m) = cg.members.get(member_id) else {
            return;
        };
        if m.current.member_epoch != member_epoch {
            return; // "Ignoring rebalance timeout ..." (debug in Kafka)
        }
        let reason = ConsumerFenceReason::RebalanceTimeout {
            member_epoch,
            timeout_ms: m.rebalance_timeout_ms,
        };
        self.fence_or_downgrade(group_id, &[member_id.to_owned()], reason);
    }
}

pub(crate) fn session_key(group_id: &str, member_id: &str) -> TimerKey {
    TimerKey::ConsumerSession {
        group_id: group_id.to_owned(),
        member_id: member_id.to_owned(),
    }
}

pub(crate) fn rebalance_key(group_id: &str, member_id: &str) -> TimerKey {
    TimerKey::ConsumerRebalance {
        group_id: group_id.to_owned(),
        member_id: member_id.to_owned(),
    }
}

pub(crate) fn classic_join_key(group_id: &str, member_id: &str) -> TimerKey {
    TimerKey::ConsumerClassicJoin {
        group_id: group_id.to_owned(),
        member_id: member_id.to_owned(),
    }
}

pub(crate) fn classic_sync_key(group_id: &str, member_id: &str) -> TimerKey {
    TimerKey::ConsumerClassicSync {
        group_id: group_id.to_owned(),
        member_id: member_id.to_owned(),
    }
}

/// Cancels every timer of a consumer-group member: session, revocation deadline, and a classic
/// member's join and sync timeouts.
pub(crate) fn cancel_member_timers(io: &mut Io, group_id: &str, member_id: &str) {
    io.cancel(session_key(group_id, member_id));
    io.cancel(rebalance_key(group_id, member_id));
    io.cancel(classic_join_key(group_id, member_id));
    io.cancel(classic_sync_key(group_id, member_id));
}

pub(crate) fn schedule_session(io: &mut Io, group_id: &str, member_id: &str) {
    let ms = io.config.group_consumer_session_timeout_ms;
    io.schedule(session_key(group_id, member_id), ms, TimerKind::ConsumerSession);
}

/// The session timer of a member: a classic-protocol member's own session timeout (reference §10),
/// else `group.consumer.session.timeout.ms`.
pub(crate) fn schedule_member_session(io: &mut Io, group_id: &str, m: &ConsumerMember) {
    match &m.classic {
        Some(c) => io.schedule(
            session_key(group_id, &m.id),
            c.session_timeout_ms.max(0) as u64,
            TimerKind::ConsumerSession,
        ),
        None => schedule_session(io, group_id, &m.id),
    }
}

pub(crate) fn schedule_rebalance(io: &mut Io, group_id: &str, m: &ConsumerMember) {
    io.schedule(
        rebalance_key(group_id, &m.id),
        m.rebalance_timeout_ms.max(0) as u64,
        TimerKind::ConsumerRebalanceTimeout {
            member_epoch: m.current.member_epoch,
        },
    );
}

pub(crate) fn state_event(
    cg: &ConsumerGroup,
    io: &mut Io,
    group_id: &str,
    before: super::consumer::ConsumerGroupState,
) {
    let after = cg.state();
    if after != before {
        io.emit(EventKind::ConsumerGroupStateChanged {
            group_id: group_id.to_owned(),
            from: before,
            to: after,
        });
    }
}

pub(crate) fn tombstones(io: &mut Io, group_id: &str, partition: i32, member_id: &str) {
    let (g, m) = (group_id.to_owned(), member_id.to_owned());
    let _ = io.append(
        partition,
        RecordBody::ConsumerGroupCurrentMemberAssignment {
            group_id: g.clone(),
            member_id: m.clone(),
            value: None,
        },
    );
    let _ = io.append(
        partition,
        RecordBody::ConsumerGroupTargetAssignmentMember {
            group_id: g.clone(),
            member_id: m.clone(),
            partitions: None,
        },
    );
    let _ = io.append(
        partition,
        RecordBody::ConsumerGroupMemberMetadata {
            group_id: g,
            member_id: m,
            value: None,
        },
    );
}

pub(crate) fn append_epoch(cg: &ConsumerGroup, io: &mut Io, group_id: &str, partition: i32) {
    let _ = io.append(
        partition,
        RecordBody::ConsumerGroupMetadata {
            group_id: group_id.to_owned(),
            value: Some(ConsumerGroupMetadataValue {
                epoch: cg.group_epoch,
                metadata_hash: cg.metadata_hash,
                next_member_seq: cg.next_member_seq,
            }),
        },
    );
    io.emit(EventKind::ConsumerGroupEpochBumped {
        group_id: group_id.to_owned(),
        epoch: cg.group_epoch,
    });
}

/// Kafka: `consumerGroupFenceMembers` — every member's tombstones, then **one** group-epoch bump
/// for them all (a batch LeaveGroup), then their timers cancelled.
pub(crate) fn fence_all(
    cg: &mut ConsumerGroup,
    io: &mut Io,
    topics: &Map<String, i32>,
    group_id: &str,
    partition: i32,
    member_ids: &[&str],
    reason: ConsumerFenceReason,
) {
    let mut fenced = Vec::new();
    for id in member_ids {
        if cg.take(id).is_some() {
            tombstones(io, group_id, partition, id);
            fenced.push(*id);
        }
    }
    if fenced.is_empty() {
        return;
    }
    cg.group_epoch += 1;
    cg.metadata_hash = cg.compute_metadata_hash(topics);
    append_epoch(cg, io, group_id, partition);
    // The target epoch did not move, so reconciled members stay reconciled.
    for id in fenced {
        cancel_member_timers(io, group_id, id);
        io.emit(EventKind::ConsumerMemberFenced {
            group_id: group_id.to_owned(),
            member_id: id.to_owned(),
            reason,
        });
    }
}

/// GMM `consumerGroupHeartbeat` steps 3–11 for a heartbeat that passed every check.
#[allow(clippy::too_many_arguments)]
fn heartbeat(
    cg: &mut ConsumerGroup,
    io: &mut Io,
    topics: &Map<String, i32>,
    group_id: &str,
    partition: i32,
    req: &ConsumerGroupHeartbeatRequest,
    owned: Option<Partitions>,
    who: Who,
) -> ConsumerGroupHeartbeatResponse {
    let before = cg.state();
    let append = |io: &mut Io, body: RecordBody| {
        let _ = io.append(partition, body);
    };
    // 3. A v0 join without a member id gets one (Kafka: a UUID; here `<client id>-<n>`).
    let (mut member, is_new) = match who {
        Who::New(id) => {
            let id = if id.is_empty() {
                let n = cg.next_member_seq;
                cg.next_member_seq += 1;
                let prefix = if req.client_id.is_empty() {
                    "consumer"
                } else {
                    &req.client_id
                };
                format!("{prefix}-{n}")
            } else {
                id
            };
            (ConsumerMember::new(id), true)
        }
        Who::Existing(id) => (cg.members[&id].clone(), false),
        Who::Replace { old, new } => {
            // Kafka: `replaceMember` — the old member's state under the new id, at epoch 0.
            let mut m = cg.take(&old).expect("checked");
            tombstones(io, group_id, partition, &old);
            cancel_member_timers(io, group_id, &old);
            io.emit(EventKind::ConsumerStaticMemberReplaced {
                group_id: group_id.to_owned(),
                instance_id: m.instance_id.clone().unwrap_or_default(),
                old_member_id: old.clone(),
                new_member_id: new.clone(),
            });
            m.id = new;
            m.current.member_epoch = 0;
            m.current.previous_member_epoch = 0;
            cg.partition_epochs
                .update_member(None, &m.current)
                .expect("the old member's partitions were just freed");
            append(
                io,
                RecordBody::ConsumerGroupMemberMetadata {
                    group_id: group_id.to_owned(),
                    member_id: m.id.clone(),
                    value: Some(m.metadata_value()),
                },
            );
            append(
                io,
                RecordBody::ConsumerGroupTargetAssignmentMember {
                    group_id: group_id.to_owned(),
                    member_id: m.id.clone(),
                    partitions: Some(m.target.clone()),
                },
            );
            append(
                io,
                RecordBody::ConsumerGroupCurrentMemberAssignment {
                    group_id: group_id.to_owned(),
                    member_id: m.id.clone(),
                    value: Some(m.current_value()),
                },
            );
            cg.put(m.clone());
            (m, false)
        }
    };
    if is_new {
        io.emit(EventKind::ConsumerMemberJoined {
            group_id: group_id.to_owned(),
            member_id: member.id.clone(),
            instance_id: req.instance_id.clone(),
        });
    }
    // 5. Apply the request's fields.
    let old_metadata = (!is_new).then(|| member.metadata_value());
    let old_topics = member.subscribed_topics(topics);
    let old_assignor = member.server_assignor.clone();
    if let Some(i) = &req.instance_id {
        member.instance_id = Some(i.clone());
    }
    if let Some(r) = &req.rack_id {
        member.rack_id = Some(r.clone());
    }
    if req.rebalance_timeout_ms != -1 {
        member.rebalance_timeout_ms = req.rebalance_timeout_ms;
    }
    if let Some(t) = &req.subscribed_topic_names {
        member.subscribed_topic_names = t.clone();
    }
    if let Some(r) = &req.subscribed_topic_regex {
        member.subscribed_topic_regex = (!r.is_empty()).then(|| r.clone());
    }
    if let Some(a) = &req.server_assignor {
        member.server_assignor = Some(a.clone());
    }
    member.client_id = req.client_id.clone();
    member.client_host = req.client_host.clone();
    member.classic = None;
    let metadata = member.metadata_value();
    let changed = old_metadata.as_ref() != Some(&metadata);
    if changed {
        append(
            io,
            RecordBody::ConsumerGroupMemberMetadata {
                group_id: group_id.to_owned(),
                member_id: member.id.clone(),
                value: Some(metadata),
            },
        );
    }
    // 6. Whether to bump: a brand-new group (4.0–4.1, §12 V3), a changed subscription, or (4.4+,
    // §12 V12) a change of the group's preferred assignor.
    let version = io.config.kafka_version;
    let subscription_changed = if version.bumps_new_group() {
        is_new || member.subscribed_topics(topics) != old_topics
    } else {
        member.subscribed_topics(topics) != old_topics
    };
    let mut bump = (version.bumps_new_group() && cg.group_epoch == 0) || (changed && subscription_changed);
    // The preferred assignor (a pass over every member) can only move if this member is new or
    // changed its assignor: computed then only.
    let assignor_before = (version.assignor_change_bumps()
        && (is_new || old_assignor != member.server_assignor))
        .then(|| cg.preferred_assignor());
    cg.put(member.clone());
    if assignor_before.is_some_and(|before| cg.preferred_assignor() != before) {
        bump = true;
    }
    // 7. The metadata hash.
    if bump || cg.metadata_expired {
        let hash = cg.compute_metadata_hash(topics);
        bump |= hash != cg.metadata_hash;
        cg.metadata_hash = hash;
        cg.metadata_expired = false;
    }
    if bump {
        cg.group_epoch += 1;
        append_epoch(cg, io, group_id, partition);
    }
    // 8. The target: at once up to 4.2; from 4.3 (§12 V9, §7.4) only if none was computed yet, the
    // interval is 0 or it has passed since the last computation (no timer: a later heartbeat
    // computes it).
    if cg.group_epoch > cg.assignment_epoch && may_compute_target(cg, io) {
        compute_target(cg, io, topics, group_id, partition);
    }
    // 9. Reconcile the sender only.
    let assignment_changed = reconcile(cg, io, topics, group_id, partition, &member.id, owned.as_ref());
    // 10. The session.
    let m = &cg.members[&member.id];
    schedule_session(io, group_id, &m.id);
    state_event(cg, io, group_id, before);
    // 11. The response.
    let m = &cg.members[&member.id];
    let full = req.member_epoch == JOIN_GROUP_MEMBER_EPOCH || req.is_full() || assignment_changed;
    ConsumerGroupHeartbeatResponse {
        error_code: ErrorCode::None,
        error_message: None,
        member_id: Some(m.id.clone()),
        member_epoch: m.current.member_epoch,
        heartbeat_interval_ms: io.config.group_consumer_heartbeat_interval_ms,
        assignment: full.then(|| ConsumerGroupHeartbeatAssignment {
            topic_partitions: wire_partitions(&m.current.assigned_partitions),
        }),
    }
}

/// Kafka: `maybeReconcile` for one member (`CurrentAssignmentBuilder`, checked by the partition
/// epochs): writes its current-assignment record if it moved and keeps its revocation deadline in
/// step (§3.3; consumer-protocol members only). Returns whether its assigned partitions changed.
pub(crate) fn reconcile(
    cg: &mut ConsumerGroup,
    io: &mut Io,
    topics: &Map<String, i32>,
    group_id: &str,
    partition: i32,
    member_id: &str,
    owned: Option<&Partitions>,
) -> bool {
    let m = &cg.members[member_id];
    let epochs = &cg.partition_epochs;
    let subscribed = m.subscribed_topics(topics);
    let next = CurrentAssignmentBuilder {
        member: &m.current,
        target_epoch: cg.assignment_epoch,
        target: &m.target,
        partition_epoch: &|t, p| epochs.epoch(t, p),
        owned,
        version: io.config.kafka_version,
        subscribed_topics: Some(&subscribed),
    }
    .build()
    .expect("the UNKNOWN state was checked before any write");
    if next == m.current {
        return false;
    }
    let mut m = m.clone();
    let assignment_changed = next.assigned_partitions != m.current.assigned_partitions;
    cg.partition_epochs
        .update_member(Some(&m.current), &next)
        .unwrap_or_else(|c| panic!("coordinator bug, the single-owner invariant would break: {c}"));
    let old = std::mem::replace(&mut m.current, next);
    if io.config.kafka_version.per_partition_assignment_epochs() {
        m.update_assignment_epochs(&old, cg.assignment_epoch);
    }
    let _ = io.append(
        partition,
        RecordBody::ConsumerGroupCurrentMemberAssignment {
            group_id: group_id.to_owned(),
            member_id: m.id.clone(),
            value: Some(m.current_value()),
        },
    );
    io.emit(EventKind::ConsumerMemberReconciled {
        group_id: group_id.to_owned(),
        member_id: m.id.clone(),
        state: m.current.state,
        member_epoch: m.current.member_epoch,
        assigned: flatten(&m.current.assigned_partitions),
        pending_revocation: flatten(&m.current.partitions_pending_revocation),
    });
    // §3.3: the revocation deadline follows the member's state (classic members have join and
    // sync timeouts instead).
    if m.current.state == MemberState::UnrevokedPartitions && m.classic.is_none() {
        schedule_rebalance(io, group_id, &m);
    } else {
        io.cancel(rebalance_key(group_id, &m.id));
    }
    cg.put(m);
    assignment_changed
}

/// Kafka: `updateTargetAssignment` with `TargetAssignmentBuilder` (reference §7): every member's
/// previous target is the stickiness baseline; a record for each changed target, then the epoch.
pub(crate) fn compute_target(
    cg: &mut ConsumerGroup,
    io: &mut Io,
    topics: &Map<String, i32>,
    group_id: &str,
    partition: i32,
) {
    let assignor = cg.preferred_assignor();
    let script = &io.config.scripted_assignments;
    let scripted = if io.scripted_used < script.len() {
        // The next scripted result (Kafka's tests' MockPartitionAssignor): every member gets what
        // the entry names, or nothing.
        let entry = &script[io.scripted_used];
        io.scripted_used += 1;
        let targets: Map<String, Partitions> = cg
            .members
            .keys()
            .map(|id| {
                (
                    id.clone(),
                    entry
                        .get(id)
                        .cloned()
                        .map(super::consumer::normalized)
                        .unwrap_or_default(),
                )
            })
            .collect();
        Some((
            targets,
            ScriptUse::Used {
                entry: io.scripted_used,
                of: script.len(),
            },
        ))
    } else {
        None
    };
    let (targets, script_use) = match scripted {
        Some((t, u)) => (t, Some(u)),
        None => {
            let specs: Vec<MemberSpec> = cg
                .members
                .values()
                .map(|m| MemberSpec {
                    member_id: m.id.clone(),
                    instance_id: m.instance_id.clone(),
                    subscribed_topics: m.subscribed_topics(topics),
                    target: m.target.clone(),
                })
                .collect();
            // The first computation after the script ran out says so.
            let ran_out = !script.is_empty() && io.scripted_used == script.len();
            if ran_out {
                io.scripted_used += 1;
            }
            let t = server::assign(assignor, topics, &specs);
            (t, ran_out.then_some(ScriptUse::RanOut { after: script.len() }))
        }
    };
    for (id, target) in &targets {
        let Some(m) = cg.members.get_mut(id) else { continue };
        if m.target != *target {
            m.target = target.clone();
            let _ = io.append(
                partition,
                RecordBody::ConsumerGroupTargetAssignmentMember {
                    group_id: group_id.to_owned(),
                    member_id: id.clone(),
                    partitions: Some(target.clone()),
                },
            );
        }
    }
    cg.assignment_epoch = cg.group_epoch;
    let now_ms = io.now.as_millis();
    cg.assignment_timestamp_ms = Some(now_ms);
    cg.recount();
    let _ = io.append(
        partition,
        RecordBody::ConsumerGroupTargetAssignmentMetadata {
            group_id: group_id.to_owned(),
            assignment_epoch: Some(cg.assignment_epoch),
            assignment_timestamp_ms: io.config.kafka_version.batches_assignments().then_some(now_ms),
        },
    );
    io.emit(EventKind::ConsumerTargetAssignmentComputed {
        group_id: group_id.to_owned(),
        assignment_epoch: cg.assignment_epoch,
        assignor: match script_use {
            Some(ScriptUse::Used { .. }) => "scripted".to_owned(),
            _ => assignor.name().to_owned(),
        },
        targets: targets.iter().map(|(id, t)| (id.clone(), flatten(t))).collect(),
        script: script_use,
    });
}

/// §7.4: whether a new target may be computed now (always up to 4.2).
pub(crate) fn may_compute_target(cg: &ConsumerGroup, io: &Io) -> bool {
    if !io.config.kafka_version.batches_assignments() {
        return true;
    }
    let interval = io.config.group_consumer_assignment_interval_ms;
    match cg.assignment_timestamp_ms {
        None => true,
        Some(_) if interval == 0 => true,
        Some(t) => io.now.as_millis() >= t.saturating_add(interval),
    }
}
