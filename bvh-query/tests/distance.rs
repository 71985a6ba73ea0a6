//! The distance query against brute force over all triangle pairs, for every preset, with and
//! without the cache, exact and with tolerances, with and without a limit: on generated meshes
//! at random and path poses, touching, coplanar and degenerate geometry, far from the origin,
//! and a part inside a closed scene without touching it.

mod common;

use bvh_build::generate::{bracket, bumpy_model, torus, tube};
use bvh_build::{Bvh, Hierarchy, NodeVolume, Preset};
use bvh_core::triangle::closest_point_on_triangle;
use bvh_core::{Isometry, Point, Real, Rotation, TriMesh, Triangle, Vector, closest_points_triangles};
use bvh_query::{
    DistanceOptions, HierarchyQuery, NearPair, NodeTest, PairCache, Posed, Query, QueryOptions, QueryStats,
    TreePairVisitor, visit_tree_pair,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The minimum distance over all triangle pairs, B placed in A's frame with the pose composed
/// and applied in `f64` and each corner rounded once (in the world instead, a part far from
/// the origin would take the world's rounding).
fn brute_distance(a: &TriMesh, b: &TriMesh, pose_a: &Isometry, pose_b: &Isometry) -> f64 {
    let b_in_a = pose_a.cast::<f64>().inv_mul(&pose_b.cast::<f64>());
    let place = |p: &Point| (b_in_a * p.cast::<f64>()).cast::<Real>();
    let moved: Vec<Triangle> =
        b.triangles().map(|t| Triangle::new(place(&t.a), place(&t.b), place(&t.c))).collect();
    let mut best = f64::INFINITY;
    for ta in a.triangles() {
        for tb in &moved {
            best = best.min(closest_points_triangles(&ta, tb).distance as f64);
            if best == 0.0 {
                return 0.0;
            }
        }
    }
    best
}

/// How far placing B's triangles in `f32` may move the answer: a few units in the last place
/// of the coordinates involved.
fn rounding(a: &TriMesh, b: &TriMesh, pose_a: &Isometry, pose_b: &Isometry) -> f64 {
    let reach = |m: &TriMesh| m.aabb().reach() as f64;
    let shift = (pose_a.translation.vector - pose_b.translation.vector).norm() as f64;
    64.0 * Real::EPSILON as f64 * (reach(a) + reach(b) + shift)
}

/// The distance query at one pose, with the given options and cache.
struct Measured<'a> {
    pose_a: &'a Isometry,
    pose_b: &'a Isometry,
    options: DistanceOptions,
    cache: Option<&'a mut PairCache>,
}

impl TreePairVisitor for Measured<'_> {
    type Output = (Option<NearPair>, bool);

    fn visit<VA, VB>(self, a: &Bvh<VA>, b: &Bvh<VB>) -> (Option<NearPair>, bool)
    where
        VA: NodeVolume + NodeTest<VB>,
        VB: NodeVolume,
    {
        let query =
            Query::new(Posed::new(a, self.pose_a), Posed::new(b, self.pose_b), QueryOptions::default());
        (query.distance_counted(self.options, self.cache, &mut ()), query.intersects().is_some())
    }
}

