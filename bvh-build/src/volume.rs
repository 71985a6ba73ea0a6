//! The volumes a tree's nodes can carry, behind one trait so trees and traversals are
//! monomorphised per volume type.

use crate::fit::ObbFit;
use crate::split::SplitFrame;
use bvh_core::overlap::Overlap;
use bvh_core::triangle::PlacedTriangles;
use bvh_core::{Aabb, Matrix, Obb, Point, Real, RelativePose, Separation, Sphere, Vector};

/// Which node volume a tree carries (the tag stored with serialised trees).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VolumeKind {
    /// Oriented boxes.
    Obb,
    /// Axis-aligned boxes in the object's frame.
    Aabb,
    /// Spheres.
    Sphere,
}

/// A child of a node fitted bottom-up, as the node's fit sees it.
#[derive(Clone, Copy)]
pub struct FittedChild<'a, V> {
    /// Its volume, `None` for a leaf.
    pub volume: Option<V>,
    /// Its triangles' corner points (each vertex at least once).
    pub points: &'a [Point],
    /// Its hull samples (its corners when they are few).
    pub samples: &'a [Point],
}

/// A node volume: fitted to a node's geometry, tested against another tree's volumes across
/// frames (overlap, and a lower bound on the distance), and giving the axes along which the node is split.
pub trait NodeVolume:
    Copy
    + Send
    + Sync
    + bytemuck::Pod
    + Overlap<Self>
    + Overlap<Aabb>
    + Separation<Self>
    + Separation<Aabb>
    + 'static
{
    /// The tag of this volume type.
    const KIND: VolumeKind;

    /// The volume of a node whose triangles' vertices are `corners` (three per triangle) and
    /// whose bounding box is `bounds`, and the axes along which the node's split planes are
    /// placed with the range its geometry spans on each (an OBB's axes, those before any turn).
    fn fit(corners: &[Point], bounds: &Aabb, fit: &ObbFit) -> (Self, SplitFrame);

    /// The volume of a node built bottom-up ([`Construction::Binned`](crate::Construction)):
    /// as [`NodeVolume::fit`], with an OBB's axes taken from `samples`, a few extreme points
    /// its children passed up, and turned only when `turn` (the node is large enough to pay);
    /// `points` are its triangles' corners, each vertex at least once.
    fn fit_sampled(points: &[Point], bounds: &Aabb, samples: &[Point], fit: &ObbFit, turn: bool) -> Self;

    /// A bottom-up node's volume from [`NodeVolume::fit_sampled`], or – for an OBB – its box on
    /// one of its children's axes where that is smaller. Principal axes follow the spread of a
    /// large node's samples; a child's axes, chosen for its own part, often fit the whole
    /// better.
    fn or_on_children_axes(self, _children: [FittedChild<'_, Self>; 2]) -> Self {
        self
    }

    /// `true` when `p` lies in the volume grown by `tolerance`.
    fn contains_within(&self, p: &Point, tolerance: Real) -> bool;

    /// Whether a refit fits this volume around its leaf triangles and its child nodes' new
    /// volumes (exact for boxes on the same axes) rather than around every triangle below it:
    /// a box around boxes on other axes, or a ball around balls, would grow with every level.
    const REFITS_FROM_CHILDREN: bool;

    /// The volume of this kind after its triangles moved, for a refit: around `points` and
    /// `children` – the leaf triangles' corners and the child nodes' volumes if the kind
    /// [refits from its children](NodeVolume::REFITS_FROM_CHILDREN), else every vertex below it
    /// (each once) and none. An OBB keeps its axes; the others are fitted by the build's rule.
    fn refitted<'p>(&self, points: impl Iterator<Item = &'p Point> + Clone, children: &[Self]) -> Self;

    /// The volume's measure (for tightness statistics, and to descend the larger of two nodes
    /// in first-contact and distance searches).
    fn measure(&self) -> Real;

    /// The volume's surface area (to descend the larger of two nodes in a search for every
    /// pair: a flat box – a piece of wall – has almost no volume yet meets much).
    fn surface_area(&self) -> Real;

    /// The volume's centre (to visit nearer pairs of volumes first).
    fn center(&self) -> Point;

    /// How far the volume reaches from its centre along `direction`, in units of its length:
    /// the thickness of a slab between two volumes.
    fn half_width(&self, direction: &Vector) -> Real;

    /// The volume grown by `margin` on every side: it holds every point within `margin` of
    /// the original (for clearance queries).
    fn inflated(&self, margin: Real) -> Self;

    /// The axis-aligned box, in another frame, around the volume placed there by `pose`.
    fn enclosing_aabb(&self, pose: &RelativePose) -> Aabb;

    /// The box a node keeps beside its volume, in the tree's own frame, for cheap first tests.
    fn own_box(&self) -> Aabb {
        self.enclosing_aabb(&RelativePose::identity()).padded()
    }

    /// A lower bound on the distance between the volume and the nearest of the triangles whose
    /// `corners` (in the volume's frame) are given three by three – a leaf's, far tighter than
    /// their box in their own tree's frame – taking pains only while it stays below `cutoff`.
    fn triangles_bound(&self, corners: &[Point], cutoff: Real) -> Real;

    /// The box a triangle placed in the volume's frame is tested against: the volume itself,
    /// or a box holding it.
    fn triangle_box(&self) -> Obb;

    /// Of the triangles of `triangles` (placed in the volume's frame) in `asked`, a bit for each
    /// that may meet the volume grown by `margin` on every side; clear where a separating axis
    /// shows they miss. Tested in `f32`: callers that must stay conservative include in
    /// `margin` the rounding slack of the coordinates' magnitude.
    #[inline]
    fn may_meet_triangles(&self, triangles: &PlacedTriangles, asked: u32, margin: Real) -> u32 {
        let b = self.triangle_box();
        triangles.may_meet_box(asked, &b.center, &b.axes, &b.half_extents, margin)
    }

    /// A lower bound on the distance between the volume and the nearest of the triangles of
    /// `groups` (placed in the volume's frame), zero when one may meet it: for each, the widest
    /// gap along the axes [`NodeVolume::may_meet_triangles`] tries.
    #[inline]
    fn nearest_triangle_gap(&self, groups: &[PlacedTriangles]) -> Real {
        let b = self.triangle_box();
        let gaps = groups.iter().flat_map(|group| group.box_gaps(&b.center, &b.axes, &b.half_extents));
        gaps.fold(Real::INFINITY, Real::min)
    }

    /// A volume holding this one at every point of a translation by `motion` (in the
    /// volume's own frame): for swept tests.
    fn swept(&self, motion: &Vector) -> Self;

    /// `true` when every number in it is finite (used to validate loaded bytes).
    fn is_finite(&self) -> bool {
        bytemuck::cast_slice::<Self, Real>(std::slice::from_ref(self)).iter().all(|x| x.is_finite())
    }
}

