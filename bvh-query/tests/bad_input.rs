//! Input outside the geometry: poses that place nothing anywhere – a NaN or infinite component,
//! or two poses too far apart to compose in `f32` – are refused with a typed error naming the pose
//! by `try_new`, answered as an object that is nowhere by `new`, refused by every query along a
//! motion; clearances that are not finite distances get their documented answer.

use bvh_build::generate::torus;
use bvh_build::{BuildConfig, Bvh, Hierarchy};
use bvh_core::PoseError::NotFinite;
use bvh_core::nalgebra::{Quaternion, UnitQuaternion};
use bvh_core::{Interpolation, Isometry, Obb, PoseError, PoseOf, TriMesh};
use bvh_query::{
    Containment, DistanceOptions, HierarchyQuery, PairCache, Posed, Query, QueryOptions, Surfaces, SweepError,
};

/// Poses with one bad component each: in the translation, or in the rotation's quaternion.
fn bad_poses() -> Vec<Isometry> {
    let mut poses = Vec::new();
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        let mut moved = Isometry::translation(0.5, 0.0, 0.0);
        moved.translation.vector.z = bad;
        poses.push(moved);
        let mut turned = Isometry::translation(0.5, 0.0, 0.0);
        turned.rotation = UnitQuaternion::new_unchecked(Quaternion::new(1.0, bad, 0.0, 0.0));
        poses.push(turned);
    }
    poses
}

#[test]
fn poses_that_place_nothing_are_refused_or_answered_as_nowhere() {
    let ring: Bvh<Obb> = Bvh::build(torus(1.0, 0.3, 24, 10), &BuildConfig::co());
    let here = Isometry::identity();
    let near = Isometry::translation(0.5, 0.0, 0.0);
    let options = QueryOptions::default();
    // Poses by reference or made inline (a pose is copied into the query).
    let good = Query::new(Posed::new(&ring, here), Posed::new(&ring, near), options);
    let inline = Query::new(
        Posed::new(&ring, Isometry::identity()),
        Posed::new(&ring, Isometry::translation(0.5, 0.0, 0.0)),
        options,
    );
    assert_eq!(inline.intersects(), good.intersects());
    assert!(good.intersects().is_some() && good.pose_error().is_none());
    // Finite, but their difference overflows `f32`.
    let (west, east) = (Isometry::translation(-3e38, 0.0, 0.0), Isometry::translation(3e38, 0.0, 0.0));
    let mut cases = vec![(west, east, PoseError::TooFarApart)];
    for bad in bad_poses() {
        let at_end = Some(SweepError::Pose(PoseError::NotFinite(PoseOf::End)));
        assert_eq!(good.swept_intersects(&bad).err(), at_end);
        assert_eq!(good.sweep_within(&bad, 0.1).err(), at_end);
        assert_eq!(good.time_of_impact(&bad, Interpolation::Screw, 0.01).err(), at_end);
        cases.extend([
            (here, bad, NotFinite(PoseOf::B)),
            (bad, here, NotFinite(PoseOf::A)),
            (bad, bad, NotFinite(PoseOf::A)),
        ]);
    }
    for (a, b, error) in cases {
        // Refused by `try_new`, naming the pose at fault ...
        let refused = Query::try_new(Posed::new(&ring, a), Posed::new(&ring, b), options).err();
        assert_eq!(refused, Some(error), "{a:?} {b:?}");
        let (tree_a, tree_b) = (Hierarchy::Obb(ring.clone()), Hierarchy::Obb(ring.clone()));
        assert_eq!(HierarchyQuery::try_new(&tree_a, a, &tree_b, b, options).err(), Some(error));
        // ... and placed nowhere by `new`: every query answers "nothing", the ones along a
        // motion say why.
        let nowhere = Query::new(Posed::new(&ring, a), Posed::new(&ring, b), options);
        assert_eq!(nowhere.pose_error(), Some(error));
        assert_eq!(HierarchyQuery::new(&tree_a, a, &tree_b, b, options).pose_error(), Some(error));
        let mut cache = PairCache::new();
        assert!(nowhere.intersects().is_none() && nowhere.intersects_cached(&mut cache).is_none());
        assert!(nowhere.intersecting_pairs().is_empty() && nowhere.intersecting_pairs_parallel().is_empty());
        assert!(nowhere.contacts().is_empty() && nowhere.contacts_parallel().is_empty());
        assert!(nowhere.pairs_within(f32::INFINITY).is_empty());
        assert!(nowhere.distance(DistanceOptions::exact()).is_none());
        assert!(nowhere.distance_cached(DistanceOptions::exact(), &mut cache).is_none());
        assert!(nowhere.contact_regions(Surfaces::Closed).is_empty());
        assert!(nowhere.contact_regions_parallel(Surfaces::Open).is_empty());
        assert_eq!(nowhere.containment(), Containment::Apart);
        let why = Some(SweepError::Pose(error));
        assert_eq!(nowhere.swept_intersects(&here).err(), why);
        assert_eq!(nowhere.sweep_within(&here, 0.1).err(), why);
        assert_eq!(nowhere.time_of_impact(&here, Interpolation::Slerp, 0.01).err(), why);
    }
    assert_eq!(
        PoseError::NotFinite(PoseOf::B).to_string(),
        "the pose of object B has a NaN or infinite component"
    );
}

