//! Committing offsets: OffsetCommit (auto-commit, the application's commits, the listener's
//! commit in `onPartitionsRevoked`, the commit on close) and the reactions to its response
//! (reference §8.1). Kafka refuses to commit outside a stable generation (`generationIfStable`).

use super::{
    ClientEvent, CommitMode, CommitReason, CommitSkip, Consumer, ConsumerMemberState, InFlight, MemberState,
    Reaction, ResetReason,
};
use crate::protocol::{
    Api, ErrorCode, OffsetCommitPartition, OffsetCommitRequest, Request, TopicPartition,
    OFFSET_COMMIT_LATEST_VERSION,
};
use crate::time::{SimDuration, SimTime};
impl Consumer {
    /// `enable.auto.commit`: inside `poll()`, once `auto.commit.interval.ms` has passed since the
    /// last auto-commit (Kafka: `maybeAutoCommitOffsetsAsync`).
    pub(super) fn maybe_auto_commit(&mut self, now: SimTime) {
        if let CommitMode::Auto { interval_ms } = self.cfg.commit {
            if now >= self.next_auto_commit {
                self.next_auto_commit = now + SimDuration::from_millis(interval_ms);
                self.commit(now, CommitReason::AutoCommit);
            }
        }
    }

    /// Commits the processed offsets; returns the OffsetCommit's correlation id if one was sent.
    pub(super) fn commit(&mut self, now: SimTime, reason: CommitReason) -> Option<i32> {
        self.commit_partitions(now, reason, None)
    }

    /// Commits the processed offsets of `only` (or every owned partition) that differ from what was
    /// last sent. Kafka refuses to commit outside a stable generation (`generationIfStable`).
    /// Returns the OffsetCommit's correlation id if one was sent.
    pub(super) fn commit_partitions(
        &mut self,
        now: SimTime,
        reason: CommitReason,
        only: Option<&[TopicPartition]>,
    ) -> Option<i32> {
        self.commit_offsets(now, reason, only, false)
    }

    /// Commits what `poll()` has returned so far (the fetch positions: Kafka's
    /// `subscriptions.allConsumed()`), which is more than what was processed while a batch is in
    /// progress. The consumer protocol's background thread commits this way before a
    /// reconciliation (`maybeAutoCommitSyncBeforeRebalance`).
    pub(super) fn commit_consumed(&mut self, now: SimTime, reason: CommitReason) -> Option<i32> {
        self.commit_offsets(now, reason, None, true)
    }

    fn commit_offsets(
        &mut self,
        now: SimTime,
        reason: CommitReason,
        only: Option<&[TopicPartition]>,
        consumed: bool,
    ) -> Option<i32> {
        let source = if consumed {
            &self.positions
        } else {
            &self.processed
        };
        let offsets: Vec<(TopicPartition, i64)> = source
            .iter()
            .filter(|(tp, _)| only.is_none_or(|o| o.contains(tp)))
            .filter(|(tp, o)| match self.last_commit_sent.get(*tp) {
                // The consumer protocol may have committed what was consumed (more than what
                // was processed) before a reconciliation: never commit backwards after it.
                Some(sent) if self.kip848.is_some() => **o > *sent,
                Some(sent) => sent != *o,
                None => true,
            })
            .map(|(tp, o)| (tp.clone(), *o))
            .collect();
        if offsets.is_empty() {
            return None;
        }
        let in_group = match self.consumer_member_state() {
            // The consumer protocol commits with the member epoch whenever it has one.
            Some(state) => {
                self.generation > 0
                    && matches!(
                        state,
                        ConsumerMemberState::Reconciling
                            | ConsumerMemberState::Acknowledging
                            | ConsumerMemberState::Stable
                            | ConsumerMemberState::PrepareLeaving
                    )
            }
            None => self.state == MemberState::Stable && self.generation_valid(),
        };
        if !in_group {
            self.events.push_back(ClientEvent::CommitSkipped {
                reason,
                why: CommitSkip::NotStable,
            });
            return None;
        }
        if self.coordinator.is_none() {
            self.events.push_back(ClientEvent::CommitSkipped {
                reason,
                why: CommitSkip::CoordinatorUnknown,
            });
            return None;
        }
        for (tp, o) in &offsets {
            match self.last_commit_sent.get_mut(tp) {
                Some(sent) => *sent = *o,
                None => {
                    self.last_commit_sent.insert(tp.clone(), *o);
                }
            }
        }
        let req = Request::OffsetCommit(OffsetCommitRequest {
            api_version: OFFSET_COMMIT_LATEST_VERSION,
            group_id: self.cfg.group_id.clone(),
            generation_id: self.generation,
            member_id: self.member_id.clone(),
            group_instance_id: self.cfg.group_instance_id.clone(),
            retention_time_ms: None,
            partitions: offsets
                .iter()
                .map(|(tp, o)| OffsetCommitPartition {
                    topic: tp.topic.clone(),
                    partition: tp.partition,
                    committed_offset: *o,
                    committed_leader_epoch: -1,
                    committed_metadata: String::new(),
                })
                .collect(),
        });
        if self.quiet {
            self.quiet_events += 1;
        } else {
            self.events.push_back(ClientEvent::CommitSent {
                reason,
                offsets: offsets.clone(),
            });
        }
        let corr = self.send(now, Api::OffsetCommit, req);
        if let Some(f) = self.in_flight.get_mut(&corr) {
            f.commit = Some((reason, offsets));
        }
        Some(corr)
    }

