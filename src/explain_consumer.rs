//! Explanations of the consumer protocol's (KIP-848) coordinator events and records, in the user's
//! language, built from the events' fields (never from the engine's English lines). Kafka's names
//! (member and group states) stay as they are.

use rebalance_engine::coordinator::consumer::Partitions;
use rebalance_engine::coordinator::records::RecordBody;
use rebalance_engine::event::{ConsumerFenceReason, ScriptUse};
use rebalance_engine::protocol::TopicPartition;
use rebalance_engine::EventKind;

use crate::i18n::{fill, Strings};

/// `t-0, t-1`, or the word for nothing.
fn list(s: &Strings, ps: &[TopicPartition]) -> String {
    if ps.is_empty() {
        return s.consumer_explain.nothing.to_owned();
    }
    ps.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
}

fn map(s: &Strings, ps: &Partitions) -> String {
    let flat: Vec<TopicPartition> = ps
        .iter()
        .flat_map(|(t, set)| set.iter().map(move |p| TopicPartition::new(t.clone(), *p)))
        .collect();
    list(s, &flat)
}

/// The sentence for a consumer-group event, or `None` for another event.
pub(crate) fn event(s: &Strings, event: &EventKind) -> Option<String> {
    let c = &s.consumer_explain;
    Some(match event {
        EventKind::ConsumerMemberJoined {
            group_id,
            member_id,
            instance_id,
        } => match instance_id {
            Some(i) => fill(
                c.joined_static,
                &[("member", member_id), ("instance", i), ("group", group_id)],
            ),
            None => fill(c.joined, &[("member", member_id), ("group", group_id)]),
        },
        EventKind::ConsumerStaticMemberReplaced {
            instance_id,
            old_member_id,
            new_member_id,
            ..
        } => fill(
            c.static_replaced,
            &[
                ("new", new_member_id),
                ("old", old_member_id),
                ("instance", instance_id),
            ],
        ),
        EventKind::ConsumerGroupEpochBumped { group_id, epoch } => fill(
            c.epoch_bumped,
            &[("group", group_id), ("epoch", &epoch.to_string())],
        ),
        EventKind::ConsumerTargetAssignmentComputed {
            assignment_epoch,
            assignor,
            targets,
            script,
            ..
        } => {
            let targets = targets
                .iter()
                .map(|(m, ps)| format!("{m} → {}", list(s, ps)))
                .collect::<Vec<_>>()
                .join("; ");
            let epoch = assignment_epoch.to_string();
            match script {
                Some(ScriptUse::Used { entry, of }) => fill(
                    c.target_scripted,
                    &[
                        ("epoch", &epoch),
                        ("entry", &entry.to_string()),
                        ("of", &of.to_string()),
                        ("targets", &targets),
                    ],
                ),
                Some(ScriptUse::RanOut { after }) => fill(
                    c.target_script_ran_out,
                    &[
                        ("epoch", &epoch),
                        ("assignor", assignor),
                        ("after", &after.to_string()),
                        ("targets", &targets),
                    ],
                ),
                None => fill(
                    c.target,
                    &[("epoch", &epoch), ("assignor", assignor), ("targets", &targets)],
                ),
            }
        }
        EventKind::ConsumerMemberReconciled {
            member_id,
            state,
            member_epoch,
            assigned,
            pending_revocation,
            ..
        } => {
            let template = if pending_revocation.is_empty() {
                c.reconciled
            } else {
                c.reconciled_revoking
            };
            fill(
                template,
                &[
                    ("member", member_id),
                    ("state", &state.to_string()),
                    ("epoch", &member_epoch.to_string()),
                    ("assigned", &list(s, assigned)),
                    ("pending", &list(s, pending_revocation)),
                ],
            )
        }
        EventKind::ConsumerStaticMemberLeft {
            member_id,
            instance_id,
            ..
        } => fill(c.static_left, &[("member", member_id), ("instance", instance_id)]),
        EventKind::ConsumerMemberFenced {
            member_id, reason, ..
        } => {
            let reason = match reason {
                ConsumerFenceReason::Left => c.reason_left.to_owned(),
                ConsumerFenceReason::SessionExpired => c.reason_session.to_owned(),
                ConsumerFenceReason::RebalanceTimeout {
                    member_epoch,
                    timeout_ms,
                } => fill(
                    c.reason_rebalance,
                    &[
                        ("epoch", &member_epoch.to_string()),
                        ("ms", &timeout_ms.to_string()),
                    ],
                ),
                ConsumerFenceReason::ClassicJoinTimeout => c.reason_classic_join.to_owned(),
                ConsumerFenceReason::ClassicSyncTimeout => c.reason_classic_sync.to_owned(),
            };
            fill(c.fenced, &[("member", member_id), ("reason", &reason)])
        }
        EventKind::ConsumerGroupStateChanged { group_id, from, to } => fill(
            c.state_changed,
            &[
                ("group", group_id),
                ("from", &from.to_string()),
                ("to", &to.to_string()),
            ],
        ),
        EventKind::ConsumerGroupLoaded {
            group_id,
            group_epoch,
            assignment_epoch,
            members,
        } => fill(
            c.loaded,
            &[
                ("group", group_id),
                ("members", &members.to_string()),
                ("epoch", &group_epoch.to_string()),
                ("assignment_epoch", &assignment_epoch.to_string()),
            ],
        ),
        EventKind::GroupTypeConverted {
            group_id,
            to_consumer,
            members,
        } => {
            let n = members.to_string();
            let args = [("group", group_id.as_str()), ("members", n.as_str())];
            match (to_consumer, *members > 0) {
                (true, false) => fill(c.empty_to_consumer, &args),
                (false, false) => fill(c.empty_to_classic, &args),
                (true, true) => fill(c.upgraded, &args),
                (false, true) => fill(c.downgraded, &args),
            }
        }
        _ => return None,
    })
}

