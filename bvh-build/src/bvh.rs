//! The built hierarchy: a per-object root volume above a binary tree whose nodes live in one
//! array in depth-first order with siblings side by side, the triangles reordered so every leaf
//! is a contiguous run.

use crate::neighbours::MeshNeighbours;
use crate::numbering::Numbered;
use crate::root::RootVolume;
use crate::vertex_runs::VertexRuns;
use crate::volume::NodeVolume;
use crate::wide::WideNodes;
use bvh_core::{Aabb, TriMesh, Triangle};
use std::ops::Range;
use std::sync::OnceLock;

/// One child slot of a node: another node, or a leaf's run of triangles. Leaves have no volume
/// of their own: their triangles are tested under the parent's volume (papers 001 §3, 003 §1.3).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Child {
    first: u32,
    count: u32,
}

/// What a [`Child`] slot holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChildRef {
    /// The node with this index.
    Node(usize),
    /// Triangles at these leaf-order positions (possibly none).
    Leaf(Range<usize>),
}

impl Child {
    const NODE: u32 = u32::MAX;

    /// A link to node `index`.
    pub(crate) fn node(index: u32) -> Self {
        Self { first: index, count: Self::NODE }
    }

    /// A leaf of `count` triangles from leaf-order position `first`.
    pub(crate) fn leaf(first: u32, count: u32) -> Self {
        Self { first, count }
    }

    /// The slot with a node link's index mapped by `index` (a leaf's run unchanged).
    pub(crate) fn renumbered(self, index: impl Fn(u32) -> u32) -> Self {
        if self.count == Self::NODE { Self::node(index(self.first)) } else { self }
    }

    /// What the slot holds.
    #[inline]
    pub fn get(&self) -> ChildRef {
        if self.count == Self::NODE {
            ChildRef::Node(self.first as usize)
        } else {
            ChildRef::Leaf(self.first as usize..self.first as usize + self.count as usize)
        }
    }
}

/// A bounding-volume hierarchy over one mesh, with node volume `V`.
///
/// Node `0` is the top of the tree (absent for an empty mesh); a node's child nodes have larger
/// indices. The mesh is stored with its triangles in leaf order; [`Bvh::original_triangle`]
/// maps a leaf-order position back to the index the user gave.
#[derive(Clone, Debug)]
pub struct Bvh<V> {
    pub(crate) mesh: TriMesh,
    /// The mesh's triangles in leaf order, corners written out, derived from it: a query reads a
    /// triangle from one place instead of its three indices and three vertices.
    pub(crate) triangles: Vec<Triangle>,
    pub(crate) original: Vec<u32>,
    pub(crate) nodes: Vec<Node<V>>,
    pub(crate) root: RootVolume,
    /// The triangles meeting at each corner of the mesh (leaf-order positions), derived from it:
    /// where a remembered contact is looked for first.
    pub(crate) neighbours: MeshNeighbours,
    /// Unique per built or loaded tree (clones share it): lets caches recognise their tree.
    pub(crate) id: u64,
    /// Every vertex below each node, each once, derived from the mesh and the topology by the
    /// first refit that fits volumes around all of them (empty until then).
    pub(crate) vertex_runs: VertexRuns,
    /// The tree four children at a time, for OBB trees, derived when a first-contact search
    /// first asks for it (see [`WideNodes`]); dropped by a refit.
    pub(crate) wide: OnceLock<WideNodes>,
}

/// What a traversal reads of one node, kept together: a visit reads all three, and in separate
/// arrays they would sit in three cache lines far apart (one array is also simpler than three).
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Zeroable)]
#[repr(C)]
pub(crate) struct Node<V> {
    pub(crate) volume: V,
    /// The volume's axis-aligned box in the tree's frame, derived from it: a query tests it
    /// against the other object's box first, for a few comparisons instead of a separating
    /// axis test.
    pub(crate) aabb: Aabb,
    pub(crate) children: [Child; 2],
}

impl<V: NodeVolume> Node<V> {
    /// The node with this volume and these child slots.
    pub(crate) fn new(volume: V, children: [Child; 2]) -> Self {
        Self { volume, aabb: volume.own_box(), children }
    }
}

