//! Closest points: point–segment, point–triangle, segment–segment, triangle–triangle.
//!
//! Computed in `f64` from the `f32` input. Degenerate segments and triangles are handled as the
//! point or segment they span, so no input gives a NaN. The triangle–triangle distance is zero
//! exactly when [`triangles_intersect`](super::triangles_intersect) says so.

use super::{Segment, Triangle, triangle_intersection};
use crate::math::{Point, Real, max, min};
use nalgebra::{Point3, Vector3};

type P64 = Point3<f64>;

/// A pair of closest points and their distance.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClosestPoints {
    /// Distance between the two shapes (zero when they intersect).
    pub distance: Real,
    /// The point on the first shape.
    pub on_a: Point,
    /// The point on the second shape.
    pub on_b: Point,
    /// From `on_a` to `on_b`, computed in `f64` before the points were rounded to `f32`: a
    /// line across the pair whose direction the rounding has not bent (zero when they meet).
    pub line: Vector3<f64>,
}

/// The point of the closed segment nearest to `p`.
pub fn closest_point_on_segment(p: &Point, s: &Segment) -> Point {
    to_f32(&on_segment(&lift(p), &lift(&s.a), &lift(&s.b)))
}

/// The point of the closed triangle nearest to `p`.
pub fn closest_point_on_triangle(p: &Point, tri: &Triangle) -> Point {
    to_f32(&on_triangle(&lift(p), &Tri64::new(tri)))
}

/// Whether every one of `points` lies within `tolerance` of the closed triangle (measured in
/// `f64`): the triangle lifted and its plane found once for all of them.
pub(super) fn all_within_of_triangle(points: &[Point], tri: &Triangle, tolerance: Real) -> bool {
    let t = Tri64::new(tri);
    let plane = t.plane();
    let reach = tolerance as f64 * tolerance as f64;
    points.iter().map(lift).all(|p| (on_triangle_with(&p, &t, plane.as_ref()) - p).norm_squared() <= reach)
}

/// Closest points between two closed segments.
pub fn closest_points_segments(s: &Segment, t: &Segment) -> ClosestPoints {
    let (x, y) = segment_segment(&lift(&s.a), &lift(&s.b), &lift(&t.a), &lift(&t.b));
    finish(x, y)
}

/// Closest points between two closed triangles; the distance is zero iff they intersect
/// (decided exactly), and then both points are the centre of their intersection
/// ([`TriangleIntersection::centre`](super::TriangleIntersection::centre)).
///
/// Two triangles that do not meet have a nearest pair in which one point is a corner, or both
/// lie on edges: it is the nearest of the nine edge–edge pairs and the six corners whose
/// projection on the other triangle's plane falls inside it (a corner's nearest point on the
/// boundary is found by an edge–edge pair already). Computed in `f64` from the `f32` corners.
pub fn closest_points_triangles(t1: &Triangle, t2: &Triangle) -> ClosestPoints {
    if let Some(meeting) = triangle_intersection(t1, t2) {
        let shared = meeting.centre();
        return ClosestPoints { distance: 0.0, on_a: shared, on_b: shared, line: Vector3::zeros() };
    }
    closest_points_apart_triangles(t1, t2, Real::INFINITY, None).expect("every pair is nearer than infinity")
}

/// [`closest_points_triangles`] for two triangles known not to meet (a search that has proved
/// two meshes apart measures their pairs this way, without the intersection test), if their
/// distance rounds to less than `below` (`Real::INFINITY`: always): a search only wants pairs
/// that beat its best, and most candidates are dismissed by a cheap bound before they are
/// measured. If it rounds to more, the error holds a lower bound on their distance as rounded,
/// at least `below` (the gap of the cheap bound that dismissed them, else `below` itself); if
/// to `below` itself, either (mostly the error). The distance is positive; for triangles that
/// do meet it is meaningless.
///
/// `across`, a search's nearest pair so far, gives the first line to try: near a search's
/// answer, most pairs that cannot beat it lie beyond it along that line, which a few products
/// show before anything is measured – also those that tie with it, as the triangles around a
/// nearest corner do, since a tie cannot round to less than the distance it ties.
pub fn closest_points_apart_triangles(
    t1: &Triangle,
    t2: &Triangle,
    below: Real,
    across: Option<&ClosestPoints>,
) -> Result<ClosestPoints, Real> {
    let limit = least_rounding_to(below);
    let line = across.map(|c| c.line);
    let (x, y) = apart(&Tri64::new(t1), &Tri64::new(t2), limit * limit, line)
        .map_err(|bound| at_most(bound).max(below))?;
    let mut out = finish(x, y);
    if out.distance == 0.0 {
        // Apart, but nearer than rounding can show: keep "zero iff intersecting".
        out.distance = Real::from_bits(1);
    }
    Ok(out)
}

