//! The way back from the simulation to the file format: a consumer's settings as a
//! [`ConsumerSpec`], an applied [`Action`] as a timed [`ActionSpec`]. The inverse of
//! [`Scenario::timed_actions`](super::Scenario::timed_actions): a session is written as a scenario
//! (a share link, an exported file) with these, and replays exactly.

use super::{ActionSpec, ConsumerSpec};
use crate::client::{ConsumerConfig, GroupProtocol};
use crate::sim::Action;
use crate::time::SimTime;

impl ConsumerSpec {
    /// A consumer's full settings, every field explicit, so that the entry does not depend on the
    /// scenario's `client_defaults`.
    pub fn from_config(c: &ConsumerConfig) -> Self {
        // The consumer protocol refuses the classic-only settings (`assignors`, the session
        // timeout and the heartbeat interval): they are left out for it.
        let classic = c.group_protocol == GroupProtocol::Classic;
        Self {
            name: Some(c.name.clone()),
            start_ms: None,
            client_id: Some(c.client_id.clone()),
            group_instance_id: c.group_instance_id.clone(),
            // Left out for the default, so that a classic session writes the file it always wrote.
            group_protocol: (c.group_protocol != GroupProtocol::Classic).then_some(c.group_protocol),
            server_assignor: c.server_assignor.clone(),
            rack_id: c.client_rack.clone(),
            assignors: classic.then(|| c.assignors.clone()),
            subscription: Some(c.subscription.clone()),
            session_timeout_ms: classic.then_some(c.session_timeout_ms),
            heartbeat_interval_ms: classic.then_some(c.heartbeat_interval_ms),
            max_poll_interval_ms: Some(c.max_poll_interval_ms),
            processing_ms: Some(c.processing_ms),
            max_poll_records: Some(c.max_poll_records),
            commit: Some(c.commit),
            commit_in_revoke: Some(c.commit_in_revoke),
            metadata_max_age_ms: Some(c.metadata_max_age_ms),
            retry_backoff_ms: Some(c.retry_backoff_ms),
            request_timeout_ms: Some(c.request_timeout_ms),
        }
    }
}

impl ActionSpec {
    /// An action applied at `at`, as the file writes it.
    pub fn from_action(at: SimTime, action: &Action) -> Self {
        let at_ms = at.as_millis();
        match action.clone() {
            Action::AddConsumer { config } => Self::AddConsumer {
                at_ms,
                consumer: ConsumerSpec::from_config(&config),
            },
            Action::Kill { consumer } => Self::Kill { at_ms, consumer },
            Action::Close { consumer } => Self::Close { at_ms, consumer },
            Action::Restart { consumer } => Self::Restart { at_ms, consumer },
            Action::Pause {
                consumer,
                duration_ms,
                heartbeats,
                polls,
            } => Self::Pause {
                at_ms,
                consumer,
                duration_ms,
                heartbeats,
                polls,
            },
            Action::Resume { consumer } => Self::Resume { at_ms, consumer },
            Action::Subscribe {
                consumer,
                subscription,
            } => Self::Subscribe {
                at_ms,
                consumer,
                subscription,
            },
            Action::CreateTopic {
                topic,
                partitions,
                records_per_sec,
                initial_records,
            } => Self::CreateTopic {
                at_ms,
                topic,
                partitions,
                records_per_sec,
                initial_records,
            },
            Action::AddPartitions { topic, partitions } => Self::AddPartitions {
                at_ms,
                topic,
                partitions,
            },
            Action::DeleteTopic { topic } => Self::DeleteTopic { at_ms, topic },
            Action::SetProduceRate {
                topic,
                records_per_sec,
            } => Self::SetProduceRate {
                at_ms,
                topic,
                records_per_sec,
            },
            Action::SetNetwork { network } => Self::SetNetwork { at_ms, network },
            Action::CoordinatorFailover { duration_ms } => Self::CoordinatorFailover { at_ms, duration_ms },
            Action::CrashBroker { broker, graceful } => Self::CrashBroker {
                at_ms,
                broker: broker.0,
                graceful,
            },
            Action::RestartBroker { broker } => Self::RestartBroker {
                at_ms,
                broker: broker.0,
            },
            Action::SlowBroker {
                broker,
                fetch_interval_ms,
                duration_ms,
            } => Self::SlowBroker {
                at_ms,
                broker: broker.0,
                fetch_interval_ms,
                duration_ms,
            },
            Action::SendRequest { script, request } => Self::Request {
                at_ms,
                script,
                request,
            },
            Action::AdminRequest { request } => Self::AdminRequest { at_ms, request },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Scenario;
    use super::*;

    /// Every action of every shipped scenario survives the way there and back.
    #[test]
    fn timed_actions_written_back_read_the_same() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios");
        let mut seen = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "json") {
                continue;
            }
            let s = Scenario::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let mut back = s.clone();
            back.consumers.clear();
            back.actions = s
                .timed_actions()
                .iter()
                .map(|(at, a)| ActionSpec::from_action(*at, a))
                .collect();
            assert_eq!(back.timed_actions(), s.timed_actions(), "{}", path.display());
            seen += 1;
        }
        assert!(seen >= 10, "{seen} scenarios");
    }
}
