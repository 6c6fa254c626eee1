use std::cell::{Cell, RefCell};
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

type FrameClosure = Closure<dyn FnMut(f64)>;

/// Calls `on_frame(timestamp_ms)` on every animation frame for as long as the component lives.
///
/// One closure is created when the component mounts and re-requested each frame; unmounting
/// cancels the pending frame and drops the closure (nothing is leaked with `forget`). The callback
/// is read from a ref on every frame, so it may change between renders without restarting the loop.
///
/// ```ignore
/// use_animation_frame(Callback::from(|t: f64| log!(t)));
/// ```
#[hook]
pub fn use_animation_frame(on_frame: Callback<f64>) {
    let latest = use_mut_ref(|| on_frame.clone());
    *latest.borrow_mut() = on_frame;

    use_effect_with((), move |_| {
        let handle = Rc::new(Cell::new(None::<i32>));
        let slot: Rc<RefCell<Option<FrameClosure>>> = Rc::new(RefCell::new(None));
        let window = web_sys::window();
        if let Some(window) = window.clone() {
            let (inner_handle, inner_window) = (handle.clone(), window.clone());
            let weak_slot = Rc::downgrade(&slot);
            let closure = Closure::<dyn FnMut(f64)>::new(move |t: f64| {
                let (handle, window) = (&inner_handle, &inner_window);
                let cb = latest.borrow().clone();
                cb.emit(t);
                // The slot is gone once the component unmounted: then the loop simply ends.
                if let Some(slot) = weak_slot.upgrade() {
                    if let Some(f) = slot.borrow().as_ref() {
                        handle.set(window.request_animation_frame(f.as_ref().unchecked_ref()).ok());
                    }
                }
            });
            handle.set(
                window
                    .request_animation_frame(closure.as_ref().unchecked_ref())
                    .ok(),
            );
            *slot.borrow_mut() = Some(closure);
        }
        move || {
            if let (Some(window), Some(id)) = (window, handle.get()) {
                let _ = window.cancel_animation_frame(id);
            }
            slot.borrow_mut().take();
        }
    });
}
