//! The scene pipeline: objects (shared hierarchies with poses) go through the broadphase, the
//! root-volume test and the exact query, pair by pair in parallel, each pair with its own cache.

use crate::HierarchicalGrid;
use crate::broadphase::{Broadphase, BroadphaseError, ObjectId};
use crate::strategy::Strategy;
use bvh_build::{Bvh, Hierarchy, NodeVolume};
use bvh_core::parallel::prelude::*;
use bvh_core::{Aabb, Interpolation, Isometry, Real, RigidMotion, pose_is_finite, rounding_slack};
use bvh_query::{
    Contact, ContactRegion, DistanceOptions, HierarchyQuery, Impact, Moving, NearPair, NodeTest, PairCache,
    QueryOptions, QueryStats, Stats, Surfaces, SweepError, TreePairVisitor, TrianglePair, time_of_impact,
    visit_tree_pair,
};
use std::collections::HashMap;
use std::sync::Arc;

/// Whether an object moves. Two static objects are never tested against each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mobility {
    /// Never tested against other static objects.
    Static,
    /// Tested against everything.
    Dynamic,
}

/// How much a step reports about each colliding pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ContactDetail {
    /// One intersecting triangle pair per colliding object pair: the query stops at the first,
    /// and a per-pair cache tries last step's pair first.
    #[default]
    First,
    /// Every intersecting triangle pair with where the triangles meet.
    All,
    /// The pairs grouped into contact regions, each with a normal, a depth and up to four
    /// contact points: what a physics step's solver takes (`Query::contact_regions`).
    Regions(Surfaces),
}

/// A scene object: a hierarchy (shared: a thousand identical bolts share one), a pose and
/// whether it moves.
#[derive(Clone, Debug)]
pub struct Object {
    /// The object's hierarchy, in its own frame.
    pub shape: Arc<Hierarchy>,
    /// Where it is.
    pub pose: Isometry,
    /// Whether it moves.
    pub mobility: Mobility,
}

/// Two objects whose meshes intersect.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, PartialEq)]
pub struct Collision {
    /// The object with the smaller id (the query's A).
    pub a: ObjectId,
    /// The other object.
    pub b: ObjectId,
    /// An intersecting triangle pair (with [`ContactDetail::All`] and
    /// [`ContactDetail::Regions`], the smallest).
    pub first: TrianglePair,
    /// Every intersecting triangle pair and where it meets, in world coordinates, sorted by
    /// pair (only with [`ContactDetail::All`]; empty otherwise).
    pub contacts: Vec<Contact>,
    /// The contact regions, sorted by their first pair (only with [`ContactDetail::Regions`];
    /// empty otherwise).
    pub regions: Vec<ContactRegion>,
}

/// How close another object comes to one object.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clearance {
    /// The other object.
    pub other: ObjectId,
    /// Their distance (zero when they touch), the nearest triangle pair and a closest point on
    /// each in world coordinates, the object as A and the other as B.
    pub nearest: NearPair,
}

/// Two objects that come within the tolerance of each other during a continuous step.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ImpactPair {
    /// The object with the smaller id (the time of impact's A).
    pub a: ObjectId,
    /// The other object.
    pub b: ObjectId,
    /// When in the step (`t ∈ [0, 1]`), the nearest triangle pair then, the point and the
    /// normal (from A towards B), in world coordinates.
    pub impact: Impact,
}

