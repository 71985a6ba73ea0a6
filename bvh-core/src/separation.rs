//! Lower bounds on the distance between bounding volumes held in two frames, for distance
//! queries: a pair of nodes whose bound is no less than the best distance found so far holds
//! nothing nearer, and is pruned.
//!
//! Frames as in [`crate::overlap`]: the first volume in A's frame, the second in B's, one
//! [`RelativePose`] for B in A. Every bound is zero when the volumes overlap. Ball pairs and
//! ball–box pairs are exact distances; box–box pairs across frames take the gaps along the
//! separating axis test's 15 axes ([`Obb::distance_bound`]), a cheap bound no more than the
//! distance (boxes of one frame have their exact distance, [`Aabb::distance`]). A [`CubeAabb`] bounds its object through the ball it is built around, which lies
//! inside the cube and so gives the tighter bound. Bounds are computed in `f32`: a caller that
//! needs them certified grows A's volume by the rounding at the scene's scale
//! ([`crate::rounding_slack`]).

use crate::aabb::Aabb;
use crate::cube_aabb::CubeAabb;
use crate::math::{Real, RelativePose, Vector};
use crate::obb::Obb;
use crate::overlap::PlacedObb;
use crate::sphere::Sphere;

/// A lower bound on the distance between a volume in A's frame and one of type `B` in B's.
pub trait Separation<B> {
    /// No more than the distance between the two closed volumes; zero when they overlap.
    fn separation(&self, other: &B, b_in_a: &RelativePose) -> Real;
}

impl Separation<Obb> for Obb {
    #[inline]
    fn separation(&self, other: &Obb, b_in_a: &RelativePose) -> Real {
        self.distance_bound(&PlacedObb::new(other, b_in_a))
    }
}

impl Separation<Aabb> for Obb {
    #[inline]
    fn separation(&self, other: &Aabb, b_in_a: &RelativePose) -> Real {
        self.distance_bound(&PlacedObb::from_aabb(other, b_in_a))
    }
}

impl Separation<Obb> for Aabb {
    #[inline]
    fn separation(&self, other: &Obb, b_in_a: &RelativePose) -> Real {
        Obb::from_aabb(self).distance_bound(&PlacedObb::new(other, b_in_a))
    }
}

impl Separation<Aabb> for Aabb {
    #[inline]
    fn separation(&self, other: &Aabb, b_in_a: &RelativePose) -> Real {
        Obb::from_aabb(self).distance_bound(&PlacedObb::from_aabb(other, b_in_a))
    }
}

impl Separation<Sphere> for Sphere {
    #[inline]
    fn separation(&self, other: &Sphere, b_in_a: &RelativePose) -> Real {
        let apart = (b_in_a.transform_point(&other.center) - self.center).norm();
        (apart - self.radius - other.radius).max(0.0)
    }
}

impl Separation<Obb> for Sphere {
    #[inline]
    fn separation(&self, other: &Obb, b_in_a: &RelativePose) -> Real {
        let center = b_in_a.transform_point(&other.center);
        let axes = b_in_a.rotation * other.axes;
        ball_to_box(&axes.tr_mul(&(self.center - center)), &other.half_extents, self.radius)
    }
}

impl Separation<Sphere> for Obb {
    #[inline]
    fn separation(&self, other: &Sphere, b_in_a: &RelativePose) -> Real {
        let center = b_in_a.transform_point(&other.center);
        ball_to_box(&self.axes.tr_mul(&(center - self.center)), &self.half_extents, other.radius)
    }
}

impl Separation<Aabb> for Sphere {
    #[inline]
    fn separation(&self, other: &Aabb, b_in_a: &RelativePose) -> Real {
        self.separation(&Obb::from_aabb(other), b_in_a)
    }
}

impl Separation<Sphere> for Aabb {
    #[inline]
    fn separation(&self, other: &Sphere, b_in_a: &RelativePose) -> Real {
        Obb::from_aabb(self).separation(other, b_in_a)
    }
}

