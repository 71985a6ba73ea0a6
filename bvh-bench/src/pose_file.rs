//! Poses as text: the 12 numbers of a row-major 3×4 matrix `[R|t]`, one pose per line of a pose
//! file (the format of `../shared/anchors`) or in one command-line argument, validated – a
//! rotation up to print rounding, finite numbers.

use bvh_core::{Isometry, Matrix, Rotation, Vector};
use std::path::Path;

/// The pose written as 12 numbers, the row-major 3x4 matrix `[R|t]` (finite, so every query
/// accepts it). `R` must be a rotation up to the rounding of a printed file; it is then
/// re-orthonormalised. A scale, shear or mirror is refused rather than replaced by the nearest
/// rotation: the answers would be for another pose.
pub fn pose_from_numbers(v: &[f32]) -> Result<Isometry, String> {
    if v.len() != 12 || !v.iter().all(|x| x.is_finite()) {
        return Err("expected 12 finite numbers".into());
    }
    let r = Matrix::new(v[0], v[1], v[2], v[4], v[5], v[6], v[8], v[9], v[10]);
    let (off_orthonormal, determinant) =
        ((r.transpose() * r - Matrix::identity()).abs().max(), r.determinant());
    if off_orthonormal > ROTATION_TOLERANCE || determinant < 0.0 {
        return Err(format!(
            "the 3x3 part is not a rotation (RᵀR differs from the identity by {off_orthonormal:.1e}, \
             determinant {determinant:.3})"
        ));
    }
    let rotation = Rotation::from_matrix(&r);
    Ok(Isometry::from_parts(Vector::new(v[3], v[7], v[11]).into(), rotation))
}

/// A pose given as 12 numbers in one string; `option` (a command-line option, a file's line)
/// names it in errors.
pub fn pose_from_text(option: &str, text: &str) -> Result<Isometry, String> {
    let numbers: Vec<f32> = text
        .split_whitespace()
        .map(str::parse)
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{option}: {e}"))?;
    pose_from_numbers(&numbers).map_err(|e| format!("{option}: {e}"))
}

/// How far `RᵀR` of a pose file's rotation may stray from the identity: a rotation printed with
/// six significant digits strays by about 1e-6.
const ROTATION_TOLERANCE: f32 = 1e-3;

/// Reads a pose file; the rotation part is re-orthonormalised.
pub fn read_poses(path: &Path) -> Result<Vec<Isometry>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, line)| pose_from_text(&format!("{}:{}", path.display(), i + 1), line))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rotation printed to six digits is taken (and re-orthonormalised); a scale, a mirror, a
    /// NaN or a short line is refused, saying why.
    #[test]
    fn only_rigid_poses_are_taken() {
        let pose =
            pose_from_text("--pose", "0.707107 -0.707107 0 1  0.707107 0.707107 0 2  0 0 1 3").unwrap();
        assert!((pose.rotation.angle() - std::f32::consts::FRAC_PI_4).abs() < 1e-5);
        assert_eq!(pose.translation.vector, Vector::new(1.0, 2.0, 3.0));
        for (text, why) in [
            ("2 0 0 0  0 2 0 0  0 0 2 0", "not a rotation"),
            ("-1 0 0 0  0 1 0 0  0 0 1 0", "not a rotation"),
            ("1 0 0 NaN  0 1 0 0  0 0 1 0", "12 finite numbers"),
            ("1 0 0 0  0 1 0 0  0 0 1", "12 finite numbers"),
            ("1 0 0 x  0 1 0 0  0 0 1 0", "invalid float"),
        ] {
            let error = pose_from_text("--pose", text).unwrap_err();
            assert!(error.starts_with("--pose: ") && error.contains(why), "{text}: {error}");
        }
    }
}
