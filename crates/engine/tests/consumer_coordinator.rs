//! The coordinator's consumer groups (KIP-848), rule by rule (reference §4–§8), golden traces of the
//! main stories (`tests/golden/consumer_*.txt`, regenerate with `UPDATE_GOLDEN=1`), and a property
//! test over random heartbeat sequences. Native only (proptest needs an OS random source; the
//! wasm32 run covers the scenario goldens in `tests/wasm.rs`).
#![cfg(not(target_arch = "wasm32"))]

mod common;

use rebalance_engine::collections::Map;
use rebalance_engine::collections::Set;

use common::*;
use proptest::prelude::*;
use rebalance_engine::protocol::*;
use rebalance_engine::{CoordinatorConfig, EventKind, KafkaRelease, Request, Response, SimTime, TimerKey};

const T: &str = "t";

/// These tests state Kafka 4.1's rules (the reference's baseline); the later lines' deltas are in
/// `consumer_versions.rs`.
fn v41() -> CoordinatorConfig {
    CoordinatorConfig {
        kafka_version: KafkaRelease::V4_1,
        ..config()
    }
}

fn harness(partitions: i32) -> Harness {
    let mut h = Harness::with_config(v41());
    h.coord
        .set_topic_metadata(Map::from([(T.to_string(), partitions)]));
    h
}

fn join_hb(member: &str) -> ConsumerGroupHeartbeatRequest {
    ConsumerGroupHeartbeatRequest {
        group_id: G.into(),
        member_id: member.into(),
        member_epoch: 0,
        rebalance_timeout_ms: 30_000,
        subscribed_topic_names: Some(vec![T.into()]),
        topic_partitions: Some(vec![]),
        client_id: format!("client-{member}"),
        client_host: "/10.0.0.1".into(),
        ..Default::default()
    }
}

fn beat_hb(member: &str, epoch: i32, owned: &[i32]) -> ConsumerGroupHeartbeatRequest {
    ConsumerGroupHeartbeatRequest {
        group_id: G.into(),
        member_id: member.into(),
        member_epoch: epoch,
        topic_partitions: Some(vec![ConsumerGroupHeartbeatTopicPartitions {
            topic_id: TopicId(T.into()),
            partitions: owned.to_vec(),
        }]),
        client_id: format!("client-{member}"),
        client_host: "/10.0.0.1".into(),
        ..Default::default()
    }
}

fn hb(h: &mut Harness, conn: u64, req: ConsumerGroupHeartbeatRequest) -> ConsumerGroupHeartbeatResponse {
    let t = h.send(conn, Request::ConsumerGroupHeartbeat(Box::new(req)));
    match h.take(t) {
        Some(Response::ConsumerGroupHeartbeat(r)) => r,
        other => panic!("not a heartbeat response: {other:?}"),
    }
}

fn parts(r: &ConsumerGroupHeartbeatResponse) -> Option<Vec<i32>> {
    r.assignment.as_ref().map(|a| {
        a.topic_partitions
            .iter()
            .filter(|t| t.topic_id.0 == T)
            .flat_map(|t| t.partitions.clone())
            .collect()
    })
}

/// A simulated member that always acknowledges: it owns what its last response assigned.
#[derive(Clone, Debug)]
struct M {
    id: String,
    conn: u64,
    epoch: i32,
    owned: Vec<i32>,
}

impl M {
    fn join(h: &mut Harness, id: &str, conn: u64) -> M {
        let r = hb(h, conn, join_hb(id));
        assert_eq!(r.error_code, ErrorCode::None, "{r:?}");
        M {
            id: id.into(),
            conn,
            epoch: r.member_epoch,
            owned: parts(&r).unwrap_or_default(),
        }
    }

    fn beat(&mut self, h: &mut Harness) -> ConsumerGroupHeartbeatResponse {
        let r = hb(h, self.conn, beat_hb(&self.id, self.epoch, &self.owned));
        assert_eq!(r.error_code, ErrorCode::None, "{r:?}");
        self.epoch = r.member_epoch;
        if let Some(p) = parts(&r) {
            self.owned = p;
        }
        r
    }
}