/// The sentence for an appended consumer-group record, or `None` for another record.
pub(crate) fn record(s: &Strings, p: &str, offset: &str, body: &RecordBody) -> Option<String> {
    let c = &s.consumer_explain;
    let live = |what: String| fill(c.record, &[("p", p), ("offset", offset), ("what", &what)]);
    let dead = |what: String| live(fill(c.record_tombstone, &[("what", &what)]));
    Some(match body {
        RecordBody::ConsumerGroupMetadata { group_id, value } => match value {
            Some(v) => live(fill(
                c.record_epoch,
                &[("group", group_id), ("epoch", &v.epoch.to_string())],
            )),
            None => dead(group_id.clone()),
        },
        RecordBody::ConsumerGroupMemberMetadata { member_id, value, .. } => match value {
            Some(v) => {
                let mut topics = v.subscribed_topic_names.join(", ");
                if let Some(r) = &v.subscribed_topic_regex {
                    if !topics.is_empty() {
                        topics.push_str(", ");
                    }
                    topics.push_str(r);
                }
                if topics.is_empty() {
                    topics = c.nothing.to_owned();
                }
                live(fill(
                    c.record_member,
                    &[("member", member_id), ("topics", &topics)],
                ))
            }
            None => dead(member_id.clone()),
        },
        RecordBody::ConsumerGroupTargetAssignmentMetadata {
            group_id,
            assignment_epoch,
            ..
        } => match assignment_epoch {
            Some(e) => live(fill(
                c.record_target_epoch,
                &[("group", group_id), ("epoch", &e.to_string())],
            )),
            None => dead(group_id.clone()),
        },
        RecordBody::ConsumerGroupTargetAssignmentMember {
            member_id,
            partitions,
            ..
        } => match partitions {
            Some(ps) => live(fill(
                c.record_target,
                &[("member", member_id), ("partitions", &map(s, ps))],
            )),
            None => dead(member_id.clone()),
        },
        RecordBody::ConsumerGroupCurrentMemberAssignment { member_id, value, .. } => match value {
            Some(v) => live(fill(
                c.record_current,
                &[
                    ("member", member_id),
                    (
                        "state",
                        &rebalance_engine::coordinator::consumer::MemberState::from_value(v.state)
                            .to_string(),
                    ),
                    ("epoch", &v.member_epoch.to_string()),
                    ("partitions", &map(s, &v.assigned_partitions)),
                ],
            )),
            None => dead(member_id.clone()),
        },
        _ => return None,
    })
}

