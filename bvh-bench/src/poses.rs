//! `bvh-bench poses`: one query per pose of a pose file (the anchors' format: 12 numbers per
//! line, the row-major 3×4 `[R|t]` placing the part in the scene's frame), timed, counted and
//! compared with parry3d in the same run.

use bvh_bench::parry_bridge;
use bvh_build::{Bvh, Hierarchy, NodeVolume, Preset};
use bvh_core::{Isometry, Matrix, Rotation, TriMesh, Vector};
use bvh_query::{
    NodeTest, PairCache, Posed, Query, QueryOptions, QueryStats, Stats, TreePairVisitor, visit_tree_pair,
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
}

impl std::str::FromStr for QueryKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "any" => Ok(Self::Any),
            "all" => Ok(Self::All),
            _ => s
                .strip_prefix("within=")
                .and_then(|d| d.parse().ok())
                .filter(|d: &f32| d.is_finite() && *d >= 0.0)
                .map(Self::Within)
                .ok_or_else(|| format!("expected any, all or within=D, got {s}")),
        }
    }
}

/// The pose written as 12 numbers, the row-major 3x4 matrix `[R|t]`.
pub(crate) fn pose_from_numbers(v: &[f32]) -> Result<Isometry, String> {
    if v.len() != 12 || !v.iter().all(|x| x.is_finite()) {
        return Err("expected 12 finite numbers".into());
    }
    let r = Matrix::new(v[0], v[1], v[2], v[4], v[5], v[6], v[8], v[9], v[10]);
    let rotation = Rotation::from_matrix(&r);
    Ok(Isometry::from_parts(Vector::new(v[3], v[7], v[11]).into(), rotation))
}

/// A mesh file's parts merged into one mesh.
pub(crate) fn load_mesh(path: &Path) -> Result<TriMesh, String> {
    let scene = bvh_io::load(path).map_err(|e| e.to_string())?;
    scene.merged().map_err(|e| format!("{}: {e}", path.display()))
}

/// Reads a pose file; the rotation part is re-orthonormalised.
pub(crate) fn read_poses(path: &Path) -> Result<Vec<Isometry>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, line)| {
            let v: Vec<f32> = line
                .split_whitespace()
                .map(str::parse)
                .collect::<Result<_, _>>()
                .map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))?;
            pose_from_numbers(&v).map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))
        })
        .collect()
}

pub(crate) struct Args<'a> {
    pub(crate) scene: &'a Path,
    pub(crate) part: &'a Path,
    pub(crate) poses: &'a Path,
    pub(crate) preset: Preset,
    pub(crate) query: QueryKind,
    pub(crate) prejudge: bool,
    pub(crate) region_culling: bool,
    pub(crate) cache: bool,
    pub(crate) reps: usize,
    pub(crate) parry: bool,
}

pub(crate) fn run(args: &Args<'_>) -> Result<(), String> {
    let (scene, part) = (load_mesh(args.scene)?, load_mesh(args.part)?);
    let poses = read_poses(args.poses)?;
    let start = Instant::now();
    let a = Hierarchy::build(scene.clone(), &args.preset);
    let b = Hierarchy::build(part.clone(), &args.preset);
    let build_ms = start.elapsed().as_secs_f64() * 1e3;
    let ours = visit_tree_pair(&a, &b, Measure { poses: &poses, args });
    let n = poses.len().max(1) as f64;
    println!(
        "{{\"library\":\"bvh\",\"preset\":\"{}\",\"query\":\"{:?}\",\"prejudge\":{},\"region_culling\":{},\"cache\":{},\"poses\":{},\"build_ms\":{build_ms:.1},\"total_ms_median\":{:.3},\"per_query_us\":{:.2},\"n_collide\":{},\"results_total\":{},\"volume_tests_per_query\":{:.1},\"prejudge_overlap\":{},\"prejudge_disjoint\":{},\"prejudge_undecided\":{},\"triangle_tests_per_query\":{:.1}}}",
        args.preset.name,
        args.query,
        args.prejudge,
        args.region_culling,
        args.cache,
        poses.len(),
        ours.total_ms,
        ours.total_ms * 1e3 / n,
        ours.hits,
        ours.results,
        ours.stats.volume_tests as f64 / n,
        ours.stats.prejudge_overlap,
        ours.stats.prejudge_disjoint,
        ours.stats.prejudge_undecided,
        ours.stats.triangle_tests as f64 / n,
    );
    if args.parry {
        let (parry_ms, parry_hits, disagreements) = parry_any(&scene, &part, &poses, args.reps, &ours.bits);
        // Classify each disagreement by the exact distance between the meshes at that pose
        // (up to 1 % of the part's size; farther is reported as that bound).
        let horizon = part.aabb().extents().norm() * 0.01;
        let gaps: Vec<String> = disagreements
            .iter()
            .map(|&k| {
                let gap = visit_tree_pair(&a, &b, Nearest { pose: &poses[k], horizon });
                let verdict = if ours.bits[k] { "bvh contact" } else { "parry contact" };
                gap.map_or(
                    format!("{{\"pose\":{k},\"only\":\"{verdict}\",\"exact_distance_over\":{horizon:.3e}}}"),
                    |d| format!("{{\"pose\":{k},\"only\":\"{verdict}\",\"exact_distance\":{d:.3e}}}"),
                )
            })
            .collect();
        println!(
            "{{\"library\":\"parry3d\",\"query\":\"intersection_test\",\"poses\":{},\"total_ms_median\":{parry_ms:.3},\"per_query_us\":{:.2},\"n_collide\":{parry_hits},\"disagreements_with_bvh\":[{}],\"ratio_parry_over_bvh\":{:.2}}}",
            poses.len(),
            parry_ms * 1e3 / n,
            gaps.join(","),
            parry_ms / ours.total_ms
        );
    }
    Ok(())
}

