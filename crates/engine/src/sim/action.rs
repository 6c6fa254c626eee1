//! What a user or a scenario does to the world: [`Action`], and how the simulation checks one
//! (`check`) and applies it at the current instant (`apply_now`). When an action runs is the
//! driver's business ([`Simulation::apply`], [`Simulation::step`]).

use serde::{Deserialize, Serialize};

use super::{ConsumerSlot, LogLevel, Scheduled, ScriptSlot, SimEventKind, Simulation, WorldEvent, RELOAD};
use crate::client::{Consumer, ConsumerConfig};
use crate::coordinator::partition_for;
use crate::network::{Endpoint, NetworkConfig, Payload};
use crate::protocol::{NodeId, Request};
use crate::time::SimDuration;
use crate::topic::{Subscription, Topics};

/// Something a user (or a scenario) does to the world.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    /// Start a new consumer.
    AddConsumer {
        /// Its settings.
        config: Box<ConsumerConfig>,
    },
    /// Kill a consumer: it stops at once, sends nothing.
    Kill {
        /// The consumer.
        consumer: String,
    },
    /// Close a consumer: commit, revoke, LeaveGroup (dynamic members only).
    Close {
        /// The consumer.
        consumer: String,
    },
    /// Start a stopped consumer again with the same settings, as a new process (it has lost its
    /// member id; a static member rejoins with its `group.instance.id`).
    Restart {
        /// The consumer.
        consumer: String,
    },
    /// Pause a consumer's heartbeats and/or polls (a GC pause stops both; a slow batch only polls).
    Pause {
        /// The consumer.
        consumer: String,
        /// How long; `None` until [`Action::Resume`].
        duration_ms: Option<u64>,
        /// Whether the heartbeat thread stops.
        heartbeats: bool,
        /// Whether the application stops polling.
        polls: bool,
    },
    /// End a pause.
    Resume {
        /// The consumer.
        consumer: String,
    },
    /// `subscribe()` with a new subscription.
    Subscribe {
        /// The consumer.
        consumer: String,
        /// The subscription.
        subscription: Subscription,
    },
    /// Create a topic.
    CreateTopic {
        /// Its name.
        topic: String,
        /// Its partitions (at least 1).
        partitions: i32,
        /// Records per second.
        records_per_sec: u64,
        /// Records already in each partition.
        initial_records: i64,
    },
    /// Grow a topic (Kafka can only add partitions).
    AddPartitions {
        /// The topic.
        topic: String,
        /// The new partition count.
        partitions: i32,
    },
    /// Delete a topic.
    DeleteTopic {
        /// The topic.
        topic: String,
    },
    /// Change a producer's rate.
    SetProduceRate {
        /// The topic.
        topic: String,
        /// Records per second.
        records_per_sec: u64,
    },
    /// Change the network's latency and faults.
    SetNetwork {
        /// The new configuration.
        network: NetworkConfig,
    },
    /// The group's `__consumer_offsets` partition loses its leader for a while, then the same broker
    /// loads it again (a coordinator failover; clients see NOT_COORDINATOR, and FindCoordinator
    /// answers COORDINATOR_NOT_AVAILABLE until the reload).
    CoordinatorFailover {
        /// How long the group has no coordinator.
        duration_ms: u64,
    },
    /// A broker stops. A crash (`graceful: false`) loses its memory at once: it answers nothing,
    /// parked requests are never answered, in-flight responses are lost, and clients connected to it
    /// see a disconnect. A controlled shutdown (`graceful: true`) first unloads its coordinator
    /// (parked JoinGroup/SyncGroup get NOT_COORDINATOR) and hands its leaderships over.
    CrashBroker {
        /// The broker.
        broker: NodeId,
        /// Controlled shutdown rather than a crash.
        #[serde(default)]
        graceful: bool,
    },
    /// A stopped broker starts again, with its log as it was.
    RestartBroker {
        /// The broker.
        broker: NodeId,
    },
    /// A broker's followers fetch only every `fetch_interval_ms` (a slow follower).
    SlowBroker {
        /// The broker.
        broker: NodeId,
        /// Its fetch interval.
        fetch_interval_ms: u64,
        /// For how long (`None`: until it restarts).
        duration_ms: Option<u64>,
    },
    /// A scripted member sends a raw protocol request (with every field exactly as given).
    SendRequest {
        /// The script's name (one connection per script).
        script: String,
        /// The request.
        request: Request,
    },
    /// The admin client (`kafka-consumer-groups.sh`, connection [`ADMIN_CLIENT`]) sends a request
    /// to the coordinator of the request's group: `DeleteGroups`, an `OffsetCommit` with generation
    /// -1 and no member id (an offset reset, as `alterConsumerGroupOffsets` sends it), or a read
    /// (`DescribeGroups`, `OffsetFetch`, `ListGroups`).
    AdminRequest {
        /// The request.
        request: Request,
    },
}

