//! Shape measures that choose volumes (paper 004 §2.1).

use crate::math::mean;
use crate::math::{Point, Real};

/// Paper 004's threshold: objects whose deviation rate is at most this get sphere volumes.
pub const SPHERE_DEVIATION_THRESHOLD: Real = 1.0 / 7.0;

/// The sphere deviation rate `psi = 1 - mean_i(d_i) / r`, where `d_i` is the distance of vertex
/// `i` from the vertices' mean and `r` the largest of them (the paper names the measure but
/// omits its formula; this is the one docs/papers/paper004.md states). Zero for points on a sphere, approaching one for elongated or flat
/// objects. Fewer than two distinct points give zero.
pub fn sphere_deviation_rate(points: &[Point]) -> Real {
    let center = mean(points);
    let distances = || points.iter().map(|p| (p - center).norm() as f64);
    let max = distances().fold(0.0, f64::max);
    if max == 0.0 {
        return 0.0;
    }
    let mean_distance = distances().sum::<f64>() / points.len() as f64;
    (1.0 - mean_distance / max) as Real
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vector;
    use crate::mesh::TriMesh;

    #[test]
    fn sphere_scores_zero_and_a_rod_scores_high() {
        let sphere = TriMesh::uv_sphere(Point::origin(), 3.0, 16, 24);
        assert!(sphere_deviation_rate(sphere.vertices()) < 1e-5);
        let rod: Vec<Point> = (0..=100).map(|i| Point::new(i as Real - 50.0, 0.0, 0.0)).collect();
        let psi = sphere_deviation_rate(&rod);
        assert!((psi - 0.5).abs() < 0.01, "uniform rod: mean distance is half the max, psi = {psi}");
        let slab = TriMesh::cuboid(Point::origin(), Vector::new(10.0, 10.0, 0.1));
        assert!(sphere_deviation_rate(slab.vertices()) < SPHERE_DEVIATION_THRESHOLD);
        assert_eq!(sphere_deviation_rate(&[]), 0.0);
        assert_eq!(sphere_deviation_rate(&[Point::new(1.0, 1.0, 1.0); 4]), 0.0);
    }
}
