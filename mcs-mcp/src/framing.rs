//! Newline-delimited JSON-RPC, read with a limit: the stdio framing of MCP.
//!
//! A line over the limit is not kept: its bytes pass through a [`Scanner`] that picks the
//! top-level `id` and `method` out of the JSON as it goes by, wherever in the line they are
//! (the TypeScript SDK writes `id` last, after the parameters), so that the request can still
//! be answered. The same scanner reads what it can from a line that is not JSON.

use serde_json::Value;
use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// The most bytes of an `id` or `method` value the scanner keeps.
const FIELD_BYTES: usize = 256;

/// What one read gave.
#[derive(Debug)]
pub(crate) enum Frame {
    /// A whole line, without its `\n` (or `\r\n`): a message to read.
    Line(Vec<u8>),
    /// A line longer than the limit, skipped.
    Oversized {
        /// Its length without the newline.
        bytes: usize,
        /// What could be read of it.
        fields: Fields,
    },
    /// The stream ended.
    Eof,
    /// Reading failed.
    Failed(std::io::Error),
}

/// Reads [`Frame`]s. Cancel-safe: what a cancelled read took in stays in the reader and the
/// next read carries on (rmcp polls `receive` inside a `select!`).
pub(crate) struct LineReader<R> {
    read: R,
    limit: usize,
    line: Vec<u8>,
    /// The line being skipped, when the current line is over the limit: what has been read
    /// of it and its length so far.
    skipping: Option<(Scanner, usize)>,
}

impl<R: AsyncBufRead + Unpin> LineReader<R> {
    pub(crate) fn new(read: R, limit: usize) -> Self {
        LineReader {
            read,
            limit,
            line: Vec::new(),
            skipping: None,
        }
    }

    /// The limit of one line, in bytes without its newline.
    pub(crate) fn limit(&self) -> usize {
        self.limit
    }

    pub(crate) async fn next(&mut self) -> Frame {
        loop {
            let available = match self.read.fill_buf().await {
                Ok(available) => available,
                Err(error) => return Frame::Failed(error),
            };
            if available.is_empty() {
                // The stream ended; a last line without its newline is still a message.
                if let Some((scanner, bytes)) = self.skipping.take() {
                    return Frame::Oversized {
                        bytes,
                        fields: scanner.finish(),
                    };
                }
                if self.line.is_empty() {
                    return Frame::Eof;
                }
                return Frame::Line(trim_line(std::mem::take(&mut self.line)));
            }
            let newline = available.iter().position(|&b| b == b'\n');
            let taken = newline.map_or(available.len(), |at| at + 1);
            let chunk = &available[..taken];
            let content = newline.map_or(chunk, |at| &chunk[..at]);
            let mut frame = None;
            if let Some((scanner, bytes)) = &mut self.skipping {
                scanner.feed(content);
                *bytes += content.len();
            } else if self.line.len() + content.len() > self.limit {
                let mut scanner = Scanner::default();
                scanner.feed(&self.line);
                scanner.feed(content);
                let bytes = self.line.len() + content.len();
                self.line = Vec::new();
                self.skipping = Some((scanner, bytes));
            } else {
                self.line.extend_from_slice(content);
            }
            if newline.is_some() {
                frame = Some(match self.skipping.take() {
                    Some((scanner, bytes)) => Frame::Oversized {
                        bytes,
                        fields: scanner.finish(),
                    },
                    None => Frame::Line(trim_line(std::mem::take(&mut self.line))),
                });
            }
            self.read.consume(taken);
            if let Some(frame) = frame {
                return frame;
            }
        }
    }
}

fn trim_line(mut line: Vec<u8>) -> Vec<u8> {
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    line
}

/// The top-level `id` and `method` of a JSON-RPC message, as far as they could be read.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct Fields {
    /// The id, when it is a number or a string (what JSON-RPC allows besides null).
    pub(crate) id: Option<Value>,
    /// The method, when it is a string.
    pub(crate) method: Option<String>,
}

impl Fields {
    /// Reads the fields of a whole line (one that may not be JSON).
    pub(crate) fn of(line: &[u8]) -> Fields {
        let mut scanner = Scanner::default();
        scanner.feed(line);
        scanner.finish()
    }
}

/// Where the scanner is in the top-level object.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
enum Place {
    /// Before the object, or past its end.
    #[default]
    Outside,
    /// Where a member's name may start.
    BeforeKey,
    /// Inside a member's name.
    InKey,
    /// After a member's name, before its colon.
    AfterKey,
    /// In a member's value.
    InValue,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Field {
    Id,
    Method,
}

/// Reads the top-level `id` and `method` of a JSON object fed to it in pieces, keeping only
/// a few bytes: strings and nesting are tracked, every other value is skipped.
#[derive(Debug, Default)]
pub(crate) struct Scanner {
    depth: usize,
    in_string: bool,
    escaped: bool,
    place: Place,
    key: Vec<u8>,
    capture: Option<(Field, Vec<u8>)>,
    id: Option<Vec<u8>>,
    method: Option<Vec<u8>>,
}

impl Scanner {
    pub(crate) fn feed(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.byte(byte);
        }
    }

