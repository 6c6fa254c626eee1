use std::rc::Rc;

use rebalance_engine::coordinator::consumer::ConsumerGroupState;
use rebalance_engine::sort::sort_by_key;
use rebalance_engine::{Endpoint, GroupState, NodeId, PartitionStatus};
use yew::prelude::*;

use super::{activate_on_enter, use_playground, use_strings, Legend, MovingLayer};
use crate::explain::client_state_name;
use crate::hooks::{use_media_query, PHONE};
use crate::i18n::{fill, Strings};
use crate::num::short;
use crate::state::{Change, Selection};
use crate::style::consumer_class;
use crate::world::View;

/// Half a broker box's width (the coordinator's box always, every box in the wide drawing).
pub const BROKER_W: f64 = 78.0;
/// Half a broker box's height.
pub const BROKER_H: f64 = 42.0;
/// How far apart two rows of brokers are.
const BROKER_ROW: f64 = 2.0 * BROKER_H + 16.0;

/// The drawing's shape: wide beside the panels, tall on a phone, where a wide drawing would be
/// scaled down until its words cannot be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Wide,
    Tall,
}

impl Shape {
    /// The drawing's width; its height depends on how many rows of brokers it has.
    fn width(self) -> f64 {
        match self {
            Shape::Wide => 800.0,
            Shape::Tall => 400.0,
        }
    }

    /// Half the box of a broker that is not the coordinator, and the gap between two boxes.
    fn other_broker(self) -> (f64, f64) {
        match self {
            Shape::Wide => (BROKER_W, 24.0),
            Shape::Tall => (50.0, 12.0),
        }
    }
}

/// Where each node sits, and how big consumers are drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// The drawing's size (its viewBox).
    pub width: f64,
    pub height: f64,
    /// Consumers by name: centre.
    pub consumers: Vec<(String, (f64, f64))>,
    /// Brokers: centre, and half the box's width.
    pub brokers: Vec<(NodeId, (f64, f64), f64)>,
    /// The consumers' radius.
    pub radius: f64,
}

