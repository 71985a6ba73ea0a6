//! Split rules: how a node's triangles are divided between its two children.
//!
//! A rule sees the triangles of one node and the node's axes, reorders the triangles so the
//! left child's come first and says how many that is. The builder falls back to halving the
//! node when a rule cannot separate anything (all centroids equal, say).

use crate::bins::{Span, bin_of};
use bvh_core::{Aabb, Matrix, Point, Real};

/// Where a node may be split: its axes (columns) and the range of its vertices' projections
/// on each.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SplitFrame {
    /// The axes.
    pub axes: Matrix,
    /// Smallest projection per axis.
    pub lo: [Real; 3],
    /// Largest projection per axis.
    pub hi: [Real; 3],
}

/// A node's triangles as the builder holds them: vertex triples, and the user's triangle
/// indices, reordered together, with their bounding box.
#[derive(Debug)]
pub struct NodeTriangles<'a> {
    vertices: &'a mut [[Point; 3]],
    indices: &'a mut [u32],
    bounds: Aabb,
    /// The bounds of both sides of the last partition, and where it put the split.
    sides: Option<(usize, Aabb, Aabb)>,
}

impl<'a> NodeTriangles<'a> {
    /// Pairs the two arrays (of equal length).
    pub fn new(vertices: &'a mut [[Point; 3]], indices: &'a mut [u32]) -> Self {
        debug_assert_eq!(vertices.len(), indices.len());
        let bounds = Aabb::from_points(bytemuck::cast_slice::<[Point; 3], Point>(vertices));
        Self { vertices, indices, bounds, sides: None }
    }

    /// Bounding box of all the vertices.
    pub fn bounds(&self) -> &Aabb {
        &self.bounds
    }

    /// Number of triangles.
    pub fn len(&self) -> usize {
        self.indices.len()
    }

    /// `true` when there are none.
    pub fn is_empty(&self) -> bool {
        self.indices.is_empty()
    }

    /// The vertex triples.
    pub fn vertices(&self) -> &[[Point; 3]] {
        self.vertices
    }

    /// All vertices, three per triangle, without copying.
    pub fn corners(&self) -> &[Point] {
        bytemuck::cast_slice(self.vertices)
    }

    /// Moves the triangles for which `left(vertices)` holds to the front and returns how many
    /// there are. The order within each side is not kept (it is deterministic all the same).
    pub fn partition(&mut self, left: impl Fn(&[Point; 3]) -> bool) -> usize {
        let (mut left_bounds, mut right_bounds) = (Aabb::EMPTY, Aabb::EMPTY);
        let (mut i, mut j) = (0, self.len());
        // Two cursors meet in the middle; the children's boxes are gathered on the way, saving
        // each child a pass over its vertices.
        while i < j {
            if left(&self.vertices[i]) {
                self.vertices[i].iter().for_each(|p| left_bounds.take_point(p));
                i += 1;
            } else {
                j -= 1;
                self.vertices.swap(i, j);
                self.indices.swap(i, j);
                self.vertices[j].iter().for_each(|p| right_bounds.take_point(p));
            }
        }
        self.sides = Some((i, left_bounds, right_bounds));
        i
    }

    /// The first `k` triangles and the rest.
    pub(crate) fn split_at(self, k: usize) -> (Self, Self) {
        let (vl, vr) = self.vertices.split_at_mut(k);
        let (il, ir) = self.indices.split_at_mut(k);
        let (left_bounds, right_bounds) = match self.sides {
            Some((at, l, r)) if at == k => (l, r),
            _ => (Aabb::from_points(bytemuck::cast_slice(vl)), Aabb::from_points(bytemuck::cast_slice(vr))),
        };
        (
            Self { vertices: vl, indices: il, bounds: left_bounds, sides: None },
            Self { vertices: vr, indices: ir, bounds: right_bounds, sides: None },
        )
    }
}

/// A strategy for dividing a node's triangles.
pub trait SplitRule: Sync {
    /// Reorders the triangles so that the first `k` go to the left child (with
    /// [`NodeTriangles::partition`]) and returns `k`. Returning `0` or all of them means "no
    /// useful split"; the builder then halves the node.
    fn split(&self, triangles: &mut NodeTriangles<'_>, frame: &SplitFrame) -> usize;
}

/// Paper 003's penalty function: among planes across each of the node's three axes, take the
/// one minimising `|n_l - n_r| + lambda * n_c` (`n_l`, `n_r` triangles wholly on each side,
/// `n_c` crossing). Candidate planes sit on `bins` equal bins; counts come from prefix sums of
/// binned triangle extents, so a node costs O(n + bins). Crossing triangles follow their centroid.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PenaltySplit {
    /// Weight of a crossing triangle against one triangle of imbalance.
    pub lambda: Real,
    /// Number of bins per axis (candidate planes = bins − 1).
    pub bins: u32,
}

