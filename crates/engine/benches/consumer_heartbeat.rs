//! Heartbeats per second for a group of 1,000 members: the consumer protocol's
//! `ConsumerGroupHeartbeat` (KIP-848) on a Stable consumer group, next to the classic `Heartbeat` on
//! a Stable classic group, in the same run. Setup (joins, reconciliation, the classic join and sync)
//! is untimed; the timed part sends every member's steady heartbeat round after round (the consumer
//! members report their owned partitions, as the Java client does when its assignment changed, the
//! worst case), and drains every response and event.
//!
//! Run with `cargo bench -p rebalance-engine --bench consumer_heartbeat`.

// A bench times the engine with the wall clock, which clippy.toml bans in the engine itself.
#![allow(clippy::disallowed_types, clippy::disallowed_methods)]

use rebalance_engine::collections::Map;
use std::time::Instant;

use rebalance_engine::protocol::*;
use rebalance_engine::{Coordinator, CoordinatorConfig, Request, Response, SimDuration, SimTime};

const GROUP: &str = "bench-group";
const MEMBERS: usize = 1_000;
const PARTITIONS: i32 = 1_000;
const ROUNDS: usize = 50;

fn coordinator() -> Coordinator {
    let mut c = Coordinator::new(CoordinatorConfig {
        group_initial_rebalance_delay_ms: 0,
        ..CoordinatorConfig::default()
    });
    let p = c.partition_for(GROUP);
    c.load(SimTime::ZERO, p, Vec::new());
    c.set_topic_metadata(Map::from([("t".to_string(), PARTITIONS)]));
    c
}

fn drain(c: &mut Coordinator) -> Vec<(i32, Response)> {
    let mut out = Vec::new();
    while let Some(o) = c.poll_output() {
        out.push((o.correlation_id, o.response));
    }
    while c.poll_event().is_some() {}
    out
}

fn owned_of(
    a: &Option<ConsumerGroupHeartbeatAssignment>,
) -> Option<Vec<ConsumerGroupHeartbeatTopicPartitions>> {
    a.as_ref().map(|a| a.topic_partitions.clone())
}

/// A Stable consumer group of `MEMBERS`; returns the coordinator and each member's (epoch, owned).
fn consumer_group() -> (
    Coordinator,
    Vec<(i32, Vec<ConsumerGroupHeartbeatTopicPartitions>)>,
) {
    let mut c = coordinator();
    let mut ms = Vec::new();
    for i in 0..MEMBERS {
        let req = ConsumerGroupHeartbeatRequest {
            group_id: GROUP.into(),
            member_id: format!("m{i:04}"),
            member_epoch: 0,
            rebalance_timeout_ms: 300_000,
            subscribed_topic_names: Some(vec!["t".into()]),
            topic_partitions: Some(vec![]),
            ..Default::default()
        };
        c.handle_request(
            SimTime::ZERO,
            ConnectionId(i as u64),
            0,
            Request::ConsumerGroupHeartbeat(Box::new(req)),
        );
        let (_, r) = drain(&mut c).pop().expect("a response");
        let Response::ConsumerGroupHeartbeat(r) = r else {
            panic!()
        };
        ms.push((r.member_epoch, owned_of(&r.assignment).unwrap_or_default()));
    }
    // Reconcile: rounds of heartbeats that acknowledge, until nothing changes.
    for round in 1..20 {
        let now = SimTime(round * 1_000);
        let mut changed = false;
        for (i, m) in ms.iter_mut().enumerate() {
            let (epoch, parts) = beat(&mut c, now, i, m.0, m.1.clone());
            changed |= epoch != m.0 || parts.is_some();
            m.0 = epoch;
            if let Some(p) = parts {
                m.1 = p;
            }
        }
        if !changed {
            break;
        }
    }
    (c, ms)
}

fn beat(
    c: &mut Coordinator,
    now: SimTime,
    i: usize,
    epoch: i32,
    owned: Vec<ConsumerGroupHeartbeatTopicPartitions>,
) -> (i32, Option<Vec<ConsumerGroupHeartbeatTopicPartitions>>) {
    let req = ConsumerGroupHeartbeatRequest {
        group_id: GROUP.into(),
        member_id: format!("m{i:04}"),
        member_epoch: epoch,
        topic_partitions: Some(owned),
        ..Default::default()
    };
    c.handle_request(
        now,
        ConnectionId(i as u64),
        1,
        Request::ConsumerGroupHeartbeat(Box::new(req)),
    );
    let (_, r) = drain(c).pop().expect("a response");
    let Response::ConsumerGroupHeartbeat(r) = r else {
        panic!()
    };
    assert!(r.error_code.is_none(), "{r:?}");
    (r.member_epoch, owned_of(&r.assignment))
}

