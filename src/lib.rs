//! # mcs — the Model Context Standard for Rust
//!
//! The package is `model-context-standard` on crates.io; its library is `mcs`. It re-exports
//! the crates of the workspace by feature (`mcs-core`, `mcs-extract`, `mcs-hybrid`, `mcs-llm`,
//! `mcs-orchestrator`, `mcs-policy`, `mcs-rest`, `mcs-openapi`) with the macros, so a program
//! depends on it alone.
//!
//! Give a language model typed tools with one attribute. Plain Rust methods become an MCS
//! [`ToolDriver`]: their doc comments describe them to the model, their parameter types
//! (through [`schemars`]) give the JSON Schema of the arguments, and a generated `match`
//! dispatches calls to them with every argument checked.
//!
//! ```
//! use mcs::ToolDriver;
//!
//! struct Weather;
//!
//! #[mcs::tool_driver(name = "weather")]
//! impl Weather {
//!     /// Current temperature in a city, in degrees Celsius.
//!     ///
//!     /// # Arguments
//!     ///
//!     /// * `city` - The city's name, e.g. "Paris".
//!     #[tool]
//!     fn temperature(&self, city: String) -> f64 {
//!         if city == "Paris" { 21.5 } else { 15.0 }
//!     }
//! }
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! let driver = Weather;
//! assert_eq!(driver.list_tools()[0].name(), "temperature");
//! let result = driver
//!     .execute_tool("temperature", serde_json::json!({ "city": "Paris" }))
//!     .await
//!     .unwrap();
//! assert_eq!(result, 21.5);
//!
//! // A wrong call says what was wrong, in words a model can act on.
//! let error = driver.execute_tool("temperature", serde_json::json!({ "town": "Paris" })).await;
//! assert!(error.unwrap_err().to_string().contains("missing required argument `city`"));
//! # }
//! ```
//!
//! ## `#[mcs::tool_driver]`
//!
//! Goes on an inherent `impl` block. State lives in the type's fields and is reached
//! through `&self`: drivers are shared (`Arc<dyn ToolDriver>`), so tool methods take `&self`,
//! never `&mut self`. Methods without `#[tool]` stay ordinary methods.
//!
//! Driver-level options: `name` (default: the type's name), `id` (default: the module path
//! and type name, stable across builds), `version` (default: the crate's
//! `CARGO_PKG_VERSION`), `capability` and `adapter` (the [`Binding`]; default `custom` /
//! `native`), `spec_format`, and `crate = "path"` for a renamed `mcs` dependency.
//! `meta = "driver_meta"` takes the metadata whole from a method `fn driver_meta(&self) ->
//! &DriverMeta` instead, per instance: a driver generic over its backend (`mcs_fs::Files<A>`)
//! names the backend it holds. The tool list stays one for the type.
//! Generated code refers to `::mcs` by default; with `crate = "my_mcs"` it writes
//! `my_mcs::...`, which resolves where the impl block is, like any path written there: a
//! dependency renamed in `Cargo.toml` is found from every module, a `use mcs as my_mcs;`
//! only where it is in scope. Inside the block, `#[my_mcs::tool]` is then recognized too.
//!
//! ## `#[tool]`
//!
//! - The tool's name is the method's name, or `#[tool(name = "...")]`; names must fit
//!   `^[A-Za-z0-9_-]{1,64}$`, which every provider accepts, and be unique in the driver.
//! - The description is the doc comment, with its formatting kept; a `# Arguments` section
//!   (`` * `city` - text ``) is moved into the parameters' descriptions. The title is
//!   `#[tool(title = "...")]`, or else the first line of the doc comment.
//! - `#[tool(tags = ["orders", "billing"])]` puts the tool in groups: an
//!   `Orchestrator` (`mcs::orchestrator`, feature `orchestrator`) makes a toolset of each tag (the first, when
//!   there are several), as it does with a generated driver's OpenAPI tags. Tags are
//!   non-empty and distinct; the driver answers them through
//!   [`ToolDriver::tool_tags`]. On the driver, `tag("orders", "Orders customers place")`
//!   (once per tag, for a tag some tool has) says what a tag stands for: the toolset's
//!   description, shown beside it in discovery mode ([`ToolDriver::tag_description`]), as a
//!   generated driver does with its OpenAPI document's `tags[].description`.
//! - `#[tool(read_only)]`, `#[tool(destructive, idempotent)]`, `open_world = false`: what the
//!   tool does to the world, as hints a client shows or acts on ([`ToolAnnotations`], MCP's
//!   tool annotations). A key alone says `true`; `= false` says so; a key left out says
//!   nothing.
//! - Methods may be `async`. They return any `T: Serialize` (including `()`), or a `Result`
//!   whose error is a [`ToolError`] (passed through), a `std::error::Error` (kept as the
//!   failure's source) or anything `Display`.
//!
//! ## Parameters
//!
//! Any `T: DeserializeOwned + JsonSchema`. A doc comment on the parameter describes it (or
//! the `# Arguments` entry does). `Option<T>` makes it optional. Attributes:
//! - `#[arg(name = "...")]`: the argument's key, if not the parameter's name;
//! - `#[arg(default)]`: optional, `Default::default()` when absent;
//! - `#[arg(flatten)]`: a struct whose fields are top-level arguments.
//!
//! Calls are checked before the method runs: a missing required argument, a value of the
//! wrong type (with its path inside nested values) and an argument the tool does not have
//! are all reported at once as [`ToolError::InvalidArguments`].
//!
//! Types used in parameters need `serde::Deserialize` and `schemars::JsonSchema` (schemars
//! 1.x); their doc comments (fields, enum variants) reach the schema the model sees.
//!
//! ## `#[mcs::hybrid]`
//!
//! Goes on the same impl block and adds the [`Driver`] side: `get_function_description`,
//! `get_driver_system_message(model)` (a prompt per model family, see [`prompt`]) and
//! `process_llm_response`, which finds the tool calls in a model's output (text in any of
//! some thirty formats, or a provider-native message: see [`extract`]), validates and
//! executes the ones this driver owns, and answers with a [`DriverResponse`] (see
//! [`hybrid::process_llm_response`] for the rules). Options:
//! - `system = "..."`: the default system prompt, with `{driver}`, `{tools}` and
//!   `{call_format}` placeholders;
//! - `prompt_file = "prompts.toml"`: prompt overrides, relative to `Cargo.toml`, checked at
//!   compile time (see [`prompt`] for the format);
//! - `unknown_tools = "pass_through" | "reject"`: what a call for a tool this driver does not
//!   have gives (pass-through, the default, is what the standard requires);
//! - `compact_threshold = N`: past `N` tools, list names and titles only.
//!
//! A `Driver` is a `ToolDriver` too (`trait Driver: ToolDriver`): `driver.meta()` is the tool
//! driver's, and a `&dyn Driver` is a `&dyn ToolDriver`.
//! `mcs::llm::Conversation` (feature `llm`) runs the whole loop with a model.
#![cfg_attr(docsrs, feature(doc_cfg))]

