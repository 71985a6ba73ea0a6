//! The built-in job: paper 000's maintenance tasks on the generated bays. Each part is pulled
//! out of its bay along a path that wobbles towards the pipes beside it; every frame reports
//! whether and where it touches, and its clearance, with parry3d timed on the same frames.

use bvh_bench::parry_bridge;
use bvh_build::generate::{MaintenanceScene, accumulator_bay, ptu_bay};
use bvh_build::{BuildConfig, Bvh, Hierarchy, NodeVolume, Preset};
use bvh_core::{Isometry, Obb, Point, TriangleIntersection, Vector};
use bvh_query::{
    NodeTest, PairCache, Posed, Query, QueryOptions, QueryStats, TreePairVisitor, visit_tree_pair,
};
use std::time::Instant;

/// Frames per extraction.
const FRAMES: usize = 240;
/// The clearance the user wants kept, metres.
const CLEARANCE: f32 = 0.01;

/// Paper 000's table 3, ms per detection: RAPID, SAO, AO, CO.
const PAPER_TABLE_3: [(&str, [f64; 4]); 2] =
    [("remove accumulator", [7.73, 6.82, 6.51, 6.39]), ("remove PTU", [35.54, 30.49, 25.57, 23.12])];

pub(crate) fn run() {
    for (scene, paper) in [accumulator_bay(1), ptu_bay(1)].iter().zip(PAPER_TABLE_3) {
        extract(scene);
        configurations(scene, paper.1);
    }
}

/// Every configuration on the same extraction path: build time and mean time per frame (first
/// contact, no cache), beside paper 000's table 3 and both sets of ratios to CO.
fn configurations(scene: &MaintenanceScene, paper: [f64; 4]) {
    println!(
        "\nconfigurations, {} (ours: µs per frame; paper 000: ms per detection on 2018 hardware)",
        scene.name
    );
    println!(
        "{:<12} {:>10} {:>12} {:>12} {:>10} {:>12}",
        "preset", "build ms", "µs/frame", "ratio to CO", "paper ms", "paper ratio"
    );
    let poses = path(scene);
    let identity = Isometry::identity();
    let mut rows = Vec::new();
    for preset in Preset::ALL {
        let start = Instant::now();
        let (bay, part) =
            (Hierarchy::build(scene.bay.clone(), &preset), Hierarchy::build(scene.part.clone(), &preset));
        let build_ms = start.elapsed().as_secs_f64() * 1e3;
        let start = Instant::now();
        let touching = visit_tree_pair(&bay, &part, TouchingFrames { poses: &poses, identity: &identity });
        let us = start.elapsed().as_secs_f64() * 1e6 / poses.len() as f64;
        rows.push((preset.name, build_ms, us, touching));
    }
    let co = rows.iter().find(|r| r.0 == "co").map_or(1.0, |r| r.2);
    let paper_of =
        |name: &str| ["rapid", "sao", "ao", "co"].iter().position(|&n| n == name).map(|i| paper[i]);
    for (name, build_ms, us, touching) in &rows {
        let (paper_ms, paper_ratio) = match paper_of(name) {
            Some(ms) => (format!("{ms:.2}"), format!("{:.2}", ms / paper[3])),
            None => ("-".into(), "-".into()),
        };
        println!(
            "{name:<12} {build_ms:>10.0} {us:>12.1} {:>12.2} {paper_ms:>10} {paper_ratio:>12}   ({touching} frames touching)",
            us / co
        );
    }
}

/// Frames touching along the path, for any pair of node volumes.
struct TouchingFrames<'a> {
    poses: &'a [Isometry],
    identity: &'a Isometry,
}

impl TreePairVisitor for TouchingFrames<'_> {
    type Output = usize;

    fn visit<VA, VB>(self, a: &Bvh<VA>, b: &Bvh<VB>) -> usize
    where
        VA: NodeVolume + NodeTest<VB>,
        VB: NodeVolume,
    {
        let options = QueryOptions::default();
        let query = |pose| Query::new(Posed::new(a, self.identity), Posed::new(b, pose), options);
        self.poses.iter().filter(|pose| query(pose).intersects(None, &mut ()).is_some()).count()
    }
}

/// The part's poses: up and out along the exit, swaying sideways towards the pipe beside the
/// corridor so that it grazes it on the way.
fn path(scene: &MaintenanceScene) -> Vec<Isometry> {
    let height = scene.part.aabb().extents().z + 0.1;
    (0..FRAMES)
        .map(|k| {
            let t = k as f32 / (FRAMES - 1) as f32;
            let sway = Vector::new(0.045 * (std::f32::consts::PI * t).sin(), 0.0, 0.0);
            let lift = scene.exit * (height * t);
            Isometry::translation(sway.x + lift.x, lift.y, lift.z) * scene.installed
        })
        .collect()
}

