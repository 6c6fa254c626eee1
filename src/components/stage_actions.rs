use yew::prelude::*;

use super::consumer_card::consumer_actions;
use super::{use_playground, use_strings};
use crate::app::{ADD_CONSUMER_BUTTON_ID, ADD_CONSUMER_FORM_ID};
use crate::state::Selection;

/// The main controls beside the stage: add a consumer (the add-consumer form's submit button, with
/// the form's name and settings), and kill, close, pause or restart the consumer selected on the
/// stage, so that acting never takes the stage out of view.
#[component]
pub fn StageActions() -> Html {
    let s = use_strings();
    let pg = use_playground();
    let selected = match &pg.selection {
        Some(Selection::Consumer(name)) => pg.view.consumer(name),
        _ => None,
    };
    html! {
        <div class="stage-actions" role="group" aria-label={s.group.actions_label}>
            <button id={ADD_CONSUMER_BUTTON_ID} type="submit" form={ADD_CONSUMER_FORM_ID} class="primary">
                { "＋ " }{ s.form.add }
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
