//! Indexed triangle meshes, validated once when built.

use crate::aabb::Aabb;
use crate::math::{Point, Real, Vector};
use crate::triangle::Triangle;

/// What is wrong with mesh data handed to [`TriMesh::new`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MeshError {
    /// A vertex coordinate is NaN or infinite.
    #[error("vertex {vertex} has a non-finite coordinate")]
    NonFiniteVertex {
        /// Index of the offending vertex.
        vertex: usize,
    },
    /// A triangle names a vertex that does not exist.
    #[error("triangle {triangle} refers to vertex {index}, but the mesh has {vertex_count} vertices")]
    IndexOutOfRange {
        /// Index of the offending triangle.
        triangle: usize,
        /// The out-of-range vertex index.
        index: u32,
        /// Number of vertices.
        vertex_count: usize,
    },
    /// More vertices than 32-bit indices can name.
    #[error("{count} vertices exceed the 2^32 that 32-bit indices can address")]
    TooManyVertices {
        /// Number of vertices given.
        count: usize,
    },
    /// Moved vertices reach past the mesh's last vertex.
    #[error("vertices {first}..{first}+{count} do not all exist: the mesh has {vertex_count}")]
    VertexRangeOutOfBounds {
        /// The first vertex given.
        first: usize,
        /// How many were given.
        count: usize,
        /// Number of vertices.
        vertex_count: usize,
    },
    /// More triangles than 32-bit indices (used by hierarchies and query results) can name.
    #[error("{count} triangles exceed the 2^32 that 32-bit indices can address")]
    TooManyTriangles {
        /// Number of triangles given.
        count: usize,
    },
}

/// A triangle mesh: vertex positions and triangles as triples of vertex indices.
///
/// Construction checks every index and coordinate, so the rest of the library can index without
/// checks and never meets a NaN. Zero-area and duplicate triangles are kept: they are geometry
/// the user gave, and every predicate treats a zero-area triangle as the segment or point it
/// spans. An empty mesh is valid and collides with nothing.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TriMesh {
    vertices: Vec<Point>,
    triangles: Vec<[u32; 3]>,
}

impl TriMesh {
    /// Validates and takes ownership of the data.
    pub fn new(vertices: Vec<Point>, triangles: Vec<[u32; 3]>) -> Result<Self, MeshError> {
        if u32::try_from(vertices.len()).is_err() {
            return Err(MeshError::TooManyVertices { count: vertices.len() });
        }
        if u32::try_from(triangles.len()).is_err() {
            return Err(MeshError::TooManyTriangles { count: triangles.len() });
        }
        if let Some(vertex) = vertices.iter().position(|p| !p.iter().all(|c| c.is_finite())) {
            return Err(MeshError::NonFiniteVertex { vertex });
        }
        let vertex_count = vertices.len();
        for (triangle, tri) in triangles.iter().enumerate() {
            if let Some(&index) = tri.iter().find(|&&i| i as usize >= vertex_count) {
                return Err(MeshError::IndexOutOfRange { triangle, index, vertex_count });
            }
        }
        Ok(Self { vertices, triangles })
    }

    /// Moves vertices `first..first + positions.len()` to `positions`, checked as
    /// [`TriMesh::new`] checks them; on an error nothing moves.
    pub fn move_vertices(&mut self, first: usize, positions: &[Point]) -> Result<(), MeshError> {
        let vertex_count = self.vertices.len();
        let range = first
            .checked_add(positions.len())
            .filter(|&end| end <= vertex_count)
            .map(|end| first..end)
            .ok_or(MeshError::VertexRangeOutOfBounds { first, count: positions.len(), vertex_count })?;
        if let Some(k) = positions.iter().position(|p| !p.iter().all(|c| c.is_finite())) {
            return Err(MeshError::NonFiniteVertex { vertex: first + k });
        }
        self.vertices[range].copy_from_slice(positions);
        Ok(())
    }

    /// Vertex positions.
    pub fn vertices(&self) -> &[Point] {
        &self.vertices
    }

    /// Triangles as vertex index triples.
    pub fn indices(&self) -> &[[u32; 3]] {
        &self.triangles
    }

    /// Number of triangles.
    pub fn triangle_count(&self) -> usize {
        self.triangles.len()
    }

    /// `true` for a mesh without triangles.
    pub fn is_empty(&self) -> bool {
        self.triangles.is_empty()
    }

    /// Triangle `i` (panics if `i >= triangle_count()`, like slice indexing).
    #[inline]
    pub fn triangle(&self, i: usize) -> Triangle {
        let [a, b, c] = self.triangles[i];
        Triangle::new(self.vertices[a as usize], self.vertices[b as usize], self.vertices[c as usize])
    }

