//! Text helpers shared by the format parsers: blanking out reasoning, positions, names.
//!
//! Every offset here is a byte offset into the text; helpers only ever slice at offsets
//! of ASCII bytes or at offsets they checked to be character boundaries.

use std::borrow::Cow;
use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, MatchKind};

use super::work;

/// The reasoning delimiters: (opener, closers). An opener with no closer hides the rest of
/// the text; `</think>` or `</thinking>` with no opener hides everything before it
/// (DeepSeek-R1 and QwQ put `<think>` in the prompt and only the closer in the output).
/// The first two entries are those. A delimiter inside a JSON string is text, not a
/// delimiter: see [`JsonStrings`].
const REASONING: &[(&str, &[&str])] = &[
    ("<think>", &["</think>"]),
    ("<thinking>", &["</thinking>"]),
    ("[THINK]", &["[/THINK]"]),
    ("<seed:think>", &["</seed:think>"]),
    ("<|START_THINKING|>", &["<|END_THINKING|>"]),
    // Harmony's analysis channel ends with its message, or where the next message starts.
    ("<|channel|>analysis<|message|>", &["<|end|>", "<|start|>"]),
];

struct ReasoningMatcher {
    automaton: AhoCorasick,
    /// For each pattern: the index in `REASONING` and whether it is the opener.
    roles: Vec<(usize, bool)>,
}

fn reasoning_matcher() -> Option<&'static ReasoningMatcher> {
    static MATCHER: OnceLock<Option<ReasoningMatcher>> = OnceLock::new();
    MATCHER
        .get_or_init(|| {
            let mut patterns = Vec::new();
            let mut roles = Vec::new();
            for (kind, (opener, closers)) in REASONING.iter().enumerate() {
                patterns.push(*opener);
                roles.push((kind, true));
                for closer in *closers {
                    patterns.push(*closer);
                    roles.push((kind, false));
                }
            }
            let automaton = AhoCorasick::builder()
                .match_kind(MatchKind::LeftmostLongest)
                .build(&patterns)
                .ok()?;
            Some(ReasoningMatcher { automaton, roles })
        })
        .as_ref()
}

/// `text` with every reasoning region replaced by spaces (newlines kept), so offsets,
/// lines and columns stay those of the original.
pub(crate) fn blank_reasoning(text: &str) -> Cow<'_, str> {
    let Some(matcher) = reasoning_matcher() else {
        return Cow::Borrowed(text);
    };
    let mut regions: Vec<(usize, usize)> = Vec::new();
    let mut open: Option<(usize, usize)> = None; // (kind, start)
    let mut last_end = 0;
    let mut strings = JsonStrings::new(text);
    for found in matcher.automaton.find_iter(text) {
        let Some(&(kind, is_opener)) = matcher.roles.get(found.pattern().as_usize()) else {
            continue;
        };
        // `{"title": "about </think>"}`: a call's argument that names a tag, not reasoning.
        if strings.contains(found.start(), found.end()) {
            continue;
        }
        match open {
            None if is_opener => open = Some((kind, found.start())),
            // `</think>` without its opener: what came before it was reasoning. Other
            // closers (Harmony's `<|end|>`) also end ordinary messages.
            None if kind <= 1 => {
                regions.push((last_end, found.end()));
                last_end = found.end();
            }
            None => {}
            Some((open_kind, start)) if open_kind == kind && !is_opener => {
                regions.push((start, found.end()));
                last_end = found.end();
                open = None;
            }
            Some(_) => {}
        }
    }
    if let Some((_, start)) = open {
        regions.push((start, text.len()));
    }
    if regions.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut bytes = text.as_bytes().to_vec();
    for (start, end) in regions {
        for byte in &mut bytes[start..end] {
            if *byte != b'\n' {
                *byte = b' ';
            }
        }
    }
    // Regions start and end at ASCII delimiters, so whole characters were replaced.
    Cow::Owned(
        String::from_utf8(bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
    )
}

