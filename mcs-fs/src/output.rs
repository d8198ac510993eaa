//! What the [`Files`](crate::Files) tools answer: plain structs, serialised to the JSON a
//! model receives.

use serde::Serialize;

use crate::content::BinarySummary;
use crate::types::{Entry, Skipped};

/// What `list` answers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Listing {
    /// The directory listed.
    pub path: String,
    /// Its entries.
    pub entries: Vec<Entry>,
    /// Whether there were more than the limit.
    pub truncated: bool,
    /// Entries left out because their path cannot be written here, and directories a
    /// recursive listing could not open.
    #[serde(skip_serializing_if = "Skipped::is_empty")]
    pub skipped: Skipped,
}

/// What `read_file` answers: text, or a summary of a binary file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FileContent {
    /// The file.
    pub path: String,
    /// The file's whole size in bytes.
    pub size: u64,
    /// Text, or what a binary file is.
    #[serde(flatten)]
    pub body: Body,
}

/// The part of a file that `read_file` returns.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Body {
    /// UTF-8 text.
    Text {
        /// The text read.
        content: String,
        /// The first line returned (from 1), for whole and line-range reads.
        #[serde(skip_serializing_if = "Option::is_none")]
        first_line: Option<u64>,
        /// The last line returned.
        #[serde(skip_serializing_if = "Option::is_none")]
        last_line: Option<u64>,
        /// How many lines the file has.
        #[serde(skip_serializing_if = "Option::is_none")]
        total_lines: Option<u64>,
        /// The first byte returned, for byte-range reads.
        #[serde(skip_serializing_if = "Option::is_none")]
        offset: Option<u64>,
    },
    /// Not text: a summary instead of the bytes.
    Binary {
        /// Always true, so that a model sees at once that there is no `content`.
        binary: bool,
        /// What the bytes look like.
        #[serde(flatten)]
        summary: BinarySummary,
        /// Where the bytes shown start, for byte-range reads.
        #[serde(skip_serializing_if = "Option::is_none")]
        offset: Option<u64>,
    },
}

/// What `write_file`, `edit_file` and `copy` answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Written {
    /// The file written.
    pub path: String,
    /// Bytes written by this call.
    pub bytes_written: u64,
    /// The file's size now.
    pub size: u64,
    /// For edits: how many places were replaced.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replacements: Option<u64>,
}

/// What `stat` answers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StatResult {
    /// The path asked about.
    pub path: String,
    /// What it is, its size and when it changed.
    #[serde(flatten)]
    pub stat: crate::types::Stat,
}

/// What `delete`, `make_dir` and `move` answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Changed {
    /// The path changed (the destination, for a move).
    pub path: String,
    /// Whether something changed (`make_dir` on an existing directory changes nothing).
    pub changed: bool,
}
