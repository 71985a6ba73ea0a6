//! STL, ASCII or binary, through `stl_io`. A binary file's triangle count is checked against
//! its size before anything is read, so a corrupt header cannot ask for a huge allocation.

use crate::error::{ErrorKind, IoError, Location};
use crate::scene::{Part, Scene};
use bvh_core::{Point, TriMesh};
use std::io::Cursor;
use std::path::Path;

const BINARY_HEADER: usize = 84;
const BINARY_TRIANGLE: u64 = 50;

/// Reads an STL file's bytes as one part named after the file; `file` names it in errors.
/// Triangles are kept as given (no welding): three vertices each.
pub fn read_stl(bytes: &[u8], file: &Path) -> Result<Scene, IoError> {
    let ascii = bytes.trim_ascii_start().starts_with(b"solid") && !is_binary(bytes);
    if !ascii {
        check_binary_size(bytes, file)?;
    }
    let mut cursor = Cursor::new(bytes);
    let error = |e: std::io::Error| IoError::new(file, Location::Unknown, ErrorKind::Stl(e.to_string()));
    let reader = stl_io::create_stl_reader(&mut cursor).map_err(error)?;
    let mut vertices = Vec::new();
    for triangle in reader {
        let triangle = triangle.map_err(error)?;
        for v in triangle.vertices {
            let p = Point::new(v[0], v[1], v[2]);
            if !p.iter().all(|c| c.is_finite()) {
                let at =
                    (BINARY_HEADER as u64 + BINARY_TRIANGLE * (vertices.len() / 3) as u64) * !ascii as u64;
                let location = if ascii { Location::Unknown } else { Location::Offset(at) };
                return Err(IoError::new(file, location, ErrorKind::NonFinite));
            }
            vertices.push(p);
        }
    }
    let triangles = (0..vertices.len() as u32 / 3).map(|t| [3 * t, 3 * t + 1, 3 * t + 2]).collect();
    let mesh =
        TriMesh::new(vertices, triangles).map_err(|e| IoError::new(file, Location::Unknown, e.into()))?;
    let name = file.file_stem().map_or_else(|| "stl".to_string(), |s| s.to_string_lossy().into_owned());
    Ok(Scene { parts: vec![Part { path: name.clone(), name, mesh }], ..Scene::default() })
}

/// Binary files whose header happens to start with "solid" are recognised by their exact size.
fn is_binary(bytes: &[u8]) -> bool {
    binary_count(bytes).is_some_and(|n| bytes.len() as u64 == BINARY_HEADER as u64 + BINARY_TRIANGLE * n)
}

fn binary_count(bytes: &[u8]) -> Option<u64> {
    let count: [u8; 4] = bytes.get(80..84)?.try_into().ok()?;
    Some(u32::from_le_bytes(count) as u64)
}

fn check_binary_size(bytes: &[u8], file: &Path) -> Result<(), IoError> {
    let len = bytes.len() as u64;
    let Some(count) = binary_count(bytes) else {
        return Err(IoError::new(
            file,
            Location::Offset(0),
            ErrorKind::Truncated { needed: BINARY_HEADER as u64, available: len },
        ));
    };
    let needed = BINARY_HEADER as u64 + BINARY_TRIANGLE * count;
    if needed > len {
        let available = len - BINARY_HEADER as u64;
        return Err(IoError::new(file, Location::Offset(80), ErrorKind::AbsurdCount { count, available }));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn binary(triangles: &[[[f32; 3]; 3]]) -> Vec<u8> {
        let mut out = vec![0u8; 80];
        out.extend((triangles.len() as u32).to_le_bytes());
        for t in triangles {
            out.extend([0f32; 3].iter().flat_map(|c| c.to_le_bytes()));
            out.extend(t.iter().flatten().flat_map(|c| c.to_le_bytes()));
            out.extend([0u8; 2]);
        }
        out
    }

    #[test]
    fn ascii_and_binary() {
        let ascii = "solid s\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid s\n";
        let scene = read_stl(ascii.as_bytes(), Path::new("part.stl")).unwrap();
        assert_eq!(scene.parts[0].name, "part");
        assert_eq!(scene.triangle_count(), 1);
        let tri = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
        let bin = binary(&[tri, tri]);
        assert_eq!(read_stl(&bin, Path::new("b.stl")).unwrap().triangle_count(), 2);
        // A binary header that starts with "solid" is still binary when the size says so.
        let mut solid = bin.clone();
        solid[..5].copy_from_slice(b"solid");
        assert_eq!(read_stl(&solid, Path::new("b.stl")).unwrap().triangle_count(), 2);
    }

    #[test]
    fn corrupt_binary_is_an_error() {
        let tri = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
        let bin = binary(&[tri]);
        let mut huge = bin.clone();
        huge[80..84].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(
            read_stl(&huge, Path::new("x.stl")).unwrap_err().kind,
            ErrorKind::AbsurdCount { .. }
        ));
        assert!(read_stl(&bin[..100], Path::new("x.stl")).is_err());
        assert!(read_stl(&bin[..20], Path::new("x.stl")).is_err());
        let nan = binary(&[[[f32::NAN, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]]);
        let e = read_stl(&nan, Path::new("x.stl")).unwrap_err();
        assert!(matches!(e.kind, ErrorKind::NonFinite));
        assert_eq!(e.location, Location::Offset(84));
    }
}
