//! `StickyAssignor` (`"sticky"`) and `CooperativeStickyAssignor` (`"cooperative-sticky"`), after
//! Kafka's `AbstractStickyAssignor`.
//!
//! Goals, in order: the assignment is **balanced** (member counts differ by at most one, or no
//! member with two fewer partitions than another could legally take one of its partitions), then
//! **sticky** (as many owned partitions as possible stay where they are).
//!
//! Like Kafka there are two builders:
//! * [`constrained`]: every member has the same subscription (`ConstrainedAssignmentBuilder`).
//!   Members keep owned partitions up to a quota, and the rest are dealt round-robin.
//! * [`General`]: subscriptions differ (`GeneralAssignmentBuilder`). Owned partitions stay, new ones
//!   go to the least-loaded subscriber, then partitions move until no move can improve balance.
//!
//! Owned partitions come with the generation they date from. When several members claim one
//! partition, the claim from the highest generation wins; two claims from the same (highest)
//! generation cancel out and the partition is treated as unowned (KAFKA-12984, KAFKA-14639). Both
//! builders start from the same resolved ownership (Kafka's `allSubscriptionsEqual` fills
//! `consumerToOwnedPartitions` for both), so a claim from an older generation that nobody contests
//! is still owned. In the general builder, claims older than the group's highest generation are
//! *also* kept as hints of which member a partition should return to when it has to move
//! (`prepopulateCurrentAssignments` / `prevAssignment`).
//!
//! The project's reference says that in the general builder only highest-generation claims own
//! anything. Kafka's source (4.0) passes the generation-resolved owned partitions to the general
//! builder too, and Kafka's source wins.
//!
//! The cooperative variant runs the same algorithm, then withholds every partition that would
//! change owner: it is revoked in this rebalance and assigned in the next one (KIP-429).

use crate::collections::Map;
use crate::collections::Set;
use std::collections::VecDeque;

use super::Group;
use crate::sort::{sort, sort_by_key};

/// Kafka's `AbstractStickyAssignor.DEFAULT_GENERATION`, the generation of a member that sends none.
const DEFAULT_GENERATION: i32 = -1;

/// No member: a placeholder in per-partition tables.
const NONE: u32 = u32::MAX;

pub(super) fn assign(group: &Group<'_>, cooperative: bool) -> Vec<Vec<u32>> {
    let members = group.members.len();
    if members == 0 {
        return Vec::new();
    }
    let claims = raw_claims(group);
    let generations: Vec<i32> = group
        .members
        .iter()
        .map(|m| m.generation.unwrap_or(DEFAULT_GENERATION))
        .collect();

    let (mut assignment, transferring) = if all_subscriptions_equal(group) {
        constrained(group, &claims, &generations)
    } else {
        let assignment = General::new(group, &claims, &generations).build();
        // Like CooperativeStickyAssignor.computePartitionsTransferringOwnership, which the general
        // builder leaves to the cooperative assignor: a partition moves if it is added to a member
        // that did not claim it while some other member did.
        let transferring = if cooperative {
            transfers_from_claims(group, &claims, &assignment)
        } else {
            Vec::new()
        };
        (assignment, transferring)
    };

    if cooperative && !transferring.is_empty() {
        // CooperativeStickyAssignor.adjustAssignment.
        let mut withheld = vec![false; group.partition_count()];
        for &(partition, _) in &transferring {
            withheld[partition as usize] = true;
        }
        for partitions in &mut assignment {
            partitions.retain(|&p| !withheld[p as usize]);
        }
    }
    assignment
}

/// Every member's claimed partitions that exist, ascending and without repeats.
fn raw_claims(group: &Group<'_>) -> Vec<Vec<u32>> {
    group
        .members
        .iter()
        .map(|member| {
            let mut claims: Vec<u32> = member
                .owned_partitions
                .iter()
                .flat_map(|(topic, partitions)| partitions.iter().map(move |&p| (topic, p)))
                .filter_map(|(topic, p)| group.partition_index(topic, p))
                .collect();
            sort(&mut claims);
            claims.dedup();
            claims
        })
        .collect()
}

