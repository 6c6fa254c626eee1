//! DescribeGroups (Kafka: `GroupMetadataManager.describeGroups`) and read-only views for the UI.

use serde::{Deserialize, Serialize};

use crate::protocol::{
    ConsumerAssignment, DescribeGroupsRequest, DescribeGroupsResponse, DescribedGroup, DescribedMember,
    ErrorCode, GroupState, JoinGroupProtocol, TopicPartition,
};
use crate::time::SimTime;

use super::group::{CommittedOffset, Group};
use super::timers::{Timer, TimerKey, TimerKind};
use super::Coordinator;

/// Everything about one group, for a UI or a test: more than DescribeGroups tells.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupSnapshot {
    /// The group id.
    pub group_id: String,
    /// Its `__consumer_offsets` partition.
    pub partition: i32,
    /// Its state.
    pub state: GroupState,
    /// The state before.
    pub previous_state: GroupState,
    /// When it entered `state`.
    pub state_since: SimTime,
    /// The generation.
    pub generation_id: i32,
    /// The protocol type.
    pub protocol_type: Option<String>,
    /// The selected protocol.
    pub protocol_name: Option<String>,
    /// The leader.
    pub leader: Option<String>,
    /// The members, in join order.
    pub members: Vec<MemberSnapshot>,
    /// Ids handed out with MEMBER_ID_REQUIRED that have not joined yet.
    pub pending_members: Vec<String>,
    /// Members that got this generation's JoinGroup response but have not sent SyncGroup.
    pub pending_sync_members: Vec<String>,
    /// Whether a member arrived during the current initial delay (it will be extended).
    pub new_member_added: bool,
    /// The topics the members subscribe to (consumer protocol only).
    pub subscribed_topics: Option<Vec<String>>,
    /// The committed offsets.
    pub offsets: Vec<(TopicPartition, CommittedOffset)>,
    /// The group's timers (join, sync, and every member's session), by deadline.
    pub timers: Vec<Timer>,
}

/// One member in a [`GroupSnapshot`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberSnapshot {
    /// The member id.
    pub member_id: String,
    /// Its `group.instance.id`, if static.
    pub group_instance_id: Option<String>,
    /// Its client id.
    pub client_id: String,
    /// Its host.
    pub client_host: String,
    /// Its session timeout.
    pub session_timeout_ms: i32,
    /// Its rebalance timeout.
    pub rebalance_timeout_ms: i32,
    /// Its protocols, in preference order.
    pub protocols: Vec<JoinGroupProtocol>,
    /// Its stored assignment.
    pub assignment: ConsumerAssignment,
    /// Whether a JoinGroup of it is parked.
    pub awaiting_join: bool,
    /// Whether a SyncGroup of it is parked.
    pub awaiting_sync: bool,
    /// Whether it was added in the current join phase (300 s join timeout applies).
    pub is_new: bool,
    /// Whether it leads the group.
    pub is_leader: bool,
    /// Its session deadline and the timer's kind.
    pub session_deadline: Option<(SimTime, TimerKind)>,
}

impl Coordinator {
    pub(crate) fn describe_groups_response(&self, req: &DescribeGroupsRequest) -> DescribeGroupsResponse {
        DescribeGroupsResponse {
            groups: req
                .group_ids
                .iter()
                .map(|id| match self.partition_error(id) {
                    Some(e) => DescribedGroup {
                        error_code: e,
                        group_id: id.clone(),
                        group_state: GroupState::Dead,
                        protocol_type: String::new(),
                        protocol_data: String::new(),
                        members: Vec::new(),
                    },
                    None => self.describe_group(id),
                })
                .collect(),
        }
    }

    /// What DescribeGroups would say about a group, without going through a request: an unknown
    /// group is Dead with no members; member metadata and the protocol only in Stable.
    pub fn describe_group(&self, group_id: &str) -> DescribedGroup {
        // A consumer group is not a classic group: Dead, as for an unknown id (Kafka answers
        // GROUP_ID_NOT_FOUND from DescribeGroups v6, which the playground does not model).
        let Some(g) = self.groups.get(group_id).filter(|g| g.consumer.is_none()) else {
            return DescribedGroup {
                error_code: ErrorCode::None,
                group_id: group_id.to_owned(),
                group_state: GroupState::Dead,
                protocol_type: String::new(),
                protocol_data: String::new(),
                members: Vec::new(),
            };
        };
        let stable = g.is(GroupState::Stable);
        let protocol = g.protocol_name.clone().unwrap_or_default();
        DescribedGroup {
            error_code: ErrorCode::None,
            group_id: g.id.clone(),
            group_state: g.state,
            protocol_type: g.protocol_type.clone().unwrap_or_default(),
            protocol_data: if stable { protocol.clone() } else { String::new() },
            members: g
                .members_in_join_order()
                .into_iter()
                .map(|m| DescribedMember {
                    member_id: m.id.clone(),
                    group_instance_id: m.instance_id.clone(),
                    client_id: m.client_id.clone(),
                    client_host: m.client_host.clone(),
                    metadata: stable.then(|| m.metadata_for(&protocol)),
                    assignment: m.assignment.clone(),
                })
                .collect(),
        }
    }

    /// Everything about a group, for a UI.
    pub fn group_snapshot(&self, group_id: &str) -> Option<GroupSnapshot> {
        self.groups.get(group_id).map(|g| self.snapshot(g))
    }

