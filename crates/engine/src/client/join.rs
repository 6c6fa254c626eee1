//! Joining the group, Kafka's `ConsumerCoordinator` / `AbstractCoordinator` join flow:
//! `onJoinPrepare` (auto-commit, then revocation or loss), JoinGroup, the leader's assignor,
//! SyncGroup, `onJoinComplete` (revocation, then `onPartitionsAssigned`), and the way out of a
//! generation: `maybeLeaveGroup` and the generation resets (reference §8.2-§8.4).

use crate::collections::Map;
use crate::collections::Set;

use super::{
    clamp_i32, ClientEvent, CommitMode, CommitReason, Consumer, IgnoreReason, InFlight, MemberState,
    Reaction, ResetReason,
};
use crate::assignor::{assign, MemberSubscription, RebalanceProtocol, Strategy};
use crate::protocol::{
    Api, ConsumerAssignment, ConsumerSubscription, ErrorCode, JoinGroupProtocol, JoinGroupRequest,
    JoinGroupResponse, LeaveGroupRequest, MemberIdentity, Request, SyncGroupAssignment, SyncGroupRequest,
    SyncGroupResponse, TopicPartition, CONSUMER_PROTOCOL_TYPE, JOIN_GROUP_LATEST_VERSION, NO_GENERATION,
};
use crate::time::{SimDuration, SimTime};
/// How far `onJoinPrepare` got for the next JoinGroup (it may have to wait for an OffsetCommit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum JoinPrepare {
    /// Not started: the auto-commit before the rebalance comes first.
    Start,
    /// The auto-commit was sent (or was not needed); the revocation comes next.
    Revoke,
    /// Done: the JoinGroup can be sent.
    Done,
}

/// Partitions being given up (the client state "revoking").
#[derive(Clone, Debug)]
pub(super) struct Revocation {
    /// The partitions.
    pub(super) partitions: Vec<TopicPartition>,
    /// Whether `onPartitionsRevoked` was called for them; `false` while they are only pending
    /// revocation (eager: `onJoinPrepare`'s auto-commit runs first).
    pub(super) called: bool,
    /// Cooperative `onJoinComplete`: the partitions `onPartitionsAssigned` gets once the
    /// revocation ends (Kafka calls the assignment callback after the revocation callback).
    pub(super) then_assign: Option<Vec<TopicPartition>>,
}

/// An assignment received in SyncGroup, installed at the next `poll()` (`onJoinComplete`).
#[derive(Clone, Debug)]
pub(super) struct PendingAssignment {
    pub(super) generation: i32,
    pub(super) partitions: Set<TopicPartition>,
}

impl Consumer {
    /// Kafka: `ConsumerCoordinator.onJoinPrepare` (§8.2 step 1, §8.3 step 1, §8.4), resumable:
    /// returns `true` once the JoinGroup may be sent, `false` while it waits for an OffsetCommit
    /// (its own auto-commit, or the listener's commit in `onPartitionsRevoked`).
    ///
    /// Simplification: a failed auto-commit is not retried (Kafka retries retriable errors until the
    /// rebalance timeout); the join goes on, as it does after a non-retriable failure.
    pub(super) fn on_join_prepare(&mut self, now: SimTime) -> bool {
        loop {
            if self.join_commit.is_some() || self.blocking_commit.is_some() {
                return false;
            }
            self.finish_revocation();
            match self.join_prepare {
                JoinPrepare::Start => {
                    self.join_prepare = JoinPrepare::Revoke;
                    self.join_prepare_commit(now);
                }
                JoinPrepare::Revoke => {
                    self.join_prepare = JoinPrepare::Done;
                    self.join_prepare_revoke(now);
                }
                JoinPrepare::Done => return true,
            }
        }
    }

    /// Both protocols auto-commit first and wait for the result (Kafka:
    /// `maybeAutoCommitOffsetsAsync` at the top of `onJoinPrepare`); an eager consumer marks every
    /// owned partition pending revocation before it (`maybeMarkPartitionsPendingRevocation`), so
    /// nothing more is fetched from them.
    pub(super) fn join_prepare_commit(&mut self, now: SimTime) {
        if !matches!(self.cfg.commit, CommitMode::Auto { .. }) || !self.generation_valid() {
            return;
        }
        let Some(corr) = self.commit(now, CommitReason::AutoCommitBeforeRebalance) else {
            return;
        };
        self.join_commit = Some(corr);
        if self.protocol == RebalanceProtocol::Eager && !self.owned.is_empty() {
            self.revoking = Some(Revocation {
                partitions: self.owned.iter().cloned().collect(),
                called: false,
                then_assign: None,
            });
        }
    }