/// The answer checked against the reference `exact`: within the promised tolerance, its points
/// on its triangles as far apart as it says, zero exactly when the meshes intersect.
#[allow(clippy::too_many_arguments)]
fn check_answer(
    answer: Option<NearPair>,
    intersecting: bool,
    exact: f64,
    slack: f64,
    options: &DistanceOptions,
    a: &TriMesh,
    b: &TriMesh,
    poses: (&Isometry, &Isometry),
    what: &str,
) {
    let limit = options.max_distance as f64;
    let Some(near) = answer else {
        assert!(exact > limit - slack, "{what}: no answer, but the distance is {exact} (limit {limit})");
        return;
    };
    let d = near.distance as f64;
    assert!(d <= limit + slack, "{what}: {d} beyond the limit {limit}");
    assert!(d >= exact - slack, "{what}: {d} below the exact distance {exact}");
    let promised = (1.0 + options.rel_err as f64) * exact + options.abs_err as f64;
    assert!(d <= promised + slack, "{what}: {d} above the promised {promised} (exact {exact})");
    assert_eq!(d == 0.0, intersecting, "{what}: distance {d}, intersects says {intersecting}");
    let (pose_a, pose_b) = poses;
    // World points are `f32`: far from the origin they carry the world's rounding.
    let world = 64.0
        * Real::EPSILON as f64
        * (pose_a.translation.vector.norm() + pose_b.translation.vector.norm()) as f64;
    let slack = slack + world;
    let ta = a.triangle(near.pair.a as usize).transformed(pose_a);
    let tb = b.triangle(near.pair.b as usize).transformed(pose_b);
    for (p, t, side) in [(near.on_a, ta, "A"), (near.on_b, tb, "B")] {
        let off = (closest_point_on_triangle(&p, &t) - p).norm() as f64;
        assert!(off <= 4.0 * slack, "{what}: the point on {side} is {off} off its triangle");
    }
    let apart = (near.on_a - near.on_b).norm() as f64;
    assert!((apart - d).abs() <= 4.0 * slack, "{what}: points {apart} apart, distance {d}");
}

fn meshes() -> Vec<(&'static str, TriMesh)> {
    vec![
        ("sphere", TriMesh::uv_sphere(Point::origin(), 1.0, 8, 12)),
        ("torus", torus(1.0, 0.3, 16, 8)),
        ("tube", tube(0.5, 0.4, 2.0, 10)),
        ("bracket", bracket(1.5, 0.1, 0.8)),
    ]
}

/// Every preset, exact, at random poses near and far (some intersecting), against brute force.
#[test]
fn every_preset_matches_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(28);
    let meshes = meshes();
    let (mut touching, mut apart) = (0, 0);
    for (k, (name_a, mesh_a)) in meshes.iter().enumerate() {
        let (name_b, mesh_b) = &meshes[(k + 1) % meshes.len()];
        let trees: Vec<(Hierarchy, Hierarchy)> = Preset::ALL
            .iter()
            .map(|p| (Hierarchy::build(mesh_a.clone(), p), Hierarchy::build(mesh_b.clone(), p)))
            .collect();
        for case in 0..6 {
            let pose_a = common::random_pose(&mut rng, 1.0);
            let pose_b = common::random_pose(&mut rng, 3.0);
            let exact = brute_distance(mesh_a, mesh_b, &pose_a, &pose_b);
            let slack = rounding(mesh_a, mesh_b, &pose_a, &pose_b);
            if exact == 0.0 {
                touching += 1
            } else {
                apart += 1
            }
            for (preset, (a, b)) in Preset::ALL.iter().zip(&trees) {
                let options = DistanceOptions::exact();
                let (answer, hit) = visit_tree_pair(
                    a,
                    b,
                    Measured { pose_a: &pose_a, pose_b: &pose_b, options, cache: None },
                );
                let what = format!("{name_a}/{name_b} case {case} {}", preset.name);
                check_answer(answer, hit, exact, slack, &options, mesh_a, mesh_b, (&pose_a, &pose_b), &what);
            }
        }
    }
    assert!(touching >= 3 && apart >= 8, "touching {touching}, apart {apart}");
}

