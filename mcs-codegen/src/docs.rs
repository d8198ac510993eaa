//! API descriptions as rustdoc text. Descriptions are Markdown written for people, not for
//! rustdoc: an indented block or an untagged fence would become a doc test that fails to
//! compile, `[x]` a broken link, `<id>` an unclosed HTML tag. The text for the model (the
//! tool's description) keeps the original; only the Rust docs are made safe.

/// `text` made safe as a Rust doc comment: fences become `text` blocks, lines lose the
/// indentation that would make them code blocks, brackets and angle brackets are escaped,
/// and bare URLs are wrapped in `<...>`.
pub(crate) fn doc_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_fence = false;
    for line in text.lines() {
        if !out.is_empty() {
            out.push('\n');
        }
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            out.push_str(if in_fence { "```" } else { "```text" });
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            out.push_str(line);
            continue;
        }
        out.push_str(&escape_line(trimmed));
    }
    if in_fence {
        out.push_str("\n```");
    }
    out
}

fn escape_line(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    for word in line.split_inclusive(' ') {
        let bare = word.trim_end();
        if bare.starts_with("http://") || bare.starts_with("https://") {
            let (url, rest) = split_url(bare);
            out.push('<');
            out.push_str(&url.replace('>', "%3E"));
            out.push('>');
            out.push_str(&escape_markup(rest));
            out.push_str(&word[bare.len()..]);
        } else {
            out.push_str(&escape_markup(word));
        }
    }
    out
}

/// A URL and the punctuation after it (`https://x.y/z).` → `https://x.y/z`, `).`).
fn split_url(word: &str) -> (&str, &str) {
    let end = word
        .trim_end_matches(|c: char| {
            matches!(c, '.' | ',' | ')' | ';' | ':' | '!' | '?' | '"' | '\'')
        })
        .len();
    word.split_at(end)
}

fn escape_markup(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '[' => out.push_str("\\["),
            ']' => out.push_str("\\]"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::doc_text;

    #[test]
    fn markdown_that_rustdoc_would_misread_is_neutralised() {
        assert_eq!(
            doc_text("Returns the [pet] by <id>.\n    let x = 1;\nSee https://example.com/docs."),
            "Returns the \\[pet\\] by &lt;id&gt;.\nlet x = 1;\nSee <https://example.com/docs>."
        );
        assert_eq!(
            doc_text("```\nfn main() {}\n```"),
            "```text\nfn main() {}\n```"
        );
        assert_eq!(doc_text("```json\n{}"), "```text\n{}\n```");
    }
}
