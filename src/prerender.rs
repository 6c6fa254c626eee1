//! The first view the release build writes into `index.html`, and the app taking it over.
//!
//! `src/bin/prerender.rs` renders [`crate::App`] natively, at t=0, in both languages, with Yew's
//! server renderer: the app's first view, the group view (the header, the toolbar, the timeline,
//! the stage, the group's facts and the main controls) without the detail panels beside it, which
//! the app renders once it runs (the whole page took the browser about three times as long to lay
//! out before its first paint). It puts the result into the page (Trunk runs it after a release
//! build, see `scripts/post-build.sh`): the English view in [`ROOT_ID`], the Chinese one in the template
//! [`ZH_TEMPLATE_ID`], and a few lines of inline script that show the Chinese one to a Chinese
//! browser, before anything else is fetched. The page so shows the group, its state and the
//! controls as soon as the HTML arrives.
//!
//! The app does not hydrate that markup (Yew's `hydration` feature would add its code to the
//! bundle, and the first view must match the app's first render node for node); it renders itself
//! beside it, hidden while the first view is there (`static/styles.css`), and removes the first
//! view in the same task in which it has rendered everything ([`take_over`]), so the browser never
//! paints both, nor neither.

/// The id of the element that holds the prerendered first view.
pub const ROOT_ID: &str = "prerender";
/// The event the window gets once the app has taken over from the first view ([`take_over`]): the
/// first view's script registers the service worker then, so that the worker's downloads of the
/// whole release do not compete with the app's start (the first click that works).
pub const TOOK_OVER_EVENT: &str = "playground-took-over";

/// The id of the `<template>` that holds the Chinese first view.
pub const ZH_TEMPLATE_ID: &str = "prerender-zh";

/// The element the app mounts into: a `div.app-root` appended to `<body>`, after the prerendered
/// first view. Yew empties the element it mounts into, so mounting into `<body>` itself would
/// remove the first view (and the scripts beside it) before the app has rendered anything.
pub fn app_root() -> Option<web_sys::Element> {
    let doc = document()?;
    let body = doc.body()?;
    let root = doc.create_element("div").ok()?;
    root.set_class_name("app-root");
    body.append_child(&root).ok()?;
    Some(root)
}

/// Whether the page has a prerendered first view (release builds; `trunk serve` has none).
pub fn present() -> bool {
    document().is_some_and(|d| d.get_element_by_id(ROOT_ID).is_some())
}

/// Whether the app's own (still hidden) view has at least as many panels as the prerendered one:
/// Yew may render the app's components over more than one task, and the first view stays until
/// the app's is whole, so that the page never shows half of it.
pub fn app_is_whole() -> bool {
    let Some(doc) = document() else { return true };
    let Some(first) = doc.get_element_by_id(ROOT_ID) else {
        return true;
    };
    let count = |list: Result<web_sys::NodeList, wasm_bindgen::JsValue>| list.map_or(0, |l| l.length());
    let prerendered = count(first.query_selector_all(".panel"));
    let all = count(doc.query_selector_all(".panel"));
    all.saturating_sub(prerendered) >= prerendered
}

/// Removes the prerendered first view, now that the app has rendered its own; whether there was
/// one.
pub fn take_over() -> bool {
    let Some(doc) = document() else { return false };
    let mut removed = false;
    for id in [ROOT_ID, ZH_TEMPLATE_ID] {
        if let Some(el) = doc.get_element_by_id(id) {
            el.remove();
            removed = true;
        }
    }
    if removed {
        if let (Some(window), Ok(event)) = (web_sys::window(), web_sys::Event::new(TOOK_OVER_EVENT)) {
            let _ = window.dispatch_event(&event);
        }
    }
    removed
}

fn document() -> Option<web_sys::Document> {
    // Natively (the build's prerender) there is no browser to ask.
    if cfg!(target_arch = "wasm32") {
        web_sys::window()?.document()
    } else {
        None
    }
}

/// The keys of the saved choices the inline script reads before the app runs.
pub use crate::prefs::{LANG_KEY, PRESENTATION_KEY};

/// Runs `start` (the app's first render) once the browser has painted the prerendered first view:
/// started at once, the app's first render would hold the first paint back by as long as it takes.
/// When the module comes after that paint (a slow network, a busy machine), it starts at once
/// rather than a frame later.
pub fn after_first_paint(start: impl FnOnce() + 'static) {
    if painted() {
        start();
    } else {
        crate::app::after_next_paint(start);
    }
}

/// Whether the browser has reported the page's first paint (its paint timing).
fn painted() -> bool {
    web_sys::window()
        .and_then(|w| w.performance())
        .is_some_and(|p| p.get_entries_by_type("paint").length() > 0)
}
