//! Scenarios over the virtual-time harness. Each states the Kafka rule it checks and, where there is
//! one, the Kafka test it mirrors.

mod common;

use common::*;
use rebalance_engine::protocol::*;
use rebalance_engine::{
    Coordinator, CoordinatorConfig, EventKind, Reason, RecordBody, RemovalReason, SimDuration, SimTime,
    TimerKind,
};

fn fired_initial_delay_ticks(h: &Harness) -> Vec<u64> {
    h.events
        .iter()
        .filter(|e| {
            matches!(
                e.kind,
                EventKind::TimerFired {
                    kind: TimerKind::InitialRebalanceDelay { .. },
                    ..
                }
            )
        })
        .map(|e| e.at.as_millis())
        .collect()
}

fn completed_at(h: &Harness) -> u64 {
    h.events
        .iter()
        .find(|e| {
            matches!(
                &e.kind,
                EventKind::StateChanged {
                    to: GroupState::CompletingRebalance,
                    ..
                }
            )
        })
        .expect("join phase completed")
        .at
        .as_millis()
}

// Reference §5.4, first worked example: D = 3000, RT = 10000 and new members arriving continuously:
// ticks at 3000, 6000, 9000 and 10000; the phase completes at 10000.
// (GroupMetadataManagerTest.testDelayRebalanceUptoRebalanceTimeout.)
#[test]
fn initial_delay_extends_up_to_the_rebalance_timeout() {
    let mut h = Harness::new();
    let rt = |r: JoinGroupRequest| JoinGroupRequest {
        rebalance_timeout_ms: 10_000,
        ..r
    };
    let mut tickets = vec![h.join(1, rt(join_req("").version(3)))];
    for i in 2..=12u64 {
        h.advance(1_000); // t = 1000 .. 11000
        tickets.push(h.join(i, rt(join_req("").version(3))));
    }
    assert_eq!(fired_initial_delay_ticks(&h), vec![3_000, 6_000, 9_000, 10_000]);
    assert_eq!(completed_at(&h), 10_000);
    // Everyone who joined by 10000 got generation 1; the one joining at 11000 started a new rebalance.
    for t in &tickets[..10] {
        assert_eq!(h.join_resp(*t).generation_id, 1);
    }
}

// Reference §5.4, second worked example: D = 3000, RT = 9000, a second member at 2999: the tick at
// 3000 extends to 6000, and the phase completes at 6000 because nobody else joined.
#[test]
fn initial_delay_extends_once_for_a_late_member() {
    let mut h = Harness::new();
    let rt = |r: JoinGroupRequest| JoinGroupRequest {
        rebalance_timeout_ms: 9_000,
        ..r
    };
    let (a, ta) = h.join_dynamic_with(1, rt(join_req("")));
    h.advance(2_999);
    let (_b, tb) = h.join_dynamic_with(2, rt(join_req("")));
    h.advance(10_000 - 2_999);
    assert_eq!(fired_initial_delay_ticks(&h), vec![3_000, 6_000]);
    assert_eq!(completed_at(&h), 6_000);
    let ra = h.join_resp(ta);
    let rb = h.join_resp(tb);
    assert_eq!(ra.leader, a, "leader = first joiner");
    assert_eq!(ra.members.len(), 2);
    assert!(rb.members.is_empty());
    // The initial delay is not shortened when everyone has joined (reference §11).
    assert!(completed_at(&h) > 2_999);
}

// Reference §11: a single-member group whose only member (the leader) rejoins completes the next
// generation synchronously.
#[test]
fn single_member_rejoin_completes_synchronously() {
    let mut h = Harness::new();
    let ids = h.stable_group(1);
    let t = h.join(1, join_req(&ids[0]));
    let r = h.join_resp(t);
    assert_eq!(
        (r.error_code, r.generation_id, r.leader.as_str()),
        (ErrorCode::None, 2, ids[0].as_str())
    );
    assert_eq!(h.state(), GroupState::CompletingRebalance);
}

