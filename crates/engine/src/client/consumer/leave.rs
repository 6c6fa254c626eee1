//! The ways out of the group (reference §11): fencing (`transitionToFenced`: `onPartitionsLost`,
//! then JOINING with epoch 0), the poll timer (`maxPollIntervalExceeded`: leave, STALE,
//! `onPartitionsLost`, rejoin at the next `poll()`), and leaving on close (PREPARE_LEAVING,
//! `onPartitionsRevoked`, LEAVING with epoch -1, or -2 for a static member).

use super::{ConsumerMemberState, ConsumerProtocolEvent, PendingLoss};
use crate::client::{App, ClientEvent, CommitReason, Consumer};
use crate::protocol::{TopicPartition, LEAVE_GROUP_MEMBER_EPOCH, LEAVE_GROUP_STATIC_MEMBER_EPOCH};
use crate::time::SimTime;

impl Consumer {
    /// The epoch a leave heartbeat carries (Kafka: `leaveGroupEpoch`).
    fn leave_epoch(&self) -> i32 {
        if self.cfg.is_static() {
            LEAVE_GROUP_STATIC_MEMBER_EPOCH
        } else {
            LEAVE_GROUP_MEMBER_EPOCH
        }
    }

    /// `UNKNOWN_MEMBER_ID` or `FENCED_MEMBER_EPOCH`: the member is no longer in the group. The
    /// reconciliation in progress is dropped; `onPartitionsLost` runs at the next `poll()` (at once
    /// when nothing is owned), and then the member rejoins with epoch 0.
    pub(in crate::client) fn transition_to_fenced(&mut self, now: SimTime) {
        self.discard_reconciliation("the member was fenced");
        self.transition(ConsumerMemberState::Fenced);
        if let Some(m) = self.kip848.as_deref_mut() {
            m.pending_loss = Some(PendingLoss::Fenced);
        }
        if self.owned.is_empty() {
            self.finish_loss(now);
        }
    }

    /// Background thread: `max.poll.interval.ms` passed while the application processes a batch.
    /// Kafka: `transitionToSendingLeaveGroup(true)`: briefly PREPARE_LEAVING (nothing is
    /// released: the partitions will be lost), LEAVING with the leave epoch, and STALE once the
    /// leave heartbeat is sent.
    pub(in crate::client) fn maybe_poll_timer_expired(&mut self, now: SimTime) {
        let active = self.kip848().is_some_and(|m| m.state.is_active());
        if !active || !matches!(self.app, App::Processing(_)) || now < self.poll_deadline_raw() {
            return;
        }
        let leave_epoch = self.leave_epoch();
        self.events.push_back(ClientEvent::ConsumerProtocol(
            ConsumerProtocolEvent::PollTimerExpired {
                max_poll_interval_ms: self.cfg.max_poll_interval_ms,
                leave_epoch,
            },
        ));
        self.discard_reconciliation("the poll timer expired");
        if let Some(m) = self.kip848.as_deref_mut() {
            m.poll_timer_expired = true;
        }
        self.transition(ConsumerMemberState::PrepareLeaving);
        self.start_leaving(leave_epoch);
    }

    /// PREPARE_LEAVING -> LEAVING: the leave heartbeat goes out at once.
    fn start_leaving(&mut self, leave_epoch: i32) {
        self.set_member_epoch(leave_epoch);
        if let Some(m) = self.kip848.as_deref_mut() {
            m.target = None;
            m.heartbeat_now = true;
            m.heartbeat_backoff_until = SimTime::ZERO;
        }
        self.transition(ConsumerMemberState::Leaving);
    }

    /// Application thread, inside `poll()`: the `onPartitionsLost` the background thread queued
    /// (fenced, or stale), then the rejoin.
    pub(in crate::client) fn run_pending_loss(&mut self, now: SimTime) {
        if self.kip848().is_some_and(|m| m.pending_loss.is_some()) {
            self.finish_loss(now);
        }
    }

    fn finish_loss(&mut self, _now: SimTime) {
        let Some(why) = self.kip848.as_deref_mut().and_then(|m| m.pending_loss.take()) else {
            return;
        };
        if !self.owned.is_empty() {
            let partitions: Vec<TopicPartition> = self.owned.iter().cloned().collect();
            self.events.push_back(ClientEvent::PartitionsLost { partitions });
        }
        self.drop_partitions_all();
        self.set_member_epoch(0);
        if let Some(m) = self.kip848.as_deref_mut() {
            m.target = None;
            m.target_local_epoch = -1;
            m.current_local_epoch = -1;
            m.sent = None;
            m.poll_timer_expired = false;
            m.heartbeat_now = true;
        }
        match why {
            PendingLoss::Fenced | PendingLoss::Stale => self.transition(ConsumerMemberState::Joining),
        }
    }

    /// `close()`: the batch in progress is abandoned, processed offsets are committed, and a member
    /// in the group releases its partitions (`onPartitionsRevoked`; lost if it has no epoch) and
    /// sends the leave heartbeat: epoch -1, or -2 for a static member, which keeps its partitions
    /// on the coordinator until its session expires (reference §8.6). Then it stops.
    pub(in crate::client) fn close_consumer_protocol(&mut self, now: SimTime) {
        self.abandon_batch();
        self.discard_reconciliation("the consumer is being closed");
        self.blocking_commit = None;
        self.commit(now, CommitReason::OnClose);
        let state = self
            .kip848()
            .map_or(ConsumerMemberState::Unsubscribed, |m| m.state);
        if state.is_active() {
            self.transition(ConsumerMemberState::PrepareLeaving);
            if !self.owned.is_empty() {
                let partitions: Vec<TopicPartition> = self.owned.iter().cloned().collect();
                if self.generation > 0 {
                    self.events
                        .push_back(ClientEvent::PartitionsRevoked { partitions });
                } else {
                    self.events.push_back(ClientEvent::PartitionsLost { partitions });
                }
            }
            self.drop_partitions_all();
            let leave_epoch = self.leave_epoch();
            self.start_leaving(leave_epoch);
            self.maybe_send_consumer_heartbeat(now);
            if self
                .kip848()
                .is_some_and(|m| m.state == ConsumerMemberState::Leaving)
            {
                // No coordinator to send it to: Kafka gives up on the leave when close times out.
                self.transition(ConsumerMemberState::Unsubscribed);
            }
        }
    }
}
