//! The order nodes are stored in, written while a tree is built: the top node first, then
//! depth-first, the two children of a node always next to each other. A descent that opens a
//! node reads both children (to test them, or to order them by distance), so they share cache
//! lines instead of one of them lying a whole subtree away.
//!
//! A builder writing one subtree on one thread gives a divided node's child nodes the next two
//! places, then builds the first child's subtree, then the second's ([`Numbered`]); each
//! volume is written to its place when known. Subtrees built on other threads are numbered
//! from their own top and copied into place, in parallel, once the whole tree is known
//! ([`Part`], [`Part::number`]): a node is copied at most once, and a tree built on one thread
//! not at all.

use crate::bvh::{Child, Node};
use crate::preset::BuildConfig;
use crate::volume::NodeVolume;
use bvh_core::parallel::prelude::*;

/// Nodes in their final order, written as the tree's own: the tree takes the array as it is.
pub(crate) struct Numbered<V> {
    pub(crate) nodes: Vec<Node<V>>,
}

impl<V> Default for Numbered<V> {
    /// No nodes (the tree of an empty mesh).
    fn default() -> Self {
        Self { nodes: Vec::new() }
    }
}

impl<V: NodeVolume> Numbered<V> {
    /// A subtree's nodes, its top's place (0) taken.
    pub(crate) fn with_top() -> Self {
        let mut nodes = Self::default();
        nodes.take_place();
        nodes
    }

    /// The nodes with these volumes and child slots, at the same index.
    pub(crate) fn from_parts(volumes: &[V], children: &[[Child; 2]]) -> Self {
        Self {
            nodes: volumes
                .iter()
                .zip(children)
                .map(|(&volume, &children)| Node::new(volume, children))
                .collect(),
        }
    }

    /// The next free place; its volume and children are written later.
    fn take_place(&mut self) -> usize {
        self.nodes.push(bytemuck::Zeroable::zeroed());
        self.nodes.len() - 1
    }

    /// The child slots of a node divided into two runs of triangles – `count` of them from
    /// leaf-order position `first`, each a leaf or a node by `config`'s rule – with places
    /// taken, next to each other, for the node children.
    pub(crate) fn place_children(
        &mut self,
        first: [u32; 2],
        count: [usize; 2],
        config: &BuildConfig,
    ) -> [Child; 2] {
        std::array::from_fn(|i| {
            if config.is_leaf(count[i]) {
                Child::leaf(first[i], count[i] as u32)
            } else {
                Child::node(self.take_place() as u32)
            }
        })
    }

    /// Writes the node at place `at`.
    pub(crate) fn set(&mut self, at: usize, volume: V, children: [Child; 2]) {
        self.nodes[at] = Node::new(volume, children);
    }

    /// Copies each subtree's nodes but its top to its run of places from `base` (the runs in
    /// increasing order, apart), on several threads.
    fn fill_runs(&mut self, runs: Vec<(usize, Numbered<V>)>) {
        let mut nodes = &mut self.nodes[..];
        let mut start = 0;
        let mut work = Vec::with_capacity(runs.len());
        for (base, subtree) in runs {
            let len = subtree.nodes.len() - 1;
            let (run, rest) = std::mem::take(&mut nodes)[base - start..].split_at_mut(len);
            nodes = rest;
            start = base + len;
            work.push((base, subtree, run));
        }
        work.into_par_iter().for_each(|(base, subtree, run)| {
            for (node, moved) in run.iter_mut().zip(&subtree.nodes[1..]) {
                *node = renumbered(moved, base);
            }
        });
    }
}

/// A subtree's node once its nodes but its top sit from place `base` on (its place `i ≥ 1`
/// becomes `base + i - 1`).
fn renumbered<V: Copy>(node: &Node<V>, base: usize) -> Node<V> {
    Node { children: node.children.map(|c| c.renumbered(|i| base as u32 + i - 1)), ..*node }
}

/// Part of a tree built in parallel: a leaf, a node with its two parts, or a subtree built on
/// one thread and numbered from its own top.
pub(crate) enum Part<V> {
    Leaf { first: u32, count: u32 },
    Node(V, Box<[Part<V>; 2]>),
    Numbered(Numbered<V>),
}

impl<V: NodeVolume> Part<V> {
    /// The tree numbered as a whole: the nodes of the parts above the subtrees placed in
    /// order, then the subtrees' nodes copied to their places in parallel.
    pub(crate) fn number(self) -> Numbered<V> {
        match self {
            Part::Numbered(nodes) => nodes,
            part => {
                let count = part.node_count();
                let mut nodes = Numbered { nodes: bytemuck::zeroed_vec(count) };
                let mut runs = Vec::new();
                part.place(0, &mut 1, &mut nodes, &mut runs);
                nodes.fill_runs(runs);
                nodes
            }
        }
    }

    /// How many nodes the part holds.
    fn node_count(&self) -> usize {
        match self {
            Part::Leaf { .. } => 0,
            Part::Node(_, parts) => 1 + parts.iter().map(Part::node_count).sum::<usize>(),
            Part::Numbered(subtree) => subtree.nodes.len(),
        }
    }

    /// Writes the part, a node, at place `at`, and places what lies below it after the `taken`
    /// places: its node children consecutively, then their subtrees in turn. A subtree built
    /// on one thread has its top written here and the run for its other nodes listed in `runs`.
    fn place(
        self,
        at: usize,
        taken: &mut usize,
        nodes: &mut Numbered<V>,
        runs: &mut Vec<(usize, Numbered<V>)>,
    ) {
        match self {
            Part::Leaf { .. } => unreachable!("a leaf has no place"),
            Part::Numbered(subtree) => {
                let base = *taken;
                *taken += subtree.nodes.len() - 1;
                nodes.nodes[at] = renumbered(&subtree.nodes[0], base);
                runs.push((base, subtree));
            }
            Part::Node(volume, parts) => {
                let mut children = [Child::leaf(0, 0); 2];
                let mut below = [None, None];
                for (slot, part) in parts.into_iter().enumerate() {
                    children[slot] = match part {
                        Part::Leaf { first, count } => Child::leaf(first, count),
                        part => {
                            let place = *taken;
                            *taken += 1;
                            below[slot] = Some((place, part));
                            Child::node(place as u32)
                        }
                    };
                }
                nodes.set(at, volume, children);
                for (place, part) in below.into_iter().flatten() {
                    part.place(place, taken, nodes, runs);
                }
            }
        }
    }
}
