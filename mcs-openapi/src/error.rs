//! What goes wrong while reading a document, and what lenient reading leaves out.

use std::fmt;

/// A problem in a document: which file, where in it, and what is wrong.
///
/// `pointer` is a JSON pointer (RFC 6901: `~` written `~0`, `/` written `~1`) into `file`;
/// the empty pointer is the whole document (a parse error, for instance).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenApiError {
    /// The document's name: the path it was read from, or the name given to
    /// [`read_str`](super::read_str).
    pub file: String,
    /// Where in `file` the problem is.
    pub pointer: String,
    /// What is wrong.
    pub message: String,
}

impl OpenApiError {
    /// An error at `pointer` in `file`.
    pub fn new(
        file: impl Into<String>,
        pointer: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        OpenApiError {
            file: file.into(),
            pointer: pointer.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for OpenApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // "at " followed by nothing reads like a bug, so the root is left unsaid.
        if self.pointer.is_empty() {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(f, "{}: at {}: {}", self.file, self.pointer, self.message)
        }
    }
}

impl std::error::Error for OpenApiError {}

/// An operation lenient reading left out, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// The operation, as `GET /pets`.
    pub operation: String,
    /// Where the problem is, as `{file}#{pointer}` when it lies in another file than the
    /// document read, else the JSON pointer alone.
    pub pointer: String,
    /// Why the operation was left out.
    pub reason: String,
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} skipped (at {}): {}",
            self.operation, self.pointer, self.reason
        )
    }
}

/// `token` escaped for use in a JSON pointer.
pub(crate) fn escape_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// `pointer` extended by one `token`.
pub(crate) fn child(pointer: &str, token: &str) -> String {
    let mut out = String::with_capacity(pointer.len() + token.len() + 1);
    out.push_str(pointer);
    out.push('/');
    out.push_str(&escape_token(token));
    out
}

/// `pointer` extended by an array index.
pub(crate) fn index(pointer: &str, index: usize) -> String {
    format!("{pointer}/{index}")
}

/// The last token of `pointer`, unescaped (`""` for the root).
pub(crate) fn last_token(pointer: &str) -> String {
    let last = pointer.rsplit('/').next().unwrap_or("");
    last.replace("~1", "/").replace("~0", "~")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointer_tokens_are_escaped_and_unescaped() {
        assert_eq!(child("/paths", "/pets/{id}"), "/paths/~1pets~1{id}");
        assert_eq!(child("", "a~b"), "/a~0b");
        assert_eq!(last_token("/paths/~1pets~1{id}"), "/pets/{id}");
        assert_eq!(index("/tags", 3), "/tags/3");
    }

    #[test]
    fn display_names_file_pointer_and_message() {
        let e = OpenApiError::new("api.yaml", "/paths/~1x", "bad");
        assert_eq!(e.to_string(), "api.yaml: at /paths/~1x: bad");
        assert_eq!(
            OpenApiError::new("a.json", "", "x").to_string(),
            "a.json: x"
        );
    }
}
