//! A mesh cut into small connected patches: a walk over the part of a surface that lies inside
//! another mesh can take a patch no other surface crosses whole, reading its points in one
//! sweep, instead of going triangle by triangle through memory all over the mesh.

use crate::aabb::Aabb;
use crate::math::Point;
use crate::union_find::UnionFind;

/// Consecutive triangles cut into patches together: in a tree's leaf order they lie close
/// together, so each chunk's patches are compact pieces of surface.
pub const PATCH_CHUNK: usize = 256;

/// The patches of a mesh: each chunk of [`PATCH_CHUNK`] consecutive triangles split into the
/// groups connected through shared corner points, with each patch's points listed once and
/// each boundary point's other patches.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Patches {
    /// Each triangle's patch.
    patch_of: Vec<u32>,
    /// Where each patch's points start in `points`, where its boundary points start, and (the
    /// next patch's start) where they end.
    starts: Vec<[usize; 2]>,
    /// The patches' points, patch after patch: first those whose triangles are all in the
    /// patch, then those with a triangle elsewhere.
    points: Vec<PatchPoint>,
    /// For the point at each place of `points`, where its other patches start in `others` (and
    /// the next place's start, where they end): none for a patch's inner points.
    others_start: Vec<usize>,
    /// The other patches each boundary point lies on, each once: a walk that has taken a patch
    /// whole goes on patch by patch, not triangle by triangle around its boundary.
    others: Vec<u32>,
    /// The box around each patch's inner points: a walk that wants only the farthest point
    /// along a direction passes a patch's inner points by unread when the box cannot beat it.
    inner_bounds: Vec<Aabb>,
}

/// One point of a patch: its number and where it is, side by side – a walk taking a patch whole
/// reads its points' positions in one sweep, not from triangles all over the chunk.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PatchPoint {
    /// The point's number (as in the mesh's corner points).
    pub point: u32,
    /// Its position, in the mesh's frame.
    pub position: Point,
}

