//! `bvh-bench paper004`: paper 004's experiment – 40 objects of mixed shapes (about 9,000
//! triangles) in random motion for 1,000 steps – run through the collision pipeline in several
//! configurations, beside the paper's 37.2 ms per step.

use crate::json;
use crate::scene::{Run, RunRecord, room, simulate};
use bvh_bench::report::Report;
use bvh_bench::stats::median;
use bvh_broadphase::AnyStrategy;
use bvh_build::Preset;
use serde::Serialize;
use std::path::PathBuf;

/// Paper 004's measured time per step, ms (classification + grid + temporal coherence).
const PAPER_STEP_MS: f64 = 37.2;

/// `bvh-bench paper004`'s arguments.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// Steps to run.
    #[arg(long, default_value_t = 1000)]
    steps: usize,
    /// Seed of the room and the motion.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where the report goes.
    #[arg(long, default_value = "bvh-report/paper004")]
    report: PathBuf,
    /// One JSON line per configuration instead of the table.
    #[arg(long)]
    json: bool,
}

/// One configuration's JSON line.
#[derive(Serialize)]
struct Record<'a> {
    configuration: &'a str,
    #[serde(flatten)]
    run: RunRecord,
    paper_step_ms: f64,
}

pub(crate) fn run(args: Args) -> Result<(), String> {
    let Args { steps, seed, report: report_dir, json } = args;
    let report_dir = report_dir.as_path();
    let configurations = [
        ("shape-classified + grid + cache (paper 004)", Preset::classified(), "grid"),
        ("CO + grid + cache", Preset::co(), "grid"),
        ("sphere-OBB + octree + cache (paper 003)", Preset::sphere_obb(), "octree"),
        ("shape-classified + brute force", Preset::classified(), "brute"),
    ];
    let mut runs: Vec<(&str, Run)> = Vec::new();
    for (name, preset, strategy) in configurations {
        let strategy = AnyStrategy::by_name(strategy).expect("a known strategy");
        let run = simulate(room(&preset, 1.0, seed), strategy, steps, seed, None)?;
        if json {
            json::print_line(&Record {
                configuration: name,
                run: run.record(),
                paper_step_ms: PAPER_STEP_MS,
            })?;
        }
        runs.push((name, run));
    }
    let header = [
        "configuration",
        "ms/step mean",
        "median",
        "candidates",
        "colliding",
        "volume tests",
        "triangle tests",
    ];
    let rows: Vec<Vec<String>> = runs
        .iter()
        .map(|(name, r)| {
            vec![
                name.to_string(),
                format!("{:.3}", r.step_ms_mean()),
                format!("{:.3}", median(&r.step_ms)),
                format!("{:.1}", r.candidates_mean),
                format!("{:.1}", r.colliding_mean),
                format!("{:.0}", r.volume_tests_mean),
                format!("{:.0}", r.triangle_tests_mean),
            ]
        })
        .collect();
    let (objects, triangles) = (runs[0].1.objects, runs[0].1.triangles);
    let intro = format!(
        "{objects} objects, {triangles} triangles, all moving at random, {steps} steps (seed {seed}). \
         Paper 004 measured **{PAPER_STEP_MS} ms per step** with shape classification, a uniform grid \
         and temporal coherence (2016 hardware); ours takes {:.3} ms ({:.0}x less).",
        runs[0].1.step_ms_mean(),
        PAPER_STEP_MS / runs[0].1.step_ms_mean()
    );
    if !json {
        println!("paper 004: {intro}\n");
        println!(
            "{:<46} {:>13} {:>8} {:>11} {:>10} {:>13} {:>15}",
            header[0], header[1], header[2], header[3], header[4], header[5], header[6]
        );
        for row in &rows {
            println!(
                "{:<46} {:>13} {:>8} {:>11} {:>10} {:>13} {:>15}",
                row[0], row[1], row[2], row[3], row[4], row[5], row[6]
            );
        }
    }
    let mut report =
        Report::new(report_dir, "Paper 004: 40 objects in random motion").map_err(|e| e.to_string())?;
    report.text(&intro);
    report.table(&header, &rows);
    let bars: Vec<(String, f64)> = runs.iter().map(|(n, r)| (short(n), r.step_ms_mean() * 1e3)).collect();
    report.bars("step_time.svg", "mean time per step", "µs", &bars)?;
    let series: Vec<_> = runs
        .iter()
        .map(|(n, r)| (short(n), r.step_ms.iter().enumerate().map(|(i, t)| (i as f64, t * 1e3)).collect()))
        .collect();
    report.lines("steps.svg", "time per step", ("step", "µs"), &series)?;
    let path = report.finish().map_err(|e| e.to_string())?;
    eprintln!("report: {}", path.display());
    Ok(())
}

/// A configuration's name without its parenthesis, for chart labels.
fn short(name: &str) -> String {
    name.split(" (").next().unwrap_or(name).to_string()
}
