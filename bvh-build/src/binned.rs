//! The fast construction ([`Construction::Binned`]): the tree's shape from binned
//! surface-area splits of the triangles' boxes in the object's frame, then every node's volume
//! fitted on the way back up, when its triangles have reached their final, contiguous places.
//!
//! Fitting a node top-down, before it is split, costs several passes over its triangles with a
//! principal-axes fit in each; fitted bottom-up, a node takes its axes from the few hull
//! samples its children pass up and needs one pass over its corner points for the extents
//! (each leaf lists its own once, however many of its triangles share one). Small
//! nodes, by far the most numerous, are not turned towards smaller boxes (their corners are few
//! enough for the samples' axes to fit them well). The result is the same whatever the thread
//! count: a node's triangles are divided sequentially and its subtrees are numbered in one
//! order however they were shared out (`numbering`).

use crate::bins::{Span, bin_of};
use crate::build::MAX_RULE_DEPTH;
use crate::bvh::{Child, ChildRef};
use crate::fit::Samples;
use crate::numbering::{Numbered, Part};
use crate::preset::BuildConfig;
use crate::volume::{FittedChild, NodeVolume};
use bvh_core::parallel::prelude::*;
use bvh_core::{Aabb, Point, Real, TriMesh, Triangle, max, min};

/// Candidate planes per axis (bins − 1).
const BINS: usize = 16;

/// Nodes with at least this many triangles have their OBB's axes turned towards a smaller box.
const TURN_FROM: usize = 64;

/// Nodes with at least this many triangles try their child nodes' axes too
/// ([`NodeVolume::or_on_children_axes`]): the few large nodes, which every query tests, gain
/// most, and the many small ones would cost the most.
const CHILD_AXES_FROM: usize = 256;

/// A triangle as the shape pass sees it: its box and its index in the user's mesh, laid out
/// as two aligned lanes of four, so that its box loads in two instructions and it moves as two.
#[derive(Clone, Copy, bytemuck::Zeroable)]
#[repr(C, align(16))]
struct Item {
    lo: [Real; 3],
    index: u32,
    hi: [Real; 3],
    padding: u32,
}

impl Item {
    /// Twice the box centre along axis `d` (the halving cancels in every comparison).
    fn centre(&self, d: usize) -> Real {
        self.lo[d] + self.hi[d]
    }

    /// The box as a [`Span`].
    fn span(&self) -> Span {
        let [x, y, z] = self.lo;
        let [u, v, w] = self.hi;
        // The fourth lanes, which a span leaves unused, carry whatever follows the corners.
        Span::from_lanes([x, y, z, f32::from_bits(self.index)], [u, v, w, f32::from_bits(self.padding)])
    }
}

/// The tree, its leaves' triangle order and the triangles in that order.
pub(crate) struct Shaped<V> {
    pub(crate) order: Vec<u32>,
    pub(crate) triangles: Vec<Triangle>,
    pub(crate) nodes: Numbered<V>,
}

/// Builds the tree over `mesh` (not empty).
pub(crate) fn shape<V: NodeVolume>(mesh: &TriMesh, config: &BuildConfig) -> Shaped<V> {
    let mut items: Vec<Item> = (0..mesh.triangle_count())
        .into_par_iter()
        .map(|i| {
            let b = Aabb::from_points(&mesh.triangle(i).vertices());
            Item { lo: b.mins.into(), index: i as u32, hi: b.maxs.into(), padding: 0 }
        })
        .collect();
    // Zeroed by the allocator, not written here: the first division or leaf to reach a place
    // writes it, on whichever thread builds that part of the tree.
    let mut spare: Vec<Item> = bytemuck::zeroed_vec(items.len());
    let mut bins = vec![0; items.len()];
    let mut order = vec![0; items.len()];
    let mut triangles: Vec<Triangle> = bytemuck::zeroed_vec(items.len());
    let mut points: Vec<Point> = bytemuck::zeroed_vec(3 * items.len());
    let centres = centre_bounds(&items);
    let share = Share {
        items: &mut items,
        spare: &mut spare,
        bins: &mut bins,
        order: &mut order,
        corners: bytemuck::cast_slice_mut(&mut triangles),
        first: 0,
        centres,
    };
    let (_, top) = Builder { mesh, config }.part::<V>(share, &mut points, 0);
    Shaped { order, triangles, nodes: top.number() }
}

