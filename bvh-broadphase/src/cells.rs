//! A uniform lattice of cubic cells over the scene, shared by the grids and the octree's top
//! level. Coordinates outside the lattice are clamped to its border cells, so a box that moved
//! out of the bounds the lattice was fitted to still lands in cells that cover it: the border
//! cells simply reach to infinity. The cell of a point is a monotone function of the point, so a
//! box's cell range always holds the cell of every point inside the box. Cells are computed in
//! `f64`, where sizes and spans out to the ends of the `f32` range cannot overflow.

use crate::pair_set::ordered;
use crate::strategy::{Boxes, live};
use bvh_core::{Aabb, Point, Real};
use smallvec::SmallVec;

/// More cells than this per live object are never allocated: past it the cells grow.
const CELLS_PER_OBJECT: usize = 8;
/// The lattice may always have this many cells, however few objects there are.
const MIN_CELL_BUDGET: usize = 4096;
/// A box covering more cells than this is kept apart and tested directly (one huge object among
/// tiny ones would otherwise be copied into millions of cells).
const MAX_CELLS_PER_BOX: u64 = 64;

/// A lattice leaves out up to this fraction (1 / `OUTLIERS`) of the boxes at each end of each
/// axis when the others need far fewer cells.
const OUTLIERS: usize = 200;

/// How wide cells are.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CellSide {
    /// This many times the mean box extent (the mean of length, width and height over all
    /// boxes), measured at each rebuild: paper 004's grid uses 1.
    MeanExtents(Real),
    /// A fixed side, in scene units.
    Fixed(Real),
}

/// The ids in a cell, up to four stored in place: a scan over many cells then reads one array
/// instead of following a pointer per cell, which dominated a grid rebuild with `Vec`.
pub(crate) type IdList = SmallVec<[u32; 4]>;

/// Cell coordinates along x, y and z.
pub(crate) type Cell = [u32; 3];

/// The lattice: where it starts, its cell side, and how many cells along each axis.
#[derive(Clone, Debug)]
pub(crate) struct Lattice {
    origin: [f64; 3],
    inverse_side: f64,
    side: f64,
    dims: [u32; 3],
}

impl Default for Lattice {
    fn default() -> Self {
        Self { origin: [0.0; 3], inverse_side: 1.0, side: 1.0, dims: [1; 3] }
    }
}

impl Lattice {
    /// A lattice over every box (the bulk of them, [`bulk_bounds`], when a few far ones would
    /// stretch the cells over the budget) with cells of the given side, grown if needed to stay
    /// within the cell budget.
    pub(crate) fn fit(boxes: &Boxes, side: CellSide) -> Self {
        let mut bounds = Aabb::EMPTY;
        let (mut extent_sum, mut live) = (0.0f64, 0usize);
        for b in boxes.iter().flatten() {
            bounds.merge(b);
            extent_sum += extents(b).iter().sum::<f64>() / 3.0;
            live += 1;
        }
        if live == 0 {
            return Self::default();
        }
        let side = match side {
            CellSide::MeanExtents(times) => extent_sum / live as f64 * f64::from(times),
            CellSide::Fixed(side) => f64::from(side),
        };
        let side = if side.is_finite() && side > 0.0 {
            side
        } else {
            (largest_extent(&bounds) / (live as f64).cbrt()).max(f64::MIN_POSITIVE)
        };
        let budget = (CELLS_PER_OBJECT * live).max(MIN_CELL_BUDGET) as f64;
        let bounds =
            if Self::cells_over(&bounds, side) > budget { bulk_bounds(boxes, bounds) } else { bounds };
        Self::over(&bounds, side, budget)
    }

    /// A lattice over `bounds` with cells of at least `side` (positive), grown until there are
    /// at most `budget` cells.
    pub(crate) fn over(bounds: &Aabb, mut side: f64, budget: f64) -> Self {
        loop {
            let cells = Self::cells_over(bounds, side);
            if cells <= budget {
                let dims = extents(bounds).map(|e| Self::cells_along(e, side) as u32);
                let origin = [0, 1, 2].map(|a| f64::from(bounds.mins[a]));
                return Self { origin, inverse_side: 1.0 / side, side, dims };
            }
            side *= (cells / budget).cbrt().max(1.01);
        }
    }

    /// How many cells of `side` a lattice over `bounds` has.
    pub(crate) fn cells_over(bounds: &Aabb, side: f64) -> f64 {
        extents(bounds).iter().map(|&e| Self::cells_along(e, side)).product()
    }

    /// Cells of `side` along an extent (at most a quarter of `u32::MAX`).
    fn cells_along(extent: f64, side: f64) -> f64 {
        ((extent / side).floor() + 1.0).min(f64::from(u32::MAX / 4))
    }

    /// Cells along x, y and z.
    pub(crate) fn dims(&self) -> [u32; 3] {
        self.dims
    }

    /// Number of cells.
    pub(crate) fn cell_count(&self) -> usize {
        self.dims.iter().map(|&d| d as usize).product()
    }

    /// The side of a cell (at most `f32::MAX`).
    pub(crate) fn side(&self) -> Real {
        self.side.min(f64::from(Real::MAX)) as Real
    }

    /// The minimum corner of a cell (border cells extend beyond it).
    pub(crate) fn cell_min(&self, cell: Cell) -> Point {
        Point::from([0, 1, 2].map(|a| (self.origin[a] + f64::from(cell[a]) * self.side) as Real))
    }

