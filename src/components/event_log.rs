use rebalance_engine::collections::{Map, Set};
use std::rc::Rc;

use rebalance_engine::sim::{SimEvent, SimEventKind};
use rebalance_engine::{EventKind, GroupState};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::{activate_on_enter, use_playground, use_strings};
use crate::explain::{explain, Context, GroupFacts};
use crate::i18n::{fill, Lang};
use crate::state::{Change, LogFilter, Selection};
use crate::style::APIS;
use wasm_bindgen::JsCast;

/// How many entries the log shows.
const SHOWN: usize = 80;

#[derive(Properties)]
struct LineProps {
    /// Which world the entry belongs to (numbers restart after a reset).
    world: usize,
    event: Rc<SimEvent>,
    state_at: Option<GroupState>,
    group: GroupFacts,
    lang: Lang,
    selected: bool,
    /// Whether this line is the log's one tab stop (roving tabindex).
    tab_stop: bool,
    /// The user-given names a line may mention, isolated where they appear
    /// ([`super::shown_names`]).
    names: Rc<Vec<String>>,
    onselect: Callback<u64>,
}

impl PartialEq for LineProps {
    fn eq(&self, other: &Self) -> bool {
        // A log entry never changes: its number identifies it.
        self.event.seq == other.event.seq
            && self.world == other.world
            && self.lang == other.lang
            && self.selected == other.selected
            && self.tab_stop == other.tab_stop
            && self.state_at == other.state_at
            && self.group == other.group
            && self.names == other.names
    }
}

#[component]
fn LogLine(props: &LineProps) -> Html {
    let s = props.lang.strings();
    let ev = &props.event;
    let text = explain(
        s,
        ev,
        &Context {
            state_at: props.state_at,
            group: props.group,
        },
    );
    let seq = ev.seq;
    let onclick = props.onselect.reform(move |_: MouseEvent| seq);
    let source = match &ev.kind {
        SimEventKind::Coordinator { .. } => "src-coordinator",
        SimEventKind::Client { .. } => "src-client",
        SimEventKind::Network { .. } => "src-network",
        SimEventKind::World { .. } => "src-world",
    };
    let important = matches!(
        &ev.kind,
        SimEventKind::Coordinator {
            event: EventKind::StateChanged { .. }
                | EventKind::GenerationChanged { .. }
                | EventKind::LeaderChanged { .. },
            ..
        }
    );
    html! {
        <li class={classes!("log-line", source, important.then_some("is-important"), ev.is_routine().then_some("is-detail"),
                props.selected.then_some("is-selected"))}
            id={format!("log-line-{seq}")} data-seq={seq.to_string()}
            role="button" tabindex={if props.tab_stop { "0" } else { "-1" }} {onclick} onkeydown={activate_on_enter()}
            aria-pressed={props.selected.to_string()}>
            <span class="log-time mono">{ format!("{}.{:03}", ev.at.as_millis() / 1000, ev.at.as_millis() % 1000) }</span>
            <span class="log-text">{ super::isolate_names(&text, &props.names) }</span>
        </li>
    }
}

