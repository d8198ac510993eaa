//! Names made from a document's text: tool names, the driver's name, `$defs` keys, and
//! descriptions cut to size.

use std::borrow::Cow;
use std::collections::HashSet;

use unicode_normalization::char::{decompose_canonical, is_combining_mark};

pub(crate) use mcs_options::names::{MAX_NAME, is_argument_key};

/// `raw` as a tool name: characters outside `[A-Za-z0-9_-]` become `_`, runs of `_`
/// collapse, `_` is trimmed from both ends; a name longer than [`MAX_NAME`] is shortened by
/// its words ([`mcs_options::names::shorten`]), or when that is not enough cut and given a
/// hash of the whole so that two long names sharing a prefix stay apart. `None` when nothing
/// usable is left.
///
/// Latin letters lose their accents first ([`fold_latin`]): `grüßeSenden` is
/// `grusseSenden`, where it was `gr_eSenden`.
pub(crate) fn sanitize_name(raw: &str) -> Option<String> {
    mcs_options::names::sanitize(&fold_latin(raw), mcs_options::names::is_tool_name_char)
}

/// `raw` as an argument key ([`mcs_options::names::argument_key`]), Latin letters without
/// their accents: `größe` is `grosse`, where it was `gr_e`.
pub(crate) fn argument_key(raw: &str) -> String {
    mcs_options::names::argument_key(&fold_latin(raw))
}

/// Latin letters without their marks, for names: what a letter decomposes to when that is
/// an ASCII letter and combining marks (`ü` → `u`, `É` → `E`, `ñ` → `n`), and the Latin
/// letters that do not decompose written as ASCII (`ß` → `ss`, `æ` → `ae`, `ø` → `o`,
/// `ł` → `l`). Every other character is left as it is, for the name rules to replace:
/// transliterating other scripts (`获取` → `Huo Qu`) would give names no reader of either
/// language could use, where the method and path of the fallback name say something.
pub(crate) fn fold_latin(text: &str) -> Cow<'_, str> {
    if text.is_ascii() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        if ch.is_ascii() {
            out.push(ch);
            continue;
        }
        // A mark written apart from its letter (`e` + U+0301) goes as a composed one's does.
        if is_combining_mark(ch) {
            continue;
        }
        if let Some(ascii) = latin_without_decomposition(ch) {
            out.push_str(ascii);
            continue;
        }
        let mut base = None;
        let mut marks_only = true;
        decompose_canonical(ch, |part| {
            if base.is_none() && part.is_ascii_alphabetic() {
                base = Some(part);
            } else if !is_combining_mark(part) {
                marks_only = false;
            }
        });
        match base {
            Some(letter) if marks_only => out.push(letter),
            _ => out.push(ch),
        }
    }
    Cow::Owned(out)
}

/// The Latin letters Unicode does not decompose, as they are written in ASCII.
fn latin_without_decomposition(ch: char) -> Option<&'static str> {
    Some(match ch {
        'ß' => "ss",
        'ẞ' => "SS",
        'æ' => "ae",
        'Æ' => "AE",
        'œ' => "oe",
        'Œ' => "OE",
        'ø' => "o",
        'Ø' => "O",
        'ł' => "l",
        'Ł' => "L",
        'đ' => "d",
        'Đ' => "D",
        'ð' => "d",
        'Ð' => "D",
        'þ' => "th",
        'Þ' => "Th",
        'ı' => "i",
        'ħ' => "h",
        'Ħ' => "H",
        _ => return None,
    })
}

