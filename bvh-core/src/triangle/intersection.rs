//! Exact triangle–triangle intersection, after Guigue & Devillers (2003).
//!
//! Every decision is a sign of an orientation determinant taken exactly
//! ([`crate::predicates`]), so the answer is the true one for the `f32` input: touching
//! triangles (a shared vertex, a vertex on an edge or face, collinear edges, coplanar overlap)
//! intersect, and triangles any positive distance apart do not. Zero-area triangles are the
//! segments they span. Only the *geometry* returned by [`triangle_intersection`] is rounded.
//! [`triangles_intersect`] first asks for a quick verdict in `f32` (`quick.rs`), which takes
//! the same signs wherever their rounding errors' bounds leave no doubt.

use super::closest::shared_point;
use super::quick::quick_verdict;
use super::segment::{
    injective_axis, point_in_triangle_2d, project_triangle, segment_intersects_triangle,
    segments_intersect_2d,
};
use super::{Segment, Triangle};
use crate::math::{Point, Real, cross, dot, sub};
use crate::predicates::{Lifted, PlaneSide, Side, lift};
use std::cmp::Ordering::{self, Equal, Greater};

/// Exact: `true` when the two closed triangles share a point.
#[inline]
pub fn triangles_intersect(t1: &Triangle, t2: &Triangle) -> bool {
    quick_verdict(t1, t2).unwrap_or_else(|| intersect_exactly(t1, t2))
}

/// [`triangles_intersect`] without the quick verdict: every sign taken exactly. Kept apart from
/// the verdict, which it rarely follows, so as not to crowd the verdict's registers.
#[inline(never)]
pub(super) fn intersect_exactly(t1: &Triangle, t2: &Triangle) -> bool {
    let (v1, v2) = (lifted(t1), lifted(t2));
    match classify(t1, t2, &v1, &v2) {
        Relation::Disjoint => false,
        Relation::Crossing(pair) => pair.intervals_overlap(),
        Relation::Coplanar => coplanar_intersect(t1, t2),
        Relation::FirstDegenerate => degenerate_intersects(t1, t2),
        Relation::SecondDegenerate => degenerate_intersects(t2, t1),
    }
}

/// Where two triangles meet.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TriangleIntersection {
    /// The triangles cross (or one of them is degenerate): they share this segment, which is a
    /// single point when they only touch.
    Segment(Segment),
    /// The triangles are coplanar and share this convex polygon.
    Polygon(CoplanarPolygon),
}

impl TriangleIntersection {
    /// A point both triangles share (up to rounding): the segment's midpoint, or the mean of
    /// the polygon's vertices, inside it as it is convex.
    pub fn centre(&self) -> Point {
        match self {
            Self::Segment(s) => nalgebra::center(&s.a, &s.b),
            Self::Polygon(p) => crate::math::mean(p.vertices()),
        }
    }
}

/// A convex polygon of up to six vertices: the overlap of two coplanar triangles.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "Vec<Point>", into = "Vec<Point>"))]
pub struct CoplanarPolygon {
    vertices: [Point; 6],
    len: usize,
}

impl CoplanarPolygon {
    /// The vertices in order around the polygon (at least one).
    pub fn vertices(&self) -> &[Point] {
        &self.vertices[..self.len]
    }

    /// The polygon with every vertex mapped by `f` (to move it to another frame).
    pub fn mapped(&self, f: impl Fn(&Point) -> Point) -> Self {
        Self { vertices: self.vertices.map(|p| f(&p)), len: self.len }
    }
}

/// Polygons with the same vertices in the same order (the unused slots do not count).
impl PartialEq for CoplanarPolygon {
    fn eq(&self, other: &Self) -> bool {
        self.vertices() == other.vertices()
    }
}

/// Written as its vertex list.
impl From<CoplanarPolygon> for Vec<Point> {
    fn from(polygon: CoplanarPolygon) -> Self {
        polygon.vertices().to_vec()
    }
}

/// Read from a vertex list of one to six points (the vertices are not checked for convexity).
impl TryFrom<Vec<Point>> for CoplanarPolygon {
    type Error = String;

    fn try_from(points: Vec<Point>) -> Result<Self, String> {
        if !(1..=6).contains(&points.len()) {
            return Err(format!("a coplanar polygon has 1 to 6 vertices, not {}", points.len()));
        }
        let mut vertices = [points[0]; 6];
        vertices[..points.len()].copy_from_slice(&points);
        Ok(Self { vertices, len: points.len() })
    }
}

