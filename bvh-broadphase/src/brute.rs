//! The reference strategy: every box against every other.

use crate::strategy::{Boxes, Strategy};
use bvh_core::Aabb;

/// Tests every pair of boxes: quadratic, simple, and the reference the other strategies are
/// checked against.
#[derive(Clone, Debug, Default)]
pub struct BruteForce;

impl Strategy for BruteForce {
    fn rebuild(&mut self, boxes: &Boxes, pairs: &mut Vec<(u32, u32)>) {
        let live: Vec<(u32, &Aabb)> =
            boxes.iter().enumerate().filter_map(|(i, b)| Some((i as u32, b.as_ref()?))).collect();
        for (k, (i, a)) in live.iter().enumerate() {
            for (j, b) in &live[k + 1..] {
                if a.intersects(b) {
                    pairs.push((*i, *j));
                }
            }
        }
    }

    fn insert(&mut self, _id: u32, _boxes: &Boxes) {}

    fn remove(&mut self, _id: u32, _aabb: &Aabb) {}

    fn for_each_overlap(&self, id: u32, aabb: &Aabb, boxes: &Boxes, found: &mut dyn FnMut(u32)) {
        for (j, b) in boxes.iter().enumerate() {
            if j as u32 != id && b.is_some_and(|b| b.intersects(aabb)) {
                found(j as u32);
            }
        }
    }
}
