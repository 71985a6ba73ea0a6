//! Temporal coherence as caller-owned state: per object pair, where the last first-contact
//! query found its contact – the triangle pair, tested first next time, then the triangles
//! around it – or, when it found none, the front of tree-pairs where it stopped (paper 004's
//! BVTT front), from which the next search starts. Each pair of the front remembers how far
//! apart its volumes were: until B has travelled that far, it is not tested again. A distance
//! query keeps the nearest pair it found, to measure first next time.

use crate::traverse::{Front, Pair, Slab};
use bvh_core::{Aabb, Point, Real, RelativePose, max};
use nalgebra as na;
use smallvec::SmallVec;

/// Every how many searches apart one starts from the top again: a search from the top measures
/// the gap of every pair it stops at, dearer than the searches from a front it spares.
const PULL_UP_EVERY: usize = 8;

/// Every how many distance searches one starts from the top again: a distance front only
/// deepens.
const DISTANCE_PULL_UP_EVERY: usize = 32;

/// How far, as a share of B's radius about its box's centre, B may have moved against A since
/// the last search for where it stopped to guide this one: a front left by a configuration far from this
/// one costs more than a search from the top (as on random poses without the limit), and a
/// contact so far away has nothing to do with this one's.
const NEAR_REACH: Real = 0.1;

/// Where a search found a contact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Hit {
    /// Leaf-order positions of the two triangles (in A, in B).
    pub(crate) positions: [usize; 2],
}

/// How a first-contact search with a cache begins.
pub(crate) enum Start {
    /// B jumped at this search and at the last: where this one stops would guide no next one,
    /// so it keeps nothing but its contact.
    Scattered,
    /// B moved little since the last search, which found this contact: look around it first –
    /// where `step` leads if it was found that far beside the one before in leaf order (there
    /// the rings mostly fail again), else through the triangles sharing its corners. `held`
    /// if the search before found the same contact: it mostly holds again.
    Near { last: Hit, step: Option<Step>, held: bool },
    /// Into the trees, from the kept front or from the top.
    Trees,
}

/// How a contact found beside the last one in leaf order lay from it: which side's triangle
/// changed (0 for A's, 1 for B's) and by how many positions. A contact sliding along rows of
/// slivers keeps its step from frame to frame, so the next search looks where it leads first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Step {
    pub(crate) side: u8,
    pub(crate) by: i32,
}

/// A tree-pair of the front, and how far B may travel against A, counted as the cache's
/// travel, before anything below it can touch: until then searches pass it by.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stop {
    pair: Pair,
    clear_until: f64,
}

/// What one object pair remembers between first-contact and distance queries. Results with
/// and without it are equally exact; another pair of trees or a cleared cache only costs the
/// shortcut. It pays along a motion; at scattered poses (B jumping at every query) it keeps no
/// front and costs about what no cache does. While the objects are apart it holds the last
/// front: as many tree-pairs as that search stopped at (its `front` statistic), a few dozen
/// bytes each.
#[derive(Clone, Debug, Default)]
pub struct PairCache {
    /// The contact the last search found, if it found one.
    last: Option<Hit>,
    /// How that contact lay from the one before, if it was found beside it in leaf order.
    last_step: Option<Step>,
    /// Whether the search before the last found that contact too.
    held: bool,
    /// The trees of the last search.
    trees: Option<(u64, u64)>,
    /// Where the last search stopped, if it found no contact and covered both trees (else
    /// empty).
    front: Vec<Stop>,
    /// The least travel any pair of the front is clear until: below it a search has nothing
    /// to test, known without a pass over the front.
    front_clear_until: f64,
    /// The pairs of the front this search starts from, taken out of it.
    due: Vec<Pair>,
    /// Searches since the last one from the top that tested pairs of the front (one that found
    /// every pair still clear left it as it was).
    since_top: usize,
    /// Whether B jumped at the last search.
    jumps: Jumps,
    /// Where B was at the last search, and how far it may have moved since the front.
    travel: Travel,
    /// The ball around B's box in its own frame, by which every search measures how far B
    /// moved: the same for every search in the trees.
    b_ball: Option<Ball>,
    /// What the last distance query left for the next.
    distance: DistanceMemory,
}

/// What a distance query leaves for the next: the nearest pair it found (its contact, if the
/// meshes touched) and where its search stopped.
#[derive(Clone, Debug, Default)]
struct DistanceMemory {
    closest: Option<Hit>,
    /// B's pose at the last query and how far apart the meshes were there at least, if they
    /// were apart: until B has moved that far they cannot touch.
    apart: Option<(RelativePose, f64)>,
    /// Where the last search stopped, each pair with the bounds it was stopped with, empty if
    /// it has none. The next search takes out the pairs it starts from and adds its own stops:
    /// the pairs still clear stay where they are, neither copied nor rewritten.
    front: Vec<DistanceStop>,
    /// The pairs of the front this search starts from, with their bounds lowered by B's motion.
    due: Vec<(Pair, Real)>,
    /// The positions in the front of the stops that B's whole motion does not show clear.
    unsure: Vec<u32>,
    /// B's poses at the searches since the last one from the top, the stops' frames: a bound is
    /// moved by B's motion from its own frame to this one, measured directly, never summed.
    poses: Vec<RelativePose>,
    /// Whether B jumped at the last distance search.
    jumps: Jumps,
}

/// A pair of a distance search's front: at the search of `frame`, what lies below it was at
/// least `gap` apart, and on either side of `slab` if it has one. `b_ball` is its B node's
/// ball, kept from the first search that needed the node's own motion: the next ones measure
/// it without reading the node, far off in B's tree.
#[derive(Clone, Copy, Debug)]
struct DistanceStop {
    pair: Pair,
    frame: u32,
    gap: Real,
    slab: Option<Slab>,
    b_ball: Option<Ball>,
}

