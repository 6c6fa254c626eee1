//! `preloaded_groups`: groups already in `__consumer_offsets` at time 0, classic or consumer
//! (KIP-848), with their members, assignments and committed offsets.
//!
//! A preloaded group is written as the records its coordinator would have appended
//! ([`PreloadedGroup::records`], in the order of Kafka's test builders `ClassicGroup` /
//! `ConsumerGroupBuilder.build`), and the group's coordinator loads them at time 0 through the
//! failover path ([`crate::Coordinator::load`]), which applies Kafka's rules on load: every member's
//! session timer starts, a classic group over `group.max.size` starts a rebalance, a consumer
//! member in `UNREVOKED_PARTITIONS` gets its revocation deadline.

use crate::collections::Map;
use crate::collections::Set;

use serde::{Deserialize, Serialize};

use crate::assignor::server::ServerAssignor;
use crate::coordinator::consumer::group::{ConsumerGroup, ConsumerMember};
use crate::coordinator::consumer::{CurrentAssignment, MemberState};
use crate::coordinator::partition_for;
use crate::coordinator::records::{
    ConsumerGroupMetadataValue, GroupMetadataRecord, MemberMetadataRecord, OffsetCommitRecord, RecordBody,
};
use crate::protocol::{ConsumerAssignment, ConsumerSubscription, TopicPartition};
use crate::time::SimTime;
use crate::topic::Pattern;

use super::kip848::{check_partitions, to_partitions};
use super::locate::Seg;
use super::{at_most, key, name_at_most, problem, Problem, Scenario};
use super::{MAX_CONSUMERS, MAX_INITIAL_RECORDS, MAX_LIST_ENTRIES, MAX_NAME_CHARS, MAX_TOPIC_NAME_CHARS};

/// The most preloaded groups.
pub const MAX_PRELOADED_GROUPS: usize = 100;
/// The most committed offsets of one preloaded group.
pub const MAX_PRELOADED_OFFSETS: usize = 10_000;
/// The highest epoch or generation a preloaded group may give: room for 2^20 bumps before a Java
/// `int` overflows.
pub const MAX_PRELOADED_EPOCH: i32 = i32::MAX - (1 << 20);

/// Topic → partitions, as a scenario writes an assignment.
pub type PartitionsSpec = Map<String, Vec<i32>>;

/// One group in `__consumer_offsets` at time 0; `"protocol"` says which kind.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "protocol", rename_all = "snake_case")]
pub enum PreloadedGroup {
    /// A classic group (JoinGroup/SyncGroup): Stable at its generation with members, else Empty.
    Classic(ClassicGroupSpec),
    /// A consumer group (KIP-848).
    Consumer(ConsumerGroupSpec),
}

/// A classic group at time 0.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassicGroupSpec {
    /// The group id (default: the scenario's `group_id`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_id: Option<String>,
    /// The generation (default 1 with members, 0 without).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generation: Option<i32>,
    /// The protocol type (default `"consumer"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol_type: Option<String>,
    /// The selected protocol, the assignor's name (default `"range"`; absent without members).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assignor: Option<String>,
    /// The leader (default: the first member).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leader: Option<String>,
    /// The members, in join order.
    #[serde(default)]
    pub members: Vec<ClassicMemberSpec>,
    /// Committed offsets.
    #[serde(default)]
    pub offsets: Vec<OffsetSpec>,
}

/// A member of a preloaded classic group.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassicMemberSpec {
    /// Its member id.
    pub member_id: String,
    /// `group.instance.id`, if static.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instance_id: Option<String>,
    /// Its client id (default: the member id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_id: Option<String>,
    /// Its host (default `"/127.0.0.1"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_host: Option<String>,
    /// `session.timeout.ms` (default 45000; within the coordinator's min and max).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_timeout_ms: Option<i32>,
    /// `max.poll.interval.ms` as its rebalance timeout (default 300000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rebalance_timeout_ms: Option<i32>,
    /// The topics it subscribes to.
    #[serde(default)]
    pub subscription: Vec<String>,
    /// Its assignment of the current generation.
    #[serde(default)]
    pub assignment: PartitionsSpec,
}