/// The name of an operation without a usable operationId: `get_pets_petId`. A path too
/// long for a name loses its parameters first (`{spaceId}`, `{folderId}`), which say less
/// than its other words, before any word is cut: `post_spaces_folders_persons_guest-in-space`
/// rather than `post_spaces_id_folde_folderId_…`.
pub(crate) fn fallback_name(method: &str, path: &str) -> String {
    let whole = format!("{method}_{path}");
    let without_parameters = || {
        let kept: Vec<&str> = path
            .split('/')
            .filter(|segment| !(segment.starts_with('{') && segment.ends_with('}')))
            .collect();
        format!("{method}_{}", kept.join("/"))
    };
    // The name's length before any shortening: what the name rules keep, `_` runs as one.
    let mut length = 0;
    let mut after_underscore = true;
    for ch in whole.chars() {
        let underscore = !mcs_options::names::is_tool_name_char(ch) || ch == '_';
        if !(underscore && after_underscore) {
            length += 1;
        }
        after_underscore = underscore;
    }
    let raw = if length <= MAX_NAME {
        whole
    } else {
        without_parameters()
    };
    sanitize_name(&raw).unwrap_or_else(|| method.to_owned())
}

/// Whether an operationId says nothing a name needs: an HTTP method alone (`Get`, `Post`,
/// as some generators write for every operation of a controller). Where several operations
/// share one, their method and path say more.
pub(crate) fn says_nothing(operation_id: &str) -> bool {
    matches!(
        operation_id.trim().to_ascii_lowercase().as_str(),
        "get" | "put" | "post" | "delete" | "patch" | "head" | "options" | "trace"
    )
}

/// Makes `names` unique in place: the first holder of a name keeps it, later ones get
/// `_2`, `_3`, ... (the base cut so the result still fits [`MAX_NAME`]), never taking a
/// name another entry holds as its own.
pub(crate) fn dedupe(names: &mut [String]) {
    let originals: HashSet<String> = names.iter().cloned().collect();
    let mut taken: HashSet<String> = HashSet::new();
    for name in names.iter_mut() {
        if taken.insert(name.clone()) {
            continue;
        }
        let mut counter = 2usize;
        loop {
            let suffix = format!("_{counter}");
            let room = MAX_NAME.saturating_sub(suffix.len());
            let base = name.get(..room.min(name.len())).unwrap_or(name);
            let candidate = format!("{base}{suffix}");
            if !originals.contains(&candidate) && taken.insert(candidate.clone()) {
                *name = candidate;
                break;
            }
            counter += 1;
        }
    }
}

/// A driver name from a title: PascalCase words of ASCII letters and digits, starting
/// with a letter (`"Swagger Petstore"` → `SwaggerPetstore`); `Api` when nothing is left.
pub(crate) fn driver_name(title: &str) -> String {
    let mut out = String::new();
    for word in fold_latin(title).split(|ch: char| !ch.is_ascii_alphanumeric()) {
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            out.push(first.to_ascii_uppercase());
            out.extend(chars);
        }
        if out.len() >= MAX_NAME {
            break;
        }
    }
    out.truncate(MAX_NAME);
    match out.chars().next() {
        None => "Api".to_owned(),
        Some(first) if !first.is_ascii_alphabetic() => format!("Api{out}"),
        Some(_) => out,
    }
}

/// A key for `$defs`, from the last token of the pointer a schema was found at.
pub(crate) fn def_name(token: &str) -> String {
    let mut out: String = token
        .chars()
        .map(|ch| {
            if ch.is_ascii_alphanumeric() || matches!(ch, '_' | '-' | '.') {
                ch
            } else {
                '_'
            }
        })
        .take(MAX_NAME)
        .collect();
    if out.is_empty() {
        out.push_str("Schema");
    }
    out
}

