//! Rack ids in the consumer protocol, rule by rule (reference §4.1 `RackId`, §4.3 validation,
//! §8.4 "changing only ServerAssignor or RackId rewrites the member record without a bump", §11
//! "RackId: only when joining"), and the scenario field `rack_id` as hostile input.
//!
//! Kafka 4.x's server assignors (`UniformHomogeneousAssignmentBuilder`,
//! `UniformHeterogeneousAssignmentBuilder`, `RangeAssignor`) read no rack, so a member's rack
//! changes no assignment: the last test checks that the assignment is the same with and without
//! racks.

mod common;

use rebalance_engine::collections::Map;

use common::sim::{run_to_end, tps};
use common::*;
use rebalance_engine::network::{Endpoint, Payload};
use rebalance_engine::protocol::*;
use rebalance_engine::sim::{NetworkEvent, SimEventKind};
use rebalance_engine::{
    CoordinatorConfig, KafkaRelease, RecordBody, Request, Response, Scenario, Simulation,
};

fn scenario(racks: [Option<&str>; 3]) -> String {
    let consumer = |name: &str, start: u64, rack: Option<&str>| match rack {
        Some(r) => format!(r#"{{"name":"{name}","start_ms":{start},"rack_id":"{r}"}}"#),
        None => format!(r#"{{"name":"{name}","start_ms":{start}}}"#),
    };
    format!(
        r#"{{"version":1,"seed":3,"group_id":"g","end_ms":20000,
            "topics":[{{"name":"t","partitions":4,"records_per_sec":4}}],
            "client_defaults":{{"group_protocol":"consumer","subscription":{{"topics":["t"]}}}},
            "consumers":[{},{},{}],
            "actions":[{{"type":"request","at_ms":15000,"script":"admin","request":{{"ConsumerGroupDescribe":
                {{"group_ids":["g"],"include_authorized_operations":false}}}}}}]}}"#,
        consumer("A", 0, racks[0]),
        consumer("B", 1000, racks[1]),
        consumer("C", 2000, racks[2]),
    )
}

fn run(json: &str) -> Simulation {
    run_to_end(&Scenario::from_json(json).unwrap_or_else(|e| panic!("{e}")))
}

fn heartbeats(sim: &Simulation, who: &str) -> Vec<ConsumerGroupHeartbeatRequest> {
    sim.log()
        .iter()
        .filter_map(|e| match &e.kind {
            SimEventKind::Network {
                event: NetworkEvent::Sent { message },
            } => match (&message.from, &message.payload) {
                (Endpoint::Consumer(c), Payload::Request(Request::ConsumerGroupHeartbeat(r))) if c == who => {
                    Some((**r).clone())
                }
                _ => None,
            },
            _ => None,
        })
        .collect()
}

fn described(sim: &Simulation) -> ConsumerGroupDescribedGroup {
    sim.log()
        .iter()
        .find_map(|e| match &e.kind {
            SimEventKind::Network {
                event: NetworkEvent::Sent { message },
            } => match &message.payload {
                Payload::Response(Response::ConsumerGroupDescribe(r)) => Some(r.groups[0].clone()),
                _ => None,
            },
            _ => None,
        })
        .expect("the scripted ConsumerGroupDescribe was answered")
}

#[test]
fn ref_11_the_client_sends_its_rack_when_joining_only() {
    let sim = run(&scenario([Some("rack-a"), Some("rack-b"), None]));
    for (who, rack) in [("A", Some("rack-a")), ("B", Some("rack-b")), ("C", None)] {
        let hbs = heartbeats(&sim, who);
        assert!(hbs.len() > 2, "{who} kept heartbeating");
        assert_eq!(hbs[0].member_epoch, 0);
        assert_eq!(hbs[0].rack_id.as_deref(), rack, "{who}'s joining heartbeat");
        assert!(
            hbs[1..].iter().all(|h| h.rack_id.is_none()),
            "{who}: later heartbeats leave RackId null (unchanged)"
        );
    }
}

#[test]
fn ref_4_2_consumer_group_describe_shows_each_members_rack() {
    let sim = run(&scenario([Some("rack-a"), Some("rack-b"), None]));
    let g = described(&sim);
    assert_eq!(g.error_code, ErrorCode::None);
    let racks: Map<String, Option<String>> = g
        .members
        .iter()
        .map(|m| (m.client_id.clone(), m.rack_id.clone()))
        .collect();
    assert_eq!(
        racks,
        Map::from([
            ("A".to_string(), Some("rack-a".to_string())),
            ("B".to_string(), Some("rack-b".to_string())),
            ("C".to_string(), None),
        ])
    );
}

#[test]
fn ref_7_3_the_server_assignors_of_kafka_4_ignore_member_racks() {
    let with = run(&scenario([Some("rack-a"), Some("rack-b"), Some("rack-a")]));
    let without = run(&scenario([None, None, None]));
    assert_eq!(with.owners(), without.owners());
    let mut all: Vec<TopicPartition> = with.owners().values().flatten().cloned().collect();
    all.sort();
    assert_eq!(all, tps("t", &[0, 1, 2, 3]), "every partition owned once");
}

