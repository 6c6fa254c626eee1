//! A seeded, deterministic network between the consumers and the brokers.
//!
//! Every message gets a latency (fixed, or fixed plus a jitter drawn from the seed) and may suffer a
//! fault (dropped, or delayed by an extra amount), again drawn from the seed. Each direction of each
//! connection is FIFO, like a TCP connection: a message never overtakes an earlier one on the same
//! connection, so a delayed message holds up the ones behind it.
//!
//! The network never reads a clock or an OS random source: [`SplitMix64`] is seeded from the
//! scenario.

use crate::collections::Map;
use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::protocol::{Api, ConnectionId, NodeId, Request, Response};
use crate::time::{SimDuration, SimTime};

/// Sebastiano Vigna's SplitMix64: tiny, fast and good enough for latencies and faults.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..=max`.
    pub fn below_or_equal(&mut self, max: u64) -> u64 {
        if max == u64::MAX {
            return self.next_u64();
        }
        self.next_u64() % (max + 1)
    }

    /// `true` with probability `p` (clamped to `[0, 1]`), in steps of one in a million.
    pub fn chance(&mut self, p: f64) -> bool {
        let ppm = (p.clamp(0.0, 1.0) * 1_000_000.0).round() as u64;
        ppm > 0 && self.next_u64() % 1_000_000 < ppm
    }
}

/// The network's behaviour.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NetworkConfig {
    /// One-way latency of every message, in ms.
    pub latency_ms: u64,
    /// Extra latency drawn uniformly from `0..=jitter_ms` per message.
    pub jitter_ms: u64,
    /// Probability that a message is lost.
    pub drop_probability: f64,
    /// Probability that a message is held up by an extra `delay_ms`.
    pub delay_probability: f64,
    /// The extra delay of a delayed message, in ms.
    pub delay_ms: u64,
}

impl Default for NetworkConfig {
    fn default() -> Self {
        Self {
            latency_ms: 5,
            jitter_ms: 0,
            drop_probability: 0.0,
            delay_probability: 0.0,
            delay_ms: 0,
        }
    }
}

/// One end of a connection.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Endpoint {
    /// A simulated consumer, by name.
    Consumer(String),
    /// A scripted member that sends raw protocol requests, by name.
    Script(String),
    /// A broker (its group coordinator).
    Broker(NodeId),
}

impl fmt::Display for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Consumer(n) => f.write_str(n),
            Self::Script(n) => write!(f, "script {n}"),
            Self::Broker(n) => write!(f, "{n}"),
        }
    }
}

/// What a message carries.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Payload {
    /// A request to a broker.
    Request(Request),
    /// A broker's response.
    Response(Response),
}

impl Payload {
    /// The Kafka API name.
    pub fn api(&self) -> Api {
        match self {
            Self::Request(r) => r.api(),
            Self::Response(r) => r.api(),
        }
    }

    /// Whether this is a request.
    pub fn is_request(&self) -> bool {
        matches!(self, Self::Request(_))
    }
}

/// A fault that hit a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fault {
    /// The message is lost: it disappears at its delivery time.
    Dropped,
    /// The message is held up by this many extra ms.
    Delayed {
        /// The extra delay.
        extra_ms: u64,
    },
}

/// A message on the network: everything the UI needs to animate a token along an edge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    /// A sequence number, unique in the simulation.
    pub id: u64,
    /// The sender.
    pub from: Endpoint,
    /// The receiver.
    pub to: Endpoint,
    /// The client's connection (requests come from it, responses go to it).
    pub connection: ConnectionId,
    /// The correlation id pairing a response with its request.
    pub correlation_id: i32,
    /// The request or response, with all its fields.
    pub payload: Payload,
    /// When it was sent.
    pub sent_at: SimTime,
    /// When it arrives (or, if dropped, when it is lost).
    pub deliver_at: SimTime,
    /// A fault, if one hit it.
    pub fault: Option<Fault>,
}

impl Message {
    /// The Kafka API.
    pub fn api(&self) -> Api {
        self.payload.api()
    }

    /// Whether the message is routine: a heartbeat or a commit and its answer, unless the answer
    /// is an error. The one definition the log's filter and the sequence diagram both use.
    pub fn is_routine(&self) -> bool {
        let routine_api = matches!(self.api(), Api::Heartbeat | Api::OffsetCommit);
        let error = matches!(&self.payload, Payload::Response(r) if !r.error_code().is_none());
        routine_api && !error
    }
}

/// The network: messages in flight, ordered by delivery time.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Network {
    config: NetworkConfig,
    rng: SplitMix64,
    next_id: u64,
    /// (deliver_at, id) → message.
    /// Behind a pointer: messages are large, and a B-tree node shifts its values on every insert
    /// and removal. Shared (`Arc`): the log's `Sent` line holds the same message, not a copy, and
    /// a snapshot of the network copies pointers.
    in_flight: std::collections::BTreeMap<(SimTime, u64), Arc<Message>>,
    /// Latest delivery time per (connection, direction), for FIFO order.
    last_delivery: Map<(ConnectionId, bool), SimTime>,
}

