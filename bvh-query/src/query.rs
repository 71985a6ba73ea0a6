//! A query between two posed hierarchies: the objects, the options, B's pose in A's frame
//! computed once, and the traversal plumbing every query runs on.

use crate::answers::TrianglePair;
use crate::cache::Hit;
use crate::node_test::NodeTest;
use crate::placed_run::PlacedRun;
use crate::stats::{Stats, VolumeTest};
use crate::traverse::{Descent, Front, Larger, Pair};
use bvh_build::{Bvh, NodeVolume};
use bvh_core::parallel::prelude::*;
use bvh_core::{Aabb, Isometry, Point, PoseError, Real, RelativePose, Triangle, Vector, rounding_slack};
use std::borrow::Borrow;
use std::ops::ControlFlow;

/// How queries run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueryOptions {
    /// Run the OBB pre-judge before the separating axis test (paper 000). It never changes a
    /// result; switch it off to measure what it saves.
    pub prejudge: bool,
    /// Prune nodes that miss the overlap of the two objects' top-node boxes (paper 002's
    /// region culling). It never changes a result. Off by default: on the anchors' scenes and
    /// the maintenance job it prunes almost nothing the volume tests would not, and costs a test
    /// per opened node (`bvh-bench poses --region-culling` measures it).
    pub region_culling: bool,
    /// The triangles both meshes must have for the split queries (`*_parallel`) to split the
    /// traversal across threads: below it, handing out parts of a small traversal costs more
    /// than it saves, and the query runs on the calling thread. It never changes a result; 0
    /// always splits.
    pub split_from: usize,
}

impl Default for QueryOptions {
    fn default() -> Self {
        Self { prejudge: true, region_culling: false, split_from: 4096 }
    }
}

/// One object of a query: its hierarchy and where it is in the world.
#[derive(Clone, Copy, Debug)]
pub struct Posed<'a, V> {
    /// The hierarchy.
    pub bvh: &'a Bvh<V>,
    /// Its pose (a copy: a pose is small).
    pub pose: Isometry,
}

impl<'a, V> Posed<'a, V> {
    /// The hierarchy at this pose, given by value or by reference (`Isometry::translation(..)`
    /// inline as well as a pose kept elsewhere).
    pub fn new(bvh: &'a Bvh<V>, pose: impl Borrow<Isometry>) -> Self {
        Self { bvh, pose: *pose.borrow() }
    }
}

/// Queries between two posed hierarchies, generic over both node volume types. Holds only
/// shared references: queries on the same trees can run on many threads at once.
pub struct Query<'a, VA, VB> {
    pub(crate) a: Posed<'a, VA>,
    pub(crate) b: Posed<'a, VB>,
    pub(crate) b_in_a: RelativePose,
    pub(crate) options: QueryOptions,
    /// Why B could not be placed in A's frame, if it could not: then B is nowhere.
    unplaced: Option<PoseError>,
}