impl DistanceStop {
    /// The stop's bound after B's points moved as `moved` says since its frame, `reach` how far
    /// any moved at all: the slab's gap plus how far they moved along its normal, or the gap less
    /// how far they moved, whichever is larger.
    fn clear_by(&self, moved: &Displacement, reach: f64) -> f64 {
        max(self.along_slab(moved).unwrap_or(f64::NEG_INFINITY), self.gap as f64 - reach)
    }

    /// [`DistanceStop::clear_by`], asking for `reach` (a square root) only when the slab alone
    /// falls short of `cutoff`.
    fn bound(&self, moved: &Displacement, reach: impl FnOnce() -> f64, cutoff: f64) -> f64 {
        match self.along_slab(moved) {
            Some(bound) if bound >= cutoff => bound,
            along_slab => max(along_slab.unwrap_or(f64::NEG_INFINITY), self.gap as f64 - reach()),
        }
    }

    /// The slab's gap, if the stop has one, plus how far B's points moved along its normal.
    fn along_slab(&self, moved: &Displacement) -> Option<f64> {
        self.slab.map(|slab| slab.gap as f64 + slab.normal.cast::<f64>().dot(&moved.shift) - moved.spread)
    }
}

/// A ball in B's frame around the points of a box: its centre and half-diagonal, rounded up.
#[derive(Clone, Copy, Debug)]
struct Ball {
    centre: Point,
    radius: Real,
}

impl Ball {
    fn around(extent: &Aabb) -> Self {
        // Rounding to nearest moves the radius by less than the millionth it is grown by.
        let radius = extent.half_extents().cast::<f64>().norm() * (1.0 + 1e-6);
        Self { centre: extent.center(), radius: radius as Real }
    }
}

/// How B's points in a ball moved: `shift` its centre's motion and `spread` how far any
/// point moved beside it, rounded up.
struct Displacement {
    shift: na::Vector3<f64>,
    spread: f64,
}

impl Displacement {
    /// How far any of the points moved at all, rounded up.
    fn reach(&self) -> f64 {
        (self.shift.norm() + self.spread) * (1.0 + 4.0 * f64::EPSILON)
    }
}

/// B's motion from one pose to another, in f64 (the poses are exact in it; the rounding of
/// placing B at either is the search's slack): `turn` the difference of the rotations, `shift`
/// of the translations.
struct Motion {
    turn: na::Matrix3<f64>,
    turn_norm: f64,
    shift: na::Vector3<f64>,
}

impl Motion {
    fn between(from: &RelativePose, to: &RelativePose) -> Self {
        // Cast before subtracting: a difference taken in f32 is rounded.
        let turn = to.rotation.cast::<f64>() - from.rotation.cast::<f64>();
        let shift = to.translation.cast::<f64>() - from.translation.cast::<f64>();
        Self { turn, turn_norm: turn.norm(), shift }
    }

    /// How the points of B in `ball` (in B's frame) moved: the shift of its centre and how far
    /// any of them moved beside it (the Frobenius norm bounds any matrix's stretch, also of
    /// rotations rounded off orthonormal).
    fn of(&self, ball: &Ball) -> Displacement {
        let centre = ball.centre.coords.cast::<f64>();
        let radius = f64::from(ball.radius);
        let shift = self.turn * centre + self.shift;
        // The rounding of the products, bounded through the sums of magnitudes (no less than
        // the norms, and no square roots).
        let rounding = 1e-12 * (shift.abs().sum() + centre.abs().sum() + radius);
        Displacement { shift, spread: self.turn_norm * radius * (1.0 + 1e-9) + rounding }
    }

    /// How far the points of all of B, in `ball`, moved.
    fn whole(&self, ball: &Ball) -> Moved {
        let moved = self.of(ball);
        let reach = moved.reach();
        Moved {
            at_most: reach,
            // A turn by θ moves a point at r by 2 sin(θ/2) r, √2 times less than the rotations'
            // difference in the Frobenius norm says.
            about: reach - moved.spread * (1.0 - std::f64::consts::FRAC_1_SQRT_2),
            size: f64::from(ball.radius),
        }
    }
}

/// How far B's points moved between two searches, against B's size (its box's half-diagonal).
#[derive(Clone, Copy)]
struct Moved {
    at_most: f64,
    about: f64,
    size: f64,
}

impl Moved {
    /// Whether B moved at most [`NEAR_REACH`] of its size: a front left there still guides a
    /// search here.
    fn is_little(&self) -> bool {
        self.about <= NEAR_REACH as f64 * self.size
    }
}

/// Whether B jumped at the last search of a kind: after two jumps in a row the poses come
/// scattered, and a front would guide no next search.
#[derive(Clone, Copy, Debug, Default)]
struct Jumps {
    last: bool,
}

impl Jumps {
    /// Counts a search where B moved little since the last one (`near`) or jumped: whether it
    /// jumped at this search and at the last.
    fn scattered(&mut self, near: bool) -> bool {
        let scattered = !near && self.last;
        self.last = !near;
        scattered
    }
}

/// Where B was at the last search of a kind, and a bound on how far B's points have moved
/// against A's since that search's front was started: the motions between the searches, summed
/// and rounded up.
#[derive(Clone, Copy, Debug, Default)]
struct Travel {
    pose: Option<RelativePose>,
    travelled: f64,
}

impl Travel {
    /// B is now at `b_in_a`: whether it moved little since the last search (its points, all in
    /// `ball` in its own frame, moved at most [`NEAR_REACH`] of its radius). The motion is added
    /// to the travel if so and a front is `kept`; otherwise the travel starts again from zero.
    fn moved_to(&mut self, b_in_a: &RelativePose, ball: &Ball, kept: bool) -> bool {
        let moved = self.pose.replace(*b_in_a).map(|last| Motion::between(&last, b_in_a).whole(ball));
        let near = moved.filter(|moved| moved.is_little());
        self.travelled = match near {
            // Rounded up: the sum must never fall short of the travel.
            Some(moved) if kept => (self.travelled + moved.at_most) * (1.0 + 4.0 * f64::EPSILON),
            _ => 0.0,
        };
        near.is_some()
    }
}

