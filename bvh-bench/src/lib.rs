//! Benchmark and comparison support shared by the command-line program, the criterion
//! benchmarks and the comparison tests.

pub mod boxes;
pub mod broadphase_peers;
pub mod export;
pub mod parry_bridge;
pub mod peer_pairs;
pub mod pose_file;
pub mod pose_sets;
pub mod report;
pub mod stats;
pub mod timing;

/// The user guide (`docs/guide.md`), included here so that its examples run as tests.
#[doc = include_str!("../../docs/guide.md")]
pub mod guide {}
