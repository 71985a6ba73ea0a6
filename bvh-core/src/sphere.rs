//! Bounding sphere.

use crate::math::{Isometry, Point, Real, mean, next_up};

/// A ball given by its centre and radius.
///
/// `#[repr(C)]` and [`bytemuck::Pod`], so arrays of them can be stored as bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Sphere {
    /// Centre.
    pub center: Point,
    /// Radius (non-negative).
    pub radius: Real,
}

impl Sphere {
    /// The ball with this centre and radius.
    pub fn new(center: Point, radius: Real) -> Self {
        Self { center, radius }
    }

    /// The ball centred on the mean of the points, with the largest distance to any of them as
    /// radius (papers 003/004; not the minimum ball, but cheap and always enclosing). No points
    /// give a zero ball at the origin.
    pub fn from_points<'p>(points: impl IntoIterator<Item = &'p Point, IntoIter: Clone>) -> Self {
        let points = points.into_iter();
        let center = mean(points.clone());
        Self { center, radius: max_distance(&center, points) }
    }

    /// The smallest ball containing both balls.
    pub fn merged(&self, other: &Self) -> Self {
        let offset = other.center - self.center;
        let distance = offset.norm();
        if distance + other.radius <= self.radius {
            return *self;
        }
        if distance + self.radius <= other.radius {
            return *other;
        }
        let radius = (distance + self.radius + other.radius) * 0.5;
        // distance > 0 here: equal centres fall into one of the containment cases above.
        let center = self.center + offset * ((radius - self.radius) / distance);
        // Measure again from the rounded centre and pad, so both balls are surely inside.
        let reach = |s: &Self| (s.center - center).norm() + s.radius;
        let radius = next_up(reach(self).max(reach(other)) * (1.0 + 2.0 * Real::EPSILON));
        Self { center, radius }
    }

    /// `true` when `p` lies in the closed ball.
    pub fn contains_point(&self, p: &Point) -> bool {
        (p - self.center).norm_squared() <= self.radius * self.radius
    }

    /// `true` when `other` lies in the closed ball.
    pub fn contains(&self, other: &Self) -> bool {
        (other.center - self.center).norm() + other.radius <= self.radius
    }

    /// Overlap of two balls in one frame, without a square root.
    #[inline]
    pub fn intersects(&self, other: &Self) -> bool {
        let r = self.radius + other.radius;
        (other.center - self.center).norm_squared() <= r * r
    }

    /// The ball moved by `pose` (only the centre moves).
    pub fn transformed(&self, pose: &Isometry) -> Self {
        Self { center: pose * self.center, radius: self.radius }
    }

    /// Volume `4/3 π r³`.
    pub fn volume(&self) -> Real {
        4.0 / 3.0 * std::f32::consts::PI * self.radius.powi(3)
    }

    /// Surface area `4 π r²`.
    pub fn surface_area(&self) -> Real {
        4.0 * std::f32::consts::PI * self.radius * self.radius
    }
}

/// Largest distance from `center` to any point, rounded up so every point is enclosed.
pub(crate) fn max_distance<'p>(center: &Point, points: impl IntoIterator<Item = &'p Point>) -> Real {
    let max_sq = points.into_iter().map(|p| (p - center).norm_squared()).fold(0.0, Real::max);
    if max_sq == 0.0 { 0.0 } else { next_up(max_sq.sqrt() * (1.0 + 2.0 * Real::EPSILON)) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vector;

    #[test]
    fn fit_contains_all_points() {
        let pts: Vec<Point> = (0..50)
            .map(|i| Point::new((i as Real).sin() * 3.0, (i as Real * 0.7).cos(), i as Real * 0.1))
            .collect();
        let s = Sphere::from_points(&pts);
        assert!(pts.iter().all(|p| s.contains_point(p)));
        assert_eq!(Sphere::from_points(&[]).radius, 0.0);
    }

    #[test]
    fn merged_contains_both() {
        let a = Sphere::new(Point::new(0.0, 0.0, 0.0), 1.0);
        let b = Sphere::new(Point::new(3.0, 0.0, 0.0), 0.5);
        let m = a.merged(&b);
        assert!(m.contains(&Sphere::new(a.center, a.radius - 1e-5)));
        assert!(m.contains(&Sphere::new(b.center, b.radius - 1e-5)));
        assert!((m.radius - 2.25).abs() < 1e-6);
        assert_eq!(a.merged(&Sphere::new(Point::new(0.1, 0.0, 0.0), 0.2)), a);
        assert!(!a.intersects(&b) && a.intersects(&Sphere::new(Point::new(2.0, 0.0, 0.0), 1.0)));
        let moved = a.transformed(&Isometry::translation(1.0, 2.0, 3.0));
        assert_eq!(moved.center, Point::new(1.0, 2.0, 3.0));
        assert!(moved.contains_point(&(Point::new(1.0, 2.0, 3.0) + Vector::new(0.0, 0.99, 0.0))));
    }
}
