//! `HierarchyQuery`: two hierarchies whose node volumes were chosen at run time answer as the
//! typed query does, in all nine pairings of OBB, AABB and sphere nodes.

use bvh_build::{BuildConfig, Bvh, Hierarchy, Preset};
use bvh_core::{Interpolation, Isometry, Obb, Point, TriMesh};
use bvh_query::{
    DistanceOptions, HierarchyQuery, PairCache, Posed, Query, QueryOptions, QueryStats, Surfaces,
};

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
    // Small meshes: the split queries split all the same.
    let options = QueryOptions { split_from: 0, ..QueryOptions::default() };
    for x in [0.0, 1.2, 1.45, 1.6, 3.0] {
        let pose = Isometry::translation(x, 0.1, 0.0);
        let typed =
            Query::new(Posed::new(&typed_a, Isometry::identity()), Posed::new(&typed_b, pose), options);
        let distance = typed.distance(DistanceOptions::exact()).unwrap().distance;
        let pairs = typed.intersecting_pairs();
        let end = Isometry::translation(x - 0.5, 0.1, 0.0);
        let swept = typed.swept_intersects(&end).unwrap().is_some();
        let near = typed.sweep_within(&end, 0.05).unwrap().is_some();
        let impact = typed.time_of_impact(&end, Interpolation::Slerp, 1e-3).unwrap().map(|i| i.time > 0.0);
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
                // Every call of the typed query has its counterpart.
                let mut stats = QueryStats::default();
                assert_eq!(query.intersecting_pairs_counted(&mut stats), pairs);
                assert_eq!(query.intersecting_pairs_parallel(), pairs);
                assert_eq!(query.contacts_parallel().len(), pairs.len());
                let within: Vec<_> =
                    query.pairs_within_counted(0.0, &mut stats).into_iter().map(|n| n.pair).collect();
                assert_eq!(within, pairs);
                assert_eq!(query.containment_counted(&mut stats), typed.containment());
                assert_eq!(query.swept_intersects_counted(&end, &mut stats).unwrap().is_some(), swept);
                assert_eq!(query.sweep_within_counted(&end, 0.05, &mut stats).unwrap().is_some(), near);
                let answer =
                    query.time_of_impact_counted(&end, Interpolation::Slerp, 1e-3, &mut stats).unwrap();
                assert_eq!(answer.map(|i| i.time > 0.0), impact, "x = {x}");
                assert!(pairs.is_empty() || stats.triangle_tests > 0, "the calls were counted");
            }
        }
    }
}
