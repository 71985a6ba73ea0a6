//! The minimum distance between two posed meshes: the nearest triangle pair, its distance and
//! a closest point on each mesh, found by a best-first search of both trees (with dives to the
//! leaves) that drops every pair whose lower bound cannot beat the best pair found.

use crate::answers::NearPair;
use crate::cache::{Hit, PairCache};
use crate::node_test::NodeTest;
use crate::query::{Query, extent};
use crate::stats::Stats;
use crate::traverse::{Front, INLINE_LEAF, Measured, Slab};
use bvh_build::{Bvh, NodeVolume};
use bvh_core::triangle::{LineGap, LineSpan, closest_points_apart_triangles, rounds_to_at_least};
use bvh_core::{Aabb, ClosestPoints, Point, Real, Triangle, closest_points_triangles, mean, min, next_up};
use nalgebra as na;
use smallvec::SmallVec;
use std::ops::Range;

/// How far a distance query may settle for less than the exact answer, and from what distance
/// on the answer no longer matters.
///
/// The answer `d` for meshes whose distance is `d*` satisfies `d* <= d <= (1 + rel_err) d* +
/// abs_err` (up to the rounding of placing B's triangles in A's frame): it is always the
/// distance of a real pair of triangles, never below the true one. The default is exact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DistanceOptions {
    /// An absolute tolerance (in the meshes' units); a negative or NaN one is none.
    pub abs_err: Real,
    /// A relative tolerance; a negative or NaN one is none.
    pub rel_err: Real,
    /// Beyond this distance the query answers "farther" (`None`) as soon as it knows: what a
    /// clearance check or a planner mostly asks, and much cheaper than the distance itself.
    pub max_distance: Real,
}

impl Default for DistanceOptions {
    fn default() -> Self {
        Self { abs_err: 0.0, rel_err: 0.0, max_distance: Real::INFINITY }
    }
}

impl DistanceOptions {
    /// The exact distance, however large.
    pub fn exact() -> Self {
        Self::default()
    }

    /// The same options, answering "farther" beyond `max_distance`.
    pub fn within(self, max_distance: Real) -> Self {
        Self { max_distance, ..self }
    }

    /// The same options with these tolerances.
    pub fn tolerant(self, abs_err: Real, rel_err: Real) -> Self {
        Self { abs_err, rel_err, ..self }
    }

    /// The bound below which a pair can still matter once a pair at `best` is known: a pair
    /// whose distance is no less than it cannot make the answer break the promise.
    fn cutoff(&self, best: Real) -> Real {
        (best - self.abs_err.max(0.0)) / (1.0 + self.rel_err.max(0.0))
    }

    /// The bound before any pair is known: pairs farther than `max_distance` never matter (a
    /// NaN limit is no limit; a negative one leaves nothing).
    fn first_cutoff(&self) -> Real {
        match self.max_distance {
            d if d.is_nan() || d == Real::INFINITY => Real::INFINITY,
            d if d < 0.0 => Real::NEG_INFINITY,
            // The smallest float above it: a pair at exactly the limit is still found.
            d => next_up(d.abs()),
        }
    }
}

/// The best pair found so far, in leaf-order positions, with its closest points in A's frame.
pub(crate) struct Best {
    pub(crate) positions: [usize; 2],
    pub(crate) closest: ClosestPoints,
}

