//! Property tests over random request sequences, with garbage member ids, generations and instance
//! ids and random time advances. Native only (proptest is cheapest on the host).
#![cfg(not(target_arch = "wasm32"))]

mod common;

use rebalance_engine::collections::Map;

use common::*;
use proptest::prelude::*;
use rebalance_engine::protocol::*;
use rebalance_engine::{Coordinator, EventKind, RecordBody, Request, Response};

#[derive(Clone, Debug)]
enum Who {
    /// A member id seen in a response (index modulo the number known).
    Known(usize),
    /// The most recently learnt id (typically a MEMBER_ID_REQUIRED answer).
    Last,
    /// `""`.
    Empty,
    /// A made-up id.
    Garbage(u8),
}

#[derive(Clone, Debug)]
enum Gen {
    Current,
    Previous,
    Raw(i32),
}

#[derive(Clone, Debug)]
enum Op {
    Join {
        conn: u64,
        who: Who,
        instance: Option<u8>,
        protocols: u8,
        v3: bool,
        topics: u8,
    },
    Sync {
        conn: u64,
        who: Who,
        gen: Gen,
        instance: Option<u8>,
        assign: bool,
    },
    Heartbeat {
        conn: u64,
        who: Who,
        gen: Gen,
        instance: Option<u8>,
    },
    Leave {
        conn: u64,
        who: Vec<(Who, Option<u8>)>,
    },
    Commit {
        conn: u64,
        who: Who,
        gen: Gen,
        offset: i64,
    },
    Advance(u64),
    MoveCoordinator,
    /// Every current member sends SyncGroup for the current generation, the leader last (with an
    /// assignment for every member).
    SyncAll,
    /// Every current member rejoins with its current metadata.
    RejoinAll,
}

fn who() -> impl Strategy<Value = Who> {
    prop_oneof![
        4 => (0usize..8).prop_map(Who::Known),
        3 => Just(Who::Last),
        1 => Just(Who::Empty),
        1 => (0u8..3).prop_map(Who::Garbage),
    ]
}

fn gen() -> impl Strategy<Value = Gen> {
    prop_oneof![4 => Just(Gen::Current), 1 => Just(Gen::Previous), 1 => (-1i32..4).prop_map(Gen::Raw)]
}

fn instance() -> impl Strategy<Value = Option<u8>> {
    prop_oneof![3 => Just(None), 1 => (0u8..3).prop_map(Some)]
}

fn op() -> impl Strategy<Value = Op> {
    let conn = 1u64..5;
    prop_oneof![
        8 => (conn.clone(), who(), instance(), 0u8..4, any::<bool>(), 0u8..2)
            .prop_map(|(conn, who, instance, protocols, v3, topics)| Op::Join { conn, who, instance, protocols, v3, topics }),
        4 => (conn.clone(), who(), gen(), instance(), any::<bool>())
            .prop_map(|(conn, who, gen, instance, assign)| Op::Sync { conn, who, gen, instance, assign }),
        3 => (conn.clone(), who(), gen(), instance()).prop_map(|(conn, who, gen, instance)| Op::Heartbeat { conn, who, gen, instance }),
        1 => (conn.clone(), prop::collection::vec((who(), instance()), 1..3)).prop_map(|(conn, who)| Op::Leave { conn, who }),
        2 => (conn, who(), gen(), 0i64..100).prop_map(|(conn, who, gen, offset)| Op::Commit { conn, who, gen, offset }),
        4 => prop_oneof![
            3 => Just(0u64), 3 => Just(100), 6 => Just(3_000), 1 => Just(10_000), 1 => Just(30_000), 1 => Just(300_000)
        ].prop_map(Op::Advance),
        1 => Just(Op::MoveCoordinator),
        2 => Just(Op::SyncAll),
        1 => Just(Op::RejoinAll),
    ]
}

struct Model {
    h: Harness,
    known: Vec<String>,
    /// The assignment the leader sent for `stored_generation`, tracked from the event log.
    stored: Map<String, ConsumerAssignment>,
    stored_generation: i32,
    last_generation: i32,
    seen_events: usize,
}

impl Model {
    fn id(&self, w: &Who) -> String {
        match w {
            Who::Known(i) if !self.known.is_empty() => self.known[i % self.known.len()].clone(),
            Who::Last => self.known.last().cloned().unwrap_or_default(),
            Who::Known(_) | Who::Empty => String::new(),
            Who::Garbage(g) => format!("garbage-{g}"),
        }
    }

