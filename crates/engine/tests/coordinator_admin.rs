//! The admin client's group APIs on the coordinator, one test per rule: ListGroups, DeleteGroups,
//! and the offset reset's OffsetCommit (generation -1, no member id). Each test states the Kafka
//! rule it checks (reference §2 "any → Dead", §3.6 rules 3 and 5, §3.9).

mod common;

use common::*;
use rebalance_engine::protocol::*;
use rebalance_engine::{Coordinator, EventKind, Reason, RecordBody, Request, Response, SimTime};

fn list(h: &mut Harness, states: &[&str]) -> ListGroupsResponse {
    let t = h.send(
        9,
        Request::ListGroups(ListGroupsRequest {
            states_filter: states.iter().map(|s| s.to_string()).collect(),
        }),
    );
    match h.take(t) {
        Some(Response::ListGroups(r)) => r,
        other => panic!("expected a ListGroups response, got {other:?}"),
    }
}

fn delete(h: &mut Harness, groups: &[&str]) -> Vec<(String, ErrorCode)> {
    let t = h.send(
        9,
        Request::DeleteGroups(DeleteGroupsRequest {
            group_ids: groups.iter().map(|g| g.to_string()).collect(),
        }),
    );
    match h.take(t) {
        Some(Response::DeleteGroups(r)) => r
            .results
            .into_iter()
            .map(|r| (r.group_id, r.error_code))
            .collect(),
        other => panic!("expected a DeleteGroups response, got {other:?}"),
    }
}

/// The offset reset of `kafka-consumer-groups.sh --reset-offsets --execute`: generation -1, no
/// member id (`alterConsumerGroupOffsets`).
fn admin_commit(h: &mut Harness, offset: i64) -> ErrorCode {
    h.commit_req(
        9,
        OffsetCommitRequest {
            group_id: G.into(),
            partitions: vec![OffsetCommitPartition {
                topic: "foo".into(),
                partition: 0,
                committed_offset: offset,
                committed_leader_epoch: -1,
                committed_metadata: String::new(),
            }],
            ..Default::default()
        },
    )
}

/// Empty at generation 2 with a committed offset for foo-0: one member joined, synced, committed,
/// left.
fn empty_with_offsets() -> Harness {
    let mut h = Harness::new();
    let ids = h.stable_group(1);
    assert_eq!(h.commit(1, &ids[0], 1, 42), ErrorCode::None);
    h.leave(1, &[(&ids[0], None)]);
    assert_eq!(h.state(), GroupState::Empty);
    h
}

// =====================================================================================================
// ListGroups
// =====================================================================================================

// GroupMetadataManager.listGroups: every group of the led partitions, with protocol type and state.
#[test]
fn list_groups_names_each_group_with_its_protocol_type_and_state() {
    let mut h = Harness::new();
    h.stable_group(2);
    let r = list(&mut h, &[]);
    assert_eq!(r.error_code, ErrorCode::None);
    assert_eq!(
        r.groups,
        vec![ListedGroup {
            group_id: G.into(),
            protocol_type: CONSUMER_PROTOCOL_TYPE.into(),
            group_state: GroupState::Stable,
        }]
    );
}

// ListGroups v4+: the states filter keeps only the named states, compared case-insensitively
// (`kafka-consumer-groups.sh --list --state stable`).
#[test]
fn list_groups_filters_by_state_case_insensitively() {
    let mut h = Harness::new();
    h.stable_group(1);
    assert_eq!(list(&mut h, &["stable"]).groups.len(), 1);
    assert_eq!(list(&mut h, &["Empty", "PreparingRebalance"]).groups.len(), 0);
}

// A group that only commits offsets (a "simple" group, §3.6 rule 1) has an empty protocol type.
#[test]
fn list_groups_shows_a_simple_group_with_an_empty_protocol_type() {
    let mut h = Harness::new();
    assert_eq!(admin_commit(&mut h, 5), ErrorCode::None);
    let r = list(&mut h, &[]);
    assert_eq!(r.groups[0].protocol_type, "");
    assert_eq!(r.groups[0].group_state, GroupState::Empty);
}

