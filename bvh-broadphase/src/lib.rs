//! Broadphases (issue: bvh-broadphase) will live here: uniform grid and octree behind one interface, and the scene pipeline.
