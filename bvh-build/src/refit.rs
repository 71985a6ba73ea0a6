//! Refitting a built tree to moved vertices, for deforming meshes (hoses, cables, soft parts):
//! the topology and the leaf order stay, and every volume above a moved triangle is fitted
//! again: an AABB from the leaves up around its leaf triangles and its children's new boxes
//! (exact), an OBB (keeping its axes) or a sphere around every corner below it, nodes in
//! parallel (a box around boxes on other axes grows with every level, until queries test many
//! times the volumes they test on a rebuilt tree). Far cheaper than a build, and exact: each
//! volume still holds its triangles.

use crate::bvh::{Bvh, ChildRef, Node, next_id};
use crate::volume::NodeVolume;
use bvh_core::parallel::prelude::*;
use bvh_core::{MeshError, Point, Triangle, TriangleNeighbours};
use smallvec::SmallVec;
use std::ops::Range;

/// Below this many nodes (or triangles), a refit step runs on the calling thread.
const PARALLEL_NODES: usize = 2048;

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
        self.id = next_id();
        // The stale nodes, and the runs of leaf-order positions below every node if known.
        let (stale, spans) = if positions.len() == self.mesh.vertices().len() {
            let mesh = &self.mesh;
            let corners = |(position, t): (usize, &mut Triangle)| *t = mesh.triangle(position);
            if self.triangles.len() < PARALLEL_NODES {
                self.triangles.iter_mut().enumerate().for_each(corners);
            } else {
                self.triangles.par_iter_mut().enumerate().for_each(corners);
            }
            (vec![true; self.nodes.len()], None)
        } else {
            let moved = first..first + positions.len();
            // `changed[k]`: how many of the triangles before leaf-order position k moved.
            let mut changed = Vec::with_capacity(self.triangles.len() + 1);
            changed.push(0usize);
            for (position, corners) in self.mesh.indices().iter().enumerate() {
                let is_moved = corners.iter().any(|&v| moved.contains(&(v as usize)));
                if is_moved {
                    self.triangles[position] = self.mesh.triangle(position);
                }
                changed.push(changed[position] + is_moved as usize);
            }
            if changed.last() == Some(&0) {
                return Ok(());
            }
            let spans = self.node_spans();
            (spans.iter().map(|span| changed[span.end] > changed[span.start]).collect(), Some(spans))
        };
        if V::REFITS_FROM_CHILDREN {
            self.refit_from_children(&stale);
        } else {
            let spans = spans.unwrap_or_else(|| self.node_spans());
            self.refit_from_corners(&stale, spans);
        }
        self.root = self.root.refitted(bytemuck::cast_slice(&self.triangles));
        // Corner points are numbered by position: derived again if corners came apart or
        // together.
        if !self.neighbours.still_hold(&self.mesh) {
            self.neighbours = TriangleNeighbours::of(&self.mesh);
        }
        Ok(())
    }

    /// Fits the volumes of the `stale` nodes again, each around the corners of its run of
    /// triangles in `spans` (read in place: a triangle is its three corners), in parallel (each
    /// computed alone: the tree does not depend on the thread count).
    fn refit_from_corners(&mut self, stale: &[bool], spans: Vec<Range<usize>>) {
        let corners: &[Point] = bytemuck::cast_slice(&self.triangles);
        let fit = |((node, span), stale): ((&mut Node<V>, Range<usize>), &bool)| {
            if *stale {
                node.volume = node.volume.refitted(&corners[3 * span.start..3 * span.end], &[]);
                node.aabb = node.volume.own_box();
            }
        };
        // Handing a small tree to the thread pool costs more than fitting it here.
        if self.nodes.len() < PARALLEL_NODES {
            self.nodes.iter_mut().zip(spans).zip(stale).for_each(fit);
        } else {
            self.nodes.par_iter_mut().zip(spans).zip(stale).for_each(fit);
        }
    }

    /// Refits the stale nodes from the last to the first: a node's children come after it, so
    /// they are refitted by the time it is reached. One pass on one thread: each fit merges two
    /// boxes or a leaf's few corners, less than handing nodes out level by level would cost.
    fn refit_from_children(&mut self, stale: &[bool]) {
        let mut corners = Vec::new();
        for i in (0..self.nodes.len()).rev().filter(|&i| stale[i]) {
            corners.clear();
            let mut below = SmallVec::<[V; 2]>::new();
            for child in self.nodes[i].children {
                match child.get() {
                    ChildRef::Node(j) => below.push(self.nodes[j].volume),
                    ChildRef::Leaf(run) => {
                        corners.extend_from_slice(bytemuck::cast_slice(&self.triangles[run]))
                    }
                }
            }
            let volume = self.nodes[i].volume.refitted(&corners, &below);
            self.nodes[i].volume = volume;
            self.nodes[i].aabb = volume.own_box();
        }
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
