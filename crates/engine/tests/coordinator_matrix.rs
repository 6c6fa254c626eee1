//! One test per cell of the reference's §3.9 request × state matrix, plus the §3.0 checks made before
//! the state machine. Each test states the Kafka rule (and the Kafka test when there is one).

mod common;

use common::*;
use rebalance_engine::protocol::*;
use rebalance_engine::{Coordinator, CoordinatorConfig, Request, Response, SimTime, TimerKey, TimerKind};

/// A harness with the group in a given state, the member ids (join order) and their connections
/// (member i on connection i + 1).
struct At {
    h: Harness,
    ids: Vec<String>,
    /// A parked request of the setup (the leader's JoinGroup in PR).
    parked: Option<Ticket>,
}

/// Empty at generation 2: one member joined, synced, left (reference §4.2).
fn empty() -> At {
    let mut h = Harness::new();
    let ids = h.stable_group(1);
    assert!(h
        .leave(1, &[(&ids[0], None)])
        .members
        .iter()
        .all(|m| m.error_code == ErrorCode::None));
    assert_eq!(h.state(), GroupState::Empty);
    assert_eq!(h.generation(), 2);
    At { h, ids, parked: None }
}

/// PreparingRebalance at generation 1: a Stable pair whose leader rejoined (its JoinGroup parked).
fn preparing() -> At {
    let mut h = Harness::new();
    let ids = h.stable_group(2);
    let t = h.join(1, join_req(&ids[0]).client("c1"));
    assert!(!h.answered(t));
    assert_eq!(h.state(), GroupState::PreparingRebalance);
    At {
        h,
        ids,
        parked: Some(t),
    }
}

/// CompletingRebalance at generation 1: two members joined, nobody synced.
fn completing() -> At {
    let mut h = Harness::new();
    let ids = h.joined_group(2);
    assert_eq!(h.state(), GroupState::CompletingRebalance);
    At { h, ids, parked: None }
}

/// Stable at generation 1 with two members.
fn stable() -> At {
    let mut h = Harness::new();
    let ids = h.stable_group(2);
    At { h, ids, parked: None }
}

/// Dead: a Stable pair forced Dead (Scala's transient window; see `Coordinator::mark_group_dead`).
fn dead() -> At {
    let mut at = stable();
    at.h.mark_dead();
    assert_eq!(at.h.state(), GroupState::Dead);
    at
}

fn static_stable() -> (Harness, String, String) {
    // Two static members, Stable at generation 1.
    let mut h = Harness::new();
    let (a, b) = h.static_pair();
    (h, a, b)
}

// =====================================================================================================
// §3.0 checks before the state machine
// =====================================================================================================

// GroupCoordinatorService: an inactive coordinator answers COORDINATOR_NOT_AVAILABLE.
#[test]
fn inactive_coordinator_answers_coordinator_not_available() {
    let mut h = Harness::new();
    h.coord.set_active(false);
    let t = h.join(1, join_req(""));
    assert_eq!(h.join_resp(t).error_code, ErrorCode::CoordinatorNotAvailable);
    assert_eq!(h.heartbeat(1, "m", 0), ErrorCode::CoordinatorNotAvailable);
}

/// Sends `req` at time zero on connection 1 to a bare coordinator (not the harness's) and returns
/// the error code of its answer.
fn answer(coord: &mut Coordinator, corr: i32, req: Request) -> ErrorCode {
    coord.handle_request(SimTime::ZERO, ConnectionId(1), corr, req);
    coord.poll_output().expect("answered").response.error_code()
}

// GroupCoordinatorService: JoinGroup/SyncGroup/Heartbeat/LeaveGroup reject an empty group id with
// INVALID_GROUP_ID; OffsetCommit/OffsetFetch/DescribeGroups accept "" (backward compatibility).
#[test]
fn empty_group_id_is_invalid_for_membership_apis_only() {
    let mut coord = Coordinator::new(config());
    let p = coord.partition_for("");
    coord.load(SimTime::ZERO, p, vec![]);
    let mut send = |req: Request| answer(&mut coord, 1, req);
    let r = send(Request::JoinGroup(JoinGroupRequest {
        group_id: String::new(),
        ..join_req("")
    }));
    assert_eq!(r, ErrorCode::InvalidGroupId);
    let r = send(Request::SyncGroup(SyncGroupRequest::default()));
    assert_eq!(r, ErrorCode::InvalidGroupId);
    let r = send(Request::Heartbeat(HeartbeatRequest::default()));
    assert_eq!(r, ErrorCode::InvalidGroupId);
    let r = send(Request::LeaveGroup(LeaveGroupRequest::default()));
    assert_eq!(r, ErrorCode::InvalidGroupId);
    let commit = OffsetCommitRequest {
        partitions: vec![OffsetCommitPartition {
            topic: "t".into(),
            ..Default::default()
        }],
        ..Default::default()
    };
    assert_eq!(send(Request::OffsetCommit(commit)), ErrorCode::None);
    let r = send(Request::DescribeGroups(DescribeGroupsRequest {
        group_ids: vec![String::new()],
    }));
    assert_eq!(r, ErrorCode::None);
}

// Reference §3.0: a broker that does not lead the group's partition answers NOT_COORDINATOR.
#[test]
fn not_leading_the_partition_answers_not_coordinator() {
    let mut coord = Coordinator::new(config());
    assert_eq!(
        answer(&mut coord, 1, Request::JoinGroup(join_req(""))),
        ErrorCode::NotCoordinator
    );
    let fetch = OffsetFetchRequest {
        group_id: G.into(),
        ..Default::default()
    };
    assert_eq!(
        answer(&mut coord, 2, Request::OffsetFetch(fetch)),
        ErrorCode::NotCoordinator
    );
}

// Reference §3.0: while the partition loads, requests get COORDINATOR_LOAD_IN_PROGRESS, except
// Heartbeat, which answers NONE.
#[test]
fn loading_partition_answers_load_in_progress_but_heartbeat_none() {
    let mut coord = Coordinator::new(config());
    let p = coord.partition_for(G);
    coord.start_loading(SimTime::ZERO, p);
    assert_eq!(
        answer(&mut coord, 1, Request::JoinGroup(join_req(""))),
        ErrorCode::CoordinatorLoadInProgress
    );
    let hb = HeartbeatRequest {
        group_id: G.into(),
        generation_id: 1,
        member_id: "m".into(),
        group_instance_id: None,
    };
    assert_eq!(answer(&mut coord, 2, Request::Heartbeat(hb)), ErrorCode::None);
}

