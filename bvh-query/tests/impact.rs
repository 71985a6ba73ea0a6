//! The time of impact: never late against dense sampling on random motions for every preset,
//! within the tolerance where it answers; and motions whose first contact is known in closed
//! form (a thin panel crossed in one step, a bar turning in a slot, a door swinging on its hinge
//! into a wall, crossing edges under a screw, a grazing pass, meshes touching at the start).

mod common;

use bvh_build::generate::{bracket, torus, tube};
use bvh_build::{BuildConfig, Bvh, Hierarchy, NodeVolume, Preset};
use bvh_core::{
    Interpolation, Isometry, Obb, Point, Real, RigidMotion, TriMesh, Triangle, Vector,
    closest_points_triangles,
};
use bvh_query::{
    Impact, Moving, NodeTest, Posed, Query, QueryOptions, SweepError, TreePairVisitor, time_of_impact,
    visit_tree_pair,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::f64::consts::FRAC_PI_2;

/// The time of impact of B moving from `start` to `end`, A at `pose_a`.
struct TimeOfImpact<'a> {
    pose_a: &'a Isometry,
    start: &'a Isometry,
    end: &'a Isometry,
    interpolation: Interpolation,
    tolerance: Real,
}

impl TreePairVisitor for TimeOfImpact<'_> {
    type Output = Result<Option<Impact>, SweepError>;

    fn visit<VA, VB>(self, a: &Bvh<VA>, b: &Bvh<VB>) -> Self::Output
    where
        VA: NodeVolume + NodeTest<VB>,
        VB: NodeVolume,
    {
        let query =
            Query::new(Posed::new(a, self.pose_a), Posed::new(b, self.start), QueryOptions::default());
        query.time_of_impact(self.end, self.interpolation, self.tolerance)
    }
}

/// The distance between the meshes with B at `pose_b` and A at the origin, over all triangle
/// pairs, B placed in f64 and rounded once.
fn brute_distance(a: &TriMesh, b: &TriMesh, pose_b: &Isometry) -> f64 {
    let moved: Vec<Triangle> = b.triangles().map(|t| t.transformed(pose_b)).collect();
    let mut best = f64::INFINITY;
    for ta in a.triangles() {
        for tb in &moved {
            best = best.min(closest_points_triangles(&ta, tb).distance as f64);
        }
    }
    best
}

/// Checks an answer against the meshes: the distance at its time is at most the tolerance (and
/// no more than reported), its normal a unit vector. Returns its time.
fn check_impact(
    impact: &Impact,
    a: &TriMesh,
    b: &TriMesh,
    motion: &RigidMotion,
    tolerance: Real,
    what: &str,
) -> f64 {
    let t = impact.time;
    assert!((0.0..=1.0).contains(&t), "{what}: time {t}");
    let at = brute_distance(a, b, &motion.pose_at(t));
    let slack = 1e-5;
    assert!(at <= tolerance as f64 + slack, "{what}: {at} apart at the impact (tolerance {tolerance})");
    // The reported pair may be one a little farther than the nearest (within the tolerance).
    let reported = impact.distance as f64;
    assert!(reported >= at - slack && reported <= tolerance as f64, "{what}: reported {reported} for {at}");
    assert!((impact.normal.norm() - 1.0).abs() < 1e-4, "{what}: normal {:?}", impact.normal);
    t
}

/// The mesh with its vertices moved by `pose`.
fn moved(mesh: &TriMesh, pose: &Isometry) -> TriMesh {
    TriMesh::new(mesh.vertices().iter().map(|p| pose * p).collect(), mesh.indices().to_vec()).unwrap()
}

fn co(mesh: &TriMesh) -> Bvh<Obb> {
    Bvh::build(mesh.clone(), &BuildConfig::co())
}

/// The first of `samples + 1` evenly spaced times at which the meshes intersect (the exact
/// first-contact query, itself checked against brute force elsewhere).
fn first_sampled_contact(a: &Bvh<Obb>, b: &Bvh<Obb>, motion: &RigidMotion, samples: u32) -> Option<f64> {
    let here = Isometry::identity();
    (0..=samples).map(|k| k as f64 / samples as f64).find(|&t| {
        let pose = motion.pose_at(t);
        let query = Query::new(Posed::new(a, here), Posed::new(b, pose), QueryOptions::default());
        query.intersects().is_some()
    })
}

