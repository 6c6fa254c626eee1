//! Lessons: narration in 中文 and English laid over a scenario's trace, one step at a time, with
//! "predict" questions whose answers come from the simulation itself (see `docs/lesson-format.md`).
//!
//! A lesson is a JSON file next to its scenario (`lessons/NN-name.lesson.json` beside
//! `lessons/NN-name.json`). Each [`Step`] is anchored to the trace by a [`Matcher`] on the event's
//! kind and fields, searched after the previous step's event, so lessons survive engine changes
//! that add or remove unrelated events. [`Lesson::steps`] resolves every step to its event (an
//! error names the step that never matches); [`Lesson::resolve`] also runs the simulation to each
//! question's reveal point and computes the correct choice with [`Predict::evaluate`]. A reader
//! that has the resolved steps already reads only the texts, as a [`Narration`].
//!
//! Nothing here panics on bad input; every error names the field.

mod facts;
mod narration;

use crate::collections::Set;
use std::fmt;

use serde::{Deserialize, Serialize};

pub use facts::{facts, is_known_kind, loose_eq, normalize_partitions, EventFacts, MemberNames, EVENT_KINDS};
pub use narration::{ChoiceLabel, NarratedStep, Narration, Question};

use crate::scenario::{ActionSpec, Scenario};
use crate::sim::{SimEvent, Simulation};
use crate::time::SimTime;

/// The only lesson format version so far.
pub const LESSON_VERSION: u32 = 1;

/// A text in both languages.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Text {
    /// 中文.
    pub zh: String,
    /// English.
    pub en: String,
}

/// A lesson: a scenario plus narrated steps.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    /// Must be 1.
    pub version: u32,
    /// A short stable id, e.g. `01-first-consumer`.
    pub id: String,
    /// The scenario file this lesson narrates, relative to the lesson file.
    pub scenario: String,
    /// The lesson's title.
    pub title: Text,
    /// One or two sentences: what the learner will see.
    pub summary: Text,
    /// Where the articles simplify or disagree with Kafka, and what Kafka really does.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kafka_notes: Vec<Text>,
    /// The narrated steps, in trace order.
    pub steps: Vec<Step>,
}

/// One narrated step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// A short id, unique in the lesson.
    pub id: String,
    /// The event this step explains: the first event after the previous step's event that
    /// satisfies every field.
    pub when: Matcher,
    /// A short title.
    pub title: Text,
    /// The explanation shown when the step happens.
    pub text: Text,
    /// A question asked *before* this step is shown; its answer is revealed with this step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub predict: Option<Predict>,
    /// A read-only admin command line (`kafka-consumer-groups.sh ... --describe|--list`,
    /// `kafka-topics.sh ...`) whose answer the step shows, run by [`crate::console::run`] on the
    /// world as the step shows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub console: Option<String>,
}

/// Checks a step's console command line: words that split, one of the two tools, and nothing
/// that writes (`--delete`, `--execute`): a step shows the world, it does not change it.
pub fn check_console(line: &str) -> Result<Vec<String>, String> {
    let words = crate::console::split_words(line).map_err(|e| e.to_string())?;
    match words.first().map(String::as_str) {
        Some("kafka-consumer-groups.sh" | "kafka-topics.sh") => {}
        other => {
            return Err(format!(
                "`{}` is not one of the console's tools (kafka-consumer-groups.sh, kafka-topics.sh)",
                other.unwrap_or("")
            ))
        }
    }
    if let Some(w) = words
        .iter()
        .find(|w| matches!(w.as_str(), "--delete" | "--execute" | "--create" | "--alter"))
    {
        return Err(format!(
            "`{w}` changes the world; a lesson step only shows it (use --describe, --list or --dry-run)"
        ));
    }
    Ok(words)
}

