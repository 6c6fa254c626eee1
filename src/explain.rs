//! One sentence per log entry, in the user's language: what happened, and why it matters.
//!
//! The templates live in the i18n tables ([`Explain`](crate::i18n::Explain)); this module only picks
//! the template for an entry and fills it in. Entries without a template of their own (routine
//! details) fall back to the engine's English line, marked as such.

use rebalance_engine::client::{ClientEvent, ClientState, RecordRange};
use rebalance_engine::cluster::ClusterEvent;
use rebalance_engine::protocol::TopicPartition;
use rebalance_engine::sim::{NetworkEvent, SimEvent, SimEventKind, WorldEvent};
use rebalance_engine::{
    Endpoint, ErrorCode, EventKind, GroupState, LeaderReason, MemberState, Payload, Reason, RemovalReason,
    Request, Response, TimerKind,
};

use crate::i18n::{fill, Strings};
use crate::world::GROUP_ID;

/// What an explanation needs besides the entry.
pub struct Context {
    /// The group's state when the entry was logged (if known).
    pub state_at: Option<GroupState>,
}

/// A broker's or consumer's display name.
pub fn endpoint(s: &Strings, e: &Endpoint) -> String {
    match e {
        Endpoint::Broker(n) => fill(s.stage.broker, &[("n", &n.0.to_string())]),
        Endpoint::Consumer(n) | Endpoint::Script(n) => n.clone(),
    }
}

/// A group state's name in the user's language.
pub fn state_name(s: &Strings, st: GroupState) -> &'static str {
    match st {
        GroupState::Empty => s.states.empty,
        GroupState::PreparingRebalance => s.states.preparing_rebalance,
        GroupState::CompletingRebalance => s.states.completing_rebalance,
        GroupState::Stable => s.states.stable,
        GroupState::Dead => s.states.dead,
    }
}

/// A client-side member state's name in the user's language.
pub fn member_state_name(s: &Strings, st: MemberState) -> &'static str {
    match st {
        MemberState::Unjoined => s.member_states.unjoined,
        MemberState::PreparingRebalance => s.member_states.joining,
        MemberState::CompletingRebalance => s.member_states.awaiting_sync,
        MemberState::Stable => s.member_states.stable,
    }
}

/// A client state's name in the user's language (the member state, or revoking).
pub fn client_state_name(s: &Strings, st: ClientState) -> &'static str {
    match st {
        ClientState::Unjoined => s.member_states.unjoined,
        ClientState::Joining => s.member_states.joining,
        ClientState::AwaitingSync => s.member_states.awaiting_sync,
        ClientState::Stable => s.member_states.stable,
        ClientState::Revoking => s.member_states.revoking,
    }
}

/// `[t-0, t-1]` as `t-0, t-1` (or "nothing").
pub fn partitions(s: &Strings, ps: &[TopicPartition]) -> String {
    if ps.is_empty() {
        return s.words.nothing.to_owned();
    }
    ps.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(s.words.sep)
}

fn offsets(s: &Strings, os: &[(TopicPartition, i64)]) -> String {
    if os.is_empty() {
        return s.words.nothing.to_owned();
    }
    os.iter()
        .map(|(tp, o)| format!("{tp}={o}"))
        .collect::<Vec<_>>()
        .join(s.words.sep)
}

fn records(rs: &[RecordRange]) -> u64 {
    rs.iter().map(RecordRange::len).sum()
}

fn error_meaning(s: &Strings, e: ErrorCode) -> &'static str {
    match e {
        ErrorCode::RebalanceInProgress => s.explain.err_rebalance,
        ErrorCode::IllegalGeneration => s.explain.err_generation,
        ErrorCode::UnknownMemberId => s.explain.err_unknown_member,
        ErrorCode::MemberIdRequired => s.explain.err_member_id_required,
        ErrorCode::NotCoordinator
        | ErrorCode::CoordinatorNotAvailable
        | ErrorCode::CoordinatorLoadInProgress => s.explain.err_coordinator,
        ErrorCode::FencedInstanceId => s.explain.err_fenced,
        _ => "",
    }
}

fn removal(s: &Strings, r: RemovalReason) -> &'static str {
    match r {
        RemovalReason::LeaveGroup => s.words.left,
        RemovalReason::AdminRemoval => s.words.admin_removed,
        RemovalReason::SessionExpired => s.words.session_expired,
        RemovalReason::NotRejoined => s.words.not_rejoined,
        RemovalReason::PendingSyncExpired => s.words.sync_expired,
        RemovalReason::GroupMaxSizeReached => s.words.group_full,
        RemovalReason::Replaced => s.words.replaced,
        RemovalReason::Joined => s.words.joined,
    }
}