// GroupCoordinatorService.joinGroup: session timeout outside [group.min, group.max] →
// INVALID_SESSION_TIMEOUT (GroupCoordinatorServiceTest.testJoinGroupInvalidSessionTimeout).
#[test]
fn join_with_session_timeout_out_of_bounds_is_rejected() {
    let mut h = Harness::new();
    for bad in [5_999, 1_800_001] {
        let t = h.join(
            1,
            JoinGroupRequest {
                session_timeout_ms: bad,
                ..join_req("")
            },
        );
        assert_eq!(h.join_resp(t).error_code, ErrorCode::InvalidSessionTimeout);
    }
    let t = h.join(
        1,
        JoinGroupRequest {
            session_timeout_ms: 6_000,
            ..join_req("")
        },
    );
    assert_eq!(h.join_resp(t).error_code, ErrorCode::MemberIdRequired);
}

// =====================================================================================================
// JoinGroup, new dynamic member, v4+ (KIP-394): MEMBER_ID_REQUIRED in every live state
// =====================================================================================================

fn assert_member_id_required(at: &mut At, state: GroupState) {
    let members_before = at.h.member_ids();
    let t = at.h.join(9, join_req("").client("new"));
    let r = at.h.join_resp(t);
    assert_eq!(r.error_code, ErrorCode::MemberIdRequired);
    assert!(
        r.member_id.starts_with("new-"),
        "id in Kafka's shape: {}",
        r.member_id
    );
    assert_eq!(r.generation_id, -1);
    assert_eq!(at.h.state(), state, "the two-step join changes no state");
    assert_eq!(at.h.member_ids(), members_before, "pending ids are not members");
    assert!(at.h.snapshot().pending_members.contains(&r.member_id));
    // Its session timer runs so that an abandoned id expires.
    let key = TimerKey::Heartbeat {
        group_id: G.into(),
        member_id: r.member_id,
    };
    assert_eq!(
        at.h.coord.timer(&key).map(|t| t.1),
        Some(TimerKind::PendingMember)
    );
}

#[test]
fn join_new_dynamic_v4_empty_member_id_required() {
    assert_member_id_required(&mut empty(), GroupState::Empty);
}

#[test]
fn join_new_dynamic_v4_preparing_member_id_required() {
    assert_member_id_required(&mut preparing(), GroupState::PreparingRebalance);
}

#[test]
fn join_new_dynamic_v4_completing_member_id_required() {
    assert_member_id_required(&mut completing(), GroupState::CompletingRebalance);
}

#[test]
fn join_new_dynamic_v4_stable_member_id_required() {
    assert_member_id_required(&mut stable(), GroupState::Stable);
}

// GroupMetadataManager.classicGroupJoinNewMember: a Dead group answers COORDINATOR_NOT_AVAILABLE
// (GroupMetadataManagerTest.testJoinGroupUnknownConsumerNewDeadGroup).
#[test]
fn join_new_member_dead_coordinator_not_available() {
    let mut at = dead();
    let t = at.h.join(9, join_req(""));
    let r = at.h.join_resp(t);
    assert_eq!(r.error_code, ErrorCode::CoordinatorNotAvailable);
    assert_eq!(r.member_id, "");
}

// =====================================================================================================
// JoinGroup, new dynamic member below v4, or a new static member: added and rebalancing
// =====================================================================================================

// From Empty the rebalance uses the initial delay (§5.4).
#[test]
fn join_new_static_empty_starts_rebalance_with_initial_delay() {
    let mut at = empty();
    let t = at.h.join(9, join_req("").instance("i9"));
    assert!(!at.h.answered(t), "parked");
    assert_eq!(at.h.state(), GroupState::PreparingRebalance);
    let key = TimerKey::Join { group_id: G.into() };
    let (deadline, kind) = at.h.coord.timer(&key).unwrap();
    assert_eq!(
        deadline,
        at.h.now + rebalance_engine::SimDuration::from_millis(3_000)
    );
    assert_eq!(
        kind,
        TimerKind::InitialRebalanceDelay {
            delay_ms: 3_000,
            remaining_ms: 27_000
        }
    );
    at.h.advance(3_000);
    let r = at.h.join_resp(t);
    assert_eq!(r.error_code, ErrorCode::None);
    assert_eq!(r.generation_id, 3);
    assert!(r.member_id.starts_with("i9-"));
}

// Below v4 there is no MEMBER_ID_REQUIRED step; the member is added at once.
#[test]
fn join_new_dynamic_v3_preparing_is_added_and_parked() {
    let mut at = preparing();
    let t = at.h.join(9, join_req("").version(3).client("old"));
    assert!(!at.h.answered(t));
    assert_eq!(at.h.member_ids().len(), 3);
    // The follower has not rejoined; when its session expires (it is not parked, so nothing covers
    // it) it is removed and, everyone left having joined, the phase completes: generation 2.
    at.h.advance(SESSION_MS as u64);
    let r = at.h.join_resp(t);
    assert_eq!(r.generation_id, 2);
    assert_eq!(at.h.member_ids(), vec![at.ids[0].clone(), r.member_id.clone()]);
    let leader = at.h.join_resp(at.parked.unwrap());
    assert_eq!(leader.members.len(), 2, "the leader gets every member");
    assert!(r.members.is_empty(), "followers get no member list");
}

// Entering PR from CR completes parked SyncGroups with REBALANCE_IN_PROGRESS and wipes assignments.
#[test]
fn join_new_static_completing_rebalances_and_fails_parked_syncs() {
    let mut at = completing();
    let follower_sync = at.h.sync(2, &at.ids[1].clone(), 1, vec![]);
    assert!(!at.h.answered(follower_sync));
    let t = at.h.join(9, join_req("").instance("i9"));
    assert!(!at.h.answered(t));
    assert_eq!(at.h.state(), GroupState::PreparingRebalance);
    assert_eq!(
        at.h.sync_resp(follower_sync).error_code,
        ErrorCode::RebalanceInProgress
    );
}

