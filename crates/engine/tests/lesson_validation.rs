//! Bad lesson files get clear errors that name the field; a step that never matches and a
//! question whose computed answer is none of its choices are errors too.

use rebalance_engine::lesson::Lesson;
use rebalance_engine::Scenario;

const OK: &str = r#"{
  "version": 1, "id": "x", "scenario": "x.json",
  "title": {"zh": "标题", "en": "Title"}, "summary": {"zh": "摘要", "en": "Summary"},
  "steps": [
    {"id": "s1", "when": {"event": "joined_group", "consumer": "A"},
     "title": {"zh": "入组", "en": "Joined"}, "text": {"zh": "A 入组。", "en": "A joined."},
     "predict": {"question": {"zh": "第几代？", "en": "Which generation?"},
                 "answer": {"kind": "generation"},
                 "choices": [{"value": 1, "label": {"zh": "1", "en": "1"}}, {"value": 2, "label": {"zh": "2", "en": "2"}}],
                 "explanation": {"zh": "从 0 开始加 1。", "en": "0 plus one."}}}
  ]
}"#;

fn scenario() -> Scenario {
    Scenario::from_json(
        r#"{"version":1,"end_ms":10000,"topics":[{"name":"t","partitions":2}],
            "client_defaults":{"subscription":{"topics":["t"]}},"consumers":[{"name":"A"}]}"#,
    )
    .unwrap()
}

fn bad(from: &str, to: &str) -> String {
    let text = OK.replacen(from, to, 1);
    assert_ne!(text, OK, "replacement `{from}` not found");
    Lesson::from_json(&text).unwrap_err().to_string()
}

#[test]
fn a_good_lesson_resolves_with_a_computed_answer() {
    let lesson = Lesson::from_json(OK).unwrap();
    let steps = lesson.resolve(&scenario()).unwrap();
    assert_eq!(steps[0].reveal.as_ref().unwrap().correct, 0);
    assert!(steps[0].line.contains("joined generation 1"));
}