impl PairCache {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        *self = Self::default();
    }

    /// Starts a search in `trees` at B's pose `b_in_a`. B moved little since the last search if
    /// its points, all in the box `extent()` in its own frame, moved at most [`NEAR_REACH`] of
    /// the box's half-diagonal; a front kept from farther away is dropped. `extent` is asked
    /// once for the same trees.
    pub(crate) fn start(
        &mut self,
        trees: (u64, u64),
        b_in_a: &RelativePose,
        extent: impl FnOnce() -> Aabb,
    ) -> Start {
        if self.trees != Some(trees) {
            self.clear();
            self.trees = Some(trees);
        }
        let kept = !self.front.is_empty();
        let ball = self.b_ball(extent);
        let near = self.travel.moved_to(b_in_a, &ball, kept);
        if !(near && kept) {
            self.front.clear();
        }
        if self.jumps.scattered(near) {
            return Start::Scattered;
        }
        match self.last.filter(|_| near) {
            Some(last) => Start::Near { last, step: self.last_step, held: self.held },
            None => Start::Trees,
        }
    }

    /// The ball around B's box in its own frame, `extent()`, asked once for the trees of the
    /// last search (another pair of trees clears the cache).
    fn b_ball(&mut self, extent: impl FnOnce() -> Aabb) -> Ball {
        *self.b_ball.get_or_insert_with(|| Ball::around(&extent()))
    }

    /// The nearest pair the last distance query found (a distance query's first-contact search
    /// has started the cache for its trees).
    pub(crate) fn closest(&self) -> Option<Hit> {
        self.distance.closest
    }

    /// Remembers the nearest pair a distance query found with B at `b_in_a`, and a lower bound
    /// on the meshes' distance there (none if it is not positive).
    pub(crate) fn remember_closest(&mut self, found: Option<Hit>, b_in_a: &RelativePose, apart_by: f64) {
        self.distance.closest = found;
        self.distance.apart = (apart_by > 0.0).then_some((*b_in_a, apart_by));
    }

    /// Whether a distance query of `trees` with B at `b_in_a` can skip the first-contact search:
    /// the last one left the meshes apart, and B's points, all in `extent` in its own frame, have
    /// moved less than their distance there, less `slack` for the rounding of placing B at either
    /// pose. If so, B's move is counted into that search's travel, as the search would have.
    pub(crate) fn skips_first_contact(
        &mut self,
        trees: (u64, u64),
        b_in_a: &RelativePose,
        extent: &Aabb,
        slack: Real,
    ) -> bool {
        let Some((then, by)) = self.distance.apart.filter(|_| self.trees == Some(trees)) else {
            return false;
        };
        let apart =
            Motion::between(&then, b_in_a).whole(&self.b_ball(|| *extent)).at_most + f64::from(slack) < by;
        if apart {
            self.start(trees, b_in_a, || *extent);
        }
        apart
    }

    /// Whether B, at `b_in_a`, moved little since the last distance search (its points, all in
    /// `whole_b` in its own frame, moved at most [`NEAR_REACH`] of the ball's radius): then the
    /// front this search leaves will likely serve the next, and is worth slabs.
    fn distance_follows(&self, b_in_a: &RelativePose, whole_b: &Ball) -> bool {
        self.distance
            .poses
            .last()
            .is_some_and(|last| Motion::between(last, b_in_a).whole(whole_b).is_little())
    }

    /// Where a distance search at B's pose `b_in_a` starts, once the nearest pair found last
    /// time has set the `cutoff`: the pairs of the last search's front whose bounds, moved by
    /// B's motion since, fall below it – `None`: from the top (no front, one left from a pose
    /// too far away, or time for a search from the top, the front only deepening) – and where
    /// this search's stops go (the pairs not due are there already). `None` at scattered poses
    /// (B jumped at this search and the last): the search keeps no front. `extent` is B's box
    /// in its own frame, `node_box` its node's, `slack` the rounding a bound measured in the
    /// search may hide.
    pub(crate) fn distance_resume(
        &mut self,
        b_in_a: &RelativePose,
        extent: &Aabb,
        node_box: impl Fn(usize) -> Aabb,
        cutoff: Real,
        slack: Real,
    ) -> Option<DistanceStart<'_>> {
        let whole_b = self.b_ball(|| *extent);
        let near = self.distance_follows(b_in_a, &whole_b);
        let memory = &mut self.distance;
        let scattered = memory.jumps.scattered(near);
        let from_front = near && !memory.front.is_empty() && memory.poses.len() < DISTANCE_PULL_UP_EVERY;
        memory.due.clear();
        if !from_front {
            memory.poses.clear();
            memory.front.clear();
        } else {
            // Each earlier frame's motion, and how all of B moved since: that bounds how each
            // node moved.
            let motions: SmallVec<[(Motion, _, _); DISTANCE_PULL_UP_EVERY]> = memory
                .poses
                .iter()
                .map(|then| {
                    let motion = Motion::between(then, b_in_a);
                    let whole = motion.of(&whole_b);
                    let reach = whole.reach();
                    (motion, whole, reach)
                })
                .collect();
            // Every stop against how all of B moved first, without branching on the outcome
            // (most stay clear); then the few left unsure by their own node's motion, from the
            // back, so that a due stop's place takes one already looked at.
            let unsure = &mut memory.unsure;
            unsure.clear();
            unsure.resize(memory.front.len(), 0);
            let mut count = 0;
            for (i, stop) in memory.front.iter().enumerate() {
                let (_, whole, reach) = &motions[stop.frame as usize];
                unsure[count] = i as u32;
                count += usize::from(stop.clear_by(whole, *reach) < cutoff as f64);
            }
            for &i in unsure[..count].iter().rev() {
                let stop = &mut memory.front[i as usize];
                let ball = *stop.b_ball.get_or_insert_with(|| Ball::around(&node_box(stop.pair.b_node())));
                let motion = &motions[stop.frame as usize].0;
                let moved = motion.of(&ball);
                let bound = stop.bound(&moved, || moved.reach(), cutoff as f64);
                if bound < cutoff as f64 {
                    memory.due.push((stop.pair, max(bound, 0.0) as Real));
                    memory.front.swap_remove(i as usize);
                }
            }
        }
        memory.poses.push(*b_in_a);
        if scattered {
            return None;
        }
        let frame = (memory.poses.len() - 1) as u32;
        let kept = DistanceKept { stops: &mut memory.front, frame, slack, slabs: near };
        Some((from_front.then_some(&memory.due[..]), kept))
    }

    /// Remembers a contact found without keeping a front: near the last one, with no search
    /// into the trees, or by a search at scattered poses.
    pub(crate) fn found(&mut self, hit: Option<Hit>) {
        self.held = hit.is_some() && hit == self.last;
        self.last = hit;
        self.last_step = None;
    }

    /// Remembers a contact found `step` beside the last one in leaf order, beyond the triangles
    /// around it: where the contacts outrun the rings, the next search looks where the same step
    /// leads at once.
    pub(crate) fn found_beside(&mut self, hit: Hit, step: Step) {
        self.held = false;
        self.last = Some(hit);
        self.last_step = Some(step);
    }

    /// Where a search into the trees starts: from the pairs of the front that B may have
    /// reached since (`None`: from the top), keeping its own front in the second part, where
    /// the pairs not yet reachable are already. `None` when there is a front and B can have
    /// reached none of its pairs: nothing can touch, and the front stays as it was. `slack` is
    /// how much rounding the volumes' gaps measured in the search may hide.
    pub(crate) fn resume(
        &mut self,
        slack: impl FnOnce() -> Real,
    ) -> Option<(Option<impl Iterator<Item = Pair> + '_>, Kept<'_>)> {
        let travelled = self.travel.travelled;
        let from_front = !self.front.is_empty();
        if from_front && travelled < self.front_clear_until {
            return None;
        }
        self.since_top = if from_front { self.since_top + 1 } else { 0 };
        // The due pairs are taken out, from the back so that each place is refilled by a stop
        // already looked at; the others stay where they are. Copying the front into a new one
        // at every search cost more than the search on the large fronts a search from the top
        // leaves.
        self.due.clear();
        let mut least = f64::INFINITY;
        for i in (0..self.front.len()).rev() {
            let stop = self.front[i];
            if stop.clear_until <= travelled {
                self.due.push(stop.pair);
                self.front.swap_remove(i);
            } else {
                least = least.min(stop.clear_until);
            }
        }
        self.front_clear_until = least;
        let kept = Kept {
            stops: &mut self.front,
            least: &mut self.front_clear_until,
            from: travelled - slack() as f64,
        };
        Some((from_front.then(|| self.due.iter().copied()), kept))
    }

    /// Remembers what the search into the trees found, and the front it left (none if it found
    /// a contact).
    pub(crate) fn remember(&mut self, hit: Option<Hit>) {
        self.found(hit);
        // The pull-up: a front only deepens, also where the objects have moved apart again;
        // every few searches that deepen it, one starts from the top and leaves a front as high
        // as it can be.
        if hit.is_some() || self.since_top + 1 >= PULL_UP_EVERY {
            self.front.clear();
        }
    }
}

