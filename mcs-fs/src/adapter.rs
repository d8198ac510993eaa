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

use std::fmt;

use serde::Serialize;

use crate::path::FsPath;
use crate::search::{self, Found, SearchQuery, Searched};

/// What kind of failure an [`FsError`] is. Every adapter answers the same situation with
/// the same kind; tests hold them to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum FsErrorKind {
    /// Nothing exists at the path (or at one of its parent directories).
    NotFound,
    /// Something already exists where the operation would create something.
    AlreadyExists,
    /// The operation needs a regular file and the path is a directory or a special file
    /// (FIFO, socket, device).
    NotAFile,
    /// The operation needs a directory, or a parent of the path is not one.
    NotADirectory,
    /// A directory still has entries and the operation was not recursive.
    DirectoryNotEmpty,
    /// The path text is not acceptable (control characters, `\`, a name too long).
    InvalidPath,
    /// The path would lead outside the root: `..`, an absolute path, a drive, or a symlink
    /// that points out.
    OutsideRoot,
    /// The file has other hard links, which may be outside the root: its content is not
    /// read or changed through this name.
    HardLinked,
    /// The adapter or driver is read-only.
    ReadOnly,
    /// A size limit was reached; the message names the limit.
    TooLarge,
    /// An argument is wrong in itself (a bad glob or regex, a range that ends before it
    /// starts, moving a directory into itself, text to replace that is not there).
    InvalidArgument,
    /// The backend refused access.
    PermissionDenied,
    /// This backend cannot do the operation.
    Unsupported,
    /// Any other backend failure; the message has the backend's words.
    Io,
}

impl FsErrorKind {
    /// A short lowercase label: `not found`, `outside the root`, ...
    pub fn label(self) -> &'static str {
        match self {
            FsErrorKind::NotFound => "not found",
            FsErrorKind::AlreadyExists => "already exists",
            FsErrorKind::NotAFile => "not a file",
            FsErrorKind::NotADirectory => "not a directory",
            FsErrorKind::DirectoryNotEmpty => "directory not empty",
            FsErrorKind::InvalidPath => "invalid path",
            FsErrorKind::OutsideRoot => "outside the root",
            FsErrorKind::HardLinked => "hard-linked file",
            FsErrorKind::ReadOnly => "read-only",
            FsErrorKind::TooLarge => "too large",
            FsErrorKind::InvalidArgument => "invalid argument",
            FsErrorKind::PermissionDenied => "permission denied",
            FsErrorKind::Unsupported => "unsupported",
            FsErrorKind::Io => "I/O error",
        }
    }
}

impl fmt::Display for FsErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// A failed filesystem operation: what kind of failure, at which path, and why, in words a
/// model can act on.
///
/// ```
/// use mcs_fs::{FsError, FsErrorKind};
///
/// let error = FsError::new(FsErrorKind::NotFound, "notes/a.txt", "no such file or directory");
/// assert_eq!(error.to_string(), "not found: `notes/a.txt`: no such file or directory");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FsError {
    kind: FsErrorKind,
    path: String,
    message: String,
}

impl FsError {
    /// An error of `kind` about `path`.
    pub fn new(kind: FsErrorKind, path: impl fmt::Display, message: impl Into<String>) -> Self {
        let path = path.to_string();
        FsError {
            kind,
            path: if path.is_empty() { ".".into() } else { path },
            message: message.into(),
        }
    }

    /// What kind of failure this is.
    pub fn kind(&self) -> FsErrorKind {
        self.kind
    }

    /// The path the error is about, as the caller wrote it or normalised (`.` for the root).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Why, without the kind and path.
    pub fn message(&self) -> &str {
        &self.message
    }

    // The errors both adapters give, worded once so that they say the same thing.

    pub(crate) fn read_only(path: &FsPath) -> Self {
        FsError::new(
            FsErrorKind::ReadOnly,
            path,
            "this directory is read-only: nothing can be written, moved or deleted",
        )
    }

    pub(crate) fn not_found(path: &FsPath) -> Self {
        FsError::new(FsErrorKind::NotFound, path, "no such file or directory")
    }

    pub(crate) fn parent_not_dir(path: &FsPath) -> Self {
        FsError::new(
            FsErrorKind::NotADirectory,
            path,
            "a parent of this path is a file, not a directory",
        )
    }

    pub(crate) fn not_dir(path: &FsPath) -> Self {
        FsError::new(
            FsErrorKind::NotADirectory,
            path,
            "this is a file, not a directory",
        )
    }

