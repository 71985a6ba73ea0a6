//! Wavefront OBJ through `tobj`: polygons fan-triangulated, negative indices resolved, `o` and
//! `g` starting new parts, positions only.

use crate::error::{ErrorKind, IoError, Location};
use crate::scene::{Part, Scene};
use bvh_core::{Point, TriMesh};
use std::path::Path;

/// Reads OBJ text; `file` names it in errors.
pub fn read_obj(bytes: &[u8], file: &Path) -> Result<Scene, IoError> {
    let options =
        tobj::LoadOptions { triangulate: true, single_index: false, ignore_points: true, ignore_lines: true };
    // Materials are irrelevant to collision: never open .mtl files.
    let (models, _) = tobj::load_obj_buf(&mut &bytes[..], &options, |_| Err(tobj::LoadError::GenericFailure))
        .map_err(|e| {
            let line = first_bad_line(bytes).map_or(Location::Unknown, Location::Line);
            IoError::new(file, line, ErrorKind::Obj(e.to_string()))
        })?;
    let mut scene = Scene::default();
    for model in models {
        let positions = &model.mesh.positions;
        if model.mesh.indices.is_empty() {
            // No faces, no triangles (`tobj` yields such a model for an empty file).
            continue;
        }
        if positions.iter().any(|c| !c.is_finite()) {
            let line = first_bad_line(bytes).map_or(Location::Unknown, Location::Line);
            return Err(IoError::new(file, line, ErrorKind::NonFinite));
        }
        let vertices = positions.chunks_exact(3).map(|c| Point::new(c[0], c[1], c[2])).collect();
        let triangles = model.mesh.indices.chunks_exact(3).map(|t| [t[0], t[1], t[2]]).collect();
        let mesh =
            TriMesh::new(vertices, triangles).map_err(|e| IoError::new(file, Location::Unknown, e.into()))?;
        scene.parts.push(Part::new(model.name.clone(), model.name, mesh));
    }
    Ok(scene)
}

/// The 1-based line of the first statement that makes the file unusable – a vertex without
/// three finite numbers, a face with fewer than three corners or an index that is not one of
/// the vertices (positive indices count from the first vertex of the file, negative ones back
/// from the last vertex before the face) – to point the user at it; `tobj` does not say where.
fn first_bad_line(bytes: &[u8]) -> Option<usize> {
    let text = String::from_utf8_lossy(bytes);
    let is = |line: &str, keyword: &str| {
        line.trim_start().strip_prefix(keyword).is_some_and(|rest| rest.starts_with([' ', '\t']))
    };
    let total = text.lines().filter(|l| is(l, "v")).count() as i64;
    let mut seen = 0i64;
    let index_ok = |corner: &str, seen: i64| {
        let position = corner.split('/').next().unwrap_or("");
        match position.parse::<i64>() {
            Ok(i) if i > 0 => i <= total,
            Ok(i) if i < 0 => -i <= seen,
            _ => false,
        }
    };
    text.lines().enumerate().find_map(|(n, line)| {
        let bad = if is(line, "v") {
            seen += 1;
            line.split_whitespace()
                .skip(1)
                .take(3)
                .filter(|c| c.parse::<f32>().is_ok_and(f32::is_finite))
                .count()
                < 3
        } else if is(line, "f") {
            let corners = line.split_whitespace().skip(1);
            corners.clone().count() < 3 || !corners.into_iter().all(|c| index_ok(c, seen))
        } else {
            false
        };
        bad.then_some(n + 1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Scene, IoError> {
        read_obj(text.as_bytes(), Path::new("test.obj"))
    }

    #[test]
    fn parts_polygons_and_negative_indices() {
        let scene = read(
            "o first\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n\
             g second\nv 0 0 1\nv 1 0 1\nv 0 1 1\nf -3 -2 -1\nf 5/1/1 6//2 7\n",
        )
        .unwrap();
        assert_eq!(scene.parts.len(), 2);
        assert_eq!(scene.parts[0].name, "first");
        assert_eq!(scene.parts[0].mesh.triangle_count(), 2);
        assert_eq!(scene.parts[1].mesh.triangle_count(), 2);
        assert!(scene.parts[1].mesh.triangles().all(|t| t.a.z == 1.0));
        // A pentagon fans into three triangles.
        let pentagon = read("v 0 0 0\nv 2 0 0\nv 3 1 0\nv 1 2 0\nv -1 1 0\nf 1 2 3 4 5\n").unwrap();
        assert_eq!(pentagon.triangle_count(), 3);
    }

    #[test]
    fn bad_input_is_a_typed_error() {
        // Errors of the parser name the line at fault.
        let out_of_range = read("v 0 0 0\nv 1 0 0\nf 1 2 9\n").unwrap_err();
        assert!(matches!(out_of_range.kind, ErrorKind::Obj(_)), "{out_of_range}");
        assert_eq!(out_of_range.location, Location::Line(3), "{out_of_range}");
        assert!(out_of_range.to_string().starts_with("test.obj:3: invalid OBJ"), "{out_of_range}");
        let behind = read("v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1 2 3\nf -1 -2 -4\n").unwrap_err();
        assert_eq!(behind.location, Location::Line(5), "{behind}");
        let word = read("# a comment\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 x\n").unwrap_err();
        assert_eq!(word.location, Location::Line(5), "{word}");
        let short = read("v 0 0 0\nv 1 0\nv 0 1 0\nf 1 2 3\n").unwrap_err();
        assert_eq!(short.location, Location::Line(2), "{short}");
        let nan = read("v 0 0 0\nv 1 0 0\nv nan 1 0\nf 1 2 3\n").unwrap_err();
        assert!(matches!(nan.kind, ErrorKind::NonFinite), "{nan}");
        assert_eq!(nan.location, Location::Line(3));
        assert!(read("v 0 0 zero\nf 1 1 1\n").is_err());
        assert_eq!(read("").unwrap().parts.len(), 0);
        assert!(read("v 0 0 0\nv 1 0 0\nl 1 2\n").unwrap().parts.is_empty());
    }
}
