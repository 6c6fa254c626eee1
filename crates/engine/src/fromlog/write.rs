//! The scenario a story replays, and the assumptions it needs.
//!
//! Times are relative to the first line of the group (t = 0), or, for a group formed before the log
//! begins, to the end of a lead-in in which the consumers already in it form it (see [`scenario`]).
//! Each other consumer starts when it is first seen; a close is a `close`, a return after it a
//! `restart`; a member removed after its session timeout went silent `session.timeout.ms` before (a
//! `kill`, or a `pause` of heartbeats and polls if it comes back); a poll timeout is a batch that took longer than `max.poll.interval.ms` (a
//! `pause` of polls once, a `processing_ms` above it when it repeats); a static member replaced by
//! a new process is a `kill` then a `restart`.

use std::str::FromStr;

use crate::assignor::Strategy;
use crate::client::GroupProtocol;
use crate::scenario::preload::{ClassicGroupSpec, ConsumerGroupSpec, MAX_PRELOADED_EPOCH};
use crate::scenario::PreloadedGroup;
use crate::scenario::{
    ActionSpec, ClusterSettings, ConsumerSpec, CoordinatorSettings, Scenario, TopicSpec, MAX_CONSUMERS,
    MAX_END_MS, MAX_TEXT_CHARS, SCENARIO_VERSION,
};
use crate::topic::Subscription;

use super::story::{Episode, Milestone, Person, Story};
use super::{where_is, Assumption, LineRef, Stats};

/// Kafka's defaults the replay falls back on (reference: `kafka-classic-protocol.md`).
const SESSION_TIMEOUT_MS: u64 = 45_000;
const MAX_POLL_INTERVAL_MS: u64 = 300_000;
const CONSUMER_SESSION_TIMEOUT_MS: u64 = 45_000;
/// How long the replay runs past the last line.
const TAIL_MS: u64 = 10_000;
/// The assumed processing time of a batch when the log does not show it.
const PROCESSING_MS: u64 = 1_000;
/// The assumed production rate of every topic.
const RECORDS_PER_SEC: u64 = 10;
/// How long a static member's process is assumed to be down before it is replaced.
const STATIC_DOWN_MS: u64 = 1_000;

pub(crate) struct Context<'a> {
    pub files: &'a [String],
    pub stats: &'a Stats,
    pub other_groups: &'a [(String, u64)],
    pub time_only_lines: &'a [LineRef],
    pub first_over_limit: Option<LineRef>,
    pub highest_broker: Option<(i32, LineRef)>,
}

/// The scenario, its assumptions, and its lead-in: how far into the replay the log's first line
/// is. For a group formed before the log begins, the replay's group starts Empty at a generation
/// (or epoch) below the log's; with consumers the log shows already in it, the replay first forms
/// it with them, and the log's first line comes once that group is Stable ([`lead_in`]).
pub(crate) fn scenario(story: &Story, ctx: &Context<'_>) -> (Scenario, Vec<Assumption>, u64) {
    let Some((at, _)) = story.formed else {
        let (scenario, assumed) = build(story, ctx, None, None);
        return (scenario, assumed, 0);
    };
    let members = story.people.iter().take(MAX_CONSUMERS).any(|p| !p.newcomer);
    let probed = if members {
        lead_in(&build(story, ctx, Some(0), Some(at)).0, story)
    } else {
        None
    };
    match probed {
        Some((lead, added)) => {
            let (scenario, assumed) = build(story, ctx, Some(lead), Some(at - added));
            (scenario, assumed, lead)
        }
        None => {
            let (scenario, assumed) = build(story, ctx, None, Some(at));
            (scenario, assumed, 0)
        }
    }
}

