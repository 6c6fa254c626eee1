//! Mixed groups, the parts of reference §10 (and §8.6's last rule) about static members and
//! custom assignors, rule by rule, checked against Kafka 4.x's `GroupMetadataManager`
//! (`classicGroupJoinToConsumerGroup`, `getOrMaybeSubscribeStaticConsumerGroupMember`,
//! `validateOnlineDowngradeWithReplacedMember`, `convertToClassicGroup`,
//! `convertToConsumerGroup`) and `ConsumerGroup` (`fromClassicGroup`,
//! `supportsClassicProtocols`):
//!
//! * a classic JoinGroup with the `group.instance.id` of a consumer-protocol static member replaces
//!   it whatever its epoch; if it was the group's last consumer-protocol member the group
//!   downgrades to a classic group at once (Stable, no rebalance unless the subscription differs);
//! * a ConsumerGroupHeartbeat join with the instance id of a *classic* static member replaces it
//!   even though it never left with -2 (UNRELEASED_INSTANCE_ID binds two consumer-protocol
//!   members only);
//! * an online upgrade is refused (GROUP_ID_NOT_FOUND) when an assignment carries a custom
//!   assignor's user data, after the parked JoinGroups and SyncGroups were answered;
//! * a classic member may join a consumer group with any assignor name the group's classic members
//!   all support; its user data is not kept.

mod common;

use rebalance_engine::collections::Map;

use common::*;
use rebalance_engine::protocol::*;
use rebalance_engine::{
    CoordinatorConfig, EventKind, KafkaRelease, MigrationPolicy, Reason, Request, Response,
};

/// Kafka 4.1's coordinator with this migration policy and no initial rebalance delay.
fn config_with(policy: MigrationPolicy) -> CoordinatorConfig {
    CoordinatorConfig {
        kafka_version: KafkaRelease::V4_1,
        group_consumer_migration_policy: policy,
        group_initial_rebalance_delay_ms: 0,
        ..config()
    }
}

fn harness(policy: MigrationPolicy) -> Harness {
    harness_with(config_with(policy))
}

/// A coordinator with `cfg` that knows topics foo (3 partitions) and bar (2).
fn harness_with(cfg: CoordinatorConfig) -> Harness {
    let mut h = Harness::with_config(cfg);
    h.coord
        .set_topic_metadata(Map::from([("foo".to_string(), 3), ("bar".to_string(), 2)]));
    h
}

fn join_hb(member: &str, instance: Option<&str>) -> ConsumerGroupHeartbeatRequest {
    ConsumerGroupHeartbeatRequest {
        group_id: G.into(),
        member_id: member.into(),
        member_epoch: 0,
        instance_id: instance.map(Into::into),
        rebalance_timeout_ms: 30_000,
        subscribed_topic_names: Some(vec!["foo".into()]),
        topic_partitions: Some(vec![]),
        client_id: member.into(),
        client_host: "/10.0.0.1".into(),
        ..Default::default()
    }
}

fn hb(h: &mut Harness, req: ConsumerGroupHeartbeatRequest) -> ConsumerGroupHeartbeatResponse {
    let t = h.send(7, Request::ConsumerGroupHeartbeat(Box::new(req)));
    match h.take(t) {
        Some(Response::ConsumerGroupHeartbeat(r)) => r,
        other => panic!("not a heartbeat response: {other:?}"),
    }
}

fn partitions(a: &Option<ConsumerGroupHeartbeatAssignment>) -> Vec<i32> {
    a.as_ref()
        .map(|a| {
            a.topic_partitions
                .iter()
                .flat_map(|t| t.partitions.clone())
                .collect()
        })
        .unwrap_or_default()
}

