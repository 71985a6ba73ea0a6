//! The time of impact from the command line: `bvh-bench toi` for one motion, and
//! `bvh-bench poses --query toi`, which takes each pose of a pose file to the next as a motion,
//! timed and counted like the other queries.

use crate::json::{self, fixed};
use crate::poses::{self, QueryTimes, Variant, at_pose, load_mesh, time_poses};
use crate::values::{MeshPair, PresetName};
use bvh_bench::pose_file::pose_from_text;
use bvh_bench::stats::mean;
use bvh_bench::timing::timed;
use bvh_build::Hierarchy;
use bvh_core::{Interpolation, Isometry, Real, RigidMotion};
use bvh_query::{DistanceOptions, Impact, PairCache, QueryOptions, QueryStats, Stats, SweepError};
use serde::Serialize;

/// How the part moves between two poses (see `bvh_core::Interpolation`).
#[derive(Clone, Copy, Debug, Default, PartialEq, clap::ValueEnum)]
pub(crate) enum MotionKind {
    /// Translation along the line, rotation by slerp about the part's origin.
    #[default]
    Slerp,
    /// The screw motion between the two poses.
    Screw,
}

impl From<MotionKind> for Interpolation {
    fn from(kind: MotionKind) -> Self {
        match kind {
            MotionKind::Slerp => Interpolation::Slerp,
            MotionKind::Screw => Interpolation::Screw,
        }
    }
}

/// The time of impact of the part moving from `start` to `end`, the scene at the origin.
fn impact(
    (a, b): (&Hierarchy, &Hierarchy),
    (start, end): (&Isometry, &Isometry),
    (interpolation, tolerance): (Interpolation, Real),
    options: QueryOptions,
    stats: &mut impl Stats,
) -> Result<Option<Impact>, SweepError> {
    at_pose(a, b, start, options).time_of_impact_counted(end, interpolation, tolerance, stats)
}

/// `bvh-bench toi`'s arguments.
#[derive(clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    meshes: MeshPair,
    /// The start pose: 12 numbers, the row-major 3x4 [R|t], in quotes.
    #[arg(long, allow_hyphen_values = true)]
    from: String,
    /// The end pose, likewise.
    #[arg(long, allow_hyphen_values = true)]
    to: String,
    /// slerp (translation along the line, rotation about the part's origin) or screw.
    #[arg(long, value_enum, default_value_t = MotionKind::Slerp)]
    motion: MotionKind,
    /// How close counts as an impact (a distance in the meshes' units).
    #[arg(long, default_value_t = 1e-3)]
    tolerance: f32,
    /// The hierarchy preset.
    #[arg(long, value_enum, default_value = "co")]
    preset: PresetName,
    /// One JSON object (keys hit, t, pair, point, normal, …) instead of the sentence.
    #[arg(long)]
    json: bool,
}

/// The JSON object of one motion: where and when, if it touches, and the work.
#[derive(Serialize)]
struct Record {
    hit: bool,
    t: Option<f64>,
    #[serde(flatten)]
    impact: Option<ImpactRecord>,
    motion: String,
    tolerance: Real,
    query_us: f64,
    volume_tests: u64,
    triangle_tests: u64,
    advances: u64,
}

/// The impact's pair, distance, point and normal.
#[derive(Serialize)]
struct ImpactRecord {
    pair: [u32; 2],
    distance: Real,
    point: [Real; 3],
    normal: [Real; 3],
}

/// The time of impact of one motion, printed as text or one JSON object.
pub(crate) fn run(args: Args) -> Result<(), String> {
    let (start, end) = (pose_from_text("--from", &args.from)?, pose_from_text("--to", &args.to)?);
    let (scene, part) = (load_mesh(&args.meshes.scene)?, load_mesh(&args.meshes.part)?);
    let preset = args.preset.0;
    let (a, b) = (Hierarchy::build(scene, &preset), Hierarchy::build(part, &preset));
    let mut stats = QueryStats::default();
    let motion = (args.motion.into(), args.tolerance);
    let (answer, seconds) =
        timed(|| impact((&a, &b), (&start, &end), motion, QueryOptions::default(), &mut stats));
    let answer = answer.map_err(|e| e.to_string())?;
    let us = seconds * 1e6;
    if args.json {
        return json::print_line(&Record {
            hit: answer.is_some(),
            t: answer.map(|i| i.time),
            impact: answer.map(|i| ImpactRecord {
                pair: [i.pair.a, i.pair.b],
                distance: i.distance,
                point: i.point.into(),
                normal: i.normal.into(),
            }),
            motion: format!("{:?}", args.motion),
            tolerance: args.tolerance,
            query_us: fixed(us, 1),
            volume_tests: stats.volume_tests(),
            triangle_tests: stats.triangle_tests,
            advances: stats.advances,
        });
    }
    let triple = |v: [Real; 3]| format!("[{},{},{}]", v[0], v[1], v[2]);
    match answer {
        None => println!("no contact along the motion ({us:.1} µs)"),
        Some(i) => println!(
            "first within {} at t = {:.9} ({us:.1} µs): scene triangle {}, part triangle {}, {:.3e} apart at {}, normal {}",
            args.tolerance,
            i.time,
            i.pair.a,
            i.pair.b,
            i.distance,
            triple(i.point.into()),
            triple(i.normal.into())
        ),
    }
    Ok(())
}

