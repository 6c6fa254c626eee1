//! Sharing, export/import and autosave: the playground's session as a scenario of the engine's
//! format (settings + the user's timed actions + seed), and back.
//!
//! The pure parts (building the scenario, checking limits, replaying, parsing links and files)
//! live here and are tested in `tests/web_share.rs`; the browser glue (URL, localStorage, files)
//! is in the functions at the end.
//!
//! A session is written as the scenario that replays what is on screen
//! ([`rebalance_engine::Session::to_scenario`]) and opened as a new session of that scenario run to
//! its `end_ms` (the virtual time the link was made at). The engine places each action in its
//! instant the same way live and in a replay, so a link reproduces the same run event for event.

use std::cell::RefCell;
use std::rc::Rc;

use rebalance_engine::client::{check_name, NameIssue};
use rebalance_engine::fromlog::{self, TextKind};
use rebalance_engine::scenario::{ActionSpec, ConsumerSpec};
use rebalance_engine::{share, Scenario};

use crate::i18n::{fill, Strings};
use crate::state::{Alert, Playground};
pub use crate::world::default_base;
use crate::world::World;

/// The localStorage key of the autosaved session (an `rb1.` string).
pub const AUTOSAVE_KEY: &str = "rebalance-playground.session";

/// The localStorage key of the autosaved session's mode, next to it: `compare:<crc>` while the
/// session saved under [`AUTOSAVE_KEY`] is in compare mode, where `<crc>` is the CRC-32 of that
/// saved text (so a flag left from an older save, or a save the browser refused, never puts
/// another session in compare mode). Absent (or anything else) means a session, as in every
/// autosave made before the flag existed.
pub const AUTOSAVE_MODE_KEY: &str = "rebalance-playground.session-mode";

/// The sessionStorage (this tab's) key of the link the page last put in its URL. When the URL still
/// holds it on opening, the tab is being reloaded, and its latest link (saved as it left, perhaps
/// newer than the URL) wins.
pub const PUBLISHED_KEY: &str = "rebalance-playground.published";

/// The sessionStorage key of the tab's latest link.
pub const LATEST_KEY: &str = "rebalance-playground.latest";

/// The largest scenario file the import reads (checked before reading it).
pub const MAX_FILE_BYTES: f64 = 1024.0 * 1024.0;

/// The longest virtual time a link or file may ask the playground to replay (4 hours).
pub const MAX_END_MS: u64 = 4 * 3_600_000;

/// The most consumers (initial + added) a loaded scenario may start.
pub const MAX_CONSUMERS: usize = 100;

/// The most timed actions a loaded scenario may hold.
pub const MAX_ACTIONS: usize = 5_000;

/// The most partitions a topic may have in a loaded scenario.
pub const MAX_PARTITIONS: i32 = 1_000;

/// The highest produce rate (records per second per partition) in a loaded scenario.
pub const MAX_RATE: u64 = 10_000;

/// The most brokers in a loaded scenario.
pub const MAX_BROKERS: u32 = 16;

/// The fragment prefix of a share link: `#s=rb1....`.
pub const HASH_PREFIX: &str = "#s=";

/// The session as a scenario: where it started from, every action the user applied with its time,
/// and `end_ms` = the shown time (see [`rebalance_engine::Session::to_scenario`]).
pub fn session_scenario(world: &World) -> Scenario {
    match world.compare() {
        Some(c) => c.to_scenario(),
        None => world.session().to_scenario(),
    }
}

/// A name in a link or file, checked with the engine's one rule for names (the add-consumer form
/// uses the same one, so nothing the form accepts can make a session unsavable). An empty name
/// (such as an empty group id) is left to the scenario's own validation.
fn bad_name(path: &str, name: &str) -> Result<(), String> {
    match check_name(name) {
        Ok(()) | Err(NameIssue::Empty) => Ok(()),
        Err(NameIssue::Forbidden { c }) => Err(format!(
            "{path}: the name {:?} contains {:?}; names may not contain markup or control characters",
            truncate(name, 40),
            c
        )),
        Err(NameIssue::TooLong { chars, max }) => Err(format!(
            "{path}: the name is {chars} characters long (at most {max})"
        )),
    }
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_owned()
    } else {
        format!("{}…", s.chars().take(n).collect::<String>())
    }
}

