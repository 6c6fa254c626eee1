use super::{StateNames, Strings};

pub(super) const STRINGS: Strings = Strings {
    app_title: "Kafka Rebalance Playground",
    tagline: "Watch a Kafka consumer group rebalance, one protocol message at a time.",
    language_label: "Language",
    group_heading: "Consumer group",
    group_state: "State",
    generation: "Generation",
    leader: "Leader",
    none: "none",
    members: "Members",
    no_consumers: "No consumer has joined yet. The group waits in Empty at generation 0.",
    state_diagram_label: "The five states of a classic consumer group",
    current_state: "current state",
    states: StateNames {
        empty: "Empty",
        preparing_rebalance: "PreparingRebalance",
        completing_rebalance: "CompletingRebalance",
        stable: "Stable",
        dead: "Dead",
    },
    state_explanations: StateNames {
        empty: "The group has no members. Its committed offsets are kept until they expire.",
        preparing_rebalance: "A rebalance has started: every member must send JoinGroup again.",
        completing_rebalance:
            "Everyone has joined: the leader computes the assignment and sends it in SyncGroup.",
        stable: "Every member has its partitions and heartbeats to the coordinator.",
        dead: "The group is gone from this coordinator: it was deleted or the coordinator moved.",
    },
};
