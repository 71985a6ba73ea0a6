//! Builds the CO tree over the 497,805-triangle bay a few times, for profilers.
use bvh_build::generate::ptu_bay;
use bvh_build::{BuildConfig, Bvh};
use bvh_core::Obb;

fn main() {
    let mesh = ptu_bay(1).bay;
    for _ in 0..3 {
        let start = std::time::Instant::now();
        let tree: Bvh<Obb> = Bvh::build(mesh.clone(), &BuildConfig::co().sequential());
        println!("{} nodes in {:?}", tree.node_count(), start.elapsed());
    }
}
