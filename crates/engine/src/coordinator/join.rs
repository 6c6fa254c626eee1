//! JoinGroup, and the join phase it drives: preparing a rebalance, the initial delay, completing
//! the join phase (Kafka: `GroupMetadataManager.classicGroupJoin*`, `prepareRebalance`,
//! `completeClassicGroupJoin`, `tryCompleteInitialRebalanceElseSchedule`).

use crate::protocol::Api;
use crate::protocol::{
    ConsumerAssignment, ErrorCode, GroupState, JoinGroupRequest, JoinGroupResponse, Response,
    SyncGroupResponse,
};

use super::event::{EventKind, LeaderReason, Reason, RemovalReason};
use super::group::{Group, Member, Parked};
use super::records::{GroupMetadataRecord, RecordBody};
use super::timers::{TimerKey, TimerKind};
use super::{heartbeat, load, Coordinator, Io, Waiter};

impl Coordinator {
    /// Kafka: `GroupCoordinatorService.joinGroup`, then `classicGroupJoinToClassicGroup`.
    pub(crate) fn join_group(&mut self, reply: Parked, req: &JoinGroupRequest) {
        // The member keeps the request's protocols, so the join path works on its own copy.
        let req = req.clone();
        let cfg = &self.io.config;
        let error = if !self.active {
            Some(ErrorCode::CoordinatorNotAvailable)
        } else if req.group_id.is_empty() {
            Some(ErrorCode::InvalidGroupId)
        } else if req.session_timeout_ms < cfg.group_min_session_timeout_ms
            || req.session_timeout_ms > cfg.group_max_session_timeout_ms
        {
            Some(ErrorCode::InvalidSessionTimeout)
        } else {
            self.partition_error(&req.group_id)
        };
        if let Some(e) = error {
            self.io.respond(
                reply,
                Response::JoinGroup(JoinGroupResponse::error(e, req.member_id)),
            );
            return;
        }

        // A consumer group (KIP-848): an empty one becomes classic; a non-empty one takes the member
        // as a classic member of a mixed group (`consumer_classic.rs`).
        if let Some(g) = self.groups.get_mut(&req.group_id) {
            if let Some(cg) = &g.consumer {
                if !cg.members.is_empty() {
                    // A mixed group (reference §10): the classic member joins the consumer group,
                    // unless the migration policy is `disabled`.
                    self.classic_join_to_consumer_group(reply, &req);
                    return;
                }
                // "Converted the empty consumer group to a classic group."
                g.consumer = None;
                let partition = g.partition;
                for body in [
                    RecordBody::ConsumerGroupTargetAssignmentMetadata {
                        group_id: req.group_id.clone(),
                        assignment_epoch: None,
                        assignment_timestamp_ms: None,
                    },
                    RecordBody::ConsumerGroupMetadata {
                        group_id: req.group_id.clone(),
                        value: None,
                    },
                ] {
                    let _ = self.io.append(partition, body);
                }
                self.io.emit(EventKind::GroupTypeConverted {
                    group_id: req.group_id.clone(),
                    to_consumer: false,
                    members: 0,
                });
            }
        }
        // A new member may create the group; a known member id cannot (Kafka answers
        // UNKNOWN_MEMBER_ID without creating it).
        let mut created = false;
        if !self.groups.contains_key(&req.group_id) {
            if !req.member_id.is_empty() {
                let resp = JoinGroupResponse::error(ErrorCode::UnknownMemberId, req.member_id);
                self.io.respond(reply, Response::JoinGroup(resp));
                return;
            }
            let partition = self.partition_for(&req.group_id);
            self.groups.insert(
                req.group_id.clone(),
                Group::new(req.group_id.clone(), partition, self.io.now),
            );
            self.io.emit(EventKind::GroupCreated {
                group_id: req.group_id.clone(),
            });
            created = true;
        }
        let group_id = req.group_id.clone();
        let g = self.groups.get_mut(&group_id).expect("group exists");
        join(g, &mut self.io, reply, req);
        if created {
            // Kafka appends an empty group record for a newly created group so that it exists in the
            // log (classicGroupJoinToClassicGroup, "commit the group to the timeline").
            // Kafka: `newEmptyGroupMetadataRecord` — generation 0, no members, whatever the join did.
            let record = GroupMetadataRecord {
                group_id: g.id.clone(),
                protocol_type: g.protocol_type.clone(),
                generation_id: 0,
                protocol_name: None,
                leader: None,
                current_state_timestamp: self.io.now,
                members: Vec::new(),
                next_member_seq: g.next_member_seq,
            };
            let _ = self.io.append(g.partition, RecordBody::GroupMetadata(record));
        }
    }
}

