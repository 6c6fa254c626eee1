//! The consumer-protocol client (KIP-848, `group.protocol=consumer`) against the reference
//! (`kip-848-protocol.md` §11 for the client, §3–§8 for the coordinator rules it meets), one rule
//! at a time, and the seven consumer-protocol scenario files, each against its golden trace.

mod common;

use rebalance_engine::collections::Set;

use common::sim::{client_events, run_to_end, scenario_file};
use rebalance_engine::client::{ConsumerMemberState, ConsumerProtocolEvent, GroupProtocol};
use rebalance_engine::coordinator::CoordinatorConfig;
use rebalance_engine::network::{Endpoint, Payload};
use rebalance_engine::protocol::{
    ConsumerGroupHeartbeatRequest, ConsumerGroupHeartbeatResponse, ErrorCode, OffsetCommitRequest, Request,
    Response, TopicPartition,
};
use rebalance_engine::sim::{NetworkEvent, SimEventKind};
use rebalance_engine::{ClientEvent, Lifecycle, Scenario, SimTime, Simulation, Subscription};

const SCENARIOS: [&str; 7] = [
    "consumer-protocol-three-members-join",
    "consumer-protocol-join-stable-group",
    "consumer-protocol-crash-session-timeout",
    "consumer-protocol-slow-revoke-fenced",
    "consumer-protocol-static-member-restart",
    "consumer-protocol-regex-topics-appear",
    "consumer-protocol-coordinator-failover-during-reconciliation",
];

fn run(name: &str) -> Simulation {
    run_to_end(&scenario_file(&format!("scenarios/{name}.json")))
}

fn run_json(json: &str) -> Simulation {
    let scenario = Scenario::from_json(json).unwrap_or_else(|e| panic!("{e}"));
    run_to_end(&scenario)
}

/// Every ConsumerGroupHeartbeat request `who` sent, with when.
fn heartbeats(sim: &Simulation, who: &str) -> Vec<(SimTime, ConsumerGroupHeartbeatRequest)> {
    sent(sim)
        .filter_map(|(at, from, p)| match p {
            Payload::Request(Request::ConsumerGroupHeartbeat(r)) if from == who => Some((at, (**r).clone())),
            _ => None,
        })
        .collect()
}

/// Every ConsumerGroupHeartbeat response sent to `who`, with when it was sent.
fn heartbeat_responses(sim: &Simulation, who: &str) -> Vec<(SimTime, ConsumerGroupHeartbeatResponse)> {
    sim.log()
        .iter()
        .filter_map(|e| match &e.kind {
            SimEventKind::Network {
                event: NetworkEvent::Sent { message },
            } => match (&message.to, &message.payload) {
                (Endpoint::Consumer(c), Payload::Response(Response::ConsumerGroupHeartbeat(r)))
                    if c == who =>
                {
                    Some((e.at, r.clone()))
                }
                _ => None,
            },
            _ => None,
        })
        .collect()
}

fn commits(sim: &Simulation, who: &str) -> Vec<(SimTime, OffsetCommitRequest)> {
    sent(sim)
        .filter_map(|(at, from, p)| match p {
            Payload::Request(Request::OffsetCommit(r)) if from == who => Some((at, r.clone())),
            _ => None,
        })
        .collect()
}

/// Messages sent by consumers: (when, consumer, payload).
fn sent(sim: &Simulation) -> impl Iterator<Item = (SimTime, String, &Payload)> {
    sim.log().iter().filter_map(|e| match &e.kind {
        SimEventKind::Network {
            event: NetworkEvent::Sent { message },
        } => match &message.from {
            Endpoint::Consumer(c) => Some((e.at, c.clone(), &message.payload)),
            _ => None,
        },
        _ => None,
    })
}

/// `who`'s member state transitions, in order.
fn transitions(sim: &Simulation, who: &str) -> Vec<(SimTime, i32, ConsumerMemberState, ConsumerMemberState)> {
    client_events(sim, who)
        .filter_map(|(e, ev)| match ev {
            ClientEvent::ConsumerProtocol(ConsumerProtocolEvent::StateChanged {
                member_epoch,
                from,
                to,
                ..
            }) => Some((e.at, *member_epoch, *from, *to)),
            _ => None,
        })
        .collect()
}

