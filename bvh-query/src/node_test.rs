//! The volume test between a node of A and a node of B, per pair of volume types. OBB pairs run
//! paper 000's pre-judge before the separating axis test when asked; the others are the plain
//! overlap tests of `bvh-core`.
//!
//! A descent meets one node of a tree with several of the other's in turn. For boxes, that node
//! is placed in the other tree's frame once, and the placed box is kept for the next tests.

use crate::stats::{Stats, VolumeTest};
use bvh_build::NodeVolume;
use bvh_core::overlap::Overlap;
use bvh_core::{Aabb, Obb, PlacedObb, PreJudge, Real, RelativePose, Separation, Sphere};

/// A volume of A tested against a volume of type `B` of the other tree.
pub trait NodeTest<B> {
    /// A volume of B placed in A's frame, kept for the run's next tests of that node of B.
    type PlacedB: Copy;
    /// A volume of A placed in B's frame, kept for the run's next tests of that node of A.
    type PlacedA: Copy;

    /// `true` when this volume, grown by `margin` on every side, overlaps `b`; `b_in_a` is B's
    /// pose in A's frame, and `placed` keeps `b` placed in A's frame once it has been, for the
    /// next test against `b`. Growing inside the test spares a copy of each volume tested.
    fn test(
        &self,
        margin: Real,
        b: &B,
        b_in_a: &RelativePose,
        placed: &mut Option<Self::PlacedB>,
        prejudge: bool,
        stats: &mut impl Stats,
    ) -> bool;

    /// [`NodeTest::test`] of this volume as given (a caller grows it by its margin first),
    /// telling also how far apart the volumes lie when they do: `None` when they overlap, else
    /// a lower bound on their distance (zero if not measured).
    fn apart_by(
        &self,
        b: &B,
        b_in_a: &RelativePose,
        placed: &mut Option<Self::PlacedB>,
        prejudge: bool,
        stats: &mut impl Stats,
    ) -> Option<Real>;

    /// A lower bound on the distance between this volume and `b` (zero when they overlap), with
    /// `b` placed and kept as in [`NodeTest::test`]: what a distance query prunes by. A bound of
    /// `cutoff` or more is as good as any: a cheaper one may be returned then.
    fn distance_bound(
        &self,
        b: &B,
        b_in_a: &RelativePose,
        placed: &mut Option<Self::PlacedB>,
        cutoff: Real,
        stats: &mut impl Stats,
    ) -> Real;

    /// The same test with `a` (grown by `margin`) placed in B's frame (`a_in_b`) and kept in
    /// `placed`, for a node of A tested against many of B.
    fn test_in_b(
        a: &Self,
        margin: Real,
        b: &B,
        a_in_b: &RelativePose,
        placed: &mut Option<Self::PlacedA>,
        prejudge: bool,
        stats: &mut impl Stats,
    ) -> bool;
}

impl NodeTest<Obb> for Obb {
    type PlacedB = PlacedObb;
    type PlacedA = PlacedObb;

    #[inline]
    fn test(
        &self,
        margin: Real,
        b: &Obb,
        b_in_a: &RelativePose,
        placed: &mut Option<PlacedObb>,
        prejudge: bool,
        stats: &mut impl Stats,
    ) -> bool {
        obb_test(self, margin, placed, || PlacedObb::new(b, b_in_a), prejudge, stats)
    }

    /// The same steps as the test, the separating axis test measuring the widest gap instead
    /// (a few more instructions); a pre-judged "apart" is measured the same way.
    fn apart_by(
        &self,
        b: &Obb,
        b_in_a: &RelativePose,
        placed: &mut Option<PlacedObb>,
        prejudge: bool,
        stats: &mut impl Stats,
    ) -> Option<Real> {
        let (b, outcome) =
            placed_and_prejudged(self, 0.0, placed, || PlacedObb::new(b, b_in_a), prejudge, stats);
        if outcome == PreJudge::Overlap {
            return None;
        }
        let gap = self.gap(b);
        (gap > 0.0).then_some(gap)
    }