impl<'a, VA, VB> Query<'a, VA, VB>
where
    VA: NodeVolume + NodeTest<VB>,
    VB: NodeVolume,
{
    /// The minimum distance, the nearest triangle pair and a closest point on each (see
    /// [`Query::distance_counted`]).
    pub fn distance(&self, options: DistanceOptions) -> Option<NearPair> {
        self.distance_counted(options, None, &mut ())
    }

    /// [`Query::distance`], starting from the nearest pair and the search `cache` kept of the
    /// last query of this pair of objects: along a path, cheaper, with the same answer.
    pub fn distance_cached(&self, options: DistanceOptions, cache: &mut PairCache) -> Option<NearPair> {
        self.distance_counted(options, Some(cache), &mut ())
    }

    /// The minimum distance between the two meshes, with the nearest triangle pair (the user's
    /// indices) and a closest point on each (world coordinates): zero, with one shared point,
    /// when they intersect – exactly when [`Query::intersects`] finds a contact. `None` when the
    /// meshes are farther apart than `options.max_distance`, or either has no triangles.
    ///
    /// Touching meshes are found by the first-contact search ([`Query::intersects`]). With a
    /// cache, the nearest pair found last time is measured first (along a path it is near the
    /// new answer, and bounds the search from the start), and the search starts from where the
    /// last one stopped, passing by what B cannot have come near since. The answer is the same
    /// as without.
    pub fn distance_counted(
        &self,
        options: DistanceOptions,
        cache: Option<&mut PairCache>,
        stats: &mut impl Stats,
    ) -> Option<NearPair> {
        self.nearest(options, cache, stats).map(|best| self.near_pair(&best))
    }

    /// [`Query::distance`], the pair by leaf-order positions and in A's frame.
    pub(crate) fn nearest(
        &self,
        options: DistanceOptions,
        cache: Option<&mut PairCache>,
        stats: &mut impl Stats,
    ) -> Option<Best> {
        if options.first_cutoff() <= 0.0 || !self.placed() {
            return None;
        }
        let mut cache = cache;
        // Bounds measured at an earlier pose may be off by the rounding of placing B there, of
        // placing it here, and of the measuring.
        let slack = 3.0 * self.placement_slack(0.0);
        let trees = (self.a.bvh.id(), self.b.bvh.id());
        // Touching meshes are settled by the first-contact search, far cheaper than measuring
        // the pairs on the way there (and, with the cache, mostly answered around the last
        // contact); it also tells apart meshes at once when their volumes are apart. Meshes
        // that B's motion since the last query cannot have brought together need neither.
        let skip = cache
            .as_deref_mut()
            .is_some_and(|c| c.skips_first_contact(trees, &self.b_in_a, &extent(self.b.bvh), slack));
        if let Some(hit) = (!skip).then(|| self.first_contact(cache.as_deref_mut(), stats)).flatten() {
            let [i, j] = hit.positions;
            let closest = self.measure(i, j, stats);
            if let Some(cache) = cache {
                cache.remember_closest(Some(hit), &self.b_in_a, 0.0);
            }
            return Some(Best { positions: hit.positions, closest });
        }
        let mut best: Option<Best> = None;
        let mut cutoff = options.first_cutoff();
        if let Some(last) = cache.as_deref().and_then(PairCache::closest) {
            let [i, j] = last.positions;
            if let Some(closest) = self.measure_apart(i, j, cutoff, stats) {
                cutoff = options.cutoff(closest.distance);
                best = Some(Best { positions: last.positions, closest });
            }
        }
        if cutoff > 0.0 {
            self.nearest_in_trees(
                &options,
                cutoff,
                &mut best,
                cache.as_deref_mut().map(|c| (c, slack)),
                stats,
            );
        }
        if let Some(cache) = cache {
            // The promise bounds the meshes' distance from below by the answer's cutoff, or
            // by the limit without one (less the rounding of either to `f32`).
            let at_least = best.as_ref().map_or(options.max_distance, |b| options.cutoff(b.closest.distance));
            let apart_by = at_least as f64 * (1.0 - 1e-6);
            cache.remember_closest(
                best.as_ref().map(|b| Hit { positions: b.positions }),
                &self.b_in_a,
                apart_by,
            );
        }
        best
    }

    /// The answer for the pair `best`, in the user's indices and world coordinates.
    pub(crate) fn near_pair(&self, best: &Best) -> NearPair {
        NearPair {
            pair: self.triangle_pair(best.positions),
            distance: best.closest.distance,
            on_a: self.a.pose * best.closest.on_a,
            on_b: self.a.pose * best.closest.on_b,
        }
    }

    /// The search of both trees below `cutoff`, improving `best`, for meshes known apart. With a
    /// cache, from the pairs of the last search's front that B may have come near since, the
    /// front this search leaves kept for the next; its bounds, measured at earlier poses, may be
    /// off by the slack given with it.
    fn nearest_in_trees(
        &self,
        options: &DistanceOptions,
        cutoff: Real,
        best: &mut Option<Best>,
        cache: Option<(&mut PairCache, Real)>,
        stats: &mut impl Stats,
    ) {
        let Some(descent) = self.distance_descent() else { return };
        let (a, b) = (self.a.bvh, self.b.bvh);
        // The warm start's pair, if any, gives the search its first line.
        let first_line = best.as_ref().map(|b| b.closest.line.cast::<Real>());
        let mut moved: SmallVec<[(Triangle, Aabb); INLINE_LEAF]> = SmallVec::new();
        let mut spans = LeafSpans::default();
        // With a cache, the pairs of its front to start from and where this search's stops go
        // (none at scattered poses).
        let resumed = cache.and_then(|(cache, slack)| {
            cache.distance_resume(&self.b_in_a, &extent(b), |i| *b.node_box(i), cutoff, slack)
        });
        // A front kept for the next frame, if B moves coherently, holds with each leaf pair's
        // bound a slab between the leaves, which B's motion away from A raises.
        let coherent = resumed.as_ref().is_some_and(|(_, kept)| kept.keeps_slabs());
        // Measures the pairs of two leaves against the cutoff, improving `best`; returns the new
        // cutoff, a lower bound on the leaves' distance (what measured or dismissed each pair)
        // and, for a front, a slab between the leaves.
        let leaves =
            |ra: Range<usize>, rb: Range<usize>, b_corners: &[Point], cutoff: Real, stats: &mut _| {
                let mut cutoff = cutoff;
                let mut bound = Real::INFINITY;
                let mut nearest: Option<ClosestPoints> = None;
                let mut nearer = None;
                // Leaves lying beyond the nearest pair along its line (near-ties of large
                // triangles, ties around its corners, or whole leaves behind the answer) are
                // dismissed by their corners alone, before any pair's box; the slab is theirs
                // for a front.
                let along_best = best.as_ref().and_then(|b| {
                    let (from, line) = (&b.closest.on_a, &b.closest.line);
                    let span_a = spans.get(ra.start, from, line, || leaf_span(a, ra.clone(), from, line));
                    leaves_across(&span_a, b_corners, from, line)
                });
                if let Some(across) = along_best.filter(|across| rounds_to_at_least(across.gap, cutoff)) {
                    return Measured {
                        cutoff,
                        bound: across.slab.gap,
                        slab: coherent.then_some(across.slab),
                        nearer: None,
                    };
                }
                moved.clear();
                moved.extend(b_corners.chunks_exact(3).map(|c| {
                    let t = Triangle::new(c[0], c[1], c[2]);
                    (t, t.aabb())
                }));
                for i in ra.clone() {
                    let ta = a.triangle(i);
                    let box_a = ta.aabb();
                    for (j, (tb, box_b)) in rb.clone().zip(&moved) {
                        // The boxes of the triangles as measured bound their distance from below.
                        let boxes = box_a.distance(box_b);
                        if boxes >= cutoff as f64 {
                            bound = min(boxes as Real, bound);
                            continue;
                        }
                        Stats::triangle_test(stats);
                        // The first-contact search has proved every pair apart.
                        let closest = match closest_points_apart_triangles(
                            ta,
                            tb,
                            cutoff,
                            best.as_ref().map(|b| &b.closest),
                        ) {
                            Ok(closest) => closest,
                            Err(apart) => {
                                bound = min(apart, bound);
                                continue;
                            }
                        };
                        bound = min(closest.distance, bound);
                        if nearest.is_none_or(|n| closest.distance < n.distance) {
                            nearest = Some(closest);
                        }
                        if closest.distance < cutoff {
                            cutoff = options.cutoff(closest.distance);
                            *best = Some(Best { positions: [i, j], closest });
                            nearer = Some(closest.line.cast::<Real>());
                        }
                    }
                }
                // The wider of the slabs across the leaves' own nearest pair's line and across
                // the nearest pair's (as for the stops above leaves).
                let slab = if coherent {
                    Slab::wider(slab_between(a, ra, b_corners, nearest.as_ref()), along_best.map(|x| x.slab))
                } else {
                    None
                };
                Measured { cutoff, bound, slab, nearer }
            };
        match resumed {
            None => descent.nearest(None::<std::iter::Empty<_>>, cutoff, first_line, &mut (), stats, leaves),
            Some((due, mut kept)) => {
                descent.nearest(due.map(|d| d.iter().copied()), cutoff, first_line, &mut kept, stats, leaves)
            }
        }
    }

    /// The closest points of the triangles at leaf-order positions `i` of A and `j` of B.
    fn measure(&self, i: usize, j: usize, stats: &mut impl Stats) -> ClosestPoints {
        stats.triangle_test();
        closest_points_triangles(self.a.bvh.triangle(i), &self.b.bvh.triangle(j).placed(&self.b_in_a))
    }

    /// [`Self::measure`] for meshes known apart, which needs no intersection test: the closest
    /// points if they are nearer than `below`.
    fn measure_apart(
        &self,
        i: usize,
        j: usize,
        below: Real,
        stats: &mut impl Stats,
    ) -> Option<ClosestPoints> {
        stats.triangle_test();
        let tb = self.b.bvh.triangle(j).placed(&self.b_in_a);
        closest_points_apart_triangles(self.a.bvh.triangle(i), &tb, below, None)
            .ok()
            .filter(|closest| closest.distance < below)
    }
}

