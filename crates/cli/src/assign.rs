//! `rebalance-sim assign --strategy NAME`: runs an assignor on JSON lines.
//!
//! `NAME` is one of the classic protocol's client-side assignors (`range`, `roundrobin`, `sticky`,
//! `cooperative-sticky`) or one of the consumer protocol's server-side assignors (KIP-848): `uniform`
//! or `server-range` (Kafka calls the latter `range` too). For the server-side ones a member's
//! `owned_partitions` is its previous *target* assignment, the baseline of `uniform`'s stickiness;
//! `generation` is not used.
//!
//! Each non-blank line of stdin is one group:
//! `{"partitions": {"topic": 3}, "members": [{"member_id": "c-1", "group_instance_id": null,
//! "topics": ["topic"], "owned_partitions": {"topic": [0]}, "generation": 1}]}`
//! (`group_instance_id`, `owned_partitions` and `generation` may be left out). Each gets one line
//! on stdout: `{"assignment": {"c-1": {"topic": [0, 1, 2]}}}`, every member present.
//!
//! Input is validated by hand from a `serde_json::Value` rather than derived, so that an error can
//! name the exact field (`members[1].owned_partitions.orders[0]`) and the line it is on. The first
//! bad line stops the run with exit code 2; lines before it have already been answered.

use rebalance_engine::collections::Map as SortedMap;
use rebalance_engine::collections::Set;
use std::io::{self, BufRead, BufWriter, Write};
use std::process::ExitCode;

use rebalance_engine::assignor::server::{self, MemberSpec, ServerAssignor};
use rebalance_engine::assignor::{assign, Assignment, MemberSubscription, Strategy};
use serde::Serialize;
use serde_json::{Map, Value};

const USAGE: &str =
    "usage: rebalance-sim assign --strategy range|roundrobin|sticky|cooperative-sticky|uniform|server-range";

/// An assignor the command can run.
#[derive(Clone, Copy)]
enum Assignor {
    /// A classic protocol's client-side assignor.
    Client(Strategy),
    /// A consumer protocol's server-side assignor.
    Server(ServerAssignor),
}

impl Assignor {
    fn parse(name: &str) -> Result<Self, String> {
        match name {
            "uniform" => Ok(Self::Server(ServerAssignor::Uniform)),
            "server-range" => Ok(Self::Server(ServerAssignor::Range)),
            _ => name.parse::<Strategy>().map(Self::Client).map_err(|_| {
                format!(
                    "unknown assignor `{name}` (expected range, roundrobin, sticky, cooperative-sticky, uniform \
                     or server-range)"
                )
            }),
        }
    }

    fn run(self, partitions: &SortedMap<String, i32>, members: &[MemberSubscription]) -> Assignment {
        match self {
            Self::Client(strategy) => assign(strategy, partitions, members),
            Self::Server(assignor) => {
                let specs: Vec<MemberSpec> = members.iter().map(member_spec).collect();
                server::assign(assignor, partitions, &specs)
                    .into_iter()
                    .map(|(member, topics)| {
                        let topics = topics
                            .into_iter()
                            .map(|(topic, set)| (topic, set.into_iter().collect()))
                            .collect();
                        (member, topics)
                    })
                    .collect()
            }
        }
    }
}

/// A member of the input line as the coordinator sees it: its owned partitions are its previous
/// target.
fn member_spec(m: &MemberSubscription) -> MemberSpec {
    MemberSpec {
        member_id: m.member_id.clone(),
        instance_id: m.group_instance_id.clone(),
        subscribed_topics: m.topics.clone(),
        target: m
            .owned_partitions
            .iter()
            .map(|(topic, partitions)| (topic.clone(), partitions.iter().copied().collect()))
            .collect(),
    }
}

/// The most partitions one line may ask for: every one is listed in the output, and a typo such
/// as `2000000000` should be an error, not an out-of-memory abort.
const MAX_TOTAL_PARTITIONS: i64 = 1_000_000;

