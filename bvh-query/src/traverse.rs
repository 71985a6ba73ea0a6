//! The simultaneous descent of two trees (the bounding volume test tree), in A's frame with B's
//! relative pose computed once: node volumes are never refitted or moved up front (paper 000's
//! layered update), so a pair whose volumes miss high up costs nothing below.

use crate::node_test::NodeTest;
use crate::stats::{Stats, VolumeTest};
use bvh_build::{Bvh, ChildRef, NodeVolume};
use bvh_core::{Aabb, Real, RelativePose, Vector};
use std::cell::Cell;
use std::ops::{ControlFlow, Range};

thread_local! {
    /// Each thread's traversal stack, kept between queries.
    static STACK: Cell<Vec<Pair>> = const { Cell::new(Vec::new()) };
}

/// One side of a tree-pair: the volume that bounds it (a node's own, or for a leaf its
/// parent's) and, for a leaf, its triangles' leaf-order positions `first..end` (`end == 0`
/// for a node: a leaf is never empty). Kept to 12 bytes: the stack is the hot data.
#[derive(Clone, Copy, Debug)]
struct Side {
    volume: u32,
    first: u32,
    end: u32,
}

impl Side {
    fn node(i: usize) -> Self {
        Self { volume: i as u32, first: 0, end: 0 }
    }

    fn leaf(volume: usize, range: Range<usize>) -> Self {
        Self { volume: volume as u32, first: range.start as u32, end: range.end as u32 }
    }

    fn triangles(&self) -> Option<Range<usize>> {
        (self.end > 0).then_some(self.first as usize..self.end as usize)
    }

    fn volume(&self) -> usize {
        self.volume as usize
    }
}

/// A pair of sides, and whether it still needs testing. A leaf paired with a node is tested by
/// its triangles' own box, far tighter than the parent volume it otherwise stands under: without
/// it a leaf of two long triangles under a large parent dragged the other tree's whole subtree
/// down to its leaves (2,032 volume tests against 140 with single-triangle leaves on the
/// accumulator bay at the installed pose). Two leaves go straight to the triangle tests, which
/// check boxes first.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pair {
    a: Side,
    b: Side,
    untested: bool,
}

/// How a traversal runs.
pub(crate) struct Descent<'a, VA, VB> {
    pub(crate) a: &'a Bvh<VA>,
    pub(crate) b: &'a Bvh<VB>,
    pub(crate) b_in_a: RelativePose,
    /// A's volumes are grown by this much (clearance queries); zero for contact.
    pub(crate) margin: Real,
    pub(crate) prejudge: bool,
    /// Overlap-region culling (paper 002): the box in A's frame where every contact (or near
    /// pair) must lie, the overlap of the two objects' boxes; nodes missing it cannot take part.
    pub(crate) region: Option<Aabb>,
    /// For swept tests: B's translation over the motion, in B's own frame.
    pub(crate) sweep: Option<Vector>,
    /// A's pose in B's frame (the inverse of `b_in_a`), to test B's nodes against boxes in A.
    pub(crate) a_in_b: RelativePose,
    /// For swept tests: B's translation over the motion, in A's frame (for the triangles).
    pub(crate) motion: Option<Vector>,
    /// B's top volume's box in A's frame, grown by the margin (`None` for swept tests): an A
    /// node whose box misses it is pruned by six comparisons before any volume test.
    pub(crate) b_box: Option<Aabb>,
    /// Of two pairs a pair opens into, visit first the one whose volumes' centres lie closer:
    /// a search that stops at its first contact finds it sooner (on the anchors' random poses,
    /// 35–45 % fewer volume tests). A full search gains nothing from it.
    pub(crate) nearest_first: bool,
}