/// Whether all members subscribe to the same set of topics (`allSubscriptionsEqual`).
///
/// Kafka compares the raw subscriptions, including topics without metadata, so a difference in
/// such a topic also selects the general builder.
fn all_subscriptions_equal(group: &Group<'_>) -> bool {
    let topics = |i: usize| Set::from_iter(group.members[i].topics.iter().map(String::as_str));
    let first = topics(0);
    (1..group.members.len()).all(|i| topics(i) == first)
}

/// The outcome of settling the claims on one partition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Claim {
    /// Nobody claims it.
    Unclaimed,
    /// One member claims it in the highest generation among its claims.
    Owned { member: u32, generation: i32 },
    /// Several members claim it in the same, highest, generation: nobody owns it.
    Contested { generation: i32 },
}

/// Settles conflicting claims: the higher generation wins, a tie at the top leaves the partition
/// unowned. Only members for which `eligible` holds take part. The result does not depend on the
/// order members are visited in (Kafka's does, through `HashMap` order, in a corner case where a
/// tie is followed by a higher claim; there the higher claim wins here).
fn resolve(
    partitions: usize,
    claims: &[Vec<u32>],
    generations: &[i32],
    eligible: impl Fn(usize) -> bool,
) -> Vec<Claim> {
    let mut state = vec![Claim::Unclaimed; partitions];
    for (member, claimed) in claims.iter().enumerate().filter(|(m, _)| eligible(*m)) {
        let generation = generations[member];
        let owned = Claim::Owned {
            member: member as u32,
            generation,
        };
        for &p in claimed {
            let slot = &mut state[p as usize];
            *slot = match *slot {
                Claim::Unclaimed => owned,
                Claim::Owned { generation: g, .. } | Claim::Contested { generation: g } if generation > g => {
                    owned
                }
                Claim::Owned { generation: g, .. } if generation == g => Claim::Contested { generation },
                unchanged => unchanged,
            };
        }
    }
    state
}

/// `ConstrainedAssignmentBuilder`: all subscriptions are equal.
///
/// Returns the assignment and the partitions that change owner (`partitionsTransferringOwnership`),
/// with their new owner.
fn constrained(
    group: &Group<'_>,
    claims: &[Vec<u32>],
    generations: &[i32],
) -> (Vec<Vec<u32>>, Vec<(u32, u32)>) {
    let members = group.members.len();
    let total = group.partition_count();
    let state = resolve(total, claims, generations, |_| true);

    let mut owned = vec![Vec::new(); members];
    for (p, claim) in state.iter().enumerate() {
        if let Claim::Owned { member, .. } = *claim {
            owned[member as usize].push(p as u32);
        }
    }
    // KAFKA-16277: owned partitions are kept in (partition, topic) order, so a member that owns
    // several topics keeps a spread of them rather than all of the first topic.
    let key = |p: &u32| {
        let topic = group.partition_topic[*p as usize];
        (*p - group.topics[topic as usize].first, topic)
    };
    for list in &mut owned {
        sort_by_key(list, key);
    }

    let min_quota = total / members;
    let max_quota = total.div_ceil(members);
    // The number of members that end with max_quota (zero when the partitions divide evenly).
    let expected_over_min = total % members;
    let mut current_over_min = 0;

    let mut assignment: Vec<Vec<u32>> = (0..members).map(|_| Vec::with_capacity(max_quota)).collect();
    let mut assigned = vec![false; total];
    let mut maybe_revoked = vec![NONE; total];
    let mut under_min: Vec<u32> = Vec::new();
    let mut exactly_min: VecDeque<u32> = VecDeque::new();

    // assignOwnedPartitions. Kafka visits members in HashMap order, which decides who gets one of
    // the max_quota slots; here it is member-id order. Stickiness does not depend on the choice:
    // only a member that owns at least max_quota can take a slot.
    for (member, list) in owned.iter().enumerate() {
        let keep = if list.len() < min_quota {
            under_min.push(member as u32);
            list.len()
        } else if list.len() >= max_quota && current_over_min < expected_over_min {
            current_over_min += 1;
            if current_over_min == expected_over_min {
                exactly_min.clear();
            }
            max_quota
        } else {
            if current_over_min < expected_over_min {
                exactly_min.push_back(member as u32);
            }
            min_quota
        };
        for &p in &list[..keep] {
            assignment[member].push(p);
            assigned[p as usize] = true;
        }
        for &p in &list[keep..] {
            maybe_revoked[p as usize] = member as u32;
        }
    }

    // assignRoundRobin: unassigned partitions in (topic, partition) order go round the members
    // under min_quota (in member-id order), then one each to members at min_quota, until
    // expected_over_min members have max_quota. `cursor` mimics Java's LinkedList iterator.
    let mut transferring = Vec::new();
    let mut cursor = 0;
    for p in (0..total as u32).filter(|&p| !assigned[p as usize]) {
        let (member, from_under_min) = if cursor < under_min.len() {
            cursor += 1;
            (under_min[cursor - 1], true)
        } else if !under_min.is_empty() {
            cursor = 1;
            (under_min[0], true)
        } else if let Some(member) = exactly_min.pop_front() {
            (member, false)
        } else {
            // Kafka throws here; the quotas make it unreachable.
            debug_assert!(false, "no member left for partition {p}");
            break;
        };
        let list = &mut assignment[member as usize];
        list.push(p);
        let revoker = maybe_revoked[p as usize];
        if (revoker != NONE && revoker != member) || matches!(state[p as usize], Claim::Contested { .. }) {
            transferring.push((p, member));
        }
        if list.len() == min_quota {
            if from_under_min {
                cursor -= 1;
                under_min.remove(cursor);
            }
            exactly_min.push_back(member);
        }
        // Kafka also counts members reaching max_quota here, but only to log an error if one is
        // reached before the last partition; the quotas make that impossible.
    }
    (assignment, transferring)
}