/// A consumer group (KIP-848) at time 0.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConsumerGroupSpec {
    /// The group id (default: the scenario's `group_id`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_id: Option<String>,
    /// The group epoch.
    pub group_epoch: i32,
    /// The target assignment epoch (default: the group epoch; at most the group epoch).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assignment_epoch: Option<i32>,
    /// The members.
    #[serde(default)]
    pub members: Vec<ConsumerMemberSpec>,
    /// Each member's target assignment, by member id (default: a member's target is its
    /// `assigned` partitions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_assignment: Option<Map<String, PartitionsSpec>>,
    /// Committed offsets.
    #[serde(default)]
    pub offsets: Vec<OffsetSpec>,
}

/// A member of a preloaded consumer group.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConsumerMemberSpec {
    /// Its member id.
    pub member_id: String,
    /// `group.instance.id`, if static.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instance_id: Option<String>,
    /// `client.rack`, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rack_id: Option<String>,
    /// Its client id (default: the member id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_id: Option<String>,
    /// Its host (default `"/127.0.0.1"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_host: Option<String>,
    /// Subscribed topic names.
    #[serde(default)]
    pub subscribed_topic_names: Vec<String>,
    /// A subscribed regex, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subscribed_topic_regex: Option<String>,
    /// Its preferred server assignor (`uniform`, `range`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_assignor: Option<String>,
    /// Its rebalance timeout (default 300000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rebalance_timeout_ms: Option<i32>,
    /// Its member epoch (default: the assignment epoch); -2 for a static member that left
    /// temporarily.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub member_epoch: Option<i32>,
    /// Its previous member epoch (default: the member epoch minus 1, or -1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous_member_epoch: Option<i32>,
    /// Its reconciliation state (default `STABLE`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<MemberState>,
    /// The partitions it owns and may use.
    #[serde(default)]
    pub assigned: PartitionsSpec,
    /// The partitions it must revoke (only in `UNREVOKED_PARTITIONS`).
    #[serde(default)]
    pub pending_revocation: PartitionsSpec,
}

/// A committed offset of a preloaded group.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OffsetSpec {
    /// The topic.
    pub topic: String,
    /// The partition.
    pub partition: i32,
    /// The committed offset.
    pub offset: i64,
    /// The leader epoch (default -1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leader_epoch: Option<i32>,
    /// The metadata string (default empty).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<String>,
}

const DEFAULT_HOST: &str = "/127.0.0.1";
const DEFAULT_SESSION_TIMEOUT_MS: i32 = 45_000;
const DEFAULT_REBALANCE_TIMEOUT_MS: i32 = 300_000;

impl PreloadedGroup {
    /// The group id, the scenario's `group_id` by default.
    pub fn group_id<'a>(&'a self, scenario: &'a Scenario) -> &'a str {
        let id = match self {
            Self::Classic(g) => g.group_id.as_deref(),
            Self::Consumer(g) => g.group_id.as_deref(),
        };
        id.unwrap_or(&scenario.group_id)
    }

    fn offsets(&self) -> &[OffsetSpec] {
        match self {
            Self::Classic(g) => &g.offsets,
            Self::Consumer(g) => &g.offsets,
        }
    }

    /// The records the group's coordinator would have written, in Kafka's test-builder order.
    /// `topics` is the metadata image at time 0 (topic → partition count), for the consumer
    /// group's metadata hash.
    pub fn records(&self, scenario: &Scenario, topics: &Map<String, i32>) -> Vec<RecordBody> {
        let group_id = self.group_id(scenario).to_owned();
        let mut out = match self {
            Self::Classic(g) => vec![RecordBody::GroupMetadata(classic_record(&group_id, g))],
            Self::Consumer(g) => consumer_records(&group_id, g, topics),
        };
        for o in self.offsets() {
            out.push(RecordBody::OffsetCommit(OffsetCommitRecord {
                group_id: group_id.clone(),
                topic_partition: TopicPartition::new(o.topic.clone(), o.partition),
                committed_offset: o.offset,
                committed_leader_epoch: o.leader_epoch.unwrap_or(-1),
                metadata: o.metadata.clone().unwrap_or_default(),
                commit_timestamp: SimTime::ZERO,
                expire_timestamp: None,
            }));
        }
        out
    }
}

