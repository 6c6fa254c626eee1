//! The simulation's unified event log: coordinator, client, network and world events in one
//! sequence-numbered stream. Every event serialises to JSON and renders one English line.

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::client::ClientEvent;
use crate::cluster::ClusterEvent;
use crate::coordinator::event::EventKind;
use crate::coordinator::timers::TimerKind;
use crate::network::{Endpoint, Fault, Message, NetworkConfig, Payload};
use crate::protocol::{Api, ErrorCode, NodeId, Request, Response};
use crate::time::SimTime;
use crate::topic::Subscription;

/// One entry of the log: `{"seq":..,"at":..,"source":..,<the source's fields>,"event":..}`.
#[derive(Clone, Debug, PartialEq)]
pub struct SimEvent {
    /// Position in the log, from 1.
    pub seq: u64,
    /// When it happened.
    pub at: SimTime,
    /// What happened, and where.
    pub kind: SimEventKind,
}

/// Written by hand, field by field, as the derived form with `flatten` would write it: the same
/// bytes, without serde's map-with-buffered-keys path for flattened fields (the trace's hottest
/// code in a long streamed run).
impl Serialize for SimEvent {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("SimEvent", 5)?;
        s.serialize_field("seq", &self.seq)?;
        s.serialize_field("at", &self.at)?;
        match &self.kind {
            SimEventKind::Coordinator { node, event } => {
                s.serialize_field("source", "coordinator")?;
                s.serialize_field("node", node)?;
                s.serialize_field("event", event)?;
            }
            SimEventKind::Client { consumer, event } => {
                s.serialize_field("source", "client")?;
                s.serialize_field("consumer", consumer)?;
                s.serialize_field("event", event)?;
            }
            SimEventKind::Network { event } => {
                s.serialize_field("source", "network")?;
                s.serialize_field("event", event)?;
            }
            SimEventKind::World { event } => {
                s.serialize_field("source", "world")?;
                s.serialize_field("event", event)?;
            }
        }
        s.end()
    }
}

/// Read back field by field, in the order [`Serialize`] writes them (`source` before `event`, so
/// that the event's type is known when it is read). Serde's `flatten` would buffer the fields
/// instead, and a buffered map cannot read integer keys (a record's per-partition epochs) back.
impl<'de> Deserialize<'de> for SimEvent {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(SimEventVisitor)
    }
}

struct SimEventVisitor;

impl<'de> serde::de::Visitor<'de> for SimEventVisitor {
    type Value = SimEvent;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a log event: seq, at, source, the source's fields, then event")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<SimEvent, A::Error> {
        use serde::de::Error;
        let (mut seq, mut at, mut source) = (None, None, None::<String>);
        let (mut node, mut consumer) = (None, None);
        let mut kind = None;
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "seq" => seq = Some(map.next_value()?),
                "at" => at = Some(map.next_value()?),
                "source" => source = Some(map.next_value()?),
                "node" => node = Some(map.next_value()?),
                "consumer" => consumer = Some(map.next_value()?),
                "event" => {
                    let source = source
                        .as_deref()
                        .ok_or_else(|| A::Error::missing_field("source"))?;
                    kind = Some(match source {
                        "coordinator" => SimEventKind::Coordinator {
                            node: node.take().ok_or_else(|| A::Error::missing_field("node"))?,
                            event: map.next_value()?,
                        },
                        "client" => SimEventKind::Client {
                            consumer: consumer
                                .take()
                                .ok_or_else(|| A::Error::missing_field("consumer"))?,
                            event: map.next_value()?,
                        },
                        "network" => SimEventKind::Network {
                            event: map.next_value()?,
                        },
                        "world" => SimEventKind::World {
                            event: map.next_value()?,
                        },
                        other => {
                            return Err(A::Error::unknown_variant(
                                other,
                                &["coordinator", "client", "network", "world"],
                            ))
                        }
                    });
                }
                other => {
                    return Err(A::Error::unknown_field(
                        other,
                        &["seq", "at", "source", "node", "consumer", "event"],
                    ))
                }
            }
        }
        Ok(SimEvent {
            seq: seq.ok_or_else(|| A::Error::missing_field("seq"))?,
            at: at.ok_or_else(|| A::Error::missing_field("at"))?,
            kind: kind.ok_or_else(|| A::Error::missing_field("event"))?,
        })
    }
}

