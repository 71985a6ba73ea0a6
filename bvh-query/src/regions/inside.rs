//! Which vertices of one mesh lie inside the other around a contact region: what a region's
//! depth reaches beyond its intersection curve.

use crate::containment::{crossing_from_sides, inside};
use crate::workspace;
use bvh_build::{Bvh, NodeVolume};
use bvh_core::parallel::join;
use bvh_core::predicates::orient3d;
use bvh_core::prefetch;
use bvh_core::{Aabb, EdgeCrossings, PatchPoint, Point, RelativePose, Triangle, TriangleNeighbours};

/// What a walk keeps of the points it finds inside the other mesh, taken in the order found.
pub(super) trait Keep {
    /// Takes the next point found (in A's frame).
    fn keep(&mut self, p: Point);

    /// Whether any point in `bounds` (in the walked mesh's frame, placed in A's by `pose`) could
    /// change what is kept: if not, the walk passes such points by unread.
    fn could_take(&self, bounds: &Aabb, pose: Option<&RelativePose>) -> bool;
}

/// Every point.
impl Keep for Vec<Point> {
    fn keep(&mut self, p: Point) {
        self.push(p);
    }

    fn could_take(&self, _: &Aabb, _: Option<&RelativePose>) -> bool {
        true
    }
}

/// Both meshes of a query, for finding what of each lies inside the other around a region.
/// Both are seen in A's frame, B placed there as the traversal placed it: the edge crossings
/// the triangle test found hold there. What of a mesh lies inside the other is found only if
/// the other is closed: a mesh that is not has no inside.
pub(super) struct Insides<'s, VA, VB> {
    a: Side<'s, VA>,
    b: Side<'s, VB>,
    a_in_b: RelativePose,
    /// Whether a large region's two sides are found on two threads.
    split: bool,
}

/// The sets a region's flood fills on each mesh whose inside part is found, sized once and
/// emptied after each region: one per thread.
pub(super) struct Scratch {
    a: Option<Flood>,
    b: Option<Flood>,
}

impl Drop for Scratch {
    /// The floods go back to the thread's workspace, empty as every region leaves them (unless
    /// a panic cut a region short).
    fn drop(&mut self) {
        if !std::thread::panicking() {
            self.a.take().into_iter().chain(self.b.take()).for_each(workspace::put_flood);
        }
    }
}

impl<'s, VA: NodeVolume, VB: NodeVolume> Insides<'s, VA, VB> {
    /// The meshes `a` and `b`, B placed in A's frame by `b_in_a`, which intersect in the pairs
    /// of leaf-order positions `pairs`, each with its edge crossings if the triangle test
    /// could tell them; `[of_a, of_b]`: whether what of A lies inside B is found (B is closed),
    /// and what of B inside A; `split`: whether the two meshes' sides may be set up, and a
    /// large region's two sides found, on two threads.
    pub(super) fn new(
        a: &'s Bvh<VA>,
        b: &'s Bvh<VB>,
        b_in_a: RelativePose,
        pairs: impl Iterator<Item = ([usize; 2], Option<EdgeCrossings>)> + Clone + Sync,
        [of_a, of_b]: [bool; 2],
        split: bool,
    ) -> Self {
        let seen_from = |of_a: bool| {
            pairs
                .clone()
                .map(|([i, j], edges)| {
                    let (here, there) = if of_a { (i, j) } else { (j, i) };
                    let edges = edges.map(|e| if of_a { e.first } else { e.second });
                    Crossing { here, there, edges }
                })
                .collect()
        };
        let side_a = || Side::new(a, None, of_a.then(|| seen_from(true)));
        let side_b = || Side::new(b, Some(b_in_a), of_b.then(|| seen_from(false)));
        let (a, b) = if split { join(side_a, side_b) } else { (side_a(), side_b()) };
        Self { a, b, a_in_b: b_in_a.inverse(), split }
    }

    pub(super) fn scratch(&self) -> Scratch {
        Scratch { a: self.a.flood(), b: self.b.flood() }
    }

