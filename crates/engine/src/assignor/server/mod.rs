//! Kafka's **server-side** assignors of the consumer protocol (KIP-848), as pure functions: the
//! group coordinator runs one of them to compute every member's *target* assignment (reference §7).
//!
//! | [`ServerAssignor`] | Kafka class (`group-coordinator`, 4.1) | priorities |
//! |--------------------|----------------------------------------|------------|
//! | `uniform` (default)| `UniformAssignor` → `UniformHomogeneousAssignmentBuilder` or `UniformHeterogeneousAssignmentBuilder` | balance, then stickiness |
//! | `range`            | `RangeAssignor` (rewritten in 3.9, KAFKA-16944)                   | co-partitioning; no stickiness |
//!
//! The stickiness baseline is each member's **previous target** ([`MemberSpec::target`]), not what
//! it currently owns (`TargetAssignmentBuilder`, reference §7.2).
//!
//! # Determinism
//!
//! Kafka's uniform assignor iterates `HashMap`/`HashSet`s of member ids and topic UUIDs, so its exact
//! output depends on Java hash order (reference §7.3). This module replaces every such iteration by a
//! documented order, so that the result is the same on every platform, still balanced and sticky:
//!
//! * members: Java `String.compareTo` order of member ids (Kafka's own tests use a `TreeMap`, so they
//!   see the same order);
//! * topics: Java order of topic names, where Kafka iterates topic ids (its "topic id ascending"
//!   tie-break in the heterogeneous builder becomes "name ascending");
//! * a topic's partitions in a previous target: ascending (Java's `HashSet<Integer>` iterates small
//!   integers ascending too).
//!
//! Where the topic order decides which member gets which free partitions, results may differ from a
//! given Kafka run's; counts per member never do. `range` is deterministic in Kafka already
//! (members sorted static first by instance id, then by member id).
//!
//! # Input that Kafka's coordinator never produces
//!
//! Subscribed topics without metadata (or without partitions) are skipped: Kafka resolves names
//! against its metadata image before the assignor runs. Previous-target partitions of unknown topics or
//! out of range are ignored; a partition claimed by two members stays with the first in member order.
//!
//! ```
//! use rebalance_engine::collections::Map;
//! use rebalance_engine::assignor::server::{assign, MemberSpec, ServerAssignor};
//!
//! let partitions = Map::from([("orders".to_string(), 4)]);
//! // a owned everything; b joins. Uniform moves only what balance requires.
//! let members = [
//!     MemberSpec::new("a", ["orders"]).with_target("orders", [0, 1, 2, 3]),
//!     MemberSpec::new("b", ["orders"]),
//! ];
//! let target = assign(ServerAssignor::Uniform, &partitions, &members);
//! assert_eq!(target["a"]["orders"], [0, 1].into());
//! assert_eq!(target["b"]["orders"], [2, 3].into());
//! ```

mod heterogeneous;
mod homogeneous;
mod range;

use crate::collections::Map;
use crate::collections::Set;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::java::string_compare;
use crate::sort::{sort, sort_by};

pub use crate::coordinator::consumer::Partitions;

/// Every member's target assignment: member id → topic → partitions. Every member of the input is
/// present, with an empty map if it gets nothing.
pub type GroupAssignment = Map<String, Partitions>;

/// One of Kafka's built-in server-side assignors, named as in `group.consumer.assignors` and the
/// heartbeat's `ServerAssignor`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ServerAssignor {
    /// `UniformAssignor`: balanced (sizes differ by at most one where subscriptions allow), then
    /// sticky. Kafka's default (first in `group.consumer.assignors`).
    Uniform,
    /// `RangeAssignor`: per topic, contiguous ranges to the members in order; co-partitioned when all
    /// members subscribe to the same topics of equal size.
    Range,
}

impl ServerAssignor {
    /// The built-in assignors, in the order of the default `group.consumer.assignors`.
    pub const ALL: [ServerAssignor; 2] = [Self::Uniform, Self::Range];

    /// The assignor's name (`ConsumerGroupPartitionAssignor.name()`).
    pub const fn name(self) -> &'static str {
        match self {
            Self::Uniform => "uniform",
            Self::Range => "range",
        }
    }
}

impl fmt::Display for ServerAssignor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A `ServerAssignor` the coordinator does not have; the heartbeat answers `UNSUPPORTED_ASSIGNOR`
/// with this message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnsupportedAssignor(pub String);

