//! The story a log tells: each recognised line becomes a [`Fact`]; the facts of the chosen group,
//! in time order, become people (one per client), their episodes (joined, closed, went silent,
//! timed out in poll, restarted) and the group's milestones (states, generations, epochs).

use crate::collections::Map;

use super::line::Origin;
use super::LineRef;

/// What one line says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Fact {
    // ---------------------------------------------------------------- broker, classic (§2)
    /// B1: `Preparing to rebalance group G ... with old generation N ... (reason: R)`.
    Preparing {
        old_generation: i64,
        reason: Option<String>,
    },
    /// B2: `Stabilized group G generation N ... with M members`.
    Stabilized { generation: i64, members: Option<i64> },
    /// B2: `Group G with generation N is now empty`.
    Empty { generation: i64 },
    /// B2: `Group G could not complete rebalance because no members rejoined`.
    NoRejoin,
    /// B3 / §3: a member removed after its session timeout.
    SessionExpired { member: String },
    /// B4: a new member id handed out.
    MemberIdGiven {
        member: String,
        instance: Option<String>,
    },
    /// B6: a static member's id replaced.
    StaticReplaced {
        instance: String,
        old_member: String,
        new_member: Option<String>,
    },
    /// B5: the leader's SyncGroup.
    AssignmentReceived { leader: Option<String>, generation: i64 },
    /// B7: LeaveGroup.
    Left {
        member: String,
        client_id: Option<String>,
        instance: Option<String>,
        session_timeout_ms: Option<u64>,
        rebalance_timeout_ms: Option<u64>,
        protocols: Vec<String>,
        reason: Option<String>,
    },
    /// B9: `Group G transitioned to Dead in generation N`.
    Dead { generation: i64 },
    // ---------------------------------------------------------------- broker, KIP-848 (§3)
    /// A member joins (or a static member replaces another).
    EpochJoin {
        member: String,
        instance: Option<String>,
        protocol: String,
        replaces: Option<String>,
    },
    /// `Bumped group epoch to N`.
    EpochBumped { epoch: i64 },
    /// `Computed a new target assignment for epoch N with 'A' assignor`.
    TargetComputed { epoch: i64, assignor: String },
    /// A member left.
    EpochLeft { member: String, temporarily: bool },
    /// Fenced after failing to revoke within the rebalance timeout.
    RevocationTimeout { member: String, within_ms: u64 },
    /// A conversion between classic and consumer groups.
    Converted { text: String },
    // ---------------------------------------------------------------- client (§4, §5)
    /// C1.
    Subscribed { topics: Vec<String> },
    /// C2 (the broker id, from `Integer.MAX_VALUE - id`).
    CoordinatorFound { broker: i32 },
    /// C3.
    Joining,
    /// C4.
    RejoinRequested { reason: String },
    /// C5.
    Joined {
        generation: i64,
        member: Option<String>,
        protocol: Option<String>,
    },
    /// C7.
    Synced { generation: i64 },
    /// C6: the leader's assignment.
    LeaderAssigned {
        generation: Option<i64>,
        assignment: Vec<(String, Vec<String>)>,
    },
    /// C10.
    Assigned { partitions: Vec<String> },
    /// C11.
    Revoked { partitions: Vec<String> },
    /// C12.
    Lost,
    /// C14.
    LeaveSent { member: String, reason: Option<String> },
    /// C18.
    PollTimeout,
    /// C17 (and the 4.x heartbeat errors).
    Kicked { error: String },
    /// C19: fenced static instance.
    InstanceFenced { instance: String },
    /// C21 / the application's `CommitFailedException`.
    CommitFailed,
    /// §5: `Member M with epoch E transitioned from A to B`.
    Transition {
        member: String,
        epoch: i64,
        from: String,
        to: String,
    },
}

/// One recognised line.
#[derive(Clone, Debug)]
pub(crate) struct Entry {
    /// Absolute time (ms).
    pub at: i64,
    /// Where.
    pub at_line: LineRef,
    /// The group it is about (`None`: unknown, e.g. a client line without `groupId`).
    pub group: Option<String>,
    /// Who printed it.
    pub origin: Origin,
    /// The `__consumer_offsets` partition a broker line names.
    pub offsets_partition: Option<i32>,
    /// What it says.
    pub fact: Fact,
    /// The line, cut to [`super::MAX_MARK_CHARS`].
    pub text: String,
}

