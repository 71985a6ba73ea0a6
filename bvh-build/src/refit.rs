//! Refitting a built tree to moved vertices, for deforming meshes (hoses, cables, soft parts):
//! the topology and the leaf order stay, and every volume above a moved triangle is fitted
//! again: an AABB from the leaves up around its leaf triangles and its children's new boxes
//! (exact), an OBB (keeping its axes) or a sphere around every vertex below it, each read once
//! (`VertexRuns`), nodes in parallel (a box around boxes on other axes grows with every level,
//! until queries test many times the volumes they test on a rebuilt tree). Far cheaper than a
//! build, and exact: each volume still holds its triangles.

use crate::bvh::{Bvh, ChildRef, Node, next_id};
use crate::vertex_runs::VertexRuns;
use crate::volume::NodeVolume;
use bvh_core::parallel::join;
use bvh_core::parallel::prelude::*;
use bvh_core::{Aabb, MeshError, Point, Triangle};
use smallvec::SmallVec;
use std::ops::Range;
use std::sync::OnceLock;

/// Below this many nodes, fitting each around its corners runs on the calling thread.
const PARALLEL_NODES: usize = 2048;

/// Below this many triangles (or nodes), reading the corners again (or merging children's
/// boxes) runs on the calling thread: waking the thread pool costs more than such a pass.
const PARALLEL_MERGES: usize = 16_384;

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
        self.wide = OnceLock::new();
        // The stale nodes, the runs of leaf-order positions below every node if known, and the
        // box of every corner if known.
        let (stale, spans, bounds) = if positions.len() == self.mesh.vertices().len() {
            (vec![true; self.nodes.len()], None, Some(self.take_every_triangle()))
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
            let stale = spans.iter().map(|span| changed[span.end] > changed[span.start]).collect();
            (stale, Some(spans), None)
        };
        let placed;
        let points: &[Point] = if V::REFITS_FROM_CHILDREN {
            self.refit_from_children(&stale);
            bytemuck::cast_slice(&self.triangles)
        } else {
            placed = self.refit_from_vertices(&stale, spans);
            &placed
        };
        self.root = self.root.refitted(points, bounds.as_ref());
        self.neighbours.vertices_moved(&self.mesh);
        Ok(())
    }

    /// Fits the volumes of the `stale` nodes again, each around every vertex below it (each
    /// once), in parallel (each computed alone: the tree does not depend on the thread count).
    /// `spans`, the runs of leaf-order positions below every node, if known, serve the first
    /// refit, which finds those vertices. Returns the used vertices.
    fn refit_from_vertices(&mut self, stale: &[bool], spans: Option<Vec<Range<usize>>>) -> Vec<Point> {
        if !self.vertex_runs.fits(self.nodes.len()) {
            let spans = spans.unwrap_or_else(|| self.node_spans());
            let (indices, vertex_count) = (self.mesh.indices(), self.mesh.vertices().len());
            self.vertex_runs = VertexRuns::new(indices, vertex_count, &self.nodes, &spans);
        }
        let runs = &self.vertex_runs;
        let placed = runs.placed(self.mesh.vertices());
        let fit = |(i, (node, stale)): (usize, (&mut Node<V>, &bool))| {
            if *stale {
                node.volume = node.volume.refitted(runs.below(i, &placed), &[]);
                node.aabb = node.volume.own_box();
            }
        };
        // Handing a small tree to the thread pool costs more than fitting it here.
        if self.nodes.len() < PARALLEL_NODES {
            self.nodes.iter_mut().zip(stale).enumerate().for_each(fit);
        } else {
            self.nodes.par_iter_mut().zip(stale).enumerate().for_each(fit);
        }
        placed
    }

    /// Takes every triangle's corners from the mesh again, in parallel chunks when many;
    /// returns their box.
    fn take_every_triangle(&mut self) -> Aabb {
        /// Triangles per task: enough that handing one out costs little beside it.
        const CHUNK: usize = 4096;
        let mesh = &self.mesh;
        let take = |(k, chunk): (usize, &mut [Triangle])| {
            let mut bounds = Aabb::EMPTY;
            for (position, triangle) in (k * CHUNK..).zip(chunk) {
                // The box from the corners just read, not read back from where they are stored.
                let moved = mesh.triangle(position);
                bounds.merge(&moved.aabb());
                *triangle = moved;
            }
            bounds
        };
        let chunk_boxes: Vec<Aabb> = if self.triangles.len() < PARALLEL_MERGES {
            self.triangles.chunks_mut(CHUNK).enumerate().map(take).collect()
        } else {
            self.triangles.par_chunks_mut(CHUNK).enumerate().map(take).collect()
        };
        chunk_boxes.iter().fold(Aabb::EMPTY, |all, b| all.merged(b))
    }

    /// Refits the stale nodes bottom-up. Nodes are numbered "a node's node children, then
    /// each child's family (its descendants) in turn", so two families are disjoint runs and
    /// large ones are refitted on two threads; a run whose nodes have children outside it
    /// (another numbering, from a loaded tree) makes it one pass from the last node to the first.
    fn refit_from_children(&mut self, stale: &[bool]) {
        let refitted = match self.nodes.first().map(|top| node_children(top).count()) {
            Some(heads) => {
                refit_family(&mut self.nodes[1..], 1, heads, &stale[1..], &self.triangles)
                    && refit_first(&mut self.nodes, 0, 1, stale, &self.triangles)
            }
            None => true,
        };
        if !refitted {
            // Children come after their parent in every valid tree: this pass cannot fail.
            refit_run(&mut self.nodes, 0, stale, &self.triangles);
        }
    }

    /// The leaf-order positions of every node's triangles: a node's subtree is one run, as
    /// the nodes are numbered depth-first and leaves are runs.
    pub(crate) fn node_spans(&self) -> Vec<Range<usize>> {
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

/// The node children of a node.
fn node_children<V>(node: &Node<V>) -> impl Iterator<Item = usize> + '_ {
    node.children.iter().filter_map(|child| match child.get() {
        ChildRef::Node(j) => Some(j),
        ChildRef::Leaf(_) => None,
    })
}

