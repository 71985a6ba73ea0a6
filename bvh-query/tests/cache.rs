//! First-contact queries with a pair cache agree with queries without, along a path through a
//! ring, across a jump and to a contact far from the last; a contact sliding across the
//! surfaces is followed through the neighbouring triangles, with no volume test; apart, the
//! search starts from the last front unless B jumped, and passes by the front's pairs B cannot
//! have reached yet; at scattered poses the cached answers, first contact and distance, are the
//! uncached ones, the first contact found by the same work; and the cache is not fooled by
//! another pair of trees.

use bvh_build::generate::torus;
use bvh_build::{BuildConfig, Bvh};
use bvh_core::{Isometry, Obb, Point, PoseError, PoseOf, TriMesh, Vector};
use bvh_query::{DistanceOptions, PairCache, Posed, Query, QueryOptions, QueryStats};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A ring (major radius 2, tube 0.4) and a ball of radius 0.6.
fn ring_and_ball() -> (Bvh<Obb>, Bvh<Obb>) {
    let ring = Bvh::build(torus(2.0, 0.4, 48, 16), &BuildConfig::co());
    let ball = Bvh::build(TriMesh::uv_sphere(Point::origin(), 0.6, 12, 24), &BuildConfig::co());
    (ring, ball)
}

fn path(steps: usize) -> Vec<Isometry> {
    (0..steps)
        .map(|k| {
            let t = k as f32 / steps as f32;
            // Through the ring and out, turning slowly, with one jump half way.
            let jump = if k == steps / 2 { 3.0 } else { 0.0 };
            Isometry::new(
                Vector::new(-3.0 + 6.0 * t + jump, 0.2 * (7.0 * t).sin(), 0.1),
                Vector::new(0.0, 1.2 * t, 0.4 * t),
            )
        })
        .collect()
}

#[test]
fn cached_and_uncached_first_contact_agree_along_a_path() {
    let (ring, ball) = ring_and_ball();
    let here = Isometry::identity();
    let mut cache = PairCache::new();
    let (mut cached_work, mut fresh_work) = (QueryStats::default(), QueryStats::default());
    let mut hits = 0;
    for pose in path(300) {
        let q = Query::new(Posed::new(&ring, here), Posed::new(&ball, pose), QueryOptions::default());
        let all = q.intersecting_pairs();
        let fresh = q.intersects_counted(None, &mut fresh_work);
        let cached = q.intersects_counted(Some(&mut cache), &mut cached_work);
        assert_eq!(fresh.is_some(), !all.is_empty());
        assert_eq!(cached.is_some(), !all.is_empty());
        if let Some(pair) = cached {
            assert!(all.binary_search(&pair).is_ok(), "{pair:?} is not an intersecting pair");
        }
        hits += !all.is_empty() as usize;
    }
    assert!(hits > 30 && hits < 270, "{hits} of 300 poses touch");
    // Along a smooth path the remembered pair usually still touches: less work.
    assert!(cached_work.volume_tests() < fresh_work.volume_tests(), "{cached_work:?} vs {fresh_work:?}");
}

#[test]
fn a_contact_that_moved_away_from_the_key_nodes_is_still_found() {
    // The ball touches the ring's tube on one side, then on the opposite side only: nothing
    // near the first contact holds the second, and the search from the top must find it.
    let (ring, ball) = ring_and_ball();
    let here = Isometry::identity();
    let mut cache = PairCache::new();
    for x in [2.3, -2.3, 2.3, -2.3, 0.0, 2.3] {
        let pose = Isometry::translation(x, 0.0, 0.0);
        let q = Query::new(Posed::new(&ring, here), Posed::new(&ball, pose), QueryOptions::default());
        let all = q.intersecting_pairs();
        assert_eq!(all.is_empty(), x == 0.0, "x = {x}");
        let cached = q.intersects_cached(&mut cache);
        assert_eq!(cached.is_some(), !all.is_empty(), "x = {x}");
        if let Some(pair) = cached {
            assert!(all.binary_search(&pair).is_ok(), "{pair:?} is not an intersecting pair");
        }
    }
}

