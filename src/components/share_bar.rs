//! The share bar: the session's link (kept in the page URL and autosaved), export as a scenario
//! file, import one. Problems with a link or a file are shown as text; the session is untouched.

use gloo_timers::callback::Timeout;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::{use_playground, use_strings};
use crate::download::download;
use crate::i18n::fill;
use crate::sharing;
use crate::state::{Alert, Change, PlaygroundContext};
use crate::world::World;

/// Wall-clock milliseconds between two autosaves while the simulation plays.
const SAVE_EVERY_MS: f64 = 1_000.0;

/// Wall-clock milliseconds from a change to its save.
const SAVE_DELAY_MS: u32 = 200;

#[derive(Clone, PartialEq)]
enum Notice {
    Info(String),
    /// `what`: `file`, `link` or `log`; `log`: the file's text when it is a Kafka log, offered to
    /// the log importer.
    Error {
        what: &'static str,
        why: String,
        log: Option<std::rc::Rc<(String, String)>>,
    },
}

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Puts the session's link in the URL and the autosave now, shows it in the field, returns it.
/// An autosave the browser refuses is said at the top of the page (and unsaid once one works).
fn publish_now(pg: &PlaygroundContext, shown: &UseStateHandle<String>) -> String {
    // (The world is not borrowed while the alert is dispatched: the reducer borrows it.)
    let link = sharing::session_link(&pg.world.borrow());
    let saved = sharing::publish(&link);
    let failed_shown = pg.alert == Some(Alert::AutosaveFailed);
    if !saved && pg.alert.is_none() {
        pg.dispatch(Change::Alert(Some(Alert::AutosaveFailed)));
    } else if saved && failed_shown {
        pg.dispatch(Change::Alert(None));
    }
    if **shown != link {
        shown.set(link.clone());
    }
    link
}

/// Shows `world`, paused with nothing selected, and says what was opened (`imported`, with
/// `fallback` as the name of a scenario without one). An import (`shown` is `Some`) opens at t=0
/// with its name and description (and a log's lines) in the imported panel; a link opens at its
/// time.
fn show_opened(
    pg: &PlaygroundContext,
    notice: &UseStateHandle<Option<Notice>>,
    imported: &str,
    mut world: World,
    fallback: &str,
    shown: Option<sharing::Imported>,
) {
    let name = world
        .session()
        .base()
        .name
        .clone()
        .unwrap_or_else(|| fallback.to_owned());
    if shown.is_some() {
        world.seek(rebalance_engine::SimTime(0));
    }
    let ms = world.now().as_millis();
    *pg.world.borrow_mut() = world;
    pg.dispatch(Change::Pause);
    pg.dispatch(Change::Select(None));
    pg.dispatch(Change::Imported(shown.map(std::rc::Rc::new)));
    let time = format!("{}.{:01} s", ms / 1000, (ms % 1000) / 100);
    notice.set(Some(Notice::Info(fill(
        imported,
        &[("name", &name), ("time", &time)],
    ))));
}

/// Shows a log's replay (at t=0, paused) and says so.
fn show_log(
    pg: &PlaygroundContext,
    notice: &UseStateHandle<Option<Notice>>,
    s: &'static crate::i18n::Strings,
    world: World,
    imported: sharing::Imported,
) {
    let lines = imported.marks.len().to_string();
    let name = imported.name.clone();
    *pg.world.borrow_mut() = world;
    pg.dispatch(Change::Pause);
    pg.dispatch(Change::Select(None));
    pg.dispatch(Change::Imported(Some(std::rc::Rc::new(imported))));
    notice.set(Some(Notice::Info(fill(
        s.import.replayed,
        &[("name", &name), ("lines", &lines)],
    ))));
}

/// Replays a log's text and shows it (at t=0, paused), or says why it cannot.
fn open_log_text(
    pg: &PlaygroundContext,
    notice: &UseStateHandle<Option<Notice>>,
    s: &'static crate::i18n::Strings,
    text: &str,
    file: &str,
) {
    replay_logs(pg, notice, s, vec![(file.to_owned(), text.to_owned())]);
}

/// Shows the replay of log files (name, text), or why there is none.
fn show_logs_result(
    pg: &PlaygroundContext,
    notice: &UseStateHandle<Option<Notice>>,
    s: &'static crate::i18n::Strings,
    result: Result<(World, sharing::Imported), sharing::LogProblem>,
) {
    match result {
        Ok((world, imported)) => show_log(pg, notice, s, world, imported),
        Err(e) => notice.set(Some(Notice::Error {
            what: "log",
            why: sharing::explain_log_problem(s, &e),
            log: None,
        })),
    }
}

