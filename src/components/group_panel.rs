use yew::prelude::*;

use super::{use_playground, use_strings, StateLook};
use crate::i18n::fill;

/// The group at a glance, in one compact strip beside the stage: its state, its generation, its
/// leader, its coordinator, its member count, its assignor and its `__consumer_offsets`
/// partition. (How the state changes, with the diagram, is [`super::GroupStates`].)
#[component]
pub fn GroupPanel() -> Html {
    let s = use_strings();
    let pg = use_playground();
    let g = &pg.view.group;
    let state = g.state;
    let leader = match (&g.leader, &g.leader_member) {
        (Some(name), Some(member)) => format!("{name} ({member})"),
        (None, Some(member)) => member.clone(),
        _ => s.none.to_owned(),
    };
    html! {
        <section class="group-panel panel" aria-labelledby="group-heading">
            <h2 id="group-heading" class="group-panel-heading panel-heading">{ s.group_heading }{ " " }<code><bdi>{ g.group_id.clone() }</bdi></code></h2>
            <dl class="group-panel-facts">
                <div class="group-panel-fact group-panel-fact-state">
                    <dt>{ s.group_state }</dt>
                    <dd data-testid="group-state" class={classes!("group-state-badge", state.css())}>{ state.label(s) }</dd>
                </div>
                <div class="group-panel-fact">
                    <dt>{ s.generation }</dt>
                    <dd class="generation-counter">
                        <span key={g.generation.to_string()} class="generation-tick" data-testid="generation">{ g.generation }</span>
                    </dd>
                </div>
                <div class="group-panel-fact group-panel-fact-leader">
                    <dt>{ s.leader }</dt>
                    <dd data-testid="leader" title={leader.clone()}>
                        if g.leader_member.is_some() { <span class="crown" aria-hidden="true">{ "♛ " }</span> }
                        <bdi>{ leader }</bdi>
                    </dd>
                </div>
                <div class="group-panel-fact">
                    <dt>{ s.group.coordinator }</dt>
                    <dd>{ fill(s.stage.broker, &[("n", &g.coordinator.0.to_string())]) }</dd>
                </div>
                <div class="group-panel-fact">
                    <dt>{ s.group.member_count }</dt>
                    <dd data-testid="member-count">{ g.members }</dd>
                </div>
                <div class="group-panel-fact group-panel-fact-extra">
                    <dt>{ s.group.assignor }</dt>
                    <dd data-testid="assignor">{ g.protocol.clone().unwrap_or_else(|| s.none.to_owned()) }</dd>
                </div>
                <div class="group-panel-fact group-panel-fact-extra">
                    <dt>{ s.group.offsets_partition }</dt>
                    <dd class="mono" data-testid="offsets-partition">{ format!("__consumer_offsets-{}", g.partition) }</dd>
                </div>
            </dl>
        </section>
    }
}
