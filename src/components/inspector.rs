use rebalance_engine::network::Fault;
use rebalance_engine::sim::{NetworkEvent, SimEventKind};
use rebalance_engine::{Message, NodeId, SimTime};
use yew::prelude::*;

use super::stage::consumer_state_label;
use super::{use_playground, use_strings};
use crate::explain::{endpoint, explain, state_name, Context, GroupFacts};
use crate::i18n::{fill, Strings};
use crate::state::{Change, Playground, Selection};
use rebalance_engine::fields::{payload_rows, Row};

fn time(t: SimTime) -> String {
    format!("{}.{:03} s", t.as_millis() / 1000, t.as_millis() % 1000)
}

fn opt_time(t: Option<SimTime>) -> String {
    t.map_or_else(|| "—".into(), time)
}

fn rows_html(rows: &[Row], names: &[String]) -> Html {
    html! {
        <dl class="inspector-rows">
            { for rows.iter().map(|(k, v, depth)| html! {
                <div class={classes!("inspector-row", format!("depth-{depth}"))}>
                    <dt class="mono">{ k }</dt><dd class="mono">{ super::isolate_names(v, names) }</dd>
                </div>
            }) }
        </dl>
    }
}

fn message_html(s: &Strings, m: &Message, names: &[String]) -> Html {
    let i = &s.inspector;
    let kind = if m.payload.is_request() {
        s.words.request
    } else {
        s.words.response
    };
    let mut rows: Vec<Row> = vec![
        (i.from.into(), endpoint(s, &m.from), 0),
        (i.to.into(), endpoint(s, &m.to), 0),
        (i.kind.into(), format!("{} {}", m.api(), kind), 0),
        (i.correlation.into(), m.correlation_id.to_string(), 0),
        (i.sent.into(), time(m.sent_at), 0),
        (i.arrives.into(), time(m.deliver_at), 0),
    ];
    match m.fault {
        Some(Fault::Dropped) => rows.push((i.fault.into(), s.stage.lost.into(), 0)),
        Some(Fault::Delayed { extra_ms }) => rows.push((i.fault.into(), format!("+{extra_ms} ms"), 0)),
        None => {}
    }
    html! {
        <>
            <h3 class="inspector-title">{ fill(i.message_title, &[("id", &m.id.to_string()), ("api", m.api().name()), ("kind", kind)]) }</h3>
            { rows_html(&rows, names) }
            <h4 class="inspector-subheading">{ i.fields }</h4>
            { rows_html(&payload_rows(&m.payload), names) }
        </>
    }
}

fn consumer_html(s: &Strings, pg: &Playground, name: &str, names: &[String]) -> Html {
    let i = &s.inspector;
    let t = &s.consumer;
    let view = &pg.view;
    let Some(idx) = view.consumer_index(name) else {
        return html! { <p><bdi>{ name }</bdi>{ " — " }{ i.gone }</p> };
    };
    let c = &view.consumers[idx];
    let cfg = &view.consumers[idx].config;
    let mut rows: Vec<Row> = vec![
        (t.state.into(), consumer_state_label(s, c).into(), 0),
        ("member_state".into(), c.member_state.kafka_name().into(), 0),
        (
            t.member_id.into(),
            if c.member_id.is_empty() {
                "\"\"".into()
            } else {
                c.member_id.clone()
            },
            0,
        ),
        (t.generation.into(), c.generation.to_string(), 0),
        ("client.id".into(), c.client_id.clone(), 0),
        (
            "group.instance.id".into(),
            c.group_instance_id.clone().unwrap_or_else(|| "null".into()),
            0,
        ),
        (
            t.assignors.into(),
            c.assignors
                .iter()
                .map(|a| a.name())
                .collect::<Vec<_>>()
                .join(", "),
            0,
        ),
        (i.subscription.into(), c.subscription.to_string(), 0),
        ("session.timeout.ms".into(), cfg.session_timeout_ms.to_string(), 0),
        (
            "heartbeat.interval.ms".into(),
            cfg.heartbeat_interval_ms.to_string(),
            0,
        ),
        (
            "max.poll.interval.ms".into(),
            cfg.max_poll_interval_ms.to_string(),
            0,
        ),
        (s.form.processing.into(), cfg.processing_ms.to_string(), 0),
        ("commit".into(), cfg.commit.to_string(), 0),
        (
            s.form.commit_in_revoke.into(),
            cfg.commit_in_revoke.to_string(),
            0,
        ),
        (
            s.group.coordinator.into(),
            c.coordinator.map_or_else(
                || "—".into(),
                |n| fill(s.stage.broker, &[("n", &n.0.to_string())]),
            ),
            0,
        ),
        (i.session_deadline.into(), opt_time(c.session_deadline), 0),
        (i.next_heartbeat.into(), opt_time(c.next_heartbeat), 0),
        (i.poll_deadline.into(), opt_time(c.poll_deadline), 0),
        (t.processed.into(), c.records_processed.to_string(), 0),
        (t.duplicates.into(), c.duplicates.to_string(), 0),
        (t.partitions.into(), c.partitions.len().to_string(), 0),
    ];
    for p in &c.partitions {
        rows.push((
            p.partition.to_string(),
            format!(
                "position {} · {} {} · {} {}",
                p.position.map_or("—".into(), |x| x.to_string()),
                i.committed,
                p.committed.map_or("—".into(), |x| x.to_string()),
                i.lag,
                p.lag.map_or("—".into(), |x| x.to_string()),
            ),
            1,
        ));
    }
    html! {
        <>
            <h3 class="inspector-title">{ super::with_name(s.stage.consumer_node, &c.name, &[("state", consumer_state_label(s, c))]) }</h3>
            { rows_html(&rows, names) }
        </>
    }
}