/// Binned surface-area heuristic over centroids: the modern reference to compare against.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SahSplit {
    /// Number of bins per axis.
    pub bins: u32,
}

/// The split rules the presets choose from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Split {
    /// Paper 003's penalty function.
    Penalty(PenaltySplit),
    /// Half the triangles each side, at the centroid median along the longest axis.
    Median,
    /// At the mean of the centroids along the longest axis (RAPID's rule).
    Mean,
    /// Binned surface-area heuristic.
    Sah(SahSplit),
}

impl Split {
    /// The penalty split with `lambda = 1` and 32 bins.
    pub const fn penalty() -> Self {
        Split::Penalty(PenaltySplit { lambda: 1.0, bins: 32 })
    }

    /// Binned SAH with 16 bins.
    pub const fn sah() -> Self {
        Split::Sah(SahSplit { bins: 16 })
    }
}

impl SplitRule for Split {
    fn split(&self, triangles: &mut NodeTriangles<'_>, frame: &SplitFrame) -> usize {
        match self {
            Split::Penalty(rule) => rule.split(triangles, frame),
            Split::Median => MedianSplit.split(triangles, frame),
            Split::Mean => MeanSplit.split(triangles, frame),
            Split::Sah(rule) => rule.split(triangles, frame),
        }
    }
}

/// Most bins a binned rule uses (their counters live on the stack).
const MAX_BINS: usize = 64;

impl SplitRule for PenaltySplit {
    fn split(&self, triangles: &mut NodeTriangles<'_>, frame: &SplitFrame) -> usize {
        let bins = (self.bins as usize).clamp(2, MAX_BINS);
        let axes = &frame.axes;
        let axes_t = axes.transpose();
        // The node's volume already bounds the projections: one pass bins all three axes.
        let range: [(Real, Real); 3] = std::array::from_fn(|d| (frame.lo[d], frame.hi[d]));
        let scale = range.map(|(lo, hi)| if hi > lo { bins as Real / (hi - lo) } else { 0.0 });
        let bin = |d: usize, v: Real| bin_of(v - range[d].0, scale[d], bins);
        let mut ends = [[0u32; MAX_BINS]; 3];
        let mut starts = [[0u32; MAX_BINS]; 3];
        for tri in triangles.vertices() {
            let [a, b, c] = tri.map(|p| axes_t * p.coords);
            for d in 0..3 {
                ends[d][bin(d, a[d].max(b[d]).max(c[d]))] += 1;
                starts[d][bin(d, a[d].min(b[d]).min(c[d]))] += 1;
            }
        }
        let n = triangles.len() as Real;
        let mut best: Option<(Real, usize, Real)> = None;
        for d in (0..3).filter(|&d| scale[d] > 0.0 && scale[d].is_finite()) {
            // Plane j sits between bins j-1 and j: wholly left = ends in bins < j, wholly
            // right = starts in bins >= j.
            let mut left = 0u32;
            let mut right = triangles.len() as u32;
            for j in 1..bins {
                left += ends[d][j - 1];
                right -= starts[d][j - 1];
                let crossing = n - (left + right) as Real;
                let cost = (left as Real - right as Real).abs() + self.lambda * crossing;
                if best.is_none_or(|b| cost < b.0) {
                    best = Some((cost, d, range[d].0 + j as Real / scale[d]));
                }
            }
        }
        let Some((_, d, plane)) = best else { return 0 };
        // Crossing triangles follow their centroid (compared as the sum of three projections).
        triangles.partition(|t| centroid_on(t, axes, d) < plane)
    }
}

/// The centroid-median split (the classic balanced baseline).
struct MedianSplit;

impl SplitRule for MedianSplit {
    fn split(&self, triangles: &mut NodeTriangles<'_>, frame: &SplitFrame) -> usize {
        // Along the axis on which the node is widest.
        let d = (0..3)
            .max_by(|&a, &b| (frame.hi[a] - frame.lo[a]).total_cmp(&(frame.hi[b] - frame.lo[b])))
            .unwrap_or(0);
        let mut values: Vec<Real> =
            triangles.vertices().iter().map(|t| centroid_on(t, &frame.axes, d)).collect();
        let k = values.len() / 2;
        let (_, &mut median, _) = values.select_nth_unstable_by(k, Real::total_cmp);
        // Ties at the median go right, unless that leaves the left side empty.
        let below = triangles.partition(|t| centroid_on(t, &frame.axes, d) < median);
        if below > 0 { below } else { triangles.partition(|t| centroid_on(t, &frame.axes, d) <= median) }
    }
}

/// The centroid-mean split (RAPID, Gottschalk et al. 1996).
struct MeanSplit;

