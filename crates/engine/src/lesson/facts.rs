//! What a lesson step can match on: a few named facts pulled out of one [`SimEvent`].
//!
//! Steps are anchored by *meaning* (the event's kind plus fields such as the consumer, the API,
//! the error code, the group state or the generation), never by a sequence number, so a lesson
//! keeps working when an unrelated engine change adds or removes events. See
//! `docs/lesson-format.md` for the list of kinds and fields.

use crate::collections::Map;

use serde_json::Value;

use crate::network::{Endpoint, Payload};
use crate::protocol::ErrorCode;
use crate::sim::{NetworkEvent, SimEvent, SimEventKind};

use super::Matcher;

/// Every event kind a matcher may name, by source (the `event` field of a step's `when`).
pub const EVENT_KINDS: &[(&str, &[&str])] = &[
    (
        "client",
        &[
            "started",
            "coordinator_discovered",
            "coordinator_lost",
            "member_state_changed",
            "rejoin_requested",
            "member_id_assigned",
            "joined_group",
            "assignment_computed",
            "assignment_received",
            "partitions_revoked",
            "partitions_assigned",
            "partitions_lost",
            "generation_reset",
            "error_received",
            "fatal",
            "poll_timeout",
            "batch_fetched",
            "batch_processed",
            "batch_abandoned",
            "commit_sent",
            "commit_completed",
            "commit_skipped",
            "positions_initialized",
            "metadata_changed",
            "subscription_changed",
            "paused",
            "resumed",
            "closed",
            "killed",
            "response_ignored",
            "request_timed_out",
            // A consumer-protocol (KIP-848) member's own events.
            "membership_started",
            "membership_state_changed",
            "membership_assignment_received",
            "reconciliation_started",
            "reconciliation_completed",
            "reconciliation_discarded",
            "poll_timer_expired",
        ],
    ),
    (
        "coordinator",
        &[
            "request_received",
            "request_parked",
            "parked_request_dropped",
            "response_sent",
            "group_created",
            "state_changed",
            "generation_changed",
            "protocol_selected",
            "leader_changed",
            "member_added",
            "member_updated",
            "static_member_replaced",
            "member_removed",
            "pending_member_added",
            "pending_member_removed",
            "assignment_stored",
            "assignments_reset",
            "offsets_committed",
            "offsets_expired",
            "group_removed",
            "group_loaded",
            "timer_set",
            "timer_fired",
            "timer_cancelled",
            "record_appended",
            "partition_loaded",
            "partition_unloaded",
            // Consumer groups (KIP-848).
            "consumer_member_joined",
            "consumer_static_member_replaced",
            "consumer_group_epoch_bumped",
            "consumer_target_assignment_computed",
            "consumer_member_reconciled",
            "consumer_static_member_left",
            "consumer_member_fenced",
            "consumer_group_state_changed",
            "consumer_group_loaded",
            "group_type_converted",
        ],
    ),
    (
        "network",
        &["request", "response", "delivered", "lost", "undeliverable"],
    ),
    (
        "world",
        &[
            "consumer_started",
            "topic_created",
            "topic_deleted",
            "partitions_added",
            "produce_rate_changed",
            "subscription_set",
            "network_changed",
            "coordinator_unloaded",
            "coordinator_loaded",
            "scripted_request",
            "action_rejected",
            "end",
        ],
    ),
];

/// Whether `kind` is a known event kind (compared loosely, see [`loose_eq`]).
pub fn is_known_kind(kind: &str) -> bool {
    EVENT_KINDS
        .iter()
        .flat_map(|(_, ks)| ks.iter())
        .any(|k| loose_eq(k, kind))
}

/// Compares two names ignoring case, `_` and `-`: `PREPARING_REBALANCE` equals
/// `PreparingRebalance`, `joined_group` equals `JoinedGroup`, `REBALANCE_IN_PROGRESS` equals
/// `RebalanceInProgress`.
pub fn loose_eq(a: &str, b: &str) -> bool {
    let norm = |s: &str| {
        s.chars()
            .filter(|c| *c != '_' && *c != '-')
            .flat_map(char::to_lowercase)
            .collect::<String>()
    };
    norm(a) == norm(b)
}

fn snake(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 4);
    for (i, c) in s.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// Member id → consumer name, learned from a whole log (`MEMBER_ID_REQUIRED` hand-outs, joins and
