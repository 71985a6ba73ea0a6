//! Temporal coherence as caller-owned state: per object pair, where the last first-contact
//! query found its contact – the triangle pair, tested first next time, then the triangles
//! around it – or, when it found none, the front of tree-pairs where it stopped (paper 004's
//! BVTT front), from which the next search starts. Each pair of the front remembers how far
//! apart its volumes were: until B has travelled that far, it is not tested again. A distance
//! query keeps the nearest pair it found, to measure first next time.

use crate::traverse::{Front, Pair};
use bvh_core::{Real, RelativePose, rounding_slack};

/// Every how many searches apart one starts from the top again.
const PULL_UP_EVERY: usize = 4;

/// Every how many distance searches one starts from the top again: a distance front only
/// deepens.
const DISTANCE_PULL_UP_EVERY: usize = 8;

/// How far, as a share of B's reach from its origin, B may have moved against A since the last
/// search for where it stopped to guide this one: a front left by a configuration far from this
/// one costs more than a search from the top (random poses: cached 1.3-2× the uncached time with
/// no limit), and a contact so far away has nothing to do with this one's.
const NEAR_REACH: Real = 0.1;

/// Where a search found a contact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Hit {
    /// Leaf-order positions of the two triangles (in A, in B).
    pub(crate) positions: [usize; 2],
}

/// A tree-pair of the front, and how far B may travel against A, counted as the cache's
/// `travelled`, before anything below it can touch: until then searches pass it by.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stop {
    pair: Pair,
    clear_until: f64,
}

/// What one object pair remembers between first-contact queries. Results with and without it
/// are equally exact; another pair of trees or a cleared cache only costs the shortcut. While
/// the objects are apart it holds the last front: as many tree-pairs as that search stopped at
/// (its `front` statistic), a few dozen bytes each.
#[derive(Clone, Debug, Default)]
pub struct PairCache {
    /// The contact the last search found, if it found one.
    last: Option<Hit>,
    /// The trees of the last search.
    trees: Option<(u64, u64)>,
    /// Where the last search stopped, if it found no contact and covered both trees (else
    /// empty).
    front: Vec<Stop>,
    /// Where this search stops: swapped with `front` when it is remembered.
    next: Vec<Stop>,
    /// Searches since the last one from the top that tested pairs of the front (one that found
    /// every pair still clear left it as it was).
    since_top: usize,
    /// B's pose in A's frame at the last search.
    pose: Option<RelativePose>,
    /// A bound on how far B's points have moved against A's, summed over the searches since
    /// the front was started (rounded up).
    travelled: f64,
    /// The nearest pair the last distance query found (its contact, if the meshes touched).
    closest: Option<Hit>,
    /// Where the last distance search stopped (each pair with the travel until which nothing
    /// below it can come nearer than the bound it was stopped with), empty if it has none.
    distance_front: Vec<Stop>,
    /// Where this distance search stops: swapped with `distance_front` when it is remembered.
    distance_next: Vec<Stop>,
    /// The pairs of the front this distance search starts from, with their bounds lowered by
    /// the travel.
    due: Vec<(Pair, Real)>,
    /// B's pose in A's frame at the last distance search, and how far B may have moved since
    /// the distance front was started (rounded up).
    distance_pose: Option<RelativePose>,
    distance_travelled: f64,
    /// Distance searches from the front since the last one from the top.
    distance_since_top: usize,
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

    /// Starts a search in `trees` at B's pose `b_in_a`: the last contact, if B moved little
    /// since the last search (its points, all within `reach()` of its origin, moved at most
    /// [`NEAR_REACH`] of it). A front kept from farther away is dropped. `reach` is asked only
    /// for the same trees.
    pub(crate) fn start(
        &mut self,
        trees: (u64, u64),
        b_in_a: &RelativePose,
        reach: impl FnOnce() -> Real,
    ) -> Option<Hit> {
        if self.trees != Some(trees) {
            self.clear();
            self.trees = Some(trees);
        }
        let moved = self.pose.as_ref().map(|last| Motion::between(last, b_in_a, reach()));
        let near = moved.is_some_and(|moved| moved.estimate() <= NEAR_REACH * moved.reach);
        if let (true, false, Some(moved)) = (near, self.front.is_empty(), moved) {
            // Rounded up: the sum must never fall short of the travel.
            self.travelled = (self.travelled + moved.bound() as f64) * (1.0 + 4.0 * f64::EPSILON);
        } else {
            self.front.clear();
            self.travelled = 0.0;
        }
        self.pose = Some(*b_in_a);
        self.last.filter(|_| near)
    }

    /// Starts a distance query in `trees`: the nearest pair the last one found (none for other
    /// trees, whose state is dropped).
    pub(crate) fn closest_start(&mut self, trees: (u64, u64)) -> Option<Hit> {
        if self.trees != Some(trees) {
            self.clear();
            self.trees = Some(trees);
        }
        self.closest
    }

    /// Remembers the nearest pair a distance query found.
    pub(crate) fn remember_closest(&mut self, found: Option<Hit>) {
        self.closest = found;
    }

