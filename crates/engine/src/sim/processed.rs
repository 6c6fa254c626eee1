//! The duplicate-processing ledger: which offsets of each partition have been processed.

use crate::sort::sort;

/// Sorted, disjoint `[from, to)` ranges of processed offsets of one partition.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct RangeSet(Vec<(i64, i64)>);

impl RangeSet {
    /// Adds `[from, to)`; returns how many of its offsets were already present.
    pub(super) fn insert(&mut self, from: i64, to: i64) -> u64 {
        if to <= from {
            return 0;
        }
        // The usual case, records after everything processed so far: no overlap, no new vector.
        match self.0.last_mut() {
            None => {
                self.0.push((from, to));
                return 0;
            }
            Some(last) if last.1 < from => {
                self.0.push((from, to));
                return 0;
            }
            Some(last) if last.1 == from => {
                last.1 = to;
                return 0;
            }
            _ => {}
        }
        let mut overlap = 0;
        let (mut lo, mut hi) = (from, to);
        let mut out = Vec::with_capacity(self.0.len() + 1);
        for &(a, b) in &self.0 {
            if b < lo || a > hi {
                out.push((a, b));
            } else {
                overlap += (b.min(to) - a.max(from)).max(0) as u64;
                lo = lo.min(a);
                hi = hi.max(b);
            }
        }
        out.push((lo, hi));
        sort(&mut out);
        self.0 = out;
        overlap
    }

    /// Whether every offset in `[0, upto)` is present.
    pub(super) fn covers(&self, upto: i64) -> bool {
        upto <= 0 || self.0.first().is_some_and(|&(a, b)| a <= 0 && b >= upto)
    }
}

#[cfg(test)]
mod tests {
    use super::RangeSet;

    #[test]
    fn range_set_counts_overlaps() {
        let mut r = RangeSet::default();
        assert_eq!(r.insert(0, 10), 0);
        assert_eq!(r.insert(20, 30), 0);
        assert_eq!(r.insert(5, 25), 10);
        assert_eq!(r.0, vec![(0, 30)]);
        assert!(r.covers(30));
        assert!(!r.covers(31));
        assert_eq!(r.insert(30, 31), 0);
        assert_eq!(r.0, vec![(0, 31)]);
    }
}