/// Which edges of two intersecting triangles pass through the other triangle: `first[k]` says
/// whether the first triangle's edge from corner `k` to corner `k + 1` (mod 3) crosses the
/// second's plane at a point strictly inside the second, `second[k]` likewise the other way
/// round. An edge that is not marked misses the other triangle: it does not touch it at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EdgeCrossings {
    /// The first triangle's edges through the second.
    pub first: [bool; 3],
    /// The second triangle's edges through the first.
    pub second: [bool; 3],
}

/// The intersection of two triangles, or `None` when they are disjoint. Whether they intersect
/// is decided exactly (as [`triangles_intersect`]); the returned points are computed in `f64`
/// and rounded, so they lie on both triangles up to rounding.
pub fn triangle_intersection(t1: &Triangle, t2: &Triangle) -> Option<TriangleIntersection> {
    meet(t1, t2, false).map(|(geometry, _)| geometry)
}

/// [`triangle_intersection`] and, where every edge of both triangles either passes through the
/// other's interior or misses it, which do ([`EdgeCrossings`], decided exactly): what counting
/// an edge's crossings with a surface needs, for two orientation signs more than the test
/// itself. `None` for the edges where one touches the other triangle's boundary, a corner lies
/// in the other's plane, or the triangles are coplanar or degenerate.
pub fn triangle_intersection_with_edges(
    t1: &Triangle,
    t2: &Triangle,
) -> Option<(TriangleIntersection, Option<EdgeCrossings>)> {
    meet(t1, t2, true)
}

/// [`triangle_intersection_with_edges`], the edges found only if `with_edges`.
#[inline]
fn meet(
    t1: &Triangle,
    t2: &Triangle,
    with_edges: bool,
) -> Option<(TriangleIntersection, Option<EdgeCrossings>)> {
    let mut edges = None;
    let (v1, v2) = (lifted(t1), lifted(t2));
    let geometry = match classify(t1, t2, &v1, &v2) {
        Relation::Disjoint => return None,
        Relation::Crossing(pair) => {
            if with_edges {
                let x = pair.overlapping_apex_orientations()?;
                edges = pair.edge_crossings(&x);
            } else if !pair.intervals_overlap() {
                return None;
            }
            // Where rounding cannot order the interval ends, or the plane values were too
            // ill-conditioned to place them (slivers, an edge in the other plane), the closest
            // points (computed from the coordinates) give a point of the contact.
            let segment = pair.shared_segment(t1, t2);
            TriangleIntersection::Segment(segment.unwrap_or_else(|| touching_point(t1, t2)))
        }
        Relation::Coplanar => {
            if !coplanar_intersect(t1, t2) {
                return None;
            }
            // Clip by the better-conditioned (larger) triangle; distrust a result off either.
            let (clipper, clipped) = if t1.area() >= t2.area() { (t1, t2) } else { (t2, t1) };
            match coplanar_overlap(clipper, clipped) {
                TriangleIntersection::Polygon(p) if on_both(p.vertices(), t1, t2) => {
                    TriangleIntersection::Polygon(p)
                }
                _ => TriangleIntersection::Segment(touching_point(t1, t2)),
            }
        }
        Relation::FirstDegenerate | Relation::SecondDegenerate => {
            // Straight to the exact test: with a zero-area triangle not wholly on one side of
            // the other's plane, the quick verdict would only defer to it.
            if !intersect_exactly(t1, t2) {
                return None;
            }
            // A zero-area triangle meets the other in a point or segment; report one point of it.
            TriangleIntersection::Segment(touching_point(t1, t2))
        }
    };
    Some((geometry, edges))
}

/// How two triangles stand relative to each other's planes. Never stored: made where
/// [`classify`] is inlined and taken apart there, so the crossing's size costs nothing.
#[allow(clippy::large_enum_variant)]
enum Relation<'t> {
    /// One triangle lies strictly on one side of the other's plane.
    Disjoint,
    /// Neither is degenerate, they are not coplanar, and each meets the other's plane.
    Crossing(CanonicalPair<'t>),
    /// Both non-degenerate, in one plane.
    Coplanar,
    /// The first triangle has zero area.
    FirstDegenerate,
    /// The second triangle has zero area (and the first does not).
    SecondDegenerate,
}

