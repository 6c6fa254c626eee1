//! [`Map`] and [`Set`]: the engine's ordered map and set, sorted vectors ([`litemap::LiteMap`])
//! behind the part of `BTreeMap`'s and `BTreeSet`'s API the engine uses.
//!
//! A `BTreeMap` compiles its node code (search, split, merge, clone, drop) once for every key and
//! value type: about 5 KB of WebAssembly each, and the engine has dozens of them. A sorted vector
//! needs a binary search and a `Vec` insert or remove, a fraction of that. Its iteration order, its
//! equality and its JSON are those of the `BTreeMap` it replaces (keys in ascending order; for a
//! repeated key in JSON, the last value wins), so the engine's output does not change.
//!
//! An insert or a remove moves the entries after it: fine for the maps of a group (members,
//! topics, partitions, offsets), which are small or grow at their end. The queues that take and
//! give their entries in time order at every step stay B-trees: the simulation's schedule and its
//! consumers' deadlines, the network's messages in flight, the coordinator's appends waiting for
//! their replicas.
//!
//! Collecting or extending inserts the entries one at a time, without sorting them first, so that
//! no map type brings a sort of its own into the bundle (see [`crate::sort`]).

use std::borrow::Borrow;
use std::fmt;
use std::ops::{Bound, Index, RangeBounds};

use litemap::LiteMap;
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, Serializer};

pub use litemap::Entry;

/// An ordered map from `K` to `V`, with `BTreeMap`'s meaning (see the module's documentation).
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Map<K, V>(LiteMap<K, V>);

impl<K, V> Map<K, V> {
    /// An empty map.
    pub const fn new() -> Self {
        Self(LiteMap::new_vec())
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the map has no entry.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Removes every entry.
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// The entries, in ascending order of their keys.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&K, &V)> + ExactSizeIterator + Clone {
        self.0.iter()
    }

    /// The entries, in ascending order of their keys, with their values mutable.
    pub fn iter_mut(&mut self) -> impl DoubleEndedIterator<Item = (&K, &mut V)> + ExactSizeIterator {
        self.0.iter_mut()
    }

    /// The keys, in ascending order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &K> + ExactSizeIterator + Clone {
        self.0.iter().map(|(k, _)| k)
    }

    /// The values, in ascending order of their keys.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator + Clone {
        self.0.iter().map(|(_, v)| v)
    }

    /// The values, mutable, in ascending order of their keys.
    pub fn values_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut V> + ExactSizeIterator {
        self.0.iter_mut().map(|(_, v)| v)
    }

    /// The keys, in ascending order, consuming the map.
    pub fn into_keys(self) -> impl DoubleEndedIterator<Item = K> + ExactSizeIterator {
        self.0.into_iter().map(|(k, _)| k)
    }

    /// The values, in ascending order of their keys, consuming the map.
    pub fn into_values(self) -> impl DoubleEndedIterator<Item = V> + ExactSizeIterator {
        self.0.into_iter().map(|(_, v)| v)
    }

    /// The entry with the smallest key.
    pub fn first_key_value(&self) -> Option<(&K, &V)> {
        self.0.first()
    }

    /// The entry with the largest key.
    pub fn last_key_value(&self) -> Option<(&K, &V)> {
        self.0.last()
    }
}

impl<K: Ord, V> Map<K, V> {
    /// The value of `key`.
    pub fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.0.get(key)
    }

    /// The value of `key`, mutable.
    pub fn get_mut<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        self.0.get_mut(key)
    }

    /// Whether the map has `key`.
    pub fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.0.contains_key(key)
    }

    /// Sets the value of `key`; its previous value.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        self.0.insert(key, value)
    }

    /// Removes `key`; its value.
    pub fn remove<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        self.0.remove(key)
    }

    /// The entry of `key`, to read, insert or change in place.
    pub fn entry(&mut self, key: K) -> Entry<'_, K, V, Vec<(K, V)>> {
        self.0.entry(key)
    }

    /// Keeps only the entries for which `keep` says so.
    pub fn retain(&mut self, mut keep: impl FnMut(&K, &mut V) -> bool) {
        let mut entries = std::mem::take(&mut self.0).into_tuple_vec();
        entries.retain_mut(|(k, v)| keep(k, v));
        self.0 = LiteMap::from_sorted_store_unchecked(entries);
    }

    /// The entries whose keys are in `range`, in ascending order.
    pub fn range<R: RangeBounds<K>>(&self, range: R) -> impl DoubleEndedIterator<Item = (&K, &V)> {
        let at = |found: Result<usize, usize>| found.unwrap_or_else(|i| i);
        let after = |found: Result<usize, usize>| found.map_or_else(|i| i, |i| i + 1);
        let start = match range.start_bound() {
            Bound::Included(k) => at(self.0.find_index(k)),
            Bound::Excluded(k) => after(self.0.find_index(k)),
            Bound::Unbounded => 0,
        };
        let end = match range.end_bound() {
            Bound::Included(k) => after(self.0.find_index(k)),
            Bound::Excluded(k) => at(self.0.find_index(k)),
            Bound::Unbounded => self.len(),
        };
        self.0.iter().skip(start).take(end.saturating_sub(start))
    }
}

