//! A [`CompareSession`] runs one story under every protocol; its lanes must show what each
//! protocol does to ownership: eager revokes everything before rejoining (Kafka's
//! `ConsumerCoordinator.onJoinPrepare` with `RebalanceProtocol.EAGER`), cooperative revokes only
//! what moves (KIP-429), and every variant replays the same after seeks.

use rebalance_engine::compare::{CompareSession, Lane, Protocol, SegmentKind, VariantStatus};
use rebalance_engine::sim::Action;
use rebalance_engine::{ConsumerConfig, Scenario, SimTime, Subscription};

fn base() -> Scenario {
    Scenario::from_json(
        r#"{"version": 1, "seed": 5, "group_id": "g", "end_ms": 1,
            "network": {"latency_ms": 20, "jitter_ms": 5},
            "topics": [{"name": "t", "partitions": 6, "records_per_sec": 12}]}"#,
    )
    .unwrap()
}

fn consumer(name: &str) -> Action {
    let mut c = ConsumerConfig::new(name, "g", Subscription::Topics(vec!["t".into()]));
    c.session_timeout_ms = 10_000;
    c.heartbeat_interval_ms = 3_000;
    Action::AddConsumer { config: Box::new(c) }
}

const KILL_AT: u64 = 30_000;
const END: u64 = 70_000;

/// Three consumers join at 0, 1 s and 2 s; C2 is killed at 30 s; the story runs to 70 s.
fn story() -> CompareSession {
    let mut s = CompareSession::new(base()).unwrap();
    for (i, name) in ["C1", "C2", "C3"].into_iter().enumerate() {
        s.run_to(SimTime(i as u64 * 1_000));
        s.apply(consumer(name)).unwrap();
    }
    s.run_to(SimTime(KILL_AT));
    s.apply(Action::Kill {
        consumer: "C2".into(),
    })
    .unwrap();
    s.run_to(SimTime(END));
    s
}

fn lanes(s: &CompareSession, p: Protocol) -> Vec<Lane> {
    s.ownership(p, SimTime::ZERO).unwrap().lanes
}

fn lane<'a>(lanes: &'a [Lane], name: &str) -> &'a Lane {
    lanes.iter().find(|l| l.consumer == name).unwrap()
}

/// What a consumer owned just before `t`.
fn owned_at(lane: &Lane, t: SimTime) -> Vec<String> {
    lane.segments
        .iter()
        .find(|s| s.from <= t && s.to.is_none_or(|end| end > t))
        .map(|s| s.owned.iter().map(|p| p.to_string()).collect())
        .unwrap_or_default()
}

#[test]
fn every_variant_runs_the_consumer_protocol_included() {
    let mut s = CompareSession::new(base()).unwrap();
    for p in [Protocol::Eager, Protocol::Cooperative, Protocol::Consumer] {
        assert_eq!(s.variant(p).unwrap().status(), &VariantStatus::Running, "{p:?}");
    }
    s.run_to(SimTime(20_000));
    let v = s.variant(Protocol::Consumer).unwrap();
    let sim = v.session().unwrap().sim();
    assert!(sim.consumers().iter().all(|c| c.consumer_protocol.is_some()));
}

#[test]
fn actions_apply_to_every_variant_at_the_same_time() {
    let s = story();
    let mut times = Vec::new();
    for v in s.variants() {
        let Some(session) = v.session() else { continue };
        assert_eq!(session.now(), SimTime(END));
        let h: Vec<u64> = session.history().iter().map(|(t, _)| t.as_millis()).collect();
        assert_eq!(h.len(), 4, "{:?}", v.protocol());
        times.push(h);
        let names = session.sim().consumer_names();
        assert_eq!(names, ["C1", "C2", "C3"]);
        assert!(!session.sim().consumer("C2").unwrap().lifecycle().is_running());
        assert!(session.sim().consumer("C3").unwrap().lifecycle().is_running());
    }
    assert!(times.len() >= 2);
    assert!(times.windows(2).all(|w| w[0] == w[1]), "{times:?}");
    // The derivation: eager runs range, cooperative cooperative-sticky.
    let eager = s.session(Protocol::Eager).unwrap().consumers();
    assert!(eager
        .iter()
        .all(|c| c.protocol == rebalance_engine::assignor::RebalanceProtocol::Eager));
    let coop = s.session(Protocol::Cooperative).unwrap().consumers();
    assert!(coop
        .iter()
        .all(|c| c.protocol == rebalance_engine::assignor::RebalanceProtocol::Cooperative));
    // One refused action changes none of them.
    let mut s = s;
    assert!(s
        .apply(Action::Kill {
            consumer: "nobody".into()
        })
        .is_err());
    assert_eq!(s.now(), SimTime(END));
}