    /// Gives `keep_a` the vertices of A inside B around the region of A's triangles `region_a`
    /// and B's `region_b`, and `keep_b` those of B inside A, all in A's frame (see
    /// [`Side::inside_part`]).
    pub(super) fn parts<K: Keep + Send>(
        &self,
        scratch: &mut Scratch,
        region_a: &[usize],
        region_b: &[usize],
        keep_a: &mut K,
        keep_b: &mut K,
    ) {
        let a_in_b = self.a_in_b;
        let Scratch { a: flood_a, b: flood_b } = scratch;
        let mut inside_a = move || {
            self.a.inside_part(
                flood_a.as_mut(),
                region_a,
                |j| self.b.triangle(j),
                |p| inside(self.b.tree, &a_in_b.transform_point(p)),
                keep_a,
            )
        };
        let mut inside_b = move || {
            self.b.inside_part(
                flood_b.as_mut(),
                region_b,
                |i| self.a.triangle(i),
                |p| inside(self.a.tree, p),
                keep_b,
            )
        };
        if self.split && region_a.len() + region_b.len() >= SPLIT_FROM {
            join(inside_a, inside_b);
        } else {
            inside_a();
            inside_b();
        }
    }
}

/// The region triangles (both meshes' together) from which [`Insides::parts`] may find the
/// two sides on two threads: a small region's parts cost less than handing one to another
/// thread.
const SPLIT_FROM: usize = 256;

/// An intersecting pair seen from one mesh: its triangle here, the other mesh's, and which of
/// the edges of the triangle here pass through the other (where the triangle test could tell).
#[derive(Clone, Copy)]
struct Crossing {
    here: usize,
    there: usize,
    edges: Option<[bool; 3]>,
}

/// One mesh of a pair, and which of its triangles cross the other where its inside part is
/// found.
struct Side<'s, V> {
    tree: &'s Bvh<V>,
    /// What places this mesh in A's frame (`None` for A itself).
    pose: Option<RelativePose>,
    crossed: Option<Crossed>,
}

/// What of one mesh crosses the other.
struct Crossed {
    /// Every intersecting pair, sorted by the triangle here.
    pairs: Vec<Crossing>,
    /// The triangles here that cross the other mesh.
    crosses: Marks,
    /// The patches holding a triangle that crosses the other mesh.
    crossed_patches: Marks,
}

/// The triangles and patches a region's flood has looked at on one mesh, and the points it
/// found inside; and each region corner's place among the corners, by point number. Emptied
/// after every region, so one serves query after query: each thread keeps its spare ones in its
/// workspace (sized by the meshes, they were the largest memory a query zeroed).
#[derive(Debug, Default)]
pub(crate) struct Flood {
    seen: Marks,
    patches: Marks,
    inside: Marks,
    corner_at: Vec<u32>,
}

impl Flood {
    /// An empty flood for `tree`: the thread's spare one grown to fit, or a new one.
    fn for_tree<V: NodeVolume>(tree: &Bvh<V>) -> Self {
        let lists = tree.neighbour_lists();
        let mut flood = workspace::take_flood().unwrap_or_default();
        flood.seen.fit(tree.mesh().triangle_count());
        flood.patches.fit(lists.patches().count());
        flood.inside.fit(lists.point_count());
        // Zero for none (a place plus one).
        if flood.corner_at.len() < lists.point_count() {
            flood.corner_at.resize(lists.point_count(), 0);
        }
        flood
    }

    /// The memory it holds.
    pub(crate) fn bytes(&self) -> usize {
        [&self.seen, &self.patches, &self.inside].iter().map(|m| m.bytes()).sum::<usize>()
            + self.corner_at.capacity() * size_of::<u32>()
    }
}

impl Crossed {
    fn new<V: NodeVolume>(tree: &Bvh<V>, mut pairs: Vec<Crossing>) -> Self {
        // Grouped by the triangle here: a triangle's crossings only flip parities (an exclusive
        // or), so their order within the group does not matter.
        crate::radix::sort_by_key(&mut pairs, |c| c.here as u64);
        let patches = tree.patches();
        let mut crosses = Marks::new(tree.mesh().triangle_count());
        let mut crossed_patches = Marks::new(patches.count());
        for c in &pairs {
            crosses.insert(c.here);
            crossed_patches.insert(patches.patch_of(c.here));
        }
        Self { pairs, crosses, crossed_patches }
    }
}

impl<'s, V: NodeVolume> Side<'s, V> {
    /// The side of `tree`, placed by `pose`, with its crossings `pairs` if its inside part is
    /// to be found.
    fn new(tree: &'s Bvh<V>, pose: Option<RelativePose>, pairs: Option<Vec<Crossing>>) -> Self {
        Self { tree, pose, crossed: pairs.map(|pairs| Crossed::new(tree, pairs)) }
    }

