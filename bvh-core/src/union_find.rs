//! Items joined into groups pair by pair (union–find), each group named by its least member.

/// Items `0..n` in groups joined pair by pair. A group's root is its least member, so the
/// groups' roots come in the order of their first items: whoever numbers the groups by first
/// appearance gets the same numbers however the joins came.
#[derive(Clone, Debug, Default)]
pub struct UnionFind {
    parent: Vec<usize>,
}

impl UnionFind {
    /// `n` items, each alone.
    pub fn new(n: usize) -> Self {
        let mut groups = Self::default();
        groups.reset(n);
        groups
    }

    /// `n` items, each alone again (the memory kept).
    pub fn reset(&mut self, n: usize) {
        self.parent.clear();
        self.parent.extend(0..n);
    }

    /// The least member of item `k`'s group (halving the paths on the way).
    pub fn root(&mut self, mut k: usize) -> usize {
        while self.parent[k] != k {
            self.parent[k] = self.parent[self.parent[k]];
            k = self.parent[k];
        }
        k
    }

    /// Joins the groups of items `k` and `m`.
    pub fn union(&mut self, k: usize, m: usize) {
        let (r, s) = (self.root(k), self.root(m));
        self.parent[r.max(s)] = r.min(s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_are_named_by_their_least_members() {
        let mut groups = UnionFind::new(8);
        for (k, m) in [(5, 3), (7, 5), (6, 1), (2, 6)] {
            groups.union(k, m);
        }
        let roots: Vec<usize> = (0..8).map(|k| groups.root(k)).collect();
        assert_eq!(roots, [0, 1, 1, 3, 4, 3, 1, 3]);
        groups.reset(3);
        assert_eq!((0..3).map(|k| groups.root(k)).collect::<Vec<_>>(), [0, 1, 2]);
    }
}
