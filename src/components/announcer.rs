use yew::prelude::*;

use super::{use_playground, use_strings, StateLook};
use crate::explain::state_name;
use crate::i18n::fill;

/// A polite live region that says the group's state, generation and leader (a consumer-protocol
/// group: its state and epochs) whenever one changes.
/// Its text only changes when one of them does, so screen readers are not flooded.
#[component]
pub fn Announcer() -> Html {
    let s = use_strings();
    let pg = use_playground();
    let g = &pg.view.group;
    // A consumer-protocol group has no generation and no leader: its epochs instead.
    if let Some(c) = &g.consumer {
        let text = fill(
            s.kip848_view.announce,
            &[
                ("state", c.state.label(s)),
                ("epoch", &c.group_epoch.to_string()),
                ("target", &c.assignment_epoch.to_string()),
            ],
        );
        return html! {
            <div class="visually-hidden" role="status" aria-live="polite" aria-atomic="true" data-testid="announcer">{ text }</div>
        };
    }
    let leader = g
        .leader
        .clone()
        .or_else(|| g.leader_member.clone())
        .unwrap_or_else(|| s.none.to_owned());
    let text = fill(
        s.announce,
        &[
            ("state", state_name(s, g.state)),
            ("gen", &g.generation.to_string()),
            ("leader", &leader),
        ],
    );
    html! {
        <div class="visually-hidden" role="status" aria-live="polite" aria-atomic="true" data-testid="announcer">{ text }</div>
    }
}
