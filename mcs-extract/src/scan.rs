//! Text helpers shared by the format parsers: positions, names, searches that know where
//! a growing text ends (see `horizon`).
//!
//! Every offset here is a byte offset into the text; helpers only ever slice at offsets
//! of ASCII bytes or at offsets they checked to be character boundaries.

use super::{horizon, work};

/// The largest character boundary not after `pos`.
pub(crate) fn floor_boundary(text: &str, pos: usize) -> usize {
    let mut pos = pos.min(text.len());
    while !text.is_char_boundary(pos) {
        pos -= 1;
    }
    pos
}

/// 1-based line and column (in characters) of byte `pos`.
#[cfg(test)]
pub(crate) fn line_column(text: &str, pos: usize) -> (usize, usize) {
    Locator::default().locate(text, pos)
}

/// Line and column of positions in one text, asked for in any order, each in time
/// logarithmic in the text plus the distance to the nearest position asked for before on
/// its line: the newlines are indexed once, as far as positions were asked for.
///
/// The answer depends on the position only, never on what was asked before, so the
/// details of malformed calls read the same whether a text is read whole or streamed.
#[derive(Clone, Debug, Default)]
pub(crate) struct Locator {
    /// Offsets of the newlines before `indexed`.
    newlines: Vec<usize>,
    indexed: usize,
    /// Positions located lately, with their column: counting starts from the nearest.
    recent: [(usize, usize); 2],
}

impl Locator {
    /// 1-based line and column (in characters) of byte `pos` of `text`, which must be the
    /// text (or a longer version of the text) positions were located in before.
    pub(crate) fn locate(&mut self, text: &str, pos: usize) -> (usize, usize) {
        let pos = floor_boundary(text, pos);
        if pos > self.indexed {
            let bytes = &text.as_bytes()[self.indexed..pos];
            self.newlines
                .extend(memchr::memchr_iter(b'\n', bytes).map(|i| self.indexed + i));
            self.indexed = pos;
        }
        let line_index = self.newlines.partition_point(|&newline| newline < pos);
        let line_start = line_index
            .checked_sub(1)
            .and_then(|i| self.newlines.get(i))
            .map_or(0, |newline| newline + 1);
        // Count from the nearest position on the same line located before, if any.
        let (from, column) = self
            .recent
            .iter()
            .filter(|(at, _)| *at >= line_start && *at <= pos && *at > 0)
            .max_by_key(|(at, _)| *at)
            .copied()
            .unwrap_or((line_start, 0));
        let column = column + text[from..pos].chars().count();
        self.recent = [self.recent[1], (pos, column)];
        (line_index + 1, column + 1)
    }
}

