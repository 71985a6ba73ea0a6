//! The time of impact from the command line: `bvh-bench toi` for one motion, and
//! `bvh-bench poses --query toi`, which takes each pose of a pose file to the next as a motion,
//! timed and counted like the other queries.

use crate::poses::{Args, Nearest, QueryTimes, Variant, at_pose, load_mesh, time_poses};
use bvh_bench::pose_file::pose_from_text;
use bvh_bench::stats::mean;
use bvh_bench::timing::timed;
use bvh_build::{Bvh, Hierarchy, NodeVolume, Preset};
use bvh_core::{Interpolation, Isometry, Real, RigidMotion};
use bvh_query::{
    DistanceOptions, Impact, NodeTest, PairCache, QueryOptions, QueryStats, Stats, SweepError,
    TreePairVisitor, visit_tree_pair,
};
use std::path::Path;

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

/// The time of impact of one motion of the part, the scene at the origin.
struct TimeOfImpact<'a, S> {
    start: &'a Isometry,
    end: &'a Isometry,
    interpolation: Interpolation,
    tolerance: Real,
    stats: &'a mut S,
}

impl<S: Stats> TreePairVisitor for TimeOfImpact<'_, S> {
    type Output = Result<Option<Impact>, SweepError>;

    fn visit<VA, VB>(self, a: &Bvh<VA>, b: &Bvh<VB>) -> Self::Output
    where
        VA: NodeVolume + NodeTest<VB>,
        VB: NodeVolume,
    {
        at_pose(a, b, self.start, QueryOptions::default(), |q| {
            q.time_of_impact_counted(self.end, self.interpolation, self.tolerance, self.stats)
        })
    }
}

/// `bvh-bench toi`'s arguments.
pub(crate) struct OneMotion<'a> {
    pub(crate) scene: &'a Path,
    pub(crate) part: &'a Path,
    pub(crate) from: &'a str,
    pub(crate) to: &'a str,
    pub(crate) motion: MotionKind,
    pub(crate) tolerance: Real,
    pub(crate) preset: Preset,
    pub(crate) json: bool,
}

/// The time of impact of one motion, printed as text or one JSON object.
pub(crate) fn run(args: &OneMotion<'_>) -> Result<(), String> {
    let (start, end) = (pose_from_text("--from", args.from)?, pose_from_text("--to", args.to)?);
    let (scene, part) = (load_mesh(args.scene)?, load_mesh(args.part)?);
    let (a, b) = (Hierarchy::build(scene, &args.preset), Hierarchy::build(part, &args.preset));
    let mut stats = QueryStats::default();
    let motion = TimeOfImpact {
        start: &start,
        end: &end,
        interpolation: args.motion.into(),
        tolerance: args.tolerance,
        stats: &mut stats,
    };
    let (answer, seconds) = timed(|| visit_tree_pair(&a, &b, motion));
    let answer = answer.map_err(|e| e.to_string())?;
    let us = seconds * 1e6;
    let triple = |v: [Real; 3]| format!("[{},{},{}]", v[0], v[1], v[2]);
    let found = answer.map(|i| {
        let (point, normal) = (triple(i.point.into()), triple(i.normal.into()));
        (i, point, normal)
    });
    if args.json {
        let fields = match &found {
            None => "\"hit\":false,\"t\":null".to_string(),
            Some((i, point, normal)) => format!(
                "\"hit\":true,\"t\":{},\"pair\":[{},{}],\"distance\":{:e},\"point\":{point},\"normal\":{normal}",
                i.time, i.pair.a, i.pair.b, i.distance
            ),
        };
        println!(
            "{{{fields},\"motion\":\"{:?}\",\"tolerance\":{:e},\"query_us\":{us:.1},\"volume_tests\":{},\"triangle_tests\":{},\"advances\":{}}}",
            args.motion,
            args.tolerance,
            stats.volume_tests(),
            stats.triangle_tests,
            stats.advances
        );
        return Ok(());
    }
    match found {
        None => println!("no contact along the motion ({us:.1} µs)"),
        Some((i, point, normal)) => println!(
            "first within {} at t = {:.9} ({us:.1} µs): scene triangle {}, part triangle {}, {:.3e} apart at {point}, normal {normal}",
            args.tolerance, i.time, i.pair.a, i.pair.b, i.distance
        ),
    }
    Ok(())
}

