use super::{StateNames, Strings};

// Kafka's own state names stay in English beside the translation: they are what learners will
// meet in logs and in the source.
pub(super) const STRINGS: Strings = Strings {
    app_title: "Kafka 消费者组重平衡演示",
    tagline: "逐条协议消息，看清 Kafka 消费者组如何重平衡。",
    language_label: "语言",
    group_heading: "消费者组",
    group_state: "状态",
    generation: "代（Generation）",
    leader: "Leader",
    none: "无",
    members: "成员",
    no_consumers: "还没有消费者加入。消费者组停在 Empty 状态，generation 为 0。",
    state_diagram_label: "经典消费者组的五种状态",
    current_state: "当前状态",
    states: StateNames {
        empty: "空（Empty）",
        preparing_rebalance: "准备重平衡（PreparingRebalance）",
        completing_rebalance: "完成重平衡（CompletingRebalance）",
        stable: "稳定（Stable）",
        dead: "死亡（Dead）",
    },
    state_explanations: StateNames {
        empty: "消费者组没有成员。已提交的位移会保留，直到过期。",
        preparing_rebalance: "重平衡开始了：每个成员都必须重新发送 JoinGroup。",
        completing_rebalance: "所有成员都已加入：leader 计算分配方案，并通过 SyncGroup 发送。",
        stable: "每个成员都拿到了自己的分区，并向协调者发送心跳。",
        dead: "该消费者组已不在这个协调者上：被删除了，或者协调者迁移了。",
    },
};
