//! `bvh-bench poses`: one query per pose of a pose file (the anchors' format: 12 numbers per
//! line, the row-major 3×4 `[R|t]` placing the part in the scene's frame), timed, counted and
//! compared with parry3d in the same run.

use crate::distance;
use crate::json::{self, fixed, significant};
use crate::toi::{self, MotionKind};
use crate::values::{MeshesAndPoses, PresetName};
use bvh_bench::parry_bridge;
use bvh_bench::stats::{mean, median};
use bvh_bench::timing::{clock_overhead, timed};
use bvh_build::{Hierarchy, Preset};
use bvh_core::{Isometry, TriMesh};
use bvh_query::{
    DistanceOptions, HierarchyQuery, NearPair, PairCache, QueryOptions, QueryStats, Stats, Surfaces,
    TrianglePair,
};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Which question each pose asks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum QueryKind {
    /// Stop at the first intersecting triangle pair.
    Any,
    /// Every intersecting pair.
    All,
    /// Every pair within this distance.
    Within(f32),
    /// The minimum distance and closest points.
    Distance,
    /// The time of impact of each pose's motion to the next.
    Toi,
    /// The contact regions (closed meshes).
    Regions,
}

impl std::str::FromStr for QueryKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "any" => Ok(Self::Any),
            "all" => Ok(Self::All),
            "distance" => Ok(Self::Distance),
            "toi" => Ok(Self::Toi),
            "regions" => Ok(Self::Regions),
            _ => s
                .strip_prefix("within=")
                .and_then(|d| d.parse().ok())
                .filter(|d: &f32| d.is_finite() && *d >= 0.0)
                .map(Self::Within)
                .ok_or_else(|| format!("expected any, all, within=D, distance, toi or regions, got {s}")),
        }
    }
}

impl QueryKind {
    /// Whether the query walks the trees' neighbour lists: contact regions do, and first
    /// contact with a cache (the triangles around the last contact), also the one a cached
    /// distance query starts with.
    fn reads_neighbours(self, cached: bool) -> bool {
        matches!(self, Self::Regions) || (cached && matches!(self, Self::Any | Self::Distance))
    }
}

/// As the command line spells it (`within=0.01`): the JSON's `query`.
impl std::fmt::Display for QueryKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Any => f.write_str("any"),
            Self::All => f.write_str("all"),
            Self::Within(d) => write!(f, "within={d}"),
            Self::Distance => f.write_str("distance"),
            Self::Toi => f.write_str("toi"),
            Self::Regions => f.write_str("regions"),
        }
    }
}

/// Whether the queries use something that never changes their answers (the pair cache, the
/// pre-judge): no, yes, or both ways, timed pose by pose side by side.
#[derive(Clone, Copy, Debug, PartialEq, clap::ValueEnum)]
pub(crate) enum Toggle {
    Off,
    On,
    Both,
}

impl Toggle {
    /// For each variant to time, whether it uses the thing.
    fn ways(self) -> &'static [bool] {
        match self {
            Self::Off => &[false],
            Self::On => &[true],
            Self::Both => &[false, true],
        }
    }
}

/// A mesh file's parts merged into one mesh.
pub(crate) fn load_mesh(path: &Path) -> Result<TriMesh, String> {
    let scene = bvh_io::load(path).map_err(|e| e.to_string())?;
    scene.merged().map_err(|e| format!("{}: {e}", path.display()))
}

