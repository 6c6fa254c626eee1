//! What the coordinator does when a record it appends to `__consumer_offsets` cannot be written or
//! replicated: errors mapped as Kafka maps them (reference §3.0), and the in-memory change the
//! record was to persist undone where Kafka undoes it.

mod common;

use common::*;
use rebalance_engine::protocol::*;

fn member(h: &Harness, id: &str) -> Option<rebalance_engine::MemberSnapshot> {
    h.snapshot().members.into_iter().find(|m| m.member_id == id)
}

/// The member id static instance `instance` has now.
fn member_of_instance(h: &Harness, instance: &str) -> String {
    h.snapshot()
        .members
        .into_iter()
        .find(|m| m.group_instance_id.as_deref() == Some(instance))
        .expect("a member with that instance id")
        .member_id
}

/// The response Kafka gives when the replacement is undone: the mapped error, no member id, and
/// the group's generation, protocol and (previous) leader.
fn assert_reverted_response(r: &JoinGroupResponse, leader: &str) {
    assert_eq!(r.error_code, ErrorCode::CoordinatorNotAvailable);
    assert_eq!(r.member_id, "");
    assert_eq!(r.generation_id, 1);
    assert_eq!(r.protocol_name.as_deref(), Some("range"));
    assert_eq!(r.protocol_type.as_deref(), Some("consumer"));
    assert_eq!(r.leader, leader);
    assert!(!r.skip_assignment && r.members.is_empty());
}

// Kafka: GroupMetadataManagerTest
// `testStaticMemberRejoinWithUnknownMemberIdAndChangeOfProtocolWhileSelectProtocolUnchangedPersistenceFailure`
// (and the error callback of `updateStaticMemberThenRebalanceOrCompleteJoin`): a static member
// rejoining a Stable group with an empty member id gets a new id, which must be persisted; when
// the group record's append fails, the replacement is reverted, so the old id is the instance's
// again, with its old session timeout, and the group stays Stable.
#[test]
fn a_static_replacement_whose_record_cannot_be_written_is_undone() {
    let mut h = Harness::new();
    let (a, b) = h.static_pair();
    let p = h.partition();
    // The ISR is below min.insync.replicas: every append is refused before anything is written.
    h.coord.set_append_error(p, Some(ErrorCode::NotEnoughReplicas));
    let before = h.coord.log(p).unwrap().len();

    let mut rejoin = join_req("").instance("i1");
    rejoin.session_timeout_ms = 20_000;
    let t = h.join(3, rejoin);
    let r = h.join_resp(t);
    assert_reverted_response(&r, &a);
    assert_eq!(h.coord.log(p).unwrap().len(), before, "nothing was written");

    // The old id is back, as leader, with the session timeout it had; the new id is gone.
    assert_eq!(h.state(), GroupState::Stable);
    let m = member(&h, &a).expect("the old member id is back");
    assert_eq!(m.group_instance_id.as_deref(), Some("i1"));
    assert_eq!(m.session_timeout_ms, SESSION_MS);
    assert!(!m.awaiting_join);
    assert_eq!(h.leader(), Some(a.clone()));
    assert_eq!(h.member_ids().len(), 2);
    assert!(h.member_ids().contains(&b));
    // So the old id keeps heartbeating (without the revert: FENCED_INSTANCE_ID).
    assert_eq!(h.heartbeat_static(1, &a, Some("i1"), 1), ErrorCode::None);
    // Its session timer runs under the old id, from the revert.
    let (deadline, _) = m.session_deadline.expect("a session timer");
    assert_eq!(deadline, h.now + SESSION);

    // Once appends work again, the instance rejoins with its old id, as Kafka's test does (the
    // leader's JoinGroup starts a rebalance), and the next generation forms around it.
    h.coord.set_append_error(p, None);
    let ta = h.join(1, join_req(&a).instance("i1"));
    assert_eq!(h.state(), GroupState::PreparingRebalance);
    let tb = h.join(2, join_req(&b).instance("i2"));
    h.run_join_phase();
    let r = h.join_resp(ta);
    assert_eq!(
        (r.error_code, r.member_id.as_str()),
        (ErrorCode::None, a.as_str())
    );
    assert_eq!((r.generation_id, r.leader.as_str()), (2, a.as_str()));
    assert_eq!(h.join_resp(tb).error_code, ErrorCode::None);
}

// The same, when the record was written but not replicated in time (acks=all: the append waits
// for the high watermark, then fails with REQUEST_TIMED_OUT after offsets.commit.timeout.ms). The
// JoinGroup is answered only then, and the replacement is undone then.
#[test]
fn a_static_replacement_whose_record_is_not_replicated_in_time_is_undone() {
    let mut h = Harness::new();
    let (a, b) = h.static_pair();
    h.coord.set_await_replication(true);

    // The follower bounces.
    let t = h.join(3, join_req("").instance("i2"));
    assert!(!h.answered(t), "the answer waits for the record to be replicated");
    let new_id = member_of_instance(&h, "i2");
    assert_ne!(new_id, b);
    let waiting = h.coord.waiting_appends();
    assert_eq!(waiting.len(), 1);
    let (wp, offset) = waiting[0];
    assert_eq!(wp, h.partition());

    h.advance(5_000);
    h.append_failed(offset, ErrorCode::RequestTimedOut);
    let r = h.join_resp(t);
    assert_reverted_response(&r, &a);
    assert!(member(&h, &new_id).is_none(), "the new id is gone");
    assert!(member(&h, &b).is_some(), "the old id is back");
    assert_eq!(h.heartbeat_static(2, &b, Some("i2"), 1), ErrorCode::None);
    assert_eq!(
        h.heartbeat_static(3, &new_id, Some("i2"), 1),
        ErrorCode::FencedInstanceId
    );
    assert_eq!(h.state(), GroupState::Stable);
}

// If the instance was replaced again (or left) while the first replacement's record waited, there
// is nothing of it left to undo: the failed JoinGroup only gets its error.
#[test]
fn a_failed_replacement_that_was_superseded_undoes_nothing() {
    let mut h = Harness::new();
    let (_a, b) = h.static_pair();
    h.coord.set_await_replication(true);
    let t1 = h.join(3, join_req("").instance("i2"));
    let t2 = h.join(4, join_req("").instance("i2"));
    let waiting = h.coord.waiting_appends();
    assert_eq!(waiting.len(), 2);
    let latest = member_of_instance(&h, "i2");
    h.append_failed(waiting[0].1, ErrorCode::RequestTimedOut);
    let r = h.join_resp(t1);
    assert_eq!(r.error_code, ErrorCode::CoordinatorNotAvailable);
    assert!(member(&h, &b).is_none());
    assert!(member(&h, &latest).is_some(), "the second replacement stands");
    assert!(!h.answered(t2));
    h.high_watermark(waiting[1].1 + 1);
    let r = h.join_resp(t2);
    assert_eq!((r.error_code, r.member_id), (ErrorCode::None, latest));
}
