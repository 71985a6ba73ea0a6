//! Which vertices of one mesh lie inside the other around a contact region: what a region's
//! depth reaches beyond its intersection curve.

use crate::containment::{crossing_from_sides, inside};
use bvh_build::{Bvh, NodeVolume};
use bvh_core::predicates::orient3d;
use bvh_core::{PatchPoint, Point, RelativePose, Triangle};
use smallvec::SmallVec;
use std::cmp::Ordering;

/// Both meshes of a query, for finding what of each lies inside the other around a region.
pub(super) struct Insides<'s, VA, VB> {
    a: Side<'s, VA>,
    b: Side<'s, VB>,
    b_in_a: RelativePose,
    a_in_b: RelativePose,
}

/// The sets a region's flood fills on each mesh, sized once and emptied after each region: one
/// per thread.
pub(super) struct Scratch {
    a: Flood,
    b: Flood,
}

impl<'s, VA: NodeVolume, VB: NodeVolume> Insides<'s, VA, VB> {
    /// The meshes `a` and `b`, B placed in A's frame by `b_in_a`, which intersect in the pairs
    /// of leaf-order positions `pairs`.
    pub(super) fn new(a: &'s Bvh<VA>, b: &'s Bvh<VB>, b_in_a: RelativePose, pairs: Vec<[usize; 2]>) -> Self {
        let flipped = pairs.iter().map(|&[i, j]| [j, i]).collect();
        Self { a: Side::new(a, pairs), b: Side::new(b, flipped), b_in_a, a_in_b: b_in_a.inverse() }
    }

    pub(super) fn scratch(&self) -> Scratch {
        Scratch { a: Flood::new(self.a.tree), b: Flood::new(self.b.tree) }
    }

    /// The vertices of A inside B around the region of A's triangles `region_a` and B's
    /// `region_b`, and those of B inside A, all in A's frame (see [`Side::inside_part`]).
    pub(super) fn parts(
        &self,
        scratch: &mut Scratch,
        region_a: &[usize],
        region_b: &[usize],
    ) -> (Vec<Point>, Vec<Point>) {
        let (a, b, b_in_a, a_in_b) = (self.a.tree, self.b.tree, self.b_in_a, self.a_in_b);
        let inside_a = self.a.inside_part(
            &mut scratch.a,
            region_a,
            |j| b.triangle(j).placed(&b_in_a),
            |p| inside(b, &a_in_b.transform_point(p)),
        );
        let inside_b = self.b.inside_part(
            &mut scratch.b,
            region_b,
            |i| a.triangle(i).placed(&a_in_b),
            |p| inside(a, &b_in_a.transform_point(p)),
        );
        (inside_a, inside_b.iter().map(|p| b_in_a.transform_point(p)).collect())
    }
}

/// One mesh of a pair, and which of its triangles cross the other.
struct Side<'s, V> {
    tree: &'s Bvh<V>,
    /// Every intersecting pair as `[triangle here, triangle of the other mesh]`, sorted.
    pairs: Vec<[usize; 2]>,
    /// The triangles here that cross the other mesh.
    crosses: Marks,
    /// The patches holding a triangle that crosses the other mesh.
    crossed_patches: Marks,
}

/// The triangles and patches a region's flood has looked at on one mesh, and the points it
/// found inside; and each region corner's place among the corners, by point number.
struct Flood {
    seen: Marks,
    patches: Marks,
    inside: Marks,
    corner_at: Vec<u32>,
}

impl Flood {
    fn new<V: NodeVolume>(tree: &Bvh<V>) -> Self {
        Self {
            seen: Marks::new(tree.mesh().triangle_count()),
            patches: Marks::new(tree.patches().count()),
            inside: Marks::new(tree.point_count()),
            // Zero for none (a place plus one): a zeroed allocation costs nothing until used.
            corner_at: vec![0; tree.point_count()],
        }
    }
}

impl<'s, V: NodeVolume> Side<'s, V> {
    fn new(tree: &'s Bvh<V>, mut pairs: Vec<[usize; 2]>) -> Self {
        pairs.sort_unstable();
        let patches = tree.patches();
        let mut crosses = Marks::new(tree.mesh().triangle_count());
        let mut crossed_patches = Marks::new(patches.count());
        for p in &pairs {
            crosses.insert(p[0]);
            crossed_patches.insert(patches.patch_of(p[0]));
        }
        Self { tree, pairs, crosses, crossed_patches }
    }