/// How far one set of points lies beyond another along a line (see [`LineSpan::gap_to`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LineGap {
    /// The least distance, measured along the line's direction, from any point of the first
    /// set to any of the second (negative where they overlap along it), narrowed by the
    /// rounding of computing it in `f64`.
    pub gap: f64,
    /// The farthest any point lies from the line's start.
    pub reach: f64,
    /// The line's unit direction.
    pub direction: Vector3<f64>,
}

/// Where a set of points lies along a line (through a point, with a direction of any length):
/// the least and greatest of their offsets from that point dotted with the direction, and the
/// farthest any lies from the point, squared. A search measures one set against several
/// others along the same line, and spans it once.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LineSpan {
    lowest: f64,
    highest: f64,
    reach_sq: f64,
}

impl LineSpan {
    /// The span of `points` along `line` through `from`.
    pub fn of(points: impl IntoIterator<Item = Point>, from: &Point, line: &Vector3<f64>) -> Self {
        // From `from`, where the offsets are small.
        let origin = lift(from);
        let mut span = Self { lowest: f64::INFINITY, highest: f64::NEG_INFINITY, reach_sq: 0.0 };
        for p in points {
            let offset = lift(&p) - origin;
            span.reach_sq = max(offset.norm_squared(), span.reach_sq);
            let along = offset.dot(line);
            span.lowest = min(along, span.lowest);
            span.highest = max(along, span.highest);
        }
        span
    }

    /// How far the points of `beyond` lie beyond these along `line`, the line (and point)
    /// both were spanned along; `None` where the line has no direction. Exact enough to settle
    /// the ties of a search's nearest pair (see [`rounds_to_at_least`]), which any bound
    /// narrowed for `f32` falls short of.
    pub fn gap_to(&self, beyond: &Self, line: &Vector3<f64>) -> Option<LineGap> {
        let length = line.norm();
        if length == 0.0 {
            return None;
        }
        let reach = max(self.reach_sq, beyond.reach_sq).sqrt();
        // The offsets, the two products, their difference and the division each round by a few
        // units in the last place of `reach` at most (the gap is no larger than twice it).
        let gap = (beyond.lowest - self.highest) / length - 16.0 * f64::EPSILON * reach;
        Some(LineGap { gap, reach, direction: line / length })
    }
}

/// Whether a distance of `distance` or more (exactly) rounds to `below` or more in `f32`: a
/// pair that far cannot beat a search's best pair at `below`, also when it ties with it.
pub fn rounds_to_at_least(distance: f64, below: Real) -> bool {
    distance >= least_rounding_to(below)
}

/// A distance from which on every distance rounds to `below` or more: half a step below it, a
/// little more for the rounding of the products compared with it (so a distance exactly half
/// way, which may round either way, is measured).
fn least_rounding_to(below: Real) -> f64 {
    if !(below > 0.0 && below.is_finite()) {
        return below as f64;
    }
    let step_below = Real::from_bits(below.to_bits() - 1) as f64;
    (below as f64 + step_below) * 0.5 * (1.0 + 8.0 * f64::EPSILON)
}

/// The largest `f32` no greater than `x` (a non-negative bound).
fn at_most(x: f64) -> Real {
    let rounded = x as Real;
    if rounded as f64 > x && rounded > 0.0 { Real::from_bits(rounded.to_bits() - 1) } else { rounded }
}

