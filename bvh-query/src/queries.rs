//! The queries between two posed hierarchies: the first intersecting triangle pair, all of
//! them (optionally with where they meet), and every pair within a clearance distance. Each is
//! exact on the triangles; the answers name triangles by the user's original indices.

use crate::cache::{Hit, PairCache};
use crate::node_test::NodeTest;
use crate::prefetch::prefetch;
use crate::stats::{Stats, VolumeTest};
use crate::traverse::{Descent, Front, Pair};
use bvh_build::{Bvh, NodeVolume};
use bvh_core::triangle::swept_triangle_intersects;
use bvh_core::{
    Aabb, Interpolation, Isometry, MAX_AROUND, Point, PoseError, PoseOf, Real, RelativePose, RigidMotion,
    Segment, Triangle, TriangleIntersection, Vector, check_finite, closest_points_triangles, rounding_slack,
    triangle_intersection, triangles_intersect,
};
use rayon::prelude::*;
use smallvec::SmallVec;
use std::borrow::Borrow;
use std::ops::ControlFlow;

/// A triangle of A and a triangle of B, by the indices the user built the meshes with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TrianglePair {
    /// Triangle of A.
    pub a: u32,
    /// Triangle of B.
    pub b: u32,
}

/// An intersecting triangle pair and where the triangles meet, in world coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// The triangles.
    pub pair: TrianglePair,
    /// Their intersection (a segment, or a polygon for coplanar triangles).
    pub intersection: TriangleIntersection,
}

/// A triangle pair at most the clearance apart, with its distance and closest points in world
/// coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NearPair {
    /// The triangles.
    pub pair: TrianglePair,
    /// Their distance (zero when they intersect).
    pub distance: Real,
    /// The closest point on A's triangle.
    pub on_a: Point,
    /// The closest point on B's triangle.
    pub on_b: Point,
}

/// Why a swept query was refused.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum SweepError {
    /// The start and end poses differ in rotation; only translations are swept exactly.
    #[error("the motion rotates: only translations are swept exactly (see `sweep_within`)")]
    Rotation,
    /// The end pose has a NaN or infinite component.
    #[error(transparent)]
    Pose(#[from] PoseError),
    /// The tolerance of a sweep is not a positive finite distance.
    #[error("the tolerance must be a positive finite distance")]
    Tolerance,
    /// The tolerance of a time of impact is too small to certify against the rounding of
    /// placing B in `f32` at these coordinates.
    #[error("the tolerance {tolerance} is within twice the rounding {rounding} of placing the meshes")]
    ToleranceBelowRounding {
        /// The tolerance asked for.
        tolerance: Real,
        /// How far placing B's triangles in `f32` may move them here.
        rounding: Real,
    },
    /// The sub-stepped sweep would need more than `MAX_SWEEP_STEPS` steps for this tolerance.
    #[error("the motion needs {0} steps for this tolerance; take a larger tolerance or a shorter motion")]
    TooManySteps(u64),
}

/// Most sub-steps [`Query::sweep_within`] takes.
pub const MAX_SWEEP_STEPS: u64 = 100_000;

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
}

