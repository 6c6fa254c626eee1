//! One component per file.

mod add_consumer_form;
mod alert_bar;
mod announcer;
mod clock;
mod compare_view;
mod console_panel;
pub mod consumer_card;
mod consumer_list;
mod event_log;
mod group_panel;
mod group_states;
mod header;
mod help_overlay;
mod imported_panel;
mod inspector;
mod lang_switch;
mod legend;
mod lesson_panel;
mod moving_layer;
mod replication_panel;
mod sequence_diagram;
mod share_bar;
pub mod stage;
mod stage_actions;
mod state_diagram;
mod timeline;
mod toolbar;
mod topic_panel;

pub use add_consumer_form::{check, AddConsumerForm, Draft, Field};
pub use alert_bar::AlertBar;
pub use announcer::Announcer;
pub use clock::Clock;
pub use compare_view::{protocol_name, CompareSummary, CompareToggle, CompareView, OwnershipChart};
pub use console_panel::ConsolePanel;
pub use consumer_card::ConsumerCard;
pub use consumer_list::ConsumerList;
pub use event_log::EventLog;
pub use group_panel::GroupPanel;
pub use group_states::GroupStates;
pub use header::Header;
pub use help_overlay::HelpOverlay;
pub use imported_panel::ImportedPanel;
pub use inspector::Inspector;
pub use lang_switch::LangSwitch;
pub use legend::Legend;
pub use lesson_panel::LessonPanel;
pub use moving_layer::MovingLayer;
pub use replication_panel::ReplicationPanel;
pub use sequence_diagram::SequenceDiagram;
pub use share_bar::ShareBar;
pub use stage::Stage;
pub use stage_actions::StageActions;
pub use state_diagram::{StateDiagram, StateLook};
pub use timeline::Timeline;
pub use toolbar::Toolbar;
pub use topic_panel::TopicPanel;

use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::i18n::{Lang, Strings};
use crate::state::PlaygroundContext;

/// The string table of the language in the nearest context (English outside any provider).
#[hook]
pub fn use_strings() -> &'static Strings {
    use_context::<Lang>().unwrap_or(Lang::En).strings()
}

/// The playground from the nearest context. Every playground component sits under the `App` (or a
/// test's provider); outside one this is a programming error.
#[hook]
pub fn use_playground() -> PlaygroundContext {
    use_context::<PlaygroundContext>().expect("playground components need a PlaygroundContext provider")
}

/// A `keydown` handler for elements with `role="button"` that are not buttons (SVG nodes, tokens,
/// log lines): Enter or Space clicks them, as on a real button.
pub fn activate_on_enter() -> Callback<KeyboardEvent> {
    Callback::from(|e: KeyboardEvent| {
        if e.key() != "Enter" && e.key() != " " {
            return;
        }
        e.prevent_default();
        e.stop_propagation();
        // Yew delegates events to its root, so the focused element is the target, not the
        // current target.
        let el = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|t| t.closest("[role=button]").ok().flatten());
        let Some(el) = el else { return };
        let init = web_sys::MouseEventInit::new();
        init.set_bubbles(true);
        if let Ok(click) = web_sys::MouseEvent::new_with_mouse_event_init_dict("click", &init) {
            let _ = el.dispatch_event(&click);
        }
    })
}

/// Once the change being rendered is on the page, moves the keyboard focus to the first element
/// matching `selector` without scrolling to it (a heading gets `tabindex="-1"` for this), and, with
/// `show_stage`, scrolls the stage into view when it is out of it (on a phone, where the panels are
/// below the stage).
pub fn focus_soon(selector: &'static str, show_stage: bool) {
    gloo_timers::callback::Timeout::new(0, move || {
        let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        if let Some(el) = doc.query_selector(selector).ok().flatten() {
            focus_without_scrolling(&el);
        }
        if show_stage {
            let stage = doc
                .query_selector(".stage")
                .ok()
                .flatten()
                .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
            let scrolled = web_sys::window().and_then(|w| w.scroll_y().ok()).unwrap_or(0.0);
            if let Some(stage) = stage {
                if scrolled > f64::from(stage.offset_top()) + 40.0 {
                    stage.scroll_into_view();
                }
            }
        }
    })
    .forget();
}

/// Once the change being rendered is on the page, scrolls the first element matching `selector`
/// into view within its scrolling panel (the nearest edge; a lesson's narration as it is revealed).
pub fn reveal_soon(selector: &'static str) {
    gloo_timers::callback::Timeout::new(0, move || {
        let el = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.query_selector(selector).ok().flatten());
        if let Some(el) = el {
            el.scroll_into_view_with_bool(false);
        }
    })
    .forget();
}

/// Once the change being rendered is on the page, focuses the first element matching `selector`
/// and scrolls it into view.
pub fn focus_visible_soon(selector: &'static str) {
    gloo_timers::callback::Timeout::new(0, move || {
        let el = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.query_selector(selector).ok().flatten())
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
        if let Some(el) = el {
            let _ = el.focus();
        }
    })
    .forget();
}

