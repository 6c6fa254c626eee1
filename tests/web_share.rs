//! Sharing, autosave and bad input, in headless Chromium:
//! `cargo test -p rebalance-playground --target wasm32-unknown-unknown --test web_share`.
#![cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]

use rebalance_engine::share;
use rebalance_playground::sharing::{self, AUTOSAVE_KEY};
use rebalance_playground::world::{default_consumer, Command, World};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// A session with consumers added, one killed, and time in between.
fn played() -> World {
    let mut w = World::new(5);
    for _ in 0..3 {
        let name = w.next_consumer_name();
        w.apply(Command::AddConsumer(Box::new(default_consumer(&name))))
            .unwrap();
        w.advance(1_700.3);
    }
    for _ in 0..40 {
        w.advance(250.0);
    }
    w.apply(Command::Kill("C2".into())).unwrap();
    w.apply(Command::AddPartition("test_topic".into())).unwrap();
    for _ in 0..30 {
        w.advance(333.0);
    }
    w
}

#[wasm_bindgen_test]
fn a_link_replays_exactly_the_same_run() {
    let w = played();
    assert_eq!(w.history().len(), 5);
    let link = sharing::session_link(&w);
    assert!(link.starts_with("rb1."));
    let mut back = sharing::open_link(&link).expect("the link opens");
    assert_eq!(back.now(), w.now());
    assert_eq!(
        back.session().trace_jsonl(),
        w.session().trace_jsonl(),
        "same events, same order"
    );
    let mut w = w;
    assert_eq!(back.view(), w.view());
    // The link of the replayed session is the same link.
    assert_eq!(sharing::session_link(&back), link);
}

#[wasm_bindgen_test]
fn export_then_import_is_the_same_session() {
    let w = played();
    let json = sharing::export_json(&w);
    assert!(json.contains("\"type\": \"kill\""), "{json}");
    let back = sharing::open_file(json.len() as f64, &json).expect("the export imports");
    assert_eq!(back.session().trace_jsonl(), w.session().trace_jsonl());
}

#[wasm_bindgen_test]
fn the_hash_holds_the_link() {
    assert_eq!(sharing::link_in_hash("#s=rb1.abc"), Some("rb1.abc"));
    assert_eq!(sharing::link_in_hash("#s="), None);
    assert_eq!(sharing::link_in_hash("#other"), None);
    assert_eq!(sharing::link_in_hash(""), None);
}

