//! `bvh-bench poses`: one query per pose of a pose file (the anchors' format: 12 numbers per
//! line, the row-major 3×4 `[R|t]` placing the part in the scene's frame), timed, counted and
//! compared with parry3d in the same run.

use crate::distance;
use crate::toi::{self, MotionKind};
use bvh_bench::parry_bridge;
use bvh_bench::pose_file::read_poses;
use bvh_bench::stats::{mean, median};
use bvh_bench::timing::{clock_overhead, timed};
use bvh_build::{Bvh, Hierarchy, NodeVolume, Preset};
use bvh_core::{Isometry, TriMesh};
use bvh_query::{
    DistanceOptions, NearPair, NodeTest, PairCache, Posed, Query, QueryOptions, QueryStats, Stats, Surfaces,
    TreePairVisitor, TrianglePair, visit_tree_pair,
};
use std::path::Path;
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

/// Whether each pose's query carries a pair cache from the pose before.
#[derive(Clone, Copy, Debug, PartialEq, clap::ValueEnum)]
pub(crate) enum CacheMode {
    Off,
    On,
    /// Both ways, timed pose by pose side by side.
    Both,
}

impl CacheMode {
    /// For each variant to time, whether it carries the cache.
    fn carried(self) -> &'static [bool] {
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

pub(crate) struct Args<'a> {
    pub(crate) scene: &'a Path,
    pub(crate) part: &'a Path,
    pub(crate) poses: &'a Path,
    /// One or more presets; several are timed pose by pose side by side, one line each.
    pub(crate) presets: Vec<Preset>,
    pub(crate) query: QueryKind,
    /// Tolerances and limit of `distance` queries.
    pub(crate) distance: DistanceOptions,
    /// How many of the first poses parry's distance query is timed on (it is slow).
    pub(crate) parry_prefix: usize,
    /// How `toi` moves the part from each pose to the next, and its tolerance.
    pub(crate) motion: MotionKind,
    pub(crate) tolerance: f32,
    /// Samples per motion `toi` answers are checked against (none when zero).
    pub(crate) verify: u32,
    pub(crate) prejudge: bool,
    pub(crate) region_culling: bool,
    pub(crate) cache: CacheMode,
    pub(crate) reps: usize,
    pub(crate) vs_parry: bool,
    pub(crate) out: Option<&'a Path>,
    /// Split each `all` or `regions` query's traversal across the threads.
    pub(crate) split: bool,
}

/// One timed variant: both objects' trees as a preset builds them, how long each took, and
/// whether their queries carry the cache. Each variant has trees of its own: two variants
/// sharing trees would run each other's queries warm.
pub(crate) struct Variant {
    pub(crate) preset: Preset,
    cached: bool,
    pub(crate) a: Hierarchy,
    pub(crate) b: Hierarchy,
    pub(crate) build_ms: [f64; 2],
}

impl Variant {
    fn new(scene: &TriMesh, part: &TriMesh, preset: Preset, cached: bool) -> Self {
        let timed = |mesh: &TriMesh| {
            let start = Instant::now();
            let tree = Hierarchy::build(mesh.clone(), &preset);
            (tree, start.elapsed().as_secs_f64() * 1e3)
        };
        let ((a, scene_ms), (b, part_ms)) = (timed(scene), timed(part));
        Self { preset, cached, a, b, build_ms: [scene_ms, part_ms] }
    }
}

