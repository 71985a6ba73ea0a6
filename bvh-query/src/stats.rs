//! What a query did, counted only when asked: the counting is a type parameter, so a query
//! run with `()` compiles the counters away.

use bvh_core::PreJudge;

/// Receives one call per unit of work a query does.
pub trait Stats {
    /// A bounding-volume pair was tested (pre-judge or full test).
    fn volume_test(&mut self);
    /// The OBB pre-judge answered.
    fn prejudge(&mut self, outcome: PreJudge);
    /// A triangle pair was tested exactly.
    fn triangle_test(&mut self);
}

/// Counts nothing, costs nothing.
impl Stats for () {
    #[inline(always)]
    fn volume_test(&mut self) {}
    #[inline(always)]
    fn prejudge(&mut self, _: PreJudge) {}
    #[inline(always)]
    fn triangle_test(&mut self) {}
}

/// Counts of a query's work, to explain its speed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueryStats {
    /// Bounding-volume pairs tested (including those the pre-judge decided).
    pub volume_tests: u64,
    /// Pre-judge verdicts: overlap.
    pub prejudge_overlap: u64,
    /// Pre-judge verdicts: disjoint.
    pub prejudge_disjoint: u64,
    /// Pre-judge verdicts: undecided (SAT ran).
    pub prejudge_undecided: u64,
    /// Exact triangle-pair tests.
    pub triangle_tests: u64,
}

impl std::ops::AddAssign for QueryStats {
    fn add_assign(&mut self, other: Self) {
        self.volume_tests += other.volume_tests;
        self.prejudge_overlap += other.prejudge_overlap;
        self.prejudge_disjoint += other.prejudge_disjoint;
        self.prejudge_undecided += other.prejudge_undecided;
        self.triangle_tests += other.triangle_tests;
    }
}

impl Stats for QueryStats {
    fn volume_test(&mut self) {
        self.volume_tests += 1;
    }

    fn prejudge(&mut self, outcome: PreJudge) {
        match outcome {
            PreJudge::Overlap => self.prejudge_overlap += 1,
            PreJudge::Disjoint => self.prejudge_disjoint += 1,
            PreJudge::Undecided => self.prejudge_undecided += 1,
        }
    }

    fn triangle_test(&mut self) {
        self.triangle_tests += 1;
    }
}
