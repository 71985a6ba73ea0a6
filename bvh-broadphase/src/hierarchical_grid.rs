//! The hierarchical grid: each box sits in exactly one cell – the cell of its minimum corner, on
//! the level whose cells are at least as wide as the box – so two boxes can only overlap when
//! their cells are the same or neighbours. Levels halve in side from the largest boxes down to
//! the smallest, so a huge box among tiny ones costs neither a crowded cell nor a copy per cell.
//!
//! A rebuild sorts each level's boxes by cell (a counting sort, box copies stored beside their
//! ids, cells in x-fastest order) so that a box's neighbourhood is a few contiguous row slices,
//! and sweeps them. A box that moves within its cell only updates its copy; one that changes cell
//! goes to a small overflow table until the next rebuild, which it asks for once the table grows.

use crate::cells::{Cell, Lattice, bulk_bounds, largest_extent};
use crate::pair_set::{Pair, ordered};
use crate::strategy::{Boxes, Strategy, live};
use bvh_core::Aabb;
use bvh_core::parallel::prelude::*;
use smallvec::SmallVec;
use std::collections::HashMap;
use std::ops::Range;

/// A box is at most this fraction of its level's cell side, so that rounding in the cell
/// computation never puts its two corners two cells apart.
const FIT: f64 = 0.999;
/// Extent classes: class `k` holds boxes up to `top side / 2^k` (the last class also smaller).
const CLASSES: usize = 24;
/// A level never has more cells than this many per box on it (or `MIN_CELLS`): past it the
/// cells grow, which keeps memory linear when a few boxes span a vast scene.
const CELLS_PER_BOX: f64 = 4.0;
const MIN_CELLS: f64 = 64.0;
/// Boxes out of their sorted cells (moved across, inserted since) beyond this fraction of all
/// boxes make the next update a rebuild.
const OVERFLOW_FRACTION: usize = 16;
/// No box, no class.
const NONE: u32 = u32::MAX;
/// No level for the class.
const NO_LEVEL: u8 = u8::MAX;
/// The sweep tests a box against this many copies at a time, masking those past the slice's
/// end: short slices of varying length then cost no mispredicted loop exits.
const WINDOW: usize = 3;
/// Pairs gathered before they are appended to the output.
const BATCH: usize = 64;
/// About this many boxes per parallel task of the rebuild sweep.
const SWEEP_CHUNK: usize = 2048;

/// A box copy beside its id, in a level's cell order. A removed box leaves an empty copy, which
/// overlaps nothing, so sweeps need no test for it.
#[derive(Clone, Copy, Debug)]
struct Entry {
    aabb: Aabb,
    id: u32,
    /// Bit `a`: the box reaches into the next cell along axis `a` (set by the sort for the
    /// sweep that follows it).
    reach: u8,
}

/// One level: a lattice of cubic cells over the scene's bounds at the last rebuild (coordinates
/// outside are clamped to the border cells) and its boxes sorted by cell.
#[derive(Clone, Debug, Default)]
struct Level {
    cells: Lattice,
    /// Cell `c` holds `entries[starts[c]..starts[c + 1]]`.
    starts: Vec<u32>,
    entries: Vec<Entry>,
    /// One bit per cell: the overflow table holds boxes in that cell.
    overflowing: Vec<u64>,
}

impl Level {
    /// Fits the lattice to `bounds` with cells of at least `side` for `boxes` boxes, its cell
    /// counts zeroed (its buffers kept).
    fn reset(&mut self, bounds: &Aabb, side: f64, boxes: usize) {
        self.cells = Lattice::over(bounds, side, (CELLS_PER_BOX * boxes as f64).max(MIN_CELLS));
        let count = self.cells.cell_count();
        self.starts.clear();
        self.starts.resize(count + 1, 0);
        self.overflowing.clear();
        self.overflowing.resize(count.div_ceil(64), 0);
    }