/// The nearest pair of two triangles known not to meet (see [`closest_points_triangles`]), if
/// its squared distance is below `limit_sq`. First the cheapest bounds: the gap along the line
/// `across` (a search's nearest pair) if given, the gap between the two
/// triangles along the line through their centroids (nearly their distance when they lie
/// farther apart than they are large, as most pairs a search must rule out do), and a triangle
/// wholly beyond the other's plane by the limit (facing surfaces, the common case near a mesh's
/// nearest pair). Then a corner is projected only when its height over the other's plane is
/// below the best so far, an edge pair measured only when its boxes are, and the measuring stops
/// as soon as the slab across the nearest pair found settles the answer, or shows the pair no
/// nearer than the limit. Pairs no nearer than the limit give a lower bound on their distance:
/// the gap that dismissed them, else the limit.
fn apart(a: &Tri64, b: &Tri64, limit_sq: f64, across: Option<Vector3<f64>>) -> Result<(P64, P64), f64> {
    let corners = Offsets::new(a, b);
    if let Some(line) = across {
        let gap = corners.gap_along(&line);
        if gap > 0.0 && gap * gap >= limit_sq * line.norm_squared() {
            return Err(gap / line.norm());
        }
    }
    let line = corners.b.iter().sum::<Vector3<f64>>() - corners.a.iter().sum::<Vector3<f64>>();
    let gap = corners.gap_along(&line);
    if gap > 0.0 && gap * gap >= limit_sq * line.norm_squared() {
        return Err(gap / line.norm());
    }
    // Each corner's height over the other triangle's plane, scaled by the plane's normal.
    let over = |corners: &Tri64, onto: &Tri64| {
        onto.plane().map(|plane| (corners.v.map(|p| (p - onto.v[0]).dot(&plane.normal)), plane))
    };
    let heights = [over(a, b), over(b, a)];
    for (h, plane) in heights.iter().flatten() {
        let beyond = if h.iter().all(|&x| x > 0.0) {
            min(min(h[0], h[1]), h[2])
        } else if h.iter().all(|&x| x < 0.0) {
            -max(max(h[0], h[1]), h[2])
        } else {
            0.0
        };
        if beyond * beyond >= limit_sq * plane.normal_sq {
            return Err(beyond / plane.normal_sq.sqrt());
        }
    }
    // No candidate beyond the limit is worth measuring; the nearest pair found is kept, for
    // the slab that may settle it.
    let mut best = (a.v[0], b.v[0], f64::INFINITY);
    let consider = |best: &mut (P64, P64, f64), x: P64, y: P64| {
        let d = (x - y).norm_squared();
        let nearer = d < best.2;
        if nearer {
            *best = (x, y, d);
        }
        nearer
    };
    // The nearest corners: a pair of points of the triangles, so an upper bound that lets the
    // box tests below dismiss most edge pairs.
    for p in a.v {
        for q in b.v {
            consider(&mut best, p, q);
        }
    }
    for ((points, onto, swap), over) in [(a, b, false), (b, a, true)].into_iter().zip(&heights) {
        let Some((h, plane)) = over else { continue };
        for (p, height) in points.v.iter().zip(h) {
            if height * height >= min(best.2, limit_sq) * plane.normal_sq {
                continue;
            }
            if let Some(q) = onto.projection_inside(p, plane) {
                if swap {
                    consider(&mut best, q, *p)
                } else {
                    consider(&mut best, *p, q)
                };
            }
        }
    }
    let rounding = corners.rounding();
    if let Some(answer) = corners.settle(&best, rounding, limit_sq) {
        return answer;
    }
    let boxes = |t: &Tri64| t.edges().map(|(p, q)| (p.coords.inf(&q.coords), p.coords.sup(&q.coords)));
    let (boxes_a, boxes_b) = (boxes(a), boxes(b));
    for ((p, q), (lo_a, hi_a)) in a.edges().into_iter().zip(boxes_a) {
        for ((u, v), (lo_b, hi_b)) in b.edges().into_iter().zip(boxes_b) {
            let gap = (lo_b - hi_a).sup(&(lo_a - hi_b)).sup(&Vector3::zeros());
            if gap.norm_squared() < min(best.2, limit_sq) {
                let (x, y) = segment_segment(&p, &q, &u, &v);
                if consider(&mut best, x, y) {
                    if let Some(answer) = corners.settle(&best, rounding, limit_sq) {
                        return answer;
                    }
                }
            }
        }
    }
    if best.2 < limit_sq { Ok((best.0, best.1)) } else { Err(min(best.2, limit_sq).sqrt()) }
}

/// How near, relatively, a slab's width squared must come to a pair's distance squared for the
/// pair to count as the nearest: far below what an `f32` answer can show.
const SETTLED: f64 = 1e-12;

/// Two triangles' corners relative to the first corner of the first, for the gaps between them
/// along a line.
struct Offsets {
    a: [Vector3<f64>; 3],
    b: [Vector3<f64>; 3],
}

impl Offsets {
    fn new(a: &Tri64, b: &Tri64) -> Self {
        let origin = a.v[0];
        Self { a: a.v.map(|p| p - origin), b: b.v.map(|p| p - origin) }
    }

    /// How far the second triangle lies beyond the first along `line`, times its length.
    #[inline]
    fn gap_along(&self, line: &Vector3<f64>) -> f64 {
        let nearest_b = self.b.iter().map(|p| p.dot(line)).fold(f64::INFINITY, |m, x| min(x, m));
        let farthest_a = self.a.iter().map(|p| p.dot(line)).fold(f64::NEG_INFINITY, |m, x| max(x, m));
        nearest_b - farthest_a
    }

