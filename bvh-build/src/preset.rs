//! Build settings, the papers' configurations as named presets, and [`Hierarchy`], a tree whose
//! node volume is chosen at run time (by a preset, or per object by its shape).

use crate::bvh::Bvh;
use crate::fit::ObbFit;
use crate::root::{RootKind, RootVolume};
use crate::split::Split;
use bvh_core::{
    Aabb, MeshError, Obb, Point, Real, SPHERE_DEVIATION_THRESHOLD, Sphere, TriMesh, sphere_deviation_rate,
};

/// Everything the builder needs besides the node volume type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BuildConfig {
    /// The per-object root volume.
    pub root: RootKind,
    /// How OBBs (node volumes and an OBB root) choose their axes.
    pub fit: ObbFit,
    /// How a node's triangles are divided.
    pub split: Split,
    /// Most triangles a leaf holds (`T`); leaves have no volume of their own. Larger leaves mean
    /// fewer volume tests and more triangle tests.
    pub leaf_size: usize,
    /// Nodes with at least this many triangles build their two subtrees in parallel.
    pub parallel_threshold: usize,
    /// In which order nodes are fitted and split.
    pub construction: Construction,
    /// A mesh of at most this many triangles is built top down ([`Construction::NodeFrames`])
    /// whatever `construction` says: a small mesh builds in milliseconds either way.
    pub top_down_up_to: usize,
    /// The leaf size of such a small mesh (`leaf_size` serves the rest): its queries, whose
    /// fixed costs weigh more, gain from smaller leaves than a large mesh's.
    pub top_down_leaf_size: usize,
}

/// How the builder goes about a tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Construction {
    /// Top down: each node's volume is fitted first and its triangles are divided by the
    /// configuration's [`Split`] along that volume's own axes. The papers' construction.
    NodeFrames,
    /// The tree's shape from binned surface-area splits of the triangles' boxes in the object's
    /// frame (the configuration's `split` is not used), then each node's volume fitted on the
    /// way back up, its axes from hull samples its children pass up. Several times faster to
    /// build; docs/build.md compares the queries' cost.
    Binned,
}

impl BuildConfig {
    /// The settings a mesh of `triangles` is built with: a small one's (an empty one's too) top
    /// down with its own leaf size, a larger one's these.
    pub(crate) fn for_mesh(&self, triangles: usize) -> Self {
        if triangles <= self.top_down_up_to {
            Self { construction: Construction::NodeFrames, leaf_size: self.top_down_leaf_size, ..*self }
        } else {
            *self
        }
    }

    /// Whether a run of `triangles` is a leaf rather than a node (a leaf size of zero still
    /// holds one triangle).
    pub(crate) fn is_leaf(&self, triangles: usize) -> bool {
        triangles <= self.leaf_size.max(1)
    }

    /// Paper 000's CO tree: cube-AABB root, hull-sampled OBBs, binned-SAH splits (paper 000
    /// names no split rule; SAH gives far fewer volume tests than the penalty function on the
    /// maintenance job, whose bays are mostly empty space). The boxes' axes are then turned
    /// towards smaller boxes ([`ObbFit::turned`], docs/build.md): fewer volume tests per query,
    /// for a longer build.
    pub const fn co() -> Self {
        Self {
            root: RootKind::CubeAabb,
            fit: ObbFit::hull_sampled().turned(),
            split: Split::sah(),
            leaf_size: 2,
            parallel_threshold: 4096,
            construction: Construction::NodeFrames,
            top_down_up_to: 0,
            top_down_leaf_size: 2,
        }
    }

    /// The same settings with another root volume.
    pub const fn with_root(self, root: RootKind) -> Self {
        Self { root, ..self }
    }

    /// The same settings with another OBB fit.
    pub const fn with_fit(self, fit: ObbFit) -> Self {
        Self { fit, ..self }
    }

    /// The same settings with another split rule.
    pub const fn with_split(self, split: Split) -> Self {
        Self { split, ..self }
    }

