//! `kafka-consumer-groups.sh` on the simulated cluster (Kafka: `ConsumerGroupCommand`,
//! `ConsumerGroupCommandOptions`, `GroupOffsetsResetter`).
//!
//! Formats: `kafka-log-lines.md` §6.1 (`--describe`, offsets), §6.2 (`--members [--verbose]`),
//! §6.3 (`--state`), per [`KafkaVersion`]; `--list`, `--delete` and `--reset-offsets` as the 4.x
//! tool prints them (the earlier tools print the same lines). The option checks are the tool's
//! `checkArgs`, in its order, with its messages.

use crate::collections::Map;

use super::{
    ask, broker_address, call, coordinator_of, exception, now, pad, parse_options, Arg, KafkaVersion,
    Options, Output,
};
use crate::protocol::{
    DeleteGroupsRequest, DescribeGroupsRequest, DescribedMember, ErrorCode, GroupState, ListGroupsRequest,
    NodeId, OffsetCommitPartition, OffsetCommitRequest, OffsetFetchRequest, Request, Response,
    TopicPartition, CONSUMER_PROTOCOL_TYPE,
};
use crate::session::Session;

/// The tool's options (`ConsumerGroupCommandOptions`).
const SPECS: &[(&str, Arg)] = &[
    ("bootstrap-server", Arg::Required),
    ("group", Arg::Required),
    ("topic", Arg::Required),
    ("all-topics", Arg::None),
    ("list", Arg::None),
    ("describe", Arg::None),
    ("all-groups", Arg::None),
    ("delete", Arg::None),
    ("timeout", Arg::Required),
    ("command-config", Arg::Required),
    ("reset-offsets", Arg::None),
    ("delete-offsets", Arg::None),
    ("dry-run", Arg::None),
    ("execute", Arg::None),
    ("export", Arg::None),
    ("to-offset", Arg::Required),
    ("from-file", Arg::Required),
    ("to-datetime", Arg::Required),
    ("by-duration", Arg::Required),
    ("to-earliest", Arg::None),
    ("to-latest", Arg::None),
    ("to-current", Arg::None),
    ("shift-by", Arg::Required),
    ("members", Arg::None),
    ("verbose", Arg::None),
    ("offsets", Arg::None),
    ("state", Arg::Optional),
    ("type", Arg::Optional),
    ("validate-regex", Arg::Required),
    ("help", Arg::None),
    ("version", Arg::None),
];

/// The reset scenarios, in the order the tool declares them.
const SCENARIOS: [&str; 8] = [
    "to-offset",
    "shift-by",
    "to-datetime",
    "by-duration",
    "to-earliest",
    "to-latest",
    "to-current",
    "from-file",
];

const TOOL_HELP: &str = "This tool helps to list all consumer groups, describe a consumer group, delete consumer group info, or reset consumer group offsets.";

const NO_EXECUTE_WARNING: &str = "WARN: No action will be performed as the --execute option is missing.In a future major release, the default behavior of this command will be to prompt the user before executing the reset rather than doing a dry run. You should add the --dry-run option explicitly if you are scripting this command and want to keep the current default behavior without prompting.";

/// `"-"`, the tool's `MISSING_COLUMN_VALUE`.
const MISSING: &str = "-";

/// Runs `kafka-consumer-groups.sh` with `args` (the words after the tool's name).
pub fn run(session: &mut Session, args: &[String], version: KafkaVersion) -> Output {
    let opts = match parse_options(SPECS, args) {
        Ok(o) => o,
        // The options are parsed before `main`'s try: joptsimple's exception reaches the JVM.
        Err(e) => return Output::usage(&format!("Exception in thread \"main\" {e}")),
    };
    for (name, arg) in SPECS {
        if *arg == Arg::Required && matches!(*name, "to-offset" | "shift-by" | "timeout") {
            if let Some(v) = opts.value(name) {
                if v.parse::<i64>().is_err() {
                    return Output::usage(&format!(
                        "Exception in thread \"main\" joptsimple.OptionArgumentConversionException: Cannot parse argument '{v}' of option {name}"
                    ));
                }
            }
        }
    }
    if let Err(out) = check_args(&opts, args) {
        return out;
    }
    let mut actions = vec!["list", "describe", "delete", "reset-offsets", "delete-offsets"];
    if version == KafkaVersion::Kafka4 {
        actions.push("validate-regex");
    }
    if actions.iter().filter(|a| opts.has(a)).count() != 1 {
        let list: Vec<String> = actions.iter().map(|a| format!("--{a}")).collect();
        return Output::usage(&format!(
            "Command must include exactly one action: {}",
            list.join(", ")
        ));
    }
    for o in [
        "export",
        "from-file",
        "to-datetime",
        "by-duration",
        "type",
        "validate-regex",
        "delete-offsets",
    ] {
        if opts.has(o) {
            return Output::unsupported(&format!("--{o} is not simulated"));
        }
    }
    let mut out = Output::default();
    if opts.has("list") {
        list(session, &opts, &mut out)
    } else if opts.has("describe") {
        describe(session, &opts, version, &mut out)
    } else if opts.has("delete") {
        delete(session, &opts, &mut out)
    } else {
        reset(session, &opts, &mut out)
    }
    out
}

