//! Contact regions: the intersecting triangle pairs grouped into the places where the meshes
//! meet, each with one normal, one depth and a few contact points – what a solver or a haptic
//! loop can use, and stable when the meshes are tessellated differently.

use crate::containment::{crossing, inside};
use crate::node_test::NodeTest;
use crate::queries::{Query, TrianglePair};
use crate::stats::Stats;
use bvh_build::{Bvh, NodeVolume};
use bvh_core::{Point, Real, Triangle, TriangleIntersection, Vector, triangle_intersection};
use smallvec::SmallVec;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::ControlFlow;

/// A multiply-rotate hasher for the small integer keys below (triangle positions, point bits,
/// grid cells): the standard hasher's resistance to chosen keys buys nothing here and cost most
/// of a region's time.
#[derive(Default)]
struct QuickHasher(u64);

impl Hasher for QuickHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(n as u64);
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn write_i64(&mut self, n: i64) {
        self.write_u64(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

type QuickMap<K, V> = HashMap<K, V, BuildHasherDefault<QuickHasher>>;
type QuickSet<K> = HashSet<K, BuildHasherDefault<QuickHasher>>;

/// What the meshes' surfaces enclose, which decides what lies inside the other mesh.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Surfaces {
    /// Both meshes are closed (watertight): a vertex is inside the other mesh by the parity of
    /// a ray's crossings, and a region's depth reaches every vertex of each mesh that lies
    /// inside the other around the region.
    #[default]
    Closed,
    /// Open surfaces enclose nothing: a region's depth comes from its intersection curve alone.
    Open,
}

/// A chain of intersection segments, in world coordinates.
#[derive(Clone, Debug, PartialEq)]
pub struct Polyline {
    /// The points in order along the chain.
    pub points: Vec<Point>,
    /// Whether the last point joins the first.
    pub closed: bool,
}

/// One place where the meshes meet.
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

/// An intersecting pair found by the traversal: leaf-order positions and where they meet, in
/// A's frame.
struct Found {
    at: [usize; 2],
    meet: TriangleIntersection,
}

impl<VA, VB> Query<'_, VA, VB>
where
    VA: NodeVolume + NodeTest<VB>,
    VB: NodeVolume,
{
    /// The intersecting triangle pairs grouped into contact regions, each with its curve,
    /// normal, depth and contact points (see `docs/regions.md`). Two intersecting pairs belong
    /// to one region when their triangles share a corner point (or are the same) on both
    /// meshes, or when their intersections share a point (up to rounding); regions are the
    /// connected groups. Regions come sorted by their first pair.
    pub fn contact_regions(&self, surfaces: Surfaces, stats: &mut impl Stats) -> Vec<ContactRegion> {
        let mut found = Vec::new();
        self.each_candidate(0.0, None, stats, |at, ta, tb, stats| {
            stats.triangle_test();
            if let Some(meet) = triangle_intersection(ta, tb) {
                found.push(Found { at, meet });
            }
            ControlFlow::Continue(())
        });
        self.regions_of(found, surfaces)
    }

    /// [`Query::contact_regions`] with the traversal split across rayon's threads: for meshes
    /// deep inside each other. The same regions; no statistics.
    pub fn contact_regions_parallel(&self, surfaces: Surfaces) -> Vec<ContactRegion> {
        let found =
            self.collect_parallel(|at, ta, tb| triangle_intersection(ta, tb).map(|meet| Found { at, meet }));
        self.regions_of(found, surfaces)
    }

    /// The regions of the intersecting pairs `found`, in whatever order the traversal found them.
    fn regions_of(&self, mut found: Vec<Found>, surfaces: Surfaces) -> Vec<ContactRegion> {
        if found.is_empty() {
            return Vec::new();
        }
        // One order whatever the traversal: the same curves, points and ties every time.
        found.sort_unstable_by_key(|f| f.at);
        // Every pair, by A's triangle and by B's: which triangles of the other mesh each crosses.
        let by_a: Vec<[usize; 2]> = found.iter().map(|f| f.at).collect();
        let mut by_b: Vec<[usize; 2]> = found.iter().map(|f| [f.at[1], f.at[0]]).collect();
        by_b.sort_unstable();
        let crossing = Crossing {
            a: by_a.iter().map(|p| p[0]).collect(),
            b: by_b.iter().map(|p| p[0]).collect(),
            by_a,
            by_b,
        };
        // Every intersection's ends numbered once, ends within the placement rounding as one:
        // where neighbouring pairs' segments meet, for the grouping and the curves alike.
        let mut snap = Snap::new(self.placement_slack(0.0));
        let ends: Vec<SmallVec<[usize; 6]>> =
            found.iter().map(|f| ends(&f.meet).into_iter().map(|p| snap.id(p)).collect()).collect();
        let found = Snapped { found: &found, ends: &ends, points: &snap.points };
        let mut regions: Vec<ContactRegion> = self
            .groups(&found)
            .into_iter()
            .map(|members| self.region(&found, &members, surfaces, &crossing))
            .collect();
        regions.sort_by(|x, y| x.pairs.first().cmp(&y.pairs.first()));
        regions
    }

    /// The found pairs' indices grouped into regions: connected through pairs whose triangles
    /// are the same or share a corner on both meshes, or whose intersections share a point.
    fn groups(&self, snapped: &Snapped<'_>) -> Vec<Vec<usize>> {
        let found = snapped.found;
        let mut parent: Vec<usize> = (0..found.len()).collect();
        fn root(parent: &mut [usize], mut k: usize) -> usize {
            while parent[k] != k {
                parent[k] = parent[parent[k]];
                k = parent[k];
            }
            k
        }
        for (k, f) in found.iter().enumerate() {
            let [i, j] = f.at;
            let (own_a, own_b) = ([i as u32], [j as u32]);
            let near_a = self.a.bvh.neighbours(i).unwrap_or(&own_a);
            let near_b = self.b.bvh.neighbours(j).unwrap_or(&own_b);
            // `found` is sorted by A's triangle: the pairs of each neighbour lie together. The
            // link is symmetric, so each is made from the pair with the smaller A triangle.
            for &i2 in near_a.iter().filter(|&&i2| i2 as usize >= i) {
                let start = found.partition_point(|g| g.at[0] < i2 as usize);
                for (m, g) in found[start..].iter().enumerate().take_while(|(_, g)| g.at[0] == i2 as usize) {
                    if near_b.binary_search(&(g.at[1] as u32)).is_ok() {
                        let (r, s) = (root(&mut parent, k), root(&mut parent, start + m));
                        parent[r.max(s)] = r.min(s);
                    }
                }
            }
        }
        // Pairs whose intersections share a point join too: where a corner has too many
        // triangles around it for the neighbour lists (a sphere's pole), the curve still joins.
        let mut first_at: QuickMap<usize, usize> = QuickMap::default();
        for (k, ends) in snapped.ends.iter().enumerate() {
            for &end in ends {
                let m = *first_at.entry(end).or_insert(k);
                let (r, s) = (root(&mut parent, k), root(&mut parent, m));
                parent[r.max(s)] = r.min(s);
            }
        }
        let mut groups: QuickMap<usize, Vec<usize>> = QuickMap::default();
        for k in 0..found.len() {
            groups.entry(root(&mut parent, k)).or_default().push(k);
        }
        let mut groups: Vec<Vec<usize>> = groups.into_values().collect();
        groups.sort_unstable();
        groups
    }

    /// One region from its pairs; `crossing` tells which triangles cross the other mesh.
    fn region(
        &self,
        snapped: &Snapped<'_>,
        members: &[usize],
        surfaces: Surfaces,
        crossing: &Crossing,
    ) -> ContactRegion {
        let (a, b) = (self.a.bvh, self.b.bvh);
        let mut edges = Vec::new();
        let mut on_curve = Vec::new();
        let mut area = 0.0;
        for &k in members {
            let ends = &snapped.ends[k];
            on_curve.extend(ends.iter().map(|&e| snapped.points[e]));
            match &snapped.found[k].meet {
                TriangleIntersection::Segment(_) => edges.push([ends[0], ends[1]]),
                TriangleIntersection::Polygon(p) => {
                    let v = p.vertices();
                    area += (1..v.len().saturating_sub(1))
                        .map(|k| Triangle::new(v[0], v[k], v[k + 1]).area())
                        .sum::<Real>();
                }
            }
        }
        let members: Vec<&Found> = members.iter().map(|&k| &snapped.found[k]).collect();
        let region_a: Vec<usize> = sorted_unique(members.iter().map(|f| f.at[0]));
        let region_b: Vec<usize> = sorted_unique(members.iter().map(|f| f.at[1]));
        // Each side's part of the region: the curve, and what of it lies inside the other mesh.
        let (mut inside_a, mut inside_b) = (Vec::new(), Vec::new());
        if surfaces == Surfaces::Closed {
            let a_in_b = self.b_in_a.inverse();
            let b_in_a = self.b_in_a;
            let (by_a, by_b) = ((&crossing.by_a, &crossing.a), (&crossing.by_b, &crossing.b));
            let side_a = Side { tree: a, crossing: by_a, other: &|j| b.triangle(j).placed(&b_in_a) };
            inside_a = side_a.inside_part(&region_a, |p| inside(b, &a_in_b.transform_point(p)));
            let side_b = Side { tree: b, crossing: by_b, other: &|i| a.triangle(i).placed(&a_in_b) };
            let moved = side_b.inside_part(&region_b, |p| inside(a, &b_in_a.transform_point(p)));
            inside_b = moved.iter().map(|p| b_in_a.transform_point(p)).collect();
        }
        let part_a = || on_curve.iter().chain(&inside_a);
        let part_b = || on_curve.iter().chain(&inside_b);
        let faces_a: Vec<Vector> = region_a.iter().map(|&i| a.triangle(i).scaled_normal()).collect();
        let faces_b: Vec<Vector> =
            region_b.iter().map(|&j| -(self.b_in_a.rotation * b.triangle(j).scaled_normal())).collect();
        let polylines = chain(&edges, snapped.points);
        let normal = curve_normal(&polylines, &faces_a, &faces_b).unwrap_or_else(|| {
            // No closed curve to span a surface (surfaces that only touch, or a curve that runs
            // off an open surface): of the region's face normals (A's, and B's reversed), the one
            // along which B has least far to go.
            // Each direction measured once: a mesh of flat faces repeats a handful of normals.
            let mut seen: QuickSet<[i32; 3]> = QuickSet::default();
            faces_a
                .iter()
                .chain(&faces_b)
                .filter_map(|n| n.try_normalize(0.0))
                .filter(|n| seen.insert(n.map(|c| (c * 1e4).round() as i32).into()))
                .map(|n| (extreme(part_a(), &n).0 + extreme(part_b(), &-n).0, n))
                .min_by(|x, y| x.0.total_cmp(&y.0))
                .map_or_else(Vector::zeros, |(_, n)| n)
        });
        let (top, deepest_a) = extreme(part_a(), &normal);
        let (bottom, deepest_b) = extreme(part_b(), &-normal);
        let depth = top + bottom;
        let to_world = |p: &Point| self.a.pose * p;
        let mut pairs: Vec<TrianglePair> = members.iter().map(|f| self.triangle_pair(f.at)).collect();
        pairs.sort_unstable();
        ContactRegion {
            pairs,
            curve: polylines
                .into_iter()
                .map(|p| Polyline { points: p.points.iter().map(to_world).collect(), closed: p.closed })
                .collect(),
            normal: self.a.pose.rotation * normal,
            depth: depth.max(0.0),
            deepest_on_a: to_world(&deepest_a),
            deepest_on_b: to_world(&deepest_b),
            points: spanning(&on_curve, &normal).iter().map(to_world).collect(),
            area,
        }
    }
}

/// The end points of a segment, or a coplanar overlap's corners.
fn ends(meet: &TriangleIntersection) -> SmallVec<[Point; 6]> {
    match meet {
        TriangleIntersection::Segment(s) => SmallVec::from_slice(&[s.a, s.b]),
        TriangleIntersection::Polygon(p) => SmallVec::from_slice(p.vertices()),
    }
}

fn sorted_unique(items: impl Iterator<Item = usize>) -> Vec<usize> {
    let mut v: Vec<usize> = items.collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// The direction the region's closed curves span: their vector area `½ Σ pᵢ × pᵢ₊₁`, which
/// equals the area-weighted normal of any surface they bound – of A's part of the region as of
/// B's, the gradient of the overlap's volume as B moves – so it does not depend on how either
/// surface is tessellated. Turned to agree with A's faces in the region (outward, towards B),
/// else against B's. `None` when the curves span no area.
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

/// The farthest of `points` along `n`: its height `x·n` and the point.
fn extreme<'p>(points: impl Iterator<Item = &'p Point>, n: &Vector) -> (Real, Point) {
    points
        .map(|p| (p.coords.dot(n), *p))
        .max_by(|x, y| x.0.total_cmp(&y.0))
        .unwrap_or((Real::NEG_INFINITY, Point::origin()))
}

/// The intersecting pairs with their intersections' ends snapped: `ends[k]` numbers pair `k`'s
/// ends (a segment's two, a coplanar overlap's corners) into `points`.
struct Snapped<'s> {
    found: &'s [Found],
    ends: &'s [SmallVec<[usize; 6]>],
    points: &'s [Point],
}

