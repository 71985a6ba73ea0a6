//! Split rules: how a node's triangles are divided between its two children.
//!
//! A rule sees the triangles of one node and the node's axes, reorders the triangles so the
//! left child's come first and says how many that is. The builder falls back to halving the
//! node when a rule cannot separate anything (all centroids equal, say).

use bvh_core::{Matrix, Real, TriMesh};

/// A strategy for dividing a node's triangles.
pub trait SplitRule: Sync {
    /// Reorders `triangles` (indices into `mesh`) so that the first `k` go to the left child,
    /// and returns `k`. Returning `0` or `triangles.len()` means "no useful split".
    fn split(&self, mesh: &TriMesh, triangles: &mut [u32], axes: &Matrix) -> usize;
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
    fn split(&self, mesh: &TriMesh, triangles: &mut [u32], axes: &Matrix) -> usize {
        match self {
            Split::Penalty(rule) => rule.split(mesh, triangles, axes),
            Split::Median => MedianSplit.split(mesh, triangles, axes),
            Split::Sah(rule) => rule.split(mesh, triangles, axes),
        }
    }
}

/// A triangle projected on the node's three axes.
#[derive(Clone, Copy)]
struct Projected {
    lo: [Real; 3],
    hi: [Real; 3],
    centroid: [Real; 3],
}

fn project(mesh: &TriMesh, triangles: &[u32], axes: &Matrix) -> Vec<Projected> {
    let axes_t = axes.transpose();
    triangles
        .iter()
        .map(|&t| {
            let v = mesh.triangle(t as usize).vertices().map(|p| axes_t * p.coords);
            Projected {
                lo: std::array::from_fn(|d| v[0][d].min(v[1][d]).min(v[2][d])),
                hi: std::array::from_fn(|d| v[0][d].max(v[1][d]).max(v[2][d])),
                centroid: std::array::from_fn(|d| (v[0][d] + v[1][d] + v[2][d]) / 3.0),
            }
        })
        .collect()
}

/// Moves the triangles whose flag is set to the front, keeping order; returns how many.
fn partition(triangles: &mut [u32], left: impl Fn(usize) -> bool) -> usize {
    let mut right = Vec::new();
    let mut k = 0;
    for i in 0..triangles.len() {
        let t = triangles[i];
        // Slots before `i` are already read, so the left run can be compacted in place.
        if left(i) {
            triangles[k] = t;
            k += 1;
        } else {
            right.push(t);
        }
    }
    triangles[k..].copy_from_slice(&right);
    k
}

/// Extent `[lo, hi]` of the triangles along axis `d`, and the bin width for `bins` bins.
fn axis_range(p: &[Projected], d: usize, bins: usize) -> Option<(Real, Real)> {
    let lo = p.iter().map(|x| x.lo[d]).fold(Real::INFINITY, Real::min);
    let hi = p.iter().map(|x| x.hi[d]).fold(Real::NEG_INFINITY, Real::max);
    let width = (hi - lo) / bins as Real;
    (width > 0.0 && width.is_finite()).then_some((lo, width))
}

fn bin_of(value: Real, lo: Real, width: Real, bins: usize) -> usize {
    (((value - lo) / width) as usize).min(bins - 1)
}

impl SplitRule for PenaltySplit {
    fn split(&self, mesh: &TriMesh, triangles: &mut [u32], axes: &Matrix) -> usize {
        let p = project(mesh, triangles, axes);
        let bins = self.bins.max(2) as usize;
        let n = p.len() as Real;
        let mut best: Option<(Real, usize, Real)> = None;
        for d in 0..3 {
            let Some((lo, width)) = axis_range(&p, d, bins) else { continue };
            let (mut ends, mut starts) = (vec![0u32; bins], vec![0u32; bins]);
            for x in &p {
                ends[bin_of(x.hi[d], lo, width, bins)] += 1;
                starts[bin_of(x.lo[d], lo, width, bins)] += 1;
            }
            // Plane j sits between bins j-1 and j: wholly left = ends in bins < j,
            // wholly right = starts in bins >= j.
            let mut left = 0u32;
            let mut right: u32 = starts.iter().sum();
            for j in 1..bins {
                left += ends[j - 1];
                right -= starts[j - 1];
                let crossing = n - (left + right) as Real;
                let cost = (left as Real - right as Real).abs() + self.lambda * crossing;
                if best.is_none_or(|b| cost < b.0) {
                    best = Some((cost, d, lo + j as Real * width));
                }
            }
        }
        let Some((_, d, plane)) = best else { return 0 };
        partition(triangles, |i| p[i].centroid[d] < plane)
    }
}

/// The centroid-median split (the classic balanced baseline).
struct MedianSplit;

