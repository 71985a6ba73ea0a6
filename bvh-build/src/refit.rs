//! Refitting a built tree to moved vertices, for deforming meshes (hoses, cables, soft parts):
//! the topology and the leaf order stay, and every volume above a moved triangle is fitted
//! again to its triangles' new corners – an OBB keeps its axes, an AABB or a sphere is fitted as
//! the build fits it – in parallel. Far cheaper than a build, and exact: each volume still holds
//! its triangles, so queries stay exact, only less tight where the mesh deformed much.

use crate::bvh::{Bvh, ChildRef, next_id};
use crate::volume::NodeVolume;
use bvh_core::{MeshError, Point, TriangleNeighbours};
use rayon::prelude::*;
use std::ops::Range;

impl<V: NodeVolume> Bvh<V> {
    /// Moves every vertex of the mesh to `vertices` (the user's vertex order, one per vertex)
    /// and refits the tree to them. On an error (another count, a non-finite coordinate)
    /// nothing changes.
    ///
    /// The tree gets a new [`Bvh::id`]: state a cache kept for the old shape is not reused.
    pub fn refit(&mut self, vertices: &[Point]) -> Result<(), MeshError> {
        let vertex_count = self.mesh.vertices().len();
        if vertices.len() != vertex_count {
            return Err(MeshError::VertexRangeOutOfBounds { first: 0, count: vertices.len(), vertex_count });
        }
        self.refit_range(0, vertices)
    }

    /// Moves vertices `first..first + positions.len()` to `positions` and refits the volumes
    /// above the triangles using them; the others stay as they are. On an error (a range past
    /// the mesh's vertices, a non-finite coordinate) nothing changes.
    ///
    /// The tree gets a new [`Bvh::id`], as with [`Bvh::refit`].
    pub fn refit_range(&mut self, first: usize, positions: &[Point]) -> Result<(), MeshError> {
        self.mesh.move_vertices(first, positions)?;
        let moved = first..first + positions.len();
        let mut changed = Vec::with_capacity(self.triangles.len() + 1);
        changed.push(0usize);
        for (position, corners) in self.mesh.indices().iter().enumerate() {
            let is_moved = corners.iter().any(|&v| moved.contains(&(v as usize)));
            if is_moved {
                self.triangles[position] = self.mesh.triangle(position);
            }
            changed.push(changed[position] + is_moved as usize);
        }
        // `changed[k]`: how many of the triangles before leaf-order position k moved.
        if changed.last() == Some(&0) {
            self.id = next_id();
            return Ok(());
        }
        let corners: Vec<Point> = self.triangles.iter().flat_map(|t| t.vertices()).collect();
        let spans = self.node_spans();
        self.nodes.par_iter_mut().zip(spans).for_each(|(node, span)| {
            if changed[span.end] > changed[span.start] {
                node.volume = node.volume.refitted(&corners[3 * span.start..3 * span.end]);
                node.aabb = node.volume.enclosing_aabb(&bvh_core::RelativePose::identity()).padded();
            }
        });
        self.root = self.root.refitted(&corners);
        // Corner points are numbered by position: corners may have come apart or together.
        self.neighbours = TriangleNeighbours::of(&self.mesh);
        self.id = next_id();
        Ok(())
    }

    /// The leaf-order positions of every node's triangles: a node's subtree is one run, as
    /// the nodes are numbered depth-first and leaves are runs.
    fn node_spans(&self) -> Vec<Range<usize>> {
        let mut spans = vec![0..0; self.nodes.len()];
        // Children have larger indices than their parent: from the last node up, theirs are known.
        for i in (0..self.nodes.len()).rev() {
            let runs = self.nodes[i].children.map(|c| match c.get() {
                ChildRef::Node(j) => spans[j].clone(),
                ChildRef::Leaf(run) => run,
            });
            spans[i] = runs
                .into_iter()
                .filter(|run| !run.is_empty())
                .reduce(|x, y| x.start.min(y.start)..x.end.max(y.end))
                .unwrap_or(0..0);
        }
        spans
    }
}