fn flat(spec: &PartitionsSpec) -> Vec<TopicPartition> {
    let mut v: Vec<TopicPartition> = to_partitions(spec)
        .iter()
        .flat_map(|(t, ps)| ps.iter().map(move |p| TopicPartition::new(t.clone(), *p)))
        .collect();
    v.dedup();
    v
}

fn classic_record(group_id: &str, g: &ClassicGroupSpec) -> GroupMetadataRecord {
    let has_members = !g.members.is_empty();
    let generation = g.generation.unwrap_or(i32::from(has_members));
    GroupMetadataRecord {
        group_id: group_id.to_owned(),
        protocol_type: Some(g.protocol_type.clone().unwrap_or_else(|| "consumer".into())),
        generation_id: generation,
        protocol_name: has_members.then(|| g.assignor.clone().unwrap_or_else(|| "range".into())),
        leader: if has_members {
            g.leader
                .clone()
                .or_else(|| g.members.first().map(|m| m.member_id.clone()))
        } else {
            None
        },
        current_state_timestamp: SimTime::ZERO,
        members: g
            .members
            .iter()
            .map(|m| {
                let assignment = flat(&m.assignment);
                MemberMetadataRecord {
                    member_id: m.member_id.clone(),
                    group_instance_id: m.instance_id.clone(),
                    client_id: m.client_id.clone().unwrap_or_else(|| m.member_id.clone()),
                    client_host: m.client_host.clone().unwrap_or_else(|| DEFAULT_HOST.into()),
                    rebalance_timeout_ms: m.rebalance_timeout_ms.unwrap_or(DEFAULT_REBALANCE_TIMEOUT_MS),
                    session_timeout_ms: m.session_timeout_ms.unwrap_or(DEFAULT_SESSION_TIMEOUT_MS),
                    subscription: ConsumerSubscription {
                        topics: m.subscription.clone(),
                        owned_partitions: assignment.clone(),
                        generation_id: generation,
                        user_data: Vec::new(),
                    },
                    assignment: ConsumerAssignment {
                        partitions: assignment,
                        user_data: Vec::new(),
                    },
                }
            })
            .collect(),
        next_member_seq: 1,
    }
}

/// The member as the coordinator keeps it.
fn consumer_member(m: &ConsumerMemberSpec, assignment_epoch: i32) -> ConsumerMember {
    let mut cm = ConsumerMember::new(m.member_id.clone());
    cm.instance_id = m.instance_id.clone();
    cm.rack_id = m.rack_id.clone();
    cm.client_id = m.client_id.clone().unwrap_or_else(|| m.member_id.clone());
    cm.client_host = m.client_host.clone().unwrap_or_else(|| DEFAULT_HOST.into());
    cm.rebalance_timeout_ms = m.rebalance_timeout_ms.unwrap_or(DEFAULT_REBALANCE_TIMEOUT_MS);
    cm.subscribed_topic_names = m.subscribed_topic_names.clone();
    cm.subscribed_topic_regex = m.subscribed_topic_regex.clone().filter(|r| !r.is_empty());
    cm.server_assignor = m.server_assignor.clone();
    let epoch = m.member_epoch.unwrap_or(assignment_epoch);
    cm.current = CurrentAssignment {
        state: m.state.unwrap_or_default(),
        member_epoch: epoch,
        previous_member_epoch: m
            .previous_member_epoch
            .unwrap_or(if epoch > 0 { epoch - 1 } else { -1 }),
        assigned_partitions: to_partitions(&m.assigned),
        partitions_pending_revocation: to_partitions(&m.pending_revocation),
    };
    cm
}

