//! A test harness around one or more coordinators with a virtual clock: it owns time, sends
//! requests, collects every response (including long-poll ones released later) and the event log.
//! `golden` compares text with committed golden files; `sim` serves tests that run whole
//! simulations.

#![allow(dead_code)]

pub mod golden;
pub mod sim;

use rebalance_engine::collections::Map;

use rebalance_engine::protocol::*;
use rebalance_engine::{
    Coordinator, CoordinatorConfig, Event, EventKind, GroupSnapshot, RecordBody, Request, Response,
    SimDuration, SimTime, TimerKey,
};

/// The group most tests use (the group id of Kafka's own unit tests).
pub const G: &str = "group-id";
pub const SESSION_MS: i32 = 10_000;
pub const REBALANCE_MS: i32 = 30_000;
/// `SESSION_MS` as a duration: a session armed at `t` expires at `t + SESSION`.
pub const SESSION: SimDuration = SimDuration::from_millis(SESSION_MS as u64);

/// A request's address: which connection sent it and its correlation id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Ticket {
    pub conn: u64,
    pub corr: i32,
}

pub struct Harness {
    pub coord: Coordinator,
    pub now: SimTime,
    next_corr: i32,
    /// Responses delivered and not yet taken.
    pub inbox: Map<Ticket, Response>,
    /// Every event so far.
    pub events: Vec<Event>,
}

pub fn config() -> CoordinatorConfig {
    CoordinatorConfig {
        node_id: NodeId(1),
        ..CoordinatorConfig::default()
    }
}

impl Harness {
    /// `G` as ConsumerGroupDescribe (API 69) answers it.
    pub fn describe_consumer_group(&mut self) -> ConsumerGroupDescribedGroup {
        let t = self.send(
            99,
            Request::ConsumerGroupDescribe(ConsumerGroupDescribeRequest {
                group_ids: vec![G.into()],
                include_authorized_operations: false,
            }),
        );
        match self.take(t) {
            Some(Response::ConsumerGroupDescribe(mut r)) => r.groups.remove(0),
            other => panic!("not a ConsumerGroupDescribe response: {other:?}"),
        }
    }

    /// A coordinator leading `G`'s partition, with Kafka's default configuration.
    pub fn new() -> Self {
        Self::with_config(config())
    }

    pub fn with_config(cfg: CoordinatorConfig) -> Self {
        let mut coord = Coordinator::new(cfg);
        let p = coord.partition_for(G);
        coord.load(SimTime::ZERO, p, Vec::new());
        let mut h = Self {
            coord,
            now: SimTime::ZERO,
            next_corr: 0,
            inbox: Map::new(),
            events: Vec::new(),
        };
        h.pump();
        h.events.clear();
        h
    }

    /// A harness with no initial delay, for tests that are not about it.
    pub fn no_delay() -> Self {
        Self::with_config(CoordinatorConfig {
            group_initial_rebalance_delay_ms: 0,
            ..config()
        })
    }

    pub fn pump(&mut self) {
        while let Some(out) = self.coord.poll_output() {
            let t = Ticket {
                conn: out.to.0,
                corr: out.correlation_id,
            };
            assert!(
                self.inbox.insert(t, out.response).is_none(),
                "two responses for {t:?}"
            );
        }
        self.events.extend(self.coord.drain_events());
    }

    pub fn send(&mut self, conn: u64, req: Request) -> Ticket {
        self.next_corr += 1;
        let t = Ticket {
            conn,
            corr: self.next_corr,
        };
        self.coord
            .handle_request(self.now, ConnectionId(conn), t.corr, req);
        self.pump();
        t
    }

    /// Moves the clock forward by `ms`, firing every timer due on the way at its own deadline.
    pub fn advance(&mut self, ms: u64) {
        self.advance_to(self.now + SimDuration::from_millis(ms));
    }

    pub fn advance_to(&mut self, target: SimTime) {
        while let Some(t) = self.coord.poll_timeout() {
            if t > target {
                break;
            }
            self.now = self.now.max(t);
            self.coord.handle_timeout(self.now);
            self.pump();
        }
        self.now = target;
    }

    /// Advances timer by timer until the group leaves PreparingRebalance (the initial delay may be
    /// extended by members that arrived during it).
    pub fn run_join_phase(&mut self) {
        while self.state() == GroupState::PreparingRebalance {
            let t = self.coord.poll_timeout().expect("a join-phase timer");
            self.advance_to(t);
        }
    }

