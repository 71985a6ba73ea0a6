//! AABB–OBB: the separating axis test on the box's own axes, where the AABB's rotation is the
//! identity and needs no arithmetic (queries test a leaf's triangle box against the other
//! tree's nodes thousands of times per query).

use super::Overlap;
use super::obb_obb::obb_obb_sat;
use crate::aabb::Aabb;
use crate::math::RelativePose;
use crate::obb::Obb;

impl Overlap<Obb> for Aabb {
    #[inline]
    fn overlaps(&self, other: &Obb, b_in_a: &RelativePose) -> bool {
        // The OBB moved into the AABB's frame: its axes and its centre are all the test needs.
        let rotation = b_in_a.rotation * other.axes;
        let offset = b_in_a.transform_point(&other.center) - self.center();
        obb_obb_sat(&self.half_extents(), &other.half_extents, &rotation, &offset)
    }
}

impl Overlap<Aabb> for Obb {
    #[inline]
    fn overlaps(&self, other: &Aabb, b_in_a: &RelativePose) -> bool {
        // The AABB's axes are B's frame's: seen on the OBB's axes they are `axesᵀ R`.
        let rotation = self.axes.tr_mul(&b_in_a.rotation);
        let offset = self.axes.tr_mul(&(b_in_a.transform_point(&other.center()) - self.center));
        obb_obb_sat(&self.half_extents, &other.half_extents(), &rotation, &offset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Isometry, Point, Real, Vector};

    /// Both directions agree with the general OBB–OBB test on the same boxes.
    #[test]
    fn agrees_with_the_obb_test() {
        let aabb = Aabb::new(Point::new(-1.0, -0.5, -0.2), Point::new(1.0, 0.5, 0.2));
        let obb = Obb::new(
            Point::new(0.3, -0.2, 0.1),
            *crate::math::Rotation::from_euler_angles(0.3, -0.7, 1.1).to_rotation_matrix().matrix(),
            Vector::new(0.8, 0.1, 0.3),
        );
        let as_obb = Obb::from_aabb(&aabb);
        let mut seen = [0usize; 2];
        for k in 0..400 {
            let t = k as Real * 0.05;
            let pose = RelativePose::from(&Isometry::new(
                Vector::new(2.5 * t.sin(), 1.5 * (0.7 * t).cos(), 0.8 * (1.3 * t).sin()),
                Vector::new(0.4 * t, -0.2 * t, 0.1 * t),
            ));
            let expected = as_obb.overlaps(&obb, &pose);
            assert_eq!(aabb.overlaps(&obb, &pose), expected, "pose {k}");
            assert_eq!(obb.overlaps(&aabb, &pose.inverse()), expected, "pose {k}, mirrored");
            seen[expected as usize] += 1;
        }
        assert!(seen[0] > 20 && seen[1] > 20, "{seen:?}");
    }
}
