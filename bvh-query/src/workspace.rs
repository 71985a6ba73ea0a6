//! The memory a traversal works in: a stack of tree-pairs to visit, for distance queries a
//! heap of pairs put aside, and for contact regions the sets a region's inside walk marks on
//! each mesh. Each thread keeps them between queries (so a traversal allocates nothing once its
//! thread has run one like it); a caller who wants that memory in hand – to bound it, free it,
//! or keep it with an object rather than a thread – runs queries inside its own [`Workspace`].

use crate::regions::Flood;
use crate::traverse::{Aside, Pair};
use std::cell::Cell;

thread_local! {
    /// Each thread's traversal stack, kept between queries.
    static STACK: Cell<Vec<Pair>> = const { Cell::new(Vec::new()) };
    /// Each thread's heap for distance queries: pairs put aside, by a lower bound on their
    /// distance.
    static NEAR_HEAP: Cell<Vec<Aside>> = const { Cell::new(Vec::new()) };
    /// Each thread's spare inside-walk sets, empty, sized by the largest meshes they served.
    static FLOODS: Cell<Vec<Flood>> = const { Cell::new(Vec::new()) };
}

/// The thread's stack, emptied, taken (not borrowed: a query started inside another gets a
/// fresh one); give it back with [`put_stack`].
pub(crate) fn take_stack() -> Vec<Pair> {
    let mut stack = STACK.take();
    stack.clear();
    stack
}

/// Gives the thread its stack back.
pub(crate) fn put_stack(stack: Vec<Pair>) {
    STACK.set(stack);
}

/// The thread's distance heap, emptied, taken; give it back with [`put_heap`].
pub(crate) fn take_heap() -> Vec<Aside> {
    let mut heap = NEAR_HEAP.take();
    heap.clear();
    heap
}

/// Gives the thread its distance heap back.
pub(crate) fn put_heap(heap: Vec<Aside>) {
    NEAR_HEAP.set(heap);
}

/// One of the thread's spare inside-walk sets, if it has one; give it back with [`put_flood`].
pub(crate) fn take_flood() -> Option<Flood> {
    let mut floods = FLOODS.take();
    let flood = floods.pop();
    FLOODS.set(floods);
    flood
}

/// Gives the thread an inside-walk set back, empty.
pub(crate) fn put_flood(flood: Flood) {
    let mut floods = FLOODS.take();
    floods.push(flood);
    FLOODS.set(floods);
}

/// Traversal memory owned by the caller: queries run inside [`Workspace::run`] work in it
/// instead of their thread's, and leave the thread's as it was.
///
/// ```
/// use bvh_build::{BuildConfig, Bvh};
/// use bvh_core::{Isometry, Obb, Point, TriMesh};
/// use bvh_query::{Posed, Query, QueryOptions, Workspace};
///
/// let ball: Bvh<Obb> = Bvh::build(TriMesh::uv_sphere(Point::origin(), 1.0, 16, 32), &BuildConfig::co());
/// let there = Isometry::translation(1.5, 0.0, 0.0);
/// let query = Query::new(Posed::new(&ball, Isometry::identity()), Posed::new(&ball, there), QueryOptions::default());
/// let mut workspace = Workspace::new();
/// let pairs = workspace.run(|| query.intersecting_pairs());
/// assert_eq!(pairs, query.intersecting_pairs());
/// assert!(workspace.reserved_bytes() > 0);
/// drop(workspace); // its memory goes with it
/// ```
#[derive(Debug, Default)]
pub struct Workspace {
    stack: Vec<Pair>,
    heap: Vec<Aside>,
    floods: Vec<Flood>,
}

impl Workspace {
    /// An empty workspace: it grows to what the queries run in it need, and keeps that.
    pub fn new() -> Self {
        Self::default()
    }

