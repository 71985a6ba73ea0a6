//! The invariants every built or loaded tree must satisfy, checked in one place.

use crate::build::MAX_RULE_DEPTH;
use crate::bvh::{Bvh, ChildRef};
use crate::volume::NodeVolume;
use bvh_core::Real;

/// A broken invariant, with where it was found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Malformed {
    /// A child link points at a node that is not after its parent, or does not exist.
    #[error("node {parent} links to node {child}, which is not a later node of the {count}")]
    BadNodeLink {
        /// The parent node.
        parent: usize,
        /// The linked index.
        child: usize,
        /// Number of nodes.
        count: usize,
    },
    /// A leaf's triangle run is out of range or overlaps another leaf.
    #[error("a leaf of node {node} covers triangles {start}..{end}, out of order or out of range")]
    BadLeaf {
        /// The parent node.
        node: usize,
        /// First position.
        start: usize,
        /// One past the last position.
        end: usize,
    },
    /// Some triangles belong to no leaf.
    #[error("leaves cover {covered} of {total} triangles")]
    Uncovered {
        /// Triangles in leaves.
        covered: usize,
        /// Triangles in the mesh.
        total: usize,
    },
    /// A node is reached twice or never.
    #[error("node {node} is not reached exactly once from the top")]
    NotATree {
        /// The node.
        node: usize,
    },
    /// A volume does not contain a vertex of a triangle below it.
    #[error("node {node} does not contain vertex {vertex} of triangle {triangle}")]
    NotContained {
        /// The node.
        node: usize,
        /// Leaf-order position of the triangle.
        triangle: usize,
        /// Which of its vertices (0–2).
        vertex: usize,
    },
    /// The root volume does not contain a vertex.
    #[error("the root volume does not contain triangle {triangle}")]
    RootNotContaining {
        /// Leaf-order position of the triangle.
        triangle: usize,
    },
    /// The tree is deeper than the builder ever makes one.
    #[error("depth {depth} exceeds the bound {bound}")]
    TooDeep {
        /// Depth found.
        depth: usize,
        /// The bound.
        bound: usize,
    },
    /// The map back to the user's triangle indices is not a permutation.
    #[error("the map to original triangle indices is not a permutation")]
    BadPermutation,
    /// Arrays of different lengths, or a non-finite volume.
    #[error("inconsistent arrays: {0}")]
    Inconsistent(&'static str),
}

impl<V: NodeVolume> Bvh<V> {
    /// Checks every invariant: links point forward to existing nodes and form a tree; leaves
    /// tile the triangles in contiguous runs in depth-first order; every node's volume contains
    /// all vertices of the triangles below it, within `1e-5` times the largest coordinate
    /// magnitude (plus `1e-6`); the root volume contains every vertex; the depth is at most
    /// `40 + log2(n) + 2`; the map to the user's triangle indices is a permutation.
    pub fn check_well_formed(&self) -> Result<(), Malformed> {
        let (n_nodes, n_tris) = (self.nodes.len(), self.mesh.triangle_count());
        if self.original.len() != n_tris {
            return Err(Malformed::Inconsistent("triangle arrays differ in length"));
        }
        if (n_nodes == 0) != (n_tris == 0) {
            return Err(Malformed::Inconsistent("a tree has nodes exactly when it has triangles"));
        }
        if !self.nodes.iter().all(|n| n.volume.is_finite()) {
            return Err(Malformed::Inconsistent("non-finite node volume"));
        }
        let mut seen = vec![false; n_tris];
        for &t in &self.original {
            match seen.get_mut(t as usize) {
                Some(s) if !*s => *s = true,
                _ => return Err(Malformed::BadPermutation),
            }
        }
        let scale = self.mesh.vertices().iter().flat_map(|p| p.iter().map(|c| c.abs())).fold(0.0, Real::max);
        let mut walk = Walk {
            bvh: self,
            tolerance: 1e-5 * scale + 1e-6,
            bound: MAX_RULE_DEPTH + (usize::BITS - n_tris.leading_zeros()) as usize + 2,
            reached: vec![false; n_nodes],
            next: 0,
        };
        if n_nodes > 0 {
            walk.reached[0] = true;
            walk.visit(0, 1)?;
        }
        if let Some(node) = walk.reached.iter().position(|r| !r) {
            return Err(Malformed::NotATree { node });
        }
        if walk.next != n_tris {
            return Err(Malformed::Uncovered { covered: walk.next, total: n_tris });
        }
        for (triangle, t) in self.mesh.triangles().enumerate() {
            if !t.vertices().iter().all(|p| self.root.contains_within(p, walk.tolerance)) {
                return Err(Malformed::RootNotContaining { triangle });
            }
        }
        Ok(())
    }

    /// Panics with the first broken invariant (see [`Bvh::check_well_formed`]).
    #[track_caller]
    pub fn assert_well_formed(&self) {
        if let Err(e) = self.check_well_formed() {
            panic!("malformed hierarchy: {e}");
        }
    }
}

struct Walk<'a, V> {
    bvh: &'a Bvh<V>,
    tolerance: Real,
    bound: usize,
    reached: Vec<bool>,
    /// The next leaf-order position a leaf must start at.
    next: usize,
}

impl<V: NodeVolume> Walk<'_, V> {
    /// Checks the subtree under `node` (at `depth`, the top being 1).
    fn visit(&mut self, node: usize, depth: usize) -> Result<(), Malformed> {
        if depth > self.bound {
            return Err(Malformed::TooDeep { depth, bound: self.bound });
        }
        let n_nodes = self.bvh.nodes.len();
        let start = self.next;
        for child in self.bvh.nodes[node].children {
            match child.get() {
                ChildRef::Leaf(range) => {
                    if range.start != self.next || range.end > self.bvh.mesh.triangle_count() {
                        return Err(Malformed::BadLeaf { node, start: range.start, end: range.end });
                    }
                    self.next = range.end;
                }
                ChildRef::Node(c) => {
                    if c <= node || c >= n_nodes {
                        return Err(Malformed::BadNodeLink { parent: node, child: c, count: n_nodes });
                    }
                    if std::mem::replace(&mut self.reached[c], true) {
                        return Err(Malformed::NotATree { node: c });
                    }
                    self.visit(c, depth + 1)?;
                }
            }
        }
        let volume = &self.bvh.nodes[node].volume;
        for triangle in start..self.next {
            let t = self.bvh.mesh.triangle(triangle);
            if let Some(vertex) = t.vertices().iter().position(|p| !volume.contains_within(p, self.tolerance))
            {
                return Err(Malformed::NotContained { node, triangle, vertex });
            }
        }
        Ok(())
    }
}