/// A search's front, kept in the cache: each pair with the travel it is clear until, by the
/// gap measured between its volumes.
pub(crate) struct Kept<'c> {
    stops: &'c mut Vec<Stop>,
    /// The least travel any of them is clear until.
    least: &'c mut f64,
    /// The travel so far, less the rounding a measured gap may hide.
    from: f64,
}

impl Front for Kept<'_> {
    const MEASURES_GAPS: bool = true;

    #[inline]
    fn keep(&mut self, pair: &Pair, gap: Real) {
        let clear_until = self.from + gap as f64;
        *self.least = self.least.min(clear_until);
        self.stops.push(Stop { pair: pair.untested(), clear_until });
    }

    fn clear(&mut self) {
        self.stops.clear();
        *self.least = f64::INFINITY;
    }
}

/// Where a distance search starts – the pairs of the last front that are due, `None`: from the
/// top – and where it keeps its own front.
pub(crate) type DistanceStart<'c> = (Option<&'c [(Pair, Real)]>, DistanceKept<'c>);

/// A distance search's front, kept in the cache: each pair with its bounds at this search's
/// frame, less the rounding they may hide.
pub(crate) struct DistanceKept<'c> {
    stops: &'c mut Vec<DistanceStop>,
    frame: u32,
    slack: Real,
    /// Whether to keep slabs between volumes (worth it when the next search will likely start
    /// from this front).
    slabs: bool,
}

impl DistanceKept<'_> {
    fn push(&mut self, pair: &Pair, gap: Real, slab: Option<Slab>) {
        let slab = slab.map(|slab| Slab { gap: slab.gap - self.slack, ..slab });
        self.stops.push(DistanceStop {
            pair: *pair,
            frame: self.frame,
            gap: gap - self.slack,
            slab,
            b_ball: None,
        });
    }
}