fn first_time(sim: &Simulation, who: &str, f: impl Fn(&ClientEvent) -> bool) -> Option<SimTime> {
    client_events(sim, who).find(|(_, e)| f(e)).map(|(e, _)| e.at)
}

fn coordinator_line_at(sim: &Simulation, needle: &str) -> Option<SimTime> {
    sim.log()
        .iter()
        .find(|e| matches!(e.kind, SimEventKind::Coordinator { .. }) && e.line().contains(needle))
        .map(|e| e.at)
}

fn set(ps: &[TopicPartition]) -> Set<TopicPartition> {
    ps.iter().cloned().collect()
}

// ================================================================================ the goldens

#[test]
fn every_consumer_protocol_scenario_matches_its_golden() {
    for name in SCENARIOS {
        let sim = run(name);
        common::golden::check_golden("golden_scenarios", name, &sim.trace_text(false));
    }
}

// ================================================================ §11: states and transitions

/// Every transition is one Kafka's `MemberState` allows, and each starts where the last ended.
#[test]
fn member_states_follow_kafkas_transition_table() {
    for name in SCENARIOS {
        let sim = run(name);
        for who in sim.consumer_names() {
            let mut at = None;
            for (t, _, from, to) in transitions(&sim, &who) {
                assert!(to.can_come_from(from), "{name}: {who} {from} -> {to} at {t}");
                if let Some(prev) = at {
                    // A restarted consumer starts again from UNSUBSCRIBED.
                    assert!(
                        prev == from || from == ConsumerMemberState::Unsubscribed,
                        "{name}: {who} was {prev}, left {from}"
                    );
                }
                at = Some(to);
            }
        }
    }
}

/// §11: JOINING until an epoch > 0 arrives; the assignment is reconciled (RECONCILING), the
/// acknowledgement goes out at once (ACKNOWLEDGING), then STABLE.
#[test]
fn a_joining_member_reconciles_acknowledges_and_is_stable() {
    let sim = run("consumer-protocol-three-members-join");
    use ConsumerMemberState::*;
    let states: Vec<(ConsumerMemberState, ConsumerMemberState)> = transitions(&sim, "A")
        .iter()
        .take(4)
        .map(|t| (t.2, t.3))
        .collect();
    assert_eq!(
        states,
        vec![
            (Unsubscribed, Joining),
            (Joining, Reconciling),
            (Reconciling, Acknowledging),
            (Acknowledging, Stable)
        ]
    );
    // JOINING has epoch 0, RECONCILING the epoch the coordinator returned (> 0).
    let t = transitions(&sim, "A");
    assert_eq!(t[0].1, 0);
    assert!(t[1].1 > 0);
    // The acknowledgement is sent in the same instant the reconciliation completes.
    let done = first_time(&sim, "A", |e| {
        matches!(
            e,
            ClientEvent::ConsumerProtocol(ConsumerProtocolEvent::ReconciliationCompleted { .. })
        )
    })
    .unwrap();
    assert!(heartbeats(&sim, "A")
        .iter()
        .any(|(at, r)| *at == done && r.topic_partitions.is_some()));
}

/// §4.1 and §11: the join heartbeat carries every field (epoch 0, the rebalance timeout =
/// `max.poll.interval.ms`, the topics, an empty `TopicPartitions`); later heartbeats carry only
/// what changed: `TopicPartitions` once after each reconciliation, nothing else.
#[test]
fn join_heartbeat_is_full_and_later_ones_partial() {
    let sim = run("consumer-protocol-three-members-join");
    let hbs = heartbeats(&sim, "B");
    let join = &hbs[0].1;
    assert_eq!(join.member_epoch, 0);
    assert!(join.is_full(), "{join:?}");
    assert_eq!(join.rebalance_timeout_ms, 300_000);
    assert_eq!(join.subscribed_topic_names, Some(vec!["orders".to_string()]));
    assert_eq!(join.topic_partitions, Some(vec![]));
    assert!(
        !join.member_id.is_empty(),
        "v1: the client generates its member id"
    );
    for (_, r) in &hbs[1..] {
        assert_eq!(
            r.member_id, join.member_id,
            "the member id is kept for the process's lifetime"
        );
        assert_eq!(r.rebalance_timeout_ms, -1);
        assert_eq!(r.subscribed_topic_names, None);
        assert!(!r.is_full());
    }
    // TopicPartitions only after a reconciliation changed what it owns.
    let with_owned = hbs[1..]
        .iter()
        .filter(|(_, r)| r.topic_partitions.is_some())
        .count();
    let reconciliations = client_events(&sim, "B")
        .filter(|(_, e)| {
            matches!(
                e,
                ClientEvent::ConsumerProtocol(ConsumerProtocolEvent::ReconciliationCompleted { .. })
            )
        })
        .count();
    assert_eq!(with_owned, reconciliations);
}

