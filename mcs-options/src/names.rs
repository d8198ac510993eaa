//! The rules for the names a model sees: tool names and argument keys. The macros check
//! them at compile time, the runtime when it makes names (OpenAPI operations, namespaced
//! orchestrator tools, provider exports): one rule, written here once.

/// The longest tool name or argument key every provider accepts.
pub const MAX_NAME: usize = 64;

/// A character of a tool name, `[A-Za-z0-9_-]`: the providers' common ground (OpenAI,
/// Anthropic and Gemini all accept it).
pub fn is_tool_name_char(ch: char) -> bool {
    ch.is_ascii_alphanumeric() || matches!(ch, '_' | '-')
}

/// A character of an argument key, `[A-Za-z0-9_.-]`: Anthropic's rule for property keys, the
/// strictest of the providers' (a single key outside it makes the Messages API refuse the
/// whole request).
pub fn is_argument_key_char(ch: char) -> bool {
    ch.is_ascii_alphanumeric() || matches!(ch, '_' | '.' | '-')
}

/// Whether `name` is a tool name every provider accepts: `^[A-Za-z0-9_-]{1,64}$`.
pub fn is_tool_name(name: &str) -> bool {
    problem(name, is_tool_name_char).is_none()
}

/// Whether `key` is an argument key every provider accepts: `^[A-Za-z0-9_.-]{1,64}$`.
pub fn is_argument_key(key: &str) -> bool {
    problem(key, is_argument_key_char).is_none()
}

/// What is wrong with a name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NameProblem {
    /// The name is empty.
    Empty,
    /// The name has this many characters, more than [`MAX_NAME`].
    TooLong(usize),
    /// The characters the rule does not allow, each once, in order of appearance.
    Characters(Vec<char>),
}

/// What is wrong with `name` as a tool name, if anything.
pub fn tool_name_problem(name: &str) -> Option<NameProblem> {
    problem(name, is_tool_name_char)
}

/// What is wrong with `key` as an argument key, if anything.
pub fn argument_key_problem(key: &str) -> Option<NameProblem> {
    problem(key, is_argument_key_char)
}

fn problem(name: &str, allowed: fn(char) -> bool) -> Option<NameProblem> {
    let length = name.chars().count();
    if length == 0 {
        return Some(NameProblem::Empty);
    }
    if length > MAX_NAME {
        return Some(NameProblem::TooLong(length));
    }
    let mut bad: Vec<char> = Vec::new();
    for ch in name.chars().filter(|ch| !allowed(*ch)) {
        if !bad.contains(&ch) {
            bad.push(ch);
        }
    }
    (!bad.is_empty()).then_some(NameProblem::Characters(bad))
}

/// `raw` as an argument key every provider takes: itself when [`is_argument_key`], else
/// other characters become `_` (runs collapse, none at the ends) and a key longer than 64
/// characters is cut and given a hash of the whole: `filter[name]` → `filter_name`, `$top`
/// → `top`, `@odata.type` → `odata.type`; `arg` when nothing is left. The same text always
/// gives the same key; a caller that renames keeps the original to send.
///
/// ```
/// use mcs_options::names::{argument_key, is_argument_key};
/// assert_eq!(argument_key("filter[name]"), "filter_name");
/// assert_eq!(argument_key("petId"), "petId");
/// assert!(is_argument_key(&argument_key("Account Number")));
/// ```
pub fn argument_key(raw: &str) -> String {
    if is_argument_key(raw) {
        return raw.to_owned();
    }
    sanitize(raw, is_argument_key_char).unwrap_or_else(|| "arg".to_owned())
}

/// The first of `base`, `base_2`, `base_3`, … (each cut to fit 64 characters) that `taken`
/// does not hold: how a renamed argument stays unique in its tool. `base` is a key in the
/// sense of [`is_argument_key`] but for its length.
///
/// ```
/// use mcs_options::names::unused_argument_key;
/// let taken = ["top", "top_2"];
/// assert_eq!(unused_argument_key("top", |k| taken.contains(&k)), "top_3");
/// assert_eq!(unused_argument_key("skip", |k| taken.contains(&k)), "skip");
/// ```
pub fn unused_argument_key(base: &str, taken: impl Fn(&str) -> bool) -> String {
    let fit = |suffix: &str| {
        let room = MAX_NAME.saturating_sub(suffix.len()).min(base.len());
        let mut cut = room;
        while !base.is_char_boundary(cut) {
            cut -= 1;
        }
        format!("{}{suffix}", &base[..cut])
    };
    let mut candidate = fit("");
    let mut counter = 1;
    while taken(&candidate) {
        counter += 1;
        candidate = fit(&format!("_{counter}"));
    }
    candidate
}

/// `raw` with every character `keep` refuses replaced by `_`, runs of `_` collapsed and `_`
/// trimmed from both ends; longer than [`MAX_NAME`], it is cut and given a hash of the whole,
/// so that two long names sharing a prefix stay apart. `None` when nothing is left.
pub fn sanitize(raw: &str, keep: fn(char) -> bool) -> Option<String> {
    let mut out = String::with_capacity(raw.len().min(256));
    for ch in raw.chars() {
        let ch = if keep(ch) { ch } else { '_' };
        if ch == '_' && out.ends_with('_') {
            continue;
        }
        out.push(ch);
    }
    let trimmed = out.trim_matches('_');
    if trimmed.is_empty() {
        return None;
    }
    if trimmed.len() <= MAX_NAME {
        return Some(trimmed.to_owned());
    }
    let suffix = format!("_{:08x}", fnv1a(trimmed.as_bytes(), 0) as u32);
    let mut cut = MAX_NAME - suffix.len();
    while !trimmed.is_char_boundary(cut) {
        cut -= 1;
    }
    let head = trimmed[..cut].trim_end_matches('_');
    Some(format!("{head}{suffix}"))
}

/// FNV-1a, seeded with `salt`: stable across builds and platforms, so that a name made
/// from a long one is the same on every run.
pub fn fnv1a(bytes: &[u8], salt: u64) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325 ^ salt;
    for byte in bytes {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argument_keys_fit_the_strictest_provider() {
        assert_eq!(argument_key("petId"), "petId");
        assert_eq!(argument_key("_private.key-1"), "_private.key-1");
        assert_eq!(argument_key("filter[name]"), "filter_name");
        assert_eq!(argument_key("page[size]"), "page_size");
        assert_eq!(argument_key("$top"), "top");
        assert_eq!(argument_key("@odata.type"), "odata.type");
        assert_eq!(argument_key("Account Number"), "Account_Number");
        assert_eq!(argument_key("日本"), "arg");
        assert_eq!(argument_key(""), "arg");
        let long = argument_key(&"x".repeat(65));
        assert_eq!(long.len(), MAX_NAME);
        for key in [
            "filter[name]",
            "$top",
            "@odata.type",
            &"y".repeat(200),
            "a b",
        ] {
            assert!(is_argument_key(&argument_key(key)), "{key}");
        }
    }
}
