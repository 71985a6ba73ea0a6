//! Serialised hierarchies: round trips for every preset, and corrupt input rejected with an
//! error, never a panic or an allocation sized by an unchecked count.

use bvh_build::{BuildConfig, Bvh, Hierarchy, LoadError, Preset, RootKind, VolumeKind};
use bvh_core::{Aabb, Obb, Point, Sphere, TriMesh};

fn round_trip<V: bvh_build::NodeVolume + std::fmt::Debug + PartialEq>(tree: &Bvh<V>) {
    let bytes = tree.to_bytes();
    let loaded = Bvh::<V>::from_bytes(&bytes).expect("a written tree loads");
    assert!(&loaded == tree);
    // The corners are derived again on loading, in leaf order.
    for position in 0..tree.mesh().triangle_count() {
        assert_eq!(loaded.triangle(position), &loaded.mesh().triangle(position));
    }
}

#[test]
fn every_preset_round_trips() {
    let meshes = [TriMesh::uv_sphere(Point::origin(), 1.0, 12, 24), TriMesh::new(vec![], vec![]).unwrap()];
    for mesh in meshes {
        for preset in Preset::ALL {
            match Hierarchy::build(mesh.clone(), &preset) {
                Hierarchy::Obb(t) => round_trip(&t),
                Hierarchy::Aabb(t) => round_trip(&t),
                Hierarchy::Sphere(t) => round_trip(&t),
            }
        }
    }
    // Every root kind, on OBB nodes.
    for root in [RootKind::CubeAabb, RootKind::Sphere, RootKind::Aabb, RootKind::Obb, RootKind::SphereAabb] {
        let tree: Bvh<Obb> =
            Bvh::build(TriMesh::uv_sphere(Point::origin(), 2.0, 8, 12), &BuildConfig::co().with_root(root));
        round_trip(&tree);
    }
}

fn sample() -> Vec<u8> {
    Bvh::<Obb>::build(TriMesh::uv_sphere(Point::origin(), 1.0, 6, 8), &BuildConfig::co()).to_bytes()
}

#[test]
fn every_truncation_is_an_error() {
    let bytes = sample();
    for len in 0..bytes.len() {
        assert!(Bvh::<Obb>::from_bytes(&bytes[..len]).is_err(), "prefix of {len} bytes loaded");
    }
    let mut longer = bytes.clone();
    longer.extend([0; 4]);
    assert_eq!(Bvh::<Obb>::from_bytes(&longer), Err(LoadError::TrailingBytes(4)));
}

#[test]
fn header_errors_are_typed() {
    let bytes = sample();
    let mut bad = bytes.clone();
    bad[0] ^= 0xff;
    assert_eq!(Bvh::<Obb>::from_bytes(&bad), Err(LoadError::BadMagic));
    let mut bad = bytes.clone();
    bad[4] = 9;
    assert_eq!(Bvh::<Obb>::from_bytes(&bad), Err(LoadError::UnsupportedVersion(9)));
    assert!(matches!(
        Bvh::<Aabb>::from_bytes(&bytes),
        Err(LoadError::WrongVolumeKind { expected: VolumeKind::Aabb, .. })
    ));
    assert!(matches!(Bvh::<Sphere>::from_bytes(&bytes), Err(LoadError::WrongVolumeKind { .. })));
    // Absurd counts: four billion vertices announced in a few hundred bytes.
    for word in [4, 5, 6] {
        let mut bad = bytes.clone();
        bad[4 * word..4 * word + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(
            matches!(Bvh::<Obb>::from_bytes(&bad), Err(LoadError::Truncated { .. })),
            "count word {word}"
        );
    }
}

/// Flipping any single byte either still loads a well-formed tree (a harmless change, such as
/// the low bits of a padded extent) or is an error; it never panics.
#[test]
fn single_byte_corruptions_never_panic_nor_load_a_broken_tree() {
    let bytes = sample();
    let (mut rejected, mut accepted) = (0, 0);
    for i in 0..bytes.len() {
        for flip in [0x01u8, 0x80, 0xff] {
            let mut bad = bytes.clone();
            bad[i] ^= flip;
            match Bvh::<Obb>::from_bytes(&bad) {
                Ok(tree) => {
                    tree.assert_well_formed();
                    accepted += 1;
                }
                Err(_) => rejected += 1,
            }
        }
    }
    assert!(rejected > accepted, "{rejected} rejected, {accepted} accepted");
}
