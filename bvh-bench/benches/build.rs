//! Build time per preset on paper 000's generated meshes (8,701, 149,941 and 497,805
//! triangles), against parry3d's `TriMesh::new` on the same meshes in the same run.

use bvh_bench::parry_bridge;
use bvh_build::generate::{accumulator_bay, ptu_bay};
use bvh_build::{Hierarchy, Preset};
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn builds(c: &mut Criterion) {
    let accumulator = accumulator_bay(1);
    let ptu = ptu_bay(1);
    let meshes = [("9k", accumulator.part), ("150k", accumulator.bay), ("500k", ptu.bay)];
    for (size, mesh) in &meshes {
        let mut group = c.benchmark_group(format!("build/{size}"));
        group.sample_size(10);
        for preset in Preset::ALL {
            group.bench_function(preset.name, |b| {
                b.iter_batched(
                    || mesh.clone(),
                    |m| black_box(Hierarchy::build(m, &preset)),
                    BatchSize::LargeInput,
                )
            });
        }
        group.bench_function("parry3d", |b| {
            b.iter_batched(
                || parry_bridge::mesh_buffers(mesh),
                |(v, i)| black_box(parry3d::shape::TriMesh::new(v, i)),
                BatchSize::LargeInput,
            )
        });
        group.finish();
    }
}

criterion_group!(benches, builds);
criterion_main!(benches);