impl NodeVolume for Obb {
    const KIND: VolumeKind = VolumeKind::Obb;
    const REFITS_FROM_CHILDREN: bool = false;

    fn fit(corners: &[Point], bounds: &Aabb, fit: &ObbFit) -> (Self, SplitFrame) {
        let (obb, split_box) = fit.fit_with_split_box(corners, bounds);
        let c = split_box.axes.tr_mul(&split_box.center.coords);
        let frame = SplitFrame {
            axes: split_box.axes,
            lo: std::array::from_fn(|d| c[d] - split_box.half_extents[d]),
            hi: std::array::from_fn(|d| c[d] + split_box.half_extents[d]),
        };
        (obb, frame)
    }

    fn fit_sampled(points: &[Point], bounds: &Aabb, samples: &[Point], fit: &ObbFit, turn: bool) -> Self {
        fit.fit_sampled(points, bounds, samples, turn)
    }

    fn or_on_children_axes(self, [left, right]: [FittedChild<'_, Self>; 2]) -> Self {
        // On a child's axes, its own box stands for its corners (exact but for rounding) and
        // only the other's points are projected: first its samples, a lower bound that rules
        // most children out, then all its corners.
        let on_axes_of = |child: &Obb, others: &[Point]| {
            child.merged_on_axes(&Obb::from_point_slice_with_axes(others, &child.axes), &child.axes)
        };
        let mut best = self;
        for (child, other) in [(left.volume, right), (right.volume, left)] {
            let Some(child) = child else { continue };
            if on_axes_of(&child, other.samples).volume() < best.volume() {
                let whole = on_axes_of(&child, other.points);
                if whole.volume() < best.volume() {
                    best = whole;
                }
            }
        }
        best
    }

    fn contains_within(&self, p: &Point, tolerance: Real) -> bool {
        let local = self.axes.tr_mul(&(p - self.center));
        (0..3).all(|i| local[i].abs() <= self.half_extents[i] + tolerance)
    }

    fn refitted<'p>(&self, points: impl Iterator<Item = &'p Point> + Clone, _: &[Self]) -> Self {
        Obb::from_points_with_axes(points, &self.axes)
    }

