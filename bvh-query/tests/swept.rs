//! Swept tests against brute force over all triangle pairs, against fine sub-stepping, and on a
//! part that jumps clean through a thin wall between two frames.

mod common;

use bvh_build::{BuildConfig, Bvh};
use bvh_core::{Isometry, Obb, Point, RelativePose, TriMesh, Vector};
use bvh_query::{Posed, Query, QueryOptions, SweepError};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn tree(mesh: &TriMesh) -> Bvh<Obb> {
    Bvh::build(mesh.clone(), &BuildConfig::co())
}

#[test]
fn nothing_tunnels_through_a_thin_wall() {
    let wall = TriMesh::cuboid(Point::origin(), Vector::new(0.005, 1.0, 1.0));
    let ball = TriMesh::uv_sphere(Point::origin(), 0.05, 8, 12);
    let (a, b) = (tree(&wall), tree(&ball));
    let here = Isometry::identity();
    let before = Isometry::translation(-0.5, 0.0, 0.0);
    let after = Isometry::translation(0.5, 0.0, 0.0);
    let q = Query::new(Posed::new(&a, here), Posed::new(&b, before), QueryOptions::default());
    let at_end = Query::new(Posed::new(&a, here), Posed::new(&b, after), QueryOptions::default());
    // Neither frame sees a contact; the motion between them goes through the wall.
    assert!(q.intersects().is_none() && at_end.intersects().is_none());
    assert!(q.swept_intersects(&after).unwrap().is_some());
    // Passing beside the wall does not touch it.
    let (start, beside) = (Isometry::translation(-0.5, 0.0, 1.5), Isometry::translation(0.5, 0.0, 1.5));
    let q = Query::new(Posed::new(&a, here), Posed::new(&b, start), QueryOptions::default());
    assert!(q.swept_intersects(&beside).unwrap().is_none());
    // A motion that turns is refused.
    let turned = Isometry::new(Vector::new(0.5, 0.0, 0.0), Vector::new(0.0, 0.0, 0.3));
    assert_eq!(q.swept_intersects(&turned), Err(SweepError::Rotation));
}

#[test]
fn swept_queries_match_brute_force_and_sub_stepping() {
    let ring = bvh_build::generate::torus(1.0, 0.15, 24, 8);
    let ball = TriMesh::uv_sphere(Point::origin(), 0.2, 6, 10);
    let (a, b) = (tree(&ring), tree(&ball));
    let here = Isometry::identity();
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let (mut hits, mut tunnels) = (0, 0);
    for _ in 0..60 {
        let rotation =
            Vector::new(rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0));
        let from = Vector::new(rng.gen_range(-2.0..2.0), rng.gen_range(-2.0..2.0), rng.gen_range(-0.5..0.5));
        let motion =
            Vector::new(rng.gen_range(-3.0..3.0), rng.gen_range(-3.0..3.0), rng.gen_range(-0.5..0.5));
        let start = Isometry::new(from, rotation);
        let end = Isometry::from_parts((from + motion).into(), start.rotation);
        let q = Query::new(Posed::new(&a, here), Posed::new(&b, start), QueryOptions::default());
        let swept = q.swept_intersects(&end).unwrap().is_some();
        let rel =
            RelativePose::between(&here, &end).translation - RelativePose::between(&here, &start).translation;
        assert_eq!(
            swept,
            common::brute_swept(&ring, &ball, &RelativePose::from(&start), &rel),
            "from {from:?} by {motion:?}"
        );
        // Any sub-step that touches must have been caught by the sweep.
        let touched = (0..=40).any(|k| {
            let pose = Isometry::from_parts((from + motion * (k as f32 / 40.0)).into(), start.rotation);
            Query::new(Posed::new(&a, here), Posed::new(&b, pose), QueryOptions::default())
                .intersects()
                .is_some()
        });
        assert!(!touched || swept, "a sub-step touches but the sweep says no");
        hits += swept as usize;
        tunnels += (swept && !touched) as usize;
    }
    assert!(hits > 10 && hits < 55, "{hits} of 60 motions touch");
    println!("{hits} motions touch, {tunnels} of them only between the 41 sub-steps");
}

/// Whether the meshes intersect at `pose` of B, by the ordinary query.
fn touches(a: &Bvh<Obb>, b: &Bvh<Obb>, pose: &Isometry) -> bool {
    let here = Isometry::identity();
    Query::new(Posed::new(a, here), Posed::new(b, pose), QueryOptions::default()).intersects().is_some()
}

#[test]
fn rotating_sweeps_never_miss_a_contact_and_report_within_the_tolerance() {
    // A paddle swinging through a thin post between two frames; then random rotating motions
    // near a bracket, checked against dense sampling.
    let post = TriMesh::cuboid(Point::new(0.6, 0.0, 0.0), Vector::new(0.004, 0.004, 1.0));
    let paddle = TriMesh::cuboid(Point::new(0.6, 0.0, 0.0), Vector::new(0.5, 0.01, 0.1));
    let (a, b) = (tree(&post), tree(&paddle));
    let before = Isometry::rotation(Vector::new(0.0, 0.0, 0.8));
    let after = Isometry::rotation(Vector::new(0.0, 0.0, -0.8));
    assert!(!touches(&a, &b, &before) && !touches(&a, &b, &after));
    let here = Isometry::identity();
    let q = Query::new(Posed::new(&a, here), Posed::new(&b, before), QueryOptions::default());
    assert_eq!(q.swept_intersects(&after), Err(SweepError::Rotation));
    let found = q.sweep_within(&after, 0.002).unwrap().expect("the paddle swings through the post");
    assert!(found.distance <= 0.002);
    assert_eq!(q.sweep_within(&after, 0.0), Err(SweepError::Tolerance));
    assert!(matches!(q.sweep_within(&after, 1e-9), Err(SweepError::TooManySteps(_))));

    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let wall = TriMesh::cuboid(Point::origin(), Vector::new(0.05, 0.6, 0.6));
    let bar = TriMesh::cuboid(Point::origin(), Vector::new(0.3, 0.02, 0.02));
    let (a, b) = (tree(&wall), tree(&bar));
    let mut hits = 0;
    for case in 0..60 {
        let pose = |rng: &mut ChaCha8Rng| {
            let t = Vector::new(rng.gen_range(-0.6..0.6), rng.gen_range(-0.3..0.3), rng.gen_range(-0.3..0.3));
            Isometry::new(
                t,
                Vector::new(rng.gen_range(-1.5..1.5), rng.gen_range(-1.5..1.5), rng.gen_range(-1.5..1.5)),
            )
        };
        let (start, end) = (pose(&mut rng), pose(&mut rng));
        let tolerance = 0.01;
        let q = Query::new(Posed::new(&a, here), Posed::new(&b, start), QueryOptions::default());
        let swept = q.sweep_within(&end, tolerance).unwrap();
        // Dense sampling along the same motion: any contact it sees must have been caught.
        let turn = start.rotation.rotation_to(&end.rotation);
        let sampled = (0..=2000).any(|k| {
            let t = k as f32 / 2000.0;
            let shift = start.translation.vector.lerp(&end.translation.vector, t);
            touches(&a, &b, &Isometry::from_parts(shift.into(), turn.powf(t) * start.rotation))
        });
        if sampled {
            assert!(swept.is_some(), "case {case}: a contact was missed");
            hits += 1;
        }
        if let Some(near) = swept {
            assert!(near.distance <= tolerance, "case {case}: reported {} apart", near.distance);
        }
    }
    assert!(hits > 10, "the motions should hit the wall ({hits})");
}