    /// A bound on the rounding of [`Offsets::gap_along`] per unit of the line's length: a few
    /// units in the last place of the largest offset.
    fn rounding(&self) -> f64 {
        let reach_sq = self.a.iter().chain(&self.b).map(|p| p.norm_squared()).fold(0.0, |m, x| max(x, m));
        8.0 * f64::EPSILON * reach_sq.sqrt()
    }

    /// What the slab across the line through `best`, the nearest pair of points found so far,
    /// proves: that the pair is the nearest, when no corner lies nearer the other triangle along
    /// that line than the pair's own points (the measurement can stop there, as PQP's triangle
    /// distance does), or that the triangles lie no nearer than the limit. The slab is narrowed
    /// by the rounding of its products, so it never exceeds the distance.
    #[inline]
    fn settle(
        &self,
        best: &(P64, P64, f64),
        rounding: f64,
        limit_sq: f64,
    ) -> Option<Result<(P64, P64), f64>> {
        let (x, y, distance_sq) = *best;
        let width = self.gap_along(&(y - x)) - rounding * distance_sq.sqrt();
        if width <= 0.0 {
            return None;
        }
        // The slab's width squared: at most the distance squared.
        let lower_sq = width * width / distance_sq * (1.0 - 4.0 * f64::EPSILON);
        if lower_sq >= distance_sq * (1.0 - SETTLED) {
            return Some(if distance_sq < limit_sq { Ok((x, y)) } else { Err(lower_sq.sqrt()) });
        }
        (lower_sq >= limit_sq).then(|| Err(lower_sq.sqrt()))
    }
}

/// A point two intersecting triangles share, up to rounding: where an edge of one comes
/// nearest the other (when they meet, an edge of one meets the other), the midpoint of that
/// edge–triangle pair's closest points.
pub(super) fn shared_point(t1: &Triangle, t2: &Triangle) -> Point {
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
    to_f32(&nalgebra::center(&best.0, &best.1))
}

/// A triangle lifted to `f64`.
struct Tri64 {
    v: [P64; 3],
}

/// A triangle's plane: the normal `(b - a) × (c - a)` and its squared length.
struct Plane {
    normal: Vector3<f64>,
    normal_sq: f64,
}

impl Tri64 {
    fn new(t: &Triangle) -> Self {
        Self { v: [lift(&t.a), lift(&t.b), lift(&t.c)] }
    }

    fn edges(&self) -> [(P64, P64); 3] {
        [(self.v[0], self.v[1]), (self.v[1], self.v[2]), (self.v[2], self.v[0])]
    }

    /// The plane, unless the triangle is too thin to have one (its edges are all of it).
    #[inline]
    fn plane(&self) -> Option<Plane> {
        let [a, b, c] = self.v;
        let normal = (b - a).cross(&(c - a));
        let normal_sq = normal.norm_squared();
        (normal_sq > 1e-24 * (b - a).norm_squared() * (c - a).norm_squared())
            .then_some(Plane { normal, normal_sq })
    }

