//! The built-in job the foundation supports: two generated meshes, one sliding through the
//! other, with every frame's contacts found by brute force over the exact triangle test.

use bvh_core::{Aabb, Isometry, Point, TriMesh, Triangle, closest_points_triangles, triangles_intersect};
use std::time::Instant;

/// Runs the job and prints one line per frame.
pub(crate) fn run() {
    let scene = TriMesh::uv_sphere(Point::origin(), 1.0, 24, 48);
    let part = TriMesh::uv_sphere(Point::origin(), 0.5, 16, 32);
    println!(
        "scene: sphere of {} triangles; part: sphere of {} triangles; part slides along x",
        scene.triangle_count(),
        part.triangle_count()
    );
    let scene_tris: Vec<(Triangle, Aabb)> = scene.triangles().map(|t| (t, t.aabb())).collect();
    println!("{:>6} {:>10} {:>14} {:>12} {:>10}", "x", "touching", "triangle pairs", "clearance", "ms");
    for step in 0..=12 {
        let x = 2.0 - step as f32 * 0.125;
        let pose = Isometry::translation(x, 0.0, 0.0);
        let start = Instant::now();
        let frame = Frame::measure(&scene_tris, &part, &pose);
        let ms = start.elapsed().as_secs_f64() * 1e3;
        let clearance = frame.clearance.map_or("> 0.25".to_string(), |d| format!("{d:.3e}"));
        println!("{x:>6.3} {:>10} {:>14} {clearance:>12} {ms:>10.2}", frame.pairs > 0, frame.pairs);
    }
}

/// What one frame finds: intersecting triangle pairs, and the clearance when apart.
struct Frame {
    pairs: usize,
    clearance: Option<f32>,
}

impl Frame {
    /// Brute force over triangle pairs whose boxes, grown by the clearance horizon, overlap.
    fn measure(scene: &[(Triangle, Aabb)], part: &TriMesh, pose: &Isometry) -> Self {
        const HORIZON: f32 = 0.25;
        let mut pairs = 0;
        let mut clearance: Option<f32> = None;
        for moved in part.triangles().map(|t| t.transformed(pose)) {
            let reach = moved.aabb().loosened(HORIZON);
            for (t, _) in scene.iter().filter(|(_, b)| b.intersects(&reach)) {
                if triangles_intersect(t, &moved) {
                    pairs += 1;
                } else if pairs == 0 {
                    let d = closest_points_triangles(t, &moved).distance;
                    if d <= HORIZON && clearance.is_none_or(|c| d < c) {
                        clearance = Some(d);
                    }
                }
            }
        }
        Self { pairs, clearance: if pairs > 0 { Some(0.0) } else { clearance } }
    }
}