/// Everyone heartbeats in turn until the group is Stable.
fn converge(h: &mut Harness, ms: &mut [M]) {
    for _ in 0..10 {
        if h.describe_consumer_group().group_state == "Stable" {
            return;
        }
        for m in ms.iter_mut() {
            h.advance(1_000);
            m.beat(h);
        }
    }
    panic!("did not converge: {:?}", h.describe_consumer_group());
}

fn check(name: &str, h: &Harness) {
    common::golden::check_golden("golden", name, &(h.event_lines().join("\n") + "\n"));
}

// ---------------------------------------------------------------------------------- stories

#[test]
fn golden_three_members_join() {
    let mut h = harness(6);
    let mut a = M::join(&mut h, "a", 1);
    // A brand-new group: epoch 1, the first member gets everything at once (EMPTY -> STABLE).
    assert_eq!((a.epoch, a.owned.clone()), (1, vec![0, 1, 2, 3, 4, 5]));
    h.advance(1_000);
    let b = M::join(&mut h, "b", 2);
    // Nothing is free yet: b is at epoch 2 but UNRELEASED, a must revoke first.
    assert_eq!((b.epoch, b.owned.clone()), (2, vec![]));
    let mut ms = vec![a.clone(), b];
    converge(&mut h, &mut ms);
    h.advance(1_000);
    ms.push(M::join(&mut h, "c", 3));
    converge(&mut h, &mut ms);
    a = ms[0].clone();
    let g = h.describe_consumer_group();
    assert_eq!((g.group_epoch, g.assignment_epoch), (3, 3));
    let mut all: Vec<i32> = ms.iter().flat_map(|m| m.owned.clone()).collect();
    all.sort();
    assert_eq!(all, vec![0, 1, 2, 3, 4, 5]);
    assert!(
        ms.iter().all(|m| m.owned.len() == 2 && m.epoch == 3),
        "{ms:?} {a:?}"
    );
    check("consumer_three_members_join", &h);
}

#[test]
fn golden_one_joins_a_stable_group_of_three() {
    let mut h = harness(6);
    let mut ms = vec![M::join(&mut h, "a", 1)];
    ms.push(M::join(&mut h, "b", 2));
    ms.push(M::join(&mut h, "c", 3));
    converge(&mut h, &mut ms);
    let before: Vec<Vec<i32>> = ms.iter().map(|m| m.owned.clone()).collect();
    h.events.clear();
    h.advance(1_000);
    ms.push(M::join(&mut h, "d", 4));
    converge(&mut h, &mut ms);
    // Uniform is sticky: every old member keeps a subset of what it had; only the moved
    // partitions were revoked (each old member revoked at most one).
    for (i, m) in ms.iter().take(3).enumerate() {
        assert!(m.owned.iter().all(|p| before[i].contains(p)), "{m:?} {before:?}");
        assert!(before[i].len() - m.owned.len() <= 1);
    }
    assert_eq!(ms[3].owned.len(), 1);
    let revoked: usize = h
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ConsumerMemberReconciled {
                pending_revocation, ..
            } => Some(pending_revocation.len()),
            _ => None,
        })
        .sum();
    assert!(revoked <= 2, "only the moved partitions are revoked ({revoked})");
    check("consumer_join_stable_group_of_three", &h);
}

