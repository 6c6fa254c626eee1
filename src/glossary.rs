//! The one glossary of the Chinese terms the playground uses: in the string table
//! (`i18n/zh.rs`, the announcer's sentence among them) and in the lessons' `zh` texts. A test
//! reads both and checks them against it: a glossary term is never left in English in Chinese
//! prose (Kafka's identifiers, such as `group.instance.id`, `MEMBER_ID_REQUIRED` or
//! `PreparingRebalance`, are not prose), no synonym stands in for it, the terms kept in English
//! get no made-up gloss, and no space follows Chinese punctuation.

/// A term of the glossary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Term {
    /// The English term.
    pub en: &'static str,
    /// How Chinese text says it (the English term itself when Chinese keeps it).
    pub zh: &'static str,
    /// English forms that must not stand in Chinese prose (empty when Chinese keeps the term).
    pub english_forms: &'static [&'static str],
    /// Other Chinese words for it that the texts must not use.
    pub synonyms: &'static [&'static str],
}

/// The glossary.
pub const GLOSSARY: &[Term] = &[
    Term {
        en: "leader",
        zh: "领导者",
        english_forms: &["leader", "leaders"],
        synonyms: &["组长", "领导人", "首领", "主节点"],
    },
    Term {
        en: "follower",
        zh: "跟随者",
        english_forms: &["follower", "followers"],
        synonyms: &["追随者", "从节点"],
    },
    Term {
        en: "generation",
        zh: "代",
        english_forms: &["generation", "generations"],
        synonyms: &["世代", "代次", "代数"],
    },
    Term {
        en: "member",
        zh: "成员",
        english_forms: &["member", "members"],
        synonyms: &["组员"],
    },
    Term {
        en: "coordinator",
        zh: "协调者",
        english_forms: &["coordinator", "coordinators"],
        synonyms: &["协调器"],
    },
    Term {
        en: "rebalance",
        zh: "重平衡",
        english_forms: &["rebalance", "rebalances", "rebalancing"],
        synonyms: &["再平衡", "再均衡", "重新平衡", "重均衡"],
    },
    // Kafka's protocol names and its epoch stay in English, without a gloss of their own.
    Term {
        en: "eager",
        zh: "eager",
        english_forms: &[],
        synonyms: &["急切"],
    },
    Term {
        en: "cooperative",
        zh: "cooperative",
        english_forms: &[],
        synonyms: &["合作式", "协作式"],
    },
    Term {
        en: "epoch",
        zh: "epoch",
        english_forms: &[],
        synonyms: &["纪元", "时代"],
    },
];

/// How Chinese text says `en` (`None`: not in the glossary).
pub fn zh(en: &str) -> Option<&'static str> {
    GLOSSARY.iter().find(|t| t.en == en).map(|t| t.zh)
}

