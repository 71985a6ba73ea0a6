//! Mutated valid files fed to every reader: each must return a scene or an error, never panic.

mod support;

use bvh_io::{References, read_flt_bytes, read_obj, read_stl};
use proptest::prelude::*;
use std::path::Path;
use support::{Flt, VERTEX_KINDS};

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

fn stl_sample() -> Vec<u8> {
    let mut out = vec![0u8; 80];
    out.extend(2u32.to_le_bytes());
    for _ in 0..2 {
        out.extend([0u8; 12]);
        out.extend([0.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0].iter().flat_map(|c| c.to_le_bytes()));
        out.extend([0u8; 2]);
    }
    out
}

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
    fn stl_never_panics(edits in prop::collection::vec((any::<usize>(), any::<u8>()), 0..8), cut in prop::option::of(any::<usize>())) {
        let bytes = mutate(stl_sample(), &edits, cut);
        let _ = read_stl(&bytes, Path::new("m.stl"));
    }
}

#[test]
fn the_unmutated_samples_read() {
    let flt = read_flt_bytes(&flt_sample(), Path::new("m.flt"), &References::Ignore).unwrap();
    assert_eq!(flt.triangle_count(), 2 + 1 + 2 + 2);
    assert_eq!(read_obj(OBJ_SAMPLE.as_bytes(), Path::new("m.obj")).unwrap().triangle_count(), 4);
    assert_eq!(read_stl(&stl_sample(), Path::new("m.stl")).unwrap().triangle_count(), 2);
}
