//! Read-only views of a [`Simulation`] for the UI and the tests: the view types, and the getters
//! that build them (consumers, topics, owners, the group, the log, ...).

use crate::collections::Map;

use serde::{Deserialize, Serialize};

use super::{SimEvent, Simulation};
use crate::assignor::{RebalanceProtocol, Strategy};
use crate::client::{
    ClientState, Consumer, ConsumerConfig, ConsumerMemberState, Lifecycle, MemberState, Processing,
};
use crate::cluster::{BrokerView, Cluster, OffsetsPartitionView};
use crate::coordinator::consumer::ConsumerGroupView;
use crate::coordinator::{Coordinator, GroupSnapshot};
use crate::network::Message;
use crate::protocol::{DescribedGroup, NodeId, TopicPartition};
use crate::time::SimTime;
use crate::topic::{Subscription, Topics};

/// One consumer, as the UI draws it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConsumerView {
    /// Its name.
    pub name: String,
    /// `client.id`.
    pub client_id: String,
    /// `group.instance.id`, if static.
    pub group_instance_id: Option<String>,
    /// The member id it holds (`""` if none).
    pub member_id: String,
    /// The generation it believes in (-1 if none).
    pub generation: i32,
    /// Its client-side member state.
    pub member_state: MemberState,
    /// The client state a user sees: the member state, or revoking (see [`ClientState`]).
    pub client_state: ClientState,
    /// The partitions being revoked (empty unless `client_state` is revoking). They are still in
    /// `partitions` until the revocation ends.
    pub revoking: Vec<TopicPartition>,
    /// Running, closed, killed, or failed (with the reason).
    pub lifecycle: Lifecycle,
    /// Eager or cooperative.
    pub protocol: RebalanceProtocol,
    /// Its assignors, in preference order.
    pub assignors: Vec<Strategy>,
    /// Its subscription.
    pub subscription: Subscription,
    /// The topics the subscription covers now.
    pub subscribed_topics: Vec<String>,
    /// Whether it led the group in its last JoinGroup.
    pub is_leader: bool,
    /// Whether it will rejoin at its next `poll()`.
    pub rejoin_needed: bool,
    /// The coordinator it knows.
    pub coordinator: Option<NodeId>,
    /// Whether the application is inside `poll()` (e.g. blocked in an eager rebalance).
    pub in_poll: bool,
    /// The batch being processed, if any (the processing indicator).
    pub processing: Option<Processing>,
    /// A pause in effect: until when, heartbeats stopped, polls stopped.
    pub paused: Option<(Option<SimTime>, bool, bool)>,
    /// Its partitions.
    pub partitions: Vec<ConsumerPartitionView>,
    /// The coordinator's session deadline for this member (countdown ring), if it is a member.
    pub session_deadline: Option<SimTime>,
    /// The client's own session deadline (no heartbeat answer by then: coordinator marked unknown).
    pub client_session_deadline: Option<SimTime>,
    /// When the heartbeat thread sends the next heartbeat.
    pub next_heartbeat: Option<SimTime>,
    /// When `max.poll.interval.ms` expires if the application does not poll (countdown ring).
    pub poll_deadline: Option<SimTime>,
    /// Records processed (duplicates included).
    pub records_processed: u64,
    /// Records it processed that had already been processed before (by anyone).
    pub duplicates: u64,
    /// Its settings (the timeouts its countdown rings divide by, what the inspector lists).
    pub config: ConsumerConfig,
    /// For a consumer-protocol (KIP-848) member: its member state, epoch and assignment. `None`
    /// for a classic consumer (whose `member_state`, `generation` and `client_state` say it all).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub consumer_protocol: Option<ConsumerProtocolView>,
}

/// What a UI draws for a consumer-protocol member, beyond the classic fields: Kafka's client
/// member state, the member epoch, and the three partition sets of its reconciliation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConsumerProtocolView {
    /// Kafka's client member state (JOINING, RECONCILING, ACKNOWLEDGING, STABLE, FENCED, ...).
    pub state: ConsumerMemberState,
    /// The member epoch (0 while joining, -1 or -2 once it left).
    pub member_epoch: i32,
    /// The partitions it owns (also in `partitions`, with positions and lag).
    pub assigned: Vec<TopicPartition>,
    /// Owned partitions a reconciliation in progress is revoking (no longer fetched).
    pub pending_revocation: Vec<TopicPartition>,
    /// Partitions of the latest target it does not own yet (waiting for its next `poll()`, or for
    /// the coordinator to release them).
    pub pending_assignment: Vec<TopicPartition>,
    /// The latest assignment the coordinator sent, if any.
    pub target: Option<Vec<TopicPartition>>,
    /// The heartbeat interval the coordinator returned (0 before the first answer).
    pub heartbeat_interval_ms: u64,
    /// `group.remote.assignor`, if set.
    pub server_assignor: Option<String>,
}

