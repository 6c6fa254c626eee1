//! Timers as data. Kafka's Java coordinator keys its timers (`heartbeat-<group>-<member>`,
//! `join-<group>`, `sync-<group>`) and scheduling an existing key replaces the old timer; this
//! table does the same, ordered by deadline so that [`TimerTable::next_deadline`] is a `min`.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::hash::{hash_of, HashIndex};
use crate::sort::sort_by_key;
use crate::time::SimTime;

/// Which timer: the key Kafka schedules it under.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum TimerKey {
    /// A member's (or pending member's) session deadline: `heartbeat-<group>-<member>`.
    Heartbeat {
        /// The group id.
        group_id: String,
        /// The member id.
        member_id: String,
    },
    /// The group's join-phase timer (initial delay or rebalance timeout): `join-<group>`.
    Join {
        /// The group id.
        group_id: String,
    },
    /// The group's pending-sync timer (KAFKA-12890): `sync-<group>`.
    Sync {
        /// The group id.
        group_id: String,
    },
    /// The periodic offset-expiration check of one `__consumer_offsets` partition.
    OffsetExpiration {
        /// The partition.
        partition: i32,
    },
    /// A consumer-group member's session (KIP-848): `session-timeout-<group>-<member>`.
    ConsumerSession {
        /// The group id.
        group_id: String,
        /// The member id.
        member_id: String,
    },
    /// A consumer-group member's revocation deadline (KIP-848): `rebalance-timeout-<group>-<member>`.
    ConsumerRebalance {
        /// The group id.
        group_id: String,
        /// The member id.
        member_id: String,
    },
    /// A classic member of a consumer group told to rejoin (mixed group): `join-<group>-<member>`.
    ConsumerClassicJoin {
        /// The group id.
        group_id: String,
        /// The member id.
        member_id: String,
    },
    /// A classic member of a consumer group that joined and must sync: `sync-<group>-<member>`.
    ConsumerClassicSync {
        /// The group id.
        group_id: String,
        /// The member id.
        member_id: String,
    },
}

impl TimerKey {
    /// The group this timer belongs to, if any.
    pub fn group_id(&self) -> Option<&str> {
        match self {
            Self::Heartbeat { group_id, .. } | Self::Join { group_id } | Self::Sync { group_id } => {
                Some(group_id)
            }
            Self::OffsetExpiration { .. } => None,
            Self::ConsumerSession { group_id, .. }
            | Self::ConsumerRebalance { group_id, .. }
            | Self::ConsumerClassicJoin { group_id, .. }
            | Self::ConsumerClassicSync { group_id, .. } => Some(group_id),
        }
    }
}

impl fmt::Display for TimerKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Heartbeat { group_id, member_id } => write!(f, "heartbeat-{group_id}-{member_id}"),
            Self::Join { group_id } => write!(f, "join-{group_id}"),
            Self::Sync { group_id } => write!(f, "sync-{group_id}"),
            Self::OffsetExpiration { partition } => write!(f, "offset-expiration-{partition}"),
            Self::ConsumerSession { group_id, member_id } => {
                write!(f, "session-timeout-{group_id}-{member_id}")
            }
            Self::ConsumerRebalance { group_id, member_id } => {
                write!(f, "rebalance-timeout-{group_id}-{member_id}")
            }
            Self::ConsumerClassicJoin { group_id, member_id } => write!(f, "join-{group_id}-{member_id}"),
            Self::ConsumerClassicSync { group_id, member_id } => write!(f, "sync-{group_id}-{member_id}"),
        }
    }
}

