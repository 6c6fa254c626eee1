use rebalance_engine::assignor::RebalanceProtocol;
use rebalance_engine::coordinator::consumer::MemberState;
use rebalance_engine::protocol::TopicPartition;
use rebalance_engine::session::ConsumerMemberFacts;
use rebalance_engine::{ConsumerConfig, ConsumerView};
use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::stage::consumer_state_label;
use super::{use_playground, use_strings};
use crate::i18n::{fill, Strings};
use crate::state::{Change, PlaygroundContext, Selection};
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
    let running = c.lifecycle.is_running();
    let state = consumer_state_label(s, c);
    let protocol = match c.protocol {
        RebalanceProtocol::Eager => t.eager,
        RebalanceProtocol::Cooperative => t.cooperative,
    };
    let parts: Vec<String> = c.partitions.iter().map(|p| p.partition.to_string()).collect();
    let revoking: Vec<String> = c.revoking.iter().map(ToString::to_string).collect();
    let key = state_key(c);
    let assignors: Vec<&str> = c.assignors.iter().map(|a| a.name()).collect();
    // An id from the name's bytes: any name (spaces, any script) gives one valid id, so the card
    // is always named by its heading.
    let heading_id = format!("consumer-{}-name", crate::style::id_of(&c.name));
    // A consumer-protocol member: the coordinator's epochs and reconciliation replace the
    // generation and the client's assignors.
    let kip848 = c.consumer_protocol.is_some().then(|| {
        let group = pg.view.group.consumer.as_ref();
        let member = group.and_then(|g| g.member_of(&c.name)).filter(|_| running);
        let target_epoch = group.map(|g| g.assignment_epoch);
        html! { <Kip848Facts name={c.name.clone()} member={member.cloned()} {target_epoch}
        client={c.consumer_protocol.clone()} /> }
    });
    html! {
        <article class={classes!("consumer-card", consumer_class(props.index), (!running).then_some("is-stopped"),
                props.selected.then_some("is-selected"))}
            aria-labelledby={heading_id.clone()} data-consumer={c.name.clone()}>
            <header class="consumer-card-header">
                <span class="consumer-card-dot" aria-hidden="true"></span>
                <h3 id={heading_id} class="consumer-card-name" title={c.name.clone()}><bdi>{ &c.name }</bdi></h3>
                if props.leader {
                    <span class="consumer-card-leader">{ "♛ " }{ s.stage.leader }</span>
                }
                <span class={classes!("consumer-card-state", format!("member-{}", state_css(c)))}
                    data-testid="client-state" data-state={key}>
                    { state_icon(key) }{ state }
                </span>
            </header>
            <dl class="consumer-card-facts">
                <div><dt>{ t.member_id }</dt><dd class="mono">if c.member_id.is_empty() { { s.none } } else { <bdi>{ c.member_id.clone() }</bdi> }</dd></div>
                if let Some(k) = kip848.clone() {
                    { k }
                } else {
                <div><dt>{ t.generation }</dt><dd class="consumer-card-count" title={c.generation.to_string()}>{ c.generation }</dd></div>
                <div class="wide"><dt>{ t.partitions }</dt><dd class="mono">{ if parts.is_empty() { t.no_partitions.to_owned() } else { parts.join(", ") } }</dd></div>
                }
                if !revoking.is_empty() && running && kip848.is_none() {
                    <div class="wide consumer-card-revoking" data-testid="revoking">
                        <dt>{ t.revoking }</dt>
                        <dd><span class="mono">{ revoking.join(", ") }</span>
                            <span class="consumer-card-note">{ t.revoking_note }</span></dd>
                    </div>
                }
                <div><dt>{ t.processed }</dt><dd class="consumer-card-count" title={c.records_processed.to_string()}>{ c.records_processed }</dd></div>
                <div><dt>{ t.duplicates }</dt><dd class={classes!("consumer-card-count", (c.duplicates > 0).then_some("is-warning"))} title={c.duplicates.to_string()}>{ c.duplicates }</dd></div>
                if kip848.is_none() {
                    <div><dt>{ t.protocol }</dt><dd>{ protocol }</dd></div>
                    <div><dt>{ t.assignors }</dt><dd class="mono">{ assignors.join(", ") }</dd></div>
                }
                if let Some(id) = &c.group_instance_id {
                    <div><dt>{ t.static_id }</dt><dd class="mono"><bdi>{ id }</bdi></dd></div>
                }
                if c.rejoin_needed && running {
                    <div class="wide"><dd class="consumer-card-flag">{ s.member_states.rejoin_needed }</dd></div>
                }
            </dl>
            { consumer_actions(&pg, s, c, props.selected) }
        </article>
    }
}

