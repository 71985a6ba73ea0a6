//! Exact queries between two posed hierarchies: does A touch B, which triangle pairs intersect
//! and where, which pairs come within a clearance distance, how close the meshes come, and when
//! a moving mesh first touches another.
//!
//! ```
//! use bvh_build::{Bvh, BuildConfig};
//! use bvh_core::{Isometry, Obb, Point, TriMesh};
//! use bvh_query::{PairCache, Posed, Query, QueryOptions, QueryStats};
//!
//! let sphere = TriMesh::uv_sphere(Point::origin(), 1.0, 16, 32);
//! let tree: Bvh<Obb> = Bvh::build(sphere, &BuildConfig::co());
//! let (here, there) = (Isometry::identity(), Isometry::translation(1.5, 0.0, 0.0));
//! let query = Query::new(Posed::new(&tree, &here), Posed::new(&tree, &there), QueryOptions::default())
//!     .expect("finite poses");
//! let mut stats = QueryStats::default();
//! assert!(query.intersects(None, &mut stats).is_some());
//! // Along a path, a caller-owned cache tries the last contact first.
//! let mut cache = PairCache::new();
//! assert!(query.intersects(Some(&mut cache), &mut ()).is_some());
//! assert!(!query.intersecting_pairs(&mut ()).is_empty());
//! ```
//!
//! The traversal works in A's frame with B's pose relative to A computed once per query; node
//! volumes are never refitted (paper 000's layered update). OBB pairs run the pre-judge before
//! the separating axis test unless [`QueryOptions::prejudge`] is off. Statistics are a type
//! parameter: pass `&mut ()` to count nothing at no cost, or a [`QueryStats`].

mod batch;
mod cache;
mod containment;
mod distance;
mod impact;
mod node_test;
mod prefetch;
mod queries;
mod regions;
mod stats;
mod traverse;
mod tree_pair;

pub use batch::{distance_at_poses, intersects_at_poses, intersects_pairs};
pub use cache::PairCache;
pub use containment::Containment;
pub use distance::DistanceOptions;
pub use impact::{Impact, MAX_ADVANCES, Moving, time_of_impact};
pub use node_test::NodeTest;
pub use queries::{Contact, MAX_SWEEP_STEPS, NearPair, Posed, Query, QueryOptions, SweepError, TrianglePair};
pub use regions::{ContactRegion, Polyline, Surfaces};
pub use stats::{QueryStats, Stats, VolumeTest};
pub use tree_pair::{TreePairVisitor, visit_tree_pair};
