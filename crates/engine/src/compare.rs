//! One story under several protocols at once: a [`CompareSession`] runs one [`Session`] per
//! [`Protocol`] (classic eager, classic cooperative, the consumer protocol of KIP-848), drives them
//! with one timeline, and records who owned which partition when in each.
//!
//! # How the variants are derived
//!
//! From one source scenario (the playground's session, a lesson, an imported file) each variant
//! changes the consumers and nothing else: every consumer of the scenario, of its `client_defaults`,
//! of its `add_consumer` actions and of the consumers a user adds later gets
//!
//! * **eager**: `group.protocol=classic` and its eager assignors in their order (`range`,
//!   `roundrobin`, `sticky`); `["range"]` if it had none;
//! * **cooperative**: `group.protocol=classic` and `["cooperative-sticky"]`;
//! * **consumer**: `group.protocol=consumer`; its assignors stay as they were, but under this
//!   protocol the coordinator assigns (`group.consumer.assignors`, `uniform` first) and the
//!   client-side list is not used.
//!
//! Topics, the cluster, the network, the seed and every other action are the same. Where the
//! derivation changes the story:
//!
//! * a consumer that listed both eager and cooperative assignors (the Java client's default
//!   `[range, cooperative-sticky]`) rebalances eagerly in the source, as Kafka does, and so tells
//!   the eager story; the cooperative variant drops its eager assignors;
//! * an assignor's placement differs (`range` vs `cooperative-sticky`), so the same consumer may
//!   own different partitions in different variants from the first join on;
//! * the network's jitter is drawn from one seeded stream per simulation: the variants send
//!   different messages, so their jitter differs after the first difference;
//! * the consumer protocol's timeouts are the coordinator's (`group.consumer.session.timeout.ms`,
//!   `group.consumer.heartbeat.interval.ms`), not the client's `session.timeout.ms`;
//! * a variant the engine refuses (the consumer protocol before its client is simulated) is
//!   [`VariantStatus::Unavailable`] with the engine's message, and the others run on.
//!
//! # One timeline
//!
//! [`CompareSession::apply`] applies an action to every running variant at the same simulated
//! time: the latest of their next open instants (one may have run the shown instant, another not).
//! [`CompareSession::seek`], [`CompareSession::run_to`] and [`CompareSession::step`] move all of
//! them together; a step goes to the next instant at which anything happens in any of them.
//!
//! # Ownership
//!
//! While a variant runs into time it has not recorded, the session runs it one instant at a time
//! and samples, after every instant in which a consumer logged something other than a batch, what
//! each consumer owns and revokes ([`Lane`]s of [`Segment`]s) and which subscribed partitions no
//! running consumer owns. Seeking back and forth replays the simulation but not the sampling: the
//! recorded lanes are clipped at the shown time. A fork (an action in the past) cuts them at the
//! shown time. Each lane keeps at most [`MAX_SEGMENTS`] segments, dropping its oldest quarter past
//! that, so memory follows the number of ownership changes, bounded, not the session's length.

use crate::collections::Map;

use serde::{Deserialize, Serialize};

use crate::assignor::Strategy;
use crate::client::{ClientEvent, ConsumerConfig, GroupProtocol};
use crate::event::EventKind;
use crate::network::{Endpoint, Payload};
use crate::protocol::TopicPartition;
use crate::scenario::{ActionSpec, ConsumerSpec, Scenario, ScenarioError};
use crate::session::Session;
use crate::sim::{Action, ActionError, NetworkEvent, SimEvent, SimEventKind};
use crate::time::SimTime;
use crate::topic::Subscription;

/// The most segments one lane keeps; past this its oldest quarter is dropped.
pub const MAX_SEGMENTS: usize = 4_096;

/// Virtual time between two snapshots of each variant at first: half a plain session's, since a
/// seek replays every variant (a 30-minute session keeps 120 per variant).
pub const SNAPSHOT_EVERY_MS: u64 = 15_000;

