//! The heartbeat manager (Kafka: `ConsumerHeartbeatRequestManager`, `AbstractHeartbeatRequestManager`
//! and `HeartbeatState.buildRequestData`, reference §4 and §11): one `ConsumerGroupHeartbeat` in
//! flight at a time, at the interval the coordinator returns, at once when joining, acknowledging or
//! leaving; every field when joining (or after an error), only what changed otherwise; and the
//! reactions to the response.

use crate::collections::Map;
use crate::collections::Set;

use super::{ConsumerMemberState, ConsumerProtocolEvent, Membership};
use crate::client::{ClientEvent, Consumer, IgnoreReason, InFlight, Reaction};
use crate::protocol::{
    Api, ConsumerGroupHeartbeatRequest, ConsumerGroupHeartbeatResponse,
    ConsumerGroupHeartbeatTopicPartitions, ErrorCode, Request, TopicId, TopicPartition,
    CONSUMER_GROUP_HEARTBEAT_LATEST_VERSION,
};
use crate::time::{SimDuration, SimTime};
use crate::topic::Subscription;

/// What the last heartbeat sent (Kafka: `HeartbeatState.SentFields`), to send only what changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SentFields {
    rebalance_timeout_ms: i32,
    subscribed_topic_names: Option<Vec<String>>,
    subscribed_topic_regex: Option<String>,
    server_assignor: Option<String>,
    /// The local epoch of the assignment last reported in `TopicPartitions`.
    local_epoch: i64,
}

impl Consumer {
    pub(in crate::client) fn kip848(&self) -> Option<&Membership> {
        self.kip848.as_deref()
    }

    /// Moves to `to`, logging Kafka's transition line. A transition Kafka's client does not allow
    /// is a bug of this model (debug builds stop on it).
    pub(in crate::client) fn transition(&mut self, to: ConsumerMemberState) {
        let Some(m) = self.kip848.as_deref_mut() else {
            return;
        };
        let from = m.state;
        if from == to {
            return;
        }
        debug_assert!(
            to.can_come_from(from),
            "invalid member state transition {from} -> {to}"
        );
        m.state = to;
        let member_epoch = m.epoch;
        self.events.push_back(ClientEvent::ConsumerProtocol(
            ConsumerProtocolEvent::StateChanged {
                member_id: self.member_id.clone(),
                member_epoch,
                from,
                to,
            },
        ));
    }

    /// Sets the member epoch (the classic `generation` follows it: commits and views read it).
    pub(in crate::client) fn set_member_epoch(&mut self, epoch: i32) {
        if let Some(m) = self.kip848.as_deref_mut() {
            m.epoch = epoch;
        }
        self.generation = epoch;
    }

    /// Whether the background thread would send a heartbeat now if the timer allowed it.
    pub(in crate::client) fn heartbeat_sendable(&self) -> bool {
        let Some(m) = self.kip848() else {
            return false;
        };
        self.lifecycle.is_running()
            && self.coordinator.is_some()
            && matches!(
                m.state,
                ConsumerMemberState::Joining
                    | ConsumerMemberState::Reconciling
                    | ConsumerMemberState::Acknowledging
                    | ConsumerMemberState::Stable
                    | ConsumerMemberState::Leaving
            )
            && !self.has_in_flight(Api::ConsumerGroupHeartbeat)
            && !self.pause.as_ref().is_some_and(|p| p.heartbeats)
    }

    /// When the heartbeat timer fires, if a heartbeat can be sent at all.
    pub(in crate::client) fn consumer_heartbeat_deadline(&self) -> Option<SimTime> {
        let m = self.kip848()?;
        if !self.heartbeat_sendable() {
            return None;
        }
        if m.heartbeat_now {
            // Sent by the drive unless a backoff holds it.
            (m.heartbeat_backoff_until > SimTime::ZERO).then_some(m.heartbeat_backoff_until)
        } else {
            Some(m.next_heartbeat.max(m.heartbeat_backoff_until))
        }
    }

