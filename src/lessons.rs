//! The lesson presets and the simulation at a step. The app carries only their index (id and
//! titles, written by `build.rs`); a lesson's files (`lessons/<id>.json` and
//! `lessons/<id>.lesson.json`, which Trunk copies next to the app) are fetched when it is opened.

use rebalance_engine::lesson::{simulation_at, Lesson, ResolvedStep};
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

/// A lesson ready to step through: its narration, its scenario and its steps on the trace.
#[derive(Clone, Debug, PartialEq)]
pub struct Loaded {
    /// The narration.
    pub lesson: Lesson,
    /// The scenario it narrates.
    pub scenario: Scenario,
    /// Its steps, anchored to the trace.
    pub steps: Vec<ResolvedStep>,
}

/// Parses and resolves a lesson from its two files' texts.
pub fn parse(scenario: &str, lesson: &str) -> Result<Loaded, String> {
    let scenario = Scenario::from_json(scenario).map_err(|e| e.to_string())?;
    let lesson = Lesson::from_json(lesson).map_err(|e| e.to_string())?;
    let steps = lesson.resolve(&scenario).map_err(|e| e.to_string())?;
    Ok(Loaded {
        lesson,
        scenario,
        steps,
    })
}

/// Downloads, parses and resolves `preset`.
pub async fn fetch(preset: &Preset) -> Result<Loaded, String> {
    let scenario = fetch_text(&format!("lessons/{}.json", preset.id)).await?;
    let lesson = fetch_text(&format!("lessons/{}.lesson.json", preset.id)).await?;
    parse(&scenario, &lesson)
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

/// Parses and resolves preset `i` from the files in the source tree (native tests only).
#[cfg(test)]
pub fn load(i: usize) -> Result<Loaded, String> {
    let id = PRESETS.get(i).ok_or_else(|| format!("no lesson {i}"))?.id;
    let read = |name: String| {
        std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("lessons")
                .join(&name),
        )
        .map_err(|e| format!("{name}: {e}"))
    };
    parse(&read(format!("{id}.json"))?, &read(format!("{id}.lesson.json"))?)
}

/// The lesson's world at the end of the instant of event `seq` (`0`: the start).
pub fn world_at(loaded: &Loaded, seq: u64) -> Result<World, String> {
    let sim = simulation_at(&loaded.scenario, seq).map_err(|e| e.to_string())?;
    Ok(World::from_sim(sim, Some(loaded.scenario.clone()), Vec::new()))
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
            assert_eq!(loaded.lesson.title.en, preset.title_en);
            assert_eq!(loaded.lesson.title.zh, preset.title_zh);
            assert!(!loaded.steps.is_empty(), "{}", preset.id);
        }
    }

    #[test]
    fn a_broken_lesson_file_is_refused_with_a_message() {
        let err = parse("{", "{}").unwrap_err();
        assert!(!err.is_empty());
    }
}