    /// The projection of `p` on the triangle's `plane`, if it falls inside the triangle.
    #[inline]
    fn projection_inside(&self, p: &P64, plane: &Plane) -> Option<P64> {
        let [a, b, c] = self.v;
        let n = &plane.normal;
        let q = p - n * ((p - a).dot(n) / plane.normal_sq);
        let inside = |u: &P64, v: &P64| n.dot(&(v - u).cross(&(q - u))) >= 0.0;
        (inside(&a, &b) && inside(&b, &c) && inside(&c, &a)).then_some(q)
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
    on_triangle_with(p, t, t.plane().as_ref())
}

/// [`on_triangle`] given the triangle's plane (`None` for a triangle too thin to have one).
fn on_triangle_with(p: &P64, t: &Tri64, plane: Option<&Plane>) -> P64 {
    plane
        .and_then(|plane| t.projection_inside(p, plane))
        .unwrap_or_else(|| nearest_of(t.edges().map(|(u, v)| on_segment(p, &u, &v)), p))
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
    let n = (b - a).cross(&(c - a));
    let (dp, dq) = ((p - a).dot(&n), (q - a).dot(&n));
    if (dp > 0.0 && dq < 0.0) || (dp < 0.0 && dq > 0.0) {
        let x = p + (q - p) * (dp / (dp - dq));
        consider(x, on_triangle(&x, t));
    }
    best
}

fn finish(x: P64, y: P64) -> ClosestPoints {
    ClosestPoints { distance: (x - y).norm() as Real, on_a: to_f32(&x), on_b: to_f32(&y), line: y - x }
}

fn lift(p: &Point) -> P64 {
    p.cast::<f64>()
}

fn to_f32(p: &P64) -> Point {
    p.cast::<Real>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vector;
    use crate::triangle::TriangleIntersection;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The nearest of the six edge–triangle pairs: slower, and right whether or not the
    /// triangles meet.
    fn edge_triangle_distance(t1: &Triangle, t2: &Triangle) -> f64 {
        let (a, b) = (Tri64::new(t1), Tri64::new(t2));
        let one_way = |edges: [(P64, P64); 3], t: &Tri64| {
            edges
                .iter()
                .map(|(p, q)| segment_triangle(p, q, t))
                .map(|(x, y)| (x - y).norm())
                .fold(f64::INFINITY, f64::min)
        };
        one_way(a.edges(), &b).min(one_way(b.edges(), &a))
    }

    /// The fifteen candidates give the distance of the six edge–triangle pairs on triangles
    /// that do not meet: generic, near-parallel, sharing a plane, and zero-area ones.
    #[test]
    fn candidates_agree_with_edge_triangle_pairs() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let point = |rng: &mut ChaCha8Rng, s: Real| {
            Point::new(rng.r#gen::<Real>() - 0.5, rng.r#gen::<Real>() - 0.5, rng.r#gen::<Real>() - 0.5) * s
        };
        let mut apart_cases = 0;
        for case in 0..4000 {
            let t1 = Triangle::new(point(&mut rng, 2.0), point(&mut rng, 2.0), point(&mut rng, 2.0));
            let shift = point(&mut rng, 3.0).coords;
            let mut t2 = Triangle::new(point(&mut rng, 2.0), point(&mut rng, 2.0), point(&mut rng, 2.0));
            match case % 4 {
                // Parallel to the first, above it.
                1 => t2 = Triangle::new(t1.a + shift, t1.b + shift * 0.9 + shift, t1.c + shift),
                // In the first's plane.
                2 => {
                    let (e1, e2) = (t1.b - t1.a, t1.c - t1.a);
                    let mut in_plane = || {
                        t1.a + e1 * (3.0 * rng.r#gen::<Real>() - 1.0) + e2 * (3.0 * rng.r#gen::<Real>() - 1.0)
                    };
                    t2 = Triangle::new(in_plane(), in_plane(), in_plane());
                }
                // A segment.
                3 => t2.c = t2.a + (t2.b - t2.a) * 0.5,
                _ => {}
            }
            let c = closest_points_triangles(&t1, &t2);
            let reference = edge_triangle_distance(&t1, &t2);
            if c.distance > 0.0 {
                apart_cases += 1;
                assert!(
                    (c.distance as f64 - reference).abs() <= 1e-6 * (1.0 + reference),
                    "case {case}: {} against {reference}",
                    c.distance
                );
            }
        }
        assert!(apart_cases > 2000, "{apart_cases}");
    }

    /// Told a limit, the measurement of triangles apart answers exactly when they come nearer
    /// than it, with their distance: pairs near and far for their size, limits around the
    /// distance.
    #[test]
    fn limit_dismisses_only_pairs_beyond_it() {
        let mut rng = ChaCha8Rng::seed_from_u64(12);
        let mut point = |s: Real| {
            Point::new(rng.r#gen::<Real>() - 0.5, rng.r#gen::<Real>() - 0.5, rng.r#gen::<Real>() - 0.5) * s
        };
        let (mut found, mut dismissed) = (0, 0);
        for case in 0..4000 {
            let t1 = Triangle::new(point(2.0), point(2.0), point(2.0));
            let shift = point(if case % 2 == 0 { 4.0 } else { 40.0 }).coords;
            let t2 = Triangle::new(point(2.0) + shift, point(2.0) + shift, point(2.0) + shift);
            // Only pairs that do not meet (by the exact test) are measured so.
            if closest_points_triangles(&t1, &t2).distance == 0.0 {
                continue;
            }
            let reference = edge_triangle_distance(&t1, &t2);
            // A line tried first: none, the pair's own (the tightest), or any.
            let own = closest_points_triangles(&t1, &t2);
            let any = ClosestPoints {
                distance: 1.0,
                on_a: point(40.0),
                on_b: point(40.0),
                line: Vector3::new(0.0, 0.0, 1.0),
            };
            for (factor, across) in
                [0.99, 1.01].into_iter().flat_map(|f| [None, Some(&own), Some(&any)].map(|a| (f, a)))
            {
                let limit = (reference * factor) as Real;
                match closest_points_apart_triangles(&t1, &t2, limit, across) {
                    Ok(c) => {
                        found += 1;
                        assert!(factor > 1.0, "case {case}: {} found beyond {limit}", c.distance);
                        assert!((c.distance as f64 - reference).abs() <= 1e-6 * (1.0 + reference));
                    }
                    Err(bound) => {
                        dismissed += 1;
                        assert!(factor < 1.0, "case {case}: {reference} dismissed below {limit}");
                        assert!(
                            bound >= limit && bound as f64 <= reference * (1.0 + 1e-6),
                            "case {case}: bound {bound}"
                        );
                    }
                }
            }
        }
        assert!(found > 9000 && dismissed > 9000, "{found} found, {dismissed} dismissed");
    }

    /// Two intersecting triangles share the point their measurement gives (the centre of where
    /// they meet), and the one [`shared_point`] finds by measuring edges where that cannot be
    /// placed, up to rounding: crossing ones, coplanar ones and ones touching at a corner; near
    /// and far from the origin.
    #[test]
    fn intersecting_triangles_share_the_point_found() {
        let mut rng = ChaCha8Rng::seed_from_u64(15);
        let (mut segments, mut polygons) = (0, 0);
        for case in 0..3000 {
            let origin = Vector::repeat(if case % 2 == 0 { 0.0 } else { 1e3 });
            let mut point = |s: Real| {
                Point::new(rng.r#gen::<Real>() - 0.5, rng.r#gen::<Real>() - 0.5, rng.r#gen::<Real>() - 0.5)
                    * s
                    + origin
            };
            let mut t1 = Triangle::new(point(2.0), point(2.0), point(2.0));
            let t2 = match case % 4 {
                // Nearly in the first's plane.
                1 => Triangle::new(t1.a, (t1.b + t1.c.coords) * 0.5, t1.c + (t1.b - t1.a) * 0.3),
                // Touching it at a corner.
                2 => Triangle::new(t1.b, point(2.0), point(2.0)),
                // Both in one plane of constant z: overlapping in a polygon.
                3 => {
                    let flat = |p: Point| Point::new(p.x, p.y, origin.z);
                    t1 = Triangle::new(flat(t1.a), flat(t1.b), flat(t1.c));
                    Triangle::new(flat(point(2.0)), flat(point(2.0)), flat(point(2.0)))
                }
                _ => Triangle::new(point(2.0), point(2.0), point(2.0)),
            };
            let Some(meeting) = triangle_intersection(&t1, &t2) else { continue };
            match meeting {
                TriangleIntersection::Segment(_) => segments += 1,
                TriangleIntersection::Polygon(_) => polygons += 1,
            }
            let found = closest_points_triangles(&t1, &t2);
            assert_eq!((found.distance, found.on_a, found.on_b), (0.0, found.on_b, meeting.centre()));
            for shared in [found.on_a, shared_point(&t1, &t2)] {
                for t in [&t1, &t2] {
                    let off = (closest_point_on_triangle(&shared, t) - shared).norm();
                    assert!(off <= 1e-5 * (1.0 + origin.x), "case {case}: {off} off {t:?}");
                }
            }
        }
        assert!(segments > 1000 && polygons > 300, "{segments} segments, {polygons} polygons");
    }

    /// A's corner `v`, the highest point of each triangle of its fan, and B's triangle lying
    /// flat above it at a height whose float steps are coarser than the corner's, so their
    /// distance, `exact` in f64, rounds; far from the origin in odd cases.
    struct FanUnderFlat {
        v: Point,
        b: Triangle,
        fan: Vec<Triangle>,
        exact: f64,
    }

    impl FanUnderFlat {
        fn new(rng: &mut ChaCha8Rng, case: usize) -> Self {
            let origin = if case % 2 == 0 { 0.0 } else { 1e3 };
            let mut offset = |s: Real| (rng.r#gen::<Real>() - 0.5) * s;
            let v = Point::new(origin + offset(1.0), origin + offset(1.0), offset(0.02));
            let height = v.z + 0.51 + offset(1.0);
            let flat = |x: Real, y: Real| Point::new(v.x + x, v.y + y, height);
            let b = Triangle::new(flat(-3.0, -3.0), flat(3.0, -3.0), flat(0.0, 3.0));
            let mut below_v = || v + Vector::new(offset(2.0), offset(2.0), -0.5);
            let fan = (0..6).map(|_| Triangle::new(v, below_v(), below_v())).collect();
            Self { v, b, fan, exact: (height as f64) - (v.z as f64) }
        }
    }

    /// The triangles around a nearest corner all lie as far from the triangle facing it: told
    /// the first one's distance as the limit and its line, the measurement dismisses the others
    /// by that line whichever way the distance rounded (all but those exactly half way between
    /// two floats, which it measures), never finds one nearer, and finds each just above it.
    #[test]
    fn ties_with_the_limit_are_dismissed_by_its_line() {
        let mut rng = ChaCha8Rng::seed_from_u64(13);
        let (mut rounded_up, mut dismissed, mut measured) = (0, 0, 0);
        for case in 0..2000 {
            let FanUnderFlat { b, fan, exact, .. } = FanUnderFlat::new(&mut rng, case);
            let first = closest_points_triangles(&fan[0], &b);
            rounded_up += usize::from((first.distance as f64) > exact);
            for (i, t) in fan.iter().enumerate().skip(1) {
                match closest_points_apart_triangles(t, &b, first.distance, Some(&first)) {
                    Ok(c) => {
                        measured += 1;
                        assert_eq!(c.distance, first.distance, "case {case}, triangle {i}");
                    }
                    Err(bound) => {
                        dismissed += 1;
                        assert!(bound >= first.distance && bound as f64 <= exact * (1.0 + 1e-6));
                    }
                }
                let above = crate::math::next_up(first.distance);
                let found = closest_points_apart_triangles(t, &b, above, Some(&first));
                assert_eq!(found.map(|c| c.distance), Ok(first.distance), "case {case}, triangle {i}");
            }
        }
        // Half the distances rounded up: a limit taken as exact would have let those through.
        assert!(rounded_up > 400, "{rounded_up} rounded up");
        assert!(dismissed > 30 * measured, "{dismissed} dismissed, {measured} measured");
    }

    /// Along the line of a fan's nearest pair, the gap between the whole fan and the triangle
    /// facing it settles the ties with that pair whichever way its distance rounded (all but
    /// those exactly half way between two floats), and with one corner raised nearer, only
    /// where every pair still rounds to no less; along any line it bounds every pair from
    /// below. Far from the origin too.
    #[test]
    fn gap_along_a_line_settles_ties_and_bounds_every_pair() {
        let mut rng = ChaCha8Rng::seed_from_u64(14);
        let cases = 2000;
        let (mut settled, mut kept_nearer) = (0, 0);
        for case in 0..cases {
            let FanUnderFlat { v, b, fan, exact } = FanUnderFlat::new(&mut rng, case);
            let first = closest_points_triangles(&fan[0], &b);
            let fan_corners = || fan.iter().flat_map(Triangle::vertices);
            let LineGap { gap, reach, .. } = gap_beyond(fan_corners(), &b, &first.on_a, &first.line);
            assert!(gap <= exact && reach >= 3.0, "case {case}: {gap} across a gap of {exact}");
            settled += usize::from(rounds_to_at_least(gap, first.distance));
            // One corner of the fan 1, 4 or 64 times 2^-20 higher than the tie is nearer: settled
            // only where every pair still rounds to no less than the tie.
            let mut raised = fan.clone();
            let steps = [1, 4, 64][case % 3];
            raised[3].b = Point::new(v.x + 0.1, v.y, (v.z as f64 + steps as f64 * 2f64.powi(-20)) as Real);
            let corners = raised.iter().flat_map(Triangle::vertices);
            let nearer = gap_beyond(corners, &b, &first.on_a, &first.line).gap;
            let nearest =
                raised.iter().map(|t| closest_points_triangles(t, &b).distance).fold(Real::MAX, Real::min);
            if rounds_to_at_least(nearer, first.distance) {
                assert!(nearest >= first.distance, "case {case}: {nearest} below {}", first.distance);
            } else {
                kept_nearer += usize::from(nearest < first.distance);
            }
            // Any line bounds every pair of triangles from below.
            let line = Vector::new(rng.r#gen::<Real>() - 0.5, rng.r#gen::<Real>() - 0.5, 1.0).cast();
            let any = gap_beyond(fan_corners(), &b, &first.on_a, &line).gap;
            for t in &fan {
                assert!(any <= edge_triangle_distance(t, &b), "case {case}");
            }
        }
        assert!(settled > 30 * (cases - settled), "{settled} of {cases} ties settled");
        assert!(kept_nearer > 600, "{kept_nearer} nearer corners kept");
    }

    /// The gap from the `corners` to the triangle `b` along a line with a direction.
    fn gap_beyond(
        corners: impl IntoIterator<Item = Point>,
        b: &Triangle,
        from: &Point,
        line: &Vector3<f64>,
    ) -> LineGap {
        let beyond = LineSpan::of(b.vertices(), from, line);
        LineSpan::of(corners, from, line).gap_to(&beyond, line).expect("a line")
    }

    /// A fan whose shared corner faces a tilted triangle: its ties are settled along the
    /// pair's line as computed in `f64`, whereas the line between the points rounded to `f32`
    /// is bent by their rounding (most of all far from the origin) and settles far fewer. The
    /// gap bounds every fan triangle's distance from below either way.
    #[test]
    fn ties_facing_a_tilted_triangle_settle_along_the_unrounded_line() {
        let mut rng = ChaCha8Rng::seed_from_u64(15);
        let cases = 1000;
        let (mut settled, mut settled_rounded) = (0, 0);
        for case in 0..cases {
            let origin = if case % 2 == 0 { 0.0 } else { 1e3 };
            let mut offset = |s: f64| (rng.r#gen::<f64>() - 0.5) * s;
            let normal = Vector3::new(offset(1.0), offset(1.0), 1.0).normalize();
            let (u, w) = (normal.cross(&Vector3::x()).normalize(), normal);
            let v = normal.cross(&u);
            let centre = Vector3::new(origin + offset(1.0), origin + offset(1.0), origin + offset(1.0));
            let at =
                |x: f64, y: f64, z: f64| -> Point { Point::from((centre + u * x + v * y + w * z).cast()) };
            let b = Triangle::new(at(-3.0, -3.0, 0.6), at(3.0, -3.0, 0.6), at(0.0, 3.0, 0.6));
            let corner = at(offset(1.0), offset(1.0), 0.0);
            let mut below = || corner + (u * offset(2.0) + v * offset(2.0) - w * 0.5).cast();
            let fan: Vec<_> = (0..6).map(|_| Triangle::new(corner, below(), below())).collect();
            let first = closest_points_triangles(&fan[0], &b);
            let corners = || fan.iter().flat_map(Triangle::vertices);
            let gap = gap_beyond(corners(), &b, &first.on_a, &first.line).gap;
            let bent = gap_beyond(corners(), &b, &first.on_a, &(first.on_b - first.on_a).cast()).gap;
            for t in &fan {
                let distance = edge_triangle_distance(t, &b);
                assert!(gap <= distance && bent <= distance, "case {case}: {gap}, {bent} over {distance}");
            }
            settled += usize::from(rounds_to_at_least(gap, first.distance));
            settled_rounded += usize::from(rounds_to_at_least(bent, first.distance));
        }
        assert!(settled > 30 * (cases - settled), "{settled} of {cases} ties settled");
        assert!(settled_rounded < settled / 2, "{settled_rounded} of {cases} settled along the rounded line");
    }

    /// The slab across a pair's line settles it only when it is the nearest pair, and otherwise
    /// still bounds the distance from below; far from the origin too.
    #[test]
    fn a_slab_settles_only_the_nearest_pair() {
        for shift in [0.0, 1e4] {
            let at = |x: f64, y: f64, z: f64| P64::new(x + shift, y - shift, z + shift);
            let a = Tri64 { v: [at(0.0, 0.0, 0.0), at(1.0, 0.0, 0.0), at(0.0, 1.0, 0.0)] };
            let b = Tri64 { v: [at(0.2, 0.2, 1.0), at(1.0, 0.2, 1.5), at(0.2, 1.0, 1.5)] };
            let corners = Offsets::new(&a, &b);
            let rounding = corners.rounding();
            let pair = |x: P64, y: P64| (x, y, (y - x).norm_squared());
            // B's lowest corner over its foot on A: the nearest pair, at distance one.
            let nearest = pair(at(0.2, 0.2, 0.0), b.v[0]);
            assert_eq!(corners.settle(&nearest, rounding, f64::INFINITY), Some(Ok((nearest.0, nearest.1))));
            let far = corners.settle(&nearest, rounding, 0.25);
            assert!(matches!(far, Some(Err(d)) if d <= 1.0 && d > 1.0 - 1e-9), "{far:?}");
            // A corner pair is nearer than nothing but is not the nearest: the slab across it is
            // 0.88 / |(0.2, 0.2, 1)| wide, a bound that dismisses the pair only below a limit.
            let corner_pair = pair(a.v[0], b.v[0]);
            let width = 0.88 / 1.08f64.sqrt();
            assert_eq!(corners.settle(&corner_pair, rounding, f64::INFINITY), None);
            let dismissed = corners.settle(&corner_pair, rounding, 0.5);
            assert!(matches!(dismissed, Some(Err(d)) if d <= width && d > width - 1e-9), "{dismissed:?}");
            assert_eq!(corners.settle(&corner_pair, rounding, width * width * 1.01), None);
        }
    }
}