    pub(crate) fn is_dir(path: &FsPath) -> Self {
        FsError::new(
            FsErrorKind::NotAFile,
            path,
            "this is a directory, not a file",
        )
    }

    pub(crate) fn exists(path: &FsPath) -> Self {
        FsError::new(
            FsErrorKind::AlreadyExists,
            path,
            "something already exists at this path (pass `overwrite: true` to replace a file)",
        )
    }

    pub(crate) fn dir_not_empty(path: &FsPath) -> Self {
        FsError::new(
            FsErrorKind::DirectoryNotEmpty,
            path,
            "the directory is not empty (pass `recursive: true` to delete it with its contents)",
        )
    }

    pub(crate) fn too_large(path: &FsPath, size: u64, max: u64) -> Self {
        FsError::new(
            FsErrorKind::TooLarge,
            path,
            format!("the file is {size} bytes; the limit here is {max} bytes"),
        )
    }

    pub(crate) fn root(path: &FsPath, what: &str) -> Self {
        FsError::new(
            FsErrorKind::InvalidArgument,
            path,
            format!("the root directory itself cannot be {what}"),
        )
    }

    pub(crate) fn into_itself(path: &FsPath) -> Self {
        FsError::new(
            FsErrorKind::InvalidArgument,
            path,
            "a directory cannot be moved into itself",
        )
    }

    pub(crate) fn kind_clash(path: &FsPath) -> Self {
        FsError::new(
            FsErrorKind::AlreadyExists,
            path,
            "only a file replaces a file, and a directory is never replaced; delete the \
             destination first",
        )
    }

    pub(crate) fn same_file(path: &FsPath) -> Self {
        FsError::new(
            FsErrorKind::InvalidArgument,
            path,
            "the source and the destination are the same file",
        )
    }
}

impl fmt::Display for FsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: `{}`: {}", self.kind, self.path, self.message)
    }
}

impl std::error::Error for FsError {}

/// What a directory entry is. Symlinks are reported as such, never followed by a listing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EntryKind {
    /// A regular file.
    File,
    /// A directory.
    Dir,
    /// A symbolic link (only backends that have them: the local adapter).
    Symlink,
    /// A FIFO, socket or device: listed, never opened.
    Special,
}

/// One entry of a directory, as [`Adapter::list_dir`] gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirEntry {
    /// The entry's name in its directory.
    pub name: String,
    /// What it is.
    pub kind: EntryKind,
    /// Its size in bytes, for files.
    pub size: Option<u64>,
}

/// What [`Adapter::stat`] tells about a path.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Stat {
    /// What it is (a symlink at the path itself is reported as [`EntryKind::Symlink`]).
    pub kind: EntryKind,
    /// Size in bytes (0 for directories).
    pub size: u64,
    /// Last modification, in seconds since the Unix epoch, when the backend knows it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modified: Option<u64>,
}

/// How [`Adapter::write`] treats an existing file.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum WriteMode {
    /// Create a new file; fail with `already_exists` if the path exists.
    Create,
    /// Create the file or replace it whole. The replacement is atomic: readers see the old
    /// content or the new, never a mix.
    #[default]
    Overwrite,
    /// Add to the end of the file, creating it if it does not exist.
    Append,
}

/// The filesystem capability's backend interface: the operations the [`Files`](crate::Files)
/// tools delegate to.
///
/// Paths arrive checked ([`FsPath`]). Shared semantics every implementation keeps (the
/// shared test suite in `tests/suite.rs` checks each one):
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
        search::walk(self, path, limit)
    }

    /// Files and directories under `base` whose path matches a glob (see
    /// [`Files::find`](crate::Files::find) for the glob's meaning).
    fn find(&self, base: &FsPath, pattern: &str, limit: usize) -> Result<Found, FsError> {
        search::find(self, base, pattern, limit)
    }

    /// Lines of text files under `base` that match `query`.
    fn search(&self, base: &FsPath, query: &SearchQuery) -> Result<Searched, FsError> {
        search::search(self, base, query)
    }
}

/// One entry found under a directory.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Entry {
    /// Path from the root.
    pub path: String,
    /// What it is.
    pub kind: EntryKind,
    /// Size in bytes, for files.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
}

/// What [`Adapter::walk`] found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Walked {
    /// The entries, in walk order.
    pub entries: Vec<Entry>,
    /// Whether the limit cut the walk short.
    pub truncated: bool,
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
