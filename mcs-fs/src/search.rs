//! Walking, finding by name and searching content: the [`Adapter`] operations that are
//! provided on top of its primitives, so that every backend gives them the same meaning.

use globset::{GlobBuilder, GlobMatcher};
use regex::{Regex, RegexBuilder};
use serde::Serialize;

use crate::adapter::{Adapter, DirEntry, Entry, EntryKind, FsError, FsErrorKind, Walked};
use crate::content;
use crate::path::FsPath;

/// How many entries `find` and `search` look at before they stop and say so.
pub const SCAN_LIMIT: usize = 20_000;
/// The longest matching line `search` returns; longer lines are cut (and say so).
pub const MAX_LINE_CHARS: usize = 240;

pub(crate) fn walk<A: Adapter + ?Sized>(
    adapter: &A,
    path: &FsPath,
    limit: usize,
) -> Result<Walked, FsError> {
    // The starting directory must exist; directories that vanish during the walk are
    // skipped (see `level`).
    let first = level(path, adapter.list_dir(path)?);
    let mut entries = Vec::new();
    let mut truncated = false;
    // An explicit stack of iterators keeps deep trees from growing the call stack.
    let mut stack: Vec<std::vec::IntoIter<Entry>> = vec![first.into_iter()];
    while let Some(top) = stack.last_mut() {
        let Some(entry) = top.next() else {
            stack.pop();
            continue;
        };
        if entries.len() >= limit {
            truncated = true;
            break;
        }
        let subdir = (entry.kind == EntryKind::Dir).then(|| entry.path.clone());
        entries.push(entry);
        if let Some(subdir) = subdir {
            let dir = FsPath::parse(&subdir)?;
            let children = match adapter.list_dir(&dir) {
                Ok(children) => children,
                Err(error) if error.kind() == FsErrorKind::NotFound => Vec::new(),
                Err(error) => return Err(error),
            };
            stack.push(level(&dir, children).into_iter());
        }
    }
    Ok(Walked { entries, truncated })
}

/// One directory's entries as walk entries, in name order. Names that are not valid paths
/// here (a backend may hold names no model could address) are left out.
fn level(dir: &FsPath, mut children: Vec<DirEntry>) -> Vec<Entry> {
    children.sort_by(|a, b| a.name.cmp(&b.name));
    children
        .into_iter()
        .filter_map(|child| {
            let path = dir.join(&child.name).ok()?;
            Some(Entry {
                path: path.to_string(),
                kind: child.kind,
                size: child.size,
            })
        })
        .collect()
}

/// What [`Adapter::find`] found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Found {
    /// Matching entries, in walk order.
    pub matches: Vec<Entry>,
    /// Whether the match limit or [`SCAN_LIMIT`] stopped the search early.
    pub truncated: bool,
}

fn glob(pattern: &str) -> Result<GlobMatcher, FsError> {
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
fn glob_subject<'a>(pattern: &str, base: &FsPath, path: &'a str) -> &'a str {
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

pub(crate) fn find<A: Adapter + ?Sized>(
    adapter: &A,
    base: &FsPath,
    pattern: &str,
    limit: usize,
) -> Result<Found, FsError> {
    let matcher = glob(pattern)?;
    let walked = adapter.walk(base, SCAN_LIMIT)?;
    let mut matches = Vec::new();
    let mut truncated = walked.truncated;
    for entry in walked.entries {
        if matcher.is_match(glob_subject(pattern, base, &entry.path)) {
            if matches.len() == limit {
                truncated = true;
                break;
            }
            matches.push(entry);
        }
    }
    Ok(Found { matches, truncated })
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

/// What [`Adapter::search`] found.
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
}

enum Matcher {
    Text { needle: String, fold: bool },
    Regex(Regex),
}

impl Matcher {
    fn new(query: &SearchQuery) -> Result<Matcher, FsError> {
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

    fn is_match(&self, line: &str) -> bool {
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

pub(crate) fn search<A: Adapter + ?Sized>(
    adapter: &A,
    base: &FsPath,
    query: &SearchQuery,
) -> Result<Searched, FsError> {
    let matcher = Matcher::new(query)?;
    let file_glob = query.glob.as_deref().map(glob).transpose()?;
    let stat = adapter.stat(base)?;
    let (files, mut truncated) = if stat.kind == EntryKind::File {
        (vec![(base.to_string(), stat.size)], false)
    } else {
        let walked = adapter.walk(base, SCAN_LIMIT)?;
        let files = walked
            .entries
            .into_iter()
            .filter(|entry| entry.kind == EntryKind::File)
            .map(|entry| (entry.path, entry.size.unwrap_or(0)))
            .collect();
        (files, walked.truncated)
    };
    let mut out = Searched {
        matches: Vec::new(),
        files_searched: 0,
        skipped_binary: 0,
        skipped_large: 0,
        skipped_unreadable: 0,
        truncated: false,
    };
    'files: for (path, size) in files {
        if let (Some(matcher), Some(pattern)) = (&file_glob, &query.glob)
            && !matcher.is_match(glob_subject(pattern, base, &path))
        {
            continue;
        }
        if size > query.max_file_bytes {
            out.skipped_large += 1;
            continue;
        }
        let bytes = match adapter.read(&FsPath::parse(&path)?, query.max_file_bytes) {
            Ok(bytes) => bytes,
            // Changed, grown or made unreadable since the walk: not this search's concern.
            Err(_) => {
                out.skipped_unreadable += 1;
                continue;
            }
        };
        let Some(text) = content::as_text(&bytes) else {
            out.skipped_binary += 1;
            continue;
        };
        out.files_searched += 1;
        for (index, line) in text.lines().enumerate() {
            if matcher.is_match(line) {
                if out.matches.len() == query.max_matches {
                    truncated = true;
                    break 'files;
                }
                out.matches.push(SearchMatch {
                    path: path.clone(),
                    line: index as u64 + 1,
                    text: content::cut_chars(line, MAX_LINE_CHARS),
                });
            }
        }
    }
    out.truncated = truncated;
    Ok(out)
}
