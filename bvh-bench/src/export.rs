//! A contact frame for any mesh viewer: the part and the scene around it as one PLY file in world
//! coordinates, the touching triangles coloured, so a user can see where and what touches.

use bvh_core::{Aabb, Isometry, TriMesh};
use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::Path;

const SCENE: [u8; 3] = [170, 170, 170];
const PART: [u8; 3] = [70, 120, 220];
const TOUCHING: [u8; 3] = [230, 40, 30];

/// Writes `scene` (at the identity) and `part` (at `pose`) as an ASCII PLY with per-face colours:
/// grey scene, blue part, red for the triangles in `touching` (pairs of scene and part triangle
/// indices). Of the scene, only triangles within `margin` of the part's box are written, so a
/// 500,000-triangle bay gives a file of the neighbourhood that matters. Returns the number of
/// faces written.
pub fn write_contact_ply(
    path: &Path,
    scene: &TriMesh,
    part: &TriMesh,
    pose: &Isometry,
    touching: &[(u32, u32)],
    margin: f32,
) -> std::io::Result<usize> {
    let (hit_scene, hit_part): (HashSet<u32>, HashSet<u32>) = touching.iter().copied().unzip();
    let near = part.aabb().transformed(pose).loosened(margin);
    let mut faces: Vec<([bvh_core::Point; 3], [u8; 3])> = Vec::new();
    for (i, t) in scene.triangles().enumerate() {
        let colour = if hit_scene.contains(&(i as u32)) { TOUCHING } else { SCENE };
        if Aabb::from_points(&[t.a, t.b, t.c]).intersects(&near) {
            faces.push(([t.a, t.b, t.c], colour));
        }
    }
    for (i, t) in part.triangles().enumerate() {
        let colour = if hit_part.contains(&(i as u32)) { TOUCHING } else { PART };
        faces.push(([pose * t.a, pose * t.b, pose * t.c], colour));
    }
    let mut text = format!(
        "ply\nformat ascii 1.0\ncomment bvh-bench contact frame: red = touching\nelement vertex {}\n\
         property float x\nproperty float y\nproperty float z\nelement face {}\n\
         property list uchar int vertex_indices\nproperty uchar red\nproperty uchar green\nproperty uchar blue\nend_header\n",
        faces.len() * 3,
        faces.len()
    );
    for (corners, _) in &faces {
        for p in corners {
            let _ = writeln!(text, "{} {} {}", p.x, p.y, p.z);
        }
    }
    for (k, (_, [r, g, b])) in faces.iter().enumerate() {
        let _ = writeln!(text, "3 {} {} {} {r} {g} {b}", 3 * k, 3 * k + 1, 3 * k + 2);
    }
    std::fs::write(path, text)?;
    Ok(faces.len())
}
