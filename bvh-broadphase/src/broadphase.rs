//! The broadphase every strategy sits behind: object ids, box validation, and the set of
//! overlapping pairs kept from step to step, so that moving a few objects costs work for those
//! objects only.
//!
//! The strategy indexes each box grown by a margin (its *fat* box, as Box2D's tree does) and
//! finds the pairs of fat boxes that overlap, the candidates. While every box stays inside its
//! fat box, the overlapping pairs are among the candidates, so an update re-tests candidates
//! instead of re-indexing – the moved objects' own when few moved, all of them when many did;
//! only the objects that left their fat boxes are re-indexed.

use crate::candidate_lists::CandidateLists;
use crate::pair_set::{Pair, PairSet, ordered};
use crate::strategy::{Boxes, Strategy};
use crate::{BruteForce, HierarchicalGrid, Octree, UniformGrid};
use bvh_core::bits::set_bits;
use bvh_core::parallel::prelude::*;
use bvh_core::{Aabb, Real};

/// An object of a broadphase (ids of removed objects are reused).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjectId(pub(crate) u32);

impl ObjectId {
    /// The id as an index (ids are dense: `0..` the most objects ever live at once).
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The id with this index (the `k`-th object inserted into a broadphase that never removed
    /// one has index `k`); an index past every id names no object.
    pub fn from_index(index: usize) -> Self {
        Self(u32::try_from(index).unwrap_or(u32::MAX))
    }
}

impl std::fmt::Display for ObjectId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// Why a broadphase refused a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BroadphaseError {
    /// A box with a NaN or infinite coordinate, or with a minimum above its maximum.
    #[error("the box has a non-finite coordinate or a minimum above its maximum")]
    InvalidBox,
    /// The id names no live object.
    #[error("object {0} does not exist")]
    UnknownObject(ObjectId),
    /// A pose given to a [`CollisionWorld`](crate::CollisionWorld) with a NaN or infinite
    /// component, or one placing the object beyond `f32` range.
    #[error("the pose has a NaN or infinite component, or places the object beyond f32 range")]
    NonFinitePose,
    /// More objects than ids (2^32 - 1).
    #[error("too many objects")]
    TooManyObjects,
}

/// By default an update rebuilds the index instead of patching it object by object once
/// `reindexed × (DENSITY_WEIGHT + candidates per object) > REBUILD_SHARE × objects`, where the
/// objects to re-index are those that left their fat boxes, came or went: re-indexing costs
/// about one neighbourhood query per object, and a crowded scene's queries cost more, so it pays
/// to rebuild sooner (crossovers measured with no margin, where the candidates are the pairs: a
/// fifth of the objects with two per object, a ninth with ten).
const DENSITY_WEIGHT: Real = 8.0;
/// Re-indexed objects per parallel task of their neighbourhood queries.
const QUERY_CHUNK: usize = 256;
const REBUILD_SHARE: Real = 2.0;
/// The default margin of a fat box, in units of the box's largest extent.
const DEFAULT_MARGIN: Real = 0.2;
/// Above one changed object in this many, an update re-tests every candidate pair rather than
/// only those of the changed objects.
const RETEST_ALL_FROM: usize = 8;
/// Candidate pairs per parallel task of a re-test.
const RETEST_CHUNK: usize = 1 << 15;
/// From this many object ids, the boxes outgrow a core's share of the cache and a re-test
/// starts reading the boxes of the candidate [`PREFETCH_AHEAD`] places on before testing
/// each: the tests then wait on fewer random reads (below, the hints cost more than they save).
const PREFETCH_FROM: usize = 32_768;
const PREFETCH_AHEAD: usize = 16;

