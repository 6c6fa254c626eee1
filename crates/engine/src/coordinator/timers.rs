//! Timers as data. Kafka's Java coordinator keys its timers (`heartbeat-<group>-<member>`,
//! `join-<group>`, `sync-<group>`) and scheduling an existing key replaces the old timer; this
//! table does the same, ordered by deadline so that [`TimerTable::next_deadline`] is a `min`.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

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
}

impl TimerKey {
    /// The group this timer belongs to, if any.
    pub fn group_id(&self) -> Option<&str> {
        match self {
            Self::Heartbeat { group_id, .. } | Self::Join { group_id } | Self::Sync { group_id } => {
                Some(group_id)
            }
            Self::OffsetExpiration { .. } => None,
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
#[derive(Clone, Debug, Default)]
pub(crate) struct TimerTable {
    by_key: BTreeMap<TimerKey, (SimTime, u64, TimerKind)>,
    by_deadline: BTreeMap<(SimTime, u64), TimerKey>,
    next_seq: u64,
}

impl TimerTable {
    /// Schedules `key`, replacing any timer with the same key. Returns whether one was replaced.
    pub(crate) fn schedule(&mut self, key: &TimerKey, deadline: SimTime, kind: TimerKind) -> bool {
        let seq = self.next_seq;
        self.next_seq += 1;
        if let Some(slot) = self.by_key.get_mut(key) {
            // Re-index the existing key without cloning it (the hot path: every heartbeat).
            let stored = self
                .by_deadline
                .remove(&(slot.0, slot.1))
                .expect("timer index in sync");
            *slot = (deadline, seq, kind);
            self.by_deadline.insert((deadline, seq), stored);
            return true;
        }
        self.by_deadline.insert((deadline, seq), key.clone());
        self.by_key.insert(key.clone(), (deadline, seq, kind));
        false
    }

    /// Cancels `key`; returns the cancelled timer's kind if there was one.
    pub(crate) fn cancel(&mut self, key: &TimerKey) -> Option<TimerKind> {
        let (deadline, seq, kind) = self.by_key.remove(key)?;
        let removed = self.by_deadline.remove(&(deadline, seq));
        debug_assert!(removed.is_some());
        Some(kind)
    }

    /// The earliest deadline.
    pub(crate) fn next_deadline(&self) -> Option<SimTime> {
        self.by_deadline.first_key_value().map(|((t, _), _)| *t)
    }

    /// Removes and returns the earliest timer due at or before `now`.
    pub(crate) fn pop_due(&mut self, now: SimTime) -> Option<Timer> {
        let ((deadline, _), _) = self.by_deadline.first_key_value()?;
        if *deadline > now {
            return None;
        }
        let ((deadline, _), key) = self.by_deadline.pop_first()?;
        let (_, _, kind) = self.by_key.remove(&key).expect("timer index in sync");
        Some(Timer { key, kind, deadline })
    }

    /// The timer under `key`.
    pub(crate) fn get(&self, key: &TimerKey) -> Option<(SimTime, TimerKind)> {
        self.by_key.get(key).map(|(t, _, k)| (*t, *k))
    }

    /// Every timer, by deadline.
    pub(crate) fn iter(&self) -> impl Iterator<Item = Timer> + '_ {
        self.by_deadline.iter().map(|((deadline, _), key)| Timer {
            key: key.clone(),
            kind: self.by_key[key].2,
            deadline: *deadline,
        })
    }

    /// Number of timers.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.by_key.len()
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