/// §4.2: the interval is the coordinator's `HeartbeatIntervalMs` (5000 by default), counted from
/// each send.
#[test]
fn heartbeats_follow_the_interval_the_coordinator_returns() {
    let sim = run("consumer-protocol-three-members-join");
    let interval = CoordinatorConfig::default().group_consumer_heartbeat_interval_ms;
    assert!(heartbeat_responses(&sim, "C")
        .iter()
        .all(|(_, r)| r.heartbeat_interval_ms == interval));
    let hbs = heartbeats(&sim, "C");
    let last_ack = hbs
        .iter()
        .rposition(|(_, r)| r.topic_partitions.is_some())
        .unwrap();
    let steady: Vec<SimTime> = hbs[last_ack..].iter().map(|(at, _)| *at).collect();
    assert!(steady.len() >= 3);
    for w in steady.windows(2) {
        assert_eq!(w[1].as_millis() - w[0].as_millis(), interval as u64);
    }
}

// ========================================================== §3.2, §8.1: revoke before assign

/// A partition moves only after its old owner revoked it and said so; the newcomer takes it on a
/// later heartbeat. Members keep consuming what they keep.
#[test]
fn revoke_before_assign_and_only_moved_partitions_pause() {
    let sim = run("consumer-protocol-join-stable-group");
    let d_assigned: Vec<(SimTime, Vec<TopicPartition>)> = client_events(&sim, "D")
        .filter_map(|(e, ev)| match ev {
            ClientEvent::PartitionsAssigned { partitions } if !partitions.is_empty() => {
                Some((e.at, partitions.clone()))
            }
            _ => None,
        })
        .collect();
    let moved: Set<TopicPartition> = d_assigned.iter().flat_map(|(_, ps)| ps.iter().cloned()).collect();
    assert_eq!(moved.len(), 2, "8 partitions over 4 members: D gets 2");
    for who in ["A", "B", "C"] {
        // After D started (before, A and B handed partitions to B and C as they joined).
        let revoked: Vec<(SimTime, Vec<TopicPartition>)> = client_events(&sim, who)
            .filter_map(|(e, ev)| match ev {
                ClientEvent::PartitionsRevoked { partitions } if e.at >= SimTime(20_000) => {
                    Some((e.at, partitions.clone()))
                }
                _ => None,
            })
            .collect();
        for (at, ps) in &revoked {
            // Only what moved to D is revoked, and before D gets it.
            for p in ps {
                assert!(moved.contains(p), "{who} revoked {p}, which did not move");
                let d_at = d_assigned.iter().find(|(_, d)| d.contains(p)).unwrap().0;
                assert!(*at < d_at, "{who} revoked {p} at {at}, D got it at {d_at}");
                // ... and acknowledged (a heartbeat without it) before D got it.
                let acked = heartbeats(&sim, who).into_iter().any(|(t, r)| {
                    t >= *at
                        && t < d_at
                        && r.topic_partitions.as_ref().is_some_and(|tps| {
                            !tps.iter()
                                .any(|x| x.topic_id.0 == p.topic && x.partitions.contains(&p.partition))
                        })
                });
                assert!(acked, "{who} never acknowledged giving up {p} before D got it");
            }
        }
        assert!(revoked.len() <= 1, "{who} revoked {revoked:?}");
    }
    assert_eq!(sim.duplicates().values().sum::<u64>(), 0);
    let group = sim.consumer_group().unwrap();
    assert_eq!(group.group_epoch, 4, "four joins, four bumps (§8.1)");
    assert_eq!(group.assignment_epoch, 4);
    assert!(group
        .members
        .iter()
        .all(|m| m.member_epoch == 4 && m.assigned.len() == 2));
}