/// `ConsumerGroupCommandOptions.checkArgs`, in its order.
fn check_args(o: &Options, args: &[String]) -> Result<(), Output> {
    if args.is_empty() {
        return Err(Output::usage(TOOL_HELP));
    }
    if o.has("help") {
        return Err(Output {
            stderr: format!("{TOOL_HELP}\n"),
            ..Output::default()
        });
    }
    if !o.has("bootstrap-server") {
        return Err(Output::usage("Missing required argument \"[bootstrap-server]\""));
    }
    let scope = "[group], [all-groups]";
    if o.has("describe") {
        if !o.has("group") && !o.has("all-groups") {
            return Err(Output::usage(&format!(
                "Option [describe] takes one of these options: {scope}"
            )));
        }
        if ["members", "offsets", "state"]
            .iter()
            .filter(|x| o.has(x))
            .count()
            > 1
        {
            return Err(Output::usage(
                "Option [describe] takes at most one of these options: [members], [offsets], [state]",
            ));
        }
        if o.value("state").is_some() {
            return Err(Output::usage(
                "Option [describe] does not take a value for [state]",
            ));
        }
    }
    if o.has("delete") {
        if !o.has("group") && !o.has("all-groups") {
            return Err(Output::usage(&format!(
                "Option [delete] takes one of these options: {scope}"
            )));
        }
        if o.has("topic") {
            return Err(Output::usage(
                "The consumer does not support topic-specific offset deletion from a consumer group.",
            ));
        }
    }
    if o.has("delete-offsets") && (!o.has("group") || !o.has("topic")) {
        return Err(Output::usage(
            "Option [delete-offsets] takes the following options: [group], [topic]",
        ));
    }
    if o.has("reset-offsets") {
        if o.has("dry-run") && o.has("execute") {
            return Err(Output::usage(
                "Option [reset-offsets] only accepts one of [execute] and [dry-run]",
            ));
        }
        if !o.has("group") && !o.has("all-groups") {
            return Err(Output::usage(&format!(
                "Option [reset-offsets] takes one of these options: {scope}"
            )));
        }
        for a in SCENARIOS {
            if let Some(b) = SCENARIOS.iter().find(|b| **b != a && o.has(b)) {
                if o.has(a) {
                    return Err(Output::usage(&format!(
                        "Option \"[{a}]\" can't be used with option \"[{b}]\""
                    )));
                }
            }
        }
    }
    let invalid = |used: &str, others: &[&str]| -> Result<(), Output> {
        match others.iter().find(|x| o.has(used) && o.has(x)) {
            Some(x) => Err(Output::usage(&format!(
                "Option \"[{used}]\" can't be used with option \"[{x}]\""
            ))),
            None => Ok(()),
        }
    };
    invalid("group", &["all-groups"])?;
    invalid("group", &["list"])?;
    invalid("topic", &["list", "describe"])?;
    // Options only available with others (joptsimple's `availableIf`).
    for (opt, needs) in [
        ("members", &["describe"][..]),
        ("verbose", &["describe"]),
        ("offsets", &["describe"]),
        ("state", &["describe", "list"]),
    ] {
        if o.has(opt) && !needs.iter().any(|n| o.has(n)) {
            return Err(Output::usage(&format!(
                "Exception in thread \"main\" joptsimple.UnavailableOptionException: Option(s) [{opt}] are unavailable given other options on the command line"
            )));
        }
    }
    Ok(())
}

/// `printError`: a blank line, then `Error: ...`, on stdout.
fn print_error(out: &mut Output, msg: &str) {
    out.out(&format!("\nError: {msg}\n"));
}

/// What the run catches: `Executing consumer group command failed due to ...`.
fn failed(out: &mut Output, cause: &str) {
    print_error(
        out,
        &format!("Executing consumer group command failed due to {cause}"),
    );
}

// ===================================================================================== the world