#[test]
fn join_new_static_stable_rebalances() {
    let mut at = stable();
    let t = at.h.join(9, join_req("").instance("i9"));
    assert!(!at.h.answered(t));
    assert_eq!(at.h.state(), GroupState::PreparingRebalance);
    assert_eq!(
        at.h.heartbeat(2, &at.ids[1].clone(), 1),
        ErrorCode::RebalanceInProgress
    );
}

#[test]
fn join_new_static_dead_coordinator_not_available() {
    let mut at = dead();
    let t = at.h.join(9, join_req("").instance("i9"));
    assert_eq!(at.h.join_resp(t).error_code, ErrorCode::CoordinatorNotAvailable);
}

// =====================================================================================================
// JoinGroup, known static instance id with member "" (KIP-345 replacement)
// =====================================================================================================

// Stable, unchanged protocol: no rebalance; answered at the current generation; the old id is fenced
// (GroupMetadataManagerTest.testStaticMemberRejoinWithKnownMemberId-style checks).
#[test]
fn static_rejoin_stable_same_protocol_no_rebalance() {
    let (mut h, a, b) = static_stable();
    let t = h.join(3, join_req("").client("c2").instance("i2"));
    let r = h.join_resp(t);
    assert_eq!(r.error_code, ErrorCode::None);
    assert_eq!(r.generation_id, 1, "current generation");
    assert_ne!(r.member_id, b);
    assert!(r.member_id.starts_with("i2-"));
    assert_eq!(r.leader, a);
    assert_eq!(h.state(), GroupState::Stable);
    // The new id gets its previous assignment back.
    let s = h.sync(3, &r.member_id, 1, vec![]);
    assert_eq!(
        h.sync_resp(s).assignment.partitions,
        vec![TopicPartition::new("foo", 1)]
    );
    // The old id is fenced when it carries the instance id, unknown without it.
    assert_eq!(
        h.heartbeat_static(2, &b, Some("i2"), 1),
        ErrorCode::FencedInstanceId
    );
    assert_eq!(h.heartbeat(2, &b, 1), ErrorCode::UnknownMemberId);
}

// Stable, the selected protocol would change: rebalance.
#[test]
fn static_rejoin_stable_changed_protocol_rebalances() {
    let (mut h, _a, _b) = static_stable();
    // Both members support range only; i2 now prefers roundrobin but still supports range, so the
    // vote stays range... unless it supports only roundrobin, which is rejected (no common protocol).
    let t = h.join(3, join_req("").instance("i2").with_protocols(&["roundrobin"]));
    assert_eq!(h.join_resp(t).error_code, ErrorCode::InconsistentGroupProtocol);
    // With [roundrobin, range] vs [range] the candidates are {range}: unchanged, no rebalance.
    let t = h.join(
        3,
        join_req("")
            .instance("i2")
            .with_protocols(&["roundrobin", "range"]),
    );
    assert_eq!(h.join_resp(t).error_code, ErrorCode::None);
    assert_eq!(h.state(), GroupState::Stable);
}

// Reference §7: Stable + the selection changes → PR. Two members on [roundrobin, range]; one rejoins
// preferring range only... both must support the winner, so build a group where a vote flips.
#[test]
fn static_rejoin_stable_vote_flip_rebalances() {
    let mut h = Harness::new();
    let ta = h.join(
        1,
        join_req("")
            .instance("i1")
            .with_protocols(&["roundrobin", "range"]),
    );
    let tb = h.join(
        2,
        join_req("")
            .instance("i2")
            .with_protocols(&["roundrobin", "range"]),
    );
    h.run_join_phase();
    let a = h.join_resp(ta);
    let b = h.join_resp(tb);
    assert_eq!(a.protocol_name.as_deref(), Some("roundrobin"));
    h.sync(2, &b.member_id, 1, vec![]);
    h.sync(1, &a.member_id, 1, vec![]);
    assert_eq!(h.state(), GroupState::Stable);
    // i2 restarts preferring range: 1–1 tie; range wins ties (JDK HashMap order), so it changes.
    let t = h.join(
        3,
        join_req("")
            .instance("i2")
            .with_protocols(&["range", "roundrobin"]),
    );
    assert!(!h.answered(t));
    assert_eq!(h.state(), GroupState::PreparingRebalance);
}

// CR: always rebalance (the leader may have computed an assignment for the old id).
#[test]
fn static_rejoin_completing_rebalances() {
    let mut h = Harness::new();
    let ta = h.join(1, join_req("").instance("i1"));
    let tb = h.join(2, join_req("").instance("i2"));
    h.run_join_phase();
    h.join_resp(ta);
    let b = h.join_resp(tb).member_id;
    let s = h.sync(2, &b, 1, vec![]);
    let t = h.join(3, join_req("").instance("i2"));
    assert!(!h.answered(t));
    assert_eq!(h.state(), GroupState::PreparingRebalance);
    // The old id's parked SyncGroup is fenced.
    assert_eq!(h.sync_resp(s).error_code, ErrorCode::FencedInstanceId);
}

