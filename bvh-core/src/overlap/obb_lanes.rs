//! Four OBBs side by side, one per vector lane, tested against one placed box at once: a
//! node's four children (a wide tree's) meet the other tree's node in one pass of the 15 axes
//! instead of four, with no gathering, as each lane holds one box's numbers.

use super::obb_obb::{OBB_AXIS_PADDING, PlacedObb};
use crate::math::{Point, Real};
use crate::obb::Obb;
use wide::f32x4;

/// Four boxes, lane `k` holding box `k`; an empty lane meets nothing.
#[derive(Clone, Copy, Debug)]
pub struct ObbLanes {
    /// Coordinate `m` of each centre.
    center: [f32x4; 3],
    /// Component `m` of axis `i` of each box: `axes[m][i]`.
    axes: [[f32x4; 3]; 3],
    half_extents: [f32x4; 3],
    /// Bit `k` set when lane `k` holds a box.
    filled: u32,
}

impl ObbLanes {
    /// The boxes, lane by lane (`None`: an empty lane).
    pub fn new(boxes: [Option<&Obb>; 4]) -> Self {
        let pick = |value: &dyn Fn(&Obb) -> Real| f32x4::new(boxes.map(|b| b.map_or(0.0, value)));
        Self {
            center: std::array::from_fn(|m| pick(&|b| b.center[m])),
            axes: std::array::from_fn(|m| std::array::from_fn(|i| pick(&|b| b.axes[(m, i)]))),
            half_extents: std::array::from_fn(|m| pick(&|b| b.half_extents[m])),
            filled: (0..4).filter(|&k| boxes[k].is_some()).fold(0, |bits, k| bits | 1 << k),
        }
    }

    /// Which boxes, each grown by `margin`, meet `other` (placed in their frame): bit `k` for
    /// lane `k`. Each lane decides exactly as [`Obb::meets_with_margin`] does for its box, the
    /// same products summed in the same order.
    #[inline]
    pub fn meeting(&self, margin: Real, other: &PlacedObb) -> u32 {
        let fold = |separated: f32x4, distance: f32x4, radii| separated | distance.simd_gt(radii);
        let apart = |separated: f32x4| separated.to_bitmask() & self.filled == self.filled;
        !self.fold_axes(margin, other, fold, apart).to_bitmask() & self.filled
    }

    /// [`ObbLanes::meeting`], and for each lane a lower bound on the distance between its box,
    /// grown by `margin`, and `other`: [`Obb::gap`] of that box, bit for bit – zero for a box
    /// that meets it, or an empty lane. A search that keeps the boxes it finds apart gets their
    /// gaps from the test that found them apart, instead of a second pass of the 15 axes each.
    #[inline]
    pub fn meeting_gaps(&self, margin: Real, other: &PlacedObb) -> (u32, [Real; 4]) {
        let fold = |widest: f32x4, distance, radii| widest.fast_max(distance - radii);
        let widest = self.fold_axes(margin, other, fold, |_| false);
        // A gap is positive exactly where a distance exceeds its radii: the difference of two
        // finite numbers has the sign of their comparison.
        (!widest.simd_gt(f32x4::ZERO).to_bitmask() & self.filled, widest.to_array())
    }

