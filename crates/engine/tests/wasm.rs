//! The engine on `wasm32-unknown-unknown`, where the playground runs it: every committed scenario
//! and lesson golden must come out byte for byte as natively, and every scenario file runs to its
//! end with a log that survives its JSON round trip.
//!
//! `wasm-bindgen-test-runner` only sees `#[wasm_bindgen_test]` functions (the engine's other tests
//! are plain `#[test]`s, which it skips), so these checks are gathered here and run under Node:
//! `cargo test -p rebalance-engine --target wasm32-unknown-unknown --test wasm` (scripts/test.sh).
//! A wasm test has no file system, so the files are compiled in. Natively the same checks are
//! ignored (scenario_stories.rs and lesson_presets.rs run them; `-- --ignored` runs them here too),
//! and one test keeps the lists below equal to the directories.

use rebalance_engine::lesson::Lesson;
use rebalance_engine::sim::{SimEvent, SimEventKind, WorldEvent};
use rebalance_engine::{Scenario, Simulation};

/// `(name, scenario file)` of `scenarios/<name>.json`.
macro_rules! scenario {
    ($name:literal) => {
        (
            $name,
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../scenarios/",
                $name,
                ".json"
            )),
        )
    };
}

/// `(name, golden trace)` of `tests/golden_scenarios/<name>.txt`.
macro_rules! story_golden {
    ($name:literal) => {
        (
            $name,
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/golden_scenarios/",
                $name,
                ".txt"
            )),
        )
    };
}

/// `(name, lesson file, its scenario, golden)` of `lessons/<name>.lesson.json`, `lessons/<name>.json`
/// and `tests/golden_lessons/<name>.txt`.
macro_rules! lesson {
    ($name:literal) => {
        (
            $name,
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../lessons/",
                $name,
                ".lesson.json"
            )),
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../lessons/",
                $name,
                ".json"
            )),
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/golden_lessons/",
                $name,
                ".txt"
            )),
        )
    };
}

const SCENARIOS: &[(&str, &str)] = &[
    scenario!("a-then-b-joins"),
    scenario!("admin-console"),
    scenario!("all-isr-replicas-down"),
    scenario!("consumer-assignment-batching"),
    scenario!("consumer-protocol-coordinator-failover-during-reconciliation"),
    scenario!("consumer-protocol-crash-session-timeout"),
    scenario!("consumer-protocol-join-stable-group"),
    scenario!("consumer-protocol-join-stable-group-4.4"),
    scenario!("consumer-protocol-regex-topics-appear"),
    scenario!("consumer-protocol-slow-revoke-fenced"),
    scenario!("consumer-protocol-static-member-restart"),
    scenario!("consumer-protocol-three-members-join"),
    scenario!("consumer-protocol-three-members-join-4.4"),
    scenario!("cooperative-two-rebalances"),
    scenario!("coordinator-broker-crash"),
    scenario!("crash-detected-after-session-timeout"),
    scenario!("gc-pause-and-network-faults"),
    scenario!("graceful-close-immediate-rebalance"),
    scenario!("mixed-group-online-migration"),
    scenario!("pattern-subscription-and-topic-changes"),
    scenario!("preloaded-classic-group-over-max-size"),
    scenario!("preloaded-consumer-group"),
    scenario!("raw-protocol-requests"),
    scenario!("rebalance-with-commit-in-revoke"),
    scenario!("rebalance-without-commit-in-revoke"),
    scenario!("scripted-server-assignor"),
    scenario!("slow-follower-leaves-the-isr"),
    scenario!("static-member-bounce"),
    scenario!("unreplicated-commits-lost-in-failover"),
];

const STORY_GOLDENS: &[(&str, &str)] = &[
    story_golden!("a-then-b-joins"),
    story_golden!("consumer-assignment-batching"),
    story_golden!("consumer-protocol-coordinator-failover-during-reconciliation"),
    story_golden!("consumer-protocol-crash-session-timeout"),
    story_golden!("consumer-protocol-join-stable-group"),
    story_golden!("consumer-protocol-join-stable-group-4.4"),
    story_golden!("consumer-protocol-regex-topics-appear"),
    story_golden!("consumer-protocol-slow-revoke-fenced"),
    story_golden!("consumer-protocol-static-member-restart"),
    story_golden!("consumer-protocol-three-members-join"),
    story_golden!("consumer-protocol-three-members-join-4.4"),
    story_golden!("cooperative-two-rebalances"),
    story_golden!("crash-detected-after-session-timeout"),
    story_golden!("graceful-close-immediate-rebalance"),
    story_golden!("mixed-group-online-migration"),
    story_golden!("preloaded-classic-group-over-max-size"),
    story_golden!("preloaded-consumer-group"),
    story_golden!("rebalance-with-commit-in-revoke"),
    story_golden!("rebalance-without-commit-in-revoke"),
    story_golden!("scripted-server-assignor"),
];

