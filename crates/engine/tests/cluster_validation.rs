//! The scenario format's `cluster` section and broker actions: defaults, and errors that name the
//! field.

use rebalance_engine::cluster::ClusterConfig;
use rebalance_engine::Scenario;

const BASE: &str = r#"{
  "version": 1,
  "end_ms": 60000,
  CLUSTER
  "topics": [{"name": "t", "partitions": 3, "records_per_sec": 3}],
  "client_defaults": {"subscription": {"topics": ["t"]}},
  "consumers": [{"name": "A"}],
  "actions": [ACTIONS]
}"#;

fn scenario(cluster: &str, actions: &str) -> Result<Scenario, String> {
    let cluster = if cluster.is_empty() {
        String::new()
    } else {
        format!("\"cluster\": {cluster},")
    };
    Scenario::from_json(&BASE.replace("CLUSTER", &cluster).replace("ACTIONS", actions))
        .map_err(|e| e.to_string())
}

#[test]
fn defaults_are_three_brokers_with_replication_factor_three() {
    let s = scenario("", "").unwrap();
    assert_eq!(s.cluster_config(), ClusterConfig::default());
    assert_eq!(s.cluster_config().brokers, 3);
    assert_eq!(s.cluster_config().replication_factor, 3);
    assert_eq!(s.cluster_config().min_insync_replicas, 1);
    assert_eq!(s.cluster_config().replica_lag_time_max_ms, 30_000);
    assert_eq!(s.coordinator_config().offsets_topic_num_partitions, 50);
    // A single broker without an explicit factor holds the only replica.
    let one = scenario(r#"{"brokers": 1}"#, "").unwrap();
    assert_eq!(one.cluster_config().replication_factor, 1);
    // offsets_partitions is the coordinator's setting.
    let p = scenario(r#"{"offsets_partitions": 7}"#, "").unwrap();
    assert_eq!(p.coordinator_config().offsets_topic_num_partitions, 7);
}

#[test]
fn replication_factor_above_brokers_names_the_field() {
    let e = scenario(r#"{"brokers": 3, "replication_factor": 4}"#, "").unwrap_err();
    assert!(e.contains("cluster.replication_factor"), "{e}");
    assert!(e.contains("larger than the 3 broker(s)"), "{e}");
    assert!(e.contains("line 4"), "{e}");
}

#[test]
fn other_cluster_errors_name_their_field() {
    for (cluster, field) in [
        (r#"{"brokers": 0}"#, "cluster.brokers"),
        (r#"{"min_insync_replicas": 4}"#, "cluster.min_insync_replicas"),
        (r#"{"min_insync_replicas": 0}"#, "cluster.min_insync_replicas"),
        (
            r#"{"replica_lag_time_max_ms": 0}"#,
            "cluster.replica_lag_time_max_ms",
        ),
        (
            r#"{"offsets_commit_timeout_ms": 0}"#,
            "cluster.offsets_commit_timeout_ms",
        ),
        (r#"{"replication_factor": 0}"#, "cluster.replication_factor"),
        (r#"{"brokrs": 3}"#, "unknown field `brokrs`"),
    ] {
        let e = scenario(cluster, "").unwrap_err();
        assert!(e.contains(field), "{cluster}: {e}");
    }
    let both = Scenario::from_json(
        &BASE
            .replace("CLUSTER", r#""cluster": {"offsets_partitions": 7}, "coordinator": {"offsets_topic_num_partitions": 8},"#)
            .replace("ACTIONS", ""),
    )
    .unwrap_err()
    .to_string();
    assert!(both.contains("cluster.offsets_partitions"), "{both}");
}

#[test]
fn broker_actions_parse_and_are_checked() {
    let s = scenario(
        "",
        r#"{"type": "crash_broker", "at_ms": 1000, "broker": 0},
           {"type": "crash_broker", "at_ms": 2000, "broker": 1, "graceful": true},
           {"type": "restart_broker", "at_ms": 3000, "broker": 0},
           {"type": "slow_broker", "at_ms": 4000, "broker": 2, "fetch_interval_ms": 40000, "duration_ms": 5000}"#,
    )
    .unwrap();
    assert_eq!(s.actions.len(), 4);
    for (actions, field) in [
        (
            r#"{"type": "crash_broker", "at_ms": 1000, "broker": 3}"#,
            "actions[0].broker",
        ),
        (
            r#"{"type": "restart_broker", "at_ms": 1000, "broker": -1}"#,
            "actions[0].broker",
        ),
        (
            r#"{"type": "slow_broker", "at_ms": 1000, "broker": 0, "fetch_interval_ms": 0}"#,
            "actions[0].fetch_interval_ms",
        ),
        (
            r#"{"type": "slow_broker", "at_ms": 1000, "broker": 0, "fetch_interval_ms": 10, "duration_ms": 0}"#,
            "actions[0].duration_ms",
        ),
        (
            r#"{"type": "crash_broker", "at_ms": 1000}"#,
            "missing field `broker`",
        ),
    ] {
        let e = scenario("", actions).unwrap_err();
        assert!(e.contains(field), "{actions}: {e}");
    }
}
