//! The log reader on its own: line forms of each Kafka version (reference `kafka-log-lines.md`),
//! and bounded memory on a large generated input (counted, not timed).

use rebalance_engine::fromlog::{self, check, Importer, Milestone, MAX_ENTRIES};
use rebalance_engine::scenario::preload::{ClassicGroupSpec, ConsumerGroupSpec};
use rebalance_engine::scenario::PreloadedGroup;

const GC: &str = "(kafka.coordinator.group.GroupCoordinator)";

#[test]
fn kafka_2_0_forms_without_state_or_reason() {
    // 2.0: `Preparing to rebalance group G with old generation N (__consumer_offsets-P)` (§2 B1),
    // `Stabilized group G generation N (__consumer_offsets-P)` without `with N members` (B2).
    let text = format!(
        "[2018-08-01 12:00:00,000] INFO [GroupCoordinator 0]: Preparing to rebalance group legacy with old generation 0 (__consumer_offsets-7) {GC}\n\
         [2018-08-01 12:00:03,000] INFO [GroupCoordinator 0]: Stabilized group legacy generation 1 (__consumer_offsets-7) {GC}\n"
    );
    let r = fromlog::from_text(&text).unwrap();
    assert_eq!(r.scenario.group_id, "legacy");
    let ms: Vec<&Milestone> = r.milestones.iter().map(|(_, _, m)| m).collect();
    assert_eq!(
        ms,
        [
            &Milestone::State("PreparingRebalance".into()),
            &Milestone::Generation(1),
            &Milestone::State("CompletingRebalance".into())
        ]
    );
    assert_eq!(r.milestones[1].0, 3_000);
}

#[test]
fn java_coordinator_lines_end_with_a_period() {
    let text = "[2025-09-01 10:05:12,407] INFO [GroupCoordinator id=2 topic=__consumer_offsets partition=5] Preparing to rebalance group orders-app in state PreparingRebalance with old generation 1 (reason: Adding new member consumer-orders-app-2-0b9e8d7c-6a5f-4e3d-8c2b-1a0f9e8d7c6b with group instance id null; client reason: need to re-join with the given member-id: consumer-orders-app-2-0b9e8d7c-6a5f-4e3d-8c2b-1a0f9e8d7c6b). (org.apache.kafka.coordinator.group.GroupMetadataManager)\n";
    let r = fromlog::from_text(text).unwrap();
    assert_eq!(r.scenario.consumers.len(), 1);
    assert_eq!(
        r.scenario.consumers[0].name.as_deref(),
        Some("consumer-orders-app-2")
    );
    assert_eq!(
        r.scenario.consumers[0].group_instance_id, None,
        "`null` is no instance id"
    );
}

#[test]
fn other_layouts_and_loggers() {
    // Logback's default and a Spring Boot layout, with the client prefix inside.
    let text = "\
10:00:00.100 [main] INFO  o.a.k.c.c.i.ConsumerCoordinator - [Consumer clientId=c1, groupId=g] (Re-)joining group
2024-05-01 10:00:03.200  INFO 4242 --- [main] o.a.k.c.c.i.ConsumerCoordinator   : [Consumer clientId=c1, groupId=g] Successfully joined group with generation Generation{generationId=1, memberId='c1-00000000-0000-4000-8000-000000000000', protocol='range'}
a line of some other logger
";
    let r = fromlog::from_text(text).unwrap();
    assert_eq!(r.stats.recognised, 2);
    assert_eq!(
        r.stats.skipped, 2,
        "the other logger's line and the empty last line"
    );
    assert_eq!(r.scenario.consumers[0].name.as_deref(), Some("c1"));
}

