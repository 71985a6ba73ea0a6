//! Sphere–OBB, exact: the sphere centre is clamped into the box in the box's own coordinates
//! and the squared distance compared with `r²`. (Paper 004 §2.2.3 tests only the box's three
//! axes, which calls some disjoint pairs overlapping near the box's edges and corners.)

use super::{Overlap, mirror};
use crate::math::{RelativePose, Vector};
use crate::obb::Obb;
use crate::sphere::Sphere;

impl Overlap<Obb> for Sphere {
    #[inline]
    fn overlaps(&self, other: &Obb, b_in_a: &RelativePose) -> bool {
        let center = b_in_a.transform_point(&other.center);
        let axes = b_in_a.rotation * other.axes;
        let local = axes.tr_mul(&(self.center - center));
        sphere_box_local(&local, &other.half_extents, self.radius)
    }
}
mirror!(Sphere, Obb);

/// Ball of `radius` at `center` (in the box's centred, axis-aligned coordinates) against the
/// box `[-half, half]`.
#[inline]
pub(super) fn sphere_box_local(center: &Vector, half: &Vector, radius: f32) -> bool {
    let excess = (center.abs() - half).sup(&Vector::zeros());
    excess.norm_squared() <= radius * radius
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Matrix, Point};

    #[test]
    fn exact_near_corners() {
        let unit = Obb::new(Point::origin(), Matrix::identity(), Vector::repeat(1.0));
        let at = |x: f32, y: f32, z: f32, r: f32| Sphere::new(Point::new(x, y, z), r);
        let id = RelativePose::identity();
        // Overlaps every axis projection, but the corner is 0.732 away: the three-axis shortcut
        // would say "overlap".
        assert!(!at(2.0, 2.0, 2.0, 1.5).overlaps(&unit, &id));
        assert!(at(2.0, 2.0, 2.0, 1.74).overlaps(&unit, &id));
        assert!(at(0.0, 0.0, 1.9, 1.0).overlaps(&unit, &id));
        assert!(unit.overlaps(&at(0.0, 0.0, 0.0, 0.1), &id));
    }
}
