//! parry3d as a second opinion: OBB–OBB against its cuboid–cuboid test, triangle–triangle
//! against its GJK-based test, and the pre-judge against our own SAT.
//!
//! Disagreements are classified, not trusted: boxes by their separation measured in `f64`
//! over the 15 SAT axes, triangles by the exact reference and the exact-sign distance.

// The exact reference and the configuration generators are bvh-core's test support.
#[path = "../../bvh-core/tests/common/mod.rs"]
mod common;

use bvh_bench::parry_bridge::{pose as parry_pose, triangle as parry_triangle, vector as parry_vec};
use bvh_core::{Isometry, Matrix, Obb, Overlap, Point, PreJudge, Real, RelativePose, Rotation, Vector};
use bvh_core::{closest_points_triangles, obb_prejudge, triangles_intersect};
use common::configurations::{Kind, pair, random_rotation, random_vector};
use nalgebra::{Matrix3, Vector3};
use parry3d::math::Pose as ParryPose;
use parry3d::query::details::{intersection_test_cuboid_cuboid, intersection_test_support_map_support_map};
use parry3d::shape::Cuboid;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A box test case: two boxes centred at their own origins, and their world poses.
struct BoxPair {
    a: Vector,
    b: Vector,
    pose_a: Isometry,
    pose_b: Isometry,
}

fn random_half(rng: &mut impl Rng) -> Vector {
    Vector::new(rng.gen_range(0.01..2.0), rng.gen_range(0.01..2.0), rng.gen_range(0.01..2.0))
}

fn box_pair(rng: &mut impl Rng, case: usize) -> BoxPair {
    let (a, b) = (random_half(rng), random_half(rng));
    let pose_a = Isometry::from_parts(random_vector(rng, 3.0).into(), random_rotation(rng));
    let pose_b = match case % 4 {
        // Anywhere near.
        0 => Isometry::from_parts(
            (pose_a.translation.vector + random_vector(rng, 4.0)).into(),
            random_rotation(rng),
        ),
        // Nearly parallel axes: the edge–edge cross products are almost zero.
        1 => {
            let tilt = Rotation::from_scaled_axis(
                random_vector(rng, 1.0).normalize() * 10f32.powi(-rng.gen_range(3..=7)),
            );
            let offset = pose_a.rotation * random_vector(rng, 3.0);
            Isometry::from_parts((pose_a.translation.vector + offset).into(), pose_a.rotation * tilt)
        }
        // Face to face along one of A's axes, touching up to a tiny gap or overlap.
        2 => {
            let axis = rng.gen_range(0..3);
            let gap = rng.gen_range(-1e-3..1e-3) * if rng.gen_bool(0.5) { 1.0 } else { 1e-3 };
            let mut local = random_vector(rng, 0.5).component_mul(&a);
            local[axis] = a[axis] + b[axis] + gap;
            Isometry::from_parts(
                (pose_a.translation.vector + pose_a.rotation * local).into(),
                pose_a.rotation,
            )
        }
        // Corner or edge of a turned box against a face.
        _ => {
            let rot = random_rotation(rng);
            let reach = (rot.to_rotation_matrix().into_inner().abs() * b)[0];
            let local = Vector::new(
                a.x + reach + rng.gen_range(-1e-3..1e-3),
                rng.gen_range(-1.0..1.0) * a.y,
                rng.gen_range(-1.0..1.0) * a.z,
            );
            Isometry::from_parts(
                (pose_a.translation.vector + pose_a.rotation * local).into(),
                pose_a.rotation * rot,
            )
        }
    };
    BoxPair { a, b, pose_a, pose_b }
}

/// The largest gap between the boxes' projections over the 15 SAT axes, in `f64` from the
/// `f64` rotation of the same quaternions: positive means separated by at least that much.
fn separation(p: &BoxPair) -> f64 {
    let rot = |iso: &Isometry| iso.rotation.cast::<f64>().to_rotation_matrix().into_inner();
    let (ra, rb) = (rot(&p.pose_a), rot(&p.pose_b));
    let t = p.pose_b.translation.vector.cast::<f64>() - p.pose_a.translation.vector.cast::<f64>();
    let (ea, eb) = (p.a.cast::<f64>(), p.b.cast::<f64>());
    let radius = |axes: &Matrix3<f64>, e: &Vector3<f64>, l: &Vector3<f64>| {
        (0..3).map(|i| e[i] * axes.column(i).dot(l).abs()).sum::<f64>()
    };
    let mut axes: Vec<Vector3<f64>> =
        (0..3).map(|i| ra.column(i).into()).chain((0..3).map(|j| rb.column(j).into())).collect();
    for i in 0..3 {
        for j in 0..3 {
            let c = ra.column(i).cross(&rb.column(j));
            if c.norm() > 1e-9 {
                axes.push(c.normalize());
            }
        }
    }
    axes.iter()
        .map(|l| t.dot(l).abs() - radius(&ra, &ea, l) - radius(&rb, &eb, l))
        .fold(f64::NEG_INFINITY, f64::max)
}

