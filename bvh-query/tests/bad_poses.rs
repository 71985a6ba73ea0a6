//! Poses that place nothing anywhere – a NaN or infinite component, or two poses too far apart
//! to compose in `f32` – are refused with a typed error by every entry point, never answered.

use bvh_build::generate::torus;
use bvh_build::{BuildConfig, Bvh};
use bvh_core::nalgebra::{Quaternion, UnitQuaternion};
use bvh_core::{Isometry, Obb, PoseError};
use bvh_query::{Posed, Query, QueryOptions, SweepError};

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
fn queries_refuse_poses_that_are_not_finite() {
    let ring: Bvh<Obb> = Bvh::build(torus(1.0, 0.3, 24, 10), &BuildConfig::co());
    let here = Isometry::identity();
    let near = Isometry::translation(0.5, 0.0, 0.0);
    let options = QueryOptions::default();
    let good = Query::new(Posed::new(&ring, &here), Posed::new(&ring, &near), options).unwrap();
    assert!(good.intersects(None, &mut ()).is_some());
    for bad in bad_poses() {
        for (a, b) in [(&here, &bad), (&bad, &here)] {
            let refused = Query::new(Posed::new(&ring, a), Posed::new(&ring, b), options).err();
            assert_eq!(refused, Some(PoseError::NotFinite), "{bad:?}");
        }
        assert_eq!(good.swept_intersects(&bad, &mut ()), Err(SweepError::Pose(PoseError::NotFinite)));
        assert_eq!(good.sweep_within(&bad, 0.1, &mut ()), Err(SweepError::Pose(PoseError::NotFinite)));
    }
    // Finite, but their difference overflows `f32`.
    let (west, east) = (Isometry::translation(-3e38, 0.0, 0.0), Isometry::translation(3e38, 0.0, 0.0));
    let refused = Query::new(Posed::new(&ring, &west), Posed::new(&ring, &east), options).err();
    assert_eq!(refused, Some(PoseError::NotFinite));
}
