//! A triangle laid out for separating-axis tests against many boxes of one frame: a leaf of one
//! tree, placed in the other tree's frame once, against that tree's nodes in turn. Far tighter
//! than the leaf's box: a large triangle's box is mostly empty, and a node beside the triangle's
//! plane lies inside it.

use super::Triangle;
use crate::math::{Matrix, Point, RelativePose, Vector};
use crate::overlap::turn;
use wide::f32x4;

/// A triangle's corners in lanes (`a, b, c, a`: the fourth repeats the first, so a comparison
/// holds for every lane exactly when it holds for every corner) and its unit normal (zero for a
/// triangle too thin to have one that is trustworthy – the normal axis then never separates).
#[derive(Clone, Copy, Debug)]
pub struct PlacedTriangle {
    x: f32x4,
    y: f32x4,
    z: f32x4,
    normal: Vector,
}

impl PlacedTriangle {
    /// The triangle placed in the boxes' frame by `pose` (the three corners at once, with the
    /// same operations as [`Triangle::placed`]).
    #[inline]
    pub fn placed(t: &Triangle, pose: &RelativePose) -> Self {
        let corners = |k: usize| f32x4::new([t.a[k], t.b[k], t.c[k], t.a[k]]);
        let (x, y, z) = (corners(0), corners(1), corners(2));
        let (r, shift) = (&pose.rotation, &pose.translation);
        let [x, y, z] = [0, 1, 2].map(|i| {
            x * f32x4::splat(r[(i, 0)])
                + y * f32x4::splat(r[(i, 1)])
                + z * f32x4::splat(r[(i, 2)])
                + f32x4::splat(shift[i])
        });
        let corner = |j: usize| Vector::new(x.to_array()[j], y.to_array()[j], z.to_array()[j]);
        let (a, b, c) = (corner(0), corner(1), corner(2));
        let n = (b - a).cross(&(c - a));
        let length = n.norm();
        // Any axis separates soundly when the corners are projected on it; the unit length only
        // keeps the projections at the coordinates' scale.
        let normal =
            if length.is_normal() && length.is_finite() { n * length.recip() } else { Vector::zeros() };
        Self { x, y, z, normal }
    }

    /// `false` when one of the 13 separating axes of a triangle and a box – the box's face
    /// normals, the triangle's normal, and each triangle edge crossed with each box axis –
    /// separates the triangle from the box (centre, orthonormal `axes` as columns, half
    /// extents); `true` when none does, which in exact arithmetic means they meet. Computed in
    /// `f32`: each projection errs by a few ulps of the coordinates' magnitude times the axis's
    /// length (every projection and reach along an axis is taken from the same computed axis),
    /// so a caller that must never miss a contact grows the box by the rounding slack of that
    /// magnitude, as the traversals grow every volume they test.
    #[inline]
    pub fn may_meet_box(&self, center: &Point, axes: &Matrix, half_extents: &Vector) -> bool {
        let d = [
            self.x - f32x4::splat(center.x),
            self.y - f32x4::splat(center.y),
            self.z - f32x4::splat(center.z),
        ];
        let project =
            |v: &Vector| d[0] * f32x4::splat(v.x) + d[1] * f32x4::splat(v.y) + d[2] * f32x4::splat(v.z);
        let beyond = |low: f32x4, high: f32x4, reach: f32x4| low.simd_gt(reach) | high.simd_lt(-reach);
        // Every corner on one side: every lane past the reach on that side.
        let outside = |along: f32x4, reach: f32x4| {
            along.simd_gt(reach).to_bitmask() == 0b1111 || along.simd_lt(-reach).to_bitmask() == 0b1111
        };
        let h = [0, 1, 2].map(|k| f32x4::splat(half_extents[k]));
        // The corners on the box's axes (lanes over corners): the face normals.
        let mut local = [f32x4::ZERO; 3];
        let mut normal_reach = 0.0;
        for k in 0..3 {
            let axis = axes.column(k).into_owned();
            local[k] = project(&axis);
            if outside(local[k], h[k]) {
                return false;
            }
            normal_reach += half_extents[k] * axis.dot(&self.normal).abs();
        }
        let along_normal = project(&self.normal);
        if outside(along_normal, f32x4::splat(normal_reach)) {
            return false;
        }
        // Edge axes, lanes over the edges (edge `i` runs from corner `i` to the next; the fourth
        // lane's edge is zero and never separates): box axis `k` x edge is `(0, -e_z, e_y)` for
        // `k = 0` and cyclically, its reach `h_y |e_z| + h_z |e_y|`; all three corners projected.
        let next = local.map(|v| turn(v, 1));
        let last = local.map(|v| turn(v, 2));
        let edge = [0, 1, 2].map(|k| next[k] - local[k]);
        let size = edge.map(|e| e.abs());
        let mut separated = f32x4::ZERO.simd_gt(f32x4::ZERO);
        for k in 0..3 {
            let (k1, k2) = ((k + 1) % 3, (k + 2) % 3);
            let on_axis = |v: &[f32x4; 3]| v[k2] * edge[k1] - v[k1] * edge[k2];
            let (p0, p1, p2) = (on_axis(&local), on_axis(&next), on_axis(&last));
            let reach = h[k1] * size[k2] + h[k2] * size[k1];
            separated |= beyond(p0.fast_min(p1).fast_min(p2), p0.fast_max(p1).fast_max(p2), reach);
        }
        separated.to_bitmask() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Real, Rotation, rounding_slack};
    use crate::obb::Obb;
    use crate::triangle::triangle_obb_overlap;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn p(x: Real, y: Real, z: Real) -> Point {
        Point::new(x, y, z)
    }

