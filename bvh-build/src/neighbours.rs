//! A tree's neighbour lists, derived when a query first reads them (collision queries never
//! do, so a build for them does not pay for the lists) and following the mesh through refits:
//! checked against the moved vertices only when next read, so refits that only collision
//! queries follow (a deforming hose tested for contact every frame) do not pay for the check.

use bvh_core::{TriMesh, TriangleNeighbours};
use std::sync::OnceLock;

/// The triangles meeting at each corner point of a mesh whose vertices may have moved.
#[derive(Clone, Debug)]
pub(crate) struct MeshNeighbours {
    /// The lists as first derived, or as last derived again; empty until a query reads them.
    lists: OnceLock<TriangleNeighbours>,
    /// Set when `lists` are known to hold for the mesh's vertices as they are: to `None` if
    /// they do, else to lists derived again.
    checked: OnceLock<Option<TriangleNeighbours>>,
}

impl MeshNeighbours {
    /// Lists for a mesh, not derived yet.
    pub(crate) fn new() -> Self {
        Self { lists: OnceLock::new(), checked: OnceLock::from(None) }
    }

    /// The vertices of `mesh` moved: lists already derived take the points' new positions now
    /// (a pass over the points, as a refit makes over the triangles) and are checked when next
    /// read.
    pub(crate) fn vertices_moved(&mut self, mesh: &TriMesh) {
        if self.lists.get().is_none() {
            return;
        }
        if let Some(Some(derived)) = self.checked.take() {
            self.lists = OnceLock::from(derived);
        }
        if let Some(lists) = self.lists.get_mut() {
            lists.follow_moved_vertices(mesh);
        }
    }

    /// The lists for `mesh` (the mesh they were made for, its vertices perhaps moved since):
    /// derived on first use, and again if corners came apart or together.
    #[inline]
    pub(crate) fn get(&self, mesh: &TriMesh) -> &TriangleNeighbours {
        let Some(lists) = self.lists.get() else {
            return self.lists.get_or_init(|| TriangleNeighbours::of(mesh));
        };
        let derived =
            self.checked.get_or_init(|| (!lists.still_hold(mesh)).then(|| TriangleNeighbours::of(mesh)));
        derived.as_ref().unwrap_or(lists)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bvh_core::Point;

    /// Nothing is derived until read, a move before then changes nothing, and the first read
    /// gives the lists of the mesh as it is by then.
    #[test]
    fn lists_are_derived_when_first_read() {
        let points = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [5.0, 0.0, 0.0]];
        let mut mesh =
            TriMesh::new(points.map(|[x, y, z]| Point::new(x, y, z)).to_vec(), vec![[0, 1, 2], [3, 1, 2]])
                .expect("valid");
        let mut neighbours = MeshNeighbours::new();
        assert!(neighbours.lists.get().is_none());
        mesh.move_vertices(3, &[Point::new(1.0, 1.0, 0.0)]).expect("finite");
        neighbours.vertices_moved(&mesh);
        assert!(neighbours.lists.get().is_none());
        assert_eq!(neighbours.get(&mesh), &TriangleNeighbours::of(&mesh));
        assert!(neighbours.lists.get().is_some());
    }

    /// Lists read before a move give, after it, the lists of the moved mesh – the patches'
    /// point positions included – whether the points stay apart or two come together.
    #[test]
    fn lists_follow_the_vertices_through_moves() {
        let mut mesh = TriMesh::uv_sphere(Point::origin(), 1.0, 8, 16);
        let mut neighbours = MeshNeighbours::new();
        neighbours.get(&mesh);
        let moved: Vec<Point> = mesh.vertices().iter().map(|p| Point::from(p.coords * 2.0)).collect();
        mesh.move_vertices(0, &moved).expect("finite");
        neighbours.vertices_moved(&mesh);
        assert_eq!(neighbours.get(&mesh), &TriangleNeighbours::of(&mesh));
        // Vertex 1 onto vertex 2: the lists are derived again.
        let onto = mesh.vertices()[2];
        mesh.move_vertices(1, &[onto]).expect("finite");
        neighbours.vertices_moved(&mesh);
        assert_eq!(neighbours.get(&mesh), &TriangleNeighbours::of(&mesh));
    }
}
