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
//! let query = Query::new(Posed::new(&tree, here), Posed::new(&tree, there), QueryOptions::default());
//! assert!(query.intersects().is_some());
//! assert!(!query.intersecting_pairs().is_empty());
//! // Along a path, a caller-owned cache tries the last contact first.
//! let mut cache = PairCache::new();
//! assert!(query.intersects_cached(&mut cache).is_some());
//! // Every query also comes counted: its work in a `QueryStats` (or `&mut ()`: nothing).
//! let mut stats = QueryStats::default();
//! assert!(query.intersects_counted(Some(&mut cache), &mut stats).is_some());
//! assert!(stats.triangle_tests > 0);
//! ```
//!
//! Every query has one scheme of calls: `query.name(..)` for the common case, `name_cached(..,
//! &mut cache)` where a pair cache helps (first contact, distance), and `name_counted(..)` with
//! everything explicit – the cache as an `Option` and the statistics last, a type parameter:
//! `&mut ()` counts nothing at no cost, a [`QueryStats`] counts volume and triangle tests.
//!
//! The traversal works in A's frame with B's pose relative to A computed once per query; node
//! volumes are never refitted (paper 000's layered update). OBB pairs run the pre-judge before
//! the separating axis test unless [`QueryOptions::prejudge`] is off.

mod all_pairs;
mod answers;
mod batch;
mod cache;
mod containment;
mod distance;
mod first_contact;
mod impact;
mod node_test;
mod placed_run;
mod query;
mod radix;
mod regions;
mod stats;
mod sweeps;
mod traverse;
mod tree_pair;
mod wide_search;
mod workspace;

pub use answers::{Contact, NearPair, TrianglePair};
pub use batch::{distance_at_poses, intersects_at_poses, intersects_pairs};
pub use cache::PairCache;
pub use containment::Containment;
pub use distance::DistanceOptions;
pub use impact::{Impact, MAX_ADVANCES, Moving, time_of_impact};
pub use node_test::NodeTest;
pub use query::{Posed, Query, QueryOptions};
pub use regions::{ContactRegion, Polyline, Surfaces};
pub use stats::{QueryStats, Stats, VolumeTest};
pub use sweeps::{MAX_SWEEP_STEPS, SweepError};
pub use tree_pair::{HierarchyQuery, TreePairVisitor, visit_tree_pair};
pub use workspace::Workspace;
