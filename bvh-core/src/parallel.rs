//! Data parallelism for the crates above, behind the `parallel` feature (on by default): with
//! it, rayon's; without it, the same calls run in order on the caller's thread, so a build
//! without rayon needs no `cfg` anywhere else and gives the same answers.

#[cfg(feature = "parallel")]
pub use rayon::{current_num_threads, join};

/// Runs `work` on one of the pool's threads (here, if this is one), so that the joins and
/// parallel iterators inside it hand work to the other threads directly: called from outside
/// the pool, each of them would queue its work from outside and put this thread to sleep until
/// a pool thread had done it – a wake-up each way, every time.
#[cfg(feature = "parallel")]
pub fn in_pool<R: Send>(work: impl FnOnce() -> R + Send) -> R {
    rayon::scope(|_| work())
}

/// Runs `work` on this thread.
#[cfg(not(feature = "parallel"))]
pub fn in_pool<R>(work: impl FnOnce() -> R) -> R {
    work()
}

/// The parallel iterator traits: rayon's, or their in-order stand-ins.
#[cfg(feature = "parallel")]
pub mod prelude {
    pub use rayon::prelude::*;
}

/// Runs both closures, one after the other, on this thread.
#[cfg(not(feature = "parallel"))]
pub fn join<A: FnOnce() -> RA, B: FnOnce() -> RB, RA, RB>(a: A, b: B) -> (RA, RB) {
    (a(), b())
}

/// One thread: the caller's.
#[cfg(not(feature = "parallel"))]
pub fn current_num_threads() -> usize {
    1
}

/// In-order stand-ins for the parts of rayon's traits the crates use, named as rayon names them.
#[cfg(not(feature = "parallel"))]
pub mod prelude {
    /// `into_par_iter`: the plain iterator.
    pub trait IntoParallelIterator: IntoIterator + Sized {
        /// The items in order.
        fn into_par_iter(self) -> Self::IntoIter {
            self.into_iter()
        }
    }
    impl<I: IntoIterator> IntoParallelIterator for I {}

    /// `par_iter` and `par_chunks` on slices.
    pub trait ParallelSlice<T> {
        /// The items in order.
        fn par_iter(&self) -> std::slice::Iter<'_, T>;
        /// The chunks in order.
        fn par_chunks(&self, size: usize) -> std::slice::Chunks<'_, T>;
    }
    impl<T> ParallelSlice<T> for [T] {
        fn par_iter(&self) -> std::slice::Iter<'_, T> {
            self.iter()
        }
        fn par_chunks(&self, size: usize) -> std::slice::Chunks<'_, T> {
            self.chunks(size)
        }
    }

    /// `par_iter_mut` and `par_chunks_mut` on slices.
    pub trait ParallelSliceMut<T> {
        /// The items in order.
        fn par_iter_mut(&mut self) -> std::slice::IterMut<'_, T>;
        /// The chunks in order.
        fn par_chunks_mut(&mut self, size: usize) -> std::slice::ChunksMut<'_, T>;
    }
    impl<T> ParallelSliceMut<T> for [T] {
        fn par_iter_mut(&mut self) -> std::slice::IterMut<'_, T> {
            self.iter_mut()
        }
        fn par_chunks_mut(&mut self, size: usize) -> std::slice::ChunksMut<'_, T> {
            self.chunks_mut(size)
        }
    }

    /// rayon's iterator adaptors without a plain-iterator namesake.
    pub trait ParallelIterator: Iterator + Sized {
        /// `map` with one state made by `init` for the whole run.
        fn map_init<S, R>(
            self,
            init: impl Fn() -> S,
            map: impl Fn(&mut S, Self::Item) -> R,
        ) -> impl Iterator<Item = R> {
            let mut state = init();
            self.map(move |item| map(&mut state, item))
        }
        /// `flat_map` over plain iterators.
        fn flat_map_iter<U: IntoIterator>(
            self,
            map: impl FnMut(Self::Item) -> U,
        ) -> std::iter::FlatMap<Self, U, impl FnMut(Self::Item) -> U> {
            self.flat_map(map)
        }
    }
    impl<I: Iterator> ParallelIterator for I {}
}

#[cfg(test)]
mod tests {
    use super::prelude::*;

    /// Whichever way they run, the calls give the items in order.
    #[test]
    fn calls_keep_the_order() {
        let items: Vec<u32> = (0..100).collect();
        let doubled: Vec<u32> = items.par_iter().map(|x| x * 2).collect();
        assert_eq!(doubled, (0..100).map(|x| x * 2).collect::<Vec<_>>());
        let sums: Vec<u32> = items.par_chunks(10).map(|c| c.iter().sum()).collect();
        assert_eq!(sums.len(), 10);
        assert_eq!(sums.iter().sum::<u32>(), items.iter().sum::<u32>());
        let with_state: Vec<u32> = items.par_iter().map_init(|| 1, |one, x| x + *one).collect();
        assert_eq!(with_state[99], 100);
        let flat: Vec<u32> = (0..3u32).into_par_iter().flat_map_iter(|k| 0..k).collect();
        assert_eq!(flat, vec![0, 0, 1]);
        let mut counts = vec![0u32; 4];
        counts.par_iter_mut().enumerate().for_each(|(k, c)| *c = k as u32);
        assert_eq!(counts, vec![0, 1, 2, 3]);
        counts.par_chunks_mut(3).for_each(|c| c[0] = 9);
        assert_eq!(counts, vec![9, 1, 2, 9]);
        let (a, b) = super::join(|| 1, || 2);
        assert_eq!((a, b), (1, 2));
        assert_eq!(super::in_pool(|| super::join(|| 3, || 4)), (3, 4));
        assert!(super::current_num_threads() >= 1);
    }
}
