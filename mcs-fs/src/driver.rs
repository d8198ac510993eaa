//! Steps 3 and 4 of the guide: the tools, and the model-facing driver on top.
//!
//! [`Files`] owns the tool definitions — names, descriptions, parameters — and delegates
//! every tool to its [`Adapter`]. It knows nothing of the backend, and the adapters know
//! nothing of tools. `#[mcs::tool_driver]` makes the `ToolDriver`, `#[mcs::hybrid]` the
//! `Driver` (prompts, reading a model's calls in any format).

use crate::adapter::{self, Adapter};
use crate::content::{self, BinarySummary};
use crate::error::{FsError, FsErrorKind};
use crate::output::{Body, Changed, FileContent, Listing, StatResult, Written};
use crate::path::FsPath;
use crate::search::{Found, SearchQuery, Searched};
use crate::types::{Skipped, Walked, WriteMode};

/// The sizes a [`Files`] driver keeps to. Each refusal names the limit it hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most bytes of content one read returns to the model (default 64 KiB).
    pub max_read_bytes: u64,
    /// The largest file that is loaded whole: to read by lines, edit or search it
    /// (default 8 MiB).
    pub max_file_bytes: u64,
    /// The most bytes one write, edit result or copy may have (default 1 MiB).
    pub max_write_bytes: u64,
    /// The most entries one listing or find returns (default 1,000; a call may ask fewer).
    pub max_entries: usize,
    /// The most matching lines one search returns (default 200; a call may ask fewer).
    pub max_matches: usize,
    /// The most bytes one search reads, over all its files (default 64 MiB): past it the
    /// search stops and says `truncated`.
    pub max_search_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_read_bytes: 64 * 1024,
            max_file_bytes: 8 * 1024 * 1024,
            max_write_bytes: 1024 * 1024,
            max_entries: 1000,
            max_matches: 200,
            max_search_bytes: 64 * 1024 * 1024,
        }
    }
}

/// How many entries a listing gives when the call does not say.
const DEFAULT_ENTRIES: usize = 200;
/// How many matches a search or find gives when the call does not say.
const DEFAULT_MATCHES: usize = 50;

/// File tools over any [`Adapter`]: list, read, write, edit, stat, delete, make
/// directories, move, copy, find by name and search content.
///
/// ```
/// use mcs::ToolDriver;
/// use mcs_fs::{Files, MemoryFs};
/// use serde_json::json;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let files = Files::new(MemoryFs::new());
/// files
///     .execute_tool("write_file", json!({"path": "notes/todo.md", "content": "- tea\n"}))
///     .await
///     .unwrap();
/// let read = files.execute_tool("read_file", json!({"path": "notes/todo.md"})).await.unwrap();
/// assert_eq!(read["content"], "- tea\n");
///
/// // Errors say what, where and why, for the model to act on.
/// let error = files.execute_tool("read_file", json!({"path": "../secret"})).await.unwrap_err();
/// assert!(error.to_string().contains("outside the root: `../secret`"));
/// # }
/// ```
pub struct Files<A> {
    adapter: A,
    limits: Limits,
    read_only: bool,
    /// Per instance: the binding names the adapter this driver holds.
    meta: mcs::DriverMeta,
}

impl<A: Adapter + std::fmt::Debug> std::fmt::Debug for Files<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Files")
            .field("adapter", &self.adapter)
            .field("limits", &self.limits)
            .field("read_only", &self.read_only)
            .finish()
    }
}

impl<A: Adapter> Files<A> {
    /// File tools over `adapter`, with the default [`Limits`]; read-only if the adapter is.
    pub fn new(adapter: A) -> Self {
        let meta = mcs::DriverMeta::new("mcs_fs::Files", "files", env!("CARGO_PKG_VERSION"))
            .with_binding(mcs::Binding::new("filesystem", adapter.name()));
        Files {
            adapter,
            limits: Limits::default(),
            read_only: false,
            meta,
        }
    }

    /// The metadata, whose binding names the adapter (`filesystem / local`, `filesystem /
    /// memory`): `#[mcs::tool_driver(meta = "driver_meta")]` reads it per instance.
    fn driver_meta(&self) -> &mcs::DriverMeta {
        &self.meta
    }