/// The callbacks run on the application thread, inside `poll()`: a reconciliation that starts
/// while a batch is processed revokes when the batch is done.
#[test]
fn callbacks_wait_for_the_applications_next_poll() {
    let sim = run("consumer-protocol-slow-revoke-fenced");
    let started = first_time(&sim, "A", |e| {
        matches!(e, ClientEvent::ConsumerProtocol(ConsumerProtocolEvent::ReconciliationStarted { revoking, .. }) if !revoking.is_empty())
    })
    .unwrap();
    let sim = run("consumer-protocol-coordinator-failover-during-reconciliation");
    let started2 = first_time(&sim, "A", |e| {
        matches!(e, ClientEvent::ConsumerProtocol(ConsumerProtocolEvent::ReconciliationStarted { revoking, .. }) if !revoking.is_empty())
    })
    .unwrap();
    assert_eq!(started, started2, "both scenarios run the same until the fault");
    let revoked = first_time(&sim, "A", |e| matches!(e, ClientEvent::PartitionsRevoked { .. })).unwrap();
    let batch_done = client_events(&sim, "A")
        .filter(|(e, ev)| e.at > started && matches!(ev, ClientEvent::BatchProcessed { .. }))
        .map(|(e, _)| e.at)
        .next()
        .unwrap();
    assert!(revoked > started);
    assert_eq!(revoked, batch_done);
}

// =================================================================== §4.4, §6, §8.3: fencing

/// §6: a member stuck in UNREVOKED_PARTITIONS is fenced when its rebalance timeout
/// (`max.poll.interval.ms`) runs out, before the 45 s session timeout; the client, once it runs
/// again, leaves (its poll timer expired too), loses its partitions and rejoins with epoch 0 and
/// the same member id.
#[test]
fn slow_revoker_is_fenced_at_its_rebalance_timeout_and_rejoins() {
    let sim = run("consumer-protocol-slow-revoke-fenced");
    let unrevoked = coordinator_line_at(&sim, "UNREVOKED_PARTITIONS at epoch 1").unwrap();
    let fenced = coordinator_line_at(&sim, "failed to transition from epoch 1 within 20000ms").unwrap();
    assert_eq!(fenced.as_millis() - unrevoked.as_millis(), 20_000);
    assert!(fenced.as_millis() - unrevoked.as_millis() < 45_000);
    let a = heartbeats(&sim, "A");
    let leave = a
        .iter()
        .position(|(_, r)| r.member_epoch == -1)
        .expect("A leaves with -1");
    let rejoin = &a[leave + 1].1;
    assert_eq!(rejoin.member_epoch, 0);
    assert!(rejoin.is_full());
    assert_eq!(rejoin.member_id, a[0].1.member_id);
    let lost = first_time(&sim, "A", |e| matches!(e, ClientEvent::PartitionsLost { .. })).unwrap();
    assert!(lost.as_millis() >= fenced.as_millis());
    assert!(transitions(&sim, "A")
        .iter()
        .any(|t| t.2 == ConsumerMemberState::Stale && t.3 == ConsumerMemberState::Joining));
}

/// §8.3: a killed member is fenced `group.consumer.session.timeout.ms` after its last heartbeat;
/// its partitions stay unreleased until then, and the survivor takes them on its next heartbeat.
#[test]
fn crashed_member_is_fenced_after_the_session_timeout() {
    let sim = run("consumer-protocol-crash-session-timeout");
    let session = CoordinatorConfig::default().group_consumer_session_timeout_ms;
    let last_b = heartbeat_responses(&sim, "B").last().unwrap().0;
    let fenced =
        coordinator_line_at(&sim, "fenced from the group because the member session expired").unwrap();
    assert_eq!(fenced.as_millis() - last_b.as_millis(), session);
    let a_took = client_events(&sim, "A")
        .filter(|(e, ev)| {
            e.at > fenced
                && matches!(ev, ClientEvent::PartitionsAssigned { partitions } if !partitions.is_empty())
        })
        .map(|(e, _)| e.at)
        .next()
        .unwrap();
    assert!(a_took > fenced);
    assert_eq!(sim.owners()["A"].len(), 4);
    assert_eq!(*sim.consumer("B").unwrap().lifecycle(), Lifecycle::Killed);
}

