//! One component per file.

mod group_panel;
mod header;
mod lang_switch;
mod state_diagram;

pub use group_panel::GroupPanel;
pub use header::Header;
pub use lang_switch::LangSwitch;
pub use state_diagram::{GroupStateId, StateDiagram};

use yew::prelude::*;

use crate::i18n::{Lang, Strings};

/// The string table of the language in the nearest context (English outside any provider).
#[hook]
pub fn use_strings() -> &'static Strings {
    use_context::<Lang>().unwrap_or(Lang::En).strings()
}
