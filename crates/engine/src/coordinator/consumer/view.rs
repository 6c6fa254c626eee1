//! A read-only view of a consumer group (KIP-848) for the UI and the tests: what
//! `ConsumerGroupDescribe` says, plus what only the coordinator knows (each member's
//! reconciliation state, partitions pending revocation, session and revocation deadlines).

use serde::{Deserialize, Serialize};

use super::group::flatten;
use super::{ConsumerGroupState, MemberState};
use crate::coordinator::timers::TimerKey;
use crate::coordinator::Coordinator;
use crate::protocol::TopicPartition;
use crate::time::SimTime;

/// A consumer group as the coordinator holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConsumerGroupView {
    /// The group id.
    pub group_id: String,
    /// Its derived state (Empty, Assigning, Reconciling, Stable).
    pub state: ConsumerGroupState,
    /// The group epoch.
    pub group_epoch: i32,
    /// The epoch of the current target assignment (≤ the group epoch).
    pub assignment_epoch: i32,
    /// The server assignor in use (the members' preferred one, else the default).
    pub assignor: String,
    /// The members, by member id.
    pub members: Vec<ConsumerGroupMemberView>,
}

/// One member of a [`ConsumerGroupView`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConsumerGroupMemberView {
    /// The member id.
    pub member_id: String,
    /// Its `group.instance.id`, if static.
    pub instance_id: Option<String>,
    /// Its client id.
    pub client_id: String,
    /// Its member epoch (-2 after a static member's temporary leave).
    pub member_epoch: i32,
    /// Its previous member epoch.
    pub previous_member_epoch: i32,
    /// Its reconciliation state on the coordinator.
    pub state: MemberState,
    /// The partitions it may use (what heartbeat responses carry).
    pub assigned: Vec<TopicPartition>,
    /// The partitions it must revoke before it may move on.
    pub pending_revocation: Vec<TopicPartition>,
    /// Its target assignment.
    pub target: Vec<TopicPartition>,
    /// When its session expires without a heartbeat.
    pub session_deadline: Option<SimTime>,
    /// When it is fenced if it has not revoked (only in `UNREVOKED_PARTITIONS`).
    pub rebalance_deadline: Option<SimTime>,
}

impl Coordinator {
    /// The consumer group `group_id`, if this coordinator holds one by that id.
    pub fn consumer_group_view(&self, group_id: &str) -> Option<ConsumerGroupView> {
        let cg = self.groups.get(group_id)?.consumer.as_deref()?;
        let members = cg
            .members
            .values()
            .map(|m| {
                let key = |session: bool| {
                    if session {
                        TimerKey::ConsumerSession {
                            group_id: group_id.to_owned(),
                            member_id: m.id.clone(),
                        }
                    } else {
                        TimerKey::ConsumerRebalance {
                            group_id: group_id.to_owned(),
                            member_id: m.id.clone(),
                        }
                    }
                };
                ConsumerGroupMemberView {
                    member_id: m.id.clone(),
                    instance_id: m.instance_id.clone(),
                    client_id: m.client_id.clone(),
                    member_epoch: m.current.member_epoch,
                    previous_member_epoch: m.current.previous_member_epoch,
                    state: m.current.state,
                    assigned: flatten(&m.current.assigned_partitions),
                    pending_revocation: flatten(&m.current.partitions_pending_revocation),
                    target: flatten(&m.target),
                    session_deadline: self.timer(&key(true)).map(|(t, _)| t),
                    rebalance_deadline: self.timer(&key(false)).map(|(t, _)| t),
                }
            })
            .collect();
        Some(ConsumerGroupView {
            group_id: group_id.to_owned(),
            state: cg.state(),
            group_epoch: cg.group_epoch,
            assignment_epoch: cg.assignment_epoch,
            assignor: cg.preferred_assignor().name().to_owned(),
            members,
        })
    }
}
