//! Which build choice makes RAPID slow on the PTU bay: the split rule or the fit?
use bvh_build::generate::ptu_bay;
use bvh_build::{BuildConfig, Bvh, ObbFit, Split};
use bvh_core::{Isometry, Obb};
use bvh_query::{Posed, Query, QueryOptions, QueryStats};

fn main() {
    let scene = ptu_bay(1);
    let configs = [
        ("co (sah, hull)", BuildConfig::co()),
        ("mean, hull", BuildConfig::co().with_split(Split::Mean)),
        ("median, hull", BuildConfig::co().with_split(Split::Median)),
        ("sah, full pca", BuildConfig::co().with_fit(ObbFit::full_pca())),
        ("mean, full pca", BuildConfig::co().with_fit(ObbFit::full_pca()).with_split(Split::Mean)),
    ];
    for (name, config) in configs {
        let bay: Bvh<Obb> = Bvh::build(scene.bay.clone(), &config);
        let part: Bvh<Obb> = Bvh::build(scene.part.clone(), &config);
        let mut stats = QueryStats::default();
        let id = Isometry::identity();
        let start = std::time::Instant::now();
        let hit =
            Query::new(Posed::new(&bay, id), Posed::new(&part, scene.installed), QueryOptions::default())
                .intersects_counted(None, &mut stats);
        println!(
            "{name:<16} {:>9.1} µs hit={} vol={} tri={} depth bay {} part {}",
            start.elapsed().as_secs_f64() * 1e6,
            hit.is_some(),
            stats.volume_tests(),
            stats.triangle_tests,
            bay.depth(),
            part.depth()
        );
    }
}