/// What happened to one consumer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Episode {
    /// It closed (LeaveGroup for a reason other than a poll timeout).
    Close { at: i64, line: LineRef, reason: String },
    /// It was removed after its session timeout (or fenced for failing to revoke).
    Silent { at: i64, line: LineRef, why: String },
    /// It left because of `max.poll.interval.ms`; `since` is when it last got an assignment.
    PollTimeout {
        at: i64,
        line: LineRef,
        since: Option<(i64, LineRef)>,
    },
    /// It is seen again after a close or a silence.
    Back { at: i64, line: LineRef },
    /// A static member's new process replaced its old member id.
    StaticRestart { at: i64, line: LineRef },
}

impl Episode {
    pub(crate) fn at(&self) -> i64 {
        match self {
            Self::Close { at, .. }
            | Self::Silent { at, .. }
            | Self::PollTimeout { at, .. }
            | Self::Back { at, .. }
            | Self::StaticRestart { at, .. } => *at,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Life {
    Alive,
    Gone,
    Silent,
}

/// One consumer (a client id, or a member id when the log names no client).
#[derive(Clone, Debug)]
pub(crate) struct Person {
    pub name: String,
    pub instance: Option<String>,
    pub first_at: i64,
    pub first_line: LineRef,
    pub episodes: Vec<Episode>,
    pub session_timeout_ms: Option<(u64, LineRef)>,
    pub rebalance_timeout_ms: Option<(u64, LineRef)>,
    pub topics: Vec<String>,
    /// Whether the name is a member id (no client id in the log).
    pub named_by_member_id: bool,
    /// Whether the log shows it join as a new member (its first line about it is its startup or
    /// the broker handing it a member id), rather than already in the group.
    pub newcomer: bool,
    life: Life,
    last_assigned: Option<(i64, LineRef)>,
    /// The last line about it.
    pub last_at: i64,
}

/// A milestone of the group, for the check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Milestone {
    /// The group entered this state (`PreparingRebalance`, `CompletingRebalance`, `Stable`, `Empty`, `Dead`).
    State(String),
    /// The generation became this (classic).
    Generation(i64),
    /// The group epoch became this (consumer protocol).
    Epoch(i64),
}

impl std::fmt::Display for Milestone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::State(s) => write!(f, "state {s}"),
            Self::Generation(g) => write!(f, "generation {g}"),
            Self::Epoch(e) => write!(f, "group epoch {e}"),
        }
    }
}

/// The reconstructed story of one group.
#[derive(Clone, Debug)]
pub(crate) struct Story {
    pub group: String,
    pub t0: i64,
    pub last_at: i64,
    pub people: Vec<Person>,
    pub consumer_protocol: bool,
    pub assignor: Option<(String, LineRef)>,
    /// Topic → (partitions seen, the line that showed the highest).
    pub topics: Map<String, (i32, Option<LineRef>)>,
    pub milestones: Vec<(i64, LineRef, Milestone)>,
    pub broker_lines: u64,
    pub client_lines: u64,
    pub coordinator: Option<(i32, LineRef)>,
    /// The group's `__consumer_offsets` partition as its broker lines name it (the first).
    pub offsets_partition: Option<(i32, LineRef)>,
    /// Line forms that date the log (`Java coordinator`, `Generation{...}`, ...).
    pub version_hints: Vec<&'static str>,
    /// Lines that contradict what came before (at most 20 kept).
    pub contradictions: Vec<(String, Vec<LineRef>)>,
    /// A group that already had a generation (classic) or a group epoch (consumer protocol) when
    /// the log begins, as a production log rarely starts with the group's creation: that
    /// generation or epoch, and the first line that shows it.
    pub formed: Option<(i64, LineRef)>,
}

