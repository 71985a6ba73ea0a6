//! OBB–OBB: the 15-axis separating axis test (Gottschalk 1996).

use super::Overlap;
use crate::math::{Matrix, Real, RelativePose, Vector};
use crate::obb::Obb;

/// Added to every `|R_ij|` so that near-parallel edges, whose cross products are nearly zero and
/// carry mostly rounding, can never produce a false "separated".
pub const OBB_AXIS_PADDING: Real = 1e-6;

/// The separating axis test in A's box frame: `a_half`, `b_half` are the half extents, `rotation`
/// holds B's axes as columns expressed on A's axes, `offset` is B's centre minus A's centre on
/// A's axes. Returns `true` when no axis separates the boxes. Exits on the first separating axis.
pub fn obb_obb_sat(a_half: &Vector, b_half: &Vector, rotation: &Matrix, offset: &Vector) -> bool {
    let r = rotation;
    let abs_r = r.abs().add_scalar(OBB_AXIS_PADDING);
    let t = offset;

    // A's face normals.
    for i in 0..3 {
        if t[i].abs() > a_half[i] + b_half.dot(&abs_r.row(i).transpose()) {
            return false;
        }
    }
    // B's face normals.
    for j in 0..3 {
        if t.dot(&r.column(j)).abs() > a_half.dot(&abs_r.column(j)) + b_half[j] {
            return false;
        }
    }
    // Edge–edge axes A_i × B_j.
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        for j in 0..3 {
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            let distance = (t[i2] * r[(i1, j)] - t[i1] * r[(i2, j)]).abs();
            let ra = a_half[i1] * abs_r[(i2, j)] + a_half[i2] * abs_r[(i1, j)];
            let rb = b_half[j1] * abs_r[(i, j2)] + b_half[j2] * abs_r[(i, j1)];
            if distance > ra + rb {
                return false;
            }
        }
    }
    true
}

impl Overlap<Obb> for Obb {
    #[inline]
    fn overlaps(&self, other: &Obb, b_in_a: &RelativePose) -> bool {
        self.intersects(&other.placed(b_in_a))
    }
}

impl Obb {
    /// `true` when the two boxes, in the same frame, share a point (up to
    /// [`OBB_AXIS_PADDING`]). A traversal places one box in the other tree's frame once and
    /// tests it there against both children of a node.
    #[inline]
    pub fn intersects(&self, other: &Obb) -> bool {
        let rotation = self.axes.tr_mul(&other.axes);
        let offset = self.axes.tr_mul(&(other.center - self.center));
        obb_obb_sat(&self.half_extents, &other.half_extents, &rotation, &offset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Isometry, Point};

    fn cube(center: Point, half: Real) -> Obb {
        Obb::new(center, Matrix::identity(), Vector::repeat(half))
    }

    #[test]
    fn face_and_edge_separation() {
        let a = cube(Point::origin(), 1.0);
        let b = cube(Point::origin(), 1.0);
        let near = RelativePose::from(&Isometry::translation(1.9, 0.0, 0.0));
        let far = RelativePose::from(&Isometry::translation(2.1, 0.0, 0.0));
        assert!(a.overlaps(&b, &near));
        assert!(!a.overlaps(&b, &far));
        // Two cubes turned 45° about different axes, edge to edge: only an edge axis separates.
        let turn = |axis: Vector, angle: Real| {
            crate::math::Rotation::from_axis_angle(&nalgebra::Unit::new_normalize(axis), angle)
        };
        let ra = turn(Vector::z(), std::f32::consts::FRAC_PI_4);
        let rb = turn(Vector::x(), std::f32::consts::FRAC_PI_4);
        let pose_a = Isometry::from_parts(Vector::zeros().into(), ra);
        let gap = 2.0 * std::f32::consts::SQRT_2;
        for (dy, expect) in [(gap - 0.01, true), (gap + 0.01, false)] {
            let pose_b = Isometry::from_parts(Vector::new(0.0, dy, 0.0).into(), rb);
            assert_eq!(a.overlaps(&b, &RelativePose::between(&pose_a, &pose_b)), expect, "dy = {dy}");
        }
    }
}
