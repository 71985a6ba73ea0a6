//! OpenFlight files written by the tests: every record the reader handles, and bad input.

mod support;

use bvh_io::{ErrorKind, References, Scene, read_flt_bytes};
use std::path::Path;
use support::{BESIDE, Flt, square, with_unknown_records};

fn read(f: &Flt) -> Result<Scene, bvh_io::IoError> {
    read_flt_bytes(&f.bytes, Path::new("test.flt"), &References::Ignore)
}

#[test]
fn parts_nested_transforms_and_every_vertex_kind() {
    let (mut f, v) = square(0);
    f.push();
    f.group("g").translation(10.0, 0.0, 0.0).push();
    f.object("a").translation(0.0, 1.0, 0.0).push().face(0).push().vertex_list(&v).pop().pop();
    f.object("b").long_id("a much longer name").push().face(0).push().vertex_list(&v[..3]).pop().pop();
    f.pop().pop();
    let scene = read(&f).unwrap();
    assert_eq!(scene.parts.len(), 2);
    let (a, b) = (&scene.parts[0], &scene.parts[1]);
    assert_eq!((a.name.as_str(), a.path.as_str()), ("a", "g/a"));
    assert_eq!((b.name.as_str(), b.path.as_str()), ("a much longer name", "g/a much longer name"));
    assert_eq!(a.mesh.triangle_count(), 2);
    assert_eq!(b.mesh.triangle_count(), 1);
    // Object a's matrix then the group's: (0,0,0) lands at (10,1,0).
    let mut xs: Vec<[f32; 3]> = a.mesh.vertices().iter().map(|p| [p.x, p.y, p.z]).collect();
    xs.sort_by(|p, q| p.partial_cmp(q).unwrap());
    assert_eq!(xs, vec![[10.0, 1.0, 0.0], [10.0, 2.0, 0.0], [11.0, 1.0, 0.0], [11.0, 2.0, 0.0]]);
    assert!(b.mesh.vertices().iter().all(|p| p.x >= 10.0 && p.y <= 1.0));
}

#[test]
fn polygons_units_and_continuations() {
    // A concave L-shaped hexagon in feet, its vertex list split by a continuation record.
    let outline = [
        [0.0, 0.0, 0.0],
        [2.0, 0.0, 0.0],
        [2.0, 1.0, 0.0],
        [1.0, 1.0, 0.0],
        [1.0, 2.0, 0.0],
        [0.0, 2.0, 0.0],
    ];
    let vertices: Vec<(u16, [f64; 3])> = outline.iter().map(|&p| (68, p)).collect();
    let (mut f, v) = Flt::new(4, &vertices);
    f.push().face(1).push().vertex_list_continued(&v, 2).pop().pop();
    let scene = read(&f).unwrap();
    assert_eq!(scene.triangle_count(), 4);
    let area: f32 = scene.parts[0].mesh.triangles().map(|t| t.area()).sum();
    let square_foot = 0.3048f32 * 0.3048;
    assert!((area - 3.0 * square_foot).abs() < 1e-5, "{area}");
}

#[test]
fn wireframes_lods_and_switches() {
    let (mut f, v) = square(0);
    f.push();
    f.face(2).push().vertex_list(&v).pop(); // wireframe: skipped
    f.face(8).push().vertex_list(&v).pop(); // light points: skipped
    f.group("lods").push();
    f.lod("coarse", 500.0).push().face(0).push().vertex_list(&v[..3]).pop().pop();
    f.lod("fine", 100.0).push().face(0).push().vertex_list(&v).pop().pop();
    f.pop();
    f.group("switched").push().switch(1, &[0b01, 0b10]).push();
    f.object("off").push().face(0).push().vertex_list(&v[..3]).pop().pop();
    f.object("on").push().face(0).push().vertex_list(&v).pop().pop();
    f.pop().pop();
    f.pop();
    let scene = read(&f).unwrap();
    let by_name = |n: &str| scene.parts.iter().find(|p| p.name == n).map(|p| p.mesh.triangle_count());
    assert_eq!(by_name("lods"), Some(2), "only the fine LOD");
    assert_eq!(by_name("on"), Some(2));
    assert_eq!(by_name("off"), None);
    let skipped =
        |what: &str| scene.skipped.iter().filter(|s| s.what.contains(what)).map(|s| s.count).sum::<usize>();
    assert_eq!(skipped("wireframe"), 2);
    assert_eq!(skipped("level of detail"), 1);
    assert_eq!(skipped("inactive switch"), 1);
}

