//! Triangles and the predicates on them: exact intersection tests, box overlap, closest points.
//!
//! A triangle is the closed convex hull of its three vertices, so a zero-area triangle is the
//! segment (or point) it spans and every predicate here treats it as exactly that.

mod box_overlap;
mod closest;
mod intersection;
mod placed_lanes;
mod quick;
mod segment;
mod swept;

pub use box_overlap::{triangle_aabb_overlap, triangle_obb_overlap};
pub use closest::{
    ClosestPoints, LineGap, LineSpan, closest_point_on_segment, closest_point_on_triangle,
    closest_points_apart_triangles, closest_points_segments, closest_points_triangles, rounds_to_at_least,
};
pub use intersection::{
    CoplanarPolygon, EdgeCrossings, TriangleIntersection, triangle_intersection,
    triangle_intersection_with_edges, triangles_intersect,
};
pub use placed_lanes::{PlacedTriangles, TRIANGLE_LANES};
pub use segment::{Segment, segment_intersects_triangle, segments_intersect};
pub use swept::swept_triangle_intersects;

use crate::aabb::{Aabb, max_point, min_point};
use crate::math::{Isometry, Point, Real, RelativePose, Vector};

/// A triangle given by its three vertices.
///
/// `#[repr(C)]` and [`bytemuck::Pod`], so a slice of triangles can be read as their corners.
#[repr(C)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Triangle {
    /// First vertex.
    pub a: Point,
    /// Second vertex.
    pub b: Point,
    /// Third vertex.
    pub c: Point,
}

impl Triangle {
    /// The triangle with these vertices.
    pub fn new(a: Point, b: Point, c: Point) -> Self {
        Self { a, b, c }
    }

    /// The vertices in order.
    pub fn vertices(&self) -> [Point; 3] {
        [self.a, self.b, self.c]
    }

    /// The three edges `ab`, `bc`, `ca`.
    #[inline]
    pub fn edges(&self) -> [Segment; 3] {
        [Segment::new(self.a, self.b), Segment::new(self.b, self.c), Segment::new(self.c, self.a)]
    }

    /// `(b - a) × (c - a)`: twice the area, along the right-handed normal (zero when degenerate).
    pub fn scaled_normal(&self) -> Vector {
        (self.b - self.a).cross(&(self.c - self.a))
    }

    /// Area.
    pub fn area(&self) -> Real {
        0.5 * self.scaled_normal().norm()
    }

    /// Centroid.
    pub fn centroid(&self) -> Point {
        Point::from((self.a.coords + self.b.coords + self.c.coords) / 3.0)
    }

    /// `true` when the vertices are collinear (or repeated), decided exactly.
    pub fn is_degenerate(&self) -> bool {
        crate::predicates::collinear(&self.a, &self.b, &self.c)
    }

    /// Bounding box.
    #[inline]
    pub fn aabb(&self) -> Aabb {
        let (a, b, c) = (&self.a, &self.b, &self.c);
        Aabb::new(min_point(&min_point(a, b), c), max_point(&max_point(a, b), c))
    }

    /// The triangle moved by `pose`, each corner computed in `f64` and rounded once: the
    /// placement a reference compares a query's `f32` placement ([`Triangle::placed`]) with.
    pub fn transformed(&self, pose: &Isometry) -> Self {
        let pose = pose.cast::<f64>();
        let moved = |p: &Point| (pose * p.cast::<f64>()).cast::<Real>();
        Self { a: moved(&self.a), b: moved(&self.b), c: moved(&self.c) }
    }

    /// The triangle placed in another frame by `pose` (as a query moves B's into A's).
    #[inline]
    pub fn placed(&self, pose: &RelativePose) -> Self {
        Self::new(pose.transform_point(&self.a), pose.transform_point(&self.b), pose.transform_point(&self.c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    #[test]
    fn placed_in_a_frame_matches_the_composed_poses() {
        let t = Triangle::new(
            Point::new(0.7, -1.3, 2.2),
            Point::new(3.0, 0.5, -1.0),
            Point::new(-2.0, 4.0, 0.25),
        );
        let a = Isometry::new(Vector::new(1.0, 2.0, 3.0), Vector::new(0.3, -0.2, 0.9));
        let b = Isometry::new(Vector::new(-4.0, 0.5, 2.0), Vector::new(-1.1, 0.4, 0.2));
        let placed = t.placed(&RelativePose::between(&a, &b));
        let expected = t.transformed(&(a.inverse() * b));
        for (p, q) in placed.vertices().iter().zip(expected.vertices()) {
            assert_relative_eq!(*p, q, epsilon = 1e-5);
        }
        assert_eq!(t.placed(&RelativePose::identity()), t);
    }
}
