//! Coordinator throughput: 1,000 members join, sync and heartbeat (every 3 s) for one simulated hour;
//! every simulated minute one member crashes (stops heartbeating) and a replacement joins.
//! Prints requests handled per second and an approximate memory cost per member.
//!
//! Two measurements of the same workload:
//!
//! * *Coordinator only*: the closed loop (simulated clients reacting to the coordinator's responses)
//!   runs untimed and records its inputs (requests, already built, and timer calls); every 1,000
//!   inputs a second coordinator replays them under the clock: `handle_request`, `poll_timeout` +
//!   `handle_timeout`, and draining every response and event (`poll_output`, `poll_event`, dropping
//!   what they return). Building requests and the clients' logic are thus excluded; the replay's
//!   event count is checked against the closed loop's.
//! * *End to end*: the closed loop alone, clients and request building included.
//!
//! Run with `cargo bench -p rebalance-engine --bench coordinator`. Environment knobs (for profiling,
//! e.g. under `valgrind --tool=callgrind`, and for checking that an optimisation changed nothing):
//! `COORDINATOR_BENCH_SIM_MS` (simulated duration, default one hour), `COORDINATOR_BENCH_MEM_MEMBERS`
//! (group size of the memory measurement, default 100,000; 0 skips it), `COORDINATOR_BENCH_DIGEST=1`
//! (print a digest of every event's `Debug` form and every response, in order, from the closed loop).

// A bench times the engine with the wall clock, which clippy.toml bans in the engine itself.
#![allow(clippy::disallowed_types, clippy::disallowed_methods)]

use rebalance_engine::collections::Map;
use std::collections::VecDeque;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::time::{Duration, Instant};

use rebalance_engine::protocol::*;
use rebalance_engine::{Coordinator, CoordinatorConfig, Outgoing, Request, Response, SimTime};

const GROUP: &str = "bench-group";
const MEMBERS: usize = 1_000;
const HOUR_MS: u64 = 3_600_000;
const HEARTBEAT_MS: u64 = 3_000;
/// Inputs recorded before each timed replay.
const REPLAY_CHUNK: usize = 1_000;

/// Simulated duration in ms: one hour, or `COORDINATOR_BENCH_SIM_MS` (for profiling under callgrind).
fn sim_ms() -> u64 {
    env_or("COORDINATOR_BENCH_SIM_MS", HOUR_MS)
}

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

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
    /// Responses waiting for their client's reaction, in FIFO order (a reaction may send a request
    /// whose responses queue behind the others).
    outs: VecDeque<Outgoing>,
    /// Digest of the event log and the responses, when `COORDINATOR_BENCH_DIGEST` is set.
    digest: Option<DefaultHasher>,
    /// The recorded inputs, when replaying.
    log: Option<Vec<Input>>,
}

/// One input of the coordinator, as recorded from the closed loop. Not boxed: a box would add a free
/// per request to the timed replay.
#[allow(clippy::large_enum_variant)]
enum Input {
    Request {
        now: SimTime,
        from: ConnectionId,
        correlation_id: i32,
        request: Request,
    },
    Timeout(SimTime),
}

/// The second coordinator, fed the recorded inputs under the clock.
struct Replay {
    coord: Coordinator,
    time: Duration,
    requests: u64,
    events: u64,
    responses: u64,
}

impl Replay {
    fn run(&mut self, inputs: &mut Vec<Input>) {
        let started = Instant::now();
        for input in inputs.drain(..) {
            match input {
                Input::Request {
                    now,
                    from,
                    correlation_id,
                    request,
                } => {
                    self.requests += 1;
                    self.coord.handle_request(now, from, correlation_id, request);
                }
                Input::Timeout(now) => {
                    let due = self.coord.poll_timeout();
                    debug_assert!(due.is_some_and(|d| d <= now));
                    self.coord.handle_timeout(now);
                }
            }
            while self.coord.poll_output().is_some() {
                self.responses += 1;
            }
            while self.coord.poll_event().is_some() {
                self.events += 1;
            }
        }
        self.time += started.elapsed();
    }
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
        let from = ConnectionId(idx as u64);
        if let Some(log) = &mut self.log {
            log.push(Input::Request {
                now: self.now,
                from,
                correlation_id: self.corr,
                request: req.clone(),
            });
        }
        self.coord.handle_request(self.now, from, self.corr, req);
        self.drain();
    }

    /// Drains the coordinator's outputs; the clients react to the responses in order.
    fn drain(&mut self) {
        while let Some(out) = self.coord.poll_output() {
            self.outs.push_back(out);
        }
        while let Some(e) = self.coord.poll_event() {
            self.events += 1;
            if let Some(h) = &mut self.digest {
                format!("{e:?}").hash(h);
            }
        }
        while let Some(out) = self.outs.pop_front() {
            if let Some(h) = &mut self.digest {
                format!("{out:?}").hash(h);
            }
            self.on_response(out.to.0 as usize, out.response);
        }
    }

    /// A new process: a member with no id yet, which joins at once.
    fn add_member(&mut self) {
        let idx = self.members.len();
        self.members.push(Member {
            id: String::new(),
            generation: -1,
            phase: Phase::Joining,
            leader: false,
            members: Vec::new(),
        });
        self.join(idx);
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
            if let Some(log) = &mut self.log {
                log.push(Input::Timeout(self.now));
            }
            self.coord.handle_timeout(self.now);
            self.drain();
        }
        self.now = t;
    }
}

