//! Conversions to parry3d's types, so the same geometry can be handed to both libraries.

use bvh_core::{Isometry, TriMesh, Triangle, Vector};
use parry3d::bounding_volume::BoundingVolume;
use parry3d::math::{Pose, Rotation, Vector as ParryVector};
use parry3d::partitioning::BvhNode;
use parry3d::shape::Triangle as ParryTriangle;

/// A vector (or point coordinates) as parry's vector.
pub fn vector(v: &Vector) -> ParryVector {
    ParryVector::new(v.x, v.y, v.z)
}

/// A pose as parry's pose (same quaternion, same translation).
pub fn pose(iso: &Isometry) -> Pose {
    let q = iso.rotation.coords;
    Pose::from_parts(vector(&iso.translation.vector), Rotation::from_xyzw(q.x, q.y, q.z, q.w))
}

/// A triangle as parry's triangle.
pub fn triangle(t: &Triangle) -> ParryTriangle {
    ParryTriangle::new(vector(&t.a.coords), vector(&t.b.coords), vector(&t.c.coords))
}

/// The vertex and index buffers `parry3d::shape::TriMesh::new` takes, so a benchmark can copy
/// them outside its timer.
pub fn mesh_buffers(mesh: &TriMesh) -> (Vec<ParryVector>, Vec<[u32; 3]>) {
    (mesh.vertices().iter().map(|p| vector(&p.coords)).collect(), mesh.indices().to_vec())
}

/// parry3d's triangle mesh (with its BVH) over the same vertices and triangles.
pub fn trimesh(mesh: &TriMesh) -> Result<parry3d::shape::TriMesh, String> {
    let (vertices, indices) = mesh_buffers(mesh);
    parry3d::shape::TriMesh::new(vertices, indices).map_err(|e| format!("parry3d refuses the mesh: {e}"))
}

/// Whether two parry meshes touch, B at `pose` in A's frame, by parry's public
/// `intersection_test`.
pub fn intersects(a: &parry3d::shape::TriMesh, b: &parry3d::shape::TriMesh, pose: &Pose) -> bool {
    parry3d::query::intersection_test(&Pose::IDENTITY, a, pose, b).is_ok_and(|r| r.intersecting)
}

/// Whether two parry meshes touch, B at `pose` in A's frame, by the fastest route parry's public
/// API offers: a simultaneous walk of the two BVHs (`Bvh::leaf_pairs`, B's node boxes moved into
/// A's frame) stopping at the first pair parry's triangle test calls intersecting.
pub fn bvtt_intersects(a: &parry3d::shape::TriMesh, b: &parry3d::shape::TriMesh, pose: &Pose) -> bool {
    let overlap = |na: &BvhNode, nb: &BvhNode| na.aabb().intersects(&nb.aabb().transform_by(pose));
    a.bvh().leaf_pairs(b.bvh(), overlap).any(|(i, j)| {
        let moved = b.triangle(j).transformed(pose);
        parry3d::query::intersection_test(&Pose::IDENTITY, &a.triangle(i), &Pose::IDENTITY, &moved)
            .is_ok_and(|r| r.intersecting)
    })
}