#[test]
fn clearances_that_are_not_finite_distances() {
    let ring: Bvh<Obb> = Bvh::build(torus(1.0, 0.3, 12, 6), &BuildConfig::co());
    let (here, apart) = (Isometry::identity(), Isometry::translation(5.0, 0.0, 0.0));
    let query = Query::new(Posed::new(&ring, here), Posed::new(&ring, apart), QueryOptions::default());
    let pairs = ring.mesh().triangle_count() * ring.mesh().triangle_count();
    assert_eq!(query.pairs_within(f32::INFINITY).len(), pairs);
    for none in [f32::NAN, -1.0, f32::NEG_INFINITY] {
        assert!(query.pairs_within(none).is_empty(), "{none}");
    }
    // Within 4 of each other, only some pairs are (the rings' centres are 5 apart).
    let some = query.pairs_within(4.0).len();
    assert!(some > 0 && some < pairs, "{some} of {pairs}");
}

/// Distance options that are not finite distances get their documented answers, and a mesh
/// without triangles has no nearest pair.
#[test]
fn distance_options_that_are_not_finite_and_empty_meshes() {
    let ring: Bvh<Obb> = Bvh::build(torus(1.0, 0.3, 12, 6), &BuildConfig::co());
    let (here, apart) = (Isometry::identity(), Isometry::translation(5.0, 0.0, 0.0));
    let query = Query::new(Posed::new(&ring, here), Posed::new(&ring, apart), QueryOptions::default());
    let exact = query.distance(DistanceOptions::exact()).expect("a distance").distance;
    assert!((exact - 2.4).abs() < 0.05, "{exact}");
    // NaN or negative tolerances are none; a NaN limit is no limit; a negative one leaves nothing.
    for (abs, rel) in [(f32::NAN, 0.0), (0.0, f32::NAN), (-1.0, -1.0)] {
        let d = query.distance(DistanceOptions::exact().tolerant(abs, rel)).unwrap();
        assert_eq!(d.distance, exact, "{abs} {rel}");
    }
    assert_eq!(query.distance(DistanceOptions::exact().within(f32::NAN)).unwrap().distance, exact);
    assert!(query.distance(DistanceOptions::exact().within(-1.0)).is_none());
    assert!(query.distance(DistanceOptions::exact().within(f32::NEG_INFINITY)).is_none());
    assert!(query.distance(DistanceOptions::exact().within(exact * 0.99)).is_none());
    // An infinite tolerance answers with some real pair, never below the distance.
    let loose = query.distance(DistanceOptions::exact().tolerant(f32::INFINITY, 0.0)).unwrap();
    assert!(loose.distance >= exact);
    let empty: Bvh<Obb> = Bvh::build(TriMesh::new(Vec::new(), Vec::new()).unwrap(), &BuildConfig::co());
    for (a, b) in [(&ring, &empty), (&empty, &ring)] {
        let query = Query::new(Posed::new(a, here), Posed::new(b, apart), QueryOptions::default());
        assert!(query.distance_cached(DistanceOptions::exact(), &mut PairCache::new()).is_none());
    }
}
