//! A classic group's in-memory state (Kafka: `ClassicGroup`, `ClassicGroupMember`) and the small
//! operations on it that do not need the coordinator's timers or outbox.

use crate::collections::Map;
use crate::collections::Set;
use std::borrow::Borrow;
use std::ops::Index;

use super::hash::{hash_of, HashIndex};
use crate::java::string_hash_code;
use crate::protocol::{
    ConnectionId, ConsumerAssignment, ConsumerSubscription, GroupState, JoinGroupProtocol,
    JoinGroupResponseMember, TopicPartition, CONSUMER_PROTOCOL_TYPE,
};
use crate::sort::sort_by_key;
use crate::time::SimTime;

/// Where a parked (long-poll) response must go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Parked {
    pub(crate) to: ConnectionId,
    pub(crate) correlation_id: i32,
}

/// A committed offset as the coordinator keeps it (Kafka: `OffsetAndMetadata`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CommittedOffset {
    /// The offset.
    pub offset: i64,
    /// The leader epoch, or -1.
    pub leader_epoch: i32,
    /// The metadata string.
    pub metadata: String,
    /// When it was committed.
    pub commit_timestamp: SimTime,
    /// Explicit expiry (OffsetCommit v2–v4 `retentionTimeMs`).
    pub expire_timestamp: Option<SimTime>,
}

#[derive(Clone, Debug)]
pub(crate) struct Member {
    pub(crate) id: String,
    pub(crate) instance_id: Option<String>,
    pub(crate) client_id: String,
    pub(crate) client_host: String,
    pub(crate) rebalance_timeout_ms: i32,
    pub(crate) session_timeout_ms: i32,
    pub(crate) protocol_type: String,
    /// In the member's order of preference.
    pub(crate) protocols: Vec<JoinGroupProtocol>,
    pub(crate) assignment: ConsumerAssignment,
    pub(crate) awaiting_join: Option<Parked>,
    pub(crate) awaiting_sync: Option<Parked>,
    /// Added in the current join phase (Kafka: `isNew`); such a member has the 300 s join timeout.
    pub(crate) is_new: bool,
    /// Order of addition to the group: the re-election rule and every member listing use it.
    pub(crate) join_seq: u64,
}

impl Member {
    /// Kafka: `ClassicGroupMember.hasSatisfiedHeartbeat`. A member parked in JoinGroup or SyncGroup
    /// is covered by the join/sync timers instead of its session, unless it is new.
    pub(crate) fn has_satisfied_heartbeat(&self) -> bool {
        !self.is_new && (self.awaiting_join.is_some() || self.awaiting_sync.is_some())
    }

    /// Kafka: `ClassicGroupMember.matches` — same protocols, same order, same metadata.
    pub(crate) fn matches(&self, protocols: &[JoinGroupProtocol]) -> bool {
        self.protocols == protocols
    }

    pub(crate) fn metadata_for(&self, protocol: &str) -> ConsumerSubscription {
        self.protocols
            .iter()
            .find(|p| p.name == protocol)
            .map(|p| p.metadata.clone())
            .unwrap_or_default()
    }

    /// Kafka: `ClassicGroupMember.vote` — the first of its own protocols that every member supports.
    fn vote<'a>(&'a self, candidates: &Set<&str>) -> Option<&'a str> {
        self.protocols
            .iter()
            .map(|p| p.name.as_str())
            .find(|n| candidates.contains(n))
    }
}

/// A group's members by id: a `Map<String, Member>` as far as its users can tell (iteration in
/// id order), with point lookups by a hash of the id instead of string comparisons down a tree (each
/// heartbeat looks its member up).
///
/// Members live in `slots`; `order` (id → slot) gives the iteration order, and `by_hash` (hash of the
/// id → first slot of a chain through `chain`) the lookups, candidates being told apart by comparing
/// ids. Hashes and slot numbers never reach an output (see [`HashIndex`]). A member's `id` is its key and must not change while it is in the map (remove it and
/// insert it again, as a static member's replacement does).
#[derive(Clone, Debug, Default)]
pub(crate) struct MemberMap {
    slots: Vec<Option<Member>>,
    /// `chain[i]`: the next slot whose id has the same hash as slot `i`'s.
    chain: Vec<Option<u32>>,
    free: Vec<u32>,
    order: Map<String, u32>,
    by_hash: HashIndex,
}

