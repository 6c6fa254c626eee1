//! Compare mode: the button that opens it, the protocols side by side (tabs on a phone), each with
//! its group and consumers, its partition-ownership chart and its numbers. Everything shown comes
//! from the engine's [`rebalance_engine::compare`] views; this file lays them out.

use std::rc::Rc;

use rebalance_engine::compare::{OwnershipView, Protocol, SegmentKind, Summary, VariantStatus};
use rebalance_engine::{ConsumerView, GroupView, SimTime};
use yew::prelude::*;

use super::consumer_card::PartitionStrip;
use super::{use_playground, use_strings, StateLook};
use crate::i18n::{fill, Strings};
use crate::state::Change;

/// How much of the past the charts show: the whole session up to this, else the last this much
/// (a stop-the-world gap of a few hundred milliseconds stays visible).
pub const CHART_WINDOW_MS: u64 = 180_000;

/// The button that opens compare mode, or goes back to the session.
#[component]
pub fn CompareToggle() -> Html {
    let s = use_strings();
    let pg = use_playground();
    let on = pg.world.borrow().compare().is_some();
    let onclick = {
        let pg = pg.clone();
        Callback::from(move |_: MouseEvent| {
            if on {
                pg.dispatch(Change::Compare(false));
            } else {
                // Opening it checks the story under each protocol: that code comes with the
                // detail panels (src/lazy.rs).
                let pg = pg.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    match crate::lazy::panels().await {
                        Ok(panels) => (panels.enter_compare)(&pg),
                        Err(crate::lazy::NotLoaded) => {
                            pg.dispatch(Change::Applied(Err(s.compare.not_loaded.to_owned())))
                        }
                    }
                });
            }
        })
    };
    html! {
        <div class="compare-toggle">
            <button type="button" class={classes!("compare-toggle-button", on.then_some("primary"))}
                aria-pressed={on.to_string()} {onclick}>
                { if on { s.compare.close } else { s.compare.open } }
            </button>
        </div>
    }
}

/// The protocol's name in the UI language.
pub fn protocol_name(s: &Strings, p: Protocol) -> &'static str {
    match p {
        Protocol::Eager => s.compare.eager,
        Protocol::Cooperative => s.compare.cooperative,
        Protocol::Consumer => s.compare.consumer,
    }
}

fn protocol_note(s: &Strings, p: Protocol) -> &'static str {
    match p {
        Protocol::Eager => s.compare.eager_note,
        Protocol::Cooperative => s.compare.cooperative_note,
        Protocol::Consumer => s.compare.consumer_note,
    }
}

/// One protocol's column, copied from the engine when the panels refresh.
#[derive(Clone, PartialEq)]
struct Column {
    protocol: Protocol,
    status: VariantStatus,
    group: Option<Rc<GroupView>>,
    consumers: Rc<Vec<ConsumerView>>,
    summary: Option<Rc<Summary>>,
    ownership: Option<Rc<OwnershipView>>,
}

/// The protocols side by side, while compare mode is on.
#[component]
pub fn CompareView() -> Html {
    let s = use_strings();
    let pg = use_playground();
    let tab = use_state(|| Protocol::Eager);
    let columns: Vec<Column> = {
        let world = pg.world.borrow();
        let Some(c) = world.compare() else {
            return html! {};
        };
        let now = c.now().as_millis();
        let from = SimTime(now.saturating_sub(CHART_WINDOW_MS));
        c.views(from)
            .into_iter()
            .map(|v| {
                let session = c.session(v.protocol);
                Column {
                    protocol: v.protocol,
                    status: v.status,
                    group: session.map(|s| Rc::new(s.group_view())),
                    consumers: Rc::new(session.map(|s| s.consumers()).unwrap_or_default()),
                    summary: v.summary.map(Rc::new),
                    ownership: v.ownership.map(Rc::new),
                }
            })
            .collect()
    };
    let tabs = columns.iter().map(|col| {
        let p = col.protocol;
        let selected = *tab == p;
        let onclick = {
            let tab = tab.clone();
            Callback::from(move |_: MouseEvent| tab.set(p))
        };
        html! {
            <button type="button" role="tab" class="compare-tab" id={format!("compare-tab-{}", p.key())}
                aria-selected={selected.to_string()} aria-controls={format!("compare-{}", p.key())}
                {onclick}>
                { protocol_name(s, p) }
            </button>
        }
    });
    html! {
        <section class="compare" aria-labelledby="compare-heading" data-testid="compare">
            <h2 id="compare-heading" class="compare-heading">{ s.compare.heading }</h2>
            <p class="compare-intro">{ s.compare.intro }</p>
            <div class="compare-tabs" role="tablist" aria-label={s.compare.tabs}>
                { for tabs }
            </div>
            <div class="compare-columns">
                { for columns.iter().map(|col| column(s, col, *tab == col.protocol)) }
            </div>
            <p class="compare-legend">{ s.compare.legend }</p>
        </section>
    }
}

