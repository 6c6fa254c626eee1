//! A fenced member rejoins with epoch 0 and the same member id (KIP-1082: the id is kept for the
//! process lifetime). What the coordinator answers (reference §4.4,
//! `throwIfConsumerGroupMemberEpochIsInvalid`, and KAFKA-19233) and why the client cannot loop on
//! fencing forever:
//!
//! * up to 4.2 epoch 0 is checked like any smaller epoch: a member the coordinator still has (at
//!   an epoch > 0 whose previous epoch is not 0) gets `FENCED_MEMBER_EPOCH` on every rejoin. The
//!   client rejoins at once each time (Kafka skips the backoff), but a refused heartbeat does not
//!   renew the member's session, so the member is fenced when its session expires and the next
//!   rejoin creates it anew: the loop ends within one session timeout;
//! * from 4.3 (KAFKA-19233) a rejoin with epoch 0 is accepted: one fencing, then the member is
//!   back with its own id.
//!
//! A targeted coordinator test, a targeted simulation (an impostor heartbeat makes the real
//! member's epoch stale), and a property test over random fault runs that bounds every fencing
//! streak (consecutive fencing errors without a successful heartbeat) in count (4.3+) and in time
//! (up to 4.2: one session timeout).
#![cfg(not(target_arch = "wasm32"))]

mod common;

use rebalance_engine::collections::Map;

use common::sim::client_events;
use common::*;
use proptest::prelude::*;
use rebalance_engine::client::{ConsumerMemberState, Reaction};
use rebalance_engine::coordinator::event::ConsumerFenceReason;
use rebalance_engine::protocol::*;
use rebalance_engine::sim::{Action, Simulation};
use rebalance_engine::{
    ClientEvent, CoordinatorConfig, EventKind, KafkaRelease, Request, Response, Scenario, SimTime,
};

// ------------------------------------------------------------------ the coordinator's answer

fn harness(version: KafkaRelease) -> Harness {
    let mut h = Harness::with_config(CoordinatorConfig {
        kafka_version: version,
        // 4.3+: every join computes its target at once (no batching), as up to 4.2.
        group_consumer_assignment_interval_ms: 0,
        ..config()
    });
    h.coord.set_topic_metadata(Map::from([("foo".to_string(), 2)]));
    h
}

/// When `member`'s consumer-group session expires.
fn session_deadline(h: &Harness, member: &str) -> SimTime {
    let key = rebalance_engine::TimerKey::ConsumerSession {
        group_id: G.into(),
        member_id: member.into(),
    };
    h.coord.timer(&key).expect("a session timer").0
}

fn beat(h: &mut Harness, req: ConsumerGroupHeartbeatRequest) -> ConsumerGroupHeartbeatResponse {
    let t = h.send(3, Request::ConsumerGroupHeartbeat(Box::new(req)));
    match h.take(t) {
        Some(Response::ConsumerGroupHeartbeat(r)) => r,
        other => panic!("{other:?}"),
    }
}

fn join(member: &str) -> ConsumerGroupHeartbeatRequest {
    ConsumerGroupHeartbeatRequest {
        group_id: G.into(),
        member_id: member.into(),
        member_epoch: 0,
        rebalance_timeout_ms: 30_000,
        subscribed_topic_names: Some(vec!["foo".into()]),
        topic_partitions: Some(vec![]),
        client_id: member.into(),
        ..Default::default()
    }
}

fn owning(member: &str, epoch: i32, partitions: &[i32]) -> ConsumerGroupHeartbeatRequest {
    ConsumerGroupHeartbeatRequest {
        member_epoch: epoch,
        rebalance_timeout_ms: -1,
        subscribed_topic_names: None,
        topic_partitions: Some(vec![ConsumerGroupHeartbeatTopicPartitions {
            topic_id: TopicId("foo".into()),
            partitions: partitions.to_vec(),
        }]),
        ..join(member)
    }
}