/// Overlapping pairs of object boxes, kept up to date as objects come, go and move.
///
/// The strategy is a type parameter (`Broadphase<HierarchicalGrid>`, the default, fast whether
/// few or all objects move; `Broadphase<UniformGrid>` and `Broadphase<Octree>`, the papers'
/// strategies; `Broadphase<BruteForce>`) or chosen at run time with
/// [`AnyStrategy`](crate::AnyStrategy); nothing else changes. Boxes are closed: touching boxes
/// overlap. Each update also reports the pairs that started and stopped overlapping since the
/// previous one ([`Overlaps::started`], [`Overlaps::stopped`]).
///
/// ```
/// use bvh_broadphase::{Broadphase, Octree};
/// use bvh_core::{Aabb, Point};
///
/// let unit = |x: f32| Aabb::new(Point::new(x, 0.0, 0.0), Point::new(x + 1.0, 1.0, 1.0));
/// let mut broadphase: Broadphase<Octree> = Broadphase::default();
/// let a = broadphase.insert(unit(0.0)).unwrap();
/// let b = broadphase.insert(unit(3.0)).unwrap();
/// assert_eq!(broadphase.update().pairs().count(), 0);
/// broadphase.set_box(b, unit(1.0)).unwrap(); // now touching a
/// assert_eq!(broadphase.update().pairs().collect::<Vec<_>>(), vec![(a, b)]);
/// ```
#[derive(Clone, Debug)]
pub struct Broadphase<S = HierarchicalGrid> {
    strategy: S,
    /// Each object's box (`Aabb::EMPTY`: a free id; boxes given are never empty), without an
    /// option's tag, so that a re-test of the candidates reads two boxes and tests them.
    boxes: Vec<Aabb>,
    /// Each object's fat box: its box when last indexed, grown by the margin; the strategy
    /// indexes these (`None`: not indexed).
    fat: Vec<Option<Aabb>>,
    /// The fat boxes' growth, in units of a box's largest extent.
    margin: Real,
    /// Every pair of overlapping fat boxes once, smaller id first, unless `stale`: what an
    /// update where many objects moved re-tests.
    candidates: Vec<Pair>,
    /// The candidates changed since `candidates` was last brought up to date (`lists` hold them).
    stale: bool,
    /// The candidates object by object, with where their pairs sit, when current: what an
    /// update where a few objects moved re-tests. Either these or `candidates` are current.
    lists: CandidateLists,
    /// Ids free to reuse.
    free: Vec<u32>,
    /// Ids removed since the last update: reused only after it, so that a pair reported as
    /// started or stopped always names the objects it was between.
    removed: Vec<u32>,
    pairs: PairSet,
    /// Ids inserted, moved or removed since the last update, once each (`changed[id]` marks
    /// them). Nothing is re-indexed before the update, so a burst of moves costs one rebuild.
    pending: Vec<u32>,
    changed: Vec<bool>,
    /// The changed ids whose fat box must change at this update (inserted, removed, or moved
    /// out of it), once each (`escaped[id]` marks them).
    escapes: Vec<u32>,
    escaped: Vec<bool>,
    /// The strategy has never indexed anything.
    fresh: bool,
    live: usize,
    /// Rebuild when more than this fraction changed; `None`: by the density rule above.
    rebuild_fraction: Option<Real>,
    found: Vec<Pair>,
}

impl<S: Strategy + Default> Default for Broadphase<S> {
    fn default() -> Self {
        Self::new(S::default())
    }
}

impl<S: Strategy> Broadphase<S> {
    /// An empty broadphase over the given strategy.
    pub fn new(strategy: S) -> Self {
        Self {
            strategy,
            boxes: Vec::new(),
            fat: Vec::new(),
            margin: DEFAULT_MARGIN,
            candidates: Vec::new(),
            stale: false,
            lists: CandidateLists::default(),
            free: Vec::new(),
            removed: Vec::new(),
            pairs: PairSet::default(),
            pending: Vec::new(),
            changed: Vec::new(),
            escapes: Vec::new(),
            escaped: Vec::new(),
            fresh: true,
            live: 0,
            rebuild_fraction: None,
            found: Vec::new(),
        }
    }

