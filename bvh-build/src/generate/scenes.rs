//! Paper 000's two maintenance scenes, rebuilt with the same triangle counts (the aircraft
//! models are not public): a bay of 149,941 triangles holding an accumulator of 8,701, and a
//! bay of 497,805 holding a power-transfer unit (PTU) of 33,826. Each bay is an open-topped
//! enclosure of panels with lightening holes, filled with pipes, flanges, hose loops, brackets,
//! boxes and tanks, leaving a pocket for the part and a corridor above it to pull it out
//! through; a few pipes run a few millimetres beside the pocket so extraction grazes them.
//! Units are metres; `z` is up.

use super::parts::{MeshBuilder, bracket, capped_cylinder, flange, panel_with_holes, ribbon, torus, tube};
use super::random::SplitMix;
use bvh_core::{Aabb, Isometry, Point, Real, TriMesh, Vector};
use std::f32::consts::{FRAC_PI_2, PI};

/// A bay, the part installed in it, and the way out.
#[derive(Clone, Debug)]
pub struct MaintenanceScene {
    /// Name of the maintenance task.
    pub name: &'static str,
    /// The static scene.
    pub bay: TriMesh,
    /// The part to remove, in its own frame.
    pub part: TriMesh,
    /// Where the part sits in the bay.
    pub installed: Isometry,
    /// Unit direction in which the part is pulled out.
    pub exit: Vector,
}

impl MaintenanceScene {
    /// The part's poses over `frames` frames of its removal: up and out along the exit, swaying
    /// sideways towards the pipe beside the corridor so that it grazes it on the way.
    pub fn extraction_path(&self, frames: usize) -> Vec<Isometry> {
        let height = self.part.aabb().extents().z + 0.1;
        (0..frames)
            .map(|k| {
                let t = k as Real / frames.saturating_sub(1).max(1) as Real;
                let sway = 0.045 * (PI * t).sin();
                let lift = self.exit * (height * t);
                Isometry::translation(sway + lift.x, lift.y, lift.z) * self.installed
            })
            .collect()
    }
}

/// Paper 000's first task: the accumulator (8,701 triangles) in a bay of 149,941.
pub fn accumulator_bay(seed: u64) -> MaintenanceScene {
    let part = exactly(accumulator(), 8_701);
    scene("remove accumulator", part, 149_941, Vector::new(2.0, 1.5, 1.2), seed)
}

/// Paper 000's second task: the PTU (33,826 triangles) in a bay of 497,805.
pub fn ptu_bay(seed: u64) -> MaintenanceScene {
    let part = exactly(ptu(), 33_826);
    scene("remove PTU", part, 497_805, Vector::new(3.2, 2.6, 2.0), seed)
}

/// An accumulator: a cylindrical vessel with end flanges, ports, a strap and mounting brackets.
fn accumulator() -> MeshBuilder {
    let mut b = MeshBuilder::new();
    let at = |x: Real, y: Real, z: Real| Isometry::translation(x, y, z);
    b.add(&capped_cylinder(0.09, 0.5, 64, 40), &Isometry::identity());
    b.add(&flange(0.11, 0.09, 0.02, 64), &at(0.0, 0.0, 0.0));
    b.add(&flange(0.11, 0.09, 0.02, 64), &at(0.0, 0.0, 0.48));
    b.add(&tube(0.02, 0.015, 0.08, 24), &at(0.0, 0.0, 0.5));
    b.add(
        &tube(0.02, 0.015, 0.08, 24),
        &Isometry::new(Vector::new(0.09, 0.0, 0.3), Vector::new(0.0, FRAC_PI_2, 0.0)),
    );
    b.add(&torus(0.092, 0.006, 64, 12), &at(0.0, 0.0, 0.25));
    b.add(&bracket(0.08, 0.008, 0.05), &at(0.09, 0.0, 0.0));
    b.add(
        &bracket(0.08, 0.008, 0.05),
        &Isometry::new(Vector::new(-0.09, 0.0, 0.0), Vector::new(0.0, 0.0, PI)),
    );
    b
}

