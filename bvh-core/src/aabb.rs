//! Axis-aligned bounding box.

use crate::math::{Isometry, Point, Real, Vector, max, min};

/// An axis-aligned box given by its minimum and maximum corners.
///
/// [`Aabb::EMPTY`] (inverted corners) is the identity of [`Aabb::merge`], so boxes can be grown
/// from nothing; every other constructor yields `mins <= maxs`.
///
/// `#[repr(C)]` and [`bytemuck::Pod`], so arrays of them can be stored as bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Aabb {
    /// Minimum corner.
    pub mins: Point,
    /// Maximum corner.
    pub maxs: Point,
}

/// The smaller coordinates of two points (see [`min`]): triangle boxes are the hot loop of an
/// all-pairs query, where nalgebra's NaN-aware `inf`/`sup` cost a large share of the work.
#[inline]
pub(crate) fn min_point(p: &Point, q: &Point) -> Point {
    Point::new(min(p.x, q.x), min(p.y, q.y), min(p.z, q.z))
}

/// The larger coordinates of two points (see [`max`]).
#[inline]
pub(crate) fn max_point(p: &Point, q: &Point) -> Point {
    Point::new(max(p.x, q.x), max(p.y, q.y), max(p.z, q.z))
}

impl Aabb {
    /// The empty box: contains nothing, overlaps nothing, and merging it changes nothing.
    pub const EMPTY: Self = Self {
        mins: Point::new(Real::INFINITY, Real::INFINITY, Real::INFINITY),
        maxs: Point::new(Real::NEG_INFINITY, Real::NEG_INFINITY, Real::NEG_INFINITY),
    };

    /// The box with these corners.
    #[inline]
    pub fn new(mins: Point, maxs: Point) -> Self {
        Self { mins, maxs }
    }

    /// The box centred on `center` with half extents `half`.
    pub fn from_half_extents(center: Point, half: Vector) -> Self {
        Self { mins: center - half, maxs: center + half }
    }