fn broker_html(s: &Strings, pg: &Playground, node: NodeId, names: &[String]) -> Html {
    let i = &s.inspector;
    let world = pg.world.borrow();
    let sim = world.sim();
    let coord = sim.coordinator();
    let mut rows: Vec<Row> = vec![("node.id".into(), node.0.to_string(), 0)];
    for (p, st) in coord.led_partitions() {
        rows.push((format!("__consumer_offsets-{p}"), format!("{st:?}"), 0));
    }
    if let Some(g) = sim.group_snapshot() {
        rows.push(("groupId".into(), g.group_id.clone(), 0));
        rows.push((s.group_state.into(), state_name(s, g.state).into(), 0));
        rows.push((s.generation.into(), g.generation_id.to_string(), 0));
        rows.push((
            s.group.assignor.into(),
            g.protocol_name.clone().unwrap_or_else(|| "null".into()),
            0,
        ));
        rows.push((
            s.leader.into(),
            g.leader.clone().unwrap_or_else(|| "null".into()),
            0,
        ));
        rows.push((i.members.into(), g.members.len().to_string(), 0));
        for m in &g.members {
            rows.push(("memberId".into(), m.member_id.clone(), 1));
            rows.push(("sessionTimeoutMs".into(), m.session_timeout_ms.to_string(), 2));
            rows.push(("rebalanceTimeoutMs".into(), m.rebalance_timeout_ms.to_string(), 2));
            rows.push((
                "protocols".into(),
                m.protocols
                    .iter()
                    .map(|p| p.name.clone())
                    .collect::<Vec<_>>()
                    .join(", "),
                2,
            ));
            rows.push((
                "assignment".into(),
                m.assignment
                    .partitions
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", "),
                2,
            ));
            rows.push((
                "awaitingJoin / awaitingSync".into(),
                format!("{} / {}", m.awaiting_join, m.awaiting_sync),
                2,
            ));
            rows.push((
                i.session_deadline.into(),
                opt_time(m.session_deadline.map(|(t, _)| t)),
                2,
            ));
        }
        if !g.pending_members.is_empty() {
            rows.push(("pendingMembers".into(), g.pending_members.join(", "), 0));
        }
        rows.push((i.timers.into(), g.timers.len().to_string(), 0));
        for t in &g.timers {
            rows.push((t.kind.to_string(), time(t.deadline), 1));
        }
    }
    html! {
        <>
            <h3 class="inspector-title">{ fill(s.stage.broker, &[("n", &node.0.to_string())]) }{ " · " }{ s.stage.coordinator }</h3>
            { rows_html(&rows, names) }
        </>
    }
}

fn event_html(s: &Strings, pg: &Playground, seq: u64, names: &[String]) -> Html {
    let i = &s.inspector;
    let world = pg.world.borrow();
    let Some(ev) = world.event(seq) else {
        return html! { <p>{ fill(i.event_title, &[("seq", &seq.to_string())]) }{ " — " }{ i.gone }</p> };
    };
    let text = explain(
        s,
        ev,
        &Context {
            state_at: None,
            group: GroupFacts::of(&pg.view.group),
        },
    );
    let message = match &ev.kind {
        SimEventKind::Network {
            event: NetworkEvent::Sent { message },
        } => Some(message_html(s, message, names)),
        _ => None,
    };
    html! {
        <>
            <h3 class="inspector-title">{ fill(i.event_title, &[("seq", &seq.to_string())]) }{ " · " }{ time(ev.at) }</h3>
            <p class="inspector-explanation">{ super::isolate_names(&text, names) }</p>
            <p class="inspector-raw"><span class="inspector-raw-label">{ i.raw }{ ": " }</span><code lang="en">{ super::isolate_names(&ev.line(), names) }</code></p>
            if let Some(m) = message { { m } }
        </>
    }
}

/// Every field of the selected consumer, broker, message or log entry.
#[component]
pub fn Inspector() -> Html {
    let s = use_strings();
    let pg = use_playground();
    let onclear = {
        let pg = pg.clone();
        Callback::from(move |_: MouseEvent| pg.dispatch(Change::Select(None)))
    };
    // Every user-given name in the values is isolated (any script keeps the text around it in order).
    let names = super::shown_names(&pg.view);
    let names = names.as_slice();
    let body = match &pg.selection {
        None => html! { <p class="panel-empty">{ s.inspector.empty }</p> },
        Some(Selection::Message(m)) => message_html(s, m, names),
        Some(Selection::Consumer(name)) => consumer_html(s, &pg, name, names),
        Some(Selection::Broker(node)) => broker_html(s, &pg, *node, names),
        Some(Selection::Event(seq)) => event_html(s, &pg, *seq, names),
    };
    html! {
        <section class={classes!("inspector", "panel", pg.selection.is_some().then_some("is-open"))}
            aria-labelledby="inspector-heading" data-testid="inspector">
            <div class="panel-heading-row">
                <h2 id="inspector-heading" class="panel-heading">{ s.inspector.heading }</h2>
                if pg.selection.is_some() {
                    <button type="button" class="quiet" onclick={onclear}>{ s.inspector.clear }</button>
                }
            </div>
            <div class="inspector-body">{ body }</div>
        </section>
    }
}
