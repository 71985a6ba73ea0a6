//! Mesh and scene readers (issue: bvh-io) will live here: OBJ, STL and OpenFlight.
