use rebalance_engine::assignor::{RebalanceProtocol, Strategy};
use rebalance_engine::client::{CommitMode, ConfigField, ConfigIssue, GroupProtocol, NameIssue, Severity};
use rebalance_engine::{ConsumerConfig, CoordinatorConfig, ScenarioError};
use web_sys::{HtmlInputElement, HtmlSelectElement, SubmitEvent};
use yew::prelude::*;

use super::{use_playground, use_strings};
use crate::app::ADD_CONSUMER_FORM_ID;
use crate::i18n::{fill, Strings};
use crate::state::Change;
use crate::world::{default_consumer, Command, StartSettings, World};

/// What the user typed, kept as text so that nothing is lost when a value is wrong.
#[derive(Clone, Debug, PartialEq)]
pub struct Draft {
    pub name: String,
    /// Every assignor in the user's order, with whether it is chosen.
    pub assignors: Vec<(Strategy, bool)>,
    pub static_id: String,
    /// The topics it subscribes to, comma-separated.
    pub topics: String,
    pub session: String,
    pub heartbeat: String,
    pub max_poll: String,
    pub processing: String,
    pub commit_in_revoke: bool,
    /// `max.poll.records`.
    pub max_poll_records: String,
    /// How offsets are committed.
    pub commit: Commit,
    /// `auto.commit.interval.ms` (read when `commit` is automatic).
    pub commit_interval: String,
    /// `group.protocol`.
    pub group_protocol: GroupProtocol,
}

/// The form's choice of how offsets are committed (the engine's [`CommitMode`] without its numbers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Commit {
    /// `enable.auto.commit=true`.
    Auto,
    /// `enable.auto.commit=false`, `commitAsync()` after each batch.
    Manual,
    /// `enable.auto.commit=false`, no commit in the poll loop.
    Never,
}

impl Commit {
    const ALL: [Commit; 3] = [Commit::Auto, Commit::Manual, Commit::Never];

    fn key(self) -> &'static str {
        match self {
            Commit::Auto => "auto",
            Commit::Manual => "manual",
            Commit::Never => "never",
        }
    }

    fn label(self, s: &Strings) -> &'static str {
        match self {
            Commit::Auto => s.form.commit_auto,
            Commit::Manual => s.form.commit_manual,
            Commit::Never => s.form.commit_never,
        }
    }
}

impl Default for Draft {
    fn default() -> Self {
        let d = default_consumer("C");
        let mut assignors: Vec<(Strategy, bool)> = d.assignors.iter().map(|a| (*a, true)).collect();
        for a in Strategy::ALL {
            if !assignors.iter().any(|(b, _)| *b == a) {
                assignors.push((a, false));
            }
        }
        Self {
            name: String::new(),
            assignors,
            static_id: String::new(),
            topics: crate::world::TOPIC.to_owned(),
            session: d.session_timeout_ms.to_string(),
            heartbeat: d.heartbeat_interval_ms.to_string(),
            max_poll: d.max_poll_interval_ms.to_string(),
            processing: d.processing_ms.to_string(),
            commit_in_revoke: d.commit_in_revoke,
            max_poll_records: d.max_poll_records.to_string(),
            commit: match d.commit {
                CommitMode::Auto { .. } => Commit::Auto,
                CommitMode::Manual { .. } => Commit::Manual,
                CommitMode::Never => Commit::Never,
            },
            commit_interval: match d.commit {
                CommitMode::Auto { interval_ms } => interval_ms.to_string(),
                _ => "5000".into(),
            },
            group_protocol: d.group_protocol,
        }
    }
}

/// A field of the form (errors point at one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Name,
    Assignors,
    Topics,
    Session,
    Heartbeat,
    MaxPoll,
    Processing,
    MaxPollRecords,
    CommitInterval,
    GroupProtocol,
}

/// Problems with a draft: errors (the consumer is not added) and warnings (it is, and the
/// warning says what Kafka will do with it).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Checked {
    pub errors: Vec<(Field, String)>,
    pub warnings: Vec<String>,
}

fn number(
    s: &Strings,
    field: &str,
    text: &str,
    errors: &mut Vec<(Field, String)>,
    which: Field,
) -> Option<u64> {
    let max = if which == Field::MaxPollRecords {
        u64::from(u32::MAX)
    } else {
        u64::MAX
    };
    match text.trim().parse::<u64>() {
        Ok(v) if v > 0 && v <= max => Some(v),
        _ => {
            let template = if which == Field::MaxPollRecords {
                s.form.err_count
            } else {
                s.form.err_number
            };
            errors.push((which, fill(template, &[("field", field)])));
            None
        }
    }
}

/// Checks a draft: the numbers must be readable, the name free, and the settings pass
/// [`ConsumerConfig::check`] for a group on `coordinator` (the scenario's coordinator config).
/// `taken` says whether a consumer name exists.
pub fn check(
    s: &Strings,
    d: &Draft,
    name: &str,
    coordinator: &CoordinatorConfig,
    taken: impl Fn(&str) -> bool,
) -> Checked {
    let f = &s.form;
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    let name = name.trim();
    if !name.is_empty() && taken(name) {
        errors.push((Field::Name, fill(f.err_name_taken, &[("name", name)])));
    }
    let mut numbers = vec![
        (f.session, &d.session, Field::Session),
        (f.heartbeat, &d.heartbeat, Field::Heartbeat),
        (f.max_poll, &d.max_poll, Field::MaxPoll),
        (f.processing, &d.processing, Field::Processing),
        (f.max_poll_records, &d.max_poll_records, Field::MaxPollRecords),
    ];
    if d.commit == Commit::Auto {
        numbers.push((f.commit_interval, &d.commit_interval, Field::CommitInterval));
    }
    for (label, text, field) in numbers {
        number(s, label, text, &mut errors, field);
    }
    // A rule about a number that could not be read is not checked (its message would be about the
    // default, not about what was typed).
    let unreadable: Vec<Field> = errors.iter().map(|(x, _)| *x).collect();
    for issue in draft_config(d, name).check(coordinator) {
        let fields: Vec<Option<Field>> = issue.fields().iter().map(|x| form_field(*x)).collect();
        if fields
            .iter()
            .flatten()
            .any(|x| unreadable.contains(x) && *x != Field::Name)
        {
            continue;
        }
        let text = issue_text(s, &issue, d);
        match (issue.severity(), fields[0]) {
            (Severity::Error, Some(field)) => errors.push((field, text)),
            // The form does not set the other fields; their defaults pass.
            (Severity::Error, None) => {}
            (Severity::Warning, _) => warnings.push(text),
        }
    }
    Checked { errors, warnings }
}