/// The partitions a cooperative assignor must withhold after the general builder: those assigned
/// to a member that did not claim them although another member did.
fn transfers_from_claims(group: &Group<'_>, claims: &[Vec<u32>], assignment: &[Vec<u32>]) -> Vec<(u32, u32)> {
    let mut claimed = vec![false; group.partition_count()];
    for &p in claims.iter().flatten() {
        claimed[p as usize] = true;
    }
    let mut transferring = Vec::new();
    for (member, partitions) in assignment.iter().enumerate() {
        for &p in partitions {
            if claimed[p as usize] && claims[member].binary_search(&p).is_err() {
                transferring.push((p, member as u32));
            }
        }
    }
    transferring
}

/// `GeneralAssignmentBuilder`: subscriptions differ.
///
/// Kafka keeps members in a `TreeSet` ordered by (partition count, member id) and scans it for the
/// first subscriber of a topic. Here each topic keeps its own ordered set of subscribers, which
/// gives the same member in O(log n).
struct General<'g, 'a> {
    group: &'g Group<'a>,
    /// Per partition: its current owner, or [`NONE`].
    owner: Vec<u32>,
    /// Per partition: its position in its owner's list.
    slot: Vec<u32>,
    /// Per member: its partitions, in no particular order.
    assigned: Vec<Vec<u32>>,
    /// Per topic: its subscribers as (partition count, member), least loaded first.
    by_load: Vec<Set<(u32, u32)>>,
    /// Per partition: the member of an older generation that last owned it (`prevAssignment`).
    hint: Vec<u32>,
    /// Whether an owned partition had to be dropped because its owner unsubscribed from its topic.
    revocation_required: bool,
    /// Per member: whether it can take part in reassignment (it subscribes to a topic with ≥ 2
    /// subscribers; `canConsumerParticipateInReassignment`).
    participating: Vec<bool>,
    /// Histogram of participating members' partition counts, and its bounds, for a cheap check
    /// that counts differ by at most one (the fast half of Kafka's `isBalanced`).
    histogram: Vec<u32>,
    lowest: usize,
    highest: usize,
    /// `PartitionMovements`: per partition, (original owner, current owner) if it moved.
    moved: Vec<Option<(u32, u32)>>,
    /// The same movements grouped by (topic, from, to).
    movements: Map<(u32, u32, u32), Set<u32>>,
}

