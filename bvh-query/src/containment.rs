//! Containment: a part inside a housing touches no surface but is still a collision. For closed
//! meshes, when no triangles intersect, one object is inside the other exactly when any one of
//! its vertices is, decided by the parity of a ray's crossings of the other's surface.

use crate::node_test::NodeTest;
use crate::query::Query;
use crate::stats::Stats;
use bvh_build::{Bvh, ChildRef, NodeVolume};
use bvh_core::predicates::orient3d;
use bvh_core::{Aabb, Point, Real, RelativePose, Vector};
use smallvec::SmallVec;
use std::cmp::Ordering::{self, Equal, Greater, Less};

/// Whether one closed object lies inside the other.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Containment {
    /// Neither is inside the other (they may still intersect: ask `intersects`).
    Apart,
    /// Their surfaces intersect.
    Crossing,
    /// A lies inside B.
    AInsideB,
    /// B lies inside A.
    BInsideA,
}

/// Ray directions tried in turn; a ray that grazes an edge or vertex is discarded for the next.
const DIRECTIONS: [[f32; 3]; 6] = [
    [1.0, 0.000_31, 0.000_17],
    [0.000_23, 1.0, 0.000_41],
    [0.000_37, 0.000_13, 1.0],
    [-1.0, 0.000_29, -0.000_19],
    [0.000_43, -1.0, 0.000_11],
    [-0.000_07, 0.000_53, -1.0],
];

impl<VA, VB> Query<'_, VA, VB>
where
    VA: NodeVolume + NodeTest<VB>,
    VB: NodeVolume,
{
    /// Whether the meshes cross, one lies inside the other, or neither (see
    /// [`Query::containment_counted`]).
    pub fn containment(&self) -> Containment {
        self.containment_counted(&mut ())
    }

    /// Containment of closed meshes (for open meshes the answer means nothing): `Crossing` if
    /// any triangles intersect, else whether a vertex of one lies inside the other.
    pub fn containment_counted(&self, stats: &mut impl Stats) -> Containment {
        if !self.placed() {
            return Containment::Apart;
        }
        if self.intersects_counted(None, stats).is_some() {
            return Containment::Crossing;
        }
        let (a, b) = (self.a.bvh, self.b.bvh);
        let b_in_a = self.b_in_a;
        let a_in_b = b_in_a.inverse();
        // A vertex of a triangle (not just any listed vertex, which may be unused).
        if !b.mesh().is_empty() && inside(a, &b_in_a.transform_point(&b.triangle(0).a)) {
            return Containment::BInsideA;
        }
        if !a.mesh().is_empty() && inside(b, &a_in_b.transform_point(&a.triangle(0).a)) {
            return Containment::AInsideB;
        }
        Containment::Apart
    }
}

/// Whether `p` (in the tree's frame) lies inside the closed mesh, by the parity of a ray's
/// crossings. A ray that grazes an edge or vertex is discarded for the next direction; a point
/// that every direction grazes lies on the surface, and is reported outside.
pub(crate) fn inside<V: NodeVolume>(tree: &Bvh<V>, p: &Point) -> bool {
    if tree.node_count() == 0 {
        return false;
    }
    let bounds = tree.volume(0).enclosing_aabb(&RelativePose::identity());
    if !bounds.contains_point(p) {
        return false;
    }
    // Each ray ends just past the bounds, and the shortest goes first: it passes the fewest nodes.
    let beyond = 0.01 * bounds.extents().norm() + 1e-6 * (p.coords.amax() + 1.0);
    let exit = |d: &Vector| {
        (0..3)
            .filter(|&k| d[k] != 0.0)
            .map(|k| (if d[k] > 0.0 { bounds.maxs[k] } else { bounds.mins[k] } - p[k]) / d[k])
            .fold(Real::INFINITY, Real::min)
    };
    let mut rays = DIRECTIONS.map(|d| {
        let d = Vector::from(d);
        (exit(&d), d)
    });
    rays.sort_by(|x, y| x.0.total_cmp(&y.0));
    rays.iter().find_map(|(reach, d)| parity(tree, p, &(p + d * (reach + beyond)))).unwrap_or(false)
}

/// The parity of the segment `p q`'s crossings with the mesh, or `None` if it touches an edge,
/// a vertex, or lies in a triangle's plane somewhere (then the count is ambiguous).
fn parity<V: NodeVolume>(tree: &Bvh<V>, p: &Point, q: &Point) -> Option<bool> {
    let ray_box = Aabb::from_points(&[*p, *q]);
    let mut crossings = 0usize;
    // Room for a path as deep as trees get, on the stack (a deeper one spills to the heap).
    let mut stack: SmallVec<[usize; 64]> = SmallVec::new();
    stack.push(0);
    while let Some(node) = stack.pop() {
        if !tree.volume(node).overlaps(&ray_box, &RelativePose::identity()) {
            continue;
        }
        for child in tree.children(node) {
            match child.get() {
                ChildRef::Node(i) => stack.push(i),
                ChildRef::Leaf(range) => {
                    for t in range.map(|i| tree.triangle(i)) {
                        match crossing(p, q, &t.a, &t.b, &t.c) {
                            Some(true) => crossings += 1,
                            Some(false) => {}
                            None => return None,
                        }
                    }
                }
            }
        }
    }
    Some(crossings % 2 == 1)
}

/// Whether segment `p q` crosses triangle `a b c` properly (`Some(true)`), misses it
/// (`Some(false)`), or touches it degenerately (`None`): through an edge or vertex, from an
/// end point on its plane, or lying in its plane.
pub(crate) fn crossing(p: &Point, q: &Point, a: &Point, b: &Point, c: &Point) -> Option<bool> {
    crossing_from_sides(p, q, [orient3d(a, b, c, p), orient3d(a, b, c, q)], a, b, c)
}

/// [`crossing`], given the sides of the triangle's plane that `p` and `q` lie on (`orient3d`):
/// a vertex shared by several edges is placed once.
pub(crate) fn crossing_from_sides(
    p: &Point,
    q: &Point,
    [sp, sq]: [Ordering; 2],
    a: &Point,
    b: &Point,
    c: &Point,
) -> Option<bool> {
    if sp == sq && sp != Equal {
        return Some(false);
    }
    if sp == Equal || sq == Equal {
        // On the plane: touching the triangle is ambiguous, missing it is not.
        return if segment_meets(p, q, a, b, c) { None } else { Some(false) };
    }
    let signs = [orient3d(p, q, a, b), orient3d(p, q, b, c), orient3d(p, q, c, a)];
    if signs.contains(&Greater) && signs.contains(&Less) {
        return Some(false);
    }
    if signs.contains(&Equal) { None } else { Some(true) }
}

fn segment_meets(p: &Point, q: &Point, a: &Point, b: &Point, c: &Point) -> bool {
    bvh_core::segment_intersects_triangle(
        &bvh_core::Segment::new(*p, *q),
        &bvh_core::Triangle::new(*a, *b, *c),
    )
}
