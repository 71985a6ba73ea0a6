//! Generators of triangle pairs: generic, built to touch, near misses, degenerate and at extreme
//! scales. Touching configurations use integer lattices (scaled by powers of two) so that the
//! contact is exact in `f32`; rotations and tiny offsets of them make the near misses.

use bvh_core::{Point, Real, Rotation, Triangle, Vector};
use rand::Rng;

/// The kind of configuration a pair was built as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Generic,
    Clustered,
    SharedVertex,
    VertexOnEdge,
    VertexOnFace,
    Coplanar,
    CollinearEdges,
    NearMiss,
    Rotated,
    Degenerate,
    ScaledExact,
    ScaledRounded,
}

impl Kind {
    pub const ALL: [Kind; 12] = [
        Kind::Generic,
        Kind::Clustered,
        Kind::SharedVertex,
        Kind::VertexOnEdge,
        Kind::VertexOnFace,
        Kind::Coplanar,
        Kind::CollinearEdges,
        Kind::NearMiss,
        Kind::Rotated,
        Kind::Degenerate,
        Kind::ScaledExact,
        Kind::ScaledRounded,
    ];

    /// Built so that the triangles touch (or nearly, when their placement is random).
    pub const TOUCHING: [Kind; 5] =
        [Kind::SharedVertex, Kind::VertexOnEdge, Kind::VertexOnFace, Kind::Coplanar, Kind::CollinearEdges];
}

/// One pair of the given kind.
pub fn pair(kind: Kind, rng: &mut impl Rng) -> (Triangle, Triangle) {
    match kind {
        Kind::Generic => (random_triangle(rng, 1.0), random_triangle(rng, 1.0)),
        Kind::Clustered => {
            let t1 = random_triangle(rng, 1.0);
            let c = t1.centroid();
            let near = |rng: &mut _| c + random_vector(rng, 0.6);
            (t1, Triangle::new(near(rng), near(rng), near(rng)))
        }
        Kind::SharedVertex => {
            let t1 = lattice_triangle(rng, 1);
            let shared = t1.vertices()[rng.gen_range(0..3)];
            (t1, Triangle::new(shared, lattice_point(rng, 1), lattice_point(rng, 1)))
        }
        Kind::VertexOnEdge => {
            let t1 = lattice_triangle(rng, 2);
            let v = t1.vertices();
            let k = rng.gen_range(0..3);
            let on_edge = Point::from((v[k].coords + v[(k + 1) % 3].coords) * 0.5);
            (t1, Triangle::new(on_edge, lattice_point(rng, 2), lattice_point(rng, 2)))
        }
        Kind::VertexOnFace => {
            let t1 = lattice_triangle(rng, 4);
            let on_face = Point::from(((t1.a.coords + t1.b.coords) * 0.5 + t1.c.coords) * 0.5);
            (t1, Triangle::new(on_face, lattice_point(rng, 4), lattice_point(rng, 4)))
        }
        Kind::Coplanar => {
            let (o, u, v) = (lattice_point(rng, 1), small_vector(rng), small_vector(rng));
            let in_plane = |rng: &mut _| plane_point(rng, &o, &u, &v);
            let t1 = Triangle::new(in_plane(rng), in_plane(rng), in_plane(rng));
            (t1, Triangle::new(in_plane(rng), in_plane(rng), in_plane(rng)))
        }
        Kind::CollinearEdges => {
            let (o, d) = (lattice_point(rng, 1), small_vector(rng));
            let on_line = |rng: &mut R<'_>| o + d * rng.gen_range(-6..=6) as Real;
            let t1 = Triangle::new(on_line(rng), on_line(rng), lattice_point(rng, 1));
            (t1, Triangle::new(on_line(rng), on_line(rng), lattice_point(rng, 1)))
        }
        Kind::NearMiss => {
            let (t1, t2) = touching(rng);
            let offset = random_vector(rng, 1.0) * 10f32.powi(-rng.gen_range(3..=6));
            (t1, translate(&t2, &offset))
        }
        Kind::Rotated => {
            let (t1, t2) = touching(rng);
            let rot = random_rotation(rng);
            (rotate(&t1, &rot), rotate(&t2, &rot))
        }
        Kind::Degenerate => {
            let t1 = if rng.gen_bool(0.5) { degenerate_triangle(rng) } else { lattice_triangle(rng, 1) };
            (t1, degenerate_triangle(rng))
        }
        Kind::ScaledExact => {
            let (t1, t2) = touching(rng);
            let s = if rng.gen_bool(0.5) { (2.0 as Real).powi(-20) } else { (2.0 as Real).powi(20) };
            (scale(&t1, s), scale(&t2, s))
        }
        Kind::ScaledRounded => {
            let (t1, t2) = touching(rng);
            let s = if rng.gen_bool(0.5) { 1e-6 } else { 1e6 };
            (scale(&t1, s), scale(&t2, s))
        }
    }
}

type R<'a> = dyn rand::RngCore + 'a;

fn touching(rng: &mut impl Rng) -> (Triangle, Triangle) {
    let kind = Kind::TOUCHING[rng.gen_range(0..Kind::TOUCHING.len())];
    let (t1, t2) = pair(kind, rng);
    if rng.gen_bool(0.5) { (t1, t2) } else { (t2, t1) }
}

pub fn random_vector(rng: &mut impl Rng, half: Real) -> Vector {
    Vector::new(rng.gen_range(-half..=half), rng.gen_range(-half..=half), rng.gen_range(-half..=half))
}

pub fn random_triangle(rng: &mut impl Rng, half: Real) -> Triangle {
    let mut p = || Point::from(random_vector(rng, half));
    Triangle::new(p(), p(), p())
}

pub fn random_rotation(rng: &mut impl Rng) -> Rotation {
    let axis = nalgebra::Unit::try_new(random_vector(rng, 1.0), 1e-3).unwrap_or(Vector::z_axis());
    Rotation::from_axis_angle(&axis, rng.gen_range(0.0..std::f32::consts::TAU))
}

/// A lattice point with coordinates in `step * [-16, 16]`.
fn lattice_point(rng: &mut impl Rng, step: i32) -> Point {
    let mut c = || (rng.gen_range(-16..=16) * step) as Real;
    Point::new(c(), c(), c())
}

fn lattice_triangle(rng: &mut impl Rng, step: i32) -> Triangle {
    Triangle::new(lattice_point(rng, step), lattice_point(rng, step), lattice_point(rng, step))
}

fn small_vector(rng: &mut impl Rng) -> Vector {
    let mut c = || rng.gen_range(-3..=3) as Real;
    Vector::new(c(), c(), c())
}

fn plane_point(rng: &mut impl Rng, o: &Point, u: &Vector, v: &Vector) -> Point {
    o + u * rng.gen_range(-4..=4) as Real + v * rng.gen_range(-4..=4) as Real
}

/// Collinear or repeated vertices on a lattice line.
fn degenerate_triangle(rng: &mut impl Rng) -> Triangle {
    let (o, d) = (lattice_point(rng, 1), small_vector(rng));
    let mut on_line = || o + d * rng.gen_range(-4..=4) as Real;
    Triangle::new(on_line(), on_line(), on_line())
}

fn translate(t: &Triangle, v: &Vector) -> Triangle {
    Triangle::new(t.a + v, t.b + v, t.c + v)
}

fn rotate(t: &Triangle, r: &Rotation) -> Triangle {
    Triangle::new(r * t.a, r * t.b, r * t.c)
}

fn scale(t: &Triangle, s: Real) -> Triangle {
    Triangle::new(t.a * s, t.b * s, t.c * s)
}