#[test]
fn errors_name_the_field() {
    assert!(bad(r#""version": 1"#, r#""version": 2"#).starts_with("version: unsupported version 2"));
    assert!(bad(r#""event": "joined_group""#, r#""event": "joined_groop""#)
        .starts_with("steps[0].when.event: unknown event kind `joined_groop`"));
    assert!(bad(r#""zh": "A 入组。", "#, r#""zh": "", "#).starts_with("steps[0].text.zh:"));
    assert!(bad(r#"{"value": 2,"#, r#"{"value": "two","#)
        .starts_with("steps[0].predict.choices[1].value: \"two\" does not fit a `generation` question"));
    assert!(
        bad(r#"{"value": 2,"#, r#"{"value": 1,"#).starts_with("steps[0].predict.choices[1].value: duplicate")
    );
    assert!(bad(r#""kind": "generation""#, r#""kind": "nope""#).contains("unknown variant `nope`"));
    assert!(
        bad(r#""consumer": "A""#, r#""consumer": "A", "colour": "red""#).contains("unknown field `colour`")
    );

    assert!(Lesson::from_json("{")
        .unwrap_err()
        .to_string()
        .starts_with("lesson: invalid JSON"));
}

#[test]
fn unknown_consumer_unmatched_step_and_wrong_choices_are_errors() {
    let l = Lesson::from_json(&OK.replacen(r#""consumer": "A""#, r#""consumer": "Q""#, 1)).unwrap();
    assert!(l
        .resolve(&scenario())
        .unwrap_err()
        .to_string()
        .starts_with("steps[0].when.consumer: the scenario has no consumer named `Q`"));
    let l = Lesson::from_json(&OK.replacen(r#""consumer": "A""#, r#""consumer": "A", "generation": 5"#, 1))
        .unwrap();
    let e = l.resolve(&scenario()).unwrap_err().to_string();
    assert!(e.starts_with("steps[0].when: step `s1` never matches"), "{e}");
    let l = Lesson::from_json(&OK.replacen(r#"{"value": 1,"#, r#"{"value": 3,"#, 1)).unwrap();
    let e = l.resolve(&scenario()).unwrap_err().to_string();
    assert!(
        e.starts_with("steps[0].predict.choices: the simulation's answer 1"),
        "{e}"
    );
}

#[test]
fn a_step_console_command_must_be_a_read_of_a_known_tool() {
    let with = |line: &str| {
        OK.replacen(
            r#""title": {"zh": "入组""#,
            &format!(r#""console": {line:?}, "title": {{"zh": "入组""#),
            1,
        )
    };
    let good = with("kafka-consumer-groups.sh --bootstrap-server x:9092 --describe --group g --state");
    assert!(Lesson::from_json(&good).is_ok());
    let e = Lesson::from_json(&with(
        "kafka-consumer-groups.sh --bootstrap-server x:9092 --delete --group g",
    ))
    .unwrap_err();
    assert!(
        e.to_string()
            .starts_with("steps[0].console: `--delete` changes the world"),
        "{e}"
    );
    let e = Lesson::from_json(&with("rm -rf /")).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("steps[0].console: `rm` is not one of the console's tools"),
        "{e}"
    );
    let e = Lesson::from_json(&with("kafka-topics.sh --describe 'unclosed")).unwrap_err();
    assert!(e.to_string().starts_with("steps[0].console:"), "{e}");
}

/// A consumer-protocol lesson: the member's own events and the coordinator's have kinds of their
/// own, the `epoch` field narrows a match, and the new answers are typed like the others.
#[test]
fn consumer_protocol_events_epochs_and_answers() {
    let scenario = Scenario::from_json(
        r#"{"version":1,"end_ms":20000,"topics":[{"name":"t","partitions":2}],
            "client_defaults":{"group_protocol":"consumer","subscription":{"topics":["t"]}},
            "consumers":[{"name":"A"},{"name":"B","start_ms":5000}],
            "coordinator":{"kafka_version":"4.1"}}"#,
    )
    .unwrap();
    let lesson = |when: &str, answer: &str, choices: &str| {
        format!(
            r#"{{"version": 1, "id": "x", "scenario": "x.json",
              "title": {{"zh": "标题", "en": "Title"}}, "summary": {{"zh": "摘要", "en": "Summary"}},
              "steps": [{{"id": "s1", "when": {when},
                "title": {{"zh": "步", "en": "Step"}}, "text": {{"zh": "文。", "en": "Text."}},
                "predict": {{"question": {{"zh": "问？", "en": "Question?"}}, "answer": {answer},
                  "choices": {choices}, "explanation": {{"zh": "因为。", "en": "Because."}}}}}}]}}"#
        )
    };
    let two = |a: &str, b: &str| {
        format!(
            r#"[{{"value": {a}, "label": {{"zh": "甲", "en": "a"}}}}, {{"value": {b}, "label": {{"zh": "乙", "en": "b"}}}}]"#
        )
    };
    let resolve = |text: String| {
        let l = Lesson::from_json(&text).unwrap_or_else(|e| panic!("{e}"));
        let steps = l.resolve(&scenario).unwrap_or_else(|e| panic!("{e}"));
        (steps[0].line.clone(), steps[0].reveal.clone().unwrap())
    };
    // B's join bumps the group epoch to 2; its first reconciliation on the coordinator waits for
    // A's partition (UNRELEASED_PARTITIONS).
    let (line, r) = resolve(lesson(
        r#"{"event": "consumer_group_epoch_bumped", "epoch": 2}"#,
        r#"{"kind": "group_epoch"}"#,
        &two("1", "2"),
    ));
    assert!(line.contains("bumped group epoch to 2"), "{line}");
    assert_eq!(r.correct, 1);
    let (line, r) = resolve(lesson(
        r#"{"event": "consumer_member_reconciled", "consumer": "B"}"#,
        r#"{"kind": "reconciliation_state", "consumer": "B"}"#,
        &two(r#""STABLE""#, r#""UNRELEASED_PARTITIONS""#),
    ));
    assert!(line.contains("UNRELEASED_PARTITIONS"), "{line}");
    assert_eq!(r.correct, 1);
    // The member's own state change, matched by its member epoch.
    let (line, r) = resolve(lesson(
        r#"{"event": "membership_state_changed", "consumer": "B", "state": "RECONCILING", "epoch": 2}"#,
        r#"{"kind": "member_epoch", "consumer": "B"}"#,
        &two("2", "-1"),
    ));
    assert!(line.contains("[B]") && line.contains("RECONCILING"), "{line}");
    assert_eq!(r.correct, 0);
    let (_, r) = resolve(lesson(
        r#"{"event": "reconciliation_completed", "consumer": "A"}"#,
        r#"{"kind": "consumer_group_state"}"#,
        &two(r#""Reconciling""#, r#""Stable""#),
    ));
    assert_eq!(r.value.to_string(), "\"Stable\"");
    // An epoch no event has never matches; a choice of the wrong type is refused.
    let l = Lesson::from_json(&lesson(
        r#"{"event": "consumer_group_epoch_bumped", "epoch": 9}"#,
        r#"{"kind": "group_epoch"}"#,
        &two("1", "2"),
    ))
    .unwrap();
    let e = l.resolve(&scenario).unwrap_err().to_string();
    assert!(e.starts_with("steps[0].when: step `s1` never matches"), "{e}");
    let e = Lesson::from_json(&lesson(
        r#"{"event": "consumer_group_epoch_bumped"}"#,
        r#"{"kind": "member_epoch", "consumer": "A"}"#,
        &two(r#""one""#, "2"),
    ))
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("does not fit a `member_epoch` question (expects an integer)"),
        "{e}"
    );
}
