//! Scenario tests for the cluster: the coordinator's broker crashing in Stable and in
//! CompletingRebalance, a follower leaving and rejoining the ISR, every ISR replica down (no unclean
//! election), and which committed offsets survive a failover.

mod common;

use common::sim::{client_events, cluster_events};
use rebalance_engine::cluster::{ClusterEvent, IsrShrinkReason};
use rebalance_engine::protocol::{ErrorCode, GroupState, NodeId, Response, TopicPartition};
use rebalance_engine::sim::{Action, NetworkEvent, SimEventKind};
use rebalance_engine::{ClientEvent, EventKind, MemberState, Payload, Scenario, SimTime, Simulation};

fn sim(json: &str) -> Simulation {
    let s = Scenario::from_json(json).unwrap_or_else(|e| panic!("{e}"));
    Simulation::new(&s).unwrap()
}

/// Two consumers on a 4-partition topic, stable long before 20 s.
const TWO: &str = r#"{
  "version": 1, "seed": 3, "group_id": "test_group_1", "end_ms": 60000,
  "topics": [{ "name": "t", "partitions": 4, "records_per_sec": 10 }],
  "client_defaults": { "subscription": { "topics": ["t"] }, "processing_ms": 500 },
  "consumers": [{ "name": "A" }, { "name": "B" }],
  "actions": [ACTIONS]
}"#;

fn two(actions: &str) -> Simulation {
    sim(&TWO.replace("ACTIONS", actions))
}

/// A alone on a 4-partition topic, B added at 20 s; 20 ms network latency; a batch takes
/// `PROCESSING` ms.
const B_JOINS_AT_20S: &str = r#"{
  "version": 1, "seed": 5, "group_id": "test_group_1", "end_ms": 90000,
  "network": { "latency_ms": 20 },
  "topics": [{ "name": "t", "partitions": 4, "records_per_sec": 10 }],
  "client_defaults": { "subscription": { "topics": ["t"] }, "processing_ms": PROCESSING },
  "consumers": [{ "name": "A" }],
  "actions": [{ "type": "add_consumer", "at_ms": 20000, "consumer": { "name": "B" } }]
}"#;

fn b_joins_at_20s(processing_ms: u64) -> Simulation {
    sim(&B_JOINS_AT_20S.replace("PROCESSING", &processing_ms.to_string()))
}

/// A alone on a 1-partition topic at 100 records/s, committing after every 1 s batch, until
/// `END`; `CLUSTER` is the cluster's settings and `ACTIONS` the faults.
const COMMITTING: &str = r#"{
  "version": 1, "seed": 4, "group_id": "test_group_1", "end_ms": END,
  "cluster": { CLUSTER },
  "topics": [{ "name": "t", "partitions": 1, "records_per_sec": 100 }],
  "client_defaults": { "subscription": { "topics": ["t"] }, "processing_ms": 1000,
                       "commit": { "mode": "manual", "every_batches": 1 } },
  "consumers": [{ "name": "A" }],
  "actions": [ACTIONS]
}"#;

fn committing(end_ms: u64, cluster: &str, actions: &str) -> Simulation {
    sim(&COMMITTING
        .replace("END", &end_ms.to_string())
        .replace("CLUSTER", cluster)
        .replace("ACTIONS", actions))
}