/// What can be done to a consumer (on its card and in the stage's action bar): kill, close, pause or
/// resume a running one, restart a stopped one, and inspect it.
pub fn consumer_actions(pg: &PlaygroundContext, s: &Strings, c: &ConsumerView, selected: bool) -> Html {
    let t = &s.consumer;
    let name = c.name.clone();
    let command = |make: fn(String) -> Command| {
        let pg = pg.clone();
        let name = name.clone();
        Callback::from(move |e: MouseEvent| {
            // The pressed button may go (Kill and Close leave Restart in its place): the focus
            // moves to the group's first button instead of falling to the page.
            let group = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .and_then(|b| b.closest("[role=group]").ok().flatten());
            pg.dispatch(Change::Command(make(name.clone())));
            if let Some(group) = group {
                super::refocus_in(group);
            }
        })
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
    html! {
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
            <button type="button" class="quiet" onclick={oninspect} aria-pressed={selected.to_string()}>{ t.inspect }</button>
        </div>
    }
}

fn state_css(c: &ConsumerView) -> &'static str {
    use rebalance_engine::client::ClientState;
    use rebalance_engine::Lifecycle;
    match (&c.lifecycle, c.client_state) {
        (Lifecycle::Running, _) if c.paused.is_some() => "paused",
        (Lifecycle::Running, ClientState::Stable) => "stable",
        (Lifecycle::Running, ClientState::Unjoined) => "unjoined",
        (Lifecycle::Running, ClientState::Revoking) => "revoking",
        (Lifecycle::Running, _) => "rebalancing",
        _ => "stopped",
    }
}

/// The state's key (`data-state`, and which icon): lifecycle first, then the client state.
fn state_key(c: &ConsumerView) -> &'static str {
    use rebalance_engine::client::ClientState;
    use rebalance_engine::Lifecycle;
    match &c.lifecycle {
        Lifecycle::Closed => "closed",
        Lifecycle::Killed => "killed",
        Lifecycle::Failed { .. } => "failed",
        Lifecycle::Running if c.paused.is_some() => "paused",
        Lifecycle::Running => match c.client_state {
            ClientState::Unjoined => "unjoined",
            ClientState::Joining => "joining",
            ClientState::AwaitingSync => "awaiting-sync",
            ClientState::Stable => "stable",
            ClientState::Revoking => "revoking",
        },
    }
}

/// A small icon per state, so that the state is told by shape as well as by colour and word.
fn state_icon(key: &str) -> Html {
    let path = match key {
        "unjoined" => "M8 2.5a5.5 5.5 0 1 1 0 11a5.5 5.5 0 1 1 0-11",
        "joining" => "M2 8h9M8 4.5L11.5 8L8 11.5M13.5 3v10",
        "awaiting-sync" => "M4.5 2.5h7L8 8zM4.5 13.5h7L8 8z",
        "stable" => "M3 8.5L6.5 12L13 4.5",
        "revoking" => "M6 3.5L2.5 7L6 10.5M3 7h6.5a3.5 3.5 0 0 1 0 7H8",
        "paused" => "M5.5 3.5v9M10.5 3.5v9",
        "closed" => "M4 4h8v8H4z",
        "killed" => "M4 4l8 8M12 4l-8 8",
        _ => "M8 3v6.5M8 12v1.5",
    };
    let dashed = (key == "unjoined").then_some("2 2");
    html! {
        <svg class="consumer-card-state-icon" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true"
            focusable="false">
            <path d={path} fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round"
                stroke-linejoin="round" stroke-dasharray={dashed} />
        </svg>
    }
}