    /// The outer balls' distance when it reaches the cutoff, zero when the inner balls overlap
    /// (the pre-judge's two balls, measured), else the 15 axes' widest gap along unit axes.
    #[inline]
    fn distance_bound(
        &self,
        b: &Obb,
        b_in_a: &RelativePose,
        placed: &mut Option<PlacedObb>,
        cutoff: Real,
        stats: &mut impl Stats,
    ) -> Real {
        stats.volume_test(VolumeTest::Nodes);
        self.distance_bound_below(placed.get_or_insert_with(|| PlacedObb::new(b, b_in_a)), cutoff)
    }

    #[inline]
    fn test_in_b(
        a: &Obb,
        margin: Real,
        b: &Obb,
        a_in_b: &RelativePose,
        placed: &mut Option<PlacedObb>,
        prejudge: bool,
        stats: &mut impl Stats,
    ) -> bool {
        // Both tests are symmetric: B's box plays the first part, in its own frame.
        obb_test(b, 0.0, placed, || PlacedObb::new(&a.inflated(margin), a_in_b), prejudge, stats)
    }
}

/// Box `x`, grown by `x_margin`, against the box `placed` holds in its frame (placed by `place`
/// if not yet): the pre-judge's verdict if it gives one, else the separating axis test.
#[inline(always)]
fn obb_test(
    x: &Obb,
    x_margin: Real,
    placed: &mut Option<PlacedObb>,
    place: impl FnOnce() -> PlacedObb,
    prejudge: bool,
    stats: &mut impl Stats,
) -> bool {
    match placed_and_prejudged(x, x_margin, placed, place, prejudge, stats) {
        (_, PreJudge::Overlap) => true,
        (_, PreJudge::Disjoint) => false,
        (y, PreJudge::Undecided) => x.meets_with_margin(y, x_margin),
    }
}

/// The first steps of a test of box `x`, grown by `x_margin`, against the box `placed` holds
/// (placed by `place` if not yet): counted, then the pre-judge when asked (else undecided).
#[inline(always)]
fn placed_and_prejudged<'p>(
    x: &Obb,
    x_margin: Real,
    placed: &'p mut Option<PlacedObb>,
    place: impl FnOnce() -> PlacedObb,
    prejudge: bool,
    stats: &mut impl Stats,
) -> (&'p PlacedObb, PreJudge) {
    stats.volume_test(VolumeTest::Nodes);
    let y = placed.get_or_insert_with(place);
    if !prejudge {
        return (y, PreJudge::Undecided);
    }
    let outcome = x.prejudge_with_margin(y, x_margin);
    stats.prejudge(outcome);
    (y, outcome)
}

/// Pairs without a pre-judge: the overlap test alone, each volume kept in its own frame.
macro_rules! plain {
    ($($a:ty => $b:ty),* $(,)?) => {$(
        impl NodeTest<$b> for $a {
            type PlacedB = ();
            type PlacedA = ();

            #[inline]
            fn test(
                &self,
                margin: Real,
                b: &$b,
                b_in_a: &RelativePose,
                _: &mut Option<()>,
                _: bool,
                stats: &mut impl Stats,
            ) -> bool {
                stats.volume_test(VolumeTest::Nodes);
                self.inflated(margin).overlaps(b, b_in_a)
            }

            /// Not measured: these pairs are tested again at every search from a front.
            fn apart_by(
                &self,
                b: &$b,
                b_in_a: &RelativePose,
                placed: &mut Option<()>,
                prejudge: bool,
                stats: &mut impl Stats,
            ) -> Option<Real> {
                (!self.test(0.0, b, b_in_a, placed, prejudge, stats)).then_some(0.0)
            }

            #[inline]
            fn distance_bound(
                &self,
                b: &$b,
                b_in_a: &RelativePose,
                _: &mut Option<()>,
                _: Real,
                stats: &mut impl Stats,
            ) -> Real {
                stats.volume_test(VolumeTest::Nodes);
                self.separation(b, b_in_a)
            }

            #[inline]
            fn test_in_b(
                a: &$a,
                margin: Real,
                b: &$b,
                a_in_b: &RelativePose,
                _: &mut Option<()>,
                _: bool,
                stats: &mut impl Stats,
            ) -> bool {
                stats.volume_test(VolumeTest::Nodes);
                b.overlaps(&a.inflated(margin), a_in_b)
            }
        }
    )*};
}

plain!(Aabb => Aabb, Sphere => Sphere, Sphere => Obb, Obb => Sphere, Aabb => Obb, Obb => Aabb, Aabb => Sphere, Sphere => Aabb);
