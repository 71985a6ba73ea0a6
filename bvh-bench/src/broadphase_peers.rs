//! Broadphases side by side on the same moving boxes: ours (any strategy) and parry3d's `Bvh`
//! used as a broadphase the two ways its documentation gives (update the moved leaves, then a
//! full or a partial refit, then its pair traversal), as the anchors' harness does.

use crate::parry_bridge::vector;
use bvh_broadphase::{Broadphase, Strategy};
use bvh_core::Aabb;
use parry3d::bounding_volume::Aabb as ParryAabb;
use parry3d::partitioning::{Bvh, BvhBuildStrategy, BvhWorkspace};

/// A broadphase over boxes `0..n`, stepped with the boxes that moved.
pub trait BoxBroadphase {
    /// Indexes the boxes and finds the pairs once (the first query).
    fn build(&mut self, boxes: &[Aabb], pairs: &mut Vec<(u32, u32)>);
    /// Moves the given boxes and writes every overlapping pair into `pairs` (cleared first),
    /// each once, in the back-end's own order.
    fn step(&mut self, moved: &[(u32, Aabb)], pairs: &mut Vec<(u32, u32)>);
}

impl<S: Strategy> BoxBroadphase for Broadphase<S> {
    fn build(&mut self, boxes: &[Aabb], pairs: &mut Vec<(u32, u32)>) {
        for b in boxes {
            self.insert(*b).expect("generated boxes are valid");
        }
        collect(self, pairs);
    }

    fn step(&mut self, moved: &[(u32, Aabb)], pairs: &mut Vec<(u32, u32)>) {
        for &(i, b) in moved {
            self.set_box(bvh_broadphase::ObjectId::from_index(i as usize), b)
                .expect("generated boxes are valid");
        }
        collect(self, pairs);
    }
}

fn collect<S: Strategy>(broadphase: &mut Broadphase<S>, pairs: &mut Vec<(u32, u32)>) {
    pairs.clear();
    pairs.extend(broadphase.update().pairs().map(|(a, b)| (a.index() as u32, b.index() as u32)));
}

/// How parry's tree is brought up to date after the moved leaves are updated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParryRefit {
    /// `refit` over the whole tree (parry's fastest in the anchors at every size).
    Full,
    /// `refit_partial` over the moved leaves' paths (best when few move).
    Partial,
}

/// parry3d's `Bvh` as a broadphase.
pub struct ParryBroadphase {
    refit: ParryRefit,
    bvh: Bvh,
    workspace: BvhWorkspace,
    previous: Vec<u32>,
    current: Vec<u32>,
}

impl ParryBroadphase {
    /// An empty one.
    pub fn new(refit: ParryRefit) -> Self {
        Self {
            refit,
            bvh: Bvh::new(),
            workspace: BvhWorkspace::default(),
            previous: Vec::new(),
            current: Vec::new(),
        }
    }

    fn pairs(&mut self, pairs: &mut Vec<(u32, u32)>) {
        pairs.clear();
        self.bvh.traverse_bvtt_single_tree::<false>(&mut self.workspace, &mut |a, b| pairs.push((a, b)));
    }
}

fn parry_aabb(b: &Aabb) -> ParryAabb {
    ParryAabb::new(vector(&b.mins.coords), vector(&b.maxs.coords))
}

impl BoxBroadphase for ParryBroadphase {
    fn build(&mut self, boxes: &[Aabb], pairs: &mut Vec<(u32, u32)>) {
        let leaves: Vec<ParryAabb> = boxes.iter().map(parry_aabb).collect();
        self.bvh = Bvh::from_leaves(BvhBuildStrategy::Binned, &leaves);
        self.pairs(pairs);
    }

    fn step(&mut self, moved: &[(u32, Aabb)], pairs: &mut Vec<(u32, u32)>) {
        for &(i, b) in moved {
            self.bvh.insert_or_update_partially(parry_aabb(&b), i, 0.0);
        }
        match self.refit {
            ParryRefit::Full => self.bvh.refit(&mut self.workspace),
            ParryRefit::Partial => {
                self.current.clear();
                self.current.extend(moved.iter().map(|&(i, _)| i));
                self.bvh.refit_partial(&self.previous, &self.current);
                std::mem::swap(&mut self.previous, &mut self.current);
            }
        }
        self.pairs(pairs);
    }
}