/// A Stable classic group of `MEMBERS`; returns the coordinator and the member ids.
fn classic_group() -> (Coordinator, Vec<String>) {
    let mut c = coordinator();
    let join = |member_id: &str, i: usize| JoinGroupRequest {
        group_id: GROUP.into(),
        member_id: member_id.into(),
        client_id: format!("c{i}"),
        protocol_type: CONSUMER_PROTOCOL_TYPE.into(),
        protocols: vec![JoinGroupProtocol {
            name: "range".into(),
            metadata: ConsumerSubscription {
                topics: vec!["t".into()],
                ..Default::default()
            },
        }],
        session_timeout_ms: 45_000,
        rebalance_timeout_ms: 300_000,
        ..Default::default()
    };
    let mut ids = Vec::new();
    for i in 0..MEMBERS {
        c.handle_request(
            SimTime::ZERO,
            ConnectionId(i as u64),
            0,
            Request::JoinGroup(join("", i)),
        );
        let (_, r) = drain(&mut c).pop().expect("MEMBER_ID_REQUIRED");
        let Response::JoinGroup(r) = r else { panic!() };
        ids.push(r.member_id.clone());
        c.handle_request(
            SimTime::ZERO,
            ConnectionId(i as u64),
            1,
            Request::JoinGroup(join(&r.member_id, i)),
        );
        drain(&mut c);
    }
    c.handle_timeout(SimTime::ZERO);
    let joined = drain(&mut c);
    assert_eq!(joined.len(), MEMBERS, "every JoinGroup answered");
    for (i, id) in ids.iter().enumerate() {
        let req = SyncGroupRequest {
            group_id: GROUP.into(),
            generation_id: 1,
            member_id: id.clone(),
            ..Default::default()
        };
        c.handle_request(SimTime::ZERO, ConnectionId(i as u64), 2, Request::SyncGroup(req));
    }
    drain(&mut c);
    (c, ids)
}

fn main() {
    let (mut c, mut ms) = consumer_group();
    let state = {
        c.handle_request(
            SimTime(30_000),
            ConnectionId(9_999),
            0,
            Request::ConsumerGroupDescribe(ConsumerGroupDescribeRequest {
                group_ids: vec![GROUP.into()],
                include_authorized_operations: false,
            }),
        );
        match drain(&mut c).pop() {
            Some((_, Response::ConsumerGroupDescribe(r))) => r.groups[0].group_state.clone(),
            _ => String::new(),
        }
    };
    let start = Instant::now();
    let mut n = 0u64;
    for round in 0..ROUNDS {
        let now = SimTime(30_000) + SimDuration::from_millis(round as u64 * 5_000);
        for (i, m) in ms.iter_mut().enumerate() {
            let (epoch, _) = beat(&mut c, now, i, m.0, m.1.clone());
            m.0 = epoch;
            n += 1;
        }
    }
    let consumer = n as f64 / start.elapsed().as_secs_f64();

    let (mut c, ids) = classic_group();
    let start = Instant::now();
    let mut n = 0u64;
    for round in 0..ROUNDS {
        let now = SimTime(30_000) + SimDuration::from_millis(round as u64 * 3_000);
        for (i, id) in ids.iter().enumerate() {
            let req = HeartbeatRequest {
                group_id: GROUP.into(),
                generation_id: 1,
                member_id: id.clone(),
                group_instance_id: None,
            };
            c.handle_request(now, ConnectionId(i as u64), 3, Request::Heartbeat(req));
            let (_, r) = drain(&mut c).pop().expect("a response");
            assert_eq!(r.error_code(), ErrorCode::None, "{r:?}");
            n += 1;
        }
    }
    let classic = n as f64 / start.elapsed().as_secs_f64();
    println!("heartbeats/s, {MEMBERS} members, {ROUNDS} rounds each, responses and events drained:");
    println!("  consumer protocol (ConsumerGroupHeartbeat, group {state}): {consumer:>12.0}");
    println!("  classic protocol  (Heartbeat, group Stable):            {classic:>12.0}");
}