impl Front for DistanceKept<'_> {
    const MEASURES_GAPS: bool = true;

    fn keeps_slabs(&self) -> bool {
        self.slabs
    }

    #[inline]
    fn keep(&mut self, pair: &Pair, gap: Real) {
        self.push(pair, gap, None);
    }

    fn keep_slab(&mut self, pair: &Pair, gap: Real, slab: Slab) {
        self.push(pair, gap, Some(slab));
    }

    fn clear(&mut self) {
        self.stops.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DistanceOptions, Posed, Query, QueryOptions, QueryStats};
    use bvh_build::generate::{torus, tube};
    use bvh_build::{BuildConfig, Bvh, ChildRef, NodeVolume};
    use bvh_core::{Isometry, Obb, Point, Triangle, Vector, closest_points_triangles};
    use std::ops::Range;

    /// The leaf-order positions of the triangles below a side of a pair: a leaf's own, or all
    /// of a node's subtree.
    fn below<V: NodeVolume>(tree: &Bvh<V>, (node, leaf): (usize, Option<Range<usize>>)) -> Vec<usize> {
        if let Some(leaf) = leaf {
            return leaf.collect();
        }
        let mut found = Vec::new();
        let mut nodes = vec![node];
        while let Some(i) = nodes.pop() {
            for child in tree.children(i) {
                match child.get() {
                    ChildRef::Node(j) => nodes.push(j),
                    ChildRef::Leaf(range) => found.extend(range),
                }
            }
        }
        found
    }

    /// The least distance between A's triangles at leaf-order positions `ra` and the triangles
    /// `placed` (B's, placed in A's frame).
    fn nearest_below(a: &Bvh<Obb>, ra: &[usize], placed: &[Triangle]) -> Real {
        let pairs = ra.iter().flat_map(|&i| placed.iter().map(move |tb| (a.triangle(i), tb)));
        pairs.map(|(ta, tb)| closest_points_triangles(ta, tb).distance).fold(Real::INFINITY, Real::min)
    }

    /// Two trees of the same unit sphere.
    fn unit_spheres() -> (Bvh<Obb>, Bvh<Obb>) {
        let sphere = || bvh_core::TriMesh::uv_sphere(Point::origin(), 1.0, 12, 16);
        (Bvh::build(sphere(), &BuildConfig::co()), Bvh::build(sphere(), &BuildConfig::co()))
    }

    /// The query of `a` where it stands against `b` at `pose_b`, with the default options.
    fn with_b_at<'t>(a: &'t Bvh<Obb>, b: &'t Bvh<Obb>, pose_b: Isometry) -> Query<'t, Obb, Obb> {
        Query::new(Posed::new(a, Isometry::identity()), Posed::new(b, pose_b), QueryOptions::default())
    }

    /// The query of the unit spheres `a` and `b` with B's centre `d` from A's in the xy-plane,
    /// at angle `turn`: apart beyond 2.
    fn beside<'t>(a: &'t Bvh<Obb>, b: &'t Bvh<Obb>, d: Real, turn: Real) -> Query<'t, Obb, Obb> {
        with_b_at(a, b, Isometry::translation(d * turn.cos(), d * turn.sin(), 0.0))
    }

    /// While B cannot have reached any pair of the front, a first-contact search tests nothing
    /// and leaves the front as it was, its least clearance kept beside it; once B can have
    /// reached one, the search tests it and the answer is still the uncached one.
    #[test]
    fn a_search_with_no_pair_of_the_front_due_leaves_the_front_alone() {
        let config = BuildConfig::co();
        let a = Bvh::<Obb>::build(torus(1.0, 0.3, 24, 10), &config);
        let b = Bvh::<Obb>::build(tube(0.2, 0.15, 0.6, 12), &config);
        let query =
            |x: Real| with_b_at(&a, &b, Isometry::new(Vector::new(x, 0.0, 0.0), Vector::new(0.0, 0.3, 0.0)));
        let front = |cache: &PairCache| -> Vec<_> {
            cache.front.iter().map(|stop| (stop.pair.sides(), stop.clear_until)).collect()
        };
        let mut cache = PairCache::new();
        assert!(query(0.0).intersects_cached(&mut cache).is_none(), "the tube stays in the hole");
        let (left, least) = (front(&cache), cache.front_clear_until);
        assert!(left.len() > 1, "the search left a front of {} pairs", left.len());
        assert_eq!(least, left.iter().map(|(_, until)| *until).fold(f64::INFINITY, f64::min));
        let mut steps = 0;
        let mut x = 0.0;
        while cache.travel.travelled + 1e-4 < least {
            x += 1e-5;
            let mut stats = QueryStats::default();
            assert!(query(x).intersects_counted(Some(&mut cache), &mut stats).is_none());
            assert_eq!(stats.volume_tests() + stats.triangle_tests, 0, "step {steps}: nothing due");
            assert_eq!(front(&cache), left, "step {steps}: the front as it was");
            steps += 1;
        }
        assert!(steps > 5, "{steps} steps before a pair fell due");
        // On until the tube touches the ring: each cached answer is the uncached one.
        loop {
            x += 0.01;
            assert!(x < 2.0, "the tube reaches the ring");
            let touching = query(x).intersects().is_some();
            assert_eq!(query(x).intersects_cached(&mut cache).is_some(), touching, "x = {x}");
            if touching {
                break;
            }
        }
    }

    /// At scattered poses – B jumped at this search and at the last – a search keeps no front,
    /// and costs what one without a cache does (both search the wide views); one jump after a
    /// coherent motion still searches from the top and keeps its front (in the binary trees,
    /// which have fronts), and the searches that follow it cost less. Every answer is the
    /// uncached one.
    #[test]
    fn scattered_searches_keep_no_front() {
        use std::cmp::Ordering::{Equal, Less};
        let (a, b) = unit_spheres();
        let mut cache = PairCache::new();
        // Whether the meshes touch, whether the cache kept a front, and the search's volume
        // tests against those of a search from the top: of the wide views (the plain search)
        // and of the binary trees (a fresh cache's first search, which keeps a front).
        let mut search = |d: Real, turn: Real| {
            let (mut cached, mut plain, mut first) =
                (QueryStats::default(), QueryStats::default(), QueryStats::default());
            let query = beside(&a, &b, d, turn);
            let found = query.intersects_counted(Some(&mut cache), &mut cached).is_some();
            assert_eq!(found, query.intersects_counted(None, &mut plain).is_some(), "{d} at {turn}");
            query.intersects_counted(Some(&mut PairCache::new()), &mut first);
            let cost = |top: &QueryStats| cached.volume_tests().cmp(&top.volume_tests());
            (found, !cache.front.is_empty(), cost(&plain), cost(&first))
        };
        let against_plain = |(found, kept, plain, _)| (found, kept, plain);
        let against_binary_top = |(found, kept, _, first)| (found, kept, first);
        // The first search keeps its front; jumps after a jump keep none.
        assert_eq!(against_binary_top(search(2.05, 0.8)), (false, true, Equal));
        assert_eq!(against_plain(search(2.05, 2.4)), (false, false, Equal));
        assert_eq!(against_plain(search(2.05, 4.0)), (false, false, Equal));
        // Two small steps: the first searches from the top and keeps its front, the second
        // starts from it.
        assert_eq!(against_binary_top(search(2.06, 4.0)), (false, true, Equal));
        assert_eq!(against_binary_top(search(2.07, 4.0)), (false, true, Less));
        // A jump after the steps keeps its front, and the step after it starts from there.
        assert_eq!(against_binary_top(search(2.05, 5.5)), (false, true, Equal));
        assert_eq!(against_binary_top(search(2.06, 5.5)), (false, true, Less));
        // Into contact by a jump, then by a scattered one, no front kept; a step from there
        // finds the contact again around the last one, with no volume test.
        assert_eq!(against_binary_top(search(1.9, 1.0)), (true, false, Equal));
        assert_eq!(against_plain(search(1.9, 3.0)), (true, false, Equal));
        assert_eq!(against_plain(search(1.91, 3.0)), (true, false, Less));
    }

    /// A distance search at scattered poses keeps no front either, and answers as one without
    /// a cache; after a step it keeps its front again.
    #[test]
    fn scattered_distance_searches_keep_no_front() {
        let (a, b) = unit_spheres();
        let mut cache = PairCache::new();
        let mut search = |d: Real, turn: Real| {
            let query = beside(&a, &b, d, turn);
            let cached = query.distance_cached(DistanceOptions::exact(), &mut cache).map(|n| n.distance);
            assert_eq!(cached, query.distance(DistanceOptions::exact()).map(|n| n.distance));
            !cache.distance.front.is_empty()
        };
        let kept: Vec<bool> = [(2.5, 0.8), (2.5, 2.4), (2.6, 4.0), (2.61, 4.0), (2.62, 4.0), (2.5, 5.5)]
            .map(|(d, t)| search(d, t))
            .into();
        assert_eq!(kept, [true, false, false, true, true, true]);
    }

    /// When the last contact is lost and the objects are found apart, the search keeps no
    /// front: the next one starts from the top, keeps where it stopped with every gap measured,
    /// and answers as one without a cache.
    #[test]
    fn a_lost_contact_keeps_no_front() {
        let (a, b) = unit_spheres();
        // Along the diagonal, so that the two spheres' boxes overlap while they are apart.
        let at = |d: Real| {
            let x = d / Real::sqrt(2.0);
            with_b_at(&a, &b, Isometry::translation(x, x, 0.0))
        };
        let mut cache = PairCache::new();
        assert!(at(1.92).intersects_cached(&mut cache).is_some(), "the spheres overlap");
        assert!(at(2.04).intersects().is_none(), "the spheres are apart");
        let mut lost = QueryStats::default();
        assert!(at(2.04).intersects_counted(Some(&mut cache), &mut lost).is_none());
        assert!(cache.front.is_empty() && cache.last.is_none());
        let mut plain = QueryStats::default();
        assert!(at(2.04).intersects_counted(None, &mut plain).is_none());
        // The plain search, after the last pair and the triangles around it.
        assert_eq!(lost.volume_tests(), plain.volume_tests());
        assert!(lost.triangle_tests > plain.triangle_tests);
        let mut next = QueryStats::default();
        assert!(at(2.05).intersects_counted(Some(&mut cache), &mut next).is_none());
        assert!(next.volume_tests() > 0, "searched from the top");
        assert!(!cache.front.is_empty() && cache.front.iter().all(|stop| stop.clear_until.is_finite()));
        assert_eq!(at(1.9).intersects_cached(&mut cache).is_some(), at(1.9).intersects().is_some());
    }

    /// A search from the top that finds the objects apart (over the wide views, for these OBB
    /// trees) keeps a front in the binary trees' terms that covers every triangle pair exactly
    /// once: the binary descent resuming from it misses none and tests none twice.
    #[test]
    fn a_front_kept_from_the_top_covers_every_triangle_pair_once() {
        let config = BuildConfig::co();
        let a = Bvh::<Obb>::build(torus(1.0, 0.3, 24, 10), &config);
        let b = Bvh::<Obb>::build(tube(0.2, 0.15, 0.6, 12), &config);
        let (count_a, count_b) = (a.mesh().triangle_count(), b.mesh().triangle_count());
        let mut leaf_pairs = 0;
        for k in 0..6 {
            let t = k as Real / 5.0;
            let pose_b = Isometry::new(Vector::new(0.48 * t, 0.05 * t, 0.0), Vector::new(0.1 * t, 0.3, 0.0));
            let mut cache = PairCache::new();
            assert!(with_b_at(&a, &b, pose_b).intersects_cached(&mut cache).is_none(), "pose {k}");
            assert!(cache.front.len() > 4, "pose {k}: a front of {}", cache.front.len());
            let mut covered = vec![0u8; count_a * count_b];
            for stop in &cache.front {
                let [side_a, side_b] = stop.pair.sides();
                leaf_pairs += usize::from(side_a.1.is_some() && side_b.1.is_some());
                for i in below(&a, side_a) {
                    for j in below(&b, side_b.clone()) {
                        covered[i * count_b + j] += 1;
                    }
                }
            }
            assert!(covered.iter().all(|&times| times == 1), "pose {k}");
        }
        assert!(leaf_pairs > 0, "the searches stopped at no pair of leaves");
    }

    /// Every stop a cached first-contact search leaves along a path holds what the next
    /// searches rely on: the triangle pairs below it lie at least as far apart as its clearance
    /// (the travel it is clear until, less B's travel so far), and the least clearance kept
    /// beside the front is its least. A leaf against a node measures its gap too: a path passing
    /// one close by does not test it again at every pose.
    #[test]
    fn every_stop_of_a_first_contact_front_is_as_clear_as_it_says() {
        let config = BuildConfig::co();
        let a = Bvh::<Obb>::build(torus(1.0, 0.3, 24, 10), &config);
        let b = Bvh::<Obb>::build(tube(0.2, 0.15, 0.6, 12), &config);
        let mut cache = PairCache::new();
        let (mut checked, mut clear_leaves) = (0, 0);
        // The tube in the ring's hole, moving towards its inner side, turning a little.
        for k in 0..60 {
            let t = k as Real / 60.0;
            let pose_b = Isometry::new(Vector::new(0.48 * t, 0.05 * t, 0.0), Vector::new(0.1 * t, 0.3, 0.0));
            let query = with_b_at(&a, &b, pose_b);
            assert!(query.intersects_cached(&mut cache).is_none(), "pose {k}: the meshes stay apart");
            // The least clearance kept beside the front is the front's, as the pairs taken out
            // and the stops added left it.
            if !cache.front.is_empty() {
                let least = cache.front.iter().map(|stop| stop.clear_until).fold(f64::INFINITY, f64::min);
                assert_eq!(cache.front_clear_until, least, "pose {k}");
            }
            for stop in &cache.front {
                let clearance = stop.clear_until - cache.travel.travelled;
                if clearance <= 0.0 {
                    continue;
                }
                let [side_a, side_b] = stop.pair.sides();
                let placed: Vec<_> =
                    below(&b, side_b.clone()).iter().map(|&j| b.triangle(j).placed(&query.b_in_a)).collect();
                let nearest = nearest_below(&a, &below(&a, side_a.clone()), &placed);
                assert!(nearest as f64 >= clearance, "pose {k}: a pair {nearest} apart below {stop:?}");
                checked += 1;
                clear_leaves += usize::from(side_a.1.is_some() != side_b.1.is_some());
            }
        }
        assert!(
            checked >= 200 && clear_leaves >= 20,
            "{checked} stops checked, {clear_leaves} of a leaf and a node"
        );
    }

    /// A search near the last contact is told whether the search before found that contact
    /// too: after the same pair twice, not after a new pair or one found beside the last.
    #[test]
    fn a_contact_found_twice_in_a_row_is_told_held() {
        let (pose, extent) =
            (RelativePose::identity(), Aabb::new(Point::origin(), Point::new(1.0, 1.0, 1.0)));
        let held = |cache: &mut PairCache| match cache.start((1, 2), &pose, || extent) {
            Start::Near { held, .. } => Some(held),
            _ => None,
        };
        let hit = |i| Hit { positions: [i, 7] };
        let mut cache = PairCache::new();
        assert_eq!(held(&mut cache), None);
        cache.found(Some(hit(3)));
        assert_eq!(held(&mut cache), Some(false));
        cache.found(Some(hit(3)));
        assert_eq!(held(&mut cache), Some(true));
        cache.found(Some(hit(4)));
        assert_eq!(held(&mut cache), Some(false));
        cache.found(Some(hit(4)));
        cache.found_beside(hit(4), Step { side: 0, by: 1 });
        assert_eq!(held(&mut cache), Some(false));
    }

    /// A strip of sliver triangles (rows half a millimetre apart) sliding through a tilted wall
    /// four rows a step, the strip as B and as A, and as B modelled turned and posed turned
    /// back (its triangles boxed in its own frame, the wall's turned into it): the contact
    /// outruns the triangles around it at every step, and is found beside it in leaf order,
    /// with no volume test, and followed there on the strip's side – once its step is known,
    /// where that step leads, within a triangle test or two of the last pair's (for the strip
    /// built unturned); each answer is the uncached one.
    #[test]
    fn a_contact_that_outruns_the_rings_is_found_beside_it() {
        let rows = 400;
        let turn = na::UnitQuaternion::from_scaled_axis(Vector::new(0.3, -0.5, 0.8));
        let strip = |turn: na::UnitQuaternion<Real>| {
            let vertices: Vec<Point> = (0..=rows)
                .flat_map(|r| {
                    let y = r as Real * 0.0005;
                    [Point::new(0.0, y, 0.0), Point::new(0.1, y, 0.0)]
                        .map(|p| turn.inverse_transform_point(&p))
                })
                .collect();
            let triangles: Vec<[u32; 3]> = (0..rows as u32)
                .flat_map(|r| [[2 * r, 2 * r + 1, 2 * r + 3], [2 * r, 2 * r + 3, 2 * r + 2]])
                .collect();
            bvh_core::TriMesh::new(vertices, triangles).expect("a strip")
        };
        let wall = bvh_core::TriMesh::new(
            // Tilted, so that its box holds the whole strip: only the triangle tests tell the
            // rows apart.
            vec![
                Point::new(-1.0, -0.95, -1.0),
                Point::new(1.0, -0.95, -1.0),
                Point::new(1.0, 1.05, 1.0),
                Point::new(-1.0, 1.05, 1.0),
            ],
            vec![[0, 1, 2], [0, 2, 3]],
        )
        .expect("a wall");
        let config = BuildConfig::co();
        let wall = Bvh::<Obb>::build(wall, &config);
        let (straight, turned) = (
            Bvh::<Obb>::build(strip(na::UnitQuaternion::identity()), &config),
            Bvh::build(strip(turn), &config),
        );
        let cases = [
            (&wall, &straight, 1, -1.0, na::UnitQuaternion::identity()),
            (&straight, &wall, 0, 1.0, na::UnitQuaternion::identity()),
            (&wall, &turned, 1, -1.0, turn),
        ];
        for (a, b, strip_side, moving, posed) in cases {
            let mut cache = PairCache::new();
            let (mut steps, mut beside_ring, mut led) = (0, 0, 0);
            for k in 0..40 {
                // Offset by a third of a row, so that the wall crosses rows and touches no edge.
                let y = moving * (0.002 * k as Real + 0.00017);
                let query = with_b_at(a, b, Isometry::from_parts(Vector::new(0.0, y, 0.0).into(), posed));
                let mut stats = QueryStats::default();
                let cached = query.intersects_counted(Some(&mut cache), &mut stats);
                assert_eq!(cached.is_some(), query.intersects().is_some(), "step {k}");
                assert!(cached.is_some(), "step {k}: the strip crosses the wall");
                if k >= 2 {
                    steps += 1;
                    let beside = cache.last_step.is_some_and(|step| step.side == strip_side);
                    beside_ring += usize::from(stats.volume_tests() == 0 && beside);
                    led += usize::from(stats.triangle_tests <= 3);
                }
            }
            let as_side = if strip_side == 0 { "A" } else { "B" };
            assert_eq!(beside_ring, steps, "strip {as_side}: {beside_ring} of {steps} steps found beside");
            // Built turned, the tree orders the rows otherwise: there the steps vary.
            let steady = posed == na::UnitQuaternion::identity();
            assert!(
                !steady || led + 2 >= steps,
                "strip {as_side}: {led} of {steps} steps found where the last step led"
            );
        }
    }

    /// A distance query that found the meshes apart spares the next the first-contact search
    /// only while B's motion since cannot have closed the gap between them: a step shorter than
    /// the gap passes, either way, one as long does not, and the contact it makes is found.
    #[test]
    fn meshes_stay_apart_only_while_b_cannot_have_closed_the_gap() {
        let (a, b) = unit_spheres();
        let at = |x: Real| with_b_at(&a, &b, Isometry::translation(x, 0.0, 0.0));
        let mut cache = PairCache::new();
        let gap = at(3.0).distance_cached(DistanceOptions::exact(), &mut cache).expect("a distance").distance;
        assert!(gap > 0.9 && gap <= 1.0, "two unit spheres 3 apart are {gap} apart");
        let trees = (a.id(), b.id());
        let extent = *b.node_box(0);
        let slack = 3.0 * at(3.0).placement_slack(0.0);
        let passes = |x: Real| cache.clone().skips_first_contact(trees, &at(x).b_in_a, &extent, slack);
        assert!(passes(3.0) && passes(3.0 - 0.9 * gap) && passes(3.0 + 0.9 * gap));
        assert!(!passes(3.0 - gap) && !passes(1.5));
        let touching = at(1.5);
        let near = touching.distance_cached(DistanceOptions::exact(), &mut cache).expect("a distance");
        assert_eq!(near.distance, 0.0);
        assert!(touching.intersects().is_some());
    }

    /// Every stop a cached distance search leaves along a path holds what the next searches
    /// rely on: at the pose of its frame, each triangle pair below it is at least its gap apart,
    /// and B's corners below it lie at least its slab's gap beyond A's along the slab's normal.
    #[test]
    fn every_stop_of_the_front_bounds_what_lies_below_it() {
        let config = BuildConfig::co();
        let a = Bvh::<Obb>::build(torus(1.0, 0.3, 24, 10), &config);
        let b = Bvh::<Obb>::build(tube(0.3, 0.25, 1.5, 12), &config);
        let mut cache = PairCache::new();
        let (mut stops, mut slabs) = (0, 0);
        for k in 0..40 {
            let t = k as Real / 40.0;
            let pose_b =
                Isometry::new(Vector::new(1.6 - 0.3 * t, 0.8 * t, 0.6), Vector::new(0.3 * t, 0.5 * t, 0.0));
            let near = with_b_at(&a, &b, pose_b)
                .distance_cached(DistanceOptions::exact(), &mut cache)
                .expect("a distance");
            assert!(near.distance > 0.0, "pose {k}: the meshes stay apart");
            let memory = &cache.distance;
            for stop in &memory.front {
                let [side_a, side_b] = stop.pair.sides();
                let (ra, rb) = (below(&a, side_a), below(&b, side_b));
                let pose = &memory.poses[stop.frame as usize];
                let placed: Vec<_> = rb.iter().map(|&j| b.triangle(j).placed(pose)).collect();
                let nearest = nearest_below(&a, &ra, &placed);
                assert!(nearest >= stop.gap, "pose {k}: a pair {nearest} apart below a stop {stop:?}");
                stops += 1;
                if let Some(slab) = stop.slab {
                    let along = |p: Point| slab.normal.cast::<f64>().dot(&p.coords.cast::<f64>());
                    let a_top =
                        ra.iter().flat_map(|&i| a.triangle(i).vertices()).map(along).fold(f64::MIN, f64::max);
                    let b_bottom =
                        placed.iter().flat_map(|t| t.vertices()).map(along).fold(f64::MAX, f64::min);
                    assert!(
                        b_bottom - a_top >= slab.gap as f64,
                        "pose {k}: {} across a slab {stop:?}",
                        b_bottom - a_top
                    );
                    slabs += 1;
                }
            }
        }
        assert!(stops >= 1000 && slabs >= 1000, "{stops} stops, {slabs} with slabs");
    }
}
