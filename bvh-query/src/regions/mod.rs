//! Contact regions: the intersecting triangle pairs grouped into the places where the meshes
//! meet, each with one normal, one depth and a few contact points – what a solver or a haptic
//! loop can use, and stable when the meshes are tessellated differently.

mod farthest;
mod inside;
mod key_table;

use crate::answers::TrianglePair;
use crate::node_test::NodeTest;
use crate::query::Query;
use crate::radix::sort_by_key;
use crate::stats::Stats;
use bvh_build::NodeVolume;
use bvh_core::parallel::prelude::*;
use bvh_core::parallel::{in_pool, join};
use bvh_core::{
    CoplanarPolygon, EdgeCrossings, Point, QuickSet, Real, Triangle, TriangleIntersection, UnionFind, Vector,
    triangle_intersection_with_edges,
};
use farthest::Farthest;
pub(crate) use inside::Flood;
use inside::{Insides, Scratch};
use key_table::KeyTable;
use std::ops::Range;

/// What the meshes' surfaces enclose, which decides what lies inside the other mesh.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Surfaces {
    /// Closed (watertight) meshes: a vertex is inside the other mesh by the parity of a ray's
    /// crossings, and a region's depth reaches every vertex of each mesh that lies inside the
    /// other around the region. A mesh that is not closed after all (some edge not shared by
    /// an even number of triangles, see [`bvh_build::Bvh::is_closed`]) has no inside: nothing
    /// of the other mesh is found in it, as under [`Surfaces::Open`].
    #[default]
    Closed,
    /// Open surfaces enclose nothing: a region's depth comes from its intersection curve alone.
    Open,
}

/// A chain of intersection segments, in world coordinates.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, PartialEq)]
pub struct Polyline {
    /// The points in order along the chain.
    pub points: Vec<Point>,
    /// Whether the last point joins the first.
    pub closed: bool,
}

/// One place where the meshes meet.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, PartialEq)]
pub struct ContactRegion {
    /// The intersecting triangle pairs of the region, sorted.
    pub pairs: Vec<TrianglePair>,
    /// The intersection curve: the pairs' segments chained end to end.
    pub curve: Vec<Polyline>,
    /// The unit direction in which moving B separates it from A here (world frame).
    pub normal: Vector,
    /// How far B must move along `normal` to separate here (zero for surfaces that only touch).
    pub depth: Real,
    /// The point of A's part of the region farthest along `normal`.
    pub deepest_on_a: Point,
    /// The point of B's part of the region least far along `normal`.
    pub deepest_on_b: Point,
    /// Up to four points of the intersection spanning the region (the corners of a solver's
    /// contact manifold), in world coordinates.
    pub points: Vec<Point>,
    /// The area where the surfaces overlap in a plane (coplanar triangles), zero otherwise.
    pub area: Real,
}

impl ContactRegion {
    /// The mean of the contact points: where to apply, or draw, the region's normal.
    pub fn centre(&self) -> Point {
        let sum = self.points.iter().fold(Vector::zeros(), |s, p| s + p.coords);
        Point::from(sum / self.points.len().max(1) as Real)
    }
}

/// The intersecting pairs from which [`Query::contact_regions_parallel`] builds the regions on
/// several threads.
const SPLIT_REGIONS_FROM: usize = 512;

/// The intersecting pairs from which [`Query::contact_regions_parallel`], its traversal done on
/// the caller's thread, takes the regions to rayon's pool: getting there and back wakes a pool
/// thread and then the caller, which costs more than the regions of a few thousand pairs save
/// on two threads.
const REGIONS_TO_POOL_FROM: usize = 4096;

/// An intersecting pair found by the traversal: leaf-order positions, where they meet (in A's
/// frame), and which edges pass through the other triangle.
struct Found {
    at: [usize; 2],
    meet: Meet,
    edges: Option<EdgeCrossings>,
}

/// Where a found pair's triangles meet. A coplanar overlap is rare and six points large: kept
/// aside, so the pairs the traversal gathers and the regions read stay small.
enum Meet {
    Segment([Point; 2]),
    Polygon(Box<CoplanarPolygon>),
}

impl Meet {
    /// The end points of a segment, or a coplanar overlap's corners.
    fn ends(&self) -> &[Point] {
        match self {
            Meet::Segment(ends) => ends,
            Meet::Polygon(p) => p.vertices(),
        }
    }
}

impl Found {
    /// The pair of triangles `ta`, `tb` (B's placed in A's frame) at leaf-order positions `at`,
    /// if they intersect.
    fn of(at: [usize; 2], ta: &Triangle, tb: &Triangle) -> Option<Self> {
        triangle_intersection_with_edges(ta, tb).map(|(meet, edges)| {
            let meet = match meet {
                TriangleIntersection::Segment(s) => Meet::Segment([s.a, s.b]),
                TriangleIntersection::Polygon(p) => Meet::Polygon(Box::new(p)),
            };
            Self { at, meet, edges }
        })
    }
}

