//! Which Kafka release line the group coordinator imitates, and the coordinator settings that only
//! exist for some lines (reference `kip-848-protocol.md` §12, §10).
//!
//! The classic protocol behaves the same in every 4.x line the engine imitates; the consumer
//! protocol (KIP-848) does not. Each [`KafkaRelease`] predicate below is one row of §12, and the
//! coordinator asks the predicate, never the version number.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A Kafka release line of the group coordinator: the behaviour of that line's maintenance branch
/// (reference §0). The default is the newest line the reference describes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum KafkaRelease {
    /// 4.0: the consumer protocol is GA. Behaves as 4.1 in the simulation (4.1's metadata hash
    /// with racks, §12 V4, has no counterpart: the simulated brokers have no racks).
    #[serde(rename = "4.0")]
    V4_0,
    /// 4.1: the reference's baseline.
    #[serde(rename = "4.1")]
    V4_1,
    /// 4.2: no group-epoch bump just because the group is new (V3 removed), unsubscribed topics
    /// revoked at once (V6, KAFKA-19431), no `+1` when leaving `UNREVOKED_PARTITIONS` (V7,
    /// KAFKA-19974).
    #[serde(rename = "4.2")]
    V4_2,
    /// 4.3: groups start at epoch 1 (V8), assignment batching (V9), an existing static member
    /// skips the max-size check (V11).
    #[serde(rename = "4.3")]
    V4_3,
    /// 4.4: a change of the preferred server assignor bumps the group epoch (V12, KAFKA-20434).
    #[serde(rename = "4.4")]
    #[default]
    V4_4,
}

impl KafkaRelease {
    /// Every line, oldest first.
    pub const ALL: [KafkaRelease; 5] = [Self::V4_0, Self::V4_1, Self::V4_2, Self::V4_3, Self::V4_4];

    /// The newest line the reference describes (the default).
    pub const NEWEST: Self = Self::V4_4;

    /// `"4.0"` ... `"4.4"`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::V4_0 => "4.0",
            Self::V4_1 => "4.1",
            Self::V4_2 => "4.2",
            Self::V4_3 => "4.3",
            Self::V4_4 => "4.4",
        }
    }

    /// The accepted spellings, for messages: `"4.0, 4.1, 4.2, 4.3, 4.4"`.
    pub fn accepted() -> String {
        Self::ALL.map(Self::name).join(", ")
    }

    /// §12 V3: a brand-new group bumps its epoch on the first heartbeat whatever the subscription
    /// (`bumpGroupEpoch = groupEpoch == 0`), 4.0–4.1 only.
    pub fn bumps_new_group(self) -> bool {
        self <= Self::V4_1
    }

    /// §12 V6 (KAFKA-19431): partitions of topics the member no longer subscribes to move to
    /// pending revocation at once, before any new target; 4.2+.
    pub fn revokes_unsubscribed_at_once(self) -> bool {
        self >= Self::V4_2
    }

    /// §12 V7 (KAFKA-19974): leaving `UNREVOKED_PARTITIONS` reconciles from the member epoch, not
    /// `member epoch + 1`; 4.2+.
    pub fn unrevoked_plus_one(self) -> bool {
        self <= Self::V4_1
    }

    /// §12 V8: a new consumer group starts at group epoch 1 and target epoch 1, so the first
    /// computed target is epoch 2; 4.3+.
    pub fn initial_group_epoch(self) -> i32 {
        if self >= Self::V4_3 {
            1
        } else {
            0
        }
    }

    /// §12 V9: `group.consumer.assignment.interval.ms` batches target computations; 4.3+.
    pub fn batches_assignments(self) -> bool {
        self >= Self::V4_3
    }

    /// §12 V10 (KIP-1251): each owned partition keeps the epoch at which the member received it, and
    /// an OffsetCommit with an older member epoch is accepted for partitions held since then; 4.3+.
    pub fn per_partition_assignment_epochs(self) -> bool {
        self >= Self::V4_3
    }

    /// §12 V11: a join whose instance id is already in the group skips the max-size check; 4.3+.
    pub fn static_member_skips_max_size(self) -> bool {
        self >= Self::V4_3
    }

    /// §12 V12 (KAFKA-20434): a change of the group's preferred server assignor bumps the group
    /// epoch; 4.4+.
    pub fn assignor_change_bumps(self) -> bool {
        self >= Self::V4_4
    }

    /// KAFKA-19233 (apache/kafka#21305, merged to trunk in January 2026, when trunk was 4.3): a
    /// member that rejoins with epoch 0 under its own member id is accepted whatever the epoch the
    /// coordinator knows (`throwIfConsumerGroupMemberEpochIsInvalid` returns early for epoch 0);
    /// before, epoch 0 was checked like any smaller epoch and a fenced member that was still in the
    /// group got `FENCED_MEMBER_EPOCH` on every rejoin until its session expired. 4.3+ here;
    /// whether the fix was backported to a 4.1.x or 4.2.x patch release is not confirmed.
    pub fn accepts_rejoin_at_epoch_zero(self) -> bool {
        self >= Self::V4_3
    }
}

