//! Queries between two posed hierarchies (issue: bvh-query) will live here: pre-judged traversal, lazy update, key-node caching, region culling.
