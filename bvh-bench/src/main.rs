//! The bench command-line program.

mod build_times;
mod demo;

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
}

fn main() {
    match Cli::parse().command.unwrap_or(Command::Run) {
        Command::Run => demo::run(),
        Command::Build { repeats, small } => build_times::run(repeats.max(1), small),
    }
}
