use std::rc::Rc;

use rebalance_engine::sort::sort_by_key;
use rebalance_engine::{Endpoint, GroupState, NodeId, PartitionStatus};
use yew::prelude::*;

use super::{activate_on_enter, use_playground, use_strings, Legend, MovingLayer};
use crate::explain::client_state_name;
use crate::i18n::{fill, Strings};
use crate::num::short;
use crate::state::{Change, Selection};
use crate::style::consumer_class;
use crate::world::View;

/// The drawing's coordinate system.
pub const WIDTH: f64 = 800.0;
/// The drawing's height.
pub const HEIGHT: f64 = 520.0;
const CX: f64 = WIDTH / 2.0;
/// Half the broker box.
pub const BROKER_W: f64 = 78.0;
/// Half the broker box's height.
pub const BROKER_H: f64 = 42.0;

/// Where each node sits, and how big consumers are drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// Consumers by name: centre.
    pub consumers: Vec<(String, (f64, f64))>,
    /// Brokers: centre.
    pub brokers: Vec<(NodeId, (f64, f64))>,
    /// The consumers' radius.
    pub radius: f64,
}

impl Layout {
    /// Brokers in a row at the top (one box per broker, the cluster's order); consumers on an arc
    /// below them, left to right in the order they were added (two staggered arcs when there are
    /// many). Edges then run upwards and never cross another broker.
    pub fn of(view: &View) -> Self {
        let n = view.consumers.len();
        let radius = match n {
            0..=8 => 30.0,
            9..=16 => 22.0,
            _ => 16.0,
        };
        let (ox, oy) = (CX, 78.0);
        let consumers = view
            .consumers
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let t = (i as f64 + 0.5) / n.max(1) as f64;
                let a = (160.0 - 140.0 * t).to_radians();
                let inner = n > 14 && i % 2 == 1;
                let (rx, ry) = if inner { (280.0, 285.0) } else { (345.0, 365.0) };
                (c.name.clone(), (ox + rx * a.cos(), oy + ry * a.sin()))
            })
            .collect();
        // The group's coordinator takes the middle slot, the others fill the sides in id order, so
        // that edges fan out symmetrically (and the boxes visibly swap when the coordinator moves).
        let count = view.brokers.len();
        let mut slots: Vec<usize> = (0..count).collect();
        sort_by_key(&mut slots, |&s| (s as isize - (count as isize - 1) / 2).abs());
        let mut order: Vec<&crate::world::BrokerView> =
            view.brokers.iter().filter(|b| b.coordinates_group).collect();
        order.extend(view.brokers.iter().filter(|b| !b.coordinates_group));
        let b = count.max(1) as f64;
        let brokers = order
            .iter()
            .zip(slots)
            .map(|(br, slot)| {
                (
                    br.node,
                    (
                        CX + (slot as f64 - (b - 1.0) / 2.0) * (2.0 * BROKER_W + 24.0),
                        62.0,
                    ),
                )
            })
            .collect();
        Self {
            consumers,
            brokers,
            radius,
        }
    }

    /// The centre of an endpoint.
    pub fn position(&self, e: &Endpoint) -> Option<(f64, f64)> {
        match e {
            Endpoint::Consumer(n) | Endpoint::Script(n) => {
                self.consumers.iter().find(|(c, _)| c == n).map(|(_, p)| *p)
            }
            Endpoint::Broker(node) => self.brokers.iter().find(|(b, _)| b == node).map(|(_, p)| *p),
        }
    }

    /// How far from its centre an edge leaves an endpoint.
    pub fn extent(&self, e: &Endpoint) -> f64 {
        match e {
            Endpoint::Broker(_) => BROKER_H,
            _ => self.radius,
        }
    }
}

/// A consumer's state in words (lifecycle first, then the client state: the member state, or
/// revoking).
pub fn consumer_state_label(s: &Strings, c: &rebalance_engine::ConsumerView) -> &'static str {
    use rebalance_engine::Lifecycle;
    match &c.lifecycle {
        Lifecycle::Closed => s.member_states.closed,
        Lifecycle::Killed => s.member_states.killed,
        Lifecycle::Failed { .. } => s.member_states.failed,
        Lifecycle::Running if c.paused.is_some() => s.member_states.paused,
        Lifecycle::Running => client_state_name(s, c.client_state),
    }
}