/// The consumer the form adds when nothing in it was changed, named `name`.
pub fn default_form_consumer(name: &str) -> ConsumerConfig {
    draft_config(&Draft::default(), name)
}

/// The consumer a draft describes; numbers that cannot be read keep the default.
fn draft_config(d: &Draft, name: &str) -> ConsumerConfig {
    let mut cfg = default_consumer(name);
    cfg.assignors = chosen(d);
    let sid = d.static_id.trim();
    cfg.group_instance_id = (!sid.is_empty()).then(|| sid.to_owned());
    let read = |text: &str, default: u64| text.trim().parse().unwrap_or(default);
    cfg.session_timeout_ms = read(&d.session, cfg.session_timeout_ms);
    cfg.heartbeat_interval_ms = read(&d.heartbeat, cfg.heartbeat_interval_ms);
    cfg.max_poll_interval_ms = read(&d.max_poll, cfg.max_poll_interval_ms);
    cfg.processing_ms = read(&d.processing, cfg.processing_ms);
    cfg.commit_in_revoke = d.commit_in_revoke;
    let records: u64 = read(&d.max_poll_records, u64::from(cfg.max_poll_records));
    cfg.max_poll_records = u32::try_from(records).unwrap_or(u32::MAX);
    cfg.commit = match d.commit {
        Commit::Auto => CommitMode::Auto {
            interval_ms: read(&d.commit_interval, 5_000),
        },
        Commit::Manual => CommitMode::Manual { every_batches: 1 },
        Commit::Never => CommitMode::Never,
    };
    cfg.group_protocol = d.group_protocol;
    cfg.subscription = rebalance_engine::Subscription::Topics(topic_list(&d.topics));
    cfg
}

/// The form's field for a setting (`None`: the form does not show it).
fn form_field(field: ConfigField) -> Option<Field> {
    Some(match field {
        ConfigField::Name => Field::Name,
        ConfigField::Assignors => Field::Assignors,
        ConfigField::Subscription => Field::Topics,
        ConfigField::SessionTimeout => Field::Session,
        ConfigField::HeartbeatInterval => Field::Heartbeat,
        ConfigField::MaxPollInterval => Field::MaxPoll,
        ConfigField::Processing => Field::Processing,
        ConfigField::MaxPollRecords => Field::MaxPollRecords,
        ConfigField::AutoCommitInterval => Field::CommitInterval,
        ConfigField::GroupProtocol => Field::GroupProtocol,
        ConfigField::ServerAssignor => return None,
    })
}

/// The label of a field of the form.
fn label(s: &Strings, field: Field) -> &'static str {
    let f = &s.form;
    match field {
        Field::Name => f.name,
        Field::Assignors => f.assignors,
        Field::Topics => f.topics,
        Field::Session => f.session,
        Field::Heartbeat => f.heartbeat,
        Field::MaxPoll => f.max_poll,
        Field::Processing => f.processing,
        Field::MaxPollRecords => f.max_poll_records,
        Field::CommitInterval => f.commit_interval,
        Field::GroupProtocol => f.group_protocol,
    }
}

/// What the user typed in a numeric field.
fn typed(d: &Draft, field: Field) -> Option<&str> {
    Some(
        match field {
            Field::Session => &d.session,
            Field::Heartbeat => &d.heartbeat,
            Field::MaxPoll => &d.max_poll,
            Field::Processing => &d.processing,
            Field::MaxPollRecords => &d.max_poll_records,
            Field::CommitInterval => &d.commit_interval,
            _ => return None,
        }
        .trim(),
    )
}

/// An issue in the user's language, with its numbers (a value above a limit as it was typed).
fn issue_text(s: &Strings, issue: &ConfigIssue, d: &Draft) -> String {
    let f = &s.form;
    match issue {
        ConfigIssue::Name(NameIssue::Empty) => f.err_name_empty.to_owned(),
        ConfigIssue::Name(NameIssue::Forbidden { c }) => {
            fill(f.err_name_chars, &[("char", &format!("{c:?}"))])
        }
        ConfigIssue::Name(NameIssue::TooLong { chars, max }) => fill(
            f.err_name_long,
            &[("n", &chars.to_string()), ("max", &max.to_string())],
        ),
        ConfigIssue::NoAssignor => f.err_no_assignor.to_owned(),
        ConfigIssue::NoTopic | ConfigIssue::BadTopicName { .. } => f.err_topics.to_owned(),
        ConfigIssue::NotPositive { field } => {
            let template = if *field == ConfigField::MaxPollRecords {
                f.err_count
            } else {
                f.err_number
            };
            let name = form_field(*field).map_or("", |x| label(s, x));
            fill(template, &[("field", name)])
        }
        ConfigIssue::AboveLimit { field, value, max } => {
            let at = form_field(*field);
            let value = at
                .and_then(|x| typed(d, x))
                .map_or_else(|| value.to_string(), str::to_owned);
            fill(
                f.err_limit,
                &[
                    ("field", at.map_or("", |x| label(s, x))),
                    ("value", &value),
                    ("max", &max.to_string()),
                ],
            )
        }
        ConfigIssue::HeartbeatNotBelowSession { .. } => f.err_heartbeat.to_owned(),
        ConfigIssue::HeartbeatAboveThirdOfSession { .. } => f.warn_heartbeat_third.to_owned(),
        ConfigIssue::SessionOutsideGroupBounds { min_ms, max_ms, .. } => fill(
            f.warn_session_range,
            &[("min", &min_ms.to_string()), ("max", &max_ms.to_string())],
        ),
        ConfigIssue::ProcessingNotBelowMaxPoll { .. } => f.warn_processing.to_owned(),
        // The form only makes classic consumers without group.remote.assignor, so it never sees
        // these; the engine's English is shown should it ever.
        ConfigIssue::ProtocolMismatch { .. } | ConfigIssue::ServerAssignorName(_) => issue.to_string(),
    }
}

