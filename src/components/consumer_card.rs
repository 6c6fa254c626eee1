use rebalance_engine::assignor::RebalanceProtocol;
use rebalance_engine::{ConsumerConfig, ConsumerView};
use yew::prelude::*;

use super::stage::consumer_state_label;
use super::{use_playground, use_strings};
use crate::i18n::fill;
use crate::state::{Change, Selection};
use crate::style::consumer_class;
use crate::world::Command;

#[derive(PartialEq, Properties)]
pub struct ConsumerCardProps {
    /// The consumer's position (its colour).
    pub index: usize,
    pub consumer: ConsumerView,
    pub settings: ConsumerConfig,
    /// Whether the group names it leader.
    pub leader: bool,
    pub selected: bool,
}

/// Everything about one consumer, and what can be done to it.
#[component]
pub fn ConsumerCard(props: &ConsumerCardProps) -> Html {
    let s = use_strings();
    let pg = use_playground();
    let c = &props.consumer;
    let t = &s.consumer;
    let name = c.name.clone();
    let command = |make: fn(String) -> Command| {
        let pg = pg.clone();
        let name = name.clone();
        Callback::from(move |_: MouseEvent| pg.dispatch(Change::Command(make(name.clone()))))
    };
    let oninspect = {
        let pg = pg.clone();
        let name = name.clone();
        Callback::from(move |_: MouseEvent| {
            pg.dispatch(Change::Select(Some(Selection::Consumer(name.clone()))))
        })
    };
    let running = c.lifecycle.is_running();
    let paused = c.paused.is_some();
    let state = consumer_state_label(s, c);
    let protocol = match c.protocol {
        RebalanceProtocol::Eager => t.eager,
        RebalanceProtocol::Cooperative => t.cooperative,
    };
    let parts: Vec<String> = c.partitions.iter().map(|p| p.partition.to_string()).collect();
    let assignors: Vec<&str> = c.assignors.iter().map(|a| a.name()).collect();
    let heading_id = format!("consumer-{}-name", c.name);
    html! {
        <article class={classes!("consumer-card", consumer_class(props.index), (!running).then_some("is-stopped"),
                props.selected.then_some("is-selected"))}
            aria-labelledby={heading_id.clone()} data-consumer={c.name.clone()}>
            <header class="consumer-card-header">
                <span class="consumer-card-dot" aria-hidden="true"></span>
                <h3 id={heading_id} class="consumer-card-name">{ &c.name }</h3>
                if props.leader {
                    <span class="consumer-card-leader">{ "♛ " }{ s.stage.leader }</span>
                }
                <span class={classes!("consumer-card-state", format!("member-{}", state_css(c)))} data-testid="client-state">{ state }</span>
            </header>
            <dl class="consumer-card-facts">
                <div><dt>{ t.member_id }</dt><dd class="mono">{ if c.member_id.is_empty() { s.none.to_owned() } else { c.member_id.clone() } }</dd></div>
                <div><dt>{ t.generation }</dt><dd>{ c.generation }</dd></div>
                <div class="wide"><dt>{ t.partitions }</dt><dd class="mono">{ if parts.is_empty() { t.no_partitions.to_owned() } else { parts.join(", ") } }</dd></div>
                <div><dt>{ t.processed }</dt><dd>{ c.records_processed }</dd></div>
                <div><dt>{ t.duplicates }</dt><dd class={classes!((c.duplicates > 0).then_some("is-warning"))}>{ c.duplicates }</dd></div>
                <div><dt>{ t.protocol }</dt><dd>{ protocol }</dd></div>
                <div><dt>{ t.assignors }</dt><dd class="mono">{ assignors.join(", ") }</dd></div>
                if let Some(id) = &c.group_instance_id {
                    <div><dt>{ t.static_id }</dt><dd class="mono">{ id }</dd></div>
                }
                if c.rejoin_needed && running {
                    <div class="wide"><dd class="consumer-card-flag">{ s.member_states.rejoin_needed }</dd></div>
                }
            </dl>
            <div class="consumer-card-actions" role="group" aria-label={fill(t.actions_for, &[("name", &c.name)])}>
                if running {
                    <button type="button" class="danger" onclick={command(Command::Kill)} title={t.kill_hint}>{ t.kill }</button>
                    <button type="button" onclick={command(Command::Close)} title={t.close_hint}>{ t.close }</button>
                    if paused {
                        <button type="button" onclick={command(Command::Resume)} title={t.resume_hint}>{ t.resume }</button>
                    } else {
                        <button type="button" onclick={command(Command::Pause)} title={t.pause_hint}>{ t.pause }</button>
                    }
                } else {
                    <button type="button" onclick={command(Command::Restart)} title={t.restart_hint}>{ t.restart }</button>
                }
                <button type="button" class="quiet" onclick={oninspect} aria-pressed={props.selected.to_string()}>{ t.inspect }</button>
            </div>
        </article>
    }
}

fn state_css(c: &ConsumerView) -> &'static str {
    use rebalance_engine::{Lifecycle, MemberState};
    match (&c.lifecycle, c.member_state) {
        (Lifecycle::Running, _) if c.paused.is_some() => "paused",
        (Lifecycle::Running, MemberState::Stable) => "stable",
        (Lifecycle::Running, MemberState::Unjoined) => "unjoined",
        (Lifecycle::Running, _) => "rebalancing",
        _ => "stopped",
    }
}