/// The explanation of one log entry.
pub fn explain(s: &Strings, ev: &SimEvent, cx: &Context) -> String {
    let e = &s.explain;
    let other = || format!("{} {}", e.other, ev.line());
    match &ev.kind {
        SimEventKind::Coordinator { node, event } => coordinator(s, node.0, event).unwrap_or_else(other),
        SimEventKind::Client { consumer, event } => client(s, consumer, event).unwrap_or_else(other),
        SimEventKind::Network { event } => network(s, event, cx).unwrap_or_else(other),
        SimEventKind::World { event } => world(s, event).unwrap_or_else(other),
    }
}

fn coordinator(s: &Strings, node: i32, event: &EventKind) -> Option<String> {
    let e = &s.explain;
    let node = node.to_string();
    Some(match event {
        EventKind::GroupCreated { group_id } => fill(e.group_created, &[("group", group_id)]),
        EventKind::StateChanged { from, to, reason, .. } => {
            let (fromn, ton) = (state_name(s, *from), state_name(s, *to));
            let t = |tpl: &str, who: &str| fill(tpl, &[("who", who), ("from", fromn), ("to", ton)]);
            match reason {
                Reason::MemberAdded { member_id } if *from == GroupState::Empty => {
                    t(e.first_member, member_id)
                }
                Reason::MemberAdded { member_id } => t(e.member_joined, member_id),
                Reason::LeaderRejoined { member_id } => t(e.leader_rejoined, member_id),
                Reason::MemberMetadataChanged { member_id } => t(e.metadata_changed, member_id),
                Reason::StaticMemberReplaced { member_id } => t(e.static_replaced_rebalance, member_id),
                Reason::MembersLeft { member_ids } if *to == GroupState::Empty => {
                    t(e.last_member_left, &member_ids.join(s.words.sep))
                }
                Reason::MembersLeft { member_ids } => t(e.members_left, &member_ids.join(s.words.sep)),
                Reason::SessionExpired { member_id } if *to == GroupState::Empty => {
                    t(e.last_session_expired, member_id)
                }
                Reason::SessionExpired { member_id } => t(e.session_expired, member_id),
                Reason::PendingSyncExpired { member_ids } => {
                    t(e.pending_sync_expired, &member_ids.join(s.words.sep))
                }
                Reason::JoinPhaseCompleted => t(e.join_completed, ""),
                Reason::AssignmentPersisted => t(e.assignment_persisted, ""),
                Reason::AssignmentAppendFailed { error } => {
                    fill(e.assignment_failed, &[("error", error.name())])
                }
                Reason::PartitionUnloaded => t(e.unloaded_dead, ""),
                _ => t(e.state_changed, ""),
            }
        }
        EventKind::GenerationChanged { from, to, .. } => fill(
            e.generation,
            &[("from", &from.to_string()), ("to", &to.to_string())],
        ),
        EventKind::ProtocolSelected {
            protocol: Some(p), ..
        } => fill(e.protocol_selected, &[("protocol", p)]),
        EventKind::ProtocolSelected { protocol: None, .. } => e.protocol_cleared.to_owned(),
        EventKind::LeaderChanged {
            to: Some(to), reason, ..
        } => {
            let _ = matches!(reason, LeaderReason::FirstMember);
            fill(e.leader, &[("who", to)])
        }
        EventKind::LeaderChanged { to: None, .. } => e.no_leader.to_owned(),
        EventKind::MemberAdded {
            member_id, client_id, ..
        } => fill(e.member_added, &[("member", member_id), ("client", client_id)]),
        EventKind::MemberRemoved {
            member_id, reason, ..
        } => fill(
            e.member_removed,
            &[("member", member_id), ("reason", removal(s, *reason))],
        ),
        EventKind::PendingMemberAdded { member_id, .. } => fill(e.pending_member, &[("member", member_id)]),
        EventKind::StaticMemberReplaced {
            group_instance_id,
            old_member_id,
            new_member_id,
            ..
        } => fill(
            e.static_replaced,
            &[
                ("instance", group_instance_id),
                ("old", old_member_id),
                ("new", new_member_id),
            ],
        ),
        EventKind::AssignmentStored { generation_id, .. } => {
            fill(e.assignment_stored, &[("gen", &generation_id.to_string())])
        }
        EventKind::AssignmentsReset { .. } => e.assignments_reset.to_owned(),
        EventKind::OffsetsCommitted { partitions: ps, .. } => {
            let os: Vec<(TopicPartition, i64)> = ps
                .iter()
                .map(|p| {
                    (
                        TopicPartition::new(p.topic.clone(), p.partition),
                        p.committed_offset,
                    )
                })
                .collect();
            fill(e.offsets_committed, &[("offsets", &offsets(s, &os))])
        }
        EventKind::GroupLoaded {
            state, generation_id, ..
        } => fill(
            e.group_loaded,
            &[
                ("state", state_name(s, *state)),
                ("gen", &generation_id.to_string()),
            ],
        ),
        EventKind::PartitionLoaded { partition, .. } => fill(
            e.partition_loaded,
            &[("node", &node), ("p", &partition.to_string())],
        ),
        EventKind::PartitionUnloaded { partition } => fill(
            e.partition_unloaded,
            &[("node", &node), ("p", &partition.to_string())],
        ),
        EventKind::TimerFired { kind, .. } => match kind {
            TimerKind::InitialRebalanceDelay { delay_ms, .. } => {
                fill(e.initial_delay, &[("ms", &delay_ms.to_string())])
            }
            TimerKind::RebalanceTimeout => e.rebalance_timeout.to_owned(),
            other => fill(e.timer_fired, &[("timer", &other.to_string())]),
        },
        EventKind::RequestParked { api, member_id, .. } => {
            fill(e.parked, &[("api", api), ("member", member_id)])
        }
        EventKind::ParkedRequestDropped { api, member_id, .. } => {
            fill(e.parked_dropped, &[("api", api), ("member", member_id)])
        }
        _ => return None,
    })
}

