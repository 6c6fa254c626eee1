//! Appends that wait for replication (acks=all).
//!
//! By default an append completes at once (one replica, as the coordinator's own tests assume).
//! With [`Coordinator::set_await_replication`] on, an append only writes the record to the leader's
//! log; what depends on it waits, keyed by the record's offset, until the caller reports the
//! partition's high watermark ([`Coordinator::handle_high_watermark`]) or an append error
//! ([`Coordinator::handle_append_error`]). Kafka does the same with its `DelayedProduce` (the old
//! coordinator's `storeGroup` / `storeOffsets` callbacks) and, since 3.x, with the coordinator
//! runtime's deferred events, which complete when the HW passes their records.
//!
//! Errors reach the waiters mapped as Kafka's coordinator maps them for every group operation,
//! OffsetCommit included (`CoordinatorOperationExceptionHelper.handleOperationException`, reference
//! §3.0): `REQUEST_TIMED_OUT` and `NOT_ENOUGH_REPLICAS` become `COORDINATOR_NOT_AVAILABLE`,
//! `NOT_LEADER_OR_FOLLOWER` becomes `NOT_COORDINATOR`.
//!
//! Three things wait: the leader's SyncGroup (its assignment is installed and the group goes
//! Stable only once the group record is replicated), an OffsetCommit (the offsets become visible
//! and the response goes out only once replicated), and a static member's replacement JoinGroup
//! (answered once the new member id is persisted; if it cannot be, the replacement is undone, as
//! Kafka's error callback does, and the old id is the instance's again).
//! Records nobody waits for (a new group's empty record, an Empty group's record, tombstones) are
//! fire-and-forget.

use crate::collections::Map;

use crate::protocol::{
    ConsumerAssignment, ErrorCode, JoinGroupResponse, OffsetCommitPartition, OffsetCommitPartitionResponse,
    OffsetCommitResponse, Response, TopicPartition,
};
use crate::time::SimTime;

use super::event::EventKind;
use super::group::{CommittedOffset, Parked};
use super::join::{self, StaticRevert};
use super::{sync, Coordinator};

/// What runs when an append completes.
#[derive(Clone, Debug)]
pub(crate) enum Waiter {
    /// The leader's SyncGroup: install the assignment (`sync::complete_leader_assignment`).
    LeaderAssignment {
        group_id: String,
        generation: i32,
        assignment: Map<String, ConsumerAssignment>,
    },
    /// An OffsetCommit: store the offsets and answer (Kafka: `onOffsetCommitAppend` /
    /// `failPendingOffsetWrite`).
    OffsetCommit {
        reply: Parked,
        group_id: String,
        /// Every partition's response; those `accepted` get the append's result.
        results: Vec<OffsetCommitPartitionResponse>,
        /// `(index in results, partition, offset)`.
        accepted: Vec<(usize, TopicPartition, CommittedOffset)>,
    },
    /// A static member's replacement JoinGroup, answered once the new member id is persisted, or
    /// undone if it cannot be.
    StaticJoin {
        reply: Parked,
        response: JoinGroupResponse,
        /// Boxed: the other waiters are smaller.
        revert: Box<StaticRevert>,
    },
}

impl Coordinator {
    /// Whether appends wait for [`Coordinator::handle_high_watermark`] (acks=all on a replicated
    /// partition) rather than completing at once (the default).
    pub fn set_await_replication(&mut self, on: bool) {
        self.io.await_replication = on;
    }

    /// The error every append to `partition` gets from now on, before anything is written (e.g.
    /// `NOT_ENOUGH_REPLICAS` while the ISR is smaller than `min.insync.replicas`); `None` lifts it.
    pub fn set_append_error(&mut self, partition: i32, error: Option<ErrorCode>) {
        match error {
            Some(e) => self.io.append_errors.insert(partition, e),
            None => self.io.append_errors.remove(&partition),
        };
    }

    /// The high watermark of a led partition reached `hw`: every append below it is replicated, and
    /// what waited on it runs (responses come out of [`Coordinator::poll_output`]).
    ///
    /// # Panics
    ///
    /// If `now` is earlier than the time of a previous input.
    pub fn handle_high_watermark(&mut self, now: SimTime, partition: i32, hw: u64) {
        self.advance(now);
        let done: Vec<u64> = self
            .io
            .waiting
            .range((partition, 0)..(partition, hw))
            .map(|((_, o), _)| *o)
            .collect();
        for offset in done {
            if let Some(w) = self.io.waiting.remove(&(partition, offset)) {
                self.complete(w, Ok(()));
            }
        }
    }