/// The same mesh with every triangle's vertices its own, as an STL file stores it.
fn unwelded(mesh: &TriMesh) -> TriMesh {
    let vertices = mesh.triangles().flat_map(|t| [t.a, t.b, t.c]).collect();
    let triangles = (0..mesh.triangle_count() as u32).map(|t| [3 * t, 3 * t + 1, 3 * t + 2]).collect();
    TriMesh::new(vertices, triangles).unwrap()
}

/// Slides `ball` around the tube of `ring` in steps of about a fifth of a triangle, turning it,
/// always touching; checks every cached answer and returns in how many frames the cache found
/// the contact without a volume test, out of how many. (The last pair and the subtrees above it,
/// before the neighbouring triangles, found it so in 120 of 199.)
fn slide(ring: &Bvh<Obb>, ball: &Bvh<Obb>, radius: f32) -> (usize, usize) {
    let here = Isometry::identity();
    let mut cache = PairCache::new();
    let mut without_volume_tests = 0;
    let frames = 200;
    for k in 0..frames {
        let angle = 0.02 * k as f32;
        // The ball's centre 0.1 inside the tube's outer side, along the ring.
        let centre = Vector::new(angle.cos(), angle.sin(), 0.0) * (2.4 + radius - 0.1);
        let pose = Isometry::new(centre, Vector::new(0.3, 0.0, 1.0) * (0.006 * k as f32));
        let q = Query::new(Posed::new(ring, here), Posed::new(ball, pose), QueryOptions::default());
        let all = q.intersecting_pairs();
        assert!(!all.is_empty(), "frame {k}");
        let mut stats = QueryStats::default();
        let pair = q.intersects_counted(Some(&mut cache), &mut stats).expect("a contact");
        assert!(all.binary_search(&pair).is_ok(), "frame {k}: {pair:?} is not an intersecting pair");
        without_volume_tests += (k > 0 && stats.volume_tests() == 0) as usize;
    }
    (without_volume_tests, frames - 1)
}

#[test]
fn a_sliding_contact_is_followed_through_the_neighbouring_triangles() {
    let torus_mesh = torus(2.0, 0.4, 48, 16);
    let ball_mesh = TriMesh::uv_sphere(Point::origin(), 0.6, 12, 24);
    let (ring, ball) = ring_and_ball();
    let (followed, frames) = slide(&ring, &ball, 0.6);
    assert!(followed * 20 >= frames * 19, "{followed} of {frames} frames without a volume test");
    // Neighbours are found by position, so meshes whose triangles share no vertex index (STL)
    // are followed as well.
    let ring = Bvh::build(unwelded(&torus_mesh), &BuildConfig::co());
    let ball = Bvh::build(unwelded(&ball_mesh), &BuildConfig::co());
    let (followed, frames) = slide(&ring, &ball, 0.6);
    assert!(followed * 20 >= frames * 19, "unwelded: {followed} of {frames} frames without a volume test");
}

#[test]
fn a_contact_at_a_vertex_of_too_many_triangles_is_still_found() {
    // Poles of 40 triangles, more than the neighbourhood takes: the search goes on up the trees.
    let ring: Bvh<Obb> = Bvh::build(torus(2.0, 0.4, 48, 16), &BuildConfig::co());
    let ball: Bvh<Obb> = Bvh::build(TriMesh::uv_sphere(Point::origin(), 0.6, 12, 40), &BuildConfig::co());
    let here = Isometry::identity();
    let mut cache = PairCache::new();
    for k in 0..100 {
        // The ball's south pole dipping into the top of the tube and sliding along it.
        let angle = 0.004 * k as f32;
        let centre = Vector::new(2.0 * angle.cos(), 2.0 * angle.sin(), 0.4 + 0.6 - 0.05);
        let pose = Isometry::translation(centre.x, centre.y, centre.z);
        let q = Query::new(Posed::new(&ring, here), Posed::new(&ball, pose), QueryOptions::default());
        let all = q.intersecting_pairs();
        let cached = q.intersects_cached(&mut cache);
        assert_eq!(cached.is_some(), !all.is_empty(), "frame {k}");
        assert!(!all.is_empty(), "frame {k}");
        assert!(all.binary_search(&cached.unwrap()).is_ok(), "frame {k}");
    }
}

