//! Primitive tests against parry3d in the same run: OBB–OBB SAT and the pre-judge against
//! parry's cuboid–cuboid test, and exact triangle–triangle against parry's GJK-based test.
//!
//! Each benchmark cycles through 1,024 pre-generated pairs (about half overlapping), so the
//! reported time is the mean cost of one test over a realistic mix of outcomes.

use bvh_bench::parry_bridge;
use bvh_core::{Isometry, Matrix, Obb, Overlap, Point, RelativePose, Rotation, Triangle, Vector};
use bvh_core::{obb_prejudge, triangle_intersection, triangle_intersection_with_edges, triangles_intersect};
use criterion::{Criterion, criterion_group, criterion_main};
use parry3d::math::Pose as ParryPose;
use parry3d::query::details::{intersection_test_cuboid_cuboid, intersection_test_support_map_support_map};
use parry3d::shape::Cuboid;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;

const PAIRS: usize = 1024;

fn vector(rng: &mut impl Rng, half: f32) -> Vector {
    Vector::new(rng.gen_range(-half..half), rng.gen_range(-half..half), rng.gen_range(-half..half))
}

fn rotation(rng: &mut impl Rng) -> Rotation {
    Rotation::from_scaled_axis(vector(rng, std::f32::consts::PI))
}

struct BoxCase {
    a: Obb,
    b: Obb,
    relative: RelativePose,
    parry: (Cuboid, Cuboid, ParryPose),
}

fn box_cases() -> Vec<BoxCase> {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    (0..PAIRS)
        .map(|_| {
            let half = |rng: &mut ChaCha8Rng| {
                Vector::new(rng.gen_range(0.2..1.0), rng.gen_range(0.2..1.0), rng.gen_range(0.2..1.0))
            };
            let (ha, hb) = (half(&mut rng), half(&mut rng));
            let pose = Isometry::from_parts(vector(&mut rng, 1.5).into(), rotation(&mut rng));
            let centred = |h| Obb::new(Point::origin(), Matrix::identity(), h);
            BoxCase {
                a: centred(ha),
                b: centred(hb),
                relative: RelativePose::from(&pose),
                parry: (
                    Cuboid::new(parry_bridge::vector(&ha)),
                    Cuboid::new(parry_bridge::vector(&hb)),
                    parry_bridge::pose(&pose),
                ),
            }
        })
        .collect()
}

fn triangle_cases() -> Vec<(Triangle, Triangle)> {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    (0..PAIRS)
        .map(|_| {
            let point = |rng: &mut ChaCha8Rng, spread: f32| Point::from(vector(rng, spread));
            let t1 = Triangle::new(point(&mut rng, 1.0), point(&mut rng, 1.0), point(&mut rng, 1.0));
            let c = t1.centroid();
            let t2 = Triangle::new(
                c + vector(&mut rng, 0.8),
                c + vector(&mut rng, 0.8),
                c + vector(&mut rng, 0.8),
            );
            (t1, t2)
        })
        .collect()
}

/// Benchmarks `test` over all cases in turn.
fn cycle<T>(c: &mut Criterion, name: &str, cases: &[T], test: impl Fn(&T) -> bool) {
    c.bench_function(name, |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % cases.len();
            black_box(test(black_box(&cases[i])))
        })
    });
}

fn boxes(c: &mut Criterion) {
    let cases = box_cases();
    let overlapping = cases.iter().filter(|k| k.a.overlaps(&k.b, &k.relative)).count();
    eprintln!("OBB pairs: {overlapping} of {PAIRS} overlap");
    cycle(c, "obb_obb/ours_sat", &cases, |k| k.a.overlaps(&k.b, &k.relative));
    cycle(c, "obb_obb/ours_prejudge", &cases, |k| {
        obb_prejudge(&k.a, &k.b, &k.relative) == bvh_core::PreJudge::Overlap
    });
    cycle(c, "obb_obb/ours_prejudge_then_sat", &cases, |k| match obb_prejudge(&k.a, &k.b, &k.relative) {
        bvh_core::PreJudge::Overlap => true,
        bvh_core::PreJudge::Disjoint => false,
        bvh_core::PreJudge::Undecided => k.a.overlaps(&k.b, &k.relative),
    });
    cycle(c, "obb_obb/parry_cuboid_cuboid", &cases, |k| {
        intersection_test_cuboid_cuboid(&k.parry.2, &k.parry.0, &k.parry.1)
    });
}

fn triangles(c: &mut Criterion) {
    let cases = triangle_cases();
    let intersecting = cases.iter().filter(|(a, b)| triangles_intersect(a, b)).count();
    eprintln!("triangle pairs: {intersecting} of {PAIRS} intersect");
    cycle(c, "triangle_triangle/ours_exact", &cases, |(a, b)| triangles_intersect(a, b));
    // Where they meet, on the pairs that do: what the contacts and the regions pay per pair.
    let meeting: Vec<_> = cases.iter().filter(|(a, b)| triangles_intersect(a, b)).copied().collect();
    cycle(c, "triangle_triangle/ours_exact_meeting", &meeting, |(a, b)| triangles_intersect(a, b));
    cycle(c, "triangle_triangle/ours_segment", &meeting, |(a, b)| triangle_intersection(a, b).is_some());
    cycle(c, "triangle_triangle/ours_segment_with_edges", &meeting, |(a, b)| {
        triangle_intersection_with_edges(a, b).is_some_and(|(_, edges)| edges.is_some())
    });
    let parry_cases: Vec<_> =
        cases.iter().map(|(a, b)| (parry_bridge::triangle(a), parry_bridge::triangle(b))).collect();
    cycle(c, "triangle_triangle/parry_gjk", &parry_cases, |(a, b)| {
        intersection_test_support_map_support_map(&ParryPose::IDENTITY, a, b)
    });
}

criterion_group!(benches, boxes, triangles);
criterion_main!(benches);