struct Measured {
    total_ms: f64,
    hits: usize,
    results: usize,
    bits: Vec<bool>,
    stats: QueryStats,
}

/// Times the pose list on two trees (and gathers statistics in an untimed pass).
struct Measure<'a> {
    poses: &'a [Isometry],
    args: &'a Args<'a>,
}

impl TreePairVisitor for Measure<'_> {
    type Output = Measured;

    fn visit<VA, VB>(self, a: &Bvh<VA>, b: &Bvh<VB>) -> Measured
    where
        VA: NodeVolume + NodeTest<VB>,
        VB: NodeVolume,
    {
        measure(a, b, self.poses, self.args)
    }
}

fn measure<VA, VB>(a: &Bvh<VA>, b: &Bvh<VB>, poses: &[Isometry], args: &Args<'_>) -> Measured
where
    VA: NodeVolume + NodeTest<VB>,
    VB: NodeVolume,
{
    let identity = Isometry::identity();
    let options = QueryOptions { prejudge: args.prejudge, region_culling: args.region_culling };
    let mut times = Vec::new();
    let (mut bits, mut results) = (Vec::new(), 0);
    for _ in 0..args.reps.max(1) {
        // Each repetition starts cold: the cache only carries over from one pose to the next.
        let mut cache = PairCache::new();
        let start = Instant::now();
        let answers: Vec<(bool, usize)> = poses
            .iter()
            .map(|pose| {
                let q = Query::new(Posed::new(a, &identity), Posed::new(b, pose), options);
                answer(&q, args.query, args.cache.then_some(&mut cache), &mut ())
            })
            .collect();
        times.push(start.elapsed().as_secs_f64() * 1e3);
        bits = answers.iter().map(|r| r.0).collect();
        results = answers.iter().map(|r| r.1).sum();
    }
    times.sort_by(f64::total_cmp);
    // A separate, untimed pass gathers the statistics.
    let mut stats = QueryStats::default();
    let mut cache = PairCache::new();
    for pose in poses {
        let q = Query::new(Posed::new(a, &identity), Posed::new(b, pose), options);
        answer(&q, args.query, args.cache.then_some(&mut cache), &mut stats);
    }
    Measured {
        total_ms: times[times.len() / 2],
        hits: bits.iter().filter(|&&b| b).count(),
        results,
        bits,
        stats,
    }
}

/// Runs the query; whether anything was found, and how many results.
fn answer<VA, VB>(
    q: &Query<'_, VA, VB>,
    kind: QueryKind,
    cache: Option<&mut PairCache>,
    stats: &mut impl Stats,
) -> (bool, usize)
where
    VA: NodeVolume + NodeTest<VB>,
    VB: NodeVolume,
{
    match kind {
        QueryKind::Any => {
            let hit = q.intersects(cache, stats).is_some();
            (hit, hit as usize)
        }
        QueryKind::All => {
            let n = q.intersecting_pairs(stats).len();
            (n > 0, n)
        }
        QueryKind::Within(d) => {
            let n = q.pairs_within(d, stats).len();
            (n > 0, n)
        }
    }
}

/// The exact distance between the scene and the part at `pose`, if at most `horizon`.
struct Nearest<'a> {
    pose: &'a Isometry,
    horizon: f32,
}

impl TreePairVisitor for Nearest<'_> {
    type Output = Option<f32>;

    fn visit<VA, VB>(self, a: &Bvh<VA>, b: &Bvh<VB>) -> Option<f32>
    where
        VA: NodeVolume + NodeTest<VB>,
        VB: NodeVolume,
    {
        let identity = Isometry::identity();
        let q = Query::new(Posed::new(a, &identity), Posed::new(b, self.pose), QueryOptions::default());
        q.pairs_within(self.horizon, &mut ()).iter().map(|n| n.distance).reduce(f32::min)
    }
}

/// parry3d's `intersection_test` on the same meshes and poses: median total ms, collisions,
/// and the poses where its answer differs from ours.
fn parry_any(
    scene: &TriMesh,
    part: &TriMesh,
    poses: &[Isometry],
    reps: usize,
    ours: &[bool],
) -> (f64, usize, Vec<usize>) {
    let build = |m: &TriMesh| {
        let (v, i) = parry_bridge::mesh_buffers(m);
        parry3d::shape::TriMesh::new(v, i).expect("a valid mesh")
    };
    let (a, b) = (build(scene), build(part));
    let parry_poses: Vec<_> = poses.iter().map(parry_bridge::pose).collect();
    let identity = parry3d::math::Pose::IDENTITY;
    let mut times = Vec::new();
    let mut bits = Vec::new();
    for _ in 0..reps.max(1) {
        let start = Instant::now();
        bits = parry_poses
            .iter()
            .map(|p| parry3d::query::intersection_test(&identity, &a, p, &b).is_ok_and(|r| r.intersecting))
            .collect();
        times.push(start.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    let hits = bits.iter().filter(|&&b| b).count();
    let disagreements =
        bits.iter().zip(ours).enumerate().filter(|(_, (p, o))| p != o).map(|(k, _)| k).collect();
    (times[times.len() / 2], hits, disagreements)
}