fn consumer_records(group_id: &str, g: &ConsumerGroupSpec, topics: &Map<String, i32>) -> Vec<RecordBody> {
    let assignment_epoch = g.assignment_epoch.unwrap_or(g.group_epoch);
    let members: Vec<ConsumerMember> = g
        .members
        .iter()
        .map(|m| {
            let mut cm = consumer_member(m, assignment_epoch);
            cm.target = match &g.target_assignment {
                Some(t) => t.get(&m.member_id).map(to_partitions).unwrap_or_default(),
                None => cm.current.assigned_partitions.clone(),
            };
            cm
        })
        .collect();
    let mut cg = ConsumerGroup::new();
    for m in &members {
        cg.members.insert(m.id.clone(), m.clone());
    }
    let hash = cg.compute_metadata_hash(topics);
    let gid = || group_id.to_owned();
    let mut out = Vec::new();
    for m in &members {
        out.push(RecordBody::ConsumerGroupMemberMetadata {
            group_id: gid(),
            member_id: m.id.clone(),
            value: Some(m.metadata_value()),
        });
    }
    out.push(RecordBody::ConsumerGroupMetadata {
        group_id: gid(),
        value: Some(ConsumerGroupMetadataValue {
            epoch: g.group_epoch,
            metadata_hash: hash,
            next_member_seq: 1,
        }),
    });
    for m in &members {
        out.push(RecordBody::ConsumerGroupTargetAssignmentMember {
            group_id: gid(),
            member_id: m.id.clone(),
            partitions: Some(m.target.clone()),
        });
    }
    out.push(RecordBody::ConsumerGroupTargetAssignmentMetadata {
        group_id: gid(),
        assignment_epoch: Some(assignment_epoch),
        // Computed before time 0, when is not known: the first computation is not delayed.
        assignment_timestamp_ms: None,
    });
    for m in &members {
        out.push(RecordBody::ConsumerGroupCurrentMemberAssignment {
            group_id: gid(),
            member_id: m.id.clone(),
            value: Some(m.current_value()),
        });
    }
    out
}

// ---------------------------------------------------------------------------------- validation

fn path(base: &[Seg], more: &[&str]) -> Vec<Seg> {
    let mut p = base.to_vec();
    p.extend(more.iter().map(|k| key(k)));
    p
}

/// Partitions of `spec` that the topics at time 0 do not have.
fn check_exist(ps: &mut Vec<Problem>, at: &[Seg], spec: &PartitionsSpec, topics: &Map<String, i32>) {
    for (topic, parts) in spec {
        let here = [at.to_vec(), vec![key(topic)]].concat();
        match topics.get(topic) {
            None => ps.push(problem(
                here,
                format!("topic {topic:?} does not exist at time 0 (give it in `topics`)"),
            )),
            Some(n) => {
                for (i, p) in parts.iter().enumerate() {
                    if *p >= *n && *p >= 0 {
                        ps.push(problem(
                            [here.clone(), vec![Seg::Index(i)]].concat(),
                            format!("partition {topic}-{p} is out of range: {topic} has {n} partition(s) at time 0"),
                        ));
                    }
                }
            }
        }
    }
}

fn check_topic_names(ps: &mut Vec<Problem>, at: &[Seg], names: &[String]) {
    at_most(ps, at.to_vec(), names.len(), MAX_LIST_ENTRIES, "topics");
    for (i, t) in names.iter().enumerate() {
        let here = [at.to_vec(), vec![Seg::Index(i)]].concat();
        if t.is_empty() {
            ps.push(problem(here.clone(), "a topic name must not be empty"));
        }
        name_at_most(ps, here, t, MAX_TOPIC_NAME_CHARS);
    }
}

fn check_id(ps: &mut Vec<Problem>, at: Vec<Seg>, id: &str, what: &str, seen: &mut Set<String>) {
    if id.is_empty() {
        ps.push(problem(at.clone(), format!("{what} must not be empty")));
    }
    name_at_most(ps, at.clone(), id, MAX_NAME_CHARS);
    if !seen.insert(id.to_owned()) {
        ps.push(problem(at, format!("{what} {id:?} is given twice")));
    }
}

fn check_positive_ms(ps: &mut Vec<Problem>, at: Vec<Seg>, v: Option<i32>) {
    if let Some(v) = v {
        if v <= 0 {
            ps.push(problem(at, format!("{v} ms must be positive")));
        }
    }
}

