//! A lenient JSON reader that also says where a value ends and whether it had to repair it.
//!
//! Models damage JSON in a handful of recurring ways: trailing commas, single or typographic
//! quotes, unquoted keys, Python literals, comments, raw newlines in strings. This reader
//! accepts all of those, records that it did (`repaired`), and otherwise follows RFC 8259.
//! It reads one value starting at a byte offset and reports the offset just past it, so
//! callers can find JSON inside prose without guessing where it stops.
//!
//! Nesting is limited to [`MAX_DEPTH`] levels, so hostile input cannot overflow the stack,
//! and errors carry the byte offset where reading failed.

use std::borrow::Cow;
use std::fmt;

use serde_json::{Map, Number, Value};

use super::scan::{byte_at, to_end};
use super::{horizon, visible, work};

/// How the message of an error starts when a string was read to its end but holds what no
/// reading can settle (backslashes that escape nothing beside ones that write a control
/// character; half a surrogate pair): the value is whole, and cannot be read.
pub(crate) const UNREADABLE_STRING: &str = "the string ";

/// How deeply arrays and objects may nest before reading gives up.
pub(crate) const MAX_DEPTH: usize = 128;

/// A value read from text.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Parsed {
    pub value: Value,
    /// Byte offset just past the value.
    pub end: usize,
    /// Some damage had to be repaired to read it.
    pub repaired: bool,
}

/// Why a value could not be read.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct JsonError {
    /// Byte offset where reading failed.
    pub pos: usize,
    /// What was expected or found there.
    pub message: ErrorMessage,
}

/// What was expected or found where reading failed, written out only when it is shown:
/// most failures are braces in prose or code, and nobody reads why they are not JSON.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ErrorMessage {
    /// Said in full.
    Text(Cow<'static, str>),
    /// "expected {expected}, found {what stands there}".
    Unexpected {
        expected: &'static str,
        found: Option<char>,
    },
    /// "expected `:` after the key "{key}", found {what stands there}".
    AfterKey { key: String, found: Option<char> },
}

impl fmt::Display for ErrorMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorMessage::Text(text) => f.write_str(text),
            ErrorMessage::Unexpected { expected, found } => {
                write!(f, "expected {expected}, found {}", Found(*found))
            }
            ErrorMessage::AfterKey { key, found } => write!(
                f,
                "expected `:` after the key \"{key}\", found {}",
                Found(*found)
            ),
        }
    }
}

/// Whether the text of a string literal holds a Windows path (`C:\Users`):
/// with backslashes that escape nothing beside it, its `\n` and `\t` are most likely the
/// path's `\new` and `\temp`, not a line break and a tab. A string that holds no path keeps
/// its line breaks (code with an undoubled `\d` in a pattern: `"import re\nre.match(…)"`);
/// one that writes a backspace or a form feed beside such backslashes (`\bob`, `\files`)
/// is refused either way.
fn windows_path(literal: &str) -> bool {
    literal
        .as_bytes()
        .windows(3)
        .any(|w| w[0].is_ascii_alphabetic() && w[1] == b':' && w[2] == b'\\')
}

/// A character met where something else was expected, in words (`None`: the end).
struct Found(Option<char>);

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            None => f.write_str("end of input"),
            Some(c) if c.is_control() => write!(f, "control character U+{:04X}", c as u32),
            Some(c) => write!(f, "`{c}`"),
        }
    }
}

/// Reads one value that starts at byte `start` of `text` (leading whitespace and comments
/// are skipped).
pub(crate) fn parse_value(text: &str, start: usize) -> Result<Parsed, JsonError> {
    parse_in(text, start, false)
}

/// Reads one value of a Python call's arguments (`f(tags={'a', 'b'})`) that starts at byte
/// `start` of `text`: [`parse_value`], and also what Python writes that JSON does not — a
/// raw string (`r"C:\Users"`), a set as an array (`{'urgent', 'bug'}`), and a quote that
/// is not followed by what may follow a value (`,`, `)`, `]`, `}`, `:`) inside the string
/// when the string can end later on its line, before any bracket, as small models write
/// shell commands (`command='sed -n '360,450p' file'`). All are repairs.
pub(crate) fn parse_python_value(text: &str, start: usize) -> Result<Parsed, JsonError> {
    parse_in(text, start, true)
}

fn parse_in(text: &str, start: usize, python: bool) -> Result<Parsed, JsonError> {
    let touches = horizon::touches();
    let mut read = read_value(text, start, python);
    // A value broken off by the end of the model's turn (`{"city": "Paris"<|im_end|>`,
    // the token a server left in) ran into the end of the output.
    if let Err(error) = &mut read
        && let Some(rest) = text.get(error.pos..)
        && rest.trim_start().starts_with('<')
        && visible::only_end_of_turn(rest)
    {
        horizon::reached(text, text.len());
        error.message = ErrorMessage::Text("the model's turn ended before the value closed".into());
    }
    if horizon::touches() != touches {
        let first = start
            + text
                .as_bytes()
                .get(start..)
                .unwrap_or_default()
                .iter()
                .take_while(|b| b" \t\n\r".contains(b))
                .count();
        if matches!(text.as_bytes().get(first), Some(b'{' | b'[')) {
            horizon::json_open(text, first);
        }
    }
    let stop = match &read {
        Ok(parsed) => parsed.end,
        Err(error) => error.pos,
    };
    work::examined(stop.saturating_sub(start).max(1));
    read
}

