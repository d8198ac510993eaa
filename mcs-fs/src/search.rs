//! Finding by name and searching content: the matchers and what they answer. The walks
//! themselves are [`Adapter`](crate::Adapter)'s provided methods.

use globset::{GlobBuilder, GlobMatcher};
use regex::{Regex, RegexBuilder};
use serde::Serialize;

use crate::error::{FsError, FsErrorKind};
use crate::path::FsPath;
use crate::types::{Entry, Skipped};

/// How many entries `find` and `search` look at before they stop and say so.
pub const SCAN_LIMIT: usize = 20_000;
/// The longest matching line `search` returns; longer lines are cut (and say so).
pub const MAX_LINE_CHARS: usize = 240;

/// What [`Adapter::find`](crate::Adapter::find) found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Found {
    /// Matching entries, in walk order.
    pub matches: Vec<Entry>,
    /// Whether the match limit or [`SCAN_LIMIT`] stopped the search early.
    pub truncated: bool,
    /// Directories the search could not look into, and entries it could not address.
    #[serde(skip_serializing_if = "Skipped::is_empty")]
    pub skipped: Skipped,
}

pub(crate) fn glob(pattern: &str) -> Result<GlobMatcher, FsError> {
    GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()
        .map(|glob| glob.compile_matcher())
        .map_err(|error| {
            FsError::new(
                FsErrorKind::InvalidArgument,
                pattern,
                format!("not a valid glob: {error}"),
            )
        })
}

/// The part of `path` a glob is matched against: the name alone for patterns without `/`
/// (like `find -name`), else the path relative to `base`.
pub(crate) fn glob_subject<'a>(pattern: &str, base: &FsPath, path: &'a str) -> &'a str {
    if pattern.contains('/') {
        if base.is_root() {
            path
        } else {
            path.get(base.as_str().len() + 1..).unwrap_or(path)
        }
    } else {
        path.rsplit('/').next().unwrap_or(path)
    }
}

/// A content search: what to look for, where, and how much to look at.
#[derive(Clone, Debug)]
pub struct SearchQuery {
    /// The text or regular expression to find in each line.
    pub pattern: String,
    /// Whether `pattern` is a regular expression (Rust `regex` syntax) rather than text.
    pub regex: bool,
    /// Whether case is ignored.
    pub case_insensitive: bool,
    /// Only files whose name (or, with a `/`, relative path) matches this glob.
    pub glob: Option<String>,
    /// Stop after this many matching lines.
    pub max_matches: usize,
    /// Skip files larger than this.
    pub max_file_bytes: u64,
    /// Stop (with `truncated`) before reading more than this many bytes in all.
    pub max_total_bytes: u64,
}

/// One matching line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SearchMatch {
    /// The file.
    pub path: String,
    /// The line number, from 1.
    pub line: u64,
    /// The line's text, cut at [`MAX_LINE_CHARS`] characters.
    pub text: String,
}

/// What [`Adapter::search`](crate::Adapter::search) found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Searched {
    /// The matching lines, in walk order then line order.
    pub matches: Vec<SearchMatch>,
    /// Text files searched.
    pub files_searched: u64,
    /// Files skipped because they are binary.
    pub skipped_binary: u64,
    /// Files skipped because they are over the size limit.
    pub skipped_large: u64,
    /// Files that could not be read (hard-linked, changed or removed during the search).
    pub skipped_unreadable: u64,
    /// Whether the match limit or [`SCAN_LIMIT`] stopped the search early.
    pub truncated: bool,
    /// Directories the search could not look into, and entries it could not address.
    #[serde(skip_serializing_if = "Skipped::is_empty")]
    pub skipped: Skipped,
}

pub(crate) enum Matcher {
    Text { needle: String, fold: bool },
    Regex(Regex),
}

impl Matcher {
    pub(crate) fn new(query: &SearchQuery) -> Result<Matcher, FsError> {
        if query.pattern.is_empty() {
            return Err(FsError::new(
                FsErrorKind::InvalidArgument,
                "",
                "the search pattern is empty",
            ));
        }
        if query.regex {
            RegexBuilder::new(&query.pattern)
                .case_insensitive(query.case_insensitive)
                .size_limit(1 << 20)
                .dfa_size_limit(1 << 20)
                .build()
                .map(Matcher::Regex)
                .map_err(|error| {
                    FsError::new(
                        FsErrorKind::InvalidArgument,
                        "",
                        format!(
                            "`{}` is not a valid regular expression: {error}",
                            query.pattern
                        ),
                    )
                })
        } else {
            let fold = query.case_insensitive;
            let needle = if fold {
                query.pattern.to_lowercase()
            } else {
                query.pattern.clone()
            };
            Ok(Matcher::Text { needle, fold })
        }
    }

    pub(crate) fn is_match(&self, line: &str) -> bool {
        match self {
            Matcher::Text { needle, fold: true } => line.to_lowercase().contains(needle.as_str()),
            Matcher::Text {
                needle,
                fold: false,
            } => line.contains(needle.as_str()),
            Matcher::Regex(regex) => regex.is_match(line),
        }
    }
}
