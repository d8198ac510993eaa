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
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Walked {
    /// The entries, in walk order.
    pub entries: Vec<Entry>,
    /// Whether the limit cut the walk short.
    pub truncated: bool,
    /// What the walk passed by without looking into, and why.
    #[serde(skip_serializing_if = "Skipped::is_empty")]
    pub skipped: Skipped,
}

/// What a listing, walk, find or search passed by: directories it could not open, and
/// entries whose path cannot be written here (a name or a whole path over the limits, or
/// characters paths refuse). The rest of the answer stands; these are left out of it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Skipped {
    /// How many entries were passed by.
    pub count: u64,
    /// The first of them (at most [`Skipped::MAX_SHOWN`]), each with the reason.
    pub first: Vec<SkippedEntry>,
}

/// One entry passed by, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SkippedEntry {
    /// The entry's path, or for a name that cannot be written as a path, the directory that
    /// holds it.
    pub path: String,
    /// Why it was passed by.
    pub reason: String,
}

impl Skipped {
    /// How many skipped entries an answer shows (all are counted).
    pub const MAX_SHOWN: usize = 10;

    /// Whether nothing was passed by.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Notes one more entry passed by.
    pub fn push(&mut self, path: impl Into<String>, reason: impl Into<String>) {
        self.count += 1;
        if self.first.len() < Self::MAX_SHOWN {
            self.first.push(SkippedEntry {
                path: path.into(),
                reason: reason.into(),
            });
        }
    }

    /// Adds what `other` passed by.
    pub fn extend(&mut self, other: Skipped) {
        self.count += other.count;
        let room = Self::MAX_SHOWN.saturating_sub(self.first.len());
        self.first.extend(other.first.into_iter().take(room));
    }
}