/// The parallel batch gives each pose's answer, in order, and refuses a pose with a NaN.
#[test]
fn batch_over_poses() {
    let (ring, ball) = (torus(1.0, 0.3, 16, 8), TriMesh::uv_sphere(Point::origin(), 0.4, 6, 10));
    let (a, b) = (
        Bvh::<bvh_core::Obb>::build(ring, &bvh_build::BuildConfig::co()),
        Bvh::<bvh_core::Obb>::build(ball, &bvh_build::BuildConfig::co()),
    );
    let here = Isometry::identity();
    let mut poses: Vec<Isometry> =
        (0..24).map(|k| Isometry::translation(-2.0 + 0.18 * k as Real, 0.1, 0.2)).collect();
    poses.push(Isometry::translation(Real::NAN, 0.0, 0.0));
    let batch = bvh_query::distance_at_poses(
        &a,
        &here,
        &b,
        &poses,
        QueryOptions::default(),
        DistanceOptions::exact(),
    );
    assert_eq!(batch.len(), poses.len());
    for (pose, answer) in poses.iter().zip(&batch).take(24) {
        let query = Query::new(Posed::new(&a, here), Posed::new(&b, pose), QueryOptions::default());
        let one = query.distance(DistanceOptions::exact()).unwrap();
        assert_eq!(answer.as_ref().unwrap().unwrap().distance, one.distance);
    }
    assert!(batch[24].is_err());
    assert!(batch.iter().take(24).any(|d| d.unwrap().unwrap().distance == 0.0));
    assert!(batch.iter().take(24).any(|d| d.unwrap().unwrap().distance > 0.1));
}

/// Tolerances and limits keep their promises; a limit below the distance answers `None`.
#[test]
fn tolerances_and_limits() {
    let mut rng = ChaCha8Rng::seed_from_u64(29);
    let (a_mesh, b_mesh) = (torus(1.0, 0.3, 16, 8), bracket(1.5, 0.1, 0.8));
    let (a, b) =
        (Hierarchy::build(a_mesh.clone(), &Preset::co()), Hierarchy::build(b_mesh.clone(), &Preset::co()));
    let mut answered_none = 0;
    for case in 0..12 {
        let pose_a = Isometry::identity();
        let pose_b = common::random_pose(&mut rng, 3.5);
        let exact = brute_distance(&a_mesh, &b_mesh, &pose_a, &pose_b);
        let slack = rounding(&a_mesh, &b_mesh, &pose_a, &pose_b);
        for options in [
            DistanceOptions::exact().tolerant(0.05, 0.0),
            DistanceOptions::exact().tolerant(0.0, 0.5),
            DistanceOptions::exact().within(exact as Real * 0.5),
            DistanceOptions::exact().within(exact as Real * 1.5 + 0.01),
            DistanceOptions::exact().within(0.0),
        ] {
            let (answer, hit) =
                visit_tree_pair(&a, &b, Measured { pose_a: &pose_a, pose_b: &pose_b, options, cache: None });
            answered_none += usize::from(answer.is_none());
            let what = format!("case {case} {options:?}");
            check_answer(answer, hit, exact, slack, &options, &a_mesh, &b_mesh, (&pose_a, &pose_b), &what);
        }
    }
    assert!(answered_none >= 8, "{answered_none} limits answered None");
}

/// Along a path in and out of contact, the cached query gives the uncached answer's distance
/// at every pose. CO trees also with leaves of one, three and five triangles: the distance
/// search takes a node's two leaves as one when they hold four triangles or fewer, so their
/// pairs are merged in twos, threes and fours, or left apart.
#[test]
fn cache_along_a_path_keeps_the_answers() {
    let (a_mesh, b_mesh) = (torus(1.0, 0.3, 24, 10), tube(0.3, 0.25, 1.5, 12));
    let co_leaves =
        |leaf_size| Preset { config: Preset::co().config.with_leaf_size(leaf_size), ..Preset::co() };
    let presets =
        [Preset::co(), Preset::aabb_tree(), Preset::classified(), co_leaves(1), co_leaves(3), co_leaves(5)];
    for preset in presets {
        let name = format!("{} (leaves of {})", preset.name, preset.config.leaf_size);
        let (a, b) = (Hierarchy::build(a_mesh.clone(), &preset), Hierarchy::build(b_mesh.clone(), &preset));
        let mut cache = PairCache::new();
        let (mut touching, mut apart) = (0, 0);
        for k in 0..60 {
            let t = k as Real / 60.0;
            let pose_a = Isometry::identity();
            let pose_b = Isometry::new(
                Vector::new(2.2 - 2.4 * t, 0.3 * t, 0.5 - t),
                Vector::new(0.4 * t, 1.0 * t, 0.0),
            );
            let options = DistanceOptions::exact();
            let cached = visit_tree_pair(
                &a,
                &b,
                Measured { pose_a: &pose_a, pose_b: &pose_b, options, cache: Some(&mut cache) },
            );
            let plain =
                visit_tree_pair(&a, &b, Measured { pose_a: &pose_a, pose_b: &pose_b, options, cache: None });
            let (c, p) = (cached.0.expect("a distance"), plain.0.expect("a distance"));
            let slack = rounding(&a_mesh, &b_mesh, &pose_a, &pose_b);
            assert!((c.distance - p.distance).abs() as f64 <= slack, "{name} pose {k}: {c:?} against {p:?}");
            if k % 6 == 0 {
                let exact = brute_distance(&a_mesh, &b_mesh, &pose_a, &pose_b);
                let what = format!("{name} pose {k}");
                check_answer(
                    cached.0,
                    cached.1,
                    exact,
                    slack,
                    &options,
                    &a_mesh,
                    &b_mesh,
                    (&pose_a, &pose_b),
                    &what,
                );
            }
            if p.distance == 0.0 { touching += 1 } else { apart += 1 }
        }
        assert!(touching >= 10 && apart >= 10, "{name}: touching {touching}, apart {apart}");
    }
}