    /// Sends the heartbeat if it is due.
    pub(in crate::client) fn maybe_send_consumer_heartbeat(&mut self, now: SimTime) {
        if !self.heartbeat_sendable() {
            return;
        }
        let Some(m) = self.kip848() else {
            return;
        };
        if now < m.heartbeat_backoff_until || !(m.heartbeat_now || now >= m.next_heartbeat) {
            return;
        }
        let request = self.build_heartbeat();
        self.send(
            now,
            Api::ConsumerGroupHeartbeat,
            Request::ConsumerGroupHeartbeat(Box::new(request)),
        );
        let Some(m) = self.kip848.as_deref_mut() else {
            return;
        };
        m.heartbeat_now = false;
        m.heartbeat_backoff_until = SimTime::ZERO;
        m.next_heartbeat = now + SimDuration::from_millis(m.heartbeat_interval_ms);
        self.on_heartbeat_request_generated();
    }

    /// Kafka: `HeartbeatState.buildRequestData`. Records what it sent.
    fn build_heartbeat(&mut self) -> ConsumerGroupHeartbeatRequest {
        let rebalance_timeout_ms = i32::try_from(self.cfg.max_poll_interval_ms).unwrap_or(i32::MAX);
        let (names, regex) = match &self.cfg.subscription {
            Subscription::Topics(ts) => {
                let set: Set<&String> = ts.iter().collect();
                (Some(set.into_iter().cloned().collect::<Vec<_>>()), None)
            }
            Subscription::Pattern(p) => (None, Some(p.clone())),
        };
        let assignor = self.cfg.server_assignor.clone();
        let owned = owned_by_topic(&self.owned);
        let Some(m) = self.kip848.as_deref_mut() else {
            return ConsumerGroupHeartbeatRequest::default();
        };
        // Every field when joining, and after an error or a failed request (the state was reset).
        let sent = if m.state == ConsumerMemberState::Joining {
            None
        } else {
            m.sent.clone()
        };
        let full = sent.is_none();
        let changed = |old: Option<&SentFields>, f: &dyn Fn(&SentFields) -> bool| old.is_none_or(|s| !f(s));
        let mut req = ConsumerGroupHeartbeatRequest {
            api_version: CONSUMER_GROUP_HEARTBEAT_LATEST_VERSION,
            group_id: self.cfg.group_id.clone(),
            member_id: self.member_id.clone(),
            member_epoch: m.epoch,
            instance_id: self.cfg.group_instance_id.clone(),
            // `client.rack`: Kafka sends it only with every field (joining), never after.
            rack_id: None,
            rebalance_timeout_ms: -1,
            subscribed_topic_names: None,
            subscribed_topic_regex: None,
            server_assignor: None,
            topic_partitions: None,
            client_id: self.cfg.client_id.clone(),
            client_host: "/127.0.0.1".into(),
        };
        if m.state == ConsumerMemberState::Leaving {
            // The leave heartbeat carries the ids and the leave epoch only.
            m.sent = None;
            return req;
        }
        if full {
            req.rack_id = self.cfg.client_rack.clone();
        }
        if changed(sent.as_ref(), &|s| s.rebalance_timeout_ms == rebalance_timeout_ms) {
            req.rebalance_timeout_ms = rebalance_timeout_ms;
        }
        if changed(sent.as_ref(), &|s| s.subscribed_topic_names == names) && names.is_some() {
            req.subscribed_topic_names = names.clone();
        }
        if changed(sent.as_ref(), &|s| s.subscribed_topic_regex == regex) && regex.is_some() {
            req.subscribed_topic_regex = regex.clone();
        }
        if full || changed(sent.as_ref(), &|s| s.server_assignor == assignor) {
            req.server_assignor = assignor.clone();
        }
        let local_epoch = m.current_local_epoch;
        if changed(sent.as_ref(), &|s| s.local_epoch == local_epoch) {
            req.topic_partitions = Some(owned);
        }
        m.sent = Some(SentFields {
            rebalance_timeout_ms,
            subscribed_topic_names: names,
            subscribed_topic_regex: regex,
            server_assignor: assignor,
            local_epoch,
        });
        req
    }

