//! Doc comments: read as the user wrote them, and split into a tool's description and the
//! per-argument text of a rustdoc `# Arguments` section.

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, ExprLit, Lit, Meta};

use crate::errors::Errors;

/// The doc comment of an item, as far as it could be read.
pub(crate) struct Doc {
    /// The text, if there is any.
    pub text: Option<String>,
    /// Whether every doc attribute could be read; those that could not were reported.
    pub complete: bool,
}

/// The text of the `///` and `/** */` comments in `attrs`, unindented as rustdoc does: the
/// indentation common to all lines goes, relative indentation (lists, code) stays.
pub(crate) fn collect(attrs: &[Attribute], errors: &mut Errors) -> Doc {
    let mut lines: Vec<String> = Vec::new();
    let mut complete = true;
    // `#[doc(hidden)]`, `#[doc(alias = "...")]` and the like carry no text.
    let text_attrs = attrs
        .iter()
        .filter(|a| a.path().is_ident("doc") && matches!(a.meta, Meta::NameValue(_)));
    for attr in text_attrs {
        match literal(attr) {
            Some(text) => lines.extend(strip_block_decoration(&text.value())),
            None => {
                complete = false;
                let value = match &attr.meta {
                    Meta::NameValue(nv) => quote::ToTokens::to_token_stream(&nv.value),
                    other => quote::ToTokens::to_token_stream(other),
                };
                errors.push(syn::Error::new_spanned(
                    value,
                    "mcs reads doc comments when the macro runs, before macros such as \
                     `concat!` or `include_str!` are expanded: write this text as `///` comments",
                ));
            }
        }
    }
    let text = unindent(&lines);
    Doc {
        text: (!text.is_empty()).then_some(text),
        complete,
    }
}

/// The lines of one doc attribute. A `/** */` comment arrives as one attribute with the
/// comment's raw text, so its decoration is removed as rustdoc does: a first or last line
/// of only `*`s, and a column of leading `*`s shared by the lines.
fn strip_block_decoration(text: &str) -> Vec<String> {
    let mut lines: Vec<&str> = text.split('\n').collect();
    if lines.len() < 2 {
        return lines.into_iter().map(str::to_owned).collect();
    }
    let only_stars = |line: &str| line.trim().chars().all(|c| c == '*');
    if lines.first().is_some_and(|line| only_stars(line)) {
        lines.remove(0);
    }
    if lines.last().is_some_and(|line| only_stars(line)) {
        lines.pop();
    }
    // The first line follows the opener `/**`, so it only counts if it starts with a `*`.
    let skip_first = lines
        .first()
        .is_some_and(|line| !line.trim_start().starts_with('*'));
    let considered: Vec<&str> = lines
        .iter()
        .skip(usize::from(skip_first))
        .copied()
        .filter(|line| !line.trim().is_empty())
        .collect();
    let star_prefix = |line: &str| {
        let column = line.find(|c: char| c != ' ' && c != '\t')?;
        (line[column..].starts_with('*')).then(|| line[..=column].to_owned())
    };
    let prefix = considered.first().and_then(|line| star_prefix(line));
    let shared = prefix.filter(|prefix| {
        considered
            .iter()
            .all(|line| star_prefix(line).as_ref() == Some(prefix))
    });
    lines
        .into_iter()
        .map(|line| match &shared {
            Some(prefix) => line
                .strip_prefix(prefix.as_str())
                .unwrap_or(line)
                .to_owned(),
            None => line.to_owned(),
        })
        .collect()
}

fn literal(attr: &Attribute) -> Option<&syn::LitStr> {
    match &attr.meta {
        Meta::NameValue(nv) => match &nv.value {
            Expr::Lit(ExprLit {
                lit: Lit::Str(text),
                ..
            }) => Some(text),
            _ => None,
        },
        _ => None,
    }
}

/// The doc attribute (one `///` line) holding the `# Arguments` entry for `name`.
pub(crate) fn entry_span(attrs: &[Attribute], name: &str) -> Option<Span> {
    let mut section_level: Option<usize> = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("doc")) {
        let Some(text) = literal(attr) else { continue };
        for line in text.value().lines() {
            let trimmed = line.trim_start();
            if let Some(level) = heading_level(trimmed) {
                if is_arguments_heading(&trimmed[level..]) {
                    section_level = Some(level);
                } else if section_level.is_some_and(|open| level <= open) {
                    section_level = None;
                }
                continue;
            }
            let entry = trimmed.strip_prefix(['*', '-', '+']).map(str::trim);
            let in_section = section_level.is_some();
            if in_section && entry.and_then(split_entry).is_some_and(|(n, _)| n == name) {
                return Some(attr.span());
            }
        }
    }
    None
}

fn is_arguments_heading(title: &str) -> bool {
    let title = title.trim().to_ascii_lowercase();
    title == "arguments" || title == "parameters" || title == "args"
}

