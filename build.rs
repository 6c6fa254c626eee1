//! Writes the lesson index (each preset's id and title in both languages) into the app, so the
//! lesson list needs no download; the lesson files themselves are fetched when one is opened
//! (Trunk copies `lessons/` next to the app), which keeps them out of the wasm bundle.

use std::fmt::Write as _;
use std::{env, fs, path::Path};

fn main() {
    println!("cargo:rerun-if-changed=lessons");
    let mut ids: Vec<String> = fs::read_dir("lessons")
        .expect("the lessons/ folder")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|name| name.strip_suffix(".lesson.json").map(str::to_owned))
        .collect();
    ids.sort();

    let mut out = String::from("[\n");
    for id in &ids {
        assert!(
            Path::new("lessons").join(format!("{id}.json")).is_file(),
            "lessons/{id}.lesson.json has no scenario file lessons/{id}.json"
        );
        let text = fs::read_to_string(Path::new("lessons").join(format!("{id}.lesson.json")))
            .unwrap_or_else(|e| panic!("lessons/{id}.lesson.json: {e}"));
        let json: serde_json::Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("lessons/{id}.lesson.json: {e}"));
        let title = |lang: &str| {
            json["title"][lang]
                .as_str()
                .unwrap_or_else(|| panic!("lessons/{id}.lesson.json: no title.{lang}"))
                .to_owned()
        };
        writeln!(
            out,
            "    Preset {{ id: {id:?}, title_en: {:?}, title_zh: {:?} }},",
            title("en"),
            title("zh")
        )
        .unwrap();
    }
    out.push(']');
    let dest = Path::new(&env::var("OUT_DIR").unwrap()).join("lesson_index.rs");
    fs::write(dest, out).unwrap();
}