/// What is wrong with a Chinese text against the glossary (empty: nothing).
pub fn problems(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    // Words of Latin letters, with the identifier characters Kafka's names use: a glossary term
    // inside one (`group.instance.id`, `MEMBER_ID_REQUIRED`, `PreparingRebalance`) is no prose,
    // nor is a `{placeholder}`.
    let chars: Vec<char> = text.chars().collect();
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    let mut i = 0;
    while i < chars.len() {
        if !ident(chars[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len()
            && (ident(chars[i]) || (chars[i] == '.' && chars.get(i + 1).is_some_and(|c| ident(*c))))
        {
            i += 1;
        }
        let word: String = chars[start..i].iter().collect();
        let placeholder = start > 0 && chars[start - 1] == '{';
        let lower = word.to_ascii_lowercase();
        if let Some(t) = GLOSSARY
            .iter()
            .find(|t| t.english_forms.contains(&lower.as_str()))
        {
            if !placeholder {
                out.push(format!("“{word}” in prose: the glossary says {}", t.zh));
            }
        }
        // A term kept in English gets no gloss in brackets (the old “eager（急切）”).
        if GLOSSARY
            .iter()
            .any(|t| t.english_forms.is_empty() && t.en == lower)
            && chars.get(i) == Some(&'（')
        {
            out.push(format!("“{word}” is glossed: the glossary keeps it as is"));
        }
    }
    for t in GLOSSARY {
        for s in t.synonyms {
            if text.contains(s) {
                out.push(format!("“{s}”: the glossary says {} for {}", t.zh, t.en));
            }
        }
    }
    for w in chars.windows(2) {
        if "。，、；：！？）".contains(w[0]) && w[1] == ' ' {
            out.push(format!("a space after “{}”", w[0]));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use rebalance_engine::lesson::{Lesson, Narration, Text};

    /// The string literals of `src/i18n/zh.rs` as Rust reads them (a `\\` at the end of a line
    /// drops it and the next line's leading spaces).
    fn zh_table() -> Vec<String> {
        let src = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/i18n/zh.rs")).unwrap();
        let mut out = Vec::new();
        let mut chars = src.chars().peekable();
        let mut comment = false;
        while let Some(c) = chars.next() {
            if comment {
                comment = c != '\n';
                continue;
            }
            if c == '/' && chars.peek() == Some(&'/') {
                comment = true;
                continue;
            }
            if c != '"' {
                continue;
            }
            let mut s = String::new();
            while let Some(c) = chars.next() {
                match c {
                    '"' => break,
                    '\\' => match chars.next() {
                        Some('\n') => {
                            while chars.peek().is_some_and(|c| c.is_whitespace()) {
                                chars.next();
                            }
                        }
                        Some('n') => s.push('\n'),
                        Some(other) => s.push(other),
                        None => {}
                    },
                    other => s.push(other),
                }
            }
            out.push(s);
        }
        out
    }

    /// Every `zh` text of the lesson files.
    fn lesson_texts() -> Vec<(String, String)> {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/lessons");
        let mut out = Vec::new();
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.to_string_lossy().ends_with(".lesson.json"))
            .collect();
        files.sort();
        for path in files {
            let text = std::fs::read_to_string(&path).unwrap();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let lesson = Lesson::from_json(&text).unwrap();
            let narration = Narration::from_json(&text).unwrap();
            let mut texts: Vec<&Text> = vec![&lesson.title, &lesson.summary];
            texts.extend(&lesson.kafka_notes);
            for step in &narration.steps {
                texts.push(&step.title);
                texts.push(&step.text);
                if let Some(q) = &step.predict {
                    texts.push(&q.question);
                    texts.push(&q.explanation);
                    texts.extend(q.choices.iter().map(|c| &c.label));
                }
            }
            out.extend(texts.into_iter().map(|t| (name.clone(), t.zh.clone())));
        }
        out
    }

    #[test]
    fn the_chinese_strings_and_lessons_follow_the_glossary() {
        let table = zh_table();
        assert!(table.len() > 300, "read {} strings", table.len());
        let mut found = Vec::new();
        for s in &table {
            for p in problems(s) {
                found.push(format!("i18n/zh.rs: {p}: {s}"));
            }
        }
        let lessons = lesson_texts();
        assert!(lessons.len() > 100, "read {} lesson texts", lessons.len());
        for (file, s) in &lessons {
            for p in problems(s) {
                found.push(format!("lessons/{file}: {p}: {s}"));
            }
        }
        assert!(
            found.is_empty(),
            "{} problems:\n{}",
            found.len(),
            found.join("\n")
        );
    }

    #[test]
    fn the_ui_labels_and_the_announcer_say_the_glossary_terms() {
        let s = Lang::Zh.strings();
        assert_eq!(Some(s.leader), zh("leader"));
        assert_eq!(Some(s.generation), zh("generation"));
        assert_eq!(Some(s.stage.leader), zh("leader"));
        assert_eq!(Some(s.group.coordinator), zh("coordinator"));
        assert_eq!(Some(s.consumer.eager), zh("eager"));
        assert_eq!(Some(s.consumer.cooperative), zh("cooperative"));
        assert!(s.announce.contains(zh("leader").unwrap()) && s.announce.contains(zh("generation").unwrap()));
    }

    #[test]
    fn the_checks_catch_what_they_should_and_spare_kafka_identifiers() {
        assert_eq!(problems("eager（急切）").len(), 2);
        assert_eq!(problems("generation 为 0").len(), 1);
        assert_eq!(problems("这是 leader。 下一句").len(), 2);
        assert!(problems(
            "group.instance.id、MEMBER_ID_REQUIRED、PreparingRebalance、{member}、ILLEGAL_GENERATION"
        )
        .is_empty());
        assert!(problems("领导者 epoch {epoch}，第 1 代，重平衡").is_empty());
    }
}
