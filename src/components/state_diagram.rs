use yew::prelude::*;

use super::use_strings;
use crate::i18n::Strings;

/// Which of the five group states to light up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupStateId {
    /// No members.
    Empty,
    /// Waiting for every member to (re)join.
    PreparingRebalance,
    /// Waiting for the leader's assignment.
    CompletingRebalance,
    /// Everyone has an assignment.
    Stable,
    /// Gone from this coordinator.
    Dead,
}

impl GroupStateId {
    /// The states in the order the diagram lays them out: the rebalance cycle, then Dead.
    pub const ALL: [Self; 5] = [
        Self::Empty,
        Self::PreparingRebalance,
        Self::CompletingRebalance,
        Self::Stable,
        Self::Dead,
    ];

    /// The state's name in the user's language.
    pub fn label(self, s: &Strings) -> &'static str {
        pick(self, &s.states)
    }

    /// One sentence that explains the state.
    pub fn explanation(self, s: &Strings) -> &'static str {
        pick(self, &s.state_explanations)
    }

    fn css(self) -> &'static str {
        match self {
            Self::Empty => "state-empty",
            Self::PreparingRebalance => "state-preparing",
            Self::CompletingRebalance => "state-completing",
            Self::Stable => "state-stable",
            Self::Dead => "state-dead",
        }
    }
}

fn pick(state: GroupStateId, names: &crate::i18n::StateNames) -> &'static str {
    match state {
        GroupStateId::Empty => names.empty,
        GroupStateId::PreparingRebalance => names.preparing_rebalance,
        GroupStateId::CompletingRebalance => names.completing_rebalance,
        GroupStateId::Stable => names.stable,
        GroupStateId::Dead => names.dead,
    }
}

/// Kafka's CamelCase names with a line-break opportunity before each inner capital, so that a
/// narrow box wraps "Completing/Rebalance" rather than "CompletingRebalanc/e".
fn breakable(name: &str) -> Html {
    let mut parts = Vec::new();
    let mut start = 0;
    for (i, c) in name.char_indices().skip(1) {
        let prev = name[..i].chars().next_back();
        if c.is_ascii_uppercase() && prev.is_some_and(|p| p.is_ascii_lowercase()) {
            parts.push(&name[start..i]);
            start = i;
        }
    }
    parts.push(&name[start..]);
    html! {
        for (i, part) in parts.into_iter().enumerate() {
            if i > 0 { <wbr /> }
            { part }
        }
    }
}

#[derive(PartialEq, Properties)]
pub struct StateDiagramProps {
    pub current: GroupStateId,
}

/// The five states as labelled boxes. The current one is lit, outlined and marked in words, so
/// colour is never the only signal.
#[component]
pub fn StateDiagram(props: &StateDiagramProps) -> Html {
    let s = use_strings();
    html! {
        <ol class="state-diagram" aria-label={s.state_diagram_label}>
            { for GroupStateId::ALL.into_iter().map(|state| {
                let current = state == props.current;
                html! {
                    <li
                        class={classes!("state-node", state.css(), current.then_some("is-current"))}
                        aria-current={current.then_some("step")}
                        title={state.explanation(s)}
                    >
                        <span class="state-node-name">{ breakable(state.label(s)) }</span>
                        if current {
                            <span class="state-node-marker">{ s.current_state }</span>
                        }
                    </li>
                }
            }) }
        </ol>
    }
}