    fn gen(&self, g: &Gen) -> i32 {
        let cur = self.h.coord.group_snapshot(G).map_or(-1, |s| s.generation_id);
        match g {
            Gen::Current => cur,
            Gen::Previous => cur - 1,
            Gen::Raw(n) => *n,
        }
    }

    fn learn(&mut self) {
        for r in self.h.inbox.values() {
            if let Response::JoinGroup(j) = r {
                if !j.member_id.is_empty() && !self.known.contains(&j.member_id) {
                    self.known.push(j.member_id.clone());
                }
            }
        }
        self.h.inbox.clear();
    }

    fn apply(&mut self, op: &Op) {
        match op {
            Op::Join {
                conn,
                who,
                instance,
                protocols,
                v3,
                topics,
            } => {
                let names: &[&str] = match protocols {
                    0 => &["range"],
                    1 => &["roundrobin", "range"],
                    2 => &["range", "roundrobin"],
                    _ => &["sticky"],
                };
                let mut req = join_req(&self.id(who))
                    .with_protocols(names)
                    .topics(if *topics == 0 { &["foo"] } else { &["foo", "bar"] });
                req.group_instance_id = instance.map(|i| format!("i{i}"));
                if *v3 {
                    req.api_version = 3;
                }
                self.h.join(*conn, req);
            }
            Op::Sync {
                conn,
                who,
                gen,
                instance,
                assign,
            } => {
                let assignments = if *assign {
                    let members: Vec<String> = self
                        .h
                        .coord
                        .group_snapshot(G)
                        .map(|s| s.members.into_iter().map(|m| m.member_id).collect())
                        .unwrap_or_default();
                    assign_one_each(&members)
                } else {
                    Vec::new()
                };
                let req = SyncGroupRequest {
                    group_id: G.into(),
                    generation_id: self.gen(gen),
                    member_id: self.id(who),
                    group_instance_id: instance.map(|i| format!("i{i}")),
                    assignments,
                    ..Default::default()
                };
                self.h.send(*conn, Request::SyncGroup(req));
            }
            Op::Heartbeat {
                conn,
                who,
                gen,
                instance,
            } => {
                let req = HeartbeatRequest {
                    group_id: G.into(),
                    generation_id: self.gen(gen),
                    member_id: self.id(who),
                    group_instance_id: instance.map(|i| format!("i{i}")),
                };
                self.h.send(*conn, Request::Heartbeat(req));
            }
            Op::Leave { conn, who } => {
                let members = who
                    .iter()
                    .map(|(w, i)| MemberIdentity {
                        member_id: self.id(w),
                        group_instance_id: i.map(|i| format!("i{i}")),
                        reason: None,
                    })
                    .collect();
                self.h.send(
                    *conn,
                    Request::LeaveGroup(LeaveGroupRequest {
                        group_id: G.into(),
                        members,
                    }),
                );
            }
            Op::Commit {
                conn,
                who,
                gen,
                offset,
            } => {
                let before = self.h.coord.committed_offsets(G);
                let req = OffsetCommitRequest {
                    group_id: G.into(),
                    generation_id: self.gen(gen),
                    member_id: self.id(who),
                    partitions: vec![OffsetCommitPartition {
                        topic: "foo".into(),
                        partition: 0,
                        committed_offset: *offset,
                        committed_leader_epoch: -1,
                        committed_metadata: String::new(),
                    }],
                    ..Default::default()
                };
                let t = self.h.send(*conn, Request::OffsetCommit(req));
                let Some(Response::OffsetCommit(r)) = self.h.inbox.get(&t).cloned() else {
                    panic!("commit unanswered")
                };
                if r.partitions[0].error_code != ErrorCode::None {
                    // A rejected OffsetCommit never changes committed offsets.
                    assert_eq!(
                        self.h.coord.committed_offsets(G),
                        before,
                        "rejected commit changed offsets"
                    );
                } else {
                    assert_eq!(
                        self.h.coord.committed_offsets(G)[&TopicPartition::new("foo", 0)].offset,
                        *offset
                    );
                }
            }
            Op::Advance(ms) => self.h.advance(*ms),
            Op::SyncAll => {
                if let Some(s) = self.h.coord.group_snapshot(G) {
                    let ids: Vec<String> = s.members.iter().map(|m| m.member_id.clone()).collect();
                    let mut order = s.members.clone();
                    order.sort_by_key(|m| m.is_leader);
                    for (i, m) in order.iter().enumerate() {
                        let req = SyncGroupRequest {
                            group_id: G.into(),
                            generation_id: s.generation_id,
                            member_id: m.member_id.clone(),
                            group_instance_id: m.group_instance_id.clone(),
                            assignments: if m.is_leader {
                                assign_one_each(&ids)
                            } else {
                                Vec::new()
                            },
                            ..Default::default()
                        };
                        self.h.send(10 + i as u64, Request::SyncGroup(req));
                    }
                }
            }
            Op::RejoinAll => {
                if let Some(s) = self.h.coord.group_snapshot(G) {
                    for (i, m) in s.members.iter().enumerate() {
                        let req = JoinGroupRequest {
                            member_id: m.member_id.clone(),
                            group_instance_id: m.group_instance_id.clone(),
                            protocols: m.protocols.clone(),
                            ..join_req("")
                        };
                        self.h.join(20 + i as u64, req);
                    }
                }
            }
            Op::MoveCoordinator => {
                let p = self.h.coord.partition_for(G);
                let records = self.h.coord.unload(self.h.now, p);
                self.h.pump();
                let mut next = Coordinator::new(config());
                next.load(self.h.now, p, records);
                self.h.coord = next;
                self.h.pump();
            }
        }
        self.learn();
        self.check();
    }