impl Default for QueryOptions {
    fn default() -> Self {
        Self { prejudge: true, region_culling: false }
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
}

impl<'a, VA, VB> Query<'a, VA, VB>
where
    VA: NodeVolume + NodeTest<VB>,
    VB: NodeVolume,
{
    /// Prepares queries between `a` and `b` (B's pose in A's frame is computed here, once).
    /// Poses with a NaN or infinite component are refused: they place nothing anywhere.
    pub fn new(a: Posed<'a, VA>, b: Posed<'a, VB>, options: QueryOptions) -> Result<Self, PoseError> {
        Ok(Self { b_in_a: RelativePose::checked_between(&a.pose, &b.pose)?, a, b, options })
    }

    /// The first intersecting triangle pair found, if any (see [`Query::intersects_counted`]).
    pub fn intersects(&self) -> Option<TrianglePair> {
        self.intersects_counted(None, &mut ())
    }

    /// [`Query::intersects`], starting from what `cache` kept of the last query of this pair of
    /// objects: along a path, usually far cheaper.
    pub fn intersects_cached(&self, cache: &mut PairCache) -> Option<TrianglePair> {
        self.intersects_counted(Some(cache), &mut ())
    }

    /// The first intersecting triangle pair found, if any. With a cache, while the objects
    /// touch, the pair found last time is tried first, then the triangles around it: along a
    /// path the contact usually stays where it was or slides to a neighbour.
    /// While they are apart, the search starts from the pairs where the last one stopped (the
    /// front of the bounding volume test tree, paper 004), not from the top – and tests nothing
    /// while B cannot have crossed the gap to any of them.
    pub fn intersects_counted(
        &self,
        cache: Option<&mut PairCache>,
        stats: &mut impl Stats,
    ) -> Option<TrianglePair> {
        self.first_contact(cache, stats).map(|hit| self.triangle_pair(hit.positions))
    }

    /// [`Query::intersects`], the contact by leaf-order positions.
    pub(crate) fn first_contact(&self, cache: Option<&mut PairCache>, stats: &mut impl Stats) -> Option<Hit> {
        match cache {
            None => self.first_in_trees(None::<std::iter::Empty<Pair>>, &mut (), stats),
            Some(cache) => {
                let last =
                    cache.start((self.a.bvh.id(), self.b.bvh.id()), &self.b_in_a, || reach(self.b.bvh));
                match last.and_then(|last| self.contact_near(last, stats)) {
                    Some(hit) => {
                        cache.found_near(hit);
                        Some(hit)
                    }
                    None => {
                        // A gap measured between volumes may be off by the rounding of placing
                        // B there, of placing it here, and of the measuring: each less than the
                        // placement's slack.
                        let hit = cache
                            .resume(|| 3.0 * self.placement_slack(0.0))
                            .and_then(|(front, mut next)| self.first_in_trees(front, &mut next, stats));
                        cache.remember(hit);
                        hit
                    }
                }
            }
        }
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

    /// The `last` contact if its triangles still touch, else the first found among the
    /// triangles around it.
    fn contact_near(&self, last: Hit, stats: &mut impl Stats) -> Option<Hit> {
        let [i, j] = last.positions;
        let (a, b) = (self.a.bvh, self.b.bvh);
        let (around_a, around_b) = (a.neighbours(i), b.neighbours(j));
        // The triangles around the two start loading while the pair itself is tested: half the
        // frames of a path need them, and read from cold memory only then they cost more than
        // the test.
        prefetch_triangles(a, around_a);
        prefetch_triangles(b, around_b);
        stats.triangle_test();
        let (ta, tb) = (a.triangle(i), b.triangle(j).placed(&self.b_in_a));
        if triangles_intersect(ta, &tb) {
            return Some(last);
        }
        // No search around a triangle with more than `MAX_AROUND` around it.
        self.contact_around(last, [around_a?, around_b?], &tb, stats)
    }

    /// The first contact found from the top – or, when there is a `previous` front, from its
    /// pairs that need testing – keeping where the search stopped in `next`.
    fn first_in_trees<S: Stats>(
        &self,
        previous: Option<impl Iterator<Item = Pair>>,
        next: &mut impl Front,
        stats: &mut S,
    ) -> Option<Hit> {
        let Some(descent) = self.descent(0.0, None, stats) else {
            next.clear();
            return None;
        };
        let descent = Descent { nearest_first: true, ..descent };
        let top = previous.is_none().then(|| descent.start()).flatten();
        self.first_below(&descent, previous.into_iter().flatten().chain(top), next, stats)
    }

    /// The first intersecting pair among the triangles around the `last` contact's two (those
    /// sharing a corner point with them, on each side), whose boxes meet: a contact sliding
    /// across the surfaces moves there, as nearly every contact lost since the frame before does
    /// along the anchors' paths. Most successors keep one of the two triangles, so each side's
    /// triangles are tried against the other's last before the two rings against each other. `around`: the two triangles' neighbour lists.
    fn contact_around(
        &self,
        last: Hit,
        [around_a, around_b]: [&[u32]; 2],
        last_b: &Triangle,
        stats: &mut impl Stats,
    ) -> Option<Hit> {
        let (a, b) = (self.a.bvh, self.b.bvh);
        let [i_last, j_last] = last.positions;
        let hit = |i: usize, j: usize| Some(Hit { positions: [i, j] });
        // Each side's ring leaves out its last triangle, which is tested on its own.
        let ring_a: SmallVec<[(usize, &Triangle, Aabb); MAX_AROUND]> = around_a
            .iter()
            .map(|&i| i as usize)
            .filter(|&i| i != i_last)
            .map(|i| {
                let t = a.triangle(i);
                (i, t, t.aabb())
            })
            .collect();
        // A's triangles against B's last, which needs no moving: most contacts keep one of the two.
        let box_last_b = last_b.aabb();
        for (i, ta) in meeting(&ring_a, &box_last_b) {
            stats.triangle_test();
            if triangles_intersect(ta, last_b) {
                return hit(i, j_last);
            }
        }
        // B's triangles, moved into A's frame where their boxes meet A's: against A's last as
        // they are moved, then against the others.
        let ta_last = a.triangle(i_last);
        let box_a_last = ta_last.aabb();
        let all_a = ring_a.iter().fold(box_a_last, |all, (_, _, bounds)| all.merged(bounds));
        let mut ring_b: SmallVec<[(usize, Triangle, Aabb); MAX_AROUND]> = SmallVec::new();
        for &j in around_b.iter().filter(|&&j| j as usize != j_last) {
            let tb = b.triangle(j as usize).placed(&self.b_in_a);
            let box_b = tb.aabb();
            if !all_a.intersects(&box_b) {
                continue;
            }
            if box_b.intersects(&box_a_last) {
                stats.triangle_test();
                if triangles_intersect(ta_last, &tb) {
                    return hit(i_last, j as usize);
                }
            }
            ring_b.push((j as usize, tb, box_b));
        }
        for (j, tb, box_b) in &ring_b {
            for (i, ta) in meeting(&ring_a, box_b) {
                stats.triangle_test();
                if triangles_intersect(ta, tb) {
                    return hit(i, *j);
                }
            }
        }
        None
    }

    /// The first contact below the tree-pairs `start`, keeping in `front` where the search
    /// stopped.
    fn first_below<S: Stats>(
        &self,
        descent: &Descent<'a, VA, VB>,
        start: impl IntoIterator<Item = Pair>,
        front: &mut impl Front,
        stats: &mut S,
    ) -> Option<Hit> {
        self.candidates_from(descent, start, front, stats, |_, ta, tb, stats| {
            stats.triangle_test();
            if triangles_intersect(ta, tb) { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        })
    }

    /// Every intersecting triangle pair (see [`Query::intersecting_pairs_counted`]).
    pub fn intersecting_pairs(&self) -> Vec<TrianglePair> {
        self.intersecting_pairs_counted(&mut ())
    }

    /// Every intersecting triangle pair, sorted.
    pub fn intersecting_pairs_counted(&self, stats: &mut impl Stats) -> Vec<TrianglePair> {
        let mut out = Vec::new();
        self.each_candidate(0.0, None, stats, |at, ta, tb, stats| {
            stats.triangle_test();
            if triangles_intersect(ta, tb) {
                out.push(self.triangle_pair(at));
            }
            ControlFlow::Continue(())
        });
        out.sort_unstable();
        out
    }

    /// Every intersecting triangle pair with where it meets (see [`Query::contacts_counted`]).
    pub fn contacts(&self) -> Vec<Contact> {
        self.contacts_counted(&mut ())
    }

    /// Every intersecting triangle pair with its intersection in world coordinates, sorted by
    /// pair.
    pub fn contacts_counted(&self, stats: &mut impl Stats) -> Vec<Contact> {
        let mut out = Vec::new();
        self.each_candidate(0.0, None, stats, |at, ta, tb, stats| {
            stats.triangle_test();
            out.extend(self.contact(at, ta, tb));
            ControlFlow::Continue(())
        });
        out.sort_unstable_by_key(|c| c.pair);
        out
    }

    /// Where the triangles at leaf-order positions `at` (given in A's frame) meet, in world
    /// coordinates.
    fn contact(&self, at: [usize; 2], ta: &Triangle, tb: &Triangle) -> Option<Contact> {
        let to_world = |p: &Point| self.a.pose * p;
        let intersection = match triangle_intersection(ta, tb)? {
            TriangleIntersection::Segment(s) => {
                TriangleIntersection::Segment(Segment::new(to_world(&s.a), to_world(&s.b)))
            }
            TriangleIntersection::Polygon(p) => TriangleIntersection::Polygon(p.mapped(to_world)),
        };
        Some(Contact { pair: self.triangle_pair(at), intersection })
    }

    /// Every triangle pair within `clearance`, with distances and closest points (see
    /// [`Query::pairs_within_counted`]).
    pub fn pairs_within(&self, clearance: Real) -> Vec<NearPair> {
        self.pairs_within_counted(clearance, &mut ())
    }

    /// Every triangle pair at most `clearance` apart (intersecting ones included, at distance
    /// zero), sorted by pair: "does the wrench keep 5 mm from the pipe". No pair is within a
    /// negative or NaN clearance; every pair is within an infinite one.
    pub fn pairs_within_counted(&self, clearance: Real, stats: &mut impl Stats) -> Vec<NearPair> {
        let mut out = Vec::new();
        let margin = clearance.max(0.0);
        self.each_candidate(margin, None, stats, |at, ta, tb, stats| {
            stats.triangle_test();
            let c = closest_points_triangles(ta, tb);
            if c.distance <= clearance {
                out.push(NearPair {
                    pair: self.triangle_pair(at),
                    distance: c.distance,
                    on_a: self.a.pose * c.on_a,
                    on_b: self.a.pose * c.on_b,
                });
            }
            ControlFlow::Continue(())
        });
        out.sort_unstable_by_key(|n| n.pair);
        out
    }

    /// [`Query::intersecting_pairs`] with the traversal split across rayon's threads: for one
    /// very large pair (two meshes deep inside each other). Same answer; no statistics.
    pub fn intersecting_pairs_parallel(&self) -> Vec<TrianglePair> {
        let mut out =
            self.collect_parallel(|at, ta, tb| triangles_intersect(ta, tb).then(|| self.triangle_pair(at)));
        out.sort_unstable();
        out
    }

    /// [`Query::contacts`] with the traversal split across rayon's threads. Same answer; no
    /// statistics.
    pub fn contacts_parallel(&self) -> Vec<Contact> {
        let mut out = self.collect_parallel(|at, ta, tb| self.contact(at, ta, tb));
        out.sort_unstable_by_key(|c| c.pair);
        out
    }

    /// What `keep` makes of every candidate triangle pair, the tree-pair opened into a few
    /// subtrees per thread and each traversed on its own.
    pub(crate) fn collect_parallel<T: Send>(
        &self,
        keep: impl Fn([usize; 2], &Triangle, &Triangle) -> Option<T> + Sync,
    ) -> Vec<T> {
        let Some(descent) = self.descent(0.0, None, &mut ()) else { return Vec::new() };
        let tasks = descent.split(TASKS_PER_THREAD * rayon::current_num_threads(), &mut ());
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

    /// Whether B, translated to `end`, touches A on the way (see
    /// [`Query::swept_intersects_counted`]).
    pub fn swept_intersects(&self, end: &Isometry) -> Result<Option<TrianglePair>, SweepError> {
        self.swept_intersects_counted(end, &mut ())
    }

    /// Whether B, translated from its pose in this query to `end` (same rotation), touches A at
    /// any moment of the motion: the first such triangle pair. Vertex paths through triangles
    /// (paper 002) and edges sweeping through edges are tested exactly, so nothing tunnels
    /// through. A motion that also rotates is refused: split it into translations.
    pub fn swept_intersects_counted(
        &self,
        end: &Isometry,
        stats: &mut impl Stats,
    ) -> Result<Option<TrianglePair>, SweepError> {
        check_finite(end, PoseOf::End)?;
        let end_in_a = RelativePose::checked_between(&self.a.pose, end)?;
        if end_in_a.rotation != self.b_in_a.rotation {
            return Err(SweepError::Rotation);
        }
        let motion = end_in_a.translation - self.b_in_a.translation;
        let mut found = None;
        self.each_candidate(0.0, Some(motion), stats, |at, ta, tb, stats| {
            stats.triangle_test();
            if swept_triangle_intersects(ta, tb, &motion) {
                found = Some(self.triangle_pair(at));
                return ControlFlow::Break(());
            }
            ControlFlow::Continue(())
        });
        Ok(found)
    }

    /// Whether B, moving to `end`, comes within `tolerance` of A (see
    /// [`Query::sweep_within_counted`]).
    pub fn sweep_within(&self, end: &Isometry, tolerance: Real) -> Result<Option<NearPair>, SweepError> {
        self.sweep_within_counted(end, tolerance, &mut ())
    }

    /// Whether B, moving from its pose in this query to `end` along the slerp motion
    /// ([`Interpolation::Slerp`]: translation linear, rotation about B's origin), comes within `tolerance` of A at
    /// any moment: the closest triangle pair at the first sub-step that does.
    ///
    /// The motion is cut into `n` steps so that no point of B moves more than `tolerance` within
    /// one (`n = ceil((|Δt| + θ r) / tolerance)`, `θ` the rotation angle, `r` the largest distance
    /// of B's vertices from its origin), and every step's start pose is checked for pairs within
    /// `tolerance`. The bound: a contact anywhere along the motion is never missed (the pair is
    /// at most `tolerance` apart at the preceding step), and a reported pair is at most
    /// `tolerance` apart at that step. For a pure translation, [`Query::swept_intersects`] is
    /// exact.
    pub fn sweep_within_counted(
        &self,
        end: &Isometry,
        tolerance: Real,
        stats: &mut impl Stats,
    ) -> Result<Option<NearPair>, SweepError> {
        if !(tolerance.is_finite() && tolerance > 0.0) {
            return Err(SweepError::Tolerance);
        }
        // The steps below interpolate between the poses: a bad end pose is refused here.
        let motion = RigidMotion::new(&self.b.pose, end, Interpolation::Slerp)?;
        RelativePose::checked_between(&self.a.pose, end)?;
        let reach = self.b.bvh.mesh().vertices().iter().map(|p| p.coords.norm()).fold(0.0, Real::max);
        let steps = (motion.speed_bound(reach) / tolerance as f64).ceil().max(1.0);
        if steps > MAX_SWEEP_STEPS as f64 {
            return Err(SweepError::TooManySteps(steps as u64));
        }
        let steps = steps as u64;
        for k in 0..=steps {
            let pose = motion.pose_at(k as f64 / steps as f64);
            let query = Query::new(self.a, Posed::new(self.b.bvh, pose), self.options)?;
            let near = query.pairs_within_counted(tolerance, stats);
            if let Some(closest) = near.into_iter().min_by(|x, y| x.distance.total_cmp(&y.distance)) {
                return Ok(Some(closest));
            }
        }
        Ok(None)
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
    fn descent(
        &self,
        margin: Real,
        motion: Option<Vector>,
        stats: &mut impl Stats,
    ) -> Option<Descent<'a, VA, VB>> {
        let (a, b) = (self.a.bvh, self.b.bvh);
        if a.node_count() == 0 || b.node_count() == 0 {
            return None;
        }
        stats.volume_test(VolumeTest::Root);
        // Touching pairs of triangles that stay put need no margin on their boxes.
        let exact_boxes = margin == 0.0 && motion.is_none();
        let margin = margin + self.placement_slack(motion.map_or(0.0, |m| m.norm()));
        // A swept query skips the root test: the roots only bound B where it starts.
        if motion.is_none() && !a.root().inflated(margin).overlaps(b.root(), &self.b_in_a) {
            return None;
        }
        self.descent_below_roots(margin, exact_boxes, motion, self.options.region_culling)
    }

    /// The traversal of a distance query: no root test (the top nodes bound tighter) and no
    /// region culling (the nearest pair may lie anywhere), A's volumes grown by the rounding of
    /// placing B.
    pub(crate) fn distance_descent(&self) -> Option<Descent<'a, VA, VB>> {
        let (a, b) = (self.a.bvh, self.b.bvh);
        if a.node_count() == 0 || b.node_count() == 0 {
            return None;
        }
        self.descent_below_roots(self.placement_slack(0.0), false, None, false)
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
            motion.is_none().then(|| b.volume(0).enclosing_aabb(&self.b_in_a).padded().loosened(margin));
        // The top nodes' boxes bound tighter than the root volumes (a cube AABB is loose by design).
        let region = match b_box {
            Some(b_box) if cull => {
                let region = a.node_box(0).loosened(margin).intersection(&b_box);
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
        })
    }

    /// [`Query::each_candidate`] below the given tree-pairs only, keeping in `front` the pairs
    /// where the descent stopped (see `Descent::run`).
    fn candidates_from<S: Stats>(
        &self,
        descent: &Descent<'a, VA, VB>,
        start: impl IntoIterator<Item = Pair>,
        front: &mut impl Front,
        stats: &mut S,
        mut visit: impl FnMut([usize; 2], &Triangle, &Triangle, &mut S) -> ControlFlow<()>,
    ) -> Option<Hit> {
        let (a, b, motion) = (self.a.bvh, self.b.bvh, descent.motion);
        let mut moved: SmallVec<[(Triangle, Aabb); 4]> = SmallVec::new();
        let mut hit = None;
        let _ = descent.run(start, front, stats, |ra, rb, stats| {
            moved.clear();
            moved.extend(rb.clone().map(|j| {
                let t = b.triangle(j).placed(&self.b_in_a);
                let bounds = match motion {
                    Some(m) => t.aabb().merged(&Triangle::new(t.a + m, t.b + m, t.c + m).aabb()),
                    None => t.aabb(),
                };
                (t, bounds)
            }));
            for i in ra {
                let ta = a.triangle(i);
                let box_a = ta.aabb();
                for (j, (tb, box_b)) in rb.clone().zip(&moved) {
                    let apart = match descent.triangle_margin {
                        // Comparing two `f32` is exact, and so are the boxes of `f32` points.
                        None => !box_a.intersects(box_b),
                        // A gap only just above the margin is left to the exact test (the
                        // slack covers the rounding of the distance it reports).
                        Some(margin) => box_a.gap(box_b) > margin as f64 * (1.0 + 1e-5),
                    };
                    if apart {
                        continue;
                    }
                    if visit([i, j], ta, tb, stats).is_break() {
                        hit = Some(Hit { positions: [i, j] });
                        return ControlFlow::Break(());
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

/// Subtrees per thread when one query is split: enough that an uneven split still keeps every
/// thread busy.
const TASKS_PER_THREAD: usize = 16;

/// A ring of triangles around a contact: leaf-order position, triangle, box. It leaves out
/// the contact's own triangle, so a ring's boxes fit the bits of a `u32`.
type Ring<'t> = [(usize, &'t Triangle, Aabb)];
const _: () = assert!(MAX_AROUND - 1 <= u32::BITS as usize);

/// The ring's triangles whose boxes meet `bounds`, in ring order. The boxes are tested in one
/// pass with no branch, into the bits of a mask: which boxes meet is unpredictable, and a
/// branch per box mispredicts.
fn meeting<'r, 't>(ring: &'r Ring<'t>, bounds: &Aabb) -> impl Iterator<Item = (usize, &'t Triangle)> + 'r {
    let mut bits = ring
        .iter()
        .enumerate()
        .fold(0u32, |bits, (k, (_, _, b))| bits | u32::from(b.intersects(bounds)) << k);
    std::iter::from_fn(move || {
        let k = (bits != 0).then(|| bits.trailing_zeros() as usize)?;
        bits &= bits - 1;
        Some((ring[k].0, ring[k].1))
    })
}

/// Starts loading the triangles at leaf-order positions `around` of `tree` (see [`prefetch`]).
fn prefetch_triangles<V: NodeVolume>(tree: &Bvh<V>, around: Option<&[u32]>) {
    for &k in around.unwrap_or_default() {
        prefetch(tree.triangle(k as usize));
    }
}
