//! The volumes a tree's nodes can carry, behind one trait so trees and traversals are
//! monomorphised per volume type.

use crate::fit::ObbFit;
use crate::split::SplitFrame;
use bvh_core::overlap::Overlap;
use bvh_core::{Aabb, Matrix, Obb, Point, Real, RelativePose, Sphere, Vector};

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

/// A node volume: fitted to a node's geometry, tested against another tree's volumes across
/// frames, and giving the axes along which the node is split.
pub trait NodeVolume: Copy + Send + Sync + bytemuck::Pod + Overlap<Self> + Overlap<Aabb> + 'static {
    /// The tag of this volume type.
    const KIND: VolumeKind;

    /// The volume of a node whose triangles' vertices are `corners` (three per triangle) and
    /// whose bounding box is `bounds`.
    fn fit(corners: &[Point], bounds: &Aabb, fit: &ObbFit) -> Self;

    /// The axes along which split planes are placed (the box axes for an OBB), with the range
    /// the volume spans on each.
    fn split_frame(&self) -> SplitFrame;

    /// `true` when `p` lies in the volume grown by `tolerance`.
    fn contains_within(&self, p: &Point, tolerance: Real) -> bool;

    /// The volume's measure (for tightness statistics, and to descend the larger of two nodes).
    fn measure(&self) -> Real;

    /// The volume's centre (to visit nearer pairs of volumes first).
    fn center(&self) -> Point;

    /// The volume grown by `margin` on every side: it holds every point within `margin` of
    /// the original (for clearance queries).
    fn inflated(&self, margin: Real) -> Self;

    /// The axis-aligned box, in another frame, around the volume placed there by `pose`.
    fn enclosing_aabb(&self, pose: &RelativePose) -> Aabb;

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

    fn fit(corners: &[Point], bounds: &Aabb, fit: &ObbFit) -> Self {
        fit.fit_within(corners, bounds)
    }

    fn split_frame(&self) -> SplitFrame {
        let c = self.axes.tr_mul(&self.center.coords);
        SplitFrame {
            axes: self.axes,
            lo: std::array::from_fn(|d| c[d] - self.half_extents[d]),
            hi: std::array::from_fn(|d| c[d] + self.half_extents[d]),
        }
    }

    fn contains_within(&self, p: &Point, tolerance: Real) -> bool {
        let local = self.axes.tr_mul(&(p - self.center));
        (0..3).all(|i| local[i].abs() <= self.half_extents[i] + tolerance)
    }

    fn measure(&self) -> Real {
        self.volume()
    }

    fn center(&self) -> Point {
        self.center
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

    fn enclosing_aabb(&self, pose: &RelativePose) -> Aabb {
        let half = (pose.rotation * self.axes).abs() * self.half_extents;
        Aabb::from_half_extents(pose.transform_point(&self.center), half)
            .loosened(Real::EPSILON * half.amax())
    }
}

impl NodeVolume for Aabb {
    const KIND: VolumeKind = VolumeKind::Aabb;

    fn fit(_: &[Point], bounds: &Aabb, _: &ObbFit) -> Self {
        *bounds
    }

    fn split_frame(&self) -> SplitFrame {
        SplitFrame { axes: Matrix::identity(), lo: self.mins.into(), hi: self.maxs.into() }
    }

    fn contains_within(&self, p: &Point, tolerance: Real) -> bool {
        self.loosened(tolerance).contains_point(p)
    }

    fn measure(&self) -> Real {
        self.volume()
    }

    fn center(&self) -> Point {
        Aabb::center(self)
    }

    fn inflated(&self, margin: Real) -> Self {
        self.loosened(margin)
    }

    fn swept(&self, motion: &Vector) -> Self {
        self.merged(&Aabb::new(self.mins + motion, self.maxs + motion))
    }

    fn enclosing_aabb(&self, pose: &RelativePose) -> Aabb {
        Obb::containing_aabb(self).enclosing_aabb(pose)
    }
}

impl NodeVolume for Sphere {
    const KIND: VolumeKind = VolumeKind::Sphere;

    fn fit(corners: &[Point], _: &Aabb, _: &ObbFit) -> Self {
        Sphere::from_points(corners)
    }

    fn split_frame(&self) -> SplitFrame {
        let r = self.radius;
        SplitFrame {
            axes: Matrix::identity(),
            lo: (self.center.coords.add_scalar(-r)).into(),
            hi: (self.center.coords.add_scalar(r)).into(),
        }
    }

    fn contains_within(&self, p: &Point, tolerance: Real) -> bool {
        (p - self.center).norm() <= self.radius + tolerance
    }

    fn measure(&self) -> Real {
        self.volume()
    }

    fn center(&self) -> Point {
        self.center
    }

    fn inflated(&self, margin: Real) -> Self {
        Sphere::new(self.center, self.radius + margin)
    }

    fn swept(&self, motion: &Vector) -> Self {
        let radius = (self.radius + motion.norm() * 0.5) * (1.0 + 4.0 * Real::EPSILON);
        Sphere::new(self.center + motion * 0.5, radius)
    }

    fn enclosing_aabb(&self, pose: &RelativePose) -> Aabb {
        Aabb::from_half_extents(
            pose.transform_point(&self.center),
            Vector::repeat(self.radius * (1.0 + Real::EPSILON)),
        )
    }
}
