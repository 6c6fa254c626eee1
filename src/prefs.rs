//! What the browser tells us about the user, and what we remember between visits.
//!
//! Every access is fallible (no window in a test harness, storage disabled in private mode):
//! a failure means "no preference", never a panic.

use crate::i18n::Lang;

/// The key of the saved language (the prerendered page's inline script reads it too).
pub const LANG_KEY: &str = "rebalance-playground.lang";

/// The browser's window; none natively, where the build's prerender renders the app (a
/// `web_sys` call there would panic).
pub(crate) fn window() -> Option<web_sys::Window> {
    if cfg!(target_arch = "wasm32") {
        web_sys::window()
    } else {
        None
    }
}

/// The language to start in: the one the user chose last time, else the browser's.
pub(crate) fn initial_lang() -> Lang {
    let window = window();
    let saved = window
        .as_ref()
        .and_then(|w| w.local_storage().ok().flatten())
        .and_then(|s| s.get_item(LANG_KEY).ok().flatten());
    let browser = window.and_then(|w| w.navigator().language());
    saved
        .or(browser)
        .map(|tag| Lang::from_tag(&tag))
        .unwrap_or(Lang::En)
}

/// Remembers the user's choice and tells the document which language it is in.
pub(crate) fn apply_lang(lang: Lang) {
    let Some(window) = window() else { return };
    if let Ok(Some(storage)) = window.local_storage() {
        // Storage can be full or disabled; the choice then lasts for this visit only.
        let _ = storage.set_item(LANG_KEY, lang.tag());
    }
    if let Some(document) = window.document() {
        document.set_title(lang.strings().app_title);
        if let Some(root) = document.document_element() {
            let _ = root.set_attribute("lang", lang.tag());
        }
    }
}

/// The key of the saved presentation mode (the prerendered page's inline script reads it too).
pub const PRESENTATION_KEY: &str = "rebalance-playground.presentation";

/// Whether the user left presentation mode on last time.
pub(crate) fn initial_presentation() -> bool {
    window()
        .and_then(|w| w.local_storage().ok().flatten())
        .and_then(|s| s.get_item(PRESENTATION_KEY).ok().flatten())
        .is_some_and(|v| v == "on")
}

/// Remembers whether presentation mode is on.
pub(crate) fn save_presentation(on: bool) {
    if let Some(storage) = window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = storage.set_item(PRESENTATION_KEY, if on { "on" } else { "off" });
    }
}

/// A seed for a new simulation: the wall clock's sub-millisecond digits, mixed.
pub(crate) fn fresh_seed(previous: u64) -> u64 {
    let now = window().and_then(|w| w.performance()).map_or(0.0, |p| p.now());
    let mut z = previous ^ now.to_bits() ^ 0x9E37_79B9_7F4A_7C15;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) % 1_000_000
}
