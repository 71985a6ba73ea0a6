//! Segments, and the exact segment–segment and segment–triangle tests (the latter is paper
//! 002's vertex-path test: a vertex moving from `Q1` to `Q2` crossed a triangle).

use super::Triangle;
use crate::math::{Point, Real};
use crate::predicates::{PlaneSide, lift, orient2d, orient3d, project};
use std::cmp::Ordering::{self, Equal, Greater, Less};

/// A closed segment between two points (a point when they coincide).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment {
    /// Start.
    pub a: Point,
    /// End.
    pub b: Point,
}

impl Segment {
    /// The segment from `a` to `b`.
    pub fn new(a: Point, b: Point) -> Self {
        Self { a, b }
    }

    /// Length.
    pub fn length(&self) -> Real {
        (self.b - self.a).norm()
    }
}

/// Exact: `true` when the two closed segments share a point.
pub fn segments_intersect(s: &Segment, t: &Segment) -> bool {
    if orient3d(&s.a, &s.b, &t.a, &t.b) != Equal {
        return false;
    }
    // Coplanar: at least one coordinate projection is one-to-one on the common plane, and no
    // projection can separate sets that meet, so they meet iff they meet in all three.
    (0..3).all(|axis| segments_intersect_2d(project_segment(s, axis), project_segment(t, axis)))
}

/// Exact: `true` when the closed segment and the closed triangle share a point. Degenerate
/// triangles count as the segment they span; a segment lying in the triangle's plane is tested
/// in 2-D.
pub fn segment_intersects_triangle(s: &Segment, tri: &Triangle) -> bool {
    if tri.is_degenerate() {
        return tri.edges().iter().any(|e| segments_intersect(s, e));
    }
    let [a, b, c, sa, sb] = [tri.a, tri.b, tri.c, s.a, s.b].map(|p| lift(&p));
    let plane = PlaneSide::new(&a, &b, &c);
    let (sa, sb) = (plane.side(&sa).sign, plane.side(&sb).sign);
    if sa == sb && sa != Equal {
        return false;
    }
    if sa == Equal && sb == Equal {
        let axis = injective_axis(tri);
        return segment_intersects_triangle_2d(project_segment(s, axis), project_triangle(tri, axis));
    }
    // The segment meets the plane in one point; it is inside the triangle iff the segment's line
    // passes each edge on the same side (zeros allowed: the point is on an edge or vertex).
    let signs = [
        orient3d(&s.a, &s.b, &tri.a, &tri.b),
        orient3d(&s.a, &s.b, &tri.b, &tri.c),
        orient3d(&s.a, &s.b, &tri.c, &tri.a),
    ];
    !(signs.contains(&Greater) && signs.contains(&Less))
}

/// A coordinate axis along which projecting a non-degenerate triangle keeps its area, so the
/// projection is one-to-one on its plane. Tries the normal's dominant axis first.
pub(crate) fn injective_axis(tri: &Triangle) -> usize {
    let n = tri.scaled_normal().abs();
    let dominant = if n.x >= n.y && n.x >= n.z {
        0
    } else if n.y >= n.z {
        1
    } else {
        2
    };
    [dominant, (dominant + 1) % 3, (dominant + 2) % 3]
        .into_iter()
        .find(|&axis| {
            let [a, b, c] = project_triangle(tri, axis);
            orient2d(a, b, c) != Equal
        })
        .unwrap_or(dominant)
}

pub(crate) type Point2 = [Real; 2];

pub(crate) fn project_segment(s: &Segment, axis: usize) -> [Point2; 2] {
    [project(&s.a, axis), project(&s.b, axis)]
}

pub(crate) fn project_triangle(t: &Triangle, axis: usize) -> [Point2; 3] {
    [project(&t.a, axis), project(&t.b, axis), project(&t.c, axis)]
}

/// Exact 2-D test of closed segments, zero-length ones included.
pub(crate) fn segments_intersect_2d([p, q]: [Point2; 2], [r, s]: [Point2; 2]) -> bool {
    let (o1, o2) = (orient2d(p, q, r), orient2d(p, q, s));
    let (o3, o4) = (orient2d(r, s, p), orient2d(r, s, q));
    if opposite(o1, o2) && opposite(o3, o4) {
        return true;
    }
    (o1 == Equal && within_box(p, q, r))
        || (o2 == Equal && within_box(p, q, s))
        || (o3 == Equal && within_box(r, s, p))
        || (o4 == Equal && within_box(r, s, q))
}