/// Which triangles of each mesh cross the other: every intersecting pair as `[a, b]` (sorted)
/// and as `[b, a]` (sorted), and the sets of A's and B's triangles in them.
struct Crossing {
    by_a: Vec<[usize; 2]>,
    by_b: Vec<[usize; 2]>,
    a: QuickSet<usize>,
    b: QuickSet<usize>,
}

/// One mesh of a region, for finding what of it lies inside the other.
struct Side<'s, V> {
    tree: &'s Bvh<V>,
    /// Every intersecting pair as `[triangle here, triangle of the other mesh]`, sorted, and
    /// the triangles here that cross the other mesh.
    crossing: (&'s Vec<[usize; 2]>, &'s QuickSet<usize>),
    /// A triangle of the other mesh, placed in this mesh's frame.
    other: &'s dyn Fn(usize) -> Triangle,
}

impl<V: NodeVolume> Side<'_, V> {
    /// The other mesh's triangles that triangle `t` crosses, placed in this frame.
    fn crossers(&self, t: usize) -> impl Iterator<Item = Triangle> + '_ {
        let pairs = self.crossing.0;
        let start = pairs.partition_point(|p| p[0] < t);
        pairs[start..].iter().take_while(move |p| p[0] == t).map(|p| (self.other)(p[1]))
    }

    fn crosses(&self, t: usize) -> bool {
        self.crossing.1.contains(&t)
    }

    /// The vertices of this mesh (in its frame) that lie inside the other around a region.
    ///
    /// The region's own triangles' corners first: two corners joined by an edge are on the same
    /// side when the edge crosses the other mesh's surface an even number of times (it can
    /// cross only triangles its own triangle crosses), so one ray's parity (`is_inside`) per
    /// group of corners joined that way decides them all – every corner where an edge only
    /// touches the surface, or the groups disagree with themselves, gets a ray of its own. Then
    /// every triangle reached from an inside corner through shared corners without crossing the
    /// other mesh: it lies wholly inside.
    fn inside_part(&self, region: &[usize], is_inside: impl Fn(&Point) -> bool) -> Vec<Point> {
        let key = |p: &Point| [p.x.to_bits(), p.y.to_bits(), p.z.to_bits()];
        let mut ids: QuickMap<[u32; 3], usize> = QuickMap::default();
        let mut corners: Vec<Point> = Vec::new();
        let mut links: Vec<Vec<(usize, bool)>> = Vec::new();
        for &t in region {
            let triangle = self.tree.triangle(t);
            let crossers: SmallVec<[Triangle; 4]> = self.crossers(t).collect();
            let id: [usize; 3] = triangle.vertices().map(|p| {
                *ids.entry(key(&p)).or_insert_with(|| {
                    corners.push(p);
                    links.push(Vec::new());
                    corners.len() - 1
                })
            });
            for (u, v) in [(0, 1), (1, 2), (2, 0)] {
                let (p, q) = (&corners[id[u]], &corners[id[v]]);
                let flips =
                    crossers.iter().try_fold(false, |odd, c| Some(odd ^ crossing(p, q, &c.a, &c.b, &c.c)?));
                if let Some(flips) = flips {
                    links[id[u]].push((id[v], flips));
                    links[id[v]].push((id[u], flips));
                }
            }
        }
        let mut inside_here: Vec<Option<bool>> = vec![None; corners.len()];
        for root in 0..corners.len() {
            if inside_here[root].is_some() {
                continue;
            }
            inside_here[root] = Some(is_inside(&corners[root]));
            let (mut group, mut stack, mut agree) = (vec![root], vec![root], true);
            while let Some(c) = stack.pop() {
                let here = inside_here[c].unwrap_or(false);
                for &(next, flips) in &links[c] {
                    match inside_here[next] {
                        None => {
                            inside_here[next] = Some(here ^ flips);
                            group.push(next);
                            stack.push(next);
                        }
                        Some(there) => agree &= there == here ^ flips,
                    }
                }
            }
            if !agree {
                for &c in &group {
                    inside_here[c] = Some(is_inside(&corners[c]));
                }
            }
        }
        let mut inside_points: QuickMap<[u32; 3], Point> = corners
            .iter()
            .zip(&inside_here)
            .filter(|(_, inside)| inside.unwrap_or(false))
            .map(|(p, _)| (key(p), *p))
            .collect();
        let mut seen: QuickSet<usize> = region.iter().copied().collect();
        let mut stack: Vec<usize> = region.to_vec();
        while let Some(t) = stack.pop() {
            for &next in self.tree.neighbours(t).unwrap_or_default() {
                let next = next as usize;
                if self.crosses(next) || !seen.insert(next) {
                    continue;
                }
                let corners = self.tree.triangle(next).vertices();
                if corners.iter().any(|p| inside_points.contains_key(&key(p))) {
                    for p in corners {
                        inside_points.insert(key(&p), p);
                    }
                    stack.push(next);
                }
            }
        }
        let mut points: Vec<([u32; 3], Point)> = inside_points.into_iter().collect();
        // One order every time: ties between equally deep points go the same way.
        points.sort_unstable_by_key(|(k, _)| *k);
        points.into_iter().map(|(_, p)| p).collect()
    }
}