impl<VA, VB> Query<'_, VA, VB>
where
    VA: NodeVolume + NodeTest<VB>,
    VB: NodeVolume,
{
    /// The intersecting pairs grouped into contact regions (see
    /// [`Query::contact_regions_counted`]).
    pub fn contact_regions(&self, surfaces: Surfaces) -> Vec<ContactRegion> {
        self.contact_regions_counted(surfaces, &mut ())
    }

    /// The intersecting triangle pairs grouped into contact regions, each with its curve,
    /// normal, depth and contact points (see `docs/regions.md`). Two intersecting pairs belong
    /// to one region when their triangles share a corner point (or are the same) on both
    /// meshes, or when their intersections share a point (up to rounding); regions are the
    /// connected groups. Regions come sorted by their first pair.
    pub fn contact_regions_counted(&self, surfaces: Surfaces, stats: &mut impl Stats) -> Vec<ContactRegion> {
        let found = self.collect(0.0, stats, Found::of);
        self.regions_of(found, surfaces, false)
    }

    /// [`Query::contact_regions`] with the traversal, and the regions, split across rayon's
    /// threads: for meshes deep inside each other. Each is split only where it is large – the
    /// traversal from [`QueryOptions::split_from`](crate::QueryOptions::split_from), the
    /// regions from 512 intersecting pairs where the traversal was split, 4,096 where it was
    /// not – and done on this thread otherwise. The same regions; no statistics.
    pub fn contact_regions_parallel(&self, surfaces: Surfaces) -> Vec<ContactRegion> {
        // Once on the pool's threads for the whole of the split work: from this thread, every
        // join would wait for a pool thread to wake and take it.
        if self.splits_traversal() {
            return in_pool(|| {
                let found = self.collect_parallel(Found::of);
                let split = found.len() >= SPLIT_REGIONS_FROM;
                self.regions_of(found, surfaces, split)
            });
        }
        let found = self.collect(0.0, &mut (), Found::of);
        if found.len() < REGIONS_TO_POOL_FROM {
            return self.regions_of(found, surfaces, false);
        }
        in_pool(|| self.regions_of(found, surfaces, true))
    }

    /// The regions of the intersecting pairs `found`, in the order the traversal finds them
    /// (one order whatever the number of threads: the same curves, points and ties every time).
    fn regions_of(&self, found: Vec<Found>, surfaces: Surfaces, parallel: bool) -> Vec<ContactRegion> {
        if found.is_empty() {
            return Vec::new();
        }
        let snapped_ends = || self.snapped_ends(&found);
        // What of A lies inside B, and of B inside A: only inside a closed mesh (the caller's
        // word for both, and each mesh's own edges).
        let find_inside = [self.b.bvh.is_closed(), self.a.bvh.is_closed()]
            .map(|closed| surfaces == Surfaces::Closed && closed);
        let insides = || {
            (find_inside[0] || find_inside[1]).then(|| {
                let pairs = found.iter().map(|f| (f.at, f.edges));
                Insides::new(self.a.bvh, self.b.bvh, self.b_in_a, pairs, find_inside, parallel)
            })
        };
        // The inside finder needs only the pairs: beside the snapping.
        let ((snap, ends), insides) =
            if parallel { join(snapped_ends, insides) } else { (snapped_ends(), insides()) };
        let snapped = Snapped { found: &found, ends: &ends, points: &snap.points };
        let groups = self.groups(&snapped);
        // Per thread: the inside finder's sets, and each snapped point's place in its region.
        let scratch = || {
            let inside = insides.as_ref().map(|insides| (insides, insides.scratch()));
            (inside, vec![u32::MAX; snap.points.len()])
        };
        let region = |(inside, place): &mut (Option<_>, Vec<u32>), g: usize| {
            self.region(&snapped, groups.get(g), inside.as_mut().map(|(i, s)| (*i, s)), place)
        };
        let mut regions: Vec<ContactRegion> = if parallel {
            (0..groups.len()).into_par_iter().map_init(scratch, region).collect()
        } else {
            let mut scratch = scratch();
            (0..groups.len()).map(|g| region(&mut scratch, g)).collect()
        };
        regions.sort_by(|x, y| x.pairs.first().cmp(&y.pairs.first()));
        regions
    }

    /// Every intersection's ends numbered once, ends within the placement rounding as one:
    /// where neighbouring pairs' segments meet, for the grouping and the curves alike.
    fn snapped_ends(&self, found: &[Found]) -> (Snap, Runs<usize>) {
        // About one point per pair: most ends are shared by two pairs.
        let mut snap = Snap::new(self.placement_slack(0.0), found.len());
        let mut ends = Runs::with_capacity(found.len(), 2 * found.len());
        for f in found {
            ends.items.extend(f.meet.ends().iter().map(|&p| snap.id(p)));
            ends.close();
        }
        (snap, ends)
    }

    /// The found pairs' indices grouped into regions: pairs whose intersections share a point
    /// joined, and pairs whose triangles are the same or share a corner on both meshes.
    fn groups(&self, snapped: &Snapped<'_>) -> Runs<usize> {
        let found = snapped.found;
        let mut joined = UnionFind::new(found.len());
        // Pairs whose intersections share a point join: across a crack or a T-junction, where
        // the triangles on either side share no corner point, the curve still joins.
        let mut first_at = vec![usize::MAX; snapped.points.len()];
        for k in 0..found.len() {
            for &end in snapped.ends.get(k) {
                if first_at[end] == usize::MAX {
                    first_at[end] = k;
                } else {
                    joined.union(k, first_at[end]);
                }
            }
        }
        let (mut count, mut group_of) = numbered(&mut joined, found.len());
        // Pairs of two groups join through corners only where corner points of both meshes are
        // shared between groups: those pairs alone – mostly none – are matched corner by corner.
        let sharing = self.sharing_corners(found, count, &group_of);
        if sharing.contains(&true) {
            let candidates = (0..found.len()).filter(|&k| sharing[k]);
            self.corner_joins(found, candidates, &mut joined);
            (count, group_of) = numbered(&mut joined, found.len());
        }
        Runs::gathered(count, group_of.iter().enumerate().map(|(k, &g)| (g, k)))
    }

    /// Of the found pairs (in `count` groups, `group_of` each pair's), those with a corner point
    /// of A's triangles that another group's pair has too, and one of B's.
    fn sharing_corners(&self, found: &[Found], count: usize, group_of: &[usize]) -> Vec<bool> {
        if count < 2 {
            return vec![false; found.len()];
        }
        // Marks a point's first group as met there by another group too.
        const SHARED: u32 = 1 << 31;
        let lists = [self.a.bvh.neighbour_lists(), self.b.bvh.neighbour_lists()];
        // Per mesh, the first group at each corner point, marked once another group has it;
        // and the groups that share a point with another.
        let mut groups_sharing = [vec![false; count], vec![false; count]];
        // About one new point per triangle (neighbours share most corners), and a triangle's
        // pairs come one after another: room on each mesh for a point per run of one triangle's
        // pairs – on a coarse mesh against a fine one, a small fraction of the pairs. Both
        // meshes' runs counted in one pass.
        let runs = found.windows(2).fold([1, 1], |runs, w| {
            [0, 1].map(|side| runs[side] + usize::from(w[0].at[side] != w[1].at[side]))
        });
        let tables = [0, 1].map(|side| {
            let mut first_group = KeyTable::new(runs[side]);
            // A triangle's pairs come one after another, mostly of one group: looked up once.
            let mut previous = None;
            for (f, &g) in found.iter().zip(group_of) {
                let t = f.at[side];
                if previous.replace((t, g)) == Some((t, g)) {
                    continue;
                }
                for point in lists[side].corner_points(t) {
                    // Fewer groups than pairs, far fewer than 2³¹.
                    let h = first_group.get_or_insert(point, g as u32);
                    let first = (h & !SHARED) as usize;
                    if first != g {
                        (groups_sharing[side][g], groups_sharing[side][first]) = (true, true);
                        if h & SHARED == 0 {
                            first_group.insert(point, h | SHARED);
                        }
                    }
                }
            }
            first_group
        });
        // Only the pairs of groups sharing points of both meshes are looked at again.
        let mut sharing: Vec<bool> =
            group_of.iter().map(|&g| groups_sharing[0][g] && groups_sharing[1][g]).collect();
        if !sharing.contains(&true) {
            return sharing;
        }
        for (side, first_group) in tables.iter().enumerate() {
            let mut previous = None;
            for k in 0..found.len() {
                if !sharing[k] {
                    continue;
                }
                let t = found[k].at[side];
                let shared = match previous {
                    Some((u, shared)) if u == t => shared,
                    _ => lists[side]
                        .corner_points(t)
                        .iter()
                        .any(|&p| first_group.get(p).is_some_and(|h| h & SHARED != 0)),
                };
                previous = Some((t, shared));
                sharing[k] = shared;
            }
        }
        sharing
    }

    /// Joins the found pairs `candidates` (increasing indices into `found`) where their
    /// triangles are the same or share a corner on both meshes.
    fn corner_joins(
        &self,
        found: &[Found],
        candidates: impl Iterator<Item = usize> + Clone,
        joined: &mut UnionFind,
    ) {
        // Two pairs share a corner on both meshes exactly when they share a pair of corner
        // points, one of each mesh: each pair joins the first pair with each of its nine.
        // Neighbouring pairs share most of their keys: three to six new ones per pair.
        let mut first_with = KeyTable::new(6 * candidates.clone().count());
        let (lists_a, lists_b) = (self.a.bvh.neighbour_lists(), self.b.bvh.neighbour_lists());
        let mut previous = (usize::MAX, [u32::MAX; 3], [u32::MAX; 3]);
        for k in candidates {
            let [i, j] = found[k].at;
            let (on_a, on_b) = (lists_a.corner_points(i), lists_b.corner_points(j));
            // The keys the previous pair has too lead where its own did: joined to it instead
            // of looked up (the traversal finds a triangle's pairs one after another).
            let (in_a, in_b) = (on_a.map(|u| previous.1.contains(&u)), on_b.map(|w| previous.2.contains(&w)));
            if in_a.contains(&true) && in_b.contains(&true) {
                joined.union(k, previous.0);
            }
            previous = (k, on_a, on_b);
            // A pair's keys mostly lead to the same one or two earlier pairs: each joined once.
            let (mut earlier, mut count) = ([0; 9], 0);
            for (u, u_before) in on_a.into_iter().zip(in_a) {
                for (w, w_before) in on_b.into_iter().zip(in_b) {
                    if u_before && w_before {
                        continue;
                    }
                    // Fewer pairs than 2³²: each is tens of bytes in memory.
                    let m = first_with.get_or_insert((u as u64) << 32 | w as u64, k as u32) as usize;
                    if m != k && !earlier[..count].contains(&m) {
                        earlier[count] = m;
                        count += 1;
                    }
                }
            }
            for &m in &earlier[..count] {
                joined.union(k, m);
            }
        }
    }

    /// One region from its pairs; `insides` find what lies inside the other mesh (closed
    /// surfaces only); `place` has room for a mark per snapped point (`u32::MAX` everywhere on
    /// entry, and left so).
    fn region(
        &self,
        snapped: &Snapped<'_>,
        members: &[usize],
        insides: Option<(&Insides<'_, VA, VB>, &mut Scratch)>,
        place: &mut [u32],
    ) -> ContactRegion {
        let (a, b) = (self.a.bvh, self.b.bvh);
        // The segments by their ends' numbers, and each one's pair.
        let (mut edges, mut pair_of) = (Vec::with_capacity(members.len()), Vec::with_capacity(members.len()));
        // Every end's number once, in the order first met – which is increasing: an end is
        // numbered by the first pair to reach it, that pair is in the region (the pairs with
        // that end joined it), and the members come in the order the pairs were snapped.
        let mut curve_ids = Vec::with_capacity(2 * members.len());
        let mut area = 0.0;
        for &k in members {
            let ends = snapped.ends.get(k);
            for &id in ends {
                if place[id] == u32::MAX {
                    place[id] = 0;
                    curve_ids.push(id);
                }
            }
            match &snapped.found[k].meet {
                Meet::Segment(_) => {
                    edges.push([ends[0], ends[1]]);
                    pair_of.push(k);
                }
                Meet::Polygon(p) => {
                    let v = p.vertices();
                    area += (1..v.len().saturating_sub(1))
                        .map(|k| Triangle::new(v[0], v[k], v[k + 1]).area())
                        .sum::<Real>();
                }
            }
        }
        for &id in &curve_ids {
            place[id] = u32::MAX;
        }
        debug_assert!(curve_ids.is_sorted());
        let on_curve: Vec<Point> = curve_ids.iter().map(|&e| snapped.points[e]).collect();
        let at = |k: &usize| snapped.found[*k].at;
        let region_a: Vec<usize> = sorted_unique(members.iter().map(|k| at(k)[0]));
        let region_b: Vec<usize> = sorted_unique(members.iter().map(|k| at(k)[1]));
        let faces_a: Vec<Vector> = region_a.iter().map(|&i| a.triangle(i).scaled_normal()).collect();
        let faces_b: Vec<Vector> =
            region_b.iter().map(|&j| -(self.b_in_a.rotation * b.triangle(j).scaled_normal())).collect();
        // How far a segment, from its first end to its second, runs along the direction the
        // curve takes where its pair's surfaces cross (A's normal × B's): the same way round
        // every loop of the curve.
        let along = |e: usize| {
            let Found { at: [i, j], meet, .. } = &snapped.found[pair_of[e]];
            let Meet::Segment([start, end]) = meet else { unreachable!("only segments are chained") };
            let crossing = a
                .triangle(*i)
                .scaled_normal()
                .cross(&(self.b_in_a.rotation * b.triangle(*j).scaled_normal()));
            (end - start).dot(&crossing)
        };
        let mut polylines = chain(&edges, &curve_ids, place, snapped.points, along);
        let mut pairs: Vec<TrianglePair> = members.iter().map(|k| self.triangle_pair(at(k))).collect();
        sort_by_key(&mut pairs, TrianglePair::key);
        // Each side's part of the region – the curve, and what of it lies inside the other mesh –
        // reaches deepest at its farthest point along the normal.
        let ((top, deepest_a), (bottom, deepest_b), normal) =
            match curve_normal(&polylines, &faces_a, &faces_b) {
                Some(normal) => {
                    // Only the farthest inside points count: whole patches that cannot reach them
                    // are passed by.
                    let mut far_a = Farthest::along(normal).taking(on_curve.iter());
                    let mut far_b = Farthest::along(-normal).taking(on_curve.iter());
                    if let Some((insides, scratch)) = insides {
                        insides.parts(scratch, &region_a, &region_b, &mut far_a, &mut far_b);
                    }
                    (far_a.reached(), far_b.reached(), normal)
                }
                None => {
                    // No closed curve to span a surface (surfaces that only touch, or a curve that
                    // runs off an open surface): of the region's face normals (A's, and B's
                    // reversed), the one along which B has least far to go.
                    let (mut inside_a, mut inside_b) = (Vec::new(), Vec::new());
                    if let Some((insides, scratch)) = insides {
                        insides.parts(scratch, &region_a, &region_b, &mut inside_a, &mut inside_b);
                    }
                    let part_a = || on_curve.iter().chain(&inside_a);
                    let part_b = || on_curve.iter().chain(&inside_b);
                    // Each direction measured once: a mesh of flat faces repeats a handful of normals.
                    let mut seen: QuickSet<[i32; 3]> = QuickSet::default();
                    let directions = faces_a
                        .iter()
                        .chain(&faces_b)
                        .filter_map(|n| n.try_normalize(0.0))
                        .filter(|n| seen.insert(n.map(|c| (c * 1e4).round() as i32).into()));
                    let normal =
                        least_depth_direction(directions, part_a(), part_b()).unwrap_or_else(Vector::zeros);
                    let top = Farthest::along(normal).taking(part_a()).reached();
                    let bottom = Farthest::along(-normal).taking(part_b()).reached();
                    (top, bottom, normal)
                }
            };
        let depth = top + bottom;
        let to_world = |p: &Point| self.a.pose * p;
        for p in polylines.iter_mut().flat_map(|line| &mut line.points) {
            *p = to_world(p);
        }
        ContactRegion {
            pairs,
            curve: polylines,
            normal: self.a.pose.rotation * normal,
            depth: depth.max(0.0),
            deepest_on_a: to_world(&deepest_a),
            deepest_on_b: to_world(&deepest_b),
            points: spanning(&on_curve, &normal).iter().map(to_world).collect(),
            area,
        }
    }
}

/// Each of the `len` items' group, numbered in the order of the groups' roots, and how many
/// there are. Each group's root is its least member: the groups come sorted, each with its
/// members in increasing order. A root comes before its members, so each item's group is known
/// by the time its members ask.
fn numbered(joined: &mut UnionFind, len: usize) -> (usize, Vec<usize>) {
    let mut group_of = vec![0; len];
    let mut count = 0;
    for k in 0..len {
        let r = joined.root(k);
        group_of[k] = if r == k {
            count += 1;
            count - 1
        } else {
            group_of[r]
        };
    }
    (count, group_of)
}

/// Lists kept one after another in one list (a list per pair or per region, without a vector
/// each): list `k` is `items[starts[k]..starts[k + 1]]`.
struct Runs<T> {
    items: Vec<T>,
    starts: Vec<usize>,
}

impl<T> Runs<T> {
    /// No lists yet, room made for `lists` of `items` in all.
    fn with_capacity(lists: usize, items: usize) -> Self {
        let mut starts = Vec::with_capacity(lists + 1);
        starts.push(0);
        Self { items: Vec::with_capacity(items), starts }
    }

    /// Ends the list being filled: the items pushed since the last one.
    fn close(&mut self) {
        self.starts.push(self.items.len());
    }

    /// `items` gathered into `lists` lists by the list each names, each list in the order
    /// given.
    fn gathered(lists: usize, items: impl Iterator<Item = (usize, T)> + Clone) -> Self
    where
        T: Copy + Default,
    {
        let mut starts = vec![0; lists + 1];
        for (list, _) in items.clone() {
            starts[list + 1] += 1;
        }
        for k in 0..lists {
            starts[k + 1] += starts[k];
        }
        // Each item put at its list's start, the start moving on as it fills and moved back after.
        let mut gathered = vec![T::default(); starts[lists]];
        for (list, item) in items {
            gathered[starts[list]] = item;
            starts[list] += 1;
        }
        starts.copy_within(..lists, 1);
        starts[0] = 0;
        Self { items: gathered, starts }
    }

    fn len(&self) -> usize {
        self.starts.len() - 1
    }

    fn get(&self, k: usize) -> &[T] {
        &self.items[self.starts[k]..self.starts[k + 1]]
    }
}

/// The distinct `items`, in increasing order.
fn sorted_unique(items: impl Iterator<Item = usize>) -> Vec<usize> {
    let mut v: Vec<usize> = items.collect();
    // The traversal finds a triangle's pairs one after another: fewer to sort once those are one.
    v.dedup();
    sort_by_key(&mut v, |&x| x as u64);
    v.dedup();
    v
}

/// The direction the region's closed curves span (the loops run one way round, as [`chain`]
/// leaves them): their vector area `½ Σ pᵢ × pᵢ₊₁`, which equals the area-weighted normal of
/// any surface they bound – of A's part of the region as of B's, the gradient of the overlap's
/// volume as B moves – so it does not depend on how either surface is tessellated. Turned to
/// agree with A's faces in the region (outward, towards B), else against B's. `None` when the
/// curves span no area.
fn curve_normal(polylines: &[Polyline], faces_a: &[Vector], faces_b: &[Vector]) -> Option<Vector> {
    let mut spanned = Vector::zeros();
    let mut extent: Real = 0.0;
    for line in polylines.iter().filter(|l| l.closed) {
        let centre =
            line.points.iter().fold(Vector::zeros(), |s, p| s + p.coords) / line.points.len() as Real;
        for (k, p) in line.points.iter().enumerate() {
            let q = line.points[(k + 1) % line.points.len()];
            let (u, v) = (p.coords - centre, q.coords - centre);
            spanned += u.cross(&v) / 2.0;
            extent = extent.max(u.norm());
        }
    }
    // A curve that folds back on itself spans next to nothing: its direction means nothing.
    if spanned.norm() <= 1e-4 * extent * extent || extent == 0.0 {
        return None;
    }
    let towards = |faces: &[Vector]| faces.iter().fold(Vector::zeros(), |s, n| s + n).dot(&spanned);
    let side = match towards(faces_a) {
        s if s != 0.0 => s.signum(),
        _ => towards(faces_b).signum(),
    };
    (spanned * side).try_normalize(0.0)
}

/// Of the unit `directions`, the first along which B's part of a region has least far to go to
/// clear A's: `max over part_a of x·n − min over part_b of y·n` least. The points are visited in
/// the order of the first direction's heights (A's highest first, B's lowest), so a direction
/// near the best so far meets its extremes early and is dropped as soon as what it has seen
/// reaches the best – which only hastens the answer: what a direction has seen only grows.
fn least_depth_direction<'p>(
    mut directions: impl Iterator<Item = Vector>,
    part_a: impl Iterator<Item = &'p Point>,
    part_b: impl Iterator<Item = &'p Point>,
) -> Option<Vector> {
    let first = directions.next()?;
    let (part_a, part_b) = (by_height(part_a, &first), by_height(part_b, &-first));
    let highest = |part: &[(Real, Point)]| part.first().map_or(Real::NEG_INFINITY, |x| x.0);
    let mut best = (highest(&part_a) + highest(&part_b), first);
    'directions: for n in directions {
        let (mut top, mut bottom) = (Real::NEG_INFINITY, Real::INFINITY);
        for k in 0..part_a.len().max(part_b.len()) {
            if let Some((_, p)) = part_a.get(k) {
                top = top.max(p.coords.dot(&n));
            }
            if let Some((_, q)) = part_b.get(k) {
                bottom = bottom.min(q.coords.dot(&n));
            }
            if top - bottom >= best.0 {
                continue 'directions;
            }
        }
        best = (top - bottom, n);
    }
    Some(best.1)
}

