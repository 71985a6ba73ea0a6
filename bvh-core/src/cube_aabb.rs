//! Cube AABB (CAABB), the per-object root volume of paper 000 §1.3.1.

use crate::aabb::Aabb;
use crate::math::mean;
use crate::math::{Isometry, Point, Real, Vector};
use crate::sphere::{Sphere, max_distance};

/// An axis-aligned cube whose half side is the largest *Euclidean* distance from its centre to the
/// object. The cube therefore contains the object's bounding ball and so the object in every
/// orientation: a moving object only moves the centre, the cube is never refitted.
///
/// `#[repr(C)]` and [`bytemuck::Pod`], so arrays of them can be stored as bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct CubeAabb {
    /// Centre (the mean of the object's vertices).
    pub center: Point,
    /// Half side length, equal to the radius of the ball the cube is built around.
    pub half_side: Real,
}

impl CubeAabb {
    /// The cube with this centre and half side.
    pub fn new(center: Point, half_side: Real) -> Self {
        Self { center, half_side }
    }

    /// Centre = mean of the vertices (the paper averages triangle centroids; the vertex mean is
    /// cheaper and equally valid), half side = largest vertex distance from it.
    pub fn from_points(points: &[Point]) -> Self {
        let center = mean(points);
        Self { center, half_side: max_distance(&center, points) }
    }

    /// The cube around a ball: the ball's centre and radius.
    pub fn from_sphere(sphere: &Sphere) -> Self {
        Self { center: sphere.center, half_side: sphere.radius }
    }

    /// The ball the cube is built around; it holds the object in every orientation.
    pub fn inner_sphere(&self) -> Sphere {
        Sphere::new(self.center, self.half_side)
    }

    /// The smallest cube of this kind holding the balls of both cubes, hence both objects.
    pub fn merged(&self, other: &Self) -> Self {
        Self::from_sphere(&self.inner_sphere().merged(&other.inner_sphere()))
    }

    /// The cube as an ordinary box.
    pub fn to_aabb(&self) -> Aabb {
        Aabb::from_half_extents(self.center, Vector::repeat(self.half_side))
    }

    /// `true` when `p` lies in the closed cube.
    pub fn contains_point(&self, p: &Point) -> bool {
        (p - self.center).amax() <= self.half_side
    }

    /// Overlap in one frame: `|O1 - O2|_inf <= m1 + m2`.
    #[inline]
    pub fn intersects(&self, other: &Self) -> bool {
        (other.center - self.center).amax() <= self.half_side + other.half_side
    }

    /// The cube of the object moved by `pose`: only the centre moves.
    pub fn transformed(&self, pose: &Isometry) -> Self {
        Self { center: pose * self.center, half_side: self.half_side }
    }

    /// Full side length.
    pub fn side(&self) -> Real {
        2.0 * self.half_side
    }

    /// Volume `(2m)³`.
    pub fn volume(&self) -> Real {
        self.side().powi(3)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contains_object_in_every_orientation() {
        let pts: Vec<Point> = (0..40)
            .map(|i| Point::new(i as Real * 0.25, ((i * 7) % 5) as Real, -((i * 3) % 11) as Real * 0.5))
            .collect();
        let cube = CubeAabb::from_points(&pts);
        for k in 0..20 {
            let pose = Isometry::new(
                Vector::new(1.0, -2.0, 0.5),
                Vector::new(0.3 * k as Real, 1.0, -0.2 * k as Real),
            );
            let moved = cube.transformed(&pose);
            assert!(pts.iter().all(|p| moved.contains_point(&(pose * p))));
        }
        assert_eq!(cube.volume(), cube.side().powi(3));
        let far = CubeAabb::new(cube.center + Vector::new(10.0 * cube.half_side, 0.0, 0.0), cube.half_side);
        assert!(!cube.intersects(&far));
        assert!(cube.merged(&far).to_aabb().contains(&far.to_aabb()));
    }
}
