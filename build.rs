//! Writes the lesson index into the app: each preset's id, title in both languages, and its steps
//! as the engine resolves them here, natively (the event each step shows and the correct choice of
//! its question). The app so needs neither a download for the lesson list nor the code that
//! resolves lessons; the lesson files themselves are fetched when one is opened (Trunk copies
//! `lessons/` next to the app), which keeps them out of the wasm bundle. A lesson that does not
//! parse or resolve fails the build with the engine's error.
//!
//! With the `split` feature, for wasm, it also asks the linker to keep the app's relocations:
//! `wasm-split-cli` reads them to cut the module at its split points (scripts/build-app.sh).

use std::fmt::Write as _;
use std::{env, fs, path::Path};

use rebalance_engine::lesson::Lesson;
use rebalance_engine::Scenario;

fn main() {
    if env::var_os("CARGO_FEATURE_SPLIT").is_some()
        && env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32")
    {
        println!("cargo::rustc-link-arg-bin=rebalance-playground=--emit-relocs");
    }
    println!("cargo:rerun-if-changed=lessons");
    let mut ids: Vec<String> = fs::read_dir("lessons")
        .expect("the lessons/ folder")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|name| name.strip_suffix(".lesson.json").map(str::to_owned))
        .collect();
    ids.sort();

    let mut out = String::from("[\n");
    for id in &ids {
        let read = |name: &str| {
            fs::read_to_string(Path::new("lessons").join(name))
                .unwrap_or_else(|e| panic!("lessons/{name}: {e}"))
        };
        let lesson = Lesson::from_json(&read(&format!("{id}.lesson.json")))
            .unwrap_or_else(|e| panic!("lessons/{id}.lesson.json: {e}"));
        // The app fetches the scenario by the lesson's id.
        assert_eq!(
            lesson.scenario,
            format!("{id}.json"),
            "lessons/{id}.lesson.json: its scenario must be {id}.json"
        );
        let scenario = Scenario::from_json(&read(&lesson.scenario))
            .unwrap_or_else(|e| panic!("lessons/{}: {e}", lesson.scenario));
        let steps = lesson
            .resolve(&scenario)
            .unwrap_or_else(|e| panic!("lessons/{id}.lesson.json: {e}"));
        writeln!(
            out,
            "    Preset {{ id: {id:?}, title_en: {:?}, title_zh: {:?}, steps: &[",
            lesson.title.en, lesson.title.zh
        )
        .unwrap();
        for (k, s) in steps.iter().enumerate() {
            // The app pairs the k-th resolved step with the k-th narrated one.
            assert_eq!(s.index, k, "lessons/{id}.lesson.json: steps resolve in order");
            writeln!(
                out,
                "        Step {{ id: {:?}, seq: {}, correct: {:?} }},",
                s.id,
                s.seq,
                s.reveal.as_ref().map(|r| r.correct)
            )
            .unwrap();
        }
        out.push_str("    ] },\n");
    }
    out.push(']');
    let dest = Path::new(&env::var("OUT_DIR").unwrap()).join("lesson_index.rs");
    fs::write(dest, out).unwrap();
}
