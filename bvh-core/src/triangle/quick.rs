//! A quick verdict on two triangles, in `f32` with error bounds: most candidate pairs a traversal
//! meets lie clearly apart or clearly across each other, and this settles them for a fraction of
//! the exact test's cost. Whatever rounding could decide otherwise is left to the exact test.
//!
//! Every sign taken here is the sign of the same orientation determinant the exact test takes,
//! computed in `f32` and trusted only beyond a bound on its rounding error: Shewchuk's bound for
//! the determinant (relative to its permanent, the rounded differences included), doubled, plus
//! an absolute term for products that underflow. Overflow makes the bound infinite and NaN makes
//! every comparison false, so neither ever decides. A zero-area triangle's determinants are
//! zero, never trusted: such pairs always go to the exact test. The underflow term counts on
//! subnormal results, the default: in a thread that flushes them to zero (some game engines set
//! it) a result below 10⁻³⁸ is lost whole, which the term covers unless nonzero coordinates
//! within about 10⁻¹² of zero (whose differences can make such results) meet points more than
//! 10⁴ away.

use super::Triangle;
use crate::math::Point;
use wide::f32x4;

/// Twice Shewchuk's relative error bound for an orientation determinant with unit roundoff
/// 2⁻²⁴ (`(7 + 56ε)ε`).
const RELATIVE: f32 = 2.0 * (7.0 + 56.0 / 16_777_216.0) / 16_777_216.0;

/// 2⁻⁹⁶: over five times what underflow can cost a value whose point lies within [`REACH`] of
/// the plane's corner – each product that underflows is off by at most 2⁻¹⁵⁰, and the six
/// forming the normal are then multiplied by one of the point's differences. Normal, as every
/// constant here: arithmetic on subnormal numbers is slow on most processors.
const UNDERFLOW: f32 = 1.0 / (1u128 << 96) as f32;

/// How far (sum of the absolute differences) a point may lie from the plane's corner for its
/// side to be trusted: far enough for any sensible mesh, near enough to keep [`UNDERFLOW`]
/// small.
const REACH: f32 = (1u64 << 49) as f32;

/// `Some(answer)` when rounding cannot change whether the two closed triangles share a point,
/// which it can only near a touching or degenerate configuration; `None` there.
#[inline(always)]
pub(super) fn quick_verdict(t1: &Triangle, t2: &Triangle) -> Option<bool> {
    let above2 = match Plane::of(t1).sides(t2)? {
        Sides::Apart => return Some(false),
        Sides::Across(above) => above,
    };
    let Sides::Across(above1) = Plane::of(t2).sides(t1)? else { return Some(false) };
    // As the exact test's canonical pair: each triangle from its apex (the corner alone on its
    // side of the other's plane), the other's last two corners swapped when that apex lies
    // below. Picked by index, not by branches: the apexes fall at random.
    let [apex1, below1] = APEX[above1 as usize];
    let [apex2, below2] = APEX[above2 as usize];
    let (v1, v2) = (t1.vertices(), t2.vertices());
    let [p1, q1, r1] = FROM_APEX[apex1][below2].map(|k| v1[k]);
    let [p2, q2, r2] = FROM_APEX[apex2][below1].map(|k| v2[k]);
    // The intervals on the common line overlap iff `q₂` is not above the plane `p₁ q₁ p₂` and
    // `r₂` not below the plane `p₁ r₁ p₂`; a zero orientation (touching) is left to the exact
    // test.
    let (value, bound) = side(&p1, &q1, &p2, &q2);
    let below = value < -bound;
    if !below {
        return (value > bound).then_some(false);
    }
    let (value, bound) = side(&p1, &r1, &p2, &r2);
    (value.abs() > bound).then_some(value > 0.0)
}

/// For each set of corners above the other's plane (a bit per corner, neither none nor all),
/// the apex – the corner alone on its side – and whether it lies below (1) or above (0).
const APEX: [[usize; 2]; 8] = [[0, 0], [0, 0], [1, 0], [2, 1], [2, 0], [1, 1], [0, 1], [0, 0]];

/// A triangle's corners from its apex on (`FROM_APEX[apex][0]`), and with the last two swapped
/// (`[1]`).
const FROM_APEX: [[[usize; 3]; 2]; 3] =
    [[[0, 1, 2], [0, 2, 1]], [[1, 2, 0], [1, 0, 2]], [[2, 0, 1], [2, 1, 0]]];

