//! The built-in job: paper 000's maintenance tasks on the generated bays. Each part is pulled
//! out of its bay along a path that wobbles towards the pipes beside it; every frame reports
//! whether and where it touches, and its minimum clearance and where it occurs, with parry3d
//! timed on the same frames.

use crate::json::{self, fixed};
use bvh_bench::export::{Highlights, write_contact_ply};
use bvh_bench::parry_bridge;
use bvh_bench::report::Report;
use bvh_bench::stats::mean;
use bvh_bench::timing::timed;
use bvh_build::generate::{MaintenanceScene, accumulator_bay, ptu_bay};
use bvh_build::{BuildConfig, Bvh, Hierarchy, Preset};
use bvh_core::{Isometry, Obb, Point};
use bvh_query::{DistanceOptions, HierarchyQuery, PairCache, Posed, Query, QueryOptions, QueryStats};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::path::Path;
use std::time::Instant;

/// Frames per extraction.
const FRAMES: usize = 240;
/// The clearance the user wants kept, metres: frames nearer than this are counted.
const CLEARANCE: f32 = 0.01;

/// Paper 000's table 3, ms per detection: RAPID, SAO, AO, CO.
const PAPER_TABLE_3: [(&str, [f64; 4]); 2] =
    [("remove accumulator", [7.73, 6.82, 6.51, 6.39]), ("remove PTU", [35.54, 30.49, 25.57, 23.12])];

/// Prints unless the run was asked for JSON.
macro_rules! say {
    ($json:expr, $($arg:tt)*) => {
        if !$json {
            println!($($arg)*);
        }
    };
}

/// Where the run's report goes.
const REPORT_DIR: &str = "bvh-report/run";

/// The job; with `json`, one JSON line per extraction and per configuration instead of tables.
/// `bvh-bench run`'s arguments.
#[derive(clap::Args, Default)]
pub(crate) struct Args {
    /// One JSON line per extraction and per configuration instead of the tables.
    #[arg(long)]
    json: bool,
}

/// One configuration's JSON line.
#[derive(Serialize)]
struct ConfigurationRecord<'a> {
    task: &'a str,
    configuration: &'a str,
    build_ms: f64,
    us_per_frame: f64,
    ratio_to_co: f64,
    touching_frames: usize,
    paper_ms: Option<f64>,
    paper_ratio_to_co: Option<f64>,
}

/// One extraction's JSON line.
#[derive(Serialize)]
struct ExtractionRecord<'a> {
    task: &'a str,
    bay_triangles: usize,
    part_triangles: usize,
    frames: usize,
    touching_frames: usize,
    us_per_frame: f64,
    uncached_us_per_frame: f64,
    parry_us_per_frame: f64,
    parry_agrees: usize,
    volume_tests_per_frame: f64,
    triangle_tests_per_frame: f64,
    most_contacts_frame: usize,
    most_contacts: usize,
    distance_us_per_frame: f64,
    frames_within_clearance: usize,
    closest_apart_frame: i64,
    closest_apart_mm: f64,
}

pub(crate) fn run(args: Args) -> Result<(), String> {
    let json = args.json;
    let mut report = Report::new(Path::new(REPORT_DIR), "Virtual maintenance: paper 000's two extractions")
        .map_err(|e| e.to_string())?;
    for (k, (scene, paper)) in [accumulator_bay(1), ptu_bay(1)].iter().zip(PAPER_TABLE_3).enumerate() {
        let extraction = extract(scene, json);
        let rows = configurations(scene, paper.1, json);
        if json {
            json::print_line(&extraction.record(scene))?;
            for r in &rows {
                json::print_line(&ConfigurationRecord {
                    task: scene.name,
                    configuration: &r.name,
                    build_ms: fixed(r.build_ms, 1),
                    us_per_frame: fixed(r.us_per_frame, 2),
                    ratio_to_co: fixed(r.ratio_to_co, 3),
                    touching_frames: r.touching,
                    paper_ms: r.paper_ms.map(|v| fixed(v, 3)),
                    paper_ratio_to_co: r.paper_ratio.map(|v| fixed(v, 3)),
                })?;
            }
        }
        extraction.report(&mut report, scene, k)?;
        report_configurations(&mut report, &rows, k)?;
    }
    let path = report.finish().map_err(|e| e.to_string())?;
    eprintln!(
        "
report, charts and the contact frames: {}",
        path.display()
    );
    Ok(())
}

