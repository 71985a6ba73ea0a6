//! The volume test between a node of A and a node of B, per pair of volume types. OBB pairs run
//! paper 000's pre-judge before the separating axis test when asked; the others are the plain
//! overlap tests of `bvh-core`.
//!
//! A descent opens one node and tests both its children against the same node of the other
//! tree, so that node is *fixed* first – for boxes, placed in the other tree's frame – and the
//! work of moving it is shared by the two tests.

use crate::stats::{Stats, VolumeTest};
use bvh_core::overlap::Overlap;
use bvh_core::{Aabb, Obb, PreJudge, RelativePose, Sphere};

/// A volume of A tested against a volume of type `B` of the other tree.
pub trait NodeTest<B> {
    /// A volume of B made ready for tests against A's volumes.
    type FixedB;
    /// A volume of A made ready for tests against B's volumes.
    type FixedA;

    /// Makes `b` ready for tests against A's volumes; `b_in_a` is B's pose in A's frame.
    fn fix_b(b: &B, b_in_a: &RelativePose) -> Self::FixedB;

    /// Makes this volume ready for tests against B's volumes; `a_in_b` is the inverse of
    /// `b_in_a`.
    fn fix_a(&self, b_in_a: &RelativePose, a_in_b: &RelativePose) -> Self::FixedA;

    /// `true` when this volume overlaps the fixed volume of B.
    fn test_fixed_b(&self, b: &Self::FixedB, prejudge: bool, stats: &mut impl Stats) -> bool;

    /// `true` when the fixed volume of A overlaps `b`.
    fn test_fixed_a(a: &Self::FixedA, b: &B, prejudge: bool, stats: &mut impl Stats) -> bool;
}

impl NodeTest<Obb> for Obb {
    type FixedB = Obb;
    type FixedA = Obb;

    #[inline]
    fn fix_b(b: &Obb, b_in_a: &RelativePose) -> Obb {
        b.placed(b_in_a)
    }

    #[inline]
    fn fix_a(&self, _: &RelativePose, a_in_b: &RelativePose) -> Obb {
        self.placed(a_in_b)
    }

    #[inline]
    fn test_fixed_b(&self, b: &Obb, prejudge: bool, stats: &mut impl Stats) -> bool {
        obb_test(self, b, prejudge, stats)
    }

    #[inline]
    fn test_fixed_a(a: &Obb, b: &Obb, prejudge: bool, stats: &mut impl Stats) -> bool {
        obb_test(a, b, prejudge, stats)
    }
}

/// Two boxes of one frame: the pre-judge (when asked), then the separating axis test.
#[inline]
fn obb_test(a: &Obb, b: &Obb, prejudge: bool, stats: &mut impl Stats) -> bool {
    stats.volume_test(VolumeTest::Nodes);
    if prejudge {
        let outcome = a.prejudge(b);
        stats.prejudge(outcome);
        match outcome {
            PreJudge::Overlap => return true,
            PreJudge::Disjoint => return false,
            PreJudge::Undecided => {}
        }
    }
    a.intersects(b)
}

/// Pairs without a pre-judge: the overlap test alone, each volume kept in its own frame.
macro_rules! plain {
    ($($a:ty => $b:ty),* $(,)?) => {$(
        impl NodeTest<$b> for $a {
            type FixedB = ($b, RelativePose);
            type FixedA = ($a, RelativePose);

            #[inline]
            fn fix_b(b: &$b, b_in_a: &RelativePose) -> Self::FixedB {
                (*b, *b_in_a)
            }

            #[inline]
            fn fix_a(&self, b_in_a: &RelativePose, _: &RelativePose) -> Self::FixedA {
                (*self, *b_in_a)
            }

            #[inline]
            fn test_fixed_b(&self, (b, b_in_a): &Self::FixedB, _: bool, stats: &mut impl Stats) -> bool {
                stats.volume_test(VolumeTest::Nodes);
                self.overlaps(b, b_in_a)
            }

            #[inline]
            fn test_fixed_a((a, b_in_a): &Self::FixedA, b: &$b, _: bool, stats: &mut impl Stats) -> bool {
                stats.volume_test(VolumeTest::Nodes);
                a.overlaps(b, b_in_a)
            }
        }
    )*};
}

plain!(Aabb => Aabb, Sphere => Sphere, Sphere => Obb, Obb => Sphere, Aabb => Obb, Obb => Aabb, Aabb => Sphere, Sphere => Aabb);