/// A group as the admin client's `describeConsumerGroups` gives it.
struct Group {
    state: GroupState,
    coordinator: NodeId,
    /// The selected assignor (Stable only), or `""`.
    assignor: String,
    members: Vec<DescribedMember>,
}

/// Describes `group_id` through its coordinator. A group on a partition the simulation does not
/// model is a group nobody created (Dead). `Err` is the exception text the tool reports.
fn describe_group(session: &Session, group_id: &str) -> Result<Group, String> {
    let Some(node) = coordinator_of(session, group_id) else {
        return Err(exception(ErrorCode::CoordinatorNotAvailable));
    };
    let request = Request::DescribeGroups(DescribeGroupsRequest {
        group_ids: vec![group_id.to_owned()],
    });
    let Some(Response::DescribeGroups(r)) = ask(session, node, request) else {
        return Err(exception(ErrorCode::CoordinatorNotAvailable));
    };
    let Some(g) = r.groups.into_iter().next() else {
        return Err(exception(ErrorCode::UnknownServerError));
    };
    let modelled = session.sim().cluster().offsets_partitions();
    let modelled =
        crate::coordinator::partition_for(group_id, modelled) == session.sim().cluster().group_partition();
    match g.error_code {
        ErrorCode::None => Ok(Group {
            state: g.group_state,
            coordinator: node,
            assignor: g.protocol_data,
            members: g.members,
        }),
        ErrorCode::NotCoordinator if !modelled => Ok(Group {
            state: GroupState::Dead,
            coordinator: node,
            assignor: String::new(),
            members: Vec::new(),
        }),
        e => Err(exception(e)),
    }
}

/// A group's committed offsets (OffsetFetch of all partitions): partition → (offset, leader epoch).
fn committed(session: &Session, group_id: &str) -> Result<Map<TopicPartition, (i64, i32)>, String> {
    let Some(node) = coordinator_of(session, group_id) else {
        return Err(exception(ErrorCode::CoordinatorNotAvailable));
    };
    let request = Request::OffsetFetch(OffsetFetchRequest {
        group_id: group_id.to_owned(),
        partitions: None,
        require_stable: true,
    });
    match ask(session, node, request) {
        Some(Response::OffsetFetch(r)) if r.error_code.is_none() => Ok(r
            .partitions
            .into_iter()
            .filter(|p| p.committed_offset >= 0)
            .map(|p| {
                (
                    TopicPartition::new(p.topic, p.partition),
                    (p.committed_offset, p.committed_leader_epoch),
                )
            })
            .collect()),
        // A group the simulation does not model has no offsets.
        Some(Response::OffsetFetch(r)) if r.error_code == ErrorCode::NotCoordinator => Ok(Map::new()),
        Some(Response::OffsetFetch(r)) => Err(exception(r.error_code)),
        _ => Err(exception(ErrorCode::CoordinatorNotAvailable)),
    }
}

/// The consumer groups of the cluster: ListGroups on every live broker, merged (the admin client's
/// `listGroups` for consumer groups: protocol type `consumer` or empty), by group id.
fn listed_groups(session: &Session, states: &[String]) -> Result<Vec<(String, GroupState)>, String> {
    let mut groups = Map::new();
    for node in session.sim().cluster().broker_ids() {
        let request = Request::ListGroups(ListGroupsRequest {
            states_filter: states.to_vec(),
        });
        match ask(session, node, request) {
            Some(Response::ListGroups(r)) if r.error_code.is_none() => {
                for g in r.groups {
                    if g.protocol_type == CONSUMER_PROTOCOL_TYPE || g.protocol_type.is_empty() {
                        groups.insert(g.group_id, g.group_state);
                    }
                }
            }
            Some(Response::ListGroups(r)) => return Err(exception(r.error_code)),
            // A broker that is down is not asked (the admin client lists the live brokers).
            _ => {}
        }
    }
    Ok(groups.into_iter().collect())
}

/// The groups a command acts on: `--group`s, or every group with `--all-groups`.
fn group_ids(session: &Session, o: &Options, out: &mut Output) -> Option<Vec<String>> {
    if o.has("all-groups") {
        match listed_groups(session, &[]) {
            Ok(g) => Some(g.into_iter().map(|(id, _)| id).collect()),
            Err(e) => {
                failed(out, &e);
                None
            }
        }
    } else {
        Some(o.values("group"))
    }
}

// ======================================================================================== --list

