//! `rebalance-sim partition-for`: values from the reference's §6 table (computed with JDK 17).

mod common;

use common::run_command;

fn run(args: &[&str]) -> (i32, String, String) {
    run_command("partition-for", args)
}

#[test]
fn default_fifty_partitions() {
    // abs("test_group_1".hashCode() = -993617980) % 50 = 30 (not the 28 an article shows).
    assert_eq!(run(&["test_group_1"]), (0, "30\n".into(), String::new()));
    assert_eq!(run(&["my-group"]).1, "12\n");
    assert_eq!(run(&["console-consumer-1"]).1, "24\n");
    // hashCode = Integer.MIN_VALUE: Kafka's Utils.abs maps it to 0.
    assert_eq!(run(&["polygenelubricants"]).1, "0\n");
    assert_eq!(run(&[""]).1, "0\n");
}

#[test]
fn custom_partition_count() {
    assert_eq!(
        run(&["test_group_1", "--partitions", "7"]).1,
        format!("{}\n", 993_617_980 % 7)
    );
    assert_eq!(run(&["--partitions", "1", "g"]).1, "0\n");
}

#[test]
fn bad_arguments_exit_2_with_a_message() {
    for args in [
        &[][..],
        &["g", "--partitions", "0"],
        &["g", "--partitions"],
        &["g", "--partitions", "x"],
        &["a", "b"],
        &["g", "--nope"],
    ] {
        let (code, out, err) = run(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty());
        assert!(err.contains("partition-for"), "{err}");
    }
}
