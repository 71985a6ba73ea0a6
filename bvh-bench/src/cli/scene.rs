//! `bvh-bench scene`: a scene of objects stepped through the collision pipeline (broadphase,
//! root-volume test, exact query per pair) with deterministic random motion; one JSON line per
//! run and, on request, the colliding pairs of every step.

use crate::json::{self, fixed};
use crate::poses::load_mesh;
use crate::values::{PresetName, StrategyName};
use bvh_bench::boxes::{BoxScene, Layout};
use bvh_bench::pose_file::pose_from_numbers;
use bvh_bench::stats::{mean, median};
use bvh_broadphase::{AnyStrategy, Broadphase, CollisionWorld, Mobility, ObjectId};
use bvh_build::generate::{ROOM, capped_cylinder, centred, object_room, torus};
use bvh_build::{Hierarchy, Preset};
use bvh_core::{Aabb, Isometry, Point, Real, TriMesh, Vector};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// Where the objects come from.
#[derive(Clone, Debug)]
pub(crate) enum Source {
    /// Paper 004's room of 40 mixed objects.
    Paper004,
    /// `N` objects of size about 1 (a few shared shapes), as the broadphase box scenes.
    Boxes(Layout, usize),
}

impl std::str::FromStr for Source {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let count = |n: &str| n.parse::<usize>().map_err(|e| format!("bad object count {n:?}: {e}"));
        match s.split_once(':') {
            None if s == "paper004" => Ok(Self::Paper004),
            Some(("uniform", n)) => Ok(Self::Boxes(Layout::Uniform, count(n)?)),
            Some(("clustered", n)) => Ok(Self::Boxes(Layout::Clustered, count(n)?)),
            _ => Err(format!("unknown scene {s:?}: expected paper004, uniform:N or clustered:N")),
        }
    }
}

/// `bvh-bench scene`'s arguments.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// paper004 (40 mixed objects in a room), uniform:N or clustered:N.
    #[arg(long, conflicts_with = "objects", required_unless_present = "objects")]
    generate: Option<Source>,
    /// An objects file: per line a mesh path, static or dynamic, and the 12-number pose.
    #[arg(long)]
    objects: Option<PathBuf>,
    /// The broadphase strategy.
    #[arg(long, value_enum, default_value_t)]
    strategy: StrategyName,
    /// The hierarchy preset of every object.
    #[arg(long, value_enum, default_value = "classified")]
    preset: PresetName,
    /// Steps to run.
    #[arg(long, default_value_t = 100)]
    steps: usize,
    /// Fraction of the generated objects that move (an objects file says per object).
    #[arg(long, default_value_t = 1.0)]
    moving: f64,
    /// Seed of the scene and the motion.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write each step's colliding object pairs (`i-j`, sorted) to this file, a line a step.
    #[arg(long)]
    pairs_out: Option<PathBuf>,
    /// Worker threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
}

/// The JSON line of a run.
#[derive(Serialize)]
struct Record {
    #[serde(flatten)]
    run: RunRecord,
    dynamic: usize,
    strategy: String,
    preset: &'static str,
    threads: usize,
    setup_ms: f64,
}

/// Generated scenes are capped here: each object holds a pose and a broadphase entry.
const MAX_GENERATED_OBJECTS: usize = 2_000_000;

/// A scene ready to step: objects, which of them move, and the box they move in.
pub(crate) struct Setup {
    shapes: Vec<Arc<Hierarchy>>,
    poses: Vec<Isometry>,
    motions: Vec<Mobility>,
    /// Half the largest side of each object (sets its step length).
    sizes: Vec<Real>,
    bounds: Aabb,
}

/// What a run measured.
pub(crate) struct Run {
    pub objects: usize,
    pub dynamic: usize,
    pub triangles: usize,
    pub step_ms: Vec<f64>,
    pub candidates_mean: f64,
    pub colliding_mean: f64,
    pub volume_tests_mean: f64,
    pub triangle_tests_mean: f64,
}

/// A run's figures in its JSON line (the scene's, and each of paper 004's configurations').
#[derive(Serialize)]
pub(crate) struct RunRecord {
    objects: usize,
    triangles: usize,
    steps: usize,
    step_ms_mean: f64,
    step_ms_median: f64,
    candidate_pairs_mean: f64,
    colliding_pairs_mean: f64,
    volume_tests_mean: f64,
    triangle_tests_mean: f64,
}

impl Run {
    pub(crate) fn step_ms_mean(&self) -> f64 {
        mean(&self.step_ms)
    }

    /// The figures of the JSON line, rounded as printed.
    pub(crate) fn record(&self) -> RunRecord {
        RunRecord {
            objects: self.objects,
            triangles: self.triangles,
            steps: self.step_ms.len(),
            step_ms_mean: fixed(self.step_ms_mean(), 4),
            step_ms_median: fixed(median(&self.step_ms), 4),
            candidate_pairs_mean: fixed(self.candidates_mean, 2),
            colliding_pairs_mean: fixed(self.colliding_mean, 2),
            volume_tests_mean: fixed(self.volume_tests_mean, 1),
            triangle_tests_mean: fixed(self.triangle_tests_mean, 1),
        }
    }
}

