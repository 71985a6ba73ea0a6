//! An OBB tree seen four children at a time, for searches that stop at their first contact:
//! each wide node is a node of the binary tree whose slots are its grandchildren (a child that
//! is a leaf stands for itself), their boxes side by side in vector lanes ([`ObbLanes`]), so one
//! box of the other tree meets all four in one test. A search so reads half as many levels, in
//! nodes laid out together, and tests four boxes for about the cost of one. Grandchildren, not
//! the four largest nodes below, so that a search can still order them as the binary descent
//! would: by the child they lie below, then by their own centres. A leaf gets its own box, the
//! smaller of the box on its parent's axes and its own principal-axes box: a leaf has no volume
//! in the binary tree, where a search tests its triangles against the other node instead.
//!
//! Derived from the binary tree when a search first asks for it (a refit drops it), so trees
//! that never run such a search do not pay for it.

use crate::bvh::{Bvh, ChildRef, Node};
use bvh_core::parallel::prelude::*;
use bvh_core::{Obb, ObbLanes, Point, Triangle};
use smallvec::SmallVec;
use std::ops::Range;

/// The wide nodes of one tree; wide node 0 stands for the binary tree's top node.
#[derive(Clone, Debug, Default)]
pub struct WideNodes {
    nodes: Vec<WideNode>,
    /// Each wide node's own box: its binary node's volume, copied beside the wide nodes, which
    /// a search reads with it.
    own: Vec<Obb>,
    leaves: Vec<WideLeaf>,
    /// Each wide node's binary node, and each leaf's binary parent: a search that keeps where
    /// it stopped keeps it in the binary tree's terms, from which the binary descent resumes.
    /// Apart from what a search reads at every step.
    binary_nodes: Vec<u32>,
    leaf_parents: Vec<u32>,
}

/// Up to four grandchildren (or leaf children) of a binary node, their boxes in lanes (lane `k`
/// for `children[k]`).
#[derive(Clone, Debug)]
pub struct WideNode {
    /// The children's boxes; an empty slot's lane meets nothing.
    pub boxes: ObbLanes,
    /// What each lane stands for.
    pub children: [WideChild; 4],
    /// Which of the binary node's two children each lane lies below (0 or 1).
    pub groups: [u8; 4],
    /// The centres of the binary node's two children's volumes (a leaf's: of its box), which
    /// the lanes of each group lie in: a search orders the lanes by them first.
    pub group_centres: [Point; 2],
}

/// A slot of a wide node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WideChild {
    /// The wide node with this index.
    Node(u32),
    /// The leaf with this index ([`WideNodes::leaf`]).
    Leaf(u32),
    /// Nothing (a node with fewer than four slots).
    Empty,
}

/// A leaf's triangles (leaf-order positions) and the box fitted to them.
#[derive(Clone, Debug)]
struct WideLeaf {
    first: u32,
    end: u32,
    obb: Obb,
}

impl WideNodes {
    /// The wide view of the binary `nodes` over the leaf-order `triangles`.
    pub(crate) fn of(nodes: &[Node<Obb>], triangles: &[Triangle]) -> Self {
        let (leaves, leaf_parents) = fitted_leaves(nodes, triangles).into_iter().unzip();
        let mut wide = Self { leaves, leaf_parents, ..Self::default() };
        if nodes.is_empty() {
            return wide;
        }
        // A leaf's index by the leaf-order position of its first triangle.
        let mut leaf_at = vec![0u32; triangles.len()];
        for (l, leaf) in wide.leaves.iter().enumerate() {
            leaf_at[leaf.first as usize] = l as u32;
        }
        // Binary nodes still to be opened, each with the index of its wide node.
        let mut pending = vec![(0, wide.add_node(0, &nodes[0].volume))];
        while let Some((binary, at)) = pending.pop() {
            let mut children = [WideChild::Empty; 4];
            let mut boxes: [Option<Obb>; 4] = [None; 4];
            let mut groups = [0; 4];
            for (k, (child, group)) in grandchildren(nodes, binary).into_iter().enumerate() {
                let (child, obb) = match child {
                    ChildRef::Node(i) => {
                        let index = wide.add_node(i, &nodes[i].volume);
                        pending.push((i, index));
                        (WideChild::Node(index as u32), nodes[i].volume)
                    }
                    ChildRef::Leaf(range) => {
                        let l = leaf_at[range.start];
                        (WideChild::Leaf(l), wide.leaves[l as usize].obb)
                    }
                };
                children[k] = child;
                boxes[k] = Some(obb);
                groups[k] = group;
            }
            // A group's centre: its binary child's volume's, or the leaf's box's.
            let group_centres = nodes[binary].children.map(|child| match child.get() {
                ChildRef::Node(i) => nodes[i].volume.center,
                ChildRef::Leaf(r) if !r.is_empty() => wide.leaves[leaf_at[r.start] as usize].obb.center,
                ChildRef::Leaf(_) => Point::origin(),
            });
            wide.nodes[at] = WideNode {
                boxes: ObbLanes::new(boxes.each_ref().map(Option::as_ref)),
                children,
                groups,
                group_centres,
            };
        }
        wide
    }

