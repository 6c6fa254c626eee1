//! Hooks that own browser resources: each one releases what it took when its component goes.

mod use_animation_frame;
mod use_frame;
mod use_key_shortcuts;
mod use_media_query;
mod use_reduced_motion;

pub use use_animation_frame::use_animation_frame;
pub use use_frame::use_frame;
pub use use_key_shortcuts::use_key_shortcuts;
pub use use_media_query::{use_media_query, ONE_COLUMN, PHONE};
pub use use_reduced_motion::{prefers_reduced_motion, use_reduced_motion};

/// Listens to `events` on `target` with `handler` until the returned function is called, which
/// removes the listener and drops the handler. For effects' cleanups; no target, no listener.
pub fn listen<F: ?Sized + wasm_bindgen::closure::WasmClosure>(
    target: Option<web_sys::EventTarget>,
    events: &'static [&'static str],
    handler: wasm_bindgen::closure::Closure<F>,
) -> impl FnOnce() {
    use wasm_bindgen::JsCast;
    if let Some(t) = &target {
        for event in events {
            let _ = t.add_event_listener_with_callback(event, handler.as_ref().unchecked_ref());
        }
    }
    move || {
        if let Some(t) = &target {
            for event in events {
                let _ = t.remove_event_listener_with_callback(event, handler.as_ref().unchecked_ref());
            }
        }
        drop(handler);
    }
}