fn client(s: &Strings, who: &str, event: &ClientEvent) -> Option<String> {
    let e = &s.explain;
    let w = ("who", who);
    Some(match event {
        ClientEvent::Started {
            subscription,
            assignors,
            protocol,
            ..
        } => {
            let names: Vec<&str> = assignors.iter().map(|a| a.name()).collect();
            let protocol = match protocol {
                rebalance_engine::assignor::RebalanceProtocol::Eager => s.consumer.eager,
                rebalance_engine::assignor::RebalanceProtocol::Cooperative => s.consumer.cooperative,
            };
            fill(
                e.started,
                &[
                    w,
                    ("assignors", &names.join(s.words.sep)),
                    ("protocol", protocol),
                    ("topics", &subscription.to_string()),
                ],
            )
        }
        ClientEvent::CoordinatorDiscovered { node } => {
            // The consumer does not know the partition; the coordinator of this playground leads
            // exactly one for the group, computed as Kafka does.
            let p = rebalance_engine::partition_for(GROUP_ID, 50).to_string();
            let tpl = if GROUP_ID == "test_group_1" {
                e.coordinator_found_article
            } else {
                e.coordinator_found
            };
            fill(tpl, &[w, ("node", &node.0.to_string()), ("p", &p)])
        }
        ClientEvent::CoordinatorLost { .. } => fill(e.coordinator_lost, &[w]),
        ClientEvent::MemberStateChanged { from, to } => fill(
            e.member_state,
            &[
                w,
                ("from", member_state_name(s, *from)),
                ("to", member_state_name(s, *to)),
            ],
        ),
        ClientEvent::RejoinRequested { .. } => fill(e.rejoin, &[w]),
        ClientEvent::MemberIdAssigned { member_id } => fill(e.member_id_assigned, &[w, ("id", member_id)]),
        ClientEvent::JoinedGroup {
            generation_id,
            protocol,
            is_leader: true,
            ..
        } => fill(
            e.joined_leader,
            &[w, ("gen", &generation_id.to_string()), ("protocol", protocol)],
        ),
        ClientEvent::JoinedGroup { generation_id, .. } => {
            fill(e.joined_follower, &[w, ("gen", &generation_id.to_string())])
        }
        ClientEvent::AssignmentComputed {
            strategy,
            generation_id,
            assignment,
        } => {
            let plan: Vec<String> = assignment
                .iter()
                .map(|(m, ps)| format!("{m} → {}", partitions(s, ps)))
                .collect();
            fill(
                e.assignment_computed,
                &[
                    w,
                    ("strategy", strategy.name()),
                    ("gen", &generation_id.to_string()),
                    ("assignment", &plan.join("; ")),
                ],
            )
        }
        ClientEvent::AssignmentReceived {
            generation_id,
            partitions: ps,
        } => fill(
            e.assignment_received,
            &[
                w,
                ("gen", &generation_id.to_string()),
                ("parts", &partitions(s, ps)),
            ],
        ),
        ClientEvent::PartitionsRevoked { partitions: ps } => {
            fill(e.revoked, &[w, ("parts", &partitions(s, ps))])
        }
        ClientEvent::PartitionsAssigned { partitions: ps } => {
            fill(e.assigned, &[w, ("parts", &partitions(s, ps))])
        }
        ClientEvent::PartitionsLost { partitions: ps } => fill(e.lost, &[w, ("parts", &partitions(s, ps))]),
        ClientEvent::GenerationReset { .. } => fill(e.generation_reset, &[w]),
        ClientEvent::ErrorReceived { api, error, reaction } => {
            let meaning = error_meaning(s, *error);
            let meaning = if meaning.is_empty() {
                reaction.as_str()
            } else {
                meaning
            };
            fill(
                e.error_received,
                &[w, ("api", api), ("error", error.name()), ("meaning", meaning)],
            )
        }
        ClientEvent::Fatal { reason } => fill(e.fatal, &[w, ("reason", reason)]),
        ClientEvent::PollTimeout {
            max_poll_interval_ms,
            sends_leave_group,
        } => fill(
            if *sends_leave_group {
                e.poll_timeout
            } else {
                e.poll_timeout_static
            },
            &[w, ("ms", &max_poll_interval_ms.to_string())],
        ),
        ClientEvent::BatchFetched { records: rs, .. } => {
            fill(e.fetched, &[w, ("n", &records(rs).to_string())])
        }
        ClientEvent::BatchProcessed {
            records: rs,
            duplicates,
        } if *duplicates > 0 => fill(
            e.duplicates,
            &[w, ("n", &records(rs).to_string()), ("d", &duplicates.to_string())],
        ),
        ClientEvent::BatchProcessed { records: rs, .. } => {
            fill(e.processed, &[w, ("n", &records(rs).to_string())])
        }
        ClientEvent::BatchAbandoned { records: rs } => {
            fill(e.abandoned, &[w, ("n", &records(rs).to_string())])
        }
        ClientEvent::CommitSent { offsets: os, .. } => {
            fill(e.commit_sent, &[w, ("offsets", &offsets(s, os))])
        }
        ClientEvent::CommitCompleted {
            offsets: os, error, ..
        } if error.is_none() => fill(e.commit_ok, &[w, ("offsets", &offsets(s, os))]),
        ClientEvent::CommitCompleted { error, .. } => fill(e.commit_failed, &[w, ("error", error.name())]),
        ClientEvent::CommitSkipped { why, .. } => fill(e.commit_skipped, &[w, ("why", why)]),
        ClientEvent::PositionsInitialized { positions } => {
            let ps: Vec<String> = positions.iter().map(|(tp, o, _)| format!("{tp}@{o}")).collect();
            fill(e.positions, &[w, ("positions", &ps.join(s.words.sep))])
        }
        ClientEvent::MetadataChanged { topics } => {
            let ts: Vec<String> = topics.iter().map(|(t, n)| format!("{t}:{n}")).collect();
            fill(e.metadata, &[w, ("topics", &ts.join(s.words.sep))])
        }
        ClientEvent::SubscriptionChanged { topics, .. } => {
            fill(e.subscription, &[w, ("topics", &topics.join(s.words.sep))])
        }
        ClientEvent::Paused { .. } => fill(e.paused, &[w]),
        ClientEvent::Resumed => fill(e.resumed, &[w]),
        ClientEvent::Closed => fill(e.closed, &[w]),
        ClientEvent::Killed => fill(e.killed, &[w]),
        ClientEvent::ResponseIgnored { api, .. } => fill(e.ignored, &[w, ("api", api)]),
        ClientEvent::RequestTimedOut { api, .. } => fill(e.timed_out, &[w, ("api", api)]),
    })
}

