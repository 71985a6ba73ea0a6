//! `bvh-bench export`: one pose of a part against a scene as a PLY file for any mesh viewer, the
//! intersecting triangles in red.

use crate::poses::{load_mesh, pose_from_text};
use bvh_bench::export::write_contact_ply;
use bvh_build::{Bvh, Hierarchy, NodeVolume, Preset};
use bvh_core::Isometry;
use bvh_query::{NodeTest, Posed, Query, QueryOptions, TreePairVisitor, TrianglePair, visit_tree_pair};
use std::path::Path;

pub(crate) fn run(scene: &Path, part: &Path, pose: &str, margin: f32, out: &Path) -> Result<(), String> {
    let pose = pose_from_text("--pose", pose)?;
    let (scene, part) = (load_mesh(scene)?, load_mesh(part)?);
    let preset = Preset::co();
    let (a, b) = (Hierarchy::build(scene.clone(), &preset), Hierarchy::build(part.clone(), &preset));
    let pairs = visit_tree_pair(&a, &b, Intersecting { pose: &pose });
    let touching: Vec<(u32, u32)> = pairs.iter().map(|p| (p.a, p.b)).collect();
    let faces = write_contact_ply(out, &scene, &part, &pose, &touching, margin.max(0.0))
        .map_err(|e| format!("{}: {e}", out.display()))?;
    println!("{}: {faces} faces, {} intersecting triangle pairs in red", out.display(), pairs.len());
    Ok(())
}

struct Intersecting<'a> {
    pose: &'a Isometry,
}

impl TreePairVisitor for Intersecting<'_> {
    type Output = Vec<TrianglePair>;

    fn visit<VA, VB>(self, a: &Bvh<VA>, b: &Bvh<VB>) -> Vec<TrianglePair>
    where
        VA: NodeVolume + NodeTest<VB>,
        VB: NodeVolume,
    {
        let identity = Isometry::identity();
        Query::new(Posed::new(a, &identity), Posed::new(b, self.pose), QueryOptions::default())
            .expect("poses are finite")
            .intersecting_pairs(&mut ())
    }
}
