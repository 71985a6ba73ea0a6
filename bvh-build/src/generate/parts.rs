//! Parts: each a closed (or, for ribbons, open) triangle mesh in its own frame. Parameters
//! that are not finite numbers give an empty mesh.

use bvh_core::{Isometry, Point, Real, TriMesh, Vector};
use std::f32::consts::TAU;

/// Accumulates parts placed by poses into one mesh.
#[derive(Clone, Debug, Default)]
pub struct MeshBuilder {
    vertices: Vec<Point>,
    triangles: Vec<[u32; 3]>,
}

impl MeshBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `part` moved by `pose`.
    pub fn add(&mut self, part: &TriMesh, pose: &Isometry) -> &mut Self {
        let offset = self.vertices.len() as u32;
        self.vertices.extend(part.vertices().iter().map(|p| pose * p));
        self.triangles.extend(part.indices().iter().map(|t| t.map(|i| i + offset)));
        self
    }

    /// Number of triangles so far.
    pub fn triangle_count(&self) -> usize {
        self.triangles.len()
    }

    /// The mesh.
    pub fn finish(self) -> TriMesh {
        mesh(self.vertices, self.triangles)
    }
}

/// The mesh moved so that its bounding box is centred on the origin.
pub fn centred(mesh: &TriMesh) -> TriMesh {
    let c = mesh.aabb().center();
    let mut builder = MeshBuilder::new();
    builder.add(mesh, &Isometry::translation(-c.x, -c.y, -c.z));
    builder.finish()
}

/// Indices are in range by construction; only non-finite parameters can make coordinates
/// invalid, and those give an empty mesh (documented on the module).
fn mesh(vertices: Vec<Point>, triangles: Vec<[u32; 3]>) -> TriMesh {
    TriMesh::new(vertices, triangles).unwrap_or_default()
}

/// Ring `k` of `segments` points of radius `r` at height `z`.
fn ring(vertices: &mut Vec<Point>, r: Real, z: Real, segments: u32) -> u32 {
    let start = vertices.len() as u32;
    for s in 0..segments {
        let a = TAU * s as Real / segments as Real;
        vertices.push(Point::new(r * a.cos(), r * a.sin(), z));
    }
    start
}

/// Quads between two rings of equal size, as triangles facing `outward` (or inward).
fn band(triangles: &mut Vec<[u32; 3]>, lower: u32, upper: u32, segments: u32, outward: bool) {
    for s in 0..segments {
        let (a, b) = (lower + s, lower + (s + 1) % segments);
        let (c, d) = (upper + s, upper + (s + 1) % segments);
        if outward {
            triangles.extend([[a, b, d], [a, d, c]]);
        } else {
            triangles.extend([[a, d, b], [a, c, d]]);
        }
    }
}

/// A hollow tube along `+z` from 0 to `length`: outer and inner walls and two annular ends,
/// `8 × segments` triangles.
pub fn tube(outer: Real, inner: Real, length: Real, segments: u32) -> TriMesh {
    let segments = segments.max(3);
    let mut v = Vec::new();
    let mut t = Vec::new();
    let (o0, o1) = (ring(&mut v, outer, 0.0, segments), ring(&mut v, outer, length, segments));
    let (i0, i1) = (ring(&mut v, inner, 0.0, segments), ring(&mut v, inner, length, segments));
    band(&mut t, o0, o1, segments, true);
    band(&mut t, i0, i1, segments, false);
    band(&mut t, i1, o1, segments, true);
    band(&mut t, o0, i0, segments, true);
    mesh(v, t)
}

/// A flange: a short, wide tube.
pub fn flange(outer: Real, inner: Real, thickness: Real, segments: u32) -> TriMesh {
    tube(outer, inner, thickness, segments)
}

/// A closed cylinder along `+z` from 0 to `length`, its wall cut into `bands` rings, capped by
/// fans: `2 × segments × (bands + 1)` triangles.
pub fn capped_cylinder(radius: Real, length: Real, segments: u32, bands: u32) -> TriMesh {
    let (segments, bands) = (segments.max(3), bands.max(1));
    let mut v = vec![Point::new(0.0, 0.0, 0.0), Point::new(0.0, 0.0, length)];
    let mut t = Vec::new();
    let rings: Vec<u32> =
        (0..=bands).map(|k| ring(&mut v, radius, length * k as Real / bands as Real, segments)).collect();
    for k in 0..bands as usize {
        band(&mut t, rings[k], rings[k + 1], segments, true);
    }
    let top = rings[bands as usize];
    for s in 0..segments {
        let n = (s + 1) % segments;
        t.push([0, rings[0] + n, rings[0] + s]);
        t.push([1, top + s, top + n]);
    }
    mesh(v, t)
}

/// A torus around `z`: `2 × rings × segments` triangles.
pub fn torus(major: Real, minor: Real, rings: u32, segments: u32) -> TriMesh {
    let (rings, segments) = (rings.max(3), segments.max(3));
    let mut v = Vec::new();
    for i in 0..rings {
        let u = TAU * i as Real / rings as Real;
        for j in 0..segments {
            let w = TAU * j as Real / segments as Real;
            let r = major + minor * w.cos();
            v.push(Point::new(r * u.cos(), r * u.sin(), minor * w.sin()));
        }
    }
    let at = |i: u32, j: u32| (i % rings) * segments + j % segments;
    let mut t = Vec::new();
    for i in 0..rings {
        for j in 0..segments {
            t.push([at(i, j), at(i + 1, j), at(i + 1, j + 1)]);
            t.push([at(i, j), at(i + 1, j + 1), at(i, j + 1)]);
        }
    }
    mesh(v, t)
}

