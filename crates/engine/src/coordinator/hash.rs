//! A fixed, fast hash for the coordinator's internal indexes (timer keys, member ids).

use std::hash::{BuildHasherDefault, Hash, Hasher};

/// A word-at-a-time multiplicative hash over the key's `Hash` stream: fixed (no random state), cheap
/// for short ids. Only ever used to find candidates in an index, never to order anything that reaches
/// an output.
pub(crate) struct KeyHasher(u64);

impl KeyHasher {
    const SEED: u64 = 0xcbf2_9ce4_8422_2325;

    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    fn write_i32(&mut self, i: i32) {
        self.add(i as u32 as u64);
    }

    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    fn write_isize(&mut self, i: isize) {
        self.add(i as u64);
    }
}

/// `value`'s hash under [`KeyHasher`].
pub(crate) fn hash_of<T: Hash + ?Sized>(value: &T) -> u64 {
    let mut h = KeyHasher(KeyHasher::SEED);
    value.hash(&mut h);
    h.finish()
}

/// Hash of a key → the first slot of the chain of keys with that hash: the lookup index of the timer
/// table and of a group's members.
///
/// A `HashMap` on purpose, and safe for determinism: it is only ever probed by key (`get`, `insert`,
/// `remove`), never iterated, so its order cannot reach an output; the keys are already
/// [`hash_of`] values and [`Prehashed`] has no random state, so even its layout is a function of the
/// operations alone. A `BTreeMap` here cost a tree walk with unpredictable branches per heartbeat.
// The engine's one `HashMap` (clippy.toml bans the type elsewhere), for the reasons above.
#[allow(clippy::disallowed_types)]
pub(crate) type HashIndex = std::collections::HashMap<u64, u32, BuildHasherDefault<Prehashed>>;

/// The hasher of [`HashIndex`], whose keys are hashes already: it only folds the high bits into the
/// low ones, which pick the bucket.
#[derive(Default)]
pub(crate) struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 32)
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `u64` keys are hashed; be correct (if slow) for anything else.
        for b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(*b);
        }
    }

    fn write_u64(&mut self, i: u64) {
        self.0 = i;
    }
}
