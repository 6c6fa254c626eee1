use yew::prelude::*;

/// Whether the user asked the system for less motion (`prefers-reduced-motion: reduce`).
pub fn prefers_reduced_motion() -> bool {
    crate::prefs::window()
        .and_then(|w| w.match_media("(prefers-reduced-motion: reduce)").ok().flatten())
        .is_some_and(|m| m.matches())
}

/// [`prefers_reduced_motion`], read once when the component mounts.
#[hook]
pub fn use_reduced_motion() -> bool {
    *use_state(prefers_reduced_motion)
}
