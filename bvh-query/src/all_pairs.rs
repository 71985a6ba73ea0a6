//! Every intersecting triangle pair, optionally with where the triangles meet, and every pair
//! within a clearance distance; in one traversal or split across threads.

use crate::answers::{Contact, NearPair, TrianglePair};
use crate::node_test::NodeTest;
use crate::query::Query;
use crate::radix::sort_by_key;
use crate::stats::Stats;
use bvh_build::NodeVolume;
use bvh_core::{
    Point, Real, Segment, Triangle, TriangleIntersection, closest_points_triangles, triangle_intersection,
    triangles_intersect,
};

impl<'a, VA, VB> Query<'a, VA, VB>
where
    VA: NodeVolume + NodeTest<VB>,
    VB: NodeVolume,
{
    /// Every intersecting triangle pair (see [`Query::intersecting_pairs_counted`]).
    pub fn intersecting_pairs(&self) -> Vec<TrianglePair> {
        self.intersecting_pairs_counted(&mut ())
    }

    /// Every intersecting triangle pair, sorted.
    pub fn intersecting_pairs_counted(&self, stats: &mut impl Stats) -> Vec<TrianglePair> {
        self.sorted_pairs(self.collect(0.0, stats, |at, ta, tb| triangles_intersect(ta, tb).then_some(at)))
    }

    /// The user's indices of the triangle pairs at these leaf-order positions, sorted. Looked up
    /// after the traversal, in one pass whose loads do not wait on each other, rather than at
    /// each find, where every lookup was a cache miss the traversal waited for.
    fn sorted_pairs(&self, at: Vec<[usize; 2]>) -> Vec<TrianglePair> {
        let mut out: Vec<_> = at.into_iter().map(|at| self.triangle_pair(at)).collect();
        sort_by_key(&mut out, TrianglePair::key);
        out
    }

    /// Every intersecting triangle pair with where it meets (see [`Query::contacts_counted`]).
    pub fn contacts(&self) -> Vec<Contact> {
        self.contacts_counted(&mut ())
    }

    /// Every intersecting triangle pair with its intersection in world coordinates, sorted by
    /// pair.
    pub fn contacts_counted(&self, stats: &mut impl Stats) -> Vec<Contact> {
        let mut out = self.collect(0.0, stats, |at, ta, tb| self.contact(at, ta, tb));
        sort_by_key(&mut out, |c| c.pair.key());
        out
    }

    /// Where the triangles at leaf-order positions `at` (given in A's frame) meet, in world
    /// coordinates.
    fn contact(&self, at: [usize; 2], ta: &Triangle, tb: &Triangle) -> Option<Contact> {
        let to_world = |p: &Point| self.a.pose * p;
        let intersection = match triangle_intersection(ta, tb)? {
            TriangleIntersection::Segment(s) => {
                TriangleIntersection::Segment(Segment::new(to_world(&s.a), to_world(&s.b)))
            }
            TriangleIntersection::Polygon(p) => TriangleIntersection::Polygon(p.mapped(to_world)),
        };
        Some(Contact { pair: self.triangle_pair(at), intersection })
    }

    /// Every triangle pair within `clearance`, with distances and closest points (see
    /// [`Query::pairs_within_counted`]).
    pub fn pairs_within(&self, clearance: Real) -> Vec<NearPair> {
        self.pairs_within_counted(clearance, &mut ())
    }

    /// Every triangle pair at most `clearance` apart (intersecting ones included, at distance
    /// zero), sorted by pair: "does the wrench keep 5 mm from the pipe". No pair is within a
    /// negative or NaN clearance; every pair is within an infinite one.
    pub fn pairs_within_counted(&self, clearance: Real, stats: &mut impl Stats) -> Vec<NearPair> {
        let mut out = self.collect(clearance.max(0.0), stats, |at, ta, tb| {
            let c = closest_points_triangles(ta, tb);
            (c.distance <= clearance).then(|| NearPair {
                pair: self.triangle_pair(at),
                distance: c.distance,
                on_a: self.a.pose * c.on_a,
                on_b: self.a.pose * c.on_b,
            })
        });
        sort_by_key(&mut out, |n| n.pair.key());
        out
    }

    /// [`Query::intersecting_pairs`] with the traversal split across rayon's threads: for one
    /// very large pair (two meshes deep inside each other). Same answer; no statistics.
    pub fn intersecting_pairs_parallel(&self) -> Vec<TrianglePair> {
        self.sorted_pairs(self.collect_parallel(|at, ta, tb| triangles_intersect(ta, tb).then_some(at)))
    }

    /// [`Query::contacts`] with the traversal split across rayon's threads. Same answer; no
    /// statistics.
    pub fn contacts_parallel(&self) -> Vec<Contact> {
        let mut out = self.collect_parallel(|at, ta, tb| self.contact(at, ta, tb));
        sort_by_key(&mut out, |c| c.pair.key());
        out
    }
}