/// Tells whether a reasoning delimiter lies inside a string literal of a JSON value, where
/// it is data: a note titled `about </think>` must not hide the call that saves it.
///
/// The rule: the delimiter is inside a JSON string when a balanced, strictly parseable JSON
/// object or array spans it. No delimiter (`<think>`, `[THINK]`, `<|end|>`, …) can stand
/// outside a string in valid JSON, so such a value can only hold it in a string. Genuine
/// reasoning delimiters stand at the start of the output or of a line, or right after
/// prose or a finished value; no valid JSON value spans them, so reasoning stays hidden.
/// A tag in broken or repaired JSON (a raw newline in the string, single quotes) still
/// counts: there the structure is a guess, and hiding too much is the safe mistake.
///
/// Checking is cheap for them: a strict JSON string has no raw newline, so a delimiter is
/// only examined further when its own line has a `"` before and after it. Then the
/// objects and arrays that start before it are tried, nearest first, until one spans it.
/// A global budget of bytes examined keeps hostile input (thousands of quoted
/// delimiters) linear; once spent, delimiters count as they always did.
struct JsonStrings<'t> {
    text: &'t str,
    /// The end of the last JSON value found to span a delimiter: later delimiters before it
    /// are inside it too.
    covered_until: usize,
    /// The end of a prefix of the text known to hold no `{` or `[`: searches for values
    /// stop there, so quoted tags in prose without brackets are not searched back from
    /// again and again.
    no_bracket_before: usize,
    /// Bytes that may still be examined.
    budget: usize,
}

impl<'t> JsonStrings<'t> {
    /// How many objects or arrays before one delimiter are tried.
    const CANDIDATES: usize = 16;

    fn new(text: &'t str) -> Self {
        JsonStrings {
            text,
            covered_until: 0,
            no_bracket_before: 0,
            budget: 4 * text.len() + 65_536,
        }
    }

    /// Whether the delimiter at `start..end` lies in a string of a valid JSON value.
    fn contains(&mut self, start: usize, end: usize) -> bool {
        if start < self.covered_until {
            return true;
        }
        if self.budget == 0 {
            return false;
        }
        let bytes = self.text.as_bytes();
        // A quote before and after the delimiter on its line, or no string holds it.
        let before = memchr::memrchr2(b'"', b'\n', &bytes[..start]);
        self.spend(start - before.unwrap_or(0));
        if before.is_none_or(|at| bytes[at] != b'"') {
            return false;
        }
        let after = memchr::memchr2(b'"', b'\n', &bytes[end..]);
        self.spend(after.map_or(bytes.len() - end, |i| i + 1));
        if after.is_none_or(|i| bytes[end + i] != b'"') {
            return false;
        }
        let mut limit = start;
        for _ in 0..Self::CANDIDATES {
            let floor = self.no_bracket_before.min(limit);
            let Some(at) = memchr::memrchr2(b'{', b'[', &bytes[floor..limit]).map(|i| floor + i)
            else {
                self.spend(limit - floor);
                self.no_bracket_before = self.no_bracket_before.max(limit);
                break;
            };
            self.spend(limit - at);
            if self.budget == 0 {
                return false;
            }
            if let Some(value_end) = self.strict_value_end(at)
                && value_end > start
            {
                self.covered_until = value_end;
                return true;
            }
            limit = at;
        }
        false
    }

    /// The end of the balanced, strictly parseable object or array at `start`.
    fn strict_value_end(&mut self, start: usize) -> Option<usize> {
        let end = balanced_end(self.text.as_bytes(), start);
        self.spend(end.unwrap_or_else(|stop| stop).saturating_sub(start));
        let end = end.ok()?;
        // The scan above only matched brackets and strings; the tokens between them must be
        // JSON too. `IgnoredAny` reads without building the value.
        self.spend(end - start);
        serde_json::from_str::<serde::de::IgnoredAny>(&self.text[start..end]).ok()?;
        Some(end)
    }

    fn spend(&mut self, bytes: usize) {
        work::examined(bytes);
        self.budget = self.budget.saturating_sub(bytes);
    }
}

