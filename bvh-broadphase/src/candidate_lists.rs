//! Each object's candidates (the objects whose fat boxes meet its own) and, for each, where
//! their pair sits in the pair list while the two boxes overlap. An update where a few objects
//! moved inside their fat boxes re-tests just their candidates and touches only the pairs that
//! started or stopped: no neighbourhood search, no pass over every pair.

use crate::pair_set::{Pair, PairSet, ordered};
use bvh_core::Aabb;

/// The slot of a candidate pair whose boxes do not overlap.
const APART: u32 = u32::MAX;

/// One side of a candidate pair.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    other: u32,
    /// Where the pair sits in the pair list, or `APART`.
    slot: u32,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct CandidateLists {
    /// Object `i`'s candidates, each pair listed on both sides (inner lists are kept when
    /// cleared, so deriving the lists again allocates little).
    lists: Vec<Vec<Candidate>>,
    /// The lists hold the candidates and the pair list's slots.
    current: bool,
}

impl CandidateLists {
    /// Whether the lists hold the candidates and the slots of the pairs.
    pub(crate) fn is_current(&self) -> bool {
        self.current
    }

    /// The candidates or the pairs changed elsewhere (or the pair list was replaced).
    pub(crate) fn invalidate(&mut self) {
        self.current = false;
    }

    /// Whether a pair list this long leaves room for an update's new pairs below the largest
    /// slot (a few objects' update adds far fewer than two billion).
    pub(crate) fn can_hold(pairs: usize) -> bool {
        pairs <= (APART / 2) as usize
    }

    /// Derives the lists of objects `0..ids` from every candidate pair and the overlapping
    /// pairs, which are the candidates whose boxes overlap in the candidates' order (as a re-test
    /// of every candidate leaves them), so each pair's slot is found in one pass.
    pub(crate) fn derive(&mut self, candidates: &[Pair], pairs: &[Pair], ids: usize) {
        let mut degrees = vec![0u32; ids];
        for &(a, b) in candidates {
            degrees[a as usize] += 1;
            degrees[b as usize] += 1;
        }
        self.lists.resize_with(ids, Vec::new);
        for (list, &degree) in self.lists.iter_mut().zip(&degrees) {
            list.clear();
            list.reserve(degree as usize);
        }
        let mut next = 0;
        for &(a, b) in candidates {
            let slot = if pairs.get(next) == Some(&(a, b)) {
                next += 1;
                (next - 1) as u32
            } else {
                APART
            };
            self.lists[a as usize].push(Candidate { other: b, slot });
            self.lists[b as usize].push(Candidate { other: a, slot });
        }
        debug_assert_eq!(next, pairs.len(), "the pairs are the overlapping candidates, in order");
        self.current = true;
    }

    /// Every candidate pair once, smaller id first, by the smaller id.
    pub(crate) fn flatten(&self, candidates: &mut Vec<Pair>) {
        candidates.clear();
        for (id, list) in (0u32..).zip(&self.lists) {
            candidates.extend(list.iter().filter(|c| c.other > id).map(|c| (id, c.other)));
        }
    }

    /// Makes room for objects `0..ids`.
    pub(crate) fn grow(&mut self, ids: usize) {
        if self.lists.len() < ids {
            self.lists.resize_with(ids, Vec::new);
        }
    }

    /// Drops object `id`'s candidates; its overlapping pairs stop.
    pub(crate) fn forget(&mut self, id: u32, pairs: &mut PairSet) {
        // One at a time: removing a pair moves another into its slot, which may be one of
        // `id`'s still listed.
        while let Some(gone) = self.lists[id as usize].pop() {
            let mirror = &mut self.lists[gone.other as usize];
            if let Some(k) = mirror.iter().position(|c| c.other == id) {
                mirror.swap_remove(k);
            }
            if gone.slot != APART {
                self.remove_pair(gone.slot, pairs);
            }
        }
    }

    /// Adds the candidate pair `(a, b)`, not listed yet, whose boxes overlap or not.
    pub(crate) fn add(&mut self, (a, b): Pair, overlap: bool, pairs: &mut PairSet) {
        let slot = if overlap { pairs.add((a, b)) } else { APART };
        self.lists[a as usize].push(Candidate { other: b, slot });
        self.lists[b as usize].push(Candidate { other: a, slot });
    }

    /// Tests object `id`'s candidates on the boxes: the pairs that started overlapping are
    /// added, those that stopped removed.
    pub(crate) fn retest(&mut self, id: u32, boxes: &[Aabb], pairs: &mut PairSet) {
        let aabb = boxes[id as usize];
        for k in 0..self.lists[id as usize].len() {
            let Candidate { other, slot } = self.lists[id as usize][k];
            let overlap = aabb.intersects(&boxes[other as usize]);
            if overlap == (slot != APART) {
                continue;
            }
            // This side's entry is at hand; only the other side's is searched for.
            let new_slot = if overlap { pairs.add(ordered(id, other)) } else { APART };
            self.lists[id as usize][k].slot = new_slot;
            self.set_slot_on(other, id, new_slot);
            if !overlap {
                self.remove_pair(slot, pairs);
            }
        }
    }

    /// Removes the pair at `slot`, giving the pair moved into it its new slot.
    fn remove_pair(&mut self, slot: u32, pairs: &mut PairSet) {
        if let Some((a, b)) = pairs.remove(slot) {
            self.set_slot(a, b, slot);
        }
    }

    /// Sets the slot of the candidate pair `(a, b)` on both sides.
    fn set_slot(&mut self, a: u32, b: u32, slot: u32) {
        self.set_slot_on(a, b, slot);
        self.set_slot_on(b, a, slot);
    }

    /// Sets the slot of the candidate pair `(from, to)` in `from`'s list.
    fn set_slot_on(&mut self, from: u32, to: u32, slot: u32) {
        if let Some(c) = self.lists[from as usize].iter_mut().find(|c| c.other == to) {
            c.slot = slot;
        }
    }
}
