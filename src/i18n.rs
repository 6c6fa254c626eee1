//! Every user-visible string, one table per language.
//!
//! Components never hold text: they ask [`Lang::strings`] for the table of the current language.
//! A [`Strings`] table is a struct, so a language that forgets a string does not compile.

mod en;
mod zh;

/// A language the playground speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    /// English.
    En,
    /// Simplified Chinese (the language of the articles the project started from).
    Zh,
}

impl Lang {
    /// Every language, in the order the switch shows them.
    pub const ALL: [Self; 2] = [Self::Zh, Self::En];

    /// The table of strings for this language.
    pub fn strings(self) -> &'static Strings {
        match self {
            Self::En => &en::STRINGS,
            Self::Zh => &zh::STRINGS,
        }
    }

    /// The BCP 47 tag, for `<html lang>` and `localStorage`.
    pub fn tag(self) -> &'static str {
        match self {
            Self::En => "en",
            Self::Zh => "zh-CN",
        }
    }

    /// The language's own name, as its speakers write it: the switch shows it untranslated.
    pub fn native_name(self) -> &'static str {
        match self {
            Self::En => "English",
            Self::Zh => "中文",
        }
    }

    /// The language for a BCP 47 tag such as `navigator.language`: Chinese for any `zh*`,
    /// English for everything else.
    pub fn from_tag(tag: &str) -> Self {
        if tag.trim().to_ascii_lowercase().starts_with("zh") {
            Self::Zh
        } else {
            Self::En
        }
    }
}

/// The names of the five states of a classic group, as Kafka spells them and as a learner reads them.
pub struct StateNames {
    /// `Empty`.
    pub empty: &'static str,
    /// `PreparingRebalance`.
    pub preparing_rebalance: &'static str,
    /// `CompletingRebalance`.
    pub completing_rebalance: &'static str,
    /// `Stable`.
    pub stable: &'static str,
    /// `Dead`.
    pub dead: &'static str,
}

/// The client-side member states (Kafka's `MemberState`), plus the process's lifecycle.
pub struct MemberStateNames {
    /// `UNJOINED`.
    pub unjoined: &'static str,
    /// `PREPARING_REBALANCE` on the client: JoinGroup sent.
    pub joining: &'static str,
    /// `COMPLETING_REBALANCE` on the client: SyncGroup sent.
    pub awaiting_sync: &'static str,
    /// `STABLE`.
    pub stable: &'static str,
    /// Closed gracefully.
    pub closed: &'static str,
    /// Killed.
    pub killed: &'static str,
    /// Stopped by a fatal error.
    pub failed: &'static str,
    /// Paused (heartbeats and polls stopped).
    pub paused: &'static str,
    /// Will rejoin at the next poll.
    pub rejoin_needed: &'static str,
    /// Giving partitions up: pending revocation, or inside `onPartitionsRevoked` (with its commit).
    pub revoking: &'static str,
}

/// The toolbar.
pub struct ControlStrings {
    /// The toolbar's accessible name.
    pub label: &'static str,
    /// The detail panels did not load (in their place).
    pub panels_not_loaded: &'static str,
    /// The button that loads them again.
    pub retry: &'static str,
    /// Play.
    pub play: &'static str,
    /// Pause.
    pub pause: &'static str,
    /// Step.
    pub step: &'static str,
    /// What Step does.
    pub step_hint: &'static str,
    /// The speed slider's label.
    pub speed: &'static str,
    /// What the speed means.
    pub speed_hint: &'static str,
    /// Reset.
    pub reset: &'static str,
    /// What Reset does.
    pub reset_hint: &'static str,
    /// "Seed".
    pub seed: &'static str,
    /// "Virtual time".
    pub time: &'static str,
    /// "Keyboard shortcuts" button.
    pub help: &'static str,
    /// Presentation mode toggle.
    pub presentation: &'static str,
    /// What presentation mode does.
    pub presentation_hint: &'static str,
    /// "The engine refused: {reason}".
    pub refused: &'static str,
    /// The timeline's keys.
    pub timeline_keys: &'static str,
}

/// The stage: nodes, edges, tokens, legend.
pub struct StageStrings {
    /// Heading.
    pub heading: &'static str,
    /// The drawing's accessible description.
    pub label: &'static str,
    /// "broker {n}".
    pub broker: &'static str,
    /// "coordinator" (the broker's role).
    pub coordinator: &'static str,
    /// "not loaded" (during a failover).
    pub unloaded: &'static str,
    /// "loading".
    pub loading: &'static str,
    /// "crashed".
    pub crashed: &'static str,
    /// "replica" (of the group's `__consumer_offsets` partition, named under it).
    pub replica: &'static str,
    /// The word beside the crown.
    pub leader: &'static str,
    /// The session countdown ring.
    pub session_ring: &'static str,
    /// The poll-interval ring.
    pub poll_ring: &'static str,
    /// The processing indicator.
    pub processing: &'static str,
    /// Shown when there are no consumers.
    pub empty: &'static str,
    /// Legend heading.
    pub legend: &'static str,
    /// "request" (filled).
    pub request: &'static str,
    /// "response" (hollow).
    pub response: &'static str,
    /// "error response".
    pub error: &'static str,
    /// "will be lost".
    pub lost: &'static str,
    /// Legend line explaining filled/hollow.
    pub legend_shapes: &'static str,
    /// Legend line explaining errors.
    pub legend_error: &'static str,
    /// Legend line explaining the rings.
    pub legend_rings: &'static str,
    /// A token's accessible name: "{api} {kind} from {from} to {to}".
    pub token: &'static str,
    /// A consumer node's accessible name: "Consumer {name}, {state}".
    pub consumer_node: &'static str,
    /// One gloss per API, for the legend.
    pub api_gloss: ApiGloss,
}

/// One short explanation per Kafka API.
pub struct ApiGloss {
    /// FindCoordinator.
    pub find_coordinator: &'static str,
    /// JoinGroup.
    pub join_group: &'static str,
    /// SyncGroup.
    pub sync_group: &'static str,
    /// Heartbeat.
    pub heartbeat: &'static str,
    /// LeaveGroup.
    pub leave_group: &'static str,
    /// OffsetCommit.
    pub offset_commit: &'static str,
    /// OffsetFetch.
    pub offset_fetch: &'static str,
    /// DescribeGroups.
    pub describe_groups: &'static str,
    /// ListGroups.
    pub list_groups: &'static str,
    /// DeleteGroups.
    pub delete_groups: &'static str,
    /// ConsumerGroupHeartbeat (KIP-848).
    pub consumer_group_heartbeat: &'static str,
    /// ConsumerGroupDescribe (KIP-848).
    pub consumer_group_describe: &'static str,
}

/// The group panel beyond the state names.
pub struct GroupStrings {
    /// "Assignor".
    pub assignor: &'static str,
    /// "`__consumer_offsets` partition".
    pub offsets_partition: &'static str,
    /// Why it is that partition ({group}, {n}: offsets.topic.num.partitions, {p}: the partition).
    pub offsets_partition_note: &'static str,
    /// After the note, in the articles' own group: what one article shows ({p}: Kafka's partition).
    pub offsets_partition_article: &'static str,
    /// "Coordinator".
    pub coordinator: &'static str,
    /// "Last transition".
    pub last_transition: &'static str,
    /// Member count caption.
    pub member_count: &'static str,
    /// The heading of the panel with the state diagram.
    pub states_heading: &'static str,
    /// The stage's action bar: before the name of the consumer its buttons act on.
    pub selected: &'static str,
    /// The stage's action bar with nothing selected.
    pub select_hint: &'static str,
    /// The stage's action bar's label.
    pub actions_label: &'static str,
}