#[test]
fn eager_lanes_show_every_member_owning_nothing_during_the_rebalance() {
    let s = story();
    let lanes = lanes(&s, Protocol::Eager);
    let kill = SimTime(KILL_AT);
    let before = SimTime(KILL_AT - 1);
    // Before the kill, every consumer owns two partitions.
    for name in ["C1", "C2", "C3"] {
        assert_eq!(owned_at(lane(&lanes, name), before).len(), 2, "{name}: {lanes:?}");
    }
    // After it (once C2's session times out), C1 and C3 both give everything up: there is a time
    // at which both own nothing.
    let nothing = |name: &str| -> Vec<(SimTime, SimTime)> {
        lane(&lanes, name)
            .segments
            .iter()
            .filter(|seg| seg.from > kill && seg.kind() == SegmentKind::OwnsNothing)
            .map(|seg| (seg.from, seg.to.unwrap()))
            .collect()
    };
    let (a, b) = (nothing("C1"), nothing("C3"));
    assert!(!a.is_empty() && !b.is_empty(), "{lanes:?}");
    let overlap = a
        .iter()
        .any(|(f1, t1)| b.iter().any(|(f2, t2)| f1.max(f2) < t1.min(t2)));
    assert!(overlap, "no moment at which the whole group stopped: {a:?} {b:?}");
    // And afterwards they own the six partitions between them.
    let end = SimTime(END - 1);
    assert_eq!(
        owned_at(lane(&lanes, "C1"), end).len() + owned_at(lane(&lanes, "C3"), end).len(),
        6
    );
    let sum = s.summary(Protocol::Eager).unwrap();
    assert!(sum.partitions_revoked >= 4, "{sum:?}");
    // Every partition was unowned after the kill, the survivors' own ones included.
    let survivors: Vec<String> = ["C1", "C3"]
        .iter()
        .flat_map(|n| owned_at(lane(&lanes, n), before))
        .collect();
    assert_eq!(survivors.len(), 4);
    let after = unowned_after(&s, Protocol::Eager, kill);
    assert!(survivors.iter().all(|p| after.contains(p)), "{after:?}");
}

/// The partitions with an unowned stretch after `t`, from the ownership lanes: those no running
/// lane owns at some sampled moment after `t`.
fn unowned_after(s: &CompareSession, p: Protocol, t: SimTime) -> Vec<String> {
    let view = s.ownership(p, t).unwrap();
    let mut cuts: Vec<SimTime> = view
        .lanes
        .iter()
        .flat_map(|l| l.segments.iter().flat_map(|g| [Some(g.from), g.to]).flatten())
        .filter(|at| *at >= t && *at < view.to)
        .collect();
    cuts.sort();
    let mut out = Vec::new();
    for at in cuts {
        for tp in &view.partitions {
            let owned = view.lanes.iter().any(|l| {
                l.segments
                    .iter()
                    .any(|g| g.from <= at && g.to.is_none_or(|e| e > at) && g.owned.contains(tp))
            });
            if !owned && !out.contains(&tp.to_string()) {
                out.push(tp.to_string());
            }
        }
    }
    out
}

