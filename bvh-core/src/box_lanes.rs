//! Boxes of one frame side by side in vector lanes: one box meets all of them in six vector
//! comparisons. The box filter of a leaf pair – each triangle of one leaf against every triangle
//! of the other – before any exact test.

use crate::Aabb;
use wide::f32x8;

/// How many boxes a [`BoxLanes`] holds.
pub const BOX_LANES: usize = 8;

/// [`BOX_LANES`] boxes, coordinate by coordinate: `mins[c][k]` is box `k`'s least coordinate
/// `c`. A lane never set holds [`Aabb::EMPTY`].
#[derive(Clone, Copy, Debug)]
pub struct BoxLanes {
    mins: [[f32; BOX_LANES]; 3],
    maxs: [[f32; BOX_LANES]; 3],
}

impl Default for BoxLanes {
    fn default() -> Self {
        let lanes = |p: crate::Point| [0, 1, 2].map(|c| [p[c]; BOX_LANES]);
        Self { mins: lanes(Aabb::EMPTY.mins), maxs: lanes(Aabb::EMPTY.maxs) }
    }
}

impl BoxLanes {
    /// Puts `aabb` in lane `k` (below [`BOX_LANES`]).
    #[inline]
    pub fn set(&mut self, k: usize, aabb: &Aabb) {
        for c in 0..3 {
            self.mins[c][k] = aabb.mins[c];
            self.maxs[c][k] = aabb.maxs[c];
        }
    }

    /// The box in lane `k`.
    #[inline]
    pub fn get(&self, k: usize) -> Aabb {
        let [mins, maxs] = [&self.mins, &self.maxs].map(|m| crate::Point::new(m[0][k], m[1][k], m[2][k]));
        Aabb::new(mins, maxs)
    }

    /// Bit `k` set where lane `k`'s box meets `other` ([`Aabb::intersects`], the same
    /// comparisons of `f32`, so as exact).
    #[inline]
    pub fn meeting(&self, other: &Aabb) -> u32 {
        let mut meets = f32x8::splat(0.0).simd_le(f32x8::splat(0.0));
        for c in 0..3 {
            let (mins, maxs) = (f32x8::from(self.mins[c]), f32x8::from(self.maxs[c]));
            meets &= mins.simd_le(f32x8::splat(other.maxs[c])) & f32x8::splat(other.mins[c]).simd_le(maxs);
        }
        meets.to_bitmask()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Point;

    fn cube(at: [f32; 3], half: f32) -> Aabb {
        let p = Point::from(at);
        Aabb::new(p - crate::Vector::repeat(half), p + crate::Vector::repeat(half))
    }

    #[test]
    fn each_lane_meets_as_its_box_does() {
        let mut lanes = BoxLanes::default();
        let boxes: Vec<Aabb> = (0..BOX_LANES).map(|k| cube([k as f32, 0.0, (k % 3) as f32], 0.5)).collect();
        for (k, b) in boxes.iter().enumerate() {
            lanes.set(k, b);
            assert_eq!(lanes.get(k), *b);
        }
        // Touching faces count, as they do for `Aabb::intersects`; a box a hair beyond does not.
        for probe in [
            cube([2.0, 0.0, 0.0], 0.5),
            cube([3.5, 0.0, 1.0], 0.0),
            cube([3.5, 1.0, 1.0], 0.4999),
            cube([0.0, 0.0, 0.0], 100.0),
            cube([-1.0, 0.0, 0.0], 0.4999),
        ] {
            let expected = boxes
                .iter()
                .enumerate()
                .filter(|(_, b)| b.intersects(&probe))
                .fold(0, |m, (k, _)| m | 1 << k);
            assert_eq!(lanes.meeting(&probe), expected, "{probe:?}");
        }
        assert_eq!(lanes.meeting(&cube([3.5, 0.0, 1.0], 0.0)), 0b1_0000);
    }

    #[test]
    fn unset_lanes_and_nan_boxes_meet_nothing() {
        let mut lanes = BoxLanes::default();
        assert_eq!(lanes.meeting(&cube([0.0; 3], 1e30)), 0);
        lanes.set(2, &cube([f32::NAN, 0.0, 0.0], 1.0));
        assert_eq!(lanes.meeting(&cube([0.0; 3], 1e30)), 0);
    }
}
