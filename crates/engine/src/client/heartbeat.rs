//! The heartbeat thread (Kafka: `AbstractCoordinator.HeartbeatThread`): a Heartbeat every
//! `heartbeat.interval.ms` while the member is in `COMPLETING_REBALANCE` or `STABLE`, the client's
//! own `session.timeout.ms` (no heartbeat answer: the coordinator is marked unknown), and
//! `max.poll.interval.ms` (no `poll()`: the member leaves the group), and the reactions to a
//! Heartbeat response (reference §8.1).

use super::{App, ClientEvent, Consumer, IgnoreReason, InFlight, MemberState, Reaction, ResetReason};
use crate::protocol::{Api, ErrorCode, HeartbeatRequest, Request};
use crate::time::{SimDuration, SimTime};
impl Consumer {
    pub(super) fn heartbeat_enabled(&self) -> bool {
        self.lifecycle.is_running()
            && self.coordinator.is_some()
            && matches!(self.state, MemberState::CompletingRebalance | MemberState::Stable)
    }

    pub(super) fn poll_deadline_raw(&self) -> SimTime {
        self.last_poll + SimDuration::from_millis(self.cfg.max_poll_interval_ms)
    }

    pub(super) fn heartbeat_thread(&mut self, now: SimTime) {
        if self.pause.as_ref().is_some_and(|p| p.heartbeats) {
            return;
        }
        // The heartbeat thread rediscovers a lost coordinator itself while the member is in a
        // generation (Kafka: HeartbeatThread.run, `coordinatorUnknown()` branch).
        if self.coordinator.is_none()
            && matches!(self.state, MemberState::CompletingRebalance | MemberState::Stable)
        {
            self.find_coordinator(now);
            return;
        }
        if !self.heartbeat_enabled() {
            return;
        }
        // Kafka: HeartbeatThread.run — session, then poll timeout, then the heartbeat itself.
        let session_deadline =
            self.last_heartbeat_ack + SimDuration::from_millis(self.cfg.session_timeout_ms);
        if now >= session_deadline {
            self.mark_coordinator_unknown(now, "session timed out without receiving a heartbeat response");
            return;
        }
        if matches!(self.app, App::Processing(_)) && now >= self.poll_deadline_raw() {
            self.poll_timeout_leave(now);
            return;
        }
        if now >= self.next_heartbeat && !self.has_in_flight(Api::Heartbeat) {
            let req = Request::Heartbeat(HeartbeatRequest {
                group_id: self.cfg.group_id.clone(),
                generation_id: self.generation,
                member_id: self.member_id.clone(),
                group_instance_id: self.cfg.group_instance_id.clone(),
            });
            self.send(now, Api::Heartbeat, req);
            self.next_heartbeat = now + SimDuration::from_millis(self.cfg.heartbeat_interval_ms);
        }
    }

    pub(super) fn on_heartbeat_response(&mut self, now: SimTime, f: &InFlight, e: ErrorCode) {
        if e.is_none() {
            self.last_heartbeat_ack = now;
            return;
        }
        // Errors about a generation the client has already left are ignored.
        let same_generation = f.generation == self.generation && f.member_id == self.member_id;
        match e {
            ErrorCode::RebalanceInProgress => {
                // Still a successful heartbeat for the session.
                self.last_heartbeat_ack = now;
                if self.state == MemberState::Stable {
                    self.react(e, Api::Heartbeat, Reaction::RequestRejoin);
                    self.request_rejoin("the group is rebalancing (heartbeat got REBALANCE_IN_PROGRESS)");
                }
            }
            ErrorCode::UnknownMemberId | ErrorCode::IllegalGeneration if !same_generation => {
                self.events.push_back(ClientEvent::ResponseIgnored {
                    api: Api::Heartbeat,
                    correlation_id: f.correlation_id,
                    why: IgnoreReason::StaleError { error: e },
                });
            }
            ErrorCode::UnknownMemberId => {
                self.react(e, Api::Heartbeat, Reaction::ResetAndRejoin);
                self.reset_generation(
                    false,
                    ResetReason::Error {
                        api: Api::Heartbeat,
                        error: e,
                    },
                );
            }
            ErrorCode::IllegalGeneration => {
                self.react(e, Api::Heartbeat, Reaction::ResetKeepMemberIdAndRejoin);
                self.reset_generation(
                    true,
                    ResetReason::Error {
                        api: Api::Heartbeat,
                        error: e,
                    },
                );
            }
            ErrorCode::CoordinatorNotAvailable | ErrorCode::NotCoordinator => {
                self.react(e, Api::Heartbeat, Reaction::Rediscover);
                self.mark_coordinator_unknown(now, e.name());
            }
            ErrorCode::CoordinatorLoadInProgress => {
                self.react(e, Api::Heartbeat, Reaction::RetryHeartbeatAfterBackoff);
                self.next_heartbeat = now + SimDuration::from_millis(self.cfg.retry_backoff_ms);
            }
            ErrorCode::FencedInstanceId if same_generation => {
                self.react(e, Api::Heartbeat, Reaction::FatalHeartbeatThread);
                self.fatal("Heartbeat failed with FENCED_INSTANCE_ID: another consumer now uses this group.instance.id".into());
            }
            ErrorCode::FencedInstanceId => {}
            other => {
                self.react(other, Api::Heartbeat, Reaction::FatalHeartbeatThread);
                self.fatal(format!("Heartbeat failed with {other}"));
            }
        }
    }

    /// `max.poll.interval.ms` expired (Kafka: `maybeLeaveGroup("consumer poll timeout has
    /// expired.")`): a dynamic member sends LeaveGroup; both reset their generation and member id.
    pub(super) fn poll_timeout_leave(&mut self, now: SimTime) {
        let sends = !self.cfg.is_static() && self.coordinator.is_some() && !self.member_id.is_empty();
        self.events.push_back(ClientEvent::PollTimeout {
            max_poll_interval_ms: self.cfg.max_poll_interval_ms,
            sends_leave_group: sends,
        });
        self.maybe_leave_group(
            now,
            "consumer poll timeout has expired.",
            ResetReason::PollTimeout,
        );
    }
}