fn read_value(text: &str, start: usize, python: bool) -> Result<Parsed, JsonError> {
    if !text.is_char_boundary(start) {
        return Err(JsonError {
            pos: start.min(text.len()),
            message: ErrorMessage::Text("reading started inside a character".into()),
        });
    }
    let mut reader = Reader {
        src: text,
        pos: start,
        repaired: false,
        depth: 0,
        python,
    };
    reader.skip_blank();
    if let Some((value, end)) = strict_value(text, reader.pos) {
        return Ok(Parsed {
            value,
            end,
            repaired: reader.repaired,
        });
    }
    let value = reader.value()?;
    Ok(Parsed {
        value,
        end: reader.pos,
        repaired: reader.repaired,
    })
}

/// The object or array at `pos` read by the strict parser, and where it ends; `None` when
/// it is anything else or not strict JSON (then the lenient reader decides).
///
/// Strict JSON reads to the same value here as below and needs no repair (only the strict
/// whitespace, strings with only JSON escapes and no raw control characters, JSON numbers,
/// no lone surrogates: `serde_json` rejects the rest), and `serde_json` nests less deeply
/// than [`MAX_DEPTH`]; the strict parser is several times faster, and stops no later than
/// the lenient one on text that is not strict JSON.
fn strict_value(text: &str, pos: usize) -> Option<(Value, usize)> {
    let rest = text.get(pos..)?;
    if !matches!(rest.as_bytes().first(), Some(b'{' | b'[')) {
        return None;
    }
    let mut stream = serde_json::Deserializer::from_str(rest).into_iter::<Value>();
    match stream.next() {
        Some(Ok(value)) => Some((value, pos + stream.byte_offset())),
        _ => None,
    }
}

/// Reads `text` as exactly one value (surrounding whitespace allowed).
pub(crate) fn parse_whole(text: &str) -> Result<(Value, bool), JsonError> {
    work::examined(text.len());
    // "Nothing after the value" depends on what comes after the text.
    horizon::reached(text, text.len());
    // The strict parser is much faster and is right for almost every input.
    if let Ok(value) = serde_json::from_str::<Value>(text) {
        return Ok((value, false));
    }
    let parsed = parse_value(text, 0)?;
    let mut reader = Reader {
        src: text,
        pos: parsed.end,
        repaired: parsed.repaired,
        depth: 0,
        python: false,
    };
    reader.skip_blank();
    if reader.pos < text.len() {
        return Err(JsonError {
            pos: reader.pos,
            message: ErrorMessage::Text(
                format!(
                    "unexpected {} after the value",
                    describe_at(text, reader.pos)
                )
                .into(),
            ),
        });
    }
    Ok((parsed.value, reader.repaired))
}

/// What stands at `pos`, for error messages.
pub(crate) fn describe_at(text: &str, pos: usize) -> String {
    let found = text.get(pos..).and_then(|rest| rest.chars().next());
    if found.is_none() {
        horizon::reached(text, pos);
    }
    Found(found).to_string()
}

struct Reader<'a> {
    src: &'a str,
    pos: usize,
    repaired: bool,
    depth: usize,
    /// Reading a Python call's arguments: sets are arrays, and a quote followed by what
    /// cannot follow a value is inside its string (see [`parse_python_value`]).
    python: bool,
}

