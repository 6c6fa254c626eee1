//! Topic patterns: linear-time matching (no backtracking, no recursion while matching) and bounded
//! compilation; limits are reported by name.

use rebalance_engine::topic::{Pattern, MAX_PATTERN_CHARS, MAX_PATTERN_COMPILED_BYTES, MAX_PATTERN_NESTING};

#[test]
fn catastrophic_backtracking_patterns_finish() {
    let name = "a".repeat(10_000);
    for p in ["(a*)*b", "(a|a)*b", "(a+)+b", "(.*a){20}b", "(a|aa)*c"] {
        let pat = Pattern::new(p).unwrap();
        assert!(!pat.matches(&name), "{p}");
        assert!(pat.matches(&format!("{name}b")) == p.ends_with('b'), "{p}");
    }
}

#[test]
fn long_names_and_long_repetitions_do_not_overflow_the_stack() {
    let pat = Pattern::new("(ab|c)*d?").unwrap();
    assert!(pat.matches(&"ab".repeat(200_000)));
    assert!(Pattern::new(".*").unwrap().matches(&"x".repeat(1_000_000)));
}

#[test]
fn deep_nesting_is_rejected_naming_the_limit() {
    let ok = format!(
        "{}a{}",
        "(".repeat(MAX_PATTERN_NESTING),
        ")*".repeat(MAX_PATTERN_NESTING)
    );
    assert!(Pattern::new(&ok).unwrap().matches("aaa"));
    for deep in [
        format!(
            "{}a{}",
            "(".repeat(MAX_PATTERN_NESTING + 1),
            ")".repeat(MAX_PATTERN_NESTING + 1)
        ),
        "(".repeat(100_000),
        format!("{}a]", "[".repeat(MAX_PATTERN_NESTING + 1)),
    ] {
        let e = Pattern::new(&deep).unwrap_err().to_string();
        assert!(
            e.contains(&MAX_PATTERN_NESTING.to_string()) || e.contains(&MAX_PATTERN_CHARS.to_string()),
            "{e}"
        );
    }
}

#[test]
fn huge_repetitions_and_long_patterns_are_rejected_naming_the_limit() {
    for p in [
        "(?:a{1000}){1000}",
        "(a{1000}){1000}",
        "a{4294967295}",
        "[a-z]{100000}",
    ] {
        let e = Pattern::new(p).unwrap_err().to_string();
        assert!(
            e.contains(&MAX_PATTERN_COMPILED_BYTES.to_string()) || e.contains("repetition"),
            "{p}: {e}"
        );
    }
    let e = Pattern::new(&"a".repeat(MAX_PATTERN_CHARS + 1))
        .unwrap_err()
        .to_string();
    assert!(e.contains(&format!("at most {MAX_PATTERN_CHARS}")), "{e}");
}

#[test]
fn a_bad_pattern_in_a_scenario_names_the_field_and_the_limit() {
    let text = format!(
        r#"{{"version": 1, "end_ms": 1000, "topics": [{{"name": "t", "partitions": 1}}],
            "client_defaults": {{"subscription": {{"pattern": "{}a{}"}}}},
            "consumers": [{{"name": "A"}}]}}"#,
        "(".repeat(40),
        ")".repeat(40)
    );
    let e = rebalance_engine::Scenario::from_json(&text).unwrap_err();
    assert_eq!(e.path, "client_defaults.subscription.pattern");
    assert!(
        e.message.contains(&format!("at most {MAX_PATTERN_NESTING}")),
        "{}",
        e.message
    );
}