#[test]
fn memory_stays_bounded_on_a_large_input() {
    let mut i = Importer::new();
    let n = MAX_ENTRIES as u64 + 5_000;
    for k in 0..n {
        let line = format!(
            "[2024-05-01 10:{:02}:{:02},000] INFO [GroupCoordinator 1]: Stabilized group g generation {} (__consumer_offsets-3) with 1 members {GC}",
            (k / 60) % 60,
            k % 60,
            k + 1
        );
        i.push_line(&line);
        i.push_line(
            "[2024-05-01 10:00:00,000] INFO [ReplicaManager broker=1] noise (kafka.server.ReplicaManager)",
        );
        assert!(i.kept() <= MAX_ENTRIES);
    }
    assert_eq!(i.kept(), MAX_ENTRIES);
    let r = i.finish().unwrap();
    assert_eq!(r.stats.lines, 2 * n);
    assert_eq!(r.stats.over_limit, n - MAX_ENTRIES as u64);
    assert!(r.marks.len() <= MAX_ENTRIES);
    assert!(r
        .assumptions
        .iter()
        .any(|a| a.text.contains("only the first 20000 group lines are replayed")));
}

#[test]
fn recognises_a_log_and_not_a_scenario() {
    assert!(fromlog::looks_like_kafka_log(&format!(
        "[2024-05-01 10:00:00,000] INFO [GroupCoordinator 1]: Stabilized group g generation 1 (__consumer_offsets-3) with 1 members {GC}"
    )));
    assert!(!fromlog::looks_like_kafka_log("{\"version\": 1, \"end_ms\": 10}"));
}

#[test]
fn classifies_what_a_user_pastes() {
    use fromlog::{classify, TextKind};
    assert_eq!(classify("  {\"version\": 1}"), TextKind::Json);
    assert_eq!(classify("rb1.abc"), TextKind::ShareLink);
    // Compare mode's links carry a mark before the share string.
    assert_eq!(classify("compare&rb1.abc"), TextKind::ShareLink);
    assert_eq!(
        classify("https://example.org/play/#s=compare&rb1.abc"),
        TextKind::ShareLink
    );
    assert_eq!(classify("compare&hello"), TextKind::Other);
    assert_eq!(classify(&format!("junk\n[2024-05-01 10:00:00,000] INFO [GroupCoordinator 1]: Stabilized group g generation 1 (__consumer_offsets-3) with 1 members {GC}")), TextKind::KafkaLog);
    // Reference §6.1 and §6.3.
    assert_eq!(
        classify("\nGROUP           TOPIC           PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG             CONSUMER-ID     HOST            CLIENT-ID\norders-app      orders          0          1042            1050            8               -               -               -\n"),
        TextKind::ConsumerGroupsDescribe
    );
    assert_eq!(
        classify("\nGROUP                     COORDINATOR (ID)          ASSIGNMENT-STRATEGY  STATE           #MEMBERS\norders-app                broker-2.kafka:9092 (2)   range                Stable          2\n"),
        TextKind::ConsumerGroupsDescribe
    );
    assert_eq!(
        classify("# consumer\nbootstrap.servers=localhost:9092\ngroup.id=orders-app\n"),
        TextKind::Properties
    );
    assert_eq!(classify("hello world"), TextKind::Other);
}

/// The lesson's storm log as a production log would show it: without the group's creation (its
/// first 20 lines), the group already at generation 137 (every generation raised by 136).
fn storm_mid_life() -> String {
    const RAISE: i64 = 136;
    let storm = include_str!("../../../lessons/16-rebalance-storm.log");
    let mut out = String::new();
    for line in storm.lines().skip(20) {
        let mut rest = line;
        while let Some(i) = ["generation ", "generationId="]
            .iter()
            .filter_map(|k| rest.find(k).map(|i| i + k.len()))
            .min()
        {
            let digits = rest[i..].bytes().take_while(u8::is_ascii_digit).count();
            out.push_str(&rest[..i]);
            if digits > 0 {
                let g: i64 = rest[i..i + digits].parse().unwrap();
                out.push_str(&(g + RAISE).to_string());
            }
            rest = &rest[i + digits..];
        }
        out.push_str(rest);
        out.push('\n');
    }
    out
}

