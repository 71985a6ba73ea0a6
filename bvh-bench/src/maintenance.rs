//! The built-in job: paper 000's maintenance tasks on the generated bays. Each part is pulled
//! out of its bay along a path that wobbles towards the pipes beside it; every frame reports
//! whether and where it touches, and its clearance, with parry3d timed on the same frames.

use bvh_bench::parry_bridge;
use bvh_build::generate::{MaintenanceScene, accumulator_bay, ptu_bay};
use bvh_build::{BuildConfig, Bvh};
use bvh_core::{Isometry, Obb, Point, TriangleIntersection, Vector};
use bvh_query::{PairCache, Posed, Query, QueryOptions, QueryStats};
use std::time::Instant;

/// Frames per extraction.
const FRAMES: usize = 240;
/// The clearance the user wants kept, metres.
const CLEARANCE: f32 = 0.01;

pub(crate) fn run() {
    for scene in [accumulator_bay(1), ptu_bay(1)] {
        extract(&scene);
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