impl SplitRule for MeanSplit {
    fn split(&self, triangles: &mut NodeTriangles<'_>, frame: &SplitFrame) -> usize {
        let d = widest_axis(frame);
        let sum: f64 = triangles.vertices().iter().map(|t| centroid_on(t, &frame.axes, d) as f64).sum();
        let mean = (sum / triangles.len().max(1) as f64) as Real;
        triangles.partition(|t| centroid_on(t, &frame.axes, d) < mean)
    }
}

/// The axis on which the node is widest.
fn widest_axis(frame: &SplitFrame) -> usize {
    (0..3).max_by(|&a, &b| (frame.hi[a] - frame.lo[a]).total_cmp(&(frame.hi[b] - frame.lo[b]))).unwrap_or(0)
}

/// The centroid's projection on axis `d`, computed the same way wherever it is compared.
fn centroid_on(t: &[Point; 3], axes: &Matrix, d: usize) -> Real {
    let axis = axes.column(d);
    (t[0].coords.dot(&axis) + t[1].coords.dot(&axis) + t[2].coords.dot(&axis)) / 3.0
}

impl SplitRule for SahSplit {
    fn split(&self, triangles: &mut NodeTriangles<'_>, frame: &SplitFrame) -> usize {
        let bins = (self.bins as usize).clamp(2, MAX_BINS);
        let axes = &frame.axes;
        let axes_t = axes.transpose();
        // Centroids lie within the node's range on each axis: bin them there, in one pass that
        // also grows every bin's bounds on all three axes.
        let scale: [Real; 3] = std::array::from_fn(|d| {
            let width = frame.hi[d] - frame.lo[d];
            if width > 0.0 && width.is_finite() { bins as Real / width } else { 0.0 }
        });
        let mut count = [[0u32; MAX_BINS]; 3];
        let mut bounds = [[Span::EMPTY; MAX_BINS]; 3];
        for tri in triangles.vertices() {
            let [a, b, c] = tri.map(|p| axes_t * p.coords);
            let span = Span::new(
                std::array::from_fn(|d| a[d].min(b[d]).min(c[d])),
                std::array::from_fn(|d| a[d].max(b[d]).max(c[d])),
            );
            for d in 0..3 {
                let centroid = (a[d] + b[d] + c[d]) / 3.0;
                let bin = bin_of(centroid - frame.lo[d], scale[d], bins);
                count[d][bin] += 1;
                bounds[d][bin].grow(&span);
            }
        }
        let mut best: Option<(Real, usize, Real)> = None;
        for d in (0..3).filter(|&d| scale[d] > 0.0) {
            // Sweep from the right for suffix costs, then from the left.
            let mut right_cost = [0.0; MAX_BINS];
            let (mut acc, mut n) = (Span::EMPTY, 0u32);
            for j in (1..bins).rev() {
                acc.grow(&bounds[d][j]);
                n += count[d][j];
                right_cost[j] = acc.half_area() * n as Real;
            }
            let (mut acc, mut n) = (Span::EMPTY, 0u32);
            for j in 1..bins {
                acc.grow(&bounds[d][j - 1]);
                n += count[d][j - 1];
                let cost = acc.half_area() * n as Real + right_cost[j];
                if best.is_none_or(|b| cost < b.0) {
                    best = Some((cost, d, frame.lo[d] + j as Real / scale[d]));
                }
            }
        }
        let Some((_, d, plane)) = best else { return 0 };
        triangles.partition(|t| centroid_on(t, axes, d) < plane)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bvh_core::TriMesh;

    /// Two clusters of triangles: every rule must separate them.
    #[test]
    fn rules_separate_two_clusters() {
        let a = TriMesh::uv_sphere(Point::new(-5.0, 0.0, 0.0), 1.0, 6, 8);
        let b = TriMesh::uv_sphere(Point::new(5.0, 0.0, 0.0), 1.0, 6, 8);
        let all: Vec<[Point; 3]> = a.triangles().chain(b.triangles()).map(|t| t.vertices()).collect();
        for rule in [Split::penalty(), Split::Median, Split::Mean, Split::sah()] {
            let mut vertices: Vec<[Point; 3]> = all.iter().rev().copied().collect();
            let mut indices: Vec<u32> = (0..all.len() as u32).rev().collect();
            let mut tris = NodeTriangles::new(&mut vertices, &mut indices);
            let frame = SplitFrame { axes: Matrix::identity(), lo: [-6.0, -1.0, -1.0], hi: [6.0, 1.0, 1.0] };
            let k = rule.split(&mut tris, &frame);
            assert_eq!(k, a.triangle_count(), "{rule:?}");
            let left_x: Vec<bool> = vertices.iter().map(|v| (v[0].x + v[1].x + v[2].x) < 0.0).collect();
            assert!(left_x[..k].iter().all(|&l| l) && left_x[k..].iter().all(|&l| !l), "{rule:?}");
            // Indices moved with their vertices.
            assert!(indices.iter().zip(&vertices).all(|(&i, v)| all[i as usize] == *v), "{rule:?}");
        }
    }
}