    /// Sets the fraction of objects to re-index (changed, and with fat boxes outside them) above
    /// which an update rebuilds the index instead of updating it object by object. By default
    /// the fraction adapts to how crowded the scene is: a fifth of the objects with about two
    /// overlaps each, a ninth with about ten. Results are the same either way.
    pub fn with_rebuild_fraction(mut self, fraction: Real) -> Self {
        self.rebuild_fraction = Some(fraction);
        self
    }

    /// Sets how far each box is grown for the index, in units of its largest extent (0.2 by
    /// default; negative or NaN is 0). A box that moves but stays inside its grown box is not
    /// re-indexed, only its candidate pairs are tested again: a larger margin re-indexes less
    /// often under steady motion and tests more candidates. Results are the same whatever the
    /// margin.
    pub fn with_margin(mut self, margin: Real) -> Self {
        self.margin = margin.max(0.0);
        self
    }

    /// The strategy.
    pub fn strategy(&self) -> &S {
        &self.strategy
    }

    /// Number of objects.
    pub fn len(&self) -> usize {
        self.live
    }

    /// `true` when there are no objects.
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// An object's box.
    pub fn aabb(&self, id: ObjectId) -> Option<&Aabb> {
        self.boxes.get(id.index()).filter(|b| !b.is_empty())
    }

    /// Adds an object with this box.
    pub fn insert(&mut self, aabb: Aabb) -> Result<ObjectId, BroadphaseError> {
        check(&aabb)?;
        let id = match self.free.pop() {
            Some(id) => id,
            None => {
                let id = u32::try_from(self.boxes.len()).map_err(|_| BroadphaseError::TooManyObjects)?;
                if id == u32::MAX {
                    return Err(BroadphaseError::TooManyObjects);
                }
                self.boxes.push(Aabb::EMPTY);
                self.fat.push(None);
                self.changed.push(false);
                self.escaped.push(false);
                id
            }
        };
        self.boxes[id as usize] = aabb;
        self.live += 1;
        self.mark(id);
        Ok(ObjectId(id))
    }

    /// Moves an object's box. Costs nothing until the next update.
    pub fn set_box(&mut self, id: ObjectId, aabb: Aabb) -> Result<(), BroadphaseError> {
        check(&aabb)?;
        *self.live_slot(id)? = aabb;
        self.mark(id.0);
        Ok(())
    }

    /// The box of a live object, to change.
    fn live_slot(&mut self, id: ObjectId) -> Result<&mut Aabb, BroadphaseError> {
        self.boxes.get_mut(id.index()).filter(|b| !b.is_empty()).ok_or(BroadphaseError::UnknownObject(id))
    }

    /// Removes an object and its pairs, returning its box. Its id is reused after the next
    /// update.
    pub fn remove(&mut self, id: ObjectId) -> Result<Aabb, BroadphaseError> {
        let old = std::mem::replace(self.live_slot(id)?, Aabb::EMPTY);
        self.removed.push(id.0);
        self.live -= 1;
        self.mark(id.0);
        Ok(old)
    }

    /// The objects whose boxes come within `margin` of object `id`'s (its box grown by `margin`
    /// on every side meets theirs), sorted; the index is brought up to date first (an update:
    /// pending changes become that update's started and stopped pairs). A negative or NaN
    /// margin is zero.
    pub fn near(&mut self, id: ObjectId, margin: Real) -> Result<Vec<ObjectId>, BroadphaseError> {
        let aabb = *self.aabb(id).ok_or(BroadphaseError::UnknownObject(id))?;
        self.update();
        let grown = aabb.inflated(margin.max(0.0));
        // The index holds fat boxes: ask around the object's fat box too (every box that meets
        // `grown` has a fat box meeting the union), then keep the true neighbours.
        let around = self.fat[id.index()].map_or(grown, |fat| fat.merged(&grown));
        let mut near = Vec::new();
        let boxes = &self.boxes;
        self.strategy.for_each_overlap(id.0, &around, &self.fat, &mut |j| {
            if boxes[j as usize].intersects(&grown) {
                near.push(ObjectId(j));
            }
        });
        near.sort_unstable();
        Ok(near)
    }