/// Requests are counted per bucket of this much virtual time (the count at a shown time adds the
/// shown bucket's part from the log).
const BUCKET_MS: u64 = 1_000;

/// A protocol a variant runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Protocol {
    /// The classic protocol with eager assignors: every member revokes everything before it rejoins.
    Eager,
    /// The classic protocol with `cooperative-sticky`: only moved partitions are revoked, in a
    /// second rebalance.
    Cooperative,
    /// KIP-848's consumer protocol: the coordinator assigns, members reconcile one by one.
    Consumer,
}

impl Protocol {
    /// Every protocol, in the order the playground shows them.
    pub const ALL: [Protocol; 3] = [Self::Eager, Self::Cooperative, Self::Consumer];

    /// A stable key (share links, element ids).
    pub fn key(self) -> &'static str {
        match self {
            Self::Eager => "eager",
            Self::Cooperative => "cooperative",
            Self::Consumer => "consumer",
        }
    }

    /// The protocol with this key.
    pub fn from_key(key: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.key() == key)
    }

    /// A consumer's configuration under this protocol (see the [module docs](self)).
    pub fn derive_config(self, config: &ConsumerConfig) -> ConsumerConfig {
        let mut c = config.clone();
        match self {
            Self::Eager => {
                c.group_protocol = GroupProtocol::Classic;
                c.assignors = eager_assignors(&config.assignors);
            }
            Self::Cooperative => {
                c.group_protocol = GroupProtocol::Classic;
                c.assignors = vec![Strategy::CooperativeSticky];
            }
            Self::Consumer => c.group_protocol = GroupProtocol::Consumer,
        }
        c
    }

    /// A consumer's spec under this protocol: the same change, written into the spec.
    fn derive_spec(self, spec: &mut ConsumerSpec, defaults: &ConsumerSpec) {
        match self {
            Self::Eager => {
                spec.group_protocol = Some(GroupProtocol::Classic);
                let own = spec.assignors.as_ref().or(defaults.assignors.as_ref());
                spec.assignors = Some(eager_assignors(own.map_or(&[][..], |a| &a[..])));
            }
            Self::Cooperative => {
                spec.group_protocol = Some(GroupProtocol::Classic);
                spec.assignors = Some(vec![Strategy::CooperativeSticky]);
            }
            Self::Consumer => {
                // The classic-only settings are refused under the consumer protocol (Kafka's
                // client rejects them; the coordinator assigns and times sessions).
                spec.group_protocol = Some(GroupProtocol::Consumer);
                spec.assignors = None;
                spec.session_timeout_ms = None;
                spec.heartbeat_interval_ms = None;
            }
        }
    }

    /// The scenario under this protocol: every consumer it starts derived (see the
    /// [module docs](self)).
    pub fn derive_scenario(self, source: &Scenario) -> Scenario {
        let mut s = source.clone();
        let defaults = source.client_defaults.clone();
        self.derive_spec(&mut s.client_defaults, &ConsumerSpec::default());
        for c in &mut s.consumers {
            self.derive_spec(c, &defaults);
        }
        for a in &mut s.actions {
            if let ActionSpec::AddConsumer { consumer, .. } = a {
                self.derive_spec(consumer, &defaults);
            }
        }
        s
    }

    /// An action under this protocol: a consumer it adds is derived.
    pub fn derive_action(self, action: &Action) -> Action {
        match action {
            Action::AddConsumer { config } => Action::AddConsumer {
                config: Box::new(self.derive_config(config)),
            },
            other => other.clone(),
        }
    }
}

fn eager_assignors(list: &[Strategy]) -> Vec<Strategy> {
    let eager: Vec<Strategy> = list
        .iter()
        .copied()
        .filter(|s| !s.supports_cooperative())
        .collect();
    if eager.is_empty() {
        vec![Strategy::Range]
    } else {
        eager
    }
}