    /// Uses these limits.
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Refuses every change with [`FsErrorKind::ReadOnly`], whatever the adapter allows.
    /// The write tools stay listed (the tool list is the same for every `Files`); to hide
    /// them from the model, serve [`ReadOnlyFiles`](crate::ReadOnlyFiles) instead.
    #[must_use]
    pub fn read_only(mut self) -> Self {
        self.read_only = true;
        self
    }

    /// Whether changes are refused, by this driver or its adapter.
    pub fn is_read_only(&self) -> bool {
        self.read_only || self.adapter.is_read_only()
    }

    /// The adapter.
    pub fn adapter(&self) -> &A {
        &self.adapter
    }

    /// The limits.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    fn writable(&self, path: &FsPath) -> Result<(), FsError> {
        if self.is_read_only() {
            Err(FsError::read_only(path))
        } else {
            Ok(())
        }
    }

    fn check_write_size(&self, path: &FsPath, len: u64) -> Result<(), FsError> {
        if len > self.limits.max_write_bytes {
            return Err(FsError::new(
                FsErrorKind::TooLarge,
                path,
                format!(
                    "the content is {len} bytes; one write takes at most {} bytes",
                    self.limits.max_write_bytes
                ),
            ));
        }
        Ok(())
    }
}

/// `path` or the root.
fn parse_dir(path: Option<&str>) -> Result<FsPath, FsError> {
    FsPath::parse(path.unwrap_or("."))
}

fn clamp(asked: Option<u32>, default: usize, max: usize) -> usize {
    asked.map_or(default, |n| n as usize).clamp(1, max.max(1))
}

#[mcs::tool_driver(meta = "driver_meta")]
#[mcs::hybrid]
impl<A: Adapter> Files<A> {
    /// Lists a directory.
    ///
    /// Each entry has its path, its kind (`file`, `dir`, `symlink`, `special`) and, for
    /// files, its size in bytes.
    /// Entries come in name order; with `recursive`, depth first, each directory right
    /// before its contents. Symbolic links (local directories only) are listed and not
    /// followed. `truncated: true` means there were more entries than the limit: list a
    /// subdirectory, or use `find`.
    ///
    /// # Arguments
    ///
    /// * `path` - The directory, relative to the root; `.` (the default) is the root.
    /// * `recursive` - Also list everything below it. Default false.
    /// * `limit` - The most entries to return (default 200, at most 1000).
    #[tool(tags = ["read"], read_only, open_world = false)]
    pub fn list(
        &self,
        path: Option<String>,
        #[arg(default)] recursive: bool,
        limit: Option<u32>,
    ) -> Result<Listing, FsError> {
        let dir = parse_dir(path.as_deref())?;
        let limit = clamp(limit, DEFAULT_ENTRIES, self.limits.max_entries);
        let walked = if recursive {
            self.adapter.walk(&dir, limit)?
        } else {
            let mut skipped = Skipped::default();
            let mut entries = adapter::level(&dir, self.adapter.list_dir(&dir)?, &mut skipped);
            let truncated = entries.len() > limit;
            entries.truncate(limit);
            Walked {
                entries,
                truncated,
                skipped,
            }
        };
        Ok(Listing {
            path: dir.to_string(),
            entries: walked.entries,
            truncated: walked.truncated,
            skipped: walked.skipped,
        })
    }

