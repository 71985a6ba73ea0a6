//! What `bvh-bench poses --query distance` adds to the other queries: the answers written out,
//! summarised, and compared with parry3d's `query::distance`, disagreements classified by a
//! reference with B's triangles placed in `f64`.

use crate::json::{fixed, significant};
use crate::poses::{ParryMeshes, QueryTimes, time_poses};
use bvh_bench::stats::{mean, median};
use bvh_core::{Isometry, TriMesh, closest_points_triangles};
use bvh_query::{DistanceOptions, NearPair, TrianglePair};
use parry3d::math::Pose;
use serde::Serialize;

/// One line per pose: the distance, then the closest point on the scene and on the part (world
/// frame); `inf` and no points for a pose farther than the limit.
pub(crate) fn lines(answers: &[Option<NearPair>]) -> String {
    answers
        .iter()
        .map(|answer| match answer {
            Some(n) => format!(
                "{:.9e} {} {} {} {} {} {}\n",
                n.distance, n.on_a.x, n.on_a.y, n.on_a.z, n.on_b.x, n.on_b.y, n.on_b.z
            ),
            None => "inf\n".to_string(),
        })
        .collect()
}

/// The answers summed up for the JSON line.
#[derive(Serialize)]
pub(crate) struct Summary {
    abs_err: f32,
    rel_err: f32,
    max_distance: Option<f32>,
    touching: usize,
    farther: usize,
    distance_mean: f64,
}

pub(crate) fn summary(answers: &[Option<NearPair>], options: &DistanceOptions) -> Summary {
    let distances: Vec<f64> = answers.iter().flatten().map(|n| n.distance as f64).collect();
    Summary {
        abs_err: options.abs_err,
        rel_err: options.rel_err,
        max_distance: options.max_distance.is_finite().then_some(options.max_distance),
        touching: distances.iter().filter(|&&d| d == 0.0).count(),
        farther: answers.len() - distances.len(),
        distance_mean: significant(mean(&distances), 7),
    }
}

/// The distance between `scene` and `part` at `pose` over the triangle pairs `candidates`
/// (which must hold the nearest pair), with the part's triangles placed in `f64` and rounded
/// once: the oracle a disagreement is judged by.
pub(crate) fn reference(
    scene: &TriMesh,
    part: &TriMesh,
    pose: &Isometry,
    candidates: &[TrianglePair],
) -> f64 {
    candidates
        .iter()
        .map(|pair| {
            let moved = part.triangle(pair.b as usize).transformed(pose);
            closest_points_triangles(&scene.triangle(pair.a as usize), &moved).distance as f64
        })
        .fold(f64::INFINITY, f64::min)
}

/// parry3d's `query::distance` timed on the first poses, beside ours.
pub(crate) struct ParryDistance {
    times: QueryTimes,
    /// Poses where the two answers differ by more than rounding: pose, ours, parry's, reference.
    disagreements: Vec<(usize, f64, f64, f64)>,
}

/// Times parry's distance query on the poses of `ours` (a prefix of the pose list), and
/// classifies every answer that differs from ours by `reference(k)`.
pub(crate) fn versus_parry(
    meshes: &ParryMeshes,
    ours: &[Option<NearPair>],
    reps: usize,
    reference: impl Fn(usize) -> f64,
) -> ParryDistance {
    // NaN where parry refuses the pair.
    let mut parry_distance = |k: usize| {
        let d = parry3d::query::distance(&Pose::IDENTITY, &meshes.a, &meshes.poses[k], &meshes.b);
        d.map_or(f64::NAN, |d| d.distance as f64)
    };
    let (times, answers) = time_poses(ours.len(), reps, false, &mut [&mut parry_distance]).remove(0);
    let disagreements = answers
        .iter()
        .zip(ours)
        .enumerate()
        .filter_map(|(k, (&parry, ours))| {
            let ours = ours.map_or(f64::INFINITY, |n| n.distance as f64);
            let agree =
                (parry - ours).abs() <= 1e-5 * (1.0 + ours.max(parry)) || (parry == 0.0 && ours == 0.0);
            (!agree).then(|| (k, ours, parry, reference(k)))
        })
        .collect();
    ParryDistance { times, disagreements }
}

/// parry's times on the prefix, ours on the same poses, and the disagreements.
#[derive(Serialize)]
pub(crate) struct ParryRecord {
    parry_poses: usize,
    parry_distance_us_mean: f64,
    parry_distance_us_median: f64,
    ours_us_mean_same_poses: f64,
    ours_us_median_same_poses: f64,
    ratio_parry_over_ours: f64,
    disagreements: usize,
    disagreement_details: Vec<DistanceDisagreement>,
}

/// One pose where the distances differ by more than rounding, with the reference's.
#[derive(Serialize)]
struct DistanceDisagreement {
    pose: usize,
    ours: f64,
    parry: f64,
    reference: f64,
}

impl ParryDistance {
    /// The JSON record, given our per-pose times over the whole list (µs).
    pub(crate) fn record(&self, ours_per_pose: &[f64]) -> ParryRecord {
        let n = self.times.per_pose.len();
        let ours = &ours_per_pose[..n.min(ours_per_pose.len())];
        let digits = |x: f64| significant(x, 10);
        let details: Vec<DistanceDisagreement> = self
            .disagreements
            .iter()
            .map(|&(pose, ours, parry, reference)| DistanceDisagreement {
                pose,
                ours: digits(ours),
                parry: digits(parry),
                reference: digits(reference),
            })
            .collect();
        ParryRecord {
            parry_poses: n,
            parry_distance_us_mean: fixed(self.times.mean(), 3),
            parry_distance_us_median: fixed(self.times.median(), 3),
            ours_us_mean_same_poses: fixed(mean(ours), 3),
            ours_us_median_same_poses: fixed(median(ours), 3),
            ratio_parry_over_ours: fixed(self.times.mean() / mean(ours), 2),
            disagreements: details.len(),
            disagreement_details: details,
        }
    }
}