impl<K, V> Default for Map<K, V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for Map<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.0.iter()).finish()
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for Map<K, V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(entries: I) -> Self {
        let mut map = Self::new();
        map.extend(entries);
        map
    }
}

impl<K: Ord, V> Extend<(K, V)> for Map<K, V> {
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, entries: I) {
        for (k, v) in entries {
            self.0.insert(k, v);
        }
    }
}

impl<K: Ord, V, const N: usize> From<[(K, V); N]> for Map<K, V> {
    fn from(entries: [(K, V); N]) -> Self {
        entries.into_iter().collect()
    }
}

impl<K, V> IntoIterator for Map<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_tuple_vec().into_iter()
    }
}

impl<'a, K, V> IntoIterator for &'a Map<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = <&'a LiteMap<K, V> as IntoIterator>::IntoIter;
    fn into_iter(self) -> Self::IntoIter {
        (&self.0).into_iter()
    }
}

impl<'a, K, V> IntoIterator for &'a mut Map<K, V> {
    type Item = (&'a K, &'a mut V);
    type IntoIter = <&'a mut LiteMap<K, V> as IntoIterator>::IntoIter;
    fn into_iter(self) -> Self::IntoIter {
        (&mut self.0).into_iter()
    }
}

impl<K: Ord + Borrow<Q>, Q: Ord + ?Sized, V> Index<&Q> for Map<K, V> {
    type Output = V;
    fn index(&self, key: &Q) -> &V {
        self.get(key).expect("no entry for the key")
    }
}

impl<K: Serialize, V: Serialize> Serialize for Map<K, V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.len()))?;
        for (k, v) in self.0.iter() {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de, K: Ord + Deserialize<'de>, V: Deserialize<'de>> Deserialize<'de> for Map<K, V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Entries<K, V>(std::marker::PhantomData<(K, V)>);
        impl<'de, K: Ord + Deserialize<'de>, V: Deserialize<'de>> Visitor<'de> for Entries<K, V> {
            type Value = Map<K, V>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Map<K, V>, A::Error> {
                let mut map = Map::new();
                while let Some((k, v)) = access.next_entry()? {
                    map.insert(k, v);
                }
                Ok(map)
            }
        }
        deserializer.deserialize_map(Entries(std::marker::PhantomData))
    }
}

/// An ordered set of `T`, with `BTreeSet`'s meaning: a [`Map`] from each item to nothing.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Set<T>(Map<T, ()>);

impl<T> Set<T> {
    /// An empty set.
    pub const fn new() -> Self {
        Self(Map::new())
    }

    /// The number of items.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the set has no item.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Removes every item.
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// The items, in ascending order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &T> + ExactSizeIterator + Clone {
        self.0.keys()
    }

    /// The smallest item.
    pub fn first(&self) -> Option<&T> {
        self.0.first_key_value().map(|(k, _)| k)
    }

    /// The largest item.
    pub fn last(&self) -> Option<&T> {
        self.0.last_key_value().map(|(k, _)| k)
    }
}

impl<T: Ord> Set<T> {
    /// Whether the set holds `item`.
    pub fn contains<Q: Ord + ?Sized>(&self, item: &Q) -> bool
    where
        T: Borrow<Q>,
    {
        self.0.contains_key(item)
    }

    /// Adds `item`; whether it was new.
    pub fn insert(&mut self, item: T) -> bool {
        match self.0.entry(item) {
            Entry::Occupied(_) => false,
            Entry::Vacant(v) => {
                v.insert(());
                true
            }
        }
    }

    /// Removes `item`; whether it was there.
    pub fn remove<Q: Ord + ?Sized>(&mut self, item: &Q) -> bool
    where
        T: Borrow<Q>,
    {
        self.0.remove(item).is_some()
    }

    /// Keeps only the items for which `keep` says so.
    pub fn retain(&mut self, mut keep: impl FnMut(&T) -> bool) {
        self.0.retain(|k, ()| keep(k));
    }

    /// The items of `self` that `other` does not hold, in ascending order.
    pub fn difference<'a>(&'a self, other: &'a Set<T>) -> impl DoubleEndedIterator<Item = &'a T> + Clone {
        self.iter().filter(move |t| !other.contains(*t))
    }

