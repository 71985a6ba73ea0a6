//! A tree's neighbour lists, which follow the mesh through refits: checked against the moved
//! vertices only when a query first reads them, so refits that only collision queries follow
//! (a deforming hose tested for contact every frame) do not pay for the check.

use bvh_core::{TriMesh, TriangleNeighbours};
use std::sync::OnceLock;

/// The triangles meeting at each corner point of a mesh whose vertices may have moved.
#[derive(Clone, Debug)]
pub(crate) struct MeshNeighbours {
    /// The lists as made for the mesh, or as last derived.
    lists: TriangleNeighbours,
    /// Set when the lists are known to hold for the mesh's vertices as they are: to `None` if
    /// `lists` do, else to lists derived again.
    checked: OnceLock<Option<TriangleNeighbours>>,
}

impl MeshNeighbours {
    /// The lists of `mesh`.
    pub(crate) fn of(mesh: &TriMesh) -> Self {
        Self { lists: TriangleNeighbours::of(mesh), checked: OnceLock::from(None) }
    }

    /// The mesh's vertices moved: the lists are checked when next read.
    pub(crate) fn vertices_moved(&mut self) {
        if let Some(Some(derived)) = self.checked.take() {
            self.lists = derived;
        }
    }

    /// The lists for `mesh` (the mesh they were made for, its vertices perhaps moved since):
    /// derived again if corners came apart or together.
    #[inline]
    pub(crate) fn get(&self, mesh: &TriMesh) -> &TriangleNeighbours {
        let derived =
            self.checked.get_or_init(|| (!self.lists.still_hold(mesh)).then(|| TriangleNeighbours::of(mesh)));
        derived.as_ref().unwrap_or(&self.lists)
    }
}