/// Which event a step anchors to. `event` is required; every other field narrows the match.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Matcher {
    /// The event kind (`joined_group`, `state_changed`, `response`, ...; see [`EVENT_KINDS`]).
    pub event: String,
    /// `client`, `coordinator`, `network` or `world` (rarely needed: kinds are nearly unique).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// A consumer involved in the event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub consumer: Option<String>,
    /// The Kafka API (`JoinGroup`, `Heartbeat`, `OffsetCommit`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api: Option<String>,
    /// The error code (`REBALANCE_IN_PROGRESS`, `NONE`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The new state (`PreparingRebalance`, `STABLE`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// The previous state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_state: Option<String>,
    /// The generation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generation: Option<i64>,
    /// The leader (consumer name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leader: Option<String>,
    /// The reason (`MemberAdded`, `SessionExpired`, `LeaveGroup`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The topic.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topic: Option<String>,
    /// Exactly these partitions (`topic-partition`, any order).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partitions: Option<Vec<String>>,
    /// The protocol (assignor).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol: Option<String>,
    /// A processed batch with (true) or without (false) duplicates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub has_duplicates: Option<bool>,
    /// A substring of the event's English trace line (a last resort).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Only events at or after this simulated time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after_ms: Option<u64>,
    /// Take the n-th matching event (default 1: the first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nth: Option<u32>,
    /// A consumer-protocol epoch: the member epoch of a `ConsumerGroupHeartbeat` or its response,
    /// of a member's reconciliation or state change; the group epoch of a bump; the target
    /// assignment epoch of a computed target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub epoch: Option<i64>,
}

/// A question asked before a key moment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Predict {
    /// The question.
    pub question: Text,
    /// What to compute from the simulation at the reveal point.
    pub answer: AnswerSpec,
    /// The choices (at least two, distinct values).
    pub choices: Vec<Choice>,
    /// Why the answer is what it is.
    pub explanation: Text,
}

/// What a question's answer is computed from, in the simulation state right after the reveal
/// step's event (at the end of its instant).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum AnswerSpec {
    /// The group leader, as a consumer name (`"none"` without one). Choices are strings.
    Leader,
    /// The group's generation. Choices are integers.
    Generation,
    /// The group state (`"Stable"`, ...). Choices are strings.
    GroupState,
    /// The selected protocol (`"range"`, ...; `"none"`). Choices are strings.
    Protocol,
    /// How many members the group has. Choices are integers.
    MemberCount,
    /// The partitions a consumer owns. Choices are lists of `topic-partition` strings.
    OwnedPartitions {
        /// The consumer.
        consumer: String,
    },
    /// A consumer's client member state (`"STABLE"`, ...). Choices are strings.
    MemberState {
        /// The consumer.
        consumer: String,
    },
    /// Whether a consumer has processed any duplicate so far. Choices are booleans.
    HasDuplicates {
        /// The consumer.
        consumer: String,
    },
    /// The committed offset of a partition (-1 if none). Choices are integers.
    CommittedOffset {
        /// The topic.
        topic: String,
        /// The partition.
        partition: i32,
    },
    /// The consumer whose JoinGroup was the last one the coordinator took in (added or rejoined)
    /// before the reveal point: the member everyone else waited for. Choices are strings.
    LastToJoin,
    /// The group's `__consumer_offsets` partition (`abs(hashCode(group.id)) % 50`). Choices are
    /// integers.
    OffsetsPartition,
    /// The error code carried by the reveal step's own event (`"ILLEGAL_GENERATION"`, ...).
    /// Choices are strings.
    EventError,
    /// The consumer group's epoch (KIP-848), 0 without a consumer group. Choices are integers.
    GroupEpoch,
    /// The consumer group's target assignment epoch, 0 without a consumer group. Choices are
    /// integers.
    AssignmentEpoch,
    /// The consumer group's derived state (`"Empty"`, `"Assigning"`, `"Reconciling"`,
    /// `"Stable"`), `"none"` without a consumer group. Choices are strings.
    ConsumerGroupState,
    /// The member epoch the coordinator holds for the consumer's member id (-2 after a static
    /// member's leave), -1 when the coordinator holds no such member. Choices are integers.
    MemberEpoch {
        /// The consumer.
        consumer: String,
    },
    /// The coordinator's reconciliation state of the consumer's member (`"STABLE"`,
    /// `"UNREVOKED_PARTITIONS"`, `"UNRELEASED_PARTITIONS"`, `"UNKNOWN"`), `"none"` when the
    /// coordinator holds no such member. Choices are strings.
    ReconciliationState {
        /// The consumer.
        consumer: String,
    },
}

