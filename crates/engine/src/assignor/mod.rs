//! Kafka's client-side partition assignors, as pure functions.
//!
//! In the classic protocol the coordinator does not assign partitions: the group leader runs an
//! assignor over every member's subscription and sends the result back in its SyncGroup request.
//! This module reproduces the four assignors that ship with Kafka's Java client:
//!
//! | [`Strategy`]        | Kafka class                 | protocols          |
//! |---------------------|-----------------------------|--------------------|
//! | `range`             | `RangeAssignor`             | eager              |
//! | `roundrobin`        | `RoundRobinAssignor`        | eager              |
//! | `sticky`            | `StickyAssignor`            | eager              |
//! | `cooperative-sticky`| `CooperativeStickyAssignor` | cooperative, eager |
//!
//! [`assign`] is deterministic: the same input gives the same output, byte for byte, on every
//! platform. Where Kafka's result depends on `HashMap` iteration order (which sticky member gets one
//! of the `maxQuota` slots, which of several equal candidates moves), this module picks the
//! candidate that comes first in Java `String.compareTo` order of member ids and documents it.
//! Rack awareness is not modelled: the playground has no racks.
//!
//! The consumer protocol's (KIP-848) assignors run in the coordinator instead; they are in
//! [`server`].
//!
//! ```
//! use rebalance_engine::collections::Map;
//! use rebalance_engine::assignor::{assign, MemberSubscription, Strategy};
//!
//! let partitions = Map::from([("orders".to_string(), 3)]);
//! let members = [
//!     MemberSubscription::new("c-1", ["orders"]),
//!     MemberSubscription::new("c-2", ["orders"]),
//! ];
//! let assignment = assign(Strategy::Range, &partitions, &members);
//! assert_eq!(assignment["c-1"]["orders"], [0, 1]);
//! assert_eq!(assignment["c-2"]["orders"], [2]);
//! ```

mod range;
mod round_robin;
pub mod server;
mod sticky;

use crate::collections::Map;
use crate::collections::Set;
use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::java::string_compare;
use crate::sort::{sort, sort_by};

/// The result of an assignor: member id → topic → partitions, ascending.
///
/// Every member of the input is present, with an empty map if it got nothing; a topic appears under
/// a member only if that member got at least one of its partitions.
pub type Assignment = Map<String, Map<String, Vec<i32>>>;

/// One of Kafka's four built-in client-side assignors, named as in `partition.assignment.strategy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Strategy {
    /// `RangeAssignor`: per topic, contiguous ranges to the members sorted by id.
    #[serde(rename = "range")]
    Range,
    /// `RoundRobinAssignor`: all partitions dealt one by one around the sorted members.
    #[serde(rename = "roundrobin")]
    RoundRobin,
    /// `StickyAssignor`: balanced, then as few moves as possible; eager protocol.
    #[serde(rename = "sticky")]
    Sticky,
    /// `CooperativeStickyAssignor`: the sticky result minus partitions that change owner (KIP-429).
    #[serde(rename = "cooperative-sticky")]
    CooperativeSticky,
}

/// A rebalance protocol a client can follow (`ConsumerPartitionAssignor.RebalanceProtocol`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RebalanceProtocol {
    /// Revoke everything before joining: a stop-the-world rebalance.
    Eager,
    /// Keep what you own, revoke only what moves, then rebalance again (KIP-429).
    Cooperative,
}

impl Strategy {
    /// All four strategies, in the order Kafka's documentation lists them.
    pub const ALL: [Strategy; 4] = [
        Self::Range,
        Self::RoundRobin,
        Self::Sticky,
        Self::CooperativeSticky,
    ];