// ================================================================== §5.1, §8.6: leave epochs

/// A dynamic member's close leaves with epoch -1 and the coordinator fences it at once (bump);
/// the survivor gets its partitions without waiting for a session timeout.
#[test]
fn dynamic_close_leaves_with_epoch_minus_1() {
    let sim = run_json(
        r#"{"version":1,"seed":1,"end_ms":30000,"group_id":"g",
            "topics":[{"name":"t","partitions":4,"records_per_sec":4}],
            "client_defaults":{"group_protocol":"consumer","subscription":{"topics":["t"]}},
            "consumers":[{"name":"A"},{"name":"B","start_ms":500}],
            "actions":[{"type":"close","at_ms":15000,"consumer":"B"}]}"#,
    );
    let leave = heartbeats(&sim, "B").last().unwrap().clone();
    assert_eq!(leave.1.member_epoch, -1);
    assert_eq!(leave.0, SimTime(15_000));
    let revoked = first_time(&sim, "B", |e| matches!(e, ClientEvent::PartitionsRevoked { .. })).unwrap();
    assert_eq!(
        revoked,
        SimTime(15_000),
        "close revokes what it owns before leaving"
    );
    let left = coordinator_line_at(&sim, "left the consumer group").unwrap();
    assert!(left.as_millis() - 15_000 < 100);
    assert_eq!(sim.owners()["A"].len(), 4);
    assert_eq!(sim.consumer_group().unwrap().members.len(), 1);
}

/// §8.6: a static member's close leaves with -2; the coordinator keeps its partitions and its
/// epoch; the restarted instance (new member id, same instance id) gets them back at once.
#[test]
fn static_close_leaves_with_epoch_minus_2_and_the_restart_takes_over() {
    let sim = run("consumer-protocol-static-member-restart");
    let a = heartbeats(&sim, "A");
    let leave = a.iter().find(|(_, r)| r.member_epoch < 0).unwrap();
    assert_eq!(leave.1.member_epoch, -2);
    assert_eq!(leave.1.instance_id.as_deref(), Some("a-1"));
    let rejoin = a
        .iter()
        .find(|(at, r)| *at > leave.0 && r.member_epoch == 0)
        .unwrap();
    assert_ne!(
        rejoin.1.member_id, leave.1.member_id,
        "a new process, a new member id"
    );
    // No rebalance: B never revokes or gains anything after its first assignment, and the group
    // epoch stays at 2 (two joins).
    assert_eq!(sim.consumer_group().unwrap().group_epoch, 2);
    let b_changes = client_events(&sim, "B")
        .filter(|(_, e)| {
            matches!(
                e,
                ClientEvent::PartitionsRevoked { .. } | ClientEvent::PartitionsLost { .. }
            )
        })
        .count();
    assert_eq!(b_changes, 0);
    // What A released on close (its last revocation before the leave).
    let old: Set<TopicPartition> = client_events(&sim, "A")
        .filter_map(|(ev, e)| match e {
            ClientEvent::PartitionsRevoked { partitions } if ev.at == leave.0 => Some(set(partitions)),
            _ => None,
        })
        .next()
        .unwrap();
    let first_response = heartbeat_responses(&sim, "A")
        .into_iter()
        .find(|(at, _)| *at > rejoin.0)
        .unwrap()
        .1;
    assert_eq!(first_response.member_epoch, 2);
    let got: Set<TopicPartition> = first_response
        .assignment
        .unwrap()
        .topic_partitions
        .iter()
        .flat_map(|t| {
            t.partitions
                .iter()
                .map(|p| TopicPartition::new(t.topic_id.0.clone(), *p))
        })
        .collect();
    assert_eq!(got, old);
}

/// §8.6: a static member that crashed (no -2) and restarts within its session is refused with
/// UNRELEASED_INSTANCE_ID, which Kafka's client treats as fatal.
#[test]
fn unreleased_instance_id_is_fatal() {
    let sim = run_json(
        r#"{"version":1,"seed":1,"end_ms":20000,"group_id":"g",
            "topics":[{"name":"t","partitions":2}],
            "client_defaults":{"group_protocol":"consumer","subscription":{"topics":["t"]}},
            "consumers":[{"name":"A","group_instance_id":"a-1"}],
            "actions":[{"type":"kill","at_ms":5000,"consumer":"A"},{"type":"restart","at_ms":6000,"consumer":"A"}]}"#,
    );
    let Lifecycle::Failed { reason } = sim.consumer("A").unwrap().lifecycle() else {
        panic!("A should have failed")
    };
    assert!(reason.contains("UNRELEASED_INSTANCE_ID"), "{reason}");
    assert_eq!(
        sim.consumer("A").unwrap().consumer_member_state(),
        Some(ConsumerMemberState::Fatal)
    );
}