/// Random motions, turning and not, slerp and screw, for every preset: never after the first
/// sampled contact, no answer only when no sample touches, within the tolerance at the answer.
#[test]
fn every_preset_is_never_late_on_random_motions() {
    let meshes = [
        TriMesh::uv_sphere(Point::origin(), 1.0, 8, 12),
        torus(1.0, 0.3, 16, 8),
        tube(0.5, 0.4, 2.0, 10),
        bracket(1.5, 0.1, 0.8),
    ];
    let here = Isometry::identity();
    let tolerance = 1e-3;
    let mut rng = ChaCha8Rng::seed_from_u64(30);
    let (mut impacts, mut misses, mut touching_at_start) = (0, 0, 0);
    for (k, mesh_a) in meshes.iter().enumerate() {
        let mesh_b = &meshes[(k + 1) % meshes.len()];
        let (co_a, co_b) = (co(mesh_a), co(mesh_b));
        let trees: Vec<(Hierarchy, Hierarchy)> = Preset::ALL
            .iter()
            .map(|p| (Hierarchy::build(mesh_a.clone(), p), Hierarchy::build(mesh_b.clone(), p)))
            .collect();
        for case in 0..8 {
            let start = common::random_pose(&mut rng, 3.0);
            let mut end = common::random_pose(&mut rng, 3.0);
            if case % 4 == 0 {
                end.rotation = start.rotation;
            }
            for interpolation in [Interpolation::Slerp, Interpolation::Screw] {
                let motion = RigidMotion::new(&start, &end, interpolation).unwrap();
                let sampled = first_sampled_contact(&co_a, &co_b, &motion, 1000);
                for ((a, b), preset) in trees.iter().zip(Preset::ALL) {
                    let what = format!("pair {k}, case {case}, {interpolation:?}, {}", preset.name);
                    let visitor =
                        TimeOfImpact { pose_a: &here, start: &start, end: &end, interpolation, tolerance };
                    match visit_tree_pair(a, b, visitor).unwrap() {
                        Some(impact) => {
                            let t = check_impact(&impact, mesh_a, mesh_b, &motion, tolerance, &what);
                            assert!(
                                sampled.is_none_or(|s| t <= s),
                                "{what}: {t} after the contact sampled at {sampled:?}"
                            );
                            impacts += 1;
                            touching_at_start += (t == 0.0) as usize;
                        }
                        None => {
                            assert_eq!(sampled, None, "{what}: no impact, but they touch at {sampled:?}");
                            misses += 1;
                        }
                    }
                }
            }
        }
    }
    // Both answers occur, so neither check above is idle.
    assert!(impacts > 50 && misses > 50, "{impacts} impacts, {misses} misses");
    assert!(touching_at_start < impacts, "{touching_at_start} of {impacts} touch at the start");
}

/// The answer for one motion with the CO preset.
fn co_impact(
    a: &TriMesh,
    b: &TriMesh,
    start: &Isometry,
    end: &Isometry,
    interpolation: Interpolation,
    tolerance: Real,
) -> Option<Impact> {
    let (ta, tb) = (co(a), co(b));
    let here = Isometry::identity();
    let query = Query::new(Posed::new(&ta, here), Posed::new(&tb, start), QueryOptions::default());
    query.time_of_impact(end, interpolation, tolerance).unwrap()
}

/// Checks `impact` against the first contact `exact` known in closed form: never later, and no
/// earlier than `early` before it.
fn check_against(impact: Option<Impact>, exact: f64, early: f64, what: &str) -> Impact {
    let impact = impact.unwrap_or_else(|| panic!("{what}: no impact, expected one at {exact}"));
    assert!(impact.time <= exact + 1e-9, "{what}: {} after the first contact {exact}", impact.time);
    assert!(impact.time >= exact - early, "{what}: {} long before the first contact {exact}", impact.time);
    impact
}

