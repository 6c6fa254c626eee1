//! Reconciliation (Kafka: `AbstractMembershipManager.maybeReconcile`, `revokeAndAssign`,
//! `ConsumerMembershipManager.signalReconciliationStarted`), reference §3 and §11:
//!
//! 1. the background thread compares the target with what the member owns; the partitions to
//!    revoke stop being fetched (`markPendingRevocation`);
//! 2. with `enable.auto.commit`, it commits everything consumed and waits for the answer
//!    (`maybeAutoCommitSyncBeforeRebalance`; a failure does not stop the reconciliation);
//! 3. the application thread, at its next `poll()`, runs `onPartitionsRevoked` for what goes (whose
//!    listener may `commitSync` and block), drops those partitions, then takes the new ones and runs
//!    `onPartitionsAssigned` (called even with nothing added);
//! 4. the member owns its target: ACKNOWLEDGING, and the next heartbeat, sent at once, reports it.

use super::{ConsumerMemberState, ConsumerProtocolEvent};
use crate::client::{ClientEvent, CommitMode, CommitReason, Consumer};
use crate::protocol::TopicPartition;
use crate::time::SimTime;

/// Where a reconciliation is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// Waiting for the auto-commit before the rebalance (its correlation id).
    AutoCommit(i32),
    /// Waiting for the application thread to run the callbacks.
    Callbacks,
    /// `onPartitionsRevoked` is running and its listener's `commitSync` is in flight.
    RevokeCommit,
}

/// A reconciliation in progress.
#[derive(Clone, Debug)]
pub(crate) struct Reconciliation {
    /// Its local epoch.
    pub(crate) local_epoch: i64,
    /// Owned partitions not in the target (fetching them stopped).
    pub(crate) revoking: Vec<TopicPartition>,
    /// Target partitions not owned yet.
    pub(crate) adding: Vec<TopicPartition>,
    pub(crate) step: Step,
}

impl Consumer {
    /// Background thread: starts a reconciliation when the member is RECONCILING towards a target
    /// it has not reconciled, and none is running.
    pub(in crate::client) fn maybe_reconcile(&mut self, now: SimTime) {
        let Some(m) = self.kip848() else {
            return;
        };
        if m.state != ConsumerMemberState::Reconciling
            || m.reconciliation.is_some()
            || m.pending_loss.is_some()
            || m.reconciled()
        {
            return;
        }
        let target = m.target.clone().unwrap_or_default();
        let local_epoch = m.target_local_epoch;
        let member_epoch = m.epoch;
        let revoking: Vec<TopicPartition> = self.owned.difference(&target).cloned().collect();
        let adding: Vec<TopicPartition> = target.difference(&self.owned).cloned().collect();
        self.events.push_back(ClientEvent::ConsumerProtocol(
            ConsumerProtocolEvent::ReconciliationStarted {
                member_epoch,
                target: target.iter().cloned().collect(),
                revoking: revoking.clone(),
                adding: adding.clone(),
            },
        ));
        let step = match self.cfg.commit {
            CommitMode::Auto { .. } => self
                .commit_consumed(now, CommitReason::AutoCommitBeforeRebalance)
                .map_or(Step::Callbacks, Step::AutoCommit),
            _ => Step::Callbacks,
        };
        if let Some(m) = self.kip848.as_deref_mut() {
            m.reconciliation = Some(Reconciliation {
                local_epoch,
                revoking,
                adding,
                step,
            });
        }
    }

    /// Background thread: the auto-commit before the rebalance was answered (or failed).
    pub(in crate::client) fn reconcile_commit_done(&mut self) {
        let waiting = self
            .kip848()
            .and_then(|m| m.reconciliation.as_ref())
            .and_then(|r| match r.step {
                Step::AutoCommit(c) => Some(c),
                _ => None,
            });
        if let Some(c) = waiting {
            if !self.in_flight.contains_key(&c) {
                if let Some(r) = self.kip848.as_deref_mut().and_then(|m| m.reconciliation.as_mut()) {
                    r.step = Step::Callbacks;
                }
            }
        }
    }

    /// Application thread, inside `poll()`: runs the reconciliation's callbacks. Returns `true`
    /// while `poll()` is blocked in the listener (its `commitSync` in `onPartitionsRevoked`).
    pub(in crate::client) fn run_reconciliation_callbacks(&mut self, now: SimTime) -> bool {
        let Some(r) = self.kip848().and_then(|m| m.reconciliation.clone()) else {
            return false;
        };
        match r.step {
            Step::AutoCommit(_) => return false,
            Step::RevokeCommit => {
                if self.blocking_commit.is_some() {
                    return true;
                }
            }
            Step::Callbacks => {
                if !r.revoking.is_empty() {
                    self.events.push_back(ClientEvent::PartitionsRevoked {
                        partitions: r.revoking.clone(),
                    });
                    if self.cfg.commit_in_revoke {
                        self.blocking_commit =
                            self.commit_partitions(now, CommitReason::InRevoke, Some(&r.revoking));
                        if self.blocking_commit.is_some() {
                            if let Some(rec) =
                                self.kip848.as_deref_mut().and_then(|m| m.reconciliation.as_mut())
                            {
                                rec.step = Step::RevokeCommit;
                            }
                            return true;
                        }
                    }
                }
            }
        }
        // The revocation callback returned: drop what it revoked, then assign.
        for tp in &r.revoking {
            self.owned.remove(tp);
            self.positions.remove(tp);
            self.processed.remove(tp);
        }
        for tp in &r.adding {
            self.owned.insert(tp.clone());
        }
        self.events.push_back(ClientEvent::PartitionsAssigned {
            partitions: r.adding.clone(),
        });
        let member_epoch = self.generation;
        let Some(m) = self.kip848.as_deref_mut() else {
            return false;
        };
        m.reconciliation = None;
        m.current_local_epoch = r.local_epoch;
        self.events.push_back(ClientEvent::ConsumerProtocol(
            ConsumerProtocolEvent::ReconciliationCompleted {
                member_epoch,
                partitions: self.owned.iter().cloned().collect(),
            },
        ));
        if self
            .kip848()
            .is_some_and(|m| m.state == ConsumerMemberState::Reconciling)
        {
            self.transition(ConsumerMemberState::Acknowledging);
            if let Some(m) = self.kip848.as_deref_mut() {
                m.heartbeat_now = true;
            }
        }
        false
    }

    /// Drops a reconciliation in progress (fenced, leaving): its callbacks will not run.
    pub(in crate::client) fn discard_reconciliation(&mut self, reason: &str) {
        if let Some(m) = self.kip848.as_deref_mut() {
            if m.reconciliation.take().is_some() {
                self.blocking_commit = None;
                self.events.push_back(ClientEvent::ConsumerProtocol(
                    ConsumerProtocolEvent::ReconciliationDiscarded {
                        reason: reason.into(),
                    },
                ));
            }
        }
    }

    /// The partitions a reconciliation in progress is revoking (the view's "revoking").
    pub(in crate::client) fn kip848_revoking(&self) -> &[TopicPartition] {
        self.kip848()
            .and_then(|m| m.reconciliation.as_ref())
            .map_or(&[], |r| r.revoking.as_slice())
    }
}
