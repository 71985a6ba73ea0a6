//! The simultaneous descent of two trees (the bounding volume test tree), in A's frame with B's
//! relative pose computed once: node volumes are never refitted or moved up front (paper 000's
//! layered update), so a pair whose volumes miss high up costs nothing below.

use crate::node_test::NodeTest;
use crate::stats::{Stats, VolumeTest};
use crate::workspace;
use bvh_build::{Bvh, ChildRef, NodeVolume};
use bvh_core::Triangle;
use bvh_core::bits::set_bits;
use bvh_core::triangle::{PlacedTriangles, TRIANGLE_LANES};
use bvh_core::{Aabb, Point, Real, RelativePose, Vector, max, mean, min};
use smallvec::SmallVec;
use std::collections::BinaryHeap;
use std::ops::{ControlFlow, Range};

/// One side of a tree-pair: the node whose volume bounds it (the node itself, or for a leaf its
/// parent) and, for a leaf, its triangles' leaf-order positions `first..end` (`end == 0`
/// for a node: a leaf is never empty). Kept to 12 bytes: the stack is the hot data.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Side {
    node: u32,
    first: u32,
    end: u32,
}

impl Side {
    pub(crate) fn node(i: usize) -> Self {
        Self { node: i as u32, first: 0, end: 0 }
    }

    pub(crate) fn leaf(parent: usize, range: Range<usize>) -> Self {
        Self { node: parent as u32, first: range.start as u32, end: range.end as u32 }
    }

    fn is_leaf(&self) -> bool {
        self.end > 0
    }

    fn triangles(&self) -> Option<Range<usize>> {
        self.is_leaf().then_some(self.first as usize..self.end as usize)
    }

    /// The node whose volume bounds it (for a leaf, its parent).
    fn node_index(&self) -> usize {
        self.node as usize
    }
}

/// A pair of sides, and whether it still needs testing. A leaf paired with a node is tested by
/// its own triangles, far tighter than the parent volume it otherwise stands under: without
/// that a leaf of two long triangles under a large parent dragged the other tree's whole subtree
/// down to its leaves (2,032 volume tests against 140 with single-triangle leaves on the
/// accumulator bay at the installed pose). Each triangle meets the node by the 13 axes of a
/// triangle and a box – tighter again than the triangles' box, which is mostly empty around a
/// large slanted triangle. Two leaves go straight to the triangle tests, which check boxes first.
///
/// A leaf's triangles found apart from a node are apart from everything below it: the pairs
/// under that one leave them out (`live_a`, `live_b`), in their tests and at the leaf pairs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pair {
    a: Side,
    b: Side,
    untested: bool,
    live_a: Live,
    live_b: Live,
}

/// Which of a leaf's triangles may still meet the other side: bit `k` for its `k`-th, those
/// past the eighth always. A byte keeps the pair in the padding of its sides.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Live(u8);

impl Live {
    pub(crate) const ALL: Self = Self(u8::MAX);
    /// How many of a leaf's triangles have a bit.
    const MARKED: usize = u8::BITS as usize;

    /// Whether a live triangle of a leaf (`groups`, placed in the other side's frame) may meet
    /// the other side's node, `meets` telling which of a group's live triangles may; those
    /// found apart are dropped.
    #[inline(always)]
    pub(crate) fn narrow(
        &mut self,
        groups: &[PlacedTriangles],
        meets: impl Fn(&PlacedTriangles, u32) -> u32,
    ) -> bool {
        let mut any = false;
        for (g, group) in groups.iter().enumerate() {
            let first = g * TRIANGLE_LANES;
            let live = if first >= Self::MARKED { GROUP } else { u32::from(self.0 >> first) & GROUP };
            if live == 0 {
                continue;
            }
            let meeting = meets(group, live);
            any |= meeting != 0;
            if first < Self::MARKED {
                self.0 &= !(((live & !meeting) << first) as u8);
            }
        }
        any
    }
}

/// The bits of one group's triangles.
const GROUP: u32 = (1 << TRIANGLE_LANES) - 1;

// A group's bits are all marked or none.
const _: () = assert!(Live::MARKED % TRIANGLE_LANES == 0);

/// How a traversal runs.
pub(crate) struct Descent<'a, VA, VB> {
    pub(crate) a: &'a Bvh<VA>,
    pub(crate) b: &'a Bvh<VB>,
    pub(crate) b_in_a: RelativePose,
    /// A's volumes are grown by this much: the clearance of a clearance query, plus the
    /// rounding of placing B in A's frame (`Query::placement_slack`).
    pub(crate) margin: Real,
    /// How far apart two triangles' boxes may be and the triangles still count: `None` when
    /// the query asks for touching pairs of triangles that stay put, whose boxes – of the
    /// triangles as the exact test sees them, B's moved into A's frame – are compared exactly;
    /// else the margin, which covers a clearance compared with a rounded distance or a swept
    /// box's rounded end.
    pub(crate) triangle_margin: Option<Real>,
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
    /// node popped untested whose box misses it is pruned by six comparisons before any volume
    /// test. A full search, which tests pairs as they are opened, skips it: there it rarely
    /// prunes, and would read each node's box for nothing.
    pub(crate) b_box: Option<Aabb>,
    /// Of two pairs a pair opens into, visit first the one whose volumes' centres lie closer:
    /// a search that stops at its first contact finds it sooner, with far fewer volume tests.
    /// A full search gains nothing from it.
    pub(crate) nearest_first: bool,
    /// How the descent rule weighs two nodes: the larger is opened.
    pub(crate) larger_by: Larger,
    /// Whether a node whose two children are leaves of [`MERGED_LEAF_MOST`] triangles in all
    /// counts as one leaf, under its own volume: a full or distance search then compares or
    /// measures a few more triangle pairs, most dismissed by their boxes, and spares the tests
    /// of two small leaves against the other tree's nodes, which cost more. A first-contact
    /// search, which mostly stops before it reaches many leaves, does better without.
    pub(crate) merged_leaves: bool,
    /// Whether the search starts loading a pair's children as it opens it, before it tests them
    /// (their nodes whole, or a leaf's triangles): a full search in trees larger than the
    /// caches, whose tests otherwise wait on memory for each. Not a first-contact search, which
    /// tests the children only as it pops them.
    pub(crate) prefetch: bool,
}

/// What makes one node larger than another for the descent rule, chosen per kind of search by
/// measurement on the anchors' pairs. A search for every pair opens the larger surface: a flat
/// box – a piece of a wall or of a thin shell – has almost no volume yet meets much, and opening
/// it first prunes more; of two nodes of about the same surface (within [`BOTH_WITHIN`]) it
/// opens both, their four pairs of children tested in one step. First-contact and distance
/// searches open the larger volume, which served them better (a distance search's lower bounds
/// tighten faster so).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Larger {
    Surface,
    Volume,
}

