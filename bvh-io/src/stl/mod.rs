//! STL, ASCII or binary, read here (no crate accepted every dialect real exporters write).
//! A file starting with `solid` is ASCII unless its size is exactly what a binary header's count
//! needs or its first bytes are not text; everything else is binary.

mod ascii;
mod binary;

use crate::error::{IoError, Location};
use crate::scene::{Part, Scene};
use bvh_core::{Point, TriMesh};
use std::path::Path;

/// One `solid … endsolid` block of an ASCII file (a binary file is one unnamed solid): its name
/// and its triangles' corners, three per triangle.
struct Solid {
    name: String,
    corners: Vec<[f32; 3]>,
}

/// Reads an STL file's bytes; `file` names them in errors. A binary file, or an ASCII file with
/// one solid, is one part named after the file; an ASCII file with several solids gives one part
/// per solid, named by the solid (or `solid k`, counting from 1, when unnamed). Solids without
/// facets give no part. Triangles are kept as given (no welding): three vertices each.
pub fn read_stl(bytes: &[u8], file: &Path) -> Result<Scene, IoError> {
    let stem = file.file_stem().map_or_else(|| "stl".to_string(), |s| s.to_string_lossy().into_owned());
    let solids = if ascii::looks_ascii(bytes) && !binary::has_exact_size(bytes) {
        ascii::solids(bytes, file)?
    } else {
        vec![Solid { name: String::new(), corners: binary::corners(bytes, file)? }]
    };
    let several = solids.len() > 1;
    let mut scene = Scene::default();
    for (k, solid) in solids.into_iter().enumerate() {
        if solid.corners.is_empty() {
            continue;
        }
        let (name, path) = match (several, solid.name.is_empty()) {
            (false, _) => (stem.clone(), stem.clone()),
            (true, true) => (format!("solid {}", k + 1), format!("{stem}/solid {}", k + 1)),
            (true, false) => (solid.name.clone(), format!("{stem}/{}", solid.name)),
        };
        let vertices: Vec<Point> = solid.corners.iter().map(|&[x, y, z]| Point::new(x, y, z)).collect();
        let triangles = (0..vertices.len() as u32 / 3).map(|t| [3 * t, 3 * t + 1, 3 * t + 2]).collect();
        let mesh =
            TriMesh::new(vertices, triangles).map_err(|e| IoError::new(file, Location::Unknown, e.into()))?;
        scene.parts.push(Part::new(name, path, mesh));
    }
    Ok(scene)
}