impl fmt::Display for UnsupportedAssignor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // GroupCoordinatorService.throwIfConsumerGroupHeartbeatRequestIsInvalid.
        write!(
            f,
            "ServerAssignor {} is not supported. Supported assignors: uniform, range.",
            self.0
        )
    }
}

impl std::error::Error for UnsupportedAssignor {}

impl FromStr for ServerAssignor {
    type Err = UnsupportedAssignor;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|a| a.name() == s)
            .ok_or_else(|| UnsupportedAssignor(s.to_string()))
    }
}

/// What the coordinator knows of one member when it computes a target (Kafka:
/// `MemberSubscriptionAndAssignmentImpl`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberSpec {
    /// The member id.
    pub member_id: String,
    /// `group.instance.id` of a static member; `range` orders static members first by it.
    #[serde(default)]
    pub instance_id: Option<String>,
    /// The subscribed topic names (resolved regex included). Order and repeats do not matter.
    pub subscribed_topics: Vec<String>,
    /// The member's previous target assignment, the baseline for stickiness.
    #[serde(default)]
    pub target: Partitions,
}

impl MemberSpec {
    /// A dynamic member subscribed to `topics` with no previous target.
    pub fn new<I, T>(member_id: impl Into<String>, topics: I) -> Self
    where
        I: IntoIterator<Item = T>,
        T: Into<String>,
    {
        Self {
            member_id: member_id.into(),
            subscribed_topics: topics.into_iter().map(Into::into).collect(),
            ..Self::default()
        }
    }

    /// The same member as a static member.
    pub fn with_instance_id(mut self, instance_id: impl Into<String>) -> Self {
        self.instance_id = Some(instance_id.into());
        self
    }

    /// The same member with `partitions` of `topic` in its previous target (added to earlier ones).
    pub fn with_target(
        mut self,
        topic: impl Into<String>,
        partitions: impl IntoIterator<Item = i32>,
    ) -> Self {
        self.target.entry(topic.into()).or_default().extend(partitions);
        self
    }
}

/// Whether every member subscribes to the same topics (Kafka: `SubscriptionType`, computed by the
/// coordinator from the subscribed *names*, known to the metadata or not).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum SubscriptionType {
    /// Every member subscribes to exactly the same topic names.
    Homogeneous,
    /// Some member subscribes differently.
    Heterogeneous,
}

/// The subscription type of `members` (Kafka: `ModernGroup.subscriptionType`: homogeneous iff every
/// subscribed name has as many subscribers as there are members). Repeated member ids count once.
pub fn subscription_type(members: &[MemberSpec]) -> SubscriptionType {
    let mut seen = Set::new();
    let mut sets = members
        .iter()
        .filter(|m| seen.insert(m.member_id.as_str()))
        .map(|m| Set::from_iter(m.subscribed_topics.iter().map(String::as_str)));
    match sets.next() {
        Some(first) if sets.any(|s| s != first) => SubscriptionType::Heterogeneous,
        _ => SubscriptionType::Homogeneous,
    }
}

/// Runs `assignor` for a group: every member's new target assignment.
///
/// `partitions_per_topic` is the metadata: topic → partition count. Member ids should be unique;
/// a repeated one keeps its first entry.
pub fn assign(
    assignor: ServerAssignor,
    partitions_per_topic: &Map<String, i32>,
    members: &[MemberSpec],
) -> GroupAssignment {
    let spec = Spec::new(partitions_per_topic, members);
    let owners = match assignor {
        ServerAssignor::Range => range::assign(&spec),
        ServerAssignor::Uniform if spec.members.is_empty() => Vec::new(),
        ServerAssignor::Uniform => match subscription_type(members) {
            SubscriptionType::Homogeneous => homogeneous::assign(&spec),
            SubscriptionType::Heterogeneous => heterogeneous::assign(&spec),
        },
    };
    spec.to_assignment(&owners)
}

/// The normalised input of the assignors.
///
/// Members are indexed in Java order of member ids, topics in Java order of names (only topics with
/// partitions and at least one subscriber); a partition is `(topic index, partition number)`.
pub(super) struct Spec<'a> {
    pub(super) members: Vec<&'a MemberSpec>,
    /// Topic names and partition counts.
    pub(super) topics: Vec<(&'a str, u32)>,
    /// Per member: its subscribed topics, ascending indices.
    pub(super) subscriptions: Vec<Vec<u32>>,
    /// Per member: its previous target as `(topic, ascending partitions)`, topics ascending; only
    /// partitions that exist, each claimed by one member at most.
    pub(super) previous: Vec<Vec<(u32, Vec<u32>)>>,
    /// Per topic: its subscribers, ascending member indices.
    pub(super) subscribers: Vec<Vec<u32>>,
}

