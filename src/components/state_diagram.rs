use rebalance_engine::coordinator::consumer::ConsumerGroupState;
use rebalance_engine::GroupState;
use yew::prelude::*;

use super::use_strings;
use crate::i18n::Strings;
use crate::num::short;

/// How the diagram shows a state: its name and explanation in the user's language, its CSS class.
pub trait StateLook {
    /// The state's name in the user's language.
    fn label(self, s: &Strings) -> &'static str;
    /// One sentence that explains the state.
    fn explanation(self, s: &Strings) -> &'static str;
    /// The CSS class of the state.
    fn css(self) -> &'static str;
}

impl StateLook for GroupState {
    fn label(self, s: &Strings) -> &'static str {
        pick(self, &s.states)
    }

    fn explanation(self, s: &Strings) -> &'static str {
        pick(self, &s.state_explanations)
    }

    fn css(self) -> &'static str {
        match self {
            GroupState::Empty => "state-empty",
            GroupState::PreparingRebalance => "state-preparing",
            GroupState::CompletingRebalance => "state-completing",
            GroupState::Stable => "state-stable",
            GroupState::Dead => "state-dead",
        }
    }
}

fn pick(state: GroupState, names: &crate::i18n::StateNames) -> &'static str {
    match state {
        GroupState::Empty => names.empty,
        GroupState::PreparingRebalance => names.preparing_rebalance,
        GroupState::CompletingRebalance => names.completing_rebalance,
        GroupState::Stable => names.stable,
        GroupState::Dead => names.dead,
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
fn centre(state: GroupState) -> (f64, f64) {
    match state {
        GroupState::Empty => (80.0, 50.0),
        GroupState::PreparingRebalance => (262.0, 50.0),
        GroupState::CompletingRebalance => (444.0, 50.0),
        GroupState::Stable => (353.0, 178.0),
        GroupState::Dead => (80.0, 178.0),
    }
}

const BOX_W: f64 = 148.0;
const BOX_H: f64 = 56.0;

/// An arrow's ends: x1, y1, x2, y2.
type Line = (f64, f64, f64, f64);

/// Where the arrow of a transition is drawn. The arrows are the engine's table of Kafka's legal
/// transitions ([`GroupState::transitions`]); any state can become Dead, so the diagram draws one
/// arrow into Dead, from Empty, and says "any".
fn line(from: GroupState, to: GroupState) -> Option<Line> {
    use GroupState::*;
    match (from, to) {
        (Empty, PreparingRebalance) => Some((156.0, 42.0, 186.0, 42.0)),
        (PreparingRebalance, Empty) => Some((186.0, 60.0, 156.0, 60.0)),
        (PreparingRebalance, CompletingRebalance) => Some((338.0, 42.0, 368.0, 42.0)),
        (CompletingRebalance, PreparingRebalance) => Some((368.0, 60.0, 338.0, 60.0)),
        (CompletingRebalance, Stable) => Some((430.0, 80.0, 380.0, 148.0)),
        (Stable, PreparingRebalance) => Some((326.0, 148.0, 276.0, 80.0)),
        (Empty, Dead) => Some((80.0, 80.0, 80.0, 148.0)),
        _ => None,
    }
}

/// The arrows drawn: every legal transition between live states, and the one into Dead.
fn edges() -> impl Iterator<Item = (GroupState, GroupState, Line)> {
    GroupState::transitions().filter_map(|(from, to)| line(from, to).map(|l| (from, to, l)))
}

#[derive(PartialEq, Properties)]
pub struct StateDiagramProps {
    pub current: GroupState,
    /// The state before the last transition, if there was one.
    #[prop_or_default]
    pub previous: Option<GroupState>,
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
                { for edges().map(|(from, to, (x1, y1, x2, y2))| {
                    let is_last = last.is_some_and(|(f, t)| (f == from && t == to) || (to == GroupState::Dead && t == GroupState::Dead));
                    let key = if is_last { format!("{}-{}-{}", from.css(), to.css(), props.transition_key) } else { format!("{}-{}", from.css(), to.css()) };
                    html! {
                        <line key={key} class={classes!("state-edge", is_last.then_some("is-last"), (to == GroupState::Dead).then_some("to-dead"))}
                            x1={short(x1, 1)} y1={short(y1, 1)} x2={short(x2, 1)} y2={short(y2, 1)}
                            marker-end="url(#state-arrow)" />
                    }
                }) }
            </g>
            { for GroupState::ALL.into_iter().map(|state| {
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

impl StateLook for ConsumerGroupState {
    fn label(self, s: &Strings) -> &'static str {
        pick_consumer(self, &s.kip848_view.states)
    }

    fn explanation(self, s: &Strings) -> &'static str {
        pick_consumer(self, &s.kip848_view.explanations)
    }

    fn css(self) -> &'static str {
        match self {
            ConsumerGroupState::Empty => "state-empty",
            ConsumerGroupState::Assigning => "state-assigning",
            ConsumerGroupState::Reconciling => "state-reconciling",
            ConsumerGroupState::Stable => "state-stable",
            ConsumerGroupState::Dead => "state-dead",
        }
    }
}

fn pick_consumer(state: ConsumerGroupState, names: &crate::i18n::ConsumerStateNames) -> &'static str {
    match state {
        ConsumerGroupState::Empty => names.empty,
        ConsumerGroupState::Assigning => names.assigning,
        ConsumerGroupState::Reconciling => names.reconciling,
        ConsumerGroupState::Stable => names.stable,
        ConsumerGroupState::Dead => names.dead,
    }
}

/// Where each consumer-group state's box is drawn: the corners of a square, Empty top left, then
/// clockwise in Kafka's order.
fn consumer_centre(state: ConsumerGroupState) -> Option<(f64, f64)> {
    match state {
        ConsumerGroupState::Empty => Some((96.0, 46.0)),
        ConsumerGroupState::Assigning => Some((428.0, 46.0)),
        ConsumerGroupState::Reconciling => Some((428.0, 206.0)),
        ConsumerGroupState::Stable => Some((96.0, 206.0)),
        ConsumerGroupState::Dead => None,
    }
}

/// The arrow of a consumer-group transition: from the edge of one box towards the other, moved a
/// little to its left so that the two directions of a pair are drawn side by side.
fn consumer_line(from: ConsumerGroupState, to: ConsumerGroupState) -> Option<Line> {
    let (a, b) = (consumer_centre(from)?, consumer_centre(to)?);
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = dx.hypot(dy).max(1.0);
    let (ux, uy) = (dx / len, dy / len);
    // How far the box's edge is from its centre along this direction.
    let reach = |ux: f64, uy: f64| {
        let tx = if ux.abs() > 1e-9 {
            (BOX_W / 2.0 + 6.0) / ux.abs()
        } else {
            f64::MAX
        };
        let ty = if uy.abs() > 1e-9 {
            (BOX_H / 2.0 + 6.0) / uy.abs()
        } else {
            f64::MAX
        };
        tx.min(ty)
    };
    let (r0, r1) = (reach(ux, uy), reach(ux, uy) + 4.0);
    let (ox, oy) = (uy * 7.0, -ux * 7.0);
    Some((
        a.0 + ux * r0 + ox,
        a.1 + uy * r0 + oy,
        b.0 - ux * r1 + ox,
        b.1 - uy * r1 + oy,
    ))
}

#[derive(PartialEq, Properties)]
pub struct ConsumerStateDiagramProps {
    pub current: ConsumerGroupState,
    /// The last transition (from, to), if there was one.
    #[prop_or_default]
    pub last: Option<(ConsumerGroupState, ConsumerGroupState)>,
    /// Changes with every transition, so that its animation plays again.
    #[prop_or_default]
    pub transition_key: u64,
}

/// A consumer-protocol group's four derived states as boxes, with the transitions the engine lists
/// ([`ConsumerGroupState::transitions`]: any to any). The current one is lit, outlined and marked
/// in words; the arrow of the last transition is drawn bold and animated. Dead is never derived:
/// while the group is Dead no box is lit and the marker says so under the drawing.
#[component]
pub fn ConsumerStateDiagram(props: &ConsumerStateDiagramProps) -> Html {
    let s = use_strings();
    let arrows = ConsumerGroupState::transitions().filter_map(|(from, to)| {
        let (x1, y1, x2, y2) = consumer_line(from, to)?;
        let is_last = props.last == Some((from, to));
        let key = if is_last {
            format!("{}-{}-{}", from.css(), to.css(), props.transition_key)
        } else {
            format!("{}-{}", from.css(), to.css())
        };
        Some(html! {
            <line key={key} class={classes!("state-edge", is_last.then_some("is-last"))}
                data-from={from.name()} data-to={to.name()}
                x1={short(x1, 1)} y1={short(y1, 1)} x2={short(x2, 1)} y2={short(y2, 1)}
                marker-end="url(#cg-state-arrow)" />
        })
    });
    let boxes = ConsumerGroupState::DERIVED.into_iter().filter_map(|state| {
        let (x, y) = consumer_centre(state)?;
        let current = state == props.current;
        let (line1, line2) = two_lines(state.label(s));
        let key = if current { format!("{}-{}", state.css(), props.transition_key) } else { state.css().to_owned() };
        Some(html! {
            <g key={key}
                class={classes!("state-node", state.css(), current.then_some("is-current"))}
                role="listitem" data-state={state.name()}
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
        })
    });
    html! {
        <svg class="state-diagram consumer-state-diagram" viewBox="0 0 524 262" role="list"
            aria-label={s.kip848_view.diagram_label} data-testid="consumer-state-diagram">
            <defs>
                <marker id="cg-state-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7"
                    orient="auto-start-reverse">
                    <path d="M0,0 L10,5 L0,10 Z" class="state-arrow-head" />
                </marker>
            </defs>
            <g aria-hidden="true">{ for arrows }</g>
            { for boxes }
        </svg>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every legal transition between live states has an arrow, and no arrow is drawn that Kafka
    /// does not allow; Dead is reached from anywhere and drawn once.
    #[test]
    fn the_arrows_are_kafkas_transitions() {
        let live = |s: GroupState| s != GroupState::Dead;
        for (from, to) in GroupState::transitions().filter(|(f, t)| live(*f) && live(*t)) {
            assert!(line(from, to).is_some(), "no arrow for {from} -> {to}");
        }
        for from in GroupState::ALL {
            for to in GroupState::ALL {
                if line(from, to).is_some() {
                    assert!(
                        from.can_transition_to(to),
                        "an arrow {from} -> {to} Kafka forbids"
                    );
                }
            }
        }
        assert_eq!(edges().filter(|(_, t, _)| *t == GroupState::Dead).count(), 1);
        assert_eq!(edges().count(), 7);
    }

    /// The consumer diagram draws one arrow per transition the engine lists, and only those.
    #[test]
    fn the_consumer_arrows_are_the_engines_transitions() {
        let listed: Vec<_> = ConsumerGroupState::transitions().collect();
        assert_eq!(listed.len(), 12);
        for (from, to) in &listed {
            assert!(consumer_line(*from, *to).is_some(), "no arrow for {from} -> {to}");
        }
        for from in ConsumerGroupState::ALL {
            assert!(consumer_line(from, ConsumerGroupState::Dead).is_none());
            assert!(consumer_line(ConsumerGroupState::Dead, from).is_none());
        }
        assert_eq!(
            two_lines("调和中（Reconciling）"),
            ("调和中".into(), "Reconciling".into())
        );
    }

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