fn check_offsets(ps: &mut Vec<Problem>, at: &[Seg], offsets: &[OffsetSpec], metadata_max: usize) {
    at_most(ps, at.to_vec(), offsets.len(), MAX_PRELOADED_OFFSETS, "offsets");
    let mut seen = Set::new();
    for (i, o) in offsets.iter().enumerate() {
        let at_i = [at.to_vec(), vec![Seg::Index(i)]].concat();
        if o.topic.is_empty() {
            ps.push(problem(path(&at_i, &["topic"]), "a topic name must not be empty"));
        }
        name_at_most(ps, path(&at_i, &["topic"]), &o.topic, MAX_TOPIC_NAME_CHARS);
        if o.partition < 0 {
            ps.push(problem(
                path(&at_i, &["partition"]),
                format!("partition {} is negative", o.partition),
            ));
        }
        if !(0..=MAX_INITIAL_RECORDS).contains(&o.offset) {
            ps.push(problem(
                path(&at_i, &["offset"]),
                format!("offset {} is out of range (0 to {MAX_INITIAL_RECORDS})", o.offset),
            ));
        }
        if let Some(e) = o.leader_epoch {
            if e < -1 {
                ps.push(problem(
                    path(&at_i, &["leader_epoch"]),
                    format!("{e} is below -1 (no epoch)"),
                ));
            }
        }
        if let Some(m) = &o.metadata {
            if m.len() > metadata_max {
                ps.push(problem(
                    path(&at_i, &["metadata"]),
                    format!(
                        "{} bytes is more than offset.metadata.max.bytes ({metadata_max})",
                        m.len()
                    ),
                ));
            }
        }
        if !seen.insert((o.topic.clone(), o.partition)) {
            ps.push(problem(
                at_i,
                format!("{}-{} has two committed offsets", o.topic, o.partition),
            ));
        }
    }
}

/// The problems of `preloaded_groups`.
pub(super) fn problems(s: &Scenario, ps: &mut Vec<Problem>) {
    if s.preloaded_groups.is_empty() {
        return;
    }
    let base = vec![key("preloaded_groups")];
    at_most(
        ps,
        base.clone(),
        s.preloaded_groups.len(),
        MAX_PRELOADED_GROUPS,
        "groups",
    );
    let cc = s.coordinator_config();
    let n = cc.offsets_topic_num_partitions.max(1);
    let home = partition_for(&s.group_id, n);
    let topics: Map<String, i32> = s.topics.iter().map(|t| (t.name.clone(), t.partitions)).collect();
    let mut ids = Set::new();
    for (gi, g) in s.preloaded_groups.iter().enumerate() {
        let at = [base.clone(), vec![Seg::Index(gi)]].concat();
        let id = g.group_id(s);
        check_id(ps, path(&at, &["group_id"]), id, "a group id", &mut ids);
        if !id.is_empty() && partition_for(id, n) != home {
            ps.push(problem(
                path(&at, &["group_id"]),
                format!(
                    "group {id:?} maps to __consumer_offsets partition {}, but only the partition of the scenario's \
                     group {:?} ({home}) is simulated",
                    partition_for(id, n),
                    s.group_id
                ),
            ));
        }
        check_offsets(
            ps,
            &path(&at, &["offsets"]),
            g.offsets(),
            cc.offset_metadata_max_bytes,
        );
        match g {
            PreloadedGroup::Classic(c) => classic_problems(ps, &at, c, &topics, &cc),
            PreloadedGroup::Consumer(c) => consumer_problems(ps, &at, c, &topics),
        }
    }
}

