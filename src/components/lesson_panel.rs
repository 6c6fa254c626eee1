//! Lesson mode: pick one of the preset lessons, step through its narration forward and back (the
//! simulation is shown at each step's event), and answer the predict questions before the reveal.
//! While a lesson is open it owns the timeline (see [`crate::state::LessonRun`]): Play and Step
//! stop at the end of the current step; Reset or the close button end the lesson. The last step
//! sums the lesson up with the Kafka settings its scenario uses.

use std::rc::Rc;

use rebalance_engine::client::ConfigField;
use rebalance_engine::lesson::Text;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use super::{use_playground, use_strings};
use crate::i18n::{fill, Lang, Strings};
use crate::lessons::{self, Loaded};
use crate::state::{Change, LessonRun, PlaygroundContext};
use crate::world::World;

fn pick(lang: Lang, t: &Text) -> String {
    match lang {
        Lang::Zh => t.zh.clone(),
        Lang::En => t.en.clone(),
    }
}

/// Shows the lesson's world at the end of event `seq`'s instant, paused.
fn show(pg: &PlaygroundContext, loaded: &Loaded, seq: u64) -> Result<(), String> {
    let world = lessons::world_at(loaded, seq);
    *pg.world.borrow_mut() = world;
    pg.dispatch(Change::Pause);
    pg.dispatch(Change::Select(None));
    Ok(())
}

/// Goes to step `k`: a step with a question waits at the previous step's event until it is
/// answered; `ask` is false when going back (the question was met already).
fn go_to(pg: &PlaygroundContext, loaded: Rc<Loaded>, k: usize, ask: bool) -> Result<(), String> {
    let steps = loaded.steps;
    let revealed = !(ask && steps[k].correct.is_some());
    let seq = if revealed {
        steps[k].seq
    } else {
        k.checked_sub(1).map_or(0, |p| steps[p].seq)
    };
    show(pg, &loaded, seq)?;
    pg.dispatch(Change::Lesson(Some(LessonRun {
        loaded,
        step: k,
        revealed,
        answer: None,
        at_end: false,
    })));
    Ok(())
}

/// The Kafka settings the lesson's consumers run with (one row per setting; the consumers are
/// named when their values differ) and the coordinator's initial rebalance delay.
fn settings(s: &Strings, world: &World) -> Html {
    let consumers = world.sim().consumers();
    let row = |name: String, values: Vec<(String, String)>| {
        let mut distinct: Vec<&str> = values.iter().map(|(_, v)| v.as_str()).collect();
        distinct.dedup();
        let value = if distinct.len() <= 1 {
            distinct.first().map(|v| (*v).to_owned()).unwrap_or_default()
        } else {
            values
                .iter()
                .map(|(who, v)| format!("{v} {}", fill(s.lessons.for_consumers, &[("names", who)])))
                .collect::<Vec<_>>()
                .join(", ")
        };
        html! { <div class="lesson-setting"><dt><code>{ name }</code></dt><dd class="mono">{ value }</dd></div> }
    };
    let per_consumer = |f: &dyn Fn(&rebalance_engine::ConsumerConfig) -> String| {
        consumers
            .iter()
            .map(|c| (c.name.clone(), f(&c.config)))
            .collect::<Vec<_>>()
    };
    let mut rows = vec![row(
        s.lessons.initial_delay_setting.to_owned(),
        vec![(
            String::new(),
            world
                .coordinator_config()
                .group_initial_rebalance_delay_ms
                .to_string(),
        )],
    )];
    if !consumers.is_empty() {
        rows.push(row(
            ConfigField::SessionTimeout.to_string(),
            per_consumer(&|c| c.session_timeout_ms.to_string()),
        ));
        rows.push(row(
            ConfigField::HeartbeatInterval.to_string(),
            per_consumer(&|c| c.heartbeat_interval_ms.to_string()),
        ));
        rows.push(row(
            ConfigField::MaxPollInterval.to_string(),
            per_consumer(&|c| c.max_poll_interval_ms.to_string()),
        ));
        rows.push(row(
            ConfigField::Assignors.to_string(),
            per_consumer(&|c| c.assignors.iter().map(|a| a.name()).collect::<Vec<_>>().join(",")),
        ));
    }
    html! { <dl class="lesson-settings">{ for rows }</dl> }
}

