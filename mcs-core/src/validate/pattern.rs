//! `pattern`: whether a string matches a schema's regular expression.
//!
//! JSON Schema patterns are ECMA-262 expressions and match anywhere in the string (`^` and
//! `$` anchor them when the schema wants that). The `regex` crate reads the common part of
//! that syntax; what it cannot compile (lookaround, backreferences) or what would compile to
//! more than [`SIZE_LIMIT`] is accepted unchecked: the server still checks, and a schema's
//! oddity must not turn into an error the model cannot fix. ECMA's `\d` and `\w` are ASCII
//! where the `regex` crate's are Unicode: [`ecma_regex`] spells them out as ASCII classes
//! first, so that `\d` refuses `٣` as the server would (Prism found a GitHub pattern that
//! mcs let through).
//!
//! Without the `pattern` feature nothing is compiled and every string matches: a crate that
//! only annotates its own methods does not build a regex engine.

/// `pattern`, an ECMA-262 regular expression as JSON Schema and OpenAPI mean it, in the
/// `regex` crate's syntax: `\d`, `\D`, `\w` and `\W` become the ASCII classes they are in
/// ECMA (`[0-9]`, `[^0-9]`, `[0-9A-Za-z_]`, `[^0-9A-Za-z_]`; inside a class, `0-9` and
/// `0-9A-Za-z_`). Everything else is kept.
pub fn ecma_regex(pattern: &str) -> std::borrow::Cow<'_, str> {
    if !pattern.contains('\\') {
        return std::borrow::Cow::Borrowed(pattern);
    }
    let mut out = String::with_capacity(pattern.len() + 16);
    let mut in_class = false;
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let Some(next) = chars.next() else {
                    out.push(c);
                    break;
                };
                let replacement = match (next, in_class) {
                    ('d', false) => Some("[0-9]"),
                    ('D', false) => Some("[^0-9]"),
                    ('w', false) => Some("[0-9A-Za-z_]"),
                    ('W', false) => Some("[^0-9A-Za-z_]"),
                    ('d', true) => Some("0-9"),
                    ('w', true) => Some("0-9A-Za-z_"),
                    _ => None,
                };
                match replacement {
                    Some(ascii) => out.push_str(ascii),
                    None => {
                        out.push(c);
                        out.push(next);
                    }
                }
            }
            '[' if !in_class => {
                in_class = true;
                out.push(c);
            }
            ']' if in_class => {
                in_class = false;
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

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
        let regex = RegexBuilder::new(&super::ecma_regex(pattern))
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
    fn digit_and_word_classes_are_ascii_as_in_ecma() {
        assert!(matches(r"^\d+\.\d+$", "1.25"));
        assert!(!matches(r"^\d+$", "١٢٣"));
        assert!(!matches(r"^\w+$", "café"));
        assert!(matches(r"^[\w.-]+$", "a.b-c_9"));
        assert!(!matches(r"^[\w.-]+$", "é"));
        assert!(matches(r"^\D\W$", "x!"));
        assert!(matches(r"^[\\d]$", "\\"));
        assert_eq!(ecma_regex(r"[\d\s]\d"), r"[0-9\s][0-9]");
        assert_eq!(ecma_regex("plain"), "plain");
    }

    #[test]
    fn patterns_beyond_the_regex_crate_are_not_checked() {
        assert!(matches("^(?!admin$).+", "admin"));
        assert!(matches(r"^(a)\1$", "ab"));
    }
}
