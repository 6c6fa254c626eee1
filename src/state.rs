//! The playground's UI state and every change to it, as a [`Reducible`].
//!
//! The simulation itself is mutated in place (cloning it per frame would cost too much); the
//! reducer hands out a new [`Playground`] whenever the panels must re-render: when the log grew,
//! when the user did something, or when the selection changed. The moving tokens do not go through
//! here: they redraw on every animation frame through the [`FrameBus`].

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use rebalance_engine::sim::SimEvent;
use rebalance_engine::{Message, NodeId};
use yew::prelude::*;

use crate::lessons::{self, Loaded};
use crate::world::{Command, View, World};

/// An open lesson: where the learner is in it. While it is open the lesson owns the timeline:
/// Play and Step run at most to the end of the current step (see [`LessonRun::stop_seq`]).
#[derive(Clone, Debug, PartialEq)]
pub struct LessonRun {
    pub loaded: Rc<Loaded>,
    /// The step on screen.
    pub step: usize,
    /// Whether its narration is shown (false while its predict question waits for an answer).
    pub revealed: bool,
    /// The choice the learner picked for this step's question.
    pub answer: Option<usize>,
    /// Whether Play or Step ran to the end of the step (and stopped there).
    pub at_end: bool,
}

impl LessonRun {
    /// The event at which the current step ends: the next step's event once this one is read;
    /// while its question waits, or on the last step, the event shown now (time does not run).
    pub fn stop_seq(&self) -> u64 {
        let steps = self.loaded.steps;
        if !self.revealed {
            self.step.checked_sub(1).map_or(0, |p| steps[p].seq)
        } else {
            steps
                .get(self.step + 1)
                .map_or(steps[self.step].seq, |next| next.seq)
        }
    }

    /// Whether this is the last step, read.
    pub fn finished(&self) -> bool {
        self.revealed && self.step + 1 == self.loaded.steps.len()
    }
}

/// Whether `world` has reached event `seq` of a lesson (0: the start, reached at once).
pub fn reached(world: &World, seq: u64) -> bool {
    seq == 0 || world.event(seq).is_some() || world.log().last().is_some_and(|e| e.seq > seq)
}

/// What the inspector shows.
#[derive(Clone, Debug, PartialEq)]
pub enum Selection {
    /// A consumer, by name.
    Consumer(String),
    /// A broker.
    Broker(NodeId),
    /// A message (a copy: it stays inspectable after it arrived).
    Message(Rc<Message>),
    /// A log entry, by sequence number.
    Event(u64),
}

/// What the event log shows: routine entries (heartbeats, commits) or not, one consumer's or all,
/// one API's or all. Step and the timeline's arrow keys go to the next entry it shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LogFilter {
    /// Whether routine entries are shown ([`SimEvent::is_routine`]).
    pub details: bool,
    /// Only this consumer's entries (empty: every consumer's).
    pub consumer: String,
    /// Only this API's entries (empty: every API's).
    pub api: String,
}

impl LogFilter {
    /// Whether the log shows `ev`.
    pub fn shows(&self, ev: &SimEvent) -> bool {
        (self.details || !ev.is_routine())
            && (self.consumer.is_empty() || ev.consumer() == Some(self.consumer.as_str()))
            && (self.api.is_empty() || ev.api().map(|a| a.name()) == Some(self.api.as_str()))
    }
}

/// The most instants one Step runs looking for an entry the log shows (a filter that matches
/// nothing must not hang the page)...
pub const MAX_STEP_INSTANTS: usize = 2_000;

/// ...and the most virtual time it runs (a Stable group logs only routine entries: Step then
/// moves a visible amount, not to the end of time).
pub const MAX_STEP_MS: u64 = 30_000;

/// What the consumer cards show of each consumer's state (a Step stops where one changes, even
/// when the entry that changed it is hidden: a consumer starts revoking with a routine commit).
fn card_states(world: &World) -> Vec<(rebalance_engine::client::ClientState, bool, bool)> {
    world
        .sim()
        .consumers()
        .iter()
        .map(|c| (c.client_state, c.lifecycle.is_running(), c.paused.is_some()))
        .collect()
}

