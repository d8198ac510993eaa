//! The values adapters exchange with the driver: what an entry is, what a stat says, how
//! to write.

use serde::Serialize;

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

/// One entry of a directory, as [`Adapter::list_dir`](crate::Adapter::list_dir) gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirEntry {
    /// The entry's name in its directory.
    pub name: String,
    /// What it is.
    pub kind: EntryKind,
    /// Its size in bytes, for files.
    pub size: Option<u64>,
}

/// What [`Adapter::stat`](crate::Adapter::stat) tells about a path.
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

/// How a write treats an existing file.
// (This doc comment reaches the model through the `mode` schema: no rustdoc links.)
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

/// What [`Adapter::walk`](crate::Adapter::walk) found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Walked {
    /// The entries, in walk order.
    pub entries: Vec<Entry>,
    /// Whether the limit cut the walk short.
    pub truncated: bool,
}