    /// The revocation step of `onJoinPrepare`: eager revokes everything, cooperative only the
    /// partitions of topics no longer subscribed; a member whose generation was reset loses them
    /// instead (§8.4).
    pub(super) fn join_prepare_revoke(&mut self, now: SimTime) {
        // Pending revocation ends here: the callback takes over (or they are lost).
        self.revoking = None;
        if self.owned.is_empty() {
            return;
        }
        if !self.generation_valid() {
            let parts: Vec<TopicPartition> = self.owned.iter().cloned().collect();
            self.events
                .push_back(ClientEvent::PartitionsLost { partitions: parts });
            self.drop_partitions_all();
            return;
        }
        let revoked: Vec<TopicPartition> = match self.protocol {
            RebalanceProtocol::Eager => self.owned.iter().cloned().collect(),
            RebalanceProtocol::Cooperative => self
                .owned
                .iter()
                .filter(|tp| !self.subscribed.contains(&tp.topic))
                .cloned()
                .collect(),
        };
        if !revoked.is_empty() {
            self.revoke(now, revoked, None);
        }
    }

    /// `onPartitionsRevoked(partitions)` and the listener's commit. The partitions are dropped (and
    /// `then_assign` handed to `onPartitionsAssigned`) when the revocation ends: at once, or when
    /// the listener's OffsetCommit is answered.
    pub(super) fn revoke(
        &mut self,
        now: SimTime,
        partitions: Vec<TopicPartition>,
        then_assign: Option<Vec<TopicPartition>>,
    ) {
        self.events.push_back(ClientEvent::PartitionsRevoked {
            partitions: partitions.clone(),
        });
        if self.cfg.commit_in_revoke {
            self.blocking_commit = self.commit_partitions(now, CommitReason::InRevoke, Some(&partitions));
        }
        self.revoking = Some(Revocation {
            partitions,
            called: true,
            then_assign,
        });
        self.finish_revocation();
    }

    /// Ends a revocation whose callback returned (no commit awaited any more): drops its
    /// partitions, then runs what follows it.
    pub(super) fn finish_revocation(&mut self) {
        if self.blocking_commit.is_some() || !self.revoking.as_ref().is_some_and(|r| r.called) {
            return;
        }
        let Some(r) = self.revoking.take() else {
            return;
        };
        for tp in &r.partitions {
            self.owned.remove(tp);
            self.positions.remove(tp);
            self.processed.remove(tp);
        }
        if let Some(added) = r.then_assign {
            // Kafka: `onJoinComplete` requests the rejoin after the revocation callback returned,
            // then calls `onPartitionsAssigned` (even with nothing added).
            if self.protocol == RebalanceProtocol::Cooperative {
                self.request_rejoin(
                    "cooperative: partitions were revoked, so a second rebalance can hand them out",
                );
            }
            for tp in &added {
                self.owned.insert(tp.clone());
            }
            self.events
                .push_back(ClientEvent::PartitionsAssigned { partitions: added });
        }
    }

    pub(super) fn drop_partitions_all(&mut self) {
        self.owned.clear();
        self.positions.clear();
        self.processed.clear();
    }

    pub(super) fn send_join_group(&mut self, now: SimTime) {
        let metadata = ConsumerSubscription {
            topics: self.subscribed.clone(),
            owned_partitions: self.owned.iter().cloned().collect(),
            generation_id: self.generation,
            user_data: Vec::new(),
        };
        let reason = if self.member_id.is_empty() && !self.generation_valid() {
            "need to (re)join with a new member id".to_owned()
        } else {
            "rebalance requested".to_owned()
        };
        let req = Request::JoinGroup(JoinGroupRequest {
            api_version: JOIN_GROUP_LATEST_VERSION,
            group_id: self.cfg.group_id.clone(),
            member_id: self.member_id.clone(),
            group_instance_id: self.cfg.group_instance_id.clone(),
            client_id: self.cfg.client_id.clone(),
            client_host: "/127.0.0.1".into(),
            protocol_type: CONSUMER_PROTOCOL_TYPE.into(),
            protocols: self
                .cfg
                .assignors
                .iter()
                .map(|a| JoinGroupProtocol {
                    name: a.name().into(),
                    metadata: metadata.clone(),
                })
                .collect(),
            session_timeout_ms: clamp_i32(self.cfg.session_timeout_ms),
            rebalance_timeout_ms: clamp_i32(self.cfg.max_poll_interval_ms),
            reason: Some(reason),
        });
        self.joined_subscription = self.subscribed.clone();
        self.rejoin_needed = false;
        self.set_state(MemberState::PreparingRebalance);
        self.send(now, Api::JoinGroup, req);
    }

