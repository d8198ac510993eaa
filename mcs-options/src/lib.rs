//! What [mcs](https://docs.rs/model-context-standard) reads in two places: in the runtime
//! when a program runs, and in the macros when the user's crate compiles — the option
//! formats of `#[mcs::hybrid]` (prompt files, the unknown-tool policy) and the rules for the
//! names a model sees ([`names`]).
//!
//! Keeping them here lets the macros check a prompt file, an `unknown_tools = "..."` value
//! or a tool name with exactly the code the runtime uses, without compiling the runtime
//! (schemars, serde_json, aho-corasick, ...) for the host.
//!
//! Users reach these types through `mcs` (`mcs::prompt`, `mcs::hybrid::UnknownToolPolicy`);
//! depending on this crate directly is not needed.
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod names;
mod policy;
mod prompt_file;

pub use policy::{ParsePolicyError, UnknownToolPolicy};
pub use prompt_file::{InvalidPromptFile, PromptFile, VariantFile};
