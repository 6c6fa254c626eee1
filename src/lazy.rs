//! What the first load does not carry: the parts of the app a release build splits into modules
//! of their own, fetched once the page is interactive or when first needed.
//!
//! Each split point is a function that returns what the app needs of its part (a few function
//! pointers, or a result). With the `split` feature (the release build, `scripts/build-app.sh`)
//! it is a split point of `wasm_split_helpers`: calling it fetches its module the first time, and
//! the build moves into that module every function that only it reaches. Without the feature (the
//! tests, `trunk serve`) it is the same function, called at once. Either way the caller awaits it,
//! so the app behaves the same with and without the split; with it, a module the network did not
//! deliver is an error the app shows ([`NotLoaded`]), never a crash.

use yew::prelude::*;

use crate::components::{
    AddConsumerForm, CompareView, ConsolePanel, ConsumerList, EventLog, GroupStates, HelpOverlay,
    ImportedPanel, Inspector, LessonPanel, ReplicationPanel, SequenceDiagram, ShareBar, TopicPanel,
};
use crate::state::{Change, PlaygroundContext};

/// A part of the app whose module could not be fetched (the network failed; the failure is not
/// kept, so calling its split point again tries again).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotLoaded;

#[cfg(feature = "split")]
impl From<wasm_split_helpers::SplitLoaderError> for NotLoaded {
    fn from(_: wasm_split_helpers::SplitLoaderError) -> Self {
        // (The loader has logged the browser's reason to the console.)
        NotLoaded
    }
}

/// A split point: `name: fn f() -> T { ... }` becomes `async fn f() -> Result<T, NotLoaded>`,
/// split into the module `name` with the `split` feature.
macro_rules! split_point {
    ($(#[$doc:meta])* $module:ident: pub fn $name:ident() -> $ret:ty $body:block) => {
        $(#[$doc])*
        #[cfg(feature = "split")]
        // (Both sides of the call are this crate, built by one compiler.)
        #[allow(improper_ctypes_definitions)]
        #[wasm_split_helpers::wasm_split($module, fallible)]
        pub fn $name() -> Result<$ret, NotLoaded> {
            Ok($body)
        }

        $(#[$doc])*
        #[cfg(not(feature = "split"))]
        pub async fn $name() -> Result<$ret, NotLoaded> {
            Ok($body)
        }
    };
}

/// The detail panels: the side column, compare mode's columns and the keyboard help. They join
/// the group view once the app has taken over from the first view (at once when the page opens
/// in compare mode).
#[derive(Clone, Copy)]
pub struct Panels {
    /// The side column's panels (in compare mode, or not).
    pub side: fn(bool) -> Html,
    /// The keyboard help, with what closes it.
    pub help: fn(Callback<bool>) -> Html,
    /// Compare mode's columns, in place of the stage.
    pub compare: fn() -> Html,
    /// Opens compare mode on the story shown (or says why not).
    pub enter_compare: fn(&PlaygroundContext),
}

impl PartialEq for Panels {
    fn eq(&self, _: &Self) -> bool {
        // There is one of them.
        true
    }
}

fn side(comparing: bool) -> Html {
    if comparing {
        html! { <>
            <ConsumerList />
            <AddConsumerForm />
            <ShareBar />
        </> }
    } else {
        html! { <>
            <LessonPanel />
            <ImportedPanel />
            <Inspector />
            <ConsumerList />
            <AddConsumerForm />
            <EventLog />
            <GroupStates />
            <SequenceDiagram />
            <ReplicationPanel />
            <TopicPanel />
            <ConsolePanel />
            <ShareBar />
        </> }
    }
}

fn compare() -> Html {
    html! { <CompareView /> }
}

fn enter_compare(pg: &PlaygroundContext) {
    let entered = pg.world.borrow_mut().enter_compare();
    pg.dispatch(match entered {
        Ok(()) => Change::Compare(true),
        Err(why) => Change::Applied(Err(why)),
    });
}

fn help(onhelp: Callback<bool>) -> Html {
    html! { <HelpOverlay onclose={onhelp.reform(|_| false)} /> }
}

split_point! {
    /// The detail panels.
    panels: pub fn panels() -> Box<Panels> {
        Box::new(Panels {
            side,
            help,
            compare,
            enter_compare,
        })
    }
}

split_point! {
    /// Opens the session the page was opened with: the link in its URL or the autosaved session
    /// ([`crate::sharing::restore`]; the scenario reader comes with it).
    restore: pub fn restore() -> Box<crate::sharing::Restored> {
        Box::new(crate::sharing::restore())
    }
}

/// Where the detail panels are: not asked for yet or on their way, here, or not delivered.
#[derive(Clone, Copy, PartialEq)]
pub enum PanelsState {
    /// Not asked for yet, or on their way.
    Waiting,
    /// Here.
    Ready(Panels),
    /// Their module did not load; the callback of [`use_panels`] asks again.
    Failed,
}

/// The id of the detail panels' stylesheet (`static/panels.css`): scripts/build-app.sh writes it into
/// the page disabled, so that the first view neither fetches nor waits for it.
pub const PANELS_CSS_ID: &str = "panels-css";

/// Enables the detail panels' stylesheet and gives what resolves once the browser has applied it
/// (and fails if it could not be fetched); nothing to wait for when the page has none (the tests,
/// whose pages have no stylesheet) or has it already.
fn apply_panels_stylesheet() -> Option<wasm_bindgen_futures::JsFuture> {
    let link = web_sys::window()?.document()?.get_element_by_id(PANELS_CSS_ID)?;
    let sheet = js_sys::Reflect::get(&link, &"sheet".into()).ok()?;
    if !sheet.is_null() && !sheet.is_undefined() {
        return None;
    }
    let loaded = js_sys::Promise::new(&mut |ok, fail| {
        let _ = link.add_event_listener_with_callback("load", &ok);
        let _ = link.add_event_listener_with_callback("error", &fail);
    });
    // (Set again after a failure, so that "Try again" fetches it again.)
    let _ = link.set_attribute("disabled", "");
    let _ = link.remove_attribute("disabled");
    Some(wasm_bindgen_futures::JsFuture::from(loaded))
}

/// The detail panels ([`panels`]) and their stylesheet, fetched once `wanted`, and what asks for
/// them again after a failure.
#[hook]
pub fn use_panels(wanted: bool) -> (PanelsState, Callback<()>) {
    let state = use_state(|| PanelsState::Waiting);
    let attempt = use_state(|| 0u32);
    {
        let state = state.clone();
        use_effect_with((wanted, *attempt), move |&(wanted, _)| {
            if wanted && !matches!(*state, PanelsState::Ready(_)) {
                state.set(PanelsState::Waiting);
                let stylesheet = apply_panels_stylesheet();
                wasm_bindgen_futures::spawn_local(async move {
                    let module = panels().await;
                    let styled = match stylesheet {
                        Some(loaded) => loaded.await.is_ok(),
                        None => true,
                    };
                    state.set(match module {
                        Ok(p) if styled => PanelsState::Ready(*p),
                        _ => PanelsState::Failed,
                    });
                });
            }
        });
    }
    let retry = Callback::from(move |()| attempt.set(*attempt + 1));
    (*state, retry)
}
