//! Temporal coherence as caller-owned state: per object pair, where the last first-contact
//! query found its contact – the triangle pair, tested first next time, and the nodes holding
//! it, from a few levels above which the next search starts (paper 004's key nodes).

/// Where a traversal stopped at a contact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Hit {
    /// Leaf-order positions of the two triangles (in A, in B).
    pub(crate) positions: [usize; 2],
    /// The nodes whose leaves hold them.
    pub(crate) owners: [usize; 2],
}

/// What one object pair remembers between first-contact queries. Results with and without it
/// are equally exact; another pair of trees or a cleared cache only costs the shortcut.
#[derive(Clone, Debug, Default)]
pub struct PairCache {
    /// The last contact found.
    last: Option<Hit>,
    /// The trees it was found in.
    trees: Option<(u64, u64)>,
    /// Whether the last query found a contact.
    touching: bool,
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

    /// The last contact, if it was found in these trees.
    pub(crate) fn get(&self, trees: (u64, u64)) -> Option<Hit> {
        self.last.filter(|_| self.trees == Some(trees))
    }

    /// Whether the last query found a contact.
    pub(crate) fn touching(&self) -> bool {
        self.touching
    }

    /// Remembers a contact (or its absence, which keeps the last one) in these trees.
    pub(crate) fn remember(&mut self, trees: (u64, u64), hit: Option<Hit>) {
        if hit.is_some() || self.trees != Some(trees) {
            self.last = hit;
        }
        self.trees = Some(trees);
        self.touching = hit.is_some();
    }
}
