//! Contact regions with answers known exactly: two boxes in face contact (one region, the
//! face's normal, the overlap as depth, the overlap rectangle's corners as points), boxes
//! touching face to face (the shared area), tessellated spheres (the centre line and
//! r1 + r2 − d within the tessellation's error), a ball sunk deep into a slab (the depth down to
//! its lowest vertex), a two-pronged part straddling a bar and a peg pressed between two walls
//! (two regions each) – for every preset, turned and far from the origin, and with every face
//! split into 4 and 16; the parallel traversal gives the same regions every time.

mod common;

use bvh_build::Bvh;
use bvh_build::{Hierarchy, NodeVolume, Preset};
use bvh_core::{Isometry, Point, Real, TriMesh, Vector};
use bvh_query::{
    ContactRegion, NodeTest, Posed, Query, QueryOptions, Surfaces, TreePairVisitor, visit_tree_pair,
};

/// The regions with A and B at their poses (checked equal with the parallel traversal, split
/// however small the meshes).
struct Regions<'a>(&'a Isometry, &'a Isometry);

impl TreePairVisitor for Regions<'_> {
    type Output = Vec<ContactRegion>;

    fn visit<VA: NodeVolume + NodeTest<VB>, VB: NodeVolume>(self, a: &Bvh<VA>, b: &Bvh<VB>) -> Self::Output {
        let options = QueryOptions { split_from: 0, ..QueryOptions::default() };
        let query = Query::new(Posed::new(a, self.0), Posed::new(b, self.1), options);
        let regions = query.contact_regions(Surfaces::Closed);
        // The traversal split across threads finds the same regions.
        assert_eq!(query.contact_regions_parallel(Surfaces::Closed), regions);
        regions
    }
}

/// Every triangle split into four by its edges' midpoints, `times` over.
fn split(mesh: &TriMesh, times: u32) -> TriMesh {
    let mut mesh = mesh.clone();
    for _ in 0..times {
        let mut vertices = Vec::new();
        let mut triangles = Vec::new();
        for t in mesh.triangles() {
            let mid = |p: Point, q: Point| Point::from((p.coords + q.coords) / 2.0);
            let (ab, bc, ca) = (mid(t.a, t.b), mid(t.b, t.c), mid(t.c, t.a));
            for [p, q, r] in [[t.a, ab, ca], [ab, t.b, bc], [ca, bc, t.c], [ab, bc, ca]] {
                let n = vertices.len() as u32;
                vertices.extend([p, q, r]);
                triangles.push([n, n + 1, n + 2]);
            }
        }
        mesh = TriMesh::new(vertices, triangles).unwrap();
    }
    mesh
}

/// Frames the tests are repeated in: where they were built, turned, and turned far away.
fn frames() -> Vec<Isometry> {
    vec![
        Isometry::identity(),
        Isometry::new(Vector::new(0.3, -0.2, 0.1), Vector::new(0.4, -0.7, 0.25)),
        Isometry::new(Vector::new(2.0e4, -1.5e4, 3.0e3), Vector::new(-1.1, 0.3, 0.6)),
    ]
}

/// The regions for every preset, every frame and every split of both meshes, each checked by
/// `check` with the frame the meshes were placed in.
fn for_all(a: &TriMesh, b: &TriMesh, pose_b: &Isometry, check: impl Fn(&[ContactRegion], &Isometry, &str)) {
    for_all_in(&frames(), a, b, pose_b, check)
}

/// [`for_all`] in the given frames.
fn for_all_in(
    frames: &[Isometry],
    a: &TriMesh,
    b: &TriMesh,
    pose_b: &Isometry,
    check: impl Fn(&[ContactRegion], &Isometry, &str),
) {
    for splits in [0, 1, 2] {
        let (a, b) = (split(a, splits), split(b, splits));
        for preset in Preset::ALL {
            let (ta, tb) = (Hierarchy::build(a.clone(), &preset), Hierarchy::build(b.clone(), &preset));
            for (k, frame) in frames.iter().enumerate() {
                let (pa, pb) = (*frame, frame * pose_b);
                let regions = visit_tree_pair(&ta, &tb, Regions(&pa, &pb));
                check(&regions, frame, &format!("{}, split {splits}, frame {k}", preset.name));
            }
        }
    }
}