fn join(g: &mut Group, io: &mut Io, reply: Parked, req: JoinGroupRequest) {
    if !accept_joining_member(g, io.config.group_max_size, &req.member_id) {
        // Kafka: the member is removed (or its pending id dropped) and told GROUP_MAX_SIZE_REACHED;
        // the join phase is not re-checked here (reference §11.3).
        if g.members.contains_key(&req.member_id) {
            g.remove_member_logged(io, &req.member_id, RemovalReason::GroupMaxSizeReached);
        } else if g.pending_join.remove(&req.member_id) {
            io.emit(EventKind::PendingMemberRemoved {
                group_id: g.id.clone(),
                member_id: req.member_id.clone(),
                reason: RemovalReason::GroupMaxSizeReached,
            });
        }
        let resp = JoinGroupResponse::error(ErrorCode::GroupMaxSizeReached, "");
        io.respond(reply, Response::JoinGroup(resp));
    } else if req.member_id.is_empty() {
        join_new_member(g, io, reply, req);
    } else {
        join_existing_member(g, io, reply, req);
    }
}

/// Kafka: `acceptJoiningMember`. In PreparingRebalance the count of members awaiting join is used,
/// so that the members above the limit that rejoin last are the ones kicked out.
fn accept_joining_member(g: &Group, max: usize, member_id: &str) -> bool {
    match g.state {
        GroupState::Empty | GroupState::Dead => true,
        GroupState::PreparingRebalance => {
            g.members
                .get(member_id)
                .is_some_and(|m| m.awaiting_join.is_some())
                || g.num_awaiting_join < max
        }
        GroupState::CompletingRebalance | GroupState::Stable => {
            g.members.contains_key(member_id) || g.members.len() < max
        }
    }
}

/// Kafka: `classicGroupJoinNewMember`.
fn join_new_member(g: &mut Group, io: &mut Io, reply: Parked, req: JoinGroupRequest) {
    if g.is(GroupState::Dead) {
        // The group is moving away: let the client rediscover the coordinator.
        let resp = JoinGroupResponse::error(ErrorCode::CoordinatorNotAvailable, "");
        io.respond(reply, Response::JoinGroup(resp));
        return;
    }
    if !g.supports_protocols(&req.protocol_type, &req.protocols) {
        let resp = JoinGroupResponse::error(ErrorCode::InconsistentGroupProtocol, "");
        io.respond(reply, Response::JoinGroup(resp));
        return;
    }
    match req.group_instance_id.clone() {
        Some(instance) => {
            let new_id = g.generate_member_id(&instance);
            match g.static_members.get(&instance).cloned() {
                // KIP-345: a restarted static member takes over its old slot.
                Some(old_id) => replace_static_member_then_rebalance_or_complete_join(
                    g, io, reply, req, &instance, old_id, new_id,
                ),
                None => add_member_then_rebalance_or_complete_join(g, io, reply, req, new_id),
            }
        }
        None => {
            let new_id = g.generate_member_id(&req.client_id);
            // KIP-394 (JoinGroup v4+): hand out the id and make the client come back with it, so
            // that a client whose first request times out does not leave a ghost member behind.
            if req.api_version >= 4 {
                g.pending_join.insert(new_id.clone());
                io.emit(EventKind::PendingMemberAdded {
                    group_id: g.id.clone(),
                    member_id: new_id.clone(),
                });
                let key = TimerKey::Heartbeat {
                    group_id: g.id.clone(),
                    member_id: new_id.clone(),
                };
                io.schedule(
                    key,
                    req.session_timeout_ms.max(0) as u64,
                    TimerKind::PendingMember,
                );
                let resp = JoinGroupResponse::error(ErrorCode::MemberIdRequired, new_id);
                io.respond(reply, Response::JoinGroup(resp));
            } else {
                add_member_then_rebalance_or_complete_join(g, io, reply, req, new_id);
            }
        }
    }
}

