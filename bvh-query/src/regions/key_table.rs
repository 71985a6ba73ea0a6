//! A table from integer keys to indices, for the keys the regions make themselves.

/// A table from `u32` or `u64` keys to `u32` indices, open-addressed with linear probing: the
/// regions' two lookups per intersection end and nine per pair spent most of their time in a
/// general hash map. Each key is stored one higher, so that zero marks an empty slot (a new
/// table is zeroed memory, not filled); the two largest keys share one entry. Keys that fit
/// in 32 bits make slots of 8 bytes: half the memory to zero and to miss in the cache.
pub(super) struct KeyTable<K> {
    /// Each slot's stored key and value side by side: a probe reads one cache line.
    slots: Vec<(K, u32)>,
    mask: usize,
    len: usize,
}

/// An integer a [`KeyTable`] takes as its key.
pub(super) trait Key: Copy + Eq + Default + Into<u64> {
    /// The stored form of the key: never zero.
    fn stored(self) -> Self;

    /// The key's bits spread over a word, to pick its first slot from.
    fn spread(self) -> usize {
        (self.into().wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as usize
    }
}

impl Key for u32 {
    fn stored(self) -> Self {
        self.min(u32::MAX - 1) + 1
    }
}

impl Key for u64 {
    fn stored(self) -> Self {
        self.min(u64::MAX - 1) + 1
    }
}

impl<K: Key> KeyTable<K> {
    /// Room for `expected` keys at most half full (more make it grow).
    pub(super) fn new(expected: usize) -> Self {
        let slots = (2 * expected).next_power_of_two().max(16);
        Self { slots: vec![(K::default(), 0); slots], mask: slots - 1, len: 0 }
    }

    /// The slot holding the stored key `key`, or the empty one where it would go.
    fn slot(&self, key: K) -> usize {
        let mut slot = key.spread() & self.mask;
        while self.slots[slot].0 != key && self.slots[slot].0 != K::default() {
            slot = (slot + 1) & self.mask;
        }
        slot
    }

    pub(super) fn get(&self, key: K) -> Option<u32> {
        let key = key.stored();
        let (stored, value) = self.slots[self.slot(key)];
        (stored == key).then_some(value)
    }

    /// The value of `key`, `value` put there first if it had none.
    pub(super) fn get_or_insert(&mut self, key: K, value: u32) -> u32 {
        let key = key.stored();
        let slot = self.slot(key);
        if self.slots[slot].0 == key {
            return self.slots[slot].1;
        }
        self.put(slot, key, value);
        value
    }

    /// Puts `value` at `key`, returning the value it replaces.
    pub(super) fn insert(&mut self, key: K, value: u32) -> Option<u32> {
        let key = key.stored();
        let slot = self.slot(key);
        if self.slots[slot].0 == key {
            return Some(std::mem::replace(&mut self.slots[slot].1, value));
        }
        self.put(slot, key, value);
        None
    }

    /// Fills the empty `slot` with a new stored key, doubling the table once it is half full.
    fn put(&mut self, slot: usize, key: K, value: u32) {
        self.slots[slot] = (key, value);
        self.len += 1;
        if 2 * self.len > self.slots.len() {
            let mut grown = Self::new(self.slots.len());
            for &(key, value) in self.slots.iter().filter(|(key, _)| *key != K::default()) {
                let slot = grown.slot(key);
                grown.put(slot, key, value);
            }
            *self = grown;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// More keys than the table was told to expect: probing runs get long, never wrong; and the
    /// two largest keys share an entry.
    fn keys_keep_their_values<K: Key + std::fmt::Debug>(keys: &[K], largest: [K; 2]) {
        let mut table = KeyTable::new(8);
        for (v, &key) in (0..).zip(keys).take(30) {
            assert_eq!(table.get_or_insert(key, v), v);
            assert_eq!(table.get_or_insert(key, 99), v, "a second value does not replace the first");
        }
        for (v, &key) in (0..).zip(keys) {
            assert_eq!(table.get(key), (v < 30).then_some(v), "{key:?}");
        }
        assert_eq!(table.insert(keys[3], 7), Some(3));
        assert_eq!(table.get(keys[3]), Some(7));
        assert_eq!(table.insert(largest[1], 5), None);
        assert_eq!(table.get(largest[0]), Some(5));
    }

    #[test]
    fn keys_keep_their_values_through_collisions_and_growth_of_runs() {
        let wide: Vec<u64> = (0..40u64).map(|k| k.wrapping_mul(0x1_0000_0001) ^ (k << 40)).collect();
        keys_keep_their_values(&wide, [u64::MAX - 1, u64::MAX]);
        let narrow: Vec<u32> = (0..40u32).map(|k| k.wrapping_mul(0x1001) ^ (k << 24)).collect();
        keys_keep_their_values(&narrow, [u32::MAX - 1, u32::MAX]);
    }
}
