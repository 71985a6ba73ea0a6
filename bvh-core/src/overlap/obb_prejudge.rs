//! The OBB pre-judge of paper 000 §1.4.2 (also paper 004): a cheap ball test before SAT.

use crate::math::RelativePose;
use crate::obb::Obb;

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
    let distance_sq = (b_in_a.transform_point(&b.center) - a.center).norm_squared();
    let inner = a.inner_radius() + b.inner_radius();
    if distance_sq < inner * inner {
        return PreJudge::Overlap;
    }
    let outer = a.outer_radius() + b.outer_radius();
    if distance_sq > outer * outer { PreJudge::Disjoint } else { PreJudge::Undecided }
}