impl<'a, VA, VB> Query<'a, VA, VB>
where
    VA: NodeVolume + NodeTest<VB>,
    VB: NodeVolume,
{
    /// Prepares queries between `a` and `b` (B's pose in A's frame is computed here, once).
    ///
    /// A pose with a NaN or infinite component, or two poses too far apart to compose in `f32`,
    /// places B nowhere: every query then answers as for an object that is nowhere – nothing
    /// touches, nothing is near, nothing contains anything – and the queries along a motion
    /// return the [`PoseError`]. [`Query::pose_error`] tells such a query apart;
    /// [`Query::try_new`] refuses it instead.
    pub fn new(a: Posed<'a, VA>, b: Posed<'a, VB>, options: QueryOptions) -> Self {
        Self::with_placement(a, b, RelativePose::checked_between(&a.pose, &b.pose), options)
    }

    /// [`Query::new`] with B's pose in A's frame already computed (or refused) as `b_in_a`.
    #[inline(always)]
    pub(crate) fn with_placement(
        a: Posed<'a, VA>,
        b: Posed<'a, VB>,
        b_in_a: Result<RelativePose, PoseError>,
        options: QueryOptions,
    ) -> Self {
        match b_in_a {
            Ok(b_in_a) => Self { a, b, b_in_a, options, unplaced: None },
            Err(error) => Self { a, b, b_in_a: RelativePose::identity(), options, unplaced: Some(error) },
        }
    }

    /// [`Query::new`], refusing poses that would place B nowhere (poses read from files or sent
    /// by other programs): the error names the pose at fault.
    pub fn try_new(a: Posed<'a, VA>, b: Posed<'a, VB>, options: QueryOptions) -> Result<Self, PoseError> {
        let query = Self::new(a, b, options);
        query.unplaced.map_or(Ok(query), Err)
    }

    /// Why this query places B nowhere (see [`Query::new`]), if it does.
    pub fn pose_error(&self) -> Option<PoseError> {
        self.unplaced
    }

    /// Whether B is placed in A's frame: a query that places it nowhere answers "nothing".
    pub(crate) fn placed(&self) -> bool {
        self.unplaced.is_none()
    }

    /// How far a volume test between A and B placed in A's frame, or a triangle of B moved
    /// there, can be off through rounding (`travel`: how far a swept query moves B). Far from the
    /// origin – a scene at 100 km, a part modelled where it sits in a large assembly – that is
    /// more than the volumes' own padding: growing A's volumes by it keeps every volume test
    /// conservative there too.
    pub(crate) fn placement_slack(&self, travel: Real) -> Real {
        rounding_slack(self.placement_magnitude() + travel)
    }

    /// The magnitude of the coordinates placing B in A's frame involves.
    pub(crate) fn placement_magnitude(&self) -> Real {
        reach(self.a.bvh) + reach(self.b.bvh) + self.b_in_a.translation.norm()
    }

    /// The user's indices of the triangles at these leaf-order positions of A and B.
    pub(crate) fn triangle_pair(&self, [i, j]: [usize; 2]) -> TrianglePair {
        TrianglePair { a: self.a.bvh.original_triangle(i), b: self.b.bvh.original_triangle(j) }
    }

    /// What `keep` makes of every candidate triangle pair (each counted as a triangle test), in
    /// one traversal with its volumes grown by `margin`.
    pub(crate) fn collect<T>(
        &self,
        margin: Real,
        stats: &mut impl Stats,
        mut keep: impl FnMut([usize; 2], &Triangle, &Triangle) -> Option<T>,
    ) -> Vec<T> {
        let mut out = Vec::new();
        self.each_candidate(margin, None, stats, |at, ta, tb, stats| {
            stats.triangle_test();
            out.extend(keep(at, ta, tb));
            ControlFlow::Continue(())
        });
        out
    }

    /// Whether [`Query::collect_parallel`] splits the traversal: both meshes reach
    /// [`QueryOptions::split_from`].
    pub(crate) fn splits_traversal(&self) -> bool {
        let smaller = self.a.bvh.mesh().triangle_count().min(self.b.bvh.mesh().triangle_count());
        smaller >= self.options.split_from
    }

    /// [`Query::collect`] with the tree-pair opened into a few subtrees per thread, each
    /// traversed on its own (when both meshes reach [`QueryOptions::split_from`]), and nothing
    /// counted: the same pairs in the same order, whatever the number of threads.
    pub(crate) fn collect_parallel<T: Send>(
        &self,
        keep: impl Fn([usize; 2], &Triangle, &Triangle) -> Option<T> + Sync,
    ) -> Vec<T> {
        if !self.splits_traversal() {
            return self.collect(0.0, &mut (), keep);
        }
        let Some(descent) = self.descent(0.0, None, &mut ()) else { return Vec::new() };
        let tasks = descent.split(TASKS_PER_THREAD * bvh_core::parallel::current_num_threads(), &mut ());
        tasks
            .into_par_iter()
            .flat_map_iter(|task| {
                let mut out = Vec::new();
                self.candidates_from(&descent, [task], &mut (), &mut (), |at, ta, tb, _| {
                    out.extend(keep(at, ta, tb));
                    ControlFlow::Continue(())
                });
                out
            })
            .collect()
    }

    /// Calls `visit` with every triangle pair under overlapping leaves (their leaf-order
    /// positions, mapped to the user's indices only for the pairs kept), both triangles in A's
    /// frame, until it breaks; returns where it broke. The root volumes are tested first (grown
    /// by `margin`).
    pub(crate) fn each_candidate<S: Stats>(
        &self,
        margin: Real,
        motion: Option<Vector>,
        stats: &mut S,
        visit: impl FnMut([usize; 2], &Triangle, &Triangle, &mut S) -> ControlFlow<()>,
    ) -> Option<Hit> {
        let descent = self.descent(margin, motion, stats)?;
        self.candidates_from(&descent, descent.start(), &mut (), stats, visit)
    }

    /// The traversal of this query, or `None` when the root volumes (grown by `margin`) miss.
    pub(crate) fn descent(
        &self,
        margin: Real,
        motion: Option<Vector>,
        stats: &mut impl Stats,
    ) -> Option<Descent<'a, VA, VB>> {
        let (a, b) = (self.a.bvh, self.b.bvh);
        if a.node_count() == 0 || b.node_count() == 0 || !self.placed() {
            return None;
        }
        stats.volume_test(VolumeTest::Root);
        // Touching pairs of triangles that stay put need no margin on their boxes.
        let exact_boxes = margin == 0.0 && motion.is_none();
        let margin = margin + self.placement_slack(motion.map_or(0.0, |m| m.norm()));
        // A swept query skips the root test: the roots only bound B where it starts.
        if motion.is_none() && !self.roots_overlap(margin) {
            return None;
        }
        self.descent_below_roots(margin, exact_boxes, motion, self.options.region_culling)
    }

    /// Whether the root volumes overlap, A's grown by `margin`.
    pub(crate) fn roots_overlap(&self, margin: Real) -> bool {
        self.a.bvh.root().inflated(margin).overlaps(self.b.bvh.root(), &self.b_in_a)
    }

    /// The traversal of a distance query: no root test (the top nodes bound tighter) and no
    /// region culling (the nearest pair may lie anywhere), A's volumes grown by the rounding of
    /// placing B.
    pub(crate) fn distance_descent(&self) -> Option<Descent<'a, VA, VB>> {
        let (a, b) = (self.a.bvh, self.b.bvh);
        if a.node_count() == 0 || b.node_count() == 0 || !self.placed() {
            return None;
        }
        let descent = self.descent_below_roots(self.placement_slack(0.0), false, None, false)?;
        Some(Descent { larger_by: Larger::Volume, ..descent })
    }

    /// The traversal of two non-empty trees below their roots, A's volumes grown by `margin`
    /// (`None` when region culling, if `cull`, finds no region).
    fn descent_below_roots(
        &self,
        margin: Real,
        exact_boxes: bool,
        motion: Option<Vector>,
        cull: bool,
    ) -> Option<Descent<'a, VA, VB>> {
        let (a, b) = (self.a.bvh, self.b.bvh);
        let sweep = motion.map(|m| self.b_in_a.rotation.tr_mul(&m));
        let b_box =
            motion.is_none().then(|| b.volume(0).enclosing_aabb(&self.b_in_a).padded().inflated(margin));
        // The top nodes' boxes bound tighter than the root volumes (a cube AABB is loose by design).
        let region = match b_box {
            Some(b_box) if cull => {
                let region = a.node_box(0).inflated(margin).intersection(&b_box);
                if region.is_empty() {
                    return None;
                }
                Some(region)
            }
            _ => None,
        };
        Some(Descent {
            a,
            b,
            b_in_a: self.b_in_a,
            a_in_b: self.b_in_a.inverse(),
            margin,
            triangle_margin: (!exact_boxes).then_some(margin),
            prejudge: self.options.prejudge,
            region,
            sweep,
            motion,
            b_box,
            nearest_first: false,
            larger_by: Larger::Surface,
            // A swept search tests no leaf against nodes: it would lose the merged node's test.
            merged_leaves: motion.is_none(),
            prefetch: a.node_count() + b.node_count() >= PREFETCH_FROM_NODES,
        })
    }

    /// [`Query::each_candidate`] below the given tree-pairs only, keeping in `front` the pairs
    /// where the descent stopped (see `Descent::run`).
    pub(crate) fn candidates_from<S: Stats>(
        &self,
        descent: &Descent<'a, VA, VB>,
        start: impl IntoIterator<Item = Pair>,
        front: &mut impl Front,
        stats: &mut S,
        mut visit: impl FnMut([usize; 2], &Triangle, &Triangle, &mut S) -> ControlFlow<()>,
    ) -> Option<Hit> {
        let (a, b, motion) = (self.a.bvh, self.b.bvh, descent.motion);
        let mut run = PlacedRun::default();
        let mut hit = None;
        let place = |j: usize| {
            let t = b.triangle(j).placed(&self.b_in_a);
            let bounds = match motion {
                Some(m) => t.aabb().merged(&Triangle::new(t.a + m, t.b + m, t.c + m).aabb()),
                None => t.aabb(),
            };
            (t, bounds)
        };
        // Comparing two `f32` is exact, and so are the boxes of `f32` points; a gap only just
        // above a margin is left to the exact test (the slack covers the rounding of the
        // distance it reports).
        let margin = descent.triangle_margin.map(|m| m as f64 * (1.0 + 1e-5));
        let _ = descent.run(start, front, stats, |[leaf_a, leaf_b], stats| {
            let mut positions_b = leaf_b.positions();
            while run.refill(&mut positions_b, place) {
                for i in leaf_a.positions() {
                    let ta = a.triangle(i);
                    for (j, tb) in run.near(&ta.aabb(), margin) {
                        if visit([i, j], ta, tb, stats).is_break() {
                            hit = Some(Hit { positions: [i, j] });
                            return ControlFlow::Break(());
                        }
                    }
                }
            }
            ControlFlow::Continue(())
        });
        hit
    }
}

/// How far the tree's points lie from its frame's origin at most (zero for an empty tree).
pub(crate) fn reach<V: NodeVolume>(tree: &Bvh<V>) -> Real {
    if tree.node_count() == 0 { 0.0 } else { tree.node_box(0).reach() }
}

/// The box holding the tree's points in its own frame (a point at the origin for an empty
/// tree).
pub(crate) fn extent<V: NodeVolume>(tree: &Bvh<V>) -> Aabb {
    if tree.node_count() == 0 { Aabb::new(Point::origin(), Point::origin()) } else { *tree.node_box(0) }
}

/// The nodes two trees have together from which a full search asks for the data below a pair
/// before it tests it: about where they no longer fit a core's cache (smaller trees only pay
/// for the hints).
const PREFETCH_FROM_NODES: usize = 1 << 15;

/// Subtrees per thread when one query is split: enough that an uneven split still keeps every
/// thread busy.
const TASKS_PER_THREAD: usize = 16;