#[test]
fn golden_crash_noticed_after_the_session_timeout() {
    let mut h = harness(4);
    let mut ms = vec![M::join(&mut h, "a", 1), M::join(&mut h, "b", 2)];
    converge(&mut h, &mut ms);
    // b's last heartbeat was its last one in `converge`: it crashes now.
    let deadline = h
        .coord
        .timer(&TimerKey::ConsumerSession {
            group_id: G.into(),
            member_id: "b".into(),
        })
        .expect("b's session")
        .0;
    let mut a = ms[0].clone();
    while h.now + rebalance_engine::SimDuration::from_millis(5_000) < deadline {
        h.advance(5_000);
        a.beat(&mut h);
        assert_eq!(
            a.owned.len(),
            2,
            "b's partitions stay owned until its session expires"
        );
    }
    h.advance_to(deadline);
    let fenced = h
        .first_event(|k| matches!(k, EventKind::ConsumerMemberFenced { member_id, .. } if member_id == "b"))
        .expect("b fenced")
        .at;
    assert_eq!(fenced, deadline);
    assert_eq!(h.describe_consumer_group().group_state, "Assigning");
    a.beat(&mut h);
    assert_eq!(a.owned, vec![0, 1, 2, 3]);
    assert_eq!(h.describe_consumer_group().group_state, "Stable");
    check("consumer_crash_session_timeout", &h);
}

#[test]
fn golden_slow_revoker_fenced_at_its_rebalance_timeout() {
    let mut h = harness(4);
    let mut a = M::join(&mut h, "a", 1);
    let mut b = M::join(&mut h, "b", 2);
    // a is told to revoke but keeps reporting everything it owns.
    let r = hb(&mut h, 1, beat_hb("a", a.epoch, &[0, 1, 2, 3]));
    assert_eq!(r.member_epoch, 1, "a stays at its epoch while revoking");
    assert_eq!(parts(&r).map(|p| p.len()), Some(2));
    let key = TimerKey::ConsumerRebalance {
        group_id: G.into(),
        member_id: "a".into(),
    };
    assert!(h.coord.timer(&key).is_some());
    for _ in 0..5 {
        h.advance(5_000);
        let r = hb(&mut h, 1, beat_hb("a", 1, &[0, 1, 2, 3]));
        assert_eq!(r.error_code, ErrorCode::None);
        b.beat(&mut h);
        assert!(b.owned.is_empty(), "b waits: revoke before reassign");
    }
    h.advance(10_000);
    assert!(h.saw(|k| matches!(k, EventKind::ConsumerMemberFenced { member_id, .. } if member_id == "a")));
    a.epoch = 1;
    let r = hb(&mut h, 1, beat_hb("a", 1, &[0, 1, 2, 3]));
    assert_eq!(r.error_code, ErrorCode::UnknownMemberId);
    b.beat(&mut h);
    assert_eq!(b.owned, vec![0, 1, 2, 3]);
    check("consumer_slow_revoke_fenced", &h);
}

#[test]
fn golden_static_member_leaves_with_minus_two_and_rejoins() {
    let mut h = harness(4);
    let join_static = |id: &str| ConsumerGroupHeartbeatRequest {
        instance_id: Some("i1".into()),
        ..join_hb(id)
    };
    let r = hb(&mut h, 1, join_static("a1"));
    let mut a = M {
        id: "a1".into(),
        conn: 1,
        epoch: r.member_epoch,
        owned: parts(&r).unwrap(),
    };
    let mut ms = vec![a.clone(), M::join(&mut h, "b", 2)];
    converge(&mut h, &mut ms);
    a = ms[0].clone();
    let epoch = h.describe_consumer_group().group_epoch;
    let leave = ConsumerGroupHeartbeatRequest {
        instance_id: Some("i1".into()),
        ..beat_hb("a1", -2, &a.owned)
    };
    let r = hb(&mut h, 1, leave);
    assert_eq!((r.error_code, r.member_epoch), (ErrorCode::None, -2));
    assert_eq!(
        h.describe_consumer_group().group_epoch,
        epoch,
        "no bump on a temporary leave"
    );
    // The same instance restarts with a new member id within the session.
    h.advance(10_000);
    let r = hb(&mut h, 3, join_static("a2"));
    assert_eq!(r.error_code, ErrorCode::None, "{r:?}");
    assert_eq!(parts(&r), Some(a.owned.clone()), "the old assignment, in full");
    assert_eq!(r.member_epoch, epoch);
    let g = h.describe_consumer_group();
    assert_eq!(g.group_epoch, epoch, "no bump on a replacement");
    assert!(g.members.iter().any(|m| m.member_id == "a2") && !g.members.iter().any(|m| m.member_id == "a1"));
    check("consumer_static_leave_rejoin", &h);
}

