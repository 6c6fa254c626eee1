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
//!
//! Until then the first view's controls cannot act, but what the reader does with them is not lost:
//! the inline script before the first view keeps each click on one of its buttons, and each key
//! pressed with nothing focused, in [`EARLY_INPUT`] (at most [`EARLY_INPUT_LIMIT`]), and marks a
//! clicked button as waiting. Once the app has taken over, it replays them in order on its own
//! controls ([`EarlyInput`]): the same button, found by the same path from the root (the app's
//! first view is the prerendered one, node for node), and the same key, to the app's shortcuts.
//! What is a state rather than an action (a slider's value, an open `<details>`, the focus) it
//! carries over as it takes over.

/// The id of the element that holds the prerendered first view.
pub const ROOT_ID: &str = "prerender";
/// The event the window gets once the app has taken over from the first view ([`take_over`]): the
/// first view's script registers the service worker then, so that the worker's downloads of the
/// whole release do not compete with the app's start (the first click that works).
pub const TOOK_OVER_EVENT: &str = "playground-took-over";

/// The id of the `<template>` that holds the Chinese first view.
pub const ZH_TEMPLATE_ID: &str = "prerender-zh";

/// The property of `window` in which the first view's inline script keeps the reader's input until
/// the app takes over: an array of strings, each an [`EarlyInput`].
pub const EARLY_INPUT: &str = "__firstViewInput";
/// The most inputs kept before the app takes over; the script drops any after these.
pub const EARLY_INPUT_LIMIT: usize = 32;
/// The class the inline script gives a first-view button whose click waits for the app.
pub const WAITING_CLASS: &str = "is-waiting";

/// One thing the reader did in the first view before the app ran, as the inline script writes it:
/// `c` and the path of a button from the first view's root (child indices joined by `.`, such as
/// `c0.3.1`), or `k`, `S` or `-` for whether Shift was held, and the key (`k-a`, `kS?`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EarlyInput {
    Click(Vec<u32>),
    Key { key: String, shift: bool },
}

impl EarlyInput {
    /// The longest path and key read; the page is the writer, but a page's globals are anyone's.
    const MAX_DEPTH: usize = 64;
    const MAX_KEY_CHARS: usize = 16;

    /// Reads one entry; `None` for anything the inline script would not have written.
    pub fn parse(entry: &str) -> Option<Self> {
        if let Some(path) = entry.strip_prefix('c') {
            let steps: Vec<u32> = path.split('.').map(|n| n.parse().ok()).collect::<Option<_>>()?;
            (steps.len() <= Self::MAX_DEPTH).then_some(Self::Click(steps))
        } else if let Some(rest) = entry.strip_prefix('k') {
            let (shift, key) = match rest.chars().next()? {
                'S' => (true, &rest[1..]),
                '-' => (false, &rest[1..]),
                _ => return None,
            };
            let chars = key.chars().count();
            (1..=Self::MAX_KEY_CHARS).contains(&chars).then(|| Self::Key {
                key: key.to_owned(),
                shift,
            })
        } else {
            None
        }
    }
}

/// The class of the element the app mounts into ([`app_root`]).
const APP_ROOT_CLASS: &str = "app-root";

/// The element the app mounts into: a `div.app-root` appended to `<body>`, after the prerendered
/// first view. Yew empties the element it mounts into, so mounting into `<body>` itself would
/// remove the first view (and the scripts beside it) before the app has rendered anything.
pub fn app_root() -> Option<web_sys::Element> {
    let doc = document()?;
    let body = doc.body()?;
    let root = doc.create_element("div").ok()?;
    root.set_class_name(APP_ROOT_CLASS);
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
    let same_view = carry_over_state(&doc);
    let mut removed = false;
    for id in [ROOT_ID, ZH_TEMPLATE_ID] {
        if let Some(el) = doc.get_element_by_id(id) {
            el.remove();
            removed = true;
        }
    }
    if removed {
        // (Now that the app's view is shown: a hidden element cannot take the focus.)
        if let Some(el) = same_view.as_ref().and_then(|v| v.focus.as_ref()) {
            let _ = el.focus();
        }
        if let (Some(window), Ok(event)) = (web_sys::window(), web_sys::Event::new(TOOK_OVER_EVENT)) {
            let _ = window.dispatch_event(&event);
        }
        // After the effects of this render have run (the shortcuts' listener is one of them).
        let replay = same_view.is_some();
        wasm_bindgen_futures::spawn_local(async move { replay_early_input(replay) });
    }
    removed
}

/// The app's view is the first view, node for node, as it takes over; and the element of it to
/// focus, the one that had the focus in the first view.
struct SameView {
    focus: Option<web_sys::HtmlElement>,
}

