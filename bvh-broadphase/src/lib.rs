//! Which objects of a scene may touch: a broadphase over the objects' root boxes (uniform grid,
//! octree over a grid, or brute force, behind one type parameter), and the scene pipeline from
//! the broadphase through the root-volume test to exact contacts.
//!
//! The strategies follow papers 003 (octree over a uniform grid, `F_max` split) and 004 (uniform
//! grid with cells as wide as the mean object extent; each pair reported from one cell only). The
//! broadphase keeps the overlapping pairs from step to step: moving `k` objects costs work for
//! those `k`, and when many change at once it rebuilds the index instead.

mod broadphase;
mod brute;
mod cells;
mod grid;
mod octree;
mod strategy;
mod world;

pub use broadphase::{AnyStrategy, Broadphase, BroadphaseError, ObjectId, Overlaps};
pub use brute::BruteForce;
pub use cells::CellSide;
pub use grid::UniformGrid;
pub use octree::Octree;
pub use strategy::{Boxes, Strategy};
pub use world::{
    Clearance, Collision, CollisionWorld, ContactDetail, ImpactPair, Mobility, Object, StepError, StepStats,
};
