//! The pipeline's answers equal the pairwise queries run one by one over every object pair that
//! is not static-static, step after step, for every strategy and every contact detail.

use bvh_broadphase::{
    AnyStrategy, Broadphase, BroadphaseError, Collision, CollisionWorld, ContactDetail, Mobility, ObjectId,
    Octree, StepError, UniformGrid,
};
use bvh_build::generate::object_room;
use bvh_build::{Bvh, Hierarchy, NodeVolume, Preset};
use bvh_core::{Isometry, Rotation, Vector};
use bvh_query::{
    Contact, ContactRegion, DistanceOptions, NodeTest, Posed, Query, QueryOptions, Surfaces, SweepError,
    TreePairVisitor, visit_tree_pair,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// Every intersecting triangle pair of two posed objects, with where they meet.
struct AllContacts<'a>(&'a Isometry, &'a Isometry);

impl TreePairVisitor for AllContacts<'_> {
    type Output = Vec<Contact>;

    fn visit<VA: NodeVolume + NodeTest<VB>, VB: NodeVolume>(self, a: &Bvh<VA>, b: &Bvh<VB>) -> Vec<Contact> {
        Query::new(Posed::new(a, self.0), Posed::new(b, self.1), QueryOptions::default()).contacts()
    }
}

struct Scene {
    shapes: Vec<Arc<Hierarchy>>,
    poses: Vec<Isometry>,
    motions: Vec<Mobility>,
}

/// Paper 004's room squeezed to a third of its size so objects collide, with shapes built by
/// three presets (OBB, sphere and AABB trees) and eight objects sharing one hierarchy.
fn scene(seed: u64) -> Scene {
    let presets = [Preset::co(), Preset::sphere_obb(), Preset::aabb_tree()];
    let mut shapes = Vec::new();
    let mut poses = Vec::new();
    let room = object_room(seed);
    let shared = Arc::new(Hierarchy::build(room[30].mesh.clone(), &Preset::co()));
    for (k, object) in room.into_iter().enumerate() {
        let shape =
            if k >= 30 { shared.clone() } else { Arc::new(Hierarchy::build(object.mesh, &presets[k % 3])) };
        shapes.push(shape);
        let mut pose = object.pose;
        pose.translation.vector *= 0.3;
        poses.push(pose);
    }
    let motions =
        (0..shapes.len()).map(|k| if k % 3 == 0 { Mobility::Static } else { Mobility::Dynamic }).collect();
    Scene { shapes, poses, motions }
}

fn expected(scene: &Scene, detail: ContactDetail) -> Vec<Collision> {
    let mut out = Vec::new();
    for i in 0..scene.shapes.len() {
        for j in i + 1..scene.shapes.len() {
            if scene.motions[i] == Mobility::Static && scene.motions[j] == Mobility::Static {
                continue;
            }
            let contacts = visit_tree_pair(
                &scene.shapes[i],
                &scene.shapes[j],
                AllContacts(&scene.poses[i], &scene.poses[j]),
            );
            if let Some(first) = contacts.first() {
                let regions = match detail {
                    ContactDetail::Regions(surfaces) => visit_tree_pair(
                        &scene.shapes[i],
                        &scene.shapes[j],
                        AllRegions(&scene.poses[i], &scene.poses[j], surfaces),
                    ),
                    _ => Vec::new(),
                };
                let contacts = if detail == ContactDetail::All { contacts.clone() } else { Vec::new() };
                out.push(((i, j), first.pair, contacts, regions));
            }
        }
    }
    let id = |k: usize| ObjectId::from_index(k);
    out.into_iter()
        .map(|((i, j), first, contacts, regions)| Collision { a: id(i), b: id(j), first, contacts, regions })
        .collect()
}

/// The contact regions of two posed objects.
struct AllRegions<'a>(&'a Isometry, &'a Isometry, Surfaces);

impl TreePairVisitor for AllRegions<'_> {
    type Output = Vec<ContactRegion>;

    fn visit<VA: NodeVolume + NodeTest<VB>, VB: NodeVolume>(self, a: &Bvh<VA>, b: &Bvh<VB>) -> Self::Output {
        Query::new(Posed::new(a, self.0), Posed::new(b, self.1), QueryOptions::default())
            .contact_regions(self.2)
    }
}

fn worlds() -> Vec<(&'static str, CollisionWorld<AnyStrategy>)> {
    let world = |s| CollisionWorld::with_broadphase(Broadphase::new(s));
    vec![
        ("grid", world(AnyStrategy::Grid(UniformGrid::default()))),
        ("octree", world(AnyStrategy::Octree(Octree::default()))),
        ("brute", world(AnyStrategy::Brute(bvh_broadphase::BruteForce))),
    ]
}