    pub(super) fn on_join_response(&mut self, now: SimTime, f: &InFlight, r: JoinGroupResponse) {
        if self.state != MemberState::PreparingRebalance {
            self.events.push_back(ClientEvent::ResponseIgnored {
                api: Api::JoinGroup,
                correlation_id: f.correlation_id,
                why: IgnoreReason::NoLongerJoining,
            });
            return;
        }
        let e = r.error_code;
        match e {
            ErrorCode::None => {
                self.member_id = r.member_id.clone();
                self.generation = r.generation_id;
                self.protocol_name = r.protocol_name.clone();
                self.is_leader = r.leader == self.member_id;
                let protocol = r.protocol_name.clone().unwrap_or_default();
                self.events.push_back(ClientEvent::JoinedGroup {
                    generation_id: r.generation_id,
                    member_id: r.member_id.clone(),
                    leader: r.leader.clone(),
                    protocol: protocol.clone(),
                    is_leader: self.is_leader,
                });
                // The heartbeat thread starts (Kafka enables it on entering COMPLETING_REBALANCE).
                self.set_state(MemberState::CompletingRebalance);
                self.last_heartbeat_ack = now;
                self.next_heartbeat = now + SimDuration::from_millis(self.cfg.heartbeat_interval_ms);
                let assignments = if self.is_leader && !r.skip_assignment {
                    match protocol.parse::<Strategy>() {
                        Ok(strategy) => self.run_assignor(strategy, &r),
                        Err(_) => {
                            self.fatal(format!(
                                "the group selected protocol `{protocol}`, which this consumer cannot run"
                            ));
                            return;
                        }
                    }
                } else {
                    Vec::new()
                };
                let req = Request::SyncGroup(SyncGroupRequest {
                    group_id: self.cfg.group_id.clone(),
                    generation_id: self.generation,
                    member_id: self.member_id.clone(),
                    group_instance_id: self.cfg.group_instance_id.clone(),
                    protocol_type: Some(CONSUMER_PROTOCOL_TYPE.into()),
                    protocol_name: r.protocol_name.clone(),
                    assignments,
                });
                self.send(now, Api::SyncGroup, req);
            }
            ErrorCode::MemberIdRequired => {
                self.member_id = r.member_id.clone();
                self.events.push_back(ClientEvent::MemberIdAssigned {
                    member_id: r.member_id,
                });
                self.send_join_group(now);
            }
            ErrorCode::UnknownMemberId => {
                self.react(e, Api::JoinGroup, Reaction::ResetAndRejoin);
                if f.generation == self.generation {
                    self.reset_generation(
                        false,
                        ResetReason::Error {
                            api: Api::JoinGroup,
                            error: e,
                        },
                    );
                } else {
                    self.set_state(MemberState::Unjoined);
                }
            }
            ErrorCode::IllegalGeneration => {
                self.react(e, Api::JoinGroup, Reaction::ResetKeepMemberIdAndRejoin);
                self.reset_generation(
                    true,
                    ResetReason::Error {
                        api: Api::JoinGroup,
                        error: e,
                    },
                );
            }
            ErrorCode::RebalanceInProgress => {
                self.react(e, Api::JoinGroup, Reaction::RetryJoin);
                self.set_state(MemberState::Unjoined);
            }
            ErrorCode::CoordinatorNotAvailable | ErrorCode::NotCoordinator => {
                self.react(e, Api::JoinGroup, Reaction::RediscoverAndRetry);
                self.set_state(MemberState::Unjoined);
                self.mark_coordinator_unknown(now, e.name());
            }
            ErrorCode::CoordinatorLoadInProgress => {
                self.react(e, Api::JoinGroup, Reaction::BackOffAndRetry);
                self.set_state(MemberState::Unjoined);
                self.backoff(now);
            }
            ErrorCode::FencedInstanceId => {
                self.react(e, Api::JoinGroup, Reaction::FatalFenced);
                self.fatal("JoinGroup failed with FENCED_INSTANCE_ID: another consumer now uses this group.instance.id".into());
            }
            other => {
                self.react(other, Api::JoinGroup, Reaction::FatalThrown);
                self.fatal(format!("JoinGroup failed with {other}"));
            }
        }
    }