/// The playground's own limits on a (valid) scenario: what it can replay in the browser in a
/// moment, and no markup in names. The message names the field.
pub fn check_limits(s: &Scenario) -> Result<(), String> {
    if s.end_ms > MAX_END_MS {
        return Err(format!(
            "end_ms: {} ms is more than the playground replays (at most {MAX_END_MS} ms, 4 hours)",
            s.end_ms
        ));
    }
    bad_name("group_id", &s.group_id)?;
    if let Some(n) = &s.name {
        bad_name("name", n)?;
    }
    if let Some(b) = s.cluster.brokers {
        if b > MAX_BROKERS {
            return Err(format!(
                "cluster.brokers: {b} brokers is more than the playground shows (at most {MAX_BROKERS})"
            ));
        }
    }
    if s.actions.len() > MAX_ACTIONS {
        return Err(format!(
            "actions: {} actions (at most {MAX_ACTIONS})",
            s.actions.len()
        ));
    }
    let partitions = |path: String, p: i32| {
        if p > MAX_PARTITIONS {
            Err(format!("{path}: {p} partitions (at most {MAX_PARTITIONS})"))
        } else {
            Ok(())
        }
    };
    let rate = |path: String, r: u64| {
        if r > MAX_RATE {
            Err(format!("{path}: {r} records per second (at most {MAX_RATE})"))
        } else {
            Ok(())
        }
    };
    for (i, t) in s.topics.iter().enumerate() {
        bad_name(&format!("topics[{i}].name"), &t.name)?;
        partitions(format!("topics[{i}].partitions"), t.partitions)?;
        rate(format!("topics[{i}].records_per_sec"), t.records_per_sec)?;
    }
    let check_consumer = |path: &str, c: &ConsumerSpec| -> Result<(), String> {
        for (field, v) in [
            ("name", &c.name),
            ("client_id", &c.client_id),
            ("group_instance_id", &c.group_instance_id),
        ] {
            if let Some(v) = v {
                bad_name(&format!("{path}.{field}"), v)?;
            }
        }
        Ok(())
    };
    let mut consumers = s.consumers.len();
    for (i, c) in s.consumers.iter().enumerate() {
        check_consumer(&format!("consumers[{i}]"), c)?;
    }
    for (i, a) in s.actions.iter().enumerate() {
        match a {
            ActionSpec::AddConsumer { consumer, .. } => {
                consumers += 1;
                check_consumer(&format!("actions[{i}].consumer"), consumer)?;
            }
            ActionSpec::CreateTopic {
                topic,
                partitions: p,
                records_per_sec,
                ..
            } => {
                bad_name(&format!("actions[{i}].topic"), topic)?;
                partitions(format!("actions[{i}].partitions"), *p)?;
                rate(format!("actions[{i}].records_per_sec"), *records_per_sec)?;
            }
            ActionSpec::AddPartitions { partitions: p, .. } => {
                partitions(format!("actions[{i}].partitions"), *p)?
            }
            ActionSpec::SetProduceRate { records_per_sec, .. } => {
                rate(format!("actions[{i}].records_per_sec"), *records_per_sec)?
            }
            _ => {}
        }
    }
    if consumers > MAX_CONSUMERS {
        return Err(format!(
            "consumers: {consumers} consumers (at most {MAX_CONSUMERS})"
        ));
    }
    Ok(())
}

/// Replays a scenario the way the playground plays (see the module doc) up to its `end_ms`.
pub fn replay(scenario: &Scenario) -> Result<World, String> {
    scenario.validate().map_err(|e| e.to_string())?;
    check_limits(scenario)?;
    // The world replays it itself, keeping snapshots for the timeline on the way.
    World::from_scenario(scenario)
}

