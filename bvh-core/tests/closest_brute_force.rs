//! Closest points against brute force over dense samples of the shapes.
//!
//! The brute-force minimum over samples bounds the true distance from above, and from below up
//! to the sample spacing; the computed distance must fall in between, and the computed points
//! must lie on their shapes at that distance.

mod common;

use bvh_core::triangle::{closest_point_on_segment, closest_point_on_triangle, closest_points_segments};
use bvh_core::{Point, Real, Segment, Triangle, closest_points_triangles, triangles_intersect};
use common::configurations::{Kind, pair, random_triangle, random_vector};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const STEPS: usize = 40;

fn segment_samples(s: &Segment) -> impl Iterator<Item = Point> + '_ {
    (0..=STEPS).map(move |i| s.a + (s.b - s.a) * (i as Real / STEPS as Real))
}

fn triangle_samples(t: &Triangle) -> Vec<Point> {
    let mut out = Vec::new();
    for i in 0..=STEPS {
        for j in 0..=STEPS - i {
            let (u, v) = (i as Real / STEPS as Real, j as Real / STEPS as Real);
            out.push(t.a + (t.b - t.a) * u + (t.c - t.a) * v);
        }
    }
    out
}

/// Largest distance from any point of the shape to the nearest sample.
fn spacing(longest_edge: Real) -> Real {
    longest_edge / STEPS as Real
}

fn longest_edge(t: &Triangle) -> Real {
    t.edges().iter().map(|e| e.length()).fold(0.0, Real::max)
}

#[track_caller]
fn assert_between(computed: Real, brute: Real, slack: Real, what: &str) {
    let tol = 1e-5 * (1.0 + brute);
    assert!(computed <= brute + tol, "{what}: computed {computed} exceeds brute force {brute}");
    assert!(
        computed >= brute - slack - tol,
        "{what}: computed {computed} below brute force {brute} minus spacing {slack}"
    );
}

#[test]
fn point_triangle() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for case in 0..400 {
        let t =
            if case % 5 == 0 { pair(Kind::Degenerate, &mut rng).1 } else { random_triangle(&mut rng, 1.0) };
        let p = Point::from(random_vector(&mut rng, 1.5));
        let q = closest_point_on_triangle(&p, &t);
        assert!(
            (closest_point_on_triangle(&q, &t) - q).norm() < 1e-5,
            "case {case}: result not on the triangle"
        );
        let brute = triangle_samples(&t).iter().map(|s| (s - p).norm()).fold(Real::INFINITY, Real::min);
        assert_between((q - p).norm(), brute, spacing(longest_edge(&t)), &format!("case {case}"));
    }
}

#[test]
fn segment_segment() {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    for case in 0..400 {
        let seg = |rng: &mut ChaCha8Rng| {
            let a = Point::from(random_vector(rng, 1.0));
            // Some zero-length and some parallel segments.
            let b = if rng.gen_bool(0.1) { a } else { Point::from(random_vector(rng, 1.0)) };
            Segment::new(a, b)
        };
        let s = seg(&mut rng);
        let t = if case % 7 == 0 {
            // Parallel to `s`, slightly shifted.
            let offset = random_vector(&mut rng, 0.3);
            Segment::new(s.a + offset, s.b + offset)
        } else {
            seg(&mut rng)
        };
        let c = closest_points_segments(&s, &t);
        assert!((closest_point_on_segment(&c.on_a, &s) - c.on_a).norm() < 1e-5);
        assert!((closest_point_on_segment(&c.on_b, &t) - c.on_b).norm() < 1e-5);
        assert!(((c.on_a - c.on_b).norm() - c.distance).abs() < 1e-5);
        let brute = segment_samples(&s)
            .flat_map(|x| segment_samples(&t).map(move |y| (x - y).norm()))
            .fold(Real::INFINITY, Real::min);
        let slack = (s.length() + t.length()) / STEPS as Real;
        assert_between(c.distance, brute, slack, &format!("case {case}"));
    }
}

#[test]
fn triangle_triangle() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let kinds = [Kind::Generic, Kind::Clustered, Kind::NearMiss, Kind::Degenerate, Kind::Coplanar];
    for case in 0..300 {
        let (t1, t2) = pair(kinds[case % kinds.len()], &mut rng);
        let c = closest_points_triangles(&t1, &t2);
        assert!(c.distance.is_finite() && c.distance >= 0.0);
        assert_eq!(
            c.distance == 0.0,
            triangles_intersect(&t1, &t2),
            "case {case}: zero distance iff intersecting"
        );
        let size = longest_edge(&t1).max(longest_edge(&t2)).max(1.0);
        assert!((closest_point_on_triangle(&c.on_a, &t1) - c.on_a).norm() < 1e-5 * size);
        assert!((closest_point_on_triangle(&c.on_b, &t2) - c.on_b).norm() < 1e-5 * size);
        if c.distance > 0.0 {
            assert!(((c.on_a - c.on_b).norm() - c.distance).abs() < 1e-5 * size);
        }
        // Sampling one triangle and projecting exactly onto the other bounds the distance.
        let one_way = |a: &Triangle, b: &Triangle| {
            triangle_samples(a)
                .iter()
                .map(|s| (closest_point_on_triangle(s, b) - s).norm())
                .fold(Real::INFINITY, Real::min)
        };
        let brute = one_way(&t1, &t2).min(one_way(&t2, &t1));
        let slack = spacing(longest_edge(&t1).max(longest_edge(&t2)));
        assert_between(c.distance, brute, slack, &format!("case {case}: {t1:?} {t2:?}"));
    }
}