/// A subtree's share of the work: its items (a buffer as long to divide them into, and one
/// for their bins), where its triangles' order and corners go, the leaf-order position of its
/// first triangle, and the box of its items' centres (doubled).
struct Share<'a> {
    items: &'a mut [Item],
    spare: &'a mut [Item],
    bins: &'a mut [u8],
    order: &'a mut [u32],
    corners: &'a mut [Point],
    first: u32,
    centres: [(Real, Real); 3],
}

impl Share<'_> {
    fn len(&self) -> usize {
        self.items.len()
    }

    /// Divides the items and returns the shares of the two sides (a large node's in chunks on
    /// several threads when `in_parallel`).
    fn divide(&mut self, depth: usize, in_parallel: bool) -> [Share<'_>; 2] {
        let split = if depth < MAX_RULE_DEPTH {
            sah_split(self.items, self.spare, self.bins, &self.centres, in_parallel)
        } else {
            None
        };
        let (k, left_centres, right_centres) = split.unwrap_or_else(|| halve(self.items, self.spare));
        // The divided items are in `spare` now: the sides divide them back into `items`.
        let (left_items, right_items) = self.spare.split_at_mut(k);
        let (left_spare, right_spare) = self.items.split_at_mut(k);
        let (left_bins, right_bins) = self.bins.split_at_mut(k);
        let (left_order, right_order) = self.order.split_at_mut(k);
        let (left_corners, right_corners) = self.corners.split_at_mut(3 * k);
        [
            Share {
                items: left_items,
                spare: left_spare,
                bins: left_bins,
                order: left_order,
                corners: left_corners,
                first: self.first,
                centres: left_centres,
            },
            Share {
                items: right_items,
                spare: right_spare,
                bins: right_bins,
                order: right_order,
                corners: right_corners,
                first: self.first + k as u32,
                centres: right_centres,
            },
        ]
    }
}

/// What a subtree passes up: its corners' box, its hull samples (`None` when its corners
/// are few enough to be their own samples), its volume (`None` for a leaf), and how many
/// points its leaves wrote (their corners, each vertex once per leaf).
struct Fitted<V> {
    bounds: Aabb,
    samples: Option<Box<Samples>>,
    volume: Option<V>,
    points: usize,
}

impl<V: Copy> Fitted<V> {
    /// The subtree over `corners`, whose leaves wrote `points`, as its parent's fit sees it.
    fn as_child<'a>(&'a self, corners: &'a [Point], points: &'a [Point]) -> FittedChild<'a, V> {
        let samples = self.samples.as_deref().map_or(corners, Samples::points);
        FittedChild { volume: self.volume, points, samples }
    }
}

struct Builder<'a> {
    mesh: &'a TriMesh,
    config: &'a BuildConfig,
}

