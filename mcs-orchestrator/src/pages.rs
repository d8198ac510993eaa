//! Pages of names and titles: what a discovery answer that lists tools may hold, and what
//! one tool's line takes of it. Grouping (`structure`) cuts toolsets to fit a page, and
//! discovery answers with one.

use mcs_core::Tool;

/// Characters per page of names and titles (about 6,000 tokens, under the 8,000 an answer
/// may take): up to a few hundred tools, and toolsets are split by their tools' names
/// until each fits one page (see [`crate::structure`]), so a toolset is seen whole in one turn and
/// a second turn describes a tool.
pub(crate) const PAGE_BUDGET: usize = 20_000;

/// A tool's line on a page of names and titles: `name: title`.
pub(crate) fn page_line(tool: &Tool) -> String {
    format!("{}: {}", tool.name(), clip(tool.label(), 100))
}

/// What a line takes of [`PAGE_BUDGET`]: itself, quoted and separated in the answer.
pub(crate) fn line_cost(line: &str) -> usize {
    line.len() + 4
}

/// `text`'s first line, cut to at most `max` characters, with `…` when cut. A line of HTML
/// (EC2's titles are `<p>Describes…`) is read without its tags, from the first line that
/// says something.
pub(crate) fn clip(text: &str, max: usize) -> String {
    let first = text.lines().next().unwrap_or_default().trim();
    let plain;
    let text = if text.contains('<') {
        plain = text
            .lines()
            .map(|line| {
                crate::search::prose(line)
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .find(|line| !line.is_empty())
            .unwrap_or_default();
        plain.as_str()
    } else {
        first
    };
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::clip;

    #[test]
    fn titles_are_one_line_cut_to_size_and_without_html() {
        assert_eq!(clip("List pets\nMore.", 40), "List pets");
        assert_eq!(clip("abcdef", 4), "abc…");
        assert_eq!(
            clip(
                "<p>\n<p>Describes the <code>Instances</code> you own.</p>",
                40
            ),
            "Describes the Instances you own."
        );
        assert_eq!(clip("a < b and c > d", 40), "a < b and c > d");
    }
}
