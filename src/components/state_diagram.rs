use yew::prelude::*;

use super::use_strings;
use crate::i18n::Strings;
use crate::num::short;

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

    /// The CSS class of the state.
    pub fn css(self) -> &'static str {
        match self {
            Self::Empty => "state-empty",
            Self::PreparingRebalance => "state-preparing",
            Self::CompletingRebalance => "state-completing",
            Self::Stable => "state-stable",
            Self::Dead => "state-dead",
        }
    }
}

impl From<rebalance_engine::GroupState> for GroupStateId {
    fn from(s: rebalance_engine::GroupState) -> Self {
        use rebalance_engine::GroupState as G;
        match s {
            G::Empty => Self::Empty,
            G::PreparingRebalance => Self::PreparingRebalance,
            G::CompletingRebalance => Self::CompletingRebalance,
            G::Stable => Self::Stable,
            G::Dead => Self::Dead,
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

/// A state's name on two lines: the translation and Kafka's name (`准备重平衡` / `PreparingRebalance`),
/// or Kafka's CamelCase name split before its inner capital (`Preparing` / `Rebalance`).
fn two_lines(name: &str) -> (String, String) {
    if let Some((local, rest)) = name.split_once('（') {
        return (local.to_owned(), rest.trim_end_matches('）').to_owned());
    }
    let split = name
        .char_indices()
        .skip(1)
        .find(|(_, c)| c.is_ascii_uppercase())
        .map(|(i, _)| i);
    match split {
        Some(i) => (name[..i].to_owned(), name[i..].to_owned()),
        None => (name.to_owned(), String::new()),
    }
}

/// Where each state's box is drawn.
fn centre(state: GroupStateId) -> (f64, f64) {
    match state {
        GroupStateId::Empty => (80.0, 50.0),
        GroupStateId::PreparingRebalance => (262.0, 50.0),
        GroupStateId::CompletingRebalance => (444.0, 50.0),
        GroupStateId::Stable => (353.0, 178.0),
        GroupStateId::Dead => (80.0, 178.0),
    }
}

const BOX_W: f64 = 148.0;
const BOX_H: f64 = 56.0;

/// Kafka's legal transitions between the four live states, as arrows: from, to, and the line.
/// An arrow's ends: x1, y1, x2, y2.
type Line = (f64, f64, f64, f64);

const EDGES: [(GroupStateId, GroupStateId, Line); 7] = [
    (
        GroupStateId::Empty,
        GroupStateId::PreparingRebalance,
        (156.0, 42.0, 186.0, 42.0),
    ),
    (
        GroupStateId::PreparingRebalance,
        GroupStateId::Empty,
        (186.0, 60.0, 156.0, 60.0),
    ),
    (
        GroupStateId::PreparingRebalance,
        GroupStateId::CompletingRebalance,
        (338.0, 42.0, 368.0, 42.0),
    ),
    (
        GroupStateId::CompletingRebalance,
        GroupStateId::PreparingRebalance,
        (368.0, 60.0, 338.0, 60.0),
    ),
    (
        GroupStateId::CompletingRebalance,
        GroupStateId::Stable,
        (430.0, 80.0, 380.0, 148.0),
    ),
    (
        GroupStateId::Stable,
        GroupStateId::PreparingRebalance,
        (326.0, 148.0, 276.0, 80.0),
    ),
    // Any state can become Dead; the diagram draws the one arrow from Empty and says "any".
    (GroupStateId::Empty, GroupStateId::Dead, (80.0, 80.0, 80.0, 148.0)),
];

#[derive(PartialEq, Properties)]
pub struct StateDiagramProps {
    pub current: GroupStateId,
    /// The state before the last transition, if there was one.
    #[prop_or_default]
    pub previous: Option<GroupStateId>,
    /// Changes with every transition, so that its animation plays again.
    #[prop_or_default]
    pub transition_key: u64,
}

/// The five states as boxes with Kafka's legal transitions between them. The current one is lit,
/// outlined and marked in words (colour is never the only signal); the arrow of the last
/// transition is drawn bold and animated.
#[component]
pub fn StateDiagram(props: &StateDiagramProps) -> Html {
    let s = use_strings();
    let last = props.previous.map(|p| (p, props.current));
    html! {
        <svg class="state-diagram" viewBox="0 0 524 236" role="list" aria-label={s.state_diagram_label}>
            <defs>
                <marker id="state-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7"
                    orient="auto-start-reverse">
                    <path d="M0,0 L10,5 L0,10 Z" class="state-arrow-head" />
                </marker>
            </defs>
            <g aria-hidden="true">
                { for EDGES.iter().map(|(from, to, (x1, y1, x2, y2))| {
                    let is_last = last.is_some_and(|(f, t)| f == *from && (t == *to || (*to == GroupStateId::Dead && t == GroupStateId::Dead)));
                    let key = if is_last { format!("{}-{}-{}", from.css(), to.css(), props.transition_key) } else { format!("{}-{}", from.css(), to.css()) };
                    html! {
                        <line key={key} class={classes!("state-edge", is_last.then_some("is-last"), (*to == GroupStateId::Dead).then_some("to-dead"))}
                            x1={short(*x1, 1)} y1={short(*y1, 1)} x2={short(*x2, 1)} y2={short(*y2, 1)}
                            marker-end="url(#state-arrow)" />
                    }
                }) }
            </g>
            { for GroupStateId::ALL.into_iter().map(|state| {
                let current = state == props.current;
                let (x, y) = centre(state);
                let (line1, line2) = two_lines(state.label(s));
                let key = if current { format!("{}-{}", state.css(), props.transition_key) } else { state.css().to_owned() };
                html! {
                    <g key={key}
                        class={classes!("state-node", state.css(), current.then_some("is-current"))}
                        role="listitem"
                        aria-current={current.then_some("step")}
                        transform={format!("translate({},{})", short(x, 1), short(y, 1))}
                    >
                        <rect x={short(-BOX_W / 2.0, 1)} y={short(-BOX_H / 2.0, 1)}
                            width={short(BOX_W, 1)} height={short(BOX_H, 1)} rx="12" />
                        <text class="state-node-name" text-anchor="middle" y={if line2.is_empty() { "6" } else { "-4" }}>{ line1 }</text>
                        if !line2.is_empty() {
                            <text class="state-node-sub" text-anchor="middle" y="16">{ line2 }</text>
                        }
                        if current {
                            <text class="state-node-marker" text-anchor="middle" y={short(BOX_H / 2.0 + 17.0, 1)}>{ "▲ " }{ s.current_state }</text>
                        }
                        <title>{ state.explanation(s) }</title>
                    </g>
                }
            }) }
        </svg>
    }
}

#[cfg(test)]
mod tests {
    use super::two_lines;

    #[test]
    fn names_split_into_two_lines() {
        assert_eq!(
            two_lines("PreparingRebalance"),
            ("Preparing".into(), "Rebalance".into())
        );
        assert_eq!(two_lines("Empty"), ("Empty".into(), String::new()));
        assert_eq!(two_lines("稳定（Stable）"), ("稳定".into(), "Stable".into()));
    }
}
