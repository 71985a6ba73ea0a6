//! The first-contact search between two OBB trees over their wide views
//! ([`bvh_build::WideNodes`]): a pair's larger side is opened into its four children, whose
//! boxes meet the other side's box in one test of four lanes, each lane deciding as the binary
//! descent's test of that pair would; the children that meet are visited nearest first (by
//! their boxes' centres). Half as many levels as the binary descent, and a test per step that
//! costs about one pair's, for the steps a search that stops at its first contact takes.
//!
//! Two leaves meet by their triangles: boxes compared exactly, then the exact test.
//!
//! A search may keep where it stopped (the pairs found apart, the leaf pairs whose triangles
//! missed), named in the binary tree's terms – a wide node by its binary node, a leaf by its
//! parent and triangles – so that the binary descent resumes from them at the next pose.

use crate::cache::Hit;
use crate::stats::{Stats, VolumeTest};
use crate::traverse::{self, Front, Live, LiveLeaf};
use bvh_build::{Bvh, NodeVolume, WideChild, WideNode, WideNodes};
use bvh_core::triangle::{PlacedTriangles, TRIANGLE_LANES};
use bvh_core::{Aabb, Obb, PlacedObb, Point, Real, RelativePose, Triangle, triangles_intersect};
use smallvec::SmallVec;

/// One side of a pair: a wide node or a leaf (by index in the tree's wide view).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Side {
    Node(u32),
    Leaf(u32),
}

impl Side {
    /// The side a wide child stands for (`None` for an empty slot).
    fn of(child: WideChild) -> Option<Self> {
        match child {
            WideChild::Node(i) => Some(Self::Node(i)),
            WideChild::Leaf(l) => Some(Self::Leaf(l)),
            WideChild::Empty => None,
        }
    }

    /// Its box in its tree's frame.
    fn obb(self, wide: &WideNodes) -> &Obb {
        match self {
            Self::Node(i) => wide.own_box(i as usize),
            Self::Leaf(l) => wide.leaf(l as usize).1,
        }
    }

    /// The same side in the binary tree.
    fn binary(self, wide: &WideNodes) -> traverse::Side {
        match self {
            Self::Node(i) => traverse::Side::node(wide.binary_node(i as usize)),
            Self::Leaf(l) => traverse::Side::leaf(wide.leaf_parent(l as usize), wide.leaf(l as usize).0),
        }
    }
}

/// The trees, B's pose in A's frame both ways, and how much A's boxes grow (the rounding of
/// placing B there).
pub(crate) struct WideSearch<'a> {
    pub(crate) a: &'a Bvh<Obb>,
    pub(crate) b: &'a Bvh<Obb>,
    pub(crate) b_in_a: RelativePose,
    pub(crate) a_in_b: RelativePose,
    pub(crate) margin: Real,
}

/// A pair of sides on the search's stack, whose boxes meet, with which of a leaf side's
/// triangles may still meet the other side: a leaf's triangles found apart from a node are
/// apart from everything below it.
#[derive(Clone, Copy, Debug)]
struct Pair {
    a: Side,
    b: Side,
    live_a: Live,
    live_b: Live,
}

/// Pairs a search keeps on its stack without allocating: a descent pushes at most four per
/// level.
const STACK: usize = 128;

/// A side placed in the other tree's frame, with its centre there.
type Placed = Option<(Side, PlacedObb, Point)>;