// A second member joins a Stable group: the group rebalances, the leader learns it from its
// heartbeat (REBALANCE_IN_PROGRESS), rejoins, and both get generation 2; the leader's response lists
// both members, the follower's none.
#[test]
fn second_member_joins_a_stable_group() {
    let mut h = Harness::new();
    let ids = h.stable_group(1);
    let (b, tb) = h.join_dynamic(2, "c2");
    assert_eq!(h.state(), GroupState::PreparingRebalance);
    assert_eq!(h.heartbeat(1, &ids[0], 1), ErrorCode::RebalanceInProgress);
    let ta = h.join(1, join_req(&ids[0]).client("c1"));
    let ra = h.join_resp(ta);
    let rb = h.join_resp(tb);
    assert_eq!((ra.generation_id, rb.generation_id), (2, 2));
    assert_eq!(ra.leader, ids[0]);
    assert_eq!(
        ra.members.iter().map(|m| m.member_id.clone()).collect::<Vec<_>>(),
        vec![ids[0].clone(), b.clone()]
    );
    assert!(rb.members.is_empty());
    // Old-generation heartbeats from members that rejoined are now ILLEGAL_GENERATION (§3.4).
    assert_eq!(h.heartbeat(1, &ids[0], 1), ErrorCode::IllegalGeneration);
    assert_eq!(h.heartbeat(1, &ids[0], 2), ErrorCode::None);
}

// SyncGroup: the follower waits for the leader; the leader's assignment answers both.
#[test]
fn leader_and_follower_sync() {
    let mut h = Harness::new();
    let ids = h.joined_group(2);
    let (a, b) = (&ids[0], &ids[1]);
    let fb = h.sync(2, b, 1, vec![]);
    h.advance(100);
    assert!(!h.answered(fb), "the follower is parked until the leader syncs");
    let fa = h.sync(1, a, 1, assign_one_each(&ids));
    assert_eq!(
        h.sync_resp(fb).assignment.partitions,
        vec![TopicPartition::new("foo", 1)]
    );
    assert_eq!(
        h.sync_resp(fa).assignment.partitions,
        vec![TopicPartition::new("foo", 0)]
    );
    assert_eq!(h.state(), GroupState::Stable);
    // Completing a parked SyncGroup re-arms the session (reference §5.1).
    assert_eq!(h.session_deadline(b), h.now + SESSION);
}

// Heartbeats during a rebalance: PR → REBALANCE_IN_PROGRESS (and the session stays alive), CR →
// NONE.
#[test]
fn heartbeat_during_rebalance_keeps_the_session() {
    let mut h = Harness::new();
    let ids = h.stable_group(2);
    let ta = h.join(1, join_req(&ids[0]));
    // The follower keeps heartbeating for longer than its session: it is not removed.
    for _ in 0..5 {
        h.advance(5_000);
        assert_eq!(h.heartbeat(2, &ids[1], 1), ErrorCode::RebalanceInProgress);
    }
    assert_eq!(h.member_ids().len(), 2);
    let tb = h.join(2, join_req(&ids[1]));
    assert_eq!(h.join_resp(ta).generation_id, 2);
    assert_eq!(h.join_resp(tb).generation_id, 2);
    assert_eq!(
        h.heartbeat(2, &ids[1], 2),
        ErrorCode::None,
        "NONE in CompletingRebalance"
    );
}

// A commit from an old generation is rejected and changes nothing
// (OffsetMetadataManagerTest: classic group offset commit with illegal generation).
#[test]
fn stale_generation_commit_is_rejected() {
    let mut h = Harness::new();
    let ids = h.stable_group(1);
    assert_eq!(h.commit(1, &ids[0], 1, 10), ErrorCode::None);
    let t = h.join(1, join_req(&ids[0]));
    assert_eq!(h.join_resp(t).generation_id, 2);
    let s = h.sync(1, &ids[0], 2, assign_one_each(&ids));
    h.sync_resp(s);
    assert_eq!(h.commit(1, &ids[0], 1, 99), ErrorCode::IllegalGeneration);
    assert_eq!(h.fetch(1), 10);
    assert_eq!(h.commit(1, &ids[0], 2, 11), ErrorCode::None);
    assert_eq!(h.fetch(1), 11);
}