/// Consumer cards.
pub struct ConsumerStrings {
    /// Heading.
    pub heading: &'static str,
    /// "Member id".
    pub member_id: &'static str,
    /// "Generation".
    pub generation: &'static str,
    /// "Client state".
    pub state: &'static str,
    /// "Partitions".
    pub partitions: &'static str,
    /// No partitions.
    pub no_partitions: &'static str,
    /// "Records processed".
    pub processed: &'static str,
    /// "Duplicates".
    pub duplicates: &'static str,
    /// "Protocol".
    pub protocol: &'static str,
    /// "eager".
    pub eager: &'static str,
    /// "cooperative".
    pub cooperative: &'static str,
    /// "Static id".
    pub static_id: &'static str,
    /// "Assignors".
    pub assignors: &'static str,
    /// Kill.
    pub kill: &'static str,
    /// What Kill does.
    pub kill_hint: &'static str,
    /// Close.
    pub close: &'static str,
    /// What Close does.
    pub close_hint: &'static str,
    /// Pause.
    pub pause: &'static str,
    /// What Pause does.
    pub pause_hint: &'static str,
    /// Resume.
    pub resume: &'static str,
    /// What Resume does.
    pub resume_hint: &'static str,
    /// Restart.
    pub restart: &'static str,
    /// What Restart does.
    pub restart_hint: &'static str,
    /// "Inspect".
    pub inspect: &'static str,
    /// "Actions for {name}".
    pub actions_for: &'static str,
    /// Caption of the partitions being revoked.
    pub revoking: &'static str,
    /// What revoking means, next to them.
    pub revoking_note: &'static str,
}

/// The add-consumer form.
pub struct FormStrings {
    /// Heading.
    pub heading: &'static str,
    /// "Name".
    pub name: &'static str,
    /// "Assignors (in order of preference)".
    pub assignors: &'static str,
    /// "Move up".
    pub move_up: &'static str,
    /// "Move down".
    pub move_down: &'static str,
    /// "Rebalance protocol".
    pub protocol: &'static str,
    /// How Kafka derives it.
    pub protocol_rule: &'static str,
    /// "Static member id (group.instance.id)".
    pub static_id: &'static str,
    /// "empty: a dynamic member".
    pub static_id_hint: &'static str,
    /// session.timeout.ms label.
    pub session: &'static str,
    /// heartbeat.interval.ms label.
    pub heartbeat: &'static str,
    /// max.poll.interval.ms label.
    pub max_poll: &'static str,
    /// Processing time label.
    pub processing: &'static str,
    /// Commit-in-revoke label.
    pub commit_in_revoke: &'static str,
    /// The submit button.
    pub add: &'static str,
    /// More settings disclosure.
    pub settings: &'static str,
    /// "Give the consumer a name."
    pub err_name_empty: &'static str,
    /// "There is already a consumer named {name}."
    pub err_name_taken: &'static str,
    /// The name holds a forbidden character `{char}` (markup or control).
    pub err_name_chars: &'static str,
    /// The name has `{n}` characters, more than `{max}`.
    pub err_name_long: &'static str,
    /// "{field}: a whole number of milliseconds above 0."
    pub err_number: &'static str,
    /// Heartbeat must be below session timeout.
    pub err_heartbeat: &'static str,
    /// At least one assignor.
    pub err_no_assignor: &'static str,
    /// Session timeout outside the broker's range `{min}`..=`{max}` (allowed; explained).
    pub warn_session_range: &'static str,
    /// Processing slower than max.poll.interval.ms (allowed; explained).
    pub warn_processing: &'static str,
    /// The subscription field.
    pub topics: &'static str,
    /// Bad subscription.
    pub err_topics: &'static str,
    /// Heartbeat above a third of the session timeout (allowed; explained).
    pub warn_heartbeat_third: &'static str,
    /// Fix the marked fields.
    pub err_summary: &'static str,
    /// max.poll.interval.ms is also the classic client's rebalance timeout.
    pub max_poll_hint: &'static str,
    /// The collapsed "Advanced" section.
    pub advanced: &'static str,
    /// max.poll.records label.
    pub max_poll_records: &'static str,
    /// How offsets are committed (label).
    pub commit_mode: &'static str,
    /// enable.auto.commit=true.
    pub commit_auto: &'static str,
    /// enable.auto.commit=false, commitAsync after each batch.
    pub commit_manual: &'static str,
    /// enable.auto.commit=false, no commit in the poll loop.
    pub commit_never: &'static str,
    /// auto.commit.interval.ms label.
    pub commit_interval: &'static str,
    /// group.protocol label.
    pub group_protocol: &'static str,
    /// "{field}: enter a whole number above 0."
    pub err_count: &'static str,
    /// "{field}: {value} is more than the limit ({max})."
    pub err_limit: &'static str,
    /// The session's start settings (heading).
    pub start_heading: &'static str,
    /// How a changed start setting applies.
    pub start_intro: &'static str,
    /// The button that applies them.
    pub start_apply: &'static str,
    /// Network latency (ms).
    pub net_latency: &'static str,
    /// Network jitter (ms).
    pub net_jitter: &'static str,
    /// Probability that a message is lost.
    pub net_drop: &'static str,
    /// Probability that a message is delayed.
    pub net_delay_p: &'static str,
    /// The extra delay (ms).
    pub net_delay_ms: &'static str,
    /// "{field}: enter a number." (a start setting that is not a number)
    pub err_start_number: &'static str,
    /// "{field}: the engine refuses it: {reason}" (the engine's words, naming value and limit).
    pub err_start: &'static str,
    /// Applied: "Start settings applied; the session was replayed to {time}."
    pub start_applied: &'static str,
}

/// Topics and the cluster controls.
pub struct ConsoleStrings {
    /// "Admin console".
    pub heading: &'static str,
    /// What it is.
    pub intro: &'static str,
    /// The command field's label.
    pub command: &'static str,
    /// The version select's label.
    pub version: &'static str,
    /// "Run".
    pub run: &'static str,
    /// The examples' list label.
    pub examples: &'static str,
    /// A failed command ({code}: its exit code).
    pub exit: &'static str,
    /// A line too long ({n}: its length, {max}: the limit).
    pub err_long: &'static str,
    /// A quote never closed ({at}: where it opened).
    pub err_quote: &'static str,
}