/// How far a point may be off in frame `frame`: the f32 rounding of its coordinates.
fn slack(frame: &Isometry) -> Real {
    1e-5 * (1.0 + frame.translation.vector.norm())
}

fn angle(u: &Vector, v: &Vector) -> Real {
    u.normalize().dot(&v.normalize()).clamp(-1.0, 1.0).acos().to_degrees()
}

/// Each expected point has a reported point within `tolerance`.
fn same_points(got: &[Point], expected: &[Point], tolerance: Real) -> bool {
    got.len() == expected.len() && expected.iter().all(|e| got.iter().any(|g| (g - e).norm() <= tolerance))
}

#[test]
fn boxes_pressed_face_into_face() {
    let a = TriMesh::cuboid(Point::origin(), Vector::new(1.0, 1.0, 1.0));
    let b = TriMesh::cuboid(Point::origin(), Vector::new(0.5, 0.5, 0.5));
    let h = 0.1;
    // B's footprint [-0.2, 0.8] × [-0.3, 0.7] lies inside A's top face; its bottom is h below it.
    let pose_b = Isometry::translation(0.3, 0.2, 1.5 - h);
    let corners = [[-0.2, -0.3], [0.8, -0.3], [0.8, 0.7], [-0.2, 0.7]].map(|[x, y]| Point::new(x, y, 1.0));
    for_all(&a, &b, &pose_b, |regions, frame, what| {
        assert_eq!(regions.len(), 1, "{what}");
        let r = &regions[0];
        let up = frame.rotation * Vector::z();
        assert!(angle(&r.normal, &up) < 0.01, "{what}: normal {:?}", r.normal);
        assert!((r.depth - h).abs() < slack(frame) * 10.0, "{what}: depth {}", r.depth);
        let expected: Vec<Point> = corners.iter().map(|p| frame * p).collect();
        assert!(same_points(&r.points, &expected, slack(frame) * 10.0), "{what}: points {:?}", r.points);
        assert_eq!(r.area, 0.0, "{what}");
        assert!(r.curve.len() == 1 && r.curve[0].closed, "{what}: curve {:?}", r.curve.len());
        // The deepest points: on A's top face, and on B's bottom face h below it.
        let (top, bottom) = (frame.inverse() * r.deepest_on_a, frame.inverse() * r.deepest_on_b);
        assert!(
            (top.z - 1.0).abs() < slack(frame) * 10.0 && (bottom.z - (1.0 - h)).abs() < slack(frame) * 10.0,
            "{what}"
        );
    });
}

/// Faces touching exactly: only where placing B keeps them exactly coplanar (turned, rounding
/// moves one face off the other's plane and the contact is a matter of rounding).
#[test]
fn boxes_touching_face_to_face_share_their_overlap() {
    let a = TriMesh::cuboid(Point::origin(), Vector::new(1.0, 1.0, 1.0));
    let b = TriMesh::cuboid(Point::origin(), Vector::new(0.5, 0.5, 0.5));
    let pose_b = Isometry::translation(0.3, 0.2, 1.5);
    let frames = [Isometry::identity(), Isometry::translation(2.0e4, -1.5e4, 3.0e3)];
    for_all_in(&frames, &a, &b, &pose_b, |regions, frame, what| {
        assert_eq!(regions.len(), 1, "{what}");
        let r = &regions[0];
        assert!(r.depth < slack(frame) * 10.0, "{what}: depth {}", r.depth);
        assert!((r.area - 1.0).abs() < 1e-4, "{what}: area {}", r.area);
        assert!(angle(&r.normal, &(frame.rotation * Vector::z())) < 0.01, "{what}: normal {:?}", r.normal);
    });
}