impl<'g, 'a> General<'g, 'a> {
    fn new(group: &'g Group<'a>, claims: &[Vec<u32>], generations: &[i32]) -> Self {
        let members = group.members.len();
        let total = group.partition_count();
        let max_generation = generations.iter().copied().max().unwrap_or(DEFAULT_GENERATION);

        // Ownership is resolved as for the constrained builder (`allSubscriptionsEqual`); claims
        // older than the highest generation are also hints, the most recent one per partition
        // winning (`prepopulateCurrentAssignments` / `updatePrevAssignment`).
        let state = resolve(total, claims, generations, |_| true);
        let mut hint = vec![NONE; total];
        let mut hint_generation = vec![i32::MIN; total];
        for (member, claimed) in claims.iter().enumerate() {
            if generations[member] < max_generation {
                for &p in claimed {
                    if generations[member] > hint_generation[p as usize] {
                        hint[p as usize] = member as u32;
                        hint_generation[p as usize] = generations[member];
                    }
                }
            }
        }

        let participating = (0..members)
            .map(|m| {
                group.member_topics[m]
                    .iter()
                    .any(|&t| group.topics[t as usize].subscribers.len() >= 2)
            })
            .collect();
        let mut builder = Self {
            group,
            owner: vec![NONE; total],
            slot: vec![0; total],
            assigned: vec![Vec::new(); members],
            by_load: group
                .topics
                .iter()
                .map(|t| Set::from_iter(t.subscribers.iter().map(|&m| (0, m))))
                .collect(),
            hint,
            revocation_required: false,
            participating,
            histogram: vec![0; total + 2],
            lowest: 0,
            highest: 0,
            moved: vec![None; total],
            movements: Map::new(),
        };
        builder.histogram[0] = builder.participating.iter().filter(|&&p| p).count() as u32;

        // assignOwnedPartitions: keep what is owned, unless the owner left the topic.
        for (p, claim) in state.iter().enumerate() {
            if let Claim::Owned { member, .. } = *claim {
                if group.is_subscribed(member, group.partition_topic[p]) {
                    builder.add(p as u32, member);
                } else {
                    builder.revocation_required = true;
                }
            }
        }
        builder
    }

    fn count(&self, member: u32) -> u32 {
        self.assigned[member as usize].len() as u32
    }

    fn topic(&self, partition: u32) -> u32 {
        self.group.partition_topic[partition as usize]
    }

    /// Moves `member`'s count from `from` to `to` in every structure that orders by load.
    fn recount(&mut self, member: u32, from: u32, to: u32) {
        for &t in &self.group.member_topics[member as usize] {
            let set = &mut self.by_load[t as usize];
            set.remove(&(from, member));
            set.insert((to, member));
        }
        if self.participating[member as usize] {
            let (from, to) = (from as usize, to as usize);
            self.histogram[from] -= 1;
            self.histogram[to] += 1;
            // Counts change by one, so the bounds move by at most one.
            self.highest = self.highest.max(to);
            self.lowest = self.lowest.min(to);
            if self.histogram[self.lowest] == 0 {
                self.lowest += 1;
            }
            if self.histogram[self.highest] == 0 {
                self.highest -= 1;
            }
        }
    }

    fn add(&mut self, partition: u32, member: u32) {
        let before = self.count(member);
        self.owner[partition as usize] = member;
        self.slot[partition as usize] = before;
        self.assigned[member as usize].push(partition);
        self.recount(member, before, before + 1);
    }

    fn remove(&mut self, partition: u32) {
        let member = self.owner[partition as usize];
        let list = &mut self.assigned[member as usize];
        let slot = self.slot[partition as usize] as usize;
        list.swap_remove(slot);
        if let Some(&moved) = list.get(slot) {
            self.slot[moved as usize] = slot as u32;
        }
        self.owner[partition as usize] = NONE;
        let after = self.count(member);
        self.recount(member, after + 1, after);
    }

    /// The least-loaded subscriber of `topic`, ties broken by member id.
    fn least_loaded(&self, topic: u32) -> Option<(u32, u32)> {
        self.by_load[topic as usize].first().copied()
    }