pub(crate) fn run(args: Args) -> Result<(), String> {
    let preset = args.preset.0;
    if !(0.0..=1.0).contains(&args.moving) {
        return Err(format!("--moving {} is not a fraction in [0, 1]", args.moving));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .map_err(|e| format!("thread pool: {e}"))?;
    let start = Instant::now();
    let setup = match (&args.objects, &args.generate) {
        (Some(path), _) => from_file(path, &preset)?,
        (None, Some(Source::Boxes(layout, n))) => boxes(&args, *layout, *n)?,
        // clap asks for `--generate` or `--objects`: paper004 is what remains.
        (None, _) => room(&preset, args.moving, args.seed),
    };
    let setup_ms = start.elapsed().as_secs_f64() * 1e3;
    let mut out = match &args.pairs_out {
        Some(path) => Some(std::io::BufWriter::new(
            std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?,
        )),
        None => None,
    };
    let threads = pool.current_num_threads();
    let sink = out.as_mut().map(|o| o as &mut (dyn Write + Send));
    let run = pool.install(|| simulate(setup, args.strategy.strategy(), args.steps, args.seed, sink))?;
    if let Some(mut out) = out {
        out.flush().map_err(|e| e.to_string())?;
    }
    json::print_line(&Record {
        run: run.record(),
        dynamic: run.dynamic,
        strategy: args.strategy.name(),
        preset: preset.name,
        threads,
        setup_ms: fixed(setup_ms, 1),
    })
}

/// Steps the scene: moves every dynamic object a little, then runs the pipeline; with `pairs_out`
/// writes each step's colliding pairs (`i-j`, sorted) on a line.
pub(crate) fn simulate(
    mut setup: Setup,
    strategy: AnyStrategy,
    steps: usize,
    seed: u64,
    mut pairs_out: Option<&mut (dyn Write + Send)>,
) -> Result<Run, String> {
    let mut world = CollisionWorld::with_broadphase(Broadphase::new(strategy));
    for k in 0..setup.shapes.len() {
        world
            .insert(setup.shapes[k].clone(), setup.poses[k], setup.motions[k])
            .map_err(|e| format!("object {}: {e}", k + 1))?;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5ce7e);
    let mut step_ms = Vec::new();
    let (mut candidates, mut colliding, mut volume_tests, mut triangle_tests) = (0usize, 0usize, 0u64, 0u64);
    for _ in 0..steps {
        let next: Vec<(usize, Isometry)> = (0..setup.poses.len())
            .filter(|&k| setup.motions[k] == Mobility::Dynamic)
            .map(|k| (k, wander(&setup.poses[k], setup.sizes[k], &setup.bounds, &mut rng)))
            .collect();
        let start = Instant::now();
        for &(k, pose) in &next {
            world.set_pose(ObjectId::from_index(k), pose).map_err(|e| e.to_string())?;
        }
        let (collisions, stats) = world.step_counted();
        step_ms.push(start.elapsed().as_secs_f64() * 1e3);
        for (k, pose) in next {
            setup.poses[k] = pose;
        }
        candidates += stats.candidate_pairs;
        colliding += stats.colliding_pairs;
        volume_tests += stats.query.volume_tests();
        triangle_tests += stats.query.triangle_tests;
        if let Some(out) = pairs_out.as_mut() {
            let line: Vec<String> = collisions.iter().map(|c| format!("{}-{}", c.a, c.b)).collect();
            writeln!(out, "{}", line.join(" ")).map_err(|e| e.to_string())?;
        }
    }
    let n = steps.max(1) as f64;
    Ok(Run {
        objects: setup.shapes.len(),
        dynamic: setup.motions.iter().filter(|&&m| m == Mobility::Dynamic).count(),
        triangles: setup.shapes.iter().map(|s| s.mesh().triangle_count()).sum(),
        step_ms,
        candidates_mean: candidates as f64 / n,
        colliding_mean: colliding as f64 / n,
        volume_tests_mean: volume_tests as f64 / n,
        triangle_tests_mean: triangle_tests as f64 / n,
    })
}

/// A small random step: up to 5 % of the object's size along each axis and up to 0.05 rad about
/// a random axis, kept inside the bounds.
fn wander(pose: &Isometry, size: Real, bounds: &Aabb, rng: &mut ChaCha8Rng) -> Isometry {
    let reach = 0.05 * size;
    let shift = Vector::from_fn(|_, _| rng.gen_range(-reach..=reach));
    let centre = Point::from(pose.translation.vector + shift);
    let centre =
        centre.coords.zip_zip_map(&bounds.mins.coords, &bounds.maxs.coords, |c, lo, hi| c.clamp(lo, hi));
    let axis = Vector::from_fn(|_, _| rng.gen_range(-1.0..1.0));
    let turn = Isometry::rotation(axis.normalize() * rng.gen_range(0.0..0.05));
    Isometry::from_parts(centre.into(), turn.rotation * pose.rotation)
}

/// Marks `round(fraction × n)` objects, chosen by the seed, as moving.
fn motions(n: usize, fraction: f64, seed: u64) -> Vec<Mobility> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x30b1e);
    let k = (fraction * n as f64).round() as usize;
    let mut motions = vec![Mobility::Static; n];
    for i in rand::seq::index::sample(&mut rng, n, k.min(n)) {
        motions[i] = Mobility::Dynamic;
    }
    motions
}

