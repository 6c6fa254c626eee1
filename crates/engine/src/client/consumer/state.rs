//! The member states of Kafka's consumer-protocol client (`clients/.../internals/MemberState.java`,
//! reference §11) and their valid transitions.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A consumer-protocol member's state, as Kafka's client keeps it (not the coordinator's
/// [`crate::coordinator::consumer::MemberState`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ConsumerMemberState {
    /// Not subscribed, or left the group.
    Unsubscribed,
    /// Sends epoch 0 until it receives an epoch > 0.
    Joining,
    /// Applying an assignment: commit, callbacks.
    Reconciling,
    /// The next heartbeat, sent at once, acknowledges the reconciled assignment.
    Acknowledging,
    /// Active, nothing pending.
    Stable,
    /// Got `UNKNOWN_MEMBER_ID` or `FENCED_MEMBER_EPOCH`: `onPartitionsLost`, then JOINING.
    Fenced,
    /// Releasing its partitions before leaving.
    PrepareLeaving,
    /// Sends the leave heartbeat (epoch -1, or -2 for a static member) at once.
    Leaving,
    /// A fatal error: no more heartbeats.
    Fatal,
    /// The poll timer expired: left the group; rejoins at the next `poll()`.
    Stale,
}

impl ConsumerMemberState {
    /// Every state.
    pub const ALL: [Self; 10] = [
        Self::Unsubscribed,
        Self::Joining,
        Self::Reconciling,
        Self::Acknowledging,
        Self::Stable,
        Self::Fenced,
        Self::PrepareLeaving,
        Self::Leaving,
        Self::Fatal,
        Self::Stale,
    ];

    /// Kafka's name, e.g. `PREPARE_LEAVING`.
    pub const fn kafka_name(self) -> &'static str {
        match self {
            Self::Unsubscribed => "UNSUBSCRIBED",
            Self::Joining => "JOINING",
            Self::Reconciling => "RECONCILING",
            Self::Acknowledging => "ACKNOWLEDGING",
            Self::Stable => "STABLE",
            Self::Fenced => "FENCED",
            Self::PrepareLeaving => "PREPARE_LEAVING",
            Self::Leaving => "LEAVING",
            Self::Fatal => "FATAL",
            Self::Stale => "STALE",
        }
    }

    /// The states a transition to `self` may come from (Kafka: `MemberState.getPreviousValidStates`).
    pub fn valid_previous(self) -> &'static [Self] {
        use ConsumerMemberState::*;
        match self {
            Unsubscribed => &[PrepareLeaving, Leaving, Fenced],
            Joining => &[Fenced, Unsubscribed, Stale],
            Reconciling => &[Stable, Joining, Acknowledging, Reconciling],
            Acknowledging => &[Reconciling],
            Stable => &[Joining, Acknowledging, Reconciling],
            Fenced => &[
                Joining,
                Stable,
                Reconciling,
                Acknowledging,
                PrepareLeaving,
                Leaving,
            ],
            PrepareLeaving => &[Joining, Stable, Reconciling, Acknowledging, Unsubscribed],
            Leaving => &[PrepareLeaving],
            Fatal => &[
                Joining,
                Stable,
                Reconciling,
                Acknowledging,
                PrepareLeaving,
                Leaving,
                Unsubscribed,
            ],
            Stale => &[Leaving],
        }
    }

    /// Whether `from -> self` is a transition Kafka's client allows.
    pub fn can_come_from(self, from: Self) -> bool {
        self.valid_previous().contains(&from)
    }

    /// Whether the member is in the group, or on its way in (Kafka: a state where the member
    /// heartbeats and may be fenced).
    pub fn is_active(self) -> bool {
        matches!(
            self,
            Self::Joining | Self::Reconciling | Self::Acknowledging | Self::Stable
        )
    }

    /// Whether a new assignment from the coordinator is processed in this state
    /// (`canHandleNewAssignment`).
    pub fn can_handle_new_assignment(self) -> bool {
        self.is_active()
    }
}

impl fmt::Display for ConsumerMemberState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kafka_name())
    }
}