/// A mixed group: the classic member of a one-member classic group (foo-0), then the static
/// consumer-protocol member `s` (instance `i1`), which upgrades the group and takes the free
/// partitions. Returns the classic member's id and `s`'s partitions.
fn mixed_with_static_consumer(h: &mut Harness) -> (String, Vec<i32>) {
    let ids = h.stable_group(1);
    let r = hb(h, join_hb("s", Some("i1")));
    assert_eq!(r.error_code, ErrorCode::None, "{r:?}");
    let mut got = partitions(&r.assignment);
    got.sort();
    assert!(!got.is_empty(), "s got the free partitions at once: {r:?}");
    (ids[0].clone(), got)
}

fn target_of(g: &ConsumerGroupDescribedGroup, member: &str) -> Vec<TopicPartition> {
    let m = g.members.iter().find(|m| m.member_id == member).expect("member");
    m.target_assignment
        .topic_partitions
        .iter()
        .flat_map(|t| t.partitions.iter().map(|p| TopicPartition::new("foo", *p)))
        .collect()
}

// ------------------------------------------------------- §10 downgrade by static replacement

#[test]
fn ref_10_a_classic_member_replacing_the_last_consumer_static_member_downgrades_the_group() {
    let mut h = harness(MigrationPolicy::Bidirectional);
    let (classic, _) = mixed_with_static_consumer(&mut h);
    let before = h.describe_consumer_group();
    let epoch = before.group_epoch;
    let s_target = target_of(&before, "s");
    // A classic JoinGroup with s's instance id and no member id: s is active (epoch > 0), yet it
    // is replaced (the -2 rule binds two consumer-protocol members only).
    let mark = h.events.len();
    let t = h.join(5, join_req("").client("k").instance("i1"));
    let r = h.join_resp(t);
    assert_eq!(r.error_code, ErrorCode::None, "{r:?}");
    let newcomer = r.member_id.clone();
    assert_ne!(newcomer, "s");
    assert!(h.saw(|k| matches!(
        k,
        EventKind::ConsumerStaticMemberReplaced { old_member_id, new_member_id, .. }
            if old_member_id == "s" && *new_member_id == newcomer
    )));
    // s was the last consumer-protocol member: the group is a classic group now, Stable at
    // generation = the group epoch, with the classic member and the newcomer.
    assert!(h.saw(|k| matches!(
        k,
        EventKind::GroupTypeConverted {
            to_consumer: false,
            members: 2,
            ..
        }
    )));
    assert_eq!(h.state(), GroupState::Stable);
    assert_eq!(h.generation(), epoch);
    let mut members = h.member_ids();
    members.sort();
    let mut want = vec![classic.clone(), newcomer.clone()];
    want.sort();
    assert_eq!(members, want);
    // The same subscription: no rebalance (Kafka only rebalances for a different one).
    assert!(!h.events[mark..].iter().any(|e| matches!(
        e.kind,
        EventKind::StateChanged {
            to: GroupState::PreparingRebalance,
            ..
        }
    )));
    assert_eq!(h.describe_consumer_group().error_code, ErrorCode::GroupIdNotFound);
    // The newcomer syncs at its generation and gets s's target.
    assert_eq!(r.generation_id, epoch);
    let t = h.sync(5, &newcomer, r.generation_id, vec![]);
    let s = h.sync_resp(t);
    assert_eq!(s.error_code, ErrorCode::None, "{s:?}");
    assert_eq!(s.assignment.partitions, s_target);
    // s itself, still heartbeating, finds no consumer group any more.
    let mut beat = join_hb("s", Some("i1"));
    beat.member_epoch = epoch;
    beat.rebalance_timeout_ms = -1;
    beat.subscribed_topic_names = None;
    beat.topic_partitions = None;
    let r = hb(&mut h, beat);
    assert_eq!(r.error_code, ErrorCode::GroupIdNotFound);
}

