//! What `poll()` reads: metadata (refreshed every `metadata.max.age.ms`, or when a partition is
//! gone), the starting positions of newly owned partitions (OffsetFetch), and records (a fetch,
//! answered at once from the cluster's [`Topics`]).

use crate::collections::Map;

use super::{App, ClientEvent, Consumer, MemberState, PositionSource, Processing, Reaction, RecordRange};
use crate::protocol::{Api, ErrorCode, OffsetFetchRequest, OffsetFetchResponse, Request, TopicPartition};
use crate::sort::sort;
use crate::time::{SimDuration, SimTime};
use crate::topic::Topics;
impl Consumer {
    /// Starting positions of new partitions (Kafka: `refreshCommittedOffsetsIfNeeded`): while an
    /// owned partition has no position, `poll()` sends an OffsetFetch for the missing ones (one at
    /// a time, not during a backoff) and returns `true`, fetching nothing.
    pub(super) fn positions_missing(&mut self, now: SimTime) -> bool {
        // Positions are only ever kept for owned partitions, so equal counts mean none is missing.
        debug_assert!(self.positions.keys().all(|tp| self.owned.contains(tp)));
        if self.positions.len() >= self.owned.len() {
            return false;
        }
        let missing: Vec<TopicPartition> = self
            .owned
            .iter()
            .filter(|tp| !self.positions.contains_key(*tp))
            .cloned()
            .collect();
        if !self.has_in_flight(Api::OffsetFetch) && now >= self.backoff_until {
            let req = Request::OffsetFetch(OffsetFetchRequest {
                group_id: self.cfg.group_id.clone(),
                partitions: Some(missing),
                require_stable: true,
            });
            self.send(now, Api::OffsetFetch, req);
        }
        true
    }

    pub(super) fn maybe_refresh_metadata(&mut self, now: SimTime, topics: &Topics) {
        if !self.metadata_needed && now < self.next_metadata_refresh {
            return;
        }
        self.metadata_needed = false;
        self.next_metadata_refresh = now + SimDuration::from_millis(self.cfg.metadata_max_age_ms);
        let md = topics.metadata();
        if md != self.metadata {
            let first = self.metadata.is_empty() && self.subscribed.is_empty();
            self.metadata = md;
            if !first {
                self.events.push_back(ClientEvent::MetadataChanged {
                    topics: self.metadata.iter().map(|(t, n)| (t.clone(), *n)).collect(),
                });
            }
        }
        let subscribed = self.cfg.subscription.resolve(self.metadata.keys());
        if subscribed != self.subscribed {
            self.subscribed = subscribed;
            if self.state != MemberState::Unjoined || self.generation_valid() {
                self.events.push_back(ClientEvent::SubscriptionChanged {
                    subscription: self.cfg.subscription.clone(),
                    topics: self.subscribed.clone(),
                });
            }
        }
        // The leader watches the partition counts of every topic the group subscribes to
        // (Kafka: ConsumerCoordinator.rejoinNeededOrPending, assignmentSnapshot vs metadataSnapshot).
        if self.is_leader && self.state == MemberState::Stable {
            if let Some(snap) = &self.assignment_snapshot {
                let now_view: Map<String, i32> = Map::from_iter(
                    snap.keys()
                        .filter_map(|t| self.metadata.get(t).map(|n| (t.clone(), *n))),
                );
                let snap_existing: Map<String, i32> =
                    Map::from_iter(snap.iter().filter(|(_, n)| **n > 0).map(|(t, n)| (t.clone(), *n)));
                if now_view != snap_existing {
                    self.request_rejoin("the leader saw the group's topic metadata change");
                }
            }
        }
    }

    pub(super) fn fetch(&mut self, now: SimTime, topics: &Topics) {
        let mut remaining = u64::from(self.cfg.max_poll_records.max(1));
        let mut records = Vec::new();
        let n = self.owned.len();
        // Owned partitions from the cursor on, wrapping around (borrowed, not cloned).
        let start = if n > 0 { self.fetch_cursor % n } else { 0 };
        // Partitions a consumer-protocol reconciliation is revoking are not fetched any more
        // (Kafka: `markPendingRevocation`).
        let revoking = match self.kip848.as_deref().and_then(|m| m.reconciliation.as_ref()) {
            Some(r) => &r.revoking[..],
            None => &[],
        };
        let order = self.owned.iter().skip(start).chain(self.owned.iter().take(start));
        for tp in order.filter(|tp| !revoking.contains(tp)) {
            if remaining == 0 {
                break;
            }
            let Some(leo) = topics.log_end_offset(tp, now) else {
                // The partition is gone: ask for fresh metadata (Kafka: UNKNOWN_TOPIC_OR_PARTITION).
                self.metadata_needed = true;
                continue;
            };
            let pos = self.positions.get(tp).copied().unwrap_or(0);
            let take = ((leo - pos).max(0) as u64).min(remaining);
            if take > 0 {
                records.push(RecordRange {
                    partition: tp.clone(),
                    from: pos,
                    to: pos + take as i64,
                });
                match self.positions.get_mut(tp) {
                    Some(p) => *p = pos + take as i64,
                    None => {
                        self.positions.insert(tp.clone(), pos + take as i64);
                    }
                }
                remaining -= take;
            }
        }
        if n > 0 {
            self.fetch_cursor = (self.fetch_cursor + 1) % n;
        }
        sort(&mut records);
        let until = now + SimDuration::from_millis(self.cfg.processing_ms.max(1));
        if self.quiet {
            self.quiet_events += 1;
        } else {
            self.events.push_back(ClientEvent::BatchFetched {
                records: records.clone(),
                until,
            });
        }
        self.last_poll = now;
        self.app = App::Processing(Processing {
            since: now,
            until,
            records,
        });
    }

    pub(super) fn on_fetch_response(&mut self, now: SimTime, r: OffsetFetchResponse) {
        match r.error_code {
            ErrorCode::None => {}
            ErrorCode::CoordinatorNotAvailable | ErrorCode::NotCoordinator => {
                self.react(r.error_code, Api::OffsetFetch, Reaction::RediscoverAndRetry);
                self.mark_coordinator_unknown(now, r.error_code.name());
                return;
            }
            other => {
                self.react(other, Api::OffsetFetch, Reaction::BackOffAndRetry);
                self.backoff(now);
                return;
            }
        }
        let mut positions = Vec::new();
        for p in r.partitions {
            let tp = TopicPartition::new(p.topic, p.partition);
            if !self.owned.contains(&tp) || self.positions.contains_key(&tp) {
                continue;
            }
            if !p.error_code.is_none() {
                self.backoff(now);
                continue;
            }
            let (offset, src) = if p.committed_offset >= 0 {
                (p.committed_offset, PositionSource::Committed)
            } else {
                (0, PositionSource::Earliest)
            };
            self.positions.insert(tp.clone(), offset);
            self.processed.insert(tp.clone(), offset);
            self.last_commit_sent.insert(tp.clone(), offset);
            positions.push((tp, offset, src));
        }
        if !positions.is_empty() {
            self.events
                .push_back(ClientEvent::PositionsInitialized { positions });
        }
    }
}
