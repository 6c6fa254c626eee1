use yew::prelude::*;

use rebalance_engine::session::ConsumerGroupFacts;
use rebalance_engine::GroupView;

use super::{use_playground, use_strings, StateLook};
use crate::i18n::{fill, Strings};

/// The group at a glance, in one compact strip beside the stage: its state, its generation, its
/// leader, its coordinator, its member count, its assignor and its `__consumer_offsets`
/// partition. (How the state changes, with the diagram, is [`super::GroupStates`].)
#[component]
pub fn GroupPanel() -> Html {
    let s = use_strings();
    let pg = use_playground();
    let g = &pg.view.group;
    if let Some(c) = &g.consumer {
        return consumer_group_panel(s, g, c);
    }
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

/// The strip of a consumer-protocol (KIP-848) group: its derived state, its group epoch and target
/// assignment epoch (there is no generation and no leader: the coordinator assigns), its
/// coordinator, members, server assignor and `__consumer_offsets` partition.
fn consumer_group_panel(s: &Strings, g: &GroupView, c: &ConsumerGroupFacts) -> Html {
    let v = &s.kip848_view;
    let state = c.state;
    let line = fill(
        v.group_line,
        &[
            ("state", state.label(s)),
            ("epoch", &c.group_epoch.to_string()),
            ("target", &c.assignment_epoch.to_string()),
        ],
    );
    let behind = c.group_epoch > c.assignment_epoch;
    html! {
        <section class="group-panel panel is-consumer-group" aria-labelledby="group-heading">
            <h2 id="group-heading" class="group-panel-heading panel-heading">{ s.group_heading }{ " " }<code><bdi>{ g.group_id.clone() }</bdi></code></h2>
            <p class="visually-hidden" data-testid="group-line">{ line }</p>
            <dl class="group-panel-facts">
                <div class="group-panel-fact group-panel-fact-state">
                    <dt>{ s.group_state }</dt>
                    <dd data-testid="group-state" data-state={state.name()} class={classes!("group-state-badge", state.css())}>{ state.label(s) }</dd>
                </div>
                <div class="group-panel-fact">
                    <dt>{ v.group_epoch }</dt>
                    <dd class="generation-counter">
                        <span key={c.group_epoch.to_string()} class="generation-tick" data-testid="group-epoch">{ c.group_epoch }</span>
                    </dd>
                </div>
                <div class={classes!("group-panel-fact", behind.then_some("is-behind"))}>
                    <dt>{ v.assignment_epoch }</dt>
                    <dd data-testid="assignment-epoch">{ c.assignment_epoch }</dd>
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
                    <dt>{ v.assignor }</dt>
                    <dd class="mono" data-testid="assignor">{ c.assignor.clone().unwrap_or_else(|| s.none.to_owned()) }</dd>
                </div>
                <div class="group-panel-fact group-panel-fact-extra">
                    <dt>{ s.group.offsets_partition }</dt>
                    <dd class="mono" data-testid="offsets-partition">{ format!("__consumer_offsets-{}", g.partition) }</dd>
                </div>
            </dl>
        </section>
    }
}
