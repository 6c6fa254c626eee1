//! The sequence diagram: one lifeline per broker and per consumer, time downwards, one arrow per
//! protocol message, like the figures of the articles the project started from. It is in step
//! with the timeline: it shows the last [`PAST`] messages (and up to [`CHUNK`] more) up to the
//! shown time, a marker at the shown time, and (paler) the next [`LATER`] messages recorded after
//! it; it scrolls to follow (from the bottom, by CSS).
//! Clicking a message moves the timeline to the moment it was sent and shows it in the inspector.
//! "Download SVG" saves the same drawing as a standalone SVG file.
//!
//! Only a window of messages is drawn, so a long session costs no more than a short one; nothing
//! is computed while the disclosure is closed.

use std::fmt::Write as _;
use std::rc::Rc;

use rebalance_engine::network::Fault;
use rebalance_engine::sim::{NetworkEvent, SimEvent, SimEventKind};
use rebalance_engine::sort::sort;
use rebalance_engine::{Endpoint, ErrorCode, Message, NodeId, Payload, SimTime};
use wasm_bindgen::JsCast;
use web_sys::{HtmlDetailsElement, HtmlInputElement};
use yew::prelude::*;

use super::use_playground;
use crate::download::download;
use crate::explain::{endpoint, message_kind};
use crate::i18n::{fill, Lang, Strings};
use crate::state::{Change, Selection};
use crate::style::{api_class, api_shape, consumer_class};
use crate::world::{View, World};

/// Messages drawn up to the shown time.
pub const PAST: usize = 40;
/// Messages drawn after it (from the recorded future, after a seek back).
pub const LATER: usize = 8;

/// The window reaches back from the last [`PAST`] messages to a message id that is a multiple of
/// this: at most this many more rows, and a first row that changes once per this many messages.
pub const CHUNK: usize = 16;

/// Width of the time column on the left.
const TIME_W: f64 = 76.0;
/// Distance between two lifelines.
const LANE_W: f64 = 104.0;
/// Height of the lifelines' heads.
const HEAD_H: f64 = 52.0;
/// Height of one message's row.
const ROW_H: f64 = 30.0;
/// How far an arrow falls from sender to receiver (messages take time).
const FALL: f64 = 12.0;
/// Space above the first row and below the last.
const PAD: f64 = 14.0;
/// Height of the scrolled part at most: a longer body scrolls inside it.
const SCROLL_H: f64 = 460.0;

/// One lifeline.
#[derive(Clone, Debug, PartialEq)]
struct Lane {
    endpoint: Endpoint,
    /// Its name.
    name: String,
    /// A second line: "coordinator", "stopped", the leader's crown.
    role: Option<String>,
    /// `owner-N` for a consumer, `seq-broker` for a broker.
    class: String,
    /// Drawn dashed: a stopped consumer, or one that only appears later.
    faded: bool,
}

/// Where a message is relative to the shown time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum When {
    /// Sent and arrived (or lost) by then.
    Done,
    /// Sent, not arrived yet.
    InFlight,
    /// Recorded after it.
    Later,
}

/// One message's row.
#[derive(Clone, Debug, PartialEq)]
struct Row {
    msg: Rc<Message>,
    from: usize,
    to: usize,
    when: When,
    error: Option<ErrorCode>,
    lost: bool,
}

/// The messages of the last window drawn, by id.
#[derive(Default)]
struct MessageCache {
    messages: rebalance_engine::collections::Map<u64, Rc<Message>>,
}

/// What the diagram draws: the lifelines, the rows, and where the shown time falls.
#[derive(Clone, Debug, PartialEq)]
struct Diagram {
    lanes: Vec<Lane>,
    rows: Vec<Row>,
    /// Rows before this index were sent by the shown time.
    now_row: usize,
    now: SimTime,
}

fn sent(ev: &SimEvent) -> Option<&Message> {
    match &ev.kind {
        SimEventKind::Network {
            event: NetworkEvent::Sent { message },
        } => Some(message),
        _ => None,
    }
}

impl Diagram {
    /// The window around the shown time.
    #[cfg(test)]
    fn of(world: &World, view: &View, s: &Strings, routine: bool) -> Self {
        Self::of_cached(world, view, s, routine, &mut MessageCache::default())
    }

