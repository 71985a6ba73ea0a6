//! The brute-force references, random poses and mesh helpers the integration tests share.

#![allow(dead_code)]

use bvh_build::Preset;
use bvh_core::triangle::swept_triangle_intersects;
use bvh_core::{Isometry, Real, RelativePose, TriMesh, Triangle, Vector};
use rand::Rng;

/// The meshes as one.
pub(crate) fn joined(meshes: &[TriMesh]) -> TriMesh {
    let (mut vertices, mut triangles) = (Vec::new(), Vec::new());
    for mesh in meshes {
        let offset = vertices.len() as u32;
        vertices.extend_from_slice(mesh.vertices());
        triangles.extend(mesh.indices().iter().map(|t| t.map(|i| i + offset)));
    }
    TriMesh::new(vertices, triangles).expect("indices offset into the joined vertices")
}

/// A pose within `reach` of the origin on each axis, turned up to 3 radians about a random axis.
pub(crate) fn random_pose(rng: &mut impl Rng, reach: Real) -> Isometry {
    let t =
        Vector::new(rng.gen_range(-reach..reach), rng.gen_range(-reach..reach), rng.gen_range(-reach..reach));
    let axis = Vector::new(rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0));
    Isometry::new(t, axis * rng.gen_range(0.0..3.0))
}

/// Whether B, starting at `start` (its pose in A's frame) and translated by `motion`, touches A
/// on the way, by brute force over all triangle pairs.
pub(crate) fn brute_swept(a: &TriMesh, b: &TriMesh, start: &RelativePose, motion: &Vector) -> bool {
    let moved: Vec<Triangle> = b.triangles().map(|t| t.placed(start)).collect();
    a.triangles().any(|ta| moved.iter().any(|tb| swept_triangle_intersects(&ta, tb, motion)))
}

/// Every preset, and `co-binned` with its binned construction at every size (the generated
/// meshes are small, and `co-binned` builds small meshes top down), also with leaves longer than
/// the queries' per-triangle marks reach (eight) and than one mask of a leaf pair's box tests
/// holds (64).
pub(crate) fn presets_and_binned_at_every_size() -> Vec<Preset> {
    let co_binned = Preset::co_binned();
    let binned = Preset {
        name: "co-binned at every size",
        config: co_binned.config.with_top_down_up_to(0, co_binned.config.top_down_leaf_size),
        ..co_binned
    };
    let long_leaves =
        Preset { name: "co-binned with leaves of 11", config: binned.config.with_leaf_size(11), ..binned };
    let longer_leaves =
        Preset { name: "co-binned with leaves of 300", config: binned.config.with_leaf_size(300), ..binned };
    Preset::ALL.into_iter().chain([binned, long_leaves, longer_leaves]).collect()
}
