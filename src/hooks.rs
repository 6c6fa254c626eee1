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
