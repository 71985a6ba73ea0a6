//! Oriented bounding box.

use crate::aabb::Aabb;
use crate::math::next_up;
use crate::math::{Isometry, Matrix, Point, Real, RelativePose, Vector, max, min};
use crate::overlap::{columns, lanes, times};
use crate::pca::principal_axes;
use wide::f32x4;

/// A box with its own orthonormal axes.
///
/// `#[repr(C)]` and [`bytemuck::Pod`], so arrays of them can be stored as bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Obb {
    /// Centre.
    pub center: Point,
    /// Box axes as the columns of a rotation matrix (orthonormal, right-handed).
    pub axes: Matrix,
    /// Half side lengths along the three axes.
    pub half_extents: Vector,
}

impl Obb {
    /// The box with this centre, axes (columns) and half extents.
    pub fn new(center: Point, axes: Matrix, half_extents: Vector) -> Self {
        Self { center, axes, half_extents }
    }

    /// An axis-aligned box as an OBB.
    pub fn from_aabb(aabb: &Aabb) -> Self {
        Self { center: aabb.center(), axes: Matrix::identity(), half_extents: aabb.half_extents() }
    }

    /// The smallest box with the given axes containing every point, padded by the rounding of
    /// its projections: each point's offset from the first is projected on the axes in `f32`
    /// (four lanes at once), so the error scales with the box, not with the distance from the
    /// origin. No points give a zero box. Points in a slice get the same box faster from
    /// [`Obb::from_point_slice_with_axes`]; this one takes any iterator (a refit's chained runs
    /// of vertices), for which gathering fours costs more than it saves.
    pub fn from_points_with_axes<'p>(points: impl IntoIterator<Item = &'p Point>, axes: &Matrix) -> Self {
        let mut points = points.into_iter().peekable();
        let Some(&&first) = points.peek() else { return Self::empty_with_axes(axes) };
        let rows = columns(&axes.transpose());
        // A fold, not a loop: chained runs of points are then each projected in a loop of their own.
        let (lo, hi) = points.fold(EMPTY_SPAN, |span, p| project_one(span, &rows, &first, p));
        Self::around_projections(axes, &first, lo, hi)
    }

    /// [`Obb::from_points_with_axes`] of points in a slice, the same box: four points are
    /// projected per step, as three lanes of four coordinates each.
    pub fn from_point_slice_with_axes(points: &[Point], axes: &Matrix) -> Self {
        let Some(&first) = points.first() else { return Self::empty_with_axes(axes) };
        let rows = columns(&axes.transpose());
        let fours = points.chunks_exact(4);
        let rest = fours.remainder();
        // Per axis j, lanes of the four points' projections, summed in the order `project_one`
        // sums them, so the bounds are the same to the bit.
        let weights: [[f32x4; 3]; 3] =
            std::array::from_fn(|j| std::array::from_fn(|i| f32x4::splat(axes[(i, j)])));
        let origin = [first.x, first.y, first.z].map(f32x4::splat);
        let mut lo = [f32x4::splat(Real::INFINITY); 3];
        let mut hi = [f32x4::splat(Real::NEG_INFINITY); 3];
        for four in fours {
            // Each point as a lane vector (the first three read on into the next point, the
            // last padded), transposed into a vector per coordinate.
            let flat: &[Real] = bytemuck::cast_slice(four);
            let at = |i: usize| f32x4::from(<[Real; 4]>::try_from(&flat[i..i + 4]).unwrap_or_default());
            let last = f32x4::from([flat[9], flat[10], flat[11], 0.0]);
            let [x, y, z, _] = f32x4::transpose([at(0), at(3), at(6), last]);
            let d = [x - origin[0], y - origin[1], z - origin[2]];
            for j in 0..3 {
                let w = &weights[j];
                let projected = w[0] * d[0] + w[1] * d[1] + w[2] * d[2];
                lo[j] = lo[j].fast_min(projected);
                hi[j] = hi[j].fast_max(projected);
            }
        }
        // Lane j of the span: axis j's bound over the four lanes.
        let across = |v: [f32x4; 3], fold: fn(Real, Real) -> Real, start: Real| {
            let [x, y, z] = v.map(|v| v.to_array().into_iter().fold(start, fold));
            f32x4::from([x, y, z, 0.0])
        };
        let span = (across(lo, min, Real::INFINITY), across(hi, max, Real::NEG_INFINITY));
        let (lo, hi) = rest.iter().fold(span, |span, p| project_one(span, &rows, &first, p));
        Self::around_projections(axes, &first, lo, hi)
    }

    /// The zero box at the origin, for no points.
    fn empty_with_axes(axes: &Matrix) -> Self {
        Self { center: Point::origin(), axes: *axes, half_extents: Vector::zeros() }
    }

    /// The box with these axes around the points whose offsets from `first` project into
    /// `[lo, hi]` (lane j: axis j), padded by the projections' rounding.
    fn around_projections(axes: &Matrix, first: &Point, lo: f32x4, hi: f32x4) -> Self {
        let (lo, hi) = (lo.to_array().map(f64::from), hi.to_array().map(f64::from));
        // Each offset rounds by half an ulp and its projection by three, so a projection errs by
        // at most 4 half-ulps of the offset's length (the axes are orthonormal), which the
        // farthest projections bound; twice that, for the axes' own rounding.
        let reach = (0..3).map(|j| lo[j].abs().max(hi[j].abs())).map(|r| r * r).sum::<f64>().sqrt();
        let error = 4.0 * Real::EPSILON as f64 * reach;
        let cols: [[f64; 3]; 3] = std::array::from_fn(|j| std::array::from_fn(|i| axes[(i, j)] as f64));
        let origin: [f64; 3] = std::array::from_fn(|j| {
            first.x as f64 * cols[j][0] + first.y as f64 * cols[j][1] + first.z as f64 * cols[j][2]
        });
        // The centre from the first point and its offset, in f64 and rounded once: the axes are
        // orthonormal only to rounding, so a centre built from projections measured from the
        // origin would move by that rounding times its distance, which the extents would cover.
        let mid: [f64; 3] = std::array::from_fn(|j| 0.5 * (lo[j] + hi[j]));
        let center = Point::from(Vector::from_fn(|i, _| {
            (first[i] as f64 + (0..3).map(|j| cols[j][i] * mid[j]).sum::<f64>()) as Real
        }));
        let lo: [f64; 3] = std::array::from_fn(|j| origin[j] + lo[j] - error);
        let hi: [f64; 3] = std::array::from_fn(|j| origin[j] + hi[j] + error);
        Self::padded(center, axes, &cols, &lo, &hi)
    }

    /// The box with the given axes around the projected interval `[lo, hi]` per axis, measured
    /// from the (rounded) `center` and padded so that [`Obb::contains_point`], evaluated in
    /// `f32`, holds for every point whose projections lie in the intervals.
    fn padded(center: Point, axes: &Matrix, cols: &[[f64; 3]; 3], lo: &[f64; 3], hi: &[f64; 3]) -> Self {
        let stored: [f64; 3] = std::array::from_fn(|j| {
            center.x as f64 * cols[j][0] + center.y as f64 * cols[j][1] + center.z as f64 * cols[j][2]
        });
        let half: [f64; 3] = std::array::from_fn(|j| (hi[j] - stored[j]).max(stored[j] - lo[j]).max(0.0));
        // The f32 containment test errs by a few ulps of the distance from the centre, which
        // the half diagonal bounds (a flat box is thin but may be wide).
        let padding =
            8.0 * Real::EPSILON as f64 * (half[0] * half[0] + half[1] * half[1] + half[2] * half[2]).sqrt();
        let half_extents = Vector::from_fn(|j, _| next_up((half[j] + padding) as Real));
        Self { center, axes: *axes, half_extents }
    }

    /// The smallest coordinate-axis box holding `aabb`, padded like
    /// [`Obb::from_points_with_axes`] so it contains every point the AABB does.
    pub fn containing_aabb(aabb: &Aabb) -> Self {
        let cols = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
        let lo = [aabb.mins.x as f64, aabb.mins.y as f64, aabb.mins.z as f64];
        let hi = [aabb.maxs.x as f64, aabb.maxs.y as f64, aabb.maxs.z as f64];
        Self::padded(aabb.center(), &Matrix::identity(), &cols, &lo, &hi)
    }

    /// Full-vertex PCA box (the classic baseline): axes from the covariance of all points, or
    /// the coordinate axes when their box is smaller. Finer fitters (hull sampling, area
    /// weighting) live in `bvh-build` and end in [`Obb::from_points_with_axes`].
    pub fn from_points(points: &[Point]) -> Self {
        let pca = Self::from_point_slice_with_axes(points, &principal_axes(points));
        let aabb = Self::containing_aabb(&Aabb::from_points(points));
        if points.is_empty() || pca.volume() < aabb.volume() { pca } else { aabb }
    }

    /// The box that contains both, on the axes of the larger one.
    pub fn merged(&self, other: &Self) -> Self {
        let axes = if self.volume() >= other.volume() { self.axes } else { other.axes };
        self.merged_on_axes(other, &axes)
    }

    /// The box on `axes` that contains both (around their sixteen corners).
    pub fn merged_on_axes(&self, other: &Self, axes: &Matrix) -> Self {
        let mut corners = [Point::origin(); 16];
        corners[..8].copy_from_slice(&self.corners());
        corners[8..].copy_from_slice(&other.corners());
        Self::from_point_slice_with_axes(&corners, axes)
    }

    /// The box moved by `pose`.
    pub fn transformed(&self, pose: &Isometry) -> Self {
        self.placed(&RelativePose::from(pose))
    }

    /// The box placed in another frame by `pose`.
    #[inline]
    pub fn placed(&self, pose: &RelativePose) -> Self {
        Self {
            center: pose.transform_point(&self.center),
            axes: pose.rotation * self.axes,
            half_extents: self.half_extents,
        }
    }

    /// The smallest axis-aligned box around this one.
    pub fn to_aabb(&self) -> Aabb {
        Aabb::from_half_extents(self.center, self.axes.abs() * self.half_extents)
    }

    /// `true` when `p` lies in the closed box.
    pub fn contains_point(&self, p: &Point) -> bool {
        let local = self.axes.tr_mul(&(p - self.center));
        (0..3).all(|i| local[i].abs() <= self.half_extents[i])
    }

    /// The eight corners.
    pub fn corners(&self) -> [Point; 8] {
        std::array::from_fn(|k| {
            let sign = |bit: usize| if k & (1 << bit) == 0 { -1.0 } else { 1.0 };
            let local = Vector::new(sign(0), sign(1), sign(2)).component_mul(&self.half_extents);
            self.center + self.axes * local
        })
    }

    /// Volume `8 e1 e2 e3`.
    #[inline]
    pub fn volume(&self) -> Real {
        8.0 * self.half_extents.product()
    }

    /// Surface area `8 (e1 e2 + e2 e3 + e3 e1)`: the size of a flat box, whose volume is zero.
    pub fn surface_area(&self) -> Real {
        let e = self.half_extents;
        8.0 * (e.x * e.y + e.y * e.z + e.z * e.x)
    }

    /// A lower bound on the distance between the box and the nearest of the triangles whose
    /// `corners` (in its frame) are given three by three; infinite for none. For each triangle,
    /// the gap between the box and the triangle's corners' box along the box's axes, and while
    /// that stays below `cutoff`, the gap along the line from the triangle's corner nearest the
    /// box to the box's point nearest it: that point is the box's farthest along the line, so
    /// the gap is the distance itself when the corner is the triangle's nearest point, as it
    /// mostly is for a leaf's small triangles against a larger box. Once one triangle is nearer
    /// than `cutoff`, the others get only the first gap. The corners are turned onto the axes
    /// four lanes at a time.
    pub fn triangles_gap(&self, corners: &[Point], cutoff: Real) -> Real {
        // The transposed axes' columns: a point's offset turns onto the axes in three products.
        let rows = columns(&self.axes.transpose());
        let half = lanes(&self.half_extents);
        let dot = |u: f32x4, v: f32x4| (u * v).reduce_add();
        let mut nearest = Real::INFINITY;
        for triangle in corners.chunks_exact(3) {
            let local = [0, 1, 2].map(|i| times(&rows, lanes(&(triangle[i] - self.center))));
            let [p, q, r] = local;
            // Each gap's rounding: a few units in the last place of the offsets it multiplies.
            let rounding =
                8.0 * Real::EPSILON * (p.abs().fast_max(q.abs()).fast_max(r.abs()) + half).reduce_add();
            let (lo, hi) = (p.fast_min(q).fast_min(r), p.fast_max(q).fast_max(r));
            let apart = (lo - half).fast_max(-half - hi).fast_max(f32x4::ZERO);
            let mut gap = dot(apart, apart).sqrt() - rounding;
            if nearest >= cutoff && gap < cutoff {
                let feet = local.map(|corner| corner.fast_max(-half).fast_min(half));
                let lines = [0, 1, 2].map(|i| local[i] - feet[i]);
                let lengths = lines.map(|line| dot(line, line));
                let i = (0..3).fold(0, |i, j| if lengths[j] < lengths[i] { j } else { i });
                if lengths[i] > 0.0 {
                    let [x, y, z] = local.map(|v| dot(v - feet[i], lines[i]));
                    gap = max(min(min(x, y), z) / lengths[i].sqrt() - rounding, gap);
                }
            }
            nearest = min(gap, nearest);
        }
        max(nearest, 0.0)
    }

    /// Radius of the largest ball inside the box (its smallest half extent).
    #[inline]
    pub fn inner_radius(&self) -> Real {
        smallest(&self.half_extents)
    }

    /// Radius of the smallest ball around the box centre holding it (its half diagonal).
    #[inline]
    pub fn outer_radius(&self) -> Real {
        self.half_extents.norm()
    }
}