    /// The items both sets hold, in ascending order.
    pub fn intersection<'a>(&'a self, other: &'a Set<T>) -> impl DoubleEndedIterator<Item = &'a T> + Clone {
        self.iter().filter(move |t| other.contains(*t))
    }

    /// Whether every item of `self` is in `other`.
    pub fn is_subset(&self, other: &Set<T>) -> bool {
        self.iter().all(|t| other.contains(t))
    }

    /// Whether the sets have no item in common.
    pub fn is_disjoint(&self, other: &Set<T>) -> bool {
        self.iter().all(|t| !other.contains(t))
    }
}

impl<T> Default for Set<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: fmt::Debug> fmt::Debug for Set<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl<T: Ord> FromIterator<T> for Set<T> {
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Self {
        let mut set = Self::new();
        set.extend(items);
        set
    }
}

impl<T: Ord> Extend<T> for Set<T> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, items: I) {
        for t in items {
            self.insert(t);
        }
    }
}

impl<'a, T: Ord + Copy + 'a> Extend<&'a T> for Set<T> {
    fn extend<I: IntoIterator<Item = &'a T>>(&mut self, items: I) {
        self.extend(items.into_iter().copied());
    }
}

impl<T: Ord, const N: usize> From<[T; N]> for Set<T> {
    fn from(items: [T; N]) -> Self {
        items.into_iter().collect()
    }
}

impl<T> IntoIterator for Set<T> {
    type Item = T;
    type IntoIter = std::iter::Map<std::vec::IntoIter<(T, ())>, fn((T, ())) -> T>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter().map(|(t, ())| t)
    }
}

impl<'a, T> IntoIterator for &'a Set<T> {
    type Item = &'a T;
    type IntoIter = std::iter::Map<<&'a Map<T, ()> as IntoIterator>::IntoIter, fn((&'a T, &'a ())) -> &'a T>;
    fn into_iter(self) -> Self::IntoIter {
        (&self.0).into_iter().map(|(t, _)| t)
    }
}