/// The topic panel's strings.
pub struct TopicStrings {
    /// Heading.
    pub heading: &'static str,
    /// "partition".
    pub partition: &'static str,
    /// "no owner".
    pub unowned: &'static str,
    /// "Add a partition".
    pub add_partition: &'static str,
    /// "New topic".
    pub new_topic: &'static str,
    /// "Topic name".
    pub topic_name: &'static str,
    /// "Partitions".
    pub partitions: &'static str,
    /// "Create".
    pub create: &'static str,
    /// Bad topic name.
    pub err_topic_name: &'static str,
    /// Topic exists.
    pub err_topic_taken: &'static str,
    /// Bad partition count ({max}: the most the form offers).
    pub err_partitions: &'static str,
    /// "Coordinator failover".
    pub failover: &'static str,
    /// What it does ({s}: how long, in seconds).
    pub failover_hint: &'static str,
    /// "{topic}, partition {p}, owner {owner}".
    pub partition_label: &'static str,
    /// "owned by {owners}" — more than one owner across generations.
    pub subscribed_by: &'static str,
    /// "Crash broker {n}".
    pub crash_broker: &'static str,
    /// "Restart broker {n}".
    pub restart_broker: &'static str,
    /// What crashing a broker does.
    pub crash_hint: &'static str,
    /// Heading of the cluster controls.
    pub cluster: &'static str,
}

/// The replication panel: the group's `__consumer_offsets` partition, its replicas, HW and ISR.
pub struct ReplicationStrings {
    /// "Replication: {partition}".
    pub heading: &'static str,
    /// The table's caption: "Replicas of {partition}".
    pub table: &'static str,
    /// What the panel shows, in two sentences.
    pub intro: &'static str,
    /// "Leader" caption.
    pub leader: &'static str,
    /// "{broker}, leader epoch {epoch}".
    pub leader_is: &'static str,
    /// No leader.
    pub offline: &'static str,
    /// "High watermark (HW)".
    pub hw: &'static str,
    /// "In-sync replicas (ISR)".
    pub isr: &'static str,
    /// `min.insync.replicas`.
    pub min_isr: &'static str,
    /// Appends waiting for the HW.
    pub pending: &'static str,
    /// Column: broker.
    pub col_broker: &'static str,
    /// Column: role.
    pub col_role: &'static str,
    /// Column: log end offset.
    pub col_leo: &'static str,
    /// Column: ISR membership.
    pub col_isr: &'static str,
    /// The leader's role.
    pub role_leader: &'static str,
    /// A follower's role.
    pub role_follower: &'static str,
    /// A replica whose broker is down.
    pub down: &'static str,
    /// In the ISR.
    pub in_isr: &'static str,
    /// Out of the ISR.
    pub out_isr: &'static str,
    /// "slow: fetches every {s} s".
    pub slowed: &'static str,
    /// The button's text: "Slow down".
    pub slow: &'static str,
    /// The button's accessible name: "Slow down broker {n}".
    pub slow_label: &'static str,
    /// What the slow fault does ({every}, {for} and {lag}, replica.lag.time.max.ms, in seconds).
    pub slow_hint: &'static str,
    /// What the bars show.
    pub bar_legend: &'static str,
}

/// The inspector.
pub struct InspectorStrings {
    /// Heading.
    pub heading: &'static str,
    /// Nothing selected.
    pub empty: &'static str,
    /// "Close".
    pub clear: &'static str,
    /// "From".
    pub from: &'static str,
    /// "To".
    pub to: &'static str,
    /// "Kind".
    pub kind: &'static str,
    /// "Correlation id".
    pub correlation: &'static str,
    /// "Sent at".
    pub sent: &'static str,
    /// "Arrives at".
    pub arrives: &'static str,
    /// "Fault".
    pub fault: &'static str,
    /// "Fields".
    pub fields: &'static str,
    /// "Time".
    pub time: &'static str,
    /// "Engine trace (English)".
    pub raw: &'static str,
    /// "Session deadline".
    pub session_deadline: &'static str,
    /// "Next heartbeat".
    pub next_heartbeat: &'static str,
    /// "Poll deadline".
    pub poll_deadline: &'static str,
    /// "Subscription".
    pub subscription: &'static str,
    /// "Committed".
    pub committed: &'static str,
    /// "Lag".
    pub lag: &'static str,
    /// "Members".
    pub members: &'static str,
    /// "Timers".
    pub timers: &'static str,
    /// "Message {id}".
    pub message_title: &'static str,
    /// "Log entry {seq}".
    pub event_title: &'static str,
    /// "gone" (no longer in the simulation).
    pub gone: &'static str,
}

/// The event log.
pub struct LogStrings {
    /// Heading.
    pub heading: &'static str,
    /// "Consumer" filter label.
    pub filter_consumer: &'static str,
    /// "API" filter label.
    pub filter_api: &'static str,
    /// "all".
    pub all: &'static str,
    /// "Show heartbeats and details".
    pub details: &'static str,
    /// Nothing matches.
    pub empty: &'static str,
    /// "the last {n} matching entries".
    pub showing: &'static str,
}

/// The keyboard help overlay.
pub struct HelpStrings {
    /// The close button.
    pub dismiss: &'static str,
    /// Heading.
    pub heading: &'static str,
    /// Space.
    pub play_pause: &'static str,
    /// `.` or →.
    pub step: &'static str,
    /// `a`.
    pub add: &'static str,
    /// `+` / `-`.
    pub speed: &'static str,
    /// `?`.
    pub help: &'static str,
    /// Enter on a node or token.
    pub inspect: &'static str,
    /// Escape.
    pub close: &'static str,
    /// `p`.
    pub presentation: &'static str,
    /// The accessible name of the × button in the dialog's corner.
    pub close_label: &'static str,
}

/// Words that fill the explanation templates.
pub struct Words {
    /// Removal reasons.
    pub left: &'static str,
    /// Admin removal.
    pub admin_removed: &'static str,
    /// Session expired.
    pub session_expired: &'static str,
    /// Did not rejoin.
    pub not_rejoined: &'static str,
    /// No SyncGroup in time.
    pub sync_expired: &'static str,
    /// Group full.
    pub group_full: &'static str,
    /// Replaced (static).
    pub replaced: &'static str,
    /// Became a full member.
    pub joined: &'static str,
    /// "request".
    pub request: &'static str,
    /// "response".
    pub response: &'static str,
    /// "nothing".
    pub nothing: &'static str,
    /// List separator.
    pub sep: &'static str,
}