/// When the replay's group of the consumers already in it at the log's start (without the log's
/// newcomers and actions) is Stable with all of them, and how many generations (or epochs) forming
/// it added: the lead-in. `None` if it never is within a minute.
fn lead_in(probe: &Scenario, story: &Story) -> Option<(u64, i64)> {
    use crate::coordinator::consumer::ConsumerGroupState;
    use crate::coordinator::event::EventKind;
    use crate::protocol::GroupState;
    const WITHIN_MS: u64 = 60_000;
    const STEP_MS: u64 = 100;
    let mut probe = probe.clone();
    probe.actions.clear();
    probe.consumers.retain(|c| {
        story
            .people
            .iter()
            .any(|p| !p.newcomer && c.name.as_deref() == Some(p.name.as_str()))
    });
    probe.end_ms = WITHIN_MS;
    let (group, members) = (probe.group_id.clone(), probe.consumers.len());
    let mut session = crate::session::Session::new(probe).ok()?;
    // The first moment, a step at a time, the group is Stable with every one of them.
    let formed = (1..=WITHIN_MS / STEP_MS).map(|k| k * STEP_MS).find(|&t| {
        session.run_to(crate::time::SimTime(t));
        let view = session.group_view();
        match &view.consumer {
            Some(c) => c.state == ConsumerGroupState::Stable && c.members.len() >= members,
            None => view.state == GroupState::Stable && view.members >= members,
        }
    })?;
    // Then: when it last became Stable, and the bumps until then.
    let mut stable_at = None;
    let mut added = 0;
    for e in session.log().iter().take_while(|e| e.at.0 <= formed) {
        let crate::sim::SimEventKind::Coordinator { event, .. } = &e.kind else {
            continue;
        };
        match event {
            EventKind::GenerationChanged { group_id, .. }
            | EventKind::ConsumerGroupEpochBumped { group_id, .. }
                if *group_id == group =>
            {
                added += 1;
            }
            EventKind::StateChanged {
                group_id,
                to: GroupState::Stable,
                ..
            }
            | EventKind::ConsumerGroupStateChanged {
                group_id,
                to: ConsumerGroupState::Stable,
                ..
            } if *group_id == group => stable_at = Some(e.at.0),
            _ => {}
        }
    }
    Some((stable_at?, added))
}