// PR: the replacement is parked like any rejoin; the old id's parked JoinGroup is fenced.
#[test]
fn static_rejoin_preparing_fences_old_parked_join() {
    let (mut h, a, b) = static_stable();
    let leader_join = h.join(1, join_req(&a).instance("i1"));
    let old_join = h.join(2, join_req(&b).instance("i2"));
    // Both rejoined: the phase completed at once (previous state Stable, all joined).
    assert!(h.answered(leader_join) && h.answered(old_join));
    h.inbox.clear();
    // Force PR again with the leader rejoining after sync, then bounce i2 while its join is parked.
    h.sync(1, &a, 2, assign_one_each(&[a.clone(), b.clone()]));
    h.sync(2, &b, 2, vec![]);
    h.inbox.clear();
    assert_eq!(h.state(), GroupState::Stable);
    let leader_join = h.join(1, join_req(&a).instance("i1"));
    assert!(!h.answered(leader_join));
    let old_join = h.join(2, join_req(&b).instance("i2"));
    // Completed (both joined) → answered; to test the parked case, bounce before the second join.
    assert!(h.answered(old_join));
    h.inbox.clear();
    h.sync(1, &a, 3, assign_one_each(&[a.clone(), b.clone()]));
    h.sync(2, &b, 3, vec![]);
    h.inbox.clear();
    let old_join = h.join(2, join_req(&b).instance("i2")); // follower same metadata: immediate
    assert_eq!(h.join_resp(old_join).generation_id, 3);
    let leader_join = h.join(1, join_req(&a).instance("i1"));
    assert!(!h.answered(leader_join));
    assert_eq!(h.state(), GroupState::PreparingRebalance);
    // Now i1 is parked in PR; a bounce of i1 fences that parked JoinGroup.
    let t = h.join(3, join_req("").instance("i1"));
    let fenced = h.join_resp(leader_join);
    assert_eq!(fenced.error_code, ErrorCode::FencedInstanceId);
    assert_eq!(fenced.member_id, a);
    assert!(!h.answered(t), "the replacement is parked");
    assert_eq!(
        h.leader(),
        Some(h.snapshot().members[0].member_id.clone()),
        "leadership moved to the new id"
    );
    assert_ne!(h.leader(), Some(a));
}

#[test]
fn static_rejoin_dead_coordinator_not_available() {
    let (mut h, _a, _b) = static_stable();
    h.mark_dead();
    let t = h.join(3, join_req("").instance("i2"));
    assert_eq!(h.join_resp(t).error_code, ErrorCode::CoordinatorNotAvailable);
}

// =====================================================================================================
// JoinGroup, a pending member's second step
// =====================================================================================================

fn pending_second_step(at: &mut At) -> (String, Ticket) {
    at.h.join_dynamic(9, "p")
}

#[test]
fn pending_second_step_empty_starts_initial_delay() {
    let mut at = empty();
    let (id, t) = pending_second_step(&mut at);
    assert!(!at.h.answered(t));
    assert_eq!(at.h.state(), GroupState::PreparingRebalance);
    assert_eq!(
        at.h.leader(),
        Some(id.clone()),
        "first member added to an Empty group leads"
    );
    assert!(matches!(
        at.h.coord
            .timer(&TimerKey::Join { group_id: G.into() })
            .unwrap()
            .1,
        TimerKind::InitialRebalanceDelay { .. }
    ));
}

#[test]
fn pending_second_step_preparing_is_parked() {
    let mut at = preparing();
    let (id, t) = pending_second_step(&mut at);
    assert!(!at.h.answered(t));
    assert!(at.h.member_ids().contains(&id));
    assert!(at.h.snapshot().pending_members.is_empty());
}

#[test]
fn pending_second_step_completing_rebalances() {
    let mut at = completing();
    let (_, t) = pending_second_step(&mut at);
    assert!(!at.h.answered(t));
    assert_eq!(at.h.state(), GroupState::PreparingRebalance);
}

#[test]
fn pending_second_step_stable_rebalances() {
    let mut at = stable();
    let (_, t) = pending_second_step(&mut at);
    assert!(!at.h.answered(t));
    assert_eq!(at.h.state(), GroupState::PreparingRebalance);
}

#[test]
fn pending_second_step_dead_coordinator_not_available() {
    let mut at = stable();
    let t = at.h.join(9, join_req(""));
    let id = at.h.join_resp(t).member_id;
    at.h.mark_dead();
    let t = at.h.join(9, join_req(&id));
    let r = at.h.join_resp(t);
    assert_eq!(r.error_code, ErrorCode::CoordinatorNotAvailable);
    assert_eq!(r.member_id, id, "the error echoes the request's member id");
}

// =====================================================================================================
// JoinGroup, existing member
// =====================================================================================================

// Empty: UNKNOWN_MEMBER_ID; the client resets and rejoins with "".
#[test]
fn join_existing_member_empty_unknown_member_id() {
    let mut at = empty();
    let t = at.h.join(1, join_req(&at.ids[0].clone()));
    assert_eq!(at.h.join_resp(t).error_code, ErrorCode::UnknownMemberId);
}

// PR: update and park; completes once everyone has joined (previous state not Empty).
#[test]
fn join_existing_member_preparing_completes_when_all_joined() {
    let mut at = preparing();
    let t = at.h.join(2, join_req(&at.ids[1].clone()).client("c2"));
    let r = at.h.join_resp(t);
    assert_eq!(r.generation_id, 2);
    assert_eq!(at.h.state(), GroupState::CompletingRebalance);
    let leader = at.h.join_resp(at.parked.unwrap());
    assert_eq!(leader.leader, at.ids[0]);
    assert_eq!(leader.members.len(), 2);
}

// CR: identical metadata → the current generation again (lost response); the leader gets members.
#[test]
fn join_existing_member_completing_same_metadata_answers_current_generation() {
    let mut at = completing();
    let t = at.h.join(1, join_req(&at.ids[0].clone()).client("c1"));
    let r = at.h.join_resp(t);
    assert_eq!((r.error_code, r.generation_id), (ErrorCode::None, 1));
    assert_eq!(r.members.len(), 2, "the leader's answer carries the members");
    let t = at.h.join(2, join_req(&at.ids[1].clone()).client("c2"));
    assert!(at.h.join_resp(t).members.is_empty());
    assert_eq!(at.h.state(), GroupState::CompletingRebalance);
}

// CR: changed metadata → rebalance.
#[test]
fn join_existing_member_completing_changed_metadata_rebalances() {
    let mut at = completing();
    let t = at.h.join(2, join_req(&at.ids[1].clone()).topics(&["foo", "bar"]));
    assert!(!at.h.answered(t));
    assert_eq!(at.h.state(), GroupState::PreparingRebalance);
}

