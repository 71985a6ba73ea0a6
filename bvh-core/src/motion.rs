//! Rigid motions between two poses, for continuous collision: every intermediate pose by a
//! formula a caller can reproduce, and a bound on how fast any point of the moving object goes.

use crate::math::{Isometry, PoseError, PoseOf, Real, check_finite};
use nalgebra as na;

type Vector64 = na::Vector3<f64>;
type Rotation64 = na::UnitQuaternion<f64>;

/// How a motion interpolates between its two poses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Interpolation {
    /// The origin moves on the straight line between the two positions and the orientation
    /// turns at a constant rate about one axis, the short way round (slerp):
    /// `pose(t) = (p₀ + t (p₁ − p₀), R(t θ, u) R₀)`, where `R₁ R₀⁻¹` turns by `θ ∈ [0, π]` about
    /// `u`. Points turn about the object's own origin.
    #[default]
    Slerp,
    /// The one screw motion taking the start pose to the end pose: a turn at a constant rate
    /// about a fixed axis in space and a constant slide along it (Chasles). With
    /// `M = pose₁ pose₀⁻¹` turning by `θ` about `u` through the point `c`, and sliding by `s`
    /// along `u`: `pose(t) = (x ↦ c + R(t θ, u) (x − c) + t s u) ∘ pose₀`. Points move on
    /// helices; a motion that does not turn is the straight line of `Slerp`.
    Screw,
}

/// A motion of an object from one pose to another over the parameter `t ∈ [0, 1]`. Computed in
/// `f64` and rounded once per pose.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RigidMotion {
    start: Isometry,
    end: Isometry,
    interpolation: Interpolation,
    /// Start position and orientation.
    p0: Vector64,
    r0: Rotation64,
    /// The turn from start to end, the short way: axis (unit; any when `angle` is zero) and
    /// angle in `[0, π]`.
    axis: Vector64,
    angle: f64,
    /// Slerp: the origin's displacement. Screw: the slide along the axis, as a vector.
    shift: Vector64,
    /// Screw: a point of the axis.
    centre: Vector64,
}

/// Below this angle a screw is taken not to turn: its axis would lie so far away (at about the
/// displacement divided by the angle) that placing points about it would lose the precision the
/// turn adds; the slerp formula moves them within `angle · reach` of the screw instead.
const NO_TURN: f64 = 1e-7;

impl RigidMotion {
    /// The motion from `start` to `end`; refused when either pose has a NaN or infinite
    /// component.
    pub fn new(start: &Isometry, end: &Isometry, interpolation: Interpolation) -> Result<Self, PoseError> {
        check_finite(start, PoseOf::Start)?;
        check_finite(end, PoseOf::End)?;
        let p0: Vector64 = start.translation.vector.cast();
        let p1: Vector64 = end.translation.vector.cast();
        let r0 = Rotation64::new_normalize(start.rotation.quaternion().cast());
        let r1 = Rotation64::new_normalize(end.rotation.quaternion().cast());
        let mut turn = r1 * r0.inverse();
        // The short way round: a quaternion and its negation are the same rotation.
        if turn.w < 0.0 {
            turn = Rotation64::new_unchecked(-turn.into_inner());
        }
        let (axis, angle) =
            turn.axis_angle().map_or((Vector64::z(), 0.0), |(axis, angle)| (axis.into_inner(), angle));
        let mut motion = Self {
            start: *start,
            end: *end,
            interpolation,
            p0,
            r0,
            axis,
            angle,
            shift: p1 - p0,
            centre: Vector64::zeros(),
        };
        if interpolation == Interpolation::Screw && angle > NO_TURN {
            // M = pose₁ pose₀⁻¹ moves x to turn·x + m; its slide is m's part along the axis, and
            // its axis passes through c ⊥ u solving (I − turn) c = m⊥.
            let m = p1 - turn * p0;
            let slide = axis * axis.dot(&m);
            let across = m - slide;
            motion.centre = 0.5 * (across + axis.cross(&across) / (0.5 * angle).tan());
            motion.shift = slide;
        }
        Ok(motion)
    }

    /// The pose at the start.
    pub fn start(&self) -> &Isometry {
        &self.start
    }

    /// The pose at the end.
    pub fn end(&self) -> &Isometry {
        &self.end
    }

    /// How the poses are interpolated.
    pub fn interpolation(&self) -> Interpolation {
        self.interpolation
    }

    /// The angle turned over the whole motion, in `[0, π]`.
    pub fn angle(&self) -> f64 {
        self.angle
    }

