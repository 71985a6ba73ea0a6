//! Paper 004's test scene, rebuilt: 40 objects of mixed shapes (6 large, 14 medium, 20 small)
//! placed at random in a 6 × 5 × 2.5 m room, about 9,000 triangles in all.

use super::parts::{bracket, capped_cylinder, centred, torus, tube};
use super::random::SplitMix;
use bvh_core::{Isometry, Point, Real, TriMesh, Vector};

/// One object of the room: its mesh in its own frame and where it starts.
#[derive(Clone, Debug)]
pub struct RoomObject {
    /// The mesh, centred on its own origin.
    pub mesh: TriMesh,
    /// Its starting pose in the room (the room spans `[0, 6] × [0, 5] × [0, 2.5]`).
    pub pose: Isometry,
}

/// The room's size in metres.
pub const ROOM: [Real; 3] = [6.0, 5.0, 2.5];

/// Paper 004's 40 objects, deterministic from the seed.
pub fn object_room(seed: u64) -> Vec<RoomObject> {
    let mut rng = SplitMix(seed ^ 0x0040_0004);
    let sizes = [(6, 0.3, 0.8), (14, 0.1, 0.3), (20, 0.03, 0.1)];
    let mut objects = Vec::new();
    for (count, lo, hi) in sizes {
        for _ in 0..count {
            let size = rng.range(lo, hi);
            let mesh = shape(rng.below(6), size);
            let position = Vector::from_fn(|a, _| rng.range(size, ROOM[a] - size));
            let turn = Vector::new(rng.range(0.0, 6.3), rng.range(0.0, 6.3), rng.range(0.0, 6.3));
            objects.push(RoomObject { mesh, pose: Isometry::new(position, turn) });
        }
    }
    objects
}

/// A shape of about `size` half-extent, centred on the origin: 144 to 512 triangles.
fn shape(kind: usize, size: Real) -> TriMesh {
    match kind {
        0 => TriMesh::uv_sphere(Point::origin(), size, 12, 24),
        1 => centred(&capped_cylinder(size * 0.5, size * 2.0, 24, 4)),
        2 => centred(&torus(size * 0.7, size * 0.3, 16, 12)),
        3 => centred(&tube(size * 0.5, size * 0.4, size * 2.0, 32)),
        4 => centred(&bracket(size * 2.0, size * 0.2, size)),
        _ => TriMesh::cuboid(Point::origin(), Vector::new(size, size * 0.6, size * 0.3)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forty_objects_of_about_nine_thousand_triangles_inside_the_room() {
        let room = object_room(1);
        assert_eq!(room.len(), 40);
        let triangles: usize = room.iter().map(|o| o.mesh.triangle_count()).sum();
        assert!((8_000..=10_500).contains(&triangles), "{triangles} triangles");
        for object in &room {
            let centre = object.pose.translation.vector;
            assert!((0..3).all(|a| centre[a] > 0.0 && centre[a] < ROOM[a]));
        }
    }
}