// An inactive coordinator answers COORDINATOR_NOT_AVAILABLE and lists nothing.
#[test]
fn list_groups_on_an_inactive_coordinator_is_coordinator_not_available() {
    let mut h = Harness::new();
    h.stable_group(1);
    h.coord.set_active(false);
    let r = list(&mut h, &[]);
    assert_eq!(r.error_code, ErrorCode::CoordinatorNotAvailable);
    assert!(r.groups.is_empty());
}

// A partition still loading fails the read with COORDINATOR_LOAD_IN_PROGRESS (the admin retries).
#[test]
fn list_groups_while_a_partition_loads_is_coordinator_load_in_progress() {
    let mut coord = Coordinator::new(config());
    let p = coord.partition_for(G);
    coord.start_loading(SimTime::ZERO, p);
    coord.handle_request(
        SimTime::ZERO,
        ConnectionId(1),
        1,
        Request::ListGroups(ListGroupsRequest::default()),
    );
    let out = coord.poll_output().expect("answered");
    assert_eq!(out.response.error_code(), ErrorCode::CoordinatorLoadInProgress);
}

// A deleted group is gone: it is not listed.
#[test]
fn list_groups_omits_a_deleted_group() {
    let mut h = empty_with_offsets();
    assert_eq!(delete(&mut h, &[G]), vec![(G.to_string(), ErrorCode::None)]);
    assert!(list(&mut h, &[]).groups.is_empty());
}

// =====================================================================================================
// DeleteGroups
// =====================================================================================================

// validateDeleteGroup: a group with members cannot be deleted, whatever its state.
#[test]
fn delete_groups_refuses_a_stable_group_with_non_empty_group() {
    let mut h = Harness::new();
    h.stable_group(2);
    assert_eq!(
        delete(&mut h, &[G]),
        vec![(G.to_string(), ErrorCode::NonEmptyGroup)]
    );
    assert_eq!(h.state(), GroupState::Stable);
}

#[test]
fn delete_groups_refuses_a_preparing_rebalance_group_with_non_empty_group() {
    let mut h = Harness::new();
    let ids = h.stable_group(2);
    h.join(1, join_req(&ids[0]).client("c1"));
    assert_eq!(h.state(), GroupState::PreparingRebalance);
    assert_eq!(
        delete(&mut h, &[G]),
        vec![(G.to_string(), ErrorCode::NonEmptyGroup)]
    );
}

#[test]
fn delete_groups_refuses_a_completing_rebalance_group_with_non_empty_group() {
    let mut h = Harness::new();
    h.joined_group(2);
    assert_eq!(h.state(), GroupState::CompletingRebalance);
    assert_eq!(
        delete(&mut h, &[G]),
        vec![(G.to_string(), ErrorCode::NonEmptyGroup)]
    );
}

// An unknown group is GROUP_ID_NOT_FOUND.
#[test]
fn delete_groups_of_an_unknown_group_is_group_id_not_found() {
    let mut h = Harness::new();
    assert_eq!(
        delete(&mut h, &[G]),
        vec![(G.to_string(), ErrorCode::GroupIdNotFound)]
    );
}

// A Dead group is GROUP_ID_NOT_FOUND (Scala: `case Dead => GROUP_ID_NOT_FOUND`).
#[test]
fn delete_groups_of_a_dead_group_is_group_id_not_found() {
    let mut h = Harness::new();
    h.stable_group(1);
    h.mark_dead();
    assert_eq!(
        delete(&mut h, &[G]),
        vec![(G.to_string(), ErrorCode::GroupIdNotFound)]
    );
}

// An Empty group is deleted: it goes Dead (reason: DeleteGroups) and leaves memory.
#[test]
fn delete_groups_makes_an_empty_group_dead_and_removes_it() {
    let mut h = empty_with_offsets();
    assert_eq!(delete(&mut h, &[G]), vec![(G.to_string(), ErrorCode::None)]);
    assert!(h.saw(|e| matches!(
        e,
        EventKind::StateChanged {
            from: GroupState::Empty,
            to: GroupState::Dead,
            reason: Reason::GroupDeleted,
            ..
        }
    )));
    assert!(h.coord.group_snapshot(G).is_none());
    // DescribeGroups reports an unknown group as Dead.
    assert_eq!(h.describe().group_state, GroupState::Dead);
    // Deleting it again finds nothing.
    assert_eq!(
        delete(&mut h, &[G]),
        vec![(G.to_string(), ErrorCode::GroupIdNotFound)]
    );
}