    /// A flood for this side, if its inside part is found.
    fn flood(&self) -> Option<Flood> {
        self.crossed.as_ref().map(|_| Flood::for_tree(self.tree))
    }

    /// A point of this mesh in A's frame.
    fn place(&self, p: Point) -> Point {
        self.pose.map_or(p, |pose| pose.transform_point(&p))
    }

    /// A triangle of this mesh in A's frame, placed as the traversal placed it.
    fn triangle(&self, t: usize) -> Triangle {
        let triangle = self.tree.triangle(t);
        self.pose.map_or(*triangle, |pose| triangle.placed(&pose))
    }

    /// Gives `keep` the vertices of this mesh (in A's frame) that lie inside the other around
    /// the region of triangles `region`, each once, in the order the walk finds them – but for
    /// a whole patch's inner points that `keep` has no use for; `other` gives a triangle of the
    /// other mesh in A's frame, `is_inside` casts a ray; none where this side's inside part is
    /// not found (then it has no `flood`).
    ///
    /// The region's own triangles' corners first: two corners joined by an edge are on the same
    /// side when the edge crosses the other mesh's surface an even number of times (it can
    /// cross only triangles its own triangle crosses, and the triangle test said for most
    /// which it does), so one ray's parity per group of corners joined that way decides them
    /// all – every corner where an edge only touches the surface, or of a group that disagrees
    /// with itself, gets a ray of its own. Then every triangle reached from an inside corner
    /// through shared corners without crossing the other mesh: it lies wholly inside.
    fn inside_part(
        &self,
        flood: Option<&mut Flood>,
        region: &[usize],
        other: impl Fn(usize) -> Triangle,
        is_inside: impl Fn(&Point) -> bool,
        keep: &mut impl Keep,
    ) {
        let (Some(crossed), Some(flood)) = (&self.crossed, flood) else {
            return;
        };
        let lists = self.tree.neighbour_lists();
        // Neighbouring triangles share most corners: about one new corner per triangle.
        let mut corners: Vec<(u32, Point)> = Vec::with_capacity(region.len() + 2);
        let mut forest = ParityForest::with_capacity(region.len() + 2);
        // The region's triangles come in increasing order, as the crossings do: each one's
        // crossings are searched for from the last one's on.
        let mut start = 0;
        for &t in region {
            // Placed only where needed: about one corner per triangle is new, and most crossings
            // come with their edges known.
            let unplaced = self.tree.triangle(t).vertices();
            let ids = lists.corner_points(t);
            let at: [usize; 3] = [0, 1, 2].map(|k| {
                let slot = &mut flood.corner_at[ids[k] as usize];
                if *slot == 0 {
                    corners.push((ids[k], self.place(unplaced[k])));
                    *slot = forest.add() as u32 + 1;
                }
                *slot as usize - 1
            });
            // Edge `k` (corner `k` to `k + 1`) crosses the surface an odd number of times, or
            // touches it (`None`).
            let mut flips = [Some(false); 3];
            start += first_of(&crossed.pairs[start..], t);
            for crossing in crossed.pairs[start..].iter().take_while(|c| c.here == t) {
                if let Some(edges) = crossing.edges {
                    for (flip, crosses) in flips.iter_mut().zip(edges) {
                        *flip = flip.map(|odd| odd ^ crosses);
                    }
                    continue;
                }
                let (c, points) = (other(crossing.there), self.triangle(t).vertices());
                let sides = points.map(|p| orient3d(&c.a, &c.b, &c.c, &p));
                for (k, flip) in flips.iter_mut().enumerate() {
                    let (u, v) = (k, (k + 1) % 3);
                    let crosses = || {
                        crossing_from_sides(&points[u], &points[v], [sides[u], sides[v]], &c.a, &c.b, &c.c)
                    };
                    *flip = flip.and_then(|odd| Some(odd ^ crosses()?));
                }
            }
            forest.join_around(at, flips);
        }
        let mut stack: Vec<u32> = Vec::with_capacity(corners.len());
        let mut root_inside: Vec<Option<bool>> = vec![None; corners.len()];
        for (c, &(id, p)) in corners.iter().enumerate() {
            flood.corner_at[id as usize] = 0;
            let (root, flips) = forest.find(c);
            let here = if forest.consistent(root) {
                flips ^ *root_inside[root].get_or_insert_with(|| is_inside(&corners[root].1))
            } else {
                is_inside(&p)
            };
            if here && flood.inside.insert(id as usize) {
                keep.keep(p);
                stack.push(id);
            }
        }
        // Every triangle at an inside point that crosses nothing lies wholly inside, and so
        // does the rest of its patch if no triangle of the patch crosses. A patch taken whole
        // leads on through its boundary points: to the other uncrossed patches there, taken
        // whole in turn, and – through the points newly found – to the crossed ones, whose
        // triangles the walk from those points looks at one by one.
        let patches = lists.patches();
        let corner = |at: &PatchPoint| self.place(at.position);
        // Kept on this walk's stack frame: as a field of the reused flood it cost more than the
        // allocation it saves.
        let mut whole: Vec<u32> = Vec::new();
        loop {
            if let Some(patch) = whole.pop() {
                let (inner, _) = patches.points(patch as usize);
                if !inner.is_empty()
                    && keep.could_take(patches.inner_bounds(patch as usize), self.pose.as_ref())
                {
                    inner.iter().for_each(|at| keep.keep(corner(at)));
                }
                for (at, others) in patches.boundary(patch as usize) {
                    let new = flood.inside.insert(at.point as usize);
                    if new {
                        keep.keep(corner(at));
                    }
                    let mut meets_crossed = false;
                    for &other in others {
                        if crossed.crossed_patches.contains(other as usize) {
                            meets_crossed = true;
                        } else if flood.patches.insert(other as usize) {
                            whole.push(other);
                        }
                    }
                    // A point found before was walked from then, or by the patch that found it.
                    if meets_crossed && new {
                        walk_from(&mut stack, lists, at.point);
                    }
                }
                continue;
            }
            let Some(point) = stack.pop() else { break };
            for &next in lists.triangles_at(point) {
                // Each triangle looked at once, from whichever of its corners comes first: the
                // others skip it on a mark instead of reading its patch again.
                let next = next as usize;
                if !flood.seen.insert(next) {
                    continue;
                }
                let patch = patches.patch_of(next);
                if !crossed.crossed_patches.contains(patch) {
                    if flood.patches.insert(patch) {
                        whole.push(patch as u32);
                    }
                    continue;
                }
                if crossed.crosses.contains(next) {
                    continue;
                }
                // Read only for a corner new to the walk: most of a flooded triangle's corners
                // were reached through its neighbours already.
                let mut corners = None;
                for (k, id) in lists.corner_points(next).into_iter().enumerate() {
                    if flood.inside.insert(id as usize) {
                        let corners = corners.get_or_insert_with(|| self.tree.triangle(next).vertices());
                        keep.keep(self.place(corners[k]));
                        walk_from(&mut stack, lists, id);
                    }
                }
            }
        }
        flood.seen.clear();
        flood.patches.clear();
        flood.inside.clear();
    }
}

