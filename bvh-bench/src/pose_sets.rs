//! Pose sets for query benchmarks, made in Rust so a benchmark needs no generator script:
//! random poses calibrated to a colliding share, and a smooth path through a scene.

use bvh_build::Bvh;
use bvh_core::{Isometry, Obb, Point, Real, Rotation, Translation, Vector};
use bvh_query::{Posed, Query, QueryOptions};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// `n` random poses of `part` in `scene`'s frame, seeded: a uniform random rotation, and the
/// part's box centre uniform in a box around the scene's centre whose size is chosen (by
/// bisection on the exact first-contact query) so that about `colliding` of them touch.
pub fn random_poses(scene: &Bvh<Obb>, part: &Bvh<Obb>, n: usize, colliding: f64, seed: u64) -> Vec<Isometry> {
    let draw = |scale: Real| {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        (0..n).map(|_| random_pose(&mut rng, scene, part, scale)).collect::<Vec<_>>()
    };
    let share = |poses: &[Isometry]| {
        touching(scene, part, poses).iter().filter(|&&t| t).count() as f64 / poses.len().max(1) as f64
    };
    // A larger box puts more poses clear of the scene: the share falls as the scale grows.
    let (mut lo, mut hi) = (0.0 as Real, 2.0 as Real);
    for _ in 0..12 {
        let mid = 0.5 * (lo + hi);
        if share(&draw(mid)) > colliding { lo = mid } else { hi = mid }
    }
    draw(0.5 * (lo + hi))
}

/// Per pose, whether `part` placed there touches `scene` (the exact first-contact query).
pub fn touching(scene: &Bvh<Obb>, part: &Bvh<Obb>, poses: &[Isometry]) -> Vec<bool> {
    let here = Isometry::identity();
    poses
        .iter()
        .map(|pose| {
            let query = Query::new(Posed::new(scene, here), Posed::new(part, pose), QueryOptions::default());
            query.intersects().is_some()
        })
        .collect()
}

fn random_pose(rng: &mut impl Rng, scene: &Bvh<Obb>, part: &Bvh<Obb>, scale: Real) -> Isometry {
    let bounds = scene.node_box(0);
    let half = bounds.half_extents() * scale;
    let target = bounds.center() + Vector::from_fn(|i, _| rng.gen_range(-1.0..=1.0) * half[i]);
    // A uniform rotation: a normalised 4-D Gaussian as a quaternion.
    let q = nalgebra::Quaternion::new(gauss(rng), gauss(rng), gauss(rng), gauss(rng));
    let rotation = Rotation::from_quaternion(q);
    let centre = part.node_box(0).center();
    Isometry::from_parts(Translation::from(target - rotation * centre.coords), rotation)
}

/// A standard normal sample (Box–Muller).
fn gauss(rng: &mut impl Rng) -> Real {
    let u: Real = rng.gen_range(Real::EPSILON..1.0);
    let v: Real = rng.r#gen();
    (-2.0 * u.ln()).sqrt() * (std::f32::consts::TAU * v).cos() as Real
}

/// `n` poses moving `part` in a straight line through `scene`'s centre along its longest side,
/// from outside one end to outside the other, turning a quarter turn about the vertical.
pub fn path_through(scene: &Bvh<Obb>, part: &Bvh<Obb>, n: usize) -> Vec<Isometry> {
    let bounds = scene.node_box(0);
    let extents = bounds.extents();
    let axis = extents.imax();
    let reach = 0.5 * extents[axis] + part.node_box(0).extents().norm();
    let centre = part.node_box(0).center();
    (0..n)
        .map(|k| {
            let t = k as Real / n.saturating_sub(1).max(1) as Real;
            let mut target: Point = bounds.center();
            target[axis] += reach * (2.0 * t - 1.0);
            let rotation = Rotation::from_axis_angle(&Vector::z_axis(), std::f32::consts::FRAC_PI_2 * t);
            Isometry::from_parts(Translation::from(target - rotation * centre.coords), rotation)
        })
        .collect()
}