fn column(s: &Strings, col: &Column, selected: bool) -> Html {
    let key = col.protocol.key();
    let name = protocol_name(s, col.protocol);
    let body = match &col.status {
        VariantStatus::Unavailable { message } => html! {
            <p class="compare-unavailable" data-testid={format!("compare-unavailable-{key}")}>
                { fill(s.compare.unavailable, &[("why", message)]) }
            </p>
        },
        VariantStatus::Running => html! {
            <>
                if let Some(g) = &col.group {
                    <CompareStage protocol={col.protocol} group={g.clone()} consumers={col.consumers.clone()} />
                }
                if let Some(o) = &col.ownership {
                    <OwnershipChart view={o.clone()} />
                }
                if let Some(sum) = &col.summary {
                    <CompareSummary summary={sum.clone()} />
                }
            </>
        },
    };
    html! {
        <article class={classes!("compare-column", selected.then_some("is-selected"))} id={format!("compare-{key}")}
            role="tabpanel" aria-labelledby={format!("compare-title-{key}")} data-protocol={key}>
            <h3 class="compare-title" id={format!("compare-title-{key}")}>{ name }</h3>
            <p class="compare-note">{ protocol_note(s, col.protocol) }</p>
            { body }
        </article>
    }
}

/// A column's stage's props: its group and its consumers, copied from its session.
#[derive(Properties, PartialEq)]
pub struct CompareStageProps {
    /// Whose column.
    pub protocol: Protocol,
    /// The column's group, as the engine shows it.
    pub group: Rc<GroupView>,
    /// The column's consumers.
    pub consumers: Rc<Vec<ConsumerView>>,
}

/// A compact stage above a column's chart: its group's heading (a classic group's state and
/// generation, a consumer group's state and epochs) and one chip per consumer with what it owns
/// (a consumer-protocol member also its member epoch, its reconciliation state, and what it still
/// has to revoke or waits for). Redrawn only when its group or consumers change.
#[component]
pub fn CompareStage(props: &CompareStageProps) -> Html {
    let s = use_strings();
    let g = &props.group;
    let key = props.protocol.key();
    let heading = match &g.consumer {
        Some(c) => html! {
            <p class="compare-group" data-testid={format!("compare-group-{key}")} data-state={c.state.name()}
                data-group-epoch={c.group_epoch.to_string()} data-assignment-epoch={c.assignment_epoch.to_string()}>
                { fill(s.kip848_view.group_line, &[
                    ("state", c.state.label(s)),
                    ("epoch", &c.group_epoch.to_string()),
                    ("target", &c.assignment_epoch.to_string()),
                ]) }
            </p>
        },
        None => html! {
            <p class="compare-group" data-testid={format!("compare-group-{key}")} data-state={format!("{:?}", g.state)}>
                { fill(s.compare.group, &[
                    ("state", crate::explain::state_name(s, g.state)),
                    ("gen", &g.generation.to_string()),
                ]) }
            </p>
        },
    };
    html! {
        <div class="compare-stage">
            { heading }
            <ul class="compare-consumers">
                { for props.consumers.iter().map(|c| consumer_chip(s, g, c)) }
            </ul>
            if let Some((text, past)) = g.consumer.as_ref().and_then(|c| crate::explain_consumer::moves_explanation(s, c)) {
                <p class={classes!("compare-moves", past.then_some("is-past"))} data-testid={format!("compare-moves-{key}")}>
                    { text }
                </p>
            }
        </div>
    }
}