/// One partition a consumer owns.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConsumerPartitionView {
    /// The partition.
    pub partition: TopicPartition,
    /// The fetch position (unknown until OffsetFetch answered).
    pub position: Option<i64>,
    /// The offset after the last processed record.
    pub processed: Option<i64>,
    /// The group's committed offset.
    pub committed: Option<i64>,
    /// The log end offset.
    pub log_end_offset: Option<i64>,
    /// Log end offset minus the position.
    pub lag: Option<i64>,
}

/// One topic.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TopicView {
    /// The name.
    pub name: String,
    /// Records per second written by its producer.
    pub records_per_sec: u64,
    /// Its partitions.
    pub partitions: Vec<PartitionView>,
}

/// One partition of a topic.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartitionView {
    /// The partition number.
    pub partition: i32,
    /// Its log end offset.
    pub log_end_offset: i64,
    /// The group's committed offset.
    pub committed: Option<i64>,
    /// Consumers that believe they own it (more than one only transiently, across generations).
    pub owners: Vec<String>,
    /// The first owner's position.
    pub position: Option<i64>,
    /// Log end offset minus the committed offset (or the whole log if nothing is committed).
    pub lag: i64,
}

impl Simulation {
    /// The broker whose coordinator the views show: the group partition's leader, or the last one
    /// while the partition is offline.
    fn coordinator_index(&self) -> usize {
        let node = self.cluster.group_leader().unwrap_or(self.last_coordinator);
        self.broker_index(node).unwrap_or(0)
    }

    /// The group id.
    pub fn group_id(&self) -> &str {
        &self.group_id
    }

    /// The event log so far (as kept by the [`LogLevel`](super::LogLevel)).
    pub fn log(&self) -> &[SimEvent] {
        &self.log
    }

    /// Takes the kept log out of the simulation, leaving it empty; sequence numbers go on from
    /// where they were. The simulation never reads its own log, so a copy made meanwhile (a
    /// snapshot for the playground's timeline) costs the state alone, not the history.
    pub fn take_log(&mut self) -> Vec<SimEvent> {
        std::mem::take(&mut self.log)
    }

    /// Puts a log back: the one [`Simulation::take_log`] took, or the part of it up to the
    /// simulation's time (a restored snapshot). The caller keeps it consistent with
    /// [`Simulation::events_emitted`]; new events are appended after it.
    pub fn put_log(&mut self, log: Vec<SimEvent>) {
        self.log = log;
    }

    /// The number of events emitted so far (including those the log level did not keep).
    pub fn events_emitted(&self) -> u64 {
        self.next_seq - 1
    }

    /// The group's coordinator: the coordinator of the broker leading the group's partition (of
    /// the last leader while the partition is offline; a crashed broker's coordinator is empty).
    pub fn coordinator(&self) -> &Coordinator {
        &self.brokers[self.coordinator_index()].coordinator
    }

    /// A broker's coordinator.
    pub fn broker_coordinator(&self, broker: NodeId) -> Option<&Coordinator> {
        self.broker_index(broker).map(|i| &self.brokers[i].coordinator)
    }

    /// The cluster: brokers, placement, the group partition's replicas.
    pub fn cluster(&self) -> &Cluster {
        &self.cluster
    }

    /// Every broker, as the UI draws it (alive, slowed, the partitions it leads and holds).
    pub fn brokers(&self) -> Vec<BrokerView> {
        self.cluster.brokers()
    }

    /// The group's `__consumer_offsets` partition: leader, replicas with their LEO, ISR and HW
    /// (drawn next to [`Simulation::group`]).
    pub fn offsets_partition(&self) -> OffsetsPartitionView {
        self.cluster.offsets_partition()
    }

    /// What DescribeGroups says about the group.
    pub fn group(&self) -> DescribedGroup {
        self.coordinator().describe_group(&self.group_id)
    }

    /// Everything the coordinator knows about the group (timers, pending members, offsets, ...).
    pub fn group_snapshot(&self) -> Option<GroupSnapshot> {
        self.coordinator().group_snapshot(&self.group_id)
    }