/// How a triangle's corners lie against the other's plane, where all three are certain.
#[derive(Clone, Copy)]
enum Sides {
    /// All three strictly on one side.
    Apart,
    /// Some above and some below: a bit per corner, set for those above.
    Across(u32),
}

/// A triangle's plane: a corner and its [`normal`] with the normal's magnitudes, each in every
/// lane.
struct Plane {
    origin: [f32x4; 3],
    normal: [f32x4; 3],
    magnitude: [f32x4; 3],
}

impl Plane {
    #[inline(always)]
    fn of(t: &Triangle) -> Self {
        let (normal, magnitude) = normal(&t.a, &t.b, &t.c);
        Self {
            origin: [t.a.x, t.a.y, t.a.z].map(f32x4::splat),
            normal: normal.map(f32x4::splat),
            magnitude: magnitude.map(f32x4::splat),
        }
    }

    /// The sides of `t`'s corners (in lanes 0 to 2; lane 3 repeats the first corner), or `None`
    /// where one is uncertain.
    #[inline(always)]
    fn sides(&self, t: &Triangle) -> Option<Sides> {
        let lanes = |f: fn(&Point) -> f32| f32x4::from([f(&t.a), f(&t.b), f(&t.c), f(&t.a)]);
        let w = [
            lanes(|p| p.x) - self.origin[0],
            lanes(|p| p.y) - self.origin[1],
            lanes(|p| p.z) - self.origin[2],
        ];
        let value = w[0] * self.normal[0] + w[1] * self.normal[1] + w[2] * self.normal[2];
        let size = w.map(|x| x.abs());
        let permanent =
            size[0] * self.magnitude[0] + size[1] * self.magnitude[1] + size[2] * self.magnitude[2];
        let bound = permanent * f32x4::splat(RELATIVE) + f32x4::splat(UNDERFLOW);
        let near = (size[0] + size[1] + size[2]).simd_le(f32x4::splat(REACH));
        let above = (value.simd_gt(bound) & near).to_bitmask() & 0b111;
        let below = (value.simd_lt(-bound) & near).to_bitmask() & 0b111;
        match (above, below) {
            _ if above | below != 0b111 => None,
            (0b111, _) | (_, 0b111) => Some(Sides::Apart),
            _ => Some(Sides::Across(above)),
        }
    }
}

/// The normal `(b - a) × (c - a)` in `f32` and, per component, the sum of the absolute values of
/// the two products forming it (what its rounding error is bounded by).
#[inline(always)]
fn normal(a: &Point, b: &Point, c: &Point) -> ([f32; 3], [f32; 3]) {
    let (u, v) = (b - a, c - a);
    let products = [[u.y * v.z, u.z * v.y], [u.z * v.x, u.x * v.z], [u.x * v.y, u.y * v.x]];
    (products.map(|[p, q]| p - q), products.map(|[p, q]| p.abs() + q.abs()))
}

/// The value of `(d - a) · ((b - a) × (c - a))` in `f32` and a bound on its error (infinite for
/// `d` beyond [`REACH`] of `a`): its sign is the orientation's where it exceeds the bound.
#[inline(always)]
fn side(a: &Point, b: &Point, c: &Point, d: &Point) -> (f32, f32) {
    let (normal, magnitude) = normal(a, b, c);
    let w = d - a;
    let value = w.x * normal[0] + w.y * normal[1] + w.z * normal[2];
    let permanent = w.x.abs() * magnitude[0] + w.y.abs() * magnitude[1] + w.z.abs() * magnitude[2];
    let near = w.x.abs() + w.y.abs() + w.z.abs() <= REACH;
    (value, if near { permanent * RELATIVE + UNDERFLOW } else { f32::INFINITY })
}

#[cfg(test)]
mod tests {
    use super::super::intersection::intersect_exactly;
    use super::*;
    use crate::math::{Real, Vector};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Checks every verdict the filter gives against the exact test; how many it gave, and how
    /// many of those said the triangles meet.
    fn agree(pairs: impl IntoIterator<Item = (Triangle, Triangle)>) -> [usize; 3] {
        let [mut given, mut meeting, mut total] = [0; 3];
        for (t1, t2) in pairs {
            total += 1;
            if let Some(verdict) = quick_verdict(&t1, &t2) {
                given += 1;
                meeting += usize::from(verdict);
                assert_eq!(verdict, intersect_exactly(&t1, &t2), "{t1:?} {t2:?}");
            }
        }
        [given, meeting, total]
    }