impl Layout {
    /// Brokers in a row at the top (more rows above it when they do not fit), the coordinator in
    /// the middle of the lowest row; consumers on an arc below them, left to right in the order
    /// they were added (two staggered arcs when there are many). Edges then run upwards and never
    /// cross a broker.
    pub fn of(view: &View, shape: Shape) -> Self {
        let width = shape.width();
        let cx = width / 2.0;

        // The group's coordinator first, then the others in id order.
        let mut order: Vec<(NodeId, f64)> = Vec::with_capacity(view.brokers.len());
        let (other_w, gap) = shape.other_broker();
        order.extend(
            view.brokers
                .iter()
                .filter(|b| b.coordinates_group)
                .map(|b| (b.node, BROKER_W)),
        );
        order.extend(
            view.brokers
                .iter()
                .filter(|b| !b.coordinates_group)
                .map(|b| (b.node, other_w)),
        );
        // Fill rows as wide as the drawing, the first row lowest.
        let mut rows: Vec<&[(NodeId, f64)]> = Vec::new();
        let mut rest = &order[..];
        while !rest.is_empty() {
            let mut used = 2.0 * rest[0].1;
            let mut n = 1;
            while n < rest.len() && used + gap + 2.0 * rest[n].1 <= width - 16.0 {
                used += gap + 2.0 * rest[n].1;
                n += 1;
            }
            rows.push(&rest[..n]);
            rest = &rest[n..];
        }
        let drop = BROKER_ROW * rows.len().saturating_sub(1) as f64;
        let mut brokers = Vec::with_capacity(order.len());
        for (k, row) in rows.iter().enumerate() {
            // Within a row the first box takes the middle slot and the others fill the sides, so
            // edges fan out symmetrically (and the boxes visibly swap when the coordinator moves).
            let count = row.len();
            let mut slots: Vec<usize> = (0..count).collect();
            sort_by_key(&mut slots, |&s| (s as isize - (count as isize - 1) / 2).abs());
            let mut by_slot: Vec<(usize, NodeId, f64)> = row
                .iter()
                .zip(slots)
                .map(|(&(node, w), slot)| (slot, node, w))
                .collect();
            sort_by_key(&mut by_slot, |&(slot, _, _)| slot);
            let total: f64 = by_slot.iter().map(|b| 2.0 * b.2).sum::<f64>() + gap * (count - 1) as f64;
            let y = 62.0 + drop - BROKER_ROW * k as f64;
            let mut x = cx - total / 2.0;
            for (_, node, w) in by_slot {
                brokers.push((node, (x + w, y), w));
                x += 2.0 * w + gap;
            }
        }

        let n = view.consumers.len();
        let radius = match n {
            0..=8 => 30.0,
            9..=16 => 22.0,
            _ => 16.0,
        };
        // The arc around the coordinator's row: its outer and inner radii, the angles it spans,
        // and the drawing's height below that row.
        let oy = 78.0 + drop;
        let (outer, inner, from, span, height) = match shape {
            Shape::Wide => ((345.0, 365.0), (280.0, 285.0), 160.0, 140.0, 520.0),
            Shape::Tall => ((155.0, 500.0), (110.0, 410.0), 165.0, 150.0, 650.0),
        };
        let arcs = [outer, inner].map(|radii| Arc::new(radii, from, span));
        let consumers = view
            .consumers
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let t = (i as f64 + 0.5) / n.max(1) as f64;
                let (x, y) = arcs[usize::from(n > 14 && i % 2 == 1)].point_at(t);
                (c.name.clone(), (cx + x, oy + y))
            })
            .collect();
        Self {
            width,
            height: height + drop,
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
            Endpoint::Broker(node) => self.brokers.iter().find(|(b, ..)| b == node).map(|(_, p, _)| *p),
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

/// An elliptic arc, measured along its length: equal steps of `t` are equal distances on the
/// drawing, so consumers on a flat ellipse are not crowded where it is flattest.
struct Arc {
    /// The ellipse's radii.
    radii: (f64, f64),
    /// The angle (degrees) it starts at, and how far it turns clockwise.
    from: f64,
    span: f64,
    /// The length along the arc to each of its `STEPS + 1` points: 0 first, the whole arc last.
    lengths: Vec<f64>,
}

impl Arc {
    const STEPS: usize = 120;

    fn new(radii: (f64, f64), from: f64, span: f64) -> Self {
        let mut arc = Arc {
            radii,
            from,
            span,
            lengths: Vec::with_capacity(Self::STEPS + 1),
        };
        let points: Vec<(f64, f64)> = (0..=Self::STEPS).map(|k| arc.point(k as f64)).collect();
        let mut total = 0.0;
        arc.lengths.push(total);
        for w in points.windows(2) {
            total += (w[1].0 - w[0].0).hypot(w[1].1 - w[0].1);
            arc.lengths.push(total);
        }
        arc
    }

    /// The point (from the ellipse's centre) at step `k` (a fraction of a step between two points).
    fn point(&self, k: f64) -> (f64, f64) {
        let a = (self.from - self.span * k / Self::STEPS as f64).to_radians();
        (
            self.radii.0 * crate::num::cos(a),
            self.radii.1 * crate::num::sin(a),
        )
    }

    /// The point (from the ellipse's centre) a fraction `t` of the way along the arc.
    fn point_at(&self, t: f64) -> (f64, f64) {
        let goal = t.clamp(0.0, 1.0) * self.lengths[Self::STEPS];
        let k = self.lengths.partition_point(|&l| l < goal).clamp(1, Self::STEPS);
        let (a, b) = (self.lengths[k - 1], self.lengths[k]);
        let f = if b > a { (goal - a) / (b - a) } else { 0.0 };
        self.point(k as f64 - 1.0 + f)
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
    let tall = use_media_query(PHONE);
    let layout = Rc::new(Layout::of(&view, if tall { Shape::Tall } else { Shape::Wide }));
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
        let &(_, (x, y), w) = layout.brokers.iter().find(|(node, ..)| *node == b.node)?;
        let name = fill(s.stage.broker, &[("n", &b.node.0.to_string())]);
        let status = if !b.alive {
            s.stage.crashed.to_owned()
        } else if b.coordinates_group {
            match b.loaded {
                Some(PartitionStatus::Active) => s.stage.coordinator.to_owned(),
                Some(PartitionStatus::Loading) => s.stage.loading.to_owned(),
                None => s.stage.unloaded.to_owned(),
            }
        } else if b.holds_group_partition {
            s.stage.replica.to_owned()
        } else {
            String::new()
        };
        // The group's partition, named in the label of a live broker that leads or follows it, and
        // under the coordinator's role (a follower's box is too narrow for it on a phone).
        let partition = (b.alive && (b.coordinates_group || b.holds_group_partition))
            .then(|| format!("__consumer_offsets-{}", view.group.partition));
        let is_selected = selected == Some(Selection::Broker(b.node));
        let onclick = select(Selection::Broker(b.node));
        let label = match &partition {
            Some(partition) => format!("{name}, {status}, {partition}"),
            None => format!("{name}, {status}"),
        };
        let partition = partition.filter(|_| b.coordinates_group);
        Some(html! {
            <g key={format!("b{}", b.node.0)} class={classes!("stage-broker", (!b.alive).then_some("is-down"),
                    b.coordinates_group.then_some("is-coordinator"), is_selected.then_some("is-selected"))}
                transform={format!("translate({},{})", fmt(x), fmt(y))}
                role="button" tabindex="0" aria-label={label} {onclick} onkeydown={activate_on_enter()}>
                <rect class="stage-broker-body" x={fmt(-w)} y={fmt(-BROKER_H)} width={fmt(2.0 * w)} height={fmt(2.0 * BROKER_H)} rx="10" />
                <rect class="stage-focus-ring" x={fmt(-w - 6.0)} y={fmt(-BROKER_H - 6.0)} width={fmt(2.0 * w + 12.0)}
                    height={fmt(2.0 * BROKER_H + 12.0)} rx="14" aria-hidden="true" />
                <text class="stage-broker-name" y="-14" text-anchor="middle">{ name }</text>
                <text class="stage-broker-role" y="6" text-anchor="middle">{ status }</text>
                if let Some(partition) = partition {
                    <text class="stage-broker-partition" y="26" text-anchor="middle">{ partition }</text>
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
                <circle class="stage-focus-ring" r={fmt(r + 7.0)} aria-hidden="true" />
                <title>{ &c.name }</title>
                <text class="stage-consumer-name" y={fmt(r * 0.18)} text-anchor="middle"
                    font-size={fmt((r * 0.62).max(11.0))}>{ shorten(&c.name, name_room(r)) }</text>
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

    // A consumer-protocol group does not stop to rebalance: its stage is not tinted as a classic
    // rebalance's is.
    let state_class = match (&view.group.consumer, view.group.state) {
        (Some(c), _) => match c.state {
            ConsumerGroupState::Empty => "stage-empty-group",
            ConsumerGroupState::Assigning => "stage-cg-assigning",
            ConsumerGroupState::Reconciling => "stage-cg-reconciling",
            ConsumerGroupState::Stable => "stage-stable",
            ConsumerGroupState::Dead => "stage-dead",
        },
        (None, state) => match state {
            GroupState::Empty => "stage-empty-group",
            GroupState::PreparingRebalance => "stage-preparing",
            GroupState::CompletingRebalance => "stage-completing",
            GroupState::Stable => "stage-stable",
            GroupState::Dead => "stage-dead",
        },
    };

    html! {
        <section class="stage panel" aria-labelledby="stage-heading">
            <h2 id="stage-heading" class="panel-heading">{ s.stage.heading }</h2>
            <div class={classes!("stage-canvas", state_class)}>
                <svg class="stage-svg" viewBox={format!("0 0 {} {}", short(layout.width, 0), short(layout.height, 0))} role="group"
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

/// How many characters of a name fit in a consumer's circle of radius `r` (its font is about
/// `0.62 r`, a character about 0.6 of that wide).
fn name_room(r: f64) -> usize {
    ((2.0 * r - 6.0) / ((r * 0.62).max(11.0) * 0.6)).floor().max(2.0) as usize
}

/// `name`, cut to `room` characters with an ellipsis when it is longer (the full name is in the
/// node's title, its accessible name and the inspector).
pub fn shorten(name: &str, room: usize) -> String {
    if name.chars().count() <= room {
        name.to_owned()
    } else {
        let mut cut: String = name.chars().take(room.saturating_sub(1).max(1)).collect();
        cut.push('…');
        cut
    }
}

/// A coordinate with one decimal (shorter SVG attributes, same picture).
pub fn fmt(v: f64) -> String {
    crate::num::fixed(v, 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::World;
    use rebalance_engine::Scenario;

    /// The view of a group of `consumers` on a cluster of `brokers`, after they joined.
    fn view(brokers: u32, consumers: usize) -> View {
        let names: Vec<String> = (1..=consumers)
            .map(|i| format!(r#"{{ "name": "C{i}" }}"#))
            .collect();
        let json = format!(
            r#"{{ "version": 1, "seed": 1, "group_id": "g", "end_ms": 20000,
                 "cluster": {{ "brokers": {brokers} }},
                 "topics": [{{ "name": "t", "partitions": 6 }}],
                 "client_defaults": {{ "subscription": {{ "topics": ["t"] }} }},
                 "consumers": [{}] }}"#,
            names.join(",")
        );
        World::from_scenario(&Scenario::from_json(&json).unwrap())
            .unwrap()
            .view()
    }

    /// The boxes (centre, half width, half height) a layout draws.
    fn boxes(l: &Layout) -> Vec<(String, (f64, f64), f64, f64)> {
        let brokers = l
            .brokers
            .iter()
            .map(|(n, p, w)| (format!("broker {}", n.0), *p, *w, BROKER_H));
        let consumers = l
            .consumers
            .iter()
            .map(|(n, p)| (n.clone(), *p, l.radius, l.radius));
        brokers.chain(consumers).collect()
    }

    fn assert_drawn_apart(l: &Layout) {
        let b = boxes(l);
        for (name, (x, y), w, h) in &b {
            assert!(
                *x - w >= 0.0 && *x + w <= l.width && *y - h >= 0.0 && *y + h <= l.height,
                "{name} at ({x:.0}, {y:.0}) is outside the {}x{} drawing",
                l.width,
                l.height
            );
        }
        let round = |name: &str| !name.starts_with("broker");
        for (i, (a, pa, wa, ha)) in b.iter().enumerate() {
            for (z, pz, wz, hz) in &b[i + 1..] {
                let apart = if round(a) && round(z) {
                    (pa.0 - pz.0).hypot(pa.1 - pz.1) >= wa + wz
                } else {
                    (pa.0 - pz.0).abs() >= wa + wz || (pa.1 - pz.1).abs() >= ha + hz
                };
                assert!(apart, "{a} at {pa:?} overlaps {z} at {pz:?}");
            }
        }
    }

    #[test]
    fn every_node_is_inside_the_drawing_and_none_overlaps_another() {
        for shape in [Shape::Wide, Shape::Tall] {
            for (brokers, consumers) in [(3, 1), (3, 8), (1, 3), (5, 12), (16, 30), (3, 30)] {
                let l = Layout::of(&view(brokers, consumers), shape);
                assert_eq!(
                    (l.brokers.len(), l.consumers.len()),
                    (brokers as usize, consumers),
                    "{shape:?}"
                );
                assert_drawn_apart(&l);
            }
        }
    }

    #[test]
    fn the_coordinator_is_in_the_middle_of_the_lowest_row_of_brokers() {
        for shape in [Shape::Wide, Shape::Tall] {
            let v = view(9, 4);
            let coordinator = v.brokers.iter().find(|b| b.coordinates_group).unwrap().node;
            let l = Layout::of(&v, shape);
            let &(_, (x, y), w) = l.brokers.iter().find(|(n, ..)| *n == coordinator).unwrap();
            // The middle box of its row (left of the middle when the row has an even count).
            assert_eq!(w, BROKER_W, "{shape:?}");
            assert!(
                x <= l.width / 2.0 && l.width / 2.0 - x < 2.0 * BROKER_W,
                "{shape:?}: x = {x}"
            );
            assert!(
                l.brokers.iter().all(|(_, p, _)| p.1 <= y),
                "{shape:?}: a broker below the coordinator"
            );
            assert!(
                l.brokers.iter().any(|(_, p, _)| p.1 < y),
                "{shape:?}: nine brokers fit in one row"
            );
        }
    }

    #[test]
    fn consumers_on_the_tall_arc_are_evenly_spaced() {
        let l = Layout::of(&view(3, 8), Shape::Tall);
        let gaps: Vec<f64> = l
            .consumers
            .windows(2)
            .map(|w| (w[0].1 .0 - w[1].1 .0).hypot(w[0].1 .1 - w[1].1 .1))
            .collect();
        let (min, max) = gaps
            .iter()
            .fold((f64::MAX, 0.0_f64), |(a, b), g| (a.min(*g), b.max(*g)));
        // Equal along the arc; the straight gap is a little shorter where the arc bends most.
        assert!(min > 0.85 * max, "gaps between neighbours: {gaps:?}");
        // Left to right, in the order they joined.
        assert!(l.consumers.windows(2).all(|w| w[0].1 .0 < w[1].1 .0));
    }
}