impl Network {
    /// An empty network.
    pub fn new(config: NetworkConfig, seed: u64) -> Self {
        Self {
            config,
            rng: SplitMix64::new(seed),
            next_id: 1,
            in_flight: std::collections::BTreeMap::new(),
            last_delivery: Map::new(),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &NetworkConfig {
        &self.config
    }

    /// Changes the configuration for messages sent from now on.
    pub fn set_config(&mut self, config: NetworkConfig) {
        self.config = config;
    }

    /// Sends a message at `now`; returns a copy of it as scheduled.
    pub fn send(
        &mut self,
        now: SimTime,
        from: Endpoint,
        to: Endpoint,
        connection: ConnectionId,
        correlation_id: i32,
        payload: Payload,
    ) -> Message {
        Message::clone(self.enqueue(now, from, to, connection, correlation_id, payload))
    }

    /// [`Network::send`] without the copy: returns the scheduled message, shared.
    pub(crate) fn enqueue(
        &mut self,
        now: SimTime,
        from: Endpoint,
        to: Endpoint,
        connection: ConnectionId,
        correlation_id: i32,
        payload: Payload,
    ) -> &Arc<Message> {
        let c = &self.config;
        let mut latency = c.latency_ms;
        if c.jitter_ms > 0 {
            latency = latency.saturating_add(self.rng.below_or_equal(c.jitter_ms));
        }
        let fault = if c.drop_probability > 0.0 && self.rng.chance(c.drop_probability) {
            Some(Fault::Dropped)
        } else if c.delay_probability > 0.0 && self.rng.chance(c.delay_probability) {
            latency = latency.saturating_add(c.delay_ms);
            Some(Fault::Delayed { extra_ms: c.delay_ms })
        } else {
            None
        };
        let mut deliver_at = now + SimDuration::from_millis(latency);
        let key = (connection, payload.is_request());
        if fault != Some(Fault::Dropped) {
            if let Some(&last) = self.last_delivery.get(&key) {
                deliver_at = deliver_at.max(last);
            }
            self.last_delivery.insert(key, deliver_at);
        }
        let id = self.next_id;
        self.next_id = self.next_id.saturating_add(1);
        let msg = Message {
            id,
            from,
            to,
            connection,
            correlation_id,
            payload,
            sent_at: now,
            deliver_at,
            fault,
        };
        // Ids are unique, so the key is new.
        self.in_flight.entry((deliver_at, id)).or_insert(Arc::new(msg))
    }

    /// When the next message arrives (or is lost).
    pub fn next_delivery(&self) -> Option<SimTime> {
        self.in_flight.keys().next().map(|(t, _)| *t)
    }

    /// Removes and returns the next message due at or before `now` (a copy only if the log
    /// still holds it).
    pub fn pop_due(&mut self, now: SimTime) -> Option<Message> {
        let entry = self.in_flight.first_entry()?;
        if entry.key().0 > now {
            return None;
        }
        Some(Arc::unwrap_or_clone(entry.remove()))
    }

    /// Every message in flight, by delivery time.
    pub fn in_flight(&self) -> impl Iterator<Item = &Message> {
        self.in_flight.values().map(|m| &**m)
    }

    /// The number of messages in flight.
    pub fn len(&self) -> usize {
        self.in_flight.len()
    }

    /// Whether no message is in flight.
    pub fn is_empty(&self) -> bool {
        self.in_flight.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{FindCoordinatorRequest, Request};

    fn req() -> Payload {
        Payload::Request(Request::FindCoordinator(FindCoordinatorRequest {
            key: "g".into(),
        }))
    }

    #[test]
    fn splitmix_is_deterministic() {
        let mut a = SplitMix64::new(42);
        let mut b = SplitMix64::new(42);
        let xs: Vec<u64> = (0..5).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..5).map(|_| b.next_u64()).collect();
        assert_eq!(xs, ys);
        assert_ne!(xs[0], xs[1]);
    }

    #[test]
    fn connections_are_fifo_even_with_jitter() {
        let cfg = NetworkConfig {
            latency_ms: 5,
            jitter_ms: 100,
            ..NetworkConfig::default()
        };
        let mut n = Network::new(cfg, 7);
        let mut last = SimTime::ZERO;
        for i in 0..50 {
            let m = n.send(
                SimTime(i),
                Endpoint::Consumer("a".into()),
                Endpoint::Broker(NodeId(0)),
                ConnectionId(1),
                i as i32,
                req(),
            );
            assert!(m.deliver_at >= last);
            assert!(m.deliver_at >= SimTime(i + 5));
            last = m.deliver_at;
        }
        let mut order = Vec::new();
        while let Some(m) = n.pop_due(SimTime(10_000)) {
            order.push(m.correlation_id);
        }
        assert_eq!(order, (0..50).collect::<Vec<_>>());
    }
}
