//! Keys made from foreign text that providers must take: tool names (see
//! `openapi::names`) and argument keys, the property keys of a tool's input schema.

/// The longest tool name or argument key providers accept.
pub const MAX_NAME: usize = 64;

/// Whether every provider takes `key` as an argument, a top-level property key of a tool's
/// input schema: `^[a-zA-Z0-9_.-]{1,64}$`, Anthropic's rule and the strictest — a single key
/// outside it makes the Messages API refuse the whole request, every tool with it.
pub fn is_argument_key(key: &str) -> bool {
    (1..=MAX_NAME).contains(&key.len()) && key.chars().all(argument_char)
}

fn argument_char(ch: char) -> bool {
    ch.is_ascii_alphanumeric() || matches!(ch, '_' | '.' | '-')
}

/// `raw` as an argument key every provider takes: itself when [`is_argument_key`], else
/// other characters become `_` (runs collapse, none at the ends) and a key longer than 64
/// characters is cut and given a hash of the whole: `filter[name]` → `filter_name`, `$top`
/// → `top`, `@odata.type` → `odata.type`; `arg` when nothing is left. The same text always
/// gives the same key; a caller that renames keeps the original to send.
///
/// ```
/// use mcs_core::export::{argument_key, is_argument_key};
/// assert_eq!(argument_key("filter[name]"), "filter_name");
/// assert_eq!(argument_key("petId"), "petId");
/// assert!(is_argument_key(&argument_key("Account Number")));
/// ```
pub fn argument_key(raw: &str) -> String {
    if is_argument_key(raw) {
        return raw.to_owned();
    }
    sanitize(raw, argument_char).unwrap_or_else(|| "arg".to_owned())
}

/// The first of `base`, `base_2`, `base_3`, … (each cut to fit 64 characters) that `taken`
/// does not hold: how a renamed argument stays unique in its tool. `base` is a key in the
/// sense of [`is_argument_key`] but for its length.
///
/// ```
/// use mcs_core::export::unused_argument_key;
/// let taken = ["top", "top_2"];
/// assert_eq!(unused_argument_key("top", |k| taken.contains(&k)), "top_3");
/// assert_eq!(unused_argument_key("skip", |k| taken.contains(&k)), "skip");
/// ```
pub fn unused_argument_key(base: &str, taken: impl Fn(&str) -> bool) -> String {
    let fit = |suffix: &str| {
        let room = MAX_NAME.saturating_sub(suffix.len()).min(base.len());
        // `base` is ASCII (a key but for its length), so any cut is on a boundary.
        format!("{}{suffix}", base.get(..room).unwrap_or(base))
    };
    let mut candidate = fit("");
    let mut counter = 1;
    while taken(&candidate) {
        counter += 1;
        candidate = fit(&format!("_{counter}"));
    }
    candidate
}

/// `raw` with the characters `keep` refuses as `_`, runs of `_` collapsed and trimmed from
/// both ends; longer than [`MAX_NAME`], cut and given a hash of the whole so that two long
/// names sharing a prefix stay apart. `None` when nothing usable is left.
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
    // The hash is of the sanitised name, so the same operationId always gives the same
    // tool name; 8 hex digits keep accidental clashes unlikely in any real API.
    let suffix = format!("_{:08x}", fnv1a(trimmed.as_bytes()) as u32);
    let keep = MAX_NAME - suffix.len();
    // Every character is ASCII here, so the cut lands on a character boundary.
    let head = trimmed.get(..keep).unwrap_or(trimmed).trim_end_matches('_');
    Some(format!("{head}{suffix}"))
}

/// 64-bit FNV-1a: tiny, stable across releases and platforms (unlike `DefaultHasher`).
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
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
