//! Lesson mode: pick one of the preset lessons, step through its narration forward and back (the
//! simulation is shown at each step's event), and answer the predict questions before the reveal.

use std::rc::Rc;

use rebalance_engine::lesson::Text;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use super::{use_playground, use_strings};
use crate::i18n::{fill, Lang};
use crate::lessons::{self, Loaded};
use crate::state::{Change, PlaygroundContext};

fn pick(lang: Lang, t: &Text) -> String {
    match lang {
        Lang::Zh => t.zh.clone(),
        Lang::En => t.en.clone(),
    }
}

/// Where the learner is in a lesson.
#[derive(Clone, PartialEq)]
struct Progress {
    loaded: Rc<Loaded>,
    /// The step on screen.
    step: usize,
    /// Whether its narration is shown (false while its predict question waits for an answer).
    revealed: bool,
    /// The choice the learner picked for this step's question.
    answer: Option<usize>,
}

/// Shows the lesson's world at the end of event `seq`'s instant, paused.
fn show(pg: &PlaygroundContext, loaded: &Loaded, seq: u64) -> Result<(), String> {
    let world = lessons::world_at(loaded, seq)?;
    *pg.world.borrow_mut() = world;
    pg.dispatch(Change::Pause);
    pg.dispatch(Change::Select(None));
    Ok(())
}

/// Goes to step `k`: a step with a question waits at the previous step's event until it is
/// answered; `ask` is false when going back (the question was met already).
fn go_to(pg: &PlaygroundContext, loaded: Rc<Loaded>, k: usize, ask: bool) -> Result<Progress, String> {
    let steps = loaded.steps;
    let revealed = !(ask && steps[k].correct.is_some());
    let seq = if revealed {
        steps[k].seq
    } else {
        k.checked_sub(1).map_or(0, |p| steps[p].seq)
    };
    show(pg, &loaded, seq)?;
    Ok(Progress {
        loaded,
        step: k,
        revealed,
        answer: None,
    })
}

/// The lesson panel.
#[component]
pub fn LessonPanel() -> Html {
    let s = use_strings();
    let t = &s.lessons;
    let lang = use_context::<Lang>().unwrap_or(Lang::En);
    let pg = use_playground();
    let picked = use_state(|| 0usize);
    let progress = use_state(|| None::<Progress>);
    let error = use_state(|| None::<String>);
    let loading = use_state(|| false);

    let apply = {
        let progress = progress.clone();
        let error = error.clone();
        move |r: Result<Progress, String>| match r {
            Ok(p) => {
                progress.set(Some(p));
                error.set(None);
            }
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
                    Ok(l) => apply(go_to(&pg, Rc::new(l), 0, true)),
                    Err(why) => error.set(Some(fill(
                        t.load_failed,
                        &[("title", preset.title(lang)), ("why", &why)],
                    ))),
                }
            });
        })
    };

    let titles = lessons::PRESETS.iter().map(|p| p.title(lang));

    let body = match &*progress {
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
            let question = step.predict.as_ref().filter(|_| !p.revealed || p.answer.is_some()).map(|q| {
                let choices = q.choices.iter().enumerate().map(|(i, c)| {
                    let onclick = {
                        let pg = pg.clone();
                        let progress = progress.clone();
                        let error = error.clone();
                        let p = p.clone();
                        Callback::from(move |_| {
                            if p.revealed {
                                return;
                            }
                            match show(&pg, &p.loaded, p.loaded.steps[p.step].seq) {
                                Ok(()) => progress.set(Some(Progress { revealed: true, answer: Some(i), ..p.clone() })),
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
                                { " " }{ pick(lang, &q.explanation) }
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
            html! {
                <div class="lesson-body">
                    <h3 class="lesson-title">{ pick(lang, &loaded.narration.title) }</h3>
                    <p class="lesson-progress" data-testid="lesson-step">{ fill(t.step_of, &[("n", &(p.step + 1).to_string()), ("total", &total.to_string())]) }</p>
                    { question.unwrap_or_default() }
                    if p.revealed {
                        <div class="lesson-step" aria-live="polite">
                            <h4 class="lesson-step-title">{ pick(lang, &step.title) }</h4>
                            <p>{ pick(lang, &step.text) }</p>
                        </div>
                    }
                    <div class="lesson-nav">
                        <button type="button" onclick={onback} disabled={p.step == 0}>{ t.back }</button>
                        <button type="button" class="primary" onclick={onnext} disabled={!p.revealed || p.step + 1 >= total}>{ t.next }</button>
                    </div>
                </div>
            }
        }
    };

    html! {
        <section class="lessons panel" aria-labelledby="lessons-heading">
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
