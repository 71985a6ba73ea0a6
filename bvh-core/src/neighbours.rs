//! How a mesh's triangles meet: which share a corner point with each triangle, which meet at
//! each point, and the patches they form. A contact that slides across a surface moves to the
//! triangles around the one it was on, so a query that remembers a contact looks there first;
//! a walk over the surface goes from point to point.

use crate::math::Point;
use crate::mesh::TriMesh;
use crate::patches::Patches;
use crate::quick_hash::QuickSet;

/// Most triangles kept around one triangle, itself included: around a vertex shared by a fan of
/// hundreds, a search there would cost more than the one it replaces, and the lists would grow
/// with the square of the fan.
pub const MAX_AROUND: usize = 32;

/// For every triangle of a mesh, the triangles sharing a corner point with it; for every point,
/// the triangles meeting there; and the mesh's [`Patches`], derived with them. Vertices at the
/// same position count as one point: an STL file, or an OBJ exported per face, repeats a shared
/// vertex for every triangle that uses it. Each triangle's list is stored whole (about 13
/// indices on a closed mesh, at most [`MAX_AROUND`]): merging its three corners' lists at every
/// look costs the cached path queries more than the memory saved.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TriangleNeighbours {
    /// Per triangle, one cache line: its list, or where in `longer` it lies.
    slots: Vec<Slot>,
    /// The lists too long for their slot, one after another.
    longer: Vec<u32>,
    /// Per triangle, its corners' point numbers: equal numbers, equal positions.
    corners: Vec<[u32; 3]>,
    /// One vertex per point (its first), in vertex order: as many as there are points.
    representatives: Vec<u32>,
    /// Every other vertex, with its point's representative: none in a welded mesh.
    duplicates: Vec<(u32, u32)>,
    /// Where each point's triangles start in `at_points`, and where the last ends.
    point_starts: Vec<usize>,
    /// The triangles with a corner at each point, point after point, each in increasing order.
    at_points: Vec<u32>,
    /// The mesh cut into small connected patches.
    patches: Patches,
    /// Whether the mesh is closed (see [`TriangleNeighbours::is_closed`]).
    closed: bool,
}

/// Entries a slot holds itself.
const IN_SLOT: usize = 15;

/// One triangle's list in one aligned cache line, found from the triangle's index alone: a table
/// of where each list starts would cost a cached query one more read from cold memory before
/// the triangles' own.
#[repr(C, align(64))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Slot {
    /// The list's length; zero for a list left out.
    len: u32,
    /// The list if it fits; else its start in `longer` first.
    entries: [u32; IN_SLOT],
}

impl Slot {
    /// A slot for `list`, whose entries go to `longer` if they do not fit; `None` if `longer`
    /// would pass `u32` indices (a mesh of over a hundred million triangles).
    fn new(list: &[u32], longer: &mut Vec<u32>) -> Option<Self> {
        let mut entries = [0; IN_SLOT];
        if list.len() <= IN_SLOT {
            entries[..list.len()].copy_from_slice(list);
        } else {
            entries[0] = u32::try_from(longer.len()).ok()?;
            longer.extend_from_slice(list);
        }
        Some(Self { len: list.len() as u32, entries })
    }
}

impl TriangleNeighbours {
    /// The neighbours of every triangle of `mesh`: one sort of its vertices by position, the
    /// triangles at each point gathered, and each triangle's three points' lists merged.
    pub fn of(mesh: &TriMesh) -> Self {
        let at_points = TrianglesAtPoints::of(mesh);
        let lists = |corners: &[u32; 3]| corners.map(|v| at_points.at(v));
        let mut slots = Vec::with_capacity(mesh.indices().len());
        let mut longer = Vec::new();
        let mut list = Vec::with_capacity(MAX_AROUND);
        for corners in mesh.indices() {
            list.clear();
            append_union(lists(corners), &mut list);
            // A list with no room left is left out, as a fan's is: the cache just looks elsewhere.
            slots.push(Slot::new(&list, &mut longer).unwrap_or_default());
        }
        let corners: Vec<[u32; 3]> =
            mesh.indices().iter().map(|c| c.map(|v| at_points.point[v as usize])).collect();
        let positions = point_positions(mesh, &corners, at_points.representatives.len());
        let position = |p: u32| positions[p as usize];
        let patches =
            Patches::of(&corners, at_points.representatives.len(), |p| at_points.at_point(p), position);
        let flat: Vec<bool> = (0..corners.len()).map(|t| mesh.triangle(t).is_degenerate()).collect();
        let closed =
            without_boundary(&corners, &flat, at_points.representatives.len(), |p| at_points.at_point(p));
        let TrianglesAtPoints { representatives, duplicates, start, triangles, .. } = at_points;
        Self {
            slots,
            longer,
            corners,
            representatives,
            duplicates,
            point_starts: start,
            at_points: triangles,
            patches,
            closed,
        }
    }

