//! Principal axes: the eigenvectors of a covariance, largest eigenvalue first, which the OBB
//! fits use as box axes.

use crate::math::{Matrix, Point, Real};
use nalgebra::Matrix3;

/// Orthonormal right-handed eigenvectors of the points' covariance, largest variance first.
/// Falls back to the coordinate axes for fewer than two points or non-finite input.
pub fn principal_axes(points: &[Point]) -> Matrix {
    if points.len() < 2 {
        return Matrix::identity();
    }
    let mean = crate::math::mean(points);
    // The six distinct entries (xx, yy, zz, xy, xz, yz), mirrored after the sums.
    let mut sums = [0.0f64; 6];
    for p in points {
        let [x, y, z] = (p - mean).cast::<f64>().into();
        for (sum, term) in sums.iter_mut().zip([x * x, y * y, z * z, x * y, x * z, y * z]) {
            *sum += term;
        }
    }
    let [xx, yy, zz, xy, xz, yz] = sums;
    let cov = Matrix3::new(xx, xy, xz, xy, yy, yz, xz, yz, zz);
    axes_of_covariance(&(cov / points.len() as f64))
}

/// Orthonormal right-handed eigenvectors of a symmetric covariance matrix, largest eigenvalue
/// first; the coordinate axes when the matrix is not finite or has no preferred direction.
///
/// In closed form, because a build decomposes one matrix per node (several times faster than an
/// iterative solver): the eigenvalues from the trigonometric solution of the characteristic
/// cubic, the eigenvector of the one farthest from the others as the longest cross product of
/// two rows of `M − λI`, and the remaining two as the axes of the 2×2 problem in the plane
/// across it. Only the directions matter here: a box's extents are measured afterwards.
pub fn axes_of_covariance(cov: &Matrix3<f64>) -> Matrix {
    let scale = cov.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    if !scale.is_finite() || scale == 0.0 {
        return Matrix::identity();
    }
    let m = cov * scale.recip();
    let Some([l1, l2, l3]) = symmetric_eigenvalues(&m) else { return Matrix::identity() };
    // Start from the best separated eigenvalue: its eigenvector is the best conditioned.
    let (first, largest_first) = if l1 - l2 >= l2 - l3 { (l1, true) } else { (l3, false) };
    let Some(v) = eigenvector(&m, first) else { return Matrix::identity() };
    let (u, w) = plane_across(&v);
    // The 2×2 matrix of `m` on (u, w) and its larger eigenvalue's eigenvector, written so that
    // neither coordinate is a difference of nearly equal terms.
    let (muu, mww, muw) = ((m * u).dot(&u), (m * w).dot(&w), (m * u).dot(&w));
    let half_gap = 0.5 * (muu - mww);
    // The scaled entries are at most one: the plain root of the squares cannot overflow.
    let radius = (half_gap * half_gap + muw * muw).sqrt();
    let larger = if radius == 0.0 {
        u
    } else if half_gap >= 0.0 {
        unit(u * (half_gap + radius) + w * muw)
    } else {
        unit(u * muw + w * (radius - half_gap))
    };
    let (e1, e2) = if largest_first { (v, larger) } else { (larger, unit(v.cross(&larger))) };
    let e2 = unit(e2 - e1 * e1.dot(&e2));
    let axes = Matrix3::from_columns(&[e1, e2, e1.cross(&e2)]).cast::<Real>();
    if axes.iter().all(|x| x.is_finite()) { axes } else { Matrix::identity() }
}

/// Eigenvalues of a symmetric 3×3 matrix, largest first (Smith's trigonometric solution).
fn symmetric_eigenvalues(m: &Matrix3<f64>) -> Option<[f64; 3]> {
    let off = m[(0, 1)].powi(2) + m[(0, 2)].powi(2) + m[(1, 2)].powi(2);
    let q = m.trace() / 3.0;
    let spread = (m[(0, 0)] - q).powi(2) + (m[(1, 1)] - q).powi(2) + (m[(2, 2)] - q).powi(2) + 2.0 * off;
    if spread <= 0.0 {
        return None;
    }
    let p = (spread / 6.0).sqrt();
    let b = minus_diagonal(m, q) * p.recip();
    let phi = (0.5 * b.determinant()).clamp(-1.0, 1.0).acos() / 3.0;
    // cos(φ + 2π/3) from cos φ and sin φ, one cosine instead of two. φ lies in [0, π/3], so
    // the root is accurate wherever the smallest eigenvalue is the one used: near φ = 0 it is
    // nearly repeated and the largest is taken instead.
    let cos = phi.cos();
    let sin = (1.0 - cos * cos).max(0.0).sqrt();
    let l1 = q + 2.0 * p * cos;
    let l3 = q - p * (cos + SQRT_3 * sin);
    Some([l1, 3.0 * q - l1 - l3, l3])
}