#[test]
fn cooperative_lanes_show_only_the_moved_partitions_unowned() {
    let s = story();
    let lanes = lanes(&s, Protocol::Cooperative);
    let kill = SimTime(KILL_AT);
    let before = SimTime(KILL_AT - 1);
    let kept: Vec<(String, Vec<String>)> = ["C1", "C3"]
        .iter()
        .map(|n| (n.to_string(), owned_at(lane(&lanes, n), before)))
        .collect();
    let dead = owned_at(lane(&lanes, "C2"), before);
    assert_eq!(dead.len(), 2, "{lanes:?}");
    for (name, before) in &kept {
        assert_eq!(before.len(), 2, "{name}: {lanes:?}");
        for seg in lane(&lanes, name).segments.iter().filter(|s| s.from >= kill) {
            assert_ne!(seg.kind(), SegmentKind::OwnsNothing, "{name} stopped: {seg:?}");
            let owned: Vec<String> = seg.owned.iter().map(|p| p.to_string()).collect();
            assert!(
                before.iter().all(|p| owned.contains(p)),
                "{name} lost a partition: {seg:?}"
            );
        }
    }
    // Only C2's partitions went unowned after the kill, until C2's session timed out.
    let mut after = unowned_after(&s, Protocol::Cooperative, kill);
    after.sort();
    let mut dead_sorted = dead.clone();
    dead_sorted.sort();
    assert_eq!(after, dead_sorted);
    let sum = s.summary(Protocol::Cooperative).unwrap();
    for u in sum
        .unowned
        .iter()
        .filter(|u| dead.contains(&u.partition.to_string()))
    {
        assert!(u.worst_ms >= 9_000, "waited for C2's 10 s session timeout: {u:?}");
    }
    let eager = s.summary(Protocol::Eager).unwrap();
    assert!(
        sum.partitions_revoked < eager.partitions_revoked,
        "{sum:?} {eager:?}"
    );
}

#[test]
fn seeking_gives_the_same_views_and_a_replay_of_its_scenario_the_same_lanes() {
    let mut s = story();
    let at_end = s.views(SimTime::ZERO);
    for t in [5_000, 45_000, 31_000, 0, 69_999, 12_345] {
        s.seek(SimTime(t));
        assert_eq!(s.now(), SimTime(t));
        let v = s.views(SimTime::ZERO);
        for view in &v {
            if let Some(o) = &view.ownership {
                assert!(o
                    .lanes
                    .iter()
                    .all(|l| l.segments.iter().all(|g| g.to.unwrap() <= SimTime(t))));
            }
        }
    }
    s.seek(SimTime(END));
    assert_eq!(s.views(SimTime::ZERO), at_end);
    // The same story from its scenario.
    let mut fresh = CompareSession::new(s.to_scenario()).unwrap();
    fresh.run_to(SimTime(END));
    assert_eq!(fresh.views(SimTime::ZERO), at_end);
}

#[test]
fn an_action_in_the_past_forks_every_variant_and_cuts_the_lanes() {
    let mut s = story();
    s.seek(SimTime(20_000));
    s.apply(Action::Close {
        consumer: "C1".into(),
    })
    .unwrap();
    assert_eq!(s.horizon(), s.now());
    s.run_to(SimTime(50_000));
    // C2 was never killed in this future; C1 left.
    for v in s.variants() {
        let Some(session) = v.session() else { continue };
        assert!(session.sim().consumer("C2").unwrap().lifecycle().is_running());
        assert!(!session.sim().consumer("C1").unwrap().lifecycle().is_running());
    }
    let mut fresh = CompareSession::new(s.to_scenario()).unwrap();
    fresh.run_to(SimTime(50_000));
    assert_eq!(fresh.views(SimTime::ZERO), s.views(SimTime::ZERO));
}

#[test]
fn a_compare_link_carries_the_mode_and_an_old_link_still_opens_as_a_session() {
    use rebalance_engine::share::{self, LinkMode};
    let s = story();
    let scenario = s.to_scenario();
    let old = share::encode(&scenario);
    let new = share::encode_with_mode(&scenario, LinkMode::Compare);
    assert_eq!(new, format!("compare&{old}"));
    for (text, mode) in [
        (old.clone(), LinkMode::Session),
        (format!("https://x.invalid/#s={old}"), LinkMode::Session),
        (new.clone(), LinkMode::Compare),
        (format!("https://x.invalid/#s={new}"), LinkMode::Compare),
    ] {
        let (decoded, m) = share::decode_with_mode(&text).unwrap();
        assert_eq!(m, mode, "{text}");
        assert_eq!(decoded, scenario);
    }
    // A decoder that knows no modes reads the story of a compare link.
    assert_eq!(share::decode(&new).unwrap(), scenario);
    assert!(share::decode_with_mode("compare&garbage").is_err());
}