/// The share string (`rb1.…`) of the session.
pub fn session_link(world: &World) -> String {
    let mode = if world.compare().is_some() {
        share::LinkMode::Compare
    } else {
        share::LinkMode::Session
    };
    share::encode_with_mode(&session_scenario(world), mode)
}

/// The share string in a page fragment, if the fragment is `#s=…`.
pub fn link_in_hash(hash: &str) -> Option<&str> {
    hash.strip_prefix(HASH_PREFIX).filter(|s| !s.is_empty())
}

/// Why a link could not be opened: the share codec's typed error, or the playground's reason for
/// not replaying its (valid) scenario.
#[derive(Clone, Debug, PartialEq)]
pub enum OpenError {
    /// The link does not decode to a valid scenario.
    Link(share::ShareError),
    /// The scenario decodes but the playground does not replay it (its reason, naming the field).
    Replay(String),
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Link(e) => e.fmt(f),
            Self::Replay(why) => write!(f, "the scenario in the link cannot be replayed: {why}"),
        }
    }
}

/// The problem in the user's language. The share codec's errors are translated whole; the reasons
/// that name a field of the scenario (in the scenario format's English) follow a translated lead.
pub fn explain_open_error(s: &Strings, e: &OpenError) -> String {
    use share::ShareError;
    let t = &s.share;
    match e {
        OpenError::Link(ShareError::NotOurFormat) => t.err_not_ours.to_owned(),
        OpenError::Link(ShareError::UnknownVersion(v)) => fill(t.err_version, &[("v", v)]),
        OpenError::Link(ShareError::TooLarge { size, limit }) => fill(
            t.err_too_large,
            &[("size", &size.to_string()), ("limit", &limit.to_string())],
        ),
        OpenError::Link(ShareError::BadChecksum) => t.err_checksum.to_owned(),
        OpenError::Link(ShareError::Corrupt(_)) => t.err_corrupt.to_owned(),
        OpenError::Link(ShareError::InvalidScenario(why)) => {
            fill(t.err_invalid, &[("why", &why.to_string())])
        }
        OpenError::Link(ShareError::UnknownMode(mode)) => fill(t.err_mode, &[("mode", mode)]),
        OpenError::Replay(why) => fill(t.err_replay, &[("why", why)]),
    }
}

/// Decodes and replays a share string (or a whole URL), with the typed reason it cannot. The mode
/// before the share string is checked strictly ([`share::parse_link_mode`]): a mode cut short,
/// doubled or unknown is refused with [`share::ShareError::UnknownMode`].
pub fn open_link_checked(text: &str) -> Result<World, OpenError> {
    let (scenario, mode) = share::decode_with_mode(text).map_err(OpenError::Link)?;
    open_in_mode(scenario, mode).map_err(OpenError::Replay)
}

/// Replays `scenario` and, in compare mode, opens compare mode on it (the normal session is the
/// same story, to return to when compare mode is left). The scenario's own `mode` (a file's) is
/// not kept in the session: the world's mode is what later links and exports say.
fn open_in_mode(mut scenario: Scenario, mode: share::LinkMode) -> Result<World, String> {
    scenario.mode = None;
    let mut world = replay(&scenario)?;
    if mode == share::LinkMode::Compare {
        let compare = rebalance_engine::compare::CompareSession::new(scenario).map_err(|e| e.to_string())?;
        world.open_compare(compare);
    }
    Ok(world)
}

/// Decodes and replays a share string (or a whole URL). The error names the problem (English).
pub fn open_link(text: &str) -> Result<World, String> {
    open_link_checked(text).map_err(|e| e.to_string())
}

/// Reads a scenario file (the CLI's format) and replays it, in compare mode if the file says
/// `"mode": "compare"` (as the export of a compare session does).
pub fn open_file(size: f64, text: &str) -> Result<World, String> {
    check_file_size(size)?;
    let scenario = Scenario::from_json(text).map_err(|e| e.to_string())?;
    let mode = scenario.mode.unwrap_or_default();
    open_in_mode(scenario, mode)
}

