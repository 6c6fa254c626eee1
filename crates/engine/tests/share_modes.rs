//! The mode of a share link (`compare&rb1.…`) read strictly, and the `mode` of a scenario file
//! (`"mode": "compare"`, what the playground's export of a compare session writes): an old link
//! still opens as a session, the one known mark opens compare mode, and a mark cut short, doubled,
//! misspelt, in another case or huge is refused with `UnknownMode` holding what was written (cut
//! short), whatever follows it.

use rebalance_engine::share::{self, LinkMode, ShareError, COMPARE_MARK, MAX_MODE_SHOWN};
use rebalance_engine::Scenario;

fn story() -> Scenario {
    Scenario::from_json(include_str!("../../../lessons/06-a-b-story.json")).unwrap()
}

#[test]
fn no_mark_is_a_session_and_the_compare_mark_is_compare_mode() {
    let s = story();
    let old = share::encode(&s);
    for (text, mode) in [
        (old.clone(), LinkMode::Session),
        (format!("#s={old}"), LinkMode::Session),
        (
            format!("https://x.invalid/?lang=zh&v=2#s={old}"),
            LinkMode::Session,
        ),
        (format!("{COMPARE_MARK}{old}"), LinkMode::Compare),
        (format!("#s={COMPARE_MARK}{old}"), LinkMode::Compare),
        (
            format!("  https://x.invalid/#s={COMPARE_MARK}{old}\n"),
            LinkMode::Compare,
        ),
    ] {
        assert_eq!(share::parse_link_mode(&text), Ok(mode), "{text}");
        let (back, m) = share::decode_with_mode(&text).unwrap();
        assert_eq!((back, m), (s.clone(), mode), "{text}");
    }
}

#[test]
fn a_mark_cut_short_doubled_misspelt_or_in_another_case_is_named() {
    let old = share::encode(&story());
    for mode in [
        "compar&",
        "c&",
        "&",
        "compare&compare&",
        "Compare&",
        "COMPARE&",
        "replay&",
        "session&",
        "compare&&",
        "比较&",
    ] {
        let text = format!("#s={mode}{old}");
        let e = share::decode_with_mode(&text).unwrap_err();
        assert_eq!(e, ShareError::UnknownMode(mode.to_owned()), "{text}");
        let message = e.to_string();
        assert!(message.contains(&format!("\"{mode}\"")), "{message}");
        assert!(message.contains("\"compare&\""), "{message}");
        // The lenient reader still finds the story behind it (a decoder that knows no modes).
        assert_eq!(share::decode(&text).unwrap(), story());
    }
}

#[test]
fn a_huge_mode_is_cut_in_the_message_and_a_huge_payload_after_the_mark_is_too_large() {
    let old = share::encode(&story());
    let huge = format!("{}&", "x".repeat(3 << 20));
    match share::decode_with_mode(&format!("#s={huge}{old}")) {
        Err(ShareError::UnknownMode(m)) => {
            assert_eq!(
                m.chars().count(),
                MAX_MODE_SHOWN + 1,
                "{} chars",
                m.chars().count()
            );
            assert!(m.ends_with('…'));
        }
        other => panic!("{other:?}"),
    }
    let payload = format!("{COMPARE_MARK}rb1.{}", "A".repeat(share::MAX_ENCODED_CHARS + 1));
    assert!(matches!(
        share::decode_with_mode(&payload),
        Err(ShareError::TooLarge { limit, .. }) if limit == share::MAX_ENCODED_CHARS
    ));
}

#[test]
fn the_mark_after_the_link_or_a_truncated_link_after_the_mark_is_refused() {
    let old = share::encode(&story());
    // The mark at the end: the mark is named, not the link before it.
    assert_eq!(
        share::decode_with_mode(&format!("#s={old}&compare")),
        Err(ShareError::UnknownMode("compare".into()))
    );
    // The mark alone, or with a link cut short.
    assert_eq!(
        share::decode_with_mode(COMPARE_MARK),
        Err(ShareError::NotOurFormat)
    );
    let cut = &old[..old.len() / 2];
    assert!(matches!(
        share::decode_with_mode(&format!("{COMPARE_MARK}{cut}")),
        Err(ShareError::BadChecksum | ShareError::Corrupt(_))
    ));
}

#[test]
fn a_file_carries_the_mode_and_a_file_without_one_is_a_session() {
    let mut s = story();
    assert_eq!(s.mode, None);
    s.mode = Some(LinkMode::Compare);
    let json = share::scenario_to_pretty_json(&s);
    assert!(json.contains("\"mode\": \"compare\""), "{json}");
    let back = Scenario::from_json(&json).unwrap();
    assert_eq!(back, s);
    // The simulation does not read it: the same trace as without it.
    let run = |s: &Scenario| {
        let mut sim = rebalance_engine::Simulation::new(s).unwrap();
        sim.run_to_end();
        sim.trace_text(false)
    };
    assert_eq!(run(&back), run(&story()));
    // A session's file has no `mode`; an explicit "session" reads too; anything else is refused
    // with the field's name.
    assert!(!share::scenario_to_pretty_json(&story()).contains("\"mode\": \"compare\""));
    let with = |v: &str| {
        let text = share::scenario_to_json(&story());
        Scenario::from_json(&format!("{},\"mode\":{v}}}", &text[..text.len() - 1]))
    };
    assert_eq!(with("\"session\"").unwrap().mode, Some(LinkMode::Session));
    let e = with("\"comparison\"").unwrap_err().to_string();
    assert!(e.contains("mode") && e.contains("comparison"), "{e}");
}