fn list(session: &Session, o: &Options, out: &mut Output) {
    if !o.has("state") {
        match listed_groups(session, &[]) {
            Ok(groups) => {
                for (id, _) in groups {
                    out.out(&format!("{id}\n"));
                }
            }
            Err(e) => failed(out, &e),
        }
        return;
    }
    let valid = [
        GroupState::PreparingRebalance,
        GroupState::CompletingRebalance,
        GroupState::Stable,
        GroupState::Dead,
        GroupState::Empty,
    ];
    let states: Vec<String> = match o.value("state") {
        None | Some("") => Vec::new(),
        Some(list) => {
            let parsed: Vec<&str> = list.split(',').map(str::trim).collect();
            if !parsed
                .iter()
                .all(|s| valid.iter().any(|v| v.name().eq_ignore_ascii_case(s)))
            {
                let names: Vec<&str> = valid.iter().map(|v| v.name()).collect();
                *out = Output::usage(&format!(
                    "Invalid state list '{list}'. Valid states are: {}",
                    names.join(", ")
                ));
                return;
            }
            parsed.iter().map(|s| s.to_string()).collect()
        }
    };
    match listed_groups(session, &states) {
        Ok(groups) => {
            let width = groups.iter().map(|(g, _)| g.len().max(15)).max().unwrap_or(15) + 10;
            out.out(&format!("{} {}\n", pad("GROUP", width), pad("STATE", 20)));
            for (id, state) in groups {
                out.out(&format!("{} {}\n", pad(&id, width), pad(state.name(), 20)));
            }
        }
        Err(e) => failed(out, &e),
    }
}

// ==================================================================================== --describe

/// `shouldPrintMemberState`: the state's warning (or the does-not-exist error), and whether there
/// are rows to print.
fn should_print(out: &mut Output, group: &str, state: GroupState, rows: usize) -> bool {
    match state {
        GroupState::Dead => print_error(out, &format!("Consumer group '{group}' does not exist.")),
        GroupState::Empty => out.err(&format!("\nConsumer group '{group}' has no active members.\n")),
        GroupState::PreparingRebalance | GroupState::CompletingRebalance => {
            out.err(&format!("\nWarning: Consumer group '{group}' is rebalancing.\n"))
        }
        GroupState::Stable => {}
    }
    state != GroupState::Dead && rows > 0
}

fn describe(session: &Session, o: &Options, version: KafkaVersion, out: &mut Output) {
    let Some(mut ids) = group_ids(session, o, out) else {
        return;
    };
    // The tool collects the groups in a TreeMap.
    ids.sort();
    ids.dedup();
    let verbose = o.has("verbose");
    for id in ids {
        let group = match describe_group(session, &id) {
            Ok(g) => g,
            Err(e) => {
                failed(out, &e);
                return;
            }
        };
        if o.has("members") {
            members(out, &id, &group, verbose, version);
        } else if o.has("state") {
            state(out, &id, &group, verbose, version);
        } else {
            match committed(session, &id) {
                Ok(c) => offsets(
                    session,
                    out,
                    &id,
                    &group,
                    &c,
                    verbose && version == KafkaVersion::Kafka4,
                ),
                Err(e) => {
                    failed(out, &e);
                    return;
                }
            }
        }
    }
}

/// One row of the offsets view.
struct OffsetRow {
    topic: String,
    partition: i32,
    leader_epoch: Option<i32>,
    offset: Option<i64>,
    log_end: Option<i64>,
    consumer: String,
    host: String,
    client: String,
}