/// A short excerpt of `text` starting at `pos`.
pub(crate) fn snippet(text: &str, pos: usize) -> String {
    const CHARS: usize = 80;
    let rest = &text[floor_boundary(text, pos)..];
    let mut out: String = rest.chars().take(CHARS).collect();
    if rest.chars().nth(CHARS).is_some() {
        out.push('…');
    } else {
        horizon::reached(text, text.len());
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
    if end == text.len() {
        horizon::reached(text, end);
    }
    end
}

/// The byte at `pos`, if the text has one there.
#[inline]
pub(crate) fn byte_at(text: &str, pos: usize) -> Option<u8> {
    let byte = text.as_bytes().get(pos).copied();
    if byte.is_none() {
        horizon::reached(text, pos);
    }
    byte
}

/// Whether `pos` is at or past the end of `text`. Where the text may grow, that answer can
/// change, so saying yes counts as looking at the end (see `horizon`).
pub(crate) fn ends_by(text: &str, pos: usize) -> bool {
    let ends = pos >= text.len();
    if ends {
        horizon::reached(text, text.len());
    }
    ends
}

/// The end of `text`, for a reader whose region runs to the end of the output: it grows
/// with the output.
pub(crate) fn to_end(text: &str) -> usize {
    horizon::reached(text, text.len());
    text.len()
}

/// Where reading goes on after a region that ends at `end`: past `close` when it follows
/// (after blanks), else at `end`.
pub(crate) fn past_close(text: &str, end: usize, close: &str) -> usize {
    let q = skip_ws(text, end);
    if starts_at(text, q, close) {
        q + close.len()
    } else {
        end
    }
}

/// Whether `text` continues with `needle` at byte `pos`. Inlined: the readers ask it at
/// every candidate position, mostly with short literal needles.
#[inline]
pub(crate) fn starts_at(text: &str, pos: usize, needle: &str) -> bool {
    let rest = text.as_bytes().get(pos..).unwrap_or_default();
    if rest.starts_with(needle.as_bytes()) {
        return true;
    }
    // Cut short by the end of the text: more of it could still spell the needle.
    if rest.len() < needle.len() && needle.as_bytes().starts_with(rest) {
        horizon::reached(text, text.len());
    }
    false
}

/// The offset of the next `needle` at or after `pos`, before `limit`.
pub(crate) fn find_in(text: &str, pos: usize, limit: usize, needle: &str) -> Option<usize> {
    find_with(text, pos, limit, &memchr::memmem::Finder::new(needle))
}

/// Where the first of `needles` in `text` after `pos` starts.
pub(crate) fn first_of(text: &str, pos: usize, needles: &[&str]) -> Option<usize> {
    needles
        .iter()
        .filter_map(|needle| find_in(text, pos, text.len(), needle))
        .min()
}

/// [`find_in`] with a searcher built once, for the searches every gap of every output
/// makes (building one costs about what searching a short gap does).
pub(crate) fn find_with(
    text: &str,
    pos: usize,
    limit: usize,
    finder: &memchr::memmem::Finder<'_>,
) -> Option<usize> {
    let needle = finder.needle();
    let limit = limit.min(text.len());
    if pos >= limit {
        horizon::searched(text, limit, needle);
        return None;
    }
    let found = finder.find(&text.as_bytes()[pos..limit]);
    work::examined(found.map_or(limit - pos, |i| i + needle.len()));
    if found.is_none() {
        horizon::searched(text, limit, needle);
    }
    found.map(|i| pos + i)
}

/// Where an element that starts at `pos` ends: at its `close` tag, or — when that is
/// missing — where the next element (`open`) starts, or at `limit`. Returns the position of
/// the closing tag, if any, and the end of the element's body.
///
/// The close is looked for first, and the next opener only before it: an element whose
/// close has arrived is decided whatever follows it, which is what lets a stream report it
/// at once. The close search is remembered (see [`find_cached`]), so a run of unclosed
/// elements is still read in linear time.
pub(crate) fn element_end(
    text: &str,
    pos: usize,
    limit: usize,
    close: &str,
    open: &str,
) -> (Option<usize>, usize) {
    let limit = limit.min(text.len());
    let close_at = find_cached(text, pos, limit, close);
    let next_open = find_in(text, pos, close_at.unwrap_or(limit), open);
    match (close_at, next_open) {
        // The close belongs to a later element: this one is unclosed.
        (_, Some(next)) => (None, next),
        (Some(close_at), None) => (Some(close_at), close_at),
        (None, None) => (None, limit),
    }
}

/// How many searches [`find_cached`] remembers.
const REMEMBERED: usize = 4;

/// One remembered search: in the text at `text` (address, length), the first `needle` at
/// or after `from` is at `found`, or there is none before `searched`.
struct Remembered {
    text: (usize, usize),
    needle: Box<[u8]>,
    from: usize,
    found: Option<usize>,
    searched: usize,
}

thread_local! {
    static REMEMBERED_SEARCHES: std::cell::RefCell<Vec<Remembered>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Forgets the searches [`find_cached`] remembers: a new text is read (texts are told
/// apart by address and length, which a new text may share with a dropped one).
pub(crate) fn forget_searches() {
    REMEMBERED_SEARCHES.with(|cache| cache.borrow_mut().clear());
}

/// [`find_in`] for needles searched again and again from positions that only move forward
/// (the closing tag of each element of a run): a search that starts inside the range a
/// previous one covered answers from it instead of scanning the same bytes again.
pub(crate) fn find_cached(text: &str, pos: usize, limit: usize, needle: &str) -> Option<usize> {
    let limit = limit.min(text.len());
    let key = (text.as_ptr() as usize, text.len());
    let remembered = REMEMBERED_SEARCHES.with(|cache| {
        cache.borrow().iter().find_map(|entry| {
            if entry.text != key || *entry.needle != *needle.as_bytes() || entry.from > pos {
                return None;
            }
            match entry.found {
                Some(at) if at >= pos => Some(Some(at).filter(|at| at + needle.len() <= limit)),
                None if entry.searched >= limit => Some(None),
                _ => None,
            }
        })
    });
    if let Some(answer) = remembered {
        if answer.is_none() {
            horizon::searched(text, limit, needle.as_bytes());
        }
        return answer;
    }
    let found = find_in(text, pos, limit, needle);
    REMEMBERED_SEARCHES.with(|cache| {
        let mut cache = cache.borrow_mut();
        cache.retain(|entry| entry.text != key || *entry.needle != *needle.as_bytes());
        if cache.len() >= REMEMBERED {
            cache.remove(0);
        }
        cache.push(Remembered {
            text: key,
            needle: needle.as_bytes().into(),
            from: pos,
            found,
            searched: limit,
        });
    });
    found
}

/// The end of the run of name characters (letters and digits of any script, `_`, `-`, `.`,
/// `:`) starting at `pos`: a tool may be named `获取天气`.
pub(crate) fn name_end(text: &str, pos: usize) -> usize {
    let bytes = text.as_bytes();
    let mut end = pos;
    while let Some(&b) = bytes.get(end) {
        if b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b':') {
            end += 1;
        } else if !b.is_ascii()
            && let Some(c) = text.get(end..).and_then(|rest| rest.chars().next())
            && c.is_alphanumeric()
        {
            end += c.len_utf8();
        } else {
            break;
        }
    }
    if end == bytes.len() {
        horizon::reached(text, end);
    }
    end
}

/// A tool name as models write it, cleaned: trimmed, without the `functions.` and
/// `default_api.` namespaces and without Kimi's `:IDX` suffix; and without what renderers
/// and transports leave in it, which no tool name holds: invisible characters (zero-width
/// spaces and joiners, the word joiner, a byte-order mark, a soft hyphen) and markdown's
/// backslashes (`get\_weather`).
pub(crate) fn clean_name(raw: &str) -> String {
    if !raw.is_ascii() || raw.contains('\\') {
        let mut cleaned = String::with_capacity(raw.len());
        let mut chars = raw.chars().peekable();
        while let Some(c) = chars.next() {
            if is_invisible(c)
                || (c == '\\' && chars.peek().is_some_and(char::is_ascii_punctuation))
            {
                continue;
            }
            cleaned.push(c);
        }
        if cleaned.len() != raw.len() {
            return clean_name(&cleaned);
        }
    }
    // `get_time()`: the name as it is called in code.
    let mut name = raw.trim().trim_end_matches("()");
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

/// Characters that show nothing and that no name holds: zero-width space, non-joiner and
/// joiner, the word joiner, the byte-order mark (a zero-width no-break space) and the soft
/// hyphen.
pub(crate) fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{200B}' | '\u{200C}' | '\u{200D}' | '\u{2060}' | '\u{FEFF}' | '\u{AD}'
    )
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
    let line_end =
        memchr::memchr(b'\n', &text.as_bytes()[pos..]).map_or_else(|| to_end(text), |i| pos + i);
    is_end_tokens(&text[pos..line_end])
}

/// Whether `text` is only whitespace and special tokens (`<|eot_id|>`, `</s>`, Gemma's
/// `<end_of_turn>`: see `visible::special_token`).
pub(crate) fn is_end_tokens(text: &str) -> bool {
    let mut rest = text.trim();
    while !rest.is_empty() {
        match super::visible::special_token(rest) {
            Ok(Some(len)) => rest = rest[len..].trim_start(),
            _ => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(is_end_tokens("<end_of_turn>\n<eos>"));
        assert!(!is_end_tokens("<|eot_id|> and more"));
        assert!(rest_of_line_is_blank("f()<|eom_id|>\nnext", 3));
    }
}