/// A choice's value: compared with the computed answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum AnswerValue {
    /// A yes/no answer.
    Bool(bool),
    /// A number.
    Number(i64),
    /// A name (consumer, state, protocol, error code).
    Text(String),
    /// Partitions, as `topic-partition`.
    Partitions(Vec<String>),
}

impl fmt::Display for AnswerValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Bool(b) => write!(f, "{b}"),
            Self::Number(n) => write!(f, "{n}"),
            Self::Text(s) => write!(f, "{s:?}"),
            Self::Partitions(ps) => write!(f, "[{}]", ps.join(", ")),
        }
    }
}

impl AnswerValue {
    fn same(&self, other: &Self) -> bool {
        match (self, other) {
            (Self::Partitions(a), Self::Partitions(b)) => facts::same_partitions(a, b),
            (Self::Text(a), Self::Text(b)) => loose_eq(a, b),
            (a, b) => a == b,
        }
    }
}

/// One choice of a question.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Choice {
    /// What the choice claims (typed by the question's [`AnswerSpec`]).
    pub value: AnswerValue,
    /// What the learner reads.
    pub label: Text,
}

/// What is wrong with a lesson, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonError {
    /// The field, as a path (`steps[3].when.event`), or `""` for the whole document.
    pub path: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for LessonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "lesson: {}", self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for LessonError {}

fn err(path: impl Into<String>, message: impl Into<String>) -> LessonError {
    LessonError {
        path: path.into(),
        message: message.into(),
    }
}

/// A step resolved against a trace: the event it anchors to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResolvedStep {
    /// The step's position in [`Lesson::steps`].
    pub index: usize,
    /// The step's id.
    pub id: String,
    /// The anchored event's sequence number.
    pub seq: u64,
    /// When the anchored event happened.
    pub at: SimTime,
    /// The anchored event's English trace line.
    pub line: String,
    /// The question's computed answer ([`Lesson::resolve`] only).
    pub reveal: Option<Reveal>,
}

/// A question's answer, computed from the simulation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reveal {
    /// The computed value.
    pub value: AnswerValue,
    /// The index of the correct choice.
    pub correct: usize,
}

