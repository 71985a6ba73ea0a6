//! Two [`Hierarchy`] values, whose node volumes are chosen at run time: queried directly
//! ([`HierarchyQuery`]), or by generic work of the caller's ([`TreePairVisitor`]); the nine
//! pairings are matched here once, and every call is still monomorphised per pairing.

use crate::answers::{Contact, NearPair, TrianglePair};
use crate::containment::Containment;
use crate::distance::DistanceOptions;
use crate::impact::Impact;
use crate::node_test::NodeTest;
use crate::query::{Posed, Query, QueryOptions};
use crate::regions::{ContactRegion, Surfaces};
use crate::sweeps::SweepError;
use crate::{PairCache, Stats};
use bvh_build::{Bvh, Hierarchy, NodeVolume};
use bvh_core::{Aabb, Interpolation, Isometry, Obb, PoseError, Real, RelativePose, Sphere};
use std::borrow::Borrow;

/// Work to run on two trees of any node volumes.
pub trait TreePairVisitor {
    /// What the work returns.
    type Output;

    /// Runs the work on A's tree and B's tree.
    fn visit<VA, VB>(self, a: &Bvh<VA>, b: &Bvh<VB>) -> Self::Output
    where
        VA: NodeVolume + NodeTest<VB>,
        VB: NodeVolume;
}

/// Runs `visitor` on the trees inside `a` and `b`.
pub fn visit_tree_pair<V: TreePairVisitor>(a: &Hierarchy, b: &Hierarchy, visitor: V) -> V::Output {
    use Hierarchy::{Aabb as A, Obb as O, Sphere as S};
    match (a, b) {
        (O(a), O(b)) => visitor.visit(a, b),
        (O(a), A(b)) => visitor.visit(a, b),
        (O(a), S(b)) => visitor.visit(a, b),
        (A(a), O(b)) => visitor.visit(a, b),
        (A(a), A(b)) => visitor.visit(a, b),
        (A(a), S(b)) => visitor.visit(a, b),
        (S(a), O(b)) => visitor.visit(a, b),
        (S(a), A(b)) => visitor.visit(a, b),
        (S(a), S(b)) => visitor.visit(a, b),
    }
}

