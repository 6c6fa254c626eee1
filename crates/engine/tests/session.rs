//! A [`Session`] is the one way the engine is driven interactively; it must tell exactly the story
//! `rebalance-sim run` tells, however a learner moves through it.

mod common;

use rebalance_engine::network::SplitMix64;
use rebalance_engine::sim::Action;
use rebalance_engine::{ConsumerConfig, GroupState, Scenario, Session, SimTime, Subscription};

use common::sim::{repo_root, run_to_end};

/// Every scenario of `scenarios/` and every lesson's scenario, with its file name.
fn shipped() -> Vec<(String, Scenario)> {
    let mut out = Vec::new();
    for dir in ["scenarios", "lessons"] {
        let mut paths: Vec<_> = std::fs::read_dir(repo_root().join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| {
                let name = p.file_name().unwrap().to_string_lossy();
                name.ends_with(".json") && !name.ends_with(".lesson.json")
            })
            .collect();
        paths.sort();
        for p in paths {
            let text = std::fs::read_to_string(&p).unwrap();
            let name = format!("{dir}/{}", p.file_name().unwrap().to_string_lossy());
            let s = Scenario::from_json(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            out.push((name, s));
        }
    }
    assert!(out.len() >= 29, "{} files", out.len());
    out
}

/// What `rebalance-sim run` prints for a scenario, both formats.
fn cli_traces(s: &Scenario) -> (String, String) {
    let sim = run_to_end(s);
    (sim.trace_jsonl(), sim.trace_text(true))
}

fn session_traces(s: &Session) -> (String, String) {
    (s.trace_jsonl(), s.trace_text(true))
}

fn assert_same(name: &str, how: &str, want: &(String, String), got: &(String, String)) {
    if want != got {
        let (a, b) = (&want.1, &got.1);
        let line = a.lines().zip(b.lines()).position(|(x, y)| x != y);
        panic!(
            "{name} {how}: the trace differs from rebalance-sim run's at line {line:?}:\n  run:     {:?}\n  session: {:?}",
            line.and_then(|i| a.lines().nth(i)),
            line.and_then(|i| b.lines().nth(i)),
        );
    }
}

#[test]
fn every_shipped_file_tells_the_same_story_played_straight() {
    for (name, s) in shipped() {
        let want = cli_traces(&s);
        let mut session = Session::new(s.clone()).unwrap();
        session.run_to_end();
        assert_same(&name, "played straight", &want, &session_traces(&session));
    }
}

#[test]
fn every_shipped_file_tells_the_same_story_after_twenty_random_seeks() {
    let mut rng = SplitMix64::new(20_261_201);
    for (name, s) in shipped() {
        let want = cli_traces(&s);
        let mut session = Session::new(s.clone()).unwrap();
        session.run_to_end();
        let end = session.now().as_millis();
        let mut seen = Vec::new();
        for _ in 0..20 {
            let t = rng.next_u64() % (end + 1);
            session.seek(SimTime(t));
            assert_eq!(session.now(), SimTime(t), "{name}");
            // What is shown at `t` is the recorded story up to `t`.
            let shown = session.log().len();
            assert!(session.log().iter().all(|e| e.at <= SimTime(t)), "{name} at {t}");
            assert!(
                session.log_ahead().iter().all(|e| e.at >= SimTime(t)),
                "{name} at {t}"
            );
            seen.push(shown);
        }
        session.run_to_end();
        assert_same(&name, "after 20 seeks and back", &want, &session_traces(&session));
        assert!(seen.iter().any(|n| *n > 0), "{name}: the seeks showed something");
    }
}

#[test]
fn every_shipped_file_tells_the_same_story_after_a_fork_that_applies_nothing() {
    for (name, s) in shipped() {
        let want = cli_traces(&s);
        let mut session = Session::new(s.clone()).unwrap();
        session.run_to(SimTime(s.end_ms / 3));
        let mut fork = session.fork();
        fork.run_to_end();
        assert_same(&name, "after a fork at a third", &want, &session_traces(&fork));
    }
}

/// Seeking back into a played session and forward again replays the user's own actions too.
#[test]
fn a_session_with_user_actions_replays_through_its_scenario() {
    let s = scenario_with_topic(11);
    let mut session = Session::new(s).unwrap();
    for (i, name) in ["C1", "C2", "C3"].into_iter().enumerate() {
        session.apply(add(name)).unwrap();
        session.run_to(SimTime(session.now().as_millis() + 7_000 + 1_300 * i as u64));
    }
    session.run_to(SimTime(60_000));
    session
        .apply(Action::Kill {
            consumer: "C2".into(),
        })
        .unwrap();
    session.run_to(SimTime(90_000));
    // A step lands on an instant that has run: the next action goes to the next millisecond.
    assert!(session.step());
    let stepped = session.now();
    let at = session
        .apply(Action::Close {
            consumer: "C1".into(),
        })
        .unwrap();
    assert_eq!(at, SimTime(stepped.as_millis() + 1));
    session.run_to(SimTime(150_000));
    let played = session_traces(&session);

    // The scenario that replays what is on screen, run by `rebalance-sim run`.
    let written = session.to_scenario();
    assert_eq!(written.end_ms, 150_000);
    let mut direct = rebalance_engine::Simulation::new(&written).unwrap();
    direct.run_until(SimTime(150_000));
    assert_eq!(direct.trace_text(true), played.1);

    for t in [
        1_000, 95_500, 20_000, 60_000, 149_999, 30_000, 7_001, 118_250, 45_000,
    ] {
        session.seek(SimTime(t));
        let mut fresh = rebalance_engine::Simulation::new(&written).unwrap();
        fresh.run_until(SimTime(t));
        assert_eq!(session.log(), fresh.log(), "the log at {t} ms");
        assert_eq!(
            session.horizon(),
            SimTime(150_000),
            "looking keeps the recorded future"
        );
    }
    session.seek(SimTime(150_000));
    assert_eq!(session_traces(&session), played);
}

#[test]
fn acting_in_the_past_forks_a_new_future_and_a_refused_action_changes_nothing() {
    let mut session = Session::new(scenario_with_topic(3)).unwrap();
    session.apply(add("C1")).unwrap();
    session.apply(add("C2")).unwrap();
    session.run_to(SimTime(80_000));
    session
        .apply(Action::Kill {
            consumer: "C2".into(),
        })
        .unwrap();
    session.run_to(SimTime(120_000));
    session.seek(SimTime(50_000));
    assert_eq!(session.history().len(), 2, "the kill comes later");
    assert!(session
        .apply(Action::Kill {
            consumer: "nobody".into()
        })
        .is_err());
    assert_eq!(
        session.horizon(),
        SimTime(120_000),
        "a refused action forks nothing"
    );
    session
        .apply(Action::Close {
            consumer: "C1".into(),
        })
        .unwrap();
    assert_eq!(session.horizon(), session.now());
    assert_eq!(session.history().len(), 3);
    session.run_to(SimTime(100_000));
    let written = session.to_scenario();
    for t in [52_000, 79_000, 40_000, 100_000] {
        session.seek(SimTime(t));
        let mut fresh = rebalance_engine::Simulation::new(&written).unwrap();
        fresh.run_until(SimTime(t));
        assert_eq!(session.log(), fresh.log(), "the log at {t} ms");
    }
    let c2 = session.sim().consumer("C2").unwrap();
    assert!(c2.lifecycle().is_running(), "the old future's kill is gone");
}

#[test]
fn the_group_view_is_the_scenarios_own_group() {
    let mut s = scenario_with_topic(1);
    s.group_id = "payments".into();
    s.coordinator.offsets_topic_num_partitions = Some(7);
    let session = Session::new(s).unwrap();
    let g = session.group_view();
    // Kafka: Utils.abs("payments".hashCode()) % 7, with Java's String.hashCode written out here.
    let hash = "payments"
        .encode_utf16()
        .fold(0i32, |h, c| h.wrapping_mul(31).wrapping_add(i32::from(c)));
    let expected = if hash == i32::MIN { 0 } else { hash.abs() } % 7;
    assert_eq!(g.partition, expected);
    assert_eq!(g.offsets_partitions, 7);
    assert_eq!(g.group_id, "payments");
    assert_eq!(g.state, GroupState::Empty);
    assert_eq!(
        g.described_state,
        GroupState::Dead,
        "DescribeGroups answers Dead before a join"
    );
    assert!(!g.exists);
    let leader = session.sim().cluster().leader(g.partition);
    assert_eq!(Some(g.coordinator), leader);
}

fn scenario_with_topic(seed: u64) -> Scenario {
    Scenario::from_json(&format!(
        r#"{{"version": 1, "seed": {seed}, "group_id": "test_group_1", "end_ms": 1,
            "topics": [{{"name": "test_topic", "partitions": 6, "records_per_sec": 12}}]}}"#
    ))
    .unwrap()
}

