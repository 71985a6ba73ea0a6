//! The octree over a uniform grid of paper 003: cubic top cells; a cell holding more than
//! `F_max` boxes splits into eight, recursively, until each holds at most `F_max` or a split
//! makes no progress. The paper stops when one child would keep every box (`delta = 0`); that
//! lets boxes larger than the cells be copied into every child, level after level (a clustered
//! scene of 100,000 boxes took 52 s to build), and stops a tight cluster that sits in one
//! octant, which the next level would separate. So a split goes ahead when it copies no box, or
//! when it cuts the pair tests (the sum of squared child counts below the squared count). A pair
//! is reported from the one leaf holding the start of its overlap.

use crate::cells::{CellSide, IdList, Lattice, forget, overlaps_with_large};
use crate::pair_set::ordered;
use crate::strategy::{Boxes, Strategy, live, overlap_start};
use bvh_core::{Aabb, Point, Real, Vector};

/// Top cells are this many mean box extents wide unless set.
const DEFAULT_TOP_CELL_EXTENTS: Real = 4.0;
/// The default `F_max`.
const DEFAULT_MAX_PER_LEAF: usize = 8;
/// Cells are never split below `top side / 2^MAX_DEPTH`.
const MAX_DEPTH: u8 = 12;

/// An octree below each cell of a uniform grid (paper 003).
#[derive(Clone, Debug)]
pub struct Octree {
    top_side: CellSide,
    max_per_leaf: usize,
    lattice: Lattice,
    /// The top cells first (in lattice order), then split children in groups of eight.
    nodes: Vec<Node>,
    /// Boxes covering too many top cells, tested against everything directly.
    large: IdList,
}

#[derive(Clone, Debug)]
struct Node {
    min: Point,
    half: Real,
    /// First of eight consecutive children; 0 for a leaf (node 0 is a top cell, never a child).
    first_child: u32,
    depth: u8,
    /// How many boxes it held when a split last made no progress (0: never); tried again once
    /// it holds twice as many.
    stalled_at: usize,
    objects: IdList,
}

impl Node {
    fn new(min: Point, side: Real, depth: u8) -> Self {
        Self { min, half: side / 2.0, first_child: 0, depth, stalled_at: 0, objects: IdList::new() }
    }

    fn mid(&self) -> Point {
        self.min + Vector::repeat(self.half)
    }

    /// The octant holding `p` (bit `a` set: upper half along axis `a`).
    #[inline]
    fn octant_of(&self, p: &Point) -> u32 {
        let mid = self.mid();
        (0..3).map(|a| u32::from(p[a] >= mid[a]) << a).sum()
    }

    /// The octants a box reaches, as a bit set of eight: exactly those holding one of its points.
    #[inline]
    fn octants_of(&self, aabb: &Aabb) -> u8 {
        let mid = self.mid();
        let mut set = 0u8;
        for octant in 0..8u32 {
            let reaches = (0..3)
                .all(|a| if octant >> a & 1 == 1 { aabb.maxs[a] >= mid[a] } else { aabb.mins[a] < mid[a] });
            set |= u8::from(reaches) << octant;
        }
        set
    }
}

impl Default for Octree {
    fn default() -> Self {
        Self {
            top_side: CellSide::MeanExtents(DEFAULT_TOP_CELL_EXTENTS),
            max_per_leaf: DEFAULT_MAX_PER_LEAF,
            lattice: Lattice::default(),
            nodes: Vec::new(),
            large: IdList::new(),
        }
    }
}

impl Octree {
    /// An octree with top cells `side` wide (default: four mean extents) and at most
    /// `max_per_leaf` boxes per leaf (`F_max`, default 8) unless a split makes no progress.
    pub fn new(top_side: CellSide, max_per_leaf: usize) -> Self {
        Self { top_side, max_per_leaf: max_per_leaf.max(1), ..Self::default() }
    }

    /// How many leaves hold boxes, and the deepest leaf (after the last update).
    pub fn leaf_stats(&self) -> (usize, u8) {
        let leaves = self.nodes.iter().filter(|n| n.first_child == 0 && !n.objects.is_empty());
        leaves.fold((0, 0), |(count, depth), n| (count + 1, depth.max(n.depth)))
    }

    /// The leaf holding `p`.
    fn leaf_of(&self, p: &Point) -> usize {
        let mut n = self.lattice.index(self.lattice.cell_of(p));
        while self.nodes[n].first_child != 0 {
            n = (self.nodes[n].first_child + self.nodes[n].octant_of(p)) as usize;
        }
        n
    }

    /// Calls `visit` with every leaf a box reaches.
    fn for_each_leaf(&self, aabb: &Aabb, mut visit: impl FnMut(usize)) {
        let mut stack = Vec::new();
        self.lattice.for_each_index(self.lattice.range_of(aabb), |top| stack.push(top));
        while let Some(n) = stack.pop() {
            let node = &self.nodes[n];
            if node.first_child == 0 {
                visit(n);
            } else {
                push_octants(&mut stack, node, aabb);
            }
        }
    }

