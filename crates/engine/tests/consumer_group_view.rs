//! The group view of a consumer-protocol (KIP-848) group: what the playground's stage, cards and
//! compare columns show, read from the coordinator through a [`Session`].

mod common;

use rebalance_engine::collections::Set;

use rebalance_engine::coordinator::consumer::{ConsumerGroupState, MemberState};
use rebalance_engine::sim::Action;
use rebalance_engine::{EventKind, Scenario, Session, SimEventKind, SimTime};

use common::sim::repo_root;

fn scenario(file: &str) -> Scenario {
    let text = std::fs::read_to_string(repo_root().join("scenarios").join(file)).unwrap();
    Scenario::from_json(&text).unwrap()
}

/// Before anyone joined, a group of consumer-protocol consumers is shown as the consumer group it
/// will be: Empty at epoch 0, not as a classic group.
#[test]
fn an_unjoined_consumer_protocol_group_is_an_empty_consumer_group() {
    let s = Session::new(scenario("consumer-protocol-join-stable-group.json")).unwrap();
    let g = s.group_view();
    let c = g.consumer.expect("a consumer-protocol group");
    assert_eq!(c.state, ConsumerGroupState::Empty);
    assert_eq!((c.group_epoch, c.assignment_epoch), (0, 0));
    assert!(!c.exists && c.members.is_empty());
}

/// A Stable group of three, then a fourth joins: the view follows the coordinator's epochs and
/// each member's reconciliation, with its consumer's name.
#[test]
fn the_view_follows_epochs_and_reconciliation() {
    let mut s = Session::new(scenario("consumer-protocol-join-stable-group.json")).unwrap();
    s.run_to(SimTime(19_000));
    let g = s.group_view();
    let c = g.consumer.clone().expect("a consumer group");
    assert!(c.exists && g.exists);
    assert_eq!(c.state, ConsumerGroupState::Stable);
    assert_eq!(c.group_epoch, c.assignment_epoch);
    assert_eq!(g.members, 3);
    let names: Set<_> = c.members.iter().filter_map(|m| m.consumer.clone()).collect();
    assert_eq!(names, ["A", "B", "C"].map(String::from).into());
    let mut owned = Set::new();
    for m in &c.members {
        assert_eq!(m.state, MemberState::Stable, "{m:?}");
        assert_eq!(m.member_epoch, c.group_epoch, "{m:?}");
        assert_eq!(m.assigned, m.target, "{m:?}");
        assert!(m.awaiting.is_empty() && m.pending_revocation.is_empty(), "{m:?}");
        for tp in &m.assigned {
            assert!(owned.insert(tp.clone()), "{tp} owned twice");
        }
    }
    assert_eq!(owned.len(), 8);
    let stable_epoch = c.group_epoch;

    // D joins at 20 s: the epoch goes up, the target is computed at once, and someone has to
    // revoke (UNREVOKED_PARTITIONS) while D waits for partitions it does not have yet.
    let mut saw_reconciling = false;
    let mut saw_unrevoked = false;
    let mut saw_awaiting = false;
    let mut t = 20_000;
    while t <= 45_000 {
        s.run_to(SimTime(t));
        let c = s.group_view().consumer.unwrap();
        if c.state == ConsumerGroupState::Reconciling {
            saw_reconciling = true;
            assert!(c.group_epoch > stable_epoch);
            assert_eq!(c.assignment_epoch, c.group_epoch);
        }
        for m in &c.members {
            saw_unrevoked |= m.state == MemberState::UnrevokedPartitions && !m.pending_revocation.is_empty();
            saw_awaiting |= m.consumer.as_deref() == Some("D") && !m.awaiting.is_empty();
            for tp in &m.awaiting {
                assert!(m.target.contains(tp) && !m.assigned.contains(tp));
            }
        }
        t += 50;
    }
    assert!(saw_reconciling && saw_unrevoked && saw_awaiting);
    let g = s.group_view();
    let c = g.consumer.unwrap();
    assert_eq!(c.state, ConsumerGroupState::Stable);
    assert_eq!(g.members, 4);
    let (_, to, seq) = c.last_transition.expect("a transition was logged");
    assert_eq!(to, ConsumerGroupState::Stable);
    assert!(s.event(seq).is_some());
    assert!(c.epoch_seq > 0 && s.event(c.epoch_seq).is_some());
}

