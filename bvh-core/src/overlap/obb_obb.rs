//! OBB–OBB: the 15-axis separating axis test (Gottschalk 1996), on four-lane vectors: the
//! nine entries of B's axes on A's are three vectors, and each group of three axes is one
//! vector comparison (written with nalgebra's column-major 3×3 products, the compiler spent
//! most of the test shuffling single lanes).

use super::Overlap;
use crate::aabb::Aabb;
use crate::math::{Matrix, Point, Real, RelativePose, Vector, max};
use crate::obb::Obb;
use wide::f32x4;

/// Added to every `|R_ij|` so that near-parallel edges, whose cross products are nearly zero and
/// carry mostly rounding, can never produce a false "separated".
pub const OBB_AXIS_PADDING: Real = 1e-6;

/// A box placed in another frame and laid out for [`Obb::meets`]: placed once, it is tested
/// against many boxes of that frame.
#[derive(Clone, Copy, Debug)]
pub struct PlacedObb {
    /// Centre, fourth lane zero.
    pub(crate) center: f32x4,
    /// Entry `(k, j)` of the axes matrix (component `k` of axis `j`) in every lane.
    pub(crate) axes: [[f32x4; 3]; 3],
    pub(crate) half_extents: f32x4,
    /// Smallest half extent and half diagonal, for the pre-judge.
    pub(crate) inner_radius: Real,
    pub(crate) outer_radius: Real,
}

impl PlacedObb {
    /// `obb` placed by `pose`.
    #[inline]
    pub fn new(obb: &Obb, pose: &RelativePose) -> Self {
        let rotation = columns(&pose.rotation);
        let axes = columns(&obb.axes).map(|axis| times(&rotation, axis));
        Self::with_axes(obb, axes, &rotation, pose)
    }

    /// `aabb` placed by `pose`: its axes become the pose's rotation, with no product.
    #[inline]
    pub fn from_aabb(aabb: &Aabb, pose: &RelativePose) -> Self {
        let rotation = columns(&pose.rotation);
        Self::with_axes(&Obb::from_aabb(aabb), rotation, &rotation, pose)
    }

    /// `obb` with its axes already placed as `axes` (columns, lanes over coordinates) and its
    /// centre placed by `pose`, whose rotation's columns are `rotation`.
    #[inline(always)]
    fn with_axes(obb: &Obb, axes: [f32x4; 3], rotation: &[f32x4; 3], pose: &RelativePose) -> Self {
        Self {
            center: times(rotation, lanes(&obb.center.coords)) + lanes(&pose.translation),
            axes: [0, 1, 2].map(|k| axes.map(|axis| lane(axis, k))),
            half_extents: lanes(&obb.half_extents),
            inner_radius: obb.inner_radius(),
            outer_radius: obb.outer_radius(),
        }
    }

    /// Squared distance from its centre to `p`.
    #[inline]
    pub(crate) fn center_distance_sq(&self, p: &Point) -> Real {
        let d = self.center - lanes(&p.coords);
        (d * d).reduce_add()
    }
}

impl Overlap<Obb> for Obb {
    #[inline]
    fn overlaps(&self, other: &Obb, b_in_a: &RelativePose) -> bool {
        self.meets(&PlacedObb::new(other, b_in_a))
    }
}

impl Obb {
    /// `true` when this box and `other`, placed in its frame, share a point (up to
    /// [`OBB_AXIS_PADDING`]). A traversal places one box in the other tree's frame once and
    /// tests it there against many.
    #[inline]
    pub fn meets(&self, other: &PlacedObb) -> bool {
        self.meets_with_margin(other, 0.0)
    }

    /// [`Obb::meets`] for this box grown by `margin` on every side, as
    /// `Obb { half_extents: half_extents.add_scalar(margin), .. }` would be, bit for bit,
    /// without the copy: a traversal grows every volume of A it tests by its margin.
    #[inline]
    pub fn meets_with_margin(&self, other: &PlacedObb, margin: Real) -> bool {
        let apart = |separated: f32x4| separated.to_bitmask() & 0b111 != 0;
        let separated = fold_axes(
            self,
            margin,
            other,
            f32x4::ZERO,
            |separated, distance, radii, _| separated | distance.simd_gt(radii),
            apart,
        );
        !apart(separated)
    }