/// Refuses a file over [`MAX_FILE_BYTES`] before reading it.
pub fn check_file_size(size: f64) -> Result<(), String> {
    if size > MAX_FILE_BYTES {
        Err(format!(
            "the file is {} MB; scenario files are read up to {} MB.",
            crate::num::fixed(size / (1024.0 * 1024.0), 1),
            crate::num::fixed(MAX_FILE_BYTES / (1024.0 * 1024.0), 0)
        ))
    } else {
        Ok(())
    }
}

/// The exported file's text: the CLI's scenario format. In compare mode the file says
/// `"mode": "compare"` (which `rebalance-sim run` accepts and the simulation does not read), so
/// importing it opens compare mode again; a session's export has no `mode`, as before.
pub fn export_json(world: &World) -> String {
    let mut scenario = session_scenario(world);
    scenario.mode = world.compare().map(|_| share::LinkMode::Compare);
    share::scenario_to_pretty_json(&scenario)
}

// --- Browser glue -------------------------------------------------------------------------------

thread_local! {
    /// A problem found while opening the page (a bad link), shown by the share bar once.
    static STARTUP_ERROR: RefCell<Option<OpenError>> = const { RefCell::new(None) };
}

/// Takes the problem found while opening the page, if any (English).
pub fn take_startup_error() -> Option<String> {
    take_startup_problem().map(|e| e.to_string())
}

/// Takes the problem found while opening the page, if any.
pub fn take_startup_problem() -> Option<OpenError> {
    STARTUP_ERROR.with(|e| e.borrow_mut().take())
}

fn storage() -> Option<web_sys::Storage> {
    crate::prefs::window()?.local_storage().ok().flatten()
}

/// This tab's storage (it survives a reload, not the tab).
fn tab_storage() -> Option<web_sys::Storage> {
    crate::prefs::window()?.session_storage().ok().flatten()
}

/// Whether the page has a session to open: a share link in its URL, or an autosaved session.
/// Opening one needs the scenario reader, which the first load does not carry ([`crate::lazy`]),
/// so the app asks first and only then waits for it.
pub fn session_waiting() -> bool {
    let hash = crate::prefs::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    link_in_hash(&hash).is_some()
        || storage().is_some_and(|s| s.get_item(AUTOSAVE_KEY).ok().flatten().is_some())
}

/// What the page opens with, besides a new playground: the world of the link in the URL or of
/// the autosaved session, and the problem of a link that did not open.
pub struct Restored {
    /// The world to show, paused at its time (none: a new playground).
    pub world: Option<World>,
    /// The link in the URL that did not open (the autosaved session, if any, opens instead).
    pub problem: Option<OpenError>,
}

/// The session the page opens with: the link in the URL, else the autosaved session. A link that
/// does not open is reported ([`take_startup_problem`], and [`Restored::problem`]), and the
/// address bar keeps it until the user acts (see `Alert::BadLink`).
pub fn restore() -> Restored {
    let hash = crate::prefs::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    if let Some(link) = link_in_hash(&hash) {
        let tab = |key| tab_storage().and_then(|s| s.get_item(key).ok().flatten());
        // A reload of this tab: the URL holds the tab's own last link, and its latest link (saved
        // as it left) may be newer.
        if tab(PUBLISHED_KEY).as_deref() == Some(link) {
            if let Some(Ok(world)) = tab(LATEST_KEY).map(|l| open_link(&l)) {
                return Restored {
                    world: Some(world),
                    problem: None,
                };
            }
        }
        match open_link_checked(link) {
            Ok(world) => {
                return Restored {
                    world: Some(world),
                    problem: None,
                }
            }
            Err(e) => STARTUP_ERROR.with(|s| *s.borrow_mut() = Some(e)),
        }
    }
    let problem = STARTUP_ERROR.with(|e| e.borrow().clone());
    let world = storage().and_then(|s| {
        let saved = s.get_item(AUTOSAVE_KEY).ok().flatten()?;
        let flag = s.get_item(AUTOSAVE_MODE_KEY).ok().flatten();
        open_saved(&saved, flag.as_deref()).ok()
    });
    Restored { world, problem }
}

