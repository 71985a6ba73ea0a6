//! Refitted trees against brute force: a cable (a twisted strap) and a hose (a tube) bent into
//! new shapes, refitted whole or in part, for OBB, AABB and sphere nodes, answer every query as
//! brute force over all triangle pairs of the deformed meshes does; bad vertex data is refused
//! and leaves the tree as it was.

use bvh_build::generate::{bumpy_model, ribbon, tube};
use bvh_build::{BuildConfig, Bvh, Hierarchy, NodeKind, Preset};
use bvh_core::{
    Isometry, MeshError, Obb, Point, Real, RelativePose, TriMesh, Triangle, Vector, closest_points_triangles,
    triangles_intersect,
};
use bvh_query::{DistanceOptions, HierarchyQuery, PairCache, QueryOptions, Surfaces, TrianglePair};

fn presets() -> [Preset; 3] {
    [Preset::co(), Preset::aabb_tree(), Preset { name: "sphere", nodes: NodeKind::Sphere, ..Preset::co() }]
}

/// The scene: a bumpy ball of radius about 1 (closed).
fn scene() -> TriMesh {
    let blob = bumpy_model(600);
    TriMesh::new(blob.vertices().iter().map(|p| p * 2.0).collect(), blob.indices().to_vec()).expect("valid")
}

/// `mesh`'s vertices bent about the z axis through (0, -bend, 0) (a point at x = s goes round
/// an arc of radius `bend`) and twisted about x by `twist` radians per unit of length.
fn bent(mesh: &TriMesh, bend: Real, twist: Real) -> Vec<Point> {
    mesh.vertices()
        .iter()
        .map(|p| {
            let (s, c) = (p.x / bend).sin_cos();
            let (ts, tc) = (twist * p.x).sin_cos();
            let (y, z) = (p.y * tc - p.z * ts, p.y * ts + p.z * tc);
            Point::new((bend + y) * s, (bend + y) * c - bend, z)
        })
        .collect()
}

/// The intersecting pairs and the distance by brute force, B placed in A's frame as the
/// queries place it.
fn brute(a: &TriMesh, b: &TriMesh, pose_b: &Isometry) -> (Vec<TrianglePair>, Real) {
    let rel = RelativePose::between(&Isometry::identity(), pose_b);
    let moved: Vec<Triangle> = b.triangles().map(|t| t.placed(&rel)).collect();
    let (mut pairs, mut distance) = (Vec::new(), Real::INFINITY);
    for (i, ta) in a.triangles().enumerate() {
        for (j, tb) in moved.iter().enumerate() {
            if triangles_intersect(&ta, tb) {
                pairs.push(TrianglePair { a: i as u32, b: j as u32 });
            }
            distance = distance.min(closest_points_triangles(&ta, tb).distance);
        }
    }
    (pairs, distance)
}

/// Every query of `scene` against `part` at a few poses, the part pushed from afar into the
/// scene, equals brute force over their meshes as the user gave them; the cache is carried
/// along.
fn check_against_brute_force(
    (scene, scene_mesh): (&Hierarchy, &TriMesh),
    (part, part_mesh): (&Hierarchy, &TriMesh),
    cache: &mut PairCache,
) {
    let mut touching = 0;
    for k in 0..6 {
        let pose = Isometry::new(Vector::new(-5.0 + 0.8 * k as Real, 0.05, 0.1), Vector::y() * 0.3);
        let query = HierarchyQuery::new(scene, Isometry::identity(), part, pose, QueryOptions::default());
        let (mut want, distance) = brute(scene_mesh, part_mesh, &pose);
        let mut got = query.intersecting_pairs();
        got.sort_by_key(|p| (p.a, p.b));
        want.sort_by_key(|p| (p.a, p.b));
        assert_eq!(got, want, "pose {k}");
        assert_eq!(query.intersects().is_some(), !want.is_empty(), "pose {k}");
        let near = query.distance_cached(DistanceOptions::exact(), cache).expect("a distance");
        assert!((near.distance - distance).abs() <= 1e-5, "pose {k}: {} against {distance}", near.distance);
        touching += usize::from(!want.is_empty());
    }
    assert!((1..6).contains(&touching), "{touching} of 6 poses touch: the sweep tests nothing");
}