#[test]
fn a_log_that_begins_with_the_group_formed_is_replayed_with_its_generations_and_times() {
    let text = storm_mid_life();
    assert!(text.contains("generationId=137") && !text.contains("generation 0 "));
    let r = fromlog::from_text(&text).unwrap();
    // The replay forms the group first, from an Empty group one generation below the log's, with
    // the two consumers the log shows in it; the log's first line comes once it is Stable.
    assert_eq!(
        r.scenario.preloaded_groups,
        [PreloadedGroup::Classic(ClassicGroupSpec {
            generation: Some(136),
            ..ClassicGroupSpec::default()
        })]
    );
    let starts: Vec<(Option<&str>, Option<u64>)> = r
        .scenario
        .consumers
        .iter()
        .map(|c| (c.name.as_deref(), c.start_ms))
        .collect();
    assert_eq!(
        starts,
        [
            (Some("consumer-orders-app-1"), Some(0)),
            (Some("consumer-orders-app-2"), Some(0))
        ]
    );
    assert!(r.lead_in_ms > 0);
    assert_eq!(r.marks[0].at_ms, r.lead_in_ms);
    let formed = r
        .assumptions
        .iter()
        .find(|a| a.text.contains("already formed, at generation 137"))
        .expect("the lead-in is said");
    assert_eq!(formed.lines.len(), 1);
    // Every milestone of the log, from generation 138 on, is the replay's, at its time.
    let check = check::check(&r).unwrap();
    assert_eq!(check.differences, 0, "{}", check::render(&r, &check));
    let generations: Vec<i64> = r
        .milestones
        .iter()
        .filter_map(|(_, _, m)| match m {
            Milestone::Generation(g) => Some(*g),
            _ => None,
        })
        .collect();
    assert_eq!(generations, [138, 139]);
    // The replay's forming of the group, before the log's first line, is listed, not counted.
    let before: Vec<&str> = check
        .rows
        .iter()
        .filter(|row| row.log.is_none())
        .map(|row| row.note.as_str())
        .collect();
    assert!(
        !before.is_empty() && before.iter().all(|n| n.starts_with("before the log begins")),
        "{before:?}"
    );
}

#[test]
fn a_log_that_shows_the_group_created_has_no_lead_in() {
    let r = fromlog::from_text(include_str!("../../../lessons/16-rebalance-storm.log")).unwrap();
    assert_eq!(r.lead_in_ms, 0);
    assert!(r.scenario.preloaded_groups.is_empty());
    assert!(!r.assumptions.iter().any(|a| a.text.contains("already formed")));
    assert_eq!(check::check(&r).unwrap().differences, 0);
}

#[test]
fn a_consumer_group_log_that_begins_at_an_epoch_keeps_its_epochs() {
    // §3's example, a member joining a 4.1 group at epoch 7, then fenced after its session timeout.
    const GMM: &str = "(org.apache.kafka.coordinator.group.GroupMetadataManager)";
    const PREFIX: &str =
        "INFO [GroupCoordinator id=2 topic=__consumer_offsets partition=5] [GroupId orders-app]";
    let text = format!(
        "[2025-09-01 10:05:12,401] {PREFIX} Member q3kV0cVbQ6iX7m1dYk2nJw joins the consumer group using the consumer protocol. {GMM}\n\
         [2025-09-01 10:05:12,402] {PREFIX} Bumped group epoch to 8 with metadata hash -4322158093185447651. {GMM}\n\
         [2025-09-01 10:05:12,402] {PREFIX} Computed a new target assignment for epoch 8 with 'uniform' assignor in 0ms. {GMM}\n\
         [2025-09-01 10:06:02,410] {PREFIX} Member q3kV0cVbQ6iX7m1dYk2nJw fenced from the group because the member session expired. {GMM}\n\
         [2025-09-01 10:06:02,411] {PREFIX} Bumped group epoch to 9 with metadata hash 11. {GMM}\n"
    );
    let r = fromlog::from_text(&text).unwrap();
    assert!(r.consumer_protocol);
    // The joining member is new: no lead-in; the replay's group starts Empty at epoch 7.
    assert_eq!(r.lead_in_ms, 0);
    assert_eq!(
        r.scenario.preloaded_groups,
        [PreloadedGroup::Consumer(ConsumerGroupSpec {
            group_epoch: 7,
            ..ConsumerGroupSpec::default()
        })]
    );
    assert!(r
        .assumptions
        .iter()
        .any(|a| a.text.starts_with("the log begins with the group at group epoch 7: the replay's group starts as an Empty group at group epoch 7")));
    // So the join is the log's bump to 8, and the fence its bump to 9.
    let check = check::check(&r).unwrap();
    let epochs: Vec<(Option<u64>, &Milestone)> = check.rows.iter().map(|row| (row.sim, &row.what)).collect();
    assert!(
        matches!(
            epochs[..],
            [(Some(_), Milestone::Epoch(8)), (Some(_), Milestone::Epoch(9))]
        ),
        "{}",
        check::render(&r, &check)
    );
    assert!(check.rows[0].note.is_empty(), "{}", check::render(&r, &check));
}