    pub fn take(&mut self, t: Ticket) -> Option<Response> {
        self.inbox.remove(&t)
    }

    pub fn answered(&self, t: Ticket) -> bool {
        self.inbox.contains_key(&t)
    }

    pub fn join_resp(&mut self, t: Ticket) -> JoinGroupResponse {
        match self.take(t) {
            Some(Response::JoinGroup(r)) => r,
            other => panic!("expected a JoinGroup response for {t:?}, got {other:?}"),
        }
    }

    pub fn sync_resp(&mut self, t: Ticket) -> SyncGroupResponse {
        match self.take(t) {
            Some(Response::SyncGroup(r)) => r,
            other => panic!("expected a SyncGroup response for {t:?}, got {other:?}"),
        }
    }

    // ------------------------------------------------------------------------- requests

    pub fn join(&mut self, conn: u64, req: JoinGroupRequest) -> Ticket {
        self.send(conn, Request::JoinGroup(req))
    }

    /// The KIP-394 two-step join of a new dynamic member: returns its id and the ticket of the
    /// (possibly parked) second JoinGroup.
    pub fn join_dynamic(&mut self, conn: u64, client_id: &str) -> (String, Ticket) {
        self.join_dynamic_with(conn, join_req("").client(client_id))
    }

    /// The same two-step join with `req` (member id ""), sent again with the id handed out.
    pub fn join_dynamic_with(&mut self, conn: u64, req: JoinGroupRequest) -> (String, Ticket) {
        let first = self.join(conn, req.clone());
        let r = self.join_resp(first);
        assert_eq!(r.error_code, ErrorCode::MemberIdRequired);
        let second = self.join(
            conn,
            JoinGroupRequest {
                member_id: r.member_id.clone(),
                ..req
            },
        );
        (r.member_id, second)
    }

    pub fn sync(
        &mut self,
        conn: u64,
        member: &str,
        generation: i32,
        assignments: Vec<SyncGroupAssignment>,
    ) -> Ticket {
        self.send(
            conn,
            Request::SyncGroup(SyncGroupRequest {
                group_id: G.into(),
                generation_id: generation,
                member_id: member.into(),
                assignments,
                ..Default::default()
            }),
        )
    }

    pub fn heartbeat(&mut self, conn: u64, member: &str, generation: i32) -> ErrorCode {
        self.heartbeat_static(conn, member, None, generation)
    }

    pub fn heartbeat_static(
        &mut self,
        conn: u64,
        member: &str,
        instance: Option<&str>,
        generation: i32,
    ) -> ErrorCode {
        let t = self.send(
            conn,
            Request::Heartbeat(HeartbeatRequest {
                group_id: G.into(),
                generation_id: generation,
                member_id: member.into(),
                group_instance_id: instance.map(Into::into),
            }),
        );
        match self.take(t) {
            Some(Response::Heartbeat(r)) => r.error_code,
            other => panic!("expected a Heartbeat response, got {other:?}"),
        }
    }

    pub fn leave(&mut self, conn: u64, members: &[(&str, Option<&str>)]) -> LeaveGroupResponse {
        let t = self.send(
            conn,
            Request::LeaveGroup(LeaveGroupRequest {
                group_id: G.into(),
                members: members
                    .iter()
                    .map(|(m, i)| MemberIdentity {
                        member_id: (*m).into(),
                        group_instance_id: i.map(Into::into),
                        reason: None,
                    })
                    .collect(),
            }),
        );
        match self.take(t) {
            Some(Response::LeaveGroup(r)) => r,
            other => panic!("expected a LeaveGroup response, got {other:?}"),
        }
    }

    pub fn commit(&mut self, conn: u64, member: &str, generation: i32, offset: i64) -> ErrorCode {
        let req = OffsetCommitRequest {
            group_id: G.into(),
            generation_id: generation,
            member_id: member.into(),
            partitions: vec![OffsetCommitPartition {
                topic: "foo".into(),
                partition: 0,
                committed_offset: offset,
                committed_leader_epoch: -1,
                committed_metadata: String::new(),
            }],
            ..Default::default()
        };
        self.commit_req(conn, req)
    }

