//! `bvh-bench contacts`: the contact regions of a part against a scene at one pose – where they
//! meet, each region with its normal, depth, contact points, pairs and coplanar area.

use crate::json;
use crate::values::{PosedPair, PresetName, surfaces};
use bvh_build::Hierarchy;
use bvh_core::{Isometry, Point, Real, Vector};
use bvh_query::{ContactRegion, HierarchyQuery, QueryOptions, Surfaces};
use serde::Serialize;

/// `bvh-bench contacts`' arguments.
#[derive(clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    at: PosedPair,
    /// The meshes are open surfaces: depths come from the intersection curves alone.
    #[arg(long)]
    open: bool,
    /// The hierarchy preset.
    #[arg(long, value_enum, default_value = "co")]
    preset: PresetName,
    /// One JSON object (key regions: each with normal, depth, points, pairs, area, …).
    #[arg(long)]
    json: bool,
}

/// The JSON object: the regions.
#[derive(Serialize)]
struct Record {
    regions: Vec<RegionRecord>,
}

/// One region: normal, depth, points, pairs, area, deepest points, curve.
#[derive(Serialize)]
struct RegionRecord {
    normal: [Real; 3],
    depth: Real,
    points: Vec<[Real; 3]>,
    pairs: Vec<[u32; 2]>,
    area: Real,
    deepest_on_scene: [Real; 3],
    deepest_on_part: [Real; 3],
    curve: Vec<CurveRecord>,
}

/// One chain of the intersection curve.
#[derive(Serialize)]
struct CurveRecord {
    closed: bool,
    points: Vec<[Real; 3]>,
}

impl From<&ContactRegion> for RegionRecord {
    fn from(r: &ContactRegion) -> Self {
        let points = |ps: &[Point]| ps.iter().map(|p| p.coords.into()).collect();
        Self {
            normal: r.normal.into(),
            depth: r.depth,
            points: points(&r.points),
            pairs: r.pairs.iter().map(|p| [p.a, p.b]).collect(),
            area: r.area,
            deepest_on_scene: r.deepest_on_a.coords.into(),
            deepest_on_part: r.deepest_on_b.coords.into(),
            curve: r
                .curve
                .iter()
                .map(|c| CurveRecord { closed: c.closed, points: points(&c.points) })
                .collect(),
        }
    }
}

pub(crate) fn run(args: Args) -> Result<(), String> {
    let (scene, part, pose) = args.at.load()?;
    let preset = args.preset.0;
    let (a, b) = (Hierarchy::build(scene, &preset), Hierarchy::build(part, &preset));
    let regions = regions_at(&a, &b, &pose, surfaces(args.open))?;
    if args.json {
        return json::print_line(&Record { regions: regions.iter().map(RegionRecord::from).collect() });
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
