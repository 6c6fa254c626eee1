use yew::prelude::*;

use super::add_consumer_form::default_form_consumer;
use super::consumer_card::consumer_actions;
use super::{use_playground, use_strings};
use crate::app::{ADD_CONSUMER_BUTTON_ID, ADD_CONSUMER_FORM_ID};
use crate::state::{Change, Selection};
use crate::world::Command;

/// The main controls beside the stage: add a consumer (the add-consumer form's submit button, with
/// the form's name and settings), and kill, close, pause or restart the consumer selected on the
/// stage, so that acting never takes the stage out of view.
///
/// The form is one of the detail panels, which join the group view once the browser has painted
/// it (`App`): until then the button adds a consumer with the form's defaults.
#[component]
pub fn StageActions() -> Html {
    let s = use_strings();
    let pg = use_playground();
    let selected = match &pg.selection {
        Some(Selection::Consumer(name)) => pg.view.consumer(name),
        _ => None,
    };
    let onclick = {
        let pg = pg.clone();
        Callback::from(move |e: MouseEvent| {
            if form_in_page() {
                // The button submits the form.
                return;
            }
            e.prevent_default();
            let name = pg.world.borrow().next_consumer_name();
            pg.dispatch(Change::Command(Command::AddConsumer(Box::new(
                default_form_consumer(&name),
            ))));
        })
    };
    html! {
        <div class="stage-actions" role="group" aria-label={s.group.actions_label}>
            <button id={ADD_CONSUMER_BUTTON_ID} type="submit" form={ADD_CONSUMER_FORM_ID} class="primary" {onclick}>
                { "+ " }{ s.form.add }
            </button>
            if let Some(c) = selected {
                <span class="stage-actions-who" title={c.name.clone()}>
                    { s.group.selected }{ s.sentence_gap }<bdi class="name-chip">{ &c.name }</bdi>
                </span>
                { consumer_actions(&pg, s, c, true) }
            } else {
                <span class="stage-actions-hint">{ s.group.select_hint }</span>
            }
        </div>
    }
}

/// Whether the add-consumer form is in the page.
fn form_in_page() -> bool {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(ADD_CONSUMER_FORM_ID))
        .is_some()
}