/// The playground the page opens with ([`restore`]): a link or autosave that opens is shown
/// paused at its time; a new playground plays, unless a link did not open. (The app opens it the
/// same way, once the scenario reader's module is in: `app::open_restored`.)
pub fn initial_playground() -> Playground {
    let Restored { world, problem } = restore();
    let mut pg = world.map_or_else(|| Playground::new(1, problem.is_none()), playground_with);
    pg.alert = problem.map(Alert::BadLink);
    pg
}

/// A paused playground on this world.
pub fn playground_with(world: World) -> Playground {
    let mut pg = Playground::new(world.seed, false);
    pg.view = Rc::new({
        let mut w = world;
        let v = w.view();
        *pg.world.borrow_mut() = w;
        v
    });
    pg
}

/// Puts the session's link in the URL (without a history entry) and autosaves it. Returns whether
/// the autosave was written.
pub fn publish(link: &str) -> bool {
    if let Some(window) = crate::prefs::window() {
        if let Ok(history) = window.history() {
            let _ = history.replace_state_with_url(
                &wasm_bindgen::JsValue::NULL,
                "",
                Some(&format!("{HASH_PREFIX}{link}")),
            );
        }
    }
    if let Some(s) = tab_storage() {
        let _ = s.set_item(PUBLISHED_KEY, link);
    }
    autosave(link)
}

/// Autosaves the link without touching the URL: what the page does as it leaves, when a change
/// of URL may come too late for a reload. Returns whether it was written: a browser may refuse
/// (storage full, or blocked), and then the last session saved stays as it was. The session's
/// mode is saved next to it ([`AUTOSAVE_MODE_KEY`], see [`mode_flag`]).
pub fn autosave(link: &str) -> bool {
    let written = storage().is_some_and(|s| {
        let ok = s.set_item(AUTOSAVE_KEY, link).is_ok();
        if ok {
            match mode_flag(link, share::link_mode(link)) {
                Some(flag) => {
                    let _ = s.set_item(AUTOSAVE_MODE_KEY, &flag);
                }
                None => {
                    let _ = s.remove_item(AUTOSAVE_MODE_KEY);
                }
            }
        }
        ok
    });
    if let Some(s) = tab_storage() {
        let _ = s.set_item(LATEST_KEY, link);
    }
    written
}

/// The autosave's mode flag for the saved text `saved` in `mode`: `compare:<CRC-32 of saved>` in
/// compare mode, none for a session.
pub fn mode_flag(saved: &str, mode: share::LinkMode) -> Option<String> {
    (mode == share::LinkMode::Compare).then(|| format!("compare:{:08x}", share::crc32(saved.as_bytes())))
}

/// Opens an autosaved session: the saved text as a link, in compare mode if the text says so or
/// if `flag` (the [`AUTOSAVE_MODE_KEY`] saved next to it) is this text's compare flag. A flag that
/// belongs to another text, or that this version does not know, is ignored: the session opens as
/// the text says, as every autosave made before the flag did.
pub fn open_saved(saved: &str, flag: Option<&str>) -> Result<World, OpenError> {
    let mut world = open_link_checked(saved)?;
    let flagged = flag.is_some() && flag == mode_flag(saved, share::LinkMode::Compare).as_deref();
    if flagged && world.compare().is_none() {
        world.enter_compare().map_err(OpenError::Replay)?;
    }
    Ok(world)
}

// --- Importing a non-scenario, and Kafka logs ------------------------------------------------------