fn offsets(
    session: &Session,
    out: &mut Output,
    group_id: &str,
    group: &Group,
    committed: &Map<TopicPartition, (i64, i32)>,
    verbose: bool,
) {
    let topics = session.sim().topic_registry();
    let at = now(session);
    let row = |tp: &TopicPartition, consumer: &str, host: &str, client: &str| {
        let c = committed.get(tp);
        OffsetRow {
            topic: tp.topic.clone(),
            partition: tp.partition,
            leader_epoch: c.map(|(_, e)| *e).filter(|e| *e >= 0),
            offset: c.map(|(o, _)| *o),
            log_end: topics.log_end_offset(tp, at),
            consumer: consumer.to_owned(),
            host: host.to_owned(),
            client: client.to_owned(),
        }
    };
    // Members with partitions, the most partitions first (a stable sort keeps describe order),
    // each member's partitions by topic and number; then committed partitions nobody owns.
    let mut owners: Vec<&DescribedMember> = group
        .members
        .iter()
        .filter(|m| !m.assignment.partitions.is_empty())
        .collect();
    owners.sort_by_key(|m| std::cmp::Reverse(m.assignment.partitions.len()));
    let mut rows = Vec::new();
    let mut owned = Vec::new();
    for m in owners {
        let mut tps = m.assignment.partitions.clone();
        tps.sort();
        for tp in &tps {
            rows.push(row(tp, &m.member_id, &m.client_host, &m.client_id));
        }
        owned.extend(tps);
    }
    for tp in committed.keys().filter(|tp| !owned.contains(tp)) {
        rows.push(row(tp, MISSING, MISSING, MISSING));
    }
    if !should_print(out, group_id, group.state, rows.len()) {
        return;
    }
    let w = |f: &dyn Fn(&OffsetRow) -> usize, base: usize| rows.iter().map(f).fold(base, usize::max);
    let (wg, wt) = (group_id.len().max(15), w(&|r| r.topic.len(), 15));
    let (wc, wh) = (w(&|r| r.consumer.len(), 15), w(&|r| r.host.len(), 15));
    let line = |cols: [&str; 9], epoch: Option<&str>| {
        let mut s = format!(
            "\n{} {} {} ",
            pad(cols[0], wg),
            pad(cols[1], wt),
            pad(cols[2], 10)
        );
        if let Some(e) = epoch {
            s.push_str(&format!("{} ", pad(e, 15)));
        }
        s.push_str(&format!(
            "{} {} {} {} {} {}",
            pad(cols[3], 15),
            pad(cols[4], 15),
            pad(cols[5], 15),
            pad(cols[6], wc),
            pad(cols[7], wh),
            cols[8]
        ));
        s
    };
    out.out(&line(
        [
            "GROUP",
            "TOPIC",
            "PARTITION",
            "CURRENT-OFFSET",
            "LOG-END-OFFSET",
            "LAG",
            "CONSUMER-ID",
            "HOST",
            "CLIENT-ID",
        ],
        verbose.then_some("LEADER-EPOCH"),
    ));
    let show = |v: Option<i64>| v.map_or(MISSING.to_owned(), |v| v.to_string());
    for r in &rows {
        let lag = r
            .offset
            .filter(|o| *o != -1)
            .and_then(|o| r.log_end.map(|e| e - o));
        let epoch = r.leader_epoch.map_or(MISSING.to_owned(), |e| e.to_string());
        out.out(&line(
            [
                group_id,
                &r.topic,
                &r.partition.to_string(),
                &show(r.offset),
                &show(r.log_end),
                &show(lag),
                &r.consumer,
                &r.host,
                &r.client,
            ],
            verbose.then_some(epoch.as_str()),
        ));
    }
    out.out("\n");
}

/// A member's assignment in the verbose members view, as each version writes it.
fn assignment_text(partitions: &[TopicPartition], version: KafkaVersion) -> String {
    if partitions.is_empty() {
        return MISSING.to_owned();
    }
    let mut by_topic: Map<&str, Vec<i32>> = Map::new();
    for tp in partitions {
        by_topic.entry(tp.topic.as_str()).or_default().push(tp.partition);
    }
    for ps in by_topic.values_mut() {
        ps.sort_unstable();
    }
    let joined = |ps: &[i32], sep: &str| ps.iter().map(i32::to_string).collect::<Vec<_>>().join(sep);
    match version {
        // `orders(0,1), payments(3)`.
        KafkaVersion::Scala => by_topic
            .iter()
            .map(|(t, ps)| format!("{t}({})", joined(ps, ",")))
            .collect::<Vec<_>>()
            .join(", "),
        // `(0,1), (3)`: the topic names are lost and the groups sorted as strings (3.8-3.9).
        KafkaVersion::Java3 => {
            let mut groups: Vec<String> = by_topic
                .values()
                .map(|ps| {
                    let mut s: Vec<String> = ps.iter().map(i32::to_string).collect();
                    s.sort();
                    format!("({})", s.join(","))
                })
                .collect();
            groups.sort();
            groups.join(", ")
        }
        // `orders:0,1;payments:3`.
        KafkaVersion::Kafka4 => by_topic
            .iter()
            .map(|(t, ps)| format!("{t}:{}", joined(ps, ",")))
            .collect::<Vec<_>>()
            .join(";"),
    }
}

