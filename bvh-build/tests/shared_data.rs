//! Every preset over the real meshes in `../shared/meshes`. Not in the default suite: `.ci/run`
//! runs it when the folder exists (`cargo test -p bvh-build --test shared_data -- --ignored`).

use bvh_build::{Hierarchy, Preset};
use std::path::PathBuf;

fn meshes() -> PathBuf {
    std::env::var_os("BVH_SHARED")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared"), PathBuf::from)
        .join("meshes")
}

#[test]
#[ignore = "needs ../shared/meshes"]
fn every_preset_builds_every_real_mesh_well_formed() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(meshes())
        .expect("../shared/meshes")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "obj"))
        .collect();
    files.sort();
    assert!(files.len() >= 18);
    for file in files {
        let mesh =
            bvh_io::load(&file).unwrap_or_else(|e| panic!("{e}")).merged().expect("fits 32-bit indices");
        for preset in Preset::ALL {
            let tree = Hierarchy::build(mesh.clone(), &preset);
            tree.assert_well_formed();
            assert!(tree.node_count() > 0, "{} / {}", file.display(), preset.name);
        }
    }
}
