//! Every preset builds every generated and degenerate mesh into a well-formed tree.

use bvh_build::generate::{accumulator_bay, bracket, panel_with_holes, torus, tube};
use bvh_build::{BuildConfig, Bvh, Construction, Hierarchy, Preset, Split};
use bvh_core::{Obb, Point, Real, TriMesh, Vector};

fn meshes() -> Vec<(&'static str, TriMesh)> {
    let v = |x: Real, y: Real, z: Real| Point::new(x, y, z);
    let tri =
        TriMesh::new(vec![v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.0, 1.0, 0.0)], vec![[0, 1, 2]]).unwrap();
    // A flat grid: every triangle in one plane.
    let coplanar = panel_with_holes(20, 20, 1.0, 0.0, |i, j| (i + j) % 5 == 0);
    let identical = TriMesh::new(vec![v(1.0, 2.0, 3.0); 3], vec![[0, 1, 2]; 500]).unwrap();
    let duplicates = TriMesh::new(tri.vertices().to_vec(), vec![[0, 1, 2]; 300]).unwrap();
    let huge = TriMesh::uv_sphere(v(3e7, -2e7, 1e7), 5e6, 12, 24);
    let tiny = TriMesh::uv_sphere(v(1e-3, 0.0, 0.0), 1e-6, 12, 24);
    vec![
        ("empty", TriMesh::new(vec![], vec![]).unwrap()),
        ("one triangle", tri),
        ("coplanar", coplanar),
        ("identical", identical),
        ("duplicates", duplicates),
        ("slivers", slivers(100_000)),
        ("huge coordinates", huge),
        ("tiny coordinates", tiny),
        ("sphere", TriMesh::uv_sphere(Point::origin(), 1.0, 24, 48)),
        ("torus", torus(2.0, 0.3, 48, 16)),
        ("tube", tube(0.5, 0.4, 3.0, 32)),
        ("bracket", bracket(1.0, 0.05, 0.5)),
        ("box", TriMesh::cuboid(Point::origin(), Vector::new(1.0, 2.0, 3.0))),
    ]
}

/// `n` needle triangles, nearly collinear, spread along a line with a little jitter.
fn slivers(n: u32) -> TriMesh {
    let mut vertices = Vec::with_capacity(3 * n as usize);
    for i in 0..n {
        let x = i as Real * 1e-3;
        let jitter = ((i * 7919) % 13) as Real * 1e-7;
        vertices.extend([
            Point::new(x, 0.0, 0.0),
            Point::new(x + 5.0, jitter, 0.0),
            Point::new(x + 10.0, 0.0, jitter),
        ]);
    }
    TriMesh::new(vertices, (0..n).map(|i| [3 * i, 3 * i + 1, 3 * i + 2]).collect()).unwrap()
}

/// `co-binned` with its binned construction at every size, small meshes included.
fn binned_at_every_size() -> Preset {
    let co_binned = Preset::co_binned();
    let config = co_binned.config.with_top_down_up_to(0, co_binned.config.top_down_leaf_size);
    Preset { name: "co-binned at every size", config, ..co_binned }
}

#[test]
fn every_preset_builds_every_mesh_well_formed() {
    for (name, mesh) in meshes() {
        for preset in Preset::ALL.into_iter().chain([binned_at_every_size()]) {
            let tree = Hierarchy::build(mesh.clone(), &preset);
            tree.assert_well_formed();
            assert_eq!(tree.node_count() == 0, mesh.is_empty(), "{name} / {}", preset.name);
        }
    }
}

#[test]
fn every_split_rule_and_leaf_size_builds_the_scene_well_formed() {
    let scene = accumulator_bay(3);
    for split in [Split::penalty(), Split::Median, Split::sah()] {
        for leaf_size in [1, 2, 4, 8] {
            let config = BuildConfig::co().with_split(split).with_leaf_size(leaf_size);
            let tree: Bvh<Obb> = Bvh::build(scene.part.clone(), &config);
            tree.assert_well_formed();
        }
    }
    // The bottom-up construction with leaves from one triangle to more than its samples hold
    // (and more corners than a leaf checks for repeated vertices).
    for leaf_size in [1, 2, 4, 20] {
        let config = BuildConfig::co().with_construction(Construction::Binned).with_leaf_size(leaf_size);
        let tree: Bvh<Obb> = Bvh::build(scene.part.clone(), &config);
        tree.assert_well_formed();
    }
    let bay: Bvh<Obb> = Bvh::build(scene.bay, &BuildConfig::co());
    bay.assert_well_formed();
    // Leaves in the parent: about n / (2 T) nodes, not 2n − 1.
    let n = bay.mesh().triangle_count();
    assert!(bay.node_count() < n, "{} nodes for {n} triangles", bay.node_count());
}

/// `co-binned` builds a mesh of up to `top_down_up_to` triangles as `co` does (with leaves of
/// `top_down_leaf_size`), a larger one binned.
#[test]
fn co_binned_builds_a_small_mesh_as_co_does() {
    let tree = |mesh: &TriMesh, preset: Preset| -> Bvh<Obb> { Bvh::build(mesh.clone(), &preset.config) };
    let co = Preset {
        config: Preset::co().config.with_leaf_size(Preset::co_binned().config.top_down_leaf_size),
        ..Preset::co()
    };
    let small = torus(2.0, 0.3, 48, 16);
    assert!(small.triangle_count() <= Preset::co_binned().config.top_down_up_to);
    assert!(tree(&small, Preset::co_binned()) == tree(&small, co));
    assert!(tree(&small, binned_at_every_size()) != tree(&small, co));
    let large = accumulator_bay(3).part;
    assert!(large.triangle_count() > Preset::co_binned().config.top_down_up_to);
    assert!(tree(&large, Preset::co_binned()) != tree(&large, co));
}

#[test]
fn original_indices_map_back_to_the_users_triangles() {
    let mesh = torus(2.0, 0.3, 24, 12);
    let tree: Bvh<Obb> = Bvh::build(mesh.clone(), &BuildConfig::co());
    for position in 0..mesh.triangle_count() {
        let original = tree.original_triangle(position) as usize;
        assert_eq!(tree.mesh().triangle(position), mesh.triangle(original));
        assert_eq!(*tree.triangle(position), mesh.triangle(original), "the stored corners, in leaf order");
    }
}

#[test]
fn the_tree_does_not_depend_on_the_thread_count() {
    let scene = accumulator_bay(5);
    // Shared out from the default threshold down, or down to the leaves (every node's two
    // sides handed to the pool, leaves among them).
    for (mesh, threshold) in [(scene.bay, None), (scene.part, Some(3))] {
        for construction in [Construction::NodeFrames, Construction::Binned] {
            let config = BuildConfig::co().with_construction(construction);
            let config =
                BuildConfig { parallel_threshold: threshold.unwrap_or(config.parallel_threshold), ..config };
            let sequential: Bvh<Obb> = Bvh::build(mesh.clone(), &config.sequential());
            for threads in [1, 2, 3] {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                let parallel: Bvh<Obb> = pool.install(|| Bvh::build(mesh.clone(), &config));
                assert!(parallel == sequential, "{construction:?}: {threads} threads built a different tree");
            }
        }
    }
}

#[test]
#[ignore = "a million slivers through every preset: cargo test -p bvh-build --release -- --ignored"]
fn a_million_slivers() {
    let mesh = slivers(1_000_000);
    for preset in Preset::ALL {
        Hierarchy::build(mesh.clone(), &preset).assert_well_formed();
    }
}