impl Builder<'_> {
    /// The subtree over a share, its leaves' points written from the start of `points` (as
    /// long as its corners): built on this thread and numbered as built below the parallel
    /// threshold, its two sides on two threads above it.
    fn part<V: NodeVolume>(
        &self,
        mut share: Share<'_>,
        points: &mut [Point],
        depth: usize,
    ) -> (Fitted<V>, Part<V>) {
        if share.len() < self.config.parallel_threshold {
            let mut nodes = Numbered::with_top();
            let fitted = self.node(share, points, depth, 0, &mut nodes);
            return (fitted, Part::Numbered(nodes));
        }
        let [left, right] = share.divide(depth, true);
        let k = left.len();
        let side = |share: Share<'_>, points: &mut [Point]| {
            if self.config.is_leaf(share.len()) {
                let (first, count) = (share.first, share.len() as u32);
                (self.leaf(share, points), Part::Leaf { first, count })
            } else {
                self.part(share, points, depth + 1)
            }
        };
        let (left_points, right_points) = points.split_at_mut(3 * k);
        let ((left, left_part), (right, right_part)) =
            bvh_core::parallel::join(|| side(left, left_points), || side(right, right_points));
        // The right side's points moved up to follow the left's, as the sequential build
        // writes them.
        points.copy_within(3 * k..3 * k + right.points, left.points);
        let (volume, fitted) = self.fit(share.corners, k, points, left, right);
        (fitted, Part::Node(volume, Box::new([left_part, right_part])))
    }

    /// Writes the node over a share at place `at` of `nodes`, and its subtrees after it; its
    /// leaves' points from the start of `points`, each side's after the last side's.
    fn node<V: NodeVolume>(
        &self,
        mut share: Share<'_>,
        points: &mut [Point],
        depth: usize,
        at: usize,
        nodes: &mut Numbered<V>,
    ) -> Fitted<V> {
        let sides = share.divide(depth, false);
        let k = sides[0].len();
        let firsts = sides.each_ref().map(|side| side.first);
        let counts = sides.each_ref().map(Share::len);
        let children = nodes.place_children(firsts, counts, self.config);
        let mut side = |share, points: &mut [Point], child: Child| match child.get() {
            ChildRef::Node(place) => self.node(share, points, depth + 1, place, nodes),
            ChildRef::Leaf(_) => self.leaf(share, points),
        };
        let [left, right] = sides;
        let left = side(left, points, children[0]);
        let right = side(right, &mut points[left.points..], children[1]);
        let (volume, fitted) = self.fit(share.corners, k, points, left, right);
        nodes.set(at, volume, children);
        fitted
    }

    /// A node's volume from its children's boxes, samples and points (the first child's
    /// corners are the first `3 k` of `corners`, its points the first of `points`, the second
    /// child's follow), and what it passes up.
    fn fit<V: NodeVolume>(
        &self,
        corners: &[Point],
        k: usize,
        points: &[Point],
        left: Fitted<V>,
        right: Fitted<V>,
    ) -> (V, Fitted<V>) {
        let bounds = left.bounds.merged(&right.bounds);
        let (left_corners, right_corners) = corners.split_at(3 * k);
        let points = &points[..left.points + right.points];
        let (left_points, right_points) = points.split_at(left.points);
        let children =
            [left.as_child(left_corners, left_points), right.as_child(right_corners, right_points)];
        let samples = if left.samples.is_none() && right.samples.is_none() && corners.len() <= Samples::MAX {
            None
        } else {
            Some(Box::new(Samples::of_both(children[0].samples, children[1].samples, &bounds)))
        };
        let sampled = samples.as_deref().map_or(corners, Samples::points);
        let triangles = corners.len() / 3;
        let mut volume = V::fit_sampled(points, &bounds, sampled, &self.config.fit, triangles >= TURN_FROM);
        if triangles >= CHILD_AXES_FROM {
            volume = volume.or_on_children_axes(children);
        }
        (volume, Fitted { bounds, samples, volume: Some(volume), points: points.len() })
    }

    /// A leaf: its triangles' order and corners written to their final places, and its corner
    /// points, each vertex once, to the start of `points`. A vertex is shared by about six
    /// triangles, several of them in one leaf: every node above projects these points for its
    /// extents, instead of every corner.
    fn leaf<V>(&self, share: Share<'_>, points: &mut [Point]) -> Fitted<V> {
        let (vertices, indices) = (self.mesh.vertices(), self.mesh.indices());
        let mut seen = [0; DISTINCT_UP_TO];
        let mut count = 0;
        // The items' boxes are their corners' boxes: their union is the leaf's.
        let mut bounds = Span::EMPTY;
        for ((item, order), corners) in
            share.items.iter().zip(share.order.iter_mut()).zip(share.corners.chunks_exact_mut(3))
        {
            *order = item.index;
            bounds.grow(&item.span());
            for (corner, &v) in corners.iter_mut().zip(&indices[item.index as usize]) {
                *corner = vertices[v as usize];
                if count < DISTINCT_UP_TO {
                    if seen[..count].contains(&v) {
                        continue;
                    }
                    seen[count] = v;
                }
                points[count] = *corner;
                count += 1;
            }
        }
        let samples = (share.corners.len() > Samples::MAX).then(|| Box::new(Samples::of(share.corners)));
        Fitted { bounds: bounds.to_aabb(), samples, volume: None, points: count }
    }
}

/// Points of a leaf checked for repeats: past them (in leaves far larger than any preset's)
/// the rest are written as they come, repeats and all, which changes no extent.
const DISTINCT_UP_TO: usize = 48;

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

/// Nodes with at most this many triangles sort their centres along the widest spread and try
/// every split there (exact, and cheaper than clearing and sweeping the bins; the other two
/// axes, many more of the build's steps, saved the queries next to nothing).
const SORTED_UP_TO: usize = 12;

/// A division of a node's items: how many go left and the centre boxes of both sides.
type Division = (usize, [(Real, Real); 3], [(Real, Real); 3]);