#[test]
fn meshes_with_local_vertex_pools() {
    let (mut f, _) = Flt::new(0, &[]);
    let pool: Vec<[f64; 3]> = (0..6).map(|k| [k as f64, (k % 2) as f64, 0.0]).collect();
    f.push().object("m").push();
    f.mesh().local_vertex_pool(&pool).push();
    f.mesh_primitive(1, &[0, 1, 2, 3, 4, 5]); // strip: 4 triangles
    f.mesh_primitive(2, &[0, 1, 3, 5]); // fan: 2
    f.mesh_primitive(3, &[0, 1, 2, 3, 4, 5]); // quad strip: 2 quads, 4 triangles
    f.mesh_primitive(4, &[0, 1, 3]); // polygon: 1
    f.pop().pop().pop();
    assert_eq!(read(&f).unwrap().triangle_count(), 11);
}

#[test]
fn far_coordinates_are_recentred() {
    let base = [4.0e6, -3.0e6, 1.0e3];
    let vertices: Vec<(u16, [f64; 3])> = [[0.0, 0.0, 0.0], [0.001, 0.0, 0.0], [0.0, 0.001, 0.0]]
        .iter()
        .map(|d| (68, [base[0] + d[0], base[1] + d[1], base[2] + d[2]]))
        .collect();
    let (mut f, v) = Flt::new(0, &vertices);
    f.push().face(0).push().vertex_list(&v).pop().pop();
    let scene = read(&f).unwrap();
    assert_eq!(scene.origin, [4.0e6, -3.0e6, 1.0e3]);
    // The part's bounds are in the file's frame, exactly as read.
    assert_eq!(scene.parts[0].bounds.min, base);
    assert_eq!(scene.parts[0].bounds.max, [base[0] + 0.001, base[1] + 0.001, base[2]]);
    // A millimetre triangle keeps its shape in f32 once recentred.
    let t = scene.parts[0].mesh.triangle(0);
    assert!((t.area() - 0.5e-6).abs() < 1e-9, "{}", t.area());
}

#[test]
fn external_references_cycles_and_policies() {
    let scratch = tempfile::Builder::new().prefix("bvh-io-flt-").tempdir().unwrap();
    let dir = scratch.path();
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    let (mut child, v) = square(0);
    child.push().object("leaf").push().face(0).push().vertex_list(&v).pop().pop().pop();
    std::fs::write(dir.join("sub/child.flt"), &child.bytes).unwrap();
    let (mut main, _) = Flt::new(0, &[]);
    main.push().group("g").push().external_reference("sub/child.flt").translation(5.0, 0.0, 0.0).pop().pop();
    std::fs::write(dir.join("main.flt"), &main.bytes).unwrap();
    let scene = bvh_io::load(dir.join("main.flt")).unwrap();
    assert_eq!(scene.triangle_count(), 2);
    assert_eq!(scene.parts[0].path, "g/sub/child.flt/leaf");
    assert!(scene.parts[0].mesh.vertices().iter().all(|p| p.x >= 5.0));
    let ignored = read_flt_bytes(&main.bytes, &dir.join("main.flt"), &References::Ignore).unwrap();
    assert_eq!(ignored.triangle_count(), 0);
    assert_eq!(ignored.skipped[0].count, 1);
    // a → b → a.
    let (mut a, _) = Flt::new(0, &[]);
    a.push().external_reference("b.flt").pop();
    let (mut b, _) = Flt::new(0, &[]);
    b.push().external_reference("a.flt").pop();
    std::fs::write(dir.join("a.flt"), &a.bytes).unwrap();
    std::fs::write(dir.join("b.flt"), &b.bytes).unwrap();
    let err = bvh_io::load(dir.join("a.flt")).unwrap_err();
    let mut kind = &err.kind;
    while let ErrorKind::Reference(inner) = kind {
        kind = &inner.kind;
    }
    assert!(matches!(kind, ErrorKind::ReferenceCycle(_)), "{err}");
    let missing = bvh_io::load(dir.join("nope.flt")).unwrap_err();
    assert!(matches!(missing.kind, ErrorKind::Read(_)));
}

