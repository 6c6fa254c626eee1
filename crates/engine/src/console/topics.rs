//! `kafka-topics.sh --list` and `--describe [--topic T]` on the simulated cluster (Kafka:
//! `TopicCommand.TopicDescription` / `PartitionDescription.printDescription`).
//!
//! What the simulation knows: `__consumer_offsets` with its placement, leaders and, for the
//! group's partition, its ISR (the other partitions carry no traffic: their ISR is their live
//! replicas); the scenario's topics with their partition counts. The scenario's topics are placed
//! like `__consumer_offsets` (Kafka's rack-unaware placement from broker 0, with the cluster's
//! replication factor) and led by their first live replica: the simulation replicates none of
//! their records. Topic ids are stable per name ([`super::topic_id`]).

use super::{parse_options, topic_id, Arg, KafkaVersion, Options, Output};
use crate::cluster::place_replicas;
use crate::protocol::NodeId;
use crate::session::Session;

/// `Topic.GROUP_METADATA_TOPIC_NAME`.
pub const OFFSETS_TOPIC: &str = "__consumer_offsets";

/// The configs `__consumer_offsets` is created with (`GroupCoordinator.groupMetadataTopicConfigs`),
/// as `--describe` lists the non-default ones.
const OFFSETS_TOPIC_CONFIGS: &str =
    "compression.type=producer,cleanup.policy=compact,segment.bytes=104857600";

const SPECS: &[(&str, Arg)] = &[
    ("bootstrap-server", Arg::Required),
    ("command-config", Arg::Required),
    ("list", Arg::None),
    ("create", Arg::None),
    ("delete", Arg::None),
    ("alter", Arg::None),
    ("describe", Arg::None),
    ("topic", Arg::Required),
    ("topic-id", Arg::Required),
    ("config", Arg::Required),
    ("delete-config", Arg::Required),
    ("partitions", Arg::Required),
    ("replication-factor", Arg::Required),
    ("replica-assignment", Arg::Required),
    ("under-replicated-partitions", Arg::None),
    ("unavailable-partitions", Arg::None),
    ("under-min-isr-partitions", Arg::None),
    ("at-min-isr-partitions", Arg::None),
    ("topics-with-overrides", Arg::None),
    ("if-exists", Arg::None),
    ("if-not-exists", Arg::None),
    ("exclude-internal", Arg::None),
    ("partition-size-limit-in-response", Arg::Required),
    ("help", Arg::None),
    ("version", Arg::None),
];

/// Runs `kafka-topics.sh` with `args` (the words after the tool's name).
pub fn run(session: &mut Session, args: &[String], version: KafkaVersion) -> Output {
    if args.is_empty() {
        return Output::usage("Create, delete, describe, or change a topic.");
    }
    let opts = match parse_options(SPECS, args) {
        Ok(o) => o,
        // `TopicCommand` parses inside its try: `printException`, on stdout.
        Err(e) => {
            let message = e.split_once(": ").map_or(e.as_str(), |(_, m)| m);
            return Output {
                stdout: format!("Error while executing topic command : {message}\n"),
                stderr: String::new(),
                exit_code: 1,
            };
        }
    };
    if opts.has("help") {
        return Output {
            stderr: "Create, delete, describe, or change a topic.\n".into(),
            ..Output::default()
        };
    }
    if !opts.has("bootstrap-server") {
        return Output::usage("Missing required argument \"[bootstrap-server]\"");
    }
    let actions = ["list", "describe", "create", "alter", "delete"];
    if actions.iter().filter(|a| opts.has(a)).count() != 1 {
        return Output::usage(
            "Command must include exactly one action: --list, --describe, --create, --alter or --delete",
        );
    }
    for o in [
        "create",
        "alter",
        "delete",
        "topic-id",
        "under-replicated-partitions",
        "unavailable-partitions",
        "under-min-isr-partitions",
        "at-min-isr-partitions",
        "topics-with-overrides",
    ] {
        if opts.has(o) {
            return Output::unsupported(&format!("kafka-topics.sh --{o} is not simulated"));
        }
    }
    let topics = match selected(session, &opts) {
        Ok(t) => t,
        Err(out) => return out,
    };
    let mut out = Output::default();
    if opts.has("list") {
        for t in topics {
            out.out(&format!("{t}\n"));
        }
    } else {
        for t in topics {
            describe(session, &t, version, &mut out);
        }
    }
    out
}