// Stable: the leader's JoinGroup always rebalances; a follower's only with changed metadata
// (GroupMetadataManagerTest.testJoinGroupFromUnchangedFollowerDoesNotRebalance).
#[test]
fn join_existing_member_stable_leader_rebalances_follower_does_not() {
    let mut at = stable();
    let t = at.h.join(2, join_req(&at.ids[1].clone()));
    let r = at.h.join_resp(t);
    assert_eq!((r.error_code, r.generation_id), (ErrorCode::None, 1));
    assert!(r.members.is_empty());
    assert_eq!(at.h.state(), GroupState::Stable);

    let t = at.h.join(2, join_req(&at.ids[1].clone()).topics(&["bar"]));
    assert!(!at.h.answered(t));
    assert_eq!(at.h.state(), GroupState::PreparingRebalance);
}

#[test]
fn join_existing_leader_stable_rebalances_even_unchanged() {
    let mut at = stable();
    let t = at.h.join(1, join_req(&at.ids[0].clone()));
    assert!(!at.h.answered(t));
    assert_eq!(at.h.state(), GroupState::PreparingRebalance);
}

#[test]
fn join_existing_member_dead_coordinator_not_available() {
    let mut at = dead();
    let t = at.h.join(1, join_req(&at.ids[0].clone()));
    assert_eq!(at.h.join_resp(t).error_code, ErrorCode::CoordinatorNotAvailable);
}

// Non-empty member id for a group that does not exist: UNKNOWN_MEMBER_ID, group not created
// (GroupMetadataManagerTest.testJoinGroupUnknownConsumerNewGroup).
#[test]
fn join_known_id_unknown_group_is_unknown_member_and_creates_nothing() {
    let mut h = Harness::new();
    let t = h.join(1, join_req("ghost"));
    assert_eq!(h.join_resp(t).error_code, ErrorCode::UnknownMemberId);
    assert!(h.coord.group_ids().is_empty());
}

// =====================================================================================================
// SyncGroup
// =====================================================================================================

#[test]
fn sync_empty_unknown_member_id() {
    let mut at = empty();
    let t = at.h.sync(1, &at.ids[0].clone(), 2, vec![]);
    assert_eq!(at.h.sync_resp(t).error_code, ErrorCode::UnknownMemberId);
}

// PR: validation first (unknown member beats a wrong generation), then REBALANCE_IN_PROGRESS.
#[test]
fn sync_preparing_validates_then_rebalance_in_progress() {
    let mut at = preparing();
    let t = at.h.sync(2, "ghost", 99, vec![]);
    assert_eq!(at.h.sync_resp(t).error_code, ErrorCode::UnknownMemberId);
    let t = at.h.sync(2, &at.ids[1].clone(), 99, vec![]);
    assert_eq!(at.h.sync_resp(t).error_code, ErrorCode::IllegalGeneration);
    let t = at.h.sync(2, &at.ids[1].clone(), 1, vec![]);
    assert_eq!(at.h.sync_resp(t).error_code, ErrorCode::RebalanceInProgress);
}

// CR: followers park; the leader's SyncGroup persists, answers everyone, and the group goes Stable.
// Members missing from the leader's assignment get an empty one.
#[test]
fn sync_completing_follower_parks_leader_completes() {
    let mut at = completing();
    let (a, b) = (at.ids[0].clone(), at.ids[1].clone());
    let fs = at.h.sync(2, &b, 1, vec![]);
    assert!(!at.h.answered(fs));
    let only_leader = vec![assign_one_each(std::slice::from_ref(&a)).remove(0)];
    let ls = at.h.sync(1, &a, 1, only_leader);
    assert_eq!(at.h.state(), GroupState::Stable);
    let l = at.h.sync_resp(ls);
    assert_eq!(l.assignment.partitions, vec![TopicPartition::new("foo", 0)]);
    assert_eq!(l.protocol_name.as_deref(), Some("range"));
    let f = at.h.sync_resp(fs);
    assert_eq!(f.error_code, ErrorCode::None);
    assert!(
        f.assignment.is_empty(),
        "missing from the leader's list → empty assignment"
    );
    // The assignment was persisted.
    assert!(
        matches!(at.h.last_record(), rebalance_engine::RecordBody::GroupMetadata(m) if m.generation_id == 1 && m.members.len() == 2)
    );
}

// CR: a protocol mismatch in a v5+ SyncGroup → INCONSISTENT_GROUP_PROTOCOL.
#[test]
fn sync_completing_protocol_mismatch() {
    let mut at = completing();
    let req = SyncGroupRequest {
        group_id: G.into(),
        generation_id: 1,
        member_id: at.ids[1].clone(),
        protocol_name: Some("roundrobin".into()),
        ..Default::default()
    };
    let t = at.h.send(2, Request::SyncGroup(req));
    assert_eq!(at.h.sync_resp(t).error_code, ErrorCode::InconsistentGroupProtocol);
}

// Stable: answered at once with the stored assignment (late followers).
#[test]
fn sync_stable_returns_stored_assignment() {
    let mut at = stable();
    let t = at.h.sync(2, &at.ids[1].clone(), 1, vec![]);
    let r = at.h.sync_resp(t);
    assert_eq!(r.error_code, ErrorCode::None);
    assert_eq!(r.assignment.partitions, vec![TopicPartition::new("foo", 1)]);
}

#[test]
fn sync_dead_coordinator_not_available() {
    let mut at = dead();
    let t = at.h.sync(1, &at.ids[0].clone(), 1, vec![]);
    assert_eq!(at.h.sync_resp(t).error_code, ErrorCode::CoordinatorNotAvailable);
}

// SyncGroup for an unknown group → UNKNOWN_MEMBER_ID.
#[test]
fn sync_unknown_group_unknown_member_id() {
    let mut h = Harness::new();
    let t = h.sync(1, "m", 1, vec![]);
    assert_eq!(h.sync_resp(t).error_code, ErrorCode::UnknownMemberId);
}

// =====================================================================================================
// Heartbeat
// =====================================================================================================

#[test]
fn heartbeat_empty_unknown_member_id() {
    let mut at = empty();
    assert_eq!(
        at.h.heartbeat(1, &at.ids[0].clone(), 2),
        ErrorCode::UnknownMemberId
    );
}