impl<VA, VB> Descent<'_, VA, VB>
where
    VA: NodeVolume + NodeTest<VB>,
    VB: NodeVolume,
{
    /// The whole tree-pair: the two top nodes.
    pub(crate) fn start(&self) -> Option<Pair> {
        self.below(0, 0)
    }

    /// The tree-pair below node `a` of A and node `b` of B (`None` if either does not exist).
    pub(crate) fn below(&self, a: usize, b: usize) -> Option<Pair> {
        (a < self.a.node_count() && b < self.b.node_count()).then_some(Pair {
            a: Side::node(a),
            b: Side::node(b),
            untested: true,
        })
    }

    /// Calls `leaves` with every pair of leaves below `start` whose bounding volumes overlap,
    /// and the nodes holding them, until it breaks. The stack is this thread's, reused from
    /// query to query, so a warm traversal allocates nothing.
    pub(crate) fn run<S: Stats>(
        &self,
        start: impl IntoIterator<Item = Pair>,
        stats: &mut S,
        mut leaves: impl FnMut(Range<usize>, Range<usize>, [usize; 2], &mut S) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        // Taken, not borrowed: a query started from inside `leaves` just gets a fresh stack.
        let mut stack = STACK.take();
        stack.clear();
        stack.extend(start);
        let mut flow = ControlFlow::Continue(());
        let mut last = LastLeaf::default();
        while let Some(pair) = stack.pop() {
            if let Step::Leaves(ra, rb) = self.step(&pair, &mut last, stats, &mut stack) {
                flow = leaves(ra, rb, [pair.a.volume(), pair.b.volume()], stats);
                if flow.is_break() {
                    break;
                }
            }
        }
        STACK.set(stack);
        flow
    }

    /// One pair of the descent: tested (if it needs it), then either dropped, handed over as two
    /// leaves, or opened into `out` by the descent rule.
    #[inline]
    fn step(&self, pair: &Pair, last: &mut LastLeaf, stats: &mut impl Stats, out: &mut Vec<Pair>) -> Step {
        if pair.untested && !self.pair_overlaps(pair, last, stats) {
            stats.front_pair();
            return Step::Apart;
        }
        match (pair.a.triangles(), pair.b.triangles()) {
            (Some(ra), Some(rb)) => {
                stats.front_pair();
                Step::Leaves(ra, rb)
            }
            _ => {
                self.children(pair, out);
                Step::Opened
            }
        }
    }

    /// Opens the tree-pair level by level until at least `want` pairs are left (or nothing
    /// opens): disjoint subtrees whose leaf pairs are together exactly those of the whole, to be
    /// traversed on different threads.
    pub(crate) fn split(&self, want: usize, stats: &mut impl Stats) -> Vec<Pair> {
        let mut level: Vec<Pair> = self.start().into_iter().collect();
        let mut last = LastLeaf::default();
        while level.len() < want {
            let mut next = Vec::with_capacity(level.len() * 2);
            let mut opened = false;
            for pair in level {
                match self.step(&pair, &mut last, stats, &mut next) {
                    Step::Apart => {}
                    Step::Leaves(..) => next.push(Pair { untested: false, ..pair }),
                    Step::Opened => opened = true,
                }
            }
            level = next;
            if !opened {
                break;
            }
        }
        level
    }

    /// The test of a pair: two node volumes, or a leaf's own box against the other's node.
    #[inline]
    fn pair_overlaps(&self, pair: &Pair, last: &mut LastLeaf, stats: &mut impl Stats) -> bool {
        if self.sweep.is_some() {
            // Leaf boxes are not swept: a swept query keeps the parents' swept volumes.
            return self.overlap(pair.a.volume(), pair.b.volume(), stats);
        }
        // A leaf's box is taken in the other tree's frame, where the node it meets has no
        // rotation to compose: the leaf is moved once for the run of nodes it meets.
        match (pair.a.triangles(), pair.b.triangles()) {
            (Some(ra), None) => {
                stats.volume_test(VolumeTest::LeafBox);
                let leaf = last
                    .get(true, ra.start, || moved_leaf_box(self.a, ra, &self.a_in_b).loosened(self.margin));
                self.b.volume(pair.b.volume()).intersects_aabb(&leaf)
            }
            (None, Some(rb)) => {
                stats.volume_test(VolumeTest::LeafBox);
                let leaf = last
                    .get(false, rb.start, || moved_leaf_box(self.b, rb, &self.b_in_a).loosened(self.margin));
                self.a.volume(pair.a.volume()).intersects_aabb(&leaf)
            }
            _ => self.overlap(pair.a.volume(), pair.b.volume(), stats),
        }
    }

    /// The volume test of node `a` of A against node `b` of B.
    #[inline]
    fn overlap(&self, a: usize, b: usize, stats: &mut impl Stats) -> bool {
        if self.b_box.is_some_and(|bb| !self.a.node_box(a).intersects(&bb)) {
            stats.volume_test(VolumeTest::NodeBox);
            return false;
        }
        let vb = match &self.sweep {
            Some(motion) => self.b.volume(b).swept(motion),
            None => *self.b.volume(b),
        };
        if self.margin > 0.0 {
            self.a.volume(a).inflated(self.margin).test(&vb, &self.b_in_a, self.prejudge, stats)
        } else {
            self.a.volume(a).test(&vb, &self.b_in_a, self.prejudge, stats)
        }
    }

    /// The descent rule, in one place: open the side that is not a leaf, or of two nodes the
    /// one with the larger volume.
    fn splits_a(&self, a: &Side, b: &Side) -> bool {
        match (a.end > 0, b.end > 0) {
            (false, true) => true,
            (true, false) => false,
            _ => self.a.volume(a.volume()).measure() >= self.b.volume(b.volume()).measure(),
        }
    }

    /// Whether node `i` of A (or of B) can reach the overlap region.
    #[inline]
    fn in_region(&self, of_a: bool, i: usize) -> bool {
        let Some(region) = &self.region else { return true };
        if of_a {
            self.a.volume(i).overlaps(region, &RelativePose::identity())
        } else {
            self.b.volume(i).overlaps(region, &self.a_in_b)
        }
    }

    /// The pairs a pair with at least one node side opens into, by the descent rule.
    fn children(&self, pair: &Pair, out: &mut Vec<Pair>) {
        let split_a = self.splits_a(&pair.a, &pair.b);
        let node = if split_a { pair.a.volume() } else { pair.b.volume() };
        let slots = if split_a { self.a.children(node) } else { self.b.children(node) };
        let other_is_node = if split_a { pair.b.end == 0 } else { pair.a.end == 0 };
        let before = out.len();
        for slot in slots {
            let (side, untested) = match slot.get() {
                ChildRef::Node(i) if !self.in_region(split_a, i) => continue,
                ChildRef::Node(i) => (Side::node(i), true),
                ChildRef::Leaf(r) if !r.is_empty() => {
                    (Side::leaf(node, r), other_is_node && self.sweep.is_none())
                }
                ChildRef::Leaf(_) => continue,
            };
            out.push(if split_a {
                Pair { a: side, b: pair.b, untested }
            } else {
                Pair { a: pair.a, b: side, untested }
            });
        }
        if self.nearest_first {
            if let [first, second] = &mut out[before..] {
                let [to_first, to_second] = self.centre_distances(split_a, pair, [first, second]);
                // The stack pops the last pushed first: the nearer pair goes there.
                if to_second > to_first {
                    std::mem::swap(first, second);
                }
            }
        }
    }

    /// Squared distances between the volumes' centres of two pairs `parent` opened into (they
    /// share its unopened side), measured in the frame of the opened side – rigid motions keep
    /// distances – so that only the shared centre is moved, once.
    fn centre_distances(&self, split_a: bool, parent: &Pair, pairs: [&Pair; 2]) -> [Real; 2] {
        let (shared, centres) = if split_a {
            let shared = self.b_in_a.transform_point(&self.b.volume(parent.b.volume()).center());
            (shared, pairs.map(|p| self.a.volume(p.a.volume()).center()))
        } else {
            let shared = self.a_in_b.transform_point(&self.a.volume(parent.a.volume()).center());
            (shared, pairs.map(|p| self.b.volume(p.b.volume()).center()))
        };
        centres.map(|c| (c - shared).norm_squared())
    }
}

