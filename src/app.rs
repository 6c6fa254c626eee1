use web_sys::KeyboardEvent;
use yew::prelude::*;

use crate::components::{
    AlertBar, Announcer, CompareToggle, GroupPanel, Header, Stage, StageActions, Timeline, Toolbar,
};
use crate::hooks::{use_animation_frame, use_key_shortcuts};
use crate::i18n::Lang;
use crate::lazy::{use_panels, NotLoaded, PanelsState};
use crate::prefs;
use crate::sharing::Restored;
use crate::state::{Alert, Change, Playground, PlaygroundContext, Speed};

/// The id of the add-consumer form's submit button (the `a` shortcut presses it).
pub const ADD_CONSUMER_BUTTON_ID: &str = "add-consumer-submit";

/// The id of the add-consumer form (its submit button sits beside the stage).
pub const ADD_CONSUMER_FORM_ID: &str = "add-consumer-form";

/// Panels re-render at most this often while the simulation runs (the tokens move every frame).
const REFRESH_MS: f64 = 100.0;

/// The longest wall-clock gap one frame may advance (a background tab must not jump minutes).
const MAX_FRAME_MS: f64 = 100.0;

#[derive(Default)]
struct LoopState {
    last_frame: Option<f64>,
    last_refresh: f64,
}

/// The app's properties: none in the browser; the build's prerender (`src/bin/prerender.rs`) names
/// the language of the first view it writes.
#[derive(Clone, Debug, Default, PartialEq, Properties)]
pub struct AppProps {
    /// The language to start in, instead of the user's saved choice or the browser's.
    #[prop_or_default]
    pub lang: Option<Lang>,
}

