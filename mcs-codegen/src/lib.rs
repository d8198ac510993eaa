//! OpenAPI documents → typed, static mcs drivers, at build time.
//!
//! A crate vendors an API description and adds a `build.rs`:
//!
//! ```no_run
//! // build.rs
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     mcs_codegen::Generator::new("specs/petstore.yaml")
//!         .driver_name("Petstore")
//!         .include_tags(["pets"])
//!         .write_to_out_dir("petstore.rs")?;
//!     Ok(())
//! }
//! ```
//!
//! and includes what it wrote with one line, `mcs::include_driver!("petstore.rs");`. That
//! gives a module `petstore` with:
//! - `Petstore`, a driver implementing `mcs::ToolDriver` and `mcs::Driver` (a hybrid:
//!   prompts, call extraction, validation), `Send + Sync`, usable as
//!   `Arc<dyn ToolDriver>`; `Petstore::new()` sends to the document's first server, builder
//!   methods set a base URL, credentials, headers, a timeout or a custom transport;
//! - per operation, a tool (name from the `operationId`, else method and path; title from
//!   the summary), an argument struct (`ListPetsArguments`) with doc comments, and a typed
//!   async method (`petstore.list_pets(&args)`);
//! - a `static` table of rows (method, path, where each argument goes, body encoding,
//!   security, the argument schema as JSON) that `mcs::rest::RestDriver` executes.
//!
//! A text the module would repeat — a parameter's description on every operation that
//! takes it, the same property in many arguments schemas — is written once, as a
//! `macro_rules!` (`doc_dry_run!`, `arg_dry_run!`) named where it is used: the compiled
//! strings are the same, the source a fraction of the size (kubernetes' module: 9.6 →
//! 3.9 MB).
//!
//! For Rust callers the generator can type everything
//! ([`typed_requests`](Generator::typed_requests),
//! [`typed_responses`](Generator::typed_responses)): structs and open enums from the
//! document's schemas, and methods that answer the body typed with its status and headers.
//! The table, and so everything a model sees and calls, is the same with types as without;
//! only crates that ask for types compile them.
//!
//! The generated code is data and thin glue; everything that runs (validation, encoding,
//! credentials, HTTP) lives in `mcs::rest`, so a fix lands once and large documents stay
//! cheap to compile. Output is deterministic: the same document gives a byte-identical file.
//!
//! What the generator reads (OpenAPI 3.0 and 3.1, Swagger 2.0, JSON or YAML, `$ref`s
//! local and to other files) is `mcs::openapi`'s reader, the same one
//! `OpenApiDriver::from_file` uses at run time. A document it cannot generate fails with
//! the file, the JSON pointer and what is unsupported; [`Generator::lenient`] skips such
//! operations instead, with one `cargo:warning` each.
//!
//! The same generator backs a small CLI: `cargo run -p mcs-codegen -- tools SPEC` lists the
//! tools a document yields, `... generate SPEC` prints the module. `mcs` (the `mcs-cli`
//! package) offers both commands too, and `mcs serve SPEC`, which serves a document as an
//! MCP server.
#![cfg_attr(docsrs, feature(doc_cfg))]

mod docs;
mod emit;
mod listing;
mod names;
mod shared;
mod types;

use std::fmt;
use std::path::{Path, PathBuf};

use mcs_openapi::{self as openapi, Document, ReadOptions};
use mcs_rest::Api;
use proc_macro2::TokenStream;

pub use mcs_openapi::{OpenApiError, Skipped};

// What `tools SPEC` prints, for this crate's CLI and `mcs` (mcs-cli): one piece of code for
// both, and not part of the generator's API.
#[doc(hidden)]
pub use listing::tool_listing;

/// Turns one OpenAPI document into a driver module.
#[derive(Clone, Debug)]
#[must_use]
pub struct Generator {
    spec: PathBuf,
    options: ReadOptions,
    types: TypeOptions,
}

