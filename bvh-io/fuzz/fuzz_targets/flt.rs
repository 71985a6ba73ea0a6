//! Any bytes: the flt reader returns a scene or an error, and never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let _ = bvh_io::read_flt_bytes(data, Path::new("fuzz.flt"), &bvh_io::References::Ignore);
});
