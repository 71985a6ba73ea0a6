//! The OBB pre-judge of paper 000 §1.4.2 (also paper 004): a cheap ball test before SAT.

use super::PlacedObb;
use crate::math::{Real, RelativePose};
use crate::obb::{Obb, smallest};

/// Outcome of the pre-judge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PreJudge {
    /// The inscribed balls overlap, so the boxes do (traversal goes on below; nothing is
    /// reported yet).
    Overlap,
    /// The circumscribed balls are apart, so the boxes are.
    Disjoint,
    /// Neither: run the separating axis test.
    Undecided,
}

/// Compares the centre distance `L` with the inscribed radii (smallest half extents) and the
/// circumscribed radii (half diagonals), squared so no root is taken:
/// `L < rmin_a + rmin_b` is [`PreJudge::Overlap`], `L > rmax_a + rmax_b` is
/// [`PreJudge::Disjoint`], anything else [`PreJudge::Undecided`]. (Paper 004 prints the two
/// verdicts swapped.) It never contradicts the separating axis test.
#[inline]
pub fn obb_prejudge(a: &Obb, b: &Obb, b_in_a: &RelativePose) -> PreJudge {
    a.prejudge(&PlacedObb::new(b, b_in_a))
}

impl Obb {
    /// [`obb_prejudge`] against a box placed in this one's frame.
    #[inline]
    pub fn prejudge(&self, other: &PlacedObb) -> PreJudge {
        self.prejudge_with_margin(other, 0.0)
    }

    /// [`Obb::prejudge`] for this box grown by `margin` on every side (see
    /// [`Obb::meets_with_margin`]).
    #[inline]
    pub fn prejudge_with_margin(&self, other: &PlacedObb, margin: Real) -> PreJudge {
        let grown = self.half_extents.add_scalar(margin);
        let (inner, outer) = (smallest(&grown) + other.inner_radius, grown.norm() + other.outer_radius);
        verdict(other.center_distance_sq(&self.center), inner, outer)
    }
}

/// The verdict for boxes whose centres are `sqrt(distance_sq)` apart, with the sums of their
/// inscribed and circumscribed radii.
#[inline]
fn verdict(distance_sq: Real, inner: Real, outer: Real) -> PreJudge {
    if distance_sq < inner * inner {
        return PreJudge::Overlap;
    }
    if distance_sq > outer * outer { PreJudge::Disjoint } else { PreJudge::Undecided }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Isometry, Rotation, Vector};
    use crate::overlap::{Overlap, random_obb};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Over boxes of many sizes and turns, every verdict agrees with the separating axis test
    /// and with the centre distance against the circumscribed radii (up to rounding), and each
    /// verdict occurs often.
    #[test]
    fn verdicts_agree_with_sat_and_with_the_radii() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut seen = [0; 3];
        for _ in 0..20_000 {
            let scale: Real = 10f32.powf(rng.gen_range(-2.0..2.0));
            let (a, b) = (random_obb(&mut rng, scale), random_obb(&mut rng, scale));
            let turn = Rotation::new(Vector::new(rng.r#gen(), rng.r#gen(), rng.r#gen()) * 6.0);
            let pose = RelativePose::from(&Isometry::from_parts(Vector::zeros().into(), turn));
            let verdict = obb_prejudge(&a, &b, &pose);
            let overlaps = a.overlaps(&b, &pose);
            let distance = (pose.transform_point(&b.center) - a.center).norm();
            let outer = a.outer_radius() + b.outer_radius();
            match verdict {
                PreJudge::Overlap => {
                    seen[0] += 1;
                    assert!(overlaps);
                }
                PreJudge::Disjoint => {
                    seen[1] += 1;
                    assert!(!overlaps);
                    assert!(distance >= outer * (1.0 - 1e-5));
                }
                PreJudge::Undecided => {
                    seen[2] += 1;
                    assert!(distance <= outer * (1.0 + 1e-5));
                }
            }
        }
        assert!(seen.iter().all(|&n| n > 1_000), "verdict counts {seen:?}");
    }
}