/// Whether a variant runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum VariantStatus {
    /// It runs.
    Running,
    /// The engine refused its scenario; the message says why (field, value, limit).
    Unavailable {
        /// The engine's reason.
        message: String,
    },
}

/// One consumer's state over a stretch of time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Segment {
    /// From (the end of the instant that changed it).
    pub from: SimTime,
    /// Until (exclusive); `None` while it lasts.
    pub to: Option<SimTime>,
    /// What it owns (the partitions being revoked included, they are still owned).
    pub owned: Vec<TopicPartition>,
    /// What it is revoking (pending revocation or inside `onPartitionsRevoked`).
    pub revoking: Vec<TopicPartition>,
}

/// What a stretch of a lane shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SegmentKind {
    /// It owns partitions and revokes none.
    Owns,
    /// It revokes some of its partitions.
    Revoking,
    /// It runs and owns nothing.
    OwnsNothing,
}

impl Segment {
    /// What the stretch shows.
    pub fn kind(&self) -> SegmentKind {
        if !self.revoking.is_empty() {
            SegmentKind::Revoking
        } else if self.owned.is_empty() {
            SegmentKind::OwnsNothing
        } else {
            SegmentKind::Owns
        }
    }
}

/// One consumer's ownership over time. A lane ends when the consumer stops (killed, closed,
/// failed); a restart starts a new segment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lane {
    /// The consumer's name.
    pub consumer: String,
    /// Its stretches, in time order, without gaps while it runs.
    pub segments: Vec<Segment>,
    /// Whether older segments were dropped (see [`MAX_SEGMENTS`]).
    pub truncated: bool,
}

/// The state sampled for one consumer.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Sample {
    running: bool,
    owned: Vec<TopicPartition>,
    revoking: Vec<TopicPartition>,
}

/// A partition's unowned stretches.
#[derive(Clone, Debug, Default)]
struct Unowned {
    stretches: Vec<(SimTime, Option<SimTime>)>,
}

/// What one variant recorded while it ran into new time.
#[derive(Clone, Debug, Default)]
struct Tracker {
    /// The last log sequence number read.
    read_seq: u64,
    /// Sampled up to the end of this instant (`None`: not even instant 0).
    until: Option<SimTime>,
    lanes: Vec<Lane>,
    unowned: Map<TopicPartition, Unowned>,
    rebalances: Vec<SimTime>,
    revoked: Vec<(SimTime, u64)>,
    /// Requests sent by consumers per bucket of [`BUCKET_MS`].
    requests: Vec<u64>,
}

/// One variant: a protocol, and its session unless the engine refused it.
#[derive(Clone, Debug)]
pub struct Variant {
    protocol: Protocol,
    status: VariantStatus,
    run: Option<(Session, Tracker)>,
}

impl Variant {
    /// Its protocol.
    pub fn protocol(&self) -> Protocol {
        self.protocol
    }

    /// Whether it runs.
    pub fn status(&self) -> &VariantStatus {
        &self.status
    }

    /// Its session, if it runs.
    pub fn session(&self) -> Option<&Session> {
        self.run.as_ref().map(|(s, _)| s)
    }
}

/// The numbers of one variant up to the shown time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// The protocol.
    pub protocol: Protocol,
    /// Rebalances: classic generation changes, consumer-group epoch bumps.
    pub rebalances: u64,
    /// Partitions passed to `onPartitionsRevoked`, summed.
    pub partitions_revoked: u64,
    /// Each partition's unowned time while the group had a running consumer subscribed to it.
    pub unowned: Vec<PartitionUnowned>,
    /// The sum of every partition's unowned time.
    pub unowned_total_ms: u64,
    /// The longest single stretch any partition was unowned.
    pub unowned_worst_ms: u64,
    /// Requests the consumers sent (every API).
    pub requests_sent: u64,
    /// Records processed again (by anyone) after someone had processed them.
    pub duplicates: u64,
}