/// Why a continuous step was refused (nothing moved).
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum StepError {
    /// An unknown object, or a new pose with a NaN or infinite component.
    #[error(transparent)]
    Broadphase(#[from] BroadphaseError),
    /// A tolerance that is not a positive finite distance above the rounding of the poses.
    #[error(transparent)]
    Sweep(#[from] SweepError),
}

/// What a step did, to explain its time.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StepStats {
    /// Object pairs the broadphase handed to the exact query (static-static pairs excluded).
    pub candidate_pairs: usize,
    /// Object pairs found colliding.
    pub colliding_pairs: usize,
    /// The queries' work, summed over all candidate pairs.
    pub query: QueryStats,
}

/// Objects in a scene and, each step, which of them collide and where.
///
/// ```
/// use std::sync::Arc;
/// use bvh_broadphase::{CollisionWorld, Mobility, Octree};
/// use bvh_build::{Hierarchy, Preset};
/// use bvh_core::{Isometry, Point, TriMesh};
///
/// let ball = Arc::new(Hierarchy::build(TriMesh::uv_sphere(Point::origin(), 1.0, 8, 16), &Preset::co()));
/// // `CollisionWorld::new()` is a world over the default strategy (the hierarchical grid).
/// let mut world = CollisionWorld::<Octree>::default();
/// let fixed = world.insert(ball.clone(), Isometry::identity(), Mobility::Static).unwrap();
/// let moving = world.insert(ball, Isometry::translation(5.0, 0.0, 0.0), Mobility::Dynamic).unwrap();
/// assert!(world.step().is_empty());
/// world.set_pose(moving, Isometry::translation(1.5, 0.0, 0.0)).unwrap();
/// let collisions = world.step();
/// assert_eq!((collisions[0].a, collisions[0].b), (fixed, moving));
/// ```
#[derive(Debug)]
pub struct CollisionWorld<S = HierarchicalGrid> {
    broadphase: Broadphase<S>,
    objects: Vec<Option<Object>>,
    caches: HashMap<(ObjectId, ObjectId), PairCache>,
    /// Per (object, other) asked for clearance: the nearest pair found last time.
    clearance_caches: HashMap<(ObjectId, ObjectId), PairCache>,
    options: QueryOptions,
    detail: ContactDetail,
}

impl<S: Strategy + Default> Default for CollisionWorld<S> {
    fn default() -> Self {
        Self::with_broadphase(Broadphase::default())
    }
}

impl CollisionWorld {
    /// An empty world over the default broadphase strategy: no type to name (`default()` would
    /// need one, as the strategy is a type parameter).
    pub fn new() -> Self {
        Self::default()
    }
}

impl<S: Strategy> CollisionWorld<S> {
    /// An empty world over this broadphase.
    pub fn with_broadphase(broadphase: Broadphase<S>) -> Self {
        Self {
            broadphase,
            objects: Vec::new(),
            caches: HashMap::new(),
            clearance_caches: HashMap::new(),
            options: QueryOptions::default(),
            detail: ContactDetail::default(),
        }
    }

    /// Sets how the exact queries run.
    pub fn with_options(mut self, options: QueryOptions) -> Self {
        self.options = options;
        self
    }

    /// Sets how much each step reports per colliding pair.
    pub fn with_detail(mut self, detail: ContactDetail) -> Self {
        self.detail = detail;
        self
    }

    /// The broadphase.
    pub fn broadphase(&self) -> &Broadphase<S> {
        &self.broadphase
    }

    /// An object.
    pub fn get(&self, id: ObjectId) -> Option<&Object> {
        self.objects.get(id.index())?.as_ref()
    }

    /// Number of objects.
    pub fn len(&self) -> usize {
        self.broadphase.len()
    }

    /// `true` when there are no objects.
    pub fn is_empty(&self) -> bool {
        self.broadphase.is_empty()
    }

    /// Adds an object. A pose with a NaN or infinite component is refused
    /// ([`BroadphaseError::NonFinitePose`]). An object with an empty mesh is kept and never
    /// collides.
    pub fn insert(
        &mut self,
        shape: Arc<Hierarchy>,
        pose: Isometry,
        mobility: Mobility,
    ) -> Result<ObjectId, BroadphaseError> {
        check_pose(&shape, &pose)?;
        let id = self.broadphase.insert(world_box(&shape, &pose))?;
        if self.objects.len() <= id.index() {
            self.objects.resize(id.index() + 1, None);
        }
        self.objects[id.index()] = Some(Object { shape, pose, mobility });
        Ok(id)
    }

    /// Moves an object; a pose with a NaN or infinite component is refused
    /// ([`BroadphaseError::NonFinitePose`]) and the object stays where it was.
    pub fn set_pose(&mut self, id: ObjectId, pose: Isometry) -> Result<(), BroadphaseError> {
        let object = self
            .objects
            .get_mut(id.index())
            .and_then(Option::as_mut)
            .ok_or(BroadphaseError::UnknownObject(id))?;
        check_pose(&object.shape, &pose)?;
        self.broadphase.set_box(id, world_box(&object.shape, &pose))?;
        object.pose = pose;
        Ok(())
    }

    /// Removes an object and every cache of its pairs.
    pub fn remove(&mut self, id: ObjectId) -> Result<Object, BroadphaseError> {
        self.broadphase.remove(id)?;
        let object = self.objects[id.index()].take().ok_or(BroadphaseError::UnknownObject(id))?;
        self.caches.retain(|&(a, b), _| a != id && b != id);
        self.clearance_caches.retain(|&(a, b), _| a != id && b != id);
        Ok(object)
    }

    /// The objects within `margin` of object `id`, nearest first, each with its distance and
    /// closest points: "what does the part come within 5 cm of, and where". The broadphase
    /// finds the objects whose boxes come within the margin; each is measured exactly
    /// (`Query::distance` with the margin as its limit, in parallel, with a cache per pair that
    /// remembers the nearest pair for the next call). A negative or NaN margin is zero.
    pub fn clearance(&mut self, id: ObjectId, margin: Real) -> Result<Vec<Clearance>, BroadphaseError> {
        let margin = margin.max(0.0);
        // Boxes grown by the margin and the rounding of placing the objects.
        let near = self.broadphase.near(id, margin * (1.0 + 4.0 * Real::EPSILON))?;
        let mut work: Vec<_> = near
            .into_iter()
            .map(|other| (other, self.clearance_caches.remove(&(id, other)).unwrap_or_default()))
            .collect();
        self.clearance_caches.retain(|&(a, _), _| a != id);
        let (objects, options) = (&self.objects, self.options);
        let object = live(objects, id);
        let distance = DistanceOptions::exact().within(margin);
        let mut found: Vec<Clearance> = work
            .par_iter_mut()
            .filter_map(|(other, cache)| {
                let o = live(objects, *other);
                let query = HierarchyQuery::new(&object.shape, object.pose, &o.shape, o.pose, options);
                let nearest = query.distance_cached(distance, cache)?;
                Some(Clearance { other: *other, nearest })
            })
            .collect();
        self.clearance_caches.extend(work.into_iter().map(|(other, cache)| ((id, other), cache)));
        found.sort_by(|x, y| x.nearest.distance.total_cmp(&y.nearest.distance).then(x.other.cmp(&y.other)));
        Ok(found)
    }

    /// Moves the objects in `moves` from their poses to the new ones along `interpolation`
    /// (the others stay), and reports every pair that comes within `tolerance` on the way, with
    /// its time of impact: so fast objects do not pass through each other between steps. Each
    /// moving object's broadphase box covers its whole motion (its start and end boxes, grown by
    /// how far a turn bends its points' paths); every candidate pair gets
    /// [`bvh_query::time_of_impact`] with both objects moving, in parallel. The pairs come
    /// sorted by time, then by ids; the objects end at their new poses. As in
    /// [`CollisionWorld::step`], two static objects are never tested against each other.
    ///
    /// An unknown object, a non-finite pose or a tolerance that is not a positive finite
    /// distance refuses the step before anything moves; a tolerance within the rounding of a
    /// candidate pair's coordinates (see [`bvh_query::time_of_impact`]) is an error once the
    /// objects have moved.
    pub fn step_continuous(
        &mut self,
        moves: &[(ObjectId, Isometry)],
        interpolation: Interpolation,
        tolerance: Real,
    ) -> Result<Vec<ImpactPair>, StepError> {
        if !(tolerance.is_finite() && tolerance > 0.0) {
            return Err(SweepError::Tolerance.into());
        }
        let mut motions: HashMap<ObjectId, RigidMotion> = HashMap::new();
        for &(id, end) in moves {
            let object = self.get(id).ok_or(BroadphaseError::UnknownObject(id))?;
            check_pose(&object.shape, &end)?;
            let motion = RigidMotion::new(&object.pose, &end, interpolation).map_err(SweepError::from)?;
            motions.insert(id, motion);
        }
        for (&id, motion) in &motions {
            let shape = &live(&self.objects, id).shape;
            self.broadphase.set_box(id, swept_box(shape, motion))?;
        }
        let candidates = self.candidates();
        let (objects, options) = (&self.objects, self.options);
        let motion_of = |id: ObjectId| {
            motions.get(&id).copied().unwrap_or_else(|| {
                let pose = live(objects, id).pose;
                RigidMotion::new(&pose, &pose, Interpolation::Slerp).expect("the world's poses are finite")
            })
        };
        let answers: Vec<Result<Option<ImpactPair>, SweepError>> = candidates
            .into_par_iter()
            .map(|(a, b)| {
                let (motion_a, motion_b) = (motion_of(a), motion_of(b));
                let pair = PairImpact { motion_a: &motion_a, motion_b: &motion_b, tolerance, options };
                let impact = visit_tree_pair(&live(objects, a).shape, &live(objects, b).shape, pair)?;
                Ok(impact.map(|impact| ImpactPair { a, b, impact }))
            })
            .collect();
        // The motions end where they were asked to, whatever the pairs answered.
        for (&id, motion) in &motions {
            let end = *motion.end();
            let object = self.objects[id.index()].as_mut().expect("checked above");
            self.broadphase.set_box(id, world_box(&object.shape, &end))?;
            object.pose = end;
        }
        let mut impacts = answers.into_iter().filter_map(Result::transpose).collect::<Result<Vec<_>, _>>()?;
        impacts.sort_by(|x, y| x.impact.time.total_cmp(&y.impact.time).then((x.a, x.b).cmp(&(y.a, y.b))));
        Ok(impacts)
    }

    /// The colliding object pairs, sorted by `(a, b)`.
    pub fn step(&mut self) -> Vec<Collision> {
        self.run::<()>().0
    }

    /// [`CollisionWorld::step`], also counting the work done.
    pub fn step_counted(&mut self) -> (Vec<Collision>, StepStats) {
        let (collisions, candidate_pairs, query) = self.run::<QueryStats>();
        let colliding_pairs = collisions.len();
        (collisions, StepStats { candidate_pairs, colliding_pairs, query })
    }

    /// The candidate pairs: every broadphase pair with a dynamic object, once, sorted.
    fn candidates(&mut self) -> Vec<(ObjectId, ObjectId)> {
        let objects = &self.objects;
        let is_dynamic =
            |id: ObjectId| objects[id.index()].as_ref().is_some_and(|o| o.mobility == Mobility::Dynamic);
        let mut pairs: Vec<_> =
            self.broadphase.update().pairs().filter(|&(a, b)| is_dynamic(a) || is_dynamic(b)).collect();
        pairs.sort_unstable();
        pairs
    }

    fn run<T: Tally>(&mut self) -> (Vec<Collision>, usize, T) {
        let candidates = self.candidates();
        let detail = self.detail;
        let mut work: Vec<_> = candidates
            .into_iter()
            .map(|pair| {
                let cache = match detail {
                    ContactDetail::First => self.caches.remove(&pair).unwrap_or_default(),
                    ContactDetail::All | ContactDetail::Regions(_) => PairCache::new(),
                };
                (pair, cache)
            })
            .collect();
        self.caches.clear();
        let (objects, options) = (&self.objects, self.options);
        let answers: Vec<(Option<Collision>, T)> = work
            .par_iter_mut()
            .map(|((a, b), cache)| {
                let (oa, ob) = (live(objects, *a), live(objects, *b));
                let mut tally = T::default();
                let found = exact_pair(oa, ob, options, detail, cache, &mut tally);
                let collision = found.map(|(first, contacts, regions)| Collision {
                    a: *a,
                    b: *b,
                    first,
                    contacts,
                    regions,
                });
                (collision, tally)
            })
            .collect();
        let count = work.len();
        if detail == ContactDetail::First {
            self.caches.extend(work);
        }
        let mut total = T::default();
        let mut collisions = Vec::new();
        for (found, tally) in answers {
            total.add(tally);
            collisions.extend(found);
        }
        (collisions, count, total)
    }
}

fn live(objects: &[Option<Object>], id: ObjectId) -> &Object {
    objects[id.index()].as_ref().expect("the broadphase only knows live objects")
}

/// The box the broadphase sees: the root volume's world box, grown so rounding in the
/// transform can never make it smaller than the mesh – also where a large translation cancels
/// large local coordinates (the local points lie within the world box's reach plus the
/// translation, so that bounds every magnitude the transform met).
fn world_box(shape: &Hierarchy, pose: &Isometry) -> Aabb {
    let world = shape.root().world_aabb(pose);
    let shift = pose.translation.vector.norm();
    world.inflated(rounding_slack(world.reach() + 2.0 * shift))
}

/// Refuses a pose with a non-finite component, or one the broadphase could not place the object
/// at.
fn check_pose(shape: &Hierarchy, pose: &Isometry) -> Result<(), BroadphaseError> {
    let aabb = world_box(shape, pose);
    let corners = aabb.mins.iter().chain(aabb.maxs.iter());
    if pose_is_finite(pose) && corners.into_iter().all(|c| c.is_finite()) {
        Ok(())
    } else {
        Err(BroadphaseError::NonFinitePose)
    }
}

/// A box holding the object all along `motion`: every point lies, at every `t`, within the
/// motion's deviation bound of the segment between where it starts and where it ends, and that
/// segment lies in the box around the start and end boxes.
fn swept_box(shape: &Hierarchy, motion: &RigidMotion) -> Aabb {
    let (start, end) = (world_box(shape, motion.start()), world_box(shape, motion.end()));
    let reach = shape.root().world_aabb(&Isometry::identity()).reach();
    start.merged(&end).inflated(motion.deviation_bound(reach) as Real * (1.0 + 4.0 * Real::EPSILON))
}

/// Statistics a step can sum over pairs run on different threads.
trait Tally: Stats + Default + Send {
    fn add(&mut self, other: Self);
}

impl Tally for () {
    fn add(&mut self, _: Self) {}
}

impl Tally for QueryStats {
    fn add(&mut self, other: Self) {
        *self += other;
    }
}

/// One candidate pair's time of impact, both objects moving.
struct PairImpact<'a> {
    motion_a: &'a RigidMotion,
    motion_b: &'a RigidMotion,
    tolerance: Real,
    options: QueryOptions,
}