/// Points numbered so that points within a tolerance of one already numbered take its number:
/// where intersection segments of neighbouring pairs end at the same point of the curve, up to
/// the rounding of computing it twice.
struct Snap {
    tolerance: Real,
    points: Vec<Point>,
    cells: QuickMap<[i64; 3], Vec<usize>>,
}

impl Snap {
    fn new(tolerance: Real) -> Self {
        Self { tolerance: tolerance.max(Real::MIN_POSITIVE), points: Vec::new(), cells: QuickMap::default() }
    }

    fn id(&mut self, p: Point) -> usize {
        // Cells eight tolerances wide: the cells a point's tolerance box overlaps – usually one,
        // at most eight – hold every numbered point within the tolerance of it.
        let side = 8.0 * self.tolerance as f64;
        let cell = |c: f64| (c / side).floor() as i64;
        let t = self.tolerance as f64;
        let [x, y, z] = [p.x as f64, p.y as f64, p.z as f64];
        for cx in cell(x - t)..=cell(x + t) {
            for cy in cell(y - t)..=cell(y + t) {
                for cz in cell(z - t)..=cell(z + t) {
                    let near = self.cells.get(&[cx, cy, cz]);
                    let within = |&&k: &&usize| (self.points[k] - p).norm() <= self.tolerance;
                    if let Some(&k) = near.and_then(|ids| ids.iter().find(within)) {
                        return k;
                    }
                }
            }
        }
        self.points.push(p);
        self.cells.entry([cell(x), cell(y), cell(z)]).or_default().push(self.points.len() - 1);
        self.points.len() - 1
    }
}