/// Kafka: `classicGroupJoinExistingMember`.
fn join_existing_member(g: &mut Group, io: &mut Io, reply: Parked, req: JoinGroupRequest) {
    let member_id = req.member_id.clone();
    let error = |e: ErrorCode| Response::JoinGroup(JoinGroupResponse::error(e, member_id.clone()));
    if g.is(GroupState::Dead) {
        io.respond(reply, error(ErrorCode::CoordinatorNotAvailable));
        return;
    }
    if !g.supports_protocols(&req.protocol_type, &req.protocols) {
        io.respond(reply, error(ErrorCode::InconsistentGroupProtocol));
        return;
    }
    if g.pending_join.contains(&member_id) {
        if req.group_instance_id.is_some() {
            // Kafka throws IllegalStateException: pending ids are only handed to dynamic members.
            // The request handler turns that into UNKNOWN_SERVER_ERROR.
            io.respond(reply, error(ErrorCode::UnknownServerError));
        } else {
            // The second step of KIP-394: the pending id becomes a member.
            io.emit(EventKind::PendingMemberRemoved {
                group_id: g.id.clone(),
                member_id: member_id.clone(),
                reason: RemovalReason::Joined,
            });
            add_member_then_rebalance_or_complete_join(g, io, reply, req, member_id.clone());
        }
        return;
    }
    if let Some(e) = g.validate_member(&member_id, req.group_instance_id.as_deref()) {
        io.respond(reply, error(e));
        return;
    }
    let matches = g.members[&member_id].matches(&req.protocols);
    match g.state {
        GroupState::PreparingRebalance => {
            let reason = Reason::MemberMetadataChanged {
                member_id: member_id.clone(),
            };
            update_member_then_rebalance_or_complete_join(g, io, reply, req, reason);
        }
        GroupState::CompletingRebalance => {
            if matches {
                // The member probably lost its JoinGroup response: send the current generation again.
                let resp = current_generation_response(g, &member_id, g.is_leader(&member_id));
                io.respond(reply, Response::JoinGroup(resp));
            } else {
                let reason = Reason::MemberMetadataChanged {
                    member_id: member_id.clone(),
                };
                update_member_then_rebalance_or_complete_join(g, io, reply, req, reason);
            }
        }
        GroupState::Stable => {
            if g.is_leader(&member_id) {
                // The leader may force a new assignment (e.g. after a topic metadata change), so its
                // JoinGroup always rebalances, even with identical metadata.
                let reason = Reason::LeaderRejoined {
                    member_id: member_id.clone(),
                };
                update_member_then_rebalance_or_complete_join(g, io, reply, req, reason);
            } else if !matches {
                let reason = Reason::MemberMetadataChanged {
                    member_id: member_id.clone(),
                };
                update_member_then_rebalance_or_complete_join(g, io, reply, req, reason);
            } else {
                let resp = current_generation_response(g, &member_id, false);
                io.respond(reply, Response::JoinGroup(resp));
            }
        }
        // Validation already failed for these (no members), but Kafka answers the same.
        GroupState::Empty | GroupState::Dead => io.respond(reply, error(ErrorCode::UnknownMemberId)),
    }
}

/// The JoinGroup answer for the current generation (a rejoin that changes nothing).
fn current_generation_response(g: &Group, member_id: &str, with_members: bool) -> JoinGroupResponse {
    JoinGroupResponse {
        error_code: ErrorCode::None,
        generation_id: g.generation,
        protocol_type: g.protocol_type.clone(),
        protocol_name: g.protocol_name.clone(),
        leader: g.leader.clone().unwrap_or_default(),
        skip_assignment: false,
        member_id: member_id.to_owned(),
        members: if with_members {
            g.join_response_members()
        } else {
            Vec::new()
        },
    }
}