    /// Whether these lists still hold for `mesh`, the mesh they were made of with its vertices
    /// moved (a refit): its corners share a point number exactly when they share a position.
    /// Then they need not be derived again.
    pub fn still_hold(&self, mesh: &TriMesh) -> bool {
        let vertices = mesh.vertices();
        if mesh.indices().len() != self.corners.len()
            || vertices.len() != self.representatives.len() + self.duplicates.len()
        {
            return false;
        }
        let key = |v: u32| position_key(&vertices[v as usize]);
        // Every vertex still at its point's position ...
        if self.duplicates.iter().any(|&(v, first)| key(v) != key(first)) {
            return false;
        }
        // ... and no two points came together: each position new to a set of those seen (hashed,
        // as moved points no longer come in the order of their numbers, and sorting them would
        // cost more than the rest of a refit).
        let mut seen = QuickSet::with_capacity_and_hasher(self.representatives.len(), Default::default());
        self.representatives.iter().all(|&v| seen.insert(key(v)))
    }

    /// Takes the positions of `mesh`'s points (the mesh these lists were made of, its vertices
    /// moved) into the patches. Lists that no longer hold (see [`Self::still_hold`]) must be
    /// derived again all the same.
    pub fn follow_moved_vertices(&mut self, mesh: &TriMesh) {
        let positions = point_positions(mesh, &self.corners, self.point_count());
        self.patches.move_points(|p| positions[p as usize]);
    }

    /// How many distinct points the mesh's corners are at: every point number is below it.
    pub fn point_count(&self) -> usize {
        self.representatives.len()
    }

    /// The numbers of triangle `t`'s corner points: two corners (of any triangles) have the
    /// same number exactly when they are at the same position.
    #[inline]
    pub fn corner_points(&self, t: usize) -> [u32; 3] {
        self.corners[t]
    }

    /// The triangles with a corner at point `point` (a number below [`Self::point_count`]), in
    /// increasing order: all of them, however many meet there.
    #[inline]
    pub fn triangles_at(&self, point: u32) -> &[u32] {
        let p = point as usize;
        &self.at_points[self.point_starts[p]..self.point_starts[p + 1]]
    }

    /// The mesh cut into small connected patches.
    pub fn patches(&self) -> &Patches {
        &self.patches
    }

    /// Whether the mesh is closed: every edge between two points (positions welded) is an edge
    /// of an even number of triangles – two on a watertight surface, four where two bodies
    /// meet along it – not counting triangles of zero area, which cover no surface. Then, and
    /// only then, a ray's crossings with the surface have a parity that says whether its start
    /// lies inside.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// The triangles sharing a corner point with triangle `t` of the mesh these neighbours were
    /// made of, `t` included, in increasing order; `None` if there are more than
    /// [`MAX_AROUND`] (or no room was left for them, past a hundred million triangles).
    #[inline]
    pub fn around(&self, t: usize) -> Option<&[u32]> {
        let slot = &self.slots[t];
        let len = slot.len as usize;
        match len {
            0 => None,
            1..=IN_SLOT => Some(&slot.entries[..len]),
            _ => {
                let start = slot.entries[0] as usize;
                Some(&self.longer[start..start + len])
            }
        }
    }
}

/// The triangles at each corner point of a mesh, for merging into each triangle's list.
struct TrianglesAtPoints {
    /// Each vertex's point.
    point: Vec<u32>,
    /// Where each point's triangles start in `triangles`, and where the last ends.
    start: Vec<usize>,
    /// Triangle indices, grouped by point, each group in increasing order.
    triangles: Vec<u32>,
    /// One vertex per point (its first), in vertex order.
    representatives: Vec<u32>,
    /// The other vertices, each with its point's first.
    duplicates: Vec<(u32, u32)>,
}