/// `text` trimmed and cut to at most `max` characters (0: no limit), ending in `…` when
/// cut; `None` when it says nothing: empty, or without a letter or a digit (a summary of
/// `.` or `-`, which documents write to fill the field).
pub(crate) fn cap_text(text: &str, max: usize) -> Option<String> {
    let text = text.trim();
    if !text.chars().any(char::is_alphanumeric) {
        return None;
    }
    if max == 0 || text.chars().count() <= max {
        return Some(text.to_owned());
    }
    let cut: String = text.chars().take(max.saturating_sub(1)).collect();
    Some(format!("{}…", cut.trim_end()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitize_replaces_collapses_and_trims() {
        assert_eq!(
            sanitize_name("chat.postMessage").as_deref(),
            Some("chat_postMessage")
        );
        assert_eq!(sanitize_name("  a  b//c ").as_deref(), Some("a_b_c"));
        assert_eq!(sanitize_name("déjà-vu").as_deref(), Some("deja-vu"));
        assert_eq!(sanitize_name("???"), None);
        // Other scripts are not transliterated: the fallback name says more.
        assert_eq!(sanitize_name("获取用户"), None);
        assert_eq!(sanitize_name("getΛίστα").as_deref(), Some("get"));
        assert_eq!(fallback_name("get", "/pets/{petId}"), "get_pets_petId");
        assert_eq!(fallback_name("get", "/"), "get");
        // Too long with its parameters: without them, before any word is cut.
        assert_eq!(
            fallback_name(
                "post",
                "/business-groups/{id}/spaces/{spaceId}/legal-entities/{personId}/customers/{folderId}/spaces"
            ),
            "post_business-groups_spaces_legal-entities_customers_spaces"
        );
        assert!(says_nothing("Get") && says_nothing(" post "));
        assert!(!says_nothing("getPets"));
    }

    #[test]
    fn latin_letters_lose_their_accents_in_names_and_keys() {
        assert_eq!(
            sanitize_name("grüßeSenden").as_deref(),
            Some("grusseSenden")
        );
        assert_eq!(
            sanitize_name("créerFacture_Ærø_Łódź").as_deref(),
            Some("creerFacture_AEro_Lodz")
        );
        assert_eq!(argument_key("größe"), "grosse");
        assert_eq!(argument_key("año"), "ano");
        assert_eq!(
            driver_name("Übersicht der Aufträge"),
            "UbersichtDerAuftrage"
        );
        // A decomposed accent (e + U+0301) folds as the composed one does.
        assert_eq!(fold_latin("cafe\u{301}"), "cafe");
        assert_eq!(fold_latin("plain"), Cow::Borrowed("plain"));
    }

    #[test]
    fn long_names_are_cut_with_a_stable_hash() {
        let long = "a".repeat(100);
        let name = sanitize_name(&long).unwrap();
        assert_eq!(name.len(), 64);
        assert_eq!(sanitize_name(&long).unwrap(), name);
        let other = sanitize_name(&format!("{long}b")).unwrap();
        assert_ne!(name, other);
        assert_eq!(name[..55], other[..55]);
    }

    #[test]
    fn dedupe_suffixes_later_holders_and_avoids_existing_names() {
        let mut names: Vec<String> = ["a", "a", "a_2", "a"].map(String::from).to_vec();
        dedupe(&mut names);
        assert_eq!(names, ["a", "a_3", "a_2", "a_4"]);
        let long = "x".repeat(64);
        let mut names = vec![long.clone(), long.clone()];
        dedupe(&mut names);
        assert_eq!(names[1], format!("{}_2", &long[..62]));
    }

    #[test]
    fn driver_names_are_pascal_case_and_start_with_a_letter() {
        assert_eq!(driver_name("Swagger Petstore"), "SwaggerPetstore");
        assert_eq!(driver_name("xkcd"), "Xkcd");
        assert_eq!(driver_name("1Password connect"), "Api1PasswordConnect");
        assert_eq!(driver_name("  ¿¡ "), "Api");
    }

    #[test]
    fn cap_text_cuts_at_a_char_boundary() {
        assert_eq!(cap_text("  ", 10), None);
        assert_eq!(cap_text(" . ", 10), None);
        assert_eq!(cap_text("—", 10), None);
        assert_eq!(cap_text("日本", 10).as_deref(), Some("日本"));
        assert_eq!(cap_text("héllo wörld", 6).as_deref(), Some("héllo…"));
        assert_eq!(cap_text("short", 10).as_deref(), Some("short"));
        assert_eq!(cap_text("abc", 0).as_deref(), Some("abc"));
    }
}
