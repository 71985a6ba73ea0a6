//! Exact orientation predicates on `f32` points.
//!
//! Every `f32` lifts into `f64` without loss, and Shewchuk's adaptive predicates (the `robust`
//! crate) decide the sign of a determinant of `f64` inputs exactly. The common case never reaches
//! them: a floating-point evaluation whose forward error bound already fixes the sign answers
//! first, so exactness costs a few comparisons unless a configuration is (nearly) degenerate.

use crate::math::{Point, Real, cross, sub};
use std::cmp::Ordering;

/// Shewchuk's bound on the relative error of a 3×3 determinant evaluated as a sum of three
/// products of a difference and a 2×2 minor: `(7 + 56ε)ε` with `ε = 2⁻⁵³`.
const ORIENT3D_ERROR_BOUND: f64 = (7.0 + 56.0 * f64::EPSILON / 2.0) * (f64::EPSILON / 2.0);

/// Sign of `((b - a) × (c - a)) · (d - a)`: positive when `d` lies on the side of the plane
/// `(a, b, c)` that its right-handed normal points to; zero exactly when the four are coplanar.
#[inline]
pub fn orient3d(a: &Point, b: &Point, c: &Point, d: &Point) -> Ordering {
    let [a, b, c, d] = [a, b, c, d].map(lift);
    PlaneSide::new(&a, &b, &c).side(&d).sign
}

/// [`orient3d`] without the floating-point filter: Shewchuk's adaptive evaluation.
#[cold]
#[inline(never)]
fn orient3d_exact(a: &Lifted, b: &Lifted, c: &Lifted, d: &Lifted) -> Ordering {
    // `robust` evaluates det[a-d, b-d, c-d], which is the negation of our convention.
    let r = robust::orient3d(coord3(a), coord3(b), coord3(c), coord3(d));
    0.0.partial_cmp(&r).unwrap_or(Ordering::Equal)
}

/// Sign of `(b - a) × (c - a)` for 2-D points: positive when `a, b, c` turn counter-clockwise.
pub fn orient2d(a: [Real; 2], b: [Real; 2], c: [Real; 2]) -> Ordering {
    let r = robust::orient2d(coord2(a), coord2(b), coord2(c));
    r.partial_cmp(&0.0).unwrap_or(Ordering::Equal)
}

/// `true` when the three points are collinear (including repeated points), decided exactly:
/// a 3-D triangle has zero area iff its projections on the three coordinate planes all do.
pub fn collinear(a: &Point, b: &Point, c: &Point) -> bool {
    (0..3).all(|axis| {
        let (pa, pb, pc) = (project(a, axis), project(b, axis), project(c, axis));
        orient2d(pa, pb, pc) == Ordering::Equal
    })
}

/// Drops coordinate `axis` of `p`, keeping the other two in cyclic order (`axis + 1`, `axis + 2`),
/// so a counter-clockwise turn seen from `+axis` stays counter-clockwise.
#[inline]
pub fn project(p: &Point, axis: usize) -> [Real; 2] {
    [p[(axis + 1) % 3], p[(axis + 2) % 3]]
}

/// An `f32` point's coordinates in `f64`, where they are exact: lifted once for every test a
/// triangle takes part in.
pub(crate) type Lifted = [f64; 3];

/// The plane of one triangle, prepared for many side tests: the normal is computed once in `f64`
/// together with the magnitudes that bound its rounding error. The corners are borrowed, for the
/// exact test only (copies were the largest part of making one).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PlaneSide<'p> {
    a: &'p Lifted,
    b: &'p Lifted,
    c: &'p Lifted,
    normal: [f64; 3],
    /// Per component, the sum of the absolute values of the two products forming the normal.
    normal_magnitude: [f64; 3],
}

/// Where a point lies against a plane ([`PlaneSide::side`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Side {
    /// The exact side, as [`orient3d`].
    pub(crate) sign: Ordering,
    /// The determinant in `f64` (a signed distance scaled by the normal's length), of the same
    /// sign: only to interpolate crossings.
    pub(crate) value: f64,
    /// A bound on how far `value` may be from the exact determinant.
    pub(crate) error: f64,
}

impl<'p> PlaneSide<'p> {
    #[inline]
    pub(crate) fn new(a: &'p Lifted, b: &'p Lifted, c: &'p Lifted) -> Self {
        let u = sub(b, a);
        let v = sub(c, a);
        let normal = cross(&u, &v);
        let normal_magnitude = [
            (u[1] * v[2]).abs() + (u[2] * v[1]).abs(),
            (u[2] * v[0]).abs() + (u[0] * v[2]).abs(),
            (u[0] * v[1]).abs() + (u[1] * v[0]).abs(),
        ];
        Self { a, b, c, normal, normal_magnitude }
    }

    /// The side of `p` (as [`orient3d`]`(a, b, c, p)`), exact, with the determinant in `f64` and
    /// its error bound: the relative bound times the permanent (the determinant with every
    /// product's absolute value).
    #[inline]
    pub(crate) fn side(&self, p: &Lifted) -> Side {
        let w = sub(p, self.a);
        let value = w[0] * self.normal[0] + w[1] * self.normal[1] + w[2] * self.normal[2];
        let permanent = w[0].abs() * self.normal_magnitude[0]
            + w[1].abs() * self.normal_magnitude[1]
            + w[2].abs() * self.normal_magnitude[2];
        let error = ORIENT3D_ERROR_BOUND * permanent;
        if value.abs() > error {
            // The bound is non-negative, so the value is not zero here.
            Side { sign: if value > 0.0 { Ordering::Greater } else { Ordering::Less }, value, error }
        } else {
            self.exact_side(p, value, error)
        }
    }