/// `bvh-bench poses`' arguments.
#[derive(clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    at: MeshesAndPoses,
    /// The hierarchy preset; several, comma-separated, are timed pose by pose side by side
    /// (one JSON line each).
    #[arg(long, value_enum, value_delimiter = ',', default_value = "co")]
    preset: Vec<PresetName>,
    /// Override the preset's leaf size (most triangles per leaf).
    #[arg(long)]
    leaf_size: Option<usize>,
    /// any (first contact), all (every intersecting pair), within=D (clearance D),
    /// distance (the minimum distance and closest points), toi (the time of impact of
    /// each pose's motion to the next) or regions (the contact regions, closed meshes).
    #[arg(long, default_value = "any")]
    pub(crate) query: QueryKind,
    /// For `toi`: how the part moves from each pose to the next.
    #[arg(long, value_enum, default_value_t = MotionKind::Slerp)]
    pub(crate) motion: MotionKind,
    /// For `toi`: how close counts as an impact (a distance in the meshes' units).
    #[arg(long, default_value_t = 1e-3)]
    pub(crate) tolerance: f32,
    /// For `toi`: check every answer against this many evenly spaced poses of its motion
    /// (the first that touches must not come before the answer) and against the exact
    /// distance at the answer (within the tolerance); counts go in the JSON line and `--out`
    /// gets the first touching sample and the motion's time (µs) beside each answer.
    #[arg(long, default_value_t = 0)]
    pub(crate) verify: u32,
    /// For `distance`: answer "farther" beyond this distance.
    #[arg(long)]
    max_distance: Option<f32>,
    /// For `distance`: an absolute tolerance (the answer is at most (1 + rel) d + abs).
    #[arg(long, default_value_t = 0.0)]
    abs_err: f32,
    /// For `distance`: a relative tolerance.
    #[arg(long, default_value_t = 0.0)]
    rel_err: f32,
    /// For `distance` with `--vs-parry`: how many of the first poses parry's distance query
    /// is timed on (it takes milliseconds to seconds a pose on large meshes).
    #[arg(long, default_value_t = 20)]
    parry_prefix: usize,
    /// Run the OBB pre-judge before the separating axis test (paper 000); `--prejudge both`
    /// times it with and without, pose by pose side by side (one JSON line each).
    #[arg(long, value_enum, default_value = "on")]
    prejudge: Toggle,
    /// Switch overlap-region culling on.
    #[arg(long)]
    region_culling: bool,
    /// Carry a pair cache (the last contact, tried first) from each pose to the next; it
    /// applies to the `any` and `distance` queries. `--cache both` times it with and without,
    /// pose by pose side by side (one JSON line each).
    #[arg(long, value_enum, num_args = 0..=1, default_value = "off", default_missing_value = "on")]
    cache: Toggle,
    /// Repetitions of the whole pose list (the median is reported).
    #[arg(long, default_value_t = 5)]
    pub(crate) reps: usize,
    /// Run each query once untimed right before it is timed, so that it finds what it reads in
    /// the cache: beside a run without, how much of the time is waiting on memory. (With
    /// `--cache` the untimed run would move the cache on: refused.)
    #[arg(long, conflicts_with = "cache")]
    warm: bool,
    /// Also run parry3d on the same poses in the same process: its public
    /// `intersection_test` and a walk of its two BVHs; disagreements are classified by exact
    /// distance.
    #[arg(long)]
    vs_parry: bool,
    /// Write one line per pose: 0/1 for `any`, the number of triangle pairs for `all` and
    /// `within`; for `distance` the distance and the closest points on the scene and on the
    /// part (world frame), or `inf` beyond `--max-distance`; for `regions` the number of
    /// regions; for `toi` one line per motion, its time of impact or `none`.
    #[arg(long)]
    pub(crate) out: Option<PathBuf>,
    /// Split each `all` or `regions` query's traversal across the threads.
    #[arg(long)]
    split: bool,
}

impl Args {
    /// The presets to time, with the leaf size overridden if asked.
    fn presets(&self) -> Vec<Preset> {
        let with_leaves = |mut preset: Preset| {
            if let Some(t) = self.leaf_size {
                preset.config = preset.config.with_leaf_size(t);
            }
            preset
        };
        self.preset.iter().map(|p| with_leaves(p.0)).collect()
    }

    /// The tolerances and limit of `distance` queries.
    fn distance(&self) -> DistanceOptions {
        DistanceOptions::exact()
            .tolerant(self.abs_err, self.rel_err)
            .within(self.max_distance.unwrap_or(f32::INFINITY))
    }
}

