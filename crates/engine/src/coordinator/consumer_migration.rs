//! Online migration between a classic group and a consumer group (reference §10; Kafka 4.1 GMM
//! `validateOnlineUpgrade`, `convertToConsumerGroup`, `validateOnlineDowngradeWithFencedMembers`,
//! `convertToClassicGroup`; `ConsumerGroup.fromClassicGroup`, `ClassicGroup.fromConsumerGroup`),
//! governed by `group.consumer.migration.policy` ([`super::MigrationPolicy`]).
//!
//! * **Upgrade**: the first `ConsumerGroupHeartbeat` join to a non-empty classic group converts
//!   it, if the policy allows, the group uses the embedded `consumer` protocol and its size is at
//!   most `group.consumer.max.size`. Its members become classic-protocol members of the consumer
//!   group at epoch = generation, keeping their assignment as current and target.
//! * **Downgrade**: when the last consumer-protocol member leaves or is fenced and only classic
//!   members remain (at least one, at most `group.max.size`, the policy allowing it), the group
//!   becomes a classic group at generation = group epoch, with each member's target as its
//!   assignment, and a rebalance starts.

use crate::protocol::{
    ConsumerAssignment, ErrorCode, GroupState, JoinGroupResponse, Response, SyncGroupResponse,
};

use super::consumer::group::{flatten, ConsumerGroup, ConsumerMember};
use super::consumer::{CurrentAssignment, MemberState};
use super::consumer_heartbeat::{
    cancel_member_timers, fence_all, schedule_member_session, state_event, tombstones,
};
use super::event::{ConsumerFenceReason, EventKind, Reason};
use super::group::{Group, Member};
use super::records::{ClassicMemberMetadata, ConsumerGroupMetadataValue, RecordBody};
use super::timers::TimerKey;
use super::{heartbeat, join, load, Coordinator};

impl Coordinator {
    /// Kafka: `validateOnlineUpgrade` — why a non-empty classic group cannot become a consumer
    /// group now (the join then gets `GROUP_ID_NOT_FOUND` with this message), or `None`.
    pub(crate) fn upgrade_refusal(&self, g: &Group) -> Option<String> {
        let id = &g.id;
        let cfg = &self.io.config;
        if !cfg.group_consumer_migration_policy.allows_upgrade() {
            Some(format!(
                "Cannot upgrade classic group {id} to consumer group because online upgrade is disabled."
            ))
        } else if g.protocol_type.as_deref() != Some("consumer") {
            Some(format!(
                "Cannot upgrade classic group {id} to consumer group because the group does not use the consumer \
                 embedded protocol."
            ))
        } else if g.members.len() > cfg.group_consumer_max_size {
            Some(format!(
                "Cannot upgrade classic group {id} to consumer group because the group size exceeds the consumer \
                 group maximum size."
            ))
        } else {
            None
        }
    }

    /// Kafka 4.x: `ConsumerGroup.fromClassicGroup` refuses a classic group whose members'
    /// assignments carry user data ("userData from a custom assignor would be lost"), which
    /// `convertToConsumerGroup` turns into `GROUP_ID_NOT_FOUND` with this message.
    pub(crate) fn custom_assignor_refusal(&self, group_id: &str) -> Option<String> {
        let g = self.groups.get(group_id)?;
        g.members
            .values()
            .any(|m| !m.assignment.user_data.is_empty())
            .then(|| {
                format!(
                    "Cannot upgrade classic group {group_id} to consumer group because an unsupported custom \
                     assignor is in use. Please refer to the documentation or switch to a default assignor \
                     before re-attempting the upgrade."
                )
            })
    }