    /// Brings the pairs up to date with every insert, move and removal since the last update.
    pub fn update(&mut self) -> Overlaps<'_> {
        self.find_escapes();
        let (escaped, live) = (self.escapes.len() as Real, self.live as Real);
        let many_escaped = match self.rebuild_fraction {
            Some(fraction) => escaped > fraction * live,
            None => {
                let candidates_per_object = 2.0 * self.candidates.len() as Real / live.max(1.0);
                escaped * (DENSITY_WEIGHT + candidates_per_object) > REBUILD_SHARE * live
            }
        };
        let many_changed = self.pending.len() * RETEST_ALL_FROM > self.live
            || !CandidateLists::can_hold(self.pairs.pairs().len());
        if self.fresh || many_escaped || self.strategy.needs_rebuild() {
            self.rebuild();
            self.retest_all();
        } else if self.pending.is_empty() {
            self.pairs.unchanged();
        } else if many_changed {
            if self.stale {
                self.lists.flatten(&mut self.candidates);
                self.stale = false;
            }
            self.reindex_escapes();
            self.update_candidates();
            self.retest_all();
        } else {
            if !self.lists.is_current() {
                self.lists.derive(&self.candidates, self.pairs.pairs(), self.boxes.len());
            }
            self.reindex_escapes();
            self.update_lists();
        }
        for id in self.pending.drain(..) {
            self.changed[id as usize] = false;
        }
        for id in self.escapes.drain(..) {
            self.escaped[id as usize] = false;
        }
        self.free.append(&mut self.removed);
        Overlaps { pairs: &self.pairs, ids: self.boxes.len() }
    }

    fn mark(&mut self, id: u32) {
        if !std::mem::replace(&mut self.changed[id as usize], true) {
            self.pending.push(id);
        }
    }

    /// Lists the changed objects whose fat box no longer holds their box (or that came or went).
    fn find_escapes(&mut self) {
        let (boxes, fat, escaped) = (&self.boxes[..], &self.fat[..], &mut self.escaped[..]);
        for &id in &self.pending {
            let i = id as usize;
            let inside = fat[i].is_some_and(|fat| !boxes[i].is_empty() & fat.contains(&boxes[i]));
            if !inside {
                escaped[i] = true;
                self.escapes.push(id);
            }
        }
    }

    /// Indexes the escaped objects again, with new fat boxes.
    fn reindex_escapes(&mut self) {
        // All out before any comes back in: a strategy may move indexed boxes around while
        // inserting (an octree split), and must then find each at its indexed place.
        for &id in &self.escapes {
            if let Some(old) = self.fat[id as usize].take() {
                self.strategy.remove(id, &old);
            }
        }
        for &id in &self.escapes {
            self.fat[id as usize] = fattened(&self.boxes[id as usize], self.margin);
            if self.fat[id as usize].is_some() {
                self.strategy.insert(id, &self.fat);
            }
        }
    }

    /// Replaces the escaped objects' candidate pairs in the list of every candidate.
    fn update_candidates(&mut self) {
        if self.escapes.is_empty() {
            return;
        }
        let mut found = std::mem::take(&mut self.found);
        self.find_around(&mut found);
        // Each candidate written and the count advanced only if kept: no branch per candidate.
        // Through local slices, not `self`'s vectors, whose pointers each write would reload.
        let (escaped, list) = (&self.escaped[..], &mut self.candidates[..]);
        let mut kept = 0;
        for k in 0..list.len() {
            let (a, b) = list[k];
            list[kept] = (a, b);
            kept += usize::from(!(escaped[a as usize] | escaped[b as usize]));
        }
        self.candidates.truncate(kept);
        self.candidates.extend_from_slice(&found);
        self.found = found;
    }

    /// The pairs are the candidates whose boxes overlap (in the candidates' order, so the
    /// same for any thread count).
    fn retest_all(&mut self) {
        let mut found = std::mem::take(&mut self.found);
        found.clear();
        let boxes = &self.boxes;
        in_chunks(&self.candidates, RETEST_CHUNK, &mut found, |run, out| keep_overlapping(run, boxes, out));
        self.pairs.replace(&mut found);
        self.found = found;
        self.lists.invalidate();
    }

    /// Brings the changed objects' candidates and pairs up to date object by object: the
    /// escaped objects' candidates are found again around their new fat boxes, the others'
    /// are re-tested.
    fn update_lists(&mut self) {
        self.lists.grow(self.boxes.len());
        for &id in &self.escapes {
            self.lists.forget(id, &mut self.pairs);
        }
        let mut found = std::mem::take(&mut self.found);
        self.find_around(&mut found);
        for &(a, b) in &found {
            let overlap = self.boxes[a as usize].intersects(&self.boxes[b as usize]);
            self.lists.add((a, b), overlap, &mut self.pairs);
        }
        self.found = found;
        for &id in &self.pending {
            if !self.escaped[id as usize] {
                self.lists.retest(id, &self.boxes, &mut self.pairs);
            }
        }
        self.pairs.edited();
        self.stale |= !self.escapes.is_empty();
    }

    /// Sets `found` to every pair of an escaped object with an indexed object whose fat box
    /// meets its fat box, once each, in the order of the escapes (the same for any thread
    /// count).
    fn find_around(&self, found: &mut Vec<Pair>) {
        found.clear();
        let escaped = &self.escaped;
        let query = |ids: &[u32], found: &mut Vec<Pair>| {
            for &id in ids {
                if let Some(fat) = self.fat[id as usize] {
                    // A pair of two escaped objects is found from both: kept from the smaller.
                    self.strategy.for_each_overlap(id, &fat, &self.fat, &mut |j| {
                        if !(escaped[j as usize] && j < id) {
                            found.push(ordered(id, j));
                        }
                    });
                }
            }
        };
        in_chunks(&self.escapes, QUERY_CHUNK, found, query);
    }

    /// Gives every object a fresh fat box and finds every candidate pair again.
    fn rebuild(&mut self) {
        for (fat, aabb) in self.fat.iter_mut().zip(&self.boxes) {
            *fat = fattened(aabb, self.margin);
        }
        self.candidates.clear();
        self.strategy.rebuild(&self.fat, &mut self.candidates);
        self.fresh = false;
        self.stale = false;
    }
}

