//! [`FsPath`]: the one place where a model's path text becomes a path.
//!
//! Every adapter receives paths already checked here, so that "what is a valid path" is the
//! same for every backend (the consistency rule). For the local adapter this is the first
//! line of defence only: confinement itself comes from `cap-std`, which resolves each path
//! against the root's open directory handle, whatever the text says.

use std::fmt;

use crate::error::{FsError, FsErrorKind};

/// The longest path accepted, in bytes: Linux's `PATH_MAX` (4,096) counts the terminating
/// NUL, so 4,095 is the longest path text the local filesystem takes. Every adapter is held
/// to it, because every path reaches them through [`FsPath`].
pub const MAX_PATH_BYTES: usize = 4095;
/// The longest single name accepted, in bytes (the common `NAME_MAX`).
pub const MAX_NAME_BYTES: usize = 255;

/// A path inside an adapter's root: relative, `/`-separated, without `.`, `..` or empty
/// components. The root itself is the empty path, shown as `.`.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FsPath {
    /// Normalised text: components joined by `/`, no leading or trailing `/`.
    text: String,
}

impl FsPath {
    /// The root of the adapter.
    pub fn root() -> Self {
        FsPath::default()
    }

    /// Checks a path as a model wrote it.
    ///
    /// Accepted: `notes/todo.md`, `./notes//todo.md` (normalised to `notes/todo.md`), `.` and
    /// the empty string (the root). Refused, with the reason in the error: absolute paths,
    /// `..`, `\` (Windows separators), drive prefixes (`C:`), NUL and other control
    /// characters, invisible or direction-changing Unicode (zero-width spaces, bidi
    /// overrides), and names or paths over [`MAX_NAME_BYTES`] / [`MAX_PATH_BYTES`].
    ///
    /// Names are kept byte for byte, without Unicode normalisation: `café` written with a
    /// precomposed `é` and with `e` plus a combining accent are two names, as they are on
    /// Linux and in [`MemoryFs`](crate::MemoryFs). (A filesystem that normalises names,
    /// like macOS's, treats them as one.)
    ///
    /// ```
    /// use mcs_fs::{FsErrorKind, FsPath};
    ///
    /// assert_eq!(FsPath::parse("./notes//todo.md").unwrap().as_str(), "notes/todo.md");
    /// assert_eq!(FsPath::parse("../etc/passwd").unwrap_err().kind(), FsErrorKind::OutsideRoot);
    /// assert_eq!(FsPath::parse("a\\b").unwrap_err().kind(), FsErrorKind::InvalidPath);
    /// ```
    pub fn parse(text: &str) -> Result<FsPath, FsError> {
        let invalid = |why: String| Err(FsError::new(FsErrorKind::InvalidPath, text, why));
        if text.len() > MAX_PATH_BYTES {
            return invalid(format!(
                "the path is {} bytes long; the limit is {MAX_PATH_BYTES}",
                text.len()
            ));
        }
        if let Some(c) = text.chars().find(|&c| forbidden_char(c)) {
            return invalid(format!(
                "the path contains the character U+{:04X}, which is not allowed in paths here \
                 (control characters, NUL, and invisible or direction-changing characters are \
                 refused)",
                c as u32
            ));
        }
        if text.contains('\\') {
            return invalid(
                "`\\` is not a path separator here; separate directories with `/`".to_owned(),
            );
        }
        if text.starts_with('/') {
            return Err(FsError::new(
                FsErrorKind::OutsideRoot,
                text,
                "absolute paths are not allowed: paths are relative to the root directory \
                 (write `notes/a.txt`, or `.` for the root itself)",
            ));
        }
        let mut components = Vec::new();
        for (index, component) in text.split('/').enumerate() {
            match component {
                "" | "." => {}
                ".." => {
                    return Err(FsError::new(
                        FsErrorKind::OutsideRoot,
                        text,
                        "`..` is not allowed: paths stay inside the root directory",
                    ));
                }
                name => {
                    if index == 0 && is_drive_prefix(name) {
                        return Err(FsError::new(
                            FsErrorKind::OutsideRoot,
                            text,
                            format!(
                                "`{name}` looks like a Windows drive; paths are relative to \
                                 the root directory"
                            ),
                        ));
                    }
                    if name.len() > MAX_NAME_BYTES {
                        return invalid(format!(
                            "a name in the path is {} bytes long; the limit is {MAX_NAME_BYTES}",
                            name.len()
                        ));
                    }
                    components.push(name);
                }
            }
        }
        Ok(FsPath {
            text: components.join("/"),
        })
    }

    /// The normalised text, empty for the root.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Whether this is the root.
    pub fn is_root(&self) -> bool {
        self.text.is_empty()
    }

    /// The names from the root down.
    pub fn components(&self) -> impl DoubleEndedIterator<Item = &str> {
        self.text.split('/').filter(|c| !c.is_empty())
    }

    /// The last name, or `None` for the root.
    pub fn file_name(&self) -> Option<&str> {
        self.components().next_back()
    }