/// Explanation templates, one per kind of log entry. `{name}` placeholders are filled in by
/// `explain.rs`.
pub struct Explain {
    /// GroupCreated.
    pub group_created: &'static str,
    /// First member: Empty -> PreparingRebalance ({delay}: group.initial.rebalance.delay.ms in seconds).
    pub first_member: &'static str,
    /// A member joined a running group.
    pub member_joined: &'static str,
    /// The leader rejoined in Stable.
    pub leader_rejoined: &'static str,
    /// A member rejoined with new metadata.
    pub metadata_changed: &'static str,
    /// A static member was replaced.
    pub static_replaced_rebalance: &'static str,
    /// Members left with LeaveGroup.
    pub members_left: &'static str,
    /// The last member left.
    pub last_member_left: &'static str,
    /// A session expired.
    pub session_expired: &'static str,
    /// The last member's session expired.
    pub last_session_expired: &'static str,
    /// No SyncGroup in time.
    pub pending_sync_expired: &'static str,
    /// Join phase completed.
    pub join_completed: &'static str,
    /// Assignment persisted: Stable.
    pub assignment_persisted: &'static str,
    /// Assignment append failed.
    pub assignment_failed: &'static str,
    /// Partition unloaded: Dead.
    pub unloaded_dead: &'static str,
    /// Generation bump.
    pub generation: &'static str,
    /// Protocol chosen.
    pub protocol_selected: &'static str,
    /// Protocol cleared.
    pub protocol_cleared: &'static str,
    /// New leader.
    pub leader: &'static str,
    /// No leader.
    pub no_leader: &'static str,
    /// Member added.
    pub member_added: &'static str,
    /// Member removed.
    pub member_removed: &'static str,
    /// MEMBER_ID_REQUIRED.
    pub pending_member: &'static str,
    /// Static member replaced.
    pub static_replaced: &'static str,
    /// Assignment stored.
    pub assignment_stored: &'static str,
    /// Assignments reset.
    pub assignments_reset: &'static str,
    /// Offsets committed.
    pub offsets_committed: &'static str,
    /// Group loaded.
    pub group_loaded: &'static str,
    /// Partition loaded.
    pub partition_loaded: &'static str,
    /// Partition unloaded.
    pub partition_unloaded: &'static str,
    /// Initial rebalance delay tick.
    pub initial_delay: &'static str,
    /// Rebalance timeout.
    pub rebalance_timeout: &'static str,
    /// JoinGroup/SyncGroup parked.
    pub parked: &'static str,
    /// Parked request dropped.
    pub parked_dropped: &'static str,
    /// A consumer started.
    pub started: &'static str,
    /// Coordinator found.
    pub coordinator_found: &'static str,
    /// Coordinator found, test_group_1 (the articles' 28 vs Kafka's 30).
    pub coordinator_found_article: &'static str,
    /// Coordinator lost.
    pub coordinator_lost: &'static str,
    /// Member state changed.
    pub member_state: &'static str,
    /// Rejoin requested.
    pub rejoin: &'static str,
    /// Member id assigned.
    pub member_id_assigned: &'static str,
    /// Joined as leader.
    pub joined_leader: &'static str,
    /// Joined as follower.
    pub joined_follower: &'static str,
    /// Assignment computed.
    pub assignment_computed: &'static str,
    /// Assignment received.
    pub assignment_received: &'static str,
    /// Partitions revoked.
    pub revoked: &'static str,
    /// Partitions assigned.
    pub assigned: &'static str,
    /// Partitions lost.
    pub lost: &'static str,
    /// An error response.
    pub error_received: &'static str,
    /// REBALANCE_IN_PROGRESS.
    pub err_rebalance: &'static str,
    /// ILLEGAL_GENERATION.
    pub err_generation: &'static str,
    /// UNKNOWN_MEMBER_ID.
    pub err_unknown_member: &'static str,
    /// MEMBER_ID_REQUIRED.
    pub err_member_id_required: &'static str,
    /// NOT_COORDINATOR and friends.
    pub err_coordinator: &'static str,
    /// FENCED_INSTANCE_ID.
    pub err_fenced: &'static str,
    /// Fatal.
    pub fatal: &'static str,
    /// Poll timeout (dynamic).
    pub poll_timeout: &'static str,
    /// Poll timeout (static).
    pub poll_timeout_static: &'static str,
    /// Batch fetched.
    pub fetched: &'static str,
    /// Batch processed.
    pub processed: &'static str,
    /// Duplicates seen.
    pub duplicates: &'static str,
    /// Batch abandoned.
    pub abandoned: &'static str,
    /// Commit sent.
    pub commit_sent: &'static str,
    /// Commit succeeded.
    pub commit_ok: &'static str,
    /// Commit failed.
    pub commit_failed: &'static str,
    /// Positions initialised.
    pub positions: &'static str,
    /// Metadata changed.
    pub metadata: &'static str,
    /// Subscription changed.
    pub subscription: &'static str,
    /// Paused.
    pub paused: &'static str,
    /// Resumed.
    pub resumed: &'static str,
    /// Closed.
    pub closed: &'static str,
    /// Killed.
    pub killed: &'static str,
    /// Response ignored.
    pub ignored: &'static str,
    /// Request timed out.
    pub timed_out: &'static str,
    /// A request sent.
    pub sent_request: &'static str,
    /// A response sent.
    pub sent_response: &'static str,
    /// An error response sent.
    pub sent_error: &'static str,
    /// A Heartbeat answered NONE while the group is CompletingRebalance.
    pub heartbeat_completing: &'static str,
    /// Delivered.
    pub delivered: &'static str,
    /// Lost.
    pub message_lost: &'static str,
    /// Undeliverable.
    pub undeliverable: &'static str,
    /// Consumer process started.
    pub consumer_started: &'static str,
    /// Topic created.
    pub topic_created: &'static str,
    /// Partitions added.
    pub partitions_added: &'static str,
    /// Coordinator unloaded.
    pub coordinator_unloaded: &'static str,
    /// Coordinator loaded.
    pub coordinator_loaded: &'static str,
    /// Action rejected.
    pub rejected: &'static str,
    /// A broker crashed.
    pub broker_crashed: &'static str,
    /// A broker shut down cleanly.
    pub broker_stopped: &'static str,
    /// A broker restarted.
    pub broker_restarted: &'static str,
    /// A new leader for the group's partition: the coordinator moves.
    pub leader_elected: &'static str,
    /// The group's partition has no leader.
    pub partition_offline: &'static str,
}