/// Spheres of radii 1 and 0.5 whose centres are 1.4 apart: the normal is along the centre line
/// and the depth r1 + r2 − d = 0.1, both within what the tessellation allows: a UV sphere of
/// `rings` rings has facets whose normals are within π / rings of any direction, and lies within
/// r (1 − cos(π / rings)) inside its sphere.
#[test]
fn tessellated_spheres() {
    let rings = 24u32;
    let (r1, r2, d) = (1.0f32, 0.5f32, 1.4f32);
    let a = TriMesh::uv_sphere(Point::origin(), r1, rings, 2 * rings);
    let b = TriMesh::uv_sphere(Point::origin(), r2, rings, 2 * rings);
    let along = Vector::new(0.3, -0.5, 0.8).normalize();
    let pose_b = Isometry::translation(along.x * d, along.y * d, along.z * d);
    let step = std::f32::consts::PI / rings as Real;
    let sagitta = (r1 + r2) * (1.0 - step.cos());
    let (a, b) = (Hierarchy::build(a, &Preset::co()), Hierarchy::build(b, &Preset::co()));
    for frame in frames() {
        let regions = visit_tree_pair(&a, &b, Regions(&frame, &(frame * pose_b)));
        assert_eq!(regions.len(), 1);
        let r = &regions[0];
        assert!(angle(&r.normal, &(frame.rotation * along)) < step.to_degrees(), "normal {:?}", r.normal);
        let exact = r1 + r2 - d;
        assert!(
            (r.depth - exact).abs() <= sagitta + exact * (1.0 - step.cos()),
            "depth {} for {exact}",
            r.depth
        );
    }
}

/// A finely tessellated ball sunk deep into a slab: its part inside reaches far from the
/// curve, across patches no triangle of the slab crosses, down to its south pole, so the depth
/// runs from that vertex to the slab's top face – for every preset and frame.
#[test]
fn a_ball_sunk_deep_reaches_its_lowest_point() {
    let slab = split(&TriMesh::cuboid(Point::origin(), Vector::new(3.0, 3.0, 1.0)), 3);
    let ball = TriMesh::uv_sphere(Point::origin(), 1.0, 32, 64);
    assert!(ball.triangle_count() > 8 * bvh_core::PATCH_CHUNK);
    let pose_b = Isometry::translation(0.25, -0.125, 0.25);
    // The top face at z = 1; the pole at z = 0.25 - 1.
    let (depth, pole) = (1.75, Point::new(0.25, -0.125, -0.75));
    for preset in Preset::ALL {
        let (a, b) = (Hierarchy::build(slab.clone(), &preset), Hierarchy::build(ball.clone(), &preset));
        for frame in frames() {
            let regions = visit_tree_pair(&a, &b, Regions(&frame, &(frame * pose_b)));
            let what = format!("{}, frame {:?}", preset.name, frame.translation.vector);
            assert_eq!(regions.len(), 1, "{what}");
            let r = &regions[0];
            assert!(
                angle(&r.normal, &(frame.rotation * Vector::z())) < 0.01,
                "{what}: normal {:?}",
                r.normal
            );
            assert!((r.depth - depth).abs() < slack(&frame) * 10.0, "{what}: depth {}", r.depth);
            assert!((r.deepest_on_b - frame * pole).norm() < slack(&frame) * 10.0, "{what}");
        }
    }
}