fn add(name: &str) -> Action {
    let mut c = ConsumerConfig::new(
        name,
        "test_group_1",
        Subscription::Topics(vec!["test_topic".into()]),
    );
    c.session_timeout_ms = 10_000;
    c.heartbeat_interval_ms = 3_000;
    c.processing_ms = 1_000;
    Action::AddConsumer { config: Box::new(c) }
}

/// A long session keeps a bounded log: the oldest entries go, the session says from when the log is
/// complete, and every moment can still be shown and replays the same.
#[test]
fn a_long_session_keeps_a_bounded_log_and_says_what_it_dropped() {
    let mut session = Session::new(scenario_with_topic(5))
        .unwrap()
        .with_log_limit(5_000);
    for name in ["C1", "C2", "C3"] {
        session.apply(add(name)).unwrap();
    }
    assert_eq!(session.log_dropped_before(), None);
    let mut longest = 0;
    for minute in 1..=30 {
        session.run_to(SimTime(minute * 60_000));
        longest = longest.max(session.log().len() + session.log_ahead().len());
    }
    assert!(longest <= 5_000, "{longest} entries kept");
    let dropped = session
        .log_dropped_before()
        .expect("a 30-minute session dropped old entries");
    let first = session.log().first().unwrap();
    assert!(
        first.at >= dropped && first.seq > 1,
        "{:?} after {dropped:?}",
        first.at
    );

    // The state of a moment whose lines were dropped is still there, and the kept lines are the
    // same as a replay's.
    let written = session.to_scenario();
    session.seek(SimTime(90_000));
    assert_eq!(session.now(), SimTime(90_000));
    assert!(session.log().is_empty() || session.log()[0].at >= dropped);
    let mut fresh = rebalance_engine::Simulation::new(&written).unwrap();
    fresh.run_until(SimTime(90_000));
    assert_eq!(session.sim().consumers(), fresh.consumers());
    session.seek(SimTime(30 * 60_000));
    let mut fresh = rebalance_engine::Simulation::new(&written).unwrap();
    fresh.run_until(SimTime(30 * 60_000));
    let kept = session.log();
    assert_eq!(kept, &fresh.log()[fresh.log().len() - kept.len()..]);
}

