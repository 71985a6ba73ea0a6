//! Sphere–AABB: the AABB is an OBB on its frame's axes.

use super::{Overlap, mirror};
use crate::aabb::Aabb;
use crate::math::RelativePose;
use crate::obb::Obb;
use crate::sphere::Sphere;

impl Overlap<Aabb> for Sphere {
    #[inline]
    fn overlaps(&self, other: &Aabb, b_in_a: &RelativePose) -> bool {
        self.overlaps(&Obb::from_aabb(other), b_in_a)
    }
}
mirror!(Sphere, Aabb);
