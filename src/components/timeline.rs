//! The timeline: a slider over the session's simulated history. Dragging it replays the session
//! from the start up to the chosen time (the engine is deterministic) and shows that state, paused.
//! The later history is kept while the learner only looks; acting in the past forks a new future
//! (the later recorded actions are dropped).

use std::rc::Rc;

use rebalance_engine::Scenario;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::{use_playground, use_strings};
use crate::sharing;
use crate::state::Change;

/// The timeline.
#[component]
pub fn Timeline() -> Html {
    let s = use_strings();
    let pg = use_playground();
    // The whole session while the learner scrubs: (scenario, the world's history length after
    // the last seek). Any new action (history grows) forks: the reference is dropped.
    let reference = use_mut_ref(|| None::<Rc<Scenario>>);
    let now = pg.view.now.as_millis();
    {
        let world = pg.world.borrow();
        if !world.history().is_empty() {
            *reference.borrow_mut() = None;
        }
    }
    let end = reference.borrow().as_ref().map_or(now, |r| r.end_ms.max(now));
    let onseek = {
        let pg = pg.clone();
        let reference = reference.clone();
        Callback::from(move |e: InputEvent| {
            let Some(input) = e.target_dyn_into::<HtmlInputElement>() else {
                return;
            };
            let Ok(t) = input.value().parse::<u64>() else {
                return;
            };
            let full = {
                let mut r = reference.borrow_mut();
                r.get_or_insert_with(|| Rc::new(sharing::session_scenario(&pg.world.borrow())))
                    .clone()
            };
            if let Ok(world) = sharing::replay(&sharing::cut_at(&full, t)) {
                *pg.world.borrow_mut() = world;
                pg.dispatch(Change::Pause);
            }
        })
    };
    let label = s.controls.time;
    html! {
        <section class="timeline" aria-label={s.lessons.timeline}>
            <label class="timeline-label">
                <span>{ s.lessons.timeline }</span>
                <input type="range" min="0" max={end.to_string()} step="1" value={now.to_string()}
                    aria-valuetext={format!("{label} {}.{} s", now / 1000, (now % 1000) / 100)}
                    oninput={onseek} />
            </label>
            <span class="timeline-value">{ format!("{}.{} s / {}.{} s", now / 1000, (now % 1000) / 100, end / 1000, (end % 1000) / 100) }</span>
        </section>
    }
}