// The leader leaves during CompletingRebalance: leadership passes to the earliest-joined remaining
// member at once, parked syncs get REBALANCE_IN_PROGRESS, and the next generation has the new leader
// (GroupMetadataManagerTest.testLeaderFailureInSyncGroup covers the failure variant).
#[test]
fn leader_leaves_during_completing_rebalance() {
    let mut h = Harness::new();
    let ids = h.joined_group(3);
    let (a, b, c) = (&ids[0], &ids[1], &ids[2]);
    let sb = h.sync(2, b, 1, vec![]);
    h.leave(1, &[(a, None)]);
    assert_eq!(h.leader(), Some(b.clone()));
    assert_eq!(h.sync_resp(sb).error_code, ErrorCode::RebalanceInProgress);
    assert_eq!(h.state(), GroupState::PreparingRebalance);
    let tb = h.join(2, join_req(b));
    let tc = h.join(3, join_req(c));
    let rb = h.join_resp(tb);
    assert_eq!((rb.generation_id, rb.leader.as_str()), (2, b.as_str()));
    assert_eq!(rb.members.len(), 2);
    assert_eq!(h.join_resp(tc).leader, *b);
}

// Session expiry in Stable: the silent member is removed after session.timeout.ms and the group
// rebalances (GroupMetadataManagerTest.testSessionTimeout).
#[test]
fn session_expiry_in_stable() {
    let mut h = Harness::new();
    let ids = h.stable_group(2);
    let start = h.now;
    for _ in 0..3 {
        h.advance(3_000);
        assert_eq!(h.heartbeat(1, &ids[0], 1), ErrorCode::None);
    }
    h.advance(1_000);
    let removed = h
        .first_event(|k| {
            matches!(
                k,
                EventKind::MemberRemoved {
                    reason: RemovalReason::SessionExpired,
                    ..
                }
            )
        })
        .expect("the silent member expired");
    assert_eq!(removed.at, start + SESSION);
    assert_eq!(h.member_ids(), vec![ids[0].clone()]);
    assert_eq!(h.state(), GroupState::PreparingRebalance);
    assert!(h.saw(|k| matches!(
        k,
        EventKind::StateChanged {
            from: GroupState::Stable,
            to: GroupState::PreparingRebalance,
            reason: Reason::SessionExpired { .. },
            ..
        }
    )));
}

// A dynamic member that keeps heartbeating but does not rejoin within the rebalance timeout is
// removed when the join phase completes; the others get the next generation.
#[test]
fn member_not_rejoining_within_rebalance_timeout_is_removed() {
    let mut h = Harness::new();
    let ids = h.stable_group(2);
    let start = h.now;
    let ta = h.join(1, join_req(&ids[0]));
    while h.now < start + SimDuration::from_millis(REBALANCE_MS as u64 - 1) {
        h.advance(3_000);
        if h.member_ids().contains(&ids[1]) {
            h.heartbeat(2, &ids[1], 1);
        }
    }
    let r = h.join_resp(ta);
    assert_eq!(r.generation_id, 2);
    assert_eq!(r.members.len(), 1);
    assert!(h.saw(|k| matches!(
        k,
        EventKind::MemberRemoved { reason: RemovalReason::NotRejoined, member_id, .. } if *member_id == ids[1]
    )));
    assert_eq!(h.heartbeat(2, &ids[1], 1), ErrorCode::UnknownMemberId);
}

// Static members that do not rejoin stay in the group (and in the leader's member list); a group of
// only un-rejoined static members keeps extending its join phase (reference §3.2 step 3, §7).
#[test]
fn static_members_survive_join_completion() {
    let mut h = Harness::new();
    let (a, b) = h.static_pair();
    let t = h.join(1, join_req(&a).instance("i1"));
    // i2 stays alive (heartbeats) but does not rejoin: at the rebalance timeout the phase completes
    // without it, and it is kept.
    for _ in 0..10 {
        h.advance(3_000);
        h.heartbeat_static(2, &b, Some("i2"), 1);
    }
    let r = h.join_resp(t);
    assert_eq!(r.generation_id, 2);
    assert_eq!(
        r.members.len(),
        2,
        "the static member that did not rejoin is listed"
    );
    assert!(h.member_ids().contains(&b));
}

