//! `bvh-bench info FILE`: what a mesh file holds, part by part.

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

/// The same facts as one JSON object.
fn as_json(file: &Path, scene: &bvh_io::Scene) -> String {
    let parts: Vec<String> = scene
        .parts
        .iter()
        .map(|part| {
            let b = part.mesh.aabb();
            let bounds = if b.is_empty() {
                "null".to_string()
            } else {
                format!("[[{},{},{}],[{},{},{}]]", b.mins.x, b.mins.y, b.mins.z, b.maxs.x, b.maxs.y, b.maxs.z)
            };
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
