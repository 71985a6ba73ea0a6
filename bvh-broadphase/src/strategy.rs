//! What a spatial index must do for [`crate::Broadphase`]: index boxes by id, find every pair
//! at once, and find one box's neighbours. Everything else (ids, validation, the persistent pair
//! set, incremental updates) is shared, so a strategy is only its data structure.

use bvh_core::Aabb;

/// The boxes of a broadphase, by id (`None` for a free id).
pub type Boxes = [Option<Aabb>];

/// A spatial index over object boxes. Boxes are closed: touching boxes overlap.
pub trait Strategy: Send + Sync {
    /// Forgets everything, indexes every box in `boxes`, and appends every overlapping pair
    /// `(i, j)`, `i < j`, exactly once to `pairs` (in any order).
    fn rebuild(&mut self, boxes: &Boxes, pairs: &mut Vec<(u32, u32)>);

    /// Indexes box `id` (already stored in `boxes`).
    fn insert(&mut self, id: u32, boxes: &Boxes);

    /// Forgets box `id`, which was indexed with `aabb`.
    fn remove(&mut self, id: u32, aabb: &Aabb);

    /// Calls `found` exactly once for every indexed id other than `id` whose box overlaps `aabb`
    /// (`id`'s current box, already indexed, or a larger box around it: the objects near `id`).
    fn for_each_overlap(&self, id: u32, aabb: &Aabb, boxes: &Boxes, found: &mut dyn FnMut(u32));

    /// `true` when incremental edits have worn the index enough that the next update should
    /// rebuild it, however few boxes changed.
    fn needs_rebuild(&self) -> bool {
        false
    }
}

/// The corner where the overlap of two boxes begins: inside both, so the one cell holding it is
/// a cell both boxes were indexed in (the minimum-corner rule that reports a pair once).
#[inline]
pub(crate) fn overlap_start(a: &Aabb, b: &Aabb) -> bvh_core::Point {
    a.mins.sup(&b.mins)
}

/// The box of an indexed id (indexed ids are always live).
#[inline]
pub(crate) fn live(boxes: &Boxes, id: u32) -> &Aabb {
    boxes[id as usize].as_ref().expect("indexed boxes are live")
}