impl Lesson {
    /// Parses and validates a lesson file.
    pub fn from_json(text: &str) -> Result<Self, LessonError> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| err("", format!("invalid JSON: {e}")))?;
        match value.get("version") {
            None => {
                return Err(err(
                    "version",
                    format!("missing; this program reads version {LESSON_VERSION}"),
                ))
            }
            Some(v) if v.as_u64() != Some(u64::from(LESSON_VERSION)) => {
                return Err(err(
                    "version",
                    format!("unsupported version {v}; this program reads version {LESSON_VERSION}"),
                ))
            }
            _ => {}
        }
        let lesson: Lesson = serde_json::from_str(text).map_err(|e| err("", e.to_string()))?;
        lesson.validate()?;
        Ok(lesson)
    }

    /// The lesson as pretty JSON (what [`Lesson::from_json`] reads).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Checks the values: ids, both languages present, known event kinds, well-typed choices.
    pub fn validate(&self) -> Result<(), LessonError> {
        if self.version != LESSON_VERSION {
            return Err(err("version", format!("unsupported version {}", self.version)));
        }
        if self.id.trim().is_empty() {
            return Err(err("id", "must not be empty"));
        }
        if self.scenario.trim().is_empty() {
            return Err(err("scenario", "must name the scenario file"));
        }
        check_text("title", &self.title)?;
        check_text("summary", &self.summary)?;
        for (i, n) in self.kafka_notes.iter().enumerate() {
            check_text(&format!("kafka_notes[{i}]"), n)?;
        }
        if self.steps.is_empty() {
            return Err(err("steps", "a lesson needs at least one step"));
        }
        let mut ids = Set::new();
        for (i, s) in self.steps.iter().enumerate() {
            let at = format!("steps[{i}]");
            if s.id.trim().is_empty() {
                return Err(err(format!("{at}.id"), "must not be empty"));
            }
            if !ids.insert(s.id.as_str()) {
                return Err(err(format!("{at}.id"), format!("duplicate step id `{}`", s.id)));
            }
            check_text(&format!("{at}.title"), &s.title)?;
            check_text(&format!("{at}.text"), &s.text)?;
            if !is_known_kind(&s.when.event) {
                return Err(err(
                    format!("{at}.when.event"),
                    format!(
                        "unknown event kind `{}`; see docs/lesson-format.md for the list",
                        s.when.event
                    ),
                ));
            }
            if let Some(src) = &s.when.source {
                if !EVENT_KINDS.iter().any(|(k, _)| loose_eq(k, src)) {
                    return Err(err(
                        format!("{at}.when.source"),
                        format!("unknown source `{src}`; expected client, coordinator, network or world"),
                    ));
                }
            }
            if s.when.nth == Some(0) {
                return Err(err(format!("{at}.when.nth"), "counts from 1"));
            }
            if let Some(p) = &s.predict {
                check_predict(&format!("{at}.predict"), p)?;
            }
            if let Some(c) = &s.console {
                check_console(c).map_err(|why| err(format!("{at}.console"), why))?;
            }
        }
        Ok(())
    }

    /// Checks that every consumer the lesson names exists in `scenario`.
    pub fn check_scenario(&self, scenario: &Scenario) -> Result<(), LessonError> {
        let mut names: Set<String> = scenario.consumers.iter().filter_map(|c| c.name.clone()).collect();
        for a in &scenario.actions {
            if let ActionSpec::AddConsumer { consumer, .. } = a {
                if let Some(n) = &consumer.name {
                    names.insert(n.clone());
                }
            }
        }
        let known = |path: String, n: &str| {
            if names.contains(n) {
                Ok(())
            } else {
                Err(err(path, format!("the scenario has no consumer named `{n}`")))
            }
        };
        for (i, s) in self.steps.iter().enumerate() {
            if let Some(c) = &s.when.consumer {
                known(format!("steps[{i}].when.consumer"), c)?;
            }
            if let Some(c) = &s.when.leader {
                known(format!("steps[{i}].when.leader"), c)?;
            }
            if let Some(p) = &s.predict {
                match &p.answer {
                    AnswerSpec::OwnedPartitions { consumer }
                    | AnswerSpec::MemberState { consumer }
                    | AnswerSpec::HasDuplicates { consumer }
                    | AnswerSpec::MemberEpoch { consumer }
                    | AnswerSpec::ReconciliationState { consumer } => {
                        known(format!("steps[{i}].predict.answer.consumer"), consumer)?
                    }
                    _ => {}
                }
            }
        }
        Ok(())
    }

    /// Resolves every step to the event it anchors to in `log`: the `nth` (default first) event
    /// after the previous step's event that satisfies the step's matcher. A step that never
    /// matches is an error naming it. Reveals are left empty (see [`Lesson::resolve`]).
    pub fn steps(&self, log: &[SimEvent]) -> Result<Vec<ResolvedStep>, LessonError> {
        let names = MemberNames::from_log(log);
        let mut out = Vec::with_capacity(self.steps.len());
        let mut pos = 0usize;
        for (i, step) in self.steps.iter().enumerate() {
            let want = step.when.nth.unwrap_or(1);
            let mut seen = 0;
            let mut found = None;
            while pos < log.len() {
                let e = &log[pos];
                pos += 1;
                if step.when.matches(e, &facts(e, &names)) {
                    seen += 1;
                    if seen == want {
                        found = Some(e);
                        break;
                    }
                }
            }
            let Some(e) = found else {
                let after = out.last().map_or("the start".to_owned(), |r: &ResolvedStep| {
                    format!("step `{}` ({})", r.id, r.at)
                });
                return Err(err(
                    format!("steps[{i}].when"),
                    format!(
                        "step `{}` never matches: no{} `{}` event satisfying every field after {after}",
                        step.id,
                        if want > 1 {
                            format!(" {want}th")
                        } else {
                            String::new()
                        },
                        step.when.event
                    ),
                ));
            };
            out.push(ResolvedStep {
                index: i,
                id: step.id.clone(),
                seq: e.seq,
                at: e.at,
                line: e.line(),
                reveal: None,
            });
        }
        Ok(out)
    }

    /// Runs `scenario` to its end, resolves every step, then replays it to each question's reveal
    /// point and computes the correct choice there.
    pub fn resolve(&self, scenario: &Scenario) -> Result<Vec<ResolvedStep>, LessonError> {
        self.check_scenario(scenario)?;
        let mut full = Simulation::new(scenario).map_err(|e| err("scenario", e.to_string()))?;
        full.run_to_end();
        let mut steps = self.steps(full.log())?;
        let mut sim = Simulation::new(scenario).map_err(|e| err("scenario", e.to_string()))?;
        for r in &mut steps {
            let Some(p) = &self.steps[r.index].predict else {
                continue;
            };
            advance_to(&mut sim, r.seq);
            let anchor = full
                .log()
                .iter()
                .find(|e| e.seq == r.seq)
                .ok_or_else(|| err(format!("steps[{}]", r.index), "anchored event vanished"))?;
            r.reveal = Some(
                p.evaluate(&sim, anchor)
                    .map_err(|e| err(format!("steps[{}].predict{}", r.index, e.path), e.message))?,
            );
        }
        Ok(steps)
    }
}