    fn build(mut self) -> Vec<Vec<u32>> {
        let group = self.group;
        // sortedAllPartitions: topics with fewer potential consumers first (TopicComparator), then
        // by name; partitions ascending.
        let mut topic_order: Vec<u32> = (0..group.topics.len() as u32).collect();
        sort_by_key(&mut topic_order, |&t| {
            (group.topics[t as usize].subscribers.len(), t)
        });
        let all: Vec<u32> = topic_order
            .iter()
            .flat_map(|&t| {
                let topic = &group.topics[t as usize];
                topic.first..topic.first + topic.partitions
            })
            .collect();
        let unassigned: Vec<u32> = all
            .iter()
            .copied()
            .filter(|&p| self.owner[p as usize] == NONE)
            .collect();

        // balance(), first step (maybeAssign): each unassigned partition to the least-loaded subscriber.
        for &p in &unassigned {
            if let Some((_, member)) = self.least_loaded(self.topic(p)) {
                self.add(p, member);
            }
        }

        // Only topics with two or more subscribers can move (canTopicParticipateInReassignment).
        let movable = |p: &u32| {
            group.topics[group.partition_topic[*p as usize] as usize]
                .subscribers
                .len()
                >= 2
        };
        let all: Vec<u32> = all.into_iter().filter(movable).collect();
        let unassigned: Vec<u32> = unassigned.into_iter().filter(movable).collect();

        // Moving a partition nobody owned costs no stickiness, so try those first, unless owned
        // partitions must be revoked anyway.
        if !self.revocation_required {
            self.perform_reassignments(&unassigned);
        }
        self.perform_reassignments(&all);
        // Kafka then reverts to the pre-balance assignment if the balance score did not improve.
        // Every move here takes a partition from a member to one with at least two fewer, which
        // lowers the score, so the check could never fire and is left out.
        self.assigned
    }

    /// `performReassignments`: sweeps `partitions` until a sweep moves nothing.
    ///
    /// A partition moves when its owner has at least two more partitions than another subscriber of
    /// its topic: to its older-generation owner if that one qualifies, else to the least-loaded
    /// subscriber. Each move lowers the sum of squared counts, so the sweeps end; when they do, no
    /// member could take a partition from one with two more, which is Kafka's `isBalanced`.
    fn perform_reassignments(&mut self, partitions: &[u32]) {
        loop {
            let mut modified = false;
            for &p in partitions {
                // Kafka stops as soon as isBalanced() holds; stopping when counts differ by at most
                // one is the same, as no partition could move in a balanced assignment anyway.
                if self.highest <= self.lowest + 1 {
                    return;
                }
                let owner = self.owner[p as usize];
                let topic = self.topic(p);
                let hint = self.hint[p as usize];
                // Kafka does not check that the previous owner still subscribes; it must, or the
                // partition would go to a member that did not ask for it.
                if hint != NONE
                    && self.group.is_subscribed(hint, topic)
                    && self.count(owner) > self.count(hint) + 1
                {
                    self.reassign(p, hint);
                    modified = true;
                    continue;
                }
                if let Some((load, member)) = self.least_loaded(topic) {
                    if self.count(owner) > load + 1 {
                        self.reassign(p, member);
                        modified = true;
                    }
                }
            }
            if !modified {
                return;
            }
        }
    }

    /// `reassignPartition` with `PartitionMovements.getTheActualPartitionToBeMoved`: if another
    /// partition of the same topic earlier moved from `to` to the current owner, that one goes back
    /// instead, so partitions do not swap between two members.
    ///
    /// Kafka also substitutes when `partition` itself moved before, looking at its original owner;
    /// that can move a partition between two other members and is left out here.
    fn reassign(&mut self, partition: u32, to: u32) {
        let from = self.owner[partition as usize];
        let topic = self.topic(partition);
        let actual = match self.moved[partition as usize] {
            None => self
                .movements
                .get(&(topic, to, from))
                .and_then(|set| set.first().copied())
                .unwrap_or(partition),
            Some(_) => partition,
        };
        self.move_partition(actual, to);
    }

    fn move_partition(&mut self, partition: u32, to: u32) {
        let from = self.owner[partition as usize];
        let topic = self.topic(partition);
        let origin = match self.moved[partition as usize] {
            Some((origin, current)) => {
                let key = (topic, origin, current);
                if let Some(set) = self.movements.get_mut(&key) {
                    set.remove(&partition);
                    if set.is_empty() {
                        self.movements.remove(&key);
                    }
                }
                origin
            }
            None => from,
        };
        if origin == to {
            self.moved[partition as usize] = None;
        } else {
            self.moved[partition as usize] = Some((origin, to));
            self.movements
                .entry((topic, origin, to))
                .or_default()
                .insert(partition);
        }
        self.remove(partition);
        self.add(partition, to);
    }
}