    /// Reads a file: all of it, some lines, or some bytes.
    ///
    /// Text comes back as `content`, with `first_line`, `last_line` and `total_lines`.
    /// A binary file is not dumped: you get `binary: true`, its size, a guess at its
    /// kind and its first bytes in hex. One read returns at most 64 KiB (the default
    /// limit; a refusal names the limit in force): for larger files ask for a line range
    /// (or a byte range).
    ///
    /// # Arguments
    ///
    /// * `path` - The file, relative to the root.
    /// * `start_line` - First line to return, from 1.
    /// * `end_line` - Last line to return (inclusive).
    /// * `offset` - First byte to return, from 0 (instead of lines).
    /// * `length` - How many bytes to return from `offset`.
    #[tool(tags = ["read"], read_only, open_world = false)]
    pub fn read_file(
        &self,
        path: String,
        start_line: Option<u64>,
        end_line: Option<u64>,
        offset: Option<u64>,
        length: Option<u64>,
    ) -> Result<FileContent, FsError> {
        let path = FsPath::parse(&path)?;
        let by_lines = start_line.is_some() || end_line.is_some();
        let by_bytes = offset.is_some() || length.is_some();
        if by_lines && by_bytes {
            return Err(FsError::new(
                FsErrorKind::InvalidArgument,
                &path,
                "give a line range (start_line, end_line) or a byte range (offset, length), \
                 not both",
            ));
        }
        if by_bytes {
            return self.read_bytes(&path, offset.unwrap_or(0), length);
        }
        let bytes = self
            .adapter
            .read(&path, self.limits.max_file_bytes)
            .map_err(|error| {
                with_hint(
                    error,
                    "the file is too large to load whole; read a byte range (offset, length)",
                )
            })?;
        let size = bytes.len() as u64;
        let Some(text) = content::as_text(&bytes) else {
            return Ok(FileContent {
                path: path.to_string(),
                size,
                body: Body::Binary {
                    binary: true,
                    summary: BinarySummary::new(&bytes, size),
                    offset: None,
                },
            });
        };
        let total = text.split_inclusive('\n').count() as u64;
        let first = start_line.unwrap_or(1);
        let last = end_line.unwrap_or(total).min(total);
        if first == 0 || (by_lines && first > last && !(total == 0 && first == 1)) {
            return Err(FsError::new(
                FsErrorKind::InvalidArgument,
                &path,
                format!(
                    "lines {first} to {} are not in the file: lines count from 1 and it has \
                     {total}",
                    end_line.unwrap_or(total)
                ),
            ));
        }
        let chosen: String = if !by_lines || total == 0 {
            text.to_owned()
        } else {
            text.split_inclusive('\n')
                .skip((first - 1) as usize)
                .take((last + 1 - first) as usize)
                .collect()
        };
        let max = self.limits.max_read_bytes;
        if chosen.len() as u64 > max {
            let message = if by_lines {
                format!(
                    "lines {first} to {last} are {} bytes; one read returns at most {max} \
                     bytes: ask for fewer lines (the file has {total})",
                    chosen.len()
                )
            } else {
                format!(
                    "the file is {size} bytes; one read returns at most {max} bytes: read it \
                     in parts with start_line and end_line (it has {total} lines)"
                )
            };
            return Err(FsError::new(FsErrorKind::TooLarge, &path, message));
        }
        Ok(FileContent {
            path: path.to_string(),
            size,
            body: Body::Text {
                content: chosen,
                first_line: Some(if total == 0 { 0 } else { first }),
                last_line: Some(last),
                total_lines: Some(total),
                offset: None,
            },
        })
    }

    /// Writes a file: creates it, replaces it whole, or appends to it.
    ///
    /// Missing parent directories are created. Replacing is atomic: the file holds the old
    /// content or the new, never a mix. One write takes at most 1 MiB (by default).
    ///
    /// # Arguments
    ///
    /// * `path` - The file, relative to the root.
    /// * `content` - The text to write.
    /// * `mode` - `overwrite` (the default: create or replace), `create` (fail if it
    ///   exists) or `append`.
    #[tool(tags = ["write"], destructive, open_world = false)]
    pub fn write_file(
        &self,
        path: String,
        content: String,
        mode: Option<WriteMode>,
    ) -> Result<Written, FsError> {
        let path = FsPath::parse(&path)?;
        self.writable(&path)?;
        self.check_write_size(&path, content.len() as u64)?;
        let size = self
            .adapter
            .write(&path, content.as_bytes(), mode.unwrap_or_default())?;
        Ok(Written {
            path: path.to_string(),
            bytes_written: content.len() as u64,
            size,
            replacements: None,
        })
    }

