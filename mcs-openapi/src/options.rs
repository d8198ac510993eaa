//! What a read takes and what it gives: [`ReadOptions`] and [`Document`].

use std::path::PathBuf;

use serde_json::{Map, Value};

use super::error::Skipped;
use super::media::is_json;
use mcs_rest::Api;

/// How a document is read. `ReadOptions::default()` reads every operation strictly.
#[derive(Clone, Debug)]
pub struct ReadOptions {
    pub(crate) driver_name: Option<String>,
    pub(crate) include_tags: Vec<String>,
    pub(crate) exclude_operations: Vec<String>,
    pub(crate) lenient: bool,
    pub(crate) max_description_chars: usize,
    pub(crate) keep_examples: bool,
    pub(crate) responses: bool,
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
            responses: false,
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

    /// Also reads what each operation answers (its `responses`: statuses, media types and
    /// JSON schemas) into [`Document::responses`], for a generator of typed clients. Off by
    /// default: a driver for a model does not need them, and they cost time and memory.
    pub fn responses(mut self, read: bool) -> Self {
        self.responses = read;
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
    /// What the operations answer, when [`ReadOptions::responses`] asked for it.
    pub responses: Option<Responses>,
    /// The names given to [`ReadOptions::exclude_operations`] that are neither an
    /// operationId nor a tool name of the document (a typo leaves the operation served).
    pub unknown_exclusions: Vec<String>,
    /// The tags given to [`ReadOptions::include_tags`] that no operation has.
    pub unknown_tags: Vec<String>,
}

/// The answers a document gives for its operations, and the definitions their schemas
/// (and the operations' arguments) refer to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Responses {
    /// For each of [`Api::operations`](mcs_rest::Api::operations), in the same order, the
    /// answers its document lists, in document order.
    pub operations: Vec<Vec<Answer>>,
    /// Every shared schema the answers or the arguments refer to as `#/$defs/NAME`: a
    /// superset of [`Api::definitions`](mcs_rest::Api::definitions), which holds only what
    /// arguments use.
    pub definitions: Map<String, Value>,
}

/// One documented answer of an operation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The status as the document writes it: `"200"`, `"4XX"` or `"default"`.
    pub status: String,
    /// The media type of the body, `None` when the answer has no body.
    pub media_type: Option<String>,
    /// The body's schema, converted like argument schemas (references to the shared
    /// definitions), when the body is JSON and the document describes it; `None` for an
    /// undescribed or non-JSON body, or a schema that could not be read.
    pub schema: Option<Value>,
}

impl Answer {
    /// Whether the status is a success (`2XX`, or a code from 200 to 299).
    pub fn is_success(&self) -> bool {
        self.class() == Some(2)
    }

    /// The status code, when the document names one (not a range or `default`): three
    /// digits, from 100 to 599.
    pub fn code(&self) -> Option<u16> {
        let status = self.status.as_str();
        let digits = status.len() == 3 && status.bytes().all(|b| b.is_ascii_digit());
        digits
            .then(|| status.parse().ok())
            .flatten()
            .filter(|code| (100..=599).contains(code))
    }

    /// The class of the status (`4` for `404` and for the range `4XX`, written in either
    /// case); `None` for `default`, and for what is not a status at all (`2-00`, `OK`).
    pub fn class(&self) -> Option<u16> {
        if let Some(code) = self.code() {
            return Some(code / 100);
        }
        match self.status.as_bytes() {
            [class @ b'1'..=b'5', x, y]
                if x.eq_ignore_ascii_case(&b'x') && y.eq_ignore_ascii_case(&b'x') =>
            {
                Some(u16::from(class - b'0'))
            }
            _ => None,
        }
    }

    /// Whether the body is JSON (`application/json`, a `+json` type, or `*/*`).
    pub fn is_json(&self) -> bool {
        self.media_type.as_deref().is_some_and(is_json)
    }
}