/// The name of the admin client's connection in the trace (a script of its own).
pub const ADMIN_CLIENT: &str = "kafka-consumer-groups";

/// Whether the admin client sends `request` ([`Action::AdminRequest`]).
pub(crate) fn check_admin_request(request: &Request) -> Result<(), ActionError> {
    match request {
        Request::DeleteGroups(_)
        | Request::ListGroups(_)
        | Request::DescribeGroups(_)
        | Request::OffsetFetch(_) => Ok(()),
        Request::OffsetCommit(r) if r.generation_id < 0 && r.member_id.is_empty() => Ok(()),
        other => Err(ActionError(format!(
            "the admin client does not send {} requests (only DeleteGroups, ListGroups, DescribeGroups, \
             OffsetFetch, and OffsetCommit with generation -1 and no member id)",
            other.api_name()
        ))),
    }
}

/// Why an action could not be applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionError(pub String);

impl std::fmt::Display for ActionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ActionError {}

impl Simulation {
    pub(super) fn create_topic_now(
        &mut self,
        topic: String,
        partitions: i32,
        records_per_sec: u64,
        initial_records: i64,
    ) {
        let now = self.now;
        if self
            .topics
            .create(&topic, partitions, records_per_sec, initial_records, now)
        {
            self.emit(SimEventKind::World {
                event: WorldEvent::TopicCreated {
                    topic,
                    partitions,
                    records_per_sec,
                },
            });
        }
    }