    /// The assignor's name, as sent in JoinGroup's protocol list (`ConsumerPartitionAssignor.name()`).
    pub const fn name(self) -> &'static str {
        match self {
            Self::Range => "range",
            Self::RoundRobin => "roundrobin",
            Self::Sticky => "sticky",
            Self::CooperativeSticky => "cooperative-sticky",
        }
    }

    /// The protocols the assignor supports (`supportedProtocols()`), preferred first.
    ///
    /// A client follows the highest protocol that *all* its configured assignors support (§8.3), so
    /// only a client configured with nothing but `cooperative-sticky` rebalances cooperatively.
    pub const fn supported_protocols(self) -> &'static [RebalanceProtocol] {
        match self {
            Self::CooperativeSticky => &[RebalanceProtocol::Cooperative, RebalanceProtocol::Eager],
            Self::Range | Self::RoundRobin | Self::Sticky => &[RebalanceProtocol::Eager],
        }
    }

    /// Whether the assignor supports the cooperative protocol (only `cooperative-sticky` does).
    pub const fn supports_cooperative(self) -> bool {
        matches!(self, Self::CooperativeSticky)
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error of parsing a [`Strategy`] from a name Kafka does not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownStrategy(pub String);

impl fmt::Display for UnknownStrategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown assignor `{}` (expected range, roundrobin, sticky or cooperative-sticky)",
            self.0
        )
    }
}

impl std::error::Error for UnknownStrategy {}

impl FromStr for Strategy {
    type Err = UnknownStrategy;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|strategy| strategy.name() == s)
            .ok_or_else(|| UnknownStrategy(s.to_string()))
    }
}

/// What one member tells the leader in its JoinGroup protocol metadata (`ConsumerProtocolSubscription`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MemberSubscription {
    /// The member id the coordinator gave it.
    pub member_id: String,
    /// `group.instance.id` of a static member (KIP-345); static members sort first.
    #[serde(default)]
    pub group_instance_id: Option<String>,
    /// The subscribed topics. Order and repeats do not matter.
    pub topics: Vec<String>,
    /// Partitions the member owned before this rebalance (subscription v1+), used by the sticky
    /// assignors only. Partitions of unknown topics or out of range are ignored.
    #[serde(default)]
    pub owned_partitions: Map<String, Vec<i32>>,
    /// The generation those partitions were owned in (subscription v2+), or `None` for Kafka's
    /// `DEFAULT_GENERATION` (-1). Used by the sticky assignors to settle conflicting claims.
    #[serde(default)]
    pub generation: Option<i32>,
}

impl MemberSubscription {
    /// A dynamic member that owns nothing, subscribed to `topics`.
    pub fn new<I, T>(member_id: impl Into<String>, topics: I) -> Self
    where
        I: IntoIterator<Item = T>,
        T: Into<String>,
    {
        Self {
            member_id: member_id.into(),
            topics: topics.into_iter().map(Into::into).collect(),
            ..Self::default()
        }
    }

    /// The same member as a static member with `group.instance.id` = `instance_id`.
    pub fn with_instance_id(mut self, instance_id: impl Into<String>) -> Self {
        self.group_instance_id = Some(instance_id.into());
        self
    }

    /// The same member claiming `partitions` of `topic` as owned (added to earlier claims).
    pub fn owning(mut self, topic: impl Into<String>, partitions: impl IntoIterator<Item = i32>) -> Self {
        self.owned_partitions
            .entry(topic.into())
            .or_default()
            .extend(partitions);
        self
    }

    /// The same member with the generation its owned partitions date from.
    pub fn in_generation(mut self, generation: i32) -> Self {
        self.generation = Some(generation);
        self
    }
}

/// Runs `strategy` for a group.
///
/// `partitions_per_topic` is the leader's metadata: topic → partition count. Subscribed topics
/// missing from it (or with no partitions) are skipped, as in Kafka's `AbstractPartitionAssignor`.
/// Member ids should be unique; if one repeats, its first entry is used and the others are ignored.
pub fn assign(
    strategy: Strategy,
    partitions_per_topic: &Map<String, i32>,
    members: &[MemberSubscription],
) -> Assignment {
    let group = Group::new(partitions_per_topic, members);
    let per_member = match strategy {
        Strategy::Range => range::assign(&group),
        Strategy::RoundRobin => round_robin::assign(&group),
        Strategy::Sticky => sticky::assign(&group, false),
        Strategy::CooperativeSticky => sticky::assign(&group, true),
    };
    group.to_assignment(per_member)
}

/// Kafka's `MemberInfo.compareTo`, the member order of range and roundrobin: static members first,
/// by `group.instance.id`; then dynamic members by member id; all in Java `String.compareTo` order.
///
/// Kafka leaves two static members with the same instance id (which the coordinator never allows)
/// in map order; they are ordered by member id here so the result stays deterministic.
pub fn compare_members(a: &MemberSubscription, b: &MemberSubscription) -> Ordering {
    match (&a.group_instance_id, &b.group_instance_id) {
        (Some(x), Some(y)) => string_compare(x, y).then_with(|| string_compare(&a.member_id, &b.member_id)),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => string_compare(&a.member_id, &b.member_id),
    }
}