    pub fn commit_req(&mut self, conn: u64, req: OffsetCommitRequest) -> ErrorCode {
        let t = self.send(conn, Request::OffsetCommit(req));
        match self.take(t) {
            Some(Response::OffsetCommit(r)) => {
                let first = r.partitions[0].error_code;
                assert!(r.partitions.iter().all(|p| p.error_code == first));
                first
            }
            other => panic!("expected an OffsetCommit response, got {other:?}"),
        }
    }

    /// The committed offset of foo-0, or -1, through OffsetFetch.
    pub fn fetch(&mut self, conn: u64) -> i64 {
        let t = self.send(
            conn,
            Request::OffsetFetch(OffsetFetchRequest {
                group_id: G.into(),
                partitions: Some(vec![TopicPartition::new("foo", 0)]),
                require_stable: false,
            }),
        );
        match self.take(t) {
            Some(Response::OffsetFetch(r)) => r.partitions[0].committed_offset,
            other => panic!("expected an OffsetFetch response, got {other:?}"),
        }
    }

    /// FindCoordinator for `key`.
    pub fn find_coordinator(&mut self, conn: u64, key: &str) -> FindCoordinatorResponse {
        let t = self.send(
            conn,
            Request::FindCoordinator(FindCoordinatorRequest { key: key.into() }),
        );
        match self.take(t) {
            Some(Response::FindCoordinator(r)) => r,
            other => panic!("expected a FindCoordinator response, got {other:?}"),
        }
    }

    // ------------------------------------------------------------------------- other inputs

    /// Forces `G` Dead (see `Coordinator::mark_group_dead`).
    pub fn mark_dead(&mut self) {
        self.coord.mark_group_dead(self.now, G);
        self.pump();
    }

    /// The append at `offset` of `G`'s partition failed with `e`.
    pub fn append_failed(&mut self, offset: u64, e: ErrorCode) {
        let p = self.partition();
        self.coord.handle_append_error(self.now, p, offset, e);
        self.pump();
    }

    /// `G`'s partition's high watermark moved to `hw`.
    pub fn high_watermark(&mut self, hw: u64) {
        let p = self.partition();
        self.coord.handle_high_watermark(self.now, p, hw);
        self.pump();
    }

    // ------------------------------------------------------------------------- observations

    /// `G`'s `__consumer_offsets` partition.
    pub fn partition(&self) -> i32 {
        self.coord.partition_for(G)
    }

    /// The body of the last record in `G`'s partition.
    pub fn last_record(&self) -> &RecordBody {
        let log = self.coord.log(self.partition()).expect("the partition is led");
        &log.last().expect("a record").body
    }

    /// When `member`'s session (or pending-member) timer fires.
    pub fn session_deadline(&self, member: &str) -> SimTime {
        let key = TimerKey::Heartbeat {
            group_id: G.into(),
            member_id: member.into(),
        };
        self.coord.timer(&key).expect("a session timer").0
    }

    /// The first event of a kind `f` accepts.
    pub fn first_event(&self, f: impl Fn(&EventKind) -> bool) -> Option<&Event> {
        self.events.iter().find(|e| f(&e.kind))
    }

    /// Whether any event so far is of a kind `f` accepts.
    pub fn saw(&self, f: impl Fn(&EventKind) -> bool) -> bool {
        self.first_event(f).is_some()
    }

    pub fn describe(&self) -> DescribedGroup {
        self.coord.describe_group(G)
    }

    pub fn state(&self) -> GroupState {
        self.describe().group_state
    }

    pub fn snapshot(&self) -> GroupSnapshot {
        self.coord.group_snapshot(G).expect("group exists")
    }

    pub fn generation(&self) -> i32 {
        self.snapshot().generation_id
    }

    pub fn leader(&self) -> Option<String> {
        self.snapshot().leader
    }

    pub fn member_ids(&self) -> Vec<String> {
        self.describe().members.into_iter().map(|m| m.member_id).collect()
    }

    pub fn event_lines(&self) -> Vec<String> {
        self.events.iter().map(|e| e.to_string()).collect()
    }

    // ------------------------------------------------------------------------- scenarios

    /// `n` dynamic members (connections 1..=n, client ids `c1`..) join within the initial delay and
    /// the join phase completes: CompletingRebalance, nobody synced. Returns the member ids in join
    /// order.
    pub fn joined_group(&mut self, n: usize) -> Vec<String> {
        let mut ids = Vec::new();
        let mut tickets = Vec::new();
        for i in 1..=n {
            let (id, t) = self.join_dynamic(i as u64, &format!("c{i}"));
            ids.push(id);
            tickets.push(t);
        }
        self.run_join_phase();
        let generation = self.generation();
        for (i, t) in tickets.into_iter().enumerate() {
            let r = self.join_resp(t);
            assert_eq!(r.error_code, ErrorCode::None, "join of {}", ids[i]);
            assert_eq!(r.generation_id, generation);
        }
        assert_eq!(self.state(), GroupState::CompletingRebalance);
        ids
    }

