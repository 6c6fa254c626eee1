//! Read-only views of a [`Simulation`](super::Simulation) for the UI and the tests.

use serde::{Deserialize, Serialize};

use crate::assignor::{RebalanceProtocol, Strategy};
use crate::client::{ClientState, Lifecycle, MemberState, Processing};
use crate::protocol::{NodeId, TopicPartition};
use crate::time::SimTime;
use crate::topic::Subscription;

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