/// Paper 004's room, every object built with `preset`, a fraction of them moving.
pub(crate) fn room(preset: &Preset, moving: f64, seed: u64) -> Setup {
    let objects = object_room(seed);
    let sizes = objects.iter().map(|o| o.mesh.aabb().half_extents().max()).collect();
    let poses = objects.iter().map(|o| o.pose).collect();
    let shapes = objects.into_iter().map(|o| Arc::new(Hierarchy::build(o.mesh, preset))).collect();
    let bounds = Aabb::new(Point::origin(), Point::from(Vector::from(ROOM)));
    let motions = motions(40, moving, seed);
    Setup { shapes, poses, motions, sizes, bounds }
}

fn boxes(args: &Args, layout: Layout, n: usize) -> Result<Setup, String> {
    if n > MAX_GENERATED_OBJECTS {
        return Err(format!("{n} objects: at most {MAX_GENERATED_OBJECTS} are generated"));
    }
    let library: Vec<Arc<Hierarchy>> = [
        TriMesh::uv_sphere(Point::origin(), 0.5, 6, 12),
        TriMesh::cuboid(Point::origin(), Vector::new(0.5, 0.4, 0.3)),
        centred(&torus(0.35, 0.12, 12, 8)),
        centred(&capped_cylinder(0.25, 0.9, 12, 2)),
    ]
    .into_iter()
    .map(|mesh| Arc::new(Hierarchy::build(mesh, &args.preset.0)))
    .collect();
    let scene = BoxScene::new(layout, n, args.seed);
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let poses = (0..n)
        .map(|i| {
            let axis = Vector::from_fn(|_, _| rng.gen_range(-1.0..1.0));
            Isometry::new(scene.aabb(i).center().coords, axis * std::f32::consts::PI)
        })
        .collect();
    let shapes = (0..n).map(|i| library[i % library.len()].clone()).collect();
    Ok(Setup {
        shapes,
        poses,
        motions: motions(n, args.moving, args.seed),
        sizes: vec![0.5; n],
        bounds: scene.bounds(),
    })
}

/// Reads an objects file: per line a mesh path (relative to the file), `static` or `dynamic`,
/// and 12 numbers, the row-major 3x4 `[R|t]`. Objects naming the same file share a hierarchy.
fn from_file(path: &Path, preset: &Preset) -> Result<Setup, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let base = path.parent().unwrap_or(Path::new("."));
    let mut built: HashMap<PathBuf, Arc<Hierarchy>> = HashMap::new();
    let (mut shapes, mut poses, mut motions, mut sizes) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut bounds = Aabb::EMPTY;
    for (line_index, line) in text.lines().enumerate() {
        let at = |e: String| format!("{}:{}: {e}", path.display(), line_index + 1);
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.is_empty() || fields[0].starts_with('#') {
            continue;
        }
        if fields.len() != 14 {
            return Err(at(format!(
                "expected a mesh path, static or dynamic, and 12 numbers; found {} fields",
                fields.len()
            )));
        }
        let motion = match fields[1] {
            "static" => Mobility::Static,
            "dynamic" => Mobility::Dynamic,
            other => return Err(at(format!("expected static or dynamic, found {other:?}"))),
        };
        let numbers: Vec<f32> = fields[2..]
            .iter()
            .map(|f| f.parse::<f32>())
            .collect::<Result<_, _>>()
            .map_err(|e| at(e.to_string()))?;
        let pose = pose_from_numbers(&numbers).map_err(at)?;
        let mesh_path = base.join(fields[0]);
        let shape = match built.get(&mesh_path) {
            Some(shape) => shape.clone(),
            None => {
                let shape = Arc::new(Hierarchy::build(load_mesh(&mesh_path)?, preset));
                built.insert(mesh_path, shape.clone());
                shape
            }
        };
        let local = shape.mesh().aabb();
        bounds.merge(&local.transformed(&pose));
        sizes.push(local.half_extents().max());
        shapes.push(shape);
        poses.push(pose);
        motions.push(motion);
    }
    Ok(Setup { shapes, poses, motions, sizes, bounds })
}