/// `poses --query toi`: each pose to the next as a motion, on every variant, timed motion by
/// motion side by side; one JSON line per variant, and `--out` with one line per motion (`t`, or
/// `none`; with `--verify`, then the first touching sample, or `none`, and the motion's time in
/// µs), from the first variant.
pub(crate) fn run_motions(variants: &[Variant], poses: &[Isometry], args: &Args<'_>) -> Result<(), String> {
    let motions = poses.len().saturating_sub(1);
    let (interpolation, tolerance) = (args.motion.into(), args.tolerance);
    let motion =
        |k: usize| RigidMotion::new(&poses[k], &poses[k + 1], interpolation).map_err(|e| e.to_string());
    let impact = |a: &Hierarchy, b: &Hierarchy, k: usize, stats: &mut QueryStats| {
        let motion = TimeOfImpact { start: &poses[k], end: &poses[k + 1], interpolation, tolerance, stats };
        visit_tree_pair(a, b, motion)
    };
    // Every variant's answers, counted and untimed: a refused motion (a tolerance below the
    // rounding) is an error before any timing.
    let mut answers = Vec::with_capacity(variants.len());
    let mut stats = vec![QueryStats::default(); variants.len()];
    for (v, stats) in variants.iter().zip(&mut stats) {
        let found: Result<Vec<Option<Impact>>, String> = (0..motions)
            .map(|k| impact(&v.a, &v.b, k, stats).map_err(|e| format!("motion {k}: {e}")))
            .collect();
        answers.push(found?);
    }
    let mut queries: Vec<_> = variants
        .iter()
        .map(|v| move |k: usize| impact(&v.a, &v.b, k, &mut QueryStats::default()).is_ok_and(|i| i.is_some()))
        .collect();
    let mut queries: Vec<&mut dyn FnMut(usize) -> bool> =
        queries.iter_mut().map(|q| q as &mut dyn FnMut(usize) -> bool).collect();
    let timed = time_poses(motions, args.reps, &mut queries);
    // Where each motion first touches, sampled: the same for every preset (the test is exact).
    let first = variants.first().ok_or("no preset")?;
    let touching: Vec<Option<f64>> = (0..motions)
        .filter(|_| args.verify > 0)
        .map(|k| {
            Ok(visit_tree_pair(&first.a, &first.b, FirstTouch { motion: &motion(k)?, samples: args.verify }))
        })
        .collect::<Result<_, String>>()?;
    if let Some(out) = args.out {
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
        let mut json = summary(variant, &times, stats, motions, args, (hits.len(), at_start));
        // Motions that start touching cost one first-contact search: the others show the
        // advancement.
        let (start, during): (Vec<_>, Vec<_>) =
            times.per_pose.iter().zip(answers).partition(|(_, a)| a.is_some_and(|i| i.time == 0.0));
        // null where no motion is of the kind.
        let mean_of = |v: &[(&f64, _)]| {
            let times: Vec<f64> = v.iter().map(|(t, _)| **t).collect();
            if times.is_empty() { "null".to_string() } else { format!("{:.3}", mean(&times)) }
        };
        json += &format!(
            ",\"query_us_mean_touching_at_start\":{},\"query_us_mean_others\":{}",
            mean_of(&start),
            mean_of(&during)
        );
        if !touching.is_empty() {
            let far = (0..motions)
                .filter_map(|k| answers[k].map(|i| (k, i.time)))
                .map(|(k, t)| {
                    let nearest = Nearest { pose: &motion(k)?.pose_at(t), options: DistanceOptions::exact() };
                    Ok(visit_tree_pair(&variant.a, &variant.b, nearest)
                        .map_or(Real::INFINITY, |n| n.distance))
                })
                .collect::<Result<Vec<Real>, String>>()?
                .into_iter()
                .filter(|&d| d > tolerance)
                .count();
            json += &verdicts(answers, &touching, far, args.verify);
        }
        println!("{json}}}");
    }
    Ok(())
}

/// The first of `samples + 1` evenly spaced times of a motion at which the meshes intersect.
struct FirstTouch<'a> {
    motion: &'a RigidMotion,
    samples: u32,
}

impl TreePairVisitor for FirstTouch<'_> {
    type Output = Option<f64>;

    fn visit<VA, VB>(self, a: &Bvh<VA>, b: &Bvh<VB>) -> Option<f64>
    where
        VA: NodeVolume + NodeTest<VB>,
        VB: NodeVolume,
    {
        let mut cache = PairCache::new();
        (0..=self.samples).map(|i| i as f64 / self.samples as f64).find(|&t| {
            at_pose(a, b, &self.motion.pose_at(t), QueryOptions::default(), |q| {
                q.intersects_cached(&mut cache).is_some()
            })
        })
    }
}

/// The JSON fields judging the answers by the samples: late (after the first touching
/// sample), missed (no answer, yet a sample touches), far (more than the tolerance apart at the
/// answer, counted by the caller).
fn verdicts(answers: &[Option<Impact>], touching: &[Option<f64>], far: usize, samples: u32) -> String {
    let (mut late, mut missed) = (0, 0);
    for (answer, sample) in answers.iter().zip(touching) {
        match (answer, sample) {
            (Some(i), Some(s)) if i.time > *s => late += 1,
            (None, Some(_)) => missed += 1,
            _ => {}
        }
    }
    let contacts = touching.iter().flatten().count();
    format!(
        ",\"verify_samples\":{samples},\"sampled_contacts\":{contacts},\"late\":{late},\"missed\":{missed},\"far_at_answer\":{far}"
    )
}

/// One variant's JSON fields (without the closing brace).
fn summary(
    variant: &Variant,
    times: &QueryTimes,
    stats: &QueryStats,
    motions: usize,
    args: &Args<'_>,
    (hits, at_start): (usize, usize),
) -> String {
    let n = motions.max(1) as f64;
    let [build_ms_scene, build_ms_part] = variant.build_ms;
    format!(
        "{{\"preset\":\"{}\",\"query\":\"toi\",\"motion\":\"{:?}\",\"tolerance\":{:e},\"motions\":{motions},\"build_ms_scene\":{build_ms_scene:.1},\"build_ms_part\":{build_ms_part:.1},\"query_us_mean\":{:.3},\"query_us_median\":{:.3},\"hits\":{hits},\"touching_at_start\":{at_start},\"volume_tests_mean\":{:.1},\"prejudge_overlap\":{},\"prejudge_disjoint\":{},\"prejudge_undecided\":{},\"triangle_tests_mean\":{:.1},\"advances_mean\":{:.2}",
        variant.preset.name,
        args.motion,
        args.tolerance,
        times.mean(),
        times.median(),
        stats.volume_tests() as f64 / n,
        stats.prejudge_overlap,
        stats.prejudge_disjoint,
        stats.prejudge_undecided,
        stats.triangle_tests as f64 / n,
        stats.advances as f64 / n,
    )
}
