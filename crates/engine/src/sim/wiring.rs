//! The wiring of the world: brokers to the cluster (crashes, leadership, replication of the
//! group's log, the acks=all gate), and messages between consumers, scripts and brokers (sending,
//! delivery, routing, and pumping each state machine's outputs into the network and the log).
//! Brokers and delivery live together because they call each other.

use crate::collections::Set;
use std::sync::Arc;

use super::{LogLevel, NetworkEvent, SimEvent, SimEventKind, Simulation, WorldEvent};
use crate::client::{ClientEvent, ClientOutput, Destination};
use crate::cluster::{Cluster, ClusterEvent};
use crate::coordinator::{Coordinator, CoordinatorConfig};
use crate::network::{Endpoint, Message, Payload};
use crate::protocol::{ConnectionId, ErrorCode, NodeId};

impl Simulation {
    /// Where a request for "any broker" goes: the first live broker (broker 0 if all are down:
    /// the connection is then refused).
    pub(super) fn bootstrap_broker(&self) -> NodeId {
        self.cluster
            .broker_ids()
            .into_iter()
            .find(|b| self.cluster.is_alive(*b))
            .unwrap_or(NodeId(0))
    }

    pub(super) fn new_connection(&mut self, endpoint: Endpoint) -> ConnectionId {
        let c = ConnectionId(self.next_connection);
        self.next_connection += 1;
        self.connections.insert(c, endpoint);
        c
    }

    /// A broker stops (see [`Action::CrashBroker`]).
    pub(super) fn crash_broker(&mut self, broker: NodeId, graceful: bool) {
        let now = self.now;
        let Some(i) = self.broker_index(broker) else {
            return;
        };
        let p = self.cluster.group_partition();
        if graceful && self.cluster.group_leader() == Some(broker) {
            // Controlled shutdown: the coordinator resigns first, answering what it parked.
            let _ = self.brokers[i].coordinator.unload(now, p);
            self.pump_broker(i);
        }
        // Whatever it had in memory is gone.
        self.brokers[i].coordinator = self.fresh_broker_coordinator(broker);
        if !graceful {
            self.crashed_at.insert(broker, now);
        }
        self.cluster.crash(now, broker, graceful);
        self.pump_cluster();
        if !graceful {
            // Its connections drop: every consumer talking to it sees a disconnect.
            let mut talking: Set<ConnectionId> = Set::from_iter(
                self.network
                    .in_flight()
                    .filter(|m| m.to == Endpoint::Broker(broker) || m.from == Endpoint::Broker(broker))
                    .map(|m| m.connection),
            );
            for (j, slot) in self.consumers.iter().enumerate() {
                if slot.consumer.coordinator() == Some(broker) && slot.consumer.lifecycle().is_running() {
                    talking.insert(self.consumers[j].connection);
                }
            }
            for c in talking {
                if let Some(&j) = self.connection_owner.get(&c) {
                    self.consumers[j].consumer.handle_disconnect(now, &self.topics);
                    self.pump_consumer(j);
                }
            }
        }
    }

    /// Reacts to what the cluster did: leadership for FindCoordinator, loading the group on a new
    /// leader, completing appends the HW now covers. Logs every cluster event.
    pub(super) fn pump_cluster(&mut self) {
        while let Some(ev) = self.cluster.poll_event() {
            let reaction = ev.clone();
            self.emit(SimEventKind::World {
                event: WorldEvent::Cluster { event: ev },
            });
            self.refresh_append_gate();
            match reaction {
                ClusterEvent::LeaderElected {
                    partition, leader, ..
                } => {
                    self.tell_leader(partition, Some(leader));
                    self.last_coordinator = leader;
                    if let Some(i) = self.broker_index(leader) {
                        // From its own replica of the log: each key's latest record, from the
                        // replica's index (no rescan, and no copy, of the history).
                        let leo = self.cluster.log_end_offset(leader).unwrap_or(0);
                        let latest = self.cluster.replica_latest(leader).unwrap_or_default();
                        self.brokers[i]
                            .coordinator
                            .load_latest(self.now, partition, leo, &latest);
                        self.pump_broker(i);
                    }
                }
                ClusterEvent::PartitionOffline { partition, .. } => self.tell_leader(partition, None),
                ClusterEvent::LeadersMoved { changes } => {
                    for (p, l) in changes {
                        self.tell_leader(p, l);
                    }
                }
                ClusterEvent::HighWatermarkAdvanced {
                    partition,
                    leader,
                    to,
                    ..
                } => {
                    self.high_watermark_advanced(leader, partition, to);
                }
                _ => {}
            }
        }
    }