#[wasm_bindgen_test]
fn bad_input_names_the_problem() {
    let err = |r: Result<World, String>| r.err().expect("refused");
    assert!(err(sharing::open_file(10.0, "{ not json")).contains("invalid JSON"));
    assert!(err(sharing::open_file(40.0, r#"{"version": 2, "end_ms": 1}"#)).contains("unsupported version 2"));
    assert!(err(sharing::open_link("rb7.AAAA")).contains("another version"));
    assert!(err(sharing::open_link("hello")).contains("rb1."));
    let big = sharing::check_file_size(10.0 * 1024.0 * 1024.0).unwrap_err();
    assert!(big.contains("10.0 MB"), "{big}");

    let huge_end = r#"{"version": 1, "end_ms": 99999999999}"#;
    let e = err(sharing::open_file(40.0, huge_end));
    assert!(e.starts_with("end_ms"), "{e}");

    let many = r#"{"version": 1, "end_ms": 1000, "topics": [{"name": "t", "partitions": 2000000}]}"#;
    let e = err(sharing::open_file(80.0, many));
    assert!(e.contains("topics[0].partitions"), "{e}");

    let markup = r#"{"version": 1, "end_ms": 1000, "topics": [{"name": "t", "partitions": 1}],
        "client_defaults": {"subscription": {"topics": ["t"]}},
        "consumers": [{"name": "<img src=x onerror=alert(1)>"}]}"#;
    let e = err(sharing::open_file(200.0, markup));
    assert!(e.starts_with("consumers[0].name:"), "{e}");

    // The same markup inside a link is refused the same way.
    let scenario = rebalance_engine::Scenario::from_json(markup).unwrap();
    let e = err(sharing::open_link(&share::encode(&scenario)));
    assert!(e.contains("consumers[0].name"), "{e}");

    // A damaged link: one character changed.
    let link = sharing::session_link(&played());
    let mut chars: Vec<char> = link.chars().collect();
    let i = chars.len() / 2;
    chars[i] = if chars[i] == 'A' { 'B' } else { 'A' };
    let e = err(sharing::open_link(&chars.into_iter().collect::<String>()));
    assert!(e.contains("damaged"), "{e}");
}

#[wasm_bindgen_test]
fn autosave_restores_the_session_and_a_bad_link_keeps_it() {
    let window = web_sys::window().unwrap();
    let storage = window.local_storage().unwrap().unwrap();
    let w = played();
    let link = sharing::session_link(&w);
    storage.set_item(AUTOSAVE_KEY, &link).unwrap();
    let history = window.history().unwrap();

    history
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("#"))
        .unwrap();
    let pg = sharing::initial_playground();
    assert!(!pg.playing, "a restored session waits paused at its time");
    assert_eq!(pg.view.now, w.now());
    assert_eq!(
        pg.world.borrow().session().trace_jsonl(),
        w.session().trace_jsonl()
    );
    assert_eq!(sharing::take_startup_error(), None);

    // A broken link in the URL: the error is kept for the page, the autosaved session opens.
    history
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("#s=rb1.!!!"))
        .unwrap();
    let pg = sharing::initial_playground();
    assert_eq!(pg.view.now, w.now());
    let e = sharing::take_startup_error().expect("the bad link is reported");
    assert!(e.contains("damaged"), "{e}");

    // Nothing saved, no link: a fresh playground.
    storage.remove_item(AUTOSAVE_KEY).unwrap();
    history
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("#"))
        .unwrap();
    let pg = sharing::initial_playground();
    assert_eq!(pg.view.now.as_millis(), 0);
    assert!(pg.view.consumers.is_empty());
}

