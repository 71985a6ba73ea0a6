//! CAABB–OBB: the cube is an axis-aligned box in A's frame.

use super::{Overlap, mirror};
use crate::cube_aabb::CubeAabb;
use crate::math::RelativePose;
use crate::obb::Obb;

impl Overlap<Obb> for CubeAabb {
    #[inline]
    fn overlaps(&self, other: &Obb, b_in_a: &RelativePose) -> bool {
        self.to_aabb().overlaps(other, b_in_a)
    }
}
mirror!(CubeAabb, Obb);