fn network(s: &Strings, event: &NetworkEvent, cx: &Context) -> Option<String> {
    let e = &s.explain;
    Some(match event {
        NetworkEvent::Sent { message } => {
            let from = endpoint(s, &message.from);
            let to = endpoint(s, &message.to);
            let api = message.api();
            match &message.payload {
                Payload::Request(_) => fill(e.sent_request, &[("from", &from), ("to", &to), ("api", api)]),
                Payload::Response(r) => {
                    let err = r.error_code();
                    if !err.is_none() {
                        fill(
                            e.sent_error,
                            &[("from", &from), ("to", &to), ("api", api), ("error", err.name())],
                        )
                    } else if matches!(r, Response::Heartbeat(_))
                        && cx.state_at == Some(GroupState::CompletingRebalance)
                    {
                        fill(e.heartbeat_completing, &[("from", &from), ("to", &to)])
                    } else {
                        fill(e.sent_response, &[("from", &from), ("to", &to), ("api", api)])
                    }
                }
            }
        }
        NetworkEvent::Delivered { to, api, request, .. } => fill(
            e.delivered,
            &[
                ("api", api),
                (
                    "kind",
                    if *request {
                        s.words.request
                    } else {
                        s.words.response
                    },
                ),
                ("to", &endpoint(s, to)),
            ],
        ),
        NetworkEvent::Lost { from, to, api, .. } => fill(
            e.message_lost,
            &[
                ("api", api),
                ("from", &endpoint(s, from)),
                ("to", &endpoint(s, to)),
            ],
        ),
        NetworkEvent::Undeliverable { to, api, .. } => {
            fill(e.undeliverable, &[("api", api), ("to", &endpoint(s, to))])
        }
    })
}