/// `consumer-orders-app-1-6f1c2a9e-3b7d-4a0e-9a55-1c2d3e4f5a6b` → `consumer-orders-app-1`
/// (a classic member id is `<client.id or group.instance.id>-<UUID>`, reference §1).
pub(crate) fn member_prefix(member: &str) -> Option<&str> {
    let b = member.as_bytes();
    if b.len() < 38 || b[b.len() - 37] != b'-' {
        return None;
    }
    let uuid = &member[member.len() - 36..];
    let ok = uuid.char_indices().all(|(i, c)| {
        if [8, 13, 18, 23].contains(&i) {
            c == '-'
        } else {
            c.is_ascii_hexdigit()
        }
    });
    ok.then(|| &member[..member.len() - 37])
}

fn member_of(fact: &Fact) -> Option<&str> {
    match fact {
        Fact::SessionExpired { member }
        | Fact::MemberIdGiven { member, .. }
        | Fact::Left { member, .. }
        | Fact::EpochJoin { member, .. }
        | Fact::EpochLeft { member, .. }
        | Fact::RevocationTimeout { member, .. } => Some(member),
        Fact::StaticReplaced { old_member, .. } => Some(old_member),
        _ => None,
    }
}

/// Members named in a B1 reason: `Adding new member X ...`, `removing member X on ...`.
fn reason_member(reason: &str) -> Option<(&str, &str)> {
    for (lead, kind) in [
        ("Adding new member ", "new"),
        ("removing member ", "removing"),
        ("Removing member ", "removing"),
    ] {
        if let Some(rest) = reason.strip_prefix(lead) {
            let id = rest.split([' ', ';']).next().unwrap_or("");
            return Some((id, kind));
        }
    }
    None
}