    pub(crate) fn check(&self, action: &Action) -> Result<(), ActionError> {
        let known = |name: &str| {
            self.consumer_index(name)
                .map(|_| ())
                .ok_or_else(|| ActionError(format!("no consumer named `{name}`")))
        };
        let topic = |name: &str| {
            if self.topics.contains(name) {
                Ok(())
            } else {
                Err(ActionError(format!("no topic named `{name}`")))
            }
        };
        match action {
            Action::AddConsumer { config } => {
                if self.consumer_index(&config.name).is_some() {
                    return Err(ActionError(format!(
                        "a consumer named `{}` already exists",
                        config.name
                    )));
                }
                Ok(())
            }
            Action::Kill { consumer }
            | Action::Close { consumer }
            | Action::Pause { consumer, .. }
            | Action::Resume { consumer }
            | Action::Subscribe { consumer, .. } => known(consumer),
            Action::Restart { consumer } => {
                known(consumer)?;
                let i = self.consumer_index(consumer).unwrap_or_default();
                if self.consumers[i].consumer.lifecycle().is_running() {
                    return Err(ActionError(format!("consumer `{consumer}` is still running")));
                }
                Ok(())
            }
            Action::CreateTopic {
                topic: name,
                partitions,
                ..
            } => {
                if self.topics.contains(name) {
                    Err(ActionError(format!("topic `{name}` already exists")))
                } else if *partitions < 1 {
                    Err(ActionError(format!(
                        "topic `{name}` needs at least one partition"
                    )))
                } else {
                    Ok(())
                }
            }
            Action::AddPartitions {
                topic: name,
                partitions,
            } => {
                topic(name)?;
                let now = self.topics.get(name).map_or(0, |t| t.partitions());
                if *partitions <= now {
                    return Err(ActionError(format!(
                        "topic `{name}` has {now} partitions; Kafka can only add partitions (asked for {partitions})"
                    )));
                }
                Ok(())
            }
            Action::DeleteTopic { topic: name } | Action::SetProduceRate { topic: name, .. } => topic(name),
            Action::SetNetwork { .. } | Action::CoordinatorFailover { .. } | Action::SendRequest { .. } => {
                Ok(())
            }
            Action::AdminRequest { request } => check_admin_request(request),
            Action::CrashBroker { broker, .. } => {
                if self.broker_index(*broker).is_none() {
                    Err(ActionError(format!("no broker {}", broker.0)))
                } else if !self.cluster.is_alive(*broker) {
                    Err(ActionError(format!("broker {} is already down", broker.0)))
                } else {
                    Ok(())
                }
            }
            Action::RestartBroker { broker } => {
                if self.broker_index(*broker).is_none() {
                    Err(ActionError(format!("no broker {}", broker.0)))
                } else if self.cluster.is_alive(*broker) {
                    Err(ActionError(format!("broker {} is running", broker.0)))
                } else {
                    Ok(())
                }
            }
            Action::SlowBroker {
                broker,
                fetch_interval_ms,
                ..
            } => {
                if self.broker_index(*broker).is_none() {
                    Err(ActionError(format!("no broker {}", broker.0)))
                } else if !self.cluster.is_alive(*broker) {
                    Err(ActionError(format!("broker {} is down", broker.0)))
                } else if *fetch_interval_ms == 0 {
                    Err(ActionError(
                        "a slow broker's fetch interval must be positive".into(),
                    ))
                } else {
                    Ok(())
                }
            }
        }
    }

