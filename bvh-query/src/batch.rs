//! Many queries at once, in parallel with rayon: one object against many poses of another, or
//! many object pairs. Trees are shared by reference across threads; each query is independent,
//! so results are the same as running them one by one.

use crate::answers::{NearPair, TrianglePair};
use crate::distance::DistanceOptions;
use crate::node_test::NodeTest;
use crate::query::{Posed, Query, QueryOptions};
use bvh_build::{Bvh, NodeVolume};
use bvh_core::parallel::prelude::*;
use bvh_core::{Isometry, PoseError};

/// The first-contact answer for `b` at each of `poses` against `a` at `pose_a`, in pose order
/// (an error for a pose with a NaN or infinite component).
pub fn intersects_at_poses<VA, VB>(
    a: &Bvh<VA>,
    pose_a: &Isometry,
    b: &Bvh<VB>,
    poses: &[Isometry],
    options: QueryOptions,
) -> Vec<Result<Option<TrianglePair>, PoseError>>
where
    VA: NodeVolume + NodeTest<VB>,
    VB: NodeVolume,
{
    at_poses(a, pose_a, b, poses, options, |query| query.intersects())
}

/// The first-contact answer for each pair of posed objects, in pair order (an error for a pair
/// with a NaN or infinite pose component).
pub fn intersects_pairs<VA, VB>(
    pairs: &[(Posed<'_, VA>, Posed<'_, VB>)],
    options: QueryOptions,
) -> Vec<Result<Option<TrianglePair>, PoseError>>
where
    VA: NodeVolume + NodeTest<VB>,
    VB: NodeVolume,
{
    pairs.par_iter().map(|(a, b)| Ok(Query::try_new(*a, *b, options)?.intersects())).collect()
}

/// The distance answer ([`Query::distance`]) for `b` at each of `poses` against `a` at `pose_a`,
/// in pose order (an error for a pose with a NaN or infinite component).
pub fn distance_at_poses<VA, VB>(
    a: &Bvh<VA>,
    pose_a: &Isometry,
    b: &Bvh<VB>,
    poses: &[Isometry],
    options: QueryOptions,
    distance: DistanceOptions,
) -> Vec<Result<Option<NearPair>, PoseError>>
where
    VA: NodeVolume + NodeTest<VB>,
    VB: NodeVolume,
{
    at_poses(a, pose_a, b, poses, options, |query| query.distance(distance))
}

/// What `answer` makes of the query with `b` at each of `poses` against `a` at `pose_a`, in pose
/// order, in parallel (an error for a pose with a NaN or infinite component).
fn at_poses<VA, VB, T: Send>(
    a: &Bvh<VA>,
    pose_a: &Isometry,
    b: &Bvh<VB>,
    poses: &[Isometry],
    options: QueryOptions,
    answer: impl Fn(&Query<'_, VA, VB>) -> T + Sync,
) -> Vec<Result<T, PoseError>>
where
    VA: NodeVolume + NodeTest<VB>,
    VB: NodeVolume,
{
    poses
        .par_iter()
        .map(|pose| Ok(answer(&Query::try_new(Posed::new(a, pose_a), Posed::new(b, pose), options)?)))
        .collect()
}
