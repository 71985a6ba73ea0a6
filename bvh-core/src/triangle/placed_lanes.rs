//! Up to four triangles of a leaf placed in another frame, one per vector lane, for the
//! separating-axis tests against boxes of that frame, all four at once: a leaf tested against a
//! node learns which of its triangles may meet it for about the cost of testing one, and drops
//! every one that cannot. Far tighter than the leaf's box: a large triangle's box is mostly
//! empty, and a node beside the triangle's plane lies inside it. The same axes give each
//! triangle's gap to a box it misses, four at once: a search that keeps where it stopped
//! measures how far a leaf lies from the node it missed.

use super::Triangle;
use crate::math::{Matrix, Point, Real, RelativePose, Vector, cross, dot, rounding_slack, sub};
use wide::f32x4;

/// The shortest edge whose axes [`PlacedTriangles::box_gaps`] measures: the squares of its
/// components stay far from `f32`'s underflow.
const SHORTEST_MEASURED_EDGE: Real = 1e-15;

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

    /// The corners on the axes (as columns) of a box about `center`: `[i][k]`, corner `i` on
    /// axis `k`.
    #[inline(always)]
    fn on_axes(&self, center: &Point, axes: &Matrix) -> [[f32x4; 3]; 3] {
        let box_axes = [0, 1, 2].map(|k| [0, 1, 2].map(|c| f32x4::splat(axes[(c, k)])));
        self.corners.map(|p| {
            let d = [0, 1, 2].map(|c| p[c] - f32x4::splat(center[c]));
            box_axes.map(|axis| dot(&d, &axis))
        })
    }

    /// For each triangle (lane), a lower bound on its distance to the box (centre, orthonormal
    /// `axes` as columns, half extents), zero where no axis separates them, infinite in lanes
    /// holding none: the widest gap along the 13 axes of [`PlacedTriangles::may_meet_box`],
    /// each measured along the unit axis – the face normals' three gaps combined as a root sum
    /// of squares – less the rounding of the projections.
    #[inline]
    pub fn box_gaps(&self, center: &Point, axes: &Matrix, half_extents: &Vector) -> [Real; TRIANGLE_LANES] {
        let h = [0, 1, 2].map(|k| f32x4::splat(half_extents[k]));
        let local = self.on_axes(center, axes);
        let (mut faces, mut magnitude) = (f32x4::ZERO, f32x4::ZERO);
        for k in 0..3 {
            let (low, high) = span(local.map(|l| l[k]));
            let apart = (low - h[k]).fast_max(-h[k] - high).fast_max(f32x4::ZERO);
            faces += apart * apart;
            magnitude += low.abs().fast_max(high.abs()) + h[k];
        }
        let mut widest = faces.sqrt();
        // The normal made a unit vector up to rounding, or zero (then it separates nothing) for
        // a triangle too thin to have one that is trustworthy. Edge `j` runs from corner `j` to
        // the next.
        let edges = [0, 1, 2].map(|j| sub(&local[(j + 1) % 3], &local[j]));
        let normal = cross(&edges[0], &edges[1]);
        let length = dot(&normal, &normal).sqrt();
        let usable =
            length.simd_ge(f32x4::splat(Real::MIN_POSITIVE)) & length.simd_le(f32x4::splat(Real::MAX));
        let unit = normal.map(|n| usable.bitselect(n * (f32x4::ONE / length), f32x4::ZERO));
        let reach = h[0] * unit[0].abs() + h[1] * unit[1].abs() + h[2] * unit[2].abs();
        let (low, high) = span(local.map(|l| dot(&l, &unit)));
        widest = widest.fast_max((low - reach).fast_max(-reach - high));
        // An edge axis (box axis `k` crossed with the edge) is divided by its length, but by no
        // less than a quarter of the edge's: near-parallel edges, whose axes carry mostly
        // rounding, cannot blow rounding up. An edge shorter than `SHORTEST_MEASURED_EDGE`,
        // whose squares may underflow, gives no gap.
        for edge in &edges {
            let edge_length = dot(edge, edge).sqrt();
            let measured = edge_length.simd_gt(f32x4::splat(SHORTEST_MEASURED_EDGE));
            for k in 0..3 {
                let (k1, k2) = ((k + 1) % 3, (k + 2) % 3);
                let (low, high) = span(local.map(|v| v[k2] * edge[k1] - v[k1] * edge[k2]));
                let reach = h[k1] * edge[k2].abs() + h[k2] * edge[k1].abs();
                let gap = (low - reach).fast_max(-reach - high);
                let length = (edge[k1] * edge[k1] + edge[k2] * edge[k2])
                    .sqrt()
                    .fast_max(edge_length * f32x4::splat(0.25));
                widest = widest.fast_max(measured.bitselect(gap / length, f32x4::ZERO));
            }
        }
        let (widest, magnitude) = (widest.to_array(), magnitude.to_array());
        std::array::from_fn(|k| {
            let gap = (widest[k] - rounding_slack(magnitude[k])).max(0.0);
            if self.filled >> k & 1 == 1 { gap } else { Real::INFINITY }
        })
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
        let local = self.on_axes(center, axes);
        // Lanes where every corner lies past `reach` on one side of an axis.
        let outside = |on: [f32x4; 3], reach: f32x4| {
            let (low, high) = span(on);
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

/// The least and greatest of three corners' projections, lane by lane.
#[inline(always)]
fn span(on: [f32x4; 3]) -> (f32x4, f32x4) {
    (on[0].fast_min(on[1]).fast_min(on[2]), on[0].fast_max(on[1]).fast_max(on[2]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Rotation;
    use crate::obb::Obb;
    use crate::triangle::{closest_points_triangles, triangle_obb_overlap};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn p(x: Real, y: Real, z: Real) -> Point {
        Point::new(x, y, z)
    }

    /// The box test of one triangle, in a group of its own.
    fn meets(t: &Triangle, b: &Obb) -> bool {
        let group = PlacedTriangles::placed(std::slice::from_ref(t), &RelativePose::identity());
        group.may_meet_box(0b1, &b.center, &b.axes, &b.half_extents, 0.0) == 0b1
    }

    /// The gap between a triangle, in a group of its own, and a box.
    fn gap_alone(t: &Triangle, b: &Obb) -> Real {
        let group = PlacedTriangles::placed(std::slice::from_ref(t), &RelativePose::identity());
        group.box_gaps(&b.center, &b.axes, &b.half_extents)[0]
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

    /// Random triangles and turned boxes at three scales and three distances from the origin,
    /// one group for each: `count` pairs, the triangles' corners spread about a point by each of
    /// `spreads` in turn, the boxes' centres by `box_spread` (both times the scale).
    fn random_groups(
        seed: u64,
        count: usize,
        spreads: [Real; 2],
        box_spread: Real,
    ) -> Vec<Vec<(Triangle, Obb)>> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut groups = Vec::new();
        for scale in [1e-3, 1.0, 1e3] {
            for far in [0.0, 1e2, 1e4] {
                let centre = Point::new(far, -far, 0.5 * far) * scale;
                let mut point = |spread: Real| {
                    let offset = Vector::new(
                        rng.gen_range(-1.0..1.0),
                        rng.gen_range(-1.0..1.0),
                        rng.gen_range(-1.0..1.0),
                    );
                    centre + offset * (spread * scale)
                };
                let pairs = (0..count)
                    .map(|k| {
                        let spread = spreads[k % 2];
                        let tri = Triangle::new(point(spread), point(spread), point(spread));
                        let axes = *Rotation::from_euler_angles(k as Real, 0.7 * k as Real, 0.3 * k as Real)
                            .to_rotation_matrix()
                            .matrix();
                        (tri, Obb::new(point(box_spread), axes, Vector::new(0.8, 0.4, 0.1) * scale))
                    })
                    .collect();
                groups.push(pairs);
            }
        }
        groups
    }

    /// Random triangles against random turned boxes at several scales and distances from the
    /// origin: with the box grown by the rounding slack of the coordinates' magnitude the test
    /// never misses a triangle the `f64` 13-axis test finds meeting, and it separates nearly
    /// every pair that test separates.
    #[test]
    fn never_misses_and_separates_like_the_exact_axes() {
        for group in random_groups(11, 4000, [1.0, 0.1], 0.5) {
            let [mut meeting, mut apart, mut separated] = [0usize; 3];
            for (tri, b) in &group {
                let half = b.half_extents;
                let magnitude = (b.center.coords.abs() + half).max().max(tri.aabb().reach());
                let grown = Obb::new(b.center, b.axes, half.add_scalar(rounding_slack(magnitude)));
                if triangle_obb_overlap(tri, b) {
                    meeting += 1;
                    assert!(meets(tri, &grown), "{tri:?} {b:?}");
                } else {
                    apart += 1;
                    separated += usize::from(!meets(tri, b));
                }
            }
            assert!(meeting > 400 && apart > 400, "{meeting} meet, {apart} apart");
            assert!(separated * 100 >= apart * 99, "{separated} of {apart} separated");
        }
    }

    /// The distance between a triangle and a solid box: zero where they meet, else the least
    /// distance to the box's twelve face triangles, measured about the box's centre (in `f32`,
    /// far from the origin, the distance between triangles would err more than the gap).
    fn box_distance(t: &Triangle, b: &Obb) -> Real {
        if triangle_obb_overlap(t, b) {
            return 0.0;
        }
        let t = Triangle::new(t.a - b.center.coords, t.b - b.center.coords, t.c - b.center.coords);
        let corners = Obb::new(Point::origin(), b.axes, b.half_extents).corners();
        let mut nearest = Real::INFINITY;
        for bit in 0..3 {
            let (u, v) = (1 << ((bit + 1) % 3), 1 << ((bit + 2) % 3));
            for side in [0, 1 << bit] {
                let quad = [side, side | u, side | u | v, side | v].map(|k| corners[k]);
                for face in
                    [Triangle::new(quad[0], quad[1], quad[2]), Triangle::new(quad[0], quad[2], quad[3])]
                {
                    nearest = nearest.min(closest_points_triangles(&t, &face).distance);
                }
            }
        }
        nearest
    }

    /// Random triangles against random turned boxes at several scales and distances from the
    /// origin: the gap never exceeds the distance, is positive wherever the 13 axes separate
    /// them, and comes within a tenth of the distance for most.
    #[test]
    fn the_box_gap_bounds_the_distance_from_below() {
        for group in random_groups(12, 1000, [1.5, 0.2], 1.0) {
            let [mut separated, mut positive, mut near] = [0usize; 3];
            for (tri, b) in &group {
                let gap = gap_alone(tri, b);
                let distance = box_distance(tri, b);
                // The distance's own rounding, at the scale of the triangle's offsets.
                let reach = tri.vertices().map(|p| (p - b.center).amax()).into_iter().fold(0.0, Real::max);
                let tolerance = 4.0 * Real::EPSILON * (reach + b.half_extents.amax());
                assert!(gap <= distance + tolerance, "gap {gap} over the distance {distance}: {tri:?} {b:?}");
                if !meets(tri, b) {
                    separated += 1;
                    positive += usize::from(gap > 0.0);
                    near += usize::from(gap >= 0.9 * distance);
                }
            }
            assert!(separated > 300, "{separated} separated");
            assert!(positive * 100 >= separated * 99, "{positive} of {separated} positive");
            assert!(near * 10 >= separated * 9, "{near} of {separated} within a tenth of the distance");
        }
    }

    /// A triangle so small near the origin that its edges' squares underflow: its edge axes
    /// cannot be measured, and the gap stays below its distance to a unit box two away.
    #[test]
    fn a_triangle_too_small_to_measure_keeps_the_gap_below_the_distance() {
        let unit = Obb::new(p(2.0, 2.0, 0.0), Matrix::identity(), Vector::repeat(1.0));
        for size in [1e-30, 1e-20, 1e-10] {
            let tri = Triangle::new(p(0.0, 0.0, 0.0), p(size, 0.0, 0.0), p(0.0, size, size));
            let gap = gap_alone(&tri, &unit);
            // The corner (1, 1, 0) of the box is nearest: sqrt(2) away.
            assert!(gap <= Real::sqrt(2.0) && gap > 1.0, "size {size}: gap {gap}");
        }
    }

    /// Random triangles, slivers and points around random boxes, four at a time and fewer: each
    /// lane says what the triangle says in a group of its own, whether it may meet the box and
    /// how far from it it lies; empty lanes and lanes not asked about say nothing. (Whether the
    /// answers are right: the tests above, through one lane.)
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
            let gaps = placed.box_gaps(&b.center, &b.axes, &b.half_extents);
            // Asked about some lanes only, it answers for those alone.
            let asked = rng.gen_range(0..16);
            let some = placed.may_meet_box(asked, &b.center, &b.axes, &b.half_extents, margin);
            assert_eq!(some, lanes & asked);
            for (k, t) in triangles.iter().enumerate() {
                let alone = PlacedTriangles::placed(std::slice::from_ref(t), &pose);
                let one = alone.may_meet_box(0b1, &b.center, &b.axes, &b.half_extents, margin) == 0b1;
                assert_eq!(lanes >> k & 1 == 1, one, "{t:?} {b:?}");
                assert_eq!(gaps[k], alone.box_gaps(&b.center, &b.axes, &b.half_extents)[0], "{t:?} {b:?}");
                if one { meeting += 1 } else { apart += 1 }
            }
            assert_eq!(lanes >> count, 0);
            assert!(gaps[count..].iter().all(|&gap| gap == Real::INFINITY), "empty lanes are nowhere");
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