/// One partition's unowned time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartitionUnowned {
    /// The partition.
    pub partition: TopicPartition,
    /// The time it was unowned, in total.
    pub total_ms: u64,
    /// Its longest unowned stretch.
    pub worst_ms: u64,
}

/// A variant's lanes between two times, as the ownership chart draws them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OwnershipView {
    /// The protocol.
    pub protocol: Protocol,
    /// The window's start.
    pub from: SimTime,
    /// The window's end (at most the shown time).
    pub to: SimTime,
    /// Every partition the lanes show, sorted (a partition's colour is its index here).
    pub partitions: Vec<TopicPartition>,
    /// One lane per consumer that ran in the window, in the order the consumers were added; its
    /// segments clipped to the window.
    pub lanes: Vec<Lane>,
}

/// One variant as the UI shows it at the shown time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VariantView {
    /// The protocol.
    pub protocol: Protocol,
    /// Running, or why not.
    pub status: VariantStatus,
    /// Its numbers (absent while unavailable).
    pub summary: Option<Summary>,
    /// Its lanes in the window asked for (absent while unavailable).
    pub ownership: Option<OwnershipView>,
}

/// One story under every [`Protocol`]. See the [module docs](self).
#[derive(Clone, Debug)]
pub struct CompareSession {
    source: Scenario,
    /// The user's actions (as given, before derivation) with the time each ran at.
    history: Vec<(SimTime, Action)>,
    variants: Vec<Variant>,
    now: SimTime,
}

impl CompareSession {
    /// A compare session of `source` (validated first: a refused source is an error) at time 0.
    /// A variant whose derived scenario the engine refuses is unavailable, with its message.
    pub fn new(source: Scenario) -> Result<Self, ScenarioError> {
        source.validate()?;
        let variants = Protocol::ALL
            .into_iter()
            .map(|protocol| {
                let derived = protocol.derive_scenario(&source);
                let session = probe(protocol, &derived).and_then(|()| Session::new(derived));
                match session.map(|s| s.with_snapshot_every(SNAPSHOT_EVERY_MS)) {
                    Ok(session) => Variant {
                        protocol,
                        status: VariantStatus::Running,
                        run: Some((session, Tracker::default())),
                    },
                    Err(e) => Variant {
                        protocol,
                        status: VariantStatus::Unavailable {
                            message: e.to_string(),
                        },
                        run: None,
                    },
                }
            })
            .collect();
        Ok(Self {
            source,
            history: Vec::new(),
            variants,
            now: SimTime::ZERO,
        })
    }

    /// The scenario the variants were derived from.
    pub fn source(&self) -> &Scenario {
        &self.source
    }

    /// The variants, in [`Protocol::ALL`]'s order.
    pub fn variants(&self) -> &[Variant] {
        &self.variants
    }

    /// The variant of `protocol`.
    pub fn variant(&self, protocol: Protocol) -> Option<&Variant> {
        self.variants.iter().find(|v| v.protocol == protocol)
    }

    /// The session of `protocol`, if it runs.
    pub fn session(&self, protocol: Protocol) -> Option<&Session> {
        self.variant(protocol).and_then(Variant::session)
    }

    fn running(&mut self) -> impl Iterator<Item = &mut (Session, Tracker)> {
        self.variants.iter_mut().filter_map(|v| v.run.as_mut())
    }

    /// The shown time.
    pub fn now(&self) -> SimTime {
        self.now
    }

    /// The furthest time every running variant recorded (the timeline's end).
    pub fn horizon(&self) -> SimTime {
        self.variants
            .iter()
            .filter_map(Variant::session)
            .map(Session::horizon)
            .min()
            .unwrap_or(self.now)
    }

    /// The user's actions up to the shown time (as given, before derivation).
    pub fn history(&self) -> impl Iterator<Item = &(SimTime, Action)> {
        let now = self.now;
        self.history.iter().filter(move |(at, _)| *at <= now)
    }