/// Each of `points` with its height `x·n`, highest first.
fn by_height<'p>(points: impl Iterator<Item = &'p Point>, n: &Vector) -> Vec<(Real, Point)> {
    let mut keyed: Vec<(Real, Point)> = points.map(|p| (p.coords.dot(n), *p)).collect();
    keyed.sort_unstable_by(|x, y| y.0.total_cmp(&x.0));
    keyed
}

/// The intersecting pairs with their intersections' ends snapped: `ends.get(k)` numbers pair
/// `k`'s ends (a segment's two, a coplanar overlap's corners) into `points`.
struct Snapped<'s> {
    found: &'s [Found],
    ends: &'s Runs<usize>,
    points: &'s [Point],
}

/// How many of the last points asked for [`Snap`] remembers: a leaf pair's triangles come one
/// after another, so an end is mostly asked for again within a few pairs.
const RECENT: usize = 4;

/// Points numbered so that points within a tolerance of one already numbered take its number:
/// where intersection segments of neighbouring pairs end at the same point of the curve, up to
/// the rounding of computing it twice.
struct Snap {
    tolerance: Real,
    /// Cells per unit length (the inverse of the cell width): a product, not a division, per
    /// coordinate.
    cells_per_unit: f64,
    points: Vec<Point>,
    /// The last point numbered in each grid cell, by the cell's key.
    last_in: KeyTable<u32>,
    /// Each point's predecessor in its cell's chain (`usize::MAX` for the first). Two cells
    /// whose keys collide share a chain: the distance check keeps them apart.
    before: Vec<usize>,
    /// The last points asked for and their numbers, latest first: the same point asked for
    /// again (the end two neighbouring pairs' segments share, computed alike) gets the same
    /// number – the least within the tolerance, which later points cannot lower.
    recent: [(Point, usize); RECENT],
}

