//! The imported scenario's panel: its name and description (for a log, the assumptions the replay
//! made), and for a log the group lines it was built from. Clicking a line (or Enter on it) shows
//! the session at that line's moment, through the session's seek; the arrow keys move between
//! lines, so the list is one tab stop.

use rebalance_engine::SimTime;
use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;
use yew::prelude::*;

use super::{use_playground, use_strings};
use crate::i18n::fill;
use crate::state::Change;

/// The most log lines listed (the rest are marked on the timeline only).
pub const MAX_LISTED: usize = 500;

/// `36.045 s`.
pub fn seconds(ms: u64) -> String {
    format!("{}.{:03} s", ms / 1000, ms % 1000)
}

/// The panel (nothing when nothing was imported).
#[component]
pub fn ImportedPanel() -> Html {
    let s = use_strings();
    let t = &s.import;
    let pg = use_playground();
    let Some(imported) = pg.imported.clone() else {
        return html! {};
    };
    let now = pg.world.borrow().now().as_millis();
    // The line shown now: the last one at or before the session's time.
    let current = imported.marks.iter().rposition(|m| m.at_ms <= now);
    let onkey = Callback::from(|e: KeyboardEvent| {
        let step: i32 = match e.key().as_str() {
            "ArrowDown" => 1,
            "ArrowUp" => -1,
            _ => return,
        };
        let Some(item) = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|el| el.closest("li").ok().flatten())
        else {
            return;
        };
        let next = if step > 0 {
            item.next_element_sibling()
        } else {
            item.previous_element_sibling()
        };
        if let Some(button) = next
            .and_then(|li| li.query_selector("button").ok().flatten())
            .and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok())
        {
            e.prevent_default();
            let _ = button.focus();
        }
    });
    let listed = imported.marks.len().min(MAX_LISTED);
    let lines = imported.marks[..listed].iter().enumerate().map(|(i, m)| {
        let pg = pg.clone();
        let at = m.at_ms;
        let onclick = Callback::from(move |_| {
            pg.world.borrow_mut().seek(SimTime(at));
            pg.dispatch(Change::Pause);
        });
        let is_current = Some(i) == current;
        // One tab stop: the current line (or the first).
        let tabindex = if is_current || (current.is_none() && i == 0) {
            "0"
        } else {
            "-1"
        };
        let line = imported.where_is(m);
        let label = fill(t.line_label, &[("line", &line), ("time", &seconds(at))]);
        html! {
            <li key={i}>
                <button type="button" class={classes!("import-line", is_current.then_some("is-current"))}
                    aria-current={is_current.then_some("true")} {tabindex} title={label.clone()} {onclick}
                    data-at-ms={at.to_string()}>
                    <span class="import-line-no">{ line }</span>
                    <span class="import-line-time">{ seconds(at) }</span>
                    <bdi class="import-line-text">{ m.text.clone() }</bdi>
                </button>
            </li>
        }
    });
    let more = imported.marks.len() - listed;
    html! {
        <section class="imported panel" aria-labelledby="imported-heading" data-testid="imported">
            <h2 id="imported-heading" class="panel-heading">{ t.about }</h2>
            <p class="imported-name"><strong><bdi>{ imported.name.clone() }</bdi></strong></p>
            if let Some(d) = imported.description.clone() {
                <p class="imported-description">{ d }</p>
            }
            if !imported.marks.is_empty() {
                <h3 class="imported-lines-heading">{ t.lines_heading }</h3>
                <ol class="import-lines" onkeydown={onkey}>{ for lines }</ol>
                if more > 0 {
                    <p class="imported-more">{ fill(t.more_lines, &[("n", &more.to_string())]) }</p>
                }
            }
        </section>
    }
}
