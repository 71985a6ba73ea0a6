//! One broadphase step (move 1 % of the boxes, report every overlapping pair) for each of our
//! strategies and parry3d's `Bvh`, on the same uniform boxes in the same run.

use bvh_bench::boxes::{BoxScene, Layout};
use bvh_bench::broadphase_peers::{BoxBroadphase, ParryBroadphase, ParryRefit};
use bvh_broadphase::{Broadphase, Octree, UniformGrid};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

type MakeBackend = fn() -> Box<dyn BoxBroadphase>;

fn step(c: &mut Criterion) {
    let mut group = c.benchmark_group("broadphase_step_1pct");
    for n in [1_000, 10_000] {
        let make: [(&str, MakeBackend); 3] = [
            ("grid", || Box::new(Broadphase::new(UniformGrid::default()))),
            ("octree", || Box::new(Broadphase::new(Octree::default()))),
            ("parry_refit", || Box::new(ParryBroadphase::new(ParryRefit::Full))),
        ];
        for (name, new) in make {
            let mut scene = BoxScene::new(Layout::Uniform, n, 1);
            let mut backend = new();
            let mut pairs = Vec::new();
            backend.build(&scene.boxes(), &mut pairs);
            group.bench_function(BenchmarkId::new(name, n), |b| {
                b.iter(|| {
                    let moved = scene.step(0.01);
                    backend.step(&moved, &mut pairs);
                    pairs.len()
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, step);
criterion_main!(benches);
