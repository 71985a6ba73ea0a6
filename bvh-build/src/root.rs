//! The per-object root volume: the coarse test between two objects and the object's box for the
//! broadphase. It is fitted once in the object's frame and never refitted when the object moves.

use bvh_core::overlap::Overlap;
use bvh_core::{Aabb, CubeAabb, Isometry, Obb, Point, RelativePose, Sphere};

use crate::fit::ObbFit;

/// Which root volume a preset puts above its tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RootKind {
    /// Paper 000's cube AABB: only its centre moves with the object.
    CubeAabb,
    /// A bounding sphere (paper 003).
    Sphere,
    /// An axis-aligned box in the object's frame (the AO configuration).
    Aabb,
    /// An oriented box (RAPID: the root is simply the top node's box).
    Obb,
    /// A sphere outside an AABB, tested in that order (the SAO configuration).
    SphereAabb,
}

/// A root volume, in the object's own frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RootVolume {
    /// See [`RootKind::CubeAabb`].
    CubeAabb(CubeAabb),
    /// See [`RootKind::Sphere`].
    Sphere(Sphere),
    /// See [`RootKind::Aabb`].
    Aabb(Aabb),
    /// See [`RootKind::Obb`].
    Obb(Obb),
    /// See [`RootKind::SphereAabb`].
    SphereAabb(Sphere, Aabb),
}

impl RootVolume {
    /// Fits the root of the given kind to the object's vertices. With none, it bounds the
    /// frame's origin: every kind then gives a finite point volume, which a broadphase can
    /// place like any other (an empty object is kept and never collides).
    pub fn fit(kind: RootKind, vertices: &[Point], fit: &ObbFit) -> Self {
        let origin = [Point::origin()];
        let vertices = if vertices.is_empty() { &origin[..] } else { vertices };
        match kind {
            RootKind::CubeAabb => Self::CubeAabb(CubeAabb::from_points(vertices)),
            RootKind::Sphere => Self::Sphere(Sphere::from_points(vertices)),
            RootKind::Aabb => Self::Aabb(Aabb::from_points(vertices)),
            RootKind::Obb => Self::Obb(fit.fit(vertices)),
            RootKind::SphereAabb => {
                Self::SphereAabb(Sphere::from_points(vertices), Aabb::from_points(vertices))
            }
        }
    }

    /// The root of this kind around the object's corners after they moved, for a refit, with
    /// their box if the caller has it (an AABB root is that box). An OBB keeps its axes, the
    /// others are fitted as [`RootVolume::fit`] fits them (with no corners, it stays).
    pub fn refitted(&self, corners: &[Point], bounds: Option<&Aabb>) -> Self {
        let bounds = || bounds.copied().unwrap_or_else(|| Aabb::from_points(corners));
        match self {
            _ if corners.is_empty() => *self,
            Self::Obb(obb) => Self::Obb(Obb::from_point_slice_with_axes(corners, &obb.axes)),
            Self::Aabb(_) => Self::Aabb(bounds()),
            Self::SphereAabb(..) => Self::SphereAabb(Sphere::from_points(corners), bounds()),
            // Only an OBB root uses the fitting method.
            other => Self::fit(other.kind(), corners, &ObbFit::hull_sampled()),
        }
    }

    /// The kind of this root.
    pub fn kind(&self) -> RootKind {
        match self {
            Self::CubeAabb(_) => RootKind::CubeAabb,
            Self::Sphere(_) => RootKind::Sphere,
            Self::Aabb(_) => RootKind::Aabb,
            Self::Obb(_) => RootKind::Obb,
            Self::SphereAabb(..) => RootKind::SphereAabb,
        }
    }

    /// The coarse test between two objects' roots; `b_in_a` is B's pose in A's frame.
    pub fn overlaps(&self, other: &Self, b_in_a: &RelativePose) -> bool {
        match other {
            Self::CubeAabb(b) => self.overlaps_volume(b, b_in_a),
            Self::Sphere(b) => self.overlaps_volume(b, b_in_a),
            Self::Aabb(b) => self.overlaps_volume(b, b_in_a),
            Self::Obb(b) => self.overlaps_volume(b, b_in_a),
            Self::SphereAabb(s, b) => self.overlaps_volume(s, b_in_a) && self.overlaps_volume(b, b_in_a),
        }
    }

    fn overlaps_volume<B>(&self, b: &B, b_in_a: &RelativePose) -> bool
    where
        CubeAabb: Overlap<B>,
        Sphere: Overlap<B>,
        Aabb: Overlap<B>,
        Obb: Overlap<B>,
    {
        match self {
            Self::CubeAabb(a) => a.overlaps(b, b_in_a),
            Self::Sphere(a) => a.overlaps(b, b_in_a),
            Self::Aabb(a) => a.overlaps(b, b_in_a),
            Self::Obb(a) => a.overlaps(b, b_in_a),
            Self::SphereAabb(s, a) => s.overlaps(b, b_in_a) && a.overlaps(b, b_in_a),
        }
    }

    /// The root grown by `margin` on every side (for clearance queries).
    pub fn inflated(&self, margin: bvh_core::Real) -> Self {
        use crate::volume::NodeVolume;
        match self {
            Self::CubeAabb(c) => Self::CubeAabb(CubeAabb::new(c.center, c.half_side + margin)),
            Self::Sphere(s) => Self::Sphere(s.inflated(margin)),
            Self::Aabb(a) => Self::Aabb(a.inflated(margin)),
            Self::Obb(o) => Self::Obb(o.inflated(margin)),
            Self::SphereAabb(s, a) => Self::SphereAabb(s.inflated(margin), a.inflated(margin)),
        }
    }

    /// `true` when `p` lies in the root volume grown by `tolerance`.
    pub fn contains_within(&self, p: &Point, tolerance: bvh_core::Real) -> bool {
        use crate::volume::NodeVolume;
        match self {
            Self::CubeAabb(c) => c.to_aabb().contains_within(p, tolerance),
            Self::Sphere(s) => s.contains_within(p, tolerance),
            Self::Aabb(a) => a.contains_within(p, tolerance),
            Self::Obb(o) => o.contains_within(p, tolerance),
            Self::SphereAabb(s, a) => s.contains_within(p, tolerance) && a.contains_within(p, tolerance),
        }
    }

    /// A world-frame axis-aligned box around the object at `pose`, for the broadphase.
    pub fn world_aabb(&self, pose: &Isometry) -> Aabb {
        match self {
            Self::CubeAabb(c) => c.transformed(pose).to_aabb(),
            Self::Sphere(s) => {
                let s = s.transformed(pose);
                Aabb::from_half_extents(s.center, bvh_core::Vector::repeat(s.radius))
            }
            Self::Aabb(a) => a.transformed(pose),
            Self::Obb(o) => o.transformed(pose).to_aabb(),
            Self::SphereAabb(_, a) => a.transformed(pose),
        }
    }
}