fn park(io: &mut Io, g: &Group, reply: Parked, api: Api, member_id: &str) {
    io.emit(EventKind::RequestParked {
        from: reply.to,
        correlation_id: reply.correlation_id,
        api,
        group_id: g.id.clone(),
        member_id: member_id.to_owned(),
    });
}

/// Kafka: `addMemberThenRebalanceOrCompleteJoin`.
fn add_member_then_rebalance_or_complete_join(
    g: &mut Group,
    io: &mut Io,
    reply: Parked,
    req: JoinGroupRequest,
    member_id: String,
) {
    let member = Member {
        id: member_id.clone(),
        instance_id: req.group_instance_id,
        client_id: req.client_id,
        client_host: req.client_host,
        rebalance_timeout_ms: req.rebalance_timeout_ms,
        session_timeout_ms: req.session_timeout_ms,
        protocol_type: req.protocol_type,
        protocols: req.protocols,
        assignment: ConsumerAssignment::default(),
        awaiting_join: Some(reply),
        awaiting_sync: None,
        is_new: true,
        join_seq: 0,
    };
    // Only members arriving during the initial delay extend it (Java sets the flag when the group is
    // in PreparingRebalance and its previous state is Empty; reference §11.2).
    if g.is(GroupState::PreparingRebalance) && g.previous_state == GroupState::Empty {
        g.new_member_added = true;
    }
    g.add_member_logged(io, member);
    park(io, g, reply, Api::JoinGroup, &member_id);
    // A new member gets the new-member join timeout instead of its session timeout, so that a client
    // that disconnected during its first join does not hold the rebalance forever.
    let key = TimerKey::Heartbeat {
        group_id: g.id.clone(),
        member_id: member_id.clone(),
    };
    io.schedule(
        key,
        io.config.new_member_join_timeout_ms,
        TimerKind::NewMemberJoin,
    );
    maybe_prepare_rebalance_or_complete_join(g, io, Reason::MemberAdded { member_id });
}

/// Kafka: `updateMemberThenRebalanceOrCompleteJoin`.
fn update_member_then_rebalance_or_complete_join(
    g: &mut Group,
    io: &mut Io,
    reply: Parked,
    req: JoinGroupRequest,
    reason: Reason,
) {
    let member_id = req.member_id.clone();
    let protocols_changed = !g.members[&member_id].matches(&req.protocols);
    update_member(g, io, &member_id, req, reply);
    io.emit(EventKind::MemberUpdated {
        group_id: g.id.clone(),
        member_id,
        protocols_changed,
    });
    maybe_prepare_rebalance_or_complete_join(g, io, reason);
}

fn update_member(g: &mut Group, io: &mut Io, member_id: &str, req: JoinGroupRequest, reply: Parked) {
    let superseded = g.update_member(
        member_id,
        req.protocols,
        req.rebalance_timeout_ms,
        req.session_timeout_ms,
        Some(reply),
    );
    if let Some(old) = superseded {
        // Kafka overwrites the member's awaiting future: the older JoinGroup is never answered.
        io.emit(EventKind::ParkedRequestDropped {
            from: old.to,
            correlation_id: old.correlation_id,
            api: Api::JoinGroup,
            member_id: member_id.to_owned(),
        });
    }
    park(io, g, reply, Api::JoinGroup, member_id);
}