impl Snap {
    /// Points to be numbered within `tolerance`, room made for `expected` of them.
    fn new(tolerance: Real, expected: usize) -> Self {
        let tolerance = tolerance.max(Real::MIN_POSITIVE);
        Self {
            tolerance,
            cells_per_unit: 1.0 / (32.0 * tolerance as f64),
            points: Vec::with_capacity(expected),
            last_in: KeyTable::new(expected),
            before: Vec::with_capacity(expected),
            // A NaN point equals none asked for.
            recent: [(Point::new(Real::NAN, 0.0, 0.0), 0); RECENT],
        }
    }

    /// The number of point `p`: the least number of the points within the tolerance of it, or
    /// a new one.
    fn id(&mut self, p: Point) -> usize {
        if let Some(&(_, id)) = self.recent.iter().find(|(q, _)| *q == p) {
            return id;
        }
        let id = self.look_up(p);
        self.recent.rotate_right(1);
        self.recent[0] = (p, id);
        id
    }

    /// [`Snap::id`] from the grid.
    fn look_up(&mut self, p: Point) -> usize {
        // Cells 32 tolerances wide: the cells a point's tolerance box overlaps – nearly always
        // one, at most eight – hold every numbered point within the tolerance of it.
        // Any cell numbering that never decreases along an axis will do: truncation needs no
        // call to `floor` (the cell around zero is twice as wide), and a rounded product by a
        // positive number never decreases either.
        let cell = |c: f64| (c * self.cells_per_unit) as i64;
        // The high half of a product mixes all of a coordinate's bits.
        let key = |x: i64, y: i64, z: i64| {
            let mixed = (x as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
                ^ (y as u64).wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
                ^ (z as u64).wrapping_mul(0x1656_67b1_9e37_79f9);
            (mixed >> 32) as u32
        };
        let t = self.tolerance as f64;
        let [x, y, z] = [p.x as f64, p.y as f64, p.z as f64];
        let (lo, hi) = ([cell(x - t), cell(y - t), cell(z - t)], [cell(x + t), cell(y + t), cell(z + t)]);
        // The first numbered of those within the tolerance, whichever cell it is in.
        let mut first = usize::MAX;
        let mut look_in = |[cx, cy, cz]: [i64; 3]| {
            let mut k = self.last_in.get(key(cx, cy, cz)).map_or(usize::MAX, |k| k as usize);
            while k != usize::MAX {
                if (self.points[k] - p).norm() <= self.tolerance {
                    first = first.min(k);
                }
                k = self.before[k];
            }
        };
        if lo == hi {
            // Nearly always: the tolerance box lies in one cell.
            look_in(lo);
        } else {
            for cx in lo[0]..=hi[0] {
                for cy in lo[1]..=hi[1] {
                    for cz in lo[2]..=hi[2] {
                        look_in([cx, cy, cz]);
                    }
                }
            }
        }
        if first != usize::MAX {
            return first;
        }
        let id = self.points.len();
        self.points.push(p);
        // Fewer points than 2³² (two per intersecting pair at most, or six for coplanar ones).
        let last = self.last_in.insert(key(cell(x), cell(y), cell(z)), id as u32);
        self.before.push(last.map_or(usize::MAX, |k| k as usize));
        id
    }
}

/// The segments, by their snapped ends' numbers into `points`, chained into polylines; `ids`
/// lists every end's number in increasing order. `place` has room for every number and is left
/// as it came (`u32::MAX` everywhere): each end's place in `ids` goes there while the segments
/// are renumbered. Where the curve closes into several loops, each runs the way `along` (how far
/// segment `e` runs, from its first end to its second, in the direction the curve takes) says
/// most of its length runs: their spans then add up to the overlap's, not by the chance of
/// where each loop's chaining began.
fn chain(
    segments: &[[usize; 2]],
    ids: &[usize],
    place: &mut [u32],
    points: &[Point],
    along: impl Fn(usize) -> Real,
) -> Vec<Polyline> {
    // The segments by their ends' places (and their own numbers), and the segments at each.
    for (k, &id) in ids.iter().enumerate() {
        place[id] = k as u32;
    }
    let mut joined: Vec<([usize; 2], usize)> = Vec::with_capacity(segments.len());
    joined.extend(
        (0..segments.len())
            .filter(|&e| segments[e][0] != segments[e][1])
            .map(|e| (segments[e].map(|end| place[end] as usize), e)),
    );
    for &id in ids {
        place[id] = u32::MAX;
    }
    let incident = Runs::gathered(
        ids.len(),
        joined.iter().enumerate().flat_map(|(e, (ends, _))| ends.map(|end| (end, e))),
    );
    let at = |p: usize| incident.get(p);
    let mut used = vec![false; joined.len()];
    // Every step of the walk (a segment, and whether it was followed from its first end); every
    // line's places one after another, and each line's run of them and, for a loop, of steps.
    let mut steps: Vec<(usize, bool)> = Vec::with_capacity(joined.len());
    let mut places: Vec<usize> = Vec::with_capacity(2 * joined.len());
    let mut lines: Vec<(Range<usize>, Option<Range<usize>>)> = Vec::new();
    // Open chains start at their ends (points on one segment, or on three or more), then the
    // rest are loops.
    let starts = (0..ids.len()).filter(|&p| at(p).len() != 2);
    for start in starts.chain(joined.iter().map(|(e, _)| e[0])) {
        while let Some(&next) = at(start).iter().find(|&&e| !used[e]) {
            let (first_place, first_step) = (places.len(), steps.len());
            places.push(start);
            let (mut here, mut edge) = (start, next);
            loop {
                used[edge] = true;
                let ([a, b], e) = joined[edge];
                steps.push((e, a == here));
                here = if a == here { b } else { a };
                places.push(here);
                match at(here).iter().find(|&&e| !used[e]) {
                    Some(&next) if at(here).len() == 2 => edge = next,
                    _ => break,
                }
            }
            let closed = places.len() - first_place > 2 && places[first_place] == here;
            if closed {
                places.pop();
            }
            lines.push((first_place..places.len(), closed.then_some(first_step..steps.len())));
        }
    }
    let loops = lines.iter().filter(|(_, walk)| walk.is_some()).count();
    lines
        .into_iter()
        .map(|(line, walk)| {
            let line = &places[line];
            let point = |&k: &usize| points[ids[k]];
            let reversed = walk.clone().filter(|_| loops > 1).is_some_and(|walk| {
                let runs: Real =
                    steps[walk].iter().map(|&(e, forward)| if forward { along(e) } else { -along(e) }).sum();
                runs < 0.0
            });
            let points = if reversed {
                line.iter().rev().map(point).collect()
            } else {
                line.iter().map(point).collect()
            };
            Polyline { points, closed: walk.is_some() }
        })
        .collect()
}

/// Up to four of `points` spanning them across `normal`: the one farthest from their centre
/// (seen along the normal), the one farthest from it, the one making the largest triangle with
/// those two, and the one farthest on the other side of their line.
fn spanning(points: &[Point], normal: &Vector) -> Vec<Point> {
    if points.is_empty() {
        return Vec::new();
    }
    let flat: Vec<Vector> = points.iter().map(|p| p.coords - normal * p.coords.dot(normal)).collect();
    let centre = flat.iter().sum::<Vector>() / points.len() as Real;
    // Squared distances: the same order, without the roots.
    let out: Vec<Real> = flat.iter().map(|f| (f - centre).norm_squared()).collect();
    let p1 = farthest(&out, |k| out[k]);
    let p2 = farthest(&out, |k| (flat[k] - flat[p1]).norm_squared());
    let sides: Vec<Real> =
        points.iter().map(|p| (points[p2] - points[p1]).cross(&(p - points[p1])).dot(normal)).collect();
    let p3 = farthest(&out, |k| sides[k].abs());
    let sign = sides[p3].signum();
    let p4 = farthest(&out, |k| -sign * sides[k]);
    let corners: &[usize] = if flat[p2] == flat[p1] {
        &[p1]
    } else if sides[p3] == 0.0 {
        &[p1, p2]
    } else if -sign * sides[p4] > 0.0 {
        &[p1, p3, p2, p4]
    } else {
        &[p1, p3, p2]
    };
    corners.iter().map(|&k| points[k]).collect()
}

/// The point best by `score`, ties going to the one farthest `out` (the last of those still
/// tied): a corner of the region's outline, not a point along one of its edges.
fn farthest(out: &[Real], score: impl Fn(usize) -> Real) -> usize {
    (0..out.len())
        .max_by(|&x, &y| {
            (score(x), out[x]).partial_cmp(&(score(y), out[y])).unwrap_or(std::cmp::Ordering::Equal)
        })
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Posed, QueryOptions};
    use bvh_build::{BuildConfig, Bvh};
    use bvh_core::{Isometry, Obb, TriMesh};