fn members(out: &mut Output, group_id: &str, group: &Group, verbose: bool, version: KafkaVersion) {
    let m = &group.members;
    let print = should_print(out, group_id, group.state, m.len());
    // The Scala tool prints nothing more for a group without rows; the Java tools print the header.
    if !print && version == KafkaVersion::Scala {
        return;
    }
    let rows: &[DescribedMember] = if print { m } else { &[] };
    let w = |f: &dyn Fn(&DescribedMember) -> usize, base: usize| rows.iter().map(f).fold(base, usize::max);
    let wg = if print { group_id.len().max(15) } else { 15 };
    let wc = w(&|m| m.member_id.len(), 15);
    let wi = w(&|m| m.group_instance_id.as_deref().map_or(0, str::len), 17);
    let wh = w(&|m| m.client_host.len(), 15);
    let wl = w(&|m| m.client_id.len(), 15);
    let with_instance = rows
        .iter()
        .any(|m| m.group_instance_id.as_deref().is_some_and(|i| !i.is_empty()));
    let cur: Vec<String> = rows
        .iter()
        .map(|m| assignment_text(&m.assignment.partitions, version))
        .collect();
    let wcur = cur.iter().map(String::len).fold(20, usize::max);
    let wtgt = 20;
    let head = |g: &str, c: &str, i: &str, h: &str, l: &str, n: &str| {
        let mut s = format!("{} {} ", pad(g, wg), pad(c, wc));
        if with_instance {
            s.push_str(&format!("{} ", pad(i, wi)));
        }
        s.push_str(&format!("{} {} {} ", pad(h, wh), pad(l, wl), pad(n, 15)));
        s
    };
    out.out("\n");
    out.out(&head(
        "GROUP",
        "CONSUMER-ID",
        "GROUP-INSTANCE-ID",
        "HOST",
        "CLIENT-ID",
        "#PARTITIONS",
    ));
    if verbose {
        match version {
            KafkaVersion::Kafka4 => out.out(&format!(
                "{} {} {} {}",
                pad("CURRENT-EPOCH", 15),
                pad("CURRENT-ASSIGNMENT", wcur),
                pad("TARGET-EPOCH", 15),
                pad("TARGET-ASSIGNMENT", wtgt)
            )),
            _ => out.out("ASSIGNMENT"),
        }
    }
    out.out("\n");
    for (i, mem) in rows.iter().enumerate() {
        out.out(&head(
            group_id,
            &mem.member_id,
            mem.group_instance_id.as_deref().unwrap_or(""),
            &mem.client_host,
            &mem.client_id,
            &mem.assignment.partitions.len().to_string(),
        ));
        if verbose {
            match version {
                // A classic group has no epochs and no target assignment.
                KafkaVersion::Kafka4 => out.out(&format!(
                    "{} {} {} {}",
                    pad(MISSING, 15),
                    pad(&cur[i], wcur),
                    pad(MISSING, 15),
                    pad(MISSING, wtgt)
                )),
                _ => out.out(&cur[i]),
            }
        }
        out.out("\n");
    }
}

fn state(out: &mut Output, group_id: &str, group: &Group, verbose: bool, version: KafkaVersion) {
    if !should_print(out, group_id, group.state, 1) {
        return;
    }
    let node = group.coordinator;
    let coordinator = match version {
        KafkaVersion::Scala => format!("{} ({})", broker_address(node), node.0),
        _ => format!("{}  ({})", broker_address(node), node.0),
    };
    let wco = coordinator.len().max(25);
    let assignor = if group.assignor.is_empty() {
        MISSING
    } else {
        group.assignor.as_str()
    };
    let members = group.members.len().to_string();
    match version {
        KafkaVersion::Kafka4 => {
            let wg = group_id.len().max(15);
            let line = |cols: &[&str]| {
                let mut s = format!(
                    "\n{} {} {} {} ",
                    pad(cols[0], wg),
                    pad(cols[1], wco),
                    pad(cols[2], 20),
                    pad(cols[3], 20)
                );
                if verbose {
                    s.push_str(&format!("{} {} ", pad(cols[4], 15), pad(cols[5], 25)));
                }
                s.push_str(cols[6]);
                s
            };
            out.out(&line(&[
                "GROUP",
                "COORDINATOR (ID)",
                "ASSIGNMENT-STRATEGY",
                "STATE",
                "GROUP-EPOCH",
                "TARGET-ASSIGNMENT-EPOCH",
                "#MEMBERS",
            ]));
            out.out(&line(&[
                group_id,
                &coordinator,
                assignor,
                group.state.name(),
                MISSING,
                MISSING,
                &members,
            ]));
        }
        // The GROUP column is padded to the coordinator column's width, the coordinator to 25.
        _ => {
            let line = |cols: [&str; 5]| {
                format!(
                    "\n{} {} {} {} {}",
                    pad(cols[0], wco),
                    pad(cols[1], 25),
                    pad(cols[2], 20),
                    pad(cols[3], 15),
                    cols[4]
                )
            };
            out.out(&line([
                "GROUP",
                "COORDINATOR (ID)",
                "ASSIGNMENT-STRATEGY",
                "STATE",
                "#MEMBERS",
            ]));
            out.out(&line([
                group_id,
                &coordinator,
                assignor,
                group.state.name(),
                &members,
            ]));
        }
    }
    out.out("\n");
}

