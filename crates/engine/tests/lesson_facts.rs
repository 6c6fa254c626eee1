//! The key Kafka facts of each lesson preset, asserted directly on the simulation (the golden
//! traces in lesson_presets.rs pin everything else).

mod common;

use common::sim::{client_events, coordinator_events, revocations, run_to_end, scenario_file, tps};
use rebalance_engine::event::{EventKind, RemovalReason};
use rebalance_engine::protocol::{GroupState, TopicPartition};
use rebalance_engine::scenario::ActionSpec;
use rebalance_engine::sim::{SimEventKind, WorldEvent};
use rebalance_engine::{ClientEvent, ErrorCode, Scenario, SimEvent, Simulation};

fn scenario(name: &str) -> Scenario {
    scenario_file(&format!("lessons/{name}.json"))
}

fn run(name: &str) -> Simulation {
    run_to_end(&scenario(name))
}

/// The first member removal for `reason`.
fn first_removal(sim: &Simulation, reason: RemovalReason) -> &SimEvent {
    coordinator_events(sim)
        .find(|(_, k)| matches!(k, EventKind::MemberRemoved { reason: r, .. } if *r == reason))
        .expect("a member was removed")
        .0
}

fn generations(sim: &Simulation) -> Vec<(u64, i32)> {
    coordinator_events(sim)
        .filter_map(|(e, k)| match k {
            EventKind::GenerationChanged { to, .. } => Some((e.at.as_millis(), *to)),
            _ => None,
        })
        .collect()
}