/// One timed variant: both objects' trees as a preset builds them, how long each took, and
/// whether their queries carry the cache and run the pre-judge. Each variant has trees of its
/// own: two variants sharing trees would run each other's queries warm.
pub(crate) struct Variant {
    pub(crate) preset: Preset,
    cached: bool,
    pub(crate) prejudge: bool,
    pub(crate) a: Hierarchy,
    pub(crate) b: Hierarchy,
    pub(crate) build_ms: [f64; 2],
}

impl Variant {
    /// `[cached, prejudge]`: whether its `query`s carry the cache and run the pre-judge.
    fn new(
        (scene, part): (&TriMesh, &TriMesh),
        preset: Preset,
        [cached, prejudge]: [bool; 2],
        query: QueryKind,
    ) -> Self {
        let timed = |mesh: &TriMesh| {
            let start = Instant::now();
            let tree = Hierarchy::build(mesh.clone(), &preset);
            (tree, start.elapsed().as_secs_f64() * 1e3)
        };
        let ((a, scene_ms), (b, part_ms)) = (timed(scene), timed(part));
        // Derived once per tree by the first query that reads them: not timed as that query.
        if query.reads_neighbours(cached) {
            a.derive_neighbours();
            b.derive_neighbours();
        }
        Self { preset, cached, prejudge, a, b, build_ms: [scene_ms, part_ms] }
    }

    /// The options its queries run with.
    pub(crate) fn options(&self, args: &Args) -> QueryOptions {
        QueryOptions {
            prejudge: self.prejudge,
            region_culling: args.region_culling,
            ..QueryOptions::default()
        }
    }
}

