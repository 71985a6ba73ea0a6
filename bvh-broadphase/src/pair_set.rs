//! The overlapping pairs kept from update to update: one list in no particular order (sorting
//! every pair of a scene where everything moves would cost more than finding them), the pairs
//! that started and stopped overlapping at the last update, and each object's neighbours. The
//! last two are derived only when asked for, except the changes after an edit of a few pairs in
//! place, where they are few and known anyway.

use std::sync::OnceLock;

/// Two object ids, the smaller first.
pub(crate) type Pair = (u32, u32);

#[derive(Clone, Debug, Default)]
pub(crate) struct PairSet {
    /// Every pair once.
    pairs: Vec<Pair>,
    /// The pairs before the last rebuild, until its changes are derived from them.
    previous: Vec<Pair>,
    changes: OnceLock<Changes>,
    neighbours: OnceLock<Adjacency>,
    /// The pairs added and removed by the edit under way, unsorted.
    edits: Changes,
}

/// The pairs that started and stopped overlapping at an update, each sorted.
#[derive(Clone, Debug, Default)]
struct Changes {
    started: Vec<Pair>,
    stopped: Vec<Pair>,
}

impl PairSet {
    /// The last update changed nothing.
    pub(crate) fn unchanged(&mut self) {
        self.changes = OnceLock::from(Changes::default());
    }

    /// Replaces every pair by `found` (each pair once, smaller id first, in any order), handing
    /// back a spare buffer in `found`.
    pub(crate) fn replace(&mut self, found: &mut Vec<Pair>) {
        std::mem::swap(&mut self.previous, found);
        std::mem::swap(&mut self.previous, &mut self.pairs);
        found.clear();
        self.changes = OnceLock::new();
        self.neighbours = OnceLock::new();
    }

    /// Adds a pair that started overlapping, giving its slot in the list (an edit of a few
    /// pairs: [`Self::edited`] ends it).
    pub(crate) fn add(&mut self, pair: Pair) -> u32 {
        self.edits.started.push(pair);
        self.pairs.push(pair);
        (self.pairs.len() - 1) as u32
    }

    /// Removes the pair at `slot`, which stopped overlapping, moving the last pair into the
    /// slot: that pair, if it is another.
    pub(crate) fn remove(&mut self, slot: u32) -> Option<Pair> {
        let slot = slot as usize;
        self.edits.stopped.push(self.pairs.swap_remove(slot));
        self.pairs.get(slot).copied()
    }

    /// Ends an edit: the pairs added and removed since the last update are its changes (a pair
    /// removed and added again, or the reverse, did not change).
    pub(crate) fn edited(&mut self) {
        let Changes { mut started, mut stopped } = std::mem::take(&mut self.edits);
        sort_pairs(&mut started);
        sort_pairs(&mut stopped);
        // As if the removed pairs were the old list and the added ones the new.
        self.changes = OnceLock::from(Changes::between(&stopped, &started));
        self.neighbours = OnceLock::new();
    }

    /// Every pair once, in no particular order.
    pub(crate) fn pairs(&self) -> &[Pair] {
        &self.pairs
    }

    /// The pairs that started overlapping at the last update, sorted.
    pub(crate) fn started(&self) -> &[Pair] {
        &self.changes().started
    }

    /// The pairs that stopped overlapping at the last update, sorted.
    pub(crate) fn stopped(&self) -> &[Pair] {
        &self.changes().stopped
    }

    /// The last update's changes; after a rebuild derived on first request from the sorted
    /// previous and current lists.
    fn changes(&self) -> &Changes {
        self.changes.get_or_init(|| {
            let sorted = |pairs: &[Pair]| {
                let mut pairs = pairs.to_vec();
                sort_pairs(&mut pairs);
                pairs
            };
            Changes::between(&sorted(&self.previous), &sorted(&self.pairs))
        })
    }

    /// The objects overlapping `id`, sorted (derived from the pairs the first time it is asked
    /// after an update).
    pub(crate) fn neighbours(&self, id: u32, ids: usize) -> &[u32] {
        self.neighbours.get_or_init(|| Adjacency::new(&self.pairs, ids)).of(id)
    }
}

/// `(a, b)` smaller first.
pub(crate) fn ordered(a: u32, b: u32) -> Pair {
    (a.min(b), a.max(b))
}

/// Sorts pairs by their smaller id, then the larger: as one 64-bit key each, which compares
/// in one instruction instead of two.
fn sort_pairs(pairs: &mut [Pair]) {
    pairs.sort_unstable_by_key(|&(a, b)| (u64::from(a) << 32) | u64::from(b));
}

impl Changes {
    /// What changed from `old` to `new`, both sorted.
    fn between(old: &[Pair], new: &[Pair]) -> Self {
        let mut changes = Self::default();
        let (mut i, mut j) = (0, 0);
        while i < old.len() && j < new.len() {
            match old[i].cmp(&new[j]) {
                std::cmp::Ordering::Less => {
                    changes.stopped.push(old[i]);
                    i += 1;
                }
                std::cmp::Ordering::Greater => {
                    changes.started.push(new[j]);
                    j += 1;
                }
                std::cmp::Ordering::Equal => {
                    i += 1;
                    j += 1;
                }
            }
        }
        changes.stopped.extend_from_slice(&old[i..]);
        changes.started.extend_from_slice(&new[j..]);
        changes
    }
}

/// Each object's neighbours, sorted, in one array.
#[derive(Clone, Debug)]
struct Adjacency {
    /// Object `i`'s neighbours are `list[starts[i]..starts[i + 1]]`.
    starts: Vec<u32>,
    list: Vec<u32>,
}

impl Adjacency {
    fn new(pairs: &[Pair], ids: usize) -> Self {
        let mut starts = vec![0u32; ids + 1];
        for &(a, b) in pairs {
            starts[a as usize + 1] += 1;
            starts[b as usize + 1] += 1;
        }
        for i in 1..starts.len() {
            starts[i] += starts[i - 1];
        }
        let mut list = vec![0; 2 * pairs.len()];
        let mut next = starts.clone();
        for &(a, b) in pairs {
            list[next[a as usize] as usize] = b;
            next[a as usize] += 1;
            list[next[b as usize] as usize] = a;
            next[b as usize] += 1;
        }
        for window in starts.windows(2) {
            list[window[0] as usize..window[1] as usize].sort_unstable();
        }
        Self { starts, list }
    }

    fn of(&self, id: u32) -> &[u32] {
        let id = id as usize;
        match (self.starts.get(id), self.starts.get(id + 1)) {
            (Some(&from), Some(&to)) => &self.list[from as usize..to as usize],
            _ => &[],
        }
    }
}