    /// The cells whose boxes may overlap `aabb`: a box on this level overlapping it has its
    /// minimum corner at most one cell below `aabb`'s and not above `aabb`'s maximum corner.
    #[inline]
    fn reach(&self, aabb: &Aabb) -> (Cell, Cell) {
        let (lo, hi) = self.cells.range_of(aabb);
        (lo.map(|c| c.saturating_sub(1)), hi)
    }

    /// Where the boxes of cells `x0..=x1` of row `(y, z)` lie in `entries`.
    #[inline]
    fn row(&self, y: u32, z: u32, x0: u32, x1: u32) -> (usize, usize) {
        let first = self.cells.index([x0, y, z]);
        let last = first + (x1 - x0) as usize;
        (self.starts[first] as usize, self.starts[last + 1] as usize)
    }

    /// Calls `visit` with every row of boxes that may overlap `aabb` (where it lies in
    /// `entries`).
    #[inline]
    fn for_each_row(&self, aabb: &Aabb, mut visit: impl FnMut((usize, usize))) {
        let (lo, hi) = self.reach(aabb);
        for z in lo[2]..=hi[2] {
            for y in lo[1]..=hi[1] {
                visit(self.row(y, z, lo[0], hi[0]));
            }
        }
    }

    /// Calls `found` with the id of every box in `entries[from..to]` other than `id` that
    /// overlaps `aabb`, testing a window at a time as the sweep does.
    #[inline]
    fn for_each_hit(&self, (from, to): (usize, usize), id: u32, aabb: &Aabb, found: &mut dyn FnMut(u32)) {
        let mut at = from;
        loop {
            let window = &self.entries[at..at + WINDOW];
            let mut hits = 0u32;
            for (k, b) in window.iter().enumerate() {
                hits |= u32::from((at + k < to) & (b.id != id) & aabb.intersects(&b.aabb)) << k;
            }
            while hits != 0 {
                found(window[hits.trailing_zeros() as usize].id);
                hits &= hits - 1;
            }
            at += WINDOW;
            if at >= to {
                break;
            }
        }
    }

    fn is_overflowing(&self, cell: usize) -> bool {
        self.overflowing[cell / 64] >> (cell % 64) & 1 == 1
    }

    fn set_overflowing(&mut self, cell: usize, on: bool) {
        let bit = 1u64 << (cell % 64);
        if on {
            self.overflowing[cell / 64] |= bit;
        } else {
            self.overflowing[cell / 64] &= !bit;
        }
    }
}

/// Where a box is indexed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Place {
    /// Not indexed.
    #[default]
    Absent,
    /// Its slot in its level's sorted copies (`home`).
    Sorted,
    /// The overflow table, under its level and cell.
    Overflow,
    /// Larger than every level: tested against everything.
    Large,
}

/// A box's sorted slot from the last rebuild, kept while it is elsewhere so that it can return.
#[derive(Clone, Copy, Debug)]
struct Home {
    level: u32,
    cell: u32,
    slot: u32,
}

impl Home {
    /// No slot (not sorted at the last rebuild).
    const NOWHERE: Self = Self { level: NONE, cell: 0, slot: 0 };
}

/// A grid per box size class, each box in the one cell of its minimum corner; the strategy for
/// any motion: a rebuild is a counting sort and a sweep, a small move a copy update.
#[derive(Clone, Debug)]
pub struct HierarchicalGrid {
    /// Cell side of class 0 (the largest boxes at the last rebuild, over [`FIT`]).
    top_side: f64,
    /// Levels by increasing class (larger cells first).
    levels: Vec<Level>,
    /// The level each class goes to (its own or the nearest coarser one); `NO_LEVEL`: none is
    /// coarse enough.
    level_of_class: [u8; CLASSES],
    /// Per id, where its box is indexed.
    place: Vec<Place>,
    home: Vec<Home>,
    /// Boxes out of their sorted cells, by level and cell.
    overflow: HashMap<(u32, u32), SmallVec<[u32; 2]>>,
    overflow_len: usize,
    /// Boxes larger than every level.
    large: Vec<u32>,
    /// Boxes indexed anywhere.
    indexed: usize,
    /// Per id, its class and then its level and cell during a rebuild; kept for the allocation.
    keys: Vec<(u32, u32)>,
}