#[test]
fn a_thin_panel_crossed_in_one_step() {
    let panel = TriMesh::cuboid(Point::origin(), Vector::new(0.005, 1.0, 1.0));
    let ball = TriMesh::uv_sphere(Point::origin(), 0.05, 8, 12);
    let front = ball.vertices().iter().map(|p| p.x).fold(Real::MIN, Real::max) as f64;
    let (start, end) = (Isometry::translation(-0.5, 0.0, 0.0), Isometry::translation(0.5, 0.0, 0.0));
    // The ball's front reaches the panel's face at x = -0.005, moving one unit per unit of t.
    let exact = -0.005 - front + 0.5;
    let tolerance = 1e-4;
    for interpolation in [Interpolation::Slerp, Interpolation::Screw] {
        let impact = co_impact(&panel, &ball, &start, &end, interpolation, tolerance);
        let impact = check_against(impact, exact, 2.0 * tolerance as f64, "panel");
        let motion = RigidMotion::new(&start, &end, interpolation).unwrap();
        check_impact(&impact, &panel, &ball, &motion, tolerance, "panel");
        assert!((impact.normal - Vector::new(-1.0, 0.0, 0.0)).norm() < 1e-3, "{:?}", impact.normal);
    }
    // Turning while it crosses: the same, sampled.
    let spun = Isometry::new(Vector::new(0.5, 0.0, 0.0), Vector::new(0.0, 2.0, 1.0));
    let motion = RigidMotion::new(&start, &spun, Interpolation::Slerp).unwrap();
    let impact = co_impact(&panel, &ball, &start, &spun, Interpolation::Slerp, tolerance).unwrap();
    let t = check_impact(&impact, &panel, &ball, &motion, tolerance, "spinning ball");
    let sampled = first_sampled_contact(&co(&panel), &co(&ball), &motion, 4000).unwrap();
    assert!(t <= sampled && t > sampled - 0.01, "{t} against the sampled {sampled}");
}

/// A bar (half-extents `a` > `b`) turning about its centre inside a slot of half-width `h`,
/// `b < h < a`: its extent across the slot is `a sin φ + b cos φ`, which reaches `h` at
/// `φ* = asin(h / √(a² + b²)) − atan(b / a)`.
#[test]
fn a_bar_turning_in_a_slot() {
    let (a, b, h) = (1.0f64, 0.1f64, 0.5f64);
    let wall = 0.05;
    let slot = common::joined(&[
        TriMesh::cuboid(Point::new(0.0, (h + wall) as Real, 0.0), Vector::new(2.0, wall as Real, 0.5)),
        TriMesh::cuboid(Point::new(0.0, -(h + wall) as Real, 0.0), Vector::new(2.0, wall as Real, 0.5)),
    ]);
    let bar = TriMesh::cuboid(Point::origin(), Vector::new(a as Real, b as Real, 0.2));
    let start = Isometry::identity();
    let end = Isometry::rotation(Vector::new(0.0, 0.0, FRAC_PI_2 as Real));
    let exact_angle = (h / (a * a + b * b).sqrt()).asin() - (b / a).atan();
    let exact = exact_angle / FRAC_PI_2;
    let tolerance = 1e-4;
    for interpolation in [Interpolation::Slerp, Interpolation::Screw] {
        let impact = co_impact(&slot, &bar, &start, &end, interpolation, tolerance);
        // The corner approaches the wall at about a·(π/2) per unit of t.
        let impact = check_against(impact, exact, 4.0 * tolerance as f64 / (a * FRAC_PI_2), "slot");
        let motion = RigidMotion::new(&start, &end, interpolation).unwrap();
        check_impact(&impact, &slot, &bar, &motion, tolerance, "slot");
    }
}

