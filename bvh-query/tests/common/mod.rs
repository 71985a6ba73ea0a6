//! The brute-force references the integration tests share.

use bvh_core::triangle::swept_triangle_intersects;
use bvh_core::{RelativePose, TriMesh, Triangle, Vector};

/// Whether B, starting at `start` (its pose in A's frame) and translated by `motion`, touches A
/// on the way, by brute force over all triangle pairs.
pub(crate) fn brute_swept(a: &TriMesh, b: &TriMesh, start: &RelativePose, motion: &Vector) -> bool {
    let moved: Vec<Triangle> = b.triangles().map(|t| t.placed(start)).collect();
    a.triangles().any(|ta| moved.iter().any(|tb| swept_triangle_intersects(&ta, tb, motion)))
}