#[test]
fn coordinator_crash_in_stable_keeps_the_generation() {
    let mut s = two(r#"{ "type": "crash_broker", "at_ms": 20000, "broker": 0 }"#);
    assert_eq!(s.cluster().group_partition(), 30);
    assert_eq!(s.offsets_partition().leader, Some(NodeId(0)));
    s.run_until(SimTime(19_999));
    let before = s.group_snapshot().unwrap();
    assert_eq!(before.state, GroupState::Stable);
    let owners_before = s.owners();
    s.run_to_end();

    // The controller elects the next ISR replica; it loads the group Stable, same generation.
    let ev = cluster_events(&s);
    assert!(ev.iter().any(|(t, e)| *t == SimTime(20_000)
        && matches!(
            e,
            ClusterEvent::BrokerCrashed {
                broker: NodeId(0),
                graceful: false
            }
        )));
    assert!(ev.iter().any(|(_, e)| matches!(
        e,
        ClusterEvent::LeaderElected {
            leader: NodeId(1),
            leader_epoch: 1,
            ..
        }
    )));
    let loaded = s.log().iter().find_map(|e| match &e.kind {
        SimEventKind::Coordinator {
            node: NodeId(1),
            event:
                EventKind::GroupLoaded {
                    state,
                    generation_id,
                    members,
                    ..
                },
        } => Some((*state, *generation_id, *members)),
        _ => None,
    });
    assert_eq!(loaded, Some((GroupState::Stable, before.generation_id, 2)));
    let after = s.group_snapshot().unwrap();
    assert_eq!(s.offsets_partition().leader, Some(NodeId(1)));
    assert_eq!(after.state, GroupState::Stable);
    assert_eq!(after.generation_id, before.generation_id, "no rebalance");
    assert_eq!(after.leader, before.leader);
    assert_eq!(s.owners(), owners_before);
    for c in s.consumers() {
        assert_eq!(
            c.coordinator,
            Some(NodeId(1)),
            "{} found the new coordinator",
            c.name
        );
        assert_eq!(c.member_state, MemberState::Stable);
        assert_eq!(c.generation, before.generation_id);
    }
    // The clients learnt of the crash from the dropped connection, then rediscovered.
    for who in ["A", "B"] {
        assert!(client_events(&s, who)
            .any(|(e, c)| e.at == SimTime(20_000) && matches!(c, ClientEvent::CoordinatorLost { .. })));
        assert!(client_events(&s, who).any(|(e, c)| e.at > SimTime(20_000)
            && matches!(c, ClientEvent::CoordinatorDiscovered { node } if *node == NodeId(1))));
    }
    // Nothing was delivered to or from the dead broker after the crash.
    for e in s.log() {
        if let SimEventKind::Network {
            event: NetworkEvent::Delivered { from, to, .. },
        } = &e.kind
        {
            if e.at >= SimTime(20_000) {
                assert_ne!(from, &rebalance_engine::Endpoint::Broker(NodeId(0)));
                assert_ne!(to, &rebalance_engine::Endpoint::Broker(NodeId(0)));
            }
        }
    }
    // Heartbeats go on at the new coordinator.
    assert!(s.log().iter().any(|e| e.at > SimTime(30_000)
        && matches!(&e.kind, SimEventKind::Coordinator { node: NodeId(1), event: EventKind::RequestReceived { request, .. } } if request.api_name() == "Heartbeat")));
}

#[test]
fn coordinator_crash_in_completing_rebalance_loses_the_rebalance() {
    // B joins at 20 s; crash the coordinator the moment the group reaches CompletingRebalance.
    let mut s = b_joins_at_20s(500);
    s.run_until(SimTime(19_000));
    let stable_gen = s.group_snapshot().unwrap().generation_id;
    while s.group_snapshot().map(|g| g.state) != Some(GroupState::CompletingRebalance) {
        s.step().expect("the rebalance reaches CompletingRebalance");
        assert!(s.now() < SimTime(60_000));
    }
    let crash_at = s.now();
    assert_eq!(s.group_snapshot().unwrap().generation_id, stable_gen + 1);
    s.apply(
        crash_at,
        Action::CrashBroker {
            broker: NodeId(0),
            graceful: false,
        },
    )
    .unwrap();
    // The new leader has only what was persisted: the last Stable generation, A alone.
    let loaded = s.group_snapshot().unwrap();
    assert_eq!(s.offsets_partition().leader, Some(NodeId(1)));
    assert_eq!(loaded.state, GroupState::Stable);
    assert_eq!(loaded.generation_id, stable_gen);
    assert_eq!(loaded.members.len(), 1);
    s.run_to_end();
    // Members learn it from errors and rejoin: a newer generation with both members.
    let g = s.group_snapshot().unwrap();
    assert_eq!(g.state, GroupState::Stable);
    assert!(
        g.generation_id > stable_gen,
        "a new rebalance completed ({})",
        g.generation_id
    );
    assert_eq!(g.members.len(), 2);
    let owned: usize = s.owners().values().map(Vec::len).sum();
    assert_eq!(owned, 4);
    for c in s.consumers() {
        assert_eq!(c.coordinator, Some(NodeId(1)));
        assert_eq!(c.generation, g.generation_id);
    }
    // Someone saw an error code telling them the old rebalance was gone.
    let told = s.log().iter().any(|e| {
        e.at >= crash_at
            && matches!(&e.kind, SimEventKind::Client { event: ClientEvent::ErrorReceived { error, .. }, .. }
                if matches!(error, ErrorCode::RebalanceInProgress | ErrorCode::IllegalGeneration | ErrorCode::UnknownMemberId))
    });
    assert!(
        told,
        "a member learnt from an error code that the rebalance was lost"
    );
}

#[test]
fn graceful_shutdown_answers_parked_requests_with_not_coordinator() {
    let mut s = b_joins_at_20s(5000);
    s.run_until(SimTime(19_000));
    // B's JoinGroup is parked while A finishes its batch (PreparingRebalance).
    while s.group_snapshot().map(|g| g.state) != Some(GroupState::PreparingRebalance) {
        s.step().unwrap();
    }
    let at = s.now();
    s.apply(
        at,
        Action::CrashBroker {
            broker: NodeId(0),
            graceful: true,
        },
    )
    .unwrap();
    let not_coord = s.log().iter().any(|e| {
        e.at == at
            && matches!(&e.kind, SimEventKind::Network { event: NetworkEvent::Sent { message } }
                if matches!(&message.payload, Payload::Response(Response::JoinGroup(r)) if r.error_code == ErrorCode::NotCoordinator))
    });
    assert!(not_coord, "the parked JoinGroup was answered NOT_COORDINATOR");
    s.run_to_end();
    assert_eq!(s.group_snapshot().unwrap().state, GroupState::Stable);
    assert_eq!(s.group_snapshot().unwrap().members.len(), 2);
}

#[test]
fn a_slow_follower_leaves_the_isr_and_returns() {
    let mut s = sim(r#"{
      "version": 1, "seed": 1, "group_id": "test_group_1", "end_ms": 150000,
      "topics": [{ "name": "t", "partitions": 2, "records_per_sec": 10 }],
      "client_defaults": { "subscription": { "topics": ["t"] }, "processing_ms": 500 },
      "consumers": [{ "name": "A" }],
      "actions": [{ "type": "slow_broker", "at_ms": 10000, "broker": 1, "fetch_interval_ms": 40000, "duration_ms": 60000 }]
    }"#);
    s.run_to_end();
    let ev = cluster_events(&s);
    let shrunk = ev.iter().find_map(|(t, e)| match e {
        ClusterEvent::IsrShrunk {
            removed: NodeId(1),
            isr,
            reason: IsrShrinkReason::Lagging { lag_ms },
            ..
        } => Some((*t, isr.clone(), *lag_ms)),
        _ => None,
    });
    let (t_out, isr, lag) = shrunk.expect("broker 1 leaves the ISR");
    assert_eq!(isr, vec![NodeId(0), NodeId(2)]);
    assert!(lag > 30_000);
    assert_eq!(
        t_out.as_millis() % 15_000,
        0,
        "the isr-expiration task runs every 15 s"
    );
    let back = ev.iter().find_map(|(t, e)| match e {
        ClusterEvent::IsrExpanded {
            added: NodeId(1),
            isr,
            ..
        } => Some((*t, isr.clone())),
        _ => None,
    });
    let (t_in, isr) = back.expect("broker 1 rejoins the ISR");
    assert!(t_in > t_out && t_in >= SimTime(70_000));
    assert_eq!(isr, vec![NodeId(0), NodeId(1), NodeId(2)]);
    // While the slow follower was still in the ISR the HW could not pass its LEO: commits waited
    // offsets.commit.timeout.ms, failed REQUEST_TIMED_OUT, and the consumer saw
    // COORDINATOR_NOT_AVAILABLE.
    assert!(ev
        .iter()
        .any(|(t, e)| *t < t_out && matches!(e, ClusterEvent::AppendTimedOut { .. })));
    assert!(client_events(&s, "A").any(|(_, c)| matches!(
        c,
        ClientEvent::CommitCompleted {
            error: ErrorCode::CoordinatorNotAvailable,
            ..
        }
    )));
    // After it left, commits succeed again; at the end every replica holds the whole log.
    assert!(client_events(&s, "A").any(|(e, c)| e.at > t_out
        && matches!(
            c,
            ClientEvent::CommitCompleted {
                error: ErrorCode::None,
                ..
            }
        )));
    let p = s.offsets_partition();
    let leo = p.replicas[0].log_end_offset;
    assert!(p.high_watermark <= leo);
    assert_eq!(s.group_snapshot().unwrap().state, GroupState::Stable);
}

#[test]
fn every_isr_replica_down_leaves_the_group_unavailable() {
    // Four brokers, replication factor 2: test_group_1's partition 30 lives on brokers 2 and 0.
    let mut s = sim(r#"{
      "version": 1, "seed": 2, "group_id": "test_group_1", "end_ms": 120000,
      "cluster": { "brokers": 4, "replication_factor": 2 },
      "topics": [{ "name": "t", "partitions": 2, "records_per_sec": 10 }],
      "client_defaults": { "subscription": { "topics": ["t"] }, "processing_ms": 500 },
      "consumers": [{ "name": "A" }],
      "actions": [
        { "type": "crash_broker", "at_ms": 10000, "broker": 0 },
        { "type": "crash_broker", "at_ms": 20000, "broker": 2 },
        { "type": "restart_broker", "at_ms": 40000, "broker": 0 },
        { "type": "restart_broker", "at_ms": 80000, "broker": 2 }
      ]
    }"#);
    assert_eq!(s.cluster().replicas(30), &[NodeId(2), NodeId(0)]);
    assert_eq!(s.offsets_partition().leader, Some(NodeId(2)));
    s.run_until(SimTime(30_000));
    assert_eq!(s.offsets_partition().leader, None);
    assert_eq!(
        s.offsets_partition().isr,
        vec![NodeId(2)],
        "Kafka keeps the last ISR member"
    );
    s.run_until(SimTime(60_000));
    // Broker 0 is back but out of the ISR: no unclean election.
    assert!(s.cluster().is_alive(NodeId(0)));
    assert_eq!(s.offsets_partition().leader, None);
    let ev = cluster_events(&s);
    assert!(ev
        .iter()
        .any(|(_, e)| matches!(e, ClusterEvent::PartitionOffline { .. })));
    assert!(!ev
        .iter()
        .any(|(t, e)| *t > SimTime(20_000) && matches!(e, ClusterEvent::LeaderElected { .. })));
    // FindCoordinator answers COORDINATOR_NOT_AVAILABLE from the live brokers.
    let unavailable = s.log().iter().any(|e| {
        e.at > SimTime(20_000)
            && matches!(&e.kind, SimEventKind::Network { event: NetworkEvent::Sent { message } }
                if matches!(&message.payload, Payload::Response(Response::FindCoordinator(r)) if r.error_code == ErrorCode::CoordinatorNotAvailable))
    });
    assert!(unavailable);
    assert_eq!(s.consumer("A").unwrap().coordinator(), None);
    s.run_to_end();
    // The ISR member returns and leads again; the group is back.
    assert_eq!(s.offsets_partition().leader, Some(NodeId(2)));
    assert_eq!(s.consumer("A").unwrap().coordinator(), Some(NodeId(2)));
    assert_eq!(s.group_snapshot().unwrap().state, GroupState::Stable);
    // Broker 0 caught up and rejoined.
    assert_eq!(s.offsets_partition().isr, vec![NodeId(2), NodeId(0)]);
}

#[test]
fn committed_offsets_below_the_hw_survive_a_failover_and_unreplicated_ones_are_lost() {
    // Followers fetch every 4 s: a commit is acknowledged only after a fetch carries it and the
    // next one reports it. Broker 0 crashes at 30.5 s, with appends not yet fetched.
    let mut s = committing(
        60_000,
        r#""replica_fetch_interval_ms": 4000, "offsets_commit_timeout_ms": 20000"#,
        "",
    );
    s.run_until(SimTime(30_500));
    let tp = TopicPartition::new("t", 0);
    let p = s.offsets_partition();
    let hw = p.high_watermark;
    let leader_leo = p.replicas[0].log_end_offset;
    assert!(
        leader_leo > hw,
        "some appends wait for the HW ({hw} < {leader_leo})"
    );
    // The last acknowledged commit.
    let acked = client_events(&s, "A")
        .filter_map(|(_, c)| match c {
            ClientEvent::CommitCompleted {
                offsets,
                error: ErrorCode::None,
                ..
            } => offsets.iter().find(|(t, _)| *t == tp).map(|(_, o)| *o),
            _ => None,
        })
        .last()
        .expect("some commits were acknowledged");
    // The newest commit appended on the leader, acknowledged or not.
    let newest = s
        .coordinator()
        .log(30)
        .unwrap()
        .iter()
        .rev()
        .find_map(|r| match &r.body {
            rebalance_engine::RecordBody::OffsetCommit(o) => Some(o.committed_offset),
            _ => None,
        })
        .unwrap();
    assert!(newest > acked);
    s.apply(
        SimTime(30_500),
        Action::CrashBroker {
            broker: NodeId(0),
            graceful: false,
        },
    )
    .unwrap();
    let new_leader = s.offsets_partition().leader.expect("an ISR follower takes over");
    let survived = s
        .committed_offsets()
        .get(&tp)
        .copied()
        .expect("the acknowledged offset survived");
    assert!(
        survived >= acked,
        "no acknowledged commit is lost ({survived} < {acked})"
    );
    assert!(
        survived < newest,
        "the unreplicated commit is lost ({survived} vs {newest})"
    );
    assert!(s.cluster().log_end_offset(new_leader).unwrap() < leader_leo);
    s.run_to_end();
    // Broker 0's records above the new leader's log are gone when it comes back: not here (it
    // stays down), but the group carries on from the surviving offset.
    assert_eq!(s.group_snapshot().unwrap().state, GroupState::Stable);
}

#[test]
fn restarted_leader_truncates_its_unreplicated_tail() {
    let mut s = committing(
        60_000,
        r#""replica_fetch_interval_ms": 4000, "offsets_commit_timeout_ms": 20000"#,
        r#"{ "type": "crash_broker", "at_ms": 30500, "broker": 0 },
           { "type": "restart_broker", "at_ms": 40000, "broker": 0 }"#,
    );
    s.run_to_end();
    let ev = cluster_events(&s);
    assert!(ev.iter().any(|(t, e)| *t == SimTime(40_000)
        && matches!(e, ClusterEvent::LogTruncated { broker: NodeId(0), from, to, .. } if to < from)));
    // It catches up from the new leader and rejoins the ISR.
    assert!(ev.iter().any(
        |(t, e)| *t > SimTime(40_000) && matches!(e, ClusterEvent::IsrExpanded { added: NodeId(0), .. })
    ));
    let p = s.offsets_partition();
    assert_eq!(
        p.leader,
        Some(NodeId(1)),
        "leadership does not move back by itself"
    );
    let logs: Vec<_> = [0, 1, 2]
        .iter()
        .map(|b| s.cluster().replica_log(NodeId(*b)).unwrap()[..p.high_watermark as usize].to_vec())
        .collect();
    assert_eq!(logs[0], logs[1]);
    assert_eq!(logs[1], logs[2]);
}

#[test]
fn not_enough_replicas_makes_group_writes_fail() {
    // min.insync.replicas 2 and both followers down: commits get NOT_ENOUGH_REPLICAS, mapped to
    // COORDINATOR_NOT_AVAILABLE.
    let mut s = committing(
        40_000,
        r#""min_insync_replicas": 2"#,
        r#"{ "type": "crash_broker", "at_ms": 15000, "broker": 1 },
           { "type": "crash_broker", "at_ms": 15000, "broker": 2 }"#,
    );
    s.run_to_end();
    assert_eq!(s.offsets_partition().isr, vec![NodeId(0)]);
    let refused = client_events(&s, "A").any(|(e, c)| {
        e.at > SimTime(15_000)
            && matches!(
                c,
                ClientEvent::CommitCompleted {
                    error: ErrorCode::CoordinatorNotAvailable,
                    ..
                }
            )
    });
    assert!(refused);
    let ok_after = client_events(&s, "A").any(|(e, c)| {
        e.at > SimTime(15_000)
            && matches!(
                c,
                ClientEvent::CommitCompleted {
                    error: ErrorCode::None,
                    ..
                }
            )
    });
    assert!(!ok_after);
}

#[test]
fn a_single_broker_outage_is_retried_with_backoff_and_recovers() {
    let mut s = sim(r#"{
      "version": 1, "seed": 1, "group_id": "test_group_1", "end_ms": 30000,
      "cluster": { "brokers": 1 },
      "topics": [{ "name": "t", "partitions": 2, "records_per_sec": 10 }],
      "client_defaults": { "subscription": { "topics": ["t"] }, "processing_ms": 500 },
      "consumers": [{ "name": "A" }],
      "actions": [
        { "type": "crash_broker", "at_ms": 10000, "broker": 0 },
        { "type": "restart_broker", "at_ms": 20000, "broker": 0 }
      ]
    }"#);
    s.run_to_end();
    // Refused lookups are retried every retry.backoff.ms (100), not in a tight loop.
    let lookups: Vec<SimTime> = s
        .log()
        .iter()
        .filter(|e| {
            e.at >= SimTime(10_000)
                && e.at < SimTime(20_000)
                && matches!(&e.kind, SimEventKind::Network { event: NetworkEvent::Sent { message } }
                    if message.payload.api() == rebalance_engine::protocol::Api::FindCoordinator)
        })
        .map(|e| e.at)
        .collect();
    assert!(
        lookups.len() > 10 && lookups.len() < 120,
        "{} lookups",
        lookups.len()
    );
    assert!(lookups.windows(2).all(|w| (w[1] - w[0]).as_millis() >= 100));
    // The only ISR member returns and leads again; the group is back without a rebalance.
    assert_eq!(s.offsets_partition().leader, Some(NodeId(0)));
    let g = s.group_snapshot().unwrap();
    assert_eq!(g.state, GroupState::Stable);
    assert_eq!(g.generation_id, 1);
    assert_eq!(s.consumer("A").unwrap().coordinator(), Some(NodeId(0)));
}

#[test]
fn a_failover_scheduled_before_a_crash_does_not_reload_on_a_dead_broker() {
    let mut s = two(
        r#"{ "type": "coordinator_failover", "at_ms": 20000, "duration_ms": 5000 },
           { "type": "crash_broker", "at_ms": 22000, "broker": 0 }"#,
    );
    s.run_to_end();
    assert_eq!(s.offsets_partition().leader, Some(NodeId(1)));
    assert!(s
        .broker_coordinator(NodeId(0))
        .unwrap()
        .led_partitions()
        .is_empty());
    assert_eq!(s.group_snapshot().unwrap().state, GroupState::Stable);
}

/// Every FindCoordinator response sent, with when and by whom.
fn find_coordinator_answers(s: &Simulation) -> Vec<(SimTime, String, ErrorCode, NodeId)> {
    s.log()
        .iter()
        .filter_map(|e| match &e.kind {
            SimEventKind::Network {
                event: NetworkEvent::Sent { message },
            } => match &message.payload {
                Payload::Response(Response::FindCoordinator(r)) => {
                    Some((e.at, message.to.to_string(), r.error_code, r.node_id))
                }
                _ => None,
            },
            _ => None,
        })
        .collect()
}

// Kafka's getCoordinator (reference §3.1): while the group's partition has no leader, FindCoordinator
// answers COORDINATOR_NOT_AVAILABLE. During a coordinator failover the broker that resigned the
// partition used to be named anyway, and the clients bounced between it (NOT_COORDINATOR) and
// FindCoordinator; now they back off until the partition is loaded again, then find it.
#[test]
fn find_coordinator_names_no_broker_while_the_partition_has_no_leader() {
    let mut s = two(r#"{ "type": "coordinator_failover", "at_ms": 20000, "duration_ms": 3000 }"#);
    s.run_to_end();
    let answers = find_coordinator_answers(&s);
    let window: Vec<_> = answers
        .iter()
        .filter(|(t, ..)| *t >= SimTime(20_000) && *t < SimTime(23_000))
        .collect();
    assert!(!window.is_empty(), "the consumers looked for the coordinator");
    for (t, to, e, node) in &window {
        assert_eq!(
            (*e, *node),
            (ErrorCode::CoordinatorNotAvailable, NodeId(-1)),
            "FindCoordinator to {to} at {t}"
        );
    }
    // After the reload, broker 0 is named again and both consumers carry on with it.
    let after = answers
        .iter()
        .find(|(t, ..)| *t >= SimTime(23_000))
        .expect("an answer after the reload");
    assert_eq!((after.2, after.3), (ErrorCode::None, NodeId(0)));
    for who in ["A", "B"] {
        assert_eq!(s.consumer(who).unwrap().coordinator(), Some(NodeId(0)));
        // Each consumer hears NOT_COORDINATOR once, from its first request after the unload;
        // it is not sent back to broker 0 again before the reload.
        let not_coordinator = client_events(&s, who)
            .filter(|(e, ev)| {
                e.at >= SimTime(20_000)
                    && e.at < SimTime(23_000)
                    && matches!(
                        ev,
                        ClientEvent::ErrorReceived {
                            error: ErrorCode::NotCoordinator,
                            ..
                        }
                    )
            })
            .count();
        assert_eq!(not_coordinator, 1, "{who}");
    }
    let g = s.group_snapshot().unwrap();
    assert_eq!((g.state, g.generation_id), (GroupState::Stable, 1));
}

// Kafka's leader does not move the high watermark while the ISR is smaller than
// min.insync.replicas (`Partition.maybeIncrementLeaderHW` / `isUnderMinIsr`): a commit appended
// while the ISR was full, whose followers then fall out of the ISR before fetching it, is never
// acknowledged by the leader alone. It times out after offsets.commit.timeout.ms
// (REQUEST_TIMED_OUT, which the coordinator maps to COORDINATOR_NOT_AVAILABLE), and later commits
// are refused at once (NOT_ENOUGH_REPLICAS, mapped the same way).
#[test]
fn a_commit_is_not_acknowledged_by_an_isr_below_min_insync_replicas() {
    let mut s = committing(
        30_000,
        r#""min_insync_replicas": 2, "replica_lag_time_max_ms": 2000"#,
        r#"{ "type": "slow_broker", "at_ms": 10000, "broker": 1, "fetch_interval_ms": 60000 },
           { "type": "slow_broker", "at_ms": 10000, "broker": 2, "fetch_interval_ms": 60000 }"#,
    );
    s.run_until(SimTime(10_000));
    let hw_at_slowdown = s.offsets_partition().high_watermark;
    s.run_to_end();
    // Both followers left the ISR (lagging), leaving the leader alone, under min.insync.replicas.
    let p = s.offsets_partition();
    assert_eq!(p.isr, vec![NodeId(0)]);
    let shrunk_at = cluster_events(&s)
        .into_iter()
        .filter(|(_, e)| matches!(e, ClusterEvent::IsrShrunk { isr, .. } if isr.len() == 1))
        .map(|(t, _)| t)
        .next()
        .expect("the ISR shrank to the leader");
    assert!(
        shrunk_at < SimTime(15_000),
        "before the first waiting commit timed out"
    );
    // The HW did not move past what the followers had replicated.
    assert!(
        p.high_watermark <= hw_at_slowdown + 1,
        "HW {} after {hw_at_slowdown}",
        p.high_watermark
    );
    assert!(
        p.replicas[0].log_end_offset > p.high_watermark,
        "commits were appended"
    );
    // No commit was acknowledged after the slowdown; the waiting ones timed out.
    let after: Vec<ErrorCode> = client_events(&s, "A")
        .filter_map(|(e, c)| match c {
            ClientEvent::CommitCompleted { error, .. } if e.at > SimTime(10_100) => Some(*error),
            _ => None,
        })
        .collect();
    assert!(!after.is_empty());
    assert!(
        after.iter().all(|e| *e == ErrorCode::CoordinatorNotAvailable),
        "{after:?}"
    );
    assert!(cluster_events(&s)
        .iter()
        .any(|(_, e)| matches!(e, ClusterEvent::AppendTimedOut { .. })));
}
