//! First-contact queries against parry3d in the same run: paper 000's two maintenance scenes
//! (random poses over the bay, calibrated to about 45 % colliding, and the extraction path) and,
//! when `../shared/meshes` sits beside the repository, the anchors' real pairs (random poses and
//! a straight path through the scene). One iteration answers the whole pose set: ours, ours with
//! the pair cache along paths, parry's public `intersection_test`, and the fastest walk parry's
//! API allows (`parry_bridge::bvtt_intersects`).

use bvh_bench::{parry_bridge, pose_sets};
use bvh_build::generate::{accumulator_bay, ptu_bay};
use bvh_build::{BuildConfig, Bvh};
use bvh_core::{Isometry, Obb, TriMesh};
use bvh_query::{PairCache, Posed, Query, QueryOptions};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::Path;

/// A scene, a part, and the path the part takes, if the scene has its own.
struct Case {
    name: &'static str,
    scene: TriMesh,
    part: TriMesh,
    path: Option<Vec<Isometry>>,
}

fn cases() -> Vec<Case> {
    let mut cases: Vec<Case> = [accumulator_bay(1), ptu_bay(1)]
        .into_iter()
        .zip(["accumulator-bay", "ptu-bay"])
        .map(|(s, name)| Case { name, path: Some(s.extraction_path(240)), scene: s.bay, part: s.part })
        .collect();
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/meshes");
    let load = |file: &str| bvh_io::load(shared.join(file)).ok().and_then(|parts| parts.merged().ok());
    for (name, scene, part) in [
        ("lucy-dragon", "vtk_lucy.obj", "srt_dragon_23k.obj"),
        ("bunny-bracket", "c3d_stanford-bunny.obj", "jig_bracket-3.obj"),
    ] {
        if let (Some(scene), Some(part)) = (load(scene), load(part)) {
            cases.push(Case { name, scene, part, path: None });
        }
    }
    cases
}

fn queries(c: &mut Criterion) {
    let here = Isometry::identity();
    for case in cases() {
        let parry_mesh = |m| parry_bridge::trimesh(m).expect("benchmark meshes are valid");
        let (parry_scene, parry_part) = (parry_mesh(&case.scene), parry_mesh(&case.part));
        let scene: Bvh<Obb> = Bvh::build(case.scene, &BuildConfig::co());
        let part: Bvh<Obb> = Bvh::build(case.part, &BuildConfig::co());
        let path = case.path.unwrap_or_else(|| pose_sets::path_through(&scene, &part, 200));
        let sets = [("random", pose_sets::random_poses(&scene, &part, 200, 0.45, 1)), ("path", path)];
        for (set, poses) in sets {
            let touching = |k: usize, cache: Option<&mut PairCache>| {
                let query = Query::new(
                    Posed::new(&scene, here),
                    Posed::new(&part, poses[k]),
                    QueryOptions::default(),
                );
                query.intersects_counted(cache, &mut ()).is_some()
            };
            let colliding = pose_sets::touching(&scene, &part, &poses).iter().filter(|&&t| t).count();
            eprintln!("{}/{set}: {colliding} of {} poses touch", case.name, poses.len());
            let parry_poses: Vec<_> = poses.iter().map(parry_bridge::pose).collect();
            let mut group = c.benchmark_group(format!("query/{}/{set}", case.name));
            group.sample_size(10);
            group.bench_function("ours", |b| {
                b.iter(|| (0..poses.len()).filter(|&k| touching(k, None)).count())
            });
            if set == "path" {
                group.bench_function("ours + cache", |b| {
                    b.iter(|| {
                        let mut cache = PairCache::new();
                        (0..poses.len()).filter(|&k| touching(k, Some(&mut cache))).count()
                    })
                });
            }
            group.bench_function("parry intersection_test", |b| {
                b.iter(|| {
                    parry_poses
                        .iter()
                        .filter(|pose| parry_bridge::intersects(black_box(&parry_scene), &parry_part, pose))
                        .count()
                })
            });
            group.bench_function("parry bvtt", |b| {
                b.iter(|| {
                    parry_poses
                        .iter()
                        .filter(|pose| {
                            parry_bridge::bvtt_intersects(black_box(&parry_scene), &parry_part, pose)
                        })
                        .count()
                })
            });
            group.finish();
        }
    }
}

criterion_group!(benches, queries);
criterion_main!(benches);