impl TrianglesAtPoints {
    fn of(mesh: &TriMesh) -> Self {
        let keys: Vec<[u32; 3]> = mesh.vertices().iter().map(position_key).collect();
        let mut by_position: Vec<u32> = (0..keys.len() as u32).collect();
        by_position.sort_unstable_by_key(|&v| keys[v as usize]);
        // Each vertex's position: the number of distinct positions before its own.
        let mut position = vec![0u32; keys.len()];
        let mut point_count = 0;
        for (k, &v) in by_position.iter().enumerate() {
            if k > 0 && keys[by_position[k - 1] as usize] != keys[v as usize] {
                point_count += 1;
            }
            position[v as usize] = point_count as u32;
        }
        point_count += usize::from(!keys.is_empty());
        // Points numbered in the order the triangles first reach them (then any no triangle
        // uses): a tree's triangles lie in leaf order, so a walk across the surface reads the
        // points' lists and marks close together rather than in the order of their coordinates.
        let mut number = vec![u32::MAX; point_count];
        let mut numbered = 0;
        let corners = mesh.indices().iter().flatten().map(|&v| v as usize);
        for v in corners.chain(0..keys.len()) {
            let n = &mut number[position[v] as usize];
            if *n == u32::MAX {
                *n = numbered;
                numbered += 1;
            }
        }
        let point: Vec<u32> = position.iter().map(|&p| number[p as usize]).collect();
        // In vertex order, so a refit's check reads the moved vertices in the order they lie.
        let mut first_vertex = vec![u32::MAX; point_count];
        let (mut representatives, mut duplicates) = (Vec::with_capacity(point_count), Vec::new());
        for (v, &p) in point.iter().enumerate() {
            let first = &mut first_vertex[p as usize];
            if *first == u32::MAX {
                *first = v as u32;
                representatives.push(v as u32);
            } else {
                duplicates.push((v as u32, *first));
            }
        }
        let mut start = vec![0; point_count + 1];
        for corner in mesh.indices().iter().flatten() {
            start[point[*corner as usize] as usize + 1] += 1;
        }
        for p in 0..point_count {
            start[p + 1] += start[p];
        }
        let mut filled = start.clone();
        let mut triangles = vec![0u32; start[point_count]];
        for (t, corners) in mesh.indices().iter().enumerate() {
            for corner in corners {
                let slot = &mut filled[point[*corner as usize] as usize];
                triangles[*slot] = t as u32;
                *slot += 1;
            }
        }
        Self { point, start, triangles, representatives, duplicates }
    }

    /// The triangles at vertex `v`'s point, in increasing order.
    fn at(&self, v: u32) -> &[u32] {
        self.at_point(self.point[v as usize])
    }

    /// The triangles at point `p`, in increasing order.
    fn at_point(&self, p: u32) -> &[u32] {
        let p = p as usize;
        &self.triangles[self.start[p]..self.start[p + 1]]
    }
}

/// Whether every edge of the triangles `corners` (point numbers below `points`), those `flat`
/// left out, is used an even number of times, from `at_point` (each point's triangles, in
/// increasing order): each point's edges to higher points counted around it, a fan at a time,
/// so the work is linear in the mesh however large its fans.
fn without_boundary<'a>(
    corners: &[[u32; 3]],
    flat: &[bool],
    points: usize,
    at_point: impl Fn(u32) -> &'a [u32],
) -> bool {
    let mut uses = vec![0u32; points];
    let mut ends: Vec<u32> = Vec::new();
    (0..points as u32).all(|p| {
        let triangles = at_point(p);
        for (k, &t) in triangles.iter().enumerate() {
            // A triangle with two corners at `p` is listed twice, side by side.
            if flat[t as usize] || k > 0 && triangles[k - 1] == t {
                continue;
            }
            let c = corners[t as usize];
            for (u, v) in [(c[0], c[1]), (c[1], c[2]), (c[2], c[0])] {
                let other = if u == p {
                    v
                } else if v == p {
                    u
                } else {
                    continue;
                };
                if other > p {
                    if uses[other as usize] == 0 {
                        ends.push(other);
                    }
                    uses[other as usize] += 1;
                }
            }
        }
        let even = ends.iter().all(|&q| uses[q as usize] % 2 == 0);
        for q in ends.drain(..) {
            uses[q as usize] = 0;
        }
        even
    })
}