/// §4.3: an unknown `group.remote.assignor` is refused by the coordinator (UNSUPPORTED_ASSIGNOR),
/// fatal for the client.
#[test]
fn unknown_server_assignor_is_fatal() {
    let sim = run_json(
        r#"{"version":1,"seed":1,"end_ms":5000,"group_id":"g",
            "topics":[{"name":"t","partitions":2}],
            "client_defaults":{"group_protocol":"consumer","subscription":{"topics":["t"]}},
            "consumers":[{"name":"A","server_assignor":"sticky"}]}"#,
    );
    let Lifecycle::Failed { reason } = sim.consumer("A").unwrap().lifecycle() else {
        panic!("A should have failed")
    };
    assert!(reason.contains("UNSUPPORTED_ASSIGNOR"), "{reason}");
    let join = &heartbeats(&sim, "A")[0].1;
    assert_eq!(join.server_assignor.as_deref(), Some("sticky"));
}

/// §11 STALE: `max.poll.interval.ms` passes while the application is stuck in a batch (polls
/// paused, heartbeats going on): the member leaves with -1, is STALE, and rejoins at its next
/// `poll()` after `onPartitionsLost`.
#[test]
fn poll_timer_expiry_leaves_and_rejoins_at_the_next_poll() {
    let sim = run_json(
        r#"{"version":1,"seed":1,"end_ms":60000,"group_id":"g",
            "topics":[{"name":"t","partitions":2,"records_per_sec":2}],
            "client_defaults":{"group_protocol":"consumer","subscription":{"topics":["t"]},"max_poll_interval_ms":20000},
            "consumers":[{"name":"A"}],
            "actions":[{"type":"pause","at_ms":10500,"consumer":"A","duration_ms":25000,"heartbeats":false,"polls":true}]}"#,
    );
    let expired = first_time(&sim, "A", |e| {
        matches!(
            e,
            ClientEvent::ConsumerProtocol(ConsumerProtocolEvent::PollTimerExpired { leave_epoch: -1, .. })
        )
    })
    .unwrap();
    let hbs = heartbeats(&sim, "A");
    assert!(hbs.iter().any(|(at, r)| *at == expired && r.member_epoch == -1));
    let rejoin = hbs
        .iter()
        .find(|(at, r)| *at > expired && r.member_epoch == 0)
        .unwrap()
        .0;
    assert!(
        rejoin >= SimTime(35_500),
        "rejoins at the poll after the pause: {rejoin}"
    );
    let lost = first_time(&sim, "A", |e| matches!(e, ClientEvent::PartitionsLost { .. })).unwrap();
    assert!(lost > expired && lost <= rejoin);
    assert_eq!(sim.owners()["A"].len(), 2, "back with everything");
}

// ============================================================================ §9: commits

/// OffsetCommit carries the member epoch the member has at the time (v9+).
#[test]
fn offset_commits_carry_the_member_epoch() {
    for name in [
        "consumer-protocol-three-members-join",
        "consumer-protocol-join-stable-group",
    ] {
        let sim = run(name);
        for who in sim.consumer_names() {
            let responses = heartbeat_responses(&sim, &who);
            for (at, c) in commits(&sim, &who) {
                assert!(c.api_version >= 9);
                let epoch = responses
                    .iter()
                    .rfind(|(t, r)| *t < at && r.error_code == ErrorCode::None)
                    .map(|(_, r)| r.member_epoch)
                    .unwrap();
                assert_eq!(c.generation_id, epoch, "{name}: {who} at {at}");
            }
        }
        // And the coordinator accepted them all (STALE_MEMBER_EPOCH would say otherwise).
        assert!(
            !sim.log().iter().any(|e| e.line().contains("STALE_MEMBER_EPOCH")),
            "{name}"
        );
    }
}