    pub(super) fn apply_now(&mut self, action: Action) {
        let now = self.now;
        match action {
            Action::AddConsumer { config } => {
                let config = *config;
                let name = config.name.clone();
                self.emit(SimEventKind::World {
                    event: WorldEvent::ConsumerStarted {
                        name: name.clone(),
                        settings: settings_summary(&config),
                    },
                });
                let connection = self.new_connection(Endpoint::Consumer(name));
                let mut consumer = Consumer::new(config);
                consumer.set_quiet(self.log_level == LogLevel::Off);
                consumer.start(now, &self.topics);
                self.consumers.push(ConsumerSlot {
                    consumer,
                    connection,
                    duplicates: 0,
                });
                self.connection_owner.insert(connection, self.consumers.len() - 1);
                self.pump_consumer(self.consumers.len() - 1);
            }
            Action::Kill { consumer } => self.with_consumer(&consumer, |c, _| c.kill()),
            Action::Close { consumer } => self.with_consumer(&consumer, |c, _| c.close(now)),
            Action::Restart { consumer } => {
                let Some(i) = self.consumer_index(&consumer) else {
                    return;
                };
                let config = self.consumers[i].consumer.config().clone();
                self.emit(SimEventKind::World {
                    event: WorldEvent::ConsumerStarted {
                        name: consumer.clone(),
                        settings: format!("restarted; {}", settings_summary(&config)),
                    },
                });
                let connection = self.new_connection(Endpoint::Consumer(consumer));
                let mut c = Consumer::new(config);
                c.set_quiet(self.log_level == LogLevel::Off);
                c.start(now, &self.topics);
                self.next_seq += self.consumers[i].consumer.take_quiet_events();
                self.consumers[i].consumer = c;
                self.connection_owner.remove(&self.consumers[i].connection);
                self.consumers[i].connection = connection;
                self.connection_owner.insert(connection, i);
                self.pump_consumer(i);
            }
            Action::Pause {
                consumer,
                duration_ms,
                heartbeats,
                polls,
            } => {
                let until = duration_ms.map(|d| now + SimDuration::from_millis(d));
                self.with_consumer(&consumer, |c, _| c.pause(now, until, heartbeats, polls));
            }
            Action::Resume { consumer } => self.with_consumer(&consumer, |c, t| c.resume(now, t)),
            Action::Subscribe {
                consumer,
                subscription,
            } => {
                self.emit(SimEventKind::World {
                    event: WorldEvent::SubscriptionSet {
                        consumer: consumer.clone(),
                        subscription: subscription.clone(),
                    },
                });
                self.with_consumer(&consumer, |c, t| c.subscribe(now, subscription, t));
            }
            Action::CreateTopic {
                topic,
                partitions,
                records_per_sec,
                initial_records,
            } => self.create_topic_now(topic, partitions, records_per_sec, initial_records),
            Action::AddPartitions { topic, partitions } => {
                let from = self.topics.get(&topic).map_or(0, |t| t.partitions());
                if self.topics.add_partitions(&topic, partitions, now) {
                    self.emit(SimEventKind::World {
                        event: WorldEvent::PartitionsAdded {
                            topic,
                            from,
                            to: partitions,
                        },
                    });
                }
            }
            Action::DeleteTopic { topic } => {
                if self.topics.delete(&topic) {
                    self.emit(SimEventKind::World {
                        event: WorldEvent::TopicDeleted { topic },
                    });
                }
            }
            Action::SetProduceRate {
                topic,
                records_per_sec,
            } => {
                if self.topics.set_rate(&topic, records_per_sec, now) {
                    self.emit(SimEventKind::World {
                        event: WorldEvent::ProduceRateChanged {
                            topic,
                            records_per_sec,
                        },
                    });
                }
            }
            Action::SetNetwork { network } => {
                self.network.set_config(network.clone());
                self.emit(SimEventKind::World {
                    event: WorldEvent::NetworkChanged { network },
                });
            }
            Action::CoordinatorFailover { duration_ms } => {
                let Some(leader) = self.cluster.group_leader() else {
                    self.emit(SimEventKind::World {
                        event: WorldEvent::ActionRejected {
                            reason: "the group's partition has no leader".into(),
                        },
                    });
                    return;
                };
                let ci = self.broker_index(leader).unwrap_or(0);
                let coord = &mut self.brokers[ci].coordinator;
                let node = coord.node_id();
                let partition = coord.partition_for(&self.group_id);
                if !coord.led_partitions().iter().any(|(p, _)| *p == partition) {
                    self.emit(SimEventKind::World {
                        event: WorldEvent::ActionRejected {
                            reason: "the group's coordinator is already unloaded".into(),
                        },
                    });
                    return;
                }
                self.emit(SimEventKind::World {
                    event: WorldEvent::CoordinatorUnloaded { node, partition },
                });
                // Its log stays in its replica, from which the reload reads.
                let _ = self.brokers[ci].coordinator.unload_shared(now, partition);
                // Until then the partition has no leader to name (COORDINATOR_NOT_AVAILABLE).
                self.tell_leader(partition, None);
                self.pump_broker(ci);
                self.scheduled.insert(
                    (
                        now + SimDuration::from_millis(duration_ms),
                        RELOAD | self.next_scheduled,
                    ),
                    Scheduled::Reload { node, partition },
                );
                self.next_scheduled += 1;
            }
            Action::CrashBroker { broker, graceful } => self.crash_broker(broker, graceful),
            Action::RestartBroker { broker } => {
                let Some(i) = self.broker_index(broker) else {
                    return;
                };
                self.brokers[i].coordinator = self.fresh_broker_coordinator(broker);
                self.cluster.restart(now, broker);
                self.pump_cluster();
            }
            Action::SlowBroker {
                broker,
                fetch_interval_ms,
                duration_ms,
            } => {
                let until = duration_ms.map(|d| now + SimDuration::from_millis(d));
                self.cluster.slow(now, broker, fetch_interval_ms, until);
                self.pump_cluster();
            }
            Action::AdminRequest { request } => {
                // To the coordinator of the request's group (ListGroups: the bootstrap broker).
                let group = match &request {
                    Request::DeleteGroups(r) => r.group_ids.first().cloned(),
                    Request::DescribeGroups(r) => r.group_ids.first().cloned(),
                    Request::OffsetCommit(r) => Some(r.group_id.clone()),
                    Request::OffsetFetch(r) => Some(r.group_id.clone()),
                    _ => None,
                };
                let to = group
                    .and_then(|g| {
                        let partitions = self.coordinator_config.offsets_topic_num_partitions;
                        self.cluster.leader(partition_for(&g, partitions))
                    })
                    .unwrap_or_else(|| self.bootstrap_broker());
                self.send_scripted(ADMIN_CLIENT.to_owned(), request, to);
            }
            Action::SendRequest { script, request } => {
                let to = self
                    .cluster
                    .group_leader()
                    .unwrap_or_else(|| self.bootstrap_broker());
                self.send_scripted(script, request, to);
            }
        }
    }