// Everyone leaves: the group goes PR → Empty and the generation still goes up (reference §4.2);
// an Empty group record is persisted.
#[test]
fn everyone_leaves() {
    let mut h = Harness::new();
    let ids = h.stable_group(2);
    h.leave(1, &[(&ids[0], None), (&ids[1], None)]);
    assert_eq!(h.state(), GroupState::Empty);
    assert_eq!(h.generation(), 2);
    assert_eq!(h.leader(), None);
    assert_eq!(h.snapshot().protocol_name, None, "the protocol is cleared");
    assert_eq!(
        h.snapshot().protocol_type.as_deref(),
        Some("consumer"),
        "the protocol type is kept"
    );
    assert!(
        matches!(h.last_record(), RecordBody::GroupMetadata(m) if m.generation_id == 2 && m.members.is_empty())
    );
}

// An unknown member id: UNKNOWN_MEMBER_ID for every API (reference §3.0 member validation), even
// with a wrong generation.
#[test]
fn unknown_member_everywhere() {
    let mut h = Harness::new();
    h.stable_group(1);
    assert_eq!(h.heartbeat(9, "ghost", 42), ErrorCode::UnknownMemberId);
    let t = h.sync(9, "ghost", 42, vec![]);
    assert_eq!(h.sync_resp(t).error_code, ErrorCode::UnknownMemberId);
    let t = h.join(9, join_req("ghost"));
    assert_eq!(h.join_resp(t).error_code, ErrorCode::UnknownMemberId);
    assert_eq!(h.commit(9, "ghost", 42, 1), ErrorCode::UnknownMemberId);
    assert_eq!(
        h.leave(9, &[("ghost", None)]).members[0].error_code,
        ErrorCode::UnknownMemberId
    );
    assert_eq!(h.state(), GroupState::Stable);
}

// KIP-345: a static member restarts (new member id) without a rebalance and gets its assignment back;
// v9+ tells a returning leader it leads, with skip_assignment; below v9 the old leader id is reported.
#[test]
fn static_rejoin_without_rebalance() {
    let mut h = Harness::new();
    let (a, _b) = h.static_pair();

    // The leader bounces with v9: it learns it leads, gets the members and must skip the assignment.
    let t = h.join(3, join_req("").instance("i1"));
    let r = h.join_resp(t);
    assert_eq!((r.error_code, r.generation_id), (ErrorCode::None, 1));
    assert_eq!(r.leader, r.member_id);
    assert!(r.skip_assignment);
    assert_eq!(r.members.len(), 2);
    let a2 = r.member_id;
    // It bounces again with v8: the response names the previous leader id (its own old id).
    let t = h.join(4, join_req("").instance("i1").version(8));
    let r = h.join_resp(t);
    assert_eq!(r.leader, a2);
    assert_ne!(r.member_id, a2);
    assert!(!r.skip_assignment && r.members.is_empty());
    assert_eq!(h.state(), GroupState::Stable);
    assert_eq!(h.generation(), 1);
    let s = h.sync(4, &r.member_id, 1, vec![]);
    assert_eq!(
        h.sync_resp(s).assignment.partitions,
        vec![TopicPartition::new("foo", 0)]
    );
    assert_eq!(h.leader(), Some(r.member_id.clone()));
    // The old ids are fenced.
    assert_eq!(
        h.heartbeat_static(1, &a, Some("i1"), 1),
        ErrorCode::FencedInstanceId
    );
    assert_eq!(
        h.heartbeat_static(3, &a2, Some("i1"), 1),
        ErrorCode::FencedInstanceId
    );
    assert_eq!(
        h.commit_req(
            1,
            OffsetCommitRequest {
                group_id: G.into(),
                generation_id: 1,
                member_id: a,
                group_instance_id: Some("i1".into()),
                partitions: vec![OffsetCommitPartition {
                    topic: "foo".into(),
                    ..Default::default()
                }],
                ..Default::default()
            }
        ),
        ErrorCode::FencedInstanceId
    );
}

