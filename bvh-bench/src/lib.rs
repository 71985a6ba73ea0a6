//! Benchmark and comparison support shared by the command-line program, the criterion
//! benchmarks and the comparison tests.

pub mod parry_bridge;