    /// Runs every variant to `until`, sampling ownership in time not recorded yet.
    pub fn run_to(&mut self, until: SimTime) {
        for (session, tracker) in self.running() {
            tracker.run_to(session, until);
        }
        self.now = until.max(self.now);
        if let Some(t) = self
            .variants
            .iter()
            .filter_map(Variant::session)
            .map(Session::now)
            .min()
        {
            self.now = t;
        }
    }

    /// Runs every variant to the next instant at which anything happens in any of them. Returns
    /// whether there was one.
    pub fn step(&mut self) -> bool {
        let next = self
            .variants
            .iter()
            .filter_map(Variant::session)
            .filter_map(Session::next_time)
            .min();
        match next {
            Some(t) => {
                self.run_to(t);
                true
            }
            None => false,
        }
    }

    /// Shows every variant as it was at `to` (at most the horizon).
    pub fn seek(&mut self, to: SimTime) {
        let to = to.min(self.horizon());
        for (session, _) in self.running() {
            session.seek(to);
        }
        self.now = to;
    }

    /// Applies `action` to every running variant at the same time (the latest of their next open
    /// instants) and returns it. If any variant refuses it, none gets it. An action in the past
    /// forks every variant (their recorded future and lanes after the shown time are dropped).
    pub fn apply(&mut self, action: Action) -> Result<SimTime, ActionError> {
        let mut at = SimTime::ZERO;
        for v in &self.variants {
            if let Some((session, _)) = &v.run {
                session.sim().check(&v.protocol.derive_action(&action))?;
                at = at.max(session.sim().next_open_instant());
            }
        }
        let now = self.now;
        self.history.retain(|(t, _)| *t <= now);
        for v in &mut self.variants {
            if let Some((session, tracker)) = &mut v.run {
                if session.now() < session.horizon() {
                    tracker.cut(session);
                } else if at > session.now() {
                    // A variant that has not run the shown instant runs it first, sampled.
                    session.run_to(SimTime(at.as_millis() - 1));
                    tracker.read(session);
                }
                let derived = v.protocol.derive_action(&action);
                // Checked above; the time only moves forward to `at`.
                session.apply_at(at, derived)?;
                tracker.read(session);
                tracker.until = Some(session.now());
            }
        }
        self.history.push((at, action));
        self.now = at;
        Ok(at)
    }

    /// The source scenario with the user's actions up to the shown time, `end_ms` the shown
    /// time: opening it in a compare session replays what is on screen.
    pub fn to_scenario(&self) -> Scenario {
        let now = self.now.as_millis();
        let mut s = self.source.clone();
        s.consumers.retain(|c| c.start_ms.unwrap_or(0) <= now);
        s.actions.retain(|a| a.at_ms() <= now);
        s.actions
            .extend(self.history().map(|(at, a)| ActionSpec::from_action(*at, a)));
        let last = s.actions.iter().map(ActionSpec::at_ms).max().unwrap_or(0);
        s.end_ms = now.max(last).max(1);
        s
    }

    /// Every variant at the shown time, its lanes between `from` and the shown time.
    pub fn views(&self, from: SimTime) -> Vec<VariantView> {
        self.variants
            .iter()
            .map(|v| VariantView {
                protocol: v.protocol,
                status: v.status.clone(),
                summary: self.summary(v.protocol),
                ownership: self.ownership(v.protocol, from),
            })
            .collect()
    }