    /// The first step of `convertToConsumerGroup` (`completeAllJoinFutures`,
    /// `completeAllSyncFutures`): every parked JoinGroup and SyncGroup of the classic group is
    /// answered `REBALANCE_IN_PROGRESS`. It happens even when the conversion then fails (a custom
    /// assignor's user data): the group stays classic and its members rejoin it.
    pub(crate) fn answer_parked_rebalance_in_progress(&mut self, group_id: &str) {
        let Some(g) = self.groups.get_mut(group_id) else {
            return;
        };
        let io = &mut self.io;
        for member_id in g.member_ids_in_join_order() {
            if let Some(p) = g.take_join(&member_id) {
                let resp = JoinGroupResponse::error(ErrorCode::RebalanceInProgress, member_id.clone());
                io.respond(p, Response::JoinGroup(resp));
            }
            if let Some(p) = g.members.get_mut(&member_id).and_then(|m| m.awaiting_sync.take()) {
                io.respond(
                    p,
                    Response::SyncGroup(SyncGroupResponse::error(ErrorCode::RebalanceInProgress)),
                );
            }
        }
    }

    /// Kafka: `convertToConsumerGroup`. Parked JoinGroups and SyncGroups get
    /// `REBALANCE_IN_PROGRESS` (the members rejoin the consumer group); the classic group is
    /// tombstoned and the consumer group's records written; each member's session timer uses its
    /// classic session timeout.
    pub(crate) fn convert_to_consumer_group(&mut self, group_id: &str) {
        let partition = self.partition_for(group_id);
        let now = self.io.now;
        let Some(g) = self.groups.get_mut(group_id) else {
            return;
        };
        let io = &mut self.io;
        for member_id in g.member_ids_in_join_order() {
            if let Some(p) = g.take_join(&member_id) {
                let resp = JoinGroupResponse::error(ErrorCode::RebalanceInProgress, member_id.clone());
                io.respond(p, Response::JoinGroup(resp));
            }
            if let Some(p) = g.members.get_mut(&member_id).and_then(|m| m.awaiting_sync.take()) {
                io.respond(
                    p,
                    Response::SyncGroup(SyncGroupResponse::error(ErrorCode::RebalanceInProgress)),
                );
            }
            io.cancel(TimerKey::Heartbeat {
                group_id: group_id.to_owned(),
                member_id: member_id.clone(),
            });
        }
        for key in [
            TimerKey::Join {
                group_id: group_id.to_owned(),
            },
            TimerKey::Sync {
                group_id: group_id.to_owned(),
            },
        ] {
            io.cancel(key);
        }
        let _ = io.append(
            partition,
            RecordBody::GroupTombstone {
                group_id: group_id.to_owned(),
            },
        );
        // ConsumerGroup.fromClassicGroup.
        let generation = g.generation;
        let protocol = g.protocol_name.clone().unwrap_or_default();
        let mut cg = ConsumerGroup::new();
        cg.group_epoch = generation;
        cg.assignment_epoch = generation;
        let members: Vec<ConsumerMember> = g
            .members_in_join_order()
            .into_iter()
            .map(|m| {
                let sub = m.metadata_for(&protocol);
                let mut c = ConsumerMember::new(m.id.clone());
                c.instance_id = m.instance_id.clone();
                c.rebalance_timeout_ms = m.rebalance_timeout_ms;
                c.client_id = m.client_id.clone();
                c.client_host = m.client_host.clone();
                c.subscribed_topic_names = sub.topics.clone();
                let mut assigned = super::consumer::Partitions::new();
                for tp in &m.assignment.partitions {
                    assigned.entry(tp.topic.clone()).or_default().insert(tp.partition);
                }
                c.current = CurrentAssignment {
                    state: MemberState::Stable,
                    member_epoch: generation,
                    previous_member_epoch: generation,
                    assigned_partitions: assigned.clone(),
                    partitions_pending_revocation: Default::default(),
                };
                c.target = assigned;
                c.classic = Some(ClassicMemberMetadata {
                    session_timeout_ms: m.session_timeout_ms,
                    supported_protocols: m.protocols.clone(),
                });
                c
            })
            .collect();
        for m in &members {
            // Classic assignments never overlap; a conflicting one keeps the first owner.
            let _ = cg.partition_epochs.update_member(None, &m.current);
            cg.put(m.clone());
        }
        cg.recount();
        cg.metadata_hash = cg.compute_metadata_hash(&self.topics);
        // ConsumerGroup.createConsumerGroupRecords.
        for m in &members {
            let _ = io.append(
                partition,
                RecordBody::ConsumerGroupMemberMetadata {
                    group_id: group_id.to_owned(),
                    member_id: m.id.clone(),
                    value: Some(m.metadata_value()),
                },
            );
        }
        // The group's epoch record (the generation carried over, not a bump).
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
        for m in &members {
            let _ = io.append(
                partition,
                RecordBody::ConsumerGroupTargetAssignmentMember {
                    group_id: group_id.to_owned(),
                    member_id: m.id.clone(),
                    partitions: Some(m.target.clone()),
                },
            );
        }
        let _ = io.append(
            partition,
            RecordBody::ConsumerGroupTargetAssignmentMetadata {
                group_id: group_id.to_owned(),
                assignment_epoch: Some(cg.assignment_epoch),
                assignment_timestamp_ms: None,
            },
        );
        for m in &members {
            let _ = io.append(
                partition,
                RecordBody::ConsumerGroupCurrentMemberAssignment {
                    group_id: group_id.to_owned(),
                    member_id: m.id.clone(),
                    value: Some(m.current_value()),
                },
            );
            schedule_member_session(io, group_id, m);
        }
        io.emit(EventKind::GroupTypeConverted {
            group_id: group_id.to_owned(),
            to_consumer: true,
            members: members.len(),
        });
        let offsets = std::mem::take(&mut g.offsets);
        *g = Group::new(group_id.to_owned(), partition, now);
        g.offsets = offsets;
        g.consumer = Some(Box::new(cg));
    }

