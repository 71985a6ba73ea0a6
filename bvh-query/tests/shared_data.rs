//! Queries on the real meshes of `../shared/meshes` over random poses and smooth paths, against
//! an exact reference that shares nothing with the hierarchies: the triangles inside the overlap
//! of the two objects' boxes, paired by a sort-and-sweep on their boxes, each pair decided by the
//! exact triangle test. Cached and uncached first-contact queries must agree along the paths.
//! Distances are checked the same way: every pair whose boxes come within the limit, B's
//! triangles placed in `f64`, measured.
//! The generated maintenance bay is checked the same way along its extraction (in the default
//! suite too, it needs no files). Real meshes are not in the default suite: `.ci/run` runs it when the folder exists
//! (`cargo test --release -p bvh-query --test shared_data -- --ignored`).

use bvh_build::{BuildConfig, Bvh, Preset};
use bvh_core::{
    Aabb, Isometry, Obb, Real, RelativePose, TriMesh, Triangle, Vector, closest_points_triangles,
    triangles_intersect,
};
use bvh_query::{DistanceOptions, PairCache, Posed, Query, QueryOptions, TrianglePair};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::PathBuf;

fn load(name: &str) -> TriMesh {
    let dir = std::env::var_os("BVH_SHARED")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared"), PathBuf::from);
    bvh_io::load(dir.join("meshes").join(name)).unwrap_or_else(|e| panic!("{e}")).merged().expect("a mesh")
}

/// Every intersecting pair, B at `rel` in A's frame, by the independent reference.
fn reference(a: &TriMesh, b: &TriMesh, rel: &RelativePose) -> Vec<TrianglePair> {
    let moved: Vec<Triangle> = b.triangles().map(|t| t.placed(rel)).collect();
    let (box_a, box_b) =
        (a.aabb(), Aabb::from_points(moved.iter().flat_map(|t| [t.a, t.b, t.c]).collect::<Vec<_>>().iter()));
    let region = box_a.intersection(&box_b);
    if region.is_empty() {
        return Vec::new();
    }
    // (box, side, index): A's triangles and B's, only those reaching the region.
    let mut items: Vec<(Aabb, bool, u32)> = Vec::new();
    items.extend(
        a.triangles()
            .enumerate()
            .map(|(i, t)| (t.aabb(), false, i as u32))
            .filter(|e| e.0.intersects(&region)),
    );
    items.extend(
        moved.iter().enumerate().map(|(j, t)| (t.aabb(), true, j as u32)).filter(|e| e.0.intersects(&region)),
    );
    let mut pairs = Vec::new();
    sweep(&mut items, |ia, ib| {
        if triangles_intersect(&a.triangle(ia as usize), &moved[ib as usize]) {
            pairs.push(TrianglePair { a: ia, b: ib });
        }
    });
    pairs.sort_unstable();
    pairs
}

/// Calls `pair` with every (A, B) pair of `items` – (box, of B, index) – whose boxes meet, by a
/// sort-and-sweep along x.
fn sweep(items: &mut [(Aabb, bool, u32)], mut pair: impl FnMut(u32, u32)) {
    items.sort_by(|x, y| x.0.mins.x.total_cmp(&y.0.mins.x));
    for (k, (bx, side, i)) in items.iter().enumerate() {
        for (by, other, j) in &items[k + 1..] {
            if by.mins.x > bx.maxs.x {
                break;
            }
            if side != other && bx.intersects(by) {
                if *side { pair(*j, *i) } else { pair(*i, *j) }
            }
        }
    }
}

/// The least distance over the triangle pairs whose boxes come within `limit` of each other (B
/// at `pose` in A's frame, its triangles placed by `Triangle::transformed`: in `f64`, rounded once), paired by a
/// sort-and-sweep on the boxes; infinite when none does.
fn reference_distance(a: &TriMesh, b: &TriMesh, pose: &Isometry, limit: Real) -> f64 {
    let moved: Vec<Triangle> = b.triangles().map(|t| t.transformed(pose)).collect();
    let mut items: Vec<(Aabb, bool, u32)> =
        a.triangles().enumerate().map(|(i, t)| (t.aabb().inflated(limit), false, i as u32)).collect();
    items.extend(moved.iter().enumerate().map(|(j, t)| (t.aabb(), true, j as u32)));
    let mut best = f64::INFINITY;
    sweep(&mut items, |ia, ib| {
        let d = closest_points_triangles(&a.triangle(ia as usize), &moved[ib as usize]).distance as f64;
        best = best.min(d);
    });
    best
}