    /// The lanes of `protocol` between `from` and the shown time.
    pub fn ownership(&self, protocol: Protocol, from: SimTime) -> Option<OwnershipView> {
        let v = self.variant(protocol)?;
        let (session, tracker) = v.run.as_ref()?;
        let to = session.now();
        let from = from.min(to);
        let mut partitions: Vec<TopicPartition> = tracker.unowned.keys().cloned().collect();
        let lanes: Vec<Lane> = tracker
            .lanes
            .iter()
            .filter_map(|lane| {
                let segments: Vec<Segment> = lane
                    .segments
                    .iter()
                    .filter(|s| s.from <= to && s.to.is_none_or(|end| end > from))
                    .map(|s| {
                        let end = s.to.map_or(to, |end| end.min(to));
                        Segment {
                            from: s.from.max(from),
                            to: Some(end),
                            owned: s.owned.clone(),
                            revoking: s.revoking.clone(),
                        }
                    })
                    .collect();
                (!segments.is_empty()).then(|| Lane {
                    consumer: lane.consumer.clone(),
                    segments,
                    truncated: lane.truncated,
                })
            })
            .collect();
        for lane in &lanes {
            for s in &lane.segments {
                partitions.extend(s.owned.iter().cloned());
            }
        }
        partitions.sort();
        partitions.dedup();
        Some(OwnershipView {
            protocol,
            from,
            to,
            partitions,
            lanes,
        })
    }

    /// The numbers of `protocol` up to the shown time.
    pub fn summary(&self, protocol: Protocol) -> Option<Summary> {
        let v = self.variant(protocol)?;
        let (session, tracker) = v.run.as_ref()?;
        let now = session.now();
        let rebalances = tracker.rebalances.partition_point(|t| *t <= now) as u64;
        let revoked_n = tracker.revoked.partition_point(|(t, _)| *t <= now);
        let partitions_revoked = tracker.revoked[..revoked_n].iter().map(|(_, n)| n).sum();
        let mut unowned = Vec::new();
        for (tp, u) in &tracker.unowned {
            let mut total = 0;
            let mut worst = 0;
            for (from, to) in &u.stretches {
                if *from > now {
                    break;
                }
                let end = to.map_or(now, |t| t.min(now));
                let d = end.as_millis().saturating_sub(from.as_millis());
                total += d;
                worst = worst.max(d);
            }
            unowned.push(PartitionUnowned {
                partition: tp.clone(),
                total_ms: total,
                worst_ms: worst,
            });
        }
        let unowned_total_ms = unowned.iter().map(|u| u.total_ms).sum();
        let unowned_worst_ms = unowned.iter().map(|u| u.worst_ms).max().unwrap_or(0);
        // Whole buckets before the shown one, then the shown bucket's part from the log.
        let bucket = (now.as_millis() / BUCKET_MS) as usize;
        let whole: u64 = tracker.requests.iter().take(bucket).sum();
        let bucket_start = SimTime(bucket as u64 * BUCKET_MS);
        let log = session.log();
        let first = log.partition_point(|e| e.at < bucket_start);
        let part = if log.first().is_some_and(|e| e.at <= bucket_start) || bucket == 0 {
            log[first..].iter().filter(|e| is_request(e)).count() as u64
        } else {
            // The log of that second was dropped to keep memory bounded: the whole bucket.
            tracker.requests.get(bucket).copied().unwrap_or(0)
        };
        let duplicates = session.sim().duplicates().values().sum();
        Some(Summary {
            protocol,
            rebalances,
            partitions_revoked,
            unowned,
            unowned_total_ms,
            unowned_worst_ms,
            requests_sent: whole + part,
            duplicates,
        })
    }
}

