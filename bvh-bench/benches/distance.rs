//! The minimum distance against parry3d's `query::distance` in the same run, on generated
//! meshes parry answers in milliseconds (on the anchors' 10^5-triangle scenes it takes tens of
//! milliseconds to seconds a pose: `bvh-bench poses --query distance --vs-parry` times it on a
//! prefix there). One iteration answers the whole pose set: ours exact, ours with a 1 cm limit
//! ("is anything that close?"), ours along a path with the pair cache, and parry.

use bvh_bench::{parry_bridge, pose_sets};
use bvh_build::generate::{bracket, torus};
use bvh_build::{BuildConfig, Bvh};
use bvh_core::{Isometry, Obb};
use bvh_query::{DistanceOptions, PairCache, Posed, Query, QueryOptions};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn distance(c: &mut Criterion) {
    let (ring, part) = (torus(2.0, 0.4, 96, 48), bracket(1.0, 0.05, 0.5));
    let parry_mesh = |m| parry_bridge::trimesh(m).expect("generated meshes are valid");
    let (parry_ring, parry_part) = (parry_mesh(&ring), parry_mesh(&part));
    let scene: Bvh<Obb> = Bvh::build(ring, &BuildConfig::co());
    let part: Bvh<Obb> = Bvh::build(part, &BuildConfig::co());
    let here = Isometry::identity();
    let sets = [
        ("random", pose_sets::random_poses(&scene, &part, 40, 0.45, 1)),
        ("path", pose_sets::path_through(&scene, &part, 40)),
    ];
    for (set, poses) in sets {
        let nearest = |k: usize, options: DistanceOptions, cache: Option<&mut PairCache>| {
            let query =
                Query::new(Posed::new(&scene, here), Posed::new(&part, poses[k]), QueryOptions::default());
            query.distance_counted(options, cache, &mut ()).map_or(f32::INFINITY, |n| n.distance)
        };
        let parry_poses: Vec<_> = poses.iter().map(parry_bridge::pose).collect();
        let mut group = c.benchmark_group(format!("distance/ring-bracket/{set}"));
        group.sample_size(10);
        group.bench_function("ours", |b| {
            b.iter(|| (0..poses.len()).map(|k| nearest(k, DistanceOptions::exact(), None)).sum::<f32>())
        });
        group.bench_function("ours within 1 cm", |b| {
            let within = DistanceOptions::exact().within(0.01);
            b.iter(|| (0..poses.len()).filter(|&k| nearest(k, within, None).is_finite()).count())
        });
        if set == "path" {
            group.bench_function("ours + cache", |b| {
                b.iter(|| {
                    let mut cache = PairCache::new();
                    (0..poses.len())
                        .map(|k| nearest(k, DistanceOptions::exact(), Some(&mut cache)))
                        .sum::<f32>()
                })
            });
        }
        group.bench_function("parry query::distance", |b| {
            b.iter(|| {
                parry_poses
                    .iter()
                    .map(|pose| {
                        let d = parry3d::query::distance(
                            &parry3d::math::Pose::IDENTITY,
                            black_box(&parry_ring),
                            pose,
                            &parry_part,
                        );
                        d.map_or(f32::INFINITY, |d| d.distance)
                    })
                    .sum::<f32>()
            })
        });
        group.finish();
    }
}

criterion_group!(benches, distance);
criterion_main!(benches);
