//! A contact frame for any mesh viewer: the part and the scene around it as one PLY file in world
//! coordinates, the touching triangles coloured, so a user can see where and what touches.

use bvh_core::{Aabb, Isometry, Point, TriMesh, Vector};
use bvh_query::ContactRegion;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

const SCENE: [u8; 3] = [170, 170, 170];
const PART: [u8; 3] = [70, 120, 220];
const TOUCHING: [u8; 3] = [230, 40, 30];

/// Colours for regions, apart from the scene's grey and the part's blue; the first is the red
/// of touching pairs.
pub const REGION_COLOURS: [[u8; 3]; 8] = [
    TOUCHING,
    [250, 170, 20],
    [40, 170, 60],
    [200, 60, 200],
    [20, 190, 200],
    [130, 80, 30],
    [240, 230, 40],
    [120, 40, 160],
];

/// What a contact frame colours: touching triangle pairs and arrows.
#[derive(Clone, Debug, Default)]
pub struct Highlights {
    /// Per touching pair (scene triangle, part triangle), its colour.
    pub pairs: Vec<(u32, u32, [u8; 3])>,
    /// Arrows from a point, along a vector as long as the arrow, in a colour.
    pub arrows: Vec<(Point, Vector, [u8; 3])>,
}

impl Highlights {
    /// Every pair in red.
    pub fn touching(pairs: &[(u32, u32)]) -> Self {
        Self { pairs: pairs.iter().map(|&(a, b)| (a, b, TOUCHING)).collect(), arrows: Vec::new() }
    }

    /// Each region's pairs in a colour of its own ([`REGION_COLOURS`] in turn) and its normal as
    /// an arrow of that colour from the middle of its contact points, `length` long or its depth
    /// if deeper.
    pub fn regions(regions: &[ContactRegion], length: f32) -> Self {
        let mut highlights = Self::default();
        for (k, region) in regions.iter().enumerate() {
            let colour = REGION_COLOURS[k % REGION_COLOURS.len()];
            highlights.pairs.extend(region.pairs.iter().map(|p| (p.a, p.b, colour)));
            highlights.arrows.push((region.centre(), region.normal * length.max(region.depth), colour));
        }
        highlights
    }
}

/// Writes `scene` (at the identity) and `part` (at `pose`) as an ASCII PLY with per-face colours:
/// grey scene, blue part, the triangles of `highlights`' pairs in their colours (a triangle in
/// several pairs takes the first's), and each arrow as two thin crossed triangles. Of the scene,
/// only triangles within `margin` of the part's box are written, so a 500,000-triangle bay gives
/// a file of the neighbourhood that matters. Returns the number of faces written.
pub fn write_contact_ply(
    path: &Path,
    scene: &TriMesh,
    part: &TriMesh,
    pose: &Isometry,
    highlights: &Highlights,
    margin: f32,
) -> std::io::Result<usize> {
    let (mut on_scene, mut on_part) = (HashMap::new(), HashMap::new());
    for &(a, b, colour) in &highlights.pairs {
        on_scene.entry(a).or_insert(colour);
        on_part.entry(b).or_insert(colour);
    }
    let near = part.aabb().transformed(pose).inflated(margin);
    let mut faces: Vec<([Point; 3], [u8; 3])> = Vec::new();
    for (i, t) in scene.triangles().enumerate() {
        let colour = on_scene.get(&(i as u32)).copied().unwrap_or(SCENE);
        if Aabb::from_points(&[t.a, t.b, t.c]).intersects(&near) {
            faces.push(([t.a, t.b, t.c], colour));
        }
    }
    for (i, t) in part.triangles().enumerate() {
        let colour = on_part.get(&(i as u32)).copied().unwrap_or(PART);
        faces.push(([pose * t.a, pose * t.b, pose * t.c], colour));
    }
    for &(from, along, colour) in &highlights.arrows {
        // Two needles across each other, a twentieth of the arrow wide at the base: visible
        // from any side.
        let tip = from + along;
        let across = along.cross(&if along.x.abs() < 0.9 { Vector::x() } else { Vector::y() });
        let width = across.try_normalize(0.0).unwrap_or_else(Vector::zeros) * along.norm() / 40.0;
        let other = along.cross(&width).try_normalize(0.0).unwrap_or_else(Vector::zeros) * width.norm();
        faces.push(([from - width, from + width, tip], colour));
        faces.push(([from - other, from + other, tip], colour));
    }
    let mut text = format!(
        "ply\nformat ascii 1.0\ncomment bvh-bench contact frame: coloured = touching\nelement vertex {}\n\
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