#[wasm_bindgen_test]
fn the_default_base_is_a_valid_scenario_of_the_playgrounds_new_world() {
    let base = sharing::default_base(3);
    // As a file, it reads back the same (so links and exports built on it are valid).
    let back = rebalance_engine::Scenario::from_json(&share::scenario_to_json(&base)).expect("valid");
    assert_eq!(back, base);
    // Its world is the one `World::new` builds: the same state, event for event.
    let from_base = World::from_scenario(&base).expect("replays");
    let new = World::new(3);
    assert!(!new.log().is_empty());
    let at_zero = |w: &World| {
        w.log()
            .iter()
            .filter(|e| e.at == rebalance_engine::SimTime::ZERO)
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(at_zero(&from_base), at_zero(&new));
}

/// Waits for the next animation frame and the tasks before it (rendering runs in between).
async fn next_frame() {
    let window = web_sys::window().unwrap();
    let frame = js_sys::Promise::new(&mut |resolve, _| {
        window.request_animation_frame(&resolve).unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(frame).await.unwrap();
    yew::scheduler::flush().await;
}

/// A change made just before the page goes is kept even when no save is scheduled for it yet:
/// Yew may run the effect that schedules one in a later task (when a render takes long), and a
/// reload can come first.
#[wasm_bindgen_test]
async fn leaving_the_page_saves_the_session_as_it_is() {
    let window = web_sys::window().unwrap();
    let storage = window.local_storage().unwrap().unwrap();
    storage.remove_item(AUTOSAVE_KEY).unwrap();
    window
        .history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("#"))
        .unwrap();
    let document = window.document().unwrap();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    let app = yew::Renderer::<rebalance_playground::App>::with_root(root.clone()).render();

    // The save the page makes as it opens (a moment after its first render) has run.
    let saved = || storage.get_item(AUTOSAVE_KEY).unwrap();
    for _ in 0..600 {
        if saved().is_some() {
            break;
        }
        next_frame().await;
    }
    let opened = saved().expect("the opened session is autosaved");
    assert!(sharing::open_link(&opened)
        .unwrap()
        .sim()
        .consumer_names()
        .is_empty());

    // Add a consumer and leave at once, in the same task: the world has changed (a reducer runs
    // as it is dispatched), but no effect has run, so no save waits.
    let add = document
        .get_element_by_id(rebalance_playground::app::ADD_CONSUMER_BUTTON_ID)
        .expect("the add-consumer button")
        .dyn_into::<web_sys::HtmlElement>()
        .unwrap();
    add.click();
    window
        .dispatch_event(&web_sys::Event::new("pagehide").unwrap())
        .unwrap();
    let left = saved().unwrap();
    let names = sharing::open_link(&left).unwrap().sim().consumer_names();
    assert_eq!(
        names.len(),
        1,
        "the consumer added just before leaving is saved: {names:?}"
    );

    app.destroy();
    storage.remove_item(AUTOSAVE_KEY).unwrap();
}

/// A link that does not open, translated whole from the codec's typed error (no English left in
/// the Chinese message).
#[wasm_bindgen_test]
fn a_damaged_link_is_explained_in_each_language() {
    use rebalance_playground::i18n::Lang;
    let e = sharing::open_link_checked("rb1.AA").err().expect("refused");
    // The English Display is the codec's, as before.
    assert!(e.to_string().contains("damaged"), "{e}");
    let zh = sharing::explain_open_error(Lang::Zh.strings(), &e);
    assert!(zh.contains("链接已损坏"), "{zh}");
    assert!(
        !zh.chars().any(|c| c.is_ascii_alphabetic()),
        "English left in {zh:?}"
    );
    let en = sharing::explain_open_error(Lang::En.strings(), &e);
    assert!(en.contains("damaged"), "{en}");
    for text in ["hello", "rb7.AAAA"] {
        let e = sharing::open_link_checked(text).err().expect("refused");
        let zh = sharing::explain_open_error(Lang::Zh.strings(), &e);
        assert!(!zh.contains("link") && !zh.contains("version"), "{zh}");
    }
}

/// Replaces `Storage.prototype.setItem` so that the autosave key cannot be written (a full or
/// blocked storage), or puts the browser's own back.
fn refuse_autosave(refuse: bool) {
    let code = if refuse {
        "if (!Storage.prototype.__setItem) Storage.prototype.__setItem = Storage.prototype.setItem;
         Storage.prototype.setItem = function (k, v) {
           if (k === 'rebalance-playground.session') throw new DOMException('full', 'QuotaExceededError');
           return this.__setItem(k, v);
         };"
    } else {
        "if (Storage.prototype.__setItem) Storage.prototype.setItem = Storage.prototype.__setItem;"
    };
    js_sys::Function::new_no_args(code)
        .call0(&wasm_bindgen::JsValue::NULL)
        .unwrap();
}

/// An autosave the browser refuses keeps the last good one and says so at the top of the page;
/// the alert goes once a save works again.
#[wasm_bindgen_test]
async fn an_autosave_that_cannot_be_written_keeps_the_last_good_one_and_says_so() {
    let window = web_sys::window().unwrap();
    let storage = window.local_storage().unwrap().unwrap();
    let good = sharing::session_link(&played());
    storage.set_item(AUTOSAVE_KEY, &good).unwrap();
    window
        .history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("#"))
        .unwrap();
    refuse_autosave(true);
    let document = window.document().unwrap();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    let app = yew::Renderer::<rebalance_playground::App>::with_root(root.clone()).render();
    let alert = || {
        root.query_selector(".app-alert[role=alert]")
            .unwrap()
            .and_then(|a| a.text_content())
    };
    // The page saves a moment after it opens: the save is refused.
    for _ in 0..600 {
        if alert().is_some() {
            break;
        }
        next_frame().await;
    }
    let text = alert().expect("the refused autosave is reported at the top");
    assert!(text.contains("last saved session is kept"), "{text}");
    assert_eq!(
        storage.get_item(AUTOSAVE_KEY).unwrap().as_deref(),
        Some(good.as_str())
    );

    // Storage works again: the next save goes through and the alert goes.
    refuse_autosave(false);
    let add = document
        .get_element_by_id(rebalance_playground::app::ADD_CONSUMER_BUTTON_ID)
        .unwrap()
        .dyn_into::<web_sys::HtmlElement>()
        .unwrap();
    add.click();
    for _ in 0..600 {
        if alert().is_none() {
            break;
        }
        next_frame().await;
    }
    assert_eq!(alert(), None);
    assert_ne!(
        storage.get_item(AUTOSAVE_KEY).unwrap().as_deref(),
        Some(good.as_str())
    );
    app.destroy();
    root.remove();
    storage.remove_item(AUTOSAVE_KEY).unwrap();
}

const STORM_LOG: &str = include_str!("../lessons/16-rebalance-storm.log");

/// The log reader's worker (the release build reads logs there, `log_worker`) gives the page what
/// the page's own reader gives: the same scenario, marks and files, and the same problems.
#[wasm_bindgen_test]
fn the_log_readers_worker_answers_what_the_page_reads_itself() {
    use rebalance_playground::log_worker::{answer, read_answer, request};
    let through_worker = |files: &[(String, String)]| read_answer(&answer(&request(files)));
    let storm = vec![("16-rebalance-storm.log".to_owned(), STORM_LOG.to_owned())];
    let (page, page_shown) = sharing::open_logs(&storm).expect("the log replays");
    let (worker, worker_shown) = through_worker(&storm).expect("the log replays in the worker");
    assert_eq!(worker_shown, page_shown);
    assert_eq!(worker.session().base(), page.session().base());
    assert_eq!(worker.now(), page.now());
    assert!(!worker_shown.marks.is_empty());
    // Two files, and text that is no log.
    let two = vec![
        ("a.log".to_owned(), STORM_LOG.to_owned()),
        ("b.log".to_owned(), "hello\n".to_owned()),
    ];
    assert_eq!(
        through_worker(&two).unwrap().1,
        sharing::open_logs(&two).unwrap().1
    );
    let none = vec![("x.log".to_owned(), "hello\nworld\n".to_owned())];
    assert_eq!(through_worker(&none).err(), sharing::open_logs(&none).err());
}

/// A Kafka log replays at t=0, paused, with its assumptions as the description and its group lines
/// as marks: the same scenario `rebalance-sim from-log` writes (the lesson's, but for its title).
#[wasm_bindgen_test]
fn a_kafka_log_replays_from_the_start_with_its_assumptions_and_lines() {
    let (world, imported) = sharing::open_log(STORM_LOG, "16-rebalance-storm.log").expect("the log replays");
    assert_eq!(world.now().as_millis(), 0);
    assert_eq!(world.horizon().as_millis(), world.session().base().end_ms);
    assert_eq!(imported.name, "Replay of group orders-app");
    let description = imported.description.clone().unwrap();
    assert!(description.contains("Assumed:"), "{description}");
    assert!(
        description.contains("max.poll.interval.ms is 30000 ms (its rebalanceTimeoutMs) (line 32)"),
        "{description}"
    );
    // 56 group lines of 64 (the reader's count; the rest are other loggers).
    assert_eq!(imported.marks.len(), 56);
    let lesson: rebalance_engine::Scenario =
        rebalance_engine::Scenario::from_json(include_str!("../lessons/16-rebalance-storm.json")).unwrap();
    let mut base = world.session().base().clone();
    base.name = lesson.name.clone();
    base.description = lesson.description.clone();
    assert_eq!(base, lesson);
}

/// Given something else than a scenario, the importer says what it is and what to do with it.
#[wasm_bindgen_test]
fn the_importer_says_what_a_non_scenario_is() {
    use rebalance_playground::i18n::Lang;
    use sharing::NotAScenario;
    let kind = |text: &str| sharing::open_file_checked(text.len() as f64, text).err();
    assert_eq!(kind(STORM_LOG), Some(NotAScenario::KafkaLog));
    let describe = "\nGROUP           TOPIC           PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG             CONSUMER-ID     HOST            CLIENT-ID\norders-app      orders          0          1042            1050            8               -               -               -\n";
    assert_eq!(kind(describe), Some(NotAScenario::Describe));
    assert_eq!(
        kind("bootstrap.servers=localhost:9092\ngroup.id=orders-app\n"),
        Some(NotAScenario::Properties)
    );
    let other = kind("hello").unwrap();
    let en = sharing::explain_not_a_scenario(Lang::En.strings(), &other);
    assert!(
        en.starts_with("Import reads scenario JSON files") && en.contains("invalid JSON"),
        "{en}"
    );
    let zh = sharing::explain_not_a_scenario(Lang::Zh.strings(), &NotAScenario::KafkaLog);
    assert!(zh.contains("导入日志"), "{zh}");
    let zh = sharing::explain_not_a_scenario(Lang::Zh.strings(), &NotAScenario::Describe);
    assert!(zh.contains("kafka-consumer-groups.sh --describe"), "{zh}");
}

#[wasm_bindgen_test]
fn a_log_that_cannot_replay_says_why() {
    use rebalance_playground::i18n::Lang;
    let e = sharing::open_log("hello\nworld\n", "x.log").err().unwrap();
    let en = sharing::explain_log_problem(Lang::En.strings(), &e);
    assert!(en.contains("no consumer-group lines in 3 line(s)"), "{en}");
    let consumer = include_str!("../crates/cli/tests/logs/kafka-4.1-consumer-protocol.log");
    let e = sharing::open_log(consumer, "c.log").err().unwrap();
    assert_eq!(e, sharing::LogProblem::ConsumerProtocol);
    assert!(sharing::explain_log_problem(Lang::Zh.strings(), &e).contains("KIP-848"));
}

/// A paste into "Import a log" opens whatever it is: a log replays, a scenario opens at t=0,
/// describe output is named with what to do.
#[wasm_bindgen_test]
fn a_paste_opens_a_log_a_scenario_or_says_what_it_is() {
    use rebalance_playground::i18n::Lang;
    assert!(matches!(
        sharing::open_paste(STORM_LOG),
        Ok(sharing::Opened::Log(..))
    ));
    let json = sharing::export_json(&played());
    match sharing::open_paste(&json) {
        Ok(sharing::Opened::Scenario(_, imported)) => assert_eq!(imported.name, "Playground session"),
        _ => panic!("the export opens as a scenario"),
    }
    let state = "\nGROUP                     COORDINATOR (ID)          ASSIGNMENT-STRATEGY  STATE           #MEMBERS\norders-app                broker-2.kafka:9092 (2)   range                Stable          2\n";
    let e = sharing::open_paste(state).err().unwrap();
    assert_eq!(
        e,
        sharing::PasteProblem::NotAScenario(sharing::NotAScenario::Describe)
    );
    assert!(sharing::explain_paste_problem(Lang::En.strings(), &e).contains("console panel"));
}

/// The session of [`played`], in compare mode (the same story under every protocol).
fn played_compare() -> World {
    let mut w = played();
    w.enter_compare().expect("compare mode opens");
    w
}

/// The export of a compare session says `"mode": "compare"` (a scenario file the CLI reads), and
/// importing it opens compare mode on the same story; a session's export has no mode and opens
/// as a session, as before.
#[wasm_bindgen_test]
fn an_export_in_compare_mode_imports_back_in_compare_mode() {
    let w = played_compare();
    let json = sharing::export_json(&w);
    assert!(json.contains("\"mode\": \"compare\""), "{json}");
    let file = rebalance_engine::Scenario::from_json(&json).expect("a scenario file");
    assert_eq!(file.mode, Some(share::LinkMode::Compare));
    let back = sharing::open_file(json.len() as f64, &json).expect("the export imports");
    let compare = back.compare().expect("the import opens compare mode");
    assert_eq!(compare.to_scenario(), w.compare().unwrap().to_scenario());
    // The mode is the world's, not the story's: the link of the import is the compare link.
    assert_eq!(sharing::session_link(&back), sharing::session_link(&w));
    // Pasted into "Import a log", the same file opens compare mode too.
    match sharing::open_paste(&json) {
        Ok(sharing::Opened::Scenario(world, _)) => assert!(world.compare().is_some()),
        _ => panic!("the export opens as a scenario"),
    }

    let session = played();
    let json = sharing::export_json(&session);
    // (A consumer's `commit` has a `mode` of its own; the file's top level has none.)
    assert_eq!(rebalance_engine::Scenario::from_json(&json).unwrap().mode, None);
    assert!(!json.contains("\"mode\": \"compare\""), "{json}");
    let back = sharing::open_file(json.len() as f64, &json).unwrap();
    assert!(back.compare().is_none());
}

/// The autosave keeps the mode next to the saved session: a reload returns to compare mode even
/// when the saved text itself has no mark; a flag left from another saved text, or one this
/// version does not know, is ignored; autosaves made before the flag open as their text says.
#[wasm_bindgen_test]
fn the_autosave_flag_restores_compare_mode_and_old_autosaves_still_open() {
    use sharing::AUTOSAVE_MODE_KEY;
    let window = web_sys::window().unwrap();
    let storage = window.local_storage().unwrap().unwrap();
    window
        .history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("#"))
        .unwrap();
    let w = played_compare();
    let story = w.compare().unwrap().to_scenario();
    let bare = share::encode(&story);
    let marked = sharing::session_link(&w);
    assert_eq!(marked, format!("{}{bare}", share::COMPARE_MARK));
    let open = |saved: &str, flag: Option<&str>| {
        storage.set_item(AUTOSAVE_KEY, saved).unwrap();
        match flag {
            Some(f) => storage.set_item(AUTOSAVE_MODE_KEY, f).unwrap(),
            None => storage.remove_item(AUTOSAVE_MODE_KEY).unwrap(),
        }
        let pg = sharing::initial_playground();
        assert_eq!(sharing::take_startup_error(), None);
        let compare = pg.world.borrow().compare().map(|c| c.to_scenario());
        compare
    };
    let flag = sharing::mode_flag(&bare, share::LinkMode::Compare).unwrap();
    // The flag alone carries the mode.
    assert_eq!(open(&bare, Some(&flag)).as_ref(), Some(&story));
    // The mark alone (every compare autosave made before the flag).
    assert_eq!(open(&marked, None).as_ref(), Some(&story));
    // A flag of another saved text, an unknown flag, no flag: a session.
    let other = sharing::mode_flag(&sharing::session_link(&World::new(7)), share::LinkMode::Compare).unwrap();
    assert_ne!(other, flag);
    for f in [Some(other.as_str()), Some("compare"), Some("on"), Some(""), None] {
        assert_eq!(open(&bare, f), None, "{f:?}");
    }

    // What the page saves writes the flag for a compare session and removes it for a session.
    assert!(sharing::autosave(&marked));
    assert_eq!(
        storage.get_item(AUTOSAVE_MODE_KEY).unwrap(),
        sharing::mode_flag(&marked, share::LinkMode::Compare)
    );
    assert!(sharing::autosave(&bare));
    assert_eq!(storage.get_item(AUTOSAVE_MODE_KEY).unwrap(), None);
    storage.remove_item(AUTOSAVE_KEY).unwrap();
}