    /// The same settings with another leaf size.
    pub const fn with_leaf_size(self, leaf_size: usize) -> Self {
        Self { leaf_size, ..self }
    }

    /// The same settings with another construction.
    pub const fn with_construction(self, construction: Construction) -> Self {
        Self { construction, ..self }
    }

    /// The same settings, meshes of at most `triangles` built top down with leaves of at most
    /// `leaf_size`.
    pub const fn with_top_down_up_to(self, triangles: usize, leaf_size: usize) -> Self {
        Self { top_down_up_to: triangles, top_down_leaf_size: leaf_size, ..self }
    }

    /// The same settings, built on one thread.
    pub const fn sequential(self) -> Self {
        Self { parallel_threshold: usize::MAX, ..self }
    }
}

/// The node volume of a preset's tree.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NodeKind {
    /// OBB nodes.
    Obb,
    /// AABB nodes.
    Aabb,
    /// Sphere nodes.
    Sphere,
    /// Paper 004: sphere nodes when the object's sphere deviation rate is at most `threshold`,
    /// OBB nodes otherwise.
    ByShape {
        /// The deviation-rate threshold (the paper's 1/7).
        threshold: Real,
    },
}

/// A configuration the papers compare, by name.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Preset {
    /// Short name, as the bench CLI spells it.
    pub name: &'static str,
    /// Node volumes.
    pub nodes: NodeKind,
    /// Root volume, fitting, splitting, leaves.
    pub config: BuildConfig,
}

impl Preset {
    /// RAPID: an OBB tree, full-vertex PCA, splits at the centroids' mean, OBB root.
    pub const fn rapid() -> Self {
        let config =
            BuildConfig::co().with_root(RootKind::Obb).with_fit(ObbFit::full_pca()).with_split(Split::Mean);
        Self { name: "rapid", nodes: NodeKind::Obb, config }
    }

    /// SAO: sphere-and-AABB root, OBB tree below (paper 000's "traditional" hybrid).
    pub const fn sao() -> Self {
        Self { name: "sao", nodes: NodeKind::Obb, config: BuildConfig::co().with_root(RootKind::SphereAabb) }
    }

    /// AO: AABB root, OBB tree below.
    pub const fn ao() -> Self {
        Self { name: "ao", nodes: NodeKind::Obb, config: BuildConfig::co().with_root(RootKind::Aabb) }
    }

    /// CO: paper 000's cube-AABB root with hull-sampled OBBs below.
    pub const fn co() -> Self {
        Self { name: "co", nodes: NodeKind::Obb, config: BuildConfig::co() }
    }

    /// CO built the fast way ([`Construction::Binned`]): the same root and node volumes, the
    /// tree's shape from binned surface-area splits in the object's frame, the boxes fitted
    /// bottom-up. Meshes of up to 4,096 triangles are built as CO builds them, with leaves of up
    /// to four triangles: on such small meshes the top-down tree has first contact test fewer
    /// volumes. Larger meshes' leaves hold up to six: their queries test a few more triangle
    /// pairs for fewer volumes and take about as long as with four, and the build fits a
    /// quarter fewer nodes.
    pub const fn co_binned() -> Self {
        let config = BuildConfig::co()
            .with_construction(Construction::Binned)
            .with_top_down_up_to(4096, 4)
            .with_leaf_size(6);
        Self { name: "co-binned", nodes: NodeKind::Obb, config }
    }

    /// Paper 003: sphere root, area-weighted hull-sampled OBBs, penalty-function splits.
    pub const fn sphere_obb() -> Self {
        let config = BuildConfig::co()
            .with_root(RootKind::Sphere)
            .with_fit(ObbFit::area_weighted_hull())
            .with_split(Split::penalty());
        Self { name: "sphere-obb", nodes: NodeKind::Obb, config }
    }

    /// Paper 004: sphere root; sphere tree for round objects, OBB tree for the rest.
    pub const fn classified() -> Self {
        let config = BuildConfig::co().with_root(RootKind::Sphere);
        Self {
            name: "classified",
            nodes: NodeKind::ByShape { threshold: SPHERE_DEVIATION_THRESHOLD },
            config,
        }
    }