/// Poses of B around A: random ones with B's centre uniform in A's box scaled by `scale` about
/// its centre (the anchors' calibrated scales give 30–60 % colliding), then a smooth path across
/// A's box.
fn poses(a: &TriMesh, b: &TriMesh, count: usize, scale: f32, seed: u64) -> Vec<Isometry> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let centre = a.aabb().center().coords - b.aabb().center().coords;
    let half = a.aabb().half_extents() * scale;
    let mut out: Vec<Isometry> = (0..count)
        .map(|_| {
            let shift = Vector::from_fn(|i, _| rng.gen_range(-half[i]..half[i]));
            let turn = Vector::from_fn(|_, _| rng.gen_range(-3.1..3.1));
            Isometry::new(centre + shift, turn)
        })
        .collect();
    for k in 0..count {
        let t = k as f32 / count as f32;
        let shift = Vector::new(half.x * 2.0 * (t - 0.5), half.y * 0.3 * (6.0 * t).sin(), 0.0);
        out.push(Isometry::new(centre + shift, Vector::new(0.0, 0.0, 1.5 * t)));
    }
    out
}

fn check_pair(scene: &str, part: &str, count: usize, scale: f32) {
    let (a, b) = (load(scene), load(part));
    let tree_a: Bvh<Obb> = Bvh::build(a.clone(), &BuildConfig::co());
    let tree_b: Bvh<Obb> = Bvh::build(b.clone(), &BuildConfig::co());
    let rapid_a = bvh_build::Hierarchy::build(a.clone(), &Preset::rapid());
    let rapid_b = bvh_build::Hierarchy::build(b.clone(), &Preset::rapid());
    let (bvh_build::Hierarchy::Obb(rapid_a), bvh_build::Hierarchy::Obb(rapid_b)) = (&rapid_a, &rapid_b)
    else {
        panic!("RAPID builds OBB trees")
    };
    let here = Isometry::identity();
    let mut cache = PairCache::new();
    let mut colliding = 0;
    for (k, pose) in poses(&a, &b, count, scale, 5).iter().enumerate() {
        let expected = reference(&a, &b, &RelativePose::between(&here, pose));
        let query = Query::new(Posed::new(&tree_a, here), Posed::new(&tree_b, pose), QueryOptions::default());
        assert_eq!(query.intersecting_pairs(), expected, "{scene}/{part} pose {k}");
        let first = query.intersects();
        assert_eq!(first.is_some(), !expected.is_empty(), "{scene}/{part} pose {k}");
        let cached = query.intersects_cached(&mut cache);
        assert_eq!(cached.is_some(), first.is_some(), "{scene}/{part} pose {k}: cached");
        if let Some(pair) = cached {
            assert!(expected.binary_search(&pair).is_ok(), "{scene}/{part} pose {k}: {pair:?}");
        }
        let rapid = Query::new(Posed::new(rapid_a, here), Posed::new(rapid_b, pose), QueryOptions::default());
        assert_eq!(rapid.intersects().is_some(), first.is_some(), "{scene}/{part} pose {k}: RAPID");
        colliding += usize::from(first.is_some());
    }
    assert!(
        colliding > count / 5 && colliding < 2 * count - count / 5,
        "{scene}/{part}: {colliding} of {} colliding",
        2 * count
    );
}

