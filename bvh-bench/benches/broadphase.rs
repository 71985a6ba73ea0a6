//! One broadphase step (move 1 % or all of the boxes, report every overlapping pair) for each of
//! our strategies and parry3d's `Bvh`, on the same uniform boxes in the same run.

use bvh_bench::boxes::{BoxScene, Layout};
use bvh_bench::broadphase_peers::{BoxBroadphase, ParryBroadphase, ParryRefit};
use bvh_broadphase::{Broadphase, HierarchicalGrid, Octree, UniformGrid};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

type MakeBackend = fn() -> Box<dyn BoxBroadphase>;

fn step(c: &mut Criterion) {
    let make: [(&str, MakeBackend); 4] = [
        ("hierarchical", || Box::new(Broadphase::new(HierarchicalGrid::default()))),
        ("grid", || Box::new(Broadphase::new(UniformGrid::default()))),
        ("octree", || Box::new(Broadphase::new(Octree::default()))),
        ("parry_refit", || Box::new(ParryBroadphase::new(ParryRefit::Full))),
    ];
    for (group, moving) in [("broadphase_step_1pct", 0.01), ("broadphase_step_all", 1.0)] {
        let mut group = c.benchmark_group(group);
        for n in [1_000, 10_000] {
            for (name, new) in make {
                let mut scene = BoxScene::new(Layout::Uniform, n, 1);
                let mut backend = new();
                let mut pairs = Vec::new();
                backend.build(&scene.boxes(), &mut pairs);
                group.bench_function(BenchmarkId::new(name, n), |b| {
                    b.iter(|| {
                        let moved = scene.step(moving);
                        backend.step(&moved, &mut pairs);
                        pairs.len()
                    })
                });
            }
        }
        group.finish();
    }
}

criterion_group!(benches, step);
criterion_main!(benches);
