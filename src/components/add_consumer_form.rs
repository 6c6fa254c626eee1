use rebalance_engine::assignor::{RebalanceProtocol, Strategy};
use rebalance_engine::client::{ConfigField, ConfigIssue, NameIssue, Severity};
use rebalance_engine::{ConsumerConfig, CoordinatorConfig};
use web_sys::{HtmlInputElement, SubmitEvent};
use yew::prelude::*;

use super::{use_playground, use_strings};
use crate::app::ADD_CONSUMER_FORM_ID;
use crate::i18n::{fill, Strings};
use crate::state::Change;
use crate::world::{default_consumer, Command};

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
    match text.trim().parse::<u64>() {
        Ok(v) if v > 0 => Some(v),
        _ => {
            errors.push((which, fill(s.form.err_number, &[("field", field)])));
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
    let numbers = [
        (f.session, &d.session, Field::Session),
        (f.heartbeat, &d.heartbeat, Field::Heartbeat),
        (f.max_poll, &d.max_poll, Field::MaxPoll),
        (f.processing, &d.processing, Field::Processing),
    ];
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
        let text = issue_text(s, &issue);
        match (issue.severity(), fields[0]) {
            (Severity::Error, Some(field)) => errors.push((field, text)),
            // The form does not set the other fields; their defaults pass.
            (Severity::Error, None) => {}
            (Severity::Warning, _) => warnings.push(text),
        }
    }
    Checked { errors, warnings }
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
        ConfigField::MaxPollRecords | ConfigField::ServerAssignor => return None,
    })
}

/// An issue in the user's language, with its numbers.
fn issue_text(s: &Strings, issue: &ConfigIssue) -> String {
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
            let label = match form_field(*field) {
                Some(Field::Session) => f.session,
                Some(Field::Heartbeat) => f.heartbeat,
                Some(Field::MaxPoll) => f.max_poll,
                Some(Field::Processing) => f.processing,
                _ => "",
            };
            fill(f.err_number, &[("field", label)])
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

/// The form that adds a consumer. Errors name the field and keep what was typed.
#[component]
pub fn AddConsumerForm() -> Html {
    let s = use_strings();
    let f = &s.form;
    let pg = use_playground();
    let draft = use_state(Draft::default);
    let shown_errors = use_state(Vec::<(Field, String)>::new);
    let open = use_state(|| false);

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
        let name = name.clone();
        let coordinator = coordinator.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let world = pg.world.clone();
            let checked = check(s, &draft, &name, &coordinator, move |n| {
                world.borrow().has_consumer(n)
            });
            if !checked.errors.is_empty() {
                if checked.errors.iter().any(|(f, _)| *f != Field::Name) {
                    open.set(true);
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
                        { text_input(Some(Field::MaxPoll), "consumer-max-poll", f.max_poll, draft.max_poll.clone(), |d, v| d.max_poll = v, None) }
                        { text_input(Some(Field::Processing), "consumer-processing", f.processing, draft.processing.clone(), |d, v| d.processing = v, None) }
                        <div class="form-field form-check">
                            <input id="consumer-commit-in-revoke" type="checkbox" checked={draft.commit_in_revoke} onchange={oncommit} />
                            <label for="consumer-commit-in-revoke">{ f.commit_in_revoke }</label>
                        </div>
                    </div>
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