/// Runs `work` over `items`, on several threads in chunks of `chunk` when there are at least two
/// chunks, and appends what it finds to `found` in the items' order (the same for any thread
/// count).
fn in_chunks<T: Sync>(
    items: &[T],
    chunk: usize,
    found: &mut Vec<Pair>,
    work: impl Fn(&[T], &mut Vec<Pair>) + Sync,
) {
    if items.len() >= 2 * chunk && bvh_core::parallel::current_num_threads() > 1 {
        let parts: Vec<Vec<Pair>> = items
            .par_chunks(chunk)
            .map(|items| {
                let mut part = Vec::new();
                work(items, &mut part);
                part
            })
            .collect();
        parts.iter().for_each(|part| found.extend_from_slice(part));
    } else {
        work(items, found);
    }
}

/// Appends to `found` the `candidates` whose boxes overlap, in their order.
fn keep_overlapping(candidates: &[Pair], boxes: &[Aabb], found: &mut Vec<Pair>) {
    if boxes.len() >= PREFETCH_FROM {
        keep_overlapping_reading_ahead::<PREFETCH_AHEAD>(candidates, boxes, found);
    } else {
        keep_overlapping_reading_ahead::<0>(candidates, boxes, found);
    }
}

/// [`keep_overlapping`], starting to read the boxes of the candidate `AHEAD` places on (if not
/// 0) before testing each.
fn keep_overlapping_reading_ahead<const AHEAD: usize>(
    candidates: &[Pair],
    boxes: &[Aabb],
    found: &mut Vec<Pair>,
) {
    // Whether two boxes meet is a coin toss to the branch predictor: a run of tests sets the
    // bits of a mask without branching, then the pairs of its set bits are kept.
    for (first, run) in (0..).step_by(64).zip(candidates.chunks(64)) {
        let mut meet = 0u64;
        for (bit, &(a, b)) in run.iter().enumerate() {
            if AHEAD > 0 {
                if let Some(&(c, d)) = candidates.get(first + bit + AHEAD) {
                    bvh_core::prefetch(&boxes[c as usize]);
                    bvh_core::prefetch(&boxes[d as usize]);
                }
            }
            meet |= u64::from(boxes[a as usize].intersects(&boxes[b as usize])) << bit;
        }
        found.extend(set_bits(meet).map(|k| run[k]));
    }
}