    /// A broker's coordinator as it (re)starts: no group loaded, the partition leaders as the
    /// brokers' metadata has them.
    pub(super) fn fresh_broker_coordinator(&self, broker: NodeId) -> Coordinator {
        let mut c = fresh_coordinator(&self.coordinator_config, broker, &self.cluster);
        c.set_quiet(self.log_level == LogLevel::Off);
        let p = self.cluster.group_partition();
        c.set_partition_leader(p, self.advertised_group_leader());
        c
    }

    /// The group partition's leader as FindCoordinator may name it: the cluster's leader, but none
    /// while that broker's coordinator has resigned the partition (a `coordinator_failover` until
    /// its reload): Kafka answers COORDINATOR_NOT_AVAILABLE while a partition has no live leader,
    /// rather than naming a broker that would answer NOT_COORDINATOR.
    fn advertised_group_leader(&self) -> Option<NodeId> {
        let p = self.cluster.group_partition();
        self.cluster.group_leader().filter(|l| {
            self.broker_index(*l).is_some_and(|i| {
                self.brokers[i]
                    .coordinator
                    .led_partitions()
                    .iter()
                    .any(|(q, _)| *q == p)
            })
        })
    }

    /// Every live coordinator learns a partition's leader (for FindCoordinator).
    pub(super) fn tell_leader(&mut self, partition: i32, leader: Option<NodeId>) {
        for b in &mut self.brokers {
            b.coordinator.set_partition_leader(partition, leader);
        }
    }

    /// The group partition's HW reached `hw` on `leader`: what waited on the appends below it
    /// completes.
    fn high_watermark_advanced(&mut self, leader: NodeId, partition: i32, hw: u64) {
        if let Some(i) = self.broker_index(leader) {
            self.brokers[i]
                .coordinator
                .handle_high_watermark(self.now, partition, hw);
            self.pump_broker(i);
        }
    }

    /// Appends that waited `offsets.commit.timeout.ms` for the HW fail with `REQUEST_TIMED_OUT`.
    pub(super) fn appends_timed_out(&mut self, offsets: &[u64]) {
        let Some(leader) = self.cluster.group_leader() else {
            return;
        };
        let Some(i) = self.broker_index(leader) else {
            return;
        };
        let p = self.cluster.group_partition();
        for o in offsets {
            self.brokers[i]
                .coordinator
                .handle_append_error(self.now, p, *o, ErrorCode::RequestTimedOut);
        }
        self.pump_broker(i);
    }

    /// The group's coordinator refuses appends while the ISR is below `min.insync.replicas`
    /// (`NOT_ENOUGH_REPLICAS`, acks=all).
    fn refresh_append_gate(&mut self) {
        let Some(leader) = self.cluster.group_leader() else {
            return;
        };
        let p = self.cluster.group_partition();
        let gate = self.cluster.append_error();
        if let Some(i) = self.broker_index(leader) {
            self.brokers[i].coordinator.set_append_error(p, gate);
        }
    }

    /// Copies the coordinator's new records into the leader's replica, which replicates them.
    fn sync_replica(&mut self, i: usize) {
        let node = NodeId(i as i32);
        if self.cluster.group_leader() != Some(node) {
            return;
        }
        let p = self.cluster.group_partition();
        let leo = self.cluster.log_end_offset(node).unwrap_or(0);
        let coordinator = &self.brokers[i].coordinator;
        let new = match (coordinator.log(p), coordinator.log_start(p)) {
            (Some(log), Some(start)) if start <= leo && start + log.len() as u64 > leo => {
                log[(leo - start) as usize..].to_vec()
            }
            _ => return,
        };
        self.cluster.leader_appended(self.now, &new);
        if self.compaction.is_some() {
            // The leader's replica holds them now, and the coordinator never reads them back.
            let end = leo + new.len() as u64;
            self.brokers[i].coordinator.discard_log_before(p, end);
        }
        self.pump_cluster();
    }

