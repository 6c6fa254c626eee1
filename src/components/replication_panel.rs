use rebalance_engine::cluster::{OffsetsPartitionView, ReplicaView};
use rebalance_engine::NodeId;
use yew::prelude::*;

use super::{use_playground, use_strings};
use crate::i18n::{fill, Strings};
use crate::state::{Change, Selection};
use crate::world::{Command, SLOW_FETCH_MS, SLOW_FOR_MS};

/// The replication of the group's `__consumer_offsets` partition, as the engine's cluster has it:
/// each replica with its broker, its role and its log end offset (LEO), the high watermark (HW),
/// and who is in the in-sync replica set (ISR). Followers fetch, fall out of the ISR, brokers crash
/// and restart: the panel follows the engine's state, and offers the faults next to each broker.
#[component]
pub fn ReplicationPanel() -> Html {
    let s = use_strings();
    let pg = use_playground();
    let (op, brokers, lag_ms) = {
        let world = pg.world.borrow();
        let sim = world.sim();
        (
            sim.offsets_partition(),
            sim.brokers(),
            sim.cluster().config().replica_lag_time_max_ms,
        )
    };
    let lag_s = crate::num::short(lag_ms as f64 / 1000.0, 1);
    let r = &s.replication;
    let name = format!("__consumer_offsets-{}", op.partition);
    let broker = |n: NodeId| fill(s.stage.broker, &[("n", &n.0.to_string())]);
    // The longest log sets the scale of the bars.
    let scale = op
        .replicas
        .iter()
        .map(|x| x.log_end_offset)
        .max()
        .unwrap_or(0)
        .max(op.high_watermark)
        .max(1);
    let isr: Vec<String> = op.isr.iter().map(|b| b.0.to_string()).collect();
    let leader = match op.leader {
        Some(l) => fill(
            r.leader_is,
            &[("broker", &broker(l)), ("epoch", &op.leader_epoch.to_string())],
        ),
        None => r.offline.to_owned(),
    };
    let rows = op.replicas.iter().map(|x| {
        let state = brokers.iter().find(|b| b.id == x.broker);
        let slowed = state.and_then(|b| b.slowed);
        replica_row(s, &pg, &op, x, slowed, scale)
    });
    html! {
        <section class="replication panel" aria-labelledby="replication-heading" data-testid="replication">
            <h2 id="replication-heading" class="panel-heading">{ fill(r.heading, &[("partition", &name)]) }</h2>
            <p class="replication-intro">{ r.intro }</p>
            <dl class="replication-facts">
                <div><dt>{ r.leader }</dt><dd data-testid="replication-leader">{ leader }</dd></div>
                <div><dt>{ r.hw }</dt><dd class="mono" data-testid="hw">{ op.high_watermark }</dd></div>
                <div><dt>{ r.isr }</dt>
                    <dd class="mono" data-testid="isr">{ format!("[{}]", isr.join(", ")) }</dd></div>
                <div><dt>{ r.min_isr }</dt><dd class="mono">{ op.min_insync_replicas }</dd></div>
                <div class="wide"><dt>{ r.pending }</dt>
                    <dd data-testid="pending">{ op.pending_appends.len() }</dd></div>
            </dl>
            <div class="replication-table-wrap">
            <table class="replication-table">
                <caption class="visually-hidden">{ fill(r.table, &[("partition", &name)]) }</caption>
                <thead>
                    <tr>
                        <th scope="col">{ r.col_broker }</th>
                        <th scope="col">{ r.col_role }</th>
                        <th scope="col">{ r.col_leo }</th>
                        <th scope="col">{ r.col_isr }</th>
                    </tr>
                </thead>
                <tbody>{ for rows }</tbody>
            </table>
            </div>
            <p class="replication-note">{ r.bar_legend }</p>
            <p class="replication-note">{ fill(r.slow_hint, &[("every", &(SLOW_FETCH_MS / 1000).to_string()),
                ("for", &(SLOW_FOR_MS / 1000).to_string()), ("lag", &lag_s)]) }</p>
        </section>
    }
}

fn replica_row(
    s: &'static Strings,
    pg: &crate::state::PlaygroundContext,
    op: &OffsetsPartitionView,
    x: &ReplicaView,
    slowed: Option<(u64, Option<rebalance_engine::SimTime>)>,
    scale: u64,
) -> Html {
    let r = &s.replication;
    let n = x.broker.0.to_string();
    let name = fill(s.stage.broker, &[("n", &n)]);
    let role = if !x.alive {
        r.down
    } else if x.is_leader {
        r.role_leader
    } else {
        r.role_follower
    };
    let pct = |v: u64| format!("{}%", crate::num::fixed(100.0 * v as f64 / scale as f64, 1));
    let command = |cmd: Command| {
        let pg = pg.clone();
        Callback::from(move |_: MouseEvent| pg.dispatch(Change::Command(cmd.clone())))
    };
    let inspect = {
        let pg = pg.clone();
        let node = x.broker;
        Callback::from(move |_: MouseEvent| pg.dispatch(Change::Select(Some(Selection::Broker(node)))))
    };
    let isr_text = if x.in_sync { r.in_isr } else { r.out_isr };
    html! {
        <tr key={n.clone()} class={classes!("replication-row", x.is_leader.then_some("is-leader"),
                (!x.alive).then_some("is-down"), (!x.in_sync).then_some("is-out"))}
            data-testid={format!("replica-{n}")}>
            <th scope="row">
                <button type="button" class="link" onclick={inspect}>{ &name }</button>
            </th>
            <td>
                if x.is_leader && x.alive { <span class="crown" aria-hidden="true">{ "♛ " }</span> }
                { role }
                if let Some((ms, _)) = slowed {
                    <span class="replication-slowed">{ fill(r.slowed, &[("s", &(ms / 1000).to_string())]) }</span>
                }
                if x.alive && !x.is_leader && slowed.is_none() {
                    <button type="button" class="replication-slow" onclick={command(Command::SlowBroker(x.broker))}
                        aria-label={fill(r.slow_label, &[("n", &n)])}>{ r.slow }</button>
                }
            </td>
            <td class="replication-leo">
                <span class="mono" data-testid="leo">{ x.log_end_offset }</span>
                <span class="replication-bar" aria-hidden="true">
                    <span class="replication-bar-fill" style={format!("width:{}", pct(x.log_end_offset))}></span>
                    <span class="replication-bar-hw" style={format!("left:{}", pct(op.high_watermark))}></span>
                </span>
            </td>
            <td data-testid="in-isr" data-in-sync={x.in_sync.to_string()}>
                <span class="replication-isr-mark" aria-hidden="true">{ if x.in_sync { "✓ " } else { "✗ " } }</span>
                { isr_text }
            </td>
        </tr>
    }
}