/// The segments, by their snapped ends' numbers into `points`, chained into polylines.
fn chain(segments: &[[usize; 2]], points: &[Point]) -> Vec<Polyline> {
    let edges: Vec<[usize; 2]> = segments.iter().copied().filter(|[a, b]| a != b).collect();
    let mut at: QuickMap<usize, Vec<usize>> = QuickMap::default();
    for (e, [a, b]) in edges.iter().enumerate() {
        at.entry(*a).or_default().push(e);
        at.entry(*b).or_default().push(e);
    }
    let mut used = vec![false; edges.len()];
    let mut lines = Vec::new();
    // Open chains start at their ends (points on one segment, or on three or more), then the
    // rest are loops.
    let mut starts: Vec<usize> = at.iter().filter(|(_, es)| es.len() != 2).map(|(&p, _)| p).collect();
    starts.sort_unstable();
    let loops: Vec<usize> = edges.iter().map(|e| e[0]).collect();
    for start in starts.into_iter().chain(loops) {
        while let Some(&first) = at[&start].iter().find(|&&e| !used[e]) {
            let mut line = vec![start];
            let (mut here, mut edge) = (start, first);
            loop {
                used[edge] = true;
                let [a, b] = edges[edge];
                here = if a == here { b } else { a };
                line.push(here);
                match at[&here].iter().find(|&&e| !used[e]) {
                    Some(&next) if at[&here].len() == 2 => edge = next,
                    _ => break,
                }
            }
            let closed = line.len() > 2 && line.first() == line.last();
            if closed {
                line.pop();
            }
            lines.push(Polyline { points: line.into_iter().map(|k| points[k]).collect(), closed });
        }
    }
    lines
}