    /// The vertices of this mesh (in its frame) that lie inside the other around the region of
    /// triangles `region`, each once, in the order the walk finds them; `other` places a triangle of
    /// the other mesh in this frame, `is_inside` casts a ray.
    ///
    /// The region's own triangles' corners first: two corners joined by an edge are on the same
    /// side when the edge crosses the other mesh's surface an even number of times (it can
    /// cross only triangles its own triangle crosses), so one ray's parity per group of corners
    /// joined that way decides them all – every corner where an edge only touches the surface,
    /// or of a group that disagrees with itself, gets a ray of its own. Then every triangle
    /// reached from an inside corner through shared corners without crossing the other mesh: it
    /// lies wholly inside.
    fn inside_part(
        &self,
        flood: &mut Flood,
        region: &[usize],
        other: impl Fn(usize) -> Triangle,
        is_inside: impl Fn(&Point) -> bool,
    ) -> Vec<Point> {
        let mut corners: Vec<(u32, Point)> = Vec::new();
        let mut forest = ParityForest::default();
        for &t in region {
            let triangle = self.tree.triangle(t);
            let start = self.pairs.partition_point(|p| p[0] < t);
            let crossers: SmallVec<[Triangle; 4]> =
                self.pairs[start..].iter().take_while(|p| p[0] == t).map(|p| other(p[1])).collect();
            let ids = self.tree.corner_points(t);
            let at: [usize; 3] = [0, 1, 2].map(|k| {
                let slot = &mut flood.corner_at[ids[k] as usize];
                if *slot == 0 {
                    corners.push((ids[k], triangle.vertices()[k]));
                    *slot = forest.add() as u32 + 1;
                }
                *slot as usize - 1
            });
            let points = triangle.vertices();
            let sides: SmallVec<[[Ordering; 3]; 4]> =
                crossers.iter().map(|c| points.map(|p| orient3d(&c.a, &c.b, &c.c, &p))).collect();
            for (u, v) in [(0, 1), (1, 2), (2, 0)] {
                let (p, q) = (&points[u], &points[v]);
                let flips = crossers.iter().zip(&sides).try_fold(false, |odd, (c, s)| {
                    Some(odd ^ crossing_from_sides(p, q, [s[u], s[v]], &c.a, &c.b, &c.c)?)
                });
                if let Some(flips) = flips {
                    forest.join(at[u], at[v], flips);
                }
            }
        }
        let mut found: Vec<Point> = Vec::new();
        let mut stack: Vec<u32> = Vec::new();
        let mut root_inside: Vec<Option<bool>> = vec![None; corners.len()];
        for (c, &(id, p)) in corners.iter().enumerate() {
            flood.corner_at[id as usize] = 0;
            let (root, flips) = forest.find(c);
            let here = if forest.consistent[root] {
                flips ^ *root_inside[root].get_or_insert_with(|| is_inside(&corners[root].1))
            } else {
                is_inside(&p)
            };
            if here && flood.inside.insert(id as usize) {
                found.push(p);
                stack.push(id);
            }
        }
        // Every triangle at an inside point that crosses nothing lies wholly inside, and so
        // does the rest of its patch if no triangle of the patch crosses: their points join
        // those the flood goes on from (a patch's inner points lead nowhere else).
        let (tree, patches) = (self.tree, self.tree.patches());
        let corner = |at: &PatchPoint| tree.triangle(at.triangle as usize).vertices()[at.corner as usize];
        while let Some(point) = stack.pop() {
            for &next in tree.triangles_at_point(point) {
                let next = next as usize;
                if self.crosses.contains(next) {
                    continue;
                }
                let patch = patches.patch_of(next);
                if !self.crossed_patches.contains(patch) {
                    if flood.patches.insert(patch) {
                        let (inner, boundary) = patches.points(patch);
                        found.extend(inner.iter().map(corner));
                        for at in boundary {
                            if flood.inside.insert(at.point as usize) {
                                found.push(corner(at));
                                stack.push(at.point);
                            }
                        }
                    }
                    continue;
                }
                if !flood.seen.insert(next) {
                    continue;
                }
                let points = tree.triangle(next).vertices();
                for (id, p) in tree.corner_points(next).into_iter().zip(points) {
                    if flood.inside.insert(id as usize) {
                        found.push(p);
                        stack.push(id);
                    }
                }
            }
        }
        flood.seen.clear();
        flood.patches.clear();
        flood.inside.clear();
        found
    }
}

/// Corners joined by edges of known crossing parity, as a union–find forest: each corner
/// knows whether it lies on the other side of the surface from its group's root, and each
/// root whether its group's parities agree around every cycle.
#[derive(Default)]
struct ParityForest {
    parent: Vec<usize>,
    /// Whether a corner is on the other side from its parent.
    flip: Vec<bool>,
    consistent: Vec<bool>,
}

impl ParityForest {
    /// A new corner, alone in its group.
    fn add(&mut self) -> usize {
        self.parent.push(self.parent.len());
        self.flip.push(false);
        self.consistent.push(true);
        self.parent.len() - 1
    }

    /// A corner's root and whether the corner is on the other side from it.
    fn find(&mut self, c: usize) -> (usize, bool) {
        let (mut root, mut flips) = (c, false);
        while self.parent[root] != root {
            flips ^= self.flip[root];
            root = self.parent[root];
        }
        // Every corner on the way now points at the root directly.
        let (mut x, mut here) = (c, flips);
        while self.parent[x] != x {
            let (next, step) = (self.parent[x], self.flip[x]);
            self.parent[x] = root;
            self.flip[x] = here;
            here ^= step;
            x = next;
        }
        (root, flips)
    }

    /// Records that `u` and `v` are on other sides when `flips`, on the same side otherwise.
    fn join(&mut self, u: usize, v: usize, flips: bool) {
        let ((ru, fu), (rv, fv)) = (self.find(u), self.find(v));
        if ru == rv {
            self.consistent[ru] &= fu ^ fv == flips;
        } else {
            self.parent[ru] = rv;
            self.flip[ru] = fu ^ fv ^ flips;
            self.consistent[rv] &= self.consistent[ru];
        }
    }
}

/// A set of indices below a bound, a bit each, emptied by clearing only the words it set: a
/// region's flood touches a few hundred triangles of meshes of hundreds of thousands.
struct Marks {
    bits: Vec<u64>,
    words_set: Vec<usize>,
}

impl Marks {
    fn new(len: usize) -> Self {
        Self { bits: vec![0; len.div_ceil(64)], words_set: Vec::new() }
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