/// Where an event comes from, and what it says.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "source", rename_all = "snake_case")]
pub enum SimEventKind {
    /// A broker's group coordinator.
    Coordinator {
        /// The broker.
        node: NodeId,
        /// The coordinator's event.
        event: EventKind,
    },
    /// A consumer.
    Client {
        /// The consumer's name.
        consumer: String,
        /// The consumer's event.
        event: ClientEvent,
    },
    /// The network.
    Network {
        /// The network event.
        event: NetworkEvent,
    },
    /// The world: actions, topics, producers.
    World {
        /// The world event.
        event: WorldEvent,
    },
}

/// Something that happened on the network.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NetworkEvent {
    /// A message was sent (it carries every field, and when it will arrive).
    Sent {
        /// The message: the one in flight, shared with the network (not a copy).
        message: Arc<Message>,
    },
    /// A message arrived.
    Delivered {
        /// The message id.
        id: u64,
        /// The sender.
        from: Endpoint,
        /// The receiver.
        to: Endpoint,
        /// The API.
        api: Api,
        /// Whether it is a request.
        request: bool,
        /// Its correlation id.
        correlation_id: i32,
    },
    /// A message was lost (a drop fault).
    Lost {
        /// The message id.
        id: u64,
        /// The sender.
        from: Endpoint,
        /// The receiver.
        to: Endpoint,
        /// The API.
        api: Api,
        /// Its correlation id.
        correlation_id: i32,
    },
    /// A message arrived at a consumer that no longer listens on that connection.
    Undeliverable {
        /// The message id.
        id: u64,
        /// The receiver.
        to: Endpoint,
        /// The API.
        api: Api,
        /// Why.
        reason: String,
    },
}

/// Something that happened in the world outside the protocol.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WorldEvent {
    /// A consumer process was started.
    ConsumerStarted {
        /// Its name.
        name: String,
        /// A summary of its settings.
        settings: String,
    },
    /// A topic was created.
    TopicCreated {
        /// The topic.
        topic: String,
        /// Its partitions.
        partitions: i32,
        /// Records per second.
        records_per_sec: u64,
    },
    /// A topic was deleted.
    TopicDeleted {
        /// The topic.
        topic: String,
    },
    /// Partitions were added to a topic.
    PartitionsAdded {
        /// The topic.
        topic: String,
        /// The partition count before.
        from: i32,
        /// The partition count now.
        to: i32,
    },
    /// A producer's rate changed.
    ProduceRateChanged {
        /// The topic.
        topic: String,
        /// Records per second now.
        records_per_sec: u64,
    },
    /// A consumer's subscription was changed by the user.
    SubscriptionSet {
        /// The consumer.
        consumer: String,
        /// The new subscription.
        subscription: Subscription,
    },
    /// The network's behaviour changed.
    NetworkChanged {
        /// The new configuration.
        network: NetworkConfig,
    },
    /// The group's `__consumer_offsets` partition lost its leader (coordinator failover starts).
    CoordinatorUnloaded {
        /// The broker.
        node: NodeId,
        /// The partition.
        partition: i32,
    },
    /// The group's `__consumer_offsets` partition was loaded again.
    CoordinatorLoaded {
        /// The broker.
        node: NodeId,
        /// The partition.
        partition: i32,
    },
    /// A scripted member sent a raw request.
    ScriptedRequest {
        /// The script's name.
        script: String,
        /// The request.
        request: Request,
    },
    /// The cluster: brokers, leaders, replication (see [`crate::cluster`]).
    Cluster {
        /// What happened.
        event: ClusterEvent,
    },
    /// An action could not be applied.
    ActionRejected {
        /// Why.
        reason: String,
    },
    /// The simulation reached its end time.
    End,
}

