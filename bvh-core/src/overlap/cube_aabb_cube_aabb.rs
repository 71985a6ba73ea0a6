//! CAABB–CAABB (paper 000): only B's centre moves into A's frame, then `|O1 - O2|_inf <= m1 + m2`.

use super::Overlap;
use crate::cube_aabb::CubeAabb;
use crate::math::RelativePose;

impl Overlap<CubeAabb> for CubeAabb {
    #[inline]
    fn overlaps(&self, other: &CubeAabb, b_in_a: &RelativePose) -> bool {
        let moved = CubeAabb::new(b_in_a.transform_point(&other.center), other.half_side);
        self.intersects(&moved)
    }
}