/// A part with two prongs straddling a bar, pressed onto it from both sides, and a peg pressed
/// between two walls: two regions each, with opposite normals.
#[test]
fn two_prongs_and_a_peg_make_two_regions() {
    let prongs = common::joined(&[
        TriMesh::cuboid(Point::new(-0.6, 0.0, 0.0), Vector::new(0.15, 0.5, 0.5)),
        TriMesh::cuboid(Point::new(0.6, 0.0, 0.0), Vector::new(0.15, 0.5, 0.5)),
    ]);
    // The bar is 1.0 wide between the prongs' inner faces at ±0.45: each presses 0.05 in.
    let bar = TriMesh::cuboid(Point::origin(), Vector::new(0.5, 2.0, 0.2));
    for_all(&prongs, &bar, &Isometry::identity(), |regions, frame, what| {
        assert_eq!(regions.len(), 2, "{what}");
        let normals: Vec<Vector> = regions.iter().map(|r| frame.inverse() * r.normal).collect();
        let xs: Vec<Real> = normals.iter().map(|n| n.x).collect();
        assert!(xs.iter().any(|&x| x > 0.999) && xs.iter().any(|&x| x < -0.999), "{what}: {normals:?}");
        assert!(regions.iter().all(|r| (r.depth - 0.05).abs() < slack(frame) * 10.0), "{what}");
    });
    let walls = common::joined(&[
        TriMesh::cuboid(Point::new(-1.0, 0.0, 0.0), Vector::new(0.5, 1.0, 1.0)),
        TriMesh::cuboid(Point::new(1.0, 0.0, 0.0), Vector::new(0.5, 1.0, 1.0)),
    ]);
    let peg = TriMesh::cuboid(Point::origin(), Vector::new(0.52, 0.2, 0.2));
    for_all(&walls, &peg, &Isometry::identity(), |regions, frame, what| {
        assert_eq!(regions.len(), 2, "{what}");
        assert!(regions.iter().all(|r| (r.depth - 0.02).abs() < slack(frame) * 10.0), "{what}: {regions:?}");
    });
}

/// A rod pushed right through a roof-shaped prism: one region (the roof's and the floor's
/// triangles share corners) whose curve is two loops, in through the roof and out through the
/// floor. Sliding the rod along itself changes nothing, so the loops' spans cancel and the normal
/// lies across the rod, whichever way the chaining happened to run each loop (added up as they
/// came, they gave a normal along the rod for some presets).
#[test]
fn a_rod_through_a_prism_is_pushed_sideways() {
    // The prism: a triangle across y–z (floor from y = -1 to 1, ridge at z = 1), along x.
    let ends =
        [-2.0, 2.0].map(|x| [Point::new(x, -1.0, 0.0), Point::new(x, 1.0, 0.0), Point::new(x, 0.0, 1.0)]);
    let vertices: Vec<Point> = ends.iter().flatten().copied().collect();
    let faces = [[0, 2, 1], [3, 4, 5], [0, 1, 4], [0, 4, 3], [1, 2, 5], [1, 5, 4], [2, 0, 3], [2, 3, 5]];
    let prism = TriMesh::new(vertices, faces.to_vec()).unwrap();
    let rod = TriMesh::cuboid(Point::new(0.3, 0.15, 0.5), Vector::new(0.1, 0.1, 1.5));
    for preset in Preset::ALL {
        let (ta, tb) = (Hierarchy::build(prism.clone(), &preset), Hierarchy::build(rod.clone(), &preset));
        for (k, frame) in frames().iter().enumerate() {
            let what = format!("{}, frame {k}", preset.name);
            let regions = visit_tree_pair(&ta, &tb, Regions(frame, frame));
            assert_eq!(regions.len(), 1, "{what}");
            let r = &regions[0];
            assert!(r.curve.len() == 2 && r.curve.iter().all(|c| c.closed), "{what}: {:?}", r.curve);
            let along = (frame.inverse() * r.normal).z;
            assert!(along.abs() < 1e-3, "{what}: normal {:?}", frame.inverse() * r.normal);
            // No vertex of either lies inside the other: the depth is the curve's width across.
            assert!((r.depth - 0.2).abs() < slack(frame) * 10.0, "{what}: depth {}", r.depth);
        }
    }
}

