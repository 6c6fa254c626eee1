//! Property tests on random broker fault schedules (native only: proptest needs an OS random
//! source): the leader's high watermark never exceeds the LEO of an ISR member, never goes
//! backwards within a leader epoch, never moves while the ISR is under min.insync.replicas; no
//! acknowledged commit is lost across failovers; every replica's index of the latest record per
//! key agrees with a replay of its log; FindCoordinator names only the partition's live leader;
//! and nothing panics.
#![cfg(not(target_arch = "wasm32"))]

use rebalance_engine::collections::Map;
use rebalance_engine::collections::Set;

use proptest::prelude::*;
use rebalance_engine::cluster::{ClusterConfig, ClusterEvent};
use rebalance_engine::coordinator::CoordinatorConfig;
use rebalance_engine::protocol::{ErrorCode, NodeId, Response, TopicPartition};
use rebalance_engine::sim::{Action, NetworkEvent, SimEventKind, Simulation, WorldEvent};
use rebalance_engine::{
    CommitMode, ConsumerConfig, EventKind, NetworkConfig, Payload, RecordBody, SimTime, Subscription,
};

#[derive(Clone, Debug)]
enum Fault {
    Crash(i32, bool),
    Restart(i32),
    Slow(i32, u64, u64),
    /// The older coordinator failover (unload, reload on the same broker).
    Failover(u64),
}

fn fault() -> impl Strategy<Value = Fault> {
    prop_oneof![
        3 => (0i32..4, any::<bool>()).prop_map(|(b, g)| Fault::Crash(b, g)),
        3 => (0i32..4).prop_map(Fault::Restart),
        2 => (0i32..4, 1u64..50, 1u64..60).prop_map(|(b, i, d)| Fault::Slow(b, i * 1000, d * 1000)),
        1 => (1u64..20).prop_map(|s| Fault::Failover(s * 1000)),
    ]
}

#[derive(Clone, Debug)]
struct World {
    brokers: u32,
    rf: u32,
    min_isr: u32,
    fetch_interval_ms: u64,
    consumers: usize,
    faults: Vec<(u64, Fault)>,
}

fn world() -> impl Strategy<Value = World> {
    (
        2u32..5,
        1u32..4,
        1u32..3,
        prop_oneof![Just(0u64), Just(500), Just(3000)],
        1usize..4,
    )
        .prop_flat_map(|(brokers, rf, min_isr, fetch, consumers)| {
            let rf = rf.min(brokers);
            let min_isr = min_isr.min(rf);
            proptest::collection::vec((1u64..120, fault()), 0..12).prop_map(move |faults| World {
                brokers,
                rf,
                min_isr,
                fetch_interval_ms: fetch,
                consumers,
                faults: faults.into_iter().map(|(s, f)| (s * 1000, f)).collect(),
            })
        })
}

fn build(w: &World) -> Simulation {
    let cluster = ClusterConfig {
        brokers: w.brokers,
        replication_factor: w.rf,
        min_insync_replicas: w.min_isr,
        replica_fetch_interval_ms: w.fetch_interval_ms,
        replica_lag_time_max_ms: 10_000,
        ..ClusterConfig::default()
    };
    let mut sim = Simulation::with_cluster(
        "g",
        CoordinatorConfig::default(),
        cluster,
        NetworkConfig::default(),
        7,
        Some(SimTime(150_000)),
    );
    sim.apply(
        SimTime::ZERO,
        Action::CreateTopic {
            topic: "t".into(),
            partitions: 3,
            records_per_sec: 20,
            initial_records: 0,
        },
    )
    .unwrap();
    for i in 0..w.consumers {
        let mut c = ConsumerConfig::new(format!("c{i}"), "g", Subscription::Topics(vec!["t".into()]));
        c.processing_ms = 700 + 300 * i as u64;
        c.session_timeout_ms = 10_000;
        c.commit = CommitMode::Manual { every_batches: 1 };
        sim.apply(SimTime::ZERO, Action::AddConsumer { config: Box::new(c) })
            .unwrap();
    }
    for (at, f) in &w.faults {
        let b = |x: i32| NodeId(x % w.brokers as i32);
        let a = match f {
            Fault::Crash(x, graceful) => Action::CrashBroker {
                broker: b(*x),
                graceful: *graceful,
            },
            Fault::Restart(x) => Action::RestartBroker { broker: b(*x) },
            Fault::Slow(x, interval, d) => Action::SlowBroker {
                broker: b(*x),
                fetch_interval_ms: *interval,
                duration_ms: Some(*d),
            },
            Fault::Failover(d) => Action::CoordinatorFailover { duration_ms: *d },
        };
        // Invalid ones (crashing a dead broker) are logged as rejected when they run.
        sim.apply(SimTime(*at), a).unwrap();
    }
    sim
}

