//! Triangle–box overlap by the 13-axis separating axis test (Akenine-Möller 2001), used by
//! overlap-region culling (paper 002). Evaluated in `f64` and conservative: an axis separates
//! only by more than a relative 10⁻¹² margin, so a touching or overlapping pair is never
//! reported apart; a pair a hair apart may be reported overlapping.

use super::Triangle;
use crate::aabb::Aabb;
use crate::math::Point;
use crate::obb::Obb;
use nalgebra::Vector3;

type V64 = Vector3<f64>;

/// Does the closed triangle meet the closed box (both in one frame)? An empty box meets nothing.
pub fn triangle_aabb_overlap(tri: &Triangle, aabb: &Aabb) -> bool {
    if aabb.is_empty() {
        return false;
    }
    let center = aabb.center();
    let half = aabb.half_extents().cast::<f64>();
    let local = tri.vertices().map(|p| (p - center).cast::<f64>());
    triangle_box_local(&local, &half)
}

/// Does the closed triangle meet the oriented box (both in one frame)?
pub fn triangle_obb_overlap(tri: &Triangle, obb: &Obb) -> bool {
    let axes = obb.axes.cast::<f64>();
    let center = obb.center.coords.cast::<f64>();
    let local = tri.vertices().map(|p: Point| axes.tr_mul(&(p.coords.cast::<f64>() - center)));
    triangle_box_local(&local, &obb.half_extents.cast::<f64>())
}

/// The test for a triangle given relative to the box centre, on the box's axes.
fn triangle_box_local(v: &[V64; 3], half: &V64) -> bool {
    let separated = |p: [f64; 3], r: f64| {
        let (lo, hi) = (p[0].min(p[1]).min(p[2]), p[0].max(p[1]).max(p[2]));
        let margin = 1e-12 * (r + lo.abs().max(hi.abs()));
        lo > r + margin || hi < -r - margin
    };
    // The box's face normals.
    for i in 0..3 {
        if separated([v[0][i], v[1][i], v[2][i]], half[i]) {
            return false;
        }
    }
    let edges = [v[1] - v[0], v[2] - v[1], v[0] - v[2]];
    // The triangle's normal (zero for a degenerate triangle, which then never separates here).
    let normal = edges[0].cross(&edges[1]);
    let project = |axis: &V64| [axis.dot(&v[0]), axis.dot(&v[1]), axis.dot(&v[2])];
    if separated(project(&normal), half.dot(&normal.abs())) {
        return false;
    }
    // Edge × box-axis directions.
    for edge in &edges {
        for i in 0..3 {
            let axis = V64::ith(i, 1.0).cross(edge);
            if separated(project(&axis), half.dot(&axis.abs())) {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Matrix, Real, Vector};

    fn p(x: Real, y: Real, z: Real) -> Point {
        Point::new(x, y, z)
    }

    #[test]
    fn separations_on_each_axis_family() {
        let unit = Aabb::new(p(-1.0, -1.0, -1.0), p(1.0, 1.0, 1.0));
        let tri = |a, b, c| Triangle::new(a, b, c);
        // Face axis.
        assert!(!triangle_aabb_overlap(&tri(p(2.0, 0.0, 0.0), p(3.0, 1.0, 0.0), p(3.0, 0.0, 1.0)), &unit));
        // Triangle normal: a plane x+y+z = 3.5 misses the corner (1,1,1) at 3.
        assert!(!triangle_aabb_overlap(&tri(p(3.5, 0.0, 0.0), p(0.0, 3.5, 0.0), p(0.0, 0.0, 3.5)), &unit));
        assert!(triangle_aabb_overlap(&tri(p(2.9, 0.0, 0.0), p(0.0, 2.9, 0.0), p(0.0, 0.0, 2.9)), &unit));
        // Edge axis: a sliver passing diagonally outside an edge of the box.
        assert!(!triangle_aabb_overlap(&tri(p(2.2, 0.0, -5.0), p(0.0, 2.2, -5.0), p(1.1, 1.1, 5.0)), &unit));
        // Touching a face exactly counts.
        assert!(triangle_aabb_overlap(&tri(p(1.0, 0.0, 0.0), p(3.0, 1.0, 0.0), p(3.0, 0.0, 1.0)), &unit));
        // A degenerate triangle (a point) inside.
        assert!(triangle_aabb_overlap(&tri(p(0.5, 0.5, 0.5), p(0.5, 0.5, 0.5), p(0.5, 0.5, 0.5)), &unit));
        assert!(!triangle_aabb_overlap(
            &tri(p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0), p(0.0, 1.0, 0.0)),
            &Aabb::EMPTY
        ));
        let obb = Obb::new(p(10.0, 0.0, 0.0), Matrix::identity(), Vector::repeat(1.0));
        assert!(!triangle_obb_overlap(&tri(p(2.9, 0.0, 0.0), p(0.0, 2.9, 0.0), p(0.0, 0.0, 2.9)), &obb));
        assert!(triangle_obb_overlap(&tri(p(9.5, 0.0, 0.0), p(12.0, 0.0, 0.0), p(9.5, 3.0, 0.0)), &obb));
    }
}
