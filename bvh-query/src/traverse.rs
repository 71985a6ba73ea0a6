//! The simultaneous descent of two trees (the bounding volume test tree), in A's frame with B's
//! relative pose computed once: node volumes are never refitted or moved up front (paper 000's
//! layered update), so a pair whose volumes miss high up costs nothing below.

use crate::node_test::NodeTest;
use crate::stats::Stats;
use bvh_build::{Bvh, ChildRef, NodeVolume};
use bvh_core::{Real, RelativePose};
use std::ops::{ControlFlow, Range};

/// One side of a tree-pair: the volume that bounds it (a node's own, or for a leaf its
/// parent's) and, for a leaf, its triangles' leaf-order positions.
#[derive(Clone, Debug)]
struct Side {
    volume: usize,
    leaf: Option<Range<usize>>,
}

impl Side {
    fn node(i: usize) -> Self {
        Self { volume: i, leaf: None }
    }
}

/// How a traversal runs.
pub(crate) struct Descent<'a, VA, VB> {
    pub(crate) a: &'a Bvh<VA>,
    pub(crate) b: &'a Bvh<VB>,
    pub(crate) b_in_a: RelativePose,
    /// A's volumes are grown by this much (clearance queries); zero for contact.
    pub(crate) margin: Real,
    pub(crate) prejudge: bool,
}

impl<VA, VB> Descent<'_, VA, VB>
where
    VA: NodeVolume + NodeTest<VB>,
    VB: NodeVolume,
{
    /// Calls `leaves` with every pair of leaves whose bounding volumes overlap, until it breaks.
    pub(crate) fn run<S: Stats>(
        &self,
        stats: &mut S,
        mut leaves: impl FnMut(Range<usize>, Range<usize>, &mut S) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if self.a.node_count() == 0 || self.b.node_count() == 0 {
            return ControlFlow::Continue(());
        }
        // Each entry: the pair, and whether its volumes still need testing (a leaf paired with
        // what its parent was just tested against needs none).
        let mut stack = vec![(Side::node(0), Side::node(0), true)];
        while let Some((a, b, untested)) = stack.pop() {
            if untested && !self.overlap(a.volume, b.volume, stats) {
                continue;
            }
            match (&a.leaf, &b.leaf) {
                (Some(ra), Some(rb)) => leaves(ra.clone(), rb.clone(), stats)?,
                (None, Some(_)) => self.split_a(&a, &b, &mut stack),
                (Some(_), None) => self.split_b(&a, &b, &mut stack),
                // The descent rule: open the larger volume.
                (None, None) => {
                    if self.a.volume(a.volume).measure() >= self.b.volume(b.volume).measure() {
                        self.split_a(&a, &b, &mut stack)
                    } else {
                        self.split_b(&a, &b, &mut stack)
                    }
                }
            }
        }
        ControlFlow::Continue(())
    }

    #[inline]
    fn overlap(&self, a: usize, b: usize, stats: &mut impl Stats) -> bool {
        let vb = self.b.volume(b);
        if self.margin > 0.0 {
            self.a.volume(a).inflated(self.margin).test(vb, &self.b_in_a, self.prejudge, stats)
        } else {
            self.a.volume(a).test(vb, &self.b_in_a, self.prejudge, stats)
        }
    }

    fn split_a(&self, a: &Side, b: &Side, stack: &mut Vec<(Side, Side, bool)>) {
        for child in self.a.children(a.volume) {
            match child.get() {
                ChildRef::Node(i) => stack.push((Side::node(i), b.clone(), true)),
                ChildRef::Leaf(r) if !r.is_empty() => {
                    stack.push((Side { volume: a.volume, leaf: Some(r) }, b.clone(), false))
                }
                ChildRef::Leaf(_) => {}
            }
        }
    }

    fn split_b(&self, a: &Side, b: &Side, stack: &mut Vec<(Side, Side, bool)>) {
        for child in self.b.children(b.volume) {
            match child.get() {
                ChildRef::Node(i) => stack.push((a.clone(), Side::node(i), true)),
                ChildRef::Leaf(r) if !r.is_empty() => {
                    stack.push((a.clone(), Side { volume: b.volume, leaf: Some(r) }, false))
                }
                ChildRef::Leaf(_) => {}
            }
        }
    }
}