impl WideSearch<'_> {
    /// The first intersecting triangle pair found (leaf-order positions), if any, keeping in
    /// `front` where the search stopped.
    ///
    /// The larger side of a pair (by volume) is opened, as the binary descent opens it, and the
    /// children that meet the other side are visited nearest first: those below the nearer of
    /// its binary node's two children first (the binary descent's first choice), then by their
    /// own centres.
    pub(crate) fn first_contact<F: Front>(&self, front: &mut F, stats: &mut impl Stats) -> Option<Hit> {
        let (wa, wb) = (self.a.wide(), self.b.wide());
        if wa.node_count() == 0 || wb.node_count() == 0 {
            front.clear();
            return None;
        }
        // The last side placed in the other tree's frame, kept: a side is met by several of
        // the other tree's nodes in a row; likewise the last leaf's triangles.
        let (mut placed_a, mut placed_b): (Placed, Placed) = (None, None);
        let mut leaf_a = PlacedLeaf::new(self.a, wa, self.a_in_b);
        let mut leaf_b = PlacedLeaf::new(self.b, wb, self.b_in_a);
        let top = Side::Node(0);
        stats.volume_test(VolumeTest::Nodes);
        let (_, top_b, _) = *self.placed_b(&mut placed_b, top, wb);
        if !top.obb(wa).meets_with_margin(&top_b, self.margin) {
            self.stop(front, top, top, || top.obb(wa).inflated(self.margin).gap(&top_b), stats);
            return None;
        }
        let mut stack: SmallVec<[Pair; STACK]> = SmallVec::new();
        stack.push(Pair { a: top, b: top, live_a: Live::ALL, live_b: Live::ALL });
        while let Some(mut pair) = stack.pop() {
            // Which side opens, and its wide node.
            let (open_a, node) = match (pair.a, pair.b) {
                (Side::Leaf(la), Side::Leaf(lb)) => {
                    let leaf_a = LiveLeaf::new(wa.leaf(la as usize).0, pair.live_a);
                    let leaf_b = LiveLeaf::new(wb.leaf(lb as usize).0, pair.live_b);
                    if let Some(hit) = self.leaves(&leaf_a, &leaf_b, stats) {
                        return Some(hit);
                    }
                    self.stop(front, pair.a, pair.b, || 0.0, stats);
                    continue;
                }
                // A leaf's live triangles against the side it is about to open, in that side's
                // frame (A's grown by the margin, B's too: it covers the rounding of placing
                // either side).
                (Side::Node(i), Side::Leaf(lb)) => {
                    let (node, sides) = (pair.a.obb(wa), [pair.a, pair.b]);
                    if !self.leaf_meets(&mut leaf_b, (lb, &mut pair.live_b), node, sides, front, stats) {
                        continue;
                    }
                    (true, wa.node(i as usize))
                }
                (Side::Leaf(la), Side::Node(j)) => {
                    let (node, sides) = (pair.b.obb(wb), [pair.a, pair.b]);
                    if !self.leaf_meets(&mut leaf_a, (la, &mut pair.live_a), node, sides, front, stats) {
                        continue;
                    }
                    (false, wb.node(j as usize))
                }
                (Side::Node(i), Side::Node(j)) => {
                    if pair.a.obb(wa).volume() >= pair.b.obb(wb).volume() {
                        (true, wa.node(i as usize))
                    } else {
                        (false, wb.node(j as usize))
                    }
                }
            };
            let (other, margin) = if open_a {
                (self.placed_b(&mut placed_b, pair.b, wb), self.margin)
            } else {
                (self.placed_a(&mut placed_a, pair.a, wa), 0.0)
            };
            let (next, apart, gaps) = opened(node, other, margin, F::MEASURES_GAPS, stats);
            // The children found apart are where the search stops (looked at only by a front
            // that keeps them).
            if F::KEEPS {
                for k in bvh_core::bits::set_bits(apart) {
                    let Some(child) = Side::of(node.children[k]) else { continue };
                    let (a, b) = if open_a { (child, pair.b) } else { (pair.a, child) };
                    self.stop(front, a, b, || gaps[k], stats);
                }
            }
            stack.extend(next.map(|side| {
                if open_a {
                    Pair { a: side, live_a: Live::ALL, ..pair }
                } else {
                    Pair { b: side, live_b: Live::ALL, ..pair }
                }
            }));
        }
        None
    }

    /// Whether any of leaf `l`'s `live` triangles (placed by `leaf`) may meet `node` (the other
    /// tree's side, in its frame, grown by the margin), narrowing `live` to those that may; if
    /// none may, the pair of `sides` (A's, B's) stops there, with the gap from all the leaf's
    /// triangles. Inlined, as the two arms it replaces were: once per step.
    #[inline(always)]
    fn leaf_meets<F: Front>(
        &self,
        leaf: &mut PlacedLeaf,
        (l, live): (u32, &mut Live),
        node: &Obb,
        [a, b]: [Side; 2],
        front: &mut F,
        stats: &mut impl Stats,
    ) -> bool {
        stats.volume_test(VolumeTest::Leaf);
        let meets = leaf.narrow(l, live, node, self.margin);
        if !meets {
            self.stop(front, a, b, || leaf.gap(&node.inflated(self.margin)), stats);
        }
        meets
    }

    /// Keeps the pair of sides `a` and `b` in `front`, with the `gap` between what lies below
    /// them if it measures gaps (counted only then: a search that keeps none does not look for
    /// where it stopped).
    fn stop<F: Front>(
        &self,
        front: &mut F,
        a: Side,
        b: Side,
        gap: impl FnOnce() -> Real,
        stats: &mut impl Stats,
    ) {
        if F::KEEPS {
            stats.front_pair();
            let pair = traverse::Pair::between(a.binary(self.a.wide()), b.binary(self.b.wide()));
            front.keep(&pair, if F::MEASURES_GAPS { gap().max(0.0) } else { 0.0 });
        }
    }

    /// B's side placed in A's frame (kept in `slot`).
    fn placed_b<'s>(&self, slot: &'s mut Placed, side: Side, wb: &WideNodes) -> &'s (Side, PlacedObb, Point) {
        kept(slot, side, || {
            let obb = side.obb(wb);
            (PlacedObb::new(obb, &self.b_in_a), self.b_in_a.transform_point(&obb.center))
        })
    }

    /// A's side, grown by the margin, placed in B's frame (kept in `slot`).
    fn placed_a<'s>(&self, slot: &'s mut Placed, side: Side, wa: &WideNodes) -> &'s (Side, PlacedObb, Point) {
        kept(slot, side, || {
            let obb = side.obb(wa);
            (
                PlacedObb::new(&obb.inflated(self.margin), &self.a_in_b),
                self.a_in_b.transform_point(&obb.center),
            )
        })
    }

    /// The first intersecting pair of two leaves' live triangles: B's placed in A's frame,
    /// boxes compared exactly (as the exact test sees the triangles), then the exact test.
    /// Out of line: inlined, with its buffer of placed triangles, the search's steps ran slower.
    #[inline(never)]
    fn leaves(&self, leaf_a: &LiveLeaf, leaf_b: &LiveLeaf, stats: &mut impl Stats) -> Option<Hit> {
        // Extended in place: collected, the buffer would be built elsewhere and copied whole.
        let mut placed: SmallVec<[(usize, Triangle, Aabb); 8]> = SmallVec::new();
        placed.extend(leaf_b.positions().map(|j| {
            let t = self.b.triangle(j).placed(&self.b_in_a);
            (j, t, t.aabb())
        }));
        for i in leaf_a.positions() {
            let ta = self.a.triangle(i);
            let box_a = ta.aabb();
            for (j, tb, box_b) in &placed {
                if box_a.intersects(box_b) {
                    stats.triangle_test();
                    if triangles_intersect(ta, tb) {
                        return Some(Hit { positions: [i, *j] });
                    }
                }
            }
        }
        None
    }
}

