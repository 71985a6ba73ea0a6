//! `bvh-bench contacts`: the contact regions of a part against a scene at one pose – where they
//! meet, each region with its normal, depth, contact points, pairs and coplanar area.

use crate::poses::{at_pose, load_mesh, pose_from_text};
use bvh_build::{Bvh, Hierarchy, NodeVolume, Preset};
use bvh_core::{Isometry, Point, Vector};
use bvh_query::{ContactRegion, NodeTest, QueryOptions, Surfaces, TreePairVisitor, visit_tree_pair};
use std::path::Path;

/// `bvh-bench contacts`' arguments.
pub(crate) struct Args<'a> {
    pub(crate) scene: &'a Path,
    pub(crate) part: &'a Path,
    pub(crate) pose: &'a str,
    pub(crate) surfaces: Surfaces,
    pub(crate) preset: Preset,
    pub(crate) json: bool,
}

pub(crate) fn run(args: &Args<'_>) -> Result<(), String> {
    let pose = pose_from_text("--pose", args.pose)?;
    let (scene, part) = (load_mesh(args.scene)?, load_mesh(args.part)?);
    let (a, b) = (Hierarchy::build(scene, &args.preset), Hierarchy::build(part, &args.preset));
    let regions = visit_tree_pair(&a, &b, Regions { pose: &pose, surfaces: args.surfaces });
    if args.json {
        let list: Vec<String> = regions.iter().map(json).collect();
        println!("{{\"regions\":[{}]}}", list.join(","));
        return Ok(());
    }
    println!("{} contact regions", regions.len());
    for (k, r) in regions.iter().enumerate() {
        println!(
            "region {k}: {} triangle pairs, normal {}, depth {:.6e}, area {:.6e}, points {}",
            r.pairs.len(),
            triple(&r.normal),
            r.depth,
            r.area,
            r.points.iter().map(|p| triple(&p.coords)).collect::<Vec<_>>().join(" ")
        );
    }
    Ok(())
}

/// The contact regions of two trees, B at `pose`.
pub(crate) struct Regions<'a> {
    pub(crate) pose: &'a Isometry,
    pub(crate) surfaces: Surfaces,
}

impl TreePairVisitor for Regions<'_> {
    type Output = Vec<ContactRegion>;

    fn visit<VA, VB>(self, a: &Bvh<VA>, b: &Bvh<VB>) -> Vec<ContactRegion>
    where
        VA: NodeVolume + NodeTest<VB>,
        VB: NodeVolume,
    {
        at_pose(a, b, self.pose, QueryOptions::default(), |q| q.contact_regions(self.surfaces))
    }
}

fn triple(v: &Vector) -> String {
    format!("[{},{},{}]", v.x, v.y, v.z)
}

/// One region as a JSON object: normal, depth, points, pairs, area, deepest points, curve.
fn json(r: &ContactRegion) -> String {
    let points = |ps: &[Point]| ps.iter().map(|p| triple(&p.coords)).collect::<Vec<_>>().join(",");
    let pairs: Vec<String> = r.pairs.iter().map(|p| format!("[{},{}]", p.a, p.b)).collect();
    let curve: Vec<String> = r
        .curve
        .iter()
        .map(|c| format!("{{\"closed\":{},\"points\":[{}]}}", c.closed, points(&c.points)))
        .collect();
    format!(
        "{{\"normal\":{},\"depth\":{:e},\"points\":[{}],\"pairs\":[{}],\"area\":{:e},\"deepest_on_scene\":{},\"deepest_on_part\":{},\"curve\":[{}]}}",
        triple(&r.normal),
        r.depth,
        points(&r.points),
        pairs.join(","),
        r.area,
        triple(&r.deepest_on_a.coords),
        triple(&r.deepest_on_b.coords),
        curve.join(",")
    )
}
