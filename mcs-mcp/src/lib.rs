//! mcs and the Model Context Protocol, both ways, over the official Rust SDK (`rmcp`).
//!
//! - **Serve**: [`McpServer`] makes any [`ToolDriver`](mcs::ToolDriver) (an annotated
//!   driver, a generated REST driver, an orchestrator) an MCP server, over stdio
//!   ([`McpServer::serve_stdio`]), streamable HTTP ([`McpServer::http`]) or any rmcp
//!   transport ([`McpServer::serve`]).
//! - **Consume**: [`McpToolDriver`] connects to an MCP server (a child process, a URL, any
//!   rmcp transport) and is an ordinary `ToolDriver`; wrapped in
//!   [`Hybrid`](mcs::hybrid::Hybrid), its tools reach any model in every call format mcs
//!   reads.
//!
//! # How the two models meet
//!
//! | mcs | MCP |
//! | --- | --- |
//! | [`Tool`](mcs::Tool) name, title, description | `name`, `title` (or `annotations.title`), `description` |
//! | parameters, [`Tool::input_schema`](mcs::Tool::input_schema) | `inputSchema` (properties, `required`, `$defs`) |
//! | `Ok(value)` | text content (a string as itself, other values as JSON), an object also as `structuredContent` |
//! | [`ToolError`](mcs::ToolError) (invalid arguments, failed, declined) | `isError: true`, the error and a retry hint as text |
//! | unknown tool | protocol error `-32602` |
//! | [`ToolAnnotations`](mcs::ToolAnnotations) (read-only, destructive, idempotent, open world) | `annotations` hints (`readOnlyHint`, …), both ways |
//! | — (mcs has no resources) | consumed: two read-only tools, `list_resources` (resources and templates: `uri`/`uriTemplate`, `name`, `title`, `description`, `mimeType`, `size`; every page) and `read_resource` (`uri` → a lone text as itself, several contents joined, blobs described by type and size), named apart from the server's tools, switched by [`ConnectOptions::resource_tools`]; and [`McpToolDriver::resources`], [`McpToolDriver::read_resource`] |
//! | — | served: [`McpServer::with_resource`] (static text), [`McpServer::with_dynamic_resource`]; an unknown URI is `-32002` |
//! | conversation messages `{"role", "content"}` | consumed prompts, for the program, not the model (a user picks an MCP prompt): [`McpToolDriver::prompts`], [`McpToolDriver::get_prompt`] (non-text content in words) |
//! | [`Driver::get_driver_system_message`](mcs::Driver::get_driver_system_message) | served prompt `system_prompt` (optional argument `model`) by [`McpServer::with_driver_prompt`]: one `user` message, MCP prompts having no system role; prompts of your own by [`McpServer::with_prompt`] |
//!
//! A consumed tool's argument whose key a provider refuses (`filter[name]`, `$top`: one such
//! key makes Anthropic's Messages API refuse a whole request) is listed under
//! [`mcs::export::argument_key`] of it (`filter_name`, `top`), its description saying what
//! the server calls it, and calls send it back under the server's name. A consumed tool
//! whose name a provider refuses (MCP allows `math.add` or `filter[name]`; OpenAI and
//! Anthropic refuse a request in which one tool name falls outside `^[a-zA-Z0-9_-]{1,64}$`)
//! is listed under a portable name made by the same rule (`math_add`, unique among the
//! server's tools), its description naming the server's, and called under the server's.
//!
//! Read back, `structuredContent` is the result when present; a lone text block is a string;
//! images, audio and resources are summarised in words. A server written with this crate
//! also describes its results and errors under the `_meta` key [`META_KEY`], so that a
//! driver served and consumed again answers exactly as it did: the same values, the same
//! [`ToolError`](mcs::ToolError) variants.
//!
//! # Limits
//!
//! One JSON-RPC message may be [`DEFAULT_MESSAGE_LIMIT`] (16 MiB) of JSON each way unless
//! set otherwise ([`McpServer::message_limits`], [`ConnectOptions::message_limits`], see
//! [`MessageLimits`]). Over the limit, nothing is dropped without a word:
//!
//! | what | served | consumed |
//! | --- | --- | --- |
//! | request over the limit | stdio: `-32600` for its id, the session goes on; HTTP: `413` | refused before it is sent ([`McpError::MessageTooLarge`]) |
//! | answer over the limit | a `tools/call` result: a tool error that says so; any other: `-32603` for its id | the call fails at once ([`McpError::MessageTooLarge`]) |
//! | line that is not JSON | `-32700` (with the id when it can be read) | reported with the server's output |
//!
//! Measured (`cargo bench -p mcs-mcp --bench limits`, release build, one core of a shared
//! 2-core machine): a `tools/call` of exactly 16 MiB, the largest served by default, is read,
//! validated, run and answered in 57 ms; one byte more and the request is skipped as it is
//! read and answered with its error in 28 ms; a client refuses a 16 MiB request in 18 ms,
//! without sending it.
//!
//! # Example
//!
//! A driver served over an in-process pipe and consumed again:
//!
//! ```
//! use mcs::ToolDriver;
//! use mcs_mcp::{ConnectOptions, McpServer, McpToolDriver};
//! use serde_json::json;
//!
//! struct Calculator;
//!
//! #[mcs::tool_driver]
//! impl Calculator {
//!     /// Adds two integers.
//!     #[tool]
//!     fn add(&self, a: i64, b: i64) -> i64 {
//!         a + b
//!     }
//! }
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let (server_end, client_end) = tokio::io::duplex(64 * 1024);
//! let server = tokio::spawn(McpServer::new(Calculator).serve(server_end));
//! let remote = McpToolDriver::connect("calculator", client_end, ConnectOptions::default()).await?;
//! let _running = server.await??;
//!
//! assert_eq!(remote.list_tools()[0].name(), "add");
//! assert_eq!(remote.execute_tool("add", json!({"a": 2, "b": 3})).await?, json!(5));
//! let error = remote.execute_tool("add", json!({"a": 2})).await.unwrap_err();
//! assert!(error.to_string().contains("missing required argument `b`"));
//! # Ok(())
//! # }
//! ```
#![cfg_attr(docsrs, feature(doc_cfg))]

mod consume;
mod convert;
mod error;
mod framing;
mod limits;
mod process;
mod serve;

pub use consume::{ConnectOptions, McpToolDriver, SkippedTool};
pub use convert::{META_KEY, retry_hint};
pub use error::{McpError, ServeError};
pub use limits::{DEFAULT_MESSAGE_LIMIT, MessageLimits};
pub use serve::{DEFAULT_MAX_SESSIONS, HttpServer, LOOPBACK_ORIGINS, MCP_PATH, McpServer};

/// The rmcp version this crate speaks through, for transports and configuration types.
pub use rmcp;