fn world(s: &Strings, event: &WorldEvent) -> Option<String> {
    let e = &s.explain;
    Some(match event {
        WorldEvent::ConsumerStarted { name, .. } => fill(e.consumer_started, &[("name", name)]),
        WorldEvent::TopicCreated {
            topic, partitions: n, ..
        } => fill(e.topic_created, &[("topic", topic), ("n", &n.to_string())]),
        WorldEvent::PartitionsAdded { topic, from, to } => fill(
            e.partitions_added,
            &[
                ("topic", topic),
                ("from", &from.to_string()),
                ("to", &to.to_string()),
            ],
        ),
        WorldEvent::CoordinatorUnloaded { node, partition } => fill(
            e.coordinator_unloaded,
            &[("node", &node.0.to_string()), ("p", &partition.to_string())],
        ),
        WorldEvent::CoordinatorLoaded { node, partition } => fill(
            e.coordinator_loaded,
            &[("node", &node.0.to_string()), ("p", &partition.to_string())],
        ),
        WorldEvent::ActionRejected { reason } => fill(e.rejected, &[("reason", reason)]),
        WorldEvent::Cluster { event } => match event {
            ClusterEvent::BrokerCrashed {
                broker,
                graceful: false,
            } => fill(e.broker_crashed, &[("node", &broker.0.to_string())]),
            ClusterEvent::BrokerCrashed {
                broker,
                graceful: true,
            } => fill(e.broker_stopped, &[("node", &broker.0.to_string())]),
            ClusterEvent::BrokerRestarted { broker } => {
                fill(e.broker_restarted, &[("node", &broker.0.to_string())])
            }
            ClusterEvent::LeaderElected {
                partition,
                leader,
                leader_epoch,
                ..
            } => fill(
                e.leader_elected,
                &[
                    ("node", &leader.0.to_string()),
                    ("p", &partition.to_string()),
                    ("epoch", &leader_epoch.to_string()),
                ],
            ),
            ClusterEvent::PartitionOffline { partition, .. } => {
                fill(e.partition_offline, &[("p", &partition.to_string())])
            }
            _ => return None,
        },
        _ => return None,
    })
}

/// Whether an entry is routine: the engine's details (heartbeats, arrivals, timers) plus, for this
/// view, the steady work between rebalances (fetching and processing without duplicates,
/// successful commits and their messages). The log hides these unless asked.
pub fn is_routine(ev: &SimEvent) -> bool {
    if ev.is_detail() {
        return true;
    }
    match &ev.kind {
        SimEventKind::Client { event, .. } => match event {
            ClientEvent::BatchFetched { .. } => true,
            ClientEvent::BatchProcessed { duplicates, .. } => *duplicates == 0,
            ClientEvent::CommitSent { .. } => true,
            ClientEvent::CommitCompleted { error, .. } => error.is_none(),
            _ => false,
        },
        SimEventKind::Coordinator {
            event: EventKind::OffsetsCommitted { .. },
            ..
        } => true,
        // Replication of every record: the cluster issue draws it; here it would drown the log.
        SimEventKind::World {
            event:
                WorldEvent::Cluster {
                    event:
                        ClusterEvent::ReplicaFetched { .. }
                        | ClusterEvent::HighWatermarkAdvanced { .. }
                        | ClusterEvent::LeadersMoved { .. },
                },
        } => true,
        SimEventKind::Network {
            event: NetworkEvent::Sent { message },
        } => match &message.payload {
            Payload::Request(Request::OffsetCommit(_)) => true,
            Payload::Response(r @ Response::OffsetCommit(_)) => r.error_code().is_none(),
            _ => false,
        },
        _ => false,
    }
}