impl Reader<'_> {
    fn peek(&self) -> Option<char> {
        let next = self
            .src
            .get(self.pos..)
            .and_then(|rest| rest.chars().next());
        if next.is_none() {
            horizon::reached(self.src, self.pos);
        }
        next
    }

    /// The byte at `pos`, noting the end of the text when there is none.
    fn byte(&self, pos: usize) -> Option<u8> {
        byte_at(self.src, pos)
    }

    fn error(&self, message: impl Into<Cow<'static, str>>) -> JsonError {
        JsonError {
            pos: self.pos,
            message: ErrorMessage::Text(message.into()),
        }
    }

    fn unexpected(&self, expected: &'static str) -> JsonError {
        JsonError {
            pos: self.pos,
            message: ErrorMessage::Unexpected {
                expected,
                found: self.peek(),
            },
        }
    }

    /// Skips whitespace and `//` / `/* */` comments (the latter count as repairs).
    fn skip_blank(&mut self) {
        let bytes = self.src.as_bytes();
        loop {
            match self.byte(self.pos) {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.pos += 1,
                Some(b'/') if self.byte(self.pos + 1) == Some(b'/') => {
                    self.repaired = true;
                    self.pos = memchr::memchr(b'\n', &bytes[self.pos..])
                        .map_or_else(|| to_end(self.src), |offset| self.pos + offset + 1);
                }
                Some(b'/') if self.byte(self.pos + 1) == Some(b'*') => {
                    self.repaired = true;
                    self.pos = memchr::memmem::find(&bytes[self.pos + 2..], b"*/")
                        .map_or_else(|| to_end(self.src), |offset| self.pos + 2 + offset + 2);
                }
                Some(byte) if byte >= 0x80 => match self.peek() {
                    // No-break and other Unicode spaces pasted from rich text.
                    Some(c) if c.is_whitespace() => {
                        self.repaired = true;
                        self.pos += c.len_utf8();
                    }
                    _ => return,
                },
                _ => return,
            }
        }
    }

    fn value(&mut self) -> Result<Value, JsonError> {
        match self.peek() {
            None => Err(self.error("expected a value, found end of input")),
            // Also full-width, as CJK input methods write them (`｛`, `［`; a repair).
            Some('{' | '\u{FF5B}') => self.nested(Self::object),
            Some('[' | '\u{FF3B}') => self.nested(Self::array),
            Some(quote @ ('"' | '\'')) if self.python && self.triple(self.pos, quote as u8) => {
                self.triple_string(quote as u8).map(Value::String)
            }
            Some(quote @ ('"' | '\'' | '\u{201C}' | '\u{201D}' | '\u{2018}' | '\u{2019}')) => {
                self.string(quote).map(Value::String)
            }
            Some('-' | '+' | '.' | '0'..='9') => self.number(),
            Some('r' | 'R')
                if self.python && matches!(self.byte(self.pos + 1), Some(b'"' | b'\'')) =>
            {
                self.raw_string().map(Value::String)
            }
            Some(c) if c.is_ascii_alphabetic() || c == '_' => self.word(),
            Some(_) => Err(self.unexpected("a value")),
        }
    }

    fn nested(
        &mut self,
        read: fn(&mut Self) -> Result<Value, JsonError>,
    ) -> Result<Value, JsonError> {
        if self.depth >= MAX_DEPTH {
            return Err(self.error(format!("nested more than {MAX_DEPTH} levels deep")));
        }
        self.depth += 1;
        let value = read(self);
        self.depth -= 1;
        value
    }

    fn object(&mut self) -> Result<Value, JsonError> {
        if self.python
            && self.peek() == Some('{')
            && let Some(set) = self.python_set()
        {
            return set;
        }
        self.open_bracket();
        let mut map = Map::new();
        let mut after_comma = false;
        loop {
            self.skip_blank();
            match self.peek() {
                Some(close @ ('}' | '\u{FF5D}')) => {
                    if after_comma {
                        self.repaired = true;
                    }
                    self.close_bracket(close);
                    return Ok(Value::Object(map));
                }
                None => return Err(self.error("unterminated object: expected `}`")),
                _ => {}
            }
            if !map.is_empty() && !after_comma {
                return Err(self.unexpected("`,` or `}`"));
            }
            let key = self.key()?;
            self.skip_blank();
            if !self.separator(':', '：') {
                return Err(JsonError {
                    pos: self.pos,
                    message: ErrorMessage::AfterKey {
                        key,
                        found: self.peek(),
                    },
                });
            }
            self.skip_blank();
            let value = self.value()?;
            map.insert(key, value);
            self.skip_blank();
            after_comma = self.separator(',', '，');
        }
    }

    /// Steps over the opening bracket at `pos`, ASCII or full-width (a repair).
    fn open_bracket(&mut self) {
        let open = self.peek().unwrap_or('{');
        self.repaired |= !open.is_ascii();
        self.pos += open.len_utf8();
    }

    /// Steps over the closing bracket `close`, ASCII or full-width (a repair).
    fn close_bracket(&mut self, close: char) {
        self.repaired |= !close.is_ascii();
        self.pos += close.len_utf8();
    }

    /// Steps over the separator `ascii`, or its full-width form `wide` as CJK input methods
    /// write it between tokens (`"name"："search"，`; a repair): whether one stood there.
    fn separator(&mut self, ascii: char, wide: char) -> bool {
        match self.peek() {
            Some(c) if c == ascii => {
                self.pos += 1;
                true
            }
            Some(c) if c == wide => {
                self.repaired = true;
                self.pos += c.len_utf8();
                true
            }
            _ => false,
        }
    }

    /// A Python set at `{` (`{'urgent', 'bug'}`, `{1, 2}`), read as an array; `None` when
    /// the braces hold a dict (or nothing: `{}` is a dict), and reading starts again there.
    fn python_set(&mut self) -> Option<Result<Value, JsonError>> {
        let open = self.pos;
        self.pos += 1;
        self.skip_blank();
        let first = match self.peek() {
            Some('}') | None => None,
            _ => self.nested(Self::value).ok(),
        };
        self.skip_blank();
        let is_set = first.is_some() && matches!(self.peek(), Some(',' | '}'));
        let Some(first) = first.filter(|_| is_set) else {
            self.pos = open;
            return None;
        };
        self.repaired = true;
        let mut items = vec![first];
        loop {
            self.skip_blank();
            match self.peek() {
                Some('}') => {
                    self.pos += 1;
                    return Some(Ok(Value::Array(items)));
                }
                Some(',') => {
                    self.pos += 1;
                    self.skip_blank();
                    if self.peek() == Some('}') {
                        continue;
                    }
                    match self.nested(Self::value) {
                        Ok(item) => items.push(item),
                        Err(error) => return Some(Err(error)),
                    }
                }
                None => return Some(Err(self.error("unterminated set: expected `}`"))),
                _ => return Some(Err(self.unexpected("`,` or `}`"))),
            }
        }
    }

    fn key(&mut self) -> Result<String, JsonError> {
        match self.peek() {
            Some(quote @ ('"' | '\'' | '\u{201C}' | '\u{201D}' | '\u{2018}' | '\u{2019}')) => {
                self.string(quote)
            }
            Some(c) if c.is_ascii_alphanumeric() || c == '_' || c == '$' => {
                let start = self.pos;
                while self
                    .byte(self.pos)
                    .is_some_and(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'-'))
                {
                    self.pos += 1;
                }
                self.repaired = true;
                Ok(self.src[start..self.pos].to_owned())
            }
            _ => Err(self.unexpected("a key")),
        }
    }

    fn array(&mut self) -> Result<Value, JsonError> {
        self.open_bracket();
        let mut items = Vec::new();
        let mut after_comma = false;
        loop {
            self.skip_blank();
            match self.peek() {
                Some(close @ (']' | '\u{FF3D}')) => {
                    if after_comma {
                        self.repaired = true;
                    }
                    self.close_bracket(close);
                    return Ok(Value::Array(items));
                }
                None => return Err(self.error("unterminated array: expected `]`")),
                _ => {}
            }
            if !items.is_empty() && !after_comma {
                return Err(self.unexpected("`,` or `]`"));
            }
            items.push(self.value()?);
            self.skip_blank();
            after_comma = self.separator(',', '，');
        }
    }

    fn string(&mut self, open: char) -> Result<String, JsonError> {
        let start = self.pos;
        let closes = |c: char| match open {
            '"' => c == '"',
            '\'' => c == '\'',
            '\u{201C}' | '\u{201D}' => c == '\u{201D}' || c == '\u{201C}',
            _ => c == '\u{2019}' || c == '\u{2018}',
        };
        if open != '"' {
            self.repaired = true;
        }
        self.pos += open.len_utf8();
        let mut out = String::new();
        // Where the first quote read as the string's own was, and how much had been read.
        let mut inner: Option<(usize, usize)> = None;
        // Whether a backslash escaped nothing JSON knows (`\U`, `\d`), and which control
        // characters escapes wrote: a backspace or form feed (`\b`, `\f`), which text
        // almost never holds, or a line break or tab. Both in one string is a path or a
        // pattern whose backslashes were not doubled ([`windows_path`]), and which cannot be
        // told.
        let mut unknown = false;
        let mut rare = false;
        let mut control = false;
        loop {
            let rest = &self.src[self.pos..];
            // Copy the plain run up to the next character that needs a decision. With an
            // ASCII quote every such character is one byte, and no byte of a multi-byte
            // character is ASCII, so the bytes can be searched directly.
            let plain = if open.is_ascii() {
                let quote = open as u8;
                rest.bytes()
                    .position(|b| b == b'\\' || b == quote || b < b' ')
            } else {
                rest.find(|c: char| c == '\\' || closes(c) || c < ' ')
            }
            .unwrap_or(rest.len());
            out.push_str(&rest[..plain]);
            self.pos += plain;
            let Some(c) = self.peek() else {
                // A quote taken for the string's own, and no quote after it that ends the
                // value: the first one ended it after all (`'it's late)]`), and what
                // follows it is for the caller to refuse.
                if let Some((pos, len)) = inner {
                    self.pos = pos;
                    out.truncate(len);
                    return Ok(out);
                }
                self.pos = start;
                return Err(self.error("unterminated string"));
            };
            self.pos += c.len_utf8();
            if closes(c) {
                if self.python && c.is_ascii() && !self.ends_value() && self.quoted_again(c) {
                    // `'sed -n '360,450p' file'`: the quote is the string's own.
                    inner.get_or_insert((self.pos, out.len()));
                    out.push(c);
                    continue;
                }
                if inner.is_some() {
                    self.repaired = true;
                }
                if unknown && (rare || (control && windows_path(&self.src[start..self.pos]))) {
                    self.pos = start;
                    return Err(self.error(format!(
                        "{UNREADABLE_STRING}mixes backslashes that escape nothing (`\\U`, \
                         `\\d`) with ones that write a control character (`\\n`, `\\b`): it \
                         cannot be told whether it is a path or pattern whose backslashes were \
                         not doubled (`C:\\Users\\bob\\new` read as a newline) or text with a \
                         stray backslash; write each backslash that is text as `\\\\`"
                    )));
                }
                return Ok(out);
            }
            if c != '\\' {
                // A raw control character (usually a newline in a code argument).
                self.repaired = true;
                out.push(c);
                continue;
            }
            let Some(escaped) = self.peek() else {
                self.pos = start;
                return Err(self.error("unterminated string"));
            };
            self.pos += escaped.len_utf8();
            match escaped {
                '"' | '\\' | '/' => out.push(escaped),
                'b' | 'f' | 'n' | 'r' | 't' => {
                    rare |= matches!(escaped, 'b' | 'f');
                    control = true;
                    out.push(match escaped {
                        'b' => '\u{8}',
                        'f' => '\u{c}',
                        'n' => '\n',
                        'r' => '\r',
                        _ => '\t',
                    });
                }
                'u' => match self.unicode_escape() {
                    Ok(c) => out.push(c),
                    Err(None) => {
                        unknown = true;
                        self.repaired = true;
                        out.push_str("\\u");
                    }
                    Err(Some(half)) => {
                        self.pos = start;
                        return Err(self.error(format!(
                            "{UNREADABLE_STRING}holds `\\u{half:04x}`, half of a UTF-16 \
                             surrogate pair without its other half, which no text can hold"
                        )));
                    }
                },
                '\'' => {
                    self.repaired = true;
                    out.push('\'');
                }
                other => {
                    // Python keeps unknown escapes as written.
                    unknown = true;
                    self.repaired = true;
                    out.push('\\');
                    out.push(other);
                }
            }
        }
    }

    /// Whether `quote` stands three times at `pos` (a Python triple-quoted string's quotes).
    fn triple(&self, pos: usize, quote: u8) -> bool {
        (pos..pos + 3).all(|at| self.byte(at) == Some(quote))
    }

    /// Copies the text up to the next backslash or `quote` into `out` (a raw or triple-quoted
    /// string's run that needs no decision).
    fn copy_plain(&mut self, quote: u8, out: &mut String) {
        let rest = &self.src[self.pos..];
        let plain = rest
            .bytes()
            .position(|b| b == b'\\' || b == quote)
            .unwrap_or(rest.len());
        out.push_str(&rest[..plain]);
        self.pos += plain;
    }

    /// A Python triple-quoted string (`"""…"""`, `'''…'''`), as models write a body of code
    /// in a pythonic call: its line breaks and single quotes of either kind are text, and
    /// its escapes are Python's (`\t` a tab, a backslash before a line break joins the
    /// lines, one Python does not know stays as written).
    fn triple_string(&mut self, quote: u8) -> Result<String, JsonError> {
        let start = self.pos;
        self.pos += 3;
        self.repaired = true;
        let mut out = String::new();
        loop {
            self.copy_plain(quote, &mut out);
            if self.peek().is_none() {
                self.pos = start;
                return Err(self.error("unterminated string"));
            }
            if self.byte(self.pos) == Some(quote) {
                if self.triple(self.pos, quote) {
                    self.pos += 3;
                    return Ok(out);
                }
                out.push(char::from(quote));
                self.pos += 1;
                continue;
            }
            // A backslash.
            self.pos += 1;
            let Some(escaped) = self.peek() else {
                self.pos = start;
                return Err(self.error("unterminated string"));
            };
            self.pos += escaped.len_utf8();
            match escaped {
                '\n' => {}
                '\\' | '\'' | '"' => out.push(escaped),
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'r' => out.push('\r'),
                'b' => out.push('\u{8}'),
                'f' => out.push('\u{c}'),
                'u' => match self.unicode_escape() {
                    Ok(c) => out.push(c),
                    Err(None) => out.push_str("\\u"),
                    Err(Some(half)) => {
                        self.pos = start;
                        return Err(self.error(format!(
                            "{UNREADABLE_STRING}holds `\\u{half:04x}`, half of a UTF-16 \
                             surrogate pair without its other half, which no text can hold"
                        )));
                    }
                },
                other => {
                    out.push('\\');
                    out.push(other);
                }
            }
        }
    }

    /// A Python raw string at `r` (`r"C:\Users\bob"`): its backslashes are text; one
    /// before the quote keeps the quote in the string, as Python reads it.
    fn raw_string(&mut self) -> Result<String, JsonError> {
        let start = self.pos;
        let quote = self.byte(self.pos + 1).unwrap_or(b'"');
        self.pos += 2;
        let mut out = String::new();
        loop {
            self.copy_plain(quote, &mut out);
            match self.byte(self.pos) {
                None => {
                    self.pos = start;
                    return Err(self.error("unterminated string"));
                }
                Some(b) if b == quote => {
                    self.pos += 1;
                    self.repaired = true;
                    return Ok(out);
                }
                Some(_) => {
                    // A backslash: it and the character after it are text.
                    out.push('\\');
                    self.pos += 1;
                    if let Some(c) = self.peek() {
                        out.push(c);
                        self.pos += c.len_utf8();
                    }
                }
            }
        }
    }

    /// Whether what follows a closing quote (past spaces) may follow a value: the end of
    /// the text, `,`, `)`, `]`, `}` or `:`.
    fn ends_value(&self) -> bool {
        let mut pos = self.pos;
        loop {
            match self.byte(pos) {
                Some(b' ' | b'\t' | b'\n' | b'\r') => pos += 1,
                None | Some(b',' | b')' | b']' | b'}' | b':') => return true,
                Some(_) => return false,
            }
        }
    }

    /// Whether `quote` comes again before the next bracket or line end: a quote that does
    /// not end a value is the string's own only where the string can end later on its line,
    /// inside the call (`'sed -n '360,450p' file'`); otherwise (`'it's late)]`) it ends the
    /// string, and the caller refuses what follows. No string read so grows past a bracket,
    /// so each byte is read so by at most one attempt to read a call list (each starts at
    /// a `[`), and reading stays linear.
    fn quoted_again(&self, quote: char) -> bool {
        let mut pos = self.pos;
        loop {
            match self.byte(pos) {
                Some(byte) if char::from(byte) == quote => return true,
                None | Some(b'(' | b')' | b'[' | b']' | b'\n') => return false,
                Some(_) => pos += 1,
            }
        }
    }

    /// The character of a `\uXXXX` escape (the `\u` is consumed), pairing surrogates:
    /// `Err(None)` when no four hex digits follow (a backslash that escapes nothing, as in
    /// `C:\users`; nothing is consumed), `Err(Some(code))` for half a surrogate pair, which
    /// no text can hold.
    fn unicode_escape(&mut self) -> Result<char, Option<u32>> {
        let Some(high) = self.hex4() else {
            return Err(None);
        };
        if (0xDC00..0xE000).contains(&high) {
            return Err(Some(high));
        }
        if !(0xD800..0xDC00).contains(&high) {
            return char::from_u32(high).ok_or(Some(high));
        }
        if self.byte(self.pos) == Some(b'\\') && self.byte(self.pos + 1) == Some(b'u') {
            let save = self.pos;
            self.pos += 2;
            if let Some(low) = self.hex4().filter(|low| (0xDC00..0xE000).contains(low)) {
                let code = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
                if let Some(c) = char::from_u32(code) {
                    return Ok(c);
                }
            }
            self.pos = save;
        }
        Err(Some(high))
    }

    fn hex4(&mut self) -> Option<u32> {
        let Some(digits) = self.src.get(self.pos..self.pos + 4) else {
            horizon::reached(self.src, self.pos + 4);
            return None;
        };
        let value = u32::from_str_radix(digits, 16).ok()?;
        if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        self.pos += 4;
        Some(value)
    }

    fn number(&mut self) -> Result<Value, JsonError> {
        let start = self.pos;
        while self
            .byte(self.pos)
            .is_some_and(|b| b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E'))
        {
            self.pos += 1;
        }
        let token = &self.src[start..self.pos];
        if let Ok(number) = serde_json::from_str::<Number>(token) {
            return Ok(Value::Number(number));
        }
        // `000858`, `02134`: digits with leading zeros may be a code (a stock symbol, a
        // postal code), and dropping the zeros would change it: kept as the text written (a
        // repair). Where the schema takes only a number, coercion reads the zero-padded
        // number (`TextReading::JsonString` in mcs-core).
        let digits = token.strip_prefix('-').unwrap_or(token);
        if digits.len() > 1 && digits.starts_with('0') && digits.bytes().all(|b| b.is_ascii_digit())
        {
            self.repaired = true;
            return Ok(Value::String(token.to_owned()));
        }

        // `+1`, `.5`, `5.`: not JSON, but unambiguous.
        let trimmed = token.strip_prefix('+').unwrap_or(token);
        if trimmed.bytes().any(|b| b.is_ascii_digit()) {
            if let Ok(integer) = trimmed.parse::<i64>() {
                self.repaired = true;
                return Ok(Value::from(integer));
            }
            if let Some(number) = trimmed.parse::<f64>().ok().and_then(Number::from_f64) {
                self.repaired = true;
                return Ok(Value::Number(number));
            }
        }
        self.pos = start;
        Err(self.error(format!("invalid number `{token}`")))
    }

    fn word(&mut self) -> Result<Value, JsonError> {
        let start = self.pos;
        while self
            .byte(self.pos)
            .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
        {
            self.pos += 1;
        }
        let value = match &self.src[start..self.pos] {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            "null" => Value::Null,
            python @ ("True" | "False" | "None") => {
                self.repaired = true;
                match python {
                    "True" => Value::Bool(true),
                    "False" => Value::Bool(false),
                    _ => Value::Null,
                }
            }
            word => {
                let message = format!("expected a value, found the bare word `{word}`");
                self.pos = start;
                return Err(self.error(message));
            }
        };
        Ok(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_values_read_sets_and_quotes_of_their_own() {
        let set = parse_python_value("{'urgent', 'bug', 3}", 0).unwrap();
        assert_eq!(set.value, serde_json::json!(["urgent", "bug", 3]));
        assert!(set.repaired);
        let dict = parse_python_value("{'k': {1, 2}, 'e': {}}", 0).unwrap();
        assert_eq!(dict.value, serde_json::json!({"k": [1, 2], "e": {}}));
        let command = "'sed -n '360,450p' /testbed/common.py')]";
        let parsed = parse_python_value(command, 0).unwrap();
        assert_eq!(parsed.value, "sed -n '360,450p' /testbed/common.py");
        assert_eq!(&command[parsed.end..], ")]");
        assert!(parsed.repaired);
        // A quote whose string cannot end later on its line, inside the call, ends it.
        let late = parse_python_value("'it's late)]", 0).unwrap();
        assert_eq!(late.value, "it");
        // JSON keeps to JSON.
        assert!(parse_value("{'urgent', 'bug'}", 0).is_err());
        assert_eq!(parse_value("'a'b'", 0).unwrap().value, "a");
        // A raw string keeps its backslashes.
        let raw = parse_python_value(r#"r"C:\Users\bob\new" "#, 0).unwrap();
        assert_eq!(raw.value, r"C:\Users\bob\new");
    }

    #[test]
    fn code_keeps_its_line_breaks_beside_an_undoubled_pattern() {
        // `\d` escapes nothing and `\n` is a line break: code, not a path.
        let code = parse_value(r#""import re\nre.match(r'\d+', s)" "#, 0).unwrap();
        assert_eq!(code.value, "import re\nre.match(r'\\d+', s)");
        assert!(code.repaired);
        // A backspace beside such a backslash is refused even without a drive letter.
        assert!(parse_value(r#""\bob\Documents" "#, 0).is_err());
    }

    #[test]
    fn python_triple_quoted_strings_hold_lines_and_quotes() {
        let body = parse_python_value("\"\"\"a 'b' \"c\"\n\\tx\\\ny\"\"\")", 0).unwrap();
        assert_eq!(body.value, "a 'b' \"c\"\n\txy");
        let single = parse_python_value("'''it's\n'''", 0).unwrap();
        assert_eq!(single.value, "it's\n");
        // JSON has none, and one left open is unterminated.
        assert_eq!(parse_value(r#""""a""""#, 0).unwrap().value, "");
        assert!(parse_python_value(r#""""never closed"#, 0).is_err());
    }

    #[test]
    fn backslashes_that_cannot_be_told_apart_are_refused() {
        // An undoubled Windows path: `\U` escapes nothing, `\b` and `\n` write control
        // characters. Which the writer meant cannot be told.
        let error = parse_value(r#""C:\Users\bob\notes.txt" "#, 0).unwrap_err();
        assert!(error.message.to_string().starts_with(UNREADABLE_STRING));
        // Backslashes that escape nothing, alone, are kept (a pattern): `\d`, `\*`, `\u`
        // without hex digits.
        let pattern = parse_value(r#""\d+\.\d* \users" "#, 0).unwrap();
        assert_eq!(pattern.value, r"\d+\.\d* \users");
        assert!(pattern.repaired);
        // Half a surrogate pair is no text.
        let error = parse_value(r#""rocket \ud83d!" "#, 0).unwrap_err();
        assert!(error.message.to_string().contains("surrogate"));
        assert_eq!(
            parse_value(r#""\ud83d\ude80" "#, 0).unwrap().value,
            "\u{1F680}"
        );
        // Full-width separators between tokens; inside strings they are text.
        let wide = parse_value("{\"q\"：\"北京：晴，热\"，\"n\"：[1，2]}", 0).unwrap();
        assert_eq!(
            wide.value,
            serde_json::json!({"q": "北京：晴，热", "n": [1, 2]})
        );
        assert!(wide.repaired);
        // Full-width braces and brackets, too, and the two kinds mixed.
        let wide = parse_value("｛\"n\"：［1，2］，\"m\": {}｝ tail", 0).unwrap();
        assert_eq!(wide.value, serde_json::json!({"n": [1, 2], "m": {}}));
        assert_eq!(&"｛\"n\"：［1，2］，\"m\": {}｝ tail"[wide.end..], " tail");
        assert!(wide.repaired);
    }

    #[test]
    fn digits_with_leading_zeros_are_kept_as_written() {
        for (text, value) in [("000858", "000858"), ("-007", "-007"), ("05", "05")] {
            let parsed = parse_value(text, 0).unwrap();
            assert_eq!(parsed.value, json!(value), "{text}");
            assert!(parsed.repaired, "{text}");
        }
        // A lone zero, and a zero before a point, are numbers.
        assert_eq!(parse_value("0", 0).unwrap().value, json!(0));
        assert_eq!(parse_value("0.5", 0).unwrap().value, json!(0.5));
    }
    use serde_json::json;

    fn read(text: &str) -> (Value, bool) {
        let parsed = parse_value(text, 0).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        (parsed.value, parsed.repaired)
    }

    #[test]
    fn strict_json_is_not_repaired() {
        let (value, repaired) =
            read(r#"{"a": [1, -2.5e3, true, null], "b": "x\"y\u00e9\ud83d\ude00"}"#);
        assert_eq!(value, json!({"a": [1, -2.5e3, true, null], "b": "x\"yé😀"}));
        assert!(!repaired);
    }

    #[test]
    fn reports_the_end_of_a_value_inside_prose() {
        let text = r#"call {"q": "a } b"} then more"#;
        let parsed = parse_value(text, 5).unwrap();
        assert_eq!(&text[parsed.end..], " then more");
    }

    #[test]
    fn repairs_common_damage() {
        let cases = [
            ("{'city': 'Paris',}", json!({"city": "Paris"})),
            ("{city: \"Paris\"}", json!({"city": "Paris"})),
            (
                "{\"on\": True, \"x\": None, \"y\": False}",
                json!({"on": true, "x": null, "y": false}),
            ),
            (
                "{\"a\": 1, // one\n /* two */ \"b\": 2}",
                json!({"a": 1, "b": 2}),
            ),
            ("{“city”: “Paris”}", json!({"city": "Paris"})),
            ("{‘city’: ‘Paris’}", json!({"city": "Paris"})),
            ("[1, 2, ]", json!([1, 2])),
            ("{\"code\": \"a\nb\"}", json!({"code": "a\nb"})),
            ("{\"n\": +1, \"f\": .5}", json!({"n": 1, "f": 0.5})),
            ("{'it\\'s': 'ok'}", json!({"it's": "ok"})),
        ];
        for (text, expected) in cases {
            let (value, repaired) = read(text);
            assert_eq!(value, expected, "{text}");
            assert!(repaired, "{text} should count as repaired");
        }
    }

    #[test]
    fn errors_say_where() {
        let error = parse_value(r#"{"a": 1 "b": 2}"#, 0).unwrap_err();
        assert_eq!(error.pos, 8);
        assert!(
            error.message.to_string().contains("`,` or `}`"),
            "{}",
            error.message
        );
        let error = parse_value(r#"{"a": "unterminated"#, 0).unwrap_err();
        assert!(error.message.to_string().contains("unterminated string"));
        let error = parse_value("{\"a\": [1, 2", 0).unwrap_err();
        assert!(error.message.to_string().contains("unterminated array"));
        let error = parse_value("{\"a\": hello}", 0).unwrap_err();
        assert!(error.message.to_string().contains("bare word `hello`"));
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = "[".repeat(100_000);
        let error = parse_value(&deep, 0).unwrap_err();
        assert!(error.message.to_string().contains("levels deep"));
        let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(parse_value(&ok, 0).is_ok());
    }

    #[test]
    fn parse_whole_rejects_trailing_text() {
        assert_eq!(
            parse_whole(" {\"a\": 1} ").unwrap(),
            (json!({"a": 1}), false)
        );
        assert!(parse_whole("{\"a\": 1} x").is_err());
        assert_eq!(parse_whole("{'a': 1}").unwrap(), (json!({"a": 1}), true));
    }

    /// What the lenient reader alone makes of the value at `start`, without the strict
    /// fast path.
    fn lenient(text: &str, start: usize) -> Result<Parsed, JsonError> {
        let mut reader = Reader {
            src: text,
            pos: start,
            repaired: false,
            depth: 0,
            python: false,
        };
        reader.skip_blank();
        let value = reader.value()?;
        Ok(Parsed {
            value,
            end: reader.pos,
            repaired: reader.repaired,
        })
    }

    #[test]
    fn the_strict_fast_path_reads_what_the_lenient_reader_reads() {
        let texts = [
            r#"{"tool": "get_weather", "arguments": {"city": "Paris", "units": "metric"}} and then"#,
            r#"[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"x": [1, -2.5e3, 0, -0]}}]"#,
            r#"{"s": "tab\t quote\" slash\/ back\\ uni\u00e9 pair\ud83d\ude00 nul\u0000"}"#,
            r#"{"dup": 1, "other": 2, "dup": 3}"#,
            r#"{"big": 18446744073709551615, "neg": -9223372036854775808, "huge": 1e300, "f": 0.1}"#,
            r#"{"more": 18446744073709551616, "exp": 2E-3, "t": true, "f": false, "n": null}"#,
            "{\n  \"pretty\": [\n    1,\n    2\n  ]\r\n}",
            r#"{"é": "ünïcödé ｜ 😀", "": ""}"#,
            r#"  /* note */ {"after": "a comment"}"#,
            "\u{a0}{\"after\": \"a no-break space\"}",
        ];
        for text in texts {
            let fast = parse_value(text, 0).unwrap_or_else(|e| panic!("{text}: {e:?}"));
            assert_eq!(Ok(fast), lenient(text, 0), "{text}");
        }
        let nested = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert_eq!(parse_value(&nested, 0), lenient(&nested, 0));
    }

    #[test]
    fn never_starts_inside_a_character() {
        assert!(parse_value("é{}", 1).is_err());
        assert!(parse_value("", 0).is_err());
        assert!(parse_value("abc", 10).is_err());
    }
}
