//! AABB–OBB: the separating axis test of [`Obb::meets`], with the AABB as a box on its frame's
//! axes (queries test a leaf's triangle box against the other tree's nodes thousands of times
//! per query).

use super::{Overlap, PlacedObb};
use crate::aabb::Aabb;
use crate::math::RelativePose;
use crate::obb::Obb;

impl Overlap<Obb> for Aabb {
    #[inline]
    fn overlaps(&self, other: &Obb, b_in_a: &RelativePose) -> bool {
        Obb::from_aabb(self).meets(&PlacedObb::new(other, b_in_a))
    }
}

impl Overlap<Aabb> for Obb {
    #[inline]
    fn overlaps(&self, other: &Aabb, b_in_a: &RelativePose) -> bool {
        self.meets(&PlacedObb::from_aabb(other, b_in_a))
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
