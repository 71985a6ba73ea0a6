//! A hint to start reading memory a loop is about to need.

/// Asks the processor to start loading the cache lines `value` lies in, so that a read soon
/// after finds them there instead of waiting on memory. Changes nothing but time – so no test
/// can observe it; the benchmarks do – and is a no-op off x86-64.
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    prefetch_all(std::slice::from_ref(value));
}

/// [`prefetch`] for every cache line of `values`: one hint per line, not per value.
#[inline(always)]
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
pub fn prefetch_all<T>(values: &[T]) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        /// The cache line of every x86-64 processor.
        const LINE: usize = 64;
        let (first, bytes) = (values.as_ptr().cast::<i8>(), size_of_val(values));
        // SAFETY: a prefetch is only a hint: it never faults and changes no memory, whatever the
        // address (and every one lies in `values`). The SSE instruction it needs is part of
        // every x86-64 processor.
        #[allow(unsafe_code)]
        let hint = |offset: usize| unsafe { _mm_prefetch::<_MM_HINT_T0>(first.wrapping_add(offset)) };
        // Every line from the first byte's on, and the last byte's, which a start inside a line
        // may leave out.
        let mut offset = 0;
        while offset < bytes {
            hint(offset);
            offset += LINE;
        }
        if bytes > 0 {
            hint(bytes - 1);
        }
    }
}