    /// Meshes `parts` side by side in one mesh, each moved by its offset.
    fn side_by_side(parts: &[(TriMesh, Vector)]) -> TriMesh {
        let (mut vertices, mut triangles) = (Vec::new(), Vec::new());
        for (part, offset) in parts {
            let n = vertices.len() as u32;
            vertices.extend(part.vertices().iter().map(|p| p + offset));
            triangles.extend(part.indices().iter().map(|t| t.map(|k| k + n)));
        }
        TriMesh::new(vertices, triangles).unwrap()
    }

    /// Each point's number is the least of the points numbered before it within the tolerance,
    /// or a new one (against a brute-force search), for points crowding the faces, edges and
    /// corners of the grid's cells on both sides of zero – where the tolerance box reaches
    /// into the neighbouring cells – and well inside them.
    #[test]
    fn snapping_finds_the_least_numbered_point_within_the_tolerance() {
        use rand::{Rng, SeedableRng, rngs::StdRng};
        let tolerance: Real = 1e-3;
        let width = 32.0 * tolerance;
        let mut rng = StdRng::seed_from_u64(7);
        let mut snap = Snap::new(tolerance, 16);
        let mut numbered: Vec<Point> = Vec::new();
        for _ in 0..4000 {
            // Near a cell face (within two tolerances) on a third of the axes, anywhere in the cell
            // on the rest.
            let coordinate = |rng: &mut StdRng| {
                let face = rng.gen_range(-3i32..=3) as Real * width;
                match rng.gen_range(0..3) {
                    0 => face + rng.gen_range(-2.0 * tolerance..2.0 * tolerance),
                    _ => face + rng.gen_range(0.0..width),
                }
            };
            let p = Point::new(coordinate(&mut rng), coordinate(&mut rng), coordinate(&mut rng));
            let expected = numbered.iter().position(|q| (q - p).norm() <= tolerance).unwrap_or_else(|| {
                numbered.push(p);
                numbered.len() - 1
            });
            assert_eq!(snap.id(p), expected, "{p:?}");
        }
        assert_eq!(snap.points, numbered);
        assert!(numbered.len() > 500, "{} points numbered apart", numbered.len());
    }

