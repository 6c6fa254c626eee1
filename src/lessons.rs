//! The lesson presets and the simulation at a step. The app carries their index (id and titles)
//! and their steps as `build.rs` resolved them natively (the event each step shows, the correct
//! choice of its question), so it holds no lesson resolver; a lesson's files
//! (`lessons/<id>.json` and `lessons/<id>.lesson.json`, which Trunk copies next to the app) are
//! fetched when it is opened, for the scenario to simulate and the texts to show.

use rebalance_engine::lesson::{Narration, Text};
use rebalance_engine::Scenario;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::i18n::Lang;
use crate::world::World;

/// A preset lesson in the index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preset {
    /// Its id, the stem of its files' names.
    pub id: &'static str,
    /// Its title in English.
    pub title_en: &'static str,
    /// Its title in Chinese.
    pub title_zh: &'static str,
    /// Its steps, resolved against its scenario's trace, in the lesson's order.
    pub steps: &'static [Step],
}

/// A lesson step as the build resolved it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The step's id in the lesson file.
    pub id: &'static str,
    /// The sequence number of the event the step shows.
    pub seq: u64,
    /// The index of its question's correct choice (`None`: the step asks nothing).
    pub correct: Option<usize>,
}

impl Preset {
    /// Its title in `lang`.
    pub fn title(&self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.title_en,
            Lang::Zh => self.title_zh,
        }
    }
}

/// The presets, in order.
pub const PRESETS: &[Preset] = &include!(concat!(env!("OUT_DIR"), "/lesson_index.rs"));

/// A lesson ready to step through: its resolved steps, their texts and the scenario they narrate.
#[derive(Clone, Debug, PartialEq)]
pub struct Loaded {
    /// Its steps, as the build resolved them.
    pub steps: &'static [Step],
    /// The texts; its `k`-th step narrates `steps[k]`.
    pub narration: Narration,
    /// The scenario it narrates: a valid one ([`parse`] checked it; [`world_at`] relies on it).
    pub scenario: Scenario,
    /// What the lesson showed, for its last step.
    pub summary: Text,
    /// Its notes on Kafka's details.
    pub kafka_notes: Vec<Text>,
}

/// Reads `preset` from its two files' texts. The lesson file must have the steps the app was
/// built with (the same ids, a question exactly where the build computed an answer).
pub fn parse(preset: Preset, scenario: &str, lesson: &str) -> Result<Loaded, String> {
    let scenario = Scenario::from_json(scenario).map_err(|e| e.to_string())?;
    // (The texts only: the build has read and resolved the whole lesson, so the app carries no
    // reader of its matchers.)
    let narration = Narration::from_json(lesson).map_err(|e| e.to_string())?;
    let same_steps = narration.steps.len() == preset.steps.len()
        && preset.steps.iter().zip(&narration.steps).all(|(built, read)| {
            built.id == read.id
                && match (built.correct, &read.predict) {
                    (Some(c), Some(q)) => c < q.choices.len(),
                    (None, None) => true,
                    _ => false,
                }
        });
    if !same_steps {
        return Err(format!(
            "lessons/{}.lesson.json is not the lesson this app was built with",
            preset.id
        ));
    }
    Ok(Loaded {
        steps: preset.steps,
        scenario,
        summary: narration.summary.clone(),
        kafka_notes: narration.kafka_notes.clone(),
        narration,
    })
}

/// Downloads and reads `preset`.
pub async fn fetch(preset: Preset) -> Result<Loaded, String> {
    let scenario = fetch_text(&format!("lessons/{}.json", preset.id)).await?;
    let lesson = fetch_text(&format!("lessons/{}.lesson.json", preset.id)).await?;
    parse(preset, &scenario, &lesson)
}

/// The body of the file at `url` (relative to the page), or why it could not be read.
async fn fetch_text(url: &str) -> Result<String, String> {
    let window = web_sys::window().ok_or("no window")?;
    let response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|e| format!("{url}: {}", js_message(&e)))?;
    let response: web_sys::Response = response
        .dyn_into()
        .map_err(|_| format!("{url}: not a response"))?;
    if !response.ok() {
        return Err(format!(
            "{url}: HTTP {} {}",
            response.status(),
            response.status_text()
        ));
    }
    let text = response
        .text()
        .map_err(|e| format!("{url}: {}", js_message(&e)))?;
    let text = JsFuture::from(text)
        .await
        .map_err(|e| format!("{url}: {}", js_message(&e)))?;
    text.as_string().ok_or_else(|| format!("{url}: not text"))
}

