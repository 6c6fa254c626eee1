//! The coordinator's typed event log: everything that happened, in order, with the simulated time.
//!
//! The UI animates from these events and the golden tests snapshot their [`Display`](fmt::Display)
//! lines, so both the data and the English line are part of the product. Translating the line is the
//! UI's job; the engine provides the data.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::protocol::{
    Api, ConnectionId, ConsumerAssignment, ConsumerSubscription, ErrorCode, GroupState, JoinGroupProtocol,
    NodeId, OffsetCommitPartition, Request, Response, TopicPartition,
};
use crate::time::SimTime;

use super::consumer::{ConsumerGroupState, MemberState};
use super::records::Record;
use super::timers::{TimerKey, TimerKind};

/// One entry of the event log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// When it happened.
    pub at: SimTime,
    /// The coordinator (broker) it happened on.
    pub coordinator: NodeId,
    /// What happened.
    pub kind: EventKind,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EventKind {
    // ----------------------------------------------------------------- requests and responses
    /// A request arrived.
    RequestReceived {
        /// The requester.
        from: ConnectionId,
        /// The requester's correlation id.
        correlation_id: i32,
        /// The request, with all its fields.
        request: Request,
    },
    /// A JoinGroup or SyncGroup was parked: its response comes later (a long poll).
    RequestParked {
        /// The requester.
        from: ConnectionId,
        /// The requester's correlation id.
        correlation_id: i32,
        /// `JoinGroup` or `SyncGroup`.
        api: Api,
        /// The group.
        group_id: String,
        /// The member the response is for.
        member_id: String,
    },
    /// A parked request was superseded by a newer one from the same member and will never be
    /// answered (Kafka overwrites the member's awaiting future).
    ParkedRequestDropped {
        /// The requester of the dropped request.
        from: ConnectionId,
        /// Its correlation id.
        correlation_id: i32,
        /// `JoinGroup` or `SyncGroup`.
        api: Api,
        /// The member.
        member_id: String,
    },
    /// A response was sent.
    ResponseSent {
        /// The requester.
        to: ConnectionId,
        /// The requester's correlation id.
        correlation_id: i32,
        /// The response, with all its fields.
        response: Response,
    },

    // ------------------------------------------------------------------------- group lifecycle
    /// A group was created (by a first JoinGroup, or by an OffsetCommit without generation).
    GroupCreated {
        /// The group.
        group_id: String,
    },
    /// The group changed state.
    StateChanged {
        /// The group.
        group_id: String,
        /// The previous state.
        from: GroupState,
        /// The new state.
        to: GroupState,
        /// Why.
        reason: Reason,
    },
    /// The generation changed (each completed join phase does `+1`).
    GenerationChanged {
        /// The group.
        group_id: String,
        /// The old generation.
        from: i32,
        /// The new generation.
        to: i32,
    },
    /// The protocol (assignor) was selected by vote, or cleared.
    ProtocolSelected {
        /// The group.
        group_id: String,
        /// The protocol, or `None` when the group empties.
        protocol: Option<String>,
        /// Votes per candidate protocol, in the tie-break order.
        votes: Vec<(String, u32)>,
    },
    /// The leader changed.
    LeaderChanged {
        /// The group.
        group_id: String,
        /// The old leader.
        from: Option<String>,
        /// The new leader.
        to: Option<String>,
        /// Why.
        reason: LeaderReason,
    },
    /// A member was added to the group.
    MemberAdded {
        /// The group.
        group_id: String,
        /// The new member id.
        member_id: String,
        /// Its `group.instance.id`, if static.
        group_instance_id: Option<String>,
        /// Its client id.
        client_id: String,
        /// Its protocols, in preference order.
        protocols: Vec<JoinGroupProtocol>,
    },
    /// A member's protocols or timeouts were updated from a rejoin.
    MemberUpdated {
        /// The group.
        group_id: String,
        /// The member.
        member_id: String,
        /// Whether its protocols changed.
        protocols_changed: bool,
    },
    /// A static member's id was replaced: the old id is fenced (KIP-345).
    StaticMemberReplaced {
        /// The group.
        group_id: String,
        /// The instance id.
        group_instance_id: String,
        /// The fenced id.
        old_member_id: String,
        /// The new id.
        new_member_id: String,
    },
    /// A member was removed.
    MemberRemoved {
        /// The group.
        group_id: String,
        /// The member.
        member_id: String,
        /// Why.
        reason: RemovalReason,
    },
    /// A member id was handed out with `MEMBER_ID_REQUIRED` (KIP-394): pending, not yet a member.
    PendingMemberAdded {
        /// The group.
        group_id: String,
        /// The id.
        member_id: String,
    },
    /// A pending member id was dropped without joining.
    PendingMemberRemoved {
        /// The group.
        group_id: String,
        /// The id.
        member_id: String,
        /// Why.
        reason: RemovalReason,
    },
    /// The leader's assignment was stored for each member.
    AssignmentStored {
        /// The group.
        group_id: String,
        /// The generation.
        generation_id: i32,
        /// Member → assignment, in join order.
        assignments: Vec<(String, ConsumerAssignment)>,
    },
    /// Every member's assignment was reset to empty (entering PreparingRebalance from
    /// CompletingRebalance).
    AssignmentsReset {
        /// The group.
        group_id: String,
    },
    /// Offsets were committed.
    OffsetsCommitted {
        /// The group.
        group_id: String,
        /// The accepted partitions.
        partitions: Vec<OffsetCommitPartition>,
    },
    /// Offsets expired (`offsets.retention.minutes`).
    OffsetsExpired {
        /// The group.
        group_id: String,
        /// The expired partitions.
        partitions: Vec<TopicPartition>,
    },
    /// A Dead group was removed from the coordinator's memory.
    GroupRemoved {
        /// The group.
        group_id: String,
    },
    /// A group was rebuilt from the log.
    GroupLoaded {
        /// The group.
        group_id: String,
        /// Its state (Stable with members, else Empty).
        state: GroupState,
        /// Its generation.
        generation_id: i32,
        /// Its member count.
        members: usize,
        /// Its committed offsets count.
        offsets: usize,
    },

    // ---------------------------------------------------------------------------------- timers
    /// A timer was scheduled (or rescheduled, replacing the old one).
    TimerSet {
        /// The key.
        key: TimerKey,
        /// What for.
        kind: TimerKind,
        /// When it fires.
        deadline: SimTime,
        /// Whether it replaced a timer with the same key.
        replaced: bool,
    },
    /// A timer fired.
    TimerFired {
        /// The key.
        key: TimerKey,
        /// What for.
        kind: TimerKind,
    },
    /// A timer was cancelled.
    TimerCancelled {
        /// The key.
        key: TimerKey,
        /// What for.
        kind: TimerKind,
    },

    // ------------------------------------------------------------------------- the log
    /// A record was appended to a `__consumer_offsets` partition.
    RecordAppended {
        /// The partition.
        partition: i32,
        /// The record: the one in the partition's log, shared (not a copy).
        record: std::sync::Arc<Record>,
    },
    /// An append that something waited on failed (e.g. `REQUEST_TIMED_OUT`: not replicated within
    /// `offsets.commit.timeout.ms`); what waited gets the mapped error.
    AppendFailed {
        /// The partition.
        partition: i32,
        /// The record's offset.
        offset: u64,
        /// The append error (before mapping).
        error: ErrorCode,
    },
    /// This coordinator became leader of a partition and loaded it.
    PartitionLoaded {
        /// The partition.
        partition: i32,
        /// How many records were replayed.
        records: usize,
    },
    /// This coordinator stopped leading a partition; its groups went Dead.
    PartitionUnloaded {
        /// The partition.
        partition: i32,
    },

    // ------------------------------------------------------------ consumer groups (KIP-848)
    /// A member joined a consumer group (Kafka: `"Member {} joins the consumer group using the
    /// consumer protocol."`).
    ConsumerMemberJoined {
        /// The group.
        group_id: String,
        /// The member.
        member_id: String,
        /// Its `group.instance.id`, if static.
        instance_id: Option<String>,
    },
    /// A static member's new id took over its instance id and assignment (it had left with -2).
    ConsumerStaticMemberReplaced {
        /// The group.
        group_id: String,
        /// The instance id.
        instance_id: String,
        /// The old member id.
        old_member_id: String,
        /// The new member id.
        new_member_id: String,
    },
    /// The group epoch was bumped (`"Bumped group epoch to {}"`).
    ConsumerGroupEpochBumped {
        /// The group.
        group_id: String,
        /// The new group epoch.
        epoch: i32,
    },
    /// A new target assignment was computed.
    ConsumerTargetAssignmentComputed {
        /// The group.
        group_id: String,
        /// Its epoch (the group epoch).
        assignment_epoch: i32,
        /// The server-side assignor that ran.
        assignor: String,
        /// Every member's target, by member id.
        targets: Vec<(String, Vec<TopicPartition>)>,
        /// Whether a scripted assignment was used, or the script just ran out
        /// ([`crate::CoordinatorConfig::scripted_assignments`]); `None` without a script.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        script: Option<ScriptUse>,
    },
    /// A member's current assignment changed on its heartbeat (`CurrentAssignmentBuilder`).
    ConsumerMemberReconciled {
        /// The group.
        group_id: String,
        /// The member.
        member_id: String,
        /// Its new state.
        state: MemberState,
        /// Its member epoch.
        member_epoch: i32,
        /// Its assigned partitions.
        assigned: Vec<TopicPartition>,
        /// Its partitions pending revocation.
        pending_revocation: Vec<TopicPartition>,
    },
    /// A static member left with epoch -2: it keeps its partitions and instance id.
    ConsumerStaticMemberLeft {
        /// The group.
        group_id: String,
        /// The member.
        member_id: String,
        /// Its instance id.
        instance_id: String,
    },
    /// A member was removed from a consumer group (left with -1, or fenced by a timer).
    ConsumerMemberFenced {
        /// The group.
        group_id: String,
        /// The member.
        member_id: String,
        /// Why.
        reason: ConsumerFenceReason,
    },
    /// A consumer group's derived state changed.
    ConsumerGroupStateChanged {
        /// The group.
        group_id: String,
        /// Before.
        from: ConsumerGroupState,
        /// After.
        to: ConsumerGroupState,
    },
    /// A consumer group was rebuilt from the log (`"Loaded consumer group {} with {} members."`).
    ConsumerGroupLoaded {
        /// The group.
        group_id: String,
        /// Its group epoch.
        group_epoch: i32,
        /// Its target assignment epoch.
        assignment_epoch: i32,
        /// Its member count.
        members: usize,
    },
    /// An empty group changed type: a classic group became a consumer group (a
    /// `ConsumerGroupHeartbeat` join) or the reverse (a classic `JoinGroup`).
    GroupTypeConverted {
        /// The group.
        group_id: String,
        /// Whether it is now a consumer group.
        to_consumer: bool,
        /// How many members it kept: 0 for an empty group, else an online upgrade or downgrade
        /// (a mixed group, reference §10).
        #[serde(default, skip_serializing_if = "is_zero")]
        members: usize,
    },
}