/// The offset of each key's last record in `log`, by replaying it whole, sorted.
fn latest_by_scan(log: &[std::sync::Arc<rebalance_engine::Record>]) -> Vec<u64> {
    let mut last: Map<(bool, String, String, i32), u64> = Map::new();
    for r in log {
        let key = match &r.body {
            RecordBody::GroupMetadata(m) => (false, m.group_id.clone(), String::new(), 0),
            RecordBody::GroupTombstone { group_id } => (false, group_id.clone(), String::new(), 0),
            RecordBody::OffsetCommit(o) => (
                true,
                o.group_id.clone(),
                o.topic_partition.topic.clone(),
                o.topic_partition.partition,
            ),
            RecordBody::OffsetTombstone {
                group_id,
                topic_partition,
            } => (
                true,
                group_id.clone(),
                topic_partition.topic.clone(),
                topic_partition.partition,
            ),
            // Consumer-group keys (KIP-848): a NUL-prefixed "topic" no real topic has.
            RecordBody::ConsumerGroupMetadata { group_id, .. } => (false, group_id.clone(), "\0".into(), 1),
            RecordBody::ConsumerGroupTargetAssignmentMetadata { group_id, .. } => {
                (false, group_id.clone(), "\0".into(), 2)
            }
            RecordBody::ConsumerGroupMemberMetadata {
                group_id, member_id, ..
            } => (false, group_id.clone(), format!("\0{member_id}"), 3),
            RecordBody::ConsumerGroupTargetAssignmentMember {
                group_id, member_id, ..
            } => (false, group_id.clone(), format!("\0{member_id}"), 4),
            RecordBody::ConsumerGroupCurrentMemberAssignment {
                group_id, member_id, ..
            } => (false, group_id.clone(), format!("\0{member_id}"), 5),
        };
        last.insert(key, r.offset);
    }
    let mut v: Vec<u64> = last.into_values().collect();
    v.sort_unstable();
    v
}

struct Checker {
    seen: usize,
    /// `(leader epoch, HW)` last seen.
    last_hw: Option<(i32, u64)>,
    /// Offsets the coordinator acknowledged: `(partition, committed offset)`.
    acked: Set<(TopicPartition, i64)>,
    failovers: u64,
    /// The group partition's live leader, as the log tells it so far.
    leader: Option<NodeId>,
    /// The group partition's ISR, as the log tells it so far.
    isr: Vec<NodeId>,
}

