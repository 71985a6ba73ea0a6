//! Scalar, point, vector and pose types, and the relative pose every pair test takes.
//!
//! The scalar is `f32`, as in parry3d: meshes of 10^5–10^6 triangles stay half the size, SIMD
//! lanes hold twice as many values, and the exact predicates (`crate::predicates`) lift every
//! `f32` into `f64` without loss, so exactness never depends on the storage precision.

use nalgebra as na;
use std::ops::{Add, Mul, Sub};

/// The scalar every stored coordinate uses.
pub type Real = f32;
/// A point in 3-D.
pub type Point = na::Point3<Real>;
/// A vector in 3-D.
pub type Vector = na::Vector3<Real>;
/// A 3×3 matrix (box axes are its columns).
pub type Matrix = na::Matrix3<Real>;
/// A rigid pose: rotation then translation, `x_world = pose * x_local`.
pub type Isometry = na::Isometry3<Real>;
/// A unit quaternion rotation.
pub type Rotation = na::UnitQuaternion<Real>;
/// A translation.
pub type Translation = na::Translation3<Real>;

/// How far a quantity computed in `f32` from coordinates of at most `magnitude` – a point moved
/// by a pose, a volume placed in another frame, a separating-axis verdict on it – can be off
/// through rounding: each of the dozen or so steps errs by at most half an ulp of such
/// magnitudes, and 32 ulps bound them all. Far from the origin this outgrows the padding a
/// volume carries for its own size, so tests that must stay conservative there grow by it.
pub fn rounding_slack(magnitude: Real) -> Real {
    32.0 * Real::EPSILON * magnitude
}

/// The smallest `f32` above `x` (for finite non-negative `x`; others are returned as they are):
/// guards containment and limits against the rounding of a computed size or distance.
#[inline]
pub fn next_up(x: Real) -> Real {
    if x.is_finite() { Real::from_bits(x.to_bits() + 1) } else { x }
}

/// The smaller of two numbers by one comparison. `f32::min`, `f64::min` and nalgebra's `inf`
/// also order NaNs, at three or four instructions each; the volumes and triangles of a query
/// hold only finite numbers (meshes and poses with NaNs are refused).
#[inline]
pub fn min<T: PartialOrd>(a: T, b: T) -> T {
    if a < b { a } else { b }
}

/// The larger of two numbers by one comparison (see [`min`]).
#[inline]
pub fn max<T: PartialOrd>(a: T, b: T) -> T {
    if a > b { a } else { b }
}

/// `a - b` for three coordinates held as an array, of any number type or vector of lanes: the
/// exact tests' `f64` and the lane tests' `f32x4` share these three.
#[inline(always)]
pub(crate) fn sub<T: Copy + Sub<Output = T>>(a: &[T; 3], b: &[T; 3]) -> [T; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// `a · b` for coordinate arrays (see [`sub`]).
#[inline(always)]
pub(crate) fn dot<T: Copy + Add<Output = T> + Mul<Output = T>>(a: &[T; 3], b: &[T; 3]) -> T {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// `a × b` for coordinate arrays (see [`sub`]), as nalgebra's cross product takes it.
#[inline(always)]
pub(crate) fn cross<T: Copy + Mul<Output = T> + Sub<Output = T>>(a: &[T; 3], b: &[T; 3]) -> [T; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

/// Why a pair of poses was refused, naming the pose at fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PoseError {
    /// This pose has a NaN or infinite component.
    #[error("the pose of {0} has a NaN or infinite component")]
    NotFinite(PoseOf),
    /// Both poses are finite, but too far apart for B's pose relative to A to be finite in
    /// `f32`: no answer about such a pair would mean anything.
    #[error("the poses of A and B lie too far apart to compose in f32")]
    TooFarApart,
}

/// Which pose of a call: of a query's objects, or a motion's ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PoseOf {
    /// The first object of a query (the one whose frame it works in).
    A,
    /// The second object of a query.
    B,
    /// The pose a motion starts from.
    Start,
    /// The pose a motion (or a sweep of B) ends at.
    End,
}

impl std::fmt::Display for PoseOf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::A => "object A",
            Self::B => "object B",
            Self::Start => "the motion's start",
            Self::End => "the motion's end",
        })
    }
}

/// Whether every component of `pose` (translation and rotation) is finite.
pub fn pose_is_finite(pose: &Isometry) -> bool {
    pose.translation.vector.iter().chain(pose.rotation.coords.iter()).all(|c| c.is_finite())
}

/// `Ok` when every component of `pose` is finite, else the error naming it as `which`.
pub fn check_finite(pose: &Isometry, which: PoseOf) -> Result<(), PoseError> {
    if pose_is_finite(pose) { Ok(()) } else { Err(PoseError::NotFinite(which)) }
}

/// The pose of an object B expressed in the frame of an object A (`x_A = rotation * x_B +
/// translation`), stored as a matrix so a traversal that tests many volume pairs pays for the
/// quaternion-to-matrix conversion once.
///
/// Every pair test in this crate takes its first argument in A's own frame, its second in B's
/// own frame, and one `RelativePose` for B in A: the frame convention of the whole workspace.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RelativePose {
    /// Rotation of B's axes in A's frame (orthonormal, determinant +1).
    pub rotation: Matrix,
    /// Position of B's origin in A's frame.
    pub translation: Vector,
}