/// How a target computation used the coordinator's assignment script.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ScriptUse {
    /// Scripted entry `entry` (1-based) of `of` was the result.
    Used {
        /// Which entry, from 1.
        entry: usize,
        /// How many the script has.
        of: usize,
    },
    /// The script's `after` entries were all used: the preferred assignor ran (said once).
    RanOut {
        /// How many the script had.
        after: usize,
    },
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Why a consumer-group member was removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ConsumerFenceReason {
    /// It sent a heartbeat with epoch -1 (a static member leaving for good too).
    Left,
    /// Its session expired (`"the member session expired"`).
    SessionExpired,
    /// It did not revoke in time (`"it failed to transition from epoch {} within {}ms"`).
    RebalanceTimeout {
        /// The epoch it was stuck at.
        member_epoch: i32,
        /// Its rebalance timeout.
        timeout_ms: i32,
    },
    /// A classic member of a mixed group told to rejoin did not within its rebalance timeout.
    ClassicJoinTimeout,
    /// A classic member of a mixed group did not sync within its rebalance timeout.
    ClassicSyncTimeout,
}

impl fmt::Display for ConsumerFenceReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Left => f.write_str("it left the consumer group"),
            Self::SessionExpired => f.write_str("the member session expired"),
            Self::RebalanceTimeout {
                member_epoch,
                timeout_ms,
            } => write!(
                f,
                "it failed to transition from epoch {member_epoch} within {timeout_ms}ms"
            ),
            Self::ClassicJoinTimeout => {
                f.write_str("the classic member failed to join within the rebalance timeout")
            }
            Self::ClassicSyncTimeout => f.write_str("the member failed to sync within timeout"),
        }
    }
}