/// Which Rust types the generator writes beyond argument scalars.
#[derive(Clone, Debug, Default)]
struct TypeOptions {
    requests: bool,
    responses: bool,
    tags: Vec<String>,
    derives: Vec<String>,
    formats: bool,
}

/// Why generation failed.
///
/// `Debug` prints the same message as `Display`: a build script's `main` that returns
/// `Result<(), Box<dyn Error>>` shows the `Debug` form when it fails, and that must name the
/// file, the JSON pointer and the reason, not a struct dump.
#[non_exhaustive]
pub enum Error {
    /// The document could not be read or is not supported (names the file and the JSON
    /// pointer).
    Document(OpenApiError),
    /// The generated code could not be parsed back, a bug in the generator.
    Syntax(String),
    /// Writing the output failed.
    Io {
        /// The file being written.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// `write_to_out_dir` was called outside a build script (`OUT_DIR` is not set).
    NoOutDir,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Document(error) => write!(f, "{error}"),
            Error::Syntax(message) => {
                write!(
                    f,
                    "mcs-codegen produced code that does not parse: {message}"
                )
            }
            Error::Io { path, source } => write!(f, "cannot write {}: {source}", path.display()),
            Error::NoOutDir => f.write_str(
                "OUT_DIR is not set: write_to_out_dir is meant to be called from build.rs",
            ),
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Document(error) => Some(error),
            Error::Io { source, .. } => Some(source),
            Error::Syntax(_) | Error::NoOutDir => None,
        }
    }
}

impl From<OpenApiError> for Error {
    fn from(error: OpenApiError) -> Self {
        Error::Document(error)
    }
}

/// What a generation produced.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The formatted Rust source of the driver module.
    pub source: String,
    /// The rows the module holds (what the driver will execute).
    pub api: Api,
    /// Operations skipped in lenient mode, with the reason.
    pub skipped: Vec<Skipped>,
    /// Every file read (the document and the files its `$ref`s name).
    pub files: Vec<PathBuf>,
    /// The method and argument struct of each operation, in the table's order: for tools
    /// that write code against the module (tests that call every operation, wrappers).
    pub methods: Vec<Method>,
}

/// What the generated module calls one operation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Method {
    /// The tool's name (the operation's row).
    pub tool: String,
    /// The driver's method that calls it (`list_pets`).
    pub method: String,
    /// The argument struct it takes (`ListPetsArguments`).
    pub arguments: String,
    /// Whether the method answers typed (`mcs::rest::Answered`) rather than a tool result.
    pub typed_answers: bool,
}

/// The driver module for rows however they were read (`source` names the document in the
/// file's header and docs), as formatted source.
pub fn render(api: &Api, source: &str) -> Result<String, Error> {
    render_with(api, source, &emit::Typing::OFF).map(|(source, _)| source)
}

fn render_with(
    api: &Api,
    source: &str,
    typing: &emit::Typing<'_>,
) -> Result<(String, Vec<Method>), Error> {
    // A file name may hold a line break, which would end the header's comment.
    let source: String = source
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    let source = source.as_str();
    let (tokens, methods, docs) = emit::driver_module(api, source, typing);
    let file: syn::File = syn::parse2(tokens).map_err(|e| Error::Syntax(e.to_string()))?;
    let header = format!(
        "// @generated by mcs-codegen {} from {source}. Do not edit: change the document or the \
         build script.\n\n",
        env!("CARGO_PKG_VERSION"),
    );
    let formatted = docs.resolve(&prettyplease::unparse(&file));
    // The table is written as text where the placeholder item was printed.
    let Some(at) = formatted.find(emit::TABLE_PLACEHOLDER) else {
        return Err(Error::Syntax(
            "the table's placeholder was not printed".to_owned(),
        ));
    };
    let line_start = formatted[..at].rfind('\n').map_or(0, |i| i + 1);
    let indent = (at - line_start) / 4;
    let line_end = formatted[at..]
        .find('\n')
        .map_or(formatted.len(), |i| at + i + 1);
    let table = emit::api_table(api, indent);
    let mut out = String::with_capacity(header.len() + formatted.len() + table.len());
    out.push_str(&header);
    out.push_str(&formatted[..line_start]);
    out.push_str(&table);
    out.push_str(&formatted[line_end..]);
    Ok((out, methods))
}

