//! [`FsError`]: every failure of every adapter, with a kind from one list, the path it is
//! about and the reason, worded once so that every backend says the same thing.

use std::fmt;

use serde::Serialize;

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

    pub(crate) fn read_only(path: impl fmt::Display) -> Self {
        FsError::new(
            FsErrorKind::ReadOnly,
            path,
            "this directory is read-only: nothing can be written, moved or deleted",
        )
    }

    pub(crate) fn not_found(path: impl fmt::Display) -> Self {
        FsError::new(FsErrorKind::NotFound, path, "no such file or directory")
    }

    pub(crate) fn parent_not_dir(path: impl fmt::Display) -> Self {
        FsError::new(
            FsErrorKind::NotADirectory,
            path,
            "a parent of this path is a file, not a directory",
        )
    }

    pub(crate) fn not_dir(path: impl fmt::Display) -> Self {
        FsError::new(
            FsErrorKind::NotADirectory,
            path,
            "this is a file, not a directory",
        )
    }

    pub(crate) fn is_dir(path: impl fmt::Display) -> Self {
        FsError::new(
            FsErrorKind::NotAFile,
            path,
            "this is a directory, not a file",
        )
    }

    pub(crate) fn exists(path: impl fmt::Display) -> Self {
        FsError::new(
            FsErrorKind::AlreadyExists,
            path,
            "something already exists at this path (pass `overwrite: true` to replace a file)",
        )
    }

    pub(crate) fn dir_not_empty(path: impl fmt::Display) -> Self {
        FsError::new(
            FsErrorKind::DirectoryNotEmpty,
            path,
            "the directory is not empty (pass `recursive: true` to delete it with its contents)",
        )
    }

    pub(crate) fn too_large(path: impl fmt::Display, size: u64, max: u64) -> Self {
        FsError::new(
            FsErrorKind::TooLarge,
            path,
            format!("the file is {size} bytes; the limit here is {max} bytes"),
        )
    }

    pub(crate) fn root(path: impl fmt::Display, what: &str) -> Self {
        FsError::new(
            FsErrorKind::InvalidArgument,
            path,
            format!("the root directory itself cannot be {what}"),
        )
    }

    pub(crate) fn into_itself(path: impl fmt::Display) -> Self {
        FsError::new(
            FsErrorKind::InvalidArgument,
            path,
            "a directory cannot be moved into itself",
        )
    }

    pub(crate) fn kind_clash(path: impl fmt::Display) -> Self {
        FsError::new(
            FsErrorKind::AlreadyExists,
            path,
            "only a file replaces a file, and a directory is never replaced; delete the \
             destination first",
        )
    }

    pub(crate) fn same_file(path: impl fmt::Display) -> Self {
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