    pub(super) fn forget_commit(&mut self, offsets: &[(TopicPartition, i64)]) {
        for (tp, o) in offsets {
            if self.last_commit_sent.get(tp) == Some(o) {
                self.last_commit_sent.remove(tp);
            }
        }
    }

    /// A commit that something waited for was answered or failed: the wait ends.
    pub(super) fn commit_resolved(&mut self, correlation_id: i32) {
        if self.join_commit == Some(correlation_id) {
            self.join_commit = None;
        }
        if self.blocking_commit == Some(correlation_id) {
            self.blocking_commit = None;
        }
    }

    pub(super) fn on_commit_response(&mut self, now: SimTime, f: &mut InFlight, e: ErrorCode) {
        let Some((reason, offsets)) = f.commit.take() else {
            return;
        };
        if !e.is_none() {
            // Touches no events, so doing it before the event below keeps the event order.
            self.forget_commit(&offsets);
        }
        self.events.push_back(ClientEvent::CommitCompleted {
            reason,
            offsets,
            error: e,
        });
        if e.is_none() {
            return;
        }
        let same_generation = f.generation == self.generation && f.member_id == self.member_id;
        if self.kip848.is_some() {
            // The consumer protocol: a failed commit changes no membership (the heartbeat finds
            // out about fencing); only a lost coordinator is acted on.
            match e {
                ErrorCode::CoordinatorNotAvailable | ErrorCode::NotCoordinator => {
                    self.react(e, Api::OffsetCommit, Reaction::CommitRediscover);
                    self.mark_coordinator_unknown(now, e.name());
                }
                other => self.react(other, Api::OffsetCommit, Reaction::CommitFailed),
            }
            return;
        }
        match e {
            ErrorCode::UnknownMemberId | ErrorCode::IllegalGeneration => {
                let keep = e == ErrorCode::IllegalGeneration;
                if self.state != MemberState::Stable || !same_generation {
                    // A rebalance is already under way with a newer generation.
                    self.react(e, Api::OffsetCommit, Reaction::CommitFailedRebalanceGoesOn);
                } else {
                    self.react(
                        e,
                        Api::OffsetCommit,
                        if keep {
                            Reaction::CommitFailedResetKeepMemberIdAndRejoin
                        } else {
                            Reaction::CommitFailedResetAndRejoin
                        },
                    );
                    self.reset_generation(
                        keep,
                        ResetReason::Error {
                            api: Api::OffsetCommit,
                            error: e,
                        },
                    );
                }
            }
            ErrorCode::RebalanceInProgress => {
                self.react(e, Api::OffsetCommit, Reaction::CommitFailedRequestRejoin);
                self.request_rejoin("OffsetCommit got REBALANCE_IN_PROGRESS");
            }
            ErrorCode::FencedInstanceId if same_generation => {
                self.react(e, Api::OffsetCommit, Reaction::CommitFatal);
                self.fatal("OffsetCommit failed with FENCED_INSTANCE_ID: another consumer now uses this group.instance.id".into());
            }
            ErrorCode::FencedInstanceId => {
                self.react(e, Api::OffsetCommit, Reaction::CommitFailedGenerationChanged);
            }
            ErrorCode::CoordinatorNotAvailable | ErrorCode::NotCoordinator => {
                self.react(e, Api::OffsetCommit, Reaction::CommitRediscover);
                self.mark_coordinator_unknown(now, e.name());
            }
            other => {
                self.react(other, Api::OffsetCommit, Reaction::CommitFailed);
            }
        }
    }
}
