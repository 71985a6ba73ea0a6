//! AABB–AABB across frames: B's box is an oriented box in A's frame, so the test is the exact
//! separating axis test. (Boxes in one frame use `Aabb::intersects`.)

use super::Overlap;
use crate::aabb::Aabb;
use crate::math::RelativePose;
use crate::obb::Obb;

impl Overlap<Aabb> for Aabb {
    #[inline]
    fn overlaps(&self, other: &Aabb, b_in_a: &RelativePose) -> bool {
        self.overlaps(&Obb::from_aabb(other), b_in_a)
    }
}
