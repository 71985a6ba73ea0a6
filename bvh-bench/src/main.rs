//! The bench command-line program.

mod broadphase_runs;
mod build_times;
mod contacts;
mod distance;
mod export_frame;
mod figures;
mod info;
mod maintenance;
mod paper002;
mod paper004;
mod poses;
mod scene;
mod toi;

use bvh_bench::boxes::Layout;
use bvh_broadphase::{CellSide, Octree, UniformGrid};
use clap::{Parser, Subcommand};

/// Exact collision detection between rigid triangle meshes: demonstrations, measurements and
/// the papers' tables.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// The built-in job (the default): paper 000's two maintenance tasks on generated bays
    /// (149,941 and 497,805 triangles); each part is pulled out along a grazing path and every
    /// frame reports whether and where it touches and its clearance, with parry3d timed on the
    /// same frames.
    Run {
        /// One JSON line per extraction and per configuration instead of the tables.
        #[arg(long)]
        json: bool,
    },
    /// Build time of every preset on paper 000's generated meshes against parry3d's
    /// `TriMesh::new`, refit time against parry3d's `Bvh` refit, and hull-sampled against
    /// full-PCA OBB fitting.
    Build {
        /// Builds per measurement (the median is reported).
        #[arg(long, default_value_t = 3)]
        repeats: usize,
        /// Skip the PTU meshes (34k, 498k and a million triangles).
        #[arg(long)]
        small: bool,
    },
    /// One query per pose of a pose file (12 numbers per line: the row-major 3×4 [R|t] placing
    /// the part in the scene's frame), timed over repetitions, with statistics, and parry3d's
    /// `intersection_test` on the same poses in the same run.
    Poses {
        /// The static scene (OBJ, STL or OpenFlight).
        #[arg(long)]
        scene: std::path::PathBuf,
        /// The moving part.
        #[arg(long)]
        part: std::path::PathBuf,
        /// The pose file (R a rotation: a scale, shear or mirror is refused).
        #[arg(long)]
        poses: std::path::PathBuf,
        /// rapid, sao, ao, co, sphere-obb, classified or aabb; several, comma-separated, are
        /// timed pose by pose side by side (one JSON line each).
        #[arg(long, default_value = "co")]
        preset: String,
        /// Override the preset's leaf size (most triangles per leaf).
        #[arg(long)]
        leaf_size: Option<usize>,
        /// any (first contact), all (every intersecting pair), within=D (clearance D),
        /// distance (the minimum distance and closest points), toi (the time of impact of
        /// each pose's motion to the next) or regions (the contact regions, closed meshes).
        #[arg(long, default_value = "any")]
        query: poses::QueryKind,
        /// For `toi`: how the part moves from each pose to the next.
        #[arg(long, value_enum, default_value_t = toi::MotionKind::Slerp)]
        motion: toi::MotionKind,
        /// For `toi`: how close counts as an impact (a distance in the meshes' units).
        #[arg(long, default_value_t = 1e-3)]
        tolerance: f32,
        /// For `toi`: check every answer against this many evenly spaced poses of its motion
        /// (the first that touches must not come before the answer) and against the exact
        /// distance at the answer (within the tolerance); counts go in the JSON line and `--out`
        /// gets the first touching sample and the motion's time (µs) beside each answer.
        #[arg(long, default_value_t = 0)]
        verify: u32,
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
        /// Switch the OBB pre-judge off.
        #[arg(long)]
        no_prejudge: bool,
        /// Switch overlap-region culling on.
        #[arg(long)]
        region_culling: bool,
        /// Carry a pair cache (the last contact, tried first) from each pose to the next; it
        /// applies to the `any` and `distance` queries. `--cache both` times it with and without, pose by pose
        /// side by side (one JSON line each).
        #[arg(long, num_args = 0..=1, default_value = "off", default_missing_value = "on")]
        cache: poses::CacheMode,
        /// Repetitions of the whole pose list (the median is reported).
        #[arg(long, default_value_t = 5)]
        reps: usize,
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
        out: Option<std::path::PathBuf>,
        /// Split each `all` or `regions` query's traversal across the threads.
        #[arg(long)]
        split: bool,
    },
    /// Paper 002's experiment: a 530-triangle teapot against models of 2,124 to 8,106 triangles,
    /// per-detection times of several configurations beside the paper's table; writes a report.
    Paper002 {
        /// Where the report goes.
        #[arg(long, default_value = "bvh-report/paper002")]
        report: std::path::PathBuf,
        /// One JSON line per measurement instead of the tables.
        #[arg(long)]
        json: bool,
    },
    /// Paper 004's experiment: 40 objects of mixed shapes in random motion through the collision
    /// pipeline, per-step times of several configurations beside the paper's; writes a report.
    Paper004 {
        /// Steps to run.
        #[arg(long, default_value_t = 1000)]
        steps: usize,
        /// Seed of the room and the motion.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Where the report goes.
        #[arg(long, default_value = "bvh-report/paper004")]
        report: std::path::PathBuf,
        /// One JSON line per configuration instead of the table.
        #[arg(long)]
        json: bool,
    },
    /// A scene of objects stepped through the collision pipeline (broadphase, root-volume test,
    /// exact query per pair) with random motion deterministic from the seed: one JSON line with
    /// the step times and counts.
    Scene {
        /// paper004 (40 mixed objects in a room), uniform:N or clustered:N.
        #[arg(long, conflicts_with = "objects", required_unless_present = "objects")]
        generate: Option<scene::Source>,
        /// An objects file: per line a mesh path, static or dynamic, and the 12-number pose.
        #[arg(long)]
        objects: Option<std::path::PathBuf>,
        /// hierarchical, grid, octree or brute.
        #[arg(long, default_value = "hierarchical")]
        strategy: String,
        /// The hierarchy preset of every object.
        #[arg(long, default_value = "classified")]
        preset: String,
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
        pairs_out: Option<std::path::PathBuf>,
        /// Worker threads (default: one per core).
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Our broadphase strategies against parry3d's `Bvh` on the same moving boxes (the anchors'
    /// scenes): step medians, ratios, and whether every back-end found the same pairs.
    Broadphase {
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
    },
    /// One pose of a part against a scene as a PLY file for any mesh viewer: the part and the
    /// scene around it in world coordinates, each contact region's triangles in a colour of its
    /// own and its normal as an arrow.
    Export {
        /// The static scene (OBJ, STL or OpenFlight).
        #[arg(long)]
        scene: std::path::PathBuf,
        /// The part.
        #[arg(long)]
        part: std::path::PathBuf,
        /// The part's pose: 12 numbers, the row-major 3x4 [R|t], in quotes.
        #[arg(long)]
        pose: String,
        /// Scene triangles farther than this from the part's box are left out.
        #[arg(long, default_value_t = 0.05)]
        margin: f32,
        /// The meshes are open surfaces: depths (and arrow lengths) from the curves alone.
        #[arg(long)]
        open: bool,
        /// The PLY file to write.
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Pictures of contact regions on the shapes docs/regions.md describes (SVG), with a page
    /// of what each region reports.
    Figures {
        /// The folder to write.
        #[arg(long, default_value = "bvh-report/figures")]
        out: std::path::PathBuf,
    },
    /// The contact regions of a part against a scene at one pose: each place where they meet
    /// with its normal, depth, up to four contact points, triangle pairs and coplanar area.
    Contacts {
        /// The static scene (OBJ, STL or OpenFlight).
        #[arg(long)]
        scene: std::path::PathBuf,
        /// The part.
        #[arg(long)]
        part: std::path::PathBuf,
        /// The part's pose: 12 numbers, the row-major 3x4 [R|t], in quotes.
        #[arg(long)]
        pose: String,
        /// The meshes are open surfaces: depths come from the intersection curves alone.
        #[arg(long)]
        open: bool,
        /// The hierarchy preset.
        #[arg(long, default_value = "co")]
        preset: String,
        /// One JSON object (key regions: each with normal, depth, points, pairs, area, …).
        #[arg(long)]
        json: bool,
    },
    /// When the part, moving from one pose to another, first comes within the tolerance of the
    /// scene: conservative (never after the first contact), with the triangle pair, the point
    /// and the normal there.
    Toi {
        /// The static scene (OBJ, STL or OpenFlight).
        #[arg(long)]
        scene: std::path::PathBuf,
        /// The moving part.
        #[arg(long)]
        part: std::path::PathBuf,
        /// The start pose: 12 numbers, the row-major 3x4 [R|t], in quotes.
        #[arg(long)]
        from: String,
        /// The end pose, likewise.
        #[arg(long)]
        to: String,
        /// slerp (translation along the line, rotation about the part's origin) or screw.
        #[arg(long, value_enum, default_value_t = toi::MotionKind::Slerp)]
        motion: toi::MotionKind,
        /// How close counts as an impact (a distance in the meshes' units).
        #[arg(long, default_value_t = 1e-3)]
        tolerance: f32,
        /// The hierarchy preset.
        #[arg(long, default_value = "co")]
        preset: String,
        /// One JSON object (keys hit, t, pair, point, normal, …) instead of the sentence.
        #[arg(long)]
        json: bool,
    },
    /// Each part of a mesh file (OBJ, STL or OpenFlight) with its triangle and vertex counts
    /// and bounds; exits with status 1 and the reader's message when the file is bad.
    Info {
        /// The file.
        file: std::path::PathBuf,
        /// One JSON object instead of the table.
        #[arg(long)]
        json: bool,
    },
}

fn main() -> std::process::ExitCode {
    match Cli::parse().command.unwrap_or(Command::Run { json: false }) {
        Command::Run { json } => {
            if let Err(e) = maintenance::run(json) {
                eprintln!("error: {e}");
                return std::process::ExitCode::FAILURE;
            }
        }
        Command::Build { repeats, small } => build_times::run(repeats.max(1), small),
        Command::Info { file, json } => return info::run(&file, json),
        Command::Contacts { scene, part, pose, open, preset, json } => {
            let Some(preset) = bvh_build::Preset::by_name(&preset) else {
                eprintln!("error: unknown preset {preset}");
                return std::process::ExitCode::FAILURE;
            };
            let surfaces = if open { bvh_query::Surfaces::Open } else { bvh_query::Surfaces::Closed };
            let args = contacts::Args { scene: &scene, part: &part, pose: &pose, surfaces, preset, json };
            if let Err(e) = contacts::run(&args) {
                eprintln!("error: {e}");
                return std::process::ExitCode::FAILURE;
            }
        }
        Command::Toi { scene, part, from, to, motion, tolerance, preset, json } => {
            let Some(preset) = bvh_build::Preset::by_name(&preset) else {
                eprintln!("error: unknown preset {preset}");
                return std::process::ExitCode::FAILURE;
            };
            let args = toi::OneMotion {
                scene: &scene,
                part: &part,
                from: &from,
                to: &to,
                motion,
                tolerance,
                preset,
                json,
            };
            if let Err(e) = toi::run(&args) {
                eprintln!("error: {e}");
                return std::process::ExitCode::FAILURE;
            }
        }
        Command::Export { scene, part, pose, margin, open, out } => {
            let surfaces = if open { bvh_query::Surfaces::Open } else { bvh_query::Surfaces::Closed };
            if let Err(e) = export_frame::run(&scene, &part, &pose, surfaces, margin, &out) {
                eprintln!("error: {e}");
                return std::process::ExitCode::FAILURE;
            }
        }
        Command::Figures { out } => {
            if let Err(e) = figures::run(&out) {
                eprintln!("error: {e}");
                return std::process::ExitCode::FAILURE;
            }
        }
        Command::Paper002 { report, json } => {
            if let Err(e) = paper002::run(&report, json) {
                eprintln!("error: {e}");
                return std::process::ExitCode::FAILURE;
            }
        }
        Command::Paper004 { steps, seed, report, json } => {
            if let Err(e) = paper004::run(steps, seed, &report, json) {
                eprintln!("error: {e}");
                return std::process::ExitCode::FAILURE;
            }
        }
        Command::Scene { generate, objects, strategy, preset, steps, moving, seed, pairs_out, threads } => {
            let Some(preset) = bvh_build::Preset::by_name(&preset) else {
                eprintln!("error: unknown preset {preset}");
                return std::process::ExitCode::FAILURE;
            };
            let source = match (generate, objects) {
                (_, Some(file)) => scene::Source::File(file),
                (Some(source), None) => source,
                (None, None) => unreachable!("clap requires one of them"),
            };
            let args = scene::Args { source, strategy, preset, steps, moving, seed, pairs_out, threads };
            if let Err(e) = scene::run(&args) {
                eprintln!("error: {e}");
                return std::process::ExitCode::FAILURE;
            }
        }
        Command::Broadphase {
            sizes,
            moving,
            steps,
            seed,
            clustered,
            brute_max,
            grid_cell,
            octree_cell,
            octree_leaf,
            threads,
            json,
        } => {
            let layout = if clustered { Layout::Clustered } else { Layout::Uniform };
            let grid = UniformGrid::new(CellSide::MeanExtents(grid_cell));
            let octree = Octree::new(CellSide::MeanExtents(octree_cell), octree_leaf);
            let args = broadphase_runs::Args {
                sizes,
                fractions: moving,
                steps,
                seed,
                layout,
                brute_max,
                grid,
                octree,
                json,
            };
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads.unwrap_or(0)).build();
            match pool {
                Ok(pool) => pool.install(|| broadphase_runs::run(&args)),
                Err(e) => {
                    eprintln!("error: thread pool: {e}");
                    return std::process::ExitCode::FAILURE;
                }
            }
        }
        Command::Poses {
            scene,
            part,
            poses,
            preset,
            leaf_size,
            query,
            motion,
            tolerance,
            verify,
            max_distance,
            abs_err,
            rel_err,
            parry_prefix,
            no_prejudge,
            region_culling,
            cache,
            reps,
            vs_parry,
            out,
            split,
        } => {
            let mut presets = Vec::new();
            for name in preset.split(',') {
                let Some(mut preset) = bvh_build::Preset::by_name(name) else {
                    eprintln!("error: unknown preset {name}");
                    return std::process::ExitCode::FAILURE;
                };
                if let Some(t) = leaf_size {
                    preset.config = preset.config.with_leaf_size(t);
                }
                presets.push(preset);
            }
            let args = poses::Args {
                scene: &scene,
                part: &part,
                poses: &poses,
                presets,
                query,
                distance: bvh_query::DistanceOptions::exact()
                    .tolerant(abs_err, rel_err)
                    .within(max_distance.unwrap_or(f32::INFINITY)),
                parry_prefix,
                motion,
                tolerance,
                verify,
                prejudge: !no_prejudge,
                region_culling,
                cache,
                reps,
                vs_parry,
                out: out.as_deref(),
                split,
            };
            if let Err(e) = poses::run(&args) {
                eprintln!("error: {e}");
                return std::process::ExitCode::FAILURE;
            }
        }
    }
    std::process::ExitCode::SUCCESS
}