impl<VA, VB> Descent<'_, VA, VB>
where
    VA: NodeVolume + NodeTest<VB>,
    VB: NodeVolume,
{
    /// The whole tree-pair: the two top nodes.
    pub(crate) fn start(&self) -> Option<Pair> {
        (self.a.node_count() > 0 && self.b.node_count() > 0)
            .then_some(Pair::between(Side::node(0), Side::node(0)))
    }

    /// Calls `leaves` with every pair of leaves below `start` whose bounding volumes overlap
    /// (each with those of its triangles that may meet the other), until it breaks. With
    /// `front`, the pairs where the descent
    /// stopped (found apart, or handed to `leaves`) are appended to it: if it never broke, they
    /// cover every leaf pair below `start`, and a search from them next time is a search from
    /// `start`. The stack is this thread's, reused from query to query, so a warm traversal
    /// allocates nothing.
    pub(crate) fn run<S: Stats>(
        &self,
        start: impl IntoIterator<Item = Pair>,
        front: &mut impl Front,
        stats: &mut S,
        mut leaves: impl FnMut([LiveLeaf; 2], &mut S) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        // Taken, not borrowed: a query started from inside `leaves` just gets a fresh stack.
        let mut stack = workspace::take_stack();
        stack.extend(start);
        let mut flow = ControlFlow::Continue(());
        let mut walk = Walk::new(front);
        while let Some(mut pair) = stack.pop() {
            if let Step::Leaves(sides) = self.step(&mut pair, &mut walk, stats, &mut stack) {
                flow = leaves(sides, stats);
                if flow.is_break() {
                    break;
                }
            }
        }
        workspace::put_stack(stack);
        flow
    }

    /// One pair of the descent: tested (if it needs it), then either dropped, handed over as two
    /// leaves, or opened into `out` by the descent rule.
    #[inline]
    fn step<F: Front>(
        &self,
        pair: &mut Pair,
        walk: &mut Walk<F, VA, VB>,
        stats: &mut impl Stats,
        out: &mut Vec<Pair>,
    ) -> Step {
        if pair.untested {
            let apart = if F::MEASURES_GAPS {
                self.popped_separation(pair, walk, stats)
            } else {
                (!self.popped_overlaps(pair, walk, stats)).then_some(0.0)
            };
            if let Some(gap) = apart {
                walk.stop(pair, gap, stats);
                return Step::Apart;
            }
        }
        match (pair.a.triangles(), pair.b.triangles()) {
            (Some(ra), Some(rb)) => {
                walk.stop(pair, 0.0, stats);
                Step::Leaves([
                    LiveLeaf { triangles: ra, live: pair.live_a },
                    LiveLeaf { triangles: rb, live: pair.live_b },
                ])
            }
            _ => {
                self.children(pair, walk, stats, out);
                Step::Opened
            }
        }
    }

    /// The test of a pair popped untested. Two nodes, the hot case of a first-contact search,
    /// are tested first, with B's node placed through the walk's slots: behind
    /// `pair_overlaps`' leaf cases, or through an enum of what to share, first contact was
    /// measurably slower.
    #[inline(always)]
    fn popped_overlaps(
        &self,
        pair: &mut Pair,
        walk: &mut Walk<impl Front, VA, VB>,
        stats: &mut impl Stats,
    ) -> bool {
        if !pair.a.is_leaf() && !pair.b.is_leaf() {
            let (a, b) = (pair.a.node_index(), pair.b.node_index());
            return !self.outside_b_box(a, stats)
                && self.with_b_volume(b, |vb| {
                    let va = self.a.volume(a);
                    va.test(self.margin, vb, &self.b_in_a, walk.placed_b.slot(b), self.prejudge, stats)
                });
        }
        self.pair_overlaps(pair, true, walk, stats)
    }

    /// Opens the tree-pair level by level until at least `want` pairs are left (or nothing
    /// opens): disjoint subtrees whose leaf pairs are together exactly those of the whole, to be
    /// traversed on different threads. They come in the order one descent from the top visits
    /// them, so their leaf pairs, taken subtree after subtree, come in its order too.
    pub(crate) fn split(&self, want: usize, stats: &mut impl Stats) -> Vec<Pair> {
        let mut level: Vec<Pair> = self.start().into_iter().collect();
        let mut no_front = ();
        let mut walk = Walk::new(&mut no_front);
        while level.len() < want {
            let mut next = Vec::with_capacity(level.len() * 2);
            let mut opened = false;
            for mut pair in level {
                let before = next.len();
                match self.step(&mut pair, &mut walk, stats, &mut next) {
                    Step::Apart => {}
                    Step::Leaves(..) => next.push(Pair { untested: false, ..pair }),
                    Step::Opened => {
                        // A descent's stack pops the last pushed first.
                        next[before..].reverse();
                        opened = true;
                    }
                }
            }
            level = next;
            if !opened {
                break;
            }
        }
        level
    }

    /// The search for the nearest triangle pair, from the top or from the pairs `start` with
    /// lower bounds on their distance. From the pair with the least bound (a heap keeps the pairs
    /// put aside), the search dives to the leaves through the nearer child of each pair opened
    /// (by lower bound, then by the volumes' centres), and puts the farther aside; a pair whose
    /// bound is no less than `cutoff` is dropped, and once the least bound put aside reaches it
    /// the search is over. `leaves` gets every pair of leaves reached – A's triangles by
    /// leaf-order positions, B's also as their corners placed in A's frame (placed once for all
    /// the leaf's tests) – with the cutoff, and returns what it measured ([`Measured`]). A node
    /// against a node or a leaf is tried first by the gap along the line of the nearest pair
    /// (from A's closest point to B's: `first_line`, until the leaves find a nearer pair). Every
    /// pair the search stops at goes to `front` with its bound: with the pairs not started from,
    /// they cover every pair of leaves.
    pub(crate) fn nearest<S: Stats>(
        &self,
        start: Option<impl Iterator<Item = (Pair, Real)>>,
        mut cutoff: Real,
        first_line: Option<Vector>,
        front: &mut impl Front,
        stats: &mut S,
        mut leaves: impl FnMut(Range<usize>, Range<usize>, &[Point], Real, &mut S) -> Measured,
    ) {
        let mut walk = Walk::new(front);
        walk.across = first_line.and_then(|line| self.across(&line));
        let mut aside = workspace::take_heap();
        match start {
            // Pairs of an earlier search's front, their bounds lowered by B's travel since: a
            // node's bound is measured afresh at once, and mostly clears the cutoff again; two
            // leaves wait for their turn, to be measured by their triangles (their bound is
            // mostly a tie with the answer that no box settles).
            Some(pairs) => {
                for (pair, bound) in pairs {
                    if pair.a.is_leaf() && pair.b.is_leaf() {
                        aside.push(Aside { bound, pair });
                        continue;
                    }
                    let fresh = max(self.pair_bound(&pair, cutoff, &mut walk, stats), bound);
                    if fresh < cutoff {
                        aside.push(Aside { bound: fresh, pair });
                    } else {
                        self.stop_apart(&pair, fresh, &mut walk, stats);
                    }
                }
            }
            None => aside.extend(self.start().map(|pair| Aside { bound: 0.0, pair })),
        }
        let mut aside = BinaryHeap::from(aside);
        while let Some(Aside { mut bound, mut pair }) = aside.pop() {
            if bound >= cutoff {
                self.stop_apart(&pair, bound, &mut walk, stats);
                break;
            }
            loop {
                if let (Some(ra), Some(rb)) = (pair.a.triangles(), pair.b.triangles()) {
                    let b_corners =
                        walk.corners.get(false, rb.clone(), |r| placed_corners(self.b, r, &self.b_in_a));
                    let measured = leaves(ra, rb, b_corners, cutoff, stats);
                    cutoff = measured.cutoff;
                    if let Some(line) = measured.nearer {
                        walk.across = self.across(&line);
                    }
                    walk.stop_with_slab(&pair, max(measured.bound, bound), measured.slab, stats);
                    break;
                }
                // A distance search never opens both.
                let split_a = !matches!(self.opening(&pair.a, &pair.b), Opening::B);
                let mut near: [Option<(Pair, Real)>; 2] = [None, None];
                for (slot, child) in near.iter_mut().zip(self.opened(&pair, split_a, false)) {
                    let child_bound = max(self.pair_bound(&child, cutoff, &mut walk, stats), bound);
                    if child_bound < cutoff {
                        *slot = Some((child, child_bound));
                    } else {
                        self.stop_apart(&child, child_bound, &mut walk, stats);
                    }
                }
                let next = match near {
                    [Some(x), Some(y)] => {
                        let x_first = match x.1.total_cmp(&y.1) {
                            std::cmp::Ordering::Equal => {
                                let [to_x, to_y] = self.centre_distances(split_a, &pair, [&x.0, &y.0]);
                                to_x <= to_y
                            }
                            order => order.is_lt(),
                        };
                        let (nearer, farther) = if x_first { (x, y) } else { (y, x) };
                        aside.push(Aside { bound: farther.1, pair: farther.0 });
                        nearer
                    }
                    [Some(x), None] | [None, Some(x)] => x,
                    [None, None] => break,
                };
                (pair, bound) = next;
            }
        }
        for Aside { bound, pair } in aside.drain() {
            self.stop_apart(&pair, bound, &mut walk, stats);
        }
        workspace::put_heap(aside.into_vec());
    }

    /// The distance search stops at `pair`, whose sides lie `bound` apart or more: kept, if the
    /// front keeps slabs, with the slab [`Descent::stop_slab`] finds.
    fn stop_apart(
        &self,
        pair: &Pair,
        bound: Real,
        walk: &mut Walk<impl Front, VA, VB>,
        stats: &mut impl Stats,
    ) {
        let slab = if walk.keeps_slabs() { self.stop_slab(pair, walk) } else { None };
        walk.stop_with_slab(pair, bound, slab, stats);
    }

    /// The wider of the slabs between a pair's sides across the line through their centres and
    /// across the nearest pair's line: the first suits pairs off to the side, the second the
    /// near-ties of a receding B, whose distance grows as the answer's does. A node is taken by
    /// its volume, a leaf by its own triangles' corners (its parent's volume, around more
    /// triangles, gave slabs that B's next move already undercut). `None` without a line.
    fn stop_slab(&self, pair: &Pair, walk: &mut Walk<impl Front, VA, VB>) -> Option<Slab> {
        let nearest_line = walk.across.as_ref().map(|across| (across.normal, across.in_b));
        let (va, vb) = (self.a.volume(pair.a.node_index()), self.b.volume(pair.b.node_index()));
        let triangles_a = pair.a.triangles().map_or(&[][..], |ra| self.a.triangles(ra));
        let corners_b = match pair.b.triangles() {
            Some(rb) => walk.corners.get(false, rb, |r| placed_corners(self.b, r, &self.b_in_a)),
            None => &[],
        };
        let centre_a = if triangles_a.is_empty() {
            va.center()
        } else {
            mean(triangles_a.iter().flat_map(Triangle::vertices))
        };
        let centre_b =
            if corners_b.is_empty() { self.b_in_a.transform_point(&vb.center()) } else { mean(corners_b) };
        let sides = SlabSides { va, vb, triangles_a, corners_b, centre_a, centre_b };
        let centre_line = shortened_unit(&(centre_b - centre_a))
            .map(|(normal, _)| (normal, self.b_in_a.rotation.transpose() * normal));
        match (centre_line, nearest_line) {
            (Some(centre), Some(nearest)) => {
                let [one, other] = self.slabs_along(&sides, [centre, nearest]);
                Slab::wider(Some(one), Some(other))
            }
            (line, other) => line.or(other).map(|line| self.slabs_along(&sides, [line])[0]),
        }
    }

    /// The slabs between a pair's `sides` normal to each of `lines`, a normal of length at most
    /// one and the same in B's frame: the sides' corners read once for all.
    fn slabs_along<const N: usize>(
        &self,
        sides: &SlabSides<VA, VB>,
        lines: [(Vector, Vector); N],
    ) -> [Slab; N] {
        let (triangles_a, corners_b) = (sides.triangles_a, sides.corners_b);
        let reach_a =
            lines.map(|(normal, _)| if triangles_a.is_empty() { sides.va.half_width(&normal) } else { 0.0 });
        let reach_b =
            lines.map(|(_, in_b)| if corners_b.is_empty() { sides.vb.half_width(&in_b) } else { 0.0 });
        // Along each normal from B's centre, where the differences are small; `spread` bounds
        // the terms whose rounding the gaps give up.
        let mut spread: Real = 0.0;
        let mut along = |p: &Point| {
            let d = p - sides.centre_b;
            spread = max(d.abs().sum(), spread);
            lines.map(|(normal, _)| d.dot(&normal))
        };
        let mut a_top = [Real::NEG_INFINITY; N];
        if triangles_a.is_empty() {
            let centre = along(&sides.centre_a);
            for k in 0..N {
                a_top[k] = centre[k] + reach_a[k];
            }
        }
        for p in triangles_a.iter().flat_map(Triangle::vertices) {
            let at = along(&p);
            for k in 0..N {
                a_top[k] = max(at[k], a_top[k]);
            }
        }
        let mut b_bottom = if corners_b.is_empty() { reach_b.map(|r| -r) } else { [Real::INFINITY; N] };
        for p in corners_b {
            let at = along(p);
            for k in 0..N {
                b_bottom[k] = min(at[k], b_bottom[k]);
            }
        }
        std::array::from_fn(|k| {
            let rounding = 8.0 * Real::EPSILON * (spread + reach_a[k] + reach_b[k]);
            Slab { normal: lines[k].0, gap: b_bottom[k] - a_top[k] - self.margin - rounding }
        })
    }

    /// The line through the nearest pair's closest points (A's to B's), as a unit normal in both
    /// trees' frames; `None` where it has no direction.
    fn across(&self, line: &Vector) -> Option<Across> {
        let (normal, _) = shortened_unit(line)?;
        let in_b = self.b_in_a.rotation.transpose() * normal;
        Some(Across { normal, in_b, tallies: Default::default() })
    }

    /// How far B's volume `vb` (in B's frame) lies beyond A's `va` along the line `across`: a
    /// lower bound on their distance, narrowed by the rounding of its products (not by the
    /// margin). A leaf's box is such a volume too.
    #[inline]
    fn gap_across(&self, across: &Across, va: &impl NodeVolume, vb: &impl NodeVolume) -> Real {
        let between = self.b_in_a.transform_point(&vb.center()) - va.center();
        let (reach_a, reach_b) = (va.half_width(&across.normal), vb.half_width(&across.in_b));
        let rounding = 4.0 * Real::EPSILON * (between.abs().sum() + reach_a + reach_b);
        between.dot(&across.normal) - reach_a - reach_b - rounding
    }

    /// A lower bound on the distance between what lies below a pair's two sides (zero for two
    /// leaves: their triangles' boxes are compared next). Two nodes compare their boxes first,
    /// in A's frame, and measure their volumes only when the boxes are nearer than `cutoff`.
    #[inline]
    fn pair_bound(
        &self,
        pair: &Pair,
        cutoff: Real,
        walk: &mut Walk<impl Front, VA, VB>,
        stats: &mut impl Stats,
    ) -> Real {
        match (pair.a.triangles(), pair.b.triangles()) {
            (Some(_), Some(_)) => 0.0,
            // A leaf's box in its own frame bounds flat geometry along that frame's axes well, its
            // triangles placed in the node's frame the rest; the second only when the first is not
            // enough. The corners are placed in the other tree's frame once, against its nodes in
            // turn; A's are not grown by the margin, so the bound gives it up instead.
            (Some(ra), None) => {
                stats.volume_test(VolumeTest::Leaf);
                let vb = self.b.volume(pair.b.node_index());
                let leaf =
                    walk.last.get(true, ra.start, || leaf_box(self.a, ra.clone()).inflated(self.margin));
                // A's leaf box is grown by the margin already.
                let across = walk.across.as_mut().and_then(|across| {
                    across.dismisses(Against::Leaf, cutoff, |across| self.gap_across(across, &leaf, vb))
                });
                if let Some(gap) = across {
                    return gap;
                }
                let boxed = vb.separation(&leaf, &self.a_in_b);
                if boxed >= cutoff {
                    return boxed;
                }
                let corners = walk.corners.get(true, ra, |r| placed_corners(self.a, r, &self.a_in_b));
                boxed.max(vb.triangles_bound(corners, cutoff + self.margin) - self.margin)
            }
            (None, Some(rb)) => {
                stats.volume_test(VolumeTest::Leaf);
                let leaf = walk.last.get(false, rb.start, || leaf_box(self.b, rb.clone()));
                let va = self.a.volume(pair.a.node_index());
                let across = walk.across.as_mut().and_then(|across| {
                    across.dismisses(Against::Leaf, cutoff, |across| {
                        self.gap_across(across, va, &leaf) - self.margin
                    })
                });
                if let Some(gap) = across {
                    return gap;
                }
                self.with_a_volume(pair.a.node_index(), |va| {
                    let boxed = va.separation(&leaf, &self.b_in_a);
                    if boxed >= cutoff {
                        return boxed;
                    }
                    let corners = walk.corners.get(false, rb, |r| placed_corners(self.b, r, &self.b_in_a));
                    boxed.max(va.triangles_bound(corners, cutoff))
                })
            }
            (None, None) => {
                let (a, b) = (pair.a.node_index(), pair.b.node_index());
                let boxes = self.b_box.map_or(0.0, |bb| self.a.node_box(a).distance(&bb) as Real);
                if boxes >= cutoff {
                    stats.volume_test(VolumeTest::NodeBox);
                    return boxes;
                }
                let (va, vb) = (self.a.volume(a), self.b.volume(b));
                let across = walk.across.as_mut().and_then(|across| {
                    across.dismisses(Against::Node, cutoff, |across| {
                        self.gap_across(across, va, vb) - self.margin
                    })
                });
                if let Some(gap) = across {
                    stats.volume_test(VolumeTest::Nodes);
                    return gap;
                }
                let volumes = self.with_a_volume(a, |va| {
                    va.distance_bound(vb, &self.b_in_a, walk.placed_b.slot(b), cutoff, stats)
                });
                volumes.max(boxes)
            }
        }
    }

    /// The test of a pair: two node volumes, or a leaf's triangles against the other's node.
    /// `split_a` tells which side varies among the pairs tested in a row (A's, so B's node is
    /// the one placed in the other's frame, and kept so in the walk; a pair tested alone passes
    /// `true`). Two leaves, and a leaf under a swept parent, go on untested: their triangle
    /// tests check boxes first.
    #[inline(always)]
    fn pair_overlaps(
        &self,
        pair: &mut Pair,
        split_a: bool,
        walk: &mut Walk<impl Front, VA, VB>,
        stats: &mut impl Stats,
    ) -> bool {
        match (pair.a.triangles(), pair.b.triangles()) {
            (Some(_), Some(_)) => true,
            (Some(_), None) | (None, Some(_)) if self.sweep.is_some() => true,
            // A leaf's triangles against the other's node, in the node's frame (A's node grown
            // by the margin, B's by it too, as it covers the rounding of placing either side).
            (Some(ra), None) => {
                stats.volume_test(VolumeTest::Leaf);
                let leaf = self.a_leaf_in_b(ra, walk);
                let vb = self.b.volume(pair.b.node_index());
                pair.live_a.narrow(leaf, |g, live| vb.may_meet_triangles(g, live, self.margin))
            }
            (None, Some(rb)) => {
                stats.volume_test(VolumeTest::Leaf);
                let leaf = self.b_leaf_in_a(rb, walk);
                let va = self.a.volume(pair.a.node_index());
                pair.live_b.narrow(leaf, |g, live| va.may_meet_triangles(g, live, self.margin))
            }
            (None, None) => {
                let (a, b) = (pair.a.node_index(), pair.b.node_index());
                let (va, margin) = (self.a.volume(a), self.margin);
                self.with_b_volume(b, |vb| {
                    if split_a {
                        va.test(margin, vb, &self.b_in_a, walk.placed_b.slot(b), self.prejudge, stats)
                    } else {
                        VA::test_in_b(
                            va,
                            margin,
                            vb,
                            &self.a_in_b,
                            walk.placed_a.slot(a),
                            self.prejudge,
                            stats,
                        )
                    }
                })
            }
        }
    }

    /// The triangles of A's leaf at leaf-order positions `ra`, placed in B's frame for box
    /// tests (once for a run of tests).
    #[inline(always)]
    fn a_leaf_in_b<'w>(
        &self,
        ra: Range<usize>,
        walk: &'w mut Walk<impl Front, VA, VB>,
    ) -> &'w [PlacedTriangles] {
        walk.triangles.get(true, ra, |r| placed_groups(self.a, r, &self.a_in_b))
    }

    /// [`Descent::a_leaf_in_b`] for B's leaf at `rb`, placed in A's frame.
    #[inline(always)]
    fn b_leaf_in_a<'w>(
        &self,
        rb: Range<usize>,
        walk: &'w mut Walk<impl Front, VA, VB>,
    ) -> &'w [PlacedTriangles] {
        walk.triangles.get(false, rb, |r| placed_groups(self.b, r, &self.b_in_a))
    }

    /// A lower bound on the distance between a leaf's triangles and the other side's node (zero
    /// for two leaves), the leaf's triangles placed in the node's frame as its test placed them.
    fn leaf_gap(&self, pair: &Pair, walk: &mut Walk<impl Front, VA, VB>) -> Real {
        match (pair.a.triangles(), pair.b.triangles()) {
            (Some(ra), None) => {
                let vb = self.b.volume(pair.b.node_index()).inflated(self.margin);
                vb.nearest_triangle_gap(self.a_leaf_in_b(ra, walk))
            }
            (None, Some(rb)) => {
                let leaf = self.b_leaf_in_a(rb, walk);
                self.with_a_volume(pair.a.node_index(), |va| va.nearest_triangle_gap(leaf))
            }
            _ => 0.0,
        }
    }

    /// `true` when node `a` of A is pruned because its box misses B's top box: six comparisons
    /// before any volume test.
    #[inline(always)]
    fn outside_b_box(&self, a: usize, stats: &mut impl Stats) -> bool {
        let outside = self.b_box.is_some_and(|bb| !self.a.node_box(a).intersects(&bb));
        if outside {
            stats.volume_test(VolumeTest::NodeBox);
        }
        outside
    }

    /// [`Descent::popped_overlaps`] for a front that keeps how far apart the pairs it stops at
    /// lie: `None` when the pair overlaps, else a lower bound on the distance between what
    /// lies below its two sides.
    #[inline(always)]
    fn popped_separation(
        &self,
        pair: &mut Pair,
        walk: &mut Walk<impl Front, VA, VB>,
        stats: &mut impl Stats,
    ) -> Option<Real> {
        if pair.a.is_leaf() || pair.b.is_leaf() {
            // Measured, a leaf's stop waits for B to cross the gap as a node's does; unmeasured,
            // it would be due at every search, and a path passing a leaf close by tests it at
            // every pose.
            if self.pair_overlaps(pair, true, walk, stats) {
                return None;
            }
            return Some(self.leaf_gap(pair, walk));
        }
        // Two nodes by their volumes, not A's node box against B's whole box first, as a search
        // that keeps no gaps does: that box's gap is cheaper but looser, and a looser gap brings
        // the pair due again sooner.
        let (a, b) = (pair.a.node_index(), pair.b.node_index());
        self.with_b_volume(b, |vb| {
            self.with_a_volume(a, |va| {
                va.apart_by(vb, &self.b_in_a, walk.placed_b.slot(b), self.prejudge, stats)
            })
        })
    }

    /// `f` of node `i` of A's volume as the query sees it: grown by the margin.
    #[inline]
    fn with_a_volume<R>(&self, i: usize, f: impl FnOnce(&VA) -> R) -> R {
        f(&self.a.volume(i).inflated(self.margin))
    }

    /// `f` of node `j` of B's volume as the query sees it: swept along the motion (the stored
    /// one, not a copy, when there is none).
    #[inline]
    fn with_b_volume<R>(&self, j: usize, f: impl FnOnce(&VB) -> R) -> R {
        let v = self.b.volume(j);
        match &self.sweep {
            Some(motion) => f(&v.swept(motion)),
            None => f(v),
        }
    }

    /// The descent rule, in one place: open the side that is not a leaf, or of two nodes the
    /// larger, or both (see [`Larger`]).
    fn opening(&self, a: &Side, b: &Side) -> Opening {
        match (a.is_leaf(), b.is_leaf()) {
            (false, true) => Opening::A,
            (true, false) => Opening::B,
            _ => {
                let (va, vb) = (self.a.volume(a.node_index()), self.b.volume(b.node_index()));
                let a_larger = match self.larger_by {
                    Larger::Surface => {
                        let (sa, sb) = (va.surface_area(), vb.surface_area());
                        // Not in a sweep: stopping at its first contact, it tested more volumes so.
                        let both = self.sweep.is_none() && sa <= BOTH_WITHIN * sb && sb <= BOTH_WITHIN * sa;
                        if both {
                            return Opening::Both;
                        }
                        sa >= sb
                    }
                    Larger::Volume => va.measure() >= vb.measure(),
                };
                if a_larger { Opening::A } else { Opening::B }
            }
        }
    }

    /// Whether node `i` of A (or of B) can reach the overlap region.
    #[inline(always)]
    fn in_region(&self, of_a: bool, i: usize) -> bool {
        let Some(region) = &self.region else { return true };
        if of_a {
            self.a.volume(i).overlaps(region, &RelativePose::identity())
        } else {
            self.b.volume(i).overlaps(region, &self.a_in_b)
        }
    }

    /// The pairs a pair with at least one node side opens into, by the descent rule. A full
    /// search tests them now, against the other side placed in their frame once, and keeps
    /// those that overlap (faster than testing each when it pops). A search for the first
    /// contact, which may stop before it pops the second, orders them nearer first and leaves
    /// both to be tested when popped (faster than testing either now).
    fn children(
        &self,
        pair: &Pair,
        walk: &mut Walk<impl Front, VA, VB>,
        stats: &mut impl Stats,
        out: &mut Vec<Pair>,
    ) {
        // Which side opens is as good as random from pair to pair: decided by one branch here,
        // the code below compiled once for each side, rather than a mispredicted branch at
        // every place that asks again.
        let opening = self.opening(&pair.a, &pair.b);
        if self.prefetch {
            if !matches!(opening, Opening::B) {
                self.a.prefetch_children(pair.a.node_index());
            }
            if !matches!(opening, Opening::A) {
                self.b.prefetch_children(pair.b.node_index());
            }
        }
        match opening {
            Opening::A => self.children_opening::<true>(pair, walk, stats, out),
            Opening::B => self.children_opening::<false>(pair, walk, stats, out),
            Opening::Both => self.children_of_both(pair, walk, stats, out),
        }
    }

    /// [`Descent::children`] with both nodes opened: each child of A's node with each of B's,
    /// B's children placed in A's frame once for both of A's.
    fn children_of_both(
        &self,
        pair: &Pair,
        walk: &mut Walk<impl Front, VA, VB>,
        stats: &mut impl Stats,
        out: &mut Vec<Pair>,
    ) {
        for half in self.opened(pair, true, false) {
            if self.reaches_region(true, &half, walk, stats) {
                for child in self.opened(&half, false, false) {
                    self.keep_if_overlapping::<true>(child, walk, stats, out);
                }
            }
        }
    }

    /// Keeps `child` in `out` if it reaches the overlap region and overlaps, else stops there.
    #[inline(always)]
    fn keep_if_overlapping<const SPLIT_A: bool>(
        &self,
        mut child: Pair,
        walk: &mut Walk<impl Front, VA, VB>,
        stats: &mut impl Stats,
        out: &mut Vec<Pair>,
    ) {
        if !self.reaches_region(SPLIT_A, &child, walk, stats) {
            return;
        }
        if self.pair_overlaps(&mut child, SPLIT_A, walk, stats) {
            out.push(child);
        } else {
            walk.stop(&child, 0.0, stats);
        }
    }

    /// Whether the pair's opened side (A's, `of_a`, or B's) can reach the overlap region; a
    /// pair that cannot is a stop.
    #[inline(always)]
    fn reaches_region(
        &self,
        of_a: bool,
        pair: &Pair,
        walk: &mut Walk<impl Front, VA, VB>,
        stats: &mut impl Stats,
    ) -> bool {
        let side = if of_a { &pair.a } else { &pair.b };
        let reaches = side.is_leaf() || self.in_region(of_a, side.node_index());
        if !reaches {
            walk.stop(pair, 0.0, stats);
        }
        reaches
    }

    /// [`Descent::children`] with A's side opened (`SPLIT_A`) or B's.
    #[inline(always)]
    fn children_opening<const SPLIT_A: bool>(
        &self,
        pair: &Pair,
        walk: &mut Walk<impl Front, VA, VB>,
        stats: &mut impl Stats,
        out: &mut Vec<Pair>,
    ) {
        if !self.nearest_first {
            // A full search tests each pair below as it opens it, and pushes only those that
            // overlap (pushing all, then testing and compacting them, took more instructions).
            for child in self.opened(pair, SPLIT_A, false) {
                self.keep_if_overlapping::<SPLIT_A>(child, walk, stats, out);
            }
            return;
        }
        // A first-contact search leaves them untested, ordered after they are pushed: pairs
        // gathered in an array and copied whole right after they were written stalled on the
        // stores.
        let before = out.len();
        for child in self.opened(pair, SPLIT_A, true) {
            if self.reaches_region(SPLIT_A, &child, walk, stats) {
                out.push(child);
            }
        }
        if let [first, second] = &mut out[before..] {
            let [to_first, to_second] = self.centre_distances(SPLIT_A, pair, [first, second]);
            // The stack pops the last pushed first: the nearer pair goes there.
            if to_second > to_first {
                std::mem::swap(first, second);
            }
        }
    }

    /// The pairs `pair` opens into when the side of A (`split_a`) or of B is opened: each child
    /// of that side's node with the other side.
    #[inline(always)]
    fn opened(&self, pair: &Pair, split_a: bool, untested: bool) -> impl Iterator<Item = Pair> {
        let node = if split_a { pair.a.node_index() } else { pair.b.node_index() };
        let slots = if split_a { self.a.children(node) } else { self.b.children(node) };
        let pair = *pair;
        let (a, b, merged) = (self.a, self.b, self.merged_leaves);
        let grandchildren = move |i| if split_a { a.children(i) } else { b.children(i) };
        slots.iter().filter_map(move |slot| {
            let side = match slot.get() {
                ChildRef::Node(i) => match merged.then(|| leaf_run(grandchildren(i))).flatten() {
                    Some(run) => Side::leaf(i, run),
                    None => Side::node(i),
                },
                ChildRef::Leaf(r) if !r.is_empty() => Side::leaf(node, r),
                ChildRef::Leaf(_) => return None,
            };
            Some(if split_a {
                Pair { a: side, untested, live_a: Live::ALL, ..pair }
            } else {
                Pair { b: side, untested, live_b: Live::ALL, ..pair }
            })
        })
    }

    /// Squared distances between the volumes' centres of two pairs `parent` opened into (they
    /// share its unopened side), measured in the frame of the opened side – rigid motions keep
    /// distances – so that only the shared centre is moved, once.
    #[inline(always)]
    fn centre_distances(&self, split_a: bool, parent: &Pair, pairs: [&Pair; 2]) -> [Real; 2] {
        let (shared, centres) = if split_a {
            let shared = self.b_in_a.transform_point(&self.b.volume(parent.b.node_index()).center());
            (shared, pairs.map(|p| self.a.volume(p.a.node_index()).center()))
        } else {
            let shared = self.a_in_b.transform_point(&self.a.volume(parent.a.node_index()).center());
            (shared, pairs.map(|p| self.b.volume(p.b.node_index()).center()))
        };
        centres.map(|c| (c - shared).norm_squared())
    }
}