/// What is left of a Chinese message once the user's own value (between “ and ”) and the link
/// format's tokens are taken out: it must hold no English.
fn zh_prose(zh: &str) -> String {
    let mut out = String::new();
    let mut quoted = false;
    for c in zh.chars() {
        match c {
            '“' => quoted = true,
            '”' => quoted = false,
            _ if !quoted => out.push(c),
            _ => {}
        }
    }
    out.replace("compare&", "").replace("rb1.", "")
}

/// Hostile compare marks in the address bar: each is refused with a message naming what is wrong
/// (in English and in Chinese, with no English left in the Chinese), and the session the user had
/// (the autosave) is what the page opens; the address bar keeps the link.
#[wasm_bindgen_test]
fn a_bad_compare_mark_is_named_in_both_languages_and_the_session_is_kept() {
    use rebalance_playground::i18n::Lang;
    let window = web_sys::window().unwrap();
    let storage = window.local_storage().unwrap().unwrap();
    let history = window.history().unwrap();
    let kept = played();
    storage
        .set_item(AUTOSAVE_KEY, &sharing::session_link(&kept))
        .unwrap();
    storage.remove_item(sharing::AUTOSAVE_MODE_KEY).unwrap();
    // An otherwise valid link of a classic session, made before compare mode existed.
    let classic = share::encode(&sharing::session_scenario(&played()));
    let huge_mode = format!("{}&", "x".repeat(100_000));
    let huge_payload = format!("compare&rb1.{}", "A".repeat(share::MAX_ENCODED_CHARS + 10));
    let cut = format!("compare&{}", &classic[..classic.len() - 7]);
    let cases: Vec<(String, &str, &str)> = vec![
        // (the link, what the English says, what the Chinese says)
        (format!("compar&{classic}"), "“compar&”", "“compar&”"),
        (
            format!("compare&compare&{classic}"),
            "“compare&compare&”",
            "“compare&compare&”",
        ),
        (format!("replay&{classic}"), "“replay&”", "“replay&”"),
        (format!("Compare&{classic}"), "“Compare&”", "“Compare&”"),
        (format!("{huge_mode}{classic}"), "…”", "…”"),
        (format!("{classic}&compare"), "“compare”", "“compare”"),
        (huge_payload, "too large", "太大"),
        (cut, "damaged", "损坏"),
    ];
    for (link, en_says, zh_says) in &cases {
        let e = sharing::open_link_checked(link).err().expect("refused");
        let en = sharing::explain_open_error(Lang::En.strings(), &e);
        let zh = sharing::explain_open_error(Lang::Zh.strings(), &e);
        assert!(en.contains(en_says), "{en}");
        assert!(zh.contains(zh_says), "{zh}");
        // The message is short whatever the link's size.
        assert!(
            en.chars().count() < 200 && zh.chars().count() < 200,
            "{en} / {zh}"
        );
        assert!(
            !zh_prose(&zh).chars().any(|c| c.is_ascii_alphabetic()),
            "English left in {zh:?}"
        );
        assert!(
            !en.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
            "Chinese in {en:?}"
        );

        // Opened from the address bar: the autosaved session opens, the problem is kept for the
        // page (shown at the top, with the link left in the address bar).
        let short = if link.len() > 200_000 {
            "#s=rb1.!!!".to_owned()
        } else {
            format!("#s={link}")
        };
        history
            .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&short))
            .unwrap();
        let pg = sharing::initial_playground();
        assert_eq!(pg.view.now, kept.now(), "{}", &short[..short.len().min(60)]);
        assert_eq!(
            pg.world.borrow().session().trace_jsonl(),
            kept.session().trace_jsonl()
        );
        assert!(pg.world.borrow().compare().is_none());
        assert!(sharing::take_startup_problem().is_some());
        assert_eq!(
            storage.get_item(AUTOSAVE_KEY).unwrap(),
            Some(sharing::session_link(&kept)),
            "nothing saved was overwritten"
        );
    }

    // The one mark on the same classic link opens compare mode on its story.
    let world = sharing::open_link_checked(&format!("compare&{classic}")).expect("opens");
    assert!(world.compare().is_some());
    assert_eq!(world.session().trace_jsonl(), played().session().trace_jsonl());

    history
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("#"))
        .unwrap();
    storage.remove_item(AUTOSAVE_KEY).unwrap();
}
