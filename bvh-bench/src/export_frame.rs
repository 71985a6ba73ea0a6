//! `bvh-bench export`: one pose of a part against a scene as a PLY file for any mesh viewer,
//! each contact region in a colour of its own with its normal drawn as an arrow.

use crate::contacts::regions_at;
use crate::poses::load_mesh;
use bvh_bench::export::{Highlights, write_contact_ply};
use bvh_bench::pose_file::pose_from_text;
use bvh_build::{Hierarchy, Preset};
use bvh_query::Surfaces;
use std::path::Path;

pub(crate) fn run(
    scene: &Path,
    part: &Path,
    pose: &str,
    surfaces: Surfaces,
    margin: f32,
    out: &Path,
) -> Result<(), String> {
    let pose = pose_from_text("--pose", pose)?;
    let (scene, part) = (load_mesh(scene)?, load_mesh(part)?);
    let preset = Preset::co();
    let (a, b) = (Hierarchy::build(scene.clone(), &preset), Hierarchy::build(part.clone(), &preset));
    let regions = regions_at(&a, &b, &pose, surfaces)?;
    // Arrows a tenth of the part's size, or as long as the depth.
    let length = part.aabb().extents().norm() / 10.0;
    let faces =
        write_contact_ply(out, &scene, &part, &pose, &Highlights::regions(&regions, length), margin.max(0.0))
            .map_err(|e| format!("{}: {e}", out.display()))?;
    let pairs: usize = regions.iter().map(|r| r.pairs.len()).sum();
    println!(
        "{}: {faces} faces, {} contact regions ({pairs} intersecting triangle pairs), each in its own colour with its normal as an arrow",
        out.display(),
        regions.len()
    );
    Ok(())
}
