//! `bvh-bench info FILE`: what a mesh file holds, part by part, with each part's bounds in the
//! file's own frame (a recentred file's origin printed beside them).

use std::path::Path;
use std::process::ExitCode;

pub(crate) fn run(file: &Path, json: bool) -> ExitCode {
    let scene = match bvh_io::load(file) {
        Ok(scene) => scene,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    if json {
        println!("{}", as_json(file, &scene));
        return ExitCode::SUCCESS;
    }
    println!("{}: {} parts, {} triangles", file.display(), scene.parts.len(), scene.triangle_count());
    if scene.origin != [0.0; 3] {
        let [x, y, z] = scene.origin;
        println!(
            "recentred: the meshes hold coordinates minus the origin [{x}, {y}, {z}]; bounds are in the file's frame"
        );
    }
    println!("{:<40} {:>10} {:>10}  bounds", "part", "triangles", "vertices");
    for part in &scene.parts {
        let bvh_io::Bounds { min, max } = part.bounds;
        let bounds = format!(
            "[{:.4}, {:.4}, {:.4}] – [{:.4}, {:.4}, {:.4}]",
            min[0], min[1], min[2], max[0], max[1], max[2]
        );
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

/// The same facts as one JSON object.
fn as_json(file: &Path, scene: &bvh_io::Scene) -> String {
    let parts: Vec<String> = scene
        .parts
        .iter()
        .map(|part| {
            let bvh_io::Bounds { min, max } = part.bounds;
            let bounds = format!("[[{},{},{}],[{},{},{}]]", min[0], min[1], min[2], max[0], max[1], max[2]);
            format!(
                "{{\"path\":{},\"triangles\":{},\"vertices\":{},\"bounds\":{bounds}}}",
                quoted(&part.path),
                part.mesh.triangle_count(),
                part.mesh.vertices().len()
            )
        })
        .collect();
    let skipped: Vec<String> = scene
        .skipped
        .iter()
        .map(|s| format!("{{\"what\":{},\"count\":{}}}", quoted(&s.what.to_string()), s.count))
        .collect();
    let [x, y, z] = scene.origin;
    format!(
        "{{\"file\":{},\"triangles\":{},\"origin\":[{x},{y},{z}],\"parts\":[{}],\"skipped\":[{}]}}",
        quoted(&file.display().to_string()),
        scene.triangle_count(),
        parts.join(","),
        skipped.join(",")
    )
}

/// A JSON string literal.
fn quoted(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