/// A pair a distance search put aside, with a lower bound on the distance below it; the heap
/// pops the least bound first.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Aside {
    bound: Real,
    pair: Pair,
}

impl PartialEq for Aside {
    fn eq(&self, other: &Self) -> bool {
        self.bound.total_cmp(&other.bound).is_eq()
    }
}

impl Eq for Aside {}

impl PartialOrd for Aside {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Aside {
    /// Reversed: the standard heap pops its greatest.
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other.bound.total_cmp(&self.bound)
    }
}

impl Pair {
    /// The pair, to be tested when popped.
    pub(crate) fn untested(&self) -> Self {
        Self { untested: true, ..*self }
    }

    /// The pair of these two sides, untested, all their leaves' triangles live: the top pair,
    /// or one a search on the wide views stopped at, for the binary descent to resume from.
    pub(crate) fn between(a: Side, b: Side) -> Self {
        Self { a, b, untested: true, live_a: Live::ALL, live_b: Live::ALL }
    }

    /// The pair with all its leaves' triangles live, as a front keeps it: what this search
    /// found apart, the next one, at another pose, tests again.
    fn whole(&self) -> Self {
        Self { live_a: Live::ALL, live_b: Live::ALL, ..*self }
    }

    /// Each side's node and, for a leaf, its triangles (A's side, then B's).
    #[cfg(test)]
    pub(crate) fn sides(&self) -> [(usize, Option<Range<usize>>); 2] {
        [(self.a.node_index(), self.a.triangles()), (self.b.node_index(), self.b.triangles())]
    }