#[test]
fn golden_failover_during_reconciliation() {
    let mut h = harness(4);
    let mut a = M::join(&mut h, "a", 1);
    let b = M::join(&mut h, "b", 2);
    let r = hb(&mut h, 1, beat_hb("a", 1, &[0, 1, 2, 3]));
    assert_eq!(r.member_epoch, 1);
    let before = h.describe_consumer_group();
    // The coordinator moves: the partition's log is replayed by a new one.
    let p = h.partition();
    h.advance(1_000);
    let log = h.coord.unload(h.now, p);
    let cfg = CoordinatorConfig {
        node_id: NodeId(2),
        ..v41()
    };
    let mut c2 = rebalance_engine::Coordinator::new(cfg);
    c2.set_topic_metadata(Map::from([(T.to_string(), 4)]));
    c2.load(h.now, p, log);
    h.coord = c2;
    h.pump();
    let after = h.describe_consumer_group();
    assert_eq!(
        (
            after.group_epoch,
            after.assignment_epoch,
            after.group_state.clone()
        ),
        (
            before.group_epoch,
            before.assignment_epoch,
            before.group_state.clone()
        )
    );
    assert_eq!(after.members, before.members);
    // Both timers restarted for a (still revoking) and the session for b.
    for key in [
        TimerKey::ConsumerSession {
            group_id: G.into(),
            member_id: "a".into(),
        },
        TimerKey::ConsumerRebalance {
            group_id: G.into(),
            member_id: "a".into(),
        },
        TimerKey::ConsumerSession {
            group_id: G.into(),
            member_id: "b".into(),
        },
    ] {
        assert!(h.coord.timer(&key).is_some(), "{key}");
    }
    a.epoch = 1;
    a.owned = parts(&r).unwrap();
    let mut ms = vec![a, b];
    converge(&mut h, &mut ms);
    assert_eq!(ms[0].owned.len() + ms[1].owned.len(), 4);
    check("consumer_failover_during_reconciliation", &h);
}

// ---------------------------------------------------------------------------------- rules

fn error(h: &mut Harness, req: ConsumerGroupHeartbeatRequest) -> (ErrorCode, String) {
    let r = hb(h, 7, req);
    (r.error_code, r.error_message.unwrap_or_default())
}

#[test]
fn invalid_requests_are_refused_with_kafkas_messages() {
    let mut h = harness(2);
    let cases = [
        (
            ConsumerGroupHeartbeatRequest {
                member_id: String::new(),
                ..join_hb("")
            },
            "MemberId can't be empty.",
        ),
        (
            ConsumerGroupHeartbeatRequest {
                group_id: String::new(),
                ..join_hb("a")
            },
            "GroupId can't be empty.",
        ),
        (
            ConsumerGroupHeartbeatRequest {
                instance_id: Some(String::new()),
                ..join_hb("a")
            },
            "InstanceId can't be empty.",
        ),
        (
            ConsumerGroupHeartbeatRequest {
                rack_id: Some(String::new()),
                ..join_hb("a")
            },
            "RackId can't be empty.",
        ),
        (
            ConsumerGroupHeartbeatRequest {
                rebalance_timeout_ms: -1,
                ..join_hb("a")
            },
            "RebalanceTimeoutMs must be provided in first request.",
        ),
        (
            ConsumerGroupHeartbeatRequest {
                topic_partitions: None,
                ..join_hb("a")
            },
            "TopicPartitions must be empty when (re-)joining.",
        ),
        (
            ConsumerGroupHeartbeatRequest {
                subscribed_topic_names: None,
                ..join_hb("a")
            },
            "Either SubscribedTopicNames or SubscribedTopicRegex must be non-null when (re-)joining.",
        ),
        (beat_hb("a", -2, &[]), "InstanceId can't be null."),
        (beat_hb("a", -3, &[]), "MemberEpoch is invalid."),
    ];
    for (req, msg) in cases {
        assert_eq!(error(&mut h, req), (ErrorCode::InvalidRequest, msg.to_string()));
    }
    // v0 lets the coordinator generate the member id on join.
    let r = hb(
        &mut h,
        1,
        ConsumerGroupHeartbeatRequest {
            api_version: 0,
            ..join_hb("")
        },
    );
    assert_eq!(r.member_id.as_deref(), Some("client--1"));
    assert_eq!(r.heartbeat_interval_ms, 5_000);
}