    fn snapshot(&self, g: &Group) -> GroupSnapshot {
        GroupSnapshot {
            group_id: g.id.clone(),
            partition: g.partition,
            state: g.state,
            previous_state: g.previous_state,
            state_since: g.state_timestamp,
            generation_id: g.generation,
            protocol_type: g.protocol_type.clone(),
            protocol_name: g.protocol_name.clone(),
            leader: g.leader.clone(),
            members: g
                .members_in_join_order()
                .into_iter()
                .map(|m| MemberSnapshot {
                    member_id: m.id.clone(),
                    group_instance_id: m.instance_id.clone(),
                    client_id: m.client_id.clone(),
                    client_host: m.client_host.clone(),
                    session_timeout_ms: m.session_timeout_ms,
                    rebalance_timeout_ms: m.rebalance_timeout_ms,
                    protocols: m.protocols.clone(),
                    assignment: m.assignment.clone(),
                    awaiting_join: m.awaiting_join.is_some(),
                    awaiting_sync: m.awaiting_sync.is_some(),
                    is_new: m.is_new,
                    is_leader: g.is_leader(&m.id),
                    session_deadline: self.io.timers.get(&TimerKey::Heartbeat {
                        group_id: g.id.clone(),
                        member_id: m.id.clone(),
                    }),
                })
                .collect(),
            pending_members: g.pending_join.iter().cloned().collect(),
            pending_sync_members: g.pending_sync.iter().cloned().collect(),
            new_member_added: g.new_member_added,
            subscribed_topics: g.subscribed_topics.as_ref().map(|t| t.iter().cloned().collect()),
            offsets: g.offsets.iter().map(|(tp, o)| (tp.clone(), o.clone())).collect(),
            timers: self
                .io
                .timers
                .iter()
                .filter(|t| t.key.group_id() == Some(g.id.as_str()))
                .collect(),
        }
    }
}

// ------------------------------------------------------------------------ ConsumerGroupDescribe

impl Coordinator {
    /// ConsumerGroupDescribe (API 69; Kafka: `GroupMetadataManager.consumerGroupDescribe`): each
    /// group's state name, epochs, assignor and members with their current and target assignments;
    /// `GROUP_ID_NOT_FOUND` for an unknown id or one that is not a consumer group.
    pub(crate) fn consumer_group_describe_response(
        &self,
        req: &crate::protocol::ConsumerGroupDescribeRequest,
    ) -> crate::protocol::ConsumerGroupDescribeResponse {
        use crate::protocol::{
            ConsumerGroupDescribeAssignment, ConsumerGroupDescribeResponse,
            ConsumerGroupDescribeTopicPartitions, ConsumerGroupDescribedGroup, ConsumerGroupDescribedMember,
            TopicId, AUTHORIZED_OPERATIONS_OMITTED, MEMBER_TYPE_CLASSIC, MEMBER_TYPE_CONSUMER,
        };
        let asg = |p: &super::consumer::Partitions| ConsumerGroupDescribeAssignment {
            topic_partitions: p
                .iter()
                .filter(|(_, ps)| !ps.is_empty())
                .map(|(t, ps)| ConsumerGroupDescribeTopicPartitions {
                    topic_id: TopicId(t.clone()),
                    topic_name: t.clone(),
                    partitions: ps.iter().copied().collect(),
                })
                .collect(),
        };
        let groups = req
            .group_ids
            .iter()
            .map(|id| {
                if let Some(e) = self.partition_error(id) {
                    return ConsumerGroupDescribedGroup::error(id.clone(), e, e.name());
                }
                let Some(cg) = self.groups.get(id).and_then(|g| g.consumer.as_deref()) else {
                    let msg = if self.groups.contains_key(id) {
                        format!("Group {id} is not a consumer group.")
                    } else {
                        format!("Group {id} not found.")
                    };
                    return ConsumerGroupDescribedGroup::error(id.clone(), ErrorCode::GroupIdNotFound, msg);
                };
                ConsumerGroupDescribedGroup {
                    error_code: ErrorCode::None,
                    error_message: None,
                    group_id: id.clone(),
                    group_state: cg.state().name().to_owned(),
                    group_epoch: cg.group_epoch,
                    assignment_epoch: cg.assignment_epoch,
                    assignor_name: cg.preferred_assignor().name().to_owned(),
                    members: cg
                        .members
                        .values()
                        .map(|m| ConsumerGroupDescribedMember {
                            member_id: m.id.clone(),
                            instance_id: m.instance_id.clone(),
                            rack_id: m.rack_id.clone(),
                            member_epoch: m.current.member_epoch,
                            client_id: m.client_id.clone(),
                            client_host: m.client_host.clone(),
                            subscribed_topic_names: m.subscribed_topic_names.clone(),
                            subscribed_topic_regex: m.subscribed_topic_regex.clone(),
                            assignment: asg(&m.current.assigned_partitions),
                            target_assignment: asg(&m.target),
                            member_type: if m.classic.is_some() {
                                MEMBER_TYPE_CLASSIC
                            } else {
                                MEMBER_TYPE_CONSUMER
                            },
                        })
                        .collect(),
                    authorized_operations: AUTHORIZED_OPERATIONS_OMITTED,
                }
            })
            .collect();
        ConsumerGroupDescribeResponse { groups }
    }
}
