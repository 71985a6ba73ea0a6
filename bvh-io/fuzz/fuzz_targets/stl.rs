//! Any bytes: the stl reader returns a scene or an error, and never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let _ = bvh_io::read_stl(data, Path::new("fuzz.stl"));
});
