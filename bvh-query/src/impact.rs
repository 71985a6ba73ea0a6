//! The time of impact: when two meshes, each moving along a rigid motion, first come within a
//! tolerance of each other. Conservative advancement: at each time the distance query bounds the
//! gap from below, and no points of the two can close it before `t` has advanced by the gap over
//! the sum of the motions' speed bounds, so each advance skips only time without contact.

use crate::answers::TrianglePair;
use crate::cache::PairCache;
use crate::distance::{Best, DistanceOptions};
use crate::node_test::NodeTest;
use crate::query::{Posed, Query, QueryOptions, reach};
use crate::stats::Stats;
use crate::sweeps::SweepError;
use bvh_build::{Bvh, NodeVolume};
use bvh_core::{Interpolation, Isometry, Point, Real, RigidMotion, Vector};

/// Most advances [`Query::time_of_impact`] takes before giving up (a motion that grazes A for
/// its whole length at just above the tolerance needs about its length over the tolerance).
pub const MAX_ADVANCES: u64 = 1_000_000;

/// Where and when B first comes within the tolerance of A along a motion.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Impact {
    /// The motion's parameter: no contact happens before it, and at it the meshes are at most
    /// the tolerance apart.
    pub time: f64,
    /// The nearest triangle pair at `time`.
    pub pair: TrianglePair,
    /// Their distance at `time` (zero when the meshes already touch there).
    pub distance: Real,
    /// Midway between the pair's closest points, in world coordinates.
    pub point: Point,
    /// The unit direction from A's closest point to B's, in world coordinates: moving B along it
    /// moves it away from A there. When the triangles touch, A's triangle's normal (by its
    /// winding); zero only if both triangles are degenerate and touch.
    pub normal: Vector,
}

/// One object of a time of impact: its hierarchy and how it moves.
#[derive(Clone, Copy, Debug)]
pub struct Moving<'a, V> {
    /// The hierarchy.
    pub bvh: &'a Bvh<V>,
    /// Its motion over `t ∈ [0, 1]`.
    pub motion: &'a RigidMotion,
}

impl<'a, V> Moving<'a, V> {
    /// The hierarchy moving along `motion`.
    pub fn new(bvh: &'a Bvh<V>, motion: &'a RigidMotion) -> Self {
        Self { bvh, motion }
    }
}

/// When `a` and `b`, both moving over `t ∈ [0, 1]`, first come within `tolerance` of each
/// other: `None` if they never do (or a mesh has no triangles). [`Query::time_of_impact`] is
/// the case of A standing still; this is what a scene of moving objects needs.
///
/// The guarantee: the meshes do not touch at any `t` before the answer's `time` (it is never
/// late), and at `time` they are at most `tolerance` apart. Meshes already within the tolerance
/// at the start answer `t = 0`. `None` means they never touch. When either turns, a pass closer
/// than the tolerance without touching may count as an impact (the answer is conservative);
/// when neither turns, B's motion relative to A is a translation, decided exactly by
/// [`Query::swept_intersects`] first, so its impacts always lead to contact. Distances are those
/// of B's triangles placed in A's frame in `f32`, as in [`Query::distance`]; the advances leave
/// room for that rounding, so `tolerance` must be more than twice it (about 2e-6 of the
/// coordinates' magnitude: the meshes' extents plus their distance from the origin), else
/// [`SweepError::ToleranceBelowRounding`].
pub fn time_of_impact<VA, VB>(
    a: Moving<'_, VA>,
    b: Moving<'_, VB>,
    tolerance: Real,
    options: QueryOptions,
    stats: &mut impl Stats,
) -> Result<Option<Impact>, SweepError>
where
    VA: NodeVolume + NodeTest<VB>,
    VB: NodeVolume,
{
    if !(tolerance.is_finite() && tolerance > 0.0) {
        return Err(SweepError::Tolerance);
    }
    let (start_a, start_b) = (a.motion.start(), b.motion.start());
    let start = Query::try_new(Posed::new(a.bvh, start_a), Posed::new(b.bvh, start_b), options)?;
    // Neither turns: B's motion in A's frame is a translation, swept exactly. Whether B touches
    // A at all is known before advancing.
    let (end_a, end_b) = (a.motion.end(), b.motion.end());
    if end_a.rotation == start_a.rotation && end_b.rotation == start_b.rotation {
        // B's end pose seen from A's start pose, its rotation B's own (unchanged).
        let relative_end = *start_a * end_a.inv_mul(end_b);
        let end = Isometry::from_parts(relative_end.translation, start_b.rotation);
        if start.swept_intersects_counted(&end, stats)?.is_none() {
            return Ok(None);
        }
    }
    let (reach_a, reach_b) = (reach(a.bvh), reach(b.bvh));
    // No point of A or B moves faster: the gap closes no faster than their sum.
    let speed = a.motion.speed_bound(reach_a) + b.motion.speed_bound(reach_b);
    // Settling for a pair a quarter of the tolerance plus a quarter of the distance farther than
    // the nearest is much cheaper, and still bounds the distance from below.
    let (abs_err, rel_err) = (0.25 * tolerance, 0.25);
    let distance = DistanceOptions::exact().tolerant(abs_err, rel_err);
    // Along the motion the poses are close: the cache starts each search where the last stopped.
    let mut cache = PairCache::new();
    let mut t = 0.0;
    for _ in 0..MAX_ADVANCES {
        stats.advance();
        let (pose_a, pose_b) = (a.motion.pose_at(t), b.motion.pose_at(t));
        let query = Query::try_new(Posed::new(a.bvh, pose_a), Posed::new(b.bvh, pose_b), options)?;
        let Some(nearest) = query.nearest(distance, Some(&mut cache), stats) else { return Ok(None) };
        let gap = nearest.closest.distance;
        if gap <= tolerance {
            return Ok(Some(query.impact(t, &nearest)));
        }
        // Rounding the poses to f32, composing them, placing B's corners and measuring move the
        // distance by a few units in the last place of these magnitudes each.
        let magnitude = query.placement_magnitude()
            + pose_a.translation.vector.norm()
            + pose_b.translation.vector.norm()
            + reach_a
            + reach_b;
        let rounding = 8.0 * Real::EPSILON * magnitude;
        if 2.0 * rounding >= tolerance {
            return Err(SweepError::ToleranceBelowRounding { tolerance, rounding });
        }
        if speed == 0.0 {
            return Ok(None);
        }
        // Above the tolerance this is at least 0.6 of it less the rounding, so more than a
        // tenth of it: each advance makes progress.
        let lower = (gap - abs_err) / (1.0 + rel_err) - rounding;
        t += lower as f64 / speed;
        if t > 1.0 {
            return Ok(None);
        }
    }
    Err(SweepError::TooManySteps(MAX_ADVANCES))
}

