//! Which triangles of a mesh meet at each of its corner points. A contact that slides across a
//! surface moves to the triangles around the one it was on, so a query that remembers a contact
//! looks there first.

use crate::math::Point;
use crate::mesh::TriMesh;

/// The triangles around every corner point of a mesh. Vertices at the same position count as
/// one point: an STL file, or an OBJ exported per face, repeats a shared vertex for every
/// triangle that uses it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TriangleNeighbours {
    /// Each vertex's point.
    point: Vec<u32>,
    /// Where each point's triangles start in `triangles`, and where the last ends (three per
    /// triangle can pass `u32`).
    start: Vec<usize>,
    /// Triangle indices, grouped by point, each group in increasing order.
    triangles: Vec<u32>,
}

impl TriangleNeighbours {
    /// The neighbours of every triangle of `mesh`, in one sort of its vertices by position and
    /// one pass over its triangles.
    pub fn of(mesh: &TriMesh) -> Self {
        let keys: Vec<[u32; 3]> = mesh.vertices().iter().map(position_key).collect();
        let mut by_position: Vec<u32> = (0..keys.len() as u32).collect();
        by_position.sort_unstable_by_key(|&v| keys[v as usize]);
        // Each vertex's point: the number of distinct positions before its own.
        let mut point = vec![0u32; keys.len()];
        let mut point_count = 0;
        for (k, &v) in by_position.iter().enumerate() {
            if k == 0 || keys[by_position[k - 1] as usize] != keys[v as usize] {
                point_count += 1;
            }
            point[v as usize] = point_count as u32 - 1;
        }
        let mut start = vec![0; point_count + 1];
        for corner in mesh.indices().iter().flatten() {
            start[point[*corner as usize] as usize + 1] += 1;
        }
        for p in 0..point_count {
            start[p + 1] += start[p];
        }
        let mut filled = start.clone();
        let mut triangles = vec![0u32; start[point_count]];
        for (t, corners) in mesh.indices().iter().enumerate() {
            for corner in corners {
                let slot = &mut filled[point[*corner as usize] as usize];
                triangles[*slot] = t as u32;
                *slot += 1;
            }
        }
        Self { point, start, triangles }
    }

    /// The triangles around each corner point of triangle `t` of `mesh` (the mesh these
    /// neighbours were made of), each list in increasing order and `t` in all three: a triangle
    /// sharing an edge with `t` is in two of them.
    pub fn around<'a>(&'a self, mesh: &TriMesh, t: usize) -> [&'a [u32]; 3] {
        mesh.indices()[t].map(|v| {
            let p = self.point[v as usize] as usize;
            &self.triangles[self.start[p]..self.start[p + 1]]
        })
    }
}

/// A point's coordinates as bits, `-0` taken as `0` (mesh coordinates are finite).
fn position_key(p: &Point) -> [u32; 3] {
    [0, 1, 2].map(|i| if p[i] == 0.0 { 0 } else { p[i].to_bits() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(lists: [&[u32]; 3]) -> Vec<u32> {
        let mut v: Vec<u32> = lists.concat();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// A fan of four triangles around the origin, the first given with its own copies of the
    /// shared vertices (as an STL file would), and a fifth triangle touching nothing.
    #[test]
    fn triangles_meeting_at_a_point_are_neighbours_however_the_vertices_are_shared() {
        let p = |x: f32, y: f32| Point::new(x, y, 0.0);
        let vertices = vec![
            p(0.0, 0.0),
            p(1.0, 0.0),
            p(0.0, 1.0),
            p(-1.0, 0.0),
            p(0.0, -1.0),
            // Copies for the first triangle; the origin written as -0.
            Point::new(-0.0, 0.0, -0.0),
            p(1.0, 0.0),
            p(0.0, 1.0),
            // Far away.
            p(5.0, 5.0),
            p(6.0, 5.0),
            p(5.0, 6.0),
        ];
        let triangles = vec![[5, 6, 7], [0, 2, 3], [0, 3, 4], [0, 4, 1], [8, 9, 10]];
        let mesh = TriMesh::new(vertices, triangles).unwrap();
        let n = TriangleNeighbours::of(&mesh);
        for t in 0..4 {
            assert_eq!(sorted(n.around(&mesh, t)), vec![0, 1, 2, 3], "triangle {t}");
        }
        assert_eq!(sorted(n.around(&mesh, 4)), vec![4]);
        // Triangle 1 shares an edge with 0 (through copies) and with 2: each comes twice.
        assert_eq!(n.around(&mesh, 1).concat().iter().filter(|&&u| u == 2).count(), 2);
        assert_eq!(n.around(&mesh, 0).concat().iter().filter(|&&u| u == 1).count(), 2);
    }

    #[test]
    fn an_empty_mesh_has_no_neighbours() {
        let n = TriangleNeighbours::of(&TriMesh::default());
        assert_eq!(n, TriangleNeighbours { point: vec![], start: vec![0], triangles: vec![] });
    }
}
