//! A deterministic, sans-IO simulation of Apache Kafka's **classic** consumer-group protocol.
//!
//! The engine performs no I/O, never reads a clock and never touches an OS random source: the
//! current [`SimTime`] is an argument of every input, and any randomness comes from a seed in the
//! configuration. It builds natively and for `wasm32-unknown-unknown`; the playground UI, the
//! `rebalance-sim` command line and the tests all drive the same code.
//!
//! Fidelity is the point. Every rule here follows Kafka's own source (see the reference in the
//! repository's shared material); where a teaching article simplifies, Kafka wins.

pub mod assignor;
pub mod client;
pub mod cluster;
pub mod coordinator;
pub mod java;
pub mod lesson;
pub mod network;
pub mod protocol;
pub mod scenario;
pub mod share;
pub mod sim;
pub mod sort;
pub mod time;
pub mod topic;

// The coordinator's event log, also at its old path (it lives in `coordinator/event.rs`).
pub use coordinator::event;

pub use client::{ClientEvent, CommitMode, Consumer, ConsumerConfig, Lifecycle, MemberState};
pub use cluster::{BrokerView, Cluster, ClusterConfig, ClusterEvent, OffsetsPartitionView, ReplicaView};
pub use coordinator::event::{Event, EventKind, LeaderReason, Reason, RemovalReason};
pub use coordinator::records::{Record, RecordBody};
pub use coordinator::timers::{Timer, TimerKey, TimerKind};
pub use coordinator::{
    partition_for, CommittedOffset, Coordinator, CoordinatorConfig, GroupSnapshot, MemberSnapshot,
    PartitionStatus,
};
pub use network::{Endpoint, Message, NetworkConfig, Payload};
pub use protocol::{ConnectionId, ErrorCode, GroupState, NodeId, Outgoing, Request, Response};
pub use scenario::{Scenario, ScenarioError};
pub use sim::{Action, ConsumerView, LogLevel, SimEvent, SimEventKind, Simulation, TopicView};
pub use time::{SimDuration, SimTime};
pub use topic::{Subscription, Topics};
