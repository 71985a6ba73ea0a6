//! How an OBB chooses its axes: hull-sampled PCA (paper 000 §1.3.2), area-weighted hull PCA
//! (paper 003 §1.2) or full-vertex PCA (the classic baseline). The extents always come from all
//! of the node's vertices, so every choice yields a box that contains the geometry.

use crate::bins::bin_of;
use bvh_core::bits::set_bits;
use bvh_core::{Aabb, Matrix, Obb, Point, Real, axes_of_covariance, max, min, principal_axes};
use nalgebra::{Matrix3, Vector3};
use smallvec::{SmallVec, smallvec};
use wide::{f32x4, u32x4};

/// Which points or triangles the covariance is taken over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FitMethod {
    /// Cut the longest coordinate extent into `slabs` slabs and keep, per slab, the vertices
    /// extreme in x, y or z (at most `6 × slabs` points); PCA over those.
    HullSampled {
        /// Number of slabs `k`.
        slabs: u32,
    },
    /// As [`FitMethod::HullSampled`], but the covariance is the area-weighted one of the
    /// triangles touching a sampled vertex, so dense small triangles do not pull the axes.
    AreaWeightedHull {
        /// Number of slabs `k`.
        slabs: u32,
    },
    /// Covariance of all vertices.
    FullPca,
}

/// An OBB fitting strategy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ObbFit {
    /// Where the axes come from.
    pub method: FitMethod,
    /// Keep the coordinate-axis box instead when its volume is smaller (it often is for flat or
    /// axis-aligned parts, and PCA axes are meaningless for symmetric ones).
    pub keep_smaller_aabb: bool,
    /// Then turn the axes towards a smaller box by a local search judged on the hull samples
    /// (`turned_smaller`), keeping the turned box if it is smaller over all the points. PCA
    /// axes follow the spread of the points, not the box's volume: turned boxes are about a
    /// tenth fewer volume tests per query.
    pub turn: bool,
}

impl ObbFit {
    /// Paper 000's hull-sampled PCA with `k = 8` slabs.
    pub const fn hull_sampled() -> Self {
        Self {
            method: FitMethod::HullSampled { slabs: DEFAULT_SLABS as u32 },
            keep_smaller_aabb: true,
            turn: false,
        }
    }

    /// Paper 003's area-weighted hull PCA with `k = 8` slabs.
    pub const fn area_weighted_hull() -> Self {
        Self {
            method: FitMethod::AreaWeightedHull { slabs: DEFAULT_SLABS as u32 },
            keep_smaller_aabb: true,
            turn: false,
        }
    }

    /// Full-vertex PCA (RAPID's classic fit uses all geometry).
    pub const fn full_pca() -> Self {
        Self { method: FitMethod::FullPca, keep_smaller_aabb: true, turn: false }
    }

    /// The same fit, its axes then turned towards a smaller box (see [`ObbFit::turn`]).
    pub const fn turned(self) -> Self {
        Self { turn: true, ..self }
    }

    /// The box for `corners`, the vertices of a node's triangles three by three.
    pub fn fit(&self, corners: &[Point]) -> Obb {
        self.fit_within(corners, &Aabb::from_points(corners))
    }

    /// As [`ObbFit::fit`], given the corners' bounding box `aabb`.
    pub fn fit_within(&self, corners: &[Point], aabb: &Aabb) -> Obb {
        self.fit_with_split_box(corners, aabb).0
    }