/// Why a group changed state (or started a rebalance).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reason {
    /// A new member was added.
    MemberAdded {
        /// The member.
        member_id: String,
    },
    /// The leader sent JoinGroup in Stable (it may force a new assignment).
    LeaderRejoined {
        /// The leader.
        member_id: String,
    },
    /// A member rejoined with different protocol metadata.
    MemberMetadataChanged {
        /// The member.
        member_id: String,
    },
    /// A static member was replaced in CompletingRebalance, or in Stable with a different protocol
    /// outcome.
    StaticMemberReplaced {
        /// The new member id.
        member_id: String,
    },
    /// Members left with LeaveGroup.
    MembersLeft {
        /// The members (and pending ids) removed by the request.
        member_ids: Vec<String>,
    },
    /// A member's session expired.
    SessionExpired {
        /// The member.
        member_id: String,
    },
    /// Members did not send SyncGroup in time.
    PendingSyncExpired {
        /// The removed members.
        member_ids: Vec<String>,
    },
    /// A freshly loaded group is over `group.max.size`.
    OverCapacityOnLoad {
        /// The group size.
        size: usize,
        /// `group.max.size`.
        max: usize,
    },
    /// The last consumer-protocol member left a mixed group, which became a classic group
    /// (`"Downgrade group %s from consumer to classic for member leaving."`).
    Downgraded,
    /// The join phase completed.
    JoinPhaseCompleted,
    /// The leader's assignment was persisted.
    AssignmentPersisted,
    /// Persisting the leader's assignment failed.
    AssignmentAppendFailed {
        /// The append error.
        error: ErrorCode,
    },
    /// The group's `__consumer_offsets` partition moved to another coordinator.
    PartitionUnloaded,
    /// All offsets of the Empty group expired, so the group is deleted.
    OffsetsExpired,
    /// The caller forced the group Dead.
    Forced,
    /// An admin deleted the Empty group with DeleteGroups.
    GroupDeleted,
}