/// A part modelled far from its own origin (as scanned parts are) that turns about its centre,
/// slides along a bumpy scene and lifts off in small steps: the cached query gives the uncached
/// distance at every pose, and its front, whose bounds follow B's motion per node and along the
/// slabs between the pairs, spares a quarter of the work or more (a front whose bounds moved by
/// B's whole reach from its origin spared less).
#[test]
fn cache_follows_a_part_modelled_far_from_its_origin() {
    let offset = Vector::new(40.0, -25.0, 60.0);
    let tube_mesh = tube(0.3, 0.25, 1.5, 12);
    let far =
        TriMesh::new(tube_mesh.vertices().iter().map(|p| p + offset).collect(), tube_mesh.indices().to_vec())
            .expect("a valid mesh");
    let blob = bumpy_model(3000);
    let scene = TriMesh::new(blob.vertices().iter().map(|p| p * 4.0).collect(), blob.indices().to_vec())
        .expect("a valid mesh");
    let centre = scene.aabb().center();
    let lift = scene.aabb().half_extents().z;
    for preset in [Preset::co(), Preset::aabb_tree(), Preset::classified()] {
        let (a, b) = (Hierarchy::build(scene.clone(), &preset), Hierarchy::build(far.clone(), &preset));
        let mut cache = PairCache::new();
        let (mut cached_work, mut plain_work) = (0, 0);
        let steps = 240;
        for k in 0..steps {
            let t = k as Real / steps as Real;
            let turn = Rotation::from_scaled_axis(Vector::new(0.3, 0.8, 0.2) * (2.0 * t));
            // B's geometry centre (its origin plus `offset`) placed along the path.
            let at = centre + Vector::new(1.5 * (t - 0.5), 0.4 * t, lift + 0.2 + 3.0 * t * t);
            let pose_b = Isometry::from_parts((at.coords - turn * offset).into(), turn);
            let pose_a = Isometry::identity();
            let query = HierarchyQuery::new(&a, pose_a, &b, pose_b, QueryOptions::default());
            let options = DistanceOptions::exact();
            let (mut with_cache, mut without) = (QueryStats::default(), QueryStats::default());
            let c = query.distance_counted(options, Some(&mut cache), &mut with_cache).expect("a distance");
            let p = query.distance_counted(options, None, &mut without).expect("a distance");
            let slack = rounding(&scene, &far, &pose_a, &pose_b);
            assert!(
                (c.distance - p.distance).abs() as f64 <= slack,
                "{} pose {k}: {c:?} against {p:?}",
                preset.name
            );
            if k % 40 == 0 {
                let exact = brute_distance(&scene, &far, &pose_a, &pose_b);
                assert!(
                    (c.distance as f64 - exact).abs() <= slack,
                    "{} pose {k}: {c:?}, brute force {exact}",
                    preset.name
                );
            }
            cached_work += with_cache.volume_tests() + with_cache.triangle_tests;
            plain_work += without.volume_tests() + without.triangle_tests;
        }
        assert!(
            4 * cached_work < 3 * plain_work,
            "{}: the cache did {cached_work} tests against {plain_work} without",
            preset.name
        );
    }
}

