//! A count of the bytes extraction examines, so tests can pin "linear in the size of the
//! output" as a number instead of a wall-clock bound that depends on the machine.
//!
//! The readers that may look at the same bytes more than once — the JSON reader, the
//! pythonic reader, substring searches bounded by a limit — add what they examined. Only
//! debug builds count (tests run there); release builds compile the counting away.

#[cfg(debug_assertions)]
use std::cell::Cell;

#[cfg(debug_assertions)]
thread_local! {
    static EXAMINED: Cell<u64> = const { Cell::new(0) };
}

/// Adds `bytes` to this thread's count.
#[inline]
pub(crate) fn examined(bytes: usize) {
    #[cfg(debug_assertions)]
    EXAMINED.with(|count| count.set(count.get().saturating_add(bytes as u64)));
    #[cfg(not(debug_assertions))]
    let _ = bytes;
}

/// The bytes examined on this thread since the last call, which resets the count; `None`
/// in release builds, which do not count.
pub fn take_examined() -> Option<u64> {
    #[cfg(debug_assertions)]
    return Some(EXAMINED.with(|count| count.replace(0)));
    #[cfg(not(debug_assertions))]
    None
}