/// Why the leader changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LeaderReason {
    /// The first member added to a group without a leader.
    FirstMember,
    /// The leader was removed; the earliest-joined remaining member takes over.
    LeaderRemoved,
    /// The leader did not rejoin; the earliest-joined member that did is elected at completion.
    LeaderNotRejoined,
    /// The static leader was replaced; its new id keeps leadership.
    StaticReplacement,
}

/// Why a member (or pending member id) was removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RemovalReason {
    /// It sent LeaveGroup.
    LeaveGroup,
    /// An admin removed it by `group.instance.id` (LeaveGroup with member id `""`).
    AdminRemoval,
    /// Its session (or new-member join timeout) expired.
    SessionExpired,
    /// A dynamic member did not rejoin before the join phase completed.
    NotRejoined,
    /// It did not send SyncGroup before the pending-sync timeout.
    PendingSyncExpired,
    /// It was rejected because the group reached `group.max.size`.
    GroupMaxSizeReached,
    /// Its static instance id was taken over by a new member id.
    Replaced,
    /// A pending id became a full member (second JoinGroup).
    Joined,
}

// ------------------------------------------------------------------------------------------------
// Display: one readable English line per event
// ------------------------------------------------------------------------------------------------

pub(crate) struct Partitions<'a>(pub(crate) &'a [TopicPartition]);

impl fmt::Display for Partitions<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (i, tp) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{tp}")?;
        }
        f.write_str("]")
    }
}

struct Opt<'a>(&'a Option<String>);

impl fmt::Display for Opt<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(s) => write!(f, "{s:?}"),
            None => f.write_str("null"),
        }
    }
}

struct Sub<'a>(&'a ConsumerSubscription);

impl fmt::Display for Sub<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "topics [{}]", self.0.topics.join(", "))?;
        if !self.0.owned_partitions.is_empty() {
            write!(f, " owned {}", Partitions(&self.0.owned_partitions))?;
        }
        if self.0.generation_id >= 0 {
            write!(f, " gen {}", self.0.generation_id)?;
        }
        if !self.0.user_data.is_empty() {
            write!(f, " user data {} bytes", self.0.user_data.len())?;
        }
        Ok(())
    }
}

struct Asg<'a>(&'a ConsumerAssignment);

impl fmt::Display for Asg<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", Partitions(&self.0.partitions))?;
        if !self.0.user_data.is_empty() {
            write!(f, " (+{} bytes user data)", self.0.user_data.len())?;
        }
        Ok(())
    }
}

struct Protocols<'a>(&'a [JoinGroupProtocol]);

impl fmt::Display for Protocols<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (i, p) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{} ({})", p.name, Sub(&p.metadata))?;
        }
        f.write_str("]")
    }
}