/// The children of wide node `node` that meet the other side (placed in this tree's frame as
/// `other`, its centre there `centre`; this tree's boxes grown by `margin`), farthest first:
/// ordered by the centre of the binary child they lie below, then by their own; the mask of
/// lanes that do not meet it (empty lanes among them); and, if asked to `measure`, each lane's
/// gap (else zeros). Inlined: once per step, and out of line the steps ran slower.
#[inline(always)]
fn opened<S: Stats>(
    node: &WideNode,
    (_, other, centre): &(Side, PlacedObb, Point),
    margin: Real,
    measure: bool,
    stats: &mut S,
) -> (impl Iterator<Item = Side> + use<S>, u32, [Real; 4]) {
    let mut next: SmallVec<[((Real, Real), Side); 4]> = SmallVec::new();
    for child in &node.children {
        if *child != WideChild::Empty {
            stats.volume_test(VolumeTest::Nodes);
        }
    }
    let (meeting, gaps) = if measure {
        node.boxes.meeting_gaps(margin, other)
    } else {
        (node.boxes.meeting(margin, other), [0.0; 4])
    };
    let group_distances = node.group_centres.map(|c| (c - centre).norm_squared());
    let distances = node.boxes.center_distances_sq(centre);
    for k in bvh_core::bits::set_bits(meeting) {
        let Some(child) = Side::of(node.children[k]) else { continue };
        let key = (group_distances[node.groups[k] as usize], distances[k]);
        let at = next.iter().position(|(other, _)| *other < key).unwrap_or(next.len());
        next.insert(at, (key, child));
    }
    (next.into_iter().map(|(_, child)| child), !meeting & 0b1111, gaps)
}

/// One tree's leaves' triangles placed in the other tree's frame in groups of four, the last
/// leaf's kept for its next tests.
struct PlacedLeaf<'a> {
    tree: &'a Bvh<Obb>,
    wide: &'a WideNodes,
    pose: RelativePose,
    leaf: Option<u32>,
    groups: SmallVec<[PlacedTriangles; 2]>,
}