#[test]
fn assignor_regex_group_and_member_errors() {
    let mut h = harness(2);
    let (e, m) = error(
        &mut h,
        ConsumerGroupHeartbeatRequest {
            server_assignor: Some("sticky".into()),
            ..join_hb("a")
        },
    );
    assert_eq!(e, ErrorCode::UnsupportedAssignor);
    assert_eq!(
        m,
        "ServerAssignor sticky is not supported. Supported assignors: uniform, range."
    );
    let (e, _) = error(
        &mut h,
        ConsumerGroupHeartbeatRequest {
            subscribed_topic_regex: Some("[".into()),
            ..join_hb("a")
        },
    );
    assert_eq!(e, ErrorCode::InvalidRegularExpression);
    assert_eq!(
        error(&mut h, beat_hb("a", 1, &[])),
        (
            ErrorCode::GroupIdNotFound,
            format!("Consumer group {G} not found.")
        )
    );
    M::join(&mut h, "a", 1);
    assert_eq!(
        error(&mut h, beat_hb("z", 1, &[])),
        (
            ErrorCode::UnknownMemberId,
            format!("Member z is not a member of group {G}.")
        )
    );
    // A leave from an unknown member.
    assert_eq!(error(&mut h, beat_hb("z", -1, &[])).0, ErrorCode::UnknownMemberId);
}

#[test]
fn member_epoch_validation_and_the_previous_epoch_retry() {
    let mut h = harness(4);
    let mut a = M::join(&mut h, "a", 1);
    let mut b = M::join(&mut h, "b", 2);
    let mut ms = [a.clone(), b.clone()];
    converge(&mut h, &mut ms);
    [a, b] = ms;
    let (e, m) = error(&mut h, beat_hb("a", a.epoch + 1, &a.owned));
    assert_eq!(e, ErrorCode::FencedMemberEpoch);
    assert!(m.contains("greater member epoch"), "{m}");
    // A rejoin (epoch 0) under an id the group still has at a later epoch.
    let (e, m) = error(&mut h, join_hb("a"));
    assert_eq!(e, ErrorCode::FencedMemberEpoch, "{m}");
    // a's previous epoch, with owned partitions within its assignment: a lost response, accepted.
    let prev = a.epoch - 1;
    let r = hb(&mut h, 1, beat_hb("a", prev, &a.owned[..1]));
    assert_eq!((r.error_code, r.member_epoch), (ErrorCode::None, a.epoch));
    // ... but not with a partition it is not entitled to.
    let (e, _) = error(&mut h, beat_hb("a", prev, &b.owned));
    assert_eq!(e, ErrorCode::FencedMemberEpoch);
    // ... nor without reporting ownership.
    let mut req = beat_hb("a", prev, &[]);
    req.topic_partitions = None;
    assert_eq!(error(&mut h, req).0, ErrorCode::FencedMemberEpoch);
    a.beat(&mut h);
    b.beat(&mut h);
}