/// A strap and a tube bent and twisted, refitted whole: well formed, and the same answers as
/// brute force – and as a tree built on the deformed mesh – with a cache kept from before.
#[test]
fn refitted_trees_answer_like_brute_force() {
    let scene_mesh = scene();
    for preset in presets() {
        let scene = Hierarchy::build(scene_mesh.clone(), &preset);
        for (name, part_mesh) in [("strap", ribbon(120, 3.0, 0.2)), ("tube", tube(0.15, 0.1, 3.0, 8))] {
            let mut part = Hierarchy::build(part_mesh.clone(), &preset);
            let mut cache = PairCache::new();
            check_against_brute_force((&scene, &scene_mesh), (&part, &part_mesh), &mut cache);
            for (bend, twist) in [(1.5, 2.0), (0.8, -3.0)] {
                let vertices = bent(&part_mesh, bend, twist);
                part.refit(&vertices).unwrap_or_else(|e| panic!("{}/{name}: {e}", preset.name));
                part.assert_well_formed();
                let deformed = TriMesh::new(vertices, part_mesh.indices().to_vec()).expect("valid");
                assert_eq!(part.mesh().vertices(), deformed.vertices(), "{}", preset.name);
                check_against_brute_force((&scene, &scene_mesh), (&part, &deformed), &mut cache);
                let rebuilt = Hierarchy::build(deformed.clone(), &preset);
                check_against_brute_force(
                    (&scene, &scene_mesh),
                    (&rebuilt, &deformed),
                    &mut PairCache::new(),
                );
            }
        }
    }
}

/// Moving part of the vertices refits only the volumes above their triangles, and the answers
/// stay those of brute force.
#[test]
fn partial_refit_answers_like_brute_force() {
    let scene_mesh = scene();
    let part_mesh = ribbon(120, 3.0, 0.2);
    let vertices = bent(&part_mesh, 1.0, 2.5);
    let half = vertices.len() / 2;
    for preset in presets() {
        let scene = Hierarchy::build(scene_mesh.clone(), &preset);
        let mut part = Hierarchy::build(part_mesh.clone(), &preset);
        part.refit_range(half, &vertices[half..]).expect("a valid range");
        part.assert_well_formed();
        let mut moved = part_mesh.vertices().to_vec();
        moved[half..].copy_from_slice(&vertices[half..]);
        let deformed = TriMesh::new(moved, part_mesh.indices().to_vec()).expect("valid");
        assert_eq!(part.mesh().vertices(), deformed.vertices(), "{}", preset.name);
        check_against_brute_force((&scene, &scene_mesh), (&part, &deformed), &mut PairCache::new());
    }
}

/// Vertices the mesh does not have, or with a NaN, are refused with the error saying which;
/// the tree is left exactly as it was, and an empty move changes no geometry.
#[test]
fn bad_vertices_are_refused() {
    let mesh = tube(0.15, 0.1, 3.0, 8);
    let count = mesh.vertices().len();
    for preset in presets() {
        let mut part = Hierarchy::build(mesh.clone(), &preset);
        let before = part.clone();
        let mut nan = mesh.vertices().to_vec();
        nan[7].y = Real::NAN;
        assert_eq!(part.refit(&nan), Err(MeshError::NonFiniteVertex { vertex: 7 }));
        assert_eq!(
            part.refit(&nan[..count - 1]),
            Err(MeshError::VertexRangeOutOfBounds { first: 0, count: count - 1, vertex_count: count })
        );
        assert_eq!(
            part.refit_range(count - 2, &nan[..3]),
            Err(MeshError::VertexRangeOutOfBounds { first: count - 2, count: 3, vertex_count: count })
        );
        assert_eq!(
            part.refit_range(usize::MAX, &nan[..1]),
            Err(MeshError::VertexRangeOutOfBounds { first: usize::MAX, count: 1, vertex_count: count })
        );
        assert_eq!(part.refit_range(3, &nan[3..9]), Err(MeshError::NonFiniteVertex { vertex: 7 }));
        assert_eq!(part, before, "{}: a refused refit changed the tree", preset.name);
        part.refit_range(5, &[]).expect("an empty move is valid");
        assert_eq!(part, before, "{}: an empty move changed the tree", preset.name);
        let mut empty = Hierarchy::build(TriMesh::default(), &preset);
        let root = *empty.root();
        empty.refit(&[]).expect("nothing to move");
        empty.assert_well_formed();
        assert_eq!(*empty.root(), root, "{}: an empty refit moved the root", preset.name);
    }
}

