//! The share-link codec (crates/engine/src/share.rs) and scenario export/import: every scenario
//! file round-trips through a link and through pretty JSON; random valid scenarios round-trip
//! (property test); every kind of bad input gets its own clear error; random and mangled strings
//! never panic.

use std::path::PathBuf;

use rebalance_engine::share::{self, ShareError, MAX_DECODED_BYTES, PREFIX};
use rebalance_engine::Scenario;

fn scenario_files() -> Vec<(String, Scenario)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut out = Vec::new();
    for dir in ["scenarios", "lessons"] {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| {
                p.extension().is_some_and(|x| x == "json") && !p.to_string_lossy().ends_with(".lesson.json")
            })
            .collect();
        paths.sort();
        for p in paths {
            let text = std::fs::read_to_string(&p).unwrap();
            let s = Scenario::from_json(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            out.push((p.display().to_string(), s));
        }
    }
    assert!(out.len() >= 25);
    out
}

#[test]
fn every_scenario_file_round_trips_through_a_link_and_compresses() {
    for (name, s) in scenario_files() {
        let link = share::encode(&s);
        assert!(link.starts_with(PREFIX), "{name}");
        assert!(
            link[PREFIX.len()..]
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'),
            "{name}: not URL-safe"
        );
        assert_eq!(share::decode(&link).unwrap(), s, "{name}");
        let json = share::scenario_to_json(&s);
        assert!(
            link.len() < json.len(),
            "{name}: {} >= {}",
            link.len(),
            json.len()
        );
        // A whole URL works too.
        assert_eq!(
            share::decode(&format!("https://example.invalid/#s={link}")).unwrap(),
            s
        );
    }
}

#[test]
fn export_is_the_cli_format_and_reimports_equal() {
    for (name, s) in scenario_files() {
        let json = share::scenario_to_pretty_json(&s);
        let back = Scenario::from_json(&json).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(back, s, "{name}");
        // Exporting again gives the same bytes, laid out as serde_json pretty-prints it.
        assert_eq!(share::scenario_to_pretty_json(&back), json, "{name}");
        assert_eq!(json, serde_json::to_string_pretty(&s).unwrap() + "\n", "{name}");
    }
}

#[test]
fn a_small_scenario_gives_a_short_link() {
    let s = Scenario::from_json(
        r#"{"version":1,"end_ms":60000,"topics":[{"name":"round_topic","partitions":3,"records_per_sec":3}],
            "client_defaults":{"subscription":{"topics":["round_topic"]}},"consumers":[{"name":"A","processing_ms":10000}]}"#,
    )
    .unwrap();
    let link = share::encode(&s);
    assert!(link.len() < 200, "{} chars: {link}", link.len());
}