// Protocol mismatch: a joiner with no protocol in common gets INCONSISTENT_GROUP_PROTOCOL and the
// group is undisturbed; voting picks the most-voted common protocol.
#[test]
fn protocol_mismatch_and_vote() {
    let mut h = Harness::no_delay();
    let t1 = h.join(
        1,
        join_req("").version(3).with_protocols(&["roundrobin", "range"]),
    );
    h.advance(0);
    let r1 = h.join_resp(t1);
    assert_eq!(r1.protocol_name.as_deref(), Some("roundrobin"));
    let t = h.join(2, join_req("").with_protocols(&["sticky"]));
    assert_eq!(h.join_resp(t).error_code, ErrorCode::InconsistentGroupProtocol);
    // Two members, one per preference: 1–1 tie; JDK HashMap order puts range first, so range wins
    // (reference §4.3).
    let (b, tb) = h.join_dynamic_with(2, join_req("").with_protocols(&["range", "roundrobin"]));
    let ta = h.join(
        1,
        join_req(&r1.member_id).with_protocols(&["roundrobin", "range"]),
    );
    let ra = h.join_resp(ta);
    assert_eq!(ra.protocol_name.as_deref(), Some("range"));
    assert_eq!(h.join_resp(tb).protocol_name.as_deref(), Some("range"));
    let _ = b;
}

// The pending-sync timeout (KAFKA-12890): after the join phase, members that never send SyncGroup
// are removed after the rebalance timeout, even once the group is Stable.
#[test]
fn pending_sync_timeout_removes_late_followers() {
    let mut h = Harness::new();
    let ids = h.joined_group(2);
    let (a, b) = (&ids[0], &ids[1]);
    let s = h.sync(1, a, 1, assign_one_each(&ids));
    h.sync_resp(s);
    assert_eq!(h.state(), GroupState::Stable);
    for _ in 0..10 {
        h.advance(3_000);
        h.heartbeat(1, a, 1);
        if h.member_ids().contains(b) {
            h.heartbeat(2, b, 1);
        }
    }
    assert!(h.saw(|k| matches!(
        k,
        EventKind::MemberRemoved { reason: RemovalReason::PendingSyncExpired, member_id, .. } if member_id == b
    )));
    assert_eq!(h.member_ids(), vec![a.clone()]);
}

// Reference §11.1 (Java): with a 10-minute initial delay, a lone new member that never comes back
// times out after the 300 s new-member join timeout, and the group completes to Empty with
// generation 1 at that moment (GroupMetadataManagerTest.testHeartbeatExpirationShouldRemoveMember).
#[test]
fn new_member_join_timeout_during_initial_delay() {
    let mut h = Harness::with_config(CoordinatorConfig {
        group_initial_rebalance_delay_ms: 600_000,
        ..config()
    });
    let t = h.join(
        1,
        JoinGroupRequest {
            rebalance_timeout_ms: 900_000,
            ..join_req("").version(3)
        },
    );
    h.advance(300_000);
    let r = h.join_resp(t);
    assert_eq!(r.error_code, ErrorCode::UnknownMemberId);
    assert_eq!(h.state(), GroupState::Empty);
    assert_eq!(h.generation(), 1);
    let emptied = h
        .first_event(|k| {
            matches!(
                k,
                EventKind::StateChanged {
                    to: GroupState::Empty,
                    ..
                }
            )
        })
        .unwrap();
    assert_eq!(emptied.at, SimTime(300_000));
}

// A pending member (MEMBER_ID_REQUIRED) that never comes back expires after its session timeout, and
// it blocks join completion until then (reference §3.2, §5.1).
#[test]
fn pending_member_blocks_completion_until_it_expires() {
    let mut h = Harness::new();
    let ids = h.stable_group(1);
    let t = h.join(2, join_req(""));
    let pending = h.join_resp(t).member_id;
    let start = h.now;
    let t = h.join(1, join_req(&ids[0]));
    assert!(!h.answered(t), "the pending id blocks completion");
    h.advance(SESSION_MS as u64);
    assert_eq!(h.join_resp(t).generation_id, 2);
    let done = h
        .first_event(
            |k| matches!(k, EventKind::PendingMemberRemoved { member_id, .. } if *member_id == pending),
        )
        .unwrap();
    assert_eq!(done.at, start + SESSION);
}

