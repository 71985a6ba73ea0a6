//! The fast construction ([`Construction::Binned`]): the tree's shape from binned
//! surface-area splits of the triangles' boxes in the object's frame, then every node's volume
//! fitted on the way back up, when its triangles have reached their final, contiguous places.
//!
//! Fitting a node top-down, before it is split, costs several passes over its triangles with a
//! principal-axes fit in each; fitted bottom-up, a node takes its axes from the few hull
//! samples its children pass up and needs one pass over its corners for the extents. Small
//! nodes, by far the most numerous, are not turned towards smaller boxes (their corners are few
//! enough for the samples' axes to fit them well). The result is the same whatever the thread
//! count: a node's triangles are divided sequentially and the tree is numbered afterwards.

use crate::build::{Draft, MAX_RULE_DEPTH, flatten};
use crate::bvh::Child;
use crate::fit::Samples;
use crate::preset::BuildConfig;
use crate::volume::NodeVolume;
use bvh_core::{Aabb, Point, Real, TriMesh, max, min};

/// Candidate planes per axis (bins − 1).
const BINS: usize = 16;

/// Nodes with at least this many triangles have their OBB's axes turned towards a smaller box.
const TURN_FROM: usize = 64;

/// A triangle as the shape pass sees it: its box and its index in the user's mesh.
#[derive(Clone, Copy)]
struct Item {
    lo: [Real; 3],
    index: u32,
    hi: [Real; 3],
}

impl Item {
    /// Twice the box centre along axis `d` (the halving cancels in every comparison).
    fn centre(&self, d: usize) -> Real {
        self.lo[d] + self.hi[d]
    }

    /// The box as [`Lanes`].
    fn lanes(&self) -> Lanes {
        let [x, y, z] = self.lo;
        let [u, v, w] = self.hi;
        [x, y, z, Real::INFINITY, -u, -v, -w, Real::INFINITY]
    }
}

/// The tree before numbering, its leaves' triangle order and all corners in that order.
pub(crate) struct Shaped<V> {
    pub(crate) order: Vec<u32>,
    pub(crate) corners: Vec<Point>,
    pub(crate) volumes: Vec<V>,
    pub(crate) children: Vec<[Child; 2]>,
}

/// Builds the tree over `mesh` (not empty).
pub(crate) fn shape<V: NodeVolume>(mesh: &TriMesh, config: &BuildConfig) -> Shaped<V> {
    let mut items: Vec<Item> = mesh
        .triangles()
        .enumerate()
        .map(|(i, t)| {
            let b = Aabb::from_points(&t.vertices());
            Item { lo: b.mins.into(), index: i as u32, hi: b.maxs.into() }
        })
        .collect();
    let mut spare = items.clone();
    let mut order = vec![0; items.len()];
    let mut corners = vec![Point::origin(); 3 * items.len()];
    let builder = Builder { mesh, config };
    let centres = centre_bounds(&items);
    let out = Out { order: &mut order, corners: &mut corners };
    let top = builder.node::<V>(&mut items, &mut spare, out, 0, centres, 0);
    let (mut volumes, mut children) = (Vec::new(), Vec::new());
    flatten(top.draft, &mut volumes, &mut children);
    Shaped { order, corners, volumes, children }
}

/// A subtree's share of the results: its leaves' triangle order and their corners.
struct Out<'a> {
    order: &'a mut [u32],
    corners: &'a mut [Point],
}

impl Out<'_> {
    /// The shares of the first `k` triangles and of the rest.
    fn split_at(&mut self, k: usize) -> (Out<'_>, Out<'_>) {
        let (order_l, order_r) = self.order.split_at_mut(k);
        let (corners_l, corners_r) = self.corners.split_at_mut(3 * k);
        (Out { order: order_l, corners: corners_l }, Out { order: order_r, corners: corners_r })
    }
}

/// A subtree on its way up: its draft, its corners' box and its hull samples (`None` when
/// its corners are few enough to be their own samples).
struct Fitted<V> {
    draft: Draft<V>,
    bounds: Aabb,
    samples: Option<Box<Samples>>,
}

struct Builder<'a> {
    mesh: &'a TriMesh,
    config: &'a BuildConfig,
}