/// Runs instants until one adds an entry `filter` shows, or changes a consumer's state on its
/// card (at most [`MAX_STEP_INSTANTS`] and [`MAX_STEP_MS`], and not past event `stop` when one is
/// given). Returns whether `stop` was reached.
pub fn step_to_shown(world: &mut World, filter: &LogFilter, stop: Option<u64>) -> bool {
    let until = world.now().as_millis().saturating_add(MAX_STEP_MS);
    let mut cards = card_states(world);
    for _ in 0..MAX_STEP_INSTANTS {
        if world.now().as_millis() >= until {
            break;
        }
        if stop.is_some_and(|seq| reached(world, seq)) {
            return true;
        }
        // (In compare mode, an entry of any protocol's log.)
        let before: Vec<usize> = world.logs().iter().map(|l| l.len()).collect();
        if !world.step() {
            break;
        }
        let shown = world.logs().iter().zip(&before).any(|(log, &n)| {
            log.get(n..)
                .is_some_and(|new| new.iter().any(|ev| filter.shows(ev)))
        });
        if shown {
            break;
        }
        let now = card_states(world);
        if now != cards {
            break;
        }
        cards = now;
    }
    stop.is_some_and(|seq| reached(world, seq))
}

/// A problem shown at the top of the page, where the user looks.
#[derive(Clone, Debug, PartialEq)]
pub enum Alert {
    /// A link (in the address bar as the page opened, or pasted into it) does not open. Until the
    /// user acts or dismisses it, the page does not overwrite the address bar or the autosave.
    BadLink(crate::sharing::OpenError),
    /// The browser refused to autosave the session (the last saved one is kept).
    AutosaveFailed,
    /// The session the page opened with (its link or the autosave) could not be read: the part
    /// of the app that reads it did not load. As with a bad link, nothing is saved over it until
    /// the user acts.
    NotRestored,
}

impl Alert {
    /// Whether, while it is shown, the page keeps the address bar and the autosave as they are
    /// (the session the user had is not overwritten by the one shown).
    pub fn keeps_saved(&self) -> bool {
        matches!(self, Self::BadLink(_) | Self::NotRestored)
    }
}

/// The speed of virtual time, as a step on a log scale: `10^(step / 10)`, from 0.1× to 10×.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Speed(pub i32);

impl Speed {
    /// The slowest step (0.1×).
    pub const MIN: i32 = -10;
    /// The fastest step (10×).
    pub const MAX: i32 = 10;
    /// One step of `+`/`-` on the keyboard: a factor of about 1.58.
    pub const KEY_STEP: i32 = 2;

    /// Virtual milliseconds per wall-clock millisecond.
    pub fn factor(self) -> f64 {
        crate::num::pow(10.0, f64::from(self.0.clamp(Self::MIN, Self::MAX)) / 10.0)
    }

    /// The speed `by` steps faster (or slower), within the range.
    pub fn nudged(self, by: i32) -> Self {
        Self((self.0 + by).clamp(Self::MIN, Self::MAX))
    }

    /// `0.1×`, `1×`, `2.5×`, `10×`: two significant digits.
    pub fn label(self) -> String {
        let f = self.factor();
        let s = if f >= 9.95 {
            crate::num::short(f, 0)
        } else if f >= 0.995 {
            crate::num::short(f, 1)
        } else {
            crate::num::short(f, 2)
        };
        format!("{s}×")
    }
}

/// Listeners called on every animation frame (the moving tokens, the clock readout).
#[derive(Default)]
pub struct FrameBus {
    next: Cell<u32>,
    listeners: RefCell<Vec<(u32, Callback<()>)>>,
}

impl FrameBus {
    /// Adds a listener; returns its key for [`FrameBus::unsubscribe`].
    pub fn subscribe(&self, cb: Callback<()>) -> u32 {
        let key = self.next.get();
        self.next.set(key.wrapping_add(1));
        self.listeners.borrow_mut().push((key, cb));
        key
    }

    /// Removes a listener.
    pub fn unsubscribe(&self, key: u32) {
        self.listeners.borrow_mut().retain(|(k, _)| *k != key);
    }

