//! Mutated valid files fed to every reader: each must return a scene or an error, never panic.
//! The valid files include the shapes readers once refused: ASCII STL in every exporter dialect,
//! binary STL whose header starts with "solid", OpenFlight with unknown records beside nodes.

mod support;

use bvh_io::{References, read_flt_bytes, read_obj, read_stl};
use proptest::prelude::*;
use std::path::Path;
use support::stl::{Style, ascii, binary, sample_triangles};
use support::{BESIDE, Flt, VERTEX_KINDS, with_unknown_records};

fn flt_sample() -> Vec<u8> {
    let corners = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]];
    let vertices: Vec<(u16, [f64; 3])> = VERTEX_KINDS.iter().copied().zip(corners).collect();
    let (mut f, v) = Flt::new(0, &vertices);
    f.push().group("g").translation(1.0, 2.0, 3.0).push();
    f.object("o").push().face(0).push().vertex_list(&v).pop().pop();
    f.lod("l", 10.0).push().face(0).push().vertex_list(&v[..3]).pop().pop();
    f.switch(0, &[1]).push().face(0).push().vertex_list_continued(&v, 1).pop().pop();
    f.mesh().local_vertex_pool(&corners).push().mesh_primitive(1, &[0, 1, 2, 3]).pop();
    f.pop().pop();
    f.bytes
}

const OBJ_SAMPLE: &str =
    "o a\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\ng b\nv 0 0 1\nf -1 -2 -3\nf 1/1/1 2//2 5\n";

/// Applies edits: (position, new byte) overwrites, then an optional truncation.
fn mutate(mut bytes: Vec<u8>, edits: &[(usize, u8)], cut: Option<usize>) -> Vec<u8> {
    if bytes.is_empty() {
        return bytes;
    }
    for &(at, b) in edits {
        let i = at % bytes.len();
        bytes[i] = b;
    }
    if let Some(c) = cut {
        bytes.truncate(c % (bytes.len() + 1));
    }
    bytes
}

proptest! {
    // A fixed seed keeps CI deterministic; the fuzz targets explore further.
    #![proptest_config(ProptestConfig {
        cases: 2000,
        failure_persistence: None,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x10_5eed),
        ..ProptestConfig::default()
    })]

    #[test]
    fn openflight_never_panics(edits in prop::collection::vec((any::<usize>(), any::<u8>()), 0..8), cut in prop::option::of(any::<usize>())) {
        let bytes = mutate(flt_sample(), &edits, cut);
        let _ = read_flt_bytes(&bytes, Path::new("m.flt"), &References::Ignore);
    }

    #[test]
    fn obj_never_panics(edits in prop::collection::vec((any::<usize>(), any::<u8>()), 0..8), cut in prop::option::of(any::<usize>())) {
        let bytes = mutate(OBJ_SAMPLE.as_bytes().to_vec(), &edits, cut);
        let _ = read_obj(&bytes, Path::new("m.obj"));
    }

    #[test]
    fn openflight_with_unknown_records_never_panics(places in prop::sample::subsequence(BESIDE.to_vec(), 0..=BESIDE.len()), edits in prop::collection::vec((any::<usize>(), any::<u8>()), 0..8), cut in prop::option::of(any::<usize>())) {
        let bytes = mutate(with_unknown_records(&places).bytes, &edits, cut);
        let _ = read_flt_bytes(&bytes, Path::new("m.flt"), &References::Ignore);
    }

    #[test]
    fn binary_stl_never_panics(solid_header in any::<bool>(), edits in prop::collection::vec((any::<usize>(), any::<u8>()), 0..8), cut in prop::option::of(any::<usize>())) {
        let header: &[u8] = if solid_header { b"solid written by a binary exporter" } else { b"" };
        let bytes = mutate(binary(header, &sample_triangles()), &edits, cut);
        let _ = read_stl(&bytes, Path::new("m.stl"));
    }

    #[test]
    fn ascii_stl_never_panics(style in any::<u8>(), edits in prop::collection::vec((any::<usize>(), any::<u8>()), 0..8), cut in prop::option::of(any::<usize>())) {
        let bytes = mutate(ascii(&sample_triangles(), &Style::numbered(style)), &edits, cut);
        let _ = read_stl(&bytes, Path::new("m.stl"));
    }
}

#[test]
fn the_unmutated_samples_read() {
    let flt = read_flt_bytes(&flt_sample(), Path::new("m.flt"), &References::Ignore).unwrap();
    assert_eq!(flt.triangle_count(), 2 + 1 + 2 + 2);
    assert_eq!(read_obj(OBJ_SAMPLE.as_bytes(), Path::new("m.obj")).unwrap().triangle_count(), 4);
    let stl = binary(b"solid", &sample_triangles());
    assert_eq!(read_stl(&stl, Path::new("m.stl")).unwrap().triangle_count(), 3);
    let stl = ascii(&sample_triangles(), &Style::windows());
    assert_eq!(read_stl(&stl, Path::new("m.stl")).unwrap().triangle_count(), 3);
    let flt = read_flt_bytes(&with_unknown_records(&BESIDE).bytes, Path::new("m.flt"), &References::Ignore);
    assert_eq!(flt.unwrap().triangle_count(), 6);
}
