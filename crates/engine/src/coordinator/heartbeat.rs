//! Heartbeat and session expiry (Kafka: `classicGroupHeartbeat*`, `expireClassicGroupMemberHeartbeat`).

use crate::protocol::{
    ErrorCode, GroupState, HeartbeatRequest, HeartbeatResponse, JoinGroupResponse, Response,
};

use super::event::{EventKind, Reason, RemovalReason};
use super::group::{Group, Member, Parked};
use super::timers::{TimerKey, TimerKind};
use super::{join, Coordinator, Io};

/// Kafka: `rescheduleClassicGroupMemberHeartbeat` — the member's session deadline is now +
/// `session.timeout.ms`.
pub(crate) fn reschedule(g: &Group, io: &mut Io, member_id: &str) {
    let Some(m) = g.members.get(member_id) else { return };
    reschedule_member(g, io, m);
}

/// [`reschedule`] for a member already looked up.
fn reschedule_member(g: &Group, io: &mut Io, m: &Member) {
    let key = TimerKey::Heartbeat {
        group_id: g.id.clone(),
        member_id: m.id.clone(),
    };
    io.schedule(key, m.session_timeout_ms.max(0) as u64, TimerKind::Session);
}

impl Coordinator {
    /// Kafka: `GroupCoordinatorService.heartbeat`, then `classicGroupHeartbeatToClassicGroup`.
    pub(crate) fn heartbeat(&mut self, reply: Parked, req: &HeartbeatRequest) {
        let error = if !self.active {
            Some(ErrorCode::CoordinatorNotAvailable)
        } else if req.group_id.is_empty() {
            Some(ErrorCode::InvalidGroupId)
        } else {
            match self.partition_error(&req.group_id) {
                // Old clients do not understand the loading error; a heartbeat is harmless to accept.
                Some(ErrorCode::CoordinatorLoadInProgress) => Some(ErrorCode::None),
                other => other,
            }
        };
        let code = match error {
            Some(e) => e,
            None if self.is_consumer_group(&req.group_id) => self.classic_heartbeat_to_consumer_group(req),
            None => match self.groups.get_mut(&req.group_id) {
                None => ErrorCode::UnknownMemberId,
                Some(g) => heartbeat(g, &mut self.io, req),
            },
        };
        self.io
            .respond(reply, Response::Heartbeat(HeartbeatResponse { error_code: code }));
    }

    pub(crate) fn expire_heartbeat(&mut self, group_id: &str, member_id: &str) {
        self.with_group(group_id, |g, io| expire(g, io, member_id));
    }
}

fn heartbeat(g: &mut Group, io: &mut Io, req: &HeartbeatRequest) -> ErrorCode {
    if g.is(GroupState::Dead) {
        return ErrorCode::CoordinatorNotAvailable;
    }
    // `validate_member`, keeping the member it finds (one lookup per heartbeat instead of two).
    if let Some(e) = g.validate_static_member(&req.member_id, req.group_instance_id.as_deref()) {
        return e;
    }
    let Some(m) = g.members.get(&req.member_id) else {
        return ErrorCode::UnknownMemberId;
    };
    if req.generation_id != g.generation {
        return ErrorCode::IllegalGeneration;
    }
    match g.state {
        GroupState::Empty | GroupState::Dead => ErrorCode::UnknownMemberId,
        // The member must rejoin; the heartbeat still keeps its session alive meanwhile.
        GroupState::PreparingRebalance => {
            reschedule_member(g, io, m);
            ErrorCode::RebalanceInProgress
        }
        // NONE in CompletingRebalance too: the member already has the new generation.
        GroupState::CompletingRebalance | GroupState::Stable => {
            reschedule_member(g, io, m);
            ErrorCode::None
        }
    }
}

/// Kafka: `expireClassicGroupMemberHeartbeat`.
fn expire(g: &mut Group, io: &mut Io, member_id: &str) {
    if g.is(GroupState::Dead) {
        return;
    }
    if g.pending_join.remove(member_id) {
        // The client never came back with its MEMBER_ID_REQUIRED id.
        io.emit(EventKind::PendingMemberRemoved {
            group_id: g.id.clone(),
            member_id: member_id.to_owned(),
            reason: RemovalReason::SessionExpired,
        });
        if g.is(GroupState::PreparingRebalance) && g.has_all_members_joined() {
            join::complete_join(g, io);
        }
        return;
    }
    let Some(m) = g.members.get(member_id) else { return };
    // Members parked in JoinGroup/SyncGroup are covered by the join/sync timers, unless new.
    if m.has_satisfied_heartbeat() {
        return;
    }
    remove_member_and_update_group(g, io, member_id, RemovalReason::SessionExpired);
}

/// Kafka: `removeMemberAndUpdateClassicGroup`.
fn remove_member_and_update_group(g: &mut Group, io: &mut Io, member_id: &str, reason: RemovalReason) {
    // A new member may still be parked in JoinGroup: tell it to start over.
    if let Some(parked) = g.take_join(member_id) {
        let resp = JoinGroupResponse::error(ErrorCode::UnknownMemberId, "");
        io.respond(parked, Response::JoinGroup(resp));
    }
    g.remove_member_logged(io, member_id, reason);
    match g.state {
        GroupState::Dead | GroupState::Empty => {}
        GroupState::Stable | GroupState::CompletingRebalance => {
            let reason = Reason::SessionExpired {
                member_id: member_id.to_owned(),
            };
            join::maybe_prepare_rebalance_or_complete_join(g, io, reason);
        }
        // Unlike joins and leaves, an expiry completes the phase even during the initial delay
        // (Java; reference §11.1, GroupMetadataManagerTest.testHeartbeatExpirationShouldRemoveMember).
        GroupState::PreparingRebalance => {
            if g.has_all_members_joined() {
                join::complete_join(g, io);
            }
        }
    }
}