#[test]
fn the_pipeline_equals_pairwise_queries_step_after_step() {
    for detail in [ContactDetail::First, ContactDetail::All, ContactDetail::Regions(Surfaces::Closed)] {
        for (name, world) in worlds() {
            let mut world = world.with_detail(detail);
            let mut scene = scene(7);
            let mut rng = ChaCha8Rng::seed_from_u64(11);
            for k in 0..scene.shapes.len() {
                let id = world.insert(scene.shapes[k].clone(), scene.poses[k], scene.motions[k]).unwrap();
                assert_eq!(id.index(), k);
            }
            let mut collided = 0;
            for step in 0..8 {
                let (got, stats) = world.step_counted();
                let want = expected(&scene, detail);
                assert_eq!(got.len(), want.len(), "{name}, {detail:?}, step {step}");
                for (g, w) in got.iter().zip(&want) {
                    assert_eq!((g.a, g.b), (w.a, w.b), "{name}, {detail:?}, step {step}");
                    match detail {
                        ContactDetail::All | ContactDetail::Regions(_) => assert_eq!(g, w),
                        // The first pair found may differ (the cache tries last step's first):
                        // it must be one of the intersecting pairs.
                        ContactDetail::First => {
                            let all = visit_tree_pair(
                                &scene.shapes[g.a.index()],
                                &scene.shapes[g.b.index()],
                                AllContacts(&scene.poses[g.a.index()], &scene.poses[g.b.index()]),
                            );
                            assert!(all.iter().any(|c| c.pair == g.first), "{name}, step {step}");
                        }
                    }
                }
                assert_eq!(stats.colliding_pairs, want.len());
                assert!(stats.candidate_pairs >= want.len());
                collided += want.len();
                for k in 0..scene.shapes.len() {
                    if scene.motions[k] == Mobility::Dynamic {
                        let shift = Vector::new(
                            rng.gen_range(-0.1..0.1),
                            rng.gen_range(-0.1..0.1),
                            rng.gen_range(-0.05..0.05),
                        );
                        let turn = Isometry::rotation(Vector::new(0.0, 0.0, rng.gen_range(-0.3..0.3)));
                        scene.poses[k] = Isometry::from_parts(
                            (scene.poses[k].translation.vector + shift).into(),
                            turn.rotation * scene.poses[k].rotation,
                        );
                        world.set_pose(ObjectId::from_index(k), scene.poses[k]).unwrap();
                    }
                }
            }
            assert!(collided > 10, "{name}: the scene should collide ({collided} collisions)");
        }
    }
}

#[test]
fn removing_objects_drops_their_pairs_and_bad_poses_are_refused() {
    let scene = scene(3);
    let mut world = CollisionWorld::new();
    let ids: Vec<_> = (0..scene.shapes.len())
        .map(|k| world.insert(scene.shapes[k].clone(), scene.poses[k], Mobility::Dynamic).unwrap())
        .collect();
    let before = world.step();
    assert!(!before.is_empty());
    let gone = before[0].a;
    world.remove(gone).unwrap();
    let after = world.step();
    assert!(after.iter().all(|c| c.a != gone && c.b != gone));
    assert_eq!(after.len(), before.iter().filter(|c| c.a != gone && c.b != gone).count());
    assert!(world.remove(gone).is_err());
    let mut nan = Isometry::identity();
    nan.translation.vector.x = f32::NAN;
    assert_eq!(world.set_pose(ids[1], nan), Err(BroadphaseError::NonFinitePose));
    assert_eq!(
        world.insert(scene.shapes[0].clone(), nan, Mobility::Static),
        Err(BroadphaseError::NonFinitePose)
    );
    let mut turned_nan = Isometry::identity();
    turned_nan.rotation =
        Rotation::new_unchecked(bvh_core::nalgebra::Quaternion::new(f32::NAN, 0.0, 0.0, 0.0));
    assert_eq!(world.set_pose(ids[1], turned_nan), Err(BroadphaseError::NonFinitePose));
    assert_eq!(world.get(ids[1]).unwrap().pose, scene.poses[1], "a refused pose changes nothing");
}

/// An object with no triangles is kept by every preset, whatever its root volume makes of no
/// points, and collides with nothing, even placed inside another object.
#[test]
fn an_empty_object_is_kept_and_never_collides() {
    let ball = bvh_core::TriMesh::uv_sphere(bvh_core::Point::origin(), 1.0, 6, 8);
    let empty = bvh_core::TriMesh::new(Vec::new(), Vec::new()).unwrap();
    for preset in Preset::ALL {
        for (name, mut world) in worlds() {
            let ball = Arc::new(Hierarchy::build(ball.clone(), &preset));
            world.insert(ball, Isometry::identity(), Mobility::Static).unwrap();
            let id = world.insert(
                Arc::new(Hierarchy::build(empty.clone(), &preset)),
                Isometry::identity(),
                Mobility::Dynamic,
            );
            assert!(id.is_ok(), "{name}, {}: {id:?}", preset.name);
            assert!(world.step().is_empty(), "{name}, {}", preset.name);
        }
    }
}

