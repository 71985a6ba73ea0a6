//! `bvh-bench broadphase`: our strategies against parry3d's `Bvh` on the same moving boxes in one
//! run: per-step medians, the ratios, and a check that every back-end finds the same pairs.

use crate::json::{self, fixed};
use bvh_bench::boxes::{BoxScene, Layout};
use bvh_bench::broadphase_peers::{BoxBroadphase, ParryBroadphase, ParryRefit};
use bvh_bench::stats::{mean, median};
use bvh_broadphase::{Broadphase, BruteForce, CellSide, HierarchicalGrid, Octree, UniformGrid};
use serde::Serialize;
use std::time::Instant;

/// `bvh-bench broadphase`'s arguments.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// Box counts, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "1000,10000,100000")]
    sizes: Vec<usize>,
    /// Fractions of the boxes moving per step, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "0.01,1")]
    moving: Vec<f64>,
    /// Steps per run.
    #[arg(long, default_value_t = 50)]
    steps: usize,
    /// Seed of the scene and the motion.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Gather the boxes in clusters instead of spreading them uniformly.
    #[arg(long)]
    clustered: bool,
    /// Largest box count brute force runs at.
    #[arg(long, default_value_t = 10_000)]
    brute_max: usize,
    /// Grid cell side in mean box extents (paper 004: 1).
    #[arg(long, default_value_t = 1.0)]
    grid_cell: f32,
    /// Octree top cell side in mean box extents.
    #[arg(long, default_value_t = 4.0)]
    octree_cell: f32,
    /// Octree F_max (most boxes per leaf unless a split makes no progress).
    #[arg(long, default_value_t = 8)]
    octree_leaf: usize,
    /// Worker threads for our strategies (parry3d's `Bvh` uses one; default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// One JSON line per back-end instead of the table.
    #[arg(long)]
    json: bool,
}

impl Args {
    fn layout(&self) -> Layout {
        if self.clustered { Layout::Clustered } else { Layout::Uniform }
    }
}

/// The JSON line of one back-end at one size and motion.
#[derive(Serialize)]
struct Record {
    layout: String,
    objects: usize,
    moving: f64,
    backend: &'static str,
    build_ms: f64,
    step_ms_median: f64,
    step_ms_mean: f64,
    pairs_mean: usize,
    agrees: bool,
}

struct Outcome {
    name: &'static str,
    build_ms: f64,
    step_ms: Vec<f64>,
    pairs: usize,
    /// Sorted pair list per step (step 0 = after the build), hashed.
    hashes: Vec<u64>,
}

pub(crate) fn run(args: Args) -> Result<(), String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .map_err(|e| format!("thread pool: {e}"))?;
    pool.install(|| measure_all(&args))
}

fn measure_all(args: &Args) -> Result<(), String> {
    let grid = UniformGrid::new(CellSide::MeanExtents(args.grid_cell));
    let octree = Octree::new(CellSide::MeanExtents(args.octree_cell), args.octree_leaf);
    if !args.json {
        println!(
            "| boxes | moving | back-end | build ms | step median ms | step mean ms | pairs | same pairs as the first | parry refit / this |"
        );
        println!("|---:|---:|---|---:|---:|---:|---:|---|---:|");
    }
    for &n in &args.sizes {
        for &fraction in &args.moving {
            let mut backends: Vec<(&'static str, Box<dyn BoxBroadphase>)> = Vec::new();
            if n <= args.brute_max {
                backends.push(("brute", Box::new(Broadphase::new(BruteForce))));
            }
            backends.push(("hierarchical", Box::new(Broadphase::new(HierarchicalGrid::default()))));
            backends.push(("grid", Box::new(Broadphase::new(grid.clone()))));
            backends.push(("octree", Box::new(Broadphase::new(octree.clone()))));
            backends.push(("parry_refit", Box::new(ParryBroadphase::new(ParryRefit::Full))));
            backends.push(("parry_partial", Box::new(ParryBroadphase::new(ParryRefit::Partial))));
            let outcomes: Vec<Outcome> = backends
                .into_iter()
                .map(|(name, backend)| measure(name, backend, args, n, fraction))
                .collect();
            report(&outcomes, args.layout(), n, fraction, args.json)?;
        }
    }
    Ok(())
}

fn measure(
    name: &'static str,
    mut backend: Box<dyn BoxBroadphase>,
    args: &Args,
    n: usize,
    fraction: f64,
) -> Outcome {
    let mut scene = BoxScene::new(args.layout(), n, args.seed);
    let mut pairs = Vec::new();
    let start = Instant::now();
    backend.build(&scene.boxes(), &mut pairs);
    let build_ms = start.elapsed().as_secs_f64() * 1e3;
    let mut hashes = vec![hash_sorted(&mut pairs)];
    let mut step_ms = Vec::new();
    let mut total_pairs = 0;
    for _ in 0..args.steps {
        let moved = scene.step(fraction);
        let start = Instant::now();
        backend.step(&moved, &mut pairs);
        step_ms.push(start.elapsed().as_secs_f64() * 1e3);
        total_pairs += pairs.len();
        hashes.push(hash_sorted(&mut pairs));
    }
    Outcome { name, build_ms, step_ms, pairs: total_pairs / args.steps.max(1), hashes }
}

/// FNV-1a over the pairs, each as `(min, max)`, sorted.
fn hash_sorted(pairs: &mut [(u32, u32)]) -> u64 {
    for p in pairs.iter_mut() {
        *p = (p.0.min(p.1), p.0.max(p.1));
    }
    pairs.sort_unstable();
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &(a, b) in pairs.iter() {
        for byte in a.to_le_bytes().into_iter().chain(b.to_le_bytes()) {
            h = (h ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3);
        }
    }
    h ^ pairs.len() as u64
}

fn report(outcomes: &[Outcome], layout: Layout, n: usize, fraction: f64, json: bool) -> Result<(), String> {
    let reference = &outcomes[0];
    let parry = outcomes.iter().find(|o| o.name == "parry_refit").map(|o| median(&o.step_ms));
    for o in outcomes {
        let med = median(&o.step_ms);
        let mean = mean(&o.step_ms);
        let agrees = o.hashes == reference.hashes;
        let ratio = parry.map_or(f64::NAN, |p| p / med);
        if json {
            json::print_line(&Record {
                layout: format!("{layout:?}"),
                objects: n,
                moving: fraction,
                backend: o.name,
                build_ms: fixed(o.build_ms, 3),
                step_ms_median: fixed(med, 5),
                step_ms_mean: fixed(mean, 5),
                pairs_mean: o.pairs,
                agrees,
            })?;
            continue;
        }
        println!(
            "| {n} | {:.0}% | {} | {:.2} | {med:.4} | {mean:.4} | {} | {} | {ratio:.2} |",
            fraction * 100.0,
            o.name,
            o.build_ms,
            o.pairs,
            if agrees { "yes" } else { "**NO**" }
        );
    }
    Ok(())
}