/// The log, newest first, filterable by consumer and by API; each line explained in words.
#[component]
pub fn EventLog() -> Html {
    let s = use_strings();
    let lang = use_context::<Lang>().unwrap_or(Lang::En);
    let pg = use_playground();
    // The filter lives in the playground: Step and the timeline's arrows follow what is shown.
    let filter = pg.log_filter.clone();
    // The line that is the log's tab stop (the arrow keys move it); by default the selected
    // line, else the newest.
    let active = use_state(|| None::<u64>);
    // Each shown entry is copied out of the engine's log once, then shared between renders.
    let cache = use_mut_ref(|| (0usize, Map::<u64, Rc<SimEvent>>::new()));
    // A reset builds a new world whose entries are numbered from 1 again.
    let world_id = Rc::as_ptr(&pg.world) as usize;
    if cache.borrow().0 != world_id {
        *cache.borrow_mut() = (world_id, Default::default());
    }

    let group = GroupFacts::of(&pg.view.group);
    let names = {
        // One list while the names stay the same, so that unchanged lines are not drawn again.
        let now = super::shown_names(&pg.view);
        let kept = use_mut_ref(|| Rc::new(Vec::<String>::new()));
        if **kept.borrow() != now {
            *kept.borrow_mut() = Rc::new(now);
        }
        let names = kept.borrow().clone();
        names
    };
    let lines = {
        let world = pg.world.borrow();
        let log = world.log();
        // Logged up to the copy the panels show, so the log is in step with the rest.
        let upto = pg.view.log_len.min(log.len());
        let mut state = pg.view.group.state;
        let mut out = Vec::with_capacity(SHOWN);
        for ev in log[..upto].iter().rev() {
            let state_at = state;
            if let SimEventKind::Coordinator {
                event: EventKind::StateChanged { from, .. },
                ..
            } = &ev.kind
            {
                state = *from;
            }
            if out.len() >= SHOWN {
                break;
            }
            if !filter.shows(ev) {
                continue;
            }
            let shared = cache
                .borrow_mut()
                .1
                .entry(ev.seq)
                .or_insert_with(|| Rc::new(ev.clone()))
                .clone();
            out.push((shared, state_at));
        }
        // Forget what is no longer shown (a reset starts numbering again).
        let keep: Set<u64> = Set::from_iter(out.iter().map(|(e, _)| e.seq));
        cache.borrow_mut().1.retain(|seq, _| keep.contains(seq));
        out
    };

    let onselect = {
        let pg = pg.clone();
        Callback::from(move |seq: u64| pg.dispatch(Change::Select(Some(Selection::Event(seq)))))
    };
    let set_filter = |change: fn(&mut LogFilter, &web_sys::EventTarget)| {
        let pg = pg.clone();
        let filter = filter.clone();
        Callback::from(move |e: Event| {
            let Some(target) = e.target() else { return };
            let mut next = filter.clone();
            change(&mut next, &target);
            pg.dispatch(Change::SetLogFilter(next));
        })
    };
    let onconsumer = set_filter(|f, t| f.consumer = t.unchecked_ref::<HtmlSelectElement>().value());
    let onapi = set_filter(|f, t| f.api = t.unchecked_ref::<HtmlSelectElement>().value());
    let ondetails = set_filter(|f, t| f.details = t.unchecked_ref::<HtmlInputElement>().checked());
    let (consumer, api, details) = (&filter.consumer, &filter.api, filter.details);
    let selected = match &pg.selection {
        Some(Selection::Event(seq)) => Some(*seq),
        _ => None,
    };
    let order: Vec<u64> = lines.iter().map(|(e, _)| e.seq).collect();
    let tab_stop = active
        .filter(|a| order.contains(a))
        .or(selected.filter(|a| order.contains(a)))
        .or(order.first().copied());
    // One tab stop for the whole log; the arrow keys, Home and End move between its lines.
    let onlistkey = {
        let active = active.clone();
        let order = order.clone();
        Callback::from(move |e: KeyboardEvent| {
            let Some(current) = tab_stop else { return };
            let Some(i) = order.iter().position(|&s| s == current) else {
                return;
            };
            let last = order.len() - 1;
            let to = match e.key().as_str() {
                "ArrowDown" => (i + 1).min(last),
                "ArrowUp" => i.saturating_sub(1),
                "Home" => 0,
                "End" => last,
                _ => return,
            };
            e.prevent_default();
            e.stop_propagation();
            active.set(Some(order[to]));
            super::focus_visible_id_soon(format!("log-line-{}", order[to]));
        })
    };

    html! {
        <section class="event-log panel" aria-labelledby="log-heading">
            <h2 id="log-heading" class="panel-heading">{ s.log.heading }</h2>
            <div class="log-filters">
                <label>{ s.log.filter_consumer }
                    <select onchange={onconsumer}>
                        <option value="" selected={consumer.is_empty()}>{ s.log.all }</option>
                        { for pg.view.consumers.iter().map(|c| html! {
                            <option value={c.name.clone()} selected={*consumer == c.name} title={c.name.clone()}>{ super::stage::shorten(&c.name, 24) }</option>
                        }) }
                    </select>
                </label>
                <label>{ s.log.filter_api }
                    <select onchange={onapi}>
                        <option value="" selected={api.is_empty()}>{ s.log.all }</option>
                        { for APIS.iter().map(|a| html! {
                            <option value={a.name()} selected={*api == a.name()}>{ a.name() }</option>
                        }) }
                    </select>
                </label>
                <label class="log-details">
                    <input type="checkbox" checked={details} onchange={ondetails} />
                    { s.log.details }
                </label>
            </div>
            if lines.is_empty() {
                <p class="panel-empty">{ s.log.empty }</p>
            } else {
                <p class="log-count">{ fill(s.log.showing, &[("n", &lines.len().to_string())]) }</p>
                <ol class={classes!("log-lines", (lines.len() >= SHOWN).then_some("is-full"))} aria-label={s.log.heading} onkeydown={onlistkey}>
                    { for lines.into_iter().map(|(ev, state_at)| {
                        let seq = ev.seq;
                        html! {
                            <LogLine key={seq} world={world_id} event={ev} {state_at} {group} {lang} selected={selected == Some(seq)}
                                tab_stop={tab_stop == Some(seq)} names={names.clone()} onselect={onselect.clone()} />
                        }
                    }) }
                </ol>
            }
        </section>
    }
}