impl MemberMap {
    fn find(&self, id: &str, hash: u64) -> Option<u32> {
        let mut next = self.by_hash.get(&hash).copied();
        while let Some(i) = next {
            if self.slot(i).id == id {
                return Some(i);
            }
            next = self.chain[i as usize];
        }
        None
    }

    fn slot(&self, i: u32) -> &Member {
        self.slots[i as usize].as_ref().expect("member index in sync")
    }

    pub(crate) fn len(&self) -> usize {
        self.order.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    pub(crate) fn contains_key(&self, id: &str) -> bool {
        self.find(id, hash_of(id)).is_some()
    }

    pub(crate) fn get(&self, id: &str) -> Option<&Member> {
        self.find(id, hash_of(id)).map(|i| self.slot(i))
    }

    pub(crate) fn get_mut(&mut self, id: &str) -> Option<&mut Member> {
        let i = self.find(id, hash_of(id))?;
        self.slots[i as usize].as_mut()
    }

    /// Inserts `member` under its id, returning the member it replaces.
    pub(crate) fn insert(&mut self, member: Member) -> Option<Member> {
        let hash = hash_of(member.id.as_str());
        self.insert_hashed(member, hash)
    }

    fn insert_hashed(&mut self, member: Member, hash: u64) -> Option<Member> {
        if let Some(i) = self.find(&member.id, hash) {
            return self.slots[i as usize].replace(member);
        }
        let head = self.by_hash.get(&hash).copied();
        let id = member.id.clone();
        let i = match self.free.pop() {
            Some(i) => {
                self.slots[i as usize] = Some(member);
                self.chain[i as usize] = head;
                i
            }
            None => {
                self.slots.push(Some(member));
                self.chain.push(head);
                u32::try_from(self.slots.len() - 1).expect("fewer than 2^32 members")
            }
        };
        self.by_hash.insert(hash, i);
        self.order.insert(id, i);
        None
    }

    pub(crate) fn remove(&mut self, id: &str) -> Option<Member> {
        self.remove_hashed(id, hash_of(id))
    }

    fn remove_hashed(&mut self, id: &str, hash: u64) -> Option<Member> {
        let i = self.find(id, hash)?;
        let next = self.chain[i as usize].take();
        let head = self.by_hash[&hash];
        if head == i {
            match next {
                Some(n) => self.by_hash.insert(hash, n),
                None => self.by_hash.remove(&hash),
            };
        } else {
            let mut prev = head;
            while self.chain[prev as usize] != Some(i) {
                prev = self.chain[prev as usize].expect("slot in its hash chain");
            }
            self.chain[prev as usize] = next;
        }
        self.order.remove(id);
        self.free.push(i);
        self.slots[i as usize].take()
    }

    /// Ids in id order.
    pub(crate) fn keys(&self) -> impl Iterator<Item = &String> + '_ {
        self.order.keys()
    }

    /// Members in id order.
    pub(crate) fn values(&self) -> impl Iterator<Item = &Member> + '_ {
        self.order.values().map(|&i| self.slot(i))
    }

    /// Members in id order.
    pub(crate) fn values_mut(&mut self) -> impl Iterator<Item = &mut Member> + '_ {
        let mut by_slot: Vec<Option<&mut Member>> = self.slots.iter_mut().map(Option::as_mut).collect();
        self.order
            .values()
            .map(move |&i| by_slot[i as usize].take().expect("member index in sync"))
    }
}

