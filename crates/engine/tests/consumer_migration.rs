//! Mixed groups and online migration (reference §10), rule by rule: the upgrade of a classic
//! group on the first `ConsumerGroupHeartbeat` join, classic members served by a consumer group
//! (JoinGroup, SyncGroup, Heartbeat, LeaveGroup, OffsetCommit), the downgrade when the last
//! consumer-protocol member leaves, and `group.consumer.migration.policy`.

mod common;

use rebalance_engine::collections::Map;

use common::*;
use rebalance_engine::protocol::*;
use rebalance_engine::{CoordinatorConfig, EventKind, KafkaRelease, MigrationPolicy, Request, Response};

fn harness(policy: MigrationPolicy) -> Harness {
    harness_with(CoordinatorConfig {
        kafka_version: KafkaRelease::V4_1,
        group_consumer_migration_policy: policy,
        group_initial_rebalance_delay_ms: 0,
        ..config()
    })
}

fn harness_with(cfg: CoordinatorConfig) -> Harness {
    let mut h = Harness::with_config(cfg);
    h.coord.set_topic_metadata(Map::from([("foo".to_string(), 3)]));
    h
}

fn join_hb(member: &str) -> ConsumerGroupHeartbeatRequest {
    ConsumerGroupHeartbeatRequest {
        group_id: G.into(),
        member_id: member.into(),
        member_epoch: 0,
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

/// A classic group of two members (generation 1, foo-0 and foo-1), then a consumer-protocol
/// member `c` joins: the online upgrade.
fn upgraded(policy: MigrationPolicy) -> (Harness, Vec<String>) {
    let mut h = harness(policy);
    let ids = h.stable_group(2);
    let r = hb(&mut h, join_hb("c"));
    assert_eq!(r.error_code, ErrorCode::None, "{r:?}");
    (h, ids)
}

#[test]
fn the_first_consumer_protocol_join_upgrades_a_classic_group() {
    let (mut h, ids) = upgraded(MigrationPolicy::Bidirectional);
    assert!(h.saw(|k| matches!(
        k,
        EventKind::GroupTypeConverted {
            to_consumer: true,
            members: 2,
            ..
        }
    )));
    // The classic group is tombstoned; the consumer group's records follow.
    let log = h.coord.log(h.partition()).unwrap();
    let tomb = log
        .iter()
        .position(|r| matches!(r.body, rebalance_engine::RecordBody::GroupTombstone { .. }))
        .expect("a classic tombstone");
    assert!(log[tomb..].iter().any(|r| matches!(
        &r.body,
        rebalance_engine::RecordBody::ConsumerGroupMemberMetadata { value: Some(v), .. }
            if v.classic_member_metadata.is_some()
    )));
    // fromClassicGroup: epochs = the generation (1), every member at it with its assignment; then
    // c's join bumps to 2 and computes the target.
    let g = h.describe_consumer_group();
    assert_eq!((g.group_epoch, g.assignment_epoch), (2, 2));
    assert_eq!(g.members.len(), 3);
    for id in &ids {
        let m = g.members.iter().find(|m| m.member_id == *id).unwrap();
        assert_eq!((m.member_type, m.member_epoch), (MEMBER_TYPE_CLASSIC, 1));
        assert_eq!(m.assignment.topic_partitions[0].partitions.len(), 1);
    }
    let c = g.members.iter().find(|m| m.member_id == "c").unwrap();
    assert_eq!(c.member_type, MEMBER_TYPE_CONSUMER);
    // The classic members' session timers use their classic session timeout.
    let deadline = h
        .coord
        .timer(&rebalance_engine::TimerKey::ConsumerSession {
            group_id: G.into(),
            member_id: ids[0].clone(),
        })
        .expect("a session timer")
        .0;
    assert_eq!(deadline.as_millis(), h.now.as_millis() + SESSION_MS as u64);
    // The classic DescribeGroups no longer sees a classic group.
    assert_eq!(h.describe().group_state, GroupState::Dead);
}

#[test]
fn classic_members_heartbeat_rejoin_and_sync_in_a_consumer_group() {
    let (mut h, ids) = upgraded(MigrationPolicy::Bidirectional);
    let a = &ids[0];
    // Its epoch (1) is behind the group epoch (2): rejoin.
    assert_eq!(h.heartbeat(1, a, 1), ErrorCode::RebalanceInProgress);
    assert_eq!(h.heartbeat(1, a, 0), ErrorCode::IllegalGeneration);
    assert_eq!(h.heartbeat(1, "nobody", 1), ErrorCode::UnknownMemberId);
    // It rejoins (eager: it owns nothing any more); the response makes it a follower at its new
    // generation = member epoch.
    let t = h.join(1, join_req(a));
    let r = h.join_resp(t);
    assert_eq!(r.error_code, ErrorCode::None, "{r:?}");
    assert_eq!((r.generation_id, r.leader.as_str(), r.members.len()), (2, "", 0));
    assert_eq!(
        (r.protocol_type.as_deref(), r.protocol_name.as_deref()),
        (Some("consumer"), Some("range"))
    );
    // SyncGroup returns its assigned partitions.
    let t = h.sync(1, a, 2, vec![]);
    let s = h.sync_resp(t);
    assert_eq!(s.error_code, ErrorCode::None);
    let target = h
        .describe_consumer_group()
        .members
        .into_iter()
        .find(|m| m.member_id == *a)
        .unwrap()
        .target_assignment;
    let expected: Vec<TopicPartition> = target
        .topic_partitions
        .iter()
        .flat_map(|t| t.partitions.iter().map(|p| TopicPartition::new("foo", *p)))
        .collect();
    assert_eq!(s.assignment.partitions, expected);
    let t = h.sync(1, a, 1, vec![]);
    assert_eq!(h.sync_resp(t).error_code, ErrorCode::IllegalGeneration);
    // A commit at a wrong generation gets the classic error (§9), the right one succeeds.
    assert_eq!(h.commit(1, a, 1, 10), ErrorCode::IllegalGeneration);
    assert_eq!(h.commit(1, a, 2, 10), ErrorCode::None);
}

#[test]
fn the_policy_decides_whether_the_upgrade_happens() {
    for policy in [MigrationPolicy::Disabled, MigrationPolicy::Downgrade] {
        let mut h = harness(policy);
        h.stable_group(2);
        let r = hb(&mut h, join_hb("c"));
        assert_eq!(r.error_code, ErrorCode::GroupIdNotFound, "{policy}");
        assert_eq!(
            r.error_message.as_deref(),
            Some(
                format!(
                    "Cannot upgrade classic group {G} to consumer group because online upgrade is disabled."
                )
                .as_str()
            ),
            "{policy}"
        );
        assert_eq!(h.state(), GroupState::Stable, "{policy}: nothing changed");
    }
    // group.consumer.max.size below the classic group's size.
    let mut h = harness_with(CoordinatorConfig {
        kafka_version: KafkaRelease::V4_1,
        group_consumer_max_size: 1,
        group_initial_rebalance_delay_ms: 0,
        ..config()
    });
    h.stable_group(2);
    let r = hb(&mut h, join_hb("c"));
    assert_eq!(r.error_code, ErrorCode::GroupIdNotFound);
    assert!(r
        .error_message
        .unwrap()
        .contains("because the group size exceeds the consumer group maximum size"));
}

#[test]
fn with_policy_disabled_a_classic_member_cannot_join_a_consumer_group() {
    let mut h = harness(MigrationPolicy::Disabled);
    hb(&mut h, join_hb("c"));
    let t = h.join(5, join_req(""));
    assert_eq!(h.join_resp(t).error_code, ErrorCode::InconsistentGroupProtocol);
}

#[test]
fn a_new_classic_member_joins_a_consumer_group_under_bidirectional() {
    let mut h = harness(MigrationPolicy::Bidirectional);
    hb(&mut h, join_hb("c"));
    // JoinGroup v4+ without an id: MEMBER_ID_REQUIRED first (KIP-394), then it joins.
    let t = h.join(5, join_req("").version(9).client("k"));
    let r = h.join_resp(t);
    assert_eq!(r.error_code, ErrorCode::MemberIdRequired);
    let t = h.join(5, join_req(&r.member_id).version(9).client("k"));
    let r = h.join_resp(t);
    assert_eq!(r.error_code, ErrorCode::None, "{r:?}");
    let g = h.describe_consumer_group();
    assert_eq!(g.members.len(), 2);
    assert_eq!(
        g.group_epoch, 2,
        "the classic member's subscription bumped the epoch"
    );
    assert_eq!(r.generation_id, 2);
}

#[test]
fn the_last_consumer_member_leaving_downgrades_the_group() {
    let (mut h, ids) = upgraded(MigrationPolicy::Bidirectional);
    let epoch = h.describe_consumer_group().group_epoch;
    let mut leave = join_hb("c");
    leave.member_epoch = LEAVE_GROUP_MEMBER_EPOCH;
    leave.rebalance_timeout_ms = -1;
    leave.subscribed_topic_names = None;
    leave.topic_partitions = None;
    let r = hb(&mut h, leave);
    assert_eq!(r.error_code, ErrorCode::None);
    assert!(h.saw(|k| matches!(
        k,
        EventKind::GroupTypeConverted {
            to_consumer: false,
            members: 2,
            ..
        }
    )));
    // A classic group at generation = the group epoch, rebalancing (Kafka: "Downgrade group %s
    // from consumer to classic for member leaving.").
    assert!(h.saw(|k| matches!(
        k,
        EventKind::StateChanged {
            to: GroupState::PreparingRebalance,
            reason: rebalance_engine::Reason::Downgraded,
            ..
        }
    )));
    assert_eq!(h.generation(), epoch);
    let mut members = h.member_ids();
    members.sort();
    let mut want = ids.clone();
    want.sort();
    assert_eq!(members, want);
    assert_eq!(h.describe_consumer_group().error_code, ErrorCode::GroupIdNotFound);
    // The classic members rejoin the classic group and a new generation forms.
    let ta = h.join(1, join_req(&ids[0]));
    let tb = h.join(2, join_req(&ids[1]));
    h.run_join_phase();
    assert_eq!(h.join_resp(ta).generation_id, epoch + 1);
    assert_eq!(h.join_resp(tb).error_code, ErrorCode::None);
}

#[test]
fn without_downgrade_in_the_policy_the_leaver_is_fenced_and_the_group_stays() {
    let (mut h, _) = upgraded(MigrationPolicy::Upgrade);
    let mut leave = join_hb("c");
    leave.member_epoch = LEAVE_GROUP_MEMBER_EPOCH;
    let r = hb(&mut h, leave);
    assert_eq!(r.error_code, ErrorCode::None);
    assert!(!h.saw(|k| matches!(
        k,
        EventKind::GroupTypeConverted {
            to_consumer: false,
            ..
        }
    )));
    let g = h.describe_consumer_group();
    assert_eq!((g.members.len(), g.group_epoch), (2, 3));
}

#[test]
fn a_classic_leave_group_fences_a_classic_member_of_a_mixed_group() {
    let (mut h, ids) = upgraded(MigrationPolicy::Bidirectional);
    let r = h.leave(1, &[(&ids[0], None), ("ghost", None)]);
    assert_eq!(r.error_code, ErrorCode::None);
    assert_eq!(r.members[0].error_code, ErrorCode::None);
    assert_eq!(r.members[1].error_code, ErrorCode::UnknownMemberId);
    let g = h.describe_consumer_group();
    assert_eq!(g.members.len(), 2);
    assert!(!g.members.iter().any(|m| m.member_id == ids[0]));
}

#[test]
fn a_mixed_group_survives_a_failover_with_its_classic_members() {
    let (mut h, ids) = upgraded(MigrationPolicy::Bidirectional);
    let p = h.partition();
    let log = h.coord.unload(h.now, p);
    let mut c2 = rebalance_engine::Coordinator::new(CoordinatorConfig {
        kafka_version: KafkaRelease::V4_1,
        ..config()
    });
    c2.set_topic_metadata(Map::from([("foo".to_string(), 3)]));
    c2.load(h.now, p, log);
    h.coord = c2;
    let g = h.describe_consumer_group();
    assert_eq!(g.members.len(), 3);
    let types: Vec<i8> = g.members.iter().map(|m| m.member_type).collect();
    assert_eq!(types.iter().filter(|t| **t == MEMBER_TYPE_CLASSIC).count(), 2);
    // The classic members' sessions restarted with their classic timeout.
    let deadline = h
        .coord
        .timer(&rebalance_engine::TimerKey::ConsumerSession {
            group_id: G.into(),
            member_id: ids[1].clone(),
        })
        .unwrap()
        .0;
    assert_eq!(deadline.as_millis(), h.now.as_millis() + SESSION_MS as u64);
    assert_eq!(h.heartbeat(2, &ids[1], 1), ErrorCode::RebalanceInProgress);
}

/// Heartbeats `member` every 3 s for `ms`, collecting the errors.
fn keep_beating(h: &mut Harness, conn: u64, member: &str, generation: i32, ms: u64) -> Vec<ErrorCode> {
    let mut errors = Vec::new();
    let mut left = ms;
    while left > 0 {
        let step = left.min(3_000);
        h.advance(step);
        left -= step;
        errors.push(h.heartbeat(conn, member, generation));
    }
    errors
}

#[test]
fn a_classic_member_told_to_rejoin_that_does_not_is_fenced_at_its_rebalance_timeout() {
    // Kafka: scheduleConsumerGroupJoinTimeoutIfAbsent on REBALANCE_IN_PROGRESS, "the classic member
    // failed to join within the rebalance timeout".
    let (mut h, ids) = upgraded(MigrationPolicy::Upgrade);
    let a = ids[0].clone();
    assert_eq!(h.heartbeat(1, &a, 1), ErrorCode::RebalanceInProgress);
    let key = rebalance_engine::TimerKey::ConsumerClassicJoin {
        group_id: G.into(),
        member_id: a.clone(),
    };
    let (deadline, _) = h.coord.timer(&key).expect("a join timeout");
    assert_eq!(deadline.as_millis(), h.now.as_millis() + REBALANCE_MS as u64);
    // It keeps heartbeating (its session stays alive) but never rejoins.
    let errors = keep_beating(&mut h, 1, &a, 1, REBALANCE_MS as u64);
    assert!(h.saw(|k| matches!(
        k,
        EventKind::ConsumerMemberFenced {
            member_id,
            reason: rebalance_engine::event::ConsumerFenceReason::ClassicJoinTimeout,
            ..
        } if *member_id == a
    )));
    assert_eq!(errors.last(), Some(&ErrorCode::UnknownMemberId));
}

#[test]
fn a_classic_member_that_joins_but_does_not_sync_is_fenced_at_its_rebalance_timeout() {
    let (mut h, ids) = upgraded(MigrationPolicy::Upgrade);
    let a = ids[0].clone();
    let t = h.join(1, join_req(&a));
    let r = h.join_resp(t);
    assert_eq!(r.error_code, ErrorCode::None);
    let key = rebalance_engine::TimerKey::ConsumerClassicSync {
        group_id: G.into(),
        member_id: a.clone(),
    };
    assert!(h.coord.timer(&key).is_some(), "a sync timeout");
    keep_beating(&mut h, 1, &a, r.generation_id, REBALANCE_MS as u64);
    assert!(h.saw(|k| matches!(
        k,
        EventKind::ConsumerMemberFenced {
            reason: rebalance_engine::event::ConsumerFenceReason::ClassicSyncTimeout,
            ..
        }
    )));
    // A member that syncs in time has no sync timeout left.
    let (mut h, ids) = upgraded(MigrationPolicy::Upgrade);
    let b = ids[1].clone();
    let t = h.join(2, join_req(&b));
    let g = h.join_resp(t).generation_id;
    let t = h.sync(2, &b, g, vec![]);
    assert_eq!(h.sync_resp(t).error_code, ErrorCode::None);
    assert!(h
        .coord
        .timer(&rebalance_engine::TimerKey::ConsumerClassicSync {
            group_id: G.into(),
            member_id: b,
        })
        .is_none());
}

#[test]
fn a_batch_leave_of_classic_members_bumps_the_group_epoch_once() {
    // consumerGroupFenceMembers: the tombstones of every member, then one epoch record.
    let (mut h, ids) = upgraded(MigrationPolicy::Upgrade);
    let before = h.describe_consumer_group().group_epoch;
    let r = h.leave(1, &[(&ids[0], None), (&ids[1], None)]);
    assert!(r.members.iter().all(|m| m.error_code == ErrorCode::None));
    let g = h.describe_consumer_group();
    assert_eq!((g.members.len(), g.group_epoch), (1, before + 1));
}