/// The lesson panel.
#[component]
pub fn LessonPanel() -> Html {
    let s = use_strings();
    let t = &s.lessons;
    let lang = use_context::<Lang>().unwrap_or(Lang::En);
    let pg = use_playground();
    let picked = use_state(|| 0usize);
    let error = use_state(|| None::<String>);
    let loading = use_state(|| false);
    // A step's console answer, computed once per step on the world at the step's event (the same
    // world the lesson's golden shows, whatever Play did since).
    #[allow(clippy::type_complexity)]
    let console_cache = use_mut_ref(|| None::<((usize, usize), Rc<String>)>);

    let apply = {
        let error = error.clone();
        move |r: Result<(), String>| match r {
            Ok(()) => error.set(None),
            Err(e) => error.set(Some(e)),
        }
    };

    let onpick = {
        let picked = picked.clone();
        Callback::from(move |e: Event| {
            if let Some(sel) = e.target_dyn_into::<HtmlSelectElement>() {
                picked.set(sel.value().parse().unwrap_or(0));
            }
        })
    };
    let onopen = {
        let pg = pg.clone();
        let picked = *picked;
        let apply = apply.clone();
        let loading = loading.clone();
        let error = error.clone();
        Callback::from(move |_| {
            let Some(preset) = lessons::PRESETS.get(picked).copied() else {
                return;
            };
            let pg = pg.clone();
            let apply = apply.clone();
            let loading = loading.clone();
            let error = error.clone();
            loading.set(true);
            wasm_bindgen_futures::spawn_local(async move {
                let loaded = lessons::fetch(preset).await;
                loading.set(false);
                match loaded {
                    Ok(l) => {
                        apply(go_to(&pg, Rc::new(l), 0, true));
                        // The learner reads the lesson next: its title takes the focus, and on a
                        // phone (the lesson a sheet over the bottom) the stage comes into view.
                        super::focus_soon(".lesson-title", true);
                    }
                    Err(why) => error.set(Some(fill(
                        t.load_failed,
                        &[("title", preset.title(lang)), ("why", &why)],
                    ))),
                }
            });
        })
    };
    let onclose = {
        let pg = pg.clone();
        Callback::from(move |_| {
            pg.dispatch(Change::Lesson(None));
            super::focus_soon(".lesson-picker select", false);
        })
    };

    let titles = lessons::PRESETS.iter().map(|p| p.title(lang));

    let body = match pg.lesson.as_deref() {
        None => html! {},
        Some(p) => {
            let loaded = p.loaded.clone();
            let correct = loaded.steps[p.step].correct;
            let step = &loaded.narration.steps[p.step];
            let total = loaded.steps.len();
            let onback = {
                let pg = pg.clone();
                let loaded = loaded.clone();
                let k = p.step;
                let apply = apply.clone();
                Callback::from(move |_| {
                    if k > 0 {
                        apply(go_to(&pg, loaded.clone(), k - 1, false));
                    }
                })
            };
            let onnext = {
                let pg = pg.clone();
                let loaded = loaded.clone();
                let k = p.step;
                let apply = apply.clone();
                Callback::from(move |_| {
                    if k + 1 < loaded.steps.len() {
                        apply(go_to(&pg, loaded.clone(), k + 1, true));
                    }
                })
            };
            let console = step.console.as_ref().and_then(|line| {
                let key = (Rc::as_ptr(&loaded) as usize, p.step);
                let mut cache = console_cache.borrow_mut();
                if cache.as_ref().map(|c| c.0) != Some(key) {
                    let words = rebalance_engine::lesson::check_console(line).ok()?;
                    let mut w = lessons::world_at(&loaded, loaded.steps[p.step].seq);
                    let out = w.console(&words, rebalance_engine::console::KafkaVersion::NEWEST);
                    *cache = Some((key, Rc::new(format!("$ {line}\n{}{}", out.stdout, out.stderr))));
                }
                cache.as_ref().map(|c| c.1.clone())
            });
            let question = step.predict.as_ref().filter(|_| !p.revealed || p.answer.is_some()).map(|q| {
                let choices = q.choices.iter().enumerate().map(|(i, c)| {
                    let onclick = {
                        let pg = pg.clone();
                        let error = error.clone();
                        let p = p.clone();
                        Callback::from(move |_| {
                            if p.revealed {
                                return;
                            }
                            match show(&pg, &p.loaded, p.loaded.steps[p.step].seq) {
                                Ok(()) => {
                                    pg.dispatch(Change::Lesson(Some(LessonRun {
                                        revealed: true,
                                        answer: Some(i),
                                        at_end: false,
                                        ..p.clone()
                                    })));
                                    super::reveal_soon(".lesson-step");
                                }
                                Err(e) => error.set(Some(e)),
                            }
                        })
                    };
                    let pressed = p.answer == Some(i);
                    html! {
                        <li><button type="button" aria-pressed={pressed.to_string()} disabled={p.revealed} {onclick}>{ pick(lang, &c.label) }</button></li>
                    }
                });
                let verdict = match (p.answer, correct.and_then(|c| Some((c, q.choices.get(c)?)))) {
                    (Some(a), Some((c, choice))) => {
                        let right = a == c;
                        let answer = pick(lang, &choice.label);
                        html! {
                            <div class={classes!("lesson-verdict", if right { "is-right" } else { "is-wrong" })} role="status">
                                <strong>{ if right { t.correct.to_owned() } else { fill(t.incorrect, &[("answer", &answer)]) } }</strong>
                                { s.sentence_gap }{ pick(lang, &q.explanation) }
                            </div>
                        }
                    }
                    _ => html! {},
                };
                html! {
                    <div class="lesson-predict">
                        <h4>{ t.predict }</h4>
                        <p>{ pick(lang, &q.question) }</p>
                        <ul class="lesson-choices" aria-label={pick(lang, &q.question)}>{ for choices }</ul>
                        { verdict }
                    </div>
                }
            });
            let finished = p.finished();
            let stopped = p.at_end.then(|| {
                let why = if !p.revealed {
                    t.answer_first
                } else if finished {
                    ""
                } else {
                    t.step_ended
                };
                html! { if !why.is_empty() { <p class="lesson-stopped" role="status">{ why }</p> } }
            });
            let summary = finished.then(|| {
                let world = pg.world.borrow();
                html! {
                    <div class="lesson-summary" data-testid="lesson-summary">
                        <h4>{ t.summary }</h4>
                        <p>{ pick(lang, &loaded.summary) }</p>
                        <h4>{ t.settings }</h4>
                        { settings(s, &world) }
                        if !loaded.kafka_notes.is_empty() {
                            <h4>{ t.notes }</h4>
                            <ul class="lesson-notes">
                                { for loaded.kafka_notes.iter().map(|n| html! { <li>{ pick(lang, n) }</li> }) }
                            </ul>
                        }
                    </div>
                }
            });
            html! {
                <div class="lesson-body">
                    <div class="lesson-head">
                        <h3 class="lesson-title" tabindex="-1">{ pick(lang, &loaded.narration.title) }</h3>
                        <button type="button" class="quiet lesson-close" onclick={onclose}>{ t.close }</button>
                    </div>
                    <p class="lesson-progress" data-testid="lesson-step">{ fill(t.step_of, &[("n", &(p.step + 1).to_string()), ("total", &total.to_string())]) }</p>
                    { question.unwrap_or_default() }
                    if p.revealed {
                        <div class="lesson-step" aria-live="polite">
                            <h4 class="lesson-step-title">{ pick(lang, &step.title) }</h4>
                            <p>{ pick(lang, &step.text) }</p>
                            if let Some(out) = console {
                                <pre class="lesson-console" data-testid="lesson-console" tabindex="0"><code>{ (*out).clone() }</code></pre>
                            }
                        </div>
                    }
                    { stopped.unwrap_or_default() }
                    { summary.unwrap_or_default() }
                    <div class="lesson-nav">
                        <button type="button" onclick={onback} disabled={p.step == 0}>{ t.back }</button>
                        <button type="button" class="primary" onclick={onnext} disabled={!p.revealed || p.step + 1 >= total}>{ t.next }</button>
                    </div>
                </div>
            }
        }
    };

    html! {
        <section class={classes!("lessons", "panel", pg.lesson.is_some().then_some("is-open"))} aria-labelledby="lessons-heading">
            <h2 id="lessons-heading" class="panel-heading">{ t.heading }</h2>
            <div class="lesson-picker">
                <label>
                    <span>{ t.pick }</span>
                    <select onchange={onpick}>
                        { for titles.enumerate().map(|(i, title)| html! {
                            <option value={i.to_string()} selected={i == *picked}>{ format!("{}. {title}", i + 1) }</option>
                        }) }
                    </select>
                </label>
                <button type="button" onclick={onopen} disabled={*loading}>{ t.open }</button>
                if *loading {
                    <span class="lesson-loading" role="status">{ t.loading }</span>
                }
            </div>
            if let Some(e) = &*error {
                <p class="share-error" role="alert">{ e.clone() }</p>
            }
            { body }
        </section>
    }
}
