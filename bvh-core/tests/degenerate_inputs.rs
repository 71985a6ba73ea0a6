//! Degenerate inputs through every predicate: zero-area and collinear triangles, repeated
//! vertices, and coordinates at 1e-6 and 1e6 scales. Nothing may panic or return NaN, exact
//! predicates must still match the reference, and conservative ones must stay conservative.

mod common;

use bvh_core::triangle::{TriangleIntersection, triangle_aabb_overlap, triangle_obb_overlap};
use bvh_core::{
    Aabb, CubeAabb, Obb, Point, Real, Sphere, Triangle, closest_points_triangles,
    segment_intersects_triangle, sphere_deviation_rate, triangle_intersection, triangles_intersect,
};
use common::configurations::{random_rotation, random_vector};
use common::reference;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Triangles of every degenerate shape, at one scale.
fn degenerate_family(rng: &mut impl Rng, scale: Real) -> Vec<Triangle> {
    let p = |rng: &mut _| Point::from(random_vector(rng, 1.0) * scale);
    let (a, b, c) = (p(rng), p(rng), p(rng));
    let mid = Point::from((a.coords + b.coords) * 0.5);
    vec![
        Triangle::new(a, b, c),                  // ordinary
        Triangle::new(a, a, a),                  // a point
        Triangle::new(a, a, b),                  // two repeated vertices: a segment
        Triangle::new(a, b, a),                  // the same, other order
        Triangle::new(a, mid, b),                // collinear (nearly, after rounding of mid)
        Triangle::new(a, b, b + (b - a)),        // collinear, exact for these scales up to rounding
        Triangle::new(a, b, a + (b - a) * 1e-7), // a sliver
    ]
}

#[test]
fn every_predicate_survives_degenerate_input() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xdead);
    let mut hits = 0;
    for round in 0..300 {
        let scale = [1e-6, 1.0, 1e6][round % 3];
        let mut tris = degenerate_family(&mut rng, scale);
        // A partner that crosses the degenerate ones often.
        let center = tris[0].centroid();
        let rot = random_rotation(&mut rng);
        tris.push(Triangle::new(
            center + rot * bvh_core::Vector::x() * scale,
            center - rot * bvh_core::Vector::y() * scale,
            center + rot * bvh_core::Vector::z() * scale,
        ));
        for t1 in &tris {
            for t2 in &tris {
                let exact = reference::triangles_meet(t1, t2);
                assert_eq!(triangles_intersect(t1, t2), exact, "{t1:?} {t2:?}");
                hits += exact as usize;
                match triangle_intersection(t1, t2) {
                    Some(TriangleIntersection::Segment(s)) => {
                        assert!(s.a.iter().chain(s.b.iter()).all(|x| x.is_finite()))
                    }
                    Some(TriangleIntersection::Polygon(p)) => {
                        assert!(
                            !p.vertices().is_empty()
                                && p.vertices().iter().all(|v| v.iter().all(|x| x.is_finite()))
                        )
                    }
                    None => assert!(!exact),
                }
                let c = closest_points_triangles(t1, t2);
                assert!(c.distance.is_finite() && c.on_a.iter().chain(c.on_b.iter()).all(|x| x.is_finite()));
                assert_eq!(c.distance == 0.0, exact);
                for e in t1.edges() {
                    assert_eq!(
                        segment_intersects_triangle(&e, t2),
                        reference::segment_meets_triangle(&e.a, &e.b, t2)
                    );
                }
            }
            check_box_overlap_is_conservative(t1, &mut rng, scale);
            let verts = t1.vertices();
            let obb = Obb::from_points(&verts);
            assert!(obb.half_extents.iter().all(|e| e.is_finite()));
            assert!(verts.iter().all(|v| obb.contains_point(v)), "{obb:?} does not hold {verts:?}");
            assert!(verts.iter().all(|v| Sphere::from_points(&verts).contains_point(v)));
            assert!(verts.iter().all(|v| CubeAabb::from_points(&verts).contains_point(v)));
            assert!(sphere_deviation_rate(&verts).is_finite());
        }
    }
    assert!(hits > 1000, "the family must produce intersecting pairs too ({hits})");
}

/// A box around any point of the triangle must be reported overlapping; a box clearly apart
/// from the triangle's bounds must not.
fn check_box_overlap_is_conservative(t: &Triangle, rng: &mut impl Rng, scale: Real) {
    let (u, v) = (rng.gen_range(0.0..1.0), rng.gen_range(0.0..1.0));
    let (u, v) = if u + v > 1.0 { (1.0 - u, 1.0 - v) } else { (u, v) };
    let on = t.a + (t.b - t.a) * u + (t.c - t.a) * v;
    let half = bvh_core::Vector::repeat(scale * rng.gen_range(1e-3..0.5));
    let around = Aabb::from_half_extents(on, half);
    assert!(triangle_aabb_overlap(t, &around), "{t:?} vs {around:?}");
    let turned = Obb::new(on, random_rotation(rng).to_rotation_matrix().into_inner(), half);
    assert!(triangle_obb_overlap(t, &turned));
    let bounds = t.aabb();
    let far = Aabb::from_half_extents(bounds.maxs + half * 1.5 + bounds.extents(), half);
    assert!(!triangle_aabb_overlap(t, &far));
}