/// The topic names of a comma-separated list.
pub fn topic_list(text: &str) -> Vec<String> {
    text.split([',', '，', ' '])
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The chosen assignors, in order.
fn chosen(d: &Draft) -> Vec<Strategy> {
    d.assignors
        .iter()
        .filter(|(_, on)| *on)
        .map(|(a, _)| *a)
        .collect()
}

/// A start setting of the session (the scenario's `coordinator` and `network` sections).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartField {
    InitialRebalanceDelay,
    MinSessionTimeout,
    MaxSessionTimeout,
    GroupMaxSize,
    OffsetsRetentionMinutes,
    OffsetsRetentionCheckInterval,
    ConsumerSessionTimeout,
    ConsumerHeartbeatInterval,
    ConsumerMaxSize,
    Latency,
    Jitter,
    DropProbability,
    DelayProbability,
    DelayMs,
}

impl StartField {
    /// Every start setting, in the order the form shows them.
    pub const ALL: [StartField; 14] = [
        StartField::InitialRebalanceDelay,
        StartField::MinSessionTimeout,
        StartField::MaxSessionTimeout,
        StartField::GroupMaxSize,
        StartField::OffsetsRetentionMinutes,
        StartField::OffsetsRetentionCheckInterval,
        StartField::ConsumerSessionTimeout,
        StartField::ConsumerHeartbeatInterval,
        StartField::ConsumerMaxSize,
        StartField::Latency,
        StartField::Jitter,
        StartField::DropProbability,
        StartField::DelayProbability,
        StartField::DelayMs,
    ];

    /// Its path in the scenario format (as the engine's errors name it).
    pub fn path(self) -> &'static str {
        match self {
            Self::InitialRebalanceDelay => "coordinator.group_initial_rebalance_delay_ms",
            Self::MinSessionTimeout => "coordinator.group_min_session_timeout_ms",
            Self::MaxSessionTimeout => "coordinator.group_max_session_timeout_ms",
            Self::GroupMaxSize => "coordinator.group_max_size",
            Self::OffsetsRetentionMinutes => "coordinator.offsets_retention_minutes",
            Self::OffsetsRetentionCheckInterval => "coordinator.offsets_retention_check_interval_ms",
            Self::ConsumerSessionTimeout => "coordinator.group_consumer_session_timeout_ms",
            Self::ConsumerHeartbeatInterval => "coordinator.group_consumer_heartbeat_interval_ms",
            Self::ConsumerMaxSize => "coordinator.group_consumer_max_size",
            Self::Latency => "network.latency_ms",
            Self::Jitter => "network.jitter_ms",
            Self::DropProbability => "network.drop_probability",
            Self::DelayProbability => "network.delay_probability",
            Self::DelayMs => "network.delay_ms",
        }
    }

    /// Its label: the broker setting's own name, or the network's words.
    pub fn label(self, s: &Strings) -> &'static str {
        let f = &s.form;
        match self {
            Self::InitialRebalanceDelay => "group.initial.rebalance.delay.ms",
            Self::MinSessionTimeout => "group.min.session.timeout.ms",
            Self::MaxSessionTimeout => "group.max.session.timeout.ms",
            Self::GroupMaxSize => "group.max.size",
            Self::OffsetsRetentionMinutes => "offsets.retention.minutes",
            Self::OffsetsRetentionCheckInterval => "offsets.retention.check.interval.ms",
            Self::ConsumerSessionTimeout => "group.consumer.session.timeout.ms",
            Self::ConsumerHeartbeatInterval => "group.consumer.heartbeat.interval.ms",
            Self::ConsumerMaxSize => "group.consumer.max.size",
            Self::Latency => f.net_latency,
            Self::Jitter => f.net_jitter,
            Self::DropProbability => f.net_drop,
            Self::DelayProbability => f.net_delay_p,
            Self::DelayMs => f.net_delay_ms,
        }
    }

    fn id(self) -> String {
        format!("start-{}", self.path().replace(['.', '_'], "-"))
    }

    /// Its value in `st`; a coordinator setting the scenario leaves out shows the value the
    /// engine uses (`effective`).
    pub fn get(self, st: &StartSettings, effective: &CoordinatorConfig) -> String {
        let c = &st.coordinator;
        let e = effective;
        let n = &st.network;
        match self {
            Self::InitialRebalanceDelay => c
                .group_initial_rebalance_delay_ms
                .unwrap_or(e.group_initial_rebalance_delay_ms)
                .to_string(),
            Self::MinSessionTimeout => c
                .group_min_session_timeout_ms
                .unwrap_or(e.group_min_session_timeout_ms)
                .to_string(),
            Self::MaxSessionTimeout => c
                .group_max_session_timeout_ms
                .unwrap_or(e.group_max_session_timeout_ms)
                .to_string(),
            Self::GroupMaxSize => c.group_max_size.unwrap_or(e.group_max_size).to_string(),
            Self::OffsetsRetentionMinutes => c
                .offsets_retention_minutes
                .unwrap_or(e.offsets_retention_ms / 60_000)
                .to_string(),
            Self::OffsetsRetentionCheckInterval => c
                .offsets_retention_check_interval_ms
                .unwrap_or(e.offsets_retention_check_interval_ms)
                .to_string(),
            Self::ConsumerSessionTimeout => c
                .group_consumer_session_timeout_ms
                .unwrap_or(e.group_consumer_session_timeout_ms)
                .to_string(),
            Self::ConsumerHeartbeatInterval => c
                .group_consumer_heartbeat_interval_ms
                .unwrap_or(e.group_consumer_heartbeat_interval_ms)
                .to_string(),
            Self::ConsumerMaxSize => c
                .group_consumer_max_size
                .unwrap_or(e.group_consumer_max_size)
                .to_string(),
            Self::Latency => n.latency_ms.to_string(),
            Self::Jitter => n.jitter_ms.to_string(),
            Self::DropProbability => n.drop_probability.to_string(),
            Self::DelayProbability => n.delay_probability.to_string(),
            Self::DelayMs => n.delay_ms.to_string(),
        }
    }

    /// Sets it in `st` from what was typed; `Err` when that is not a number of the setting's type
    /// (its range is the engine's to check).
    pub fn set(self, st: &mut StartSettings, text: &str) -> Result<(), ()> {
        fn num<T: std::str::FromStr>(text: &str) -> Result<T, ()> {
            text.trim().parse().map_err(|_| ())
        }
        let c = &mut st.coordinator;
        let n = &mut st.network;
        match self {
            Self::InitialRebalanceDelay => c.group_initial_rebalance_delay_ms = Some(num(text)?),
            Self::MinSessionTimeout => c.group_min_session_timeout_ms = Some(num(text)?),
            Self::MaxSessionTimeout => c.group_max_session_timeout_ms = Some(num(text)?),
            Self::GroupMaxSize => c.group_max_size = Some(num(text)?),
            Self::OffsetsRetentionMinutes => c.offsets_retention_minutes = Some(num(text)?),
            Self::OffsetsRetentionCheckInterval => c.offsets_retention_check_interval_ms = Some(num(text)?),
            Self::ConsumerSessionTimeout => c.group_consumer_session_timeout_ms = Some(num(text)?),
            Self::ConsumerHeartbeatInterval => c.group_consumer_heartbeat_interval_ms = Some(num(text)?),
            Self::ConsumerMaxSize => c.group_consumer_max_size = Some(num(text)?),
            Self::Latency => n.latency_ms = num(text)?,
            Self::Jitter => n.jitter_ms = num(text)?,
            Self::DropProbability => n.drop_probability = num(text)?,
            Self::DelayProbability => n.delay_probability = num(text)?,
            Self::DelayMs => n.delay_ms = num(text)?,
        }
        Ok(())
    }
}