/// One configuration's measurements on a path.
struct ConfigurationRow {
    name: String,
    build_ms: f64,
    us_per_frame: f64,
    touching: usize,
    paper_ms: Option<f64>,
    paper_ratio: Option<f64>,
    ratio_to_co: f64,
}

/// Every configuration on the same extraction path: build time and mean time per frame (first
/// contact; no cache, then CO again with its cache), beside paper 000's table 3 and both sets of
/// ratios to CO.
fn configurations(scene: &MaintenanceScene, paper: [f64; 4], json: bool) -> Vec<ConfigurationRow> {
    say!(
        json,
        "\nconfigurations, {} (ours: µs per frame; paper 000: ms per detection on 2018 hardware)",
        scene.name
    );
    say!(
        json,
        "{:<12} {:>10} {:>12} {:>12} {:>10} {:>12}",
        "preset",
        "build ms",
        "µs/frame",
        "ratio to CO",
        "paper ms",
        "paper ratio"
    );
    let poses = scene.extraction_path(FRAMES);
    let progress = ProgressBar::new(Preset::ALL.len() as u64 + 1).with_style(
        ProgressStyle::with_template("{msg:>12} {wide_bar} {pos}/{len}").expect("a valid template"),
    );
    let mut rows = Vec::new();
    let configurations = Preset::ALL.iter().map(|p| (p.name.to_string(), *p, false)).chain([(
        "co + cache".to_string(),
        Preset::co(),
        true,
    )]);
    for (name, preset, cached) in configurations {
        progress.set_message(name.clone());
        let start = Instant::now();
        let (bay, part) =
            (Hierarchy::build(scene.bay.clone(), &preset), Hierarchy::build(scene.part.clone(), &preset));
        // The cache walks the neighbour lists: derived with the trees, not in the first frame.
        if cached {
            bay.derive_neighbours();
            part.derive_neighbours();
        }
        let build_ms = start.elapsed().as_secs_f64() * 1e3;
        let start = Instant::now();
        let touching = touching_frames((&bay, &part), &poses, cached);
        let us = start.elapsed().as_secs_f64() * 1e6 / poses.len() as f64;
        rows.push((name, build_ms, us, touching));
        progress.inc(1);
    }
    progress.finish_and_clear();
    let co = rows.iter().find(|r| r.0 == "co").map_or(1.0, |r| r.2);
    let paper_of =
        |name: &str| ["rapid", "sao", "ao", "co"].iter().position(|&n| n == name).map(|i| paper[i]);
    let rows: Vec<ConfigurationRow> = rows
        .into_iter()
        .map(|(name, build_ms, us_per_frame, touching)| ConfigurationRow {
            paper_ms: paper_of(&name),
            paper_ratio: paper_of(&name).map(|ms| ms / paper[3]),
            ratio_to_co: us_per_frame / co,
            name,
            build_ms,
            us_per_frame,
            touching,
        })
        .collect();
    let or_dash = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.2}"));
    for r in &rows {
        say!(
            json,
            "{:<12} {:>10.0} {:>12.1} {:>12.2} {:>10} {:>12}   ({} frames touching)",
            r.name,
            r.build_ms,
            r.us_per_frame,
            r.ratio_to_co,
            or_dash(r.paper_ms),
            or_dash(r.paper_ratio),
            r.touching
        );
    }
    rows
}