#[test]
fn a_large_formed_group_names_ten_of_its_members() {
    const CC: &str = "(org.apache.kafka.clients.consumer.internals.ConsumerCoordinator)";
    let text: String = (0..20)
        .map(|i| {
            format!("[2024-05-01 10:00:00,{i:03}] INFO [Consumer clientId=c-{i:02}, groupId=big] Successfully synced group in generation Generation{{generationId=50, memberId='c-{i:02}-aaaa', protocol='range'}} {CC}\n")
        })
        .collect();
    let r = fromlog::from_text(&text).unwrap();
    assert_eq!(r.scenario.consumers.len(), 20);
    assert!(r.scenario.consumers.iter().all(|c| c.start_ms == Some(0)));
    let said = r
        .assumptions
        .iter()
        .find(|a| a.text.contains("already formed, at generation 50"))
        .expect("the lead-in is said");
    assert!(
        said.text
            .contains("(c-00, c-01, c-02, c-03, c-04, c-05, c-06, c-07, c-08, c-09 and 10 more)"),
        "{}",
        said.text
    );
}

#[test]
fn a_consumer_group_formed_with_members_before_the_log_is_formed_first_with_them() {
    // Two members the log shows only when their sessions expire, in a group at epoch 11.
    const GMM: &str = "(org.apache.kafka.coordinator.group.GroupMetadataManager)";
    const PREFIX: &str =
        "INFO [GroupCoordinator id=2 topic=__consumer_offsets partition=5] [GroupId orders-app]";
    let text = format!(
        "[2025-09-01 10:05:00,000] {PREFIX} Computed a new target assignment for epoch 11 with 'uniform' assignor in 0ms. {GMM}\n\
         [2025-09-01 10:06:02,410] {PREFIX} Member AAAAAAAAAAAAAAAAAAAAAA fenced from the group because the member session expired. {GMM}\n\
         [2025-09-01 10:06:02,411] {PREFIX} Bumped group epoch to 12 with metadata hash 11. {GMM}\n\
         [2025-09-01 10:06:02,412] {PREFIX} Member BBBBBBBBBBBBBBBBBBBBBB fenced from the group because the member session expired. {GMM}\n\
         [2025-09-01 10:06:02,413] {PREFIX} Bumped group epoch to 13 with metadata hash 11. {GMM}\n"
    );
    let r = fromlog::from_text(&text).unwrap();
    assert!(r.lead_in_ms > 0);
    assert!(r.scenario.consumers.iter().all(|c| c.start_ms == Some(0)));
    let check = check::check(&r).unwrap();
    let report = check::render(&r, &check);
    // The replay's two joins are the epochs before the log's; its fences are the log's 12 and 13.
    for epoch in [12, 13] {
        assert!(
            check
                .rows
                .iter()
                .any(|row| row.log.is_some() && row.sim.is_some() && row.what == Milestone::Epoch(epoch)),
            "{report}"
        );
    }
    assert!(!report.contains("never reaches"), "{report}");
}