    /// As [`ObbFit::fit_within`], and the box whose axes the node is to be split along: the one
    /// before the turn. Split along turned axes, the generated bays' axis-aligned walls and
    /// panels fell into oblique halves (the main job's accumulator extraction: 27 → 43 volume
    /// tests per frame); split along the unturned ones, every measured pair gains.
    pub fn fit_with_split_box(&self, corners: &[Point], aabb: &Aabb) -> (Obb, Obb) {
        let samples = match self.method {
            FitMethod::HullSampled { slabs } | FitMethod::AreaWeightedHull { slabs } => {
                hull_sample_indices(corners, aabb, slabs as usize)
            }
            FitMethod::FullPca if self.turn => hull_sample_indices(corners, aabb, DEFAULT_SLABS),
            FitMethod::FullPca => SampleIndices::new(),
        };
        let axes = match self.method {
            FitMethod::FullPca => principal_axes(corners),
            FitMethod::HullSampled { .. } => hull_axes(corners, &samples),
            FitMethod::AreaWeightedHull { .. } => area_weighted_axes(corners, &samples),
        };
        let boxed = self.coordinate_box(corners, aabb);
        let or_aabb = |obb: Obb| no_larger(obb, boxed);
        let pca = Obb::from_point_slice_with_axes(corners, &axes);
        let plain = or_aabb(pca);
        if !self.turn {
            return (plain, plain);
        }
        let turned = Obb::from_point_slice_with_axes(
            corners,
            &turned_smaller(&sampled_points(corners, &samples), axes, &TURNS),
        );
        // By volume, then (for flat boxes) by area.
        let size = |o: &Obb| (o.volume(), o.surface_area());
        let best = if size(&turned) < size(&pca) { turned } else { pca };
        (or_aabb(best), plain)
    }

    /// The box of a node built bottom-up ([`Construction::Binned`](crate::Construction)): axes
    /// by PCA over `samples`, the hull samples gathered from its children (over all `points` for
    /// [`FitMethod::FullPca`]), turned when `turn` and the fit turns; extents over `points`,
    /// the node's corners (each vertex at least once).
    pub(crate) fn fit_sampled(&self, points: &[Point], aabb: &Aabb, samples: &[Point], turn: bool) -> Obb {
        let axes = match self.method {
            FitMethod::FullPca => principal_axes(points),
            FitMethod::HullSampled { .. } | FitMethod::AreaWeightedHull { .. } => principal_axes(samples),
        };
        let axes =
            if turn && self.turn { turned_smaller(samples, axes, &TURNS[..BOTTOM_UP_TURNS]) } else { axes };
        no_larger(Obb::from_point_slice_with_axes(points, &axes), self.coordinate_box(points, aabb))
    }

    /// The coordinate-axis box around `aabb`, when the fit keeps it.
    fn coordinate_box(&self, points: &[Point], aabb: &Aabb) -> Option<Obb> {
        (self.keep_smaller_aabb && !points.is_empty()).then(|| Obb::containing_aabb(aabb))
    }
}

/// `boxed` if it is no larger than `obb`, else `obb`.
fn no_larger(obb: Obb, boxed: Option<Obb>) -> Obb {
    boxed.filter(|b| b.volume() <= obb.volume()).unwrap_or(obb)
}

/// A few extreme points of a node's geometry – its hull samples with `k = 8`, or all its
/// corners when they are fewer – that the bottom-up construction passes from each node to its
/// parent, so a node's axes cost nothing like a pass over its triangles.
#[derive(Clone, Copy)]
pub(crate) struct Samples {
    points: [Point; Samples::MAX],
    len: usize,
}

impl Samples {
    /// Most points a node's samples hold: six per slab.
    pub(crate) const MAX: usize = SAMPLES_INLINE;

    /// The samples of `points`.
    pub(crate) fn of(points: &[Point]) -> Self {
        Self::of_within(points, &Aabb::from_points(points))
    }

    /// The samples of `points`, whose box is `bounds`.
    fn of_within(points: &[Point], bounds: &Aabb) -> Self {
        let mut samples = Self { points: [Point::origin(); Self::MAX], len: 0 };
        if points.len() <= Self::MAX {
            samples.points[..points.len()].copy_from_slice(points);
            samples.len = points.len();
        } else {
            for &i in hull_sample_indices(points, bounds, DEFAULT_SLABS).iter() {
                samples.points[samples.len] = points[i as usize];
                samples.len += 1;
            }
        }
        samples
    }