/// Explanations of the log entries the main table does not cover, so that every event kind the
/// engine logs (coordinator, client, network, world and cluster events) has a sentence of its own.
pub struct ExplainMore {
    /// A request arrived: {node}, {api}, {corr}.
    pub request_received: &'static str,
    /// A response without error: {node}, {api}, {corr}.
    pub response_sent: &'static str,
    /// An error response: {node}, {api}, {corr}, {error}.
    pub response_sent_error: &'static str,
    /// A member rejoined with a different subscription: {member}.
    pub member_updated: &'static str,
    /// A member rejoined unchanged: {member}.
    pub member_updated_same: &'static str,
    /// A pending member id was dropped: {member}, {reason}.
    pub pending_removed: &'static str,
    /// Committed offsets expired: {parts}.
    pub offsets_expired: &'static str,
    /// A Dead group was forgotten: {group}.
    pub group_removed: &'static str,
    /// A loaded group is over group.max.size: {size}, {max}, {from}, {to}.
    pub over_capacity: &'static str,
    /// A mixed group's last consumer-protocol member left: it is a classic group again ({from}, {to}).
    pub downgraded: &'static str,
    /// An Empty group's last offsets expired: {from}, {to}.
    pub group_expired: &'static str,
    /// The group was forced Dead: {from}, {to}.
    pub forced_dead: &'static str,
    /// An admin deleted the Empty group (DeleteGroups): {from}, {to}.
    pub group_deleted: &'static str,
    /// The old leader was removed: {who}.
    pub leader_removed: &'static str,
    /// The leader did not rejoin: {who}.
    pub leader_not_rejoined: &'static str,
    /// A static leader's replacement keeps leadership: {who}.
    pub leader_static: &'static str,
    /// A coordinator timer was scheduled: {timer}, {time}.
    pub timer_set: &'static str,
    /// A coordinator timer was rescheduled: {timer}, {time}.
    pub timer_reset: &'static str,
    /// A coordinator timer was cancelled: {timer}.
    pub timer_cancelled: &'static str,
    /// A coordinator timer fired (other than the two with their own sentence): {timer}.
    pub timer_fired: &'static str,
    /// Timer name: a member's session.
    pub timer_session: &'static str,
    /// Timer name: a new member's join timeout.
    pub timer_new_member: &'static str,
    /// Timer name: a pending member's session.
    pub timer_pending_member: &'static str,
    /// Timer name: group.initial.rebalance.delay.ms.
    pub timer_initial_delay: &'static str,
    /// Timer name: the rebalance timeout.
    pub timer_rebalance: &'static str,
    /// Timer name: the pending-sync timeout.
    pub timer_pending_sync: &'static str,
    /// Timer name: the offset expiration check.
    pub timer_offset_expiration: &'static str,
    /// Timer name: a consumer-protocol member's session.
    pub timer_consumer_session: &'static str,
    /// Timer name: a consumer-protocol member's revocation deadline.
    pub timer_consumer_rebalance: &'static str,
    /// A classic member of a mixed group must rejoin by then.
    pub timer_classic_join: &'static str,
    /// A classic member of a mixed group must sync by then.
    pub timer_classic_sync: &'static str,
    /// A group record was appended: {p}, {offset}, {group}, {gen}, {n}.
    pub record_group: &'static str,
    /// A group tombstone was appended: {p}, {offset}, {group}.
    pub record_group_tombstone: &'static str,
    /// An offset record was appended: {p}, {offset}, {tp}, {committed}.
    pub record_offset: &'static str,
    /// An offset tombstone was appended: {p}, {offset}, {tp}.
    pub record_offset_tombstone: &'static str,
    /// An append something waited on failed: {p}, {offset}, {error}.
    pub append_failed: &'static str,
    /// A topic was deleted: {topic}.
    pub topic_deleted: &'static str,
    /// A topic's production rate changed: {topic}, {n}.
    pub produce_rate: &'static str,
    /// A consumer calls subscribe(): {who}, {topics}.
    pub subscription_set: &'static str,
    /// The network changed: {latency}, {jitter}, {drop}.
    pub network_changed: &'static str,
    /// A scripted member sends a raw request: {script}, {api}.
    pub scripted: &'static str,
    /// The scenario ends.
    pub end: &'static str,
    /// A broker was slowed: {node}, {ms}.
    pub broker_slowed: &'static str,
    /// A slowed broker fetches normally again: {node}.
    pub broker_speed_restored: &'static str,
    /// The controller moved other partitions' leadership: {n}.
    pub leaders_moved: &'static str,
    /// A follower fetched: {node}, {p}, {n}, {from}, {leo}.
    pub replica_fetched: &'static str,
    /// The high watermark moved: {p}, {from}, {to}.
    pub hw_advanced: &'static str,
    /// A replica left the ISR because its broker is down: {node}, {p}, {isr}.
    pub isr_shrunk_down: &'static str,
    /// A replica left the ISR because it lagged: {node}, {p}, {ms}, {isr}.
    pub isr_shrunk_lag: &'static str,
    /// A replica rejoined the ISR: {node}, {p}, {isr}.
    pub isr_expanded: &'static str,
    /// A replica's log was truncated: {node}, {p}, {from}, {to}.
    pub log_truncated: &'static str,
    /// An append was not replicated in time: {p}, {offset}.
    pub append_timed_out: &'static str,
    /// A client reset its generation but kept its member id: {who}.
    pub generation_reset_kept: &'static str,
    /// A client reset its generation and member id: {who}.
    pub generation_reset_all: &'static str,
    /// Error meaning: UNKNOWN_SERVER_ERROR.
    pub err_server: &'static str,
    /// Error meaning: UNKNOWN_TOPIC_OR_PARTITION.
    pub err_unknown_partition: &'static str,
    /// Error meaning: a record or batch too large.
    pub err_too_large: &'static str,
    /// Error meaning: NOT_LEADER_OR_FOLLOWER or KAFKA_STORAGE_ERROR.
    pub err_not_leader: &'static str,
    /// Error meaning: REQUEST_TIMED_OUT.
    pub err_timed_out: &'static str,
    /// Error meaning: OFFSET_METADATA_TOO_LARGE.
    pub err_metadata_too_large: &'static str,
    /// Error meaning: NOT_ENOUGH_REPLICAS.
    pub err_not_enough_replicas: &'static str,
    /// Error meaning: INCONSISTENT_GROUP_PROTOCOL.
    pub err_inconsistent_protocol: &'static str,
    /// Error meaning: INVALID_GROUP_ID.
    pub err_invalid_group: &'static str,
    /// Error meaning: INVALID_SESSION_TIMEOUT.
    pub err_session_timeout: &'static str,
    /// Error meaning: GROUP_AUTHORIZATION_FAILED.
    pub err_authorization: &'static str,
    /// Error meaning: NON_EMPTY_GROUP.
    pub err_non_empty_group: &'static str,
    /// Error meaning: GROUP_ID_NOT_FOUND.
    pub err_group_not_found: &'static str,
    /// Error meaning: GROUP_MAX_SIZE_REACHED.
    pub err_group_full: &'static str,
    /// Error meaning: UNSTABLE_OFFSET_COMMIT.
    pub err_unstable: &'static str,
    /// Error meaning: TOPIC_AUTHORIZATION_FAILED.
    pub err_topic_authorization: &'static str,
    /// Error meaning: UNSUPPORTED_VERSION.
    pub err_unsupported_version: &'static str,
    /// Error meaning: INVALID_REQUEST.
    pub err_invalid_request: &'static str,
    /// Error meaning: FENCED_MEMBER_EPOCH.
    pub err_fenced_member_epoch: &'static str,
    /// Error meaning: UNRELEASED_INSTANCE_ID.
    pub err_unreleased_instance: &'static str,
    /// Error meaning: UNSUPPORTED_ASSIGNOR.
    pub err_unsupported_assignor: &'static str,
    /// Error meaning: STALE_MEMBER_EPOCH.
    pub err_stale_member_epoch: &'static str,
    /// Error meaning: INVALID_REGULAR_EXPRESSION.
    pub err_invalid_regex: &'static str,
    /// A commit was not sent outside a stable generation: {who}.
    pub commit_skipped_unstable: &'static str,
    /// A commit was not sent without a coordinator: {who}.
    pub commit_skipped_no_coordinator: &'static str,
    /// A commit got no answer: {who}, {cause}.
    pub commit_lost: &'static str,
    /// Cause: the request timed out.
    pub cause_timed_out: &'static str,
    /// Cause: the connection dropped.
    pub cause_disconnected: &'static str,
}

