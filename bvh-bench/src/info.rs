//! `bvh-bench info FILE`: what a mesh file holds, part by part.

use std::path::Path;
use std::process::ExitCode;

pub(crate) fn run(file: &Path) -> ExitCode {
    let scene = match bvh_io::load(file) {
        Ok(scene) => scene,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!("{}: {} parts, {} triangles", file.display(), scene.parts.len(), scene.triangle_count());
    if scene.origin != [0.0; 3] {
        println!("coordinates relative to origin {:?} (add it back for the file's own frame)", scene.origin);
    }
    println!("{:<40} {:>10} {:>10}  bounds", "part", "triangles", "vertices");
    for part in &scene.parts {
        let b = part.mesh.aabb();
        let bounds = if b.is_empty() {
            "empty".to_string()
        } else {
            format!(
                "[{:.4}, {:.4}, {:.4}] – [{:.4}, {:.4}, {:.4}]",
                b.mins.x, b.mins.y, b.mins.z, b.maxs.x, b.maxs.y, b.maxs.z
            )
        };
        println!(
            "{:<40} {:>10} {:>10}  {bounds}",
            part.path,
            part.mesh.triangle_count(),
            part.mesh.vertices().len()
        );
    }
    for s in &scene.skipped {
        println!("skipped {} × {}", s.count, s.what);
    }
    ExitCode::SUCCESS
}
