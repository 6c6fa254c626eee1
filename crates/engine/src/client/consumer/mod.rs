//! The client side of the consumer group protocol (KIP-848, `group.protocol=consumer`), modelled on
//! Kafka 4.1's `AsyncKafkaConsumer`: its membership manager (`AbstractMembershipManager`,
//! `ConsumerMembershipManager`) and its heartbeat manager (`ConsumerHeartbeatRequestManager`,
//! `AbstractHeartbeatRequestManager`). Reference: `kip-848-protocol.md` §11, and §3–§8 for the
//! coordinator rules it meets.
//!
//! A [`super::Consumer`] created with [`super::GroupProtocol::Consumer`] holds a [`Membership`]
//! and runs these `impl Consumer` blocks instead of the classic join flow; the application loop
//! (poll, process, commit), fetching, OffsetFetch and OffsetCommit are shared with the classic
//! client. Like Kafka's, the consumer has two threads:
//!
//! * the **background thread** heartbeats (`heartbeat`), starts reconciliations and their
//!   auto-commit (`reconcile`), and watches `max.poll.interval.ms` (`leave`);
//! * the **application thread** runs the rebalance callbacks (`onPartitionsRevoked`,
//!   `onPartitionsAssigned`, `onPartitionsLost`) inside `poll()`, as `AsyncKafkaConsumer` does: a
//!   reconciliation that needs a callback waits for the application's next `poll()`.
//!
//! Files, one concern each: this file the member state, the data and the events; `heartbeat`
//! requests (full or partial), responses and errors; `reconcile` the reconciliation (commit, revoke,
//! assign, acknowledge); `leave` fencing, the poll timer (STALE) and leaving on close.

mod heartbeat;
mod leave;
mod reconcile;
mod state;

use crate::collections::Set;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::event::Partitions;
use crate::protocol::TopicPartition;
use crate::time::SimTime;
use crate::topic::Subscription;

pub use state::ConsumerMemberState;

pub(super) use heartbeat::SentFields;
pub(super) use reconcile::Reconciliation;

/// What the application thread must run at its next `poll()` (Kafka: a callback event the
/// background thread queued, `ConsumerRebalanceListenerCallbackNeededEvent`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum PendingLoss {
    /// `onPartitionsLost` after fencing; then the member rejoins.
    Fenced,
    /// `onPartitionsLost` after the poll timer expired; the member rejoins at that `poll()`.
    Stale,
}

/// The membership of a consumer-protocol consumer (Kafka: the membership manager's fields).
#[derive(Clone, Debug)]
pub(crate) struct Membership {
    pub(super) state: ConsumerMemberState,
    /// The member epoch: the last one the coordinator returned (0 when joining, -1 or -2 when
    /// leaving).
    pub(super) epoch: i32,
    /// The latest assignment the coordinator sent (`currentTargetAssignment`), `None` before one.
    pub(super) target: Option<Set<TopicPartition>>,
    /// Kafka's `LocalAssignment.localEpoch` of the target: bumped whenever a different assignment
    /// arrives (-1: none yet).
    pub(super) target_local_epoch: i64,
    /// The local epoch of the assignment the member has reconciled (-1: none).
    pub(super) current_local_epoch: i64,
    /// The reconciliation in progress.
    pub(super) reconciliation: Option<Reconciliation>,
    /// An `onPartitionsLost` waiting for the application thread.
    pub(super) pending_loss: Option<PendingLoss>,
    /// `HeartbeatIntervalMs` from the coordinator (0 until the first answer).
    pub(super) heartbeat_interval_ms: u64,
    /// When the heartbeat timer expires.
    pub(super) next_heartbeat: SimTime,
    /// Send the next heartbeat as soon as possible (joining, acknowledging, leaving, retrying).
    pub(super) heartbeat_now: bool,
    /// A retriable error's backoff for the next heartbeat.
    pub(super) heartbeat_backoff_until: SimTime,
    /// What the last heartbeat sent (`HeartbeatState.sentFields`); `None`: the next one is full.
    pub(super) sent: Option<SentFields>,
    /// The leave in progress is due to the poll timer (Kafka: `isPollTimerExpired`).
    pub(super) poll_timer_expired: bool,
}

impl Membership {
    pub(super) fn new() -> Self {
        Self {
            state: ConsumerMemberState::Unsubscribed,
            epoch: 0,
            target: None,
            target_local_epoch: -1,
            current_local_epoch: -1,
            reconciliation: None,
            pending_loss: None,
            heartbeat_interval_ms: 0,
            next_heartbeat: SimTime::ZERO,
            heartbeat_now: false,
            heartbeat_backoff_until: SimTime::ZERO,
            sent: None,
            poll_timer_expired: false,
        }
    }

    /// Whether the member has reconciled the latest target (`targetAssignmentReconciled`).
    pub(super) fn reconciled(&self) -> bool {
        self.current_local_epoch == self.target_local_epoch
    }
}