impl<T: Serialize> Serialize for Set<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de, T: Ord + Deserialize<'de>> Deserialize<'de> for Set<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Items<T>(std::marker::PhantomData<T>);
        impl<'de, T: Ord + Deserialize<'de>> Visitor<'de> for Items<T> {
            type Value = Set<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a sequence")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut access: A) -> Result<Set<T>, A::Error> {
                let mut set = Set::new();
                while let Some(t) = access.next_element()? {
                    set.insert(t);
                }
                Ok(set)
            }
        }
        deserializer.deserialize_seq(Items(std::marker::PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::{Map, Set};
    use std::collections::{BTreeMap, BTreeSet};

    /// A stream of pseudo-random numbers (a fixed LCG: the test is the same on every run).
    fn numbers(seed: u64) -> impl Iterator<Item = u64> {
        let mut x = seed;
        std::iter::repeat_with(move || {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            x >> 33
        })
    }

    #[test]
    fn every_operation_answers_what_a_btree_map_answers() {
        for seed in 0..20 {
            let mut map: Map<u64, u64> = Map::new();
            let mut model: BTreeMap<u64, u64> = BTreeMap::new();
            let mut n = numbers(seed);
            for step in 0..2_000 {
                let key = n.next().unwrap() % 64;
                match n.next().unwrap() % 8 {
                    0 | 1 => assert_eq!(map.insert(key, step), model.insert(key, step)),
                    2 => assert_eq!(map.remove(&key), model.remove(&key)),
                    3 => {
                        *map.entry(key).or_insert(0) += 1;
                        *model.entry(key).or_insert(0) += 1;
                    }
                    4 => {
                        let keep = n.next().unwrap() % 4;
                        map.retain(|k, v| {
                            *v += 1;
                            k % 4 != keep
                        });
                        model.retain(|k, v| {
                            *v += 1;
                            k % 4 != keep
                        });
                    }
                    5 => {
                        let (a, b) = (key, n.next().unwrap() % 64);
                        let (lo, hi) = (a.min(b), a.max(b));
                        assert!(map.range(lo..hi).eq(model.range(lo..hi)), "range {lo}..{hi}");
                        assert!(map.range(lo..=hi).eq(model.range(lo..=hi)), "range {lo}..={hi}");
                        assert!(map.range(..hi).eq(model.range(..hi)), "range ..{hi}");
                        assert!(map.range(lo..).eq(model.range(lo..)), "range {lo}..");
                    }
                    6 => map.values_mut().zip(model.values_mut()).for_each(|(a, b)| {
                        *a += 2;
                        *b += 2;
                    }),
                    _ => assert_eq!(map.get(&key), model.get(&key)),
                }
                if step % 3 == 0 {
                    *model.entry(key).or_insert(0) += 1;
                    *map.entry(key).or_insert(0) += 1;
                }
                assert_eq!(map.len(), model.len());
                assert!(
                    map.iter().eq(model.iter()),
                    "seed {seed}, step {step}: {map:?} against {model:?}"
                );
            }
            assert_eq!(map.first_key_value(), model.first_key_value());
            assert_eq!(map.last_key_value(), model.last_key_value());
            assert!(map.clone().into_iter().eq(model.clone()));
        }
    }

    #[test]
    fn collecting_keeps_the_last_value_of_a_repeated_key_in_key_order() {
        let pairs = [(3, "c"), (1, "a"), (3, "z"), (2, "b")];
        let map: Map<i32, &str> = pairs.into_iter().collect();
        let model: BTreeMap<i32, &str> = pairs.into_iter().collect();
        assert!(map.iter().eq(model.iter()));
        assert_eq!(map, Map::from([(1, "a"), (2, "b"), (3, "z")]));
    }

    #[test]
    fn collecting_holds_what_a_btree_map_or_set_collects() {
        for seed in 0..20 {
            // Repeated keys, in no order: for a repeated key, the last value wins.
            let pairs = || numbers(seed).take(300).enumerate().map(|(i, x)| (x % 50, i));
            let map: Map<u64, usize> = pairs().collect();
            let model: BTreeMap<u64, usize> = pairs().collect();
            assert!(map.iter().eq(model.iter()), "{map:?} against {model:?}");
            let set: Set<u64> = pairs().map(|(k, _)| k).collect();
            let model: BTreeSet<u64> = pairs().map(|(k, _)| k).collect();
            assert!(set.iter().eq(model.iter()), "{set:?} against {model:?}");
        }
    }

    #[test]
    fn json_is_a_btree_map_s() {
        let model: BTreeMap<String, Vec<i32>> =
            [("orders".to_string(), vec![0, 1]), ("audit".to_string(), vec![])]
                .into_iter()
                .collect();
        let map: Map<String, Vec<i32>> = model.clone().into_iter().collect();
        let json = serde_json::to_string(&model).unwrap();
        assert_eq!(serde_json::to_string(&map).unwrap(), json);
        let back: Map<String, Vec<i32>> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, map);
        // A repeated key: the last value wins, as for a BTreeMap.
        let twice = r#"{"b":[1],"a":[2],"b":[3]}"#;
        let model: BTreeMap<String, Vec<i32>> = serde_json::from_str(twice).unwrap();
        let map: Map<String, Vec<i32>> = serde_json::from_str(twice).unwrap();
        assert!(map.iter().eq(model.iter()));
        // Not a map: the same message.
        let a = serde_json::from_str::<BTreeMap<String, i32>>("[1]")
            .unwrap_err()
            .to_string();
        let b = serde_json::from_str::<Map<String, i32>>("[1]")
            .unwrap_err()
            .to_string();
        assert_eq!(a, b);
    }

    #[test]
    fn a_set_answers_what_a_btree_set_answers() {
        for seed in 0..20 {
            let mut set: Set<u64> = Set::new();
            let mut model: BTreeSet<u64> = BTreeSet::new();
            let other: Set<u64> = numbers(seed + 100).take(20).map(|x| x % 64).collect();
            let other_model: BTreeSet<u64> = other.iter().copied().collect();
            let mut n = numbers(seed);
            for step in 0..2_000 {
                let item = n.next().unwrap() % 64;
                match n.next().unwrap() % 5 {
                    0 | 1 => assert_eq!(set.insert(item), model.insert(item)),
                    2 => assert_eq!(set.remove(&item), model.remove(&item)),
                    3 => {
                        set.retain(|t| t % 5 != item % 5);
                        model.retain(|t| t % 5 != item % 5);
                    }
                    _ => assert_eq!(set.contains(&item), model.contains(&item)),
                }
                assert!(
                    set.iter().eq(model.iter()),
                    "seed {seed}, step {step}: {set:?} against {model:?}"
                );
                assert!(set.difference(&other).eq(model.difference(&other_model)));
                assert!(set.intersection(&other).eq(model.intersection(&other_model)));
                assert_eq!(set.is_subset(&other), model.is_subset(&other_model));
                assert_eq!(set.is_disjoint(&other), model.is_disjoint(&other_model));
            }
            assert_eq!(set.first(), model.first());
            assert_eq!(set.last(), model.last());
            let json = serde_json::to_string(&model).unwrap();
            assert_eq!(serde_json::to_string(&set).unwrap(), json);
            assert_eq!(
                serde_json::from_str::<Set<u64>>("[3,1,3,2]").unwrap(),
                Set::from([1, 2, 3])
            );
        }
    }
}