/// A door, its origin at its centre, swinging about its hinge (the z-axis through the world
/// origin) into a wall at `y = w`: a screw motion about the hinge, which slerp about the door's
/// centre does not follow. Its far corner reaches the wall at
/// `φ* = asin(w / √(L² + e²)) − atan(e / L)`.
#[test]
fn a_door_swinging_on_its_hinge() {
    let (length, e, w) = (1.0f64, 0.02f64, 0.6f64);
    let door = TriMesh::cuboid(Point::origin(), Vector::new((length / 2.0) as Real, e as Real, 0.5));
    let wall = TriMesh::cuboid(Point::new(0.0, (w + 0.1) as Real, 0.0), Vector::new(2.0, 0.1, 1.0));
    let start = Isometry::translation((length / 2.0) as Real, 0.0, 0.0);
    let hinge = Isometry::rotation(Vector::new(0.0, 0.0, FRAC_PI_2 as Real));
    let end = hinge * start;
    let exact = ((w / (length * length + e * e).sqrt()).asin() - (e / length).atan()) / FRAC_PI_2;
    let tolerance = 1e-4;
    let impact = co_impact(&wall, &door, &start, &end, Interpolation::Screw, tolerance);
    let impact = check_against(impact, exact, 4.0 * tolerance as f64 / (length * FRAC_PI_2), "door");
    let motion = RigidMotion::new(&start, &end, Interpolation::Screw).unwrap();
    check_impact(&impact, &wall, &door, &motion, tolerance, "door");
    // Slerp moves the door's centre along the chord instead: the contact comes elsewhere, and
    // still never late against sampling.
    let motion = RigidMotion::new(&start, &end, Interpolation::Slerp).unwrap();
    let impact = co_impact(&wall, &door, &start, &end, Interpolation::Slerp, tolerance).unwrap();
    let t = check_impact(&impact, &wall, &door, &motion, tolerance, "door, slerp");
    let sampled = first_sampled_contact(&co(&wall), &co(&door), &motion, 4000).unwrap();
    assert!(t <= sampled && (t - exact).abs() > 1e-3, "{t}: sampled {sampled}, hinge {exact}");
}

/// Two square bars turned 45° about their long axes, so that they meet edge to edge: A along x
/// at the origin, B along y above it, coming down while it turns about the vertical axis (a
/// screw). The edges meet when B's lowest edge reaches A's highest, whatever the turn.
#[test]
fn crossing_edges_under_a_screw() {
    let h = 0.1f64;
    let bar = |along_x: bool| {
        let half = if along_x {
            Vector::new(2.0, h as Real, h as Real)
        } else {
            Vector::new(h as Real, 2.0, h as Real)
        };
        TriMesh::cuboid(Point::origin(), half)
    };
    let quarter = std::f32::consts::FRAC_PI_4;
    // A's corners turned about x, B's about y: each bar's edge points up or down.
    let a = moved(&bar(true), &Isometry::rotation(Vector::new(quarter, 0.0, 0.0)));
    let b = bar(false);
    let z0 = 1.0f64;
    let start = Isometry::new(Vector::new(0.0, 0.0, z0 as Real), Vector::new(0.0, quarter, 0.0));
    let turn = Isometry::rotation(Vector::new(0.0, 0.0, 1.0));
    let end = Isometry::translation(0.0, 0.0, -(z0 as Real)) * turn * start;
    let edge = h * std::f64::consts::SQRT_2;
    // B's origin comes down from z0 to 0 along the axis: its edge meets A's at 2·edge above.
    let exact = (z0 - 2.0 * edge) / z0;
    let tolerance = 1e-4;
    let impact = co_impact(&a, &b, &start, &end, Interpolation::Screw, tolerance);
    let impact = check_against(impact, exact, 2.0 * tolerance as f64 / z0, "edges");
    let motion = RigidMotion::new(&start, &end, Interpolation::Screw).unwrap();
    check_impact(&impact, &a, &b, &motion, tolerance, "edges");
    assert!(impact.normal.z > 0.999, "{:?}", impact.normal);
}

/// A box sliding past another at a millionth of its size: a translation is decided exactly,
/// so the pass is no impact whatever the tolerance; nudged into the other, it is one.
#[test]
fn a_grazing_pass() {
    let a = TriMesh::cuboid(Point::origin(), Vector::new(1.0, 1.0, 1.0));
    let b = TriMesh::cuboid(Point::origin(), Vector::new(0.5, 0.5, 0.5));
    let gap = 1e-6;
    let y = 1.5 + gap;
    let (start, end) = (Isometry::translation(-3.0, y, 0.0), Isometry::translation(3.0, y, 0.0));
    for tolerance in [1e-4, 1e-2] {
        assert_eq!(co_impact(&a, &b, &start, &end, Interpolation::Slerp, tolerance), None);
    }
    let (start, end) = (Isometry::translation(-3.0, y, 0.0), Isometry::translation(3.0, 1.5 - gap, 0.0));
    let impact = co_impact(&a, &b, &start, &end, Interpolation::Slerp, 1e-4).unwrap();
    let motion = RigidMotion::new(&start, &end, Interpolation::Slerp).unwrap();
    check_impact(&impact, &a, &b, &motion, 1e-4, "grazing into contact");
    // They touch no later than where the sliding box's corner crosses the other's top face
    // edge: x from -3 to -1.5 + … the corner meets the face about halfway.
    assert!(impact.time < 0.5 + 1e-3, "{}", impact.time);
}

