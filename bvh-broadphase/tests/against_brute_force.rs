//! Every strategy, updated incrementally or rebuilt, reports exactly the pairs a double loop over
//! the boxes finds, on scenes built to stress grids: clusters, one huge box among tiny ones, all
//! boxes in one cell, boxes on cell boundaries, boxes leaving the bounds, inserts and removals.

use bvh_broadphase::{
    AnyStrategy, Broadphase, CellSide, HierarchicalGrid, ObjectId, Octree, Strategy, UniformGrid,
};
use bvh_core::{Aabb, Point, Vector};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;

/// The scene as the test sees it: live boxes by id.
type Truth = BTreeMap<ObjectId, Aabb>;
type Pairs = Vec<(ObjectId, ObjectId)>;

fn brute_pairs(truth: &Truth) -> Pairs {
    let boxes: Vec<_> = truth.iter().collect();
    let mut pairs = Vec::new();
    for (k, (a, ba)) in boxes.iter().enumerate() {
        for (b, bb) in &boxes[k + 1..] {
            if ba.intersects(bb) {
                pairs.push((**a, **b));
            }
        }
    }
    pairs
}

fn strategies() -> Vec<(&'static str, Broadphase<AnyStrategy>)> {
    let make = |s| Broadphase::new(s);
    vec![
        ("hierarchical", make(AnyStrategy::Hierarchical(HierarchicalGrid::default()))),
        ("hierarchical, always rebuilt", make(AnyStrategy::default()).with_rebuild_fraction(0.0)),
        ("hierarchical, never rebuilt", make(AnyStrategy::default()).with_rebuild_fraction(1e9)),
        ("grid", make(AnyStrategy::Grid(UniformGrid::default()))),
        ("grid, fine cells", make(AnyStrategy::Grid(UniformGrid::new(CellSide::MeanExtents(0.25))))),
        ("grid, unit cells", make(AnyStrategy::Grid(UniformGrid::new(CellSide::Fixed(1.0))))),
        ("octree", make(AnyStrategy::Octree(Octree::default()))),
        ("octree, F_max 1", make(AnyStrategy::Octree(Octree::new(CellSide::MeanExtents(8.0), 1)))),
        ("brute", make(AnyStrategy::Brute(bvh_broadphase::BruteForce))),
        ("grid, always rebuilt", make(AnyStrategy::Grid(UniformGrid::default())).with_rebuild_fraction(0.0)),
        ("octree, never rebuilt", make(AnyStrategy::Octree(Octree::default())).with_rebuild_fraction(1e9)),
        ("hierarchical, no margin", make(AnyStrategy::default()).with_margin(0.0)),
        ("hierarchical, wide margin", make(AnyStrategy::default()).with_margin(2.0)),
        ("grid, wide margin", make(AnyStrategy::Grid(UniformGrid::default())).with_margin(2.0)),
    ]
}

/// A scene generator: a box from a random source.
type Maker = fn(&mut ChaCha8Rng) -> Aabb;

fn cube(center: Point, half: f32) -> Aabb {
    Aabb::from_half_extents(center, Vector::repeat(half))
}

fn uniform(rng: &mut ChaCha8Rng) -> Aabb {
    let c = Point::new(rng.gen_range(0.0..20.0), rng.gen_range(0.0..20.0), rng.gen_range(0.0..20.0));
    Aabb::from_half_extents(
        c,
        Vector::new(rng.gen_range(0.1..1.0), rng.gen_range(0.1..1.0), rng.gen_range(0.1..1.0)),
    )
}

fn clustered(rng: &mut ChaCha8Rng) -> Aabb {
    let centre = [Point::new(2.0, 2.0, 2.0), Point::new(15.0, 3.0, 9.0)][rng.gen_range(0..2)];
    let offset = Vector::new(rng.gen_range(-1.5..1.5), rng.gen_range(-1.5..1.5), rng.gen_range(-1.5..1.5));
    cube(centre + offset, rng.gen_range(0.05..0.5))
}

fn huge_among_tiny(rng: &mut ChaCha8Rng) -> Aabb {
    if rng.gen_bool(0.03) {
        cube(Point::new(rng.gen_range(0.0..20.0), 10.0, 10.0), rng.gen_range(5.0..15.0))
    } else {
        cube(Point::new(rng.gen_range(0.0..20.0), rng.gen_range(0.0..20.0), rng.gen_range(0.0..20.0)), 0.05)
    }
}

