//! The Kafka rebalance playground: the Yew app that Trunk builds.
//!
//! This crate holds components and view state only. Every protocol rule lives in the
//! `rebalance-engine` crate; the UI renders the engine's state and animates its event log.

mod app;
pub mod components;
pub mod i18n;
mod prefs;

pub use app::App;