#[test]
fn revoke_before_assign() {
    let mut h = harness(4);
    let mut a = M::join(&mut h, "a", 1);
    let mut b = M::join(&mut h, "b", 2);
    assert!(b.owned.is_empty());
    // a has not acknowledged yet: b still gets nothing.
    b.beat(&mut h);
    assert!(b.owned.is_empty());
    let r = hb(&mut h, 1, beat_hb("a", 1, &[0, 1, 2, 3]));
    assert_eq!(r.member_epoch, 1);
    a.owned = parts(&r).unwrap();
    b.beat(&mut h);
    assert!(b.owned.is_empty(), "a still reported the revoked partitions");
    // a acknowledges: it moves to epoch 2; b gets the freed partitions on its next heartbeat.
    a.beat(&mut h);
    assert_eq!(a.epoch, 2);
    b.beat(&mut h);
    assert_eq!(b.owned.len(), 2);
    let mut all: Vec<i32> = a.owned.iter().chain(&b.owned).copied().collect();
    all.sort();
    assert_eq!(all, vec![0, 1, 2, 3]);
}

#[test]
fn static_member_errors() {
    let mut h = harness(2);
    let st = |id: &str| ConsumerGroupHeartbeatRequest {
        instance_id: Some("i1".into()),
        ..join_hb(id)
    };
    assert_eq!(hb(&mut h, 1, st("a1")).error_code, ErrorCode::None);
    // Another id with the instance while a1 did not leave with -2.
    assert_eq!(error(&mut h, st("a2")).0, ErrorCode::UnreleasedInstanceId);
    // A heartbeat of another id for the instance.
    let mut req = beat_hb("a2", 1, &[]);
    req.instance_id = Some("i1".into());
    assert_eq!(error(&mut h, req).0, ErrorCode::FencedInstanceId);
    let mut req = beat_hb("a1", 1, &[]);
    req.instance_id = Some("i9".into());
    assert_eq!(
        error(&mut h, req),
        (ErrorCode::UnknownMemberId, "Instance id i9 is unknown.".into())
    );
}

#[test]
fn group_max_size() {
    let mut h = Harness::with_config(CoordinatorConfig {
        group_consumer_max_size: 1,
        ..v41()
    });
    h.coord.set_topic_metadata(Map::from([(T.to_string(), 2)]));
    M::join(&mut h, "a", 1);
    assert_eq!(error(&mut h, join_hb("b")).0, ErrorCode::GroupMaxSizeReached);
}

/// `group.consumer.migration.policy=disabled`: no mixed group (the other policies are in
/// `consumer_migration.rs`).
fn disabled(partitions: i32) -> Harness {
    let mut h = Harness::with_config(CoordinatorConfig {
        group_consumer_migration_policy: rebalance_engine::MigrationPolicy::Disabled,
        ..v41()
    });
    h.coord
        .set_topic_metadata(Map::from([(T.to_string(), partitions)]));
    h
}

#[test]
fn coordinator_errors_and_classic_apis_on_a_consumer_group() {
    let mut h = disabled(2);
    let a = M::join(&mut h, "a", 1);
    // A classic JoinGroup on a non-empty consumer group (policy disabled).
    let t = h.join(5, join_req(""));
    assert_eq!(h.join_resp(t).error_code, ErrorCode::InconsistentGroupProtocol);
    // The classic DescribeGroups sees a Dead group (old tools show KIP-848 groups as Dead).
    let d = h.describe();
    assert_eq!((d.group_state, d.members.len()), (GroupState::Dead, 0));
    // Classic Heartbeat and SyncGroup: not a member.
    assert_eq!(h.heartbeat(5, "a", 1), ErrorCode::UnknownMemberId);
    // OffsetCommit: the member epoch must match (v9+).
    let commit = |epoch: i32, v: i16| OffsetCommitRequest {
        api_version: v,
        group_id: G.into(),
        generation_id: epoch,
        member_id: "a".into(),
        partitions: vec![OffsetCommitPartition {
            topic: "foo".into(),
            partition: 0,
            committed_offset: 5,
            committed_leader_epoch: -1,
            committed_metadata: String::new(),
        }],
        ..Default::default()
    };
    assert_eq!(
        h.commit_req(1, commit(a.epoch + 1, 9)),
        ErrorCode::StaleMemberEpoch
    );
    assert_eq!(h.commit_req(1, commit(a.epoch, 8)), ErrorCode::UnsupportedVersion);
    assert_eq!(h.commit_req(1, commit(a.epoch, 9)), ErrorCode::None);
    assert_eq!(h.fetch(1), 5);
    // A heartbeat to a group whose id is a classic group.
    let mut h2 = disabled(2);
    h2.stable_group(1);
    assert_eq!(
        error(&mut h2, beat_hb("x", 1, &[])),
        (
            ErrorCode::GroupIdNotFound,
            format!("Group {G} is not a consumer group.")
        )
    );
    assert_eq!(error(&mut h2, join_hb("x")).0, ErrorCode::GroupIdNotFound);
    // Inactive coordinator.
    h.coord.set_active(false);
    assert_eq!(error(&mut h, join_hb("b")).0, ErrorCode::CoordinatorNotAvailable);
    h.coord.set_active(true);
    // Not the coordinator for the group.
    let mut req = join_hb("b");
    req.group_id = "another-group-xyz".into();
    if h.coord.partition_for("another-group-xyz") != h.partition() {
        assert_eq!(error(&mut h, req).0, ErrorCode::NotCoordinator);
    }
}

