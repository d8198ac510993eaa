//! Doc comments: read as the user wrote them, and split into a tool's description and the
//! per-argument text of a rustdoc `# Arguments` section.

use syn::{Attribute, Expr, ExprLit, Lit, Meta};

use crate::errors::Errors;

/// The text of the `///` and `/** */` comments in `attrs`, unindented as rustdoc does: the
/// indentation common to all lines goes, relative indentation (lists, code) stays.
pub fn collect(attrs: &[Attribute], errors: &mut Errors) -> Option<String> {
    let mut lines: Vec<String> = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("doc")) {
        match &attr.meta {
            Meta::NameValue(nv) => match &nv.value {
                Expr::Lit(ExprLit {
                    lit: Lit::Str(text),
                    ..
                }) => lines.extend(text.value().split('\n').map(str::to_owned)),
                other => errors.push(syn::Error::new_spanned(
                    other,
                    "mcs reads tool descriptions at compile time, so a doc attribute must be a \
                     string literal (a `///` comment), not a macro call",
                )),
            },
            other => errors.push(syn::Error::new_spanned(
                other,
                "expected `#[doc = \"...\"]`",
            )),
        }
    }
    let text = unindent(&lines);
    (!text.is_empty()).then_some(text)
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
pub struct SplitDoc {
    /// Everything but that section.
    pub description: String,
    /// The section's entries: argument name and its text.
    pub arguments: Vec<(String, String)>,
}

/// Takes the `# Arguments` section out of `doc` and reads its list:
/// ``* `city` - The city`` (also `-` bullets, bare names, and `:` or `—` separators).
/// Indented lines continue the entry above them.
pub fn split_arguments(doc: &str) -> SplitDoc {
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
            let title = trimmed[level..].trim().to_ascii_lowercase();
            if title == "arguments" || title == "parameters" || title == "args" {
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
        if let Some(entry) = trimmed.strip_prefix(['*', '-', '+']).filter(|_| !in_fence) {
            if let Some((name, text)) = split_entry(entry.trim()) {
                arguments.push((name, text));
                continue;
            }
        }
        if let Some((_, text)) = arguments.last_mut() {
            if !trimmed.is_empty() {
                if !text.is_empty() {
                    text.push('\n');
                }
                text.push_str(trimmed);
            }
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