    /// The pose at `t` (the start at 0 or below, the end at 1 or above, the formula of
    /// [`Interpolation`] between).
    pub fn pose_at(&self, t: f64) -> Isometry {
        if t.is_nan() || t <= 0.0 {
            return self.start;
        }
        if t >= 1.0 {
            return self.end;
        }
        let turn = Rotation64::from_axis_angle(&na::Unit::new_unchecked(self.axis), t * self.angle);
        let position = match self.interpolation {
            Interpolation::Screw if self.angle > NO_TURN => {
                self.centre + turn * (self.p0 - self.centre) + t * self.shift
            }
            _ => self.p0 + t * self.shift,
        };
        let rotation = turn * self.r0;
        Isometry::from_parts(
            na::Translation3::from(position.cast::<Real>()),
            na::UnitQuaternion::new_normalize(rotation.into_inner().cast::<Real>()),
        )
    }

    /// The fastest any point within `reach` of the object's origin moves, as distance per unit
    /// of `t`, anywhere along the motion: with it, no point moves farther than
    /// `speed_bound(reach) · Δt` while `t` advances by `Δt`.
    ///
    /// Slerp: a point at `x` from the origin moves at `|p₁ − p₀ + ω × x| ≤ |p₁ − p₀| + θ |x|`.
    /// Screw: at `|s| + θ ρ`, with `ρ` the point's distance from the axis, which the motion keeps
    /// constant and which is at most the origin's distance from the axis plus `reach`.
    pub fn speed_bound(&self, reach: Real) -> f64 {
        // Rounded up by a few units in the last place: the bound must not fall short.
        (self.shift.norm() + self.angle * self.turn_radius(reach)) * (1.0 + 1e-12)
    }

    /// How far any point within `reach` of the object's origin strays, at any `t`, from the
    /// point `t` of the way along the straight segment from where it starts to where it ends:
    /// so the box around the object's start and end boxes, grown by this, holds it all along.
    ///
    /// The slide is linear in `t`; only the turn bends the path. A point at `ρ` from the axis
    /// of the turn, turning by `θ = 2α`, is off the chord by at most `ρ (1 − cos α)` across it and
    /// `ρ (α − sin α)` along it.
    pub fn deviation_bound(&self, reach: Real) -> f64 {
        let half = self.angle / 2.0;
        let off = (1.0 - half.cos()) + (half - half.sin());
        self.turn_radius(reach) * off * (1.0 + 1e-12)
    }