/// Geometry where the nearest pair is hard to find: coplanar faces a hair apart, touching
/// corners, zero-area triangles, a part far from the origin, and a ball inside a closed shell.
#[test]
fn hard_geometry() {
    let square = |z: Real, size: Real| {
        TriMesh::new(
            vec![
                Point::new(-size, -size, z),
                Point::new(size, -size, z),
                Point::new(size, size, z),
                Point::new(-size, size, z),
            ],
            vec![[0, 1, 2], [0, 2, 3]],
        )
        .unwrap()
    };
    let sliver = TriMesh::new(
        vec![
            Point::new(0.0, 0.0, 0.5),
            Point::new(1.0, 0.0, 0.5),
            Point::new(2.0, 0.0, 0.5),
            Point::new(0.0, 0.3, 0.7),
        ],
        vec![[0, 1, 2], [0, 1, 3], [0, 0, 3]],
    )
    .unwrap();
    let shell = TriMesh::uv_sphere(Point::origin(), 2.0, 12, 24);
    let ball = TriMesh::uv_sphere(Point::origin(), 0.5, 6, 10);
    let far = Isometry::translation(1.0e5, -2.0e5, 3.0e4);
    let cases: Vec<(&str, TriMesh, TriMesh, Isometry, Isometry)> = vec![
        (
            "coplanar a hair apart",
            square(0.0, 1.0),
            square(0.0, 1.0),
            Isometry::identity(),
            Isometry::translation(2.0 + 1e-4, 0.0, 0.0),
        ),
        (
            "parallel planes",
            square(0.0, 1.0),
            square(0.0, 0.5),
            Isometry::identity(),
            Isometry::translation(0.1, 0.2, 0.25),
        ),
        (
            "touching corners",
            square(0.0, 1.0),
            square(0.0, 1.0),
            Isometry::identity(),
            Isometry::translation(2.0, 2.0, 0.0),
        ),
        (
            "zero-area triangles",
            square(0.0, 1.0),
            sliver.clone(),
            Isometry::identity(),
            Isometry::translation(0.2, 0.1, 0.0),
        ),
        (
            "zero-area triangles touching",
            square(0.0, 1.0),
            sliver,
            Isometry::identity(),
            Isometry::translation(0.2, 0.1, -0.5),
        ),
        (
            "far from the origin",
            shell.clone(),
            ball.clone(),
            far,
            far * Isometry::translation(0.3, 0.9, -0.2),
        ),
        (
            "inside a closed shell",
            shell,
            ball,
            Isometry::identity(),
            Isometry::new(Vector::new(0.4, -0.3, 0.6), Vector::new(0.3, 0.2, 0.1)),
        ),
    ];
    for (what, mesh_a, mesh_b, pose_a, pose_b) in cases {
        let exact = brute_distance(&mesh_a, &mesh_b, &pose_a, &pose_b);
        let slack = rounding(&mesh_a, &mesh_b, &pose_a, &pose_b);
        if what.contains("inside") || what.contains("apart") || what.contains("parallel") {
            assert!(exact > 0.0, "{what}: the case should not touch");
        }
        for preset in Preset::ALL {
            let (a, b) =
                (Hierarchy::build(mesh_a.clone(), &preset), Hierarchy::build(mesh_b.clone(), &preset));
            let options = DistanceOptions::exact();
            let (answer, hit) =
                visit_tree_pair(&a, &b, Measured { pose_a: &pose_a, pose_b: &pose_b, options, cache: None });
            let what = format!("{what} ({})", preset.name);
            check_answer(answer, hit, exact, slack, &options, &mesh_a, &mesh_b, (&pose_a, &pose_b), &what);
        }
    }
}