fn one_cell(rng: &mut ChaCha8Rng) -> Aabb {
    if rng.gen_bool(0.5) {
        cube(Point::new(1.0, 1.0, 1.0), 0.5)
    } else {
        cube(Point::new(rng.gen_range(0.9..1.1), 1.0, 1.0), rng.gen_range(0.2..0.6))
    }
}

/// Integer corners: faces on cell boundaries, many pairs touching exactly.
fn on_boundaries(rng: &mut ChaCha8Rng) -> Aabb {
    let lo = Point::new(rng.gen_range(0..8) as f32, rng.gen_range(0..8) as f32, rng.gen_range(0..8) as f32);
    let size =
        Vector::new(rng.gen_range(1..3) as f32, rng.gen_range(1..3) as f32, rng.gen_range(1..3) as f32);
    Aabb::new(lo, lo + size)
}

/// Mostly near the origin; some far outside where the grid was first fitted.
fn far_away(rng: &mut ChaCha8Rng) -> Aabb {
    if rng.gen_bool(0.1) {
        let far = Point::new(rng.gen_range(-1e4..1e4), rng.gen_range(-1e4..1e4), 5e3);
        cube(far, rng.gen_range(0.5..3e3))
    } else {
        uniform(rng)
    }
}

/// A few boxes parked very far from the others (the grids fit their cells to the rest).
fn parked_far_away(rng: &mut ChaCha8Rng) -> Aabb {
    if rng.gen_bool(0.01) { cube(Point::new(1e6, rng.gen_range(0.0..20.0), -1e6), 1.0) } else { uniform(rng) }
}

/// Flat and zero-size boxes (points and panels).
fn degenerate(rng: &mut ChaCha8Rng) -> Aabb {
    let mut b = on_boundaries(rng);
    let axis = rng.gen_range(0..3);
    b.maxs[axis] = b.mins[axis];
    if rng.gen_bool(0.3) {
        b.maxs = b.mins;
    }
    b
}

/// Checks the pairs, the pairs that started and stopped since the previous check (`previous`,
/// then replaced by the current pairs), and the neighbours of a few objects.
#[track_caller]
fn check(
    name: &str,
    step: usize,
    broadphase: &mut Broadphase<AnyStrategy>,
    truth: &Truth,
    previous: &mut Pairs,
) {
    let expected = brute_pairs(truth);
    let overlaps = broadphase.update();
    let mut pairs: Pairs = overlaps.pairs().collect();
    pairs.sort();
    assert_eq!(pairs, expected, "{name}, step {step}");
    let started: Pairs = expected.iter().filter(|p| previous.binary_search(p).is_err()).copied().collect();
    let stopped: Pairs = previous.iter().filter(|p| expected.binary_search(p).is_err()).copied().collect();
    assert_eq!(overlaps.started().collect::<Pairs>(), started, "{name}, step {step}: started");
    assert_eq!(overlaps.stopped().collect::<Pairs>(), stopped, "{name}, step {step}: stopped");
    let overlaps = broadphase.update();
    assert_eq!(
        overlaps.started().len() + overlaps.stopped().len(),
        0,
        "{name}, step {step}: nothing changed"
    );
    for (&id, _) in truth.iter().take(20) {
        let mut mine: Vec<_> =
            expected.iter().filter_map(|&(a, b)| (a == id).then_some(b).or((b == id).then_some(a))).collect();
        mine.sort();
        assert_eq!(overlaps.neighbours(id).collect::<Vec<_>>(), mine, "{name}, step {step}, object {id}");
    }
    *previous = expected;
}

/// Inserts `objects` boxes and checks the first update; returns the scene and its pairs.
fn populate(
    name: &str,
    broadphase: &mut Broadphase<AnyStrategy>,
    maker: Maker,
    objects: usize,
    rng: &mut ChaCha8Rng,
) -> (Truth, Pairs) {
    let mut truth = Truth::new();
    for _ in 0..objects {
        let b = maker(rng);
        truth.insert(broadphase.insert(b).unwrap(), b);
    }
    let mut previous = Pairs::new();
    check(name, 0, broadphase, &truth, &mut previous);
    (truth, previous)
}