impl RelativePose {
    /// The identity: both objects in one frame.
    pub fn identity() -> Self {
        Self { rotation: Matrix::identity(), translation: Vector::zeros() }
    }

    /// B's pose relative to A from both world poses: `pose_a⁻¹ · pose_b`.
    pub fn between(pose_a: &Isometry, pose_b: &Isometry) -> Self {
        // A scene at the origin, as most are, has no pose to undo: the composition would
        // multiply by ones and add zeros, the same numbers.
        if is_identity(pose_a) {
            return Self::from(pose_b);
        }
        Self::from(&pose_a.inv_mul(pose_b))
    }

    /// [`RelativePose::between`], refused unless both poses and the result are finite (poses too
    /// far apart to compose in `f32` overflow): no answer about such a pair would mean anything.
    pub fn checked_between(pose_a: &Isometry, pose_b: &Isometry) -> Result<Self, PoseError> {
        let relative = Self::between(pose_a, pose_b);
        // Every component of either pose enters the result through products and sums, so a NaN
        // or an infinity among them leaves some component of the result non-finite: the poses
        // are looked at one by one only then, to name the one at fault. `0.0 * x` is zero for a
        // finite `x` and NaN otherwise, so a sum checks all twelve without a branch each: the
        // columns and the translation added lane-wise, not one long chain of additions.
        let zeros = (relative.rotation * 0.0).column_sum() + relative.translation * 0.0;
        let finite = zeros.sum() == 0.0;
        if finite {
            return Ok(relative);
        }
        check_finite(pose_a, PoseOf::A)?;
        check_finite(pose_b, PoseOf::B)?;
        Err(PoseError::TooFarApart)
    }

    /// Maps a point of B's frame into A's frame.
    #[inline]
    pub fn transform_point(&self, p: &Point) -> Point {
        Point::from(self.rotation * p.coords + self.translation)
    }

    /// Maps a direction of B's frame into A's frame.
    #[inline]
    pub fn transform_vector(&self, v: &Vector) -> Vector {
        self.rotation * v
    }

    /// A's pose relative to B.
    pub fn inverse(&self) -> Self {
        let rotation = self.rotation.transpose();
        Self { rotation, translation: -(rotation * self.translation) }
    }
}

/// Whether `pose` is the identity, component by component: nalgebra's comparison also tries the
/// quaternion's negative, through iterators, at every query.
#[inline]
fn is_identity(pose: &Isometry) -> bool {
    let ([x, y, z, w], t) = (pose.rotation.coords.into(), &pose.translation.vector);
    (w == 1.0) & (x == 0.0) & (y == 0.0) & (z == 0.0) & (t.x == 0.0) & (t.y == 0.0) & (t.z == 0.0)
}

impl From<&Isometry> for RelativePose {
    fn from(iso: &Isometry) -> Self {
        Self { rotation: iso.rotation.to_rotation_matrix().into_inner(), translation: iso.translation.vector }
    }
}

/// The mean of the points (the origin for none), summed in `f64` so that 10^6 vertices do not
/// lose the centre to rounding.
pub fn mean(points: impl IntoIterator<Item = impl std::borrow::Borrow<Point>>) -> Point {
    let (sum, count) = points.into_iter().fold((na::Vector3::<f64>::zeros(), 0usize), |(sum, n), p| {
        (sum + p.borrow().coords.cast::<f64>(), n + 1)
    });
    if count == 0 {
        return Point::origin();
    }
    Point::from((sum / count as f64).cast::<Real>())
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    #[test]
    fn between_matches_isometry_composition() {
        let a = Isometry::new(Vector::new(1.0, 2.0, 3.0), Vector::new(0.3, -0.2, 0.9));
        let b = Isometry::new(Vector::new(-4.0, 0.5, 2.0), Vector::new(-1.1, 0.4, 0.2));
        let rel = RelativePose::between(&a, &b);
        let p = Point::new(0.7, -1.3, 2.2);
        let expected = a.inverse_transform_point(&(b * p));
        assert_relative_eq!(rel.transform_point(&p), expected, epsilon = 1e-5);
        let back = rel.inverse().transform_point(&rel.transform_point(&p));
        assert_relative_eq!(back, p, epsilon = 1e-5);
    }

    /// With A at the origin B's relative pose is its own, number for number what composing it
    /// with the identity gives.
    #[test]
    fn a_scene_at_the_origin_leaves_the_part_its_own_pose() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let mut vector = |scale: Real| Vector::from_fn(|_, _| rng.gen_range(-scale..scale));
        for _ in 0..2000 {
            let b = Isometry::new(vector(1e4), vector(7.0));
            let composed = RelativePose::from(&Isometry::identity().inv_mul(&b));
            assert_eq!(RelativePose::between(&Isometry::identity(), &b), composed);
        }
    }
}
