//! Coordinator throughput: 1,000 members join, sync and heartbeat (every 3 s) for one simulated hour;
//! every simulated minute one member crashes (stops heartbeating) and a replacement joins.
//! Prints requests handled per second (wall clock) and an approximate memory cost per member.
//!
//! Run with `cargo bench -p rebalance-engine --bench coordinator`.

use std::collections::BTreeMap;
use std::time::Instant;

use rebalance_engine::protocol::*;
use rebalance_engine::{Coordinator, CoordinatorConfig, Request, Response, SimTime};

const GROUP: &str = "bench-group";
const MEMBERS: usize = 1_000;
const HOUR_MS: u64 = 3_600_000;
const HEARTBEAT_MS: u64 = 3_000;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Joining,
    Syncing,
    Stable,
    Crashed,
}

struct Member {
    id: String,
    generation: i32,
    phase: Phase,
    leader: bool,
    members: Vec<String>,
}

struct Sim {
    coord: Coordinator,
    now: SimTime,
    members: Vec<Member>,
    requests: u64,
    events: u64,
    corr: i32,
}

fn join_req(member_id: &str, client: &str) -> JoinGroupRequest {
    JoinGroupRequest {
        group_id: GROUP.into(),
        member_id: member_id.into(),
        client_id: client.into(),
        client_host: "/10.0.0.1".into(),
        protocols: vec![JoinGroupProtocol {
            name: "range".into(),
            metadata: ConsumerSubscription::to_topics(["t"]),
        }],
        session_timeout_ms: 10_000,
        rebalance_timeout_ms: 30_000,
        ..JoinGroupRequest::default()
    }
}

impl Sim {
    fn send(&mut self, idx: usize, req: Request) {
        self.corr += 1;
        self.requests += 1;
        self.coord
            .handle_request(self.now, ConnectionId(idx as u64), self.corr, req);
        self.drain();
    }

    fn drain(&mut self) {
        while let Some(out) = self.coord.poll_output() {
            self.on_response(out.to.0 as usize, out.response);
        }
        while self.coord.poll_event().is_some() {
            self.events += 1;
        }
    }

    fn join(&mut self, idx: usize) {
        let m = &mut self.members[idx];
        m.phase = Phase::Joining;
        let req = join_req(&m.id, &format!("client-{idx}"));
        self.send(idx, Request::JoinGroup(req));
    }

    fn on_response(&mut self, idx: usize, resp: Response) {
        if self.members[idx].phase == Phase::Crashed {
            return;
        }
        match resp {
            Response::JoinGroup(r) => match r.error_code {
                ErrorCode::None => {
                    let m = &mut self.members[idx];
                    m.id = r.member_id.clone();
                    m.generation = r.generation_id;
                    m.leader = r.leader == r.member_id;
                    m.members = r.members.iter().map(|x| x.member_id.clone()).collect();
                    m.phase = Phase::Syncing;
                    let assignments = if m.leader {
                        m.members
                            .iter()
                            .enumerate()
                            .map(|(i, id)| SyncGroupAssignment {
                                member_id: id.clone(),
                                assignment: ConsumerAssignment {
                                    partitions: vec![TopicPartition::new("t", i as i32)],
                                    user_data: Vec::new(),
                                },
                            })
                            .collect()
                    } else {
                        Vec::new()
                    };
                    let req = SyncGroupRequest {
                        group_id: GROUP.into(),
                        generation_id: r.generation_id,
                        member_id: r.member_id,
                        assignments,
                        ..SyncGroupRequest::default()
                    };
                    self.send(idx, Request::SyncGroup(req));
                }
                ErrorCode::MemberIdRequired => {
                    self.members[idx].id = r.member_id;
                    self.join(idx);
                }
                _ => {
                    self.members[idx].id.clear();
                    self.join(idx);
                }
            },
            Response::SyncGroup(r) => {
                if r.error_code == ErrorCode::None {
                    self.members[idx].phase = Phase::Stable;
                } else {
                    self.join(idx);
                }
            }
            Response::Heartbeat(r) => match r.error_code {
                ErrorCode::None => {}
                ErrorCode::UnknownMemberId => {
                    self.members[idx].id.clear();
                    self.join(idx);
                }
                _ => {
                    if self.members[idx].phase == Phase::Stable {
                        self.join(idx);
                    }
                }
            },
            _ => {}
        }
    }

    fn advance_to(&mut self, t: SimTime) {
        while let Some(d) = self.coord.poll_timeout() {
            if d > t {
                break;
            }
            self.now = self.now.max(d);
            self.coord.handle_timeout(self.now);
            self.drain();
        }
        self.now = t;
    }
}