/// All of the UI's text in one language.
pub struct Strings {
    /// The product's name, in the header and the page title.
    pub app_title: &'static str,
    /// One line under the title that says what the playground is for.
    pub tagline: &'static str,
    /// The accessible label of the language switch.
    pub language_label: &'static str,
    /// The heading of the group panel.
    pub group_heading: &'static str,
    /// "Group state" caption.
    pub group_state: &'static str,
    /// "Generation" caption.
    pub generation: &'static str,
    /// "Leader" caption.
    pub leader: &'static str,
    /// Shown where a value does not exist yet (no leader, no protocol).
    pub none: &'static str,
    /// "Members" caption.
    pub members: &'static str,
    /// The placeholder shown while the group has no consumer.
    pub no_consumers: &'static str,
    /// The accessible description of the state diagram.
    pub state_diagram_label: &'static str,
    /// The text that marks the current state for screen readers and in print.
    pub current_state: &'static str,
    /// The five state names.
    pub states: StateNames,
    /// One sentence per state that explains it.
    pub state_explanations: StateNames,
    /// The client-side states.
    pub member_states: MemberStateNames,
    /// The group panel's other captions.
    pub group: GroupStrings,
    /// The toolbar.
    pub controls: ControlStrings,
    /// The stage.
    pub stage: StageStrings,
    /// Consumer cards.
    pub consumer: ConsumerStrings,
    /// The add-consumer form.
    pub form: FormStrings,
    /// Topics.
    pub topics: TopicStrings,
    /// The admin console.
    pub console: ConsoleStrings,
    /// The replication panel (the group's `__consumer_offsets` partition).
    pub replication: ReplicationStrings,
    /// The inspector.
    pub inspector: InspectorStrings,
    /// The event log.
    pub log: LogStrings,
    /// The help overlay.
    pub help: HelpStrings,
    /// Words for templates.
    pub words: Words,
    /// Explanations of log entries.
    pub explain: Explain,
    /// Explanations of the rarer log entries.
    pub explain_more: ExplainMore,
    /// Between two sentences put side by side: a space in English, nothing after Chinese
    /// punctuation.
    pub sentence_gap: &'static str,
    /// What the live region says when the group changes: "{state}, generation {gen}, leader {leader}".
    pub announce: &'static str,
    /// The share bar: link, export, import.
    pub share: ShareStrings,
    pub import: ImportStrings,
    /// Lesson mode.
    pub lessons: LessonStrings,
    /// The sequence diagram.
    pub sequence: SequenceStrings,
    /// Explanations of the consumer protocol's (KIP-848) coordinator events and records.
    pub consumer_explain: ConsumerExplain,
    /// Log entries of consumer-protocol (KIP-848) consumers.
    pub kip848_client: Kip848ClientStrings,
    /// Compare mode.
    pub compare: CompareStrings,
    /// How a consumer-protocol (KIP-848) group is drawn: its states, epochs and members.
    pub kip848_view: Kip848ViewStrings,
}

/// The consumer protocol's coordinator events and records (`explain_consumer.rs`). Kafka's names
/// (member states, group states, error codes) stay as they are in every language.
pub struct ConsumerExplain {
    /// A member joins: {member}, {group}.
    pub joined: &'static str,
    /// A static member joins: {member}, {instance}, {group}.
    pub joined_static: &'static str,
    /// A static member's new id replaces the old one: {new}, {old}, {instance}.
    pub static_replaced: &'static str,
    /// The group epoch was bumped: {group}, {epoch}.
    pub epoch_bumped: &'static str,
    /// A target was computed: {epoch}, {assignor}, {targets}.
    pub target: &'static str,
    /// The same with a scripted result: {epoch}, {entry}, {of}, {targets}.
    pub target_scripted: &'static str,
    /// The same, the first time after the script ran out: {epoch}, {assignor}, {after}, {targets}.
    pub target_script_ran_out: &'static str,
    /// One member's reconciliation: {member}, {state}, {epoch}, {assigned}.
    pub reconciled: &'static str,
    /// The same when it must revoke first: and {pending}.
    pub reconciled_revoking: &'static str,
    /// A static member left with -2: {member}, {instance}.
    pub static_left: &'static str,
    /// A member was removed: {member}, {reason}.
    pub fenced: &'static str,
    /// Reason: it left (-1).
    pub reason_left: &'static str,
    /// Reason: its session expired.
    pub reason_session: &'static str,
    /// Reason: it did not revoke in time: {epoch}, {ms}.
    pub reason_rebalance: &'static str,
    /// Reason: a classic member did not rejoin in time.
    pub reason_classic_join: &'static str,
    /// Reason: a classic member did not sync in time.
    pub reason_classic_sync: &'static str,
    /// The derived group state changed: {group}, {from}, {to}.
    pub state_changed: &'static str,
    /// Loaded from the log: {group}, {members}, {epoch}, {assignment_epoch}.
    pub loaded: &'static str,
    /// An empty classic group became a consumer group: {group}.
    pub empty_to_consumer: &'static str,
    /// An empty consumer group became a classic group: {group}.
    pub empty_to_classic: &'static str,
    /// Online upgrade: {group}, {members}.
    pub upgraded: &'static str,
    /// Online downgrade: {group}, {members}.
    pub downgraded: &'static str,
    /// Shown for an empty partition list.
    pub nothing: &'static str,
    /// A consumer-group record was appended: {p}, {offset}, {what}.
    pub record: &'static str,
    /// Record kinds: the group's epoch ({group}, {epoch}).
    pub record_epoch: &'static str,
    /// A member's subscription ({member}, {topics}).
    pub record_member: &'static str,
    /// The target's epoch ({group}, {epoch}).
    pub record_target_epoch: &'static str,
    /// A member's target ({member}, {partitions}).
    pub record_target: &'static str,
    /// A member's current assignment ({member}, {state}, {epoch}, {partitions}).
    pub record_current: &'static str,
    /// A tombstone ({what}).
    pub record_tombstone: &'static str,
}

/// Explanations of what a consumer-protocol (KIP-848) consumer does
/// (`ClientEvent::ConsumerProtocol`). Kafka's member state names stay as they are.
pub struct Kip848ClientStrings {
    /// It starts: {who}, {id} (its member id), {sub} (its subscription).
    pub started: &'static str,
    /// Its member state changed: {who}, {epoch}, {from}, {to}.
    pub state_changed: &'static str,
    /// A new target assignment arrived: {who}, {epoch}, {parts}.
    pub assignment_received: &'static str,
    /// A reconciliation started: {who}, {epoch}, {revoke}, {add}.
    pub reconciliation_started: &'static str,
    /// A reconciliation finished: {who}, {epoch}, {parts}.
    pub reconciliation_completed: &'static str,
    /// A reconciliation was dropped: {who}.
    pub reconciliation_discarded: &'static str,
    /// `max.poll.interval.ms` expired: {who}, {ms}, {epoch} (the leave epoch).
    pub poll_timer_expired: &'static str,
}

/// Compare mode (`components/compare_view.rs`).
pub struct CompareStrings {
    /// The button that opens compare mode.
    pub open: &'static str,
    /// The button that goes back to the normal session.
    pub close: &'static str,
    /// Why compare mode did not open: its code comes with the detail panels, which did not load.
    pub not_loaded: &'static str,
    /// The section's heading.
    pub heading: &'static str,
    /// One paragraph under it.
    pub intro: &'static str,
    /// The tabs' accessible name (on a phone one protocol is shown at a time).
    pub tabs: &'static str,
    /// Classic eager.
    pub eager: &'static str,
    /// Classic cooperative.
    pub cooperative: &'static str,
    /// The consumer protocol.
    pub consumer: &'static str,
    /// What each protocol does, one line each: eager, cooperative, consumer.
    pub eager_note: &'static str,
    /// See `eager_note`.
    pub cooperative_note: &'static str,
    /// See `eager_note`.
    pub consumer_note: &'static str,
    /// A protocol the engine refuses: "{why}" is its reason (English, naming the field).
    pub unavailable: &'static str,
    /// The group line: "{state}, generation {gen}".
    pub group: &'static str,
    /// The chart's accessible name: "{protocol}: partition ownership from {from} to {to}".
    pub chart: &'static str,
    /// How to read the chart.
    pub legend: &'static str,
    /// A lane's stretch: "{name}: {what} from {from} to {to}".
    pub stretch: &'static str,
    /// A stretch owning nothing.
    pub owns_nothing: &'static str,
    /// A stretch revoking: "revoking {parts}".
    pub revoking: &'static str,
    /// A stretch owning partitions: "owns {parts}".
    pub owns: &'static str,
    /// Shown while no consumer ran.
    pub empty: &'static str,
    /// The summary's accessible name: "{protocol}: numbers".
    pub summary: &'static str,
    /// Rebalances.
    pub rebalances: &'static str,
    /// Partitions revoked.
    pub revoked: &'static str,
    /// Unowned time, all partitions.
    pub unowned_total: &'static str,
    /// The longest unowned stretch.
    pub unowned_worst: &'static str,
    /// Requests sent.
    pub requests: &'static str,
    /// Duplicates processed.
    pub duplicates: &'static str,
}

