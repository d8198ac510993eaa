//! Namespaced tool names: `label__tool`, within the 64 characters every provider accepts,
//! never two alike.

use mcs_options::names::{MAX_NAME, fnv1a, shorten};

/// The separator between label and tool name.
pub const SEPARATOR: &str = "__";

/// `label__tool`, shortened when longer than [`MAX_NAME`]: the tool part by its words
/// ([`shorten`]), or, when that is not enough or the result is taken, cut with a short hash
/// of the whole name that keeps it distinct. `taken` says which names are in use; a clash
/// (two long names cut alike) moves to the next hash.
pub(crate) fn namespaced(label: &str, tool: &str, taken: impl Fn(&str) -> bool) -> String {
    let full = format!("{label}{SEPARATOR}{tool}");
    if full.len() <= MAX_NAME && !taken(&full) {
        return full;
    }
    // Too long: the tool's part shortened by its words first (`organization` → `org`, a
    // repeated word dropped), as a person would; a hash only when that is not enough.
    let room = MAX_NAME.saturating_sub(label.len() + SEPARATOR.len());
    if let Some(short) = shorten(tool, room) {
        let candidate = format!("{label}{SEPARATOR}{short}");
        if !taken(&candidate) {
            return candidate;
        }
    }
    let mut salt = 0u64;
    loop {
        let suffix = format!("_{:06x}", fnv1a(full.as_bytes(), salt) & 0xff_ffff);
        let room = MAX_NAME.saturating_sub(suffix.len());
        let mut cut = full.len().min(room);
        while !full.is_char_boundary(cut) {
            cut -= 1;
        }
        let candidate = format!("{}{suffix}", &full[..cut]);
        if !taken(&candidate) {
            return candidate;
        }
        salt += 1;
    }
}

/// Whether `label` can prefix tool names: `^[A-Za-z0-9-]{1,24}$` (no `_`, so the
/// separator is unambiguous; short, so the tool keeps most of the 64 characters).
pub(crate) fn valid_label(label: &str) -> bool {
    (1..=24).contains(&label.len())
        && label
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_names_are_cut_to_64_and_stay_distinct() {
        let tool = "a".repeat(80);
        let first = namespaced("crm", &tool, |_| false);
        assert_eq!(first.len(), MAX_NAME);
        assert!(first.starts_with("crm__aaaa"));
        let second = namespaced("crm", &tool, |n| n == first);
        assert_ne!(first, second);
        assert_eq!(second.len(), MAX_NAME);
        assert_eq!(namespaced("crm", "list", |_| false), "crm__list");
    }

    #[test]
    fn long_names_are_shortened_by_words_before_a_hash() {
        let tool = "orgs_custom-properties-for-repos-create-or-update-organization-values";
        let name = namespaced("github", tool, |_| false);
        assert_eq!(
            name,
            "github__orgs_custom-props-for-repos-create-or-update-org-values"
        );
        // Taken: the hash keeps it apart.
        let other = namespaced("github", tool, |n| n == name);
        assert_ne!(other, name);
        assert_eq!(other.len(), MAX_NAME);
    }

    #[test]
    fn labels_are_short_and_free_of_the_separator() {
        assert!(valid_label("crm"));
        assert!(valid_label("erp-2"));
        assert!(!valid_label("a_b"));
        assert!(!valid_label(""));
        assert!(!valid_label(&"x".repeat(25)));
    }
}
