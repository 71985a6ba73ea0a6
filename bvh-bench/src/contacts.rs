//! `bvh-bench contacts`: the contact regions of a part against a scene at one pose – where they
//! meet, each region with its normal, depth, contact points, pairs and coplanar area.

use crate::poses::load_mesh;
use bvh_bench::pose_file::pose_from_text;
use bvh_build::{Hierarchy, Preset};
use bvh_core::{Isometry, Point, Vector};
use bvh_query::{ContactRegion, HierarchyQuery, QueryOptions, Surfaces};
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
    let regions = regions_at(&a, &b, &pose, args.surfaces)?;
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

/// The contact regions of the part `b` at `pose` against the scene `a`.
pub(crate) fn regions_at(
    a: &Hierarchy,
    b: &Hierarchy,
    pose: &Isometry,
    surfaces: Surfaces,
) -> Result<Vec<ContactRegion>, String> {
    let query = HierarchyQuery::try_new(a, Isometry::identity(), b, pose, QueryOptions::default())
        .map_err(|e| e.to_string())?;
    Ok(query.contact_regions(surfaces))
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
