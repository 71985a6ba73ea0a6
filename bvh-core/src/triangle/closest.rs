//! Closest points: point–segment, point–triangle, segment–segment, triangle–triangle.
//!
//! Computed in `f64` from the `f32` input. Degenerate segments and triangles are handled as the
//! point or segment they span, so no input gives a NaN. The triangle–triangle distance is zero
//! exactly when [`triangles_intersect`](super::triangles_intersect) says so.

use super::{Segment, Triangle, triangles_intersect};
use crate::math::{Point, Real};
use nalgebra::{Point3, Vector3};

type P64 = Point3<f64>;
type V64 = Vector3<f64>;

/// A pair of closest points and their distance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClosestPoints {
    /// Distance between the two shapes (zero when they intersect).
    pub distance: Real,
    /// The point on the first shape.
    pub on_a: Point,
    /// The point on the second shape.
    pub on_b: Point,
}

/// The point of the closed segment nearest to `p`.
pub fn closest_point_on_segment(p: &Point, s: &Segment) -> Point {
    lower(&on_segment(&lift(p), &lift(&s.a), &lift(&s.b)))
}

/// The point of the closed triangle nearest to `p`.
pub fn closest_point_on_triangle(p: &Point, tri: &Triangle) -> Point {
    lower(&on_triangle(&lift(p), &Tri64::new(tri)))
}

/// Closest points between two closed segments.
pub fn closest_points_segments(s: &Segment, t: &Segment) -> ClosestPoints {
    let (x, y) = segment_segment(&lift(&s.a), &lift(&s.b), &lift(&t.a), &lift(&t.b));
    finish(x, y)
}

/// Closest points between two closed triangles; the distance is zero iff they intersect.
///
/// The nearest pair of two triangles involves an edge of one of them (if they intersect, an edge
/// of one meets the other), so it is the nearest of the six edge–triangle pairs.
pub fn closest_points_triangles(t1: &Triangle, t2: &Triangle) -> ClosestPoints {
    let (a, b) = (Tri64::new(t1), Tri64::new(t2));
    let mut best = (P64::origin(), P64::origin(), f64::INFINITY);
    for (edges, tri, swap) in [(a.edges(), &b, false), (b.edges(), &a, true)] {
        for (p, q) in edges {
            let (x, y) = segment_triangle(&p, &q, tri);
            let d = (x - y).norm_squared();
            if d < best.2 {
                best = if swap { (y, x, d) } else { (x, y, d) };
            }
        }
    }
    let mut out = finish(best.0, best.1);
    if triangles_intersect(t1, t2) {
        out.distance = 0.0;
    } else if out.distance == 0.0 {
        // Apart, but nearer than rounding can show: keep "zero iff intersecting".
        out.distance = Real::from_bits(1);
    }
    out
}

/// A triangle lifted to `f64`.
struct Tri64 {
    v: [P64; 3],
}

impl Tri64 {
    fn new(t: &Triangle) -> Self {
        Self { v: [lift(&t.a), lift(&t.b), lift(&t.c)] }
    }

    fn edges(&self) -> [(P64, P64); 3] {
        [(self.v[0], self.v[1]), (self.v[1], self.v[2]), (self.v[2], self.v[0])]
    }
}

fn on_segment(p: &P64, a: &P64, b: &P64) -> P64 {
    let d = b - a;
    let len_sq = d.norm_squared();
    if len_sq == 0.0 {
        return *a;
    }
    a + d * ((p - a).dot(&d) / len_sq).clamp(0.0, 1.0)
}

/// Nearest point of the triangle: the projection on its plane when that falls inside, else the
/// nearest point of its boundary (the nearest point of a convex set to an outside point of its
/// plane is on the boundary).
fn on_triangle(p: &P64, t: &Tri64) -> P64 {
    let [a, b, c] = t.v;
    let n = (b - a).cross(&(c - a));
    let n_sq = n.norm_squared();
    if n_sq > 1e-24 * (b - a).norm_squared() * (c - a).norm_squared() {
        let q = p - n * ((p - a).dot(&n) / n_sq);
        let inside = |u: &P64, v: &P64| n.dot(&(v - u).cross(&(q - u))) >= 0.0;
        if inside(&a, &b) && inside(&b, &c) && inside(&c, &a) {
            return q;
        }
    }
    nearest_of(t.edges().map(|(u, v)| on_segment(p, &u, &v)), p)
}

fn nearest_of<const N: usize>(candidates: [P64; N], p: &P64) -> P64 {
    candidates
        .into_iter()
        .min_by(|x, y| (x - p).norm_squared().total_cmp(&(y - p).norm_squared()))
        .unwrap_or(*p)
}

/// Closest points of segments `p1 q1` and `p2 q2`: minimise over the parameters, clamping one
/// and re-solving the other (Ericson, *Real-Time Collision Detection*, §5.1.9).
fn segment_segment(p1: &P64, q1: &P64, p2: &P64, q2: &P64) -> (P64, P64) {
    let (d1, d2, r) = (q1 - p1, q2 - p2, p1 - p2);
    let (a, e, f) = (d1.norm_squared(), d2.norm_squared(), d2.dot(&r));
    if a == 0.0 {
        return (*p1, on_segment(p1, p2, q2));
    }
    let c = d1.dot(&r);
    if e == 0.0 {
        return (on_segment(p2, p1, q1), *p2);
    }
    let b = d1.dot(&d2);
    let denom = a * e - b * b;
    let mut s = if denom > 0.0 { ((b * f - c * e) / denom).clamp(0.0, 1.0) } else { 0.0 };
    let mut t = (b * s + f) / e;
    if t < 0.0 {
        t = 0.0;
        s = (-c / a).clamp(0.0, 1.0);
    } else if t > 1.0 {
        t = 1.0;
        s = ((b - c) / a).clamp(0.0, 1.0);
    }
    (p1 + d1 * s, p2 + d2 * t)
}

/// Closest points of a segment and a triangle: the segment's crossing of the triangle's plane if
/// it lands inside, else the nearest of the endpoint–triangle and edge–edge pairs.
fn segment_triangle(p: &P64, q: &P64, t: &Tri64) -> (P64, P64) {
    let mut best = (*p, on_triangle(p, t));
    let mut consider = |x: P64, y: P64| {
        if (x - y).norm_squared() < (best.0 - best.1).norm_squared() {
            best = (x, y);
        }
    };
    consider(*q, on_triangle(q, t));
    for (u, v) in t.edges() {
        let (x, y) = segment_segment(p, q, &u, &v);
        consider(x, y);
    }
    let [a, b, c] = t.v;
    let n: V64 = (b - a).cross(&(c - a));
    let (dp, dq) = ((p - a).dot(&n), (q - a).dot(&n));
    if (dp > 0.0 && dq < 0.0) || (dp < 0.0 && dq > 0.0) {
        let x = p + (q - p) * (dp / (dp - dq));
        consider(x, on_triangle(&x, t));
    }
    best
}

fn finish(x: P64, y: P64) -> ClosestPoints {
    ClosestPoints { distance: (x - y).norm() as Real, on_a: lower(&x), on_b: lower(&y) }
}

fn lift(p: &Point) -> P64 {
    p.cast::<f64>()
}

fn lower(p: &P64) -> Point {
    p.cast::<Real>()
}