// ====================================================================================== --delete

fn delete(session: &mut Session, o: &Options, out: &mut Output) {
    let Some(ids) = group_ids(session, o, out) else {
        return;
    };
    let mut succeeded = Vec::new();
    let mut failures = Vec::new();
    for id in &ids {
        let request = Request::DeleteGroups(DeleteGroupsRequest {
            group_ids: vec![id.clone()],
        });
        let error = match super::call(session, request) {
            Some(Response::DeleteGroups(r)) => r
                .results
                .first()
                .map_or(ErrorCode::UnknownServerError, |g| g.error_code),
            _ => ErrorCode::CoordinatorNotAvailable,
        };
        // A group on a partition the simulation does not model does not exist.
        let error = match error {
            ErrorCode::NotCoordinator if !modelled(session, id) => ErrorCode::GroupIdNotFound,
            e => e,
        };
        if error.is_none() {
            succeeded.push(format!("'{id}'"));
        } else {
            failures.push((id.clone(), error));
        }
    }
    if failures.is_empty() {
        out.out(&format!(
            "Deletion of requested consumer groups ({}) was successful.\n",
            succeeded.join(", ")
        ));
        return;
    }
    print_error(out, "Deletion of some consumer groups failed:");
    for (id, e) in failures {
        out.out(&format!(
            "* Group '{id}' could not be deleted due to: {}\n",
            exception(e)
        ));
    }
    if !succeeded.is_empty() {
        out.out(&format!(
            "\nThese consumer groups were deleted successfully: {}\n",
            succeeded.join(", ")
        ));
    }
}

/// Whether the simulation serves the `__consumer_offsets` partition of `group_id`.
fn modelled(session: &Session, group_id: &str) -> bool {
    let cluster = session.sim().cluster();
    crate::coordinator::partition_for(group_id, cluster.offsets_partitions()) == cluster.group_partition()
}

// =============================================================================== --reset-offsets

fn reset(session: &mut Session, o: &Options, out: &mut Output) {
    let execute = o.has("execute");
    if !execute && !o.has("dry-run") {
        out.err(&format!("{NO_EXECUTE_WARNING}\n"));
    }
    let Some(mut ids) = group_ids(session, o, out) else {
        return;
    };
    ids.sort();
    ids.dedup();
    let mut plan: Map<String, Map<TopicPartition, i64>> = Map::new();
    for id in ids {
        let group = match describe_group(session, &id) {
            Ok(g) => g,
            Err(e) => return failed(out, &e),
        };
        if !matches!(group.state, GroupState::Empty | GroupState::Dead) {
            print_error(
                out,
                &format!(
                    "Assignments can only be reset if the group '{id}' is inactive, but the current state is {}.",
                    group.state.name()
                ),
            );
            plan.insert(id, Map::new());
            continue;
        }
        let current = match committed(session, &id) {
            Ok(c) => c,
            Err(e) => return failed(out, &e),
        };
        let partitions = match partitions_to_reset(session, o, &current) {
            Ok(p) => p,
            Err(stop) => {
                *out = match stop {
                    Stop::Usage(m) => Output::usage(&m),
                    Stop::Failed(e) => {
                        let mut o = std::mem::take(out);
                        failed(&mut o, &e);
                        o
                    }
                };
                return;
            }
        };
        let offsets = match new_offsets(session, o, &partitions, &current) {
            Ok(x) => x,
            Err(m) => {
                *out = Output::usage(&m);
                return;
            }
        };
        if execute {
            let request = Request::OffsetCommit(OffsetCommitRequest {
                group_id: id.clone(),
                partitions: offsets
                    .iter()
                    .map(|(tp, off)| OffsetCommitPartition {
                        topic: tp.topic.clone(),
                        partition: tp.partition,
                        committed_offset: *off,
                        committed_leader_epoch: -1,
                        committed_metadata: String::new(),
                    })
                    .collect(),
                ..OffsetCommitRequest::default()
            });
            match call(session, request) {
                Some(Response::OffsetCommit(r)) => {
                    if let Some(e) = r.partitions.iter().map(|p| p.error_code).find(|e| !e.is_none()) {
                        // The KafkaException itself reaches the run's catch: its message only.
                        let text = exception(e);
                        let message = text.split_once(": ").map_or(text.as_str(), |(_, m)| m);
                        return failed(out, message);
                    }
                }
                _ => {
                    return failed(
                        out,
                        "org.apache.kafka.common.errors.TimeoutException: Timed out waiting for a response.",
                    )
                }
            }
        }
        plan.insert(id, offsets);
    }
    // `printOffsetsToReset`: the header once some group was handled, then every row.
    let wg = plan.keys().map(String::len).fold(15, usize::max);
    let wt = plan
        .values()
        .flat_map(|m| m.keys())
        .map(|tp| tp.topic.len())
        .fold(15, usize::max);
    if !plan.is_empty() {
        out.out(&format!(
            "\n{} {} {} NEW-OFFSET",
            pad("GROUP", wg),
            pad("TOPIC", wt),
            pad("PARTITION", 10)
        ));
    }
    for (group, offsets) in &plan {
        for (tp, off) in offsets {
            out.out(&format!(
                "\n{} {} {} {off}",
                pad(group, wg),
                pad(&tp.topic, wt),
                pad(&tp.partition.to_string(), 10)
            ));
        }
    }
    out.out("\n");
}