#[test]
fn meshes_touching_at_the_start_answer_zero() {
    let a = TriMesh::cuboid(Point::origin(), Vector::new(1.0, 1.0, 1.0));
    let b = TriMesh::uv_sphere(Point::origin(), 0.5, 6, 8);
    let start = Isometry::translation(1.2, 0.0, 0.0);
    let end = Isometry::new(Vector::new(4.0, 1.0, 0.0), Vector::new(0.0, 0.0, 1.0));
    let impact = co_impact(&a, &b, &start, &end, Interpolation::Slerp, 1e-3).unwrap();
    assert_eq!((impact.time, impact.distance), (0.0, 0.0));
    assert!((impact.normal.norm() - 1.0).abs() < 1e-5);
    // Moving away from a start within the tolerance but apart: still an impact at zero.
    let near = Isometry::translation(1.5 + 5e-4, 0.0, 0.0);
    let impact = co_impact(&a, &b, &near, &end, Interpolation::Slerp, 1e-3).unwrap();
    assert_eq!(impact.time, 0.0);
    assert!(impact.distance > 0.0 && impact.distance <= 1e-3);
}

#[test]
fn bad_tolerances_and_poses_are_refused() {
    let a = co(&TriMesh::cuboid(Point::origin(), Vector::new(1.0, 1.0, 1.0)));
    let here = Isometry::identity();
    let start = Isometry::translation(3.0, 0.0, 0.0);
    let query = Query::new(Posed::new(&a, here), Posed::new(&a, start), QueryOptions::default());
    for bad in [0.0, -1.0, Real::NAN, Real::INFINITY] {
        let answer = query.time_of_impact(&here, Interpolation::Slerp, bad);
        assert_eq!(answer, Err(SweepError::Tolerance), "{bad}");
    }
    let nan = Isometry::translation(Real::NAN, 0.0, 0.0);
    assert!(matches!(query.time_of_impact(&nan, Interpolation::Screw, 1e-3), Err(SweepError::Pose(_))));
    let tiny = query.time_of_impact(&here, Interpolation::Slerp, 1e-9);
    assert!(matches!(tiny, Err(SweepError::ToleranceBelowRounding { .. })), "{tiny:?}");
}