/// An L bracket with a gusset: three boxes, 36 triangles. `size` is the leg length,
/// `thickness` the plate thickness, `width` the extent along `y`.
pub fn bracket(size: Real, thickness: Real, width: Real) -> TriMesh {
    let mut b = MeshBuilder::new();
    let half = |x: Real, z: Real| Vector::new(x / 2.0, width / 2.0, z / 2.0);
    b.add(
        &TriMesh::cuboid(Point::new(size / 2.0, 0.0, thickness / 2.0), half(size, thickness)),
        &Isometry::identity(),
    );
    b.add(
        &TriMesh::cuboid(Point::new(thickness / 2.0, 0.0, size / 2.0), half(thickness, size)),
        &Isometry::identity(),
    );
    let gusset = TriMesh::cuboid(Point::origin(), Vector::new(size * 0.35, thickness / 2.0, thickness / 2.0));
    let pose = Isometry::new(
        Vector::new(size * 0.3, 0.0, size * 0.3),
        Vector::new(0.0, -std::f32::consts::FRAC_PI_4, 0.0),
    );
    b.add(&gusset, &pose);
    b.finish()
}

/// A plate of `nx × ny` square cells of side `cell` and the given thickness, with the cells
/// for which `hole(i, j)` is true cut out; closed, with walls around every hole.
pub fn panel_with_holes(
    nx: u32,
    ny: u32,
    cell: Real,
    thickness: Real,
    hole: impl Fn(u32, u32) -> bool,
) -> TriMesh {
    let solid =
        |i: i64, j: i64| i >= 0 && j >= 0 && i < nx as i64 && j < ny as i64 && !hole(i as u32, j as u32);
    let mut v = Vec::new();
    let mut t = Vec::new();
    let mut quad = |corners: [Point; 4]| {
        let s = v.len() as u32;
        v.extend(corners);
        t.extend([[s, s + 1, s + 2], [s, s + 2, s + 3]]);
    };
    let p = |i: i64, j: i64, z: Real| Point::new(i as Real * cell, j as Real * cell, z);
    for i in 0..nx as i64 {
        for j in 0..ny as i64 {
            if !solid(i, j) {
                continue;
            }
            quad([
                p(i, j, thickness),
                p(i + 1, j, thickness),
                p(i + 1, j + 1, thickness),
                p(i, j + 1, thickness),
            ]);
            quad([p(i, j, 0.0), p(i, j + 1, 0.0), p(i + 1, j + 1, 0.0), p(i + 1, j, 0.0)]);
            if !solid(i - 1, j) {
                quad([p(i, j, 0.0), p(i, j, thickness), p(i, j + 1, thickness), p(i, j + 1, 0.0)]);
            }
            if !solid(i + 1, j) {
                quad([
                    p(i + 1, j, 0.0),
                    p(i + 1, j + 1, 0.0),
                    p(i + 1, j + 1, thickness),
                    p(i + 1, j, thickness),
                ]);
            }
            if !solid(i, j - 1) {
                quad([p(i, j, 0.0), p(i + 1, j, 0.0), p(i + 1, j, thickness), p(i, j, thickness)]);
            }
            if !solid(i, j + 1) {
                quad([
                    p(i, j + 1, 0.0),
                    p(i, j + 1, thickness),
                    p(i + 1, j + 1, thickness),
                    p(i + 1, j + 1, 0.0),
                ]);
            }
        }
    }
    mesh(v, t)
}

/// A flat strap of exactly `triangles` triangles along `+x` (a zig-zag strip), used to bring a
/// generated scene to an exact triangle count.
pub fn ribbon(triangles: u32, length: Real, width: Real) -> TriMesh {
    let columns = triangles.div_ceil(2) + 1;
    let step = length / columns.max(2) as Real;
    let mut v = Vec::new();
    for k in 0..columns {
        v.push(Point::new(k as Real * step, 0.0, 0.0));
        v.push(Point::new(k as Real * step, width, 0.0));
    }
    let t = (0..triangles)
        .map(|k| {
            let (c, up) = (k / 2, k % 2 == 1);
            let (a, b, c2, d) = (2 * c, 2 * c + 1, 2 * c + 2, 2 * c + 3);
            if up { [b, c2, d] } else { [a, c2, b] }
        })
        .collect();
    mesh(v, t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triangle_counts_are_as_documented() {
        assert_eq!(tube(2.0, 1.5, 3.0, 16).triangle_count(), 8 * 16);
        assert_eq!(capped_cylinder(1.0, 4.0, 24, 5).triangle_count(), 2 * 24 * 6);
        assert_eq!(torus(3.0, 0.5, 12, 8).triangle_count(), 2 * 12 * 8);
        assert_eq!(bracket(1.0, 0.1, 0.5).triangle_count(), 36);
        for n in [0, 1, 2, 7, 100] {
            assert_eq!(ribbon(n, 10.0, 1.0).triangle_count(), n as usize);
        }
        // A 3×3 panel with its centre cut out: 8 cells × 4 faces' worth of quads on top and
        // bottom, 12 outer and 4 inner wall quads.
        let p = panel_with_holes(3, 3, 1.0, 0.1, |i, j| i == 1 && j == 1);
        assert_eq!(p.triangle_count(), 2 * (8 * 2 + 12 + 4));
    }
}