/// The whole playground. It owns the language, the simulation and the animation loop, and hands
/// them down through contexts.
#[component]
pub fn App(props: &AppProps) -> Html {
    let lang = use_state(|| props.lang.unwrap_or_else(prefs::initial_lang));
    let presenting = use_state(prefs::initial_presentation);
    let help_open = use_state(|| false);
    // The first view is the group view: the header, the toolbar, the timeline, the stage with the
    // group's facts and the main controls. The detail panels beside it (the log, the forms, the
    // inspector, ...) join once the browser has painted it, so that the first paint does not wait
    // for them; a release build fetches their code then (`lazy::panels`). Natively, where only the
    // build's prerender renders the app, that first view is what it writes into the HTML; over it
    // (already painted from the HTML), the app renders its own group view, replaces the
    // prerendered one with it once it is whole, and the panels join after that, as they do without
    // a first view. Until then "Add consumer" adds a consumer with the form's defaults
    // (`StageActions`).
    let settled = use_state(|| false);
    // A link in the URL or an autosaved session is opened first (the scenario reader comes in a
    // module of its own, `lazy::restore`); the first view stays until it is shown.
    let restoring = use_state(crate::sharing::session_waiting);
    let playground = use_reducer({
        let restoring = *restoring;
        move || Playground::new(1, !restoring)
    });
    {
        let restoring = restoring.clone();
        let playground = playground.clone();
        use_effect_with((), move |_| {
            if *restoring {
                wasm_bindgen_futures::spawn_local(async move {
                    open_restored(&playground, crate::lazy::restore().await.map(|r| *r));
                    restoring.set(false);
                });
            }
        });
    }
    {
        let settled = settled.clone();
        use_effect_with(*restoring, move |restoring| {
            if !*restoring {
                let settle = move || after_next_paint(move || settled.set(true));
                if crate::prerender::present() {
                    take_over_when_whole(0, settle);
                } else {
                    settle();
                }
            }
        });
    }
    // Compare mode shows the protocols side by side instead of the stage; the shared controls stay.
    let comparing = playground.world.borrow().compare().is_some();
    // The detail panels, once the app has taken over, or at once in compare mode, whose columns
    // come with them.
    let (panels, retry_panels) = use_panels(*settled || comparing);
    let panels_ready = match panels {
        PanelsState::Ready(p) => Some(p),
        PanelsState::Waiting | PanelsState::Failed => None,
    };

    use_effect_with(*lang, |lang| prefs::apply_lang(*lang));
    use_effect_with(*presenting, |on| prefs::save_presentation(*on));

    // The animation loop: advance virtual time, redraw the moving layer, and refresh the panels
    // when the log grew (at most every REFRESH_MS).
    let loop_state = use_mut_ref(LoopState::default);
    {
        let world = playground.world.clone();
        let frames = playground.frames.clone();
        let playing = playground.playing;
        let factor = playground.speed.factor();
        let shown_len = playground.view.log_len;
        let dispatcher = playground.dispatcher();
        // An open lesson's step ends at this event: Play stops there.
        let stop = playground.lesson.as_ref().map(|run| run.stop_seq());
        use_animation_frame(Callback::from(move |t: f64| {
            let mut ls = loop_state.borrow_mut();
            let dt = ls
                .last_frame
                .map_or(0.0, |last| (t - last).clamp(0.0, MAX_FRAME_MS));
            ls.last_frame = Some(t);
            let mut ended = false;
            let grew = {
                let mut w = world.borrow_mut();
                if playing {
                    w.advance(dt * factor);
                    ended = stop.is_some_and(|seq| crate::state::reached(&w, seq));
                }
                w.log_len() != shown_len
            };
            if ended {
                drop(ls);
                dispatcher.dispatch(Change::LessonStepEnded);
                return;
            }
            let refresh = grew && t - ls.last_refresh >= REFRESH_MS;
            if refresh {
                ls.last_refresh = t;
            }
            drop(ls);
            frames.emit();
            if refresh {
                dispatcher.dispatch(Change::Refresh);
            }
        }));
    }

    {
        let dispatcher = playground.dispatcher();
        let help_open = help_open.clone();
        let presenting = presenting.clone();
        use_key_shortcuts(Callback::from(move |e: KeyboardEvent| {
            let on_control = e
                .target()
                .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
                .is_some_and(|el| {
                    let tag = el.tag_name().to_ascii_lowercase();
                    tag == "button" || tag == "a" || el.get_attribute("role").as_deref() == Some("button")
                });
            let handled = match e.key().as_str() {
                // Space on a focused button presses that button; elsewhere it plays or pauses.
                " " if !on_control => {
                    dispatcher.dispatch(Change::TogglePlay);
                    true
                }
                "." | "ArrowRight" => {
                    dispatcher.dispatch(Change::Step);
                    true
                }
                "+" | "=" => {
                    dispatcher.dispatch(Change::NudgeSpeed(Speed::KEY_STEP));
                    true
                }
                "-" | "_" => {
                    dispatcher.dispatch(Change::NudgeSpeed(-Speed::KEY_STEP));
                    true
                }
                "a" | "A" => {
                    click_by_id(ADD_CONSUMER_BUTTON_ID);
                    true
                }
                "?" => {
                    help_open.set(!*help_open);
                    true
                }
                "p" | "P" => {
                    presenting.set(!*presenting);
                    true
                }
                "Escape" => {
                    if *help_open {
                        help_open.set(false);
                    } else {
                        dispatcher.dispatch(Change::Select(None));
                    }
                    true
                }
                _ => false,
            };
            if handled {
                e.prevent_default();
            }
        }));
    }

    let onlang = {
        let lang = lang.clone();
        Callback::from(move |next: Lang| lang.set(next))
    };
    let onpresent = {
        let presenting = presenting.clone();
        Callback::from(move |_| presenting.set(!*presenting))
    };
    let onhelp = {
        let help_open = help_open.clone();
        Callback::from(move |open: bool| help_open.set(open))
    };

    html! {
        <ContextProvider<Lang> context={*lang}>
            <ContextProvider<PlaygroundContext> context={playground.clone()}>
                <div class={classes!("app", presenting.then_some("is-presenting"))}>
                    <Header {onlang} presenting={*presenting} {onpresent} onhelp={onhelp.clone()} />
                    <Toolbar />
                    <CompareToggle />
                    <AlertBar />
                    <Timeline />
                    <Announcer />
                    // The stage column holds what a class watches and what is done to it: the
                    // stage, the group's state, generation, leader and coordinator, and the main
                    // controls. On a wide screen it fills the window and the detail panels scroll
                    // beside it; in one column the group's facts and the controls stay docked at
                    // the bottom of the screen while the stage is in view.
                    <main class="app-main">
                        <div class={classes!("app-col", "app-col-main", comparing.then_some("is-comparing"))}>
                            if comparing {
                                if let Some(p) = panels_ready {
                                    { (p.compare)() }
                                }
                            } else {
                                <Stage />
                            }
                            <div class="stage-dock">
                                if !comparing {
                                    <GroupPanel />
                                }
                                <StageActions />
                            </div>
                        </div>
                        <div class="app-col app-col-side">
                            if let (true, Some(p)) = (*settled, panels_ready) {
                                { (p.side)(comparing) }
                            } else if panels == PanelsState::Failed {
                                <PanelsNotLoaded onretry={retry_panels} />
                            }
                        </div>
                    </main>
                    if let (true, Some(p)) = (*help_open, panels_ready) {
                        { (p.help)(onhelp.clone()) }
                    }
                </div>
            </ContextProvider<PlaygroundContext>>
        </ContextProvider<Lang>>
    }
}