fn report_configurations(report: &mut Report, rows: &[ConfigurationRow], scene: usize) -> Result<(), String> {
    let or_dash = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.2}"));
    let table: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                r.name.clone(),
                format!("{:.0}", r.build_ms),
                format!("{:.1}", r.us_per_frame),
                format!("{:.2}", r.ratio_to_co),
                or_dash(r.paper_ms),
                or_dash(r.paper_ratio),
            ]
        })
        .collect();
    report.table(
        &["configuration", "build ms", "µs per frame", "ratio to CO", "paper 000 ms", "paper ratio to CO"],
        &table,
    );
    let bars: Vec<(String, f64)> = rows.iter().map(|r| (r.name.clone(), r.us_per_frame)).collect();
    report.bars(
        &format!("configurations_{scene}.svg"),
        "first contact per frame, by configuration",
        "µs",
        &bars,
    )
}

/// Frames touching along the path (with a pair cache carried from frame to frame if `cached`).
fn touching_frames((a, b): (&Hierarchy, &Hierarchy), poses: &[Isometry], cached: bool) -> usize {
    let mut cache = PairCache::new();
    let mut cache = cached.then_some(&mut cache);
    let query =
        |pose: &Isometry| HierarchyQuery::new(a, Isometry::identity(), b, pose, QueryOptions::default());
    poses
        .iter()
        .filter(|pose| query(pose).intersects_counted(cache.as_deref_mut(), &mut ()).is_some())
        .count()
}

/// What one extraction measured, for the report.
struct Extraction {
    /// First contact per frame, µs: ours with the pair cache, without it, and parry3d's.
    ours_us: Vec<f64>,
    uncached_us: Vec<f64>,
    parry_us: Vec<f64>,
    /// Per frame: the minimum clearance (zero when touching) and where on the bay it occurs.
    clearance: Vec<(f32, Point)>,
    /// The distance query's time per frame (with its cache), µs.
    distance_us: Vec<f64>,
    /// The frame with the most intersecting triangle pairs: its pose and the pairs.
    most: (usize, Isometry, Vec<(u32, u32)>),
    touching_frames: usize,
    /// Frames where parry3d gives the same answer.
    agreements: usize,
    stats: QueryStats,
}

impl Extraction {
    /// The least clearance over the frames where the part does not touch, with its frame and
    /// where on the bay it occurs.
    fn closest_apart(&self) -> Option<(usize, f32, Point)> {
        self.clearance
            .iter()
            .enumerate()
            .filter(|(_, (d, _))| *d > 0.0)
            .min_by(|x, y| x.1.0.total_cmp(&y.1.0))
            .map(|(k, (d, at))| (k, *d, *at))
    }