/// What a timer is for; what happens when it fires depends on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum TimerKind {
    /// A member's `session.timeout.ms`.
    Session,
    /// A new member's join deadline (300 s, `CLASSIC_GROUP_NEW_MEMBER_JOIN_TIMEOUT_MS`).
    NewMemberJoin,
    /// A pending member's (MEMBER_ID_REQUIRED issued) session deadline for its second JoinGroup.
    PendingMember,
    /// One tick of `group.initial.rebalance.delay.ms` (Kafka: `tryCompleteInitialRebalanceElseSchedule`).
    InitialRebalanceDelay {
        /// The delay of this tick in ms.
        delay_ms: u64,
        /// How much of the rebalance timeout is left after this tick, in ms.
        remaining_ms: u64,
    },
    /// The join phase's rebalance timeout (the maximum over members).
    RebalanceTimeout,
    /// The pending-sync deadline for a generation.
    PendingSync {
        /// The generation the timer was set for.
        generation_id: i32,
    },
    /// `offsets.retention.check.interval.ms`.
    OffsetExpirationCheck,
    /// A consumer-group member's `group.consumer.session.timeout.ms`.
    ConsumerSession,
    /// A consumer-group member's rebalance timeout, armed when it entered `UNREVOKED_PARTITIONS`:
    /// it fences the member if it is still at that epoch.
    ConsumerRebalanceTimeout {
        /// The member epoch captured when the timer was set.
        member_epoch: i32,
    },
    /// A classic member of a consumer group must rejoin within its rebalance timeout.
    ConsumerClassicJoinTimeout,
    /// A classic member of a consumer group must sync within its rebalance timeout.
    ConsumerClassicSyncTimeout,
}

impl fmt::Display for TimerKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Session => f.write_str("session timeout"),
            Self::NewMemberJoin => f.write_str("new-member join timeout"),
            Self::PendingMember => f.write_str("pending-member session timeout"),
            Self::InitialRebalanceDelay {
                delay_ms,
                remaining_ms,
            } => {
                write!(
                    f,
                    "initial rebalance delay (tick {delay_ms}ms, {remaining_ms}ms remaining)"
                )
            }
            Self::RebalanceTimeout => f.write_str("rebalance timeout"),
            Self::PendingSync { generation_id } => {
                write!(f, "pending-sync timeout (generation {generation_id})")
            }
            Self::OffsetExpirationCheck => f.write_str("offset expiration check"),
            Self::ConsumerSession => f.write_str("consumer session timeout"),
            Self::ConsumerRebalanceTimeout { member_epoch } => {
                write!(f, "revocation deadline (member epoch {member_epoch})")
            }
            Self::ConsumerClassicJoinTimeout => f.write_str("classic member join timeout"),
            Self::ConsumerClassicSyncTimeout => f.write_str("classic member sync timeout"),
        }
    }
}

/// A scheduled timer, as the UI sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Timer {
    /// The key.
    pub key: TimerKey,
    /// What it is for.
    pub kind: TimerKind,
    /// When it fires.
    pub deadline: SimTime,
}

/// Keyed timers ordered by deadline, then by scheduling order (as Kafka's timer wheel fires timers
/// due together in the order they were scheduled).
///
/// The hot path is a heartbeat: it reschedules its member's session timer, later than every other
/// deadline of the same length. So:
///
/// * each timer lives in a slot of `slots`, its key stored once;
/// * `by_hash` finds a key's slot from a 64-bit hash of the key (slots with equal hashes are chained
///   and told apart by comparing keys), so a lookup compares integers instead of group and member id
///   strings;
/// * `queue` is a min-heap of `(deadline, sequence)` → slot. Rescheduling pushes a new entry and
///   leaves the old one behind, stale (its sequence no longer matches its slot's); stale entries are
///   dropped when they reach the top, and the whole heap is rebuilt when they outnumber the live
///   timers. After every mutation the top entry is live, so [`TimerTable::next_deadline`] is a peek.
///
/// Neither hashes nor slot numbers ever reach an output: the firing order and every listing follow
/// `(deadline, sequence)`, a total order (sequences are unique), exactly as a map keyed by it would
/// (see [`HashIndex`] for why its hash map is safe).
#[derive(Clone, Debug, Default)]
pub(crate) struct TimerTable {
    slots: Vec<Option<Slot>>,
    /// Free slots, reused last-freed first.
    free: Vec<u32>,
    /// Hash of the key → the first slot of the chain of keys with that hash.
    by_hash: HashIndex,
    queue: BinaryHeap<Reverse<QueueEntry>>,
    next_seq: u64,
}