fn classic_problems(
    ps: &mut Vec<Problem>,
    at: &[Seg],
    g: &ClassicGroupSpec,
    topics: &Map<String, i32>,
    cc: &crate::coordinator::CoordinatorConfig,
) {
    at_most(
        ps,
        path(at, &["members"]),
        g.members.len(),
        MAX_CONSUMERS,
        "members",
    );
    let has_members = !g.members.is_empty();
    if let Some(gen) = g.generation {
        if !(0..=MAX_PRELOADED_EPOCH).contains(&gen) {
            ps.push(problem(
                path(at, &["generation"]),
                format!("generation {gen} is out of range (0 to {MAX_PRELOADED_EPOCH})"),
            ));
        } else if has_members && gen == 0 {
            ps.push(problem(
                path(at, &["generation"]),
                "a group with members has a generation of at least 1 (they joined one)",
            ));
        }
    }
    for (f, v) in [("protocol_type", &g.protocol_type), ("assignor", &g.assignor)] {
        if let Some(v) = v {
            if v.is_empty() {
                ps.push(problem(path(at, &[f]), "must not be empty"));
            }
            name_at_most(ps, path(at, &[f]), v, MAX_NAME_CHARS);
        }
    }
    if !has_members && g.assignor.is_some() {
        ps.push(problem(
            path(at, &["assignor"]),
            "an empty group has no selected protocol",
        ));
    }
    if let Some(l) = &g.leader {
        if !g.members.iter().any(|m| m.member_id == *l) {
            ps.push(problem(
                path(at, &["leader"]),
                format!("leader {l:?} is not one of the group's members"),
            ));
        }
    }
    let mut ids = Set::new();
    let mut instances = Set::new();
    let mut owners = Map::new();
    for (i, m) in g.members.iter().enumerate() {
        let at_m = [path(at, &["members"]), vec![Seg::Index(i)]].concat();
        check_id(
            ps,
            path(&at_m, &["member_id"]),
            &m.member_id,
            "a member id",
            &mut ids,
        );
        if let Some(inst) = &m.instance_id {
            check_id(
                ps,
                path(&at_m, &["instance_id"]),
                inst,
                "an instance id",
                &mut instances,
            );
        }
        for (f, v) in [("client_id", &m.client_id), ("client_host", &m.client_host)] {
            if let Some(v) = v {
                name_at_most(ps, path(&at_m, &[f]), v, MAX_NAME_CHARS);
            }
        }
        if let Some(st) = m.session_timeout_ms {
            let (lo, hi) = (cc.group_min_session_timeout_ms, cc.group_max_session_timeout_ms);
            if st < lo || st > hi {
                ps.push(problem(
                    path(&at_m, &["session_timeout_ms"]),
                    format!(
                        "session.timeout.ms {st} is outside the coordinator's [group.min.session.timeout.ms {lo}, \
                         group.max.session.timeout.ms {hi}]"
                    ),
                ));
            }
        }
        check_positive_ms(ps, path(&at_m, &["rebalance_timeout_ms"]), m.rebalance_timeout_ms);
        check_topic_names(ps, &path(&at_m, &["subscription"]), &m.subscription);
        let at_a = path(&at_m, &["assignment"]);
        check_partitions(ps, &at_a, &m.assignment, &m.member_id, &mut owners, "assigned to");
        check_exist(ps, &at_a, &m.assignment, topics);
    }
}