/// Items a chunk of a parallel division holds: nodes with more are binned and partitioned in
/// chunks on several threads (when built above the parallel threshold), so that the top of the
/// tree is not divided on one thread while the others wait.
const CHUNK: usize = 1 << 15;

/// The items of a node (or of a chunk of one) by bin: per bin, the items' boxes, their centres'
/// box (which gives each side's without another pass) and their count.
struct Binned {
    boxes: [Span; BINS],
    centre_boxes: [Span; BINS],
    counts: [u32; BINS],
}

impl Binned {
    const EMPTY: Self =
        Self { boxes: [Span::EMPTY; BINS], centre_boxes: [Span::EMPTY; BINS], counts: [0; BINS] };

    /// Bins `items` into `BINS` equal bins of their centres along axis `d` from `lo`, `scale`
    /// bins per unit, and writes each item's bin to `bins`.
    fn of(items: &[Item], bins: &mut [u8], d: usize, lo: Real, scale: Real) -> Self {
        let mut binned = Self::EMPTY;
        binned.take(items, bins, d, lo, scale);
        binned
    }

    /// Adds `items` to the bins as [`Binned::of`] bins them (in place: the bins are large
    /// enough that moving them costs as much as taking a small node's items).
    fn take(&mut self, items: &[Item], bins: &mut [u8], d: usize, lo: Real, scale: Real) {
        for (item, bin) in items.iter().zip(bins.iter_mut()) {
            let span = item.span();
            let centre = span.doubled_centre();
            let b = bin_of(centre.as_array()[d] - lo, scale, BINS);
            *bin = b as u8;
            self.boxes[b].grow(&span);
            self.centre_boxes[b].grow(&Span::at(centre));
            self.counts[b] += 1;
        }
    }

    /// Adds the bins of other items (exact: boxes and counts do not depend on the order).
    fn merge(&mut self, other: &Self) {
        for b in 0..BINS {
            self.boxes[b].grow(&other.boxes[b]);
            self.centre_boxes[b].grow(&other.centre_boxes[b]);
            self.counts[b] += other.counts[b];
        }
    }

    /// How many items lie in the bins below `j`.
    fn below(&self, j: usize) -> usize {
        self.counts[..j].iter().map(|&c| c as usize).sum()
    }
}

/// The split minimising the surface-area cost `A_l n_l + A_r n_r`: over `BINS` equal bins of
/// the centres along the axis on which they spread widest, or over every position along it when
/// the node is small. The divided items are written to `spare`, the left side's first and
/// the right side's from the end (`bins` keeps each item's bin between the two passes); `None`
/// when the centres cannot be separated. With `in_parallel`, a large node's passes run in
/// chunks on several threads, with the same result.
fn sah_split(
    items: &[Item],
    spare: &mut [Item],
    bins: &mut [u8],
    centres: &[(Real, Real); 3],
    in_parallel: bool,
) -> Option<Division> {
    let d = widest(centres);
    if items.len() <= SORTED_UP_TO {
        return sorted_split(items, spare, d);
    }
    let (lo, hi) = centres[d];
    let scale = BINS as Real / (hi - lo);
    if !(scale.is_finite() && scale > 0.0) {
        return None;
    }
    let chunks: Vec<Binned> = if in_parallel && items.len() > 2 * CHUNK {
        items
            .par_chunks(CHUNK)
            .zip(bins.par_chunks_mut(CHUNK))
            .map(|(i, b)| Binned::of(i, b, d, lo, scale))
            .collect()
    } else {
        Vec::new()
    };
    let mut binned = Binned::EMPTY;
    if chunks.is_empty() {
        binned.take(items, bins, d, lo, scale);
    } else {
        chunks.iter().for_each(|chunk| binned.merge(chunk));
    }
    // Costs of every plane from the right, then swept from the left.
    let mut right_cost = [0.0; BINS];
    let (mut acc, mut count) = (Span::EMPTY, 0);
    for j in (1..BINS).rev() {
        acc.grow(&binned.boxes[j]);
        count += binned.counts[j];
        right_cost[j] = acc.half_area() * count as Real;
    }
    let mut best: Option<(Real, usize)> = None;
    let (mut acc, mut count) = (Span::EMPTY, 0);
    for (j, right) in right_cost.iter().enumerate().skip(1) {
        acc.grow(&binned.boxes[j - 1]);
        count += binned.counts[j - 1];
        if count == 0 || count as usize == items.len() {
            continue;
        }
        let cost = acc.half_area() * count as Real + right;
        if best.is_none_or(|b| cost < b.0) {
            best = Some((cost, j));
        }
    }
    let (_, j) = best?;
    let left = if chunks.is_empty() {
        partition(items, bins, spare, j)
    } else {
        partition_in_chunks(items, bins, spare, j, &chunks)
    };
    let (left_bins, right_bins) = binned.centre_boxes.split_at(j);
    Some((left, centres_of(left_bins), centres_of(right_bins)))
}

