//! Sorting by integer keys in a few linear passes: the all-pairs queries sort their answers and
//! the regions lists of triangle indices, hundreds or thousands long at a deep pose, where a
//! comparison sort pays its logarithm of compares.

/// Below this many items a comparison sort is as quick.
const RADIX_FROM: usize = 64;

/// Sorts `items` by `key`, stably (items with equal keys keep their order): a least significant
/// digit radix sort, a byte per pass, skipping the bytes every key shares (a triangle index
/// needs two or three passes, a pair of them packed into one number four or five). One pass
/// counts every byte's digits at once.
pub(crate) fn sort_by_key<T: Copy>(items: &mut Vec<T>, key: impl Fn(&T) -> u64) {
    let n = items.len();
    if !(RADIX_FROM..=u32::MAX as usize).contains(&n) {
        items.sort_by_key(&key);
        return;
    }
    let (least, most) = items.iter().map(&key).fold((u64::MAX, 0), |(l, m), k| (l.min(k), m.max(k)));
    // Every key lies between the least and the most, so above the highest bit where those two
    // differ all keys agree: no byte there needs a pass.
    let bytes = (u64::BITS - (least ^ most).leading_zeros()).div_ceil(8) as usize;
    // On the heap, as many tables as bytes: zeroing all eight on the stack costs more.
    let mut counts = vec![[0u32; 256]; bytes];
    for x in items.iter() {
        let k = key(x);
        for (b, count) in counts.iter_mut().enumerate() {
            count[(k >> (8 * b)) as usize & 0xff] += 1;
        }
    }
    let mut from = std::mem::take(items);
    // Every place is written by each pass: filled once, with any item.
    let mut to = vec![from[0]; n];
    for (b, count) in counts.iter_mut().enumerate() {
        // A byte every key shares leaves the order as it is.
        if count.contains(&(n as u32)) {
            continue;
        }
        let mut start = 0;
        for c in count.iter_mut() {
            (*c, start) = (start, start + *c);
        }
        for x in &from {
            let d = (key(x) >> (8 * b)) as usize & 0xff;
            to[count[d] as usize] = *x;
            count[d] += 1;
        }
        std::mem::swap(&mut from, &mut to);
    }
    *items = from;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The order of a stable comparison sort, for short and long lists, keys of few and of many
    /// bits, and many items sharing a key.
    #[test]
    fn sorts_as_a_stable_comparison_sort() {
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for (n, bits) in [(0, 8), (5, 8), (63, 20), (64, 20), (1000, 3), (1000, 19), (3000, 64), (3000, 40)] {
            let items: Vec<(u64, usize)> = (0..n).map(|k| (next() >> (64 - bits).min(63), k)).collect();
            let mut want = items.clone();
            want.sort_by_key(|x| x.0);
            let mut got = items;
            sort_by_key(&mut got, |x| x.0);
            assert_eq!(got, want, "{n} items of {bits} bits");
        }
        // Keys that differ only in high bits, with a run of equal low bytes.
        let mut got: Vec<u64> = (0..500).map(|k| (k % 7) << 40 | 0xabcd).rev().collect();
        let mut want = got.clone();
        want.sort();
        sort_by_key(&mut got, |&x| x);
        assert_eq!(got, want);
    }
}