/// A PTU: motor and pump bodies joined by flanges, cooling fins, ports and mounting brackets.
fn ptu() -> MeshBuilder {
    let mut b = MeshBuilder::new();
    let at = |x: Real, y: Real, z: Real| Isometry::translation(x, y, z);
    b.add(&capped_cylinder(0.12, 0.35, 96, 60), &Isometry::identity());
    b.add(&capped_cylinder(0.09, 0.25, 96, 40), &at(0.0, 0.0, 0.38));
    for z in [0.0, 0.35, 0.6] {
        b.add(&flange(0.15, 0.12, 0.03, 96), &at(0.0, 0.0, z));
    }
    for k in 0..8 {
        b.add(&torus(0.125, 0.008, 96, 6), &at(0.0, 0.0, 0.04 + 0.038 * k as Real));
    }
    for (k, side) in [1.0, -1.0, 1.0, -1.0].into_iter().enumerate() {
        let pose = Isometry::new(
            Vector::new(side * 0.12, 0.0, 0.05 + 0.2 * k as Real),
            Vector::new(0.0, side * FRAC_PI_2, 0.0),
        );
        b.add(&tube(0.03, 0.025, 0.12, 32), &pose);
        b.add(
            &bracket(0.1, 0.01, 0.06),
            &Isometry::new(Vector::new(side * 0.12, 0.05, 0.0), Vector::new(0.0, 0.0, k as Real)),
        );
    }
    b
}

/// The builder's mesh topped up to exactly `target` triangles with a thin ribbon along its
/// bottom.
pub(super) fn exactly(mut b: MeshBuilder, target: usize) -> TriMesh {
    let missing = target.saturating_sub(b.triangle_count()) as u32;
    b.add(&ribbon(missing, 0.1, 0.01), &Isometry::translation(-0.05, -0.005, -0.01));
    b.finish()
}

fn scene(
    name: &'static str,
    part: TriMesh,
    bay_triangles: usize,
    size: Vector,
    seed: u64,
) -> MaintenanceScene {
    let part_box = part.aabb();
    // Stand the part on the floor in the middle of the bay.
    let installed = Isometry::translation(size.x / 2.0, size.y / 2.0, 0.03 - part_box.mins.z);
    let pocket = part_box.transformed(&installed).inflated(0.02);
    // The pocket and the corridor above it to the open top stay free.
    let keep_out = Aabb::new(pocket.mins, Point::new(pocket.maxs.x, pocket.maxs.y, size.z + 1.0));
    let interior = Aabb::new(Point::origin(), Point::from(size));
    let mut rng = SplitMix(seed ^ bay_triangles as u64);
    let mut bay = MeshBuilder::new();
    enclosure(&mut bay, &size);
    grazing_pipes(&mut bay, &keep_out, size.z);
    // Keep room for the strap that brings the count to exactly `bay_triangles`.
    let budget = bay_triangles.saturating_sub(512);
    let mut attempts = 0;
    while bay.triangle_count() < budget && attempts < 100_000 {
        attempts += 1;
        let (mesh, pose) = random_part(&mut rng, &size);
        if bay.triangle_count() + mesh.triangle_count() > budget {
            continue;
        }
        let placed = mesh.aabb().transformed(&pose);
        if interior.contains(&placed) && !placed.intersects(&keep_out) {
            bay.add(&mesh, &pose);
        }
    }
    let missing = bay_triangles.saturating_sub(bay.triangle_count()) as u32;
    bay.add(&ribbon(missing, size.x * 0.8, 0.02), &Isometry::translation(size.x * 0.1, 0.05, 0.011));
    MaintenanceScene { name, bay: bay.finish(), part, installed, exit: Vector::z() }
}