impl<'a, VA, VB> Query<'a, VA, VB>
where
    VA: NodeVolume + NodeTest<VB>,
    VB: NodeVolume,
{
    /// When B, moving to `end`, first comes within `tolerance` of A (see
    /// [`Query::time_of_impact_counted`]).
    pub fn time_of_impact(
        &self,
        end: &Isometry,
        interpolation: Interpolation,
        tolerance: Real,
    ) -> Result<Option<Impact>, SweepError> {
        self.time_of_impact_counted(end, interpolation, tolerance, &mut ())
    }

    /// When B, moving from its pose in this query to `end` along
    /// [`RigidMotion::new`]`(pose, end, interpolation)` with A where it is, first comes within
    /// `tolerance` of A: [`time_of_impact`] with A standing still (its guarantee and errors).
    pub fn time_of_impact_counted(
        &self,
        end: &Isometry,
        interpolation: Interpolation,
        tolerance: Real,
        stats: &mut impl Stats,
    ) -> Result<Option<Impact>, SweepError> {
        self.refuse_unplaced()?;
        let still = RigidMotion::new(&self.a.pose, &self.a.pose, Interpolation::Slerp)?;
        let moving = RigidMotion::new(&self.b.pose, end, interpolation)?;
        time_of_impact(
            Moving::new(self.a.bvh, &still),
            Moving::new(self.b.bvh, &moving),
            tolerance,
            self.options,
            stats,
        )
    }

    /// The answer for the nearest pair `best` at motion time `t`, where this query places B.
    fn impact(&self, t: f64, best: &Best) -> Impact {
        let near = self.near_pair(best);
        let apart = near.on_b - near.on_a;
        let normal = if near.distance > 0.0 && apart.norm() > 0.0 {
            apart.normalize()
        } else {
            // Touching: A's face normal, else B's turned towards A, both in world coordinates.
            let [i, j] = best.positions;
            let face_a = self.a.bvh.triangle(i).scaled_normal();
            let face_b = -self.b_in_a.rotation * self.b.bvh.triangle(j).scaled_normal();
            let face = [face_a, face_b].into_iter().find(|n| n.norm() > 0.0);
            face.map_or(Vector::zeros(), |n| self.a.pose.rotation * n.normalize())
        };
        Impact {
            time: t,
            pair: near.pair,
            distance: near.distance,
            point: Point::from((near.on_a.coords + near.on_b.coords) / 2.0),
            normal,
        }
    }
}
