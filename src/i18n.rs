//! Every user-visible string, one table per language.
//!
//! Components never hold text: they ask [`Lang::strings`] for the table of the current language.
//! A [`Strings`] table is a struct, so a language that forgets a string does not compile.

mod en;
mod zh;

/// A language the playground speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    /// English.
    En,
    /// Simplified Chinese (the language of the articles the project started from).
    Zh,
}

impl Lang {
    /// Every language, in the order the switch shows them.
    pub const ALL: [Self; 2] = [Self::Zh, Self::En];

    /// The table of strings for this language.
    pub fn strings(self) -> &'static Strings {
        match self {
            Self::En => &en::STRINGS,
            Self::Zh => &zh::STRINGS,
        }
    }

    /// The BCP 47 tag, for `<html lang>` and `localStorage`.
    pub fn tag(self) -> &'static str {
        match self {
            Self::En => "en",
            Self::Zh => "zh-CN",
        }
    }

    /// The language's own name, as its speakers write it: the switch shows it untranslated.
    pub fn native_name(self) -> &'static str {
        match self {
            Self::En => "English",
            Self::Zh => "中文",
        }
    }

    /// The language for a BCP 47 tag such as `navigator.language`: Chinese for any `zh*`,
    /// English for everything else.
    pub fn from_tag(tag: &str) -> Self {
        if tag.trim().to_ascii_lowercase().starts_with("zh") {
            Self::Zh
        } else {
            Self::En
        }
    }
}

/// The names of the five states of a classic group, as Kafka spells them and as a learner reads them.
pub struct StateNames {
    /// `Empty`.
    pub empty: &'static str,
    /// `PreparingRebalance`.
    pub preparing_rebalance: &'static str,
    /// `CompletingRebalance`.
    pub completing_rebalance: &'static str,
    /// `Stable`.
    pub stable: &'static str,
    /// `Dead`.
    pub dead: &'static str,
}

/// All of the UI's text in one language.
pub struct Strings {
    /// The product's name, in the header and the page title.
    pub app_title: &'static str,
    /// One line under the title that says what the playground is for.
    pub tagline: &'static str,
    /// The accessible label of the language switch.
    pub language_label: &'static str,
    /// The heading of the group panel.
    pub group_heading: &'static str,
    /// "Group state" caption.
    pub group_state: &'static str,
    /// "Generation" caption.
    pub generation: &'static str,
    /// "Leader" caption.
    pub leader: &'static str,
    /// Shown where a value does not exist yet (no leader, no protocol).
    pub none: &'static str,
    /// "Members" caption.
    pub members: &'static str,
    /// The placeholder shown while the group has no consumer.
    pub no_consumers: &'static str,
    /// The accessible description of the state diagram.
    pub state_diagram_label: &'static str,
    /// The text that marks the current state for screen readers and in print.
    pub current_state: &'static str,
    /// The five state names.
    pub states: StateNames,
    /// One sentence per state that explains it.
    pub state_explanations: StateNames,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn browser_tags_pick_the_language() {
        assert_eq!(Lang::from_tag("zh-CN"), Lang::Zh);
        assert_eq!(Lang::from_tag("zh-TW"), Lang::Zh);
        assert_eq!(Lang::from_tag("ZH"), Lang::Zh);
        assert_eq!(Lang::from_tag("en-US"), Lang::En);
        assert_eq!(Lang::from_tag("fr"), Lang::En);
        assert_eq!(Lang::from_tag(""), Lang::En);
    }

    #[test]
    fn tags_round_trip() {
        for lang in Lang::ALL {
            assert_eq!(Lang::from_tag(lang.tag()), lang);
        }
    }
}