/// The slab between A's triangles at leaf-order positions `ra` and B's placed `b_corners`
/// normal to the line through the closest points of their `nearest` pair, if one was measured,
/// else through the leaves' centroids: as thick as the leaves' distance where both are flat,
/// and a bound on it always. `None` where the line has no direction.
fn slab_between<VA: NodeVolume>(
    a: &Bvh<VA>,
    ra: Range<usize>,
    b_corners: &[Point],
    nearest: Option<&ClosestPoints>,
) -> Option<Slab> {
    let (from, line) = match nearest {
        Some(n) => (n.on_a, n.line),
        None => {
            let from = mean(a.triangles(ra.clone()).iter().flat_map(Triangle::vertices));
            (from, (mean(b_corners) - from).cast())
        }
    };
    leaves_across(&leaf_span(a, ra, &from, &line), b_corners, &from, &line).map(|across| across.slab)
}

/// The span of A's triangles at leaf-order positions `ra` along `line` through `from`.
fn leaf_span<VA: NodeVolume>(
    a: &Bvh<VA>,
    ra: Range<usize>,
    from: &Point,
    line: &na::Vector3<f64>,
) -> LineSpan {
    LineSpan::of(a.triangles(ra).iter().flat_map(Triangle::vertices), from, line)
}

/// The spans of A's leaves along the nearest pair's line, kept while it stays the line: around
/// the answer, one leaf of A meets several of B's in turn. Direct-mapped on a leaf's first
/// position.
#[derive(Default)]
struct LeafSpans {
    line: Option<(Point, na::Vector3<f64>)>,
    slots: [Option<(usize, LineSpan)>; LEAF_SPAN_SLOTS],
}

