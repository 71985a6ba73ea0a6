//! Hash maps and sets for integer keys the library makes itself (point numbers, a point's
//! coordinate bits, grid cells): the standard hasher's resistance to chosen keys buys nothing
//! there and would cost most of the time of the passes that use them.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// A multiply-rotate hasher, eight bytes at a time.
#[derive(Clone, Copy, Debug, Default)]
pub struct QuickHasher(u64);

impl Hasher for QuickHasher {
    /// Eight bytes at a time: an array of integers (a point's bits, a cell) comes here whole.
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.write_u64(u64::from_le_bytes(chunk.try_into().unwrap_or_default()));
        }
        let mut rest = [0; 8];
        rest[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
        if !chunks.remainder().is_empty() {
            self.write_u64(u64::from_le_bytes(rest));
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(n as u64);
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn write_i64(&mut self, n: i64) {
        self.write_u64(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// A `HashMap` with the [`QuickHasher`].
pub type QuickMap<K, V> = HashMap<K, V, BuildHasherDefault<QuickHasher>>;

/// A `HashSet` with the [`QuickHasher`].
pub type QuickSet<K> = HashSet<K, BuildHasherDefault<QuickHasher>>;
