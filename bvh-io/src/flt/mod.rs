//! OpenFlight (`.flt`), the format flight-simulator and maintenance databases are stored in
//! (paper 001 §3). Written here from the format notes: no Rust crate reads it.
//!
//! Geometry comes from faces (5) with vertex lists (72, and morph lists 89) over the vertex
//! palette (67, vertices 68–71), and from meshes (84) with a local vertex pool (85) and mesh
//! primitives (86). Groups (2), objects (4), levels of detail (73), switches (96) and degrees of
//! freedom (14) form the hierarchy through push/pop (10/11); a Matrix (49) places its node's
//! subtree. External references (63) are loaded through a resolver, with cycles detected.
//! Faces drawn as wireframe or light points are left out, only the most detailed level of each
//! LOD set is kept, and only the active children of a switch; all of these, and every record the
//! reader does not know, are counted in [`Scene::skipped`].
//!
//! Coordinates are `f64` in the file and scaled to metres by the header's unit. If they lie far
//! from the origin (any coordinate of magnitude 10⁴ or more), their bounding box's centre,
//! rounded to a whole metre, becomes [`Scene::origin`] and is subtracted before narrowing to
//! `f32`, so `f32` keeps sub-millimetre precision across a part.

mod polygon;
mod records;
mod walker;

use crate::error::{ErrorKind, IoError, Location};
use crate::scene::{Bounds, Part, Scene};
use bvh_core::{Point, TriMesh};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// How external references are found.
pub enum References<'a> {
    /// Not loaded; each is counted in [`Scene::skipped`].
    Ignore,
    /// Resolved relative to the referring file's folder (the format's convention).
    RelativeToFile,
    /// Resolved by the caller: given the referring file and the reference as written, the file
    /// to load, or `None` to skip it (counted).
    Custom(&'a dyn Fn(&Path, &str) -> Option<PathBuf>),
}

/// External references nested deeper than this are an error.
pub const MAX_REFERENCE_DEPTH: usize = 32;

/// Reads an OpenFlight file, following external references relative to it.
pub fn read_flt(path: &Path) -> Result<Scene, IoError> {
    read_flt_file(path, &References::RelativeToFile)
}

/// Reads an OpenFlight file with the given reference policy.
pub fn read_flt_file(path: &Path, references: &References<'_>) -> Result<Scene, IoError> {
    let bytes = std::fs::read(path).map_err(|e| IoError::new(path, Location::Unknown, e.into()))?;
    read_flt_bytes(&bytes, path, references)
}

/// Reads OpenFlight bytes; `file` names them in errors and anchors relative references.
pub fn read_flt_bytes(bytes: &[u8], file: &Path, references: &References<'_>) -> Result<Scene, IoError> {
    let mut chain = vec![canonical(file)];
    let raw = walker::walk(bytes, file, references, &mut chain)?;
    to_scene(raw, file)
}

/// Geometry in `f64` before recentring, as the walker produces it (also for referenced files).
#[derive(Default)]
pub(crate) struct RawScene {
    pub(crate) parts: Vec<RawPart>,
    pub(crate) skipped: Scene,
}

pub(crate) struct RawPart {
    pub(crate) name: String,
    pub(crate) path: String,
    pub(crate) triangles: Vec<[[f64; 3]; 3]>,
}

pub(crate) fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

fn to_scene(raw: RawScene, file: &Path) -> Result<Scene, IoError> {
    let points = || raw.parts.iter().flat_map(|p| p.triangles.iter().flatten().copied());
    if !points().flatten().all(f64::is_finite) {
        return Err(IoError::new(file, Location::Unknown, ErrorKind::NonFinite));
    }
    let Bounds { min: lo, max: hi } = Bounds::of(points());
    let far = lo[0] <= hi[0] && (0..3).any(|d| lo[d].abs().max(hi[d].abs()) >= 1e4);
    let origin = if far { std::array::from_fn(|d| ((lo[d] + hi[d]) / 2.0).round()) } else { [0.0; 3] };
    let mut scene = Scene { origin, skipped: raw.skipped.skipped, ..Scene::default() };
    for part in raw.parts {
        if part.triangles.is_empty() {
            continue;
        }
        let mut index: HashMap<[u64; 3], u32> = HashMap::new();
        let mut vertices = Vec::new();
        let mut triangles = Vec::with_capacity(part.triangles.len());
        for t in &part.triangles {
            triangles.push(t.map(|p| {
                *index.entry(p.map(f64::to_bits)).or_insert_with(|| {
                    vertices.push(Point::new(
                        (p[0] - origin[0]) as f32,
                        (p[1] - origin[1]) as f32,
                        (p[2] - origin[2]) as f32,
                    ));
                    vertices.len() as u32 - 1
                })
            }));
        }
        let mesh =
            TriMesh::new(vertices, triangles).map_err(|e| IoError::new(file, Location::Unknown, e.into()))?;
        let bounds = Bounds::of(part.triangles.iter().flatten().copied());
        scene.parts.push(Part { name: part.name, path: part.path, mesh, bounds });
    }
    Ok(scene)
}
