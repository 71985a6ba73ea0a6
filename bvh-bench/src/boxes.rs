//! Moving-box scenes for broadphase measurements, shaped like the anchors' generator
//! (`../shared/anchors/broadphase/gen_scene.py`): boxes of side about 1 whose centres are uniform
//! in a cube of side `(4N)^(1/3)` (about one overlapping pair per box) or gathered in `N/200`
//! clusters; each step moves a fresh random subset, each box by up to 5 % of its size per axis.

use bvh_core::{Aabb, Point, Real, Vector};
use rand::seq::index::sample;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Where the boxes are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Uniform in the cube.
    Uniform,
    /// In Gaussian clusters of about 200 boxes.
    Clustered,
}

/// Boxes and the random source that moves them.
#[derive(Clone, Debug)]
pub struct BoxScene {
    centres: Vec<Point>,
    halves: Vec<Vector>,
    side: Real,
    rng: ChaCha8Rng,
}

impl BoxScene {
    /// `n` boxes, deterministic from the seed.
    pub fn new(layout: Layout, n: usize, seed: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let side = (4.0 * n as Real).cbrt();
        let halves = (0..n).map(|_| Vector::from_fn(|_, _| rng.gen_range(0.35..0.65))).collect();
        let centres = match layout {
            Layout::Uniform => {
                (0..n).map(|_| Point::from(Vector::from_fn(|_, _| rng.gen_range(0.0..side)))).collect()
            }
            Layout::Clustered => {
                let clusters: Vec<Point> = (0..(n / 200).max(1))
                    .map(|_| Point::from(Vector::from_fn(|_, _| rng.gen_range(0.1 * side..0.9 * side))))
                    .collect();
                (0..n)
                    .map(|_| {
                        let c = clusters[rng.gen_range(0..clusters.len())];
                        (c + Vector::from_fn(|_, _| spread(&mut rng))).map(|v| v.clamp(0.0, side))
                    })
                    .collect()
            }
        };
        Self { centres, halves, side, rng }
    }

    /// The cube the centres stay in.
    pub fn bounds(&self) -> Aabb {
        Aabb::new(Point::origin(), Point::new(self.side, self.side, self.side))
    }

    /// Number of boxes.
    pub fn len(&self) -> usize {
        self.centres.len()
    }

    /// `true` for no boxes.
    pub fn is_empty(&self) -> bool {
        self.centres.is_empty()
    }

    /// Box `i`.
    pub fn aabb(&self, i: usize) -> Aabb {
        Aabb::from_half_extents(self.centres[i], self.halves[i])
    }

    /// Every box.
    pub fn boxes(&self) -> Vec<Aabb> {
        (0..self.len()).map(|i| self.aabb(i)).collect()
    }

    /// Moves `max(1, round(fraction × N))` distinct boxes, chosen afresh, and returns them with
    /// their new boxes, by increasing index.
    pub fn step(&mut self, fraction: f64) -> Vec<(u32, Aabb)> {
        let n = self.len();
        let k = ((fraction * n as f64).round() as usize).clamp(1, n.max(1));
        let mut chosen = sample(&mut self.rng, n, k.min(n)).into_vec();
        chosen.sort_unstable();
        chosen
            .into_iter()
            .map(|i| {
                let reach = self.halves[i].mean() * 2.0 * 0.05;
                let shift = Vector::from_fn(|_, _| self.rng.gen_range(-reach..=reach));
                self.centres[i] = (self.centres[i] + shift).map(|v| v.clamp(0.0, self.side));
                (i as u32, self.aabb(i))
            })
            .collect()
    }
}

/// A bell-shaped offset (sum of four uniforms, standard deviation 1.77), spread so a 200-box
/// cluster gives each box about six neighbours, as the anchors' clusters do.
fn spread(rng: &mut ChaCha8Rng) -> Real {
    (0..4).map(|_| rng.gen_range(-1.0..1.0)).sum::<Real>() * 1.53
}
