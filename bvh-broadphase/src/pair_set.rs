//! The overlapping pairs kept from update to update: one sorted list, the pairs that started and
//! stopped overlapping at the last update, and each object's neighbours, derived only when asked
//! for (a scene where everything moves never needs them).

use std::sync::OnceLock;

/// Two object ids, the smaller first.
pub(crate) type Pair = (u32, u32);

/// Below this many pairs a comparison sort beats the counting sort's pass over every id.
const COUNTING_SORT_FROM: usize = 4096;

#[derive(Clone, Debug, Default)]
pub(crate) struct PairSet {
    /// Sorted, no repeats.
    pairs: Vec<Pair>,
    started: Vec<Pair>,
    stopped: Vec<Pair>,
    /// Scratch kept for its allocations.
    spare: Vec<Pair>,
    counts: Vec<u32>,
    neighbours: OnceLock<Adjacency>,
}

impl PairSet {
    /// The last update changed nothing.
    pub(crate) fn unchanged(&mut self) {
        self.started.clear();
        self.stopped.clear();
    }

    /// Replaces every pair by `found` (each pair once, smaller id first, in any order; ids below
    /// `ids`), recording the pairs that started and stopped.
    pub(crate) fn replace(&mut self, found: &mut Vec<Pair>, ids: usize) {
        sort_pairs(found, ids, &mut self.spare, &mut self.counts);
        self.unchanged();
        let (old, new) = (&self.pairs, &*found);
        let (mut i, mut j) = (0, 0);
        while i < old.len() && j < new.len() {
            match old[i].cmp(&new[j]) {
                std::cmp::Ordering::Less => {
                    self.stopped.push(old[i]);
                    i += 1;
                }
                std::cmp::Ordering::Greater => {
                    self.started.push(new[j]);
                    j += 1;
                }
                std::cmp::Ordering::Equal => {
                    i += 1;
                    j += 1;
                }
            }
        }
        self.stopped.extend_from_slice(&old[i..]);
        self.started.extend_from_slice(&new[j..]);
        std::mem::swap(&mut self.pairs, found);
        self.neighbours = OnceLock::new();
    }

    /// Replaces every pair with a `touched` object by `found` (sorted, no repeats, each pair with
    /// a touched object), recording the pairs that started and stopped.
    pub(crate) fn patch(&mut self, found: &[Pair], touched: impl Fn(u32) -> bool) {
        self.unchanged();
        let mut next = std::mem::take(&mut self.spare);
        next.clear();
        let mut f = 0;
        for &p in &self.pairs {
            // Found pairs before `p` are new: every old pair before `p` was matched already.
            while f < found.len() && found[f] < p {
                next.push(found[f]);
                self.started.push(found[f]);
                f += 1;
            }
            if f < found.len() && found[f] == p {
                next.push(p);
                f += 1;
            } else if touched(p.0) || touched(p.1) {
                self.stopped.push(p);
            } else {
                next.push(p);
            }
        }
        next.extend_from_slice(&found[f..]);
        self.started.extend_from_slice(&found[f..]);
        self.spare = std::mem::replace(&mut self.pairs, next);
        self.neighbours = OnceLock::new();
    }

    pub(crate) fn pairs(&self) -> &[Pair] {
        &self.pairs
    }

    pub(crate) fn started(&self) -> &[Pair] {
        &self.started
    }

    pub(crate) fn stopped(&self) -> &[Pair] {
        &self.stopped
    }

    /// The objects overlapping `id`, sorted (derived from the pairs the first time it is asked
    /// after an update).
    pub(crate) fn neighbours(&self, id: u32, ids: usize) -> &[u32] {
        let adjacency = self.neighbours.get_or_init(|| Adjacency::new(&self.pairs, ids));
        adjacency.of(id)
    }
}

/// Sorts pairs (smaller id first, ids below `ids`): by the first id with a counting sort, then
/// each first id's few pairs by the second.
fn sort_pairs(pairs: &mut Vec<Pair>, ids: usize, scratch: &mut Vec<Pair>, counts: &mut Vec<u32>) {
    if pairs.len() < COUNTING_SORT_FROM {
        pairs.sort_unstable();
        return;
    }
    counts.clear();
    counts.resize(ids + 1, 0);
    for &(a, _) in pairs.iter() {
        counts[a as usize + 1] += 1;
    }
    for i in 1..counts.len() {
        counts[i] += counts[i - 1];
    }
    scratch.clear();
    scratch.resize(pairs.len(), (0, 0));
    for &p in pairs.iter() {
        let at = &mut counts[p.0 as usize];
        scratch[*at as usize] = p;
        *at += 1;
    }
    // `counts[a]` is now where first id `a`'s pairs end.
    let mut begin = 0;
    for &end in &counts[..ids] {
        insertion_sort(&mut scratch[begin..end as usize]);
        begin = end as usize;
    }
    std::mem::swap(pairs, scratch);
}

/// Sorts pairs in place: a first id has only a few neighbours mostly, and then a library sort's
/// call costs more than sorting them.
fn insertion_sort(pairs: &mut [Pair]) {
    if pairs.len() > 16 {
        return pairs.sort_unstable();
    }
    for i in 1..pairs.len() {
        let mut j = i;
        while j > 0 && pairs[j - 1] > pairs[j] {
            pairs.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// Each object's neighbours, in one array.
#[derive(Clone, Debug)]
struct Adjacency {
    /// Object `i`'s neighbours are `list[starts[i]..starts[i + 1]]`.
    starts: Vec<u32>,
    list: Vec<u32>,
}

impl Adjacency {
    fn new(pairs: &[Pair], ids: usize) -> Self {
        let mut starts = vec![0u32; ids + 1];
        for &(a, b) in pairs {
            starts[a as usize + 1] += 1;
            starts[b as usize + 1] += 1;
        }
        for i in 1..starts.len() {
            starts[i] += starts[i - 1];
        }
        let mut list = vec![0; 2 * pairs.len()];
        let mut next = starts.clone();
        // In pair order each list fills sorted: first the smaller neighbours (pairs where the
        // object comes second, ordered by the first), then the larger ones.
        for &(a, b) in pairs {
            list[next[b as usize] as usize] = a;
            next[b as usize] += 1;
        }
        for &(a, b) in pairs {
            list[next[a as usize] as usize] = b;
            next[a as usize] += 1;
        }
        Self { starts, list }
    }

    fn of(&self, id: u32) -> &[u32] {
        let id = id as usize;
        match (self.starts.get(id), self.starts.get(id + 1)) {
            (Some(&from), Some(&to)) => &self.list[from as usize..to as usize],
            _ => &[],
        }
    }
}
