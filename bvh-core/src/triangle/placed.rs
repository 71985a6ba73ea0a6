//! A triangle laid out for lower bounds on its distance to many boxes of one frame: a leaf of
//! one tree, placed in the other tree's frame once, against that tree's nodes in turn, by the
//! separating axes of a triangle and a box. (Whether they may meet is asked of four triangles at
//! once: [`PlacedTriangles`](super::PlacedTriangles).)

use super::Triangle;
use crate::math::{Matrix, Point, Real, RelativePose, Vector, rounding_slack};
use crate::overlap::turn;
use wide::f32x4;

/// A triangle's corners in lanes (`a, b, c, a`: the fourth repeats the first, so a comparison
/// holds for every lane exactly when it holds for every corner). Its normal is not kept: the gap
/// takes it from the corners in the box's frame, where its reach is one product per axis.
#[derive(Clone, Copy, Debug)]
pub struct PlacedTriangle {
    x: f32x4,
    y: f32x4,
    z: f32x4,
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
        Self { x, y, z }
    }

    /// A lower bound on the distance between the triangle and a box (centre, orthonormal `axes`
    /// as columns, half extents), zero when no axis separates them: the widest gap along the 13
    /// axes of [`PlacedTriangles::may_meet_box`](super::PlacedTriangles::may_meet_box), each
    /// measured along the unit axis – the face normals' three gaps combined as a root sum of
    /// squares – less the rounding of the projections.
    #[inline]
    pub fn box_gap(&self, center: &Point, axes: &Matrix, half_extents: &Vector) -> Real {
        let d = self.offsets(center);
        let local = [0, 1, 2].map(|k| along(&d, &axes.column(k).into_owned()));
        // One vector per corner, lanes over the box's axes (the fourth corner repeats the first).
        let [p, q, r, _] = f32x4::transpose([local[0], local[1], local[2], f32x4::ZERO]);
        let half = f32x4::new([half_extents.x, half_extents.y, half_extents.z, 0.0]);
        let (low, high) = (p.fast_min(q).fast_min(r), p.fast_max(q).fast_max(r));
        let apart = (low - half).fast_max(-half - high).fast_max(f32x4::ZERO);
        let faces = (apart * apart).reduce_add().sqrt();
        // The normal in the box's frame, made a unit vector up to rounding, or zero (then it
        // separates nothing) for a triangle too thin to have one that is trustworthy.
        let edges = edge_vectors(&local);
        let normal = normal_of(&edges);
        let length = normal.norm();
        let normal =
            if length.is_normal() && length.is_finite() { normal * length.recip() } else { Vector::zeros() };
        let [n0, n1, n2, _] = along(&local, &normal).to_array();
        let reach = reach_along(half_extents, &normal);
        let plane = (n0.min(n1).min(n2) - reach).max(-reach - n0.max(n1).max(n2));
        // An edge axis is divided by its length, but by no less than a quarter of the edge's:
        // near-parallel edges, whose axes carry mostly rounding, cannot blow rounding up. An edge
        // shorter than `SHORTEST_MEASURED_EDGE`, whose squares may underflow, gives no gap.
        let h = [0, 1, 2].map(|k| f32x4::splat(half_extents[k]));
        let measured = |axes: &EdgeAxes| axes.edge_length.simd_gt(f32x4::splat(SHORTEST_MEASURED_EDGE));
        let mut edge_gaps = f32x4::ZERO;
        for axes in edge_axes(&local, &edges, &h) {
            let gap = (axes.low - axes.reach).fast_max(-axes.reach - axes.high);
            let length = axes.length_sq.sqrt().fast_max(axes.edge_length * f32x4::splat(0.25));
            edge_gaps = edge_gaps.fast_max(measured(&axes).bitselect(gap / length, f32x4::ZERO));
        }
        let [e0, e1, e2, _] = edge_gaps.to_array();
        let widest = faces.max(plane).max(e0).max(e1).max(e2);
        let magnitude = (low.abs().fast_max(high.abs()) + half).reduce_add();
        (widest - rounding_slack(magnitude)).max(0.0)
    }

    /// The corners' offsets from `center`, one vector per coordinate (lanes over corners).
    #[inline(always)]
    fn offsets(&self, center: &Point) -> [f32x4; 3] {
        [self.x - f32x4::splat(center.x), self.y - f32x4::splat(center.y), self.z - f32x4::splat(center.z)]
    }
}