impl SimEvent {
    /// Whether the event is routine: the readable trace's details ([`SimEvent::is_detail`]) plus
    /// the steady work between rebalances (fetching and processing without duplicates, successful
    /// commits and their messages, replication of every record). The playground's log hides these
    /// unless asked; its sequence diagram uses [`Message::is_routine`], the same rule for messages.
    pub fn is_routine(&self) -> bool {
        if self.is_detail() {
            return true;
        }
        match &self.kind {
            SimEventKind::Client { event, .. } => match event {
                ClientEvent::BatchFetched { .. } => true,
                ClientEvent::BatchProcessed { duplicates, .. } => *duplicates == 0,
                ClientEvent::CommitSent { .. } => true,
                ClientEvent::CommitCompleted { error, .. } => error.is_none(),
                _ => false,
            },
            SimEventKind::Coordinator {
                event: EventKind::OffsetsCommitted { .. },
                ..
            } => true,
            SimEventKind::World {
                event:
                    WorldEvent::Cluster {
                        event:
                            ClusterEvent::ReplicaFetched { .. }
                            | ClusterEvent::HighWatermarkAdvanced { .. }
                            | ClusterEvent::LeadersMoved { .. },
                    },
            } => true,
            SimEventKind::Network {
                event: NetworkEvent::Sent { message },
            } => message.is_routine(),
            _ => false,
        }
    }

    /// The consumer the event concerns, if any.
    pub fn consumer(&self) -> Option<&str> {
        match &self.kind {
            SimEventKind::Client { consumer, .. } => Some(consumer),
            SimEventKind::Network { event } => match event {
                NetworkEvent::Sent { message } => consumer_between(&message.from, &message.to),
                NetworkEvent::Delivered { from, to, .. } | NetworkEvent::Lost { from, to, .. } => {
                    consumer_between(from, to)
                }
                NetworkEvent::Undeliverable {
                    to: Endpoint::Consumer(c),
                    ..
                } => Some(c),
                NetworkEvent::Undeliverable { .. } => None,
            },
            SimEventKind::World {
                event: WorldEvent::ConsumerStarted { name, .. },
            } => Some(name),
            _ => None,
        }
    }

    /// The Kafka API the event concerns, if any.
    pub fn api(&self) -> Option<Api> {
        match &self.kind {
            SimEventKind::Network { event } => Some(match event {
                NetworkEvent::Sent { message } => message.api(),
                NetworkEvent::Delivered { api, .. }
                | NetworkEvent::Lost { api, .. }
                | NetworkEvent::Undeliverable { api, .. } => *api,
            }),
            SimEventKind::Client {
                event: ClientEvent::ErrorReceived { api, .. },
                ..
            } => Some(*api),
            SimEventKind::Coordinator { event, .. } => match event {
                EventKind::RequestReceived { request, .. } => Some(request.api()),
                EventKind::ResponseSent { response, .. } => Some(response.api()),
                EventKind::RequestParked { api, .. } | EventKind::ParkedRequestDropped { api, .. } => {
                    Some(*api)
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// Whether the event is routine detail that the readable trace leaves out: heartbeats and
    /// their answers, message arrivals, timer bookkeeping, log appends, requests and responses as
    /// the coordinator sees them (the network's `Sent` lines already show them in full).
    pub fn is_detail(&self) -> bool {
        match &self.kind {
            SimEventKind::Coordinator { event, .. } => match event {
                EventKind::RequestReceived { .. }
                | EventKind::ResponseSent { .. }
                | EventKind::TimerSet { .. }
                | EventKind::TimerCancelled { .. }
                | EventKind::RecordAppended { .. } => true,
                EventKind::TimerFired { kind, .. } => matches!(kind, TimerKind::OffsetExpirationCheck),
                _ => false,
            },
            SimEventKind::Client { event, .. } => event.is_detail(),
            SimEventKind::Network { event } => match event {
                NetworkEvent::Sent { message } => match &message.payload {
                    Payload::Request(Request::Heartbeat(_)) => true,
                    Payload::Response(Response::Heartbeat(r)) => r.error_code == ErrorCode::None,
                    _ => false,
                },
                NetworkEvent::Delivered { .. } => true,
                NetworkEvent::Lost { .. } | NetworkEvent::Undeliverable { .. } => false,
            },
            SimEventKind::World { event } => matches!(
                event,
                WorldEvent::Cluster {
                    event: ClusterEvent::ReplicaFetched { .. } | ClusterEvent::HighWatermarkAdvanced { .. }
                }
            ),
        }
    }

    /// The English line without the time prefix.
    pub fn line(&self) -> String {
        self.kind.to_string()
    }
}

impl fmt::Display for SimEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.at, self.kind)
    }
}

impl fmt::Display for SimEventKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Coordinator { node, event } => write!(f, "[{node}] {event}"),
            Self::Client { consumer, event } => write!(f, "[{consumer}] {event}"),
            Self::Network { event } => write!(f, "[net] {event}"),
            Self::World { event } => write!(f, "[world] {event}"),
        }
    }
}