// Coordinator move (reference §5.7): the old coordinator's group goes Dead, parked calls get
// NOT_COORDINATOR, later requests NOT_COORDINATOR; the new coordinator loads the group Stable with
// its generation, leader and assignments and starts session timers; members carry on there.
#[test]
fn coordinator_move() {
    let mut h = Harness::new();
    let ids = h.stable_group(3);
    assert_eq!(h.commit(1, &ids[0], 1, 5), ErrorCode::None);
    // A rebalance is in progress when the partition moves: the leader is parked in JoinGroup.
    let parked = h.join(1, join_req(&ids[0]));
    let p = h.partition();
    let records = h.coord.unload(h.now, p);
    h.pump();
    let r = h.join_resp(parked);
    assert_eq!(
        (r.error_code, r.member_id.as_str()),
        (ErrorCode::NotCoordinator, ids[0].as_str())
    );
    assert!(h.saw(|k| matches!(
        k,
        EventKind::StateChanged {
            to: GroupState::Dead,
            reason: Reason::PartitionUnloaded,
            ..
        }
    )));
    assert_eq!(h.heartbeat(2, &ids[1], 1), ErrorCode::NotCoordinator);
    assert!(h.coord.poll_timeout().is_none(), "no timer survives the unload");

    let mut next = Coordinator::new(CoordinatorConfig {
        node_id: NodeId(2),
        ..config()
    });
    next.load(h.now, p, records);
    let snap = next.group_snapshot(G).unwrap();
    assert_eq!(
        snap.state,
        GroupState::Stable,
        "the in-progress rebalance is lost"
    );
    assert_eq!(snap.generation_id, 1);
    assert_eq!(snap.leader.as_deref(), Some(ids[0].as_str()));
    assert_eq!(
        snap.members
            .iter()
            .map(|m| m.member_id.clone())
            .collect::<Vec<_>>(),
        ids
    );
    assert_eq!(
        snap.members[2].assignment.partitions,
        vec![TopicPartition::new("foo", 2)]
    );
    assert!(snap
        .members
        .iter()
        .all(|m| m.session_deadline.map(|d| d.1) == Some(TimerKind::Session)));
    assert_eq!(
        next.committed_offsets(G)[&TopicPartition::new("foo", 0)].offset,
        5
    );
    h.coord = next;
    // Members carry on: heartbeats work, the leader rejoins and everyone moves on.
    assert_eq!(h.heartbeat(2, &ids[1], 1), ErrorCode::None);
    assert_eq!(h.find_coordinator(2, G).node_id, NodeId(2));
    // New member ids stay unique: no id handed out before the move is reused.
    let (new_id, _) = h.join_dynamic(9, "c1");
    assert!(!ids.contains(&new_id));
    assert!(new_id.starts_with("c1-"));
    // A member that stays silent after the move expires on the new coordinator.
    h.advance(SESSION_MS as u64 + 1);
    assert!(!h.member_ids().contains(&ids[2]));
}