/// `poses --query toi`: each pose to the next as a motion, on every variant, timed motion by
/// motion side by side; one JSON line per variant, and `--out` with one line per motion (`t`, or
/// `none`; with `--verify`, then the first touching sample, or `none`, and the motion's time in
/// µs), from the first variant.
pub(crate) fn run_motions(
    variants: &[Variant],
    poses: &[Isometry],
    args: &poses::Args,
) -> Result<(), String> {
    let motions = poses.len().saturating_sub(1);
    let (interpolation, tolerance) = (args.motion.into(), args.tolerance);
    let motion =
        |k: usize| RigidMotion::new(&poses[k], &poses[k + 1], interpolation).map_err(|e| e.to_string());
    let motion_impact = |v: &Variant, k: usize, stats: &mut QueryStats| {
        impact((&v.a, &v.b), (&poses[k], &poses[k + 1]), (interpolation, tolerance), v.options(args), stats)
    };
    // Every variant's answers, counted and untimed: a refused motion (a tolerance below the
    // rounding) is an error before any timing.
    let mut answers = Vec::with_capacity(variants.len());
    let mut stats = vec![QueryStats::default(); variants.len()];
    for (v, stats) in variants.iter().zip(&mut stats) {
        let found: Result<Vec<Option<Impact>>, String> = (0..motions)
            .map(|k| motion_impact(v, k, stats).map_err(|e| format!("motion {k}: {e}")))
            .collect();
        answers.push(found?);
    }
    let mut queries: Vec<_> = variants
        .iter()
        .map(|v| move |k: usize| motion_impact(v, k, &mut QueryStats::default()).is_ok_and(|i| i.is_some()))
        .collect();
    let mut queries: Vec<&mut dyn FnMut(usize) -> bool> =
        queries.iter_mut().map(|q| q as &mut dyn FnMut(usize) -> bool).collect();
    let timed = time_poses(motions, args.reps, false, &mut queries);
    // Where each motion first touches, sampled: the same for every preset (the test is exact).
    let first = variants.first().ok_or("no preset")?;
    let touching: Vec<Option<f64>> = (0..motions)
        .filter(|_| args.verify > 0)
        .map(|k| Ok(first_touch((&first.a, &first.b), &motion(k)?, args.verify)))
        .collect::<Result<_, String>>()?;
    if let Some(out) = &args.out {
        let time = |t: Option<f64>| t.map_or("none".to_string(), |t| format!("{t:.9}"));
        let lines: String = answers[0]
            .iter()
            .enumerate()
            .map(|(k, a)| match touching.get(k) {
                Some(&sample) => {
                    format!("{} {} {:.3}\n", time(a.map(|i| i.time)), time(sample), timed[0].0.per_pose[k])
                }
                None => format!("{}\n", time(a.map(|i| i.time))),
            })
            .collect();
        std::fs::write(out, lines).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    for (((variant, (times, _)), answers), stats) in variants.iter().zip(timed).zip(&answers).zip(&stats) {
        let hits: Vec<f64> = answers.iter().flatten().map(|i| i.time).collect();
        let at_start = hits.iter().filter(|&&t| t == 0.0).count();
        let mut record = summary(variant, &times, stats, motions, args, (hits.len(), at_start));
        // Motions that start touching cost one first-contact search: the others show the
        // advancement.
        let (start, during): (Vec<_>, Vec<_>) =
            times.per_pose.iter().zip(answers).partition(|(_, a)| a.is_some_and(|i| i.time == 0.0));
        // null where no motion is of the kind.
        let mean_of = |v: &[(&f64, _)]| {
            let times: Vec<f64> = v.iter().map(|(t, _)| **t).collect();
            (!times.is_empty()).then(|| fixed(mean(&times), 3))
        };
        record.query_us_mean_touching_at_start = mean_of(&start);
        record.query_us_mean_others = mean_of(&during);
        if !touching.is_empty() {
            let far = (0..motions)
                .filter_map(|k| answers[k].map(|i| (k, i.time)))
                .map(|(k, t)| {
                    let query =
                        at_pose(&variant.a, &variant.b, &motion(k)?.pose_at(t), QueryOptions::default());
                    Ok(query.distance(DistanceOptions::exact()).map_or(Real::INFINITY, |n| n.distance))
                })
                .collect::<Result<Vec<Real>, String>>()?
                .into_iter()
                .filter(|&d| d > tolerance)
                .count();
            record.verdicts = Some(verdicts(answers, &touching, far, args.verify));
        }
        json::print_line(&record)?;
    }
    Ok(())
}

/// The first of `samples + 1` evenly spaced times of a motion at which the meshes intersect.
fn first_touch((a, b): (&Hierarchy, &Hierarchy), motion: &RigidMotion, samples: u32) -> Option<f64> {
    let mut cache = PairCache::new();
    (0..=samples).map(|i| i as f64 / samples as f64).find(|&t| {
        at_pose(a, b, &motion.pose_at(t), QueryOptions::default()).intersects_cached(&mut cache).is_some()
    })
}

/// One variant's JSON line.
#[derive(Serialize)]
struct MotionsRecord {
    preset: &'static str,
    query: &'static str,
    motion: String,
    tolerance: Real,
    motions: usize,
    prejudge: bool,
    build_ms_scene: f64,
    build_ms_part: f64,
    query_us_mean: f64,
    query_us_median: f64,
    hits: usize,
    touching_at_start: usize,
    volume_tests_mean: f64,
    prejudge_overlap: u64,
    prejudge_disjoint: u64,
    prejudge_undecided: u64,
    triangle_tests_mean: f64,
    advances_mean: f64,
    query_us_mean_touching_at_start: Option<f64>,
    query_us_mean_others: Option<f64>,
    #[serde(flatten)]
    verdicts: Option<Verdicts>,
}

/// The answers judged by the samples: late (after the first touching sample), missed (no
/// answer, yet a sample touches), far (more than the tolerance apart at the answer).
#[derive(Serialize)]
struct Verdicts {
    verify_samples: u32,
    sampled_contacts: usize,
    late: usize,
    missed: usize,
    far_at_answer: usize,
}

/// The verdicts on `answers` by the first touching samples (`far` counted by the caller).
fn verdicts(answers: &[Option<Impact>], touching: &[Option<f64>], far: usize, samples: u32) -> Verdicts {
    let (mut late, mut missed) = (0, 0);
    for (answer, sample) in answers.iter().zip(touching) {
        match (answer, sample) {
            (Some(i), Some(s)) if i.time > *s => late += 1,
            (None, Some(_)) => missed += 1,
            _ => {}
        }
    }
    let sampled_contacts = touching.iter().flatten().count();
    Verdicts { verify_samples: samples, sampled_contacts, late, missed, far_at_answer: far }
}

/// One variant's record, without the split by start and the verdicts.
fn summary(
    variant: &Variant,
    times: &QueryTimes,
    stats: &QueryStats,
    motions: usize,
    args: &poses::Args,
    (hits, at_start): (usize, usize),
) -> MotionsRecord {
    let n = motions.max(1) as f64;
    let [build_ms_scene, build_ms_part] = variant.build_ms;
    MotionsRecord {
        preset: variant.preset.name,
        query: "toi",
        motion: format!("{:?}", args.motion),
        tolerance: args.tolerance,
        motions,
        prejudge: variant.prejudge,
        build_ms_scene: fixed(build_ms_scene, 1),
        build_ms_part: fixed(build_ms_part, 1),
        query_us_mean: fixed(times.mean(), 3),
        query_us_median: fixed(times.median(), 3),
        hits,
        touching_at_start: at_start,
        volume_tests_mean: fixed(stats.volume_tests() as f64 / n, 1),
        prejudge_overlap: stats.prejudge_overlap,
        prejudge_disjoint: stats.prejudge_disjoint,
        prejudge_undecided: stats.prejudge_undecided,
        triangle_tests_mean: fixed(stats.triangle_tests as f64 / n, 1),
        advances_mean: fixed(stats.advances as f64 / n, 2),
        query_us_mean_touching_at_start: None,
        query_us_mean_others: None,
        verdicts: None,
    }
}