#[test]
fn ref_10_a_replacement_with_a_different_subscription_downgrades_and_rebalances() {
    let mut h = harness(MigrationPolicy::Bidirectional);
    mixed_with_static_consumer(&mut h);
    let t = h.join(5, join_req("").client("k").instance("i1").topics(&["foo", "bar"]));
    let r = h.join_resp(t);
    assert_eq!(r.error_code, ErrorCode::None, "{r:?}");
    assert!(h.saw(|k| matches!(
        k,
        EventKind::GroupTypeConverted {
            to_consumer: false,
            ..
        }
    )));
    // "Downgrade group %s from consumer to classic for static member replacement with different
    // subscription."
    assert!(h.saw(|k| matches!(
        k,
        EventKind::StateChanged {
            to: GroupState::PreparingRebalance,
            reason: Reason::StaticMemberReplaced { member_id },
            ..
        } if *member_id == r.member_id
    )));
}

#[test]
fn ref_10_no_downgrade_while_another_consumer_member_remains_or_the_policy_forbids_it() {
    // Another consumer-protocol member: the classic newcomer replaces s inside the consumer group.
    let mut h = harness(MigrationPolicy::Bidirectional);
    mixed_with_static_consumer(&mut h);
    assert_eq!(hb(&mut h, join_hb("c", None)).error_code, ErrorCode::None);
    let s_target = target_of(&h.describe_consumer_group(), "s");
    let t = h.join(5, join_req("").client("k").instance("i1"));
    let r = h.join_resp(t);
    assert_eq!(r.error_code, ErrorCode::None, "{r:?}");
    assert!(!h.saw(|k| matches!(
        k,
        EventKind::GroupTypeConverted {
            to_consumer: false,
            ..
        }
    )));
    let g = h.describe_consumer_group();
    assert_eq!(g.error_code, ErrorCode::None);
    assert!(!g.members.iter().any(|m| m.member_id == "s"));
    let newcomer = g.members.iter().find(|m| m.member_id == r.member_id).unwrap();
    assert_eq!(newcomer.member_type, MEMBER_TYPE_CLASSIC);
    assert_eq!(target_of(&g, &r.member_id), s_target, "it took s's target");
    // s is fenced by its instance id now.
    let mut beat = join_hb("s", Some("i1"));
    beat.member_epoch = g.group_epoch;
    beat.rebalance_timeout_ms = -1;
    beat.subscribed_topic_names = None;
    beat.topic_partitions = None;
    assert_eq!(hb(&mut h, beat).error_code, ErrorCode::FencedInstanceId);

    // Policy `upgrade` (no downgrade): the same replacement keeps the consumer group.
    let mut h = harness(MigrationPolicy::Upgrade);
    mixed_with_static_consumer(&mut h);
    let t = h.join(5, join_req("").client("k").instance("i1"));
    assert_eq!(h.join_resp(t).error_code, ErrorCode::None);
    assert!(!h.saw(|k| matches!(
        k,
        EventKind::GroupTypeConverted {
            to_consumer: false,
            ..
        }
    )));
    assert_eq!(h.describe_consumer_group().members.len(), 2);
}

// ------------------------------------------------- §8.6 (mixed): consumer replaces classic

#[test]
fn ref_8_6_a_consumer_member_replaces_an_active_classic_static_member() {
    let mut h = harness(MigrationPolicy::Bidirectional);
    // A classic group of static members i1 (foo-0) and i2 (foo-1), generation 1; neither left.
    let (a, _b) = h.static_pair();
    // A consumer-protocol member with i1's instance id joins: the group is upgraded and i1's
    // classic member replaced although its epoch is not -2.
    let r = hb(&mut h, join_hb("n1", Some("i1")));
    assert_eq!(r.error_code, ErrorCode::None, "not UNRELEASED_INSTANCE_ID: {r:?}");
    assert_eq!(partitions(&r.assignment), vec![0], "it takes i1's assignment");
    assert_eq!(r.member_epoch, 1, "the same subscription: no epoch bump");
    assert!(h.saw(|k| matches!(
        k,
        EventKind::ConsumerStaticMemberReplaced { old_member_id, new_member_id, .. }
            if *old_member_id == a && new_member_id == "n1"
    )));
    let g = h.describe_consumer_group();
    assert!(!g.members.iter().any(|m| m.member_id == a));
    let n1 = g.members.iter().find(|m| m.member_id == "n1").unwrap();
    assert_eq!(n1.member_type, MEMBER_TYPE_CONSUMER);
    // The old classic instance is fenced by its instance id.
    assert_eq!(
        h.heartbeat_static(1, &a, Some("i1"), 1),
        ErrorCode::FencedInstanceId
    );
    // Two consumer-protocol members still obey the -2 rule.
    let r = hb(&mut h, join_hb("n2", Some("i1")));
    assert_eq!(r.error_code, ErrorCode::UnreleasedInstanceId);
}