/// A cube AABB's object lies in the ball the cube is built around, which is inside the cube:
/// the ball's bound is valid and tighter, against anything.
macro_rules! through_the_ball {
    ($($b:ty),*) => {$(
        impl Separation<$b> for CubeAabb {
            #[inline]
            fn separation(&self, other: &$b, b_in_a: &RelativePose) -> Real {
                self.inner_sphere().separation(other, b_in_a)
            }
        }
        impl Separation<CubeAabb> for $b {
            #[inline]
            fn separation(&self, other: &CubeAabb, b_in_a: &RelativePose) -> Real {
                self.separation(&other.inner_sphere(), b_in_a)
            }
        }
    )*};
}
through_the_ball!(Obb, Aabb, Sphere);

impl Separation<CubeAabb> for CubeAabb {
    #[inline]
    fn separation(&self, other: &CubeAabb, b_in_a: &RelativePose) -> Real {
        self.inner_sphere().separation(&other.inner_sphere(), b_in_a)
    }
}

/// The distance from a ball of `radius` at `center` (in a box's centred, axis-aligned
/// coordinates) to the box `[-half, half]`.
#[inline]
fn ball_to_box(center: &Vector, half: &Vector, radius: Real) -> Real {
    ((center.abs() - half).sup(&Vector::zeros()).norm() - radius).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Isometry, Matrix, Point, Rotation};
    use crate::overlap::Overlap;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The distance between two point sets (the volumes' sampled surfaces and insides):
    /// at least the true distance between the volumes, so a bound must not exceed it.
    fn sampled_distance(a: &[Point], b: &[Point]) -> Real {
        a.iter().flat_map(|p| b.iter().map(move |q| (p - q).norm())).fold(Real::INFINITY, Real::min)
    }

    fn box_samples(obb: &Obb) -> Vec<Point> {
        let steps = 6;
        let mut out = Vec::new();
        for i in 0..=steps {
            for j in 0..=steps {
                for k in 0..=steps {
                    let f = |n: usize| 2.0 * n as Real / steps as Real - 1.0;
                    let local = Vector::new(f(i), f(j), f(k)).component_mul(&obb.half_extents);
                    out.push(obb.center + obb.axes * local);
                }
            }
        }
        out
    }

    fn ball_samples(s: &Sphere) -> Vec<Point> {
        let mut out = vec![s.center];
        for i in 0..12 {
            for j in 0..=6 {
                let step = std::f32::consts::FRAC_PI_6;
                let (theta, phi) = (i as Real * step, j as Real * step);
                let dir = Vector::new(phi.sin() * theta.cos(), phi.sin() * theta.sin(), phi.cos());
                out.push(s.center + dir * s.radius);
            }
        }
        out
    }

    fn random_obb(rng: &mut ChaCha8Rng) -> Obb {
        let mut v = |s: Real| {
            Vector::new(rng.r#gen::<Real>() - 0.5, rng.r#gen::<Real>() - 0.5, rng.r#gen::<Real>() - 0.5) * s
        };
        let axes = *Rotation::new(v(6.0)).to_rotation_matrix().matrix();
        Obb::new(Point::from(v(3.0)), axes, v(2.0).abs() + Vector::repeat(0.05))
    }

    fn random_pose(rng: &mut ChaCha8Rng) -> RelativePose {
        let mut v = |s: Real| {
            Vector::new(rng.r#gen::<Real>() - 0.5, rng.r#gen::<Real>() - 0.5, rng.r#gen::<Real>() - 0.5) * s
        };
        RelativePose::from(&Isometry::new(v(2.0), v(6.0)))
    }

    /// Every bound is at most the distance of the sampled volumes, zero exactly when the
    /// volumes overlap, and the box–box bound is tight for boxes apart along a face axis.
    #[test]
    fn bounds_never_exceed_the_distance() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut separated = 0;
        for case in 0..300 {
            let (a, b, pose) = (random_obb(&mut rng), random_obb(&mut rng), random_pose(&mut rng));
            let placed = b.placed(&pose);
            let sampled = sampled_distance(&box_samples(&a), &box_samples(&placed));
            let bound = a.separation(&b, &pose);
            assert!(bound <= sampled + 1e-4, "case {case}: bound {bound} over sampled {sampled}");
            assert_eq!(bound > 0.0, !a.overlaps(&b, &pose), "case {case}: bound {bound}");
            separated += usize::from(bound > 0.0);
            let ball = Sphere::new(a.center, a.half_extents.amin() + 0.3);
            let ball_bound = ball.separation(&b, &pose);
            let ball_sampled = sampled_distance(&ball_samples(&ball), &box_samples(&placed));
            assert!(ball_bound <= ball_sampled + 1e-4, "case {case}: ball {ball_bound} over {ball_sampled}");
            let mirrored = b.separation(&ball, &pose.inverse());
            assert!((mirrored - ball_bound).abs() < 1e-4, "case {case}: {mirrored} against {ball_bound}");
        }
        assert!((50..250).contains(&separated), "{separated} of 300 pairs apart");
        let unit = Obb::new(Point::origin(), Matrix::identity(), Vector::repeat(1.0));
        let beside = RelativePose::from(&Isometry::translation(3.5, 0.2, -0.1));
        assert!((unit.separation(&unit, &beside) - 1.5).abs() < 1e-5);
    }

    /// Flat boxes lying farther apart than they are large, in any direction: the bound is nearly
    /// their distance (the line through the centres), and still never above it.
    #[test]
    fn tight_for_boxes_far_apart() {
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        for case in 0..200 {
            // Flat boxes, as a mesh's patches are.
            let (mut a, mut b) = (random_obb(&mut rng), random_obb(&mut rng));
            a.half_extents = Vector::new(2.0, 1.0, 0.05);
            b.half_extents = Vector::new(2.0, 1.0, 0.05);
            let mut v = || rng.r#gen::<Real>() - 0.5;
            let away = Vector::new(v(), v(), v()).normalize() * 12.0;
            let pose = RelativePose::from(&Isometry::new(away, Vector::new(v(), v(), v()) * 6.0));
            let placed = b.placed(&pose);
            let sampled = sampled_distance(&box_samples(&a), &box_samples(&placed));
            let bound = a.separation(&b, &pose);
            assert!(bound <= sampled + 1e-4, "case {case}: bound {bound} over sampled {sampled}");
            // The fixed axes alone come to 0.90 of it here.
            assert!(bound >= 0.93 * sampled, "case {case}: bound {bound} far below sampled {sampled}");
        }
    }

    /// Balls and boxes on the axes: the exact distances.
    #[test]
    fn exact_for_balls_and_axis_aligned_boxes() {
        let id = RelativePose::identity();
        let ball = Sphere::new(Point::new(4.0, 4.0, 0.0), 1.0);
        let unit = Aabb::new(Point::new(-1.0, -1.0, -1.0), Point::new(1.0, 1.0, 1.0));
        let corner_gap = (3.0f32 * 3.0 + 3.0 * 3.0).sqrt() - 1.0;
        assert!((ball.separation(&unit, &id) - corner_gap).abs() < 1e-6);
        assert!((unit.separation(&ball, &id) - corner_gap).abs() < 1e-6);
        let far = Sphere::new(Point::new(0.0, 10.0, 0.0), 2.0);
        assert_eq!(ball.separation(&far, &id), (Vector::new(4.0, 6.0, 0.0).norm() - 3.0));
        let shifted = Aabb::new(Point::new(4.0, 5.0, -1.0), Point::new(5.0, 6.0, 1.0));
        assert!((unit.distance(&shifted) - 5.0).abs() < 1e-12);
        assert_eq!(unit.distance(&unit), 0.0);
        let cube = CubeAabb::new(Point::origin(), 1.0);
        assert_eq!(cube.separation(&far, &id), far.separation(&cube.inner_sphere(), &id));
    }
}
