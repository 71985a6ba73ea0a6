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
    /// The pair's order as one number: A's triangle, then B's (sorting by it is sorting by
    /// the pair, with one comparison instead of two).
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Sorting by the key is sorting by the pair: A's triangle first, then B's.
    #[test]
    fn the_key_orders_pairs_as_they_compare() {
        let values = [0, 1, 7, u32::MAX - 1, u32::MAX];
        let pairs: Vec<TrianglePair> =
            values.iter().flat_map(|&a| values.iter().map(move |&b| TrianglePair { a, b })).collect();
        for p in &pairs {
            for q in &pairs {
                assert_eq!(p.key().cmp(&q.key()), p.cmp(q), "{p:?} against {q:?}");
            }
        }
    }
}