/// Once the members have reconciled, the view still says what the last target changed: each
/// partition that moved, from its owner in the previous target to its owner now, and what every
/// other member kept. Seeking back shows the change that was last then.
#[test]
fn a_stable_group_still_says_what_its_last_target_moved() {
    let mut s = Session::new(scenario("consumer-protocol-join-stable-group.json")).unwrap();
    // The first target has nobody's partitions to move: it gives them all out.
    let mut t = 0;
    let first = loop {
        t += 100;
        assert!(t < 19_000, "no target before 19 s");
        s.run_to(SimTime(t));
        if let Some(c) = s.group_view().consumer.unwrap().last_target_change {
            break c;
        }
    };
    assert!(
        !first.moves.moved.is_empty() && first.moves.kept.is_empty(),
        "{first:?}"
    );
    assert!(
        first
            .moves
            .moved
            .iter()
            .all(|m| m.from.is_none() && m.to.is_some()),
        "{first:?}"
    );

    s.run_to(SimTime(19_000));
    let before = s.group_view().consumer.unwrap();
    let at_19 = before.last_target_change.clone().expect("a target");
    assert_eq!(at_19.epoch, before.assignment_epoch);
    s.run_to(SimTime(45_000));
    let after = s.group_view().consumer.unwrap();
    assert_eq!(after.state, ConsumerGroupState::Stable);
    assert!(after.moves().is_none(), "nothing is moving any more");
    let change = after.last_target_change.clone().expect("D's join made a target");
    assert_eq!(change.epoch, after.assignment_epoch);
    assert!(change.epoch > at_19.epoch && at_19.epoch > first.epoch);
    let owner_at = |c: &rebalance_engine::session::ConsumerGroupFacts, tp| {
        c.members
            .iter()
            .find(|m| m.assigned.contains(tp))
            .and_then(|m| m.consumer.clone())
    };
    assert!(!change.moves.moved.is_empty());
    for mv in &change.moves.moved {
        assert_eq!(mv.to, owner_at(&after, &mv.partition), "{mv:?}");
        assert_eq!(mv.from, owner_at(&before, &mv.partition), "{mv:?}");
        assert_ne!(mv.from, mv.to);
    }
    // Everyone else kept what they own now, all along.
    for (name, kept) in &change.moves.kept {
        let m = after.member_of(name).expect("a member");
        assert_eq!(
            &m.assigned
                .iter()
                .filter(|tp| kept.contains(tp))
                .cloned()
                .collect::<Vec<_>>(),
            kept
        );
        for tp in kept {
            assert_eq!(owner_at(&before, tp).as_deref(), Some(name.as_str()));
        }
    }
    let moved_or_kept: Set<_> = change
        .moves
        .moved
        .iter()
        .map(|m| m.partition.clone())
        .chain(change.moves.kept.iter().flat_map(|(_, p)| p.clone()))
        .collect();
    assert_eq!(
        moved_or_kept,
        after.members.iter().flat_map(|m| m.assigned.clone()).collect()
    );

    s.seek(SimTime(19_000));
    assert_eq!(s.group_view().consumer.unwrap().last_target_change, Some(at_19));
}

/// A classic group has no consumer part.
#[test]
fn a_classic_group_has_no_consumer_part() {
    let mut s = Session::new(scenario("a-then-b-joins.json")).unwrap();
    s.run_to(SimTime(10_000));
    assert!(s.group_view().consumer.is_none());
}

/// The transitions the UI draws are every change `derive` can make: the states it returns over
/// every kind of input, each to each other; and every change the coordinator logs in the shipped
/// consumer-protocol stories (and after a kill) is one of them.
#[test]
fn the_transitions_are_the_coordinators_derivation() {
    let mut derived = Set::new();
    let states = [
        MemberState::Stable,
        MemberState::UnrevokedPartitions,
        MemberState::UnreleasedPartitions,
    ];
    for group_epoch in 0..3 {
        for target in 0..3 {
            derived.insert(ConsumerGroupState::derive(group_epoch, target, []));
            for a in states {
                for ea in 0..3 {
                    derived.insert(ConsumerGroupState::derive(group_epoch, target, [(a, ea)]));
                    for b in states {
                        derived.insert(ConsumerGroupState::derive(group_epoch, target, [(a, ea), (b, 2)]));
                    }
                }
            }
        }
    }
    assert_eq!(derived, ConsumerGroupState::DERIVED.into_iter().collect());
    let listed: Set<_> = ConsumerGroupState::transitions().collect();
    let expected: Set<_> = derived
        .iter()
        .flat_map(|f| derived.iter().filter(move |t| *t != f).map(move |t| (*f, *t)))
        .collect();
    assert_eq!(listed, expected);
    assert!(listed
        .iter()
        .all(|(f, t)| *f != ConsumerGroupState::Dead && *t != ConsumerGroupState::Dead));

    let mut seen = Set::new();
    for file in [
        "consumer-protocol-join-stable-group.json",
        "consumer-protocol-crash-session-timeout.json",
        "consumer-protocol-slow-revoke-fenced.json",
        "consumer-protocol-three-members-join.json",
    ] {
        let mut s = Session::new(scenario(file)).unwrap();
        s.run_to(SimTime(30_000));
        if file.starts_with("consumer-protocol-join") {
            s.apply(Action::Kill { consumer: "A".into() }).unwrap();
        }
        s.run_to_end();
        for ev in s.log() {
            if let SimEventKind::Coordinator {
                event: EventKind::ConsumerGroupStateChanged { from, to, .. },
                ..
            } = &ev.kind
            {
                assert!(
                    listed.contains(&(*from, *to)),
                    "{file}: {from} -> {to} is not listed"
                );
                seen.insert((*from, *to));
            }
        }
    }
    // The stories show the usual ones: a first join, a join into a Stable group, a leave.
    assert!(
        seen.contains(&(ConsumerGroupState::Empty, ConsumerGroupState::Stable)),
        "{seen:?}"
    );
    assert!(
        seen.contains(&(ConsumerGroupState::Stable, ConsumerGroupState::Reconciling)),
        "{seen:?}"
    );
    assert!(
        seen.contains(&(ConsumerGroupState::Reconciling, ConsumerGroupState::Stable)),
        "{seen:?}"
    );
}