    /// The node of B whose volume bounds B's side.
    pub(crate) fn b_node(&self) -> usize {
        self.b.node_index()
    }
}

/// A slab between the two sides of a pair: B's points lie at least `gap` beyond A's along
/// `normal` (of length at most one). A lower bound on their distance that B's motion along the
/// normal raises as much as it lowers, where a bound without a direction only falls.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slab {
    pub(crate) normal: Vector,
    pub(crate) gap: Real,
}

impl Slab {
    /// The wider of two slabs, where there are two.
    pub(crate) fn wider(one: Option<Slab>, other: Option<Slab>) -> Option<Slab> {
        match (one, other) {
            (Some(one), Some(other)) => Some(if other.gap > one.gap { other } else { one }),
            (one, other) => one.or(other),
        }
    }
}

/// The direction of `line`, shortened so that, rounded, it is no longer than one, and the
/// line's length; `None` for a line of no length.
fn shortened_unit(line: &Vector) -> Option<(Vector, Real)> {
    let length = line.norm();
    (length > 0.0).then(|| (line * ((1.0 - 1e-6) / length), length))
}

/// What measuring the triangles of two leaves tells a distance search.
pub(crate) struct Measured {
    /// The cutoff from now on.
    pub(crate) cutoff: Real,
    /// A lower bound on the leaves' distance.
    pub(crate) bound: Real,
    /// For a front that keeps slabs, a slab between the leaves.
    pub(crate) slab: Option<Slab>,
    /// The line from A's to B's closest point of the nearest pair so far, if it lies in these
    /// leaves: most pairs that cannot beat it lie beyond it along that line.
    pub(crate) nearer: Option<Vector>,
}