    /// The samples of two nodes' samples together (a parent's, from its children's), each at
    /// most [`Samples::MAX`] points. `bounds`, the box of both nodes, is also their samples'
    /// box: a node's samples hold its extreme coordinates.
    pub(crate) fn of_both(a: &[Point], b: &[Point], bounds: &Aabb) -> Self {
        let mut both = [Point::origin(); 2 * Self::MAX];
        both[..a.len()].copy_from_slice(a);
        both[a.len()..a.len() + b.len()].copy_from_slice(b);
        Self::of_within(&both[..a.len() + b.len()], bounds)
    }

    /// The points.
    pub(crate) fn points(&self) -> &[Point] {
        &self.points[..self.len]
    }
}

/// The extremes of one slab: per coordinate (three lanes of four), the smallest and largest
/// value and where – lanes, so that a point updates a slab without a branch (whether it does is
/// a coin toss for the samples a node merges from its children's).
#[derive(Clone, Copy)]
struct Slab {
    lo: f32x4,
    hi: f32x4,
    lo_at: u32x4,
    hi_at: u32x4,
}

impl Slab {
    const EMPTY: Self = Self {
        lo: f32x4::splat(Real::INFINITY),
        hi: f32x4::splat(Real::NEG_INFINITY),
        lo_at: u32x4::splat(NONE),
        hi_at: u32x4::splat(NONE),
    };

    /// Takes point `p`, the `i`-th, where it is more extreme than the slab's extremes so far
    /// (the first of equals stays).
    fn take(&mut self, p: &Point, i: u32) {
        let v = f32x4::from([p.x, p.y, p.z, 0.0]);
        let at = u32x4::splat(i);
        let (lower, higher) = (v.simd_lt(self.lo), v.simd_gt(self.hi));
        self.lo = lower.select(v, self.lo);
        self.hi = higher.select(v, self.hi);
        self.lo_at = lower.select(at, self.lo_at);
        self.hi_at = higher.select(at, self.hi_at);
    }

    /// The indices of the extremes taken, [`NONE`] where the slab took no point (the fourth
    /// lanes hold none).
    fn indices(&self) -> [u32; 6] {
        let [a, b, c, _] = self.lo_at.to_array();
        let [d, e, f, _] = self.hi_at.to_array();
        [a, b, c, d, e, f]
    }
}

/// The index of no point.
const NONE: u32 = u32::MAX;

/// Paper 000's `k`.
const DEFAULT_SLABS: usize = 8;

/// Most slabs a fit uses.
const MAX_SLABS: usize = 64;

/// Hull samples with the default slabs: held on the stack, so fitting a node allocates nothing
/// (and touches no more memory than it samples).
const SAMPLES_INLINE: usize = 6 * DEFAULT_SLABS;

/// Indices of hull samples, ascending and distinct.
type SampleIndices = SmallVec<[u32; SAMPLES_INLINE]>;

/// Indices of the hull samples: per slab along the longest axis of `bounds`, the points extreme
/// in x, y or z.
fn hull_sample_indices(points: &[Point], bounds: &Aabb, slabs: usize) -> SampleIndices {
    match slabs.clamp(1, MAX_SLABS) {
        // Every bottom-up node's: its count known when compiling.
        DEFAULT_SLABS => sample_indices_over(points, bounds, &mut [Slab::EMPTY; DEFAULT_SLABS]),
        slabs => {
            let mut extremes: SmallVec<[Slab; DEFAULT_SLABS]> = smallvec![Slab::EMPTY; slabs];
            sample_indices_over(points, bounds, &mut extremes)
        }
    }
}