    /// Kafka: `AbstractMembershipManager.onHeartbeatRequestGenerated`: an acknowledgement moves
    /// the member to STABLE (or back to RECONCILING if a newer target arrived meanwhile); a leave
    /// ends in UNSUBSCRIBED, or STALE when the poll timer caused it.
    fn on_heartbeat_request_generated(&mut self) {
        let Some(m) = self.kip848() else {
            return;
        };
        match m.state {
            ConsumerMemberState::Acknowledging => {
                if m.reconciled() {
                    self.transition(ConsumerMemberState::Stable);
                } else {
                    self.transition(ConsumerMemberState::Reconciling);
                }
            }
            ConsumerMemberState::Leaving => {
                if m.poll_timer_expired {
                    self.transition(ConsumerMemberState::Stale);
                    if let Some(m) = self.kip848.as_deref_mut() {
                        m.pending_loss = Some(super::PendingLoss::Stale);
                    }
                } else {
                    self.transition(ConsumerMemberState::Unsubscribed);
                }
            }
            _ => {}
        }
    }

    /// A `ConsumerGroupHeartbeat` response.
    pub(in crate::client) fn on_consumer_heartbeat_response(
        &mut self,
        now: SimTime,
        f: &InFlight,
        r: ConsumerGroupHeartbeatResponse,
    ) {
        let Some(state) = self.kip848().map(|m| m.state) else {
            return;
        };
        if !r.error_code.is_none() {
            self.on_consumer_heartbeat_error(now, f, &r);
            return;
        }
        if !state.is_active() {
            // The answer to a leave (it echoes -1 or -2), or to a heartbeat sent before the member
            // left: Kafka ignores it ("not a member of the group").
            self.events.push_back(ClientEvent::ResponseIgnored {
                api: Api::ConsumerGroupHeartbeat,
                correlation_id: f.correlation_id,
                why: IgnoreReason::NotInGroup,
            });
            return;
        }
        if let Some(id) = r.member_id.as_ref().filter(|id| !id.is_empty()) {
            if *id != self.member_id {
                self.member_id = id.clone();
            }
        }
        self.set_member_epoch(r.member_epoch);
        let interval = u64::try_from(r.heartbeat_interval_ms).unwrap_or(0);
        let Some(m) = self.kip848.as_deref_mut() else {
            return;
        };
        if interval != m.heartbeat_interval_ms {
            // `heartbeatTimer.updateAndReset(heartbeatIntervalMs)`.
            m.heartbeat_interval_ms = interval;
            m.next_heartbeat = now + SimDuration::from_millis(interval);
        }
        let Some(assignment) = r.assignment else {
            return;
        };
        let parts: Set<TopicPartition> = assignment
            .topic_partitions
            .iter()
            .flat_map(|t| {
                t.partitions
                    .iter()
                    .map(move |p| TopicPartition::new(t.topic_id.0.clone(), *p))
            })
            .collect();
        if m.target.as_ref() != Some(&parts) {
            m.target_local_epoch += 1;
            m.target = Some(parts.clone());
            let member_epoch = m.epoch;
            self.events.push_back(ClientEvent::ConsumerProtocol(
                ConsumerProtocolEvent::AssignmentReceived {
                    member_epoch,
                    partitions: parts.into_iter().collect(),
                },
            ));
        }
        let reconciled = self.kip848().is_some_and(Membership::reconciled);
        if !reconciled {
            self.transition(ConsumerMemberState::Reconciling);
        } else if state == ConsumerMemberState::Joining {
            self.transition(ConsumerMemberState::Stable);
        }
    }