    fn measure(&self) -> Real {
        self.volume()
    }

    fn surface_area(&self) -> Real {
        Obb::surface_area(self)
    }

    fn center(&self) -> Point {
        self.center
    }

    fn half_width(&self, direction: &Vector) -> Real {
        (self.axes.transpose() * direction).abs().dot(&self.half_extents)
    }

    fn inflated(&self, margin: Real) -> Self {
        Obb { half_extents: self.half_extents.add_scalar(margin), ..*self }
    }

    fn swept(&self, motion: &Vector) -> Self {
        let reach = self.axes.tr_mul(motion).abs() * 0.5;
        let pad = 4.0 * Real::EPSILON * (self.half_extents.norm() + motion.norm());
        Obb {
            center: self.center + motion * 0.5,
            axes: self.axes,
            half_extents: (self.half_extents + reach).add_scalar(pad),
        }
    }

    fn triangles_bound(&self, corners: &[Point], cutoff: Real) -> Real {
        self.triangles_gap(corners, cutoff)
    }

    #[inline]
    fn triangle_box(&self) -> Obb {
        *self
    }

    fn enclosing_aabb(&self, pose: &RelativePose) -> Aabb {
        rounded_aabb(&self.placed(pose))
    }

    /// Not turned by an identity pose: a refit gives every node a new box.
    fn own_box(&self) -> Aabb {
        rounded_aabb(self).padded()
    }
}

/// The axis-aligned box around an OBB, grown by the rounding of its half extents.
#[inline]
fn rounded_aabb(obb: &Obb) -> Aabb {
    let half = obb.axes.abs() * obb.half_extents;
    Aabb::from_half_extents(obb.center, half).inflated(Real::EPSILON * half.amax())
}

impl NodeVolume for Aabb {
    const KIND: VolumeKind = VolumeKind::Aabb;
    const REFITS_FROM_CHILDREN: bool = true;

    fn fit(_: &[Point], bounds: &Aabb, _: &ObbFit) -> (Self, SplitFrame) {
        (*bounds, SplitFrame { axes: Matrix::identity(), lo: bounds.mins.into(), hi: bounds.maxs.into() })
    }

    fn fit_sampled(_: &[Point], bounds: &Aabb, _: &[Point], _: &ObbFit, _: bool) -> Self {
        *bounds
    }

    fn contains_within(&self, p: &Point, tolerance: Real) -> bool {
        self.inflated(tolerance).contains_point(p)
    }

    fn refitted<'p>(&self, points: impl Iterator<Item = &'p Point> + Clone, children: &[Self]) -> Self {
        children.iter().fold(Aabb::from_points(points), |all, b| all.merged(b))
    }

    fn measure(&self) -> Real {
        self.volume()
    }

    fn surface_area(&self) -> Real {
        Aabb::surface_area(self)
    }

    fn center(&self) -> Point {
        Aabb::center(self)
    }

    fn half_width(&self, direction: &Vector) -> Real {
        direction.abs().dot(&self.half_extents())
    }

    fn inflated(&self, margin: Real) -> Self {
        self.inflated(margin)
    }

    fn swept(&self, motion: &Vector) -> Self {
        self.merged(&Aabb::new(self.mins + motion, self.maxs + motion))
    }

    fn triangles_bound(&self, corners: &[Point], _cutoff: Real) -> Real {
        self.distance(&Aabb::from_points(corners)) as Real
    }

    #[inline]
    fn triangle_box(&self) -> Obb {
        Obb::from_aabb(self)
    }

    fn enclosing_aabb(&self, pose: &RelativePose) -> Aabb {
        Obb::containing_aabb(self).enclosing_aabb(pose)
    }

    fn own_box(&self) -> Aabb {
        self.padded()
    }
}

