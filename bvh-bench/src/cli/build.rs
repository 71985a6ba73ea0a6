//! `bvh-bench build`: build and refit time per preset against parry3d, and OBB fitting compared.

use bvh_bench::parry_bridge;
use bvh_bench::stats::median;
use bvh_build::generate::{MeshBuilder, accumulator_bay, ptu_bay};
use bvh_build::{BuildConfig, Bvh, Hierarchy, ObbFit, Preset};
use bvh_core::{Aabb, Isometry, Obb, Point, TriMesh, Vector};
use parry3d::bounding_volume::Aabb as ParryAabb;
use parry3d::partitioning::{Bvh as ParryBvh, BvhBuildStrategy, BvhWorkspace};
use std::time::Instant;

/// Median wall time in milliseconds of `repeats` runs of `f` on fresh input from `setup`.
fn median_ms<I, O>(repeats: usize, setup: impl Fn() -> I, mut f: impl FnMut(I) -> O) -> f64 {
    let times: Vec<f64> = (0..repeats).map(|_| elapsed_ms(&mut f, setup())).collect();
    median(&times)
}

/// Wall time in milliseconds of one run of `f` on `input`.
fn elapsed_ms<I, O>(mut f: impl FnMut(I) -> O, input: I) -> f64 {
    let start = Instant::now();
    std::hint::black_box(f(input));
    start.elapsed().as_secs_f64() * 1e3
}

/// A timed run: prepares its input, then returns how long its work took ([`elapsed_ms`]).
type TimedRun<'a> = Box<dyn FnMut() -> f64 + 'a>;

/// The median of `repeats` timings of each run, the runs taken in turn once a repeat, so that
/// the machine's drift falls on all alike.
fn medians_in_turn(repeats: usize, runs: &mut [TimedRun<'_>]) -> Vec<f64> {
    let mut times = vec![Vec::with_capacity(repeats); runs.len()];
    for _ in 0..repeats {
        for (run, times) in runs.iter_mut().zip(&mut times) {
            times.push(run());
        }
    }
    times.iter().map(|t| median(t)).collect()
}

/// `bvh-bench build`'s arguments.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// Builds per measurement (the median is reported).
    #[arg(long, default_value_t = 3)]
    repeats: usize,
    /// Skip the PTU meshes (34k, 498k and a million triangles).
    #[arg(long)]
    small: bool,
}

pub(crate) fn run(args: Args) -> Result<(), String> {
    let (repeats, small) = (args.repeats.max(1), args.small);
    let accumulator = accumulator_bay(1);
    let mut meshes = vec![("accumulator", accumulator.part), ("accumulator bay", accumulator.bay)];
    if !small {
        let ptu = ptu_bay(1);
        // About a million triangles: a second bay beside the first.
        let width = ptu.bay.aabb().extents().x * 1.1;
        let mut two = MeshBuilder::new();
        two.add(&ptu.bay, &Isometry::identity())
            .add(&ptu_bay(2).bay, &Isometry::translation(width, 0.0, 0.0));
        meshes.push(("PTU", ptu.part));
        meshes.push(("PTU bay", ptu.bay));
        meshes.push(("two PTU bays", two.finish()));
    }
    println!(
        "Build time, ms (median of {repeats}); ratio = ours / parry3d TriMesh::new, same run; thread pool of {}",
        bvh_core::parallel::current_num_threads()
    );
    print!("{:<16} {:>9}", "mesh", "triangles");
    for preset in Preset::ALL {
        print!(" {:>11}", preset.name);
    }
    println!(
        " {:>11} {:>11} {:>11} {:>9} {:>9}",
        "co 1-thread", "binned 1-th", "parry3d", "co/parry", "binned/p"
    );
    for (name, mesh) in &meshes {
        // Every preset on all threads, co and co-binned on one, then parry3d.
        let mut runs: Vec<TimedRun<'_>> = Preset::ALL
            .into_iter()
            .map(|preset| -> TimedRun<'_> {
                Box::new(move || elapsed_ms(|m| Hierarchy::build(m, &preset), mesh.clone()))
            })
            .collect();
        for preset in [Preset::co(), Preset::co_binned()] {
            let sequential = preset.config.sequential();
            runs.push(Box::new(move || elapsed_ms(|m| Bvh::<Obb>::build(m, &sequential), mesh.clone())));
        }
        runs.push(Box::new(|| {
            elapsed_ms(|(v, i)| parry3d::shape::TriMesh::new(v, i), parry_bridge::mesh_buffers(mesh))
        }));
        let ms = medians_in_turn(repeats, &mut runs);
        let parry = ms[ms.len() - 1];
        let time_of =
            |name: &str| Preset::ALL.iter().position(|p| p.name == name).map_or(f64::NAN, |k| ms[k]);
        print!("{name:<16} {:>9}", mesh.triangle_count());
        ms.iter().for_each(|ms| print!(" {ms:>11.1}"));
        println!(" {:>9.2} {:>9.2}", time_of("co") / parry, time_of("co-binned") / parry);
    }
    println!();
    refit_times(&meshes, repeats);
    println!();
    println!("OBB fitting: one box over all vertices, and the CO tree's summed node volume");
    println!(
        "{:<16} {:<21} {:>10} {:>14} {:>10} {:>16}",
        "mesh", "fit", "box ms", "box volume", "tree ms", "tree volume"
    );
    let fits = [
        ("hull-sampled", ObbFit::hull_sampled()),
        ("hull-sampled, turned", ObbFit::hull_sampled().turned()),
        ("area-weighted hull", ObbFit::area_weighted_hull()),
        ("full PCA", ObbFit::full_pca()),
    ];
    for (name, mesh) in &meshes {
        let corners: Vec<Point> = mesh.triangles().flat_map(|t| t.vertices()).collect();
        for (fit_name, fit) in fits {
            let unpadded = ObbFit { keep_smaller_aabb: false, ..fit };
            let box_ms = median_ms(repeats, || (), |_| unpadded.fit(&corners));
            let volume = unpadded.fit(&corners).volume();
            let config = BuildConfig::co().with_fit(fit);
            let tree_ms = median_ms(repeats, || mesh.clone(), |m| Bvh::<Obb>::build(m, &config));
            let tree: Bvh<Obb> = Bvh::build(TriMesh::clone(mesh), &config);
            println!(
                "{name:<16} {fit_name:<21} {box_ms:>10.2} {volume:>14.4} {tree_ms:>10.1} {:>16.4}",
                tree.total_volume()
            );
        }
    }
    Ok(())
}

