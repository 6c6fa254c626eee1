//! The consumer's deadlines as data: which timer, and when. Unlike the coordinator's
//! [`TimerTable`](crate::coordinator::timers::TimerTable) nothing is stored: each deadline follows
//! from the consumer's state (a request in flight, the batch in progress, the last heartbeat
//! answer), so the table is read off that state, and [`Consumer::poll_timeout`] is its `min`.
//! What fires, and in which order, is decided by [`Consumer::handle_timeout`], not here.

use std::fmt;

use super::{App, Consumer};
use crate::protocol::Api;
use crate::time::{SimDuration, SimTime};

/// One of the consumer's timers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ClientTimer {
    /// A pause with an end ([`Consumer::pause`] with `until`).
    PauseEnd,
    /// A request's `request.timeout.ms` (a JoinGroup's is `max.poll.interval.ms` + 5 s).
    RequestTimeout {
        /// The request's correlation id.
        correlation_id: i32,
    },
    /// `retry.backoff.ms` after a failed lookup or a retriable error.
    Backoff,
    /// The batch in progress is processed ([`super::ConsumerConfig::processing_ms`]).
    BatchEnd,
    /// The heartbeat thread's next Heartbeat (`heartbeat.interval.ms`).
    Heartbeat,
    /// The client's own `session.timeout.ms`: no heartbeat answer for that long.
    Session,
    /// `max.poll.interval.ms`: no `poll()` for that long.
    PollInterval,
}

impl fmt::Display for ClientTimer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::PauseEnd => f.write_str("pause end"),
            Self::RequestTimeout { correlation_id } => write!(f, "request #{correlation_id} timeout"),
            Self::Backoff => f.write_str("retry.backoff.ms"),
            Self::BatchEnd => f.write_str("batch end"),
            Self::Heartbeat => f.write_str("heartbeat.interval.ms"),
            Self::Session => f.write_str("session.timeout.ms"),
            Self::PollInterval => f.write_str("max.poll.interval.ms"),
        }
    }
}

impl Consumer {
    /// The armed timers and their deadlines (none once the consumer stopped). A frozen process (a
    /// GC pause) only waits for the end of its pause.
    pub fn timers(&self) -> Vec<(ClientTimer, SimTime)> {
        let mut out = Vec::new();
        self.each_timer(|timer, at| out.push((timer, at)));
        out
    }

    /// Calls `f` with every armed timer (without collecting them: [`Consumer::poll_timeout`] runs
    /// after every input).
    pub(super) fn each_timer(&self, mut f: impl FnMut(ClientTimer, SimTime)) {
        if !self.lifecycle.is_running() {
            return;
        }
        if let Some(until) = self.pause.as_ref().and_then(|p| p.until) {
            f(ClientTimer::PauseEnd, until);
        }
        if self.is_frozen() {
            return;
        }
        for fl in self.in_flight.values() {
            let timer = ClientTimer::RequestTimeout {
                correlation_id: fl.correlation_id,
            };
            f(timer, fl.deadline);
        }
        if self.backoff_until > SimTime::ZERO {
            f(ClientTimer::Backoff, self.backoff_until);
        }
        let polls_paused = self.pause.as_ref().is_some_and(|p| p.polls);
        if !polls_paused {
            if let App::Processing(p) = &self.app {
                f(ClientTimer::BatchEnd, p.until);
            }
        }
        let hb_paused = self.pause.as_ref().is_some_and(|p| p.heartbeats);
        if let Some(state) = self.consumer_member_state() {
            if hb_paused {
                return;
            }
            if let Some(at) = self.consumer_heartbeat_deadline() {
                f(ClientTimer::Heartbeat, at);
            }
            if state.is_active() && matches!(self.app, App::Processing(_)) {
                f(ClientTimer::PollInterval, self.poll_deadline_raw());
            }
            return;
        }
        if !hb_paused && self.heartbeat_enabled() {
            if !self.has_in_flight(Api::Heartbeat) {
                f(ClientTimer::Heartbeat, self.next_heartbeat);
            }
            let session = self.last_heartbeat_ack + SimDuration::from_millis(self.cfg.session_timeout_ms);
            f(ClientTimer::Session, session);
            if matches!(self.app, App::Processing(_)) {
                f(ClientTimer::PollInterval, self.poll_deadline_raw());
            }
        }
    }
}