/// A tree identity never given before.
pub(crate) fn next_id() -> u64 {
    static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// Equal trees have equal geometry and structure; where they came from does not matter.
impl<V: PartialEq> PartialEq for Bvh<V> {
    fn eq(&self, other: &Self) -> bool {
        self.mesh == other.mesh
            && self.original == other.original
            && self.nodes == other.nodes
            && self.root == other.root
    }
}

impl<V: NodeVolume> Bvh<V> {
    /// Assembles a tree from its parts: the mesh and its `triangles` in leaf order, the map to
    /// the user's order, the nodes (the triangles around each corner point are derived when a
    /// query first asks for them).
    pub(crate) fn assemble(
        mesh: TriMesh,
        original: Vec<u32>,
        triangles: Vec<Triangle>,
        nodes: Numbered<V>,
        root: RootVolume,
    ) -> Self {
        let neighbours = MeshNeighbours::new();
        let id = next_id();
        let nodes = nodes.nodes;
        let (vertex_runs, wide) = (VertexRuns::default(), OnceLock::new());
        Bvh { mesh, triangles, original, nodes, root, neighbours, id, vertex_runs, wide }
    }

    /// An identity shared only by clones of this tree (a rebuilt or refitted tree gets a new
    /// one), so state cached for a tree is never applied to another.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The mesh, triangles in leaf order.
    pub fn mesh(&self) -> &TriMesh {
        &self.mesh
    }

    /// The per-object root volume.
    pub fn root(&self) -> &RootVolume {
        &self.root
    }

    /// Number of nodes (zero for an empty mesh).
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Volume of node `i`.
    #[inline]
    pub fn volume(&self, i: usize) -> &V {
        &self.nodes[i].volume
    }

    /// Node `i`'s volume's axis-aligned box in the tree's frame.
    #[inline]
    pub fn node_box(&self, i: usize) -> &Aabb {
        &self.nodes[i].aabb
    }

    /// The two child slots of node `i`.
    #[inline]
    pub fn children(&self, i: usize) -> &[Child; 2] {
        &self.nodes[i].children
    }

    /// Starts loading what tests of node `i`'s children read – a child node whole (volume, box
    /// and slots), a leaf's triangles – for a traversal that is about to test them and would
    /// otherwise wait on memory for each (see [`bvh_core::prefetch_all`]).
    #[inline(always)]
    pub fn prefetch_children(&self, i: usize) {
        for slot in &self.nodes[i].children {
            match slot.get() {
                ChildRef::Node(c) => bvh_core::prefetch_all(std::slice::from_ref(&self.nodes[c])),
                ChildRef::Leaf(r) => bvh_core::prefetch_all(&self.triangles[r]),
            }
        }
    }

    /// Derives now the neighbour lists (the triangles around each corner point, read by
    /// [`Bvh::neighbours`] and the calls below it): a build leaves them to the first call that
    /// reads them – cached first contact, contact regions – which then takes that time once.
    /// For callers who would rather take it when they load a mesh than in their first frame.
    pub fn derive_neighbours(&self) {
        self.neighbours.get(&self.mesh);
    }

    /// The neighbour lists themselves, by leaf-order position (derived on first use): for a
    /// walk over the surface that reads many, one look-up instead of one per read.
    #[inline]
    pub fn neighbour_lists(&self) -> &bvh_core::TriangleNeighbours {
        self.neighbours.get(&self.mesh)
    }

    /// The leaf-order positions of the triangles sharing a corner point with the one at
    /// `position`, itself included, in increasing order; `None` if there are more than
    /// [`bvh_core::MAX_AROUND`].
    #[inline]
    pub fn neighbours(&self, position: usize) -> Option<&[u32]> {
        self.neighbours.get(&self.mesh).around(position)
    }

    /// The numbers of the corner points of the triangle at leaf-order position `position`:
    /// corners at the same position have the same number, whichever triangles they belong to.
    #[inline]
    pub fn corner_points(&self, position: usize) -> [u32; 3] {
        self.neighbours.get(&self.mesh).corner_points(position)
    }

    /// The leaf-order positions of the triangles with a corner at corner point `point`, in
    /// increasing order: all of them, however many meet there.
    #[inline]
    pub fn triangles_at_point(&self, point: u32) -> &[u32] {
        self.neighbours.get(&self.mesh).triangles_at(point)
    }

    /// The tree's triangles, in leaf order, cut into small connected patches.
    #[inline]
    pub fn patches(&self) -> &bvh_core::Patches {
        self.neighbours.get(&self.mesh).patches()
    }

    /// Whether the mesh is closed, so that it has an inside (see
    /// [`bvh_core::TriangleNeighbours::is_closed`]).
    pub fn is_closed(&self) -> bool {
        self.neighbours.get(&self.mesh).is_closed()
    }

    /// How many distinct points the triangles' corners are at: every corner point number is
    /// below it.
    pub fn point_count(&self) -> usize {
        self.neighbours.get(&self.mesh).point_count()
    }

    /// The triangle at leaf-order position `position` (the mesh's, read from one place).
    #[inline]
    pub fn triangle(&self, position: usize) -> &Triangle {
        &self.triangles[position]
    }

    /// The triangles at leaf-order positions `positions` (a leaf's, or a subtree's), in place.
    #[inline]
    pub fn triangles(&self, positions: Range<usize>) -> &[Triangle] {
        &self.triangles[positions]
    }

    /// The user's index of the triangle at leaf-order position `position`.
    #[inline]
    pub fn original_triangle(&self, position: usize) -> u32 {
        self.original[position]
    }

    /// Depth of the tree: 1 for a single node, 0 when empty.
    pub fn depth(&self) -> usize {
        fn depth_of<V: NodeVolume>(bvh: &Bvh<V>, i: usize) -> usize {
            1 + bvh.nodes[i]
                .children
                .iter()
                .map(|c| match c.get() {
                    ChildRef::Node(j) => depth_of(bvh, j),
                    ChildRef::Leaf(_) => 0,
                })
                .max()
                .unwrap_or(0)
        }
        if self.nodes.is_empty() { 0 } else { depth_of(self, 0) }
    }

    /// Sum of the node volumes' measures: a tightness figure for comparing fitters.
    pub fn total_volume(&self) -> f64 {
        self.nodes.iter().map(|n| n.volume.measure() as f64).sum()
    }
}