/// The line of a distance search's nearest pair, a unit normal in A's frame and in B's, and
/// per kind of pair how often the gap along it was tried and dismissed the pair.
struct Across {
    normal: Vector,
    in_b: Vector,
    tallies: [Tally; 2],
}

/// What a node is tried against along the nearest pair's line: another node, or a leaf.
#[derive(Clone, Copy)]
enum Against {
    Node,
    Leaf,
}

impl Across {
    /// The `gap` along the line, if the line is still worth trying on this kind of pair and
    /// the gap dismisses the pair below `cutoff`; counted.
    #[inline]
    fn dismisses(&mut self, kind: Against, cutoff: Real, gap: impl FnOnce(&Self) -> Real) -> Option<Real> {
        if !self.tallies[kind as usize].pays() {
            return None;
        }
        let gap = gap(self);
        self.tallies[kind as usize].count(gap >= cutoff);
        (gap >= cutoff).then_some(gap)
    }
}

/// How often the gap along a line was tried on one kind of pair, and dismissed it.
#[derive(Default)]
struct Tally {
    tries: u32,
    dismissed: u32,
}

impl Tally {
    /// Whether the gap is still worth trying before the pair's own bound: where the near-ties
    /// lie along one line (large triangles at a large distance) it dismisses most pairs,
    /// elsewhere few, and then it only adds to their test.
    fn pays(&self) -> bool {
        self.tries < 8 || self.dismissed * 8 >= self.tries
    }