// ----------------------------------------------------- §10 upgrade and custom assignors

/// A Stable classic group of two members whose leader's assignor wrote user data into each
/// assignment (a custom assignor's, or Kafka Streams').
fn classic_group_with_assignment_user_data(h: &mut Harness) -> Vec<String> {
    let ids = h.joined_group(2);
    let generation = h.generation();
    let mut assignments = assign_one_each(&ids);
    for a in &mut assignments {
        a.assignment.user_data = vec![0xCA, 0xFE];
    }
    h.sync(2, &ids[1], generation, Vec::new());
    let t = h.sync(1, &ids[0], generation, assignments);
    assert_eq!(h.sync_resp(t).error_code, ErrorCode::None);
    assert_eq!(h.state(), GroupState::Stable);
    h.inbox.clear();
    ids
}

#[test]
fn ref_10_an_upgrade_is_refused_when_an_assignment_carries_custom_user_data() {
    let mut h = harness(MigrationPolicy::Bidirectional);
    classic_group_with_assignment_user_data(&mut h);
    let r = hb(&mut h, join_hb("c", None));
    assert_eq!(r.error_code, ErrorCode::GroupIdNotFound);
    assert_eq!(
        r.error_message.as_deref(),
        Some(
            format!(
                "Cannot upgrade classic group {G} to consumer group because an unsupported custom assignor is \
                 in use. Please refer to the documentation or switch to a default assignor before \
                 re-attempting the upgrade."
            )
            .as_str()
        )
    );
    // Nothing converted: the classic group is as it was.
    assert_eq!(h.state(), GroupState::Stable);
    assert!(!h.saw(|k| matches!(k, EventKind::GroupTypeConverted { .. })));
    assert_eq!(h.describe_consumer_group().error_code, ErrorCode::GroupIdNotFound);
}

#[test]
fn ref_10_a_refused_upgrade_still_answers_the_parked_joins_first() {
    // convertToConsumerGroup completes the join and sync futures before fromClassicGroup throws.
    let mut h = harness(MigrationPolicy::Bidirectional);
    let ids = classic_group_with_assignment_user_data(&mut h);
    // The leader rejoins: a rebalance starts and its JoinGroup waits for the other member.
    let parked = h.join(1, join_req(&ids[0]));
    assert_eq!(h.state(), GroupState::PreparingRebalance);
    assert!(!h.answered(parked));
    let r = hb(&mut h, join_hb("c", None));
    assert_eq!(r.error_code, ErrorCode::GroupIdNotFound);
    assert_eq!(h.join_resp(parked).error_code, ErrorCode::RebalanceInProgress);
    // The group stays classic; its members rejoin it.
    assert_eq!(h.state(), GroupState::PreparingRebalance);
    let first = h.join(1, join_req(&ids[0]));
    let second = h.join(2, join_req(&ids[1]));
    h.run_join_phase();
    assert_eq!(h.join_resp(first).error_code, ErrorCode::None);
    assert_eq!(h.join_resp(second).error_code, ErrorCode::None);
}