impl<Q: Borrow<str> + ?Sized> Index<&Q> for MemberMap {
    type Output = Member;

    fn index(&self, id: &Q) -> &Member {
        self.get(id.borrow()).expect("no such member")
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Group {
    pub(crate) id: String,
    pub(crate) partition: i32,
    pub(crate) state: GroupState,
    pub(crate) previous_state: GroupState,
    pub(crate) state_timestamp: SimTime,
    pub(crate) generation: i32,
    pub(crate) protocol_type: Option<String>,
    pub(crate) protocol_name: Option<String>,
    pub(crate) leader: Option<String>,
    pub(crate) members: MemberMap,
    /// `group.instance.id` → member id.
    pub(crate) static_members: Map<String, String>,
    /// Ids handed out with MEMBER_ID_REQUIRED that have not joined yet.
    pub(crate) pending_join: Set<String>,
    pub(crate) pending_sync: Set<String>,
    pub(crate) num_awaiting_join: usize,
    /// Protocol name → how many members support it.
    pub(crate) supported_protocols: Map<String, usize>,
    pub(crate) new_member_added: bool,
    pub(crate) subscribed_topics: Option<Set<String>>,
    pub(crate) offsets: Map<TopicPartition, CommittedOffset>,
    pub(crate) next_member_seq: u64,
    pub(crate) next_join_seq: u64,
    /// Set when this is a consumer group (KIP-848): the classic fields above stay as a new group's
    /// (Empty, generation 0, no members) and only the offsets are shared.
    pub(crate) consumer: Option<Box<super::consumer::group::ConsumerGroup>>,
}

impl Group {
    pub(crate) fn new(id: String, partition: i32, now: SimTime) -> Self {
        Self {
            id,
            partition,
            state: GroupState::Empty,
            previous_state: GroupState::Empty,
            state_timestamp: now,
            generation: 0,
            protocol_type: None,
            protocol_name: None,
            leader: None,
            members: MemberMap::default(),
            static_members: Map::new(),
            pending_join: Set::new(),
            pending_sync: Set::new(),
            num_awaiting_join: 0,
            supported_protocols: Map::new(),
            new_member_added: false,
            subscribed_topics: None,
            offsets: Map::new(),
            next_member_seq: 1,
            next_join_seq: 0,
            consumer: None,
        }
    }

    pub(crate) fn is(&self, state: GroupState) -> bool {
        self.state == state
    }

    /// Kafka: the group can enter PreparingRebalance from its current state.
    pub(crate) fn can_rebalance(&self) -> bool {
        self.state.can_transition_to(GroupState::PreparingRebalance)
    }

    /// A fresh member id in Kafka's shape, `<prefix>-<n>` (Kafka uses a UUID for `n`).
    pub(crate) fn generate_member_id(&mut self, prefix: &str) -> String {
        let n = self.next_member_seq;
        self.next_member_seq += 1;
        format!("{prefix}-{n}")
    }

    pub(crate) fn is_leader(&self, member_id: &str) -> bool {
        self.leader.as_deref() == Some(member_id)
    }

    /// Kafka: `ClassicGroup.hasAllMembersJoined`.
    pub(crate) fn has_all_members_joined(&self) -> bool {
        self.members.len() == self.num_awaiting_join && self.pending_join.is_empty()
    }

    /// Kafka: `ClassicGroup.rebalanceTimeoutMs` — the maximum over members (0 without members).
    pub(crate) fn rebalance_timeout_ms(&self) -> u64 {
        self.members
            .values()
            .map(|m| m.rebalance_timeout_ms.max(0) as u64)
            .max()
            .unwrap_or(0)
    }

    /// Kafka: `ClassicGroup.supportsProtocols`.
    pub(crate) fn supports_protocols(&self, protocol_type: &str, protocols: &[JoinGroupProtocol]) -> bool {
        if self.is(GroupState::Empty) {
            !protocol_type.is_empty() && !protocols.is_empty()
        } else {
            self.protocol_type.as_deref() == Some(protocol_type)
                && protocols.iter().any(|p| {
                    self.supported_protocols.get(&p.name).copied().unwrap_or(0) == self.members.len()
                })
        }
    }

    fn count_protocols(&mut self, protocols: &[JoinGroupProtocol], add: bool) {
        for p in protocols {
            let n = self.supported_protocols.entry(p.name.clone()).or_insert(0);
            if add {
                *n += 1;
            } else {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    self.supported_protocols.remove(&p.name);
                }
            }
        }
    }

    /// Kafka: `ClassicGroup.add`. Returns whether the member became leader.
    pub(crate) fn add_member(&mut self, mut member: Member) -> bool {
        if self.members.is_empty() {
            self.protocol_type = Some(member.protocol_type.clone());
        }
        member.join_seq = self.next_join_seq;
        self.next_join_seq += 1;
        self.count_protocols(&member.protocols, true);
        if member.awaiting_join.is_some() {
            self.num_awaiting_join += 1;
        }
        if let Some(instance) = &member.instance_id {
            self.static_members.insert(instance.clone(), member.id.clone());
        }
        self.pending_join.remove(&member.id);
        let became_leader = self.leader.is_none();
        if became_leader {
            self.leader = Some(member.id.clone());
        }
        self.members.insert(member);
        became_leader
    }

    /// Kafka: `ClassicGroup.remove`. Returns the removed member. Leadership, if it was the leader's,
    /// passes to the earliest-joined remaining member (Kafka takes whatever its hash map yields first;
    /// the reference notes this deterministic rule is compatible with Kafka's tests).
    pub(crate) fn remove_member(&mut self, member_id: &str) -> Option<Member> {
        let removed = self.members.remove(member_id);
        if let Some(m) = &removed {
            let protocols = m.protocols.clone();
            self.count_protocols(&protocols, false);
            if m.awaiting_join.is_some() {
                self.num_awaiting_join -= 1;
            }
            if let Some(instance) = &m.instance_id {
                self.static_members.remove(instance);
            }
        }
        if self.is_leader(member_id) {
            self.leader = self.earliest_member(|_| true);
        }
        self.pending_join.remove(member_id);
        self.pending_sync.remove(member_id);
        removed
    }

    pub(crate) fn earliest_member(&self, pred: impl Fn(&Member) -> bool) -> Option<String> {
        self.members
            .values()
            .filter(|m| pred(m))
            .min_by_key(|m| m.join_seq)
            .map(|m| m.id.clone())
    }

    /// Kafka: `ClassicGroup.updateMember`.
    pub(crate) fn update_member(
        &mut self,
        member_id: &str,
        protocols: Vec<JoinGroupProtocol>,
        rebalance_timeout_ms: i32,
        session_timeout_ms: i32,
        parked: Option<Parked>,
    ) -> Option<Parked> {
        let old = {
            let m = self.members.get(member_id).expect("updated member exists");
            m.protocols.clone()
        };
        self.count_protocols(&old, false);
        self.count_protocols(&protocols, true);
        let m = self.members.get_mut(member_id).expect("updated member exists");
        m.protocols = protocols;
        m.rebalance_timeout_ms = rebalance_timeout_ms;
        m.session_timeout_ms = session_timeout_ms;
        match (parked.is_some(), m.awaiting_join.is_some()) {
            (true, false) => self.num_awaiting_join += 1,
            (false, true) => self.num_awaiting_join -= 1,
            _ => {}
        }
        std::mem::replace(&mut m.awaiting_join, parked)
    }

    /// Takes a member's parked JoinGroup, keeping `num_awaiting_join` in step.
    pub(crate) fn take_join(&mut self, member_id: &str) -> Option<Parked> {
        let parked = self.members.get_mut(member_id)?.awaiting_join.take();
        if parked.is_some() {
            self.num_awaiting_join -= 1;
        }
        parked
    }

    /// Members in join order.
    pub(crate) fn members_in_join_order(&self) -> Vec<&Member> {
        let mut v: Vec<&Member> = self.members.values().collect();
        sort_by_key(&mut v, |m| m.join_seq);
        v
    }

    /// Member ids in join order.
    pub(crate) fn member_ids_in_join_order(&self) -> Vec<String> {
        self.members_in_join_order()
            .into_iter()
            .map(|m| m.id.clone())
            .collect()
    }

    /// The members list the leader gets in its JoinGroup response (Kafka:
    /// `currentClassicGroupMembers`): every member, including static members that did not rejoin.
    pub(crate) fn join_response_members(&self) -> Vec<JoinGroupResponseMember> {
        let protocol = self.protocol_name.clone().unwrap_or_default();
        self.members_in_join_order()
            .into_iter()
            .map(|m| JoinGroupResponseMember {
                member_id: m.id.clone(),
                group_instance_id: m.instance_id.clone(),
                metadata: m.metadata_for(&protocol),
            })
            .collect()
    }

    /// Kafka: `ClassicGroup.selectProtocol`. Each member votes for its most preferred protocol among
    /// those every member supports; most votes wins. Returns the winner and the tally in tie-break
    /// order.
    ///
    /// Kafka breaks ties by `HashMap` iteration order (`Stream.max` keeps the first maximal entry).
    /// We emulate JDK 17's `HashMap` exactly for the tally: the table has the smallest power-of-two
    /// capacity ≥ 16 that keeps the load ≤ 0.75, an entry's bucket is `(h ^ (h >>> 16)) & (cap - 1)`
    /// with `h = String.hashCode`, buckets iterate in index order and entries within a bucket in
    /// insertion order (first vote, members taken in join order). This reproduces the reference's
    /// facts: `range` beats `roundrobin` and `sticky` beats `range` in a tie.
    pub(crate) fn select_protocol(&self) -> (Option<String>, Vec<(String, u32)>) {
        let n = self.members.len();
        let candidates: Set<&str> = Set::from_iter(
            self.supported_protocols
                .iter()
                .filter(|(_, c)| **c == n)
                .map(|(p, _)| p.as_str()),
        );
        let mut tally: Vec<(String, u32)> = Vec::new();
        for m in self.members_in_join_order() {
            if let Some(v) = m.vote(&candidates) {
                match tally.iter_mut().find(|(p, _)| p == v) {
                    Some((_, c)) => *c += 1,
                    None => tally.push((v.to_owned(), 1)),
                }
            }
        }
        let tally = jdk_hash_map_order(tally);
        let mut best: Option<&(String, u32)> = None;
        for entry in &tally {
            if best.is_none_or(|b| entry.1 > b.1) {
                best = Some(entry);
            }
        }
        (best.map(|b| b.0.clone()), tally)
    }

    /// Kafka: `ClassicGroup.computeSubscribedTopics` — only for the `consumer` protocol type.
    pub(crate) fn compute_subscribed_topics(&self) -> Option<Set<String>> {
        if self.protocol_type.as_deref() != Some(CONSUMER_PROTOCOL_TYPE) {
            return None;
        }
        if self.members.is_empty() {
            return Some(Set::new());
        }
        let protocol = self.protocol_name.as_deref()?;
        let mut topics = Set::new();
        for m in self.members.values() {
            for t in m.metadata_for(protocol).topics {
                topics.insert(t);
            }
        }
        Some(topics)
    }
}

/// Orders `(key, value)` entries the way a JDK 17 `java.util.HashMap<String, _>` filled in this
/// order would iterate them (ignoring treeified bins, which need 8 collisions in one bucket).
pub(crate) fn jdk_hash_map_order<V>(mut entries: Vec<(String, V)>) -> Vec<(String, V)> {
    let mut cap: usize = 16;
    while entries.len() * 4 > cap * 3 {
        cap *= 2;
    }
    // By bucket; the sort is stable, so a bucket keeps its entries in insertion order.
    sort_by_key(&mut entries, |(k, _)| {
        let h = string_hash_code(k) as u32;
        ((h ^ (h >> 16)) as usize) & (cap - 1)
    });
    entries
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        jdk_hash_map_order(v.iter().map(|s| (s.to_string(), ())).collect())
            .into_iter()
            .map(|e| e.0)
            .collect()
    }