/// `lead`: `Some(ms)` to start the consumers already in the group at 0 and the log `ms` later.
/// `preload`: the generation (or epoch) of the Empty group the replay starts with.
fn build(
    story: &Story,
    ctx: &Context<'_>,
    lead: Option<u64>,
    preload: Option<i64>,
) -> (Scenario, Vec<Assumption>) {
    let mut assumed: Vec<Assumption> = Vec::new();
    let mut say = |text: String, lines: Vec<LineRef>| assumed.push(Assumption { text, lines });
    let shift = lead.unwrap_or(0);
    let rel = |at: i64| ((at - story.t0).max(0) as u64).saturating_add(shift);

    // ------------------------------------------------------------------ the log as a whole
    if !ctx.other_groups.is_empty() {
        let list: Vec<String> = ctx
            .other_groups
            .iter()
            .take(10)
            .map(|(g, n)| format!("{g} ({n} lines)"))
            .collect();
        say(
            format!(
                "the log has {} other group(s), left out: the replay is of `{}`, the busiest; other groups: {}",
                ctx.other_groups.len(),
                story.group,
                list.join(", ")
            ),
            Vec::new(),
        );
    }
    if !ctx.time_only_lines.is_empty() {
        say(
            "the lines give a time of day without a date; they are taken to be of one day".into(),
            ctx.time_only_lines.to_vec(),
        );
    }
    if ctx.stats.without_time > 0 {
        say(
            format!(
                "{} group line(s) have no time; each took the time of the line before it",
                ctx.stats.without_time
            ),
            Vec::new(),
        );
    }
    if let Some(l) = ctx.first_over_limit {
        say(
            format!(
                "only the first {} group lines are replayed: {} later ones, from {}, are counted but not replayed (the limit)",
                super::MAX_ENTRIES,
                ctx.stats.over_limit,
                where_is(ctx.files, l)
            ),
            vec![l],
        );
    }
    for (text, lines) in &story.contradictions {
        say(
            format!("the log contradicts itself: {text}; the replay follows the lines in time order"),
            lines.clone(),
        );
    }
    if story.broker_lines == 0 {
        say(
            "the log has no broker lines: the group's states and generations come from what the clients print".into(),
            Vec::new(),
        );
    }
    if story.client_lines == 0 {
        say(
            "the log has no client lines: subscriptions, assigned partitions and poll timeouts come from what the broker prints".into(),
            Vec::new(),
        );
    }
    let cluster = super::cluster::infer(&super::cluster::Seen {
        group: &story.group,
        coordinator: story.coordinator,
        highest_broker: ctx.highest_broker,
        offsets_partition: story.offsets_partition,
    });
    assumed.extend(cluster.assumptions);
    let mut say = |text: String, lines: Vec<LineRef>| assumed.push(Assumption { text, lines });

    // ------------------------------------------------------------------ topics
    let mut topics: Vec<TopicSpec> = Vec::new();
    let mut topic_names: Vec<String> = Vec::new();
    for (name, (parts, line)) in &story.topics {
        if name.is_empty() || name.chars().count() > crate::scenario::MAX_TOPIC_NAME_CHARS {
            continue;
        }
        let partitions = if *parts > 0 {
            say(
                format!("topic `{name}` has {parts} partition(s): the highest the log shows assigned (it may have more)"),
                line.iter().copied().collect(),
            );
            *parts
        } else {
            say(
                format!("topic `{name}`'s partitions are never shown assigned: 1 assumed"),
                Vec::new(),
            );
            1
        };
        topics.push(TopicSpec {
            name: name.clone(),
            partitions,
            records_per_sec: RECORDS_PER_SEC,
            initial_records: 0,
        });
        topic_names.push(name.clone());
    }
    if topics.is_empty() {
        let n = story.people.len().clamp(1, 1_000) as i32;
        say(
            format!("no topic is named in the log: a topic `topic` with {n} partition(s) (one per consumer) assumed"),
            Vec::new(),
        );
        topics.push(TopicSpec {
            name: "topic".into(),
            partitions: n,
            records_per_sec: RECORDS_PER_SEC,
            initial_records: 0,
        });
        topic_names.push("topic".into());
    }
    say(
        format!("the production rate is not in the log: {RECORDS_PER_SEC} records/s per topic assumed"),
        Vec::new(),
    );

    // ------------------------------------------------------------------ the assignor
    let consumer_protocol = story.consumer_protocol;
    let mut assignors = None;
    match &story.assignor {
        Some((name, line)) if !consumer_protocol => match Strategy::from_str(name) {
            Ok(s) => {
                say(format!("every consumer uses the `{name}` assignor, as the group does"), vec![*line]);
                assignors = Some(vec![s]);
            }
            Err(_) => say(
                format!("the group's assignor `{name}` is not one of Kafka's four built-in ones: the client default (range, cooperative-sticky) assumed"),
                vec![*line],
            ),
        },
        Some((name, line)) => say(
            format!("the coordinator computes the assignment with its `{name}` assignor (group.consumer.assignors); the replay uses the broker's default"),
            vec![*line],
        ),
        None if !consumer_protocol => say(
            "the assignor is never printed: the client default (range, cooperative-sticky) assumed".into(),
            Vec::new(),
        ),
        None => {}
    }
    // Kafka 4.0-4.2 start a consumer group at epoch 0, so its first bump is to 1; 4.3+ start at 1.
    let mut kafka_version = None;
    if consumer_protocol {
        say(
            "the group uses the consumer protocol (KIP-848): its consumers have group.protocol=consumer"
                .into(),
            Vec::new(),
        );
        let first_epoch = story.milestones.iter().find_map(|(_, line, m)| match m {
            Milestone::Epoch(e) => Some((*e, *line)),
            _ => None,
        });
        if let Some((1, line)) = first_epoch {
            say(
                "the group's first epoch bump is to 1, as on Kafka 4.0-4.2: the coordinator follows Kafka 4.1's rules"
                    .into(),
                vec![line],
            );
            kafka_version = Some("4.1".to_owned());
        }
    }
    say(
        format!("the processing time of a batch is not in the log: {PROCESSING_MS} ms assumed (where a poll timeout shows a longer one, that consumer's is said below)"),
        Vec::new(),
    );
    // A group formed before the log begins: the replay's group starts Empty at `preload`, so that
    // its generations (or epochs) are the log's; with a lead-in, the consumers the log shows already
    // in it form it first, and the log's first line comes once it is Stable.
    let mut preloaded_groups = Vec::new();
    if let (Some(at), Some((shown, line))) = (preload, story.formed) {
        let kind = if consumer_protocol {
            "group epoch"
        } else {
            "generation"
        };
        let epoch = i32::try_from(at)
            .ok()
            .filter(|g| (1..=MAX_PRELOADED_EPOCH).contains(g));
        if let Some(g) = epoch {
            preloaded_groups.push(if consumer_protocol {
                PreloadedGroup::Consumer(ConsumerGroupSpec {
                    group_epoch: g,
                    ..ConsumerGroupSpec::default()
                })
            } else {
                PreloadedGroup::Classic(ClassicGroupSpec {
                    generation: Some(g),
                    ..ClassicGroupSpec::default()
                })
            });
        }
        let empty = match epoch {
            Some(g) => format!("an Empty group at {kind} {g}"),
            None => format!("a new group ({kind} {at} is past the highest a preloaded group may have)"),
        };
        let text = match lead {
            Some(lead) => {
                const NAMED: usize = 10;
                let members: Vec<&str> = story
                    .people
                    .iter()
                    .take(MAX_CONSUMERS)
                    .filter(|p| !p.newcomer)
                    .map(|p| p.name.as_str())
                    .collect();
                let mut named = members.iter().take(NAMED).copied().collect::<Vec<_>>().join(", ");
                if members.len() > NAMED {
                    named.push_str(&format!(" and {} more", members.len() - NAMED));
                }
                format!(
                    "the log begins with the group already formed, at {kind} {shown}: the replay first forms it from {empty} with the consumers already in it ({named}), and the log's first line is at {:.3} s of the replay, once it is Stable",
                    lead as f64 / 1000.0,
                )
            }
            None => format!(
                "the log begins with the group at {kind} {shown}: the replay's group starts as {empty}, so that its {kind}s are the log's, and each consumer when the log first shows it"
            ),
        };
        say(text, vec![line]);
    }

    // ------------------------------------------------------------------ consumers and actions
    let mut consumers: Vec<ConsumerSpec> = Vec::new();
    let mut actions: Vec<ActionSpec> = Vec::new();
    let people: Vec<&Person> = story.people.iter().take(MAX_CONSUMERS).collect();
    if story.people.len() > MAX_CONSUMERS {
        say(
            format!(
                "the log names {} consumers; only the first {MAX_CONSUMERS} (the limit) are replayed",
                story.people.len()
            ),
            Vec::new(),
        );
    }
    let mut session_default_said = false;
    for p in people {
        // In a group formed before the log, a consumer already in it starts at 0.
        let start = if lead.is_some() && !p.newcomer {
            0
        } else {
            rel(p.first_at)
        };
        let mut spec = ConsumerSpec {
            name: Some(p.name.clone()),
            start_ms: Some(start),
            group_instance_id: p.instance.clone(),
            ..ConsumerSpec::default()
        };
        if consumer_protocol {
            spec.group_protocol = Some(GroupProtocol::Consumer);
        }
        if p.named_by_member_id {
            say(
                format!(
                    "consumer `{}` is named by its member id: the log never prints its client id",
                    p.name
                ),
                vec![p.first_line],
            );
        }
        if p.topics.iter().any(|t| !topic_names.contains(t))
            || (!p.topics.is_empty() && p.topics.len() != topic_names.len())
        {
            let ts: Vec<String> = p
                .topics
                .iter()
                .filter(|t| topic_names.contains(t))
                .cloned()
                .collect();
            if !ts.is_empty() {
                spec.subscription = Some(Subscription::Topics(ts));
            }
        }
        let session_ms = if consumer_protocol {
            CONSUMER_SESSION_TIMEOUT_MS
        } else if let Some((st, l)) = p.session_timeout_ms {
            if st != SESSION_TIMEOUT_MS {
                spec.session_timeout_ms = Some(st);
            }
            say(
                format!(
                    "`{}`'s session.timeout.ms is {st} ms, as the broker prints it",
                    p.name
                ),
                vec![l],
            );
            st
        } else {
            SESSION_TIMEOUT_MS
        };
        if let Some((rt, l)) = p.rebalance_timeout_ms {
            if !consumer_protocol && rt != MAX_POLL_INTERVAL_MS {
                spec.max_poll_interval_ms = Some(rt);
                say(
                    format!(
                        "`{}`'s max.poll.interval.ms is {rt} ms (its rebalanceTimeoutMs)",
                        p.name
                    ),
                    vec![l],
                );
            }
        }
        // Poll timeouts: estimate max.poll.interval.ms from the first one.
        let polls: Vec<&Episode> = p
            .episodes
            .iter()
            .filter(|e| matches!(e, Episode::PollTimeout { .. }))
            .collect();
        let mut max_poll = spec.max_poll_interval_ms.unwrap_or(MAX_POLL_INTERVAL_MS);
        if let Some(Episode::PollTimeout { at, line, since }) = polls.first() {
            match since {
                Some((from, from_line)) if spec.max_poll_interval_ms.is_none() => {
                    let gap = (at - from).max(1_000) as u64;
                    let est = gap.div_ceil(1_000) * 1_000;
                    let est = est.min(crate::scenario::MAX_SETTING_MS);
                    max_poll = est;
                    if est != MAX_POLL_INTERVAL_MS {
                        spec.max_poll_interval_ms = Some(est);
                    }
                    say(
                        format!(
                            "`{}`'s max.poll.interval.ms is estimated at {est} ms: from its assignment at {:.3} s to its poll timeout at {:.3} s",
                            p.name,
                            rel(*from) as f64 / 1000.0,
                            rel(*at) as f64 / 1000.0
                        ),
                        vec![*from_line, *line],
                    );
                }
                _ if spec.max_poll_interval_ms.is_some() => {}
                _ => say(
                    format!(
                        "`{}`'s max.poll.interval.ms is not in the log: {max_poll} ms assumed",
                        p.name
                    ),
                    vec![*line],
                ),
            }
        }
        if polls.len() >= 2 {
            let processing = max_poll
                .saturating_add(PROCESSING_MS)
                .min(crate::scenario::MAX_SETTING_MS);
            spec.processing_ms = Some(processing);
            let lines: Vec<LineRef> = polls
                .iter()
                .filter_map(|e| match e {
                    Episode::PollTimeout { line, .. } => Some(*line),
                    _ => None,
                })
                .take(10)
                .collect();
            say(
                format!(
                    "`{}` timed out in poll {} times: each batch is assumed to take {processing} ms, longer than its max.poll.interval.ms ({max_poll} ms)",
                    p.name,
                    polls.len()
                ),
                lines,
            );
        }
        // Episodes → actions.
        let mut last = start;
        let eps = &p.episodes;
        let mut i = 0;
        while i < eps.len() {
            let next_back = || {
                eps[i + 1..].iter().find_map(|e| match e {
                    Episode::Back { at, .. } => Some(*at),
                    _ => None,
                })
            };
            match &eps[i] {
                Episode::Close { at, line, reason } => {
                    let t = rel(*at).max(last);
                    actions.push(ActionSpec::Close {
                        at_ms: t,
                        consumer: p.name.clone(),
                    });
                    let why = if reason.is_empty() {
                        String::new()
                    } else {
                        format!(" ({reason})")
                    };
                    say(
                        format!("`{}` closes at {:.3} s{why}", p.name, t as f64 / 1000.0),
                        vec![*line],
                    );
                    last = t;
                    if let Some(Episode::Back { at, line }) = eps.get(i + 1) {
                        let t = rel(*at).max(last + 1);
                        actions.push(ActionSpec::Restart {
                            at_ms: t,
                            consumer: p.name.clone(),
                        });
                        say(
                            format!(
                                "`{}` starts again at {:.3} s (a new process)",
                                p.name,
                                t as f64 / 1000.0
                            ),
                            vec![*line],
                        );
                        last = t;
                        i += 1;
                    }
                }
                Episode::Silent { at, line, why } => {
                    let removed = rel(*at);
                    let silent_from = removed.saturating_sub(session_ms).max(last + 1);
                    if !session_default_said && p.session_timeout_ms.is_none() {
                        say(
                            format!(
                                "session.timeout.ms is not printed: the default {session_ms} ms assumed to place the silences before removals"
                            ),
                            Vec::new(),
                        );
                        session_default_said = true;
                    }
                    match next_back() {
                        Some(back) => {
                            let duration = rel(back).saturating_sub(silent_from).max(1);
                            actions.push(ActionSpec::Pause {
                                at_ms: silent_from,
                                consumer: p.name.clone(),
                                duration_ms: Some(duration),
                                heartbeats: true,
                                polls: true,
                            });
                            say(
                                format!(
                                    "`{}` stops heartbeating and polling from {:.3} s for {duration} ms (a pause, as a long GC does): it is {why} at {:.3} s and seen again at {:.3} s",
                                    p.name,
                                    silent_from as f64 / 1000.0,
                                    removed as f64 / 1000.0,
                                    rel(back) as f64 / 1000.0
                                ),
                                vec![*line],
                            );
                            last = silent_from + duration;
                            // The return is the pause's end.
                            if let Some(j) = eps[i + 1..]
                                .iter()
                                .position(|e| matches!(e, Episode::Back { .. }))
                            {
                                i += j + 1;
                            }
                        }
                        None => {
                            actions.push(ActionSpec::Kill {
                                at_ms: silent_from,
                                consumer: p.name.clone(),
                            });
                            say(
                                format!(
                                    "`{}` dies (no LeaveGroup) at {:.3} s: it is {why} at {:.3} s and never seen again",
                                    p.name,
                                    silent_from as f64 / 1000.0,
                                    removed as f64 / 1000.0
                                ),
                                vec![*line],
                            );
                            break;
                        }
                    }
                }
                Episode::PollTimeout { at, line, .. } if polls.len() < 2 => {
                    let t = rel(*at);
                    let from = t.saturating_sub(max_poll).max(last + 1);
                    let until = next_back().map_or(t + PROCESSING_MS, rel).max(t + 1);
                    let duration = until - from;
                    actions.push(ActionSpec::Pause {
                        at_ms: from,
                        consumer: p.name.clone(),
                        duration_ms: Some(duration),
                        heartbeats: false,
                        polls: true,
                    });
                    say(
                        format!(
                            "`{}`'s poll loop is stuck from {:.3} s for {duration} ms (one slow batch; heartbeats go on): its poll timeout is at {:.3} s",
                            p.name,
                            from as f64 / 1000.0,
                            t as f64 / 1000.0
                        ),
                        vec![*line],
                    );
                    last = from + duration;
                }
                Episode::PollTimeout { .. } | Episode::Back { .. } => {}
                Episode::StaticRestart { at, line } => {
                    let t = rel(*at).max(last + 2);
                    let down = t.saturating_sub(STATIC_DOWN_MS).max(last + 1);
                    actions.push(ActionSpec::Kill {
                        at_ms: down,
                        consumer: p.name.clone(),
                    });
                    actions.push(ActionSpec::Restart {
                        at_ms: t,
                        consumer: p.name.clone(),
                    });
                    say(
                        format!(
                            "static member `{}` is restarted: its old process stops at {:.3} s (assumed {STATIC_DOWN_MS} ms before) and the new one replaces it at {:.3} s",
                            p.name,
                            down as f64 / 1000.0,
                            t as f64 / 1000.0
                        ),
                        vec![*line],
                    );
                    last = t;
                }
            }
            i += 1;
        }
        consumers.push(spec);
    }

    let last_action = actions.iter().map(ActionSpec::at_ms).max().unwrap_or(0);
    let mut end_ms = rel(story.last_at).max(last_action).saturating_add(TAIL_MS);
    if end_ms > MAX_END_MS {
        say(
            format!("the log spans more than {MAX_END_MS} ms (30 days, the longest scenario): the replay stops there"),
            Vec::new(),
        );
        end_ms = MAX_END_MS;
        actions.retain(|a| a.at_ms() <= MAX_END_MS);
    }
    say(
        format!("the replay runs {TAIL_MS} ms past the last line"),
        Vec::new(),
    );
    crate::sort::sort_by_key(&mut actions, ActionSpec::at_ms);

    let hints = if story.version_hints.is_empty() {
        String::new()
    } else {
        format!(" Line forms: {}.", story.version_hints.join("; "))
    };
    let files = ctx.files.join(", ");
    let mut description = format!(
        "Replayed from a Kafka log ({files}: {} lines, {} about consumer groups, {} skipped) by rebalance-sim from-log. Group `{}`, {} consumer(s), {} broker line(s) and {} client line(s).{hints} Assumed:",
        ctx.stats.lines,
        ctx.stats.recognised,
        ctx.stats.skipped + ctx.stats.too_long,
        story.group,
        consumers.len(),
        story.broker_lines,
        story.client_lines,
    );
    for a in &assumed {
        description.push_str("\n- ");
        description.push_str(&a.text);
        if !a.lines.is_empty() {
            let ls: Vec<String> = a.lines.iter().map(|l| where_is(ctx.files, *l)).collect();
            description.push_str(&format!(" ({})", ls.join(", ")));
        }
    }
    if description.chars().count() > MAX_TEXT_CHARS {
        description = description.chars().take(MAX_TEXT_CHARS - 1).collect();
        description.push('…');
    }
    let scenario = Scenario {
        version: SCENARIO_VERSION,
        name: Some(format!("Replay of group {}", story.group)),
        description: Some(description),
        seed: 0,
        group_id: story.group.clone(),
        end_ms,
        coordinator: CoordinatorSettings {
            kafka_version,
            ..Default::default()
        },
        cluster: ClusterSettings {
            brokers: cluster.brokers,
            offsets_partitions: cluster.offsets_partitions,
            ..Default::default()
        },
        client_defaults: ConsumerSpec {
            subscription: Some(Subscription::Topics(topic_names)),
            assignors,
            ..ConsumerSpec::default()
        },
        network: Default::default(),
        topics,
        consumers,
        actions,
        preloaded_groups,
        mode: None,
    };
    (scenario, assumed)
}