    pub(super) fn emit(&mut self, kind: SimEventKind) {
        let ev = SimEvent {
            seq: self.next_seq,
            at: self.now,
            kind,
        };
        self.next_seq += 1;
        let keep = match self.log_level {
            LogLevel::All => true,
            LogLevel::Info => !ev.is_detail(),
            LogLevel::Off => false,
        };
        if keep {
            self.log.push(ev);
        }
    }

    pub(super) fn send(
        &mut self,
        from: Endpoint,
        to: Endpoint,
        connection: ConnectionId,
        corr: i32,
        payload: Payload,
    ) {
        // The log's line shares the message in flight (no copy).
        let msg = self
            .network
            .enqueue(self.now, from, to, connection, corr, payload);
        if self.log_level != LogLevel::Off {
            let message = Arc::clone(msg);
            self.emit(SimEventKind::Network {
                event: NetworkEvent::Sent { message },
            });
        }
    }

    pub(super) fn pump_broker(&mut self, i: usize) {
        self.pump_broker_outputs(i);
        self.sync_replica(i);
    }

    fn pump_broker_outputs(&mut self, i: usize) {
        let node = self.brokers[i].coordinator.node_id();
        while let Some(ev) = self.brokers[i].coordinator.poll_event() {
            if self.log_level != LogLevel::Off {
                self.emit(SimEventKind::Coordinator { node, event: ev.kind });
            }
        }
        while let Some(out) = self.brokers[i].coordinator.poll_output() {
            let Some(to) = self.connections.get(&out.to).cloned() else {
                continue;
            };
            self.send(
                Endpoint::Broker(node),
                to,
                out.to,
                out.correlation_id,
                Payload::Response(out.response),
            );
        }
    }

    fn refresh_deadline(&mut self, i: usize) {
        if self.consumer_deadline.len() <= i {
            self.consumer_deadline.resize(i + 1, None);
        }
        let new = self.consumers[i].consumer.poll_timeout();
        let old = self.consumer_deadline[i];
        if old != new {
            if let Some(o) = old {
                self.consumer_deadlines.remove(&(o, i));
            }
            if let Some(n) = new {
                self.consumer_deadlines.insert((n, i));
            }
            self.consumer_deadline[i] = new;
        }
    }

    pub(super) fn pump_consumer(&mut self, i: usize) {
        // Events a quiet consumer skipped (log off) still count as emitted.
        self.next_seq += self.consumers[i].consumer.take_quiet_events();
        while let Some(mut ev) = self.consumers[i].consumer.poll_event() {
            if let ClientEvent::BatchProcessed { records, duplicates } = &mut ev {
                for r in records.iter() {
                    let tp = &r.partition;
                    let by_partition = match self.processed.get_mut(tp.topic.as_str()) {
                        Some(m) => m,
                        None => self.processed.entry(tp.topic.clone()).or_default(),
                    };
                    *duplicates += by_partition.entry(tp.partition).or_default().insert(r.from, r.to);
                }
                self.consumers[i].duplicates += *duplicates;
            }
            if self.log_level == LogLevel::Off {
                self.next_seq += 1;
                continue;
            }
            self.emit(SimEventKind::Client {
                consumer: self.consumers[i].consumer.name().to_owned(),
                event: ev,
            });
        }
        while let Some(out) = self.consumers[i].consumer.poll_output() {
            let ClientOutput::Send {
                to,
                correlation_id,
                request,
            } = out;
            let node = match to {
                Destination::AnyBroker => self.bootstrap_broker(),
                Destination::Coordinator(n) => n,
            };
            let connection = self.consumers[i].connection;
            self.send(
                Endpoint::Consumer(self.consumers[i].consumer.name().to_owned()),
                Endpoint::Broker(node),
                connection,
                correlation_id,
                Payload::Request(request),
            );
        }
        self.refresh_deadline(i);
    }