/// Kafka: `updateStaticMemberThenRebalanceOrCompleteJoin` (KIP-345 replacement).
fn replace_static_member_then_rebalance_or_complete_join(
    g: &mut Group,
    io: &mut Io,
    reply: Parked,
    req: JoinGroupRequest,
    instance: &str,
    old_id: String,
    new_id: String,
) {
    let leader_before = g.leader.clone();
    replace_static_member(g, io, instance, &old_id, &new_id);
    // The old id's heartbeat timer is left to expire without effect, as in Kafka; the new id gets a
    // session timer now.
    heartbeat::reschedule(g, io, &new_id);
    let api_version = req.api_version;
    // What the update overwrites, to put back if the new id cannot be persisted.
    let revert = {
        let m = &g.members[&new_id];
        StaticRevert {
            group_id: g.id.clone(),
            instance: instance.to_owned(),
            old_id: old_id.clone(),
            new_id: new_id.clone(),
            protocols: m.protocols.clone(),
            rebalance_timeout_ms: m.rebalance_timeout_ms,
            session_timeout_ms: m.session_timeout_ms,
            leader_before: leader_before.clone(),
        }
    };
    update_member(g, io, &new_id, req, reply);

    match g.state {
        GroupState::Stable => {
            // If the protocol the group would select is unchanged, persist the new id and answer at
            // once: no rebalance for a bounced static member.
            let (selected, _) = g.select_protocol();
            if g.protocol_name == selected {
                let record = load::group_metadata_record(g, None);
                let result = io.append(g.partition, RecordBody::GroupMetadata(record));
                let parked = g.take_join(&new_id).expect("just parked");
                let offset = match result {
                    Ok(o) => o,
                    // Nothing was written (e.g. NOT_ENOUGH_REPLICAS): the replacement is undone.
                    Err(e) => {
                        let response = revert_static_replacement(g, io, &revert, e);
                        io.respond(parked, Response::JoinGroup(response));
                        return;
                    }
                };
                let resp = if api_version >= 9 {
                    // v9+ (KIP-814): a returning leader learns it is leader, gets the members and
                    // is told not to recompute the assignment.
                    let is_leader = g.is_leader(&new_id);
                    JoinGroupResponse {
                        skip_assignment: is_leader,
                        ..current_generation_response(g, &new_id, is_leader)
                    }
                } else {
                    // Below v9 the old leader id is reported, so the instance never believes it
                    // leads and computes nothing.
                    JoinGroupResponse {
                        leader: leader_before.unwrap_or_default(),
                        ..current_generation_response(g, &new_id, false)
                    }
                };
                // With replication, the answer waits until the record is replicated (and the
                // replacement is undone if it cannot be: `Coordinator::complete`).
                let waiter = Waiter::StaticJoin {
                    reply: parked,
                    response: resp,
                    revert: Box::new(revert),
                };
                if let Some(Waiter::StaticJoin { reply, response, .. }) =
                    io.wait_or_return(g.partition, &Ok(offset), waiter)
                {
                    io.respond(reply, Response::JoinGroup(response));
                }
            } else {
                let reason = Reason::StaticMemberReplaced { member_id: new_id };
                maybe_prepare_rebalance_or_complete_join(g, io, reason);
            }
        }
        // The leader may already have an assignment for the old id, which the new id would miss.
        GroupState::CompletingRebalance => {
            prepare_rebalance(g, io, Reason::StaticMemberReplaced { member_id: new_id })
        }
        GroupState::PreparingRebalance => maybe_complete_join_phase(g, io),
        // A static mapping only exists for a live member, and Dead was rejected before.
        GroupState::Empty | GroupState::Dead => {}
    }
}

/// What a static member's replacement changed, to undo it if the group record that persists the
/// new member id cannot be written or replicated.
#[derive(Clone, Debug)]
pub(crate) struct StaticRevert {
    pub(crate) group_id: String,
    instance: String,
    old_id: String,
    new_id: String,
    /// The member's protocols and timeouts before the JoinGroup updated them.
    protocols: Vec<crate::protocol::JoinGroupProtocol>,
    rebalance_timeout_ms: i32,
    session_timeout_ms: i32,
    /// The leader before the replacement (Kafka's `currentLeader`).
    leader_before: Option<String>,
}

