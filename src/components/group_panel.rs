use yew::prelude::*;

use super::{use_strings, GroupStateId, StateDiagram};

/// The group at a glance: its state among the five, its generation and its leader.
///
/// Until the engine drives it, this shows a new group: Empty, generation 0, no leader.
#[component]
pub fn GroupPanel() -> Html {
    let s = use_strings();
    let state = GroupStateId::Empty;
    html! {
        <section class="group-panel" aria-labelledby="group-heading">
            <h2 id="group-heading" class="group-panel-heading">{ s.group_heading }</h2>
            <dl class="group-panel-facts">
                <div class="group-panel-fact">
                    <dt>{ s.group_state }</dt>
                    <dd data-testid="group-state">{ state.label(s) }</dd>
                </div>
                <div class="group-panel-fact">
                    <dt>{ s.generation }</dt>
                    <dd data-testid="generation">{ 0 }</dd>
                </div>
                <div class="group-panel-fact">
                    <dt>{ s.leader }</dt>
                    <dd data-testid="leader">{ s.none }</dd>
                </div>
            </dl>
            <StateDiagram current={state} />
            <h3 class="group-panel-subheading">{ s.members }</h3>
            <p class="group-panel-empty">{ s.no_consumers }</p>
        </section>
    }
}