#[test]
fn each_bad_input_gets_its_own_error() {
    let s = &scenario_files()[0].1;
    let link = share::encode(s);
    assert_eq!(share::decode(""), Err(ShareError::NotOurFormat));
    assert_eq!(share::decode("hello world"), Err(ShareError::NotOurFormat));
    assert_eq!(share::decode("{\"version\":1}"), Err(ShareError::NotOurFormat));
    assert_eq!(share::decode("rbx.abc"), Err(ShareError::NotOurFormat));
    assert_eq!(
        share::decode(&link.replacen("rb1.", "rb2.", 1)),
        Err(ShareError::UnknownVersion("2".into()))
    );
    // One character changed: the checksum catches it.
    let mut bytes: Vec<char> = link.chars().collect();
    let i = bytes.len() / 2;
    bytes[i] = if bytes[i] == 'A' { 'B' } else { 'A' };
    let mangled: String = bytes.into_iter().collect();
    assert_eq!(share::decode(&mangled), Err(ShareError::BadChecksum));
    // Cut short.
    assert!(matches!(
        share::decode(&link[..link.len() - 7]),
        Err(ShareError::BadChecksum | ShareError::Corrupt(_))
    ));
    assert!(matches!(share::decode("rb1.a"), Err(ShareError::Corrupt(_))));
    assert!(matches!(
        share::decode("rb1.<script>"),
        Err(ShareError::Corrupt(_))
    ));
    // Declares more than 1 MiB.
    let big = share::encode_text(&"x".repeat(MAX_DECODED_BYTES + 1));
    assert!(matches!(share::decode(&big), Err(ShareError::TooLarge { .. })));
    let huge = format!("rb1.{}", "A".repeat(3 << 20));
    assert!(matches!(share::decode(&huge), Err(ShareError::TooLarge { .. })));
    // Valid container, not JSON / not a valid scenario: the validator's message.
    match share::decode(&share::encode_text("not json")) {
        Err(ShareError::InvalidScenario(e)) => assert!(e.to_string().contains("invalid JSON"), "{e}"),
        other => panic!("{other:?}"),
    }
    match share::decode(&share::encode_text(r#"{"version":7,"end_ms":1}"#)) {
        Err(ShareError::InvalidScenario(e)) => assert_eq!(e.path, "version"),
        other => panic!("{other:?}"),
    }
    match share::decode(&share::encode_text(
        r#"{"version":1,"end_ms":1000,"consumers":[{"name":"A","session_timeout_ms":10,"subscription":{"topics":[]}}]}"#,
    )) {
        Err(ShareError::InvalidScenario(e)) => assert!(e.message.contains("session.timeout.ms"), "{e}"),
        other => panic!("{other:?}"),
    }
    // Markup in a name is data, never interpreted: it round-trips as text.
    let mut with_markup = s.clone();
    with_markup.name = Some("<img src=x onerror=alert(1)>".into());
    assert_eq!(share::decode(&share::encode(&with_markup)).unwrap(), with_markup);
    // Messages are readable.
    for e in [
        ShareError::NotOurFormat,
        ShareError::UnknownVersion("9".into()),
        ShareError::BadChecksum,
        ShareError::Corrupt("x".into()),
        ShareError::TooLarge { size: 2, limit: 1 },
    ] {
        assert!(!e.to_string().is_empty());
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod props {
    use proptest::prelude::*;
    use rebalance_engine::share;
    use rebalance_engine::Scenario;

    fn arb_scenario() -> impl Strategy<Value = Scenario> {
        (
            any::<u64>(),
            60_000u64..1_000_000,
            "[a-z_]{1,12}",
            proptest::option::of("[ -~]{0,20}"),
            1i32..8,
            0u64..20,
            proptest::collection::vec((6_000u64..60_000, 1u64..5_000, 0u64..20_000, any::<bool>(), 0usize..4), 1..5),
            proptest::collection::vec((0u64..60_000, 0usize..3, 0usize..5), 0..6),
            (0u32..1000, 0u64..100),
        )
            .prop_map(|(seed, end, group, name, parts, rate, consumers, actions, (drop, lat))| {
                let assignors = ["range", "roundrobin", "sticky", "cooperative-sticky"];
                let mut cs = Vec::new();
                for (i, (session, hb, proc_ms, stat, a)) in consumers.iter().enumerate() {
                    let hb = (*hb).min(session - 1);
                    cs.push(format!(
                        r#"{{"name":"C{i}","session_timeout_ms":{session},"heartbeat_interval_ms":{hb},"processing_ms":{},"assignors":["{}"]{}}}"#,
                        proc_ms + 1,
                        assignors[*a],
                        if *stat { format!(r#","group_instance_id":"i{i}""#) } else { String::new() }
                    ));
                }
                let kinds = ["kill", "close", "pause"];
                let mut acts = Vec::new();
                for (at, k, who) in &actions {
                    let who = who % consumers.len();
                    acts.push(format!(r#"{{"type":"{}","at_ms":{at},"consumer":"C{who}"}}"#, kinds[*k]));
                }
                let text = format!(
                    r#"{{"version":1,{}"seed":{seed},"group_id":"{group}","end_ms":{end},
                        "network":{{"latency_ms":{lat},"drop_probability":{}}},
                        "topics":[{{"name":"t","partitions":{parts},"records_per_sec":{rate}}}],
                        "client_defaults":{{"subscription":{{"topics":["t"]}}}},
                        "consumers":[{}],"actions":[{}]}}"#,
                    name.map(|n| format!("\"name\":{},", serde_json::to_string(&n).unwrap()))
                        .unwrap_or_default(),
                    f64::from(drop) / 1000.0,
                    cs.join(","),
                    acts.join(",")
                );
                Scenario::from_json(&text).unwrap_or_else(|e| panic!("generator: {e}\n{text}"))
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn decode_encode_is_identity(s in arb_scenario()) {
            let link = share::encode(&s);
            prop_assert_eq!(share::decode(&link).unwrap(), s);
        }

        #[test]
        fn random_strings_never_panic(t in "\\PC{0,300}") {
            let _ = share::decode(&t);
            let _ = share::decode(&format!("rb1.{t}"));
        }

        #[test]
        fn random_base64url_payloads_never_panic(t in "[A-Za-z0-9_-]{0,400}") {
            let _ = share::decode(&format!("rb1.{t}"));
        }

        #[test]
        fn mangled_links_never_panic_and_never_decode_to_something_else(
            s in arb_scenario(), pos in any::<prop::sample::Index>(), c in "[A-Za-z0-9_-]"
        ) {
            let link = share::encode(&s);
            let mut chars: Vec<char> = link.chars().collect();
            let i = 4 + pos.index(chars.len() - 4);
            chars[i] = c.chars().next().unwrap();
            let mangled: String = chars.into_iter().collect();
            if let Ok(back) = share::decode(&mangled) {
                prop_assert_eq!(back, s);
            }
        }

        #[test]
        fn text_round_trips(t in "\\PC{0,2000}") {
            prop_assert_eq!(share::decode_text(&share::encode_text(&t)).unwrap(), t);
        }
    }
}
