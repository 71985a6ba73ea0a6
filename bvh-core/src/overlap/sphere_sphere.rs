//! Sphere–sphere: `|c1 - c2|² <= (r1 + r2)²`, no square root.

use super::Overlap;
use crate::math::RelativePose;
use crate::sphere::Sphere;

impl Overlap<Sphere> for Sphere {
    #[inline]
    fn overlaps(&self, other: &Sphere, b_in_a: &RelativePose) -> bool {
        self.intersects(&Sphere::new(b_in_a.transform_point(&other.center), other.radius))
    }
}
