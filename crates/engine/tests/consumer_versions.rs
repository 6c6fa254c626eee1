//! The consumer-group coordinator per Kafka line (`CoordinatorConfig::kafka_version`): one test per
//! row of the reference's §12 that the coordinator implements, each run on the line before and the
//! line after the change; and the scripted server assignor (Kafka's tests' `MockPartitionAssignor`).

mod common;

use rebalance_engine::collections::Map;

use common::*;
use rebalance_engine::coordinator::consumer::*;
use rebalance_engine::protocol::*;
use rebalance_engine::{CoordinatorConfig, KafkaRelease, Request, Response, ScriptedAssignment};

const T: &str = "t";

fn harness(version: KafkaRelease, partitions: i32) -> Harness {
    harness_with(
        CoordinatorConfig {
            kafka_version: version,
            ..config()
        },
        partitions,
    )
}

fn harness_with(cfg: CoordinatorConfig, partitions: i32) -> Harness {
    let mut h = Harness::with_config(cfg);
    h.coord
        .set_topic_metadata(Map::from([(T.to_string(), partitions), ("u".to_string(), 2)]));
    h
}

fn join_hb(member: &str, topics: &[&str]) -> ConsumerGroupHeartbeatRequest {
    ConsumerGroupHeartbeatRequest {
        group_id: G.into(),
        member_id: member.into(),
        member_epoch: 0,
        rebalance_timeout_ms: 30_000,
        subscribed_topic_names: Some(topics.iter().map(|t| t.to_string()).collect()),
        topic_partitions: Some(vec![]),
        client_id: format!("client-{member}"),
        client_host: "/10.0.0.1".into(),
        ..Default::default()
    }
}

fn owned(ps: &[(&str, &[i32])]) -> Option<Vec<ConsumerGroupHeartbeatTopicPartitions>> {
    Some(
        ps.iter()
            .map(|(t, p)| ConsumerGroupHeartbeatTopicPartitions {
                topic_id: TopicId(t.to_string()),
                partitions: p.to_vec(),
            })
            .collect(),
    )
}

fn beat_hb(member: &str, epoch: i32, own: &[(&str, &[i32])]) -> ConsumerGroupHeartbeatRequest {
    ConsumerGroupHeartbeatRequest {
        group_id: G.into(),
        member_id: member.into(),
        member_epoch: epoch,
        topic_partitions: owned(own),
        client_id: format!("client-{member}"),
        client_host: "/10.0.0.1".into(),
        ..Default::default()
    }
}

fn hb(h: &mut Harness, req: ConsumerGroupHeartbeatRequest) -> ConsumerGroupHeartbeatResponse {
    let t = h.send(1, Request::ConsumerGroupHeartbeat(Box::new(req)));
    match h.take(t) {
        Some(Response::ConsumerGroupHeartbeat(r)) => r,
        other => panic!("not a heartbeat response: {other:?}"),
    }
}

fn assigned(r: &ConsumerGroupHeartbeatResponse, topic: &str) -> Vec<i32> {
    r.assignment
        .as_ref()
        .map(|a| {
            a.topic_partitions
                .iter()
                .filter(|t| t.topic_id.0 == topic)
                .flat_map(|t| t.partitions.clone())
                .collect()
        })
        .unwrap_or_default()
}

fn member_of<'a>(g: &'a ConsumerGroupDescribedGroup, id: &str) -> &'a ConsumerGroupDescribedMember {
    g.members
        .iter()
        .find(|m| m.member_id == id)
        .unwrap_or_else(|| panic!("no member {id} in {g:?}"))
}

// ------------------------------------------------------------------------------------------ V8

#[test]
fn v8_from_4_3_a_new_group_starts_at_epoch_1_so_the_first_target_is_epoch_2() {
    // §0.3/§12 V8 (KAFKA-20268): "every test starting from a new group gets member epochs +1".
    for (version, epoch) in [
        (KafkaRelease::V4_1, 1),
        (KafkaRelease::V4_2, 1),
        (KafkaRelease::V4_3, 2),
        (KafkaRelease::V4_4, 2),
    ] {
        let mut h = harness(version, 2);
        let r = hb(&mut h, join_hb("a", &[T]));
        assert_eq!(r.error_code, ErrorCode::None, "{version}: {r:?}");
        assert_eq!(r.member_epoch, epoch, "{version}");
        assert_eq!(assigned(&r, T), vec![0, 1], "{version}");
        let g = h.describe_consumer_group();
        assert_eq!((g.group_epoch, g.assignment_epoch), (epoch, epoch), "{version}");
        assert_eq!(g.group_state, "Stable", "{version}");
    }
}