/// A topic that has metadata, at least one partition and at least one subscriber.
struct Topic<'a> {
    name: &'a str,
    /// Partition count.
    partitions: u32,
    /// Index of partition 0 in the group's flat partition numbering.
    first: u32,
    /// Subscribed members, ascending by index.
    subscribers: Vec<u32>,
}

/// The normalised input shared by all assignors.
///
/// Members are indexed in Java order of member ids (the order Kafka's sticky assignor sorts by);
/// topics in Java order of names (Kafka's `TreeSet<String>`). Partitions are numbered flatly, topic
/// after topic, so ascending partition index is ascending (topic, partition) in Java order.
struct Group<'a> {
    members: Vec<&'a MemberSubscription>,
    /// Per member: the indices of its subscribed topics that exist, ascending.
    member_topics: Vec<Vec<u32>>,
    topics: Vec<Topic<'a>>,
    /// Per flat partition index: its topic.
    partition_topic: Vec<u32>,
}

impl<'a> Group<'a> {
    fn new(partitions_per_topic: &'a Map<String, i32>, all_members: &'a [MemberSubscription]) -> Self {
        let mut seen = Set::new();
        let mut members: Vec<&MemberSubscription> = all_members
            .iter()
            .filter(|m| seen.insert(m.member_id.as_str()))
            .collect();
        sort_by(&mut members, |a, b| string_compare(&a.member_id, &b.member_id));

        let mut names: Vec<&str> = members
            .iter()
            .flat_map(|m| m.topics.iter())
            .filter(|t| partitions_per_topic.get(*t).is_some_and(|&n| n > 0))
            .map(String::as_str)
            .collect();
        sort_by(&mut names, |a, b| string_compare(a, b));
        names.dedup();

        let mut topics = Vec::with_capacity(names.len());
        let mut partition_topic = Vec::new();
        for (index, name) in names.iter().enumerate() {
            let partitions = partitions_per_topic[*name] as u32;
            topics.push(Topic {
                name,
                partitions,
                first: partition_topic.len() as u32,
                subscribers: Vec::new(),
            });
            partition_topic.extend(std::iter::repeat_n(index as u32, partitions as usize));
        }
        let member_topics: Vec<Vec<u32>> = members
            .iter()
            .map(|m| {
                let mut ids: Vec<u32> = m
                    .topics
                    .iter()
                    .filter_map(|t| group_topic_index(&names, t))
                    .collect();
                sort(&mut ids);
                ids.dedup();
                ids
            })
            .collect();
        for (member, ids) in member_topics.iter().enumerate() {
            for &t in ids {
                topics[t as usize].subscribers.push(member as u32);
            }
        }
        Self {
            members,
            member_topics,
            topics,
            partition_topic,
        }
    }

    fn topic_index(&self, name: &str) -> Option<u32> {
        self.topics
            .binary_search_by(|t| string_compare(t.name, name))
            .ok()
            .map(|i| i as u32)
    }

    fn partition_count(&self) -> usize {
        self.partition_topic.len()
    }

    fn is_subscribed(&self, member: u32, topic: u32) -> bool {
        self.member_topics[member as usize].binary_search(&topic).is_ok()
    }

    /// The flat index of `partition` of topic `name`, if it exists.
    fn partition_index(&self, name: &str, partition: i32) -> Option<u32> {
        let topic = &self.topics[self.topic_index(name)? as usize];
        u32::try_from(partition)
            .ok()
            .filter(|&p| p < topic.partitions)
            .map(|p| topic.first + p)
    }

    /// Builds the public result from per-member lists of flat partition indices.
    fn to_assignment(&self, per_member: Vec<Vec<u32>>) -> Assignment {
        let mut assignment = Assignment::new();
        for (member, mut partitions) in self.members.iter().zip(per_member) {
            sort(&mut partitions);
            let topics = assignment.entry(member.member_id.clone()).or_default();
            for p in partitions {
                let topic = &self.topics[self.partition_topic[p as usize] as usize];
                let number = (p - topic.first) as i32;
                topics.entry(topic.name.to_string()).or_default().push(number);
            }
        }
        assignment
    }
}

