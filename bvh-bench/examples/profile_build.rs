//! Builds a preset's tree (CO unless a preset is named, e.g. `co-binned`) over the
//! 497,805-triangle bay a few times on one thread, for profilers.
use bvh_build::generate::ptu_bay;
use bvh_build::{Hierarchy, Preset};

fn main() {
    let name = std::env::args().nth(1).unwrap_or_else(|| "co".into());
    let Some(preset) = Preset::by_name(&name) else {
        eprintln!("no preset named {name}");
        std::process::exit(2);
    };
    let preset = Preset { config: preset.config.sequential(), ..preset };
    let mesh = ptu_bay(1).bay;
    for _ in 0..3 {
        let start = std::time::Instant::now();
        let tree = Hierarchy::build(mesh.clone(), &preset);
        println!("{}: {} nodes in {:?}", preset.name, tree.node_count(), start.elapsed());
    }
}