impl fmt::Display for Request {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::FindCoordinator(r) => write!(f, "FindCoordinator(key={:?})", r.key),
            Self::JoinGroup(r) => write!(
                f,
                "JoinGroup v{}(group={:?}, member={:?}, instance={}, client={:?}, host={:?}, protocol_type={:?}, \
                 protocols={}, session_timeout={}ms, rebalance_timeout={}ms, reason={})",
                r.api_version,
                r.group_id,
                r.member_id,
                Opt(&r.group_instance_id),
                r.client_id,
                r.client_host,
                r.protocol_type,
                Protocols(&r.protocols),
                r.session_timeout_ms,
                r.rebalance_timeout_ms,
                Opt(&r.reason)
            ),
            Self::SyncGroup(r) => {
                write!(
                    f,
                    "SyncGroup(group={:?}, generation={}, member={:?}, instance={}, protocol_type={}, \
                     protocol={}, assignments=[",
                    r.group_id,
                    r.generation_id,
                    r.member_id,
                    Opt(&r.group_instance_id),
                    Opt(&r.protocol_type),
                    Opt(&r.protocol_name)
                )?;
                for (i, a) in r.assignments.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(f, "{} -> {}", a.member_id, Asg(&a.assignment))?;
                }
                f.write_str("])")
            }
            Self::Heartbeat(r) => write!(
                f,
                "Heartbeat(group={:?}, generation={}, member={:?}, instance={})",
                r.group_id,
                r.generation_id,
                r.member_id,
                Opt(&r.group_instance_id)
            ),
            Self::LeaveGroup(r) => {
                write!(f, "LeaveGroup(group={:?}, members=[", r.group_id)?;
                for (i, m) in r.members.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(
                        f,
                        "member={:?} instance={} reason={}",
                        m.member_id,
                        Opt(&m.group_instance_id),
                        Opt(&m.reason)
                    )?;
                }
                f.write_str("])")
            }
            Self::OffsetCommit(r) => {
                write!(
                    f,
                    "OffsetCommit v{}(group={:?}, generation={}, member={:?}, instance={}, retention={}, offsets=[",
                    r.api_version,
                    r.group_id,
                    r.generation_id,
                    r.member_id,
                    Opt(&r.group_instance_id),
                    r.retention_time_ms.map_or("default".to_owned(), |ms| format!("{ms}ms"))
                )?;
                for (i, p) in r.partitions.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{}-{}={}", p.topic, p.partition, p.committed_offset)?;
                    if p.committed_leader_epoch >= 0 {
                        write!(f, " epoch {}", p.committed_leader_epoch)?;
                    }
                    if !p.committed_metadata.is_empty() {
                        write!(f, " {:?}", p.committed_metadata)?;
                    }
                }
                f.write_str("])")
            }
            Self::OffsetFetch(r) => {
                write!(f, "OffsetFetch(group={:?}, partitions=", r.group_id)?;
                match &r.partitions {
                    Some(ps) => write!(f, "{}", Partitions(ps))?,
                    None => f.write_str("all")?,
                }
                write!(f, ", require_stable={})", r.require_stable)
            }
            Self::DescribeGroups(r) => write!(f, "DescribeGroups(groups={:?})", r.group_ids),
            Self::ListGroups(r) => write!(f, "ListGroups(states={:?})", r.states_filter),
            Self::DeleteGroups(r) => write!(f, "DeleteGroups(groups={:?})", r.group_ids),
            Self::ConsumerGroupHeartbeat(r) => {
                write!(
                    f,
                    "ConsumerGroupHeartbeat v{}(group={:?}, member={:?}, epoch={}, instance={}, rack={}, \
                     rebalance_timeout={}ms, topics=",
                    r.api_version,
                    r.group_id,
                    r.member_id,
                    r.member_epoch,
                    Opt(&r.instance_id),
                    Opt(&r.rack_id),
                    r.rebalance_timeout_ms
                )?;
                match &r.subscribed_topic_names {
                    Some(t) => write!(f, "[{}]", t.join(", "))?,
                    None => f.write_str("null")?,
                }
                if r.subscribed_topic_regex.is_some() {
                    write!(f, ", regex={}", Opt(&r.subscribed_topic_regex))?;
                }
                write!(f, ", assignor={}, owned=", Opt(&r.server_assignor))?;
                match &r.topic_partitions {
                    Some(t) => write!(f, "{}", IdParts(t))?,
                    None => f.write_str("null")?,
                }
                f.write_str(")")
            }
            Self::ConsumerGroupDescribe(r) => write!(f, "ConsumerGroupDescribe(groups={:?})", r.group_ids),
        }
    }
}

/// Heartbeat topic partitions, `[t: 0 1; u: 2]`.
struct IdParts<'a>(&'a [crate::protocol::ConsumerGroupHeartbeatTopicPartitions]);