#[derive(PartialEq, Properties)]
pub struct Kip848FactsProps {
    /// The consumer's name.
    pub name: String,
    /// The coordinator's member, if the consumer is one now.
    pub member: Option<ConsumerMemberFacts>,
    /// The group's target assignment epoch.
    pub target_epoch: Option<i32>,
    /// What the client itself knows (its epoch and partitions before the coordinator answers).
    pub client: Option<rebalance_engine::sim::ConsumerProtocolView>,
}

/// A consumer-protocol member on its card: its member epoch (and the target epoch while it is
/// behind), its reconciliation state by Kafka's name, and its partitions drawn as kept, to revoke
/// and awaited. Rendered inside the card's fact list.
#[component]
pub fn Kip848Facts(props: &Kip848FactsProps) -> Html {
    let s = use_strings();
    let v = &s.kip848_view;
    let (epoch, kept, revoke, awaiting) = match (&props.member, &props.client) {
        (Some(m), _) => (
            m.member_epoch,
            m.keeping.clone(),
            m.giving_up.clone(),
            m.awaiting.clone(),
        ),
        (None, Some(c)) => (
            c.member_epoch,
            c.assigned
                .iter()
                .filter(|tp| !c.pending_revocation.contains(tp))
                .cloned()
                .collect(),
            c.pending_revocation.clone(),
            c.pending_assignment.clone(),
        ),
        (None, None) => (0, Vec::new(), Vec::new(), Vec::new()),
    };
    let behind = props
        .target_epoch
        .filter(|t| props.member.is_some() && epoch < *t);
    let (state_name, state_gloss, state_key) = match props.member.as_ref().map(|m| m.state) {
        // STABLE at an older epoch: converged to the assignment it knows, the new target not
        // heard of yet.
        Some(state) if behind.is_some() && state == MemberState::Stable => {
            (state.name(), v.member_stale, state.name())
        }
        Some(state) => (state.name(), member_gloss(s, state), state.name()),
        None => (v.not_member, "", "NONE"),
    };
    html! {
        <>
            <div>
                <dt>{ v.member_epoch }</dt>
                <dd class={classes!("kip848-epoch", behind.is_some().then_some("is-behind"))}>
                    <span key={epoch.to_string()} class="generation-tick" data-testid="member-epoch">{ epoch }</span>
                    if let Some(t) = behind {
                        <span class="kip848-behind" data-testid="member-epoch-behind">
                            { " → " }{ fill(v.behind, &[("target", &t.to_string())]) }
                        </span>
                    }
                </dd>
            </div>
            <div>
                <dt>{ v.member_state }</dt>
                <dd class={classes!("kip848-member-state", format!("is-{}", state_key.to_ascii_lowercase()))}
                    data-testid="member-reconcile-state" data-state={state_key}>
                    <code>{ state_name }</code>
                    if !state_gloss.is_empty() {
                        <span class="consumer-card-note">{ state_gloss }</span>
                    }
                </dd>
            </div>
            <div class="wide">
                <dt>{ v.partitions }</dt>
                <dd><PartitionStrip name={props.name.clone()} {kept} {revoke} {awaiting} /></dd>
            </div>
        </>
    }
}

/// What a member state means, in a few words.
pub fn member_gloss(s: &Strings, state: MemberState) -> &'static str {
    let v = &s.kip848_view;
    match state {
        MemberState::Stable => v.member_stable,
        MemberState::UnrevokedPartitions => v.member_unrevoked,
        MemberState::UnreleasedPartitions => v.member_unreleased,
        MemberState::Unknown => v.member_unknown,
    }
}

#[derive(PartialEq, Properties)]
pub struct PartitionStripProps {
    /// Whose partitions (for the accessible name).
    pub name: String,
    /// Owned and kept.
    pub kept: Vec<TopicPartition>,
    /// Owned, still to revoke.
    pub revoke: Vec<TopicPartition>,
    /// In the target, not owned yet.
    pub awaiting: Vec<TopicPartition>,
    /// Without the key under the chips (compare columns).
    #[prop_or_default]
    pub compact: bool,
}

