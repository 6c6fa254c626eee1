//! The twenty-one lesson presets (lessons/NN-name.json + lessons/NN-name.lesson.json): each scenario
//! runs to its end and its readable trace, followed by the resolved lesson steps, must equal the
//! committed golden file in tests/golden_lessons (regenerate with `UPDATE_GOLDEN=1`; a missing
//! golden fails). Every step must resolve and every question's computed answer must be one of its
//! choices. The key Kafka facts of each lesson are asserted directly in lesson_facts.rs.

mod common;

use std::path::PathBuf;

use common::golden::check_golden;
use common::sim::{repo_root, run_to_end};
use rebalance_engine::lesson::Lesson;
use rebalance_engine::Scenario;

fn lessons_dir() -> PathBuf {
    repo_root().join("lessons")
}

/// Every lesson file stem (`01-first-consumer`, ...), sorted.
fn lesson_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(lessons_dir())
        .unwrap()
        .filter_map(|e| {
            let name = e.ok()?.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".lesson.json").map(str::to_owned)
        })
        .collect();
    names.sort();
    names
}

#[path = "common/lesson_text.rs"]
mod lesson_text;
use lesson_text::golden_text;

fn load(name: &str) -> (Lesson, Scenario) {
    let dir = lessons_dir();
    let text = std::fs::read_to_string(dir.join(format!("{name}.lesson.json"))).unwrap();
    let lesson = Lesson::from_json(&text).unwrap_or_else(|e| panic!("{name}.lesson.json: {e}"));
    assert_eq!(lesson.id, name, "the lesson id is its file name");
    assert_eq!(lesson.scenario, format!("{name}.json"));
    let text = std::fs::read_to_string(dir.join(&lesson.scenario)).unwrap();
    let scenario = Scenario::from_json(&text).unwrap_or_else(|e| panic!("{}: {e}", lesson.scenario));
    (lesson, scenario)
}

#[test]
fn there_are_twenty_one_lessons() {
    let names = lesson_names();
    assert_eq!(names.len(), 21, "{names:?}");
    for (i, n) in names.iter().enumerate() {
        assert!(n.starts_with(&format!("{:02}-", i + 1)), "{n}");
    }
}

#[test]
fn every_lesson_resolves_and_matches_its_golden() {
    for name in lesson_names() {
        let (lesson, scenario) = load(&name);
        let steps = lesson
            .resolve(&scenario)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(steps.len(), lesson.steps.len());
        // Strictly in trace order; every question answered.
        assert!(steps.windows(2).all(|w| w[0].seq < w[1].seq), "{name}");
        for s in &steps {
            assert_eq!(
                s.reveal.is_some(),
                lesson.steps[s.index].predict.is_some(),
                "{name}: {}",
                s.id
            );
        }
        assert!(
            lesson.steps.iter().any(|s| s.predict.is_some()),
            "{name}: every lesson asks at least one question"
        );
        let sim = run_to_end(&scenario);
        check_golden(
            "golden_lessons",
            &name,
            &golden_text(&scenario, &sim, &lesson, &steps),
        );
    }
}

#[test]
fn lessons_are_deterministic_and_round_trip() {
    for name in lesson_names() {
        let (lesson, scenario) = load(&name);
        assert_eq!(Lesson::from_json(&lesson.to_json()).unwrap(), lesson, "{name}");
        let a = lesson.resolve(&scenario).unwrap();
        let b = lesson.resolve(&scenario).unwrap();
        assert_eq!(a, b, "{name}");
    }
}
