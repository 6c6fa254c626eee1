//! Every field of a protocol message as (name, value) rows, for an inspector. Names are Kafka's
//! own field names from its JSON message schemas, so they are not translated.

use crate::network::Payload;
use crate::protocol::{
    ConsumerAssignment, ConsumerGroupHeartbeatTopicPartitions, ConsumerSubscription, JoinGroupProtocol,
    TopicPartition,
};
use crate::protocol::{Request, Response};

/// One row: a field name, its value, and how deep it is nested.
pub type Row = (String, String, u8);

fn tps(ps: &[TopicPartition]) -> String {
    if ps.is_empty() {
        "[]".into()
    } else {
        format!(
            "[{}]",
            ps.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
        )
    }
}

fn opt(v: &Option<String>) -> String {
    v.clone().unwrap_or_else(|| "null".into())
}

fn quoted_empty(s: &str) -> &str {
    if s.is_empty() {
        "\"\""
    } else {
        s
    }
}

/// Heartbeat topic partitions: a count row, then one row per topic id.
fn id_parts(rows: &mut Vec<Row>, name: &str, ts: &[ConsumerGroupHeartbeatTopicPartitions], depth: u8) {
    row(rows, name, ts.len(), depth);
    for t in ts {
        row(rows, &t.topic_id.0, format!("{:?}", t.partitions), depth + 1);
    }
}

fn row(rows: &mut Vec<Row>, name: &str, value: impl ToString, depth: u8) {
    rows.push((name.to_owned(), value.to_string(), depth));
}

fn subscription(rows: &mut Vec<Row>, m: &ConsumerSubscription, depth: u8) {
    row(rows, "topics", format!("[{}]", m.topics.join(", ")), depth);
    row(rows, "ownedPartitions", tps(&m.owned_partitions), depth);
    row(rows, "generationId", m.generation_id, depth);
    if !m.user_data.is_empty() {
        row(rows, "userData", format!("{} bytes", m.user_data.len()), depth);
    }
}

fn protocols(rows: &mut Vec<Row>, ps: &[JoinGroupProtocol]) {
    row(rows, "protocols", format!("{} ", ps.len()), 0);
    for p in ps {
        row(rows, "name", &p.name, 1);
        subscription(rows, &p.metadata, 2);
    }
}

fn assignment(rows: &mut Vec<Row>, a: &ConsumerAssignment, depth: u8) {
    row(rows, "assignment", tps(&a.partitions), depth);
}

