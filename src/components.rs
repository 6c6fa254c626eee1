//! One component per file.

mod add_consumer_form;
mod announcer;
mod clock;
mod console_panel;
mod consumer_card;
mod consumer_list;
mod event_log;
mod group_panel;
mod header;
mod help_overlay;
mod inspector;
mod lang_switch;
mod legend;
mod lesson_panel;
mod moving_layer;
mod replication_panel;
mod sequence_diagram;
mod share_bar;
pub mod stage;
mod state_diagram;
mod timeline;
mod toolbar;
mod topic_panel;

pub use add_consumer_form::{check, AddConsumerForm, Draft, Field};
pub use announcer::Announcer;
pub use clock::Clock;
pub use console_panel::ConsolePanel;
pub use consumer_card::ConsumerCard;
pub use consumer_list::ConsumerList;
pub use event_log::EventLog;
pub use group_panel::GroupPanel;
pub use header::Header;
pub use help_overlay::HelpOverlay;
pub use inspector::Inspector;
pub use lang_switch::LangSwitch;
pub use legend::Legend;
pub use lesson_panel::LessonPanel;
pub use moving_layer::MovingLayer;
pub use replication_panel::ReplicationPanel;
pub use sequence_diagram::SequenceDiagram;
pub use share_bar::ShareBar;
pub use stage::Stage;
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
