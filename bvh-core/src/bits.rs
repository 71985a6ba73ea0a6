//! The set bits of a mask, for sets of up to 128 items kept as the bits of a word: a
//! branch-free pass fills the mask, and only the items it marks are visited, in order.

/// A word whose bits mark items: `u32`, `u64` or `u128`.
pub trait Mask: Copy {
    /// The lowest set bit's position and the mask without it; `None` when no bit is set.
    fn pop_lowest(self) -> Option<(usize, Self)>;
}

macro_rules! mask_of {
    ($($word:ty),*) => {$(
        impl Mask for $word {
            #[inline]
            fn pop_lowest(self) -> Option<(usize, Self)> {
                (self != 0).then(|| (self.trailing_zeros() as usize, self & (self - 1)))
            }
        }
    )*};
}

mask_of!(u32, u64, u128);

/// The positions of the bits set in `mask`, lowest first: each once, ascending.
#[inline]
pub fn set_bits<M: Mask>(mut mask: M) -> impl Iterator<Item = usize> + Clone {
    std::iter::from_fn(move || {
        let (k, rest) = mask.pop_lowest()?;
        mask = rest;
        Some(k)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_bits_are_the_marked_positions_in_order() {
        assert_eq!(set_bits(0u32).count(), 0);
        assert_eq!(set_bits(0b1010_0110u32).collect::<Vec<_>>(), [1, 2, 5, 7]);
        assert_eq!(set_bits(1u64 << 63 | 1).collect::<Vec<_>>(), [0, 63]);
        let marked = [0, 31, 64, 100, 127];
        let mask = marked.iter().fold(0u128, |mask, &k| mask | 1 << k);
        assert_eq!(set_bits(mask).collect::<Vec<_>>(), marked);
        assert_eq!(set_bits(u32::MAX).collect::<Vec<_>>(), (0..32).collect::<Vec<_>>());
    }
}