fn consumer_chip(s: &Strings, g: &GroupView, c: &ConsumerView) -> Html {
    let running = c.lifecycle.is_running();
    let member = g
        .consumer
        .as_ref()
        .and_then(|cg| cg.member_of(&c.name))
        .filter(|_| running);
    if let Some(m) = member {
        let kept: Vec<_> = m.keeping.clone();
        return html! {
            <li key={c.name.clone()} class="compare-consumer" data-consumer={c.name.clone()}
                data-state={m.state.name()}>
                <span class="compare-consumer-head">
                    <span class="compare-consumer-name">{ &c.name }</span>
                    <span class="compare-consumer-epoch" data-testid="compare-member-epoch">
                        { format!("{} {} · {}", s.kip848_view.member_epoch, m.member_epoch, m.state.name()) }
                    </span>
                </span>
                <PartitionStrip name={c.name.clone()} {kept} revoke={m.giving_up.clone()}
                    awaiting={m.awaiting.clone()} compact=true />
            </li>
        };
    }
    let parts: Vec<String> = c
        .partitions
        .iter()
        .map(|p| p.partition.partition.to_string())
        .collect();
    html! {
        <li key={c.name.clone()} class={classes!("compare-consumer", (!running).then_some("is-stopped"))}
            data-consumer={c.name.clone()} data-state={format!("{:?}", c.client_state)}>
            <span class="compare-consumer-name">{ &c.name }</span>
            <span class="compare-consumer-parts">
                { for c.partitions.iter().map(|p| html! {
                    <span class={classes!(format!("compare-part compare-part-{}", p.partition.partition.rem_euclid(8)),
                            c.revoking.contains(&p.partition).then_some("is-revoking"))}>
                        { p.partition.partition }
                    </span>
                }) }
                if parts.is_empty() && running { { "—" } }
            </span>
        </li>
    }
}

/// `12.3 s`.
/// A coordinate of the chart, as the SVG attribute.
fn num(v: f64) -> String {
    crate::num::short(v, 2)
}

fn seconds(ms: u64) -> String {
    format!("{}.{} s", ms / 1000, (ms % 1000) / 100)
}

/// The ownership chart's props.
#[derive(Properties, PartialEq)]
pub struct ChartProps {
    /// The engine's lanes in the window to draw.
    pub view: Rc<OwnershipView>,
}

// The drawing's units: about a pixel each in a 300-pixel column, so that the lanes and their
// names stay readable (the drawing scales with its column, keeping its proportions).
const LABEL_W: f64 = 30.0;
const CHART_W: f64 = 320.0;
const LANE_H: f64 = 22.0;
const LANE_GAP: f64 = 4.0;