    /// The window around the shown time; each message is copied out of the log once and shared
    /// between redraws through `cache` (which then holds only the window's).
    fn of_cached(world: &World, view: &View, s: &Strings, routine: bool, cache: &mut MessageCache) -> Self {
        let now = world.now();
        let keep = |m: &&Message| routine || !m.is_routine();
        // The last PAST messages, and further back to a multiple of CHUNK in message ids: the
        // window's first row then stays put while CHUNK messages arrive, so most redraws only add
        // rows at the end. (When the first row changes, Yew moves every kept row out of the page
        // and back, which costs a frame and the keyboard focus.)
        let mut past: Vec<&Message> = Vec::with_capacity(PAST + CHUNK);
        let mut floor = None;
        for m in world.log().iter().rev().filter_map(sent).filter(keep) {
            match floor {
                Some(f) if m.id < f => break,
                Some(_) => {}
                None if past.len() == PAST => {
                    let first = past.last().map_or(m.id, |f: &&Message| f.id);
                    let f = first - first % CHUNK as u64;
                    if m.id < f {
                        break;
                    }
                    floor = Some(f);
                }
                None => {}
            }
            past.push(m);
        }
        past.reverse();
        let later: Vec<&Message> = world
            .log_ahead()
            .iter()
            .filter_map(sent)
            .filter(keep)
            .take(LATER)
            .collect();

        // Lifelines: the coordinator, the other brokers in the window, the consumers of the
        // shown time, then whoever else the window holds (a consumer added later, a script).
        let coordinator = view.group.coordinator;
        let mut lanes: Vec<Lane> = Vec::new();
        let broker_lane = |n: NodeId| Lane {
            endpoint: Endpoint::Broker(n),
            name: endpoint(s, &Endpoint::Broker(n)),
            role: (n == coordinator).then(|| s.sequence.coordinator.to_owned()),
            class: "seq-broker".into(),
            faded: view.brokers.iter().any(|b| b.node == n && !b.alive),
        };
        lanes.push(broker_lane(coordinator));
        let mut others: Vec<NodeId> = past
            .iter()
            .chain(&later)
            .flat_map(|m| [&m.from, &m.to])
            .filter_map(|e| match e {
                Endpoint::Broker(n) if *n != coordinator => Some(*n),
                _ => None,
            })
            .collect();
        sort(&mut others);
        others.dedup();
        lanes.extend(others.into_iter().map(broker_lane));
        for (i, c) in view.consumers.iter().enumerate() {
            let role = if c.is_leader {
                Some(format!("♛ {}", s.stage.leader))
            } else if !c.lifecycle.is_running() {
                Some(s.sequence.stopped.to_owned())
            } else {
                None
            };
            lanes.push(Lane {
                endpoint: Endpoint::Consumer(c.name.clone()),
                name: c.name.clone(),
                role,
                class: consumer_class(i),
                faded: !c.lifecycle.is_running(),
            });
        }
        let mut rows = Vec::with_capacity(past.len() + later.len());
        for (i, m) in past.iter().chain(&later).enumerate() {
            let mut lane = |e: &Endpoint| {
                if let Some(i) = lanes.iter().position(|l| &l.endpoint == e) {
                    return i;
                }
                lanes.push(Lane {
                    endpoint: e.clone(),
                    name: endpoint(s, e),
                    role: None,
                    class: "seq-other".into(),
                    faded: true,
                });
                lanes.len() - 1
            };
            let (from, to) = (lane(&m.from), lane(&m.to));
            let when = if i >= past.len() {
                When::Later
            } else if m.deliver_at > now {
                When::InFlight
            } else {
                When::Done
            };
            let error = match &m.payload {
                Payload::Response(r) if !r.error_code().is_none() => Some(r.error_code()),
                _ => None,
            };
            // Ids are per simulation: after a fork the same id may be another message.
            let msg = match cache.messages.get(&m.id) {
                Some(c) if **c == **m => c.clone(),
                _ => {
                    let copy = Rc::new((*m).clone());
                    cache.messages.insert(m.id, copy.clone());
                    copy
                }
            };
            rows.push(Row {
                msg,
                from,
                to,
                when,
                error,
                lost: m.fault == Some(Fault::Dropped),
            });
        }
        cache
            .messages
            .retain(|id, _| rows.iter().any(|r| r.msg.id == *id));
        Self {
            lanes,
            rows,
            now_row: past.len(),
            now,
        }
    }

    fn width(&self) -> f64 {
        TIME_W + LANE_W * self.lanes.len() as f64 + 24.0
    }

    /// Height of the body (below the heads).
    fn body_height(&self) -> f64 {
        2.0 * PAD + ROW_H * (self.rows.len() as f64 + 1.0)
    }

    fn lane_x(i: usize) -> f64 {
        TIME_W + LANE_W * (i as f64 + 0.5)
    }

    /// The y of row `i` in the body; the shown time's marker takes one row's place.
    fn row_y(&self, i: usize) -> f64 {
        let slot = if i >= self.now_row { i + 1 } else { i };
        PAD + ROW_H * (slot as f64 + 0.3)
    }

    fn now_y(&self) -> f64 {
        PAD + ROW_H * (self.now_row as f64 + 0.5)
    }
}

/// `12.345 s`.
fn seconds(t: SimTime) -> String {
    format!("{}.{:03} s", t.as_millis() / 1000, t.as_millis() % 1000)
}

/// What a row draws: its classes, the arrow's ends, its label and its accessible name.
struct RowShape {
    class: String,
    x1: f64,
    y1: f64,
    x2: f64,
    y2: f64,
    /// The arrowhead (a triangle at the end, or an ✕ for a lost message).
    head: String,
    /// The API's token shape (the stage's, [`api_shape`]) at the sender's end, so that a
    /// message is told apart by shape as well as by colour and label.
    glyph: &'static str,
    /// Where the glyph is drawn: an SVG transform.
    glyph_at: String,
    label: String,
    aria: String,
}