    pub(super) fn run_assignor(
        &mut self,
        strategy: Strategy,
        r: &JoinGroupResponse,
    ) -> Vec<SyncGroupAssignment> {
        let members: Vec<MemberSubscription> = r
            .members
            .iter()
            .map(|m| {
                let mut owned: Map<String, Vec<i32>> = Map::new();
                for tp in &m.metadata.owned_partitions {
                    owned.entry(tp.topic.clone()).or_default().push(tp.partition);
                }
                MemberSubscription {
                    member_id: m.member_id.clone(),
                    group_instance_id: m.group_instance_id.clone(),
                    topics: m.metadata.topics.clone(),
                    owned_partitions: owned,
                    generation: (m.metadata.generation_id >= 0).then_some(m.metadata.generation_id),
                }
            })
            .collect();
        // The leader's metadata for every topic the group subscribes to (a topic that does not
        // exist yet is remembered with 0 partitions, so its creation is noticed).
        let group_topics: Set<String> = Set::from_iter(members.iter().flat_map(|m| m.topics.iter().cloned()));
        let snapshot: Map<String, i32> = Map::from_iter(
            group_topics
                .iter()
                .map(|t| (t.clone(), self.metadata.get(t).copied().unwrap_or(0))),
        );
        let partitions: Map<String, i32> = Map::from_iter(
            snapshot
                .iter()
                .filter(|(_, n)| **n > 0)
                .map(|(t, n)| (t.clone(), *n)),
        );
        let result = assign(strategy, &partitions, &members);
        self.assignment_snapshot = Some(snapshot);
        let mut out = Vec::new();
        let mut shown = Vec::new();
        for m in &r.members {
            let mut parts = Vec::new();
            if let Some(per_topic) = result.get(&m.member_id) {
                for (t, ps) in per_topic {
                    for p in ps {
                        parts.push(TopicPartition::new(t.clone(), *p));
                    }
                }
            }
            shown.push((m.member_id.clone(), parts.clone()));
            out.push(SyncGroupAssignment {
                member_id: m.member_id.clone(),
                assignment: ConsumerAssignment {
                    partitions: parts,
                    user_data: Vec::new(),
                },
            });
        }
        self.events.push_back(ClientEvent::AssignmentComputed {
            strategy,
            generation_id: r.generation_id,
            assignment: shown,
        });
        out
    }

    pub(super) fn on_sync_response(&mut self, now: SimTime, f: &InFlight, r: SyncGroupResponse) {
        if self.state != MemberState::CompletingRebalance || f.generation != self.generation {
            self.events.push_back(ClientEvent::ResponseIgnored {
                api: Api::SyncGroup,
                correlation_id: f.correlation_id,
                why: IgnoreReason::GenerationLeft,
            });
            return;
        }
        let e = r.error_code;
        match e {
            ErrorCode::None => {
                let partitions: Set<TopicPartition> = Set::from_iter(r.assignment.partitions.iter().cloned());
                self.events.push_back(ClientEvent::AssignmentReceived {
                    generation_id: self.generation,
                    partitions: partitions.iter().cloned().collect(),
                });
                self.set_state(MemberState::Stable);
                self.pending_assignment = Some(PendingAssignment {
                    generation: self.generation,
                    partitions,
                });
            }
            ErrorCode::UnknownMemberId => {
                self.react(e, Api::SyncGroup, Reaction::ResetAndRejoin);
                self.reset_generation(
                    false,
                    ResetReason::Error {
                        api: Api::SyncGroup,
                        error: e,
                    },
                );
            }
            ErrorCode::IllegalGeneration => {
                self.react(e, Api::SyncGroup, Reaction::ResetKeepMemberIdAndRejoin);
                self.reset_generation(
                    true,
                    ResetReason::Error {
                        api: Api::SyncGroup,
                        error: e,
                    },
                );
            }
            ErrorCode::RebalanceInProgress => {
                self.react(e, Api::SyncGroup, Reaction::RejoinKeepGeneration);
                self.set_state(MemberState::Unjoined);
                self.rejoin_needed = true;
            }
            ErrorCode::CoordinatorNotAvailable | ErrorCode::NotCoordinator => {
                self.react(e, Api::SyncGroup, Reaction::RediscoverAndRejoin);
                self.set_state(MemberState::Unjoined);
                self.mark_coordinator_unknown(now, e.name());
            }
            ErrorCode::FencedInstanceId => {
                self.react(e, Api::SyncGroup, Reaction::FatalFenced);
                self.fatal("SyncGroup failed with FENCED_INSTANCE_ID: another consumer now uses this group.instance.id".into());
            }
            other => {
                self.react(other, Api::SyncGroup, Reaction::FatalThrown);
                self.fatal(format!("SyncGroup failed with {other}"));
            }
        }
    }