    /// One more try, and whether it dismissed the pair.
    fn count(&mut self, dismissed: bool) {
        self.tries += 1;
        self.dismissed += u32::from(dismissed);
    }
}

/// Which nodes of a pair the descent opens.
#[derive(Clone, Copy)]
enum Opening {
    A,
    B,
    Both,
}

/// How much larger one node's surface may be than the other's for a search for every pair to
/// open both: of two nodes about the same size, each child mostly meets the whole other node, so
/// testing it so first (as opening one side at a time does) rarely prunes, and costs a test and
/// a step.
const BOTH_WITHIN: Real = 2.0;

/// A leaf of a leaf pair: its triangles' leaf-order positions, and which of them may meet the
/// other leaf.
pub(crate) struct LiveLeaf {
    triangles: Range<usize>,
    live: Live,
}

impl LiveLeaf {
    /// The leaf over leaf-order positions `triangles`, `live` telling which may meet.
    pub(crate) fn new(triangles: Range<usize>, live: Live) -> Self {
        Self { triangles, live }
    }

    /// The leaf-order positions of its live triangles.
    pub(crate) fn positions(&self) -> impl Iterator<Item = usize> + Clone {
        let Range { start: first, end } = self.triangles;
        let marked = self.triangles.len().min(Live::MARKED);
        let bits = u32::from(self.live.0) & ((1 << marked) - 1);
        set_bits(bits).map(move |k| first + k).chain(first + marked..end)
    }
}