#[test]
fn leaving_bumps_the_epoch_without_a_target_and_an_empty_group_turns_classic() {
    let mut h = harness(2);
    let a = M::join(&mut h, "a", 1);
    let r = hb(&mut h, 1, beat_hb("a", -1, &a.owned));
    assert_eq!((r.member_epoch, r.heartbeat_interval_ms), (-1, 0));
    let g = h.describe_consumer_group();
    assert_eq!(
        (g.group_state.as_str(), g.group_epoch, g.assignment_epoch),
        ("Empty", 2, 1)
    );
    // An empty consumer group receiving a classic JoinGroup becomes a classic group.
    let t = h.join(5, join_req(""));
    assert_eq!(h.join_resp(t).error_code, ErrorCode::MemberIdRequired);
    assert!(h.saw(|k| matches!(
        k,
        EventKind::GroupTypeConverted {
            to_consumer: false,
            ..
        }
    )));
    assert_eq!(h.describe_consumer_group().error_code, ErrorCode::GroupIdNotFound);
}

#[test]
fn describe_reports_epochs_assignor_and_both_assignments() {
    let mut h = harness(4);
    let _a = M::join(&mut h, "a", 1);
    let _b = M::join(&mut h, "b", 2);
    let g = h.describe_consumer_group();
    assert_eq!(
        (g.group_state.as_str(), g.group_epoch, g.assignment_epoch),
        ("Reconciling", 2, 2)
    );
    assert_eq!(g.assignor_name, "uniform");
    let a = &g.members[0];
    assert_eq!(
        a.assignment.topic_partitions[0].partitions.len(),
        4,
        "a has not revoked yet"
    );
    assert_eq!(a.target_assignment.topic_partitions[0].partitions.len(), 2);
    assert_eq!(a.member_type, MEMBER_TYPE_CONSUMER);
}

// ---------------------------------------------------------------------------------- property

#[derive(Clone, Debug)]
enum Op {
    Join(usize),
    /// Heartbeat reporting what the member owns; acknowledges revocations.
    Ack(usize),
    /// Heartbeat still reporting what it owned before its last response (slow to revoke).
    Stale(usize),
    Leave(usize),
    Wait(u64),
}