pub(crate) fn run(args: Args) -> Result<(), String> {
    let args = &args;
    let (scene, part, poses) = args.at.load()?;
    let variants: Vec<Variant> = args
        .presets()
        .iter()
        .flat_map(|&p| args.cache.ways().iter().map(move |&cached| (p, cached)))
        .flat_map(|(p, cached)| args.prejudge.ways().iter().map(move |&prejudge| (p, [cached, prejudge])))
        .map(|(p, ways)| Variant::new((&scene, &part), p, ways, args.query))
        .collect();
    if args.vs_parry && matches!(args.query, QueryKind::Within(_) | QueryKind::Toi | QueryKind::Regions) {
        // parry3d has no query doing that work: a ratio would compare different questions.
        return Err(format!(
            "--vs-parry compares any, all and distance; parry3d has no {} query",
            args.query
        ));
    }
    let parry = if args.vs_parry { Some(ParryMeshes::build(&scene, &part, &poses)?) } else { None };
    if args.query == QueryKind::Distance {
        return distance_run(&variants, (&scene, &part), &poses, args, parry.as_ref());
    }
    if args.query == QueryKind::Toi {
        return toi::run_motions(&variants, &poses, args);
    }
    let (ours, parry_measured) = measure(&variants, &poses, args, parry.as_ref());
    if let (Some(out), Some(first)) = (&args.out, ours.first()) {
        let lines: String = first.results.iter().map(|r| format!("{r}\n")).collect();
        std::fs::write(out, lines).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    for (variant, ours) in variants.iter().zip(&ours) {
        let versus = match (&parry, &parry_measured) {
            (Some(meshes), Some(parry)) => {
                Some(versus_parry(variant, ours, meshes, parry, &part, &poses, args.query))
            }
            _ => None,
        };
        json::print_line(&Line { ours: report(variant, ours, &poses, args), distance: None, parry: versus })?;
    }
    Ok(())
}

/// The distance query on every variant: timed as the others (parry's walk is not a distance
/// query, so parry's `query::distance` is timed on its own, on the first poses only), then the
/// answers of the first variant gathered untimed for `--out` and the comparison.
fn distance_run(
    variants: &[Variant],
    (scene, part): (&TriMesh, &TriMesh),
    poses: &[Isometry],
    args: &Args,
    parry: Option<&ParryMeshes>,
) -> Result<(), String> {
    let (ours, _) = measure(variants, poses, args, None);
    let first = variants.first().ok_or("no preset")?;
    let answers: Vec<Option<NearPair>> = poses
        .iter()
        .map(|pose| at_pose(&first.a, &first.b, pose, QueryOptions::default()).distance(args.distance()))
        .collect();
    if let Some(out) = &args.out {
        std::fs::write(out, distance::lines(&answers)).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    let compared = parry.map(|meshes| {
        let prefix = args.parry_prefix.min(poses.len());
        distance::versus_parry(meshes, &answers[..prefix], args.reps, |k| {
            let candidates = candidates(&first.a, &first.b, &poses[k]);
            distance::reference(scene, part, &poses[k], &candidates)
        })
    });
    for (variant, ours) in variants.iter().zip(&ours) {
        json::print_line(&Line {
            ours: report(variant, ours, poses, args),
            distance: Some(distance::summary(&answers, &args.distance())),
            parry: compared.as_ref().map(|parry| parry.record(&ours.times.per_pose)),
        })?;
    }
    Ok(())
}

/// One JSON line: our figures for one preset, what the query adds, and parry's beside them.
#[derive(Serialize)]
struct Line<P: Serialize> {
    #[serde(flatten)]
    ours: Report,
    #[serde(flatten)]
    distance: Option<distance::Summary>,
    #[serde(flatten)]
    parry: Option<P>,
}

/// Our figures for one preset.
#[derive(Serialize)]
struct Report {
    preset: &'static str,
    query: String,
    prejudge: bool,
    region_culling: bool,
    cache: bool,
    split: bool,
    warm: bool,
    poses: usize,
    build_ms_scene: f64,
    build_ms_part: f64,
    clock_overhead_us: f64,
    query_us_mean: f64,
    query_us_median: f64,
    colliding: usize,
    results_total: usize,
    volume_tests_mean: f64,
    volume_tests_by_kind_mean: ByKind,
    front_mean: f64,
    prejudge_overlap: u64,
    prejudge_disjoint: u64,
    prejudge_undecided: u64,
    triangle_tests_mean: f64,
}

/// Volume tests per query by the test that decided them.
#[derive(Serialize)]
struct ByKind {
    root: f64,
    node_box: f64,
    nodes: f64,
    leaf: f64,
}

fn report(variant: &Variant, ours: &Measured, poses: &[Isometry], args: &Args) -> Report {
    let n = poses.len().max(1) as f64;
    let per_query = |count: u64, decimals| fixed(count as f64 / n, decimals);
    let [build_ms_scene, build_ms_part] = variant.build_ms;
    let stats = &ours.stats;
    Report {
        preset: variant.preset.name,
        query: args.query.to_string(),
        prejudge: variant.prejudge,
        region_culling: args.region_culling,
        cache: variant.cached,
        split: args.split,
        warm: args.warm,
        poses: poses.len(),
        build_ms_scene: fixed(build_ms_scene, 1),
        build_ms_part: fixed(build_ms_part, 1),
        clock_overhead_us: fixed(clock_overhead() * 1e6, 3),
        query_us_mean: fixed(ours.times.mean(), 3),
        query_us_median: fixed(ours.times.median(), 3),
        colliding: ours.results.iter().filter(|&&r| r > 0).count(),
        results_total: ours.results.iter().sum(),
        volume_tests_mean: per_query(stats.volume_tests(), 1),
        volume_tests_by_kind_mean: ByKind {
            root: per_query(stats.root_tests, 2),
            node_box: per_query(stats.node_box_tests, 1),
            nodes: per_query(stats.node_tests, 1),
            leaf: per_query(stats.leaf_tests, 1),
        },
        front_mean: per_query(stats.front, 1),
        prejudge_overlap: stats.prejudge_overlap,
        prejudge_disjoint: stats.prejudge_disjoint,
        prejudge_undecided: stats.prejudge_undecided,
        triangle_tests_mean: per_query(stats.triangle_tests, 1),
    }
}

/// parry's figures beside one preset's, and where the two disagree.
#[derive(Serialize)]
struct VersusParry {
    parry_build_ms_scene: f64,
    parry_build_ms_part: f64,
    parry_query_us_mean: f64,
    parry_query_us_median: f64,
    parry_bvtt_query_us_mean: f64,
    parry_bvtt_query_us_median: f64,
    parry_colliding: usize,
    ratio_parry_over_ours: f64,
    ratio_parry_bvtt_over_ours: f64,
    ours_over_parry_pose_median: f64,
    ours_over_parry_bvtt_pose_median: f64,
    #[serde(flatten)]
    disagreements: Option<Disagreements>,
}

/// Poses where parry's yes/no differs from ours, each with the exact distance there.
#[derive(Serialize)]
struct Disagreements {
    disagreements: usize,
    disagreement_details: Vec<Disagreement>,
}

/// One pose where the answers differ: who says they touch, and how far apart they are.
#[derive(Serialize)]
struct Disagreement {
    pose: usize,
    only: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    exact_distance: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    exact_distance_over: Option<f64>,
}

fn versus_parry(
    variant: &Variant,
    ours: &Measured,
    meshes: &ParryMeshes,
    parry: &ParryMeasured,
    part: &TriMesh,
    poses: &[Isometry],
    query: QueryKind,
) -> VersusParry {
    // parry answers "do they touch": compared with ours for `any` and `all`, each disagreement
    // classified by the exact distance at that pose (up to 1 % of the part's size; farther is
    // reported as that bound).
    let disagreements = (!matches!(query, QueryKind::Within(_))).then(|| {
        let horizon = part.aabb().extents().norm() * 0.01;
        let details: Vec<Disagreement> = (0..poses.len())
            .filter(|&k| parry.hits[k] != (ours.results[k] > 0))
            .map(|k| {
                let options = DistanceOptions::exact().within(horizon);
                let gap = at_pose(&variant.a, &variant.b, &poses[k], QueryOptions::default())
                    .distance(options)
                    .map(|n| significant(n.distance as f64, 4));
                let only = if parry.hits[k] { "parry" } else { "bvh" };
                let over = gap.is_none().then(|| significant(horizon as f64, 4));
                Disagreement { pose: k, only, exact_distance: gap, exact_distance_over: over }
            })
            .collect();
        Disagreements { disagreements: details.len(), disagreement_details: details }
    });
    VersusParry {
        parry_build_ms_scene: fixed(meshes.build_ms_scene, 1),
        parry_build_ms_part: fixed(meshes.build_ms_part, 1),
        parry_query_us_mean: fixed(parry.public.mean(), 3),
        parry_query_us_median: fixed(parry.public.median(), 3),
        parry_bvtt_query_us_mean: fixed(parry.bvtt.mean(), 3),
        parry_bvtt_query_us_median: fixed(parry.bvtt.median(), 3),
        parry_colliding: parry.hits.iter().filter(|&&h| h).count(),
        ratio_parry_over_ours: fixed(parry.public.median() / ours.times.median(), 2),
        ratio_parry_bvtt_over_ours: fixed(parry.bvtt.median() / ours.times.median(), 2),
        ours_over_parry_pose_median: fixed(ours.times.pose_ratio_median(&parry.public), 4),
        ours_over_parry_bvtt_pose_median: fixed(ours.times.pose_ratio_median(&parry.bvtt), 3),
        disagreements,
    }
}

/// Per-query times: each pose's median over the repetitions (µs), in pose order.
#[derive(Clone, Debug)]
pub(crate) struct QueryTimes {
    pub(crate) per_pose: Vec<f64>,
}

impl QueryTimes {
    /// From `per_pose[k]`, the times of pose `k` over the repetitions (seconds).
    pub(crate) fn of(per_pose: &[Vec<f64>]) -> Self {
        Self { per_pose: per_pose.iter().map(|t| median(t) * 1e6).collect() }
    }

    /// The mean over the poses.
    pub(crate) fn mean(&self) -> f64 {
        mean(&self.per_pose)
    }

    /// The median over the poses.
    pub(crate) fn median(&self) -> f64 {
        median(&self.per_pose)
    }

    /// The median over the poses of this time divided by `peer`'s at the same pose: how the two
    /// compare on a typical pose, where the ratio of means weighs the slowest poses most.
    fn pose_ratio_median(&self, peer: &QueryTimes) -> f64 {
        let ratios: Vec<f64> = self.per_pose.iter().zip(&peer.per_pose).map(|(t, p)| t / p).collect();
        median(&ratios)
    }
}

/// Times each pose over `reps` repetitions of the whole list (in file order, so a cache carried
/// from pose to pose sees a path), running every one of `queries` on a pose before the next
/// pose, first one in turn: the machine's drift then falls alike on all of them (run one after
/// the other, ours and parry's ratio moved 0.44-0.74 between runs on this shared machine).
/// Each time is the query's alone, without the clock's reading (`timing::timed`); `warm` runs
/// each query once untimed right before. Returns each query's times and per-pose results, in
/// order.
pub(crate) fn time_poses<T: Clone + Default>(
    count: usize,
    reps: usize,
    warm: bool,
    queries: &mut [&mut dyn FnMut(usize) -> T],
) -> Vec<(QueryTimes, Vec<T>)> {
    let n = queries.len();
    let mut per_pose = vec![vec![Vec::with_capacity(reps); count]; n];
    let mut results = vec![vec![T::default(); count]; n];
    for rep in 0..reps.max(1) {
        for k in 0..count {
            for q in (0..n).map(|i| (i + k + rep) % n) {
                if warm {
                    queries[q](k);
                }
                let (result, seconds) = timed(|| queries[q](k));
                results[q][k] = result;
                per_pose[q][k].push(seconds);
            }
        }
    }
    per_pose.iter().map(|times| QueryTimes::of(times)).zip(results).collect()
}

struct Measured {
    times: QueryTimes,
    /// Per pose: 0/1 for `any`, the number of pairs for `all` and `within`.
    results: Vec<usize>,
    stats: QueryStats,
}

/// Times the pose list on every variant's trees and on parry's walk if given, pose by pose side
/// by side, then parry's public test on its own (it goes through whole meshes, about 160 us a
/// pose: beside the others it left every query cold, ours 4.2 -> 6.0 us and parry's walk
/// 7.0 -> 8.1 on bunny/bracket); gathers our statistics in an untimed pass.
fn measure(
    variants: &[Variant],
    poses: &[Isometry],
    args: &Args,
    parry: Option<&ParryMeshes>,
) -> (Vec<Measured>, Option<ParryMeasured>) {
    let mut caches = vec![PairCache::new(); variants.len()];
    let mut ours: Vec<_> = variants
        .iter()
        .zip(&mut caches)
        .map(|(trees, cache)| {
            move |k: usize| {
                if k == 0 {
                    // Each repetition starts cold: the cache only carries over from one pose to
                    // the next.
                    cache.clear();
                }
                let cache = trees.cached.then_some(&mut *cache);
                answer(trees, &poses[k], args, args.split, cache, &mut ())
            }
        })
        .collect();
    let mut queries: Vec<&mut dyn FnMut(usize) -> usize> =
        ours.iter_mut().map(|q| q as &mut dyn FnMut(usize) -> usize).collect();
    let mut bvtt =
        parry.map(|p| move |k: usize| usize::from(parry_bridge::bvtt_intersects(&p.a, &p.b, &p.poses[k])));
    if let Some(bvtt) = &mut bvtt {
        queries.push(bvtt);
    }
    let mut timed = time_poses(poses.len(), args.reps, args.warm, &mut queries);
    let parry = parry.map(|p| {
        let mut public = |k: usize| usize::from(parry_bridge::intersects(&p.a, &p.b, &p.poses[k]));
        let (public, hits) = time_poses(poses.len(), args.reps, args.warm, &mut [&mut public]).remove(0);
        let (bvtt, _) = timed.remove(variants.len());
        ParryMeasured { public, bvtt, hits: hits.into_iter().map(|h| h > 0).collect() }
    });
    let measured = variants
        .iter()
        .zip(timed)
        .map(|(trees, (times, results))| {
            let (mut stats, mut cache) = (QueryStats::default(), PairCache::new());
            for pose in poses {
                let cache = trees.cached.then_some(&mut cache);
                answer(trees, pose, args, false, cache, &mut stats);
            }
            Measured { times, results, stats }
        })
        .collect();
    (measured, parry)
}

/// Runs the variant's query with B at `pose`: 0/1 for `any`, the number of pairs for `all` and
/// `within`, the number of regions for `regions`; `all` and `regions` split across the threads
/// when `parallel` (the split traversal counts nothing).
fn answer(
    variant: &Variant,
    pose: &Isometry,
    args: &Args,
    parallel: bool,
    cache: Option<&mut PairCache>,
    stats: &mut impl Stats,
) -> usize {
    let q = at_pose(&variant.a, &variant.b, pose, variant.options(args));
    match args.query {
        QueryKind::Any => usize::from(q.intersects_counted(cache, stats).is_some()),
        QueryKind::All if parallel => q.intersecting_pairs_parallel().len(),
        QueryKind::All => q.intersecting_pairs_counted(stats).len(),
        QueryKind::Within(d) => q.pairs_within_counted(d, stats).len(),
        QueryKind::Distance => {
            usize::from(q.distance_counted(args.distance(), cache, stats).is_some_and(|n| n.distance == 0.0))
        }
        QueryKind::Regions if parallel => q.contact_regions_parallel(Surfaces::Closed).len(),
        QueryKind::Regions => q.contact_regions_counted(Surfaces::Closed, stats).len(),
        QueryKind::Toi => unreachable!("toi queries take motions, run by toi::run_motions"),
    }
}

/// The triangle pairs that may be the nearest at `pose`: those within our distance and a hair,
/// for the `f64` reference ([`distance::reference`]).
fn candidates(a: &Hierarchy, b: &Hierarchy, pose: &Isometry) -> Vec<TrianglePair> {
    let q = at_pose(a, b, pose, QueryOptions::default());
    let Some(nearest) = q.distance(DistanceOptions::exact()) else {
        return Vec::new();
    };
    let within = nearest.distance * (1.0 + 1e-4) + 1e-6 * (1.0 + pose.translation.vector.norm());
    q.pairs_within(within).into_iter().map(|n| n.pair).collect()
}

/// The query between the scene at the origin and the part at `pose`.
pub(crate) fn at_pose<'a>(
    a: &'a Hierarchy,
    b: &'a Hierarchy,
    pose: &Isometry,
    options: QueryOptions,
) -> HierarchyQuery<'a> {
    HierarchyQuery::new(a, Isometry::identity(), b, pose, options)
}