/// What an importer was given when it was not what it reads, as the engine classifies it
/// ([`fromlog::classify`]): each gets its own advice in the user's language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotAScenario {
    /// A Kafka broker or client log: "Import a log" replays it.
    KafkaLog,
    /// `kafka-consumer-groups.sh --describe` output: one moment, not a story.
    Describe,
    /// `kafka-topics.sh --describe` output.
    TopicsDescribe,
    /// A properties file (`consumer.properties`).
    Properties,
    /// A share link: it opens from the address bar.
    ShareLink,
    /// Something else (the scenario parser's reason, in the scenario format's English).
    Other(String),
}

/// Reads a scenario file, saying what the text is when it is not one; in compare mode if the file
/// says `"mode": "compare"`.
pub fn open_file_checked(size: f64, text: &str) -> Result<World, NotAScenario> {
    check_file_size(size).map_err(NotAScenario::Other)?;
    match fromlog::classify(text) {
        TextKind::Json => {}
        TextKind::KafkaLog => return Err(NotAScenario::KafkaLog),
        TextKind::ConsumerGroupsDescribe => return Err(NotAScenario::Describe),
        TextKind::TopicsDescribe => return Err(NotAScenario::TopicsDescribe),
        TextKind::Properties => return Err(NotAScenario::Properties),
        TextKind::ShareLink => return Err(NotAScenario::ShareLink),
        TextKind::Other => {}
    }
    let scenario = Scenario::from_json(text).map_err(|e| NotAScenario::Other(e.to_string()))?;
    let mode = scenario.mode.unwrap_or_default();
    open_in_mode(scenario, mode).map_err(NotAScenario::Other)
}

/// The advice for a text that is not a scenario, in the user's language.
pub fn explain_not_a_scenario(s: &Strings, e: &NotAScenario) -> String {
    let t = &s.import;
    match e {
        NotAScenario::KafkaLog => t.is_log.to_owned(),
        NotAScenario::Describe => t.is_describe.to_owned(),
        NotAScenario::TopicsDescribe => t.is_topics.to_owned(),
        NotAScenario::Properties => t.is_properties.to_owned(),
        NotAScenario::ShareLink => t.is_link.to_owned(),
        NotAScenario::Other(why) => fill(t.accepts, &[("why", why)]),
    }
}

/// What was imported: the scenario's name and description (for a log, the assumptions), and for a
/// log its lines on the timeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Imported {
    /// The scenario's name (or the file's).
    pub name: String,
    /// The scenario's description.
    pub description: Option<String>,
    /// The log's group lines (empty for a scenario).
    pub marks: Vec<fromlog::LogMark>,
    /// The log's files, for each mark's `line.file`.
    pub files: Vec<String>,
}

impl Imported {
    /// The imported scenario's name and description.
    pub fn of_scenario(world: &World, fallback: &str) -> Self {
        let base = world.session().base();
        Self {
            name: base.name.clone().unwrap_or_else(|| fallback.to_owned()),
            description: base.description.clone(),
            marks: Vec::new(),
            files: Vec::new(),
        }
    }

    /// `line 12` or `b.log:12`, in the log's files.
    pub fn where_is(&self, m: &fromlog::LogMark) -> String {
        if self.files.len() > 1 {
            format!(
                "{}:{}",
                self.files.get(m.line.file).map_or("?", String::as_str),
                m.line.line
            )
        } else {
            m.line.line.to_string()
        }
    }
}

/// Why a log could not be replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LogProblem {
    /// No consumer-group line in it (the engine's count and what it looks for, English).
    NoGroupLines(String),
    /// The group uses the consumer protocol, which the simulation does not run yet.
    ConsumerProtocol,
    /// The replay's scenario goes past the playground's limits (the reason, naming the field).
    Replay(String),
}

/// The most log text the playground reads (the file's size is checked before reading it).
pub const MAX_LOG_BYTES: f64 = 32.0 * 1024.0 * 1024.0;

/// Replays a Kafka log (pasted or a file's text): the world at t=0, paused, and what to show of it.
pub fn open_log(text: &str, file_name: &str) -> Result<(World, Imported), LogProblem> {
    open_logs(&[(file_name.to_owned(), text.to_owned())])
}

