//! `rebalance-sim partition-for GROUP_ID [--partitions N]`: the group's `__consumer_offsets`
//! partition, `Utils.abs(groupId.hashCode()) % N` (Kafka: `GroupCoordinatorService.partitionFor`).

use std::process::ExitCode;

use rebalance_engine::partition_for;

const USAGE: &str = "usage: rebalance-sim partition-for GROUP_ID [--partitions N]   (N >= 1, default 50)";

pub(crate) fn run(args: &[String]) -> ExitCode {
    match parse(args) {
        Ok((group, partitions)) => {
            println!("{}", partition_for(&group, partitions));
            ExitCode::SUCCESS
        }
        Err(msg) => {
            eprintln!("rebalance-sim partition-for: {msg}\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn parse(args: &[String]) -> Result<(String, i32), String> {
    let mut group: Option<String> = None;
    let mut partitions: i32 = 50; // offsets.topic.num.partitions default
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--partitions" => {
                let value = it.next().ok_or("--partitions needs a value")?;
                partitions = value
                    .parse::<i32>()
                    .ok()
                    .filter(|n| *n >= 1)
                    .ok_or_else(|| format!("--partitions must be an integer >= 1, got `{value}`"))?;
            }
            s if s.starts_with("--") => return Err(format!("unknown option `{s}`")),
            s => {
                if group.replace(s.to_owned()).is_some() {
                    return Err(format!("unexpected extra argument `{s}`"));
                }
            }
        }
    }
    // The empty string is a valid (if odd) group id for Kafka's hash; it must be given explicitly.
    let group = group.ok_or("missing GROUP_ID")?;
    Ok((group, partitions))
}