/// The stage: brokers and consumers as nodes, the edges between them, and the moving layer.
#[component]
pub fn Stage() -> Html {
    let s = use_strings();
    let pg = use_playground();
    let view = pg.view.clone();
    let layout = Rc::new(Layout::of(&view));
    let selected = pg.selection.clone();

    let select = |sel: Selection| {
        let pg = pg.clone();
        Callback::from(move |_: MouseEvent| pg.dispatch(Change::Select(Some(sel.clone()))))
    };

    let edges = view.consumers.iter().filter_map(|c| {
        let from = layout.position(&Endpoint::Consumer(c.name.clone()))?;
        let to = layout.position(&Endpoint::Broker(c.coordinator.unwrap_or(NodeId(0))))?;
        let known = c.coordinator.is_some() && c.lifecycle.is_running();
        Some(html! {
            <line key={c.name.clone()} class={classes!("stage-edge", (!known).then_some("is-unknown"))}
                x1={fmt(from.0)} y1={fmt(from.1)} x2={fmt(to.0)} y2={fmt(to.1)} />
        })
    });

    let brokers = view.brokers.iter().filter_map(|b| {
        let (x, y) = layout.position(&Endpoint::Broker(b.node))?;
        let name = fill(s.stage.broker, &[("n", &b.node.0.to_string())]);
        let p = view.group.partition.to_string();
        let status = if !b.alive {
            s.stage.crashed.to_owned()
        } else if b.coordinates_group {
            match b.loaded {
                Some(PartitionStatus::Active) => s.stage.coordinator.to_owned(),
                Some(PartitionStatus::Loading) => s.stage.loading.to_owned(),
                None => s.stage.unloaded.to_owned(),
            }
        } else if b.holds_group_partition {
            fill(s.stage.replica, &[("p", &p)])
        } else {
            String::new()
        };
        let is_selected = selected == Some(Selection::Broker(b.node));
        let onclick = select(Selection::Broker(b.node));
        let label = format!("{name}, {status}");
        Some(html! {
            <g key={format!("b{}", b.node.0)} class={classes!("stage-broker", (!b.alive).then_some("is-down"),
                    b.coordinates_group.then_some("is-coordinator"), is_selected.then_some("is-selected"))}
                transform={format!("translate({},{})", fmt(x), fmt(y))}
                role="button" tabindex="0" aria-label={label} {onclick} onkeydown={activate_on_enter()}>
                <rect x={fmt(-BROKER_W)} y={fmt(-BROKER_H)} width={fmt(2.0 * BROKER_W)} height={fmt(2.0 * BROKER_H)} rx="10" />
                <text class="stage-broker-name" y="-14" text-anchor="middle">{ name }</text>
                <text class="stage-broker-role" y="6" text-anchor="middle">{ status }</text>
                if b.coordinates_group && b.alive {
                    <text class="stage-broker-partition" y="26" text-anchor="middle">
                        { format!("__consumer_offsets-{}", view.group.partition) }
                    </text>
                }
            </g>
        })
    });

    let many = view.consumers.len() > 16;
    let r = layout.radius;
    let consumers = view.consumers.iter().enumerate().filter_map(|(i, c)| {
        let (x, y) = layout.position(&Endpoint::Consumer(c.name.clone()))?;
        let state = consumer_state_label(s, c);
        let leader = c.is_leader && c.lifecycle.is_running() && view.group.leader.as_deref() == Some(c.name.as_str());
        let is_selected = selected == Some(Selection::Consumer(c.name.clone()));
        let onclick = select(Selection::Consumer(c.name.clone()));
        let mut label = fill(s.stage.consumer_node, &[("name", &c.name), ("state", state)]);
        if leader {
            label.push_str(", ");
            label.push_str(s.stage.leader);
        }
        Some(html! {
            <g key={c.name.clone()}
                class={classes!("stage-consumer", consumer_class(i), (!c.lifecycle.is_running()).then_some("is-stopped"),
                    is_selected.then_some("is-selected"), leader.then_some("is-leader"))}
                transform={format!("translate({},{})", fmt(x), fmt(y))}
                role="button" tabindex="0" aria-label={label} {onclick} onkeydown={activate_on_enter()}>
                <circle class="stage-consumer-body" r={fmt(r)} />
                <text class="stage-consumer-name" y={fmt(r * 0.18)} text-anchor="middle"
                    font-size={fmt((r * 0.62).max(11.0))}>{ &c.name }</text>
                if !many {
                    <text class="stage-consumer-state" y={fmt(r + 30.0)} text-anchor="middle">{ state }</text>
                }
                if leader {
                    <g class="stage-crown" transform={format!("translate(0,{})", fmt(-r - 16.0))}>
                        <text class="stage-crown-glyph" text-anchor="middle" y="0">{ "♛" }</text>
                        <text class="stage-crown-word" text-anchor="middle" x="0" y={fmt(-16.0)}>{ s.stage.leader }</text>
                    </g>
                }
            </g>
        })
    });

    let state_class = match view.group.state {
        GroupState::Empty => "stage-empty-group",
        GroupState::PreparingRebalance => "stage-preparing",
        GroupState::CompletingRebalance => "stage-completing",
        GroupState::Stable => "stage-stable",
        GroupState::Dead => "stage-dead",
    };

    html! {
        <section class="stage panel" aria-labelledby="stage-heading">
            <h2 id="stage-heading" class="panel-heading">{ s.stage.heading }</h2>
            <div class={classes!("stage-canvas", state_class)}>
                <svg class="stage-svg" viewBox={format!("0 0 {} {}", short(WIDTH, 0), short(HEIGHT, 0))} role="group"
                    aria-label={s.stage.label}>
                    <g class="stage-edges" aria-hidden="true">{ for edges }</g>
                    <g class="stage-nodes">{ for brokers }{ for consumers }</g>
                    <MovingLayer layout={layout.clone()} />
                </svg>
                if view.consumers.is_empty() {
                    <p class="stage-empty">{ s.stage.empty }</p>
                }
            </div>
            <Legend />
        </section>
    }
}

/// A coordinate with one decimal (shorter SVG attributes, same picture).
pub fn fmt(v: f64) -> String {
    crate::num::fixed(v, 1)
}