// ------------------------------------------------------------------------------------------ V3

#[test]
fn v3_up_to_4_1_a_new_group_bumps_even_for_an_empty_subscription() {
    // §12 V3: `bumpGroupEpoch = groupEpoch == 0` in 4.0–4.1, "a member joining with an empty
    // subscription still gets epoch 1". Removed in 4.2 (KAFKA-19431); what 4.2 then answers is
    // UNCONFIRMED in the reference: here, derived from the removal, no bump (epoch 0).
    for (version, epoch) in [
        (KafkaRelease::V4_0, 1),
        (KafkaRelease::V4_1, 1),
        (KafkaRelease::V4_2, 0),
    ] {
        let mut h = harness(version, 2);
        let r = hb(&mut h, join_hb("a", &[]));
        assert_eq!(r.error_code, ErrorCode::None, "{version}: {r:?}");
        assert_eq!(r.member_epoch, epoch, "{version}");
        assert_eq!(h.describe_consumer_group().group_epoch, epoch, "{version}");
    }
}

// ------------------------------------------------------------------------------------------ V7

#[test]
fn v7_from_4_2_leaving_unrevoked_partitions_has_no_plus_one() {
    // testUnrevokedPartitionsToUnrevokedPartitions (C08): a member at epoch 10 revoking foo-1 and
    // bar-4 acknowledges while the target (epoch 12) takes foo-2 and bar-5 too. 4.1 moves it to
    // 10 + 1 = 11; 4.2+ (KAFKA-19974) keeps 10.
    let p = |ps: &[(&str, &[i32])]| -> Partitions {
        ps.iter()
            .map(|(t, v)| (t.to_string(), v.iter().copied().collect()))
            .collect()
    };
    let m = CurrentAssignment {
        state: MemberState::UnrevokedPartitions,
        member_epoch: 10,
        previous_member_epoch: 10,
        assigned_partitions: p(&[("foo", &[2, 3]), ("bar", &[5, 6])]),
        partitions_pending_revocation: p(&[("foo", &[1]), ("bar", &[4])]),
    };
    let own = p(&[("foo", &[2, 3]), ("bar", &[5, 6])]);
    let target = p(&[("foo", &[3]), ("bar", &[6])]);
    for (version, epoch) in [
        (KafkaRelease::V4_1, 11),
        (KafkaRelease::V4_2, 10),
        (KafkaRelease::V4_4, 10),
    ] {
        let next = CurrentAssignmentBuilder {
            member: &m,
            target_epoch: 12,
            target: &target,
            partition_epoch: &|_, _| -1,
            owned: Some(&own),
            version,
            subscribed_topics: None,
        }
        .build()
        .expect("a known state");
        assert_eq!(next.state, MemberState::UnrevokedPartitions, "{version}");
        assert_eq!(
            (next.member_epoch, next.previous_member_epoch),
            (epoch, 10),
            "{version}"
        );
        assert_eq!(
            next.partitions_pending_revocation,
            p(&[("foo", &[2]), ("bar", &[5])])
        );
    }
}

// ------------------------------------------------------------------------------------------ V6

#[test]
fn v6_from_4_2_partitions_of_an_unsubscribed_topic_are_revoked_before_any_new_target() {
    // §12 V6 / §8.4 (KAFKA-19431): a STABLE member at the target epoch that no longer subscribes to
    // `bar` moves bar's partitions to pending revocation at once, at the same epoch.
    let p = |ps: &[(&str, &[i32])]| -> Partitions {
        ps.iter()
            .map(|(t, v)| (t.to_string(), v.iter().copied().collect()))
            .collect()
    };
    let m = CurrentAssignment {
        state: MemberState::Stable,
        member_epoch: 10,
        previous_member_epoch: 9,
        assigned_partitions: p(&[("foo", &[0, 1]), ("bar", &[0])]),
        partitions_pending_revocation: Partitions::new(),
    };
    let target = m.assigned_partitions.clone();
    let subscribed = vec!["foo".to_string()];
    let build = |version| {
        CurrentAssignmentBuilder {
            member: &m,
            target_epoch: 10,
            target: &target,
            partition_epoch: &|_, _| 10,
            owned: None,
            version,
            subscribed_topics: Some(&subscribed),
        }
        .build()
        .expect("a known state")
    };
    assert_eq!(build(KafkaRelease::V4_1), m, "4.1 waits for the new target");
    let next = build(KafkaRelease::V4_2);
    assert_eq!(next.state, MemberState::UnrevokedPartitions);
    assert_eq!(next.member_epoch, 10);
    assert_eq!(next.assigned_partitions, p(&[("foo", &[0, 1])]));
    assert_eq!(next.partitions_pending_revocation, p(&[("bar", &[0])]));
}

