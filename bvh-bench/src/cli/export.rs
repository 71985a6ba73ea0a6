//! `bvh-bench export`: one pose of a part against a scene as a PLY file for any mesh viewer,
//! each contact region in a colour of its own with its normal drawn as an arrow.

use crate::contacts::regions_at;
use crate::values::{self, PosedPair};
use bvh_bench::export::{Highlights, write_contact_ply};
use bvh_build::{Hierarchy, Preset};
use std::path::PathBuf;

/// `bvh-bench export`'s arguments.
#[derive(clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    at: PosedPair,
    /// Scene triangles farther than this from the part's box are left out.
    #[arg(long, default_value_t = 0.05)]
    margin: f32,
    /// The meshes are open surfaces: depths (and arrow lengths) from the curves alone.
    #[arg(long)]
    open: bool,
    /// The PLY file to write.
    #[arg(long)]
    out: PathBuf,
}

pub(crate) fn run(args: Args) -> Result<(), String> {
    let (scene, part, pose) = args.at.load()?;
    let preset = Preset::co();
    let (a, b) = (Hierarchy::build(scene.clone(), &preset), Hierarchy::build(part.clone(), &preset));
    let regions = regions_at(&a, &b, &pose, values::surfaces(args.open))?;
    // Arrows a tenth of the part's size, or as long as the depth.
    let length = part.aabb().extents().norm() / 10.0;
    let (out, highlights) = (&args.out, Highlights::regions(&regions, length));
    let faces = write_contact_ply(out, &scene, &part, &pose, &highlights, args.margin.max(0.0))
        .map_err(|e| format!("{}: {e}", out.display()))?;
    let pairs: usize = regions.iter().map(|r| r.pairs.len()).sum();
    println!(
        "{}: {faces} faces, {} contact regions ({pairs} intersecting triangle pairs), each in its own colour with its normal as an arrow",
        out.display(),
        regions.len()
    );
    Ok(())
}