/// Refit time after the same smooth deformation: our CO (both constructions) and AABB trees
/// (`Hierarchy::refit`) against parry3d's `Bvh` over the triangles' boxes (each leaf box
/// updated, then `refit`), taken in turn a repeat each, so that the machine's drift falls on
/// all alike.
fn refit_times(meshes: &[(&str, TriMesh)], repeats: usize) {
    println!("Refit to a smooth wave a hundredth of the mesh's size high, ms (median of {repeats})");
    println!(
        "{:<16} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>10}",
        "mesh", "triangles", "co", "co-binned", "aabb", "parry3d", "co/parry", "binned/p", "aabb/parry"
    );
    for (name, mesh) in meshes {
        let waved = waved(mesh);
        let [mut co_tree, mut binned_tree, mut aabb_tree] =
            [Preset::co(), Preset::co_binned(), Preset::aabb_tree()]
                .map(|preset| Hierarchy::build(mesh.clone(), &preset));
        let leaf = |vertices: &[Point], corners: &[u32; 3]| {
            let b = Aabb::from_points(corners.iter().map(|&v| &vertices[v as usize]));
            ParryAabb::new(parry_bridge::vector(&b.mins.coords), parry_bridge::vector(&b.maxs.coords))
        };
        let leaves: Vec<ParryAabb> = mesh.indices().iter().map(|t| leaf(mesh.vertices(), t)).collect();
        let mut parry = ParryBvh::from_leaves(BvhBuildStrategy::Binned, &leaves);
        let mut workspace = BvhWorkspace::default();
        let mut refit_parry = || {
            for (i, t) in mesh.indices().iter().enumerate() {
                parry.insert_or_update_partially(leaf(&waved, t), i as u32, 0.0);
            }
            parry.refit(&mut workspace);
        };
        let mut runs: [TimedRun<'_>; 4] = [
            Box::new(|| elapsed_ms(|()| co_tree.refit(&waved).expect("finite vertices"), ())),
            Box::new(|| elapsed_ms(|()| binned_tree.refit(&waved).expect("finite vertices"), ())),
            Box::new(|| elapsed_ms(|()| aabb_tree.refit(&waved).expect("finite vertices"), ())),
            Box::new(move || elapsed_ms(|()| refit_parry(), ())),
        ];
        let ms = medians_in_turn(repeats, &mut runs);
        let (co, binned, aabb, parry_ms) = (ms[0], ms[1], ms[2], ms[3]);
        println!(
            "{name:<16} {:>9} {co:>9.1} {binned:>9.1} {aabb:>9.1} {parry_ms:>9.1} {:>9.2} {:>9.2} {:>10.2}",
            mesh.triangle_count(),
            co / parry_ms,
            binned / parry_ms,
            aabb / parry_ms
        );
    }
}

/// The mesh's vertices moved by a smooth wave a hundredth of its size high.
fn waved(mesh: &TriMesh) -> Vec<Point> {
    let size = mesh.aabb().extents().norm();
    let k = 6.0 / size;
    let wave = |p: &Point| Vector::new((k * p.y).sin(), (k * p.z).sin(), (k * p.x).sin()) * (0.01 * size);
    mesh.vertices().iter().map(|p| p + wave(p)).collect()
}
