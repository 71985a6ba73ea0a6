//! How an OBB chooses its axes: hull-sampled PCA (paper 000 §1.3.2), area-weighted hull PCA
//! (paper 003 §1.2) or full-vertex PCA (the classic baseline). The extents always come from all
//! of the node's vertices, so every choice yields a box that contains the geometry.

use bvh_core::{Aabb, Matrix, Obb, Point, Real, axes_of_covariance, principal_axes};
use nalgebra::{Matrix3, Vector3};

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
}

impl ObbFit {
    /// Paper 000's hull-sampled PCA with `k = 8` slabs.
    pub const fn hull_sampled() -> Self {
        Self { method: FitMethod::HullSampled { slabs: 8 }, keep_smaller_aabb: true }
    }

    /// Paper 003's area-weighted hull PCA with `k = 8` slabs.
    pub const fn area_weighted_hull() -> Self {
        Self { method: FitMethod::AreaWeightedHull { slabs: 8 }, keep_smaller_aabb: true }
    }

    /// Full-vertex PCA (RAPID's classic fit uses all geometry).
    pub const fn full_pca() -> Self {
        Self { method: FitMethod::FullPca, keep_smaller_aabb: true }
    }

    /// The box for `corners`, the vertices of a node's triangles three by three.
    pub fn fit(&self, corners: &[Point]) -> Obb {
        self.fit_within(corners, &Aabb::from_points(corners))
    }

    /// As [`ObbFit::fit`], given the corners' bounding box `aabb`.
    pub fn fit_within(&self, corners: &[Point], aabb: &Aabb) -> Obb {
        let axes = match self.method {
            FitMethod::FullPca => principal_axes(corners),
            FitMethod::HullSampled { slabs } => hull_axes(corners, aabb, slabs),
            FitMethod::AreaWeightedHull { slabs } => area_weighted_axes(corners, aabb, slabs),
        };
        let obb = Obb::from_points_with_axes(corners, &axes);
        if self.keep_smaller_aabb && !corners.is_empty() {
            let boxed = Obb::containing_aabb(aabb);
            if boxed.volume() <= obb.volume() {
                return boxed;
            }
        }
        obb
    }
}

/// The extremes of one slab: per coordinate, the smallest and largest value and where.
#[derive(Clone, Copy)]
struct Slab {
    lo: [Real; 3],
    hi: [Real; 3],
    lo_at: [u32; 3],
    hi_at: [u32; 3],
}

impl Slab {
    const EMPTY: Self = Self {
        lo: [Real::INFINITY; 3],
        hi: [Real::NEG_INFINITY; 3],
        lo_at: [u32::MAX; 3],
        hi_at: [u32::MAX; 3],
    };
}

/// Most slabs a fit uses: the samples then live on the stack, so fitting a node allocates
/// nothing.
const MAX_SLABS: usize = 64;

/// Indices of hull samples, ascending and distinct.
struct SampleIndices {
    indices: [u32; 6 * MAX_SLABS],
    len: usize,
}

impl std::ops::Deref for SampleIndices {
    type Target = [u32];
    fn deref(&self) -> &[u32] {
        &self.indices[..self.len]
    }
}

/// Indices of the hull samples: per slab along the longest axis of `bounds`, the points extreme
/// in x, y or z.
fn hull_sample_indices(points: &[Point], bounds: &Aabb, slabs: u32) -> SampleIndices {
    let slabs = (slabs as usize).clamp(1, MAX_SLABS);
    let mut extremes = [Slab::EMPTY; MAX_SLABS];
    let extremes = &mut extremes[..slabs];
    if !points.is_empty() {
        let extent = bounds.extents();
        let axis = extent.imax();
        let scale = if extent[axis] > 0.0 { slabs as Real / extent[axis] } else { 0.0 };
        for (i, p) in points.iter().enumerate() {
            let slab = &mut extremes[(((p[axis] - bounds.mins[axis]) * scale) as usize).min(slabs - 1)];
            for d in 0..3 {
                if p[d] < slab.lo[d] {
                    slab.lo[d] = p[d];
                    slab.lo_at[d] = i as u32;
                }
                if p[d] > slab.hi[d] {
                    slab.hi[d] = p[d];
                    slab.hi_at[d] = i as u32;
                }
            }
        }
    }
    let mut samples = SampleIndices { indices: [0; 6 * MAX_SLABS], len: 0 };
    for i in extremes.iter().flat_map(|s| s.lo_at.into_iter().chain(s.hi_at)).filter(|&i| i != u32::MAX) {
        samples.indices[samples.len] = i;
        samples.len += 1;
    }
    let found = &mut samples.indices[..samples.len];
    found.sort_unstable();
    let mut distinct = 0;
    for k in 0..found.len() {
        if distinct == 0 || found[k] != found[distinct - 1] {
            found[distinct] = found[k];
            distinct += 1;
        }
    }
    samples.len = distinct;
    samples
}

/// PCA axes of the hull samples of `points`.
fn hull_axes(points: &[Point], bounds: &Aabb, slabs: u32) -> Matrix {
    let indices = hull_sample_indices(points, bounds, slabs);
    let mut samples = [Point::origin(); 6 * MAX_SLABS];
    for (sample, &i) in samples.iter_mut().zip(indices.iter()) {
        *sample = points[i as usize];
    }
    principal_axes(&samples[..indices.len()])
}

/// The hull sample points `S'` of paper 000.
pub fn hull_samples(points: &[Point], slabs: u32) -> Vec<Point> {
    hull_sample_indices(points, &Aabb::from_points(points), slabs)
        .iter()
        .map(|&i| points[i as usize])
        .collect()
}

/// Axes from the area-weighted covariance of the triangles that own a hull sample (paper 003):
/// each triangle contributes its area spread uniformly over its surface, and the centre is the
/// area-weighted mean of their centroids (the paper's printed `/2` is a typo for `/W`).
fn area_weighted_axes(corners: &[Point], bounds: &Aabb, slabs: u32) -> Matrix {
    let mut triangles: Vec<usize> =
        hull_sample_indices(corners, bounds, slabs).iter().map(|&i| i as usize / 3).collect();
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
        return hull_axes(corners, bounds, slabs);
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
    fn hull_samples_are_few_and_extreme() {
        let sphere = TriMesh::uv_sphere(Point::origin(), 1.0, 24, 48);
        let pts = corners(&sphere);
        let samples = hull_samples(&pts, 8);
        assert!(samples.len() <= 6 * 8 && samples.len() >= 8);
        let bounds = Aabb::from_points(&pts);
        for d in 0..3 {
            assert!(
                samples.iter().any(|p| p[d] == bounds.mins[d])
                    && samples.iter().any(|p| p[d] == bounds.maxs[d])
            );
        }
        assert!(hull_samples(&[], 8).is_empty());
    }
}