/// What a consumer-protocol member does that the classic one has no event for. The callbacks
/// themselves are the classic [`super::ClientEvent::PartitionsRevoked`], `PartitionsAssigned` and
/// `PartitionsLost`, and errors are [`super::ClientEvent::ErrorReceived`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConsumerProtocolEvent {
    /// The consumer started and subscribed with `group.protocol=consumer`.
    Started {
        /// The member id it generated for its lifetime (KIP-1082).
        member_id: String,
        /// The subscription.
        subscription: Subscription,
        /// `group.remote.assignor`, if set.
        server_assignor: Option<String>,
        /// Its `group.instance.id`, if static.
        group_instance_id: Option<String>,
    },
    /// The member state changed (Kafka logs `"Member {} with epoch {} transitioned from {} to {}."`).
    StateChanged {
        /// The member id.
        member_id: String,
        /// The member epoch at the transition.
        member_epoch: i32,
        /// Before.
        from: ConsumerMemberState,
        /// After.
        to: ConsumerMemberState,
    },
    /// A heartbeat response carried an assignment different from the target the member had.
    AssignmentReceived {
        /// The member epoch of the response.
        member_epoch: i32,
        /// The partitions assigned (usable at once once reconciled).
        partitions: Vec<TopicPartition>,
    },
    /// A reconciliation started: revoked partitions stop being fetched; an auto-commit, then the
    /// callbacks follow.
    ReconciliationStarted {
        /// The member epoch.
        member_epoch: i32,
        /// The target.
        target: Vec<TopicPartition>,
        /// Owned partitions not in the target.
        revoking: Vec<TopicPartition>,
        /// Target partitions not owned yet.
        adding: Vec<TopicPartition>,
    },
    /// The reconciliation finished: the member owns its target and acknowledges it on its next
    /// heartbeat (sent at once).
    ReconciliationCompleted {
        /// The member epoch.
        member_epoch: i32,
        /// The partitions it owns now.
        partitions: Vec<TopicPartition>,
    },
    /// A reconciliation was dropped before it finished (the member was fenced or left).
    ReconciliationDiscarded {
        /// Why.
        reason: String,
    },
    /// `max.poll.interval.ms` passed without a `poll()`: the member leaves the group with
    /// `leave_epoch` and stays STALE until the application polls again.
    PollTimerExpired {
        /// `max.poll.interval.ms`.
        max_poll_interval_ms: u64,
        /// -1, or -2 for a static member.
        leave_epoch: i32,
    },
}

impl fmt::Display for ConsumerProtocolEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Started {
                member_id,
                subscription,
                server_assignor,
                group_instance_id,
            } => {
                write!(
                    f,
                    "starts (group.protocol=consumer) as member {member_id}: subscribes to {subscription}, group.remote.assignor {}",
                    server_assignor.as_deref().unwrap_or("unset (the broker's default)")
                )?;
                if let Some(i) = group_instance_id {
                    write!(f, ", static member {i}")?;
                }
                Ok(())
            }
            Self::StateChanged {
                member_id,
                member_epoch,
                from,
                to,
            } => write!(
                f,
                "Member {member_id} with epoch {member_epoch} transitioned from {from} to {to}."
            ),
            Self::AssignmentReceived {
                member_epoch,
                partitions,
            } => write!(
                f,
                "new target assignment at epoch {member_epoch}: {}",
                Partitions(partitions)
            ),
            Self::ReconciliationStarted {
                member_epoch,
                target,
                revoking,
                adding,
            } => write!(
                f,
                "reconciling to {} at epoch {member_epoch}: revoke {}, assign {}",
                Partitions(target),
                Partitions(revoking),
                Partitions(adding)
            ),
            Self::ReconciliationCompleted {
                member_epoch,
                partitions,
            } => write!(
                f,
                "reconciliation done at epoch {member_epoch}: owns {}; acknowledges on the next heartbeat",
                Partitions(partitions)
            ),
            Self::ReconciliationDiscarded { reason } => write!(f, "reconciliation discarded ({reason})"),
            Self::PollTimerExpired {
                max_poll_interval_ms,
                leave_epoch,
            } => write!(
                f,
                "no poll() for max.poll.interval.ms={max_poll_interval_ms}: leaves the group (epoch {leave_epoch}) and stays stale until the next poll()"
            ),
        }
    }
}

// ================================================================================== the drive

use super::{Consumer, MemberState as ClassicMemberState};
use crate::topic::Topics;