    fn check(&mut self) {
        for e in &self.h.events[self.seen_events..] {
            match &e.kind {
                EventKind::StateChanged { from, to, .. } => {
                    assert!(from.can_transition_to(*to), "illegal transition {from} -> {to}");
                }
                EventKind::AssignmentStored {
                    generation_id,
                    assignments,
                    ..
                } => {
                    self.stored = assignments.iter().cloned().collect();
                    self.stored_generation = *generation_id;
                }
                EventKind::StaticMemberReplaced {
                    old_member_id,
                    new_member_id,
                    ..
                } => {
                    if let Some(a) = self.stored.remove(old_member_id) {
                        self.stored.insert(new_member_id.clone(), a);
                    }
                }
                EventKind::GroupRemoved { .. } => self.last_generation = 0,
                EventKind::GroupLoaded { .. } => {
                    // A load brings back what the log says (§5.7): the last group record's
                    // assignments, not a replacement or rebalance that was never persisted.
                    let p = self.h.coord.partition_for(G);
                    let last = self.h.coord.log(p).and_then(|log| {
                        log.iter().rev().find_map(|r| match &r.body {
                            RecordBody::GroupMetadata(m) if m.group_id == G => Some(m.clone()),
                            _ => None,
                        })
                    });
                    if let Some(m) = last {
                        self.stored = m
                            .members
                            .iter()
                            .map(|x| (x.member_id.clone(), x.assignment.clone()))
                            .collect();
                        self.stored_generation = m.generation_id;
                    }
                }
                _ => {}
            }
        }
        self.seen_events = self.h.events.len();
        let Some(s) = self.h.coord.group_snapshot(G) else {
            return;
        };
        // The generation never decreases (while the group exists).
        assert!(
            s.generation_id >= self.last_generation,
            "generation went {} -> {}",
            self.last_generation,
            s.generation_id
        );
        self.last_generation = s.generation_id;
        // At most one leader, and it is a member; no leader without members.
        assert!(s.members.iter().filter(|m| m.is_leader).count() <= 1);
        match &s.leader {
            Some(l) => assert!(
                s.members.iter().any(|m| &m.member_id == l),
                "leader {l} is not a member"
            ),
            None => assert!(s.members.is_empty(), "members without a leader"),
        }
        // In Stable every member holds what the leader sent for the current generation.
        if s.state == GroupState::Stable {
            assert_eq!(
                s.generation_id, self.stored_generation,
                "Stable without the leader's assignment"
            );
            for m in &s.members {
                assert_eq!(
                    Some(&m.assignment),
                    self.stored.get(&m.member_id),
                    "member {} in Stable",
                    m.member_id
                );
            }
        }
        if s.state == GroupState::Empty {
            assert!(s.members.is_empty());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    #[test]
    fn random_request_sequences_keep_the_invariants(ops in prop::collection::vec(op(), 1..60)) {
        let mut m = Model {
            h: Harness::new(),
            known: Vec::new(),
            stored: Map::new(),
            stored_generation: -1,
            last_generation: 0,
            seen_events: 0,
        };
        for op in &ops {
            m.apply(op);
        }
    }
}