impl Builder<'_> {
    /// The subtree over `items`, which sit at leaf-order positions from `first`; `spare` is
    /// as long, for the divided items; `centres` is the box of the items' centres (doubled).
    fn node<V: NodeVolume>(
        &self,
        items: &mut [Item],
        spare: &mut [Item],
        mut out: Out<'_>,
        first: u32,
        centres: [(Real, Real); 3],
        depth: usize,
    ) -> Fitted<V> {
        let len = items.len();
        // The top is a node even over a leaf's worth of triangles: a tree has nodes exactly
        // when it has triangles.
        if depth > 0 && len <= self.config.leaf_size.max(1) {
            return self.leaf(items, out, first);
        }
        let split = if depth < MAX_RULE_DEPTH { sah_split(items, spare, &centres) } else { None };
        let (k, left_centres, right_centres) = split.unwrap_or_else(|| halve(items, spare));
        // The divided items are in `spare` now: the children divide them back into `items`.
        let (left_items, right_items) = spare.split_at_mut(k);
        let (left_spare, right_spare) = items.split_at_mut(k);
        let (left_out, right_out) = out.split_at(k);
        let right_first = first + k as u32;
        let left = || self.node::<V>(left_items, left_spare, left_out, first, left_centres, depth + 1);
        let right =
            || self.node::<V>(right_items, right_spare, right_out, right_first, right_centres, depth + 1);
        let (left, right) = if len >= self.config.parallel_threshold {
            bvh_core::parallel::join(left, right)
        } else {
            (left(), right())
        };
        let corners = &*out.corners;
        let bounds = left.bounds.merged(&right.bounds);
        let samples = if left.samples.is_none() && right.samples.is_none() && corners.len() <= Samples::MAX {
            None
        } else {
            let (left_corners, right_corners) = corners.split_at(3 * k);
            let left_points = left.samples.as_deref().map_or(left_corners, Samples::points);
            let right_points = right.samples.as_deref().map_or(right_corners, Samples::points);
            Some(Box::new(Samples::of_both(left_points, right_points)))
        };
        let points = samples.as_deref().map_or(corners, Samples::points);
        let volume = V::fit_sampled(corners, &bounds, points, &self.config.fit, len >= TURN_FROM);
        Fitted { draft: Draft::Node(volume, Box::new([left.draft, right.draft])), bounds, samples }
    }

    /// A leaf: its triangles' order and corners written to their final places.
    fn leaf<V>(&self, items: &[Item], out: Out<'_>, first: u32) -> Fitted<V> {
        for ((item, order), corners) in
            items.iter().zip(out.order.iter_mut()).zip(out.corners.chunks_exact_mut(3))
        {
            *order = item.index;
            corners.copy_from_slice(&self.mesh.triangle(item.index as usize).vertices());
        }
        let samples = (out.corners.len() > Samples::MAX).then(|| Box::new(Samples::of(out.corners)));
        Fitted {
            draft: Draft::Leaf { first, count: items.len() as u32 },
            bounds: Aabb::from_points(&*out.corners),
            samples,
        }
    }
}

/// An empty interval of centres.
const EMPTY_CENTRES: (Real, Real) = (Real::INFINITY, Real::NEG_INFINITY);

/// Grows `bounds` to the item's centre.
fn take_centre(bounds: &mut [(Real, Real); 3], item: &Item) {
    for (d, (lo, hi)) in bounds.iter_mut().enumerate() {
        let c = item.centre(d);
        *lo = min(*lo, c);
        *hi = max(*hi, c);
    }
}

/// The box of the items' centres, per axis.
fn centre_bounds(items: &[Item]) -> [(Real, Real); 3] {
    let mut bounds = [EMPTY_CENTRES; 3];
    items.iter().for_each(|item| take_centre(&mut bounds, item));
    bounds
}

/// The axis on which the centres spread widest.
fn widest(centres: &[(Real, Real); 3]) -> usize {
    (0..3)
        .max_by(|&a, &b| (centres[a].1 - centres[a].0).total_cmp(&(centres[b].1 - centres[b].0)))
        .unwrap_or(0)
}

/// A box as eight lanes – minima, then negated maxima, a padding lane after each – so that
/// growing one is an element-wise minimum the compiler vectorises.
type Lanes = [Real; 8];

const EMPTY_LANES: Lanes = [Real::INFINITY; 8];

fn grow(acc: &mut Lanes, other: &Lanes) {
    for (a, &b) in acc.iter_mut().zip(other) {
        *a = min(*a, b);
    }
}

/// Half the surface area of the box (the factor cancels in the cost).
fn half_area(lanes: &Lanes) -> Real {
    let e: [Real; 3] = std::array::from_fn(|d| (-lanes[d + 4] - lanes[d]).max(0.0));
    e[0] * e[1] + e[1] * e[2] + e[2] * e[0]
}

/// Nodes with at most this many triangles sort their centres on each axis and try every
/// split (exact, and cheaper than clearing and sweeping the bins).
const SORTED_UP_TO: usize = 12;

/// A division of a node's items: how many go left and the centre boxes of both sides.
type Division = (usize, [(Real, Real); 3], [(Real, Real); 3]);