    /// Kafka: `ConsumerCoordinator.onJoinComplete` (§8.2 step 3, §8.3 step 4).
    pub(super) fn on_join_complete(&mut self, now: SimTime, assigned: Set<TopicPartition>) {
        self.join_prepare = JoinPrepare::Start;
        self.assignment_generation = self.generation;
        let revoked: Vec<TopicPartition> = self.owned.difference(&assigned).cloned().collect();
        let added: Vec<TopicPartition> = assigned.difference(&self.owned).cloned().collect();
        if !revoked.is_empty() {
            // Eager consumers revoked everything before joining, so only cooperative ones get here.
            // The rejoin request and `onPartitionsAssigned` follow when the revocation ends.
            self.revoke(now, revoked, Some(added));
            return;
        }
        for tp in &added {
            self.owned.insert(tp.clone());
        }
        self.events
            .push_back(ClientEvent::PartitionsAssigned { partitions: added });
    }

    /// Kafka: `AbstractCoordinator.maybeLeaveGroup`. A dynamic member that is in the group sends
    /// LeaveGroup (a static member never does, KIP-345); then every member resets its generation and
    /// member id and becomes UNJOINED (`resetGenerationOnLeaveGroup`), whether it sent anything or
    /// not. `reset_reason` is what the reset event says.
    pub(super) fn maybe_leave_group(&mut self, now: SimTime, reason: &str, reset_reason: ResetReason) {
        let sends = !self.cfg.is_static()
            && self.coordinator.is_some()
            && !self.member_id.is_empty()
            && self.state != MemberState::Unjoined;
        if sends {
            let req = Request::LeaveGroup(LeaveGroupRequest {
                group_id: self.cfg.group_id.clone(),
                members: vec![MemberIdentity {
                    member_id: self.member_id.clone(),
                    group_instance_id: None,
                    reason: Some(reason.into()),
                }],
            });
            self.send(now, Api::LeaveGroup, req);
        }
        // Nothing to reset for a consumer that never got a member id or a generation.
        if self.generation != NO_GENERATION
            || !self.member_id.is_empty()
            || self.state != MemberState::Unjoined
        {
            self.reset_generation(false, reset_reason);
        }
    }

    /// Kafka: `resetGenerationOnResponseError` / `resetStateAndRejoin`.
    pub(super) fn reset_generation(&mut self, keep_member_id: bool, reason: ResetReason) {
        self.generation = NO_GENERATION;
        self.protocol_name = None;
        if !keep_member_id {
            self.member_id.clear();
        }
        self.is_leader = false;
        self.assignment_snapshot = None;
        self.pending_assignment = None;
        self.events.push_back(ClientEvent::GenerationReset {
            member_id_kept: keep_member_id,
            reason,
        });
        self.set_state(MemberState::Unjoined);
        self.rejoin_needed = true;
        // The next join must run onJoinPrepare again, which now reports the owned partitions lost
        // (§8.4): they may already belong to someone else. A revocation under way still ends
        // first: its callback is already running.
        self.join_prepare = JoinPrepare::Start;
    }
}
