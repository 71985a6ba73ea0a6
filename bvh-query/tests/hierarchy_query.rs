//! `HierarchyQuery`: two hierarchies whose node volumes were chosen at run time answer as the
//! typed query does, in all nine pairings of OBB, AABB and sphere nodes.

use bvh_build::{BuildConfig, Bvh, Hierarchy, Preset};
use bvh_core::{Isometry, Obb, Point, TriMesh};
use bvh_query::{DistanceOptions, HierarchyQuery, PairCache, Posed, Query, QueryOptions, Surfaces};

#[test]
fn every_pairing_answers_as_the_typed_query() {
    let big = TriMesh::uv_sphere(Point::origin(), 1.0, 12, 24);
    let small = TriMesh::uv_sphere(Point::origin(), 0.5, 8, 16);
    // OBB, AABB and sphere nodes (a ball is classified as round).
    let presets = [Preset::co(), Preset::aabb_tree(), Preset::classified()];
    let trees = |mesh: &TriMesh| presets.map(|p| Hierarchy::build(mesh.clone(), &p));
    let (bigs, smalls) = (trees(&big), trees(&small));
    assert!(matches!(bigs[2], Hierarchy::Sphere(_)), "the third preset gives sphere nodes");
    let typed_a: Bvh<Obb> = Bvh::build(big, &BuildConfig::co());
    let typed_b: Bvh<Obb> = Bvh::build(small, &BuildConfig::co());
    let options = QueryOptions::default();
    for x in [0.0, 1.2, 1.45, 1.6, 3.0] {
        let pose = Isometry::translation(x, 0.1, 0.0);
        let typed =
            Query::new(Posed::new(&typed_a, Isometry::identity()), Posed::new(&typed_b, pose), options);
        let distance = typed.distance(DistanceOptions::exact()).unwrap().distance;
        let pairs = typed.intersecting_pairs();
        for a in &bigs {
            for b in &smalls {
                let query = HierarchyQuery::new(a, Isometry::identity(), b, pose, options);
                assert_eq!(query.intersects().is_some(), !pairs.is_empty(), "x = {x}");
                assert_eq!(query.intersecting_pairs(), pairs, "x = {x}");
                assert_eq!(query.distance(DistanceOptions::exact()).unwrap().distance, distance, "x = {x}");
                let mut cache = PairCache::new();
                assert_eq!(
                    query.distance_cached(DistanceOptions::exact(), &mut cache).unwrap().distance,
                    distance
                );
                let regions = query.contact_regions(Surfaces::Closed);
                assert_eq!(regions.is_empty(), pairs.is_empty(), "x = {x}");
            }
        }
    }
}
