//! The brute-force references the integration tests share.

use bvh_core::triangle::swept_triangle_intersects;
use bvh_core::{RelativePose, TriMesh, Triangle, Vector};

/// B's triangles moved into A's frame by `rel`, point by point as a query moves them.
pub(crate) fn moved(b: &TriMesh, rel: &RelativePose) -> Vec<Triangle> {
    b.triangles().map(|t| t.placed(rel)).collect()
}

/// Whether B, starting at `start` (its pose in A's frame) and translated by `motion`, touches A
/// on the way, by brute force over all triangle pairs.
pub(crate) fn brute_swept(a: &TriMesh, b: &TriMesh, start: &RelativePose, motion: &Vector) -> bool {
    let moved = moved(b, start);
    a.triangles().any(|ta| moved.iter().any(|tb| swept_triangle_intersects(&ta, tb, motion)))
}