/// Kafka: the error callback of the group-metadata append in
/// `updateStaticMemberThenRebalanceOrCompleteJoin` (Scala: `updateStaticMemberAndRebalance`). The
/// member gets its old protocols and timeouts back, then its old id (the new one is fenced), and a
/// session timer under the old id; the JoinGroup is answered with the mapped append error (§3.0),
/// no member id, and the group's generation, protocol and leader as they were. If the new id is no
/// longer the instance's (it left, or was replaced again, while the append waited), there is
/// nothing to undo and only the error is returned.
pub(crate) fn revert_static_replacement(
    g: &mut Group,
    io: &mut Io,
    r: &StaticRevert,
    append_error: ErrorCode,
) -> JoinGroupResponse {
    let still_new = g.static_members.get(&r.instance) == Some(&r.new_id) && g.members.contains_key(&r.new_id);
    if still_new {
        let dropped = g.update_member(
            &r.new_id,
            r.protocols.clone(),
            r.rebalance_timeout_ms,
            r.session_timeout_ms,
            None,
        );
        debug_assert!(
            dropped.is_none(),
            "the replacement's JoinGroup was taken before the append"
        );
        replace_static_member(g, io, &r.instance, &r.new_id, &r.old_id);
        heartbeat::reschedule(g, io, &r.old_id);
    }
    JoinGroupResponse {
        error_code: append_error.append_error_to_response_error(),
        generation_id: g.generation,
        protocol_type: g.protocol_type.clone(),
        protocol_name: g.protocol_name.clone(),
        leader: r.leader_before.clone().unwrap_or_default(),
        skip_assignment: false,
        member_id: String::new(),
        members: Vec::new(),
    }
}

/// Kafka: `ClassicGroup.replaceStaticMember`. The member keeps everything (assignment, client id,
/// timeouts, join order) but its id; whatever was parked under the old id is fenced.
fn replace_static_member(g: &mut Group, io: &mut Io, instance: &str, old_id: &str, new_id: &str) {
    let parked_join = g.take_join(old_id);
    let mut member = g.members.remove(old_id).expect("static member exists");
    if let Some(p) = parked_join {
        let resp = JoinGroupResponse::error(ErrorCode::FencedInstanceId, old_id);
        io.respond(p, Response::JoinGroup(resp));
    }
    if let Some(p) = member.awaiting_sync.take() {
        io.respond(
            p,
            Response::SyncGroup(SyncGroupResponse::error(ErrorCode::FencedInstanceId)),
        );
    }
    member.id = new_id.to_owned();
    g.members.insert(member);
    g.static_members.insert(instance.to_owned(), new_id.to_owned());
    io.emit(EventKind::StaticMemberReplaced {
        group_id: g.id.clone(),
        group_instance_id: instance.to_owned(),
        old_member_id: old_id.to_owned(),
        new_member_id: new_id.to_owned(),
    });
    if g.is_leader(old_id) {
        g.leader = Some(new_id.to_owned());
        io.emit(EventKind::LeaderChanged {
            group_id: g.id.clone(),
            from: Some(old_id.to_owned()),
            to: Some(new_id.to_owned()),
            reason: LeaderReason::StaticReplacement,
        });
    }
}

/// Kafka: `maybePrepareRebalanceOrCompleteJoin`.
pub(crate) fn maybe_prepare_rebalance_or_complete_join(g: &mut Group, io: &mut Io, reason: Reason) {
    if g.can_rebalance() {
        prepare_rebalance(g, io, reason);
    } else {
        maybe_complete_join_phase(g, io);
    }
}

/// Kafka: `maybeCompleteJoinPhase`. Never completes the initial rebalance early: while the group
/// came from Empty, only the initial-delay timer completes it.
pub(crate) fn maybe_complete_join_phase(g: &mut Group, io: &mut Io) {
    if g.is(GroupState::PreparingRebalance)
        && g.previous_state != GroupState::Empty
        && g.has_all_members_joined()
    {
        complete_join(g, io);
    }
}

/// Kafka: `prepareRebalance`.
pub(crate) fn prepare_rebalance(g: &mut Group, io: &mut Io, reason: Reason) {
    if g.is(GroupState::CompletingRebalance) {
        // Members parked in SyncGroup must rejoin; the assignment they wait for will never come.
        reset_and_propagate_assignment_with_error(g, io, ErrorCode::RebalanceInProgress);
    }
    g.pending_sync.clear();
    io.cancel(TimerKey::Sync {
        group_id: g.id.clone(),
    });

    let initial = g.is(GroupState::Empty);
    g.transition(io, GroupState::PreparingRebalance, reason);
    if initial {
        // group.initial.rebalance.delay.ms: give the other members of a new group time to arrive.
        let delay_ms = io.config.group_initial_rebalance_delay_ms;
        let remaining_ms = g.rebalance_timeout_ms().saturating_sub(delay_ms);
        let key = TimerKey::Join {
            group_id: g.id.clone(),
        };
        io.schedule(
            key,
            delay_ms,
            TimerKind::InitialRebalanceDelay {
                delay_ms,
                remaining_ms,
            },
        );
    } else if g.has_all_members_joined() {
        // E.g. the only member of a group rejoined: nothing to wait for.
        complete_join(g, io);
    } else {
        let key = TimerKey::Join {
            group_id: g.id.clone(),
        };
        io.schedule(key, g.rebalance_timeout_ms(), TimerKind::RebalanceTimeout);
    }
}

