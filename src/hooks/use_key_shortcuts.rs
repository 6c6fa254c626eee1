use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;
use yew::prelude::*;

/// Listens to `keydown` on the document while the component lives and hands each key press that
/// is not meant for a text field (or a modifier combination) to `on_key`. Returns nothing; the
/// listener is removed on unmount.
#[hook]
pub fn use_key_shortcuts(on_key: Callback<KeyboardEvent>) {
    let latest = use_mut_ref(|| on_key.clone());
    *latest.borrow_mut() = on_key;

    use_effect_with((), move |_| {
        let document = web_sys::window().and_then(|w| w.document());
        let listener = Closure::<dyn FnMut(KeyboardEvent)>::new(move |e: KeyboardEvent| {
            if e.ctrl_key() || e.meta_key() || e.alt_key() || e.default_prevented() {
                return;
            }
            let typing = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .is_some_and(|el| {
                    let tag = el.tag_name().to_ascii_lowercase();
                    matches!(tag.as_str(), "input" | "select" | "textarea")
                        || el.has_attribute("contenteditable")
                });
            if typing {
                return;
            }
            let cb = latest.borrow().clone();
            cb.emit(e);
        });
        super::listen(document.map(Into::into), &["keydown"], listener)
    });
}