    /// The directory containing this path, or `None` for the root.
    pub fn parent(&self) -> Option<FsPath> {
        if self.is_root() {
            return None;
        }
        let text = match self.text.rfind('/') {
            Some(slash) => self.text[..slash].to_owned(),
            None => String::new(),
        };
        Some(FsPath { text })
    }

    /// Every ancestor from the first component down, excluding the root and `self`.
    pub fn ancestors(&self) -> Vec<FsPath> {
        let mut out = Vec::new();
        let mut parent = self.parent();
        while let Some(path) = parent {
            if path.is_root() {
                break;
            }
            parent = path.parent();
            out.push(path);
        }
        out.reverse();
        out
    }

    /// This path with `name` appended. `name` must be one valid name: not empty, `.` or
    /// `..`, without `/`, and acceptable to [`FsPath::parse`]. Names read from a backend
    /// that are not valid are reported as errors, so that listings leave them out.
    pub fn join(&self, name: &str) -> Result<FsPath, FsError> {
        let joined = || {
            if self.is_root() {
                name.to_owned()
            } else {
                format!("{}/{name}", self.text)
            }
        };
        // Checked here rather than by parsing the joined text: listings join every entry.
        let odd = matches!(name, "" | "." | "..")
            || name.len() > MAX_NAME_BYTES
            || self.text.len() + 1 + name.len() > MAX_PATH_BYTES
            || name.contains(['/', '\\'])
            || name.chars().any(forbidden_char)
            || (self.is_root() && is_drive_prefix(name));
        if odd {
            let joined = joined();
            return Err(match FsPath::parse(&joined) {
                Err(error) => error,
                Ok(_) => FsError::new(
                    FsErrorKind::InvalidPath,
                    joined,
                    format!("`{name}` is not a single name"),
                ),
            });
        }
        Ok(FsPath { text: joined() })
    }

    /// Whether `self` is `other` or inside it.
    pub fn starts_with(&self, other: &FsPath) -> bool {
        other.is_root()
            || self.text == other.text
            || (self.text.starts_with(&other.text)
                && self.text.as_bytes().get(other.text.len()) == Some(&b'/'))
    }

    /// The path as the local adapter hands it to `cap-std`: `.` for the root.
    pub(crate) fn as_std(&self) -> &std::path::Path {
        std::path::Path::new(if self.is_root() { "." } else { &self.text })
    }
}

impl fmt::Display for FsPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.is_root() { "." } else { &self.text })
    }
}

/// Characters that make a name unreadable or deceptive: controls (NUL included), and
/// invisible or direction-changing format characters, with which `a.txt` and `a\u{200B}.txt`
/// or `txt.exe` written right-to-left would look like other names.
fn forbidden_char(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{200B}'..='\u{200F}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{2069}'
                | '\u{FEFF}'
                | '\u{FFF9}'..='\u{FFFB}'
        )
}

/// `C:` and the like, which Windows reads as a drive.
fn is_drive_prefix(name: &str) -> bool {
    let bytes = name.as_bytes();
    bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':'
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_and_refuses() {
        assert_eq!(FsPath::parse("").unwrap(), FsPath::root());
        assert_eq!(FsPath::parse(".").unwrap(), FsPath::root());
        assert_eq!(FsPath::parse("a/./b/").unwrap().as_str(), "a/b");
        assert_eq!(FsPath::parse("~/x").unwrap().as_str(), "~/x");
        for (text, kind) in [
            ("/etc/passwd", FsErrorKind::OutsideRoot),
            ("a/../../b", FsErrorKind::OutsideRoot),
            ("C:/Windows", FsErrorKind::OutsideRoot),
            ("a\\..\\b", FsErrorKind::InvalidPath),
            ("a\0b", FsErrorKind::InvalidPath),
            ("a\u{202E}txt.exe", FsErrorKind::InvalidPath),
            ("a\u{200B}", FsErrorKind::InvalidPath),
        ] {
            assert_eq!(FsPath::parse(text).unwrap_err().kind(), kind, "{text:?}");
        }
        let long = "x".repeat(MAX_NAME_BYTES + 1);
        assert!(
            FsPath::parse(&long)
                .unwrap_err()
                .to_string()
                .contains("255")
        );
    }

    #[test]
    fn relations() {
        let path = FsPath::parse("a/b/c").unwrap();
        assert_eq!(path.parent().unwrap().as_str(), "a/b");
        assert_eq!(path.file_name(), Some("c"));
        let ancestors: Vec<String> = path.ancestors().iter().map(|p| p.to_string()).collect();
        assert_eq!(ancestors, ["a", "a/b"]);
        assert!(path.starts_with(&FsPath::parse("a/b").unwrap()));
        assert!(
            !FsPath::parse("a/bc")
                .unwrap()
                .starts_with(&FsPath::parse("a/b").unwrap())
        );
        assert!(FsPath::root().join("a/b").is_err());
        assert!(FsPath::root().join("..").is_err());
        assert!(FsPath::root().join("").is_err());
        assert!(path.join("x\0").is_err());
        assert_eq!(path.join("d").unwrap().as_str(), "a/b/c/d");
        assert_eq!(FsPath::root().to_string(), ".");
    }
}