/// Builds the story of `group` from its entries (sorted by time, then file and line).
pub(crate) fn build(group: &str, entries: &[Entry]) -> Story {
    let t0 = entries.first().map_or(0, |e| e.at);
    let mut story = Story {
        group: group.to_owned(),
        t0,
        last_at: entries.last().map_or(0, |e| e.at),
        people: Vec::new(),
        consumer_protocol: false,
        assignor: None,
        topics: Map::new(),
        milestones: Vec::new(),
        broker_lines: 0,
        client_lines: 0,
        coordinator: None,
        offsets_partition: None,
        version_hints: Vec::new(),
        contradictions: Vec::new(),
        formed: None,
    };
    // The group's generation, and its group epoch, at the first line that tells it.
    let mut first_generation: Option<(i64, LineRef)> = None;
    let mut first_epoch: Option<(i64, LineRef)> = None;
    let mut max_generation: Option<(i64, LineRef)> = None;
    let contradict = |story_c: &mut Vec<(String, Vec<LineRef>)>, text: String, lines: Vec<LineRef>| {
        if story_c.len() < 20 {
            story_c.push((text, lines));
        }
    };
    // Pass 1: member id → client id, from the lines that say both.
    let mut member_client: Map<String, String> = Map::new();
    let mut instance_client: Map<String, String> = Map::new();
    for e in entries {
        if let Origin::Client {
            client_id,
            instance_id,
            ..
        } = &e.origin
        {
            if let Some(i) = instance_id {
                instance_client.insert(i.clone(), client_id.clone());
            }
            let m = match &e.fact {
                Fact::Joined { member: Some(m), .. }
                | Fact::LeaveSent { member: m, .. }
                | Fact::Transition { member: m, .. } => Some(m),
                _ => None,
            };
            if let Some(m) = m.filter(|m| !m.is_empty()) {
                member_client.insert(m.clone(), client_id.clone());
            }
        }
        if let Fact::Left {
            member,
            client_id: Some(c),
            ..
        } = &e.fact
        {
            member_client.insert(member.clone(), c.clone());
        }
    }
    let name_of = |member: &str| -> (String, bool) {
        if let Some(c) = member_client.get(member) {
            return (c.clone(), false);
        }
        if let Some(p) = member_prefix(member) {
            if let Some(c) = instance_client.get(p) {
                return (c.clone(), false);
            }
            return (p.to_owned(), false);
        }
        (member.to_owned(), true)
    };
    // Pass 2: the story.
    let mut index: Map<String, usize> = Map::new();
    let mut group_assigned: Option<(i64, LineRef)> = None;
    let mut seen_generation: Map<i64, ()> = Map::new();
    let mut has_broker_milestones = false;
    for e in entries {
        match e.origin {
            Origin::Broker { .. } => story.broker_lines += 1,
            Origin::Client { .. } => story.client_lines += 1,
            Origin::Unknown => {}
        }
        if matches!(
            e.fact,
            Fact::Preparing { .. } | Fact::Stabilized { .. } | Fact::EpochBumped { .. }
        ) {
            has_broker_milestones = true;
        }
    }
    for e in entries {
        let line = e.at_line;
        let at = e.at;
        // Who the line is about.
        let who: Option<(String, bool, Option<String>)> = match (&e.origin, &e.fact) {
            (
                Origin::Client {
                    client_id,
                    instance_id,
                    ..
                },
                _,
            ) if !client_id.is_empty() => Some((client_id.clone(), false, instance_id.clone())),
            (_, Fact::Preparing { reason: Some(r), .. }) => reason_member(r).map(|(m, _)| {
                let (n, by_id) = name_of(m);
                (n, by_id, None)
            }),
            (
                _,
                Fact::MemberIdGiven {
                    member,
                    instance: Some(instance),
                },
            ) => {
                let (n, by_id) = name_of(member);
                Some((n, by_id, Some(instance.clone())))
            }
            (
                _,
                Fact::StaticReplaced {
                    instance, old_member, ..
                },
            ) => {
                let (n, by_id) = name_of(old_member);
                Some((n, by_id, Some(instance.clone())))
            }
            (
                _,
                Fact::EpochJoin {
                    member,
                    instance,
                    replaces,
                    ..
                },
            ) => {
                let (n, by_id) = name_of(replaces.as_deref().unwrap_or(member));
                Some((n, by_id, instance.clone()))
            }
            (_, f) => member_of(f).map(|m| {
                let (n, by_id) = name_of(m);
                (n, by_id, None)
            }),
        };
        let person = who.and_then(|(name, by_id, instance)| {
            if name.is_empty() {
                return None;
            }
            let i = *index.entry(name.clone()).or_insert_with(|| {
                story.people.push(Person {
                    name: name.clone(),
                    instance: None,
                    first_at: at,
                    first_line: line,
                    episodes: Vec::new(),
                    session_timeout_ms: None,
                    rebalance_timeout_ms: None,
                    topics: Vec::new(),
                    named_by_member_id: by_id,
                    newcomer: false,
                    life: Life::Alive,
                    last_assigned: None,
                    last_at: at,
                });
                story.people.len() - 1
            });
            let p = &mut story.people[i];
            if p.instance.is_none() {
                p.instance = instance;
            }
            p.last_at = at;
            if p.first_line == line {
                p.newcomer = match &e.fact {
                    Fact::Subscribed { .. } | Fact::MemberIdGiven { .. } | Fact::EpochJoin { .. } => true,
                    Fact::Preparing { reason: Some(r), .. } => matches!(reason_member(r), Some((_, "new"))),
                    _ => false,
                };
            }
            Some(i)
        });
        if first_generation.is_none() {
            first_generation = match &e.fact {
                // The rebalance starts from the group's generation.
                Fact::Preparing { old_generation, .. } => Some(*old_generation),
                // The log shows the generation made: the group had the one before.
                Fact::Stabilized { generation, .. } | Fact::Joined { generation, .. } => Some(generation - 1),
                // The generation is already made when the log begins.
                Fact::Empty { generation }
                | Fact::Dead { generation }
                | Fact::AssignmentReceived { generation, .. }
                | Fact::Synced { generation }
                | Fact::LeaderAssigned {
                    generation: Some(generation),
                    ..
                } => Some(*generation),
                _ => None,
            }
            .map(|g| (g, line));
        }
        if first_epoch.is_none() {
            first_epoch = match &e.fact {
                // The bump is from the group's epoch.
                Fact::EpochBumped { epoch } => Some(epoch - 1),
                Fact::TargetComputed { epoch, .. } => Some(*epoch),
                _ => None,
            }
            .map(|g| (g, line));
        }
        // Version hints.
        let hint = match (&e.fact, e.text.contains("(__consumer_offsets-")) {
            (Fact::Preparing { .. } | Fact::Stabilized { .. }, true) => {
                Some("Scala GroupCoordinator (Kafka ≤ 4.0)")
            }
            (Fact::Preparing { .. } | Fact::Stabilized { .. }, false) if e.text.trim_end().ends_with('.') => {
                Some("Java GroupMetadataManager (Kafka 3.7+ / 4.x)")
            }
            (Fact::EpochJoin { .. } | Fact::EpochBumped { .. }, _) => {
                Some("KIP-848 consumer protocol (Kafka 3.8+ / 4.x)")
            }
            (Fact::Joined { member: Some(_), .. }, _) => Some("client prints Generation{...} (Kafka 2.6+)"),
            (Fact::Joined { member: None, .. }, _) => Some("client prints a bare generation (Kafka 2.0–2.5)"),
            _ => None,
        };
        if let Some(h) = hint {
            if !story.version_hints.contains(&h) {
                story.version_hints.push(h);
            }
        }
        let appear = |p: &mut Person| match p.life {
            Life::Gone | Life::Silent => {
                p.episodes.push(Episode::Back { at, line });
                p.life = Life::Alive;
            }
            Life::Alive => {}
        };
        match &e.fact {
            Fact::Preparing {
                reason,
                old_generation,
            } => {
                story
                    .milestones
                    .push((at, line, Milestone::State("PreparingRebalance".into())));
                if let Some((g, l)) = max_generation {
                    if *old_generation < g {
                        contradict(
                            &mut story.contradictions,
                            format!("the old generation {old_generation} is below generation {g}, which stabilised before"),
                            vec![l, line],
                        );
                    }
                }
                if let (Some(r), Some(i)) = (reason, person) {
                    if let Some(rest) = r
                        .split_once("with group instance id ")
                        .or_else(|| r.split_once("with group instanceid "))
                        .map(|(_, x)| x)
                    {
                        let token = rest.split([';', ' ']).next().unwrap_or("");
                        if let Some(inst) = super::broker_classic::option_value(token) {
                            story.people[i].instance.get_or_insert(inst);
                        }
                    }
                    match reason_member(r) {
                        Some((_, "new")) => appear(&mut story.people[i]),
                        Some(_) if r.contains("on heartbeat expiration") => {
                            silent(
                                &mut story.people[i],
                                at,
                                line,
                                "removed after its session timeout",
                            );
                        }
                        Some(_) if r.contains("on LeaveGroup") => {
                            leave(&mut story.people[i], at, line, client_reason(r), group_assigned);
                        }
                        _ => {}
                    }
                }
            }
            Fact::Stabilized { generation, .. } => {
                if let Some((g, l)) = max_generation {
                    if *generation <= g {
                        contradict(
                            &mut story.contradictions,
                            format!("generation {generation} stabilises after generation {g}"),
                            vec![l, line],
                        );
                    }
                }
                if max_generation.is_none_or(|(g, _)| *generation > g) {
                    max_generation = Some((*generation, line));
                }
                story
                    .milestones
                    .push((at, line, Milestone::Generation(*generation)));
                story
                    .milestones
                    .push((at, line, Milestone::State("CompletingRebalance".into())));
                seen_generation.insert(*generation, ());
            }
            Fact::Empty { generation } => {
                story
                    .milestones
                    .push((at, line, Milestone::Generation(*generation)));
                story
                    .milestones
                    .push((at, line, Milestone::State("Empty".into())));
            }
            Fact::AssignmentReceived { .. } => {
                story
                    .milestones
                    .push((at, line, Milestone::State("Stable".into())));
                group_assigned = Some((at, line));
            }
            Fact::Dead { .. } => story.milestones.push((at, line, Milestone::State("Dead".into()))),
            Fact::EpochBumped { epoch } => {
                story.consumer_protocol = true;
                story.milestones.push((at, line, Milestone::Epoch(*epoch)));
                group_assigned = Some((at, line));
            }
            Fact::TargetComputed { assignor, .. } => {
                story.consumer_protocol = true;
                if story.assignor.is_none() {
                    story.assignor = Some((assignor.clone(), line));
                }
            }
            Fact::EpochJoin {
                protocol, replaces, ..
            } => {
                if protocol == "consumer" {
                    story.consumer_protocol = true;
                }
                if let Some(i) = person {
                    if replaces.is_some() {
                        story.people[i].episodes.push(Episode::StaticRestart { at, line });
                    } else {
                        appear(&mut story.people[i]);
                    }
                }
            }
            Fact::Transition { to, .. } => {
                story.consumer_protocol = true;
                if let Some(i) = person {
                    if to == "JOINING" {
                        appear(&mut story.people[i]);
                    }
                    if to == "STABLE" {
                        story.people[i].last_assigned = Some((at, line));
                    }
                }
            }
            Fact::SessionExpired { .. } => {
                if let Some(i) = person {
                    silent(
                        &mut story.people[i],
                        at,
                        line,
                        "removed after its session timeout",
                    );
                }
            }
            Fact::RevocationTimeout { within_ms, .. } => {
                if let Some(i) = person {
                    let why = format!("fenced for not revoking within {within_ms} ms");
                    silent(&mut story.people[i], at, line, &why);
                }
            }
            Fact::Kicked { error } => {
                if let Some(i) = person {
                    let p = &mut story.people[i];
                    let recent = p
                        .episodes
                        .iter()
                        .rev()
                        .any(|ep| matches!(ep, Episode::Silent { .. }) && at - ep.at() <= 60_000);
                    if !recent && p.life == Life::Alive {
                        let why = format!(
                            "its heartbeat got {error} (removed by the coordinator, as the client learns)"
                        );
                        silent(p, at, line, &why);
                    }
                }
            }
            Fact::Left {
                session_timeout_ms,
                rebalance_timeout_ms,
                protocols,
                reason,
                ..
            } => {
                if let Some(i) = person {
                    let p = &mut story.people[i];
                    if let Some(st) = session_timeout_ms {
                        p.session_timeout_ms.get_or_insert((*st, line));
                    }
                    if let Some(rt) = rebalance_timeout_ms {
                        p.rebalance_timeout_ms.get_or_insert((*rt, line));
                    }
                    leave(p, at, line, reason.clone().unwrap_or_default(), group_assigned);
                }
                if story.assignor.is_none() {
                    if let Some(first) = protocols.first() {
                        story.assignor = Some((first.clone(), line));
                    }
                }
            }
            Fact::LeaveSent { reason, .. } => {
                if let Some(i) = person {
                    leave(
                        &mut story.people[i],
                        at,
                        line,
                        reason.clone().unwrap_or_default(),
                        group_assigned,
                    );
                }
            }
            Fact::EpochLeft { temporarily, .. } => {
                if let Some(i) = person {
                    let why = if *temporarily {
                        "left temporarily (static member, epoch -2)"
                    } else {
                        "left the consumer group"
                    };
                    leave(&mut story.people[i], at, line, why.into(), group_assigned);
                }
            }
            Fact::PollTimeout => {
                if let Some(i) = person {
                    poll_timeout(&mut story.people[i], at, line, group_assigned);
                }
            }
            Fact::StaticReplaced { .. } => {
                if let Some(i) = person {
                    story.people[i].episodes.push(Episode::StaticRestart { at, line });
                    story.people[i].life = Life::Alive;
                }
            }
            Fact::MemberIdGiven { .. } | Fact::Joining | Fact::RejoinRequested { .. } => {
                if let Some(i) = person {
                    appear(&mut story.people[i]);
                }
            }
            Fact::Subscribed { topics } => {
                if let Some(i) = person {
                    appear(&mut story.people[i]);
                    story.people[i].topics = topics.clone();
                }
                for t in topics {
                    story.topics.entry(t.clone()).or_insert((0, None));
                }
            }
            Fact::CoordinatorFound { broker } => {
                story.coordinator.get_or_insert((*broker, line));
            }
            Fact::Joined {
                generation, protocol, ..
            } => {
                if let Some(i) = person {
                    appear(&mut story.people[i]);
                }
                if let Some(p) = protocol.as_ref().filter(|p| !p.is_empty()) {
                    story.assignor.get_or_insert((p.clone(), line));
                }
                if !has_broker_milestones && seen_generation.insert(*generation, ()).is_none() {
                    story
                        .milestones
                        .push((at, line, Milestone::Generation(*generation)));
                }
            }
            Fact::Synced { .. } => {
                if let Some(i) = person {
                    story.people[i].last_assigned = Some((at, line));
                }
            }
            Fact::Assigned { partitions } | Fact::Revoked { partitions } => {
                if let (Fact::Assigned { .. }, Some(i)) = (&e.fact, person) {
                    story.people[i].last_assigned = Some((at, line));
                }
                note_partitions(&mut story.topics, partitions, line);
            }
            Fact::LeaderAssigned { assignment, .. } => {
                for (_, parts) in assignment {
                    note_partitions(&mut story.topics, parts, line);
                }
            }
            Fact::NoRejoin
            | Fact::Lost
            | Fact::InstanceFenced { .. }
            | Fact::CommitFailed
            | Fact::Converted { .. } => {}
        }
        if let Origin::Broker { broker: Some(b) } = e.origin {
            story.coordinator.get_or_insert((b, line));
        }
        if let Some(p) = e.offsets_partition {
            story.offsets_partition.get_or_insert((p, line));
        }
    }
    // A new classic group is at generation 0; a new consumer group at epoch 0 (Kafka 4.0-4.2) or 1
    // (4.3+), so only an epoch of 2 or more tells a group formed before.
    story.formed = if story.consumer_protocol {
        first_epoch.filter(|(e, _)| *e >= 2)
    } else {
        first_generation.filter(|(g, _)| *g >= 1)
    };
    story
}

