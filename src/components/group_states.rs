use rebalance_engine::GroupState;
use yew::prelude::*;

use super::{use_playground, use_strings, ConsumerStateDiagram, StateDiagram, StateLook};
use crate::explain::GroupFacts;
use crate::i18n::fill;

/// How the group's state changes: the five states (the current one lit, the last transition
/// marked), what the current one means, and why the group lives on its `__consumer_offsets`
/// partition.
#[component]
pub fn GroupStates() -> Html {
    let s = use_strings();
    let pg = use_playground();
    let g = &pg.view.group;
    let state = g.state;
    let previous = g.last_transition.map(|(from, _, _)| from);
    let transition_key = g.last_transition.map_or(0, |(_, _, seq)| seq);
    let facts = GroupFacts::of(g);
    let (p, n) = (g.partition.to_string(), g.offsets_partitions.to_string());
    let mut note = fill(
        s.group.offsets_partition_note,
        &[("group", &g.group_id), ("n", &n), ("p", &p)],
    );
    if facts.articles_group {
        note.push_str(s.sentence_gap);
        note.push_str(&fill(s.group.offsets_partition_article, &[("p", &p)]));
    }
    let (diagram, explanation) = match &g.consumer {
        Some(c) => {
            let last = c.last_transition.map(|(from, to, _)| (from, to));
            let key = c.last_transition.map_or(0, |(_, _, seq)| seq);
            (
                html! {
                    <>
                        <ConsumerStateDiagram current={c.state} {last} transition_key={key} />
                        <p class="group-panel-note">{ s.kip848_view.diagram_note }</p>
                        if let Some((text, past)) = crate::explain_consumer::moves_explanation(s, c) {
                            <p class={classes!("group-panel-explanation", "kip848-moves", past.then_some("is-past"))}
                                data-testid="kip848-moves">
                                { text }
                            </p>
                        }
                    </>
                },
                c.state.explanation(s),
            )
        }
        None => (
            html! { <StateDiagram current={state} {previous} {transition_key} /> },
            state.explanation(s),
        ),
    };
    html! {
        <section class="group-states panel" aria-labelledby="group-states-heading">
            <h2 id="group-states-heading" class="panel-heading">{ s.group.states_heading }</h2>
            { diagram }
            <p class="group-panel-explanation">{ explanation }</p>
            <p class="group-panel-note"><code>{ format!("__consumer_offsets-{}", g.partition) }</code>{ ": " }{ super::isolate_names(&note, &[g.group_id.as_str()]) }</p>
            if pg.view.consumers.is_empty() && g.state == GroupState::Empty && g.consumer.is_none() {
                <p class="group-panel-empty">{ s.no_consumers }</p>
            }
        </section>
    }
}
