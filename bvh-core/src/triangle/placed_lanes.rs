//! Up to four triangles of a leaf placed in another frame, one per vector lane, for the
//! separating-axis tests against boxes of that frame, all four at once: a leaf tested against a
//! node learns which of its triangles may meet it for about the cost of testing one, and drops
//! every one that cannot. Far tighter than the leaf's box: a large triangle's box is mostly
//! empty, and a node beside the triangle's plane lies inside it.

use super::Triangle;
use crate::math::{Matrix, Point, Real, RelativePose, Vector, cross, dot, sub};
use wide::f32x4;

/// How many triangles a [`PlacedTriangles`] holds.
pub const TRIANGLE_LANES: usize = 4;

/// Up to [`TRIANGLE_LANES`] triangles, corner by corner and coordinate by coordinate:
/// `corners[i][c]` holds coordinate `c` of each triangle's corner `i`, a lane per triangle.
#[derive(Clone, Copy, Debug)]
pub struct PlacedTriangles {
    corners: [[f32x4; 3]; 3],
    /// A bit per lane holding a triangle.
    filled: u32,
}

impl PlacedTriangles {
    /// The first [`TRIANGLE_LANES`] of `triangles` (or all of them; none gives a group that
    /// meets nothing) placed by `pose`, each corner with the same operations as
    /// [`Triangle::placed`].
    #[inline]
    pub fn placed(triangles: &[Triangle], pose: &RelativePose) -> Self {
        let count = triangles.len().min(TRIANGLE_LANES);
        // Lanes past the triangles repeat the last one: numbers like the others, never read.
        let lane = |k: usize| {
            triangles
                .get(k)
                .or(triangles.last())
                .map_or([0.0; 9], |t| *bytemuck::cast_ref::<Triangle, [Real; 9]>(t))
        };
        let [t0, t1, t2, t3] = [0, 1, 2, 3].map(lane);
        let (r, shift) = (&pose.rotation, &pose.translation);
        let corners = [0, 1, 2].map(|i| {
            let coordinate = |c: usize| {
                let at = 3 * i + c;
                f32x4::new([t0[at], t1[at], t2[at], t3[at]])
            };
            let (x, y, z) = (coordinate(0), coordinate(1), coordinate(2));
            [0, 1, 2].map(|row| {
                x * f32x4::splat(r[(row, 0)])
                    + y * f32x4::splat(r[(row, 1)])
                    + z * f32x4::splat(r[(row, 2)])
                    + f32x4::splat(shift[row])
            })
        });
        Self { corners, filled: (1 << count) - 1 }
    }