/// `m` owns foo-0 and foo-1, then `n` joins and `m` gives one up: `m` ends STABLE at a second
/// epoch whose previous epoch is the first (not 0). Returns `m`'s epoch.
fn member_at_its_second_epoch(h: &mut Harness) -> i32 {
    let r = beat(h, join("m"));
    assert_eq!(r.error_code, ErrorCode::None);
    let first = r.member_epoch;
    assert_eq!(beat(h, owning("m", first, &[0, 1])).error_code, ErrorCode::None);
    assert_eq!(beat(h, join("n")).error_code, ErrorCode::None);
    // m must revoke one partition; it acknowledges by owning only what it keeps.
    let r = beat(h, owning("m", first, &[0, 1]));
    let kept: Vec<i32> = r
        .assignment
        .expect("the revocation is announced")
        .topic_partitions
        .iter()
        .flat_map(|t| t.partitions.clone())
        .collect();
    assert_eq!(kept.len(), 1);
    let r = beat(h, owning("m", first, &kept));
    assert_eq!(r.error_code, ErrorCode::None);
    assert!(r.member_epoch > first, "m moved on: {r:?}");
    let m = h
        .coord
        .consumer_group_view(G)
        .unwrap()
        .members
        .into_iter()
        .find(|m| m.member_id == "m")
        .unwrap();
    assert_eq!(m.previous_member_epoch, first);
    assert_ne!(m.previous_member_epoch, 0);
    r.member_epoch
}

#[test]
fn ref_4_4_up_to_4_2_a_rejoin_at_epoch_0_is_fenced_until_the_session_expires() {
    for version in [KafkaRelease::V4_1, KafkaRelease::V4_2] {
        let mut h = harness(version);
        let epoch = member_at_its_second_epoch(&mut h);
        let deadline = session_deadline(&h, "m");
        for _ in 0..3 {
            h.advance(1_000);
            let r = beat(&mut h, join("m"));
            assert_eq!(r.error_code, ErrorCode::FencedMemberEpoch, "{version}");
            assert!(
                r.error_message.as_deref().unwrap().contains(&format!(
                    "smaller member epoch (0) than the one known by the group coordinator ({epoch})"
                )),
                "{version}: {r:?}"
            );
        }
        // The refused heartbeats renewed nothing: the session expires on time, and m is fenced.
        assert_eq!(session_deadline(&h, "m"), deadline, "{version}");
        h.advance_to(deadline);
        assert!(h.saw(|k| matches!(
            k,
            EventKind::ConsumerMemberFenced { member_id, reason: ConsumerFenceReason::SessionExpired, .. }
                if member_id == "m"
        )));
        // The next rejoin creates the member anew.
        let r = beat(&mut h, join("m"));
        assert_eq!(r.error_code, ErrorCode::None, "{version}");
        assert!(r.member_epoch > epoch, "{version}: a new member at the new epoch");
    }
}

#[test]
fn kafka_19233_from_4_3_a_rejoin_at_epoch_0_is_accepted_under_the_same_id() {
    for version in [KafkaRelease::V4_3, KafkaRelease::V4_4] {
        let mut h = harness(version);
        let epoch = member_at_its_second_epoch(&mut h);
        let deadline = session_deadline(&h, "m");
        h.advance(1_000);
        let r = beat(&mut h, join("m"));
        assert_eq!(r.error_code, ErrorCode::None, "{version}: {r:?}");
        assert_eq!(r.member_id.as_deref(), Some("m"));
        assert_eq!(
            r.member_epoch, epoch,
            "{version}: the member as the coordinator had it"
        );
        assert_eq!(
            r.assignment.map(|a| a.topic_partitions.len()),
            Some(1),
            "{version}: a join always gets its assignment"
        );
        assert!(
            session_deadline(&h, "m") > deadline,
            "{version}: the session renewed"
        );
        assert!(!h.saw(|k| matches!(k, EventKind::ConsumerMemberFenced { .. })));
        // Any other stale epoch is still fenced (§4.4 unchanged).
        let r = beat(&mut h, owning("m", epoch - 1, &[0, 1]));
        assert_eq!(r.error_code, ErrorCode::FencedMemberEpoch, "{version}");
    }
}