impl Patches {
    /// The patches of a mesh whose triangles' corners are the points `corners` (numbered below
    /// `point_count`), `at_point` giving the triangles at a point in increasing order.
    pub(crate) fn of<'m>(
        corners: &[[u32; 3]],
        point_count: usize,
        at_point: impl Fn(u32) -> &'m [u32],
        position: impl Fn(u32) -> Point,
    ) -> Self {
        let mut patch_of = vec![0u32; corners.len()];
        let (mut starts, mut points) = (Vec::new(), Vec::new());
        // Per point, the first triangle found at it in the current chunk, and the patch that
        // listed it: stamps, so nothing is cleared between chunks.
        let mut first_at = vec![u32::MAX; point_count];
        let mut listed_by = vec![u32::MAX; point_count];
        let mut groups = UnionFind::new(PATCH_CHUNK);
        let mut listed: Vec<(u32, bool, PatchPoint)> = Vec::new();
        for chunk_start in (0..corners.len()).step_by(PATCH_CHUNK) {
            let chunk = chunk_start..(chunk_start + PATCH_CHUNK).min(corners.len());
            // Triangles joined through shared points, each group named by its first triangle.
            groups.reset(chunk.len());
            for t in chunk.clone() {
                for &p in &corners[t] {
                    let first = &mut first_at[p as usize];
                    if *first == u32::MAX || (*first as usize) < chunk.start {
                        *first = t as u32;
                    } else {
                        groups.union(*first as usize - chunk.start, t - chunk.start);
                    }
                }
            }
            // Patches numbered in the order of their first triangles; each point listed once.
            listed.clear();
            for t in chunk.clone() {
                let r = groups.root(t - chunk.start);
                patch_of[t] = if r == t - chunk.start {
                    starts.push([0, 0]);
                    (starts.len() - 1) as u32
                } else {
                    patch_of[chunk.start + r]
                };
                for &p in &corners[t] {
                    if std::mem::replace(&mut listed_by[p as usize], patch_of[t]) == patch_of[t] {
                        continue;
                    }
                    let around = at_point(p);
                    let elsewhere = around.iter().any(|&u| !chunk.contains(&(u as usize)));
                    listed.push((patch_of[t], elsewhere, PatchPoint { point: p, position: position(p) }));
                }
            }
            // Patch by patch, inner points before boundary ones (a stable sort: in corner order).
            listed.sort_by_key(|&(patch, elsewhere, _)| (patch, elsewhere));
            for group in listed.chunk_by(|x, y| x.0 == y.0) {
                let inner = group.iter().take_while(|x| !x.1).count();
                starts[group[0].0 as usize] = [points.len(), points.len() + inner];
                points.extend(group.iter().map(|x| x.2));
            }
        }
        let mut others_start = Vec::with_capacity(points.len() + 1);
        let mut others = Vec::new();
        others_start.push(0);
        for patch in 0..starts.len() {
            let [_, boundary, end] = span(&starts, points.len(), patch);
            let listed = others.len();
            others_start.resize(boundary + 1, listed);
            for at in &points[boundary..end] {
                let first = others.len();
                for &u in at_point(at.point) {
                    let other = patch_of[u as usize];
                    if other as usize != patch && !others[first..].contains(&other) {
                        others.push(other);
                    }
                }
                others_start.push(others.len());
            }
        }
        let mut patches = Self { patch_of, starts, points, others_start, others, inner_bounds: Vec::new() };
        patches.bound_inner_points();
        patches
    }

    /// Moves every listed point to `position(point number)`.
    pub(crate) fn move_points(&mut self, position: impl Fn(u32) -> Point) {
        for at in &mut self.points {
            at.position = position(at.point);
        }
        self.bound_inner_points();
    }

    /// Boxes each patch's inner points where they are now.
    fn bound_inner_points(&mut self) {
        self.inner_bounds = (0..self.count())
            .map(|patch| Aabb::from_points(self.points(patch).0.iter().map(|at| &at.position)))
            .collect();
    }

    /// How many patches there are: every patch number is below it.
    pub fn count(&self) -> usize {
        self.starts.len()
    }

    /// The patch of triangle `t`.
    #[inline]
    pub fn patch_of(&self, t: usize) -> usize {
        self.patch_of[t] as usize
    }

    /// The points of patch `patch` that only its own triangles reach, and those that triangles
    /// outside it reach too (all its own triangles connected through them).
    #[inline]
    pub fn points(&self, patch: usize) -> (&[PatchPoint], &[PatchPoint]) {
        let [start, boundary, end] = span(&self.starts, self.points.len(), patch);
        (&self.points[start..boundary], &self.points[boundary..end])
    }

    /// The smallest box around the inner points of patch `patch` (empty if it has none).
    #[inline]
    pub fn inner_bounds(&self, patch: usize) -> &Aabb {
        &self.inner_bounds[patch]
    }

    /// The boundary points of patch `patch`, each with the other patches it lies on.
    #[inline]
    pub fn boundary(&self, patch: usize) -> impl Iterator<Item = (&PatchPoint, &[u32])> {
        let [_, boundary, end] = span(&self.starts, self.points.len(), patch);
        (boundary..end)
            .map(|k| (&self.points[k], &self.others[self.others_start[k]..self.others_start[k + 1]]))
    }
}

