//! The one place where a group changes state.

use crate::protocol::Api;
use crate::protocol::GroupState;

use super::event::{EventKind, LeaderReason, Reason, RemovalReason};
use super::group::{Group, Member};
use super::Io;

impl Group {
    /// Moves the group to `to`, recording the previous state and the time (Kafka:
    /// `ClassicGroup.transitionTo`).
    ///
    /// # Panics
    ///
    /// On a transition Kafka forbids (`ClassicGroupState`'s table, reference §2): that is a bug in
    /// the coordinator, never a consequence of a client's request.
    pub(crate) fn transition(&mut self, io: &mut Io, to: GroupState, reason: Reason) {
        let from = self.state;
        assert!(
            from.can_transition_to(to),
            "illegal transition {from} -> {to} in group {} ({reason})",
            self.id
        );
        self.previous_state = from;
        self.state = to;
        self.state_timestamp = io.now;
        io.emit(EventKind::StateChanged {
            group_id: self.id.clone(),
            from,
            to,
            reason,
        });
    }

    /// Adds a member and records it (and a new leader) in the event log.
    pub(crate) fn add_member_logged(&mut self, io: &mut Io, member: Member) {
        io.emit(EventKind::MemberAdded {
            group_id: self.id.clone(),
            member_id: member.id.clone(),
            group_instance_id: member.instance_id.clone(),
            client_id: member.client_id.clone(),
            protocols: member.protocols.clone(),
        });
        let id = member.id.clone();
        if self.add_member(member) {
            io.emit(EventKind::LeaderChanged {
                group_id: self.id.clone(),
                from: None,
                to: Some(id),
                reason: LeaderReason::FirstMember,
            });
        }
    }

    /// Removes a member and records it (and a leadership change) in the event log. A parked request
    /// the member still had is dropped unanswered, as in Kafka, and the log says so.
    pub(crate) fn remove_member_logged(
        &mut self,
        io: &mut Io,
        member_id: &str,
        reason: RemovalReason,
    ) -> Option<Member> {
        let leader_before = self.leader.clone();
        let removed = self.remove_member(member_id)?;
        io.emit(EventKind::MemberRemoved {
            group_id: self.id.clone(),
            member_id: member_id.to_owned(),
            reason,
        });
        for (api, parked) in [
            (Api::JoinGroup, removed.awaiting_join),
            (Api::SyncGroup, removed.awaiting_sync),
        ] {
            if let Some(p) = parked {
                io.emit(EventKind::ParkedRequestDropped {
                    from: p.to,
                    correlation_id: p.correlation_id,
                    api,
                    member_id: member_id.to_owned(),
                });
            }
        }
        if self.leader != leader_before {
            io.emit(EventKind::LeaderChanged {
                group_id: self.id.clone(),
                from: leader_before,
                to: self.leader.clone(),
                reason: LeaderReason::LeaderRemoved,
            });
        }
        Some(removed)
    }
}