    /// Forms a Stable group of `n` dynamic members (connections 1..=n, client ids `c1`..): all join
    /// within the initial delay, the leader (c1) assigns partition i of `foo` to the i-th member,
    /// and everyone syncs. Returns the member ids in join order.
    pub fn stable_group(&mut self, n: usize) -> Vec<String> {
        let ids = self.joined_group(n);
        let generation = self.generation();
        let assignments = assign_one_each(&ids);
        for (i, id) in ids.iter().enumerate().skip(1) {
            self.sync((i + 1) as u64, id, generation, Vec::new());
        }
        let t = self.sync(1, &ids[0], generation, assignments);
        assert_eq!(self.sync_resp(t).error_code, ErrorCode::None);
        assert_eq!(self.state(), GroupState::Stable);
        self.inbox.clear();
        ids
    }

    /// Forms a Stable group of two static members, `i1` (connection 1, client `c1`, the leader)
    /// and `i2` (connection 2, client `c2`): both join within the initial delay, the leader assigns
    /// foo-0 to itself and foo-1 to `i2`, and both sync. Returns their member ids.
    pub fn static_pair(&mut self) -> (String, String) {
        let ta = self.join(1, join_req("").client("c1").instance("i1"));
        let tb = self.join(2, join_req("").client("c2").instance("i2"));
        self.run_join_phase();
        let a = self.join_resp(ta).member_id;
        let b = self.join_resp(tb).member_id;
        self.sync(2, &b, 1, vec![]);
        let t = self.sync(1, &a, 1, assign_one_each(&[a.clone(), b.clone()]));
        assert_eq!(self.sync_resp(t).error_code, ErrorCode::None);
        self.inbox.clear();
        assert_eq!(self.state(), GroupState::Stable);
        (a, b)
    }
}

/// Partition i of `foo` for the i-th member.
pub fn assign_one_each(ids: &[String]) -> Vec<SyncGroupAssignment> {
    ids.iter()
        .enumerate()
        .map(|(i, id)| SyncGroupAssignment {
            member_id: id.clone(),
            assignment: ConsumerAssignment {
                partitions: vec![TopicPartition::new("foo", i as i32)],
                user_data: vec![],
            },
        })
        .collect()
}

pub fn protocols(names: &[&str]) -> Vec<JoinGroupProtocol> {
    names
        .iter()
        .map(|n| JoinGroupProtocol {
            name: (*n).into(),
            metadata: ConsumerSubscription::to_topics(["foo"]),
        })
        .collect()
}

/// A JoinGroup for `G` with protocol `range` and the harness's timeouts.
pub fn join_req(member: &str) -> JoinGroupRequest {
    JoinGroupRequest {
        group_id: G.into(),
        member_id: member.into(),
        client_id: "client".into(),
        client_host: "/127.0.0.1".into(),
        protocols: protocols(&["range"]),
        session_timeout_ms: SESSION_MS,
        rebalance_timeout_ms: REBALANCE_MS,
        ..Default::default()
    }
}

pub trait JoinExt {
    fn client(self, c: &str) -> Self;
    fn instance(self, i: &str) -> Self;
    fn version(self, v: i16) -> Self;
    fn with_protocols(self, names: &[&str]) -> Self;
    fn topics(self, topics: &[&str]) -> Self;
}

impl JoinExt for JoinGroupRequest {
    fn client(mut self, c: &str) -> Self {
        self.client_id = c.into();
        self
    }
    fn instance(mut self, i: &str) -> Self {
        self.group_instance_id = Some(i.into());
        self
    }
    fn version(mut self, v: i16) -> Self {
        self.api_version = v;
        self
    }
    fn with_protocols(mut self, names: &[&str]) -> Self {
        self.protocols = protocols(names);
        self
    }
    fn topics(mut self, topics: &[&str]) -> Self {
        for p in &mut self.protocols {
            p.metadata.topics = topics.iter().map(|t| (*t).to_string()).collect();
        }
        self
    }
}