    /// The 15 axes' comparisons between each lane's box, grown by `margin`, and `other`, folded
    /// from zero by `fold(acc, distance, radii)` in the order of [`Obb::meets_with_margin`]'s
    /// sums; after A's face axes the fold ends if `stop(acc)`.
    #[inline(always)]
    fn fold_axes(
        &self,
        margin: Real,
        other: &PlacedObb,
        fold: impl Fn(f32x4, f32x4, f32x4) -> f32x4,
        stop: impl Fn(f32x4) -> bool,
    ) -> f32x4 {
        let pad = f32x4::splat(OBB_AXIS_PADDING);
        let splat = |v: f32x4, k: usize| f32x4::splat(v.to_array()[k]);
        let b_axes = &other.axes;
        let bs = [0, 1, 2].map(|j| splat(other.half_extents, j));
        let a = self.half_extents.map(|e| e + f32x4::splat(margin));
        let rows = &self.axes;
        // c[i][j] = A_i · B_j and t[i] = A_i · (B's centre − A's), per lane.
        let c: [[f32x4; 3]; 3] = std::array::from_fn(|i| {
            std::array::from_fn(|j| {
                b_axes[0][j] * rows[0][i] + b_axes[1][j] * rows[1][i] + b_axes[2][j] * rows[2][i]
            })
        });
        let d: [f32x4; 3] = std::array::from_fn(|m| splat(other.center, m) - self.center[m]);
        let t: [f32x4; 3] =
            std::array::from_fn(|i| rows[0][i] * d[0] + rows[1][i] * d[1] + rows[2][i] * d[2]);
        let padded = c.map(|row| row.map(|x| x.abs() + pad));
        let mut acc = f32x4::ZERO;
        // A's face normals.
        for i in 0..3 {
            let radii = a[i] + bs[0] * padded[i][0] + bs[1] * padded[i][1] + bs[2] * padded[i][2];
            acc = fold(acc, t[i].abs(), radii);
        }
        if stop(acc) {
            return acc;
        }
        // B's face normals.
        for j in 0..3 {
            let distance = (c[0][j] * t[0] + c[1][j] * t[1] + c[2][j] * t[2]).abs();
            let radii = padded[0][j] * a[0] + padded[1][j] * a[1] + padded[2][j] * a[2] + bs[j];
            acc = fold(acc, distance, radii);
        }
        // Edge axes A_i × B_j.
        for i in 0..3 {
            let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
            for j in 0..3 {
                let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
                let distance = (t[i2] * c[i1][j] - t[i1] * c[i2][j]).abs();
                let ra = a[i1] * padded[i2][j] + a[i2] * padded[i1][j];
                let rb = bs[j1] * padded[i][j2] + bs[j2] * padded[i][j1];
                acc = fold(acc, distance, ra + rb);
            }
        }
        acc
    }

    /// Squared distances from each box's centre to `p` (lanes in the boxes' order).
    #[inline]
    pub fn center_distances_sq(&self, p: &Point) -> [Real; 4] {
        let d: [f32x4; 3] = std::array::from_fn(|m| self.center[m] - f32x4::splat(p[m]));
        (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).to_array()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Isometry, RelativePose, Vector};
    use crate::overlap::random_obb;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Every lane's verdict is the scalar test's, and every lane's gap the scalar gap's, bit for
    /// bit, over boxes that mostly nearly touch, with and without a margin; empty lanes never
    /// meet and lie zero apart.
    #[test]
    fn each_lane_decides_as_the_scalar_test() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let (mut met, mut missed) = (0, 0);
        for round in 0..20_000 {
            let scale = [0.01, 1.0, 300.0][round % 3];
            let boxes: [Obb; 4] = std::array::from_fn(|_| random_obb(&mut rng, scale));
            let empty = rng.gen_range(0..5);
            let lanes = ObbLanes::new(std::array::from_fn(|k| (k != empty).then_some(&boxes[k])));
            let other = random_obb(&mut rng, scale);
            let pose = RelativePose::from(&Isometry::new(
                Vector::new(rng.r#gen(), rng.r#gen(), rng.r#gen()) * scale,
                Vector::new(rng.r#gen(), rng.r#gen(), rng.r#gen()) * 3.0,
            ));
            let placed = PlacedObb::new(&other, &pose);
            let margin = if round % 2 == 0 { 0.0 } else { 0.05 * scale };
            let mask = lanes.meeting(margin, &placed);
            let (gaps_mask, gaps) = lanes.meeting_gaps(margin, &placed);
            assert_eq!(gaps_mask, mask, "round {round}");
            for (k, obb) in boxes.iter().enumerate() {
                let expected = k != empty && obb.meets_with_margin(&placed, margin);
                assert_eq!(mask >> k & 1 == 1, expected, "round {round}, lane {k}");
                let grown = Obb { half_extents: obb.half_extents.add_scalar(margin), ..*obb };
                let gap = if k == empty { 0.0 } else { grown.gap(&placed) };
                assert_eq!(gaps[k].to_bits(), gap.to_bits(), "round {round}, lane {k}");
                if k != empty {
                    if expected { met += 1 } else { missed += 1 }
                }
            }
        }
        assert!(met > 5_000 && missed > 5_000, "met {met}, missed {missed}");
    }

    /// The centres' squared distances, lane by lane.
    #[test]
    fn centre_distances_follow_the_lanes() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let boxes: [Obb; 4] = std::array::from_fn(|_| random_obb(&mut rng, 1.0));
        let lanes = ObbLanes::new(boxes.each_ref().map(Some));
        let p = Point::new(0.3, -0.2, 0.7);
        let got = lanes.center_distances_sq(&p);
        for (got, obb) in got.iter().zip(&boxes) {
            assert!((got - (obb.center - p).norm_squared()).abs() < 1e-5);
        }
    }
}