impl<'a> PlacedLeaf<'a> {
    /// For the leaves of `tree` (its wide view `wide`), placed by `pose`.
    fn new(tree: &'a Bvh<Obb>, wide: &'a WideNodes, pose: RelativePose) -> Self {
        Self { tree, wide, pose, leaf: None, groups: SmallVec::new() }
    }

    /// Narrows `live`, leaf `l`'s triangles that may still meet the other side, to those that
    /// may meet `node` (of the other tree, grown by `margin`); `false` when none may.
    fn narrow(&mut self, l: u32, live: &mut Live, node: &Obb, margin: Real) -> bool {
        if self.leaf != Some(l) {
            let (triangles, _) = self.wide.leaf(l as usize);
            let placed = self.tree.triangles(triangles).chunks(TRIANGLE_LANES);
            self.groups.clear();
            self.groups.extend(placed.map(|group| PlacedTriangles::placed(group, &self.pose)));
            self.leaf = Some(l);
        }
        live.narrow(&self.groups, |group, asked| node.may_meet_triangles(group, asked, margin))
    }

    /// A lower bound on the distance between all of the triangles of the leaf narrowed last and
    /// `node` (of the other tree, in its frame), as [`PlacedLeaf::narrow`] placed them.
    fn gap(&self, node: &Obb) -> Real {
        node.nearest_triangle_gap(&self.groups)
    }
}

/// What `slot` keeps for `side`, computed by `place` if it keeps another's.
#[inline]
fn kept(
    slot: &mut Placed,
    side: Side,
    place: impl FnOnce() -> (PlacedObb, Point),
) -> &(Side, PlacedObb, Point) {
    if slot.as_ref().is_some_and(|(kept, ..)| *kept != side) {
        *slot = None;
    }
    slot.get_or_insert_with(|| {
        let (placed, centre) = place();
        (side, placed, centre)
    })
}

#[cfg(test)]
mod tests {
    use crate::stats::QueryStats;
    use crate::traverse::Pair;
    use crate::{Posed, Query, QueryOptions};
    use bvh_build::generate::torus;
    use bvh_build::{BuildConfig, Bvh, Preset};
    use bvh_core::{Isometry, Obb, Point, TriMesh, Vector, triangles_intersect};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Over poses from well apart to deep in, the wide search finds a contact exactly where
    /// the binary descent does, and what it finds intersects.
    #[test]
    fn finds_a_contact_exactly_where_the_binary_descent_does() {
        let pairs = [
            (torus(2.0, 0.5, 40, 24), TriMesh::uv_sphere(Point::origin(), 0.7, 16, 32), BuildConfig::co()),
            (
                torus(2.0, 0.5, 96, 48),
                TriMesh::uv_sphere(Point::origin(), 0.7, 48, 96),
                Preset::co_binned().config,
            ),
        ];
        let mut rng = ChaCha8Rng::seed_from_u64(17);
        let (mut touching, mut apart) = (0, 0);
        for (mesh_a, mesh_b, config) in pairs {
            let (a, b): (Bvh<Obb>, Bvh<Obb>) = (Bvh::build(mesh_a, &config), Bvh::build(mesh_b, &config));
            let reach = a.node_box(0).reach();
            for _ in 0..300 {
                let mut v = || {
                    Vector::new(rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0))
                };
                let pose = Isometry::new(v() * 0.8 * reach, v() * 3.0);
                let q = Query::new(
                    Posed::new(&a, Isometry::identity()),
                    Posed::new(&b, pose),
                    QueryOptions::default(),
                );
                let mut stats = QueryStats::default();
                let wide = q.first_contact(None, &mut stats);
                let binary = q.first_in_trees(None::<std::iter::Empty<Pair>>, &mut (), &mut ());
                assert_eq!(wide.is_some(), binary.is_some(), "{pose:?}");
                if let Some(hit) = wide {
                    let [i, j] = hit.positions;
                    assert!(triangles_intersect(a.triangle(i), &b.triangle(j).placed(&q.b_in_a)));
                    touching += 1;
                } else {
                    apart += 1;
                }
                assert_eq!(stats.root_tests, 1);
            }
        }
        assert!(touching > 100 && apart > 100, "{touching} touching, {apart} apart");
    }
}