/// Steps `sim` until the event with sequence number `seq` has been emitted (the state is then the
/// one at the end of that event's instant). Stops at the scenario's end.
pub fn advance_to(sim: &mut Simulation, seq: u64) {
    while sim.events_emitted() < seq {
        match sim.next_event_time() {
            Some(t) if sim.end().is_none_or(|end| t <= end) => {
                sim.step();
            }
            _ => {
                sim.run_to_end();
                break;
            }
        }
    }
}

/// A fresh simulation of `scenario`, advanced to the end of the instant of event `seq` (what the
/// UI shows when a step is on screen).
pub fn simulation_at(scenario: &Scenario, seq: u64) -> Result<Simulation, LessonError> {
    let mut sim = Simulation::new(scenario).map_err(|e| err("scenario", e.to_string()))?;
    advance_to(&mut sim, seq);
    Ok(sim)
}

fn check_text(path: &str, t: &Text) -> Result<(), LessonError> {
    if t.zh.trim().is_empty() {
        return Err(err(format!("{path}.zh"), "the Chinese text is missing"));
    }
    if t.en.trim().is_empty() {
        return Err(err(format!("{path}.en"), "the English text is missing"));
    }
    Ok(())
}

fn check_predict(path: &str, p: &Predict) -> Result<(), LessonError> {
    check_text(&format!("{path}.question"), &p.question)?;
    check_text(&format!("{path}.explanation"), &p.explanation)?;
    if p.choices.len() < 2 {
        return Err(err(
            format!("{path}.choices"),
            "a question needs at least two choices",
        ));
    }
    for (i, c) in p.choices.iter().enumerate() {
        let at = format!("{path}.choices[{i}]");
        check_text(&format!("{at}.label"), &c.label)?;
        let ok = matches!(
            (&p.answer, &c.value),
            (
                AnswerSpec::Leader
                    | AnswerSpec::GroupState
                    | AnswerSpec::Protocol
                    | AnswerSpec::MemberState { .. }
                    | AnswerSpec::EventError
                    | AnswerSpec::LastToJoin
                    | AnswerSpec::ConsumerGroupState
                    | AnswerSpec::ReconciliationState { .. },
                AnswerValue::Text(_)
            ) | (
                AnswerSpec::Generation
                    | AnswerSpec::MemberCount
                    | AnswerSpec::CommittedOffset { .. }
                    | AnswerSpec::OffsetsPartition
                    | AnswerSpec::GroupEpoch
                    | AnswerSpec::AssignmentEpoch
                    | AnswerSpec::MemberEpoch { .. },
                AnswerValue::Number(_)
            ) | (AnswerSpec::HasDuplicates { .. }, AnswerValue::Bool(_))
                | (AnswerSpec::OwnedPartitions { .. }, AnswerValue::Partitions(_))
        );
        if !ok {
            return Err(err(
                format!("{at}.value"),
                format!(
                    "{} does not fit a `{}` question ({})",
                    c.value,
                    p.answer.kind(),
                    p.answer.expects()
                ),
            ));
        }
        if p.choices[..i].iter().any(|o| o.value.same(&c.value)) {
            return Err(err(
                format!("{at}.value"),
                format!("duplicate choice {}", c.value),
            ));
        }
    }
    Ok(())
}