    pub(super) fn deliver(&mut self, msg: Message) {
        if let Endpoint::Broker(b) = &msg.from {
            if self.crashed_at.get(b).is_some_and(|t| msg.sent_at <= *t) {
                self.emit(SimEventKind::Network {
                    event: NetworkEvent::Undeliverable {
                        id: msg.id,
                        to: msg.to.clone(),
                        api: msg.payload.api(),
                        reason: format!("broker {} crashed after sending it; the connection is gone", b.0),
                    },
                });
                return;
            }
        }
        if let Endpoint::Broker(b) = &msg.to {
            if !self.cluster.is_alive(*b) && self.broker_index(*b).is_some() {
                self.emit(SimEventKind::Network {
                    event: NetworkEvent::Undeliverable {
                        id: msg.id,
                        to: msg.to.clone(),
                        api: msg.payload.api(),
                        reason: format!("broker {} is down: connection refused", b.0),
                    },
                });
                if let Some(&j) = self.connection_owner.get(&msg.connection) {
                    self.consumers[j]
                        .consumer
                        .handle_disconnect(self.now, &self.topics);
                    self.pump_consumer(j);
                }
                return;
            }
        }
        if msg.fault == Some(crate::network::Fault::Dropped) {
            self.emit(SimEventKind::Network {
                event: NetworkEvent::Lost {
                    id: msg.id,
                    from: msg.from,
                    to: msg.to,
                    api: msg.payload.api(),
                    correlation_id: msg.correlation_id,
                },
            });
            return;
        }
        if self.log_level == LogLevel::All {
            self.emit(SimEventKind::Network {
                event: NetworkEvent::Delivered {
                    id: msg.id,
                    from: msg.from.clone(),
                    to: msg.to.clone(),
                    api: msg.payload.api(),
                    request: msg.payload.is_request(),
                    correlation_id: msg.correlation_id,
                },
            });
        }
        match (&msg.to, msg.payload) {
            (Endpoint::Broker(node), Payload::Request(req)) => {
                let node = *node;
                // A broker that does not exist (yet) never answers; the client times out.
                let Some(i) = self.broker_index(node) else { return };
                if matches!(req, crate::protocol::Request::ConsumerGroupHeartbeat(_)) {
                    // The broker's metadata image, which only consumer groups read (KIP-848).
                    let metadata = self.topics.metadata();
                    if *self.brokers[i].coordinator.topic_metadata() != metadata {
                        self.brokers[i].coordinator.set_topic_metadata(metadata);
                    }
                }
                self.brokers[i]
                    .coordinator
                    .handle_request(self.now, msg.connection, msg.correlation_id, req);
                self.pump_broker(i);
            }
            (Endpoint::Consumer(_), Payload::Response(resp)) => {
                let Some(&i) = self.connection_owner.get(&msg.connection) else {
                    self.emit(SimEventKind::Network {
                        event: NetworkEvent::Undeliverable {
                            id: msg.id,
                            to: msg.to.clone(),
                            api: resp.api(),
                            reason: "the consumer restarted; that connection is closed".into(),
                        },
                    });
                    return;
                };
                if !self.consumers[i].consumer.lifecycle().is_running() {
                    self.emit(SimEventKind::Network {
                        event: NetworkEvent::Undeliverable {
                            id: msg.id,
                            to: msg.to.clone(),
                            api: resp.api(),
                            reason: "the consumer is no longer running".into(),
                        },
                    });
                    return;
                }
                self.consumers[i]
                    .consumer
                    .handle_response(self.now, msg.correlation_id, resp, &self.topics);
                self.pump_consumer(i);
            }
            // Responses to scripts are in the log already (the network's Sent line).
            _ => {}
        }
    }
}

/// A broker's coordinator as it starts: no partition loaded, every partition's leader known.
pub(super) fn fresh_coordinator(config: &CoordinatorConfig, id: NodeId, cluster: &Cluster) -> Coordinator {
    let mut c = Coordinator::new(CoordinatorConfig {
        node_id: id,
        ..config.clone()
    });
    for p in 0..cluster.offsets_partitions() {
        c.set_partition_leader(p, cluster.leader(p));
    }
    // acks=all: what depends on an append waits for the high watermark.
    c.set_await_replication(true);
    c
}