impl Default for HierarchicalGrid {
    fn default() -> Self {
        Self {
            top_side: 0.0,
            levels: Vec::new(),
            level_of_class: [NO_LEVEL; CLASSES],
            place: Vec::new(),
            home: Vec::new(),
            overflow: HashMap::new(),
            overflow_len: 0,
            large: Vec::new(),
            indexed: 0,
            keys: Vec::new(),
        }
    }
}

impl HierarchicalGrid {
    /// The size class of a box; `None` for one larger than class 0.
    fn class_of(&self, aabb: &Aabb) -> Option<usize> {
        let extent = largest_extent(aabb);
        let room = FIT * self.top_side;
        if extent > room {
            return None;
        }
        let smallest = room / (1u64 << (CLASSES - 1)) as f64;
        if extent <= smallest {
            return Some(CLASSES - 1);
        }
        // The exponent of the ratio is the class, but for rounding: checked against the bound.
        let ratio = room / extent;
        let mut class = ((ratio.to_bits() >> 52) as usize).saturating_sub(1023).min(CLASSES - 1);
        while class > 0 && extent > room / (1u64 << class) as f64 {
            class -= 1;
        }
        Some(class)
    }

    /// The level a box goes to, and its cell there.
    fn slot_of(&self, aabb: &Aabb) -> Option<(u32, u32)> {
        let level = self.level_of_class[self.class_of(aabb)?];
        if level == NO_LEVEL {
            return None;
        }
        let level = u32::from(level);
        let cells = &self.levels[level as usize].cells;
        Some((level, cells.index(cells.cell_of(&aabb.mins)) as u32))
    }

    fn ensure_ids(&mut self, count: usize) {
        if self.place.len() < count {
            self.place.resize(count, Place::Absent);
            self.home.resize(count, Home::NOWHERE);
        }
    }

    /// Sorts every live box into the levels, clearing the overflow table.
    fn sort_boxes(&mut self, boxes: &Boxes) {
        self.place.clear();
        self.ensure_ids(boxes.len());
        self.overflow.clear();
        self.overflow_len = 0;
        self.large.clear();
        let mut bounds = Aabb::EMPTY;
        let mut largest = 0.0f64;
        for b in boxes.iter().flatten() {
            bounds.merge(b);
            largest = largest.max(largest_extent(b));
        }
        let span = if bounds.is_empty() { 0.0 } else { largest_extent(&bounds) };
        self.top_side = if largest > 0.0 { largest / FIT } else { span.max(1.0) };
        // Each box's class, then (once the levels exist) its level and cell; `NONE`: no box.
        let mut keys = std::mem::take(&mut self.keys);
        keys.clear();
        let mut per_class = [0usize; CLASSES];
        for b in boxes {
            let class = b.as_ref().map_or(NONE, |b| self.class_of(b).unwrap_or(0) as u32);
            if class != NONE {
                per_class[class as usize] += 1;
            }
            keys.push((class, 0));
        }
        let bounds = lattice_bounds(boxes, bounds, self.top_side, &per_class);
        let mut used = 0;
        self.level_of_class = [NO_LEVEL; CLASSES];
        for (class, &count) in per_class.iter().enumerate() {
            if count > 0 {
                if used == self.levels.len() {
                    self.levels.push(Level::default());
                }
                self.levels[used].reset(&bounds, self.top_side / (1u64 << class) as f64, count);
                used += 1;
            }
            self.level_of_class[class] = used.checked_sub(1).map_or(NO_LEVEL, |l| l as u8);
        }
        self.levels.truncate(used);
        // Counting sort: `starts[c + 1]` counts, then running totals, then each box advances its
        // cell's cursor (ids ascending within a cell), and the cursors shift back to the starts.
        for (key, b) in keys.iter_mut().zip(boxes) {
            if let Some(b) = b.as_ref().filter(|_| key.0 != NONE) {
                let level = u32::from(self.level_of_class[key.0 as usize]);
                let grid = &mut self.levels[level as usize];
                let cell = grid.cells.index(grid.cells.cell_of(&b.mins));
                grid.starts[cell + 1] += 1;
                *key = (level, cell as u32);
            }
        }
        for level in &mut self.levels {
            for c in 1..level.starts.len() {
                level.starts[c] += level.starts[c - 1];
            }
            let total = *level.starts.last().unwrap_or(&0) as usize;
            // Every slot below `total` is written by the scatter, so the last rebuild's copies
            // stay until then; past the last cell, a window of empty copies that the sweep may
            // read and ignore.
            let empty = Entry { aabb: Aabb::EMPTY, id: NONE, reach: 0 };
            level.entries.resize(total, empty);
            level.entries.extend([empty; WINDOW]);
        }
        self.indexed = 0;
        for (id, (&(level, cell), b)) in keys.iter().zip(boxes).enumerate() {
            // A home from an older rebuild names a slot that now holds another box.
            self.home[id] = Home::NOWHERE;
            if let Some(b) = b.filter(|_| level != NONE) {
                let grid = &mut self.levels[level as usize];
                let slot = grid.starts[cell as usize];
                grid.starts[cell as usize] += 1;
                let (low, high) = grid.cells.range_of(&b);
                let reach = (0..3).fold(0, |bits, a| bits | u8::from(high[a] > low[a]) << a);
                grid.entries[slot as usize] = Entry { aabb: b, id: id as u32, reach };
                self.home[id] = Home { level, cell, slot };
                self.place[id] = Place::Sorted;
                self.indexed += 1;
            }
        }
        for level in &mut self.levels {
            let cells = level.starts.len() - 1;
            level.starts.copy_within(..cells, 1);
            level.starts[0] = 0;
        }
        self.keys = keys;
    }