// Reference §5.6 in detail, step by step.
#[test]
fn offset_expiry_rules() {
    let retention = 60 * 60 * 1000;
    let check = 600_000;
    let mut h = Harness::with_config(CoordinatorConfig {
        offsets_retention_ms: retention,
        ..config()
    });
    let ids = h.stable_group(1);
    // Commit foo-0 (subscribed) and bar-0 (not subscribed).
    let req = |topic: &str| OffsetCommitRequest {
        group_id: G.into(),
        generation_id: 1,
        member_id: ids[0].clone(),
        partitions: vec![OffsetCommitPartition {
            topic: topic.into(),
            partition: 0,
            committed_offset: 3,
            committed_leader_epoch: -1,
            committed_metadata: String::new(),
        }],
        ..Default::default()
    };
    assert_eq!(h.commit_req(1, req("foo")), ErrorCode::None);
    assert_eq!(h.commit_req(1, req("bar")), ErrorCode::None);
    let committed_at = h.now;
    // Keep the member alive for 2 retention periods: Stable consumer group → only bar-0 expires.
    while h.now < committed_at + SimDuration::from_millis(2 * retention) {
        h.advance(3_000);
        h.heartbeat(1, &ids[0], 1);
    }
    let offsets = h.coord.committed_offsets(G);
    assert!(offsets.contains_key(&TopicPartition::new("foo", 0)));
    assert!(!offsets.contains_key(&TopicPartition::new("bar", 0)));
    let expired = h
        .first_event(|k| matches!(k, EventKind::OffsetsExpired { .. }))
        .unwrap();
    // The first check at or after commit + retention.
    assert!(expired.at >= committed_at + SimDuration::from_millis(retention));
    assert!(expired.at < committed_at + SimDuration::from_millis(retention + check));
    // The member leaves: Empty. foo-0 expires one retention after the group became Empty, and the
    // group is deleted at that check.
    h.leave(1, &[(&ids[0], None)]);
    let emptied = h.now;
    h.advance(retention + check);
    assert!(h.coord.committed_offsets(G).is_empty());
    assert!(h.coord.group_snapshot(G).is_none(), "deleted");
    assert_eq!(h.describe().group_state, GroupState::Dead);
    let dead = h
        .first_event(|k| {
            matches!(
                k,
                EventKind::StateChanged {
                    to: GroupState::Dead,
                    reason: Reason::OffsetsExpired,
                    ..
                }
            )
        })
        .unwrap();
    assert!(dead.at >= emptied + SimDuration::from_millis(retention));
    assert!(matches!(h.last_record(), RecordBody::GroupTombstone { .. }));
}

// An explicit retention (OffsetCommit v2–v4) expires the offset at commit + retention, when the
// group's state allows expiry at all.
#[test]
fn explicit_retention_expires_simple_group_offset() {
    let mut h = Harness::new();
    let req = OffsetCommitRequest {
        api_version: 2,
        group_id: G.into(),
        retention_time_ms: Some(1_000),
        partitions: vec![OffsetCommitPartition {
            topic: "foo".into(),
            partition: 0,
            committed_offset: 1,
            committed_leader_epoch: -1,
            committed_metadata: String::new(),
        }],
        ..Default::default()
    };
    assert_eq!(h.commit_req(1, req), ErrorCode::None);
    assert_eq!(h.fetch(1), 1);
    h.advance(600_000);
    assert_eq!(h.fetch(1), -1);
}

// group.max.size on load (reference §5.7): a loaded group over the limit starts a rebalance.
#[test]
fn loaded_group_over_capacity_rebalances() {
    let mut h = Harness::new();
    h.stable_group(3);
    let p = h.partition();
    let records = h.coord.unload(h.now, p);
    let mut next = Coordinator::new(CoordinatorConfig {
        group_max_size: 2,
        ..config()
    });
    next.load(h.now, p, records);
    assert_eq!(next.describe_group(G).group_state, GroupState::PreparingRebalance);
}

// The event log is complete enough to replay the story: every request and response, transitions
// with reasons, generation changes, timers.
#[test]
fn event_log_records_requests_responses_and_transitions() {
    let mut h = Harness::new();
    h.stable_group(2);
    let count = |f: &dyn Fn(&EventKind) -> bool| h.events.iter().filter(|e| f(&e.kind)).count();
    let requests = count(&|k| matches!(k, EventKind::RequestReceived { .. }));
    let responses = count(&|k| matches!(k, EventKind::ResponseSent { .. }));
    assert_eq!(requests, 6, "2 × 2 joins + 2 syncs");
    assert_eq!(responses, 6);
    assert_eq!(
        count(&|k| matches!(k, EventKind::GenerationChanged { from: 0, to: 1, .. })),
        1
    );
    assert_eq!(
        count(&|k| matches!(k, EventKind::StateChanged { .. })),
        3,
        "Empty→PR→CR→Stable"
    );
    for line in h.event_lines() {
        assert!(line.starts_with("t="), "{line}");
    }
}