fn extract(scene: &MaintenanceScene) {
    println!(
        "\n{}: bay of {} triangles, part of {} triangles, {FRAMES} frames",
        scene.name,
        scene.bay.triangle_count(),
        scene.part.triangle_count()
    );
    let start = Instant::now();
    let bay: Bvh<Obb> = Bvh::build(scene.bay.clone(), &BuildConfig::co());
    let part: Bvh<Obb> = Bvh::build(scene.part.clone(), &BuildConfig::co());
    println!("built CO hierarchies in {:.0} ms", start.elapsed().as_secs_f64() * 1e3);
    let parry_bay = parry_mesh(&scene.bay);
    let parry_part = parry_mesh(&scene.part);
    let identity = Isometry::identity();
    let mut cache = PairCache::new();
    let (mut ours_us, mut parry_us, mut touching_frames, mut agreements) = (0.0, 0.0, 0, 0);
    let mut stats = QueryStats::default();
    println!(
        "{:>5} {:>8} {:>10} {:>14} {:>26}",
        "frame", "touching", "tri pairs", "clearance", "first contact (world, m)"
    );
    let mut last_touching = None;
    for (k, pose) in path(scene).iter().enumerate() {
        let query = Query::new(Posed::new(&bay, &identity), Posed::new(&part, pose), QueryOptions::default());
        let t0 = Instant::now();
        let touching = query.intersects(Some(&mut cache), &mut stats).is_some();
        ours_us += t0.elapsed().as_secs_f64() * 1e6;
        let t0 = Instant::now();
        let parry_pose = parry_bridge::pose(pose);
        let parry_touching = parry3d::query::intersection_test(
            &parry3d::math::Pose::IDENTITY,
            &parry_bay,
            &parry_pose,
            &parry_part,
        )
        .is_ok_and(|r| r.intersecting);
        parry_us += t0.elapsed().as_secs_f64() * 1e6;
        agreements += (touching == parry_touching) as usize;
        touching_frames += touching as usize;
        if k % 40 == 0 || last_touching != Some(touching) || k == FRAMES - 1 {
            let contacts = query.contacts(&mut ());
            let near = query.pairs_within(CLEARANCE, &mut ());
            let clearance = near.iter().map(|n| n.distance).fold(f32::INFINITY, f32::min);
            let clearance = if clearance.is_finite() {
                format!("{:.2} mm", clearance * 1e3)
            } else {
                format!("> {:.0} mm", CLEARANCE * 1e3)
            };
            let at = contacts.first().map_or(String::from("-"), |c| {
                let p = midpoint(&c.intersection);
                format!("({:.3}, {:.3}, {:.3})", p.x, p.y, p.z)
            });
            println!("{k:>5} {touching:>8} {:>10} {clearance:>14} {at:>26}", contacts.len());
        }
        last_touching = Some(touching);
    }
    let n = FRAMES as f64;
    println!(
        "touching in {touching_frames} of {FRAMES} frames; first-contact query {:.1} µs per frame (with cache), parry3d {:.1} µs ({:.1}× ours); parry agrees on {agreements} frames",
        ours_us / n,
        parry_us / n,
        parry_us / ours_us
    );
    println!(
        "per frame: {:.0} volume tests ({:.0} % decided by the pre-judge), {:.0} exact triangle tests",
        stats.volume_tests as f64 / n,
        100.0 * (stats.prejudge_overlap + stats.prejudge_disjoint) as f64
            / (stats.prejudge_overlap + stats.prejudge_disjoint + stats.prejudge_undecided).max(1) as f64,
        stats.triangle_tests as f64 / n
    );
}

fn midpoint(i: &TriangleIntersection) -> Point {
    match i {
        TriangleIntersection::Segment(s) => nalgebra::center(&s.a, &s.b),
        TriangleIntersection::Polygon(p) => {
            let v = p.vertices();
            Point::from(v.iter().fold(Vector::zeros(), |acc, p| acc + p.coords) / v.len() as f32)
        }
    }
}

fn parry_mesh(mesh: &bvh_core::TriMesh) -> parry3d::shape::TriMesh {
    let (v, i) = parry_bridge::mesh_buffers(mesh);
    parry3d::shape::TriMesh::new(v, i).expect("generated meshes are valid")
}