// ------------------------------------------------------------- the client, in a simulation

/// `(when, error)` of every fencing error `who` reacted to.
fn fencings(sim: &Simulation, who: &str) -> Vec<(SimTime, ErrorCode)> {
    client_events(sim, who)
        .filter_map(|(e, ev)| match ev {
            ClientEvent::ErrorReceived {
                api: Api::ConsumerGroupHeartbeat,
                error,
                reaction: Reaction::TransitionToFenced,
            } => Some((e.at, *error)),
            _ => None,
        })
        .collect()
}

/// Times the coordinator sent `who` a successful heartbeat response.
fn successes(sim: &Simulation, who: &str) -> Vec<SimTime> {
    use rebalance_engine::network::{Endpoint, Payload};
    use rebalance_engine::sim::{NetworkEvent, SimEventKind};
    sim.log()
        .iter()
        .filter_map(|e| match &e.kind {
            SimEventKind::Network {
                event: NetworkEvent::Sent { message },
            } => match (&message.to, &message.payload) {
                (Endpoint::Consumer(c), Payload::Response(Response::ConsumerGroupHeartbeat(r)))
                    if c == who && r.error_code == ErrorCode::None =>
                {
                    Some(e.at)
                }
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// Fencing streaks: runs of fencing errors with no successful heartbeat between them, as
/// (count, first, last).
fn streaks(sim: &Simulation, who: &str) -> Vec<(usize, SimTime, SimTime)> {
    let ok = successes(sim, who);
    let mut out: Vec<(usize, SimTime, SimTime)> = Vec::new();
    for (at, _) in fencings(sim, who) {
        match out.last_mut() {
            Some((n, _, last)) if !ok.iter().any(|t| *t > *last && *t <= at) => {
                *n += 1;
                *last = at;
            }
            _ => out.push((1, at, at)),
        }
    }
    out
}

const SESSION_MS: u64 = 45_000;

fn two_member_story(version: &str) -> Scenario {
    Scenario::from_json(&format!(
        r#"{{"version":1,"seed":5,"group_id":"g","end_ms":120000,
            "topics":[{{"name":"t","partitions":2,"records_per_sec":2}}],
            "client_defaults":{{"group_protocol":"consumer","subscription":{{"topics":["t"]}}}},
            "consumers":[{{"name":"A"}},{{"name":"B","start_ms":8000}}],
            "coordinator":{{"kafka_version":"{version}"}}}}"#
    ))
    .unwrap()
}

/// Runs the story with an impostor: right after B's join, a script heartbeats as A at A's epoch
/// owning nothing, which moves A's member to the new target epoch behind A's back. A's next
/// heartbeat (at the old epoch, owning both partitions) is fenced.
fn run_with_impostor(version: &str) -> Simulation {
    let mut sim = Simulation::new(&two_member_story(version)).unwrap();
    sim.run_until(SimTime(8_500));
    let a = sim.consumer("A").unwrap().member_id().to_owned();
    let epoch = sim
        .consumer_group()
        .unwrap()
        .members
        .iter()
        .find(|m| m.member_id == a)
        .unwrap()
        .member_epoch;
    let impostor = ConsumerGroupHeartbeatRequest {
        api_version: 1,
        group_id: "g".into(),
        member_id: a,
        member_epoch: epoch,
        topic_partitions: Some(vec![]),
        client_id: "impostor".into(),
        client_host: "/10.0.0.66".into(),
        ..Default::default()
    };
    sim.apply(
        SimTime(8_500),
        Action::SendRequest {
            script: "impostor".into(),
            request: Request::ConsumerGroupHeartbeat(Box::new(impostor)),
        },
    )
    .unwrap();
    sim.run_to_end();
    sim
}

fn ends_reconciled(sim: &Simulation, who: &str) {
    let c = sim.consumers().into_iter().find(|c| c.name == who).unwrap();
    let p = c.consumer_protocol.unwrap();
    assert_eq!(p.state, ConsumerMemberState::Stable, "{who}");
    let g = sim.consumer_group().unwrap();
    let m = g.members.iter().find(|m| m.member_id == c.member_id).unwrap();
    assert_eq!(m.member_epoch, g.assignment_epoch, "{who}");
}

#[test]
fn up_to_4_2_the_clients_fencing_loop_ends_within_one_session_timeout() {
    for version in ["4.1", "4.2"] {
        let sim = run_with_impostor(version);
        let s = streaks(&sim, "A");
        assert_eq!(s.len(), 1, "{version}: one streak: {s:?}");
        let (n, first, last) = s[0];
        assert!(n > 1, "{version}: the rejoins at epoch 0 were fenced too ({n})");
        assert!(
            last.as_millis() - first.as_millis() <= SESSION_MS,
            "{version}: the streak lasted {first}..{last}"
        );
        assert!(fencings(&sim, "A")
            .iter()
            .all(|(_, e)| *e == ErrorCode::FencedMemberEpoch));
        // It ended because the coordinator fenced the silent member at its session timeout.
        assert!(
            sim.trace_text(false)
                .contains("because the member session expired"),
            "{version}"
        );
        ends_reconciled(&sim, "A");
        ends_reconciled(&sim, "B");
    }
}

#[test]
fn from_4_3_the_client_is_fenced_once_and_rejoins_under_its_id() {
    for version in ["4.3", "4.4"] {
        let sim = run_with_impostor(version);
        let f = fencings(&sim, "A");
        assert_eq!(f.len(), 1, "{version}: {f:?}");
        assert_eq!(f[0].1, ErrorCode::FencedMemberEpoch);
        assert!(
            !sim.trace_text(false)
                .contains("because the member session expired"),
            "{version}"
        );
        let a = sim.consumer("A").unwrap().member_id().to_owned();
        assert!(sim
            .consumer_group()
            .unwrap()
            .members
            .iter()
            .any(|m| m.member_id == a));
        ends_reconciled(&sim, "A");
        ends_reconciled(&sim, "B");
    }
}

// ------------------------------------------------------------------ random fault runs

/// Makes `who`'s epoch stale behind its back: a ghost member joins (a new target takes partitions
/// from `who`), then, 100 ms later, a script heartbeats as `who` at the epoch the coordinator knows
/// owning nothing, so the coordinator moves `who` to the new epoch with fewer partitions. The
/// client's next heartbeat (old epoch, owning partitions it no longer has) is fenced. Nothing
/// happens if `who` is not a member then. Returns when the script heartbeated as `who`, if it did.
fn impersonate(sim: &mut Simulation, at: SimTime, who: &str, ghost: usize) -> Option<SimTime> {
    let script = |request: ConsumerGroupHeartbeatRequest| Action::SendRequest {
        script: format!("impostor-{ghost}"),
        request: Request::ConsumerGroupHeartbeat(Box::new(request)),
    };
    let ghost_join = ConsumerGroupHeartbeatRequest {
        api_version: 1,
        group_id: "g".into(),
        member_id: format!("ghost-{ghost}"),
        member_epoch: 0,
        rebalance_timeout_ms: 30_000,
        subscribed_topic_names: Some(vec!["t".into()]),
        topic_partitions: Some(vec![]),
        client_id: "ghost".into(),
        client_host: "/10.0.0.66".into(),
        ..Default::default()
    };
    sim.apply(at, script(ghost_join)).unwrap();
    let later = SimTime(at.as_millis() + 100);
    sim.run_until(later);
    let id = sim.consumer(who).map(|c| c.member_id().to_owned())?;
    let epoch = sim
        .consumer_group()
        .and_then(|g| g.members.into_iter().find(|m| m.member_id == id))
        .map(|m| m.member_epoch)
        .filter(|e| *e > 0)?;
    let req = ConsumerGroupHeartbeatRequest {
        api_version: 1,
        group_id: "g".into(),
        member_id: id,
        member_epoch: epoch,
        topic_partitions: Some(vec![]),
        client_id: "impostor".into(),
        client_host: "/10.0.0.66".into(),
        ..Default::default()
    };
    sim.apply(later, script(req)).unwrap();
    Some(later)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// Random networks (drops, delays), coordinator failovers, partitions added and impostor
    /// heartbeats that make members' epochs stale: no fencing streak is longer than one fencing
    /// from 4.3, or than one session timeout (plus a request timeout for a lost answer) up to
    /// 4.2, counted from the streak's start or from an impostor's heartbeat in it (which, at the
    /// member's epoch, renews the member's session as Kafka does); and every member fenced at least
    /// once in a run is fenced a bounded number of times.
    #[test]
    fn fencing_streaks_are_bounded_in_random_fault_runs(
        seed in any::<u64>(),
        version in 0usize..5,
        drop in 0u32..20,
        delay in 0u32..30,
        failover_s in proptest::option::of(5u64..60),
        consumers in 1usize..4,
        impostors in proptest::collection::vec((3u64..80, 0usize..3), 0..4),
        grow_at_s in proptest::option::of(10u64..70),
    ) {
        let version = KafkaRelease::ALL[version];
        let mut actions = Vec::new();
        if let Some(s) = failover_s {
            actions.push(format!(r#"{{"type":"coordinator_failover","at_ms":{},"duration_ms":3000}}"#, s * 1000));
        }
        if let Some(s) = grow_at_s {
            actions.push(format!(r#"{{"type":"add_partitions","at_ms":{},"topic":"t","partitions":6}}"#, s * 1000));
        }
        let names: Vec<String> = (0..consumers)
            .map(|i| format!(r#"{{"name":"c{i}","start_ms":{}}}"#, i * 1500))
            .collect();
        let json = format!(
            r#"{{"version":1,"seed":{seed},"group_id":"g","end_ms":90000,
                "topics":[{{"name":"t","partitions":4,"records_per_sec":2}}],
                "network":{{"latency_ms":2,"jitter_ms":3,"drop_probability":{},"delay_probability":{},"delay_ms":4000}},
                "client_defaults":{{"group_protocol":"consumer","subscription":{{"topics":["t"]}}}},
                "consumers":[{}],
                "actions":[{}],
                "coordinator":{{"kafka_version":"{version}"}}}}"#,
            f64::from(drop) / 100.0,
            f64::from(delay) / 100.0,
            names.join(","),
            actions.join(","),
        );
        let scenario = Scenario::from_json(&json).unwrap();
        let mut sim = Simulation::new(&scenario).unwrap();
        let mut impostors = impostors;
        impostors.sort();
        // Who was impersonated, and when.
        let mut beats: Vec<(String, SimTime)> = Vec::new();
        for (k, (at_s, who)) in impostors.into_iter().enumerate() {
            let at = SimTime(at_s * 1000);
            if at <= sim.now() {
                continue;
            }
            sim.run_until(at);
            let who = format!("c{}", who % consumers);
            if let Some(t) = impersonate(&mut sim, at, &who, k) {
                beats.push((who, t));
            }
        }
        sim.run_to_end();
        for i in 0..consumers {
            let who = format!("c{i}");
            let all = fencings(&sim, &who);
            for (n, first, last) in streaks(&sim, &who) {
                if version.accepts_rejoin_at_epoch_zero() {
                    prop_assert!(n <= 1, "{version} {who}: {n} fencings in a row, {first}..{last}");
                } else {
                    let renewed = beats
                        .iter()
                        .filter(|(w, t)| *w == who && *t >= first && *t <= last)
                        .map(|(_, t)| *t)
                        .max()
                        .unwrap_or(first);
                    let span = last.as_millis() - renewed.as_millis();
                    prop_assert!(
                        span <= SESSION_MS + 30_000,
                        "{version} {who}: fenced for {span} ms ({n} times), {first}..{last}"
                    );
                }
            }
            if version.accepts_rejoin_at_epoch_zero() {
                // At most one fencing per stale epoch the faults can cause: 4 impostors, a
                // failover, and lost answers (a generous bound that a loop would still break).
                prop_assert!(all.len() <= 40, "{version} {who}: {} fencings", all.len());
            }
        }
    }
}
