//! # mcs-fs — file tools for a model, over swappable backends
//!
//! A filesystem capability driver for [`mcs`]: a model lists, reads, searches, writes and
//! edits files, in a directory you grant ([`LocalFs`]) or in memory ([`MemoryFs`]). It is
//! also the worked example of the adapter pattern of the Model Context Standard: copy its
//! shape to bring your own backend or capability to a model.
//!
//! ```no_run
//! use mcs::Driver;
//! use mcs_fs::{Files, LocalFs};
//!
//! # fn main() -> std::io::Result<()> {
//! let files = Files::new(LocalFs::open("/srv/shared-notes")?);
//! let system_prompt = files.get_driver_system_message(Some("qwen2.5-7b-instruct"));
//! // ... send it with the user's request; hand each answer to
//! // `files.process_llm_response(answer.into()).await` (or run `mcs::llm::Conversation`).
//! # let _ = system_prompt;
//! # Ok(())
//! # }
//! ```
//!
//! ## The tools
//!
//! `list`, `read_file` (whole, a line range or a byte range), `write_file` (create,
//! overwrite atomically, append), `edit_file` (replace a unique piece of text), `stat`,
//! `delete`, `make_dir`, `move`, `copy`, `find` (glob on names) and `search` (text or regex
//! in content). Tools that change nothing are tagged `read`, the others `write`.
//! Results are JSON objects; errors name their kind, the path and the reason
//! (`not found: \`notes/a.txt\`: no such file or directory`), and a model can act on them.
//!
//! - **Sizes.** [`Limits`]: one read returns at most 64 KiB, larger files are read by lines
//!   or bytes; files up to 8 MiB are loaded to read by lines, edit or search; one search
//!   reads at most 64 MiB in all; a write takes at most 1 MiB. Every refusal names the limit.
//!   A refused write is not copied: the call's record notes the content's length
//!   ([`mcs::ToolCallRecord::MAX_RECORDED_STRING`]).
//! - **Paths** are at most [`MAX_PATH_BYTES`] (4,095) bytes and names [`MAX_NAME_BYTES`]
//!   (255), checked in [`FsPath`] before any adapter acts, so both adapters take and refuse
//!   the same paths. A tree may still grow deeper than a path can address (a deep tree
//!   moved under a deep path): listings, `find` and `search` pass by what they cannot
//!   address or open and report it (`skipped`, [`Skipped`]) instead of failing, and a
//!   recursive `delete` removes it whole — with a loop, not a call per level, and in
//!   [`LocalFs`] with a bounded number of directory handles open (about 130) however deep
//!   the tree is.
//! - **Special files** ([`LocalFs`]): a FIFO, socket or device is listed as `special` and
//!   never opened, written or replaced: its kind is read from its directory entry before
//!   anything opens it, and every tool refuses it in the same words.
//! - **Binary files** are summarised — size, a guess at the format, the first bytes in
//!   hex — never dumped into the model's context.
//! - **Read-only.** [`Files::read_only`] (or [`LocalFs::read_only`], [`MemoryFs::read_only`])
//!   refuses every change with [`FsErrorKind::ReadOnly`]; [`ReadOnlyFiles`] also hides the
//!   write tools, so the model is not offered what it may not do.
//! - **Confinement** ([`LocalFs`]): nothing outside the root is read, written, listed or
//!   deleted — not through `..`, absolute paths, symlinks (created or swapped at any time),
//!   hard links, odd Unicode, NUL or `\`. Paths are resolved from the root's directory
//!   handle with `openat`-style calls ([`cap_std`]), not by checking strings. The tests in
//!   `tests/escape.rs` try each way out.
//!
//! ## Writing a driver for your own backend: the four steps
//!
//! The Model Context Standard's recommended workflow is bottom-up. This crate follows it
//! file by file; each step is a reusable building block.
//!
//! 1. **The adapter interface** — `src/adapter.rs`: the [`Adapter`] trait, the
//!    operations the capability needs (`read`, `write`, `list_dir`, `stat`, `remove`,
//!    `create_dir`, `rename`, `copy`), and one error type with defined kinds
//!    ([`FsErrorKind`]) so that every backend fails the same way. Derived operations
//!    (`walk`, `find`, `search`) are provided methods built on the primitives, so every
//!    backend has them with the same meaning. Paths reach adapters already checked
//!    ([`FsPath`], `src/path.rs`).
//! 2. **The adapters** — `src/local.rs` ([`LocalFs`], a directory confined with
//!    `cap-std`) and `src/memory.rs` ([`MemoryFs`], a tree in memory). A new backend
//!    (SFTP, SMB, a storage API) is one more `impl Adapter`. The adapter consistency
//!    rule: each gives the same tools the same meaning, and where one cannot, the
//!    difference is in the tool descriptions or answered with a defined error kind (the
//!    memory backend has no symlinks; [`FsErrorKind::HardLinked`] and
//!    [`FsErrorKind::Unsupported`] exist for what a backend refuses). `tests/suite/` runs one suite against every adapter, and
//!    `tests/equivalence.rs` runs random operation sequences on both and compares.
//! 3. **The ToolDriver** — `src/driver.rs` ([`Files`]): `#[mcs::tool_driver]` on an impl
//!    block generic over the adapter, one `#[tool]` method per operation, its doc comment
//!    the description the model reads. Each method checks its arguments, applies the
//!    [`Limits`] and delegates to the adapter; none knows which backend it runs on.
//! 4. **The hybrid Driver** — `#[mcs::hybrid]` on the same block adds the model side:
//!    system prompts, finding calls in any format, validated execution, answers in the
//!    provider's shape. [`ReadOnlyFiles`] (`src/read_only.rs`) shows the by-hand route for
//!    a driver whose tools are chosen at run time.
//!
//! If your backend fits this adapter interface, write step 2 only: `Files::new(YourFs)`.
//! A new capability (say, spreadsheets) on a backend you already have reuses step 2 and
//! writes steps 1, 3 and 4 anew.
//!
//! `cargo run -p mcs-fs --example files` shows a model listing, searching, reading and
//! editing files in a temporary directory.
#![cfg_attr(docsrs, feature(doc_cfg))]

mod adapter;
mod content;
mod driver;
mod error;
mod local;
mod memory;
mod output;
mod path;
mod read_only;
mod search;
mod types;

pub use adapter::Adapter;
pub use content::{BinarySummary, HEX_HEAD_BYTES, guess_kind};
pub use driver::{Files, Limits};
pub use error::{FsError, FsErrorKind};
pub use local::LocalFs;
pub use memory::MemoryFs;
pub use output::{Body, Changed, FileContent, Listing, StatResult, Written};
pub use path::{FsPath, MAX_NAME_BYTES, MAX_PATH_BYTES};
pub use read_only::ReadOnlyFiles;
pub use search::{Found, MAX_LINE_CHARS, SCAN_LIMIT, SearchMatch, SearchQuery, Searched};
pub use types::{DirEntry, Entry, EntryKind, Skipped, SkippedEntry, Stat, Walked, WriteMode};