    /// A wide node for binary node `binary` of this volume, its slots filled later; its index.
    fn add_node(&mut self, binary: usize, volume: &Obb) -> usize {
        self.own.push(*volume);
        self.binary_nodes.push(binary as u32);
        self.nodes.push(WideNode {
            boxes: ObbLanes::new([None; 4]),
            children: [WideChild::Empty; 4],
            groups: [0; 4],
            group_centres: [Point::origin(); 2],
        });
        self.nodes.len() - 1
    }

    /// Wide node `i`.
    #[inline]
    pub fn node(&self, i: usize) -> &WideNode {
        &self.nodes[i]
    }

    /// Wide node `i`'s own box.
    #[inline]
    pub fn own_box(&self, i: usize) -> &Obb {
        &self.own[i]
    }

    /// Leaf `l`'s triangles (leaf-order positions) and box.
    #[inline]
    pub fn leaf(&self, l: usize) -> (Range<usize>, &Obb) {
        let leaf = &self.leaves[l];
        (leaf.first as usize..leaf.end as usize, &leaf.obb)
    }

    /// Wide node `i`'s binary node.
    #[inline]
    pub fn binary_node(&self, i: usize) -> usize {
        self.binary_nodes[i] as usize
    }

    /// Leaf `l`'s parent in the binary tree.
    #[inline]
    pub fn leaf_parent(&self, l: usize) -> usize {
        self.leaf_parents[l] as usize
    }

    /// Number of wide nodes (zero for an empty tree).
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }
}

/// The slots of binary node `i`'s wide node: each child's children, or the child itself if it is
/// a leaf, each with which of `i`'s two children it lies below; empty leaves left out.
fn grandchildren(nodes: &[Node<Obb>], i: usize) -> SmallVec<[(ChildRef, u8); 4]> {
    let not_empty = |c: &ChildRef| !matches!(c, ChildRef::Leaf(r) if r.is_empty());
    let mut slots = SmallVec::new();
    for (child, group) in nodes[i].children.iter().zip(0..) {
        match child.get() {
            ChildRef::Node(j) => {
                slots.extend(nodes[j].children.iter().map(|c| (c.get(), group)).filter(|(c, _)| not_empty(c)))
            }
            leaf => slots.extend(not_empty(&leaf).then_some((leaf, group))),
        }
    }
    slots
}

/// Every leaf of the binary `nodes` with its box, fitted in parallel (the smaller of the box on
/// its parent's axes and its own principal-axes box), and its parent.
fn fitted_leaves(nodes: &[Node<Obb>], triangles: &[Triangle]) -> Vec<(WideLeaf, u32)> {
    let leaves: Vec<(Range<usize>, usize)> = (0..nodes.len())
        .flat_map(|i| nodes[i].children.iter().map(move |c| (c.get(), i)))
        .filter_map(|(c, parent)| match c {
            ChildRef::Leaf(range) if !range.is_empty() => Some((range, parent)),
            _ => None,
        })
        .collect();
    leaves
        .into_par_iter()
        .map(|(range, parent)| {
            let corners: SmallVec<[Point; 24]> =
                triangles[range.clone()].iter().flat_map(Triangle::vertices).collect();
            let on_parent = Obb::from_point_slice_with_axes(&corners, &nodes[parent].volume.axes);
            let own = Obb::from_points(&corners);
            let obb = if own.volume() < on_parent.volume() { own } else { on_parent };
            (WideLeaf { first: range.start as u32, end: range.end as u32, obb }, parent as u32)
        })
        .collect()
}

