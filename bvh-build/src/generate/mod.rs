//! Mesh generators for tests and benchmarks, all in one place: machine-like parts (tubes,
//! flanges, tori, brackets, panels with holes; spheres and boxes come from `TriMesh` itself)
//! the two maintenance scenes of paper 000 and paper 004's room of moving objects, deterministic
//! from a seed.

mod paper002;
mod parts;
mod random;
mod room;
mod scenes;

pub use paper002::{PAPER002_MODEL_TRIANGLES, bumpy_model, teapot};
pub use parts::{
    MeshBuilder, bracket, capped_cylinder, centred, flange, panel_with_holes, ribbon, torus, tube,
};
pub use room::{ROOM, RoomObject, object_room};
pub use scenes::{MaintenanceScene, accumulator_bay, ptu_bay};