const LESSONS: &[(&str, &str, &str, &str)] = &[
    lesson!("01-first-consumer"),
    lesson!("02-join-stable-group"),
    lesson!("03-graceful-leave"),
    lesson!("04-crash"),
    lesson!("05-slow-consumer"),
    lesson!("06-a-b-story"),
    lesson!("07-commit-in-revoke"),
    lesson!("08-zombie-commit"),
    lesson!("09-leader-leaves-completing"),
    lesson!("10-assignor-vote"),
    lesson!("11-partitions-added"),
    lesson!("12-static-membership"),
    lesson!("13-eager-vs-cooperative"),
    lesson!("14-offsets-expire"),
    lesson!("15-coordinator-failover"),
    lesson!("16-rebalance-storm"),
    lesson!("17-admin-tools"),
    lesson!("18-why-the-new-protocol"),
    lesson!("19-epochs-and-reconciliation"),
    lesson!("20-static-restart-both-protocols"),
    lesson!("21-online-migration"),
];

fn run(name: &str, json: &str) -> Simulation {
    let scenario = Scenario::from_json(json).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut sim = Simulation::new(&scenario).unwrap_or_else(|e| panic!("{name}: {e}"));
    sim.run_to_end();
    sim
}

fn scenario_json(name: &str) -> &'static str {
    SCENARIOS
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("no scenario {name}"))
        .1
}

/// Panics with the first differing line, as `common::golden` does natively.
fn assert_same(name: &str, got: &str, want: &str) {
    if got != want {
        let first = got.lines().zip(want.lines()).position(|(a, b)| a != b);
        let line = |text: &str| {
            first
                .and_then(|i| text.lines().nth(i))
                .unwrap_or_default()
                .to_owned()
        };
        panic!(
            "{name}: the wasm32 trace differs from the golden at line {:?} ({} expected vs {} actual lines)\n  expected: {}\n  actual:   {}",
            first.map(|i| i + 1),
            want.lines().count(),
            got.lines().count(),
            line(want),
            line(got)
        );
    }
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(
    not(target_arch = "wasm32"),
    ignore = "scenario_stories.rs checks these natively"
)]
fn every_story_golden_is_reproduced() {
    for (name, want) in STORY_GOLDENS {
        let sim = run(name, scenario_json(name));
        assert_same(name, &sim.trace_text(false), want);
    }
}

#[path = "common/lesson_text.rs"]
mod lesson_text;

/// The golden text of lesson_presets.rs.
fn lesson_text(sim: &Simulation, lesson: &Lesson, scenario: &Scenario) -> String {
    let steps = lesson.resolve(scenario).expect("the lesson resolves");
    lesson_text::golden_text(scenario, sim, lesson, &steps)
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(
    not(target_arch = "wasm32"),
    ignore = "lesson_presets.rs checks these natively"
)]
fn every_lesson_golden_is_reproduced() {
    for (name, lesson, scenario, want) in LESSONS {
        let lesson = Lesson::from_json(lesson).unwrap_or_else(|e| panic!("{name}.lesson.json: {e}"));
        let scenario = Scenario::from_json(scenario).unwrap_or_else(|e| panic!("{name}.json: {e}"));
        let mut sim = Simulation::new(&scenario).unwrap_or_else(|e| panic!("{name}: {e}"));
        sim.run_to_end();
        assert_same(name, &lesson_text(&sim, &lesson, &scenario), want);
    }
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(not(target_arch = "wasm32"), ignore = "the native tests run every scenario")]
fn every_scenario_runs_to_its_end_and_its_log_round_trips() {
    for (name, json) in SCENARIOS {
        let sim = run(name, json);
        let last = sim.log().last().map(|e| &e.kind);
        assert!(
            matches!(
                last,
                Some(SimEventKind::World {
                    event: WorldEvent::End
                })
            ),
            "{name}: the log ends with the scenario's end"
        );
        let parsed: Vec<SimEvent> = sim
            .trace_jsonl()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{name}: {e}: {l}")))
            .collect();
        assert_eq!(parsed, sim.log(), "{name}: the JSON lines read back as the log");
    }
}

/// The lists above name every file of their directories (natively: a wasm test cannot list them).
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn the_lists_name_every_file() {
    let stems = |dir: &str, suffix: &str| {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .filter_map(|e| {
                let name = e.ok()?.file_name().to_string_lossy().into_owned();
                name.strip_suffix(suffix).map(str::to_owned)
            })
            .collect();
        names.sort();
        names
    };
    let scenarios: Vec<&str> = SCENARIOS.iter().map(|s| s.0).collect();
    let stories: Vec<&str> = STORY_GOLDENS.iter().map(|s| s.0).collect();
    let lessons: Vec<&str> = LESSONS.iter().map(|s| s.0).collect();
    assert_eq!(scenarios, stems("../../scenarios", ".json"));
    assert_eq!(stories, stems("tests/golden_scenarios", ".txt"));
    assert_eq!(lessons, stems("../../lessons", ".lesson.json"));
    assert_eq!(lessons, stems("tests/golden_lessons", ".txt"));
}