/// Refits the stale ones of `family` – the descendants of one node, numbered from `first`,
/// its `heads` node children leading – below the heads first: the two heads' families are
/// disjoint runs after them, refitted on two threads when large. `false` if a node's child is
/// not where that numbering puts it (some may then be refitted, some not).
fn refit_family<V: NodeVolume>(
    family: &mut [Node<V>],
    first: usize,
    heads: usize,
    stale: &[bool],
    triangles: &[Triangle],
) -> bool {
    if family.len() < PARALLEL_MERGES {
        return refit_run(family, first, stale, triangles);
    }
    if heads == 0 {
        // Descendants of a node without node children: not this numbering.
        return false;
    }
    let (head, rest) = family.split_at_mut(heads);
    let rest_first = first + heads;
    // The second head's family starts at its first node child, the first head's ends there.
    let split = match head {
        [_, second] => node_children(second).min().map_or(Some(rest.len()), |j| j.checked_sub(rest_first)),
        _ => Some(rest.len()),
    };
    let Some(split) = split.filter(|&k| k <= rest.len()) else { return false };
    let (of_first, of_second) = rest.split_at_mut(split);
    let (stale_head, stale_rest) = stale.split_at(heads);
    let (stale_first, stale_second) = stale_rest.split_at(split);
    let family_heads = |k: usize| head.get(k).map_or(0, |h| node_children(h).count());
    let (first_heads, second_heads) = (family_heads(0), family_heads(1));
    let (below_first, below_second) = join(
        || refit_family(of_first, rest_first, first_heads, stale_first, triangles),
        || refit_family(of_second, rest_first + split, second_heads, stale_second, triangles),
    );
    // The heads last, reading their children from the runs below them.
    below_first && below_second && refit_first(family, first, heads, stale_head, triangles)
}

/// Refits the stale ones of `nodes` – numbered from `first` – from the last to the first.
/// `false` if a node's child is not among the nodes after it.
fn refit_run<V: NodeVolume>(
    nodes: &mut [Node<V>],
    first: usize,
    stale: &[bool],
    triangles: &[Triangle],
) -> bool {
    refit_first(nodes, first, nodes.len(), stale, triangles)
}