/// Removes up to two objects and inserts up to two.
fn remove_and_insert_a_few(
    name: &str,
    broadphase: &mut Broadphase<AnyStrategy>,
    truth: &mut Truth,
    maker: Maker,
    rng: &mut ChaCha8Rng,
) {
    for _ in 0..rng.gen_range(0..3).min(truth.len()) {
        let id = *truth.keys().nth(rng.gen_range(0..truth.len())).unwrap();
        assert_eq!(broadphase.remove(id).unwrap(), truth.remove(&id).unwrap());
    }
    for _ in 0..rng.gen_range(0..3) {
        let b = maker(rng);
        let id = broadphase.insert(b).unwrap();
        assert!(truth.insert(id, b).is_none(), "{name}: id {id} reused while live");
    }
}

/// Builds the scene, then for several steps moves some boxes, removes some, inserts some, and
/// checks every strategy after each step.
fn run(maker: Maker, objects: usize, seed: u64) {
    for (name, mut broadphase) in strategies() {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (mut truth, mut previous) = populate(name, &mut broadphase, maker, objects, &mut rng);
        for step in 1..=12 {
            // Few moving in most steps (incremental), everything in some (rebuild).
            let moving = if step % 4 == 0 { truth.len() } else { 1 + truth.len() / 50 };
            let ids: Vec<ObjectId> = truth.keys().copied().collect();
            for _ in 0..moving.min(ids.len()) {
                let id = ids[rng.gen_range(0..ids.len())];
                let b = if rng.gen_bool(0.5) {
                    maker(&mut rng)
                } else {
                    let shift = Vector::new(rng.gen_range(-0.5..0.5), rng.gen_range(-0.5..0.5), 0.0);
                    Aabb::new(truth[&id].mins + shift, truth[&id].maxs + shift)
                };
                broadphase.set_box(id, b).unwrap();
                truth.insert(id, b);
            }
            remove_and_insert_a_few(name, &mut broadphase, &mut truth, maker, &mut rng);
            check(name, step, &mut broadphase, &truth, &mut previous);
        }
    }
}

/// Every box moves a little at every update, as in a physics scene (the broadphase re-tests every
/// candidate pair), a few jump out of their fat boxes, some come and go, and a few updates move
/// only some boxes (their candidates are re-tested object by object).
fn run_all_moving(maker: Maker, objects: usize, seed: u64) {
    for (name, mut broadphase) in strategies() {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (mut truth, mut previous) = populate(name, &mut broadphase, maker, objects, &mut rng);
        for step in 1..=30 {
            let few = (15..25).contains(&step);
            let ids: Vec<ObjectId> = truth.keys().copied().collect();
            for id in ids {
                if few && rng.gen_bool(0.9) {
                    continue;
                }
                let b = if rng.gen_bool(0.02) {
                    maker(&mut rng)
                } else {
                    let size = truth[&id].extents().max().max(0.1);
                    let shift = Vector::from_fn(|_, _| rng.gen_range(-0.05..0.05) * size);
                    Aabb::new(truth[&id].mins + shift, truth[&id].maxs + shift)
                };
                broadphase.set_box(id, b).unwrap();
                truth.insert(id, b);
            }
            remove_and_insert_a_few(name, &mut broadphase, &mut truth, maker, &mut rng);
            check(name, step, &mut broadphase, &truth, &mut previous);
            // The objects near one: from the index of fat boxes, kept only if truly near.
            for &id in truth.keys().step_by(37) {
                let grown = truth[&id].inflated(0.3);
                let expected: Vec<ObjectId> = truth
                    .iter()
                    .filter(|&(&j, b)| j != id && b.intersects(&grown))
                    .map(|(&j, _)| j)
                    .collect();
                assert_eq!(broadphase.near(id, 0.3).unwrap(), expected, "{name}, step {step}, near {id}");
            }
        }
    }
}

#[test]
fn scenes_where_everything_moves() {
    run_all_moving(uniform, 300, 11);
    run_all_moving(clustered, 200, 12);
    run_all_moving(huge_among_tiny, 200, 13);
    run_all_moving(degenerate, 200, 14);
    run_all_moving(far_away, 200, 15);
}

#[test]
fn uniform_scenes() {
    run(uniform, 400, 1);
}

