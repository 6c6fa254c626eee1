//! LeaveGroup, single and batch (Kafka: `classicGroupLeave`).

use crate::protocol::{
    ErrorCode, GroupState, JoinGroupResponse, LeaveGroupMemberResponse, LeaveGroupRequest,
    LeaveGroupResponse, Response,
};

use super::event::{EventKind, Reason, RemovalReason};
use super::group::{Group, Parked};
use super::timers::TimerKey;
use super::{join, Coordinator, Io};

impl Coordinator {
    /// Kafka: `GroupCoordinatorService.leaveGroup`, then `classicGroupLeave`.
    pub(crate) fn leave_group(&mut self, reply: Parked, req: &LeaveGroupRequest) {
        let error = if !self.active {
            Some(ErrorCode::CoordinatorNotAvailable)
        } else if req.group_id.is_empty() {
            Some(ErrorCode::InvalidGroupId)
        } else {
            self.partition_error(&req.group_id)
        };
        let resp = match error {
            Some(e) => LeaveGroupResponse {
                error_code: e,
                members: Vec::new(),
            },
            None if self.is_consumer_group(&req.group_id) => self.classic_leave_to_consumer_group(req),
            None => match self.groups.get_mut(&req.group_id) {
                // Every listed member is unknown (Java gets there through its exception handler).
                None => LeaveGroupResponse {
                    error_code: ErrorCode::None,
                    members: req
                        .members
                        .iter()
                        .map(|m| LeaveGroupMemberResponse {
                            member_id: m.member_id.clone(),
                            group_instance_id: m.group_instance_id.clone(),
                            error_code: ErrorCode::UnknownMemberId,
                        })
                        .collect(),
                },
                Some(g) => leave(g, &mut self.io, req),
            },
        };
        self.io.respond(reply, Response::LeaveGroup(resp));
    }
}

fn leave(g: &mut Group, io: &mut Io, req: &LeaveGroupRequest) -> LeaveGroupResponse {
    if g.is(GroupState::Dead) {
        return LeaveGroupResponse {
            error_code: ErrorCode::CoordinatorNotAvailable,
            members: Vec::new(),
        };
    }
    let mut results = Vec::with_capacity(req.members.len());
    let mut removed = Vec::new();
    for identity in &req.members {
        let instance = identity.group_instance_id.as_deref();
        let code = if identity.member_id.is_empty() {
            // Administrative removal by instance id (AdminClient.removeMembersFromConsumerGroup).
            match instance.and_then(|i| g.static_members.get(i)).cloned() {
                Some(member_id) => {
                    remove_current_member(g, io, &member_id, RemovalReason::AdminRemoval);
                    removed.push(member_id);
                    ErrorCode::None
                }
                None => ErrorCode::UnknownMemberId,
            }
        } else if g.pending_join.remove(&identity.member_id) {
            io.cancel(TimerKey::Heartbeat {
                group_id: g.id.clone(),
                member_id: identity.member_id.clone(),
            });
            io.emit(EventKind::PendingMemberRemoved {
                group_id: g.id.clone(),
                member_id: identity.member_id.clone(),
                reason: RemovalReason::LeaveGroup,
            });
            // Kafka counts a pending id as a successful leave, so it too can trigger a rebalance below.
            removed.push(identity.member_id.clone());
            ErrorCode::None
        } else if let Some(e) = g.validate_member(&identity.member_id, instance) {
            e
        } else {
            remove_current_member(g, io, &identity.member_id, RemovalReason::LeaveGroup);
            removed.push(identity.member_id.clone());
            ErrorCode::None
        };
        results.push(LeaveGroupMemberResponse {
            member_id: identity.member_id.clone(),
            group_instance_id: identity.group_instance_id.clone(),
            error_code: code,
        });
    }
    if !removed.is_empty() {
        match g.state {
            GroupState::Stable | GroupState::CompletingRebalance => {
                join::maybe_prepare_rebalance_or_complete_join(
                    g,
                    io,
                    Reason::MembersLeft { member_ids: removed },
                );
            }
            GroupState::PreparingRebalance => join::maybe_complete_join_phase(g, io),
            GroupState::Empty | GroupState::Dead => {}
        }
    }
    LeaveGroupResponse {
        error_code: ErrorCode::None,
        members: results,
    }
}

/// Kafka: `removeCurrentMemberFromClassicGroup`.
fn remove_current_member(g: &mut Group, io: &mut Io, member_id: &str, reason: RemovalReason) {
    io.cancel(TimerKey::Heartbeat {
        group_id: g.id.clone(),
        member_id: member_id.to_owned(),
    });
    if let Some(parked) = g.take_join(member_id) {
        let resp = JoinGroupResponse::error(ErrorCode::UnknownMemberId, "");
        io.respond(parked, Response::JoinGroup(resp));
    }
    g.remove_member_logged(io, member_id, reason);
}