/// What a consumer group's explanation says about moving partitions, and whether it is about a
/// finished rebalance: while members reconcile, what moves now ([`moves_sentence`]); once they have,
/// what the last target moved ([`last_change_sentence`]), as long as the group has members.
pub fn moves_explanation(
    s: &Strings,
    c: &rebalance_engine::session::ConsumerGroupFacts,
) -> Option<(String, bool)> {
    if let Some(m) = c.moves() {
        return Some((moves_sentence(s, &m), false));
    }
    let change = c.last_target_change.as_ref().filter(|_| !c.members.is_empty())?;
    Some((last_change_sentence(s, change), true))
}

/// The words of a [`TargetMoves`](rebalance_engine::session::TargetMoves) sentence in one tense.
struct MoveWords {
    only_moved: String,
    keeps: &'static str,
    moves: &'static str,
    moves_out: &'static str,
    nothing_moved: String,
}

/// Where the consumer protocol differs from the classic one, in words, while its members reconcile
/// to a new target: who keeps consuming what, and the few partitions that move (from the engine's
/// [`TargetMoves`](rebalance_engine::session::TargetMoves)).
pub fn moves_sentence(s: &Strings, m: &rebalance_engine::session::TargetMoves) -> String {
    let v = &s.kip848_view;
    let words = MoveWords {
        only_moved: v.only_moved.to_owned(),
        keeps: v.keeps,
        moves: v.moves,
        moves_out: v.moves_out,
        nothing_moved: v.nothing_moved.to_owned(),
    };
    describe_moves(s, m, &words)
}

/// The same once the members have reconciled: what the last target assignment changed (the
/// engine's [`TargetChange`](rebalance_engine::session::TargetChange)), in the past tense, so that
/// a Stable group still says what its last rebalance moved and what it did not stop.
pub fn last_change_sentence(s: &Strings, c: &rebalance_engine::session::TargetChange) -> String {
    let v = &s.kip848_view;
    let epoch = c.epoch.to_string();
    let words = MoveWords {
        only_moved: fill(v.last_only_moved, &[("epoch", &epoch)]),
        keeps: v.last_keeps,
        moves: v.last_moves,
        moves_out: v.last_moves_out,
        nothing_moved: fill(v.last_nothing_moved, &[("epoch", &epoch)]),
    };
    describe_moves(s, &c.moves, &words)
}

fn describe_moves(s: &Strings, m: &rebalance_engine::session::TargetMoves, w: &MoveWords) -> String {
    let v = &s.kip848_view;
    let moving: Vec<String> = m
        .moved
        .iter()
        .filter_map(|mv| {
            let part = mv.partition.to_string();
            match (&mv.from, &mv.to) {
                (Some(from), Some(to)) => Some(fill(w.moves, &[("part", &part), ("from", from), ("to", to)])),
                (Some(from), None) => Some(fill(w.moves_out, &[("part", &part), ("from", from)])),
                (None, _) => None,
            }
        })
        .collect();
    if moving.is_empty() {
        let free: Vec<TopicPartition> = m.moved.iter().map(|mv| mv.partition.clone()).collect();
        return fill(&w.nothing_moved, &[("parts", &list(s, &free))]);
    }
    let kept: Vec<String> = m
        .kept
        .iter()
        .map(|(member, parts)| fill(w.keeps, &[("member", member), ("parts", &list(s, parts))]))
        .collect();
    let kept = if kept.is_empty() {
        v.nothing.to_owned()
    } else {
        kept.join(v.separator)
    };
    fill(
        &w.only_moved,
        &[("kept", &kept), ("moved", &moving.join(v.separator))],
    )
}