impl Generator {
    /// A generator for the document at `spec` (relative paths are relative to the current
    /// directory, which in a build script is the crate's root).
    pub fn new(spec: impl Into<PathBuf>) -> Self {
        Generator {
            spec: spec.into(),
            options: ReadOptions::default(),
            types: TypeOptions::default(),
        }
    }

    /// The driver type's name (default: from the document's `info.title`).
    pub fn driver_name(mut self, name: impl Into<String>) -> Self {
        self.options = self.options.driver_name(name);
        self
    }

    /// Keeps only operations with at least one of these tags.
    pub fn include_tags<I, S>(mut self, tags: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.options = self.options.include_tags(tags);
        self
    }

    /// Leaves out these operations (by `operationId` or tool name).
    pub fn exclude_operations<I, S>(mut self, operations: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.options = self.options.exclude_operations(operations);
        self
    }

    /// Skips operations the generator cannot support instead of failing (one
    /// `cargo:warning` each from [`write_to_out_dir`](Self::write_to_out_dir)).
    pub fn lenient(mut self, lenient: bool) -> Self {
        self.options = self.options.lenient(lenient);
        self
    }

    /// Caps descriptions (tools' and schemas') at this many characters.
    pub fn max_description_chars(mut self, chars: usize) -> Self {
        self.options = self.options.max_description_chars(chars);
        self
    }

    /// Keeps `example`/`examples` in the schemas shown to models (dropped by default: they
    /// cost context).
    pub fn keep_examples(mut self, keep: bool) -> Self {
        self.options = self.options.keep_examples(keep);
        self
    }

    /// Types the arguments all the way: object arguments and nested objects as structs,
    /// string enums as enums (open: `Other(String)` sends a value the document does not
    /// list), unions whose variants can be told apart as enums, arrays, maps and nullables
    /// as `Vec`, `BTreeMap` and `Option`, named after the document's schemas. Off by
    /// default: such arguments are `serde_json::Value`, which is all a driver for a model
    /// needs, and cheaper to compile (BENCHMARKS.md, "typed code").
    pub fn typed_requests(mut self, typed: bool) -> Self {
        self.types.requests = typed;
        self
    }

    /// Makes each operation's method answer its body typed: `list_pets(&args).await` gives
    /// a `mcs::rest::Response` of the type the document gives its
    /// 2xx body (statuses of different shapes: an enum by status), with the status and
    /// headers, or an `mcs::rest::ApiError` whose `Status` variant
    /// holds a failing answer decoded as the document describes it. Undescribed answers are
    /// `serde_json::Value`. A model's calls (`execute_tool`) are not changed. Off by
    /// default: methods return the tool result as JSON.
    pub fn typed_responses(mut self, typed: bool) -> Self {
        self.types.responses = typed;
        self.options = self.options.responses(typed);
        self
    }

    /// Types (as [`typed_requests`](Self::typed_requests) and
    /// [`typed_responses`](Self::typed_responses) ask) only the operations with one of
    /// these tags: the others keep untyped arguments and answers, and cost no more to
    /// compile than without types.
    pub fn types_for_tags<I, S>(mut self, tags: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.types.tags = tags.into_iter().map(Into::into).collect();
        self
    }

    /// Adds derives to every generated type and argument struct, by path
    /// (`"Hash"`, `"::mcs::serde::Deserialize"`, `"schemars::JsonSchema"`); one a type has
    /// already is not repeated.
    pub fn derive<I, S>(mut self, derives: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.types.derives = derives.into_iter().map(Into::into).collect();
        self
    }

