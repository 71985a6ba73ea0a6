//! Overlap tests between bounding volumes held in two different frames.
//!
//! Frame convention (the whole workspace's): the first volume is in A's frame, the second in
//! B's, and one [`RelativePose`] gives B's pose in A. A traversal computes that pose once per
//! query and never transforms whole trees (paper 000's layered update). Volumes that share a
//! frame use the inherent `intersects` methods (`Aabb::intersects`, …) instead.
//!
//! Each pair lives in its own file in a canonical order; the mirrored pair delegates.

mod aabb_aabb;
mod aabb_obb;
mod cube_aabb_aabb;
mod cube_aabb_cube_aabb;
mod cube_aabb_obb;
mod obb_lanes;
mod obb_obb;
mod obb_prejudge;
mod sphere_aabb;
mod sphere_cube_aabb;
mod sphere_obb;
mod sphere_sphere;

pub use obb_lanes::ObbLanes;
pub use obb_obb::{OBB_AXIS_PADDING, PlacedObb, SHORTEST_MEASURED_AXIS};
pub(crate) use obb_obb::{columns, lanes, times};
pub use obb_prejudge::{PreJudge, obb_prejudge};

use crate::math::RelativePose;

/// Overlap of a volume in A's frame with a volume of type `B` in B's frame.
///
/// Every implementation is exact for closed volumes, except that the OBB separating-axis test
/// pads its rotation terms by [`OBB_AXIS_PADDING`] and so may call boxes a hair apart
/// overlapping; none ever calls overlapping volumes disjoint.
pub trait Overlap<B> {
    /// `true` when the two closed volumes share a point; `b_in_a` is B's pose in A's frame.
    fn overlaps(&self, other: &B, b_in_a: &RelativePose) -> bool;
}

/// Implements the mirrored pair `Overlap<$a> for $b` by swapping the roles of A and B.
macro_rules! mirror {
    ($a:ty, $b:ty) => {
        impl $crate::overlap::Overlap<$a> for $b {
            #[inline]
            fn overlaps(&self, other: &$a, b_in_a: &$crate::math::RelativePose) -> bool {
                other.overlaps(self, &b_in_a.inverse())
            }
        }
    };
}
use mirror;

/// A box of about `scale` with its centre within `scale` of the origin, turned at random: the
/// overlap tests' random cases.
#[cfg(test)]
pub(crate) fn random_obb(rng: &mut rand_chacha::ChaCha8Rng, scale: crate::math::Real) -> crate::obb::Obb {
    use crate::math::{Matrix, Point, Rotation, Vector};
    use rand::Rng;
    let mut v = || Vector::new(rng.r#gen(), rng.r#gen(), rng.r#gen());
    let center = Point::from((v() - Vector::repeat(0.5)) * 2.0 * scale);
    let axes: Matrix = Rotation::new(v() * 6.0).to_rotation_matrix().into_inner();
    crate::obb::Obb::new(center, axes, (v() + Vector::repeat(0.01)) * scale)
}