/// Kafka: `tryCompleteInitialRebalanceElseSchedule`. Extends the delay in steps of
/// `min(D, remaining)` while new members keep arriving, capped by the rebalance timeout.
pub(crate) fn initial_delay_tick(g: &mut Group, io: &mut Io, delay_ms: u64, remaining_ms: u64) {
    if !g.is(GroupState::PreparingRebalance) {
        return;
    }
    if g.new_member_added && remaining_ms != 0 {
        g.new_member_added = false;
        let next_delay = io.config.group_initial_rebalance_delay_ms.min(remaining_ms);
        let next_remaining = remaining_ms.saturating_sub(delay_ms);
        let key = TimerKey::Join {
            group_id: g.id.clone(),
        };
        io.schedule(
            key,
            next_delay,
            TimerKind::InitialRebalanceDelay {
                delay_ms: next_delay,
                remaining_ms: next_remaining,
            },
        );
    } else {
        complete_join(g, io);
    }
}

/// Kafka: `completeClassicGroupJoin`.
pub(crate) fn complete_join(g: &mut Group, io: &mut Io) {
    if !g.is(GroupState::PreparingRebalance) && !g.is(GroupState::Dead) {
        return;
    }
    io.cancel(TimerKey::Join {
        group_id: g.id.clone(),
    });
    // Dynamic members that did not rejoin are gone; static members stay (KIP-345).
    let not_rejoined: Vec<String> = g
        .members_in_join_order()
        .into_iter()
        .filter(|m| m.awaiting_join.is_none() && m.instance_id.is_none())
        .map(|m| m.id.clone())
        .collect();
    for id in not_rejoined {
        g.remove_member_logged(io, &id, RemovalReason::NotRejoined);
        io.cancel(TimerKey::Heartbeat {
            group_id: g.id.clone(),
            member_id: id,
        });
    }
    if g.is(GroupState::Dead) {
        return;
    }
    if !maybe_elect_new_joined_leader(g, io) && !g.members.is_empty() {
        // Only static members that did not rejoin remain: wait another rebalance timeout, until one
        // rejoins or their sessions expire.
        let key = TimerKey::Join {
            group_id: g.id.clone(),
        };
        io.schedule(key, g.rebalance_timeout_ms(), TimerKind::RebalanceTimeout);
        return;
    }
    init_next_generation(g, io);
    if g.is(GroupState::Empty) {
        let record = load::group_metadata_record(g, None);
        let _ = io.append(g.partition, RecordBody::GroupMetadata(record));
        return;
    }
    for member_id in g.member_ids_in_join_order() {
        let is_leader = g.is_leader(&member_id);
        let resp = current_generation_response(g, &member_id, is_leader);
        if let Some(parked) = g.take_join(&member_id) {
            io.respond(parked, Response::JoinGroup(resp));
        }
        heartbeat::reschedule(g, io, &member_id);
        if let Some(m) = g.members.get_mut(&member_id) {
            m.is_new = false;
        }
        g.pending_sync.insert(member_id);
    }
    // KAFKA-12890: members that never send SyncGroup are removed after the rebalance timeout.
    let key = TimerKey::Sync {
        group_id: g.id.clone(),
    };
    io.schedule(
        key,
        g.rebalance_timeout_ms(),
        TimerKind::PendingSync {
            generation_id: g.generation,
        },
    );
}

