//! Step 1 of the guide: the adapter interface.
//!
//! [`Adapter`] is what every backend implements — the local directory ([`LocalFs`]), memory
//! ([`MemoryFs`]), and yours. It is an internal contract of this driver, not part of MCS:
//! the model sees tools ([`Files`]), never this trait.
//!
//! The required methods are the primitives a hierarchical filesystem has. Walking a tree,
//! finding by name and searching content are provided on top of them, so every backend
//! gets them with the same meaning; a backend that can do better (a server-side search)
//! overrides them and must keep that meaning.
//!
//! [`LocalFs`]: crate::LocalFs
//! [`MemoryFs`]: crate::MemoryFs
//! [`Files`]: crate::Files

use crate::content;
use crate::error::{FsError, FsErrorKind};
use crate::path::FsPath;
use crate::search::{
    Found, MAX_LINE_CHARS, Matcher, SCAN_LIMIT, SearchMatch, SearchQuery, Searched, glob,
    glob_subject,
};
use crate::types::{DirEntry, Entry, EntryKind, Skipped, Stat, Walked, WriteMode};

/// The filesystem capability's backend interface: the operations the [`Files`](crate::Files)
/// tools delegate to.
///
/// Paths arrive checked ([`FsPath`]). Shared semantics every implementation keeps (the
/// shared test suite in `tests/suite/` checks each one):
/// - a missing path gives [`FsErrorKind::NotFound`]; a file where a directory is needed
///   (also as a parent) gives [`FsErrorKind::NotADirectory`] naming that path; a directory
///   where a file is needed gives [`FsErrorKind::NotAFile`];
/// - [`write`](Self::write), [`rename`](Self::rename) and [`copy`](Self::copy) create missing
///   parent directories;
/// - the root cannot be written, removed, moved or copied;
/// - a read-only backend answers every change with [`FsErrorKind::ReadOnly`].
///
/// The trait is synchronous: filesystem calls block, and the tools that call it are sync
/// tools. A network backend may block too, or the driver can be made `async` around it.
pub trait Adapter: Send + Sync + 'static {
    /// A short name for the backend (`local`, `memory`), used in the driver's metadata.
    fn name(&self) -> &str;

    /// Whether changes are refused.
    fn is_read_only(&self) -> bool {
        false
    }

    /// The whole content of the file at `path`, if it is at most `max_bytes` long
    /// ([`FsErrorKind::TooLarge`] otherwise, naming the size and the limit).
    fn read(&self, path: &FsPath, max_bytes: u64) -> Result<Vec<u8>, FsError>;

    /// Up to `len` bytes from `offset` (fewer at the end of the file), and the file's size.
    fn read_range(&self, path: &FsPath, offset: u64, len: u64) -> Result<(Vec<u8>, u64), FsError>;

    /// Writes `data` to the file at `path` as `mode` says, creating missing parent
    /// directories, and returns the file's new size.
    fn write(&self, path: &FsPath, data: &[u8], mode: WriteMode) -> Result<u64, FsError>;

    /// The entries of the directory at `path`, in any order.
    fn list_dir(&self, path: &FsPath) -> Result<Vec<DirEntry>, FsError>;

    /// What is at `path`.
    fn stat(&self, path: &FsPath) -> Result<Stat, FsError>;

    /// Removes the file, symlink or directory at `path`; a directory with entries only when
    /// `recursive`.
    fn remove(&self, path: &FsPath, recursive: bool) -> Result<(), FsError>;

    /// Creates the directory at `path` and any missing parents; returns `false` when it
    /// already existed.
    fn create_dir(&self, path: &FsPath) -> Result<bool, FsError>;

    /// Moves a file or directory; an existing destination is replaced only when
    /// `overwrite` (and never a directory by a file or the reverse).
    fn rename(&self, from: &FsPath, to: &FsPath, overwrite: bool) -> Result<(), FsError>;

    /// Copies a file (directories are refused with [`FsErrorKind::NotAFile`]) and returns
    /// the bytes copied; at most `max_bytes`.
    fn copy(
        &self,
        from: &FsPath,
        to: &FsPath,
        overwrite: bool,
        max_bytes: u64,
    ) -> Result<u64, FsError>;

    /// The entries under `path`, depth first, names in byte order, a directory before its
    /// contents, at most `limit` of them. Symlinks are listed, not followed.
    fn walk(&self, path: &FsPath, limit: usize) -> Result<Walked, FsError> {
        walk_tree(self, path, limit)
    }

    /// Files and directories under `base` whose path matches a glob (see
    /// [`Files::find`](crate::Files::find) for the glob's meaning).
    fn find(&self, base: &FsPath, pattern: &str, limit: usize) -> Result<Found, FsError> {
        find_in(self, base, pattern, limit)
    }

    /// Lines of text files under `base` that match `query`.
    fn search(&self, base: &FsPath, query: &SearchQuery) -> Result<Searched, FsError> {
        search_in(self, base, query)
    }
}