    fn record<'a>(&self, scene: &'a MaintenanceScene) -> ExtractionRecord<'a> {
        let n = FRAMES as f64;
        let (closest_frame, closest_mm) =
            self.closest_apart().map_or((-1, -1.0), |(k, d, _)| (k as i64, d * 1e3));
        ExtractionRecord {
            task: scene.name,
            bay_triangles: scene.bay.triangle_count(),
            part_triangles: scene.part.triangle_count(),
            frames: FRAMES,
            touching_frames: self.touching_frames,
            us_per_frame: fixed(mean(&self.ours_us), 2),
            uncached_us_per_frame: fixed(mean(&self.uncached_us), 2),
            parry_us_per_frame: fixed(mean(&self.parry_us), 2),
            parry_agrees: self.agreements,
            volume_tests_per_frame: fixed(self.stats.volume_tests() as f64 / n, 1),
            triangle_tests_per_frame: fixed(self.stats.triangle_tests as f64 / n, 1),
            most_contacts_frame: self.most.0,
            most_contacts: self.most.2.len(),
            distance_us_per_frame: fixed(mean(&self.distance_us), 2),
            frames_within_clearance: self.clearance.iter().filter(|(d, _)| *d <= CLEARANCE).count(),
            closest_apart_frame: closest_frame,
            closest_apart_mm: fixed(closest_mm as f64, 3),
        }
    }

    fn report(&self, report: &mut Report, scene: &MaintenanceScene, k: usize) -> Result<(), String> {
        let (frame, pose, pairs) = &self.most;
        let ply = format!("contact_frame_{k}.ply");
        let faces = write_contact_ply(
            &report.dir().join(&ply),
            &scene.bay,
            &scene.part,
            pose,
            &Highlights::touching(pairs),
            0.05,
        )
        .map_err(|e| e.to_string())?;
        report.text(&format!(
            concat!(
                "## {}\n\nBay of {} triangles, part of {} triangles, {} frames. First contact without a ",
                "cache, like parry3d's `intersection_test`: {:.1} µs per frame against parry3d's {:.1} µs ",
                "(ours takes {:.2}× its time). With the pair cache carried from frame to frame: {:.1} µs ({:.1}× faster ",
                "than without). The frame with the most ",
                "contacts (frame {}, {} triangle pairs) is in [{}]({}) ({} faces: the part and the bay within ",
                "5 cm of it; touching triangles red).",
            ),
            scene.name,
            scene.bay.triangle_count(),
            scene.part.triangle_count(),
            FRAMES,
            mean(&self.uncached_us),
            mean(&self.parry_us),
            mean(&self.uncached_us) / mean(&self.parry_us),
            mean(&self.ours_us),
            mean(&self.uncached_us) / mean(&self.ours_us),
            frame,
            pairs.len(),
            ply,
            ply,
            faces,
        ));
        let per_frame = |v: &[f64]| v.iter().enumerate().map(|(i, t)| (i as f64, *t)).collect();
        let series = vec![
            ("ours (CO)".to_string(), per_frame(&self.uncached_us)),
            ("ours (CO + cache)".to_string(), per_frame(&self.ours_us)),
            ("parry3d".to_string(), per_frame(&self.parry_us)),
        ];
        report.lines(
            &format!("frames_{k}.svg"),
            "first contact, time per frame along the path",
            ("frame", "µs"),
            &series,
        )?;
        let within = self.clearance.iter().filter(|(d, _)| *d <= CLEARANCE).count();
        let closest = self.closest_apart().map_or(
            String::from("the part touches the bay in every frame"),
            |(frame, d, at)| {
                format!(
                    "apart, it comes closest at frame {frame}: {:.2} mm, at ({:.3}, {:.3}, {:.3}) on the bay",
                    d * 1e3,
                    at.x,
                    at.y,
                    at.z
                )
            },
        );
        report.text(&format!(
            concat!(
                "How close it comes: the minimum distance (exact, `Query::distance` with a cache) took {:.1} µs ",
                "per frame; {} of {} frames are within {:.0} mm of the bay (touching included); {}."
            ),
            mean(&self.distance_us),
            within,
            FRAMES,
            CLEARANCE * 1e3,
            closest,
        ));
        let clearance_mm = vec![(
            "minimum clearance".to_string(),
            self.clearance.iter().enumerate().map(|(i, (d, _))| (i as f64, *d as f64 * 1e3)).collect(),
        )];
        report.lines(
            &format!("clearance_{k}.svg"),
            "minimum clearance along the path (zero: touching)",
            ("frame", "mm"),
            &clearance_mm,
        )
    }
}

