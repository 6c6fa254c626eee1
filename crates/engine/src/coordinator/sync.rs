//! SyncGroup and the pending-sync timeout (Kafka: `classicGroupSync*`, `expirePendingSync`).

use crate::collections::Map;
use crate::protocol::Api;

use crate::protocol::{
    ConsumerAssignment, ErrorCode, GroupState, Response, SyncGroupRequest, SyncGroupResponse,
};

use super::event::{EventKind, Reason, RemovalReason};
use super::group::{Group, Parked};
use super::records::RecordBody;
use super::timers::TimerKey;
use super::{join, load, Coordinator, Io, Waiter};

impl Coordinator {
    /// Kafka: `GroupCoordinatorService.syncGroup`, then `classicGroupSyncToClassicGroup`.
    pub(crate) fn sync_group(&mut self, reply: Parked, req: &SyncGroupRequest) {
        let error = if !self.active {
            Some(ErrorCode::CoordinatorNotAvailable)
        } else if req.group_id.is_empty() {
            Some(ErrorCode::InvalidGroupId)
        } else {
            self.partition_error(&req.group_id)
        };
        let error = error
            .or_else(|| (!self.groups.contains_key(&req.group_id)).then_some(ErrorCode::UnknownMemberId));
        if let Some(e) = error {
            self.io
                .respond(reply, Response::SyncGroup(SyncGroupResponse::error(e)));
            return;
        }
        if self.is_consumer_group(&req.group_id) {
            self.classic_sync_to_consumer_group(reply, req);
            return;
        }
        let g = self.groups.get_mut(&req.group_id).expect("checked");
        sync(g, &mut self.io, reply, req);
    }
}

fn validate(g: &Group, req: &SyncGroupRequest) -> Option<ErrorCode> {
    if g.is(GroupState::Empty) {
        return Some(ErrorCode::UnknownMemberId);
    }
    if g.is(GroupState::Dead) {
        return Some(ErrorCode::CoordinatorNotAvailable);
    }
    if let Some(e) = g.validate_member(&req.member_id, req.group_instance_id.as_deref()) {
        return Some(e);
    }
    if req.generation_id != g.generation {
        return Some(ErrorCode::IllegalGeneration);
    }
    // v5+ clients say which protocol they expect; absent values are accepted.
    let type_mismatch = req
        .protocol_type
        .as_ref()
        .is_some_and(|t| Some(t) != g.protocol_type.as_ref());
    let name_mismatch = req
        .protocol_name
        .as_ref()
        .is_some_and(|n| Some(n) != g.protocol_name.as_ref());
    if type_mismatch || name_mismatch {
        return Some(ErrorCode::InconsistentGroupProtocol);
    }
    None
}