/// Up to four of `points` spanning them across `normal`: the one farthest from their centre
/// (seen along the normal), the one farthest from it, the one making the largest triangle with
/// those two, and the one farthest on the other side of their line.
fn spanning(points: &[Point], normal: &Vector) -> Vec<Point> {
    let Some(&first) = points.first() else { return Vec::new() };
    let flat = |p: &Point| p.coords - normal * p.coords.dot(normal);
    let centre = points.iter().fold(Vector::zeros(), |s, p| s + flat(p)) / points.len() as Real;
    let out = |p: &Point| (flat(p) - centre).norm();
    // The best by `score`, ties going to the point farthest out: a corner of the region's
    // outline, not a point along one of its edges.
    let farthest = |score: &dyn Fn(&Point) -> Real| {
        let key = |p: &Point| (score(p), out(p));
        points
            .iter()
            .copied()
            .max_by(|x, y| key(x).partial_cmp(&key(y)).unwrap_or(std::cmp::Ordering::Equal))
            .unwrap_or(first)
    };
    let p1 = farthest(&|p| out(p));
    let p2 = farthest(&|p| (flat(p) - flat(&p1)).norm());
    let side = |p: &Point| (p2 - p1).cross(&(p - p1)).dot(normal);
    let p3 = farthest(&|p| side(p).abs());
    let sign = side(&p3).signum();
    let p4 = farthest(&|p| -sign * side(p));
    if (flat(&p2) - flat(&p1)).norm() == 0.0 {
        return vec![p1];
    }
    if side(&p3) == 0.0 {
        return vec![p1, p2];
    }
    if -sign * side(&p4) > 0.0 { vec![p1, p3, p2, p4] } else { vec![p1, p3, p2] }
}
