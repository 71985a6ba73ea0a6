//! Top-down construction: fit the node's volume, let the split rule divide its triangles,
//! recurse. Subtrees above a size threshold are built in parallel with rayon; the result is the
//! same tree whatever the thread count, because the triangle slice is divided deterministically
//! and the subtrees are numbered in one order however they were shared out (`numbering`).

use crate::binned;
use crate::bvh::{Bvh, ChildRef};
use crate::numbering::{Numbered, Part};
use crate::preset::{BuildConfig, Construction};
use crate::root::RootVolume;
use crate::split::{NodeTriangles, Split, SplitRule};
use crate::volume::NodeVolume;
use bvh_core::parallel::{current_num_threads, in_pool};
use bvh_core::{TriMesh, Triangle};

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
        // On a pool thread, so that its joins and parallel passes hand work on directly
        // instead of each waking a pool thread and waiting for it.
        in_pool(|| Self::build_in_pool(mesh, config, rule))
    }

    fn build_in_pool(mesh: TriMesh, config: &BuildConfig, rule: &impl SplitRule) -> Self {
        let config = config.for_mesh(mesh.triangle_count());
        // On one thread the parallel parts would only add their bookkeeping (subtrees numbered
        // apart, then copied into a fresh array): the same tree is built in one piece.
        let config = &if current_num_threads() > 1 { config } else { config.sequential() };
        if config.construction == Construction::Binned {
            let shaped = binned::shape::<V>(&mesh, config);
            let root = RootVolume::fit(config.root, bytemuck::cast_slice(&shaped.triangles), &config.fit);
            let mesh = mesh.reordered(&shaped.order);
            return Bvh::assemble(mesh, shaped.order, shaped.triangles, shaped.nodes, root);
        }
        let mut order: Vec<u32> = (0..mesh.triangle_count() as u32).collect();
        let mut triangles: Vec<Triangle> = mesh.triangles().collect();
        let root = RootVolume::fit(config.root, bytemuck::cast_slice(&triangles), &config.fit);
        let builder = Builder { config, rule };
        let nodes = if order.is_empty() {
            Numbered::default()
        } else {
            let vertices = bytemuck::cast_slice_mut(&mut triangles);
            builder.part::<V>(NodeTriangles::new(vertices, &mut order), 0, 0).number()
        };
        Bvh::assemble(mesh.reordered(&order), order, triangles, nodes, root)
    }
}

struct Builder<'a, R> {
    config: &'a BuildConfig,
    rule: &'a R,
}

impl<R: SplitRule> Builder<'_, R> {
    /// The subtree over `triangles`, which sit at leaf-order positions from `first`: divided on
    /// this thread and numbered as built below the parallel threshold, its two sides on two
    /// threads above it.
    fn part<V: NodeVolume>(&self, triangles: NodeTriangles<'_>, first: u32, depth: usize) -> Part<V> {
        if triangles.len() < self.config.parallel_threshold {
            let mut nodes = Numbered::with_top();
            self.node(triangles, first, depth, 0, &mut nodes);
            return Part::Numbered(nodes);
        }
        let (volume, [left, right]) = self.divide::<V>(triangles, depth);
        let right_first = first + left.len() as u32;
        let side = |triangles: NodeTriangles<'_>, first| {
            if self.config.is_leaf(triangles.len()) {
                Part::Leaf { first, count: triangles.len() as u32 }
            } else {
                self.part(triangles, first, depth + 1)
            }
        };
        let (left, right) = bvh_core::parallel::join(|| side(left, first), || side(right, right_first));
        Part::Node(volume, Box::new([left, right]))
    }

    /// Writes the node over `triangles` (from leaf-order position `first`) at place `at` of
    /// `nodes`, then its subtrees.
    fn node<V: NodeVolume>(
        &self,
        triangles: NodeTriangles<'_>,
        first: u32,
        depth: usize,
        at: usize,
        nodes: &mut Numbered<V>,
    ) {
        let (volume, sides) = self.divide::<V>(triangles, depth);
        let firsts = [first, first + sides[0].len() as u32];
        let counts = sides.each_ref().map(|t| t.len());
        let children = nodes.place_children(firsts, counts, self.config);
        nodes.set(at, volume, children);
        for ((triangles, first), child) in sides.into_iter().zip(firsts).zip(children) {
            if let ChildRef::Node(at) = child.get() {
                self.node(triangles, first, depth + 1, at, nodes);
            }
        }
    }

    /// The node's volume and its triangles divided by the split rule (by the median, or by
    /// count, where the rule cannot divide them).
    fn divide<'t, V: NodeVolume>(
        &self,
        mut triangles: NodeTriangles<'t>,
        depth: usize,
    ) -> (V, [NodeTriangles<'t>; 2]) {
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
        (volume, [left, right])
    }
}