/// Exact 2-D closed point-in-triangle; a degenerate triangle is the union of its edges.
pub(crate) fn point_in_triangle_2d(p: Point2, [a, b, c]: [Point2; 3]) -> bool {
    if orient2d(a, b, c) == Equal {
        return [[a, b], [b, c], [c, a]].into_iter().any(|e| segments_intersect_2d(e, [p, p]));
    }
    let signs = [orient2d(a, b, p), orient2d(b, c, p), orient2d(c, a, p)];
    !(signs.contains(&Greater) && signs.contains(&Less))
}

/// Exact 2-D closed segment–triangle test.
pub(crate) fn segment_intersects_triangle_2d(s: [Point2; 2], tri: [Point2; 3]) -> bool {
    let [a, b, c] = tri;
    point_in_triangle_2d(s[0], tri)
        || [[a, b], [b, c], [c, a]].into_iter().any(|e| segments_intersect_2d(s, e))
}

#[inline]
fn opposite(x: Ordering, y: Ordering) -> bool {
    (x == Greater && y == Less) || (x == Less && y == Greater)
}

/// For `r` collinear with `p q`: is it within their bounding box, hence on the segment?
#[inline]
fn within_box(p: Point2, q: Point2, r: Point2) -> bool {
    (0..2).all(|i| p[i].min(q[i]) <= r[i] && r[i] <= p[i].max(q[i]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: Real, y: Real, z: Real) -> Point {
        Point::new(x, y, z)
    }

    #[test]
    fn vertex_path_through_triangle() {
        let tri = Triangle::new(p(0.0, 0.0, 0.0), p(4.0, 0.0, 0.0), p(0.0, 4.0, 0.0));
        let through = Segment::new(p(1.0, 1.0, 1.0), p(1.0, 1.0, -1.0));
        let beside = Segment::new(p(3.0, 3.0, 1.0), p(3.0, 3.0, -1.0));
        let on_edge = Segment::new(p(2.0, 2.0, 1.0), p(2.0, 2.0, -1.0));
        let ends_on_face = Segment::new(p(1.0, 1.0, 0.0), p(1.0, 1.0, 5.0));
        let short = Segment::new(p(1.0, 1.0, 0.5), p(1.0, 1.0, 2.0));
        let in_plane = Segment::new(p(-1.0, 1.0, 0.0), p(5.0, 1.0, 0.0));
        let in_plane_outside = Segment::new(p(-1.0, -1.0, 0.0), p(5.0, -1.0, 0.0));
        assert!(segment_intersects_triangle(&through, &tri));
        assert!(!segment_intersects_triangle(&beside, &tri));
        assert!(segment_intersects_triangle(&on_edge, &tri));
        assert!(segment_intersects_triangle(&ends_on_face, &tri));
        assert!(!segment_intersects_triangle(&short, &tri));
        assert!(segment_intersects_triangle(&in_plane, &tri));
        assert!(!segment_intersects_triangle(&in_plane_outside, &tri));
    }

    #[test]
    fn segment_pairs_including_points_and_collinear_overlaps() {
        let s = |a: Point, b: Point| Segment::new(a, b);
        let x = s(p(0.0, 0.0, 0.0), p(2.0, 0.0, 0.0));
        assert!(segments_intersect(&x, &s(p(1.0, -1.0, 0.0), p(1.0, 1.0, 0.0))));
        assert!(!segments_intersect(&x, &s(p(1.0, -1.0, 0.5), p(1.0, 1.0, 0.5))));
        assert!(segments_intersect(&x, &s(p(1.5, 0.0, 0.0), p(3.0, 0.0, 0.0))));
        assert!(!segments_intersect(&x, &s(p(2.5, 0.0, 0.0), p(3.0, 0.0, 0.0))));
        assert!(segments_intersect(&x, &s(p(2.0, 0.0, 0.0), p(2.0, 0.0, 0.0))));
        assert!(!segments_intersect(&x, &s(p(1.0, 1e-7, 0.0), p(1.0, 1e-7, 0.0))));
        // Parallel lines in a tilted plane: separated only in one projection.
        assert!(!segments_intersect(
            &s(p(0.0, 0.0, 0.0), p(1.0, 1.0, 1.0)),
            &s(p(0.0, 0.0, 1.0), p(1.0, 1.0, 2.0))
        ));
    }
}