fn sync(g: &mut Group, io: &mut Io, reply: Parked, req: &SyncGroupRequest) {
    if let Some(e) = validate(g, req) {
        io.respond(reply, Response::SyncGroup(SyncGroupResponse::error(e)));
        return;
    }
    match g.state {
        GroupState::PreparingRebalance => {
            io.respond(
                reply,
                Response::SyncGroup(SyncGroupResponse::error(ErrorCode::RebalanceInProgress)),
            );
        }
        GroupState::CompletingRebalance => {
            let m = g.members.get_mut(&req.member_id).expect("validated");
            if let Some(old) = m.awaiting_sync.replace(reply) {
                io.emit(EventKind::ParkedRequestDropped {
                    from: old.to,
                    correlation_id: old.correlation_id,
                    api: Api::SyncGroup,
                    member_id: req.member_id.clone(),
                });
            }
            io.emit(EventKind::RequestParked {
                from: reply.to,
                correlation_id: reply.correlation_id,
                api: Api::SyncGroup,
                group_id: g.id.clone(),
                member_id: req.member_id.clone(),
            });
            remove_pending_sync_member(g, io, &req.member_id);
            if g.is_leader(&req.member_id) {
                // Members the leader left out get an empty assignment; a later entry for the same
                // member wins, as in Kafka's HashMap.
                let mut assignment: Map<String, ConsumerAssignment> = Map::new();
                for a in &req.assignments {
                    assignment.insert(a.member_id.clone(), a.assignment.clone());
                }
                for id in g.members.keys() {
                    assignment.entry(id.clone()).or_default();
                }
                let generation = g.generation;
                let record = load::group_metadata_record(g, Some(&assignment));
                let result = io.append(g.partition, RecordBody::GroupMetadata(record));
                let waiter = Waiter::LeaderAssignment {
                    group_id: g.id.clone(),
                    generation,
                    assignment,
                };
                if let Some(Waiter::LeaderAssignment { assignment, .. }) =
                    io.wait_or_return(g.partition, &result, waiter)
                {
                    complete_leader_assignment(g, io, generation, assignment, result.map(|_| ()));
                }
            }
        }
        GroupState::Stable => {
            // A late follower: its assignment is already stored.
            remove_pending_sync_member(g, io, &req.member_id);
            let m = &g.members[&req.member_id];
            let resp = SyncGroupResponse {
                error_code: ErrorCode::None,
                protocol_type: g.protocol_type.clone(),
                protocol_name: g.protocol_name.clone(),
                assignment: m.assignment.clone(),
            };
            io.respond(reply, Response::SyncGroup(resp));
        }
        GroupState::Empty | GroupState::Dead => unreachable!("rejected by validation"),
    }
}

/// Kafka: the append callback of the leader's SyncGroup. Runs when the group-metadata record with
/// the assignment is persisted (at once, or when the high watermark passes it). Only acts if the group is still in the same
/// CompletingRebalance generation, since another member may have triggered a rebalance meanwhile.
pub(crate) fn complete_leader_assignment(
    g: &mut Group,
    io: &mut Io,
    generation: i32,
    assignment: Map<String, ConsumerAssignment>,
    result: Result<(), ErrorCode>,
) {
    if !g.is(GroupState::CompletingRebalance) || g.generation != generation {
        return;
    }
    match result {
        Err(e) => {
            let error = e.append_error_to_response_error();
            join::reset_and_propagate_assignment_with_error(g, io, error);
            join::maybe_prepare_rebalance_or_complete_join(g, io, Reason::AssignmentAppendFailed { error });
        }
        Ok(()) => {
            let mut stored = Vec::new();
            for id in g.member_ids_in_join_order() {
                let a = assignment.get(&id).cloned().unwrap_or_default();
                g.members.get_mut(&id).expect("listed").assignment = a.clone();
                stored.push((id, a));
            }
            io.emit(EventKind::AssignmentStored {
                group_id: g.id.clone(),
                generation_id: generation,
                assignments: stored,
            });
            g.transition(io, GroupState::Stable, Reason::AssignmentPersisted);
            join::propagate_assignment(g, io, ErrorCode::None);
        }
    }
}

/// Kafka: `removePendingSyncMember`; the sync timer goes once everyone has synced.
fn remove_pending_sync_member(g: &mut Group, io: &mut Io, member_id: &str) {
    g.pending_sync.remove(member_id);
    if g.pending_sync.is_empty() {
        io.cancel(TimerKey::Sync {
            group_id: g.id.clone(),
        });
    }
}

/// Kafka: `expirePendingSync` (KAFKA-12890).
pub(crate) fn expire_pending_sync(g: &mut Group, io: &mut Io, generation: i32) {
    if generation != g.generation {
        return;
    }
    if !(g.is(GroupState::CompletingRebalance) || g.is(GroupState::Stable)) || g.pending_sync.is_empty() {
        return;
    }
    let late: Vec<String> = g.pending_sync.iter().cloned().collect();
    for id in &late {
        g.remove_member_logged(io, id, RemovalReason::PendingSyncExpired);
        io.cancel(TimerKey::Heartbeat {
            group_id: g.id.clone(),
            member_id: id.clone(),
        });
    }
    join::prepare_rebalance(g, io, Reason::PendingSyncExpired { member_ids: late });
}