/// The sequence diagram (`components/sequence_diagram.rs`).
pub struct SequenceStrings {
    /// The disclosure's title.
    pub heading: &'static str,
    /// One paragraph under it: how to read it; `{n}` is how many messages it shows.
    pub intro: &'static str,
    /// The drawing's accessible name.
    pub label: &'static str,
    /// The coordinator's role under its lifeline's name.
    pub coordinator: &'static str,
    /// Under a stopped consumer's name.
    pub stopped: &'static str,
    /// The marker of the shown time: "shown time {time}".
    pub now: &'static str,
    /// A message's accessible name: "{time}: {api} {kind} from {from} to {to}".
    pub message: &'static str,
    /// After an error response's name: "error {code}".
    pub error: &'static str,
    /// After a message a drop fault lost.
    pub lost: &'static str,
    /// After a message still on its way at the shown time.
    pub in_flight: &'static str,
    /// After a message recorded after the shown time.
    pub later: &'static str,
    /// The checkbox that shows or hides the routine messages.
    pub routine: &'static str,
    /// The export button.
    pub export: &'static str,
    /// Shown while there is no message.
    pub empty: &'static str,
    /// How to read the arrows.
    pub legend: &'static str,
    /// The exported file's title: "Consumer group {group}: protocol messages, {from} to {to}".
    pub file_title: &'static str,
}

/// Lesson mode.
pub struct LessonStrings {
    /// The panel's heading.
    pub heading: &'static str,
    /// The picker's label.
    pub pick: &'static str,
    /// The button that opens the picked lesson.
    pub open: &'static str,
    /// "Step {n} of {total}".
    pub step_of: &'static str,
    /// Back one step.
    pub back: &'static str,
    /// Forward one step.
    pub next: &'static str,
    /// Above a predict question.
    pub predict: &'static str,
    /// After a right answer.
    pub correct: &'static str,
    /// After a wrong answer: "Not quite: the answer is {answer}."
    pub incorrect: &'static str,
    /// Leave lesson mode.
    pub close: &'static str,
    /// The timeline slider's label.
    pub timeline: &'static str,
    /// Under the timeline once a long session dropped its oldest log lines ({t}: from when the
    /// log is complete).
    pub timeline_dropped: &'static str,
    /// Shown while a lesson's files download.
    pub loading: &'static str,
    /// A lesson that could not be opened: "Could not open “{title}”: {why}".
    pub load_failed: &'static str,
    /// Play or Step reached the end of the step.
    pub step_ended: &'static str,
    /// Play while a question waits.
    pub answer_first: &'static str,
    /// The last step's summary heading.
    pub summary: &'static str,
    /// The heading of the Kafka settings the lesson's scenario uses.
    pub settings: &'static str,
    /// The heading of the lesson's notes on Kafka's details.
    pub notes: &'static str,
    /// Which consumers have a value ({names}).
    pub for_consumers: &'static str,
    /// The coordinator's setting's Kafka name (`group.initial.rebalance.delay.ms`).
    pub initial_delay_setting: &'static str,
}

/// The share bar.
pub struct ShareStrings {
    /// Its heading.
    pub heading: &'static str,
    /// The label of the link field.
    pub link_label: &'static str,
    /// The copy button.
    pub copy: &'static str,
    /// Said after copying.
    pub copied: &'static str,
    /// The export button.
    pub export: &'static str,
    /// The import file input's label.
    pub import: &'static str,
    /// Said after an import: "Opened {name} at {time}."
    pub imported: &'static str,
    /// Before a bad link's reason.
    pub bad_link: &'static str,
    /// Before a bad file's reason.
    pub bad_file: &'static str,
    /// After a bad input: the session did not change.
    pub kept: &'static str,
    /// The share codec's errors, by kind.
    pub err_not_ours: &'static str,
    /// {v}: the version found.
    pub err_version: &'static str,
    /// {size}, {limit}.
    pub err_too_large: &'static str,
    pub err_checksum: &'static str,
    pub err_corrupt: &'static str,
    /// {why}: the validator's reason (the scenario format's field names).
    pub err_invalid: &'static str,
    /// {why}: the playground's reason (a field and its limit).
    pub err_replay: &'static str,
    /// After a bad link at the top: what the page did (the address bar keeps the link).
    pub link_kept: &'static str,
    /// The browser refused the autosave.
    pub autosave_failed: &'static str,
    /// The link or autosaved session the page opened with could not be read: the part of the
    /// playground that reads it did not load.
    pub not_restored: &'static str,
    /// The label of the button that dismisses the alert.
    pub dismiss: &'static str,
    /// {mode}: the text before the share string, as written (an unknown or doubled mode).
    pub err_mode: &'static str,
}

/// Importing a Kafka log, and what the importers say about a text that is not a scenario.
#[derive(Debug)]
pub struct ImportStrings {
    /// The log importer's heading.
    pub heading: &'static str,
    /// What it does.
    pub intro: &'static str,
    /// The paste area's label.
    pub paste_label: &'static str,
    /// The log file input's label.
    pub file: &'static str,
    /// The button that replays the pasted text.
    pub replay: &'static str,
    /// Said after a replay: {name}, {lines}.
    pub replayed: &'static str,
    /// Before a log's problem.
    pub bad_log: &'static str,
    /// {why}: the engine's count of what it read and what it looks for.
    pub no_group_lines: &'static str,
    /// A consumer-protocol group.
    pub consumer_protocol: &'static str,
    /// Said while the log reader (loaded on demand) loads and reads.
    pub loading: &'static str,
    /// The log reader could not be loaded: {file}, {why} (the browser's reason).
    pub worker_failed: &'static str,
    /// The imported scenario's panel heading.
    pub about: &'static str,
    /// The list of log lines.
    pub lines_heading: &'static str,
    /// The label of a log line's button: {line}, {time}.
    pub line_label: &'static str,
    /// {n}: lines on the timeline beyond the list.
    pub more_lines: &'static str,
    /// The timeline's marks.
    pub marks_label: &'static str,
    /// The scenario importer's advice for a log.
    pub is_log: &'static str,
    /// The button that replays that file as a log.
    pub open_as_log: &'static str,
    /// For `kafka-consumer-groups.sh --describe` output.
    pub is_describe: &'static str,
    /// For `kafka-topics.sh --describe` output.
    pub is_topics: &'static str,
    /// For a properties file.
    pub is_properties: &'static str,
    /// For a share link.
    pub is_link: &'static str,
    /// What the scenario importer accepts; {why}: the scenario parser's reason.
    pub accepts: &'static str,
}