fn consumer_problems(ps: &mut Vec<Problem>, at: &[Seg], g: &ConsumerGroupSpec, topics: &Map<String, i32>) {
    at_most(
        ps,
        path(at, &["members"]),
        g.members.len(),
        MAX_CONSUMERS,
        "members",
    );
    if !(0..=MAX_PRELOADED_EPOCH).contains(&g.group_epoch) {
        ps.push(problem(
            path(at, &["group_epoch"]),
            format!(
                "group epoch {} is out of range (0 to {MAX_PRELOADED_EPOCH})",
                g.group_epoch
            ),
        ));
    }
    let assignment_epoch = g.assignment_epoch.unwrap_or(g.group_epoch);
    if let Some(a) = g.assignment_epoch {
        if a < 0 || a > g.group_epoch {
            ps.push(problem(
                path(at, &["assignment_epoch"]),
                format!(
                    "assignment epoch {a} is out of range: 0 to the group epoch {} (a target is computed at a \
                     group epoch)",
                    g.group_epoch
                ),
            ));
        }
    }
    let mut ids = Set::new();
    let mut instances = Set::new();
    let mut owners = Map::new();
    for (i, m) in g.members.iter().enumerate() {
        let at_m = [path(at, &["members"]), vec![Seg::Index(i)]].concat();
        check_id(
            ps,
            path(&at_m, &["member_id"]),
            &m.member_id,
            "a member id",
            &mut ids,
        );
        if let Some(inst) = &m.instance_id {
            check_id(
                ps,
                path(&at_m, &["instance_id"]),
                inst,
                "an instance id",
                &mut instances,
            );
        }
        for (f, v) in [
            ("client_id", &m.client_id),
            ("client_host", &m.client_host),
            ("rack_id", &m.rack_id),
        ] {
            if let Some(v) = v {
                name_at_most(ps, path(&at_m, &[f]), v, MAX_NAME_CHARS);
            }
        }
        check_positive_ms(ps, path(&at_m, &["rebalance_timeout_ms"]), m.rebalance_timeout_ms);
        check_topic_names(
            ps,
            &path(&at_m, &["subscribed_topic_names"]),
            &m.subscribed_topic_names,
        );
        if let Some(r) = m.subscribed_topic_regex.as_deref().filter(|r| !r.is_empty()) {
            name_at_most(ps, path(&at_m, &["subscribed_topic_regex"]), r, MAX_NAME_CHARS);
            if let Err(e) = Pattern::new(r) {
                ps.push(problem(
                    path(&at_m, &["subscribed_topic_regex"]),
                    format!("`{r}` is not a valid regular expression: {e}"),
                ));
            }
        }
        if let Some(a) = &m.server_assignor {
            if let Err(e) = a.parse::<ServerAssignor>() {
                ps.push(problem(path(&at_m, &["server_assignor"]), e.to_string()));
            }
        }
        let epoch = m.member_epoch.unwrap_or(assignment_epoch);
        if epoch == -2 {
            if m.instance_id.is_none() {
                ps.push(problem(
                    path(&at_m, &["member_epoch"]),
                    "epoch -2 (left temporarily) is for static members: give an instance_id",
                ));
            }
        } else if epoch < 0 || epoch > assignment_epoch {
            ps.push(problem(
                path(&at_m, &["member_epoch"]),
                format!(
                    "member epoch {epoch} is out of range: 0 to the assignment epoch {assignment_epoch}, or -2 \
                     (a member converges to the target, never past it)"
                ),
            ));
        }
        if let Some(p) = m.previous_member_epoch {
            if p < -2 || (epoch >= 0 && p > epoch) {
                ps.push(problem(
                    path(&at_m, &["previous_member_epoch"]),
                    format!("previous member epoch {p} is out of range (-2 to the member epoch {epoch})"),
                ));
            }
        }
        let state = m.state.unwrap_or_default();
        let revoking = state == MemberState::UnrevokedPartitions;
        let pending = m.pending_revocation.values().any(|v| !v.is_empty());
        if revoking && !pending {
            ps.push(problem(
                path(&at_m, &["pending_revocation"]),
                "a member in UNREVOKED_PARTITIONS has partitions pending revocation",
            ));
        } else if !revoking && pending {
            ps.push(problem(
                path(&at_m, &["pending_revocation"]),
                format!("only a member in UNREVOKED_PARTITIONS has partitions pending revocation, not one in {state}"),
            ));
        }
        // Assigned and pending partitions are owned: one owner each (the partition epochs).
        for f in ["assigned", "pending_revocation"] {
            let spec = if f == "assigned" {
                &m.assigned
            } else {
                &m.pending_revocation
            };
            let at_a = path(&at_m, &[f]);
            check_partitions(ps, &at_a, spec, &m.member_id, &mut owners, "owned by");
            check_exist(ps, &at_a, spec, topics);
        }
        for (t, parts) in &m.pending_revocation {
            if let Some(a) = m.assigned.get(t) {
                if let Some(p) = parts.iter().find(|p| a.contains(p)) {
                    ps.push(problem(
                        path(&at_m, &["pending_revocation", t]),
                        format!("partition {t}-{p} is both assigned and pending revocation"),
                    ));
                }
            }
        }
    }
    if let Some(targets) = &g.target_assignment {
        let at_t = path(at, &["target_assignment"]);
        let mut owners = Map::new();
        for (member, spec) in targets {
            let at_m = [at_t.clone(), vec![key(member)]].concat();
            if !ids.contains(member) {
                ps.push(problem(
                    at_m.clone(),
                    format!("{member:?} is not one of the group's members"),
                ));
            }
            check_partitions(ps, &at_m, spec, member, &mut owners, "in the target of");
            check_exist(ps, &at_m, spec, topics);
        }
    }
}