/// [`hull_sample_indices`] into `extremes`, one empty [`Slab`] per slab.
#[inline(always)]
fn sample_indices_over(points: &[Point], bounds: &Aabb, extremes: &mut [Slab]) -> SampleIndices {
    let slabs = extremes.len();
    if !points.is_empty() {
        let extent = bounds.extents();
        let axis = extent.imax();
        let scale = if extent[axis] > 0.0 { slabs as Real / extent[axis] } else { 0.0 };
        for (i, p) in points.iter().enumerate() {
            extremes[bin_of(p[axis] - bounds.mins[axis], scale, slabs)].take(p, i as u32);
        }
    }
    let indices = extremes.iter().flat_map(Slab::indices);
    if points.len() <= 2 * u64::BITS as usize {
        // Ascending and distinct through the bits of a mask, without a sort: the bottom-up
        // construction merges at most 96 points at every node. A third word takes the marks
        // of [`NONE`].
        let mut mask = [0u64; 3];
        for i in indices {
            let i = i.min(2 * u64::BITS) as usize;
            mask[i / 64] |= 1 << (i % 64);
        }
        let [low, high, _] = mask;
        return set_bits(low).chain(set_bits(high).map(|i| i + 64)).map(|i| i as u32).collect();
    }
    let mut samples: SampleIndices = indices.filter(|&i| i != NONE).collect();
    samples.sort_unstable();
    samples.dedup();
    samples
}

/// The hull samples of `points`, gathered.
fn sampled_points(points: &[Point], samples: &SampleIndices) -> SmallVec<[Point; SAMPLES_INLINE]> {
    samples.iter().map(|&i| points[i as usize]).collect()
}

/// PCA axes of the hull samples of `points`.
fn hull_axes(points: &[Point], samples: &SampleIndices) -> Matrix {
    principal_axes(&sampled_points(points, samples))
}

/// `axes` turned about their own directions, by the halving angles of `turns` (the first of
/// [`TURNS`]), while the box they give the hull `samples` shrinks (across the turn's axis, so
/// that flat boxes turn too): a local search for a smaller box from PCA's axes, which follow
/// the points' spread rather than the box's volume. The samples' projections are kept and
/// turned with the axes; one pass over them tries both turns about an axis.
fn turned_smaller(samples: &[Point], axes: Matrix, turns: &[(Real, Real)]) -> Matrix {
    if samples.len() < 2 {
        return axes;
    }
    let mut axes = axes;
    // The projections on each axis, a run per axis padded with the first sample's to whole
    // lanes (a repeated point changes no extent), so that a pass works on a lane of samples
    // at once.
    let padded = samples.len().next_multiple_of(LANES);
    let mut along: [Projections; 3] = std::array::from_fn(|k| {
        let on_axis = |q: &Point| axes.column(k).dot(&q.coords);
        samples.iter().chain(std::iter::repeat_n(&samples[0], padded - samples.len())).map(on_axis).collect()
    });
    let mut extents = along.each_ref().map(|values| extent(values));
    for &(sin, cos) in turns {
        // Each turn taken shrinks the box; the bound only guards against rounding's surprises.
        for _ in 0..MAX_ROUNDS {
            let mut improved = false;
            for k in 0..3 {
                // A turn about axis k moves the other two: u and v turned by +angle, then by -angle.
                let (u, v) = ((k + 1) % 3, (k + 2) % 3);
                let [u_plus, v_plus, u_minus, v_minus] = turned_extents(&along[u], &along[v], sin, cos);
                // The first of the two turns that shrinks the box enough is taken.
                let enough = extents[u] * extents[v] * (1.0 - MIN_GAIN);
                let plus = u_plus * v_plus < enough;
                if !plus && u_minus * v_minus >= enough {
                    continue;
                }
                let sin = if plus { sin } else { -sin };
                let (a, b) = (axes.column(u).into_owned(), axes.column(v).into_owned());
                axes.set_column(u, &(a * cos + b * sin));
                axes.set_column(v, &(b * cos - a * sin));
                let [x, y, z] = &mut along;
                let (pu, pv) = match k {
                    0 => (y, z),
                    1 => (z, x),
                    _ => (x, y),
                };
                for (pu, pv) in pu.iter_mut().zip(pv.iter_mut()) {
                    (*pu, *pv) = (cos * *pu + sin * *pv, cos * *pv - sin * *pu);
                }
                (extents[u], extents[v]) = if plus { (u_plus, v_plus) } else { (u_minus, v_minus) };
                improved = true;
            }
            if !improved {
                break;
            }
        }
    }
    orthonormalized(&axes)
}

