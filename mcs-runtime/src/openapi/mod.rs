//! OpenAPI documents read into [`crate::rest`] table rows.
//!
//! [`read_file`] and [`read_str`] take an OpenAPI 3.0.x or 3.1.x document, or a Swagger
//! 2.0 one, in JSON or YAML, and return the [`Api`] rows a REST driver
//! runs — the same rows `mcs-codegen` writes out as `static`s. Swagger 2.0 is read
//! directly into those rows (its `in: body` and `in: formData` parameters become the body,
//! `collectionFormat` the style), not converted to OpenAPI 3 first.
//!
//! The document is walked as a `serde_json::Value` rather than deserialized into typed
//! structs: real documents break their own specification in small ways, and a walk by hand
//! can read past what does not matter and name, with a JSON pointer, what does.
//!
//! What the rows hold:
//! - one operation per path and method, in document order; path-level parameters merged
//!   with the operation's (the operation's win);
//! - tool names from `operationId` (else `{method}_{path}`), sanitised to
//!   `^[A-Za-z0-9_-]{1,64}$` and made unique over the whole document *before* any
//!   filtering or skipping, so a tool keeps its name whatever else is left out;
//! - one argument per parameter, and for an object body one per property (the body is a
//!   single `body` argument when it is not an object or a property name is taken);
//! - the arguments' JSON Schema, self-contained: references inlined, recursive ones (and
//!   ones reused so often that inlining would blow up) in `$defs`, OpenAPI 3.0 and Swagger
//!   idioms (`nullable`, boolean `exclusiveMinimum`, `type: file`) rewritten the 2020-12
//!   way, OpenAPI-only keywords and `readOnly` properties left out;
//! - the security alternatives each operation accepts, and the schemes they use.
//!
//! Rules where the specification leaves a choice:
//! - a description that only repeats the summary is dropped (the tool falls back to the
//!   title); an operation with neither is titled `GET /path`; a deprecated one's
//!   description starts with `Deprecated. `;
//! - a `{placeholder}` in the path that no parameter declares still gets a required string
//!   argument; a declared path parameter the template does not name is left out;
//! - two parameters with the same name in different locations: the first (path, query,
//!   header, cookie) keeps it, later ones become `{location}_{name}`;
//! - a body spread into arguments keeps its object's `required` properties even when the
//!   request body itself is not marked required (documents rarely mark it);
//! - multipart properties that are files (binary strings, content with a media type or an
//!   encoding) are file arguments; an array of them is an array of file arguments, and is
//!   listed in [`RequestBody::files`](crate::rest::RequestBody::files) too;
//! - `include_tags` and `exclude_operations` apply after names are settled, and an
//!   operation they leave out is never read (it cannot fail the read);
//! - OpenAPI 3.2 documents are read as 3.1; in 3.1 `paths` may be absent (no operations).
//!
//! Servers given on a path item or an operation are not read; only the document's.
//! References may point into the document or into files beside it (resolved from the
//! referring file's directory); remote (`http://`) references and `$id`-based resolution
//! are not supported.
//!
//! Nothing here panics or loops on bad input: depth, size and reference chains are bounded.

mod body;
mod document;
mod driver;
mod error;
mod keywords;
mod names;
mod operation;
mod params;
mod schema;
mod security;
mod source;

use std::path::{Path, PathBuf};

pub use driver::OpenApiDriver;
pub use error::{OpenApiError, Skipped};

use crate::rest::Api;

/// How a document is read. `ReadOptions::default()` reads every operation strictly.
#[derive(Clone, Debug)]
pub struct ReadOptions {
    pub(crate) driver_name: Option<String>,
    pub(crate) include_tags: Vec<String>,
    pub(crate) exclude_operations: Vec<String>,
    pub(crate) lenient: bool,
    pub(crate) max_description_chars: usize,
    pub(crate) keep_examples: bool,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            driver_name: None,
            include_tags: Vec::new(),
            exclude_operations: Vec::new(),
            lenient: false,
            max_description_chars: ReadOptions::DEFAULT_MAX_DESCRIPTION_CHARS,
            keep_examples: false,
        }
    }
}

impl ReadOptions {
    /// The description length kept unless told otherwise: long enough for a real
    /// explanation, short enough that one verbose operation does not eat the context.
    pub const DEFAULT_MAX_DESCRIPTION_CHARS: usize = 1000;

    /// The default options.
    pub fn new() -> Self {
        Self::default()
    }

    /// The driver's name ([`Api::name`]); by default it is made from `info.title`
    /// (`"Swagger Petstore"` → `SwaggerPetstore`, `Api` when nothing usable is left).
    pub fn driver_name(mut self, name: impl Into<String>) -> Self {
        self.driver_name = Some(name.into());
        self
    }

    /// Keeps only operations tagged with one of `tags` (no tags given: every operation).
    /// Tool names are settled before filtering, so they do not depend on the filter.
    pub fn include_tags<I, S>(mut self, tags: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.include_tags = tags.into_iter().map(Into::into).collect();
        self
    }

    /// Leaves out the operations with these `operationId`s or tool names.
    pub fn exclude_operations<I, S>(mut self, operations: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.exclude_operations = operations.into_iter().map(Into::into).collect();
        self
    }

    /// Skips an operation that cannot be read (an unsupported body media type or
    /// security scheme, a broken reference, ...) and records it in
    /// [`Document::skipped`], instead of failing the whole read.
    pub fn lenient(mut self, lenient: bool) -> Self {
        self.lenient = lenient;
        self
    }

    /// Cuts descriptions (of operations, parameters and schemas) longer than `chars`
    /// characters, ending them with `…`; `0` keeps them whole.
    pub fn max_description_chars(mut self, chars: usize) -> Self {
        self.max_description_chars = chars;
        self
    }

    /// Keeps `example`s in schemas (as 2020-12 `examples`); by default they are left out,
    /// since they cost context and models rarely need them.
    pub fn keep_examples(mut self, keep: bool) -> Self {
        self.keep_examples = keep;
        self
    }
}

/// A document read into rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Document {
    /// The API, with owned rows.
    pub api: Api,
    /// The operations lenient reading left out, in document order.
    pub skipped: Vec<Skipped>,
    /// Every file read (the document, when read from a file, and every file a reference
    /// named), for `cargo:rerun-if-changed`.
    pub files: Vec<PathBuf>,
}

/// Reads the document at `path`; JSON or YAML by its extension, else by its first
/// character. References to other files are resolved from the directory of the file
/// that makes them.
pub fn read_file(path: &Path, options: &ReadOptions) -> Result<Document, OpenApiError> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|error| OpenApiError::new(&name, "", format!("cannot read: {error}")))?;
    let dir = path.parent().map(|dir| {
        if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        }
    });
    let sources = source::Sources::load(&text, &name, Some(path), dir)?;
    document::read(&sources, options)
}

/// Reads a document from `text`. `source` names it in messages (and, by its extension,
/// says whether it is JSON or YAML); `base_dir` is where references to other files are
/// resolved from (`None`: such references are errors).
pub fn read_str(
    text: &str,
    source: &str,
    base_dir: Option<&Path>,
    options: &ReadOptions,
) -> Result<Document, OpenApiError> {
    let sources = source::Sources::load(text, source, None, base_dir)?;
    document::read(&sources, options)
}