/// The smallest of a box's half extents `e`: the radius of the largest ball inside it.
#[inline]
pub(crate) fn smallest(e: &Vector) -> Real {
    min(min(e.x, e.y), e.z)
}

/// No projections yet: empty intervals.
const EMPTY_SPAN: (f32x4, f32x4) = (f32x4::splat(Real::INFINITY), f32x4::splat(Real::NEG_INFINITY));

/// `span` grown by `p`'s offset from `first` projected on the axes whose coordinates are
/// `rows` (row i: coordinate i's share of the three projections, and a zero fourth lane).
#[inline(always)]
fn project_one(span: (f32x4, f32x4), rows: &[f32x4; 3], first: &Point, p: &Point) -> (f32x4, f32x4) {
    let d = rows[0] * (p.x - first.x) + rows[1] * (p.y - first.y) + rows[2] * (p.z - first.z);
    (span.0.fast_min(d), span.1.fast_max(d))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Rotation;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn cloud() -> Vec<Point> {
        let rot = Rotation::from_euler_angles(0.3, -0.8, 1.2);
        (0..200)
            .map(|i| {
                let t = i as Real * 0.37;
                rot * Point::new(5.0 * t.sin(), 1.5 * (t * 1.7).cos(), 0.3 * (t * 0.3).sin())
                    + Vector::new(10.0, -3.0, 2.0)
            })
            .collect()
    }

    /// The slice fit projects four points at a time yet gives the iterator fit's box to the
    /// bit, for every remainder of four.
    #[test]
    fn the_slice_fit_is_the_iterator_fit() {
        let pts = cloud();
        let axes = Rotation::from_euler_angles(0.9, 0.4, -1.3).to_rotation_matrix().into_inner();
        for n in (0..=9).chain([57, 200]) {
            let points = &pts[..n];
            let by_slice = Obb::from_point_slice_with_axes(points, &axes);
            assert_eq!(by_slice, Obb::from_points_with_axes(points, &axes), "{n} points");
            assert!(points.iter().all(|p| by_slice.contains_point(p)));
        }
    }

    #[test]
    fn fitted_box_contains_points_and_beats_aabb_on_a_rotated_slab() {
        let pts = cloud();
        let obb = Obb::from_points(&pts);
        assert!(pts.iter().all(|p| obb.contains_point(p)));
        let det = obb.axes.determinant();
        assert!((det - 1.0).abs() < 1e-4, "axes must be a rotation, det = {det}");
        assert!(obb.volume() < Aabb::from_points(&pts).volume() * 0.5);
        for c in obb.corners() {
            assert!(obb.to_aabb().inflated(1e-4).contains_point(&c));
        }
    }

    #[test]
    fn degenerate_inputs_give_finite_boxes() {
        let same = vec![Point::new(1.0, 2.0, 3.0); 10];
        let line: Vec<Point> = (0..10).map(|i| Point::new(i as Real, i as Real, i as Real)).collect();
        for pts in [vec![], same, line] {
            let obb = Obb::from_points(&pts);
            assert!(obb.half_extents.iter().all(|e| e.is_finite() && *e >= 0.0));
            assert!(pts.iter().all(|p| obb.contains_point(p)));
        }
    }

    #[test]
    fn transformed_and_merged_contain_their_parts() {
        let a = Obb::from_points(&cloud());
        let pose = Isometry::new(Vector::new(1.0, 2.0, -3.0), Vector::new(0.2, 0.5, -1.0));
        let moved = a.transformed(&pose);
        for c in a.corners() {
            let local = moved.axes.tr_mul(&(pose * c - moved.center));
            assert!((0..3).all(|i| local[i].abs() <= moved.half_extents[i] * (1.0 + 1e-5)));
        }
        let m = a.merged(&moved);
        for c in a.corners().iter().chain(moved.corners().iter()) {
            assert!(m.contains_point(c));
        }
        assert!(a.inner_radius() <= a.outer_radius());
    }

    /// Clusters of every size at every distance from the origin, on turned axes: the box on
    /// the given axes holds every point (by the f32 test queries use) and is the exact box of
    /// their projections but for a padding of a few millionths of its size and the rounding of
    /// its centre to f32.
    #[test]
    fn a_box_on_given_axes_holds_its_points_and_little_more() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for size in [1e-4, 1e-1, 1e2] {
            for far in [0.0, 1e1, 1e3, 1e5] {
                let axes =
                    Rotation::from_euler_angles(rng.gen_range(-3.0..3.0), rng.gen_range(-3.0..3.0), 0.4)
                        .to_rotation_matrix()
                        .into_inner();
                let centre = Point::new(far, -0.6 * far, 0.3 * far);
                let points: Vec<Point> =
                    (0..100).map(|_| centre + Vector::from_fn(|_, _| rng.gen_range(-size..size))).collect();
                let obb = Obb::from_points_with_axes(&points, &axes);
                assert!(points.iter().all(|p| obb.contains_point(p)), "size {size}, {far} from the origin");
                for j in 0..3 {
                    let along = |p: &Point| (0..3).map(|i| p[i] as f64 * axes[(i, j)] as f64).sum::<f64>();
                    let (lo, hi) = points
                        .iter()
                        .map(along)
                        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), d| (lo.min(d), hi.max(d)));
                    let excess = obb.half_extents[j] as f64 - 0.5 * (hi - lo);
                    assert!(
                        excess <= 1e-5 * size as f64 + Real::EPSILON as f64 * far as f64,
                        "size {size}, {far} away: {excess} over on axis {j}"
                    );
                }
            }
        }
    }
}