/// What became of a pair in one step of the descent.
enum Step {
    /// Its volumes are apart: nothing below it can touch.
    Apart,
    /// Two leaves whose volumes overlap.
    Leaves([LiveLeaf; 2]),
    /// Opened: the pairs below it were pushed.
    Opened,
}

/// What one run of the descent carries from pair to pair.
struct Walk<'f, F, VA: NodeTest<VB>, VB> {
    last: LastLeaf,
    /// Held inline up to [`INLINE_LEAF`] triangles, as a leaf placed on the heap would cost an
    /// allocation per query.
    corners: PlacedLeaf<[Point; 3 * INLINE_LEAF]>,
    triangles: PlacedLeaf<[PlacedTriangles; INLINE_LEAF / TRIANGLE_LANES]>,
    /// A's nodes placed in B's frame, and B's in A's.
    placed_a: PlacedNodes<VA::PlacedA>,
    placed_b: PlacedNodes<VA::PlacedB>,
    /// Where to keep the pairs the descent stops at, if anywhere.
    front: &'f mut F,
    /// A distance search's nearest pair's line, once it has one.
    across: Option<Across>,
}

impl<'f, F: Front, VA: NodeTest<VB>, VB> Walk<'f, F, VA, VB> {
    /// A run's start: nothing tested or placed yet, stops kept in `front`.
    fn new(front: &'f mut F) -> Self {
        Self {
            last: LastLeaf::default(),
            corners: PlacedLeaf::default(),
            triangles: PlacedLeaf::default(),
            placed_a: PlacedNodes::new(),
            placed_b: PlacedNodes::new(),
            front,
            across: None,
        }
    }

    /// The descent stops at `pair`, whose volumes lie `gap` apart or more: counted, and kept
    /// (to be tested again) if asked.
    #[inline]
    fn stop(&mut self, pair: &Pair, gap: Real, stats: &mut impl Stats) {
        stats.front_pair();
        self.front.keep(&pair.whole(), gap);
    }

    fn keeps_slabs(&self) -> bool {
        self.front.keeps_slabs()
    }

    /// [`Walk::stop`], with a slab between the pair's sides if one is known.
    fn stop_with_slab(&mut self, pair: &Pair, gap: Real, slab: Option<Slab>, stats: &mut impl Stats) {
        stats.front_pair();
        match slab {
            Some(slab) => self.front.keep_slab(&pair.whole(), gap, slab),
            None => self.front.keep(&pair.whole(), gap),
        }
    }
}

/// Where a descent's stops go: nowhere (`()`), or into a front, to be tested again. A type,
/// like the statistics: descents that keep nothing compile without the push.
pub(crate) trait Front {
    /// Whether it keeps pairs at all: a search that names its stops in other terms than the
    /// binary descent's skips naming them for one that does not.
    const KEEPS: bool = true;