/// How the triangles `t1` and `t2`, lifted to `v1` and `v2`, stand. Inlined into its callers:
/// returned through memory, a crossing pair was written and read back at once.
#[inline(always)]
fn classify<'t>(t1: &Triangle, t2: &Triangle, v1: &'t [Lifted; 3], v2: &'t [Lifted; 3]) -> Relation<'t> {
    let plane1 = PlaneSide::new(&v1[0], &v1[1], &v1[2]);
    let d2 = plane1.sides(v2);
    if one_side(&d2) {
        return Relation::Disjoint;
    }
    if d2.iter().all(|d| d.sign == Equal) {
        // Either t1 spans no plane, or t2 lies in t1's plane.
        return if t1.is_degenerate() {
            Relation::FirstDegenerate
        } else if t2.is_degenerate() {
            Relation::SecondDegenerate
        } else {
            Relation::Coplanar
        };
    }
    let plane2 = PlaneSide::new(&v2[0], &v2[1], &v2[2]);
    let d1 = plane2.sides(v1);
    if one_side(&d1) {
        return Relation::Disjoint;
    }
    if d1.iter().all(|d| d.sign == Equal) {
        // t1 is in t2's plane but t2 is not in t1's: t2 spans no plane.
        return Relation::SecondDegenerate;
    }
    Relation::Crossing(CanonicalPair::new(v1, d1, v2, d2))
}

/// A triangle's corners in `f64`.
fn lifted(t: &Triangle) -> [Lifted; 3] {
    [lift(&t.a), lift(&t.b), lift(&t.c)]
}

/// All three vertices strictly on the same side.
fn one_side(d: &[Side; 3]) -> bool {
    d[0].sign != Equal && d[0].sign == d[1].sign && d[1].sign == d[2].sign
}

