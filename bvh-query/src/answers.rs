//! What the queries answer: triangle pairs by the user's indices, with where they meet or how
//! far apart they are, in world coordinates.

use bvh_core::{Point, Real, TriangleIntersection};

/// A triangle of A and a triangle of B, by the indices the user built the meshes with.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TrianglePair {
    /// Triangle of A.
    pub a: u32,
    /// Triangle of B.
    pub b: u32,
}

impl TrianglePair {
    /// The pair as one number that orders pairs as they compare: by A's triangle, then B's.
    pub(crate) fn key(&self) -> u64 {
        u64::from(self.a) << 32 | u64::from(self.b)
    }
}

/// An intersecting triangle pair and where the triangles meet, in world coordinates.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// The triangles.
    pub pair: TrianglePair,
    /// Their intersection (a segment, or a polygon for coplanar triangles).
    pub intersection: TriangleIntersection,
}

/// A triangle pair at most the clearance apart, with its distance and closest points in world
/// coordinates.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NearPair {
    /// The triangles.
    pub pair: TrianglePair,
    /// Their distance (zero when they intersect).
    pub distance: Real,
    /// The closest point on A's triangle.
    pub on_a: Point,
    /// The closest point on B's triangle.
    pub on_b: Point,
}