/// Appends the union of three increasing lists to `out`, each entry once, in increasing
/// order, unless it has more than [`MAX_AROUND`] entries.
fn append_union(lists: [&[u32]; 3], out: &mut Vec<u32>) {
    if lists.iter().any(|list| list.len() > MAX_AROUND) {
        return;
    }
    let mut two = [0; 2 * MAX_AROUND];
    let n = union(lists[0], lists[1], &mut two);
    let mut three = [0; 3 * MAX_AROUND];
    let n = union(&two[..n], lists[2], &mut three);
    if n <= MAX_AROUND {
        out.extend_from_slice(&three[..n]);
    }
}

/// Writes the union of two increasing lists to `out` (room for both), each entry once, in
/// increasing order; returns its length.
fn union(x: &[u32], y: &[u32], out: &mut [u32]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while let (Some(&a), Some(&b)) = (x.get(i), y.get(j)) {
        out[n] = a.min(b);
        n += 1;
        i += usize::from(a <= b);
        j += usize::from(b <= a);
    }
    for &rest in x[i..].iter().chain(&y[j..]) {
        out[n] = rest;
        n += 1;
    }
    n
}

/// Where each of the `point_count` points is, by point number, from the corners of `mesh`'s
/// triangles, whose points are `corners` (a point no triangle uses is left at the origin).
fn point_positions(mesh: &TriMesh, corners: &[[u32; 3]], point_count: usize) -> Vec<Point> {
    let mut positions = vec![Point::origin(); point_count];
    for (t, points) in corners.iter().enumerate() {
        for (&p, position) in points.iter().zip(mesh.triangle(t).vertices()) {
            positions[p as usize] = position;
        }
    }
    positions
}