impl NodeVolume for Sphere {
    const KIND: VolumeKind = VolumeKind::Sphere;
    const REFITS_FROM_CHILDREN: bool = false;

    fn fit(corners: &[Point], _: &Aabb, _: &ObbFit) -> (Self, SplitFrame) {
        let sphere = Sphere::from_points(corners);
        let r = sphere.radius;
        let frame = SplitFrame {
            axes: Matrix::identity(),
            lo: (sphere.center.coords.add_scalar(-r)).into(),
            hi: (sphere.center.coords.add_scalar(r)).into(),
        };
        (sphere, frame)
    }

    fn fit_sampled(points: &[Point], _: &Aabb, _: &[Point], _: &ObbFit, _: bool) -> Self {
        Sphere::from_points(points)
    }

    fn contains_within(&self, p: &Point, tolerance: Real) -> bool {
        (p - self.center).norm() <= self.radius + tolerance
    }

    fn refitted<'p>(&self, points: impl Iterator<Item = &'p Point> + Clone, _: &[Self]) -> Self {
        Sphere::from_points(points)
    }

    fn measure(&self) -> Real {
        self.volume()
    }

    fn surface_area(&self) -> Real {
        Sphere::surface_area(self)
    }

    fn center(&self) -> Point {
        self.center
    }

    fn half_width(&self, direction: &Vector) -> Real {
        self.radius * direction.norm()
    }

    fn inflated(&self, margin: Real) -> Self {
        Sphere::new(self.center, self.radius + margin)
    }

    fn swept(&self, motion: &Vector) -> Self {
        let radius = (self.radius + motion.norm() * 0.5) * (1.0 + 4.0 * Real::EPSILON);
        Sphere::new(self.center + motion * 0.5, radius)
    }

    fn triangles_bound(&self, corners: &[Point], _cutoff: Real) -> Real {
        let hull = Aabb::from_points(corners);
        let nearest = self.center.coords.sup(&hull.mins.coords).inf(&hull.maxs.coords);
        ((nearest - self.center.coords).norm() - self.radius).max(0.0)
    }

    /// The sphere's cube stands in for it: a cheap test, loose only at the cube's corners.
    #[inline]
    fn triangle_box(&self) -> Obb {
        Obb::new(self.center, Matrix::identity(), Vector::repeat(self.radius))
    }

    fn enclosing_aabb(&self, pose: &RelativePose) -> Aabb {
        Aabb::from_half_extents(
            pose.transform_point(&self.center),
            Vector::repeat(self.radius * (1.0 + Real::EPSILON)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Numbers in [-0.5, 0.5) from a fixed seed (xorshift): the test needs no more.
    fn numbers(seed: u64) -> impl FnMut() -> Real {
        let mut x = seed;
        move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % 100_000) as Real / 100_000.0 - 0.5
        }
    }

    /// Points filling a triangle given by its three corners (corners, edges and inside).
    fn triangle_samples(t: &[Point]) -> Vec<Point> {
        let steps = 12;
        let mut out = Vec::new();
        for i in 0..=steps {
            for j in 0..=steps - i {
                let (u, v) = (i as Real / steps as Real, j as Real / steps as Real);
                out.push(t[0] + (t[1] - t[0]) * u + (t[2] - t[0]) * v);
            }
        }
        out
    }

    /// Each volume's bound on its distance to the nearer of two triangles never exceeds the
    /// distance from the volume to any point of either, and is positive for far triangles; the
    /// box's line from a triangle's nearest corner makes it nearly the distance more often
    /// than the triangles' boxes alone (a cutoff of minus infinity asks for no more).
    #[test]
    fn triangle_bounds_never_exceed_the_distance() {
        let mut next = numbers(0x9e37_79b9_7f4a_7c15);
        let mut point = |scale: Real| Point::new(next() * scale, next() * scale, next() * scale);
        let cloud: Vec<Point> = (0..40).map(|_| point(2.0)).collect();
        let obb = Obb::from_points(&cloud);
        let aabb = Aabb::from_points(&cloud);
        let sphere = Sphere::from_points(&cloud);
        let to_obb = |p: &Point| {
            let local = obb.axes.tr_mul(&(p - obb.center));
            (local.abs() - obb.half_extents).sup(&Vector::zeros()).norm()
        };
        let to_aabb = |p: &Point| ((aabb.mins - p).sup(&(p - aabb.maxs))).sup(&Vector::zeros()).norm();
        let to_sphere = |p: &Point| ((p - sphere.center).norm() - sphere.radius).max(0.0);
        let (mut positive, mut tight, mut tight_by_boxes) = (0, 0, 0);
        for _ in 0..300 {
            let mut triangle = || {
                let centre = point(8.0);
                [centre + point(1.5).coords, centre + point(1.5).coords, centre + point(1.5).coords]
            };
            let corners = [triangle(), triangle()].concat();
            let samples: Vec<Point> = corners.chunks_exact(3).flat_map(triangle_samples).collect();
            let nearest = |f: &dyn Fn(&Point) -> Real| samples.iter().map(f).fold(Real::INFINITY, Real::min);
            let sampled_obb = nearest(&to_obb);
            for cutoff in [Real::INFINITY, sampled_obb, Real::NEG_INFINITY] {
                for (bound, sampled, what) in [
                    (obb.triangles_bound(&corners, cutoff), sampled_obb, "OBB"),
                    (aabb.triangles_bound(&corners, cutoff), nearest(&to_aabb), "AABB"),
                    (sphere.triangles_bound(&corners, cutoff), nearest(&to_sphere), "sphere"),
                ] {
                    assert!(
                        bound <= sampled + 1e-4,
                        "{what}: bound {bound} over the sampled distance {sampled}"
                    );
                    positive += usize::from(bound > 0.0);
                }
            }
            let near = |bound: Real| usize::from(sampled_obb > 0.0 && bound >= 0.99 * sampled_obb);
            tight += near(obb.triangles_bound(&corners, Real::INFINITY));
            tight_by_boxes += near(obb.triangles_bound(&corners, Real::NEG_INFINITY));
        }
        assert!(positive > 900, "{positive} positive bounds");
        assert!(tight > tight_by_boxes + 40, "{tight} tight, {tight_by_boxes} by the boxes alone");
    }

    /// A box on a child's axes is taken where it is smaller, and whatever is taken holds every
    /// corner: two slabs along a turned frame, each child's box on that frame, the node's own
    /// box on the coordinate axes (far larger) or on the frame itself (no larger).
    #[test]
    fn children_axes_are_taken_where_they_fit_better() {
        let frame = *nalgebra::Rotation3::from_euler_angles(0.3, -0.5, 0.9).matrix();
        let mut next = numbers(7);
        let mut slab = |offset: Real| -> Vec<Point> {
            (0..60)
                .map(|_| Point::from(frame * Vector::new(offset + next(), 4.0 * next(), 0.05 * next())))
                .collect()
        };
        let (left, right) = (slab(0.0), slab(3.0));
        let corners = [left.clone(), right.clone()].concat();
        let child = |points: &[Point]| Some(Obb::from_point_slice_with_axes(points, &frame));
        let children = [
            FittedChild { volume: child(&left), points: &left, samples: &left[..12] },
            FittedChild { volume: None, points: &right, samples: &right[..12] },
        ];
        let own = Obb::from_point_slice_with_axes(&corners, &Matrix::identity());
        let taken = own.or_on_children_axes(children);
        assert_eq!(taken.axes, frame);
        assert!(taken.volume() < 0.5 * own.volume(), "{} against {}", taken.volume(), own.volume());
        assert!(corners.iter().all(|p| taken.contains_point(p)));
        let fitted = Obb::from_point_slice_with_axes(&corners, &frame);
        assert_eq!(fitted.or_on_children_axes(children), fitted);
    }
}