/// Replays several log files (a broker's and its clients', interleaved by time).
pub fn open_logs(files: &[(String, String)]) -> Result<(World, Imported), LogProblem> {
    let mut importer = fromlog::Importer::new();
    for (name, text) in files {
        importer.begin_file(name);
        importer.push_text(text);
    }
    let replay = importer
        .finish()
        .map_err(|e| LogProblem::NoGroupLines(e.to_string()))?;
    if replay.consumer_protocol {
        return Err(LogProblem::ConsumerProtocol);
    }
    let mut world = self::replay(&replay.scenario).map_err(LogProblem::Replay)?;
    world.seek(rebalance_engine::SimTime(0));
    let imported = Imported {
        name: replay.scenario.name.clone().unwrap_or_default(),
        description: replay.scenario.description.clone(),
        marks: replay.marks,
        files: replay.files,
    };
    Ok((world, imported))
}

/// The reason a log was not replayed, in the user's language.
pub fn explain_log_problem(s: &Strings, e: &LogProblem) -> String {
    let t = &s.import;
    match e {
        LogProblem::NoGroupLines(why) => fill(t.no_group_lines, &[("why", why)]),
        LogProblem::ConsumerProtocol => t.consumer_protocol.to_owned(),
        LogProblem::Replay(why) => fill(s.share.err_replay, &[("why", why)]),
    }
}

/// What a paste into "Import a log" opened.
pub enum Opened {
    /// A scenario (JSON) or a share link: the world, and its name and description.
    Scenario(World, Imported),
    /// A Kafka log's replay.
    Log(World, Imported),
}

/// Why a paste opened nothing.
#[derive(Clone, Debug, PartialEq)]
pub enum PasteProblem {
    /// It is something no importer reads (describe output, properties...), or a bad scenario.
    NotAScenario(NotAScenario),
    /// A log that does not replay.
    Log(LogProblem),
    /// A share link that does not open.
    Link(OpenError),
}

/// Opens whatever was pasted: a Kafka log is replayed; a scenario (JSON) or a share link is
/// opened as the scenario importer and the address bar would; anything else is named.
pub fn open_paste(text: &str) -> Result<Opened, PasteProblem> {
    if let Some(opened) = open_paste_scenario(text) {
        return opened;
    }
    let (world, imported) = open_log(text, "pasted log").map_err(PasteProblem::Log)?;
    Ok(Opened::Log(world, imported))
}

/// [`open_paste`] without the log reader: `None` when the text is to be replayed as a log (which
/// the release build does in the log reader's worker, `crate::log_worker`).
pub fn open_paste_scenario(text: &str) -> Option<Result<Opened, PasteProblem>> {
    Some(match fromlog::classify(text) {
        TextKind::Json => open_file_checked(text.len() as f64, text)
            .map(|world| {
                let imported = Imported::of_scenario(&world, "scenario");
                Opened::Scenario(world, imported)
            })
            .map_err(PasteProblem::NotAScenario),
        TextKind::ShareLink => open_link_checked(text.trim())
            .map(|world| {
                let imported = Imported::of_scenario(&world, "link");
                Opened::Scenario(world, imported)
            })
            .map_err(PasteProblem::Link),
        TextKind::ConsumerGroupsDescribe => Err(PasteProblem::NotAScenario(NotAScenario::Describe)),
        TextKind::TopicsDescribe => Err(PasteProblem::NotAScenario(NotAScenario::TopicsDescribe)),
        TextKind::Properties => Err(PasteProblem::NotAScenario(NotAScenario::Properties)),
        TextKind::KafkaLog | TextKind::Other => return None,
    })
}

/// The reason a paste opened nothing, in the user's language.
pub fn explain_paste_problem(s: &Strings, e: &PasteProblem) -> String {
    match e {
        PasteProblem::NotAScenario(e) => explain_not_a_scenario(s, e),
        PasteProblem::Log(e) => explain_log_problem(s, e),
        PasteProblem::Link(e) => explain_open_error(s, e),
    }
}
