//! A table from `u64` keys to indices, for the keys the regions make themselves.

/// A table from `u64` keys to indices, open-addressed with linear probing: the regions' two
/// lookups per intersection end and nine per pair spent most of their time in a general hash
/// map. Each key is stored one higher, so that zero marks an empty slot (a new table is zeroed
/// memory, not filled); keys `u64::MAX - 1` and `u64::MAX` share one entry.
pub(super) struct KeyTable {
    /// Each slot's stored key and value side by side: a probe reads one cache line.
    slots: Vec<(u64, usize)>,
    mask: usize,
    len: usize,
}

impl KeyTable {
    /// Room for `expected` keys at most half full (more make it grow).
    pub(super) fn new(expected: usize) -> Self {
        let slots = (2 * expected).next_power_of_two().max(16);
        Self { slots: vec![(0, 0); slots], mask: slots - 1, len: 0 }
    }

    /// The stored form of `key`: never zero.
    fn stored(key: u64) -> u64 {
        key.min(u64::MAX - 1) + 1
    }

    /// The slot holding the stored key `key`, or the empty one where it would go.
    fn slot(&self, key: u64) -> usize {
        let mut slot = (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as usize & self.mask;
        while self.slots[slot].0 != key && self.slots[slot].0 != 0 {
            slot = (slot + 1) & self.mask;
        }
        slot
    }

    pub(super) fn get(&self, key: u64) -> Option<usize> {
        let key = Self::stored(key);
        let (stored, value) = self.slots[self.slot(key)];
        (stored == key).then_some(value)
    }

    /// The value of `key`, `value` put there first if it had none.
    pub(super) fn get_or_insert(&mut self, key: u64, value: usize) -> usize {
        let key = Self::stored(key);
        let slot = self.slot(key);
        if self.slots[slot].0 == key {
            return self.slots[slot].1;
        }
        self.put(slot, key, value);
        value
    }

    /// Puts `value` at `key`, returning the value it replaces.
    pub(super) fn insert(&mut self, key: u64, value: usize) -> Option<usize> {
        let key = Self::stored(key);
        let slot = self.slot(key);
        if self.slots[slot].0 == key {
            return Some(std::mem::replace(&mut self.slots[slot].1, value));
        }
        self.put(slot, key, value);
        None
    }

    /// Fills the empty `slot` with a new stored key, doubling the table once it is half full.
    fn put(&mut self, slot: usize, key: u64, value: usize) {
        self.slots[slot] = (key, value);
        self.len += 1;
        if 2 * self.len > self.slots.len() {
            let mut grown = Self::new(self.slots.len());
            for &(key, value) in self.slots.iter().filter(|(key, _)| *key != 0) {
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

    #[test]
    fn keys_keep_their_values_through_collisions_and_growth_of_runs() {
        // More keys than the table was told to expect: probing runs get long, never wrong.
        let mut table = KeyTable::new(8);
        let keys: Vec<u64> = (0..40u64).map(|k| k.wrapping_mul(0x1_0000_0001) ^ (k << 40)).collect();
        for (v, &key) in keys.iter().enumerate().take(30) {
            assert_eq!(table.get_or_insert(key, v), v);
            assert_eq!(table.get_or_insert(key, 99), v, "a second value does not replace the first");
        }
        for (v, &key) in keys.iter().enumerate() {
            assert_eq!(table.get(key), (v < 30).then_some(v));
        }
        assert_eq!(table.insert(keys[3], 7), Some(3));
        assert_eq!(table.get(keys[3]), Some(7));
        // The reserved key is kept as its neighbour.
        assert_eq!(table.insert(u64::MAX, 5), None);
        assert_eq!(table.get(u64::MAX - 1), Some(5));
    }
}
