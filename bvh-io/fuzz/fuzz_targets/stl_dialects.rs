//! ASCII and binary STL in the dialects exporters write (line ends, indents, case, names,
//! `solid` headers on binary files), then edited by the fuzzer: the reader returns a scene or an
//! error, and never panics. Byte 0 picks the dialect; each following 3 bytes overwrite one byte
//! (little-endian u16 position, value); 2 bytes left over cut the file there.
#![no_main]

#[path = "../../tests/support/mod.rs"]
mod support;

use libfuzzer_sys::fuzz_target;
use std::path::Path;
use support::stl::{Style, ascii, binary, sample_triangles};

fuzz_target!(|data: &[u8]| {
    let Some((&dialect, edits)) = data.split_first() else { return };
    let mut bytes = match dialect {
        0 => binary(b"solid but binary", &sample_triangles()),
        1 => binary(b"", &sample_triangles()),
        bits => ascii(&sample_triangles(), &Style::numbered(bits)),
    };
    support::edit(&mut bytes, edits);
    let _ = bvh_io::read_stl(&bytes, Path::new("fuzz.stl"));
});