/// Far from the origin – a part modelled where it sits in a large assembly, placed by a pose
/// that brings it back – rounding in the world boxes must not hide a grazing contact: brackets
/// with axis-aligned faces are pushed face to face to the moment of first touch, where their
/// world boxes graze too, and every strategy reports exactly what the pairwise query does.
#[test]
fn grazing_contacts_far_from_the_origin_reach_the_narrow_phase() {
    let far = Vector::new(90e3, -70e3, 130e3);
    let plate = bvh_build::generate::bracket(1.5, 0.1, 0.8);
    let shifted = plate.vertices().iter().map(|p| p + far).collect();
    let shifted = bvh_core::TriMesh::new(shifted, plate.indices().to_vec()).unwrap();
    let a = Arc::new(Hierarchy::build(shifted, &Preset::aabb_tree()));
    let b = Arc::new(Hierarchy::build(plate, &Preset::aabb_tree()));
    let pose_a = Isometry::translation(-far.x, -far.y, -far.z);
    let pose_b = |x: f32| Isometry::translation(x, 0.3, 0.05);
    let touching = |x: f32| !visit_tree_pair(&a, &b, AllContacts(&pose_a, &pose_b(x))).is_empty();
    let (mut lo, mut hi) = (0.5, 3.0);
    assert!(touching(lo) && !touching(hi));
    while hi - lo > 1e-6 {
        let mid = 0.5 * (lo + hi);
        if touching(mid) { lo = mid } else { hi = mid }
    }
    for (name, mut world) in worlds() {
        world.insert(a.clone(), pose_a, Mobility::Static).unwrap();
        let id = world.insert(b.clone(), pose_b(lo), Mobility::Dynamic).unwrap();
        assert_eq!(world.step().len(), 1, "{name}: touching at {lo}");
        world.set_pose(id, pose_b(hi)).unwrap();
        assert!(world.step().is_empty(), "{name}: apart at {hi}");
    }
}

/// The distance between two posed objects, exact.
struct Distance<'a>(&'a Isometry, &'a Isometry);

impl TreePairVisitor for Distance<'_> {
    type Output = f32;

    fn visit<VA: NodeVolume + NodeTest<VB>, VB: NodeVolume>(self, a: &Bvh<VA>, b: &Bvh<VB>) -> f32 {
        Query::new(Posed::new(a, self.0), Posed::new(b, self.1), QueryOptions::default())
            .distance(DistanceOptions::exact())
            .map_or(f32::INFINITY, |n| n.distance)
    }
}

/// An object's clearance lists exactly the objects within the margin (measured one by one over
/// every object), nearest first, with their distances, for every strategy, as the objects move.
#[test]
fn clearance_equals_the_distances_one_by_one() {
    for (name, mut world) in worlds() {
        let mut scene = scene(3);
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for k in 0..scene.shapes.len() {
            world.insert(scene.shapes[k].clone(), scene.poses[k], scene.motions[k]).unwrap();
        }
        let (mut listed, mut left_out) = (0, 0);
        for step in 0..6 {
            for k in [1, 2, 4] {
                let margin = 0.3;
                let got = world.clearance(ObjectId::from_index(k), margin).unwrap();
                let mut want: Vec<(usize, f32)> = (0..scene.shapes.len())
                    .filter(|&j| j != k)
                    .map(|j| {
                        (
                            j,
                            visit_tree_pair(
                                &scene.shapes[k],
                                &scene.shapes[j],
                                Distance(&scene.poses[k], &scene.poses[j]),
                            ),
                        )
                    })
                    .collect();
                left_out += want.iter().filter(|(_, d)| *d > margin).count();
                want.retain(|(_, d)| *d <= margin);
                want.sort_by(|x, y| x.1.total_cmp(&y.1).then(x.0.cmp(&y.0)));
                let got_pairs: Vec<(usize, f32)> =
                    got.iter().map(|c| (c.other.index(), c.nearest.distance)).collect();
                assert_eq!(got_pairs, want, "{name}, step {step}, object {k}");
                for c in &got {
                    let n = &c.nearest;
                    assert!(((n.on_a - n.on_b).norm() - n.distance).abs() < 1e-4, "{name}: {c:?}");
                }
                listed += got.len();
            }
            for k in 0..scene.shapes.len() {
                if scene.motions[k] == Mobility::Dynamic {
                    let shift = Vector::new(rng.gen_range(-0.1..0.1), rng.gen_range(-0.1..0.1), 0.0);
                    scene.poses[k] = Isometry::translation(shift.x, shift.y, shift.z) * scene.poses[k];
                    world.set_pose(ObjectId::from_index(k), scene.poses[k]).unwrap();
                }
            }
        }
        assert!(listed >= 10 && left_out >= 10, "{name}: {listed} listed, {left_out} beyond the margin");
    }
    let mut world = CollisionWorld::new();
    assert!(world.clearance(ObjectId::from_index(3), 1.0).is_err());
}