    /// Replaces text in a file: `old_text` must occur exactly once (or set `replace_all`).
    ///
    /// Include enough surrounding text in `old_text` to make it unique. The file is
    /// replaced atomically.
    ///
    /// # Arguments
    ///
    /// * `path` - The text file, relative to the root.
    /// * `old_text` - The exact text to replace, whitespace included.
    /// * `new_text` - What to put in its place (may be empty).
    /// * `replace_all` - Replace every occurrence. Default false.
    #[tool(tags = ["write"], destructive, idempotent = false, open_world = false)]
    pub fn edit_file(
        &self,
        path: String,
        old_text: String,
        new_text: String,
        #[arg(default)] replace_all: bool,
    ) -> Result<Written, FsError> {
        let path = FsPath::parse(&path)?;
        self.writable(&path)?;
        let invalid = |message: String| FsError::new(FsErrorKind::InvalidArgument, &path, message);
        if old_text.is_empty() {
            return Err(invalid("`old_text` is empty".into()));
        }
        let bytes = self.adapter.read(&path, self.limits.max_file_bytes)?;
        let Some(text) = content::as_text(&bytes) else {
            return Err(invalid(
                "this is not a UTF-8 text file; edit_file only changes text".into(),
            ));
        };
        let count = text.matches(old_text.as_str()).count() as u64;
        if count == 0 {
            return Err(invalid(
                "`old_text` does not occur in the file; read it again and copy the text exactly"
                    .into(),
            ));
        }
        if count > 1 && !replace_all {
            return Err(invalid(format!(
                "`old_text` occurs {count} times; add surrounding lines to make it unique, or \
                 set `replace_all`"
            )));
        }
        let edited = if replace_all {
            text.replace(old_text.as_str(), &new_text)
        } else {
            text.replacen(old_text.as_str(), &new_text, 1)
        };
        self.check_write_size(&path, edited.len() as u64)?;
        let size = self
            .adapter
            .write(&path, edited.as_bytes(), WriteMode::Overwrite)?;
        Ok(Written {
            path: path.to_string(),
            bytes_written: edited.len() as u64,
            size,
            replacements: Some(count),
        })
    }

    /// Tells what is at a path.
    ///
    /// Its kind, size and last modification (seconds since the Unix epoch, when known).
    /// Symbolic links are followed.
    ///
    /// # Arguments
    ///
    /// * `path` - The path, relative to the root.
    #[tool(tags = ["read"], read_only, open_world = false)]
    pub fn stat(&self, path: String) -> Result<StatResult, FsError> {
        let path = FsPath::parse(&path)?;
        let stat = self.adapter.stat(&path)?;
        Ok(StatResult {
            path: path.to_string(),
            stat,
        })
    }

    /// Deletes a file, a symbolic link (not what it points to) or a directory.
    ///
    /// A directory with contents needs `recursive`.
    ///
    /// # Arguments
    ///
    /// * `path` - What to delete, relative to the root.
    /// * `recursive` - Delete a directory with everything in it. Default false.
    #[tool(tags = ["write"], destructive, idempotent, open_world = false)]
    pub fn delete(
        &self,
        path: String,
        #[arg(default)] recursive: bool,
    ) -> Result<Changed, FsError> {
        let path = FsPath::parse(&path)?;
        self.writable(&path)?;
        self.adapter.remove(&path, recursive)?;
        Ok(Changed {
            path: path.to_string(),
            changed: true,
        })
    }

    /// Creates a directory, with any missing parents.
    ///
    /// An existing directory is fine (`changed: false`).
    ///
    /// # Arguments
    ///
    /// * `path` - The directory, relative to the root.
    #[tool(tags = ["write"], destructive = false, idempotent, open_world = false)]
    pub fn make_dir(&self, path: String) -> Result<Changed, FsError> {
        let path = FsPath::parse(&path)?;
        self.writable(&path)?;
        let changed = self.adapter.create_dir(&path)?;
        Ok(Changed {
            path: path.to_string(),
            changed,
        })
    }

    /// Moves or renames a file or directory.
    ///
    /// Missing parent directories of the destination are created. An existing destination
    /// is an error unless `overwrite`, and only a file replaces a file.
    ///
    /// # Arguments
    ///
    /// * `from` - What to move, relative to the root.
    /// * `to` - Its new path, relative to the root.
    /// * `overwrite` - Replace an existing file at `to`. Default false.
    #[tool(name = "move", tags = ["write"], destructive, idempotent = false, open_world = false)]
    pub fn move_path(
        &self,
        from: String,
        to: String,
        #[arg(default)] overwrite: bool,
    ) -> Result<Changed, FsError> {
        let from = FsPath::parse(&from)?;
        let to = FsPath::parse(&to)?;
        self.writable(&from)?;
        self.adapter.rename(&from, &to, overwrite)?;
        Ok(Changed {
            path: to.to_string(),
            changed: from != to,
        })
    }

    /// Copies a file (not a directory).
    ///
    /// Missing parent directories of the destination are created; an existing destination
    /// is an error unless `overwrite`.
    ///
    /// # Arguments
    ///
    /// * `from` - The file to copy, relative to the root.
    /// * `to` - The new file's path, relative to the root.
    /// * `overwrite` - Replace an existing file at `to`. Default false.
    #[tool(tags = ["write"], destructive, open_world = false)]
    pub fn copy(
        &self,
        from: String,
        to: String,
        #[arg(default)] overwrite: bool,
    ) -> Result<Written, FsError> {
        let from = FsPath::parse(&from)?;
        let to = FsPath::parse(&to)?;
        self.writable(&to)?;
        let bytes = self
            .adapter
            .copy(&from, &to, overwrite, self.limits.max_write_bytes)?;
        Ok(Written {
            path: to.to_string(),
            bytes_written: bytes,
            size: bytes,
            replacements: None,
        })
    }