impl AnswerSpec {
    /// The `kind` name.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Leader => "leader",
            Self::Generation => "generation",
            Self::GroupState => "group_state",
            Self::Protocol => "protocol",
            Self::MemberCount => "member_count",
            Self::OwnedPartitions { .. } => "owned_partitions",
            Self::MemberState { .. } => "member_state",
            Self::HasDuplicates { .. } => "has_duplicates",
            Self::CommittedOffset { .. } => "committed_offset",
            Self::OffsetsPartition => "offsets_partition",
            Self::LastToJoin => "last_to_join",
            Self::EventError => "event_error",
            Self::GroupEpoch => "group_epoch",
            Self::AssignmentEpoch => "assignment_epoch",
            Self::ConsumerGroupState => "consumer_group_state",
            Self::MemberEpoch { .. } => "member_epoch",
            Self::ReconciliationState { .. } => "reconciliation_state",
        }
    }

    fn expects(&self) -> &'static str {
        match self {
            Self::Leader
            | Self::GroupState
            | Self::Protocol
            | Self::MemberState { .. }
            | Self::EventError
            | Self::LastToJoin
            | Self::ConsumerGroupState
            | Self::ReconciliationState { .. } => "expects a string",
            Self::Generation
            | Self::MemberCount
            | Self::CommittedOffset { .. }
            | Self::OffsetsPartition
            | Self::GroupEpoch
            | Self::AssignmentEpoch
            | Self::MemberEpoch { .. } => "expects an integer",
            Self::HasDuplicates { .. } => "expects true or false",
            Self::OwnedPartitions { .. } => "expects a list of \"topic-partition\" strings",
        }
    }

    /// Computes the answer from `sim` (the state at the reveal point) and the reveal step's
    /// `anchor` event.
    pub fn compute(&self, sim: &Simulation, anchor: &SimEvent) -> Result<AnswerValue, LessonError> {
        let snapshot = sim.group_snapshot();
        let consumer = |name: &str| {
            sim.consumer(name).ok_or_else(|| {
                err(
                    ".answer.consumer",
                    format!("no consumer named `{name}` at this point"),
                )
            })
        };
        Ok(match self {
            Self::Leader => {
                let names = MemberNames::from_log(sim.log());
                let leader = snapshot.as_ref().and_then(|s| s.leader.clone());
                AnswerValue::Text(match leader {
                    None => "none".into(),
                    Some(id) => sim
                        .consumers()
                        .into_iter()
                        .find(|c| c.member_id == id)
                        .map(|c| c.name)
                        .or_else(|| names.consumer_of(&id).map(str::to_owned))
                        .unwrap_or(id),
                })
            }
            Self::Generation => AnswerValue::Number(i64::from(snapshot.map_or(0, |s| s.generation_id))),
            Self::GroupState => AnswerValue::Text(sim.group().group_state.to_string()),
            Self::Protocol => AnswerValue::Text(
                snapshot
                    .and_then(|s| s.protocol_name)
                    .unwrap_or_else(|| "none".into()),
            ),
            Self::MemberCount => AnswerValue::Number(snapshot.map_or(0, |s| s.members.len() as i64)),
            Self::OwnedPartitions { consumer: name } => {
                let c = consumer(name)?;
                let owned: Vec<String> = if c.lifecycle().is_running() {
                    c.owned().iter().map(|tp| tp.to_string()).collect()
                } else {
                    Vec::new()
                };
                AnswerValue::Partitions(normalize_partitions(&owned))
            }
            Self::MemberState { consumer: name } => {
                AnswerValue::Text(consumer(name)?.member_state().kafka_name().to_owned())
            }
            Self::HasDuplicates { consumer: name } => {
                consumer(name)?;
                AnswerValue::Bool(sim.duplicates().get(name).copied().unwrap_or(0) > 0)
            }
            Self::CommittedOffset { topic, partition } => AnswerValue::Number(
                sim.committed_offsets()
                    .get(&crate::protocol::TopicPartition::new(topic.clone(), *partition))
                    .copied()
                    .unwrap_or(-1),
            ),
            Self::LastToJoin => {
                let names = MemberNames::from_log(sim.log());
                let last = sim.log().iter().rev().find_map(|e| match &e.kind {
                    crate::sim::SimEventKind::Coordinator {
                        event:
                            crate::event::EventKind::MemberAdded { member_id, .. }
                            | crate::event::EventKind::MemberUpdated { member_id, .. },
                        ..
                    } => Some(member_id.clone()),
                    _ => None,
                });
                let last = last.ok_or_else(|| err(".answer", "nobody has joined yet"))?;
                AnswerValue::Text(names.consumer_of(&last).map(str::to_owned).unwrap_or(last))
            }
            Self::OffsetsPartition => {
                AnswerValue::Number(i64::from(sim.coordinator().partition_for(sim.group_id())))
            }
            Self::GroupEpoch => {
                AnswerValue::Number(i64::from(sim.consumer_group().map_or(0, |g| g.group_epoch)))
            }
            Self::AssignmentEpoch => {
                AnswerValue::Number(i64::from(sim.consumer_group().map_or(0, |g| g.assignment_epoch)))
            }
            Self::ConsumerGroupState => AnswerValue::Text(
                sim.consumer_group()
                    .map_or_else(|| "none".to_owned(), |g| g.state.name().to_owned()),
            ),
            Self::MemberEpoch { consumer: name } => {
                let id = consumer(name)?.member_id().to_owned();
                let member = sim
                    .consumer_group()
                    .and_then(|g| g.members.into_iter().find(|m| m.member_id == id));
                AnswerValue::Number(member.map_or(-1, |m| i64::from(m.member_epoch)))
            }
            Self::ReconciliationState { consumer: name } => {
                let id = consumer(name)?.member_id().to_owned();
                let member = sim
                    .consumer_group()
                    .and_then(|g| g.members.into_iter().find(|m| m.member_id == id));
                AnswerValue::Text(member.map_or_else(|| "none".to_owned(), |m| m.state.name().to_owned()))
            }
            Self::EventError => {
                let f = facts(anchor, &MemberNames::from_log(sim.log()));
                AnswerValue::Text(f.error.ok_or_else(|| {
                    err(
                        ".answer",
                        format!("the reveal event carries no error code: {}", anchor.line()),
                    )
                })?)
            }
        })
    }
}

impl Predict {
    /// Computes the answer from `sim` (the state at the reveal point) and the reveal step's
    /// `anchor` event, and finds the correct choice. An answer that is none of the choices is an
    /// error (the lesson's choices no longer fit the simulation).
    pub fn evaluate(&self, sim: &Simulation, anchor: &SimEvent) -> Result<Reveal, LessonError> {
        let value = self.answer.compute(sim, anchor)?;
        let correct = self
            .choices
            .iter()
            .position(|c| c.value.same(&value))
            .ok_or_else(|| {
                let offered: Vec<String> = self.choices.iter().map(|c| c.value.to_string()).collect();
                err(
                    ".choices",
                    format!(
                        "the simulation's answer {value} at {} is none of the choices [{}]",
                        anchor.at,
                        offered.join(", ")
                    ),
                )
            })?;
        Ok(Reveal { value, correct })
    }
}