/// The topics named by `--topic` (a Java regex matched against whole names, as `IncludeList`
/// does), or all; `--exclude-internal` leaves `__consumer_offsets` out. By name.
fn selected(session: &Session, o: &Options) -> Result<Vec<String>, Output> {
    let mut all: Vec<String> = session
        .sim()
        .topic_registry()
        .iter()
        .map(|t| t.name.clone())
        .collect();
    all.push(OFFSETS_TOPIC.to_owned());
    all.sort();
    let exclude_internal = o.has("exclude-internal");
    let chosen: Vec<String> = match o.value("topic") {
        Some(pattern) => {
            let re = regex_lite::Regex::new(&format!("^(?:{pattern})$")).ok();
            all.into_iter()
                .filter(|t| re.as_ref().map_or(t == pattern, |re| re.is_match(t)))
                .filter(|t| !(exclude_internal && t == OFFSETS_TOPIC))
                .collect()
        }
        None => all
            .into_iter()
            .filter(|t| !(exclude_internal && t == OFFSETS_TOPIC))
            .collect(),
    };
    if let Some(t) = o.value("topic") {
        if chosen.is_empty() && !o.has("if-exists") {
            // `ensureTopicExists`: an IllegalArgumentException, on stderr.
            return Err(Output::usage(&format!("Topic '{t}' does not exist as expected")));
        }
    }
    Ok(chosen)
}

/// One partition: number, leader, replicas, ISR.
type PartitionRow = (i32, Option<NodeId>, Vec<NodeId>, Vec<NodeId>);

fn describe(session: &Session, topic: &str, version: KafkaVersion, out: &mut Output) {
    let cluster = session.sim().cluster();
    let alive = |b: &NodeId| cluster.is_alive(*b);
    let partitions: Vec<PartitionRow> = if topic == OFFSETS_TOPIC {
        (0..cluster.offsets_partitions())
            .map(|p| {
                let replicas = cluster.replicas(p).to_vec();
                let isr = if p == cluster.group_partition() {
                    cluster.isr().to_vec()
                } else {
                    replicas.iter().copied().filter(alive).collect()
                };
                (p, cluster.leader(p), replicas, isr)
            })
            .collect()
    } else {
        let Some(t) = session.sim().topic_registry().get(topic) else {
            return;
        };
        let rf = cluster.config().replication_factor.min(cluster.config().brokers);
        place_replicas(cluster.config().brokers, t.partitions(), rf)
            .into_iter()
            .enumerate()
            .map(|(p, replicas)| {
                let isr: Vec<NodeId> = replicas.iter().copied().filter(alive).collect();
                (p as i32, isr.first().copied(), replicas, isr)
            })
            .collect()
    };
    let rf = partitions.first().map_or(0, |p| p.2.len());
    let configs = if topic == OFFSETS_TOPIC {
        OFFSETS_TOPIC_CONFIGS
    } else {
        ""
    };
    out.out(&format!(
        "Topic: {topic}\tTopicId: {}\tPartitionCount: {}\tReplicationFactor: {rf}\tConfigs: {configs}\n",
        topic_id(topic),
        partitions.len()
    ));
    let ids = |ns: &[NodeId]| ns.iter().map(|n| n.0.to_string()).collect::<Vec<_>>().join(",");
    for (p, leader, replicas, isr) in partitions {
        let leader = leader.map_or("none".to_owned(), |l| l.0.to_string());
        out.out(&format!(
            "\tTopic: {topic}\tPartition: {p}\tLeader: {leader}\tReplicas: {}\tIsr: {}",
            ids(&replicas),
            ids(&isr)
        ));
        // KIP-966's eligible leader replicas: printed by the 4.x tool, N/A while the feature is off.
        if version == KafkaVersion::Kafka4 {
            out.out("\tElr: N/A\tLastKnownElr: N/A");
        }
        out.out("\n");
    }
}