    /// A script (or the admin client) sends `request` to broker `to` on its own connection.
    fn send_scripted(&mut self, script: String, request: Request, to: NodeId) {
        {
            {
                if !self.scripts.contains_key(&script) {
                    let connection = self.new_connection(Endpoint::Script(script.clone()));
                    self.scripts.insert(
                        script.clone(),
                        ScriptSlot {
                            connection,
                            next_correlation: 0,
                        },
                    );
                }
                self.emit(SimEventKind::World {
                    event: WorldEvent::ScriptedRequest {
                        script: script.clone(),
                        request: request.clone(),
                    },
                });
                let slot = self.scripts.get_mut(&script).expect("script slot just ensured");
                slot.next_correlation += 1;
                let (connection, corr) = (slot.connection, slot.next_correlation);
                self.send(
                    Endpoint::Script(script),
                    Endpoint::Broker(to),
                    connection,
                    corr,
                    Payload::Request(request),
                );
            }
        }
    }

    fn with_consumer(&mut self, name: &str, f: impl FnOnce(&mut Consumer, &Topics)) {
        if let Some(i) = self.consumer_index(name) {
            f(&mut self.consumers[i].consumer, &self.topics);
            self.pump_consumer(i);
        }
    }
}

fn settings_summary(c: &ConsumerConfig) -> String {
    if c.group_protocol == crate::client::GroupProtocol::Consumer {
        let mut s = format!(
            "client.id {}, group.protocol consumer, subscribes to {}, group.remote.assignor {}, max.poll.interval {} ms, \
             {} ms per batch, {}",
            c.client_id,
            c.subscription,
            c.server_assignor.as_deref().unwrap_or("unset"),
            c.max_poll_interval_ms,
            c.processing_ms,
            c.commit
        );
        if c.commit_in_revoke {
            s.push_str(", commits in onPartitionsRevoked");
        }
        if let Some(i) = &c.group_instance_id {
            s.push_str(&format!(", static member {i}"));
        }
        return s;
    }
    let assignors: Vec<&str> = c.assignors.iter().map(|a| a.name()).collect();
    let mut s = format!(
        "client.id {}, subscribes to {}, assignors [{}], session {} ms, heartbeat {} ms, max.poll.interval {} ms, \
         {} ms per batch, {}",
        c.client_id,
        c.subscription,
        assignors.join(", "),
        c.session_timeout_ms,
        c.heartbeat_interval_ms,
        c.max_poll_interval_ms,
        c.processing_ms,
        c.commit
    );
    if c.commit_in_revoke {
        s.push_str(", commits in onPartitionsRevoked");
    }
    if let Some(i) = &c.group_instance_id {
        s.push_str(&format!(", static member {i}"));
    }
    s
}
