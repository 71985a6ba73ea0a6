//! `bvh-bench info FILE`: what a mesh file holds, part by part, with each part's bounds in the
//! file's own frame (a recentred file's origin printed beside them) and whether it is closed
//! (has an inside, for the contact regions' depth).

use crate::json;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// `bvh-bench info`'s arguments.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// The file.
    file: PathBuf,
    /// One JSON object instead of the table.
    #[arg(long)]
    json: bool,
}

pub(crate) fn run(args: Args) -> Result<(), String> {
    let file = &args.file;
    let scene = bvh_io::load(file).map_err(|e| e.to_string())?;
    if args.json {
        return json::print_line(&record(file, &scene));
    }
    println!("{}: {} parts, {} triangles", file.display(), scene.parts.len(), scene.triangle_count());
    if scene.origin != [0.0; 3] {
        let [x, y, z] = scene.origin;
        println!(
            "recentred: the meshes hold coordinates minus the origin [{x}, {y}, {z}]; bounds are in the file's frame"
        );
    }
    println!("{:<40} {:>10} {:>10} {:>7}  bounds", "part", "triangles", "vertices", "closed");
    for part in &scene.parts {
        let bvh_io::Bounds { min, max } = part.bounds;
        let bounds = format!(
            "[{:.4}, {:.4}, {:.4}] – [{:.4}, {:.4}, {:.4}]",
            min[0], min[1], min[2], max[0], max[1], max[2]
        );
        println!(
            "{:<40} {:>10} {:>10} {:>7}  {bounds}",
            part.path,
            part.mesh.triangle_count(),
            part.mesh.vertices().len(),
            if closed(&part.mesh) { "yes" } else { "no" }
        );
    }
    for s in &scene.skipped {
        println!("skipped {} × {}", s.count, s.what);
    }
    Ok(())
}

/// The same facts as one JSON object.
#[derive(Serialize)]
struct Record {
    file: String,
    triangles: usize,
    origin: [f64; 3],
    parts: Vec<PartRecord>,
    skipped: Vec<SkippedRecord>,
}

/// One part: its path in the file, counts, bounds, and whether it is closed.
#[derive(Serialize)]
struct PartRecord {
    path: String,
    triangles: usize,
    vertices: usize,
    bounds: [[f64; 3]; 2],
    closed: bool,
}

/// Whether `mesh` is closed (see [`bvh_core::TriangleNeighbours::is_closed`]).
fn closed(mesh: &bvh_core::TriMesh) -> bool {
    bvh_core::TriangleNeighbours::of(mesh).is_closed()
}

/// Records the reader skipped, by kind.
#[derive(Serialize)]
struct SkippedRecord {
    what: String,
    count: usize,
}

fn record(file: &Path, scene: &bvh_io::Scene) -> Record {
    let parts = scene
        .parts
        .iter()
        .map(|part| PartRecord {
            path: part.path.clone(),
            triangles: part.mesh.triangle_count(),
            vertices: part.mesh.vertices().len(),
            bounds: [part.bounds.min, part.bounds.max],
            closed: closed(&part.mesh),
        })
        .collect();
    let skipped =
        scene.skipped.iter().map(|s| SkippedRecord { what: s.what.to_string(), count: s.count }).collect();
    Record {
        file: file.display().to_string(),
        triangles: scene.triangle_count(),
        origin: scene.origin,
        parts,
        skipped,
    }
}
