//! A bounded fuzz-style property test (native only: proptest needs an OS random source): random
//! mutations of the repository's scenario files, and of their share links, never panic; every
//! rejection has a message that names a field or a position; an accepted scenario runs (a bounded
//! number of steps) without panicking.

#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use rebalance_engine::share::{self, ShareError};
use rebalance_engine::{Scenario, Simulation};

fn corpus() -> Vec<String> {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let mut files: Vec<_> = std::fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect()
}

/// Fragments that break JSON, types or limits.
const FRAGMENTS: &[&str] = &[
    "[",
    "]",
    "{",
    "}",
    "\"",
    ",",
    ":",
    "\\",
    "-1",
    "0",
    "1e400",
    "-0",
    "18446744073709551615",
    "2147483647",
    "4000000000",
    "9223372036854775807",
    "null",
    "true",
    "\"x\"",
    "[[[[[[[[",
    "{\"a\":",
    "\u{0}",
    "é",
    "\u{FFFF}",
    "\"(a*)*b\"",
    "\"((((((((((((((((((((((((((((((((((((a))))))))))))))))))))))))))))))))))))\"",
    "\"a{1000}{1000}\"",
];

#[derive(Clone, Debug)]
enum Edit {
    /// Delete `len` bytes at a relative position.
    Delete(f64, usize),
    /// Insert a fragment at a relative position.
    Insert(f64, usize),
    /// Replace the `n`-th number with a fragment.
    Number(usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (0.0..1.0f64, 1..20usize).prop_map(|(p, n)| Edit::Delete(p, n)),
        (0.0..1.0f64, 0..FRAGMENTS.len()).prop_map(|(p, f)| Edit::Insert(p, f)),
        (0..200usize, 0..FRAGMENTS.len()).prop_map(|(n, f)| Edit::Number(n, f)),
    ]
}

fn boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn apply(text: &str, e: &Edit) -> String {
    match *e {
        Edit::Delete(p, n) => {
            let a = boundary(text, (p * text.len() as f64) as usize);
            let b = boundary(text, a + n);
            format!("{}{}", &text[..a], &text[b..])
        }
        Edit::Insert(p, f) => {
            let a = boundary(text, (p * text.len() as f64) as usize);
            format!("{}{}{}", &text[..a], FRAGMENTS[f], &text[a..])
        }
        Edit::Number(n, f) => {
            let b = text.as_bytes();
            let starts: Vec<usize> = (0..b.len())
                .filter(|&i| b[i].is_ascii_digit() && (i == 0 || !b[i - 1].is_ascii_alphanumeric()))
                .collect();
            let Some(&a) = starts.get(n % starts.len().max(1)) else {
                return text.to_owned();
            };
            let end = (a..b.len()).find(|&i| !b[i].is_ascii_digit()).unwrap_or(b.len());
            format!("{}{}{}", &text[..a], FRAGMENTS[f], &text[end..])
        }
    }
}

/// Parses `text`; a rejection must say what and where; an acceptance must run.
fn check_scenario(text: &str) -> Result<(), TestCaseError> {
    match Scenario::from_json(text) {
        Ok(s) => {
            let mut sim = Simulation::new(&s).map_err(|e| TestCaseError::fail(format!("{e}")))?;
            for _ in 0..300 {
                if sim.step().is_none_or(|t| Some(t) > sim.end()) {
                    break;
                }
            }
        }
        Err(e) => {
            prop_assert!(!e.message.is_empty(), "empty message: {e:?}");
            prop_assert!(
                !e.path.is_empty() || e.line.is_some(),
                "neither field nor position: {e:?}"
            );
            prop_assert!(!e.to_string().is_empty());
        }
    }
    Ok(())
}

/// A link with a valid checksum around `body`.
fn link(body: &[u8]) -> String {
    const B64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut b = body.to_vec();
    b.extend_from_slice(&share::crc32(body).to_le_bytes());
    let mut s = String::from("rb1.");
    for c in b.chunks(3) {
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        for k in 0..=c.len() {
            s.push(B64[((n >> (18 - 6 * k)) & 0x3F) as usize] as char);
        }
    }
    s
}

fn check_link(l: &str) -> Result<(), TestCaseError> {
    match share::decode(l) {
        Ok(_) => {}
        Err(ShareError::InvalidScenario(e)) => {
            prop_assert!(!e.message.is_empty(), "{e:?}");
            prop_assert!(!e.path.is_empty() || e.line.is_some(), "{e:?}");
        }
        Err(e) => prop_assert!(!e.to_string().is_empty()),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_scenarios_never_panic(file in 0..64usize, edits in prop::collection::vec(edit(), 1..4)) {
        let files = corpus();
        let mut text = files[file % files.len()].clone();
        for e in &edits {
            text = apply(&text, e);
        }
        check_scenario(&text)?;
    }

    #[test]
    fn mutated_links_never_panic(
        file in 0..64usize,
        edits in prop::collection::vec(edit(), 0..3),
        flips in prop::collection::vec((0.0..1.0f64, 0..64u8), 0..3),
        cut in 0.0..1.0f64,
    ) {
        let files = corpus();
        let mut text = files[file % files.len()].clone();
        for e in &edits {
            text = apply(&text, e);
        }
        // The text's own link: decodes to the text, which then meets the validator.
        let l = share::encode_text(&text);
        check_link(&l)?;
        // Damaged: characters changed, then cut.
        let mut chars: Vec<char> = l.chars().collect();
        for (p, v) in &flips {
            let i = 4 + ((chars.len() - 4) as f64 * p) as usize;
            if i < chars.len() {
                chars[i] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"[*v as usize] as char;
            }
        }
        let damaged: String = chars.iter().collect();
        check_link(&damaged)?;
        let keep = boundary(&damaged, (cut * damaged.len() as f64) as usize);
        check_link(&damaged[..keep])?;
    }

    #[test]
    fn random_bodies_with_a_valid_checksum_never_panic(body in prop::collection::vec(any::<u8>(), 0..200)) {
        check_link(&link(&body))?;
    }
}
