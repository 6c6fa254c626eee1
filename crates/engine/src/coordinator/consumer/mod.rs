//! Building blocks of Kafka's **consumer** group protocol (KIP-848), the server side of
//! `ConsumerGroupHeartbeat`, as pure functions and plain data.
//!
//! In the new protocol the coordinator, not a group leader, computes the assignment, and every
//! member converges to it on its own heartbeats. Three epochs drive it (reference §1): the **group
//! epoch** (bumped when the desired state changes), the **target assignment epoch** (the group epoch
//! the current target was computed at) and each **member epoch** (the target the member has
//! converged to). This module holds what does not need the coordinator's state machine:
//!
//! * [`ConsumerGroupState`], derived, never stored, from the epochs and the members
//!   ([`ConsumerGroupState::derive`]), and the member's reconciliation state [`MemberState`];
//! * [`CurrentAssignmentBuilder`], the reconciliation step of one member towards its target
//!   (Kafka's class of the same name, 4.1 behaviour): revoke before reassign, wait for partitions
//!   other members still own;
//! * [`PartitionEpochs`], the coordinator's view of who owns each partition at which epoch, which
//!   the builder consults.
//!
//! The server-side assignors that compute targets are in [`crate::assignor::server`]. Wiring all of
//! this into [`crate::Coordinator`] (heartbeat handling, records, timers) is a later phase; see
//! `docs/consumer-protocol.md`.
//!
//! Topics are keyed by **name** here. On the wire the heartbeat names topics by id
//! ([`crate::protocol::TopicId`]); the coordinator translates at the edge.

use crate::collections::Map;
use crate::collections::Set;

mod epochs;
pub(crate) mod group;
mod reconcile;
mod state;
mod view;

pub use epochs::{PartitionEpochConflict, PartitionEpochs};
pub use reconcile::{CurrentAssignment, CurrentAssignmentBuilder, UnknownMemberState};
pub use state::{ConsumerGroupState, MemberState};
pub use view::{ConsumerGroupMemberView, ConsumerGroupView};

/// Partitions by topic: topic name → partition numbers. The shape of Kafka's
/// `Map<Uuid, Set<Integer>>` assignments. In normal form no topic maps to an empty set; the
/// functions of this module and of [`crate::assignor::server`] return normal forms.
pub type Partitions = Map<String, Set<i32>>;

/// `partitions` without empty topics.
pub(crate) fn normalized(mut partitions: Partitions) -> Partitions {
    partitions.retain(|_, set| !set.is_empty());
    partitions
}