// createGroupTombstoneRecords: a tombstone for each committed offset, then one for the group.
#[test]
fn delete_groups_tombstones_the_offsets_then_the_group() {
    let mut h = empty_with_offsets();
    let before = h.coord.log(h.partition()).expect("led").len();
    delete(&mut h, &[G]);
    let log = h.coord.log(h.partition()).expect("led");
    let bodies: Vec<&RecordBody> = log[before..].iter().map(|r| &r.body).collect();
    assert_eq!(bodies.len(), 2);
    assert!(matches!(
        bodies[0],
        RecordBody::OffsetTombstone { group_id, topic_partition } if group_id == G && *topic_partition == TopicPartition::new("foo", 0)
    ));
    assert!(matches!(bodies[1], RecordBody::GroupTombstone { group_id } if group_id == G));
    // OffsetFetch reads nothing any more.
    assert_eq!(h.fetch(1), -1);
}

// The deletion survives a coordinator failover: replaying the log does not bring the group back.
#[test]
fn a_deleted_group_stays_deleted_after_a_reload() {
    let mut h = empty_with_offsets();
    delete(&mut h, &[G]);
    let p = h.partition();
    let records = h.coord.unload(h.now, p);
    h.coord.load(h.now, p, records);
    assert!(h.coord.group_snapshot(G).is_none());
    assert_eq!(h.fetch(1), -1);
}

// Per group, the §3.0 checks come first: a partition this broker does not lead is NOT_COORDINATOR.
#[test]
fn delete_groups_of_a_group_on_another_coordinator_is_not_coordinator() {
    let mut h = Harness::new();
    // A group id whose partition this coordinator does not lead.
    let other = (0..1000)
        .map(|i| format!("other-{i}"))
        .find(|g| h.coord.partition_for(g) != h.partition())
        .expect("a group on another partition");
    assert_eq!(
        delete(&mut h, &[&other]),
        vec![(other.clone(), ErrorCode::NotCoordinator)]
    );
}

// An inactive coordinator answers COORDINATOR_NOT_AVAILABLE for each group.
#[test]
fn delete_groups_on_an_inactive_coordinator_is_coordinator_not_available() {
    let mut h = empty_with_offsets();
    h.coord.set_active(false);
    assert_eq!(
        delete(&mut h, &[G]),
        vec![(G.to_string(), ErrorCode::CoordinatorNotAvailable)]
    );
}

// Each group of a batch gets its own result, in request order.
#[test]
fn delete_groups_answers_each_group_of_a_batch_in_order() {
    let mut h = empty_with_offsets();
    let r = delete(&mut h, &[G, G]);
    assert_eq!(
        r,
        vec![
            (G.to_string(), ErrorCode::None),
            (G.to_string(), ErrorCode::GroupIdNotFound)
        ]
    );
}

// =====================================================================================================
// The offset reset's OffsetCommit
// =====================================================================================================

// §3.6 rule 3: generation -1 and an Empty group: accepted without member validation.
#[test]
fn an_admin_commit_on_an_empty_group_is_accepted() {
    let mut h = empty_with_offsets();
    assert_eq!(admin_commit(&mut h, 7), ErrorCode::None);
    assert_eq!(h.fetch(1), 7);
}

// §3.6 rule 5: generation -1, no member id, a group with members: UNKNOWN_MEMBER_ID.
#[test]
fn an_admin_commit_on_an_active_group_is_unknown_member_id() {
    let mut h = Harness::new();
    let ids = h.stable_group(1);
    assert_eq!(h.commit(1, &ids[0], 1, 42), ErrorCode::None);
    assert_eq!(admin_commit(&mut h, 7), ErrorCode::UnknownMemberId);
    assert_eq!(h.fetch(1), 42);
}