fn js_message(e: &wasm_bindgen::JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "the request failed".to_owned())
}

/// Reads preset `i` from the files in the source tree (native tests only).
#[cfg(test)]
pub fn load(i: usize) -> Result<Loaded, String> {
    let preset = *PRESETS.get(i).ok_or_else(|| format!("no lesson {i}"))?;
    parse(
        preset,
        &source_file(&format!("{}.json", preset.id))?,
        &source_file(&format!("{}.lesson.json", preset.id))?,
    )
}

/// The text of `lessons/<name>` in the source tree (native tests only).
#[cfg(test)]
fn source_file(name: &str) -> Result<String, String> {
    std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("lessons")
            .join(name),
    )
    .map_err(|e| format!("{name}: {e}"))
}

/// The lesson's world at the end of the instant of event `seq` (`0`: the start).
pub fn world_at(loaded: &Loaded, seq: u64) -> World {
    World::at_event(&loaded.scenario, seq)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_lists_every_lesson_and_each_loads_from_its_files() {
        let on_disk = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/lessons"))
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .ends_with(".lesson.json")
            })
            .count();
        assert_eq!(PRESETS.len(), on_disk);
        assert_eq!(PRESETS[0].id, "01-first-consumer");
        for (i, preset) in PRESETS.iter().enumerate() {
            let loaded = load(i).unwrap_or_else(|e| panic!("{}: {e}", preset.id));
            assert_eq!(loaded.narration.title.en, preset.title_en);
            assert_eq!(loaded.narration.title.zh, preset.title_zh);
            assert!(!preset.steps.is_empty(), "{}", preset.id);
        }
    }

    #[test]
    fn the_built_in_steps_are_what_the_engine_resolves_from_the_files() {
        for preset in PRESETS {
            let lesson = rebalance_engine::lesson::Lesson::from_json(
                &source_file(&format!("{}.lesson.json", preset.id)).unwrap(),
            )
            .unwrap();
            let scenario =
                Scenario::from_json(&source_file(&format!("{}.json", preset.id)).unwrap()).unwrap();
            let built: Vec<(&str, u64, Option<usize>)> =
                preset.steps.iter().map(|s| (s.id, s.seq, s.correct)).collect();
            let steps = lesson.resolve(&scenario).unwrap();
            let resolved: Vec<(&str, u64, Option<usize>)> = steps
                .iter()
                .map(|r| (r.id.as_str(), r.seq, r.reveal.as_ref().map(|a| a.correct)))
                .collect();
            assert_eq!(built, resolved, "{}", preset.id);
        }
    }

    #[test]
    fn a_broken_lesson_file_is_refused_with_a_message() {
        let preset = PRESETS[0];
        let scenario = source_file(&format!("{}.json", preset.id)).unwrap();
        assert!(!parse(preset, "{", "{}").unwrap_err().is_empty());
        assert!(!parse(preset, &scenario, "{}").unwrap_err().is_empty());
    }

    #[test]
    fn a_lesson_file_that_differs_from_the_built_in_steps_is_refused() {
        let preset = PRESETS[0];
        let scenario = source_file(&format!("{}.json", preset.id)).unwrap();
        let lesson = source_file(&format!("{}.lesson.json", preset.id)).unwrap();
        let renamed = lesson.replacen(&format!("\"{}\"", preset.steps[0].id), "\"renamed\"", 1);
        assert_ne!(renamed, lesson);
        let err = parse(preset, &scenario, &renamed).unwrap_err();
        assert!(err.contains("not the lesson this app was built with"), "{err}");
        let mut fewer = preset;
        fewer.steps = &preset.steps[1..];
        assert!(parse(fewer, &scenario, &lesson).is_err());
        let mut unanswered = preset;
        let steps = preset
            .steps
            .iter()
            .map(|s| Step { correct: None, ..*s })
            .collect();
        unanswered.steps = Vec::leak(steps);
        assert!(parse(unanswered, &scenario, &lesson).is_err());
    }
}