/// Shows what the page was opened with: the restored world, paused at its time, and the problem
/// of a link that did not open; with neither, the new playground plays. If the scenario reader
/// did not load, the new playground stays paused under an alert, and nothing saved is overwritten
/// until the user acts ([`Alert::keeps_saved`]).
fn open_restored(playground: &PlaygroundContext, restored: Result<Restored, NotLoaded>) {
    let Ok(Restored { world, problem }) = restored else {
        playground.dispatch(Change::Alert(Some(Alert::NotRestored)));
        return;
    };
    let opened = world.is_some();
    if let Some(world) = world {
        *playground.world.borrow_mut() = world;
    }
    match problem {
        Some(problem) => playground.dispatch(Change::Alert(Some(Alert::BadLink(problem)))),
        None if !opened => playground.dispatch(Change::TogglePlay),
        None => playground.dispatch(Change::Refresh),
    }
}

#[derive(Properties, PartialEq)]
struct PanelsNotLoadedProps {
    onretry: Callback<()>,
}

/// In the detail panels' place when their module did not load: what happened, and a button that
/// fetches it again.
#[component]
fn PanelsNotLoaded(props: &PanelsNotLoadedProps) -> Html {
    let s = crate::components::use_strings();
    let onclick = props.onretry.reform(|_: MouseEvent| ());
    html! {
        <section class="panel panels-not-loaded" role="alert">
            <p>{ s.controls.panels_not_loaded }</p>
            <button type="button" {onclick}>{ s.controls.retry }</button>
        </section>
    }
}

/// Replaces the prerendered first view with the app's once the app's view is whole (checked once
/// a frame, for at most two seconds' worth of frames; then it replaces it anyway), then runs
/// `then`.
fn take_over_when_whole(frames: u32, then: impl FnOnce() + 'static) {
    if frames >= 120 || crate::prerender::app_is_whole() {
        crate::prerender::take_over();
        then();
    } else {
        after_next_paint(move || take_over_when_whole(frames + 1, then));
    }
}

/// Runs `f` once the browser has painted what is on the page now: a timer set from the next
/// animation frame fires after that frame is painted.
pub(crate) fn after_next_paint(f: impl FnOnce() + 'static) {
    let Some(window) = web_sys::window() else {
        return f();
    };
    let in_frame = wasm_bindgen::closure::Closure::once_into_js(move || {
        gloo_timers::callback::Timeout::new(0, f).forget();
    });
    // A browser always gives animation frames (in a hidden tab, once it is shown again).
    let _ = window.request_animation_frame(wasm_bindgen::JsCast::unchecked_ref(&in_frame));
}

fn click_by_id(id: &str) {
    let el = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
        .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok());
    if let Some(el) = el {
        el.click();
    }
}