/// One lane per consumer over the window, coloured by partition; owning nothing hatched,
/// revoking striped.
#[component]
pub fn OwnershipChart(props: &ChartProps) -> Html {
    let s = use_strings();
    let v = &props.view;
    let name = protocol_name(s, v.protocol);
    let (from, to) = (v.from.as_millis(), v.to.as_millis());
    let span = (to.saturating_sub(from)).max(1) as f64;
    let x = |t: SimTime| LABEL_W + (t.as_millis().saturating_sub(from)) as f64 / span * (CHART_W - LABEL_W);
    let label = fill(
        s.compare.chart,
        &[("protocol", name), ("from", &seconds(from)), ("to", &seconds(to))],
    );
    if v.lanes.is_empty() {
        return html! {
            <p class="compare-chart-empty" data-testid={format!("chart-{}", v.protocol.key())}>{ s.compare.empty }</p>
        };
    }
    let height = v.lanes.len() as f64 * (LANE_H + LANE_GAP) + LANE_GAP;
    let pattern = format!("compare-hatch-{}", v.protocol.key());
    let stripes = format!("compare-stripes-{}", v.protocol.key());
    let lanes: Vec<Html> = v
        .lanes
        .iter()
        .enumerate()
        .map(|(i, lane)| {
            let y = LANE_GAP + i as f64 * (LANE_H + LANE_GAP);
            let segs = lane.segments.iter().map(|seg| {
                let x0 = x(seg.from);
                let x1 = x(seg.to.unwrap_or(v.to)).max(x0 + 0.5);
                let kind = seg.kind();
                let parts: Vec<String> = seg.owned.iter().map(|p| p.to_string()).collect();
                let what = match kind {
                    SegmentKind::OwnsNothing => s.compare.owns_nothing.to_owned(),
                    SegmentKind::Revoking => fill(
                        s.compare.revoking,
                        &[(
                            "parts",
                            &seg.revoking
                                .iter()
                                .map(|p| p.to_string())
                                .collect::<Vec<_>>()
                                .join(", "),
                        )],
                    ),
                    SegmentKind::Owns => fill(s.compare.owns, &[("parts", &parts.join(", "))]),
                };
                let title = fill(
                    s.compare.stretch,
                    &[
                        ("name", &lane.consumer),
                        ("what", &what),
                        ("from", &seconds(seg.from.as_millis())),
                        ("to", &seconds(seg.to.unwrap_or(v.to).as_millis())),
                    ],
                );
                let kind_key = match kind {
                    SegmentKind::Owns => "owns",
                    SegmentKind::Revoking => "revoking",
                    SegmentKind::OwnsNothing => "owns-nothing",
                };
                // Owned partitions as stripes of the lane, one colour each.
                let n = seg.owned.len().max(1) as f64;
                let bands = seg.owned.iter().enumerate().map(|(k, p)| {
                    let idx = v.partitions.iter().position(|q| q == p).unwrap_or(0);
                    html! {
                        <rect class={format!("compare-band compare-part-{}", idx % 8)} x={num(x0)}
                            y={num(y + k as f64 * LANE_H / n)} width={num(x1 - x0)}
                            height={num(LANE_H / n)} />
                    }
                });
                let overlay = match kind {
                    SegmentKind::OwnsNothing => html! {
                        <rect class="compare-gap" x={num(x0)} y={num(y)} width={num(x1 - x0)}
                            height={num(LANE_H)} fill={format!("url(#{pattern})")} />
                    },
                    SegmentKind::Revoking => html! {
                        <rect class="compare-revoking" x={num(x0)} y={num(y)}
                            width={num(x1 - x0)} height={num(LANE_H)} fill={format!("url(#{stripes})")} />
                    },
                    SegmentKind::Owns => html! {},
                };
                html! {
                    <g class="compare-seg" data-kind={kind_key} data-from={seg.from.as_millis().to_string()}
                        data-to={seg.to.unwrap_or(v.to).as_millis().to_string()} data-parts={parts.join(",")}>
                        <title>{ title }</title>
                        { for bands }
                        { overlay }
                    </g>
                }
            });
            html! {
                <g class="compare-lane" data-consumer={lane.consumer.clone()}>
                    <text class="compare-lane-name" x="2" y={num(y + LANE_H * 0.72)}>{ &lane.consumer }</text>
                    { for segs }
                </g>
            }
        })
        .collect();
    html! {
        <svg class="compare-chart" data-testid={format!("chart-{}", v.protocol.key())} role="img"
            aria-label={label} viewBox={format!("0 0 {} {}", num(CHART_W), num(height))}>
            <defs>
                <pattern id={pattern.clone()} width="6" height="6" patternUnits="userSpaceOnUse"
                    patternTransform="rotate(45)">
                    <rect width="6" height="6" class="compare-gap-bg" />
                    <line x1="0" y1="0" x2="0" y2="6" class="compare-gap-line" />
                </pattern>
                <pattern id={stripes.clone()} width="4" height="4" patternUnits="userSpaceOnUse">
                    <rect width="2" height="4" class="compare-revoke-line" />
                </pattern>
            </defs>
            { for lanes }
            <line class="compare-now" x1={num(CHART_W)} x2={num(CHART_W)} y1="0"
                y2={num(height)} />
        </svg>
    }
}

/// The summary's props.
#[derive(Properties, PartialEq)]
pub struct SummaryProps {
    /// The engine's numbers of one protocol.
    pub summary: Rc<Summary>,
}

/// One protocol's numbers, beside its chart.
#[component]
pub fn CompareSummary(props: &SummaryProps) -> Html {
    let s = use_strings();
    let m = &props.summary;
    let c = &s.compare;
    let row = |key: &'static str, label: &'static str, value: String| {
        html! {
            <div class="compare-stat" data-stat={key}>
                <dt>{ label }</dt>
                <dd>{ value }</dd>
            </div>
        }
    };
    html! {
        <dl class="compare-summary" data-testid={format!("summary-{}", m.protocol.key())}
            aria-label={fill(c.summary, &[("protocol", protocol_name(s, m.protocol))])}>
            { row("rebalances", c.rebalances, m.rebalances.to_string()) }
            { row("revoked", c.revoked, m.partitions_revoked.to_string()) }
            { row("unowned-total", c.unowned_total, seconds(m.unowned_total_ms)) }
            { row("unowned-worst", c.unowned_worst, seconds(m.unowned_worst_ms)) }
            { row("requests", c.requests, m.requests_sent.to_string()) }
            { row("duplicates", c.duplicates, m.duplicates.to_string()) }
        </dl>
    }
}