    /// A lower bound on the distance between this box and `other`, placed in its frame: the
    /// widest gap any of the 15 axes shows (an edge axis is not normalised, and is no longer
    /// than one, so its gap is never overstated), or zero when none separates them. Computed in
    /// `f32`: a caller trusting it near zero allows for rounding at the boxes' scale.
    pub fn gap(&self, other: &PlacedObb) -> Real {
        // Every number here is finite: no NaN-aware maximum needed.
        let widest = fold_axes(
            self,
            0.0,
            other,
            f32x4::ZERO,
            |widest, distance, radii, _| widest.fast_max(distance - radii),
            |_| false,
        );
        widest_lane(widest)
    }

    /// A tighter lower bound than [`Obb::gap`] on the distance, for distance queries, whose
    /// pruning lives on it: the gaps along each box's three face axes combined as a root sum of
    /// squares, each edge axis's gap measured along the unit axis, and the gap along the line
    /// through the centres (the boxes' fixed axes miss boxes apart along a diagonal; that line
    /// nearly gives their distance once they lie farther apart than they are large). An edge
    /// axis shorter than [`SHORTEST_MEASURED_AXIS`] is divided by that length instead (still a
    /// lower bound), so near-parallel edges, whose axes carry mostly rounding, cannot blow
    /// rounding up.
    pub fn distance_bound(&self, other: &PlacedObb) -> Real {
        let floor = f32x4::splat(SHORTEST_MEASURED_AXIS);
        let (c, t) = b_on_a(self, other);
        let centres = centre_line_gap(lanes(&self.half_extents), other.half_extents, &c, t);
        let init = f32x4::splat(centres);
        let widest = fold_separations(
            lanes(&self.half_extents),
            other.half_extents,
            c,
            t,
            init,
            |widest, distance, radii, length| {
                let gaps = distance - radii;
                match length {
                    // Three orthonormal axes: any vector between the boxes spans at least each gap
                    // along its axis, so at least their root sum of squares (exact for boxes whose
                    // axes line up).
                    None => {
                        let gaps = gaps.fast_max(f32x4::ZERO);
                        widest.fast_max(f32x4::splat((gaps * gaps).reduce_add().sqrt()))
                    }
                    Some(length) => widest.fast_max(gaps / length.fast_max(floor)),
                }
            },
            |_| false,
        );
        widest_lane(widest)
    }

    /// [`Obb::distance_bound`] for a search that only cares below `cutoff`: the boxes' outer
    /// balls first (cheap), whose distance is returned when it reaches the cutoff; zero when the
    /// inner balls overlap; else the better of the balls' and the axes' bounds.
    #[inline]
    pub fn distance_bound_below(&self, other: &PlacedObb, cutoff: Real) -> Real {
        let apart = other.center_distance_sq(&self.center).sqrt();
        let balls = apart - self.outer_radius() - other.outer_radius;
        if balls >= cutoff {
            return balls;
        }
        if apart < self.inner_radius() + other.inner_radius {
            return 0.0;
        }
        max(self.distance_bound(other), balls)
    }
}

/// The shortest edge axis whose gap [`Obb::distance_bound`] divides by its length: rounding is
/// amplified at most by its inverse.
pub const SHORTEST_MEASURED_AXIS: Real = 0.25;

/// The largest of the four lanes (all finite).
#[inline(always)]
fn widest_lane(v: f32x4) -> Real {
    let [x, y, z, w] = v.to_array();
    max(max(x, y), max(z, w))
}