/// An entry of the deadline queue, ordered by `(deadline, sequence)` packed into one integer (a
/// single comparison on the heap's hot path); sequences are unique, so the slot never decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct QueueEntry {
    order: u128,
    slot: u32,
}

impl QueueEntry {
    fn new(deadline: SimTime, seq: u64, slot: u32) -> Reverse<Self> {
        Reverse(Self {
            order: (u128::from(deadline.0) << 64) | u128::from(seq),
            slot,
        })
    }

    fn deadline(&self) -> SimTime {
        SimTime((self.order >> 64) as u64)
    }

    fn seq(&self) -> u64 {
        self.order as u64
    }
}

#[derive(Clone, Debug)]
struct Slot {
    key: TimerKey,
    hash: u64,
    /// The next slot whose key has the same hash.
    next_same_hash: Option<u32>,
    deadline: SimTime,
    seq: u64,
    kind: TimerKind,
}

impl TimerTable {
    /// The slot holding `key` (whose hash is `hash`), if any.
    fn find(&self, key: &TimerKey, hash: u64) -> Option<u32> {
        let mut next = self.by_hash.get(&hash).copied();
        while let Some(i) = next {
            let slot = self.slot(i);
            if slot.key == *key {
                return Some(i);
            }
            next = slot.next_same_hash;
        }
        None
    }

    fn slot(&self, i: u32) -> &Slot {
        self.slots[i as usize].as_ref().expect("timer index in sync")
    }

    fn is_live(&self, Reverse(e): &Reverse<QueueEntry>) -> bool {
        self.slots[e.slot as usize]
            .as_ref()
            .is_some_and(|s| s.seq == e.seq())
    }

    /// Restores the invariants after a mutation: the top of the queue is live, and stale entries do
    /// not outnumber live ones by much.
    fn tidy(&mut self) {
        let live = self.slots.len() - self.free.len();
        if self.queue.len() > 2 * live + 64 {
            let entries: Vec<_> = self
                .slots
                .iter()
                .enumerate()
                .filter_map(|(i, s)| s.as_ref().map(|s| QueueEntry::new(s.deadline, s.seq, i as u32)))
                .collect();
            self.queue = BinaryHeap::from(entries);
        }
        while let Some(top) = self.queue.peek() {
            if self.is_live(top) {
                break;
            }
            self.queue.pop();
        }
    }

    /// Schedules `key`, replacing any timer with the same key. Returns whether one was replaced.
    pub(crate) fn schedule(&mut self, key: &TimerKey, deadline: SimTime, kind: TimerKind) -> bool {
        self.schedule_hashed(key, hash_of(key), deadline, kind)
    }

    fn schedule_hashed(&mut self, key: &TimerKey, hash: u64, deadline: SimTime, kind: TimerKind) -> bool {
        let seq = self.next_seq;
        self.next_seq += 1;
        let replaced = match self.find(key, hash) {
            Some(i) => {
                // The hot path (every heartbeat): the slot stays, its old queue entry goes stale.
                let slot = self.slots[i as usize].as_mut().expect("timer index in sync");
                slot.deadline = deadline;
                slot.seq = seq;
                slot.kind = kind;
                self.queue.push(QueueEntry::new(deadline, seq, i));
                true
            }
            None => {
                let new = Slot {
                    key: key.clone(),
                    hash,
                    next_same_hash: self.by_hash.get(&hash).copied(),
                    deadline,
                    seq,
                    kind,
                };
                let i = match self.free.pop() {
                    Some(i) => {
                        self.slots[i as usize] = Some(new);
                        i
                    }
                    None => {
                        self.slots.push(Some(new));
                        u32::try_from(self.slots.len() - 1).expect("fewer than 2^32 timers")
                    }
                };
                self.by_hash.insert(hash, i);
                self.queue.push(QueueEntry::new(deadline, seq, i));
                false
            }
        };
        self.tidy();
        replaced
    }