#[test]
fn v6_with_batching_a_dropped_topic_is_revoked_while_the_target_waits() {
    // 4.3: the subscription change bumps the epoch but the interval has not passed, so the target
    // stays; the dropped topic's partitions are to be revoked all the same (§8.4 "even before the
    // new target exists").
    let mut h = harness(KafkaRelease::V4_3, 2);
    let r = hb(&mut h, join_hb("a", &[T, "u"]));
    assert_eq!((r.member_epoch, assigned(&r, "u")), (2, vec![0, 1]));
    h.advance(100);
    let mut req = beat_hb("a", 2, &[(T, &[0, 1]), ("u", &[0, 1])]);
    req.subscribed_topic_names = Some(vec![T.into()]);
    let r = hb(&mut h, req);
    assert_eq!(r.error_code, ErrorCode::None, "{r:?}");
    assert_eq!(r.member_epoch, 2, "the target of epoch 3 is not computed yet");
    assert_eq!(assigned(&r, T), vec![0, 1]);
    assert!(assigned(&r, "u").is_empty(), "u is to be revoked: {r:?}");
    let g = h.describe_consumer_group();
    assert_eq!((g.group_epoch, g.assignment_epoch), (3, 2));
    assert_eq!(g.group_state, "Assigning");
}

// ------------------------------------------------------------------------------------------ V9

#[test]
fn v9_from_4_3_targets_are_batched_by_the_assignment_interval() {
    // §7.4: the target is computed only if none was, the interval is 0, or the interval has passed
    // since the last computation; there is no timer, the next heartbeat after it computes.
    let mut h = harness(KafkaRelease::V4_3, 2);
    let a = hb(&mut h, join_hb("a", &[T]));
    assert_eq!((a.member_epoch, assigned(&a, T)), (2, vec![0, 1]));
    h.advance(500);
    let b = hb(&mut h, join_hb("b", &[T]));
    // "newcomers first get the *old* target epoch", with nothing in it for them.
    assert_eq!((b.member_epoch, assigned(&b, T)), (2, vec![]));
    let g = h.describe_consumer_group();
    assert_eq!(
        (g.group_epoch, g.assignment_epoch, g.group_state.as_str()),
        (3, 2, "Assigning")
    );
    // Still within the interval (computed at 0 ms, now 999 ms): a's heartbeat changes nothing.
    h.advance(499);
    let r = hb(&mut h, beat_hb("a", 2, &[(T, &[0, 1])]));
    assert_eq!(r.member_epoch, 2);
    assert_eq!(h.describe_consumer_group().assignment_epoch, 2);
    // At 1000 ms the interval has passed: this heartbeat computes the target of epoch 3.
    h.advance(1);
    let r = hb(&mut h, beat_hb("a", 2, &[(T, &[0, 1])]));
    let g = h.describe_consumer_group();
    assert_eq!((g.group_epoch, g.assignment_epoch), (3, 3));
    assert_eq!(g.group_state, "Reconciling");
    assert_eq!(r.member_epoch, 2, "a revokes one partition at its epoch first");
    assert_eq!(assigned(&r, T).len(), 1);
}

#[test]
fn v9_before_4_3_and_with_interval_0_targets_are_computed_at_once() {
    for cfg in [
        CoordinatorConfig {
            kafka_version: KafkaRelease::V4_2,
            ..config()
        },
        CoordinatorConfig {
            kafka_version: KafkaRelease::V4_3,
            group_consumer_assignment_interval_ms: 0,
            ..config()
        },
    ] {
        let version = cfg.kafka_version;
        let mut h = harness_with(cfg, 2);
        hb(&mut h, join_hb("a", &[T]));
        h.advance(10);
        hb(&mut h, join_hb("b", &[T]));
        let g = h.describe_consumer_group();
        assert_eq!(g.group_epoch, g.assignment_epoch, "{version}");
        assert_eq!(g.group_state, "Reconciling", "{version}");
    }
}