    /// Finds files and directories by name with a glob.
    ///
    /// Globs like `*.md`, `report-202?.csv` or `{a,b}*` are matched against names. A
    /// pattern with `/` is matched against the path below `path` instead (`src/**/*.rs`;
    /// `*` stays within one directory, `**` crosses them).
    ///
    /// # Arguments
    ///
    /// * `pattern` - The glob.
    /// * `path` - The directory to search, relative to the root; `.` (the default) is the
    ///   root.
    /// * `limit` - The most matches to return (default 50, at most 1000).
    #[tool(tags = ["read"], read_only, open_world = false)]
    pub fn find(
        &self,
        pattern: String,
        path: Option<String>,
        limit: Option<u32>,
    ) -> Result<Found, FsError> {
        let base = parse_dir(path.as_deref())?;
        let limit = clamp(limit, DEFAULT_MATCHES, self.limits.max_entries);
        self.adapter.find(&base, &pattern, limit)
    }

    /// Searches the content of text files, line by line.
    ///
    /// Finds a text or a regular expression and returns each matching line with its file
    /// and line number.
    ///
    /// Binary files and files over 8 MiB (by default) are skipped, and counted.
    /// `truncated: true` means the search stopped early — more matches than the limit, or
    /// more content than one search reads (64 MiB by default): narrow it with `path` or
    /// `glob`.
    ///
    /// # Arguments
    ///
    /// * `pattern` - The text to find, or a regular expression with `regex: true`.
    /// * `path` - A directory (or one file) to search, relative to the root; `.` (the
    ///   default) is the root.
    /// * `regex` - Treat `pattern` as a regular expression (Rust syntax). Default false.
    /// * `case_insensitive` - Ignore case. Default false.
    /// * `glob` - Only files whose name matches this glob, e.g. `*.rs`.
    /// * `limit` - The most matching lines to return (default 50, at most 200).
    #[tool(tags = ["read"], read_only, open_world = false)]
    #[allow(clippy::too_many_arguments)]
    pub fn search(
        &self,
        pattern: String,
        path: Option<String>,
        #[arg(default)] regex: bool,
        #[arg(default)] case_insensitive: bool,
        glob: Option<String>,
        limit: Option<u32>,
    ) -> Result<Searched, FsError> {
        let base = parse_dir(path.as_deref())?;
        let query = SearchQuery {
            pattern,
            regex,
            case_insensitive,
            glob,
            max_matches: clamp(limit, DEFAULT_MATCHES, self.limits.max_matches),
            max_file_bytes: self.limits.max_file_bytes,
            max_total_bytes: self.limits.max_search_bytes,
        };
        self.adapter.search(&base, &query)
    }
}

impl<A: Adapter> Files<A> {
    fn read_bytes(
        &self,
        path: &FsPath,
        offset: u64,
        length: Option<u64>,
    ) -> Result<FileContent, FsError> {
        let max = self.limits.max_read_bytes;
        let length = length.unwrap_or(max);
        if length > max {
            return Err(FsError::new(
                FsErrorKind::TooLarge,
                path,
                format!("`length` is {length}; one read returns at most {max} bytes"),
            ));
        }
        let (bytes, size) = self.adapter.read_range(path, offset, length)?;
        let body = match content::as_text(&bytes) {
            Some(text) => Body::Text {
                content: text.to_owned(),
                first_line: None,
                last_line: None,
                total_lines: None,
                offset: Some(offset),
            },
            None => Body::Binary {
                binary: true,
                summary: BinarySummary::new(&bytes, size),
                offset: Some(offset),
            },
        };
        Ok(FileContent {
            path: path.to_string(),
            size,
            body,
        })
    }
}

/// `error` with advice added when it is a size refusal.
fn with_hint(error: FsError, hint: &str) -> FsError {
    if error.kind() == FsErrorKind::TooLarge {
        FsError::new(
            error.kind(),
            error.path(),
            format!("{}; {hint}", error.message()),
        )
    } else {
        error
    }
}