    /// Splits leaf `n` if it holds too many boxes and splitting makes progress, recursively.
    fn split(&mut self, n: usize, boxes: &Boxes) {
        let node = &self.nodes[n];
        let count = node.objects.len();
        if count <= self.max_per_leaf || count <= 2 * node.stalled_at || node.depth >= MAX_DEPTH {
            return;
        }
        let mut counts = [0usize; 8];
        for &id in &node.objects {
            let set = node.octants_of(live(boxes, id));
            (0..8).filter(|o| set >> o & 1 == 1).for_each(|o| counts[o] += 1);
        }
        // Split only if it cuts the pair tests (boxes copied into several children can make it
        // worse), or copies nothing (all in one octant: the next level may separate them).
        let copies: usize = counts.iter().sum();
        let tests_after: usize = counts.iter().map(|c| c * c).sum();
        if copies > count && tests_after >= count * count {
            self.nodes[n].stalled_at = count;
            return;
        }
        let first = self.nodes.len() as u32;
        let (min, half, depth) = (node.min, node.half, node.depth + 1);
        for octant in 0..8u32 {
            let offset = Vector::from_fn(|a, _| if octant >> a & 1 == 1 { half } else { 0.0 });
            self.nodes.push(Node::new(min + offset, half, depth));
        }
        let objects = std::mem::take(&mut self.nodes[n].objects);
        self.nodes[n].first_child = first;
        for id in objects {
            let set = self.nodes[n].octants_of(live(boxes, id));
            for o in (0..8).filter(|o| set >> o & 1 == 1) {
                self.nodes[(first + o) as usize].objects.push(id);
            }
        }
        for child in first..first + 8 {
            self.split(child as usize, boxes);
        }
    }
}

fn push_octants(stack: &mut Vec<usize>, node: &Node, aabb: &Aabb) {
    let set = node.octants_of(aabb);
    stack.extend((0..8).filter(|o| set >> o & 1 == 1).map(|o| (node.first_child + o) as usize));
}

impl Strategy for Octree {
    fn rebuild(&mut self, boxes: &Boxes, pairs: &mut Vec<(u32, u32)>) {
        self.lattice = Lattice::fit(boxes, self.top_side);
        self.nodes.clear();
        for index in 0..self.lattice.cell_count() {
            let cell = self.lattice.cell(index);
            self.nodes.push(Node::new(self.lattice.cell_min(cell), self.lattice.side(), 0));
        }
        self.large.clear();
        // Fill the top cells first, then split each once: inserting one by one would judge
        // splits on the first few boxes of a cell.
        for (id, aabb) in boxes.iter().enumerate() {
            if let Some(aabb) = aabb {
                let range = self.lattice.range_of(aabb);
                if Lattice::is_large_range(range) {
                    self.large.push(id as u32);
                } else {
                    let nodes = &mut self.nodes;
                    self.lattice.for_each_index(range, |top| nodes[top].objects.push(id as u32));
                }
            }
        }
        for top in 0..self.lattice.cell_count() {
            self.split(top, boxes);
        }
        for (n, node) in self.nodes.iter().enumerate() {
            for (k, &i) in node.objects.iter().enumerate() {
                let a = live(boxes, i);
                for &j in &node.objects[k + 1..] {
                    let b = live(boxes, j);
                    if a.intersects(b) && self.leaf_of(&overlap_start(a, b)) == n {
                        pairs.push(ordered(i, j));
                    }
                }
            }
        }
        self.lattice.pairs_with_large(&self.large, boxes, pairs);
    }

    fn insert(&mut self, id: u32, boxes: &Boxes) {
        let aabb = *live(boxes, id);
        if self.lattice.is_large(&aabb) {
            self.large.push(id);
            return;
        }
        let mut leaves = Vec::new();
        self.for_each_leaf(&aabb, |leaf| leaves.push(leaf));
        for leaf in leaves {
            self.nodes[leaf].objects.push(id);
            self.split(leaf, boxes);
        }
    }

    fn remove(&mut self, id: u32, aabb: &Aabb) {
        if self.lattice.is_large(aabb) {
            forget(&mut self.large, id);
            return;
        }
        let mut leaves = Vec::new();
        self.for_each_leaf(aabb, |leaf| leaves.push(leaf));
        for leaf in leaves {
            forget(&mut self.nodes[leaf].objects, id);
        }
    }

    fn for_each_overlap(&self, id: u32, aabb: &Aabb, boxes: &Boxes, found: &mut dyn FnMut(u32)) {
        if self.lattice.is_large(aabb) {
            return crate::BruteForce.for_each_overlap(id, aabb, boxes, found);
        }
        self.for_each_leaf(aabb, |leaf| {
            for &j in &self.nodes[leaf].objects {
                let b = live(boxes, j);
                if j != id && aabb.intersects(b) && self.leaf_of(&overlap_start(aabb, b)) == leaf {
                    found(j);
                }
            }
        });
        overlaps_with_large(&self.large, id, aabb, boxes, found);
    }
}