    // Reference §4.3: on JDK 17, HashMap iterates {range, roundrobin} with range first and
    // {sticky, range} with sticky first, whatever the insertion order.
    fn member(id: &str) -> Member {
        Member {
            id: id.into(),
            instance_id: None,
            client_id: String::new(),
            client_host: String::new(),
            rebalance_timeout_ms: 0,
            session_timeout_ms: 0,
            protocol_type: String::new(),
            protocols: Vec::new(),
            assignment: ConsumerAssignment::default(),
            awaiting_join: None,
            awaiting_sync: None,
            is_new: false,
            join_seq: 0,
        }
    }

    #[test]
    fn member_map_chains_equal_hashes() {
        let mut m = MemberMap::default();
        for id in ["b", "a", "c"] {
            assert!(m.insert_hashed(member(id), 7).is_none());
        }
        assert_eq!(m.keys().map(String::as_str).collect::<Vec<_>>(), ["a", "b", "c"]);
        // From the middle of the chain (c -> a -> b), then the head, then the last.
        assert_eq!(m.remove_hashed("a", 7).map(|x| x.id), Some("a".into()));
        assert_eq!(m.find("a", 7), None);
        assert!(m.find("b", 7).is_some() && m.find("c", 7).is_some());
        assert_eq!(m.remove_hashed("c", 7).map(|x| x.id), Some("c".into()));
        assert!(m.find("b", 7).is_some());
        assert_eq!(m.remove_hashed("b", 7).map(|x| x.id), Some("b".into()));
        assert!(m.is_empty() && m.by_hash.is_empty());
    }