    /// Calls every listener.
    pub fn emit(&self) {
        // Copy first: a listener may (un)subscribe while it runs.
        let listeners: Vec<Callback<()>> = self.listeners.borrow().iter().map(|(_, c)| c.clone()).collect();
        for cb in listeners {
            cb.emit(());
        }
    }
}

/// Everything the panels render from, plus the handles the animation loop needs.
#[derive(Clone)]
pub struct Playground {
    /// The simulation (mutated in place by the animation loop and by commands).
    pub world: Rc<RefCell<World>>,
    /// The picture of the world the panels render.
    pub view: Rc<View>,
    /// Whether virtual time runs.
    pub playing: bool,
    /// How fast it runs.
    pub speed: Speed,
    /// What the inspector shows.
    pub selection: Option<Selection>,
    /// The last command the engine refused (its English reason).
    pub refused: Option<String>,
    /// Redraws per animation frame.
    pub frames: Rc<FrameBus>,
    /// The open lesson, if any.
    pub lesson: Option<Rc<LessonRun>>,
    /// The problem shown at the top of the page, if any.
    pub alert: Option<Alert>,
    /// What the event log shows.
    pub log_filter: LogFilter,
    /// The imported scenario or log shown (its name, description and log lines), if any.
    pub imported: Option<Rc<crate::sharing::Imported>>,
    /// Bumped on every change, so that effects can depend on it.
    pub version: u64,
}

impl PartialEq for Playground {
    fn eq(&self, other: &Self) -> bool {
        self.version == other.version && Rc::ptr_eq(&self.world, &other.world)
    }
}

impl Playground {
    /// A playground on a new world with this seed, paused or playing.
    pub fn new(seed: u64, playing: bool) -> Self {
        let mut world = World::new(seed);
        let view = Rc::new(world.view());
        Self {
            world: Rc::new(RefCell::new(world)),
            view,
            playing,
            speed: Speed(0),
            selection: None,
            refused: None,
            frames: Rc::new(FrameBus::default()),
            lesson: None,
            alert: None,
            log_filter: LogFilter::default(),
            imported: None,
            version: 0,
        }
    }
}

/// A change to the playground.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// The log grew: copy the world again.
    Refresh,
    /// Play or pause.
    TogglePlay,
    /// Pause.
    Pause,
    /// Run to the next instant at which the log shows something, or a consumer's card changes
    /// state (and pause).
    Step,
    /// Set the speed.
    SetSpeed(Speed),
    /// Speed up or slow down by this many steps.
    NudgeSpeed(i32),
    /// Start again with a new world and this seed.
    Reset(u64),
    /// Do something to the world.
    Command(Command),
    /// Show something in the inspector (or nothing).
    Select(Option<Selection>),
    /// Open a lesson at a step (its world is already shown), or end it (`None`).
    Lesson(Option<LessonRun>),
    /// Play ran the open lesson to the end of its step: show the step's end, paused.
    LessonStepEnded,
    /// Show a problem at the top of the page, or dismiss it (`None`).
    Alert(Option<Alert>),
    /// Change what the event log shows.
    SetLogFilter(LogFilter),
    /// Show what was imported (a scenario or a log), or nothing.
    Imported(Option<Rc<crate::sharing::Imported>>),
    /// Compare mode was opened on the story shown (`true`: the detail panels' code opened it in
    /// the world, [`crate::lazy::Panels::enter_compare`]), or go back to the normal session.
    Compare(bool),
    /// The world was changed in place by a command whose code comes with the detail panels (new
    /// start settings, [`crate::world::World::restarted`]), or was refused: recorded as a
    /// [`Change::Command`] is.
    Applied(Result<(), String>),
}

impl Reducible for Playground {
    type Action = Change;