#[test]
fn obb_obb_agrees_with_parry_and_f64_sat_outside_touching() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x0bb0_0bb0);
    let (mut disagreements_parry, mut near_touching, mut overlapping) = (0, 0, 0);
    let n = 100_000;
    for case in 0..n {
        let p = box_pair(&mut rng, case);
        let (a, b) = (
            Obb::new(Point::origin(), Matrix::identity(), p.a),
            Obb::new(Point::origin(), Matrix::identity(), p.b),
        );
        let ours = a.overlaps(&b, &RelativePose::between(&p.pose_a, &p.pose_b));
        let pos12 = parry_pose(&p.pose_a).inv_mul(&parry_pose(&p.pose_b));
        let theirs = intersection_test_cuboid_cuboid(
            &pos12,
            &Cuboid::new(parry_vec(&p.a)),
            &Cuboid::new(parry_vec(&p.b)),
        );
        let gap = separation(&p);
        // Within this band the f32 poses themselves differ from the f64 ones by more than the gap.
        let touching = gap.abs() <= 1e-5 * (p.a.amax() + p.b.amax()) as f64;
        near_touching += touching as usize;
        overlapping += ours as usize;
        if !touching {
            assert_eq!(ours, gap <= 0.0, "case {case}: ours {ours}, f64 gap {gap}");
        }
        if ours != theirs {
            disagreements_parry += 1;
            assert!(touching, "case {case}: ours {ours}, parry {theirs}, f64 gap {gap}");
        }
    }
    println!(
        "OBB–OBB: {n} pairs, {overlapping} overlapping, {near_touching} within the touching band, {disagreements_parry} disagreements with parry (all touching)"
    );
    assert!(overlapping > n / 10 && overlapping < n * 9 / 10);
    assert!(near_touching > n / 50, "the touching cases must actually be generated");
}

#[test]
fn prejudge_never_contradicts_sat() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x9e_1ad6e);
    let mut outcomes = [0usize; 3];
    for case in 0..100_000 {
        let p = box_pair(&mut rng, case);
        let (a, b) = (
            Obb::new(Point::origin(), Matrix::identity(), p.a),
            Obb::new(Point::origin(), Matrix::identity(), p.b),
        );
        let rel = RelativePose::between(&p.pose_a, &p.pose_b);
        let sat = a.overlaps(&b, &rel);
        match obb_prejudge(&a, &b, &rel) {
            PreJudge::Overlap => {
                outcomes[0] += 1;
                assert!(sat, "case {case}: pre-judge says overlap, SAT says apart");
            }
            PreJudge::Disjoint => {
                outcomes[1] += 1;
                assert!(!sat, "case {case}: pre-judge says apart, SAT says overlap");
            }
            PreJudge::Undecided => outcomes[2] += 1,
        }
    }
    println!(
        "pre-judge over 100000 pairs: overlap {}, disjoint {}, undecided {}",
        outcomes[0], outcomes[1], outcomes[2]
    );
    assert!(outcomes.iter().all(|&n| n > 1000), "every verdict must be exercised: {outcomes:?}");
}

/// Triangle pairs where parry's GJK test and the exact reference disagree, with the exact
/// verdict and the distance, per kind of configuration. Our test equals the reference on every
/// pair; parry's answers are only counted.
#[test]
fn triangle_disagreements_with_parry_are_classified() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x7121_7121);
    let kinds = [Kind::Generic, Kind::Clustered, Kind::NearMiss, Kind::Rotated, Kind::ScaledRounded];
    let per_kind = 4_000;
    for kind in kinds {
        let (mut false_hits, mut misses, mut worst_gap, mut worst_relative) = (0, 0, 0.0f32, 0.0f32);
        for _ in 0..per_kind {
            let (t1, t2) = pair(kind, &mut rng);
            let exact = common::reference::triangles_meet(&t1, &t2);
            assert_eq!(triangles_intersect(&t1, &t2), exact);
            let theirs = intersection_test_support_map_support_map(
                &ParryPose::IDENTITY,
                &parry_triangle(&t1),
                &parry_triangle(&t2),
            );
            if theirs && !exact {
                false_hits += 1;
                let d = closest_points_triangles(&t1, &t2).distance;
                assert!(d > 0.0);
                let size: Real = t1.aabb().merged(&t2.aabb()).extents().amax();
                worst_gap = worst_gap.max(d);
                worst_relative = worst_relative.max(d / size);
            } else if !theirs && exact {
                misses += 1;
            }
        }
        println!(
            "triangle–triangle {kind:?}: {per_kind} pairs; parry calls {false_hits} apart pairs intersecting \
             (largest gap {worst_gap:.2e}, {worst_relative:.2e} of the pair's size) and misses {misses} \
             intersecting pairs; the exact reference sides with us on all"
        );
    }
}
