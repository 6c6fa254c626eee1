use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::{use_playground, use_strings, Clock};
use crate::i18n::fill;
use crate::prefs;
use crate::state::{Change, Speed};

/// Play/pause, step, the speed slider, reset, the seed and the virtual clock.
#[component]
pub fn Toolbar() -> Html {
    let s = use_strings();
    let pg = use_playground();
    let c = &s.controls;

    let ontoggle = {
        let pg = pg.clone();
        Callback::from(move |_: MouseEvent| pg.dispatch(Change::TogglePlay))
    };
    let onstep = {
        let pg = pg.clone();
        Callback::from(move |_: MouseEvent| pg.dispatch(Change::Step))
    };
    let onreset = {
        let pg = pg.clone();
        Callback::from(move |_: MouseEvent| pg.dispatch(Change::Reset(prefs::fresh_seed(pg.view.seed))))
    };
    let onspeed = {
        let pg = pg.clone();
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            if let Ok(v) = input.value().parse::<i32>() {
                pg.dispatch(Change::SetSpeed(Speed(v)));
            }
        })
    };
    let speed_label = pg.speed.label();

    html! {
        <section class="toolbar" role="toolbar" aria-label={c.label}>
            <button type="button" class="toolbar-button toolbar-play" onclick={ontoggle}
                aria-pressed={pg.playing.to_string()} title={c.play}>
                { if pg.playing { icon("M6,4 H10 V20 H6 Z M14,4 H18 V20 H14 Z") } else { icon("M7,4 L19,12 L7,20 Z") } }
                { if pg.playing { c.pause } else { c.play } }
            </button>
            <button type="button" class="toolbar-button" onclick={onstep} title={c.step_hint}>
                { icon("M5,4 L15,12 L5,20 Z M16,4 H19 V20 H16 Z") }
                { c.step }
            </button>
            <label class="toolbar-speed" title={c.speed_hint}>
                <span>{ c.speed }</span>
                <input type="range" min={Speed::MIN.to_string()} max={Speed::MAX.to_string()} step="1"
                    value={pg.speed.0.to_string()} oninput={onspeed}
                    aria-valuetext={speed_label.clone()} />
                <output class="toolbar-speed-value" aria-hidden="true">{ speed_label }</output>
            </label>
            <button type="button" class="toolbar-button" onclick={onreset} title={c.reset_hint}>
                { icon("M12,5 A7,7 0 1,0 19,12 H16.5 A4.5,4.5 0 1,1 12,7.5 V10.5 L7,6.2 L12,2 Z") }
                { c.reset }
            </button>
            <span class="toolbar-fact">{ c.seed }{ ": " }<span data-testid="seed">{ pg.view.seed }</span></span>
            <Clock />
            if let Some(reason) = &pg.refused {
                <p class="toolbar-refused" role="alert">{ super::isolate_names(&fill(c.refused, &[("reason", reason)]), &super::shown_names(&pg.view)) }</p>
            }
        </section>
    }
}

fn icon(d: &'static str) -> Html {
    html! {
        <svg class="toolbar-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path {d} /></svg>
    }
}
