//! Every query against brute force over all triangle pairs (with exact triangle tests), for
//! every preset, on generated meshes over random nearby poses: the pair sets must be equal.

mod common;

use bvh_build::generate::{bracket, torus, tube};
use bvh_build::{Bvh, Hierarchy, NodeVolume};
use bvh_core::{
    Aabb, Isometry, Point, Real, RelativePose, TriMesh, Triangle, Vector, closest_points_triangles,
    triangles_intersect,
};
use bvh_query::{
    NodeTest, Posed, Query, QueryOptions, QueryStats, TreePairVisitor, TrianglePair, visit_tree_pair,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn meshes() -> Vec<(&'static str, TriMesh)> {
    vec![
        ("sphere", TriMesh::uv_sphere(Point::origin(), 1.0, 10, 20)),
        ("torus", torus(1.0, 0.3, 24, 10)),
        ("tube", tube(0.5, 0.4, 2.0, 16)),
        ("bracket", bracket(1.5, 0.1, 0.8)),
    ]
}

/// B's triangles moved into A's frame, with their boxes.
fn moved(b: &TriMesh, rel: &RelativePose) -> Vec<(Triangle, Aabb)> {
    b.triangles()
        .map(|t| {
            let t = t.placed(rel);
            (t, t.aabb())
        })
        .collect()
}

/// All pairs whose exact test (or distance) qualifies; the box prefilter is conservative.
fn brute(a: &TriMesh, b: &TriMesh, rel: &RelativePose, clearance: Option<Real>) -> Vec<TrianglePair> {
    let mb = moved(b, rel);
    // Gaps taken in f64, where they are exact: a box grown in f32 far from the origin would
    // round its growth away.
    let grow = clearance.map_or(0.0, |d| d as f64 * (1.0 + 1e-5) + 1e-6);
    let apart = |x: &Aabb, y: &Aabb| {
        (0..3)
            .any(|k| y.mins[k] as f64 - x.maxs[k] as f64 > grow || x.mins[k] as f64 - y.maxs[k] as f64 > grow)
    };
    let mut out = Vec::new();
    for (i, ta) in a.triangles().enumerate() {
        let box_a = ta.aabb();
        for (j, (tb, box_b)) in mb.iter().enumerate() {
            if apart(&box_a, box_b) {
                continue;
            }
            let hit = match clearance {
                None => triangles_intersect(&ta, tb),
                Some(d) => closest_points_triangles(&ta, tb).distance <= d,
            };
            if hit {
                out.push(TrianglePair { a: i as u32, b: j as u32 });
            }
        }
    }
    out
}

/// Whether the swept query finds a contact as B moves from `from` to `to`.
struct Swept<'a> {
    pose_a: &'a Isometry,
    from: &'a Isometry,
    to: &'a Isometry,
}

impl TreePairVisitor for Swept<'_> {
    type Output = bool;

    fn visit<VA, VB>(self, a: &Bvh<VA>, b: &Bvh<VB>) -> bool
    where
        VA: NodeVolume + NodeTest<VB>,
        VB: NodeVolume,
    {
        let query = Query::new(Posed::new(a, self.pose_a), Posed::new(b, self.from), QueryOptions::default());
        query.swept_intersects(self.to).expect("a translation").is_some()
    }
}