/// The box grown on every side by `margin` times its largest extent, in `f64` and kept within
/// the `f32` range, so a box out at the ends of the range still gets a finite fat box holding it
/// (with no margin, the box itself: its coordinates round-trip through `f64`); `None` for a
/// free id's empty box.
fn fattened(aabb: &Aabb, margin: Real) -> Option<Aabb> {
    if aabb.is_empty() {
        return None;
    }
    let extent = (0..3).map(|d| aabb.maxs[d] as f64 - aabb.mins[d] as f64).fold(0.0, f64::max);
    let grow = extent * margin as f64;
    let limit = Real::MAX as f64;
    let mins = aabb.mins.map(|c| (c as f64 - grow).max(-limit) as Real);
    let maxs = aabb.maxs.map(|c| (c as f64 + grow).min(limit) as Real);
    Some(Aabb::new(mins, maxs))
}

/// The overlapping pairs after an update, and what the update changed.
#[derive(Clone, Copy, Debug)]
pub struct Overlaps<'a> {
    pairs: &'a PairSet,
    ids: usize,
}

impl<'a> Overlaps<'a> {
    /// Every overlapping pair `(a, b)` once, `a < b`, in no particular order (the same for the
    /// same updates, whatever the thread count).
    pub fn pairs(self) -> impl ExactSizeIterator<Item = (ObjectId, ObjectId)> + 'a {
        as_ids(self.pairs.pairs())
    }

    /// The pairs that overlap now and did not at the previous update (or were not both live),
    /// sorted: the pair changes a physics step consumes. After a rebuild the first call compares
    /// the two pair lists; after an update of a few objects the changes are known already.
    pub fn started(self) -> impl ExactSizeIterator<Item = (ObjectId, ObjectId)> + 'a {
        as_ids(self.pairs.started())
    }

    /// The pairs that overlapped at the previous update and do not now (or whose object was
    /// removed), sorted.
    pub fn stopped(self) -> impl ExactSizeIterator<Item = (ObjectId, ObjectId)> + 'a {
        as_ids(self.pairs.stopped())
    }

    /// The objects overlapping `id`, sorted (none for an unknown id). The first call after an
    /// update derives every object's list from the pairs.
    pub fn neighbours(self, id: ObjectId) -> impl ExactSizeIterator<Item = ObjectId> + 'a {
        self.pairs.neighbours(id.0, self.ids).iter().map(|&j| ObjectId(j))
    }
}

fn as_ids(pairs: &[Pair]) -> impl ExactSizeIterator<Item = (ObjectId, ObjectId)> + '_ {
    pairs.iter().map(|&(a, b)| (ObjectId(a), ObjectId(b)))
}

fn check(aabb: &Aabb) -> Result<(), BroadphaseError> {
    let finite = aabb.mins.iter().chain(aabb.maxs.iter()).all(|c| c.is_finite());
    if finite && !aabb.is_empty() { Ok(()) } else { Err(BroadphaseError::InvalidBox) }
}

