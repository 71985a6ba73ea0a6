//! Hierarchy construction (issue: bvh-build) will live here: hull-sampled OBB fitting, penalty-function splits and the paper presets.