    /// The groups are the connected components of the joining rule, whichever pairs the corner
    /// joins look at: against a union of every two found pairs the rule joins. Among the
    /// poses are contacts whose curves join only through corners (rods through both the roof
    /// and the floor of a prism, whose faces share corners), and contacts side by side that
    /// stay apart.
    #[test]
    fn groups_are_the_components_of_the_joining_rule() {
        // A roof-shaped prism along x (floor from y = -1 to 1, ridge at z = 1), a ball beside it.
        let ends =
            [-2.0, 2.0].map(|x| [Point::new(x, -1.0, 0.0), Point::new(x, 1.0, 0.0), Point::new(x, 0.0, 1.0)]);
        let faces = [[0, 2, 1], [3, 4, 5], [0, 1, 4], [0, 4, 3], [1, 2, 5], [1, 5, 4], [2, 0, 3], [2, 3, 5]];
        let prism = TriMesh::new(ends.iter().flatten().copied().collect(), faces.to_vec()).unwrap();
        let ball = TriMesh::uv_sphere(Point::origin(), 0.6, 6, 12);
        let a: Bvh<Obb> = Bvh::build(
            side_by_side(&[(prism, Vector::zeros()), (ball, Vector::new(3.5, 0.0, 0.3))]),
            &BuildConfig::co(),
        );
        let rod = TriMesh::cuboid(Point::new(0.0, 0.0, 0.5), Vector::new(0.05, 0.05, 1.5));
        let rods = side_by_side(&[
            (rod.clone(), Vector::zeros()),
            (rod.clone(), Vector::new(0.4, 0.3, 0.0)),
            (rod.clone(), Vector::new(0.08, 0.09, 0.0)),
            (rod, Vector::new(3.2, 0.2, 0.0)),
        ]);
        let b: Bvh<Obb> = Bvh::build(rods, &BuildConfig::co());
        let (lists_a, lists_b) = (a.neighbour_lists(), b.neighbour_lists());
        let mut corner_only = 0;
        for k in 0..40 {
            let t = k as Real;
            let pose = Isometry::new(
                Vector::new(-1.0 + 0.06 * t, 0.3 * (0.7 * t).sin(), 0.1 * (1.3 * t).cos()),
                Vector::new(0.2 * (0.9 * t).sin(), 0.15 * (0.4 * t).cos(), 0.1 * t),
            );
            let query = Query::new(
                Posed::new(&a, Isometry::identity()),
                Posed::new(&b, pose),
                QueryOptions::default(),
            );
            let found = query.collect(0.0, &mut (), Found::of);
            let (snap, ends) = query.snapped_ends(&found);
            let snapped = Snapped { found: &found, ends: &ends, points: &snap.points };
            let groups = query.groups(&snapped);
            let mut by_ends = UnionFind::new(found.len());
            let mut expected = UnionFind::new(found.len());
            let shares = |x: [u32; 3], y: [u32; 3]| x.iter().any(|u| y.contains(u));
            for k in 0..found.len() {
                for m in 0..k {
                    let shared_end = ends.get(k).iter().any(|e| ends.get(m).contains(e));
                    let [[i, j], [i2, j2]] = [found[k].at, found[m].at];
                    let shared_corners = shares(lists_a.corner_points(i), lists_a.corner_points(i2))
                        && shares(lists_b.corner_points(j), lists_b.corner_points(j2));
                    if shared_end {
                        by_ends.union(k, m);
                    }
                    if shared_end || shared_corners {
                        expected.union(k, m);
                    }
                }
            }
            let roots = |joined: &mut UnionFind| (0..found.len()).map(|k| joined.root(k)).collect::<Vec<_>>();
            let expected = roots(&mut expected);
            let mut seen = 0;
            for g in 0..groups.len() {
                let members = groups.get(g);
                assert!(members.iter().all(|&m| expected[m] == expected[members[0]]), "pose {k}, group {g}");
                seen += members.len();
            }
            let count = |roots: &[usize]| roots.iter().enumerate().filter(|&(k, &r)| r == k).count();
            assert_eq!((groups.len(), seen), (count(&expected), found.len()), "pose {k}");
            corner_only += usize::from(count(&expected) < count(&roots(&mut by_ends)));
        }
        assert!(corner_only > 0, "some poses have groups joined through corners alone");
    }
}