    /// Removes the timer in slot `i` and frees the slot (its queue entry goes stale).
    fn remove_slot(&mut self, i: u32) -> Slot {
        let slot = self.slots[i as usize].take().expect("timer index in sync");
        // Unlink it from its hash chain.
        let head = self.by_hash[&slot.hash];
        if head == i {
            match slot.next_same_hash {
                Some(n) => self.by_hash.insert(slot.hash, n),
                None => self.by_hash.remove(&slot.hash),
            };
        } else {
            let mut prev = head;
            loop {
                let p = self.slots[prev as usize].as_mut().expect("timer index in sync");
                if p.next_same_hash == Some(i) {
                    p.next_same_hash = slot.next_same_hash;
                    break;
                }
                prev = p.next_same_hash.expect("slot in its hash chain");
            }
        }
        self.free.push(i);
        slot
    }

    /// Cancels `key`; returns the cancelled timer's kind if there was one.
    pub(crate) fn cancel(&mut self, key: &TimerKey) -> Option<TimerKind> {
        self.cancel_hashed(key, hash_of(key))
    }

    fn cancel_hashed(&mut self, key: &TimerKey, hash: u64) -> Option<TimerKind> {
        let i = self.find(key, hash)?;
        let kind = self.remove_slot(i).kind;
        self.tidy();
        Some(kind)
    }

    /// The earliest deadline.
    pub(crate) fn next_deadline(&self) -> Option<SimTime> {
        self.queue.peek().map(|Reverse(e)| e.deadline())
    }

    /// Removes and returns the earliest timer due at or before `now`.
    pub(crate) fn pop_due(&mut self, now: SimTime) -> Option<Timer> {
        let Reverse(top) = self.queue.peek()?;
        let (deadline, i) = (top.deadline(), top.slot);
        if deadline > now {
            return None;
        }
        self.queue.pop();
        let Slot { key, kind, .. } = self.remove_slot(i);
        self.tidy();
        Some(Timer { key, kind, deadline })
    }

    /// The timer under `key`.
    pub(crate) fn get(&self, key: &TimerKey) -> Option<(SimTime, TimerKind)> {
        let slot = self.slot(self.find(key, hash_of(key))?);
        Some((slot.deadline, slot.kind))
    }

