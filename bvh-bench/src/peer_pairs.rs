//! Where a peer's intersecting triangle pairs differ from ours, and by how much: each pair only
//! one side reports, measured as the pose places it. A peer whose extra pairs lie a few units of
//! rounding apart differs from us where either answer is defensible; one whose pairs lie many
//! thousands apart is wrong.

use bvh_core::{Isometry, Real, TriMesh, closest_points_triangles, next_up};
use std::collections::BTreeSet;

/// A triangle pair that only one side reports, with how far apart its triangles are.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DisputedPair {
    /// The scene's triangle (the user's index).
    pub scene: u32,
    /// The part's triangle.
    pub part: u32,
    /// The distance between the scene's triangle and the part's placed by the pose in `f32`
    /// (zero when they meet there).
    pub distance: Real,
    /// That distance in units of the last place of the pair's largest coordinate: the rounding
    /// of placing a triangle moves its corners by about one.
    pub ulps: f64,
}

/// The pairs of one pose that only one side reports.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Disputes {
    /// Pairs only the peer reports (a false contact, unless they are within rounding).
    pub peer_only: Vec<DisputedPair>,
    /// Pairs only we report (a contact the peer missed, unless they are within rounding).
    pub ours_only: Vec<DisputedPair>,
    /// How many of the peer's pairs repeat one it listed before.
    pub peer_repeats: usize,
}

impl Disputes {
    /// The pairs of `peer` and `ours` ([scene, part] triangle indices) that the other lacks, at
    /// `pose` (placing the part in the scene's frame); an error names a triangle index past
    /// its mesh.
    pub fn between(
        scene: &TriMesh,
        part: &TriMesh,
        pose: &Isometry,
        ours: &[[u32; 2]],
        peer: &[[u32; 2]],
    ) -> Result<Self, String> {
        let counts = [scene.triangle_count(), part.triangle_count()];
        if let Some(&[a, b]) =
            peer.iter().chain(ours).find(|p| p.iter().zip(counts).any(|(&i, n)| i as usize >= n))
        {
            return Err(format!(
                "pair [{a}, {b}] names a triangle past the mesh ({} and {})",
                counts[0], counts[1]
            ));
        }
        let ours: BTreeSet<[u32; 2]> = ours.iter().copied().collect();
        let theirs: BTreeSet<[u32; 2]> = peer.iter().copied().collect();
        let measured = |pair: &[u32; 2]| measure(scene, part, pose, *pair);
        Ok(Self {
            peer_only: theirs.difference(&ours).map(measured).collect(),
            ours_only: ours.difference(&theirs).map(measured).collect(),
            peer_repeats: peer.len() - theirs.len(),
        })
    }
}

/// Scene triangle `a` and part triangle `b`, the part placed by `pose`, measured.
fn measure(scene: &TriMesh, part: &TriMesh, pose: &Isometry, [a, b]: [u32; 2]) -> DisputedPair {
    let (ta, tb) = (scene.triangle(a as usize), part.triangle(b as usize).transformed(pose));
    let distance = closest_points_triangles(&ta, &tb).distance;
    let largest = ta
        .vertices()
        .iter()
        .chain(&tb.vertices())
        .flat_map(|p| p.iter().map(|x| x.abs()))
        .fold(0.0, Real::max);
    let last_place = next_up(largest) - largest;
    DisputedPair { scene: a, part: b, distance, ulps: f64::from(distance) / f64::from(last_place) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bvh_core::Point;

    /// A scene triangle in z = 0 and a part of two triangles: one standing across it, one a
    /// unit above it.
    fn meshes() -> (TriMesh, TriMesh) {
        let p = |x, y, z| Point::new(x, y, z);
        let scene = TriMesh::new(vec![p(0.0, 0.0, 0.0), p(4.0, 0.0, 0.0), p(0.0, 4.0, 0.0)], vec![[0, 1, 2]]);
        let part = TriMesh::new(
            vec![
                p(1.0, 1.0, -1.0),
                p(1.0, 1.0, 1.0),
                p(2.0, 1.0, 1.0),
                p(1.0, 1.0, 1.0),
                p(2.0, 1.0, 1.0),
                p(1.0, 2.0, 1.0),
            ],
            vec![[0, 1, 2], [3, 4, 5]],
        );
        (scene.expect("a valid mesh"), part.expect("a valid mesh"))
    }

    #[test]
    fn each_side_s_extra_pairs_are_measured_where_the_pose_places_them() {
        let (scene, part) = meshes();
        let pose = Isometry::translation(0.5, 0.0, 0.0);
        // We report the crossing pair; the peer reports the one a unit apart, twice.
        let d = Disputes::between(&scene, &part, &pose, &[[0, 0]], &[[0, 1], [0, 1]]).expect("valid pairs");
        assert_eq!(d.peer_repeats, 1);
        let [peer] = d.peer_only[..] else { panic!("one peer-only pair: {d:?}") };
        assert_eq!((peer.scene, peer.part), (0, 1));
        assert!((peer.distance - 1.0).abs() < 1e-6, "{peer:?}");
        // The largest coordinate is 4, whose last place is 2^-21.
        assert_eq!(peer.ulps, f64::from(peer.distance) * f64::from(1u32 << 21));
        let [ours] = d.ours_only[..] else { panic!("one pair of ours only: {d:?}") };
        assert_eq!((ours.scene, ours.part, ours.distance, ours.ulps), (0, 0, 0.0, 0.0));
        // Where both agree, nothing is disputed.
        assert_eq!(Disputes::between(&scene, &part, &pose, &[[0, 0]], &[[0, 0]]), Ok(Disputes::default()));
    }

    #[test]
    fn a_pair_past_the_meshes_is_an_error() {
        let (scene, part) = meshes();
        let pose = Isometry::identity();
        assert!(Disputes::between(&scene, &part, &pose, &[], &[[1, 0]]).is_err());
        assert!(Disputes::between(&scene, &part, &pose, &[[0, 2]], &[]).is_err());
    }
}