    /// Appends the pairs of the boxes in cells `cells` of level `level` with every box after
    /// them in their level's cell order and with every box of the levels before it (larger
    /// cells). A box's later neighbours are the rest of its own row and, when it reaches into
    /// them, the next row and the next layer's rows: a few slices, bounded once per cell.
    fn sweep(&self, level: usize, cells: Range<usize>, pairs: &mut Vec<Pair>) {
        let mut found = Found { pairs, batch: [(0, 0); BATCH], len: 0 };
        let grid = &self.levels[level];
        let [dx, dy, dz] = grid.cells.dims();
        let [mut x, mut y, mut z] = grid.cells.cell(cells.start);
        for cell in cells {
            let (first, end) = (grid.starts[cell] as usize, grid.starts[cell + 1] as usize);
            if first < end {
                // Row slices: start, end without and with the next cell along x.
                let x0 = x.saturating_sub(1);
                let x1 = (x + 1).min(dx - 1);
                let span = |row_y: u32, row_z: u32| {
                    let at = grid.cells.index([x0, row_y, row_z]);
                    let starts = &grid.starts;
                    let upto = |last: u32| starts[at + (last - x0) as usize + 1] as usize;
                    (starts[at] as usize, upto(x), upto(x1))
                };
                let own_end = [end, grid.starts[cell + 1 + (x1 - x) as usize] as usize];
                let next_row = (y + 1 < dy).then(|| span(y + 1, z));
                let mut next_layer = [(0, 0, 0); 3];
                let layer_rows = if z + 1 < dz {
                    let rows = y.saturating_sub(1)..=(y + 1).min(dy - 1);
                    let count = rows.clone().count();
                    for (slot, row_y) in next_layer.iter_mut().zip(rows) {
                        *slot = span(row_y, z + 1);
                    }
                    count
                } else {
                    0
                };
                let first_layer_row = usize::from(y > 0);
                for at in first..end {
                    let a = &grid.entries[at];
                    let (reach_x, reach_y, reach_z) = (a.reach & 1 != 0, a.reach & 2 != 0, a.reach & 4 != 0);
                    let entries = &grid.entries;
                    let pick =
                        |(start, near, far): (usize, usize, usize)| (start, if reach_x { far } else { near });
                    found.test(a, entries, (at + 1, own_end[usize::from(reach_x)]));
                    // Reaching the next row means there is one (cells are clamped to the lattice).
                    if let (true, Some(row)) = (reach_y, next_row) {
                        found.test(a, entries, pick(row));
                    }
                    if reach_z {
                        let rows = first_layer_row + 1 + usize::from(reach_y);
                        for &row in &next_layer[..rows.min(layer_rows)] {
                            found.test(a, entries, pick(row));
                        }
                    }
                    for coarser in &self.levels[..level] {
                        coarser.for_each_row(&a.aabb, |row| found.test(a, &coarser.entries, row));
                    }
                }
            }
            x += 1;
            if x == dx {
                x = 0;
                y += 1;
                if y == dy {
                    y = 0;
                    z += 1;
                }
            }
        }
        found.flush();
    }