impl Bvh<Obb> {
    /// The tree four children at a time (see the module's doc), derived on first use.
    pub fn wide(&self) -> &WideNodes {
        self.wide.get_or_init(|| WideNodes::of(&self.nodes, &self.triangles))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{accumulator_bay, torus};
    use crate::{BuildConfig, Preset};
    use bvh_core::TriMesh;

    /// What lies below a wide child: the leaf-order positions of its triangles.
    fn below(wide: &WideNodes, child: WideChild, out: &mut Vec<usize>) {
        match child {
            WideChild::Node(i) => {
                for &c in &wide.node(i as usize).children {
                    below(wide, c, out);
                }
            }
            WideChild::Leaf(l) => out.extend(wide.leaf(l as usize).0),
            WideChild::Empty => {}
        }
    }

    /// What lies below a binary child: the leaf-order positions of its triangles, in order.
    fn binary_below(tree: &Bvh<Obb>, child: ChildRef) -> Vec<usize> {
        match child {
            ChildRef::Node(i) => tree.children(i).iter().flat_map(|c| binary_below(tree, c.get())).collect(),
            ChildRef::Leaf(range) => range.collect(),
        }
    }

    /// Every triangle lies below the top exactly once, every child's box holds all the
    /// triangles below it, a wide node's own box is its binary node's volume, and each child
    /// holds the triangles of the binary node or leaf it names.
    #[test]
    fn wide_nodes_cover_each_triangle_once_inside_their_boxes() {
        let meshes = [
            (torus(2.0, 0.5, 40, 24), BuildConfig::co()),
            (accumulator_bay(1).part, Preset::co_binned().config),
            (accumulator_bay(1).bay, Preset::co_binned().config),
        ];
        for (mesh, config) in meshes {
            let tree: Bvh<Obb> = Bvh::build(mesh, &config);
            let wide = tree.wide();
            assert_eq!(wide.own_box(0), tree.volume(0));
            assert_eq!(wide.binary_node(0), 0);
            let mut all = Vec::new();
            below(wide, WideChild::Node(0), &mut all);
            all.sort_unstable();
            assert_eq!(all, (0..tree.mesh().triangle_count()).collect::<Vec<_>>());
            for i in 0..wide.node_count() {
                let node = wide.node(i);
                for (k, &child) in node.children.iter().enumerate() {
                    let mut positions = Vec::new();
                    below(wide, child, &mut positions);
                    // The binary node (or leaf) it stands for holds the same triangles.
                    let (binary, obb) = match child {
                        WideChild::Node(j) => {
                            assert_eq!(wide.own_box(j as usize), tree.volume(wide.binary_node(j as usize)));
                            (
                                binary_below(&tree, ChildRef::Node(wide.binary_node(j as usize))),
                                wide.own_box(j as usize),
                            )
                        }
                        WideChild::Leaf(l) => {
                            let (range, obb) = wide.leaf(l as usize);
                            let parent = tree.children(wide.leaf_parent(l as usize));
                            assert!(parent.iter().any(|c| c.get() == ChildRef::Leaf(range.clone())));
                            (range.collect(), obb)
                        }
                        WideChild::Empty => continue,
                    };
                    let mut sorted = positions.clone();
                    sorted.sort_unstable();
                    assert_eq!(sorted, binary, "node {i} lane {k}");
                    let corners = positions.iter().flat_map(|&p| tree.triangle(p).vertices());
                    assert!(corners.clone().all(|p| obb.contains_point(&p)), "node {i} lane {k}");
                    // The lane holds the same box: a point just inside it meets it.
                    let probe = bvh_core::PlacedObb::new(
                        &Obb::new(obb.center, obb.axes, bvh_core::Vector::repeat(1e-3)),
                        &bvh_core::RelativePose::identity(),
                    );
                    assert_eq!(node.boxes.meeting(0.0, &probe) >> k & 1, 1, "node {i} lane {k}");
                }
            }
        }
    }

    /// An empty tree has no wide nodes; a refit drops the view, to be derived again.
    #[test]
    fn empty_trees_and_refits() {
        let empty: Bvh<Obb> = Bvh::build(TriMesh::new(Vec::new(), Vec::new()).unwrap(), &BuildConfig::co());
        assert_eq!(empty.wide().node_count(), 0);
        let mut ring: Bvh<Obb> = Bvh::build(torus(2.0, 0.5, 20, 12), &BuildConfig::co());
        let before = ring.wide().own_box(0).center;
        let moved: Vec<Point> = ring.mesh().vertices().iter().map(|p| p + bvh_core::Vector::x()).collect();
        ring.refit(&moved).unwrap();
        assert!((ring.wide().own_box(0).center - before - bvh_core::Vector::x()).norm() < 1e-4);
    }
}
