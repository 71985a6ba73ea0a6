//! `bvh-bench peer-pairs`: where a peer's intersecting triangle pairs differ from ours, pose by
//! pose, and how far apart the disputed pairs lie.

use crate::json;
use crate::values::{MeshesAndPoses, PresetName};
use bvh_bench::peer_pairs::{DisputedPair, Disputes};
use bvh_build::Hierarchy;
use bvh_core::Isometry;
use bvh_query::{HierarchyQuery, QueryOptions};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// `bvh-bench peer-pairs`' arguments.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// The meshes and the pose file the peer ran.
    #[command(flatten)]
    at: MeshesAndPoses,
    /// The peer's pairs: one JSON object from pose index (a string) to its [scene triangle,
    /// part triangle] pairs, as the anchors' harnesses write with `--dump-pairs`.
    #[arg(long)]
    pairs: PathBuf,
    /// The hierarchy preset our pairs come from (every preset finds the same pairs).
    #[arg(long, value_enum, default_value = "co")]
    preset: PresetName,
}

/// One pose's line: both sides' counts and the pairs only one side reports.
#[derive(Serialize)]
struct PoseRecord {
    pose: usize,
    ours: usize,
    peer: usize,
    peer_repeats: usize,
    peer_only: Vec<PairRecord>,
    ours_only: Vec<PairRecord>,
}

/// A disputed pair: its triangles, their distance and that distance in last places.
#[derive(Serialize)]
struct PairRecord {
    scene: u32,
    part: u32,
    distance: f64,
    ulps: f64,
}

impl From<&DisputedPair> for PairRecord {
    fn from(p: &DisputedPair) -> Self {
        Self {
            scene: p.scene,
            part: p.part,
            distance: json::significant(p.distance.into(), 4),
            ulps: json::significant(p.ulps, 3),
        }
    }
}

/// The last line: over all poses, how many pairs each side alone reports and the farthest apart.
#[derive(Serialize, Default)]
struct Summary {
    poses: usize,
    poses_differing: usize,
    peer_only: usize,
    ours_only: usize,
    peer_only_farthest: f64,
    peer_only_farthest_ulps: f64,
    ours_only_farthest: f64,
    ours_only_farthest_ulps: f64,
}

impl Summary {
    /// Counts one pose's disputes in.
    fn add(&mut self, disputes: &Disputes) {
        let farthest = |pairs: &[DisputedPair], distance: &mut f64, ulps: &mut f64| {
            for p in pairs {
                *distance = distance.max(p.distance.into());
                *ulps = ulps.max(p.ulps);
            }
        };
        self.poses += 1;
        self.poses_differing += usize::from(!disputes.peer_only.is_empty() || !disputes.ours_only.is_empty());
        self.peer_only += disputes.peer_only.len();
        self.ours_only += disputes.ours_only.len();
        farthest(&disputes.peer_only, &mut self.peer_only_farthest, &mut self.peer_only_farthest_ulps);
        farthest(&disputes.ours_only, &mut self.ours_only_farthest, &mut self.ours_only_farthest_ulps);
    }
}

pub(crate) fn run(args: Args) -> Result<(), String> {
    let (scene, part, poses) = args.at.load()?;
    let text = std::fs::read_to_string(&args.pairs).map_err(|e| format!("{}: {e}", args.pairs.display()))?;
    let peer: BTreeMap<String, Vec<[u32; 2]>> =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", args.pairs.display()))?;
    let preset = args.preset.0;
    let (a, b) = (Hierarchy::build(scene.clone(), &preset), Hierarchy::build(part.clone(), &preset));
    let mut summary = Summary::default();
    let mut by_pose = peer
        .into_iter()
        .map(|(key, pairs)| match key.parse::<usize>() {
            Ok(k) if k < poses.len() => Ok((k, pairs)),
            _ => Err(format!("{}: no pose {key} in {} poses", args.pairs.display(), poses.len())),
        })
        .collect::<Result<Vec<_>, String>>()?;
    by_pose.sort_by_key(|(pose, _)| *pose);
    for (k, pairs) in by_pose {
        let query = HierarchyQuery::try_new(&a, Isometry::identity(), &b, poses[k], QueryOptions::default())
            .map_err(|e| e.to_string())?;
        let ours: Vec<[u32; 2]> = query.intersecting_pairs().iter().map(|p| [p.a, p.b]).collect();
        let disputes = Disputes::between(&scene, &part, &poses[k], &ours, &pairs)
            .map_err(|e| format!("pose {k}: {e}"))?;
        summary.add(&disputes);
        json::print_line(&PoseRecord {
            pose: k,
            ours: ours.len(),
            peer: pairs.len(),
            peer_repeats: disputes.peer_repeats,
            peer_only: disputes.peer_only.iter().map(PairRecord::from).collect(),
            ours_only: disputes.ours_only.iter().map(PairRecord::from).collect(),
        })?;
    }
    let round = |x: f64| json::significant(x, 4);
    json::print_line(&Summary {
        peer_only_farthest: round(summary.peer_only_farthest),
        peer_only_farthest_ulps: round(summary.peer_only_farthest_ulps),
        ours_only_farthest: round(summary.ours_only_farthest),
        ours_only_farthest_ulps: round(summary.ours_only_farthest_ulps),
        ..summary
    })
}
