//! The farthest of a region's points along a direction: where each mesh's part of the region
//! reaches deepest.

use super::inside::Keep;
use bvh_core::{Aabb, Point, Real, RelativePose, Vector};
use std::cmp::Ordering;

/// The farthest of the points taken so far along a direction – of equals, the last taken.
pub(super) struct Farthest {
    along: Vector,
    best: Option<(Real, Point)>,
}

impl Farthest {
    /// None taken yet, along `along`.
    pub(super) fn along(along: Vector) -> Self {
        Self { along, best: None }
    }

    /// This with `points` taken too, in order.
    pub(super) fn taking<'p>(mut self, points: impl Iterator<Item = &'p Point>) -> Self {
        points.for_each(|p| self.keep(*p));
        self
    }

    /// The farthest point's height `x·along` and the point (`-∞` and the origin for none).
    pub(super) fn reached(&self) -> (Real, Point) {
        self.best.unwrap_or((Real::NEG_INFINITY, Point::origin()))
    }
}

impl Keep for Farthest {
    fn keep(&mut self, p: Point) {
        let height = p.coords.dot(&self.along);
        if self.best.is_none_or(|(best, _)| height.total_cmp(&best).is_ge()) {
            self.best = Some((height, p));
        }
    }

    /// Whether a point of `bounds` could reach as high as the best: the box's support along
    /// the direction, seen from the box's frame (`(Rp + t)·n = p·Rᵀn + t·n` for any matrix
    /// R), with a margin far above the rounding of placing a point and taking its height.
    fn could_take(&self, bounds: &Aabb, pose: Option<&RelativePose>) -> bool {
        let Some((best, _)) = self.best else { return true };
        let n = self.along;
        let (local, local_abs, shift, shift_abs) = match pose {
            None => (n, n.abs(), 0.0, 0.0),
            Some(pose) => (
                pose.rotation.tr_mul(&n),
                pose.rotation.abs().tr_mul(&n.abs()),
                pose.translation.dot(&n),
                pose.translation.abs().dot(&n.abs()),
            ),
        };
        let (centre, half) = (bounds.center().coords, bounds.half_extents());
        let reach = centre.dot(&local) + half.dot(&local.abs()) + shift;
        let magnitude = (centre.abs() + half).dot(&local_abs) + shift_abs;
        // Only "surely below" passes them by: a NaN anywhere keeps the points.
        (reach + 64.0 * Real::EPSILON * magnitude).partial_cmp(&best) != Some(Ordering::Less)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bvh_core::Isometry;
    use rand::{Rng, SeedableRng, rngs::StdRng};

    /// Of points at equal heights the last taken is kept, as the region's deepest point has
    /// always been chosen.
    #[test]
    fn keeps_the_last_of_the_farthest() {
        let points = [Point::new(0.0, 1.0, 0.0), Point::new(5.0, 2.0, 0.0), Point::new(-3.0, 2.0, 7.0)];
        let far = Farthest::along(Vector::y()).taking(points.iter());
        assert_eq!(far.reached(), (2.0, points[2]));
        assert_eq!(Farthest::along(Vector::y()).reached().0, Real::NEG_INFINITY);
    }

    /// A box is passed by only when no point in it, placed and measured as the walk places and
    /// measures points, would be kept: its corners, the points in it nearest the best, and
    /// points inside, with poses far from the origin and boxes barely below the best.
    #[test]
    fn passes_by_only_boxes_that_cannot_reach_the_best() {
        let mut rng = StdRng::seed_from_u64(29);
        let (mut passed, mut kept) = (0, 0);
        for _ in 0..20_000 {
            let scale: Real = 10.0_f32.powi(rng.gen_range(-2..4));
            let mut vector = || Vector::from_fn(|_, _| rng.gen_range(-1.0..1.0) * scale);
            let (centre, half, shift) = (Point::from(vector()), vector().abs(), vector());
            let bounds = Aabb::from_half_extents(centre, half);
            let turn = Vector::from_fn(|_, _| rng.gen_range(-3.0..3.0));
            let pose = RelativePose::from(&Isometry::new(shift, turn));
            let along = Vector::new(rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0), 0.5).normalize();
            let pose = rng.gen_bool(0.5).then_some(pose);
            let place = |p: Point| pose.map_or(p, |pose| pose.transform_point(&p));
            let mut inside: Vec<Point> = bounds.corners().to_vec();
            inside.extend((0..8).map(|_| {
                let t = Vector::from_fn(|_, _| rng.gen_range(0.0..=1.0));
                bounds.mins + bounds.extents().component_mul(&t)
            }));
            let highest =
                inside.iter().map(|p| place(*p).coords.dot(&along)).fold(Real::NEG_INFINITY, Real::max);
            // A best from just below the box's highest point to well above it, by steps from
            // around the rounding of the heights up.
            let step =
                (highest.abs() + scale) * 10.0_f32.powi(rng.gen_range(-8..0)) * rng.gen_range(-0.2..1.0);
            let best = Point::from(along * (highest + step));
            let far = Farthest::along(along).taking([best].iter());
            if far.could_take(&bounds, pose.as_ref()) {
                kept += 1;
            } else {
                passed += 1;
                let best = far.reached().0;
                assert!(inside.iter().all(|p| place(*p).coords.dot(&along) < best));
            }
        }
        assert!(passed > 1000 && kept > 1000, "passed {passed}, kept {kept}");
    }
}
