//! Every vertex below a node, each once, for a refit that fits a volume around all of them (an
//! OBB on its own axes, a ball): a node's triangles share their corners, several to a vertex,
//! so reading the corners projected each vertex several times at every level of the tree.
//!
//! The vertices are numbered in the order the leaf-order triangles first use them. A node's
//! triangles are one run of that order, so the vertices they use first are one run too; the
//! others they use were first used by triangles before the run, and are listed apart – few
//! beside the run, as they lie on the border of the node's part of the surface.

use crate::bvh::{ChildRef, Node};
use bvh_core::Point;
use bvh_core::parallel::prelude::*;
use std::ops::Range;

/// Above this many vertices, placing them in order runs in parallel.
const PARALLEL_VERTICES: usize = 16_384;

/// The vertices below every node of a tree, each once (see the module's doc).
#[derive(Clone, Debug, Default)]
pub(crate) struct VertexRuns {
    /// The mesh's vertices in the order the leaf-order triangles first use them.
    order: Vec<u32>,
    /// Per node, where its vertices are listed.
    runs: Vec<NodeVertices>,
    /// Positions in `order`, each node's sorted.
    earlier: Vec<u32>,
}

/// Where a node's vertices are: `first_used`, the run of the order its triangles use first,
/// and `used_earlier`, the run of [`VertexRuns::earlier`] listing the vertices they use that
/// earlier triangles used first.
#[derive(Clone, Copy, Debug, Default)]
struct NodeVertices {
    first_used: [u32; 2],
    used_earlier: [u32; 2],
}

impl VertexRuns {
    /// The runs of a tree's `nodes` over the mesh's leaf-order triangles' `indices`, each node's
    /// triangles at the leaf-order positions `spans[node]`.
    pub(crate) fn new<V>(
        indices: &[[u32; 3]],
        vertex_count: usize,
        nodes: &[Node<V>],
        spans: &[Range<usize>],
    ) -> Self {
        let mut rank = vec![u32::MAX; vertex_count];
        let mut order = Vec::new();
        // `first_new[k]`: how many vertices the triangles before position k use.
        let mut first_new = Vec::with_capacity(indices.len() + 1);
        for corners in indices {
            first_new.push(order.len() as u32);
            for &v in corners {
                if rank[v as usize] == u32::MAX {
                    rank[v as usize] = order.len() as u32;
                    order.push(v);
                }
            }
        }
        first_new.push(order.len() as u32);
        // A node's earlier vertices are its children's, less those its own run holds: children
        // have larger numbers than their parent, so from the last node up theirs are known.
        let mut runs = vec![NodeVertices::default(); nodes.len()];
        let mut earlier = Vec::new();
        let mut list = Vec::new();
        for i in (0..nodes.len()).rev() {
            let start = first_new[spans[i].start];
            list.clear();
            for child in nodes[i].children {
                match child.get() {
                    ChildRef::Node(j) => {
                        // Sorted: the ones before the run lead.
                        let [from, to] = runs[j].used_earlier.map(|k| k as usize);
                        let child_list = &earlier[from..to];
                        list.extend_from_slice(&child_list[..child_list.partition_point(|&r| r < start)]);
                    }
                    ChildRef::Leaf(run) => list.extend(
                        indices[run].iter().flatten().map(|&v| rank[v as usize]).filter(|&r| r < start),
                    ),
                }
            }
            list.sort_unstable();
            list.dedup();
            let at = earlier.len() as u32;
            earlier.extend_from_slice(&list);
            runs[i] = NodeVertices {
                first_used: [start, first_new[spans[i].end]],
                used_earlier: [at, earlier.len() as u32],
            };
        }
        Self { order, runs, earlier }
    }

    /// Whether these are the runs of a tree of `nodes` nodes.
    pub(crate) fn fits(&self, nodes: usize) -> bool {
        self.runs.len() == nodes
    }

    /// The positions of the used ones of `vertices`, in this order.
    pub(crate) fn placed(&self, vertices: &[Point]) -> Vec<Point> {
        if self.order.len() < PARALLEL_VERTICES {
            self.order.iter().map(|&v| vertices[v as usize]).collect()
        } else {
            self.order.par_iter().map(|&v| vertices[v as usize]).collect()
        }
    }

    /// Every vertex below `node`, each once, from the vertices `placed` in this order.
    pub(crate) fn below<'p>(
        &'p self,
        node: usize,
        placed: &'p [Point],
    ) -> impl Iterator<Item = &'p Point> + Clone {
        let NodeVertices { first_used: [first, end], used_earlier: [at, past] } = self.runs[node];
        let listed = &self.earlier[at as usize..past as usize];
        placed[first as usize..end as usize].iter().chain(listed.iter().map(|&k| &placed[k as usize]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::torus;
    use crate::{BuildConfig, Bvh};
    use bvh_core::Obb;

    /// Each node reads every vertex its triangles use, once, and no other.
    #[test]
    fn every_node_reads_each_of_its_vertices_once() {
        let bvh: Bvh<Obb> = Bvh::build(torus(2.0, 0.5, 40, 24), &BuildConfig::co());
        let (indices, spans) = (bvh.mesh.indices(), bvh.node_spans());
        let runs = VertexRuns::new(indices, bvh.mesh.vertices().len(), &bvh.nodes, &spans);
        assert!(runs.fits(bvh.nodes.len()));
        // Each vertex placed at its own number, to read back which it is.
        let numbered: Vec<Point> =
            (0..bvh.mesh.vertices().len()).map(|v| Point::new(v as f32, 0.0, 0.0)).collect();
        let placed = runs.placed(&numbered);
        for (node, span) in spans.iter().enumerate() {
            let read: Vec<u32> = runs.below(node, &placed).map(|p| p.x as u32).collect();
            let mut once = read.clone();
            once.sort_unstable();
            once.dedup();
            assert_eq!(once.len(), read.len(), "node {node} reads a vertex twice");
            let mut used: Vec<u32> = indices[span.clone()].iter().flatten().copied().collect();
            used.sort_unstable();
            used.dedup();
            assert_eq!(once, used, "node {node}");
        }
    }
}