    /// The largest distance from the axis of the turn of any point within `reach` of the
    /// object's origin: `reach` for slerp (the turn is about the origin), and for a screw the
    /// origin's distance from the axis plus `reach`.
    fn turn_radius(&self, reach: Real) -> f64 {
        let reach = reach as f64;
        match self.interpolation {
            Interpolation::Screw if self.angle > NO_TURN => {
                let from_centre = self.p0 - self.centre;
                (from_centre - self.axis * self.axis.dot(&from_centre)).norm() + reach
            }
            _ => reach,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Point, Vector};

    fn pose(t: [Real; 3], axis: [Real; 3], angle: Real) -> Isometry {
        Isometry::new(Vector::from(t), Vector::from(axis).normalize() * angle)
    }

    fn motions() -> Vec<(Isometry, Isometry)> {
        vec![
            (pose([0.0, 0.0, 0.0], [0.0, 0.0, 1.0], 0.0), pose([1.0, 2.0, 3.0], [0.0, 0.0, 1.0], 0.0)),
            (pose([1.0, -2.0, 0.5], [1.0, 1.0, 0.0], 0.3), pose([4.0, 1.0, -1.0], [0.0, 1.0, 2.0], 2.5)),
            (pose([10.0, 0.0, 0.0], [0.0, 0.0, 1.0], 0.0), pose([-10.0, 0.0, 5.0], [0.0, 0.0, 1.0], 3.0)),
            (pose([0.0, 0.0, 0.0], [1.0, 0.0, 0.0], 1.0), pose([0.0, 0.0, 0.0], [1.0, 0.0, 0.0], 1.0)),
        ]
    }

    #[test]
    fn ends_are_the_poses_and_slerp_moves_the_origin_on_a_line() {
        for (a, b) in motions() {
            for interpolation in [Interpolation::Slerp, Interpolation::Screw] {
                let m = RigidMotion::new(&a, &b, interpolation).unwrap();
                assert_eq!(m.pose_at(0.0), a);
                assert_eq!(m.pose_at(1.0), b);
                // Just inside the ends, the formula meets the poses.
                for (t, end) in [(1e-9, a), (1.0 - 1e-9, b)] {
                    let p = m.pose_at(t);
                    assert!(
                        (p.translation.vector - end.translation.vector).norm() < 1e-4,
                        "{interpolation:?}"
                    );
                    assert!(p.rotation.angle_to(&end.rotation) < 1e-4, "{interpolation:?}");
                }
            }
            let m = RigidMotion::new(&a, &b, Interpolation::Slerp).unwrap();
            let mid = m.pose_at(0.5).translation.vector;
            assert!((mid - (a.translation.vector + b.translation.vector) / 2.0).norm() < 1e-5);
        }
    }

    #[test]
    fn a_screw_keeps_each_point_at_its_distance_from_the_axis_and_turns_evenly() {
        let (a, b) = motions()[1];
        let m = RigidMotion::new(&a, &b, Interpolation::Screw).unwrap();
        let x = Point::new(0.7, -1.1, 2.0);
        let distance_from_axis = |p: Point| {
            let v = p.coords.cast::<f64>() - m.centre;
            (v - m.axis * m.axis.dot(&v)).norm()
        };
        let along_axis = |p: Point| m.axis.dot(&(p.coords.cast::<f64>() - m.centre));
        let r = distance_from_axis(a * x);
        let steps = 8;
        for k in 0..=steps {
            let t = k as f64 / steps as f64;
            let p = m.pose_at(t) * x;
            assert!((distance_from_axis(p) - r).abs() < 1e-4, "{t}");
            // The slide is linear in t.
            let slide = along_axis(p) - along_axis(a * x);
            assert!((slide - t * m.shift.dot(&m.axis)).abs() < 1e-4, "{t}");
            assert!((m.pose_at(t).rotation.angle_to(&a.rotation) as f64 - t * m.angle).abs() < 1e-4);
        }
    }

    #[test]
    fn no_point_outruns_the_speed_bound() {
        let points = [Point::new(0.0, 0.0, 0.0), Point::new(3.0, -1.0, 2.0), Point::new(-2.0, 2.0, -2.0)];
        let reach = points.iter().map(|p| p.coords.norm()).fold(0.0, Real::max);
        for (a, b) in motions() {
            for interpolation in [Interpolation::Slerp, Interpolation::Screw] {
                let m = RigidMotion::new(&a, &b, interpolation).unwrap();
                let bound = m.speed_bound(reach);
                let steps = 200;
                for k in 0..steps {
                    let (t0, t1) = (k as f64 / steps as f64, (k + 1) as f64 / steps as f64);
                    for x in points {
                        let moved = (m.pose_at(t1) * x - m.pose_at(t0) * x).norm() as f64;
                        // Rounding of the two poses in f32 aside.
                        assert!(
                            moved <= bound * (t1 - t0) + 1e-5,
                            "{interpolation:?} {t0}: {moved} > {bound}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn no_point_strays_from_its_chord_beyond_the_deviation_bound() {
        let points = [Point::new(0.0, 0.0, 0.0), Point::new(3.0, -1.0, 2.0), Point::new(-2.0, 2.0, -2.0)];
        let reach = points.iter().map(|p| p.coords.norm()).fold(0.0, Real::max);
        let mut largest: f64 = 0.0;
        for (a, b) in motions() {
            for interpolation in [Interpolation::Slerp, Interpolation::Screw] {
                let m = RigidMotion::new(&a, &b, interpolation).unwrap();
                let bound = m.deviation_bound(reach);
                for x in points {
                    let (x0, x1) = (a * x, b * x);
                    for k in 0..=100 {
                        let t = k as f64 / 100.0;
                        let chord = x0.coords.cast::<f64>() * (1.0 - t) + x1.coords.cast::<f64>() * t;
                        let off = (m.pose_at(t) * x).coords.cast::<f64>() - chord;
                        largest = largest.max(off.norm() / bound.max(1e-9));
                        assert!(
                            off.norm() <= bound + 1e-5,
                            "{interpolation:?} {t}: {} > {bound}",
                            off.norm()
                        );
                    }
                }
            }
        }
        // The bound is not idle: some point comes near it.
        assert!(largest > 0.3, "{largest}");
    }

    #[test]
    fn bad_poses_are_refused() {
        let good = Isometry::identity();
        let bad = Isometry::translation(Real::NAN, 0.0, 0.0);
        assert_eq!(
            RigidMotion::new(&good, &bad, Interpolation::Slerp),
            Err(PoseError::NotFinite(PoseOf::End))
        );
        assert_eq!(
            RigidMotion::new(&bad, &good, Interpolation::Screw),
            Err(PoseError::NotFinite(PoseOf::Start))
        );
    }
}
