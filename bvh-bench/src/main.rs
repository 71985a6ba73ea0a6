//! The bench command-line program.

mod build_times;
mod demo;
mod info;

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
    /// The built-in job (the default): a generated part slides through a generated scene and
    /// every frame reports contacts and clearance, found by brute force over exact triangle
    /// tests until the query crate lands.
    Run,
    /// Build time of every preset on paper 000's generated meshes against parry3d's
    /// `TriMesh::new`, and hull-sampled against full-PCA OBB fitting.
    Build {
        /// Builds per measurement (the median is reported).
        #[arg(long, default_value_t = 3)]
        repeats: usize,
        /// Skip the 497,805-triangle bay.
        #[arg(long)]
        small: bool,
    },
    /// Each part of a mesh file (OBJ, STL or OpenFlight) with its triangle and vertex counts
    /// and bounds; exits with status 1 and the reader's message when the file is bad.
    Info {
        /// The file.
        file: std::path::PathBuf,
    },
}

fn main() -> std::process::ExitCode {
    match Cli::parse().command.unwrap_or(Command::Run) {
        Command::Run => demo::run(),
        Command::Build { repeats, small } => build_times::run(repeats.max(1), small),
        Command::Info { file } => return info::run(&file),
    }
    std::process::ExitCode::SUCCESS
}