    fn byte(&mut self, byte: u8) {
        let top = self.depth == 1;
        if self.in_string {
            if self.escaped {
                self.escaped = false;
            } else if byte == b'\\' {
                self.escaped = true;
            } else if byte == b'"' {
                self.in_string = false;
                if top && self.place == Place::InKey {
                    self.place = Place::AfterKey;
                    return;
                }
            }
            if top && self.place == Place::InKey {
                if self.key.len() < 16 {
                    self.key.push(byte);
                }
                return;
            }
            self.capture(byte);
            return;
        }
        match byte {
            b'"' => {
                self.in_string = true;
                if top && self.place == Place::BeforeKey {
                    self.place = Place::InKey;
                    self.key.clear();
                } else {
                    self.capture(byte);
                }
            }
            b'{' | b'[' => {
                self.depth += 1;
                if self.depth == 1 && byte == b'{' {
                    self.place = Place::BeforeKey;
                } else {
                    self.capture(byte);
                }
            }
            b'}' | b']' if top => {
                self.end_value();
                self.depth = 0;
                self.place = Place::Outside;
            }
            b'}' | b']' => {
                self.capture(byte);
                self.depth = self.depth.saturating_sub(1);
            }
            b':' if top && self.place == Place::AfterKey => {
                self.place = Place::InValue;
                self.capture = match self.key.as_slice() {
                    b"id" => Some((Field::Id, Vec::new())),
                    b"method" => Some((Field::Method, Vec::new())),
                    _ => None,
                };
            }
            b',' if top => {
                self.end_value();
                self.place = Place::BeforeKey;
            }
            _ => self.capture(byte),
        }
    }

    fn capture(&mut self, byte: u8) {
        if self.place != Place::InValue {
            return;
        }
        if let Some((_, bytes)) = &mut self.capture {
            if bytes.len() < FIELD_BYTES {
                bytes.push(byte);
            } else {
                // Too long for an id or a method name: not one to answer to.
                self.capture = None;
            }
        }
    }

    fn end_value(&mut self) {
        match self.capture.take() {
            Some((Field::Id, bytes)) => self.id = Some(bytes),
            Some((Field::Method, bytes)) => self.method = Some(bytes),
            None => {}
        }
    }

    pub(crate) fn finish(mut self) -> Fields {
        self.end_value();
        let parse = |bytes: Option<Vec<u8>>| {
            bytes.and_then(|bytes| serde_json::from_slice::<Value>(bytes.trim_ascii()).ok())
        };
        Fields {
            id: parse(self.id).filter(|id| id.is_number() || id.is_string()),
            method: parse(self.method).and_then(|method| match method {
                Value::String(method) => Some(method),
                _ => None,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_id_and_method_are_read_wherever_they_are() {
        let cases = [
            (
                &br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"id":99}}"#[..],
                Some(json!(7)),
                Some("tools/call"),
            ),
            // The TypeScript SDK's order: the id after the parameters.
            (
                br#"{"method":"tools/call","params":{"arguments":{"id":"x","s":"a\"}{,"}},"jsonrpc":"2.0","id":"abc"}"#,
                Some(json!("abc")),
                Some("tools/call"),
            ),
            (
                br#"{ "id" : 12 , "result" : [1, {"id": 3}] }"#,
                Some(json!(12)),
                None,
            ),
            // Not JSON after the id: what came before is still read.
            (
                b"{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\",\"params\":\xff\xfe",
                Some(json!(5)),
                Some("ping"),
            ),
            (br#"{"id": null, "method": 3}"#, None, None),
            (b"not json at all", None, None),
            (br#"["id", 1]"#, None, None),
        ];
        for (line, id, method) in cases {
            let fields = Fields::of(line);
            assert_eq!(fields.id, id, "{}", String::from_utf8_lossy(line));
            assert_eq!(fields.method.as_deref(), method);
        }
    }

    #[test]
    fn fields_are_the_same_however_the_line_is_cut() {
        let line = br#"{"method":"tools/call","params":{"a":"\\\"}"},"id":41}"#;
        for cut in 0..line.len() {
            let mut scanner = Scanner::default();
            scanner.feed(&line[..cut]);
            scanner.feed(&line[cut..]);
            let fields = scanner.finish();
            assert_eq!(fields.id, Some(json!(41)), "cut at {cut}");
            assert_eq!(fields.method.as_deref(), Some("tools/call"));
        }
    }

    #[tokio::test]
    async fn a_line_over_the_limit_is_skipped_and_the_next_is_read() {
        let long = format!(
            "{{\"method\":\"tools/call\",\"params\":{{\"text\":\"{}\"}},\"id\":3}}",
            "x".repeat(100)
        );
        let input = format!("{{\"id\":1}}\r\n{long}\n{{\"id\":2}}\nlast");
        // A small buffer, so that lines arrive in pieces.
        let reader = tokio::io::BufReader::with_capacity(7, input.as_bytes());
        let mut lines = LineReader::new(reader, 64);
        assert!(matches!(lines.next().await, Frame::Line(l) if l == b"{\"id\":1}"));
        match lines.next().await {
            Frame::Oversized { bytes, fields } => {
                assert_eq!(bytes, long.len());
                assert_eq!(fields.id, Some(json!(3)));
                assert_eq!(fields.method.as_deref(), Some("tools/call"));
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(lines.next().await, Frame::Line(l) if l == b"{\"id\":2}"));
        assert!(matches!(lines.next().await, Frame::Line(l) if l == b"last"));
        assert!(matches!(lines.next().await, Frame::Eof));
    }

    #[tokio::test]
    async fn a_line_exactly_at_the_limit_is_read() {
        let input = b"0123456789\n01234567890\n";
        let mut lines = LineReader::new(&input[..], 10);
        assert!(matches!(lines.next().await, Frame::Line(l) if l == b"0123456789"));
        assert!(matches!(
            lines.next().await,
            Frame::Oversized { bytes: 11, .. }
        ));
    }
}
