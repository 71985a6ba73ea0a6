//! CAABB–AABB. A cube stays axis-aligned in whichever frame it is carried to, an AABB does not.

use super::{Overlap, mirror};
use crate::aabb::Aabb;
use crate::cube_aabb::CubeAabb;
use crate::math::RelativePose;
use crate::obb::Obb;

impl Overlap<Aabb> for CubeAabb {
    #[inline]
    fn overlaps(&self, other: &Aabb, b_in_a: &RelativePose) -> bool {
        self.to_aabb().overlaps(&Obb::from_aabb(other), b_in_a)
    }
}
mirror!(CubeAabb, Aabb);