/// The separating axis test's 15 comparisons between `a`, grown by `a_margin`, and `b` (placed
/// in `a`'s frame), folded into `init` in five groups of lanes: `fold(acc, distance, radii,
/// length)` takes, per axis, the distance between the boxes' centres and the sum of their radii
/// along it, both scaled by the axis's length: `None` for a box's three face axes (unit,
/// orthonormal), else the lengths of three edge axes `A_i x B_j`, which are not normalised;
/// `stop(acc)` after A's face axes ends the fold there. Fourth lanes are zero distance against
/// a positive radius, never separating.
#[inline(always)]
fn fold_axes(
    a: &Obb,
    a_margin: Real,
    b: &PlacedObb,
    init: f32x4,
    fold: impl Fn(f32x4, f32x4, f32x4, Option<f32x4>) -> f32x4,
    stop: impl Fn(f32x4) -> bool,
) -> f32x4 {
    let (columns, offset) = b_on_a(a, b);
    fold_separations(
        lanes(&a.half_extents.add_scalar(a_margin)),
        b.half_extents,
        columns,
        offset,
        init,
        fold,
        stop,
    )
}

/// B's axes and centre in A's box frame: the columns of `C` (lane `i` of column `j` is
/// `A_i · B_j`) and B's centre minus A's on A's axes.
#[inline(always)]
fn b_on_a(a: &Obb, b: &PlacedObb) -> ([f32x4; 3], f32x4) {
    // Row `k` of A's axes: component `k` of each axis, lanes over A's axes.
    let rows = [0, 1, 2].map(|k| f32x4::new([a.axes[(k, 0)], a.axes[(k, 1)], a.axes[(k, 2)], 0.0]));
    let axes = &b.axes;
    let columns = [0, 1, 2].map(|j| axes[0][j] * rows[0] + axes[1][j] * rows[1] + axes[2][j] * rows[2]);
    let d = b.center - lanes(&a.center.coords);
    let offset = rows[0] * lane(d, 0) + rows[1] * lane(d, 1) + rows[2] * lane(d, 2);
    (columns, offset)
}

/// The gap between two boxes along the line through their centres (`t`, B's centre on A's
/// axes, with `c` and the half extents `a`, `b` as in [`fold_separations`]): the centres'
/// distance less each box's reach along that line, B's padded like the other axes' radii.
/// Zero for coincident centres.
#[inline(always)]
fn centre_line_gap(a: f32x4, b: f32x4, c: &[f32x4; 3], t: f32x4) -> Real {
    let apart_sq = (t * t).reduce_add();
    if apart_sq <= 0.0 {
        return 0.0;
    }
    let along_t = t.abs();
    // B's axes on the line, scaled by its length: |B_j · t|, padded by the rounding of C.
    let padding = f32x4::splat(OBB_AXIS_PADDING * along_t.reduce_add());
    let on_b = c.map(|column| (column * t).reduce_add());
    let on_b = f32x4::new([on_b[0], on_b[1], on_b[2], 0.0]).abs() + padding;
    let reach = (a * along_t).reduce_add() + (b * on_b).reduce_add();
    (apart_sq - reach) / apart_sq.sqrt()
}