/// Gives the app's (still hidden) view what the reader changed in the first view that is a state
/// rather than an action: a slider moved, a `<details>` opened or closed (it toggles without a
/// script), and the focus, to be given once the app's view is shown. The two views are the same
/// node for node when the app starts as the build rendered it, so the app's element for a
/// first-view element is the one at the same place in document order. When they differ (the app
/// opened a shared link or a saved session), nothing is carried over: `None`.
fn carry_over_state(doc: &web_sys::Document) -> Option<SameView> {
    use wasm_bindgen::JsCast;
    use web_sys::{Element, HtmlDetailsElement, HtmlInputElement};
    let first = doc.get_element_by_id(ROOT_ID)?;
    let app = mounted_root(doc)?;
    let elements = |root: &Element| -> Option<Vec<Element>> {
        let list = root.query_selector_all("*").ok()?;
        (0..list.length())
            .map(|i| list.item(i)?.dyn_into::<Element>().ok())
            .collect()
    };
    let (firsts, apps) = (elements(&first)?, elements(&app)?);
    if firsts.len() != apps.len()
        || firsts
            .iter()
            .zip(&apps)
            .any(|(f, a)| f.tag_name() != a.tag_name())
    {
        return None;
    }
    let active = doc.active_element();
    let mut focus = None;
    for (f, a) in firsts.iter().zip(&apps) {
        if active.as_ref() == Some(f) {
            focus = a.dyn_ref::<web_sys::HtmlElement>().cloned();
        }
        if let (Some(f), Some(a)) = (f.dyn_ref::<HtmlInputElement>(), a.dyn_ref::<HtmlInputElement>()) {
            if f.value() != f.default_value() && f.value() != a.value() {
                a.set_value(&f.value());
                let init = web_sys::EventInit::new();
                init.set_bubbles(true);
                if let Ok(event) = web_sys::Event::new_with_event_init_dict("input", &init) {
                    let _ = a.dispatch_event(&event);
                }
            }
        } else if let (Some(f), Some(a)) = (
            f.dyn_ref::<HtmlDetailsElement>(),
            a.dyn_ref::<HtmlDetailsElement>(),
        ) {
            if f.open() != a.open() {
                a.set_open(f.open());
            }
        }
    }
    Some(SameView { focus })
}

/// Replays on the app's own controls what the reader did in the first view (see the module's
/// documentation), and forgets it; only forgets it when the app's view is not the first view
/// (`replay` false): a click kept for one button must not press another.
fn replay_early_input(replay: bool) {
    use wasm_bindgen::JsCast;
    let (Some(window), Some(doc)) = (web_sys::window(), document()) else {
        return;
    };
    let key = wasm_bindgen::JsValue::from_str(EARLY_INPUT);
    let queue = js_sys::Reflect::get(&window, &key).ok();
    let _ = js_sys::Reflect::delete_property(&window, &key);
    if !replay {
        return;
    }
    let Some(queue) = queue.and_then(|q| q.dyn_into::<js_sys::Array>().ok()) else {
        return;
    };
    let Some(root) = mounted_root(&doc) else {
        return;
    };
    let entries: Vec<String> = queue
        .iter()
        .take(EARLY_INPUT_LIMIT)
        .filter_map(|e| e.as_string())
        .collect();
    for input in entries.iter().filter_map(|e| EarlyInput::parse(e)) {
        match input {
            EarlyInput::Click(path) => click_at(&root, &path),
            EarlyInput::Key { key, shift } => press(&doc, &key, shift),
        }
    }
}

/// Clicks the app's button at `path` from `root`, if there is one there and it is enabled.
fn click_at(root: &web_sys::Element, path: &[u32]) {
    use wasm_bindgen::JsCast;
    let mut el = root.clone();
    for &i in path {
        match el.children().item(i) {
            Some(child) => el = child,
            None => return,
        }
    }
    if el.tag_name().eq_ignore_ascii_case("button") && !el.has_attribute("disabled") {
        if let Ok(button) = el.dyn_into::<web_sys::HtmlElement>() {
            button.click();
        }
    }
}

/// Presses `key` on the document, where the app's shortcuts listen.
fn press(doc: &web_sys::Document, key: &str, shift: bool) {
    let init = web_sys::KeyboardEventInit::new();
    init.set_key(key);
    init.set_shift_key(shift);
    init.set_bubbles(true);
    init.set_cancelable(true);
    if let Ok(event) = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init) {
        let _ = doc.dispatch_event(&event);
    }
}

/// The element the app mounted into, once [`app_root`] has made it.
fn mounted_root(doc: &web_sys::Document) -> Option<web_sys::Element> {
    doc.query_selector(&format!(".{APP_ROOT_CLASS}")).ok().flatten()
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
/// When the module comes after that paint (a slow network, a busy machine), it starts in the next
/// task rather than a frame later: not in this one, so that a click or key that came while the
/// module was instantiated is handled (and kept for the app, see [`EarlyInput`]) before the render,
/// which takes a while, and not after it.
pub fn after_first_paint(start: impl FnOnce() + 'static) {
    if painted() {
        gloo_timers::callback::Timeout::new(0, start).forget();
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

#[cfg(test)]
mod tests {
    use super::EarlyInput;

    #[test]
    fn early_input_reads_what_the_inline_script_writes() {
        assert_eq!(
            EarlyInput::parse("c0.3.12"),
            Some(EarlyInput::Click(vec![0, 3, 12]))
        );
        assert_eq!(EarlyInput::parse("c4"), Some(EarlyInput::Click(vec![4])));
        assert_eq!(
            EarlyInput::parse("k-a"),
            Some(EarlyInput::Key {
                key: "a".into(),
                shift: false
            })
        );
        assert_eq!(
            EarlyInput::parse("kS?"),
            Some(EarlyInput::Key {
                key: "?".into(),
                shift: true
            })
        );
        assert_eq!(
            EarlyInput::parse("k-ArrowRight"),
            Some(EarlyInput::Key {
                key: "ArrowRight".into(),
                shift: false
            })
        );
    }

    #[test]
    fn early_input_refuses_anything_else() {
        for junk in [
            "",
            "c",
            "c.",
            "c1..2",
            "c-1",
            "c1.x",
            "c99999999999",
            "k",
            "k-",
            "kx",
            "kXa",
            "x0",
            "k-ABCDEFGHIJKLMNOPQ",
        ] {
            assert_eq!(EarlyInput::parse(junk), None, "{junk:?}");
        }
        let deep = format!("c{}", vec!["0"; 65].join("."));
        assert_eq!(EarlyInput::parse(&deep), None);
        let deepest = format!("c{}", vec!["0"; 64].join("."));
        assert!(EarlyInput::parse(&deepest).is_some());
    }
}