    /// Runs `queries` on this thread with this workspace's memory as the traversal's; the
    /// thread's own is set aside meanwhile and restored after.
    pub fn run<R>(&mut self, queries: impl FnOnce() -> R) -> R {
        let thread_stack = STACK.replace(std::mem::take(&mut self.stack));
        let thread_heap = NEAR_HEAP.replace(std::mem::take(&mut self.heap));
        let thread_floods = FLOODS.replace(std::mem::take(&mut self.floods));
        let result = queries();
        self.stack = STACK.replace(thread_stack);
        self.heap = NEAR_HEAP.replace(thread_heap);
        self.floods = FLOODS.replace(thread_floods);
        result
    }

    /// The memory it holds.
    pub fn reserved_bytes(&self) -> usize {
        self.stack.capacity() * size_of::<Pair>()
            + self.heap.capacity() * size_of::<Aside>()
            + self.floods.iter().map(Flood::bytes).sum::<usize>()
    }

    /// Frees the calling thread's own traversal memory (it grows again when a query next runs
    /// outside a workspace): for a thread that ran a large query once.
    pub fn release_thread_memory() {
        STACK.take();
        NEAR_HEAP.take();
        FLOODS.take();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DistanceOptions, Posed, Query, QueryOptions, Surfaces};
    use bvh_build::{BuildConfig, Bvh};
    use bvh_core::{Isometry, Obb, Point, TriMesh};

    fn thread_capacity() -> usize {
        let stack = STACK.take();
        let capacity = stack.capacity();
        STACK.set(stack);
        capacity
    }

    /// Queries inside a workspace answer as outside, grow the workspace and leave the thread's
    /// memory alone; the thread's can be freed.
    #[test]
    fn queries_run_in_the_callers_memory() {
        let ball: Bvh<Obb> = Bvh::build(TriMesh::uv_sphere(Point::origin(), 1.0, 24, 48), &BuildConfig::co());
        let there = Isometry::translation(1.2, 0.3, 0.0);
        let query = Query::new(
            Posed::new(&ball, Isometry::identity()),
            Posed::new(&ball, there),
            QueryOptions::default(),
        );
        let (pairs, nearest) = (query.intersecting_pairs(), query.distance(DistanceOptions::exact()));
        let before = thread_capacity();
        assert!(before > 0, "the thread kept its stack");
        let mut workspace = Workspace::new();
        let inside = workspace.run(|| (query.intersecting_pairs(), query.distance(DistanceOptions::exact())));
        assert_eq!(inside, (pairs, nearest));
        assert!(workspace.reserved_bytes() > 0);
        assert_eq!(thread_capacity(), before);
        Workspace::release_thread_memory();
        assert_eq!(thread_capacity(), 0);
    }

    /// A contact-region query leaves its inside-walk sets, empty, in the workspace it ran in;
    /// the next one, on other meshes, reuses them and answers as on fresh ones.
    #[test]
    fn region_sets_are_kept_and_reused() {
        let big: Bvh<Obb> = Bvh::build(TriMesh::uv_sphere(Point::origin(), 1.0, 24, 48), &BuildConfig::co());
        let small: Bvh<Obb> = Bvh::build(TriMesh::uv_sphere(Point::origin(), 0.5, 8, 16), &BuildConfig::co());
        let query = |a, b, x| {
            let (a, b) =
                (Posed::new(a, Isometry::identity()), Posed::new(b, Isometry::translation(x, 0.1, 0.0)));
            Query::new(a, b, QueryOptions::default()).contact_regions(Surfaces::Closed)
        };
        let fresh = [query(&big, &big, 1.2), query(&small, &big, 0.9), query(&big, &small, 1.1)];
        assert!(fresh.iter().all(|regions| !regions.is_empty()));
        let mut workspace = Workspace::new();
        let kept =
            workspace.run(|| [query(&big, &big, 1.2), query(&small, &big, 0.9), query(&big, &small, 1.1)]);
        assert_eq!(kept, fresh);
        // Two sets, each with a corner place (a u32) per point of the larger mesh at least.
        assert!(workspace.reserved_bytes() >= 2 * big.point_count() * size_of::<u32>());
    }
}