// ========================================================================= §8.4–§8.5: regex

/// A regex subscription is sent as `SubscribedTopicRegex`, resolved by the coordinator; new
/// matching topics and new partitions reach the target at the next heartbeat after the change.
#[test]
fn regex_subscription_follows_the_metadata() {
    let sim = run("consumer-protocol-regex-topics-appear");
    let join = &heartbeats(&sim, "A")[0].1;
    assert_eq!(join.subscribed_topic_regex.as_deref(), Some("orders-.*"));
    assert_eq!(join.subscribed_topic_names, None);
    let bumps: Vec<SimTime> = sim
        .log()
        .iter()
        .filter(|e| e.line().contains("bumped group epoch"))
        .map(|e| e.at)
        .collect();
    assert_eq!(
        bumps.len(),
        4,
        "two joins, a new topic, new partitions: {bumps:?}"
    );
    assert!(bumps[2] > SimTime(15_000) && bumps[2].as_millis() < 15_000 + 5_000 + 100);
    assert!(bumps[3] > SimTime(35_000) && bumps[3].as_millis() < 35_000 + 5_000 + 100);
    let owned: Set<TopicPartition> = sim.owners().into_values().flatten().collect();
    assert_eq!(owned.len(), 6, "orders-eu 0..3 and orders-us 0..1");
    assert!(sim
        .consumer_group()
        .unwrap()
        .members
        .iter()
        .all(|m| m.assigned.len() == 3));
}

// ====================================================================== §8.7: failover

#[test]
fn failover_during_reconciliation_completes_after_reload() {
    let sim = run("consumer-protocol-coordinator-failover-during-reconciliation");
    let reloaded = coordinator_line_at(&sim, "loaded consumer group with 2 member(s)").unwrap();
    assert!(reloaded > SimTime(14_500));
    let g = sim.consumer_group().unwrap();
    assert_eq!(g.group_epoch, 2, "a failover bumps nothing");
    assert!(g
        .members
        .iter()
        .all(|m| m.member_epoch == 2 && m.assigned.len() == 2));
    let owners = sim.owners();
    assert_eq!(owners["A"].len() + owners["B"].len(), 4);
    assert!(set(&owners["A"]).is_disjoint(&set(&owners["B"])));
}

// ===================================================================== settings (validation)

fn problems(json: &str) -> String {
    Scenario::from_json(json)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default()
}

/// Kafka's client throws `ConfigException` for classic-only settings under
/// `group.protocol=consumer`, and for `group.remote.assignor` under classic.
#[test]
fn protocol_settings_are_checked_as_kafkas_client_does() {
    let e = problems(
        r#"{"version":1,"end_ms":1000,"topics":[{"name":"t","partitions":1}],
            "consumers":[{"name":"A","group_protocol":"consumer","subscription":{"topics":["t"]},"assignors":["range"]}]}"#,
    );
    assert!(e.contains("consumers[0].assignors"), "{e}");
    assert!(
        e.contains("partition.assignment.strategy cannot be set when group.protocol=CONSUMER"),
        "{e}"
    );
    let e = problems(
        r#"{"version":1,"end_ms":1000,"topics":[{"name":"t","partitions":1}],
            "client_defaults":{"session_timeout_ms":10000},
            "consumers":[{"name":"A","group_protocol":"consumer","subscription":{"topics":["t"]}}]}"#,
    );
    assert!(e.contains("client_defaults.session_timeout_ms"), "{e}");
    assert!(
        e.contains("session.timeout.ms cannot be set when group.protocol=CONSUMER"),
        "{e}"
    );
    let e = problems(
        r#"{"version":1,"end_ms":1000,"topics":[{"name":"t","partitions":1}],
            "consumers":[{"name":"A","subscription":{"topics":["t"]},"server_assignor":"range"}]}"#,
    );
    assert!(
        e.contains("group.remote.assignor cannot be set when group.protocol=CLASSIC"),
        "{e}"
    );
    let long = "x".repeat(10_000);
    let e = problems(&format!(
        r#"{{"version":1,"end_ms":1000,"topics":[{{"name":"t","partitions":1}}],
            "consumers":[{{"name":"A","group_protocol":"consumer","subscription":{{"topics":["t"]}},"server_assignor":"{long}"}}]}}"#
    ));
    assert!(e.contains("server_assignor"), "{e}");
    // The consumer protocol with its own settings only is fine.
    assert_eq!(
        problems(
            r#"{"version":1,"end_ms":1000,"topics":[{"name":"t","partitions":1}],
                "consumers":[{"name":"A","group_protocol":"consumer","subscription":{"topics":["t"]},"server_assignor":"range"}]}"#
        ),
        ""
    );
}

