//! What binned splits share: which bin holds a value, and the box a bin grows around its
//! triangles.

use bvh_core::{Aabb, Point, Real};
use wide::f32x4;

/// Which of `bins` equal bins, `scale` to a unit, holds a value `offset` past the first one's
/// start (offsets before or beyond them: the end bins).
#[inline]
pub(crate) fn bin_of(offset: Real, scale: Real, bins: usize) -> usize {
    // Through i32, which converts in one instruction.
    ((offset * scale) as i32).clamp(0, bins as i32 - 1) as usize
}

/// A box as its corners' coordinates in four lanes (the fourth unused), so that growing one
/// is two vector instructions.
#[derive(Clone, Copy)]
pub(crate) struct Span {
    lo: f32x4,
    hi: f32x4,
}

impl Span {
    pub(crate) const EMPTY: Self =
        Self { lo: f32x4::splat(Real::INFINITY), hi: f32x4::splat(Real::NEG_INFINITY) };

    /// The box from `lo` to `hi`.
    pub(crate) fn new([x, y, z]: [Real; 3], [u, v, w]: [Real; 3]) -> Self {
        Self::from_lanes([x, y, z, 0.0], [u, v, w, 0.0])
    }

    /// The box from `lo` to `hi` given as lanes, the fourth of which no use of a span reads.
    pub(crate) fn from_lanes(lo: [Real; 4], hi: [Real; 4]) -> Self {
        Self { lo: f32x4::new(lo), hi: f32x4::new(hi) }
    }

    /// An empty box at `p`.
    pub(crate) fn at(p: f32x4) -> Self {
        Self { lo: p, hi: p }
    }

    /// Twice the centre (halving it would cost an instruction and change no comparison).
    pub(crate) fn doubled_centre(&self) -> f32x4 {
        self.lo + self.hi
    }

    pub(crate) fn grow(&mut self, other: &Self) {
        self.lo = self.lo.fast_min(other.lo);
        self.hi = self.hi.fast_max(other.hi);
    }

    /// Half the surface area (the factor cancels in a split's cost).
    pub(crate) fn half_area(&self) -> Real {
        let [x, y, z, _] = (self.hi - self.lo).fast_max(f32x4::ZERO).to_array();
        x * y + y * z + z * x
    }

    /// The box as an [`Aabb`].
    pub(crate) fn to_aabb(self) -> Aabb {
        let ([x, y, z, _], [u, v, w, _]) = (self.lo.to_array(), self.hi.to_array());
        Aabb::new(Point::new(x, y, z), Point::new(u, v, w))
    }

    /// The interval per axis.
    pub(crate) fn intervals(&self) -> [(Real, Real); 3] {
        let (lo, hi) = (self.lo.to_array(), self.hi.to_array());
        std::array::from_fn(|d| (lo[d], hi[d]))
    }
}