/// Row `i`'s drawing with its sender's end at height `y` (the page draws each row at 0 and moves
/// it into place, so that a row's drawing does not change as the window slides).
fn row_shape(d: &Diagram, i: usize, s: &Strings, y: f64) -> RowShape {
    let r = &d.rows[i];
    let m = &r.msg;
    let request = m.payload.is_request();
    let (x1, mut x2) = (Diagram::lane_x(r.from), Diagram::lane_x(r.to));
    let dir = if x2 >= x1 { 1.0 } else { -1.0 };
    // Stop short of the lifeline, so the head is visible on it.
    x2 -= dir * 3.0;
    let (y1, mut y2) = (y, y + FALL);
    if r.lost {
        // A lost message stops half way.
        x2 = x1 + (x2 - x1) / 2.0;
        y2 = y + FALL / 2.0;
    }
    let (dx, dy) = (x2 - x1, y2 - y1);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let (ux, uy) = (dx / len, dy / len);
    let head = if r.lost {
        format!("M{},{} l8,8 m0,-8 l-8,8", fmt(x2 - 4.0), fmt(y2 - 4.0))
    } else {
        let (bx, by) = (x2 - ux * 10.0, y2 - uy * 10.0);
        let (px, py) = (-uy * 5.0, ux * 5.0);
        format!(
            "M{},{} L{},{} L{},{} Z",
            fmt(x2),
            fmt(y2),
            fmt(bx + px),
            fmt(by + py),
            fmt(bx - px),
            fmt(by - py)
        )
    };
    let api = m.api();
    let glyph_at = format!(
        "translate({},{}) scale(0.45)",
        fmt(x1 + ux * 12.0),
        fmt(y1 + uy * 12.0)
    );
    let mut label = api.name().to_owned();
    if let Some(e) = r.error {
        label.push_str(" ✕ ");
        label.push_str(e.name());
    }
    let kind = message_kind(s, r.error.is_some(), request);
    let mut aria = fill(
        s.sequence.message,
        &[
            ("time", &seconds(m.sent_at)),
            ("api", api.name()),
            ("kind", kind),
            ("from", &endpoint(s, &m.from)),
            ("to", &endpoint(s, &m.to)),
        ],
    );
    let mut note = |t: &str| {
        aria.push_str(", ");
        aria.push_str(t);
    };
    if let Some(e) = r.error {
        note(&fill(s.sequence.error, &[("code", e.name())]));
    }
    if r.lost {
        note(s.sequence.lost);
    }
    match r.when {
        When::Done => {}
        When::InFlight => note(s.sequence.in_flight),
        When::Later => note(s.sequence.later),
    }
    let class = [
        "seq-msg",
        api_class(api),
        if request { "is-request" } else { "is-response" },
        if r.error.is_some() { "is-error" } else { "" },
        if r.lost { "is-lost" } else { "" },
        match r.when {
            When::Done => "",
            When::InFlight => "is-in-flight",
            When::Later => "is-later",
        },
    ]
    .iter()
    .filter(|c| !c.is_empty())
    .copied()
    .collect::<Vec<_>>()
    .join(" ");
    RowShape {
        class,
        x1,
        y1,
        x2,
        y2,
        head,
        glyph: api_shape(api),
        glyph_at,
        label,
        aria,
    }
}

/// A number for SVG attributes: at most one decimal.
fn fmt(x: f64) -> String {
    crate::num::short(x, 1)
}