/// Writes the items of bins below `j` to the start of `spare` in order, the others from its
/// end backwards, and returns how many went left.
fn partition(items: &[Item], bins: &[u8], spare: &mut [Item], j: usize) -> usize {
    // Without branches (which side an item goes is a coin toss to the predictor): the place
    // is chosen by a select, and only its side's cursor moves on.
    let (mut left, mut right) = (0, items.len());
    for (item, &bin) in items.iter().zip(bins.iter()) {
        let goes_right = usize::from(bin) >= j;
        spare[if goes_right { right - 1 } else { left }] = *item;
        left += usize::from(!goes_right);
        right -= usize::from(goes_right);
    }
    left
}

/// [`partition`] of the chunks of [`CHUNK`] items whose bins are `chunks`, on several threads:
/// each chunk's sides go where the sequential pass would put them, after the earlier chunks'.
fn partition_in_chunks(
    items: &[Item],
    bins: &[u8],
    spare: &mut [Item],
    j: usize,
    chunks: &[Binned],
) -> usize {
    let left: usize = chunks.iter().map(|c| c.below(j)).sum();
    let (mut lefts, mut rights) = spare.split_at_mut(left);
    let mut work = Vec::with_capacity(chunks.len());
    for ((items, bins), binned) in items.chunks(CHUNK).zip(bins.chunks(CHUNK)).zip(chunks) {
        let to_left = binned.below(j);
        let (chunk_lefts, rest) = std::mem::take(&mut lefts).split_at_mut(to_left);
        lefts = rest;
        let rest_len = rights.len() - (items.len() - to_left);
        let (rest, chunk_rights) = std::mem::take(&mut rights).split_at_mut(rest_len);
        rights = rest;
        work.push((items, bins, chunk_lefts, chunk_rights));
    }
    work.into_par_iter().for_each(|(items, bins, lefts, rights)| {
        let (mut l, mut r) = (0, rights.len());
        for (item, &bin) in items.iter().zip(bins) {
            if usize::from(bin) >= j {
                r -= 1;
                rights[r] = *item;
            } else {
                lefts[l] = *item;
                l += 1;
            }
        }
    });
    left
}

/// The interval of centres per axis that the centre boxes of some bins span.
fn centres_of(centre_boxes: &[Span]) -> [(Real, Real); 3] {
    let mut acc = Span::EMPTY;
    centre_boxes.iter().for_each(|b| acc.grow(b));
    acc.intervals()
}

/// The exact surface-area split of a few items along `axis`: their centres sorted and every
/// position tried; the result written to `spare` as [`sah_split`] does.
fn sorted_split(items: &[Item], spare: &mut [Item], axis: usize) -> Option<Division> {
    let n = items.len();
    let spans: [Span; SORTED_UP_TO] = std::array::from_fn(|i| items.get(i).map_or(Span::EMPTY, Item::span));
    let keys: [Real; SORTED_UP_TO] = std::array::from_fn(|i| items.get(i).map_or(0.0, |t| t.centre(axis)));
    let mut order = [0u8; SORTED_UP_TO];
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
    let mut acc = Span::EMPTY;
    for k in (1..n).rev() {
        acc.grow(&spans[order[k] as usize]);
        right_cost[k] = acc.half_area() * (n - k) as Real;
    }
    let mut best: Option<(Real, usize)> = None;
    let mut acc = Span::EMPTY;
    for k in 1..n {
        acc.grow(&spans[order[k - 1] as usize]);
        // Equal centres stay on one side, as bins would keep them.
        if keys[order[k - 1] as usize] == keys[order[k] as usize] {
            continue;
        }
        let cost = acc.half_area() * k as Real + right_cost[k];
        if best.is_none_or(|b| cost < b.0) {
            best = Some((cost, k));
        }
    }
    let (_, k) = best?;
    let mut sides = [[EMPTY_CENTRES; 3]; 2];
    for (at, &i) in order.iter().enumerate() {
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
