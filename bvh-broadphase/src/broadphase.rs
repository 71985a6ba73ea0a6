//! The broadphase every strategy sits behind: object ids, box validation, and the set of
//! overlapping pairs kept from step to step, so that moving a few objects costs work for those
//! objects only.

use crate::pair_set::{Pair, PairSet};
use crate::strategy::{Boxes, Strategy};
use crate::{BruteForce, HierarchicalGrid, Octree, UniformGrid};
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
/// `changed × (DENSITY_WEIGHT + pairs per object) > REBUILD_SHARE × objects`: patching costs
/// about one neighbourhood query per changed object, and a crowded scene's queries cost more,
/// so it pays to rebuild sooner (measured crossovers: a fifth of the objects changed with two
/// pairs per object, a ninth with ten).
const DENSITY_WEIGHT: Real = 8.0;
/// Changed objects per parallel task of a patch's neighbourhood queries.
const QUERY_CHUNK: usize = 256;
const REBUILD_SHARE: Real = 2.0;

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
    /// Each object's box (`None`: a free id).
    boxes: Vec<Option<Aabb>>,
    /// Each object's box as the strategy indexed it at the last update.
    indexed: Vec<Option<Aabb>>,
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
            indexed: Vec::new(),
            free: Vec::new(),
            removed: Vec::new(),
            pairs: PairSet::default(),
            pending: Vec::new(),
            changed: Vec::new(),
            fresh: true,
            live: 0,
            rebuild_fraction: None,
            found: Vec::new(),
        }
    }

    /// Sets the fraction of changed objects above which an update rebuilds the index instead of
    /// updating it object by object. By default the fraction adapts to how crowded the scene
    /// is: a fifth of the objects with about two overlaps each, a ninth with about ten. Results
    /// are the same either way.
    pub fn with_rebuild_fraction(mut self, fraction: Real) -> Self {
        self.rebuild_fraction = Some(fraction);
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
        self.boxes.get(id.index())?.as_ref()
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
                self.boxes.push(None);
                self.indexed.push(None);
                self.changed.push(false);
                id
            }
        };
        self.boxes[id as usize] = Some(aabb);
        self.live += 1;
        self.mark(id);
        Ok(ObjectId(id))
    }

    /// Moves an object's box. Costs nothing until the next update.
    pub fn set_box(&mut self, id: ObjectId, aabb: Aabb) -> Result<(), BroadphaseError> {
        check(&aabb)?;
        let slot = self
            .boxes
            .get_mut(id.index())
            .and_then(Option::as_mut)
            .ok_or(BroadphaseError::UnknownObject(id))?;
        *slot = aabb;
        self.mark(id.0);
        Ok(())
    }

    /// Removes an object and its pairs, returning its box. Its id is reused after the next
    /// update.
    pub fn remove(&mut self, id: ObjectId) -> Result<Aabb, BroadphaseError> {
        let old = self
            .boxes
            .get_mut(id.index())
            .and_then(Option::take)
            .ok_or(BroadphaseError::UnknownObject(id))?;
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
        let mut near = Vec::new();
        self.strategy.for_each_overlap(id.0, &grown, &self.boxes, &mut |j| near.push(ObjectId(j)));
        near.sort_unstable();
        Ok(near)
    }

    /// Brings the pairs up to date with every insert, move and removal since the last update.
    pub fn update(&mut self) -> Overlaps<'_> {
        let (changed, live) = (self.pending.len() as Real, self.live as Real);
        let many = match self.rebuild_fraction {
            Some(fraction) => changed > fraction * live,
            None => {
                let pairs_per_object = 2.0 * self.pairs.pairs().len() as Real / live.max(1.0);
                changed * (DENSITY_WEIGHT + pairs_per_object) > REBUILD_SHARE * live
            }
        };
        if self.fresh || many || self.strategy.needs_rebuild() {
            self.rebuild();
        } else if self.pending.is_empty() {
            self.pairs.unchanged();
        } else {
            self.patch_pending();
        }
        for id in self.pending.drain(..) {
            self.changed[id as usize] = false;
        }
        self.free.append(&mut self.removed);
        Overlaps { pairs: &self.pairs, ids: self.boxes.len() }
    }

    fn mark(&mut self, id: u32) {
        if !std::mem::replace(&mut self.changed[id as usize], true) {
            self.pending.push(id);
        }
    }

    /// Re-indexes the changed objects and replaces every pair touching them.
    fn patch_pending(&mut self) {
        // All out before any comes back in: a strategy may move indexed boxes around while
        // inserting (an octree split), and must then find each at its indexed place.
        for &id in &self.pending {
            if let Some(old) = self.indexed[id as usize].take() {
                self.strategy.remove(id, &old);
            }
        }
        for &id in &self.pending {
            self.indexed[id as usize] = self.boxes[id as usize];
            if self.boxes[id as usize].is_some() {
                self.strategy.insert(id, &self.boxes);
            }
        }
        let mut found = std::mem::take(&mut self.found);
        found.clear();
        let (strategy, boxes) = (&self.strategy, &self.boxes);
        let query = |ids: &[u32], found: &mut Vec<Pair>| {
            for &id in ids {
                if let Some(aabb) = boxes[id as usize] {
                    strategy.for_each_overlap(id, &aabb, boxes, &mut |j| found.push(ordered(id, j)));
                }
            }
        };
        if self.pending.len() >= 2 * QUERY_CHUNK && bvh_core::parallel::current_num_threads() > 1 {
            let parts: Vec<Vec<Pair>> = self
                .pending
                .par_chunks(QUERY_CHUNK)
                .map(|ids| {
                    let mut part = Vec::new();
                    query(ids, &mut part);
                    part
                })
                .collect();
            parts.iter().for_each(|part| found.extend_from_slice(part));
        } else {
            query(&self.pending, &mut found);
        }
        // A pair of two changed objects is found from both; sorted, the order is the same for
        // any thread count.
        found.sort_unstable();
        found.dedup();
        let changed = &self.changed;
        self.pairs.patch(&found, |id| changed[id as usize]);
        self.found = found;
    }

    fn rebuild(&mut self) {
        let mut found = std::mem::take(&mut self.found);
        found.clear();
        self.strategy.rebuild(&self.boxes, &mut found);
        self.indexed.copy_from_slice(&self.boxes);
        self.pairs.replace(&mut found);
        self.found = found;
        self.fresh = false;
    }
}

/// `(a, b)` smaller first.
fn ordered(a: u32, b: u32) -> Pair {
    (a.min(b), a.max(b))
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
