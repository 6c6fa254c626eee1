use rebalance_engine::GroupState;
use yew::prelude::*;

use super::{use_playground, use_strings, StateDiagram, StateLook};
use crate::explain::GroupFacts;
use crate::i18n::fill;

/// The group at a glance: its state among the five (with the last transition), its generation, its
/// leader, its assignor, and where it lives (`__consumer_offsets` partition and coordinator).
#[component]
pub fn GroupPanel() -> Html {
    let s = use_strings();
    let pg = use_playground();
    let g = &pg.view.group;
    let state = g.state;
    let previous = g.last_transition.map(|(from, _, _)| from);
    let transition_key = g.last_transition.map_or(0, |(_, _, seq)| seq);
    let leader = match (&g.leader, &g.leader_member) {
        (Some(name), Some(member)) => format!("{name} ({member})"),
        (None, Some(member)) => member.clone(),
        _ => s.none.to_owned(),
    };
    let facts = GroupFacts::of(g);
    let (p, n) = (g.partition.to_string(), g.offsets_partitions.to_string());
    let mut note = fill(
        s.group.offsets_partition_note,
        &[("group", &g.group_id), ("n", &n), ("p", &p)],
    );
    if facts.articles_group {
        note.push(' ');
        note.push_str(&fill(s.group.offsets_partition_article, &[("p", &p)]));
    }
    html! {
        <section class="group-panel panel" aria-labelledby="group-heading">
            <h2 id="group-heading" class="group-panel-heading panel-heading">{ s.group_heading }{ " " }<code>{ g.group_id.clone() }</code></h2>
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
                <div class="group-panel-fact">
                    <dt>{ s.leader }</dt>
                    <dd data-testid="leader">
                        if g.leader_member.is_some() { <span class="crown" aria-hidden="true">{ "♛ " }</span> }
                        { leader }
                    </dd>
                </div>
                <div class="group-panel-fact">
                    <dt>{ s.group.assignor }</dt>
                    <dd data-testid="assignor">{ g.protocol.clone().unwrap_or_else(|| s.none.to_owned()) }</dd>
                </div>
                <div class="group-panel-fact">
                    <dt>{ s.group.member_count }</dt>
                    <dd data-testid="member-count">{ g.members }</dd>
                </div>
                <div class="group-panel-fact">
                    <dt>{ s.group.coordinator }</dt>
                    <dd>{ fill(s.stage.broker, &[("n", &g.coordinator.0.to_string())]) }</dd>
                </div>
                <div class="group-panel-fact group-panel-fact-wide">
                    <dt>{ s.group.offsets_partition }</dt>
                    <dd><span data-testid="offsets-partition">{ format!("__consumer_offsets-{}", g.partition) }</span>
                        <span class="group-panel-note">{ note }</span>
                    </dd>
                </div>
            </dl>
            <StateDiagram current={state} {previous} {transition_key} />
            <p class="group-panel-explanation">{ state.explanation(s) }</p>
            if pg.view.consumers.is_empty() && g.state == GroupState::Empty {
                <p class="group-panel-empty">{ s.no_consumers }</p>
            }
        </section>
    }
}