/// After a small deformation a refitted tree stays about as tight as one built on the deformed
/// mesh (summed node volumes): a box grown around its children's boxes on other axes instead of
/// around its triangles would not.
#[test]
fn refit_keeps_boxes_tight() {
    let mesh = scene();
    let size = mesh.aabb().extents().norm();
    let wave: Vec<Point> = mesh
        .vertices()
        .iter()
        .map(|p| p + Vector::new((3.0 * p.y).sin(), (3.0 * p.z).sin(), (3.0 * p.x).sin()) * (0.01 * size))
        .collect();
    let deformed = TriMesh::new(wave.clone(), mesh.indices().to_vec()).expect("valid");
    let mut refitted: Bvh<Obb> = Bvh::build(mesh, &BuildConfig::co());
    refitted.refit(&wave).expect("finite vertices");
    let rebuilt: Bvh<Obb> = Bvh::build(deformed, &BuildConfig::co());
    let ratio = refitted.total_volume() / rebuilt.total_volume();
    assert!(ratio < 1.3, "refitted boxes hold {ratio} times the volume of rebuilt ones");
}

/// A region's depth reaches the points inside the other mesh through the mesh's patches, which
/// keep the points' positions: refitted, a closed ball grown into the scene gives the regions
/// of a tree built on the grown ball, not those of the ball as it was.
#[test]
fn regions_after_a_refit_reach_the_moved_points() {
    let scene = Hierarchy::build(scene(), &Preset::co());
    let ball = TriMesh::uv_sphere(Point::origin(), 0.5, 40, 80);
    let mut part = Hierarchy::build(ball.clone(), &Preset::co());
    let pose = Isometry::translation(1.0, 0.0, 0.0);
    let regions = |part: &Hierarchy| {
        HierarchyQuery::new(&scene, Isometry::identity(), part, pose, QueryOptions::default())
            .contact_regions(Surfaces::Closed)
    };
    let before = regions(&part);
    let grown: Vec<Point> = ball.vertices().iter().map(|p| Point::from(p.coords * 1.6)).collect();
    part.refit(&grown).expect("finite");
    let rebuilt =
        Hierarchy::build(TriMesh::new(grown, ball.indices().to_vec()).expect("valid"), &Preset::co());
    let (after, want) = (regions(&part), regions(&rebuilt));
    assert!(!want.is_empty() && want.len() == after.len(), "{} {} {}", before.len(), after.len(), want.len());
    for (got, want) in after.iter().zip(&want) {
        assert_eq!(got.pairs, want.pairs);
        assert!((got.depth - want.depth).abs() <= 1e-5, "depth {} against {}", got.depth, want.depth);
        assert!((got.normal - want.normal).norm() <= 1e-5);
        assert!((got.deepest_on_b - want.deepest_on_b).norm() <= 1e-5);
    }
    let deepest = |regions: &[bvh_query::ContactRegion]| regions.iter().map(|r| r.depth).fold(0.0, Real::max);
    assert!(deepest(&after) > deepest(&before) + 0.1, "{} then {}", deepest(&before), deepest(&after));
}