    /// The cell holding `p` (clamped to the lattice).
    #[inline]
    pub(crate) fn cell_of(&self, p: &Point) -> Cell {
        [0, 1, 2].map(|a| {
            let t = (f64::from(p[a]) - self.origin[a]) * self.inverse_side;
            // Clamped first, so truncation is the floor (and cheaper than calling it).
            t.clamp(0.0, f64::from(self.dims[a] - 1)) as u32
        })
    }

    /// The first and last cells a box covers.
    #[inline]
    pub(crate) fn range_of(&self, aabb: &Aabb) -> (Cell, Cell) {
        (self.cell_of(&aabb.mins), self.cell_of(&aabb.maxs))
    }

    /// The coordinates of the cell at a flat index.
    pub(crate) fn cell(&self, index: usize) -> Cell {
        let [dx, dy, _] = self.dims.map(|d| d as usize);
        [(index % dx) as u32, (index / dx % dy) as u32, (index / (dx * dy)) as u32]
    }

    /// `true` for a box covering too many cells to be copied into each.
    #[inline]
    pub(crate) fn is_large(&self, aabb: &Aabb) -> bool {
        Self::is_large_range(self.range_of(aabb))
    }

    /// `true` when a box covering this range of cells goes to the large list.
    pub(crate) fn is_large_range(range: (Cell, Cell)) -> bool {
        Self::range_size(range) > MAX_CELLS_PER_BOX
    }

    /// Appends every pair with a large box (`large`), once: a pair of two large boxes from its
    /// smaller id.
    pub(crate) fn pairs_with_large(&self, large: &[u32], boxes: &Boxes, pairs: &mut Vec<(u32, u32)>) {
        for &i in large {
            let a = live(boxes, i);
            for (j, b) in boxes.iter().enumerate() {
                let j = j as u32;
                if let Some(b) = b {
                    if !(j <= i && self.is_large(b)) && a.intersects(b) {
                        pairs.push(ordered(i, j));
                    }
                }
            }
        }
    }

    /// Number of cells in a range.
    #[inline]
    fn range_size((lo, hi): (Cell, Cell)) -> u64 {
        (0..3).map(|a| u64::from(hi[a] - lo[a]) + 1).product()
    }

    /// The index of a cell in a flat array.
    #[inline]
    pub(crate) fn index(&self, cell: Cell) -> usize {
        let [x, y, z] = cell.map(|c| c as usize);
        (z * self.dims[1] as usize + y) * self.dims[0] as usize + x
    }

    /// Calls `visit` with the index of every cell in a range.
    #[inline]
    pub(crate) fn for_each_index(&self, (lo, hi): (Cell, Cell), mut visit: impl FnMut(usize)) {
        for z in lo[2]..=hi[2] {
            for y in lo[1]..=hi[1] {
                for x in lo[0]..=hi[0] {
                    visit(self.index([x, y, z]));
                }
            }
        }
    }
}

/// Calls `found` with every large box other than `id` that overlaps `aabb`.
pub(crate) fn overlaps_with_large(
    large: &[u32],
    id: u32,
    aabb: &Aabb,
    boxes: &Boxes,
    found: &mut dyn FnMut(u32),
) {
    for &j in large {
        if j != id && aabb.intersects(live(boxes, j)) {
            found(j);
        }
    }
}

/// Removes `id` from an unordered list.
pub(crate) fn forget(list: &mut IdList, id: u32) {
    if let Some(at) = list.iter().position(|&j| j == id) {
        list.swap_remove(at);
    }
}

/// A box's extents in `f64`: near the ends of the `f32` range they overflow `f32`.
#[inline]
pub(crate) fn extents(aabb: &Aabb) -> [f64; 3] {
    [0, 1, 2].map(|a| f64::from(aabb.maxs[a]) - f64::from(aabb.mins[a]))
}

/// A box's largest extent, in `f64`.
pub(crate) fn largest_extent(aabb: &Aabb) -> f64 {
    extents(aabb).into_iter().fold(0.0, f64::max)
}

/// The bounds of all but the `OUTLIERS`-th part of the boxes at each end of each axis (`bounds`,
/// every box's, if that leaves nothing): a lattice fitted to them stays fine when a few boxes
/// lie far from the rest (one object parked far away would otherwise stretch every cell over
/// the cell budget until each held hundreds). Boxes outside are clamped into the border cells,
/// which stays exact.
pub(crate) fn bulk_bounds(boxes: &Boxes, bounds: Aabb) -> Aabb {
    let live: Vec<&Aabb> = boxes.iter().flatten().collect();
    let Some(last) = live.len().checked_sub(1 + live.len() / OUTLIERS) else { return bounds };
    let trim = live.len() / OUTLIERS;
    let mut bulk = bounds;
    let mut coordinates = Vec::with_capacity(live.len());
    for axis in 0..3 {
        coordinates.clear();
        coordinates.extend(live.iter().map(|b| b.mins[axis]));
        bulk.mins[axis] = *coordinates.select_nth_unstable_by(trim, f32::total_cmp).1;
        coordinates.clear();
        coordinates.extend(live.iter().map(|b| b.maxs[axis]));
        bulk.maxs[axis] = *coordinates.select_nth_unstable_by(last, f32::total_cmp).1;
    }
    if bulk.is_empty() { bounds } else { bulk }
}
