//! The timeline: a slider over the session's recorded history. Dragging it shows the state the
//! session had at that time, paused (the world restores its nearest snapshot and replays the few
//! seconds after it: see [`crate::world`]). The later history is kept while the learner only
//! looks, and playing on replays it; acting in the past forks a new future (the later recorded
//! actions are dropped).

use rebalance_engine::SimTime;
use web_sys::{HtmlInputElement, KeyboardEvent};
use yew::prelude::*;

use super::{use_playground, use_strings};
use crate::hooks::use_frame;
use crate::state::Change;

/// How far Shift+arrow moves the timeline (ms of virtual time).
const SHIFT_MS: u64 = 1_000;

/// How far Page Up/Down move it.
const PAGE_MS: u64 = 5_000;

/// `12.3 s`.
fn seconds(ms: u64) -> String {
    format!("{}.{} s", ms / 1000, (ms % 1000) / 100)
}

/// The time shown and the end of the session's recorded history, in ms.
fn now_and_end(pg: &crate::state::PlaygroundContext) -> (u64, u64) {
    let world = pg.world.borrow();
    (world.now().as_millis(), world.horizon().as_millis())
}

/// The timeline.
#[component]
pub fn Timeline() -> Html {
    let s = use_strings();
    let pg = use_playground();
    let (end, snapshots, dropped) = {
        let world = pg.world.borrow();
        (
            world.horizon().as_millis(),
            world.snapshots().0,
            world.log_dropped_before(),
        )
    };
    // An imported log's lines, marked where they happened (the imported panel lists them for
    // the keyboard; a mark is a shortcut for the mouse).
    let marks = pg.imported.as_ref().filter(|i| !i.marks.is_empty()).map(|imported| {
        let span = end.max(1) as f64;
        let mut last_pct = -1.0;
        let ticks = imported.marks.iter().filter_map(|m| {
            let pct = (m.at_ms.min(end) as f64 / span * 1000.0).round() / 10.0;
            // One mark per 0.1% of the width.
            if pct <= last_pct {
                return None;
            }
            last_pct = pct;
            let pg = pg.clone();
            let at = m.at_ms;
            let onclick = Callback::from(move |_| {
                pg.world.borrow_mut().seek(SimTime(at));
                pg.dispatch(Change::Pause);
            });
            let title = format!("{} {}: {}", imported.where_is(m), super::imported_panel::seconds(at), m.text);
            Some(html! {
                <span class="timeline-mark" style={format!("left: {}%", crate::num::short(pct, 1))} {title} {onclick} data-at-ms={at.to_string()} />
            })
        });
        html! {
            <div class="timeline-marks" aria-hidden="true" title={s.import.marks_label}>{ for ticks }</div>
        }
    });
    html! {
        <section class="timeline" aria-label={s.lessons.timeline} data-snapshots={snapshots.to_string()}>
            <label class="timeline-label">
                <span>{ s.lessons.timeline }</span>
                <TimelineTrack />
            </label>
            { for marks }
            <TimelineValue />
            if let Some(t) = dropped {
                <p class="timeline-dropped" data-testid="timeline-dropped">
                    { crate::i18n::fill(s.lessons.timeline_dropped, &[("t", &seconds(t.as_millis()))]) }
                </p>
            }
            <span id="timeline-keys" class="visually-hidden">{ s.controls.timeline_keys }</span>
        </section>
    }
}

/// The slider. It moves on every frame while playing, as the toolbar's clock does, so it redraws
/// itself then (the rest of the timeline redraws with the page, when the log grows); it sits in a
/// box of fixed size (styles.css), so the page around it is not laid out again.
#[component]
fn TimelineTrack() -> Html {
    use_frame();
    let s = use_strings();
    let pg = use_playground();
    let (now, end) = now_and_end(&pg);
    let onseek = {
        let pg = pg.clone();
        Callback::from(move |e: InputEvent| {
            let Some(input) = e.target_dyn_into::<HtmlInputElement>() else {
                return;
            };
            let Ok(t) = input.value().parse::<u64>() else {
                return;
            };
            pg.world.borrow_mut().seek(SimTime(t));
            pg.dispatch(Change::Pause);
        })
    };
    // The slider's keys: an arrow goes to the previous or next recorded event (not 1 ms);
    // Shift+arrow moves a second, Page Up/Down five; Home and End are the slider's own.
    let onkey = {
        let pg = pg.clone();
        Callback::from(move |e: KeyboardEvent| {
            let back = match e.key().as_str() {
                "ArrowLeft" | "ArrowDown" | "PageDown" => true,
                "ArrowRight" | "ArrowUp" | "PageUp" => false,
                _ => return,
            };
            e.prevent_default();
            e.stop_propagation();
            let to = {
                let world = pg.world.borrow();
                let (now, end) = (world.now().as_millis(), world.horizon().as_millis());
                let by = match e.key().as_str() {
                    "PageUp" | "PageDown" => Some(PAGE_MS),
                    _ if e.shift_key() => Some(SHIFT_MS),
                    _ => None,
                };
                match (by, back) {
                    (Some(by), true) => Some(now.saturating_sub(by)),
                    (Some(by), false) => Some(now.saturating_add(by).min(end)),
                    // (The entries the log shows: its filter decides what "an event" is.)
                    (None, true) => world
                        .log()
                        .iter()
                        .rev()
                        .filter(|ev| pg.log_filter.shows(ev))
                        .map(|ev| ev.at.as_millis())
                        .find(|&at| at < now),
                    (None, false) => world
                        .log_ahead()
                        .iter()
                        .filter(|ev| pg.log_filter.shows(ev))
                        .map(|ev| ev.at.as_millis())
                        .find(|&at| at > now),
                }
            };
            if let Some(to) = to {
                pg.world.borrow_mut().seek(SimTime(to));
                pg.dispatch(Change::Pause);
            }
        })
    };
    let label = s.controls.time;
    html! {
        <span class="timeline-track">
            <input type="range" min="0" max={end.to_string()} step="1" value={now.to_string()}
                aria-valuetext={format!("{label} {}", seconds(now))}
                title={s.controls.timeline_keys} aria-describedby="timeline-keys"
                oninput={onseek} onkeydown={onkey} />
        </span>
    }
}

/// The time and the session's end, `12.3 s / 40.0 s`, redrawn on every frame like the slider.
#[component]
fn TimelineValue() -> Html {
    use_frame();
    let pg = use_playground();
    let (now, end) = now_and_end(&pg);
    html! {
        <span class="timeline-value"><span class="live-text timeline-value-text">{ format!("{} / {}", seconds(now), seconds(end)) }</span></span>
    }
}