/// Escapes text for XML (content and attribute values).
pub fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 does not allow at all.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// The exported file's own styles: the page's look, without the page's CSS variables.
const EXPORT_STYLE: &str = "
text { font-family: system-ui, -apple-system, 'Segoe UI', 'PingFang SC', 'Microsoft YaHei', 'Noto Sans CJK SC', sans-serif; }
.seq-bg { fill: #ffffff; }
.seq-lifeline { stroke: #8c959f; stroke-width: 1.5; stroke-dasharray: 6 4; }
.seq-lane.is-faded .seq-lifeline { stroke: #d0d7de; }
.seq-head { fill: #ffffff; stroke: #57606a; stroke-width: 2; }
.owner-0 .seq-head { stroke: #0072b2; } .owner-1 .seq-head { stroke: #d55e00; }
.owner-2 .seq-head { stroke: #009e73; } .owner-3 .seq-head { stroke: #cc79a7; }
.owner-4 .seq-head { stroke: #8a6d00; } .owner-5 .seq-head { stroke: #56789a; }
.owner-6 .seq-head { stroke: #7b3294; } .owner-7 .seq-head { stroke: #1b7837; }
.owner-8 .seq-head { stroke: #b2182b; } .owner-9 .seq-head { stroke: #2166ac; }
.seq-lane.is-faded .seq-head { stroke-dasharray: 4 3; }
.seq-broker .seq-head { fill: #24292f; stroke: #24292f; }
.seq-broker .seq-lane-name, .seq-broker .seq-lane-role { fill: #ffffff; }
.seq-lane-name { font-size: 14px; font-weight: 700; fill: #1f2328; }
.seq-lane-role { font-size: 11px; fill: #59636e; }
.seq-time { font-size: 11px; fill: #59636e; font-family: ui-monospace, Menlo, Consolas, monospace; }
.seq-line { stroke: #57606a; stroke-width: 1.8; fill: none; }
.seq-head-mark { fill: #57606a; stroke: #57606a; stroke-width: 1.5; }
.is-response .seq-line { stroke-dasharray: 5 4; }
.is-response .seq-head-mark { fill: #ffffff; }
.is-error .seq-line { stroke: #d55e00; stroke-width: 3.2; }
.is-error .seq-head-mark { stroke: #d55e00; fill: #d55e00; }
.is-lost .seq-head-mark { fill: none; stroke: #cf222e; stroke-width: 2.5; }
.is-later { opacity: 0.4; }
.is-in-flight .seq-line { stroke-dasharray: 2 3; }
.seq-label { font-size: 12px; font-weight: 600; fill: #1f2328; paint-order: stroke; stroke: #ffffff; stroke-width: 3px; }
.is-error .seq-label { fill: #b35000; font-family: ui-monospace, Menlo, Consolas, monospace; }
.seq-now { stroke: #1f6feb; stroke-width: 2; }
.seq-now-label { font-size: 12px; font-weight: 700; fill: #1f6feb; }
.api-find .seq-line, .api-find .seq-head-mark { stroke: #cc79a7; }
.api-join .seq-line, .api-join .seq-head-mark { stroke: #0072b2; }
.api-sync .seq-line, .api-sync .seq-head-mark { stroke: #009e73; }
.api-heartbeat .seq-line, .api-heartbeat .seq-head-mark { stroke: #56b4e9; }
.api-cg-heartbeat .seq-line, .api-cg-heartbeat .seq-head-mark { stroke: #882255; }
.api-leave .seq-line, .api-leave .seq-head-mark { stroke: #e69f00; }
.api-commit .seq-line, .api-commit .seq-head-mark { stroke: #b8a300; }
.api-fetch .seq-line, .api-fetch .seq-head-mark { stroke: #6b6b6b; }
.is-request.api-find .seq-head-mark { fill: #cc79a7; }
.is-request.api-join .seq-head-mark { fill: #0072b2; }
.is-request.api-sync .seq-head-mark { fill: #009e73; }
.is-request.api-heartbeat .seq-head-mark { fill: #56b4e9; }
.is-request.api-cg-heartbeat .seq-head-mark { fill: #882255; }
.is-request.api-leave .seq-head-mark { fill: #e69f00; }
.is-request.api-commit .seq-head-mark { fill: #b8a300; }
.is-request.api-fetch .seq-head-mark { fill: #6b6b6b; }
.is-error .seq-line, .is-error .seq-head-mark { stroke: #d55e00; }
";

/// The diagram as a standalone SVG document (its own styles, valid XML).
fn export_svg(d: &Diagram, s: &Strings, group: &str) -> String {
    let w = d.width();
    let h = HEAD_H + d.body_height();
    let from = d.rows.first().map_or(d.now, |r| r.msg.sent_at);
    let to = d.rows.last().map_or(d.now, |r| r.msg.sent_at).max(d.now);
    let title = fill(
        s.sequence.file_title,
        &[("group", group), ("from", &seconds(from)), ("to", &seconds(to))],
    );
    let mut out = String::new();
    let _ = write!(
        out,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" \
         width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\" aria-labelledby=\"seq-title\">\n\
         <title id=\"seq-title\">{title}</title>\n<desc>{desc}</desc>\n<style><![CDATA[{EXPORT_STYLE}]]></style>\n\
         <rect class=\"seq-bg\" width=\"{w}\" height=\"{h}\"/>\n",
        w = fmt(w),
        h = fmt(h),
        title = xml_escape(&title),
        desc = xml_escape(s.sequence.legend),
    );
    for (i, lane) in d.lanes.iter().enumerate() {
        let x = Diagram::lane_x(i);
        let _ = writeln!(
            out,
            "<g class=\"seq-lane {class}{faded}\" data-lane=\"{name}\"><line class=\"seq-lifeline\" x1=\"{x}\" y1=\"{top}\" x2=\"{x}\" y2=\"{h}\"/>\
             <rect class=\"seq-head\" x=\"{bx}\" y=\"6\" width=\"{bw}\" height=\"{bh}\" rx=\"6\"/>\
             <text class=\"seq-lane-name\" x=\"{x}\" y=\"26\" text-anchor=\"middle\">{name}</text>{role}</g>",
            class = lane.class,
            faded = if lane.faded { " is-faded" } else { "" },
            name = xml_escape(&lane.name),
            x = fmt(x),
            top = fmt(HEAD_H - 6.0),
            h = fmt(h),
            bx = fmt(x - LANE_W / 2.0 + 6.0),
            bw = fmt(LANE_W - 12.0),
            bh = fmt(HEAD_H - 12.0),
            role = lane.role.as_ref().map_or(String::new(), |r| format!(
                "<text class=\"seq-lane-role\" x=\"{}\" y=\"40\" text-anchor=\"middle\">{}</text>",
                fmt(x),
                xml_escape(r)
            )),
        );
    }
    let _ = writeln!(out, "<g transform=\"translate(0,{})\">", fmt(HEAD_H));
    write_rows(&mut out, d, s);
    out.push_str("</g>\n</svg>\n");
    out
}

/// What the drawn diagram depends on besides the world and the shown time.
#[derive(Clone, Copy, PartialEq, Eq)]
struct DrawnKey {
    routine: bool,
    lang: Lang,
}

/// The diagram last drawn, kept between renders while the simulation plays.
struct Drawn {
    key: DrawnKey,
    /// The redraw it was drawn for.
    redraw: u32,
    /// Whether a redraw has been asked for since.
    asked: bool,
    diagram: Rc<Diagram>,
}

/// One message's row as the page draws it: drawn at height 0 and moved into place by its own
/// `transform`. A row that stays in the window keeps its drawing while the window slides: only its
/// `y`, and so its `transform`, changes (once per [`CHUNK`] messages, when the first row changes).
#[derive(Properties, PartialEq)]
struct RowProps {
    id: u64,
    /// The row's top, in the body's coordinates.
    y: f64,
    class: AttrValue,
    aria: AttrValue,
    selected: bool,
    api: &'static str,
    error: Option<&'static str>,
    sent_ms: u64,
    time: AttrValue,
    x1: f64,
    y1: f64,
    x2: f64,
    y2: f64,
    head: AttrValue,
    glyph: &'static str,
    glyph_at: AttrValue,
    label: AttrValue,
}

#[component]
fn SeqRow(p: &RowProps) -> Html {
    let (left, right) = (p.x1.min(p.x2), p.x1.max(p.x2));
    html! {
        <g class={format!("{}{}", p.class, if p.selected { " is-selected" } else { "" })} role="button" tabindex="0"
            transform={format!("translate(0,{})", fmt(p.y))} aria-label={p.aria.clone()} aria-pressed={p.selected.to_string()} data-msg={p.id.to_string()}
            data-api={p.api} data-error={p.error} data-sent-ms={p.sent_ms.to_string()}>
            <rect class="seq-hit" x={fmt(left - 8.0)} y={fmt(p.y1 - 16.0)} width={fmt(right - left + 16.0)} height={fmt(ROW_H)} rx="4" />
            <text class="seq-time" x="6" y={fmt(p.y1 + 4.0)}>{ p.time.clone() }</text>
            <line class="seq-line" x1={fmt(p.x1)} y1={fmt(p.y1)} x2={fmt(p.x2)} y2={fmt(p.y2)} />
            <path class="seq-head-mark" d={p.head.clone()} />
            <path class="seq-glyph" d={p.glyph} transform={p.glyph_at.clone()} />
            <text class="seq-label" x={fmt((p.x1 + p.x2) / 2.0)} y={fmt(p.y1.min(p.y2) - 2.0)} text-anchor="middle">{ p.label.clone() }</text>
        </g>
    }
}

/// The page's drawing of the rows: the lifelines' lines, the messages (focusable buttons, keyed by
/// message id, so that a redraw adds the new rows and drops the old ones and leaves the rest, and
/// the keyboard focus, alone) and the shown time's marker.
fn body(d: &Diagram, s: &Strings, selected: Option<u64>) -> Html {
    let (w, h) = (d.width(), d.body_height());
    let ny = d.now_y();
    html! {
        <svg class="seq-svg seq-body" width={fmt(w)} height={fmt(h)} viewBox={format!("0 0 {} {}", fmt(w), fmt(h))}
            role="group" aria-label={s.sequence.label}>
            <g aria-hidden="true">
                { for d.lanes.iter().enumerate().map(|(i, lane)| {
                    let x = fmt(Diagram::lane_x(i));
                    html! {
                        <line class={classes!("seq-lifeline", lane.faded.then_some("is-faded"))} x1={x.clone()} y1="0" x2={x} y2={fmt(h)} />
                    }
                }) }
            </g>
            { for d.rows.iter().enumerate().map(|(i, row)| {
                let r = row_shape(d, i, s, 0.0);
                let m = &row.msg;
                // One element per row (the row's own group, keyed), so that a new row costs the
                // browser as few elements as it can.
                html! {
                    <SeqRow key={m.id} id={m.id} y={d.row_y(i)} class={r.class} aria={r.aria} selected={selected == Some(m.id)}
                        api={m.api().name()} error={row.error.map(|e| e.name())} sent_ms={m.sent_at.as_millis()}
                        time={seconds(m.sent_at)} x1={r.x1} y1={r.y1} x2={r.x2} y2={r.y2} head={r.head} glyph={r.glyph} glyph_at={r.glyph_at} label={r.label} />
                }
            }) }
            <g class="seq-now-marker" data-testid="sequence-now" data-ms={d.now.as_millis().to_string()}
                transform={format!("translate(0,{})", fmt(ny))}>
                <line class="seq-now" x1="0" y1="0" x2={fmt(w)} y2="0" />
                <text class="seq-now-label" x="6" y="-4">{ fill(s.sequence.now, &[("time", &seconds(d.now))]) }</text>
            </g>
        </svg>
    }
}

/// The rows and the shown time's marker, for the exported file (a tooltip title per message).
fn write_rows(out: &mut String, d: &Diagram, s: &Strings) {
    for (i, row) in d.rows.iter().enumerate() {
        let r = row_shape(d, i, s, d.row_y(i));
        let m = &row.msg;
        let _ = write!(
            out,
            "<g class=\"{}\"><title>{}</title>",
            r.class,
            xml_escape(&r.aria)
        );
        let _ = writeln!(
            out,
            "<text class=\"seq-time\" x=\"6\" y=\"{ty}\">{time}</text>\
             <line class=\"seq-line\" x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\"/><path class=\"seq-head-mark\" d=\"{head}\"/>\
             <path class=\"seq-glyph\" d=\"{glyph}\" transform=\"{glyph_at}\"/>\
             <text class=\"seq-label\" x=\"{lx}\" y=\"{ly}\" text-anchor=\"middle\">{label}</text></g>",
            ty = fmt(r.y1 + 4.0),
            time = seconds(m.sent_at),
            x1 = fmt(r.x1),
            y1 = fmt(r.y1),
            x2 = fmt(r.x2),
            y2 = fmt(r.y2),
            head = r.head,
            glyph = r.glyph,
            glyph_at = r.glyph_at,
            lx = fmt((r.x1 + r.x2) / 2.0),
            ly = fmt(r.y1.min(r.y2) - 2.0),
            label = xml_escape(&r.label),
        );
    }
    let ny = d.now_y();
    let _ = writeln!(
        out,
        "<g class=\"seq-now-marker\"><line class=\"seq-now\" x1=\"0\" y1=\"{y}\" \
         x2=\"{w}\" y2=\"{y}\"/><text class=\"seq-now-label\" x=\"6\" y=\"{ty}\">{label}</text></g>",
        y = fmt(ny),
        w = fmt(d.width()),
        ty = fmt(ny - 4.0),
        label = xml_escape(&fill(s.sequence.now, &[("time", &seconds(d.now))])),
    );
}

/// The lifelines' heads (they stay in view while the rows scroll).
fn heads(d: &Diagram) -> Html {
    let w = d.width();
    html! {
        <svg class="seq-svg seq-heads" width={fmt(w)} height={fmt(HEAD_H)} viewBox={format!("0 0 {} {}", fmt(w), fmt(HEAD_H))}
            aria-hidden="true">
            { for d.lanes.iter().enumerate().map(|(i, lane)| {
                let x = Diagram::lane_x(i);
                html! {
                    <g class={classes!("seq-lane", lane.class.clone(), lane.faded.then_some("is-faded"))} data-lane={lane.name.clone()}>
                        <line class="seq-lifeline" x1={fmt(x)} y1={fmt(HEAD_H - 6.0)} x2={fmt(x)} y2={fmt(HEAD_H)} />
                        <rect class="seq-head" x={fmt(x - LANE_W / 2.0 + 6.0)} y="6" width={fmt(LANE_W - 12.0)} height={fmt(HEAD_H - 12.0)} rx="6" />
                        <text class="seq-lane-name" x={fmt(x)} y="26" text-anchor="middle">{ &lane.name }</text>
                        if let Some(role) = &lane.role {
                            <text class="seq-lane-role" x={fmt(x)} y="40" text-anchor="middle">{ role }</text>
                        }
                    </g>
                }
            }) }
        </svg>
    }
}

/// The message id of the row an event happened in.
fn message_id(target: Option<web_sys::EventTarget>) -> Option<u64> {
    target?
        .dyn_into::<web_sys::Element>()
        .ok()?
        .closest("[data-msg]")
        .ok()??
        .get_attribute("data-msg")?
        .parse()
        .ok()
}

/// The message of the row an event happened in.
fn message_of(d: &Diagram, target: Option<web_sys::EventTarget>) -> Option<Rc<Message>> {
    let id = message_id(target)?;
    d.rows.iter().find(|r| r.msg.id == id).map(|r| r.msg.clone())
}

/// The page's focused element, if any.
fn active_element() -> Option<web_sys::EventTarget> {
    let el = web_sys::window()?.document()?.active_element()?;
    Some(el.into())
}

/// Whether the focus is on nothing (the page itself).
fn nothing_focused() -> bool {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return false;
    };
    doc.active_element()
        .is_none_or(|el| matches!(el.tag_name().as_str(), "BODY" | "HTML"))
}

/// Focuses a message's row (an SVG element: `focus` is called through JavaScript); false when
/// the row is not in the page.
fn focus_message(id: u64) -> bool {
    let el = web_sys::window().and_then(|w| w.document()).and_then(|d| {
        d.query_selector(&format!(".sequence-scroll [data-msg=\"{id}\"]"))
            .ok()
            .flatten()
    });
    let Some(el) = el else {
        return false;
    };
    js_sys::Reflect::get(&el, &"focus".into())
        .and_then(|f| f.dyn_into::<js_sys::Function>())
        .is_ok_and(|f| f.call0(&el).is_ok())
}

/// The sequence diagram, in a disclosure (closed: nothing is drawn).
#[component]
pub fn SequenceDiagram() -> Html {
    let lang = use_context::<Lang>().unwrap_or(Lang::En);
    let s = lang.strings();
    let pg = use_playground();
    let open = use_state(|| false);
    let routine = use_state(|| true);

    let cache = use_mut_ref(MessageCache::default);
    // While the simulation plays, the panels refresh together (every 100 ms) and the window's rows
    // change at most of those refreshes. The diagram is then redrawn in a task of its own, after
    // the browser has painted the panels' refresh, so that the two are never one frame's work: a
    // refresh shows the diagram drawn last, and asks for a redraw (`redraws`) that draws the
    // current window one frame later. Paused, after a seek, a step or any change of its own
    // (opened, the routine switch, the language), it is drawn at once.
    let redraws = use_state(|| 0_u32);
    let drawn = use_mut_ref(|| None::<Drawn>);
    let diagram = (*open).then(|| {
        let key = DrawnKey {
            routine: *routine,
            lang,
        };
        let mut drawn = drawn.borrow_mut();
        if let Some(last) = drawn
            .as_mut()
            .filter(|d| pg.playing && d.key == key && d.redraw == *redraws)
        {
            if !std::mem::replace(&mut last.asked, true) {
                let redraws = redraws.clone();
                crate::app::after_next_paint(move || redraws.set(redraws.wrapping_add(1)));
            }
            return last.diagram.clone();
        }
        let world = pg.world.borrow();
        let diagram = Rc::new(Diagram::of_cached(
            &world,
            &pg.view,
            s,
            *routine,
            &mut cache.borrow_mut(),
        ));
        *drawn = Some(Drawn {
            key,
            redraw: *redraws,
            asked: false,
            diagram: diagram.clone(),
        });
        diagram
    });

    let ontoggle = {
        let open = open.clone();
        Callback::from(move |e: Event| {
            let el: HtmlDetailsElement = e.target_unchecked_into();
            open.set(el.open());
        })
    };
    let onroutine = {
        let routine = routine.clone();
        Callback::from(move |e: Event| routine.set(e.target_unchecked_into::<HtmlInputElement>().checked()))
    };
    // The message a keyboard user jumped to: focused again once the rows are redrawn.
    let refocus = use_mut_ref(|| None::<u64>);
    // The message that has the keyboard focus. A refresh redraws the rows (every 100 ms while the
    // simulation plays), which takes the focus away: it is given back to the same message.
    let focused = use_mut_ref(|| None::<u64>);
    // True from this render until its effect: a focus lost meanwhile is the redraw's (Yew may move
    // a kept row while it reconciles the keyed rows), not the user's.
    let redrawing = use_mut_ref(|| false);
    *redrawing.borrow_mut() = true;
    {
        let refocus = refocus.clone();
        let focused = focused.clone();
        let redrawing = redrawing.clone();
        use_effect(move || {
            *redrawing.borrow_mut() = false;
            let id = refocus.borrow_mut().take().or(*focused.borrow());
            if let Some(id) = id {
                if message_id(active_element()) != Some(id) && !focus_message(id) {
                    // Its row has left the window: the focus is not kept for it.
                    *focused.borrow_mut() = None;
                }
            }
        });
    }
    let onfocusin = {
        let focused = focused.clone();
        Callback::from(move |e: FocusEvent| *focused.borrow_mut() = message_id(e.target()))
    };
    let onfocusout = Callback::from(move |e: FocusEvent| {
        if *redrawing.borrow() {
            // Taken away by the redraw: Yew moves kept rows when the window slides (it takes
            // them out and puts them back). The focus is given back as soon as the redraw's DOM
            // work is done, in a microtask: Yew may run the effects (which also give it back) in
            // a later task, and a key pressed in between would otherwise start from the page.
            if let Some(id) = message_id(e.target()) {
                wasm_bindgen_futures::spawn_local(async move {
                    // Nothing focused: the row has not got it back (and no one took it since).
                    if nothing_focused() {
                        focus_message(id);
                    }
                });
            }
            return;
        }
        if e.related_target().is_some() {
            // The focus moved to another element: a message (its focusin follows) or not.
            *focused.borrow_mut() = None;
            return;
        }
        // Focus lost to nothing: a redraw taking the row out of the page (the browser says so
        // while the row is still in it), or a click on the background. Which one shows a moment
        // later: a redrawn row is gone from the page.
        let Some(node) = e.target().and_then(|t| t.dyn_into::<web_sys::Node>().ok()) else {
            return;
        };
        let focused = focused.clone();
        gloo_timers::callback::Timeout::new(0, move || {
            if node.is_connected() {
                *focused.borrow_mut() = None;
            }
        })
        .forget();
    });
    let jump = {
        let pg = pg.clone();
        let diagram = diagram.clone();
        move |target: Option<web_sys::EventTarget>| -> bool {
            let Some(m) = diagram.as_ref().and_then(|d| message_of(d, target)) else {
                return false;
            };
            pg.world.borrow_mut().seek(m.sent_at);
            pg.dispatch(Change::Pause);
            pg.dispatch(Change::Select(Some(Selection::Message(m))));
            true
        }
    };
    let onclick = {
        let jump = jump.clone();
        Callback::from(move |e: MouseEvent| {
            jump(e.target());
        })
    };
    let onkeydown = Callback::from(move |e: KeyboardEvent| {
        if e.key() != "Enter" && e.key() != " " {
            return;
        }
        let id = message_id(e.target());
        if jump(e.target()) {
            e.prevent_default();
            *refocus.borrow_mut() = id;
        }
    });
    let onexport = {
        let diagram = diagram.clone();
        let group = pg.world.borrow().sim().group_id().to_owned();
        Callback::from(move |_: MouseEvent| {
            if let Some(d) = &diagram {
                let svg = export_svg(d, s, &group);
                download("sequence-diagram.svg", &svg, "image/svg+xml");
            }
        })
    };
    let selected = match &pg.selection {
        Some(Selection::Message(m)) => Some(m.id),
        _ => None,
    };

    html! {
        <details class="sequence panel" open={*open} ontoggle={ontoggle} data-testid="sequence-diagram">
            <summary class="panel-heading sequence-heading">{ s.sequence.heading }</summary>
            if let Some(d) = diagram {
                <p class="sequence-intro">{ fill(s.sequence.intro, &[("n", &PAST.to_string())]) }</p>
                <div class="sequence-tools">
                    <label class="sequence-routine">
                        <input type="checkbox" checked={*routine} onchange={onroutine} />
                        { s.sequence.routine }
                    </label>
                    <button type="button" onclick={onexport} disabled={d.rows.is_empty()}>{ s.sequence.export }</button>
                </div>
                <p class="sequence-legend">{ s.sequence.legend }</p>
                if d.rows.is_empty() {
                    <p class="panel-empty">{ s.sequence.empty }</p>
                } else {
                    <div class="sequence-frame">
                        { heads(&d) }
                        // Scrolled from the bottom (CSS), where the shown time's marker is: it
                        // follows the time without reading the layout.
                        // Of fixed size (CSS: size containment), so that rows coming and going
                        // are laid out inside it and not the page around it.
                        <div class="sequence-scroll"
                            style={format!("width: {}px; height: {}px", fmt(d.width()), fmt(d.body_height().min(SCROLL_H)))}
                            {onclick} {onkeydown} {onfocusin} {onfocusout}>
                            { body(&d, s, selected) }
                        </div>
                    </div>
                }
            }
        </details>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::{default_consumer, Command};

    fn three_joined() -> World {
        World::with_consumers_joined(3)
    }

    /// As messages arrive the window only grows at its end, and its first row moves on once per
    /// [`CHUNK`] messages (in one jump), holding the last [`PAST`] and fewer than `CHUNK` more.
    #[test]
    fn the_windows_first_row_moves_once_per_chunk_of_messages() {
        let mut w = three_joined();
        let s = crate::i18n::Lang::En.strings();
        let window = |w: &mut World| {
            let view = w.view();
            let d = Diagram::of(w, &view, s, true);
            d.rows.iter().map(|r| r.msg.id).collect::<Vec<u64>>()
        };
        let mut last = window(&mut w);
        while last.len() < PAST {
            w.step();
            last = window(&mut w);
        }
        let start = *last.last().unwrap();
        let (mut arrived, mut moves) = (0, 0);
        while arrived < 10 * CHUNK {
            w.step();
            let ids = window(&mut w);
            if ids.last() == last.last() {
                continue;
            }
            arrived += 1;
            assert!(
                ids.len() >= PAST && ids.len() < PAST + CHUNK,
                "{} rows",
                ids.len()
            );
            assert!(ids.windows(2).all(|p| p[0] < p[1]), "in order");
            if ids[0] != last[0] {
                moves += 1;
                // A jump to the next multiple of CHUNK (or past it, to the first message kept).
                assert!(
                    ids[0] / CHUNK as u64 > last[0] / CHUNK as u64,
                    "{} -> {}",
                    last[0],
                    ids[0]
                );
            } else {
                assert_eq!(&ids[..last.len()], &last[..], "only added at the end");
            }
            last = ids;
        }
        // At most one move per CHUNK message ids, and some.
        let ids = (last.last().unwrap() - start) as usize;
        assert!(
            moves > 0 && moves <= ids / CHUNK + 1,
            "{moves} moves over {ids} ids"
        );
    }

    #[test]
    fn the_window_has_a_lifeline_each_and_the_joins_with_their_errors() {
        let mut w = three_joined();
        let view = w.view();
        let s = crate::i18n::Lang::En.strings();
        let d = Diagram::of(&w, &view, s, true);
        let names: Vec<&str> = d.lanes.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(&names[..1], ["broker 0"], "the coordinator first");
        for c in ["C1", "C2", "C3"] {
            assert!(names.contains(&c), "{names:?}");
        }
        assert!(d.rows.len() < PAST + CHUNK);
        assert_eq!(d.now_row, d.rows.len(), "nothing recorded after the end");
        // Seek back: the same session's next messages are drawn after the marker.
        w.seek(SimTime(3_500));
        let view = w.view();
        let d = Diagram::of(&w, &view, s, true);
        assert!(d.rows[d.now_row..].iter().all(|r| r.when == When::Later));
        assert_eq!(d.rows.len() - d.now_row, LATER);
        let joins = d
            .rows
            .iter()
            .filter(|r| r.msg.api() == rebalance_engine::protocol::Api::JoinGroup)
            .count();
        assert!(joins >= 3, "{joins}");
        assert!(
            d.rows
                .iter()
                .any(|r| r.error == Some(ErrorCode::MemberIdRequired)),
            "KIP-394: a first JoinGroup is answered MEMBER_ID_REQUIRED"
        );
    }

    #[test]
    fn the_export_is_xml_with_escaped_names() {
        let mut w = World::new(3);
        let mut c = default_consumer("A&B <\"x\">");
        c.client_id = "a".into();
        w.apply(Command::AddConsumer(Box::new(c))).unwrap();
        for _ in 0..60 {
            w.advance(100.0);
        }
        let view = w.view();
        let s = crate::i18n::Lang::Zh.strings();
        let d = Diagram::of(&w, &view, s, true);
        let svg = export_svg(&d, s, "test_group_1");
        assert!(svg.starts_with(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\""
        ));
        assert!(svg.contains("A&amp;B &lt;&quot;x&quot;&gt;"), "{svg}");
        assert!(!svg.contains("A&B"));
        assert!(svg.contains("<title id=\"seq-title\">消费者组 test_group_1"));
        assert!(svg.trim_end().ends_with("</svg>"));
        // Every element opened is closed (a cheap well-formedness check; the e2e test parses it).
        let opened = svg.matches("<g").count();
        assert_eq!(opened, svg.matches("</g>").count());
    }
}