/// A strategy chosen at run time (from a configuration file or a command line).
#[derive(Clone, Debug)]
pub enum AnyStrategy {
    /// [`HierarchicalGrid`].
    Hierarchical(HierarchicalGrid),
    /// [`UniformGrid`].
    Grid(UniformGrid),
    /// [`Octree`].
    Octree(Octree),
    /// [`BruteForce`].
    Brute(BruteForce),
}

impl Default for AnyStrategy {
    fn default() -> Self {
        Self::Hierarchical(HierarchicalGrid::default())
    }
}

impl AnyStrategy {
    /// The strategy named `hierarchical`, `grid`, `octree` or `brute`, with default settings.
    pub fn by_name(name: &str) -> Option<Self> {
        match name {
            "hierarchical" => Some(Self::Hierarchical(HierarchicalGrid::default())),
            "grid" => Some(Self::Grid(UniformGrid::default())),
            "octree" => Some(Self::Octree(Octree::default())),
            "brute" => Some(Self::Brute(BruteForce)),
            _ => None,
        }
    }
}

macro_rules! delegate {
    ($self:ident, $s:ident => $call:expr) => {
        match $self {
            AnyStrategy::Hierarchical($s) => $call,
            AnyStrategy::Grid($s) => $call,
            AnyStrategy::Octree($s) => $call,
            AnyStrategy::Brute($s) => $call,
        }
    };
}

impl Strategy for AnyStrategy {
    fn rebuild(&mut self, boxes: &Boxes, pairs: &mut Vec<(u32, u32)>) {
        delegate!(self, s => s.rebuild(boxes, pairs))
    }

    fn insert(&mut self, id: u32, boxes: &Boxes) {
        delegate!(self, s => s.insert(id, boxes))
    }

    fn remove(&mut self, id: u32, aabb: &Aabb) {
        delegate!(self, s => s.remove(id, aabb))
    }

    fn for_each_overlap(&self, id: u32, aabb: &Aabb, boxes: &Boxes, found: &mut dyn FnMut(u32)) {
        delegate!(self, s => s.for_each_overlap(id, aabb, boxes, found))
    }

    fn needs_rebuild(&self) -> bool {
        delegate!(self, s => s.needs_rebuild())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bvh_core::{Point, Vector};
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The re-test keeps exactly the overlapping candidates, in order, whether it reads ahead
    /// (many ids) or not, and up to the last candidate (none left to read ahead of).
    #[test]
    fn a_retest_keeps_the_overlapping_candidates_in_order() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for ids in [1000, PREFETCH_FROM + 1000] {
            let span = (4.0 * ids as Real).cbrt();
            let mut coordinate = |range: Real| rng.gen_range(-range..range);
            // Unit boxes in twos, the second shifted from the first by up to 1.2 per axis: about
            // half the twos overlap.
            let boxes: Vec<Aabb> = (0..ids / 2)
                .flat_map(|_| {
                    let min = Point::new(coordinate(span), coordinate(span), coordinate(span));
                    let shift = Vector::new(coordinate(1.2), coordinate(1.2), coordinate(1.2));
                    let first = Aabb::new(min, min + Vector::repeat(1.0));
                    [first, Aabb::new(first.mins + shift, first.maxs + shift)]
                })
                .collect();
            let mut candidates: Vec<Pair> = (0..ids as u32 / 2).map(|k| (2 * k, 2 * k + 1)).collect();
            candidates.extend(
                (0..ids).map(|_| ordered(rng.gen_range(0..ids as u32), rng.gen_range(0..ids as u32))),
            );
            candidates.shuffle(&mut rng);
            let expected: Vec<Pair> = candidates
                .iter()
                .copied()
                .filter(|&(a, b)| boxes[a as usize].intersects(&boxes[b as usize]))
                .collect();
            assert!(expected.len() > ids / 8, "{} overlapping of {}", expected.len(), candidates.len());
            let mut found = Vec::new();
            keep_overlapping(&candidates, &boxes, &mut found);
            assert_eq!(found, expected, "{ids} ids");
        }
    }
}
