//! Triangles under translation: does a moving triangle touch a fixed one at any moment? The
//! vertex-path test of paper 002 (a vertex's path crossing a triangle) catches tunnelling a
//! per-frame test misses, but not two edges sliding through each other; with the edge-edge
//! tests and the reverse vertex paths the test is complete for a translation.

use super::{Segment, Triangle, segment_intersects_triangle, triangles_intersect};
use crate::math::Vector;

/// `true` when `moving`, translated along `motion` from where it is, touches `fixed` at some
/// moment of the motion (both ends included). Every decision is exact for the points it
/// forms: the moved positions `p + motion` are rounded to `f32` once.
pub fn swept_triangle_intersects(fixed: &Triangle, moving: &Triangle, motion: &Vector) -> bool {
    let start = moving.vertices();
    let end = start.map(|p| p + motion);
    if triangles_intersect(fixed, moving)
        || triangles_intersect(fixed, &Triangle::new(end[0], end[1], end[2]))
    {
        return true;
    }
    // A vertex of the moving triangle passes through the fixed one.
    if (0..3).any(|k| segment_intersects_triangle(&Segment::new(start[k], end[k]), fixed)) {
        return true;
    }
    // A vertex of the fixed triangle is passed by the moving one: in the moving triangle's
    // frame the vertex travels backwards.
    if fixed.vertices().iter().any(|&v| segment_intersects_triangle(&Segment::new(v, v - motion), moving)) {
        return true;
    }
    // An edge of the moving triangle sweeps a parallelogram through an edge of the fixed one.
    (0..3).any(|k| {
        let (a, b) = (start[k], start[(k + 1) % 3]);
        let (c, d) = (end[(k + 1) % 3], end[k]);
        let sheet = [Triangle::new(a, b, c), Triangle::new(a, c, d)];
        fixed.edges().iter().any(|e| sheet.iter().any(|t| segment_intersects_triangle(e, t)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Point;

    fn p(x: f32, y: f32, z: f32) -> Point {
        Point::new(x, y, z)
    }

    #[test]
    fn tunnelling_and_sliding_edges_are_caught() {
        let wall = Triangle::new(p(0.0, -5.0, -5.0), p(0.0, 5.0, -5.0), p(0.0, 0.0, 5.0));
        let dart = Triangle::new(p(-2.0, 0.0, 0.0), p(-2.1, 0.1, 0.0), p(-2.1, -0.1, 0.0));
        // Jumps clean over the wall in one step: neither end touches, the path does.
        assert!(swept_triangle_intersects(&wall, &dart, &Vector::new(4.0, 0.0, 0.0)));
        assert!(!swept_triangle_intersects(&wall, &dart, &Vector::new(1.0, 0.0, 0.0)));
        assert!(!swept_triangle_intersects(&wall, &dart, &Vector::new(4.0, 0.0, 20.0)));
        // Two edges crossing with no vertex passing any face: a vertical bar swept across a
        // horizontal one.
        let bar = Triangle::new(p(-1.0, 0.0, 0.0), p(1.0, 0.0, 0.0), p(1.0, 0.0, 0.001));
        let post = Triangle::new(p(0.0, -1.0, -1.0), p(0.0, -1.0, 1.0), p(0.0005, -1.0, 1.0));
        assert!(swept_triangle_intersects(&bar, &post, &Vector::new(0.0, 2.0, 0.0)));
        assert!(!swept_triangle_intersects(&bar, &post, &Vector::new(0.0, 0.5, 0.0)));
    }
}
