//! Binary STL: an 80-byte header, a little-endian `u32` triangle count, then 50 bytes per
//! triangle (normal, three corners, a 2-byte attribute). The count is checked against the file's
//! size before anything is allocated.

use crate::error::{ErrorKind, IoError, Location};
use std::path::Path;

const HEADER: usize = 84;
const TRIANGLE: usize = 50;

/// The triangle count in the header, when the file is long enough to hold one.
fn count(bytes: &[u8]) -> Option<u64> {
    let count: [u8; 4] = bytes.get(80..HEADER)?.try_into().ok()?;
    Some(u32::from_le_bytes(count) as u64)
}

/// Whether the file's size is exactly what its header's count needs: how binary files whose
/// header happens to start with "solid" are told from ASCII ones.
pub(super) fn has_exact_size(bytes: &[u8]) -> bool {
    count(bytes).is_some_and(|n| bytes.len() as u64 == HEADER as u64 + TRIANGLE as u64 * n)
}

/// The triangles' corners, three per triangle. Bytes after the last triangle are ignored.
pub(super) fn corners(bytes: &[u8], file: &Path) -> Result<Vec<[f32; 3]>, IoError> {
    let len = bytes.len() as u64;
    let error = |at, kind| IoError::new(file, Location::Offset(at), kind);
    let Some(count) = count(bytes) else {
        return Err(error(0, ErrorKind::Truncated { needed: HEADER as u64, available: len }));
    };
    let available = len - HEADER as u64;
    if count.saturating_mul(TRIANGLE as u64) > available {
        return Err(error(80, ErrorKind::AbsurdCount { count, available }));
    }
    let mut corners = Vec::with_capacity(3 * count as usize);
    for (k, record) in bytes[HEADER..].chunks_exact(TRIANGLE).take(count as usize).enumerate() {
        for corner in record[12..48].chunks_exact(12) {
            let p: [f32; 3] = std::array::from_fn(|d| {
                let b = &corner[4 * d..4 * d + 4];
                f32::from_le_bytes([b[0], b[1], b[2], b[3]])
            });
            if !p.iter().all(|c| c.is_finite()) {
                return Err(error((HEADER + TRIANGLE * k) as u64, ErrorKind::NonFinite));
            }
            corners.push(p);
        }
    }
    Ok(corners)
}