    /// Against a `BTreeMap`: same lookups, same iteration order, with slots freed and reused.
    #[test]
    fn member_map_matches_a_btree_map() {
        let mut m = MemberMap::default();
        let mut model: std::collections::BTreeMap<String, i32> = std::collections::BTreeMap::new();
        let mut x: u64 = 99;
        for step in 0..3_000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let id = format!("client-{}-{}", (x >> 40) % 7, (x >> 20) % 13);
            if (x >> 33) % 3 == 0 {
                assert_eq!(
                    m.remove(&id).map(|x| x.join_seq),
                    model.remove(&id).map(|v| v as u64)
                );
            } else {
                let mut new = member(&id);
                new.join_seq = step;
                let old = m.insert(new).map(|x| x.join_seq);
                assert_eq!(old, model.insert(id.clone(), step as i32).map(|v| v as u64));
            }
            assert_eq!(m.len(), model.len());
            assert!(m.contains_key(&id) == model.contains_key(&id));
            let got: Vec<(String, u64)> = m.values().map(|x| (x.id.clone(), x.join_seq)).collect();
            let want: Vec<(String, u64)> = model.iter().map(|(k, v)| (k.clone(), *v as u64)).collect();
            assert_eq!(got, want);
        }
        for x in m.values_mut() {
            x.join_seq += 1;
        }
        let got: Vec<u64> = m.values().map(|x| x.join_seq).collect();
        let want: Vec<u64> = model.values().map(|v| *v as u64 + 1).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn jdk_order_matches_the_reference_facts() {
        assert_eq!(names(&["roundrobin", "range"])[0], "range");
        assert_eq!(names(&["range", "roundrobin"])[0], "range");
        assert_eq!(names(&["range", "sticky"])[0], "sticky");
        assert_eq!(names(&["sticky", "range"])[0], "sticky");
    }
}