/// What the user typed for the start settings, one text per [`StartField::ALL`].
pub type StartDraft = Vec<String>;

/// The start settings' texts of a world.
pub fn start_draft(world: &World) -> StartDraft {
    let st = world.start_settings();
    let effective = world.coordinator_config();
    StartField::ALL.iter().map(|f| f.get(&st, &effective)).collect()
}

/// Reads a start draft against `world`: the settings to apply (only the changed fields are
/// written into the scenario, so that an unchanged default stays out of share links), or the
/// problems, each at its field (`None`: the engine named a field the form does not show).
pub fn read_start(
    s: &Strings,
    world: &World,
    draft: &StartDraft,
) -> Result<StartSettings, Vec<(Option<StartField>, String)>> {
    let mut st = world.start_settings();
    let shown = start_draft(world);
    let mut errors = Vec::new();
    for ((field, text), before) in StartField::ALL.iter().zip(draft).zip(&shown) {
        if text.trim() == before.as_str() {
            continue;
        }
        if field.set(&mut st, text).is_err() {
            errors.push((
                Some(*field),
                fill(s.form.err_start_number, &[("field", field.label(s))]),
            ));
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    // The engine's own check of the scenario the session would replay: its message names the
    // value and the limit.
    match world.with_start(&st).validate() {
        Ok(()) => Ok(st),
        Err(ScenarioError { path, message, .. }) => {
            let field = StartField::ALL.iter().copied().find(|f| f.path() == path);
            let name = field.map_or(path.as_str(), |f| f.label(s));
            Err(vec![(
                field,
                fill(s.form.err_start, &[("field", name), ("reason", &message)]),
            )])
        }
    }
}

/// The session's start settings: a fieldset of the form's advanced part, with its own button.
#[component]
fn StartSettingsFields() -> Html {
    let s = use_strings();
    let f = &s.form;
    let pg = use_playground();
    // The texts, and the world they were read from: another world (a reset, an import, a lesson)
    // shows its own settings, unless the user is editing (then what they typed stays).
    let current = start_draft(&pg.world.borrow());
    let read_from = use_state(|| current.clone());
    let draft = use_state(|| current.clone());
    let errors = use_state(Vec::<(Option<StartField>, String)>::new);
    if *read_from != current {
        // Another world (a reset, an import, a lesson): its own settings are shown.
        read_from.set(current.clone());
        draft.set(current);
        errors.set(Vec::new());
    }
    let applied = use_state(|| None::<String>);
    let onapply = {
        let pg = pg.clone();
        let draft = draft.clone();
        let errors = errors.clone();
        let applied = applied.clone();
        let read_from = read_from.clone();
        Callback::from(move |_: ()| {
            let read = read_start(s, &pg.world.borrow(), &draft);
            match read {
                Ok(st) => {
                    errors.set(Vec::new());
                    let (ms, shown) = {
                        let world = pg.world.borrow();
                        let effective = world.with_start(&st).coordinator_config();
                        let shown: StartDraft =
                            StartField::ALL.iter().map(|f| f.get(&st, &effective)).collect();
                        (world.now().as_millis(), shown)
                    };
                    // The same story with the new settings (recorded as a command is).
                    let restarted = pg.world.borrow().restarted(&st);
                    let result = restarted.map(|world| *pg.world.borrow_mut() = world);
                    pg.dispatch(Change::Applied(result));
                    applied.set(Some(fill(
                        s.form.start_applied,
                        &[("time", &format!("{}.{:03} s", ms / 1000, ms % 1000))],
                    )));
                    read_from.set(shown.clone());
                    draft.set(shown);
                }
                Err(e) => {
                    applied.set(None);
                    errors.set(e);
                    super::focus_visible_soon(".form-start [aria-invalid=true]");
                }
            }
        })
    };
    let general: Vec<String> = errors
        .iter()
        .filter(|(x, _)| x.is_none())
        .map(|(_, m)| m.clone())
        .collect();
    html! {
        <fieldset class="form-start">
            <legend>{ f.start_heading }</legend>
            <p class="form-hint">{ f.start_intro }</p>
            <div class="form-grid">
                { for StartField::ALL.iter().enumerate().map(|(i, field)| {
                    let id = field.id();
                    let error = errors.iter().find(|(x, _)| *x == Some(*field)).map(|(_, m)| m.clone());
                    let err_id = format!("{id}-error");
                    let oninput = {
                        let draft = draft.clone();
                        Callback::from(move |e: InputEvent| {
                            let input: HtmlInputElement = e.target_unchecked_into();
                            let mut d = (*draft).clone();
                            if let Some(t) = d.get_mut(i) {
                                *t = input.value();
                            }
                            draft.set(d);
                        })
                    };
                    // Enter applies the start settings (it would otherwise add a consumer).
                    let onkeydown = {
                        let onapply = onapply.clone();
                        Callback::from(move |e: KeyboardEvent| {
                            if e.key() == "Enter" {
                                e.prevent_default();
                                onapply.emit(());
                            }
                        })
                    };
                    let probability = matches!(field, StartField::DropProbability | StartField::DelayProbability);
                    html! {
                        <div class={classes!("form-field", error.is_some().then_some("has-error"))}>
                            <label for={id.clone()}>{ field.label(s) }</label>
                            <input id={id} type="text" inputmode={if probability { "decimal" } else { "numeric" }}
                                value={draft.get(i).cloned().unwrap_or_default()} {oninput} {onkeydown}
                                data-path={field.path()}
                                aria-invalid={error.is_some().to_string()} aria-describedby={error.is_some().then(|| err_id.clone())} />
                            if let Some(m) = error { <span id={err_id} class="form-error" role="alert">{ m }</span> }
                        </div>
                    }
                }) }
            </div>
            { for general.iter().map(|m| html! { <p class="form-error" role="alert">{ m }</p> }) }
            <button type="button" class="form-start-apply" onclick={onapply.reform(|_: MouseEvent| ())}>{ f.start_apply }</button>
            if let Some(m) = &*applied { <p class="form-status" role="status">{ m }</p> }
        </fieldset>
    }
}

/// The form that adds a consumer. Errors name the field and keep what was typed.
#[component]
pub fn AddConsumerForm() -> Html {
    let s = use_strings();
    let f = &s.form;
    let pg = use_playground();
    let draft = use_state(Draft::default);
    let shown_errors = use_state(Vec::<(Field, String)>::new);
    let open = use_state(|| false);
    let advanced_open = use_state(|| false);

    let next_name = pg.world.borrow().next_consumer_name();
    let name = if draft.name.trim().is_empty() {
        next_name.clone()
    } else {
        draft.name.trim().to_owned()
    };
    // The group's bounds (`group.min/max.session.timeout.ms`) are the loaded scenario's.
    let coordinator = pg.world.borrow().sim().coordinator().config().clone();
    let live = {
        let world = pg.world.clone();
        check(s, &draft, &name, &coordinator, move |n| {
            world.borrow().has_consumer(n)
        })
    };

    let onsubmit = {
        let pg = pg.clone();
        let draft = draft.clone();
        let shown_errors = shown_errors.clone();
        let open = open.clone();
        let advanced_open = advanced_open.clone();
        let coordinator = coordinator.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            // The default name is the world's next one now, not the one rendered: two quick
            // presses of `a` (or clicks) can come before the form is drawn again, and the
            // second must add the next consumer, not refuse the first one's name.
            let name = if draft.name.trim().is_empty() {
                pg.world.borrow().next_consumer_name()
            } else {
                draft.name.trim().to_owned()
            };
            let world = pg.world.clone();
            let checked = check(s, &draft, &name, &coordinator, move |n| {
                world.borrow().has_consumer(n)
            });
            if !checked.errors.is_empty() {
                let advanced = [Field::MaxPollRecords, Field::CommitInterval, Field::GroupProtocol];
                if checked
                    .errors
                    .iter()
                    .any(|(f, _)| *f != Field::Name && !advanced.contains(f))
                {
                    open.set(true);
                }
                if checked.errors.iter().any(|(f, _)| advanced.contains(f)) {
                    advanced_open.set(true);
                }
                shown_errors.set(checked.errors);
                // The button may be beside the stage: the first wrong field takes the focus (and
                // comes into view in its panel) so that the reason is where the user looks.
                super::focus_visible_soon("#add-consumer-form [aria-invalid=true]");
                return;
            }
            shown_errors.set(Vec::new());
            // The numbers were just checked.
            let cfg = draft_config(&draft, &name);
            pg.dispatch(Change::Command(Command::AddConsumer(Box::new(cfg))));
            // The next consumer gets the next default name; its static id must differ too.
            draft.set(Draft {
                name: String::new(),
                static_id: String::new(),
                ..(*draft).clone()
            });
        })
    };

    let text_input = |field: Option<Field>,
                      id: &'static str,
                      label: &'static str,
                      value: String,
                      set: fn(&mut Draft, String),
                      hint: Option<&'static str>| {
        let draft = draft.clone();
        let oninput = Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let mut d = (*draft).clone();
            set(&mut d, input.value());
            draft.set(d);
        });
        let error = field.and_then(|fl| {
            shown_errors
                .iter()
                .find(|(x, _)| *x == fl)
                .map(|(_, m)| m.clone())
        });
        let err_id = format!("{id}-error");
        let hint_id = format!("{id}-hint");
        let describedby = match (&error, hint) {
            (Some(_), _) => Some(err_id.clone()),
            (None, Some(_)) => Some(hint_id.clone()),
            _ => None,
        };
        let numeric = !matches!(field, Some(Field::Name) | Some(Field::Topics) | None);
        html! {
            <div class={classes!("form-field", error.is_some().then_some("has-error"))}>
                <label for={id}>{ label }</label>
                <input id={id} type="text" inputmode={numeric.then_some("numeric")} {value} {oninput}
                    placeholder={(field == Some(Field::Name)).then(|| next_name.clone())}
                    aria-invalid={error.is_some().to_string()} aria-describedby={describedby} />
                if let Some(h) = hint { <span id={hint_id} class="form-hint">{ h }</span> }
                if let Some(m) = error { <span id={err_id} class="form-error" role="alert">{ m }</span> }
            </div>
        }
    };

    let move_assignor = |i: usize, up: bool| {
        let draft = draft.clone();
        Callback::from(move |_: MouseEvent| {
            let mut d = (*draft).clone();
            let j = if up {
                i.checked_sub(1)
            } else {
                Some(i + 1).filter(|j| *j < d.assignors.len())
            };
            if let Some(j) = j {
                d.assignors.swap(i, j);
                draft.set(d);
            }
        })
    };
    let toggle_assignor = |i: usize| {
        let draft = draft.clone();
        Callback::from(move |_: Event| {
            let mut d = (*draft).clone();
            if let Some(a) = d.assignors.get_mut(i) {
                a.1 = !a.1;
            }
            draft.set(d);
        })
    };
    let protocol = {
        let mut cfg = default_consumer("x");
        cfg.assignors = chosen(&draft);
        match cfg.protocol() {
            RebalanceProtocol::Eager => s.consumer.eager,
            RebalanceProtocol::Cooperative => s.consumer.cooperative,
        }
    };
    let assignor_error = shown_errors
        .iter()
        .find(|(x, _)| *x == Field::Assignors)
        .map(|(_, m)| m.clone());
    let ontoggle_open = {
        let open = open.clone();
        Callback::from(move |e: Event| {
            let el: web_sys::HtmlDetailsElement = e.target_unchecked_into();
            open.set(el.open());
        })
    };
    let oncommit = {
        let draft = draft.clone();
        Callback::from(move |_: Event| {
            let mut d = (*draft).clone();
            d.commit_in_revoke = !d.commit_in_revoke;
            draft.set(d);
        })
    };
    let n = draft.assignors.len();
    let ontoggle_advanced = {
        let advanced_open = advanced_open.clone();
        Callback::from(move |e: Event| {
            let el: web_sys::HtmlDetailsElement = e.target_unchecked_into();
            advanced_open.set(el.open());
        })
    };
    let oncommit_mode = {
        let draft = draft.clone();
        Callback::from(move |e: Event| {
            let key = e.target_unchecked_into::<HtmlSelectElement>().value();
            let mut d = (*draft).clone();
            if let Some(c) = Commit::ALL.iter().find(|c| c.key() == key) {
                d.commit = *c;
                draft.set(d);
            }
        })
    };
    let ongroup_protocol = {
        let draft = draft.clone();
        Callback::from(move |e: Event| {
            let key = e.target_unchecked_into::<HtmlSelectElement>().value();
            let mut d = (*draft).clone();
            d.group_protocol = if key == GroupProtocol::Consumer.as_str() {
                GroupProtocol::Consumer
            } else {
                GroupProtocol::Classic
            };
            draft.set(d);
        })
    };
    let protocol_error = shown_errors
        .iter()
        .find(|(x, _)| *x == Field::GroupProtocol)
        .map(|(_, m)| m.clone());

    html! {
        <section class="add-consumer panel" aria-labelledby="add-consumer-heading">
            <h2 id="add-consumer-heading" class="panel-heading">{ f.heading }</h2>
            <form id={ADD_CONSUMER_FORM_ID} class="add-consumer-form" {onsubmit} novalidate=true>
                <div class="add-consumer-quick">
                    { text_input(Some(Field::Name), "consumer-name", f.name, draft.name.clone(), |d, v| d.name = v, None) }
                    <span class="add-consumer-protocol">{ f.protocol }{ ": " }<strong data-testid="derived-protocol">{ protocol }</strong></span>
                </div>
                if !shown_errors.is_empty() {
                    <p class="form-error form-summary" role="alert">{ f.err_summary }</p>
                }
                <details class="add-consumer-settings" open={*open} ontoggle={ontoggle_open}>
                    <summary>{ f.settings }</summary>
                    <fieldset class={classes!("form-assignors", assignor_error.is_some().then_some("has-error"))}>
                        <legend>{ f.assignors }</legend>
                        <ol class="assignor-list">
                            { for draft.assignors.iter().enumerate().map(|(i, (a, on))| {
                                let id = format!("assignor-{}", a.name());
                                html! {
                                    <li key={a.name()} class="assignor-item">
                                        <input type="checkbox" id={id.clone()} checked={*on} onchange={toggle_assignor(i)} />
                                        <label for={id}>{ a.name() }</label>
                                        <button type="button" class="icon" disabled={i == 0} onclick={move_assignor(i, true)}
                                            aria-label={fill(f.move_up, &[("name", a.name())])}>{ "↑" }</button>
                                        <button type="button" class="icon" disabled={i + 1 == n} onclick={move_assignor(i, false)}
                                            aria-label={fill(f.move_down, &[("name", a.name())])}>{ "↓" }</button>
                                    </li>
                                }
                            }) }
                        </ol>
                        <p class="form-hint">{ f.protocol_rule }</p>
                        if let Some(m) = assignor_error { <span class="form-error" role="alert">{ m }</span> }
                    </fieldset>
                    <div class="form-grid">
                        { text_input(Some(Field::Topics), "consumer-topics", f.topics, draft.topics.clone(), |d, v| d.topics = v, None) }
                        { text_input(None, "consumer-static-id", f.static_id, draft.static_id.clone(), |d, v| d.static_id = v, Some(f.static_id_hint)) }
                        { text_input(Some(Field::Session), "consumer-session", f.session, draft.session.clone(), |d, v| d.session = v, None) }
                        { text_input(Some(Field::Heartbeat), "consumer-heartbeat", f.heartbeat, draft.heartbeat.clone(), |d, v| d.heartbeat = v, None) }
                        { text_input(Some(Field::MaxPoll), "consumer-max-poll", f.max_poll, draft.max_poll.clone(), |d, v| d.max_poll = v, Some(f.max_poll_hint)) }
                        { text_input(Some(Field::Processing), "consumer-processing", f.processing, draft.processing.clone(), |d, v| d.processing = v, None) }
                        <div class="form-field form-check">
                            <input id="consumer-commit-in-revoke" type="checkbox" checked={draft.commit_in_revoke} onchange={oncommit} />
                            <label for="consumer-commit-in-revoke">{ f.commit_in_revoke }</label>
                        </div>
                    </div>
                </details>
                <details class="add-consumer-advanced" open={*advanced_open} ontoggle={ontoggle_advanced}>
                    <summary>{ f.advanced }</summary>
                    <div class="form-grid">
                        { text_input(Some(Field::MaxPollRecords), "consumer-max-poll-records", f.max_poll_records, draft.max_poll_records.clone(), |d, v| d.max_poll_records = v, None) }
                        <div class="form-field">
                            <label for="consumer-commit-mode">{ f.commit_mode }</label>
                            <select id="consumer-commit-mode" onchange={oncommit_mode}>
                                { for Commit::ALL.iter().map(|c| html! {
                                    <option value={c.key()} selected={draft.commit == *c}>{ c.label(s) }</option>
                                }) }
                            </select>
                        </div>
                        if draft.commit == Commit::Auto {
                            { text_input(Some(Field::CommitInterval), "consumer-commit-interval", f.commit_interval, draft.commit_interval.clone(), |d, v| d.commit_interval = v, None) }
                        }
                        <div class={classes!("form-field", protocol_error.is_some().then_some("has-error"))}>
                            <label for="consumer-group-protocol">{ f.group_protocol }</label>
                            <select id="consumer-group-protocol" onchange={ongroup_protocol}
                                aria-invalid={protocol_error.is_some().to_string()}
                                aria-describedby={protocol_error.is_some().then_some("consumer-group-protocol-error")}>
                                { for [GroupProtocol::Classic, GroupProtocol::Consumer].iter().map(|p| html! {
                                    <option value={p.as_str()} selected={draft.group_protocol == *p}>{ p.as_str() }</option>
                                }) }
                            </select>
                            if let Some(m) = protocol_error { <span id="consumer-group-protocol-error" class="form-error" role="alert">{ m }</span> }
                        </div>
                    </div>
                    <StartSettingsFields />
                </details>
                if !live.warnings.is_empty() {
                    <ul class="form-warnings" aria-live="polite">
                        { for live.warnings.iter().map(|w| html! { <li>{ w }</li> }) }
                    </ul>
                }
            </form>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;

    #[test]
    fn heartbeat_at_or_above_the_session_timeout_is_refused_and_named() {
        let s = Lang::En.strings();
        let d = Draft {
            heartbeat: "10000".into(),
            session: "10000".into(),
            ..Draft::default()
        };
        let c = check(s, &d, "C1", &CoordinatorConfig::default(), |_| false);
        assert_eq!(c.errors.len(), 1);
        assert_eq!(c.errors[0].0, Field::Heartbeat);
        assert!(c.errors[0].1.contains("heartbeat.interval.ms"));
    }

    #[test]
    fn a_taken_name_and_a_bad_number_are_both_reported() {
        let s = Lang::En.strings();
        let d = Draft {
            processing: "abc".into(),
            ..Draft::default()
        };
        let c = check(s, &d, "C1", &CoordinatorConfig::default(), |n| n == "C1");
        let fields: Vec<Field> = c.errors.iter().map(|(f, _)| *f).collect();
        assert_eq!(fields, vec![Field::Name, Field::Processing]);
    }

    #[test]
    fn allowed_but_surprising_settings_are_warned_about() {
        let s = Lang::En.strings();
        let d = Draft {
            session: "3000".into(),
            heartbeat: "1000".into(),
            processing: "400000".into(),
            ..Draft::default()
        };
        let c = check(s, &d, "C1", &CoordinatorConfig::default(), |_| false);
        assert!(c.errors.is_empty());
        assert_eq!(c.warnings.len(), 2, "{:?}", c.warnings);
    }

    #[test]
    fn the_session_bounds_are_the_coordinators_and_fill_the_warning() {
        let s = Lang::En.strings();
        let d = Draft {
            session: "6000".into(),
            heartbeat: "2000".into(),
            ..Draft::default()
        };
        let default = CoordinatorConfig::default();
        assert_eq!(check(s, &d, "C1", &default, |_| false), Checked::default());
        let d = Draft {
            session: "5000".into(),
            heartbeat: "1000".into(),
            ..Draft::default()
        };
        assert_eq!(
            check(s, &d, "C1", &default, |_| false).warnings,
            vec![
                "The broker accepts session.timeout.ms from 6000 to 1800000: this consumer will get \
                  INVALID_SESSION_TIMEOUT."
            ]
        );
        let strict = CoordinatorConfig {
            group_min_session_timeout_ms: 10_000,
            ..CoordinatorConfig::default()
        };
        let d = Draft {
            session: "6000".into(),
            heartbeat: "2000".into(),
            ..Draft::default()
        };
        let c = check(s, &d, "C1", &strict, |_| false);
        assert!(c.errors.is_empty());
        assert_eq!(c.warnings.len(), 1);
        assert!(
            c.warnings[0].contains("from 10000 to 1800000"),
            "{}",
            c.warnings[0]
        );
        let zh = Lang::Zh.strings();
        assert!(check(zh, &d, "C1", &strict, |_| false).warnings[0].contains("10000 到 1800000"));
    }

    #[test]
    fn a_name_with_markup_is_refused() {
        let s = Lang::En.strings();
        let c = check(s, &Draft::default(), "<b>", &CoordinatorConfig::default(), |_| {
            false
        });
        assert_eq!(c.errors.len(), 1);
        assert_eq!(c.errors[0].0, Field::Name);
        assert!(c.errors[0].1.contains("'<'"), "{}", c.errors[0].1);
    }

    #[test]
    fn the_subscription_is_a_list_of_topic_names() {
        let s = Lang::En.strings();
        assert_eq!(topic_list(" a, b，c  d "), vec!["a", "b", "c", "d"]);
        let bad = Draft {
            topics: " , ".into(),
            ..Draft::default()
        };
        assert_eq!(
            check(s, &bad, "C1", &CoordinatorConfig::default(), |_| false).errors[0].0,
            Field::Topics
        );
        let bad = Draft {
            topics: "a/b".into(),
            ..Draft::default()
        };
        assert_eq!(
            check(s, &bad, "C1", &CoordinatorConfig::default(), |_| false).errors[0].0,
            Field::Topics
        );
    }

    #[test]
    fn the_advanced_settings_reach_the_config_and_are_checked_by_the_engine() {
        let s = Lang::En.strings();
        let d = Draft {
            max_poll_records: "20".into(),
            commit: Commit::Auto,
            commit_interval: "1000".into(),
            ..Draft::default()
        };
        let cfg = draft_config(&d, "C1");
        assert_eq!(cfg.max_poll_records, 20);
        assert_eq!(cfg.commit, CommitMode::Auto { interval_ms: 1000 });
        assert_eq!(
            draft_config(
                &Draft {
                    commit: Commit::Manual,
                    ..d.clone()
                },
                "C1"
            )
            .commit,
            CommitMode::Manual { every_batches: 1 }
        );
        assert_eq!(
            draft_config(
                &Draft {
                    commit: Commit::Never,
                    ..d.clone()
                },
                "C1"
            )
            .commit,
            CommitMode::Never
        );
        // The engine's limit for max.poll.records (a Java int), named with the value typed.
        let big = Draft {
            max_poll_records: "3000000000".into(),
            ..Draft::default()
        };
        let c = check(s, &big, "C1", &CoordinatorConfig::default(), |_| false);
        assert_eq!(
            c.errors,
            vec![(
                Field::MaxPollRecords,
                "max.poll.records: 3000000000 is more than the limit (2147483647).".to_owned()
            )]
        );
        let zero = Draft {
            commit_interval: "0".into(),
            ..Draft::default()
        };
        assert_eq!(
            check(s, &zero, "C1", &CoordinatorConfig::default(), |_| false).errors[0].0,
            Field::CommitInterval
        );
        // The interval is not read while commits are not automatic.
        let manual = Draft {
            commit: Commit::Manual,
            ..zero
        };
        assert_eq!(
            check(s, &manual, "C1", &CoordinatorConfig::default(), |_| false),
            Checked::default()
        );
        let consumer = Draft {
            group_protocol: GroupProtocol::Consumer,
            ..Draft::default()
        };
        // The consumer protocol is simulated: choosing it is no error.
        let c = check(s, &consumer, "C1", &CoordinatorConfig::default(), |_| false);
        assert!(c.errors.is_empty(), "{:?}", c.errors);
    }

    #[test]
    fn start_settings_are_read_checked_by_the_engine_and_replayed_exactly() {
        let s = Lang::En.strings();
        let mut w = World::with_consumers_joined(2);
        let before = w.now();
        let mut draft = start_draft(&w);
        let at = |f: StartField| StartField::ALL.iter().position(|x| *x == f).unwrap();
        assert_eq!(
            draft[at(StartField::InitialRebalanceDelay)],
            "3000",
            "Kafka's default"
        );
        // Unchanged: nothing is written into the scenario.
        assert_eq!(read_start(s, &w, &draft).unwrap(), w.start_settings());
        // Not a number: named, nothing applied.
        draft[at(StartField::Latency)] = "fast".into();
        let e = read_start(s, &w, &draft).unwrap_err();
        assert_eq!(
            e,
            vec![(
                Some(StartField::Latency),
                "Network latency (ms): enter a number.".to_owned()
            )]
        );
        // Above the engine's limit: the engine's message names the value and the limit.
        draft[at(StartField::Latency)] = "4000000".into();
        let e = read_start(s, &w, &draft).unwrap_err();
        assert_eq!(e[0].0, Some(StartField::Latency));
        assert!(
            e[0].1.contains("4000000") && e[0].1.contains("3600000"),
            "{}",
            e[0].1
        );
        draft[at(StartField::Latency)] = "200".into();
        draft[at(StartField::DropProbability)] = "1.5".into();
        let e = read_start(s, &w, &draft).unwrap_err();
        assert_eq!(e[0].0, Some(StartField::DropProbability));
        assert!(e[0].1.contains("1.5"), "{}", e[0].1);
        // Good values: a new base scenario, replayed to the same time, whose share-link scenario
        // gives the same run.
        draft[at(StartField::DropProbability)] = "0".into();
        draft[at(StartField::InitialRebalanceDelay)] = "0".into();
        draft[at(StartField::Jitter)] = "0".into();
        let st = read_start(s, &w, &draft).unwrap();
        assert_eq!(st.coordinator.group_initial_rebalance_delay_ms, Some(0));
        assert_eq!(
            st.coordinator.group_min_session_timeout_ms, None,
            "unchanged stays out"
        );
        w = w.restarted(&st).unwrap();
        assert_eq!(w.now(), before);
        assert_eq!(w.coordinator_config().group_initial_rebalance_delay_ms, 0);
        // The user's actions are the new base scenario's, at their times (as a share link opens).
        assert_eq!(w.session().base().actions.len(), 2);
        let mut replay = World::from_scenario(&w.session().to_scenario()).unwrap();
        assert_eq!(replay.log(), w.log());
        assert_eq!(replay.view().group, w.view().group);
    }

    #[test]
    fn the_defaults_are_valid_and_eager() {
        let s = Lang::En.strings();
        let c = check(s, &Draft::default(), "C1", &CoordinatorConfig::default(), |_| {
            false
        });
        assert_eq!(c, Checked::default());
        assert_eq!(
            chosen(&Draft::default()),
            vec![Strategy::Range, Strategy::CooperativeSticky]
        );
    }
}
