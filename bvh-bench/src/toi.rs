//! The time of impact from the command line: `bvh-bench toi` for one motion, and
//! `bvh-bench poses --query toi`, which takes each pose of a pose file to the next as a motion,
//! timed and counted like the other queries.

use crate::poses::{Args, QueryTimes, Variant, load_mesh, pose_from_numbers, time_poses};
use bvh_bench::stats::mean;
use bvh_bench::timing::timed;
use bvh_build::{Bvh, Hierarchy, NodeVolume, Preset};
use bvh_core::{Interpolation, Isometry, Real, RigidMotion};
use bvh_query::{
    DistanceOptions, Impact, NodeTest, PairCache, Posed, Query, QueryOptions, QueryStats, Stats, SweepError,
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

/// One motion of the part, the scene at the origin.
struct Motion<'a, S> {
    start: &'a Isometry,
    end: &'a Isometry,
    interpolation: Interpolation,
    tolerance: Real,
    stats: &'a mut S,
}

impl<S: Stats> TreePairVisitor for Motion<'_, S> {
    type Output = Result<Option<Impact>, SweepError>;

    fn visit<VA, VB>(self, a: &Bvh<VA>, b: &Bvh<VB>) -> Self::Output
    where
        VA: NodeVolume + NodeTest<VB>,
        VB: NodeVolume,
    {
        let here = Isometry::identity();
        let query = Query::new(Posed::new(a, &here), Posed::new(b, self.start), QueryOptions::default())?;
        query.time_of_impact(self.end, self.interpolation, self.tolerance, self.stats)
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
    let pose = |name: &str, text: &str| {
        let numbers: Vec<f32> = text
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<_, _>>()
            .map_err(|e| format!("{name}: {e}"))?;
        pose_from_numbers(&numbers).map_err(|e| format!("{name}: {e}"))
    };
    let (start, end) = (pose("--from", args.from)?, pose("--to", args.to)?);
    let (scene, part) = (load_mesh(args.scene)?, load_mesh(args.part)?);
    let (a, b) = (Hierarchy::build(scene, &args.preset), Hierarchy::build(part, &args.preset));
    let mut stats = QueryStats::default();
    let motion = Motion {
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
/// µs).
pub(crate) fn run_motions(variants: &[Variant], poses: &[Isometry], args: &Args<'_>) -> Result<(), String> {
    let motions = poses.len().saturating_sub(1);
    let (interpolation, tolerance) = (args.motion.into(), args.tolerance);
    let impact = |a: &Hierarchy, b: &Hierarchy, k: usize, stats: &mut QueryStats| {
        let motion = Motion { start: &poses[k], end: &poses[k + 1], interpolation, tolerance, stats };
        visit_tree_pair(a, b, motion)
    };
    // Refused motions (a tolerance below the rounding) are errors, found before timing.
    let mut answers = Vec::with_capacity(motions);
    let first = variants.first().ok_or("no preset")?;
    for k in 0..motions {
        answers.push(
            impact(&first.a, &first.b, k, &mut QueryStats::default())
                .map_err(|e| format!("motion {k}: {e}"))?,
        );
    }
    let mut queries: Vec<_> = variants
        .iter()
        .map(|v| move |k: usize| impact(&v.a, &v.b, k, &mut QueryStats::default()).is_ok_and(|i| i.is_some()))
        .collect();
    let mut queries: Vec<&mut dyn FnMut(usize) -> bool> =
        queries.iter_mut().map(|q| q as &mut dyn FnMut(usize) -> bool).collect();
    let timed = time_poses(motions, args.reps, &mut queries);
    let checks: Vec<Check> = (0..motions)
        .filter(|_| args.verify > 0)
        .map(|k| {
            let motion =
                RigidMotion::new(&poses[k], &poses[k + 1], interpolation).map_err(|e| e.to_string())?;
            let sampled = Sampled { motion: &motion, samples: args.verify, at: answers[k].map(|i| i.time) };
            Ok(visit_tree_pair(&first.a, &first.b, sampled))
        })
        .collect::<Result<_, String>>()?;
    if let Some(out) = args.out {
        let time = |t: Option<f64>| t.map_or("none".to_string(), |t| format!("{t:.9}"));
        let lines: String = answers
            .iter()
            .enumerate()
            .map(|(k, a)| match checks.get(k) {
                Some(check) => {
                    let us = timed[0].0.per_pose[k];
                    format!("{} {} {us:.3}\n", time(a.map(|i| i.time)), time(check.first_contact))
                }
                None => format!("{}\n", time(a.map(|i| i.time))),
            })
            .collect();
        std::fs::write(out, lines).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    let hits: Vec<f64> = answers.iter().flatten().map(|i| i.time).collect();
    let at_start = hits.iter().filter(|&&t| t == 0.0).count();
    let verified = (!checks.is_empty()).then(|| verdicts(&answers, &checks, tolerance, args.verify));
    for (variant, (times, _)) in variants.iter().zip(timed) {
        let mut stats = QueryStats::default();
        for k in 0..motions {
            let _ = impact(&variant.a, &variant.b, k, &mut stats);
        }
        let mut json = summary(variant, &times, &stats, motions, args, (hits.len(), at_start));
        // Motions that start touching cost one first-contact search: the others show the
        // advancement.
        let (start, during): (Vec<_>, Vec<_>) =
            times.per_pose.iter().zip(&answers).partition(|(_, a)| a.is_some_and(|i| i.time == 0.0));
        let mean_of = |v: &[(&f64, _)]| mean(&v.iter().map(|(t, _)| **t).collect::<Vec<_>>());
        json += &format!(
            ",\"query_us_mean_touching_at_start\":{:.3},\"query_us_mean_others\":{:.3}",
            mean_of(&start),
            mean_of(&during)
        );
        println!("{json}{}}}", verified.as_deref().unwrap_or(""));
    }
    Ok(())
}

/// What sampling a motion found: the first sample at which the meshes intersect, and the exact
/// distance at the answer's time.
struct Check {
    first_contact: Option<f64>,
    distance_at_answer: Option<Real>,
}

/// Samples one motion at `samples + 1` evenly spaced times, and measures the distance at `at`.
struct Sampled<'a> {
    motion: &'a RigidMotion,
    samples: u32,
    at: Option<f64>,
}

impl TreePairVisitor for Sampled<'_> {
    type Output = Check;

    fn visit<VA, VB>(self, a: &Bvh<VA>, b: &Bvh<VB>) -> Check
    where
        VA: NodeVolume + NodeTest<VB>,
        VB: NodeVolume,
    {
        let here = Isometry::identity();
        let query_at = |t: f64, f: &mut dyn FnMut(&Query<'_, VA, VB>) -> bool| {
            let pose = self.motion.pose_at(t);
            f(&Query::new(Posed::new(a, &here), Posed::new(b, &pose), QueryOptions::default())
                .expect("finite poses"))
        };
        let mut cache = PairCache::new();
        let first_contact = (0..=self.samples)
            .map(|i| i as f64 / self.samples as f64)
            .find(|&t| query_at(t, &mut |q| q.intersects(Some(&mut cache), &mut ()).is_some()));
        let distance_at_answer = self.at.map(|t| {
            let mut distance = Real::INFINITY;
            query_at(t, &mut |q| {
                distance = q
                    .distance(DistanceOptions::exact(), None, &mut ())
                    .map_or(Real::INFINITY, |n| n.distance);
                true
            });
            distance
        });
        Check { first_contact, distance_at_answer }
    }
}

/// The JSON fields judging the answers by their checks: late (after the first touching sample),
/// missed (no answer, yet a sample touches), far (more than the tolerance apart at the answer).
fn verdicts(answers: &[Option<Impact>], checks: &[Check], tolerance: Real, samples: u32) -> String {
    let (mut late, mut missed, mut far) = (0, 0, 0);
    for (answer, check) in answers.iter().zip(checks) {
        match (answer, check.first_contact) {
            (Some(i), Some(s)) if i.time > s => late += 1,
            (None, Some(_)) => missed += 1,
            _ => {}
        }
        far += usize::from(check.distance_at_answer.is_some_and(|d| d > tolerance));
    }
    let touching = checks.iter().filter(|c| c.first_contact.is_some()).count();
    format!(
        ",\"verify_samples\":{samples},\"sampled_contacts\":{touching},\"late\":{late},\"missed\":{missed},\"far_at_answer\":{far}"
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