impl SplitRule for MedianSplit {
    fn split(&self, mesh: &TriMesh, triangles: &mut [u32], axes: &Matrix) -> usize {
        let p = project(mesh, triangles, axes);
        let spread = |d: usize| {
            let (lo, hi) = p.iter().fold((Real::INFINITY, Real::NEG_INFINITY), |(lo, hi), x| {
                (lo.min(x.centroid[d]), hi.max(x.centroid[d]))
            });
            hi - lo
        };
        let d = (0..3).max_by(|&a, &b| spread(a).total_cmp(&spread(b))).unwrap_or(0);
        let mut order: Vec<usize> = (0..p.len()).collect();
        let k = p.len() / 2;
        order.select_nth_unstable_by(k, |&a, &b| p[a].centroid[d].total_cmp(&p[b].centroid[d]));
        let mut left = vec![false; p.len()];
        for &i in &order[..k] {
            left[i] = true;
        }
        partition(triangles, |i| left[i])
    }
}

impl SplitRule for SahSplit {
    fn split(&self, mesh: &TriMesh, triangles: &mut [u32], axes: &Matrix) -> usize {
        let p = project(mesh, triangles, axes);
        let bins = self.bins.max(2) as usize;
        let mut best: Option<(Real, usize, Real)> = None;
        for d in 0..3 {
            let lo = p.iter().map(|x| x.centroid[d]).fold(Real::INFINITY, Real::min);
            let hi = p.iter().map(|x| x.centroid[d]).fold(Real::NEG_INFINITY, Real::max);
            let width = (hi - lo) / bins as Real;
            if !(width > 0.0 && width.is_finite()) {
                continue;
            }
            let mut count = vec![0u32; bins];
            let mut bounds = vec![Bounds::EMPTY; bins];
            for x in &p {
                let b = bin_of(x.centroid[d], lo, width, bins);
                count[b] += 1;
                bounds[b].grow(x);
            }
            // Sweep from the right for suffix areas, then from the left.
            let mut right_cost = vec![0.0; bins];
            let (mut acc, mut n) = (Bounds::EMPTY, 0u32);
            for j in (1..bins).rev() {
                acc.merge(&bounds[j]);
                n += count[j];
                right_cost[j] = acc.half_area() * n as Real;
            }
            let (mut acc, mut n) = (Bounds::EMPTY, 0u32);
            for j in 1..bins {
                acc.merge(&bounds[j - 1]);
                n += count[j - 1];
                let cost = acc.half_area() * n as Real + right_cost[j];
                if best.is_none_or(|b| cost < b.0) {
                    best = Some((cost, d, lo + j as Real * width));
                }
            }
        }
        let Some((_, d, plane)) = best else { return 0 };
        partition(triangles, |i| p[i].centroid[d] < plane)
    }
}

/// Bounds on the node's axes, for the SAH.
#[derive(Clone, Copy)]
struct Bounds {
    lo: [Real; 3],
    hi: [Real; 3],
}

impl Bounds {
    const EMPTY: Self = Self { lo: [Real::INFINITY; 3], hi: [Real::NEG_INFINITY; 3] };

    fn grow(&mut self, x: &Projected) {
        for d in 0..3 {
            self.lo[d] = self.lo[d].min(x.lo[d]);
            self.hi[d] = self.hi[d].max(x.hi[d]);
        }
    }

    fn merge(&mut self, o: &Self) {
        for d in 0..3 {
            self.lo[d] = self.lo[d].min(o.lo[d]);
            self.hi[d] = self.hi[d].max(o.hi[d]);
        }
    }

    fn half_area(&self) -> Real {
        let e: [Real; 3] = std::array::from_fn(|d| (self.hi[d] - self.lo[d]).max(0.0));
        e[0] * e[1] + e[1] * e[2] + e[2] * e[0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bvh_core::Point;

    /// Two clusters of triangles: every rule must separate them.
    #[test]
    fn rules_separate_two_clusters() {
        let a = TriMesh::uv_sphere(Point::new(-5.0, 0.0, 0.0), 1.0, 6, 8);
        let b = TriMesh::uv_sphere(Point::new(5.0, 0.0, 0.0), 1.0, 6, 8);
        let offset = a.vertices().len() as u32;
        let vertices = [a.vertices(), b.vertices()].concat();
        let indices =
            [a.indices().to_vec(), b.indices().iter().map(|t| t.map(|i| i + offset)).collect()].concat();
        let mesh = TriMesh::new(vertices, indices).unwrap();
        let half = a.triangle_count();
        for rule in [Split::penalty(), Split::Median, Split::sah()] {
            let mut tris: Vec<u32> = (0..mesh.triangle_count() as u32).rev().collect();
            let k = rule.split(&mesh, &mut tris, &Matrix::identity());
            assert_eq!(k, half, "{rule:?}");
            let left_x: Vec<bool> =
                tris.iter().map(|&t| mesh.triangle(t as usize).centroid().x < 0.0).collect();
            assert!(left_x[..k].iter().all(|&l| l) && left_x[k..].iter().all(|&l| !l), "{rule:?}");
        }
    }
}