pub(crate) fn run(args: &Args<'_>) -> Result<(), String> {
    let (scene, part) = (load_mesh(args.scene)?, load_mesh(args.part)?);
    let poses = read_poses(args.poses)?;
    let variants: Vec<Variant> = args
        .presets
        .iter()
        .flat_map(|&p| args.cache.carried().iter().map(move |&cached| (p, cached)))
        .map(|(p, cached)| Variant::new(&scene, &part, p, cached))
        .collect();
    let parry = if args.vs_parry { Some(ParryMeshes::build(&scene, &part, &poses)?) } else { None };
    if args.query == QueryKind::Distance {
        return distance_run(&variants, (&scene, &part), &poses, args, parry.as_ref());
    }
    if args.query == QueryKind::Toi {
        return toi::run_motions(&variants, &poses, args);
    }
    let (ours, parry_measured) = measure(&variants, &poses, args, parry.as_ref());
    if let (Some(out), Some(first)) = (args.out, ours.first()) {
        let lines: String = first.results.iter().map(|r| format!("{r}\n")).collect();
        std::fs::write(out, lines).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    for (variant, ours) in variants.iter().zip(&ours) {
        let mut json = report(variant, ours, &poses, args);
        if let (Some(meshes), Some(parry)) = (&parry, &parry_measured) {
            json += &versus_parry(variant, ours, meshes, parry, &part, &poses, args.query);
        }
        println!("{json}}}");
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
    args: &Args<'_>,
    parry: Option<&ParryMeshes>,
) -> Result<(), String> {
    let (ours, _) = measure(variants, poses, args, None);
    let first = variants.first().ok_or("no preset")?;
    let answers: Vec<Option<NearPair>> = poses
        .iter()
        .map(|pose| visit_tree_pair(&first.a, &first.b, Nearest { pose, options: args.distance }))
        .collect();
    if let Some(out) = args.out {
        std::fs::write(out, distance::lines(&answers)).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    let compared = parry.map(|meshes| {
        let prefix = args.parry_prefix.min(poses.len());
        distance::versus_parry(meshes, &answers[..prefix], args.reps, |k| {
            let candidates = visit_tree_pair(&first.a, &first.b, Candidates { pose: &poses[k] });
            distance::reference(scene, part, &poses[k], &candidates)
        })
    });
    for (variant, ours) in variants.iter().zip(&ours) {
        let mut json = report(variant, ours, poses, args);
        json += &distance::summary(&answers, &args.distance);
        if let Some(parry) = &compared {
            json += &parry.json(&ours.times.per_pose);
        }
        println!("{json}}}");
    }
    Ok(())
}

/// The JSON line's fields for one preset (without the closing brace).
fn report(variant: &Variant, ours: &Measured, poses: &[Isometry], args: &Args<'_>) -> String {
    let n = poses.len().max(1) as f64;
    let colliding = ours.results.iter().filter(|&&r| r > 0).count();
    let [build_ms_scene, build_ms_part] = variant.build_ms;
    format!(
        "{{\"preset\":\"{}\",\"query\":\"{}\",\"prejudge\":{},\"region_culling\":{},\"cache\":{},\"split\":{},\"poses\":{},\"build_ms_scene\":{build_ms_scene:.1},\"build_ms_part\":{build_ms_part:.1},\"clock_overhead_us\":{:.3},\"query_us_mean\":{:.3},\"query_us_median\":{:.3},\"colliding\":{colliding},\"results_total\":{},\"volume_tests_mean\":{:.1},\"volume_tests_by_kind_mean\":{{\"root\":{:.2},\"node_box\":{:.1},\"nodes\":{:.1},\"leaf_box\":{:.1}}},\"front_mean\":{:.1},\"prejudge_overlap\":{},\"prejudge_disjoint\":{},\"prejudge_undecided\":{},\"triangle_tests_mean\":{:.1}",
        variant.preset.name,
        args.query,
        args.prejudge,
        args.region_culling,
        variant.cached,
        args.split,
        poses.len(),
        clock_overhead() * 1e6,
        ours.times.mean(),
        ours.times.median(),
        ours.results.iter().sum::<usize>(),
        ours.stats.volume_tests() as f64 / n,
        ours.stats.root_tests as f64 / n,
        ours.stats.node_box_tests as f64 / n,
        ours.stats.node_tests as f64 / n,
        ours.stats.leaf_box_tests as f64 / n,
        ours.stats.front as f64 / n,
        ours.stats.prejudge_overlap,
        ours.stats.prejudge_disjoint,
        ours.stats.prejudge_undecided,
        ours.stats.triangle_tests as f64 / n,
    )
}

/// parry's figures beside one preset's, and where the two disagree.
fn versus_parry(
    variant: &Variant,
    ours: &Measured,
    meshes: &ParryMeshes,
    parry: &ParryMeasured,
    part: &TriMesh,
    poses: &[Isometry],
    query: QueryKind,
) -> String {
    let mut json = format!(
        ",\"parry_build_ms_scene\":{:.1},\"parry_build_ms_part\":{:.1},\"parry_query_us_mean\":{:.3},\"parry_query_us_median\":{:.3},\"parry_bvtt_query_us_mean\":{:.3},\"parry_bvtt_query_us_median\":{:.3},\"parry_colliding\":{},\"ratio_parry_over_ours\":{:.2},\"ratio_parry_bvtt_over_ours\":{:.2},\"ours_over_parry_pose_median\":{:.4},\"ours_over_parry_bvtt_pose_median\":{:.3}",
        meshes.build_ms_scene,
        meshes.build_ms_part,
        parry.public.mean(),
        parry.public.median(),
        parry.bvtt.mean(),
        parry.bvtt.median(),
        parry.hits.iter().filter(|&&h| h).count(),
        parry.public.median() / ours.times.median(),
        parry.bvtt.median() / ours.times.median(),
        ours.times.pose_ratio_median(&parry.public),
        ours.times.pose_ratio_median(&parry.bvtt),
    );
    // parry answers "do they touch": compared with ours for `any` and `all`, each disagreement
    // classified by the exact distance at that pose (up to 1 % of the part's size; farther is
    // reported as that bound).
    if !matches!(query, QueryKind::Within(_)) {
        let horizon = part.aabb().extents().norm() * 0.01;
        let details: Vec<String> = (0..poses.len())
            .filter(|&k| parry.hits[k] != (ours.results[k] > 0))
            .map(|k| {
                let options = DistanceOptions::exact().within(horizon);
                let gap = visit_tree_pair(&variant.a, &variant.b, Nearest { pose: &poses[k], options })
                    .map(|n| n.distance);
                let only = if parry.hits[k] { "parry" } else { "bvh" };
                gap.map_or(
                    format!("{{\"pose\":{k},\"only\":\"{only}\",\"exact_distance_over\":{horizon:.3e}}}"),
                    |d| format!("{{\"pose\":{k},\"only\":\"{only}\",\"exact_distance\":{d:.3e}}}"),
                )
            })
            .collect();
        json +=
            &format!(",\"disagreements\":{},\"disagreement_details\":[{}]", details.len(), details.join(","));
    }
    json
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
/// Each time is the query's alone, without the clock's reading (`timing::timed`). Returns each
/// query's times and per-pose results, in order.
pub(crate) fn time_poses<T: Clone + Default>(
    count: usize,
    reps: usize,
    queries: &mut [&mut dyn FnMut(usize) -> T],
) -> Vec<(QueryTimes, Vec<T>)> {
    let n = queries.len();
    let mut per_pose = vec![vec![Vec::with_capacity(reps); count]; n];
    let mut results = vec![vec![T::default(); count]; n];
    for rep in 0..reps.max(1) {
        for k in 0..count {
            for q in (0..n).map(|i| (i + k + rep) % n) {
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
    args: &Args<'_>,
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
                visit_tree_pair(&trees.a, &trees.b, Answer { pose: &poses[k], args, cache })
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
    let mut timed = time_poses(poses.len(), args.reps, &mut queries);
    let parry = parry.map(|p| {
        let mut public = |k: usize| usize::from(parry_bridge::intersects(&p.a, &p.b, &p.poses[k]));
        let (public, hits) = time_poses(poses.len(), args.reps, &mut [&mut public]).remove(0);
        let (bvtt, _) = timed.remove(variants.len());
        ParryMeasured { public, bvtt, hits: hits.into_iter().map(|h| h > 0).collect() }
    });
    let measured = variants
        .iter()
        .zip(timed)
        .map(|(trees, (times, results))| {
            let stats = visit_tree_pair(&trees.a, &trees.b, Counted { poses, args, cached: trees.cached });
            Measured { times, results, stats }
        })
        .collect();
    (measured, parry)
}

/// One query at one pose, uncounted: 0/1 for `any`, the number of pairs for `all` and
/// `within`.
struct Answer<'a> {
    pose: &'a Isometry,
    args: &'a Args<'a>,
    cache: Option<&'a mut PairCache>,
}

impl TreePairVisitor for Answer<'_> {
    type Output = usize;

    fn visit<VA, VB>(self, a: &Bvh<VA>, b: &Bvh<VB>) -> usize
    where
        VA: NodeVolume + NodeTest<VB>,
        VB: NodeVolume,
    {
        answer(a, b, self.pose, self.args, self.args.split, self.cache, &mut ())
    }
}

/// Every pose's query, counted (the cache, if `cached`, carried from pose to pose).
struct Counted<'a> {
    poses: &'a [Isometry],
    args: &'a Args<'a>,
    cached: bool,
}

impl TreePairVisitor for Counted<'_> {
    type Output = QueryStats;

    fn visit<VA, VB>(self, a: &Bvh<VA>, b: &Bvh<VB>) -> QueryStats
    where
        VA: NodeVolume + NodeTest<VB>,
        VB: NodeVolume,
    {
        let (mut stats, mut cache) = (QueryStats::default(), PairCache::new());
        for pose in self.poses {
            answer(a, b, pose, self.args, false, self.cached.then_some(&mut cache), &mut stats);
        }
        stats
    }
}

/// Runs the query with B at `pose`: 0/1 for `any`, the number of pairs for `all` and `within`,
/// the number of regions for `regions`; `all` and `regions` split across the threads when
/// `parallel` (the split traversal counts nothing).
fn answer<VA, VB>(
    a: &Bvh<VA>,
    b: &Bvh<VB>,
    pose: &Isometry,
    args: &Args<'_>,
    parallel: bool,
    cache: Option<&mut PairCache>,
    stats: &mut impl Stats,
) -> usize
where
    VA: NodeVolume + NodeTest<VB>,
    VB: NodeVolume,
{
    let options = QueryOptions { prejudge: args.prejudge, region_culling: args.region_culling };
    at_pose(a, b, pose, options, |q| match args.query {
        QueryKind::Any => usize::from(q.intersects_counted(cache, stats).is_some()),
        QueryKind::All if parallel => q.intersecting_pairs_parallel().len(),
        QueryKind::All => q.intersecting_pairs_counted(stats).len(),
        QueryKind::Within(d) => q.pairs_within_counted(d, stats).len(),
        QueryKind::Distance => {
            usize::from(q.distance_counted(args.distance, cache, stats).is_some_and(|n| n.distance == 0.0))
        }
        QueryKind::Regions if parallel => q.contact_regions_parallel(Surfaces::Closed).len(),
        QueryKind::Regions => q.contact_regions_counted(Surfaces::Closed, stats).len(),
        QueryKind::Toi => unreachable!("toi queries take motions, run by toi::run_motions"),
    })
}

/// The distance query's answer with the part at `pose`.
pub(crate) struct Nearest<'a> {
    pub(crate) pose: &'a Isometry,
    pub(crate) options: DistanceOptions,
}

impl TreePairVisitor for Nearest<'_> {
    type Output = Option<NearPair>;

    fn visit<VA, VB>(self, a: &Bvh<VA>, b: &Bvh<VB>) -> Option<NearPair>
    where
        VA: NodeVolume + NodeTest<VB>,
        VB: NodeVolume,
    {
        at_pose(a, b, self.pose, QueryOptions::default(), |q| q.distance(self.options))
    }
}

/// The triangle pairs that may be the nearest at `pose`: those within our distance and a hair,
/// for the `f64` reference ([`distance::reference`]).
struct Candidates<'a> {
    pose: &'a Isometry,
}