impl fmt::Display for IdParts<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (i, t) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{}:", t.topic_id)?;
            for p in &t.partitions {
                write!(f, " {p}")?;
            }
        }
        f.write_str("]")
    }
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::FindCoordinator(r) => write!(
                f,
                "FindCoordinator({}, node={}, partition={})",
                r.error_code, r.node_id.0, r.partition
            ),
            Self::JoinGroup(r) => {
                write!(
                    f,
                    "JoinGroup({}, generation={}, protocol_type={}, protocol={}, leader={:?}, member={:?}, \
                     skip_assignment={}, members=[",
                    r.error_code,
                    r.generation_id,
                    Opt(&r.protocol_type),
                    Opt(&r.protocol_name),
                    r.leader,
                    r.member_id,
                    r.skip_assignment
                )?;
                for (i, m) in r.members.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(
                        f,
                        "{} instance={} {}",
                        m.member_id,
                        Opt(&m.group_instance_id),
                        Sub(&m.metadata)
                    )?;
                }
                f.write_str("])")
            }
            Self::SyncGroup(r) => write!(
                f,
                "SyncGroup({}, protocol_type={}, protocol={}, assignment={})",
                r.error_code,
                Opt(&r.protocol_type),
                Opt(&r.protocol_name),
                Asg(&r.assignment)
            ),
            Self::Heartbeat(r) => write!(f, "Heartbeat({})", r.error_code),
            Self::LeaveGroup(r) => {
                write!(f, "LeaveGroup({}, members=[", r.error_code)?;
                for (i, m) in r.members.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(
                        f,
                        "{:?} instance={}: {}",
                        m.member_id,
                        Opt(&m.group_instance_id),
                        m.error_code
                    )?;
                }
                f.write_str("])")
            }
            Self::OffsetCommit(r) => {
                f.write_str("OffsetCommit([")?;
                for (i, p) in r.partitions.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{}-{}: {}", p.topic, p.partition, p.error_code)?;
                }
                f.write_str("])")
            }
            Self::OffsetFetch(r) => {
                write!(f, "OffsetFetch({}, offsets=[", r.error_code)?;
                for (i, p) in r.partitions.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{}-{}={}", p.topic, p.partition, p.committed_offset)?;
                    if !p.error_code.is_none() {
                        write!(f, " {}", p.error_code)?;
                    }
                }
                f.write_str("])")
            }
            Self::DescribeGroups(r) => {
                f.write_str("DescribeGroups(")?;
                for (i, g) in r.groups.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(
                        f,
                        "{:?} {} {} protocol_type={:?} protocol={:?} members=[",
                        g.group_id, g.error_code, g.group_state, g.protocol_type, g.protocol_data
                    )?;
                    for (j, m) in g.members.iter().enumerate() {
                        if j > 0 {
                            f.write_str(", ")?;
                        }
                        write!(f, "{} -> {}", m.member_id, Asg(&m.assignment))?;
                    }
                    f.write_str("]")?;
                }
                f.write_str(")")
            }
            Self::ListGroups(r) => {
                write!(f, "ListGroups({}, groups=[", r.error_code)?;
                for (i, g) in r.groups.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{:?} {} {:?}", g.group_id, g.group_state, g.protocol_type)?;
                }
                f.write_str("])")
            }
            Self::DeleteGroups(r) => {
                f.write_str("DeleteGroups(")?;
                for (i, g) in r.results.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{:?} {}", g.group_id, g.error_code)?;
                }
                f.write_str(")")
            }
            Self::ConsumerGroupHeartbeat(r) => {
                write!(f, "ConsumerGroupHeartbeat({}", r.error_code)?;
                if let Some(m) = &r.error_message {
                    write!(f, " {m:?}")?;
                }
                if let Some(id) = &r.member_id {
                    write!(f, ", member={id:?}")?;
                }
                write!(
                    f,
                    ", epoch={}, interval={}ms",
                    r.member_epoch, r.heartbeat_interval_ms
                )?;
                if let Some(a) = &r.assignment {
                    write!(f, ", assignment={}", IdParts(&a.topic_partitions))?;
                }
                f.write_str(")")
            }
            Self::ConsumerGroupDescribe(r) => {
                f.write_str("ConsumerGroupDescribe(")?;
                for (i, g) in r.groups.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(
                        f,
                        "{:?} {} {} epoch={} assignment_epoch={} assignor={:?} members=[",
                        g.group_id,
                        g.error_code,
                        g.group_state,
                        g.group_epoch,
                        g.assignment_epoch,
                        g.assignor_name
                    )?;
                    for (j, m) in g.members.iter().enumerate() {
                        if j > 0 {
                            f.write_str(", ")?;
                        }
                        write!(f, "{} epoch {} [", m.member_id, m.member_epoch)?;
                        for (k, t) in m.assignment.topic_partitions.iter().enumerate() {
                            if k > 0 {
                                f.write_str("; ")?;
                            }
                            write!(f, "{}:", t.topic_name)?;
                            for p in &t.partitions {
                                write!(f, " {p}")?;
                            }
                        }
                        f.write_str("]")?;
                    }
                    f.write_str("]")?;
                }
                f.write_str(")")
            }
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::MemberAdded { member_id } => write!(f, "new member {member_id} added"),
            Self::LeaderRejoined { member_id } => write!(f, "leader {member_id} rejoined"),
            Self::MemberMetadataChanged { member_id } => {
                write!(f, "member {member_id} rejoined with changed metadata")
            }
            Self::StaticMemberReplaced { member_id } => {
                write!(f, "static member replaced by {member_id}")
            }
            Self::MembersLeft { member_ids } => write!(f, "LeaveGroup from [{}]", member_ids.join(", ")),
            Self::SessionExpired { member_id } => write!(f, "session of {member_id} expired"),
            Self::PendingSyncExpired { member_ids } => {
                write!(f, "[{}] did not send SyncGroup in time", member_ids.join(", "))
            }
            Self::OverCapacityOnLoad { size, max } => {
                write!(f, "loaded group has {size} members, over group.max.size {max}")
            }
            Self::Downgraded => f.write_str("downgraded from consumer to classic for member leaving"),
            Self::JoinPhaseCompleted => f.write_str("join phase completed"),
            Self::AssignmentPersisted => f.write_str("leader's assignment persisted"),
            Self::AssignmentAppendFailed { error } => write!(f, "persisting the assignment failed: {error}"),
            Self::PartitionUnloaded => f.write_str("partition unloaded: coordinator moved"),
            Self::OffsetsExpired => f.write_str("all offsets expired"),
            Self::Forced => f.write_str("forced by the caller"),
            Self::GroupDeleted => f.write_str("deleted with DeleteGroups"),
        }
    }
}