#[test]
fn l01_first_consumer() {
    let sim = run("01-first-consumer");
    // MEMBER_ID_REQUIRED first, then the second JoinGroup adds A, who leads.
    let first = client_events(&sim, "A")
        .find_map(|(_, e)| match e {
            ClientEvent::MemberIdAssigned { member_id } => Some(member_id.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(first, "A-1");
    assert_eq!(sim.coordinator().partition_for("test_group_1"), 30);
    // The initial delay (3 s) is extended once by B's arrival: generation 1 at ~6 s, one rebalance.
    assert_eq!(generations(&sim), vec![(6025, 1)]);
    let snap = sim.group_snapshot().unwrap();
    assert_eq!(snap.leader.as_deref(), Some("A-1"));
    assert_eq!(snap.state, GroupState::Stable);
}

#[test]
fn l02_heartbeats_answer_rebalance_in_progress_and_everyone_rejoins() {
    let sim = run("02-join-stable-group");
    for who in ["A", "B"] {
        assert!(client_events(&sim, who).any(|(_, e)| matches!(
            e,
            ClientEvent::ErrorReceived {
                api: rebalance_engine::protocol::Api::Heartbeat,
                error: ErrorCode::RebalanceInProgress,
                ..
            }
        )));
        assert!(client_events(&sim, who)
            .any(|(_, e)| matches!(e, ClientEvent::JoinedGroup { generation_id: 2, .. })));
    }
    assert_eq!(sim.owners()["C"], tps("round_topic", &[2]));
}

#[test]
fn l03_leave_group_rebalances_at_once() {
    let sim = run("03-graceful-leave");
    let left = first_removal(&sim, RemovalReason::LeaveGroup);
    assert!(left.at.as_millis() - 30_000 < 50);
    assert_eq!(sim.owners()["A"], tps("round_topic", &[0, 1]));
    assert_eq!(sim.owners()["B"], tps("round_topic", &[2]));
    assert_eq!(sim.duplicates().values().sum::<u64>(), 0);
}

#[test]
fn l04_crash_found_after_session_timeout() {
    let sim = run("04-crash");
    let removed = first_removal(&sim, RemovalReason::SessionExpired);
    let after = removed.at.as_millis() - 30_000;
    assert!((7_000..=10_000).contains(&after), "{after}");
    assert_eq!(sim.owners()["A"], tps("round_topic", &[0, 1, 2]));
}

#[test]
fn l05_poll_timeout_leaves_and_rejoins_as_new_member() {
    let sim = run("05-slow-consumer");
    let (t, _) = client_events(&sim, "B")
        .find(|(_, e)| {
            matches!(
                e,
                ClientEvent::PollTimeout {
                    sends_leave_group: true,
                    ..
                }
            )
        })
        .unwrap();
    assert!((38_000..38_100).contains(&t.at.as_millis()));
    // Heartbeats never stopped: B was removed by its LeaveGroup, not by a session expiry.
    assert!(!coordinator_events(&sim).any(|(_, k)| matches!(
        k,
        EventKind::MemberRemoved {
            reason: RemovalReason::SessionExpired,
            ..
        }
    )));
    assert_eq!(sim.consumer("B").unwrap().member_id(), "B-3");
    assert_eq!(sim.group_snapshot().unwrap().generation_id, 3);
}

fn last_join_before(sim: &Simulation, generation: i32) -> String {
    let at = generations(sim)
        .into_iter()
        .find(|(_, g)| *g == generation)
        .unwrap()
        .0;
    coordinator_events(sim)
        .filter(|(e, _)| e.at.as_millis() <= at)
        .filter_map(|(_, k)| match k {
            EventKind::MemberAdded { member_id, .. } | EventKind::MemberUpdated { member_id, .. } => {
                Some(member_id.clone())
            }
            _ => None,
        })
        .last()
        .unwrap()
}

#[test]
fn l06_a_owns_0_1_and_b_owns_2_and_who_waits() {
    let sim = run("06-a-b-story");
    assert_eq!(sim.owners()["A"], tps("round_topic", &[0, 1]));
    assert_eq!(sim.owners()["B"], tps("round_topic", &[2]));
    // B joins at 30 s but waits for A's batch (A rejoins last); with both busy, A waits for B.
    assert_eq!(last_join_before(&sim, 2), "A-1");
    assert_eq!(last_join_before(&sim, 3), "B-2");
    assert_eq!(last_join_before(&sim, 4), "B-2");
    let g = generations(&sim);
    assert!(g[1].0 > 33_000 && g[1].0 < 34_000, "{g:?}");
}

#[test]
fn l07_duplicates_only_without_commit_in_revoke() {
    let sim = run("07-commit-in-revoke");
    let d = sim.duplicates();
    // C took B's partition (no commit in revoke): duplicates. B took A's (commit in revoke): none.
    assert!(d["C"] > 0, "{d:?}");
    assert_eq!(d["B"], 0);
    assert_eq!(d["A"], 0);
    // With every listener committing, nobody processes a duplicate.
    let mut s = scenario("07-commit-in-revoke");
    for c in &mut s.consumers {
        c.commit_in_revoke = Some(true);
    }
    for a in &mut s.actions {
        if let ActionSpec::AddConsumer { consumer, .. } = a {
            consumer.commit_in_revoke = Some(true);
        }
    }
    assert_eq!(run_to_end(&s).duplicates().values().sum::<u64>(), 0);
}

#[test]
fn l08_zombie_commit_is_rejected_and_changes_nothing() {
    let scenario = scenario("08-zombie-commit");
    let mut sim = Simulation::new(&scenario).unwrap();
    // Committed offsets of Z's partitions just before its delayed commit is sent...
    sim.run_until(rebalance_engine::SimTime(21_039));
    let before = sim.committed_offsets();
    sim.run_to_end();
    let rejected: Vec<&SimEvent> = sim
        .log()
        .iter()
        .filter(|e| match &e.kind {
            SimEventKind::Client {
                consumer,
                event: ClientEvent::CommitCompleted { error, .. },
            } => consumer == "Z" && *error == ErrorCode::IllegalGeneration,
            _ => false,
        })
        .collect();
    assert!(!rejected.is_empty());
    // ...are unchanged for partition 0 (Z's in generation 2) up to the rejection.
    let mut replay = Simulation::new(&scenario).unwrap();
    replay.run_until(rejected[0].at);
    let tp0 = TopicPartition::new("round_topic", 0);
    assert_eq!(replay.committed_offsets()[&tp0], before[&tp0]);
    // No OffsetsCommitted event ever carried a generation-1 commit after generation 2 began.
    let gen2 = generations(&sim).into_iter().find(|(_, g)| *g == 2).unwrap().0;
    assert!(!coordinator_events(&sim).any(|(e, k)| e.at.as_millis() > gen2
        && e.at.as_millis() < rejected[0].at.as_millis()
        && matches!(k, EventKind::OffsetsCommitted { partitions, .. } if partitions.iter().any(|p| p.partition == 0))));
}

#[test]
fn l09_leader_lost_in_completing_rebalance() {
    let sim = run("09-leader-leaves-completing");
    assert!(coordinator_events(&sim).any(|(_, k)| matches!(
        k,
        EventKind::StateChanged {
            from: GroupState::CompletingRebalance,
            to: GroupState::PreparingRebalance,
            ..
        }
    )));
    let snap = sim.group_snapshot().unwrap();
    assert_eq!(snap.generation_id, 2);
    assert_eq!(snap.leader.as_deref(), Some("B-2"));
    assert_eq!(snap.members.len(), 2, "only the leader was removed");
}

#[test]
fn l10_the_vote_and_the_refused_member() {
    let sim = run("10-assignor-vote");
    assert_eq!(
        sim.group_snapshot().unwrap().protocol_name.as_deref(),
        Some("roundrobin")
    );
    assert!(client_events(&sim, "D").any(|(_, e)| matches!(
        e,
        ClientEvent::ErrorReceived {
            error: ErrorCode::InconsistentGroupProtocol,
            ..
        }
    )));
    assert_eq!(generations(&sim).len(), 1, "D caused no rebalance");
}

#[test]
fn l11_partitions_added_rebalance_by_the_leader() {
    let sim = run("11-partitions-added");
    assert_eq!(sim.owners()["A"], tps("round_topic", &[0, 1, 2]));
    assert_eq!(sim.owners()["B"], tps("round_topic", &[3, 4, 5]));
    assert!(coordinator_events(&sim).any(|(_, k)| matches!(
        k,
        EventKind::StateChanged {
            reason: rebalance_engine::Reason::LeaderRejoined { .. },
            ..
        }
    )));
}

#[test]
fn l12_static_restart_keeps_the_generation() {
    let sim = run("12-static-membership");
    let g = generations(&sim);
    assert_eq!(g.len(), 1, "no rebalance after the restart: {g:?}");
    assert!(g[0].0 < 30_000);
    assert!(coordinator_events(&sim).any(|(_, k)| matches!(k, EventKind::StaticMemberReplaced { .. })));
    assert_eq!(sim.owners()["B"], tps("round_topic", &[2]));
}

#[test]
fn l13_eager_revokes_everything_once_cooperative_twice_and_c1_never_stops() {
    let sim = run("13-eager-vs-cooperative");
    // Act 1 (eager): E2's join is one rebalance (generation 2), and E1 gives up all six first;
    // both leaving empties the group (3). Act 2 (cooperative): C1 alone (4), then C2's join takes
    // two rebalances (5 withholds 3-5, 6 hands them over).
    assert_eq!(
        generations(&sim).iter().map(|g| g.1).collect::<Vec<_>>(),
        vec![1, 2, 3, 4, 5, 6]
    );
    assert_eq!(
        revocations(&sim, "E1").first(),
        Some(&tps("t", &[0, 1, 2, 3, 4, 5]))
    );
    assert_eq!(revocations(&sim, "C1"), vec![tps("t", &[3, 4, 5])]);
    // E1 processes nothing between its revocation and generation 2's assignment; C1 processes
    // partitions 0-2 while both of act 2's rebalances run.
    let processed_in = |who: &str, lo: u64, hi: u64| {
        client_events(&sim, who).any(|(e, ev)| {
            (lo..=hi).contains(&e.at.as_millis())
                && matches!(ev, ClientEvent::BatchProcessed { records, .. } if records.iter().any(|r| r.partition.partition < 3))
        })
    };
    let revoked_at = client_events(&sim, "E1")
        .find(|(_, ev)| matches!(ev, ClientEvent::PartitionsRevoked { .. }))
        .map(|(e, _)| e.at.as_millis())
        .unwrap();
    let assigned_at = client_events(&sim, "E1")
        .filter(|(_, ev)| matches!(ev, ClientEvent::PartitionsAssigned { .. }))
        .map(|(e, _)| e.at.as_millis())
        .nth(1)
        .unwrap();
    assert!(revoked_at < assigned_at);
    assert!(!processed_in("E1", revoked_at + 1, assigned_at));
    let c2_joined = generations(&sim)[4].0;
    let c2_assigned = generations(&sim)[5].0;
    assert!(processed_in("C1", c2_joined, c2_assigned + 100));
    assert_eq!(sim.owners()["C1"], tps("t", &[0, 1, 2]));
    assert_eq!(sim.owners()["C2"], tps("t", &[3, 4, 5]));
}

#[test]
fn l14_empty_group_offsets_expire_then_dead() {
    let sim = run("14-offsets-expire");
    let g = generations(&sim);
    assert_eq!(g.last().unwrap().1, 2, "going Empty bumps the generation");
    let (expired, _) = coordinator_events(&sim)
        .find(|(_, k)| matches!(k, EventKind::OffsetsExpired { .. }))
        .unwrap();
    assert!(expired.at.as_millis() >= 20_005 + 7 * 24 * 3600 * 1000);
    assert!(expired.at.as_millis() <= 20_005 + 7 * 24 * 3600 * 1000 + 600_000);
    assert_eq!(sim.group().group_state, GroupState::Dead);
    assert!(sim.committed_offsets().is_empty());
}

#[test]
fn l15_coordinator_moves_without_a_rebalance() {
    let sim = run("15-coordinator-failover");
    assert!(sim.log().iter().any(|e| matches!(
        &e.kind,
        SimEventKind::Client {
            event: ClientEvent::ErrorReceived {
                error: ErrorCode::NotCoordinator,
                ..
            },
            ..
        }
    )));
    assert!(sim.log().iter().any(|e| matches!(
        &e.kind,
        SimEventKind::World {
            event: WorldEvent::CoordinatorUnloaded { .. }
        }
    )));
    // After broker 0's crash, broker 1 (an ISR replica) is the coordinator both consumers found.
    for who in ["A", "B"] {
        let last = client_events(&sim, who)
            .filter_map(|(_, e)| match e {
                ClientEvent::CoordinatorDiscovered { node } => Some(*node),
                _ => None,
            })
            .last()
            .unwrap();
        assert_eq!(last, rebalance_engine::NodeId(1), "{who}");
    }
    assert_eq!(generations(&sim).len(), 1, "no rebalance");
    assert_eq!(sim.duplicates().values().sum::<u64>(), 0);
}

#[test]
fn l16_the_replayed_storm_is_poll_timeouts_not_session_expiries() {
    let sim = run("16-rebalance-storm");
    let timeouts: Vec<u64> = client_events(&sim, "consumer-orders-app-2")
        .filter(|(_, e)| {
            matches!(
                e,
                ClientEvent::PollTimeout {
                    sends_leave_group: true,
                    ..
                }
            )
        })
        .map(|(t, _)| t.at.as_millis())
        .collect();
    // The log's WARN lines are at 36.045 s and 69.065 s from its start (lines 28 and 51, t0 =
    // 10:00:00.010); the replay's within half a second.
    assert_eq!(timeouts.len(), 2, "{timeouts:?}");
    assert!(
        timeouts[0].abs_diff(36_035) < 500 && timeouts[1].abs_diff(69_055) < 500,
        "{timeouts:?}"
    );
    assert!(!coordinator_events(&sim).any(|(_, k)| matches!(
        k,
        EventKind::MemberRemoved {
            reason: RemovalReason::SessionExpired,
            ..
        }
    )));
    // Generations 1, 2, 3 at the log's 6.0 s, 39.0 s and 72.1 s (lines 15, 42, 61).
    let g: Vec<(u64, i32)> = generations(&sim);
    for (want_ms, want_gen) in [(6_015u64, 1), (39_035, 2), (72_055, 3)] {
        assert!(
            g.iter().any(|(t, n)| *n == want_gen && t.abs_diff(want_ms) < 500),
            "{g:?}"
        );
    }
}

#[test]
fn l17_the_admin_tools_see_the_rebalance_the_coordinator_is_in() {
    use rebalance_engine::console::{self, KafkaVersion};
    use rebalance_engine::{Session, SimTime};
    let describe = |at: u64, extra: &str| {
        let mut session = Session::new(scenario("17-admin-tools")).unwrap();
        session.run_to(SimTime(at));
        let line = format!("kafka-consumer-groups.sh --bootstrap-server localhost:9092 --describe --group orders-app {extra}");
        console::run(
            &mut session,
            &console::split_words(&line).unwrap(),
            KafkaVersion::NEWEST,
        )
    };
    // C joins at 40 s: the group rebalances (the tool warns on stderr, reference §6), then is
    // Stable with three members; after everyone closed (70 s) and C's session expired, Empty.
    let during = describe(41_000, "--state");
    assert!(
        during.stdout.contains("PreparingRebalance") && during.stderr.contains("is rebalancing"),
        "{during:?}"
    );
    let after = describe(60_000, "--state");
    assert!(
        after.stdout.contains("Stable") && after.stdout.trim_end().ends_with('3'),
        "{after:?}"
    );
    let empty = describe(200_000, "");
    assert!(empty.stderr.contains("has no active members"), "{empty:?}");
}

/// `(consumer, error name)` of every ConsumerGroupHeartbeat response the consumers received, as
/// the lesson matchers read them.
fn consumer_heartbeat_errors(sim: &Simulation) -> Vec<(String, String)> {
    use rebalance_engine::lesson::{facts, MemberNames};
    let names = MemberNames::from_log(sim.log());
    sim.log()
        .iter()
        .map(|e| facts(e, &names))
        .filter(|f| f.kind == "response" && f.api.as_deref() == Some("ConsumerGroupHeartbeat"))
        .map(|f| (f.consumers.join(","), f.error.unwrap_or_default()))
        .collect()
}

/// The consumer group's epochs bumped, in order.
fn group_epochs(sim: &Simulation) -> Vec<(u64, i32)> {
    coordinator_events(sim)
        .filter_map(|(e, k)| match k {
            EventKind::ConsumerGroupEpochBumped { epoch, .. } => Some((e.at.as_millis(), *epoch)),
            _ => None,
        })
        .collect()
}

#[test]
fn l18_classic_stops_everyone_the_consumer_protocol_moves_only_what_moves() {
    let sim = run("18-why-the-new-protocol");
    // Act 1 (classic, eager): B1's and C1's joins are one rebalance each, everyone revokes
    // everything, and the group empties at 110 s (generation 4).
    assert_eq!(
        generations(&sim).iter().map(|g| g.1).collect::<Vec<_>>(),
        vec![1, 2, 3, 4]
    );
    assert_eq!(
        revocations(&sim, "A1")[..2],
        [tps("round_topic", &[0, 1, 2]), tps("round_topic", &[0, 1])]
    );
    assert_eq!(revocations(&sim, "B1")[0], tps("round_topic", &[2]));
    for who in ["A1", "B1"] {
        assert!(client_events(&sim, who).any(|(_, e)| matches!(
            e,
            ClientEvent::ErrorReceived {
                error: ErrorCode::RebalanceInProgress,
                ..
            }
        )));
    }
    // Act 2 (consumer protocol): the empty classic group becomes a consumer group; one epoch per
    // join; every heartbeat answered NONE; A2 revokes only the partition that moves each time,
    // B2 nothing, and the end is A2 0, C2 1, B2 2.
    assert!(coordinator_events(&sim).any(|(e, k)| matches!(
        k,
        EventKind::GroupTypeConverted {
            to_consumer: true,
            ..
        }
    ) && e.at.as_millis() > 110_000));
    assert_eq!(
        group_epochs(&sim).iter().map(|g| g.1).collect::<Vec<_>>(),
        vec![1, 2, 3]
    );
    let errors = consumer_heartbeat_errors(&sim);
    assert!(errors.len() > 20, "{errors:?}");
    assert!(errors.iter().all(|(_, e)| e == "NONE"), "{errors:?}");
    assert_eq!(
        revocations(&sim, "A2"),
        vec![tps("round_topic", &[2]), tps("round_topic", &[1])]
    );
    assert!(revocations(&sim, "B2").is_empty());
    let owners = sim.owners();
    assert_eq!(owners["A2"], tps("round_topic", &[0]));
    assert_eq!(owners["B2"], tps("round_topic", &[2]));
    assert_eq!(owners["C2"], tps("round_topic", &[1]));
    // A2 consumed partition 0 while C2 joined (195-202 s).
    assert!(client_events(&sim, "A2").any(|(e, ev)| (195_000..=202_000).contains(&e.at.as_millis())
        && matches!(ev, ClientEvent::BatchProcessed { records, .. } if records.iter().any(|r| r.partition.partition == 0))));
}

#[test]
fn l19_the_slow_revoker_is_fenced_at_its_rebalance_timeout_then_waits_for_b() {
    let sim = run("19-epochs-and-reconciliation");
    let reconciled = |state: rebalance_engine::coordinator::consumer::MemberState| {
        coordinator_events(&sim)
            .find(|(_, k)| matches!(k, EventKind::ConsumerMemberReconciled { state: s, .. } if *s == state))
            .map(|(e, _)| e.at.as_millis())
            .unwrap()
    };
    use rebalance_engine::coordinator::consumer::MemberState as M;
    let unrevoked = reconciled(M::UnrevokedPartitions);
    let fenced = coordinator_events(&sim)
        .find_map(|(e, k)| match k {
            EventKind::ConsumerMemberFenced { reason, .. } => Some((e.at.as_millis(), *reason)),
            _ => None,
        })
        .unwrap();
    assert_eq!(
        fenced.0 - unrevoked,
        20_000,
        "fenced at the 20 s rebalance timeout"
    );
    assert!(matches!(
        fenced.1,
        rebalance_engine::event::ConsumerFenceReason::RebalanceTimeout {
            member_epoch: 1,
            timeout_ms: 20_000
        }
    ));
    assert!(reconciled(M::UnreleasedPartitions) < unrevoked, "B waited first");
    assert_eq!(
        group_epochs(&sim).iter().map(|g| g.1).collect::<Vec<_>>(),
        vec![1, 2, 3, 4]
    );
    let group = sim.consumer_group().unwrap();
    assert_eq!((group.group_epoch, group.assignment_epoch), (4, 4));
    assert_eq!(sim.owners()["A"], tps("orders", &[2, 3]));
    assert_eq!(sim.owners()["B"], tps("orders", &[0, 1]));
    assert!(client_events(&sim, "A").any(|(_, e)| matches!(e, ClientEvent::PartitionsLost { .. })));
}

#[test]
fn l20_a_static_restart_keeps_the_assignment_under_both_protocols() {
    let sim = run("20-static-restart-both-protocols");
    // Act 1: no LeaveGroup from a static member; the restart replaces the member id without a
    // rebalance; the group empties only when both sessions expire.
    let g = generations(&sim);
    assert_eq!(g.iter().map(|g| g.1).collect::<Vec<_>>(), vec![1, 2], "{g:?}");
    assert!(g[1].0 >= 35_000 + 14_000, "{g:?}");
    assert!(coordinator_events(&sim).any(|(_, k)| matches!(k, EventKind::StaticMemberReplaced { .. })));
    assert!(!coordinator_events(&sim).any(|(_, k)| matches!(
        k,
        EventKind::MemberRemoved {
            reason: RemovalReason::LeaveGroup,
            ..
        }
    )));
    // Act 2: a leave with epoch -2 keeps the partitions and the epoch; the replacement gets them.
    assert!(coordinator_events(&sim).any(|(_, k)| matches!(k, EventKind::ConsumerStaticMemberLeft { .. })));
    assert!(
        coordinator_events(&sim).any(|(_, k)| matches!(k, EventKind::ConsumerStaticMemberReplaced { .. }))
    );
    assert_eq!(
        group_epochs(&sim).iter().map(|g| g.1).collect::<Vec<_>>(),
        vec![1, 2]
    );
    assert_eq!(sim.owners()["A2"], tps("orders", &[0, 1]));
    assert_eq!(sim.owners()["B2"], tps("orders", &[2, 3]));
}

#[test]
fn l21_a_live_classic_group_is_upgraded_online_and_its_classic_members_stay_eager() {
    let sim = run("21-online-migration");
    // The conversion keeps the two classic members; the coordinator assigns them afterwards.
    assert!(coordinator_events(&sim).any(|(e, k)| {
        matches!(
            k,
            EventKind::GroupTypeConverted {
                to_consumer: true,
                members: 2,
                ..
            }
        ) && e.at.as_millis() == 20_015
    }));
    // The classic clients still revoke everything when told to rejoin (eager): B twice.
    assert_eq!(revocations(&sim, "A")[0], tps("orders", &[0, 1]));
    assert_eq!(
        revocations(&sim, "B")[..2],
        [tps("orders", &[2, 3]), tps("orders", &[2])]
    );
    // The upgraded members revoke nothing; one epoch per membership change.
    for who in ["C", "A2", "B2"] {
        assert!(revocations(&sim, who).is_empty(), "{who}");
    }
    assert_eq!(
        group_epochs(&sim).iter().map(|g| g.1).collect::<Vec<_>>(),
        vec![2, 3, 4, 5, 6]
    );
    let owners = sim.owners();
    assert_eq!(owners["A2"], tps("orders", &[0]));
    assert_eq!(owners["C"], tps("orders", &[1, 3]));
    assert_eq!(owners["B2"], tps("orders", &[2]));
    assert!(sim.consumer_group().is_some(), "a consumer group at the end");
}