    /// Kafka: `ConsumerHeartbeatRequestManager.onErrorResponse` (4.1), reference §4.4.
    fn on_consumer_heartbeat_error(
        &mut self,
        now: SimTime,
        f: &InFlight,
        r: &ConsumerGroupHeartbeatResponse,
    ) {
        let e = r.error_code;
        let api = Api::ConsumerGroupHeartbeat;
        if let Some(m) = self.kip848.as_deref_mut() {
            // `heartbeatState.reset()`: the next heartbeat sends every field.
            m.sent = None;
        }
        let state = self
            .kip848()
            .map_or(ConsumerMemberState::Unsubscribed, |m| m.state);
        match e {
            ErrorCode::NotCoordinator | ErrorCode::CoordinatorNotAvailable => {
                self.react(e, api, Reaction::Rediscover);
                self.mark_coordinator_unknown(now, e.name());
                if let Some(m) = self.kip848.as_deref_mut() {
                    m.heartbeat_now = true;
                }
            }
            ErrorCode::CoordinatorLoadInProgress => {
                self.react(e, api, Reaction::RetryHeartbeatAfterBackoff);
                let backoff = now + SimDuration::from_millis(self.cfg.retry_backoff_ms.max(1));
                if let Some(m) = self.kip848.as_deref_mut() {
                    m.heartbeat_now = true;
                    m.heartbeat_backoff_until = backoff;
                }
            }
            ErrorCode::UnknownMemberId | ErrorCode::FencedMemberEpoch => {
                let same = f.generation == self.generation && f.member_id == self.member_id;
                if !state.is_active() || !same {
                    self.events.push_back(ClientEvent::ResponseIgnored {
                        api,
                        correlation_id: f.correlation_id,
                        why: IgnoreReason::StaleError { error: e },
                    });
                    return;
                }
                self.react(e, api, Reaction::TransitionToFenced);
                self.transition_to_fenced(now);
            }
            other => {
                // UNRELEASED_INSTANCE_ID, FENCED_INSTANCE_ID, UNSUPPORTED_ASSIGNOR, INVALID_REQUEST,
                // GROUP_MAX_SIZE_REACHED, INVALID_REGULAR_EXPRESSION, GROUP_ID_NOT_FOUND, ... are
                // fatal (the default branch too).
                if !state.is_active() && state != ConsumerMemberState::Leaving {
                    self.events.push_back(ClientEvent::ResponseIgnored {
                        api,
                        correlation_id: f.correlation_id,
                        why: IgnoreReason::StaleError { error: other },
                    });
                    return;
                }
                self.react(other, api, Reaction::FatalMemberState);
                self.transition(ConsumerMemberState::Fatal);
                let detail = r.error_message.as_deref().unwrap_or("");
                self.fatal(if detail.is_empty() {
                    format!("ConsumerGroupHeartbeat failed with {other}")
                } else {
                    format!("ConsumerGroupHeartbeat failed with {other}: {detail}")
                });
            }
        }
    }

    /// A heartbeat failed without a response (timeout, disconnect): the next one sends every
    /// field, as soon as the coordinator is known again.
    pub(in crate::client) fn consumer_heartbeat_failed(&mut self) {
        if let Some(m) = self.kip848.as_deref_mut() {
            m.sent = None;
            if m.state.is_active() {
                m.heartbeat_now = true;
            }
        }
    }
}

/// Owned partitions as the heartbeat's `TopicPartitions` (topic ids are topic names here).
pub(in crate::client) fn owned_by_topic(
    owned: &Set<TopicPartition>,
) -> Vec<ConsumerGroupHeartbeatTopicPartitions> {
    let mut by: Map<&str, Vec<i32>> = Map::new();
    for tp in owned {
        by.entry(tp.topic.as_str()).or_default().push(tp.partition);
    }
    by.into_iter()
        .map(|(t, ps)| ConsumerGroupHeartbeatTopicPartitions {
            topic_id: TopicId(t.to_owned()),
            partitions: ps,
        })
        .collect()
}