enum Stop {
    Usage(String),
    Failed(String),
}

/// The reset's scope: `--all-topics` (the committed partitions) or `--topic t` / `--topic t:0,1`.
fn partitions_to_reset(
    session: &Session,
    o: &Options,
    current: &Map<TopicPartition, (i64, i32)>,
) -> Result<Vec<TopicPartition>, Stop> {
    if o.has("all-topics") {
        return Ok(current.keys().cloned().collect());
    }
    if !o.has("topic") {
        return Err(Stop::Usage(
            "One of the reset scopes should be defined: --all-topics, --topic.".into(),
        ));
    }
    let topics = session.sim().topic_registry();
    let mut out = Vec::new();
    for arg in o.values("topic") {
        if arg.contains(':') {
            let parts: Vec<&str> = arg.split(':').collect();
            if parts.len() != 2 {
                return Err(Stop::Usage(format!(
                    "Invalid topic arg '{arg}', expected topic name and partitions"
                )));
            }
            for p in parts[1].split(',') {
                let n = p.parse::<i32>().map_err(|_| {
                    Stop::Usage(format!("Invalid partition '{p}' specified in topic arg '{arg}''"))
                })?;
                out.push(TopicPartition::new(parts[0], n));
            }
        } else {
            let Some(t) = topics.get(&arg) else {
                return Err(Stop::Failed(exception(ErrorCode::UnknownTopicOrPartition)));
            };
            out.extend((0..t.partitions()).map(|p| TopicPartition::new(arg.clone(), p)));
        }
    }
    Ok(out)
}

/// The new offsets of the scenario given (`--to-earliest`, `--to-latest`, `--to-offset`,
/// `--to-current`, `--shift-by`), clamped to the log as `checkOffsetsRange` does. `Err` is the
/// usage message.
fn new_offsets(
    session: &Session,
    o: &Options,
    partitions: &[TopicPartition],
    current: &Map<TopicPartition, (i64, i32)>,
) -> Result<Map<TopicPartition, i64>, String> {
    let topics = session.sim().topic_registry();
    let at = now(session);
    // The topics keep every record: the earliest offset is 0.
    let end = |tp: &TopicPartition, what: &str| {
        topics
            .log_end_offset(tp, at)
            .ok_or_else(|| format!("Error getting {what} offset of topic partition: {tp}"))
    };
    let clamp = |tp: &TopicPartition, off: i64| end(tp, "ending").map(|e| off.clamp(0, e));
    let number = |name: &str| o.value(name).and_then(|v| v.parse::<i64>().ok()).unwrap_or(0);
    let mut out = Map::new();
    for tp in partitions {
        let off = if o.has("to-earliest") {
            end(tp, "starting").map(|_| 0)?
        } else if o.has("to-latest") {
            end(tp, "ending")?
        } else if o.has("to-offset") {
            clamp(tp, number("to-offset"))?
        } else if o.has("shift-by") {
            let Some((c, _)) = current.get(tp) else {
                return Err(format!(
                    "Cannot shift offset for partition {tp} since there is no current committed offset"
                ));
            };
            clamp(tp, c + number("shift-by"))?
        } else if o.has("to-current") {
            match current.get(tp) {
                Some((c, _)) => *c,
                None => end(tp, "ending")?,
            }
        } else {
            let list: Vec<String> = SCENARIOS.iter().map(|s| format!("[{s}]")).collect();
            return Err(format!(
                "Option '[reset-offsets]' requires one of the following scenarios: [{}]",
                list.join(", ")
            ));
        };
        out.insert(tp.clone(), off);
    }
    Ok(out)
}
