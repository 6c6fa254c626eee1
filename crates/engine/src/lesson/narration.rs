//! A lesson file read for display only: its texts, without the matchers and answer specs that
//! only [`Lesson::resolve`](super::Lesson::resolve) reads. A reader that resolved the lesson
//! elsewhere (the web app, whose build resolves every preset) parses this instead of a
//! [`Lesson`](super::Lesson), which keeps the resolver and the event matching out of it.

use serde::Deserialize;

use super::{err, LessonError, Text};

/// What a learner reads of a lesson file (every other field is skipped, unchecked).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Narration {
    /// The lesson's title.
    pub title: Text,
    /// What the learner will see (the lesson's `summary`).
    #[serde(default)]
    pub summary: Text,
    /// Its notes on Kafka's details (the lesson's `kafka_notes`).
    #[serde(default)]
    pub kafka_notes: Vec<Text>,
    /// The narrated steps, in the file's order.
    pub steps: Vec<NarratedStep>,
}

/// What a learner reads of one step.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct NarratedStep {
    /// The step's id, unique in the lesson.
    pub id: String,
    /// A short title.
    pub title: Text,
    /// The explanation shown when the step happens.
    pub text: Text,
    /// The question asked before the step is shown.
    pub predict: Option<Question>,
    /// The admin command line whose answer the step shows (see `Step::console`).
    #[serde(default)]
    pub console: Option<String>,
}

/// What a learner reads of a step's question (the answer comes from resolving the lesson).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Question {
    /// The question.
    pub question: Text,
    /// The choices, in the file's order (the resolved answer is an index into them).
    pub choices: Vec<ChoiceLabel>,
    /// Why the answer is what it is.
    pub explanation: Text,
}

/// What a learner reads of one choice.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct ChoiceLabel {
    /// The choice's text.
    pub label: Text,
}

impl Narration {
    /// Reads the texts of a lesson file. The file is not validated: read it with
    /// [`Lesson::from_json`](super::Lesson::from_json) for that.
    pub fn from_json(text: &str) -> Result<Self, LessonError> {
        serde_json::from_str(text).map_err(|e| err("", e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lesson::Lesson;

    const LESSON: &str = r#"{
      "version": 1, "id": "x", "scenario": "x.json",
      "title": {"zh": "标题", "en": "Title"}, "summary": {"zh": "摘要", "en": "Summary"},
      "steps": [
        {"id": "s1", "when": {"event": "joined_group", "consumer": "A"},
         "title": {"zh": "入组", "en": "Joined"}, "text": {"zh": "A 入组。", "en": "A joined."},
         "predict": {"question": {"zh": "第几代？", "en": "Which generation?"},
                     "answer": {"kind": "generation"},
                     "choices": [{"value": 1, "label": {"zh": "一", "en": "one"}},
                                 {"value": 2, "label": {"zh": "二", "en": "two"}}],
                     "explanation": {"zh": "从 0 开始加 1。", "en": "0 plus one."}}},
        {"id": "s2", "when": {"event": "end"},
         "title": {"zh": "结束", "en": "End"}, "text": {"zh": "完。", "en": "Done."}}
      ]
    }"#;

    #[test]
    fn the_narration_holds_the_lessons_texts() {
        let lesson = Lesson::from_json(LESSON).unwrap();
        let narration = Narration::from_json(LESSON).unwrap();
        assert_eq!(narration.title, lesson.title);
        assert_eq!(narration.summary, lesson.summary);
        assert_eq!(narration.kafka_notes, lesson.kafka_notes);
        assert_eq!(narration.steps.len(), lesson.steps.len());
        for (n, s) in narration.steps.iter().zip(&lesson.steps) {
            assert_eq!((&n.id, &n.title, &n.text), (&s.id, &s.title, &s.text));
            assert_eq!(n.predict.is_some(), s.predict.is_some());
            if let (Some(q), Some(p)) = (&n.predict, &s.predict) {
                assert_eq!((&q.question, &q.explanation), (&p.question, &p.explanation));
                let labels: Vec<&Text> = q.choices.iter().map(|c| &c.label).collect();
                assert_eq!(labels, p.choices.iter().map(|c| &c.label).collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn a_file_without_the_texts_is_refused_with_a_message() {
        let e = Narration::from_json(r#"{"title": {"zh": "标题", "en": "Title"}}"#).unwrap_err();
        assert!(e.message.contains("steps"), "{e}");
        assert!(Narration::from_json("{").is_err());
    }
}
