//! One leaf's triangles placed in the other tree's frame, a run of [`BOX_LANES`] at a time, their
//! boxes side by side in lanes: each triangle of the other leaf finds the boxes it meets in a
//! few vector comparisons, and only those pairs go on to the exact test. Fixed arrays, filled
//! in place: a leaf pair costs no allocation and no length checks.

use bvh_core::{Aabb, BOX_LANES, BoxLanes, Point, Triangle, bits::set_bits};

/// A mask of lanes is a `u32`.
const _: () = assert!(BOX_LANES < u32::BITS as usize);

pub(crate) struct PlacedRun {
    len: usize,
    positions: [usize; BOX_LANES],
    triangles: [Triangle; BOX_LANES],
    /// The boxes the triangles are compared by (for a swept query, the box of the sweep).
    boxes: BoxLanes,
}

impl Default for PlacedRun {
    fn default() -> Self {
        Self {
            len: 0,
            positions: [0; BOX_LANES],
            triangles: [Triangle::new(Point::origin(), Point::origin(), Point::origin()); BOX_LANES],
            boxes: BoxLanes::default(),
        }
    }
}

impl PlacedRun {
    /// Replaces the run with the next [`BOX_LANES`] positions of `positions` (or the rest),
    /// each placed by `place` with its box; `false` when none were left.
    #[inline]
    pub(crate) fn refill(
        &mut self,
        positions: &mut impl Iterator<Item = usize>,
        place: impl Fn(usize) -> (Triangle, Aabb),
    ) -> bool {
        self.len = 0;
        for j in positions.take(BOX_LANES) {
            let (triangle, aabb) = place(j);
            self.positions[self.len] = j;
            self.triangles[self.len] = triangle;
            self.boxes.set(self.len, &aabb);
            self.len += 1;
        }
        self.len > 0
    }

    /// The run's triangles whose boxes meet `aabb` – exactly, or with a `margin`, within it
    /// ([`Aabb::gap`]) – each with its position.
    #[inline]
    pub(crate) fn near(&self, aabb: &Aabb, margin: Option<f64>) -> impl Iterator<Item = (usize, &Triangle)> {
        let mask = match margin {
            None => self.boxes.meeting(aabb),
            Some(margin) => {
                (0..self.len).fold(0, |m, k| m | u32::from(aabb.gap(&self.boxes.get(k)) <= margin) << k)
            }
        };
        self.at(mask)
    }

    /// The run's triangles in lanes `mask`, lanes past the run's length left out.
    #[inline]
    fn at(&self, mask: u32) -> impl Iterator<Item = (usize, &Triangle)> {
        let filled = (1u32 << self.len) - 1;
        set_bits(mask & filled).map(|k| (self.positions[k], &self.triangles[k]))
    }
}
