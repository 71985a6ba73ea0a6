//! The first intersecting triangle pair: with a cache, the last contact and the triangles
//! around it first, then the trees, from the top or from where the last search stopped.

use crate::answers::TrianglePair;
use crate::cache::{Hit, PairCache, Start, Step};
use crate::node_test::NodeTest;
use crate::query::{Query, extent};
use crate::stats::{Stats, VolumeTest};
use crate::traverse::{Descent, Front, Larger, Pair};
use crate::wide_search::WideSearch;
use bvh_build::{Bvh, NodeVolume};
use bvh_core::bits::set_bits;
use bvh_core::prefetch;
use bvh_core::{Aabb, MAX_AROUND, Obb, Triangle, triangles_intersect};
use smallvec::SmallVec;
use std::any::Any;
use std::ops::ControlFlow;

impl<'a, VA, VB> Query<'a, VA, VB>
where
    VA: NodeVolume + NodeTest<VB>,
    VB: NodeVolume,
{
    /// The first intersecting triangle pair found, if any (see [`Query::intersects_counted`]).
    pub fn intersects(&self) -> Option<TrianglePair> {
        self.intersects_counted(None, &mut ())
    }

    /// [`Query::intersects`], starting from what `cache` kept of the last query of this pair of
    /// objects: along a path, usually far cheaper.
    pub fn intersects_cached(&self, cache: &mut PairCache) -> Option<TrianglePair> {
        self.intersects_counted(Some(cache), &mut ())
    }

    /// The first intersecting triangle pair found, if any. With a cache, while the objects
    /// touch, the pair found last time is tried first, then the triangles around it: along a
    /// path the contact usually stays where it was or slides to a neighbour.
    /// While they are apart, the search starts from the pairs where the last one stopped (the
    /// front of the bounding volume test tree, paper 004), not from the top – and tests nothing
    /// while B cannot have crossed the gap to any of them.
    pub fn intersects_counted(
        &self,
        cache: Option<&mut PairCache>,
        stats: &mut impl Stats,
    ) -> Option<TrianglePair> {
        self.first_contact(cache, stats).map(|hit| self.triangle_pair(hit.positions))
    }

    /// [`Query::intersects`], the contact by leaf-order positions.
    pub(crate) fn first_contact(&self, cache: Option<&mut PairCache>, stats: &mut impl Stats) -> Option<Hit> {
        if !self.placed() {
            return None;
        }
        match cache {
            None => self.first_from_top(&mut (), stats),
            Some(cache) => {
                let trees = (self.a.bvh.id(), self.b.bvh.id());
                let (last, step, held) = match cache.start(trees, &self.b_in_a, || extent(self.b.bvh)) {
                    Start::Scattered => {
                        let hit = self.first_from_top(&mut (), stats);
                        cache.found(hit);
                        return hit;
                    }
                    Start::Trees => {
                        // A gap measured between volumes may be off by the rounding of placing
                        // B there, of placing it here, and of the measuring: each less than the
                        // placement's slack.
                        let hit = match cache.resume(|| 3.0 * self.placement_slack(0.0))? {
                            (Some(front), mut next) => self.first_in_trees(Some(front), &mut next, stats),
                            (None, mut next) => self.first_from_top(&mut next, stats),
                        };
                        cache.remember(hit);
                        return hit;
                    }
                    Start::Near { last, step, held } => (last, step, held),
                };
                match self.contact_near(last, step, held, stats) {
                    Some(Near::Around(hit)) => {
                        cache.found(Some(hit));
                        return Some(hit);
                    }
                    Some(Near::Beside(hit, step)) => {
                        cache.found_beside(hit, step);
                        return Some(hit);
                    }
                    None => {}
                }
                // Lost, the last contact nearly always has a successor elsewhere: a front kept
                // would be for nothing, so the search is the one from the top that keeps none
                // (on the wide views). If it finds the objects apart after all, the next search
                // starts from the top and keeps the front.
                let hit = self.first_from_top(&mut (), stats);
                cache.found(hit);
                hit
            }
        }
    }

    /// The first contact found from the top, keeping where the search stopped in `front`: for
    /// two OBB trees over their wide views ([`crate::wide_search`]), unless the query culls by
    /// the overlap region, which only the binary descent does.
    fn first_from_top(&self, front: &mut impl Front, stats: &mut impl Stats) -> Option<Hit> {
        // Told by type, not through `NodeTest`: only OBB trees have wide views, and that public
        // trait cannot name this crate's query.
        let (a, b): (&dyn Any, &dyn Any) = (self.a.bvh, self.b.bvh);
        match (a.downcast_ref::<Bvh<Obb>>(), b.downcast_ref::<Bvh<Obb>>()) {
            (Some(a), Some(b)) if !self.options.region_culling => {
                if a.node_count() == 0 || b.node_count() == 0 {
                    front.clear();
                    return None;
                }
                stats.volume_test(VolumeTest::Root);
                let margin = self.placement_slack(0.0);
                if !self.roots_overlap(margin) {
                    front.clear();
                    return None;
                }
                let b_in_a = self.b_in_a;
                WideSearch { a, b, b_in_a, a_in_b: b_in_a.inverse(), margin }.first_contact(front, stats)
            }
            _ => self.first_in_trees(None::<std::iter::Empty<Pair>>, front, stats),
        }
    }

    /// The `last` contact if its triangles still touch, else the first found around it (through
    /// the triangles sharing their corners, unless it was found a `step` beside the one before),
    /// else beside it in leaf order, where `step` leads first. `held`: the search before found
    /// `last` too.
    fn contact_near(
        &self,
        last: Hit,
        step: Option<Step>,
        held: bool,
        stats: &mut impl Stats,
    ) -> Option<Near> {
        let [i, j] = last.positions;
        let (a, b) = (self.a.bvh, self.b.bvh);
        let (around_a, around_b) =
            if step.is_none() { (a.neighbours(i), b.neighbours(j)) } else { (None, None) };
        // The triangles around the two start loading while the pair itself is tested: half the
        // frames of a path need them, and read from cold memory only then they cost more than
        // the test. Not after the pair `held`: it mostly holds again, and the loads would crowd
        // the cache for nothing.
        if !held {
            prefetch_triangles(a, around_a);
            prefetch_triangles(b, around_b);
        }
        stats.triangle_test();
        let (ta, tb) = (a.triangle(i), b.triangle(j).placed(&self.b_in_a));
        if touching(ta, &tb) {
            return Some(Near::Around(last));
        }
        // No search around a triangle with more than `MAX_AROUND` around it.
        let around =
            around_a.zip(around_b).and_then(|(ra, rb)| self.contact_around(last, [ra, rb], &tb, stats));
        around.map(Near::Around).or_else(|| {
            let (hit, step) = self.contact_beside(last, step, &tb, stats)?;
            Some(Near::Beside(hit, step))
        })
    }

    /// The first intersecting pair beside the `last` contact in leaf order (`last_b`: B's
    /// triangle placed in A's frame), and the step it lies from it: B's triangles within
    /// [`WINDOW`] positions of its own against A's last, and A's against B's last – the side of
    /// the last `step` first, around where it leads; with none, B's, whose triangles slide past
    /// A's far more often along the anchors' paths (and are the fewer, more likely in cache).
    /// The tree keeps the triangles of one place together in leaf order, so these are the
    /// triangles around the contact by place, not by shared corners: where a part is tessellated
    /// finer than it moves in a frame (rows of slivers), the contact outruns the rings, but
    /// mostly keeps one of its two triangles and finds the other a few rows on, as many as the
    /// frame before.
    /// Out of line: it runs only where the rings failed, and inlined it crowded the hot path.
    #[inline(never)]
    fn contact_beside(
        &self,
        last: Hit,
        step: Option<Step>,
        last_b: &Triangle,
        stats: &mut impl Stats,
    ) -> Option<(Hit, Step)> {
        let [i, j] = last.positions;
        let (a, b) = (self.a.bvh, self.b.bvh);
        let first = step.map_or(1, |step| step.side);
        for side in [first, 1 - first] {
            let by = step.filter(|step| step.side == side).map_or(0, |step| step.by as isize);
            let found = if side == 0 {
                let bounds = last_b.aabb();
                let meets = |k| a.triangle(k).aabb().intersects(&bounds);
                let touches = |k| touching(a.triangle(k), last_b);
                touching_beside(i, by, a.mesh().triangle_count(), meets, touches, stats)
            } else {
                // B's triangles are boxed in their own frame: only those that pass are placed.
                let last_a = a.triangle(i);
                let bounds = self.box_in_b(last_a);
                let meets = |k| b.triangle(k).aabb().intersects(&bounds);
                let touches = |k| touching(last_a, &b.triangle(k).placed(&self.b_in_a));
                touching_beside(j, by, b.mesh().triangle_count(), meets, touches, stats)
            };
            if let Some(k) = found {
                let mut positions = last.positions;
                let from = std::mem::replace(&mut positions[side as usize], k);
                // A step too long for an `i32` guides nothing.
                let by = i32::try_from(k as isize - from as isize).unwrap_or(0);
                return Some((Hit { positions }, Step { side, by }));
            }
        }
        None
    }

    /// The box in B's frame that the box of every triangle of B touching A's triangle `t` in
    /// A's frame meets: `t`'s, placed there and grown by the rounding of placing either side.
    fn box_in_b(&self, t: &Triangle) -> Aabb {
        t.placed(&self.b_in_a.inverse()).aabb().inflated(self.placement_slack(0.0))
    }

    /// The first contact found from the top – or, when there is a `previous` front, from its
    /// pairs that need testing – keeping where the search stopped in `next`.
    pub(crate) fn first_in_trees<S: Stats>(
        &self,
        previous: Option<impl Iterator<Item = Pair>>,
        next: &mut impl Front,
        stats: &mut S,
    ) -> Option<Hit> {
        let Some(descent) = self.descent(0.0, None, stats) else {
            next.clear();
            return None;
        };
        let descent = Descent {
            nearest_first: true,
            larger_by: Larger::Volume,
            merged_leaves: false,
            prefetch: false,
            ..descent
        };
        let top = previous.is_none().then(|| descent.start()).flatten();
        self.first_below(&descent, previous.into_iter().flatten().chain(top), next, stats)
    }

    /// The first intersecting pair among the triangles around the `last` contact's two (those
    /// sharing a corner point with them, on each side), whose boxes meet: a contact sliding
    /// across the surfaces moves there, as nearly every contact lost since the frame before does
    /// along the anchors' paths. Most successors keep one of the two triangles, so each side's
    /// triangles are tried against the other's last before the two rings against each other.
    /// `around`: the two triangles' neighbour lists.
    fn contact_around(
        &self,
        last: Hit,
        [around_a, around_b]: [&[u32]; 2],
        last_b: &Triangle,
        stats: &mut impl Stats,
    ) -> Option<Hit> {
        let (a, b) = (self.a.bvh, self.b.bvh);
        let [i_last, j_last] = last.positions;
        let hit = |i: usize, j: usize| Some(Hit { positions: [i, j] });
        // Each side's ring leaves out its last triangle, which is tested on its own. Extended in
        // place: collected, the ring would be built elsewhere and copied whole into place.
        let mut ring_a: SmallVec<[(usize, &Triangle, Aabb); MAX_AROUND]> = SmallVec::new();
        ring_a.extend(around_a.iter().map(|&i| i as usize).filter(|&i| i != i_last).map(|i| {
            let t = a.triangle(i);
            (i, t, t.aabb())
        }));
        // A's triangles against B's last, which needs no moving: most contacts keep one of the two.
        let box_last_b = last_b.aabb();
        for (i, ta) in meeting(&ring_a, &box_last_b) {
            stats.triangle_test();
            if touching(ta, last_b) {
                return hit(i, j_last);
            }
        }
        // B's triangles, moved into A's frame where their boxes meet A's: against A's last as
        // they are moved, then against the others.
        let ta_last = a.triangle(i_last);
        let box_a_last = ta_last.aabb();
        let all_a = ring_a.iter().fold(box_a_last, |all, (_, _, bounds)| all.merged(bounds));
        let mut ring_b: SmallVec<[(usize, Triangle, Aabb); MAX_AROUND]> = SmallVec::new();
        for &j in around_b.iter().filter(|&&j| j as usize != j_last) {
            let tb = b.triangle(j as usize).placed(&self.b_in_a);
            let box_b = tb.aabb();
            if !all_a.intersects(&box_b) {
                continue;
            }
            if box_b.intersects(&box_a_last) {
                stats.triangle_test();
                if touching(ta_last, &tb) {
                    return hit(i_last, j as usize);
                }
            }
            ring_b.push((j as usize, tb, box_b));
        }
        for (j, tb, box_b) in &ring_b {
            for (i, ta) in meeting(&ring_a, box_b) {
                stats.triangle_test();
                if touching(ta, tb) {
                    return hit(i, *j);
                }
            }
        }
        None
    }

    /// The first contact below the tree-pairs `start`, keeping in `front` where the search
    /// stopped. Out of line: inlined with the cache's code around it, the descent compiled to
    /// more instructions per query on every pose set.
    #[inline(never)]
    fn first_below<S: Stats>(
        &self,
        descent: &Descent<'a, VA, VB>,
        start: impl IntoIterator<Item = Pair>,
        front: &mut impl Front,
        stats: &mut S,
    ) -> Option<Hit> {
        self.candidates_from(descent, start, front, stats, |_, ta, tb, stats| {
            stats.triangle_test();
            if triangles_intersect(ta, tb) { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        })
    }
}

/// How many triangles on either side of a lost contact's, or of where its last step leads, in
/// leaf order, the search beside it tries: about the rows of slivers a part passes in a frame.
const WINDOW: usize = 16;

/// The first of the triangles within [`WINDOW`] leaf-order positions of position `at + by`
/// (of `count`, `at` itself left out), nearest that first, that `touches` the other side's
/// triangle – asked only of those whose boxes `meet` its.
fn touching_beside(
    at: usize,
    by: isize,
    count: usize,
    meets: impl Fn(usize) -> bool,
    touches: impl Fn(usize) -> bool,
    stats: &mut impl Stats,
) -> Option<usize> {
    let centre = at as isize + by;
    let mut found = |k: isize| {
        let k = usize::try_from(k).ok().filter(|&k| k < count && k != at)?;
        (meets(k) && {
            stats.triangle_test();
            touches(k)
        })
        .then_some(k)
    };
    // Out from the centre: +1, −1, +2, −2, …
    found(centre)
        .or_else(|| (1..=WINDOW as isize).find_map(|d| found(centre + d).or_else(|| found(centre - d))))
}

/// [`triangles_intersect`] out of line, for the searches around the last contact: one copy of
/// the test serves them all, where a copy inlined at each crowded the instruction cache, which
/// other work between two queries empties.
#[inline(never)]
fn touching(t1: &Triangle, t2: &Triangle) -> bool {
    triangles_intersect(t1, t2)
}

/// Where a contact near the last one was found.
enum Near {
    /// The last pair itself, or among the triangles sharing its corners.
    Around(Hit),
    /// Beside it in leaf order, beyond those, this step from it: the next search looks where
    /// the same step leads first.
    Beside(Hit, Step),
}

/// A ring of triangles around a contact: leaf-order position, triangle, box. It leaves out
/// the contact's own triangle, so a ring's boxes fit the bits of a `u32`.
type Ring<'t> = [(usize, &'t Triangle, Aabb)];