impl fmt::Display for LeaderReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::FirstMember => "first member to join",
            Self::LeaderRemoved => "previous leader removed",
            Self::LeaderNotRejoined => "previous leader did not rejoin",
            Self::StaticReplacement => "static leader got a new member id",
        })
    }
}

impl fmt::Display for RemovalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::LeaveGroup => "left the group",
            Self::AdminRemoval => "removed by instance id",
            Self::SessionExpired => "session expired",
            Self::NotRejoined => "did not rejoin in time",
            Self::PendingSyncExpired => "did not send SyncGroup in time",
            Self::GroupMaxSizeReached => "group.max.size reached",
            Self::Replaced => "replaced by a new member id",
            Self::Joined => "joined as a member",
        })
    }
}

fn opt_or_none(o: &Option<String>) -> &str {
    o.as_deref().unwrap_or("none")
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} [{}] ", self.at, self.coordinator)?;
        fmt::Display::fmt(&self.kind, f)
    }
}

impl fmt::Display for EventKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::RequestReceived { from, correlation_id, request } => {
                write!(f, "<- {from} #{correlation_id} {request}")
            }
            Self::RequestParked { from, correlation_id, api, group_id, member_id } => {
                write!(f, "group {group_id}: {api} #{correlation_id} from {from} parked for {member_id}")
            }
            Self::ParkedRequestDropped { from, correlation_id, api, member_id } => write!(
                f,
                "{api} #{correlation_id} from {from} superseded by a newer one from {member_id}; it will not be answered"
            ),
            Self::ResponseSent { to, correlation_id, response } => write!(f, "-> {to} #{correlation_id} {response}"),
            Self::GroupCreated { group_id } => write!(f, "group {group_id}: created (Empty, generation 0)"),
            Self::StateChanged { group_id, from, to, reason } => {
                write!(f, "group {group_id}: {from} -> {to} ({reason})")
            }
            Self::GenerationChanged { group_id, from, to } => {
                write!(f, "group {group_id}: generation {from} -> {to}")
            }
            Self::ProtocolSelected { group_id, protocol, votes } => match protocol {
                Some(p) => {
                    write!(f, "group {group_id}: protocol {p} selected (votes:")?;
                    for (name, n) in votes {
                        write!(f, " {name}={n}")?;
                    }
                    f.write_str(")")
                }
                None => write!(f, "group {group_id}: protocol cleared"),
            },
            Self::LeaderChanged { group_id, from, to, reason } => write!(
                f,
                "group {group_id}: leader {} -> {} ({reason})",
                opt_or_none(from),
                opt_or_none(to)
            ),
            Self::MemberAdded { group_id, member_id, group_instance_id, client_id, protocols } => {
                write!(f, "group {group_id}: member {member_id} added (client {client_id}")?;
                if let Some(i) = group_instance_id {
                    write!(f, ", static instance {i}")?;
                }
                write!(f, ", protocols {})", Protocols(protocols))
            }
            Self::MemberUpdated { group_id, member_id, protocols_changed } => write!(
                f,
                "group {group_id}: member {member_id} rejoined ({})",
                if *protocols_changed { "protocols changed" } else { "same protocols" }
            ),
            Self::StaticMemberReplaced { group_id, group_instance_id, old_member_id, new_member_id } => write!(
                f,
                "group {group_id}: static instance {group_instance_id} now {new_member_id}; {old_member_id} is fenced"
            ),
            Self::MemberRemoved { group_id, member_id, reason } => {
                write!(f, "group {group_id}: member {member_id} removed ({reason})")
            }
            Self::PendingMemberAdded { group_id, member_id } => {
                write!(f, "group {group_id}: pending member {member_id} must rejoin with its new id")
            }
            Self::PendingMemberRemoved { group_id, member_id, reason } => {
                write!(f, "group {group_id}: pending member {member_id} dropped ({reason})")
            }
            Self::AssignmentStored { group_id, generation_id, assignments } => {
                write!(f, "group {group_id}: assignment for generation {generation_id} stored [")?;
                for (i, (m, a)) in assignments.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(f, "{m} -> {}", Asg(a))?;
                }
                f.write_str("]")
            }
            Self::AssignmentsReset { group_id } => {
                write!(f, "group {group_id}: every member's assignment reset to empty")
            }
            Self::OffsetsCommitted { group_id, partitions } => {
                write!(f, "group {group_id}: offsets committed [")?;
                for (i, p) in partitions.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{}-{}={}", p.topic, p.partition, p.committed_offset)?;
                }
                f.write_str("]")
            }
            Self::OffsetsExpired { group_id, partitions } => {
                write!(f, "group {group_id}: offsets expired {}", Partitions(partitions))
            }
            Self::GroupRemoved { group_id } => write!(f, "group {group_id}: removed from memory"),
            Self::GroupLoaded { group_id, state, generation_id, members, offsets } => write!(
                f,
                "group {group_id}: loaded as {state}, generation {generation_id}, {members} member(s), \
                 {offsets} offset(s)"
            ),
            Self::TimerSet { key, kind, deadline, replaced } => write!(
                f,
                "timer {key} {} ({kind}) for {deadline}",
                if *replaced { "reset" } else { "set" }
            ),
            Self::TimerFired { key, kind } => write!(f, "timer {key} fired ({kind})"),
            Self::TimerCancelled { key, kind } => write!(f, "timer {key} cancelled ({kind})"),
            Self::RecordAppended { partition, record } => write!(
                f,
                "__consumer_offsets-{partition} offset {}: appended {}",
                record.offset, record.body
            ),
            Self::AppendFailed {
                partition,
                offset,
                error,
            } => write!(
                f,
                "__consumer_offsets-{partition} offset {offset}: append failed with {error}; waiters get {}",
                error.append_error_to_response_error()
            ),
            Self::PartitionLoaded { partition, records } => {
                write!(f, "__consumer_offsets-{partition}: now leader; loaded {records} record(s)")
            }
            Self::PartitionUnloaded { partition } => {
                write!(f, "__consumer_offsets-{partition}: no longer leader; groups unloaded")
            }
            Self::ConsumerMemberJoined { group_id, member_id, instance_id } => write!(
                f,
                "group {group_id}: member {member_id} (instance {}) joins the consumer group using the consumer protocol",
                Opt(instance_id)
            ),
            Self::ConsumerStaticMemberReplaced { group_id, instance_id, old_member_id, new_member_id } => write!(
                f,
                "group {group_id}: static member {new_member_id} with instance id {instance_id:?} replaces {old_member_id}"
            ),
            Self::ConsumerGroupEpochBumped { group_id, epoch } => {
                write!(f, "group {group_id}: bumped group epoch to {epoch}")
            }
            Self::ConsumerTargetAssignmentComputed { group_id, assignment_epoch, assignor, targets, script } => {
                match script {
                    Some(ScriptUse::Used { entry, of }) => write!(
                        f,
                        "group {group_id}: target assignment for epoch {assignment_epoch} (scripted assignment {entry} of {of}): "
                    )?,
                    Some(ScriptUse::RanOut { after }) => write!(
                        f,
                        "group {group_id}: target assignment for epoch {assignment_epoch} ({assignor}; the assignment \
                         script ran out after {after}): "
                    )?,
                    None => write!(f, "group {group_id}: target assignment for epoch {assignment_epoch} ({assignor}): ")?,
                }
                for (i, (m, ps)) in targets.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(f, "{m} -> {}", Partitions(ps))?;
                }
                Ok(())
            }
            Self::ConsumerMemberReconciled { group_id, member_id, state, member_epoch, assigned, pending_revocation } => {
                write!(
                    f,
                    "group {group_id}: member {member_id} {state} at epoch {member_epoch}, assigned {}",
                    Partitions(assigned)
                )?;
                if !pending_revocation.is_empty() {
                    write!(f, ", must revoke {}", Partitions(pending_revocation))?;
                }
                Ok(())
            }
            Self::ConsumerStaticMemberLeft { group_id, member_id, instance_id } => write!(
                f,
                "group {group_id}: static member {member_id} with instance id {instance_id:?} left temporarily \
                 (epoch -2), keeping its partitions"
            ),
            Self::ConsumerMemberFenced { group_id, member_id, reason } => {
                write!(f, "group {group_id}: member {member_id} fenced from the group because {reason}")
            }
            Self::ConsumerGroupStateChanged { group_id, from, to } => {
                write!(f, "group {group_id}: consumer group {from} -> {to}")
            }
            Self::ConsumerGroupLoaded { group_id, group_epoch, assignment_epoch, members } => write!(
                f,
                "group {group_id}: loaded consumer group with {members} member(s), group epoch {group_epoch}, \
                 assignment epoch {assignment_epoch}"
            ),
            Self::GroupTypeConverted { group_id, to_consumer, members } if *members > 0 => {
                if *to_consumer {
                    write!(
                        f,
                        "group {group_id}: converted the classic group to a consumer group; its {members} member(s) \
                         keep the classic protocol"
                    )
                } else {
                    write!(
                        f,
                        "group {group_id}: converted the consumer group to a classic group with {members} member(s)"
                    )
                }
            }
            Self::GroupTypeConverted { group_id, to_consumer, .. } => {
                if *to_consumer {
                    write!(f, "group {group_id}: the empty classic group is now a consumer group")
                } else {
                    write!(f, "group {group_id}: converted the empty consumer group to a classic group")
                }
            }
        }
    }
}