#[test]
fn bad_input_is_a_typed_error() {
    let (mut f, v) = square(0);
    f.push().face(0).push().vertex_list(&v).pop().pop();
    let good = f.bytes.clone();
    let full = read(&f).unwrap().triangle_count();
    // Every truncation: an error, or (at a record boundary) a valid file with less geometry.
    for len in 0..good.len() {
        let cut = Flt { bytes: good[..len].to_vec() };
        if let Ok(scene) = read(&cut) {
            assert!(scene.triangle_count() <= full);
        }
    }
    let kind = |bytes: Vec<u8>| read(&Flt { bytes }).unwrap_err().kind;
    // Not starting with a header.
    assert!(matches!(kind(good[132..].to_vec()), ErrorKind::Malformed(_)));
    // A zero-length record, and a length past the end.
    let mut zero = good.clone();
    zero[134..136].copy_from_slice(&0u16.to_be_bytes());
    assert!(matches!(kind(zero), ErrorKind::BadRecordLength { length: 0, .. }));
    let mut long = good.clone();
    long[134..136].copy_from_slice(&u16::MAX.to_be_bytes());
    assert!(matches!(kind(long), ErrorKind::BadRecordLength { .. }));
    // A vertex list pointing outside the palette.
    let (mut f, _) = square(0);
    f.push().face(0).push().vertex_list(&[8, 48, 9999]).pop().pop();
    assert!(matches!(read(&f).unwrap_err().kind, ErrorKind::VertexOutOfRange { index: 9999, .. }));
    // NaN coordinates.
    let (mut f, v) = Flt::new(0, &[(68, [f64::NAN, 0.0, 0.0]), (68, [1.0, 0.0, 0.0]), (68, [0.0, 1.0, 0.0])]);
    f.push().face(0).push().vertex_list(&v).pop().pop();
    assert!(matches!(read(&f).unwrap_err().kind, ErrorKind::NonFinite));
    // Absurd counts in a local vertex pool and a mesh primitive.
    let (mut f, _) = Flt::new(0, &[]);
    let mut pool = Vec::new();
    pool.extend(u32::MAX.to_be_bytes());
    pool.extend(0x8000_0000u32.to_be_bytes());
    f.push().mesh().record(85, &pool).pop();
    assert!(matches!(read(&f).unwrap_err().kind, ErrorKind::AbsurdCount { .. }));
    // Unbalanced push and pop.
    let (mut f, _) = Flt::new(0, &[]);
    f.push();
    assert!(matches!(read(&f).unwrap_err().kind, ErrorKind::Malformed(_)));
    let (mut f, _) = Flt::new(0, &[]);
    f.pop();
    assert!(matches!(read(&f).unwrap_err().kind, ErrorKind::Malformed(_)));
}

#[test]
fn unknown_records_are_skipped_and_counted() {
    let (mut f, v) = square(0);
    f.push().record(150, &[0; 12]).face(0).push().vertex_list(&v).pop().record(31, b"a comment\0\0\0").pop();
    let scene = read(&f).unwrap();
    assert_eq!(scene.triangle_count(), 2);
    assert_eq!(scene.skipped.iter().find(|s| s.what == "unknown record 150").map(|s| s.count), Some(1));
}

#[test]
fn unknown_records_beside_a_node_change_nothing() {
    let plain = read(&with_unknown_records(&[])).unwrap();
    assert_eq!(plain.triangle_count(), 2 + 1 + 2 + 1);
    assert!(plain.skipped.is_empty(), "{:?}", plain.skipped);
    for subset in 1..1u32 << BESIDE.len() {
        let places: Vec<&str> =
            (0..BESIDE.len()).filter(|&k| subset & (1 << k) != 0).map(|k| BESIDE[k]).collect();
        let scene = read(&with_unknown_records(&places)).unwrap_or_else(|e| panic!("{places:?}: {e}"));
        assert_eq!(scene.parts, plain.parts, "{places:?}");
        let unknown: usize =
            scene.skipped.iter().filter(|s| s.what.starts_with("unknown record")).map(|s| s.count).sum();
        assert_eq!(unknown, places.len(), "{places:?}: {:?}", scene.skipped);
    }
}