/// Slots of [`LeafSpans`]: more than the distinct leaves of A a search meets along one line.
const LEAF_SPAN_SLOTS: usize = 16;

impl LeafSpans {
    /// The span of the leaf starting at `first` along `line` through `from`, made by `span`
    /// if not kept.
    fn get(
        &mut self,
        first: usize,
        from: &Point,
        line: &na::Vector3<f64>,
        span: impl FnOnce() -> LineSpan,
    ) -> LineSpan {
        if self.line != Some((*from, *line)) {
            self.line = Some((*from, *line));
            self.slots = Default::default();
        }
        let slot = &mut self.slots[first % LEAF_SPAN_SLOTS];
        match slot {
            Some((kept, span)) if *kept == first => *span,
            _ => slot.insert((first, span())).1,
        }
    }
}

/// How far B's placed `b_corners` lie beyond a leaf of A's triangles along a line, exactly and
/// as a slab for a front.
#[derive(Clone, Copy)]
struct LeavesAcross {
    /// The gap along the line, as [`LineSpan::gap_to`] measures it.
    gap: f64,
    /// The gap across a normal kept in `f32`.
    slab: Slab,
}

/// [`LeavesAcross`] for the leaf of A spanning `span_a` along `line` through `from`. `None`
/// where it has no direction.
fn leaves_across(
    span_a: &LineSpan,
    b_corners: &[Point],
    from: &Point,
    line: &na::Vector3<f64>,
) -> Option<LeavesAcross> {
    let LineGap { gap, reach, direction } =
        span_a.gap_to(&LineSpan::of(b_corners.iter().copied(), from, line), line)?;
    // Shortened and rounded to f32, the normal is no longer than one and strays from the
    // shortened line by less than 1.1e-7, which moves the difference of two points (each within
    // `reach` of `from`) along it by at most that much of twice `reach`; the shortening costs
    // 1e-6 of the gap, rounding the gap to f32 less than another.
    let normal = (direction * (1.0 - 1e-6)).cast::<Real>();
    let slab_gap = gap - 2e-6 * gap.abs() - 3e-7 * reach;
    Some(LeavesAcross { gap, slab: Slab { normal, gap: slab_gap as Real } })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A leaf's span is kept for as long as the line stays, and only for that leaf: another
    /// line, or another leaf taking its slot, spans it again.
    #[test]
    fn a_leaf_span_is_kept_only_for_its_leaf_and_line() {
        let points = [Point::new(0.0, 0.0, 1.0), Point::new(1.0, 2.0, -1.0)];
        let from = Point::new(0.5, 0.5, 0.5);
        let (x, z) = (na::Vector3::x(), na::Vector3::z());
        let span = |line: &na::Vector3<f64>| LineSpan::of(points, &from, line);
        let mut spans = LeafSpans::default();
        assert_eq!(spans.get(3, &from, &x, || span(&x)), span(&x));
        let kept = spans.get(3, &from, &x, || unreachable!("kept for the same leaf and line"));
        assert_eq!(kept, span(&x));
        assert_eq!(spans.get(3, &from, &z, || span(&z)), span(&z));
        assert_ne!(span(&x), span(&z));
        // Leaf 19 takes leaf 3's slot.
        assert_eq!(19 % LEAF_SPAN_SLOTS, 3);
        assert_eq!(spans.get(19, &from, &z, || span(&x)), span(&x));
        assert_eq!(spans.get(3, &from, &z, || span(&z)), span(&z));
        let moved = Point::new(0.0, 0.5, 0.5);
        let from_moved = LineSpan::of(points, &moved, &z);
        assert_ne!(from_moved, span(&z));
        assert_eq!(spans.get(3, &moved, &z, || from_moved), from_moved);
    }
}