    /// Takes `id` out of the overflow table, under the level and cell of its indexed box (or,
    /// if a caller passed another box, wherever it is).
    fn remove_overflow(&mut self, id: u32, aabb: &Aabb) {
        let key = self
            .slot_of(aabb)
            .filter(|key| self.overflow.get(key).is_some_and(|list| list.contains(&id)))
            .or_else(|| self.overflow.iter().find(|(_, list)| list.contains(&id)).map(|(&key, _)| key));
        let Some((level, cell)) = key else { return };
        if let Some(list) = self.overflow.get_mut(&(level, cell)) {
            if let Some(at) = list.iter().position(|&j| j == id) {
                list.swap_remove(at);
                self.overflow_len -= 1;
            }
            if list.is_empty() {
                self.overflow.remove(&(level, cell));
                self.levels[level as usize].set_overflowing(cell as usize, false);
            }
        }
    }
}

impl Strategy for HierarchicalGrid {
    fn rebuild(&mut self, boxes: &Boxes, pairs: &mut Vec<Pair>) {
        self.sort_boxes(boxes);
        // Tasks of consecutive cells holding about `SWEEP_CHUNK` boxes each.
        let mut tasks = Vec::new();
        for (level, grid) in self.levels.iter().enumerate() {
            let mut from = 0;
            while from + 1 < grid.starts.len() {
                let target = grid.starts[from] as usize + SWEEP_CHUNK;
                let to = grid
                    .starts
                    .partition_point(|&s| (s as usize) < target)
                    .clamp(from + 1, grid.starts.len() - 1);
                tasks.push((level, from..to));
                from = to;
            }
        }
        if tasks.len() < 2 || bvh_core::parallel::current_num_threads() < 2 {
            for (level, cells) in tasks {
                self.sweep(level, cells, pairs);
            }
            return;
        }
        let found: Vec<Vec<Pair>> = tasks
            .into_par_iter()
            .map(|(level, cells)| {
                let mut found = Vec::new();
                self.sweep(level, cells, &mut found);
                found
            })
            .collect();
        for part in found {
            pairs.extend_from_slice(&part);
        }
    }

    fn insert(&mut self, id: u32, boxes: &Boxes) {
        let aabb = *live(boxes, id);
        self.ensure_ids(id as usize + 1);
        self.indexed += 1;
        let Some((level, cell)) = self.slot_of(&aabb) else {
            self.large.push(id);
            self.place[id as usize] = Place::Large;
            return;
        };
        let home = self.home[id as usize];
        let grid = &mut self.levels[level as usize];
        if home.level == level
            && home.cell == cell
            && grid.entries.get(home.slot as usize).is_some_and(|e| e.id == id)
        {
            grid.entries[home.slot as usize].aabb = aabb;
            self.place[id as usize] = Place::Sorted;
            return;
        }
        self.overflow.entry((level, cell)).or_default().push(id);
        grid.set_overflowing(cell as usize, true);
        self.overflow_len += 1;
        self.place[id as usize] = Place::Overflow;
    }

