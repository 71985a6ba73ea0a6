//! What a query did, counted only when asked: the counting is a type parameter, so a query
//! run with `()` compiles the counters away.

use bvh_core::PreJudge;

/// Which test decided a pair of bounding volumes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VolumeTest {
    /// The two objects' root volumes (once per query).
    Root,
    /// A node's box in its tree's frame against the other object's top box: six comparisons
    /// that found them apart.
    NodeBox,
    /// Two node volumes (the pre-judge, then the full overlap test if it was undecided).
    Nodes,
    /// A leaf against the other tree's node volume: by its own triangles (in a distance query,
    /// by their box).
    Leaf,
}

/// Receives one call per unit of work a query does.
pub trait Stats {
    /// A bounding-volume pair was tested, and decided by this test.
    fn volume_test(&mut self, kind: VolumeTest);
    /// The OBB pre-judge answered.
    fn prejudge(&mut self, outcome: PreJudge);
    /// A triangle pair was tested exactly.
    fn triangle_test(&mut self);
    /// The descent stopped at a pair: its volumes are apart, or both are leaves handed to the
    /// triangle tests. These pairs are the front of the bounding volume test tree.
    fn front_pair(&mut self);
    /// A time of impact measured the distance at one more pose of the motion.
    fn advance(&mut self);
}

/// Counts nothing, costs nothing.
impl Stats for () {
    #[inline(always)]
    fn volume_test(&mut self, _: VolumeTest) {}
    #[inline(always)]
    fn prejudge(&mut self, _: PreJudge) {}
    #[inline(always)]
    fn triangle_test(&mut self) {}
    #[inline(always)]
    fn front_pair(&mut self) {}
    #[inline(always)]
    fn advance(&mut self) {}
}

/// Counts of a query's work, to explain its speed.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueryStats {
    /// Root volume tests.
    pub root_tests: u64,
    /// Pairs a node box found apart before any volume test.
    pub node_box_tests: u64,
    /// Node volume pairs tested (including those the pre-judge decided).
    pub node_tests: u64,
    /// Leaves tested against node volumes.
    pub leaf_tests: u64,
    /// Pre-judge verdicts: overlap.
    pub prejudge_overlap: u64,
    /// Pre-judge verdicts: disjoint.
    pub prejudge_disjoint: u64,
    /// Pre-judge verdicts: undecided (SAT ran).
    pub prejudge_undecided: u64,
    /// Exact triangle-pair tests.
    pub triangle_tests: u64,
    /// Pairs where the descent stopped (the size of the test tree's front).
    pub front: u64,
    /// Poses at which a time of impact measured the distance.
    pub advances: u64,
}

impl QueryStats {
    /// Bounding-volume pairs tested, of every kind.
    pub fn volume_tests(&self) -> u64 {
        self.root_tests + self.node_box_tests + self.node_tests + self.leaf_tests
    }
}

impl std::ops::AddAssign for QueryStats {
    fn add_assign(&mut self, other: Self) {
        self.root_tests += other.root_tests;
        self.node_box_tests += other.node_box_tests;
        self.node_tests += other.node_tests;
        self.leaf_tests += other.leaf_tests;
        self.prejudge_overlap += other.prejudge_overlap;
        self.prejudge_disjoint += other.prejudge_disjoint;
        self.prejudge_undecided += other.prejudge_undecided;
        self.triangle_tests += other.triangle_tests;
        self.front += other.front;
        self.advances += other.advances;
    }
}

impl Stats for QueryStats {
    fn volume_test(&mut self, kind: VolumeTest) {
        *match kind {
            VolumeTest::Root => &mut self.root_tests,
            VolumeTest::NodeBox => &mut self.node_box_tests,
            VolumeTest::Nodes => &mut self.node_tests,
            VolumeTest::Leaf => &mut self.leaf_tests,
        } += 1;
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

    fn front_pair(&mut self) {
        self.front += 1;
    }

    fn advance(&mut self) {
        self.advances += 1;
    }
}
