use wasm_bindgen::closure::Closure;
use web_sys::MediaQueryList;
use yew::prelude::*;

/// The stylesheet's phone layout (`static/styles.css` has the same breakpoint).
pub const PHONE: &str = "(max-width: 640px)";
/// The stylesheet's one-column layout.
pub const ONE_COLUMN: &str = "(max-width: 1000px)";

fn media(query: &str) -> Option<MediaQueryList> {
    crate::prefs::window()?.match_media(query).ok().flatten()
}

/// Whether the page matches a CSS media query, kept up to date while the component lives (a phone
/// turned sideways, a window made narrower). The listener is removed on unmount.
#[hook]
pub fn use_media_query(query: &'static str) -> bool {
    let matches = use_state(|| media(query).is_some_and(|m| m.matches()));
    let set = matches.setter();
    use_effect_with(query, move |query| {
        let list = media(query);
        let listener = {
            let list = list.clone();
            Closure::<dyn FnMut()>::new(move || set.set(list.as_ref().is_some_and(|m| m.matches())))
        };
        super::listen(list.map(Into::into), &["change"], listener)
    });
    *matches
}
