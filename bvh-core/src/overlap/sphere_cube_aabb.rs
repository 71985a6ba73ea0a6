//! Sphere–CAABB: B's cube is axis-aligned in A's frame once its centre is moved there.

use super::sphere_obb::sphere_box_local;
use super::{Overlap, mirror};
use crate::cube_aabb::CubeAabb;
use crate::math::{RelativePose, Vector};
use crate::sphere::Sphere;

impl Overlap<CubeAabb> for Sphere {
    #[inline]
    fn overlaps(&self, other: &CubeAabb, b_in_a: &RelativePose) -> bool {
        let offset = self.center - b_in_a.transform_point(&other.center);
        sphere_box_local(&offset, &Vector::repeat(other.half_side), self.radius)
    }
}
mirror!(Sphere, CubeAabb);
