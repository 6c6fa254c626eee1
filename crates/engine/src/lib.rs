//! A deterministic, sans-IO simulation of Apache Kafka's **classic** consumer-group protocol.
//!
//! The engine performs no I/O, never reads a clock and never touches an OS random source: the
//! current [`SimTime`] is an argument of every input, and any randomness comes from a seed in the
//! configuration. It builds natively and for `wasm32-unknown-unknown`; the playground UI, the
//! `rebalance-sim` command line and the tests all drive the same code.
//!
//! Kafka 4's consumer protocol (KIP-848) has its building blocks so far: its messages
//! ([`protocol::consumer`]), its reconciliation engine ([`coordinator::consumer`]) and its server-side
//! assignors ([`assignor::server`]); the coordinator does not serve it yet.
//!
//! Fidelity is the point. Every rule here follows Kafka's own source (see the reference in the
//! repository's shared material); where a teaching article simplifies, Kafka wins.
//!
//! # The run loop
//!
//! The entry type is [`Simulation`], the whole world: brokers with their group coordinators,
//! consumers, topics, a seeded network and a virtual clock.
//!
//! 1. **Build** it: [`Simulation::new`] from a [`Scenario`] (usually [`Scenario::from_json`]: topics,
//!    consumers, timed actions, an end), or [`Simulation::empty`] / [`Simulation::with_cluster`]
//!    from configurations.
//! 2. **Drive** it: [`Simulation::apply`] applies an [`Action`] now or schedules it for later;
//!    [`Simulation::step`] advances the clock to the next instant at which something happens and
//!    runs everything due then; [`Simulation::run_until`] steps up to a time;
//!    [`Simulation::run_to_end`] to the scenario's end.
//! 3. **Read** it: the views ([`Simulation::consumers`], [`Simulation::topics`],
//!    [`Simulation::group`], [`Simulation::owners`], [`Simulation::messages_in_flight`], ...) and the
//!    event log [`Simulation::log`] ([`SimEvent`]s), also rendered as traces
//!    ([`Simulation::trace_text`], [`Simulation::trace_jsonl`]).
//!
//! The same inputs give the same log, byte for byte, natively and on wasm. The [`sim`] module
//! documents the order of events within one instant.
//!
//! # Sessions: interactive runs
//!
//! Anything that lets a person act on a running world (the playground's timeline, share links,
//! lessons) drives a [`Session`] instead: a base [`Scenario`], the actions applied on top of it,
//! snapshots for [`Session::seek`], [`Session::fork`], and [`Session::to_scenario`], the scenario
//! that replays exactly what is on screen. A session places each action in its instant the same
//! way live and in a replay, so a seek or a link never tells a different story; it also builds the
//! views the UI draws ([`Session::group_view`]).
//!
//! ```
//! use rebalance_engine::{Action, ConsumerConfig, Scenario, Session, SimTime, Subscription};
//!
//! let base = Scenario::from_json(
//!     r#"{"version": 1, "seed": 1, "group_id": "g", "end_ms": 1,
//!         "topics": [{"name": "t", "partitions": 2, "records_per_sec": 1}]}"#,
//! )?;
//! let mut session = Session::new(base)?;
//! let c = ConsumerConfig::new("C1", "g", Subscription::Topics(vec!["t".into()]));
//! session.apply(Action::AddConsumer { config: Box::new(c) })?;
//! session.run_to(SimTime(10_000));
//! let at_ten = session.log().len();
//! session.seek(SimTime(2_000));
//! assert!(session.log().len() < at_ten);
//! // Replaying what is on screen gives the same log.
//! let mut replay = Session::new(session.to_scenario())?;
//! replay.run_to(SimTime(2_000));
//! assert_eq!(replay.log(), session.log());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ```
//! use rebalance_engine::{Action, GroupState, Scenario, SimTime, Simulation};
//!
//! let scenario = Scenario::from_json(
//!     r#"{
//!         "version": 1,
//!         "seed": 7,
//!         "group_id": "g",
//!         "end_ms": 120000,
//!         "topics": [{ "name": "orders", "partitions": 4, "records_per_sec": 10 }],
//!         "client_defaults": { "subscription": { "topics": ["orders"] }, "assignors": ["range"] },
//!         "consumers": [{ "name": "A" }, { "name": "B" }]
//!     }"#,
//! )?;
//! let mut sim = Simulation::new(&scenario)?;
//!
//! // Both consumers join; then B is killed, and once its session times out (45 s by default) A
//! // owns every partition.
//! sim.run_until(SimTime(20_000));
//! assert_eq!((sim.owners()["A"].len(), sim.owners()["B"].len()), (2, 2));
//! sim.apply(sim.now(), Action::Kill { consumer: "B".into() })?;
//! sim.run_to_end();
//!
//! assert_eq!(sim.group().group_state, GroupState::Stable);
//! assert_eq!(sim.owners()["A"].len(), 4);
//! assert!(!sim.owners().contains_key("B"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod assignor;
pub mod client;
pub mod cluster;
pub mod collections;
pub mod compare;
pub mod console;
pub mod coordinator;
pub mod fields;
pub mod fromlog;
pub(crate) mod java;
pub mod lesson;
pub mod network;
pub mod protocol;
pub mod scenario;
pub mod session;
pub mod share;
pub mod sim;
pub mod sort;
pub mod time;
pub mod topic;

// The coordinator's event log, also at its old path (it lives in `coordinator/event.rs`).
pub use coordinator::event;

pub use client::{ClientEvent, CommitMode, Consumer, ConsumerConfig, GroupProtocol, Lifecycle, MemberState};
pub use cluster::{BrokerView, Cluster, ClusterConfig, ClusterEvent, OffsetsPartitionView, ReplicaView};
pub use coordinator::event::{Event, EventKind, LeaderReason, Reason, RemovalReason};
pub use coordinator::records::{Record, RecordBody};
pub use coordinator::timers::{Timer, TimerKey, TimerKind};
pub use coordinator::{
    partition_for, CommittedOffset, Coordinator, CoordinatorConfig, GroupSnapshot, KafkaRelease,
    MemberSnapshot, MigrationPolicy, PartitionStatus, ScriptedAssignment,
};
pub use network::{Endpoint, Message, NetworkConfig, Payload};
pub use protocol::{ConnectionId, ErrorCode, GroupState, NodeId, Outgoing, Request, Response};
pub use scenario::{Scenario, ScenarioError};
pub use session::{GroupView, Session};
pub use sim::{Action, ConsumerView, LogLevel, SimEvent, SimEventKind, Simulation, TopicView};
pub use time::{SimDuration, SimTime};
pub use topic::{Subscription, Topics};