    /// Whether kept pairs want the gap between their volumes (measuring it costs about as much
    /// as a volume test).
    const MEASURES_GAPS: bool;

    /// Keeps `pair`, whose volumes lie `gap` apart or more (zero when not known apart).
    fn keep(&mut self, pair: &Pair, gap: Real);

    /// Keeps `pair`, whose sides lie `gap` apart or more, and on either side of `slab`.
    fn keep_slab(&mut self, pair: &Pair, gap: Real, _slab: Slab) {
        self.keep(pair, gap);
    }

    /// Whether kept pairs want slabs (each costs about a volume test).
    fn keeps_slabs(&self) -> bool {
        false
    }

    /// Forgets every pair kept: the search was settled above them (the root volumes apart).
    fn clear(&mut self);
}

impl Front for () {
    const KEEPS: bool = false;
    const MEASURES_GAPS: bool = false;

    #[inline]
    fn keep(&mut self, _: &Pair, _: Real) {}

    fn clear(&mut self) {}
}

/// Nodes of one tree placed in the other's frame during one run, by node: a search meets one
/// node with several of the other tree's in turn, and places it once. Direct-mapped on the
/// node's index; a node whose slot another took is placed again. Eight slots: more saved a few
/// placements but wrote kilobytes per query, and the cheap queries were slower for it.
struct PlacedNodes<P>([(u32, Option<P>); PLACED_SLOTS]);

const PLACED_SLOTS: usize = 8;

impl<P> PlacedNodes<P> {
    fn new() -> Self {
        Self(std::array::from_fn(|_| (u32::MAX, None)))
    }

    /// Where node `j`, once placed, is kept.
    #[inline]
    fn slot(&mut self, j: usize) -> &mut Option<P> {
        let slot = &mut self.0[j % PLACED_SLOTS];
        if slot.0 != j as u32 {
            *slot = (j as u32, None);
        }
        &mut slot.1
    }
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

/// What one leaf's triangles become in the other tree's frame – their corners for a distance
/// search, the triangles laid out for box tests for an overlap search – kept for the few
/// leaves used last ([`PLACED_LEAVES`]): a leaf stays on one side while the other
/// side's nodes open below it, a node opened into two leaves tests both before the descent
/// comes back to the first, and a full search comes back to a leaf after a few others.
struct PlacedLeaf<A: smallvec::Array> {
    leaves: [Option<(bool, usize)>; PLACED_LEAVES],
    placed: [SmallVec<A>; PLACED_LEAVES],
    /// The entry used last; a leaf not kept replaces the one after it, round the array.
    last: usize,
}

/// Leaves a [`PlacedLeaf`] keeps: four placed each leaf of an all-pairs search fewer times than
/// two (eight saved little more).
const PLACED_LEAVES: usize = 4;

impl<A: smallvec::Array> Default for PlacedLeaf<A> {
    fn default() -> Self {
        Self { leaves: [None; PLACED_LEAVES], placed: std::array::from_fn(|_| SmallVec::new()), last: 0 }
    }
}

impl<A: smallvec::Array> PlacedLeaf<A> {
    /// What the leaf of A (when `of_a`) or B at leaf-order positions `triangles` becomes, made
    /// by `place`; made anew for a leaf not kept, in the entry after the one used last.
    #[inline]
    fn get<I: IntoIterator<Item = A::Item>>(
        &mut self,
        of_a: bool,
        triangles: Range<usize>,
        place: impl FnOnce(Range<usize>) -> I,
    ) -> &[A::Item] {
        let leaf = Some((of_a, triangles.start));
        // The leaf used last is the one most often asked for again: checked before the others.
        if self.leaves[self.last] != leaf {
            self.last = match self.leaves.iter().position(|l| *l == leaf) {
                Some(k) => k,
                None => {
                    let k = (self.last + 1) % PLACED_LEAVES;
                    self.leaves[k] = leaf;
                    self.placed[k].clear();
                    self.placed[k].extend(place(triangles));
                    k
                }
            };
        }
        &self.placed[self.last]
    }
}

/// A pair's two sides as a stop's slab measures them: a node by its volume, a leaf by its own
/// triangles' corners (B's placed in A's frame), each with a centre in A's frame.
struct SlabSides<'s, VA, VB> {
    va: &'s VA,
    vb: &'s VB,
    triangles_a: &'s [Triangle],
    corners_b: &'s [Point],
    centre_a: Point,
    centre_b: Point,
}

/// The most triangles of a leaf that a query holds without allocating: at least the presets'
/// largest leaves and a search's merged ones.
pub(crate) const INLINE_LEAF: usize = 8;

/// The most triangles of a node's two leaves that a search takes as one leaf (two of CO's):
/// beyond that their triangle pairs outnumber the bounds they spare.
const MERGED_LEAF_MOST: usize = 4;

/// The triangles of a node's two children, one run of leaf-order positions, if both are leaves
/// of at most [`MERGED_LEAF_MOST`] triangles in all.
fn leaf_run(children: &[bvh_build::Child; 2]) -> Option<Range<usize>> {
    match (children[0].get(), children[1].get()) {
        (ChildRef::Leaf(r0), ChildRef::Leaf(r1))
            if r0.end == r1.start && r1.end - r0.start <= MERGED_LEAF_MOST =>
        {
            Some(r0.start..r1.end)
        }
        _ => None,
    }
}

/// The box of a leaf's triangles in its tree's frame. (Taken in the other tree's frame it
/// would meet a node there with no rotation to compose, but for flat geometry along its own
/// axes – the walls and plates of a maintenance bay – it is far looser: 30 -> 75 volume tests
/// per query on the anchors' 150k-triangle bay.)
#[inline]
fn leaf_box<V: NodeVolume>(tree: &Bvh<V>, triangles: Range<usize>) -> Aabb {
    triangles.map(|i| tree.triangle(i).aabb()).fold(Aabb::EMPTY, |all, t| all.merged(&t))
}

/// The corners of a tree's triangles at leaf-order positions `range`, placed by `pose`.
fn placed_corners<V: NodeVolume>(
    tree: &Bvh<V>,
    range: Range<usize>,
    pose: &RelativePose,
) -> impl Iterator<Item = Point> {
    tree.triangles(range).iter().flat_map(move |t| t.placed(pose).vertices())
}

/// A tree's triangles at leaf-order positions `range` placed by `pose`, in groups for box tests.
fn placed_groups<'t, V: NodeVolume>(
    tree: &'t Bvh<V>,
    range: Range<usize>,
    pose: &'t RelativePose,
) -> impl Iterator<Item = PlacedTriangles> + 't {
    tree.triangles(range).chunks(TRIANGLE_LANES).map(move |g| PlacedTriangles::placed(g, pose))
}
