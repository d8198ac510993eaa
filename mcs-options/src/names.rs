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
/// trimmed from both ends; longer than [`MAX_NAME`], it is shortened by its words
/// ([`shorten`]), or when that is not enough cut and given a hash of the whole, so that two
/// long names sharing a prefix stay apart. `None` when nothing is left.
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
    if let Some(short) = shorten(trimmed, MAX_NAME) {
        return Some(short);
    }
    // Too long even by words: cut, and a hash of the whole keeps it apart from others.
    let suffix = format!("_{:08x}", fnv1a(trimmed.as_bytes(), 0) as u32);
    let mut cut = MAX_NAME - suffix.len();
    while !trimmed.is_char_boundary(cut) {
        cut -= 1;
    }
    let head = trimmed[..cut].trim_end_matches(['_', '-']);
    Some(format!("{head}{suffix}"))
}

/// Long words names are made of, and how a shortened name writes them (a plural keeps its
/// `s`: `repositories` → `repos`).
const ABBREVIATIONS: &[(&str, &str)] = &[
    ("administrator", "admin"),
    ("application", "app"),
    ("attachment", "attach"),
    ("authentication", "auth"),
    ("authorization", "authz"),
    ("collaborator", "collab"),
    ("configuration", "config"),
    ("deployment", "deploy"),
    ("description", "desc"),
    ("directory", "dir"),
    ("document", "doc"),
    ("environment", "env"),
    ("identifier", "id"),
    ("information", "info"),
    ("installation", "install"),
    ("integration", "integ"),
    ("management", "mgmt"),
    ("message", "msg"),
    ("notification", "notif"),
    ("organization", "org"),
    ("organisation", "org"),
    ("parameter", "param"),
    ("permission", "perm"),
    ("property", "prop"),
    ("properties", "props"),
    ("reference", "ref"),
    ("repository", "repo"),
    ("repositories", "repos"),
    ("request", "req"),
    ("response", "resp"),
    ("statistics", "stats"),
    ("subscription", "sub"),
    ("variable", "var"),
    ("version", "ver"),
];

/// Words a shortened name can do without.
const FILLERS: &[&str] = &[
    "a", "an", "and", "at", "by", "for", "from", "in", "of", "on", "or", "the", "to", "with",
];

/// `name` made at most `max` bytes long by its words, the way a person would shorten it:
/// a word said again is dropped (`repos_list-repos-for-org` → `repos_list-for-org`), long
/// words are abbreviated alike everywhere (a short table: `organization` → `org`,
/// `repositories` → `repos`), filler words go (`for`, `of`, `the`…), and last, long words
/// are cut, never the first. Words are the parts between `_` and `-` and the parts of
/// `camelCase`; separators and case are kept. `None` when even that is too long, or for a
/// name that fits already (then nothing needs shortening).
///
/// ```
/// use mcs_options::names::shorten;
///
/// assert_eq!(
///     shorten("orgs_custom-properties-for-repos-create-or-update-organization-values", 48)
///         .as_deref(),
///     Some("orgs_custom-props-repos-create-update-org-values"),
/// );
/// assert_eq!(shorten("short", 64), None);
/// ```
pub fn shorten(name: &str, max: usize) -> Option<String> {
    if name.len() <= max {
        return None;
    }
    // (separator before the word, the word), the first with none.
    let mut words: Vec<(&str, String)> = Vec::new();
    let mut start = 0;
    let bytes = name.as_bytes();
    for (i, ch) in name.char_indices() {
        let separator = matches!(ch, '_' | '-');
        let camel = ch.is_ascii_uppercase() && i > 0 && bytes[i - 1].is_ascii_lowercase();
        if separator || camel {
            if i > start {
                words.push((separator_before(name, start), name[start..i].to_owned()));
            }
            start = if separator { i + 1 } else { i };
        }
    }
    if start < name.len() {
        words.push((separator_before(name, start), name[start..].to_owned()));
    }
    let join = |words: &[(&str, String)]| -> String {
        let mut out = String::new();
        for (index, (separator, word)) in words.iter().enumerate() {
            if index > 0 {
                out.push_str(separator);
            }
            out.push_str(word);
        }
        out
    };
    let fits = |words: &[(&str, String)]| join(words).len() <= max;
    // 1. A word said again (a path's repeated word) goes.
    let mut seen = std::collections::HashSet::new();
    let mut index = 0;
    words.retain(|(_, word)| {
        let keep = index == 0 || seen.insert(word.to_ascii_lowercase()) || word.len() <= 2;
        if index == 0 {
            seen.insert(word.to_ascii_lowercase());
        }
        index += 1;
        keep
    });
    if fits(&words) {
        return Some(join(&words));
    }
    // 2. Long words, abbreviated alike everywhere.
    for (_, word) in &mut words {
        if let Some(short) = abbreviate(word) {
            *word = short;
        }
    }
    if fits(&words) {
        return Some(join(&words));
    }
    // 3. Filler words.
    let mut index = 0;
    words.retain(|(_, word)| {
        index += 1;
        index == 1 || !FILLERS.contains(&word.to_ascii_lowercase().as_str())
    });
    if fits(&words) {
        return Some(join(&words));
    }
    // 4. Long words cut, longest first, down to four letters; never the first word.
    for keep in (4..=8).rev() {
        for (_, word) in words.iter_mut().skip(1) {
            if word.len() > keep && word.is_ascii() {
                word.truncate(keep);
            }
        }
        if fits(&words) {
            return Some(join(&words));
        }
    }
    None
}