/// How a consumer-protocol (KIP-848) group is drawn (group panel, state diagram, consumer cards,
/// compare columns). Kafka's names (group and member states) stay as they are in every language.
pub struct Kip848ViewStrings {
    /// The four derived states and Dead: Kafka's `ConsumerGroupState` names.
    pub states: ConsumerStateNames,
    /// One sentence per state that explains it.
    pub explanations: ConsumerStateNames,
    /// The group line: "{state}, group epoch {epoch} (target {target})".
    pub group_line: &'static str,
    /// The screen reader's announcement of a consumer group: {state}, {epoch}, {target}.
    pub announce: &'static str,
    /// "Group epoch" caption.
    pub group_epoch: &'static str,
    /// "Target assignment epoch" caption.
    pub assignment_epoch: &'static str,
    /// "Server assignor" caption.
    pub assignor: &'static str,
    /// The state diagram's accessible name.
    pub diagram_label: &'static str,
    /// Under the diagram: the state is derived, any state can follow any other.
    pub diagram_note: &'static str,
    /// "Member epoch" caption on a card.
    pub member_epoch: &'static str,
    /// The member's reconciliation state caption.
    pub member_state: &'static str,
    /// Shown beside the member epoch while it is behind the target: "target {target}".
    pub behind: &'static str,
    /// The partitions caption on a card.
    pub partitions: &'static str,
    /// A partition it owns and keeps.
    pub kept: &'static str,
    /// A partition it still has to revoke.
    pub to_revoke: &'static str,
    /// A partition of its target it waits for.
    pub awaiting: &'static str,
    /// The drawing's accessible name: "{name}: keeps {kept}; revokes {revoke}; waits for {awaiting}".
    pub strip_label: &'static str,
    /// Shown for no partition in a list.
    pub nothing: &'static str,
    /// What each member state means: STABLE.
    pub member_stable: &'static str,
    /// UNREVOKED_PARTITIONS.
    pub member_unrevoked: &'static str,
    /// UNRELEASED_PARTITIONS.
    pub member_unreleased: &'static str,
    /// UNKNOWN.
    pub member_unknown: &'static str,
    /// Not (or no longer) a member of the coordinator's group.
    pub not_member: &'static str,
    /// The difference to the classic protocol after a new target: {kept} (who keeps what),
    /// {moved} (what moves).
    pub only_moved: &'static str,
    /// One member keeping partitions: {member}, {parts}.
    pub keeps: &'static str,
    /// One partition moving: {part}, {from}, {to}.
    pub moves: &'static str,
    /// A new target that moves nothing anyone owned: {parts} (partitions given out that nobody owned).
    pub nothing_moved: &'static str,
    /// A partition leaving the assignment: {part}, {from}.
    pub moves_out: &'static str,
    /// Between the items of a list in a sentence.
    pub separator: &'static str,
    /// STABLE at an epoch older than the target's: the new target not heard of yet.
    pub member_stale: &'static str,
    /// [`Self::only_moved`] once reconciled, of the last target: {epoch}, {kept}, {moved}.
    pub last_only_moved: &'static str,
    /// [`Self::keeps`], past: {member}, {parts}.
    pub last_keeps: &'static str,
    /// [`Self::moves`], past: {part}, {from}, {to}.
    pub last_moves: &'static str,
    /// [`Self::moves_out`], past: {part}, {from}.
    pub last_moves_out: &'static str,
    /// [`Self::nothing_moved`], past: {epoch}, {parts}.
    pub last_nothing_moved: &'static str,
}

/// The names of a consumer group's states.
pub struct ConsumerStateNames {
    /// `Empty`.
    pub empty: &'static str,
    /// `Assigning`.
    pub assigning: &'static str,
    /// `Reconciling`.
    pub reconciling: &'static str,
    /// `Stable`.
    pub stable: &'static str,
    /// `Dead`.
    pub dead: &'static str,
}

/// Fills `{key}` placeholders in a template.
pub fn fill(template: &str, args: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + 32);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) => {
                let key = &after[..close];
                match args.iter().find(|(k, _)| *k == key) {
                    Some((_, v)) => out.push_str(v),
                    None => {
                        out.push('{');
                        out.push_str(key);
                        out.push('}');
                    }
                }
                rest = &after[close + 1..];
            }
            None => {
                out.push_str(&rest[open..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn browser_tags_pick_the_language() {
        assert_eq!(Lang::from_tag("zh-CN"), Lang::Zh);
        assert_eq!(Lang::from_tag("zh-TW"), Lang::Zh);
        assert_eq!(Lang::from_tag("ZH"), Lang::Zh);
        assert_eq!(Lang::from_tag("en-US"), Lang::En);
        assert_eq!(Lang::from_tag("fr"), Lang::En);
        assert_eq!(Lang::from_tag(""), Lang::En);
    }

    #[test]
    fn templates_fill_their_placeholders() {
        assert_eq!(
            fill("{who} joined gen {gen}", &[("who", "C3"), ("gen", "2")]),
            "C3 joined gen 2"
        );
        assert_eq!(fill("{unknown} stays", &[]), "{unknown} stays");
        assert_eq!(fill("open { brace", &[]), "open { brace");
    }

    #[test]
    fn every_template_placeholder_is_known_in_both_languages() {
        // Both tables use the same placeholders for the same template: a translator who renames
        // one would leave a literal `{x}` on screen.
        let keys = |t: &str| {
            let mut v: Vec<String> = t
                .split('{')
                .skip(1)
                .filter_map(|p| p.split_once('}').map(|(k, _)| k.to_owned()))
                .collect();
            v.sort();
            v
        };
        let en = Lang::En.strings();
        let zh = Lang::Zh.strings();
        for (a, b) in [
            (en.explain.member_joined, zh.explain.member_joined),
            (en.explain.join_completed, zh.explain.join_completed),
            (en.explain.session_expired, zh.explain.session_expired),
            (
                en.explain.coordinator_found_article,
                zh.explain.coordinator_found_article,
            ),
            (en.explain.sent_request, zh.explain.sent_request),
            (en.explain.sent_error, zh.explain.sent_error),
            (en.announce, zh.announce),
            (en.kip848_view.announce, zh.kip848_view.announce),
            (en.stage.token, zh.stage.token),
            (en.form.err_number, zh.form.err_number),
            (en.form.err_name_chars, zh.form.err_name_chars),
            (en.form.err_name_long, zh.form.err_name_long),
            (en.form.warn_session_range, zh.form.warn_session_range),
            (en.sequence.intro, zh.sequence.intro),
            (en.sequence.now, zh.sequence.now),
            (en.sequence.message, zh.sequence.message),
            (en.sequence.error, zh.sequence.error),
            (en.sequence.file_title, zh.sequence.file_title),
        ] {
            assert_eq!(keys(a), keys(b), "{a:?} vs {b:?}");
        }
    }

    #[test]
    fn tags_round_trip() {
        for lang in Lang::ALL {
            assert_eq!(Lang::from_tag(lang.tag()), lang);
        }
    }
}