/// Refits the stale ones of the first `count` of `nodes` (numbered from `first`; `stale` for
/// those `count`) from the last to the first, each around its leaf triangles and its node
/// children among `nodes`. `false` if a child is not there.
fn refit_first<V: NodeVolume>(
    nodes: &mut [Node<V>],
    first: usize,
    count: usize,
    stale: &[bool],
    triangles: &[Triangle],
) -> bool {
    for i in (0..count).rev().filter(|&i| stale[i]) {
        // A node's leaf children's runs are adjacent (its triangles are one run), so its leaf
        // triangles' corners are read in place.
        let mut leaves: Option<Range<usize>> = None;
        let mut below = SmallVec::<[V; 2]>::new();
        for child in nodes[i].children {
            match child.get() {
                ChildRef::Node(j) => match j.checked_sub(first).filter(|&j| j > i).and_then(|j| nodes.get(j))
                {
                    Some(node) => below.push(node.volume),
                    None => return false,
                },
                ChildRef::Leaf(run) if !run.is_empty() => {
                    leaves = Some(leaves.map_or(run.clone(), |l| l.start.min(run.start)..l.end.max(run.end)))
                }
                ChildRef::Leaf(_) => {}
            }
        }
        let leaf_triangles = leaves.and_then(|run| triangles.get(run)).unwrap_or_default();
        let corners: &[Point] = bytemuck::cast_slice(leaf_triangles);
        let volume = nodes[i].volume.refitted(corners.iter(), &below);
        nodes[i].volume = volume;
        nodes[i].aabb = volume.own_box();
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bvh::Child;
    use crate::generate::torus;
    use crate::{BuildConfig, ObbFit, RootKind, RootVolume};
    use bvh_core::{Obb, Vector};

    /// A torus of 80,000 triangles in an AABB tree (enough nodes to be refitted on threads),
    /// and its vertices moved by a wave.
    fn tree_and_wave() -> (Bvh<Aabb>, Vec<Point>) {
        let mesh = torus(2.0, 0.5, 200, 200);
        let wave =
            mesh.vertices().iter().map(|p| p + Vector::new(p.y.sin(), p.z.sin(), p.x.sin()) * 0.05).collect();
        (Bvh::build(mesh, &BuildConfig::co().with_root(RootKind::Aabb)), wave)
    }

    /// Every node's box is the box of its triangles' corners, and the root is the box of all.
    fn assert_exact(bvh: &Bvh<Aabb>) {
        let corners: &[Point] = bytemuck::cast_slice(&bvh.triangles);
        for (node, span) in bvh.nodes.iter().zip(bvh.node_spans()) {
            assert_eq!(node.volume, Aabb::from_points(&corners[3 * span.start..3 * span.end]));
        }
        assert_eq!(bvh.root, RootVolume::fit(RootKind::Aabb, corners, &ObbFit::hull_sampled()));
        bvh.assert_well_formed();
    }

    #[test]
    fn refitted_boxes_are_the_boxes_of_their_triangles() {
        let (mut bvh, wave) = tree_and_wave();
        assert!(bvh.nodes.len() > 2 * PARALLEL_MERGES);
        bvh.refit(&wave).expect("finite vertices");
        assert_exact(&bvh);
    }

    /// A refit of a run of vertices: the nodes above them refitted (on threads), the others
    /// kept, every box still that of its triangles.
    #[test]
    fn a_partial_refit_keeps_every_box_exact() {
        let (mut bvh, wave) = tree_and_wave();
        // Bands of the torus far apart, under different subtrees.
        for run in [3000..7000, 22000..26000] {
            bvh.refit_range(run.start, &wave[run]).expect("finite vertices");
            assert_exact(&bvh);
        }
    }

    /// The tree with its nodes numbered level by level (children still after their parent, as
    /// a loaded tree may have them).
    fn level_order<V: NodeVolume>(mut bvh: Bvh<V>) -> Bvh<V> {
        let mut order = vec![0];
        let mut k = 0;
        while k < order.len() {
            order.extend(node_children(&bvh.nodes[order[k]]));
            k += 1;
        }
        let mut new_index = vec![0; order.len()];
        order.iter().enumerate().for_each(|(new, &old)| new_index[old] = new);
        let renumber = |child: &Child| match child.get() {
            ChildRef::Node(j) => Child::node(new_index[j] as u32),
            ChildRef::Leaf(_) => *child,
        };
        bvh.nodes = order
            .iter()
            .map(|&old| Node { children: bvh.nodes[old].children.each_ref().map(renumber), ..bvh.nodes[old] })
            .collect();
        bvh.assert_well_formed();
        bvh
    }

    /// Nodes numbered level by level are refitted as exactly, by the one pass from the last
    /// node to the first.
    #[test]
    fn trees_numbered_otherwise_are_refitted_exactly() {
        let (bvh, wave) = tree_and_wave();
        let mut bvh = level_order(bvh);
        bvh.refit(&wave).expect("finite vertices");
        assert_exact(&bvh);
    }

    /// Every OBB of a refitted tree holds its triangles' corners and is their box on its axes
    /// but for rounding, though each vertex below it is read once: after a full refit, after
    /// partial ones, and in a tree numbered level by level.
    #[test]
    fn refitted_obbs_are_the_boxes_of_their_corners_on_their_axes() {
        let mesh = torus(2.0, 0.5, 120, 80);
        let wave: Vec<Point> =
            mesh.vertices().iter().map(|p| p + Vector::new(p.y.sin(), p.z.sin(), p.x.sin()) * 0.05).collect();
        let assert_exact = |bvh: &Bvh<Obb>| {
            let corners: &[Point] = bytemuck::cast_slice(&bvh.triangles);
            for (node, span) in bvh.nodes.iter().zip(bvh.node_spans()) {
                let corners = &corners[3 * span.start..3 * span.end];
                let around = Obb::from_points_with_axes(corners, &node.volume.axes);
                assert!(corners.iter().all(|p| node.volume.contains_point(p)));
                // Both boxes measure from their first point, which differs.
                let rounding = 1e-5 * around.half_extents.norm();
                assert!((node.volume.center - around.center).norm() <= rounding);
                assert!((node.volume.half_extents - around.half_extents).amax() <= rounding);
                assert_eq!(node.aabb, node.volume.own_box());
            }
            bvh.assert_well_formed();
        };
        let built: Bvh<Obb> = Bvh::build(mesh, &BuildConfig::co());
        let mut bvh = built.clone();
        assert!(bvh.nodes.len() > PARALLEL_NODES);
        bvh.refit(&wave).expect("finite vertices");
        assert_exact(&bvh);
        for run in [1000..3000, 6000..6500] {
            bvh.refit_range(run.start, &built.mesh.vertices()[run]).expect("finite vertices");
            assert_exact(&bvh);
        }
        let mut renumbered = level_order(built);
        renumbered.refit(&wave).expect("finite vertices");
        assert_exact(&renumbered);
    }

    /// The neighbour lists follow the vertices: two triangles moved to share a corner become
    /// neighbours, and stop being neighbours when moved apart again.
    #[test]
    fn neighbours_follow_corners_that_meet_and_part() {
        let apart = [
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [5.0, 0.0, 0.0],
            [6.0, 0.0, 0.0],
            [5.0, 1.0, 0.0],
        ]
        .map(|[x, y, z]| Point::new(x, y, z));
        let mesh = bvh_core::TriMesh::new(apart.to_vec(), vec![[0, 1, 2], [3, 4, 5]]).expect("valid");
        let mut bvh: Bvh<Aabb> = Bvh::build(mesh, &BuildConfig::co());
        let mut met = apart;
        met[3] = apart[1];
        for (vertices, around) in [(met, 2), (apart, 1), (met, 2), (met, 2)] {
            bvh.refit(&vertices).expect("finite vertices");
            assert_eq!(bvh.neighbours(0).map(<[u32]>::len), Some(around));
            assert_eq!(bvh.point_count(), 7 - around);
        }
    }
}