    /// Papers 001/002: an AABB tree with an AABB root, split at the centroids' mean.
    pub const fn aabb_tree() -> Self {
        let config = BuildConfig::co().with_root(RootKind::Aabb).with_split(Split::Mean);
        Self { name: "aabb", nodes: NodeKind::Aabb, config }
    }

    /// Every preset, in the order the papers' tables list them.
    pub const ALL: [Preset; 8] = [
        Self::rapid(),
        Self::sao(),
        Self::ao(),
        Self::co(),
        Self::co_binned(),
        Self::sphere_obb(),
        Self::classified(),
        Self::aabb_tree(),
    ];

    /// The preset with this name.
    pub fn by_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.name == name)
    }
}

/// A hierarchy whose node volume was chosen at run time.
#[derive(Clone, Debug, PartialEq)]
pub enum Hierarchy {
    /// OBB nodes.
    Obb(Bvh<Obb>),
    /// AABB nodes.
    Aabb(Bvh<Aabb>),
    /// Sphere nodes.
    Sphere(Bvh<Sphere>),
}

impl Hierarchy {
    /// Builds the tree the preset describes.
    pub fn build(mesh: TriMesh, preset: &Preset) -> Self {
        let config = &preset.config;
        match preset.nodes {
            NodeKind::Obb => Self::Obb(Bvh::build(mesh, config)),
            NodeKind::Aabb => Self::Aabb(Bvh::build(mesh, config)),
            NodeKind::Sphere => Self::Sphere(Bvh::build(mesh, config)),
            NodeKind::ByShape { threshold } => {
                let used: Vec<Point> = mesh.triangles().flat_map(|t| t.vertices()).collect();
                if sphere_deviation_rate(&used) <= threshold {
                    Self::Sphere(Bvh::build(mesh, config))
                } else {
                    Self::Obb(Bvh::build(mesh, config))
                }
            }
        }
    }

    /// Checks the tree's invariants, panicking with the first violation.
    pub fn assert_well_formed(&self) {
        match self {
            Self::Obb(b) => b.assert_well_formed(),
            Self::Aabb(b) => b.assert_well_formed(),
            Self::Sphere(b) => b.assert_well_formed(),
        }
    }

    /// [`Bvh::refit`].
    pub fn refit(&mut self, vertices: &[Point]) -> Result<(), MeshError> {
        match self {
            Self::Obb(b) => b.refit(vertices),
            Self::Aabb(b) => b.refit(vertices),
            Self::Sphere(b) => b.refit(vertices),
        }
    }

    /// [`Bvh::refit_range`].
    pub fn refit_range(&mut self, first: usize, positions: &[Point]) -> Result<(), MeshError> {
        match self {
            Self::Obb(b) => b.refit_range(first, positions),
            Self::Aabb(b) => b.refit_range(first, positions),
            Self::Sphere(b) => b.refit_range(first, positions),
        }
    }

    /// Number of nodes.
    pub fn node_count(&self) -> usize {
        match self {
            Self::Obb(b) => b.node_count(),
            Self::Aabb(b) => b.node_count(),
            Self::Sphere(b) => b.node_count(),
        }
    }

    /// The object's root volume.
    pub fn root(&self) -> &RootVolume {
        match self {
            Self::Obb(b) => b.root(),
            Self::Aabb(b) => b.root(),
            Self::Sphere(b) => b.root(),
        }
    }

    /// The object's mesh.
    pub fn mesh(&self) -> &TriMesh {
        match self {
            Self::Obb(b) => b.mesh(),
            Self::Aabb(b) => b.mesh(),
            Self::Sphere(b) => b.mesh(),
        }
    }

    /// Derives the tree's neighbour lists now (see [`Bvh::derive_neighbours`]).
    pub fn derive_neighbours(&self) {
        match self {
            Self::Obb(b) => b.derive_neighbours(),
            Self::Aabb(b) => b.derive_neighbours(),
            Self::Sphere(b) => b.derive_neighbours(),
        }
    }
}