/// Replays log files (name, text) and shows them: in the log reader's worker, loaded on demand,
/// when the app is built with it (the release build, `crate::log_worker`), saying so while it
/// loads and why when it cannot; else here and now.
fn replay_logs(
    pg: &PlaygroundContext,
    notice: &UseStateHandle<Option<Notice>>,
    s: &'static crate::i18n::Strings,
    files: Vec<(String, String)>,
) {
    #[cfg(feature = "log-worker")]
    {
        notice.set(Some(Notice::Info(s.import.loading.to_owned())));
        let pg = pg.clone();
        let notice = notice.clone();
        wasm_bindgen_futures::spawn_local(async move {
            match crate::log_worker::replay(files).await {
                Ok(result) => show_logs_result(&pg, &notice, s, result),
                Err(crate::log_worker::LoadError(why)) => notice.set(Some(Notice::Error {
                    what: "log",
                    why: fill(
                        s.import.worker_failed,
                        &[("file", crate::log_worker::LOADER), ("why", &why)],
                    ),
                    log: None,
                })),
            }
        });
    }
    #[cfg(not(feature = "log-worker"))]
    show_logs_result(pg, notice, s, sharing::open_logs(&files));
}

/// The page's address with `link` as its fragment.
fn with_page_base(link: &str) -> String {
    crate::prefs::window()
        .and_then(|w| w.location().href().ok())
        .map(|h| {
            let base = h.split('#').next().unwrap_or_default().to_owned();
            format!("{base}{}{link}", sharing::HASH_PREFIX)
        })
        .unwrap_or_default()
}