/// Two objects both moving: what their relative motion says. Two cubes closing along x at 4 per
/// unit of t each from 5 apart meet at t = 5/8; turning as well, never after the first sampled
/// contact of both poses.
#[test]
fn both_moving() {
    let cube = TriMesh::cuboid(Point::origin(), Vector::new(0.5, 0.5, 0.5));
    let (a, b) = (co(&cube), co(&cube));
    let tolerance = 1e-4;
    let answer = |motion_a: &RigidMotion, motion_b: &RigidMotion| {
        let (a, b) = (Moving::new(&a, motion_a), Moving::new(&b, motion_b));
        time_of_impact(a, b, tolerance, QueryOptions::default(), &mut ()).unwrap()
    };
    let slide = |from: Real, to: Real| {
        RigidMotion::new(
            &Isometry::translation(from, 0.0, 0.0),
            &Isometry::translation(to, 0.0, 0.0),
            Interpolation::Slerp,
        )
        .unwrap()
    };
    let hit = answer(&slide(-3.0, 1.0), &slide(3.0, -1.0)).unwrap();
    assert!(hit.time <= 0.625 && hit.time >= 0.625 - tolerance as f64 / 8.0, "{}", hit.time);
    assert!((hit.normal - Vector::new(1.0, 0.0, 0.0)).norm() < 1e-3, "{:?}", hit.normal);
    // Side by side, the same speed: never touching.
    assert_eq!(answer(&slide(-3.0, 1.0), &slide(-1.0, 3.0)), None);
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    let mut hits = 0;
    for case in 0..20 {
        let motions: Vec<RigidMotion> = (0..2)
            .map(|_| {
                let (start, end) = (common::random_pose(&mut rng, 2.0), common::random_pose(&mut rng, 2.0));
                RigidMotion::new(
                    &start,
                    &end,
                    if case % 2 == 0 { Interpolation::Slerp } else { Interpolation::Screw },
                )
                .unwrap()
            })
            .collect();
        let sampled = (0..=1000).map(|k| k as f64 / 1000.0).find(|&t| {
            let (pose_a, pose_b) = (motions[0].pose_at(t), motions[1].pose_at(t));
            let query = Query::new(Posed::new(&a, pose_a), Posed::new(&b, pose_b), QueryOptions::default());
            query.intersects().is_some()
        });
        match answer(&motions[0], &motions[1]) {
            Some(hit) => {
                assert!(sampled.is_none_or(|s| hit.time <= s), "case {case}: {} after {sampled:?}", hit.time);
                let (pose_a, pose_b) = (motions[0].pose_at(hit.time), motions[1].pose_at(hit.time));
                let moved_a: Vec<Triangle> = cube.triangles().map(|t| t.transformed(&pose_a)).collect();
                let moved_b: Vec<Triangle> = cube.triangles().map(|t| t.transformed(&pose_b)).collect();
                let gap = moved_a
                    .iter()
                    .flat_map(|ta| moved_b.iter().map(|tb| closest_points_triangles(ta, tb).distance))
                    .fold(Real::MAX, Real::min);
                assert!(gap <= tolerance + 1e-5, "case {case}: {gap} apart at the answer");
                hits += 1;
            }
            None => assert_eq!(sampled, None, "case {case}"),
        }
    }
    assert!(hits > 3, "{hits} hits");
}

/// A pin turning about its own axis in a round (ten-sided) hole of inner radius 0.4. A square
/// pin with its corners inside the hole's faces never touches, however far it turns. A flat pin
/// (half-widths 0.37 and 0.1) whose corners reach past the faces but not the hole's vertices
/// starts with one corner pointing at a vertex and the other 30.25° round, and meets a face when
/// that corner, turning towards the face's middle at −18°, is at `acos(apothem / r)` from it.
#[test]
fn a_pin_turning_in_a_hole() {
    use std::f64::consts::PI;
    let hole = tube(0.6, 0.4, 1.0, 10);
    let apothem = 0.4 * (PI / 10.0).cos();
    let tolerance = 1e-4;
    let turn = 1.2f64;
    let square = TriMesh::cuboid(Point::origin(), Vector::new(0.25, 0.25, 0.8));
    assert!(0.25 * std::f64::consts::SQRT_2 < apothem);
    let end = Isometry::rotation(Vector::new(0.0, 0.0, turn as Real));
    for interpolation in [Interpolation::Slerp, Interpolation::Screw] {
        let answer = co_impact(&hole, &square, &Isometry::identity(), &end, interpolation, tolerance);
        assert_eq!(answer, None, "{interpolation:?}");
    }
    let (w, h) = (0.37f64, 0.1f64);
    let (r, corner) = ((w * w + h * h).sqrt(), h.atan2(w));
    assert!(apothem < r && r < 0.4);
    let flat = TriMesh::cuboid(Point::origin(), Vector::new(w as Real, h as Real, 0.8));
    let start = Isometry::rotation(Vector::new(0.0, 0.0, -corner as Real));
    let end = Isometry::rotation(Vector::new(0.0, 0.0, (turn - corner) as Real));
    let exact = (2.0 * corner - 0.1 * PI - (apothem / r).acos()) / turn;
    for interpolation in [Interpolation::Slerp, Interpolation::Screw] {
        let impact = co_impact(&hole, &flat, &start, &end, interpolation, tolerance);
        // The corner approaches the face at about r sin(acos(apothem / r)) per radian.
        let early = 4.0 * tolerance as f64 / (r * (1.0 - (apothem / r).powi(2)).sqrt() * turn);
        let impact = check_against(impact, exact, early, "flat pin");
        let motion = RigidMotion::new(&start, &end, interpolation).unwrap();
        check_impact(&impact, &hole, &flat, &motion, tolerance, "flat pin");
    }
}
