//! The timeline: a slider over the session's recorded history. Dragging it shows the state the
//! session had at that time, paused (the world restores its nearest snapshot and replays the few
//! seconds after it: see [`crate::world`]). The later history is kept while the learner only
//! looks, and playing on replays it; acting in the past forks a new future (the later recorded
//! actions are dropped).

use rebalance_engine::SimTime;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::{use_playground, use_strings};
use crate::state::Change;

/// `12.3 s`.
fn seconds(ms: u64) -> String {
    format!("{}.{} s", ms / 1000, (ms % 1000) / 100)
}

/// The timeline.
#[component]
pub fn Timeline() -> Html {
    let s = use_strings();
    let pg = use_playground();
    let (now, end, snapshots, dropped) = {
        let world = pg.world.borrow();
        (
            world.now().as_millis(),
            world.horizon().as_millis(),
            world.snapshots().0,
            world.log_dropped_before(),
        )
    };
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
    let label = s.controls.time;
    html! {
        <section class="timeline" aria-label={s.lessons.timeline} data-snapshots={snapshots.to_string()}>
            <label class="timeline-label">
                <span>{ s.lessons.timeline }</span>
                <input type="range" min="0" max={end.to_string()} step="1" value={now.to_string()}
                    aria-valuetext={format!("{label} {}", seconds(now))}
                    oninput={onseek} />
            </label>
            <span class="timeline-value">{ format!("{} / {}", seconds(now), seconds(end)) }</span>
            if let Some(t) = dropped {
                <p class="timeline-dropped" data-testid="timeline-dropped">
                    { crate::i18n::fill(s.lessons.timeline_dropped, &[("t", &seconds(t.as_millis()))]) }
                </p>
            }
        </section>
    }
}