/// the client id of added members), so coordinator events can be matched by consumer name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemberNames(Map<String, String>);

impl MemberNames {
    /// Learns every member id of `log`.
    pub fn from_log(log: &[SimEvent]) -> Self {
        let mut names = Map::new();
        let mut consumers = Vec::new();
        for e in log {
            if let SimEventKind::Client { consumer, event } = &e.kind {
                use crate::client::ClientEvent as C;
                match event {
                    C::MemberIdAssigned { member_id }
                    | C::JoinedGroup { member_id, .. }
                    | C::ConsumerProtocol(crate::client::ConsumerProtocolEvent::Started {
                        member_id, ..
                    }) => {
                        names.insert(member_id.clone(), consumer.clone());
                    }
                    C::Started { .. } => consumers.push(consumer.clone()),
                    _ => {}
                }
            }
        }
        // Static members get their id without MEMBER_ID_REQUIRED: fall back on the client id
        // (which is the consumer's name unless the scenario sets `client_id`).
        for e in log {
            if let SimEventKind::Coordinator {
                event:
                    crate::event::EventKind::MemberAdded {
                        member_id, client_id, ..
                    },
                ..
            } = &e.kind
            {
                if !names.contains_key(member_id) && consumers.contains(client_id) {
                    names.insert(member_id.clone(), client_id.clone());
                }
            }
        }
        Self(names)
    }

    /// The consumer that holds (or held) `member_id`.
    pub fn consumer_of(&self, member_id: &str) -> Option<&str> {
        self.0.get(member_id).map(String::as_str)
    }
}

/// The facts of one event that a [`Matcher`] can test.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EventFacts {
    /// `client`, `coordinator`, `network` or `world`.
    pub source: &'static str,
    /// The kind, in snake_case (`joined_group`, `state_changed`, `request`, ...).
    pub kind: String,
    /// The consumers involved (the client; a network message's consumer end; the consumer
    /// holding the member id of a coordinator event).
    pub consumers: Vec<String>,
    /// The Kafka API (`JoinGroup`, `Heartbeat`, ...).
    pub api: Option<String>,
    /// The error code, by Kafka's name (`REBALANCE_IN_PROGRESS`); `NONE` for a success.
    pub error: Option<String>,
    /// The new state (group or client member state).
    pub state: Option<String>,
    /// The previous state.
    pub from_state: Option<String>,
    /// The generation the event is about.
    pub generation: Option<i64>,
    /// The leader (a consumer name where known, else the member id).
    pub leader: Option<String>,
    /// The reason's name (`MemberAdded`, `SessionExpired`, `LeaveGroup`, ...).
    pub reason: Option<String>,
    /// A topic.
    pub topic: Option<String>,
    /// Partitions, as `topic-partition`.
    pub partitions: Option<Vec<String>>,
    /// The protocol (assignor).
    pub protocol: Option<String>,
    /// Duplicates in a processed batch.
    pub duplicates: Option<u64>,
    /// A consumer-protocol epoch the event carries: the member epoch of a heartbeat, its
    /// response, a member's reconciliation or state change; the group epoch of a bump; the
    /// target assignment epoch of a computed target.
    pub epoch: Option<i64>,
}

fn tp_string(v: &Value) -> Option<String> {
    Some(format!(
        "{}-{}",
        v.get("topic")?.as_str()?,
        v.get("partition")?.as_i64()?
    ))
}

fn error_name(v: &Value) -> Option<String> {
    let code: ErrorCode = serde_json::from_value(v.clone()).ok()?;
    Some(code.name().to_owned())
}

fn reason_name(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Object(m) => m.keys().next().cloned(),
        _ => None,
    }
}