/// A unit eigenvector of `m` for its eigenvalue `lambda`: the longest cross product of two rows
/// of `m − λI` (which is orthogonal to both, hence in its null space).
fn eigenvector(m: &Matrix3<f64>, lambda: f64) -> Option<nalgebra::Vector3<f64>> {
    let shifted = minus_diagonal(m, lambda);
    let rows = [0, 1, 2].map(|i| shifted.row(i).transpose());
    let best = [rows[0].cross(&rows[1]), rows[0].cross(&rows[2]), rows[1].cross(&rows[2])]
        .into_iter()
        .max_by(|a, b| a.norm_squared().total_cmp(&b.norm_squared()))?;
    let norm = best.norm();
    (norm > 0.0 && norm.is_finite()).then(|| best * norm.recip())
}

/// `m − λI`: the diagonal alone shifted (multiplying all of `I` by `λ` would cost nine products
/// and nine differences that change nothing).
fn minus_diagonal(m: &Matrix3<f64>, lambda: f64) -> Matrix3<f64> {
    let mut shifted = *m;
    for i in 0..3 {
        shifted[(i, i)] -= lambda;
    }
    shifted
}

/// √3.
const SQRT_3: f64 = 1.732_050_807_568_877_2;

/// `v` scaled to unit length (one division, not three).
fn unit(v: nalgebra::Vector3<f64>) -> nalgebra::Vector3<f64> {
    v * v.norm().recip()
}

/// Two unit vectors completing `v` (unit) to an orthonormal basis.
fn plane_across(v: &nalgebra::Vector3<f64>) -> (nalgebra::Vector3<f64>, nalgebra::Vector3<f64>) {
    let helper = if v.x.abs() < 0.6 { nalgebra::Vector3::x() } else { nalgebra::Vector3::y() };
    let u = unit(v.cross(&helper));
    (u, v.cross(&u))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The closed-form axes are eigenvectors, largest eigenvalue first, on random covariances
    /// and on ones with repeated or zero eigenvalues.
    #[test]
    fn axes_are_the_eigenvectors_in_order() {
        let mut seed = 7u64;
        let mut next = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        };
        let turn = nalgebra::Rotation3::from_euler_angles(0.7f64, -0.2, 2.1);
        let with = |d: [f64; 3]| {
            turn.matrix() * Matrix3::from_diagonal(&nalgebra::Vector3::from(d)) * turn.matrix().transpose()
        };
        let mut cases = vec![
            with([9.0, 4.0, 4.0]),
            with([9.0, 9.0, 1.0]),
            with([1e6, 1e-6, 0.0]),
            with([3.0, 0.0, 0.0]),
            Matrix3::from_diagonal(&nalgebra::Vector3::new(1.0, 3.0, 2.0)),
        ];
        for _ in 0..500 {
            let a = Matrix3::from_fn(|_, _| next());
            cases.push(a * a.transpose());
        }
        for m in cases {
            let axes = axes_of_covariance(&m).cast::<f64>();
            assert!((axes.transpose() * axes - Matrix3::identity()).norm() < 1e-5, "{m}");
            assert!((axes.determinant() - 1.0).abs() < 1e-5, "{m}");
            let mut expected: Vec<f64> = m.symmetric_eigenvalues().iter().copied().collect();
            expected.sort_by(|a, b| b.total_cmp(a));
            let scale = m.norm();
            for (i, lambda) in expected.iter().enumerate() {
                let e = axes.column(i);
                // The Rayleigh quotient on each axis is its eigenvalue (exactly so for repeated
                // eigenvalues, where any direction in the eigenspace will do).
                assert!((e.dot(&(m * e)) - lambda).abs() < 1e-5 * scale, "{m}: axis {i}");
            }
        }
        assert_eq!(axes_of_covariance(&Matrix3::identity()), Matrix::identity());
        assert_eq!(axes_of_covariance(&Matrix3::zeros()), Matrix::identity());
        assert_eq!(axes_of_covariance(&Matrix3::repeat(f64::NAN)), Matrix::identity());
    }
}
