//! AABB–OBB: the AABB is an OBB on its frame's axes.

use super::{Overlap, mirror};
use crate::aabb::Aabb;
use crate::math::RelativePose;
use crate::obb::Obb;

impl Overlap<Obb> for Aabb {
    #[inline]
    fn overlaps(&self, other: &Obb, b_in_a: &RelativePose) -> bool {
        Obb::from_aabb(self).overlaps(other, b_in_a)
    }
}
mirror!(Aabb, Obb);