/// The share bar.
#[component]
pub fn ShareBar() -> Html {
    let s = use_strings();
    let t = &s.share;
    let pg = use_playground();
    // The link of the session as it opens (the saves, a moment after each change, keep it current).
    let link = use_state(|| sharing::session_link(&pg.world.borrow()));
    let notice = use_state(|| None::<Notice>);
    // (wall time of the last save, history length then, playing then)
    let saved = use_mut_ref(|| (f64::NEG_INFINITY, usize::MAX, true));
    // A save waiting to run (dropping it cancels it).
    let pending = use_mut_ref(|| None::<Timeout>);
    // The playground as last rendered (for callbacks that run later).
    let latest = use_mut_ref(|| pg.clone());
    *latest.borrow_mut() = pg.clone();

    {
        let link = link.clone();
        let pg = pg.clone();
        let pending = pending.clone();
        let latest = latest.clone();
        use_effect_with(pg.version, move |_| {
            // While a link that did not open is reported, the address bar keeps it and the
            // autosave keeps the last good session: nothing is saved until the user acts.
            if pg.alert.as_ref().is_some_and(Alert::keeps_saved) {
                return;
            }
            let len = pg.world.borrow().history().len();
            let mut last = saved.borrow_mut();
            let now = now_ms();
            let due = !pg.playing || last.1 != len || last.2 != pg.playing || now - last.0 >= SAVE_EVERY_MS;
            if due {
                *last = (now, len, pg.playing);
                // Saved a moment later, off the frame that showed the change: a burst of changes
                // (dragging the timeline, clicking fast) is saved once, as it ends.
                let slot = pending.clone();
                let timeout = Timeout::new(SAVE_DELAY_MS, move || {
                    slot.borrow_mut().take();
                    let pg = latest.borrow().clone();
                    publish_now(&pg, &link);
                });
                // Replacing a waiting save cancels it.
                *pending.borrow_mut() = Some(timeout);
            }
        });
    }
    // A link pasted into this tab's address bar changes only the fragment: the page does not
    // load again, so it opens the link here. (The saves use history.replaceState, which fires no
    // hashchange: every hashchange is the learner's.) A damaged link is reported; the session
    // stays.
    {
        let notice = notice.clone();
        let latest = latest.clone();
        use_effect_with(s as *const _ as usize, move |_| {
            let on_hash = Closure::<dyn FnMut(web_sys::Event)>::new(move |_| {
                let hash = web_sys::window()
                    .and_then(|w| w.location().hash().ok())
                    .unwrap_or_default();
                let Some(link) = sharing::link_in_hash(&hash) else {
                    return;
                };
                let pg = latest.borrow().clone();
                match sharing::open_link_checked(link) {
                    Ok(world) => {
                        pg.dispatch(Change::Alert(None));
                        show_opened(&pg, &notice, s.share.imported, world, "link", None)
                    }
                    Err(why) => pg.dispatch(Change::Alert(Some(Alert::BadLink(why)))),
                }
            });
            crate::hooks::listen(web_sys::window().map(Into::into), &["hashchange"], on_hash)
        });
    }
    // As the page goes (a reload, a closed tab), the session is saved at once, whether or not a
    // save is waiting: the effect that schedules one may not have run yet (Yew runs effects in a
    // later task when a render takes long), and a change made just before a reload is kept.
    // `beforeunload` comes before the next page starts (which reads what is saved); `pagehide`
    // also comes where `beforeunload` does not (a phone closing the tab, the back-forward cache).
    {
        let pending = pending.clone();
        let latest = latest.clone();
        use_effect_with((), move |_| {
            let on_leave = Closure::<dyn FnMut(web_sys::Event)>::new(move |_| {
                pending.borrow_mut().take();
                let pg = latest.borrow().clone();
                // (Not while a link that did not open is reported: the last good session stays.)
                if pg.alert.as_ref().is_some_and(Alert::keeps_saved) {
                    return;
                }
                let link = pg.world.try_borrow().ok().map(|w| sharing::session_link(&w));
                if let Some(link) = link {
                    sharing::autosave(&link);
                }
            });
            crate::hooks::listen(
                web_sys::window().map(Into::into),
                &["beforeunload", "pagehide"],
                on_leave,
            )
        });
    }

    let full_link = with_page_base(&link);

    let oncopy = {
        let notice = notice.clone();
        let pg = pg.clone();
        let link = link.clone();
        let pending = pending.clone();
        Callback::from(move |_| {
            // The link of what is on screen now, saved at once (a waiting save is not needed).
            pending.borrow_mut().take();
            let full = with_page_base(&publish_now(&pg, &link));
            if let Some(w) = web_sys::window() {
                // A refused clipboard (no permission) is no error: the link is in the field.
                let copy = wasm_bindgen_futures::JsFuture::from(w.navigator().clipboard().write_text(&full));
                wasm_bindgen_futures::spawn_local(async move {
                    let _ = copy.await;
                });
            }
            notice.set(Some(Notice::Info(t.copied.to_owned())));
        })
    };

    let onexport = {
        let pg = pg.clone();
        Callback::from(move |_| {
            let json = sharing::export_json(&pg.world.borrow());
            download("scenario.json", &json, "application/json");
        })
    };

    let onimport = {
        let pg = pg.clone();
        let notice = notice.clone();
        Callback::from(move |e: Event| {
            let Some(input) = e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()) else {
                return;
            };
            let Some(file) = input.files().and_then(|f| f.get(0)) else {
                return;
            };
            input.set_value("");
            let size = file.size();
            if let Err(why) = sharing::check_file_size(size) {
                notice.set(Some(Notice::Error {
                    what: "file",
                    why,
                    log: None,
                }));
                return;
            }
            let pg = pg.clone();
            let notice = notice.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let text = wasm_bindgen_futures::JsFuture::from(file.text())
                    .await
                    .ok()
                    .and_then(|v| v.as_string());
                let Some(text) = text else {
                    notice.set(Some(Notice::Error {
                        what: "file",
                        why: "the file could not be read as text".to_owned(),
                        log: None,
                    }));
                    return;
                };
                match sharing::open_file_checked(size, &text) {
                    Ok(world) => {
                        let shown = sharing::Imported::of_scenario(&world, &file.name());
                        show_opened(&pg, &notice, t.imported, world, &file.name(), Some(shown))
                    }
                    Err(e) => {
                        let log = (e == sharing::NotAScenario::KafkaLog)
                            .then(|| std::rc::Rc::new((text, file.name())));
                        notice.set(Some(Notice::Error {
                            what: "file",
                            why: sharing::explain_not_a_scenario(s, &e),
                            log,
                        }))
                    }
                }
            });
        })
    };

    // "Import a log": pasted lines, or one or more files read one after the other.
    let paste = use_node_ref();
    let onreplay = {
        let pg = pg.clone();
        let notice = notice.clone();
        let paste = paste.clone();
        Callback::from(move |_| {
            let Some(area) = paste.cast::<web_sys::HtmlTextAreaElement>() else {
                return;
            };
            // A log is replayed; a scenario or a link pasted here opens as it would elsewhere;
            // describe output and the like are named, with what to do instead.
            let text = area.value();
            match sharing::open_paste_scenario(&text) {
                None => replay_logs(&pg, &notice, s, vec![("pasted log".to_owned(), text)]),
                Some(Ok(sharing::Opened::Log(world, imported))) => show_log(&pg, &notice, s, world, imported),
                Some(Ok(sharing::Opened::Scenario(world, imported))) => {
                    let name = imported.name.clone();
                    show_opened(&pg, &notice, t.imported, world, &name, Some(imported))
                }
                Some(Err(e)) => notice.set(Some(Notice::Error {
                    what: if matches!(e, sharing::PasteProblem::Log(_)) {
                        "log"
                    } else {
                        "file"
                    },
                    why: sharing::explain_paste_problem(s, &e),
                    log: None,
                })),
            }
        })
    };
    let onlogfiles = {
        let pg = pg.clone();
        let notice = notice.clone();
        Callback::from(move |e: Event| {
            let Some(input) = e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()) else {
                return;
            };
            let Some(files) = input.files() else {
                return;
            };
            let files: Vec<web_sys::File> = (0..files.length()).filter_map(|i| files.get(i)).collect();
            input.set_value("");
            let total: f64 = files.iter().map(|f| f.size()).sum();
            if total > sharing::MAX_LOG_BYTES {
                notice.set(Some(Notice::Error {
                    what: "log",
                    why: format!(
                        "the files are {} MB; logs are read up to {} MB.",
                        crate::num::fixed(total / 1_048_576.0, 1),
                        crate::num::fixed(sharing::MAX_LOG_BYTES / 1_048_576.0, 0)
                    ),
                    log: None,
                }));
                return;
            }
            let pg = pg.clone();
            let notice = notice.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let mut texts = Vec::new();
                for f in &files {
                    let text = wasm_bindgen_futures::JsFuture::from(f.text())
                        .await
                        .ok()
                        .and_then(|v| v.as_string());
                    texts.push((f.name(), text.unwrap_or_default()));
                }
                replay_logs(&pg, &notice, s, texts);
            });
        })
    };

    let notice_html = match &*notice {
        None => html! {},
        Some(Notice::Info(text)) => html! { <p class="share-info" role="status">{ text.clone() }</p> },
        Some(Notice::Error { what, why, log }) => {
            let lead = match *what {
                "file" => t.bad_file,
                "log" => s.import.bad_log,
                _ => t.bad_link,
            };
            let offer = log.clone().map(|text| {
                let pg = pg.clone();
                let notice = notice.clone();
                let onclick = Callback::from(move |_| open_log_text(&pg, &notice, s, &text.0, &text.1));
                html! { <button type="button" class="share-open-as-log" {onclick}>{ s.import.open_as_log }</button> }
            });
            html! {
                <div class="share-error" role="alert">
                    <strong>{ lead }</strong>{ s.sentence_gap }
                    <span class="share-error-reason">{ why.clone() }</span>{ s.sentence_gap }
                    { t.kept }
                    { for offer }
                </div>
            }
        }
    };

    html! {
        <section class="share panel" aria-labelledby="share-heading">
            <h2 id="share-heading" class="panel-heading">{ t.heading }</h2>
            <label class="share-link">
                <span>{ t.link_label }</span>
                <input type="text" readonly=true value={full_link} onfocus={Callback::from(|e: FocusEvent| {
                    if let Some(i) = e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()) { i.select(); }
                })} />
            </label>
            <div class="share-actions">
                <button type="button" onclick={oncopy}>{ t.copy }</button>
                <button type="button" onclick={onexport}>{ t.export }</button>
                <label class="share-import">
                    { t.import }
                    <input type="file" accept=".json,application/json" onchange={onimport} />
                </label>
            </div>
            <details class="log-import">
                <summary>{ s.import.heading }</summary>
                <p class="log-import-intro">{ s.import.intro }</p>
                <label class="log-import-paste">
                    <span>{ s.import.paste_label }</span>
                    <textarea ref={paste} rows="6" spellcheck="false" autocomplete="off" />
                </label>
                <div class="share-actions">
                    <button type="button" onclick={onreplay}>{ s.import.replay }</button>
                    <label class="share-import">
                        { s.import.file }
                        <input type="file" multiple=true accept=".log,.txt,text/plain" onchange={onlogfiles} />
                    </label>
                </div>
            </details>
            { notice_html }
        </section>
    }
}
