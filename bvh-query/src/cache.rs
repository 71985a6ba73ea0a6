//! Temporal coherence as caller-owned state: per object pair, the triangle pair that was found
//! intersecting last time, tested first next time (paper 004 §2.3.2 caches more: see the
//! crate's notes on the traversal front).

/// What one object pair remembers between first-contact queries. Results with and without it
/// are equally exact; another pair of trees or a cleared cache only costs the shortcut.
#[derive(Clone, Debug, Default)]
pub struct PairCache {
    /// Leaf-order positions (in A, in B) of the last intersecting triangle pair found.
    last_hit: Option<(usize, usize)>,
    /// The trees it was found in.
    trees: Option<(u64, u64)>,
}

impl PairCache {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        *self = Self::default();
    }

    /// The last hit, if it was found in these trees.
    pub(crate) fn last_hit(&self, trees: (u64, u64)) -> Option<(usize, usize)> {
        self.last_hit.filter(|_| self.trees == Some(trees))
    }

    /// Remembers a hit (or its absence) in these trees.
    pub(crate) fn remember(&mut self, trees: (u64, u64), hit: Option<(usize, usize)>) {
        self.trees = Some(trees);
        if hit.is_some() {
            self.last_hit = hit;
        }
    }
}