    /// Every timer, by deadline (then scheduling order).
    pub(crate) fn iter(&self) -> impl Iterator<Item = Timer> + '_ {
        let mut live: Vec<&Slot> = self.slots.iter().flatten().collect();
        sort_by_key(&mut live, |s| (s.deadline, s.seq));
        live.into_iter().map(|s| Timer {
            key: s.key.clone(),
            kind: s.kind,
            deadline: s.deadline,
        })
    }

    /// Number of timers.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.slots.len() - self.free.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn join(g: &str) -> TimerKey {
        TimerKey::Join { group_id: g.into() }
    }

    #[test]
    fn rescheduling_a_key_replaces_it() {
        let mut t = TimerTable::default();
        assert!(!t.schedule(&join("g"), SimTime(10), TimerKind::RebalanceTimeout));
        assert!(t.schedule(&join("g"), SimTime(5), TimerKind::RebalanceTimeout));
        assert_eq!(t.len(), 1);
        assert_eq!(t.next_deadline(), Some(SimTime(5)));
        assert!(t.pop_due(SimTime(4)).is_none());
        assert_eq!(t.pop_due(SimTime(5)).map(|x| x.key), Some(join("g")));
        assert_eq!(t.len(), 0);
    }

    fn hb(m: &str) -> TimerKey {
        TimerKey::Heartbeat {
            group_id: "g".into(),
            member_id: m.into(),
        }
    }

    #[test]
    fn keys_with_equal_hashes_stay_apart() {
        let mut t = TimerTable::default();
        assert!(!t.schedule_hashed(&hb("a"), 7, SimTime(3), TimerKind::Session));
        assert!(!t.schedule_hashed(&hb("b"), 7, SimTime(1), TimerKind::Session));
        assert!(t.schedule_hashed(&hb("a"), 7, SimTime(2), TimerKind::Session));
        assert_eq!(t.len(), 2);
        assert!(!t.schedule_hashed(&hb("c"), 7, SimTime(5), TimerKind::Session));
        let a = t.find(&hb("a"), 7).expect("a");
        let b = t.find(&hb("b"), 7).expect("b");
        let c = t.find(&hb("c"), 7).expect("c");
        assert_ne!(a, b);
        assert_ne!(b, c);
        assert_eq!(t.slot(a).deadline, SimTime(2));
        // Unlink from the middle of the chain, then the head.
        assert_eq!(t.pop_due(SimTime(1)).map(|x| x.key), Some(hb("b")));
        assert_eq!(t.find(&hb("b"), 7), None);
        assert_eq!(t.find(&hb("a"), 7), Some(a));
        assert_eq!(t.find(&hb("c"), 7), Some(c));
        assert_eq!(t.cancel_hashed(&hb("c"), 7), Some(TimerKind::Session));
        assert_eq!(t.find(&hb("a"), 7), Some(a));
        assert_eq!(t.find(&hb("c"), 7), None);
        assert_eq!(t.pop_due(SimTime(2)).map(|x| x.key), Some(hb("a")));
        assert!(t.by_hash.is_empty());
        assert_eq!(t.next_deadline(), None);
    }

    /// Against a naive model: same firing order (deadline, then scheduling order), same lookups,
    /// with slots being freed and reused.
    #[test]
    fn matches_a_naive_model() {
        let mut t = TimerTable::default();
        // (key, deadline, seq)
        let mut model: Vec<(TimerKey, u64, u64)> = Vec::new();
        let mut seq = 0;
        let mut x: u64 = 12345;
        let mut now = 0;
        for _ in 0..5_000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let key = match (x >> 33) % 4 {
                0 => join(&format!("g{}", (x >> 40) % 3)),
                _ => hb(&format!("m{}", (x >> 40) % 50)),
            };
            match (x >> 20) % 5 {
                0 => {
                    let expected = model.iter().position(|e| e.0 == key).map(|p| model.remove(p));
                    assert_eq!(t.cancel(&key).is_some(), expected.is_some());
                }
                1 => {
                    now += (x >> 50) % 20;
                    loop {
                        let next = model
                            .iter()
                            .enumerate()
                            .min_by_key(|(_, e)| (e.1, e.2))
                            .map(|(i, _)| i);
                        let expected = match next {
                            Some(i) if model[i].1 <= now => Some(model.remove(i)),
                            _ => None,
                        };
                        let got = t.pop_due(SimTime(now));
                        assert_eq!(got.map(|g| (g.key, g.deadline.0)), expected.map(|e| (e.0, e.1)));
                        if next.is_none() || t.next_deadline().is_none_or(|d| d.0 > now) {
                            break;
                        }
                    }
                }
                _ => {
                    let deadline = now + (x >> 45) % 30;
                    let replaced = match model.iter_mut().find(|e| e.0 == key) {
                        Some(e) => {
                            *e = (key.clone(), deadline, seq);
                            true
                        }
                        None => {
                            model.push((key.clone(), deadline, seq));
                            false
                        }
                    };
                    seq += 1;
                    assert_eq!(t.schedule(&key, SimTime(deadline), TimerKind::Session), replaced);
                }
            }
            assert_eq!(t.len(), model.len());
            let mut sorted = model.clone();
            sorted.sort_by_key(|e| (e.1, e.2));
            let listed: Vec<(TimerKey, u64)> = t.iter().map(|e| (e.key, e.deadline.0)).collect();
            let expected: Vec<(TimerKey, u64)> = sorted.into_iter().map(|e| (e.0, e.1)).collect();
            assert_eq!(listed, expected);
        }
    }

    #[test]
    fn cancel_removes_from_both_indexes() {
        let mut t = TimerTable::default();
        t.schedule(&join("a"), SimTime(1), TimerKind::RebalanceTimeout);
        t.schedule(&join("b"), SimTime(2), TimerKind::RebalanceTimeout);
        assert_eq!(t.cancel(&join("a")), Some(TimerKind::RebalanceTimeout));
        assert_eq!(t.cancel(&join("a")), None);
        assert_eq!(t.next_deadline(), Some(SimTime(2)));
    }
}
