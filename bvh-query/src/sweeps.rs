//! B moving to an end pose: exactly for a translation (nothing tunnels through), for any
//! rigid motion sub-stepped with a stated bound.

use crate::answers::{NearPair, TrianglePair};
use crate::node_test::NodeTest;
use crate::query::{Posed, Query};
use crate::stats::Stats;
use bvh_build::NodeVolume;
use bvh_core::triangle::swept_triangle_intersects;
use bvh_core::{Interpolation, Isometry, PoseError, PoseOf, Real, RelativePose, RigidMotion, check_finite};
use std::ops::ControlFlow;

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

impl<'a, VA, VB> Query<'a, VA, VB>
where
    VA: NodeVolume + NodeTest<VB>,
    VB: NodeVolume,
{
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
        self.refuse_unplaced()?;
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
        self.refuse_unplaced()?;
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
            let query = Query::try_new(self.a, Posed::new(self.b.bvh, pose), self.options)?;
            let near = query.pairs_within_counted(tolerance, stats);
            if let Some(closest) = near.into_iter().min_by(|x, y| x.distance.total_cmp(&y.distance)) {
                return Ok(Some(closest));
            }
        }
        Ok(None)
    }

    /// A motion of B that starts nowhere (see [`Query::new`]) is refused with why.
    pub(crate) fn refuse_unplaced(&self) -> Result<(), SweepError> {
        self.pose_error().map_or(Ok(()), |error| Err(SweepError::Pose(error)))
    }
}
