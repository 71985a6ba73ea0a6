//! What a file yields: named parts, each a mesh in the file's frame.

use bvh_core::{MeshError, Point, TriMesh};

/// The parts of one file (and the files it references).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scene {
    /// The parts, in file order.
    pub parts: Vec<Part>,
    /// Subtracted from every coordinate before it was narrowed to `f32` (zero unless the file's
    /// coordinates are far from the origin): add it back to get the file's own coordinates.
    pub origin: [f64; 3],
    /// What the reader passed over, and how often (unknown records, wireframe faces, …).
    pub skipped: Vec<Skipped>,
}

/// A named piece of geometry: an OBJ object or group, an OpenFlight object, an STL file.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    /// The part's own name.
    pub name: String,
    /// Names from the top of the file's hierarchy down to the part, joined by `/`.
    pub path: String,
    /// The triangles, in the file's frame (transforms applied, minus [`Scene::origin`]).
    pub mesh: TriMesh,
    /// The part's bounding box in the file's own frame, in `f64` as read: before
    /// [`Scene::origin`] is subtracted and coordinates are narrowed to `f32`.
    pub bounds: Bounds,
}

/// An axis-aligned box in `f64`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    /// The smallest coordinate on each axis.
    pub min: [f64; 3],
    /// The largest coordinate on each axis.
    pub max: [f64; 3],
}

impl Bounds {
    /// The box around `points`; inverted (min above max) when there are none.
    pub fn of(points: impl IntoIterator<Item = [f64; 3]>) -> Self {
        let mut bounds = Self { min: [f64::INFINITY; 3], max: [f64::NEG_INFINITY; 3] };
        for p in points {
            bounds.min = std::array::from_fn(|d| bounds.min[d].min(p[d]));
            bounds.max = std::array::from_fn(|d| bounds.max[d].max(p[d]));
        }
        bounds
    }
}

impl Part {
    /// A part whose mesh is in the file's own frame (no origin subtracted): its bounds are the
    /// mesh's.
    pub(crate) fn new(name: String, path: String, mesh: TriMesh) -> Self {
        let bounds = Bounds::of(mesh.vertices().iter().map(|p| [p.x, p.y, p.z].map(f64::from)));
        Self { name, path, mesh, bounds }
    }
}

/// Something the reader passed over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// What it was.
    pub what: String,
    /// How many times.
    pub count: usize,
}

impl Scene {
    /// All parts as one mesh (part after part); an error only when together they have more
    /// vertices than 32-bit indices can address.
    pub fn merged(&self) -> Result<TriMesh, MeshError> {
        let count: usize = self.parts.iter().map(|p| p.mesh.vertices().len()).sum();
        if u32::try_from(count).is_err() {
            return Err(MeshError::TooManyVertices { count });
        }
        let mut vertices: Vec<Point> = Vec::with_capacity(count);
        let mut triangles = Vec::new();
        for part in &self.parts {
            let offset = vertices.len() as u32;
            vertices.extend_from_slice(part.mesh.vertices());
            triangles.extend(part.mesh.indices().iter().map(|t| t.map(|i| i + offset)));
        }
        TriMesh::new(vertices, triangles)
    }

    /// Total number of triangles.
    pub fn triangle_count(&self) -> usize {
        self.parts.iter().map(|p| p.mesh.triangle_count()).sum()
    }

    /// Counts one more of `what` as skipped.
    pub(crate) fn skip(&mut self, what: impl Into<String>) {
        let what = what.into();
        match self.skipped.iter_mut().find(|s| s.what == what) {
            Some(s) => s.count += 1,
            None => self.skipped.push(Skipped { what, count: 1 }),
        }
    }
}