/// The shortest edge whose axes [`PlacedTriangle::box_gap`] measures: the squares of its
/// components stay far from `f32`'s underflow.
const SHORTEST_MEASURED_EDGE: Real = 1e-15;

/// Offsets `d` (one vector per coordinate, lanes over corners) projected on `axis`.
#[inline(always)]
fn along(d: &[f32x4; 3], axis: &Vector) -> f32x4 {
    d[0] * f32x4::splat(axis.x) + d[1] * f32x4::splat(axis.y) + d[2] * f32x4::splat(axis.z)
}

/// A triangle's corners on the axes `box axis k x edge`, lanes over its edges (edge `i` runs
/// from corner `i` to the next; the fourth lane's edge is zero and never separates).
struct EdgeAxes {
    /// The least and greatest of the three corners' projections.
    low: f32x4,
    high: f32x4,
    /// How far the box reaches along the axis.
    reach: f32x4,
    /// The axis's squared length, and the edge's length.
    length_sq: f32x4,
    edge_length: f32x4,
}

/// The edges of a triangle whose corners on a box's axes are `local` (lanes over corners), one
/// vector per box axis, lanes over edges: edge `i` runs from corner `i` to the next, and the
/// fourth lane's is zero.
#[inline(always)]
fn edge_vectors(local: &[f32x4; 3]) -> [f32x4; 3] {
    local.map(|v| turn(v, 1) - v)
}

/// How far a box with these half extents reaches from its centre along `axis`, given in the
/// box's frame (scaled by the axis's length).
#[inline(always)]
fn reach_along(half_extents: &Vector, axis: &Vector) -> Real {
    half_extents.dot(&axis.abs())
}

/// The triangle's normal in the box's frame: its first edge crossed with its second.
#[inline(always)]
fn normal_of(edges: &[f32x4; 3]) -> Vector {
    let [e, f] = [0, 1].map(|i| Vector::from(edges.map(|v| v.to_array()[i])));
    e.cross(&f)
}

/// The edge axes for each box axis `k`, from the corners on the box's axes (`local`, lanes over
/// corners), their `edge`s and the box's half extents `h`: axis `k` x edge is `(0, -e_z, e_y)`
/// for `k = 0` and cyclically, its reach `h_y |e_z| + h_z |e_y|`.
#[inline(always)]
fn edge_axes(local: &[f32x4; 3], edge: &[f32x4; 3], h: &[f32x4; 3]) -> [EdgeAxes; 3] {
    let next = local.map(|v| turn(v, 1));
    let last = local.map(|v| turn(v, 2));
    let size = edge.map(|e| e.abs());
    let edge_length = (edge[0] * edge[0] + edge[1] * edge[1] + edge[2] * edge[2]).sqrt();
    [0, 1, 2].map(|k| {
        let (k1, k2) = ((k + 1) % 3, (k + 2) % 3);
        let on_axis = |v: &[f32x4; 3]| v[k2] * edge[k1] - v[k1] * edge[k2];
        let (p0, p1, p2) = (on_axis(local), on_axis(&next), on_axis(&last));
        EdgeAxes {
            low: p0.fast_min(p1).fast_min(p2),
            high: p0.fast_max(p1).fast_max(p2),
            reach: h[k1] * size[k2] + h[k2] * size[k1],
            length_sq: edge[k1] * edge[k1] + edge[k2] * edge[k2],
            edge_length,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Rotation;
    use crate::obb::Obb;
    use crate::triangle::{PlacedTriangles, closest_points_triangles, triangle_obb_overlap};
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
                let placed = PlacedTriangle::placed(tri, &RelativePose::identity());
                let gap = placed.box_gap(&b.center, &b.axes, &b.half_extents);
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
            let placed = PlacedTriangle::placed(&tri, &RelativePose::identity());
            let gap = placed.box_gap(&unit.center, &unit.axes, &unit.half_extents);
            // The corner (1, 1, 0) of the box is nearest: sqrt(2) away.
            assert!(gap <= Real::sqrt(2.0) && gap > 1.0, "size {size}: gap {gap}");
        }
    }
}