/// Kafka: `ClassicGroup.maybeElectNewJoinedLeader`, with "earliest-joined member that rejoined" as
/// the deterministic stand-in for Kafka's hash-map pick.
fn maybe_elect_new_joined_leader(g: &mut Group, io: &mut Io) -> bool {
    let Some(leader) = g.leader.clone() else {
        return false;
    };
    if g.members.get(&leader).is_some_and(|m| m.awaiting_join.is_some()) {
        return true;
    }
    match g.earliest_member(|m| m.awaiting_join.is_some()) {
        Some(new_leader) => {
            g.leader = Some(new_leader.clone());
            io.emit(EventKind::LeaderChanged {
                group_id: g.id.clone(),
                from: Some(leader),
                to: Some(new_leader),
                reason: LeaderReason::LeaderNotRejoined,
            });
            true
        }
        None => false,
    }
}

/// Kafka: `ClassicGroup.initNextGeneration`. The generation goes up even when the group empties.
fn init_next_generation(g: &mut Group, io: &mut Io) {
    let from = g.generation;
    g.generation += 1;
    io.emit(EventKind::GenerationChanged {
        group_id: g.id.clone(),
        from,
        to: g.generation,
    });
    if !g.members.is_empty() {
        let (protocol, votes) = g.select_protocol();
        g.protocol_name = protocol.clone();
        io.emit(EventKind::ProtocolSelected {
            group_id: g.id.clone(),
            protocol,
            votes,
        });
        g.subscribed_topics = g.compute_subscribed_topics();
        g.transition(io, GroupState::CompletingRebalance, Reason::JoinPhaseCompleted);
    } else {
        if g.protocol_name.take().is_some() {
            io.emit(EventKind::ProtocolSelected {
                group_id: g.id.clone(),
                protocol: None,
                votes: Vec::new(),
            });
        }
        g.subscribed_topics = g.compute_subscribed_topics();
        g.transition(io, GroupState::Empty, Reason::JoinPhaseCompleted);
    }
    g.pending_sync.clear();
}

/// Kafka: `resetAndPropagateAssignmentWithError`.
pub(crate) fn reset_and_propagate_assignment_with_error(g: &mut Group, io: &mut Io, error: ErrorCode) {
    for m in g.members.values_mut() {
        m.assignment = ConsumerAssignment::default();
    }
    io.emit(EventKind::AssignmentsReset {
        group_id: g.id.clone(),
    });
    propagate_assignment(g, io, error);
}

/// Kafka: `propagateAssignment`. Completes every parked SyncGroup and restarts its session timer.
pub(crate) fn propagate_assignment(g: &mut Group, io: &mut Io, error: ErrorCode) {
    for member_id in g.member_ids_in_join_order() {
        let m = g.members.get_mut(&member_id).expect("listed member");
        let Some(parked) = m.awaiting_sync.take() else {
            continue;
        };
        let resp = SyncGroupResponse {
            error_code: error,
            protocol_type: if error.is_none() {
                g.protocol_type.clone()
            } else {
                None
            },
            protocol_name: if error.is_none() {
                g.protocol_name.clone()
            } else {
                None
            },
            assignment: m.assignment.clone(),
        };
        io.respond(parked, Response::SyncGroup(resp));
        heartbeat::reschedule(g, io, &member_id);
    }
}

impl Group {
    /// Kafka: `ClassicGroup.validateMember`.
    pub(crate) fn validate_member(&self, member_id: &str, instance_id: Option<&str>) -> Option<ErrorCode> {
        if let Some(e) = self.validate_static_member(member_id, instance_id) {
            return Some(e);
        }
        if !self.members.contains_key(member_id) {
            return Some(ErrorCode::UnknownMemberId);
        }
        None
    }

    /// The static-membership half of [`Group::validate_member`]: a request naming an instance id
    /// must come from the member id that owns it.
    pub(crate) fn validate_static_member(
        &self,
        member_id: &str,
        instance_id: Option<&str>,
    ) -> Option<ErrorCode> {
        let instance = instance_id?;
        match self.static_members.get(instance) {
            None => Some(ErrorCode::UnknownMemberId),
            Some(owner) if owner != member_id => Some(ErrorCode::FencedInstanceId),
            Some(_) => None,
        }
    }
}
