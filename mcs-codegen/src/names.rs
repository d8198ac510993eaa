//! Rust names for what an API calls its operations and arguments: valid identifiers, no
//! keyword clashes, unique in their scope, the same for the same input.

use std::collections::HashSet;

/// Words that cannot be identifiers even as raw identifiers.
const NOT_RAW: [&str; 5] = ["self", "Self", "super", "crate", "_"];

/// Rust's keywords (strict and reserved, 2024 edition).
const KEYWORDS: [&str; 51] = [
    "as", "async", "await", "break", "const", "continue", "dyn", "else", "enum", "extern", "false",
    "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub",
    "ref", "return", "static", "struct", "trait", "true", "type", "unsafe", "use", "where",
    "while", "abstract", "become", "box", "do", "final", "macro", "override", "priv", "try",
    "typeof", "unsized", "virtual", "yield", "self", "super", "crate",
];

/// The words of a name: split at non-alphanumerics and at lower→upper case changes
/// (`getPetByID` → `get`, `pet`, `by`, `id`).
fn words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let chars: Vec<char> = name.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            continue;
        }
        let previous = i.checked_sub(1).and_then(|p| chars.get(p));
        let next = chars.get(i + 1);
        let boundary = c.is_ascii_uppercase()
            && previous.is_some_and(|p| {
                p.is_ascii_lowercase()
                    || p.is_ascii_digit()
                    || (p.is_ascii_uppercase() && next.is_some_and(char::is_ascii_lowercase))
            });
        if boundary && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        current.push(c.to_ascii_lowercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// `snake_case`, a valid identifier (raw if it is a keyword).
pub(crate) fn snake(name: &str) -> String {
    let joined = words(name).join("_");
    let ident = match joined.chars().next() {
        None => "value".to_owned(),
        Some(c) if c.is_ascii_digit() => format!("n_{joined}"),
        Some(_) => joined,
    };
    escape_keyword(ident)
}

/// `PascalCase`, a valid type name.
pub(crate) fn pascal(name: &str) -> String {
    let joined: String = words(name)
        .iter()
        .map(|word| {
            let mut chars = word.chars();
            chars.next().map_or_else(String::new, |first| {
                first.to_ascii_uppercase().to_string() + chars.as_str()
            })
        })
        .collect();
    match joined.chars().next() {
        None => "Value".to_owned(),
        Some(c) if c.is_ascii_digit() => format!("N{joined}"),
        Some(_) => escape_keyword(joined),
    }
}

/// `name` itself when it is already a type name (ASCII, starts with an upper-case letter, no
/// keyword), so a name the user chose (`OpenAIApi`) is kept; otherwise [`pascal`].
pub(crate) fn type_name(name: &str) -> String {
    let valid = name.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !KEYWORDS.contains(&name)
        && !NOT_RAW.contains(&name);
    if valid { name.to_owned() } else { pascal(name) }
}

fn escape_keyword(ident: String) -> String {
    if NOT_RAW.contains(&ident.as_str()) {
        format!("{ident}_")
    } else if KEYWORDS.contains(&ident.as_str()) {
        format!("r#{ident}")
    } else {
        ident
    }
}

/// Hands out names unique within one scope: a taken name gets `_2`, `_3`, ... (a type's
/// name `2`, `3`: `PetArguments2`)
#[derive(Debug, Default)]
pub(crate) struct Scope {
    taken: HashSet<String>,
}

impl Scope {
    /// A scope where `reserved` names are already taken.
    pub(crate) fn with_reserved(reserved: &[&str]) -> Self {
        Scope {
            taken: reserved.iter().map(|r| (*r).to_owned()).collect(),
        }
    }

    /// `name`, or the first free `name_N`.
    pub(crate) fn claim(&mut self, name: String) -> String {
        let bare = name.trim_start_matches("r#");
        let mut candidate = name.clone();
        let mut n = 2;
        // A type's name takes the number as it is (`PetArguments2`): an underscore there
        // would be a `non_camel_case_types` warning in the user's crate. After a digit the
        // underscore stays (`V2_2`), which the lint allows and which keeps the two apart.
        let camel = bare.starts_with(|c: char| c.is_ascii_uppercase());
        let stem = bare.trim_end_matches('_');
        let joined = camel && !stem.ends_with(|c: char| c.is_ascii_digit());
        while self.taken.contains(candidate.trim_start_matches("r#")) {
            candidate = if joined {
                format!("{stem}{n}")
            } else {
                format!("{bare}_{n}")
            };
            n += 1;
        }
        self.taken
            .insert(candidate.trim_start_matches("r#").to_owned());
        candidate
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_rust_conventions() {
        assert_eq!(snake("getPetByID"), "get_pet_by_id");
        assert_eq!(snake("HTMLParser"), "html_parser");
        assert_eq!(snake("list-pets.v2"), "list_pets_v2");
        assert_eq!(snake("type"), "r#type");
        assert_eq!(snake("self"), "self_");
        assert_eq!(snake("2fa_code"), "n_2fa_code");
        assert_eq!(snake("***"), "value");
        assert_eq!(pascal("get_pet_by_id"), "GetPetById");
        assert_eq!(pascal("x-rate-limit"), "XRateLimit");
        assert_eq!(pascal("3d"), "N3d");
        assert_eq!(pascal(""), "Value");
        assert_eq!(type_name("OpenAIAPI"), "OpenAIAPI");
        assert_eq!(type_name("Self"), "Self_");
        assert_eq!(type_name("my api"), "MyApi");
    }

    #[test]
    fn scopes_never_hand_out_a_name_twice() {
        let mut scope = Scope::with_reserved(&["new"]);
        assert_eq!(scope.claim("new".to_owned()), "new_2");
        assert_eq!(scope.claim("a".to_owned()), "a");
        assert_eq!(scope.claim("a".to_owned()), "a_2");
        assert_eq!(scope.claim("a_2".to_owned()), "a_2_2");
        assert_eq!(scope.claim("r#type".to_owned()), "r#type");
        assert_eq!(scope.claim("r#type".to_owned()), "type_2");
        // Types: no underscore a `non_camel_case_types` lint would warn about.
        assert_eq!(scope.claim("PetArguments".to_owned()), "PetArguments");
        assert_eq!(scope.claim("PetArguments".to_owned()), "PetArguments2");
        assert_eq!(scope.claim("PetArguments".to_owned()), "PetArguments3");
        assert_eq!(scope.claim("GetV2".to_owned()), "GetV2");
        assert_eq!(scope.claim("GetV2".to_owned()), "GetV2_2");
        assert_eq!(scope.claim("Self_".to_owned()), "Self_");
        assert_eq!(scope.claim("Self_".to_owned()), "Self2");
    }
}