/// A continuous step: a ball fired through a thin panel between two steps, and a bar turning
/// half a turn through a ball that neither its start nor its end box reaches, are caught with
/// their times, for every strategy; a discrete step sees neither; the objects end where they
/// were sent; bad input refuses the step before anything moves.
#[test]
fn a_continuous_step_catches_what_passes_between_steps() {
    use bvh_core::{Interpolation, Point, Real, TriMesh};
    let build = |mesh: TriMesh| Arc::new(Hierarchy::build(mesh, &Preset::co()));
    let panel = build(TriMesh::cuboid(Point::origin(), Vector::new(0.005, 1.0, 1.0)));
    let ball = build(TriMesh::uv_sphere(Point::origin(), 0.05, 8, 12));
    // A bar from its origin out to x = 1.
    let bar = build(TriMesh::cuboid(Point::new(0.5, 0.0, 0.0), Vector::new(0.5, 0.02, 0.02)));
    let front = ball.mesh().vertices().iter().map(|p| p.x).fold(Real::MIN, Real::max) as f64;
    for (name, mut world) in worlds() {
        let wall = world.insert(panel.clone(), Isometry::identity(), Mobility::Static).unwrap();
        let shot =
            world.insert(ball.clone(), Isometry::translation(-0.5, 0.0, 0.0), Mobility::Dynamic).unwrap();
        let target =
            world.insert(ball.clone(), Isometry::translation(-5.0, 0.8, 0.0), Mobility::Static).unwrap();
        let arm =
            world.insert(bar.clone(), Isometry::translation(-5.0, 0.0, 0.0), Mobility::Dynamic).unwrap();
        let through = Isometry::translation(0.5, 0.0, 0.0);
        let turned = Isometry::new(Vector::new(-5.0, 0.0, 0.0), Vector::new(0.0, 0.0, 170f32.to_radians()));
        let moves = [(shot, through), (arm, turned)];
        let impacts = world.step_continuous(&moves, Interpolation::Slerp, 1e-4).unwrap();
        let pairs: Vec<_> = impacts.iter().map(|i| (i.a, i.b)).collect();
        assert_eq!(pairs, [(wall, shot), (target, arm)], "{name}: sorted by time");
        // The ball's front meets the panel at x = -0.005.
        let t = impacts[0].impact.time;
        assert!(t <= 0.495 - front + 1e-9 && t > 0.495 - front - 1e-4, "{name}: {t}");
        // The bar's far end sweeps past the ball above its origin near a quarter turn, 90 of 170
        // degrees; its side reaches the ball's sphere (radius 0.05, the bar 0.02 thick) a little
        // before, the polygon inside the sphere no earlier.
        let t = impacts[1].impact.time;
        let sphere = (90.0 - (0.07f64 / 0.8).asin().to_degrees()) / 170.0;
        assert!(t >= sphere - 1e-3 && t <= 90.0 / 170.0, "{name}: {t}");
        assert_eq!(world.get(shot).unwrap().pose, through);
        assert_eq!(world.get(arm).unwrap().pose, turned);
        assert!(world.step().is_empty(), "{name}: the end poses touch nothing");
        // Sent back the same way, the same pairs again.
        let back =
            [(shot, Isometry::translation(-0.5, 0.0, 0.0)), (arm, Isometry::translation(-5.0, 0.0, 0.0))];
        assert_eq!(world.step_continuous(&back, Interpolation::Screw, 1e-4).unwrap().len(), 2, "{name}");
        // Bad input moves nothing.
        let nan = Isometry::translation(Real::NAN, 0.0, 0.0);
        let unknown = ObjectId::from_index(99);
        let mut refusal = |moves: &[(ObjectId, Isometry)], tolerance| {
            world.step_continuous(moves, Interpolation::Slerp, tolerance).err()
        };
        let broadphase = |error| Some(StepError::Broadphase(error));
        assert_eq!(refusal(&[(shot, through), (arm, nan)], 1e-4), broadphase(BroadphaseError::NonFinitePose));
        assert_eq!(refusal(&[(unknown, through)], 1e-4), broadphase(BroadphaseError::UnknownObject(unknown)));
        assert_eq!(refusal(&[(shot, through)], 0.0), Some(StepError::Sweep(SweepError::Tolerance)));
        assert_eq!(world.get(shot).unwrap().pose, Isometry::translation(-0.5, 0.0, 0.0), "{name}");
    }
}