#[test]
fn clustered_scenes() {
    run(clustered, 300, 2);
}

#[test]
fn one_huge_box_among_tiny_ones() {
    run(huge_among_tiny, 300, 3);
}

#[test]
fn every_box_in_one_cell() {
    run(one_cell, 120, 4);
}

#[test]
fn boxes_on_cell_boundaries() {
    run(on_boundaries, 300, 5);
}

#[test]
fn boxes_far_outside_the_first_bounds() {
    run(far_away, 300, 6);
}

#[test]
fn a_few_boxes_parked_far_away() {
    run(parked_far_away, 600, 12);
}

#[test]
fn flat_and_point_boxes() {
    run(degenerate, 300, 7);
}

#[test]
fn empty_and_single_object_scenes() {
    for (name, mut broadphase) in strategies() {
        assert_eq!(broadphase.update().pairs().count(), 0, "{name}");
        let id = broadphase.insert(cube(Point::origin(), 1.0)).unwrap();
        assert_eq!(broadphase.update().pairs().count(), 0, "{name}");
        broadphase.remove(id).unwrap();
        assert!(broadphase.is_empty());
        assert_eq!(broadphase.update().pairs().count(), 0, "{name}");
    }
}

#[test]
fn bad_boxes_and_ids_are_refused() {
    use bvh_broadphase::BroadphaseError;
    let mut broadphase: Broadphase = Broadphase::default();
    let nan = Aabb::new(Point::new(f32::NAN, 0.0, 0.0), Point::new(1.0, 1.0, 1.0));
    let infinite = Aabb::new(Point::origin(), Point::new(f32::INFINITY, 1.0, 1.0));
    let inverted = Aabb::new(Point::new(1.0, 0.0, 0.0), Point::new(0.0, 1.0, 1.0));
    for bad in [nan, infinite, inverted, Aabb::EMPTY] {
        assert_eq!(broadphase.insert(bad), Err(BroadphaseError::InvalidBox));
    }
    let id = broadphase.insert(cube(Point::origin(), 1.0)).unwrap();
    assert_eq!(broadphase.set_box(id, nan), Err(BroadphaseError::InvalidBox));
    broadphase.remove(id).unwrap();
    assert_eq!(broadphase.remove(id), Err(BroadphaseError::UnknownObject(id)));
    assert_eq!(broadphase.set_box(id, cube(Point::origin(), 1.0)), Err(BroadphaseError::UnknownObject(id)));
    assert_eq!(broadphase.update().neighbours(id).len(), 0);
}

#[test]
fn the_octree_splits_crowded_cells_and_stays_exact() {
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let mut octree: Broadphase<Octree> = Broadphase::new(Octree::new(CellSide::MeanExtents(16.0), 2));
    let mut truth = Truth::new();
    for _ in 0..500 {
        let b = clustered(&mut rng);
        truth.insert(octree.insert(b).unwrap(), b);
    }
    let mut pairs: Vec<_> = octree.update().pairs().collect();
    pairs.sort();
    assert_eq!(pairs, brute_pairs(&truth));
    let (leaves, depth) = octree.strategy().leaf_stats();
    assert!(depth >= 3 && leaves > 50, "{leaves} leaves, depth {depth}: the test needs a split tree");
}

