use yew::prelude::*;

use super::{use_playground, use_strings};
use crate::hooks::use_frame;

/// The virtual clock, redrawn on every animation frame.
#[component]
pub fn Clock() -> Html {
    use_frame();
    let s = use_strings();
    let pg = use_playground();
    let ms = pg.world.borrow().now().as_millis();
    html! {
        <span class="toolbar-fact toolbar-clock">
            { s.controls.time }{ ": " }
            <span class="live-text toolbar-clock-value" data-testid="clock" data-ms={ms.to_string()}>{ format!("{}.{:01} s", ms / 1000, (ms % 1000) / 100) }</span>
        </span>
    }
}