/// parry3d's meshes (with their BVHs) over the same geometry, and the poses in its types.
pub(crate) struct ParryMeshes {
    pub(crate) a: parry3d::shape::TriMesh,
    pub(crate) b: parry3d::shape::TriMesh,
    pub(crate) poses: Vec<parry3d::math::Pose>,
    build_ms_scene: f64,
    build_ms_part: f64,
}

impl ParryMeshes {
    fn build(scene: &TriMesh, part: &TriMesh, poses: &[Isometry]) -> Result<Self, String> {
        let build = |m: &TriMesh| {
            let start = Instant::now();
            let mesh = parry_bridge::trimesh(m)?;
            Ok::<_, String>((mesh, start.elapsed().as_secs_f64() * 1e3))
        };
        let ((a, build_ms_scene), (b, build_ms_part)) = (build(scene)?, build(part)?);
        let poses = poses.iter().map(parry_bridge::pose).collect();
        Ok(Self { a, b, poses, build_ms_scene, build_ms_part })
    }
}

/// parry3d on the same poses, both ways: its public `intersection_test`, and the fastest thing
/// it offers, a simultaneous walk of its two BVHs with its triangle test.
struct ParryMeasured {
    public: QueryTimes,
    bvtt: QueryTimes,
    hits: Vec<bool>,
}