/// Extracts the facts of `event`.
pub fn facts(event: &SimEvent, names: &MemberNames) -> EventFacts {
    let mut f = EventFacts::default();
    let member = |id: &str| names.consumer_of(id).unwrap_or(id).to_owned();
    if let SimEventKind::Network { event: n } = &event.kind {
        f.source = "network";
        match n {
            NetworkEvent::Sent { message } => {
                for end in [&message.from, &message.to] {
                    if let Endpoint::Consumer(c) = end {
                        f.consumers.push(c.clone());
                    }
                }
                f.api = Some(message.payload.api().name().to_owned());
                match &message.payload {
                    Payload::Request(_) => f.kind = "request".into(),
                    Payload::Response(r) => {
                        f.kind = "response".into();
                        f.error = Some(r.error_code().name().to_owned());
                    }
                }
                let v = serde_json::to_value(&message.payload).unwrap_or(Value::Null);
                let inner = v
                    .as_object()
                    .and_then(|o| o.values().next())
                    .and_then(|r| r.as_object())
                    .and_then(|o| o.values().next());
                if let Some(inner) = inner {
                    f.generation = inner.get("generation_id").and_then(Value::as_i64);
                    if let Some(l) = inner.get("leader").and_then(Value::as_str) {
                        if !l.is_empty() {
                            f.leader = Some(member(l));
                        }
                    }
                    f.protocol = inner
                        .get("protocol_name")
                        .and_then(Value::as_str)
                        .map(str::to_owned);
                    f.epoch = inner.get("member_epoch").and_then(Value::as_i64);
                }
            }
            NetworkEvent::Delivered { from, to, api, .. } => {
                f.kind = "delivered".into();
                f.api = Some(api.name().to_owned());
                for end in [from, to] {
                    if let Endpoint::Consumer(c) = end {
                        f.consumers.push(c.clone());
                    }
                }
            }
            NetworkEvent::Lost { from, to, api, .. } => {
                f.kind = "lost".into();
                f.api = Some(api.name().to_owned());
                for end in [from, to] {
                    if let Endpoint::Consumer(c) = end {
                        f.consumers.push(c.clone());
                    }
                }
            }
            NetworkEvent::Undeliverable { to, api, .. } => {
                f.kind = "undeliverable".into();
                f.api = Some(api.name().to_owned());
                if let Endpoint::Consumer(c) = to {
                    f.consumers.push(c.clone());
                }
            }
        }
        return f;
    }
    let v = serde_json::to_value(event).unwrap_or(Value::Null);
    f.source = match &event.kind {
        SimEventKind::Client { consumer, .. } => {
            f.consumers.push(consumer.clone());
            "client"
        }
        SimEventKind::Coordinator { .. } => "coordinator",
        SimEventKind::World { .. } => "world",
        SimEventKind::Network { .. } => "network",
    };
    let (mut kind, mut body) = match v.get("event") {
        Some(Value::String(s)) => (snake(s), Value::Null),
        Some(Value::Object(m)) => match m.iter().next() {
            Some((k, b)) => (snake(k), b.clone()),
            None => (String::new(), Value::Null),
        },
        _ => (String::new(), Value::Null),
    };
    // A consumer-protocol member's own event (`ClientEvent::ConsumerProtocol`): its kind is the
    // inner one, named so as not to be confused with the classic client's or the coordinator's.
    if f.source == "client" && kind == "consumer_protocol" {
        let inner = match &body {
            Value::String(s) => Some((snake(s), Value::Null)),
            Value::Object(m) => m.iter().next().map(|(k, b)| (snake(k), b.clone())),
            _ => None,
        };
        if let Some((k, b)) = inner {
            kind = match k.as_str() {
                "started" | "state_changed" | "assignment_received" => format!("membership_{k}"),
                _ => k,
            };
            body = b;
        }
    }
    f.kind = kind;
    let str_of = |k: &str| body.get(k).and_then(Value::as_str).map(str::to_owned);
    for key in ["member_id", "new_member_id"] {
        if let Some(id) = str_of(key) {
            if !id.is_empty() {
                let c = member(&id);
                if !f.consumers.contains(&c) {
                    f.consumers.push(c);
                }
            }
        }
    }
    if let Some(ids) = body.get("member_ids").and_then(Value::as_array) {
        for id in ids.iter().filter_map(Value::as_str) {
            f.consumers.push(member(id));
        }
    }
    if let Some(reason) = body.get("reason") {
        if let Some(id) = reason
            .as_object()
            .and_then(|o| o.values().next())
            .and_then(|r| r.get("member_id"))
            .and_then(Value::as_str)
        {
            let c = member(id);
            if !f.consumers.contains(&c) {
                f.consumers.push(c);
            }
        }
        f.reason = reason_name(reason);
    }
    for key in ["consumer", "name"] {
        if f.source == "world" {
            if let Some(c) = str_of(key) {
                f.consumers.push(c);
            }
        }
    }
    f.api = str_of("api");
    f.error = body
        .get("error")
        .or_else(|| body.get("error_code"))
        .and_then(error_name);
    if f.kind == "commit_completed" && f.error.is_none() {
        f.error = Some("NONE".into());
    }
    match f.kind.as_str() {
        "state_changed"
        | "member_state_changed"
        | "membership_state_changed"
        | "consumer_group_state_changed" => {
            f.state = str_of("to");
            f.from_state = str_of("from");
        }
        "group_loaded" | "consumer_member_reconciled" => f.state = str_of("state"),
        "generation_changed" => {
            f.generation = body.get("to").and_then(Value::as_i64);
            f.from_state = None;
        }
        "leader_changed" => f.leader = str_of("to").map(|l| member(&l)),
        "joined_group" => f.leader = str_of("leader").map(|l| member(&l)),
        _ => {}
    }
    if f.generation.is_none() {
        f.generation = body.get("generation_id").and_then(Value::as_i64);
    }
    f.topic = str_of("topic");
    f.protocol =
        str_of("protocol").or_else(|| body.get("strategy").and_then(Value::as_str).map(str::to_owned));
    if let Some(ps) = body.get("partitions").and_then(Value::as_array) {
        f.partitions = Some(ps.iter().filter_map(tp_string).collect());
    }
    f.duplicates = body.get("duplicates").and_then(Value::as_u64);
    f.epoch = ["member_epoch", "epoch", "assignment_epoch", "group_epoch"]
        .iter()
        .find_map(|k| body.get(*k).and_then(Value::as_i64));
    f
}