/// Puts point `point` on the walk's `stack`, the list of its triangles on its way into the
/// cache meanwhile: the walk reads it soon, and such lists lie all over memory.
fn walk_from(stack: &mut Vec<u32>, lists: &TriangleNeighbours, point: u32) {
    stack.push(point);
    if let Some(first) = lists.triangles_at(point).first() {
        prefetch(first);
    }
}

/// Where the crossings of triangle `t` (or of the triangles after it) start among `pairs`,
/// sorted by triangle: found by doubling steps, then halving, so a triangle whose crossings lie
/// just ahead, as the next of a region's mostly do, costs a step or two.
fn first_of(pairs: &[Crossing], t: usize) -> usize {
    let mut end = 1;
    while end <= pairs.len() && pairs[end - 1].here < t {
        end *= 2;
    }
    let begin = end / 2;
    let end = end.min(pairs.len());
    begin + pairs[begin..end].partition_point(|c| c.here < t)
}

/// Corners joined by edges of known crossing parity, as a union–find forest: each corner
/// knows whether it lies on the other side of the surface from its group's root, and each
/// root whether its group's parities agree around every cycle.
struct ParityForest {
    corners: Vec<ForestCorner>,
}

#[derive(Clone, Copy)]
struct ForestCorner {
    parent: u32,
    /// Whether the corner is on the other side from its parent.
    flip: bool,
    /// For a root: whether its group's parities agree.
    consistent: bool,
}

