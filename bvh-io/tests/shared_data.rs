//! The real files in `../shared` (beside the repository). Not in the default suite: `.ci/run`
//! runs these when the folder exists (`cargo test -p bvh-io --test shared_data -- --ignored`).
//! The expected counts come from the files' own documentation, counted by other tools.

use std::path::PathBuf;

fn shared() -> PathBuf {
    std::env::var_os("BVH_SHARED")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared"), PathBuf::from)
}

/// `(file, triangles)` from the table in `meshes/README.md`.
fn documented_meshes() -> Vec<(String, usize)> {
    let readme = std::fs::read_to_string(shared().join("meshes/README.md")).expect("meshes/README.md");
    readme
        .lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let file = cells.get(1)?;
            let triangles = cells.get(2)?.parse().ok()?;
            file.ends_with(".obj").then(|| (file.to_string(), triangles))
        })
        .collect()
}

#[test]
#[ignore = "needs ../shared/meshes"]
fn every_real_mesh_loads_with_its_documented_triangle_count() {
    let meshes = documented_meshes();
    assert!(meshes.len() >= 18, "the README lists {} meshes", meshes.len());
    for (file, triangles) in meshes {
        let scene = bvh_io::load(shared().join("meshes").join(&file)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(scene.triangle_count(), triangles, "{file}");
        assert!(scene.skipped.is_empty(), "{file}: {:?}", scene.skipped);
    }
}

#[test]
#[ignore = "needs ../shared/flt"]
fn every_openflight_sample_loads_with_its_documented_triangle_count() {
    // From flt/NOTES.md (an independent walker's counts); master.flt holds one quad and
    // references a.flt, which holds one and references b.flt, which holds one.
    let expected = [
        ("8bitrick_test.flt", 22),
        ("gltfruntime_test.flt", 12),
        ("realisim_switch.flt", 0),
        ("realisim_nested_references/master/master.flt", 6),
        ("realisim_nested_references/shared/a.flt", 4),
        ("realisim_nested_references/shared/b.flt", 2),
    ];
    for (file, triangles) in expected {
        let scene = bvh_io::load(shared().join("flt").join(file)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(scene.triangle_count(), triangles, "{file}");
    }
    let master = bvh_io::load(shared().join("flt/realisim_nested_references/master/master.flt")).unwrap();
    assert_eq!(master.parts.len(), 3, "one part per file along the reference chain");
}