impl Consumer {
    /// `subscribe()` and the first `poll()`: the member id is generated for the process's lifetime
    /// (KIP-1082: a client-generated id, kept across rejoins), and the member starts JOINING.
    pub(super) fn start_consumer_protocol(&mut self, now: SimTime, topics: &Topics) {
        self.member_id = generate_member_id(&self.cfg.group_id, &self.cfg.name, &self.cfg.client_id, now);
        self.events.push_back(super::ClientEvent::ConsumerProtocol(
            ConsumerProtocolEvent::Started {
                member_id: self.member_id.clone(),
                subscription: self.cfg.subscription.clone(),
                server_assignor: self.cfg.server_assignor.clone(),
                group_instance_id: self.cfg.group_instance_id.clone(),
            },
        ));
        if let super::CommitMode::Auto { interval_ms } = self.cfg.commit {
            self.next_auto_commit = now + crate::time::SimDuration::from_millis(interval_ms);
        }
        self.enter_poll(now);
        self.maybe_refresh_metadata(now, topics);
        self.set_member_epoch(0);
        if let Some(m) = self.kip848.as_deref_mut() {
            m.heartbeat_now = true;
        }
        self.transition(ConsumerMemberState::Joining);
    }

    /// The background thread (Kafka: `ConsumerNetworkThread` polling the request managers): the
    /// poll timer, coordinator discovery, reconciliation, heartbeats.
    pub(super) fn background_thread(&mut self, now: SimTime) {
        if self.pause.as_ref().is_some_and(|p| p.heartbeats) {
            return;
        }
        self.reconcile_commit_done();
        self.maybe_poll_timer_expired(now);
        let Some(state) = self.kip848().map(|m| m.state) else {
            return;
        };
        if self.coordinator.is_none() {
            if state.is_active() || state == ConsumerMemberState::Leaving {
                self.find_coordinator(now);
            }
            return;
        }
        self.maybe_reconcile(now);
        self.maybe_send_consumer_heartbeat(now);
    }

    /// One pass of `poll()` for a consumer-protocol consumer: the callbacks the background thread
    /// queued (lost, then revoke/assign), the positions of new partitions, auto-commit, a fetch.
    /// Fetching goes on while the coordinator is unknown: only OffsetFetch needs it.
    pub(super) fn consumer_poll_step(&mut self, now: SimTime, topics: &Topics) {
        if self.backoff_until <= now {
            self.backoff_until = SimTime::ZERO;
        }
        self.maybe_refresh_metadata(now, topics);
        if self.blocking_commit.is_some() {
            return;
        }
        self.run_pending_loss(now);
        if self.run_reconciliation_callbacks(now) {
            return;
        }
        if self.coordinator.is_none() {
            self.find_coordinator(now);
            if self.positions.len() < self.owned.len() {
                return;
            }
        } else if self.positions_missing(now) {
            return;
        }
        self.maybe_auto_commit(now);
        self.fetch(now, topics);
    }

    /// The consumer-protocol member state (`None` for a classic consumer).
    pub fn consumer_member_state(&self) -> Option<ConsumerMemberState> {
        self.kip848().map(|m| m.state)
    }

    /// The member epoch (`None` for a classic consumer).
    pub fn member_epoch(&self) -> Option<i32> {
        self.kip848().map(|m| m.epoch)
    }

    /// The latest assignment the coordinator sent (`None` before one, and for a classic consumer).
    pub fn target_assignment(&self) -> Option<&Set<TopicPartition>> {
        self.kip848().and_then(|m| m.target.as_ref())
    }

    /// The heartbeat interval the coordinator returned (0 before the first answer; `None` for a
    /// classic consumer).
    pub fn heartbeat_interval_ms(&self) -> Option<u64> {
        self.kip848().map(|m| m.heartbeat_interval_ms)
    }

    /// The classic member state a consumer-protocol member is drawn with where only that type fits.
    pub(super) fn kip848_classic_state(&self) -> Option<ClassicMemberState> {
        self.kip848().map(|m| match m.state {
            ConsumerMemberState::Joining => ClassicMemberState::PreparingRebalance,
            ConsumerMemberState::Reconciling
            | ConsumerMemberState::Acknowledging
            | ConsumerMemberState::Stable => ClassicMemberState::Stable,
            ConsumerMemberState::Unsubscribed
            | ConsumerMemberState::Fenced
            | ConsumerMemberState::PrepareLeaving
            | ConsumerMemberState::Leaving
            | ConsumerMemberState::Fatal
            | ConsumerMemberState::Stale => ClassicMemberState::Unjoined,
        })
    }
}

/// A member id as the Java client makes one (`Uuid.randomUuid().toString()`: 22 URL-safe base64
/// characters), but derived from the group, the consumer and its start time instead of randomness,
/// so that runs are reproducible and a restarted process gets a new id.
pub(crate) fn generate_member_id(group: &str, name: &str, client_id: &str, now: SimTime) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut h: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    for part in [
        group,
        "\u{0}",
        name,
        "\u{0}",
        client_id,
        "\u{0}",
        &now.as_millis().to_string(),
    ] {
        for b in part.bytes() {
            h ^= u128::from(b);
            h = h.wrapping_mul(0x0000_0000_0100_0000_0000_0000_0000_013B);
        }
    }
    (0..22)
        .map(|i| char::from(ALPHABET[((h >> (i * 6 % 128)) & 63) as usize]))
        .collect()
}