impl fmt::Display for NetworkEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Sent { message: m } => {
                write!(f, "{} -> {} #{} ", m.from, m.to, m.correlation_id)?;
                match &m.payload {
                    Payload::Request(r) => write!(f, "{r}")?,
                    Payload::Response(r) => write!(f, "{r}")?,
                }
                match m.fault {
                    Some(Fault::Dropped) => f.write_str(" (WILL BE LOST)"),
                    Some(Fault::Delayed { extra_ms }) => {
                        write!(f, " (delayed by {extra_ms} ms; arrives {})", m.deliver_at)
                    }
                    None => Ok(()),
                }
            }
            Self::Delivered {
                id,
                from,
                to,
                api,
                request,
                correlation_id,
            } => write!(
                f,
                "message {id} arrived: {from} -> {to} #{correlation_id} {api} {}",
                if *request { "request" } else { "response" }
            ),
            Self::Lost {
                id,
                from,
                to,
                api,
                correlation_id,
            } => {
                write!(f, "message {id} LOST: {from} -> {to} #{correlation_id} {api}")
            }
            Self::Undeliverable { id, to, api, reason } => {
                write!(f, "message {id} ({api}) for {to} not delivered: {reason}")
            }
        }
    }
}

impl fmt::Display for WorldEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::ConsumerStarted { name, settings } => write!(f, "consumer {name} started ({settings})"),
            Self::TopicCreated { topic, partitions, records_per_sec } => write!(
                f,
                "topic {topic} created with {partitions} partition(s), {records_per_sec} record(s)/s"
            ),
            Self::TopicDeleted { topic } => write!(f, "topic {topic} deleted"),
            Self::PartitionsAdded { topic, from, to } => {
                write!(f, "topic {topic} grown from {from} to {to} partitions")
            }
            Self::ProduceRateChanged { topic, records_per_sec } => {
                write!(f, "producer of {topic} now writes {records_per_sec} record(s)/s")
            }
            Self::SubscriptionSet { consumer, subscription } => {
                write!(f, "{consumer} calls subscribe({subscription})")
            }
            Self::NetworkChanged { network: n } => write!(
                f,
                "network now: latency {} ms + jitter up to {} ms, drop probability {}, delay probability {} (+{} ms)",
                n.latency_ms, n.jitter_ms, n.drop_probability, n.delay_probability, n.delay_ms
            ),
            Self::CoordinatorUnloaded { node, partition } => write!(
                f,
                "{node} loses leadership of __consumer_offsets-{partition}: the group's coordinator is gone"
            ),
            Self::CoordinatorLoaded { node, partition } => {
                write!(f, "{node} leads __consumer_offsets-{partition} again and reloads it")
            }
            Self::ScriptedRequest { script, request } => write!(f, "script {script} sends {}", request.api_name()),
            Self::Cluster { event } => write!(f, "{event}"),
            Self::ActionRejected { reason } => write!(f, "action rejected: {reason}"),
            Self::End => f.write_str("end of the scenario"),
        }
    }
}

/// The consumer at either end of a message, if any.
fn consumer_between<'a>(from: &'a Endpoint, to: &'a Endpoint) -> Option<&'a str> {
    match (from, to) {
        (Endpoint::Consumer(c), _) | (_, Endpoint::Consumer(c)) => Some(c),
        _ => None,
    }
}