// PR: REBALANCE_IN_PROGRESS, and the session is re-armed.
#[test]
fn heartbeat_preparing_rebalance_in_progress_and_session_reset() {
    let mut at = preparing();
    let b = at.ids[1].clone();
    at.h.advance(1_000);
    assert_eq!(at.h.heartbeat(2, &b, 1), ErrorCode::RebalanceInProgress);
    assert_eq!(at.h.session_deadline(&b), at.h.now + SESSION);
    // Wrong generation and unknown member still fail validation first.
    assert_eq!(at.h.heartbeat(2, &b, 0), ErrorCode::IllegalGeneration);
    assert_eq!(at.h.heartbeat(2, "ghost", 0), ErrorCode::UnknownMemberId);
}

// CR: NONE (not REBALANCE_IN_PROGRESS), session re-armed.
#[test]
fn heartbeat_completing_none() {
    let mut at = completing();
    let b = at.ids[1].clone();
    at.h.advance(500);
    assert_eq!(at.h.heartbeat(2, &b, 1), ErrorCode::None);
    assert_eq!(at.h.session_deadline(&b), at.h.now + SESSION);
}

#[test]
fn heartbeat_stable_none_and_session_reset() {
    let mut at = stable();
    let b = at.ids[1].clone();
    at.h.advance(5_000);
    assert_eq!(at.h.heartbeat(2, &b, 1), ErrorCode::None);
    assert_eq!(at.h.session_deadline(&b), at.h.now + SESSION);
    assert_eq!(at.h.heartbeat(2, &b, 2), ErrorCode::IllegalGeneration);
}

#[test]
fn heartbeat_dead_coordinator_not_available() {
    let mut at = dead();
    assert_eq!(
        at.h.heartbeat(1, &at.ids[0].clone(), 1),
        ErrorCode::CoordinatorNotAvailable
    );
}

#[test]
fn heartbeat_unknown_group_unknown_member_id() {
    let mut h = Harness::new();
    assert_eq!(h.heartbeat(1, "m", 1), ErrorCode::UnknownMemberId);
}

// validateMember: an unknown instance id → UNKNOWN_MEMBER_ID; a known one with another member id →
// FENCED_INSTANCE_ID; checked before the generation.
#[test]
fn heartbeat_static_validation_order() {
    let (mut h, a, _b) = static_stable();
    assert_eq!(
        h.heartbeat_static(1, &a, Some("nope"), 1),
        ErrorCode::UnknownMemberId
    );
    assert_eq!(
        h.heartbeat_static(1, "other", Some("i1"), 99),
        ErrorCode::FencedInstanceId
    );
    assert_eq!(
        h.heartbeat_static(1, &a, Some("i1"), 99),
        ErrorCode::IllegalGeneration
    );
    assert_eq!(h.heartbeat_static(1, &a, Some("i1"), 1), ErrorCode::None);
}

// =====================================================================================================
// LeaveGroup
// =====================================================================================================

// Empty: every member unknown, but a pending id is accepted (dropped from the pending set).
#[test]
fn leave_empty_unknown_member_but_pending_none() {
    let mut at = empty();
    let t = at.h.join(9, join_req(""));
    let pending = at.h.join_resp(t).member_id;
    let r = at.h.leave(1, &[(&at.ids[0].clone(), None), (&pending, None)]);
    assert_eq!(r.error_code, ErrorCode::None);
    assert_eq!(r.members[0].error_code, ErrorCode::UnknownMemberId);
    assert_eq!(r.members[1].error_code, ErrorCode::None);
    assert!(at.h.snapshot().pending_members.is_empty());
    assert_eq!(at.h.state(), GroupState::Empty);
}

// PR: removed; the phase completes if everyone left has joined. The leaving member's parked
// JoinGroup (if any) gets UNKNOWN_MEMBER_ID.
#[test]
fn leave_preparing_removes_and_completes() {
    let mut at = preparing();
    let r = at.h.leave(2, &[(&at.ids[1].clone(), None)]);
    assert_eq!(r.members[0].error_code, ErrorCode::None);
    assert_eq!(at.h.state(), GroupState::CompletingRebalance);
    let l = at.h.join_resp(at.parked.unwrap());
    assert_eq!(l.generation_id, 2);
    assert_eq!(l.members.len(), 1);
}

#[test]
fn leave_preparing_parked_member_gets_unknown_member_id() {
    let mut at = preparing();
    at.h.leave(1, &[(&at.ids[0].clone(), None)]);
    let r = at.h.join_resp(at.parked.unwrap());
    assert_eq!(r.error_code, ErrorCode::UnknownMemberId);
    assert_eq!(r.member_id, "");
    assert_eq!(
        at.h.leader(),
        Some(at.ids[1].clone()),
        "leadership passed on at once"
    );
}

#[test]
fn leave_completing_rebalances() {
    let mut at = completing();
    let fs = at.h.sync(2, &at.ids[1].clone(), 1, vec![]);
    at.h.leave(1, &[(&at.ids[0].clone(), None)]);
    // prepareRebalance from CR fails parked syncs, then the remaining member has not rejoined.
    assert_eq!(at.h.sync_resp(fs).error_code, ErrorCode::RebalanceInProgress);
    assert_eq!(at.h.state(), GroupState::PreparingRebalance);
}

#[test]
fn leave_stable_rebalances() {
    let mut at = stable();
    let r = at.h.leave(2, &[(&at.ids[1].clone(), None)]);
    assert_eq!(r.members[0].error_code, ErrorCode::None);
    assert_eq!(at.h.state(), GroupState::PreparingRebalance);
}

#[test]
fn leave_dead_top_level_coordinator_not_available() {
    let mut at = dead();
    let r = at.h.leave(1, &[(&at.ids[0].clone(), None)]);
    assert_eq!(r.error_code, ErrorCode::CoordinatorNotAvailable);
    assert!(r.members.is_empty());
}