#[test]
fn parallel_updates_find_the_pairs_of_a_sequential_one() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let boxes: Vec<Aabb> =
        (0..6000).map(|_| if rng.gen_bool(0.5) { uniform(&mut rng) } else { clustered(&mut rng) }).collect();
    let shifted = |b: &Aabb, reach: f32, rng: &mut ChaCha8Rng| {
        let shift = Vector::from_fn(|_, _| rng.gen_range(-reach..reach));
        Aabb::new(b.mins + shift, b.maxs + shift)
    };
    // A tenth of the boxes moved, most out of their fat boxes: updated object by object (the
    // rebuild fraction is fixed above it), the re-indexed objects' queries in parallel.
    let moved: Vec<(usize, Aabb)> = (0..600)
        .map(|_| {
            let i = rng.gen_range(0..boxes.len());
            (i, shifted(&boxes[i], 0.5, &mut rng))
        })
        .collect();
    let mut after = boxes.clone();
    moved.iter().for_each(|&(i, b)| after[i] = b);
    // Then every box moved a little, a few far, twice: every candidate re-tested, in parallel
    // runs (the clusters give far more candidates than one run holds), the second time among
    // the candidates the first left.
    let mut frames = vec![boxes, after];
    for _ in 0..2 {
        let last = frames.last().unwrap();
        let next =
            last.iter().map(|b| shifted(b, if rng.gen_bool(0.02) { 2.0 } else { 0.02 }, &mut rng)).collect();
        frames.push(next);
    }
    let truth = |boxes: &[Aabb]| -> Truth {
        boxes.iter().enumerate().map(|(i, b)| (ObjectId::from_index(i), *b)).collect()
    };
    let expected: Vec<Pairs> = frames.iter().map(|frame| brute_pairs(&truth(frame))).collect();
    let mut sequential: Option<Vec<Pairs>> = None;
    for threads in [1, 2, 3] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let found: Vec<Pairs> = pool.install(|| {
            let mut broadphase: Broadphase = Broadphase::default().with_rebuild_fraction(0.5);
            let mut shown = vec![Aabb::EMPTY; frames[0].len()];
            let mut found = Vec::new();
            for frame in &frames {
                for (i, (b, old)) in frame.iter().zip(&mut shown).enumerate() {
                    if old.is_empty() {
                        broadphase.insert(*b).unwrap();
                    } else if b != old {
                        broadphase.set_box(ObjectId::from_index(i), *b).unwrap();
                    }
                    *old = *b;
                }
                found.push(broadphase.update().pairs().collect());
            }
            found
        });
        // The same order, not only the same set.
        assert_eq!(&found, sequential.get_or_insert_with(|| found.clone()), "{threads} threads");
        for (step, (mut pairs, expected)) in found.into_iter().zip(&expected).enumerate() {
            pairs.sort();
            assert_eq!(&pairs, expected, "{threads} threads, update {step}");
        }
    }
}

/// Edits after a rebuild that the hierarchical grid cannot put in its sorted cells: boxes that
/// change cell (its overflow table), a box larger than every level and a box smaller than every
/// level (its largest and smallest classes), removals of each – exact at every step, and a
/// rebuild asked for once the overflow has grown.
#[test]
fn the_hierarchical_grid_stays_exact_between_rebuilds() {
    let mut rng = ChaCha8Rng::seed_from_u64(10);
    let mut broadphase: Broadphase<AnyStrategy> =
        Broadphase::new(AnyStrategy::Hierarchical(HierarchicalGrid::default())).with_rebuild_fraction(1e9);
    let mut truth = Truth::new();
    for _ in 0..400 {
        let b = cube(
            Point::new(rng.gen_range(0.0..20.0), rng.gen_range(0.0..20.0), rng.gen_range(0.0..20.0)),
            0.5,
        );
        truth.insert(broadphase.insert(b).unwrap(), b);
    }
    let mut previous = Pairs::new();
    check("hierarchical", 0, &mut broadphase, &truth, &mut previous);
    let huge = broadphase.insert(cube(Point::new(10.0, 10.0, 10.0), 6.0)).unwrap();
    truth.insert(huge, cube(Point::new(10.0, 10.0, 10.0), 6.0));
    let speck = broadphase.insert(cube(Point::new(3.0, 3.0, 3.0), 1e-4)).unwrap();
    truth.insert(speck, cube(Point::new(3.0, 3.0, 3.0), 1e-4));
    check("hierarchical", 1, &mut broadphase, &truth, &mut previous);
    let mut rebuilds_asked = 0;
    for step in 2..40 {
        // Ten boxes a step shifted by about a cell: most change cell.
        let ids: Vec<ObjectId> = truth.keys().copied().collect();
        for _ in 0..10 {
            let id = ids[rng.gen_range(0..ids.len())];
            let shift =
                Vector::new(rng.gen_range(-1.5..1.5), rng.gen_range(-1.5..1.5), rng.gen_range(-1.5..1.5));
            let b = Aabb::new(truth[&id].mins + shift, truth[&id].maxs + shift);
            broadphase.set_box(id, b).unwrap();
            truth.insert(id, b);
        }
        if step == 20 {
            for id in [huge, speck] {
                assert_eq!(broadphase.remove(id).unwrap(), truth.remove(&id).unwrap());
            }
        }
        let mut pairs: Pairs = broadphase.update().pairs().collect();
        pairs.sort();
        assert_eq!(pairs, brute_pairs(&truth), "step {step}");
        previous = pairs;
        if broadphase.strategy().needs_rebuild() {
            rebuilds_asked += 1;
            // The update that rebuilds changes no pair.
            check("hierarchical", step, &mut broadphase, &truth, &mut previous);
            assert!(!broadphase.strategy().needs_rebuild(), "a rebuild empties the overflow");
        }
    }
    assert!(rebuilds_asked > 0, "the overflow never grew enough to ask for a rebuild");
}