    /// The append at `offset` of `partition` failed (e.g. `REQUEST_TIMED_OUT` after
    /// `offsets.commit.timeout.ms`): what waited on it gets the mapped error (§3.0).
    ///
    /// # Panics
    ///
    /// If `now` is earlier than the time of a previous input.
    pub fn handle_append_error(&mut self, now: SimTime, partition: i32, offset: u64, error: ErrorCode) {
        self.advance(now);
        if let Some(w) = self.io.waiting.remove(&(partition, offset)) {
            self.io.emit(EventKind::AppendFailed {
                partition,
                offset,
                error,
            });
            self.complete(w, Err(error));
        }
    }

    /// Appends still waiting for replication: `(partition, offset)`.
    pub fn waiting_appends(&self) -> Vec<(i32, u64)> {
        self.io.waiting.keys().copied().collect()
    }

    /// Runs `w` with the append's result, or registers it under `offset` to wait for the HW.
    pub(crate) fn after_append(&mut self, partition: i32, result: Result<u64, ErrorCode>, w: Waiter) {
        if let Some(w) = self.io.wait_or_return(partition, &result, w) {
            self.complete(w, result.map(|_| ()));
        }
    }

    /// The partition is no longer led: what waits on it fails with `NOT_LEADER_OR_FOLLOWER`
    /// (mapped to `NOT_COORDINATOR`), except the leader's SyncGroup, which the unload answers.
    pub(crate) fn fail_waiting(&mut self, partition: i32) {
        let keys: Vec<(i32, u64)> = self
            .io
            .waiting
            .range((partition, 0)..=(partition, u64::MAX))
            .map(|(k, _)| *k)
            .collect();
        for k in keys {
            if let Some(w) = self.io.waiting.remove(&k) {
                if !matches!(w, Waiter::LeaderAssignment { .. }) {
                    self.complete(w, Err(ErrorCode::NotLeaderOrFollower));
                }
            }
        }
    }

    /// Runs what waited on an append, with its result.
    pub(crate) fn complete(&mut self, w: Waiter, result: Result<(), ErrorCode>) {
        match w {
            Waiter::LeaderAssignment {
                group_id,
                generation,
                assignment,
            } => {
                if let Some(g) = self.groups.get_mut(&group_id) {
                    sync::complete_leader_assignment(g, &mut self.io, generation, assignment, result);
                }
            }
            Waiter::OffsetCommit {
                reply,
                group_id,
                mut results,
                accepted,
            } => {
                match result {
                    Ok(()) => {
                        let mut partitions = Vec::new();
                        if let Some(g) = self.groups.get_mut(&group_id) {
                            for (_, tp, offset) in accepted {
                                if !self.io.quiet {
                                    // The request's partition, as the event log shows it.
                                    partitions.push(OffsetCommitPartition {
                                        topic: tp.topic.clone(),
                                        partition: tp.partition,
                                        committed_offset: offset.offset,
                                        committed_leader_epoch: offset.leader_epoch,
                                        committed_metadata: offset.metadata.clone(),
                                    });
                                }
                                g.offsets.insert(tp, offset);
                            }
                        }
                        if !partitions.is_empty() {
                            self.io.emit(EventKind::OffsetsCommitted { group_id, partitions });
                        }
                    }
                    Err(e) => {
                        let code = e.append_error_to_response_error();
                        for (i, ..) in accepted {
                            results[i].error_code = code;
                        }
                    }
                }
                self.io.respond(
                    reply,
                    Response::OffsetCommit(OffsetCommitResponse { partitions: results }),
                );
            }
            Waiter::StaticJoin {
                reply,
                response,
                revert,
            } => {
                let response = match result {
                    Ok(()) => response,
                    // Kafka reverts the replacement (the old id is the instance's again).
                    Err(e) => match self.groups.get_mut(&revert.group_id) {
                        Some(g) => join::revert_static_replacement(g, &mut self.io, &revert, e),
                        None => JoinGroupResponse::error(e.append_error_to_response_error(), ""),
                    },
                };
                self.io.respond(reply, Response::JoinGroup(response));
            }
        }
    }
}