impl Checker {
    fn check(&mut self, sim: &Simulation) -> Result<(), TestCaseError> {
        let mut failover = false;
        for e in &sim.log()[self.seen..] {
            match &e.kind {
                SimEventKind::Coordinator {
                    event: EventKind::OffsetsCommitted { partitions, .. },
                    ..
                } => {
                    for p in partitions {
                        self.acked.insert((
                            TopicPartition::new(p.topic.clone(), p.partition),
                            p.committed_offset,
                        ));
                    }
                }
                SimEventKind::World {
                    event: WorldEvent::Cluster { event },
                } => match event {
                    ClusterEvent::LeaderElected { leader, isr, .. } => {
                        failover = true;
                        self.leader = Some(*leader);
                        self.isr = isr.clone();
                    }
                    ClusterEvent::PartitionOffline { .. } => self.leader = None,
                    ClusterEvent::IsrShrunk { isr, .. } | ClusterEvent::IsrExpanded { isr, .. } => {
                        self.isr = isr.clone()
                    }
                    // Kafka's isUnderMinIsr: the HW never moves while the ISR is smaller than
                    // min.insync.replicas (capped at the replica count).
                    ClusterEvent::HighWatermarkAdvanced { from, to, .. } => {
                        let p = sim.offsets_partition();
                        let min = (p.min_insync_replicas as usize).min(p.replicas.len());
                        prop_assert!(
                            self.isr.len() >= min,
                            "HW {from} -> {to} at {} with ISR {:?} under min.insync.replicas {min}",
                            e.at,
                            self.isr
                        );
                    }
                    ClusterEvent::BrokerCrashed { broker, .. } if self.leader == Some(*broker) => {
                        self.leader = None
                    }
                    _ => {}
                },
                // A coordinator_failover: the partition has no leader until the broker reloads it.
                SimEventKind::World {
                    event: WorldEvent::CoordinatorUnloaded { .. },
                } => self.leader = None,
                SimEventKind::World {
                    event: WorldEvent::CoordinatorLoaded { node, .. },
                } => self.leader = Some(*node),
                // Kafka's getCoordinator: a coordinator is named only if the partition has a live
                // leader, and it is that leader; otherwise COORDINATOR_NOT_AVAILABLE.
                SimEventKind::Network {
                    event: NetworkEvent::Sent { message },
                } => {
                    if let Payload::Response(Response::FindCoordinator(r)) = &message.payload {
                        let named = (r.error_code == ErrorCode::None).then_some(r.node_id);
                        prop_assert!(
                            named.is_none() || named == self.leader,
                            "FindCoordinator from {} at {} named {:?} while the leader is {:?}",
                            message.from,
                            e.at,
                            named,
                            self.leader
                        );
                        if named.is_none() {
                            prop_assert_eq!(r.error_code, ErrorCode::CoordinatorNotAvailable);
                        }
                    }
                }
                _ => {}
            }
        }
        self.seen = sim.log().len();
        let p = sim.offsets_partition();
        // Every replica's index of the latest record per key (what a new leader loads from) says
        // what replaying its whole log would say, through appends, fetches and truncations.
        for r in &p.replicas {
            let log = sim.cluster().replica_log(r.broker).unwrap_or_default();
            let mut indexed: Vec<u64> = sim
                .cluster()
                .replica_latest(r.broker)
                .unwrap_or_default()
                .iter()
                .map(|rec| rec.offset)
                .collect();
            indexed.sort_unstable();
            prop_assert_eq!(
                indexed,
                latest_by_scan(log),
                "broker {}'s index at {}",
                r.broker.0,
                sim.now()
            );
        }
        let Some(leader) = p.leader else {
            return Ok(());
        };
        // HW <= the LEO of every ISR member.
        for r in &p.replicas {
            if p.isr.contains(&r.broker) {
                prop_assert!(
                    p.high_watermark <= r.log_end_offset,
                    "HW {} above ISR member {}'s LEO {} at {}",
                    p.high_watermark,
                    r.broker.0,
                    r.log_end_offset,
                    sim.now()
                );
            }
        }
        prop_assert!(p.isr.contains(&leader), "the leader is in the ISR");
        // The HW never goes backwards on a leader.
        if let Some((epoch, hw)) = self.last_hw {
            if epoch == p.leader_epoch {
                prop_assert!(
                    p.high_watermark >= hw,
                    "HW went back {hw} -> {}",
                    p.high_watermark
                );
            }
        }
        self.last_hw = Some((p.leader_epoch, p.high_watermark));
        // No acknowledged commit is lost: after a failover the new leader's log still has it.
        if failover {
            self.failovers += 1;
            let log = sim.cluster().replica_log(leader).unwrap_or_default();
            let present: Set<(TopicPartition, i64)> = log
                .iter()
                .filter_map(|r| match &r.body {
                    RecordBody::OffsetCommit(o) => Some((o.topic_partition.clone(), o.committed_offset)),
                    _ => None,
                })
                .collect();
            for a in &self.acked {
                prop_assert!(
                    present.contains(a),
                    "acknowledged commit {a:?} lost at {}",
                    sim.now()
                );
            }
        }
        Ok(())
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn random_fault_schedules_keep_replication_invariants(w in world()) {
        let mut sim = build(&w);
        let (leader, isr) = (sim.offsets_partition().leader, sim.offsets_partition().isr);
        let mut c = Checker { seen: 0, last_hw: None, acked: Set::new(), failovers: 0, leader, isr };
        while let Some(t) = sim.step() {
            c.check(&sim)?;
            if t >= SimTime(150_000) {
                break;
            }
        }
        sim.run_to_end();
        c.check(&sim)?;
    }
}

/// A fixed schedule with many failovers, so that the "no acknowledged commit lost" check runs on
/// failovers for sure.
#[test]
fn repeated_failovers_lose_no_acknowledged_commit() {
    let w = World {
        brokers: 3,
        rf: 3,
        min_isr: 1,
        fetch_interval_ms: 500,
        consumers: 2,
        faults: (0..10)
            .flat_map(|i| {
                let b = (i % 3) as i32;
                [
                    (10_000 + i * 12_000, Fault::Crash(b, i % 2 == 0)),
                    (16_000 + i * 12_000, Fault::Restart(b)),
                ]
            })
            .collect(),
    };
    let mut sim = build(&w);
    let mut c = Checker {
        seen: 0,
        last_hw: None,
        acked: Set::new(),
        failovers: 0,
        leader: sim.offsets_partition().leader,
        isr: sim.offsets_partition().isr,
    };
    while let Some(t) = sim.step() {
        c.check(&sim).unwrap();
        if t >= SimTime(150_000) {
            break;
        }
    }
    assert!(c.failovers >= 3, "only {} failovers", c.failovers);
    assert!(c.acked.len() > 20, "only {} commits acknowledged", c.acked.len());
}