#[test]
fn ref_10_a_group_at_the_consumer_max_size_is_full_after_conversion_started() {
    // Two classic members and group.consumer.max.size 2: validateOnlineUpgrade lets the group
    // through (size <= max); convertToConsumerGroup answers the parked joins, then the converted
    // group is full for the new member (GROUP_MAX_SIZE_REACHED) and the conversion is undone.
    let mut h = harness_with(CoordinatorConfig {
        group_consumer_max_size: 2,
        ..config_with(MigrationPolicy::Bidirectional)
    });
    let ids = h.stable_group(2);
    let parked = h.join(1, join_req(&ids[0]));
    assert_eq!(h.state(), GroupState::PreparingRebalance);
    assert!(!h.answered(parked));
    let r = hb(&mut h, join_hb("c", None));
    assert_eq!(r.error_code, ErrorCode::GroupMaxSizeReached);
    assert_eq!(h.join_resp(parked).error_code, ErrorCode::RebalanceInProgress);
    // Still the classic group, rebalancing; its members rejoin it.
    assert_eq!(h.state(), GroupState::PreparingRebalance);
    assert!(!h.saw(|k| matches!(k, EventKind::GroupTypeConverted { .. })));
    let first = h.join(1, join_req(&ids[0]));
    let second = h.join(2, join_req(&ids[1]));
    h.run_join_phase();
    assert_eq!(h.join_resp(first).error_code, ErrorCode::None);
    assert_eq!(h.join_resp(second).error_code, ErrorCode::None);
}

#[test]
fn ref_10_subscription_user_data_alone_does_not_refuse_an_upgrade() {
    let mut h = harness(MigrationPolicy::Bidirectional);
    let mut reqs = Vec::new();
    for i in 1..=2u64 {
        let mut req = join_req("").client(&format!("c{i}"));
        req.protocols[0].metadata.user_data = vec![1, 2, 3];
        reqs.push(h.join_dynamic_with(i, req));
    }
    h.run_join_phase();
    let ids: Vec<String> = reqs
        .into_iter()
        .map(|(id, t)| {
            assert_eq!(h.join_resp(t).error_code, ErrorCode::None);
            id
        })
        .collect();
    let generation = h.generation();
    h.sync(2, &ids[1], generation, Vec::new());
    let t = h.sync(1, &ids[0], generation, assign_one_each(&ids));
    assert_eq!(h.sync_resp(t).error_code, ErrorCode::None);
    let r = hb(&mut h, join_hb("c", None));
    assert_eq!(r.error_code, ErrorCode::None, "{r:?}");
    assert!(h.saw(|k| matches!(
        k,
        EventKind::GroupTypeConverted {
            to_consumer: true,
            ..
        }
    )));
}

#[test]
fn ref_10_a_classic_member_with_a_custom_assignor_name_joins_when_every_classic_member_supports_it() {
    let mut h = harness(MigrationPolicy::Bidirectional);
    assert_eq!(hb(&mut h, join_hb("c", None)).error_code, ErrorCode::None);
    // The first classic member: no classic member to agree with, any name will do.
    let (_, t) = h.join_dynamic_with(5, join_req("").client("k1").with_protocols(&["my-custom"]));
    let r = h.join_resp(t);
    assert_eq!(r.error_code, ErrorCode::None, "{r:?}");
    assert_eq!(r.protocol_name.as_deref(), Some("my-custom"));
    let t = h.sync(5, &r.member_id, r.generation_id, vec![]);
    let s = h.sync_resp(t);
    assert_eq!(s.error_code, ErrorCode::None);
    assert!(
        s.assignment.user_data.is_empty(),
        "the server assignor writes no user data"
    );
    // A second classic member must share a name with it.
    let t = h.join(6, join_req("").client("k2").with_protocols(&["range"]));
    assert_eq!(h.join_resp(t).error_code, ErrorCode::InconsistentGroupProtocol);
    let (_, t) = h.join_dynamic_with(
        6,
        join_req("").client("k2").with_protocols(&["range", "my-custom"]),
    );
    let r = h.join_resp(t);
    assert_eq!(r.error_code, ErrorCode::None, "{r:?}");
    assert_eq!(h.describe_consumer_group().members.len(), 3);
}
