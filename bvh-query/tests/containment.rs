//! Containment of closed meshes: a part inside a housing is a collision without any surface
//! crossing.

use bvh_build::generate::torus;
use bvh_build::{BuildConfig, Bvh};
use bvh_core::{Isometry, Obb, Point, TriMesh, Vector};
use bvh_query::{Containment, Posed, Query, QueryOptions};

fn tree(mesh: TriMesh) -> Bvh<Obb> {
    Bvh::build(mesh, &BuildConfig::co())
}

fn containment(a: &Bvh<Obb>, pose_a: &Isometry, b: &Bvh<Obb>, pose_b: &Isometry) -> Containment {
    Query::new(Posed::new(a, pose_a), Posed::new(b, pose_b), QueryOptions::default()).containment()
}

#[test]
fn parts_inside_housings() {
    let housing = tree(TriMesh::cuboid(Point::origin(), Vector::new(2.0, 1.0, 1.0)));
    let part = tree(TriMesh::uv_sphere(Point::origin(), 0.3, 10, 16));
    let here = Isometry::identity();
    let inside = Isometry::new(Vector::new(1.2, 0.1, -0.2), Vector::new(0.3, 0.2, 0.1));
    assert_eq!(containment(&housing, &here, &part, &inside), Containment::BInsideA);
    assert_eq!(containment(&part, &inside, &housing, &here), Containment::AInsideB);
    assert_eq!(
        containment(&housing, &here, &part, &Isometry::translation(5.0, 0.0, 0.0)),
        Containment::Apart
    );
    assert_eq!(
        containment(&housing, &here, &part, &Isometry::translation(2.0, 0.0, 0.0)),
        Containment::Crossing
    );
}

#[test]
fn a_ball_in_a_ring_is_inside_only_within_the_tube() {
    let ring = tree(torus(2.0, 0.5, 48, 24));
    let ball = tree(TriMesh::uv_sphere(Point::origin(), 0.1, 8, 12));
    let here = Isometry::identity();
    // In the tube, in the hole, far away, and at several places around the tube.
    assert_eq!(
        containment(&ring, &here, &ball, &Isometry::translation(2.0, 0.0, 0.0)),
        Containment::BInsideA
    );
    assert_eq!(containment(&ring, &here, &ball, &here), Containment::Apart);
    for k in 0..12 {
        let angle = k as f32 * std::f32::consts::TAU / 12.0;
        let in_tube = Isometry::translation(2.1 * angle.cos(), 2.1 * angle.sin(), 0.15);
        assert_eq!(containment(&ring, &here, &ball, &in_tube), Containment::BInsideA, "angle {angle}");
        let outside = Isometry::translation(2.8 * angle.cos(), 2.8 * angle.sin(), 0.0);
        assert_eq!(containment(&ring, &here, &ball, &outside), Containment::Apart, "angle {angle}");
    }
}
