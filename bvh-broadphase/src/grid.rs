//! The uniform grid of paper 004: every box goes into each cell it covers; a pair is reported
//! from the one cell holding the start of its overlap, so no set of pairs is needed.
//!
//! A rebuild sorts (cell, box) entries by cell with a counting sort into one flat array and scans
//! that; the per-cell lists that incremental updates edit are filled from it only when the next
//! incremental update comes, so a scene where everything moves every step never builds them.

use crate::cells::{Cell, CellSide, IdList, Lattice, forget, overlaps_with_large};
use crate::pair_set::ordered;
use crate::strategy::{Boxes, Strategy, live, overlap_start};
use bvh_core::{Aabb, Real};

/// A uniform grid of cubic cells, by default as wide as the mean box extent (paper 004).
#[derive(Clone, Debug)]
pub struct UniformGrid {
    side: CellSide,
    lattice: Lattice,
    /// Per cell, the ids there: edited by incremental updates.
    cells: Vec<IdList>,
    /// The last rebuild's entries sorted by cell: cell `c` holds `sorted[starts[c]..starts[c + 1]]`.
    starts: Vec<u32>,
    sorted: Vec<u32>,
    /// `cells` does not hold the last rebuild yet (`sorted` does).
    lists_stale: bool,
    /// Boxes covering too many cells, tested against everything directly.
    large: IdList,
}

impl Default for UniformGrid {
    fn default() -> Self {
        Self::new(CellSide::MeanExtents(1.0))
    }
}

impl UniformGrid {
    /// A grid with cells of the given side.
    pub fn new(side: CellSide) -> Self {
        Self {
            side,
            lattice: Lattice::default(),
            cells: Vec::new(),
            starts: Vec::new(),
            sorted: Vec::new(),
            lists_stale: false,
            large: IdList::new(),
        }
    }

    /// The cell side in use (after the last rebuild).
    pub fn cell_side(&self) -> Real {
        self.lattice.side()
    }

    /// The ids in cell `c`.
    #[inline]
    fn cell(&self, c: usize) -> &[u32] {
        if self.lists_stale {
            &self.sorted[self.starts[c] as usize..self.starts[c + 1] as usize]
        } else {
            &self.cells[c]
        }
    }

    /// Fills the per-cell lists from the last rebuild, before they are edited.
    fn editable(&mut self) {
        if !std::mem::replace(&mut self.lists_stale, false) {
            return;
        }
        self.cells.resize_with(self.lattice.cell_count(), IdList::new);
        for (c, list) in self.cells.iter_mut().enumerate() {
            list.clear();
            list.extend_from_slice(&self.sorted[self.starts[c] as usize..self.starts[c + 1] as usize]);
        }
    }

    /// Calls `visit` with the list of every cell a box covers, or the large list.
    fn lists_of(&mut self, aabb: &Aabb, mut visit: impl FnMut(&mut IdList)) {
        self.editable();
        let range = self.lattice.range_of(aabb);
        if self.lattice.is_large(aabb) {
            visit(&mut self.large);
        } else {
            let cells = &mut self.cells;
            self.lattice.for_each_index(range, |c| visit(&mut cells[c]));
        }
    }

    /// Sorts every live box's cell entries by cell (a counting sort), setting large boxes apart.
    fn sort_entries(&mut self, boxes: &Boxes) {
        let count = self.lattice.cell_count();
        self.starts.clear();
        self.starts.resize(count + 1, 0);
        self.large.clear();
        let lattice = &self.lattice;
        let ranges =
            || boxes.iter().enumerate().filter_map(|(id, b)| b.map(|b| (id as u32, lattice.range_of(&b))));
        for (id, range) in ranges() {
            if Lattice::is_large_range(range) {
                self.large.push(id);
            } else {
                let starts = &mut self.starts;
                lattice.for_each_index(range, |c| starts[c] += 1);
            }
        }
        // Running totals: `starts[c]` is now where cell `c`'s entries end.
        for c in 1..=count {
            self.starts[c] += self.starts[c - 1];
        }
        self.sorted.clear();
        self.sorted.resize(self.starts[count] as usize, 0);
        // Each cell fills from its end backwards, boxes taken in descending id, so that every
        // cell ends ascending and `starts[c]` ends where its entries begin.
        for (id, range) in ranges().rev() {
            if !Lattice::is_large_range(range) {
                let (sorted, starts) = (&mut self.sorted, &mut self.starts);
                lattice.for_each_index(range, |c| {
                    starts[c] -= 1;
                    sorted[starts[c] as usize] = id;
                });
            }
        }
    }
}

impl Strategy for UniformGrid {
    fn rebuild(&mut self, boxes: &Boxes, pairs: &mut Vec<(u32, u32)>) {
        self.lattice = Lattice::fit(boxes, self.side);
        self.sort_entries(boxes);
        self.lists_stale = true;
        // The minimum-corner rule on integers: the overlap starts in the cell whose coordinates
        // are the larger of the two boxes' first cells (the cell map is monotone).
        let first: Vec<Cell> =
            boxes.iter().map(|b| b.map_or([0; 3], |b| self.lattice.cell_of(&b.mins))).collect();
        let [dx, dy, dz] = self.lattice.dims();
        let mut index = 0;
        for z in 0..dz {
            for y in 0..dy {
                for x in 0..dx {
                    let cell = self.cell(index);
                    for (k, &i) in cell.iter().enumerate() {
                        let (a, fa) = (live(boxes, i), first[i as usize]);
                        for &j in &cell[k + 1..] {
                            let fb = first[j as usize];
                            let start = [fa[0].max(fb[0]), fa[1].max(fb[1]), fa[2].max(fb[2])];
                            if start == [x, y, z] && a.intersects(live(boxes, j)) {
                                pairs.push(ordered(i, j));
                            }
                        }
                    }
                    index += 1;
                }
            }
        }
        self.lattice.pairs_with_large(&self.large, boxes, pairs);
    }

    fn insert(&mut self, id: u32, boxes: &Boxes) {
        let aabb = *live(boxes, id);
        self.lists_of(&aabb, |list| list.push(id));
    }

    fn remove(&mut self, id: u32, aabb: &Aabb) {
        self.lists_of(aabb, |list| forget(list, id));
    }

    fn for_each_overlap(&self, id: u32, aabb: &Aabb, boxes: &Boxes, found: &mut dyn FnMut(u32)) {
        if self.lattice.is_large(aabb) {
            return crate::BruteForce.for_each_overlap(id, aabb, boxes, found);
        }
        self.lattice.for_each_index(self.lattice.range_of(aabb), |index| {
            for &j in self.cell(index) {
                let b = live(boxes, j);
                if j != id
                    && aabb.intersects(b)
                    && self.lattice.index(self.lattice.cell_of(&overlap_start(aabb, b))) == index
                {
                    found(j);
                }
            }
        });
        overlaps_with_large(&self.large, id, aabb, boxes, found);
    }
}
