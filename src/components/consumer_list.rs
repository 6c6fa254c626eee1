use yew::prelude::*;

use super::{use_playground, use_strings, ConsumerCard};

/// One card per consumer, in the order they were added.
#[component]
pub fn ConsumerList() -> Html {
    let s = use_strings();
    let pg = use_playground();
    let view = &pg.view;
    html! {
        <section class="consumers panel" aria-labelledby="consumers-heading">
            <h2 id="consumers-heading" class="panel-heading">{ s.consumer.heading }{ format!(" ({})", view.consumers.len()) }</h2>
            if view.consumers.is_empty() {
                <p class="panel-empty">{ s.stage.empty }</p>
            } else {
                <ul class="consumer-list">
                    { for view.consumers.iter().enumerate().map(|(i, c)| html! {
                        <li key={c.name.clone()} class="consumer-list-item">
                            <ConsumerCard index={i} consumer={c.clone()} settings={c.config.clone()}
                                leader={view.group.leader.as_deref() == Some(c.name.as_str())}
                                selected={pg.selection == Some(crate::state::Selection::Consumer(c.name.clone()))} />
                        </li>
                    }) }
                </ul>
            }
        </section>
    }
}