    fn point(rng: &mut ChaCha8Rng, centre: &Point, scale: Real) -> Point {
        centre
            + Vector::new(rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0))
                * scale
    }

    fn triangle(rng: &mut ChaCha8Rng, centre: &Point, scale: Real) -> Triangle {
        Triangle::new(point(rng, centre, scale), point(rng, centre, scale), point(rng, centre, scale))
    }

    /// Random pairs at scales from underflow to near overflow, near the origin and far from it:
    /// every verdict right, and most pairs given one where their determinants stay well inside
    /// `f32`'s range (the exact test is then the rare case).
    #[test]
    fn verdicts_on_random_pairs_are_the_exact_ones() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for scale in [1e-36, 1e-20, 1e-6, 1.0, 1e6, 1e20, 1e36] {
            for far in [0.0, 1e3, 1e7] {
                let centre = Point::new(far, -far, 0.5 * far) * scale;
                let pairs: Vec<_> = (0..4000)
                    .map(|_| (triangle(&mut rng, &centre, scale), triangle(&mut rng, &centre, scale)))
                    .collect();
                let [given, meeting, total] = agree(pairs);
                if (1e-6..=1e6).contains(&scale) && far < 1e7 {
                    assert!(given * 100 >= total * 95, "scale {scale}, {far} away: {given} of {total}");
                    assert!(meeting * 10 >= given && meeting * 10 <= given * 9, "{meeting} of {given} meet");
                }
            }
        }
    }

    /// Pairs on the edge of touching, where rounding decides: shared corners, a corner on the
    /// other's face or edge, coplanar and degenerate triangles, one nudged by an ulp or two.
    #[test]
    fn touching_and_degenerate_pairs_get_the_exact_verdict_or_none() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut pairs = Vec::new();
        for _ in 0..3000 {
            let scale = [1e-3, 1.0, 1e4][rng.gen_range(0..3)];
            let centre = Point::new(rng.gen_range(-1e3..1e3), 0.0, rng.gen_range(-1e3..1e3));
            let t = triangle(&mut rng, &centre, scale);
            let [a, b, c] = t.vertices();
            let on_face = a + (b - a) * rng.r#gen::<Real>() * 0.5 + (c - a) * rng.r#gen::<Real>() * 0.5;
            let on_edge = a + (b - a) * rng.r#gen::<Real>();
            let nudge = |p: Point, ulps: i32| p.map(|x| Real::from_bits((x.to_bits() as i32 + ulps) as u32));
            let other = point(&mut rng, &centre, scale);
            let away = point(&mut rng, &centre, scale);
            // Straight through the triangle's edge, so the intervals on the common line touch.
            let across = t.scaled_normal() * (scale / t.scaled_normal().norm().max(Real::MIN_POSITIVE));
            for ulps in [-2, 0, 1] {
                pairs.push((t, Triangle::new(nudge(a, ulps), other, away)));
                pairs.push((t, Triangle::new(nudge(on_face, ulps), other, away)));
                pairs.push((t, Triangle::new(nudge(on_edge, ulps), other, away)));
                pairs.push((t, Triangle::new(nudge(on_edge + across, ulps), on_edge - across, away)));
                pairs.push((t, Triangle::new(nudge(a + across, ulps), a - across, away)));
                // Coplanar, overlapping or not.
                pairs.push((t, Triangle::new(nudge(on_face, ulps), on_edge, a + (c - b) * 0.3)));
            }
            // Degenerate: a segment through the face, a point on it, and a collapsed triangle.
            pairs.push((t, Triangle::new(other, away, other)));
            pairs.push((t, Triangle::new(on_face, on_face, on_face)));
            pairs.push((Triangle::new(a, b, a + (b - a) * 0.5), Triangle::new(on_edge, other, away)));
        }
        // Some settled (a nudge away or through), many left to the exact test.
        let [given, _, total] = agree(pairs);
        assert!(given > total / 10 && given < total * 9 / 10, "{given} of {total}");
    }

    /// Coordinates that are not finite never get a verdict.
    #[test]
    fn nan_and_infinite_coordinates_get_no_verdict() {
        let t = Triangle::new(Point::origin(), Point::new(1.0, 0.0, 0.0), Point::new(0.0, 1.0, 0.0));
        for bad in [Real::NAN, Real::INFINITY, Real::NEG_INFINITY, Real::MAX] {
            let u = Triangle::new(
                Point::new(0.2, 0.2, -1.0),
                Point::new(0.2, 0.2, 1.0),
                Point::new(bad, 0.3, 0.5),
            );
            assert_eq!(quick_verdict(&t, &u), None, "{bad}");
            assert_eq!(quick_verdict(&u, &t), None, "{bad}");
        }
    }
}
