//! The slowest poses of a pose file for the CO preset, with their work, and the share of the
//! time spent in colliding poses: where a mean goes.
//! `cargo run --release -p bvh-bench --example pose_tail -- SCENE PART POSES`
use bvh_bench::pose_file::read_poses;
use bvh_build::{BuildConfig, Bvh};
use bvh_core::{Isometry, Obb};
use bvh_query::{Posed, Query, QueryOptions, QueryStats};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let load = |p: &str| bvh_io::load(p).expect("readable").merged().expect("a mesh");
    let (scene, part) = (load(&args[1]), load(&args[2]));
    let poses = read_poses(std::path::Path::new(&args[3])).expect("a valid pose file");
    let a: Bvh<Obb> = Bvh::build(scene, &BuildConfig::co());
    let b: Bvh<Obb> = Bvh::build(part, &BuildConfig::co());
    let id = Isometry::identity();
    let mut rows = Vec::new();
    for (k, pose) in poses.iter().enumerate() {
        let q = Query::new(Posed::new(&a, id), Posed::new(&b, pose), QueryOptions::default());
        let mut best = f64::MAX;
        for _ in 0..5 {
            let start = std::time::Instant::now();
            std::hint::black_box(q.intersects());
            best = best.min(start.elapsed().as_secs_f64() * 1e6);
        }
        let mut stats = QueryStats::default();
        let hit = q.intersects_counted(None, &mut stats).is_some();
        rows.push((best, k, hit, stats));
    }
    let total: f64 = rows.iter().map(|r| r.0).sum();
    let colliding: Vec<_> = rows.iter().filter(|r| r.2).collect();
    println!(
        "{} colliding poses hold {:.0} % of the time; per pose {:.1} volume and {:.1} triangle tests",
        colliding.len(),
        100.0 * colliding.iter().map(|r| r.0).sum::<f64>() / total,
        rows.iter().map(|r| r.3.volume_tests()).sum::<u64>() as f64 / rows.len() as f64,
        rows.iter().map(|r| r.3.triangle_tests).sum::<u64>() as f64 / rows.len() as f64
    );
    rows.sort_by(|x, y| y.0.total_cmp(&x.0));
    println!(
        "mean {:.2} µs; slowest 10 % hold {:.0} % of the time",
        total / rows.len() as f64,
        100.0 * rows[..rows.len() / 10].iter().map(|r| r.0).sum::<f64>() / total
    );
    for (t, k, hit, s) in rows.iter().take(12) {
        println!(
            "pose {k:>4} {t:>8.1} µs hit={hit} vol={} tri={} Y/N/U {}/{}/{}",
            s.volume_tests(),
            s.triangle_tests,
            s.prejudge_overlap,
            s.prejudge_disjoint,
            s.prejudge_undecided
        );
    }
}
