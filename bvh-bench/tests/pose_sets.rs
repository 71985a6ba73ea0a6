//! The benchmark pose sets: random poses touch in about the share asked for, the path starts
//! and ends clear of the scene and passes through it.

use bvh_bench::pose_sets::{path_through, random_poses, touching};
use bvh_build::generate::torus;
use bvh_build::{BuildConfig, Bvh};
use bvh_core::{Obb, Point, TriMesh};

#[test]
fn random_poses_touch_in_about_the_share_asked_for_and_repeat_with_the_seed() {
    let scene: Bvh<Obb> = Bvh::build(torus(2.0, 0.4, 48, 16), &BuildConfig::co());
    let part: Bvh<Obb> =
        Bvh::build(TriMesh::uv_sphere(Point::new(3.0, 1.0, 0.0), 0.5, 12, 24), &BuildConfig::co());
    for share in [0.3, 0.6] {
        let poses = random_poses(&scene, &part, 300, share, 7);
        assert_eq!(poses.len(), 300);
        assert_eq!(poses, random_poses(&scene, &part, 300, share, 7));
        let hits = touching(&scene, &part, &poses).iter().filter(|&&t| t).count() as f64 / 300.0;
        assert!((hits - share).abs() < 0.1, "asked {share}, got {hits}");
    }
}

#[test]
fn the_path_goes_through_the_scene_from_outside_to_outside() {
    let scene: Bvh<Obb> = Bvh::build(
        TriMesh::cuboid(Point::origin(), bvh_core::Vector::new(4.0, 1.0, 1.0)),
        &BuildConfig::co(),
    );
    let part: Bvh<Obb> =
        Bvh::build(TriMesh::uv_sphere(Point::new(10.0, 0.0, 0.0), 0.3, 8, 16), &BuildConfig::co());
    let poses = path_through(&scene, &part, 101);
    let hits = touching(&scene, &part, &poses);
    assert!(!hits[0] && !hits[100], "the ends are clear");
    // The ball's centre crosses the box's end faces on the way: it touches them there.
    assert!(hits.iter().any(|&t| t), "the path meets the scene");
}
