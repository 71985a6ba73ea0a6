//! The bench command-line program: one module per subcommand, each with its arguments, all
//! failing the one way (`error: …` on stderr, exit status 1).

mod broadphase;
mod build;
mod contacts;
mod distance;
mod export;
mod figures;
mod info;
mod json;
mod maintenance;
mod paper002;
mod paper004;
mod peer_pairs;
mod poses;
mod scene;
mod toi;
mod values;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

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
    Run(maintenance::Args),
    /// Build time of every preset on paper 000's generated meshes against parry3d's
    /// `TriMesh::new`, refit time against parry3d's `Bvh` refit, and hull-sampled against
    /// full-PCA OBB fitting.
    Build(build::Args),
    /// One query per pose of a pose file (12 numbers per line: the row-major 3×4 [R|t] placing
    /// the part in the scene's frame), timed over repetitions, with statistics, and parry3d's
    /// `intersection_test` on the same poses in the same run.
    Poses(poses::Args),
    /// Paper 002's experiment: a 530-triangle teapot against models of 2,124 to 8,106 triangles,
    /// per-detection times of several configurations beside the paper's table; writes a report.
    Paper002(paper002::Args),
    /// Paper 004's experiment: 40 objects of mixed shapes in random motion through the collision
    /// pipeline, per-step times of several configurations beside the paper's; writes a report.
    Paper004(paper004::Args),
    /// A scene of objects stepped through the collision pipeline (broadphase, root-volume test,
    /// exact query per pair) with random motion deterministic from the seed: one JSON line with
    /// the step times and counts.
    Scene(scene::Args),
    /// Our broadphase strategies against parry3d's `Bvh` on the same moving boxes (the anchors'
    /// scenes): step medians, ratios, and whether every back-end found the same pairs.
    Broadphase(broadphase::Args),
    /// One pose of a part against a scene as a PLY file for any mesh viewer: the part and the
    /// scene around it in world coordinates, each contact region's triangles in a colour of its
    /// own and its normal as an arrow.
    Export(export::Args),
    /// Pictures of contact regions on the shapes docs/regions.md describes (SVG), with a page
    /// of what each region reports.
    Figures(figures::Args),
    /// The contact regions of a part against a scene at one pose: each place where they meet
    /// with its normal, depth, up to four contact points, triangle pairs and coplanar area.
    Contacts(contacts::Args),
    /// When the part, moving from one pose to another, first comes within the tolerance of the
    /// scene: conservative (never after the first contact), with the triangle pair, the point
    /// and the normal there.
    Toi(toi::Args),
    /// Where a peer's intersecting triangle pairs (the anchors' `--dump-pairs` output) differ
    /// from ours: per pose, the pairs only one side reports, each with its distance as the pose
    /// places it and that distance in last places of its coordinates; then a summary line.
    PeerPairs(peer_pairs::Args),
    /// Each part of a mesh file (OBJ, STL or OpenFlight) with its triangle and vertex counts
    /// and bounds; exits with status 1 and the reader's message when the file is bad.
    Info(info::Args),
}

fn main() -> ExitCode {
    let done = match Cli::parse().command.unwrap_or(Command::Run(maintenance::Args::default())) {
        Command::Run(args) => maintenance::run(args),
        Command::Build(args) => build::run(args),
        Command::Poses(args) => poses::run(args),
        Command::Paper002(args) => paper002::run(args),
        Command::Paper004(args) => paper004::run(args),
        Command::Scene(args) => scene::run(args),
        Command::Broadphase(args) => broadphase::run(args),
        Command::Export(args) => export::run(args),
        Command::Figures(args) => figures::run(args),
        Command::Contacts(args) => contacts::run(args),
        Command::Toi(args) => toi::run(args),
        Command::PeerPairs(args) => peer_pairs::run(args),
        Command::Info(args) => info::run(args),
    };
    match done {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