/// The queries between two [`Hierarchy`] values, whose node volumes were chosen at run time
/// (a `CollisionWorld`'s objects, a preset picked from a file): the calls of [`Query`], with the
/// pairing matched once, when the query is made, and each call monomorphised behind it.
pub enum HierarchyQuery<'a> {
    /// OBB nodes on both sides.
    ObbObb(Query<'a, Obb, Obb>),
    /// OBB against AABB nodes.
    ObbAabb(Query<'a, Obb, Aabb>),
    /// OBB against sphere nodes.
    ObbSphere(Query<'a, Obb, Sphere>),
    /// AABB against OBB nodes.
    AabbObb(Query<'a, Aabb, Obb>),
    /// AABB nodes on both sides.
    AabbAabb(Query<'a, Aabb, Aabb>),
    /// AABB against sphere nodes.
    AabbSphere(Query<'a, Aabb, Sphere>),
    /// Sphere against OBB nodes.
    SphereObb(Query<'a, Sphere, Obb>),
    /// Sphere against AABB nodes.
    SphereAabb(Query<'a, Sphere, Aabb>),
    /// Sphere nodes on both sides.
    SphereSphere(Query<'a, Sphere, Sphere>),
}

/// `$body` with `$q` bound to the query inside, whatever its pairing.
macro_rules! each_pairing {
    ($query:expr, $q:ident => $body:expr) => {
        match $query {
            HierarchyQuery::ObbObb($q) => $body,
            HierarchyQuery::ObbAabb($q) => $body,
            HierarchyQuery::ObbSphere($q) => $body,
            HierarchyQuery::AabbObb($q) => $body,
            HierarchyQuery::AabbAabb($q) => $body,
            HierarchyQuery::AabbSphere($q) => $body,
            HierarchyQuery::SphereObb($q) => $body,
            HierarchyQuery::SphereAabb($q) => $body,
            HierarchyQuery::SphereSphere($q) => $body,
        }
    };
}

impl<'a> HierarchyQuery<'a> {
    /// The query between `a` at `pose_a` and `b` at `pose_b` (see [`Query::new`]: poses that
    /// place B nowhere make every query answer "nothing").
    pub fn new(
        a: &'a Hierarchy,
        pose_a: impl Borrow<Isometry>,
        b: &'a Hierarchy,
        pose_b: impl Borrow<Isometry>,
        options: QueryOptions,
    ) -> Self {
        use Hierarchy::{Aabb as A, Obb as O, Sphere as S};
        let (pa, pb) = (*pose_a.borrow(), *pose_b.borrow());
        // Placed once, before the pairing is matched: inside each arm, the nine copies of the
        // pose's arithmetic made every query slower.
        let b_in_a = RelativePose::checked_between(&pa, &pb);
        macro_rules! query {
            ($variant:ident, $a:expr, $b:expr) => {
                Self::$variant(Query::with_placement(Posed::new($a, pa), Posed::new($b, pb), b_in_a, options))
            };
        }
        match (a, b) {
            (O(a), O(b)) => query!(ObbObb, a, b),
            (O(a), A(b)) => query!(ObbAabb, a, b),
            (O(a), S(b)) => query!(ObbSphere, a, b),
            (A(a), O(b)) => query!(AabbObb, a, b),
            (A(a), A(b)) => query!(AabbAabb, a, b),
            (A(a), S(b)) => query!(AabbSphere, a, b),
            (S(a), O(b)) => query!(SphereObb, a, b),
            (S(a), A(b)) => query!(SphereAabb, a, b),
            (S(a), S(b)) => query!(SphereSphere, a, b),
        }
    }

    /// [`HierarchyQuery::new`], refusing poses that would place B nowhere (see
    /// [`Query::try_new`]).
    pub fn try_new(
        a: &'a Hierarchy,
        pose_a: impl Borrow<Isometry>,
        b: &'a Hierarchy,
        pose_b: impl Borrow<Isometry>,
        options: QueryOptions,
    ) -> Result<Self, PoseError> {
        let query = Self::new(a, pose_a, b, pose_b, options);
        query.pose_error().map_or(Ok(query), Err)
    }

    /// [`Query::pose_error`].
    pub fn pose_error(&self) -> Option<PoseError> {
        each_pairing!(self, q => q.pose_error())
    }

    /// [`Query::intersects`].
    pub fn intersects(&self) -> Option<TrianglePair> {
        each_pairing!(self, q => q.intersects())
    }

    /// [`Query::intersects_cached`].
    pub fn intersects_cached(&self, cache: &mut PairCache) -> Option<TrianglePair> {
        each_pairing!(self, q => q.intersects_cached(cache))
    }

    /// [`Query::intersects_counted`].
    pub fn intersects_counted(
        &self,
        cache: Option<&mut PairCache>,
        stats: &mut impl Stats,
    ) -> Option<TrianglePair> {
        each_pairing!(self, q => q.intersects_counted(cache, stats))
    }

    /// [`Query::intersecting_pairs`].
    pub fn intersecting_pairs(&self) -> Vec<TrianglePair> {
        each_pairing!(self, q => q.intersecting_pairs())
    }

    /// [`Query::intersecting_pairs_counted`].
    pub fn intersecting_pairs_counted(&self, stats: &mut impl Stats) -> Vec<TrianglePair> {
        each_pairing!(self, q => q.intersecting_pairs_counted(stats))
    }

    /// [`Query::intersecting_pairs_parallel`].
    pub fn intersecting_pairs_parallel(&self) -> Vec<TrianglePair> {
        each_pairing!(self, q => q.intersecting_pairs_parallel())
    }

    /// [`Query::contacts`].
    pub fn contacts(&self) -> Vec<Contact> {
        each_pairing!(self, q => q.contacts())
    }

    /// [`Query::contacts_counted`].
    pub fn contacts_counted(&self, stats: &mut impl Stats) -> Vec<Contact> {
        each_pairing!(self, q => q.contacts_counted(stats))
    }

    /// [`Query::contacts_parallel`].
    pub fn contacts_parallel(&self) -> Vec<Contact> {
        each_pairing!(self, q => q.contacts_parallel())
    }

    /// [`Query::pairs_within`].
    pub fn pairs_within(&self, clearance: Real) -> Vec<NearPair> {
        each_pairing!(self, q => q.pairs_within(clearance))
    }

    /// [`Query::pairs_within_counted`].
    pub fn pairs_within_counted(&self, clearance: Real, stats: &mut impl Stats) -> Vec<NearPair> {
        each_pairing!(self, q => q.pairs_within_counted(clearance, stats))
    }

    /// [`Query::distance`].
    pub fn distance(&self, options: DistanceOptions) -> Option<NearPair> {
        each_pairing!(self, q => q.distance(options))
    }

    /// [`Query::distance_cached`].
    pub fn distance_cached(&self, options: DistanceOptions, cache: &mut PairCache) -> Option<NearPair> {
        each_pairing!(self, q => q.distance_cached(options, cache))
    }

    /// [`Query::distance_counted`].
    pub fn distance_counted(
        &self,
        options: DistanceOptions,
        cache: Option<&mut PairCache>,
        stats: &mut impl Stats,
    ) -> Option<NearPair> {
        each_pairing!(self, q => q.distance_counted(options, cache, stats))
    }

    /// [`Query::contact_regions`].
    pub fn contact_regions(&self, surfaces: Surfaces) -> Vec<ContactRegion> {
        each_pairing!(self, q => q.contact_regions(surfaces))
    }

    /// [`Query::contact_regions_counted`].
    pub fn contact_regions_counted(&self, surfaces: Surfaces, stats: &mut impl Stats) -> Vec<ContactRegion> {
        each_pairing!(self, q => q.contact_regions_counted(surfaces, stats))
    }

    /// [`Query::contact_regions_parallel`].
    pub fn contact_regions_parallel(&self, surfaces: Surfaces) -> Vec<ContactRegion> {
        each_pairing!(self, q => q.contact_regions_parallel(surfaces))
    }

    /// [`Query::time_of_impact`].
    pub fn time_of_impact(
        &self,
        end: &Isometry,
        interpolation: Interpolation,
        tolerance: Real,
    ) -> Result<Option<Impact>, SweepError> {
        each_pairing!(self, q => q.time_of_impact(end, interpolation, tolerance))
    }

    /// [`Query::time_of_impact_counted`].
    pub fn time_of_impact_counted(
        &self,
        end: &Isometry,
        interpolation: Interpolation,
        tolerance: Real,
        stats: &mut impl Stats,
    ) -> Result<Option<Impact>, SweepError> {
        each_pairing!(self, q => q.time_of_impact_counted(end, interpolation, tolerance, stats))
    }

    /// [`Query::swept_intersects`].
    pub fn swept_intersects(&self, end: &Isometry) -> Result<Option<TrianglePair>, SweepError> {
        each_pairing!(self, q => q.swept_intersects(end))
    }

    /// [`Query::swept_intersects_counted`].
    pub fn swept_intersects_counted(
        &self,
        end: &Isometry,
        stats: &mut impl Stats,
    ) -> Result<Option<TrianglePair>, SweepError> {
        each_pairing!(self, q => q.swept_intersects_counted(end, stats))
    }

    /// [`Query::sweep_within`].
    pub fn sweep_within(&self, end: &Isometry, tolerance: Real) -> Result<Option<NearPair>, SweepError> {
        each_pairing!(self, q => q.sweep_within(end, tolerance))
    }

    /// [`Query::sweep_within_counted`].
    pub fn sweep_within_counted(
        &self,
        end: &Isometry,
        tolerance: Real,
        stats: &mut impl Stats,
    ) -> Result<Option<NearPair>, SweepError> {
        each_pairing!(self, q => q.sweep_within_counted(end, tolerance, stats))
    }

    /// [`Query::containment`].
    pub fn containment(&self) -> Containment {
        each_pairing!(self, q => q.containment())
    }

    /// [`Query::containment_counted`].
    pub fn containment_counted(&self, stats: &mut impl Stats) -> Containment {
        each_pairing!(self, q => q.containment_counted(stats))
    }
}