/// A seek replays recorded time without building its events (they were recorded); what it shows
/// must still be exactly what a simulation run straight to that moment has: the same log, the
/// same count of events emitted, the same consumers. Then playing on from there (a fork applying
/// an action) numbers the new events as a straight run does.
#[test]
fn a_seek_shows_exactly_what_a_straight_run_to_that_moment_has() {
    let mut rng = SplitMix64::new(20_261_202);
    for (name, s) in shipped() {
        let mut session = Session::new(s.clone()).unwrap();
        session.run_to_end();
        let end = session.now().as_millis();
        for _ in 0..4 {
            let t = SimTime(rng.next_u64() % (end + 1));
            session.seek(t);
            let mut straight = rebalance_engine::Simulation::new(&s).unwrap();
            straight.run_until(t);
            assert_eq!(
                session.sim().events_emitted(),
                straight.events_emitted(),
                "{name} at {t}"
            );
            assert_eq!(session.log(), straight.log(), "{name} at {t}");
            assert_eq!(session.sim().consumers(), straight.consumers(), "{name} at {t}");
        }
        // The end again: the recorded `End` line is shown once, as a straight run logs it.
        session.seek(SimTime(end));
        session.run_to_end();
        let straight = run_to_end(&s);
        assert_eq!(session.log(), straight.log(), "{name} at its end");
    }
}

/// The same with a log short enough that its oldest entries are dropped: a seek to a moment whose
/// lines are gone still counts the events as a straight run does, and a fork from there numbers
/// its new events as the replay of its scenario does.
#[test]
fn a_seek_into_dropped_log_lines_keeps_the_event_count() {
    let mut session = Session::new(scenario_with_topic(7))
        .unwrap()
        .with_log_limit(2_000);
    for name in ["C1", "C2", "C3"] {
        session.apply(add(name)).unwrap();
    }
    session.run_to(SimTime(10 * 60_000));
    let dropped = session.log_dropped_before().expect("old entries were dropped");
    let written = session.to_scenario();
    let mut rng = SplitMix64::new(3);
    let mut times: Vec<u64> = (0..6).map(|_| rng.next_u64() % 600_001).collect();
    times.push(dropped.as_millis().saturating_sub(1));
    times.push(dropped.as_millis());
    for t in times {
        let t = SimTime(t);
        session.seek(t);
        let mut straight = rebalance_engine::Simulation::new(&written).unwrap();
        straight.run_until(t);
        assert_eq!(
            session.sim().events_emitted(),
            straight.events_emitted(),
            "at {t}"
        );
        let kept = session.log();
        assert_eq!(
            kept,
            &straight.log()[straight.log().len() - kept.len()..],
            "at {t}"
        );
    }
    // A fork at 5 minutes: the new consumer's events follow on from the recorded count.
    session.seek(SimTime(5 * 60_000));
    session.apply(add("C4")).unwrap();
    session.run_to(SimTime(6 * 60_000));
    let mut straight = rebalance_engine::Simulation::new(&session.to_scenario()).unwrap();
    straight.run_until(SimTime(6 * 60_000));
    assert_eq!(session.sim().events_emitted(), straight.events_emitted());
    let kept = session.log();
    assert_eq!(kept, &straight.log()[straight.log().len() - kept.len()..]);
}

/// `Session::of_valid` (a caller's own valid scenario, not checked again) builds the session
/// `Session::new` builds: the same story, the same scenario back.
#[test]
fn a_session_of_a_valid_scenario_unchecked_tells_the_same_story() {
    for (name, s) in shipped() {
        let mut checked = Session::new(s.clone()).unwrap();
        let mut unchecked = Session::of_valid(s.clone());
        checked.run_to_end();
        unchecked.run_to_end();
        assert_same(
            &name,
            "of_valid",
            &session_traces(&checked),
            &session_traces(&unchecked),
        );
        assert_eq!(checked.to_scenario(), unchecked.to_scenario(), "{name}");
    }
}

/// An invalid scenario given to `Session::of_valid` is the caller's bug: debug builds say so.
#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "of_valid on an invalid scenario")]
fn an_invalid_scenario_unchecked_is_caught_in_debug_builds() {
    let (_, mut s) = shipped().remove(0);
    s.group_id.clear();
    let _ = Session::of_valid(s);
}