/// The 15 axes' comparisons in A's box frame, folded as [`fold_axes`] says: `c` holds the
/// columns of `C` (B's axes on A's: lane `i` of `c[j]` is `A_i · B_j`), `t` is B's centre minus
/// A's on A's axes, `a` and `b` the half extents. After A's three face axes, one branch: the
/// fold so far ends the test when `stop` says so (an overlap test whose boxes those axes already
/// separate, as for most pairs a first-contact search rejects); the other twelve are made with no
/// branch, as most boxes that get past A's faces overlap and pass them all anyway.
#[inline(always)]
fn fold_separations(
    a: f32x4,
    b: f32x4,
    c: [f32x4; 3],
    t: f32x4,
    init: f32x4,
    fold: impl Fn(f32x4, f32x4, f32x4, Option<f32x4>) -> f32x4,
    stop: impl Fn(f32x4) -> bool,
) -> f32x4 {
    let padded = c.map(|column| column.abs() + f32x4::splat(OBB_AXIS_PADDING));
    let bs = [0, 1, 2].map(|j| lane(b, j));
    // A's face normals, lanes over A's axes: |t_i| against a_i + sum_j b_j |C_ij|.
    let mut acc = fold(init, t.abs(), a + bs[0] * padded[0] + bs[1] * padded[1] + bs[2] * padded[2], None);
    if stop(acc) {
        return acc;
    }
    // B's face normals, lanes over B's axes: |sum_i C_ij t_i| against sum_i a_i |C_ij| + b_j.
    let [p0, p1, p2, _] = f32x4::transpose([c[0] * t, c[1] * t, c[2] * t, f32x4::ZERO]);
    let [q0, q1, q2, _] = f32x4::transpose([padded[0] * a, padded[1] * a, padded[2] * a, f32x4::ZERO]);
    acc = fold(acc, (p0 + p1 + p2).abs(), q0 + q1 + q2 + b, None);
    // Edge axes A_i x B_j, lanes over i for each j (i1, i2 and j1, j2 the next two, cyclically):
    // |t_i2 C_i1j - t_i1 C_i2j| against a_i1 |C_i2j| + a_i2 |C_i1j| + b_j1 |C_ij2| + b_j2 |C_ij1|;
    // the axis is C_i1j A_i2 - C_i2j A_i1, of length sqrt(C_i1j² + C_i2j²).
    let (t1, t2, a1, a2) = (turn(t, 1), turn(t, 2), turn(a, 1), turn(a, 2));
    for j in 0..3 {
        let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
        let (c1, c2) = (turn(c[j], 1), turn(c[j], 2));
        let distance = (t2 * c1 - t1 * c2).abs();
        let ra = a1 * turn(padded[j], 2) + a2 * turn(padded[j], 1);
        let rb = bs[j1] * padded[j2] + bs[j2] * padded[j1];
        acc = fold(acc, distance, ra + rb, Some((c1 * c1 + c2 * c2).sqrt()));
    }
    acc
}

/// A matrix's columns, fourth lanes zero.
#[inline(always)]
pub(crate) fn columns(m: &Matrix) -> [f32x4; 3] {
    [0, 1, 2].map(|j| f32x4::new([m[(0, j)], m[(1, j)], m[(2, j)], 0.0]))
}

/// The matrix of these `columns` times the vector `v` (its first three lanes).
#[inline(always)]
pub(crate) fn times(columns: &[f32x4; 3], v: f32x4) -> f32x4 {
    columns[0] * lane(v, 0) + columns[1] * lane(v, 1) + columns[2] * lane(v, 2)
}

/// A vector's three coordinates, fourth lane zero.
#[inline(always)]
pub(crate) fn lanes(v: &Vector) -> f32x4 {
    f32x4::new([v.x, v.y, v.z, 0.0])
}

/// Lane `k` of `v` in every lane.
#[inline(always)]
fn lane(v: f32x4, k: usize) -> f32x4 {
    f32x4::splat(v.to_array()[k])
}

