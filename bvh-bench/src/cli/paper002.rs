//! `bvh-bench paper002`: paper 002's experiment – a 530-triangle teapot against models of 2,124 to
//! 8,106 triangles, first the small object moving, then the large one – timed per detection (every
//! intersecting triangle pair) for several configurations, beside the paper's table.

use crate::json::{self, fixed};
use bvh_bench::report::{Report, Series};
use bvh_bench::stats::median;
use bvh_build::generate::{PAPER002_MODEL_TRIANGLES, bumpy_model, teapot};
use bvh_build::{Hierarchy, Preset};
use bvh_core::{Isometry, TriMesh, Vector};
use bvh_query::{HierarchyQuery, QueryOptions};
use serde::Serialize;
use std::path::PathBuf;
use std::time::Instant;

/// Paper 002, ms per detection with the large model moving: DAASD, AABB tree, BSP tree.
const PAPER: [(&str, [f64; 4]); 3] = [
    ("DAASD (paper 002)", [2.2, 3.2, 6.5, 8.8]),
    ("AABB tree", [32.4, 101.6, 148.5, 216.7]),
    ("BSP tree", [6.23, 10.11, 18.52, 24.44]),
];

/// Frames along the path.
const FRAMES: usize = 200;

/// Ours: (label, preset, region culling, the moving model's tree refitted every frame).
fn configurations() -> [(&'static str, Preset, bool, bool); 6] {
    [
        ("AABB tree refitted (paper's baseline)", Preset::aabb_tree(), false, true),
        ("AABB tree refitted + region culling", Preset::aabb_tree(), true, true),
        ("AABB tree", Preset::aabb_tree(), false, false),
        ("AABB tree + region culling", Preset::aabb_tree(), true, false),
        ("RAPID (OBB tree)", Preset::rapid(), false, false),
        ("CO (ours)", Preset::co(), false, false),
    ]
}

/// `bvh-bench paper002`'s arguments.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// Where the report goes.
    #[arg(long, default_value = "bvh-report/paper002")]
    report: PathBuf,
    /// One JSON line per measurement instead of the tables.
    #[arg(long)]
    json: bool,
}

/// One measurement's JSON line.
#[derive(Serialize)]
struct Record<'a> {
    configuration: &'a str,
    moving: &'a str,
    model_triangles: usize,
    us_per_detection: f64,
}

pub(crate) fn run(args: Args) -> Result<(), String> {
    let (report_dir, json) = (args.report.as_path(), args.json);
    let small = teapot();
    let mut report =
        Report::new(report_dir, "Paper 002: a teapot against growing models").map_err(|e| e.to_string())?;
    report.text(&format!(
        "A {}-triangle teapot passes through closed bumpy models of {:?} triangles along a {FRAMES}-frame \
         path (in, through the middle, out, turning); every frame finds every intersecting triangle pair. \
         Ours: µs per detection on this machine; paper 002: ms per detection (2013 hardware, large model moving).",
        small.triangle_count(),
        PAPER002_MODEL_TRIANGLES
    ));
    let mut scaling: Vec<Series> = Vec::new();
    for moving_large in [false, true] {
        let which = if moving_large { "large model moving" } else { "teapot moving" };
        let mut header = vec!["configuration".to_string()];
        header.extend(PAPER002_MODEL_TRIANGLES.iter().map(|n| format!("{n} µs")));
        let mut rows = Vec::new();
        for (label, preset, culling, refit) in configurations() {
            let mut row = vec![label.to_string()];
            let mut points = Vec::new();
            for &n in &PAPER002_MODEL_TRIANGLES {
                let large = bumpy_model(n);
                let us = time_path(&small, &large, &preset, culling, moving_large, refit);
                if json {
                    let record = Record {
                        configuration: label,
                        moving: which,
                        model_triangles: n,
                        us_per_detection: fixed(us, 2),
                    };
                    json::print_line(&record)?;
                }
                row.push(format!("{us:.1}"));
                points.push((n as f64, us));
            }
            if moving_large {
                scaling.push((label.to_string(), points));
            }
            rows.push(row);
        }
        if moving_large {
            for (label, ms) in PAPER {
                let mut row = vec![format!("paper: {label}, ms")];
                row.extend(ms.iter().map(|m| format!("{m}")));
                rows.push(row);
            }
        }
        if !json {
            println!("\npaper 002, {which} (ours: µs per detection; paper: ms)");
            println!("{}", header.iter().map(|h| format!("{h:>14}")).collect::<String>());
            for row in &rows {
                println!("{:<34}{}", row[0], row[1..].iter().map(|c| format!("{c:>12}")).collect::<String>());
            }
        }
        report.text(&format!("## {which}"));
        let header: Vec<&str> = header.iter().map(String::as_str).collect();
        report.table(&header, &rows);
    }
    report.lines(
        "scaling.svg",
        "time per detection, large model moving",
        ("model triangles", "µs"),
        &scaling,
    )?;
    let path = report.finish().map_err(|e| e.to_string())?;
    eprintln!("report: {}", path.display());
    Ok(())
}

/// µs per detection along the path: the teapot (or, with `moving_large`, the model) moves; the
/// other stays at the origin. With `refit`, as in the paper's AABB tree, the moving object's
/// vertices are placed in the world and its tree refitted to them every frame (timed with the
/// query); otherwise its tree stays in its own frame and only the pose changes (layered update).
fn time_path(
    small: &TriMesh,
    large: &TriMesh,
    preset: &Preset,
    region_culling: bool,
    moving_large: bool,
    refit: bool,
) -> f64 {
    let (fixed, moving) = if moving_large { (small, large) } else { (large, small) };
    let a = Hierarchy::build(fixed.clone(), preset);
    let mut b = Hierarchy::build(moving.clone(), preset);
    let poses: Vec<Isometry> = (0..FRAMES)
        .map(|f| {
            let t = f as f32 / (FRAMES - 1) as f32;
            Isometry::new(Vector::new(-1.2 + 2.4 * t, 0.05, 0.02), Vector::new(0.0, 0.0, 2.0 * t))
        })
        .collect();
    let options = QueryOptions { region_culling, ..QueryOptions::default() };
    let identity = Isometry::identity();
    let mut placed = Vec::with_capacity(moving.vertices().len());
    let mut pass = || {
        let start = Instant::now();
        let mut found = 0;
        for pose in &poses {
            let pose_b = if refit {
                placed.clear();
                placed.extend(moving.vertices().iter().map(|p| pose * p));
                b.refit(&placed).expect("vertices placed by a finite pose are finite");
                identity
            } else {
                *pose
            };
            found += HierarchyQuery::new(&a, identity, &b, pose_b, options).intersecting_pairs().len();
        }
        std::hint::black_box(found);
        start.elapsed().as_secs_f64() * 1e6 / poses.len() as f64
    };
    // The median of five passes over the path.
    let passes: Vec<f64> = (0..5).map(|_| pass()).collect();
    median(&passes)
}