    fn remove(&mut self, id: u32, aabb: &Aabb) {
        let Some(place) = self.place.get_mut(id as usize) else { return };
        match std::mem::take(place) {
            Place::Absent => return,
            Place::Sorted => {
                let home = self.home[id as usize];
                self.levels[home.level as usize].entries[home.slot as usize].aabb = Aabb::EMPTY;
            }
            Place::Overflow => self.remove_overflow(id, aabb),
            Place::Large => {
                if let Some(at) = self.large.iter().position(|&j| j == id) {
                    self.large.swap_remove(at);
                }
            }
        }
        self.indexed -= 1;
    }

    fn for_each_overlap(&self, id: u32, aabb: &Aabb, boxes: &Boxes, found: &mut dyn FnMut(u32)) {
        for (level, grid) in self.levels.iter().enumerate() {
            grid.for_each_row(aabb, |row| grid.for_each_hit(row, id, aabb, found));
            if self.overflow_len == 0 {
                continue;
            }
            let (lo, hi) = grid.reach(aabb);
            for z in lo[2]..=hi[2] {
                for y in lo[1]..=hi[1] {
                    for x in lo[0]..=hi[0] {
                        let cell = grid.cells.index([x, y, z]);
                        if !grid.is_overflowing(cell) {
                            continue;
                        }
                        for &j in &self.overflow[&(level as u32, cell as u32)] {
                            if j != id && aabb.intersects(live(boxes, j)) {
                                found(j);
                            }
                        }
                    }
                }
            }
        }
        for &j in &self.large {
            if j != id && aabb.intersects(live(boxes, j)) {
                found(j);
            }
        }
    }

    fn needs_rebuild(&self) -> bool {
        (self.overflow_len + self.large.len()) * OVERFLOW_FRACTION > self.indexed.max(OVERFLOW_FRACTION * 8)
    }
}

/// The sweep's output: pairs kept branch-free (each candidate written, the count advanced only
/// on a hit, since about one test in five hits) in a batch appended when nearly full.
struct Found<'a> {
    pairs: &'a mut Vec<Pair>,
    batch: [Pair; BATCH],
    len: usize,
}

impl Found<'_> {
    #[inline]
    fn offer(&mut self, a: &Entry, b: &Entry, hit: bool) {
        self.batch[self.len] = ordered(a.id, b.id);
        self.len += usize::from(hit);
    }

    /// Tests `a` against `entries[from..to]`, a window at a time (the entries run at least a
    /// window past any slice end). The same walk as `Level::for_each_hit`'s, written out: shared
    /// through a closure it slowed the sweep.
    #[inline]
    fn test(&mut self, a: &Entry, entries: &[Entry], (from, to): (usize, usize)) {
        let mut at = from;
        loop {
            if self.len > BATCH - WINDOW {
                self.flush();
            }
            for (k, b) in entries[at..at + WINDOW].iter().enumerate() {
                self.offer(a, b, (at + k < to) & a.aabb.intersects(&b.aabb));
            }
            at += WINDOW;
            if at >= to {
                break;
            }
        }
    }

    fn flush(&mut self) {
        self.pairs.extend_from_slice(&self.batch[..self.len]);
        self.len = 0;
    }
}

/// The bounds the lattices are fitted to: every box's, unless the finest level's cells over
/// them would exceed its budget – then the bounds of the bulk ([`bulk_bounds`]).
fn lattice_bounds(boxes: &Boxes, bounds: Aabb, top_side: f64, per_class: &[usize; CLASSES]) -> Aabb {
    let Some(finest) = (0..CLASSES).rev().find(|&c| per_class[c] > 0) else { return bounds };
    let side = top_side / (1u64 << finest) as f64;
    if Lattice::cells_over(&bounds, side) <= (CELLS_PER_BOX * per_class[finest] as f64).max(MIN_CELLS) {
        bounds
    } else {
        bulk_bounds(boxes, bounds)
    }
}