/// An id whose object was removed before a rebuild and which comes back, reused, at the same
/// place in a patch: its slot of two rebuilds ago is past the end of the sorted copies now, and
/// it must not be taken back there (where no neighbourhood query would find it).
#[test]
fn a_reused_id_is_not_taken_back_into_a_stale_slot() {
    let unit = |x: f32| Aabb::new(Point::new(x, x, x), Point::new(x + 1.0, x + 1.0, x + 1.0));
    // Patch when at most three quarters of the objects changed, rebuild otherwise.
    let mut broadphase: Broadphase<AnyStrategy> =
        Broadphase::new(AnyStrategy::Hierarchical(HierarchicalGrid::default())).with_rebuild_fraction(0.75);
    let mut truth = Truth::new();
    // Ids 0 and 1 share the last cell; 2 and 3 keep the bounds and fill the first slots.
    for x in [9.0, 9.0, 0.0, 5.0] {
        truth.insert(broadphase.insert(unit(x)).unwrap(), unit(x));
    }
    let mut previous = Pairs::new();
    check("reused id", 0, &mut broadphase, &truth, &mut previous);
    let [a, b, _, c] = [0, 1, 2, 3].map(ObjectId::from_index);
    // Two of four removed: a rebuild, after which id 0's old slot lies past the copies.
    for id in [a, c] {
        broadphase.remove(id).unwrap();
        truth.remove(&id);
    }
    check("reused id", 1, &mut broadphase, &truth, &mut previous);
    // Both ids come back (the last freed first), id 0 where it was: a patch.
    for x in [5.0, 9.0] {
        truth.insert(broadphase.insert(unit(x)).unwrap(), unit(x));
    }
    assert!(truth.contains_key(&a));
    check("reused id", 2, &mut broadphase, &truth, &mut previous);
    // Its neighbour moves a little: its query must still find id 0.
    let moved = Aabb::new(Point::new(9.1, 9.0, 9.0), Point::new(10.1, 10.0, 10.0));
    broadphase.set_box(b, moved).unwrap();
    truth.insert(b, moved);
    check("reused id", 3, &mut broadphase, &truth, &mut previous);
}

/// Boxes near the ends of the `f32` range, whose extents and the scene's span overflow `f32`:
/// every strategy still answers, exactly.
#[test]
fn boxes_near_the_ends_of_the_f32_range() {
    let big = f32::MAX / 2.0;
    let boxes = [
        Aabb::new(Point::new(-big, -big, -big), Point::new(big, big, big)),
        Aabb::new(Point::new(big, big, big), Point::new(f32::MAX, f32::MAX, f32::MAX)),
        Aabb::new(Point::new(-f32::MAX, 0.0, 0.0), Point::new(-big, 1.0, 1.0)),
        cube(Point::origin(), 1.0),
        cube(Point::new(3.0, 0.0, 0.0), 1.0),
    ];
    let truth: Truth = boxes.iter().enumerate().map(|(i, b)| (ObjectId::from_index(i), *b)).collect();
    for (name, mut broadphase) in strategies() {
        let ids: Vec<ObjectId> = boxes.iter().map(|b| broadphase.insert(*b).unwrap()).collect();
        let mut previous = Pairs::new();
        check(name, 0, &mut broadphase, &truth, &mut previous);
        broadphase.set_box(ids[4], cube(Point::new(1.5, 0.0, 0.0), 1.0)).unwrap();
        let mut moved = truth.clone();
        moved.insert(ids[4], cube(Point::new(1.5, 0.0, 0.0), 1.0));
        check(name, 1, &mut broadphase, &moved, &mut previous);
    }
}