fn unindent(lines: &[String]) -> String {
    let indent = lines
        .iter()
        .filter(|line| !line.trim().is_empty())
        .map(|line| line.len() - line.trim_start().len())
        .min()
        .unwrap_or(0);
    let body: Vec<&str> = lines
        .iter()
        .map(|line| {
            if line.trim().is_empty() {
                ""
            } else {
                line.get(indent..).unwrap_or(line).trim_end()
            }
        })
        .collect();
    body.join("\n").trim_matches('\n').to_owned()
}

/// A doc comment with its `# Arguments` (or `# Parameters`) section taken out.
pub(crate) struct SplitDoc {
    /// Everything but that section.
    pub description: String,
    /// The section's entries: argument name and its text.
    pub arguments: Vec<(String, String)>,
}

/// Takes the `# Arguments` section out of `doc` and reads its list:
/// ``* `city` - The city`` (also `-` bullets, bare names, and `:` or `—` separators).
/// Indented lines continue the entry above them.
pub(crate) fn split_arguments(doc: &str) -> SplitDoc {
    let mut description = Vec::new();
    let mut arguments: Vec<(String, String)> = Vec::new();
    let mut section_level: Option<usize> = None;
    let mut in_fence = false;
    for line in doc.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") {
            in_fence = !in_fence;
        }
        let heading = if in_fence {
            None
        } else {
            heading_level(trimmed)
        };
        if let Some(level) = heading {
            if is_arguments_heading(&trimmed[level..]) {
                section_level = Some(level);
                continue;
            }
            if section_level.is_some_and(|open| level <= open) {
                section_level = None;
            }
        }
        if section_level.is_none() {
            description.push(line);
            continue;
        }
        if let Some(entry) = trimmed.strip_prefix(['*', '-', '+']).filter(|_| !in_fence)
            && let Some((name, text)) = split_entry(entry.trim())
        {
            arguments.push((name, text));
            continue;
        }
        if let Some((_, text)) = arguments.last_mut()
            && !trimmed.is_empty()
        {
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(trimmed);
        }
    }
    SplitDoc {
        description: description.join("\n").trim_matches('\n').to_owned(),
        arguments,
    }
}

fn heading_level(line: &str) -> Option<usize> {
    let level = line.chars().take_while(|c| *c == '#').count();
    (1..=6)
        .contains(&level)
        .then_some(level)
        .filter(|level| line[*level..].starts_with(' '))
}

fn split_entry(entry: &str) -> Option<(String, String)> {
    let (name, rest) = if let Some(quoted) = entry.strip_prefix('`') {
        let (name, rest) = quoted.split_once('`')?;
        (name.trim(), rest)
    } else {
        let end = entry
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(entry.len());
        (&entry[..end], &entry[end..])
    };
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let rest = rest.trim_start();
    let text = ["-", ":", "—", "–"]
        .iter()
        .find_map(|separator| rest.strip_prefix(separator))
        .unwrap_or(rest);
    Some((
        name.trim_start_matches("r#").to_owned(),
        text.trim().to_owned(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_indentation_survives() {
        let lines: Vec<String> = [
            " Lists files.",
            "",
            " - one",
            "   - nested",
            " ```",
            "   code",
            " ```",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        assert_eq!(
            unindent(&lines),
            "Lists files.\n\n- one\n  - nested\n```\n  code\n```"
        );
    }

    #[test]
    fn block_comment_stars_are_removed() {
        let raw = "*\n * Reads a file.\n *\n * Returns its text.\n ";
        let lines = strip_block_decoration(raw);
        assert_eq!(unindent(&lines), "Reads a file.\n\nReturns its text.");
        let plain = " Reads a file.\n\n Returns its text. ";
        assert_eq!(
            unindent(&strip_block_decoration(plain)),
            "Reads a file.\n\nReturns its text."
        );
        let bullets = " A list:\n * one\n - two";
        assert_eq!(
            unindent(&strip_block_decoration(bullets)),
            "A list:\n* one\n- two"
        );
    }

    #[test]
    fn arguments_section_is_read_and_removed() {
        let doc = "Gets the weather.\n\n# Arguments\n\n* `city` - The city,\n  with country.\n- units: metric or imperial\n\n# Errors\n\nWhen offline.";
        let split = split_arguments(doc);
        assert_eq!(
            split.description,
            "Gets the weather.\n\n# Errors\n\nWhen offline."
        );
        assert_eq!(
            split.arguments,
            vec![
                ("city".to_owned(), "The city,\nwith country.".to_owned()),
                ("units".to_owned(), "metric or imperial".to_owned()),
            ]
        );
    }

    #[test]
    fn headings_inside_code_fences_are_not_sections() {
        let doc = "Runs a script.\n\n```sh\n# Arguments\n```";
        assert_eq!(split_arguments(doc).description, doc);
    }
}
