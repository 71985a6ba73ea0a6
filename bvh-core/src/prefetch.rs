//! A hint to start reading memory a loop is about to need.

/// Asks the processor to start loading the cache lines `value` lies in, so that a read soon
/// after finds them there instead of waiting on memory. Changes nothing but time – so no test
/// can observe it; the benchmarks do – and is a no-op off x86-64.
#[inline(always)]
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let first = (value as *const T).cast::<i8>();
        let last = first.wrapping_add(size_of::<T>().saturating_sub(1));
        // SAFETY: a prefetch is only a hint: it never faults and changes no memory, whatever the
        // address (and both lie in `value`). The SSE instruction it needs is part of every
        // x86-64 processor.
        #[allow(unsafe_code)]
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(first);
            _mm_prefetch::<_MM_HINT_T0>(last);
        }
    }
}
