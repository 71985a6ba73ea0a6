//! Reading meshes and scenes: OBJ (through `tobj`), STL (written here) and OpenFlight
//! (written here). A file yields a [`Scene`] of named [`Part`]s; anything wrong yields an
//! [`IoError`] naming the file, the place and the problem — never a panic, never an allocation
//! sized by a count the file has not backed with bytes, never geometry silently dropped (what is
//! passed over is counted in [`Scene::skipped`]).
//!
//! Only this crate touches files.

mod error;
mod flt;
mod obj;
mod scene;
mod stl;

pub use error::{ErrorKind, IoError, Location};
pub use flt::{MAX_REFERENCE_DEPTH, References, read_flt, read_flt_bytes, read_flt_file};
pub use obj::read_obj;
pub use scene::{Bounds, Part, Scene, Skipped};
pub use stl::read_stl;

use std::path::Path;

/// Reads a mesh file, choosing the reader by its extension (`.obj`, `.stl`, `.flt`;
/// case-insensitive). OpenFlight external references are followed relative to the file.
pub fn load(path: impl AsRef<Path>) -> Result<Scene, IoError> {
    let path = path.as_ref();
    let extension = path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase());
    let read = |path: &Path| std::fs::read(path).map_err(|e| IoError::new(path, Location::Unknown, e.into()));
    match extension.as_deref() {
        Some("obj") => read_obj(&read(path)?, path),
        Some("stl") => read_stl(&read(path)?, path),
        Some("flt") => read_flt(path),
        _ => Err(IoError::new(path, Location::Unknown, ErrorKind::UnknownFormat)),
    }
}