    fn meets(t: &Triangle, b: &Obb) -> bool {
        PlacedTriangle::placed(t, &RelativePose::identity()).may_meet_box(&b.center, &b.axes, &b.half_extents)
    }

    /// Each family of axes separates on its own, and touching counts as meeting.
    #[test]
    fn every_axis_family_separates() {
        let unit = Obb::new(Point::origin(), Matrix::identity(), Vector::repeat(1.0));
        let tri = Triangle::new;
        // A face axis.
        assert!(!meets(&tri(p(2.0, 0.0, 0.0), p(3.0, 1.0, 0.0), p(3.0, 0.0, 1.0)), &unit));
        // The triangle's normal: the plane x + y + z = 3.5 passes the corner (1, 1, 1) at 3.
        assert!(!meets(&tri(p(3.5, 0.0, 0.0), p(0.0, 3.5, 0.0), p(0.0, 0.0, 3.5)), &unit));
        assert!(meets(&tri(p(2.9, 0.0, 0.0), p(0.0, 2.9, 0.0), p(0.0, 0.0, 2.9)), &unit));
        // An edge axis only: a sliver passing diagonally outside an edge of the box.
        assert!(!meets(&tri(p(2.2, 0.0, -5.0), p(0.0, 2.2, -5.0), p(1.1, 1.1, 5.0)), &unit));
        assert!(meets(&tri(p(1.8, 0.0, -5.0), p(0.0, 1.8, -5.0), p(0.9, 0.9, 5.0)), &unit));
        // A triangle straddling the box along every face axis, through its middle.
        assert!(meets(&tri(p(-5.0, -5.0, 0.0), p(5.0, -5.0, 0.0), p(0.0, 5.0, 0.0)), &unit));
        // Touching a face, and a point (zero-area triangle) inside and outside.
        assert!(meets(&tri(p(1.0, 0.0, 0.0), p(3.0, 1.0, 0.0), p(3.0, 0.0, 1.0)), &unit));
        assert!(meets(&tri(p(0.5, 0.5, 0.5), p(0.5, 0.5, 0.5), p(0.5, 0.5, 0.5)), &unit));
        assert!(!meets(&tri(p(0.5, 1.5, 0.5), p(0.5, 1.5, 0.5), p(0.5, 1.5, 0.5)), &unit));
        // A segment (zero-area triangle) passing a box edge diagonally.
        assert!(!meets(&tri(p(2.2, 0.0, 0.0), p(0.0, 2.2, 0.0), p(1.1, 1.1, 0.0)), &unit));
    }

    /// Random triangles against random turned boxes at several scales and distances from the
    /// origin: with the box grown by the rounding slack of the coordinates' magnitude the test
    /// never misses a triangle the `f64` 13-axis test finds meeting, and it separates nearly
    /// every pair that test separates.
    #[test]
    fn never_misses_and_separates_like_the_exact_axes() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for scale in [1e-3, 1.0, 1e3] {
            for far in [0.0, 1e2, 1e4] {
                let centre = Point::new(far, -far, 0.5 * far) * scale;
                let mut point = |spread: Real| {
                    centre
                        + Vector::new(
                            rng.gen_range(-1.0..1.0),
                            rng.gen_range(-1.0..1.0),
                            rng.gen_range(-1.0..1.0),
                        ) * (spread * scale)
                };
                let [mut meeting, mut apart, mut separated] = [0usize; 3];
                for k in 0..4000 {
                    let spread = if k % 2 == 0 { 1.0 } else { 0.1 };
                    let tri = Triangle::new(point(spread), point(spread), point(spread));
                    let axes = *Rotation::from_euler_angles(k as Real, 0.7 * k as Real, 0.3 * k as Real)
                        .to_rotation_matrix()
                        .matrix();
                    let half = Vector::new(0.8, 0.4, 0.1) * scale;
                    let b = Obb::new(point(0.5), axes, half);
                    let magnitude = (b.center.coords.abs() + half).max().max(tri.aabb().reach());
                    let grown = Obb::new(b.center, b.axes, half.add_scalar(rounding_slack(magnitude)));
                    if triangle_obb_overlap(&tri, &b) {
                        meeting += 1;
                        assert!(meets(&tri, &grown), "{tri:?} {b:?}");
                    } else {
                        apart += 1;
                        separated += usize::from(!meets(&tri, &b));
                    }
                }
                assert!(meeting > 400 && apart > 400, "{meeting} meet, {apart} apart");
                assert!(separated * 100 >= apart * 99, "{separated} of {apart} separated");
            }
        }
    }
}