/// `...; client reason: R` → R.
fn client_reason(r: &str) -> String {
    r.split_once("client reason: ")
        .map_or_else(String::new, |(_, c)| c.to_owned())
}

fn silent(p: &mut Person, at: i64, line: LineRef, why: &str) {
    if p.life == Life::Silent {
        return;
    }
    p.episodes.push(Episode::Silent {
        at,
        line,
        why: why.to_owned(),
    });
    p.life = Life::Silent;
}

fn leave(p: &mut Person, at: i64, line: LineRef, reason: String, group_assigned: Option<(i64, LineRef)>) {
    if reason.contains("oll timeout has expired") {
        poll_timeout(p, at, line, group_assigned);
        return;
    }
    if p.life != Life::Alive {
        return;
    }
    p.episodes.push(Episode::Close { at, line, reason });
    p.life = Life::Gone;
}

fn poll_timeout(p: &mut Person, at: i64, line: LineRef, group_assigned: Option<(i64, LineRef)>) {
    // The client's WARN and its LeaveGroup, and the broker's line, are one event.
    if p.episodes
        .iter()
        .rev()
        .any(|ep| matches!(ep, Episode::PollTimeout { .. }) && at - ep.at() <= 5_000)
    {
        return;
    }
    let since = match (p.last_assigned, group_assigned) {
        (Some(a), Some(b)) => Some(if a.0 >= b.0 { a } else { b }),
        (a, b) => a.or(b),
    };
    p.episodes.push(Episode::PollTimeout { at, line, since });
}

fn note_partitions(topics: &mut Map<String, (i32, Option<LineRef>)>, partitions: &[String], line: LineRef) {
    for p in partitions {
        if let Some((topic, n)) = p.rsplit_once('-') {
            if let Ok(n) = n.parse::<i32>() {
                if topics.len() >= super::MAX_TOPICS && !topics.contains_key(topic) {
                    continue;
                }
                let e = topics.entry(topic.to_owned()).or_insert((0, None));
                if n.saturating_add(1) > e.0 && n < crate::scenario::MAX_PARTITIONS {
                    *e = (n + 1, Some(line));
                }
            }
        }
    }
}