fn extract(scene: &MaintenanceScene, json: bool) -> Extraction {
    say!(
        json,
        "\n{}: bay of {} triangles, part of {} triangles, {FRAMES} frames",
        scene.name,
        scene.bay.triangle_count(),
        scene.part.triangle_count()
    );
    let start = Instant::now();
    let bay: Bvh<Obb> = Bvh::build(scene.bay.clone(), &BuildConfig::co());
    let part: Bvh<Obb> = Bvh::build(scene.part.clone(), &BuildConfig::co());
    // The pair cache walks the neighbour lists: derived with the trees, not in the first frame.
    bay.derive_neighbours();
    part.derive_neighbours();
    say!(json, "built CO hierarchies in {:.0} ms", start.elapsed().as_secs_f64() * 1e3);
    let parry_bay = parry_bridge::trimesh(&scene.bay).expect("generated meshes are valid");
    let parry_part = parry_bridge::trimesh(&scene.part).expect("generated meshes are valid");
    let identity = Isometry::identity();
    let (mut cache, mut distance_cache) = (PairCache::new(), PairCache::new());
    let (mut clearance, mut distance_us) = (Vec::new(), Vec::new());
    let (mut ours_us, mut parry_us, mut touching_frames, mut agreements) = (0.0, 0.0, 0, 0);
    let mut stats = QueryStats::default();
    say!(
        json,
        "{:>5} {:>8} {:>10} {:>14} {:>26}",
        "frame",
        "touching",
        "tri pairs",
        "clearance",
        "contact or nearest (m)"
    );
    let mut last_touching = None;
    let (mut ours_frames, mut uncached_frames, mut parry_frames) = (Vec::new(), Vec::new(), Vec::new());
    let mut most = (0, Isometry::identity(), Vec::new());
    for (k, pose) in scene.extraction_path(FRAMES).iter().enumerate() {
        let query = Query::new(Posed::new(&bay, identity), Posed::new(&part, pose), QueryOptions::default());
        let (touching, ours) = timed(|| query.intersects_counted(Some(&mut cache), &mut stats).is_some());
        let ours = ours * 1e6;
        ours_us += ours;
        ours_frames.push(ours);
        let (_, uncached) = timed(|| query.intersects().is_some());
        uncached_frames.push(uncached * 1e6);
        let parry_pose = parry_bridge::pose(pose);
        let (parry_touching, parry) =
            timed(|| parry_bridge::intersects(&parry_bay, &parry_part, &parry_pose));
        let parry = parry * 1e6;
        parry_us += parry;
        parry_frames.push(parry);
        if touching {
            let pairs = query.intersecting_pairs();
            if pairs.len() > most.2.len() {
                most = (k, *pose, pairs.iter().map(|p| (p.a, p.b)).collect());
            }
        }
        agreements += (touching == parry_touching) as usize;
        touching_frames += touching as usize;
        let (nearest, seconds) =
            timed(|| query.distance_cached(DistanceOptions::exact(), &mut distance_cache));
        distance_us.push(seconds * 1e6);
        let nearest = nearest.expect("two non-empty meshes have a distance");
        clearance.push((nearest.distance, nearest.on_a));
        if k % 40 == 0 || last_touching != Some(touching) || k == FRAMES - 1 {
            let contacts = query.contacts();
            // Where it touches, else where it comes closest (on the bay).
            let at = contacts.first().map_or(nearest.on_a, |c| c.intersection.centre());
            let at = format!("({:.3}, {:.3}, {:.3})", at.x, at.y, at.z);
            let gap = format!("{:.2} mm", nearest.distance * 1e3);
            say!(json, "{k:>5} {touching:>8} {:>10} {gap:>14} {at:>26}", contacts.len());
        }
        last_touching = Some(touching);
    }
    let n = FRAMES as f64;
    say!(
        json,
        "touching in {touching_frames} of {FRAMES} frames (parry agrees on {agreements}); first contact, both without a cache: ours {:.1} µs per frame, parry3d {:.1} µs (ours takes {:.2}× its time)",
        mean(&uncached_frames),
        parry_us / n,
        mean(&uncached_frames) / (parry_us / n)
    );
    say!(
        json,
        "with the pair cache carried from frame to frame: {:.1} µs per frame ({:.1}× faster than without)",
        ours_us / n,
        mean(&uncached_frames) / (ours_us / n)
    );
    say!(
        json,
        "per frame with the cache: {:.0} volume tests ({:.0} % decided by the pre-judge), {:.0} exact triangle tests",
        stats.volume_tests() as f64 / n,
        100.0 * (stats.prejudge_overlap + stats.prejudge_disjoint) as f64
            / (stats.prejudge_overlap + stats.prejudge_disjoint + stats.prejudge_undecided).max(1) as f64,
        stats.triangle_tests as f64 / n
    );
    say!(
        json,
        "minimum distance {:.1} µs per frame (with cache); {} frames within {:.0} mm",
        mean(&distance_us),
        clearance.iter().filter(|(d, _)| *d <= CLEARANCE).count(),
        CLEARANCE * 1e3
    );
    Extraction {
        ours_us: ours_frames,
        uncached_us: uncached_frames,
        parry_us: parry_frames,
        clearance,
        distance_us,
        most,
        touching_frames,
        agreements,
        stats,
    }
}