/// What became of a pair in one step of the descent.
enum Step {
    /// Its volumes are apart: nothing below it can touch.
    Apart,
    /// Two leaves whose volumes overlap: their triangles' leaf-order positions.
    Leaves(Range<usize>, Range<usize>),
    /// Opened: the pairs below it were pushed.
    Opened,
}

/// The box of the leaf tested last: a leaf stays on the stack against a whole subtree of the
/// other tree, so its box is computed once for the run of tests, not once per test.
#[derive(Default)]
struct LastLeaf(Option<(bool, usize, Aabb)>);

impl LastLeaf {
    /// The box of the leaf whose triangles start at `first` (of A when `of_a`), computed if new.
    #[inline]
    fn get(&mut self, of_a: bool, first: usize, compute: impl FnOnce() -> Aabb) -> Aabb {
        match self.0 {
            Some((side, cached, aabb)) if side == of_a && cached == first => aabb,
            _ => {
                let aabb = compute();
                self.0 = Some((of_a, first, aabb));
                aabb
            }
        }
    }
}

/// The box, in the other tree's frame, around a leaf's triangles moved there by `pose`. B's
/// triangles are moved into A's frame exactly as the triangle tests move them; the box is
/// loosened by the rounding of the move, so it also holds the exact images.
#[inline]
fn moved_leaf_box<V: NodeVolume>(tree: &Bvh<V>, triangles: Range<usize>, pose: &RelativePose) -> Aabb {
    let mut aabb = Aabb::EMPTY;
    let mut reach: Real = 0.0;
    for i in triangles {
        let t = tree.mesh().triangle(i);
        for p in [t.a, t.b, t.c] {
            reach = reach.max(p.coords.amax());
            aabb.take_point(&pose.transform_point(&p));
        }
    }
    // Each coordinate sums three products and a shift: a few units in the last place of its terms.
    aabb.loosened(8.0 * Real::EPSILON * (2.0 * reach + pose.translation.amax()))
}