#[test]
fn v9_the_assignment_timestamp_is_persisted_and_read_back_on_failover() {
    let mut h = harness(KafkaRelease::V4_3, 2);
    hb(&mut h, join_hb("a", &[T]));
    let p = h.partition();
    let log = h.coord.unload(h.now, p);
    assert!(log.iter().any(|r| matches!(
        r.body,
        rebalance_engine::RecordBody::ConsumerGroupTargetAssignmentMetadata {
            assignment_timestamp_ms: Some(0),
            ..
        }
    )));
    let mut c2 = rebalance_engine::Coordinator::new(CoordinatorConfig {
        kafka_version: KafkaRelease::V4_3,
        ..config()
    });
    c2.set_topic_metadata(Map::from([(T.to_string(), 2)]));
    c2.load(h.now, p, log);
    h.coord = c2;
    h.advance(500);
    hb(&mut h, join_hb("b", &[T]));
    let g = h.describe_consumer_group();
    assert_eq!(
        (g.group_epoch, g.assignment_epoch),
        (3, 2),
        "the interval counts from 0 ms"
    );
}

// ----------------------------------------------------------------------------------------- V11

#[test]
fn v11_from_4_3_a_known_instance_id_skips_the_max_size_check() {
    // §4.4 GROUP_MAX_SIZE_REACHED "4.3+: skipped if the instance id already exists"; §12 V11.
    for (version, ok) in [(KafkaRelease::V4_2, false), (KafkaRelease::V4_3, true)] {
        let mut h = harness_with(
            CoordinatorConfig {
                kafka_version: version,
                group_consumer_max_size: 1,
                ..config()
            },
            2,
        );
        let mut join = join_hb("a", &[T]);
        join.instance_id = Some("i1".into());
        let r = hb(&mut h, join);
        let mut leave = beat_hb("a", r.member_epoch, &[]);
        leave.member_epoch = LEAVE_GROUP_STATIC_MEMBER_EPOCH;
        leave.instance_id = Some("i1".into());
        assert_eq!(hb(&mut h, leave).error_code, ErrorCode::None);
        let mut rejoin = join_hb("a2", &[T]);
        rejoin.instance_id = Some("i1".into());
        let r = hb(&mut h, rejoin);
        if ok {
            assert_eq!(r.error_code, ErrorCode::None, "{version}: {r:?}");
            assert_eq!(assigned(&r, T), vec![0, 1], "the old member's assignment");
        } else {
            assert_eq!(r.error_code, ErrorCode::GroupMaxSizeReached, "{version}: {r:?}");
        }
    }
}

// ----------------------------------------------------------------------------------------- V12

#[test]
fn v12_from_4_4_a_change_of_the_preferred_assignor_bumps_the_group_epoch() {
    // §7.1/§8.4: "Changing only ServerAssignor ... rewrites the member record without a bump (up to
    // 4.3; from 4.4 an assignor change that alters the group's preferred assignor bumps the epoch)".
    for (version, bumped) in [(KafkaRelease::V4_3, false), (KafkaRelease::V4_4, true)] {
        let mut h = harness(version, 2);
        let r = hb(&mut h, join_hb("a", &[T]));
        let before = h.describe_consumer_group().group_epoch;
        h.advance(5_000);
        let mut req = beat_hb("a", r.member_epoch, &[(T, &[0, 1])]);
        req.server_assignor = Some("range".into());
        let r = hb(&mut h, req);
        assert_eq!(r.error_code, ErrorCode::None, "{version}: {r:?}");
        let g = h.describe_consumer_group();
        assert_eq!(g.group_epoch, before + i32::from(bumped), "{version}");
        if bumped {
            assert_eq!(
                g.assignor_name, "range",
                "{version}: the target was recomputed with range"
            );
            assert_eq!(r.member_epoch, before + 1);
        }
    }
}

// ---------------------------------------------------------------------------- scripted assignor

fn script(entries: &[&[(&str, &[i32])]]) -> Vec<ScriptedAssignment> {
    entries
        .iter()
        .map(|e| {
            e.iter()
                .map(|(m, ps)| {
                    (
                        m.to_string(),
                        Partitions::from([(T.to_string(), ps.iter().copied().collect())]),
                    )
                })
                .collect()
        })
        .collect()
}

