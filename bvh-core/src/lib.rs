//! Volumes, exact predicates and meshes: the floor every other `bvh-*` crate stands on.
//!
//! - Bounding volumes — [`Aabb`], [`CubeAabb`] (paper 000's per-object root), [`Sphere`],
//!   [`Obb`] — with fitting, merging, containment and rigid motion.
//! - Overlap tests between volumes in two frames ([`Overlap`], B's pose relative to A given as
//!   one [`RelativePose`]) and the OBB pre-judge ([`obb_prejudge`]); lower bounds on their
//!   distance ([`Separation`]).
//! - Exact triangle predicates ([`triangles_intersect`], [`segment_intersects_triangle`]) built
//!   on exact orientation signs ([`predicates`]), triangle–box overlap and closest points.
//! - [`TriMesh`], validated when built, and the sphere deviation rate of paper 004.
//! - [`RigidMotion`]: the poses between two poses (slerp or screw) and how fast points move.
//!
//! ```
//! use bvh_core::{Isometry, Point, TriMesh, triangles_intersect};
//!
//! let a = TriMesh::uv_sphere(Point::origin(), 1.0, 8, 16);
//! let b = TriMesh::uv_sphere(Point::origin(), 1.0, 8, 16);
//! let pose_b = Isometry::translation(1.5, 0.0, 0.0);
//! let touching = a.triangles().any(|ta| {
//!     b.triangles().any(|tb| triangles_intersect(&ta, &tb.transformed(&pose_b)))
//! });
//! assert!(touching);
//! ```

mod aabb;
pub mod bits;
mod box_lanes;
mod cube_aabb;
mod math;
mod mesh;
mod motion;
mod neighbours;
mod obb;
pub mod overlap;
pub mod parallel;
mod patches;
mod pca;
pub mod predicates;
mod prefetch;
mod quick_hash;
mod separation;
mod shape;
mod sphere;
pub mod triangle;
mod union_find;

pub use aabb::Aabb;
pub use box_lanes::{BOX_LANES, BoxLanes};
pub use cube_aabb::CubeAabb;
pub use math::{
    Isometry, Matrix, Point, PoseError, PoseOf, Real, RelativePose, Rotation, Translation, Vector,
    check_finite, max, mean, min, next_up, pose_is_finite, rounding_slack,
};
pub use mesh::{MeshError, TriMesh};
pub use motion::{Interpolation, RigidMotion};
pub use neighbours::{MAX_AROUND, TriangleNeighbours};
pub use obb::Obb;
pub use overlap::{ObbLanes, Overlap, PlacedObb, PreJudge, obb_prejudge};
pub use patches::{PATCH_CHUNK, PatchPoint, Patches};
pub use pca::{axes_of_covariance, principal_axes};
pub use prefetch::{prefetch, prefetch_all};
pub use quick_hash::{QuickHasher, QuickMap, QuickSet};
pub use separation::Separation;
pub use shape::{SPHERE_DEVIATION_THRESHOLD, sphere_deviation_rate};
pub use sphere::Sphere;
pub use triangle::{
    ClosestPoints, CoplanarPolygon, EdgeCrossings, Segment, Triangle, TriangleIntersection,
    closest_points_triangles, segment_intersects_triangle, triangle_intersection,
    triangle_intersection_with_edges, triangles_intersect,
};

pub use union_find::UnionFind;

/// nalgebra, re-exported for users who need more than the aliases above.
pub use nalgebra;
