//! One broadphase step (move 1 % or all of the boxes, report every overlapping pair) for each of
//! our strategies and parry3d's `Bvh` (full and partial refit), on the same boxes – uniform and
//! clustered, as `bvh-bench broadphase` lays them out – in the same run. Only the step is timed,
//! not the drawing of the moves. Our strategies use rayon's global pool:
//! `RAYON_NUM_THREADS=1 cargo bench --bench broadphase` measures them on one thread.
//!
//! The steps cycle through [`STEPS`] moves and the same moves back, so the boxes stray no
//! further from where the back-ends were built than in `bvh-bench broadphase`: an endless random
//! walk would leave a refitted tree (parry's) built for boxes long gone, and time that instead.

use bvh_bench::boxes::{BoxScene, Layout};
use bvh_bench::broadphase_peers::{BoxBroadphase, ParryBroadphase, ParryRefit};
use bvh_broadphase::{Broadphase, HierarchicalGrid, Octree, UniformGrid};
use bvh_core::Aabb;
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use std::time::Duration;

type MakeBackend = fn() -> Box<dyn BoxBroadphase>;
type Moves = Vec<(u32, Aabb)>;

/// Steps before the moves turn back (the bench CLI's default run).
const STEPS: usize = 50;

/// The moves of [`STEPS`] steps of the scene, then those undoing them, last first: a cycle that
/// ends where it began.
fn round_trip(scene: &mut BoxScene, moving: f64) -> Vec<Moves> {
    let mut forth = Vec::new();
    let mut back = Vec::new();
    for _ in 0..STEPS {
        let before = scene.boxes();
        let moves = scene.step(moving);
        back.push(moves.iter().map(|&(i, _)| (i, before[i as usize])).collect());
        forth.push(moves);
    }
    forth.extend(back.into_iter().rev());
    forth
}

fn step(c: &mut Criterion) {
    let make: [(&str, MakeBackend); 5] = [
        ("hierarchical", || Box::new(Broadphase::new(HierarchicalGrid::default()))),
        ("grid", || Box::new(Broadphase::new(UniformGrid::default()))),
        ("octree", || Box::new(Broadphase::new(Octree::default()))),
        ("parry_refit", || Box::new(ParryBroadphase::new(ParryRefit::Full))),
        ("parry_partial", || Box::new(ParryBroadphase::new(ParryRefit::Partial))),
    ];
    for (layout, layout_name) in [(Layout::Uniform, "uniform"), (Layout::Clustered, "clustered")] {
        for (moving, moving_name) in [(0.01, "1pct"), (1.0, "all")] {
            let mut group = c.benchmark_group(format!("broadphase_step_{layout_name}_{moving_name}"));
            group.warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
            for n in [1_000, 10_000] {
                for (name, new) in make {
                    let mut scene = BoxScene::new(layout, n, 1);
                    let mut backend = new();
                    let mut pairs = Vec::new();
                    backend.build(&scene.boxes(), &mut pairs);
                    let cycle = round_trip(&mut scene, moving);
                    let mut moves = cycle.iter().cycle();
                    group.bench_function(BenchmarkId::new(name, n), |b| {
                        b.iter(|| {
                            backend.step(moves.next().expect("the cycle never ends"), &mut pairs);
                            pairs.len()
                        })
                    });
                }
            }
            group.finish();
        }
    }
}

criterion_group!(benches, step);
criterion_main!(benches);