/// A point's coordinates as bits, `-0` taken as `0` (mesh coordinates are finite).
fn position_key(p: &Point) -> [u32; 3] {
    [0, 1, 2].map(|i| if p[i] == 0.0 { 0 } else { p[i].to_bits() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vector;

    /// A fan of four triangles around the origin, the first given with its own copies of the
    /// shared vertices (as an STL file would), and a fifth triangle touching nothing.
    #[test]
    fn triangles_meeting_at_a_point_are_neighbours_however_the_vertices_are_shared() {
        let p = |x: f32, y: f32| Point::new(x, y, 0.0);
        let vertices = vec![
            p(0.0, 0.0),
            p(1.0, 0.0),
            p(0.0, 1.0),
            p(-1.0, 0.0),
            p(0.0, -1.0),
            // Copies for the first triangle; the origin written as -0.
            Point::new(-0.0, 0.0, -0.0),
            p(1.0, 0.0),
            p(0.0, 1.0),
            // Far away.
            p(5.0, 5.0),
            p(6.0, 5.0),
            p(5.0, 6.0),
        ];
        let triangles = vec![[5, 6, 7], [0, 2, 3], [0, 3, 4], [0, 4, 1], [8, 9, 10]];
        let mesh = TriMesh::new(vertices, triangles).unwrap();
        let n = TriangleNeighbours::of(&mesh);
        for t in 0..4 {
            assert_eq!(n.around(t), Some(&[0, 1, 2, 3][..]), "triangle {t}");
        }
        assert_eq!(n.around(4), Some(&[4][..]));
        // The copies are the same points as the shared vertices, in the same corners.
        let origin = n.corner_points(1)[0];
        assert_eq!(n.corner_points(0), [origin, n.corner_points(3)[2], n.corner_points(1)[1]]);
        assert_eq!(n.point_count(), 8);
        let far = n.corner_points(4);
        assert!(far.iter().all(|p| !n.corner_points(0).contains(p)) && far[0] != far[1] && far[1] != far[2]);
    }

    /// A tetrahedron is closed, written with shared vertices or with a copy per corner; with a
    /// face left out, or a third triangle on one edge, it is not; two tetrahedra meeting along
    /// an edge are (four triangles there), and so is one with triangles of zero area added.
    #[test]
    fn closed_means_every_edge_used_an_even_number_of_times() {
        let tetra = || {
            [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
                .map(|[x, y, z]| Point::new(x, y, z))
        };
        let faces = [[0, 2, 1], [0, 1, 3], [1, 2, 3], [0, 3, 2]];
        let closed = |vertices: Vec<Point>, triangles: Vec<[u32; 3]>| {
            TriangleNeighbours::of(&TriMesh::new(vertices, triangles).unwrap()).is_closed()
        };
        assert!(closed(tetra().to_vec(), faces.to_vec()));
        let soup: Vec<Point> = faces.iter().flat_map(|f| f.map(|v| tetra()[v as usize])).collect();
        assert!(closed(soup, (0..4).map(|t| [0, 1, 2].map(|k| 3 * t + k)).collect()));
        assert!(!closed(tetra().to_vec(), faces[..3].to_vec()));
        let mut fin = tetra().to_vec();
        fin.push(Point::new(-1.0, -1.0, 0.0));
        assert!(!closed(fin, [&faces[..], &[[0, 1, 4]]].concat()));
        // A second tetrahedron below the first, sharing its edge from (0, 0, 0) to (1, 0, 0).
        let mut two = tetra().to_vec();
        two.extend(tetra().iter().map(|p| Point::new(p.x, -p.y, -p.z)));
        let shared: Vec<[u32; 3]> =
            faces.iter().copied().chain(faces.iter().map(|f| f.map(|v| v + 4))).collect();
        assert!(closed(two, shared));
        let mut collapsed = tetra().to_vec();
        collapsed.push(collapsed[0]);
        // Triangles of zero area cover no surface: one collapsed onto an edge, one on a face.
        collapsed.extend([Point::new(0.2, 0.0, 0.2), Point::new(0.4, 0.0, 0.4)]);
        assert!(closed(collapsed, [&faces[..], &[[0, 4, 1], [0, 5, 6]]].concat()));
    }

    /// Lists made of a mesh still hold after its vertices moved together, not after two
    /// corners at one position came apart or two positions came together.
    #[test]
    fn lists_still_hold_while_no_corners_part_or_meet() {
        let p = |x: f32, y: f32| Point::new(x, y, 0.0);
        // Two triangles sharing an edge through copies of its vertices, and a third apart.
        let vertices =
            vec![p(0.0, 0.0), p(1.0, 0.0), p(0.0, 1.0), p(1.0, 0.0), p(1.0, 1.0), p(0.0, 1.0), p(3.0, 0.0)];
        let triangles = vec![[0, 1, 2], [3, 4, 5], [6, 6, 6]];
        let mesh = TriMesh::new(vertices.clone(), triangles.clone()).unwrap();
        let lists = TriangleNeighbours::of(&mesh);
        let moved = |f: &dyn Fn(usize, Point) -> Point| {
            let v = vertices.iter().enumerate().map(|(k, q)| f(k, *q)).collect();
            TriMesh::new(v, triangles.clone()).unwrap()
        };
        assert!(lists.still_hold(&moved(&|_, q| q + Vector::new(0.5, -2.0, 1.0))));
        assert!(lists.still_hold(&moved(&|_, q| Point::new(q.y, q.x, q.z))));
        // The copy of (1, 0) moves off the original: the triangles no longer share it.
        assert!(!lists.still_hold(&moved(&|k, q| if k == 3 { p(1.0, 0.5) } else { q })));
        // The lone triangle lands on the shared corner: now it shares it.
        assert!(!lists.still_hold(&moved(&|k, q| if k == 6 { p(1.0, 1.0) } else { q })));
        // Either copy of a shared vertex moving alone parts it (whichever is its point's first).
        assert!(!lists.still_hold(&moved(&|k, q| if k == 1 { p(1.0, 0.5) } else { q })));
        assert!(!lists.still_hold(&moved(&|k, q| if k == 5 { p(0.0, 2.0) } else { q })));
        // Another mesh (one more vertex, same triangles) is not the one the lists were made of.
        let mut more = vertices.clone();
        more.push(p(9.0, 9.0));
        assert!(!lists.still_hold(&TriMesh::new(more, triangles.clone()).unwrap()));
    }

    /// On a grid of squares, each cut in two and every triangle with its own vertices, the
    /// lists equal the triangles found sharing a position by comparing every pair; the
    /// triangles of a fan with more than [`MAX_AROUND`] around them have none.
    #[test]
    fn lists_hold_exactly_the_triangles_sharing_a_position_up_to_the_limit() {
        let grid = (0..6).flat_map(|x| grid_column(x, 5));
        // A fan of 40 thin triangles around a point off the grid.
        let mesh = separate(grid.chain(fan(Point::new(20.0, 0.0, 0.0), 40)));
        let n = TriangleNeighbours::of(&mesh);
        let corners = |t: usize| mesh.indices()[t].map(|v| mesh.vertices()[v as usize]);
        for t in 0..mesh.indices().len() {
            let sharing: Vec<u32> = (0..mesh.indices().len())
                .filter(|&u| corners(u).iter().any(|c| corners(t).contains(c)))
                .map(|u| u as u32)
                .collect();
            if sharing.len() > MAX_AROUND {
                assert_eq!(n.around(t), None, "triangle {t}");
            } else {
                assert_eq!(n.around(t), Some(&sharing[..]), "triangle {t}");
            }
        }
        // Inside the grid a triangle meets 13, itself included; every fan triangle is left out.
        assert_eq!(n.around(2 * (5 * 2 + 2)).map(<[u32]>::len), Some(13));
        assert!((60..100).all(|t| n.around(t).is_none()));
    }

    /// A large mesh against a map from positions to triangles, with many lists too long for a slot.
    #[test]
    fn lists_match_the_triangles_sharing_each_position() {
        // After every tenth column, a fan of 20 triangles: lists of 20 go past the slot.
        let mesh = separate((0..80).flat_map(|x| {
            let tenth = (x % 10 == 0).then(|| fan(Point::new(-10.0 - x as f32, 0.0, 0.0), 20));
            grid_column(x, 60).chain(tenth.into_iter().flatten())
        }));
        let mut at: std::collections::BTreeMap<[u32; 3], Vec<u32>> = Default::default();
        for (t, corners) in mesh.indices().iter().enumerate() {
            for &v in corners {
                at.entry(position_key(&mesh.vertices()[v as usize])).or_default().push(t as u32);
            }
        }
        let n = TriangleNeighbours::of(&mesh);
        let mut long = 0;
        for (t, corners) in mesh.indices().iter().enumerate() {
            let mut sharing: Vec<u32> = corners
                .iter()
                .flat_map(|&v| at[&position_key(&mesh.vertices()[v as usize])].clone())
                .collect();
            sharing.sort_unstable();
            sharing.dedup();
            long += usize::from(sharing.len() > IN_SLOT);
            let expected = (sharing.len() <= MAX_AROUND).then_some(&sharing[..]);
            assert_eq!(n.around(t), expected, "triangle {t}");
        }
        assert!(long >= 8 * 20, "{long} lists past the slot");
    }

    /// A mesh of the triangles, each with its own three vertices.
    fn separate(triangles: impl IntoIterator<Item = [Point; 3]>) -> TriMesh {
        let vertices: Vec<Point> = triangles.into_iter().flatten().collect();
        let triangles = (0..vertices.len() as u32 / 3).map(|t| [3 * t, 3 * t + 1, 3 * t + 2]).collect();
        TriMesh::new(vertices, triangles).unwrap()
    }

    /// Column `x` of a grid of unit squares in the plane z = 0, `rows` high, each square cut
    /// in two.
    fn grid_column(x: usize, rows: usize) -> impl Iterator<Item = [Point; 3]> {
        let p = |x: usize, y: usize| Point::new(x as f32, y as f32, 0.0);
        (0..rows).flat_map(move |y| {
            [[p(x, y), p(x + 1, y), p(x + 1, y + 1)], [p(x, y), p(x + 1, y + 1), p(x, y + 1)]]
        })
    }

    /// `count` thin triangles around `hub`, their outer corners on a unit circle in z = 0.
    fn fan(hub: Point, count: usize) -> impl Iterator<Item = [Point; 3]> {
        let rim = move |k: usize| {
            let a = k as f32 * std::f32::consts::TAU / count as f32;
            hub + Vector::new(a.cos(), a.sin(), 0.0)
        };
        (0..count).map(move |k| [hub, rim(k), rim(k + 1)])
    }

    #[test]
    fn an_empty_mesh_has_no_neighbours() {
        let empty = TriMesh::default();
        let n = TriangleNeighbours::of(&empty);
        assert_eq!(n.point_count(), 0);
        assert!(n.slots.is_empty() && n.at_points.is_empty() && n.still_hold(&empty));
    }
}