/// Two crossing triangles rotated so that each one's first vertex (its apex) is alone on its
/// side of the other's plane, and oriented so that both apexes are on the non-negative side.
/// Each triangle then meets the line common to both planes in an interval whose ends are
/// ordered the same way, and the triangles intersect iff the intervals overlap: two orientation
/// signs (Guigue & Devillers 2003, §3).
struct CanonicalPair<'t> {
    t1: [&'t Lifted; 3],
    t2: [&'t Lifted; 3],
    /// Each triangle's edges from its apex, as `[p q, p r]`, by their indices in the input
    /// triangle (edge `k` runs from corner `k` to corner `k + 1`).
    apex_edges: [[usize; 2]; 2],
    /// Approximate signed distances of `t1`'s vertices to `t2`'s plane, and vice versa, in the
    /// canonical orientation (for the interval ends only).
    d1: [f64; 3],
    d2: [f64; 3],
    /// The side values' error bounds.
    errors_1: [f64; 3],
    errors_2: [f64; 3],
}

impl<'t> CanonicalPair<'t> {
    #[inline(always)]
    fn new(t1: &'t [Lifted; 3], d1: [Side; 3], t2: &'t [Lifted; 3], d2: [Side; 3]) -> Self {
        let (mut v1, mut s1, mut errors_1, flip2, apex1) = apex_first(t1, d1);
        let (mut v2, mut s2, mut errors_2, flip1, apex2) = apex_first(t2, d2);
        // Edge `apex` leads to the next corner, edge `apex + 2` comes from the one before.
        let edges = |apex: usize, swapped: bool| {
            let (next, before) = (apex, (apex + 2) % 3);
            if swapped { [before, next] } else { [next, before] }
        };
        // Reversing a triangle's orientation negates the side values measured against its plane.
        if flip2 {
            v2.swap(1, 2);
            s2.swap(1, 2);
            errors_2.swap(1, 2);
            s1 = s1.map(|x| -x);
        }
        if flip1 {
            v1.swap(1, 2);
            s1.swap(1, 2);
            errors_1.swap(1, 2);
            s2 = s2.map(|x| -x);
        }
        let apex_edges = [edges(apex1, flip1), edges(apex2, flip2)];
        Self { t1: v1, t2: v2, apex_edges, d1: s1, d2: s2, errors_1, errors_2 }
    }

    /// The exact overlap test of the two intervals on the common line (see
    /// [`CanonicalPair::overlap_planes`]).
    fn intervals_overlap(&self) -> bool {
        self.overlap_planes().is_some()
    }

    /// The orientations `x[m][n]` of the first triangle's apex edge `m` (`p₁q₁`, `p₁r₁`)
    /// against the second's apex edge `n` (`p₂q₂`, `p₂r₂`): `orient3d(p₁, m, p₂, n)`, which
    /// order the four ends of the intervals on the common line – when the intervals overlap;
    /// `None` when they do not (most candidate pairs), known from the first one or two.
    fn overlapping_apex_orientations(&self) -> Option<[[Ordering; 2]; 2]> {
        let [_, q2, r2] = self.t2;
        let ([along_q, along_r], [qq, rr]) = self.overlap_planes()?;
        Some([[qq, along_q.side(r2).sign], [along_r.side(q2).sign, rr]])
    }

    /// If the intervals overlap, the planes `p₁ q₁ p₂` and `p₁ r₁ p₂` (each prepared once for
    /// both of the second triangle's ends) and the orientations of `q₂` against the first and
    /// `r₂` against the second that say so: neither interval ends before the other begins. The
    /// second plane is made only if the first orientation leaves the question open. Inlined,
    /// as `classify` is: the plain test keeps nothing of the planes.
    #[inline(always)]
    fn overlap_planes(&self) -> Option<([PlaneSide<'t>; 2], [Ordering; 2])> {
        let [p1, q1, r1] = self.t1;
        let [p2, q2, r2] = self.t2;
        let along_q = PlaneSide::new(p1, q1, p2);
        let qq = along_q.side(q2).sign;
        if qq == Greater {
            return None;
        }
        let along_r = PlaneSide::new(p1, r1, p2);
        let rr = along_r.side(r2).sign;
        (rr != Ordering::Less).then_some(([along_q, along_r], [qq, rr]))
    }

    /// Which edges pass through the other triangle, when no corner lies in the other's plane
    /// and no orientation is zero. An apex edge meets the common line at one point, strictly
    /// inside the other triangle's interval exactly when that point lies past the other's
    /// `p q` end and before its `p r` end: orientation `Less` against the other's `p q` edge
    /// and `Greater` against its `p r` edge (the same rule holds either way round). The edge
    /// opposite an apex stays on one side of the other plane.
    fn edge_crossings(&self, x: &[[Ordering; 2]; 2]) -> Option<EdgeCrossings> {
        let off_planes = self.d1.iter().chain(&self.d2).all(|&d| d != 0.0);
        if !off_planes || x.iter().flatten().any(|&o| o == Equal) {
            return None;
        }
        let through =
            |against_q: Ordering, against_r: Ordering| against_q == Ordering::Less && against_r == Greater;
        let [[x00, x01], [x10, x11]] = *x;
        let [[q1, r1], [q2, r2]] = self.apex_edges;
        // As bit masks, built and read in registers: set element by element, the flags were
        // read back as a word before the byte stores had landed.
        let mask = |q: usize, at_q: bool, r: usize, at_r: bool| (u8::from(at_q) << q) | (u8::from(at_r) << r);
        let first = mask(q1, through(x00, x01), r1, through(x10, x11));
        let second = mask(q2, through(x00, x10), r2, through(x01, x11));
        let flags = |mask: u8| [0, 1, 2].map(|k| mask >> k & 1 != 0);
        Some(EdgeCrossings { first: flags(first), second: flags(second) })
    }

    /// The shared segment of the pair made from `t1` and `t2`, from the four interval ends
    /// (rounded); `None` when rounding leaves the intervals apart although the exact test says
    /// they meet, or puts an end farther than [`rounding_tolerance`] from a triangle. Where the
    /// ends' error bounds keep them well within the tolerance, that is known without measuring;
    /// otherwise each end is measured against the triangle it was not interpolated on (it lies
    /// on the other's edge).
    fn shared_segment(&self, t1: &Triangle, t2: &Triangle) -> Option<Segment> {
        let (i1, j1, placed_1) = plane_crossing_ends(&self.t1, &self.d1, &self.errors_1);
        let (i2, j2, placed_2) = plane_crossing_ends(&self.t2, &self.d2, &self.errors_2);
        // The four ends lie on one line. Order them along the longer interval itself: the
        // planes' cross product is ill-conditioned when an edge lies in the other plane.
        let (e1, e2) = (sub(&j1, &i1), sub(&j2, &i2));
        let direction = if dot(&e1, &e1) >= dot(&e2, &e2) { e1 } else { e2 };
        if direction == [0.0; 3] {
            return (i1 == i2).then(|| Segment::new(to_f32(&i1), to_f32(&i1)));
        }
        let key = |p: &[f64; 3]| dot(p, &direction);
        let sorted = |a: [f64; 3], b: [f64; 3]| if key(&a) <= key(&b) { (a, b) } else { (b, a) };
        let (lo1, hi1) = sorted(i1, j1);
        let (lo2, hi2) = sorted(i2, j2);
        let (lo, lo_on_1) = if key(&lo1) >= key(&lo2) { (lo1, true) } else { (lo2, false) };
        let (hi, hi_on_1) = if key(&hi1) <= key(&hi2) { (hi1, true) } else { (hi2, false) };
        if key(&lo) > key(&hi) {
            return None;
        }
        let segment = Segment::new(to_f32(&lo), to_f32(&hi));
        if placed_1 && placed_2 {
            return Some(segment);
        }
        let tolerance = rounding_tolerance(t1, t2);
        let on =
            |points: &[Point], t: &Triangle| super::closest::all_within_of_triangle(points, t, tolerance);
        let fits = match (lo_on_1, hi_on_1) {
            (true, true) => on(&[segment.a, segment.b], t2),
            (false, false) => on(&[segment.a, segment.b], t1),
            (true, false) => on(&[segment.a], t2) && on(&[segment.b], t1),
            (false, true) => on(&[segment.a], t1) && on(&[segment.b], t2),
        };
        fits.then_some(segment)
    }
}

/// Rotates the vertices, with their side values and those values' error bounds, so the one alone
/// on its side comes first. The flag says whether the other triangle must be reversed to put
/// that apex on the non-negative side.
#[inline]
#[allow(clippy::type_complexity)]
fn apex_first(v: &[Lifted; 3], d: [Side; 3]) -> ([&Lifted; 3], [f64; 3], [f64; 3], bool, usize) {
    // `Ordering` is `repr(i8)` with `Less = -1, Equal = 0, Greater = 1`.
    let code = |o: Ordering| (o as i8 + 1) as usize;
    let (apex, flip) = APEX[9 * code(d[0].sign) + 3 * code(d[1].sign) + code(d[2].sign)];
    let [a, b, c] = match apex {
        0 => [0, 1, 2],
        1 => [1, 2, 0],
        _ => [2, 0, 1],
    };
    (
        [&v[a], &v[b], &v[c]],
        [d[a].value, d[b].value, d[c].value],
        [d[a].error, d[b].error, d[c].error],
        flip,
        apex,
    )
}

/// [`apex_rule`] for every combination of three signs, indexed by `9 s0 + 3 s1 + s2` with each
/// sign coded `Less = 0, Equal = 1, Greater = 2`.
static APEX: [(usize, bool); 27] = {
    let mut table = [(0, false); 27];
    let mut k = 0;
    while k < 27 {
        table[k] = apex_rule(sign_codes(k));
        k += 1;
    }
    table
};

/// The three sign codes of [`APEX`]'s entry `k`.
const fn sign_codes(k: usize) -> [usize; 3] {
    [k / 9, k / 3 % 3, k % 3]
}

/// The apex of a crossing triangle from its vertices' sides (`0` below, `1` on, `2` above the
/// other plane): the vertex whose side differs from both others, preferring a strict side; with
/// one vertex on the plane and the others on one side, that vertex. And whether the other
/// triangle must be reversed so the apex is on the non-negative side.
const fn apex_rule(sign: [usize; 3]) -> (usize, bool) {
    let mut apex = 3;
    let mut i = 0;
    while i < 3 {
        let (s, t, u) = (sign[i], sign[(i + 1) % 3], sign[(i + 2) % 3]);
        if apex == 3 && s != 1 && t != s && u != s {
            apex = i;
        }
        i += 1;
    }
    i = 0;
    while i < 3 {
        if apex == 3 && sign[(i + 1) % 3] == sign[(i + 2) % 3] {
            apex = i;
        }
        i += 1;
    }
    if apex == 3 {
        apex = 0;
    }
    let others_positive = sign[(apex + 1) % 3] == 2 || sign[(apex + 2) % 3] == 2;
    (apex, sign[apex] == 0 || (sign[apex] == 1 && others_positive))
}

/// Where the apex's two edges meet the other plane (an end is the vertex itself when it lies
/// on the plane), and whether both lie well within [`rounding_tolerance`] of the true crossings.
///
/// The side values `d` are within their error bounds `e` of the exact plane function, which is
/// linear along an edge and of opposite signs at its ends: the crossing's parameter
/// `t = d₀ / (d₀ − dₖ)` is then off by at most `2 (e₀ + eₖ) / |d₀ − dₖ|` and a few roundings,
/// and the point by that times the edge's length (at most `2√3` times the coordinates'
/// magnitude `M`). With the parameter's bound below `2⁻²⁶` that is `10⁻⁷ M`; an interval end
/// chosen from two nearly equal ones strays by a few times that, still an order of magnitude
/// inside the tolerance `64 ε₃₂ M`.
fn plane_crossing_ends(v: &[&Lifted; 3], d: &[f64; 3], e: &[f64; 3]) -> ([f64; 3], [f64; 3], bool) {
    let p = *v[0];
    let end = |k: usize| {
        let q = *v[k];
        let denom = d[0] - d[k];
        if denom == 0.0 {
            // Both values zero: both corners lie in the plane, exactly.
            return (q, true);
        }
        let t = (d[0] / denom).clamp(0.0, 1.0);
        let placed = denom.abs() * CROSSING_CONDITION >= 2.0 * (e[0] + e[k]);
        ([p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t, p[2] + (q[2] - p[2]) * t], placed)
    };
    let ((i, placed_i), (j, placed_j)) = (end(1), end(2));
    (i, j, placed_i && placed_j)
}

/// The largest error of an edge's crossing parameter, `2⁻²⁶`, below which its point needs no
/// measuring (see [`plane_crossing_ends`]).
const CROSSING_CONDITION: f64 = 1.0 / (1u64 << 26) as f64;

fn coplanar_intersect(t1: &Triangle, t2: &Triangle) -> bool {
    let axis = injective_axis(t1);
    let (p1, p2) = (project_triangle(t1, axis), project_triangle(t2, axis));
    let edges = |t: [[Real; 2]; 3]| [[t[0], t[1]], [t[1], t[2]], [t[2], t[0]]];
    edges(p1).iter().any(|e1| edges(p2).iter().any(|e2| segments_intersect_2d(*e1, *e2)))
        || point_in_triangle_2d(p2[0], p1)
        || point_in_triangle_2d(p1[0], p2)
}

/// `degenerate` spans a segment (or point): it meets `other` iff one of its edges does.
fn degenerate_intersects(degenerate: &Triangle, other: &Triangle) -> bool {
    degenerate.edges().iter().any(|e| segment_intersects_triangle(e, other))
}

/// The overlap polygon of two coplanar triangles: `t2` clipped by the three half-planes of
/// `t1`'s edges (Sutherland–Hodgman, in `f64`).
fn coplanar_overlap(t1: &Triangle, t2: &Triangle) -> TriangleIntersection {
    let v1 = lifted(t1);
    let n = PlaneSide::new(&v1[0], &v1[1], &v1[2]).normal();
    let mut poly: Vec<[f64; 3]> = t2.vertices().iter().map(lift).collect();
    for k in 0..3 {
        let (a, b) = (v1[k], v1[(k + 1) % 3]);
        // Inward normal of edge a→b within the plane.
        let inward = cross(&n, &sub(&b, &a));
        let side = |p: &[f64; 3]| dot(&sub(p, &a), &inward);
        let mut clipped = Vec::with_capacity(poly.len() + 1);
        for (i, p) in poly.iter().enumerate() {
            let q = &poly[(i + 1) % poly.len()];
            let (sp, sq) = (side(p), side(q));
            if sp >= 0.0 {
                clipped.push(*p);
            }
            if (sp >= 0.0) != (sq >= 0.0) {
                let t = sp / (sp - sq);
                clipped.push([p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t, p[2] + (q[2] - p[2]) * t]);
            }
        }
        poly = clipped;
        if poly.is_empty() {
            break;
        }
    }
    if poly.is_empty() {
        // The exact test says they touch; rounding clipped the contact away.
        return TriangleIntersection::Segment(touching_point(t1, t2));
    }
    let mut vertices = [Point::origin(); 6];
    let mut len = 0;
    for p in poly.iter().map(to_f32) {
        if len < 6 && (len == 0 || vertices[len - 1] != p) && (len < 2 || p != vertices[0]) {
            vertices[len] = p;
            len += 1;
        }
    }
    TriangleIntersection::Polygon(CoplanarPolygon { vertices, len })
}

/// Whether every one of `points` lies on both triangles up to [`rounding_tolerance`].
fn on_both(points: &[Point], t1: &Triangle, t2: &Triangle) -> bool {
    let tolerance = rounding_tolerance(t1, t2);
    [t1, t2].iter().all(|t| super::closest::all_within_of_triangle(points, t, tolerance))
}

/// How far points computed from the two triangles' coordinates may stray through rounding.
fn rounding_tolerance(t1: &Triangle, t2: &Triangle) -> Real {
    let magnitude = t1
        .vertices()
        .iter()
        .chain(t2.vertices().iter())
        .flat_map(|p| p.iter().map(|c| c.abs()))
        .fold(0.0, Real::max);
    64.0 * Real::EPSILON * magnitude
}

/// One point where two intersecting triangles meet (see [`shared_point`]).
fn touching_point(t1: &Triangle, t2: &Triangle) -> Segment {
    let mid = shared_point(t1, t2);
    Segment::new(mid, mid)
}

fn to_f32(p: &[f64; 3]) -> Point {
    Point::new(p[0] as Real, p[1] as Real, p[2] as Real)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An edge's crossing is vouched for exactly when its parameter's error bound is below
    /// `2⁻²⁶`: the plane values' errors against their difference. A corner in the plane is
    /// itself the crossing.
    #[test]
    fn crossings_are_vouched_for_by_their_error_bounds() {
        let corners = [[0.0, 0.0, 1.0], [2.0, 0.0, -1.0], [0.0, 2.0, -3.0]];
        let corners = [&corners[0], &corners[1], &corners[2]];
        // Values 1, -1, -3: the parameters 1/2 and 1/4, each off by at most 2 (e₀ + eₖ) / |d₀ − dₖ|.
        let ends = |error: f64| plane_crossing_ends(&corners, &[1.0, -1.0, -3.0], &[error; 3]);
        let (i, j, placed) = ends(1e-12);
        assert_eq!((i, j), ([1.0, 0.0, 0.0], [0.0, 0.5, 0.0]));
        assert!(placed);
        // Against the difference 2 of the first edge: a bound of 4 e / 2 at 2⁻²⁶ and just above.
        let at_limit = 2.0f64.powi(-27);
        assert!(ends(at_limit).2);
        assert!(!ends(at_limit * 1.001).2);
        // The apex in the plane: the crossing is the apex itself, whatever the error.
        let (i, _, _) = plane_crossing_ends(&corners, &[0.0, -1.0, -3.0], &[0.5; 3]);
        assert_eq!(i, [0.0, 0.0, 1.0]);
    }

    /// For every sign pattern a crossing triangle can have (not strictly on one side, not all on
    /// the plane), the table's apex puts the triangle in the canonical form the interval test
    /// needs: after the flip, the apex is on the non-negative side and both others on the
    /// non-positive side, with at least one of the three strictly off the plane.
    #[test]
    fn apex_table_gives_the_canonical_form() {
        let mut crossing = 0;
        for (k, &(apex, flip)) in APEX.iter().enumerate() {
            let sign = sign_codes(k).map(|s| s as i32 - 1);
            let strictly_one_side = sign[0] != 0 && sign[0] == sign[1] && sign[1] == sign[2];
            if strictly_one_side || sign == [0; 3] {
                continue;
            }
            crossing += 1;
            let oriented = sign.map(|s| if flip { -s } else { s });
            let others = [oriented[(apex + 1) % 3], oriented[(apex + 2) % 3]];
            assert!(
                oriented[apex] >= 0 && others.iter().all(|&s| s <= 0),
                "signs {sign:?}: apex {apex}, flip {flip}"
            );
            assert!(oriented.iter().any(|&s| s != 0), "signs {sign:?}");
        }
        assert_eq!(crossing, 24);
    }
}