    /// The smallest box containing every point ([`Aabb::EMPTY`] for none).
    pub fn from_points<'a>(points: impl IntoIterator<Item = &'a Point>) -> Self {
        let mut aabb = Self::EMPTY;
        for p in points {
            aabb.take_point(p);
        }
        aabb
    }

    /// `true` for a box that contains no point.
    pub fn is_empty(&self) -> bool {
        !(self.mins.x <= self.maxs.x && self.mins.y <= self.maxs.y && self.mins.z <= self.maxs.z)
    }

    /// Grows the box to contain `p`.
    #[inline]
    pub fn take_point(&mut self, p: &Point) {
        self.mins = min_point(&self.mins, p);
        self.maxs = max_point(&self.maxs, p);
    }

    /// Grows the box to contain `other`.
    #[inline]
    pub fn merge(&mut self, other: &Self) {
        self.mins = min_point(&self.mins, &other.mins);
        self.maxs = max_point(&self.maxs, &other.maxs);
    }

    /// The smallest box containing both.
    #[inline]
    pub fn merged(&self, other: &Self) -> Self {
        let mut out = *self;
        out.merge(other);
        out
    }

    /// The box grown by `margin` on every side.
    pub fn inflated(&self, margin: Real) -> Self {
        let m = Vector::repeat(margin);
        Self { mins: self.mins - m, maxs: self.maxs + m }
    }

    /// The box grown by a few units in the last place of its largest coordinate, so that
    /// rounding in the computation that produced it cannot leave part of what it bounds outside.
    /// The empty box stays empty.
    pub fn padded(&self) -> Self {
        if self.is_empty() {
            return *self;
        }
        let scale = self.mins.coords.abs().max().max(self.maxs.coords.abs().max());
        self.inflated(scale * 4.0 * Real::EPSILON)
    }

    /// The largest distance of the box's points from the origin.
    pub fn reach(&self) -> Real {
        max_point(&self.mins.map(Real::abs), &self.maxs.map(Real::abs)).coords.norm()
    }

    /// The box both boxes hold (empty when they are apart).
    pub fn intersection(&self, other: &Self) -> Self {
        Self::new(self.mins.sup(&other.mins), self.maxs.inf(&other.maxs))
    }

    /// Centre point.
    pub fn center(&self) -> Point {
        nalgebra::center(&self.mins, &self.maxs)
    }

    /// Full side lengths.
    pub fn extents(&self) -> Vector {
        self.maxs - self.mins
    }

    /// Half side lengths.
    pub fn half_extents(&self) -> Vector {
        self.extents() * 0.5
    }

    /// Volume (zero for an empty box).
    pub fn volume(&self) -> Real {
        if self.is_empty() { 0.0 } else { self.extents().product() }
    }

    /// Surface area (zero for an empty box).
    pub fn surface_area(&self) -> Real {
        if self.is_empty() {
            return 0.0;
        }
        let e = self.extents();
        2.0 * (e.x * e.y + e.y * e.z + e.z * e.x)
    }

    /// `true` when `p` lies in the closed box.
    pub fn contains_point(&self, p: &Point) -> bool {
        (0..3).all(|i| self.mins[i] <= p[i] && p[i] <= self.maxs[i])
    }

    /// `true` when `other` lies in the closed box (an empty `other` always does). A box that is
    /// not empty lies inside when its minimum corner is above this one's and its maximum below:
    /// six comparisons, made without branching, since a broadphase asks this of every moved box.
    #[inline]
    pub fn contains(&self, other: &Self) -> bool {
        let corners_inside = (0..3).fold(true, |inside, i| {
            inside & (self.mins[i] <= other.mins[i]) & (other.maxs[i] <= self.maxs[i])
        });
        other.is_empty() | corners_inside
    }

    /// Overlap of two boxes in one frame: the closed intervals meet on all three axes. All six
    /// comparisons are made, with no branch: whether two boxes meet is rarely predictable.
    #[inline]
    pub fn intersects(&self, other: &Self) -> bool {
        (self.mins.x <= other.maxs.x)
            & (other.mins.x <= self.maxs.x)
            & (self.mins.y <= other.maxs.y)
            & (other.mins.y <= self.maxs.y)
            & (self.mins.z <= other.maxs.z)
            & (other.mins.z <= self.maxs.z)
    }

    /// How far apart the two boxes lie along the axis that separates them most (a lower bound
    /// on their distance), or zero when they meet. Taken in `f64`, where the difference of two
    /// `f32` has the right sign: positive exactly when the boxes do not meet.
    #[inline]
    pub fn gap(&self, other: &Self) -> f64 {
        let [x, y, z] = self.gaps(other);
        max(max(x, y), z)
    }

    /// The distance between two boxes of one frame (zero when they meet), exact up to the
    /// rounding of one square root.
    #[inline]
    pub fn distance(&self, other: &Self) -> f64 {
        let [x, y, z] = self.gaps(other);
        (x * x + y * y + z * z).sqrt()
    }

    /// How far apart the boxes lie along each axis (zero where their intervals meet), taken in
    /// `f64`, where the difference of two `f32` is exact.
    #[inline]
    fn gaps(&self, other: &Self) -> [f64; 3] {
        let apart = |lo: Real, hi: Real| lo as f64 - hi as f64;
        [0, 1, 2]
            .map(|i| max(max(apart(other.mins[i], self.maxs[i]), apart(self.mins[i], other.maxs[i])), 0.0))
    }

    /// The smallest axis-aligned box containing this box moved by `pose`.
    pub fn transformed(&self, pose: &Isometry) -> Self {
        if self.is_empty() {
            return *self;
        }
        let center = pose * self.center();
        let rotation = pose.rotation.to_rotation_matrix().into_inner();
        let half = rotation.abs() * self.half_extents();
        Self::from_half_extents(center, half)
    }

    /// The eight corners.
    pub fn corners(&self) -> [Point; 8] {
        let (a, b) = (self.mins, self.maxs);
        [
            Point::new(a.x, a.y, a.z),
            Point::new(b.x, a.y, a.z),
            Point::new(a.x, b.y, a.z),
            Point::new(b.x, b.y, a.z),
            Point::new(a.x, a.y, b.z),
            Point::new(b.x, a.y, b.z),
            Point::new(a.x, b.y, b.z),
            Point::new(b.x, b.y, b.z),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Boxes sharing a face or a corner meet, whichever comes first; a gap of one unit in the
    /// last place separates them, on every axis (queries compare triangle boxes this way, with
    /// no margin, before the exact test).
    #[test]
    fn intersects_decides_at_the_last_bit() {
        let unit = Aabb::new(Point::origin(), Point::new(1.0, 1.0, 1.0));
        let shifted = |d: Vector| Aabb::new(unit.mins + d, unit.maxs + d);
        let above_one = f32::from_bits(1.0f32.to_bits() + 1);
        for touching in [Vector::new(1.0, 0.0, 0.0), Vector::new(0.0, -1.0, 0.0), Vector::new(1.0, 1.0, 1.0)]
        {
            assert!(unit.intersects(&shifted(touching)), "{touching:?}");
            assert!(shifted(touching).intersects(&unit), "{touching:?}");
        }
        for axis in 0..3 {
            let mut mins = Point::origin();
            mins[axis] = above_one;
            let beyond = Aabb::new(mins, mins + Vector::repeat(1.0));
            assert!(!unit.intersects(&beyond), "axis {axis}");
            assert!(!beyond.intersects(&unit), "axis {axis}");
        }
    }

    #[test]
    fn fit_merge_contain() {
        let pts = [Point::new(0.0, 1.0, 2.0), Point::new(-1.0, 3.0, 0.5), Point::new(2.0, 0.0, 1.0)];
        let a = Aabb::from_points(&pts);
        assert!(pts.iter().all(|p| a.contains_point(p)));
        assert_eq!(a.extents(), Vector::new(3.0, 3.0, 1.5));
        assert_eq!(a.volume(), 13.5);
        assert_eq!(a.surface_area(), 2.0 * (9.0 + 4.5 + 4.5));
        let b = Aabb::new(Point::new(5.0, 5.0, 5.0), Point::new(6.0, 6.0, 6.0));
        assert!(!a.intersects(&b));
        // Apart by 3 along x and z, by 2 along y.
        assert_eq!((a.gap(&b), b.gap(&a)), (3.0, 3.0));
        let m = a.merged(&b);
        assert!(m.contains(&a) && m.contains(&b));
        assert_eq!(a.gap(&m), 0.0);
        assert!(Aabb::EMPTY.is_empty() && Aabb::EMPTY.volume() == 0.0 && Aabb::EMPTY.surface_area() == 0.0);
        assert_eq!(Aabb::EMPTY.merged(&a), a);
        assert!(!Aabb::EMPTY.intersects(&a));
    }

    #[test]
    fn transformed_contains_moved_corners() {
        let a = Aabb::new(Point::new(-1.0, -2.0, 0.0), Point::new(3.0, 1.0, 0.5));
        let pose = Isometry::new(Vector::new(4.0, -1.0, 2.0), Vector::new(0.4, 1.1, -0.7));
        let moved = a.transformed(&pose).inflated(1e-5);
        assert!(a.corners().iter().all(|c| moved.contains_point(&(pose * c))));
    }
}
