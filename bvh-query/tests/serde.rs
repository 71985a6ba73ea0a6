//! With the `serde` feature, every answer survives a JSON round trip unchanged: contacts (crossing
//! and coplanar), distances, regions, impacts, containment and the counts; a coplanar polygon
//! read back refuses a vertex count it cannot hold.
#![cfg(feature = "serde")]

use bvh_build::{BuildConfig, Bvh};
use bvh_core::triangle::CoplanarPolygon;
use bvh_core::{Interpolation, Isometry, Obb, Point, TriMesh, TriangleIntersection, Vector};
use bvh_query::{Containment, DistanceOptions, Posed, Query, QueryOptions, QueryStats, Surfaces};
use serde::{Serialize, de::DeserializeOwned};

fn round_trip<T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug>(value: &T) {
    let text = serde_json::to_string(value).expect("answers serialize");
    let back: T = serde_json::from_str(&text).expect("and read back");
    assert_eq!(&back, value, "{text}");
}

#[test]
fn answers_round_trip_through_json() {
    let cube: Bvh<Obb> =
        Bvh::build(TriMesh::cuboid(Point::origin(), Vector::new(1.0, 1.0, 1.0)), &BuildConfig::co());
    let here = Isometry::identity();
    let options = QueryOptions::default();
    // Crossing (turned a little) and face to face (coplanar overlaps).
    let crossing = Isometry::new(Vector::new(0.8, 0.3, 0.2), Vector::new(0.1, 0.2, 0.3));
    let stacked = Isometry::translation(0.5, 0.5, 2.0);
    let mut coplanar = 0;
    for pose in [crossing, stacked] {
        let query = Query::new(Posed::new(&cube, here), Posed::new(&cube, pose), options);
        let contacts = query.contacts();
        assert!(!contacts.is_empty());
        coplanar +=
            contacts.iter().filter(|c| matches!(c.intersection, TriangleIntersection::Polygon(_))).count();
        round_trip(&contacts);
        round_trip(&query.contact_regions(Surfaces::Closed));
        round_trip(&query.containment());
        let mut stats = QueryStats::default();
        round_trip(&query.intersects_counted(None, &mut stats));
        round_trip(&stats);
    }
    assert!(coplanar > 0, "a coplanar contact was written");
    let apart =
        Query::new(Posed::new(&cube, here), Posed::new(&cube, Isometry::translation(3.0, 0.0, 0.0)), options);
    round_trip(&apart.distance(DistanceOptions::exact()).expect("a distance"));
    round_trip(&apart.pairs_within(2.0));
    round_trip(&Containment::BInsideA);
    let impact = apart.time_of_impact(&here, Interpolation::Slerp, 1e-3).expect("a valid motion");
    round_trip(&impact.expect("it comes back to touch"));
    let too_many = serde_json::to_string(&vec![Point::origin(); 7]).unwrap();
    assert!(serde_json::from_str::<CoplanarPolygon>(&too_many).is_err());
    assert!(serde_json::from_str::<CoplanarPolygon>("[]").is_err());
}