/// Where the object or array at `start` ends, by matching brackets outside strings;
/// `Err` holds where the scan gave up. Strings may not hold raw control characters (as in
/// strict JSON), which also keeps a stray quote in prose from running past its line;
/// bytes that JSON never has outside strings (letters other than those of `true`,
/// `false`, `null` and exponents, `<`, …) end the scan at once, so a brace in prose costs
/// little. Nesting deeper than 128 levels (the bits of the stack; `serde_json` refuses
/// deeper nesting too) gives up.
fn balanced_end(bytes: &[u8], start: usize) -> Result<usize, usize> {
    // One bit per open bracket: set for `{`, clear for `[`.
    let mut stack: u128 = 0;
    let mut depth = 0usize;
    let mut in_string = false;
    let mut pos = start;
    while let Some(&byte) = bytes.get(pos) {
        if in_string {
            match byte {
                b'"' => in_string = false,
                b'\\' => pos += 1,
                0..0x20 => return Err(pos),
                _ => {}
            }
        } else {
            match byte {
                b'"' => in_string = true,
                b'{' | b'[' => {
                    if depth >= 128 {
                        return Err(pos);
                    }
                    stack = (stack << 1) | u128::from(byte == b'{');
                    depth += 1;
                }
                b'}' | b']' => {
                    if depth == 0 || (stack & 1 == 1) != (byte == b'}') {
                        return Err(pos);
                    }
                    stack >>= 1;
                    depth -= 1;
                    if depth == 0 {
                        return Ok(pos + 1);
                    }
                }
                b' ' | b'\t' | b'\n' | b'\r' | b',' | b':' | b'-' | b'+' | b'.' | b'0'..=b'9' => {}
                b'a' | b'e' | b'f' | b'l' | b'n' | b'r' | b's' | b't' | b'u' | b'E' => {}
                _ => return Err(pos),
            }
        }
        pos += 1;
    }
    Err(bytes.len())
}

/// The largest character boundary not after `pos`.
pub(crate) fn floor_boundary(text: &str, pos: usize) -> usize {
    let mut pos = pos.min(text.len());
    while !text.is_char_boundary(pos) {
        pos -= 1;
    }
    pos
}

/// 1-based line and column (in characters) of byte `pos`.
pub(crate) fn line_column(text: &str, pos: usize) -> (usize, usize) {
    let pos = floor_boundary(text, pos);
    let before = &text[..pos];
    let line = memchr::memchr_iter(b'\n', before.as_bytes()).count() + 1;
    let line_start = memchr::memrchr(b'\n', before.as_bytes()).map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

/// A short excerpt of `text` starting at `pos`.
pub(crate) fn snippet(text: &str, pos: usize) -> String {
    const CHARS: usize = 80;
    let rest = &text[floor_boundary(text, pos)..];
    let mut out: String = rest.chars().take(CHARS).collect();
    if rest.chars().nth(CHARS).is_some() {
        out.push('…');
    }
    out.trim().to_owned()
}

/// The offset of the first non-whitespace character at or after `pos`.
pub(crate) fn skip_ws(text: &str, pos: usize) -> usize {
    let pos = floor_boundary(text, pos);
    let end = text[pos..]
        .char_indices()
        .find(|(_, c)| !c.is_whitespace())
        .map_or(text.len(), |(i, _)| pos + i);
    work::examined(end - pos);
    end
}

/// Whether `text` continues with `needle` at byte `pos`.
pub(crate) fn starts_at(text: &str, pos: usize, needle: &str) -> bool {
    text.as_bytes()
        .get(pos..)
        .is_some_and(|rest| rest.starts_with(needle.as_bytes()))
}

/// The offset of the next `needle` at or after `pos`, before `limit`.
pub(crate) fn find_in(text: &str, pos: usize, limit: usize, needle: &str) -> Option<usize> {
    let limit = limit.min(text.len());
    if pos >= limit {
        return None;
    }
    let found = memchr::memmem::find(&text.as_bytes()[pos..limit], needle.as_bytes());
    work::examined(found.map_or(limit - pos, |i| i + needle.len()));
    found.map(|i| pos + i)
}

/// Where an element that starts at `pos` ends: at its `close` tag, or — when that is
/// missing — where the next element (`open`) starts, or at `limit`. Returns the position of
/// the closing tag, if any, and the end of the element's body. Searching for the close only
/// up to the next opener keeps a run of unclosed elements linear.
pub(crate) fn element_end(
    text: &str,
    pos: usize,
    limit: usize,
    close: &str,
    open: &str,
) -> (Option<usize>, usize) {
    let next_open = find_in(text, pos, limit, open).unwrap_or(limit.min(text.len()));
    let close_at = find_in(text, pos, next_open, close);
    (close_at, close_at.unwrap_or(next_open))
}

/// The end of the run of name characters (ASCII letters, digits, `_`, `-`, `.`, `:`)
/// starting at `pos`.
pub(crate) fn name_end(text: &str, pos: usize) -> usize {
    let bytes = text.as_bytes();
    let mut end = pos;
    while bytes
        .get(end)
        .is_some_and(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b':'))
    {
        end += 1;
    }
    end
}