pub use mcs_derive::{hybrid, tool, tool_driver};

pub use mcs_core::{
    ArgumentError, ArgumentErrorKind, Binding, BoxError, BoxFuture, Definitions, Driver,
    DriverMeta, DriverResponse, DriverStream, LlmResponse, MissingToolText, StreamSession,
    StreamedResponse, Tool, ToolAnnotations, ToolCallRecord, ToolDriver, ToolError, ToolFuture,
    ToolParameter, ToolsListener, ToolsWatchers,
};
pub use mcs_core::{export, schema, validate};
// The call spans the crates that run tools share (mcs-mcp's served calls among them).
#[doc(hidden)]
pub use mcs_core::telemetry;

/// Finding the tool calls in a model's output, whole (see [`stream`] for output that is still
/// being written). The crate `mcs-extract`.
pub mod extract {
    #[doc(inline)]
    pub use mcs_extract::{
        CallFormat, CallSource, Extraction, FoundCall, MAX_MALFORMED, MalformedCall,
        ReasoningStart, ToolIndex, extract, extract_indexed,
    };
}
#[doc(inline)]
pub use mcs_extract::stream;

/// The `Driver` side for any `ToolDriver`: prompts out, model output in. The crate
/// `mcs-hybrid`.
pub mod hybrid {
    #[doc(inline)]
    pub use mcs_hybrid::{
        Hybrid, HybridOptions, ParsePolicyError, UnknownToolPolicy, function_description,
        process_llm_response, process_llm_stream, system_message,
    };
}
#[doc(inline)]
pub use mcs_hybrid::prompt;

#[doc(inline)]
#[cfg(feature = "llm")]
pub use mcs_llm as llm;
#[doc(inline)]
#[cfg(feature = "openapi")]
pub use mcs_openapi as openapi;
#[doc(inline)]
#[cfg(feature = "orchestrator")]
pub use mcs_orchestrator as orchestrator;
#[doc(inline)]
#[cfg(feature = "policy")]
pub use mcs_policy as policy;
#[doc(inline)]
#[cfg(feature = "rest")]
pub use mcs_rest as rest;

/// The TLS crypto provider of the HTTP clients mcs builds (see [`tls::ensure_provider`]).
#[cfg(any(feature = "http", feature = "openai", feature = "anthropic"))]
pub mod tls {
    #[doc(inline)]
    pub use mcs_http::ensure_provider;
}

/// Re-exported for `date-time` and `date` strings typed by mcs-codegen's `format_types`.
#[cfg(feature = "formats")]
pub use chrono;
/// Re-exported so that parameter types can derive `JsonSchema` with the version mcs uses.
pub use schemars;
/// Re-exported for the `serde` derives of parameter and result types.
pub use serde;
/// Re-exported: tool arguments and results are `serde_json::Value`s.
pub use serde_json;
/// Re-exported for `uuid` strings typed by mcs-codegen's `format_types`.
#[cfg(feature = "formats")]
pub use uuid;

/// What code generated by the mcs macros refers to. Not a stable API.
#[doc(hidden)]
pub mod __private {
    pub use mcs_core::__private::*;
    pub use mcs_core::stream::StreamOptions;
    pub use mcs_core::{
        Binding, BoxFuture, Driver, DriverMeta, DriverResponse, DriverStream, LlmResponse, Tool,
        ToolDriver, ToolError, ToolFuture,
    };
    pub use mcs_hybrid::prompt::Prompts;
    pub use mcs_hybrid::{
        self as hybrid, __hybrid_driver as hybrid_driver, HybridOptions, UnknownToolPolicy,
    };
    #[cfg(feature = "rest")]
    pub use mcs_rest::__rest_driver as rest_driver;
    pub use serde_json::Value;
    pub use std::boxed::Box;
    pub use std::string::String;
    pub use std::sync::{Arc, OnceLock};
}

/// Includes a driver that `mcs-codegen` wrote into `OUT_DIR` from `build.rs`:
/// `mcs::include_driver!("petstore.rs");` puts the driver type, its argument structs and
/// its rows where the macro is called.
#[macro_export]
macro_rules! include_driver {
    ($file:literal) => {
        ::core::include!(::core::concat!(::core::env!("OUT_DIR"), "/", $file));
    };
}

/// The README's code samples, compiled as doc tests so that they cannot drift.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