const _: () = assert!(MAX_AROUND - 1 <= u32::BITS as usize);

/// The ring's triangles whose boxes meet `bounds`, in ring order. The boxes are tested in one
/// pass with no branch, into the bits of a mask: which boxes meet is unpredictable, and a
/// branch per box mispredicts.
fn meeting<'r, 't>(ring: &'r Ring<'t>, bounds: &Aabb) -> impl Iterator<Item = (usize, &'t Triangle)> + 'r {
    let bits = ring
        .iter()
        .enumerate()
        .fold(0u32, |bits, (k, (_, _, b))| bits | u32::from(b.intersects(bounds)) << k);
    set_bits(bits).map(|k| (ring[k].0, ring[k].1))
}

/// Starts loading the triangles at leaf-order positions `around` of `tree` (see [`prefetch`]).
fn prefetch_triangles<V: NodeVolume>(tree: &Bvh<V>, around: Option<&[u32]>) {
    for &k in around.unwrap_or_default() {
        prefetch(tree.triangle(k as usize));
    }
}

#[cfg(test)]
mod tests {
    use crate::{Posed, Query, QueryOptions};
    use bvh_build::{BuildConfig, Bvh};
    use bvh_core::{Isometry, Obb, Point, RelativePose, TriMesh, Vector, triangles_intersect};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// A's triangle is B's corner `v` and two points on its low side along B's x axis, placed
    /// in A's frame; B's triangle is `v` and two points on its high side: they share a corner
    /// exactly in A's frame, and turned back into B's, A's may come out just short of `v` –
    /// far from the origin, turned at random. B's box meets A's in B's frame every time.
    #[test]
    fn a_box_in_b_keeps_a_triangle_touching_in_a_by_a_corner() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let config = BuildConfig::co();
        for _ in 0..300 {
            let mut unit =
                || Vector::new(rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0));
            let pose = Isometry::new(unit() * 3.0e4, unit() * 3.0);
            let v = Point::from(unit() * 2.0e4);
            let side = |x: f32, other: Vector| v + Vector::new(x, 0.0, 0.0) + other;
            let tb = [v, side(1.0, unit()), side(2.0, unit())];
            let ta_in_b = [v, side(-1.0, unit()), side(-2.0, unit())];
            // Placed as the query places B's triangles, so that `v` lands on the same point.
            let ta = ta_in_b.map(|p| RelativePose::from(&pose).transform_point(&p));
            let mesh =
                |corners: [Point; 3]| TriMesh::new(corners.to_vec(), vec![[0, 1, 2]]).expect("a triangle");
            let (a, b): (Bvh<Obb>, Bvh<Obb>) = (Bvh::build(mesh(ta), &config), Bvh::build(mesh(tb), &config));
            let query = Query::new(
                Posed::new(&a, Isometry::identity()),
                Posed::new(&b, pose),
                QueryOptions::default(),
            );
            let (ta, tb) = (a.triangle(0), b.triangle(0));
            assert!(triangles_intersect(ta, &tb.placed(&query.b_in_a)), "{ta:?} {tb:?} {pose:?}");
            assert!(tb.aabb().intersects(&query.box_in_b(ta)), "{ta:?} {tb:?} {pose:?}");
        }
    }
}