/// The split minimising the surface-area cost `A_l n_l + A_r n_r`: over `BINS` equal bins of
/// the centres along the axis on which they spread widest, or over every position on each axis
/// when the node is small. The divided items are written to `spare`, the left side's first;
/// `None` when the centres cannot be separated.
fn sah_split(items: &[Item], spare: &mut [Item], centres: &[(Real, Real); 3]) -> Option<Division> {
    if items.len() <= SORTED_UP_TO {
        return sorted_split(items, spare);
    }
    let d = widest(centres);
    let (lo, hi) = centres[d];
    let scale = BINS as Real / (hi - lo);
    if !(scale.is_finite() && scale > 0.0) {
        return None;
    }
    let bin = |item: &Item| (((item.centre(d) - lo) * scale) as usize).min(BINS - 1);
    let mut bins = [EMPTY_LANES; BINS];
    let mut counts = [0u32; BINS];
    for item in items {
        let b = bin(item);
        grow(&mut bins[b], &item.lanes());
        counts[b] += 1;
    }
    // Costs of every plane from the right, then swept from the left.
    let mut right_cost = [0.0; BINS];
    let (mut acc, mut count) = (EMPTY_LANES, 0);
    for j in (1..BINS).rev() {
        grow(&mut acc, &bins[j]);
        count += counts[j];
        right_cost[j] = half_area(&acc) * count as Real;
    }
    let mut best: Option<(Real, usize)> = None;
    let (mut acc, mut count) = (EMPTY_LANES, 0);
    for j in 1..BINS {
        grow(&mut acc, &bins[j - 1]);
        count += counts[j - 1];
        if count == 0 || count as usize == items.len() {
            continue;
        }
        let cost = half_area(&acc) * count as Real + right_cost[j];
        if best.is_none_or(|b| cost < b.0) {
            best = Some((cost, j));
        }
    }
    let (_, j) = best?;
    // Without branches (which side an item goes is a coin toss to the predictor): each item is
    // written at both cursors and only its side's cursor moves on.
    let (mut left, mut right) = (0, items.len());
    let mut sides = [[EMPTY_CENTRES; 3]; 2];
    for item in items {
        let goes_right = bin(item) >= j;
        spare[left] = *item;
        spare[right - 1] = *item;
        left += usize::from(!goes_right);
        right -= usize::from(goes_right);
        take_centre(&mut sides[usize::from(goes_right)], item);
    }
    Some((left, sides[0], sides[1]))
}

/// The exact surface-area split of a few items: their centres sorted on each axis and every
/// position tried; the result written to `spare` as [`sah_split`] does.
fn sorted_split(items: &[Item], spare: &mut [Item]) -> Option<Division> {
    let n = items.len();
    let mut orders = [[0u8; SORTED_UP_TO]; 3];
    let mut best: Option<(Real, usize, usize)> = None;
    for (d, order) in orders.iter_mut().enumerate() {
        let keys: [Real; SORTED_UP_TO] = std::array::from_fn(|i| items.get(i).map_or(0.0, |t| t.centre(d)));
        let order = &mut order[..n];
        // Insertion sort, ties by position: a handful of keys, the same order on every run.
        for i in 0..n {
            let mut at = i;
            while at > 0 && keys[order[at - 1] as usize] > keys[i] {
                order[at] = order[at - 1];
                at -= 1;
            }
            order[at] = i as u8;
        }
        let mut right_cost = [0.0; SORTED_UP_TO];
        let mut acc = EMPTY_LANES;
        for k in (1..n).rev() {
            grow(&mut acc, &items[order[k] as usize].lanes());
            right_cost[k] = half_area(&acc) * (n - k) as Real;
        }
        let mut acc = EMPTY_LANES;
        for k in 1..n {
            grow(&mut acc, &items[order[k - 1] as usize].lanes());
            // Equal centres stay on one side, as bins would keep them.
            if keys[order[k - 1] as usize] == keys[order[k] as usize] {
                continue;
            }
            let cost = half_area(&acc) * k as Real + right_cost[k];
            if best.is_none_or(|b| cost < b.0) {
                best = Some((cost, d, k));
            }
        }
    }
    let (_, d, k) = best?;
    let mut sides = [[EMPTY_CENTRES; 3]; 2];
    for (at, &i) in orders[d][..n].iter().enumerate() {
        spare[at] = items[i as usize];
        take_centre(&mut sides[usize::from(at >= k)], &items[i as usize]);
    }
    Some((k, sides[0], sides[1]))
}

/// Halves the items by count at the median centre on their widest axis (for centres no bin
/// separates, and below the depth where the split is no longer trusted), into `spare`.
fn halve(items: &[Item], spare: &mut [Item]) -> Division {
    spare.copy_from_slice(items);
    let d = widest(&centre_bounds(spare));
    let k = spare.len() / 2;
    spare.select_nth_unstable_by(k, |a, b| a.centre(d).total_cmp(&b.centre(d)).then(a.index.cmp(&b.index)));
    let (left, right) = spare.split_at(k);
    (k, centre_bounds(left), centre_bounds(right))
}
