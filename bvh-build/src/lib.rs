//! Bounding-volume hierarchies over one triangle mesh: a per-object root volume (cube AABB,
//! sphere, AABB or OBB) above a binary tree of node volumes (OBB, AABB or sphere), with every
//! configuration the papers compare available as a named [`Preset`].
//!
//! ```
//! use bvh_build::{Bvh, BuildConfig, Hierarchy, Preset};
//! use bvh_core::{Obb, Point, TriMesh};
//!
//! let mesh = TriMesh::uv_sphere(Point::origin(), 1.0, 16, 32);
//! // Paper 000's CO tree, monomorphised over OBB nodes:
//! let tree: Bvh<Obb> = Bvh::build(mesh.clone(), &BuildConfig::co());
//! tree.assert_well_formed();
//! // Paper 004's shape-classified tree picks its node volume at run time:
//! let classified = Hierarchy::build(mesh, &Preset::classified());
//! assert!(matches!(classified, Hierarchy::Sphere(_)));
//! ```
//!
//! - OBB fitting ([`ObbFit`]): hull-sampled PCA (paper 000), area-weighted hull PCA (paper 003),
//!   full-vertex PCA.
//! - Split rules ([`SplitRule`], [`Split`]): paper 003's penalty function with binned prefix
//!   counts, the centroid median, binned SAH.
//! - Leaves hold up to `T` triangles and have no volume of their own (papers 001, 003).

mod binned;
mod bins;
mod build;
mod bvh;
mod bytes;
mod fit;
pub mod generate;
mod neighbours;
mod numbering;
mod preset;
mod refit;
mod root;
mod split;
mod validate;
mod vertex_runs;
mod volume;
mod wide;

pub use bvh::{Bvh, Child, ChildRef};
pub use bytes::LoadError;
pub use fit::{FitMethod, ObbFit};
pub use preset::{BuildConfig, Construction, Hierarchy, NodeKind, Preset};
pub use root::{RootKind, RootVolume};
pub use split::{NodeTriangles, PenaltySplit, SahSplit, Split, SplitFrame, SplitRule};
pub use validate::Malformed;
pub use volume::{FittedChild, NodeVolume, VolumeKind};
pub use wide::{WideChild, WideNode, WideNodes};