fn sort_partitions(ps: &[String]) -> Vec<(String, i64)> {
    let mut out: Vec<(String, i64)> = ps
        .iter()
        .map(|p| match p.rsplit_once('-') {
            Some((t, n)) => match n.parse() {
                Ok(n) => (t.to_owned(), n),
                Err(_) => (p.clone(), -1),
            },
            None => (p.clone(), -1),
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Whether two partition lists hold the same partitions (order and duplicates ignored).
pub fn same_partitions(a: &[String], b: &[String]) -> bool {
    sort_partitions(a) == sort_partitions(b)
}

/// Sorts partitions by topic, then partition number (`t-2` before `t-10`).
pub fn normalize_partitions(ps: &[String]) -> Vec<String> {
    sort_partitions(ps)
        .into_iter()
        .map(|(t, n)| if n < 0 { t } else { format!("{t}-{n}") })
        .collect()
}

impl Matcher {
    /// Whether `event` (with its `facts`) satisfies every field given.
    pub fn matches(&self, event: &SimEvent, f: &EventFacts) -> bool {
        fn opt(want: &Option<String>, got: &Option<String>) -> bool {
            match want {
                None => true,
                Some(w) => got.as_deref().is_some_and(|g| loose_eq(w, g)),
            }
        }
        if !loose_eq(&self.event, &f.kind) {
            return false;
        }
        if let Some(s) = &self.source {
            if !loose_eq(s, f.source) {
                return false;
            }
        }
        if let Some(c) = &self.consumer {
            if !f.consumers.iter().any(|x| x == c) {
                return false;
            }
        }
        if let Some(after) = self.after_ms {
            if event.at.0 < after {
                return false;
            }
        }
        if let Some(g) = self.generation {
            if f.generation != Some(g) {
                return false;
            }
        }
        if let Some(ep) = self.epoch {
            if f.epoch != Some(ep) {
                return false;
            }
        }
        if let Some(ps) = &self.partitions {
            match &f.partitions {
                Some(got) if same_partitions(ps, got) => {}
                _ => return false,
            }
        }
        if let Some(d) = self.has_duplicates {
            if f.duplicates.map(|n| n > 0) != Some(d) {
                return false;
            }
        }
        if let Some(t) = &self.text {
            if !event.line().contains(t.as_str()) {
                return false;
            }
        }
        let leader_ok = match &self.leader {
            None => true,
            Some(w) => f.leader.as_deref() == Some(w.as_str()),
        };
        leader_ok
            && opt(&self.api, &f.api)
            && opt(&self.error, &f.error)
            && opt(&self.state, &f.state)
            && opt(&self.from_state, &f.from_state)
            && opt(&self.reason, &f.reason)
            && match &self.topic {
                None => true,
                Some(t) => f.topic.as_deref() == Some(t.as_str()),
            }
            && match &self.protocol {
                None => true,
                Some(p) => f.protocol.as_deref() == Some(p.as_str()),
            }
    }
}
