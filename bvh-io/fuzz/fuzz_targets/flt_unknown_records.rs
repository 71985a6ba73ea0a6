//! OpenFlight with unknown records beside its nodes (after a group, an object, a face, a
//! subface, a mesh, a LOD), then edited by the fuzzer: the reader returns a scene or an error,
//! and never panics. Byte 0's low bits pick the places; each following 3 bytes overwrite one byte
//! (little-endian u16 position, value); 2 bytes left over cut the file there.
#![no_main]

#[path = "../../tests/support/mod.rs"]
mod support;

use libfuzzer_sys::fuzz_target;
use std::path::Path;
use support::{BESIDE, with_unknown_records};

fuzz_target!(|data: &[u8]| {
    let Some((&places, edits)) = data.split_first() else { return };
    let places: Vec<&str> = (0..BESIDE.len()).filter(|&k| places & (1 << k) != 0).map(|k| BESIDE[k]).collect();
    let mut bytes = with_unknown_records(&places).bytes;
    support::edit(&mut bytes, edits);
    let _ = bvh_io::read_flt_bytes(&bytes, Path::new("fuzz.flt"), &bvh_io::References::Ignore);
});