    /// Of the triangles (lanes) in `asked`, a bit for each that may meet the box (centre,
    /// orthonormal `axes` as columns, half extents, grown by `margin` on every side); clear
    /// where one of the 13 separating axes of a triangle and a box – the box's face normals, the
    /// triangle's normal, and each triangle edge crossed with each box axis – separates the two.
    /// A bit set means, in exact arithmetic, that they meet. Computed in `f32`: each projection
    /// errs by a few ulps of the coordinates' magnitude times the axis's length (every
    /// projection and reach along an axis is taken from the same computed axis), so a caller
    /// that must never miss a contact grows the box by the rounding slack of that magnitude, as
    /// the traversals grow every volume they test. The tests stop once every triangle asked
    /// about is separated.
    #[inline]
    pub fn may_meet_box(
        &self,
        asked: u32,
        center: &Point,
        axes: &Matrix,
        half_extents: &Vector,
        margin: Real,
    ) -> u32 {
        let half = half_extents.add_scalar(margin);
        let h = [0, 1, 2].map(|k| f32x4::splat(half[k]));
        let box_axes = [0, 1, 2].map(|k| [0, 1, 2].map(|c| f32x4::splat(axes[(c, k)])));
        // The corners on the box's axes: `local[i][k]`, corner `i` on axis `k`.
        let local = self.corners.map(|p| {
            let d = [0, 1, 2].map(|c| p[c] - f32x4::splat(center[c]));
            box_axes.map(|axis| dot(&d, &axis))
        });
        // Lanes where every corner lies past `reach` on one side of an axis.
        let outside = |on: [f32x4; 3], reach: f32x4| {
            let (low, high) = (on[0].fast_min(on[1]).fast_min(on[2]), on[0].fast_max(on[1]).fast_max(on[2]));
            low.simd_gt(reach) | high.simd_lt(-reach)
        };
        let mut separated = f32x4::ZERO.simd_gt(f32x4::ZERO);
        for k in 0..3 {
            separated |= outside(local.map(|l| l[k]), h[k]);
        }
        let asked = asked & self.filled;
        if separated.to_bitmask() & asked == asked {
            return 0;
        }
        // Edge `j` runs from corner `j` to the next.
        let edges = [0, 1, 2].map(|j| sub(&local[(j + 1) % 3], &local[j]));
        let normal = cross(&edges[0], &edges[1]);
        let squared = dot(&normal, &normal);
        // A normal too short to square (or not finite) separates nothing: as for one triangle.
        let usable =
            squared.simd_ge(f32x4::splat(Real::MIN_POSITIVE)) & squared.simd_le(f32x4::splat(Real::MAX));
        let reach = h[0] * normal[0].abs() + h[1] * normal[1].abs() + h[2] * normal[2].abs();
        separated |= usable & outside(local.map(|l| dot(&l, &normal)), reach);
        if separated.to_bitmask() & asked == asked {
            return 0;
        }
        for edge in &edges {
            let size = edge.map(|e| e.abs());
            for k in 0..3 {
                let (k1, k2) = ((k + 1) % 3, (k + 2) % 3);
                let on_axis = local.map(|v| v[k2] * edge[k1] - v[k1] * edge[k2]);
                separated |= outside(on_axis, h[k1] * size[k2] + h[k2] * size[k1]);
            }
        }
        !separated.to_bitmask() & asked
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Rotation;
    use crate::obb::Obb;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Random triangles, slivers and points around random boxes, four at a time and fewer: each
    /// lane says what the triangle says in a group of its own, empty lanes and lanes not asked
    /// about say nothing. (Whether the answers are right: `placed`'s tests, through one lane.)
    #[test]
    fn each_lane_answers_as_one_triangle_does() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let point = |rng: &mut ChaCha8Rng, scale: Real| {
            Point::new(rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0)) * scale
        };
        let (mut meeting, mut apart) = (0, 0);
        for round in 0..3000 {
            let b = Obb::new(
                point(&mut rng, 0.5),
                Rotation::from_scaled_axis(point(&mut rng, 3.0).coords).to_rotation_matrix().into_inner(),
                Vector::new(rng.gen_range(0.1..1.0), rng.gen_range(0.1..1.0), rng.gen_range(0.0..0.3)),
            );
            let count = 1 + round % TRIANGLE_LANES;
            let triangles: Vec<Triangle> = (0..count)
                .map(|k| {
                    let a = point(&mut rng, 0.9);
                    match k {
                        // A sliver and a point: their normals separate nothing.
                        1 => Triangle::new(a, a + Vector::x() * 0.5, a + Vector::x()),
                        2 => Triangle::new(a, a, a),
                        _ => {
                            Triangle::new(a, a + point(&mut rng, 0.7).coords, a + point(&mut rng, 0.7).coords)
                        }
                    }
                })
                .collect();
            let pose = RelativePose::identity();
            let margin = [0.0, 0.01][round % 2];
            let placed = PlacedTriangles::placed(&triangles, &pose);
            let lanes = placed.may_meet_box(0b1111, &b.center, &b.axes, &b.half_extents, margin);
            // Asked about some lanes only, it answers for those alone.
            let asked = rng.gen_range(0..16);
            let some = placed.may_meet_box(asked, &b.center, &b.axes, &b.half_extents, margin);
            assert_eq!(some, lanes & asked);
            for (k, t) in triangles.iter().enumerate() {
                let alone = PlacedTriangles::placed(std::slice::from_ref(t), &pose);
                let one = alone.may_meet_box(0b1, &b.center, &b.axes, &b.half_extents, margin) == 0b1;
                assert_eq!(lanes >> k & 1 == 1, one, "{t:?} {b:?}");
                if one { meeting += 1 } else { apart += 1 }
            }
            assert_eq!(lanes >> count, 0);
        }
        assert!(meeting > 1000 && apart > 1000, "{meeting} meet, {apart} apart");
    }

    /// Placed lane by lane, a triangle's corners are those `Triangle::placed` gives.
    #[test]
    fn placing_matches_one_triangle() {
        let pose = RelativePose {
            rotation: Rotation::from_scaled_axis(Vector::new(0.3, -1.1, 0.7))
                .to_rotation_matrix()
                .into_inner(),
            translation: Vector::new(10.25, -3.5, 0.125),
        };
        let t =
            Triangle::new(Point::new(1.5, 2.0, -3.0), Point::new(-0.1, 0.2, 0.3), Point::new(7.0, 8.0, 9.0));
        let lanes = PlacedTriangles::placed(&[t, t], &pose);
        let placed = t.placed(&pose);
        for (i, corner) in placed.vertices().iter().enumerate() {
            for c in 0..3 {
                assert_eq!(lanes.corners[i][c].to_array()[1], corner[c]);
            }
        }
        assert_eq!(lanes.filled, 0b11);
        let none = PlacedTriangles::placed(&[], &pose);
        assert_eq!(
            none.may_meet_box(0b1111, &Point::origin(), &Matrix::identity(), &Vector::repeat(1e30), 0.0),
            0
        );
    }
}