impl TreePairVisitor for PairImpact<'_> {
    type Output = Result<Option<Impact>, SweepError>;

    fn visit<VA, VB>(self, a: &Bvh<VA>, b: &Bvh<VB>) -> Self::Output
    where
        VA: NodeVolume + NodeTest<VB>,
        VB: NodeVolume,
    {
        let (a, b) = (Moving::new(a, self.motion_a), Moving::new(b, self.motion_b));
        time_of_impact(a, b, self.tolerance, self.options, &mut ())
    }
}

/// One candidate pair's exact query, for whichever node volumes the two objects have.
fn exact_pair<T: Stats>(
    a: &Object,
    b: &Object,
    options: QueryOptions,
    detail: ContactDetail,
    cache: &mut PairCache,
    stats: &mut T,
) -> Option<(TrianglePair, Vec<Contact>, Vec<ContactRegion>)> {
    // The world keeps only poses whose boxes are finite, margin for twice the translation
    // included, so B's pose in A's frame is finite too: the query places both.
    let query = HierarchyQuery::new(&a.shape, a.pose, &b.shape, b.pose, options);
    match detail {
        ContactDetail::First => {
            query.intersects_counted(Some(cache), stats).map(|first| (first, Vec::new(), Vec::new()))
        }
        ContactDetail::All => {
            let contacts = query.contacts_counted(stats);
            Some((contacts.first()?.pair, contacts, Vec::new()))
        }
        ContactDetail::Regions(surfaces) => {
            let regions = query.contact_regions_counted(surfaces, stats);
            Some((*regions.first()?.pairs.first()?, Vec::new(), regions))
        }
    }
}