/// The separator just before byte `start` of `name` (`_`, `-`, or nothing).
fn separator_before(name: &str, start: usize) -> &str {
    start
        .checked_sub(1)
        .and_then(|i| name.get(i..start))
        .filter(|separator| matches!(*separator, "_" | "-"))
        .unwrap_or_default()
}

/// `word` abbreviated by [`ABBREVIATIONS`], keeping a plural `s` and a leading capital.
fn abbreviate(word: &str) -> Option<String> {
    let lower = word.to_ascii_lowercase();
    let (stem, plural) = match ABBREVIATIONS.iter().find(|(long, _)| *long == lower) {
        Some((_, short)) => ((*short).to_owned(), ""),
        None => {
            let singular = lower.strip_suffix('s')?;
            let (_, short) = ABBREVIATIONS.iter().find(|(long, _)| *long == singular)?;
            ((*short).to_owned(), "s")
        }
    };
    let mut out = format!("{stem}{plural}");
    if word.starts_with(|c: char| c.is_ascii_uppercase()) {
        out[..1].make_ascii_uppercase();
    }
    Some(out)
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
    fn long_names_are_shortened_by_words() {
        // GitHub's longest operationIds, as the model would see them.
        let github = "orgs/custom-properties-for-repos-create-or-update-organization-values";
        let name = sanitize(github, is_tool_name_char).unwrap();
        assert_eq!(
            name,
            "orgs_custom-props-for-repos-create-or-update-org-values"
        );
        assert!(name.len() <= MAX_NAME);
        // A repeated word goes first.
        assert_eq!(
            shorten(
                "repos_list-repos-for-the-authenticated-user-with-repos-settings",
                51
            )
            .as_deref(),
            Some("repos_list-for-the-authenticated-user-with-settings")
        );
        // camelCase words, capitals kept.
        assert_eq!(
            shorten(
                "getOrganizationRepositoryEnvironmentVariablesForTheDeploymentPipeline",
                48
            )
            .as_deref(),
            Some("getOrgRepoEnvVarsForTheDeployPipeline")
        );
        // What words cannot shorten is cut with a hash, as before.
        let long = "a".repeat(100);
        assert_eq!(shorten(&long, MAX_NAME), None);
        let hashed = sanitize(&long, is_tool_name_char).unwrap();
        assert_eq!(hashed.len(), MAX_NAME);
        assert!(hashed.ends_with(&format!("_{:08x}", fnv1a(long.as_bytes(), 0) as u32)));
    }

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
