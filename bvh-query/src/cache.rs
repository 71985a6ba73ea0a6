//! Temporal coherence as caller-owned state: per object pair, where the last first-contact
//! query found its contact – the triangle pair, tested first next time, then the triangles
//! around it – or, when it found none, the front of tree-pairs where it stopped (paper 004's
//! BVTT front), from which the next search starts.

use crate::traverse::Pair;
use bvh_core::{Real, RelativePose};

/// Every how many searches apart one starts from the top again.
const PULL_UP_EVERY: usize = 4;

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
    front: Vec<Pair>,
    /// Where this search stops: swapped with `front` when it is remembered.
    next: Vec<Pair>,
    /// Searches since the last one from the top.
    since_top: usize,
    /// B's pose in A's frame at the last search.
    pose: Option<RelativePose>,
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

    /// Where this search may start, at B's pose `b_in_a`, if the last one was in the same trees
    /// and B moved little since (its points, all within `reach()` of its origin, moved at most
    /// [`NEAR_REACH`] of it): near the contact it found, or from the front where it stopped.
    /// Also an empty buffer for this search's front. `reach` is asked only for the same trees.
    pub(crate) fn start(
        &mut self,
        trees: (u64, u64),
        b_in_a: &RelativePose,
        reach: impl FnOnce() -> Real,
    ) -> Start<'_> {
        let same_trees = self.trees == Some(trees);
        let near = same_trees
            && self.pose.as_ref().is_some_and(|last| {
                let reach = reach();
                displacement(last, b_in_a, reach) <= NEAR_REACH * reach
            });
        if !near {
            self.front.clear();
        }
        self.pose = Some(*b_in_a);
        self.next.clear();
        Start { last: self.last.filter(|_| near), front: &self.front, next: &mut self.next }
    }

    /// Remembers the contact this search found in these trees, if any, and the front it left
    /// (none if it found a contact).
    pub(crate) fn remember(&mut self, trees: (u64, u64), hit: Option<Hit>) {
        self.last = hit;
        self.trees = Some(trees);
        if hit.is_some() {
            self.next.clear();
        }
        // The pull-up: a front only deepens, also where the objects have moved apart again;
        // every few searches one starts from the top and leaves a front as high as it can be.
        // `front` is still the one this search started from (empty if it started otherwise).
        self.since_top = if self.front.is_empty() { 0 } else { self.since_top + 1 };
        if self.since_top + 1 >= PULL_UP_EVERY {
            self.next.clear();
        }
        std::mem::swap(&mut self.front, &mut self.next);
    }
}

/// What a cache offers one search (see [`PairCache::start`]).
pub(crate) struct Start<'c> {
    /// The contact the last search found nearby.
    pub(crate) last: Option<Hit>,
    /// The front the last search left nearby (empty if it found a contact).
    pub(crate) front: &'c [Pair],
    /// Where this search keeps its own front.
    pub(crate) next: &'c mut Vec<Pair>,
}

/// The farthest any point within `reach` of B's origin moved between two poses of B:
/// `|Δt| + θ reach` bounds it, `θ` the angle of the turn between them.
fn displacement(from: &RelativePose, to: &RelativePose, reach: Real) -> Real {
    let cos = ((from.rotation.tr_mul(&to.rotation).trace() - 1.0) * 0.5).clamp(-1.0, 1.0);
    (to.translation - from.translation).norm() + cos.acos() * reach
}