/// Samples a pass of [`turned_smaller`] takes at once.
const LANES: usize = 4;

/// The samples' projections on one axis, padded to whole [`LANES`].
type Projections = SmallVec<[Real; SAMPLES_INLINE]>;

/// The values (whole lanes of them) a lane at a time.
fn lanes(values: &[Real]) -> impl Iterator<Item = f32x4> + '_ {
    values.chunks_exact(LANES).map(|v| f32x4::from(<[Real; LANES]>::try_from(v).unwrap_or_default()))
}

/// The length of the interval the values (whole lanes of them) span.
fn extent(values: &[Real]) -> Real {
    let (mut lo, mut hi) = (f32x4::splat(Real::INFINITY), f32x4::splat(Real::NEG_INFINITY));
    for v in lanes(values) {
        lo = lo.fast_min(v);
        hi = hi.fast_max(v);
    }
    span(lo, hi)
}

/// The extents along `u` and `v` (whole lanes of projections) turned by the angle of `sin` and
/// `cos`, then by its opposite: `[u_plus, v_plus, u_minus, v_minus]`.
fn turned_extents(u: &[Real], v: &[Real], sin: Real, cos: Real) -> [Real; 4] {
    let (sin, cos) = (f32x4::splat(sin), f32x4::splat(cos));
    let mut lo = [f32x4::splat(Real::INFINITY); 4];
    let mut hi = [f32x4::splat(Real::NEG_INFINITY); 4];
    for (u, v) in lanes(u).zip(lanes(v)) {
        let (cu, cv, su, sv) = (cos * u, cos * v, sin * u, sin * v);
        for (i, value) in [cu + sv, cv - su, cu - sv, cv + su].into_iter().enumerate() {
            lo[i] = lo[i].fast_min(value);
            hi[i] = hi[i].fast_max(value);
        }
    }
    // The four lanes' bounds folded across by transposing: vector k of the transpose holds
    // lane k of every bound, so three vector steps reduce all four at once.
    let across = |v: [f32x4; 4], fold: fn(f32x4, f32x4) -> f32x4| {
        let [a, b, c, d] = f32x4::transpose(v);
        fold(fold(a, b), fold(c, d))
    };
    (across(hi, f32x4::fast_max) - across(lo, f32x4::fast_min)).to_array()
}

/// The length from the least of `lo`'s lanes to the greatest of `hi`'s.
fn span(lo: f32x4, hi: f32x4) -> Real {
    hi.to_array().into_iter().fold(Real::NEG_INFINITY, max)
        - lo.to_array().into_iter().fold(Real::INFINITY, min)
}

/// The trial turns of [`turned_smaller`] as their sines and cosines: 0.4 radians (23°) halved
/// seven times, worked out once when compiling rather than at every node.
const TURNS: [(Real, Real); 8] = {
    let mut turns = [(0.0, 0.0); 8];
    let (mut i, mut angle) = (0, 0.4);
    while i < turns.len() {
        turns[i] = sin_cos_of_small(angle);
        angle /= 2.0;
        i += 1;
    }
    turns
};

/// The sine and cosine of `x` by eight terms of their Taylor series (for `|x| ≤ 0.5` the rest
/// lies far below `f32`'s rounding).
const fn sin_cos_of_small(x: f64) -> (Real, Real) {
    let (mut sin, mut cos) = (0.0, 0.0);
    let (mut sin_term, mut cos_term) = (x, 1.0);
    let mut k = 0.0;
    while k < 16.0 {
        sin += sin_term;
        cos += cos_term;
        sin_term *= -x * x / ((k + 2.0) * (k + 3.0));
        cos_term *= -x * x / ((k + 1.0) * (k + 2.0));
        k += 2.0;
    }
    (sin as Real, cos as Real)
}