/// Per topic, per partition: the owning member's index, or -1.
pub(super) type Owners = Vec<Vec<i64>>;

impl<'a> Spec<'a> {
    fn new(partitions_per_topic: &'a Map<String, i32>, all_members: &'a [MemberSpec]) -> Self {
        let mut seen = Set::new();
        let mut members: Vec<&MemberSpec> = all_members
            .iter()
            .filter(|m| seen.insert(m.member_id.as_str()))
            .collect();
        sort_by(&mut members, |a, b| string_compare(&a.member_id, &b.member_id));

        let mut names: Vec<&str> = members
            .iter()
            .flat_map(|m| m.subscribed_topics.iter())
            .filter(|t| partitions_per_topic.get(*t).is_some_and(|&n| n > 0))
            .map(String::as_str)
            .collect();
        sort_by(&mut names, |a, b| string_compare(a, b));
        names.dedup();
        let topics: Vec<(&str, u32)> = names
            .iter()
            .map(|&name| (name, partitions_per_topic[name] as u32))
            .collect();
        let index_of = |name: &str| -> Option<u32> {
            names
                .binary_search_by(|t| string_compare(t, name))
                .ok()
                .map(|i| i as u32)
        };

        let mut subscribers = vec![Vec::new(); topics.len()];
        let subscriptions: Vec<Vec<u32>> = members
            .iter()
            .enumerate()
            .map(|(m, spec)| {
                let mut ids: Vec<u32> = spec
                    .subscribed_topics
                    .iter()
                    .filter_map(|t| index_of(t))
                    .collect();
                sort(&mut ids);
                ids.dedup();
                for &t in &ids {
                    subscribers[t as usize].push(m as u32);
                }
                ids
            })
            .collect();

        // Previous targets: existing partitions only; the first member (in member order) to claim a
        // partition keeps it.
        let mut claimed: Vec<Set<u32>> = vec![Set::new(); topics.len()];
        let previous = members
            .iter()
            .map(|spec| {
                let mut per_topic: Vec<(u32, Vec<u32>)> = Vec::new();
                for (name, partitions) in &spec.target {
                    let Some(t) = index_of(name) else { continue };
                    let count = topics[t as usize].1;
                    let kept: Vec<u32> = partitions
                        .iter()
                        .filter_map(|&p| u32::try_from(p).ok())
                        .filter(|&p| p < count && claimed[t as usize].insert(p))
                        .collect();
                    if !kept.is_empty() {
                        per_topic.push((t, kept));
                    }
                }
                sort_by(&mut per_topic, |a, b| a.0.cmp(&b.0));
                per_topic
            })
            .collect();

        Self {
            members,
            topics,
            subscriptions,
            previous,
            subscribers,
        }
    }

    /// Every partition unowned.
    pub(super) fn no_owners(&self) -> Owners {
        self.topics.iter().map(|&(_, n)| vec![-1; n as usize]).collect()
    }

    fn to_assignment(&self, owners: &Owners) -> GroupAssignment {
        let mut assignment: GroupAssignment = Map::from_iter(
            self.members
                .iter()
                .map(|m| (m.member_id.clone(), Partitions::new())),
        );
        for (t, partitions) in owners.iter().enumerate() {
            let name = self.topics[t].0;
            for (p, &owner) in partitions.iter().enumerate() {
                if owner >= 0 {
                    let member = &self.members[owner as usize].member_id;
                    assignment
                        .get_mut(member)
                        .expect("every member is present")
                        .entry(name.to_string())
                        .or_default()
                        .insert(p as i32);
                }
            }
        }
        assignment
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assignor_names_are_kafkas() {
        for a in ServerAssignor::ALL {
            assert_eq!(a.name().parse::<ServerAssignor>(), Ok(a));
        }
        let err = "sticky".parse::<ServerAssignor>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "ServerAssignor sticky is not supported. Supported assignors: uniform, range."
        );
    }

    #[test]
    fn subscription_type_compares_name_sets() {
        let a = MemberSpec::new("a", ["x", "y"]);
        let b = MemberSpec::new("b", ["y", "x", "x"]);
        let c = MemberSpec::new("c", ["x", "missing"]);
        assert_eq!(
            subscription_type(&[a.clone(), b.clone()]),
            SubscriptionType::Homogeneous
        );
        assert_eq!(subscription_type(&[a, b, c]), SubscriptionType::Heterogeneous);
        assert_eq!(subscription_type(&[]), SubscriptionType::Homogeneous);
    }
}
