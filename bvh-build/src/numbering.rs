//! The order nodes are stored in, written while a tree is built: the top node first, then
//! depth-first, the two children of a node always next to each other. A descent that opens a
//! node reads both children (to test them, or to order them by distance), so they share cache
//! lines instead of one of them lying a whole subtree away.
//!
//! A builder writing one subtree on one thread gives a divided node's child nodes the next two
//! places, then builds the first child's subtree, then the second's ([`Numbered`]); each
//! volume is written to its place when known. Subtrees built on other threads are numbered
//! from their own top and spliced in once the whole tree is known ([`Part`], [`Part::number`]):
//! a node is copied at most once, and a tree built on one thread not at all.

use crate::bvh::Child;
use crate::preset::BuildConfig;
use crate::volume::NodeVolume;

/// Nodes in their final order: a node's volume and its two child slots, at the same index.
pub(crate) struct Numbered<V> {
    pub(crate) volumes: Vec<V>,
    pub(crate) children: Vec<[Child; 2]>,
}

impl<V> Default for Numbered<V> {
    /// No nodes (the tree of an empty mesh).
    fn default() -> Self {
        Self { volumes: Vec::new(), children: Vec::new() }
    }
}

impl<V: NodeVolume> Numbered<V> {
    /// A subtree's nodes, its top's place (0) taken.
    pub(crate) fn with_top() -> Self {
        let mut nodes = Self::default();
        nodes.take_place();
        nodes
    }

    /// The next free place; its volume and children are written later.
    fn take_place(&mut self) -> usize {
        self.volumes.push(V::zeroed());
        self.children.push([Child::leaf(0, 0); 2]);
        self.volumes.len() - 1
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
        self.volumes[at] = volume;
        self.children[at] = children;
    }

    /// Writes `subtree` (numbered from its own top) with its top at place `at` and the rest
    /// after the places taken so far.
    fn splice(&mut self, at: usize, subtree: Numbered<V>) {
        // The subtree's place `i ≥ 1` becomes `base + i - 1`.
        let base = self.volumes.len() as u32;
        let moved = |slots: &[Child; 2]| slots.map(|c| c.renumbered(|i| base + i - 1));
        self.volumes[at] = subtree.volumes[0];
        self.children[at] = moved(&subtree.children[0]);
        self.volumes.extend_from_slice(&subtree.volumes[1..]);
        self.children.extend(subtree.children[1..].iter().map(moved));
    }
}

/// Part of a tree built in parallel: a leaf, a node with its two parts, or a subtree built on
/// one thread and numbered from its own top.
pub(crate) enum Part<V> {
    Leaf { first: u32, count: u32 },
    Node(V, Box<[Part<V>; 2]>),
    Numbered(Numbered<V>),
}

impl<V: NodeVolume> Part<V> {
    /// The tree numbered as a whole, every subtree spliced in order.
    pub(crate) fn number(self) -> Numbered<V> {
        match self {
            Part::Numbered(nodes) => nodes,
            part => {
                let mut nodes = Numbered::with_top();
                let rest = part.node_count() - 1;
                nodes.volumes.reserve_exact(rest);
                nodes.children.reserve_exact(rest);
                part.write(0, &mut nodes);
                nodes
            }
        }
    }

    /// How many nodes the part holds.
    fn node_count(&self) -> usize {
        match self {
            Part::Leaf { .. } => 0,
            Part::Node(_, parts) => 1 + parts.iter().map(Part::node_count).sum::<usize>(),
            Part::Numbered(subtree) => subtree.volumes.len(),
        }
    }

    /// Writes the part, a node, at place `at`, and what lies below it: its node children
    /// consecutively, then their subtrees in turn.
    fn write(self, at: usize, nodes: &mut Numbered<V>) {
        match self {
            Part::Leaf { .. } => unreachable!("a leaf has no place"),
            Part::Numbered(subtree) => nodes.splice(at, subtree),
            Part::Node(volume, parts) => {
                nodes.volumes[at] = volume;
                let mut below = [None, None];
                for (slot, part) in parts.into_iter().enumerate() {
                    nodes.children[at][slot] = match part {
                        Part::Leaf { first, count } => Child::leaf(first, count),
                        part => {
                            let place = nodes.take_place();
                            below[slot] = Some((place, part));
                            Child::node(place as u32)
                        }
                    };
                }
                for (place, part) in below.into_iter().flatten() {
                    part.write(place, nodes);
                }
            }
        }
    }
}
