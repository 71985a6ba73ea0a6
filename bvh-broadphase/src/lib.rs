//! Which objects of a scene may touch: a broadphase over the objects' root boxes (hierarchical
//! grid, uniform grid, octree over a grid, or brute force, behind one type parameter), and the
//! scene pipeline from the broadphase through the root-volume test to exact contacts.
//!
//! The default, the hierarchical grid, keeps each box in one cell of the level sized for it and
//! rebuilds by a counting sort, so it is fast whether few or all objects move. The papers'
//! strategies follow papers 003 (octree over a uniform grid, `F_max` split) and 004 (uniform grid
//! with cells as wide as the mean object extent; each pair reported from one cell only). The
//! broadphase indexes fat boxes (each grown by a margin) and keeps the overlapping pairs from step
//! to step: moving `k` objects inside their fat boxes costs a re-test of those `k` objects'
//! candidate pairs, moving most re-tests every candidate, and when many leave their fat boxes at
//! once it rebuilds the index.

mod broadphase;
mod brute;
mod candidate_lists;
mod cells;
mod grid;
mod hierarchical_grid;
mod octree;
mod pair_set;
mod strategy;
mod world;

pub use broadphase::{AnyStrategy, Broadphase, BroadphaseError, ObjectId, Overlaps};
pub use brute::BruteForce;
pub use cells::CellSide;
pub use grid::UniformGrid;
pub use hierarchical_grid::HierarchicalGrid;
pub use octree::Octree;
pub use strategy::{Boxes, Strategy};
pub use world::{
    Clearance, Collision, CollisionWorld, ContactDetail, ImpactPair, Mobility, Object, StepError, StepStats,
};