/// Once the change being rendered is on the page, gives the focus back to `group` (a button
/// group) if it fell out of it: to its first button (a Kill or Close button that went, replaced
/// by Restart). If the group itself went, to the stage's action bar.
pub fn refocus_in(group: web_sys::Element) {
    gloo_timers::callback::Timeout::new(0, move || {
        let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let inside = doc
            .active_element()
            .is_some_and(|a| group.contains(Some(&a)) && a.tag_name() != "BODY");
        if inside {
            return;
        }
        let target = if group.is_connected() {
            group.query_selector("button").ok().flatten()
        } else {
            doc.query_selector(".stage-actions button").ok().flatten()
        };
        if let Some(el) = target {
            focus_without_scrolling(&el);
        }
    })
    .forget();
}

/// Once the change being rendered is on the page, focuses the element with this id without
/// scrolling the page.
pub fn focus_id_soon(id: String) {
    gloo_timers::callback::Timeout::new(0, move || {
        let el = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id(&id));
        if let Some(el) = el {
            focus_without_scrolling(&el);
        }
    })
    .forget();
}

/// Once the change being rendered is on the page, focuses the element with this id, scrolling
/// it into view within its list.
pub fn focus_visible_id_soon(id: String) {
    gloo_timers::callback::Timeout::new(0, move || {
        let el = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id(&id))
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
        if let Some(el) = el {
            let _ = el.focus();
        }
    })
    .forget();
}

/// `template` filled with `args`, its `{name}` isolated in a `<bdi>` (a name in any script, mixed
/// with the sentence around it, does not reorder it).
pub fn with_name(template: &str, name: &str, args: &[(&str, &str)]) -> Html {
    match template.split_once("{name}") {
        Some((before, after)) => html! {
            <>{ crate::i18n::fill(before, args) }<bdi>{ name.to_owned() }</bdi>{ crate::i18n::fill(after, args) }</>
        },
        None => html! { { crate::i18n::fill(template, args) } },
    }
}

/// `text` with each whole-word occurrence of `name` isolated in a `<bdi>` (a log line's sentence
/// around its consumer's name, in any script, keeps its order).
pub fn isolate(text: &str, name: &str) -> Html {
    isolate_names(text, &[name])
}

/// Every user-given name the panels may mention (consumer names, client ids, static instance ids,
/// member ids, the group id, topic names), longest first and without repeats: what
/// [`isolate_names`] looks for in a sentence.
pub fn shown_names(view: &crate::world::View) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    names.push(view.group.group_id.clone());
    for c in &view.consumers {
        names.push(c.name.clone());
        names.push(c.client_id.clone());
        names.push(c.member_id.clone());
        names.extend(c.group_instance_id.iter().cloned());
    }
    names.extend(view.topics.iter().map(|t| t.name.clone()));
    names.retain(|n| !n.is_empty());
    rebalance_engine::sort::sort(&mut names);
    names.dedup();
    // Longest first: a member id `C1-1` is isolated whole, not as `C1` and a rest.
    names.sort_by_key(|n| std::cmp::Reverse(n.len()));
    names
}

/// `text` with each whole-word occurrence of any of `names` isolated in a `<bdi>` (a sentence
/// that mentions names in any script keeps its order). At each place the first name that
/// matches wins: give the longest first.
pub fn isolate_names<S: AsRef<str>>(text: &str, names: &[S]) -> Html {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '-');
    // Only the names the text holds are looked for at each place (a console answer is long).
    let names: Vec<&str> = names
        .iter()
        .map(AsRef::as_ref)
        .filter(|n| !n.is_empty() && text.contains(*n))
        .collect();
    if names.is_empty() {
        return html! { { text.to_owned() } };
    }
    let mut parts: Vec<Html> = Vec::new();
    let mut rest = 0;
    let mut at = 0;
    while at < text.len() {
        let here = &text[at..];
        let found = names.iter().copied().find(|n| {
            here.starts_with(*n)
                && !word(text[..at].chars().next_back())
                && !word(text[at + n.len()..].chars().next())
        });
        match found {
            Some(n) => {
                if rest < at {
                    parts.push(html! { { text[rest..at].to_owned() } });
                }
                parts.push(html! { <bdi>{ n.to_owned() }</bdi> });
                at += n.len();
                rest = at;
            }
            None => at += here.chars().next().map_or(1, char::len_utf8),
        }
    }
    if rest < text.len() {
        parts.push(html! { { text[rest..].to_owned() } });
    }
    html! { <>{ for parts }</> }
}

/// A user-given name (a client id, an instance id, a topic) shown among other text.
pub fn name_text(name: &str) -> Html {
    html! { <bdi>{ name.to_owned() }</bdi> }
}

/// `el.focus({ preventScroll: true })`.
pub fn focus_without_scrolling(el: &web_sys::Element) {
    let options = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&options, &"preventScroll".into(), &true.into());
    if let Ok(focus) = js_sys::Reflect::get(el, &"focus".into()) {
        if let Some(f) = focus.dyn_ref::<js_sys::Function>() {
            let _ = f.call1(el, &options);
        }
    }
}
pub use compare_view::CompareStage;
pub use state_diagram::ConsumerStateDiagram;
