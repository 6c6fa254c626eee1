//! "Import a log" in a web worker of its own, loaded when a log is first replayed, so that the
//! first load does not carry the log reader (`rebalance_engine::fromlog`).
//!
//! The release build (Trunk, `index.html`) builds `src/bin/log_worker.rs` as a second wasm,
//! `log_worker_bg.wasm`, with its glue `log_worker.js`; `static/log-worker-loader.js` starts it in
//! a worker. The app is built with the `log-worker` feature then, and [`replay`] sends the worker
//! the logs' names and texts and gets back the scenario that replays them (as JSON, which the app
//! reads anyway for scenario files and links) and the lines to mark; the app replays that scenario
//! itself. Without the feature (the component tests, `cargo test`) the share bar reads logs in the
//! page as before ([`crate::sharing::open_logs`]), and the two give the same result
//! (`tests/web_share.rs`).
//!
//! Messages are arrays: the worker says `["ready"]` once its wasm runs, or `["failed", why]` when
//! it cannot load it; the page then sends `[name, text, name, text, …]`; the answer is
//! `["ok", scenario JSON, consumer protocol?, [file, …], [[at_ms, file, line, text], …]]` or
//! `["no-lines", why]`.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::Array;
use rebalance_engine::fromlog::{self, LineRef, LogMark};
use rebalance_engine::{share, Scenario, SimTime};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::sharing::{self, Imported, LogProblem};
use crate::world::World;

/// The worker's script, next to `index.html`.
pub const LOADER: &str = "log-worker-loader.js";

const READY: &str = "ready";
const FAILED: &str = "failed";
const OK: &str = "ok";
const NO_LINES: &str = "no-lines";

/// The request for `files` (name, text).
pub fn request(files: &[(String, String)]) -> JsValue {
    let out = Array::new();
    for (name, text) in files {
        out.push(&JsValue::from_str(name));
        out.push(&JsValue::from_str(text));
    }
    out.into()
}

/// The worker's side: reads the logs of a request and answers with their replay's scenario.
pub fn answer(request: &JsValue) -> JsValue {
    let parts: Vec<String> = Array::from(request)
        .iter()
        .map(|v| v.as_string().unwrap_or_default())
        .collect();
    let mut importer = fromlog::Importer::new();
    for pair in parts.chunks(2) {
        importer.begin_file(&pair[0]);
        importer.push_text(pair.get(1).map_or("", String::as_str));
    }
    let out = Array::new();
    match importer.finish() {
        Err(e) => {
            out.push(&NO_LINES.into());
            out.push(&e.to_string().into());
        }
        Ok(replay) => {
            out.push(&OK.into());
            out.push(&share::scenario_to_json(&replay.scenario).into());
            out.push(&replay.consumer_protocol.into());
            out.push(
                &replay
                    .files
                    .iter()
                    .map(|f| JsValue::from_str(f))
                    .collect::<Array>(),
            );
            let marks = Array::new();
            for m in &replay.marks {
                let mark = Array::new();
                mark.push(&(m.at_ms as f64).into());
                mark.push(&(m.line.file as f64).into());
                mark.push(&(m.line.line as f64).into());
                mark.push(&m.text.as_str().into());
                marks.push(&mark);
            }
            out.push(&marks);
        }
    }
    out.into()
}

/// The page's side: the world at t=0 and what to show of it, from the worker's answer.
pub fn read_answer(answer: &JsValue) -> Result<(World, Imported), LogProblem> {
    let answer = Array::from(answer);
    let text = |i: u32| answer.get(i).as_string().unwrap_or_default();
    if text(0) != OK {
        return Err(LogProblem::NoGroupLines(text(1)));
    }
    if answer.get(2).as_bool() == Some(true) {
        return Err(LogProblem::ConsumerProtocol);
    }
    let scenario = Scenario::from_json(&text(1)).map_err(|e| LogProblem::Replay(e.to_string()))?;
    let files = Array::from(&answer.get(3))
        .iter()
        .map(|f| f.as_string().unwrap_or_default())
        .collect();
    let number = |v: JsValue| v.as_f64().unwrap_or(0.0);
    let marks = Array::from(&answer.get(4))
        .iter()
        .map(|m| {
            let m = Array::from(&m);
            LogMark {
                at_ms: number(m.get(0)) as u64,
                line: LineRef {
                    file: number(m.get(1)) as usize,
                    line: number(m.get(2)) as u64,
                },
                text: m.get(3).as_string().unwrap_or_default(),
            }
        })
        .collect();
    let mut world = sharing::replay(&scenario).map_err(LogProblem::Replay)?;
    world.seek(SimTime(0));
    let imported = Imported {
        name: scenario.name.clone().unwrap_or_default(),
        description: scenario.description.clone(),
        marks,
        files,
    };
    Ok((world, imported))
}

/// The worker's main: answers each request (`src/bin/log_worker.rs`).
pub fn serve() {
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let replies = scope.clone();
    let onmessage = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
        let _ = replies.post_message(&answer(&e.data()));
    });
    scope.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    // The worker lives as long as the page keeps it.
    onmessage.forget();
    let ready = Array::of1(&READY.into());
    let _ = scope.post_message(&ready);
}

/// Why the log reader's worker gave no answer (English, from the browser).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError(pub String);

/// Replays `files` in a new worker (which ends with the answer): the world at t=0 and what to
/// show of it, the log's problem, or why the worker did not load.
pub async fn replay(
    files: Vec<(String, String)>,
) -> Result<Result<(World, Imported), LogProblem>, LoadError> {
    let worker = web_sys::Worker::new(LOADER).map_err(|e| LoadError(message(&e)))?;
    let settle: Rc<RefCell<Option<(js_sys::Function, js_sys::Function)>>> = Rc::default();
    let promise = js_sys::Promise::new(&mut |ok, fail| *settle.borrow_mut() = Some((ok, fail)));
    let finish = {
        let settle = settle.clone();
        move |ok: bool, v: &JsValue| {
            if let Some((resolve, reject)) = settle.borrow_mut().take() {
                let _ = if ok { resolve } else { reject }.call1(&JsValue::NULL, v);
            }
        }
    };
    let request = request(&files);
    drop(files);
    let onmessage = {
        let worker = worker.clone();
        let finish = finish.clone();
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            let data = e.data();
            match Array::from(&data).get(0).as_string().as_deref() {
                Some(READY) => {
                    if let Err(e) = worker.post_message(&request) {
                        finish(false, &e);
                    }
                }
                Some(FAILED) => finish(false, &Array::from(&data).get(1)),
                _ => finish(true, &data),
            }
        })
    };
    let onerror = Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
        e.prevent_default();
        let why = e
            .dyn_ref::<web_sys::ErrorEvent>()
            .map(|e| e.message())
            .filter(|m| !m.is_empty())
            .unwrap_or_else(|| format!("{LOADER} did not load"));
        finish(false, &JsValue::from_str(&why));
    });
    worker.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    worker.set_onerror(Some(onerror.as_ref().unchecked_ref()));
    let answer = wasm_bindgen_futures::JsFuture::from(promise).await;
    worker.terminate();
    drop((onmessage, onerror));
    let answer = answer.map_err(|e| LoadError(message(&e)))?;
    Ok(read_answer(&answer))
}

fn message(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "the worker failed".to_owned())
}