impl TreePairVisitor for Candidates<'_> {
    type Output = Vec<TrianglePair>;

    fn visit<VA, VB>(self, a: &Bvh<VA>, b: &Bvh<VB>) -> Vec<TrianglePair>
    where
        VA: NodeVolume + NodeTest<VB>,
        VB: NodeVolume,
    {
        at_pose(a, b, self.pose, QueryOptions::default(), |q| {
            let Some(nearest) = q.distance(DistanceOptions::exact()) else {
                return Vec::new();
            };
            let within = nearest.distance * (1.0 + 1e-4) + 1e-6 * (1.0 + self.pose.translation.vector.norm());
            q.pairs_within(within).into_iter().map(|n| n.pair).collect()
        })
    }
}

/// `f` of the query between the scene at the origin and the part at `pose`.
pub(crate) fn at_pose<VA, VB, R>(
    a: &Bvh<VA>,
    b: &Bvh<VB>,
    pose: &Isometry,
    options: QueryOptions,
    f: impl FnOnce(&Query<'_, VA, VB>) -> R,
) -> R
where
    VA: NodeVolume + NodeTest<VB>,
    VB: NodeVolume,
{
    let identity = Isometry::identity();
    f(&Query::new(Posed::new(a, identity), Posed::new(b, pose), options))
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