/// Whether the engine serves `protocol` for a consumer added to `derived` (the consumers a user
/// adds later must work too): the derived scenario, plus one consumer from its defaults, validated.
/// A probe the classic protocol refuses too says nothing about `protocol` and is not held against it.
fn probe(protocol: Protocol, derived: &Scenario) -> Result<(), ScenarioError> {
    let with_probe = |p: Protocol| {
        let mut probe = derived.clone();
        probe.consumers.clear();
        probe.actions.clear();
        let mut spec = ConsumerSpec {
            name: Some("compare-probe".into()),
            ..ConsumerSpec::default()
        };
        if derived.client_defaults.subscription.is_none() {
            let topic = derived
                .topics
                .first()
                .map_or("compare-probe", |t| t.name.as_str());
            spec.subscription = Some(Subscription::Topics(vec![topic.to_owned()]));
        }
        p.derive_spec(&mut spec, &derived.client_defaults);
        probe.consumers.push(spec);
        probe.validate()
    };
    match with_probe(protocol) {
        Err(mut e) if with_probe(Protocol::Eager).is_ok() => {
            // The probe is not the user's: name the field, not its index.
            if let Some((_, field)) = e.path.rsplit_once('.') {
                e.path = field.to_owned();
            }
            Err(e)
        }
        _ => derived.validate(),
    }
}

fn is_request(e: &SimEvent) -> bool {
    matches!(
        &e.kind,
        SimEventKind::Network {
            event: NetworkEvent::Sent { message },
        } if matches!(message.from, Endpoint::Consumer(_)) && matches!(message.payload, Payload::Request(_))
    )
}

impl Tracker {
    /// Runs `session` to `until`: replayed time as it is, new time one instant at a time with
    /// samples.
    fn run_to(&mut self, session: &mut Session, until: SimTime) {
        if let Some(done) = self.until {
            if until <= done || session.now() < done {
                session.run_to(until.min(done));
            }
        }
        while self.until.is_none_or(|done| done < until) {
            match session.next_time() {
                Some(t) if t <= until => session.run_to(t),
                _ => session.run_to(until),
            }
            self.read(session);
            self.until = Some(session.now());
        }
    }

    /// Reads the log entries past `read_seq` and samples if a consumer's state may have changed.
    fn read(&mut self, session: &Session) {
        let log = session.log();
        let start = log.partition_point(|e| e.seq <= self.read_seq);
        let mut sample = false;
        for e in &log[start..] {
            match &e.kind {
                SimEventKind::Client { event, .. } => match event {
                    ClientEvent::BatchFetched { .. }
                    | ClientEvent::BatchProcessed { .. }
                    | ClientEvent::ResponseIgnored { .. } => {}
                    ClientEvent::PartitionsRevoked { partitions } => {
                        self.revoked.push((e.at, partitions.len() as u64));
                        sample = true;
                    }
                    _ => sample = true,
                },
                SimEventKind::Coordinator { event, .. } => {
                    if matches!(
                        event,
                        EventKind::GenerationChanged { .. } | EventKind::ConsumerGroupEpochBumped { .. }
                    ) {
                        self.rebalances.push(e.at);
                    }
                }
                SimEventKind::Network { .. } => {
                    if is_request(e) {
                        let b = (e.at.as_millis() / BUCKET_MS) as usize;
                        if self.requests.len() <= b {
                            self.requests.resize(b + 1, 0);
                        }
                        self.requests[b] += 1;
                    }
                }
                SimEventKind::World { .. } => sample = true,
            }
            self.read_seq = e.seq;
        }
        if sample {
            self.sample(session);
        }
    }

