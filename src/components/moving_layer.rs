use std::rc::Rc;

use rebalance_engine::network::Fault;
use rebalance_engine::{Endpoint, Payload};
use yew::prelude::*;

use super::stage::{fmt, Layout};
use super::{activate_on_enter, use_playground, use_strings};
use crate::explain::{endpoint, message_kind};
use crate::hooks::{use_frame, use_reduced_motion};
use crate::i18n::fill;
use crate::state::{Change, Selection};
use crate::style::{api_class, api_shape};

#[derive(PartialEq, Properties)]
pub struct MovingLayerProps {
    pub layout: Rc<Layout>,
}

/// Lane offset: requests travel on one side of the edge, responses on the other.
const LANE: f64 = 7.0;

/// What moves: every message in flight along its edge, each consumer's session and poll rings,
/// and its processing bar. This is the only part of the page that redraws on every frame.
#[component]
pub fn MovingLayer(props: &MovingLayerProps) -> Html {
    use_frame();
    let s = use_strings();
    let pg = use_playground();
    let reduced = use_reduced_motion();
    let layout = &props.layout;
    let world = pg.world.borrow();
    let now = world.now().as_millis() as f64;
    let view = &pg.view;
    let r = layout.radius;

    let rings = view.consumers.iter().filter_map(|c| {
        if !c.lifecycle.is_running() {
            return None;
        }
        let (x, y) = layout.position(&Endpoint::Consumer(c.name.clone()))?;
        let frac = |deadline: Option<rebalance_engine::SimTime>, span: u64| {
            deadline.map(|d| ((d.as_millis() as f64 - now) / span.max(1) as f64).clamp(0.0, 1.0))
        };
        let session = frac(c.session_deadline, c.config.session_timeout_ms);
        let poll = frac(c.poll_deadline, c.config.max_poll_interval_ms);
        let processing = c.processing.as_ref().map(|p| {
            let span = (p.until.as_millis() as f64 - p.since.as_millis() as f64).max(1.0);
            ((now - p.since.as_millis() as f64) / span).clamp(0.0, 1.0)
        });
        let ring = |radius: f64, f: f64, class: &'static str| {
            let circ = std::f64::consts::TAU * radius;
            html! {
                <circle class={classes!("ring", class, (f < 0.25).then_some("is-low"))} r={fmt(radius)}
                    stroke-dasharray={fmt(circ)} stroke-dashoffset={fmt(circ * (1.0 - f))}
                    transform="rotate(-90)" />
            }
        };
        Some(html! {
            <g key={c.name.clone()} class="rings" transform={format!("translate({},{})", fmt(x), fmt(y))}>
                if let Some(f) = session { { ring(r + 5.0, f, "ring-session") } }
                if let Some(f) = poll { { ring(r + 10.0, f, "ring-poll") } }
                if let Some(f) = processing {
                    <rect class="processing-track" x={fmt(-r)} y={fmt(r + 14.0)} width={fmt(2.0 * r)} height="5" rx="2" />
                    <rect class="processing-bar" x={fmt(-r)} y={fmt(r + 14.0)} width={fmt(2.0 * r * f)} height="5" rx="2" />
                }
            </g>
        })
    });

    let messages = world.messages_in_flight();
    let tokens = messages.into_iter().filter_map(|m| {
        let a = layout.position(&m.from)?;
        let b = layout.position(&m.to)?;
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = (dx * dx + dy * dy).sqrt().max(1.0);
        let (ux, uy) = (dx / len, dy / len);
        let start = (a.0 + ux * layout.extent(&m.from), a.1 + uy * layout.extent(&m.from));
        let end = (b.0 - ux * layout.extent(&m.to), b.1 - uy * layout.extent(&m.to));
        let span = (m.deliver_at.as_millis() as f64 - m.sent_at.as_millis() as f64).max(1.0);
        let mut p = ((now - m.sent_at.as_millis() as f64) / span).clamp(0.0, 1.0);
        if reduced {
            // No gliding: the token sits at the sender, then at the receiver.
            p = if p < 0.5 { 0.0 } else { 1.0 };
        }
        let request = m.payload.is_request();
        let lane = if request { LANE } else { -LANE };
        let (x, y) = (
            start.0 + (end.0 - start.0) * p - uy * lane,
            start.1 + (end.1 - start.1) * p + ux * lane,
        );
        let api = m.api();
        let error = match &m.payload {
            Payload::Response(resp) if !resp.error_code().is_none() => Some(resp.error_code()),
            _ => None,
        };
        let doomed = m.fault == Some(Fault::Dropped);
        let kind = message_kind(s, error.is_some(), request);
        let mut label = fill(
            s.stage.token,
            &[("api", api.name()), ("kind", kind), ("from", &endpoint(s, &m.from)), ("to", &endpoint(s, &m.to))],
        );
        if let Some(e) = error {
            label.push_str(": ");
            label.push_str(e.name());
        }
        if doomed {
            label.push_str(" (");
            label.push_str(s.stage.lost);
            label.push(')');
        }
        let key = m.id;
        let is_selected = matches!(&pg.selection, Some(Selection::Message(sel)) if sel.id == m.id);
        let onclick = {
            let pg = pg.clone();
            let m = Rc::new(m.clone());
            Callback::from(move |_: MouseEvent| pg.dispatch(Change::Select(Some(Selection::Message(m.clone())))))
        };
        Some(html! {
            <g key={key}
                class={classes!("token", api_class(api), if request { "is-request" } else { "is-response" },
                    error.is_some().then_some("is-error"), doomed.then_some("is-doomed"),
                    is_selected.then_some("is-selected"))}
                transform={format!("translate({},{})", fmt(x), fmt(y))}
                role="button" tabindex="0" aria-label={label} data-api={api.name()} {onclick} onkeydown={activate_on_enter()}>
                <path d={api_shape(api)} />
                if let Some(e) = error {
                    <text class="token-error" x="12" y="4">{ e.name() }</text>
                }
            </g>
        })
    });

    html! {
        <g class="moving-layer">
            <g class="moving-rings" aria-hidden="true">{ for rings }</g>
            <g class="moving-tokens">{ for tokens }</g>
        </g>
    }
}
