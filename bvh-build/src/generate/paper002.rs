//! Paper 002's test objects, rebuilt with its triangle counts (its models are not public): a
//! teapot-like object of 530 triangles (body, lid knob, handle, spout) and closed, bumpy models of
//! 2,124, 4,031, 6,009 and 8,106 triangles, all about one unit across.

use super::parts::{MeshBuilder, torus, tube};
use super::scenes::exactly;
use bvh_core::{Isometry, Point, Real, TriMesh, Vector};

/// The model sizes of paper 002's tables 1 and 2.
pub const PAPER002_MODEL_TRIANGLES: [usize; 4] = [2_124, 4_031, 6_009, 8_106];

/// A teapot-like object of exactly 530 triangles, about 0.5 across.
pub fn teapot() -> TriMesh {
    let mut b = MeshBuilder::new();
    b.add(&TriMesh::uv_sphere(Point::origin(), 0.2, 10, 16), &Isometry::identity());
    b.add(&TriMesh::uv_sphere(Point::new(0.0, 0.0, 0.21), 0.03, 4, 8), &Isometry::identity());
    b.add(
        &torus(0.08, 0.015, 12, 6),
        &Isometry::new(Vector::new(-0.22, 0.0, 0.0), Vector::new(std::f32::consts::FRAC_PI_2, 0.0, 0.0)),
    );
    b.add(
        &tube(0.03, 0.02, 0.15, 6),
        &Isometry::new(Vector::new(0.17, 0.0, 0.0), Vector::new(0.0, 1.0, 0.0)),
    );
    exactly(b, 530)
}

/// A closed, bumpy sphere of radius about 0.5 with exactly `triangles` triangles (at least 64).
pub fn bumpy_model(triangles: usize) -> TriMesh {
    // A UV sphere has 2 * segments * (rings - 1) triangles; take the largest that fits.
    let segments = ((triangles as Real / 4.0).sqrt() as u32).max(4);
    let rings = ((triangles as u32 / (2 * segments)) + 1).max(3);
    let sphere = TriMesh::uv_sphere(Point::origin(), 0.5, rings, segments);
    let bumped: Vec<Point> = sphere
        .vertices()
        .iter()
        .map(|p| {
            let bump = 1.0 + 0.08 * (7.0 * p.x).sin() * (5.0 * p.y).cos() * (6.0 * p.z).sin();
            Point::from(p.coords * bump)
        })
        .collect();
    let mesh = TriMesh::new(bumped, sphere.indices().to_vec()).expect("a bumped sphere is a valid mesh");
    let mut b = MeshBuilder::new();
    b.add(&mesh, &Isometry::identity());
    exactly(b, triangles)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_papers_triangle_counts() {
        assert_eq!(teapot().triangle_count(), 530);
        for n in PAPER002_MODEL_TRIANGLES {
            assert_eq!(bumpy_model(n).triangle_count(), n);
        }
    }
}