// Batch (v3+): per-member results; admin removal by instance id with member id "".
#[test]
fn leave_batch_mixed_results() {
    let (mut h, a, b) = static_stable();
    let r = h.leave(
        9,
        &[
            ("", Some("i2")),
            ("", Some("nope")),
            ("", None),
            (&a, Some("wrong")),
            ("ghost", None),
        ],
    );
    let codes: Vec<ErrorCode> = r.members.iter().map(|m| m.error_code).collect();
    assert_eq!(
        codes,
        vec![
            ErrorCode::None,
            ErrorCode::UnknownMemberId,
            ErrorCode::UnknownMemberId,
            ErrorCode::UnknownMemberId,
            ErrorCode::UnknownMemberId
        ]
    );
    assert!(!h.member_ids().contains(&b));
    assert_eq!(h.state(), GroupState::PreparingRebalance);
    // A static member with the right instance but another member id is fenced.
    let r = h.leave(9, &[("other", Some("i1"))]);
    assert_eq!(r.members[0].error_code, ErrorCode::FencedInstanceId);
}

#[test]
fn leave_unknown_group_every_member_unknown() {
    let mut h = Harness::new();
    let r = h.leave(1, &[("a", None), ("b", None)]);
    assert_eq!(r.error_code, ErrorCode::None);
    assert!(r
        .members
        .iter()
        .all(|m| m.error_code == ErrorCode::UnknownMemberId));
}

// =====================================================================================================
// OffsetCommit with a member and a generation
// =====================================================================================================

#[test]
fn commit_member_empty_unknown_member_id() {
    let mut at = empty();
    assert_eq!(
        at.h.commit(1, &at.ids[0].clone(), 2, 5),
        ErrorCode::UnknownMemberId
    );
}

// PR: accepted with the current (old) generation; the session is re-armed.
#[test]
fn commit_member_preparing_accepted_with_old_generation() {
    let mut at = preparing();
    let b = at.ids[1].clone();
    at.h.advance(2_000);
    assert_eq!(at.h.commit(2, &b, 1, 42), ErrorCode::None);
    assert_eq!(at.h.fetch(2), 42);
    assert_eq!(at.h.session_deadline(&b), at.h.now + SESSION);
    assert_eq!(at.h.commit(2, &b, 2, 43), ErrorCode::IllegalGeneration);
}

// CR: REBALANCE_IN_PROGRESS after validation
// (OffsetMetadataManagerTest: offset commit while in CompletingRebalance).
#[test]
fn commit_member_completing_rebalance_in_progress() {
    let mut at = completing();
    assert_eq!(
        at.h.commit(1, &at.ids[0].clone(), 1, 5),
        ErrorCode::RebalanceInProgress
    );
    assert_eq!(at.h.commit(1, "ghost", 1, 5), ErrorCode::UnknownMemberId);
    assert_eq!(
        at.h.commit(1, &at.ids[0].clone(), 0, 5),
        ErrorCode::IllegalGeneration
    );
    assert_eq!(at.h.fetch(1), -1);
}

#[test]
fn commit_member_stable_accepted() {
    let mut at = stable();
    assert_eq!(at.h.commit(1, &at.ids[0].clone(), 1, 7), ErrorCode::None);
    assert_eq!(at.h.fetch(1), 7);
}

#[test]
fn commit_member_dead_coordinator_not_available() {
    let mut at = dead();
    assert_eq!(
        at.h.commit(1, &at.ids[0].clone(), 1, 7),
        ErrorCode::CoordinatorNotAvailable
    );
}

// =====================================================================================================
// OffsetCommit with generation -1 and no member (admin tools, manual assignment)
// =====================================================================================================

#[test]
fn commit_anonymous_empty_accepted() {
    let mut at = empty();
    assert_eq!(at.h.commit(1, "", -1, 11), ErrorCode::None);
    assert_eq!(at.h.fetch(1), 11);
}

#[test]
fn commit_anonymous_preparing_unknown_member_id() {
    let mut at = preparing();
    assert_eq!(at.h.commit(1, "", -1, 11), ErrorCode::UnknownMemberId);
}

#[test]
fn commit_anonymous_completing_unknown_member_id() {
    let mut at = completing();
    assert_eq!(at.h.commit(1, "", -1, 11), ErrorCode::UnknownMemberId);
}

#[test]
fn commit_anonymous_stable_unknown_member_id() {
    let mut at = stable();
    assert_eq!(at.h.commit(1, "", -1, 11), ErrorCode::UnknownMemberId);
}

#[test]
fn commit_anonymous_dead_coordinator_not_available() {
    let mut at = dead();
    assert_eq!(at.h.commit(1, "", -1, 11), ErrorCode::CoordinatorNotAvailable);
}

// Unknown group: generation -1 creates a simple group; otherwise ILLEGAL_GENERATION below v9 and
// GROUP_ID_NOT_FOUND from v9 (reference §11.6).
#[test]
fn commit_unknown_group_by_version() {
    let mut h = Harness::new();
    let req = |gen: i32, v: i16| OffsetCommitRequest {
        api_version: v,
        group_id: G.into(),
        generation_id: gen,
        member_id: "m".into(),
        partitions: vec![OffsetCommitPartition {
            topic: "foo".into(),
            ..Default::default()
        }],
        ..Default::default()
    };
    assert_eq!(h.commit_req(1, req(1, 8)), ErrorCode::IllegalGeneration);
    assert_eq!(h.commit_req(1, req(1, 9)), ErrorCode::GroupIdNotFound);
    assert!(h.coord.group_ids().is_empty());
    assert_eq!(
        h.commit_req(
            1,
            OffsetCommitRequest {
                member_id: String::new(),
                ..req(-1, 9)
            }
        ),
        ErrorCode::None
    );
    assert_eq!(h.state(), GroupState::Empty);
    assert_eq!(
        h.snapshot().protocol_type,
        None,
        "a simple group has no protocol type"
    );
}

// offset.metadata.max.bytes: larger metadata → OFFSET_METADATA_TOO_LARGE for that partition.
#[test]
fn commit_metadata_too_large() {
    let mut at = stable();
    let req = OffsetCommitRequest {
        group_id: G.into(),
        generation_id: 1,
        member_id: at.ids[0].clone(),
        partitions: vec![
            OffsetCommitPartition {
                topic: "foo".into(),
                partition: 0,
                committed_offset: 1,
                committed_leader_epoch: -1,
                committed_metadata: "x".repeat(4097),
            },
            OffsetCommitPartition {
                topic: "foo".into(),
                partition: 1,
                committed_offset: 2,
                committed_leader_epoch: -1,
                committed_metadata: "x".repeat(4096),
            },
        ],
        ..Default::default()
    };
    let t = at.h.send(1, Request::OffsetCommit(req));
    let Some(Response::OffsetCommit(r)) = at.h.take(t) else {
        panic!()
    };
    assert_eq!(r.partitions[0].error_code, ErrorCode::OffsetMetadataTooLarge);
    assert_eq!(r.partitions[1].error_code, ErrorCode::None);
}