#[test]
fn apart_the_search_starts_from_the_last_front_unless_b_jumped() {
    // In the ring's hole: the search proves the ball apart and leaves its front.
    let (ring, ball) = ring_and_ball();
    let here = Isometry::identity();
    let work = |cache: Option<&mut PairCache>, x: f32| {
        let pose = Isometry::translation(x, 0.0, 0.0);
        let q = Query::new(Posed::new(&ring, here), Posed::new(&ball, pose), QueryOptions::default());
        let mut stats = QueryStats::default();
        assert!(q.intersects_counted(cache, &mut stats).is_none(), "x = {x}");
        stats.volume_tests()
    };
    let mut cache = PairCache::new();
    work(Some(&mut cache), 0.0);
    // A small step: from the front, fewer volume tests than from the top.
    let (cached, fresh) = (work(Some(&mut cache), 0.01), work(None, 0.01));
    assert!(cached < fresh, "{cached} from the front, {fresh} from the top");
    // A jump across the hole: the old front is dropped, and the search costs what a fresh
    // cache's first one does (from the top, keeping its front).
    assert_eq!(work(Some(&mut cache), -0.9), work(Some(&mut PairCache::new()), -0.9));
}

#[test]
fn apart_the_pairs_of_the_front_wait_until_b_could_have_crossed_their_gap() {
    // From the middle of the ring's hole towards its tube (touching from x = 1), turning,
    // in steps that grow until the last ones are longer than what is left of the gap.
    let (ring, ball) = ring_and_ball();
    let here = Isometry::identity();
    let mut cache = PairCache::new();
    let steps = 200;
    let (mut apart, mut settled, mut first_touch) = (0, 0, None);
    for k in 0..=steps {
        let t = k as f32 / steps as f32;
        let pose = Isometry::new(Vector::new(1.1 * t * t, 0.0, 0.0), Vector::new(0.0, 0.0, 0.5 * t));
        let q = Query::new(Posed::new(&ring, here), Posed::new(&ball, pose), QueryOptions::default());
        let all = q.intersecting_pairs();
        let mut stats = QueryStats::default();
        let cached = q.intersects_counted(Some(&mut cache), &mut stats);
        assert_eq!(cached.is_some(), !all.is_empty(), "frame {k}");
        assert_eq!(q.intersects().is_some(), !all.is_empty(), "frame {k}");
        if let Some(pair) = cached {
            assert!(all.binary_search(&pair).is_ok(), "frame {k}: {pair:?} is not an intersecting pair");
            first_touch.get_or_insert(k);
        } else {
            apart += 1;
            // Nothing tested, not even the roots: every pair of the front was still clear.
            settled += usize::from(stats.volume_tests() == 0 && stats.triangle_tests == 0);
        }
    }
    let first_touch = first_touch.expect("the ball reaches the tube");
    assert!(first_touch > steps * 9 / 10, "first touch at frame {first_touch}");
    assert!(settled * 3 >= apart, "{settled} of {apart} frames apart tested nothing");
}

#[test]
fn a_cache_from_other_trees_is_ignored() {
    let ring: Bvh<Obb> = Bvh::build(torus(2.0, 0.4, 24, 8), &BuildConfig::co());
    let other: Bvh<Obb> = Bvh::build(torus(2.0, 0.4, 24, 8), &BuildConfig::co());
    let ball: Bvh<Obb> = Bvh::build(TriMesh::uv_sphere(Point::origin(), 0.6, 8, 12), &BuildConfig::co());
    let (here, touching, apart) =
        (Isometry::identity(), Isometry::translation(2.0, 0.0, 0.0), Isometry::translation(9.0, 0.0, 0.0));
    let mut cache = PairCache::new();
    let q = Query::new(Posed::new(&ring, here), Posed::new(&ball, touching), QueryOptions::default());
    assert!(q.intersects_cached(&mut cache).is_some());
    // The same cache with another ring that does not touch: the remembered pair must not leak.
    let q = Query::new(Posed::new(&other, here), Posed::new(&ball, apart), QueryOptions::default());
    assert!(q.intersects_cached(&mut cache).is_none());
    cache.clear();
    let q = Query::new(Posed::new(&ring, here), Posed::new(&ball, touching), QueryOptions::default());
    assert!(q.intersects_cached(&mut cache).is_some());
}