    /// Records each consumer's ownership and each partition's ownerlessness at the shown time.
    fn sample(&mut self, session: &Session) {
        let sim = session.sim();
        let at = sim.now();
        let mut subscribed: Vec<&str> = Vec::new();
        let mut owned_now: Vec<&TopicPartition> = Vec::new();
        for name in sim.consumer_names() {
            let Some(c) = sim.consumer(&name) else { continue };
            let running = c.lifecycle().is_running();
            let s = Sample {
                running,
                owned: if running {
                    c.owned().iter().cloned().collect()
                } else {
                    Vec::new()
                },
                revoking: if running {
                    c.revoking().to_vec()
                } else {
                    Vec::new()
                },
            };
            if running {
                subscribed.extend(c.subscribed_topics().iter().map(String::as_str));
                owned_now.extend(c.owned().iter());
            }
            self.record(&name, at, s);
        }
        subscribed.sort_unstable();
        subscribed.dedup();
        owned_now.sort_unstable();
        owned_now.dedup();
        // Partitions of subscribed topics that nobody running owns.
        let registry = sim.topic_registry();
        let mut seen: Vec<TopicPartition> = Vec::new();
        for topic in &subscribed {
            let Some(t) = registry.get(topic) else { continue };
            for p in 0..t.partitions() {
                let tp = TopicPartition::new((*topic).to_owned(), p);
                let free = owned_now.binary_search(&&tp).is_err();
                let u = self.unowned.entry(tp.clone()).or_default();
                let open = u.stretches.last().is_some_and(|(_, to)| to.is_none());
                if free && !open {
                    u.stretches.push((at, None));
                } else if !free && open {
                    if let Some(last) = u.stretches.last_mut() {
                        last.1 = Some(at);
                    }
                }
                seen.push(tp);
            }
        }
        // A partition no running consumer subscribes to any more is not counted from now.
        for (tp, u) in &mut self.unowned {
            if seen.binary_search(tp).is_err() {
                if let Some(last) = u.stretches.last_mut().filter(|(_, to)| to.is_none()) {
                    last.1 = Some(at);
                }
            }
        }
    }

    fn record(&mut self, name: &str, at: SimTime, s: Sample) {
        let i = match self.lanes.iter().position(|l| l.consumer == name) {
            Some(i) => i,
            None => {
                if !s.running {
                    return;
                }
                self.lanes.push(Lane {
                    consumer: name.to_owned(),
                    segments: Vec::new(),
                    truncated: false,
                });
                self.lanes.len() - 1
            }
        };
        let lane = &mut self.lanes[i];
        let open = lane.segments.last_mut().filter(|seg| seg.to.is_none());
        match (open, s.running) {
            (Some(seg), true) if seg.owned == s.owned && seg.revoking == s.revoking => {}
            (Some(seg), running) => {
                seg.to = Some(at);
                if running {
                    lane.segments.push(Segment {
                        from: at,
                        to: None,
                        owned: s.owned,
                        revoking: s.revoking,
                    });
                }
            }
            (None, true) => lane.segments.push(Segment {
                from: at,
                to: None,
                owned: s.owned,
                revoking: s.revoking,
            }),
            (None, false) => {}
        }
        if lane.segments.len() > MAX_SEGMENTS {
            lane.segments.drain(..MAX_SEGMENTS / 4);
            lane.truncated = true;
        }
    }

    /// Forgets what was recorded after the session's shown time (before a fork).
    fn cut(&mut self, session: &Session) {
        let t = session.now();
        for lane in &mut self.lanes {
            lane.segments.retain(|s| s.from <= t);
            if let Some(last) = lane.segments.last_mut() {
                if last.to.is_some_and(|end| end > t) {
                    last.to = None;
                }
            }
        }
        self.lanes.retain(|l| !l.segments.is_empty());
        for u in self.unowned.values_mut() {
            u.stretches.retain(|(from, _)| *from <= t);
            if let Some(last) = u.stretches.last_mut() {
                if last.1.is_some_and(|end| end > t) {
                    last.1 = None;
                }
            }
        }
        self.unowned.retain(|_, u| !u.stretches.is_empty());
        self.rebalances.retain(|at| *at <= t);
        self.revoked.retain(|(at, _)| *at <= t);
        // The shown bucket is counted again from the log up to the shown time.
        let b = (t.as_millis() / BUCKET_MS) as usize;
        self.requests.truncate(b);
        let start = SimTime(b as u64 * BUCKET_MS);
        let log = session.log();
        let from = log.partition_point(|e| e.at < start);
        let n = log[from..].iter().filter(|e| is_request(e)).count() as u64;
        self.requests.resize(b, 0);
        self.requests.push(n);
        self.read_seq = log.last().map_or(0, |e| e.seq);
        self.until = Some(t);
    }
}
