//! The uniform grid of paper 004: every box goes into each cell it covers; a pair is reported
//! from the one cell holding the start of its overlap, so no set of pairs is needed.

use crate::cells::{Cell, CellSide, IdList, Lattice, forget, overlaps_with_large};
use crate::strategy::{Boxes, Strategy, live, overlap_start};
use bvh_core::{Aabb, Real};
use smallvec::SmallVec;

/// A uniform grid of cubic cells, by default as wide as the mean box extent (paper 004).
#[derive(Clone, Debug)]
pub struct UniformGrid {
    side: CellSide,
    lattice: Lattice,
    cells: Vec<IdList>,
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
        Self { side, lattice: Lattice::default(), cells: Vec::new(), large: IdList::new() }
    }

    /// The cell side in use (after the last rebuild).
    pub fn cell_side(&self) -> Real {
        self.lattice.side()
    }

    /// Calls `visit` with the list of every cell a box covers, or the large list.
    fn lists_of(&mut self, aabb: &Aabb, mut visit: impl FnMut(&mut IdList)) {
        let range = self.lattice.range_of(aabb);
        if self.lattice.is_large(aabb) {
            visit(&mut self.large);
        } else {
            let cells = &mut self.cells;
            self.lattice.for_each_index(range, |c| visit(&mut cells[c]));
        }
    }
}

impl Strategy for UniformGrid {
    fn rebuild(&mut self, boxes: &Boxes, pairs: &mut Vec<(u32, u32)>) {
        self.lattice = Lattice::fit(boxes, self.side);
        self.cells.iter_mut().for_each(SmallVec::clear);
        self.cells.resize_with(self.lattice.cell_count(), SmallVec::new);
        self.large.clear();
        for (id, aabb) in boxes.iter().enumerate() {
            if aabb.is_some() {
                self.insert(id as u32, boxes);
            }
        }
        // The minimum-corner rule on integers: the overlap starts in the cell whose coordinates
        // are the larger of the two boxes' first cells (the cell map is monotone).
        let first: Vec<Cell> =
            boxes.iter().map(|b| b.map_or([0; 3], |b| self.lattice.cell_of(&b.mins))).collect();
        let [dx, dy, dz] = self.lattice.dims();
        let mut index = 0;
        for z in 0..dz {
            for y in 0..dy {
                for x in 0..dx {
                    let cell = &self.cells[index];
                    for (k, &i) in cell.iter().enumerate() {
                        let (a, fa) = (live(boxes, i), first[i as usize]);
                        for &j in &cell[k + 1..] {
                            let fb = first[j as usize];
                            let start = [fa[0].max(fb[0]), fa[1].max(fb[1]), fa[2].max(fb[2])];
                            if start == [x, y, z] && a.intersects(live(boxes, j)) {
                                pairs.push((i.min(j), i.max(j)));
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
            for &j in &self.cells[index] {
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