    /// Fences consumer-group members (a leave, an expired session or revocation deadline, a
    /// classic LeaveGroup), or, if that leaves only classic members and the policy allows it,
    /// downgrades the group to a classic group instead (Kafka: `consumerGroupFenceMembers`).
    pub(crate) fn fence_or_downgrade(
        &mut self,
        group_id: &str,
        member_ids: &[String],
        reason: ConsumerFenceReason,
    ) {
        let partition = self.partition_for(group_id);
        let Some(g) = self.groups.get_mut(group_id) else {
            return;
        };
        let Some(cg) = g.consumer.as_deref_mut() else {
            return;
        };
        let ids: Vec<&str> = member_ids
            .iter()
            .map(String::as_str)
            .filter(|id| cg.members.contains_key(*id))
            .collect();
        if ids.is_empty() {
            return;
        }
        if self.downgrade_allowed(group_id, &ids) {
            let ids: Vec<String> = ids.iter().map(|s| s.to_string()).collect();
            self.convert_to_classic_group(group_id, &ids, Some(reason), None);
            return;
        }
        let Some(cg) = self
            .groups
            .get_mut(group_id)
            .and_then(|g| g.consumer.as_deref_mut())
        else {
            return;
        };
        let before = cg.state();
        fence_all(cg, &mut self.io, &self.topics, group_id, partition, &ids, reason);
        state_event(cg, &mut self.io, group_id, before);
    }

    /// Kafka: `validateOnlineDowngradeWithFencedMembers`.
    fn downgrade_allowed(&self, group_id: &str, leaving: &[&str]) -> bool {
        let Some(cg) = self.groups.get(group_id).and_then(|g| g.consumer.as_deref()) else {
            return false;
        };
        let remaining = cg.members.len() - leaving.len();
        cg.all_classic_except(leaving)
            && remaining > 0
            && self.io.config.group_consumer_migration_policy.allows_downgrade()
            && remaining <= self.io.config.group_max_size
    }