/// Runs every query on one pair of trees at one pose and compares with brute force.
fn check<VA, VB>(
    a: &Bvh<VA>,
    b: &Bvh<VB>,
    mesh_a: &TriMesh,
    mesh_b: &TriMesh,
    pose_a: &Isometry,
    pose_b: &Isometry,
    what: &str,
) -> bool
where
    VA: NodeVolume + NodeTest<VB>,
    VB: NodeVolume,
{
    let rel = RelativePose::between(pose_a, pose_b);
    let expected = brute(mesh_a, mesh_b, &rel, None);
    for (prejudge, region_culling) in [(true, true), (false, true), (true, false)] {
        let query = Query::new(
            Posed::new(a, pose_a),
            Posed::new(b, pose_b),
            QueryOptions { prejudge, region_culling, split_from: 0 },
        );
        let mut stats = QueryStats::default();
        assert_eq!(query.intersecting_pairs_counted(&mut stats), expected, "{what}, prejudge {prejudge}");
        match query.intersects() {
            Some(pair) => assert!(
                expected.binary_search(&pair).is_ok(),
                "{what}: reported pair {pair:?} is not intersecting"
            ),
            None => assert!(expected.is_empty(), "{what}: missed {} intersecting pairs", expected.len()),
        }
        let contacts: Vec<TrianglePair> = query.contacts().iter().map(|c| c.pair).collect();
        assert_eq!(contacts, expected, "{what}: contacts");
        assert_eq!(query.intersecting_pairs_parallel(), expected, "{what}: split across threads");
        assert_eq!(query.contacts_parallel(), query.contacts(), "{what}: contacts split across threads");
        if !prejudge {
            assert_eq!(stats.prejudge_overlap + stats.prejudge_disjoint + stats.prejudge_undecided, 0);
        }
        assert!(stats.volume_tests() > 0);
        let verdicts = stats.prejudge_overlap + stats.prejudge_disjoint + stats.prejudge_undecided;
        assert!(verdicts <= stats.node_tests, "{what}: a pre-judge verdict per node test at most: {stats:?}");
        assert_eq!(stats.root_tests, 1, "{what}: one root test per query");
        if !expected.is_empty() {
            // Every intersecting pair was found under a pair of leaves where the descent stopped.
            assert!(stats.front > 0 && stats.triangle_tests >= expected.len() as u64, "{what}: {stats:?}");
        }
    }
    let clearance = 0.05;
    let near = brute(mesh_a, mesh_b, &rel, Some(clearance));
    let query = Query::new(Posed::new(a, pose_a), Posed::new(b, pose_b), QueryOptions::default());
    let within: Vec<TrianglePair> = query.pairs_within(clearance).iter().map(|n| n.pair).collect();
    assert_eq!(within, near, "{what}: pairs within {clearance}");
    !expected.is_empty()
}

/// [`check`] for two trees of any node volumes.
struct Check<'a> {
    mesh_a: &'a TriMesh,
    mesh_b: &'a TriMesh,
    pose_a: &'a Isometry,
    pose_b: &'a Isometry,
    what: &'a str,
}

impl TreePairVisitor for Check<'_> {
    type Output = bool;

    fn visit<VA, VB>(self, a: &Bvh<VA>, b: &Bvh<VB>) -> bool
    where
        VA: NodeVolume + NodeTest<VB>,
        VB: NodeVolume,
    {
        check(a, b, self.mesh_a, self.mesh_b, self.pose_a, self.pose_b, self.what)
    }
}

#[test]
fn every_preset_pair_matches_brute_force() {
    let meshes = meshes();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut hits = 0;
    let mut total = 0;
    for (i, (name_a, mesh_a)) in meshes.iter().enumerate() {
        let (name_b, mesh_b) = &meshes[(i + 1) % meshes.len()];
        for preset in common::presets_and_binned_at_every_size() {
            let a = Hierarchy::build(mesh_a.clone(), &preset);
            let b = Hierarchy::build(mesh_b.clone(), &preset);
            for _ in 0..6 {
                let (pa, pb) = (common::random_pose(&mut rng, 0.3), common::random_pose(&mut rng, 1.2));
                let what = format!("{name_a} vs {name_b}, {}", preset.name);
                let visitor = Check { mesh_a, mesh_b, pose_a: &pa, pose_b: &pb, what: &what };
                total += 1;
                hits += visit_tree_pair(&a, &b, visitor) as usize;
            }
        }
    }
    assert!(
        hits > total / 5 && hits < total * 4 / 5,
        "{hits} of {total} poses intersect: both outcomes must be tested"
    );
}