/// A tool name as models write it, cleaned: trimmed, without the `functions.` and
/// `default_api.` namespaces and without Kimi's `:IDX` suffix.
pub(crate) fn clean_name(raw: &str) -> String {
    let mut name = raw.trim();
    loop {
        let stripped = name
            .strip_prefix("functions.")
            .or_else(|| name.strip_prefix("default_api."));
        match stripped {
            Some(rest) => name = rest,
            None => break,
        }
    }
    if let Some((head, index)) = name.rsplit_once(':')
        && !index.is_empty()
        && index.bytes().all(|b| b.is_ascii_digit())
    {
        name = head;
    }
    name.to_owned()
}

/// Whether `name` could be a tool name at all: short, without whitespace or punctuation
/// that no tool name has. Keeps `{"name": "John Smith", "input": …}` from being a call.
pub(crate) fn plausible_name(name: &str) -> bool {
    // Every call's name passes here (twice): ASCII is decided by one match per byte.
    let fits = |c: char| match c {
        '{' | '}' | '[' | ']' | '(' | ')' | '"' | '\'' | '<' | '>' | ',' | ';' | '`' => false,
        c if c.is_ascii() => c.is_ascii_graphic(),
        c => !c.is_whitespace() && !c.is_control(),
    };
    !name.is_empty() && name.len() <= 256 && name.chars().all(fits)
}

/// Whether what follows `pos` on its line is only whitespace and end-of-turn tokens
/// (`</s>`, `<|eot_id|>`, `<|im_end|>`, …).
pub(crate) fn rest_of_line_is_blank(text: &str, pos: usize) -> bool {
    let pos = floor_boundary(text, pos);
    let line_end = memchr::memchr(b'\n', &text.as_bytes()[pos..]).map_or(text.len(), |i| pos + i);
    is_end_tokens(&text[pos..line_end])
}