impl fmt::Display for KafkaRelease {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A `kafka_version` the coordinator does not imitate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownKafkaRelease(pub String);

impl fmt::Display for UnknownKafkaRelease {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a Kafka line the coordinator imitates; accepted: {} (a patch release such as 4.1.1 \
             means its line)",
            self.0,
            KafkaRelease::accepted()
        )
    }
}

impl std::error::Error for UnknownKafkaRelease {}

impl FromStr for KafkaRelease {
    type Err = UnknownKafkaRelease;

    /// `"4.1"`, or a patch release of a line (`"4.1.1"`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || UnknownKafkaRelease(s.to_owned());
        let mut parts = s.split('.');
        let (Some(major), Some(minor)) = (parts.next(), parts.next()) else {
            return Err(err());
        };
        if let Some(patch) = parts.next() {
            if patch.is_empty() || !patch.bytes().all(|b| b.is_ascii_digit()) || parts.next().is_some() {
                return Err(err());
            }
        }
        let line = format!("{major}.{minor}");
        Self::ALL.into_iter().find(|v| v.name() == line).ok_or_else(err)
    }
}

/// `group.consumer.migration.policy` (Kafka: `ConsumerGroupMigrationPolicy`; default
/// `bidirectional` since 4.0): which online conversions between a classic and a consumer group the
/// coordinator makes (reference §10).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MigrationPolicy {
    /// No online conversion; empty groups are still converted.
    Disabled,
    /// Classic to consumer only.
    Upgrade,
    /// Consumer to classic only.
    Downgrade,
    /// Both ways.
    #[default]
    Bidirectional,
}

impl MigrationPolicy {
    /// Every policy.
    pub const ALL: [MigrationPolicy; 4] = [
        Self::Disabled,
        Self::Upgrade,
        Self::Downgrade,
        Self::Bidirectional,
    ];

    /// Kafka's spelling.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Disabled => "disabled",
            Self::Upgrade => "upgrade",
            Self::Downgrade => "downgrade",
            Self::Bidirectional => "bidirectional",
        }
    }

    /// Whether a non-empty classic group may be upgraded online.
    pub fn allows_upgrade(self) -> bool {
        matches!(self, Self::Upgrade | Self::Bidirectional)
    }

    /// Whether a consumer group may be downgraded online.
    pub fn allows_downgrade(self) -> bool {
        matches!(self, Self::Downgrade | Self::Bidirectional)
    }
}

impl fmt::Display for MigrationPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for MigrationPolicy {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|p| p.name() == s.to_ascii_lowercase())
            .ok_or_else(|| {
                format!(
                    "`{s}` is not a group.consumer.migration.policy; accepted: {}",
                    Self::ALL.map(Self::name).join(", ")
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_parse_and_print() {
        for v in KafkaRelease::ALL {
            assert_eq!(v.name().parse::<KafkaRelease>(), Ok(v));
            assert_eq!(v.to_string(), v.name());
        }
        assert_eq!("4.1.1".parse::<KafkaRelease>(), Ok(KafkaRelease::V4_1));
        for bad in ["", "4", "3.9", "4.5", "4.1.", "4.1.x", "4.1.1.1", "x.y"] {
            let e = bad.parse::<KafkaRelease>().unwrap_err();
            assert!(e.to_string().contains("4.0, 4.1, 4.2, 4.3, 4.4"), "{e}");
        }
        assert_eq!(KafkaRelease::default(), KafkaRelease::NEWEST);
    }

    #[test]
    fn policies_parse() {
        for p in MigrationPolicy::ALL {
            assert_eq!(p.name().parse::<MigrationPolicy>(), Ok(p));
        }
        assert!("both"
            .parse::<MigrationPolicy>()
            .unwrap_err()
            .contains("bidirectional"));
    }
}