    /// Types strings by their `format`, as typify and progenitor do: `date-time` as
    /// `chrono::DateTime<Utc>`, `date` as `chrono::NaiveDate`, `uuid` as `uuid::Uuid`,
    /// `ipv4` and `ipv6` as `std::net` addresses — through `mcs::chrono` and `mcs::uuid`,
    /// which mcs's `formats` feature re-exports. For the types that
    /// [`typed_requests`](Self::typed_requests) and
    /// [`typed_responses`](Self::typed_responses) make. Off by default: an API that writes
    /// a date-time the way RFC 3339 does not (`2024-01-01 10:00`, no offset) fails to decode
    /// with it, and reads as a `String` without it.
    pub fn format_types(mut self, typed: bool) -> Self {
        self.types.formats = typed;
        self
    }

    /// Reads the document into rows.
    pub fn read(&self) -> Result<Document, Error> {
        Ok(openapi::read_file(&self.spec, &self.options)?)
    }

    /// The module's source for `document`, typed as this generator says.
    fn render(&self, document: &Document) -> Result<(String, Vec<Method>), Error> {
        let typing = emit::Typing {
            requests: self.types.requests,
            responses: if self.types.responses {
                document.responses.as_ref()
            } else {
                None
            },
            tags: &self.types.tags,
            derives: &self.types.derives,
            formats: self.types.formats,
            definitions: document
                .responses
                .as_ref()
                .map(|responses| &responses.definitions),
        };
        render_with(&document.api, &self.source_label(), &typing)
    }

    /// The driver module as tokens — the same module [`generate`](Self::generate) writes,
    /// table included — with the document they came from: for a procedural macro that
    /// expands to the driver instead of a build script that writes it.
    pub fn tokens(&self) -> Result<(TokenStream, Document), Error> {
        let document = self.read()?;
        let (source, _) = self.render(&document)?;
        let tokens = source
            .parse::<TokenStream>()
            .map_err(|error| Error::Syntax(error.to_string()))?;
        Ok((tokens, document))
    }

    /// The driver module as formatted source.
    pub fn generate(&self) -> Result<Generated, Error> {
        self.generate_from(self.read()?)
    }

    /// The driver module for a document read elsewhere (fetched from a URL, say), typed as
    /// this generator says; the generator's path only names the source in the module's
    /// header. For typed answers the document must have been read with
    /// [`ReadOptions::responses`](mcs_openapi::ReadOptions::responses), else the methods
    /// answer untyped values.
    pub fn generate_from(&self, document: Document) -> Result<Generated, Error> {
        let (source, methods) = self.render(&document)?;
        Ok(Generated {
            source,
            methods,
            api: document.api,
            skipped: document.skipped,
            files: document.files,
        })
    }

    /// Writes the module to `path`, only when its content changed (so the including crate
    /// is not rebuilt for nothing).
    pub fn write_to(&self, path: impl AsRef<Path>) -> Result<Generated, Error> {
        let generated = self.generate()?;
        let path = path.as_ref();
        let unchanged = std::fs::read(path).is_ok_and(|old| old == generated.source.as_bytes());
        if !unchanged {
            std::fs::write(path, &generated.source).map_err(|source| Error::Io {
                path: path.to_owned(),
                source,
            })?;
        }
        Ok(generated)
    }

    /// From `build.rs`: writes the module to `$OUT_DIR/{file_name}`, prints
    /// `cargo:rerun-if-changed` for every file read and a `cargo:warning` for every
    /// skipped operation. Include it with `mcs::include_driver!("{file_name}")`.
    pub fn write_to_out_dir(&self, file_name: &str) -> Result<Generated, Error> {
        let out_dir = std::env::var_os("OUT_DIR").ok_or(Error::NoOutDir)?;
        println!("cargo:rerun-if-changed={}", self.spec.display());
        let generated = self.write_to(Path::new(&out_dir).join(file_name))?;
        for file in &generated.files {
            println!("cargo:rerun-if-changed={}", file.display());
        }
        for skipped in &generated.skipped {
            println!("cargo:warning=mcs-codegen skipped {skipped}");
        }
        Ok(generated)
    }

    fn source_label(&self) -> String {
        self.spec.file_name().map_or_else(
            || self.spec.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        )
    }
}