/// A member's partitions as chips, one per partition, each kind with its own look and glyph (so
/// that colour is not the only signal): kept solid, to revoke striped with an arrow out, awaited
/// dashed with an arrow in. The chips read in the strip's accessible name.
#[component]
pub fn PartitionStrip(props: &PartitionStripProps) -> Html {
    let s = use_strings();
    let v = &s.kip848_view;
    let list = |ps: &[TopicPartition]| {
        if ps.is_empty() {
            v.nothing.to_owned()
        } else {
            ps.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
        }
    };
    let label = fill(
        v.strip_label,
        &[
            ("name", &props.name),
            ("kept", &list(&props.kept)),
            ("revoke", &list(&props.revoke)),
            ("awaiting", &list(&props.awaiting)),
        ],
    );
    let compact = props.compact;
    let chips = |ps: &[TopicPartition], kind: &'static str| {
        ps.iter()
            .map(|tp| {
                if compact {
                    // A compare column's chip: the partition's number in its colour, as the
                    // classic columns draw them (the full name is its title); what is to revoke
                    // or awaited keeps its glyph and its outline.
                    let colour = format!("compare-part-{}", tp.partition.rem_euclid(8));
                    return html! {
                        <span class={classes!("pchip", "is-compact", format!("compact-{kind}"), colour)} data-kind={kind}
                            data-part={tp.to_string()} title={tp.to_string()}>
                            if kind != "kept" { { chip_icon(kind) } }
                            <span class="pchip-name">{ tp.partition }</span>
                        </span>
                    };
                }
                html! {
                    <span class={classes!("pchip", format!("is-{kind}"))} data-kind={kind} data-part={tp.to_string()}>
                        { chip_icon(kind) }<span class="pchip-name">{ tp.to_string() }</span>
                    </span>
                }
            })
            .collect::<Html>()
    };
    let empty = props.kept.is_empty() && props.revoke.is_empty() && props.awaiting.is_empty();
    let key_item = |kind: &'static str, word: &'static str, shown: bool| {
        shown.then(|| html! { <span class="pstrip-key-item">{ chip_icon(kind) }{ word }</span> })
    };
    html! {
        <div class="pstrip" role="img" aria-label={label} data-testid="partition-strip">
            <span class="pstrip-chips" aria-hidden="true">
                { chips(&props.kept, "kept") }
                { chips(&props.revoke, "revoke") }
                { chips(&props.awaiting, "awaiting") }
                if empty { <span class="pstrip-none">{ v.nothing }</span> }
            </span>
            if !props.compact && (!props.revoke.is_empty() || !props.awaiting.is_empty()) {
                <span class="pstrip-key" aria-hidden="true">
                    { key_item("kept", v.kept, !props.kept.is_empty()) }
                    { key_item("revoke", v.to_revoke, !props.revoke.is_empty()) }
                    { key_item("awaiting", v.awaiting, !props.awaiting.is_empty()) }
                </span>
            }
        </div>
    }
}

/// The glyph of a chip's kind: a filled square (kept), an arrow leaving (to revoke), an arrow
/// arriving into an open box (awaited).
fn chip_icon(kind: &str) -> Html {
    let path = match kind {
        "kept" => "M3 3h10v10H3z",
        "revoke" => "M3 8h9M9 4.5L12.5 8L9 11.5M3 3v10",
        _ => "M13 8H4M7 4.5L3.5 8L7 11.5M13 3v10",
    };
    let fill_it = if kind == "kept" { "currentColor" } else { "none" };
    html! {
        <svg class="pchip-icon" viewBox="0 0 16 16" width="11" height="11" aria-hidden="true" focusable="false">
            <path d={path} fill={fill_it} stroke="currentColor" stroke-width="1.8" stroke-linecap="round"
                stroke-linejoin="round" />
        </svg>
    }
}
