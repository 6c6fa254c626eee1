//! Sorting, with one compiled sort for the whole program.
//!
//! The standard library's `sort_by` is generic over the element type and the comparator, and every
//! closure is a type of its own: each call site compiles its own copy of the sort, about 4.5 KB of
//! WebAssembly. (So does `collect` into a `BTreeMap` or `BTreeSet`; the engine's own
//! [`crate::collections`] insert what they collect one at a time instead.) The functions here mean
//! the same as their `std` namesakes (a stable sort) but share a single compiled sort: they sort the
//! positions `0..n` with a comparator behind `&mut dyn FnMut`, then move the elements into that
//! order. What is left per call site is the comparator and the few lines that move the elements.
//!
//! Use them in code that ships in the playground's bundle (the engine and the UI); tests may use
//! `std`'s sorts freely.

use std::cmp::Ordering;

/// Sorts `v` in ascending order, keeping equal elements in their order (like `slice::sort`).
pub fn sort<T: Ord>(v: &mut [T]) {
    sort_by(v, T::cmp);
}

/// Sorts `v` with `compare`, keeping elements that compare equal in their order (like
/// `slice::sort_by`).
pub fn sort_by<T>(v: &mut [T], mut compare: impl FnMut(&T, &T) -> Ordering) {
    if v.len() < 2 {
        return;
    }
    let order = sorted_positions(v.len(), &mut |a, b| compare(&v[a], &v[b]));
    permute(v, order);
}

/// Sorts `v` by the key that `key` extracts, keeping elements with equal keys in their order (like
/// `slice::sort_by_key`, the key is computed at every comparison).
pub fn sort_by_key<T, K: Ord>(v: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(v, |a, b| key(a).cmp(&key(b)));
}

/// The one compiled sort: the positions `0..len`, stably sorted by `compare`.
fn sorted_positions(len: usize, compare: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<u32> {
    let len = u32::try_from(len).expect("fewer than 2^32 elements to sort");
    let mut order: Vec<u32> = (0..len).collect();
    order.sort_by(|&a, &b| compare(a as usize, b as usize));
    order
}

/// Rearranges `v` so that position `k` holds what was at `order[k]`, for every `k`, with one swap
/// per element out of place. `order` must be a permutation of `0..v.len()`.
///
/// Each cycle of the permutation is followed from its smallest position; an entry of `order` is
/// overwritten with its own position once that position holds its final element, so a finished
/// cycle reads as fixed points and is not followed again.
fn permute<T>(v: &mut [T], mut order: Vec<u32>) {
    for start in 0..v.len() {
        let mut hole = start;
        loop {
            let from = order[hole] as usize;
            order[hole] = hole as u32;
            if from == start {
                break;
            }
            v.swap(hole, from);
            hole = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// xorshift64: deterministic, so that a failing input is the same at every run.
    struct Rng(u64);

    impl Rng {
        /// A number in `0..below`.
        fn below(&mut self, below: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % below
        }
    }

    /// Lengths on both sides of the standard sort's thresholds (small sorts up to 20 elements,
    /// runs, merges), and a few large ones.
    const LENGTHS: [usize; 16] = [0, 1, 2, 3, 4, 7, 8, 9, 16, 20, 21, 32, 33, 100, 1000, 5000];

    /// Elements whose key repeats (keys below `keys`), each carrying its original position, so that
    /// the order of equal keys is visible, and an owned string, so that moves are checked.
    fn input(rng: &mut Rng, len: usize, keys: u64) -> Vec<(u64, usize, String)> {
        (0..len)
            .map(|i| {
                let key = rng.below(keys);
                (key, i, format!("{key}/{i}"))
            })
            .collect()
    }

    /// Every length, with few distinct keys (many ties), some, and almost all distinct.
    fn inputs() -> Vec<Vec<(u64, usize, String)>> {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut all = Vec::new();
        for len in LENGTHS {
            for keys in [1, 3, len as u64 / 4 + 1, u64::MAX] {
                all.push(input(&mut rng, len, keys));
            }
        }
        all
    }

    #[test]
    fn sort_by_key_orders_like_the_standard_stable_sort() {
        for v in inputs() {
            let mut expected = v.clone();
            expected.sort_by_key(|e| e.0);
            let mut got = v;
            sort_by_key(&mut got, |e| e.0);
            assert_eq!(got, expected);
        }
    }

    #[test]
    fn sort_by_orders_like_the_standard_stable_sort() {
        // Odd keys first, then descending keys: equal keys must still keep their original order,
        // not the reverse.
        let compare = |a: &(u64, usize, String), b: &(u64, usize, String)| {
            (b.0 % 2).cmp(&(a.0 % 2)).then(b.0.cmp(&a.0))
        };
        for v in inputs() {
            let mut expected = v.clone();
            expected.sort_by(compare);
            let mut got = v;
            sort_by(&mut got, compare);
            assert_eq!(got, expected);
        }
    }

    #[test]
    fn sort_orders_like_the_standard_sort() {
        for v in inputs() {
            let mut expected: Vec<String> = v.iter().map(|e| e.2.clone()).collect();
            let mut got = expected.clone();
            expected.sort();
            sort(&mut got);
            assert_eq!(got, expected);
        }
    }

    #[test]
    fn already_sorted_and_reversed_inputs_come_out_sorted() {
        for len in LENGTHS {
            let ascending: Vec<usize> = (0..len).collect();
            let mut got = ascending.clone();
            sort(&mut got);
            assert_eq!(got, ascending);
            got.reverse();
            sort(&mut got);
            assert_eq!(got, ascending);
        }
    }
}
