//! Argument types several subcommands share: the meshes of a pair (with a pose or a pose file),
//! presets and strategies by name, and surfaces.

use crate::poses::load_mesh;
use bvh_bench::pose_file::{pose_from_text, read_poses};
use bvh_broadphase::{AnyStrategy, BruteForce, HierarchicalGrid, Octree, UniformGrid};
use bvh_build::Preset;
use bvh_core::{Isometry, TriMesh};
use bvh_query::Surfaces;
use clap::builder::PossibleValue;
use std::path::PathBuf;

/// A scene and a part, read from files.
#[derive(clap::Args, Clone, Debug)]
pub(crate) struct MeshPair {
    /// The static scene (OBJ, STL or OpenFlight).
    #[arg(long)]
    pub(crate) scene: PathBuf,
    /// The part (likewise).
    #[arg(long)]
    pub(crate) part: PathBuf,
}

/// A scene, a part and the part's pose.
#[derive(clap::Args, Clone, Debug)]
pub(crate) struct PosedPair {
    #[command(flatten)]
    meshes: MeshPair,
    /// The part's pose: 12 numbers, the row-major 3x4 [R|t], in quotes.
    #[arg(long, allow_hyphen_values = true)]
    pose: String,
}

impl PosedPair {
    /// The scene, the part and the pose, read and checked.
    pub(crate) fn load(&self) -> Result<(TriMesh, TriMesh, Isometry), String> {
        let pose = pose_from_text("--pose", &self.pose)?;
        Ok((load_mesh(&self.meshes.scene)?, load_mesh(&self.meshes.part)?, pose))
    }
}

/// A scene, a part and a file of the part's poses.
#[derive(clap::Args, Clone, Debug)]
pub(crate) struct MeshesAndPoses {
    #[command(flatten)]
    meshes: MeshPair,
    /// The pose file (R a rotation: a scale, shear or mirror is refused).
    #[arg(long)]
    poses: PathBuf,
}

impl MeshesAndPoses {
    /// The scene, the part and the poses, read and checked.
    pub(crate) fn load(&self) -> Result<(TriMesh, TriMesh, Vec<Isometry>), String> {
        Ok((load_mesh(&self.meshes.scene)?, load_mesh(&self.meshes.part)?, read_poses(&self.poses)?))
    }
}

/// A hierarchy preset, by its name.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PresetName(pub(crate) Preset);

impl clap::ValueEnum for PresetName {
    fn value_variants<'a>() -> &'a [Self] {
        const ALL: [PresetName; Preset::ALL.len()] = {
            let all = Preset::ALL;
            let mut named = [PresetName(all[0]); Preset::ALL.len()];
            let mut k = 0;
            while k < all.len() {
                named[k] = PresetName(all[k]);
                k += 1;
            }
            named
        };
        &ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.0.name))
    }
}

/// A broadphase strategy, by its name.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum StrategyName {
    /// Boxes in cells of their size class (the default).
    #[default]
    Hierarchical,
    /// One uniform grid.
    Grid,
    /// A loose octree.
    Octree,
    /// Every pair of boxes.
    Brute,
}

impl StrategyName {
    /// The strategy with its default settings.
    pub(crate) fn strategy(self) -> AnyStrategy {
        match self {
            Self::Hierarchical => AnyStrategy::Hierarchical(HierarchicalGrid::default()),
            Self::Grid => AnyStrategy::Grid(UniformGrid::default()),
            Self::Octree => AnyStrategy::Octree(Octree::default()),
            Self::Brute => AnyStrategy::Brute(BruteForce),
        }
    }

    /// The name on the command line.
    pub(crate) fn name(self) -> String {
        clap::ValueEnum::to_possible_value(&self).map_or_else(String::new, |v| v.get_name().to_string())
    }
}

/// `--open`: the meshes are open surfaces.
pub(crate) fn surfaces(open: bool) -> Surfaces {
    if open { Surfaces::Open } else { Surfaces::Closed }
}