/// Zero-area triangles inside a region (a sliver and a point on A's top face under B) change
/// nothing.
#[test]
fn degenerate_triangles_inside_a_region() {
    let cube = TriMesh::cuboid(Point::origin(), Vector::new(1.0, 1.0, 1.0));
    let mut vertices = cube.vertices().to_vec();
    let mut triangles = cube.indices().to_vec();
    let n = vertices.len() as u32;
    vertices.extend([Point::new(0.0, 0.0, 1.0), Point::new(0.2, 0.1, 1.0), Point::new(0.4, 0.2, 1.0)]);
    triangles.extend([[n, n + 1, n + 2], [n, n, n]]);
    let a = TriMesh::new(vertices, triangles).unwrap();
    let b = TriMesh::cuboid(Point::origin(), Vector::new(0.5, 0.5, 0.5));
    let pose_b = Isometry::translation(0.3, 0.2, 1.4);
    for_all(&a, &b, &pose_b, |regions, frame, what| {
        assert_eq!(regions.len(), 1, "{what}");
        let r = &regions[0];
        assert!(angle(&r.normal, &(frame.rotation * Vector::z())) < 0.01, "{what}: normal {:?}", r.normal);
        assert!((r.depth - 0.1).abs() < slack(frame) * 10.0, "{what}: depth {}", r.depth);
        assert_eq!(r.points.len(), 4, "{what}");
    });
}

/// A small cube poking 0.3 up through the floor of a box: with the box closed the depth
/// reaches the cube's top corners inside it; with the box's lid left out the box is not closed,
/// has no inside, and the depth comes from the curve alone (as for open surfaces).
#[test]
fn an_open_mesh_has_no_inside() {
    let closed_box = TriMesh::cuboid(Point::origin(), Vector::new(1.0, 1.0, 1.0));
    let lid = |t: &[u32; 3]| t.iter().all(|&v| closed_box.vertices()[v as usize].z == 1.0);
    let walls: Vec<[u32; 3]> = closed_box.indices().iter().filter(|t| !lid(t)).copied().collect();
    assert_eq!(walls.len(), closed_box.indices().len() - 2);
    let open_box = TriMesh::new(closed_box.vertices().to_vec(), walls).unwrap();
    let cube = TriMesh::cuboid(Point::origin(), Vector::new(0.25, 0.25, 0.25));
    let pose_b = Isometry::translation(0.1, -0.2, -0.95);
    for (a, depth) in [(&closed_box, 0.3), (&open_box, 0.0)] {
        for_all(a, &cube, &pose_b, |regions, frame, what| {
            assert_eq!(regions.len(), 1, "{what}");
            let r = &regions[0];
            // Down, out through the floor.
            assert!(
                angle(&r.normal, &(frame.rotation * -Vector::z())) < 0.01,
                "{what}: normal {:?}",
                r.normal
            );
            assert!(
                (r.depth - depth).abs() < slack(frame) * 10.0,
                "{what}: depth {} against {depth}",
                r.depth
            );
        });
    }
}

#[test]
fn apart_meshes_have_no_regions() {
    let a = TriMesh::cuboid(Point::origin(), Vector::new(1.0, 1.0, 1.0));
    let tree = Hierarchy::build(a, &Preset::co());
    let far = Isometry::translation(3.0, 0.0, 0.0);
    assert!(visit_tree_pair(&tree, &tree, Regions(&Isometry::identity(), &far)).is_empty());
}

/// Meshes crossing in 512 intersecting pairs or more, so the split query builds its regions on
/// several threads too: the same regions as on one thread (`Regions` checks), for every preset,
/// with 1, 2 and 3 threads (the traversal split into as many parts as the threads ask).
#[test]
fn large_contacts_split_across_threads() {
    let a = TriMesh::uv_sphere(Point::origin(), 1.0, 96, 192);
    let b = TriMesh::uv_sphere(Point::origin(), 0.8, 96, 192);
    let pose_b = Isometry::translation(0.9, 0.2, -0.1);
    for preset in Preset::ALL {
        let (ta, tb) = (Hierarchy::build(a.clone(), &preset), Hierarchy::build(b.clone(), &preset));
        let regions = visit_tree_pair(&ta, &tb, Regions(&Isometry::identity(), &pose_b));
        let pairs: usize = regions.iter().map(|r| r.pairs.len()).sum();
        assert!(pairs >= 512, "{}: {pairs} pairs", preset.name);
        assert_eq!(regions.len(), 1, "{}", preset.name);
        for threads in [1, 3] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let again = pool.install(|| visit_tree_pair(&ta, &tb, Regions(&Isometry::identity(), &pose_b)));
            assert_eq!(again, regions, "{}, {threads} threads", preset.name);
        }
    }
}
