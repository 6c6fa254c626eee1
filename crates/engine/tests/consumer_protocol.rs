//! The consumer protocol's messages (KIP-848): Kafka's field names in snake case, nullable fields as
//! `Option`s, error codes serialized by name.

use rebalance_engine::protocol::*;
use serde_json::{json, Value};

/// The object's field names, sorted (serde_json's map is sorted by key).
fn keys(v: &Value) -> Vec<&str> {
    v.as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect()
}

/// `names` sorted, so that the expectations can list fields in Kafka's schema order.
fn sorted<const N: usize>(mut names: [&'static str; N]) -> Vec<&'static str> {
    names.sort_unstable();
    names.to_vec()
}

#[test]
fn heartbeat_request_fields_are_kafkas_in_snake_case() {
    let join = ConsumerGroupHeartbeatRequest {
        group_id: "g".into(),
        member_id: "m".into(),
        rebalance_timeout_ms: 300_000,
        subscribed_topic_names: Some(vec!["orders".into()]),
        topic_partitions: Some(vec![]),
        ..Default::default()
    };
    let v = serde_json::to_value(&join).unwrap();
    assert_eq!(
        keys(&v),
        sorted([
            "api_version",
            "client_host",
            "client_id",
            "group_id",
            "instance_id",
            "member_epoch",
            "member_id",
            "rack_id",
            "rebalance_timeout_ms",
            "server_assignor",
            "subscribed_topic_names",
            "subscribed_topic_regex",
            "topic_partitions",
        ])
    );
    // Nullable fields are null when unchanged; the join epoch is 0.
    assert_eq!(v["instance_id"], Value::Null);
    assert_eq!(v["subscribed_topic_regex"], Value::Null);
    assert_eq!(v["member_epoch"], json!(0));
    assert_eq!(v["topic_partitions"], json!([]));
    let back: ConsumerGroupHeartbeatRequest = serde_json::from_value(v).unwrap();
    assert_eq!(back, join);
}

#[test]
fn a_default_heartbeat_changes_nothing() {
    // Kafka's schema defaults: every nullable field null, RebalanceTimeoutMs -1, latest version.
    let r = ConsumerGroupHeartbeatRequest::default();
    assert_eq!(r.api_version, 1);
    assert_eq!(r.rebalance_timeout_ms, -1);
    assert!(r.subscribed_topic_names.is_none() && r.topic_partitions.is_none());
    assert!(!r.is_full());
}

#[test]
fn heartbeat_response_carries_the_assignment_by_topic_id() {
    let ok = ConsumerGroupHeartbeatResponse {
        error_code: ErrorCode::None,
        error_message: None,
        member_id: Some("m".into()),
        member_epoch: 11,
        heartbeat_interval_ms: 5000,
        assignment: Some(ConsumerGroupHeartbeatAssignment {
            topic_partitions: vec![ConsumerGroupHeartbeatTopicPartitions {
                topic_id: TopicId("orders-id".into()),
                partitions: vec![0, 2],
            }],
        }),
    };
    let v = serde_json::to_value(&ok).unwrap();
    assert_eq!(
        v,
        json!({
            "error_code": "None",
            "error_message": null,
            "member_id": "m",
            "member_epoch": 11,
            "heartbeat_interval_ms": 5000,
            "assignment": {"topic_partitions": [{"topic_id": "orders-id", "partitions": [0, 2]}]}
        })
    );
    assert_eq!(
        serde_json::from_value::<ConsumerGroupHeartbeatResponse>(v).unwrap(),
        ok
    );
}

#[test]
fn an_error_response_has_only_the_error_fields() {
    let r = ConsumerGroupHeartbeatResponse::error(ErrorCode::InvalidRequest, "MemberId can't be empty.");
    let v = serde_json::to_value(&r).unwrap();
    assert_eq!(v["error_code"], json!("InvalidRequest"));
    assert_eq!(v["member_id"], Value::Null);
    assert_eq!(v["member_epoch"], json!(0));
    assert_eq!(v["heartbeat_interval_ms"], json!(0));
    assert_eq!(v["assignment"], Value::Null);
}

#[test]
fn error_codes_serialize_by_name_whether_classic_or_new() {
    // The variant name, as phase 1's `ConsumerErrorCode` spelled it: folding the new codes into
    // ErrorCode changed no trace.
    for (code, name) in [
        (ErrorCode::UnknownMemberId, "UnknownMemberId"),
        (ErrorCode::FencedMemberEpoch, "FencedMemberEpoch"),
        (ErrorCode::UnreleasedInstanceId, "UnreleasedInstanceId"),
        (ErrorCode::StaleMemberEpoch, "StaleMemberEpoch"),
    ] {
        let v = serde_json::to_value(code).unwrap();
        assert_eq!(v, json!(name));
        assert_eq!(serde_json::from_value::<ErrorCode>(v).unwrap(), code);
    }
    assert!(serde_json::from_value::<ErrorCode>(json!("Nope")).is_err());
    for e in CONSUMER_ONLY_ERROR_CODES {
        assert_eq!(ErrorCode::from_code(e.code()), Some(e));
    }
}

#[test]
fn describe_has_every_field_of_kafkas_schema() {
    let member = ConsumerGroupDescribedMember {
        member_id: "m".into(),
        instance_id: None,
        rack_id: Some("r1".into()),
        member_epoch: 3,
        client_id: "c".into(),
        client_host: "/10.0.0.1".into(),
        subscribed_topic_names: vec!["orders".into()],
        subscribed_topic_regex: None,
        assignment: ConsumerGroupDescribeAssignment {
            topic_partitions: vec![ConsumerGroupDescribeTopicPartitions {
                topic_id: TopicId("id".into()),
                topic_name: "orders".into(),
                partitions: vec![1],
            }],
        },
        target_assignment: ConsumerGroupDescribeAssignment::default(),
        member_type: MEMBER_TYPE_CONSUMER,
    };
    let group = ConsumerGroupDescribedGroup {
        error_code: ErrorCode::None,
        error_message: None,
        group_id: "g".into(),
        group_state: "Stable".into(),
        group_epoch: 3,
        assignment_epoch: 3,
        assignor_name: "uniform".into(),
        members: vec![member],
        authorized_operations: AUTHORIZED_OPERATIONS_OMITTED,
    };
    let v = serde_json::to_value(ConsumerGroupDescribeResponse { groups: vec![group] }).unwrap();
    let g = &v["groups"][0];
    assert_eq!(
        keys(g),
        sorted([
            "error_code",
            "error_message",
            "group_id",
            "group_state",
            "group_epoch",
            "assignment_epoch",
            "assignor_name",
            "members",
            "authorized_operations",
        ])
    );
    assert_eq!(
        keys(&g["members"][0]),
        sorted([
            "member_id",
            "instance_id",
            "rack_id",
            "member_epoch",
            "client_id",
            "client_host",
            "subscribed_topic_names",
            "subscribed_topic_regex",
            "assignment",
            "target_assignment",
            "member_type",
        ])
    );
    assert_eq!(
        g["members"][0]["assignment"]["topic_partitions"][0],
        json!({"topic_id": "id", "topic_name": "orders", "partitions": [1]})
    );
    assert_eq!(g["authorized_operations"], json!(i32::MIN));
    let req = serde_json::to_value(ConsumerGroupDescribeRequest::default()).unwrap();
    assert_eq!(keys(&req), sorted(["group_ids", "include_authorized_operations"]));
}

#[test]
fn an_unknown_group_is_described_with_an_empty_state() {
    let g = ConsumerGroupDescribedGroup::error("g", ErrorCode::GroupIdNotFound, "Group g not found.");
    assert_eq!(g.error_code.code(), 69);
    assert_eq!(g.group_state, "");
    assert!(g.members.is_empty());
}