/// Whether `text` is only whitespace and special end tokens.
pub(crate) fn is_end_tokens(text: &str) -> bool {
    let mut rest = text.trim();
    while !rest.is_empty() {
        let token_end = if rest.starts_with("</s>") {
            4
        } else if rest.starts_with("<|") || rest.starts_with("<｜") {
            match rest.find("|>").or_else(|| rest.find("｜>")) {
                Some(i) => {
                    i + if rest[i..].starts_with("|>") {
                        2
                    } else {
                        "｜>".len()
                    }
                }
                None => return false,
            }
        } else {
            return false;
        };
        rest = rest[token_end..].trim_start();
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blanks_reasoning_but_keeps_offsets() {
        let text = "<think>call {\"tool\": \"x\"}\n</think>answer";
        let blanked = blank_reasoning(text);
        assert_eq!(blanked.len(), text.len());
        assert!(blanked.ends_with("answer"));
        assert!(!blanked.contains("tool"));
        assert_eq!(blanked.matches('\n').count(), 1);
    }

    #[test]
    fn orphan_closer_hides_what_precedes_and_open_opener_hides_the_rest() {
        assert_eq!(blank_reasoning("a ü b</think> c").trim(), "c");
        assert_eq!(blank_reasoning("c [THINK] é {…").trim(), "c");
        let harmony = "<|channel|>analysis<|message|>think {}<|end|><|start|>assistant";
        assert_eq!(blank_reasoning(harmony).trim(), "<|start|>assistant");
        let answer = "<|channel|>final<|message|>{}<|end|><|start|>x";
        assert_eq!(blank_reasoning(answer), answer);
    }

    #[test]
    fn reasoning_tags_in_json_strings_are_text() {
        for text in [
            r#"{"tool": "save_note", "arguments": {"title": "about </think>", "body": "x"}}"#,
            r#"{"tool": "save_note", "arguments": {"title": "about <think>", "body": "x"}}"#,
            r#"[{"name": "f", "arguments": {"a": "[THINK] <|START_THINKING|> <seed:think>"}}]"#,
            // The nearest object closes before the tag; the one around it spans it.
            "{\"a\": {\"b\": 1},\n \"c\": [\"{x\", \"</think>\"]}",
        ] {
            assert_eq!(blank_reasoning(text), text, "{text}");
        }
        // Two tags in one value: the second is known to be inside without a new search.
        let text = r#"x {"a": "<think>", "b": "</think>"} y"#;
        assert_eq!(blank_reasoning(text), text);
    }

    #[test]
    fn reasoning_tags_outside_valid_json_still_count() {
        // After a value, not inside it.
        let text = r#"<think>{"a": "b"}</think> "c""#;
        assert_eq!(blank_reasoning(text).trim(), r#""c""#);
        // Quotes around the tag, but no valid value spans it: a raw newline ends the
        // string, single quotes are not JSON, prose is not JSON.
        let text = "say {\"a\": \"b </think>\n\"c\"}";
        assert_eq!(blank_reasoning(text).trim(), "\"c\"}");
        let text = "{'a': 'b </think>'} \"after\"";
        assert_eq!(blank_reasoning(text).trim(), "'} \"after\"");
        let text = "He said {yes \"</think>\"} ok";
        assert_eq!(blank_reasoning(text).trim(), "\"} ok");
    }

    #[test]
    fn balanced_end_matches_brackets_outside_strings() {
        let end = |text: &str| balanced_end(text.as_bytes(), 0);
        let text = r#"{"a": ["}", "\"]"]} tail"#;
        assert_eq!(end(text), Ok(text.find(" tail").unwrap()));
        assert_eq!(end("[1, {\"x\": null}]"), Ok(16));
        assert_eq!(end("{\"a\": 1]"), Err(7)); // mismatched
        assert_eq!(end("{\"a\nb\": 1}"), Err(3)); // raw newline in a string
        assert_eq!(end("{ call me }"), Err(2)); // prose
        assert_eq!(end("{\"a\": 1"), Err(7)); // unclosed: the end
        let deep = "[".repeat(200);
        assert_eq!(end(&deep), Err(128));
    }

    #[test]
    fn quoted_tags_cost_a_bounded_amount() {
        // Thousands of quoted closers that no valid value spans: the budget ends the search
        // and the text is still read in time linear in its length.
        let text = r#"{"a": "</think>", "#.repeat(20_000);
        let blanked = blank_reasoning(&text);
        assert_eq!(blanked.len(), text.len());
        let mut strings = JsonStrings::new(&text);
        let mut examined = 0;
        for (at, _) in text.match_indices("</think>") {
            strings.contains(at, at + "</think>".len());
            examined += 1;
        }
        assert_eq!(examined, 20_000);
        assert_eq!(strings.budget, 0);
        // Quoted tags in prose without brackets: each part of the text is searched for a
        // bracket once, so the budget is far from spent.
        let text = r#"he said "x </think> y" and "#.repeat(20_000);
        let mut strings = JsonStrings::new(&text);
        for (at, _) in text.match_indices("</think>") {
            assert!(!strings.contains(at, at + "</think>".len()));
        }
        assert!(strings.budget > 2 * text.len(), "{}", strings.budget);
    }

    #[test]
    fn positions_count_characters() {
        let text = "ab\nｘ｜y";
        let pos = text.find('y').unwrap();
        assert_eq!(line_column(text, pos), (2, 3));
        assert_eq!(line_column(text, pos - 1), (2, 2)); // inside `｜`
        assert_eq!(snippet(text, 4), "ｘ｜y");
    }

    #[test]
    fn names_are_cleaned() {
        assert_eq!(clean_name(" functions.get_weather:0 "), "get_weather");
        assert_eq!(clean_name("default_api.search"), "search");
        assert_eq!(clean_name("ns:tool"), "ns:tool");
        assert!(plausible_name("get-weather.v2"));
        assert!(!plausible_name("John Smith"));
        assert!(!plausible_name(""));
    }

    #[test]
    fn end_tokens() {
        assert!(is_end_tokens(" <|eot_id|></s> "));
        assert!(is_end_tokens("<｜end▁of▁sentence｜>"));
        assert!(!is_end_tokens("<|eot_id|> and more"));
        assert!(rest_of_line_is_blank("f()<|eom_id|>\nnext", 3));
    }
}