fn group_topic_index(sorted_names: &[&str], name: &str) -> Option<u32> {
    sorted_names
        .binary_search_by(|t| string_compare(t, name))
        .ok()
        .map(|i| i as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strategy_names_round_trip() {
        for strategy in Strategy::ALL {
            assert_eq!(strategy.to_string().parse::<Strategy>(), Ok(strategy));
            let json = serde_json_like(strategy);
            assert_eq!(json, strategy.name());
        }
        assert_eq!(
            "Range".parse::<Strategy>(),
            Err(UnknownStrategy("Range".to_string())),
            "names are case-sensitive, as Kafka's config lookup is"
        );
    }

    /// Serde's view of the name, without pulling serde_json into the engine.
    fn serde_json_like(strategy: Strategy) -> String {
        use serde::de::value::{Error, StrDeserializer};
        use serde::de::IntoDeserializer;
        let de: StrDeserializer<'_, Error> = strategy.name().into_deserializer();
        assert_eq!(Strategy::deserialize(de), Ok(strategy));
        strategy.name().to_string()
    }

    #[test]
    fn only_cooperative_sticky_supports_cooperative() {
        // ConsumerPartitionAssignor.supportedProtocols(): EAGER by default,
        // CooperativeStickyAssignor overrides it with [COOPERATIVE, EAGER].
        for strategy in Strategy::ALL {
            let cooperative = strategy == Strategy::CooperativeSticky;
            assert_eq!(strategy.supports_cooperative(), cooperative);
            assert_eq!(
                strategy
                    .supported_protocols()
                    .contains(&RebalanceProtocol::Cooperative),
                cooperative
            );
            assert!(strategy.supported_protocols().contains(&RebalanceProtocol::Eager));
        }
    }

    #[test]
    fn member_order_is_static_first_then_java_string_order() {
        // AbstractPartitionAssignor.MemberInfo.compareTo.
        let dynamic_a = MemberSubscription::new("aaa", ["t"]);
        let static_z = MemberSubscription::new("zzz", ["t"]).with_instance_id("inst-1");
        let static_b = MemberSubscription::new("bbb", ["t"]).with_instance_id("inst-2");
        assert_eq!(compare_members(&static_z, &dynamic_a), Ordering::Less);
        assert_eq!(compare_members(&dynamic_a, &static_z), Ordering::Greater);
        assert_eq!(compare_members(&static_z, &static_b), Ordering::Less);
        let ten = MemberSubscription::new("consumer-10-x", ["t"]);
        let two = MemberSubscription::new("consumer-2-y", ["t"]);
        assert_eq!(compare_members(&ten, &two), Ordering::Less);
    }

    #[test]
    fn every_member_is_present_and_unknown_topics_are_skipped() {
        let partitions = Map::from([("t".to_string(), 2), ("empty".to_string(), 0)]);
        let members = [
            MemberSubscription::new("a", ["t", "missing", "empty"]),
            MemberSubscription::new("b", ["missing"]),
        ];
        for strategy in Strategy::ALL {
            let assignment = assign(strategy, &partitions, &members);
            assert_eq!(assignment.len(), 2, "{strategy}");
            assert_eq!(
                assignment["a"],
                Map::from([("t".to_string(), vec![0, 1])]),
                "{strategy}"
            );
            assert!(assignment["b"].is_empty(), "{strategy}");
        }
    }

    #[test]
    fn a_repeated_member_id_uses_the_first_entry() {
        let partitions = Map::from([("t".to_string(), 2), ("u".to_string(), 1)]);
        let members = [
            MemberSubscription::new("a", ["t"]),
            MemberSubscription::new("a", ["u"]),
        ];
        for strategy in Strategy::ALL {
            let assignment = assign(strategy, &partitions, &members);
            assert_eq!(assignment.len(), 1);
            assert_eq!(
                assignment["a"],
                Map::from([("t".to_string(), vec![0, 1])]),
                "{strategy}"
            );
        }
    }

    #[test]
    fn no_members_no_assignment() {
        let partitions = Map::from([("t".to_string(), 2)]);
        for strategy in Strategy::ALL {
            assert!(assign(strategy, &partitions, &[]).is_empty());
        }
    }
}
