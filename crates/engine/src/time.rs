//! Virtual time. The engine never reads a clock: every input carries the current [`SimTime`].

use std::fmt;
use std::ops::{Add, AddAssign, Sub};

use serde::{Deserialize, Serialize};

/// A point in simulated time, in milliseconds since the start of the simulation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SimTime(pub u64);

/// A span of simulated time, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SimDuration(pub u64);

impl SimTime {
    /// The start of every simulation.
    pub const ZERO: Self = Self(0);

    /// Milliseconds since the start of the simulation.
    pub const fn as_millis(self) -> u64 {
        self.0
    }

    /// The time elapsed since `earlier`, or zero if `earlier` is later than `self`.
    pub const fn saturating_since(self, earlier: Self) -> SimDuration {
        SimDuration(self.0.saturating_sub(earlier.0))
    }
}

impl SimDuration {
    /// No time at all.
    pub const ZERO: Self = Self(0);

    /// A duration of `ms` milliseconds.
    pub const fn from_millis(ms: u64) -> Self {
        Self(ms)
    }

    /// A duration of `s` seconds.
    pub const fn from_secs(s: u64) -> Self {
        Self(s.saturating_mul(1000))
    }

    /// The duration in milliseconds.
    pub const fn as_millis(self) -> u64 {
        self.0
    }
}

impl Add<SimDuration> for SimTime {
    type Output = Self;
    fn add(self, rhs: SimDuration) -> Self {
        Self(self.0.saturating_add(rhs.0))
    }
}

impl AddAssign<SimDuration> for SimTime {
    fn add_assign(&mut self, rhs: SimDuration) {
        *self = *self + rhs;
    }
}

impl Add for SimDuration {
    type Output = Self;
    /// Saturates at `u64::MAX` ms rather than wrapping.
    fn add(self, rhs: Self) -> Self {
        Self(self.0.saturating_add(rhs.0))
    }
}

impl Sub for SimTime {
    type Output = SimDuration;
    fn sub(self, rhs: Self) -> SimDuration {
        self.saturating_since(rhs)
    }
}

impl fmt::Display for SimTime {
    /// `t=12.345s`: seconds with millisecond precision, the way the event log prints time.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "t={}.{:03}s", self.0 / 1000, self.0 % 1000)
    }
}

impl fmt::Display for SimDuration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 % 1000 == 0 {
            write!(f, "{}s", self.0 / 1000)
        } else {
            write!(f, "{}ms", self.0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_uses_seconds_with_millis() {
        assert_eq!(SimTime(12_345).to_string(), "t=12.345s");
        assert_eq!(SimTime(3_000).to_string(), "t=3.000s");
        assert_eq!(SimDuration(45_000).to_string(), "45s");
        assert_eq!(SimDuration(1_500).to_string(), "1500ms");
    }

    #[test]
    fn arithmetic_saturates_instead_of_wrapping() {
        assert_eq!(SimTime(u64::MAX) + SimDuration(1), SimTime(u64::MAX));
        assert_eq!(SimTime(5) - SimTime(10), SimDuration::ZERO);
        assert_eq!(SimTime(10) - SimTime(4), SimDuration(6));
        assert_eq!(SimDuration(u64::MAX) + SimDuration(5), SimDuration(u64::MAX));
        assert_eq!(SimDuration::from_secs(u64::MAX), SimDuration(u64::MAX));
        let mut t = SimTime(u64::MAX - 1);
        t += SimDuration(10);
        assert_eq!(t, SimTime(u64::MAX));
    }
}