/// Where patch `patch`'s points start among the `listed` points, where its boundary points
/// start, and where they end (the next patch's start), from the patches' `starts`.
#[inline]
fn span(starts: &[[usize; 2]], listed: usize, patch: usize) -> [usize; 3] {
    let [start, boundary] = starts[patch];
    [start, boundary, starts.get(patch + 1).map_or(listed, |s| s[0])]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Point, Real, Vector};
    use crate::mesh::TriMesh;
    use crate::neighbours::TriangleNeighbours;

    /// Two spheres far apart with their triangles interleaved (so chunks hold pieces of both)
    /// and a triangle on its own: every patch is one connected group of its chunk, the groups
    /// are all of the chunk's, and each lists every point of its triangles once, inner points
    /// (reached by no triangle outside the patch) first.
    #[test]
    fn patches_are_the_connected_groups_of_each_chunk_with_their_points() {
        let one = TriMesh::uv_sphere(Point::origin(), 1.0, 12, 24);
        let two = TriMesh::uv_sphere(Point::new(5.0, 0.0, 0.0), 1.0, 12, 24);
        let offset = one.vertices().len() as u32;
        let mut vertices: Vec<Point> = one.vertices().iter().chain(two.vertices()).copied().collect();
        let mut triangles = Vec::new();
        for k in 0..one.indices().len().max(two.indices().len()) {
            triangles.extend(one.indices().get(k).copied());
            triangles.extend(two.indices().get(k).map(|t| t.map(|v| v + offset)));
        }
        let lone = vertices.len() as u32;
        vertices.extend([Point::new(9.0, 0.0, 0.0), Point::new(9.0, 1.0, 0.0), Point::new(9.0, 0.0, 1.0)]);
        triangles.push([lone, lone + 1, lone + 2]);
        let mesh = TriMesh::new(vertices, triangles).unwrap();
        let n = TriangleNeighbours::of(&mesh);
        let patches = n.patches();
        let count = mesh.indices().len();
        assert!(count > 2 * PATCH_CHUNK);
        // Connected within a chunk: through triangles of the chunk sharing a point.
        let chunk = |t: usize| t / PATCH_CHUNK;
        let shares = |t: usize, u: usize| n.corner_points(t).iter().any(|p| n.corner_points(u).contains(p));
        let mut groups = 0;
        for t in 0..count {
            let mut group = vec![t];
            let mut k = 0;
            while k < group.len() {
                let u = group[k];
                let joined: Vec<usize> = (0..count)
                    .filter(|&w| chunk(w) == chunk(t) && !group.contains(&w) && shares(u, w))
                    .collect();
                group.extend(joined);
                k += 1;
            }
            assert!(group.iter().all(|&u| patches.patch_of(u) == patches.patch_of(t)), "triangle {t}");
            let same_patch = (0..count).filter(|&u| patches.patch_of(u) == patches.patch_of(t)).count();
            assert_eq!(same_patch, group.len(), "triangle {t}");
            groups += usize::from(group.iter().all(|&u| u >= t));
        }
        assert_eq!(groups, patches.count());
        assert!(patches.count() >= 2 * count.div_ceil(PATCH_CHUNK) - 1);
        for patch in 0..patches.count() {
            let (inner, boundary) = patches.points(patch);
            // The inner points' box holds them all and touches them on every side.
            let bounds = patches.inner_bounds(patch);
            assert_eq!(bounds.is_empty(), inner.is_empty(), "patch {patch}");
            assert!(inner.iter().all(|at| bounds.contains_point(&at.position)), "patch {patch}");
            for axis in 0..3 {
                let touches = |side: Real| inner.iter().any(|at| at.position[axis] == side);
                assert!(inner.is_empty() || touches(bounds.mins[axis]) && touches(bounds.maxs[axis]));
            }
            let own: Vec<usize> = (0..count).filter(|&t| patches.patch_of(t) == patch).collect();
            let mut expected: Vec<u32> = own.iter().flat_map(|&t| n.corner_points(t)).collect();
            expected.sort_unstable();
            expected.dedup();
            let mut listed: Vec<u32> = inner.iter().chain(boundary).map(|at| at.point).collect();
            listed.sort_unstable();
            assert_eq!(listed, expected, "patch {patch}");
            for at in inner.iter().chain(boundary) {
                let corner_there = |&t: &usize| {
                    (0..3).any(|k| {
                        n.corner_points(t)[k] == at.point && mesh.triangle(t).vertices()[k] == at.position
                    })
                };
                assert!(own.iter().any(corner_there), "point {}", at.point);
                let elsewhere = n.triangles_at(at.point).iter().any(|&u| !own.contains(&(u as usize)));
                assert_eq!(elsewhere, boundary.contains(at), "point {}", at.point);
            }
            // Each boundary point with the other patches of the triangles at it, each once.
            assert!(patches.boundary(patch).map(|(at, _)| at).eq(boundary));
            for (at, others) in patches.boundary(patch) {
                let mut expected: Vec<u32> =
                    n.triangles_at(at.point).iter().map(|&u| patches.patch_of(u as usize) as u32).collect();
                expected.sort_unstable();
                expected.dedup();
                expected.retain(|&q| q as usize != patch);
                let mut listed = others.to_vec();
                listed.sort_unstable();
                assert_eq!(listed, expected, "point {}", at.point);
                assert!(!expected.is_empty());
            }
        }
        assert_eq!(patches.points(patches.patch_of(count - 1)).0.len(), 3);
        // Moved, the same patches with the points moved.
        let shift = |p: &Point| p + Vector::new(1.0, 2.0, 3.0);
        let moved: Vec<Point> = mesh.vertices().iter().map(shift).collect();
        let moved = TriMesh::new(moved, mesh.indices().to_vec()).unwrap();
        // Moved as a refit moves them: the points and their boxes.
        let mut followed = n.clone();
        followed.follow_moved_vertices(&moved);
        assert_eq!(TriangleNeighbours::of(&moved).patches(), followed.patches());
    }
}
