//! Triangulating OpenFlight polygons, which may have more than three vertices and need not be
//! convex: ear clipping in the polygon's plane, falling back to a fan if clipping gets stuck
//! (self-intersecting outlines), so no vertex is ever dropped.

/// Triangles (as index triples into `points`) covering the polygon.
pub(super) fn triangulate(points: &[[f64; 3]]) -> Vec<[usize; 3]> {
    let n = points.len();
    if n < 3 {
        return Vec::new();
    }
    if n == 3 {
        return vec![[0, 1, 2]];
    }
    // Newell's normal: robust for non-planar and concave outlines.
    let mut normal = [0.0f64; 3];
    for i in 0..n {
        let (p, q) = (points[i], points[(i + 1) % n]);
        normal[0] += (p[1] - q[1]) * (p[2] + q[2]);
        normal[1] += (p[2] - q[2]) * (p[0] + q[0]);
        normal[2] += (p[0] - q[0]) * (p[1] + q[1]);
    }
    let drop = (0..3).max_by(|&a, &b| normal[a].abs().total_cmp(&normal[b].abs())).unwrap_or(2);
    let flip = normal[drop] < 0.0;
    let flat: Vec<[f64; 2]> = points
        .iter()
        .map(|p| {
            let (u, v) = (p[(drop + 1) % 3], p[(drop + 2) % 3]);
            if flip { [v, u] } else { [u, v] }
        })
        .collect();
    ear_clip(&flat).unwrap_or_else(|| (1..n - 1).map(|k| [0, k, k + 1]).collect())
}

fn cross(o: [f64; 2], a: [f64; 2], b: [f64; 2]) -> f64 {
    (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
}

/// Ear clipping of a counter-clockwise polygon; `None` when no ear can be found.
fn ear_clip(p: &[[f64; 2]]) -> Option<Vec<[usize; 3]>> {
    let mut remaining: Vec<usize> = (0..p.len()).collect();
    let mut out = Vec::with_capacity(p.len() - 2);
    while remaining.len() > 3 {
        let m = remaining.len();
        let ear = (0..m).find(|&i| {
            let (a, b, c) = (remaining[(i + m - 1) % m], remaining[i], remaining[(i + 1) % m]);
            cross(p[a], p[b], p[c]) > 0.0
                && remaining.iter().all(|&k| {
                    k == a || k == b || k == c || {
                        let q = p[k];
                        !(cross(p[a], p[b], q) >= 0.0
                            && cross(p[b], p[c], q) >= 0.0
                            && cross(p[c], p[a], q) >= 0.0)
                    }
                })
        })?;
        out.push([remaining[(ear + m - 1) % m], remaining[ear], remaining[(ear + 1) % m]]);
        remaining.remove(ear);
    }
    out.push([remaining[0], remaining[1], remaining[2]]);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn concave_polygon_keeps_every_vertex_and_its_area() {
        // An L shape of area 3.
        let l = [
            [0.0, 0.0, 0.0],
            [2.0, 0.0, 0.0],
            [2.0, 1.0, 0.0],
            [1.0, 1.0, 0.0],
            [1.0, 2.0, 0.0],
            [0.0, 2.0, 0.0],
        ];
        let tris = triangulate(&l);
        assert_eq!(tris.len(), 4);
        let area: f64 = tris
            .iter()
            .map(|t| {
                cross([l[t[0]][0], l[t[0]][1]], [l[t[1]][0], l[t[1]][1]], [l[t[2]][0], l[t[2]][1]]).abs()
                    / 2.0
            })
            .sum();
        assert!((area - 3.0).abs() < 1e-12);
        // Clockwise input and a vertical plane work too.
        let quad = [[0.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 1.0], [0.0, 1.0, 0.0]];
        assert_eq!(triangulate(&quad).len(), 2);
        assert!(triangulate(&quad[..2]).is_empty());
    }
}