// =====================================================================================================
// OffsetFetch and DescribeGroups
// =====================================================================================================

// Offsets regardless of state; unknown or Dead → -1 with no error.
#[test]
fn fetch_in_every_state() {
    let mut at = stable();
    at.h.commit(1, &at.ids[0].clone(), 1, 9);
    assert_eq!(at.h.fetch(1), 9);
    let t = at.h.join(1, join_req(&at.ids[0].clone()));
    assert!(!at.h.answered(t));
    assert_eq!(at.h.state(), GroupState::PreparingRebalance);
    assert_eq!(at.h.fetch(1), 9);
    at.h.mark_dead();
    assert_eq!(at.h.fetch(1), -1);
}

#[test]
fn fetch_unknown_group_minus_one() {
    let mut h = Harness::new();
    assert_eq!(h.fetch(1), -1);
}

#[test]
fn describe_stable_has_protocol_and_metadata() {
    let at = stable();
    let d = at.h.describe();
    assert_eq!(d.group_state, GroupState::Stable);
    assert_eq!(d.protocol_type, "consumer");
    assert_eq!(d.protocol_data, "range");
    assert_eq!(d.members.len(), 2);
    assert!(d
        .members
        .iter()
        .all(|m| m.metadata.as_ref().is_some_and(|s| s.topics == vec!["foo"])));
    assert_eq!(
        d.members[1].assignment.partitions,
        vec![TopicPartition::new("foo", 1)]
    );
    assert_eq!(d.members[0].client_id, "c1");
}

#[test]
fn describe_rebalancing_has_members_without_metadata() {
    for at in [preparing(), completing()] {
        let d = at.h.describe();
        assert_eq!(d.protocol_data, "");
        assert_eq!(d.protocol_type, "consumer");
        assert_eq!(d.members.len(), 2);
        assert!(d.members.iter().all(|m| m.metadata.is_none()));
    }
}

#[test]
fn describe_empty_dead_and_unknown() {
    let at = empty();
    let d = at.h.describe();
    assert_eq!(
        (d.group_state, d.protocol_data.as_str(), d.members.len()),
        (GroupState::Empty, "", 0)
    );
    let at = dead();
    assert_eq!(at.h.describe().group_state, GroupState::Dead);
    let mut h = Harness::new();
    // G's partition is led but the group does not exist yet.
    let t = h.send(
        1,
        Request::DescribeGroups(DescribeGroupsRequest {
            group_ids: vec![G.into()],
        }),
    );
    let Some(Response::DescribeGroups(r)) = h.take(t) else {
        panic!()
    };
    assert_eq!(r.groups[0].group_state, GroupState::Dead);
    assert_eq!(r.groups[0].error_code, ErrorCode::None);
}

// FindCoordinator: the leader of partitionFor(group).
#[test]
fn find_coordinator_answers_the_partition_leader() {
    let mut h = Harness::new();
    let r = h.find_coordinator(1, G);
    assert_eq!(
        (r.error_code, r.node_id, r.partition),
        (ErrorCode::None, NodeId(1), 13)
    );
    let r = h.find_coordinator(1, "test_group_1");
    assert_eq!(
        (r.error_code, r.partition),
        (ErrorCode::CoordinatorNotAvailable, 30)
    );
    h.coord.set_partition_leader(30, Some(NodeId(7)));
    let r = h.find_coordinator(1, "test_group_1");
    assert_eq!((r.error_code, r.node_id), (ErrorCode::None, NodeId(7)));
}

// group.max.size: a new member beyond the limit gets GROUP_MAX_SIZE_REACHED with member id ""
// (GroupMetadataManagerTest.testJoinGroupShouldReceiveErrorIfGroupOverMaxSize).
#[test]
fn join_over_group_max_size() {
    let mut h = Harness::with_config(CoordinatorConfig {
        group_max_size: 2,
        ..config()
    });
    let ids = h.stable_group(2);
    let t = h.join(3, join_req("").version(3));
    let r = h.join_resp(t);
    assert_eq!(
        (r.error_code, r.member_id.as_str()),
        (ErrorCode::GroupMaxSizeReached, "")
    );
    assert_eq!(h.member_ids(), ids);
    assert_eq!(h.state(), GroupState::Stable);
}

// INCONSISTENT_GROUP_PROTOCOL: wrong protocol type, no common protocol, or empty lists on an Empty
// group (GroupMetadataManagerTest.testJoinGroupInconsistentProtocolType / ...EmptyProtocolType /
// ...EmptyGroupProtocol / ...InconsistentGroupProtocol).
#[test]
fn join_inconsistent_protocols() {
    let mut h = Harness::new();
    let t = h.join(
        1,
        JoinGroupRequest {
            protocol_type: String::new(),
            ..join_req("")
        },
    );
    assert_eq!(h.join_resp(t).error_code, ErrorCode::InconsistentGroupProtocol);
    let t = h.join(
        1,
        JoinGroupRequest {
            protocols: vec![],
            ..join_req("")
        },
    );
    assert_eq!(h.join_resp(t).error_code, ErrorCode::InconsistentGroupProtocol);
    let _ = h.stable_group(1);
    let t = h.join(
        2,
        JoinGroupRequest {
            protocol_type: "connect".into(),
            ..join_req("")
        },
    );
    assert_eq!(h.join_resp(t).error_code, ErrorCode::InconsistentGroupProtocol);
    let t = h.join(2, join_req("").with_protocols(&["roundrobin"]));
    assert_eq!(h.join_resp(t).error_code, ErrorCode::InconsistentGroupProtocol);
    let t = h.join(2, join_req("").with_protocols(&["roundrobin", "range"]));
    assert_eq!(h.join_resp(t).error_code, ErrorCode::MemberIdRequired);
}