    /// [`PlaneSide::side`] of each of three points (written out: through `array::map` the
    /// compiler kept `side` out of line).
    #[inline]
    pub(crate) fn sides(&self, t: &[Lifted; 3]) -> [Side; 3] {
        [self.side(&t[0]), self.side(&t[1]), self.side(&t[2])]
    }

    /// [`PlaneSide::side`] where the filter could not fix the sign (near-coplanar input).
    #[cold]
    #[inline(never)]
    fn exact_side(&self, p: &Lifted, value: f64, error: f64) -> Side {
        let sign = orient3d_exact(self.a, self.b, self.c, p);
        // Keep the value's sign consistent with the exact one, for interpolation: it moves
        // towards the exact determinant, so stays within the error bound of it.
        let value = match sign {
            Ordering::Equal => 0.0,
            Ordering::Greater => value.max(f64::MIN_POSITIVE),
            Ordering::Less => value.min(-f64::MIN_POSITIVE),
        };
        Side { sign, value, error }
    }

    /// The normal `(b - a) × (c - a)` in `f64` (rounded, never used to decide a sign).
    pub(crate) fn normal(&self) -> [f64; 3] {
        self.normal
    }
}

#[inline]
fn coord3(p: &Lifted) -> robust::Coord3D<f64> {
    robust::Coord3D { x: p[0], y: p[1], z: p[2] }
}

#[inline]
fn coord2(p: [Real; 2]) -> robust::Coord<f64> {
    robust::Coord { x: p[0] as f64, y: p[1] as f64 }
}

#[inline]
pub(crate) fn lift(p: &Point) -> Lifted {
    [p.x as f64, p.y as f64, p.z as f64]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: Real, y: Real, z: Real) -> Point {
        Point::new(x, y, z)
    }

    #[test]
    fn orient3d_sign_convention() {
        let (a, b, c) = (p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0), p(0.0, 1.0, 0.0));
        assert_eq!(orient3d(&a, &b, &c, &p(0.0, 0.0, 1.0)), Ordering::Greater);
        assert_eq!(orient3d(&a, &b, &c, &p(0.3, 0.3, -1.0)), Ordering::Less);
        assert_eq!(orient3d(&a, &b, &c, &p(5.0, -7.0, 0.0)), Ordering::Equal);
        assert_eq!(orient2d([0.0, 0.0], [1.0, 0.0], [0.0, 1.0]), Ordering::Greater);
    }

    #[test]
    fn plane_side_agrees_with_exact_predicate_on_near_coplanar_points() {
        // Points on, a hair off and well off a skew plane: the filter answers only where it is
        // sure, and defers to the exact predicate elsewhere.
        let (a, b, c) = (p(0.1, 0.2, 0.3), p(1.7, 0.9, -0.4), p(-0.6, 1.3, 0.8));
        let [la, lb, lc] = [a, b, c].map(|p| lift(&p));
        let plane = PlaneSide::new(&la, &lb, &lc);
        for i in 0..2000 {
            let t = i as Real / 2000.0;
            let q = a + (b - a) * t + (c - a) * (1.0 - t) * 0.5;
            for dz in [0.0, Real::EPSILON, -Real::EPSILON, 1e-30, 1e-4, -0.5] {
                let probe = lift(&(q + Vector3::new(0.0, 0.0, dz)));
                assert_eq!(plane.side(&probe).sign, orient3d_exact(&la, &lb, &lc, &probe));
            }
        }
    }

    #[test]
    fn plane_side_values_lie_within_their_error_bounds() {
        // Coordinates on a grid of 2⁻¹⁶ (exact integers in i128 once scaled), of three scales,
        // points near the plane: the f64 determinant within its bound of the exact one.
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut coordinate = |scale: Real| ((next() % 65_536) as Real - 32_768.0) / 32_768.0 * scale;
        let snap = |x: Real| (x * 65_536.0).round() / 65_536.0;
        let exact = |a: &Point, b: &Point, c: &Point, d: &Point| {
            let int = |x: Real| (x as f64 * 65_536.0) as i128;
            let [u, v, w] = [b, c, d].map(|q| [0, 1, 2].map(|k| int(q[k]) - int(a[k])));
            let det = u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0])
                + u[2] * (v[0] * w[1] - v[1] * w[0]);
            det as f64 / 65_536.0f64.powi(3)
        };
        for round in 0..20_000 {
            let scale = [1.0, 64.0, 1024.0][round % 3];
            let mut point = || p(snap(coordinate(scale)), snap(coordinate(scale)), snap(coordinate(scale)));
            let (a, b, c) = (point(), point(), point());
            let t = (round % 97) as Real / 97.0;
            let near = a + (b - a) * t + (c - a) * (1.0 - t) * 0.5;
            let d = p(snap(near.x), snap(near.y), snap(near.z + (round % 5) as Real / 65_536.0));
            let [la, lb, lc, ld] = [a, b, c, d].map(|p| lift(&p));
            let Side { value, error, .. } = PlaneSide::new(&la, &lb, &lc).side(&ld);
            let det = exact(&a, &b, &c, &d);
            assert!(
                (value - det).abs() <= error + f64::EPSILON * det.abs(),
                "{a:?} {b:?} {c:?} {d:?}: {value} against {det}, bound {error}"
            );
        }
    }

    #[test]
    fn collinear_is_exact() {
        assert!(collinear(&p(0.0, 0.0, 0.0), &p(1.0, 1.0, 1.0), &p(3.0, 3.0, 3.0)));
        assert!(collinear(&p(1.0, 2.0, 3.0), &p(1.0, 2.0, 3.0), &p(1.0, 2.0, 3.0)));
        assert!(!collinear(&p(0.0, 0.0, 0.0), &p(1.0, 1.0, 1.0), &p(3.0, 3.0, 3.000_001)));
    }

    use nalgebra::Vector3;
}
