//! The admin console: Kafka's own command-line tools (`kafka-consumer-groups.sh`,
//! `kafka-topics.sh`) typed against the simulated cluster at the shown time. The engine answers in
//! the tools' output format for the chosen Kafka version; this panel only keeps what was typed and
//! printed (the last few commands) and offers the usual commands for the session's group.

use rebalance_engine::console::{split_words, KafkaVersion, LineError, MAX_LINE_CHARS};
use web_sys::{HtmlInputElement, HtmlSelectElement, SubmitEvent};
use yew::prelude::*;

use super::{use_playground, use_strings};
use crate::i18n::fill;
use crate::state::Change;

/// How many commands and their outputs the panel keeps on screen.
const KEPT: usize = 12;

/// One command and what it printed.
#[derive(Clone, PartialEq)]
struct Entry {
    at_ms: u64,
    line: String,
    stdout: String,
    stderr: String,
    exit_code: i32,
}

/// The formats the tools changed through, newest first (the engine's eras).
const VERSIONS: [(KafkaVersion, &str); 3] = [
    (KafkaVersion::Kafka4, "4.x"),
    (KafkaVersion::Java3, "3.8–3.9"),
    (KafkaVersion::Scala, "2.3–3.7"),
];

#[component]
pub fn ConsolePanel() -> Html {
    let s = use_strings();
    let c = &s.console;
    let pg = use_playground();
    let line = use_state(String::new);
    let version = use_state(|| KafkaVersion::NEWEST);
    let entries = use_state(Vec::<Entry>::new);
    let error = use_state(|| None::<String>);
    let group = pg.view.group.group_id.clone();
    // The user-given names in the answers are isolated (a group or consumer named in any script).
    let names = super::shown_names(&pg.view);
    let bootstrap = "--bootstrap-server localhost:9092";
    let examples = [
        format!("kafka-consumer-groups.sh {bootstrap} --describe --group {group}"),
        format!("kafka-consumer-groups.sh {bootstrap} --describe --group {group} --members --verbose"),
        format!("kafka-consumer-groups.sh {bootstrap} --describe --group {group} --state"),
        format!("kafka-consumer-groups.sh {bootstrap} --list"),
        format!("kafka-topics.sh {bootstrap} --describe --topic __consumer_offsets"),
    ];

    let run = {
        let pg = pg.clone();
        let entries = entries.clone();
        let error = error.clone();
        let version = version.clone();
        move |text: String| {
            let words = match split_words(&text) {
                Ok(w) if w.is_empty() => return,
                Ok(w) => w,
                Err(e) => {
                    error.set(Some(match e {
                        LineError::TooLong { chars } => fill(
                            c.err_long,
                            &[("n", &chars.to_string()), ("max", &MAX_LINE_CHARS.to_string())],
                        ),
                        LineError::UnclosedQuote { at } => {
                            fill(c.err_quote, &[("at", &(at + 1).to_string())])
                        }
                    }));
                    return;
                }
            };
            error.set(None);
            let (out, at_ms) = {
                let mut world = pg.world.borrow_mut();
                let out = world.console(&words, *version);
                (out, world.now().as_millis())
            };
            let mut kept = (*entries).clone();
            kept.push(Entry {
                at_ms,
                line: text,
                stdout: out.stdout,
                stderr: out.stderr,
                exit_code: out.exit_code,
            });
            let excess = kept.len().saturating_sub(KEPT);
            kept.drain(..excess);
            entries.set(kept);
            // A write (a delete, an offset reset) changed the world: draw it again.
            pg.dispatch(Change::Pause);
        }
    };
    let onsubmit = {
        let run = run.clone();
        let line = line.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            run((*line).clone());
        })
    };
    let oninput = {
        let line = line.clone();
        Callback::from(move |e: InputEvent| line.set(e.target_unchecked_into::<HtmlInputElement>().value()))
    };
    let onversion = {
        let version = version.clone();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            if let Some((k, _)) = VERSIONS.iter().find(|(_, name)| *name == v) {
                version.set(*k);
            }
        })
    };
    html! {
        <details class="console-panel panel" data-testid="console">
            <summary class="panel-heading">{ c.heading }</summary>
            <p class="form-hint">{ c.intro }</p>
            <form class="console-form" {onsubmit}>
                <label class="console-line">
                    <span>{ c.command }</span>
                    <input id="console-line" type="text" spellcheck="false" autocomplete="off"
                        value={(*line).clone()} {oninput} maxlength={MAX_LINE_CHARS.to_string()}
                        aria-invalid={error.is_some().to_string()} aria-describedby="console-error" />
                </label>
                <label>{ c.version }
                    <select onchange={onversion}>
                        { for VERSIONS.iter().map(|(k, name)| html! {
                            <option value={*name} selected={*version == *k}>{ *name }</option>
                        }) }
                    </select>
                </label>
                <button type="submit">{ c.run }</button>
            </form>
            if let Some(e) = &*error {
                <p id="console-error" class="form-error" role="alert">{ e }</p>
            }
            <ul class="console-examples" aria-label={c.examples}>
                { for examples.into_iter().map(|ex| {
                    let line = line.clone();
                    let run = run.clone();
                    let text = ex.clone();
                    let onclick = Callback::from(move |_| {
                        line.set(text.clone());
                        run(text.clone());
                    });
                    html! { <li><button type="button" class="console-example" {onclick}><code>{ super::isolate_names(&ex, &names) }</code></button></li> }
                }) }
            </ul>
            <ol class="console-output" aria-live="polite">
                { for entries.iter().rev().map(|e| html! {
                    <li class={classes!("console-entry", (e.exit_code != 0).then_some("is-error"))}>
                        <p class="console-prompt">
                            <span class="console-time">{ format!("t={}.{:01} s", e.at_ms / 1000, (e.at_ms % 1000) / 100) }</span>
                            <code>{ super::isolate_names(&format!("$ {}", e.line), &names) }</code>
                        </p>
                        if !e.stdout.is_empty() { <pre class="console-stdout">{ super::isolate_names(&e.stdout, &names) }</pre> }
                        if !e.stderr.is_empty() { <pre class="console-stderr">{ super::isolate_names(&e.stderr, &names) }</pre> }
                        if e.exit_code != 0 {
                            <p class="console-exit">{ fill(c.exit, &[("code", &e.exit_code.to_string())]) }</p>
                        }
                    </li>
                }) }
            </ol>
        </details>
    }
}