/// The consumer an entry concerns, if any (for the log's consumer filter).
pub fn consumer_of(ev: &SimEvent) -> Option<&str> {
    match &ev.kind {
        SimEventKind::Client { consumer, .. } => Some(consumer),
        SimEventKind::Network { event } => match event {
            NetworkEvent::Sent { message } => match (&message.from, &message.to) {
                (Endpoint::Consumer(c), _) | (_, Endpoint::Consumer(c)) => Some(c),
                _ => None,
            },
            NetworkEvent::Delivered { from, to, .. } | NetworkEvent::Lost { from, to, .. } => {
                match (from, to) {
                    (Endpoint::Consumer(c), _) | (_, Endpoint::Consumer(c)) => Some(c),
                    _ => None,
                }
            }
            NetworkEvent::Undeliverable {
                to: Endpoint::Consumer(c),
                ..
            } => Some(c),
            NetworkEvent::Undeliverable { .. } => None,
        },
        SimEventKind::World {
            event: WorldEvent::ConsumerStarted { name, .. },
        } => Some(name),
        _ => None,
    }
}

/// The Kafka API an entry concerns, if any (for the log's API filter).
pub fn api_of(ev: &SimEvent) -> Option<&str> {
    match &ev.kind {
        SimEventKind::Network { event } => Some(match event {
            NetworkEvent::Sent { message } => message.api(),
            NetworkEvent::Delivered { api, .. }
            | NetworkEvent::Lost { api, .. }
            | NetworkEvent::Undeliverable { api, .. } => api,
        }),
        SimEventKind::Client {
            event: ClientEvent::ErrorReceived { api, .. },
            ..
        } => Some(api),
        SimEventKind::Coordinator { event, .. } => match event {
            EventKind::RequestReceived { request, .. } => Some(request_api(request)),
            EventKind::ResponseSent { response, .. } => Some(response.api_name()),
            EventKind::RequestParked { api, .. } | EventKind::ParkedRequestDropped { api, .. } => Some(api),
            _ => None,
        },
        _ => None,
    }
}

fn request_api(r: &Request) -> &'static str {
    r.api_name()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use crate::world::{default_consumer, Command, World};

    fn run_three() -> World {
        let mut w = World::new(3);
        for _ in 0..3 {
            let name = w.next_consumer_name();
            w.apply(Command::AddConsumer(Box::new(default_consumer(&name))))
                .unwrap();
        }
        for _ in 0..100 {
            w.advance(100.0);
        }
        w
    }

    #[test]
    fn the_first_join_is_explained_in_both_languages() {
        let w = run_three();
        let ev = w
            .sim()
            .log()
            .iter()
            .find(|e| {
                matches!(&e.kind, SimEventKind::Coordinator { event: EventKind::StateChanged { to, .. }, .. }
                    if *to == GroupState::PreparingRebalance)
            })
            .expect("the group started a rebalance");
        let cx = Context { state_at: None };
        let en = explain(Lang::En.strings(), ev, &cx);
        assert!(
            en.contains("first member") && en.contains("PreparingRebalance"),
            "{en}"
        );
        let zh = explain(Lang::Zh.strings(), ev, &cx);
        assert!(zh.contains("第一个成员"), "{zh}");
    }

    #[test]
    fn coordinator_discovery_names_partition_30_and_the_articles_28() {
        let w = run_three();
        let ev = w
            .sim()
            .log()
            .iter()
            .find(|e| {
                matches!(
                    &e.kind,
                    SimEventKind::Client {
                        event: ClientEvent::CoordinatorDiscovered { .. },
                        ..
                    }
                )
            })
            .unwrap();
        let en = explain(Lang::En.strings(), ev, &Context { state_at: None });
        assert!(en.contains("__consumer_offsets-30") && en.contains("28"), "{en}");
    }

    #[test]
    fn no_entry_leaves_a_placeholder_unfilled() {
        let w = run_three();
        for lang in Lang::ALL {
            for ev in w.sim().log() {
                let text = explain(lang.strings(), ev, &Context { state_at: None });
                assert!(
                    !text.contains('{') || text.contains("Detail") || text.contains("细节"),
                    "{text}"
                );
            }
        }
    }
}