    /// All triangles in order.
    pub fn triangles(&self) -> impl ExactSizeIterator<Item = Triangle> + '_ {
        (0..self.triangles.len()).map(|i| self.triangle(i))
    }

    /// The mesh with triangle `i` of the result being triangle `order[i]` of this one (panics
    /// if an entry is out of range, like slice indexing); the vertices are kept, not copied.
    pub fn reordered(self, order: &[u32]) -> Self {
        let triangles = order.iter().map(|&t| self.triangles[t as usize]).collect();
        Self { vertices: self.vertices, triangles }
    }

    /// Bounding box of the vertices that triangles use ([`Aabb::EMPTY`] for an empty mesh).
    pub fn aabb(&self) -> Aabb {
        self.triangles().fold(Aabb::EMPTY, |acc, t| acc.merged(&t.aabb()))
    }

    /// A UV sphere of `rings ≥ 2` latitude bands and `segments ≥ 3` longitude slices (smaller
    /// values are raised to these): a closed, consistently outward-oriented test mesh.
    pub fn uv_sphere(center: Point, radius: Real, rings: u32, segments: u32) -> Self {
        let (rings, segments) = (rings.max(2), segments.max(3));
        let mut vertices = vec![center + Vector::new(0.0, 0.0, radius)];
        for r in 1..rings {
            let theta = std::f32::consts::PI * r as Real / rings as Real;
            for s in 0..segments {
                let phi = std::f32::consts::TAU * s as Real / segments as Real;
                let dir = Vector::new(theta.sin() * phi.cos(), theta.sin() * phi.sin(), theta.cos());
                vertices.push(center + dir * radius);
            }
        }
        vertices.push(center - Vector::new(0.0, 0.0, radius));
        let south = vertices.len() as u32 - 1;
        let ring = |r: u32, s: u32| 1 + (r - 1) * segments + s % segments;
        let mut triangles = Vec::new();
        for s in 0..segments {
            triangles.push([0, ring(1, s), ring(1, s + 1)]);
            triangles.push([south, ring(rings - 1, s + 1), ring(rings - 1, s)]);
        }
        for r in 1..rings - 1 {
            for s in 0..segments {
                let (a, b, c, d) = (ring(r, s), ring(r, s + 1), ring(r + 1, s), ring(r + 1, s + 1));
                triangles.push([a, c, d]);
                triangles.push([a, d, b]);
            }
        }
        Self { vertices, triangles }
    }

    /// An axis-aligned box of the given half extents around `center`, 12 outward triangles.
    pub fn cuboid(center: Point, half: Vector) -> Self {
        let vertices = Aabb::from_half_extents(center, half).corners().to_vec();
        // Corner k has bit 0 = +x, bit 1 = +y, bit 2 = +z.
        let triangles = vec![
            [0, 2, 1],
            [1, 2, 3], // -z
            [4, 5, 6],
            [5, 7, 6], // +z
            [0, 1, 4],
            [1, 5, 4], // -y
            [2, 6, 3],
            [3, 6, 7], // +y
            [0, 4, 2],
            [2, 4, 6], // -x
            [1, 3, 5],
            [3, 7, 5], // +x
        ];
        Self { vertices, triangles }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation_errors_are_typed() {
        let v = vec![Point::origin(), Point::new(1.0, 0.0, 0.0), Point::new(0.0, 1.0, 0.0)];
        assert!(TriMesh::new(v.clone(), vec![[0, 1, 2]]).is_ok());
        assert_eq!(
            TriMesh::new(v.clone(), vec![[0, 1, 2], [0, 3, 1]]),
            Err(MeshError::IndexOutOfRange { triangle: 1, index: 3, vertex_count: 3 })
        );
        let mut bad = v.clone();
        bad[2].y = Real::NAN;
        assert_eq!(TriMesh::new(bad, vec![]), Err(MeshError::NonFiniteVertex { vertex: 2 }));
        let mut inf = v;
        inf[0].z = Real::INFINITY;
        assert_eq!(TriMesh::new(inf, vec![]), Err(MeshError::NonFiniteVertex { vertex: 0 }));
        let empty = TriMesh::new(vec![], vec![]).unwrap();
        assert!(empty.is_empty() && empty.aabb().is_empty());
    }

    #[test]
    fn degenerate_and_duplicate_triangles_are_kept() {
        let v = vec![Point::origin(), Point::new(1.0, 0.0, 0.0), Point::new(2.0, 0.0, 0.0)];
        let mesh = TriMesh::new(v, vec![[0, 1, 2], [0, 1, 2], [1, 1, 1]]).unwrap();
        assert_eq!(mesh.triangle_count(), 3);
        assert!(mesh.triangles().all(|t| t.is_degenerate()));
    }

    #[test]
    fn generated_meshes_are_closed_and_outward() {
        for mesh in [
            TriMesh::uv_sphere(Point::new(1.0, 2.0, 3.0), 2.0, 8, 12),
            TriMesh::cuboid(Point::origin(), Vector::new(1.0, 2.0, 3.0)),
        ] {
            // Closed: every directed edge has its reverse exactly once.
            let mut edges = std::collections::HashMap::new();
            for t in mesh.indices() {
                for k in 0..3 {
                    *edges.entry((t[k], t[(k + 1) % 3])).or_insert(0) += 1;
                }
            }
            assert!(edges.iter().all(|(&(a, b), &n)| n == 1 && edges.get(&(b, a)) == Some(&1)));
            // Outward: the signed volume is positive.
            let volume: Real =
                mesh.triangles().map(|t| t.a.coords.dot(&(t.b.coords.cross(&t.c.coords))) / 6.0).sum();
            assert!(volume > 0.0, "volume {volume}");
        }
        assert_eq!(TriMesh::uv_sphere(Point::origin(), 1.0, 8, 12).triangle_count(), 2 * 12 + 2 * 12 * 6);
    }
}
