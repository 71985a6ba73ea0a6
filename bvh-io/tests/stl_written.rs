//! STL files written by the tests: ASCII in every dialect exporters use reads as the same
//! triangles as binary, binary headers starting with "solid" stay binary, and bad input is a
//! typed error naming the line or byte.

mod support;

use bvh_io::{ErrorKind, IoError, Location, Scene, read_stl};
use std::path::Path;
use support::stl::{Style, ascii, binary, sample_triangles};

fn read(bytes: &[u8]) -> Result<Scene, IoError> {
    read_stl(bytes, Path::new("part.stl"))
}

/// Every corner of every part, in order.
fn corners(scene: &Scene) -> Vec<[f32; 3]> {
    scene
        .parts
        .iter()
        .flat_map(|p| p.mesh.triangles().flat_map(|t| [t.a, t.b, t.c]))
        .map(|p| [p.x, p.y, p.z])
        .collect()
}

#[test]
fn every_ascii_dialect_reads_as_the_binary_file() {
    let triangles = sample_triangles();
    let expected = corners(&read(&binary(b"", &triangles)).unwrap());
    assert_eq!(expected, triangles.iter().flatten().copied().collect::<Vec<_>>());
    for bits in 0..=u8::MAX {
        let style = Style::numbered(bits);
        let scene = read(&ascii(&triangles, &style)).unwrap_or_else(|e| panic!("{style:?}: {e}"));
        assert_eq!(corners(&scene), expected, "{style:?}");
        assert_eq!(scene.parts.len(), 1);
        assert_eq!(scene.parts[0].name, "part", "one solid is named after the file");
    }
}

#[test]
fn windows_exporter_file_loads() {
    // A bare `solid`, CRLF line ends, tab indents, `%e` numbers.
    let text = ascii(&sample_triangles(), &Style::windows());
    assert!(text.starts_with(b"solid\r\n\tfacet normal"), "{}", String::from_utf8_lossy(&text[..30]));
    assert_eq!(read(&text).unwrap().triangle_count(), 3);
}

#[test]
fn binary_files_whose_header_starts_with_solid() {
    let triangles = sample_triangles();
    let file = binary(b"solid exported by a tool that names its binary files", &triangles);
    assert_eq!(corners(&read(&file).unwrap()), triangles.iter().flatten().copied().collect::<Vec<_>>());
    // Cut short, it is still binary: the count is refused, not the "text".
    let e = read(&file[..file.len() - 10]).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::AbsurdCount { count: 3, .. }), "{e}");
    assert_eq!(e.location, Location::Offset(80));
}

#[test]
fn several_solids_are_several_parts() {
    let triangles = sample_triangles();
    let mut text = ascii(&triangles[..1], &Style { name: Some("bracket"), ..Style::plain() });
    text.extend(ascii(&triangles[1..], &Style { name: None, ..Style::windows() }));
    let scene = read(&text).unwrap();
    let names: Vec<(&str, &str, usize)> =
        scene.parts.iter().map(|p| (p.name.as_str(), p.path.as_str(), p.mesh.triangle_count())).collect();
    assert_eq!(names, [("bracket", "part/bracket", 1), ("solid 2", "part/solid 2", 2)]);
}

#[test]
fn polygons_fan_and_empty_solids_give_no_part() {
    let quad = "solid q\nfacet\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 1 1 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid\n";
    let scene = read(quad.as_bytes()).unwrap();
    assert_eq!(
        corners(&scene),
        [
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [1.0, 1.0, 0.0],
            [0.0, 0.0, 0.0],
            [1.0, 1.0, 0.0],
            [0.0, 1.0, 0.0]
        ]
    );
    assert!(read(b"solid empty\nendsolid empty\n").unwrap().parts.is_empty());
    assert!(read(&binary(b"", &[])).unwrap().parts.is_empty());
}

#[test]
fn parts_know_their_bounds() {
    let scene = read(&ascii(&sample_triangles(), &Style::plain())).unwrap();
    let bounds = scene.parts[0].bounds;
    assert_eq!(bounds.min, [-0.1f32 as f64, -0.333_333_34f32 as f64, -2.0]);
    assert_eq!(bounds.max, [1234.5677f32 as f64, 9.9e5, 7.0]);
}

#[test]
fn bad_ascii_names_the_line() {
    let good = String::from_utf8(ascii(&sample_triangles(), &Style::plain())).unwrap();
    let cases: [(String, usize, &str); 6] = [
        (good.replacen("endsolid part\n", "", 1), 23, "expected `facet`, found the end of the file"),
        (good.replacen("vertex 1 0 0", "vertex 1 zero 0", 1), 5, "expected a number, found `zero`"),
        (good.replacen("vertex 1 0 0\n", "", 1), 6, "a facet with 2 vertices"),
        (good.replacen("outer loop", "outer", 1), 4, "expected `loop`, found `vertex`"),
        (good.clone() + "garbage\n", 24, "expected `solid`, found `garbage`"),
        (
            "solid\nfacet\nouter loop\nvertex 1 2".to_string(),
            4,
            "expected a number, found the end of the file",
        ),
    ];
    for (text, line, message) in cases {
        let e = read(text.as_bytes()).unwrap_err();
        assert_eq!(e.location, Location::Line(line), "{e}");
        assert!(matches!(&e.kind, ErrorKind::Stl(m) if m == message), "{e}");
    }
    for bad in ["nan", "inf", "-infinity", "1e39"] {
        let text = good.replacen("vertex 0.1 0.2 0.3", &format!("vertex 0.1 {bad} 0.3"), 1);
        let e = read(text.as_bytes()).unwrap_err();
        assert!(matches!(e.kind, ErrorKind::NonFinite), "{bad}: {e}");
        assert_eq!(e.location, Location::Line(18), "{bad}");
    }
}

#[test]
fn bad_binary_names_the_byte() {
    let file = binary(b"", &sample_triangles());
    let mut huge = file.clone();
    huge[80..84].copy_from_slice(&u32::MAX.to_le_bytes());
    let e = read(&huge).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::AbsurdCount { count, .. } if count == u32::MAX as u64), "{e}");
    assert!(matches!(
        read(&file[..20]).unwrap_err().kind,
        ErrorKind::Truncated { needed: 84, available: 20 }
    ));
    let mut nan = sample_triangles();
    nan[1][2][0] = f32::NAN;
    let e = read(&binary(b"", &nan)).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::NonFinite));
    assert_eq!(e.location, Location::Offset(84 + 50));
}