/// The distance within a limit (3 % of the part's size) against the reference, on the first
/// random poses and along the path (sparse, then a stretch of consecutive poses), with and
/// without the cache.
fn check_distances(scene: &str, part: &str, count: usize, scale: f32) {
    let (a, b) = (load(scene), load(part));
    let tree_a: Bvh<Obb> = Bvh::build(a.clone(), &BuildConfig::co());
    let tree_b: Bvh<Obb> = Bvh::build(b.clone(), &BuildConfig::co());
    let limit = 0.03 * b.aabb().extents().norm();
    let options = DistanceOptions::exact().within(limit);
    let here = Isometry::identity();
    let mut cache = PairCache::new();
    let (mut near, mut farther) = (0, 0);
    let all = poses(&a, &b, count, scale, 5);
    // Sparse poses, and a stretch of consecutive path poses for the cache to carry over.
    for (k, pose) in
        all.iter().enumerate().filter(|(k, _)| k % (count / 20) == 0 || (count + 60..count + 90).contains(k))
    {
        let slack = 64.0
            * Real::EPSILON as f64
            * (a.aabb().reach() + b.aabb().reach() + pose.translation.vector.norm()) as f64;
        let expected = reference_distance(&a, &b, pose, limit);
        let query = Query::new(Posed::new(&tree_a, here), Posed::new(&tree_b, pose), QueryOptions::default());
        let plain = query.distance(options);
        let cached = query.distance_cached(options, &mut cache);
        for (answer, what) in [(plain, "uncached"), (cached, "cached")] {
            match answer {
                None => assert!(
                    expected >= limit as f64 - slack,
                    "{scene}/{part} pose {k} {what}: none, reference {expected}"
                ),
                Some(n) => assert!(
                    (n.distance as f64 - expected).abs() <= slack,
                    "{scene}/{part} pose {k} {what}: {} against the reference {expected}",
                    n.distance
                ),
            }
        }
        if plain.is_some() { near += 1 } else { farther += 1 }
    }
    assert!(near >= 5 && farther >= 3, "{scene}/{part}: {near} within the limit, {farther} beyond");
}

#[test]
#[ignore = "needs ../shared/meshes"]
fn distances_match_the_reference() {
    check_distances("fcl_env.obj", "fcl_rob.obj", 200, 1.0);
    check_distances("c3d_stanford-bunny.obj", "jig_bracket-3.obj", 200, 1.682);
    check_distances("vtk_lucy.obj", "srt_dragon_23k.obj", 200, 0.7401);
}

#[test]
#[ignore = "needs ../shared/meshes"]
fn lucy_and_dragon_match_the_exact_reference() {
    check_pair("vtk_lucy.obj", "srt_dragon_23k.obj", 500, 0.7401);
}

#[test]
#[ignore = "needs ../shared/meshes"]
fn bunny_and_bracket_match_the_exact_reference() {
    check_pair("c3d_stanford-bunny.obj", "jig_bracket-3.obj", 500, 1.682);
}

#[test]
#[ignore = "needs ../shared/meshes"]
fn fcl_environment_and_robot_match_the_exact_reference() {
    check_pair("fcl_env.obj", "fcl_rob.obj", 500, 1.0);
}

#[test]
fn the_accumulator_extraction_matches_the_exact_reference() {
    let scene = bvh_build::generate::accumulator_bay(1);
    let tree_a: Bvh<Obb> = Bvh::build(scene.bay.clone(), &BuildConfig::co());
    let tree_b: Bvh<Obb> = Bvh::build(scene.part.clone(), &BuildConfig::co());
    let here = Isometry::identity();
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut touching = 0;
    for k in 0..40 {
        let lift = scene.exit * (0.6 * k as f32 / 40.0);
        let sway = Vector::new(rng.gen_range(-0.05..0.05), rng.gen_range(-0.05..0.05), 0.0);
        let pose = Isometry::translation(lift.x + sway.x, lift.y + sway.y, lift.z) * scene.installed;
        let expected = reference(&scene.bay, &scene.part, &RelativePose::between(&here, &pose));
        let query = Query::new(Posed::new(&tree_a, here), Posed::new(&tree_b, pose), QueryOptions::default());
        assert_eq!(query.intersecting_pairs(), expected, "frame {k}");
        touching += usize::from(!expected.is_empty());
    }
    assert!(touching > 5 && touching < 35, "{touching} of 40 frames touching");
}