/// How many of [`TURNS`] a bottom-up node tries: not the two finest (under 0.4°), which
/// change no measured query's volume tests and cost a quarter of the search.
const BOTTOM_UP_TURNS: usize = 6;

/// Most rounds of trial turns per angle (a round tries both turns about each axis).
const MAX_ROUNDS: usize = 32;

/// The least relative shrinking a turn must bring to be taken (it ends the search on flat
/// ground).
const MIN_GAIN: Real = 1e-3;

/// The nearest right-handed orthonormal frame to `axes` (Gram–Schmidt on the first two columns),
/// undoing the rounding drift of many turns.
fn orthonormalized(axes: &Matrix) -> Matrix {
    let x = axes.column(0).normalize();
    let y = (axes.column(1) - x * x.dot(&axes.column(1))).normalize();
    Matrix::from_columns(&[x, y, x.cross(&y)])
}

/// Axes from the area-weighted covariance of the triangles that own a hull sample (paper 003):
/// each triangle contributes its area spread uniformly over its surface, and the centre is the
/// area-weighted mean of their centroids (the paper's printed `/2` is a typo for `/W`).
fn area_weighted_axes(corners: &[Point], samples: &SampleIndices) -> Matrix {
    let mut triangles: Vec<usize> = samples.iter().map(|&i| i as usize / 3).collect();
    triangles.dedup();
    let mut total_area = 0.0f64;
    let mut first = Vector3::<f64>::zeros();
    let mut second = Matrix3::<f64>::zeros();
    for t in triangles {
        let Some([a, b, c]) =
            corners.get(3 * t..3 * t + 3).map(|v| [v[0], v[1], v[2]].map(|p| p.coords.cast::<f64>()))
        else {
            continue;
        };
        let area = 0.5 * (b - a).cross(&(c - a)).norm();
        let centroid = (a + b + c) / 3.0;
        total_area += area;
        first += centroid * area;
        // Second moment of a uniform triangle: A/12 (9 m mᵀ + a aᵀ + b bᵀ + c cᵀ).
        second += (centroid * centroid.transpose() * 9.0
            + a * a.transpose()
            + b * b.transpose()
            + c * c.transpose())
            * (area / 12.0);
    }
    if total_area <= 0.0 {
        return hull_axes(corners, samples);
    }
    let mean = first / total_area;
    axes_of_covariance(&(second / total_area - mean * mean.transpose()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use bvh_core::{Rotation, TriMesh, Vector};

    fn corners(mesh: &TriMesh) -> Vec<Point> {
        mesh.triangles().flat_map(|t| t.vertices()).collect()
    }

    #[test]
    fn every_method_contains_the_geometry_of_a_turned_plate() {
        let rot = Rotation::from_euler_angles(0.4, 0.3, -0.9);
        let plate = TriMesh::cuboid(Point::origin(), Vector::new(5.0, 2.0, 0.2));
        let pts: Vec<Point> = corners(&plate).iter().map(|p| rot * p).collect();
        let aabb_volume = Aabb::from_points(&pts).volume();
        for fit in [ObbFit::hull_sampled(), ObbFit::area_weighted_hull(), ObbFit::full_pca()] {
            let obb = fit.fit(&pts);
            assert!(pts.iter().all(|p| obb.contains_point(p)), "{fit:?}");
            assert!(obb.volume() < aabb_volume / 2.0, "{fit:?}: {} vs AABB {aabb_volume}", obb.volume());
            // The plate's own box has volume 16. Vertex PCA is pulled off it by the uneven
            // vertex multiplicity of the triangle corners; the hull-based fits are not.
            if fit.method != FitMethod::FullPca {
                assert!(obb.volume() < 16.5, "{fit:?}: {}", obb.volume());
            }
        }
    }

    #[test]
    fn turning_shrinks_a_box_pulled_off_the_plate_and_keeps_every_box_a_frame() {
        let rot = Rotation::from_euler_angles(0.4, 0.3, -0.9);
        let plate = TriMesh::cuboid(Point::origin(), Vector::new(5.0, 2.0, 0.2));
        let pts: Vec<Point> = corners(&plate).iter().map(|p| rot * p).collect();
        for fit in [ObbFit::hull_sampled(), ObbFit::area_weighted_hull(), ObbFit::full_pca()] {
            let (plain, turned) = (fit.fit(&pts), fit.turned().fit(&pts));
            assert!(pts.iter().all(|p| turned.contains_point(p)), "{fit:?}");
            assert!(turned.volume() <= plain.volume(), "{fit:?}: {} > {}", turned.volume(), plain.volume());
            let axes = turned.axes;
            assert!((axes.transpose() * axes - Matrix::identity()).amax() < 1e-5, "{fit:?}: not orthonormal");
            assert!((axes.determinant() - 1.0).abs() < 1e-5, "{fit:?}: not right-handed");
        }
        // Full PCA, pulled off the plate (see above), is turned back close to its box (16).
        let (plain, turned) = (ObbFit::full_pca().fit(&pts), ObbFit::full_pca().turned().fit(&pts));
        assert!(plain.volume() > 20.0 && turned.volume() < 17.0, "{} -> {}", plain.volume(), turned.volume());
    }

    #[test]
    fn a_flat_square_turns_onto_its_sides() {
        // Zero thickness, so every box has zero volume; its area still shrinks as it turns.
        let turn = Rotation::from_euler_angles(0.0, 0.0, 0.5);
        let square = [[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]];
        let pts: Vec<Point> = square.iter().map(|[x, y]| turn * Point::new(*x, *y, 0.0)).collect();
        let turned = ObbFit::full_pca().turned().fit(&pts);
        assert!(pts.iter().all(|p| turned.contains_point(p)));
        // The square's own box has area 8 (both faces); the coordinate box of the turned one 12.2.
        assert!(turned.surface_area() < 8.1, "{}", turned.surface_area());
    }

    #[test]
    fn the_trial_turns_are_the_halved_angles() {
        let mut angle: Real = 0.4;
        for (sin, cos) in TURNS {
            let (expected_sin, expected_cos) = angle.sin_cos();
            assert!(
                (sin - expected_sin).abs() <= Real::EPSILON * expected_sin,
                "{angle}: {sin} vs {expected_sin}"
            );
            assert!((cos - expected_cos).abs() <= Real::EPSILON, "{angle}: {cos} vs {expected_cos}");
            angle /= 2.0;
        }
    }

    #[test]
    fn hull_samples_are_few_and_extreme() {
        let sphere = TriMesh::uv_sphere(Point::origin(), 1.0, 24, 48);
        let pts = corners(&sphere);
        let samples = Samples::of(&pts);
        let samples = samples.points();
        assert!(samples.len() <= 6 * 8 && samples.len() >= 8);
        let bounds = Aabb::from_points(&pts);
        for d in 0..3 {
            assert!(
                samples.iter().any(|p| p[d] == bounds.mins[d])
                    && samples.iter().any(|p| p[d] == bounds.maxs[d])
            );
        }
        // Two nodes' samples merged on the box of all their points: the samples of both
        // nodes' samples together.
        let (a, b) = pts.split_at(pts.len() / 3);
        let (a, b) = (Samples::of(a), Samples::of(b));
        let both: Vec<Point> = a.points().iter().chain(b.points()).copied().collect();
        assert_eq!(Samples::of_both(a.points(), b.points(), &bounds).points(), Samples::of(&both).points());
        assert!(Samples::of(&[]).points().is_empty());
        // A node's few corners are their own samples.
        assert_eq!(Samples::of(&pts[..12]).points(), &pts[..12]);
    }
}