struct RunStats {
    requests: u64,
    events: u64,
    wall: Duration,
    digest: Option<u64>,
}

fn new_coordinator() -> Coordinator {
    let mut coord = Coordinator::new(CoordinatorConfig::default());
    let p = coord.partition_for(GROUP);
    coord.load(SimTime::ZERO, p, Vec::new());
    coord
}

/// Runs the closed loop; with `replay`, records its inputs and replays them (timed) into `replay`.
fn run(sim_ms: u64, mut replay: Option<&mut Replay>) -> RunStats {
    let mut sim = Sim {
        coord: new_coordinator(),
        now: SimTime::ZERO,
        members: Vec::new(),
        requests: 0,
        events: 0,
        corr: 0,
        outs: VecDeque::new(),
        digest: (replay.is_none() && env_or("COORDINATOR_BENCH_DIGEST", 0) != 0).then(DefaultHasher::new),
        log: replay
            .as_ref()
            .map(|_| Vec::with_capacity(REPLAY_CHUNK + MEMBERS * 4)),
    };
    let started = Instant::now();
    for _ in 0..MEMBERS {
        sim.add_member();
    }
    let mut next_crash = 60_000u64;
    let mut crash_victim = 0usize;
    // 100 ms steps; each member heartbeats every 3 s, staggered by index.
    let step = 100u64;
    let mut t = 0u64;
    let slots = HEARTBEAT_MS / step;
    while t < sim_ms {
        t += step;
        sim.advance_to(SimTime(t));
        if t >= next_crash {
            next_crash += 60_000;
            // The victim stops talking; a replacement process joins as a new member.
            sim.members[crash_victim].phase = Phase::Crashed;
            crash_victim += 1;
            sim.add_member();
        }
        let slot = (t / step) % slots;
        for idx in (slot as usize..sim.members.len()).step_by(slots as usize) {
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
        if let (Some(r), Some(log)) = (replay.as_deref_mut(), sim.log.as_mut()) {
            if log.len() >= REPLAY_CHUNK || t >= sim_ms {
                r.run(log);
            }
        }
    }
    let wall = started.elapsed();
    let d = sim.coord.describe_group(GROUP);
    if replay.is_none() {
        println!(
            "  end state: {} at generation {}, {} members",
            d.group_state,
            sim.coord.group_snapshot(GROUP).map_or(-1, |s| s.generation_id),
            d.members.len()
        );
    }
    RunStats {
        requests: sim.requests,
        events: sim.events,
        wall,
        digest: sim.digest.map(|h| h.finish()),
    }
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
    let mut ids = Map::new();
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
    let sim_ms = sim_ms();
    println!(
        "coordinator: {MEMBERS} members, {} simulated s, a crash + replacement every simulated minute",
        sim_ms / 1000
    );
    let per_s = |n: u64, d: Duration| n as f64 / d.as_secs_f64();

    let mut replay = Replay {
        coord: new_coordinator(),
        time: Duration::ZERO,
        requests: 0,
        events: 0,
        responses: 0,
    };
    let recorded = run(sim_ms, Some(&mut replay));
    assert_eq!(
        (replay.requests, replay.events),
        (recorded.requests, recorded.events),
        "the replay diverged from the closed loop"
    );
    println!(
        "  requests handled: {} ({} events, {} responses) over {} simulated s",
        replay.requests,
        replay.events,
        replay.responses,
        sim_ms / 1000
    );
    println!(
        "  coordinator only (replay of the recorded inputs): {:.3} s wall clock -> {:.0} requests/s, {:.0} events/s",
        replay.time.as_secs_f64(),
        per_s(replay.requests, replay.time),
        per_s(replay.events, replay.time)
    );

    let r = run(sim_ms, None);
    println!(
        "  end to end (closed loop, simulated clients included): {:.3} s wall clock -> {:.0} requests/s, {:.0} events/s",
        r.wall.as_secs_f64(),
        per_s(r.requests, r.wall),
        per_s(r.events, r.wall)
    );
    if let Some(d) = r.digest {
        println!("  digest of events and responses: {d:016x}");
    }
    let n = env_or("COORDINATOR_BENCH_MEM_MEMBERS", 100_000usize);
    if n == 0 {
        return;
    }
    match memory_per_member(n) {
        Some(b) => println!("  memory: ~{b:.0} bytes per member (RSS growth for a Stable {n}-member group)"),
        None => println!("  memory: /proc/self/statm unavailable"),
    }
}