/// The first three lanes turned by `by`: lane `i` takes lane `(i + by) % 3`; the fourth stays.
#[inline(always)]
fn turn(v: f32x4, by: usize) -> f32x4 {
    let x = v.to_array();
    f32x4::new([x[by % 3], x[(1 + by) % 3], x[(2 + by) % 3], x[3]])
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
        assert!((a.gap(&PlacedObb::new(&b, &far)) - 0.1).abs() < 1e-5);
        assert_eq!(a.gap(&PlacedObb::new(&b, &near)), 0.0);
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

    /// The largest gap, in `f64`, that any of the 15 axes shows between the two boxes (given in
    /// one frame): positive when an axis separates them, and the direction of that axis.
    fn widest_gap(a: &Obb, b: &Obb) -> (f64, [f64; 3]) {
        let v = |m: &Matrix, j: usize| [0, 1, 2].map(|k| m[(k, j)] as f64);
        let dot = |x: [f64; 3], y: [f64; 3]| x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
        let cross = |x: [f64; 3], y: [f64; 3]| {
            [x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]]
        };
        let (aa, ba) = ([0, 1, 2].map(|i| v(&a.axes, i)), [0, 1, 2].map(|j| v(&b.axes, j)));
        let d = [0, 1, 2].map(|k| b.center[k] as f64 - a.center[k] as f64);
        let mut axes: Vec<[f64; 3]> = aa.iter().chain(&ba).copied().collect();
        axes.extend(aa.iter().flat_map(|x| ba.iter().map(|y| cross(*x, *y))));
        let mut widest = (f64::NEG_INFINITY, [0.0; 3]);
        for l in axes {
            let length = dot(l, l).sqrt();
            if length < 1e-9 {
                continue;
            }
            let reach = |o: &Obb, ax: &[[f64; 3]; 3]| {
                (0..3).map(|i| o.half_extents[i] as f64 * dot(l, ax[i]).abs()).sum::<f64>()
            };
            let gap = (dot(l, d).abs() - reach(a, &aa) - reach(b, &ba)) / length;
            if gap > widest.0 {
                let sign = dot(l, d).signum();
                widest = (gap, l.map(|x| sign * x / length));
            }
        }
        widest
    }

    /// On random boxes of many shapes, many of them moved to just touching along the axis that
    /// separates them best: the vector test never separates boxes that no axis separates in
    /// `f64`, and it separates every pair some axis separates by more than a hair; the gap it
    /// measures agrees with it and bounds the widest gap from below.
    #[test]
    fn agrees_with_a_plain_f64_test_near_touching() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let mut counts = [0usize; 3];
        for k in 0..20_000 {
            let scale: Real = 10f32.powf(rng.gen_range(-2.0..3.0));
            let random_box = |rng: &mut rand_chacha::ChaCha8Rng| {
                let mut v = || Vector::new(rng.r#gen(), rng.r#gen(), rng.r#gen());
                let axes = crate::math::Rotation::new(v() * 6.0).to_rotation_matrix().into_inner();
                let flat = if k % 5 == 0 { Vector::new(1.0, 1.0, 1e-4) } else { Vector::repeat(1.0) };
                let center = Point::from((v() - Vector::repeat(0.5)) * 4.0 * scale);
                Obb::new(center, axes, (v() + Vector::repeat(0.01)).component_mul(&flat) * scale)
            };
            let a = random_box(&mut rng);
            let mut b = random_box(&mut rng);
            if k % 2 == 0 {
                // Slide B along the best axis until the gap is within a few millionths of the size.
                let (gap, dir) = widest_gap(&a, &b);
                let target = rng.gen_range(-3e-6..3e-6) * scale as f64;
                let shift = Vector::from(dir.map(|x| (x * (target - gap)) as Real));
                b.center += shift;
            }
            let (gap, _) = widest_gap(&a, &b);
            let placed = PlacedObb::new(&b, &RelativePose::identity());
            let meets = a.meets(&placed);
            // The measured gap separates exactly when the test does, and never overstates
            // the widest gap (itself at most the boxes' distance).
            let measured = a.gap(&placed);
            assert_eq!(measured > 0.0, !meets, "case {k}: gap {measured:e}");
            assert!(
                measured as f64 <= gap.max(0.0) + 1e-5 * scale as f64,
                "case {k}: {measured:e} > {gap:e}"
            );
            if gap <= 0.0 {
                assert!(meets, "case {k}: no axis separates (gap {gap:e}) but the test separated");
                counts[0] += 1;
            } else if gap > 1e-5 * scale as f64 {
                assert!(!meets, "case {k}: separated by {gap:e} but the test called them overlapping");
                counts[1] += 1;
            } else {
                counts[2] += 1;
            }
        }
        assert!(counts.iter().all(|&n| n > 1_000), "overlapping, separated, within a hair: {counts:?}");
    }
}