/// A member as the property test tracks it: epoch, owned now, owned before the last response.
type Seen = (i32, Vec<i32>, Vec<i32>);

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (0..4usize).prop_map(Op::Join),
        (0..4usize).prop_map(Op::Ack),
        (0..4usize).prop_map(Op::Ack),
        (0..4usize).prop_map(Op::Stale),
        (0..4usize).prop_map(Op::Leave),
        (1..40_000u64).prop_map(Op::Wait),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// No panic (the coordinator asserts the single-owner invariant on every update), and at no
    /// point do two members' assignments overlap, whatever the members send.
    #[test]
    fn one_owner_per_partition(ops in proptest::collection::vec(op(), 1..60)) {
        let mut h = harness(5);
        // (epoch, owned now, owned before the last response)
        let mut ms: Vec<Option<Seen>> = vec![None; 4];
        for o in ops {
            match o {
                Op::Join(i) => {
                    let r = hb(&mut h, i as u64 + 1, join_hb(&format!("m{i}")));
                    if r.error_code.is_none() {
                        ms[i] = Some((r.member_epoch, parts(&r).unwrap_or_default(), vec![]));
                    }
                }
                Op::Ack(i) | Op::Stale(i) => {
                    let Some((epoch, owned, before)) = ms[i].clone() else { continue };
                    let report = if matches!(o, Op::Stale(_)) { before.clone() } else { owned.clone() };
                    let r = hb(&mut h, i as u64 + 1, beat_hb(&format!("m{i}"), epoch, &report));
                    if r.error_code.is_none() {
                        ms[i] = Some((r.member_epoch, parts(&r).unwrap_or(owned.clone()), owned));
                    } else {
                        ms[i] = None;
                    }
                }
                Op::Leave(i) => {
                    if let Some((epoch, owned, _)) = ms[i].clone() {
                        hb(&mut h, i as u64 + 1, beat_hb(&format!("m{i}"), -1, &owned));
                        let _ = epoch;
                        ms[i] = None;
                    }
                }
                Op::Wait(ms_) => h.advance(ms_),
            }
            let g = h.describe_consumer_group();
            let mut seen = Set::new();
            for m in &g.members {
                for t in &m.assignment.topic_partitions {
                    for p in &t.partitions {
                        prop_assert!(seen.insert(*p), "partition {} assigned twice: {:?}", p, g);
                    }
                }
            }
        }
        let _ = SimTime::ZERO;
    }
}

// ---------------------------------------------------------------------------------- scenarios

/// Raw `request` actions take the consumer protocol's requests, with Kafka's field names in snake
/// case; the simulation hands the broker its topic metadata, so the scripted member gets its
/// partitions. A misspelt field is refused.
#[test]
fn a_scenario_scripts_consumer_group_heartbeats() {
    let text = r#"{
      "version": 1, "seed": 1, "end_ms": 20000, "group_id": "g",
      "topics": [{"name": "t", "partitions": 3, "records_per_sec": 1}],
      "coordinator": {"kafka_version": "4.1", "group_consumer_session_timeout_ms": 45000, "group_consumer_heartbeat_interval_ms": 5000},
      "actions": [
        {"type": "request", "at_ms": 1000, "script": "m1", "request": {"ConsumerGroupHeartbeat": {
          "api_version": 1, "group_id": "g", "member_id": "m1", "member_epoch": 0, "instance_id": null,
          "rack_id": null, "rebalance_timeout_ms": 300000, "subscribed_topic_names": ["t"],
          "subscribed_topic_regex": null, "server_assignor": "range", "topic_partitions": [],
          "client_id": "m1", "client_host": "/10.0.0.1"}}},
        {"type": "request", "at_ms": 2000, "script": "m1", "request": {"ConsumerGroupDescribe": {
          "group_ids": ["g"], "include_authorized_operations": false}}}
      ]
    }"#;
    let scenario = rebalance_engine::Scenario::from_json(text).expect("valid scenario");
    let mut sim = rebalance_engine::Simulation::new(&scenario).expect("a simulation");
    sim.run_to_end();
    let trace = sim.trace_text(false);
    assert!(
        trace.contains("target assignment for epoch 1 (range): m1 -> [t-0, t-1, t-2]"),
        "{trace}"
    );
    assert!(
        trace.contains("\"g\" NONE Stable epoch=1 assignment_epoch=1 assignor=\"range\""),
        "{trace}"
    );
    let bad = text.replace("\"rack_id\": null", "\"rack\": null");
    let e = rebalance_engine::Scenario::from_json(&bad).unwrap_err();
    assert!(e.to_string().contains("unknown field"), "{e}");
}
