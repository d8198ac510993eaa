//! `pattern`: whether a string matches a schema's regular expression.
//!
//! JSON Schema patterns are ECMA-262 expressions and match anywhere in the string (`^` and
//! `$` anchor them when the schema wants that). The `regex` crate reads the common part of
//! that syntax; what it cannot compile (lookaround, backreferences) or what would compile to
//! more than [`SIZE_LIMIT`] is accepted unchecked: the server still checks, and a schema's
//! oddity must not turn into an error the model cannot fix. Its `\d`, `\w` and `\s` are
//! Unicode-aware where ECMA's are ASCII, so a pattern may accept a little more than it would
//! in JavaScript, never less.
//!
//! Without the `pattern` feature nothing is compiled and every string matches: a crate that
//! only annotates its own methods does not build a regex engine.

/// Whether `text` matches `pattern`, or `pattern` cannot be checked here.
#[cfg(feature = "pattern")]
pub(crate) fn matches(pattern: &str, text: &str) -> bool {
    match cache::compiled(pattern) {
        Some(regex) => regex.is_match(text),
        None => true,
    }
}

/// Whether `text` matches `pattern`: always, without a regex engine.
#[cfg(not(feature = "pattern"))]
pub(crate) fn matches(_pattern: &str, _text: &str) -> bool {
    true
}

/// The most memory one compiled pattern may take. Real schemas' patterns take a few
/// kilobytes; this keeps a hostile one (`(a{1000}){1000}`) from taking the process's.
#[cfg(feature = "pattern")]
const SIZE_LIMIT: usize = 1 << 20;

#[cfg(feature = "pattern")]
mod cache {
    use std::collections::HashMap;
    use std::sync::{Arc, Mutex, OnceLock, PoisonError};

    use regex::{Regex, RegexBuilder};

    use super::SIZE_LIMIT;

    /// How many patterns are kept compiled. A driver's schemas hold a few dozen; the bound
    /// is for schemas that arrive with each call and could otherwise grow the cache forever.
    pub(super) const CAPACITY: usize = 256;

    /// Compiled patterns by their text; `None` for those that do not compile, so a bad
    /// pattern is not compiled again on every call.
    type Cache = HashMap<Box<str>, Option<Arc<Regex>>>;

    fn cache() -> &'static Mutex<Cache> {
        static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
        CACHE.get_or_init(|| Mutex::new(HashMap::new()))
    }

    /// `pattern` compiled, from the cache when it was compiled before. The lock is not held
    /// while compiling: two threads may compile the same pattern once each, which costs less
    /// than making every other pattern wait.
    pub(super) fn compiled(pattern: &str) -> Option<Arc<Regex>> {
        // A panic elsewhere while the lock was held leaves a map that is still whole.
        let lock = || cache().lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(entry) = lock().get(pattern) {
            return entry.clone();
        }
        let regex = RegexBuilder::new(pattern)
            .size_limit(SIZE_LIMIT)
            .dfa_size_limit(SIZE_LIMIT)
            .build()
            .ok()
            .map(Arc::new);
        let mut cache = lock();
        // Emptying a full cache keeps the bound without bookkeeping for an eviction order;
        // the patterns in use come back after one compilation each.
        if cache.len() >= CAPACITY {
            cache.clear();
        }
        cache.insert(pattern.into(), regex.clone());
        regex
    }

    #[cfg(test)]
    pub(super) fn len() -> usize {
        cache().lock().unwrap_or_else(PoisonError::into_inner).len()
    }
}

#[cfg(all(test, feature = "pattern"))]
mod tests {
    use super::*;

    #[test]
    fn the_cache_stays_bounded() {
        for n in 0..cache::CAPACITY * 2 {
            assert!(matches(&format!("^a{{{n}}}$"), &"a".repeat(n)));
        }
        assert!(cache::len() <= cache::CAPACITY);
    }

    #[test]
    fn patterns_too_large_to_compile_are_not_checked() {
        assert!(matches("(a{1000}){1000}", "b"));
    }

    #[test]
    fn patterns_beyond_the_regex_crate_are_not_checked() {
        assert!(matches("^(?!admin$).+", "admin"));
        assert!(matches(r"^(a)\1$", "ab"));
    }
}
