//! The set bits of a mask, for sets of a few items kept as the bits of a word: a branch-free
//! pass fills the mask, and only the items it marks are visited.

/// The positions of the bits set in `mask`, lowest first.
#[inline]
pub(crate) fn set_bits(mut mask: u32) -> impl Iterator<Item = usize> + Clone {
    std::iter::from_fn(move || {
        let k = (mask != 0).then(|| mask.trailing_zeros() as usize)?;
        mask &= mask - 1;
        Some(k)
    })
}