    /// The group's committed offsets.
    pub fn committed_offsets(&self) -> Map<TopicPartition, i64> {
        Map::from_iter(
            self.coordinator()
                .committed_offsets(&self.group_id)
                .into_iter()
                .map(|(tp, c)| (tp, c.offset)),
        )
    }

    /// Every message in flight, by arrival time.
    pub fn messages_in_flight(&self) -> Vec<Message> {
        self.network.in_flight().cloned().collect()
    }

    /// The cluster's topics.
    pub fn topic_registry(&self) -> &Topics {
        &self.topics
    }

    /// The names of the consumers, in the order they were added.
    pub fn consumer_names(&self) -> Vec<String> {
        self.consumers
            .iter()
            .map(|c| c.consumer.name().to_owned())
            .collect()
    }

    /// The name of the consumer whose current member id is `member_id`.
    pub fn consumer_named_by_member(&self, member_id: &str) -> Option<String> {
        self.consumers
            .iter()
            .find(|c| c.consumer.member_id() == member_id)
            .map(|c| c.consumer.name().to_owned())
    }

    /// A consumer's state machine (read-only).
    pub fn consumer(&self, name: &str) -> Option<&Consumer> {
        self.consumer_index(name).map(|i| &self.consumers[i].consumer)
    }

    /// Every consumer, as the UI draws it.
    pub fn consumers(&self) -> Vec<ConsumerView> {
        let snapshot = self.group_snapshot();
        let consumer_group = self.consumer_group();
        let committed = self.committed_offsets();
        self.consumers
            .iter()
            .map(|slot| {
                let c = &slot.consumer;
                let session_deadline = snapshot
                    .as_ref()
                    .and_then(|s| {
                        s.members
                            .iter()
                            .find(|m| m.member_id == c.member_id() && !c.member_id().is_empty())
                            .and_then(|m| m.session_deadline.map(|(t, _)| t))
                    })
                    .or_else(|| {
                        // A consumer-protocol member's session is on the consumer group.
                        consumer_group.as_ref().and_then(|g| {
                            g.members
                                .iter()
                                .find(|m| m.member_id == c.member_id() && !c.member_id().is_empty())
                                .and_then(|m| m.session_deadline)
                        })
                    });
                let running = c.lifecycle().is_running();
                ConsumerView {
                    name: c.name().to_owned(),
                    client_id: c.config().client_id.clone(),
                    group_instance_id: c.config().group_instance_id.clone(),
                    member_id: c.member_id().to_owned(),
                    generation: c.generation(),
                    member_state: c.member_state(),
                    client_state: c.client_state(),
                    revoking: c.revoking().to_vec(),
                    lifecycle: c.lifecycle().clone(),
                    protocol: c.protocol(),
                    assignors: c.config().assignors.clone(),
                    subscription: c.config().subscription.clone(),
                    subscribed_topics: c.subscribed_topics().to_vec(),
                    is_leader: c.is_leader(),
                    rejoin_needed: c.rejoin_needed(),
                    coordinator: c.coordinator(),
                    in_poll: c.in_poll(),
                    processing: c.processing().cloned(),
                    paused: c.paused(),
                    partitions: c
                        .owned()
                        .iter()
                        .map(|tp| {
                            let position = c.positions().get(tp).copied();
                            let leo = self.topics.log_end_offset(tp, self.now);
                            ConsumerPartitionView {
                                partition: tp.clone(),
                                position,
                                processed: c.processed_offsets().get(tp).copied(),
                                committed: committed.get(tp).copied(),
                                log_end_offset: leo,
                                lag: leo.zip(position).map(|(l, p)| (l - p).max(0)),
                            }
                        })
                        .collect(),
                    session_deadline,
                    client_session_deadline: if running {
                        c.client_session_deadline()
                    } else {
                        None
                    },
                    next_heartbeat: if running { c.next_heartbeat() } else { None },
                    poll_deadline: if running { c.poll_deadline() } else { None },
                    records_processed: c.records_processed(),
                    duplicates: slot.duplicates,
                    config: c.config().clone(),
                    consumer_protocol: consumer_protocol_view(c),
                }
            })
            .collect()
    }

    /// The group as the coordinator holds it if it is a consumer-protocol group: state, group
    /// epoch, target assignment epoch, assignor, and every member's epoch, reconciliation state,
    /// assigned / pending-revocation / target partitions and deadlines. `None` for a classic group
    /// (see [`Simulation::group_snapshot`]).
    pub fn consumer_group(&self) -> Option<ConsumerGroupView> {
        self.coordinator().consumer_group_view(&self.group_id)
    }