#[test]
fn ref_8_4_a_rack_change_alone_rewrites_the_member_without_an_epoch_bump() {
    let mut h = Harness::with_config(CoordinatorConfig {
        kafka_version: KafkaRelease::V4_1,
        ..config()
    });
    h.coord.set_topic_metadata(Map::from([("foo".to_string(), 2)]));
    let beat = |h: &mut Harness, req: ConsumerGroupHeartbeatRequest| {
        let t = h.send(3, Request::ConsumerGroupHeartbeat(Box::new(req)));
        match h.take(t) {
            Some(Response::ConsumerGroupHeartbeat(r)) => r,
            other => panic!("{other:?}"),
        }
    };
    let join = ConsumerGroupHeartbeatRequest {
        group_id: G.into(),
        member_id: "m".into(),
        member_epoch: 0,
        rack_id: Some("r1".into()),
        rebalance_timeout_ms: 30_000,
        subscribed_topic_names: Some(vec!["foo".into()]),
        topic_partitions: Some(vec![]),
        client_id: "m".into(),
        ..Default::default()
    };
    let r = beat(&mut h, join.clone());
    assert_eq!(r.error_code, ErrorCode::None);
    let epoch = r.member_epoch;
    assert_eq!(
        h.describe_consumer_group().members[0].rack_id.as_deref(),
        Some("r1")
    );
    let owned = vec![ConsumerGroupHeartbeatTopicPartitions {
        topic_id: TopicId("foo".into()),
        partitions: vec![0, 1],
    }];
    let next = ConsumerGroupHeartbeatRequest {
        member_epoch: epoch,
        rack_id: Some("r2".into()),
        rebalance_timeout_ms: -1,
        subscribed_topic_names: None,
        topic_partitions: Some(owned),
        ..join.clone()
    };
    let r = beat(&mut h, next);
    assert_eq!((r.error_code, r.member_epoch), (ErrorCode::None, epoch));
    let g = h.describe_consumer_group();
    assert_eq!(g.group_epoch, epoch, "no bump");
    assert_eq!(g.members[0].rack_id.as_deref(), Some("r2"));
    assert!(matches!(
        h.last_record(),
        RecordBody::ConsumerGroupMemberMetadata { value: Some(v), .. } if v.rack_id.as_deref() == Some("r2")
    ));
    // An empty RackId is refused before anything changes (§4.3).
    let empty = ConsumerGroupHeartbeatRequest {
        member_epoch: epoch,
        rack_id: Some(String::new()),
        rebalance_timeout_ms: -1,
        subscribed_topic_names: None,
        ..join
    };
    let r = beat(&mut h, empty);
    assert_eq!(r.error_code, ErrorCode::InvalidRequest);
    assert_eq!(r.error_message.as_deref(), Some("RackId can't be empty."));
}

fn problems(json: &str) -> String {
    Scenario::from_json(json)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default()
}

#[test]
fn the_rack_id_field_is_checked_as_hostile_input() {
    let with = |consumer: &str, defaults: &str| {
        format!(
            r#"{{"version":1,"end_ms":1000,"topics":[{{"name":"t","partitions":1}}],
                "client_defaults":{{"subscription":{{"topics":["t"]}}{defaults}}},
                "consumers":[{consumer}]}}"#
        )
    };
    // Empty: named with its path and why.
    let e = problems(&with(
        r#"{"name":"A","group_protocol":"consumer","rack_id":""}"#,
        "",
    ));
    assert!(e.contains("consumers[0].rack_id"), "{e}");
    assert!(e.contains("empty"), "{e}");
    // Too long: the limit is named.
    let long = "r".repeat(5_000);
    let e = problems(&with(
        &format!(r#"{{"name":"A","group_protocol":"consumer","rack_id":"{long}"}}"#),
        "",
    ));
    assert!(e.contains("consumers[0].rack_id"), "{e}");
    assert!(e.contains("1000"), "the limit: {e}");
    assert!(
        e.len() < 2_000,
        "the value is not echoed whole: {} bytes",
        e.len()
    );
    // Not modelled for the classic protocol.
    let e = problems(&with(r#"{"name":"A","rack_id":"r1"}"#, ""));
    assert!(e.contains("consumers[0].rack_id"), "{e}");
    assert!(e.contains("group_protocol"), "{e}");
    // From client_defaults, blamed there.
    let e = problems(&with(
        r#"{"name":"A","group_protocol":"consumer"}"#,
        r#","rack_id":"""#,
    ));
    assert!(e.contains("client_defaults.rack_id"), "{e}");
    // A good one passes.
    assert_eq!(
        problems(&with(
            r#"{"name":"A","group_protocol":"consumer","rack_id":"eu-west-1a"}"#,
            ""
        )),
        ""
    );
    // Not a string: a parse error naming the field.
    let e = problems(&with(
        r#"{"name":"A","group_protocol":"consumer","rack_id":7}"#,
        "",
    ));
    assert!(!e.is_empty());
}

#[test]
fn client_defaults_rack_applies_to_every_consumer_and_round_trips() {
    let json = r#"{"version":1,"end_ms":3000,"group_id":"g","topics":[{"name":"t","partitions":2}],
        "client_defaults":{"group_protocol":"consumer","subscription":{"topics":["t"]},"rack_id":"az-1"},
        "consumers":[{"name":"A"},{"name":"B","rack_id":"az-2"}]}"#;
    let scenario = Scenario::from_json(json).unwrap();
    let a = scenario.consumer_config(&scenario.consumers[0]);
    let b = scenario.consumer_config(&scenario.consumers[1]);
    assert_eq!(a.client_rack.as_deref(), Some("az-1"));
    assert_eq!(b.client_rack.as_deref(), Some("az-2"));
    // The way back to the file keeps it.
    let spec = rebalance_engine::scenario::ConsumerSpec::from_config(&b);
    assert_eq!(spec.rack_id.as_deref(), Some("az-2"));
    let sim = run(json);
    assert_eq!(heartbeats(&sim, "A")[0].rack_id.as_deref(), Some("az-1"));
}
