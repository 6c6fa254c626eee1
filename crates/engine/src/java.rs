//! The few pieces of Java semantics that Kafka's behaviour depends on.
//!
//! Kafka maps a group to a `__consumer_offsets` partition with Java's `String.hashCode`, and its
//! assignors sort member ids with Java's `String.compareTo`. Both work on UTF-16 code units, not on
//! Rust's UTF-8 bytes, so they are reproduced here exactly.

use std::cmp::Ordering;

/// Java's `String.hashCode`: `h = 31 * h + c` over UTF-16 code units, in wrapping 32-bit arithmetic.
pub fn string_hash_code(s: &str) -> i32 {
    s.encode_utf16()
        .fold(0i32, |h, unit| h.wrapping_mul(31).wrapping_add(i32::from(unit)))
}

/// Kafka's `Utils.abs`: `Math.abs`, except that `Integer.MIN_VALUE` maps to 0 (not to itself).
pub fn kafka_abs(n: i32) -> i32 {
    if n == i32::MIN {
        0
    } else {
        n.abs()
    }
}

/// Java's `String.compareTo`: lexicographic order of UTF-16 code units.
///
/// This differs from Rust's `str` order only for characters above U+FFFF compared with characters
/// in U+E000..=U+FFFF, but a faithful simulator gets that right too.
pub fn string_compare(a: &str, b: &str) -> Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

#[cfg(test)]
mod tests {
    use super::*;

    // Values from the reference's §6 table, computed there with JDK 17.
    #[test]
    fn hash_code_matches_jdk() {
        assert_eq!(string_hash_code("test_group_1"), -993_617_980);
        assert_eq!(string_hash_code("my-group"), -1_906_497_762);
        assert_eq!(string_hash_code("console-consumer-1"), 35_782_224);
        assert_eq!(string_hash_code("group-id"), 506_313_513);
        assert_eq!(string_hash_code(""), 0);
        assert_eq!(string_hash_code("polygenelubricants"), i32::MIN);
    }

    #[test]
    fn kafka_abs_maps_min_value_to_zero() {
        assert_eq!(kafka_abs(i32::MIN), 0);
        assert_eq!(kafka_abs(-993_617_980), 993_617_980);
        assert_eq!(kafka_abs(7), 7);
    }

    #[test]
    fn compare_uses_utf16_code_units() {
        assert_eq!(string_compare("consumer-10-x", "consumer-2-y"), Ordering::Less);
        // U+FF21 (one unit, 0xFF21) sorts after U+1F600 (surrogates 0xD83D 0xDE00) in Java,
        // although Rust's byte order puts it first.
        assert_eq!(string_compare("\u{FF21}", "\u{1F600}"), Ordering::Greater);
        assert_eq!("\u{FF21}".cmp("\u{1F600}"), Ordering::Less);
    }
}