    /// Whether some consumer is configured with `group.protocol=consumer`.
    pub fn has_consumer_protocol_consumer(&self) -> bool {
        self.consumers
            .iter()
            .any(|s| s.consumer.config().group_protocol == crate::client::GroupProtocol::Consumer)
    }

    /// Every topic with its partitions and their owners.
    pub fn topics(&self) -> Vec<TopicView> {
        let committed = self.committed_offsets();
        self.topics
            .iter()
            .map(|t| TopicView {
                name: t.name.clone(),
                records_per_sec: t.records_per_sec,
                partitions: (0..t.partitions())
                    .map(|p| {
                        let tp = TopicPartition::new(t.name.clone(), p);
                        let owners: Vec<&Consumer> = self
                            .consumers
                            .iter()
                            .map(|s| &s.consumer)
                            .filter(|c| c.lifecycle().is_running() && c.owned().contains(&tp))
                            .collect();
                        let leo = t.log_end_offset(p, self.now).unwrap_or(0);
                        let c = committed.get(&tp).copied();
                        PartitionView {
                            partition: p,
                            log_end_offset: leo,
                            committed: c,
                            owners: owners.iter().map(|c| c.name().to_owned()).collect(),
                            position: owners.first().and_then(|c| c.positions().get(&tp).copied()),
                            lag: (leo - c.unwrap_or(0)).max(0),
                        }
                    })
                    .collect(),
            })
            .collect()
    }

    /// The partitions each running consumer owns, by consumer name.
    pub fn owners(&self) -> Map<String, Vec<TopicPartition>> {
        self.consumers
            .iter()
            .filter(|s| s.consumer.lifecycle().is_running())
            .map(|s| {
                (
                    s.consumer.name().to_owned(),
                    s.consumer.owned().iter().cloned().collect(),
                )
            })
            .collect()
    }

    /// Duplicates processed by each consumer.
    pub fn duplicates(&self) -> Map<String, u64> {
        Map::from_iter(
            self.consumers
                .iter()
                .map(|s| (s.consumer.name().to_owned(), s.duplicates)),
        )
    }

    /// Whether every offset below `upto` of `partition` has been processed at least once.
    pub fn processed_through(&self, partition: &TopicPartition, upto: i64) -> bool {
        self.processed
            .get(partition.topic.as_str())
            .and_then(|m| m.get(&partition.partition))
            .is_some_and(|r| r.covers(upto))
            || upto <= 0
    }
}

/// The consumer-protocol part of a consumer's view.
fn consumer_protocol_view(c: &Consumer) -> Option<ConsumerProtocolView> {
    let state = c.consumer_member_state()?;
    let target = c.target_assignment();
    Some(ConsumerProtocolView {
        state,
        member_epoch: c.member_epoch().unwrap_or(0),
        assigned: c.owned().iter().cloned().collect(),
        pending_revocation: c.revoking().to_vec(),
        pending_assignment: target
            .map(|t| t.difference(c.owned()).cloned().collect())
            .unwrap_or_default(),
        target: target.map(|t| t.iter().cloned().collect()),
        heartbeat_interval_ms: c.heartbeat_interval_ms().unwrap_or(0),
        server_assignor: c.config().server_assignor.clone(),
    })
}

impl crate::coordinator::consumer::ConsumerGroupState {
    /// The states [`ConsumerGroupState::derive`](crate::coordinator::consumer::ConsumerGroupState::derive)
    /// returns: every state but `Dead`, in Kafka's order.
    pub const DERIVED: [Self; 4] = [Self::Empty, Self::Assigning, Self::Reconciling, Self::Stable];

    /// Every change of state a consumer group can go through, `(from, to)`.
    ///
    /// Kafka keeps no transition table for a consumer group (unlike the classic group's
    /// `validPreviousStates`): `maybeUpdateGroupState` derives the state again after every change
    /// of a member, the group epoch or the target assignment epoch, so any derived state can
    /// follow any other. Which ones a story shows depends on what changed (a first join goes from
    /// Empty to Stable in one write, a leave to Assigning until the next heartbeat computes the
    /// target, a join into a Stable group to Reconciling). `Dead` is never derived: only the classic
    /// DescribeGroups reports it.
    pub fn transitions() -> impl Iterator<Item = (Self, Self)> {
        Self::DERIVED.into_iter().flat_map(|from| {
            Self::DERIVED
                .into_iter()
                .filter(move |to| *to != from)
                .map(move |to| (from, to))
        })
    }
}