    /// Kafka: `convertToClassicGroup`: the consumer group's records are tombstoned, the classic
    /// group's written (Stable at generation = group epoch, each member with its target as
    /// assignment) and the members' heartbeats rescheduled. For leaving members (`reason` set) a
    /// rebalance starts; for a static member replaced by a classic one (the newcomer is already in
    /// the group, `leaving` empty) only if `replaced_with_new_subscription` names the newcomer.
    pub(crate) fn convert_to_classic_group(
        &mut self,
        group_id: &str,
        leaving: &[String],
        reason: Option<ConsumerFenceReason>,
        replaced_with_new_subscription: Option<String>,
    ) {
        let partition = self.partition_for(group_id);
        let now = self.io.now;
        let Some(g) = self.groups.get_mut(group_id) else {
            return;
        };
        let Some(cg) = g.consumer.take() else { return };
        let io = &mut self.io;
        if let Some(reason) = reason {
            for id in leaving {
                io.emit(EventKind::ConsumerMemberFenced {
                    group_id: group_id.to_owned(),
                    member_id: id.clone(),
                    reason,
                });
            }
        }
        // ConsumerGroup.createGroupTombstoneRecords: every member's records, then the group's.
        for id in cg.members.keys() {
            tombstones(io, group_id, partition, id);
            cancel_member_timers(io, group_id, id);
        }
        for body in [
            RecordBody::ConsumerGroupTargetAssignmentMetadata {
                group_id: group_id.to_owned(),
                assignment_epoch: None,
                assignment_timestamp_ms: None,
            },
            RecordBody::ConsumerGroupMetadata {
                group_id: group_id.to_owned(),
                value: None,
            },
        ] {
            let _ = io.append(partition, body);
        }
        // ClassicGroup.fromConsumerGroup.
        let offsets = std::mem::take(&mut g.offsets);
        *g = Group::new(group_id.to_owned(), partition, now);
        g.offsets = offsets;
        g.generation = cg.group_epoch;
        g.protocol_type = Some("consumer".into());
        let mut remaining: Vec<&ConsumerMember> =
            cg.members.values().filter(|m| !leaving.contains(&m.id)).collect();
        // The classic group lists members in join order; the consumer group has none: id order.
        remaining.sort_by(|a, b| a.id.cmp(&b.id));
        for m in &remaining {
            let classic = m.classic.clone().expect("only classic members remain");
            g.add_member(Member {
                id: m.id.clone(),
                instance_id: m.instance_id.clone(),
                client_id: m.client_id.clone(),
                client_host: m.client_host.clone(),
                rebalance_timeout_ms: m.rebalance_timeout_ms,
                session_timeout_ms: classic.session_timeout_ms,
                protocol_type: "consumer".into(),
                protocols: classic.supported_protocols,
                assignment: ConsumerAssignment {
                    partitions: flatten(&m.target),
                    user_data: Vec::new(),
                },
                awaiting_join: None,
                awaiting_sync: None,
                is_new: false,
                join_seq: 0,
            });
        }
        g.protocol_name = g.select_protocol().0;
        g.leader = g.earliest_member(|_| true);
        g.state = GroupState::Stable;
        g.previous_state = GroupState::Stable;
        g.subscribed_topics = g.compute_subscribed_topics();
        let record = load::group_metadata_record(g, None);
        let _ = io.append(partition, RecordBody::GroupMetadata(record));
        io.emit(EventKind::GroupTypeConverted {
            group_id: group_id.to_owned(),
            to_consumer: false,
            members: remaining.len(),
        });
        for id in g.member_ids_in_join_order() {
            heartbeat::reschedule(g, io, &id);
        }
        if reason.is_some() {
            join::prepare_rebalance(g, io, Reason::Downgraded);
        } else if let Some(member_id) = replaced_with_new_subscription {
            // "Downgrade group %s from consumer to classic for static member replacement with
            // different subscription."
            join::prepare_rebalance(g, io, Reason::StaticMemberReplaced { member_id });
        }
    }
}
