//! Top-down construction: fit the node's volume, let the split rule divide its triangles,
//! recurse. Subtrees above a size threshold are built in parallel with rayon; the result is the
//! same tree whatever the thread count, because the triangle slice is divided deterministically
//! and the tree is numbered in one sequential depth-first pass afterwards.

use crate::binned;
use crate::bvh::{Bvh, Child};
use crate::preset::{BuildConfig, Construction};
use crate::root::RootVolume;
use crate::split::{NodeTriangles, Split, SplitRule};
use crate::volume::NodeVolume;
use bvh_core::{Point, TriMesh};

/// Beyond this depth the builder stops trusting the split rule and halves nodes by count, which
/// bounds the depth by `MAX_RULE_DEPTH + log2(n)` whatever the geometry.
pub(crate) const MAX_RULE_DEPTH: usize = 40;

impl<V: NodeVolume> Bvh<V> {
    /// Builds the hierarchy with the configuration's split rule.
    pub fn build(mesh: TriMesh, config: &BuildConfig) -> Self {
        Self::build_with_rule(mesh, config, &config.split)
    }

    /// Builds the hierarchy with a caller-supplied split rule (the configuration's `split` is
    /// ignored).
    pub fn build_with_rule(mesh: TriMesh, config: &BuildConfig, rule: &impl SplitRule) -> Self {
        if config.construction == Construction::Binned && mesh.triangle_count() > 0 {
            let shaped = binned::shape::<V>(&mesh, config);
            let root = RootVolume::fit(config.root, &shaped.corners, &config.fit);
            drop(shaped.corners);
            return Bvh::assemble(
                mesh.reordered(&shaped.order),
                shaped.order,
                shaped.volumes,
                shaped.children,
                root,
            );
        }
        let mut order: Vec<u32> = (0..mesh.triangle_count() as u32).collect();
        let mut vertices: Vec<[Point; 3]> = mesh.triangles().map(|t| t.vertices()).collect();
        let root = RootVolume::fit(config.root, bytemuck::cast_slice(&vertices), &config.fit);
        let builder = Builder { config, rule };
        let mut volumes = Vec::new();
        let mut children = Vec::new();
        if !order.is_empty() {
            let draft = builder.node::<V>(NodeTriangles::new(&mut vertices, &mut order), 0, 0);
            flatten(draft, &mut volumes, &mut children);
        }
        drop(vertices);
        Bvh::assemble(mesh.reordered(&order), order, volumes, children, root)
    }
}

/// A node before numbering.
pub(crate) enum Draft<V> {
    Node(V, Box<[Draft<V>; 2]>),
    Leaf { first: u32, count: u32 },
}

struct Builder<'a, R> {
    config: &'a BuildConfig,
    rule: &'a R,
}

impl<R: SplitRule> Builder<'_, R> {
    /// A node over `triangles`, which sit at leaf-order positions from `first`.
    fn node<V: NodeVolume>(&self, mut triangles: NodeTriangles<'_>, first: u32, depth: usize) -> Draft<V> {
        let (volume, frame) = V::fit(triangles.corners(), triangles.bounds(), &self.config.fit);
        let len = triangles.len();
        let mut k = if depth < MAX_RULE_DEPTH { self.rule.split(&mut triangles, &frame) } else { 0 };
        if k == 0 || k >= len {
            k = Split::Median.split(&mut triangles, &frame);
        }
        if k == 0 || k >= len {
            // All centroids coincide: any division is as good, so halve by count.
            k = len / 2;
        }
        let (left, right) = triangles.split_at(k);
        let k = k as u32;
        let (l, r) = if len >= self.config.parallel_threshold {
            bvh_core::parallel::join(
                || self.child(left, first, depth + 1),
                || self.child(right, first + k, depth + 1),
            )
        } else {
            (self.child(left, first, depth + 1), self.child(right, first + k, depth + 1))
        };
        Draft::Node(volume, Box::new([l, r]))
    }

    fn child<V: NodeVolume>(&self, triangles: NodeTriangles<'_>, first: u32, depth: usize) -> Draft<V> {
        if triangles.len() <= self.config.leaf_size.max(1) {
            Draft::Leaf { first, count: triangles.len() as u32 }
        } else {
            self.node(triangles, first, depth)
        }
    }
}

/// Numbers the draft into the two arrays: the top node first, then depth-first, the two
/// children of a node always next to each other. A descent that opens a node reads both
/// children (to test them, or to order them by distance), so they share cache lines instead of
/// one of them lying a whole subtree away.
pub(crate) fn flatten<V>(draft: Draft<V>, volumes: &mut Vec<V>, children: &mut Vec<[Child; 2]>) {
    let Draft::Node(volume, kids) = draft else { return };
    let top = push_node(volume, volumes, children);
    link_children(top, *kids, volumes, children);
}

/// Appends a node with empty child slots; returns its index.
fn push_node<V>(volume: V, volumes: &mut Vec<V>, children: &mut Vec<[Child; 2]>) -> usize {
    volumes.push(volume);
    children.push([Child::leaf(0, 0); 2]);
    volumes.len() - 1
}

/// Numbers the node children of node `parent` consecutively, then their subtrees in turn.
fn link_children<V>(
    parent: usize,
    kids: [Draft<V>; 2],
    volumes: &mut Vec<V>,
    children: &mut Vec<[Child; 2]>,
) {
    let mut below = [None, None];
    for (slot, kid) in kids.into_iter().enumerate() {
        children[parent][slot] = match kid {
            Draft::Leaf { first, count } => Child::leaf(first, count),
            Draft::Node(volume, grandchildren) => {
                let at = push_node(volume, volumes, children);
                below[slot] = Some((at, grandchildren));
                Child::node(at as u32)
            }
        };
    }
    for (at, grandchildren) in below.into_iter().flatten() {
        link_children(at, *grandchildren, volumes, children);
    }
}