/// Floor and four walls of panels with a pattern of lightening holes; the top stays open.
fn enclosure(b: &mut MeshBuilder, size: &Vector) {
    let cell = 0.05;
    let thickness = 0.01;
    let holes = |i: u32, j: u32| i % 4 == 2 && j % 4 == 2;
    let cells = |len: Real| (len / cell).round() as u32;
    let wall = |w: Real, h: Real| panel_with_holes(cells(w), cells(h), cell, thickness, holes);
    let tilt = std::f32::consts::FRAC_PI_2;
    b.add(&wall(size.x, size.y), &Isometry::translation(0.0, 0.0, -thickness));
    b.add(&wall(size.x, size.z), &Isometry::new(Vector::new(0.0, 0.0, 0.0), Vector::new(tilt, 0.0, 0.0)));
    b.add(
        &wall(size.x, size.z),
        &Isometry::new(Vector::new(0.0, size.y + thickness, 0.0), Vector::new(tilt, 0.0, 0.0)),
    );
    b.add(&wall(size.z, size.y), &Isometry::new(Vector::new(0.0, 0.0, 0.0), Vector::new(0.0, -tilt, 0.0)));
    b.add(
        &wall(size.z, size.y),
        &Isometry::new(Vector::new(size.x + thickness, 0.0, 0.0), Vector::new(0.0, -tilt, 0.0)),
    );
}

/// Vertical pipes 5 mm outside two sides of the corridor: extraction passes close by them.
fn grazing_pipes(b: &mut MeshBuilder, keep_out: &Aabb, height: Real) {
    let r = 0.02;
    let gap = 0.005;
    let pipe = tube(r, r * 0.8, height, 24);
    let c = keep_out.center();
    b.add(&pipe, &Isometry::translation(keep_out.maxs.x + gap + r, c.y, 0.0));
    b.add(&pipe, &Isometry::translation(c.x, keep_out.mins.y - gap - r, 0.0));
}

/// One random machine part somewhere inside the bay.
fn random_part(rng: &mut SplitMix, size: &Vector) -> (TriMesh, Isometry) {
    let position = Vector::new(
        rng.range(0.05, size.x - 0.05),
        rng.range(0.05, size.y - 0.05),
        rng.range(0.02, size.z - 0.1),
    );
    let axis_turn = [
        Vector::zeros(),
        Vector::new(std::f32::consts::FRAC_PI_2, 0.0, 0.0),
        Vector::new(0.0, std::f32::consts::FRAC_PI_2, 0.0),
    ];
    let turn = axis_turn[rng.below(3)];
    let segments = [12, 16, 24, 32][rng.below(4)];
    let mesh = match rng.below(7) {
        0 | 1 => {
            let r = rng.range(0.008, 0.04);
            tube(r, r * 0.8, rng.range(0.2, 1.2), segments)
        }
        2 => {
            let r = rng.range(0.02, 0.06);
            flange(r * 1.6, r, rng.range(0.008, 0.02), segments)
        }
        3 => torus(rng.range(0.05, 0.15), rng.range(0.005, 0.015), 2 * segments, segments / 2),
        4 => bracket(rng.range(0.04, 0.12), rng.range(0.004, 0.01), rng.range(0.02, 0.06)),
        5 => TriMesh::cuboid(
            Point::origin(),
            Vector::new(rng.range(0.03, 0.15), rng.range(0.03, 0.15), rng.range(0.03, 0.1)),
        ),
        _ => TriMesh::uv_sphere(Point::origin(), rng.range(0.03, 0.1), segments / 2, segments),
    };
    (mesh, Isometry::new(position, turn))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scenes_have_the_papers_triangle_counts_and_a_free_pocket() {
        let s = accumulator_bay(1);
        assert_eq!(s.bay.triangle_count(), 149_941);
        assert_eq!(s.part.triangle_count(), 8_701);
        let installed = s.part.aabb().transformed(&s.installed);
        // Nothing of the bay inside the installed part's box except the grazing pipes' 5 mm gap.
        assert!(s.bay.triangles().all(|t| !t.aabb().intersects(&installed)));
        let bounds = s.bay.aabb();
        let size = Vector::new(2.0, 1.5, 1.2);
        assert!(
            bounds.mins.iter().all(|&c| c > -0.05) && (0..3).all(|i| bounds.maxs[i] < size[i] + 0.05),
            "{bounds:?}"
        );
        // Deterministic.
        assert_eq!(accumulator_bay(1).bay, s.bay);
        assert_ne!(accumulator_bay(2).bay, s.bay);
    }

    #[test]
    #[ignore = "builds half a million triangles: cargo test -p bvh-build --release -- --ignored"]
    fn ptu_scene_counts() {
        let s = ptu_bay(1);
        assert_eq!(s.bay.triangle_count(), 497_805);
        assert_eq!(s.part.triangle_count(), 33_826);
    }
}
