//! The Kafka rebalance playground: the Yew app that Trunk builds.
//!
//! This crate holds components and view state only. Every protocol rule lives in the
//! `rebalance-engine` crate; the UI renders the engine's state and animates its event log.
//!
//! * [`world`] wraps the engine's simulation with the playground's starting scenario;
//! * [`state`] is the UI state (a `Reducible`) and the per-frame bus;
//! * [`components`] draws it, one component per file; [`hooks`] own the browser resources
//!   (animation frames, key listeners);
//! * [`i18n`] holds every string, [`explain`] and [`explain_consumer`] turn log entries into
//!   sentences; [`glossary`] is the one list of the Chinese terms the strings and the lessons use.

pub mod app;
pub mod components;
mod download;
pub mod explain;
pub mod explain_consumer;
pub mod glossary;
pub mod hooks;
pub mod i18n;
pub mod lazy;
pub mod lessons;
pub mod log_worker;
pub mod num;
mod prefs;
pub mod prerender;
pub mod sharing;
pub mod state;
pub mod style;
pub mod world;

pub use app::{App, AppProps};