/// Far from the origin – a part modelled at its place in a large assembly, a scene at 100 km –
/// a few ulps of the coordinates outweigh the volumes' own padding. Poses are bisected to the
/// moment of first touch, where contacts graze, and every preset must still find exactly the
/// pairs brute force finds, on both sides of it, and sweeps from just apart must agree with it.
#[test]
fn grazing_contacts_far_from_the_origin_match_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let shifted = |m: &TriMesh, d: Vector| {
        TriMesh::new(m.vertices().iter().map(|p| p + d).collect(), m.indices().to_vec()).unwrap()
    };
    // Each mesh lies far from its own origin, and A's pose moves it further.
    let (da, db) = (Vector::new(90e3, -70e3, 130e3), Vector::new(-110e3, 80e3, 60e3));
    let mesh_a = shifted(&TriMesh::uv_sphere(Point::origin(), 1.0, 10, 20), da);
    let mesh_b = shifted(&bracket(1.5, 0.1, 0.8), db);
    let pose_a = Isometry::new(Vector::new(3e3, -2e3, 500.0), Vector::new(0.3, -0.2, 0.9));
    let trees: Vec<_> = common::presets_and_binned_at_every_size()
        .iter()
        .map(|p| (p.name, Hierarchy::build(mesh_a.clone(), p), Hierarchy::build(mesh_b.clone(), p)))
        .collect();
    // B's mesh brought next to A's, turned by `near` and pushed `s` along `u`.
    let place = |near: &Isometry, u: &Vector, s: Real| {
        pose_a
            * Isometry::translation(da.x + u.x * s, da.y + u.y * s, da.z + u.z * s)
            * near
            * Isometry::translation(-db.x, -db.y, -db.z)
    };
    let (mut grazing, mut swept_meets) = (0, 0);
    for _ in 0..25 {
        let near = common::random_pose(&mut rng, 0.5);
        let u = Vector::new(rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0));
        let u = u.normalize();
        let touching = |s: Real| {
            !brute(&mesh_a, &mesh_b, &RelativePose::between(&pose_a, &place(&near, &u, s)), None).is_empty()
        };
        let (mut lo, mut hi) = (0.0, 4.0);
        if !touching(lo) || touching(hi) {
            continue;
        }
        while hi - lo > 1e-6 {
            let mid = 0.5 * (lo + hi);
            if touching(mid) { lo = mid } else { hi = mid }
        }
        grazing += 1;
        for s in [lo, hi] {
            let pose_b = place(&near, &u, s);
            for (name, a, b) in &trees {
                let what = format!("far from the origin, {name}, pushed {s}");
                let visitor =
                    Check { mesh_a: &mesh_a, mesh_b: &mesh_b, pose_a: &pose_a, pose_b: &pose_b, what: &what };
                assert_eq!(visit_tree_pair(a, b, visitor), s == lo, "{what}");
            }
        }
        // Swept from just apart, past the touch and away from it. (Not to the touch: B's
        // triangles moved by the start pose plus the motion round differently from those moved
        // by the end pose, by more than the grazing overlap here.)
        let from = place(&near, &u, hi);
        for to in [place(&near, &u, lo - 0.1), place(&near, &u, hi + 0.5)] {
            let [start, end] = [&from, &to].map(|p| RelativePose::between(&pose_a, p));
            let meets = common::brute_swept(&mesh_a, &mesh_b, &start, &(end.translation - start.translation));
            swept_meets += meets as usize;
            for (name, a, b) in &trees {
                let swept = Swept { pose_a: &pose_a, from: &from, to: &to };
                assert_eq!(visit_tree_pair(a, b, swept), meets, "far from the origin, {name}, swept");
            }
        }
    }
    assert!(grazing >= 10 && swept_meets >= grazing, "{grazing} grazing poses, {swept_meets} sweeps meet");
}