impl<A: Adapter + ?Sized> Adapter for std::sync::Arc<A> {
    fn name(&self) -> &str {
        (**self).name()
    }
    fn is_read_only(&self) -> bool {
        (**self).is_read_only()
    }
    fn read(&self, path: &FsPath, max_bytes: u64) -> Result<Vec<u8>, FsError> {
        (**self).read(path, max_bytes)
    }
    fn read_range(&self, path: &FsPath, offset: u64, len: u64) -> Result<(Vec<u8>, u64), FsError> {
        (**self).read_range(path, offset, len)
    }
    fn write(&self, path: &FsPath, data: &[u8], mode: WriteMode) -> Result<u64, FsError> {
        (**self).write(path, data, mode)
    }
    fn list_dir(&self, path: &FsPath) -> Result<Vec<DirEntry>, FsError> {
        (**self).list_dir(path)
    }
    fn stat(&self, path: &FsPath) -> Result<Stat, FsError> {
        (**self).stat(path)
    }
    fn remove(&self, path: &FsPath, recursive: bool) -> Result<(), FsError> {
        (**self).remove(path, recursive)
    }
    fn create_dir(&self, path: &FsPath) -> Result<bool, FsError> {
        (**self).create_dir(path)
    }
    fn rename(&self, from: &FsPath, to: &FsPath, overwrite: bool) -> Result<(), FsError> {
        (**self).rename(from, to, overwrite)
    }
    fn copy(
        &self,
        from: &FsPath,
        to: &FsPath,
        overwrite: bool,
        max_bytes: u64,
    ) -> Result<u64, FsError> {
        (**self).copy(from, to, overwrite, max_bytes)
    }
    fn walk(&self, path: &FsPath, limit: usize) -> Result<Walked, FsError> {
        (**self).walk(path, limit)
    }
    fn find(&self, base: &FsPath, pattern: &str, limit: usize) -> Result<Found, FsError> {
        (**self).find(base, pattern, limit)
    }
    fn search(&self, base: &FsPath, query: &SearchQuery) -> Result<Searched, FsError> {
        (**self).search(base, query)
    }
}

// The provided methods, on the primitives alone.

fn walk_tree<A: Adapter + ?Sized>(
    adapter: &A,
    path: &FsPath,
    limit: usize,
) -> Result<Walked, FsError> {
    let mut walked = Walked::default();
    // The starting directory must exist; below it, a directory that vanished during the
    // walk is left out, and one that cannot be opened is passed by and reported.
    let first = level(path, adapter.list_dir(path)?, &mut walked.skipped);
    // An explicit stack of iterators keeps deep trees from growing the call stack.
    let mut stack: Vec<std::vec::IntoIter<Entry>> = vec![first.into_iter()];
    while let Some(top) = stack.last_mut() {
        let Some(entry) = top.next() else {
            stack.pop();
            continue;
        };
        if walked.entries.len() >= limit {
            walked.truncated = true;
            break;
        }
        let subdir = (entry.kind == EntryKind::Dir).then(|| entry.path.clone());
        walked.entries.push(entry);
        if let Some(subdir) = subdir {
            let dir = FsPath::parse(&subdir)?;
            let children = match adapter.list_dir(&dir) {
                Ok(children) => children,
                Err(error) if error.kind() == FsErrorKind::NotFound => Vec::new(),
                Err(error) => {
                    walked.skipped.push(subdir, error.message());
                    Vec::new()
                }
            };
            stack.push(level(&dir, children, &mut walked.skipped).into_iter());
        }
    }
    Ok(walked)
}

/// One directory's entries as walk entries, in name order. Names that cannot be written as
/// a path here (a backend may hold names no model could address, or a path longer than the
/// limit) are left out and noted in `skipped`.
pub(crate) fn level(
    dir: &FsPath,
    mut children: Vec<DirEntry>,
    skipped: &mut Skipped,
) -> Vec<Entry> {
    children.sort_by(|a, b| a.name.cmp(&b.name));
    children
        .into_iter()
        .filter_map(|child| match dir.join(&child.name) {
            Ok(path) => Some(Entry {
                path: path.to_string(),
                kind: child.kind,
                size: child.size,
            }),
            Err(error) => {
                skipped.push(
                    dir.to_string(),
                    format!("an entry here cannot be addressed: {}", error.message()),
                );
                None
            }
        })
        .collect()
}

fn find_in<A: Adapter + ?Sized>(
    adapter: &A,
    base: &FsPath,
    pattern: &str,
    limit: usize,
) -> Result<Found, FsError> {
    let matcher = glob(pattern)?;
    let walked = adapter.walk(base, SCAN_LIMIT)?;
    let mut matches = Vec::new();
    let mut truncated = walked.truncated;
    let skipped = walked.skipped;
    for entry in walked.entries {
        if matcher.is_match(glob_subject(pattern, base, &entry.path)) {
            if matches.len() == limit {
                truncated = true;
                break;
            }
            matches.push(entry);
        }
    }
    Ok(Found {
        matches,
        truncated,
        skipped,
    })
}

fn search_in<A: Adapter + ?Sized>(
    adapter: &A,
    base: &FsPath,
    query: &SearchQuery,
) -> Result<Searched, FsError> {
    let matcher = Matcher::new(query)?;
    let file_glob = query.glob.as_deref().map(glob).transpose()?;
    let stat = adapter.stat(base)?;
    let (files, mut truncated, skipped) = if stat.kind == EntryKind::File {
        (
            vec![(base.to_string(), stat.size)],
            false,
            Skipped::default(),
        )
    } else {
        let walked = adapter.walk(base, SCAN_LIMIT)?;
        let files = walked
            .entries
            .into_iter()
            .filter(|entry| entry.kind == EntryKind::File)
            .map(|entry| (entry.path, entry.size.unwrap_or(0)))
            .collect();
        (files, walked.truncated, walked.skipped)
    };
    let mut out = Searched {
        matches: Vec::new(),
        files_searched: 0,
        skipped_binary: 0,
        skipped_large: 0,
        skipped_unreadable: 0,
        truncated: false,
        skipped,
    };
    let mut read_so_far = 0u64;
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
        if read_so_far.saturating_add(size) > query.max_total_bytes {
            // The search has read as much as one call may: what it found so far stands.
            truncated = true;
            break;
        }
        read_so_far += size;
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