#[test]
fn a_scripted_assignor_gives_each_target_in_turn_then_the_configured_one_runs() {
    // Kafka's tests prepare the mock assignor's result before each heartbeat; here the list is given
    // up front. Both entries deliberately differ from what uniform would compute.
    let mut h = harness_with(
        CoordinatorConfig {
            kafka_version: KafkaRelease::V4_1,
            scripted_assignments: script(&[&[("a", &[2])], &[("a", &[0, 1]), ("b", &[2, 3])]]),
            ..config()
        },
        4,
    );
    let a = hb(&mut h, join_hb("a", &[T]));
    assert_eq!((a.member_epoch, assigned(&a, T)), (1, vec![2]));
    h.advance(10);
    let b = hb(&mut h, join_hb("b", &[T]));
    assert_eq!(b.member_epoch, 2);
    assert_eq!(assigned(&b, T), vec![3], "t-2 is still a's");
    let g = h.describe_consumer_group();
    assert_eq!(
        member_of(&g, "b").target_assignment.topic_partitions[0].partitions,
        vec![2, 3]
    );
    // The script is used up: the third member's join runs uniform (4 partitions, 3 members).
    h.advance(10);
    hb(&mut h, join_hb("c", &[T]));
    let lines = h.event_lines();
    assert!(lines
        .iter()
        .any(|l| l.contains("target assignment for epoch 1 (scripted assignment 1 of 2): a -> [t-2]")));
    assert!(lines.iter().any(
        |l| l.contains("target assignment for epoch 3 (uniform; the assignment script ran out after 2)")
    ));
    // Said once: the next computation is plain.
    h.advance(10);
    hb(&mut h, join_hb("d", &[T]));
    assert!(h
        .event_lines()
        .iter()
        .any(|l| l.contains("target assignment for epoch 4 (uniform): ")));
}

// ----------------------------------------------------------------------------------------- V10

fn commit(h: &mut Harness, member: &str, epoch: i32, partition: i32) -> ErrorCode {
    let t = h.send(
        3,
        Request::OffsetCommit(OffsetCommitRequest {
            api_version: 9,
            group_id: G.into(),
            generation_id: epoch,
            member_id: member.into(),
            partitions: vec![OffsetCommitPartition {
                topic: T.into(),
                partition,
                committed_offset: 7,
                committed_leader_epoch: -1,
                committed_metadata: String::new(),
            }],
            ..Default::default()
        }),
    );
    match h.take(t) {
        Some(Response::OffsetCommit(r)) => r.partitions[0].error_code,
        other => panic!("{other:?}"),
    }
}

#[test]
fn v10_from_4_3_an_older_epoch_commits_partitions_held_since_then() {
    // §9 / §12 V10 (KIP-1251, `createAssignmentEpochValidator`): an older member epoch is accepted
    // for a partition whose assignment epoch is at most it; a newer one never.
    for (version, older_ok) in [(KafkaRelease::V4_2, false), (KafkaRelease::V4_3, true)] {
        let mut h = harness_with(
            CoordinatorConfig {
                kafka_version: version,
                group_consumer_assignment_interval_ms: 0,
                ..config()
            },
            2,
        );
        let a = hb(&mut h, join_hb("a", &[T]));
        let first = a.member_epoch;
        assert_eq!(assigned(&a, T), vec![0, 1]);
        h.advance(10);
        hb(&mut h, join_hb("b", &[T]));
        // a revokes one partition, acknowledges, and moves to the new epoch keeping the other.
        let r = hb(&mut h, beat_hb("a", first, &[(T, &[0, 1])]));
        let kept = assigned(&r, T);
        assert_eq!(kept.len(), 1);
        let r = hb(&mut h, beat_hb("a", first, &[(T, &kept)]));
        assert_eq!(r.member_epoch, first + 1, "{version}");
        let gone = 1 - kept[0];
        // A commit from before the move, for the partition a kept since `first`.
        let expected = if older_ok {
            ErrorCode::None
        } else {
            ErrorCode::StaleMemberEpoch
        };
        assert_eq!(commit(&mut h, "a", first, kept[0]), expected, "{version}");
        // The partition it gave up, and a newer epoch, are refused on every line.
        assert_eq!(
            commit(&mut h, "a", first, gone),
            ErrorCode::StaleMemberEpoch,
            "{version}"
        );
        assert_eq!(
            commit(&mut h, "a", first + 2, kept[0]),
            ErrorCode::StaleMemberEpoch,
            "{version}"
        );
        assert_eq!(
            commit(&mut h, "a", first + 1, kept[0]),
            ErrorCode::None,
            "{version}"
        );
    }
}
