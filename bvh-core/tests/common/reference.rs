//! A slow, exact reference for segment–triangle and triangle–triangle intersection, written
//! independently of the library's fast test and built directly on Shewchuk's predicates.
//!
//! Two closed triangles intersect iff an edge of one meets the other (if they meet, the boundary
//! of their intersection contains a point of some edge). A segment meets a non-degenerate
//! triangle either crossing its plane at one point, decided by three signed volumes, or inside
//! the plane. Coplanar sets are decided in 2-D: sets in one plane meet iff their projections on
//! all three coordinate planes meet (no projection separates meeting sets, and at least one is
//! one-to-one on the plane), so no projection axis has to be chosen.

use bvh_core::{Point, Triangle};

fn c3(p: &Point) -> robust::Coord3D<f64> {
    robust::Coord3D { x: p.x as f64, y: p.y as f64, z: p.z as f64 }
}

/// Sign of robust's orient3d (its own convention; only consistency matters here).
fn o3(a: &Point, b: &Point, c: &Point, d: &Point) -> i8 {
    sign(robust::orient3d(c3(a), c3(b), c3(c), c3(d)))
}

type P2 = [f64; 2];

fn o2(a: P2, b: P2, c: P2) -> i8 {
    sign(robust::orient2d(
        robust::Coord { x: a[0], y: a[1] },
        robust::Coord { x: b[0], y: b[1] },
        robust::Coord { x: c[0], y: c[1] },
    ))
}

fn sign(x: f64) -> i8 {
    if x > 0.0 {
        1
    } else if x < 0.0 {
        -1
    } else {
        0
    }
}

fn proj(p: &Point, drop: usize) -> P2 {
    let keep: Vec<f64> = (0..3).filter(|&i| i != drop).map(|i| p[i] as f64).collect();
    [keep[0], keep[1]]
}

fn on_segment_2d(p: P2, q: P2, r: P2) -> bool {
    o2(p, q, r) == 0 && (0..2).all(|i| p[i].min(q[i]) <= r[i] && r[i] <= p[i].max(q[i]))
}

fn seg_seg_2d(p: P2, q: P2, r: P2, s: P2) -> bool {
    let (d1, d2, d3, d4) = (o2(p, q, r), o2(p, q, s), o2(r, s, p), o2(r, s, q));
    if d1 * d2 < 0 && d3 * d4 < 0 {
        return true;
    }
    on_segment_2d(p, q, r) || on_segment_2d(p, q, s) || on_segment_2d(r, s, p) || on_segment_2d(r, s, q)
}

fn point_in_tri_2d(p: P2, a: P2, b: P2, c: P2) -> bool {
    if o2(a, b, c) == 0 {
        return on_segment_2d(a, b, p) || on_segment_2d(b, c, p) || on_segment_2d(c, a, p);
    }
    let s = [o2(a, b, p), o2(b, c, p), o2(c, a, p)];
    !(s.contains(&1) && s.contains(&-1))
}

fn seg_tri_2d(p: P2, q: P2, a: P2, b: P2, c: P2) -> bool {
    point_in_tri_2d(p, a, b, c) || seg_seg_2d(p, q, a, b) || seg_seg_2d(p, q, b, c) || seg_seg_2d(p, q, c, a)
}

/// Exact closed segment–segment in 3-D.
pub fn segments_meet(p: &Point, q: &Point, r: &Point, s: &Point) -> bool {
    o3(p, q, r, s) == 0 && (0..3).all(|d| seg_seg_2d(proj(p, d), proj(q, d), proj(r, d), proj(s, d)))
}

fn is_degenerate(a: &Point, b: &Point, c: &Point) -> bool {
    (0..3).all(|d| o2(proj(a, d), proj(b, d), proj(c, d)) == 0)
}

/// Exact closed segment–triangle in 3-D.
pub fn segment_meets_triangle(p: &Point, q: &Point, t: &Triangle) -> bool {
    let (a, b, c) = (&t.a, &t.b, &t.c);
    if is_degenerate(a, b, c) {
        return segments_meet(p, q, a, b) || segments_meet(p, q, b, c) || segments_meet(p, q, c, a);
    }
    let (sp, sq) = (o3(a, b, c, p), o3(a, b, c, q));
    if sp * sq > 0 {
        return false;
    }
    if sp == 0 && sq == 0 {
        return (0..3).all(|d| seg_tri_2d(proj(p, d), proj(q, d), proj(a, d), proj(b, d), proj(c, d)));
    }
    let s = [o3(p, q, a, b), o3(p, q, b, c), o3(p, q, c, a)];
    !(s.contains(&1) && s.contains(&-1))
}

/// Whether the segment crosses the (non-degenerate) triangle's plane at one point strictly
/// inside the triangle, its ends strictly on either side.
pub fn segment_passes_through_triangle(p: &Point, q: &Point, t: &Triangle) -> bool {
    let (a, b, c) = (&t.a, &t.b, &t.c);
    let s = [o3(p, q, a, b), o3(p, q, b, c), o3(p, q, c, a)];
    !is_degenerate(a, b, c)
        && o3(a, b, c, p) * o3(a, b, c, q) < 0
        && s[0] != 0
        && s.iter().all(|&x| x == s[0])
}

/// Exact closed triangle–triangle in 3-D.
pub fn triangles_meet(t1: &Triangle, t2: &Triangle) -> bool {
    let edges = |t: &Triangle| [(t.a, t.b), (t.b, t.c), (t.c, t.a)];
    edges(t1).iter().any(|(p, q)| segment_meets_triangle(p, q, t2))
        || edges(t2).iter().any(|(p, q)| segment_meets_triangle(p, q, t1))
}