fn run_hour() -> (u64, u64, f64) {
    let mut coord = Coordinator::new(CoordinatorConfig::default());
    let p = coord.partition_for(GROUP);
    coord.load(SimTime::ZERO, p, Vec::new());
    let mut sim = Sim {
        coord,
        now: SimTime::ZERO,
        members: Vec::new(),
        requests: 0,
        events: 0,
        corr: 0,
    };
    let started = Instant::now();
    for i in 0..MEMBERS {
        sim.members.push(Member {
            id: String::new(),
            generation: -1,
            phase: Phase::Joining,
            leader: false,
            members: Vec::new(),
        });
        sim.join(i);
    }
    let mut next_crash = 60_000u64;
    let mut crash_victim = 0usize;
    // 100 ms steps; each member heartbeats every 3 s, staggered by index.
    let step = 100u64;
    let mut t = 0u64;
    while t < HOUR_MS {
        t += step;
        sim.advance_to(SimTime(t));
        if t >= next_crash {
            next_crash += 60_000;
            // The victim stops talking; a replacement process joins as a new member.
            sim.members[crash_victim].phase = Phase::Crashed;
            crash_victim += 1;
            let idx = sim.members.len();
            sim.members.push(Member {
                id: String::new(),
                generation: -1,
                phase: Phase::Joining,
                leader: false,
                members: Vec::new(),
            });
            sim.join(idx);
        }
        let slot = (t / step) % (HEARTBEAT_MS / step);
        for idx in 0..sim.members.len() {
            if (idx as u64) % (HEARTBEAT_MS / step) != slot {
                continue;
            }
            let m = &sim.members[idx];
            if matches!(m.phase, Phase::Stable | Phase::Syncing) && !m.id.is_empty() {
                let req = HeartbeatRequest {
                    group_id: GROUP.into(),
                    generation_id: m.generation,
                    member_id: m.id.clone(),
                    group_instance_id: None,
                };
                sim.send(idx, Request::Heartbeat(req));
            }
        }
    }
    let secs = started.elapsed().as_secs_f64();
    let d = sim.coord.describe_group(GROUP);
    eprintln!(
        "  end state: {} at generation {}, {} members",
        d.group_state,
        sim.coord.group_snapshot(GROUP).map_or(-1, |s| s.generation_id),
        d.members.len()
    );
    (sim.requests, sim.events, secs)
}

/// Resident set size in bytes (Linux), for a rough memory-per-member figure.
fn rss_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

fn memory_per_member(n: usize) -> Option<f64> {
    let before = rss_bytes()?;
    let mut coord = Coordinator::new(CoordinatorConfig {
        group_initial_rebalance_delay_ms: 0,
        ..CoordinatorConfig::default()
    });
    let p = coord.partition_for(GROUP);
    coord.load(SimTime::ZERO, p, Vec::new());
    let mut ids = BTreeMap::new();
    for i in 0..n {
        let req = JoinGroupRequest {
            api_version: 3,
            ..join_req("", &format!("client-{i}"))
        };
        coord.handle_request(SimTime::ZERO, ConnectionId(i as u64), 0, Request::JoinGroup(req));
    }
    coord.handle_timeout(SimTime::ZERO);
    while let Some(out) = coord.poll_output() {
        if let Response::JoinGroup(r) = out.response {
            ids.insert(out.to.0, (r.member_id, r.leader));
        }
    }
    for (conn, (id, leader)) in &ids {
        let assignments = if id == leader {
            ids.values()
                .enumerate()
                .map(|(i, (m, _))| SyncGroupAssignment {
                    member_id: m.clone(),
                    assignment: ConsumerAssignment {
                        partitions: vec![TopicPartition::new("t", i as i32)],
                        user_data: vec![],
                    },
                })
                .collect()
        } else {
            Vec::new()
        };
        let req = SyncGroupRequest {
            group_id: GROUP.into(),
            generation_id: 1,
            member_id: id.clone(),
            assignments,
            ..Default::default()
        };
        coord.handle_request(SimTime::ZERO, ConnectionId(*conn), 1, Request::SyncGroup(req));
    }
    while coord.poll_output().is_some() {}
    // The event log is the caller's to keep or drop; count only the coordinator's own state.
    drop(coord.drain_events());
    let after = rss_bytes()?;
    let state = coord.describe_group(GROUP).group_state;
    assert_eq!(state, GroupState::Stable);
    Some(after.saturating_sub(before) as f64 / n as f64)
}

fn main() {
    println!(
        "coordinator: {MEMBERS} members, 1 simulated hour, a crash + replacement every simulated minute"
    );
    let (requests, events, secs) = run_hour();
    println!("  requests handled: {requests} ({events} events) in {secs:.3} s wall clock");
    println!("  throughput: {:.0} requests/s", requests as f64 / secs);
    match memory_per_member(100_000) {
        Some(b) => println!(
            "  memory: ~{:.0} bytes per member (RSS growth for a Stable 100,000-member group)",
            b
        ),
        None => println!("  memory: /proc/self/statm unavailable"),
    }
}
