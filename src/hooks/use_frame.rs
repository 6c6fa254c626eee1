use yew::prelude::*;

use crate::state::PlaygroundContext;

/// Re-renders the calling component on every animation frame of the playground (and only that
/// component: the rest of the page re-renders when the simulation's log grows).
#[hook]
pub fn use_frame() {
    let update = use_force_update();
    let ctx = use_context::<PlaygroundContext>();
    let bus = ctx.map(|c| c.frames.clone());
    use_effect_with(bus.as_ref().map(|b| std::rc::Rc::as_ptr(b) as usize), move |_| {
        let key = bus
            .as_ref()
            .map(|b| b.subscribe(Callback::from(move |()| update.force_update())));
        move || {
            if let (Some(bus), Some(key)) = (bus, key) {
                bus.unsubscribe(key);
            }
        }
    });
}