impl ParityForest {
    fn with_capacity(corners: usize) -> Self {
        Self { corners: Vec::with_capacity(corners) }
    }

    /// A new corner, alone in its group.
    fn add(&mut self) -> usize {
        let c = self.corners.len();
        self.corners.push(ForestCorner { parent: c as u32, flip: false, consistent: true });
        c
    }

    /// Whether the group of the root `root` has consistent parities.
    fn consistent(&self, root: usize) -> bool {
        self.corners[root].consistent
    }

    /// A corner's root and whether the corner is on the other side from it.
    fn find(&mut self, c: usize) -> (usize, bool) {
        let (mut root, mut flips) = (c, false);
        while self.corners[root].parent as usize != root {
            flips ^= self.corners[root].flip;
            root = self.corners[root].parent as usize;
        }
        // Every corner on the way now points at the root directly.
        let (mut x, mut here) = (c, flips);
        while self.corners[x].parent as usize != x {
            let ForestCorner { parent, flip, .. } = self.corners[x];
            (self.corners[x].parent, self.corners[x].flip) = (root as u32, here);
            here ^= flip;
            x = parent as usize;
        }
        (root, flips)
    }

    /// Records, for each edge of a triangle with corners `at` whose parity is known (`flips[k]`
    /// for the edge from corner `k` to `k + 1`), that its ends are on other sides when it flips,
    /// on the same side otherwise. Each corner's root is found once, then followed as the
    /// edges join their groups.
    fn join_around(&mut self, at: [usize; 3], flips: [Option<bool>; 3]) {
        let mut roots = at.map(|c| self.find(c));
        for (k, flips) in flips.into_iter().enumerate() {
            let Some(flips) = flips else { continue };
            let ((ru, fu), (rv, fv)) = (roots[k], roots[(k + 1) % 3]);
            if ru == rv {
                self.corners[ru].consistent &= fu ^ fv == flips;
                continue;
            }
            let (consistent, link) = (self.corners[ru].consistent, fu ^ fv ^ flips);
            (self.corners[ru].parent, self.corners[ru].flip) = (rv as u32, link);
            self.corners[rv].consistent &= consistent;
            for (root, flip) in roots.iter_mut().filter(|(root, _)| *root == ru) {
                (*root, *flip) = (rv, *flip ^ link);
            }
        }
    }
}

/// A set of indices below a bound, a bit each, emptied by clearing only the words it set: a
/// region's flood touches a few hundred triangles of meshes of hundreds of thousands.
#[derive(Debug, Default)]
struct Marks {
    bits: Vec<u64>,
    words_set: Vec<usize>,
}

impl Marks {
    fn new(len: usize) -> Self {
        Self { bits: vec![0; len.div_ceil(64)], words_set: Vec::new() }
    }

    /// Room for `len` marks (an empty set stays empty).
    fn fit(&mut self, len: usize) {
        if self.bits.len() < len.div_ceil(64) {
            self.bits.resize(len.div_ceil(64), 0);
        }
    }

    fn bytes(&self) -> usize {
        (self.bits.capacity() + self.words_set.capacity()) * size_of::<u64>()
    }

    fn contains(&self, i: usize) -> bool {
        self.bits[i / 64] & (1 << (i % 64)) != 0
    }

    /// Adds `i`; whether it was new.
    fn insert(&mut self, i: usize) -> bool {
        let (word, bit) = (&mut self.bits[i / 64], 1 << (i % 64));
        if *word & bit != 0 {
            return false;
        }
        if *word == 0 {
            self.words_set.push(i / 64);
        }
        *word |= bit;
        true
    }

    fn clear(&mut self) {
        for w in self.words_set.drain(..) {
            self.bits[w] = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The search from any place gives the first crossing of a triangle, or where it would be.
    #[test]
    fn crossings_of_a_triangle_are_found_from_anywhere_before_them() {
        let heres = [1, 1, 2, 4, 4, 4, 7, 9, 9, 9, 9, 12];
        let pairs: Vec<Crossing> =
            heres.iter().map(|&here| Crossing { here, there: 0, edges: None }).collect();
        for t in 0..14 {
            let first = heres.partition_point(|&h| h < t);
            for from in 0..=first {
                assert_eq!(from + first_of(&pairs[from..], t), first, "triangle {t} from {from}");
            }
        }
        assert_eq!(first_of(&[], 3), 0);
    }
}