#[test]
fn consumer_config_check_knows_which_settings_apply() {
    use rebalance_engine::client::{ConfigField, ConfigIssue, ConsumerConfig};
    let cc = CoordinatorConfig::default();
    let mut c = ConsumerConfig::new("A", "g", Subscription::Topics(vec!["t".into()]));
    c.group_protocol = GroupProtocol::Consumer;
    // Classic settings that would be wrong do not apply: the coordinator's are used.
    c.heartbeat_interval_ms = 50_000;
    c.assignors.clear();
    assert_eq!(c.check(&cc), vec![]);
    c.group_protocol = GroupProtocol::Classic;
    c.heartbeat_interval_ms = 3_000;
    c.assignors = ConsumerConfig::new("x", "g", Subscription::Topics(vec![])).assignors;
    c.server_assignor = Some("uniform".into());
    assert_eq!(
        c.check(&cc),
        vec![ConfigIssue::ProtocolMismatch {
            field: ConfigField::ServerAssignor,
            protocol: GroupProtocol::Classic
        }]
    );
}

// ========================================================================== the views

/// What a UI draws for a member that must revoke: the client is RECONCILING with the partitions it
/// is revoking, the coordinator holds it in UNREVOKED_PARTITIONS with a revocation deadline of its
/// rebalance timeout, and the newcomer's target waits for them.
#[test]
fn views_show_a_revocation_in_progress_on_both_sides() {
    use rebalance_engine::client::ClientState;
    use rebalance_engine::coordinator::consumer::MemberState;
    let mut sim = Simulation::new(&scenario_file(
        "scenarios/consumer-protocol-slow-revoke-fenced.json",
    ))
    .unwrap();
    sim.run_until(SimTime(15_000));
    let a = sim.consumers().into_iter().find(|c| c.name == "A").unwrap();
    let cp = a.consumer_protocol.clone().expect("a consumer-protocol member");
    assert_eq!(cp.state, ConsumerMemberState::Reconciling);
    assert_eq!(cp.member_epoch, 1);
    assert_eq!(
        cp.assigned.len(),
        4,
        "still owned until onPartitionsRevoked returns"
    );
    assert_eq!(cp.pending_revocation.len(), 2);
    assert_eq!(cp.target.as_ref().map(Vec::len), Some(2));
    assert_eq!(cp.heartbeat_interval_ms, 5_000);
    assert_eq!(a.client_state, ClientState::Revoking);
    assert_eq!(a.generation, 1, "the classic field carries the member epoch");
    assert!(
        a.session_deadline.is_some(),
        "the coordinator's session deadline for it"
    );
    let g = sim.consumer_group().unwrap();
    assert_eq!((g.group_epoch, g.assignment_epoch), (2, 2));
    let on_coordinator = g.members.iter().find(|m| m.member_id == a.member_id).unwrap();
    assert_eq!(on_coordinator.state, MemberState::UnrevokedPartitions);
    assert_eq!(
        set(&on_coordinator.pending_revocation),
        set(&cp.pending_revocation)
    );
    let unrevoked = coordinator_line_at(&sim, "UNREVOKED_PARTITIONS at epoch 1").unwrap();
    assert_eq!(
        on_coordinator.rebalance_deadline,
        Some(SimTime(unrevoked.as_millis() + 20_000))
    );
    let b = g.members.iter().find(|m| m.member_id != a.member_id).unwrap();
    assert_eq!(b.state, MemberState::UnreleasedPartitions);
    assert!(b.assigned.is_empty());
    assert_eq!(set(&b.target), set(&cp.pending_revocation));
    // A classic consumer has no consumer-protocol part.
    let classic = run("a-then-b-joins");
    assert!(classic.consumers().iter().all(|c| c.consumer_protocol.is_none()));
    assert!(classic.consumer_group().is_none());
}