pub(crate) fn run(args: &[String]) -> ExitCode {
    let strategy = match parse_args(args) {
        Ok(strategy) => strategy,
        Err(message) => {
            eprintln!("rebalance-sim assign: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let stdin = io::stdin().lock();
    let mut stdout = BufWriter::new(io::stdout().lock());
    for (index, line) in stdin.lines().enumerate() {
        let number = index + 1;
        let line = match line {
            Ok(line) => line,
            Err(error) => {
                eprintln!("rebalance-sim assign: line {number}: cannot read stdin: {error}");
                return ExitCode::from(2);
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        let (partitions, members) = match parse_line(&line) {
            Ok(input) => input,
            Err(message) => {
                // Answers already written stay valid; flush them before reporting.
                let _ = stdout.flush();
                eprintln!("rebalance-sim assign: line {number}: {message}");
                return ExitCode::from(2);
            }
        };
        let output = Output {
            assignment: strategy.run(&partitions, &members),
        };
        let written = serde_json::to_writer(&mut stdout, &output)
            .map_err(io::Error::from)
            .and_then(|()| stdout.write_all(b"\n"));
        if let Err(error) = written {
            eprintln!("rebalance-sim assign: cannot write stdout: {error}");
            return ExitCode::from(1);
        }
    }
    if let Err(error) = stdout.flush() {
        eprintln!("rebalance-sim assign: cannot write stdout: {error}");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

#[derive(Serialize)]
struct Output {
    assignment: Assignment,
}

fn parse_args(args: &[String]) -> Result<Assignor, String> {
    let mut strategy = None;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let value = match arg.as_str() {
            "--strategy" => rest.next().ok_or("--strategy needs a value")?.as_str(),
            other => match other.strip_prefix("--strategy=") {
                Some(value) => value,
                None => return Err(format!("unexpected argument `{other}`")),
            },
        };
        if strategy.is_some() {
            return Err("--strategy given twice".to_string());
        }
        strategy = Some(Assignor::parse(value).map_err(|e| format!("--strategy: {e}"))?);
    }
    strategy.ok_or_else(|| "missing --strategy".to_string())
}

type Input = (SortedMap<String, i32>, Vec<MemberSubscription>);

fn parse_line(line: &str) -> Result<Input, String> {
    let value: Value = serde_json::from_str(line).map_err(|e| format!("invalid JSON: {e}"))?;
    let object = as_object(&value, "the line")?;
    check_fields(object, "", &["partitions", "members"])?;

    let partitions_value = required(object, "", "partitions")?;
    let mut partitions = SortedMap::new();
    let mut total: i64 = 0;
    for (topic, count) in as_object(partitions_value, "partitions")? {
        let path = format!("partitions.{topic}");
        let count = as_i32(count, &path)?;
        if count < 0 {
            return Err(format!(
                "{path}: partition count must not be negative, got {count}"
            ));
        }
        total += i64::from(count);
        if total > MAX_TOTAL_PARTITIONS {
            return Err(format!(
                "{path}: more than {MAX_TOTAL_PARTITIONS} partitions in total"
            ));
        }
        partitions.insert(topic.clone(), count);
    }

    let members_value = required(object, "", "members")?;
    let Value::Array(list) = members_value else {
        return Err(format!("members: expected an array, got {}", kind(members_value)));
    };
    let mut seen = Set::new();
    let mut members = Vec::with_capacity(list.len());
    for (i, member) in list.iter().enumerate() {
        let parsed = parse_member(member, &format!("members[{i}]"))?;
        if !seen.insert(parsed.member_id.clone()) {
            return Err(format!(
                "members[{i}].member_id: duplicate member id `{}`",
                parsed.member_id
            ));
        }
        members.push(parsed);
    }
    Ok((partitions, members))
}

fn parse_member(value: &Value, path: &str) -> Result<MemberSubscription, String> {
    let object = as_object(value, path)?;
    check_fields(
        object,
        path,
        &[
            "member_id",
            "group_instance_id",
            "topics",
            "owned_partitions",
            "generation",
        ],
    )?;
    let member_id = as_str(required(object, path, "member_id")?, &format!("{path}.member_id"))?.to_string();
    let group_instance_id = match object.get("group_instance_id") {
        None | Some(Value::Null) => None,
        Some(v) => Some(as_str(v, &format!("{path}.group_instance_id"))?.to_string()),
    };
    let topics_path = format!("{path}.topics");
    let Value::Array(topic_list) = required(object, path, "topics")? else {
        return Err(format!("{topics_path}: expected an array of topic names"));
    };
    let topics = topic_list
        .iter()
        .enumerate()
        .map(|(i, t)| as_str(t, &format!("{topics_path}[{i}]")).map(str::to_string))
        .collect::<Result<Vec<_>, _>>()?;
    let mut owned_partitions = SortedMap::new();
    if let Some(owned) = object.get("owned_partitions").filter(|v| !v.is_null()) {
        let owned_path = format!("{path}.owned_partitions");
        for (topic, list) in as_object(owned, &owned_path)? {
            let list_path = format!("{owned_path}.{topic}");
            let Value::Array(list) = list else {
                return Err(format!(
                    "{list_path}: expected an array of partition numbers, got {}",
                    kind(list)
                ));
            };
            let mut numbers = Vec::with_capacity(list.len());
            for (i, p) in list.iter().enumerate() {
                let p_path = format!("{list_path}[{i}]");
                let p = as_i32(p, &p_path)?;
                if p < 0 {
                    return Err(format!("{p_path}: partition numbers are never negative, got {p}"));
                }
                numbers.push(p);
            }
            owned_partitions.insert(topic.clone(), numbers);
        }
    }
    let generation = match object.get("generation") {
        None | Some(Value::Null) => None,
        Some(v) => Some(as_i32(v, &format!("{path}.generation"))?),
    };
    Ok(MemberSubscription {
        member_id,
        group_instance_id,
        topics,
        owned_partitions,
        generation,
    })
}

fn check_fields(object: &Map<String, Value>, path: &str, known: &[&str]) -> Result<(), String> {
    match object.keys().find(|k| !known.contains(&k.as_str())) {
        Some(unknown) => Err(format!(
            "{}: unknown field `{unknown}` (expected one of: {})",
            if path.is_empty() { "the line" } else { path },
            known.join(", ")
        )),
        None => Ok(()),
    }
}

fn required<'v>(object: &'v Map<String, Value>, path: &str, field: &str) -> Result<&'v Value, String> {
    let full = if path.is_empty() {
        field.to_string()
    } else {
        format!("{path}.{field}")
    };
    object.get(field).ok_or_else(|| format!("{full}: missing field"))
}

fn as_object<'v>(value: &'v Value, path: &str) -> Result<&'v Map<String, Value>, String> {
    value
        .as_object()
        .ok_or_else(|| format!("{path}: expected an object, got {}", kind(value)))
}

fn as_str<'v>(value: &'v Value, path: &str) -> Result<&'v str, String> {
    value
        .as_str()
        .ok_or_else(|| format!("{path}: expected a string, got {}", kind(value)))
}

fn as_i32(value: &Value, path: &str) -> Result<i32, String> {
    value
        .as_i64()
        .and_then(|n| i32::try_from(n).ok())
        .ok_or_else(|| format!("{path}: expected a 32-bit integer, got {}", kind(value)))
}

fn kind(value: &Value) -> String {
    match value {
        Value::Null => "null".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(_) => "a string".to_string(),
        Value::Array(_) => "an array".to_string(),
        Value::Object(_) => "an object".to_string(),
    }
}