/// The rows of a request or response.
pub fn payload_rows(p: &Payload) -> Vec<Row> {
    let mut r = Vec::new();
    match p {
        Payload::Request(req) => match req {
            Request::FindCoordinator(x) => {
                row(&mut r, "key", &x.key, 0);
                row(&mut r, "keyType", "GROUP", 0);
            }
            Request::JoinGroup(x) => {
                row(&mut r, "apiVersion", x.api_version, 0);
                row(&mut r, "groupId", &x.group_id, 0);
                row(
                    &mut r,
                    "memberId",
                    if x.member_id.is_empty() {
                        "\"\""
                    } else {
                        &x.member_id
                    },
                    0,
                );
                row(&mut r, "groupInstanceId", opt(&x.group_instance_id), 0);
                row(&mut r, "clientId", &x.client_id, 0);
                row(&mut r, "protocolType", &x.protocol_type, 0);
                row(&mut r, "sessionTimeoutMs", x.session_timeout_ms, 0);
                row(&mut r, "rebalanceTimeoutMs", x.rebalance_timeout_ms, 0);
                row(&mut r, "reason", opt(&x.reason), 0);
                protocols(&mut r, &x.protocols);
            }
            Request::SyncGroup(x) => {
                row(&mut r, "groupId", &x.group_id, 0);
                row(&mut r, "generationId", x.generation_id, 0);
                row(&mut r, "memberId", &x.member_id, 0);
                row(&mut r, "groupInstanceId", opt(&x.group_instance_id), 0);
                row(&mut r, "protocolName", opt(&x.protocol_name), 0);
                row(&mut r, "assignments", x.assignments.len(), 0);
                for a in &x.assignments {
                    row(&mut r, "memberId", &a.member_id, 1);
                    assignment(&mut r, &a.assignment, 2);
                }
            }
            Request::Heartbeat(x) => {
                row(&mut r, "groupId", &x.group_id, 0);
                row(&mut r, "generationId", x.generation_id, 0);
                row(&mut r, "memberId", &x.member_id, 0);
                row(&mut r, "groupInstanceId", opt(&x.group_instance_id), 0);
            }
            Request::LeaveGroup(x) => {
                row(&mut r, "groupId", &x.group_id, 0);
                row(&mut r, "members", x.members.len(), 0);
                for m in &x.members {
                    row(&mut r, "memberId", &m.member_id, 1);
                    row(&mut r, "groupInstanceId", opt(&m.group_instance_id), 1);
                    row(&mut r, "reason", opt(&m.reason), 1);
                }
            }
            Request::OffsetCommit(x) => {
                row(&mut r, "apiVersion", x.api_version, 0);
                row(&mut r, "groupId", &x.group_id, 0);
                row(&mut r, "generationIdOrMemberEpoch", x.generation_id, 0);
                row(&mut r, "memberId", &x.member_id, 0);
                row(&mut r, "groupInstanceId", opt(&x.group_instance_id), 0);
                for p in &x.partitions {
                    row(
                        &mut r,
                        &format!("{}-{}", p.topic, p.partition),
                        format!("committedOffset {}", p.committed_offset),
                        1,
                    );
                }
            }
            Request::OffsetFetch(x) => {
                row(&mut r, "groupId", &x.group_id, 0);
                row(
                    &mut r,
                    "partitions",
                    x.partitions.as_ref().map_or("null (all)".into(), |ps| tps(ps)),
                    0,
                );
                row(&mut r, "requireStable", x.require_stable, 0);
            }
            Request::DescribeGroups(x) => row(&mut r, "groups", x.group_ids.join(", "), 0),
            Request::ListGroups(x) => row(
                &mut r,
                "statesFilter",
                format!("[{}]", x.states_filter.join(", ")),
                0,
            ),
            Request::DeleteGroups(x) => row(&mut r, "groupsNames", x.group_ids.join(", "), 0),
            Request::ConsumerGroupHeartbeat(x) => {
                row(&mut r, "apiVersion", x.api_version, 0);
                row(&mut r, "groupId", &x.group_id, 0);
                row(&mut r, "memberId", quoted_empty(&x.member_id), 0);
                row(&mut r, "memberEpoch", x.member_epoch, 0);
                row(&mut r, "instanceId", opt(&x.instance_id), 0);
                row(&mut r, "rackId", opt(&x.rack_id), 0);
                row(&mut r, "rebalanceTimeoutMs", x.rebalance_timeout_ms, 0);
                row(
                    &mut r,
                    "subscribedTopicNames",
                    x.subscribed_topic_names
                        .as_ref()
                        .map_or("null".into(), |t| format!("[{}]", t.join(", "))),
                    0,
                );
                row(&mut r, "subscribedTopicRegex", opt(&x.subscribed_topic_regex), 0);
                row(&mut r, "serverAssignor", opt(&x.server_assignor), 0);
                match &x.topic_partitions {
                    None => row(&mut r, "topicPartitions", "null", 0),
                    Some(ts) => id_parts(&mut r, "topicPartitions", ts, 0),
                }
            }
            Request::ConsumerGroupDescribe(x) => {
                row(&mut r, "groupIds", x.group_ids.join(", "), 0);
                row(
                    &mut r,
                    "includeAuthorizedOperations",
                    x.include_authorized_operations,
                    0,
                );
            }
        },
        Payload::Response(resp) => match resp {
            Response::FindCoordinator(x) => {
                row(&mut r, "errorCode", x.error_code.name(), 0);
                row(&mut r, "nodeId", x.node_id.0, 0);
                row(&mut r, "partition (playground)", x.partition, 0);
            }
            Response::JoinGroup(x) => {
                row(&mut r, "errorCode", x.error_code.name(), 0);
                row(&mut r, "generationId", x.generation_id, 0);
                row(&mut r, "protocolType", opt(&x.protocol_type), 0);
                row(&mut r, "protocolName", opt(&x.protocol_name), 0);
                row(
                    &mut r,
                    "leader",
                    if x.leader.is_empty() { "\"\"" } else { &x.leader },
                    0,
                );
                row(&mut r, "skipAssignment", x.skip_assignment, 0);
                row(&mut r, "memberId", &x.member_id, 0);
                row(&mut r, "members", x.members.len(), 0);
                for m in &x.members {
                    row(&mut r, "memberId", &m.member_id, 1);
                    row(&mut r, "groupInstanceId", opt(&m.group_instance_id), 1);
                    subscription(&mut r, &m.metadata, 2);
                }
            }
            Response::SyncGroup(x) => {
                row(&mut r, "errorCode", x.error_code.name(), 0);
                row(&mut r, "protocolType", opt(&x.protocol_type), 0);
                row(&mut r, "protocolName", opt(&x.protocol_name), 0);
                assignment(&mut r, &x.assignment, 0);
            }
            Response::Heartbeat(x) => row(&mut r, "errorCode", x.error_code.name(), 0),
            Response::LeaveGroup(x) => {
                row(&mut r, "errorCode", x.error_code.name(), 0);
                for m in &x.members {
                    row(&mut r, "memberId", &m.member_id, 1);
                    row(&mut r, "errorCode", m.error_code.name(), 1);
                }
            }
            Response::OffsetCommit(x) => {
                for p in &x.partitions {
                    row(
                        &mut r,
                        &format!("{}-{}", p.topic, p.partition),
                        p.error_code.name(),
                        0,
                    );
                }
            }
            Response::OffsetFetch(x) => {
                row(&mut r, "errorCode", x.error_code.name(), 0);
                for p in &x.partitions {
                    row(
                        &mut r,
                        &format!("{}-{}", p.topic, p.partition),
                        format!("committedOffset {} ({})", p.committed_offset, p.error_code.name()),
                        1,
                    );
                }
            }
            Response::DescribeGroups(x) => {
                for g in &x.groups {
                    row(&mut r, "groupId", &g.group_id, 0);
                    row(&mut r, "groupState", g.group_state.name(), 1);
                }
            }
            Response::ListGroups(x) => {
                row(&mut r, "errorCode", x.error_code.name(), 0);
                for g in &x.groups {
                    row(&mut r, "groupId", &g.group_id, 0);
                    row(&mut r, "protocolType", &g.protocol_type, 1);
                    row(&mut r, "groupState", g.group_state.name(), 1);
                }
            }
            Response::DeleteGroups(x) => {
                for g in &x.results {
                    row(&mut r, "groupId", &g.group_id, 0);
                    row(&mut r, "errorCode", g.error_code.name(), 1);
                }
            }
            Response::ConsumerGroupHeartbeat(x) => {
                row(&mut r, "errorCode", x.error_code.name(), 0);
                row(&mut r, "errorMessage", opt(&x.error_message), 0);
                row(&mut r, "memberId", opt(&x.member_id), 0);
                row(&mut r, "memberEpoch", x.member_epoch, 0);
                row(&mut r, "heartbeatIntervalMs", x.heartbeat_interval_ms, 0);
                match &x.assignment {
                    None => row(&mut r, "assignment", "null", 0),
                    Some(a) => id_parts(&mut r, "assignment", &a.topic_partitions, 0),
                }
            }
            Response::ConsumerGroupDescribe(x) => {
                for g in &x.groups {
                    row(&mut r, "groupId", &g.group_id, 0);
                    row(&mut r, "errorCode", g.error_code.name(), 1);
                    row(&mut r, "groupState", &g.group_state, 1);
                    row(&mut r, "groupEpoch", g.group_epoch, 1);
                    row(&mut r, "assignmentEpoch", g.assignment_epoch, 1);
                    row(&mut r, "assignorName", &g.assignor_name, 1);
                    for m in &g.members {
                        row(&mut r, "memberId", &m.member_id, 1);
                        row(&mut r, "memberEpoch", m.member_epoch, 2);
                        row(&mut r, "instanceId", opt(&m.instance_id), 2);
                        row(
                            &mut r,
                            "subscribedTopicNames",
                            format!("[{}]", m.subscribed_topic_names.join(", ")),
                            2,
                        );
                        let parts = |a: &crate::protocol::ConsumerGroupDescribeAssignment| {
                            a.topic_partitions
                                .iter()
                                .map(|t| format!("{}: {:?}", t.topic_name, t.partitions))
                                .collect::<Vec<_>>()
                                .join("; ")
                        };
                        row(&mut r, "assignment", parts(&m.assignment), 2);
                        row(&mut r, "targetAssignment", parts(&m.target_assignment), 2);
                    }
                }
            }
        },
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::ErrorCode;
    use crate::protocol::{JoinGroupRequest, JoinGroupResponse};

    #[test]
    fn a_join_group_shows_its_member_id_and_protocol_metadata() {
        let req = JoinGroupRequest {
            member_id: "C1-1".into(),
            protocols: vec![JoinGroupProtocol {
                name: "range".into(),
                metadata: ConsumerSubscription::to_topics(["t"]),
            }],
            ..JoinGroupRequest::default()
        };
        let rows = payload_rows(&Payload::Request(Request::JoinGroup(req)));
        assert!(rows.iter().any(|(k, v, _)| k == "memberId" && v == "C1-1"));
        assert!(rows
            .iter()
            .any(|(k, v, d)| k == "name" && v == "range" && *d == 1));
        assert!(rows
            .iter()
            .any(|(k, v, d)| k == "topics" && v == "[t]" && *d == 2));
    }

    #[test]
    fn an_error_response_shows_its_code() {
        let resp = JoinGroupResponse::error(ErrorCode::MemberIdRequired, "C1-1");
        let rows = payload_rows(&Payload::Response(Response::JoinGroup(resp)));
        assert_eq!(rows[0], ("errorCode".into(), "MEMBER_ID_REQUIRED".into(), 0));
    }
}