    fn reduce(self: Rc<Self>, change: Change) -> Rc<Self> {
        let mut next = (*self).clone();
        next.version += 1;
        match change {
            Change::Refresh => {}
            Change::TogglePlay => {
                next.playing = !next.playing;
                if next.playing {
                    // In a lesson, time runs only up to the end of the step.
                    if let Some(run) = next.lesson.clone() {
                        if reached(&next.world.borrow(), run.stop_seq()) {
                            next.playing = false;
                            next.lesson = Some(Rc::new(LessonRun {
                                at_end: true,
                                ..(*run).clone()
                            }));
                        }
                    }
                }
            }
            Change::Pause => next.playing = false,
            Change::Step => {
                next.playing = false;
                let stop = next.lesson.as_ref().map(|run| run.stop_seq());
                let ended = step_to_shown(&mut next.world.borrow_mut(), &next.log_filter, stop);
                if let (true, Some(run)) = (ended, next.lesson.clone()) {
                    end_step(&mut next, &run);
                }
            }
            Change::LessonStepEnded => {
                next.playing = false;
                if let Some(run) = next.lesson.clone() {
                    end_step(&mut next, &run);
                }
            }
            Change::Lesson(run) => {
                next.playing = false;
                if run.is_some() {
                    next.imported = None;
                }
                next.lesson = run.map(Rc::new);
            }
            Change::SetSpeed(s) => next.speed = Speed(s.0.clamp(Speed::MIN, Speed::MAX)),
            Change::NudgeSpeed(by) => next.speed = next.speed.nudged(by),
            Change::Reset(seed) => {
                let fresh = Playground::new(seed, next.playing);
                next.world = fresh.world;
                next.selection = None;
                next.refused = None;
                // Reset ends a lesson, and the imported scenario's panel.
                next.lesson = None;
                next.imported = None;
                if next.alert.as_ref().is_some_and(Alert::keeps_saved) {
                    next.alert = None;
                }
            }
            Change::Command(cmd) => {
                let result = next.world.borrow_mut().apply(cmd);
                acted(&mut next, result);
            }
            Change::Applied(result) => acted(&mut next, result),
            Change::Compare(on) => {
                // (Time runs on if it ran: the columns start where the session was.)
                next.selection = None;
                if on {
                    next.lesson = None;
                    next.refused = None;
                } else {
                    next.world.borrow_mut().leave_compare();
                }
            }
            Change::Alert(alert) => next.alert = alert,
            Change::SetLogFilter(filter) => next.log_filter = filter,
            Change::Imported(imported) => next.imported = imported,
            Change::Select(sel) => next.selection = sel,
        }
        next.view = Rc::new(next.world.borrow_mut().view());
        Rc::new(next)
    }
}

/// Records a command's result: acting forks the world away from the lesson's scenario, so the
/// lesson ends (its steps no longer describe what is shown) and the world stays; a refusal is
/// shown; and acting on the session makes it the one to keep (a bad link is let go).
fn acted(next: &mut Playground, result: Result<(), String>) {
    if result.is_ok() {
        next.lesson = None;
    }
    next.refused = result.err();
    if next.alert.as_ref().is_some_and(Alert::keeps_saved) {
        next.alert = None;
    }
}

/// Shows the lesson's world exactly at the end of the step (the instant of its stop event; a frame
/// or a step may have run past it), and marks the step ended.
fn end_step(next: &mut Playground, run: &LessonRun) {
    let stop = run.stop_seq();
    *next.world.borrow_mut() = lessons::world_at(&run.loaded, stop);
    next.lesson = Some(Rc::new(LessonRun {
        at_end: true,
        ..run.clone()
    }));
}

/// The playground as components get it from the context.
pub type PlaygroundContext = UseReducerHandle<Playground>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speed_is_a_log_scale_from_a_tenth_to_ten() {
        assert!((Speed(Speed::MIN).factor() - 0.1).abs() < 1e-9);
        assert!((Speed(0).factor() - 1.0).abs() < 1e-9);
        assert!((Speed(Speed::MAX).factor() - 10.0).abs() < 1e-9);
        assert_eq!(Speed(0).label(), "1×");
        assert_eq!(Speed(10).label(), "10×");
        assert_eq!(Speed(-10).label(), "0.1×");
        assert_eq!(Speed(4).label(), "2.5×");
        assert_eq!(Speed(9).nudged(5), Speed(10));
    }
}