#[test]
fn batch_answers_equal_one_by_one_answers() {
    let (ring, ball) = ring_and_ball();
    let here = Isometry::identity();
    let mut poses = path(200);
    // A pose with a NaN component is refused on its own; the others are answered.
    let mut bad = Isometry::identity();
    bad.translation.vector.y = f32::NAN;
    poses.insert(100, bad);
    let batch = bvh_query::intersects_at_poses(&ring, &here, &ball, &poses, QueryOptions::default());
    let pairs: Vec<_> = poses.iter().map(|p| (Posed::new(&ring, here), Posed::new(&ball, p))).collect();
    let by_pairs = bvh_query::intersects_pairs(&pairs, QueryOptions::default());
    for ((pose, a), b) in poses.iter().zip(&batch).zip(&by_pairs) {
        let one = Query::try_new(Posed::new(&ring, here), Posed::new(&ball, pose), QueryOptions::default())
            .map(|q| q.intersects().is_some());
        assert_eq!(a.map(|hit| hit.is_some()), one);
        assert_eq!(b.map(|hit| hit.is_some()), one);
    }
    assert_eq!(batch[100], Err(PoseError::NotFinite(PoseOf::B)));
    let answered: Vec<_> = batch.iter().filter_map(|r| r.ok()).collect();
    assert!(answered.iter().any(Option::is_some) && answered.iter().any(Option::is_none));
}

/// Scattered poses (each a jump from the last), then a path, then scattered poses again: every
/// cached answer, first contact and distance, is the uncached one, and at the scattered poses
/// after the first two the cached first-contact search does exactly the uncached one's work.
#[test]
fn scattered_poses_and_a_path_between_them_agree_with_uncached_answers() {
    let (ring, ball) = ring_and_ball();
    let here = Isometry::identity();
    // Poses in a box round the ring, turned at random.
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut scattered = |n: usize| -> Vec<Isometry> {
        (0..n)
            .map(|_| {
                let at =
                    Vector::new(rng.gen_range(-2.5..2.5), rng.gen_range(-2.5..2.5), rng.gen_range(-0.5..0.5));
                Isometry::new(
                    at,
                    Vector::new(rng.gen_range(0.0..3.0), rng.gen_range(0.0..3.0), rng.gen_range(0.0..3.0)),
                )
            })
            .collect()
    };
    let poses: Vec<(Isometry, bool)> = [(scattered(40), true), (path(60), false), (scattered(40), true)]
        .into_iter()
        .flat_map(|(poses, scattered)| {
            poses.into_iter().enumerate().map(move |(k, p)| (p, scattered && k >= 2))
        })
        .collect();
    let (mut cache, mut distance_cache) = (PairCache::new(), PairCache::new());
    let (mut touching, mut apart) = (0, 0);
    for (k, (pose, scattered)) in poses.into_iter().enumerate() {
        let q = Query::new(Posed::new(&ring, here), Posed::new(&ball, pose), QueryOptions::default());
        let all = q.intersecting_pairs();
        let (mut fresh_work, mut cached_work) = (QueryStats::default(), QueryStats::default());
        assert_eq!(q.intersects_counted(None, &mut fresh_work).is_some(), !all.is_empty(), "pose {k}");
        let cached = q.intersects_counted(Some(&mut cache), &mut cached_work);
        assert_eq!(cached.is_some(), !all.is_empty(), "pose {k}");
        if let Some(pair) = cached {
            assert!(all.binary_search(&pair).is_ok(), "pose {k}: {pair:?} is not an intersecting pair");
        }
        if scattered {
            assert_eq!(cached_work, fresh_work, "pose {k}: a scattered pose's search is the plain one");
        }
        let exact = DistanceOptions::exact();
        let distance = |n: Option<bvh_query::NearPair>| n.map(|n| n.distance);
        assert_eq!(
            distance(q.distance_cached(exact, &mut distance_cache)),
            distance(q.distance(exact)),
            "pose {k}"
        );
        if all.is_empty() { apart += 1 } else { touching += 1 }
    }
    assert!(touching > 20 && apart > 20, "{touching} poses touch, {apart} are apart");
}