    /// Where a distance search at B's pose `b_in_a` starts, once the nearest pair found last
    /// time has set the `cutoff`: the pairs of the last search's front whose bounds, lowered by
    /// how far B may have moved since, fall below it – `None`: from the top (no front, one left
    /// from a pose too far away, or time for a search from the top, the front only deepening)
    /// – and where this search's stops go (the pairs not due are there already). `reach` is B's
    /// reach from its origin, `slack` the rounding a bound measured in the search may hide.
    pub(crate) fn distance_resume(
        &mut self,
        b_in_a: &RelativePose,
        reach: Real,
        cutoff: Real,
        slack: Real,
    ) -> (Option<&[(Pair, Real)]>, Kept<'_>) {
        let moved = self.distance_pose.as_ref().map(|last| Motion::between(last, b_in_a, reach));
        let near = moved.filter(|m| m.estimate() <= NEAR_REACH * m.reach);
        self.distance_pose = Some(*b_in_a);
        self.distance_next.clear();
        self.due.clear();
        let from_front = match near {
            Some(moved)
                if !self.distance_front.is_empty()
                    && self.distance_since_top + 1 < DISTANCE_PULL_UP_EVERY =>
            {
                // Rounded up: the sum must never fall short of the travel.
                self.distance_travelled =
                    (self.distance_travelled + moved.bound() as f64) * (1.0 + 4.0 * f64::EPSILON);
                self.distance_since_top += 1;
                true
            }
            _ => {
                self.distance_travelled = 0.0;
                self.distance_since_top = 0;
                false
            }
        };
        let travelled = self.distance_travelled;
        if from_front {
            for stop in &self.distance_front {
                let bound = stop.clear_until - travelled;
                if bound < cutoff as f64 {
                    self.due.push((stop.pair, bound.max(0.0) as Real));
                } else {
                    self.distance_next.push(*stop);
                }
            }
        }
        let kept = Kept { stops: &mut self.distance_next, from: travelled - slack as f64 };
        (from_front.then_some(&self.due[..]), kept)
    }

    /// Keeps the front the distance search started by [`PairCache::distance_resume`] left.
    pub(crate) fn remember_distance_front(&mut self) {
        std::mem::swap(&mut self.distance_front, &mut self.distance_next);
    }

    /// Remembers a contact found near the last one, without a search into the trees.
    pub(crate) fn found_near(&mut self, hit: Hit) {
        self.last = Some(hit);
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
        let travelled = self.travelled;
        self.next.clear();
        self.next.extend(self.front.iter().filter(|stop| stop.clear_until > travelled));
        let from_front = !self.front.is_empty();
        if !from_front {
            self.since_top = 0;
        } else if self.next.len() < self.front.len() {
            self.since_top += 1;
        } else {
            return None;
        }
        let due = from_front.then(|| {
            self.front.iter().filter(move |stop| stop.clear_until <= travelled).map(|stop| stop.pair)
        });
        Some((due, Kept { stops: &mut self.next, from: travelled - slack() as f64 }))
    }

    /// Remembers what the search into the trees found, and the front it left (none if it found
    /// a contact).
    pub(crate) fn remember(&mut self, hit: Option<Hit>) {
        self.last = hit;
        if hit.is_some() {
            self.next.clear();
        }
        // The pull-up: a front only deepens, also where the objects have moved apart again;
        // every few searches that deepen it, one starts from the top and leaves a front as high
        // as it can be.
        if self.since_top + 1 >= PULL_UP_EVERY {
            self.next.clear();
        }
        std::mem::swap(&mut self.front, &mut self.next);
    }
}

/// A search's front, kept in the cache: each pair with the travel it is clear until.
pub(crate) struct Kept<'c> {
    stops: &'c mut Vec<Stop>,
    /// The travel so far, less the rounding a measured gap may hide.
    from: f64,
}

impl Front for Kept<'_> {
    const MEASURES_GAPS: bool = true;

    #[inline]
    fn keep(&mut self, pair: &Pair, gap: Real) {
        self.stops.push(Stop { pair: pair.untested(), clear_until: self.from + gap as f64 });
    }

    fn clear(&mut self) {
        self.stops.clear();
    }
}

/// How B moved between two poses, for its points within `reach` of its origin: `shift` the
/// length of the translation's change, `turn` the Frobenius norm of the rotations' difference.
#[derive(Clone, Copy)]
struct Motion {
    shift: Real,
    turn: Real,
    reach: Real,
    /// Both translations' lengths: the scale of the rounding.
    scale: Real,
}

impl Motion {
    fn between(from: &RelativePose, to: &RelativePose, reach: Real) -> Self {
        Self {
            shift: (to.translation - from.translation).norm(),
            turn: (to.rotation - from.rotation).norm(),
            reach,
            scale: from.translation.norm() + to.translation.norm(),
        }
    }

    /// How far the points moved, about: `|Δt| + 2 sin(θ/2) reach` for a turn by `θ` (for a
    /// rotation's difference the Frobenius norm is √2 times the largest stretch).
    fn estimate(&self) -> Real {
        self.shift + self.turn * std::f32::consts::FRAC_1_SQRT_2 * self.reach
    }

    /// How far the points moved at most: the Frobenius norm bounds the stretch of any matrix,
    /// also of rotations rounded off orthonormal, plus the rounding of computing it.
    fn bound(&self) -> Real {
        let bound = self.shift + self.turn * self.reach;
        bound + rounding_slack(bound + self.scale + self.reach)
    }
}
